# PyTorch 2.13 docs, torch.nn.functional.binary_cross_entropy_with_logits: its docstring's examples (torch/nn/functional.py) in order, as written, as a script:
# the doctest directives are cut, and the imports it
# assumes (torch, torch.nn.functional as F) and torch.manual_seed(0) (its inputs are unseeded) are added.
# (It prints nothing.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn.functional as F
torch.manual_seed(0)

input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
loss = F.binary_cross_entropy_with_logits(input, target)
loss.backward()
