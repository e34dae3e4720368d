import torch
import torch.nn.functional as F
# Call forms PyTorch takes, held to its output (issue #21, fuzz/call_forms.py's findings).
# grid_sample's mode='nearest' with every padding, align_corners both ways: the element at nearbyint of the place (a
# tie to the even one), nothing outside with zeros; the input's gradient added into the elements read, the grid's 0
x = torch.arange(12.0, dtype=torch.float64).reshape(1, 1, 3, 4).requires_grad_()
g = torch.tensor([[[[0.25, -0.5], [1.5, 0.1], [-1.0, 1.0], [0.0, 0.0]],
                   [[float("nan"), 0.5], [float("inf"), -3.0], [2.5, -0.75], [1e300, 1 / 3]]]],
                 dtype=torch.float64, requires_grad=True)
for padding in ("zeros", "border", "reflection"):
    for corners in (False, True):
        y = F.grid_sample(x, g, mode="nearest", padding_mode=padding, align_corners=corners)
        (y * torch.arange(8.0, dtype=torch.float64).reshape(1, 1, 2, 4)).sum().backward()
        print(padding, corners, y, x.grad, g.grad)
        x.grad = g.grad = None
x3 = torch.arange(24.0).reshape(1, 1, 2, 3, 4).requires_grad_()
g3 = torch.tensor([[[[[0.3, -0.6, 0.9], [float("nan"), 0.2, -0.2], [1.75, -1.25, 0.5]]]]], requires_grad=True)
for mode in range(3):
    y = torch.grid_sampler_3d(x3, g3, 1, mode, False)
    y.sum().backward()
    print(y, y.grad_fn, x3.grad, g3.grad)
    x3.grad = g3.grad = None
print(torch.grid_sampler_2d(x.detach().float(), g.detach().float(), 1, 2, True))
# F.embedding's max_norm: the rows the input picks renormalized in place first (under no_grad: the weight changes,
# its version is one more), then looked up; the gradient knows nothing of the scaling. padding_idx counted from the
# end when negative, its assert, and torch.embedding's TypeErrors of what F.embedding passes on
w = torch.tensor([[1.0, 2.0], [3.0, -3.0], [4.0, 6.0], [0.1, 0.2]], dtype=torch.float64, requires_grad=True)
i = torch.tensor([[2, 0], [2, 3]])
y = F.embedding(i, w, max_norm=3.0)
print(y, w, y.grad_fn)
(y * torch.arange(8.0, dtype=torch.float64).reshape(2, 2, 2)).sum().backward()
print(w.grad)
print(F.embedding(i, w, -1, 2.5, 1.0, True), w)
v = w * 2
z = v * v
print(F.embedding(torch.tensor([3, 1, 1, 0]), v, None, 0.5, float("inf")), v)
try:
    z.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
for call in (lambda: F.embedding(i, w, 1, True, True, 0), lambda: F.embedding(i, w, max_norm="a"),
             lambda: F.embedding(i.float(), w, max_norm=1.0), lambda: F.embedding(torch.tensor([9]), w, max_norm=1.0),
             lambda: F.embedding(i, w, 0.5), lambda: F.embedding(i, w, -0.5), lambda: F.embedding(i, w, sparse=1),
             lambda: F.embedding(i, w, 4, 1.0), lambda: F.embedding(i, w, -5), lambda: F.embedding(i, w, scale_grad_by_freq=1)):
    try:
        print(call())
    except (TypeError, RuntimeError, IndexError, AssertionError) as error:
        print(type(error).__name__, error)
torch.manual_seed(0)
table = torch.nn.Embedding(5, 3, max_norm=1.5, norm_type=1.0, dtype=torch.float64)
print(table, table(torch.tensor([4, 0, 4])), table.weight)
# dropout(inplace=True) in training: x.mul_(noise) after the draw (a leaf that requires grad: PyTorch's error);
# alpha_dropout and feature_alpha_dropout in training: input * (noise * a) + b as PyTorch's _dropout_impl
torch.manual_seed(0)
a = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], dtype=torch.float64, requires_grad=True)
y = F.feature_alpha_dropout(a, 0.4, True)
print(y, y.grad_fn.next_functions[0][0].next_functions)
y.sum().backward()
print(a.grad)
x = torch.randn(2, 3, 2, 2, dtype=torch.float64)
print(F.feature_alpha_dropout(x, 0.3, True), F.alpha_dropout(x, 0.3, True), F.alpha_dropout(x, 0.3) is x)
b = a * 1
y = F.dropout(b, 0.5, True, True)
print(y is b, y, y.grad_fn.next_functions)
z = F.feature_alpha_dropout(b, 0.5, True, True)
print(z is b, z, z.grad_fn.next_functions[0][0].next_functions)
z.sum().backward()
print(a.grad)
with torch.no_grad():
    print(F.dropout(a, 0.5, True, True), a)
    print(F.alpha_dropout(a, 0.25, True, True), a)
