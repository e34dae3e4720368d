# t.normal_, t.uniform_, t.fill_ (torch's generator, in place), PyTorch's errors for their bad arguments and a leaf
# that requires grad; x.grad.data.zero_(), an optimizer's step and zero_grad(set_to_none=False) change the arrays
# in place, so a .data alias taken before sees them, as in PyTorch.
import torch
torch.manual_seed(0)
a = torch.zeros(3, 20)
print(a.normal_(0, 0.01)[0, :3].tolist())
print(a.uniform_(-1, 2)[1, :3].tolist())
print(a.fill_(2.5)[2, :2])
b = torch.zeros(2, dtype=torch.float64).normal_(); print(b)
print(torch.zeros(3).fill_(torch.tensor(7)))
w = torch.ones(2, requires_grad=True)
w.data.normal_(); print(w)
try:
    torch.zeros(2).normal_(0, -1)
except RuntimeError as e:
    print(e)
try:
    torch.zeros(2).uniform_(1, 0)
except RuntimeError as e:
    print(e)
try:
    w.fill_(1)
except RuntimeError as e:
    print(e)
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward()
x.grad.data.zero_()
print(x.grad)
lin = torch.nn.Linear(2, 1)
wd = lin.weight.data
opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
for _ in range(3):
    opt.zero_grad()
    lin(torch.ones(1, 2)).sum().backward()
    opt.step()
print(wd, lin.weight)
g = lin.weight.grad
gd = g.data
opt.zero_grad(set_to_none=False)
print(gd, lin.weight.grad)
