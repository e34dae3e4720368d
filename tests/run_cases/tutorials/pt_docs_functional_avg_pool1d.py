# PyTorch 2.13 docs, torch.nn.functional.avg_pool1d: its docstring's example (`torch/nn/functional.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn, torch.nn.functional as F) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn as nn
import torch.nn.functional as F
input = torch.tensor([[[1, 2, 3, 4, 5, 6, 7]]], dtype=torch.float32)
print(F.avg_pool1d(input, kernel_size=3, stride=2))
