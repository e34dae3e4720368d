# LAPACK's LU pivots and infos are int32 tensors, P is a float tensor without a gradient, and lu_unpack and
# lu_solve refuse pivots of another dtype, as PyTorch does.
import torch
a = torch.tensor([[4., 3., 1.], [6., 3., 2.], [1., 5., 7.]], requires_grad=True)
P, L, U = torch.linalg.lu(a)
print(P, P.dtype, P.requires_grad, L.grad_fn)
lu, piv = torch.linalg.lu_factor(a)
print(piv, piv.dtype)
lu2, piv2, info = torch.linalg.lu_factor_ex(a)
print(piv2, info, info.dtype)
r = torch.lu(a, get_infos=True)
print(r[1], r[2])
P2, L2, U2 = torch.lu_unpack(lu, piv)
print(P2, P2.dtype, U2.grad_fn)
x = torch.lu_solve(torch.ones(3, 1), lu, piv)
print(x, x.grad_fn)
y = torch.linalg.lu_solve(lu, piv, torch.ones(3, 2))
print(y)
L3, info3 = torch.linalg.cholesky_ex(a @ a.T)
print(info3, info3.dtype)
y.sum().backward()
print(a.grad)
try:
    torch.lu_unpack(lu, piv.long())
except RuntimeError as e:
    print("error:", e)
try:
    torch.linalg.lu_solve(lu, piv.long(), torch.ones(3, 2))
except RuntimeError as e:
    print("error:", e)
try:
    torch.lu_solve(torch.ones(3, 1), lu, torch.tensor([2, 2, 3]))
except RuntimeError as e:
    print("error:", e)
print(torch.lu_solve(torch.ones(3, 1), lu, torch.tensor([2, 2, 3], dtype=torch.int32)))
