# A DataLoader over a dataset of the file's own class (torch.utils.data.Dataset subclassed with __getitem__ and
# __len__, as rasbt's LLMs-from-scratch appendix A writes it): the sampler's order (shuffled from torch's generator),
# batch_size, drop_last, len(loader), and default_collate of tensors, Python numbers, tuples, lists and dicts.
import torch
from torch.utils.data import Dataset, DataLoader
torch.manual_seed(0)


class Pairs(Dataset):
    def __init__(self, X, y):
        super().__init__()
        self.X, self.y = X, y

    def __getitem__(self, i):
        return self.X[i], self.y[i]

    def __len__(self):
        return len(self.y)


class Mixed(torch.utils.data.Dataset):
    def __getitem__(self, index):
        return {"x": torch.full((2,), float(index)), "n": index, "f": index / 4, "flag": index % 2 == 0,
                "pair": [index, torch.tensor(index * 10)], "name": "s" + str(index)}

    def __len__(self):
        return 5


X = torch.arange(14.).reshape(7, 2)
y = torch.tensor([0, 1, 0, 1, 1, 0, 1])
ds = Pairs(X, y)
print(len(ds), ds[3])
for loader in (DataLoader(ds, batch_size=3), DataLoader(ds, batch_size=3, shuffle=True),
               DataLoader(dataset=ds, batch_size=2, shuffle=True, drop_last=True)):
    print(len(loader))
    for i, (xb, yb) in enumerate(loader):
        print(i, xb, yb)
for batch in DataLoader(Mixed(), batch_size=2):
    print(batch)
w = torch.ones(4, 3, requires_grad=True)


class Rows(Dataset):
    def __getitem__(self, i):
        return w[i] * 2

    def __len__(self):
        return 4


for b in DataLoader(Rows(), batch_size=4):
    print(b)
    b.sum().backward()
print(w.grad)


class Ragged(Dataset):
    def __getitem__(self, i):
        return [1] * (i + 1)

    def __len__(self):
        return 2


try:
    list(DataLoader(Ragged(), batch_size=2))
except RuntimeError as e:
    print(e)
