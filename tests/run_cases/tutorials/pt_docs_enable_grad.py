# PyTorch 2.13 docs, torch.enable_grad: its docstring's example (torch/autograd/grad_mode.py) in order, as written, as a
# script: each expression whose value the docstring shows is printed, the doctest directives are cut, and the import
# it assumes (torch) is added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/grad_mode.py
import torch

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
y.backward()
print(x.grad)
@torch.enable_grad()
def doubler(x):
    return x * 2
with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)
@torch.enable_grad()
def tripler(x):
    return x * 3
with torch.no_grad():
    z = tripler(x)
print(z.requires_grad)
