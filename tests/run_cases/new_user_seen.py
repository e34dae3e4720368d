# Seen by a new user (issue #23): a list of 1-element tensors, backward(inputs=[h]) of a non-leaf h (its .grad
# filled, as PyTorch fills it), math.floor of a tensor, x.shape * 2, x.size(dim=0), generator=None, x.T of a vector.
import torch
import math
print(torch.tensor([torch.tensor([1.]), torch.tensor([2.])]))
x = torch.tensor([1., 2.], requires_grad=True)
h = x * 2
y = (h * h).sum()
y.backward(inputs=[h])
print(h.grad, x.grad)
print(math.floor(torch.tensor(2.5)), type(math.floor(torch.tensor(2.5))))
print(x.shape * 2, type(x), x.size(dim=0))
print(f"{x.shape}", torch.tensor(2) ** torch.tensor(-1) if False else 0)
print(torch.arange(end=4))
try:
    torch.full((2,))
except TypeError as e:
    print("TypeError", str(e)[:60])
print(x.T, x.mT if False else 0)
print(torch.tensor([[1, 2], [3, 4]]).float().mean(dim=0, keepdim=True))
print(x.detach().numpy(), x.tolist(), x.data)
print(torch.zeros_like(x), torch.ones(2, 3).view(-1).shape, torch.randn(2, 3, generator=None).shape)
x2 = torch.tensor([1., 2.], requires_grad=True)
h = x2 * 2
y = (h * h).sum()
y.backward(inputs=[h], retain_graph=True)
print(h.grad, x2.grad)
y.backward(inputs=[h, x2])
print(h.grad, x2.grad)
g = x2 * 3
g.retain_grad()
z = (g ** 2).sum()
z.backward(inputs=[g])
print(g.grad, x2.grad)
torch.manual_seed(0)
print(torch.randn(2, 3, generator=None), torch.rand(2, generator=None), torch.randint(0, 5, (3,), generator=None))
print(torch.normal(0., 1., (2,), generator=None))
