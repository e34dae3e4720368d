# PyTorch 2.13 docs, torch.set_grad_enabled: its docstring's example (torch/autograd/grad_mode.py) in order, as written, as a
# script: each expression whose value the docstring shows is printed, the doctest directives are cut, and the import
# it assumes (torch) is added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/grad_mode.py
import torch

x = torch.tensor([1.], requires_grad=True)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
