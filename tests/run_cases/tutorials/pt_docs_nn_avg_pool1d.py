# PyTorch 2.13 docs, torch.nn.AvgPool1d: its docstring's example (`torch/nn/modules/pooling.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/pooling.py
import torch
import torch.nn as nn
m = nn.AvgPool1d(3, stride=2)
print(m(torch.tensor([[[1., 2, 3, 4, 5, 6, 7]]])))
