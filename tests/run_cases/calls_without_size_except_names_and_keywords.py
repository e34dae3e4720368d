# torch.zeros/ones/empty/rand/randn/randint without a size (PyTorch's TypeErrors); the name of `except E as e`
# unbound after the clause (NameError, UnboundLocalError in a function); x.div_(b, rounding_mode=...);
# torch.linalg.vector_norm(x, dtype=...) and its refusals; torch.add/sub(..., alpha=) of bools and a bool alpha
import torch
for name, f in [("zeros", torch.zeros), ("ones", torch.ones), ("empty", torch.empty), ("rand", torch.rand), ("randn", torch.randn)]:
    try:
        t = f()
        print(name, t.shape, t.dtype)
    except TypeError as e:
        print(name, type(e).__name__, e)
try:
    print(torch.full())
except TypeError as e:
    print(type(e).__name__, e)
print(torch.zeros(()), torch.ones(size=()), torch.zeros([]))
try:
    print(torch.randint(5))
except TypeError as e:
    print(type(e).__name__, e)
e = 5
try:
    torch.zeros(2) + torch.zeros(3)
except RuntimeError as e:
    print("caught", e)
try:
    print(e)
except NameError as err:
    print("NameError", err)
def f():
    try:
        raise ValueError("x")
    except ValueError as problem:
        pass
    return problem
try:
    f()
except NameError as err:
    print(type(err).__name__, err)
x = torch.tensor([5., -3., 7.])
b = torch.tensor([2., 2., -2.])
print(x.clone().div_(b, rounding_mode='floor'), x.clone().div_(b, rounding_mode='trunc'), x.clone().div_(b, rounding_mode=None))
print(torch.tensor([5, -3, 7]).div_(2, rounding_mode='floor'))
print(torch.linalg.vector_norm(x, dtype=torch.float64), torch.linalg.vector_norm(x, 1, dtype=torch.float64).dtype)
t = torch.tensor([True, False, True])
print(torch.add(t, t, alpha=True), torch.add(t, torch.tensor([False, False, True]), alpha=False))
try:
    print(torch.add(t, t, alpha=2))
except RuntimeError as err:
    print(err)
try:
    print(torch.add(torch.tensor([1, 2]), torch.tensor([1, 2]), alpha=0.5))
except RuntimeError as err:
    print(err)
try:
    print(torch.add(torch.tensor([1., 2.]), torch.tensor([1., 2.]), alpha=True))
except RuntimeError as err:
    print(err)
x = torch.tensor([5., -3., 7.], requires_grad=True)
try:
    print(torch.linalg.vector_norm(torch.tensor([3, 4]), dtype=torch.float32))
except RuntimeError as e:
    print(e)
n = torch.linalg.vector_norm(x, dtype=torch.float64)
print(n, n.grad_fn, n.grad_fn.next_functions)
n.backward()
print(x.grad)
print(torch.norm(x, dtype=torch.float64), torch.linalg.vector_norm(x, 1, 0, True, dtype=torch.float64))
try:
    print(torch.linalg.vector_norm(x.double(), dtype=torch.float32))
except RuntimeError as e:
    print(e)
print(x.norm(dtype=torch.float64))
t = torch.tensor([True, False, True, False])
u = torch.tensor([False, False, True, True])
i = torch.tensor([1, 2, 3, 4])
f = torch.tensor([1., 2., 3., 4.])
for a, b, alpha in [(t, u, True), (t, u, False), (t, u, 2), (t, u, 0), (t, u, 0.5), (t, u, -1), (i, i, True), (i, i, False), (f, f, True), (t, True, True), (t, 1, True), (i, t, True), (t, i, True), (f, t, 2), (t, f, 0.5), (u, t, 1.0)]:
    for fn in ("add", "sub"):
        try:
            r = getattr(torch, fn)(a, b, alpha=alpha)
            print(fn, alpha, r.dtype, r.tolist())
        except (RuntimeError, TypeError) as e:
            print(fn, alpha, type(e).__name__, e)
x = t.clone()
x.add_(u, alpha=True)
print(x)
