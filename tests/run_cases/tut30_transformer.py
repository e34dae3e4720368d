# nn.Transformer, nn.TransformerDecoderLayer and nn.TransformerDecoder as PyTorch 2.13 draws and runs them: the encoder's and
# decoder's copies of their layers with final LayerNorms, every parameter of more than one dim drawn again by
# xavier_uniform_ in parameters()' order; the repr and the parameter count; a causal tgt_mask from the model's
# generate_square_subsequent_mask; the output and the gradients; a pre-norm batch_first decoder layer in eval mode with a
# memory key padding mask; a decoder of its own; later draws continue the stream.
import torch
import torch.nn as nn
torch.manual_seed(7)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=16, dropout=0.0, dtype=torch.float64)
print(model)
print(sum(p.numel() for p in model.parameters()))
print(model.decoder.layers[1].multihead_attn.in_proj_weight[:2])
src = torch.randn(5, 2, 8, dtype=torch.float64)
tgt = torch.randn(4, 2, 8, dtype=torch.float64)
mask = model.generate_square_subsequent_mask(4, dtype=torch.float64)
out = model(src, tgt, tgt_mask=mask)
print(out)
(out * torch.linspace(-1, 1, 64, dtype=torch.float64).reshape(4, 2, 8)).sum().backward()
print(model.encoder.layers[0].linear1.weight.grad[:2])
print(model.decoder.norm.weight.grad)
layer = nn.TransformerDecoderLayer(8, 2, 16, norm_first=True, batch_first=True, dtype=torch.float64)
layer.eval()
print(layer(tgt.transpose(0, 1), src.transpose(0, 1), memory_key_padding_mask=torch.tensor([[False] * 4 + [True], [False] * 5])))
dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dtype=torch.float64), 2)
print(dec(tgt, src, tgt_mask=mask))
print(torch.rand(2))
