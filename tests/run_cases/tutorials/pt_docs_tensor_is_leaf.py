# PyTorch 2.13 docs, torch.Tensor.is_leaf: its docstring's example (torch/_tensor_docs.py), as written, as a script:
# each expression whose value the docstring shows is printed, the lines that move a tensor to CUDA (b, d, e, f: a GPU)
# are cut, and the import it assumes (torch) and torch.manual_seed(0) (it draws unseeded numbers) are added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor_docs.py
import torch
torch.manual_seed(0)

a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
c = torch.rand(10, requires_grad=True) + 2
print(c.is_leaf)
