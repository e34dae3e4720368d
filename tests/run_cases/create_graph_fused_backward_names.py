import torch
# The grad_fn of a gradient made with create_graph=True: PyTorch's backward kernels of softmax,
# log_softmax and mse_loss are one node each.
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([1.0, 2.0, -1.0])
d, = torch.autograd.grad((torch.softmax(x, 0) * w).sum(), x, create_graph=True)
print(d)
d, = torch.autograd.grad((torch.log_softmax(x, 0) * w).sum(), x, create_graph=True)
print(d)
d, = torch.autograd.grad(torch.nn.functional.mse_loss(x, w), x, create_graph=True)
print(d)
