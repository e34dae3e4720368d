# PyTorch 2.13 docs, torch.nn.HingeEmbeddingLoss: its docstring's examples (torch/nn/modules/loss.py) in order, as written, as a script:
# the doctest directives are cut, and the imports it assumes (torch, torch.nn as nn) and
# torch.manual_seed(0) (its inputs are unseeded) are added.
# (It prints nothing: it computes the loss and runs its backward.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/loss.py
import torch
import torch.nn as nn
torch.manual_seed(0)

loss = nn.HingeEmbeddingLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).sign()
output = loss(input, target)
output.backward()
