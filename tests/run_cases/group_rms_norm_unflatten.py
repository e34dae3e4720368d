# nn.GroupNorm (weight ones, bias zeros; bias=False, affine=False; PyTorch's ValueError), nn.RMSNorm (eps=None: the
# dtype's eps) and nn.Unflatten (in a Sequential after nn.Flatten; its TypeErrors): reprs, values and gradients as PyTorch's.
import torch
import torch.nn as nn
torch.manual_seed(0)
m = nn.GroupNorm(2, 4)
print(m, m.weight, m.bias)
x = torch.tensor([[[1.0, 2.0], [3.0, 5.0], [-1.0, 0.5], [2.0, 2.0]]], requires_grad=True)
y = m(x)
print(y)
(y * torch.arange(8.0).view(1, 4, 2)).sum().backward()
print(x.grad, m.weight.grad, m.bias.grad)
print(nn.GroupNorm(1, 3, affine=False), nn.GroupNorm(3, 3, bias=False).bias)
try:
    nn.GroupNorm(3, 4)
except ValueError as e:
    print('ValueError:', e)
r = nn.RMSNorm([2])
print(r, r.weight)
z = torch.tensor([[3.0, 4.0], [1.0, -1.0]], requires_grad=True)
out = r(z)
print(out)
out.sum().backward()
print(z.grad)
print(nn.RMSNorm(2, eps=1e-6, elementwise_affine=False)(z))
u = nn.Unflatten(1, (2, 3))
print(u, nn.Unflatten(1, [3, 2]))
v = u(torch.arange(12.0).view(2, 6))
print(v, v.shape)
net = nn.Sequential(nn.Flatten(), nn.Unflatten(1, (2, 2)))
print(net, net(torch.ones(3, 4)).shape)
for bad in ((2, 2.0), 4):
    try:
        nn.Unflatten(1, bad)
    except TypeError as e:
        print('TypeError:', e)
print(type(m), type(r), type(u))
