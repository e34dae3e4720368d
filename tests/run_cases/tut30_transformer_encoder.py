# nn.TransformerEncoderLayer and nn.TransformerEncoder as PyTorch 2.13 draws and runs them: post-norm and pre-norm
# (norm_first), relu and gelu, batch_first both ways, dropout=0.0 in training, the default dropout in eval mode and in
# training (the attention's dropout drawn first, then dropout1, dropout, dropout2),
# a causal mask from generate_square_subsequent_mask, a key padding mask, the encoder's copies of its layer, a final
# norm; the output, its grad_fn and the gradients of the parameters; PyTorch's nested-tensor path in eval mode (zeros where
# the key padding mask pads).
import torch
import torch.nn as nn

torch.manual_seed(2)
layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0, dtype=torch.float64)
print(layer)
src = torch.randn(3, 2, 4, dtype=torch.float64)
out = layer(src)
print(out)
weights = torch.linspace(-1, 1, 24, dtype=torch.float64).reshape(3, 2, 4)
(out * weights).sum().backward()
print(layer.linear1.weight.grad)
print(layer.self_attn.in_proj_weight.grad)
print(layer.norm1.bias.grad)

pre = nn.TransformerEncoderLayer(4, 2, 8, activation="gelu", norm_first=True, batch_first=True, dtype=torch.float64)
pre.eval()
x = torch.randn(2, 3, 4, dtype=torch.float64)
print(pre(x))
with torch.no_grad():
    print(pre(x, src_key_padding_mask=torch.tensor([[False, False, True], [False, False, False]])))

encoder = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(4, dtype=torch.float64))
print(encoder)
print(torch.equal(encoder.layers[0].linear1.weight, encoder.layers[1].linear1.weight))
mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64)
y = encoder(src, mask=mask)
print(y)
print(y.grad_fn.name())
(y * weights).sum().backward()
print(encoder.layers[1].linear2.bias.grad)
print(encoder.norm.weight.grad)
encoder.eval()
with torch.no_grad():
    print(encoder(src, mask=mask, is_causal=True))

torch.manual_seed(5)
noisy = nn.TransformerEncoderLayer(4, 2, 8, dtype=torch.float64)
z = noisy(src)
print(z)
(z * weights).sum().backward()
print(noisy.self_attn.out_proj.weight.grad)
print(torch.rand(2))

# batch_first in eval mode without grad, a left-aligned key padding mask: PyTorch's nested-tensor path, whose padded
# places come out zero (then the final norm); a mask that is not left aligned takes the ordinary path
torch.manual_seed(6)
first = nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, dtype=torch.float64), 2,
                              norm=nn.LayerNorm(4, dtype=torch.float64))
first.eval()
x = torch.randn(2, 3, 4, dtype=torch.float64)
with torch.no_grad():
    print(first(x, src_key_padding_mask=torch.tensor([[False, False, True], [False, False, False]])))
    print(first(x, src_key_padding_mask=torch.tensor([[False, True, False], [False, False, False]])))
print(first(x, src_key_padding_mask=torch.tensor([[False, False, True], [False, False, False]])))
