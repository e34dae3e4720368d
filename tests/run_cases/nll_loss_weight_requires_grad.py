# nll_loss / cross_entropy of class indices with a weight that requires grad: PyTorch's nll_loss_forward and
# nll_loss2d_forward refuse it (grad mode on), before their other checks; probabilities (no nll_loss) take it
import torch
import torch.nn.functional as F
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.tensor([[[1., 2], [3, 1]], [[4, 5], [6, 2]]], dtype=torch.double, requires_grad=True)
t = torch.tensor([[0, 1], [1, 0]])
w = torch.tensor([1., 2], dtype=torch.double, requires_grad=True)
attempt(lambda: F.cross_entropy(x, t, weight=w))
attempt(lambda: F.cross_entropy(x, t, weight=w, label_smoothing=0.2))
attempt(lambda: F.cross_entropy(x[0], t[0], weight=w))
attempt(lambda: F.nll_loss(x[0], t[0], weight=w))
attempt(lambda: F.cross_entropy(x[0], t[0], weight=w, label_smoothing=0.2))
attempt(lambda: F.cross_entropy(x, torch.softmax(x.detach(), 1), weight=w))
attempt(lambda: F.cross_entropy(x.reshape(2, 2, 1, 2), t.reshape(2, 1, 2), weight=w))
with torch.no_grad():
    attempt(lambda: F.cross_entropy(x, t, weight=w))
attempt(lambda: F.cross_entropy(x[0], torch.tensor([0, 5]), weight=w))
attempt(lambda: F.cross_entropy(x[0], t[0], weight=w.detach()))
attempt(lambda: torch.nn.CrossEntropyLoss(weight=w)(x, t))
attempt(lambda: torch.nn.NLLLoss(weight=w)(x[0], t[0]))
