# PyTorch 2.13 docs, torch.nn.Flatten: its docstring's examples (torch/nn/modules/flatten.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it
# assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/flatten.py
import torch
import torch.nn as nn
torch.manual_seed(0)

input = torch.randn(32, 1, 5, 5)
m = nn.Flatten()
output = m(input)
print(output.size())
m = nn.Flatten(0, 2)
output = m(input)
print(output.size())
