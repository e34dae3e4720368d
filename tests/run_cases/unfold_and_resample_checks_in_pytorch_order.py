# F.unfold, F.fold, Tensor.unfold, F.interpolate and F.channel_shuffle of every rank, empty axes included, refused as
# PyTorch refuses them: F.unfold reads input.size(1) and size(2) before its check (IndexError for fewer than 3 dims,
# unless size(1) is 0), fold's message ends with its period, interpolate's kernels want non-batch axes that are not
# empty, channel_shuffle "> 2 dims". (Without requires_grad: PyTorch's autograd wrapper of im2col reads other sizes.)
import torch
import torch.nn.functional as F


def t(*s):
    return torch.zeros(s, dtype=torch.float64)


def say(name, thunk):
    try:
        out = thunk()
        r = "ok " + str(list(out.shape))
    except Exception as e:
        r = type(e).__name__ + ": " + str(e).splitlines()[0]
    print(name, r)


for s in [(), (0,), (3,), (0, 3), (3, 4), (2, 0), (1, 2, 3), (0, 2, 3), (1, 0, 3), (1, 2, 3, 3), (0, 2, 3, 3), (1, 2, 0, 3), (1, 2, 3, 3, 3)]:
    x = t(*s)
    say(f"F.unfold {list(s)}", lambda: F.unfold(x, 2))
    say(f"F.fold {list(s)}", lambda: F.fold(x, (3, 3), 2))
    for dim in (0, 1, -1, 2):
        say(f"x.unfold {list(s)} {dim}", lambda: x.unfold(dim, 2, 1))
    say(f"x.unfold size 0 {list(s)}", lambda: x.unfold(0, 0, 1))
    say(f"x.unfold step 0 {list(s)}", lambda: x.unfold(0, 1, 0))
    say(f"interpolate {list(s)}", lambda: F.interpolate(x, size=5))
    say(f"interpolate scale {list(s)}", lambda: F.interpolate(x, scale_factor=2.0))
    if len(s) == 4:  # (elsewhere PyTorch prints size= as written, a tuple here: gradcli prints a list)
        say(f"interpolate bilinear {list(s)}", lambda: F.interpolate(x, size=(4, 3), mode="bilinear"))
    say(f"upsample_nearest {list(s)}", lambda: F.upsample_nearest(x, size=5))
    say(f"channel_shuffle {list(s)}", lambda: F.channel_shuffle(x, 2))
