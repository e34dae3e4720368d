# torch.as_strided(x, size, stride, storage_offset) reads x's storage (x a tensor of its own: contiguous);
# as_strided_copy and as_strided_scatter; overlapping reads add their gradients (AsStridedBackward0)
import torch

x = torch.tensor([1., 2., 3., 4., 5., 6.], dtype=torch.float64, requires_grad=True)
w = torch.arange(1., 7., dtype=torch.float64).reshape(3, 2)
y = torch.as_strided(x, (3, 2), (1, 1))
print(y, y.grad_fn.name(), y.grad_fn.next_functions)
(y * w).sum().backward()
print(x.grad)

m = torch.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=torch.float64, requires_grad=True)
z = m.as_strided((2, 2), (1, 3), 1)
print(z)
z.pow(2).sum().backward()
print(m.grad)

c = torch.as_strided_copy(x, (2,), (2,), storage_offset=1)
print(c, c.grad_fn.name())

b = torch.tensor([10., 20.], dtype=torch.float64, requires_grad=True)
a = m.detach().requires_grad_()
s = torch.as_strided_scatter(a, b, (2,), (2,), 1)
print(s, s.grad_fn.name())
(s * torch.arange(6., dtype=torch.float64).reshape(2, 3)).sum().backward()
print(b.grad, a.grad)  # (a's: PyTorch's as_strided_scatter_backward, the region's g, not its complement)

for size, stride, offset in [((3, 3), (1, 2), 0), ((2,), (-1,), 0), ((2, 2), (1,), 0)]:
    try:
        torch.as_strided(x, size, stride, offset)
    except RuntimeError as e:
        print("RuntimeError:", e)
