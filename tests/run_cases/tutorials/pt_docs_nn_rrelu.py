# PyTorch 2.13 docs, torch.nn.RReLU: its docstring's example (torch/nn/modules/activation.py), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# (It prints nothing: it builds the module and runs it, in training mode, on the docstring's shapes.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/activation.py
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.RReLU(0.1, 0.3)
input = torch.randn(2)
output = m(input)
