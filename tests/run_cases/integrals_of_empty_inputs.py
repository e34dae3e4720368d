# trapezoid / cumulative_trapezoid of empty inputs, as PyTorch answers them (#21): no samples along dim is zeros of no
# graph; an x of more dims than y is sliced along y's dim (wrapped by y's dims), its empty steps a graph of zeros
import torch

y = torch.tensor([0.5, -1.25, 2.0, 0.75], dtype=torch.float64, requires_grad=True)
x = torch.zeros((0, 3), dtype=torch.float64, requires_grad=True)
for f in (torch.trapezoid, torch.cumulative_trapezoid):
    out = f(y, x)
    print(out, out.shape, out.grad_fn.name(), [n[0].name() for n in out.grad_fn.next_functions])
    out.sum().backward()
    print(y.grad, x.grad.shape)
    y.grad = None
    x.grad = None
empty = torch.zeros(0, dtype=torch.float64, requires_grad=True)
print(torch.trapezoid(empty), torch.trapezoid(empty).grad_fn, torch.trapezoid(empty, y).grad_fn)
print(torch.trapezoid(torch.zeros(2, 0, dtype=torch.float64), dim=1), torch.cumulative_trapezoid(empty))
