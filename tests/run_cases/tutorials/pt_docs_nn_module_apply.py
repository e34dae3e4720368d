# PyTorch 2.13 docs, torch.nn.Module.apply: its docstring's example (torch/nn/modules/module.py), as written, as a
# script: the value of net.apply(init_weights), which the docstring shows, is printed, and the imports it assumes
# (torch, torch.nn as nn) are added. (Its weights are filled with ones before they are printed: no seed is needed.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/module.py
import torch
import torch.nn as nn

@torch.no_grad()
def init_weights(m):
    print(m)
    if type(m) is nn.Linear:
        m.weight.fill_(1.0)
        print(m.weight)
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
print(net.apply(init_weights))
