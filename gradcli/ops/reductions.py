"""The rows of the reductions over all of a value's (per-point) axes: sum, mean, norm, logsumexp.

Their rules act on the trailing `ranks[0]` axes of their arg (see core: rules never see a batch).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradcli.ops.core import Array, load_sympy, structural, sympy_total


def _axes(rank: int) -> tuple[int, ...]:
    return tuple(range(-rank, 0))


def _expand(g: Array, rank: int) -> Array:
    """A reduction's cotangent -> broadcastable against its arg, which has `rank` more axes."""
    return np.reshape(g, np.shape(g) + (1,) * rank)


def _no_axes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    return ()


def _sum(x: Array, ranks: tuple[int, ...]) -> Array:
    return np.asarray(np.sum(x, axis=_axes(ranks[0])))


def _sum_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    return (np.broadcast_to(_expand(g, ranks[0]), x.shape),)


def _count(x: Array, rank: int) -> int:
    return int(np.prod(x.shape[x.ndim - rank :], dtype=np.int64))


def _mean(x: Array, ranks: tuple[int, ...]) -> Array:
    return np.asarray(np.mean(x, axis=_axes(ranks[0])))


def _mean_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    return (np.broadcast_to(_expand(g, ranks[0]) / _count(x, ranks[0]), x.shape),)


def _logsumexp(x: Array, ranks: tuple[int, ...]) -> Array:
    rank = ranks[0]
    axes, points = _axes(rank), x.shape[: x.ndim - rank]
    peak = np.max(x, axis=axes, keepdims=True) if x.size else np.zeros(points + (1,) * rank)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    return np.asarray(np.log(np.sum(np.exp(x - peak), axis=axes)) + np.reshape(peak, points))


def _logsumexp_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    return (_expand(g, ranks[0]) * np.exp(x - _expand(ans, ranks[0])),)


def _logsumexp_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...]) -> Array:
    return _sum(t[0] * np.exp(x - _expand(ans, ranks[0])), ranks)


def _norm(x: Array, ranks: tuple[int, ...]) -> Array:
    return np.asarray(np.sqrt(np.sum(x * x, axis=_axes(ranks[0]))))


def _norm_slope(x: Array, ans: Array, rank: int) -> Array:
    # x / |x|, and 0 at the origin (PyTorch's vector_norm backward is 0 there, not NaN).
    at_origin = _expand(ans == 0, rank)
    return np.where(at_origin, 0.0, x / np.where(at_origin, 1.0, _expand(ans, rank)))


def _norm_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    # g times the slope: a NaN g stays NaN at the origin, as in PyTorch.
    return (_expand(g, ranks[0]) * _norm_slope(x, ans, ranks[0]),)


def _norm_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...]) -> Array:
    return _sum(t[0] * _norm_slope(x, ans, ranks[0]), ranks)


def _sym_logsumexp(x: Array) -> Array:
    sympy = load_sympy()
    return np.asarray(sympy.log(sympy.Add(*[sympy.exp(e) for e in x.flat])), dtype=object)


_VECTORS_AND_MATRICES: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = ((((4,),), {}), (((2, 3),), {}))

ROWS = [
    structural("sum", 1, _sum, _sum_vjp, "SumBackward0", sympy=sympy_total, shape=_no_axes, examples=_VECTORS_AND_MATRICES, linear=True, methods=("sum",)),
    structural("mean", 1, _mean, _mean_vjp, "MeanBackward0", sympy=lambda x: sympy_total(x) / x.size, shape=_no_axes, examples=_VECTORS_AND_MATRICES,
               linear=True, methods=("mean",)),
    structural("norm", 1, _norm, _norm_vjp, "LinalgVectorNormBackward0", jvp=_norm_jvp,
               sympy=lambda x: np.asarray(load_sympy().sqrt(sympy_total(x * x).item()), dtype=object), shape=_no_axes, examples=_VECTORS_AND_MATRICES,
               kinked=True, methods=("norm",)),
    structural("logsumexp", 1, _logsumexp, _logsumexp_vjp, "LogsumexpBackward0", jvp=_logsumexp_jvp,
               sympy=_sym_logsumexp, shape=_no_axes, examples=_VECTORS_AND_MATRICES),
]
