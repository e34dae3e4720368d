import torch
# create_graph=True keeps the derivative's own graph, for a second derivative.
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
print(g.grad_fn)
print(g.requires_grad)
g.backward()
print(x.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
z = (w ** 2).sum() * w[0]
dz, = torch.autograd.grad(z, w, create_graph=True)
print(dz)
print(dz.grad_fn)
h = torch.autograd.grad(dz.sum(), w)
print(h)
