# A leaf changed in place under no_grad after a graph used it (a hand-written SGD step, then a backward through a
# result made before the step): it is still the same leaf, so every use of it, before the step and after, adds into
# its .grad and into autograd.grad's answer; a saved copy of it is stale (the version counter's error). Found by
# fuzz/programs.py --family inplace (gradcli stopped with an internal error; autograd.grad gave one use's share).
import torch

x = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
y = x * 2
with torch.no_grad():
    x -= 0.25
z = x * 3
(y + z).sum().backward(retain_graph=True)
print(x.grad)
g = torch.autograd.grad((y * z).sum(), x, retain_graph=True)
print(g)
print(torch.autograd.grad(y.sum(), [x], retain_graph=True))
y.sum().backward(inputs=[x])
print(x.grad)

w = torch.tensor([0.81, -1.5, -1.3814, 0.7], dtype=torch.float64, requires_grad=True)
doubled = w * 2
for step in range(2):
    loss = (w - 1).pow(2).mean()
    loss.backward()
    with torch.no_grad():
        w.add_(w.grad, alpha=-0.5)
        w.grad.zero_()
    print(step, loss.item(), w)
doubled.sum().backward()
print(w.grad)

squared = w ** 2
with torch.no_grad():
    w.mul_(2)
squared.sum().backward()
