import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 3
y.backward(torch.ones(3))
