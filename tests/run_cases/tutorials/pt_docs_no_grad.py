# PyTorch 2.13 docs, torch.no_grad: its docstring's example (torch/autograd/grad_mode.py) in order, as written, as a
# script: each expression whose value the docstring shows is printed, the doctest directives are cut, and the import
# it assumes (torch) and torch.manual_seed(0) (it draws unseeded numbers) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/grad_mode.py
import torch
torch.manual_seed(0)

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)
@torch.no_grad()
def doubler(x):
    return x * 2
z = doubler(x)
print(z.requires_grad)
@torch.no_grad()
def tripler(x):
    return x * 3
z = tripler(x)
print(z.requires_grad)
with torch.no_grad():
    a = torch.nn.Parameter(torch.rand(10))
print(a.requires_grad)
