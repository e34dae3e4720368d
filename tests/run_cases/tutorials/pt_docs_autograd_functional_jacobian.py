# PyTorch 2.13 docs, torch.autograd.functional.jacobian: its docstring's examples (torch/autograd/functional.py) in order, as
# written, as a script: each expression whose value the docstring shows is printed, the doctest directives are cut,
# and the imports it assumes (torch, jacobian) and torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/functional.py
import torch
from torch.autograd.functional import jacobian
torch.manual_seed(0)

def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))
def linear_model(x):
    W = torch.tensor([[2.0, -1.0], [0.0, 1.0]])
    b = torch.tensor([1.0, 0.5])
    return x @ W.T + b
x = torch.randn(4, 2, requires_grad=True)
jac = jacobian(linear_model, x, vectorize=True)
print(jac.shape)
