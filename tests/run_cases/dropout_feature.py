# F.dropout1d/2d/3d and nn.Dropout1d/2d/3d as PyTorch 2.13 draws them: one draw per channel, dropout2d taking any
# input as (N, C, ...) (a 2-D input one draw per element), dropout1d and 3d unsqueezing an unbatched input (their
# nodes), eval mode, and PyTorch's error for dropout1d of a 4-D input.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(2, 3, 2, 2, requires_grad=True)
y = F.dropout2d(x, 0.5)
print(y.grad_fn, y[:, :, 0, 0])
y.sum().backward()
print(x.grad[:, :, 1, 1])
print(F.dropout2d(torch.ones(3, 2, 2), 0.5)[:, :, 0], F.dropout2d(torch.ones(2, 6), 0.25))
u = F.dropout1d(torch.ones(3, 4, requires_grad=True), 0.5)
print(u, u.grad_fn, u.grad_fn.next_functions[0][0])
print(F.dropout3d(torch.ones(2, 1, 2, 2, requires_grad=True), 0.5).grad_fn, F.dropout3d(torch.ones(1, 2, 1, 1, 2), 0.5).shape)
d = nn.Dropout2d(0.25)
print(d, d(torch.ones(1, 4, 2, 2))[0, :, 0, 0])
d.eval()
print(d(torch.ones(1, 4, 1, 1)).flatten())
try:
    F.dropout1d(torch.ones(2, 3, 4, 5), 0.5)
except RuntimeError as e:
    print(e)
