import torch
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h = x * x
h.retain_grad()
out = (h * torch.tensor([0.5, 1.0, 2.0])).sum()
out.backward()
print(h.grad, x.grad)
print(out.grad_fn.name(), h.grad_fn.name(), x.grad_fn)
x.grad = None
out2 = torch.tanh(x).mean()
out2.backward()
print(x.grad)
x.requires_grad = False
print(x, x.requires_grad)
