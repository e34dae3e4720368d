import torch
import torch.nn.functional as F
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
t = torch.tensor([2, 0])
p = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])
w = torch.tensor([1.0, 2.0, 0.5])
for loss in [F.cross_entropy(x, p), F.cross_entropy(x, p, weight=w), F.cross_entropy(x, t, label_smoothing=0.1),
             F.cross_entropy(x, t, weight=w, label_smoothing=0.2), F.cross_entropy(x, t, label_smoothing=0.1, reduction='sum'),
             F.cross_entropy(x, torch.tensor([2, -100]), label_smoothing=0.1), F.cross_entropy(x, p, label_smoothing=0.3, reduction='none')]:
    print(loss, loss.grad_fn.next_functions)
    x.grad = None
    loss.sum().backward()
    print(x.grad)
v = torch.tensor([1., 2., 3.], requires_grad=True)
print(F.cross_entropy(v, torch.tensor(1), label_smoothing=0.1))
print(F.linear(v, torch.ones(2, 3)).grad_fn.next_functions)
print(torch.hstack([v, v]).grad_fn.next_functions, torch.vstack([v, v]).grad_fn.next_functions)
print(v.repeat_interleave(2).grad_fn.next_functions[0][0].next_functions)
