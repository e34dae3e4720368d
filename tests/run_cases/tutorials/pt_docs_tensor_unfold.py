# PyTorch 2.13 docs, torch.Tensor.unfold: its docstring's example (`torch/_tensor_docs.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut, and the import it
# assumes (torch) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor_docs.py
import torch
x = torch.arange(1., 8)
print(x)
print(x.unfold(0, 2, 1))
print(x.unfold(0, 2, 2))
