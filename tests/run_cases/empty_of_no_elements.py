# torch.empty / torch.Tensor(sizes) of no elements has no leftover values to read: it prints tensor([]) as PyTorch
# does (was exit 2, "read before they are written"). Found by fuzz/programs.py --family printing.
import torch
e = torch.empty(0)
print(e, torch.empty(2, 0, dtype=torch.float64), torch.empty((0, 3), dtype=torch.int64), torch.Tensor(0, 2))
print(e.shape, e.sum(), torch.cat([e, torch.ones(2)]))
