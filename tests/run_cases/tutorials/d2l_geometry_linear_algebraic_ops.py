# d2l.ai (Dive into Deep Learning, v0.17.6), chapter_appendix-mathematics-for-deep-learning/geometry-linear-algebraic-ops.md:
# its PyTorch cells in order, as written, except that each cell's last bare expression (which the notebook shows) is
# printed, the cells that load Fashion-MNIST (a download through torchvision), plot its averages and classify it are
# cut, as are the imports only they use (the matplotlib magic, d2l, IPython, torchvision and its transforms).
# Source: https://github.com/d2l-ai/d2l-en/blob/v0.17.6/chapter_appendix-mathematics-for-deep-learning/geometry-linear-algebraic-ops.md
v = [1, 7, 0, 1]

import torch

def angle(v, w):
    return torch.acos(v.dot(w) / (torch.norm(v) * torch.norm(w)))

print(angle(torch.tensor([0, 1, 2], dtype=torch.float32), torch.tensor([2.0, 3, 4])))

M = torch.tensor([[1, 2], [1, 4]], dtype=torch.float32)
M_inv = torch.tensor([[2, -1], [-0.5, 0.5]])
print(M_inv @ M)

print(torch.det(torch.tensor([[1, -1], [2, 3]], dtype=torch.float32)))

# Define tensors
B = torch.tensor([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]])
A = torch.tensor([[1, 2], [3, 4]])
v = torch.tensor([1, 2])

# Print out the shapes
print(A.shape, B.shape, v.shape)

# Reimplement matrix multiplication
print(torch.einsum("ij, j -> i", A, v), A@v)

print(torch.einsum("ijk, il, j -> kl", B, A, v))
