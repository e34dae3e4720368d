# y[k] += v as Python runs it on a tensor with a graph: with ints and slices, the view's += in place then y[k] = view
# (CopySlices of CopySlices and AsStridedBackward0, version two more); with an index or a mask, the copy's += then
# index_put (IndexPutBackward0 of MulBackward0 of IndexBackward0); versions of writes through views; a leaf's under no_grad.
import torch
w = torch.ones(3, 4, dtype=torch.float64, requires_grad=True)
for k in range(4):
    y = w * 2
    if k == 0: y[0] += 1
    if k == 1: y[:, [0, 2]] *= 3
    if k == 2: y[y > 1] -= 1
    if k == 3: y[1:, 0] += w[0, :2]
    g = y.grad_fn
    print(k, y._version, g.name(), [f[0] and f[0].name() for f in g.next_functions])
    for f in g.next_functions:
        if f[0] is not None:
            print('   ', f[0].name(), [h[0] and h[0].name() for h in f[0].next_functions])
    (y * torch.arange(12., dtype=torch.float64).reshape(3, 4)).sum().backward()
    print(w.grad.sum().item()); w.grad = None
a = torch.zeros(3, 4)
print(a._version)
a.add_(1); a[0] = 2; a[1:, 0] += 1
print(a._version)
v = a[1]
v.mul_(2)
print(a._version, v._version)
b = a.view(12); b.zero_()
print(a._version, b._version, v._version)
with torch.no_grad():
    w[0] -= 0.5
    w[:, 1] *= 2
print(w, w.is_leaf, w._version)
