# nn.FractionalMaxPool2d and F.fractional_max_pool2d as PyTorch's CPU kernel runs them: two uniforms per (batch,
# channel) drawn with torch.rand (float32 and float64 inputs), the windows' starts from them, the largest element of each
# window; output_size and output_ratio, return_indices, unbatched input, given _random_samples; the node
# FractionalMaxPool2DBackward0 and the gradient scattered to the chosen elements; later draws continue the stream; NaN
# (the last NaN of a window is taken) and windows all -inf (their first element).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
m = nn.FractionalMaxPool2d(2, output_size=(3, 4))
print(m)
x = torch.randn(2, 3, 7, 9, requires_grad=True)
y = m(x)
print(y)
print(y.grad_fn)
y.sum().backward()
print(x.grad[1, 2])
print(torch.rand(2))
r = nn.FractionalMaxPool2d((3, 2), output_ratio=(0.5, 0.5), return_indices=True)
values, indices = r(torch.arange(2 * 10 * 10, dtype=torch.float64).reshape(2, 10, 10).flip(-1))
print(values, indices)
samples = torch.tensor([[[0.25, 0.75]]], dtype=torch.float64)
z = torch.randn(1, 1, 8, 8, dtype=torch.float64)
print(F.fractional_max_pool2d(z, 2, output_size=4, _random_samples=samples))
print(F.fractional_max_pool2d(z, kernel_size=3, output_ratio=(0.6, 0.6)))
try:
    F.fractional_max_pool2d(z, kernel_size=3, output_ratio=0.6)
except TypeError as e:
    print("TypeError:", e)
print(torch.randn(3))
x = torch.tensor([[[[1., float('nan'), 3., float('nan')], [5., 6., 7., 8.], [0., -1., 2., 9.]]]], requires_grad=True)
y, i = F.fractional_max_pool2d(x, 2, output_size=(2, 2), return_indices=True, _random_samples=torch.tensor([[[0.3, 0.6]]]))
print(y, i)
y.sum().backward()
print(x.grad)
print(F.fractional_max_pool2d(torch.full((1, 1, 3, 3), float('-inf')), 2, output_size=(2, 2), return_indices=True))
