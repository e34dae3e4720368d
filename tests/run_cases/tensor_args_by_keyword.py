import torch
x = torch.tensor([-2., 0.5, 3.], requires_grad=True)
t = torch.tensor([1., 1., 1.])
print(torch.clamp(x, max=t))
print(torch.clamp(x, min=t))
print(torch.gather(x, 0, index=torch.tensor([2, 0])))
print(torch.where(x > 0, x, other=t))
print(torch.lerp(x, end=t, weight=0.5))
print(torch.addcmul(x, tensor1=t, tensor2=x, value=2))
