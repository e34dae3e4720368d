# PyTorch 2.13 docs, torch.autograd.graph.saved_tensors_hooks: its docstring's example (torch/autograd/graph.py), as
# written, with the import it assumes (torch).
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/graph.py
import torch

def pack_hook(x):
    print("Packing", x)
    return x.detach()

def unpack_hook(x):
    print("Unpacking", x)
    return x

a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
