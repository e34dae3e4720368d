# copy.deepcopy of a parameter that holds a gradient: PyTorch's Parameter.__deepcopy__ makes a new parameter without
# it (a module copied after a backward, as nn.TransformerEncoder copies its layer, starts without gradients), while a
# plain tensor's copy keeps its gradient.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(2, 2)
layer(torch.ones(2)).sum().backward()
print(layer.bias.grad)
twin = copy.deepcopy(layer)
print(twin.bias.grad, twin.weight.grad)
print(copy.deepcopy([layer.weight])[0].grad)
t = torch.tensor([1.0, 2.0], requires_grad=True)
(t * 3).sum().backward()
print(copy.deepcopy(t).grad)
twin(torch.ones(2)).sum().backward()
print(twin.weight.grad, layer.weight.grad)
