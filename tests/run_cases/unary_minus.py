import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = -x
print(y, -torch.tensor(3.), -(x * 2), +x)
(-y * x).sum().backward()
print(x.grad, y.grad_fn.next_functions)
