import torch
# Derivatives of every order, each gradient differentiated again (create_graph=True).
x = torch.linspace(-3, 3, 7, requires_grad=True)
y = torch.sin(x)
dy, = torch.autograd.grad(y.sum(), x, create_graph=True)
d2y, = torch.autograd.grad(dy.sum(), x, create_graph=True)
d3y, = torch.autograd.grad(d2y.sum(), x)
print(dy, d2y, d3y, sep="\n")
w = torch.tensor([0.5, -1.0, 2.0, 0.25, 1.5, -0.75, 3.0])
for f in (torch.tanh, torch.sigmoid, torch.exp, torch.relu, lambda t: t ** 3, lambda t: 1 / (1 + t * t),
          lambda t: torch.log(t * t + 1)):
    d, = torch.autograd.grad((f(x) * w).sum(), x, create_graph=True)
    d2, = torch.autograd.grad((d * w).sum(), x)
    print(d)
    print(d2)
for f in (lambda t: torch.softmax(t, dim=0), lambda t: torch.log_softmax(t, 0)):
    d, = torch.autograd.grad((f(x) * w).sum(), x, create_graph=True)
    d2, = torch.autograd.grad((d * w).sum(), x)
    print(d.detach(), d.requires_grad)
    print(d2)
m = torch.nn.functional.mse_loss(x * x, torch.ones(7))
d, = torch.autograd.grad(m, x, create_graph=True)
print(d.detach())
print(torch.autograd.grad(d.sum(), x)[0])
W = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]], requires_grad=True)
u = torch.tensor([[1.0, -2.0, 0.5], [0.25, 1.0, -1.0]], requires_grad=True)
o = torch.relu(u @ W).pow(2).mean()
gW, gu = torch.autograd.grad(o, (W, u), create_graph=True)
print(gW, gu, sep="\n")
print(torch.autograd.grad(gW.sum() + (gu ** 2).sum(), (W, u)))
# backward(create_graph=True): the grad keeps a graph, and accumulates into one
a = torch.tensor(2.0, requires_grad=True)
(a ** 4).backward(create_graph=True)
print(a.grad.requires_grad, a.grad)
ga = a.grad
a.grad = None
ga.backward()
print(a.grad)
