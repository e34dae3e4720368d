import torch
# A Python number where PyTorch's signature has a Tensor (issue #21): its parser takes one for a few functions
# alone (add, sub, mul, div ...) or where an overload takes a Number (pow, where, clamp, eq, fmod, xlogy ...); every
# other call is its TypeError, in its words (torch.maximum(x, 0): a bare max(x, 0) is the formula language's).
a = torch.tensor([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]], dtype=torch.float64, requires_grad=True)
calls = [
    lambda: torch.maximum(a, 0),
    lambda: a.maximum(0),
    lambda: torch.minimum(a, 1.0),
    lambda: torch.atan2(a, 1.0),
    lambda: a.atan2(1.0),
    lambda: torch.hypot(a, 2.0),
    lambda: torch.dist(a, 0),
    lambda: torch.fmax(a, 0.0),
    lambda: torch.dot(a[0], 1.0),
    lambda: torch.ldexp(a, 2),
    lambda: torch.logaddexp(a, 0.0),
    lambda: torch.heaviside(a, 0.5),
    lambda: torch.trapezoid(a, 0),
    lambda: torch.cumulative_trapezoid(a, 0),
    lambda: torch.trapezoid(a, dx=0.5),
    lambda: torch.add(a, 1),
    lambda: torch.mul(a, 2),
    lambda: torch.div(a, 2),
    lambda: torch.true_divide(a, 2),
    lambda: torch.floor_divide(a, 2),
    lambda: torch.pow(a, 2),
    lambda: torch.pow(2, a),
    lambda: torch.where(a > 0, a, 0.),
    lambda: torch.where(a > 0, 1.0, a),
    lambda: torch.clamp(a, 0, 1),
    lambda: torch.fmod(a, 2),
    lambda: torch.remainder(a, 2),
    lambda: torch.eq(a, 1),
    lambda: torch.lerp(a, a * 2, 0.5),
    lambda: torch.masked_fill(a, a > 0, 0.0),
    lambda: a.add(1),
    lambda: a.pow(2),
    lambda: a.where(a > 0, 0.0),
]
for call in calls:
    try:
        print(call())
    except TypeError as error:
        print("TypeError:", error)
