import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
s = a + b
s.backward()
s.backward()
print(a.grad)
z = a * b
z.backward()
print(a.grad, b.grad)
z.backward()
