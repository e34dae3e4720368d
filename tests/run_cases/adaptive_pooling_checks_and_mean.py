# Adaptive pooling of every rank and size, as PyTorch answers it: an average to size 1 is the mean over the
# pooled axes whatever the input's rank (an empty one too: NaN), an output size 0 keeps the leading axes, and
# the checks come in each kernel's own order (the maximum's input first, the average's sizes first).
import torch
import torch.nn.functional as F


def t(*shape):
    return torch.arange(float(torch.zeros(shape).numel()), dtype=torch.float64).reshape(shape)


inputs = [t(3), t(0), t(2, 3), t(2, 0), t(1, 2, 3), t(0, 2, 3), t(1, 0, 3), t(1, 2, 0), t(1, 2, 3, 3), t(1, 2, 0, 3),
          t(1, 2, 3, 3, 3), t(1, 1, 2, 3, 3, 3)]
for d in (1, 2, 3):
    for kind in ("avg", "max"):
        pool = getattr(F, f"adaptive_{kind}_pool{d}d")
        for x in inputs:
            for size in (1, 2, 0, [2] * (d + 1), [1] * d):
                try:
                    out = pool(x.requires_grad_(), size)
                    out = out[0] if isinstance(out, tuple) else out
                    said = f"{list(out.shape)} {out.grad_fn.name()} {out.sum().item()}"
                except Exception as problem:
                    said = f"{type(problem).__name__}: {problem}"
                print(f"adaptive_{kind}_pool{d}d", list(x.shape), size, said)
x = t(2, 3, 4).requires_grad_()
F.adaptive_avg_pool2d(x, 1).sum().backward()
print(x.grad)
