# torch.norm / linalg.vector_norm of float32 over dims that are not the last ones (p=2: each square rounded, then
# added in memory order), and p=1 over any dims (added in memory order), bit for bit
import torch
torch.manual_seed(0)
for shape in [(7, 5, 3), (9, 11), (33, 4, 5), (6, 40), (2, 300)]:
    x = torch.randn(*shape) * 3
    for dim in [0, 1, (0, 1), None, (0, -1)]:
        if isinstance(dim, tuple) and max(d % len(shape) for d in dim) >= len(shape):
            continue
        print(shape, dim, torch.norm(x, dim=dim).flatten().tolist(), x.norm(p=1, dim=dim).flatten().tolist(),
              torch.linalg.vector_norm(x, 1).item(), torch.linalg.vector_norm(x, 2, dim=dim, keepdim=True).flatten().tolist())
