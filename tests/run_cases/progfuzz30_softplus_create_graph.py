# softplus's gradient made with create_graph=True is one SoftplusBackwardBackward0 node, as PyTorch records it, and
# differentiates again through x (progfuzz30, --family higher: gradcli recorded MulBackward0 nodes)
import torch
import torch.nn.functional as F

x = torch.tensor([-0.22, -0.1, 0.5, 1.7, -3.0], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(F.softplus(x).sum(), x, create_graph=True)
print(g)
print(g.grad_fn.next_functions)
g.sum().backward()
print(x.grad)
x.grad = None
w = torch.tensor([0.5, -1.0, 2.0, 0.25, 1.0], dtype=torch.float64, requires_grad=True)
h, = torch.autograd.grad((F.softplus(x, beta=2.0, threshold=1.0) * w).sum(), x, create_graph=True)
print(h)
(h * h).sum().backward()
print(x.grad)
print(w.grad)
H = torch.autograd.functional.hessian(lambda t: F.softplus(t).sum(), x.detach())
print(H)
