# collections.OrderedDict (nn.Sequential of one, a state_dict's type) and itertools' iterators, as Python has them; torch.functional as a module
import torch
from torch import nn
from collections import OrderedDict
import collections
import itertools
from itertools import count
torch.manual_seed(0)
net = nn.Sequential(OrderedDict([('fc1', nn.Linear(2, 3)), ('act', nn.ReLU()), ('fc2', nn.Linear(3, 1))]))
print(net)
print(net.fc1.weight.shape, net[0].bias)
d = collections.OrderedDict(a=1)
d['b'] = 2
print(d, type(d).__name__, len(d), list(d.items()))
print(OrderedDict())
for i in count(1):
    if i > 3:
        break
print(i)
print(list(itertools.chain([1, 2], (3,))), list(itertools.islice(count(5, 2), 3)))
print(list(itertools.product([0, 1], repeat=2)), list(itertools.combinations(range(4), 2)))
print(list(itertools.permutations('ab')), list(itertools.accumulate([1, 2, 3])))
print(list(itertools.zip_longest([1, 2], [3], fillvalue=0)), list(itertools.repeat(7, 2)))
params = list(itertools.chain(nn.Linear(1, 1).parameters(), nn.Linear(1, 2).parameters()))
print(len(params))
print(net.state_dict().keys())
sd = net.state_dict()
print(type(sd).__name__)
import torch.functional as TF
print(TF.einsum('i,i->', torch.ones(2), torch.ones(2)))
try:
    TF.max_pool2d
except AttributeError as e:
    print(e)
