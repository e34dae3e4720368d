# PyTorch 2.13 docs, torch.nn.TransformerDecoderLayer: its docstring's examples (torch/nn/modules/transformer.py) in
# order, as written, as a script: each expression whose value the docstring shows printed, the doctest directives
# cut, and the imports it assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# (It prints nothing: it builds the layer and runs it, in training mode with its default dropout, on the docstring's
# shapes.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/transformer.py
import torch
import torch.nn as nn
torch.manual_seed(0)
decoder_layer = nn.TransformerDecoderLayer(d_model=512, nhead=8)
memory = torch.rand(10, 32, 512)
tgt = torch.rand(20, 32, 512)
out = decoder_layer(tgt, memory)
decoder_layer = nn.TransformerDecoderLayer(
    d_model=512, nhead=8, batch_first=True
)
memory = torch.rand(32, 10, 512)
tgt = torch.rand(32, 20, 512)
out = decoder_layer(tgt, memory)
