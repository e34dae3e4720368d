import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (torch.atleast_1d(x) ** 2).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
print(g)
z = torch.atleast_1d(x)
print(z.grad_fn)
