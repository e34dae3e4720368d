# PyTorch, "A Gentle Introduction to torch.autograd", with values for its random tensors
import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9*a**2 == a.grad)
print(-2*b == b.grad)
print(a.grad, b.grad)

x = torch.tensor([[0.5, 0.25], [0.125, 1.0]])
y = torch.tensor([[1.5, 2.0], [0.75, 0.1]])
z = torch.tensor([[0.3, 0.6], [0.9, 0.2]], requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
