# nn.BatchNorm1d / 2d in training on (N, C, L) and (N, C, H, W) inputs, to PyTorch's bits: its CPU kernel's
# statistics (sums in float64, the mean and the squares rounded to float32), x * alpha + beta fused, and the
# running statistics blended by the momentum as its kernel blends them
import torch
torch.manual_seed(0)
for shape in [(1, 4, 4), (2, 3, 5)]:
    x = torch.rand(*shape) * 20 + 5
    bn = torch.nn.BatchNorm1d(shape[1])
    y = bn(x)
    print(y.flatten().tolist()[:6], y.mean())
    print(bn.running_mean.tolist(), bn.running_var.tolist())
bn = torch.nn.BatchNorm1d(4)
for step in range(5):
    bn(torch.rand(3, 4, 5) * 20 + 5)
print(bn.running_mean.tolist(), bn.running_var.tolist())
bn2 = torch.nn.BatchNorm2d(2, momentum=0.3)
for step in range(3):
    out = bn2(torch.randn(2, 2, 3, 3) * 4 - 1)
print(out.flatten().tolist()[:5], bn2.running_mean.tolist(), bn2.running_var.tolist())
