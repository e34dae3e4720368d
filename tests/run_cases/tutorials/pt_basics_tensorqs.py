# PyTorch tutorials, "Learn the Basics": "Tensors", beginner_source/basics/tensorqs_tutorial.py at
# 0dea8a155bb46fd384abe428afcbb65e0a391739, as written, except that torch.manual_seed(0) is added after the
# imports (unseeded, every run prints other numbers) and the long prose comments are cut (code unchanged, in order).
# Source: https://github.com/pytorch/tutorials/blob/0dea8a155bb46fd384abe428afcbb65e0a391739/beginner_source/basics/tensorqs_tutorial.py
"""
Tensors
==========================

Tensors are a specialized data structure that are very similar to arrays and matrices.
"""

import torch
import numpy as np
torch.manual_seed(0)


######################################################################
# Initializing a Tensor
# ~~~~~~~~~~~~~~~~~~~~~

data = [[1, 2],[3, 4]]
x_data = torch.tensor(data)

np_array = np.array(data)
x_np = torch.from_numpy(np_array)


x_ones = torch.ones_like(x_data) # retains the properties of x_data
print(f"Ones Tensor: \n {x_ones} \n")

x_rand = torch.rand_like(x_data, dtype=torch.float) # overrides the datatype of x_data
print(f"Random Tensor: \n {x_rand} \n")


shape = (2,3,)
rand_tensor = torch.rand(shape)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)

print(f"Random Tensor: \n {rand_tensor} \n")
print(f"Ones Tensor: \n {ones_tensor} \n")
print(f"Zeros Tensor: \n {zeros_tensor}")


######################################################################
# Attributes of a Tensor
# ~~~~~~~~~~~~~~~~~

tensor = torch.rand(3,4)

print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")


######################################################################
# Operations on Tensors
# ~~~~~~~~~~~~~~~~~

# We move our tensor to the GPU if available, and if the cuda version is supported
if torch.cuda.is_available() & (torch.device('cuda').index is not None):
    tensor = tensor.to('cuda')


###############################################################
# **Standard numpy-like indexing and slicing:**

tensor = torch.ones(4, 4)
print('First row: ', tensor[0])
print('First column: ', tensor[:, 0])
print('Last column:', tensor[..., -1])
tensor[:,1] = 0
print(tensor)

t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)


######################################################################
# **Arithmetic operations**

# This computes the matrix multiplication between two tensors. y1, y2, y3 will have the same value
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)

y3 = torch.rand_like(tensor)
torch.matmul(tensor, tensor.T, out=y3)


# This computes the element-wise product. z1, z2, z3 will have the same value
z1 = tensor * tensor
z2 = tensor.mul(tensor)

z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)


agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))


print(tensor, "\n")
tensor.add_(5)
print(tensor)


######################################################################
# Tensor to NumPy array
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")

t.add_(1)
print(f"t: {t}")
print(f"n: {n}")


######################################################################
# NumPy array to Tensor
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
n = np.ones(5)
t = torch.from_numpy(n)

np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
