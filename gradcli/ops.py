"""THE table of primitives: one row per op, holding everything gradcli knows about it.

A row holds the op's name in the language, its arity, the NumPy forward, the VJP rule,
the JVP rule, the SymPy builder and the name of the node PyTorch records for it in
`grad_fn`. Adding an op is adding a row; nothing else in gradcli lists ops.

One signature per kind of rule (`params` are the static parameters an op takes from the
program text, such as the key of an index):

    forward(*args, **params) -> value
    vjp(g, ans, *args, **params) -> one cotangent per arg, None where none flows
    jvp(tangents, ans, *args, **params) -> the output's tangent (a tangent may be None: zero)
    sympy(*args, **params) -> a SymPy expression (args are SymPy expressions)

Cotangents may have the broadcast shape; the engine undoes broadcasting with `unbroadcast`.
Values and derivatives follow PyTorch, subgradients included (relu'(0) = 0, abs'(0) = 0,
max(a, a) sends half the gradient each way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

Array = np.ndarray
Rule = Callable[..., Any]


@dataclass(frozen=True)
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


def _pow_vjp(g: Array, ans: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # PyTorch: no gradient flows to the base where the exponent is 0, nor to the exponent
    # where the base is 0 and the exponent non-negative (0**b is constant there).
    da = np.where(b == 0, 0.0, g * b * np.power(a, b - 1))
    db = np.where((a == 0) & (b >= 0), 0.0, g * ans * np.log(a))
    return da, db


def _pow_jvp(t: Sequence[Array | None], ans: Array, a: Array, b: Array) -> Array | float:
    ta, tb = t
    da = None if ta is None else np.where(b == 0, 0.0, ta * b * np.power(a, b - 1))
    db = None if tb is None else np.where((a == 0) & (b >= 0), 0.0, tb * ans * np.log(a))
    return _sum_tangents(da, db)


def _atan2_scale(a: Array, b: Array) -> Array:
    # 1 / (a^2 + b^2), and 0 at the origin where PyTorch's atan2 backward gives 0.
    denominator = a * a + b * b
    return np.where(denominator == 0, 0.0, 1.0 / np.where(denominator == 0, 1.0, denominator))


def _pow_torch_node(constant: Sequence[bool], shapes: object) -> str:
    # x**2 is pow(Tensor, Scalar); 2**x is pow(Scalar, Tensor); x**y is pow(Tensor, Tensor).
    if constant[1]:
        return "PowBackward0"
    return "PowBackward2" if constant[0] else "PowBackward1"


def _max_vjp(g: Array, ans: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # torch.maximum: ties split the gradient in half.
    share = np.where(a == b, 0.5 * g, g)
    return np.where(a >= b, share, 0.0), np.where(b >= a, share, 0.0)


def _min_vjp(g: Array, ans: Array, a: Array, b: Array) -> tuple[Array, Array]:
    share = np.where(a == b, 0.5 * g, g)
    return np.where(a <= b, share, 0.0), np.where(b <= a, share, 0.0)


def _minmax_jvp(t: Sequence[Array | None], ans: Array, a: Array, b: Array, sign: int) -> Array | float:
    wins_a = np.where(a == b, 0.5, (sign * (a - b) > 0).astype(float))
    ta, tb = t
    return _sum_tangents(
        None if ta is None else wins_a * ta,
        None if tb is None else (1.0 - wins_a) * tb,
    )


def _softplus(x: Array) -> Array:
    # torch.nn.functional.softplus with beta=1, threshold=20: linear above the threshold.
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


def _logsumexp(x: Array) -> Array:
    peak = np.max(x) if x.size else 0.0
    if not np.isfinite(peak):
        peak = 0.0
    return np.asarray(np.log(np.sum(np.exp(x - peak))) + peak)


def _norm(x: Array) -> Array:
    return np.asarray(np.sqrt(np.sum(x * x)))


def _norm_vjp(g: Array, ans: Array, x: Array) -> tuple[Array]:
    # PyTorch's vector_norm backward is 0 at the origin, not NaN.
    scale = np.where(ans == 0, 0.0, g / np.where(ans == 0, 1.0, ans))
    return (scale * x,)


def _as_matrix(a: Array, side: str) -> Array:
    if a.ndim == 1:
        return a[None, :] if side == "left" else a[:, None]
    return a


def _check_matmul(a: Array, b: Array) -> None:
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise ValueError(f"@ takes 1-D or 2-D operands, got shapes {a.shape} and {b.shape}")


def _matmul(a: Array, b: Array) -> Array:
    _check_matmul(a, b)
    return np.asarray(np.matmul(a, b))


def _matmul_vjp(g: Array, ans: Array, a: Array, b: Array) -> tuple[Array, Array]:
    # Lift 1-D operands to matrices, apply the matrix rule, and drop the lifted axes.
    a2, b2 = _as_matrix(a, "left"), _as_matrix(b, "right")
    g2 = g.reshape(a2.shape[0], b2.shape[1])
    return (g2 @ b2.T).reshape(a.shape), (a2.T @ g2).reshape(b.shape)


def _matmul_torch_node(constant: Sequence[bool], shapes: Sequence[tuple[int, ...]] | None) -> str:
    if shapes is None:
        return "MmBackward0"
    ndims = (len(shapes[0]), len(shapes[1]))
    return {(2, 2): "MmBackward0", (2, 1): "MvBackward0", (1, 1): "DotBackward0"}.get(ndims, "MmBackward0")


def _dot(a: Array, b: Array) -> Array:
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise ValueError(f"dot takes two 1-D vectors of one length, got shapes {a.shape} and {b.shape}")
    return np.asarray(np.dot(a, b))


def _getitem_vjp(g: Array, ans: Array, x: Array, key: tuple[Any, ...]) -> tuple[Array]:
    cotangent = np.zeros_like(x)
    np.add.at(cotangent, key, g)
    return (cotangent,)


def _getitem_torch_node(constant: Sequence[bool], shapes: object, key: tuple[Any, ...] = ()) -> str:
    # PyTorch indexes one axis at a time; its outermost node is that of the last item
    # that does something (a bare `:` does nothing).
    acting = [k for k in key if not (isinstance(k, slice) and k == slice(None))]
    return "SelectBackward0" if acting and isinstance(acting[-1], int) else "SliceBackward0"


def _stack(*items: Array) -> Array:
    return np.stack(np.broadcast_arrays(*items))


def _stack_vjp(g: Array, ans: Array, *items: Array) -> tuple[Array, ...]:
    return tuple(g[i] for i in range(len(items)))


def _sympy() -> Any:
    import sympy  # only the symbolic paths pay for importing SymPy

    return sympy


# --- the table --------------------------------------------------------------------------

_ROWS = [
    # operators
    Op("add", 2, np.add, lambda g, ans, a, b: (g, g), "AddBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(*t),
       sympy=lambda a, b: a + b, symbol="+", callable=False),
    Op("sub", 2, np.subtract, lambda g, ans, a, b: (g, -g), "SubBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(t[0], None if t[1] is None else -t[1]),
       sympy=lambda a, b: a - b, symbol="-", callable=False,
       torch_node_rule=lambda constant, shapes: "RsubBackward1" if constant[0] else "SubBackward0"),
    Op("mul", 2, np.multiply, lambda g, ans, a, b: (g * b, g * a), "MulBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else t[0] * b, None if t[1] is None else a * t[1]),
       sympy=lambda a, b: a * b, symbol="*", callable=False),
    Op("div", 2, np.divide, lambda g, ans, a, b: (g / b, -g * a / (b * b)), "DivBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else t[0] / b,
                                              None if t[1] is None else -t[1] * a / (b * b)),
       sympy=lambda a, b: a / b, symbol="/", callable=False),
    Op("pow", 2, np.power, _pow_vjp, "PowBackward0", jvp=_pow_jvp,
       sympy=lambda a, b: a**b, symbol="**", torch_node_rule=_pow_torch_node),
    Op("matmul", 2, _matmul, _matmul_vjp, "MmBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else _matmul(t[0], b),
                                              None if t[1] is None else _matmul(a, t[1])),
       sympy=lambda a, b: a @ b, symbol="@", callable=False, torch_node_rule=_matmul_torch_node),
    Op("neg", 1, np.negative, lambda g, ans, x: (-g,), "NegBackward0",
       jvp=lambda t, ans, x: -_zero_tangent(t[0], x),
       sympy=lambda x: -x, symbol="-", callable=False),
    # elementwise functions
    Op("exp", 1, np.exp, lambda g, ans, x: (g * ans,), "ExpBackward0",
       jvp=lambda t, ans, x: t[0] * ans, sympy=lambda x: _sympy().exp(x)),
    Op("log", 1, np.log, lambda g, ans, x: (g / x,), "LogBackward0",
       jvp=lambda t, ans, x: t[0] / x, sympy=lambda x: _sympy().log(x)),
    Op("log2", 1, np.log2, lambda g, ans, x: (g / (x * np.log(2.0)),), "Log2Backward0",
       jvp=lambda t, ans, x: t[0] / (x * np.log(2.0)), sympy=lambda x: _sympy().log(x, 2)),
    Op("log10", 1, np.log10, lambda g, ans, x: (g / (x * np.log(10.0)),), "Log10Backward0",
       jvp=lambda t, ans, x: t[0] / (x * np.log(10.0)), sympy=lambda x: _sympy().log(x, 10)),
    Op("log1p", 1, np.log1p, lambda g, ans, x: (g / (1.0 + x),), "Log1PBackward0",
       jvp=lambda t, ans, x: t[0] / (1.0 + x), sympy=lambda x: _sympy().log(1 + x)),
    Op("expm1", 1, np.expm1, lambda g, ans, x: (g * (ans + 1.0),), "Expm1Backward0",
       jvp=lambda t, ans, x: t[0] * (ans + 1.0), sympy=lambda x: _sympy().exp(x) - 1),
    Op("sqrt", 1, np.sqrt, lambda g, ans, x: (g / (2.0 * ans),), "SqrtBackward0",
       jvp=lambda t, ans, x: t[0] / (2.0 * ans), sympy=lambda x: _sympy().sqrt(x)),
    Op("abs", 1, np.abs, lambda g, ans, x: (g * np.sign(x),), "AbsBackward0",
       jvp=lambda t, ans, x: t[0] * np.sign(x), sympy=lambda x: _sympy().Abs(x)),
    Op("sin", 1, np.sin, lambda g, ans, x: (g * np.cos(x),), "SinBackward0",
       jvp=lambda t, ans, x: t[0] * np.cos(x), sympy=lambda x: _sympy().sin(x)),
    Op("cos", 1, np.cos, lambda g, ans, x: (-g * np.sin(x),), "CosBackward0",
       jvp=lambda t, ans, x: -t[0] * np.sin(x), sympy=lambda x: _sympy().cos(x)),
    Op("tan", 1, np.tan, lambda g, ans, x: (g * (1.0 + ans * ans),), "TanBackward0",
       jvp=lambda t, ans, x: t[0] * (1.0 + ans * ans), sympy=lambda x: _sympy().tan(x)),
    Op("asin", 1, np.arcsin, lambda g, ans, x: (g / np.sqrt(1.0 - x * x),), "AsinBackward0",
       jvp=lambda t, ans, x: t[0] / np.sqrt(1.0 - x * x), sympy=lambda x: _sympy().asin(x)),
    Op("acos", 1, np.arccos, lambda g, ans, x: (-g / np.sqrt(1.0 - x * x),), "AcosBackward0",
       jvp=lambda t, ans, x: -t[0] / np.sqrt(1.0 - x * x), sympy=lambda x: _sympy().acos(x)),
    Op("atan", 1, np.arctan, lambda g, ans, x: (g / (1.0 + x * x),), "AtanBackward0",
       jvp=lambda t, ans, x: t[0] / (1.0 + x * x), sympy=lambda x: _sympy().atan(x)),
    Op("sinh", 1, np.sinh, lambda g, ans, x: (g * np.cosh(x),), "SinhBackward0",
       jvp=lambda t, ans, x: t[0] * np.cosh(x), sympy=lambda x: _sympy().sinh(x)),
    Op("cosh", 1, np.cosh, lambda g, ans, x: (g * np.sinh(x),), "CoshBackward0",
       jvp=lambda t, ans, x: t[0] * np.sinh(x), sympy=lambda x: _sympy().cosh(x)),
    Op("tanh", 1, np.tanh, lambda g, ans, x: (g * (1.0 - ans * ans),), "TanhBackward0",
       jvp=lambda t, ans, x: t[0] * (1.0 - ans * ans), sympy=lambda x: _sympy().tanh(x)),
    Op("sigmoid", 1, lambda x: 0.5 * (np.tanh(0.5 * x) + 1.0), lambda g, ans, x: (g * ans * (1.0 - ans),),
       "SigmoidBackward0", jvp=lambda t, ans, x: t[0] * ans * (1.0 - ans),
       sympy=lambda x: 1 / (1 + _sympy().exp(-x))),
    Op("relu", 1, lambda x: np.maximum(x, 0.0), lambda g, ans, x: (np.where(x > 0, g, 0.0),), "ReluBackward0",
       jvp=lambda t, ans, x: np.where(x > 0, t[0], 0.0), sympy=lambda x: _sympy().Max(x, 0)),
    Op("softplus", 1, _softplus, lambda g, ans, x: (np.where(x > 20, g, g / (1.0 + np.exp(-x))),),
       "SoftplusBackward0", jvp=lambda t, ans, x: np.where(x > 20, t[0], t[0] / (1.0 + np.exp(-x))),
       sympy=lambda x: _sympy().log(1 + _sympy().exp(x))),
    # binary functions
    Op("max", 2, np.maximum, _max_vjp, "MaximumBackward0",
       jvp=lambda t, ans, a, b: _minmax_jvp(t, ans, a, b, 1), sympy=lambda a, b: _sympy().Max(a, b)),
    Op("min", 2, np.minimum, _min_vjp, "MinimumBackward0",
       jvp=lambda t, ans, a, b: _minmax_jvp(t, ans, a, b, -1), sympy=lambda a, b: _sympy().Min(a, b)),
    Op("atan2", 2, np.arctan2, lambda g, ans, a, b: (g * b * _atan2_scale(a, b), -g * a * _atan2_scale(a, b)),
       "Atan2Backward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else t[0] * b * _atan2_scale(a, b),
                                              None if t[1] is None else -t[1] * a * _atan2_scale(a, b)),
       sympy=lambda a, b: _sympy().atan2(a, b)),
    Op("dot", 2, _dot, lambda g, ans, a, b: (g * b, g * a), "DotBackward0",
       jvp=lambda t, ans, a, b: _sum_tangents(None if t[0] is None else np.dot(t[0], b),
                                              None if t[1] is None else np.dot(a, t[1]))),
    # reductions
    Op("sum", 1, lambda x: np.asarray(np.sum(x)), lambda g, ans, x: (np.broadcast_to(g, x.shape),), "SumBackward0",
       jvp=lambda t, ans, x: np.sum(t[0])),
    Op("mean", 1, lambda x: np.asarray(np.mean(x)), lambda g, ans, x: (np.broadcast_to(g / x.size, x.shape),),
       "MeanBackward0", jvp=lambda t, ans, x: np.mean(t[0])),
    Op("norm", 1, _norm, _norm_vjp, "LinalgVectorNormBackward0",
       jvp=lambda t, ans, x: np.where(ans == 0, 0.0, np.sum(x * t[0]) / np.where(ans == 0, 1.0, ans))),
    Op("logsumexp", 1, _logsumexp, lambda g, ans, x: (g * np.exp(x - ans),), "LogsumexpBackward0",
       jvp=lambda t, ans, x: np.sum(t[0] * np.exp(x - ans))),
    # structure, written with brackets rather than called
    Op("getitem", 1, lambda x, key: np.asarray(x[key]), _getitem_vjp, "SelectBackward0",
       jvp=lambda t, ans, x, key: np.asarray(t[0][key]), sympy=lambda x, key: x[key], callable=False,
       torch_node_rule=_getitem_torch_node),
    Op("stack", -1, _stack, _stack_vjp, "StackBackward0",
       jvp=lambda t, ans, *xs: _stack(*(_zero_tangent(ti, x) for ti, x in zip(t, xs, strict=True))),
       callable=False),
]

OPS: dict[str, Op] = {op.name: op for op in _ROWS}

# The infix and prefix operators of the language, and the ops they stand for.
BINARY_OPERATORS = {"+": OPS["add"], "-": OPS["sub"], "*": OPS["mul"], "/": OPS["div"], "**": OPS["pow"],
                    "@": OPS["matmul"]}
PREFIX_OPERATORS = {"-": OPS["neg"]}
FUNCTIONS = {op.name: op for op in _ROWS if op.callable}
CONSTANTS = {"pi": float(np.pi), "e": float(np.e)}


# PyTorch nodes of Tensor-Scalar overloads: the Python number is not one of their inputs.
SCALAR_OVERLOADS = frozenset({"PowBackward0", "PowBackward2", "RsubBackward1"})
# `3*x` is `x.__rmul__(3)` in PyTorch: the tensor comes first in next_functions.
SWAPS_SCALAR_FIRST = frozenset({"add", "mul"})


def torch_node_name(op: Op, constant: Sequence[bool], shapes: Sequence[tuple[int, ...]] | None = None,
                    params: dict[str, Any] | None = None) -> str:
    """The name PyTorch gives the node for `op`, given which arguments are constants."""
    if op.torch_node_rule is None:
        return op.torch_node
    return str(op.torch_node_rule(constant, shapes, **(params or {})))
