# PyTorch 2.13 docs, torch.nn.Linear: its docstring's examples (torch/nn/modules/linear.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it assumes (torch, torch.nn as nn) and
# torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/linear.py
import torch
import torch.nn as nn
torch.manual_seed(0)

m = nn.Linear(20, 30)
input = torch.randn(128, 20)
output = m(input)
print(output.size())
