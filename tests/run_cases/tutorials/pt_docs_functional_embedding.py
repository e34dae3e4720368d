# PyTorch 2.13 docs, torch.nn.functional.embedding: its docstring's examples (torch/nn/functional.py) in order, as written, as a script:
# each expression whose value the docstring shows is printed, the doctest directives are cut, and the imports it
# assumes (torch, torch.nn.functional as F) and torch.manual_seed(0) (its inputs are unseeded) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/nn/functional.py
import torch
import torch.nn.functional as F
torch.manual_seed(0)

input = torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])
embedding_matrix = torch.rand(10, 3)
print(F.embedding(input, embedding_matrix))
weights = torch.rand(10, 3)
weights[0, :].zero_()
embedding_matrix = weights
input = torch.tensor([[0, 2, 0, 5]])
print(F.embedding(input, embedding_matrix, padding_idx=0))
