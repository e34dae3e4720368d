# More nn modules as PyTorch 2.13 prints and runs them: GELU, ELU, CELU, SELU, SiLU, Mish, ReLU6, Hardtanh,
# Hardsigmoid, Hardswish, Softplus, LogSigmoid, Softsign, Tanhshrink, Softmin, GLU, Threshold, PReLU (its weight a
# parameter), LayerNorm (weight and bias, elementwise_affine=False, bias=False), BCELoss, SmoothL1Loss, HuberLoss,
# KLDivLoss; their reprs (inplace shown only when set), outputs, graphs and gradients (the in-place forms printed only).
import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(2, 4, requires_grad=True)
mods = [nn.GELU(), nn.GELU('tanh'), nn.ELU(), nn.ELU(0.5), nn.CELU(), nn.SELU(), nn.SiLU(), nn.Mish(), nn.ReLU6(),
        nn.Hardtanh(), nn.Hardtanh(-2.0, 2.0), nn.Hardsigmoid(), nn.Hardswish(), nn.Softplus(), nn.Softplus(2, 10),
        nn.LogSigmoid(), nn.Softsign(), nn.Tanhshrink(), nn.Softmin(dim=1), nn.GLU(), nn.Threshold(0.1, 20),
        nn.PReLU(), nn.LayerNorm(4), nn.LayerNorm((2, 4), elementwise_affine=False), nn.LayerNorm(4, eps=1e-6, bias=False)]
print(nn.ReLU(inplace=True), nn.LeakyReLU(0.2, inplace=True), nn.ELU(0.5, True), nn.Hardtanh(inplace=True))
for m in mods:
    y = m(x)
    print(m, y, list(m.parameters()))
    y.sum().backward()
print(x.grad)
p = torch.sigmoid(torch.randn(3, 2))
t = torch.rand(3, 2)
for loss in (nn.BCELoss(), nn.BCELoss(reduction='sum'), nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(),
             nn.HuberLoss(delta=2.0), nn.KLDivLoss(reduction='batchmean')):
    print(loss, loss(p, t))
