import torch
# products of integer tensors stay integers (int64 that wraps), as PyTorch's kernels compute them
a = torch.tensor([[1, 2], [3, 4]])
v = torch.tensor([1, 2])
print(a @ v, v @ a, v @ v)
print(a @ a)
print(torch.mm(a, a), torch.mv(a, v), torch.dot(v, v), torch.bmm(a[None], a[None]))
print(torch.ones(2, 3, 2, dtype=torch.int64) @ a)
print(a.int() @ a.int(), (v.int() @ v.int()).dtype)
print(torch.tensor([[2**62, 3]]) @ torch.tensor([[4], [5]]))
print(torch.linalg.matrix_power(a, 3), torch.einsum("ij,jk->ik", a, a), torch.inner(v, v))
w = a.float().requires_grad_()
print(w @ a.float())
