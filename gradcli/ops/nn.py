"""The rows of torch.nn.functional's losses (mse_loss, l1_loss, smooth_l1_loss, huber_loss,
binary_cross_entropy, binary_cross_entropy_with_logits) and of glu.

Each is a loss of (input, target) point by point, then reduced as `reduction` says ('mean',
the default; 'sum'; 'none': the losses themselves). A row gives its pointwise loss and its
two partial derivatives, in PyTorch's order of operations; `_loss` derives the rules. The
input and the target broadcast against each other, as in PyTorch; both take a gradient.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradcli.ops.core import Array, Op, Param, load_sympy, point_axes, structural

REDUCTION = Param("reduction", "str", "mean", choices=("none", "mean", "sum"))
Pointwise = Callable[..., Any]


def _reduce(losses: Array, rank: int, reduction: str) -> Array:
    """The losses of one point (its trailing `rank` axes) summed, averaged, or kept."""
    if reduction == "none":
        return np.asarray(losses)
    total = np.sum(losses, axis=tuple(range(-rank, 0)))
    return np.asarray(total if reduction == "sum" else total / _count(np.shape(losses), rank))


def _count(shape: tuple[int, ...], rank: int) -> int:
    """The number of losses at one point: the trailing `rank` axes of `shape`."""
    return int(np.prod(shape[len(shape) - rank:], dtype=np.int64))


def _upstream(g: Array, shape: tuple[int, ...], rank: int, reduction: str) -> Array:
    """The cotangent of each pointwise loss (of `shape`): g itself, or g spread back over the point."""
    if reduction != "none":
        g = np.reshape(g, np.shape(g) + (1,) * rank)
        if reduction == "mean":
            g = g / _count(shape, rank)
    return np.broadcast_to(g, shape)


def _loss(name: str, loss: Pointwise, partials: Pointwise, torch_node: str, sympy: Pointwise,
          params: tuple[Param, ...] = (), divides_last: bool = False, **fields: Any) -> Op:
    """A loss row from loss(a, b, **params) and partials(g, a, b, **params) -> (d/da, d/db), g
    the cotangent of each pointwise loss (PyTorch's backward kernels take it inside).
    `divides_last`: PyTorch divides the partials by the count for 'mean', not g first (the
    bits differ where a partial is subnormal)."""

    def forward(a: Array, b: Array, ranks: tuple[int, ...], reduction: str = "mean", **given: Any) -> Array:
        return _reduce(loss(a, b, **given), max(ranks), reduction)

    def vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], reduction: str = "mean",
            **given: Any) -> tuple[Array, Array]:
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
        if not (divides_last and reduction == "mean"):
            return partials(_upstream(g, shape, max(ranks), reduction), a, b, **given)
        count = _count(shape, max(ranks))
        return tuple(part / count for part in partials(_upstream(g, shape, max(ranks), "sum"), a, b, **given))

    def jvp(tangents: Any, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], reduction: str = "mean",
            **given: Any) -> Array:
        ones = np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)))
        da, db = partials(ones, a, b, **given)
        ta, tb = tangents
        change = sum(part * t for part, t in ((da, ta), (db, tb)) if t is not None)
        return _reduce(change * ones, max(ranks), reduction)  # (* ones: the losses' shape, whichever tangent)

    def shape(sa: tuple[int, ...], sb: tuple[int, ...], reduction: str = "mean", **given: Any) -> tuple[int, ...]:
        both = np.broadcast_shapes(sa, sb)  # (ValueError where they do not broadcast)
        return both if reduction == "none" else ()

    def build(a: Array, b: Array, reduction: str = "mean", **given: Any) -> Array:
        losses = np.frompyfunc(lambda x, y: sympy(x, y, **given), 2, 1)(a, b)
        if reduction == "none":
            return np.asarray(losses, dtype=object)
        total = load_sympy().Add(*np.asarray(losses).flat)
        return np.asarray(total if reduction == "sum" else total / max(np.size(losses), 1), dtype=object)

    return structural(name, 2, forward, vjp, torch_node, jvp=jvp, sympy=build, shape=shape, aligns=True,
                      params=(REDUCTION, *params), examples=_EXAMPLES, **fields)


_EXAMPLES: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = (
    (((4,), (4,)), {}), (((2, 3), (2, 3)), {"reduction": "sum"}), (((2, 3), (3,)), {"reduction": "none"}),
    (((), ()), {}), (((3,), ()), {"reduction": "sum"}))


# --- the pointwise losses and their partials, in PyTorch's order of operations --------------


def _mse(a: Array, b: Array) -> Array:
    return (a - b) ** 2


def _mse_partials(g: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # mse_loss_backward: 2 * (input - target) * grad; the target's swaps them (a tie gives 0.0 to both).
    return 2.0 * (a - b) * g, 2.0 * (b - a) * g


def _l1_partials(g: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # PyTorch's l1_loss is abs(input - target), then mean or sum: abs's backward (the sign, 0 at
    # 0 and at NaN), then sub's.
    x = a - b
    da = g * np.where(x != x, 0.0, np.sign(x))
    return da, -da


def _smooth_l1(a: Array, b: Array, beta: float = 1.0) -> Array:
    z = np.abs(a - b)
    return np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta) if beta > 0 else z


def _smooth_l1_slope(g: Array, x: Array, beta: float) -> Array:
    # smooth_l1_loss_backward: -g below -beta, g above beta, x * g / beta between.
    return np.where(x <= -beta, -g, np.where(x >= beta, g, x * g / beta))


def _smooth_l1_partials(g: Array, a: Array, b: Array, beta: float = 1.0) -> tuple[Array, Array]:
    # The target's is the same kernel with input and target swapped (derivatives.yaml); with
    # beta 0 PyTorch's smooth_l1_loss is l1_loss.
    if beta == 0:
        return _l1_partials(g, a, b)
    return _smooth_l1_slope(g, a - b, beta), _smooth_l1_slope(g, b - a, beta)


def _huber(a: Array, b: Array, delta: float = 1.0) -> Array:
    z = np.abs(a - b)
    return np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))


def _huber_slope(g: Array, x: Array, delta: float) -> Array:
    return np.where(x <= -delta, -g * delta, np.where(x >= delta, g * delta, x * g))


def _huber_partials(g: Array, a: Array, b: Array, delta: float = 1.0) -> tuple[Array, Array]:
    return _huber_slope(g, a - b, delta), _huber_slope(g, b - a, delta)


def _at_least_minus_100(log: Array) -> Array:
    # PyTorch's binary_cross_entropy clamps its logs at -100: log(0) costs 100, not infinity.
    return np.where(log < -100.0, -100.0, log)


def _bce(a: Array, b: Array) -> Array:
    # (target - 1) * max(log1p(-input), -100) - target * max(log(input), -100)
    return (b - 1.0) * _at_least_minus_100(np.log1p(-a)) - b * _at_least_minus_100(np.log(a))


_EPSILON = float(np.float32(1e-12))  # PyTorch's, a float: 9.99999996e-13


def _bce_partials(g: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # input: g * (input - target) / max((1 - input) * input, epsilon); target: -logit(input) * g
    scale = (1.0 - a) * a
    da = g * (a - b) / np.where(scale < _EPSILON, _EPSILON, scale)
    return da, -np.log(a / (1.0 - a)) * g


def _log_sigmoid(x: Array) -> Array:
    return np.where(x < 0, x, 0.0) - np.log1p(np.exp(-np.abs(x)))


def _bce_logits(a: Array, b: Array) -> Array:
    # (1 - target) * input - log_sigmoid(input)
    return (1.0 - b) * a - _log_sigmoid(a)


def _bce_logits_partials(g: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # input: (sigmoid(input) - target) * g; target: -input * g
    e = np.exp(np.where(a < 0, a, -a))
    sigmoid = np.where(a < 0, e / (1.0 + e), 1.0 / (1.0 + e))
    return (sigmoid - b) * g, -a * g


def _sympy_smooth_l1(a: Any, b: Any, beta: float = 1.0) -> Any:
    sympy = load_sympy()
    z = sympy.Abs(a - b)
    return sympy.Piecewise((z * z / (2 * beta), z < beta), (z - beta / 2, True)) if beta > 0 else z


def _sympy_huber(a: Any, b: Any, delta: float = 1.0) -> Any:
    sympy = load_sympy()
    z = sympy.Abs(a - b)
    return sympy.Piecewise((z * z / 2, z < delta), (delta * (z - delta / 2), True))


def _l1_node(constant: Any, shapes: Any, reduction: str = "mean", **given: Any) -> str:
    # l1_loss (and smooth_l1_loss with beta=0) is a composition in PyTorch: abs, then mean or sum.
    return {"none": "AbsBackward0", "sum": "SumBackward0", "mean": "MeanBackward0"}[reduction]


def _smooth_l1_node(constant: Any, shapes: Any, reduction: str = "mean", beta: float = 1.0) -> str:
    return _l1_node(constant, shapes, reduction) if beta == 0 else "SmoothL1LossBackward0"


# --- glu: the first half of x along dim, gated by the sigmoid of the second half --------------


def _halves(x: Any, rank: int, dim: int) -> tuple[Any, Any, int]:
    """x's two halves along `dim` (np.take: dual numbers go through it), and that axis."""
    (axis,) = point_axes(dim, rank)
    size = np.shape(x)[axis]
    if size % 2:
        raise ValueError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    half = size // 2
    return np.take(x, np.arange(half), axis=axis), np.take(x, np.arange(half, size), axis=axis), axis


def _gate(b: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-b))  # PyTorch's glu kernel's sigmoid


