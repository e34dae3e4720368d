# t.new_tensor, new_zeros, new_ones, new_full (in t's dtype unless given; requires_grad=), t.type() as PyTorch names
# it and t.type(torch.DoubleTensor) / t.type('torch.LongTensor') / t.type(torch.float64) converting.
import torch
x = torch.tensor([1.5, -2.0], requires_grad=True)
d = torch.ones(2, dtype=torch.float64)
print(x.new_tensor([1, 2]), d.new_tensor([1, 2]), x.new_zeros(2, 3), x.new_zeros((2,)), d.new_ones(2, dtype=torch.int64))
print(x.new_full((2,), 3.5), x.new_ones(3, requires_grad=True), x.new_tensor(x).requires_grad)
print(x.type(), d.type(), torch.tensor([1, 2]).type(), torch.tensor([True]).type())
y = x.type(torch.DoubleTensor)
print(y, x.type('torch.LongTensor'), x.type(torch.float64).dtype)
y.sum().backward()
print(x.grad)
