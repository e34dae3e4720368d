# F.instance_norm's weight, bias and running statistics of another count or more dims, in PyTorch's words: it repeats
# each N times (a tensor of more than one dim cannot be), then batch_norm counts N * C elements.
import torch
import torch.nn.functional as F

a = torch.ones(2, 3, 2, dtype=torch.float64, requires_grad=True)
o = lambda *s: torch.ones(s, dtype=torch.float64)
for given in [dict(running_mean=o(0), running_var=o(3)), dict(running_mean=o(0, 3), running_var=o(3)), dict(weight=o(2)),
              dict(weight=o(3, 1)), dict(bias=o(0)), dict(running_mean=o(2), running_var=o(0, 3)),
              dict(weight=o(2), bias=o(0, 3)), dict(weight=o(6))]:
    try:
        F.instance_norm(a, **given)
        print(list(given), "computed")
    except Exception as e:
        print({k: tuple(v.shape) for k, v in given.items()}, type(e).__name__, e)
