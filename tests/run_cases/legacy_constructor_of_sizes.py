# torch.Tensor / LongTensor / FloatTensor of sizes (the 2017 Bi-LSTM CRF tutorial: torch.Tensor(1, n).fill_(-10000.)): values written before read; torch.Tensor() is empty; torch.cat of a 0-d tensor names its position
import torch
a = torch.Tensor(1, 5).fill_(-10000.)
a[0][2] = 0.
print(a)
b = torch.LongTensor(3)
b.fill_(7)
print(b, b.dtype)
print(torch.Tensor())
c = torch.Tensor(torch.zeros(2, 2).shape)
c.zero_()
print(c)
d = torch.FloatTensor(2, 3)
d.uniform_(0, 1)
print(d.shape)
print(torch.Tensor([1, 2]), torch.Tensor((3,)))
try:
    torch.Tensor(-1)
except RuntimeError as e:
    print(e)
for a in ([torch.ones(2), torch.tensor(1.)], [torch.tensor(1.)], [torch.ones(2,2), torch.ones(2)]):
  try: torch.cat(a)
  except RuntimeError as e: print(e)
