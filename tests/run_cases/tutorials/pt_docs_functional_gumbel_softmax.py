# PyTorch 2.13 docs, torch.nn.functional.gumbel_softmax: its docstring's examples (torch/nn/functional.py) in order, as written, as a script:
# the doctest directives are cut, and the imports it
# assumes (torch, torch.nn.functional as F) and torch.manual_seed(0) (its inputs are unseeded) are added.
# (It prints nothing.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn.functional as F
torch.manual_seed(0)

logits = torch.randn(20, 32)
F.gumbel_softmax(logits, tau=1, hard=False)
F.gumbel_softmax(logits, tau=1, hard=True)
