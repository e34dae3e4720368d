# max_unpool1d/2d/3d of every rank, empty axes and indices of another shape, as PyTorch answers: F.max_unpool's
# Python reads the sizes (IndexError), then the kernel checks the rank, the indices' shape, the non-batch axes (1-D is
# max_unpool2d of the input unsqueezed at -1); a batch of none unpools to none (it raised NumPy's reshape error).
import torch
import torch.nn.functional as F


def t(*s):
    return torch.zeros(s, dtype=torch.float64)


for f, d in ((F.max_unpool1d, 1), (F.max_unpool2d, 2), (F.max_unpool3d, 3)):
    for s in [(3,), (0,), (2, 3), (0, 3), (2, 0), (0, 2, 3), (1, 0, 3), (1, 2, 0), (0, 2, 3, 3), (1, 2, 0, 3),
              (1, 0, 3, 3), (0, 1, 2, 2, 2), (1, 1, 0, 2, 2), (1, 2, 3, 3, 3)]:
        for wrong in (False, True):
            idx = torch.zeros(s + (1,) if wrong else s, dtype=torch.int64)
            try:
                out = f(t(*s), idx, 2)
                r = "ok " + str(list(out.shape))
            except Exception as e:
                r = type(e).__name__ + ": " + str(e).splitlines()[0]
            print(d, list(s), wrong, r)
