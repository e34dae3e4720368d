# Shape checks of glu, rms_norm, quantile/nanquantile, permute, narrow, layer_norm's weight and bias, prelu and
# diagonal_scatter at every rank, empty axes included, in PyTorch 2.13's words, order and exception types.
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


for s in [(), (0,), (3,), (0, 3), (2, 3), (3, 2), (2, 4, 3), (1, 0, 2)]:
    x = t(*s)
    tag = str(list(s))
    say(f"glu {tag}", lambda: F.glu(x))
    say(f"glu dim0 {tag}", lambda: F.glu(x, 0))
    say(f"rms_norm {tag}", lambda: F.rms_norm(x, (3,)))
    say(f"rms_norm 2 {tag}", lambda: F.rms_norm(x, (2, 3)))
    say(f"nanquantile {tag}", lambda: torch.nanquantile(x, 0.5))
    say(f"quantile {tag}", lambda: torch.quantile(x, 0.5))
    say(f"permute {tag}", lambda: x.permute(1, 0))
    say(f"narrow_copy neg {tag}", lambda: torch.narrow_copy(x, -3, 0, 1))
    say(f"narrow {tag}", lambda: torch.narrow(x, 1, 1, 2))
    for w in [(), (0,), (3,), (0, 3), (2, 3), (4,), (1,)]:
        wt = t(*w)
        tag2 = f"{tag} {list(w)}"
        say(f"layer_norm w {tag2}", lambda: F.layer_norm(x, [3], wt))
        say(f"layer_norm b {tag2}", lambda: F.layer_norm(x, [3], None, wt))
        say(f"prelu {tag2}", lambda: F.prelu(x, wt))
        say(f"diagonal_scatter {tag2}", lambda: torch.diagonal_scatter(x, wt))
for x in [t(2, 4, 3), t(3, 2), t(2, 4)]:  # (group_norm's bias message shows the weight's shape, as PyTorch's does)
    for w, b in [(t(4), t(0)), (t(4), t(0, 3)), (t(0), t(4)), (t(3), t(0)), (None, t(0)), (t(2), None), (t(4), t(2))]:
        say(f"group_norm {list(x.shape)} {None if w is None else list(w.shape)} {None if b is None else list(b.shape)}",
            lambda: F.group_norm(x, 2, w, b))

for s, d in [((3,), 1), ((0,), 1), ((2, 3), 2), ((2, 3), -3), ((2, 3), 1)]:  # (narrow_copy's own check of dim past the last)
    say(f"narrow_copy {list(s)} {d}", lambda: torch.narrow_copy(t(*s), d, 0, 1))
    say(f"narrow {list(s)} {d}", lambda: torch.narrow(t(*s), d, 0, 1))
