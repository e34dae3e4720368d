# nn.Unfold and nn.Fold (F.unfold's im2col and F.fold's col2im as modules): their reprs, the sliding blocks of an image
# as columns and back, with dilation, padding and stride; fold(unfold(x)) counting each pixel's blocks (the docs'
# divisor), the graph (Im2ColBackward0, Col2ImBackward0) and the gradient through both; type(m).
import torch
import torch.nn as nn
import torch.nn.functional as F

unfold = nn.Unfold(kernel_size=(2, 3))
print(unfold, type(unfold))
x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float64).reshape(2, 3, 4, 5).requires_grad_()
columns = unfold(x)
print(columns.shape)
print(columns[0, :6])
fold = nn.Fold(output_size=(4, 5), kernel_size=(2, 3))
print(fold)
back = fold(columns)
print(back[1, 2], back.grad_fn)
ones = torch.ones(1, 1, 4, 5, dtype=torch.float64)
divisor = fold(unfold(ones))
print(divisor)
print(torch.allclose(back / divisor, x))
(back * torch.linspace(0, 1, back.numel(), dtype=torch.float64).reshape(back.shape)).sum().backward()
print(x.grad[0, 0])
u2 = nn.Unfold(kernel_size=2, dilation=(1, 2), padding=1, stride=2)
print(u2)
print(u2(torch.arange(16.0).reshape(1, 1, 4, 4)))
f2 = nn.Fold(output_size=3, kernel_size=2)
print(f2, f2(torch.arange(16.0).reshape(1, 4, 4)))
print(torch.equal(F.unfold(x, 2), nn.Unfold(2)(x)))
