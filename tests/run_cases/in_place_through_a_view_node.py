# An op written in place through a view (b[0:2].mul_(w), v.add_(w) of v = b.view(3)): PyTorch's CopySlices on the base
# holds the op's node inside and lists the base's node, then the op's other inputs (w), as its next_functions
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor(2.0, requires_grad=True)
b = x * 1
b[0:2].mul_(w)
print(b.grad_fn, b.grad_fn.next_functions)
b = x * 1
b[1:].exp_()
print(b.grad_fn, b.grad_fn.next_functions)
b = x * 1
b[1:] = w * 3
print(b.grad_fn, b.grad_fn.next_functions)
b = x * 1
v = b.view(3)
v.add_(w)
print(b.grad_fn, b.grad_fn.next_functions, v.grad_fn)
b = x * 1
b[1:].add_(w).mul_(w)
print(b.grad_fn, b.grad_fn.next_functions)
b.sum().backward()
print(x.grad, w.grad)
