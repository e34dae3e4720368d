"""THE table of primitives: one row per op, holding everything gradcli knows about it.

A row holds the op's name in the language, its arity, the NumPy forward, the VJP rule,
the JVP rule, the SymPy builder and the name of the node PyTorch records for it in
`grad_fn`. Adding an op is adding a row; nothing else in gradcli lists ops.

One signature per kind of rule (`params` are the static parameters an op takes from the
program text, such as the key of an index):

    forward(*args, **params) -> value
    vjp(g, ans, *args, **params) -> one cotangent per arg, None where none flows
    jvp(tangents, ans, *args, **params) -> the output's tangent (a tangent may be None: zero)
    sympy(*args, **params) -> a SymPy expression: elementwise ops take and give one
        expression (symbolic.py applies them element by element); the others take and give
        NumPy arrays of expressions (dtype object)
    shape(*shapes, **params) -> the value's shape at one point, from the args' shapes, before
        anything is computed (ValueError where they do not fit); None: broadcasting, as
        for every elementwise op
    floats = (forward, vjp): the same op on Python floats, for programs of numbers only
        (tape.forward and autodiff.backward skip the per-node work on arrays), with the
        signatures of the NumPy rules.
        A float rule gives the bits the NumPy rule gives on an array, or raises ValueError
        or ArithmeticError (1/0, math.sqrt(-1), a case where Python and NumPy differ): the
        engine then does the whole sweep again in NumPy. So a float rule calls the NumPy
        ufunc on the float (np.exp(x), which runs the same loop as on an array: NumPy's
        exp, log, sin, pow... may be SIMD code that differs from libm's math.exp in the
        last place) and keeps Python's own arithmetic only for what IEEE rounds exactly
        (+ - * /, math.sqrt, math.fabs).

Cotangents may have the broadcast shape; the engine undoes broadcasting with `unbroadcast`.

The VJP rules also run on dual numbers, for the Hessian's forward-over-reverse (gradcli.dual):
a rule that branches on a value decides on `_re(x)`, the value itself, never its tangent.
Values and derivatives follow PyTorch, subgradients included (relu'(0) = 0, abs'(0) = 0,
max(a, a) sends half the gradient each way).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

Array = np.ndarray
Rule = Callable[..., Any]


@dataclass(frozen=True, eq=False, repr=False)  # eq/repr left out: they cost start-up time
class Op:
    name: str  # the name in the language: "sin", or "add" for the infix `+`
    arity: int  # -1: any number of arguments (a list literal)
    forward: Rule
    vjp: Rule
    torch_node: str  # PyTorch's backward node, as grad_fn shows it
    jvp: Rule | None = None
    sympy: Rule | None = None
    symbol: str | None = None  # the infix or prefix symbol, for operators
    callable: bool = True  # can a program call it by name? (`neg` cannot; `-x` it is)
    # When PyTorch's node depends on which args are constants, or on shapes:
    # torch_node_rule(constant, shapes, **params) -> name
    torch_node_rule: Rule | None = None
    # Elementwise ops need nothing to work on a batch of points but arguments whose point
    # shapes are aligned (the engine inserts the axes); the others take `leads=` (see below).
    elementwise: bool = True
    aligns: bool = False  # a non-elementwise op that also wants its arguments aligned (stack)
    # `3*x` is `x.__rmul__(3)` in PyTorch: with a number on the left, the tensor comes first
    # in next_functions.
    reflects: bool = False
    floats: tuple[Rule, Rule] | None = None  # (forward, vjp) on Python floats: see above
    shape: Rule | None = None  # the output's shape from the args' shapes: see above


def unbroadcast(cotangent: Array, shape: tuple[int, ...]) -> Array:
    """Sum `cotangent` over the axes that broadcasting added to a value of `shape`."""
    if cotangent.shape == shape:
        return cotangent
    extra = cotangent.ndim - len(shape)
    if extra:
        cotangent = cotangent.sum(axis=tuple(range(extra)))
    kept = tuple(axis for axis, size in enumerate(shape) if size == 1 and cotangent.shape[axis] != 1)
    if kept:
        cotangent = cotangent.sum(axis=kept, keepdims=True)
    return cotangent


def _zero_tangent(t: Array | None, like: Array) -> Array:
    return np.zeros_like(like) if t is None else t


def _sum_tangents(*terms: Array | None) -> Array | float:
    present = [t for t in terms if t is not None]
    return sum(present[1:], present[0]) if present else 0.0


# --- rules needing more than one line ---------------------------------------------------


# NumPy computes a power whose exponent is one number (or the same along the loop) 2, 0.5 or
# -1 as square, sqrt, reciprocal, whose bits differ from pow's; an exponent that varies per
# point goes through pow. _power does the former everywhere, so that a point gives the same
# bits alone (one number) and in a batch (an exponent per point).
_SCALAR_POWERS = ((2.0, np.square), (0.5, np.sqrt), (-1.0, np.reciprocal))


def _power(a: Array, b: Array) -> Array:
    out = np.power(a, b)
    if np.ndim(b) == 0 or np.iscomplexobj(b) or np.iscomplexobj(a):
        return out
    for exponent, scalar_rule in _SCALAR_POWERS:
        hit = b == exponent
        if hit.any():
            out = np.where(hit, scalar_rule(a), out)
    return out


def _pow_vjp(g: Array, ans: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # PyTorch: no gradient flows to the base where the exponent is 0 (the product is masked,
    # NaN of g included), and the exponent's factor is 0 where the base is 0 and the exponent
    # non-negative (0**b is constant there; the factor is masked, so a NaN g still flows).
    da = np.where(_re(b) == 0, 0.0, g * b * _power(a, b - 1))
    db = g * np.where((_re(a) == 0) & (_re(b) >= 0), 0.0, ans * np.log(a))
    return da, db


def _pow_jvp(t: Sequence[Array | None], ans: Array, a: Array, b: Array) -> Array | float:
    ta, tb = t
    da = None if ta is None else np.where(_re(b) == 0, 0.0, ta * b * _power(a, b - 1))
    db = None if tb is None else tb * np.where((_re(a) == 0) & (_re(b) >= 0), 0.0, ans * np.log(a))
    return _sum_tangents(da, db)


def _atan2_scale(a: Array, b: Array) -> Array:
    # 1 / (a^2 + b^2), and 0 at the origin where PyTorch's atan2 backward gives 0.
    denominator = a * a + b * b
    return np.where(_re(denominator) == 0, 0.0, 1.0 / np.where(_re(denominator) == 0, 1.0, denominator))


def _pow_torch_node(constant: Sequence[bool], shapes: object) -> str:
    # x**2 is pow(Tensor, Scalar); 2**x is pow(Scalar, Tensor); x**y is pow(Tensor, Tensor).
    if constant[1]:
        return "PowBackward0"
    return "PowBackward2" if constant[0] else "PowBackward1"


def _re(x: Array) -> Array:
    """The value to decide on: on the Hessian's dual numbers, a branch never depends on the tangent."""
    return np.real(x)


