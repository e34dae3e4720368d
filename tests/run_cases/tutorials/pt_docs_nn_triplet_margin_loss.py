# PyTorch 2.13 docs, torch.nn.TripletMarginLoss: its docstring's examples (torch/nn/modules/loss.py) in order, as written, as a script:
# the doctest directives are cut, and the imports it assumes (torch, torch.nn as nn) and
# torch.manual_seed(0) (its inputs are unseeded) are added.
# (It prints nothing: it computes the loss and runs its backward.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/loss.py
import torch
import torch.nn as nn
torch.manual_seed(0)

triplet_loss = nn.TripletMarginLoss(margin=1.0, p=2, eps=1e-7)
anchor = torch.randn(100, 128, requires_grad=True)
positive = torch.randn(100, 128, requires_grad=True)
negative = torch.randn(100, 128, requires_grad=True)
output = triplet_loss(anchor, positive, negative)
output.backward()
