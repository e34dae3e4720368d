# t.lt_(v), t.eq_(v) ... on a tensor with a graph: its values 1 and 0 in its own dtype, recorded as PyTorch's
# LtBackward0 (a number) / EqBackward1 (a tensor), whose gradient is 0; t.copy_(number) (PyTorch wraps the number).
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = x * 1
r = v.lt_(1.5)
print(v, v.grad_fn, v.requires_grad, r is v, v.grad_fn.next_functions)
(v * x).sum().backward()
print(x.grad)
x.grad = None
for name in ["le_", "gt_", "ge_", "eq_", "ne_", "less_", "greater_equal_", "not_equal_"]:
    y = x * 2
    getattr(y, name)(torch.tensor([2.0, 0.0, 6.0]))
    print(name, y, y.grad_fn, y.grad_fn.next_functions)
w = x * 1
w[1:].gt_(2.5)
print(w, w.grad_fn)
(w * w).sum().backward()
print(x.grad)
d = x.double() * 1
d.ge_(torch.tensor(2.0, requires_grad=True))
print(d, d.grad_fn)

t = torch.zeros(3)
t.copy_(3.0)
print(t)
c = x * 1
c.copy_(3.0)
print(c, c.grad_fn, c.grad_fn.next_functions)
c.sum().backward()
print(x.grad)
e = x * 1
e[0].copy_(7)
print(e, e.grad_fn, e.grad_fn.next_functions)
i = torch.zeros(2, 2, dtype=torch.int64)
i.copy_(2.7)
print(i)
i.copy_(True)
print(i)
b = torch.zeros(3, dtype=torch.bool)
b.copy_(2)
print(b)
