# Found by fuzz/programs.py: a second backward without retain_graph=True raises only where a node of the graph saved a
# tensor for its backward (PyTorch frees those: x * 3 saves the 3 as a tensor); a graph of nodes that save none (sign,
# select, narrow, stack, sum, sub, add, view, t, floor, round, frac, flip, cumsum, a dtype cast) runs again and its gradients accumulate.
import torch

f = torch.tensor([[[-2.0, 2.0, -1.5]], [[-1.5, -1.0, 0.0]]], requires_grad=True)
y = f.sign()
z = torch.stack([y.narrow(0, 1, 1), y.narrow(0, 0, 1)], dim=2)
loss = (z - y.select(1, 0)).sum()
loss.backward()
loss.backward()
print(f.grad)
x = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.5, 0.25, 2.0], dtype=torch.float64, requires_grad=True)
graphs = [lambda: (x + 1 - x[0]).sum() + x.view(3, 1).t().sum(), lambda: (x * 3).sum(), lambda: (x * w.detach()).sum(),
          lambda: (w.detach() * x).sum(), lambda: (x / 2).sum(), lambda: x.exp().sum(), lambda: x.relu().sum(),
          lambda: x.abs().sum(), lambda: torch.cat([x, x]).sum(), lambda: x.mean(), lambda: (-x).sum(),
          lambda: x.expand(2, 3).sum(), lambda: x[[0, 2]].sum(), lambda: torch.where(x > 0, x, 0.0).sum(),
          lambda: x.masked_fill(x > 0, 1.0).sum(), lambda: x.floor().sum(), lambda: x.ceil().sum(), lambda: x.round().sum(),
          lambda: x.round(decimals=1).sum(), lambda: x.trunc().sum(), lambda: x.frac().sum(), lambda: x.sgn().sum(),
          lambda: x.clone().sum(), lambda: x.flip(0).sum(), lambda: x.roll(1).sum(), lambda: x.repeat(2).sum(),
          lambda: x.cumsum(0).sum(), lambda: x.float().sum(), lambda: x.clamp(0, 1).sum(), lambda: x.max()]
for make in graphs:
    x.grad = None
    out = make()
    out.backward()
    try:
        out.backward()
        print(out.grad_fn.next_functions, x.grad)
    except RuntimeError as e:
        print(out.grad_fn.next_functions, "RuntimeError:", str(e)[:60])
e = x.exp().sum()
e.backward()
e.backward()
