# A module that appears twice (nn.Sequential(l, l)) is walked once by modules(), named_modules() and children(), as
# PyTorch's memo does, and twice with remove_duplicate=False; type(m) is nn.Linear holds, as Python has one class
# object (the nn.Module.apply docstring's init_weights tests it so).
import torch
import torch.nn as nn
l = nn.Linear(2, 2)
net = nn.Sequential(l, nn.ReLU(), l, nn.Sequential(l, nn.Tanh()))
print([type(m).__name__ for m in net.modules()])
print([type(m).__name__ for m in net.modules(remove_duplicate=False)])
print([name for name, _ in net.named_modules()])
print([name for name, _ in net.named_modules(remove_duplicate=False)])
print([type(m).__name__ for m in net.children()], [name for name, _ in net.named_children()])
print(type(l) is nn.Linear, type(l) is nn.ReLU, type(net[1]) is nn.ReLU, type(l) == nn.Linear, type(l) is not nn.Linear)
print(sum(p.numel() for p in net.parameters()))
