# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_multilayer-perceptrons/mlp.md: its PyTorch cells in order, as
# written, except that each d2l.plot(x, y, ...) (a plot) prints its two series instead (the values and gradients
# the book draws).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_multilayer-perceptrons/mlp.md
import torch

x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.relu(x)
print(x.detach(), y.detach())

y.backward(torch.ones_like(x), retain_graph=True)
print(x.detach(), x.grad)

y = torch.sigmoid(x)
print(x.detach(), y.detach())

# Clear out previous gradients
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.detach(), x.grad)

y = torch.tanh(x)
print(x.detach(), y.detach())

# Clear out previous gradients.
x.grad.data.zero_()
y.backward(torch.ones_like(x),retain_graph=True)
print(x.detach(), x.grad)