def _abs(x: Array) -> Array:
    return np.abs(x)


def _atan2(a: Array, b: Array) -> Array:
    return np.arctan2(a, b)


def _max_vjp(g: Array, ans: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # torch.maximum: ties split the gradient in half, and only the strictly smaller side is
    # masked, so where either side is NaN both get the gradient.
    a, b = _re(a), _re(b)
    share = np.where(a == b, 0.5 * g, g)
    return np.where(a < b, 0.0, share), np.where(b < a, 0.0, share)


def _min_vjp(g: Array, ans: Array, a: Array, b: Array) -> tuple[Array, Array]:
    a, b = _re(a), _re(b)
    share = np.where(a == b, 0.5 * g, g)
    return np.where(a > b, 0.0, share), np.where(b > a, 0.0, share)


def _maximum(a: Array, b: Array) -> Array:
    return np.maximum(a, b)


def _minimum(a: Array, b: Array) -> Array:
    return np.minimum(a, b)


def _relu(x: Array) -> Array:
    # PyTorch's relu keeps what is not below 0: relu(-0.0) is -0.0 and relu(NaN) is NaN.
    return np.where(x < 0, 0.0, x)


def _relu_vjp(g: Array, ans: Array, x: Array) -> tuple[Array]:
    # PyTorch's threshold_backward masks where the value is <= 0: NaN passes the gradient.
    return (np.where(_re(x) <= 0, 0.0, g),)


def _sgn(x: Array) -> Array:
    """abs' as PyTorch has it: the sign, and 0 at 0 and at NaN."""
    x = _re(x)
    return np.where(x != x, 0.0, np.sign(x))


def _minmax_jvp(t: Sequence[Array | None], ans: Array, a: Array, b: Array, sign: int) -> Array | float:
    wins_a = np.where(_re(a) == _re(b), 0.5, (sign * _re(a - b) > 0).astype(float))
    ta, tb = t
    return _sum_tangents(
        None if ta is None else wins_a * ta,
        None if tb is None else (1.0 - wins_a) * tb,
    )


def _sigmoid(x: Array) -> Array:
    # exp(x) / (1 + exp(x)) below 0 and 1 / (1 + exp(-x)) above: exp never overflows, and
    # no 1 - tiny cancels, so the relative precision holds down to the smallest numbers.
    negative = _re(x) < 0
    e = np.exp(np.where(negative, x, -x))
    return np.where(negative, e / (1.0 + e), 1.0 / (1.0 + e))


def _softplus(x: Array) -> Array:
    # torch.nn.functional.softplus with beta=1, threshold=20: linear above the threshold.
    return np.where(_re(x) > 20, x, np.log1p(np.exp(np.where(_re(x) > 20, 20.0, x))))


def _softplus_slope(x: Array) -> Array:
    # PyTorch's softplus_backward: z / (z + 1) with z = exp(x), exact for x << 0 (where
    # 1 / (1 + exp(-x)) overflows to 0 first); 1 above the threshold.
    z = np.exp(np.where(_re(x) > 20, 20.0, x))
    return np.where(_re(x) > 20, 1.0, z / (z + 1.0))


# --- the float rules that need more than one line ------------------------------------------


def _not_float(value: float) -> float:
    """Hand a case to NumPy: Python and NumPy part ways on it (NaN in max, sign, ...)."""
    raise ArithmeticError(value)


def _sign(x: float) -> float:
    return 1.0 if x > 0 else -1.0 if x < 0 else 0.0  # 0 at NaN too, as _sgn


def _pow_float_vjp(g: float, ans: float, a: float, b: float) -> tuple[float, float]:
    da = 0.0 if b == 0 else g * b * np.power(a, b - 1)  # (a number exponent: as _power)
    return da, g * (0.0 if a == 0 and b >= 0 else ans * np.log(a))


def _max_float(a: float, b: float) -> float:
    if a > b or (a == b and a != 0):
        return a
    return b if a < b else _not_float(a)  # NaN, or 0.0 against -0.0


def _min_float(a: float, b: float) -> float:
    if a < b or (a == b and a != 0):
        return a
    return b if a > b else _not_float(a)


def _max_float_vjp(g: float, ans: float, a: float, b: float) -> tuple[float, float]:
    share = 0.5 * g if a == b else g
    return (0.0 if a < b else share), (0.0 if b < a else share)


def _min_float_vjp(g: float, ans: float, a: float, b: float) -> tuple[float, float]:
    share = 0.5 * g if a == b else g
    return (0.0 if a > b else share), (0.0 if b > a else share)


def _relu_float(x: float) -> float:
    return 0.0 if x < 0 else x


def _softplus_float(x: float) -> float:
    return x if x > 20 else np.log1p(np.exp(x))


def _softplus_float_vjp(g: float, ans: float, x: float) -> tuple[float]:
    if x > 20:
        return (g,)
    z = np.exp(x)
    return (g * (z / (z + 1.0)),)


def _sigmoid_float(x: float) -> float:
    if x < 0:
        e = np.exp(x)
        return e / (1.0 + e)
    return 1.0 / (1.0 + np.exp(-x))


def _atan2_float_vjp(g: float, ans: float, a: float, b: float) -> tuple[float, float]:
    denominator = a * a + b * b
    scale = 0.0 if denominator == 0 else 1.0 / denominator
    return g * b * scale, -g * a * scale


_LN2, _LN10 = float(np.log(2.0)), float(np.log(10.0))


# --- rules of the ops that act on a value's own axes ---------------------------------------
# With --points, values carry a leading batch axis; these rules take `leads`, the number of
# leading batch axes of each argument (0 or 1), and act on the per-point axes only.


def _point_axes(x: Array, lead: int) -> tuple[int, ...]:
    return tuple(range(lead, x.ndim))


def _expand(g: Array, x: Array, lead: int) -> Array:
    """A reduction's cotangent (batch shape) -> broadcastable against x (batch + point shape)."""
    return np.reshape(g, np.shape(g) + (1,) * (x.ndim - lead))


def _sum(x: Array, leads: tuple[int, ...] = (0,)) -> Array:
    return np.asarray(np.sum(x, axis=_point_axes(x, leads[0])))


def _sum_vjp(g: Array, ans: Array, x: Array, leads: tuple[int, ...] = (0,)) -> tuple[Array]:
    return (np.broadcast_to(_expand(g, x, leads[0]), x.shape),)


def _count(x: Array, lead: int) -> int:
    return int(np.prod(x.shape[lead:], dtype=np.int64))


def _mean(x: Array, leads: tuple[int, ...] = (0,)) -> Array:
    return np.asarray(np.mean(x, axis=_point_axes(x, leads[0])))


def _mean_vjp(g: Array, ans: Array, x: Array, leads: tuple[int, ...] = (0,)) -> tuple[Array]:
    return (np.broadcast_to(_expand(g, x, leads[0]) / _count(x, leads[0]), x.shape),)


def _logsumexp(x: Array, leads: tuple[int, ...] = (0,)) -> Array:
    axes = _point_axes(x, leads[0])
    peak = np.max(_re(x), axis=axes, keepdims=True) if x.size else np.zeros(x.shape[: leads[0]] + (1,) * len(axes))
    peak = np.where(np.isfinite(peak), _re(peak), 0.0)
    return np.asarray(np.log(np.sum(np.exp(x - peak), axis=axes)) + np.reshape(peak, peak.shape[: leads[0]]))


def _logsumexp_vjp(g: Array, ans: Array, x: Array, leads: tuple[int, ...] = (0,)) -> tuple[Array]:
    return (_expand(g, x, leads[0]) * np.exp(x - _expand(ans, x, leads[0])),)


def _norm(x: Array, leads: tuple[int, ...] = (0,)) -> Array:
    return np.asarray(np.sqrt(np.sum(x * x, axis=_point_axes(x, leads[0]))))


def _norm_slope(x: Array, ans: Array, lead: int) -> Array:
    # x / |x|, and 0 at the origin (PyTorch's vector_norm backward is 0 there, not NaN).
    at_origin = _expand(_re(ans) == 0, x, lead)
    return np.where(at_origin, 0.0, x / np.where(at_origin, 1.0, _expand(ans, x, lead)))


def _norm_vjp(g: Array, ans: Array, x: Array, leads: tuple[int, ...] = (0,)) -> tuple[Array]:
    # g times the slope: a NaN g stays NaN at the origin, as in PyTorch.
    return (_expand(g, x, leads[0]) * _norm_slope(x, ans, leads[0]),)


def _point_ndims(a: Array, b: Array, leads: tuple[int, ...]) -> tuple[int, int]:
    return a.ndim - leads[0], b.ndim - leads[1]


def _matmul(a: Array, b: Array, leads: tuple[int, ...] = (0, 0)) -> Array:
    # Lift 1-D operands to matrices (a row on the left, a column on the right), multiply,
    # and drop the lifted axes again: NumPy's matmul for 1-D and 2-D, batched.
    na, nb = _point_ndims(a, b, leads)
    if na not in (1, 2) or nb not in (1, 2):
        raise ValueError(f"@ takes 1-D or 2-D operands, got {na}-D and {nb}-D")
    out = np.matmul(a[..., None, :] if na == 1 else a, b[..., :, None] if nb == 1 else b)
    if nb == 1:
        out = out[..., 0]
    if na == 1:
        out = out[..., 0] if nb == 1 else out[..., 0, :]
    return np.asarray(out)


def _matmul_vjp(g: Array, ans: Array, a: Array, b: Array, leads: tuple[int, ...] = (0, 0)) -> tuple[Array, Array]:
    na, nb = _point_ndims(a, b, leads)
    a2 = a[..., None, :] if na == 1 else a
    b2 = b[..., :, None] if nb == 1 else b
    g2 = g
    if nb == 1:
        g2 = g2[..., None]
    if na == 1:
        g2 = g2[..., None, :]
    ga = np.matmul(g2, np.swapaxes(b2, -1, -2))
    gb = np.matmul(np.swapaxes(a2, -1, -2), g2)
    return (ga[..., 0, :] if na == 1 else ga), (gb[..., 0] if nb == 1 else gb)


def _matmul_torch_node(constant: Sequence[bool], shapes: Sequence[tuple[int, ...]] | None) -> str:
    if shapes is None:
        return "MmBackward0"
    ndims = (len(shapes[0]), len(shapes[1]))
    return {(2, 2): "MmBackward0", (2, 1): "MvBackward0", (1, 1): "DotBackward0"}.get(ndims, "MmBackward0")


def _dot(a: Array, b: Array, leads: tuple[int, ...] = (0, 0)) -> Array:
    na, nb = _point_ndims(a, b, leads)
    if na != 1 or nb != 1 or a.shape[-1] != b.shape[-1]:
        raise ValueError("dot takes two 1-D vectors of one length")
    return np.asarray(np.einsum("...i,...i->...", a, b))


def _full_key(key: tuple[Any, ...], lead: int) -> tuple[Any, ...]:
    return (slice(None),) * lead + tuple(key)


def _getitem(x: Array, key: tuple[Any, ...], leads: tuple[int, ...] = (0,)) -> Array:
    return np.asarray(x[_full_key(key, leads[0])])


def _getitem_vjp(g: Array, ans: Array, x: Array, key: tuple[Any, ...], leads: tuple[int, ...] = (0,)) -> tuple[Array]:
    cotangent = np.zeros_like(x)
    cotangent[_full_key(key, leads[0])] += g  # basic indexing: no element is picked twice
    return (cotangent,)


def _getitem_torch_node(constant: Sequence[bool], shapes: object, key: tuple[Any, ...] = ()) -> str:
    # PyTorch indexes one axis at a time; its outermost node is that of the last item
    # that does something (a bare `:` does nothing).
    acting = [k for k in key if not (isinstance(k, slice) and k == slice(None))]
    return "SelectBackward0" if acting and isinstance(acting[-1], int) else "SliceBackward0"


def _stack(*items: Array, leads: tuple[int, ...] = ()) -> Array:
    # The items have one shape at each point (tape.check_shapes refuses a ragged list); with
    # points, a constant item is spread over the points' axis.
    if not any(leads):
        return np.stack(items)
    shape = np.shape(items[leads.index(1)])
    return np.stack([item if np.shape(item) == shape else np.broadcast_to(item, shape) for item in items], axis=1)


def _stack_vjp(g: Array, ans: Array, *items: Array, leads: tuple[int, ...] = ()) -> tuple[Array, ...]:
    # Views of g, one per item: np.take would copy all of g (a broadcast seed) for each item.
    return tuple(np.moveaxis(g, max(leads, default=0), 0))


def _stack_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    if any(shape != shapes[0] for shape in shapes):
        raise ValueError("the items of a list differ in shape")
    return (len(shapes), *shapes[0])


def _no_axes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    return ()


def _dot_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    if len(a) != 1 or a != b:
        raise ValueError("dot takes two 1-D vectors of one length")
    return ()


def _matmul_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    if len(a) not in (1, 2) or len(b) not in (1, 2) or a[-1] != b[0]:
        raise ValueError("@ takes 1-D or 2-D operands whose inner sizes agree")
    return a[:-1] + b[1:]


def _getitem_shape(x: tuple[int, ...], key: tuple[Any, ...]) -> tuple[int, ...]:
    # Basic indexing of a stand-in that holds one number: a view, nothing allocated.
    return np.broadcast_to(np.zeros(()), x)[key].shape


def load_sympy() -> Any:
    import sympy  # only the symbolic paths pay for importing SymPy

    return sympy


def _sym_total(terms: Any) -> Array:
    return np.asarray(load_sympy().Add(*np.asarray(terms).flat), dtype=object)


def _sym_logsumexp(x: Array) -> Array:
    sympy = load_sympy()
    return np.asarray(sympy.log(sympy.Add(*[sympy.exp(e) for e in x.flat])), dtype=object)


# --- the table --------------------------------------------------------------------------

_ROWS = [
    # operators
    Op("add", 2, np.add, lambda g, ans, a, b: (g, g), "AddBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(*t),
       sympy=lambda a, b: a + b, symbol="+", callable=False, reflects=True,
       floats=(lambda a, b: a + b, lambda g, ans, a, b: (g, g))),
    Op("sub", 2, np.subtract, lambda g, ans, a, b: (g, -g), "SubBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(t[0], None if t[1] is None else -t[1]),
       sympy=lambda a, b: a - b, symbol="-", callable=False,
       torch_node_rule=lambda constant, shapes: "RsubBackward1" if constant[0] else "SubBackward0",
       floats=(lambda a, b: a - b, lambda g, ans, a, b: (g, -g))),
    Op("mul", 2, np.multiply, lambda g, ans, a, b: (g * b, g * a), "MulBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else t[0] * b, None if t[1] is None else a * t[1]),
       sympy=lambda a, b: a * b, symbol="*", callable=False, reflects=True,
       floats=(lambda a, b: a * b, lambda g, ans, a, b: (g * b, g * a))),
    # PyTorch's rule for the divisor, -g * ((a / b) / b): a / (b * b) overflows where the
    # quotient does not, and y / y must have the gradient 0 exactly.
    Op("div", 2, np.divide, lambda g, ans, a, b: (g / b, -g * (ans / b)), "DivBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else t[0] / b,
                                              None if t[1] is None else -t[1] * (ans / b)),
       sympy=lambda a, b: a / b, symbol="/", callable=False,
       floats=(lambda a, b: a / b, lambda g, ans, a, b: (g / b, -g * (ans / b)))),
    Op("pow", 2, _power, _pow_vjp, "PowBackward0", jvp=_pow_jvp,
       sympy=lambda a, b: a**b, symbol="**", torch_node_rule=_pow_torch_node,
       floats=(np.power, _pow_float_vjp)),
    Op("matmul", 2, _matmul, _matmul_vjp, "MmBackward0",
       jvp=lambda t, ans, a, b, leads=(0, 0): _sum_tangents(None if t[0] is None else _matmul(t[0], b, leads),
                                                            None if t[1] is None else _matmul(a, t[1], leads)),
       sympy=lambda a, b: np.asarray(np.matmul(a, b), dtype=object), symbol="@", callable=False,
       torch_node_rule=_matmul_torch_node,
       elementwise=False, shape=_matmul_shape),
    Op("neg", 1, np.negative, lambda g, ans, x: (-g,), "NegBackward0",
       jvp=lambda t, ans, x: -_zero_tangent(t[0], x),
       sympy=lambda x: -x, symbol="-", callable=False,
       floats=(lambda x: -x, lambda g, ans, x: (-g,))),
    # elementwise functions
    Op("exp", 1, np.exp, lambda g, ans, x: (g * ans,), "ExpBackward0",
       jvp=lambda t, ans, x: t[0] * ans, sympy=lambda x: load_sympy().exp(x),
       floats=(np.exp, lambda g, ans, x: (g * ans,))),
    Op("log", 1, np.log, lambda g, ans, x: (g / x,), "LogBackward0",
       jvp=lambda t, ans, x: t[0] / x, sympy=lambda x: load_sympy().log(x),
       floats=(np.log, lambda g, ans, x: (g / x,))),
    Op("log2", 1, np.log2, lambda g, ans, x: (g / (x * _LN2),), "Log2Backward0",
       jvp=lambda t, ans, x: t[0] / (x * _LN2), sympy=lambda x: load_sympy().log(x, 2),
       floats=(np.log2, lambda g, ans, x: (g / (x * _LN2),))),
    Op("log10", 1, np.log10, lambda g, ans, x: (g / (x * _LN10),), "Log10Backward0",
       jvp=lambda t, ans, x: t[0] / (x * _LN10), sympy=lambda x: load_sympy().log(x, 10),
       floats=(np.log10, lambda g, ans, x: (g / (x * _LN10),))),
    Op("log1p", 1, np.log1p, lambda g, ans, x: (g / (1.0 + x),), "Log1PBackward0",
       jvp=lambda t, ans, x: t[0] / (1.0 + x), sympy=lambda x: load_sympy().log(1 + x),
       floats=(np.log1p, lambda g, ans, x: (g / (1.0 + x),))),
    Op("expm1", 1, np.expm1, lambda g, ans, x: (g * (ans + 1.0),), "Expm1Backward0",
       jvp=lambda t, ans, x: t[0] * (ans + 1.0), sympy=lambda x: load_sympy().exp(x) - 1,
       floats=(np.expm1, lambda g, ans, x: (g * (ans + 1.0),))),
    Op("sqrt", 1, np.sqrt, lambda g, ans, x: (g / (2.0 * ans),), "SqrtBackward0",
       jvp=lambda t, ans, x: t[0] / (2.0 * ans), sympy=lambda x: load_sympy().sqrt(x),
       floats=(math.sqrt, lambda g, ans, x: (g / (2.0 * ans),))),
    Op("abs", 1, _abs, lambda g, ans, x: (g * _sgn(x),), "AbsBackward0",
       jvp=lambda t, ans, x: t[0] * _sgn(x), sympy=lambda x: load_sympy().Abs(x),
       floats=(math.fabs, lambda g, ans, x: (g * _sign(x),))),
    Op("sin", 1, np.sin, lambda g, ans, x: (g * np.cos(x),), "SinBackward0",
       jvp=lambda t, ans, x: t[0] * np.cos(x), sympy=lambda x: load_sympy().sin(x),
       floats=(np.sin, lambda g, ans, x: (g * np.cos(x),))),
    Op("cos", 1, np.cos, lambda g, ans, x: (-g * np.sin(x),), "CosBackward0",
       jvp=lambda t, ans, x: -t[0] * np.sin(x), sympy=lambda x: load_sympy().cos(x),
       floats=(np.cos, lambda g, ans, x: (-g * np.sin(x),))),
    Op("tan", 1, np.tan, lambda g, ans, x: (g * (1.0 + ans * ans),), "TanBackward0",
       jvp=lambda t, ans, x: t[0] * (1.0 + ans * ans), sympy=lambda x: load_sympy().tan(x),
       floats=(np.tan, lambda g, ans, x: (g * (1.0 + ans * ans),))),
    Op("asin", 1, np.arcsin, lambda g, ans, x: (g / np.sqrt(1.0 - x * x),), "AsinBackward0",
       jvp=lambda t, ans, x: t[0] / np.sqrt(1.0 - x * x), sympy=lambda x: load_sympy().asin(x),
       floats=(np.arcsin, lambda g, ans, x: (g / math.sqrt(1.0 - x * x),))),
    Op("acos", 1, np.arccos, lambda g, ans, x: (-g / np.sqrt(1.0 - x * x),), "AcosBackward0",
       jvp=lambda t, ans, x: -t[0] / np.sqrt(1.0 - x * x), sympy=lambda x: load_sympy().acos(x),
       floats=(np.arccos, lambda g, ans, x: (-g / math.sqrt(1.0 - x * x),))),
    Op("atan", 1, np.arctan, lambda g, ans, x: (g / (1.0 + x * x),), "AtanBackward0",
       jvp=lambda t, ans, x: t[0] / (1.0 + x * x), sympy=lambda x: load_sympy().atan(x),
       floats=(np.arctan, lambda g, ans, x: (g / (1.0 + x * x),))),
    Op("sinh", 1, np.sinh, lambda g, ans, x: (g * np.cosh(x),), "SinhBackward0",
       jvp=lambda t, ans, x: t[0] * np.cosh(x), sympy=lambda x: load_sympy().sinh(x),
       floats=(np.sinh, lambda g, ans, x: (g * np.cosh(x),))),
    Op("cosh", 1, np.cosh, lambda g, ans, x: (g * np.sinh(x),), "CoshBackward0",
       jvp=lambda t, ans, x: t[0] * np.sinh(x), sympy=lambda x: load_sympy().cosh(x),
       floats=(np.cosh, lambda g, ans, x: (g * np.sinh(x),))),
    Op("tanh", 1, np.tanh, lambda g, ans, x: (g * (1.0 - ans * ans),), "TanhBackward0",
       jvp=lambda t, ans, x: t[0] * (1.0 - ans * ans), sympy=lambda x: load_sympy().tanh(x),
       floats=(np.tanh, lambda g, ans, x: (g * (1.0 - ans * ans),))),
    # sigmoid' from the value, in PyTorch's order: g * (1 - ans) * ans
    Op("sigmoid", 1, _sigmoid, lambda g, ans, x: (g * (1.0 - ans) * ans,),
       "SigmoidBackward0", jvp=lambda t, ans, x: t[0] * (1.0 - ans) * ans,
       sympy=lambda x: 1 / (1 + load_sympy().exp(-x)),
       floats=(_sigmoid_float, lambda g, ans, x: (g * (1.0 - ans) * ans,))),
    Op("relu", 1, _relu, _relu_vjp,
       "ReluBackward0", jvp=lambda t, ans, x: np.where(_re(x) <= 0, 0.0, t[0]), sympy=lambda x: load_sympy().Max(x, 0),
       floats=(_relu_float, lambda g, ans, x: (0.0 if x <= 0 else g,))),
    Op("softplus", 1, _softplus, lambda g, ans, x: (g * _softplus_slope(x),),
       "SoftplusBackward0", jvp=lambda t, ans, x: t[0] * _softplus_slope(x),
       sympy=lambda x: load_sympy().log(1 + load_sympy().exp(x)),
       floats=(_softplus_float, _softplus_float_vjp)),
    # binary functions
    Op("max", 2, _maximum, _max_vjp, "MaximumBackward0",
       jvp=lambda t, ans, a, b: _minmax_jvp(t, ans, a, b, 1), sympy=lambda a, b: load_sympy().Max(a, b),
       floats=(_max_float, _max_float_vjp)),
    Op("min", 2, _minimum, _min_vjp, "MinimumBackward0",
       jvp=lambda t, ans, a, b: _minmax_jvp(t, ans, a, b, -1), sympy=lambda a, b: load_sympy().Min(a, b),
       floats=(_min_float, _min_float_vjp)),
    Op("atan2", 2, _atan2, lambda g, ans, a, b: (g * b * _atan2_scale(a, b), -g * a * _atan2_scale(a, b)),
       "Atan2Backward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else t[0] * b * _atan2_scale(a, b),
                                              None if t[1] is None else -t[1] * a * _atan2_scale(a, b)),
       sympy=lambda a, b: load_sympy().atan2(a, b),
       floats=(np.arctan2, _atan2_float_vjp)),
    Op("dot", 2, _dot, lambda g, ans, a, b, leads=(0, 0): (g[..., None] * b, g[..., None] * a), "DotBackward0",
       jvp=lambda t, ans, a, b, leads=(0, 0): _sum_tangents(None if t[0] is None else _dot(t[0], b, leads),
                                                            None if t[1] is None else _dot(a, t[1], leads)),
       sympy=lambda a, b: _sym_total(a * b), elementwise=False, shape=_dot_shape),
    # reductions over all of a value's axes
    Op("sum", 1, _sum, _sum_vjp, "SumBackward0", jvp=lambda t, ans, x, leads=(0,): _sum(t[0], leads),
       sympy=_sym_total, elementwise=False, shape=_no_axes),
    Op("mean", 1, _mean, _mean_vjp, "MeanBackward0", jvp=lambda t, ans, x, leads=(0,): _mean(t[0], leads),
       sympy=lambda x: _sym_total(x) / x.size, elementwise=False, shape=_no_axes),
    Op("norm", 1, _norm, _norm_vjp, "LinalgVectorNormBackward0",
       jvp=lambda t, ans, x, leads=(0,): _sum(t[0] * _norm_slope(x, ans, leads[0]), leads),
       sympy=lambda x: np.asarray(load_sympy().sqrt(_sym_total(x * x).item()), dtype=object), elementwise=False,
       shape=_no_axes),
    Op("logsumexp", 1, _logsumexp, _logsumexp_vjp, "LogsumexpBackward0",
       jvp=lambda t, ans, x, leads=(0,): _sum(t[0] * np.exp(x - _expand(ans, x, leads[0])), leads),
       sympy=_sym_logsumexp, elementwise=False, shape=_no_axes),
    # structure, written with brackets rather than called
    Op("getitem", 1, _getitem, _getitem_vjp, "SelectBackward0",
       jvp=lambda t, ans, x, key, leads=(0,): _getitem(t[0], key, leads),
       sympy=lambda x, key: np.asarray(x[key], dtype=object),
       callable=False, torch_node_rule=_getitem_torch_node, elementwise=False, shape=_getitem_shape),
    Op("stack", -1, _stack, _stack_vjp, "StackBackward0",
       jvp=lambda t, ans, *xs, leads=(): _stack(*(_zero_tangent(ti, x) for ti, x in zip(t, xs, strict=True)),
                                                 leads=leads),
       sympy=lambda *xs: np.stack(np.broadcast_arrays(*xs)), callable=False, elementwise=False, aligns=True,
       shape=_stack_shape),
]

