import torch
import torch.nn.functional as F


def t(*shape):
    return torch.zeros(shape, dtype=torch.float64)


inputs = [t(3), t(0), t(2, 3), t(0, 3), t(2, 0), t(1, 2, 3), t(0, 2, 3), t(1, 0, 3), t(1, 2, 0), t(1, 2, 3, 3),
          t(0, 2, 3, 3), t(1, 2, 0, 3), t(1, 2, 3, 3, 3), t(0, 2, 3, 3, 3), t(1, 1, 2, 3, 3, 3)]
# Pooling of wrong ranks, empty axes and bad settings, each refused as PyTorch refuses it: its checks run in
# each kernel's order and words (avg_pool1d and max_pool1d_with_indices: checkDimRange and check1d, then the
# 2-D pooling of the input unsqueezed; max_pool1d's values: check_max_pool1d; the 2-D and 3-D kernels: their
# settings' counts, the rank, pooling_output_shape along each axis, then pool2d/pool3d_shape_check).
for d in (1, 2, 3):
    for kind in ("avg", "max", "maxi"):
        pool = getattr(F, f"{kind[:3]}_pool{d}d")
        for x in inputs:
            for grad in (False, True):
                for given in [{"kernel_size": 2}, {"kernel_size": 4}, {"kernel_size": 2, "stride": 0},
                              {"kernel_size": 2, "padding": 2}, {"kernel_size": 0}, {"kernel_size": 2, "padding": -1},
                              {"kernel_size": [2] * (d + 1)}, {"kernel_size": 2, "stride": [1] * (d + 1)},
                              {"kernel_size": 2, "padding": 2, "stride": 0}, {"kernel_size": 3, "padding": 1}]:
                    if kind == "maxi":
                        given = dict(given, return_indices=True)
                    try:
                        out = pool(x.clone().requires_grad_(grad), **given)
                        out = out[0] if isinstance(out, tuple) else out
                        said = f"ok {list(out.shape)}"
                    except Exception as problem:
                        said = f"{type(problem).__name__}: {str(problem).splitlines()[0] if str(problem) else ''}"
                    print((f"{kind}_pool{d}d", list(x.shape), grad, str(given), said))
