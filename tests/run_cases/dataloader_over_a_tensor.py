# A DataLoader over a tensor (rasbt's machine-learning-book, ch12: DataLoader(t)): its rows are the samples, stacked
# into batches as default_collate stacks them; shuffled from torch's generator; a tensor that requires grad gives
# batches recorded as StackBackward0 over its rows.
import torch
from torch.utils.data import DataLoader
torch.manual_seed(1)
t = torch.arange(6, dtype=torch.float32)
for item in DataLoader(t):
    print(item)
for i, batch in enumerate(DataLoader(t, batch_size=3, drop_last=False), 1):
    print(f'batch {i}:', batch)
m = torch.arange(10).reshape(5, 2)
loader = DataLoader(m, batch_size=2, shuffle=True)
print(len(loader), [b.tolist() for b in loader])
w = torch.ones(3, 2, requires_grad=True)
for b in DataLoader(w, batch_size=3):
    print(b)
    (b * torch.tensor([1.0, 2.0])).sum().backward()
print(w.grad)
try:
    len(DataLoader(torch.tensor(1.0)))
except TypeError as e:
    print(e)
