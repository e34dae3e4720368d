# LU factorizations of matrices with no entries answer as PyTorch's do (they said NumPy's
# "cannot reshape array of size 0" in PyTorch's voice): empty factors, int32 pivots, info 0.
import torch

a = torch.zeros((0, 3), dtype=torch.float64, requires_grad=True)
print(torch.linalg.lu_factor(a))
print(torch.linalg.lu_factor_ex(a))
print(torch.linalg.lu(a))
b = torch.zeros((3, 0), dtype=torch.float64, requires_grad=True)
print(torch.linalg.lu_factor(b))
P, L, U = torch.linalg.lu(b)
print(P, L, U)
c = torch.zeros((2, 0, 3), dtype=torch.float64, requires_grad=True)
print(torch.linalg.lu_factor_ex(c))
print(torch.linalg.lu(c))
(torch.linalg.lu(a)[2].sum() + torch.linalg.lu_factor(c)[0].sum()).backward()
print(a.grad, c.grad)
