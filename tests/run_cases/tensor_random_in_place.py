# t.random_(to), t.random_(from, to) and t.random_() as PyTorch draws them from its generator (a 32-bit draw
# modulo the range, a 64-bit one where the range is 2**32 or more; random_() without bounds: every integer the
# dtype holds exactly), in place, on float and integer tensors, and PyTorch's error for an empty range.
import torch
torch.manual_seed(0)
print(torch.empty(3, dtype=torch.long).random_(5))
print(torch.empty(2, 5).random_(2))
print(torch.empty(4, 4, dtype=torch.long).random_(0, 4))
print(torch.empty(5, dtype=torch.float64).random_(-3, 3))
print(torch.zeros(3, dtype=torch.long).random_(0, 2**40))
print(torch.empty(6).random_())
print(torch.empty(3, dtype=torch.float64).random_())
print(torch.empty(3, dtype=torch.long).random_())
print(torch.empty(4, dtype=torch.int32).random_())
t = torch.zeros(2, 3)
u = t.random_(10)
print(u is t, t)
print(torch.randn(3))
try:
    torch.empty(2).random_(3, 3)
except RuntimeError as e:
    print(e)
print(torch.empty(4).random_(0, 1), torch.empty(3).random_(1))
