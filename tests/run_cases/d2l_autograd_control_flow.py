# d2l.ai, "Automatic Differentiation", 2.5.4 Gradients and Python Control Flow (PyTorch tab), as written,
# except that `a = torch.randn(size=(), requires_grad=True)` is given fixed values (gradcli's randn is not
# PyTorch's bits yet) and the notebook's shown expressions are printed.
import torch

def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.tensor(0.8133, requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
print(a.grad, d)

a = torch.tensor(-1.7, requires_grad=True)
d = f(a)
d.backward()
print(a.grad == d / a)
print(a.grad, d.grad_fn)
