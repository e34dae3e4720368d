# torch.normal's overloads, drawn from torch's generator as PyTorch draws them
import torch

torch.manual_seed(0)
M = torch.normal(0, 1, size=(4, 4))
print(M)
print(torch.normal(2, 3, size=(3,)), torch.normal(2.0, 3.0, (20,)).sum())
print(torch.normal(-1.5, 0.25, (17,)))
print(torch.normal(0, 1, size=(2,), dtype=torch.float64, requires_grad=True))
m = torch.arange(5.0)
print(torch.normal(m, 2.0))
print(torch.normal(1.0, m))
print(torch.normal(m, m))
print(torch.normal(m.double(), torch.ones(20, 1)).shape)
for i in range(3):
    M = torch.mm(M, torch.normal(0, 1, size=(4, 4)))
print(M)
print(torch.normal(m, -1.0))
