# t[k] = v where v has 1s on its left that the slot has not (a [1, 1] output into one element): PyTorch's
# setitem views the value without them first; with a graph, ViewBackward0 under CopySlices, and the
# gradient reaches the value through an int key
import torch
x = torch.zeros(5)
x[0] = torch.ones(1, 1)
x[1:3] = torch.ones(1, 1, 2) * 2
print(x)
w = torch.ones(1, 1, requires_grad=True)
y = torch.zeros(3)
y[1] = w * 3
print(y, y.grad_fn.name(), [f[0].name() if f[0] is not None else None for f in y.grad_fn.next_functions])
y.sum().backward()
print(w.grad)
v = torch.ones((), requires_grad=True)
z = torch.zeros(3)
z[2] = v * 5
z.sum().backward()
print(v.grad)
m = torch.zeros(2, 3)
m[[0, 1]] = torch.ones(1, 1, 3)
print(m)
