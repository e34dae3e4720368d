# torch.flatten of a vector, or from one axis to the same, is the input itself (no node, PyTorch returns self); ravel
# (reshape(-1)) is a view of a vector too (ViewBackward0); writes through flatten's views reach the input.
import torch
import numpy as np

a = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
for out in (torch.flatten(a), a.flatten(), a.flatten(0, 0), torch.ravel(a), a.ravel()):
    print(out.grad_fn is None, out is a, out.shape, None if out.grad_fn is None else out.grad_fn.name())
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
for out in (m.flatten(), m.flatten(1, 1), m.flatten(-1, 1), m.flatten(1)):
    print(out.grad_fn.name() if out.grad_fn is not None else None, out is m, out.shape)
(m.flatten(1, 1) * 2).sum().backward()
print(m.grad)
x = torch.zeros(3)
y = x.flatten()
y[0] = 5.0
z = torch.zeros(2, 2)
w = z.flatten()
w[1] = 7.0
print(x, z)
try:
    m.flatten(1, 0)
except Exception as e:
    print(type(e).__name__, e)
print(np.ravel(np.array([[1, 2], [3, 4]])))
