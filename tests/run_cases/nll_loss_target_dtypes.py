# nll_loss / cross_entropy class indices of other dtypes than int64: PyTorch's words after its shape checks (int32,
# int16, bool: 'expected target dtype to be Long or Byte'; uint8 computes in nll_loss, nll_loss2d takes int64
# alone); a target of another batch size: its ValueError
import torch
import torch.nn.functional as F
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.linspace(-1, 1, 24, dtype=torch.double).reshape(2, 3, 4).requires_grad_()
t = torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])
for target in (t, t.int(), t.to(torch.uint8), t.short(), t.bool()):
    attempt(lambda: F.cross_entropy(x, target))
    attempt(lambda: F.nll_loss(x[0].T, target[0]))
    attempt(lambda: F.cross_entropy(x[0].T, target[0], label_smoothing=0.1))
    attempt(lambda: F.cross_entropy(x.reshape(2, 3, 2, 2), target.reshape(2, 2, 2), reduction="none"))
    attempt(lambda: F.nll_loss(x[0].T, target[0, :3]))
    attempt(lambda: F.nll_loss(x[:, :, 0], target[:, 0], weight=torch.ones(3, dtype=torch.double)))
