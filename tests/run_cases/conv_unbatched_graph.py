import torch
import torch.nn.functional as F
x = torch.arange(8.).reshape(2, 4).requires_grad_()
w = torch.ones(3, 2, 2, requires_grad=True)
y = F.conv1d(x, w)
print(y, y.grad_fn.next_functions)
y.sum().backward()
print(x.grad, w.grad)
m = torch.arange(18.).reshape(2, 3, 3).requires_grad_()
k = torch.ones(1, 2, 2, 2)
z = F.conv2d(m, k, torch.tensor([0.5]), padding=1)
print(z.grad_fn, z.grad_fn.next_functions[0][0].next_functions)
