# cross_entropy reads its target by shape, as PyTorch does: a target of the input's shape is class
# probabilities (a float one; an integer one PyTorch's error), any other shape class indices (a float one
# nll_loss's dtype error); the modules alike
import torch
import torch.nn as nn
import torch.nn.functional as F
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
x = torch.linspace(-1, 1, 15, dtype=torch.double).reshape(3, 5).requires_grad_()
probs = torch.linspace(0, 1, 15, dtype=torch.double).reshape(3, 5)
attempt(lambda: F.cross_entropy(x, probs))
attempt(lambda: F.cross_entropy(x, torch.tensor([0.0, 1.0, 2.0], dtype=torch.double)))
attempt(lambda: F.cross_entropy(x, torch.tensor([0.0, 1.0, 2.0]), label_smoothing=0.1))
attempt(lambda: F.cross_entropy(x, probs[:, :4]))
attempt(lambda: F.cross_entropy(x, torch.ones(3, 5, dtype=torch.long)))
attempt(lambda: F.cross_entropy(x, torch.ones(3, 5, dtype=torch.bool), label_smoothing=0.2))
attempt(lambda: F.cross_entropy(x[0], probs[0]))
attempt(lambda: F.cross_entropy(x[0], torch.tensor(2.0, dtype=torch.double)))
attempt(lambda: nn.CrossEntropyLoss()(x, probs))
attempt(lambda: nn.CrossEntropyLoss()(x, torch.tensor([0.0, 1.0, 2.0], dtype=torch.double)))
attempt(lambda: nn.CrossEntropyLoss(reduction="sum")(x, torch.ones(3, 5, dtype=torch.long)))
loss = F.cross_entropy(x, probs)
loss.backward()
print(loss.grad_fn, x.grad)
