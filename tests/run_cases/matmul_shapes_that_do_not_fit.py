import torch
a = torch.ones(3, requires_grad=True)
print((torch.ones(0, 3) @ torch.ones(3, 2)).shape)
print((torch.ones(2, 0) @ torch.ones(0)).shape, (a @ torch.ones(3, 0)).shape)
print(torch.ones(2, 2, 3) @ torch.ones(3))
print(torch.ones(3) @ torch.ones(2, 2))
