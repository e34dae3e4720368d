# nn.init.eye_ (its docstring: w = torch.empty(3, 5); nn.init.eye_(w)): the identity written into a 2-D tensor in
# place, rectangular as torch.eye(n, m) is, a parameter's grad flag kept; other ranks are PyTorch's ValueError.
import torch
import torch.nn as nn

torch.manual_seed(0)  # (the layer's bias: (x @ W.T + b) - b rounds as the drawn b makes it)
w = torch.empty(3, 5)
print(nn.init.eye_(w) is w, w)
layer = nn.Linear(2, 4)
nn.init.eye_(layer.weight)
print(layer.weight, layer(torch.tensor([[1.0, 2.0]])) - layer.bias)
try:
    nn.init.eye_(torch.empty(2, 2, 2))
except ValueError as e:
    print('ValueError:', e)
