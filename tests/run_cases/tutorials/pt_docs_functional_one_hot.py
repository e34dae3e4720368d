# PyTorch 2.13 docs, torch.nn.functional.one_hot: its docstring's example (`torch/nn/functional.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn, torch.nn.functional as F) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn as nn
import torch.nn.functional as F
print(F.one_hot(torch.arange(0, 5) % 3))
print(F.one_hot(torch.arange(0, 5) % 3, num_classes=5))
print(F.one_hot(torch.arange(0, 6).view(3,2) % 3))
