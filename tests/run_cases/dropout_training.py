# Dropout in training mode as PyTorch's CPU path draws it: F.dropout and nn.Dropout (a float64 uniform per
# element from torch's generator, kept below 1 - p, scaled by 1 / (1 - p) in the input's dtype), MulBackward0 and
# its gradient, p=1 (zeros, no draw), eval mode and p=0 (the input itself), float64, a model in train() and
# eval(), and PyTorch's error for p outside [0, 1].
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(30, requires_grad=True)
y = F.dropout(x, 0.3)
print(y.grad_fn, y)
y.sum().backward()
print(x.grad)
print(F.dropout(torch.arange(6.0), p=1.0), F.dropout(x, 0.5, training=False) is x, F.dropout(x, 0.0) is x)
print(F.dropout(torch.ones(2, 3, dtype=torch.float64), 0.25))
print(torch.rand(2))
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2))
batch = torch.rand(3, 4)
print(net(batch))
net.eval()
print(net(batch))
net.train()
out = net(batch)
print(out, out.grad_fn.next_functions)
drop = nn.Dropout(p=0.2)
print(drop, drop(torch.ones(20)))
for p in (-0.1, 1.5):
    try:
        F.dropout(x, p)
    except ValueError as e:
        print(repr(e))
