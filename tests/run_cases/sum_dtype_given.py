# A sum, cumsum or product given dtype= is in that dtype, int32 too (a sum of int32 or bools without it is int64).
import torch
b = torch.tensor([1, 2, 3], dtype=torch.int32)
print(b.sum(dtype=torch.int32), torch.cumsum(b, 0, dtype=torch.int32), b.prod(dtype=torch.float64), torch.tensor([True, True]).sum(dtype=torch.int32))
print(b.sum(), torch.tensor([True, True]).sum())
