# The index family refused as PyTorch refuses it, each op in its own order, words and exception: gather,
# index_select (and F.embedding, an index_select of the weight's rows), take, take_along_dim (its indices taken
# modulo the size of dim), index_copy, index_add, index_reduce, index_fill (an empty input viewed past its storage),
# and x[index] on an empty dim, over inputs of every rank, empty ones included, and indices out of range.
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


shapes = [(), (0,), (3,), (0, 3), (3, 0), (3, 2), (2, 3, 2)]
indices = [[], [1], [0, 2], [1, 3, 1], [-1], [[1, 0]], [[0], [2]], 1]
for s in shapes:
    for i in indices:
        idx = torch.tensor(i, dtype=torch.int64)
        for dim in (0, 1, -1):
            x = t(*s)
            tag = f"{list(s)} {i} {dim}"
            say(f"gather {tag}", lambda: torch.gather(x, dim, idx))
            say(f"index_select {tag}", lambda: torch.index_select(x, dim, idx))
            say(f"take_along_dim {tag}", lambda: torch.take_along_dim(x, idx, dim=dim))
            for src in [t(), t(0), t(1), t(2), t(1, 2), t(0, 2), t(1, 3), t(1, 3, 2)]:
                tag2 = f"{tag} src{list(src.shape)}"
                say(f"index_copy {tag2}", lambda: torch.index_copy(x, dim, idx, src))
                say(f"index_add {tag2}", lambda: torch.index_add(x, dim, idx, src))
                say(f"index_reduce {tag2}", lambda: torch.index_reduce(x, dim, idx, src, "prod"))
            say(f"index_fill {tag}", lambda: torch.index_fill(x, dim, idx, 1.5))
            say(f"index_fill tensor {tag}", lambda: torch.index_fill(x, dim, idx, torch.tensor(1.5, dtype=torch.float64)))
        say(f"take {list(s)} {i}", lambda: torch.take(t(*s), idx))
        say(f"embedding {list(s)} {i}", lambda: F.embedding(idx, t(*s)))
        if s != (3, 0):  # (PyTorch reads no index where nothing is picked)
            say(f"getitem {list(s)} {i}", lambda: t(*s)[idx])

say("index_fill value of 1 dim", lambda: torch.index_fill(t(3, 2), 5, torch.tensor([5]), t(2)))
say("index_fill float32 empty", lambda: torch.index_fill(torch.zeros(0, 2), 0, torch.tensor([1]), 1.0))
x = torch.tensor([10.0, 20.0, 30.0], dtype=torch.float64, requires_grad=True)
y = torch.take_along_dim(x, torch.tensor([3, 4, -1, -4, 7]), 0)
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
a = torch.zeros(0, 2, dtype=torch.float64, requires_grad=True)
b = torch.ones(1, 2, dtype=torch.float64, requires_grad=True)
out = torch.index_add(a, 0, torch.tensor([1]), b)
print(out.shape)
say("index_add backward of an empty input", lambda: out.sum().backward() or out)
for key in ([1], torch.tensor([1]), torch.tensor(1), 1):
    say(f"empty rows [{key}]", lambda: t(0, 3)[key])
    say(f"empty columns [:, {key}]", lambda: t(3, 0)[:, key])
