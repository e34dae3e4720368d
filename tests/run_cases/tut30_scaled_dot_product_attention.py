# F.scaled_dot_product_attention of 4-D inputs as PyTorch's CPU build runs it: its fused kernel's one node
# (ScaledDotProductFlashAttentionForCpuBackward0 over query, key and value) and its gradients; is_causal, a bool
# mask, a float mask, scale=; 3-D inputs without a graph; nn.Transformer.generate_square_subsequent_mask.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
q = torch.randn(1, 2, 3, 4, dtype=torch.float64, requires_grad=True)
k = torch.randn(1, 2, 3, 4, dtype=torch.float64, requires_grad=True)
v = torch.randn(1, 2, 3, 4, dtype=torch.float64)
a = F.scaled_dot_product_attention(q, k, v)
print(a)
print(type(a.grad_fn).__name__, [type(f).__name__ if f is not None else None for f, _ in a.grad_fn.next_functions])
(a * torch.linspace(-1, 1, 24, dtype=torch.float64).reshape(a.shape)).sum().backward()
print(q.grad)
print(k.grad)
c = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(c)
mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64)
print(mask)
print(torch.allclose(c, F.scaled_dot_product_attention(q, k, v, attn_mask=mask)))
keep = torch.tensor([[True, False, True]])
print(F.scaled_dot_product_attention(q.detach(), k.detach(), v, attn_mask=keep, scale=0.3))
x = torch.randn(2, 3, 4, dtype=torch.float64)
print(F.scaled_dot_product_attention(x, x, x))
print(nn.Transformer.generate_square_subsequent_mask(4))
