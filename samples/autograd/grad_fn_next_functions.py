import torch
a = torch.tensor(2., requires_grad=True)
b = torch.tensor(6., requires_grad=True)
O = 3*a**3
P = b**2
Q = O - P
grads = torch.autograd.grad(Q, [a, b])
print(grads[0])
print(Q.grad_fn)
print(Q.grad_fn.next_functions)
print(O.grad_fn.next_functions)
