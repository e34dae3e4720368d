# autograd.grad(outputs, inputs) and backward(inputs=) run only the nodes that lead to their inputs, as PyTorch's
# engine does: a custom Function's backward or a hook elsewhere in the graph is not called (gradcli called them);
# create_graph=True through a backward marked @once_differentiable gives a gradient behind PyTorch's Error node,
# which raises only when a backward runs it (gradcli refused the call) (progfuzz30, --family custom)
import torch
from torch.autograd.function import once_differentiable


class Loud(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        print("Loud.backward", g)
        return g * 2


class Once(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print("Once.backward", g)
        return 2 * x * g


x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
w = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
z = x * 2 + Loud.apply(w)
print(torch.autograd.grad(z.sum(), x))
z = x * 2 + Loud.apply(w)
z.sum().backward(inputs=[x])
print(x.grad, w.grad)
z = x * 2 + Loud.apply(w)
z.sum().backward()
print(x.grad, w.grad)
h = w.register_hook(lambda g: print("hook on w", g))
z = x * 2 + w * 3
print(torch.autograd.grad(z.sum(), [x]))
print(torch.autograd.grad(z.sum(), [w]))
h.remove()
y = Loud.apply(x)
q = (y * y).sum()
print(torch.autograd.grad(q, y))  # (y is the input: Loud's backward, below it, does not run)

g, = torch.autograd.grad((Once.apply(x) * Once.apply(x)).sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
print(g.grad_fn.next_functions)
k = g * 2
print(k)
try:
    k.sum().backward()
except RuntimeError as e:
    print(e)
print(torch.autograd.grad(k.sum(), x, allow_unused=True))
c, = torch.autograd.grad((Once.apply(x) * 3).sum(), x, create_graph=True)
print(c, c.grad_fn)
