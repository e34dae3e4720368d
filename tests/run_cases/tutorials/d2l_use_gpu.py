# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_deep-learning-computation/use-gpu.md: its PyTorch cells in order,
# as written, except that each cell's last bare expression (which the notebook shows) is printed and the
# `!nvidia-smi` shell line is cut (torch.manual_seed(0) is added after the imports: the chapter draws unseeded
# numbers). On PyTorch's CPU build, X.cuda(1) raises, as recorded.
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_deep-learning-computation/use-gpu.md
import torch
from torch import nn
torch.manual_seed(0)

print((torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1')))

print(torch.cuda.device_count())

def try_gpu(i=0):  #@save
    """Return gpu(i) if exists, otherwise return cpu()."""
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f'cuda:{i}')
    return torch.device('cpu')

def try_all_gpus():  #@save
    """Return all available GPUs, or [cpu(),] if no GPU exists."""
    devices = [torch.device(f'cuda:{i}')
             for i in range(torch.cuda.device_count())]
    return devices if devices else [torch.device('cpu')]

print((try_gpu(), try_gpu(10), try_all_gpus()))

x = torch.tensor([1, 2, 3])
print(x.device)

X = torch.ones(2, 3, device=try_gpu())
print(X)

Y = torch.rand(2, 3, device=try_gpu(1))
print(Y)

Z = X.cuda(1)
print(X)
print(Z)

print(Y + Z)

print(Z.cuda(1) is Z)

net = nn.Sequential(nn.Linear(3, 1))
net = net.to(device=try_gpu())

print(net(X))

print(net[0].weight.data.device)
