# PyTorch 2.13 docs, torch.nn.Upsample: its docstring's examples (torch/nn/modules/upsampling.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it
# assumes (torch, torch.nn as nn) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/upsampling.py
import torch
import torch.nn as nn

input = torch.arange(1, 5, dtype=torch.float32).view(1, 1, 2, 2)
print(input)
m = nn.Upsample(scale_factor=2, mode='nearest')
print(m(input))
m = nn.Upsample(scale_factor=2, mode='bilinear')  # align_corners=False
print(m(input))
m = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)
print(m(input))
input_3x3 = torch.zeros(3, 3).view(1, 1, 3, 3)
print(input_3x3[:, :, :2, :2].copy_(input))
print(input_3x3)
m = nn.Upsample(scale_factor=2, mode='bilinear')  # align_corners=False
print(m(input_3x3))
m = nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True)
print(m(input_3x3))
