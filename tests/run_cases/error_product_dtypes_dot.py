import torch
# a product of two dtypes (or of bools): PyTorch's products do not promote
f = torch.tensor([1, 2])
v = torch.tensor([1., 2.])
print("before")
print(torch.dot(v, f))
print("not reached")
