import torch
# a product of two dtypes (or of bools): PyTorch's products do not promote
m = torch.ones(3, 2, 2)
s = torch.ones(2, 2, dtype=torch.float64)
print("before")
print(s @ m)
print("not reached")
