# nn.ConvTranspose1d / 2d / 3d as PyTorch 2.13 prints and runs them (d2l's transposed-convolution chapter): their reprs
# (output_padding, dilation, groups and bias=False shown only when set), weights of shape (in, out / groups, *kernel)
# drawn as _ConvNd.reset_parameters draws them, forward with output_size, gradients, and PyTorch's errors.
import torch
from torch import nn
torch.manual_seed(0)
for m in (nn.ConvTranspose1d(2, 3, 3), nn.ConvTranspose2d(1, 1, kernel_size=2, padding=1, bias=False),
          nn.ConvTranspose2d(4, 2, (3, 2), stride=2, output_padding=1, groups=2, dilation=2),
          nn.ConvTranspose3d(1, 2, 2, stride=(1, 2, 1))):
    print(m, m.weight.shape, None if m.bias is None else m.bias.shape, m.output_padding, m.stride)
m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
print(m.weight, m.bias)
x = torch.randn(1, 2, 3, 3, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn)
print(m(x, output_size=[6, 6]).shape, m(x, output_size=(1, 3, 5, 6)).shape)
y.sum().backward()
print(x.grad, m.bias.grad)
print(m.weight.grad.sum(dim=(2, 3)))
z = nn.ConvTranspose1d(2, 1, 2, bias=False)(torch.ones(2, 4))
print(z.shape)
for bad in (lambda: m(x, output_size=[8, 8]), lambda: m(x, output_size=[6]),
            lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode='reflect')):
    try:
        bad()
    except ValueError as e:
        print(e)
try:
    m([[1.0]], output_size=[2, 2])
except AttributeError as e:
    print(e)
