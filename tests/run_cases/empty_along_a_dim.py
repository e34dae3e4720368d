# Reductions along a dim of no values answer as PyTorch's do (they said NumPy's errors in PyTorch's voice, or
# refused): softmax/softmin/log_softmax of nothing, trapezoid's zeros of no graph, cumulative_trapezoid's empty
# cumsum, cond of a matrix of no entries (zeros of no graph).
import torch
import torch.nn.functional as F
a = torch.zeros((0,), dtype=torch.float64, requires_grad=True)
b = torch.zeros((0, 3), requires_grad=True)
for f in (F.softmin(a, dim=0), F.softmax(a, dim=0), F.log_softmax(b, dim=1), torch.softmax(b, 0), b.log_softmax(-1)):
    print(f, f.grad_fn)
(F.softmin(a, dim=0).sum() + F.log_softmax(b, dim=1).sum()).backward()
print(a.grad, b.grad)
a = torch.zeros((0,), dtype=torch.float64, requires_grad=True)
b = torch.zeros((0, 3), requires_grad=True)
for out in (torch.trapezoid(a), torch.cumulative_trapezoid(a), torch.trapezoid(b), torch.trapezoid(b, dim=0),
            torch.cumulative_trapezoid(b, dim=0), torch.trapezoid(b, dx=2.0, dim=0), torch.trapz(a),
            torch.trapezoid(a, torch.zeros(0, dtype=torch.float64)), torch.cumulative_trapezoid(b, dim=1)):
    print(out, out.grad_fn, out.requires_grad, out.shape)
c = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.trapezoid(c), torch.cumulative_trapezoid(c), torch.cumulative_trapezoid(c[:1]))
torch.cumulative_trapezoid(a).sum().backward()
print(a.grad)
for shape in ((0, 2), (0, 3), (0, 0), (2, 0), (3, 0, 2), (2, 2, 0)):
    a = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    out = torch.linalg.cond(a)
    print(out, out.grad_fn, out.shape)
print(torch.linalg.cond(torch.tensor([[1., 2.], [3., 4.]])))
