# nn.MaxPool1d/2d/3d, AvgPool1d/2d, AdaptiveAvgPool2d and AdaptiveMaxPool2d as modules: their reprs (a stride left
# out is the kernel's; AvgPool1d's 1-tuples), their outputs, graphs and gradients, return_indices, a CNN of the
# 2018 tutorial's shape printed and run, and a missing kernel_size.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 6, 6, requires_grad=True)
for pool in (nn.MaxPool2d(2, 2), nn.MaxPool2d(3, stride=1, padding=1), nn.AvgPool2d(2), nn.AvgPool2d((2, 3), stride=(1, 2)),
             nn.AdaptiveAvgPool2d((2, 3)), nn.AdaptiveAvgPool2d(2), nn.MaxPool2d(2, ceil_mode=True, dilation=1)):
    out = pool(x)
    print(pool, out.shape, out.grad_fn)
    out.sum().backward()
print(x.grad[0, 0])
print(nn.MaxPool2d(2, return_indices=True)(x)[1][0, 0])
print(nn.AdaptiveMaxPool2d(2), nn.AdaptiveMaxPool2d(2)(x).shape)
s = torch.randn(1, 3, 8)
print(nn.MaxPool1d(2), nn.MaxPool1d(2)(s), nn.AvgPool1d(3, stride=2), nn.AvgPool1d(3, stride=2)(s))
print(nn.MaxPool3d(2), nn.MaxPool3d(2)(torch.randn(1, 1, 2, 4, 4)).shape)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.pool1 = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(4 * 3 * 3, 5)

    def forward(self, input):
        x = self.pool1(F.relu(self.conv1(input)))
        x = x.view(x.size(0), -1)
        return F.relu(self.fc1(x))


net = Net()
print(net)
out = net(torch.randn(2, 1, 8, 8))
print(out)
out.sum().backward()
print(net.conv1.weight.grad.norm())
try:
    nn.MaxPool2d()
except TypeError as e:
    print(repr(e))
