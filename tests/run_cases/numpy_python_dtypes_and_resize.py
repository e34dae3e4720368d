# NumPy as tutorials write it around their tensors: Python's int, float and bool as dtypes ((a == b).astype(int), MorvanZhou's
# accuracy), and a.resize(shape) in place (udacity's data.resize((n, 1))).
import torch
import numpy as np
a = torch.tensor([1, 2, 3]).numpy()
b = torch.tensor([1, 0, 3]).numpy()
c = a == b
print(type(c), c)
print(c.astype(int).sum())
print(float((a == b).astype(int).sum()) / float(b.size))
print(np.zeros(2, dtype=int), np.ones(2, dtype=float), np.array([0, 2]).astype(bool), np.array([1.7]).astype(dtype=int))
data = np.sin(np.linspace(0, np.pi, 5))
print(data.resize((5, 1)))
print(data.shape, data[:2])
b = np.arange(6)
b.resize(2, 3)
print(b)
c = b[0]
try:
    c.resize((1, 3))
except ValueError as e:
    print(e)
print(c)
d = np.arange(6).reshape(2, 3)[:, ::2]
try:
    d.resize(4)
except ValueError as e:
    print(e)
