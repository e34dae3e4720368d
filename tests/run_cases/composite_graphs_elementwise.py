import torch
import torch.nn.functional as F
# softsign and tanhshrink are recorded as the few nodes they are made of.
x = torch.tensor([-2.0, 0.5, 1.0], requires_grad=True)
s = F.softsign(x)
print(s)
print(s.grad_fn)
print(s.grad_fn.next_functions)
print(s.grad_fn.next_functions[1][0].next_functions)
print(s.grad_fn.next_functions[1][0].next_functions[0][0].next_functions)
s.sum().backward()
print(x.grad)
x.grad = None
t = F.tanhshrink(x)
print(t)
print(t.grad_fn)
print(t.grad_fn.next_functions)
print(t.grad_fn.next_functions[1][0].next_functions)
t.sum().backward()
print(x.grad)
