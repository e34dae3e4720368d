# cross_entropy and nll_loss with ignored targets: an ignored target's loss is 0 in 'none' (not -0), every target
# ignored gives nan for 'mean' and 0 for 'sum' (gradients zeros); weights with ignore_index; (N, C) and (N, C, d1, ...)
import torch
import torch.nn.functional as F

x = torch.linspace(-1, 1, 24, dtype=torch.double).reshape(2, 3, 4).requires_grad_()
every = torch.full((2, 4), -100)
for reduction in ("none", "mean", "sum"):
    loss = F.cross_entropy(x, every, reduction=reduction)
    print(loss)
    loss.sum().backward()
    print(x.grad)
    x.grad = None
print(F.nll_loss(x, every, reduction="none"), F.nll_loss(x[0], every[0, :3], reduction="none"))
print(F.nll_loss(x.reshape(2, 3, 2, 2), every.reshape(2, 2, 2), reduction="none"))
print(F.cross_entropy(x.float(), every, reduction="none"))
w = torch.tensor([1.0, 2.0, 0.5], dtype=torch.double)
t = torch.tensor([[0, 1, 2, 1], [2, 1, 0, 1]])
for reduction in ("none", "mean", "sum"):
    loss = F.cross_entropy(x, t, weight=w, ignore_index=1, reduction=reduction)
    print(loss)
    loss.sum().backward()
    print(x.grad)
    x.grad = None
    print(F.cross_entropy(x, t, weight=w, ignore_index=1, label_smoothing=0.25, reduction=reduction))
zero = torch.zeros(2, 3, dtype=torch.double)
print(F.nll_loss(zero, torch.tensor([0, -100]), reduction="none"), F.nll_loss(-zero, torch.tensor([1, -100]), reduction="none"))
