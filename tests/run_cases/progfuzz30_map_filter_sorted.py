# map, filter and sorted over tensors' items and over tensors themselves (sorted asks Tensor.__lt__)
# (progfuzz30, --family python: gradcli refused map and filter, and raised a TypeError in sorted of tensors)
import torch

x = torch.tensor([0.5, -1.25, 2.0, 0.0], dtype=torch.float64, requires_grad=True)
items = x.tolist()
print(list(map(lambda v: round(v * 2, 3), items)))
print(list(filter(lambda v: v > 0, items)))
print(list(filter(None, items)))
print(list(map(lambda a, b: a + b, items, [10, 20, 30])))
print(sorted(x))
print(sorted(x.detach(), reverse=True))
print(sorted(x, key=lambda t: -t.abs()))
squares = list(map(lambda t: t ** 2, x))
print(squares[1])
torch.stack(squares).sum().backward()
print(x.grad)
m = map(str, [1, 2])
print(type(m).__name__, next(iter(m)), list(m))
try:
    sorted(torch.tensor([[1.0, 2.0], [0.0, 1.0]]))
except RuntimeError as e:
    print(e)
