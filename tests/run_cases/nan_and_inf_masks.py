# torch.isnan, isinf, isfinite, isposinf, isneginf, signbit, isreal and their methods: bool tensors,
# never requiring grad, with no node; masks built from them select and gate a gradient.
import torch

x = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -0.0, -2.5], requires_grad=True)
print(torch.isnan(x), x.isnan())
print(torch.isinf(x), x.isinf(), torch.isfinite(x), x.isfinite())
print(torch.isposinf(x), torch.isneginf(x), x.isposinf(), x.isneginf())
print(torch.signbit(x), x.signbit(), torch.isreal(x), x.isreal())
mask = torch.isnan(x)
print(mask.dtype, mask.requires_grad, mask.grad_fn, mask.any(), mask.sum(), torch.isinf(x).sum().item())
print(torch.isnan(torch.tensor([1, 2])), torch.isinf(torch.tensor(3)), torch.isfinite(torch.tensor([True])))
print(torch.signbit(torch.tensor([-1, 0, 2])), torch.isnan(torch.tensor(float("nan"), dtype=torch.float64)))
kept = x[torch.isfinite(x)]
print(kept)
loss = (kept ** 2).sum()
loss.backward()
print(x.grad)
y = torch.where(torch.isnan(x), torch.zeros_like(x), x)
print(y)
z = torch.tensor([0.5, 0.0, -3.0], requires_grad=True)
w = z * torch.signbit(z) + torch.isfinite(z / z)
print(w, w.grad_fn)
w.sum().backward()
print(z.grad)
if torch.isnan(loss):
    print("nan loss")
else:
    print("finite loss", torch.isfinite(loss).item(), bool(torch.isinf(loss)))
print(torch.isnan(torch.zeros(0)), torch.isinf(torch.ones(2, 2)).all())
