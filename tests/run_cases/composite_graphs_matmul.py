import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
W = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
y = x @ W
print(y.grad_fn, y.grad_fn.next_functions)
b = torch.ones(2, 2, 3, requires_grad=True)
z = (b @ W)
print(z.grad_fn, z.grad_fn.next_functions)
z.sum().backward()
print(torch.mv(W.T, x).grad_fn, torch.dot(x, x).grad_fn)
print(torch.hstack([x, x]).grad_fn.next_functions, torch.column_stack([x, x]).grad_fn.next_functions)
print(torch.dstack([W, W]).grad_fn.next_functions)
r = W.repeat_interleave(2, dim=0)
print(r.grad_fn, r.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
