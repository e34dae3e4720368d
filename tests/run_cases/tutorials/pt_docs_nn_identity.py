# PyTorch 2.13 docs, torch.nn.Identity: its docstring's example (`torch/nn/modules/linear.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/linear.py
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.Identity(54, unused_argument1=0.1, unused_argument2=False)
input = torch.randn(128, 20)
output = m(input)
print(output.size())
