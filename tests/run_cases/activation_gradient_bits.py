# The last bits of the activations' gradients that a DCGAN-style model reads: leaky_relu's backward in float32
# multiplies by the slope rounded to float32 (not by float64's 0.2, rounded after), in and out of place; ELU,
# SELU and CELU written in place (EluBackward1, CeluBackward1) take their gradient from the result, PyTorch's
# g * input_scale * (result + alpha * scale) (float64 here: float32's exp differs by machine).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
for dtype in [torch.float32, torch.float64]:
    x = (torch.randn(400, dtype=dtype) * 3).requires_grad_()
    g = torch.randn(400, dtype=dtype)
    y = x * 1
    nn.LeakyReLU(0.2, inplace=True)(y)
    y.backward(g)
    first = x.grad.clone()
    x.grad = None
    F.leaky_relu(x, 0.2).backward(g)
    print(dtype, y.grad_fn, first.tolist() == x.grad.tolist(), x.grad[:6].tolist(), x.grad.sum().item())

for name, options in [("elu", {}), ("elu", {"alpha": 0.7}), ("selu", {}), ("celu", {"alpha": 0.7}),
                      ("celu", {"alpha": 1.3})]:
    x = (torch.randn(300, dtype=torch.float64) * 3).requires_grad_()
    g = torch.randn(300, dtype=torch.float64)
    y = x * 1
    getattr(F, name)(y, inplace=True, **options)
    y.backward(g)
    print(name, options, y.grad_fn, [v for v, u in zip(x.grad.tolist(), x.tolist()) if u < 0][:8])
