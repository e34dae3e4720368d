import torch
# torch.svd(a, some, compute_uv): compute_uv=False (by position or keyword) gives S, and U and V of zeros,
# (m, m) and (n, n) whatever `some` says, without a gradient.
a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], dtype=torch.float64, requires_grad=True)
r = torch.svd(a, True, False)
print(r)
print(r.U.shape, r.V.shape, r.U.requires_grad, r.U.grad_fn, r.V.grad_fn)
print(r.S.grad_fn, r.S.grad_fn.next_functions)
print(torch.svd(a, compute_uv=False).S)
print(a.svd(False, False).V.shape)
print(torch.svd(a.T, some=True, compute_uv=False))
r.S.sum().backward()
print(a.grad)
b = torch.tensor([[[2.0, 1.0], [1.0, 3.0]], [[1.0, 0.0], [0.0, -2.0]]], dtype=torch.float64, requires_grad=True)
s = torch.svd(b, compute_uv=False)
print(s)
(s.S * torch.tensor([1.0, 2.0], dtype=torch.float64)).sum().backward()
print(b.grad)
