# nn.init.trunc_normal_, orthogonal_, dirac_ and sparse_ (their docstrings' calls, and the ways tutorials use them:
# a ViT's std=0.02, an RNN's orthogonal weight, a conv that passes its input through): seeded draws as PyTorch 2.13
# makes them (trunc_normal_ redraws whole tensors for the elements outside [a, b]; orthogonal_ is the Q of a
# normal draw's QR with R's diagonal's signs), and PyTorch's ValueErrors for the wrong ranks.
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(3, 5)
print(nn.init.trunc_normal_(w) is w, w)
w = torch.empty(40, 7)
nn.init.trunc_normal_(w, std=0.02)
print(w[:3], w.abs().max() <= 0.04)
w = torch.empty(30)
print(nn.init.trunc_normal_(w, mean=0.5, std=1.0, a=-1.0, b=1.5))
w = torch.empty(3, 5)
print(nn.init.orthogonal_(w))
w = torch.empty(6, 4)
nn.init.orthogonal_(w, gain=2.0)
print(w)
w = torch.empty(4, 2, 3)
print(nn.init.orthogonal_(w))
w = torch.empty(3, 16, 5, 5)
nn.init.dirac_(w)
print(w.sum(), w[1, 1])
w = torch.empty(4, 2, 3)
print(nn.init.dirac_(w, 2))
w = torch.empty(6, 5)
print(nn.init.sparse_(w, sparsity=0.5))
w = torch.empty(3, 5)
print(nn.init.sparse_(w, 0.1, std=1.0))
conv = nn.Conv1d(3, 3, 3, padding=1)
nn.init.dirac_(conv.weight)
nn.init.zeros_(conv.bias)
x = torch.randn(1, 3, 5)
print(torch.equal(conv(x), x), conv.weight.requires_grad)
for call in (lambda: nn.init.orthogonal_(torch.empty(3)), lambda: nn.init.dirac_(torch.empty(3, 3)),
             lambda: nn.init.dirac_(torch.empty(3, 2, 3), 2), lambda: nn.init.sparse_(torch.empty(2, 2, 2), 0.5)):
    try:
        call()
    except ValueError as e:
        print('ValueError:', e)
