# nn.InstanceNorm1d / 2d / 3d as PyTorch's _InstanceNorm: no parameters nor running statistics by default, affine=
# and track_running_stats= (updated in training; read in eval; momentum=None leaves them), an unbatched input
# (unsqueezed and squeezed back: SqueezeBackward1), the input checks (its dims; num_features, an error with
# affine, a warning without). float64 throughout (its statistics' float32 sqrt is MKL's).
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
seed = torch.linspace(-1.0, 2.0, 24, dtype=torch.float64).reshape(2, 3, 4)
m1 = nn.InstanceNorm1d(3, dtype=torch.float64)
print(m1, m1.weight, m1.running_mean, list(m1.state_dict().keys()), list(m1.named_parameters()))
y = m1(x)
print(y, y.grad_fn, y.grad_fn.next_functions)
(y * seed).sum().backward()
print(x.grad)
x.grad = None
m2 = nn.InstanceNorm1d(3, affine=True, track_running_stats=True, dtype=torch.float64)
print(m2, list(m2.state_dict().keys()))
out = m2(x)
print(out, out.grad_fn, m2.running_mean, m2.running_var, m2.num_batches_tracked)
(out * seed).sum().backward()
print(x.grad, m2.weight.grad, m2.bias.grad)
m2.eval()
print(m2(x), m2.running_mean)
print(m2(x[0]), m2(x[0]).grad_fn)
m3 = nn.InstanceNorm2d(2, momentum=None, track_running_stats=True, eps=1e-3, dtype=torch.float64)
x4 = torch.randn(2, 2, 3, 3, dtype=torch.float64)
print(m3, m3(x4), m3.running_mean, m3.running_var)
print(m3(x4[0]).shape)
m4 = nn.InstanceNorm3d(2, affine=True, dtype=torch.float64)
print(m4, m4(x4.reshape(1, 2, 3, 3, 2)[:, :, :, :, :1].expand(1, 2, 3, 3, 2)).shape)
for label, f in (("1d 4-D", lambda: m1(x4)), ("2d 3-D unbatched", lambda: nn.InstanceNorm2d(2, dtype=torch.float64)(x4[0])),
                 ("2d 2-D", lambda: nn.InstanceNorm2d(2)(x[0])),
                 ("affine mismatch", lambda: nn.InstanceNorm1d(4, affine=True)(x)),
                 ("no affine mismatch", lambda: nn.InstanceNorm1d(4)(x).shape),
                 ("1 spatial", lambda: nn.InstanceNorm1d(3)(x[:, :, :1]))):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)
m5 = nn.InstanceNorm1d(3, affine=True, bias=False, dtype=torch.float64)
print(m5, m5.bias, list(m5.state_dict()), m5(x).grad_fn)