OPS: dict[str, Op] = {op.name: op for op in _ROWS}

# The infix and prefix operators of the language, and the ops they stand for.
BINARY_OPERATORS = {"+": OPS["add"], "-": OPS["sub"], "*": OPS["mul"], "/": OPS["div"], "**": OPS["pow"],
                    "@": OPS["matmul"]}
PREFIX_OPERATORS = {"-": OPS["neg"]}
FUNCTIONS = {op.name: op for op in _ROWS if op.callable}
CONSTANTS = {"pi": float(np.pi), "e": float(np.e)}


# --- applying a rule: the one place that aligns batch axes and undoes broadcasting ---------


def _align(args: Sequence[Array], leads: Sequence[int]) -> list[Array]:
    """Insert axes after the batch axis, so that the point shapes of the args right-align."""
    point_ndims = [a.ndim - lead for a, lead in zip(args, leads, strict=True)]
    target = max(point_ndims)
    if min(point_ndims) == target:  # the common case: nothing to insert
        return list(args)
    return [
        a.reshape(a.shape[:lead] + (1,) * (target - n) + a.shape[lead:]) if lead and n < target else a
        for a, lead, n in zip(args, leads, point_ndims, strict=True)
    ]


def call_forward(op: Op, args: Sequence[Array], params: dict[str, Any], leads: Sequence[int]) -> Array:
    """op's value; `leads` says which args carry a leading batch axis (all zeros for one point)."""
    batched = any(leads)
    if batched and (op.elementwise or op.aligns):
        args = _align(args, leads)
    if op.elementwise:
        return op.forward(*args, **params)
    return np.asarray(op.forward(*args, **params, leads=tuple(leads)))


