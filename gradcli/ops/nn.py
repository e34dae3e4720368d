"""The rows of torch.nn.functional's losses (mse_loss, l1_loss, smooth_l1_loss, huber_loss,
binary_cross_entropy, binary_cross_entropy_with_logits) and of glu.

Each is a loss of (input, target) point by point, then reduced as `reduction` says ('mean',
the default; 'sum'; 'none': the losses themselves). A row gives its pointwise loss and its
two partial derivatives, in PyTorch's order of operations; `_loss` derives the rules. The
input and the target broadcast against each other, as in PyTorch; both take a gradient.

Each loss row's params are torch.nn.functional's whole signature in its order (F_LOSS), the legacy
size_average and reduce included, which the lowering folds into `reduction` as PyTorch does:
F.mse_loss(a, b, False) is a sum.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from gradcli.ops import float32, float64
from gradcli.ops.core import (
    BOOL_SUBTRACTION,
    UNCASTABLE,
    Array,
    Dialect,
    Op,
    Param,
    PythonValueError,
    Rule,
    Shape,
    Unsupported,
    ValueRefusal,
    composite,
    kernel_refusal,
    load_sympy,
    point_axes,
    structural,
    unbroadcast,
)
from gradcli.ops.float32 import fma64
from gradcli.ops.linalg import _mismatch
from gradcli.ops.reductions import _norm, _norm_vjp
from gradcli.ops.summation import torch_sum

# (get_enum's: 'elementwise_mean', its deprecated alias of 'mean', warns)
ELEMENTWISE_MEAN = ("elementwise_mean", "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                    "mean", False)
REDUCTION = Param("reduction", "str", "mean", choices=("none", "mean", "sum", "elementwise_mean"),
                  refused=("ValueError", "{value} is not a valid value for reduction"), warned=(ELEMENTWISE_MEAN,))
# the reduction of a loss that checks it in Python before get_enum could read 'elementwise_mean' (poisson_nll_loss's)
STRICT_REDUCTION = REDUCTION._replace(choices=("none", "mean", "sum"), warned=())
# torch.nn.functional's legacy args of every loss but huber's and gaussian_nll's (lowering.legacy_reduction)
SIZE_AVERAGE, REDUCE = Param("size_average", "legacy"), Param("reduce", "legacy")
LEGACY = (SIZE_AVERAGE, REDUCE, REDUCTION)
# the weight that F.mse_loss, l1_loss, huber_loss and binary_cross_entropy take and gradcli does not; PyTorch reads
# its size first
WEIGHT_ABSENT = Param("weight", "absent", refused=("AttributeError", "'{type}' object has no attribute 'size'"))
# a loss called as torch.nn.functional's Python function: its args bind as that signature binds them (the rows' params)
F_LOSS = (Dialect("nn", whole=True),)


def aten_loss(*order: str, **fields: Any) -> Dialect:
    """A loss spelled torch.NAME: ATen's function, its params by position in this order, then its reduction (an int
    enum there, which gradcli does not take: 'mean' is 1), 'none' where it is left out (torch.kl_div(a, b) is
    elementwise, F.kl_div(a, b) the mean), and no legacy args."""
    return Dialect("torch", order=(*order, "reduction"), defaults=(("reduction", "none"),),
                   refuses=("size_average", "reduce"), **fields)
Pointwise = Callable[..., Any]


def _reduce(losses: Array, rank: int, reduction: str) -> Array:
    """The losses of one point (its trailing `rank` axes) summed, averaged, or kept."""
    if reduction == "none":
        return np.asarray(losses)
    total = torch_sum(losses, tuple(range(np.ndim(losses) - rank, np.ndim(losses))))  # (float32: in PyTorch's order)
    return np.asarray(total if reduction == "sum" else total / _count(np.shape(losses), rank, reduction))


def _count(shape: tuple[int, ...], rank: int, reduction: str = "mean") -> int:
    """What 'mean' divides by: the number of losses at one point (the trailing `rank` axes of
    `shape`); kl_div's 'batchmean': the size of its first axis."""
    if reduction == "batchmean":
        return shape[len(shape) - rank] if rank else 1
    return int(np.prod(shape[len(shape) - rank:], dtype=np.int64))


def _upstream(g: Array, shape: tuple[int, ...], rank: int, reduction: str) -> Array:
    """The cotangent of each pointwise loss (of `shape`): g itself, or g spread back over the point."""
    if reduction != "none":
        g = np.reshape(g, np.shape(g) + (1,) * rank)
        if reduction in ("mean", "batchmean"):
            g = g / _count(shape, rank, reduction)
    return np.broadcast_to(g, shape)


# PyTorch's loss kernels that take their input and target in one dtype: forward (binary_cross_entropy's) or in their
# backward (huber_loss's)
_FOUND = ("mixed 0 1", "RuntimeError", "Found dtype {1} but expected {0}")
_FOUND_INTO = (("mixed 0 1 into 0 1", *_FOUND[1:]),)


def _loss(name: str, loss: Pointwise, partials: Pointwise, torch_node: str, sympy: Pointwise,
          params: tuple[Param, ...] = LEGACY, divides_last: bool = False,
          examples: Any = None, same_size: str = "", **fields: Any) -> Op:
    """A loss row from loss(a, b, **params) and partials(g, a, b, **params) -> (d/da, d/db), g
    the cotangent of each pointwise loss (PyTorch's backward kernels take it inside). `params`: torch.nn.functional's
    after the input and the target, in its order.
    `divides_last`: PyTorch divides the partials by the count for 'mean', not g first (the
    bits differ where a partial is subnormal). `same_size`: torch.nn.functional's ValueError where the target's
    size is not the input's ({target} and {input} their torch.Size), raised where the two do not broadcast: where
    they do, gradcli broadcasts them as it always has (PyTorch refuses those too)."""

    def forward(a: Array, b: Array, ranks: tuple[int, ...], reduction: str = "mean", **given: Any) -> Array:
        return _reduce(loss(a, b, **given), max(ranks), reduction)

    def vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], reduction: str = "mean",
            **given: Any) -> tuple[Any, ...]:
        shape = np.broadcast_shapes(np.shape(a), np.shape(b))
        if not (divides_last and reduction == "mean"):
            return partials(_upstream(g, shape, max(ranks), reduction), a, b, **given)
        count = _count(shape, max(ranks))
        return tuple(None if part is None else part / count
                     for part in partials(_upstream(g, shape, max(ranks), "sum"), a, b, **given))

    def jvp(tangents: Any, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], reduction: str = "mean",
            **given: Any) -> Array:
        ones = np.ones(np.broadcast_shapes(np.shape(a), np.shape(b)))
        da, db = partials(ones, a, b, **given)
        ta, tb = tangents
        change = sum(part * t for part, t in ((da, ta), (db, tb)) if t is not None and part is not None)
        return _reduce(change * ones, max(ranks), reduction)  # (* ones: the losses' shape, whichever tangent)

    def shape(sa: tuple[int, ...], sb: tuple[int, ...], reduction: str = "mean", **given: Any) -> tuple[int, ...]:
        try:
            both = np.broadcast_shapes(sa, sb)  # (ValueError where they do not broadcast)
        except ValueError:
            if not same_size:
                raise
            raise PythonValueError(same_size.format(target=f"torch.Size({list(sb)})", input=f"torch.Size({list(sa)})")
                                   ) from None
        return both if reduction == "none" else ()

    def build(a: Array, b: Array, reduction: str = "mean", **given: Any) -> Array:
        losses = np.frompyfunc(lambda x, y: sympy(x, y, **given), 2, 1)(a, b)
        if reduction == "none":
            return np.asarray(losses, dtype=object)
        total = load_sympy().Add(*np.asarray(losses).flat)
        count = max(np.size(losses), 1) if reduction == "mean" else _count(np.shape(losses), np.ndim(losses), reduction)
        return np.asarray(total if reduction == "sum" else total / count, dtype=object)

    fields = {"inputs": ("input", "target"), "dialects": F_LOSS, **fields}
    return structural(name, 2, forward, vjp, torch_node, jvp=jvp, sympy=build, shape=shape, aligns=True,
                      params=params, examples=examples or _EXAMPLES, **fields)


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
    # PyTorch's kernel checks each element's input, then its target, in order (NaN is outside [0, 1])
    x, y = np.broadcast_arrays(*(np.asarray(getattr(v, "primal", v)) for v in (a, b)))
    bad_x, bad_y = ~((x >= 0) & (x <= 1)), ~((y >= 0) & (y <= 1))
    if np.any(bad_x | bad_y):
        first = np.argmax((bad_x | bad_y).ravel())
        raise ValueRefusal(f"all elements of {'input' if bad_x.ravel()[first] else 'target'} should be between 0 and 1")
    return (b - 1.0) * _at_least_minus_100(np.log1p(-a)) - b * _at_least_minus_100(np.log(a))


_EPSILON = float(np.float32(1e-12))  # PyTorch's, a float: 9.99999996e-13


