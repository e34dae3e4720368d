# torch.utils.data: TensorDataset (len, indexing) and DataLoader (batch_size, shuffle from torch's generator:
# a base seed per pass, a sampler seed at its first batch; drop_last; len; next(iter(loader)) a list).
import torch
from torch.utils import data
torch.manual_seed(3)
X = torch.arange(14.).reshape(7, 2)
y = torch.arange(7)
ds = data.TensorDataset(X, y)
print(len(ds), ds[2])
loader = data.DataLoader(ds, batch_size=3, shuffle=True)
print(len(loader))
for epoch in range(2):
    for xb, yb in loader:
        print(xb, yb)
print(next(iter(loader)))
print(torch.rand(2))
l2 = data.DataLoader(ds, 4, drop_last=True)
print(len(l2), [b[1] for b in l2])
print(torch.rand(2))
it = iter(data.DataLoader(ds, batch_size=2, shuffle=True))
print(torch.rand(1))
print(next(it))
big = data.TensorDataset(torch.arange(40))
print([b[0].tolist() for b in data.DataLoader(big, batch_size=16, shuffle=True)])
