# PyTorch 2.13 docs, torch.nn.TransformerDecoder: its docstring's example (torch/nn/modules/transformer.py), as written,
# as a script: each expression whose value the docstring shows printed, the doctest directives cut, and the imports it
# assumes (torch, torch.nn as nn) and torch.manual_seed(0) (its draws are unseeded) added.
# (It prints nothing: it builds six copies of the layer and runs them, in training mode with the default dropout, on the
# docstring's shapes.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/modules/transformer.py
import torch
import torch.nn as nn
torch.manual_seed(0)
decoder_layer = nn.TransformerDecoderLayer(d_model=512, nhead=8)
transformer_decoder = nn.TransformerDecoder(decoder_layer, num_layers=6)
memory = torch.rand(10, 32, 512)
tgt = torch.rand(20, 32, 512)
out = transformer_decoder(tgt, memory)