def _bce_partials(g: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # input: g * (input - target) / max((1 - input) * input, epsilon); target: -logit(input) * g
    scale = (1.0 - a) * a
    da = g * (a - b) / np.where(scale < _EPSILON, _EPSILON, scale)
    return da, -np.log(a / (1.0 - a)) * g


def _log_sigmoid(x: Array) -> Array:
    if type(x) is np.ndarray and x.dtype == np.float32:  # (PyTorch's float32 kernel: SLEEF's expf and log1pf)
        return float32.log_sigmoid(x)[0]
    return np.where(x < 0, x, 0.0) - np.log1p(np.exp(-np.abs(x)))


def _bce_logits(a: Array, b: Array) -> Array:
    # PyTorch's (1 - target).mul_(input).sub_(log_sigmoid(input)): in place, so each step rounds to (1 - target)'s
    # dtype (`gradcli run` hands a and b in their own dtypes: Op.dtype "target")
    loss = 1.0 - np.asarray(b)
    loss = np.asarray(loss * a).astype(loss.dtype, copy=False)
    return np.asarray(loss - _log_sigmoid(a)).astype(loss.dtype, copy=False)


def _bce_logits_partials(g: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # input: input.sigmoid().sub_(target).mul_(g), in place: in the input's dtype, its sigmoid torch.sigmoid's
    # (a float32 input's, PyTorch's float32 kernel); target: -input * g
    if type(a) is np.ndarray and a.dtype == np.float32 and a.ndim:
        sigmoid = float32.sigmoid(a)
        return ((sigmoid - b).astype(np.float32) * g).astype(np.float32), -a * g
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
    if not shape:  # (PyTorch's words)
        raise ValueError("glu does not support scalars because halving size must be even")
    (axis,) = point_axes(dim, len(shape))
    if shape[axis] % 2:
        raise ValueError(f"Halving dimension must be even, but dimension {len(shape) + axis} is size {shape[axis]}")
    return tuple(size // 2 if i == len(shape) + axis else size for i, size in enumerate(shape))


def _sympy_glu(x: Array, dim: int = -1) -> Array:
    a, b, _ = _halves(x, x.ndim, dim)
    exp = load_sympy().exp
    return np.asarray(np.frompyfunc(lambda p, q: p / (1 + exp(-q)), 2, 1)(a, b), dtype=object)


def _kl_node(constant: Any, shapes: Any, reduction: str = "mean", log_target: bool = False) -> str:
    if reduction == "none":
        return "MulBackward0" if log_target else "SubBackward0"
    if reduction == "batchmean" and shapes and not shapes[0]:  # (a 0-d input: no batch to divide by)
        return "SumBackward0"
    return {"sum": "SumBackward0", "mean": "MeanBackward0", "batchmean": "DivBackward0"}[reduction]


_PROBABILITIES = ((0.1, 0.9), (0.0, 1.0))


# The losses PyTorch writes as compositions, recorded as their parts (Op.program).
def _reduced(emit: Any, losses: Any, reduction: str) -> Any:
    return losses if reduction == "none" else emit(reduction, losses)  # "mean", "sum": MeanBackward0, SumBackward0


def _l1_program(emit: Any, a: Any, b: Any, reduction: str = "mean") -> Any:
    return _reduced(emit, emit("abs", emit("sub", a, b)), reduction)


# F.kl_div's warning where its reduction is 'mean' (its default): the mean over every element is not the KL divergence
_KL_MEAN = ("mean", "reduction: 'mean' divides the total loss by both the batch size and the support size.'batchmean' "
                    "divides only by the batch size, and aligns with the KL div math definition.'mean' will be changed "
                    "to behave the same as 'batchmean' in the next major release.", "mean", True)


def _kl_program(emit: Any, a: Any, b: Any, reduction: str = "mean", log_target: bool = False) -> Any:
    # exp(target) * (target - input), or xlogy(target, target) - target * input; batchmean: the sum
    # over input.size(0)
    # (each product's right operand made first, as PyTorch's C++ build evaluates them: its nodes' sequence numbers, so
    # the order its backward runs them in and adds a gradient of target's up)
    if log_target:
        difference = emit("sub", b, a)
        losses = emit("mul", emit("exp", b), difference)
    else:
        product = emit("mul", b, a)
        losses = emit("sub", emit("xlogy", b, b), product)
    if reduction == "batchmean" and emit.shape(a) != ():  # (a 0-d input's batchmean is its sum: PyTorch's kl_div)
        return emit("div", emit("sum", losses), emit("size", a, dim=0))
    if reduction == "batchmean":
        return emit("sum", losses)
    return _reduced(emit, losses, reduction)

# --- binary_cross_entropy_with_logits with weight= and pos_weight= ----------------------------
# PyTorch's (Loss.cpp): log_sigmoid(input), times (pos_weight - 1) * target + 1 where a pos_weight is given;
# (1 - target) * input minus that, times the weight; then reduced. One node, BinaryCrossEntropyWithLogitsBackward0,
# whose gradients reach the input and the target alone: PyTorch refuses a weight that requires grad (and lists
# neither weight among the node's next functions); gradcli's formula language gives them theirs.


def _bce_weighted(a: Array, b: Array, w: Array, pw: Array, positive: bool) -> Array:
    # (each step in place, in the dtype of what it writes into: `gradcli run` hands the args in their own dtypes)
    log_sigmoid = _log_sigmoid(a)
    if positive:
        log_sigmoid = _into(log_sigmoid * ((pw - 1) * b + 1), log_sigmoid)
    loss = 1.0 - b
    loss = _into(loss * a, loss)
    loss = _into(loss - log_sigmoid, loss)
    return _into(loss * w, loss)


def _into(value: Any, like: Any) -> Any:
    """`value` written into an array like `like`, in place: in its dtype (a dual or recorded value as it is)."""
    if isinstance(like, (np.ndarray, np.generic)) and isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value).astype(like.dtype, copy=False)
    return value


def _bce_weighted_partials(g: Array, a: Array, b: Array, w: Array, pw: Array, positive: bool) -> tuple[Any, ...]:
    """d/d(input, target, weight, pos_weight) of each loss times g (PyTorch's backward kernels: the input's
    ((t + 1 - target) * sigmoid(input) - t) * g * weight, t = pos_weight * target, and the target's
    (log_sigmoid(-input) - log_sigmoid(input) * pos_weight) * g * weight)."""
    sigmoid = float32.sigmoid(a) if type(a) is np.ndarray and a.dtype == np.float32 and a.ndim else 1.0 / (1.0 + np.exp(-a))
    log_sigmoid = _log_sigmoid(a)
    if positive:
        t = pw * b
        da = (t + 1 - b) * sigmoid - t
        db = _log_sigmoid(-a) - log_sigmoid * pw
        dpw = -log_sigmoid * b * g * w
    else:
        da, db, dpw = sigmoid - b, -a, None
    return da * g * w, db * g * w, _bce_weighted(a, b, np.ones(()), pw, positive) * g, dpw


def _bce_weighted_rules() -> tuple[Rule, Rule, Rule, Rule]:
    def forward(a: Array, b: Array, w: Array, pw: Array, ranks: tuple[int, ...], reduction: str = "mean",
                positive: bool = False) -> Array:
        return _reduce(_bce_weighted(a, b, w, pw, positive), max(ranks), reduction)

    def vjp(g: Array, ans: Array, a: Array, b: Array, w: Array, pw: Array, ranks: tuple[int, ...],
            reduction: str = "mean", positive: bool = False) -> tuple[Any, ...]:
        shape = np.broadcast_shapes(*(np.shape(v) for v in (a, b, w, pw)))
        parts = _bce_weighted_partials(_upstream(g, shape, max(ranks), "sum" if reduction == "mean" else reduction),
                                       a, b, w, pw, positive)
        count = _count(shape, max(ranks)) if reduction == "mean" else 1  # (PyTorch divides last)
        return tuple(None if part is None else part / count for part in parts)

    def jvp(tangents: Any, ans: Array, a: Array, b: Array, w: Array, pw: Array, ranks: tuple[int, ...],
            reduction: str = "mean", positive: bool = False) -> Array:
        shape = np.broadcast_shapes(*(np.shape(v) for v in (a, b, w, pw)))
        parts = _bce_weighted_partials(np.ones(shape), a, b, w, pw, positive)
        change = sum(part * t for part, t in zip(parts, tangents, strict=True) if t is not None and part is not None)
        return _reduce(change * np.ones(shape), max(ranks), reduction)

    def shape(sa: Shape, sb: Shape, sw: Shape, spw: Shape, reduction: str = "mean", positive: bool = False) -> Shape:
        if tuple(sa) != tuple(sb):  # (torch.nn.functional's check)
            raise PythonValueError(f"Target size (torch.Size({list(sb)})) must be the same as input size "
                                   f"(torch.Size({list(sa)}))")
        if positive:  # ((pos_weight - 1) * target, into log_sigmoid(input) in place)
            _in_place_shape(sa, _broadcast_words(spw, sb))
        _in_place_shape(sa, sw)
        return tuple(sa) if reduction == "none" else ()

    return forward, vjp, jvp, shape


def _broadcast_words(a: Shape, b: Shape, into: bool = False) -> Shape:
    """The shapes of a and b broadcast (into a's, in place: `into`), else PyTorch's words for the first dims that
    do not fit."""
    ranks = max(len(a), len(b))
    for k in range(1, ranks + 1):
        x, y = a[-k] if k <= len(a) else 1, b[-k] if k <= len(b) else 1
        if x != y and x != 1 and y != 1:
            raise ValueError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                             f"dimension {ranks - k}")
    both = tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    if into and both != tuple(a):
        raise ValueError(f"output with shape {list(a)} doesn't match the broadcast shape {list(both)}")
    return both


def _in_place_shape(into: Shape, other: Shape) -> Shape:
    """`into` after an in-place op with `other`, which must broadcast to it (PyTorch's words where not)."""
    return _broadcast_words(into, other, into=True)


def _bce_weights_program(emit: Any, x: Any, y: Any, w: Any, pw: Any, reduction: str = "mean") -> Any:
    if not emit.given(w) and not emit.given(pw):  # (weight=None, pos_weight=None: the plain loss)
        return emit("binary_cross_entropy_with_logits", x, y, reduction=reduction)
    return emit("binary_cross_entropy_with_logits_weighted", x, y, w, pw, reduction=reduction, positive=emit.given(pw))


def _bce_weights_text(args: list[str], reduction: str = "mean", positive: bool = True) -> str:
    given = [f"weight={args[2]}", *([f"pos_weight={args[3]}"] if positive else []),
             *([f"reduction={reduction!r}"] if reduction != "mean" else [])]
    return f"binary_cross_entropy_with_logits({args[0]}, {args[1]}, {', '.join(given)})"


_BCE_WEIGHTED = _bce_weighted_rules()
_BCE_INPUTS = ("input", "target", "weight", "pos_weight")
_BCE_OPTIONAL = ((2, "weight", 1.0), (6, "pos_weight", 1.0))
# PyTorch's argument parser's words where a param takes a number and gets something else ({type}: str)
_MUST = "{}(): argument '{}' (position {}) must be float, not {{type}}"


def _bce_tensor(name: str, position: int) -> Param:
    """binary_cross_entropy_with_logits's weight or pos_weight, in the row of neither (its overload takes them)."""
    return Param(name, "absent", refused=("TypeError", f"binary_cross_entropy_with_logits(): argument '{name}' "
                                                       f"(position {position}) must be Tensor, not {{type}}"))


ROWS: list[Op] = [
    _loss("mse_loss", _mse, _mse_partials, "MseLossBackward0", lambda a, b: (a - b) ** 2, params=(*LEGACY, WEIGHT_ABSENT),
          reference="F.mse_loss(a, b)"),
    composite("l1_loss", 2, _l1_program, "MeanBackward0", params=(*LEGACY, WEIGHT_ABSENT), torch_node_rule=_l1_node,
              kinked=True, examples=_EXAMPLES, reference="F.l1_loss(a, b)", inputs=("input", "target"), dialects=F_LOSS),
    _loss("smooth_l1_loss", _smooth_l1, _smooth_l1_partials, "SmoothL1LossBackward0", _sympy_smooth_l1,
          params=(*LEGACY, Param("beta", "float", 1.0, refused=("TypeError", _MUST.format("smooth_l1_loss", "beta", 4)))),
          torch_node_rule=_smooth_l1_node, kinked=True, reference="F.smooth_l1_loss(a, b)"),
    _loss("huber_loss", _huber, _huber_partials, "HuberLossBackward0", _sympy_huber,
          params=(REDUCTION, Param("delta", "float", 1.0), WEIGHT_ABSENT), kinked=True, reference="F.huber_loss(a, b)",
          dtype="first",
          dtype_refusals=(*UNCASTABLE, *kernel_refusal("huber_cpu"), *_FOUND_INTO)),
    _loss("binary_cross_entropy", _bce, _bce_partials, "BinaryCrossEntropyBackward0",
          lambda a, b: -(b * load_sympy().log(a) + (1 - b) * load_sympy().log(1 - a)), divides_last=True,
          params=(WEIGHT_ABSENT, *LEGACY),
          same_size="Using a target size ({target}) that is different to the input size ({input}) is deprecated. "
                    "Please ensure they have the same size.",
          domain=_PROBABILITIES, reference="F.binary_cross_entropy(a, b)",
          dtype_refusals=(_FOUND, ("integer alike", "NotImplementedError", "\"binary_cross_entropy\" not implemented for '{0}'"))),
    _loss("binary_cross_entropy_with_logits", _bce_logits, _bce_logits_partials,
          "BinaryCrossEntropyWithLogitsBackward0",
          lambda a, b: (1 - b) * a + load_sympy().log(1 + load_sympy().exp(-a)), divides_last=True,
          params=(_bce_tensor("weight", 3), *LEGACY, _bce_tensor("pos_weight", 4)),
          # (torch.binary_cross_entropy_with_logits is ATen's: (input, target, weight, pos_weight, reduction), its
          # reduction an int, which gradcli does not take)
          dialects=(*F_LOSS, aten_loss(row="binary_cross_entropy_with_logits_weights", tensor_positions=(0, 1, 2, 3))),
          domain=((-3.0, 3.0), (0.0, 1.0)), reference="F.binary_cross_entropy_with_logits(a, b)", dtype="target",
          same_size="Target size ({target}) must be the same as input size ({input})",
          overloads=("binary_cross_entropy_with_logits_weights",),  # (weight=, pos_weight=)
          dtype_refusals=(("integer", "NotImplementedError", "\"log_sigmoid_cpu\" not implemented for '{0}'"),
                          ("bool input 1", "RuntimeError", BOOL_SUBTRACTION[0][2]),  # (its 1 - target)
                          ("uncastable 1", "RuntimeError", "result type {result} can't be cast to the desired output type {1}"))),
    composite("binary_cross_entropy_with_logits_weights", 4, _bce_weights_program,
              "BinaryCrossEntropyWithLogitsBackward0", callable=False, sympy=None, params=LEGACY,
              tensor_positions=(0, 1, 2, 6),  # (pos_weight after the legacy args and reduction, as PyTorch binds it)
              inputs=_BCE_INPUTS, optional_args=_BCE_OPTIONAL, conditions=(2, 3), reference=None, text=_bce_weights_text,
              undifferentiable=((2, "binary_cross_entropy_with_logits", "weight"),
                                (3, "binary_cross_entropy_with_logits", "pos_weight")),
              examples=((((2, 3), (2, 3), (3,), (3,)), {}), (((4,), (4,), (), (4,)), {"reduction": "sum"}))),
    structural("binary_cross_entropy_with_logits_weighted", 4, _BCE_WEIGHTED[0], _BCE_WEIGHTED[1],
               "BinaryCrossEntropyWithLogitsBackward0", jvp=_BCE_WEIGHTED[2], shape=_BCE_WEIGHTED[3], aligns=True,
               callable=False, params=(REDUCTION, Param("positive", "bool", False)), inputs=_BCE_INPUTS,
               text=_bce_weights_text,
               conditions=(2, 3), dtype="target", domain=((-3.0, 3.0), (0.0, 1.0), (0.5, 2.0), (0.5, 3.0)),
               undifferentiable=((2, "binary_cross_entropy_with_logits", "weight"),
                                 (3, "binary_cross_entropy_with_logits", "pos_weight")),
               reference=None,  # (held to PyTorch through F.binary_cross_entropy_with_logits(..., pos_weight=))
               examples=((((2, 3), (2, 3), (3,), (3,)), {"positive": True}), (((2, 3), (2, 3), (2, 3), ()), {"positive": True}),
                         (((4,), (4,), (), (4,)), {"reduction": "none", "positive": True}),
                         (((2, 3), (2, 3), (), (1, 3)), {"reduction": "sum", "positive": True})),
               dtype_refusals=(("integer", "NotImplementedError", "\"log_sigmoid_cpu\" not implemented for '{0}'"),)),
    composite("kl_div", 2, _kl_program, "MeanBackward0", inputs=("input", "target"),
              dialects=(*F_LOSS, aten_loss()),
              params=(SIZE_AVERAGE, REDUCE, Param("reduction", "str", "mean",
                                                   choices=("none", "mean", "sum", "batchmean", "elementwise_mean"),
                                                   refused=("ValueError", "{value} is not a valid value for reduction"),
                                                   warned=(_KL_MEAN, ELEMENTWISE_MEAN)),
                      Param("log_target", "bool", False)),
              torch_node_rule=_kl_node, domain=((-2.0, 2.0), (0.1, 1.0)),
          examples=(*_EXAMPLES, (((2, 3), (2, 3)), {"reduction": "batchmean"}),
                    (((2, 3), (3,)), {"reduction": "none", "log_target": True}),
                    (((3,), (3,)), {"log_target": True, "reduction": "batchmean"})), reference="F.kl_div(a, b)", dtype_refusals=(("any integer", "RuntimeError", "kl_div: Integral inputs not supported."),)),
    structural("glu", 1, _glu, _glu_vjp, "GluBackward0", jvp=_glu_jvp, sympy=_sympy_glu, shape=_glu_shape,
               params=(Param("dim", "int", -1),),
               examples=((((4,),), {}), (((2, 4),), {}), (((4, 2),), {"dim": 0}), (((2, 2, 3),), {"dim": 1})),
               reference="F.glu(a)", dtype_refusals=kernel_refusal("glu_cpu")),
]


# --- cross_entropy and nll_loss ---------------------------------------------------------------
# The rows take (input, weight, target), the call (input, target, weight=None): tensor_positions
# reorders them, and a left-out weight is the number 1.0 (every class weighs 1: PyTorch's values
# with weight=None, bit for bit). Class indices (an integer input or constant, index_from) take
# no gradient; class probabilities (a float target: another row, Op.float_index) take one. With
# class indices PyTorch refuses a weight that takes a gradient, and lists none among the node's
# next functions (conditions); gradcli gives it one.
# The input is (C,) or (N, C): its classes are its last axis.


def _classes(x: Any, rank: int) -> int:
    if rank > 2:
        raise Unsupported(f"an input of {rank} dims (PyTorch's K-dimensional loss over (N, C, d1, ...))")
    if rank not in (1, 2):
        raise ValueError(f"takes an input of shape (C,) or (N, C), got {rank} dims")
    return int(np.shape(x)[-1])


def _weights(w: Any, ranks: tuple[int, ...], shape: tuple[int, ...]) -> Any:
    """The weight of each class, broadcast to the input's `shape` (a left-out weight is 1.0)."""
    rank, wrank = ranks[0], ranks[1]
    if wrank > 1 or (wrank == 1 and np.shape(w)[-1] != shape[-1]):
        raise ValueError(f"weight tensor should be defined either for all {shape[-1]} classes or no classes "
                         f"but got weight tensor of shape: {tuple(np.shape(w)[len(np.shape(w)) - wrank:])}")
    if wrank == 0:
        w = np.reshape(w, (*np.shape(w), 1))
    lead = np.shape(w)[:-1]
    return np.broadcast_to(np.reshape(w, lead + (1,) * (rank - 1) + np.shape(w)[-1:]), shape)


def _log_softmax_last(x: Any) -> Any:
    # PyTorch's order: (x - max) - log(sum(exp(x - max))); the max of a dual number's value (the
    # Hessian's): a shift by a constant, which the derivative does not see.
    if _float64(x):  # (the log_softmax row's kernel: a composite's graph gives the same bits)
        return float64.log_softmax(x, -1)
    shifted = x - np.max(getattr(x, "primal", x), axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _log_softmax_back(g: Any, lsm: Any) -> Any:
    # LogSoftmaxBackward0: g - exp(lsm) * sum(g), the sum of -0.0s being -0.0 as PyTorch's
    return g - np.exp(lsm) * np.sum(g, axis=-1, keepdims=True, initial=-0.0)


def _hits(t: Array, x_shape: tuple[int, ...], ignore_index: int) -> tuple[Array, Array]:
    """(one-hot of each sample's class, of the input's shape; kept: the samples not ignored)."""
    t = np.asarray(t)
    if t.size and not np.all(np.mod(t, 1) == 0):
        raise ValueError("the target's class indices must be whole numbers")
    t = np.broadcast_to(t.astype(np.int64), x_shape[:-1])
    kept = t != ignore_index
    bad = kept & ((t < 0) | (t >= x_shape[-1]))
    if bad.any():
        raise IndexError(f"Target {int(t[bad].flat[0])} is out of bounds.")
    return t[..., None] == np.arange(x_shape[-1]), kept


def _picked(values: Any, hits: Array) -> Any:
    # (np.where, not indexing: dual numbers go through; a sum from -0.0, so that a picked -0.0 stays one)
    return np.sum(np.where(hits, values, -0.0), axis=-1, initial=-0.0)


def _index_parts(x: Any, w: Any, t: Array, ranks: tuple[int, ...], log_input: bool, ignore_index: int) -> Any:
    _classes(x, ranks[0])
    want = np.shape(x)[np.ndim(x) - ranks[0]:-1]
    if ranks[2] != ranks[0] - 1 or np.shape(t)[np.ndim(t) - ranks[2]:] != want:
        raise ValueError(f"the target of class indices must have shape {want}, got {np.shape(t)[np.ndim(t) - ranks[2]:]}")
    lsm = x if log_input else _log_softmax_last(x)
    hits, kept = _hits(t, np.shape(x), ignore_index)
    weights = _weights(w, ranks, np.shape(x))
    return lsm, hits, kept, weights


def _index_loss(x: Any, w: Any, t: Array, ranks: tuple[int, ...], reduction: str = "mean", ignore_index: int = -100,
                label_smoothing: float = 0.0, log_input: bool = False) -> Any:
    lsm, hits, kept, weights = _index_parts(x, w, t, ranks, log_input, ignore_index)
    chosen = np.where(kept, _picked(weights, hits), 0.0)  # w[t], 0 where ignored
    taken = np.where(kept, _picked(lsm, hits) * chosen, 0.0)
    batch = (-1,) if ranks[0] == 2 else ()
    # PyTorch's nll_loss: -x[t] * w[t] per sample of a batch ('none'), else 0 - the sum of them
    if reduction == "none":
        loss = np.where(kept, -taken, 0.0) if ranks[0] == 2 else 0.0 - taken  # (an ignored target's: +0)
    elif type(taken) is np.ndarray and taken.dtype in (np.float32, np.float64) and ranks[0] == 2:
        loss, total = float32.nll_sums(taken, np.asarray(chosen, dtype=taken.dtype), np.asarray(kept))
        if reduction == "mean":  # (PyTorch's cascade of partial sums over the batch)
            loss = loss / (total if type(w) is np.ndarray else np.count_nonzero(kept, axis=-1).astype(taken.dtype))
    else:
        loss = 0.0 - np.sum(taken, axis=batch)
        if reduction == "mean":
            loss = loss / np.sum(chosen, axis=batch)
    if not label_smoothing:
        return np.asarray(loss)
    smooth = np.where(kept, -np.sum(lsm * weights, axis=-1), 0.0)
    if reduction == "sum":
        smooth = np.sum(smooth, axis=batch)
    elif reduction == "mean":
        smooth = np.sum(smooth, axis=batch) / np.sum(chosen, axis=batch)
    classes = np.shape(x)[-1]
    return np.asarray((1 - label_smoothing) * loss + smooth * (label_smoothing / classes))


def _index_vjp(g: Array, ans: Array, x: Array, w: Array, t: Array, ranks: tuple[int, ...], reduction: str = "mean",
               ignore_index: int = -100, label_smoothing: float = 0.0, log_input: bool = False) -> tuple[Any, Any, None]:
    lsm, hits, kept, weights = _index_parts(x, w, t, ranks, log_input, ignore_index)
    chosen = np.where(kept, _picked(weights, hits), 0.0)
    batched = ranks[0] == 2
    batch = (-1,) if batched else ()
    eps, classes = label_smoothing, np.shape(x)[-1]
    total = np.sum(chosen, axis=batch)

    def per_sample(upstream: Any) -> Any:
        """The cotangent of each sample's loss, from the cotangent of the (reduced) loss."""
        if reduction == "mean":
            upstream = upstream / total
        if reduction == "none" or not batched:
            return upstream
        return np.broadcast_to(np.reshape(upstream, (*np.shape(upstream), 1)), np.shape(chosen))

    # PyTorch's order: (1 - eps) * nll + smooth * (eps / C), each through its own nodes; nll_loss's
    # backward puts w[t] * -(its g) at each kept sample's class, and nothing elsewhere.
    nll_g = per_sample(g * (1 - eps) if eps else g)
    lsm_g = np.where(hits & kept[..., None], chosen[..., None] * -nll_g[..., None], 0.0)
    smooth_g = None
    if eps:
        smooth_g = np.where(kept, -per_sample(g * (eps / classes)), 0.0)
        lsm_g = lsm_g + smooth_g[..., None] * weights
    dx = lsm_g if log_input else _log_softmax_back(lsm_g, lsm)
    # the weight's: each class's share of each sample's loss, and (mean) of the total
    picked = np.where(kept, _picked(lsm, hits), 0.0)
    dw = np.where(hits & kept[..., None], (-picked * nll_g)[..., None], 0.0)
    if smooth_g is not None:
        dw = dw + smooth_g[..., None] * lsm
    if reduction == "mean":
        loss = np.reshape(ans, np.shape(ans) + (1,) * ranks[0])
        dw = dw - np.where(hits & kept[..., None], loss * np.reshape(g / total, np.shape(g) + (1,) * ranks[0]), 0.0)
    if batched:
        dw = np.sum(dw, axis=-2)
    if ranks[1] == 0:
        dw = np.sum(dw, axis=-1)
    return dx, dw, None


def _prob_loss(x: Any, w: Any, p: Any, ranks: tuple[int, ...], reduction: str = "mean", ignore_index: int = -100,
               label_smoothing: float = 0.0) -> Any:
    classes = _classes(x, ranks[0])
    if ranks[2] != ranks[0]:
        raise ValueError("the target of class probabilities must have the input's shape")
    p = p * (1 - label_smoothing) + (label_smoothing / classes) if label_smoothing else p
    terms = _log_softmax_last(x) * p * _weights(w, ranks, np.broadcast_shapes(np.shape(x), np.shape(p)))
    if reduction == "none":
        return np.asarray(-np.sum(terms, axis=-1))
    total = -np.sum(terms, axis=tuple(range(-ranks[0], 0)))
    return np.asarray(total if reduction == "sum" else total / (np.prod(np.shape(x)[len(np.shape(x)) - ranks[0]:])
                                                                 // classes))


def _prob_vjp(g: Array, ans: Array, x: Array, w: Array, p: Array, ranks: tuple[int, ...], reduction: str = "mean",
              ignore_index: int = -100, label_smoothing: float = 0.0) -> tuple[Any, Any, Any]:
    classes = _classes(x, ranks[0])
    eps = label_smoothing
    shape = np.broadcast_shapes(np.shape(x), np.shape(p))
    lsm = _log_softmax_last(x)
    weights = _weights(w, ranks, shape)
    p_eff = p * (1 - eps) + (eps / classes) if eps else p
    if reduction == "none":
        scale = np.reshape(g, (*np.shape(g), 1))
    else:
        count = np.prod(shape[len(shape) - ranks[0]:]) // classes
        each = g if reduction == "sum" else g / count
        scale = np.reshape(each, np.shape(each) + (1,) * ranks[0])
    # PyTorch's order: -(input * target * weight).sum() backward, through Neg, Sum and the two Muls
    upstream = (-scale) * weights
    dx = _log_softmax_back(upstream * p_eff, lsm)
    dp = upstream * lsm * (1 - eps) if eps else upstream * lsm
    dw = (-scale) * (lsm * p_eff)
    if ranks[0] == 2:
        dw = np.sum(dw, axis=-2)
    if ranks[1] == 0:
        dw = np.sum(dw, axis=-1)
    return dx, dw, dp


def _tangent(t: Any, like: Any) -> Any:
    return np.zeros(np.shape(like)) if t is None else t


def _index_jvp(tangents: Any, ans: Array, x: Any, w: Any, t: Array, ranks: tuple[int, ...], reduction: str = "mean",
               ignore_index: int = -100, label_smoothing: float = 0.0, log_input: bool = False) -> Any:
    lsm, hits, kept, weights = _index_parts(x, w, t, ranks, log_input, ignore_index)
    tx = _tangent(tangents[0], x)
    tw = _weights(_tangent(tangents[1], w), ranks, np.shape(x))
    tlsm = tx if log_input else tx - np.sum(np.exp(lsm) * tx, axis=-1, keepdims=True)
    chosen = np.where(kept, _picked(weights, hits), 0.0)
    dchosen = np.where(kept, _picked(tw, hits), 0.0)
    dnll = np.where(kept, -(_picked(lsm, hits) * dchosen + _picked(tlsm, hits) * chosen), 0.0)
    eps, classes = label_smoothing, np.shape(x)[-1]
    change = (1 - eps) * dnll
    if eps:
        change = change + (eps / classes) * np.where(kept, -np.sum(tlsm * weights + lsm * tw, axis=-1), 0.0)
    if reduction == "none":
        return change
    batch = (-1,) if ranks[0] == 2 else ()
    if reduction == "sum":
        return np.sum(change, axis=batch)
    total = np.sum(chosen, axis=batch)
    return (np.sum(change, axis=batch) - ans * np.sum(dchosen, axis=batch)) / total


def _prob_jvp(tangents: Any, ans: Array, x: Any, w: Any, p: Any, ranks: tuple[int, ...], reduction: str = "mean",
              ignore_index: int = -100, label_smoothing: float = 0.0) -> Any:
    classes, eps = _classes(x, ranks[0]), label_smoothing
    shape = np.broadcast_shapes(np.shape(x), np.shape(p))
    lsm = _log_softmax_last(x)
    weights = _weights(w, ranks, shape)
    tx, tp = _tangent(tangents[0], x), _tangent(tangents[2], p)
    tw = _weights(_tangent(tangents[1], w), ranks, shape)
    tlsm = tx - np.sum(np.exp(lsm) * tx, axis=-1, keepdims=True)
    p_eff = p * (1 - eps) + (eps / classes) if eps else p
    terms = tlsm * p_eff * weights + lsm * (1 - eps) * tp * weights + lsm * p_eff * tw
    if reduction == "none":
        return -np.sum(terms, axis=-1)
    total = -np.sum(terms, axis=tuple(range(-ranks[0], 0)))
    return total if reduction == "sum" else total / (np.prod(shape[len(shape) - ranks[0]:]) // classes)


def _ce_shape(x: tuple[int, ...], w: tuple[int, ...], t: tuple[int, ...], reduction: str = "mean", **given: Any
              ) -> tuple[int, ...]:
    """The checks of an input and its class indices, in PyTorch's words and order (nll_loss_nd's batch size,
    nll_loss's target of at most 1 dim)."""
    if len(x) > 2:
        return _nd_shape(x, w, t, reduction)
    ours = _target_rank(x, t)
    if len(x) == 1 and len(t) == 1 and t[0] != 1:
        raise _KernelValueError(f"For 1D input, 1D target must have size 1, but got target size: {t[0]}", ours)
    if len(w) > 1 or (w and w[0] != x[-1]):
        raise ValueRefusal(class_weight_problem(x[-1], w), f"the weight must have one number per class ({x[-1]}), got shape {w}")
    return x[:-1] if reduction == "none" else ()


class _KernelValueError(ValueRefusal):
    """A ValueError that PyTorch's nll_loss kernel raises after its target's dtype check (not Python's: not before)."""

    kind = "ValueError"


def _target_rank(x: tuple[int, ...], t: tuple[int, ...]) -> str:
    """The checks of an input of 1 or 2 dims and its class indices that PyTorch makes before the target's dtype
    (nll_loss_nd's batch size, nll_loss's target of at most 1 dim); gradcli's words for what does not fit."""
    if len(x) not in (1, 2):
        raise ValueError(f"takes an input of shape (C,) or (N, C), got {len(x)} dims")
    if len(x) == 2 and (t[0] if t else 0) != x[0]:  # (PyTorch's nll_loss_nd, its ValueError)
        raise PythonValueError(f"Expected input batch_size ({x[0]}) to match target batch_size ({t[0] if t else 0}).")
    ours = f"the target must be class indices of shape {x[:-1]} or probabilities of shape {x}, got {t}"
    if tuple(t) == tuple(x):  # (probabilities where the shapes were not known as the call was lowered: --points)
        ours = ("over --points an input target is read as class indices: give probabilities computed from it, "
                "as in cross_entropy(x, t * 1.0)")
    if len(t) > 1:
        raise ValueRefusal("0D or 1D target tensor expected, multi-target not supported", ours)
    return ours


def class_weight_problem(classes: int, w: tuple[int, ...], called: str = "") -> str:
    """PyTorch's words for a class weight that is not one number per class (nll_loss's; cross_entropy's of
    probabilities say their name first)."""
    return (f"{called}weight tensor should be defined either for all {classes} classes or no classes but got weight "
            f"tensor of shape: {list(w)}")


def _batch_first(x: tuple[int, ...], w: tuple[int, ...], t: tuple[int, ...], reduction: str = "mean",
                 label_smoothing: float = 0.0, **given: Any) -> tuple[int, ...]:
    """What cross_entropy and nll_loss_nd check before their parts, in PyTorch's order: the label smoothing
    (cross_entropy's), the batch sizes, the target's size for an input of 3 or more than 4 dims. A weight that takes
    a gradient, the target's rank, its dtype, then the weight's shape and its dtype are their parts' checks
    (nll_loss_forward's, nll_loss2d's)."""
    _smoothing(label_smoothing)
    if len(x) <= 2:
        if len(x) == 2 and (t[0] if t else 0) != x[0]:
            raise PythonValueError(f"Expected input batch_size ({x[0]}) to match target batch_size ({t[0] if t else 0}).")
    elif (t[0] if t else 0) != x[0]:
        raise PythonValueError(f"Expected input batch_size ({x[0]}) to match target batch_size ({t[0] if t else 0}).")
    elif len(x) != 4:
        _nd_shape(x, (), t, reduction)
    if reduction != "none":
        return ()
    return tuple(x[:-1]) if len(x) <= 2 else tuple(t)


def _probs_shape(x: tuple[int, ...], w: tuple[int, ...], t: tuple[int, ...], reduction: str = "mean", **given: Any
                 ) -> tuple[int, ...]:
    """The checks of an input and its class probabilities, a target of its shape (PyTorch reads the target so)."""
    if tuple(x) != tuple(t):
        raise ValueError(f"the target of class probabilities must have the input's shape {tuple(x)}, got {tuple(t)}")
    if not x:
        raise ValueError("takes an input of shape (C,), (N, C) or (N, C, d1, ...), got 0 dims")
    classes = x[1] if len(x) > 1 else x[0]
    if len(w) > 1 or (w and w[0] != classes):
        raise ValueRefusal(class_weight_problem(classes, w, "cross_entropy: "),
                           "weight tensor should be defined either for all or no classes")
    return (x[0], *x[2:]) if reduction == "none" and len(x) > 1 else ()


def _ce_message(name: str) -> Any:
    """What does not fit, in the call's own terms: its input and its target (the rows take a weight
    between them, a number where none was given)."""
    def message(label: str, shapes: Any) -> str:
        called = label.rpartition(".")[2]  # (the call written, where this row is a part of it: cross_entropy's nll_loss)
        return (f"{called if called in ('cross_entropy', 'nll_loss') else name} cannot take an input of shape "
                f"{tuple(shapes[0])} with a target of shape {tuple(shapes[2])}")

    return message


def _ce_text(name: str, floats: bool = False) -> Any:
    def text(args: list[str], **params: Any) -> str:
        given = [f"{k}={v!r}" for k, v in params.items() if v != _CE_DEFAULTS.get(k)]
        weight = [] if args[1] in ("1", "1.0") else [f"weight={args[1]}"]  # (1.0: none given)
        target = f"{args[2]} * 1.0" if floats and args[2].isidentifier() else args[2]  # (an input is an index)
        return f"{name}({', '.join([args[0], target, *weight, *given])})"

    return text


_CE_DEFAULTS = {"reduction": "mean", "ignore_index": -100, "label_smoothing": 0.0}


def _weight_0d(keyword: str, shapes: Any, params: dict[str, Any]) -> str:
    classes = shapes[0][-1] if shapes[0] else 1
    return (f"weight tensor should be defined either for all {classes} classes or no classes but got weight tensor "
            "of shape: []")
_IGNORE = Param("ignore_index", "int", -100)
_SMOOTHING = Param("label_smoothing", "float", 0.0)


def _parsed(param: Param, kernel: str, position: int) -> Param:
    """A param of cross_entropy or nll_loss with the TypeError of PyTorch's parser for its kernel's arg."""
    return param._replace(refused=("TypeError", f"{kernel}(): argument '{param.name}' (position {position}) must be "
                                                f"{'int' if param.kind == 'int' else 'float'}, not {{type}}"))
_CE_EXAMPLES: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = (
    (((2, 3), (3,), (2,)), {}), (((3,), (3,), ()), {"reduction": "sum"}),
    (((2, 3, 2), (3,), (2, 2)), {"reduction": "none"}), (((2, 3, 2, 2), (3,), (2, 2, 2)), {}),
    (((2, 3), (3,), (2,)), {"reduction": "none", "label_smoothing": 0.2}),
    (((2, 3), (3,), (2,)), {"label_smoothing": 0.1}), (((2, 3, 2), (3,), (2, 2)), {"label_smoothing": 0.1}))
_WEIGHTS = ((-2.0, 2.0), (0.5, 2.0), (0.0, 0.0))  # (the tests sample class 0 everywhere)


def _ce_node(constant: Any, shapes: Any, label_smoothing: float = 0.0, **given: Any) -> str:
    return "AddBackward0" if label_smoothing > 0 else _nll_node(constant, shapes, **given)


def _smoothing(label_smoothing: float) -> float:
    """The label smoothing cross_entropy takes: none where it is not above 0 (PyTorch checks and smooths only
    then: -1 and nan are 0), above 1 PyTorch's refusal (its C++ stream's 6 digits)."""
    if not label_smoothing > 0:
        return 0.0
    if label_smoothing > 1:
        raise ValueError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    return label_smoothing


def _ce_prob_node(constant: Any, shapes: Any, reduction: str = "mean", **given: Any) -> str:
    return "DivBackward1" if reduction == "mean" else "NegBackward0"


def _ce_program(emit: Any, x: Any, w: Any, t: Any, reduction: str = "mean", ignore_index: int = -100,
                label_smoothing: float = 0.0) -> Any:
    # PyTorch's cross_entropy of class indices: nll_loss(log_softmax(x, class dim), target); with
    # label smoothing, the sum of the two terms (cross_entropy_smoothed)
    label_smoothing = _smoothing(label_smoothing)
    if label_smoothing:
        return emit("cross_entropy_smoothed", x, w, t, reduction=reduction, ignore_index=ignore_index,
                    label_smoothing=label_smoothing)
    shape = emit.shape(x)
    if shape is None:  # (over --points, where the shapes are not known while the tape is made: one node)
        return emit("cross_entropy_whole", x, w, t, reduction=reduction, ignore_index=ignore_index)
    return _nll_nd(emit, emit("log_softmax", x, dim=_class_dim(shape)), w, t, reduction, ignore_index)


def _class_dim(shape: tuple[int, ...] | None) -> int:
    """The dim of the classes: the last of (C,) and (N, C), dim 1 of (N, C, d1, ...)."""
    return 1 if shape is not None and len(shape) > 2 else -1


def _class_weights(emit: Any, w: Any, like: Any) -> Any:
    """The weight viewed to broadcast against the input's classes, None where none was given (the
    number that stands in for it)."""
    if not emit.given(w):
        return None
    sx, sw = emit.shape(like), emit.shape(w)
    if len(sx) > 2 and sw:  # (N, C, d1, ...): viewed as (1, C, 1, ...)
        return emit("reshape", w, shape=(1, *sw, *(1,) * (len(sx) - 2)))
    return emit("reshape", w, shape=(1,) * (len(sx) - 1) + tuple(sw)) if len(sx) > 1 and sw else w


def _smoothed_program(emit: Any, x: Any, w: Any, t: Any, reduction: str = "mean", ignore_index: int = -100,
                      label_smoothing: float = 0.0) -> Any:
    # PyTorch's (LossNLL.cpp): (1 - eps) * nll_loss(lsm, t) + smooth * (eps / C), where smooth is
    # -(lsm * w).sum(class dim) with the ignored targets' rows filled with 0, summed, and for 'mean'
    # divided by the weights of the targets kept (their count without a weight).
    sx, sw, st = emit.shape(x), emit.shape(w), emit.shape(t)
    if sx is None or sw is None or st is None:
        return emit("cross_entropy_smoothed_whole", x, w, t, reduction=reduction, ignore_index=ignore_index,
                    label_smoothing=label_smoothing)
    _batch_first(sx, sw, st)  # (the weight's shape after the target's dtype: the nll_loss part's)
    dim = _class_dim(sx)
    lsm = emit("log_softmax", x, dim=dim)
    nll = _nll_nd(emit, lsm, w, t, reduction, ignore_index)
    weights = _class_weights(emit, w, x)
    smooth = emit("neg", emit("sum", lsm if weights is None else emit("mul", lsm, weights), dim=dim))
    smooth = emit("masked_fill", smooth, emit("eq", t, float(ignore_index)), 0.0)
    if reduction != "none":
        smooth = emit("sum", smooth)
    if reduction == "mean":
        smooth = emit("div", smooth, emit("kept_weight", w if weights is not None else 1.0, t,
                                          ignore_index=ignore_index))
    return emit("add", emit("mul_scalar", nll, other=1.0 - label_smoothing),
                emit("mul_scalar", smooth, other=label_smoothing / sx[dim]))


def _probs_program(emit: Any, x: Any, w: Any, p: Any, reduction: str = "mean", ignore_index: int = -100,
                   label_smoothing: float = 0.0) -> Any:
    # PyTorch's cross_entropy of class probabilities: -(lsm * p * w) summed (over the classes for
    # 'none'), for 'mean' divided by the number of samples; label smoothing mixes p with 1/C first.
    if ignore_index >= 0:
        raise ValueError("ignore_index is not supported for floating point target")
    label_smoothing = _smoothing(label_smoothing)
    sx, sw, sp = emit.shape(x), emit.shape(w), emit.shape(p)
    if sx is None or sw is None or sp is None:
        return emit("cross_entropy_probs_whole", x, w, p, reduction=reduction, ignore_index=ignore_index,
                    label_smoothing=label_smoothing)
    _probs_shape(sx, sw, sp)
    dim = _class_dim(sx)
    lsm = emit("log_softmax", x, dim=dim)
    weights = _class_weights(emit, w, x)
    if label_smoothing:
        p = emit("add_scalar", emit("mul_scalar", p, other=1.0 - label_smoothing), other=label_smoothing / sx[dim])
    terms = emit("mul", lsm, p)  # (input * target) * weight, in PyTorch's order
    if weights is not None:
        terms = emit("mul", terms, weights)
    if reduction == "none":
        return emit("neg", emit("sum", terms, dim=dim))
    total = emit("neg", emit("sum", terms))
    return total if reduction == "sum" else emit("div_scalar", total, other=float(math.prod(sx) // sx[dim]))


def _kept_weight_parts(w: Any, t: Any, ranks: tuple[int, ...], ignore_index: int) -> tuple[Any, Any]:
    """Each kept target's weight (0 where ignored), and where it was picked from (a one-hot of the
    class for a weight per class, the kept mask for one number)."""
    t = np.asarray(t)
    kept = t != ignore_index
    # (products, not np.where: the Hessian's dual numbers pass through them)
    if not ranks[0]:
        return kept * w[(..., *(None,) * ranks[1])], kept
    hot = np.where(kept, t, -1)[..., None] == np.arange(np.shape(w)[-1])
    spread = np.expand_dims(w, tuple(range(-1 - ranks[1], -1)))
    # (PyTorch gathers w[t]: an infinite weight of another class is not 0 * inf there)
    picked = np.where(hot, spread, 0.0) if type(spread) is np.ndarray else hot * spread
    return np.sum(picked, axis=-1), hot


def _kept_weight(w: Any, t: Any, ranks: tuple[int, ...], ignore_index: int = -100) -> Any:
    """The weights of the class-index targets not ignored, summed (their count without a weight):
    what label smoothing's 'mean' divides by."""
    chosen, _ = _kept_weight_parts(w, t, ranks, ignore_index)
    return np.asarray(np.sum(chosen, axis=tuple(range(-ranks[1], 0))))


def _kept_weight_vjp(g: Array, ans: Array, w: Any, t: Any, ranks: tuple[int, ...], ignore_index: int = -100
                     ) -> tuple[Any, None]:
    _, picked = _kept_weight_parts(w, t, ranks, ignore_index)
    spread = g[(..., *(None,) * (ranks[1] + ranks[0]))] * picked  # (g may be a dual number: no asarray)
    target_axes = tuple(range(-ranks[1] - ranks[0], -ranks[0])) if ranks[0] else tuple(range(-ranks[1], 0))
    return unbroadcast(spread.sum(axis=target_axes), np.shape(w)), None


# --- the K-dimensional loss: an input (N, C, d1, ...) and a target (N, d1, ...) ----------------
# PyTorch's nll_loss_nd: a 4-D input goes to nll_loss2d (NllLoss2DBackward0) as it is; one of 3 or of more than 4
# dims is viewed as (N, C, 1, d1 * d2 ...) first and its target as (N, 1, d1 * ...), and the loss of each element
# ('none') viewed back as (N, d1, ...). cross_entropy's log_softmax is over dim 1, the classes. nll_loss2d is
# nll_loss over the samples (n, d1, d2) in that order, the classes moved last: its cascade of sums is the same.


def _spatial_shape(x: tuple[int, ...], w: tuple[int, ...], t: tuple[int, ...], reduction: str = "mean",
                   **given: Any) -> tuple[int, ...]:
    """nll_loss2d's checks of an (N, C, H, W) input and an (N, H, W) target, in PyTorch's words."""
    if len(x) != 4:
        raise ValueError(f"only batches of spatial inputs supported (4D tensors), but got input of dimension: {len(x)}")
    if len(t) != 3:
        raise ValueError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: {len(t)}")
    if x[0] != t[0] or tuple(x[2:]) != tuple(t[1:]):
        raise ValueError(f"size mismatch (got input: {list(x)} , target: {list(t)}")
    if len(w) > 1 or (w and w[0] != x[1]):
        raise ValueError("weight tensor should be defined either for all or no classes")
    return tuple(t) if reduction == "none" else ()


def _nd_shape(x: tuple[int, ...], w: tuple[int, ...], t: tuple[int, ...], reduction: str = "mean", **given: Any
              ) -> tuple[int, ...]:
    """nll_loss_nd's checks of an input of 3 or more dims (the target (N, d1, ...)), in PyTorch's words."""
    if len(x) == 4:
        return _spatial_shape(x, w, t, reduction)
    want = [x[0], *x[2:]]
    if len(t) < 1 or t[0] != x[0]:
        raise ValueError(f"Expected input batch_size ({x[0]}) to match target batch_size ({t[0] if t else 0}).")
    if list(t) != want:
        raise ValueError(f"Expected target size {want}, got {list(t)}")
    if len(w) > 1 or (w and w[0] != x[1]):
        raise ValueError("weight tensor should be defined either for all or no classes")
    return tuple(t) if reduction == "none" else ()


def _nll_shape(x: tuple[int, ...], w: tuple[int, ...], t: tuple[int, ...], **given: Any) -> tuple[int, ...]:
    return _ce_shape(x, w, t, **given) if len(x) <= 2 else _nd_shape(x, w, t, **given)


def _samples(x: Any, t: Any, ranks: tuple[int, ...], probs: bool = False
             ) -> tuple[Any, Any, tuple[int, ...], tuple[int, ...]]:
    """An (N, C, d1, ...) input and its target, class indices (N, d1, ...) or probabilities of the input's shape, as
    the (samples, classes) and (samples,) or (samples, classes) of a loss of (N, C): the classes moved last, the
    samples in PyTorch's order; the ranks of those; the shape of the loss of each sample."""
    point, target = tuple(np.shape(x)[np.ndim(x) - ranks[0]:]), tuple(np.shape(t)[np.ndim(t) - ranks[2]:])
    if probs:
        _probs_shape(point, (), target)
    else:
        _nd_shape(point, (), target)
    lead = tuple(np.shape(x)[:np.ndim(x) - ranks[0]])
    n, classes, *spatial = point
    count = n * math.prod(spatial)
    samples = np.moveaxis(x, 1 - ranks[0], -1).reshape((*lead, count, classes))
    if probs:
        targets = np.moveaxis(t, 1 - ranks[2], -1).reshape((*np.shape(t)[:np.ndim(t) - ranks[2]], count, classes))
    else:
        targets = np.reshape(t, (*np.shape(t)[:np.ndim(t) - ranks[2]], count))
    return samples, targets, (2, ranks[1], 2 if probs else 1), (*lead, n, *spatial)


def _flat(g: Any, reduction: str, rank: int) -> Any:
    """The cotangent (or value) of the loss of each (n, d1, ...) as one of each sample."""
    return np.reshape(g, (*np.shape(g)[:np.ndim(g) - rank + 1], -1)) if reduction == "none" else g


def _over_samples(loss: Callable[..., Any], vjp: Callable[..., Any], jvp: Callable[..., Any], probs: bool = False
                  ) -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """The rules of a loss of (C,) or (N, C) (input, weight, target), made rules of (N, C, d1, ...) too: the classes
    moved last and the samples (n, d1, ...) taken as a batch, in PyTorch's order (nll_loss2d's; and a tape made
    before the point's shapes are known, where the graph of nll_loss_nd depends on them, still computes)."""
    def forward(x: Any, w: Any, t: Any, ranks: tuple[int, ...], reduction: str = "mean", **options: Any) -> Any:
        if ranks[0] <= 2:
            return loss(x, w, t, ranks, reduction=reduction, **options)
        samples, targets, flat, each = _samples(x, t, ranks, probs)
        out = loss(samples, w, targets, flat, reduction=reduction, **options)
        return np.reshape(out, each) if reduction == "none" else out

    def backward(g: Any, ans: Any, x: Any, w: Any, t: Any, ranks: tuple[int, ...], reduction: str = "mean",
                 **options: Any) -> tuple[Any, Any, Any]:
        if ranks[0] <= 2:
            return vjp(g, ans, x, w, t, ranks, reduction=reduction, **options)
        samples, targets, flat, each = _samples(x, t, ranks, probs)
        parts = vjp(_flat(g, reduction, ranks[0]), _flat(ans, reduction, ranks[0]), samples, w, targets, flat,
                    reduction=reduction, **options)
        point = (*each[len(each) - ranks[0] + 1:], np.shape(x)[1 - ranks[0]])  # (n, d1, ..., C)
        back = [None if part is None else
                np.moveaxis(np.reshape(part, (*np.shape(part)[:np.ndim(part) - 2], *point)), -1, 1 - ranks[0])
                for part in (parts[0], parts[2])]
        return back[0], parts[1], back[1]

    def tangent(tangents: Any, ans: Any, x: Any, w: Any, t: Any, ranks: tuple[int, ...], reduction: str = "mean",
                **options: Any) -> Any:
        if ranks[0] <= 2:
            return jvp(tangents, ans, x, w, t, ranks, reduction=reduction, **options)
        samples, targets, flat, each = _samples(x, t, ranks, probs)
        tx = None if tangents[0] is None else _samples(tangents[0], t, ranks, probs)[0]
        tt = None if tangents[2] is None or not probs else _samples(x, tangents[2], ranks, probs)[1]
        out = jvp((tx, tangents[1], tt), _flat(ans, reduction, ranks[0]), samples, w, targets, flat,
                  reduction=reduction, **options)
        return np.reshape(out, each) if reduction == "none" else out

    return forward, backward, tangent


_NLL_RULES = _over_samples(partial(_index_loss, log_input=True), partial(_index_vjp, log_input=True),
                           partial(_index_jvp, log_input=True))


def _nll_nd(emit: Any, lsm: Any, w: Any, t: Any, reduction: str, ignore_index: int) -> Any:
    """PyTorch's nll_loss_nd of log-probabilities: nll_loss of (C,) or (N, C), nll_loss2d of the rest."""
    sx, st = emit.shape(lsm), emit.shape(t)
    if sx is None or st is None or len(sx) <= 2:
        return emit("nll_loss_forward", lsm, w, t, reduction=reduction, ignore_index=ignore_index)
    _nd_shape(sx, (), st, reduction)  # (the weight's shape after the target's dtype: nll_loss2d's)
    if len(sx) == 4:
        return emit("nll_loss2d", lsm, w, t, reduction=reduction, ignore_index=ignore_index)
    n, classes = sx[0], sx[1]
    empty = math.prod(sx) == 0  # (an empty batch: viewed as (N, C, 0, 0), as PyTorch views it)
    lsm = emit("reshape", lsm, shape=(n, classes, 0, 0) if empty else (n, classes, 1, -1))
    t = emit("reshape", t, shape=(n, 0, 0) if math.prod(st) == 0 else (n, 1, -1))
    loss = emit("nll_loss2d", lsm, w, t, reduction=reduction, ignore_index=ignore_index)
    return emit("reshape", loss, shape=(n, *sx[2:])) if reduction == "none" else loss


def _nll_program(emit: Any, x: Any, w: Any, t: Any, reduction: str = "mean", ignore_index: int = -100) -> Any:
    return _nll_nd(emit, x, w, t, reduction, ignore_index)


# nll_loss's class indices are int64 or uint8 (checked after the batch size and the target's rank, which
# _batch_first checks, and before the rest of the shapes)
_NLL_TARGET = (("target not long or byte", "RuntimeError", "expected target dtype to be Long or Byte, but got {2}"),)


def _nll_node(constant: Any, shapes: Any, reduction: str = "mean", **given: Any) -> str:
    rank = len(shapes[0]) if shapes else 2
    if rank <= 2:
        return "NllLossBackward0"
    return "NllLoss2DBackward0" if rank == 4 or reduction != "none" else "ViewBackward0"


ROWS += [
    composite("cross_entropy", 3, _ce_program, "NllLossBackward0", sympy=None,  # (nll_loss has no SymPy rule)
              index_from=2, tensor_positions=(0, 2, 1), optional_args=((2, "weight", 1.0),), conditions=(1,), given_0d=_weight_0d,
              float_index="cross_entropy_probs", shape=_batch_first, shape_message=_ce_message("cross_entropy"),
              parser_name="cross_entropy_loss",
              params=(SIZE_AVERAGE, _parsed(_IGNORE, "cross_entropy_loss", 5), REDUCE, REDUCTION,
                      _parsed(_SMOOTHING, "cross_entropy_loss", 6)),
              inputs=("input", "weight", "target"), dialects=F_LOSS,
              torch_node_rule=_ce_node, text=_ce_text("cross_entropy"), domain=_WEIGHTS, examples=_CE_EXAMPLES,
              reference="F.cross_entropy(a, b.long())", reference_program="cross_entropy(a, b)",
              dtype_refusals=kernel_refusal("log_softmax{lastdim}_kernel_impl")),
    # cross_entropy with label_smoothing: PyTorch's sum of the two terms (AddBackward0 over two MulBackward1)
    composite("cross_entropy_smoothed", 3, _smoothed_program, "AddBackward0", sympy=None,
              shape_message=_ce_message("cross_entropy"),
              index_from=2, tensor_positions=(0, 2, 1), optional_args=((2, "weight", 1.0),), conditions=(1,), given_0d=_weight_0d,
              params=(REDUCTION, _IGNORE, _SMOOTHING), shape=_batch_first, callable=False,
              text=_ce_text("cross_entropy"), domain=_WEIGHTS, examples=_CE_EXAMPLES[4:],
              reference="F.cross_entropy(a, b.long(), label_smoothing=0.1)", reference_program="cross_entropy(a, b, label_smoothing=0.1)",
              dtype_refusals=kernel_refusal("log_softmax{lastdim}_kernel_impl")),
    # (over --points, where the shapes are not known while the tape is made: one node)
    structural("cross_entropy_smoothed_whole", 3, *_over_samples(_index_loss, _index_vjp, _index_jvp)[:2],
               "AddBackward0", jvp=_over_samples(_index_loss, _index_vjp, _index_jvp)[2],
               shape_message=_ce_message("cross_entropy"),
               index_from=2, tensor_positions=(0, 2, 1), optional_args=((2, "weight", 1.0),), conditions=(1,), given_0d=_weight_0d,
               params=(REDUCTION, _IGNORE, _SMOOTHING), shape=_ce_shape, callable=False, reference=None,
               text=_ce_text("cross_entropy"), domain=_WEIGHTS, examples=_CE_EXAMPLES[4:6]),
    structural("cross_entropy_whole", 3, *_over_samples(_index_loss, _index_vjp, _index_jvp)[:2], "NllLossBackward0",
               jvp=_over_samples(_index_loss, _index_vjp, _index_jvp)[2], shape_message=_ce_message("cross_entropy"),
               index_from=2, tensor_positions=(0, 2, 1), optional_args=((2, "weight", 1.0),), conditions=(1,),
               given_0d=_weight_0d, params=(REDUCTION, _IGNORE), shape=_ce_shape, callable=False, reference=None,
               torch_node_rule=_nll_node, text=_ce_text("cross_entropy"), domain=_WEIGHTS, examples=_CE_EXAMPLES[:4]),
    # the weight of the targets a smoothed 'mean' divides by (a number without a gradient)
    structural("kept_weight", 2, _kept_weight, _kept_weight_vjp, "None", index_from=1, params=(_IGNORE,),
               jvp=lambda tangents, ans, w, t, ranks, **params: (  # (linear in the weight)
                   np.zeros_like(ans) if tangents[0] is None else _kept_weight(tangents[0], t, ranks, **params)),
               callable=False, reference=None,
               shape=lambda w, t, ignore_index=-100: (), examples=((((3,), (2,)), {}), (((), (2,)), {}))),
    composite("cross_entropy_probs", 3, _probs_program, "DivBackward1", sympy=None,
              shape_message=_ce_message("cross_entropy"),
              callable=False, tensor_positions=(0, 2, 1), params=(REDUCTION, _IGNORE, _SMOOTHING), shape=_probs_shape,
              optional_args=((2, "weight", 1.0),), given_0d=_weight_0d, torch_node_rule=_ce_prob_node, text=_ce_text("cross_entropy", floats=True), domain=((-2.0, 2.0), (0.5, 2.0), (0.0, 1.0)),
              examples=(((((2, 3), (3,), (2, 3)), {}), (((3,), (3,), (3,)), {"reduction": "sum"}),
                         (((2, 3), (3,), (2, 3)), {"reduction": "none", "label_smoothing": 0.2}),
                         (((2, 3, 2), (3,), (2, 3, 2)), {"reduction": "none"}), (((2, 3, 2, 2), (3,), (2, 3, 2, 2)), {}))),
              reference="F.cross_entropy(a, b * 1.0)", reference_program="cross_entropy(a, b * 1.0)",
              dtype_refusals=(("integer 2", "RuntimeError", "Expected floating point type for target with class probabilities, got {2}"),
                              *kernel_refusal("log_softmax{lastdim}_kernel_impl"))),
    structural("cross_entropy_probs_whole", 3, *_over_samples(_prob_loss, _prob_vjp, _prob_jvp, probs=True)[:2],
               "DivBackward1", jvp=_over_samples(_prob_loss, _prob_vjp, _prob_jvp, probs=True)[2],
               shape_message=_ce_message("cross_entropy"),
               callable=False, tensor_positions=(0, 2, 1), params=(REDUCTION, _IGNORE, _SMOOTHING), shape=_probs_shape,
               torch_node_rule=_ce_prob_node, text=_ce_text("cross_entropy", floats=True), reference=None,
               domain=((-2.0, 2.0), (0.5, 2.0), (0.0, 1.0)), examples=(((((2, 3), (3,), (2, 3)), {}),))),
    # nll_loss: PyTorch's nll_loss_nd, nll_loss_forward of (C,) and (N, C) log-probabilities, nll_loss2d of the rest
    composite("nll_loss", 3, _nll_program, "NllLossBackward0", sympy=None, index_from=2,
              shape_message=_ce_message("nll_loss"), tensor_positions=(0, 2, 1), optional_args=((2, "weight", 1.0),),
              conditions=(1,), given_0d=_weight_0d, shape=_batch_first, parser_name="nll_loss_nd",
              params=(SIZE_AVERAGE, _parsed(_IGNORE, "nll_loss_nd", 5), REDUCE, REDUCTION),
              inputs=("input", "weight", "target"), dialects=F_LOSS,
              torch_node_rule=_nll_node, text=_ce_text("nll_loss"), domain=_WEIGHTS,
              examples=((((2, 3), (3,), (2,)), {}), (((2, 3, 2), (3,), (2, 2)), {"reduction": "none"}),
                        (((2, 3, 2, 2), (3,), (2, 2, 2)), {"reduction": "sum"}),
                        (((2, 3, 1, 2, 2), (3,), (2, 1, 2, 2)), {})),
              reference="F.nll_loss(a, b.long())", reference_program="nll_loss(a, b)",
              dtype_refusals=kernel_refusal("nll_loss_out_frame")),
    structural("nll_loss2d", 3, _NLL_RULES[0], _NLL_RULES[1], "NllLoss2DBackward0", jvp=_NLL_RULES[2], index_from=2,
               callable=False, shape_message=_ce_message("nll_loss"), tensor_positions=(0, 2, 1),
               optional_args=((2, "weight", 1.0),), conditions=(1,), given_0d=_weight_0d, params=(REDUCTION, _IGNORE),
               shape=_spatial_shape, text=_ce_text("nll_loss"), domain=_WEIGHTS,
               examples=((((2, 3, 2, 2), (3,), (2, 2, 2)), {}), (((1, 3, 2, 3), (3,), (1, 2, 3)), {"reduction": "none"}),
                         (((2, 2, 1, 3), (2,), (2, 1, 3)), {"reduction": "sum"})),
               undifferentiable=((1, "nll_loss2d_forward", "weight"),),
               dtype_refusals=(*_NLL_TARGET, ("index not long", "RuntimeError", "expected scalar type Long but found {2}"),
                               ("mixed 0 1", "RuntimeError", "expected scalar type {0} but found {1}")),
               reference=None),  # (a part of nll_loss and cross_entropy, held to PyTorch through them)
    structural("nll_loss_forward", 3, _NLL_RULES[0], _NLL_RULES[1], "NllLossBackward0", jvp=_NLL_RULES[2],
               index_from=2, callable=False,
               shape_message=_ce_message("nll_loss"),
               tensor_positions=(0, 2, 1), optional_args=((2, "weight", 1.0),), conditions=(1,), given_0d=_weight_0d, params=(REDUCTION, _IGNORE),
               shape=_ce_shape, text=_ce_text("nll_loss"), domain=_WEIGHTS,
               examples=((((2, 3), (3,), (2,)), {}), (((3,), (3,), ()), {"reduction": "none"}),
                         (((2, 3), (3,), (2,)), {"reduction": "sum"})),
               reference=None,  # (a part of nll_loss and cross_entropy, held to PyTorch through them)
               undifferentiable=((1, "nll_loss_forward", "weight"),),
               dtype_refusals=(("vector target not long or byte", *_NLL_TARGET[0][1:]), *kernel_refusal("nll_loss_out_frame"), ("mixed 0 1", "RuntimeError", "expected scalar type {0} but found {1}"))),
]


# --- layer_norm: over the last len(normalized_shape) axes, weight and bias tensor args ---------


def _layer_axes(x: Any, rank: int, normalized_shape: tuple[int, ...]) -> tuple[int, ...]:
    k = len(normalized_shape)
    point = tuple(np.shape(x)[np.ndim(x) - rank:])
    if k == 0 or k > rank or point[rank - k:] != tuple(normalized_shape):
        raise ValueError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                         f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{list(point)}")
    return tuple(range(-k, 0))


def _layer_parts(x: Any, rank: int, normalized_shape: tuple[int, ...], eps: float) -> tuple[Any, Any, Any, Any]:
    """(the axes, the mean, x normalized, 1 / sqrt(var + eps)), the mean and rstd kept."""
    axes = _layer_axes(x, rank, normalized_shape)
    if _float64(x) and x.size:  # (PyTorch's kernel's own steps: gradcli.ops.float64)
        rows = x.reshape((*x.shape[:x.ndim - len(axes)], -1))
        mean, variance = (v.reshape(v.shape + (1,) * len(axes)) for v in float64.row_moments(rows))
    else:
        mean, variance = row_moments(x, len(axes))
    rstd = 1.0 / np.sqrt(variance + eps)
    return axes, mean, (x - mean) * rstd, rstd


def _float64(*values: Any) -> bool:
    return all(type(v) is np.ndarray and v.dtype == np.float64 for v in values)


def _rows(v: Any, count: int) -> Any:
    """v with its last `count` axes as one (a number or a broadcast value as it is)."""
    v = np.asarray(v)
    return v.reshape((*v.shape[:v.ndim - count], -1)) if v.ndim >= count else v


def row_moments(x: Any, count: int) -> tuple[Any, Any]:
    """The mean and the biased variance of x's last `count` axes (kept), as PyTorch's normalizations (layer_norm,
    group_norm) take them: in float64 PyTorch's own steps (RowwiseMoments: gradcli.ops.float64.row_moments), in
    other dtypes by the two passes, or by PyTorch's steps where a square may overflow (below)."""
    axes = tuple(range(-count, 0))
    values = np.asarray(getattr(x, "primal", x))
    if values.size and ((values is x and values.dtype == np.float64) or np.max(np.abs(values)) > _SQUARE_MAY_OVERFLOW):
        lead = values.shape[:values.ndim - count]
        mean, variance = (v.reshape(lead + (1,) * count) for v in float64.row_moments(
            np.asarray(values, dtype=np.float64).reshape((*lead, -1))))
        if values is not x:  # (the Hessian's dual numbers: the two passes, NaN where PyTorch's are)
            mean = np.mean(x, axis=axes, keepdims=True)
            centred = x - mean
            variance = np.where(np.isnan(variance), np.nan, np.mean(centred * centred, axis=axes, keepdims=True))
        return mean, variance
    mean = np.mean(x, axis=axes, keepdims=True)
    centred = x - mean
    return mean, np.mean(centred * centred, axis=axes, keepdims=True)


# Where a row holds a number past 6.7e153, whose difference from another may square to inf, the
# moments are PyTorch's own (RowwiseMoments: gradcli.ops.float64.row_moments): where Welford's steps
# meet delta**2 * 0 with delta**2 past the floats (a row of fewer than 4, whose lanes are empty, or
# of 4k, whose first lane meets nothing), that is inf * 0: the variance is NaN, and so is the row
# (layer_norm([0, 1e300]) is NaN in PyTorch; the two passes gave 0), while a sum of such numbers that
# overflows leaves Welford's mean finite. Below, the two passes give the same moments to rounding.
_SQUARE_MAY_OVERFLOW = 6.7e153


def _layer_norm(x: Array, w: Array, b: Array, ranks: tuple[int, ...], normalized_shape: tuple[int, ...] = (),
                eps: float = 1e-5) -> Array:
    _, _, xhat, _ = _layer_parts(x, ranks[0], normalized_shape, eps)
    if _float64(xhat, np.asarray(w), np.asarray(b)):
        return fma64(xhat, w, b)  # (PyTorch's: one fused multiply-add)
    return np.asarray(xhat * w + b)


def _layer_norm_vjp(g: Array, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...],
                    normalized_shape: tuple[int, ...] = (), eps: float = 1e-5) -> tuple[Any, Any, Any]:
    axes, mean, xhat, rstd = _layer_parts(x, ranks[0], normalized_shape, eps)
    # PyTorch's kernel: dx = rstd * g * w + b * x + c, from the sums of g * w * x and g * w
    count = int(np.prod(normalized_shape))
    if _float64(x, g, np.asarray(w)) and x.size:
        k = len(axes)
        weight = None if np.ndim(w) == 0 else _rows(w, k) if np.ndim(w) >= k else w  # (0-d: no weight given)
        dx = float64.layer_norm_backward(_rows(g, k), _rows(x, k), weight, _rows(mean, k), _rows(rstd, k),
                                         count).reshape(x.shape)
        return dx, g * xhat, g
    gw = g * w
    ds, db = np.sum(gw * x, axis=axes, keepdims=True), np.sum(gw, axis=axes, keepdims=True)
    b_ = (db * mean - ds) * rstd * rstd * rstd * (1.0 / count)
    c_ = -b_ * mean - db * rstd * (1.0 / count)
    dx = rstd * gw + b_ * x + c_
    return dx, g * xhat, g  # (call_vjp sums the weight's and the bias's over the rest)


def _layer_norm_jvp(tangents: Any, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...],
                    normalized_shape: tuple[int, ...] = (), eps: float = 1e-5) -> Any:
    axes, _, xhat, rstd = _layer_parts(x, ranks[0], normalized_shape, eps)
    tx, tw, tb = tangents
    out = 0.0 * xhat
    if tx is not None:
        out = out + rstd * (tx - np.mean(tx, axis=axes, keepdims=True)
                            - xhat * np.mean(tx * xhat, axis=axes, keepdims=True)) * w
    if tw is not None:
        out = out + xhat * tw
    return out if tb is None else out + tb


def _layer_norm_shape(x: Shape, w: Shape, b: Shape, normalized_shape: tuple[int, ...] = (), eps: float = 1e-5) -> Shape:
    for name, shape in (("weight", w), ("bias", b)):  # (PyTorch's layer_norm checks them before the input)
        if shape and tuple(shape) != tuple(normalized_shape):  # (a refusal before computing: it would broadcast)
            raise ValueRefusal(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(shape)} and normalized_shape = {list(normalized_shape)}")
    _layer_axes(np.empty(x), len(x), normalized_shape)
    return x


# --- dropout: the input itself where nothing is dropped (PyTorch records no node) -------------


def _keeps_everything(p: float = 0.5, training: bool = True, inplace: bool = False) -> bool:
    if not 0.0 <= p <= 1.0:  # (p as written: 2, 2.0, inf)
        raise PythonValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return p == 0.0 or not training


def _dropout(x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    if not _keeps_everything(**params):
        raise ValueError("dropout with p > 0 in training draws random numbers")
    return x


# PyTorch's dtype checks of F.linear (addmm(bias, input, weight.T)): the bias against the weight, then the input
_LINEAR_DTYPES = (("mixed 1 2", "RuntimeError", "self and mat2 must have the same dtype, but got {2} and {1}"),
                  ("mixed 0 1", "RuntimeError", "mat1 and mat2 must have the same dtype, but got {0} and {1}"))


# The dtype checks of the normalizations' CPU kernels: the weight's dtype is the input's, then the bias's (layer_norm,
# group_norm; batch_norm checks its weight, then the rest)
MIXED_CPU = "mixed dtype (CPU): expect parameter to have scalar type of Float"
NORM_DTYPES = (("mixed params 1 2", "RuntimeError", MIXED_CPU),
               ("mixed", "RuntimeError", "expected scalar type {0} but found {odd}"))


def _cosine_program(emit: Any, a: Any, b: Any, dim: int = 1, eps: float = 1e-8) -> Any:
    # PyTorch's: ((x1 / n1) * (x2 / n2)).sum(dim), x1 and x2 broadcast together first, each n the kept
    # 2-norm cloned and clamped to eps in place without a gradient. Where the shapes differ and are
    # known (emit.shape), both are expanded first, as PyTorch records it (ExpandBackward0 each)
    # An integer or bool input is first copied into the other's float dtype (a float input keeps its own:
    # each norm is in its input's dtype, as PyTorch's)
    kinds = [emit.dtype(a), emit.dtype(b)]
    floats = [kind for kind in kinds if kind.startswith("float")]
    if floats and len(floats) < 2:
        a, b = (x if kind.startswith("float") else emit("to_copy", x, dtype=floats[0]) for x, kind in zip((a, b), kinds))
    sa, sb = emit.shape(a), emit.shape(b)
    if sa is not None and sb is not None and tuple(sa) != tuple(sb):
        both = tuple(np.broadcast_shapes(tuple(sa), tuple(sb)))
        a, b = emit("expand", a, size=both), emit("expand", b, size=both)
    a_norm = emit("clamped_clone", emit("broadcast_norm", a, b, p=2.0, dim=dim, keepdim=True), min=eps)
    b_norm = emit("clamped_clone", emit("broadcast_norm", b, a, p=2.0, dim=dim, keepdim=True), min=eps)
    return emit("sum", emit("mul", emit("div", a, a_norm), emit("div", b, b_norm)), dim=dim)


def _broadcast(x: Array, other: Array) -> Array:
    return np.broadcast_to(x, np.broadcast_shapes(np.shape(x), np.shape(other)))


def _broadcast_norm(x: Array, other: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    return _norm(_broadcast(x, other), (max(ranks),), **params)


def _broadcast_norm_vjp(g: Array, ans: Array, x: Array, other: Array, ranks: tuple[int, ...],
                        **params: Any) -> tuple[Array, None]:
    # (None for the other: no gradient flows into it, and a zero added would turn a -0.0 into 0.0)
    return _norm_vjp(g, ans, _broadcast(x, other), (max(ranks),), **params)[0], None


def _broadcast_norm_jvp(tangents: Any, ans: Array, x: Array, other: Array, ranks: tuple[int, ...],
                        **params: Any) -> Array:
    if tangents[0] is None:
        return np.zeros_like(ans)
    g = _norm_vjp(np.ones_like(ans), ans, _broadcast(x, other), (max(ranks),), **params)[0]
    axes = point_axes(params.get("dim"), max(ranks))
    return np.asarray(np.sum(g * _broadcast(tangents[0], other), axis=axes, keepdims=params.get("keepdim", False)))


def _normalize_program(emit: Any, x: Any, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Any:
    # PyTorch's: input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return emit("div", x, emit("expand_as", emit("clamp_min", emit("norm", x, p=p, dim=dim, keepdim=True), min=eps), x))


ROWS += [
    # x's norm as x broadcast against another (cosine_similarity broadcasts its inputs first): a part
    # of that composite alone, PyTorch's LinalgVectorNormBackward0 (over the Expand it records where
    # the shapes differ), the other arg no input of it
    structural("broadcast_norm", 2, _broadcast_norm, _broadcast_norm_vjp, "LinalgVectorNormBackward0",
               jvp=_broadcast_norm_jvp, aligns=True, conditions=(1,), callable=False, reference=None,
               dtype="first",  # (the other arg gives its shape alone: the norm is in x's own dtype, as PyTorch's)
               params=(Param("p", "float", 2.0), Param("dim", "int", None), Param("keepdim", "bool", False)),
               text=lambda args, **params: f"norm({args[0]} broadcast with {args[1]})",
               examples=((((2, 3), (2, 3)), {"dim": 1, "keepdim": True}), (((1, 3), (2, 3)), {"dim": 0}),
                         (((2, 1), (2, 3)), {"dim": -1, "keepdim": True}))),
    composite("cosine_similarity", 2, _cosine_program, "SumBackward1", sympy=None,  # (the clamp has no gradient)
              params=(Param("dim", "int", 1, aliases=("axis",)), Param("eps", "float", 1e-8)),
              examples=((((2, 3), (2, 3)), {}), (((3,), (3,)), {"dim": 0}), (((2, 3), (3,)), {"dim": -1}),
                         (((2, 3), (2, 1)), {"dim": 0, "eps": 0.5})),
                         reference="F.cosine_similarity(a, b, dim=0)", reference_program="cosine_similarity(a, b, dim=0)"),
    composite("normalize", 1, _normalize_program, "DivBackward0",
              # (out=: PyTorch's div(input, denom, out=out), refused with a graph under `run` in PyTorch's words)
              params=(Param("p", "float", 2.0), Param("dim", "int", 1, aliases=("axis",)), Param("eps", "float", 1e-12),
                      Param("out", "absent")),
              kinked=True,
               examples=((((2, 3),), {}), (((3,),), {"dim": 0}), (((2, 3),), {"p": 1.0, "dim": 0}),
                         (((2, 2, 3),), {"p": 3.0, "dim": -1, "eps": 0.5})),
                         reference="F.normalize(a, dim=0)", reference_program="normalize(a, dim=0)"),
    structural("layer_norm", 3, _layer_norm, _layer_norm_vjp, "NativeLayerNormBackward0", jvp=_layer_norm_jvp,
               aligns=True, tensor_positions=(0, 2, 3), optional_args=((2, "weight", 1.0), (3, "bias", 0.0)),
               given_0d=lambda keyword, shapes, params: (
                   f"Expected {keyword} to be of same shape as normalized_shape, but got {keyword} of shape [] and "
                   f"normalized_shape = {list(params.get('normalized_shape', ()))}"),
               params=(Param("normalized_shape", "ints"), Param("eps", "float", 1e-5)), shape=_layer_norm_shape,
               text=lambda args, normalized_shape=(), eps=1e-5: "layer_norm({}, {}{}{}{})".format(
                   args[0], tuple(normalized_shape), "" if args[1] in ("1", "1.0") else f", weight={args[1]}",
                   "" if args[2] in ("0", "0.0") else f", bias={args[2]}", "" if eps == 1e-5 else f", eps={eps!r}"),
               examples=((((2, 3), (3,), (3,)), {"normalized_shape": (3,)}),
                         (((2, 3), (2, 3), (2, 3)), {"normalized_shape": (2, 3), "eps": 0.1}),
                         (((4,), (4,), (4,)), {"normalized_shape": (4,)})),
                         reference="F.layer_norm(a, (3,))", reference_program="layer_norm(a, (3,))", dtype_refusals=NORM_DTYPES),
    structural("dropout", 1, _dropout, lambda g, ans, x, ranks, **params: (g,), "(none: the input itself)",
               params=(Param("p", "number", 0.5), Param("training", "bool", True), Param("inplace", "bool", False)),
               identity_when=_keeps_everything, shape=lambda x, **params: x,
               examples=((((3,),), {"p": 0.0}), (((2, 3),), {"training": False})),
               reference="F.dropout(a, 0.0)", reference_program="dropout(a, 0.0)"),
]


# --- linear: F.linear(input, weight, bias=None), recorded as PyTorch's linear records it ------------


def _linear_fused(x: Shape, w: Shape, b: Shape | None) -> bool:
    """Does PyTorch's at::linear take addmm (its bias expanded to the product)? For a 2-D input with a bias, and for
    an input of other dims (flattened to 2-D) where the bias is a vector or holds one number per output feature;
    otherwise it is matmul's product, the bias added to it in place."""
    return b is not None and (len(x) == 2 or len(b) == 1 or (len(w) > 0 and math.prod(b) == w[0]))


def _linear_parts(emit: Any, x: Any, w: Any, b: Any = None) -> Any:
    # PyTorch's at::linear: addmm(bias, x, w.t()) for a 2-D input (mm without a bias); any other
    # input is flattened to 2-D (a View), multiplied, and viewed back (UnsafeView over mm without a
    # bias) where the bias fits (_linear_fused); a 1-D input without a bias is matmul's (Squeeze over Mm)
    sx, sw, sb = emit.shape(x), emit.shape(w), None if b is None else emit.shape(b)
    wt = emit("t", w)
    if (sx is None or sw is None or len(sw) != 2 or not sx or (len(sx) == 1 and b is None)
            or (b is not None and sb is not None and not _linear_fused(sx, sw, sb))):
        out = emit("matmul", x, wt)  # (over --points: one node of each, the values the same)
        return out if b is None else emit("add", out, b)
    if len(sx) == 2:
        return emit("mm", x, wt) if b is None else emit("addmm", b, x, wt)
    flat = emit("reshape", x, shape=(int(np.prod(sx[:-1], dtype=np.int64)), sx[-1]))
    out = (*tuple(sx[:-1]), sw[0])
    if b is None:
        return emit("unsafe_view", emit("mm", flat, wt), shape=out)
    return emit("reshape", emit("addmm", b, flat, wt), shape=out)


def _linear_shape(x: Shape, w: Shape, b: Shape | None = None) -> Shape:
    """F.linear's shapes, in the words of what PyTorch's at::linear calls: the weight's t(), then addmm (a 2-D
    input with a bias; one of more dims is flattened to one) or matmul (whose vector weight is a vector)."""
    if len(w) > 2:
        raise ValueError(f"t() expects a tensor with <= 2 dimensions, but self is {len(w)}D")
    if not x or not w:
        raise ValueError(f"both arguments to linear need to be at least 1D, but they are {len(x)}D and {len(w)}D")
    wt = tuple(w)[::-1]
    fused = _linear_fused(x, w, b)  # (addmm's, whose bias expands to the output)
    if fused and len(wt) != 2:
        raise ValueError(f"mat2 must be a matrix, got {len(wt)}-D tensor")
    if x[-1] != wt[0]:
        raise ValueError(_mismatch(x, wt))
    out = (*tuple(x[:-1]), *wt[1:])
    if b is not None and not fused and np.broadcast_shapes(b, out) != out:  # (matmul's output, the bias added in place)
        raise ValueError(f"output with shape {list(out)} doesn't match the broadcast shape "
                         f"{list(np.broadcast_shapes(b, out))}")
    return out


ROWS += [
    composite("linear", 3, _linear_parts, "AddmmBackward0", sympy=None, shape=_linear_shape, overloads=("linear_nobias",),
              inputs=("input", "weight", "bias"), examples=((((2, 3), (4, 3), (4,)), {}), (((3,), (4, 3), (4,)), {}),
                                                            (((2, 2, 3), (4, 3), ()), {})),
              reference="F.linear(a, b, c)", reference_program="linear(a, b, c)", dtype_refusals=_LINEAR_DTYPES),
    composite("linear_nobias", 2, _linear_parts, "MmBackward0", sympy=None, shape=_linear_shape, callable=False,
              inputs=("input", "weight"), examples=((((2, 3), (4, 3)), {}), (((3,), (4, 3)), {}), (((2, 2, 3), (4, 3)), {})),
              text=lambda args: f"linear({', '.join(args)})", reference="F.linear(a, b)", reference_program="linear(a, b)"),
]
