# A float32 tensor divided or multiplied by a Python number sends its gradient on in float32, the number read as
# float32, as PyTorch's kernels do (it went on in float64, and the gradients after it differed in their last bits).
import torch

torch.manual_seed(0)
x = torch.randn(1000, requires_grad=True)
y = ((x * x + 1).sqrt() / 3).sum()
y.backward()
print(x.grad.sum().item(), x.grad[:5].tolist())
x.grad = None
w = ((x * x + 2).sqrt() * 0.7 - x * 1.3).sum()
w.backward()
print(x.grad.sum().item(), x.grad[:5].tolist(), x.grad.dtype)
