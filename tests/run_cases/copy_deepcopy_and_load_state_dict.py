# copy.deepcopy as training loops keep their best model: a leaf and its grad, a Parameter, containers that share
# items, a module whose copy does not follow the original, a state_dict copied and loaded back (the state_dict's
# tensors share the parameters' storage), load_state_dict's result and its errors, and deepcopy of a non-leaf.
import copy
import torch
import torch.nn as nn
x = torch.ones(2, requires_grad=True)
y = x * 2
try:
    copy.deepcopy(y)
except RuntimeError as e:
    print(repr(str(e)))
x.grad = torch.ones(2)
z = copy.deepcopy(x)
print(z, z.grad, z.is_leaf, z is x)
p = nn.Parameter(torch.zeros(2))
print(copy.deepcopy(p))
d = {"a": [x, x], "b": 3}
e = copy.deepcopy(d)
print(e["a"][0] is e["a"][1], e)
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
m2 = copy.deepcopy(m)
with torch.no_grad():
    m[0].weight.fill_(1.0)
print(m2[0].weight, m[0].weight)
best = copy.deepcopy(m.state_dict())
print(best)
print(m2.load_state_dict(best))
print(m2[0].weight)
live = m.state_dict()
with torch.no_grad():
    m[0].bias.add_(10.0)
print(live["0.bias"])
print(m2.load_state_dict({"0.weight": torch.zeros(2, 2)}, strict=False))
try:
    m2.load_state_dict({"0.weight": torch.zeros(2, 2), "extra": torch.ones(1)})
except RuntimeError as e:
    print(e)
try:
    m2.load_state_dict({"0.weight": torch.zeros(3, 2), "0.bias": torch.zeros(2)})
except RuntimeError as e:
    print(e)
