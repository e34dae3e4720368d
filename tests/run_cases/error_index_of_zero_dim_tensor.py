# Old tutorials read a loss as loss.data[0]; since PyTorch 0.4 a loss is a 0-dim tensor, and the index is PyTorch's
# IndexError. The other indexes that take more dimensions than a tensor has, in PyTorch's words.
import torch

t = torch.tensor(3.)
for make in [lambda: t[5], lambda: t[0:1], lambda: t[None, 0], lambda: t[..., 0], lambda: t[[0]],
             lambda: torch.zeros(2)[0, 0], lambda: torch.zeros(2, 3)[..., 0, 0, 0],
             lambda: torch.zeros(2)[torch.ones(2, 2, dtype=torch.bool)], lambda: torch.zeros(2, 3)[0, 7]]:
    try:
        print(make())
    except IndexError as e:
        print("IndexError:", e)
print(t[None], t[...])
try:
    t[0] = 1.
except IndexError as e:
    print("IndexError:", e)
w = torch.tensor([1.0], requires_grad=True)
loss = (w * 2 - 1) ** 2
loss = loss.sum()
print(loss.data[0])
