# PyTorch 2.13 docs, torch.nn.Module.modules and torch.nn.Module.named_modules: their docstrings' examples
# (torch/nn/modules/module.py) in order, as written, as a script: the imports they assume (torch, torch.nn as nn) are
# added. (Their weights are drawn unseeded but never printed.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/module.py
import torch
import torch.nn as nn

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.modules()):
    print(idx, '->', m)

l = nn.Linear(2, 2)
net = nn.Sequential(l, l)
for idx, m in enumerate(net.named_modules()):
    print(idx, '->', m)
