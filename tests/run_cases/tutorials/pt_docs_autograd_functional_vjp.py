# PyTorch 2.13 docs, torch.autograd.functional.vjp: its docstring's examples (torch/autograd/functional.py) in order, as
# written, as a script: each expression whose value the docstring shows is printed, the doctest directives are cut,
# and the imports it assumes (torch, vjp) and torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/functional.py
import torch
from torch.autograd.functional import vjp
torch.manual_seed(0)

def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))
def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))
