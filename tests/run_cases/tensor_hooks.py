# Tensor hooks as the autograd tutorials use them: register_hook on a leaf (called before .grad accumulates; a
# returned tensor replaces what accumulates) and on an intermediate (its returned gradient flows on to the leaves),
# several hooks in the order registered, a hook that only prints, handle.remove(), a hook on a tensor used twice,
# and PyTorch's errors for a tensor that does not require grad and a hook that changes the shape.
import torch
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
h = x.register_hook(lambda g: print("leaf hook", g))
y = x * 2
y.register_hook(lambda g: g * 10)
y.register_hook(lambda g: print("second sees", g))
z = (y * y).sum()
z.backward()
print(x.grad)
h.remove()
x.grad = None
w = x.exp()
w.register_hook(lambda g: g.clamp(max=0.5))
(w + w * 3).sum().backward()
print(x.grad)
x.register_hook(lambda g: g * 0)
(x ** 2).sum().backward()
print(x.grad)


def clip(grad):
    print("clip", grad.shape)
    return grad.clamp(-0.1, 0.1)


a = torch.ones(2, 2, requires_grad=True)
b = a * 5
b.register_hook(clip)
b.sum().backward()
print(a.grad)
try:
    torch.ones(2).register_hook(clip)
except RuntimeError as e:
    print(e)
c = torch.ones(3, requires_grad=True)
d = c * 2
d.register_hook(lambda g: g[:2])
try:
    d.sum().backward()
except RuntimeError as e:
    print(e)
