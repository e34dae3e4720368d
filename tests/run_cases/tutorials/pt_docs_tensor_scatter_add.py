# PyTorch 2.13 docs, torch.Tensor.scatter_add_: its docstring's example (`torch/_tensor_docs.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut, and the import it
# assumes (torch) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor_docs.py
import torch
src = torch.ones((2, 5))
index = torch.tensor([[0, 1, 2, 0, 0]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_add_(0, index, src))
index = torch.tensor([[0, 1, 2, 0, 0], [0, 1, 2, 2, 2]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_add_(0, index, src))
