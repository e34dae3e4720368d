# Adaptive average pooling to an output of ones is PyTorch's mean over the pooled axes (MeanBackward1, as the
# global pooling of CNN tutorials shows it); other sizes are AdaptiveAvgPool2DBackward0 (issue #21).
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.linspace(-2, 2, 120, dtype=torch.float64).reshape(2, 3, 4, 5).requires_grad_()
for f in (lambda: F.adaptive_avg_pool2d(x, 1), lambda: F.adaptive_avg_pool2d(x, (1, 1)), lambda: nn.AdaptiveAvgPool2d((1, 1))(x),
          lambda: F.adaptive_avg_pool2d(x[0], 1), lambda: F.adaptive_avg_pool2d(x, (1, 2)), lambda: F.adaptive_avg_pool2d(x, (1, None)),
          lambda: F.adaptive_avg_pool3d(x, 1), lambda: F.adaptive_avg_pool1d(x[0], 1), lambda: F.adaptive_avg_pool2d(x, (None, None)),
          lambda: F.adaptive_avg_pool2d(x[:, :, :1, :1], 1), lambda: nn.AdaptiveAvgPool3d(1)(x.float())):
    out = f()
    print(out.shape, out.grad_fn, out.grad_fn.next_functions)
    out.backward(torch.ones_like(out) * 0.5)
    print(out.flatten()[:4], x.grad[0, 0])
    x.grad = None
