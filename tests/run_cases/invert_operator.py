# ~ as d2l's sequence_mask and masking code write it: a bool mask's logical not (indexing with it), an integer
# tensor's bitwise not, Python's ~ of an int, and PyTorch's TypeError for a float tensor.
import torch
m = torch.tensor([True, False])
print(~m, ~torch.tensor([1, -3]), ~torch.tensor([1, 2], dtype=torch.int32), ~5)
x = torch.arange(6.).reshape(2, 3)
x[~(x > 2)] = -1
print(x)
try:
    ~torch.tensor(1.)
except TypeError as e:
    print(e)
valid = torch.arange(4)[None, :] < torch.tensor([2, 3])[:, None]
print(valid, ~valid, (~valid).sum())
print(~torch.tensor(True), ~torch.tensor([0, 255], dtype=torch.int32))
