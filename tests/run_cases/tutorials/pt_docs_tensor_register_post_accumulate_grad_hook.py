# PyTorch 2.13 docs, torch.Tensor.register_post_accumulate_grad_hook: its docstring's example (torch/_tensor.py), as
# written, as a script, with the import it assumes (torch).
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/_tensor.py
import torch

v = torch.tensor([0., 0., 0.], requires_grad=True)
lr = 0.01
# simulate a simple SGD update
h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
v.backward(torch.tensor([1., 2., 3.]))
print(v)

h.remove()  # removes the hook
