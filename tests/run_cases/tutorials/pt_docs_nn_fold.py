# PyTorch 2.13 docs, torch.nn.Fold: its docstring's example (torch/nn/modules/fold.py), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut (the sketch with `...`
# placeholders, marked +SKIP, left out), and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0)
# (its draws are unseeded) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/fold.py
import torch
import torch.nn as nn
torch.manual_seed(0)
fold = nn.Fold(output_size=(4, 5), kernel_size=(2, 2))
input = torch.randn(1, 3 * 2 * 2, 12)
output = fold(input)
print(output.size())
