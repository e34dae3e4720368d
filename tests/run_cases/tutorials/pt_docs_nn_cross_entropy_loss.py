# PyTorch 2.13 docs, torch.nn.CrossEntropyLoss: its docstring's examples (torch/nn/modules/loss.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it assumes (torch, torch.nn as nn) and
# torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/loss.py
import torch
import torch.nn as nn
torch.manual_seed(0)

loss = nn.CrossEntropyLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, dtype=torch.long).random_(5)
output = loss(input, target)
output.backward()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).softmax(dim=1)
output = loss(input, target)
output.backward()
loss = nn.CrossEntropyLoss()
torch.manual_seed(283)
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
print(target)
print(target.sum(axis=1))
print(loss(input, target).item())
target_new = target.softmax(dim=1)
print(target_new)
print(target_new.sum(axis=1))
print(loss(input, target_new).item())
