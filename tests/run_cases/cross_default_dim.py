# torch.cross(a, b) and a.cross(b) without a dim take the first dim of size 3 (PyTorch's deprecated default, with its
# warning), where torch.linalg.cross takes the last: of 3x3 matrices they differ
import torch

a = torch.arange(9.0, dtype=torch.float64).reshape(3, 3).requires_grad_()
b = torch.tensor([[1.0, 0, 2], [0, 1, 1], [3, 1, 0]], dtype=torch.float64, requires_grad=True)
c = torch.cross(a, b)
print(c)
print(a.cross(b))
print(torch.linalg.cross(a, b))
print(torch.cross(a, b, dim=1))
(c * torch.arange(9.0, dtype=torch.float64).reshape(3, 3)).sum().backward()
print(a.grad, b.grad)
print(torch.cross(torch.ones(2, 3, 3), torch.ones(2, 3, 3)).shape)
print(torch.cross(torch.ones(4, 2, 3), torch.ones(4, 2, 3)).shape)
try:
    torch.cross(torch.ones(2, 4), torch.ones(2, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
