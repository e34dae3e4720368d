# nn.LazyLinear (d2l.ai's builders' guide writes it everywhere): in_features=0 and uninitialized parameters until
# the first call, which takes in_features from the input's last dim and draws the weight and bias from torch's
# generator as nn.Linear does; the module becomes an nn.Linear (type and repr), its parameters ordinary ones.
import torch
from torch import nn
torch.manual_seed(0)

net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1, bias=False))
print(net)
print(net[0].weight, net[0].bias, net[2].bias, type(net[0]), isinstance(net[0], nn.Linear))
x = torch.rand(2, 3)
y = net(x)
print(net)
print(type(net[0]), type(net[0]) == nn.Linear, net[0].in_features, net[2].weight.shape)
print(y)
y.sum().backward()
print(net[0].weight.grad, net[2].weight.grad)
print([(name, p.shape) for name, p in net.named_parameters()])
print(net[0].state_dict())
opt = torch.optim.SGD(net.parameters(), lr=0.1)
opt.step()
print(net[0].bias)
m = nn.LazyLinear(2, dtype=torch.float64)
print(m(torch.ones(5, 2, dtype=torch.float64)), m.weight.dtype)
shared = nn.LazyLinear(3)
twice = nn.Sequential(shared, nn.ReLU(), shared)
print(twice(torch.ones(1, 3)).shape, len(list(twice.parameters())))
