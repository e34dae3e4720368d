import torch
x = torch.arange(6.0).reshape(2, 3).requires_grad_()
y = torch.fft.fftshift(x)
print(y, torch.fft.ifftshift(x, dim=1))
(y * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(x.grad)
