# A call that gives PyTorch's namedtuple prints it under the name of the call as written:
# torch.linalg.X's is linalg_X, torch.X's and the method's is X (issue #21: one spelling, one meaning).
import torch

a = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
v = torch.tensor([3.0, 1.0, 2.0])
print(torch.linalg.lu_factor(a))
print(torch.linalg.lu(a))
print(torch.linalg.slogdet(a))
print(torch.slogdet(a))
print(a.slogdet())
print(torch.linalg.eigh(a))
print(torch.linalg.qr(a))
print(torch.max(a, 0))
print(a.min(dim=1))
print(torch.sort(v))
print(torch.topk(v, 2))
print(torch.frexp(v))
print(torch.linalg.svd(a).S)
print(type(torch.linalg.lu_factor(a)).__name__, type(torch.max(a, 0)), isinstance(torch.max(a, 0), tuple))
print(type(torch.linalg.cholesky_ex(a)).__name__, type(torch.linalg.inv_ex(a)).__name__)
