# PyTorch 2.13 docs, torch.nn.GroupNorm: its docstring's example (`torch/nn/modules/normalization.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# (It prints nothing: it builds the module and runs it on the docstring's shapes.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/normalization.py
import torch
import torch.nn as nn
torch.manual_seed(0)
input = torch.randn(20, 6, 10, 10)
m = nn.GroupNorm(3, 6)
m = nn.GroupNorm(6, 6)
m = nn.GroupNorm(1, 6)
output = m(input)
