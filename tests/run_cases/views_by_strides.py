# Strides decide, as in PyTorch 2.13: .view of a transposed tensor is its RuntimeError, .reshape and .flatten of it a copy
# (CloneBackward0 under UnsafeViewBackward0), .contiguous() of it a clone; of a contiguous one, views (issue #21).
import torch
x = torch.arange(6.).reshape(2, 3)
for f in (lambda: x.t().view(-1), lambda: x.t().contiguous().view(-1), lambda: x.t().reshape(-1), lambda: x[:, 1:].view(-1), lambda: x[:, 1:].view(2, 2), lambda: x.t().view(3, 2), lambda: x.t().view(3, 1, 2), lambda: x.view(3, 2).t().flatten(), lambda: x.t().view_as(x.t())):
    try:
        print(f())
    except RuntimeError as e:
        print("caught", e)
x = torch.arange(6., requires_grad=True)
m = x.view(2, 3)
for f in (lambda: m.t().contiguous(), lambda: m.t().contiguous().view(-1), lambda: m.contiguous(), lambda: m.t().reshape(-1),
          lambda: x[:3].view(3, 1).t().reshape(-1), lambda: m[:, ::2].contiguous(), lambda: m.t().t().contiguous(), lambda: m.t().flatten()):
    y = f()
    print(y.grad_fn, y.grad_fn.next_functions)
    y.sum().backward()
    print(x.grad)
    x.grad = None
