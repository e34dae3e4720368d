# conv_transpose1d/2d take a bias of any dtype, added in the input's (PyTorch's slow kernel): the output is the
# input's dtype and the bias's gradient its own; a weight of another dtype than the input is PyTorch's error.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 2, 3, dtype=torch.float64, requires_grad=True)
w = torch.randn(2, 1, 2, dtype=torch.float64, requires_grad=True)
for b in (torch.tensor([1], dtype=torch.int64), torch.tensor([0.5], dtype=torch.float32), torch.tensor([True])):
    o = F.conv_transpose1d(x, w, b)
    print(o.dtype, o.grad_fn.name(), o)
x32 = torch.randn(1, 2, 3, requires_grad=True)
w32 = torch.randn(2, 1, 2, requires_grad=True)
b64 = torch.tensor([0.5], dtype=torch.float64, requires_grad=True)
o = F.conv_transpose1d(x32, w32, b64)
o.sum().backward()
print(o.dtype, b64.grad, w32.grad)
try:
    F.conv_transpose1d(x32, w32.double(), b64)
except RuntimeError as e:
    print("RuntimeError", e)
o = F.conv_transpose2d(torch.randn(1, 2, 3, 3, dtype=torch.float64), torch.randn(2, 1, 2, 2, dtype=torch.float64), torch.tensor([1]))
print(o.dtype, o.shape)
