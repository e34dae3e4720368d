import torch
# Hessian-vector products by double backward, and a Hessian row by row.
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.tensor([0.5, -1.0, 2.0])
f = (x ** 2 * x.sin()).sum() + torch.exp(x).sum()
g, = torch.autograd.grad(f, x, create_graph=True)
print(g)
hv, = torch.autograd.grad(g, x, grad_outputs=v, retain_graph=True)
print(hv)
gv = (g * v).sum()
hv2, = torch.autograd.grad(gv, x, retain_graph=True)
print(hv2)
# Hessian row by row
H = torch.stack([torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)])
print(H)
