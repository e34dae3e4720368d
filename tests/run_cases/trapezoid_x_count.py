# trapezoid / cumulative_trapezoid with positions x: PyTorch's words where x has another count than the samples along
# dim, and trapezoid of no samples along dim is zeros (no graph) before x is looked at; cumulative_trapezoid checks x.
import torch
z = lambda *s: torch.full(s, 0.5, dtype=torch.float64, requires_grad=True)
for f in (lambda: torch.trapezoid(z(4), z(0)), lambda: torch.trapezoid(z(0), z(4)), lambda: torch.trapezoid(z(0, 3), z(4)),
          lambda: torch.cumulative_trapezoid(z(0), z(4)), lambda: torch.cumulative_trapezoid(z(3), z(4)),
          lambda: torch.trapezoid(z(2, 0), z(3), dim=-1), lambda: torch.trapezoid(z(0)), lambda: torch.trapezoid(z(2, 3), z(3), dim=1)):
    try:
        out = f()
        print(out, out.grad_fn)
    except Exception as e:
        print(type(e).__name__, e)
