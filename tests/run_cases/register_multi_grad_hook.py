# torch.autograd.graph.register_multi_grad_hook (mode "all"): called once per backward that reaches any of its
# tensors, with the gradient of each tensor the engine computes and None for the others (not reached, or not needed
# for inputs=); removed through its handle; and the AssertionError PyTorch raises for a tensor that does not require grad.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, -1.0], requires_grad=True)
h = x * w
u = h.exp() if False else h * h
other = torch.tensor([5.0], requires_grad=True)
def show(grads):
    print("hook", grads)
handle = torch.autograd.graph.register_multi_grad_hook([x, w, h, other], show)
u.sum().backward(retain_graph=True)
print(x.grad, w.grad)
u.sum().backward(inputs=[w], retain_graph=True)
(other * 2).sum().backward()
handle.remove()
u.sum().backward()
print("removed", x.grad)

torch.autograd.graph.register_multi_grad_hook((x, torch.ones(2)), show)
