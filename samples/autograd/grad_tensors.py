import torch
z = torch.tensor([1.0, 3.0], requires_grad=True)
y = z**2
l = y.sum()
print(y)
torch.autograd.backward(tensors=y, grad_tensors=torch.tensor([1.0, 1.0]))
print(z.grad)
