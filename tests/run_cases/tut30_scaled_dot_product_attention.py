# F.scaled_dot_product_attention of 4-D inputs as PyTorch's CPU build runs it: its fused kernel's one node
# (ScaledDotProductFlashAttentionForCpuBackward0 over query, key and value) and its gradients; is_causal, a bool
# mask, a float mask, scale=; ATen's math path where the kernel is not taken (3-D inputs, dropout_p > 0: q and k^T
# times sqrt(scale), matmul, _safe_softmax's node, F.dropout's draws), its graph and gradients;
# nn.Transformer.generate_square_subsequent_mask.
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


def walk(f, depth=0):
    if f is None:
        return
    print(" " * depth + type(f).__name__)
    for n, _ in f.next_functions:
        walk(n, depth + 1)


torch.manual_seed(4)
v.requires_grad_()
d = F.scaled_dot_product_attention(q, k.detach(), v, dropout_p=0.5)
print(d)
walk(d.grad_fn)
q.grad = None
d.sum().backward()
print(q.grad, v.grad)
print(torch.rand(3))
x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
o = F.scaled_dot_product_attention(x, x, x, attn_mask=torch.tensor([[True, False, False]] * 3), scale=0.7)
print(o)
o.pow(2).sum().backward()
print(x.grad)
