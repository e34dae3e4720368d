import torch
import torch.nn.functional as F

# float64 norms and group_norm, every bit: the 2-norm over the last dims in PyTorch's kernel's 4 lanes (the elements
# left over fused in), over other dims and for other p each term added in memory order; group_norm's output fused,
# fma(x, scale, fma(-scale, mean, bias)), or (x - mean) * rstd where neither weight nor bias is given
torch.manual_seed(0)
x = torch.randn(3, 4, 37, dtype=torch.float64)
print(torch.linalg.vector_norm(x, dim=-1).tolist())
print(x.norm().item(), x.norm(p=1).item(), x.norm(dim=(0, 2)).tolist())
print(torch.linalg.vector_norm(x, ord=1, dim=1).tolist())
print(torch.linalg.vector_norm(x, ord=0.5, dim=(0, 1)).tolist())
print([x[0, 0, :n].norm().item() for n in range(1, 12)])
print(torch.norm(x, dim=(1, 2), keepdim=True).tolist())
w, b = torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
print(F.group_norm(x, 2).tolist())
print(F.group_norm(x, 2, w, b).tolist())
print(F.group_norm(x, 4, w).tolist())
print(F.group_norm(x, 1, bias=b).tolist())
y = torch.randn(5, 6, dtype=torch.float64)
print(F.group_norm(y, 3, torch.randn(6, dtype=torch.float64), torch.randn(6, dtype=torch.float64)).tolist())
print(F.group_norm(torch.randn(2, 4, 3, 5, dtype=torch.float64), 2).tolist())
