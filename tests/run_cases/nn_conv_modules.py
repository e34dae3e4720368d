# nn.Conv1d/2d/3d: their weights drawn as PyTorch's reset_parameters draws them, their repr, attributes and gradients
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
c = nn.Conv2d(1, 6, 5)
print(c)
print(c.weight[0, 0, 0], c.bias)
print(nn.Conv2d(2, 4, (3, 2), stride=2, padding=1, dilation=(1, 2), groups=2, bias=False))
c1 = nn.Conv1d(3, 2, 3, padding='same')
print(c1, c1.kernel_size, c1.stride, c1.padding, c1.in_channels)
x = torch.randn(1, 3, 7)
y = c1(x)
print(y)
y.sum().backward()
print(c1.weight.grad, c1.bias.grad)
c3 = nn.Conv3d(1, 1, 2)
print(c3, c3(torch.ones(1, 1, 2, 2, 2)))
print(nn.Conv2d(2, 4, 3, padding=(1, 0), dilation=1)(torch.ones(1, 2, 4, 4)).shape)
print(nn.Conv2d(3, 4, 3, groups=2))