class Unit:
    """The seed of ones, as a rule sees it: `UNIT * x` is `x` itself, so that the first step
    of a sweep does not spend a pass over the points multiplying by one (the VJP of
    `a * b` is `(b, a)`). Only elementwise rules see it; as an array it is 1.0.
    """

    __slots__ = ()
    __array_priority__ = 1000.0  # NumPy defers to it: array * UNIT calls __rmul__

    def __mul__(self, other: Any) -> Any:
        return other

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        return 1.0 / other

    def __neg__(self) -> float:
        return -1.0

    def __float__(self) -> float:
        return 1.0

    def __array__(self, dtype: Any = None, copy: Any = None) -> Array:
        return np.ones((), dtype=dtype or float)


UNIT = Unit()


_ONE = np.ones(())


def ones_for(g: Any, like: Any) -> Any:
    """`g` as an array: UNIT becomes ones of `like`'s shape (a read-only view of one number)."""
    if g is not UNIT:
        return g
    shape = np.shape(like)
    ones = np.ndarray(shape, float, _ONE, 0, (0,) * len(shape))  # np.broadcast_to, without its cost
    ones.flags.writeable = False
    return ones


def call_vjp(op: Op, g: Array, ans: Array, args: Sequence[Array], params: dict[str, Any], leads: Sequence[int],
             wanted: Sequence[bool]) -> list[Array | None]:
    """The cotangent of each wanted arg, of that arg's own shape (broadcasting undone).

    `g` may be UNIT (all ones) for an elementwise op.
    """
    aligned = _align(args, leads) if any(leads) and (op.elementwise or op.aligns) else args
    if op.elementwise:
        cotangents = op.vjp(g, ans, *aligned, **params)
    else:
        g = ones_for(g, ans)
        cotangents = op.vjp(g, ans, *aligned, **params, leads=tuple(leads))
    result: list[Array | None] = []
    for arg, lined_up, cotangent, want in zip(args, aligned, cotangents, wanted, strict=True):
        if cotangent is None or not want:
            result.append(None)
            continue
        if g is UNIT and not (type(cotangent) is np.ndarray and cotangent.shape == np.shape(ans)):
            # Multiplying by g would have made an array of the output's shape: `x*2` gives 2
            # for x, `x+y` gives UNIT itself, `-x` gives -1.0.
            cotangent = np.broadcast_to(1.0 if cotangent is UNIT else cotangent, np.shape(ans))
        if cotangent.shape != lined_up.shape:
            cotangent = unbroadcast(np.asarray(cotangent) if np.isscalar(cotangent) else cotangent, lined_up.shape)
        result.append(cotangent if lined_up is arg else cotangent.reshape(arg.shape))
    return result


