# PyTorch 2.13 docs, torch.Tensor.repeat: its docstring's example (`torch/_tensor_docs.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut, and the import it
# assumes (torch) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor_docs.py
import torch
x = torch.tensor([1, 2, 3])
print(x.repeat(4, 2))
print(x.repeat(4, 2, 1).size())
