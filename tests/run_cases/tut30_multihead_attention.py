# nn.MultiheadAttention as PyTorch 2.13 draws and runs it: out_proj's Linear drawn first, then xavier_uniform_ of the
# packed in-projection, the biases zero; self-attention (one tensor), cross-attention (key is value), separate kdim and
# vdim weights; batch_first both ways, unbatched input; key_padding_mask, bool and float attn_mask; need_weights with
# the heads' weights averaged or not; need_weights=False through scaled_dot_product_attention's fused CPU node; the
# graph PyTorch records (its node names) and the gradients; eval mode without grad (PyTorch's fast path: the same numbers).
# type(m.out_proj): the NonDynamicallyQuantizableLinear class of torch.nn.modules.linear.
import torch
import torch.nn as nn
import torch.nn.functional as F


def walk(f, depth=0):
    if f is None:
        return
    print(" " * depth + type(f).__name__)
    for n, _ in f.next_functions:
        walk(n, depth + 1)


torch.manual_seed(1)
m = nn.MultiheadAttention(4, 2, dtype=torch.float64)
print(m)
print([name for name, _ in m.named_parameters()])
print(m.in_proj_weight)
print(m.out_proj.weight, m.out_proj.bias)
x = torch.randn(3, 2, 4, dtype=torch.float64, requires_grad=True)
out, weights = m(x, x, x)
print(out)
print(weights)
walk(out.grad_fn)
(out * torch.arange(24.0, dtype=torch.float64).reshape(3, 2, 4)).sum().backward()
print(x.grad)
print(m.in_proj_weight.grad)
print(m.out_proj.bias.grad)

out, none = m(x, x, x, need_weights=False)
print(out, none)
walk(out.grad_fn)
m.zero_grad()
out.pow(2).sum().backward()
print(m.in_proj_bias.grad[:4], m.in_proj_bias.grad[8:])  # (the key part: 0 up to rounding)

# cross-attention, a key padding mask, a causal bool mask, a float mask, weights per head
b = nn.MultiheadAttention(6, 3, batch_first=True, dtype=torch.float64)
q = torch.randn(2, 4, 6, dtype=torch.float64)
memory = torch.randn(2, 5, 6, dtype=torch.float64)
pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
out, weights = b(q, memory, memory, key_padding_mask=pad)
print(out)
print(weights)
causal = torch.ones(4, 4, dtype=torch.bool).triu(1)
out, weights = b(q, q, q, attn_mask=causal, average_attn_weights=False)
print(weights.shape)
print(weights[1])
float_mask = torch.zeros(4, 4, dtype=torch.float64).masked_fill(causal, float("-inf"))
out2, _ = b(q, q, q, attn_mask=float_mask, need_weights=False)
print(torch.allclose(out, out2), out2[0])
single = torch.randn(4, 6, dtype=torch.float64)
out, weights = b(single, single, single)
print(out.shape, weights.shape)
print(out)

# separate key and value sizes
c = nn.MultiheadAttention(4, 2, kdim=3, vdim=5, dtype=torch.float64)
print([name for name, _ in c.named_parameters()])
out, weights = c(torch.randn(2, 1, 4, dtype=torch.float64), torch.randn(3, 1, 3, dtype=torch.float64),
                 torch.randn(3, 1, 5, dtype=torch.float64))
print(out)
print(weights)

b.eval()
with torch.no_grad():
    out, weights = b(q, q, q, key_padding_mask=torch.tensor([[False, False, True, True], [False] * 4]))
print(out)
print(weights)
print(type(m.out_proj), type(m.out_proj) == nn.Linear)
