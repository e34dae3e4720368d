# `t[k] += v` is PyTorch's in place on the item, then the item written back (t[k] = item): on an integer tensor a
# float change is the cast error, as t.add_(0.5) (gradcli wrote the rounded values: t[0, -1] -= 0.5 gave 1 where
# PyTorch stops); through a graph the two writes count two versions in the error of a saved tensor; clamp_ with
# Python-number bounds names the dtype in C++'s words ('long int'). Found by fuzz/programs.py --family inplace.
import torch

t = torch.arange(6).reshape(2, 3)
try:
    t[0, -1] -= 0.5
except RuntimeError as e:
    print("RuntimeError", e)
try:
    t[1:] *= 0.5
except RuntimeError as e:
    print("RuntimeError", e)
try:
    t[[0, 1], 0] += 1.5
except RuntimeError as e:
    print("RuntimeError", e)
t[0] += 2
t[:, 1] *= 3
t[t > 4] -= 1
print(t)
for dtype in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool]:
    u = torch.ones(3, dtype=dtype)
    try:
        u.clamp_(max=0.5)
    except RuntimeError as e:
        print("RuntimeError", e)
    try:
        u.clamp_min_(0.5)
    except RuntimeError as e:
        print("RuntimeError", e)
    try:
        u.clamp_(min=torch.tensor(0.5))
    except RuntimeError as e:
        print("RuntimeError", e)
    try:
        u.sqrt_()
    except RuntimeError as e:
        print("RuntimeError", e)
f = torch.tensor([1.5, -2.0, 0.25], dtype=torch.float64)
f[1:] += torch.tensor([1, 2])
f[0] *= 2
print(f)

x = torch.tensor([-0.28, 0.28, 0.05], dtype=torch.float64, requires_grad=True)
y = x.sigmoid()
y[1:] += 1
print(y.grad_fn)
y.backward(torch.ones_like(y))
