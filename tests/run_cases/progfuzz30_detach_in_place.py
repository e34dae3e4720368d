# t.detach_() and t.retains_grad, as the tutorials' zero_grad and retain_grad examples use them
# (progfuzz30, --family higher: gradcli refused both)
import torch

x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = x * 2
print(y.retains_grad, x.retains_grad)
y.retain_grad()
x.retain_grad()
print(y.retains_grad, x.retains_grad)
z = y ** 2
z.sum().backward(retain_graph=True)
print(y.grad, x.grad)
same = y.detach_()
print(same is y, y.requires_grad, y.is_leaf, y.grad_fn, y.retains_grad)
print(z.grad_fn, z.grad_fn.next_functions[0][0])
y.requires_grad_()
(y ** 3).sum().backward()
print(y.grad, x.grad)
w = x * 3
try:
    w[0].detach_()
except RuntimeError as e:
    print(e)
v = w.view(3)
try:
    v.detach_()
except RuntimeError as e:
    print(e)
d = w.detach()
d.detach_()
print(d.requires_grad)
x.grad.detach_()
x.grad.zero_()
print(x.grad)
x.detach_()
print(x.requires_grad, x.is_leaf)
print((x * 2).requires_grad)
