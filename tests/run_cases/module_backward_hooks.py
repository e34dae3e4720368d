# A module's register_backward_hook (PyTorch's older form): the hook of the node of the module's output, called
# with what that node sends to its inputs (next_functions' order, None where one takes no gradient) and the
# gradient into it; a tuple it gives back takes their place; handle.remove() for the forwards after it.
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(3, 2)
relu = nn.ReLU()


def show(module, grad_input, grad_output):
    print(module.__class__.__name__, len(grad_input), [None if g is None else tuple(g.shape) for g in grad_input])
    print("  in:", grad_input)
    print("  out:", grad_output)


h1 = lin.register_backward_hook(show)
h2 = relu.register_backward_hook(show)
x = torch.randn(4, 3, requires_grad=True)
y = relu(lin(x))
y.sum().backward()
print(x.grad, lin.weight.grad, lin.bias.grad)


def double(module, grad_input, grad_output):
    return tuple(None if g is None else g * 2 for g in grad_input)


h1.remove()
h2.remove()
lin.zero_grad()
x.grad = None
h3 = relu.register_backward_hook(double)
z = relu(lin(x) * 1.0)
z.sum().backward()
print(x.grad, lin.weight.grad)
h3.remove()
x.grad = None
relu(lin(x)).sum().backward()
print(x.grad)
conv = nn.Conv1d(2, 3, 2)
conv.register_backward_hook(show)
out = conv(torch.randn(1, 2, 5))
out.mean().backward()
