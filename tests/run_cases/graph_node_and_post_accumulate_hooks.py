# Hooks on a grad_fn and after accumulation: grad_fn.register_prehook (before the node, after the tensor's own hooks),
# grad_fn.register_hook (what the node sends to its inputs, one entry per input), handles removed,
# register_post_accumulate_grad_hook (once .grad holds each backward's sum) and PyTorch's errors for it.
import torch
x = torch.tensor([1., 2.], requires_grad=True)
seen = []
h = x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
(x * x).sum().backward()
(x * 3).sum().backward()
print(seen, x.grad)
h.remove()
(x * 3).sum().backward()
print(len(seen))
y = x * 2
b = y.grad_fn
hh = b.register_prehook(lambda g: (g[0] * 10,))
h2 = b.register_hook(lambda gi, go: (gi[0] + 1,) + gi[1:])
x.grad = None
y.sum().backward()
print(x.grad)
try:
    y.register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as e:
    print("E", e)
try:
    torch.ones(2).register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as e:
    print("E", e)
