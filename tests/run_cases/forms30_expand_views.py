import torch
# expand and expand_as are views in PyTorch: a write into the tensor they view is seen through them (their version is its
# version), a write into one element or into elements that are each one of its own writes the tensor, a write into
# elements that share one memory location is PyTorch's RuntimeError, before anything is written (fill_ and zero_ write
# one value: allowed); a saved expanded view that its tensor's write changed is PyTorch's version error (issue #21)
def attempt(name, f):
    try:
        print(name, f())
    except RuntimeError as e:
        print(name, "RuntimeError:", str(e).split(". Hint")[0])
def p13():
    y = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True) * 2; v = y.expand(2, 3); z = v.sin(); y.add_(1); z.sum().backward()
def q1():
    y = torch.zeros(3); v = y.expand(2, 3); y.add_(1); return v, v._version
def q2():
    y = torch.zeros(3); v = y.expand(2, 3); v.add_(1); return y
def q3():
    y = torch.zeros(3); v = y.expand(2, 3); v[0, 1] = 5.0; return y, v
def q4():
    y = torch.zeros(1, 3); v = y.expand(2, 3); v.mul_(2); return y
def q5():
    y = torch.zeros(3, 1); v = y.expand_as(torch.ones(3, 3)); y[0, 0] = 2.0; return v
def q6():
    y = torch.zeros(3, requires_grad=True) * 1; v = y.expand(2, 3); w = v * 2; y[0] = 2.0; w.sum().backward(); return v, v.grad_fn
def q7():
    y = torch.zeros(3); v = y.expand(3); v.add_(1); return y, v
for name, f in (("p13", p13), ("q1", q1), ("q2", q2), ("q3", q3), ("q4", q4), ("q5", q5), ("q6", q6), ("q7", q7)):
    attempt(name, f)
x2 = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
y = x2 * 2
e = y.expand(2, 3)
print(e, e.grad_fn, e.grad_fn.next_functions, e._version)
(e * torch.arange(6.0, dtype=torch.float64).reshape(2, 3)).sum().backward()
print(x2.grad)
b = torch.ones(2, 1, dtype=torch.float64, requires_grad=True)
c = b.expand_as(torch.ones(2, 3)) * torch.arange(6.0, dtype=torch.float64).reshape(2, 3)
c.sum().backward()
print(b.grad, c.grad_fn.next_functions)
m = torch.zeros(3)
v = m.expand(4, 3)
m[1] = 7.0
print(v, v._version, m._version)
w = v.clone()
w[0, 0] = 1.0
print(w, v)
z = torch.zeros(2, 1)
ez = z.expand(2, 4)
ez[1, 2] = 5.0
print(z, ez)
try:
    ez[:, 1] = 3.0
    print(z)
except RuntimeError as e:
    print("RuntimeError", e)
t = torch.tensor([[1.0], [2.0]], dtype=torch.float64, requires_grad=True)
u = (t * 1).expand(2, 3)
s = u.sum(1)
print(s, s.grad_fn.next_functions[0][0], s.grad_fn.next_functions[0][0].next_functions)
s.sum().backward()
print(t.grad)
k = torch.arange(3.0).expand(2, 3)
print(k.sum(), k[1], k.t(), k.reshape(-1), k.view(6) if False else None)
try:
    k.view(6)
except RuntimeError as e:
    print("RuntimeError", e)
q = torch.zeros(3)
qe = q.expand(2, 3)
qe.zero_() if False else None
try:
    qe.fill_(1.0)
except RuntimeError as e:
    print("RuntimeError", e)
r = torch.zeros(1, 3)
re_ = r.expand(1, 3)
re_.add_(2)
print(r, re_)
def setall(v):
    v[...] = 4.0
for name, f in (('zero_', lambda v: v.zero_()), ('fill_', lambda v: v.fill_(2)), ('copy_', lambda v: v.copy_(torch.ones(2,3))), ('mul_', lambda v: v.mul_(2)), ('clamp_', lambda v: v.clamp_(1)), ('relu_', lambda v: v.relu_()), ('exp_', lambda v: v.exp_()), ('setitem all', setall)):
    q = torch.ones(3) * -1
    v = q.expand(2, 3)
    try:
        f(v)
        print(name, q, v)
    except RuntimeError as e:
        print(name, 'RuntimeError', e)
x = torch.ones(3, requires_grad=True)
y = x * 1
v = y.expand(2, 3)
v.fill_(3.0)
print('graph fill', y, v, v.grad_fn)

