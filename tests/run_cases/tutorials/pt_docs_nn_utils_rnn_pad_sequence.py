# PyTorch 2.13 docs, torch.nn.utils.rnn.pad_sequence: its docstring's example (torch/nn/utils/rnn.py), as written, as a
# script: each expression whose value the docstring shows printed, the doctest directives cut, and the import it
# assumes (torch) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/utils/rnn.py
import torch
from torch.nn.utils.rnn import pad_sequence
a = torch.ones(25, 300)
b = torch.ones(22, 300)
c = torch.ones(15, 300)
print(pad_sequence([a, b, c]).size())
