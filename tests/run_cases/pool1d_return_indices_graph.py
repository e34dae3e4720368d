import torch
import torch.nn.functional as F
x = torch.tensor([[[1., 3., 2., 5., 4., 0.]]], requires_grad=True)
v, i = F.max_pool1d(x, 2, return_indices=True)
print(v, i)
print(v.grad_fn, v.grad_fn.next_functions, v.grad_fn.next_functions[0][0].next_functions)
a, j = F.adaptive_max_pool1d(x[0], 3, return_indices=True)
print(a, j, a.grad_fn.next_functions)
(v.sum() + a.sum()).backward()
print(x.grad)
