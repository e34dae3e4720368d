import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
print(torch.autograd.grad(a * 2, [a, b], retain_graph=True, allow_unused=True))
print(torch.autograd.grad(a * 3, [a, b], materialize_grads=True))
torch.autograd.grad(a * 2, [a, b])