for call in (lambda: F.dropout(a, 0.5, True, True), lambda: F.feature_alpha_dropout(a, 1, True, True),
             lambda: F.alpha_dropout(a, 0.5, True, True), lambda: F.feature_alpha_dropout(a[0], 0.5, True),
             lambda: F.alpha_dropout(a, 1.5)):
    try:
        call()
    except (RuntimeError, ValueError) as error:
        print(type(error).__name__, error)
print(torch.rand(2), F.alpha_dropout(a, 1, True), F.alpha_dropout(a, 0.0, True) is a)
# b.lu_solve(LU, pivots): the deprecated torch.lu_solve(b, LU, pivots); pivots of int64 are PyTorch's error
A = torch.tensor([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.0, 1.0, 4.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], dtype=torch.float64, requires_grad=True)
LU, piv = torch.linalg.lu_factor(A)
x = b.lu_solve(LU, piv)
print(x, x.grad_fn.next_functions)
x.sum().backward()
print(A.grad, b.grad)
for call in (lambda: b.lu_solve(LU, piv.long()), lambda: b.lu_solve(LU)):
    try:
        call()
    except (RuntimeError, TypeError) as error:
        print(type(error).__name__, error)
# atleast_1d/2d/3d of several tensors, or of one tuple or list of them: a tuple (PyTorch's Tensor[] form)
a = torch.tensor(1.5, dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.atleast_1d(a, b), torch.atleast_2d((a, b)), torch.atleast_3d([a, b]), torch.atleast_3d([a]))
print(torch.atleast_1d(), torch.atleast_1d(()), torch.atleast_2d(a))
for call in (lambda: torch.atleast_1d(a, 0), lambda: torch.atleast_2d([a, 1.5]), lambda: torch.atleast_1d(0),
             lambda: torch.atleast_1d(a, b, x=1)):
    try:
        call()
    except TypeError as error:
        print("TypeError", error)
r = torch.atleast_2d(a, b)
(r[0].sum() + r[1].sum() * 2).backward()
print(a.grad, b.grad, r[0].grad_fn, r[1].grad_fn)
# torch.tensordot's Python reading of dims: an int tensor (a count, or two rows of dims), its words where it refuses
# a pair that is not two lists, a float, or a list of one; F.normalize's out= with a graph is torch.div's error
a = torch.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[[1.0, 2.0], [0.5, 1.5]], [[-1.0, 0.0], [2.0, 1.0]]], dtype=torch.float64, requires_grad=True)
o = torch.empty(2, 2, dtype=torch.float64)
for call in (lambda: torch.tensordot(a, b, torch.tensor(1)), lambda: torch.tensordot(a, b, torch.tensor([[1], [0]])),
             lambda: torch.tensordot(a, b, torch.tensor([[1, 0], [0, 1]])), lambda: torch.tensordot(a, b, 1.5),
             lambda: torch.tensordot(a, b, ([1], 0)), lambda: torch.tensordot(a, b, (0, 1), [-1]),
             lambda: torch.tensordot(a, b, [-1], 1), lambda: torch.tensordot(a, b, [[1], [0], [1]]),
             lambda: torch.tensordot(a, b, -1), lambda: torch.tensordot(a, b, dims=[[0, 1], [1, 2]]),
             lambda: F.normalize(a, 1, 0, 2, 0), lambda: F.normalize(a, 1, 0, 2, out=o)):
    try:
        print(call())
    except (RuntimeError, TypeError, ValueError) as error:
        print(type(error).__name__, error)
y = torch.tensordot(a, b, torch.tensor([[0], [1]]))
y.sum().backward()
print(y.grad_fn, a.grad, b.grad, F.normalize(a, 1, 0, 1e-12, None))
# Python's own TypeErrors of the functions read here before their rows: an arg too many, one missing
for call in (lambda: F.feature_alpha_dropout(a, 0.5, True, False, 1), lambda: F.alpha_dropout(a, 0.5, True, False, 1),
             lambda: F.alpha_dropout(p=0.5), lambda: torch.tensordot(a), lambda: torch.tensordot(), lambda: torch.tensordot(b=a)):
    try:
        print(call())
    except TypeError as error:
        print(type(error).__name__, error)