def _glu(x: Array, ranks: tuple[int, ...], dim: int = -1) -> Array:
    a, b, _ = _halves(x, ranks[0], dim)
    return np.asarray(a * _gate(b))


def _glu_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: int = -1) -> tuple[Array]:
    # glu_backward: g * sigmoid(b) for a, (1 - sigmoid(b)) * sigmoid(b) * a * g for b, put back
    # side by side (np.take and np.where rather than np.concatenate: dual numbers go through).
    a, b, axis = _halves(x, ranks[0], dim)
    gate = _gate(b)
    size = np.shape(x)[axis]
    twice = np.arange(size) % (size // 2)
    first = np.reshape(np.arange(size) < size // 2, (size,) + (1,) * (-axis - 1))
    return (np.where(first, np.take(g * gate, twice, axis=axis), np.take((1.0 - gate) * gate * a * g, twice, axis=axis)),)


def _glu_jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: int = -1) -> Array:
    a, b, _ = _halves(x, ranks[0], dim)
    ta, tb, _ = _halves(tangents[0], ranks[0], dim)
    gate = _gate(b)
    return np.asarray(ta * gate + (1.0 - gate) * gate * a * tb)


def _glu_shape(shape: tuple[int, ...], dim: int = -1) -> tuple[int, ...]:
    (axis,) = point_axes(dim, len(shape))
    if not shape or shape[axis] % 2:
        raise ValueError(f"glu halves dim {dim}: its size must be even")
    return tuple(size // 2 if i == len(shape) + axis else size for i, size in enumerate(shape))


def _sympy_glu(x: Array, dim: int = -1) -> Array:
    a, b, _ = _halves(x, x.ndim, dim)
    exp = load_sympy().exp
    return np.asarray(np.frompyfunc(lambda p, q: p / (1 + exp(-q)), 2, 1)(a, b), dtype=object)


_PROBABILITIES = ((0.1, 0.9), (0.0, 1.0))

ROWS = [
    _loss("mse_loss", _mse, _mse_partials, "MseLossBackward0", lambda a, b: (a - b) ** 2),
    _loss("l1_loss", lambda a, b: np.abs(a - b), _l1_partials, "MeanBackward0", lambda a, b: load_sympy().Abs(a - b),
          torch_node_rule=_l1_node, kinked=True),
    _loss("smooth_l1_loss", _smooth_l1, _smooth_l1_partials, "SmoothL1LossBackward0", _sympy_smooth_l1,
          params=(Param("beta", "float", 1.0),), torch_node_rule=_smooth_l1_node, kinked=True),
    _loss("huber_loss", _huber, _huber_partials, "HuberLossBackward0", _sympy_huber,
          params=(Param("delta", "float", 1.0),), kinked=True),
    _loss("binary_cross_entropy", _bce, _bce_partials, "BinaryCrossEntropyBackward0",
          lambda a, b: -(b * load_sympy().log(a) + (1 - b) * load_sympy().log(1 - a)), divides_last=True,
          domain=_PROBABILITIES),
    _loss("binary_cross_entropy_with_logits", _bce_logits, _bce_logits_partials,
          "BinaryCrossEntropyWithLogitsBackward0",
          lambda a, b: (1 - b) * a + load_sympy().log(1 + load_sympy().exp(-a)), divides_last=True,
          domain=((-3.0, 3.0), (0.0, 1.0))),
    structural("glu", 1, _glu, _glu_vjp, "GluBackward0", jvp=_glu_jvp, sympy=_sympy_glu, shape=_glu_shape,
               params=(Param("dim", "int", -1),),
               examples=((((4,),), {}), (((2, 4),), {}), (((4, 2),), {"dim": 0}), (((2, 2, 3),), {"dim": 1}))),
]
