# An in-place change of a view of a leaf that requires grad (x[0] += 1, x[1:].mul_(2), x.T.fill_(2)) is PyTorch's
# error; gradcli wrote it and gave the leaf a grad_fn (CopySlices). Under no_grad it is the leaf's own values that
# change. Found by fuzz/programs.py --family inplace.
import torch

x = torch.tensor([-0.28, 0.28, 0.05], dtype=torch.float64, requires_grad=True)
try:
    x[0].add_(1)
except RuntimeError as e:
    print('x[0].add_(1)', e)
try:
    x[0] = 5
except RuntimeError as e:
    print('x[0] = 5', e)
try:
    x[1:].mul_(2)
except RuntimeError as e:
    print('x[1:].mul_(2)', e)
try:
    x.view(-1).add_(1)
except RuntimeError as e:
    print('x.view(-1).add_(1)', e)
try:
    x[[0, 1]] += 1
except RuntimeError as e:
    print('x[[0, 1]] += 1', e)
try:
    x[0] += 1
except RuntimeError as e:
    print('x[0] += 1', e)
try:
    x[1:] *= 2
except RuntimeError as e:
    print('x[1:] *= 2', e)
try:
    x[:1].relu_()
except RuntimeError as e:
    print('x[:1].relu_()', e)
try:
    x[0].zero_()
except RuntimeError as e:
    print('x[0].zero_()', e)
try:
    x.T.fill_(2)
except RuntimeError as e:
    print('x.T.fill_(2)', e)
try:
    x[0].copy_(torch.tensor(2.))
except RuntimeError as e:
    print('x[0].copy_(torch.tensor(2.))', e)
try:
    x.unsqueeze(0).add_(1, alpha=2)
except RuntimeError as e:
    print('x.unsqueeze(0).add_(1, alpha=2)', e)
try:
    x[1:].clamp_(max=0)
except RuntimeError as e:
    print('x[1:].clamp_(max=0)', e)
print(x, x.is_leaf, x.grad_fn)
with torch.no_grad():
    x[0] += 1
    x[1:].mul_(2)
print(x, x.is_leaf)
(x * x).sum().backward()
print(x.grad)
t = torch.zeros(3, dtype=torch.float64)
t[1:] += x[:2]
t[0].add_(x[2])
print(t)
t.sum().backward()
print(x.grad)
