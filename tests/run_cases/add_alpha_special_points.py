# add/sub(alpha=) at special points, with a graph: zeros of both signs, inf, NaN, tiny and huge magnitudes, alpha 0,
# -0.0, inf, NaN and huge (a float64 alpha = 0 against 1e300 leaves x itself: the fused product is an exact zero), and
# an alpha past float32's range for a float32 result (PyTorch's "value cannot be converted ... without overflow").
import torch
for dtype in [torch.float32, torch.float64]:
    x = torch.tensor([0.0, -0.0, float('inf'), float('nan'), 1e-300 if dtype == torch.float64 else 1e-38, 3.0], dtype=dtype, requires_grad=True)
    y = torch.tensor([0.0, 0.0, 1.0, 2.0, 1e300 if dtype == torch.float64 else 3e38, -float('inf')], dtype=dtype, requires_grad=True)
    for alpha in [0, -0.0, float("inf"), float("nan"), 1e308 if dtype == torch.float64 else 3e38, -2]:
        z = torch.add(x, y, alpha=alpha)
        s = torch.sub(x, y, alpha=alpha)
        (z + s).sum().backward()
        print(alpha, z.tolist(), s.tolist(), x.grad.tolist(), y.grad.tolist())
        x.grad = None; y.grad = None
    w = x * 1
    w.add_(y, alpha=0.5)
    print(w.tolist(), w.grad_fn)
    e = torch.empty(0, dtype=dtype, requires_grad=True) * 1
    e.sub_(torch.empty(0, dtype=dtype), alpha=3)
    e.lt_(0.0)
    print(e, e.grad_fn)
for alpha in [1e308, -1e39]:
    try:
        torch.add(torch.ones(2), torch.ones(2), alpha=alpha)
    except RuntimeError as error:
        print("RuntimeError:", error)
print(torch.add(torch.ones(2), torch.ones(2), alpha=float("inf")), torch.add(torch.ones(2, dtype=torch.float64), 1.0, alpha=1e308))
