# PyTorch 2.13 docs, torch.nn.ConvTranspose1d: its docstring's example (`torch/nn/modules/conv.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/conv.py
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.ConvTranspose1d(16, 33, 3, stride=2)
input = torch.randn(20, 16, 50)
output = m(input)
input = torch.randn(1, 16, 12)
downsample = nn.Conv1d(16, 16, 3, stride=2, padding=1)
upsample = nn.ConvTranspose1d(16, 16, 3, stride=2, padding=1)
h = downsample(input)
print(h.size())
output = upsample(h, output_size=input.size())
print(output.size())
