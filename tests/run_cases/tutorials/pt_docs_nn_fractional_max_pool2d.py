# PyTorch 2.13 docs, torch.nn.FractionalMaxPool2d: its docstring's example (torch/nn/modules/pooling.py), as written, as
# a script: each expression whose value the docstring shows printed, the doctest directives cut, and the imports it
# assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# (It prints nothing: it builds both modules and runs the second on the docstring's shapes, drawing its samples.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/pooling.py
import torch
import torch.nn as nn
torch.manual_seed(0)
# pool of square window of size=3, and target output size 13x12
m = nn.FractionalMaxPool2d(3, output_size=(13, 12))
# pool of square window and target output size being half of input image size
m = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
input = torch.randn(20, 16, 50, 32)
output = m(input)
