# PyTorch 2.13 docs, torch.nn.functional.channel_shuffle: its docstring's example (`torch/nn/functional.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn as nn
torch.manual_seed(0)
input = torch.randn(1, 4, 2, 2)
print(input)
output = torch.nn.functional.channel_shuffle(input, 2)
print(output)
