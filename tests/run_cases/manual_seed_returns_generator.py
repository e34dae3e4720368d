# torch.manual_seed returns torch's default generator, which prints as PyTorch's object (a notebook cell ending in
# torch.manual_seed(42) shows it): it printed None.
import torch
g = torch.manual_seed(0)
print(g)
print(type(g))
print(torch.manual_seed(1) is g, torch.rand(2))
