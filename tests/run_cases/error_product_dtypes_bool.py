import torch
# a product of two dtypes (or of bools): PyTorch's products do not promote
m = torch.tensor([[True, False], [True, True]])
print("before")
print(m @ m)
print("not reached")
