import torch
# torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp, with and without create_graph.
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp

def f(x):
    return x ** 3 + torch.sin(x).sum()

def g(x, y):
    return (x * y.exp()).sum() + (x ** 2).sum() * y[0]

x = torch.tensor([1.0, 2.0, -0.5])
y = torch.tensor([0.3, -1.2])
print(jacobian(f, x))
print(jacobian(lambda a: a.sum() * a, x))
print(jacobian(g, (x[:2], y)))
print(hessian(lambda a: (a ** 3).sum() + a[0] * a[1] * a[2], x))
print(hessian(g, (x[:2], y)))
v = torch.tensor([1.0, -1.0, 0.5])
print(vjp(f, x, v))
print(jvp(f, x, v))
print(hvp(lambda a: (a.sin() * a).sum(), x, v))
print(vhp(lambda a: (a.sin() * a).sum(), x, v))
J = jacobian(f, x, create_graph=True)
print(J.shape, J.requires_grad)
w = torch.tensor([0.5, 1.5], requires_grad=True)
H = hessian(lambda a: (a.exp() * a).sum(), w, create_graph=True)
print(H)
print(torch.autograd.grad(H.sum(), w))
print(jacobian(lambda a: torch.tanh(a) @ torch.ones(3, 2), x).shape)
print(jacobian(lambda a: (a, a * 2), torch.tensor(3.0)))
