"""The rows of the reductions over all of a value's (per-point) axes: sum, mean, norm, logsumexp.

Their rules act on the trailing `ranks[0]` axes of their arg (see core: rules never see a batch).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradcli.ops.core import Array, Param, load_sympy, point_axes, structural, sympy_total

# dim/axis and keepdim/keepdims, as PyTorch and NumPy spell them.
DIM = Param("dim", "dims", None, aliases=("axis",))
KEEPDIM = Param("keepdim", "bool", False, aliases=("keepdims",))


def _axes(rank: int) -> tuple[int, ...]:
    return tuple(range(-rank, 0))


def _reduced_shape(shape: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> tuple[int, ...]:
    """The shape of a reduction over `dim` of a value of `shape` (ValueError: a dim out of range)."""
    axes = {len(shape) + axis for axis in point_axes(dim, len(shape))}
    return tuple(1 if axis in axes else size for axis, size in enumerate(shape) if keepdim or axis not in axes)


def _kept(g: Array, axes: tuple[int, ...], keepdim: bool) -> Array:
    """A reduction's cotangent with its reduced axes put back (size 1): it broadcasts against the arg."""
    if keepdim or not axes:
        return g
    ndim = np.ndim(g) + len(axes)
    return np.expand_dims(g, tuple(ndim + axis for axis in axes))


def _expand(g: Array, rank: int) -> Array:
    """A reduction's cotangent -> broadcastable against its arg, which has `rank` more axes."""
    return np.reshape(g, np.shape(g) + (1,) * rank)


def _no_axes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    return ()


def _sum(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    return np.asarray(np.sum(x, axis=point_axes(dim, ranks[0]), keepdims=keepdim))


def _sum_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
             keepdim: bool = False) -> tuple[Array]:
    return (np.broadcast_to(_kept(g, point_axes(dim, ranks[0]), keepdim), x.shape),)


def _count(x: Array, axes: tuple[int, ...]) -> int:
    return int(np.prod([x.shape[axis] for axis in axes], dtype=np.int64))


def _mean(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    return np.asarray(np.mean(x, axis=point_axes(dim, ranks[0]), keepdims=keepdim))


def _mean_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
              keepdim: bool = False) -> tuple[Array]:
    axes = point_axes(dim, ranks[0])
    return (np.broadcast_to(_kept(g, axes, keepdim) / _count(x, axes), x.shape),)


def _with_dim(name: str) -> Any:
    """PyTorch's node: SumBackward0 over everything, SumBackward1 over given dims."""
    return lambda constant, shapes, dim=None, keepdim=False: f"{name}Backward{0 if dim is None else 1}"


def _sympy_reduction(combine: Any) -> Any:
    def build(x: Array, dim: Any = None, keepdim: bool = False) -> Array:
        axes = point_axes(dim, x.ndim)
        if not axes:
            return x
        moved = np.moveaxis(x, axes, tuple(range(-len(axes), 0)))
        flat = moved.reshape((*moved.shape[: moved.ndim - len(axes)], -1))
        out = np.empty(flat.shape[:-1], dtype=object)
        for index in np.ndindex(out.shape):
            out[index] = combine(list(flat[index]))
        return np.asarray(np.expand_dims(out, tuple(x.ndim + a for a in axes)) if keepdim else out, dtype=object)

    return build


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
# ... and over some of their dims: one, negative, a tuple, kept.
_OVER_DIMS = _VECTORS_AND_MATRICES + tuple(((shape,), params) for shape, params in [
    ((2, 3), {"dim": 0}), ((2, 3), {"dim": -1, "keepdim": True}), ((2, 3, 2), {"dim": (0, 2)}),
    ((4,), {"dim": 0, "keepdim": True}), ((), {"dim": 0})])

ROWS = [
    structural("sum", 1, _sum, _sum_vjp, "SumBackward0", sympy=_sympy_reduction(lambda terms: load_sympy().Add(*terms)),
               shape=_reduced_shape, examples=_OVER_DIMS, linear=True, methods=("sum",), params=(DIM, KEEPDIM),
               torch_node_rule=_with_dim("Sum")),
    structural("mean", 1, _mean, _mean_vjp, "MeanBackward0",
               sympy=_sympy_reduction(lambda terms: load_sympy().Add(*terms) / len(terms)), shape=_reduced_shape,
               examples=_OVER_DIMS, linear=True, methods=("mean",), params=(DIM, KEEPDIM), torch_node_rule=_with_dim("Mean")),
    structural("norm", 1, _norm, _norm_vjp, "LinalgVectorNormBackward0", jvp=_norm_jvp,
               sympy=lambda x: np.asarray(load_sympy().sqrt(sympy_total(x * x).item()), dtype=object), shape=_no_axes, examples=_VECTORS_AND_MATRICES,
               kinked=True, methods=("norm",)),
    structural("logsumexp", 1, _logsumexp, _logsumexp_vjp, "LogsumexpBackward0", jvp=_logsumexp_jvp,
               sympy=_sym_logsumexp, shape=_no_axes, examples=_VECTORS_AND_MATRICES),
]
