# PyTorch 2.13 docs, torch.nn.NLLLoss: its docstring's examples (torch/nn/modules/loss.py) in order, as written, as a script:
# the doctest directives are cut, and the imports it assumes (torch, torch.nn as nn) and
# torch.manual_seed(0) (its inputs are unseeded) are added.
# (It prints nothing: it computes the loss and runs its backward.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/loss.py
import torch
import torch.nn as nn
torch.manual_seed(0)

log_softmax = nn.LogSoftmax(dim=1)
loss_fn = nn.NLLLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.tensor([1, 0, 4])
loss = loss_fn(log_softmax(input), target)
loss.backward()
N, C = 5, 4
loss_fn = nn.NLLLoss()
data = torch.randn(N, 16, 10, 10)
conv = nn.Conv2d(16, C, (3, 3))
log_softmax = nn.LogSoftmax(dim=1)
output = log_softmax(conv(data))
target = torch.empty(N, 8, 8, dtype=torch.long).random_(0, C)
loss = loss_fn(output, target)
loss.backward()
