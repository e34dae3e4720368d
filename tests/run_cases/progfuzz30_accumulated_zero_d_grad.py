# a 0-d leaf's gradient, accumulated over several backward calls, then zeroed through .data
# (progfuzz30, --family higher: gradcli failed with an internal error)
import torch

x = torch.tensor(-0.12, dtype=torch.float64, requires_grad=True)
(x.cos() + x ** 2).backward()
(x ** 3).backward()
g = x.grad
print(x.grad)
x.grad.data.zero_()
print(x.grad, g)
(x * 2).backward()
print(x.grad, g)
(x * 5).backward()
print(x.grad, g is x.grad)
x.grad.zero_()
print(x.grad)
