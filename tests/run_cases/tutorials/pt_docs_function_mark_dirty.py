# PyTorch 2.13 docs, torch.autograd.Function.mark_dirty: its docstring's examples (torch/autograd/function.py) as written, as a script:
# the doctest directives are cut, and the imports it
# assumes (torch, Function, once_differentiable) are added.
# (It prints nothing.)
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/function.py
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable

class Inplace(Function):
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy() # x_npy shares storage with x
        x_npy += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output

a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
Inplace.apply(a)  # This would lead to wrong gradients!
                  # but the engine would not know unless we mark_dirty
b.backward() # RuntimeError: one of the variables needed for gradient
             # computation has been modified by an inplace operation
