# nn.RReLU and F.rrelu as PyTorch's CPU kernel runs them: in training mode a slope drawn uniform in [lower, upper] for
# each element <= 0 (torch's generator, one 64-bit draw per such element, in order), in eval mode the mean slope; its
# repr, its one RreluWithNoiseBackward0 node and the gradient (the slopes); draws after it continue the stream.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
m = nn.RReLU()
print(m, nn.RReLU(0.1, 0.3, inplace=True))
x = torch.tensor([[-2.0, 1.0, -0.5, 0.0], [3.0, -1.0, -4.0, 2.0]], dtype=torch.float64, requires_grad=True)
y = m(x)
print(y)
y.sum().backward()
print(x.grad)
print(torch.rand(2, dtype=torch.float64))
m.eval()
print(m(x))
print(F.rrelu(x, 0.2, 0.4), F.rrelu(x, 0.2, 0.4, training=True))
z = torch.randn(3, 4)
print(F.rrelu(z, training=True))
print(torch.randn(2))
