# torch.index_add of a self of no elements (2 dims or more) answers it as it is, before reading the index (#21); its
# backward into the source raises where self has no slices along dim (index_select of the empty gradient)
import torch

a = torch.zeros((0, 2), dtype=torch.float64, requires_grad=True)
b = torch.tensor([[-1.25, 0.5]], dtype=torch.float64, requires_grad=True)
out = torch.index_add(a, 0, torch.tensor([1]), b)
print(out, out.grad_fn.name(), [n[0].name() for n in out.grad_fn.next_functions])
print(torch.index_add(torch.zeros((2, 0, 3)), 1, torch.tensor([4, 0]), torch.ones((2, 2, 3))).shape)
c = torch.zeros((0, 2), dtype=torch.float64, requires_grad=True)
torch.index_add(c, 0, torch.tensor([], dtype=torch.long), torch.zeros((0, 2), dtype=torch.float64)).sum().backward()
print(c.grad)
out.sum().backward()
