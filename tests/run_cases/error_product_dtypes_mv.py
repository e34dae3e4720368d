import torch
# a product of two dtypes (or of bools): PyTorch's products do not promote
m = torch.tensor([[1., 2.]])
v = torch.tensor([1, 2])
print("before")
print(m @ v)
print("not reached")
