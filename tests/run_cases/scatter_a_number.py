# scatter of a Python number (rasbt's one-hot vectors, y_onehot.scatter_(1, y.view(-1, 1).long(), 1)): the number is a Scalar
# to PyTorch, written in the tensor's dtype (no dtype check against a tensor src); a tensor src of another dtype is its error.
import torch
y = torch.tensor([0, 1, 2, 2])
o = torch.zeros(4, 3)
print(o.scatter_(1, y.view(-1, 1).long(), 1).float())
print(torch.zeros(4, 3).scatter(1, y.view(-1, 1), 2.5))
print(torch.zeros(4, 3, dtype=torch.long).scatter(1, y.view(-1, 1), 2.5))
print(torch.zeros(4, 3, dtype=torch.long).scatter_(1, y.view(-1, 1), True))
x = torch.zeros(4, 3, requires_grad=True)
z = x.scatter(1, y.view(-1, 1), 1.)
print(z)
z.sum().backward()
print(x.grad)
print(torch.zeros(2, 2, dtype=torch.float64).scatter(0, torch.tensor([[1, 0]]), 3))
print(torch.zeros(2, 2, dtype=torch.bool).scatter(0, torch.tensor([[1, 0]]), 3))
try:
    torch.zeros(2, 2).scatter(0, torch.tensor([[1, 0]]), torch.ones(1, 2, dtype=torch.float64))
except RuntimeError as e:
    print(e)
print(torch.zeros(2, 2).scatter(0, torch.tensor([[1, 0]]), torch.ones(1, 2)))
print(torch.scatter(torch.zeros(2, 2, dtype=torch.int32), 0, torch.tensor([[1, 0]]), 1.7))
