# Products' shapes refused as PyTorch refuses them, in its words: einsum's subscripts against the operands' dims
# and sizes, tensordot's dims (a number, then the pairs as given: "contracted dimensions need to match"), linalg.cross
# (the dims' count, then length 3 along dim, before broadcasting), linalg.vecdot (two vectors as vdot, a number's
# one dim).
import torch


def t(*s):
    return torch.zeros(s, dtype=torch.float64)


def say(name, thunk):
    try:
        out = thunk()
        r = "ok " + str(list(out.shape))
    except Exception as e:
        r = type(e).__name__ + ": " + str(e).splitlines()[0]
    print(name, r)


S = [(), (0,), (3,), (2,), (0, 3), (3, 0), (2, 3), (3, 3), (3, 2), (2, 3, 3), (1, 3)]
for s in S:
    for u in S:
        a, b = t(*s), t(*u)
        tag = f"{list(s)} {list(u)}"
        if (1, 3) in (s, u):  # (PyTorch broadcasts a size of 1 in a product: gradcli says it does not, exit 2)
            say(f"cross {tag}", lambda: torch.linalg.cross(a, b))
            say(f"vecdot {tag}", lambda: torch.linalg.vecdot(a, b))
            continue
        say(f"einsum ij,jk {tag}", lambda: torch.einsum("ij,jk->ik", a, b))
        say(f"einsum i,i {tag}", lambda: torch.einsum("i,i->", a, b))
        for dims in (0, 1, 2, -1, ([1], [0]), ([0], [0]), ([1], [1]), ([0, 1], [1, 0]), ([5], [0])):
            say(f"tensordot {dims} {tag}", lambda: torch.tensordot(a, b, dims=dims))
        say(f"cross {tag}", lambda: torch.linalg.cross(a, b))
        say(f"cross dim0 {tag}", lambda: torch.linalg.cross(a, b, dim=0))
        say(f"vecdot {tag}", lambda: torch.linalg.vecdot(a, b))
        say(f"vecdot dim0 {tag}", lambda: torch.linalg.vecdot(a, b, dim=0))
