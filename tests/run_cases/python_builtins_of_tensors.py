import torch
# Python's builtins on tensors, as Python calls them: abs(t) is t.__abs__() (torch.abs: AbsBackward0),
# pow(a, b) is a ** b (b.__rpow__(a) for a number a), pow(a, b, mod) of ints is Python's; max, min, sum and
# round as Python has them (round of a tensor: PyTorch's Tensor has no __round__).
x = torch.tensor([-1.5, 2.0, -0.25], dtype=torch.float64, requires_grad=True)
s = torch.tensor(-1.5, dtype=torch.float64, requires_grad=True)
a = abs(x)
print(a, a.grad_fn)
print(abs(s), abs(-3), abs(-2.5))
p = pow(x, 2)
print(p, p.grad_fn)
q = pow(2, s)
print(q, q.grad_fn)
print(pow(s, x), pow(3, 4), pow(2.0, -1), pow(3, 4, 5))
print(max(s, 0), min(s, -2.0), max(x).item(), sum(x), sum(x, 1.0))  # (an item of a loop over a tensor is UnbindBackward0 in PyTorch, SelectBackward0 here)
try:
    round(s)
except TypeError as error:
    print("TypeError:", error)
print(round(s.item(), 1), round(2.675, 2))
(a.sum() + p.sum() + q + abs(s)).backward()
print(x.grad, s.grad)
