# torch.int32 (torch.int) tensors: arithmetic keeps int32 (a Python int too), sums and products are int64,
# nansum of integers int64, nanmean refuses them, diff of booleans is their xor.
import torch
b = torch.tensor([1, 2, 3], dtype=torch.int32)
c = torch.tensor([1, 2, 3], dtype=torch.int)
print(b + 1, b * 2, b + 2**40, b - 2**31, b // 2, b * b, (b * b).dtype, b + torch.tensor([1, 1, 1]), b.sum(), b.prod())
print(b.float(), b.double().dtype, b * 1.5, b / 2, b.max(), b.argmax(), b[1], b[1].item(), b.tolist(), c.dtype == torch.int32)
print(torch.zeros(2, dtype=torch.int32), torch.arange(3, dtype=torch.int32), torch.ones(2, 2, dtype=torch.int).sum(0))
x = torch.tensor([1., 2., 3.], requires_grad=True)
print(x[b.long() - 1], x[b - 1], (x * b).sum())
print(torch.int32, torch.int, b.dtype is torch.int32)
b = torch.tensor([1, 2, 3], dtype=torch.int32)
t = torch.tensor([True, False, True])
for f in (torch.sum, torch.prod, torch.cumsum, torch.cumprod, torch.nansum, torch.trace, torch.nanmean, torch.diff, torch.max, torch.amax, torch.mean):
    for v in (b, t, b.view(1, 3)):
        try:
            r = f(v, 0) if f in (torch.cumsum, torch.cumprod) else f(v)
            print(r.dtype)
        except Exception as e:
            print("error", e)
