# PyTorch 2.13 docs, torch.nn.init.kaiming_uniform_: its docstring's example (`torch/nn/init.py`), as written, as a script:
# its expression statements printed (what the interactive session it shows prints), the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/init.py
import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.kaiming_uniform_(w, mode="fan_in", nonlinearity="relu"))
