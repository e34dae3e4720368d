# torch.pi = ... (d2l's appendix defines pi on torch; the file's value is read back) and torch.arange of 0-d tensors
# (torch.arange(torch.min(xs), torch.max(xs), 0.01)), with PyTorch's TypeError for a tensor of more dims
import torch
import math
print(torch.pi)
torch.pi = torch.acos(torch.zeros(1)) * 2
print(torch.pi, torch.sqrt(2 * torch.pi))
math.golden = 1.618
print(math.golden)
xs = torch.tensor([0.5, -1.2, 2.0])
print(torch.arange(torch.min(xs), torch.max(xs), 0.5))
print(torch.arange(torch.tensor(5)), torch.arange(torch.tensor(1), 4.5))
try:
    torch.arange(torch.tensor([3.]))
except TypeError as e:
    print(e)
