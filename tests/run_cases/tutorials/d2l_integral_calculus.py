# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_appendix-mathematics-for-deep-learning/integral-calculus.md: its
# PyTorch cells in order, as written, except that the cell's last bare expression (which the notebook shows) is
# printed and the plotting is cut (the matplotlib magic, the d2l, IPython and mplot3d imports, and every d2l.plt and
# ax call: the values they draw are still computed).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_appendix-mathematics-for-deep-learning/integral-calculus.md
import torch

x = torch.arange(-2, 2, 0.01)
f = torch.exp(-x**2)

x = torch.arange(-2, 2, 0.01)
f = torch.exp(-x**2)

epsilon = 0.05
a = 0
b = 2

x = torch.arange(a, b, epsilon)
f = x / (1 + x**2)

approx = torch.sum(epsilon*f)
true = torch.log(torch.tensor([5.])) / 2

print(f'approximation: {approx}, truth: {true}')

# Construct grid and compute function
x, y = torch.meshgrid(torch.linspace(-2, 2, 101), torch.linspace(-2, 2, 101))
z = torch.exp(- x**2 - y**2)
