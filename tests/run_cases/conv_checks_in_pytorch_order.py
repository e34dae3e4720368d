# A convolution's wrong shapes and settings, each refused as PyTorch refuses it: its checks run in
# at::_convolution's order (weight rank, groups, settings expanded to the weight's rank, their signs, the
# ranks against each other, the weight's channels, the input's, the bias), then the kernel's (dilation 0,
# output padding). A weight of no out-channels was computed before instead of refused.
import torch
import torch.nn.functional as F


def t(*shape):
    return torch.zeros(shape, dtype=torch.float64)


for d in (1, 2, 3):
    for transposed in (False, True):
        name = f"conv_transpose{d}d" if transposed else f"conv{d}d"
        conv = getattr(F, name)
        x = t(1, 2, *([4] * d))
        weights = [t(0), t(2, 2), t(2, 2, *([2] * (d + 1))), t(0, 2, *([2] * d)), t(2, 1, *([2] * d)),
                   t(2, 2, *([2] * d)), t(4, 1, *([2] * d))]
        settings = [{}, {"dilation": 0}, {"dilation": -1}, {"groups": 0}, {"groups": 3}, {"stride": 0, "padding": -1},
                    {"stride": [1, 1, 1, 1]}, {"padding": -1, "dilation": 0}]
        if transposed:
            settings += [{"output_padding": 2}, {"output_padding": 1, "dilation": 2, "stride": 2},
                         {"output_padding": -1}]
        for weight in weights:
            for given in settings:
                for bias in (None, t(1), t(2)):
                    for shown in (x, x[0]):
                        try:
                            out = conv(shown, weight, bias, **given)
                            said = f"ok {list(out.shape)}"
                        except RuntimeError as problem:
                            said = f"RuntimeError: {problem}"
                        print(name, list(shown.shape), list(weight.shape), given, None if bias is None else 1, said)
