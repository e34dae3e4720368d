# Python that tutorials write: starred unpacking, isinstance of tensors and exceptions, torch.Tensor as a class.
import torch
import torch.nn as nn
a, *b = [1, 2, 3]
*c, d = (4, 5)
e, *f, g = torch.arange(4)
print(a, b, c, d, e, f, g)
for first, *others in [(1, 2, 3), (4,)]:
    print(first, others)
try:
    h, *i, j = [1]
except ValueError as err:
    print(err)
print(torch.Tensor, torch.nn.Parameter, torch.FloatTensor)
p = nn.Parameter(torch.ones(2))
print(isinstance(torch.ones(1), torch.Tensor), isinstance(p, torch.Tensor), isinstance(3, torch.Tensor), isinstance([1], (list, torch.Tensor)))
try:
    raise KeyError("k")
except Exception as e:
    print(isinstance(e, LookupError), isinstance(e, ValueError), isinstance(ValueError("x"), Exception))
