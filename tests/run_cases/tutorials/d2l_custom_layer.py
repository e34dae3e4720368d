# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_deep-learning-computation/custom-layer.md: its PyTorch cells in order, as written,
# except that each cell's last bare expression (which the notebook shows) is printed,
# and torch.manual_seed(0) is added after the imports (the chapter draws unseeded random numbers).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_deep-learning-computation/custom-layer.md
import torch
from torch import nn
from torch.nn import functional as F
torch.manual_seed(0)

class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X):
        return X - X.mean()

layer = CenteredLayer()
print(layer(torch.FloatTensor([1, 2, 3, 4, 5])))

net = nn.Sequential(nn.Linear(8, 128), CenteredLayer())

Y = net(torch.rand(4, 8))
print(Y.mean())

class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units,))
    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)

linear = MyLinear(5, 3)
print(linear.weight)

print(linear(torch.rand(2, 5)))

net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))
print(net(torch.rand(2, 64)))
