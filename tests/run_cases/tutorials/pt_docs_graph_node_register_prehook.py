# PyTorch 2.13 docs, torch.autograd.graph.Node.register_prehook: its docstring's example (torch/autograd/graph.py), as
# written, with the import it assumes (torch).
# Source: https://github.com/pytorch/pytorch/blob/cf30153c4c131c8164ee7798e5022d810682e2cb/torch/autograd/graph.py
import torch
a = torch.tensor([0., 0., 0.], requires_grad=True)
b = a.clone()
assert isinstance(b.grad_fn, torch.autograd.graph.Node)
handle = b.grad_fn.register_prehook(lambda gI: (gI[0] * 2,))
b.sum().backward(retain_graph=True)
print(a.grad)
handle.remove()
a.grad = None
b.sum().backward(retain_graph=True)
print(a.grad)
