# A node of a float32 and a float64 tensor computes in float64, and so does its backward: PyTorch's
# derivative formulas promote the float32 arg first (pow's log of the base, xlogy's log, the losses'
# products); each gradient reaches its tensor in that tensor's dtype. cosine_similarity's norms are each
# in its own tensor's dtype.
import torch
import torch.nn.functional as F

a = torch.tensor(0.9188809394836426, dtype=torch.float32, requires_grad=True)
b = torch.tensor(1.9372194281819048, dtype=torch.float64, requires_grad=True)
out = torch.pow(a, b)
out.backward()
print(repr(b.grad.item()), repr(a.grad.item()), out.dtype, repr(out.item()))
x = torch.tensor([0.3, 0.7], dtype=torch.float32, requires_grad=True)
y = torch.tensor([1.1, 2.2], dtype=torch.float64, requires_grad=True)
z = torch.xlogy(y, x)
z.sum().backward()
print(z.tolist(), x.grad.tolist(), y.grad.tolist())
p = torch.tensor([[0.2, -1.3, 0.7], [1.1, 0.4, -0.5]], dtype=torch.float32, requires_grad=True)
q = torch.tensor([[0.9, 0.1, -0.3], [-0.2, 0.8, 0.6]], dtype=torch.float64, requires_grad=True)
s = F.cosine_similarity(p, q)
s.sum().backward()
print(s.tolist(), p.grad.tolist(), q.grad.tolist())
h = (p * 3).sin()  # a float32 node whose gradient arrives from a float64 one
(h * q).sum().backward()
print(p.grad.tolist(), p.grad.dtype, q.grad.dtype)
t = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], dtype=torch.float64)
loss = F.binary_cross_entropy_with_logits(p, t)  # (its value: PyTorch's log_sigmoid of p in float32, not yet)
loss.backward()
print(loss.dtype, p.grad.tolist())
