import torch
import math

a = torch.tensor([1.0, 2.5, 1e-5], dtype=torch.float64, requires_grad=True)
b = torch.exp(a) * math.pi
print(b)
s = b.sum()
s.backward()
print(a.grad)
big = torch.tensor([1e10, 1.0, -3.0], requires_grad=True)
print(big * 2)
c = torch.linspace(-1.0, 2.0, 25)
print(c)
print("sum = %.4f, mean = %s" % (c.sum().item(), c.mean()))
print("{} and {:.3f}".format(s, s.item()), f"{s:.2f}", sep=" | ", end="!\n")
t = torch.ones(2, 3, requires_grad=True)
u = (t * torch.tensor([1.0, 2.0, 3.0])).sum(dim=1)
u.backward(torch.tensor([1.0, -1.0]))
print(t.grad)
print(u)
