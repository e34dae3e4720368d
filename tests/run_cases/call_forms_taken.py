import torch
import torch.nn.functional as F
# Valid PyTorch that gradcli refused (issue #21): the activations' `inplace` by position (F.elu(x, 2.0, False)) and
# True by position as by keyword (x takes the values where no graph is involved; with a graph, as the keyword does),
# F.softmin/softmax's `_stacklevel` by position or keyword, F.softmin's dtype (it was ignored), torch.trapezoid(y, x=x), x.narrow_copy, x.fliplr/flipud,
# torch.lu_unpack(..., unpack_data=False / unpack_pivots=False) (an empty tensor for what it does not unpack; int64
# pivots are refused only where they are unpacked).
a = torch.tensor([-1.5, 0.25, 2.0, 7.0], dtype=torch.float64, requires_grad=True)
print(F.relu6(a, False), F.hardtanh(a, 0.5, 2, False), F.leaky_relu(a, 2, False), F.relu(a, False))
print(F.hardsigmoid(a, False), F.hardswish(a, False), F.threshold(a, 0.1, 2.0, False))
print(F.relu6(a, inplace=False), F.hardtanh(a, -1.0, 1.0, inplace=False))
h = a * 2
h = F.hardtanh(h, -1.0, 1.0, True)
print(h)
h.sum().backward()
print(a.grad)
x = torch.tensor([-1.0, 0.5, 2.0])
y = F.relu(x, True)
print(x, y is x)
try:
    F.relu6(a, True)
except RuntimeError as e:
    print(e)
m = torch.tensor([[-1.0, 0.5, 2.0], [0.25, 1.0, -0.5]], dtype=torch.float64, requires_grad=True)
print(F.softmin(m, 0, 1), F.softmin(m, 1, 3, torch.float64))
print(F.softmax(m, 0, 5), F.log_softmax(m, -1, _stacklevel=2), F.softmin(m, 1, _stacklevel=1, dtype=torch.float64))
c = F.softmin(m, 0, 3, torch.float32)  # (the negated cast: ToCopyBackward0 under SoftmaxBackward0; values aside, MKL's)
print(c.dtype, c.grad_fn, c.grad_fn.next_functions, c.grad_fn.next_functions[0][0].next_functions)
print(F.softmin(m, dtype=torch.float64, _stacklevel=1, dim=0).grad_fn.next_functions)
t = torch.tensor([[0.0, 1.0, 3.0], [0.0, 2.0, 3.0]], dtype=torch.float64, requires_grad=True)
s = torch.trapezoid(m, x=t).sum() + torch.cumulative_trapezoid(m, x=t).sum() + m.narrow_copy(1, 1, 2).sum()
s = s + (m.fliplr() * t).sum() + (m.flipud() * t).sum()
s.backward()
print(s, m.grad, t.grad)
print(m.narrow_copy(1, 1, 2), m.fliplr(), m.flipud())
A = torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, 1.0], [0.5, 1.0, 4.0]], dtype=torch.float64, requires_grad=True)
LU, pivots = torch.linalg.lu_factor(A)
P, L, U = torch.lu_unpack(LU, pivots.long(), True, False)
print(P, L, U)
print(torch.lu_unpack(LU, unpack_pivots=False, unpack_data=False, LU_pivots=pivots.long()))
print(torch.lu_unpack(LU, pivots, False)[1].shape, torch.lu_unpack(LU, pivots)[0])
try:
    torch.lu_unpack(LU, pivots.long())
except RuntimeError as e:
    print(e)
try:
    F.hardtanh(a, 2, 0.5, True)  # (F.hardtanh's own check comes before the in-place one)
except ValueError as e:
    print(e)
