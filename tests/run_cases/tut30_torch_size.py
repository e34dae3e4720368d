# torch.Size made from a tuple or a list of ints, as tensor code builds shapes: its printing, comparison with tuples and
# with a tensor's .shape, numel(), slicing and len, the shapes it gives to constructors, and its TypeError for a float.
import torch

s = torch.Size((2, 3))
print(s, torch.Size([4]), torch.Size(), torch.Size(range(3)))
print(s == (2, 3), s == torch.zeros(2, 3).shape, s != [2, 3], s[1:], len(s), s[-1])
print(s.numel(), torch.Size([]).numel(), torch.Size([0, 5]).numel())
print(torch.ones(s), torch.zeros(torch.Size([1, 2])).shape)
print(s + (4,), tuple(s), list(s))
print(torch.randn(2, 3).view(s).shape == s)
try:
    torch.Size([2.0, 3])
except TypeError as e:
    print("TypeError:", e)
