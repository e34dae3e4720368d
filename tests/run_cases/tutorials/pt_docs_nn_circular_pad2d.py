# PyTorch 2.13 docs, torch.nn.CircularPad2d: its docstring's examples (torch/nn/modules/padding.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it
# assumes (torch, torch.nn as nn) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/padding.py
import torch
import torch.nn as nn

m = nn.CircularPad2d(2)
input = torch.arange(9, dtype=torch.float).reshape(1, 1, 3, 3)
print(input)
print(m(input))
# using different paddings for different sides
m = nn.CircularPad2d((1, 1, 2, 0))
print(m(input))
