# PyTorch 2.13 docs, torch.Tensor.masked_scatter_: its docstring's example (`torch/_tensor_docs.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut, and the import it
# assumes (torch) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor_docs.py
import torch
self = torch.tensor([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
mask = torch.tensor(
    [[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]],
    dtype=torch.bool,
)
source = torch.tensor([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
print(self.masked_scatter_(mask, source))
