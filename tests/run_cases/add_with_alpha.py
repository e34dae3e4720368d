# The alpha= forms of add and sub, as hand-written optimizers and PyTorch's own docs write them: torch.add(x, y,
# alpha=a), x.sub(y, alpha=a), p.add_(g, alpha=-lr) under no_grad (a vectorised fmadd: rounded once), integer
# tensors, a number as the second operand, and PyTorch's error for a float alpha on integers.
import torch

torch.manual_seed(0)
a = torch.randn(1000)
b = torch.randn(1000)
print(torch.add(a, b, alpha=0.3).sum().item(), a.sub(b, alpha=1.7).sum().item())
print(torch.sub(a, 0.25, alpha=3)[:4])

w = torch.randn(3, 2, requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
lr = 0.1
with torch.no_grad():
    w.add_(w.grad, alpha=-lr)
    w.sub_(w.grad, alpha=lr / 3)
print(w)
a.add_(b, alpha=-0.01)
print(a[:5].tolist())

i = torch.tensor([1, 2, 3])
print(torch.add(i, i, alpha=2), i.sub(2, alpha=3))
try:
    torch.add(i, i, alpha=0.5)
except RuntimeError as e:
    print("RuntimeError:", e)

# the 2017 tutorials' overload, a number first: deprecated (a warning on stderr) and computed as alpha=
p = torch.ones(3)
g = torch.tensor([2.0, 4.0, 8.0])
for _ in range(2):
    p.add_(-0.1, g)
print(p)
