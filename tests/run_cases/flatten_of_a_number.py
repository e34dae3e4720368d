# Found by fuzz/programs.py: torch.flatten of a 0-d tensor with a graph (a loss, a norm) is a view of it, one element
# (ViewBackward0, as reshape(1) is), not a copy; its gradient reaches the input, and a write through it too.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
n = x.norm()
s = (x * x).sum()
for out in (n.flatten(), torch.flatten(s), s.reshape(1), x.triu(1).norm().flatten(), x[0, 1].flatten(), s.ravel()):
    print(out, out.shape, out.grad_fn.next_functions)
(n.flatten() * 3).sum().backward()
print(x.grad)
with torch.no_grad():
    t = torch.tensor(2.0)
    v = t.flatten()
    v[0] = 5.0
print(t, v)
e = x[0, 1]
print(e.reshape(1), e.view(1), e.flatten(), x[1][0].flatten(), e.unsqueeze(0), e.reshape(1, 1), x[:, 1:].t()[0, 1:].view(1))
print(x.t()[0, 1:].view(1, 1).grad_fn, x[0, 1].view(-1).grad_fn)
