# t.logical_not_() / logical_and_() of a tensor with a graph: PyTorch records no node for them (the result takes no
# gradient): the values change in place, grad_fn stays, the version is one more, and a node that saved the tensor
# refuses at backward (was exit 2 "not supported"). t._version is the count of in-place writes (was exit 2), an
# inference tensor's PyTorch's RuntimeError.
import torch

x = torch.tensor([1.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
y = x * 2
y.logical_not_()
print(y, y._version, y.grad_fn.name())
(y * torch.tensor([1., 2., 3.], dtype=torch.float64)).sum().backward()
print(x.grad)
for make in (lambda: x.exp(), lambda: x.sin(), lambda: x * 3):
    a = make()
    b = a * a
    c = a + 1
    a.logical_and_(torch.tensor([True, False, True]))
    print(a, a.grad_fn.name(), a._version)
    for out in (c, b):
        try:
            out.sum().backward(retain_graph=True)
            print("grad", x.grad)
        except RuntimeError as e:
            print("RuntimeError", e)
    x.grad = None

a = torch.zeros(3, 4)
print(a._version)
a.add_(1); a[0] = 2; a.mul_(a)
print(a._version)
v = a[1]
v.mul_(2)
print(a._version, v._version)
b = a.view(12); b.zero_()
print(a._version, b._version, v._version)
with torch.inference_mode():
    c = a * 2
try:
    print(c._version)
except RuntimeError as e:
    print("RuntimeError", e)
