# Found by fuzz/programs.py: torch.all and torch.any, as x.all() and x.any() (a bool tensor, no grad_fn), with dim and
# keepdim, on bool, integer and float tensors (run refused 'torch.all').
import torch

x = torch.tensor([[0.5, -1.0, 0.0], [2.0, 3.0, 0.25]], dtype=torch.float64, requires_grad=True)
m = x > 0
print(torch.all(m), torch.any(m), torch.all(m, dim=1), torch.any(m, 0), torch.all(m, -1, keepdim=True))
print(torch.all(x), torch.any(x, dim=0), torch.all(torch.tensor([1, 2, 0]), 0), torch.any(torch.tensor([], dtype=torch.bool)))
y = torch.all(x * 2 > -5, dim=0)
print(y, y.dtype, y.requires_grad, y.grad_fn)
print(bool(torch.any(x < -0.5)), torch.all(m, dim=-2).tolist())
torch.all(m, dim=2)
