# PyTorch 2.13 docs, torch.autograd.graph.register_multi_grad_hook: its docstring's example (torch/autograd/graph.py),
# as written, with torch.manual_seed(0) added (it draws unseeded numbers; none is printed).
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/graph.py
import torch
torch.manual_seed(0)

a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b

def fn(grads):
    print([g is not None for g in grads])

torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)

c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
