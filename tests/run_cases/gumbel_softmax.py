# F.gumbel_softmax as PyTorch computes it: Gumbel noise -log(Exponential(1)) drawn from torch's generator, added to the
# logits, divided by tau, softmax over dim; hard=True the one-hot of the argmax, y_hard - y_soft.detach() + y_soft
# (the straight-through gradient); in float64, its graph and gradients.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
logits = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.0, 0.3, 0.2, 0.1]], dtype=torch.float64, requires_grad=True)
y = F.gumbel_softmax(logits, tau=0.5)
print(y)
y[:, 0].sum().backward()
print(logits.grad)
h = F.gumbel_softmax(logits, hard=True)
print(h, h.grad_fn, h.grad_fn.next_functions)
logits.grad = None
(h * torch.arange(4.0, dtype=torch.float64)).sum().backward()
print(logits.grad)
print(F.gumbel_softmax(logits.detach(), 2.0, False, 1e-10, 0))
print(torch.randn(2))
