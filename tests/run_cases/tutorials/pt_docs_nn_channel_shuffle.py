# PyTorch 2.13 docs, torch.nn.ChannelShuffle: its docstring's examples (torch/nn/modules/channelshuffle.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it
# assumes (torch, torch.nn as nn) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/channelshuffle.py
import torch
import torch.nn as nn

channel_shuffle = nn.ChannelShuffle(2)
input = torch.arange(1, 17, dtype=torch.float32).view(1, 4, 2, 2)
print(input)
output = channel_shuffle(input)
print(output)
