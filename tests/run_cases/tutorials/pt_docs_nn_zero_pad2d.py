# PyTorch 2.13 docs, torch.nn.ZeroPad2d: its docstring's examples (torch/nn/modules/padding.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it
# assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/padding.py
import torch
import torch.nn as nn
torch.manual_seed(0)

m = nn.ZeroPad2d(2)
input = torch.randn(1, 1, 3, 3)
print(input)
print(m(input))
m = nn.ZeroPad2d((1, 1, 2, 0))
print(m(input))
