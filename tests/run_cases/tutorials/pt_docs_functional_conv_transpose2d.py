# PyTorch 2.13 docs, torch.nn.functional.conv_transpose2d: its docstring's example (`torch/nn/functional.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn, torch.nn.functional as F) and torch.manual_seed(0) (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
inputs = torch.randn(1, 4, 5, 5)
weights = torch.randn(4, 8, 3, 3)
print(F.conv_transpose2d(inputs, weights, padding=1))
