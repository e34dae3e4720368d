import torch
a = torch.tensor([1.5, 2.5], requires_grad=True, dtype=torch.float64)
b = torch.tensor([0.5, 2.], dtype=torch.float64)
y = a // b
print(y, y.grad_fn)
y.sum().backward()
