# d2l.ai (Dive into Deep Learning, its current PyTorch edition), chapter_builders-guide/lazy-init.md: its PyTorch cells in order,
# as written, except that each cell's last bare expression (which the notebook shows) is printed;
# torch.manual_seed(0) is added after the imports (the chapter draws unseeded random numbers), and the d2l import
# and the last cell, which adds a method to d2l's own Module class (d2l.add_to_class), are cut.
# Its layers are nn.LazyLinear (their parameters uninitialized until the first call).
# Source: https://github.com/d2l-ai/d2l-en/blob/23d7a5aecceee57d1292c56e90cce307f183bb0a/chapter_builders-guide/lazy-init.md
import torch
from torch import nn
torch.manual_seed(0)

net = nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))

print(net[0].weight)

X = torch.rand(2, 20)
net(X)

print(net[0].weight.shape)
