# PyTorch 2.13 docs, torch.nn.RMSNorm: its docstring's example (`torch/nn/modules/normalization.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/normalization.py
import torch
import torch.nn as nn
torch.manual_seed(0)
rms_norm = nn.RMSNorm([2, 3])
input = torch.randn(2, 2, 3)
print(rms_norm(input))
