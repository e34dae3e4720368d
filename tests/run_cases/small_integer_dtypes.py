# uint8, int8 and int16 tensors as tutorials use them: masks (.byte(), .to(torch.uint8)), images' bytes,
# casts that wrap, PyTorch's promotion among them (uint8 with int8: int16) and a byte mask as an index.
import torch

torch.manual_seed(0)
x = torch.tensor([-1.5, 0.0, 2.7, 300.0])
m = (x > 0).to(torch.uint8)
print(m, m.dtype, (x > 0).byte(), m.sum(), m.float(), m * 2, m + 1, m * x)
print(x.to(torch.int8), x.char(), x.short(), x.to(torch.int16).dtype, x.byte())
img = torch.randint(0, 256, (2, 3), dtype=torch.uint8)
print(img, img.float() / 255, img.max(), img.dtype, img.shape)
print(torch.tensor([1, 2, 3], dtype=torch.uint8) - 2)
print(torch.zeros(3, dtype=torch.uint8), torch.ones(2, 2, dtype=torch.int8))
print(x[m.bool()], m.tolist(), m[1].item(), torch.uint8, torch.int8, torch.int16, torch.short)
print(torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8))
print(torch.tensor([1, 2], dtype=torch.int8) + torch.tensor([1, 2], dtype=torch.uint8))
print(torch.ByteTensor([1, 2]), torch.CharTensor([1]), torch.ShortTensor([3]))
print(m.type(torch.float32), torch.tensor([3], dtype=torch.int16) * 1.5)
print(x[m])
img = torch.randint(0, 256, (2, 3), dtype=torch.uint8)
print(img, img.float() / 255, img.max(), img.sum(), img.mean(dtype=torch.float32), img.double().mean())
m = torch.tensor([1, 0, 1], dtype=torch.uint8)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(v * m, (v * m).sum(), m.dtype, m.to(torch.bool), m.bool())
z = torch.zeros(3, dtype=torch.int8)
z[0] = 5
z += 1
print(z, z.dtype, z.tolist(), z.numpy() if False else 0, torch.tensor(5, dtype=torch.int16) // 2, -torch.tensor([3], dtype=torch.uint8))
print(torch.tensor([250], dtype=torch.uint8) * 2, torch.arange(5, dtype=torch.uint8), torch.full((2,), 7, dtype=torch.int8))
print(m.long() + 1, m.int(), torch.tensor([1, 2], dtype=torch.int16) + torch.tensor([1.5]), m == 1, m.float().requires_grad_())
x = torch.tensor([[1., 2.], [3., 4.]])
mask = (x > 2).byte()
print(mask, x * mask, mask.sum(dim=1), mask.type(torch.FloatTensor))
