# rasbt/stat453-deep-learning-ss21, L06/code/pytorch-autograd.ipynb: its code cells in order, as written, except that
# the watermark magics are cut and each cell's last bare expression (which the notebook shows) is printed.
# Source: https://github.com/rasbt/stat453-deep-learning-ss21/blob/2202699c5fd38af398e2682f289a0868b1b91f0e/L06/code/pytorch-autograd.ipynb
import torch
from torch.autograd import grad
import torch.nn.functional as F

x = torch.tensor([3.])
w = torch.tensor([2.], requires_grad=True)
b = torch.tensor([1.], requires_grad=True)
a = F.relu(x*w + b)

print(a)

print(grad(a, w, retain_graph=True))

print(grad(a, b))

x = torch.tensor([3.])
w = torch.tensor([2.], requires_grad=True)
b = torch.tensor([1.], requires_grad=True)

def my_relu(z):
    if z > 0.:
        return z
    else:
        z[:] = 0.
        return z

a = my_relu(x*w + b)
print(grad(a, w))

x = torch.tensor([-1.])
w = torch.tensor([1.], requires_grad=True)
b = torch.tensor([1.], requires_grad=True)

def my_relu(z):
    if z > 0.:
        return z
    else:
        z[:] = 0.
        return z

a = F.relu(x*w + b)
print(grad(a, w, retain_graph=False))
