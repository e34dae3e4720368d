# torch.nn's padding modules (Reflection/Replication/Constant/ZeroPad 1d-3d), PixelShuffle, PixelUnshuffle,
# ChannelShuffle, Upsample and UpsamplingNearest2d/Bilinear2d, Hardshrink, Softshrink, Softmax2d, CosineSimilarity,
# PairwiseDistance and LocalResponseNorm: their reprs, outputs, gradients and errors as PyTorch's (the nn docstrings'
# examples use them; they were refused).
import torch
import torch.nn as nn

x = torch.arange(8, dtype=torch.float).reshape(1, 2, 4).requires_grad_()
for m in (nn.ReflectionPad1d(2), nn.ReplicationPad1d((3, 1)), nn.ConstantPad1d(2, 3.5), nn.ZeroPad1d([1, 2])):
    y = m(x)
    print(m, type(m), y.shape, y.grad_fn.name())
    print(y)
(nn.ReflectionPad1d(2)(x) * torch.arange(8.0)).sum().backward()
print(x.grad)
img = torch.arange(9, dtype=torch.float).reshape(1, 1, 3, 3)
for m in (nn.ReflectionPad2d((1, 1, 2, 0)), nn.ReplicationPad2d(1), nn.ZeroPad2d((1, 0, 0, 1)), nn.ConstantPad2d(1, -1),
          nn.Upsample(scale_factor=2), nn.Upsample(size=(4, 5), mode='bilinear'),
          nn.Upsample(scale_factor=2, mode='bilinear', align_corners=True), nn.UpsamplingNearest2d(scale_factor=2),
          nn.UpsamplingBilinear2d(size=4), nn.Softmax2d(), nn.Hardshrink(), nn.Softshrink(0.25)):
    print(m)
    print(m(img - 4) if isinstance(m, (nn.Hardshrink, nn.Softshrink)) else m(img / 8))
vol = torch.arange(8, dtype=torch.float).reshape(1, 1, 2, 2, 2)
print(nn.ReflectionPad3d(1)(vol)[0, 0, 0], nn.ReplicationPad3d((1, 0, 0, 0, 0, 1))(vol).shape, nn.ZeroPad3d(1),
      nn.ConstantPad3d((1, 1, 0, 0, 0, 0), 2.0)(vol)[0, 0, 1])
ps = nn.PixelShuffle(2)
t = torch.arange(16.0).reshape(1, 4, 2, 2)
print(ps, ps(t), nn.PixelUnshuffle(2), nn.PixelUnshuffle(2)(ps(t)).equal(t))
cs = nn.ChannelShuffle(2)
print(cs, cs(torch.arange(8.0).reshape(1, 4, 1, 2)))
a = torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]], requires_grad=True)
b = torch.tensor([[2.0, 1.0, 2.0], [3.0, 0.0, 4.0]])
cos, dist = nn.CosineSimilarity(dim=1, eps=1e-6), nn.PairwiseDistance(p=2)
print(cos, dist, cos(a, b), dist(a, b), nn.PairwiseDistance(p=1, keepdim=True)(a, b))
(cos(a, b).sum() + dist(a, b).sum()).backward()
print(a.grad)
lrn = nn.LocalResponseNorm(2)
print(lrn, lrn(torch.arange(12.0).reshape(1, 3, 2, 2) / 4))
up = nn.Upsample(scale_factor=2, mode='nearest')
print(up.scale_factor, up.mode, up.align_corners, up.size)
for bad in (lambda: nn.Softmax2d()(torch.ones(2, 2)), lambda: nn.ReflectionPad1d(4)(torch.ones(1, 3))):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
