# PyTorch 2.13 docs, torch.Tensor.new_ones: its docstring's example (`torch/_tensor_docs.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut, and the import it
# assumes (torch) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor_docs.py
import torch
tensor = torch.tensor((), dtype=torch.int32)
print(tensor.new_ones((2, 3)))
