# A view of one element (b[1, 2], v[1] of a row, x.select(0, 1) of a vector, a part of unbind) shares its base's
# storage as any view does: a write into it, in place or recorded with a graph, is seen by the base, and the other way
import torch

b = torch.tensor([[0.3, -0.5, 0.7], [1.2, -0.1, 0.4]])
v0 = b[0]
v1 = v0[1]
v1.add_(10)
print(b, v0, v1)
v2 = b[1, 2]
v2.mul_(3)
print(b, v2)
v2 += 1
print(b)
b[1, 2] = 7
print(v2)
s = b[0].select(0, 2)
s.zero_()
print(b, s)
first, second = torch.tensor([5.0, 6.0]).unbind()
u = torch.tensor([5.0, 6.0])
p, q = u.unbind()
q.fill_(-1)
print(u, p, q)

x = torch.tensor([[0.3, -0.5, 0.7], [1.2, -0.1, 0.4]], dtype=torch.float64, requires_grad=True)
w = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
c = x * 1
r0 = c[0]
r1 = r0[1]
c.mul_(2.0)
r1.clamp_(-0.5, 0.5)
print(c, r0, r1)
e = c[1, 0]
e.mul_(w)
print(c, c.grad_fn, c.grad_fn.next_functions)
(c * c).sum().backward()
print(x.grad, w.grad)
