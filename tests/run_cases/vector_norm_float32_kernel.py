# torch.norm / linalg.vector_norm (p=2) of float32 over the last dims, in PyTorch's kernel's order: 8 lanes, their
# left fold, the elements left over (four of them vectorized, the rest fused multiply-adds), bit for bit
import torch
torch.manual_seed(0)
for n in [1, 3, 4, 5, 7, 8, 12, 13, 20, 31, 200, 257, 1000]:
    x = torch.randn(n) * 3
    print(n, torch.norm(x).item(), x.norm().item(), torch.linalg.vector_norm(x).item(), x.reshape(1, n).norm(dim=1).tolist(),
          torch.randn(3, n).norm(dim=-1).tolist(), torch.randn(2, 2, n).norm(dim=(1, 2), keepdim=True).tolist())
