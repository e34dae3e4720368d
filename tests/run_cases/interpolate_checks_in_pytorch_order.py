# F.interpolate of every rank, empty sizes and bad settings, refused as PyTorch refuses them: its Python checks
# first (ValueError), then, with no kernel for the rank and mode, NotImplementedError; an empty size in the
# upsample kernel's words (D/H/W, "and" in 1-D only).
import torch
import torch.nn.functional as F


def t(*shape):
    return torch.zeros(shape, dtype=torch.float64)


inputs = [t(3), t(0), t(2, 3), t(0, 3), t(1, 2, 3), t(0, 2, 3), t(1, 2, 0), t(1, 2, 3, 3), t(1, 2, 0, 3),
          t(1, 2, 1, 0, 3), t(1, 2, 3, 3, 3), t(1, 1, 2, 3, 3, 3)]
calls = [("size 4", lambda v: F.interpolate(v, size=4)),
         ("scale 2", lambda v: F.interpolate(v, scale_factor=2)),
         ("scale 0.1", lambda v: F.interpolate(v, scale_factor=0.1)),
         ("size [4]", lambda v: F.interpolate(v, size=[4])),
         ("bilinear", lambda v: F.interpolate(v, size=4, mode="bilinear")),
         ("linear", lambda v: F.interpolate(v, size=4, mode="linear", align_corners=True)),
         ("area", lambda v: F.interpolate(v, size=4, mode="area")),
         ("nearest align_corners", lambda v: F.interpolate(v, size=4, align_corners=True)),
         ("upsample_nearest", lambda v: F.upsample_nearest(v, size=4)),
         ("upsample_bilinear", lambda v: F.upsample_bilinear(v, size=4))]
for x in inputs:
    for name, call in calls:
        try:
            out = call(x)
            said = f"ok {list(out.shape)}"
        except Exception as problem:
            said = f"{type(problem).__name__}: {problem}"
        print(name, list(x.shape), said)
