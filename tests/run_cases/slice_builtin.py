# The builtin slice(...) as an index, as x[1:3] writes it, its start, stop and step, and slice.indices.
import torch
x = torch.arange(12.0).reshape(3, 4)
print(x[slice(1, 3)])
print(x[slice(None, None, 2), 0])
print(x[0, slice(1, None)])
s = slice(0, 2)
print(x[s, s])
print(s, s.start, s.stop, s.step)
print(x[slice(2)])
print(x[[0, 2], slice(1, 3)])
v = torch.arange(5.0, requires_grad=True)
y = v[slice(1, 4)]
print(y, y.grad_fn)
y.sum().backward()
print(v.grad)
print(list(range(10))[slice(2, 8, 3)], "abcdef"[slice(1, 3)])
print(slice(1, 5).indices(3))
