import torch
import torch.nn.functional as F
# Call forms PyTorch takes or refuses, held to its output (issue #21, fuzz/call_forms.py's findings): the scatters'
# src by keyword,
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.5, 1.5, -2.0], dtype=torch.float64, requires_grad=True)
s = torch.select_scatter(a, src=b, dim=0, index=1)
d = torch.diagonal_scatter(a, dim2=1, dim1=0, offset=1, src=b[:2])
print(s, d, a.select_scatter(index=1, dim=-1, src=b[:2]))
(s * d).sum().backward()
print(a.grad, b.grad)
# movedim of an int and a list: PyTorch's TypeError (its overloads are two ints or two int[] of no size; roll's
# int[1] takes either)
for call in (lambda: torch.movedim(a, (1,), -1), lambda: a.movedim(0, [1]), lambda: torch.moveaxis(a, source=(1,), destination=0)):
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
print(torch.movedim(a, (1,), (0,)), a.movedim(1, 0), torch.roll(a, 1, (0,)))
# out=None is no out (torch.sin(x, out=None)); tensordot's 4th positional arg is out: None, else PyTorch's TypeError
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
print(torch.sin(m, out=None), torch.sum(m, 0, out=None), torch.mm(m, m, out=None))
print(torch.tensordot(m, m, 1, None), torch.tensordot(m, m, ([1], [0]), out=None))
for out in ((0, 1), 2):
    try:
        torch.tensordot(m, m, 1, out)
    except TypeError as e:
        print("TypeError:", e)
# repeat_interleave: output_size= (PyTorch's check of it), and without repeats PyTorch's own errors (its
# repeat_interleave(repeats) of a float tensor; the method has no such form)
print(torch.repeat_interleave(m, 2, 1, output_size=4), m.repeat_interleave(2, output_size=8))
for call in (lambda: torch.repeat_interleave(m, 2, 1, output_size=1), lambda: torch.repeat_interleave(m),
             lambda: torch.repeat_interleave(m, output_size=3), lambda: m.repeat_interleave(), lambda: torch.repeat_interleave(m, 2, 1, 4)):
    try:
        call()
    except (TypeError, RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
# dropout of p=1 draws nothing: input * zeros(()) (MulBackward0); a p outside [0, 1] is PyTorch's ValueError, p as written
y = F.feature_alpha_dropout(m, 1, True) + F.dropout(m, 1.0)
print(y, y.grad_fn.next_functions[0][0].next_functions)
for p in (2, 2.0, float("inf"), -0.5):
    try:
        F.feature_alpha_dropout(m, p)
    except ValueError as e:
        print("ValueError:", e)
print(F.feature_alpha_dropout(m, 0.5, False), F.feature_alpha_dropout(m, 0))
# a mode that is none of the names, of any type: torch.cdist's and F.grid_sample's own ValueError
g = m[None, None, :1] / 5
for call in (lambda: torch.cdist(m, m, 2, 1), lambda: torch.cdist(m, m, compute_mode="bogus"),
             lambda: torch.cdist(m, m, compute_mode=None), lambda: F.grid_sample(m[None, None], g, 0),
             lambda: F.grid_sample(m[None, None], g, padding_mode=2, align_corners=False)):
    try:
        call()
    except ValueError as e:
        print("ValueError:", e)
print(torch.cdist(m, m, 1, "use_mm_for_euclid_dist"), F.grid_sample(m[None, None], g, align_corners=False))
# a Python number for one arg of xlogy / copysign: PyTorch's Tensor-Scalar nodes (XlogyBackward1/2, CopysignBackward1)
for y in (torch.xlogy(m, 2.0), torch.xlogy(2.0, m), m.xlogy(3), torch.copysign(m, -1.0), torch.xlogy(m, m), torch.copysign(m, m)):
    print(y.grad_fn.name(), len(y.grad_fn.next_functions))
m.grad = None
(torch.xlogy(m, 2.0) + torch.xlogy(2.0, m) + torch.copysign(m, -1.0)).sum().backward()
print(m.grad)
# native_group_norm checks its weight and bias against its C before C against the input (check_group_norm_inputs)
x = torch.arange(24.0, dtype=torch.float64).reshape(2, 4, 3)
for w, C, group in ((torch.ones(4, dtype=torch.float64), 1, 1), (torch.ones(4, dtype=torch.float64), 4, 3),
                    (None, 1, 1), (torch.ones(2, dtype=torch.float64), 2, 1)):
    try:
        torch.native_group_norm(x, w, w, 2, C, 3, group, 1e-5)
    except RuntimeError as e:
        print("RuntimeError:", e)
# torch.cdist's tensors by keyword (x1=, x2=); a compute_mode none of its names by keyword too
print(torch.cdist(m, x2=m * 2), torch.cdist(x1=m, x2=m, p=1.0))
try:
    torch.cdist(m, compute_mode=1, p=2, x2=m)
except ValueError as e:
    print("ValueError:", e)
