# The gradient through basic indexing (x[0], x[:, 1], x[1, :1]) is copied into zeros as PyTorch's select_backward and
# slice_backward copy it: a -0 in it stays -0 (F.margin_ranking_loss's inactive pairs give -0).
import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(x[0] * torch.tensor([-0.0, 1.0])).sum().backward()
print(x.grad)
x.grad = None
(x[:, 1] * torch.tensor([-0.0, 1.0])).sum().backward()
print(x.grad)
x.grad = None
(x.select(0, 1) * -0.0).sum().backward()
print(x.grad)
x.grad = None
(x[1, :1] * -0.0).sum().backward()
print(x.grad)
a = torch.tensor([[0.3, -1.2, 2.0], [1.5, 0.1, -0.7]], requires_grad=True)
b = torch.tensor([1.0, -0.5, 0.25])
torch.nn.functional.margin_ranking_loss(a[0], b, torch.tensor([1.0, -1.0, 1.0])).backward()
print(a.grad)
