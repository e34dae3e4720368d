# F.celu's gradient takes 1 / alpha of alpha rounded to float32 (PyTorch's derivative formula: 1.0 / alpha.toFloat()),
# where its value takes 1 / alpha: for an alpha float32 does not hold (0.7), the float64 gradient's last digits show it
import torch
import torch.nn.functional as F

x = torch.tensor([-1.5, -0.25, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
for alpha in (0.7, 3.3, 1.0):
    y = F.celu(x, alpha=alpha)
    y.sum().backward()
    print(alpha, y.tolist(), x.grad.tolist())
    x.grad = None