def call_jvp(op: Op, tangents: Sequence[Array | None], ans: Array, args: Sequence[Array], params: dict[str, Any],
             leads: Sequence[int]) -> Array:
    """The output's tangent, given the args' tangents (None: zero)."""
    if any(leads) and (op.elementwise or op.aligns):
        # A tangent has its argument's shape: a missing one is aligned as its argument would be.
        lined_up = _align([a if t is None else t for t, a in zip(tangents, args, strict=True)], leads)
        tangents = [None if t is None else lined for t, lined in zip(tangents, lined_up, strict=True)]
        args = _align(args, leads)
    assert op.jvp is not None
    if op.elementwise:
        out = op.jvp(tangents, ans, *args, **params)
    else:
        out = op.jvp(tangents, ans, *args, **params, leads=tuple(leads))
    return np.broadcast_to(np.asarray(out), np.shape(ans))


# PyTorch nodes of Tensor-Scalar overloads: the Python number is not one of their inputs.
SCALAR_OVERLOADS = frozenset({"PowBackward0", "PowBackward2", "RsubBackward1"})


def torch_node_name(op: Op, constant: Sequence[bool], shapes: Sequence[tuple[int, ...]] | None = None,
                    params: dict[str, Any] | None = None) -> str:
    """The name PyTorch gives the node for `op`, given which arguments are constants."""
    if op.torch_node_rule is None:
        return op.torch_node
    return str(op.torch_node_rule(constant, shapes, **(params or {})))
