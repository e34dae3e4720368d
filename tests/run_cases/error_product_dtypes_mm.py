import torch
# a product of two dtypes (or of bools): PyTorch's products do not promote
d = torch.tensor([[1., 2.]])
f = torch.tensor([[1.], [2.]], dtype=torch.float64)
print("before")
print(f @ d)
print("not reached")
