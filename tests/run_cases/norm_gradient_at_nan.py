# The gradient of a 1-norm or an inf-norm is PyTorch's sgn(x) there, which is 0 at NaN (NumPy's sign is NaN):
# vector_norm, norm, dist, pairwise_distance and triplet_margin_loss with p=1, as PyTorch gives them.
import torch
import torch.nn.functional as F

nan = float('nan')
for p in (1, float('inf'), 2, 3):
    x = torch.tensor([nan, 1., -2.], dtype=torch.float64, requires_grad=True)
    torch.linalg.vector_norm(x, p).backward()
    print(p, x.grad)
a = torch.tensor([[nan, 1., 2.], [3., 1., 0.]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1., 2., 3.], [0., 1., nan]], dtype=torch.float64, requires_grad=True)
c = torch.tensor([[1., 1., 1.], [2., 2., 2.]], dtype=torch.float64, requires_grad=True)
torch.dist(a, b, p=1).backward()
print(a.grad, b.grad)
a.grad = b.grad = None
F.pairwise_distance(a, b, p=1.0).sum().backward()
print(a.grad, b.grad)
a.grad = b.grad = None
F.triplet_margin_loss(a, b, c, margin=3.0, p=1.0, reduction='sum').backward()
print(a.grad, b.grad, c.grad)
print(torch.norm(a, 1), torch.norm(b.detach(), p=1, dim=1))
