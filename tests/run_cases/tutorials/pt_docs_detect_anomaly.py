# PyTorch 2.13 docs, torch.autograd.detect_anomaly: its docstring's example (torch/autograd/anomaly_mode.py), as written,
# as a script: torch.manual_seed(0) is added (it draws unseeded numbers; none is printed); the first out.backward()
# raises, as the docstring shows, so the script ends there.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/anomaly_mode.py
import torch
torch.manual_seed(0)
import torch
from torch import autograd
class MyFunc(autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        # Error during the backward pass
        raise RuntimeError("Some error in backward")
        return gO.clone()
def run_fn(a):
    out = MyFunc.apply(a)
    return out.sum()
inp = torch.rand(10, 10, requires_grad=True)
out = run_fn(inp)
out.backward()
with autograd.detect_anomaly():
    inp = torch.rand(10, 10, requires_grad=True)
    out = run_fn(inp)
    out.backward()
