# cross_entropy's label_smoothing as PyTorch takes it: none where it is not above 0 (-1, -0.5, nan), above 1 its
# RuntimeError (its number as C++ prints it); ignore_index of a class-probabilities target: refused from 0 on
import torch
import torch.nn.functional as F
x = torch.linspace(-1, 1, 6, dtype=torch.double).reshape(2, 3).requires_grad_()
p = torch.full((2, 3), 1 / 3, dtype=torch.double)
t = torch.tensor([0, 2])
for ii in (-1, -100, 0, 5):
    try:
        print(ii, F.cross_entropy(x, p, ignore_index=ii))
    except Exception as e:
        print(ii, type(e).__name__, e)
for ls in (2, 1.25, 1e-7 + 1, float('nan'), float('inf'), -1, -0.5, 1, 0.5):
    for target in (t, p, torch.tensor([[0, 1], [2, 2]])):
        try:
            l = F.cross_entropy(x if target.dtype != torch.long or target.dim() < 2 else x.reshape(2, 3, 1).expand(2, 3, 2), target, label_smoothing=ls)
            print(ls, l)
        except Exception as e:
            print(ls, type(e).__name__, e)
try:
    F.cross_entropy(x, p, label_smoothing=1.5, ignore_index=3)
except Exception as e:
    print(type(e).__name__, e)
print(torch.nn.CrossEntropyLoss(label_smoothing=-0.5)(x, t))
