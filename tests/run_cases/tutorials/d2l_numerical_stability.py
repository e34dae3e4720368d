# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_multilayer-perceptrons/numerical-stability-and-init.md: its PyTorch cells in order, as written,
# except that each cell's last bare expression (which the notebook shows) is printed, the plotting lines are cut,
# and torch.manual_seed(0) is added after the imports (the chapter draws unseeded random numbers).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_multilayer-perceptrons/numerical-stability-and-init.md
import torch
torch.manual_seed(0)

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))

M = torch.normal(0, 1, size=(4,4))
print('a single matrix \n',M)
for i in range(100):
    M = torch.mm(M,torch.normal(0, 1, size=(4, 4)))

print('after multiplying 100 matrices\n', M)
