# `if` on a tensor of more than one element: PyTorch's RuntimeError (one element decides as a bool).
import torch

x = torch.tensor([0.5, 2.0], requires_grad=True)
if x.sum() > 1:
    print("sum is large")
if x > 1:
    print("unreachable")
