# model.double() / .float() / .to(dtype) as PyTorch converts a module: the same Parameters in the new dtype (new
# leaves), their .grad with them, floating buffers too (num_batches_tracked stays int64); an integer dtype is its
# TypeError. Was exit 2; found by fuzz/programs.py --family nn. Float64 after the conversion (float32 values printed
# to 4 digits only).
import torch
import torch.nn as nn
torch.manual_seed(3)
m = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2), nn.ReLU(), nn.Linear(2, 1))
w = m[0].weight
m[0](torch.tensor([[1., 2., -1.]])).sum().backward()  # (float32 gradients exact: the input's numbers, 1)
print(m[0].weight.grad, m[0].bias.grad)
m.double()
print(w is m[0].weight, w.dtype, w.grad, w.is_leaf, w.requires_grad)
print(m.state_dict())
x = torch.randn(4, 3, dtype=torch.float64)
out = m(x)
print(out, out.dtype)
out.sum().backward()
print(m[3].weight.grad)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
opt.step()
print(m[3].weight)
m.to(torch.float32)
print(m[3].weight, m[1].num_batches_tracked)
m.float().to(dtype=torch.float64)
print(m[1].running_mean)
lin = nn.Linear(2, 2).to('cpu', torch.float64)
print(lin.weight.dtype, lin(torch.ones(1, 2, dtype=torch.float64)))
try:
    lin.to(torch.int64)
except TypeError as e:
    print("TypeError", e)
