# F.pad(mode='circular') and nn.CircularPad1d/2d/3d as ATen's _pad_circular runs them: the input copied into the middle
# of a new tensor, then the wrap copied from it, left then right, the last dim first; negative padding crops; unbatched
# inputs; the graph PyTorch records (CopySlices over SliceBackward0) and the gradient (each element's copies summed);
# PyTorch's errors for a wrap of more than once, a padding no mode but constant takes, and a wrap copied from the
# elements it writes (copy_'s partial overlap).
import torch
import torch.nn as nn
import torch.nn.functional as F


def walk(f, depth=0):
    if f is None:
        return
    print(" " * depth + type(f).__name__)
    for n, _ in f.next_functions:
        walk(n, depth + 1)


x = torch.arange(4.0).reshape(1, 1, 4).requires_grad_()
y = F.pad(x, (1, 2), mode="circular")
print(y)
walk(y.grad_fn)
(y * torch.arange(7.0)).sum().backward()
print(x.grad)
print(F.pad(x, (1, -1), mode="circular"), F.pad(x, (-1, 2), "circular"))
pad1 = nn.CircularPad1d(2)
print(pad1, pad1(torch.arange(6.0).reshape(2, 3)))
image = torch.arange(12.0).reshape(1, 1, 3, 4).requires_grad_()
pad2 = nn.CircularPad2d((1, 0, 2, 1))
print(pad2)
z = pad2(image)
print(z)
z.pow(2).sum().backward()
print(image.grad)
print(nn.CircularPad3d(1)(torch.arange(8.0).reshape(1, 2, 2, 2)).shape)
print(nn.CircularPad2d(1)(torch.arange(9, dtype=torch.float64).reshape(1, 3, 3)))
for bad in [(5, 0), (1, 1, 1, 1), (-2, 3)]:
    try:
        F.pad(torch.arange(4.0).reshape(1, 4), bad, mode="circular")
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
