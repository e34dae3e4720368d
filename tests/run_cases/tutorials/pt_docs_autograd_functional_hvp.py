# PyTorch 2.13 docs, torch.autograd.functional.hvp: its docstring's examples (torch/autograd/functional.py) in order, as
# written, as a script: each expression whose value the docstring shows is printed, the doctest directives are cut,
# and the imports it assumes (torch, hvp) and torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/functional.py
import torch
from torch.autograd.functional import hvp
torch.manual_seed(0)

def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))
print(hvp(pow_reducer, inputs, v, create_graph=True))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))
