# PyTorch 2.13 docs, torch.inference_mode: its docstring's example (torch/autograd/grad_mode.py) in order, as written, as a
# script: each expression whose value the docstring shows is printed, the doctest directives are cut, and the import
# it assumes (torch) is added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/grad_mode.py
import torch

import torch
x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad)
y._version
@torch.inference_mode()
def func(x):
    return x * x
out = func(x)
print(out.requires_grad)
@torch.inference_mode()
def doubler(x):
    return x * 2
out = doubler(x)
print(out.requires_grad)
