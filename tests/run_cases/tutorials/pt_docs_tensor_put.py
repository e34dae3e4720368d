# PyTorch 2.13 docs, torch.Tensor.put_: its docstring's example (`torch/_tensor_docs.py`), as written, as a script:
# each expression whose value the docstring shows printed, the doctest directives cut, and the import it
# assumes (torch) added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor_docs.py
import torch
src = torch.tensor([[4, 3, 5],
                    [6, 7, 8]])
print(src.put_(torch.tensor([1, 3]), torch.tensor([9, 10])))
