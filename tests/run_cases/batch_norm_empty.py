# F.batch_norm of an empty batch, as PyTorch computes it (at::_batch_norm_impl_index): the input cloned, times
# weight[0], plus bias[0], so the graph reaches the weight and the bias (CloneBackward0, MulBackward0, AddBackward0
# over SelectBackward0), their sizes unchecked, the running statistics untouched; BatchNorm1d's counter still counts.
import torch
import torch.nn.functional as F


def show(out):
    node = out.grad_fn
    print(out.shape, out.dtype, node.name())
    print([None if n is None else n.name() for n, _ in node.next_functions])


mean = torch.tensor([0.25, -0.5], dtype=torch.float64)
var = torch.tensor([0.75, 1.5], dtype=torch.float64)
w = torch.tensor([-1.25, 0.5], dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.0, 1.5], dtype=torch.float64, requires_grad=True)
for shape in [(0, 2), (0, 3), (0,), (0, 2, 4), (3, 0)]:
    x = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    out = F.batch_norm(x, mean, var, weight=w, bias=b, training=True)
    show(out)
    out.sum().backward()
    print(x.grad.shape, w.grad, b.grad)
print(mean, var)

x = torch.zeros(0, 2, dtype=torch.float64, requires_grad=True)
show(F.batch_norm(x, None, None, training=True))
show(F.batch_norm(x, mean, var, weight=w))
show(F.batch_norm(x, mean, var, bias=b))
show(F.batch_norm(x, mean, var, w.detach(), b))
print(F.batch_norm(x, mean, var, weight=w, bias=b))

bn = torch.nn.BatchNorm1d(2)
with torch.no_grad():
    bn.running_mean += 0.5
y = bn(torch.zeros(0, 2, requires_grad=True))
show(y)
print(y, bn.running_mean, bn.running_var, bn.num_batches_tracked)

try:
    F.batch_norm(torch.zeros(0, 3, dtype=torch.float64), None, None, weight=w[:1].reshape(()), training=True)
except Exception as e:
    print(type(e).__name__, e)
try:
    F.batch_norm(torch.zeros(0, 3, dtype=torch.float64), None, None, training=True, eps=0.0)
except Exception as e:
    print(type(e).__name__, e)
