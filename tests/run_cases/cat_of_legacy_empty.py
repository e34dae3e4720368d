# torch.cat of PyTorch's legacy empty tensor (torch.FloatTensor(), torch.empty(0)) with tensors of other dims, as
# older tutorials grow a matrix from one: PyTorch passes over it (its dtype still counts), wraps dim by the first other
# tensor, returns it when all are such; its gradient is empty; ranks and sizes of the others still checked.
import torch
a = torch.FloatTensor()
b = torch.ones(2, 3, requires_grad=True)
r = torch.cat((a, b), 0)
print(r, r.grad_fn, r.grad_fn.next_functions)
print(torch.cat((b, a), 1).shape, torch.cat((a, a)).shape, torch.cat((a, b.long())).dtype, torch.cat((a.double(), b)).dtype)
print(torch.cat((torch.empty(0), torch.ones(2, 3)), dim=-1).shape)
print(torch.cat((torch.empty(0),), dim=2).shape)
print(torch.cat((torch.empty(0), torch.ones(2, 3, dtype=torch.int64))).dtype)
x = torch.empty(0, requires_grad=True)
torch.cat((x, b)).sum().backward()
print(x.grad, b.grad)
try:
    torch.cat((torch.ones(2, 3), torch.empty(0), torch.ones(2, 2)))
except RuntimeError as e:
    print(e)
try:
    torch.cat((torch.empty(0), torch.ones(2, 3), torch.ones(3)))
except RuntimeError as e:
    print(e)
torch.cat((torch.empty(0), torch.ones(2, 3)), dim=-3)
