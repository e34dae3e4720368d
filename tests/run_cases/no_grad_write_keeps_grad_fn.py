# A tensor with a graph written in place without a node — under torch.no_grad() (h.mul_(10), h[1] += 1, a view's
# write) or by an op that takes no gradient (logical_not_) — keeps its grad_fn and the gradient flows through it with
# the values it has now, as PyTorch's nodes read the storage they saved (it became a leaf: a.grad was None, silent);
# a custom Function's ctx.saved_tensors of a tensor written since it was saved is PyTorch's RuntimeError (answered).
import torch
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = a * 2
with torch.no_grad():
    h[0].mul_(10)
    h[1] += 1
print(h, h.grad_fn.name(), h.is_leaf)
(h * h).sum().backward()
print(a.grad)
a.grad = None
g = a.exp()
with torch.no_grad():
    g.add_(1)
try:
    g.sum().backward(); print(a.grad)
except RuntimeError as e:
    print(e)
k = a.sin()
with torch.no_grad():
    k.zero_()
print(k)
(k * 2).sum().backward()
print(a.grad)
x = torch.tensor([1.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
y = x * 2
y.logical_not_()
(y * y).sum().backward()
print(x.grad)
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for case in range(3):
    b = a * 1
    y = Sq.apply(b)
    if case == 0: b.add_(1)
    if case == 1:
        with torch.no_grad():
            b.mul_(2)
    try:
        y.sum().backward()
        print(a.grad)
    except RuntimeError as e:
        print("RuntimeError", e)
    a.grad = None
c = torch.tensor([1.0, 2.0], requires_grad=True)
y = Sq.apply(c)
with torch.no_grad():
    c.add_(1)
try:
    y.sum().backward(); print(c.grad)
except RuntimeError as e:
    print("RuntimeError", e)
a2 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a2 * 1
with torch.no_grad():
    b.mul_(2)
print(b.grad_fn, b.requires_grad, b.is_leaf)
(b * 3).sum().backward()
print(a2.grad)
