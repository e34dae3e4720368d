# PyTorch 2.13 docs, torch.Tensor.register_hook: its docstring's example (torch/_tensor.py), as written, as a script:
# the expression whose value the docstring shows (v.grad) is printed and the import it assumes (torch) is added.
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor.py
import torch

v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)  # double the gradient
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)

h.remove()  # removes the hook
