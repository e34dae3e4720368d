# PyTorch's sign is 0 at -0 and at NaN (NumPy's is NaN at NaN): the sign itself, the 1-norm's and the
# inf-norm's gradients (x.sgn() * grad), and i0e's gradient, which uses the sign, at -0, 0 and NaN.
import torch

y = torch.tensor([-0.0, 0.0, -2.0, float("nan")], requires_grad=True)
torch.linalg.vector_norm(y, 1).backward()
print(y.grad)
y.grad = None
torch.linalg.vector_norm(y[:3], float("inf")).backward()
print(y.grad)
z = torch.tensor([-0.0, 0.0, -2.0, float("nan")], requires_grad=True)
s = torch.sign(z)
print(s, s * -1, torch.sgn(z.detach()))
s.sum().backward()
print(z.grad)
w = torch.tensor([-0.0, 0.0, -2.0, 1e-300], requires_grad=True)
torch.special.i0e(w).sum().backward()
print(w.grad)
