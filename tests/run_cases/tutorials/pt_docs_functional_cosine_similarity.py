# PyTorch 2.13 docs, torch.nn.functional.cosine_similarity: its docstring's example (`torch/nn/functional.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut,
# and the imports it assumes (torch, torch.nn as nn, torch.nn.functional as F) and torch.manual_seed(0) (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
input1 = torch.randn(100, 128)
input2 = torch.randn(100, 128)
output = F.cosine_similarity(input1, input2)
print(output)
