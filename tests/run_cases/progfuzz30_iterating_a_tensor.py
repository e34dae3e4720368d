# Python's builtins over a tensor iterate it as PyTorch's Tensor.__iter__ does: its unbind(0), one
# UnbindBackward0 node whose parts are views of it (progfuzz30, --family python)
import torch

x = torch.tensor([1.0, 3.0, 2.0], dtype=torch.float64, requires_grad=True)
for v in x:
    print(v)
print(list(x))
print(max(x), min(x))
a, b, c = x
print(a, c.grad_fn.next_functions)
print([t * 2 for t in x][1])
print(sum(x))
m = torch.tensor([[1.0, -2.0], [0.5, 4.0]], dtype=torch.float64, requires_grad=True)
rows = [row.sum() for row in m]
print(rows)
torch.stack(rows).pow(2).sum().backward()
print(m.grad)
y = m * 2
try:
    for row in y:
        row.mul_(2)
except RuntimeError as e:
    print(e)
plain = torch.tensor([[1, 2], [3, 4]])
for row in plain:
    row.add_(10)
print(plain)
print(max(x.detach()), sorted(x.detach().tolist()))
try:
    p, q = torch.tensor(1.0)
except TypeError as e:
    print(e)
