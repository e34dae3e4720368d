"""The rows of distances and norms of slices: renorm, cdist, pdist, with PyTorch's derivatives
(tools/autograd/derivatives.yaml, aten/src/ATen/native/Distance.cpp and its CPU kernels).

A distance's gradient is PyTorch's kernel's, per p: 0 for p = 0; sign(d) for p = 1; d / dist for p = 2
(0 where the distance is 0); sign(d) where |d| is the distance for p = inf; sign(d) |d|^(p-1) / dist^(p-1)
below 2 (0 where the distance is 0, and where d is 0 below 1); d |d|^(p-2) / dist^(p-1) above, d the
difference of the two rows. cdist of p = 2 by matrix products (compute_mode 'use_mm_for_euclid_dist', or
more than 25 rows by default) is PyTorch's _euclidean_dist (EuclideanDistBackward0), its values by
|x|^2 - 2 x.y + |y|^2 as PyTorch computes them.

Their rules act on the trailing axes of each arg (see core: rules never see a batch).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradcli.errors import Limits, over_limit
from gradcli.ops import reductions
from gradcli.ops.core import Array, Dialect, Param, Shape, composite, float_input, point_axes, structural

# --- renorm: each slice along dim scaled to a p-norm of at most maxnorm ------------------------------


def _renorm_check(x: Shape, p: Any, dim: Any, maxnorm: Any) -> int:
    if p is None or dim is None or maxnorm is None:
        raise ValueError("renorm() missing required arguments: renorm(input, p, dim, maxnorm)")
    if len(x) < 2:
        raise ValueError(f"renorm: input needs at least 2 dimensions, got {len(x)} dimensions")
    if p <= 0:
        raise ValueError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise ValueError(f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm)}")
    return point_axes(dim, len(x))[0]


def _renorm_shape(x: Shape, p: Any = None, dim: Any = None, maxnorm: Any = None) -> Shape:
    _renorm_check(x, p, dim, maxnorm)
    return x


def _others(x: Any, rank: int, dim: int) -> tuple[int, ...]:
    axis = point_axes(dim, rank)[0]
    return tuple(a for a in range(-rank, 0) if a != axis)


def _slice_norms(x: Any, ranks: tuple[int, ...], p: float, dim: int) -> Any:
    """The p-norm of each slice along dim (kept as an axis of 1), of a dual number too (the Hessian)."""
    others = _others(x, ranks[0], dim)
    if not hasattr(x, "primal") or math.isinf(p):
        return reductions._norm(x, ranks, p, others, True)
    if p == 2.0:
        return np.sqrt(np.sum(x * x, axis=others, keepdims=True))
    return np.sum(np.abs(x) ** p, axis=others, keepdims=True) ** (1.0 / p)


def _renorm(x: Array, ranks: tuple[int, ...], p: Any = None, dim: Any = None, maxnorm: Any = None) -> Array:
    _renorm_check(tuple(np.shape(x)[np.ndim(x) - ranks[0]:]), p, dim, maxnorm)
    norm = _slice_norms(x, ranks, p, dim)
    return x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)


def _renorm_vjp(g: Any, ans: Any, x: Any, ranks: tuple[int, ...], p: Any = None, dim: Any = None,
                maxnorm: Any = None) -> tuple[Any]:
    # PyTorch's renorm_backward
    others = _others(x, ranks[0], dim)
    norm = _slice_norms(x, ranks, p, dim)
    summed = np.sum(x * g, axis=others, keepdims=True)
    through_norm = reductions._norm_vjp(summed, norm, x, ranks, p, others, True)[0]
    inverse = 1.0 / (norm + 1e-7)
    return (np.where(norm > maxnorm, maxnorm * inverse * (g - inverse * through_norm), g),)


def _renorm_jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], p: Any = None, dim: Any = None,
                maxnorm: Any = None) -> Array:
    t = tangents[0]
    if t is None:
        return np.zeros(np.shape(ans))
    others = _others(x, ranks[0], dim)
    norm = _slice_norms(x, ranks, p, dim)
    slope = reductions._norm_vjp(np.ones(np.shape(norm)), norm, x, ranks, p, others, True)[0]
    moved = np.sum(slope * t, axis=others, keepdims=True)  # the norm's tangent
    inverse = 1.0 / (norm + 1e-7)  # (PyTorch's renorm_jvp)
    return np.where(norm > maxnorm, inverse * maxnorm * (t - x * inverse * moved), t)


# --- cdist, pdist: p-norm distances between rows -------------------------------------------------------


def _distances(diff: Array, p: float) -> Array:
    """The p-norm of the differences along the last axis, as PyTorch's _cdist_forward and pdist compute it."""
    size = np.abs(diff)
    if p == 0.0:
        return np.sum(diff != 0, axis=-1).astype(float)
    if p == 1.0:
        return np.sum(size, axis=-1)
    if p == 2.0:
        return np.sqrt(np.sum(diff * diff, axis=-1))
    if math.isinf(p):
        return np.max(size, axis=-1, initial=0.0)
    return np.sum(size**p, axis=-1) ** (1.0 / p)


def _slopes(diff: Array, dist: Array, g: Array, p: float) -> Array:
    """PyTorch's backward kernel per p: g times the derivative of the distance in each difference."""
    dist, g = dist[..., None], g[..., None]
    with np.errstate(all="ignore"):
        if p == 0.0:
            return np.zeros(np.shape(diff))
        if p == 1.0:
            return g * np.sign(diff)
        if p == 2.0:
            return np.where(dist == 0.0, 0.0, g * diff / dist)
        if math.isinf(p):
            return g * np.sign(diff) * (np.abs(diff) == dist)
        if p < 2.0:
            zero = (dist == 0.0) | ((diff == 0) & (p < 1.0))
            return np.where(zero, 0.0, np.sign(diff) * np.abs(diff) ** (p - 1.0) * g / dist ** (p - 1.0))
        return np.where(dist == 0.0, 0.0, diff * np.abs(diff) ** (p - 2.0) * g / dist ** (p - 1.0))


def _check_work(name: str, count: int) -> None:
    """Refuse the differences of every pair of rows past the elements limit, before they are made."""
    if count > Limits.get("elements"):
        raise over_limit(f"{name} would make {count:,} differences of rows", "elements")


_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def _cdist_shape(x1: Shape, x2: Shape, p: float = 2.0, compute_mode: str = _MODES[0]) -> Shape:
    if len(x1) < 2:
        raise ValueError(f"cdist only supports at least 2D tensors, X1 got: {len(x1)}D")
    if len(x2) < 2:
        raise ValueError(f"cdist only supports at least 2D tensors, X2 got: {len(x2)}D")
    if x1[-1] != x2[-1]:
        raise ValueError(f"X1 and X2 must have the same number of columns. X1: {x1[-1]} X2: {x2[-1]}")
    if p < 0:
        raise ValueError("cdist only supports non-negative p values")
    batch = tuple(np.broadcast_shapes(tuple(x1[:-2]), tuple(x2[:-2])))
    _check_work("cdist", math.prod(batch) * x1[-2] * x2[-2] * x1[-1])
    return (*batch, x1[-2], x2[-2])


def _pairs(x1: Array, x2: Array, ranks: tuple[int, ...]) -> Array:
    """x1's rows minus x2's, every pair: (..., P, R, M)."""
    return x1[..., :, None, :] - x2[..., None, :, :]


def _lined(x: Array, rank: int, width: int) -> Array:
    """x with axes of 1 after its batch axis, to `width` axes of its own: it broadcasts against the other."""
    return np.reshape(x, (*np.shape(x)[: np.ndim(x) - rank], *(1,) * (width - rank), *np.shape(x)[np.ndim(x) - rank:]))


def _cdist_args(x1: Array, x2: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    width = max(ranks)
    return _lined(x1, ranks[0], width), _lined(x2, ranks[1], width)


def _cdist(x1: Array, x2: Array, ranks: tuple[int, ...], p: float = 2.0, compute_mode: str = _MODES[0]) -> Array:
    a, b = _cdist_args(x1, x2, ranks)
    return _distances(_pairs(a, b, ranks), p)


def _cdist_vjp(g: Array, ans: Array, x1: Array, x2: Array, ranks: tuple[int, ...], p: float = 2.0,
               compute_mode: str = _MODES[0]) -> tuple[Array, Array]:
    a, b = _cdist_args(x1, x2, ranks)
    diff = _pairs(a, b, ranks)
    g = g * np.ones(np.shape(ans))
    first = np.sum(_slopes(diff, ans, g, p), axis=-2)
    second = np.sum(_slopes(-diff, ans, g, p), axis=-3)
    return (np.reshape(_unlined(first, x1, ranks[0]), np.shape(x1)), np.reshape(_unlined(second, x2, ranks[1]), np.shape(x2)))


def _unlined(cotangent: Array, x: Array, rank: int) -> Array:
    """A cotangent of the lined-up (broadcast) arg summed back to x's own shape."""
    from gradcli.ops.core import unbroadcast

    lead = np.ndim(x) - rank
    own = np.shape(x)[lead:]
    target = (*np.shape(x)[:lead], *(1,) * (np.ndim(cotangent) - lead - rank), *own)
    return unbroadcast(cotangent, target)


def _cdist_jvp(tangents: Any, ans: Array, x1: Array, x2: Array, ranks: tuple[int, ...], p: float = 2.0,
               compute_mode: str = _MODES[0]) -> Array:
    a, b = _cdist_args(x1, x2, ranks)
    diff = _pairs(a, b, ranks)
    t1 = np.zeros(np.shape(x1)) if tangents[0] is None else np.broadcast_to(tangents[0], np.shape(x1))
    t2 = np.zeros(np.shape(x2)) if tangents[1] is None else np.broadcast_to(tangents[1], np.shape(x2))
    ta, tb = _cdist_args(t1, t2, ranks)
    moved = _pairs(ta, tb, ranks)
    return np.sum(_slopes(diff, ans, np.ones(np.shape(ans)), p) * moved, axis=-1)


def _by_products(p: float, compute_mode: str, rows: tuple[int, int]) -> bool:
    """Does PyTorch's cdist compute this by matrix products (_euclidean_dist)?"""
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _MODES.index(compute_mode)
    return p == 2.0 and (mode == 1 or (mode == 0 and max(rows) > 25))


def _cdist_program(emit: Any, x1: Any, x2: Any, p: float = 2.0, compute_mode: str = _MODES[0]) -> Any:
    s1, s2 = emit.shape(x1), emit.shape(x2)
    if s1 is None or s2 is None:
        return emit("cdist_whole", x1, x2, p=p, compute_mode=compute_mode)
    out = _cdist_shape(s1, s2, p, compute_mode)
    if math.prod(out) == 0 or not _by_products(p, compute_mode, (s1[-2], s2[-2])):
        return emit("cdist_whole", x1, x2, p=p, compute_mode=compute_mode)
    if s1[-1] == 0:  # (no columns: zeros, as PyTorch's)
        return emit("cdist_whole", x1, x2, p=p, compute_mode=compute_mode)
    batch = out[:-2]
    count = math.prod(batch)
    if count == 1:
        return emit("reshape", emit("euclidean_dist", x1, x2), shape=out)
    flat = [_batched(emit, x, s, batch, count) for x, s in ((x1, s1), (x2, s2))]
    return emit("reshape", emit("euclidean_dist", *flat), shape=out)


def _batched(emit: Any, x: Any, shape: Shape, batch: Shape, count: int) -> Any:
    """x expanded to the batch and viewed as (batch, rows, columns): copied first where the expansion repeats it."""
    full = (*batch, *shape[-2:])
    expanded = emit("expand", x, size=full)
    repeats = math.prod(full) != math.prod(shape)  # (a stride of 0: no view of it is contiguous)
    return emit("reshape", emit("clone", expanded) if repeats else expanded, shape=(count, *shape[-2:]))


def _euclidean(x1: Array, x2: Array, ranks: tuple[int, ...]) -> Array:
    # PyTorch's _euclidean_dist: [-2 x1, |x1|^2, 1] times [x2, 1, |x2|^2] transposed, clamped at 0, its root
    n1, n2 = np.sum(x1**2, axis=-1, keepdims=True), np.sum(x2**2, axis=-1, keepdims=True)
    left = np.concatenate([-2 * x1, n1, np.ones_like(n1)], axis=-1)
    right = np.concatenate([x2, np.ones_like(n2), n2], axis=-1)
    return np.sqrt(np.maximum(np.matmul(left, np.swapaxes(right, -1, -2)), 0.0))


def _euclidean_vjp(g: Array, ans: Array, x1: Array, x2: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    # PyTorch's _euclidean_dist_backward
    with np.errstate(all="ignore"):
        ratio = np.where(ans == 0, 0.0, g / ans)
    return (x1 * np.sum(ratio, axis=-1, keepdims=True) - np.matmul(ratio, x2),
            x2 * np.sum(ratio, axis=-2)[..., None] - np.matmul(np.swapaxes(ratio, -1, -2), x1))


def _euclidean_jvp(tangents: Any, ans: Array, x1: Array, x2: Array, ranks: tuple[int, ...]) -> Array:
    return _cdist_jvp(tangents, ans, x1, x2, ranks, 2.0)


def _pdist_shape(x: Shape, p: float = 2.0) -> Shape:
    if len(x) != 2:
        raise ValueError(f"pdist only supports 2D tensors, got: {len(x)}D")
    if p < 0:
        raise ValueError("pdist only supports non-negative p values")
    _check_work("pdist", x[0] * x[0] * x[1])
    return (x[0] * (x[0] - 1) // 2,)


def _upper_pairs(n: int) -> tuple[Array, Array]:
    return np.triu_indices(n, 1)


def _pdist(x: Array, ranks: tuple[int, ...], p: float = 2.0) -> Array:
    first, second = _upper_pairs(np.shape(x)[-2])
    return _distances(x[..., first, :] - x[..., second, :], p)


def _pdist_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], p: float = 2.0) -> tuple[Array]:
    first, second = _upper_pairs(np.shape(x)[-2])
    diff = x[..., first, :] - x[..., second, :]
    g = g * np.ones(np.shape(ans))
    n = np.shape(x)[-2]
    into_first, into_second = np.eye(n)[:, first], np.eye(n)[:, second]  # (each pair's slope to its two rows)
    return (into_first @ _slopes(diff, ans, g, p) + into_second @ _slopes(-diff, ans, g, p),)


def _pdist_jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], p: float = 2.0) -> Array:
    if tangents[0] is None:
        return np.zeros(np.shape(ans))
    first, second = _upper_pairs(np.shape(x)[-2])
    t = np.broadcast_to(tangents[0], np.shape(x))
    diff = x[..., first, :] - x[..., second, :]
    slope = _slopes(diff, ans, np.ones(np.shape(ans)), p)
    return np.sum(slope * (t[..., first, :] - t[..., second, :]), axis=-1)


def _call(name: str, defaults: dict[str, Any]) -> Any:
    def text(args: Any, **params: Any) -> str:
        said = [f"{key}={value!r}" for key, value in params.items() if key in defaults and value != defaults[key]]
        return f"{name}({', '.join([*args, *said])})"

    return text


_P = Param("p", "float", 2.0)
_COMPUTE = Param("compute_mode", "str", _MODES[0], choices=_MODES,
                 refused=("ValueError", "{value} is not a valid value for compute_mode"))  # (torch.cdist's own check)
_CDIST_EXAMPLES: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((3, 2), (4, 2)), {}), (((2, 3, 2), (3, 2)), {"p": 1.0}), (((2, 3), (2, 3)), {"p": 3.0}),
                   (((3, 2), (2, 2)), {"p": np.inf}), (((2, 2), (3, 2)), {"p": 0.5}),
                   (((3, 2), (4, 2)), {"compute_mode": "use_mm_for_euclid_dist"}),
                   (((2, 3, 2), (1, 4, 2)), {"compute_mode": "use_mm_for_euclid_dist"}))

ROWS = [
    structural("renorm", 1, _renorm, _renorm_vjp, "RenormBackward0", jvp=_renorm_jvp, shape=_renorm_shape,
               params=(Param("p", "float", None), Param("dim", "int", None), Param("maxnorm", "float", None)),
               methods=("renorm",), text=_call("torch.renorm", {"p": None, "dim": None, "maxnorm": None}), kinked=True,
               examples=((((3, 2),), {"p": 2.0, "dim": 0, "maxnorm": 1.0}), (((2, 3, 2),), {"p": 1.0, "dim": -1, "maxnorm": 2.0}),
                         (((3, 2),), {"p": 3.0, "dim": 1, "maxnorm": 0.5}), (((2, 2),), {"p": 2.0, "dim": 0, "maxnorm": 10.0})),
               reference="torch.renorm(a, 2, 0, 1.0)", reference_program="torch.renorm(a, 2, 0, 1.0)",
               dtype_refusals=float_input("linalg.vector_norm")),
    # cdist as PyTorch's _cdist_forward (CdistBackward0): every p, and p = 2 where it takes no matrix products
    structural("cdist_whole", 2, _cdist, _cdist_vjp, "CdistBackward0", jvp=_cdist_jvp, shape=_cdist_shape,
               params=(_P, _COMPUTE), callable=False, reference=None, text=_call("torch.cdist", {"p": 2.0}),
               kinked=True, examples=_CDIST_EXAMPLES[:5]),
    structural("euclidean_dist", 2, _euclidean, _euclidean_vjp, "EuclideanDistBackward0", jvp=_euclidean_jvp,
               shape=lambda x1, x2: (*np.broadcast_shapes(x1[:-2], x2[:-2]), x1[-2], x2[-2]), callable=False, reference=None, kinked=True,
               text=lambda args: f"torch._euclidean_dist({', '.join(args)})", examples=((((3, 2), (4, 2)), {}),)),
    composite("cdist", 2, _cdist_program, "CdistBackward0", sympy=None, shape=_cdist_shape, params=(_P, _COMPUTE),
              inputs=("x1", "x2"), text=_call("torch.cdist", {"p": 2.0, "compute_mode": _MODES[0]}), kinked=True,
              examples=_CDIST_EXAMPLES, reference="torch.cdist(a, b)", reference_program="torch.cdist(a, b)",
              dtype_refusals=(("integer", "RuntimeError", "cdist only supports floating-point dtypes, X1 got: {0}"),
                              ("integer 1", "RuntimeError", "cdist only supports floating-point dtypes, X2 got: {1}"), ("mixed", "RuntimeError", "expected scalar type {0} but found {1}"))),
    structural("pdist", 1, _pdist, _pdist_vjp, "PdistBackward0", jvp=_pdist_jvp, shape=_pdist_shape, params=(_P,),
               text=_call("F.pdist", {"p": 2.0}), kinked=True,
               examples=((((3, 2),), {}), (((4, 3),), {"p": 1.0}), (((3, 2),), {"p": 3.0}), (((3, 2),), {"p": np.inf}),
                         (((3, 2),), {"p": 0.5}), (((1, 2),), {})),
               reference="F.pdist(a)", reference_program="F.pdist(a)",
               dtype_refusals=(("integer", "RuntimeError", "pdist only supports floating-point dtypes"),)),
]


# --- quantile, nanquantile: PyTorch's sort, gather and lerp (aten/src/ATen/native/Sorting.cpp) ---------
#
# Where the values' ranks fall depends on the values (a NaN moves them, nanquantile counts the numbers):
# the rows quantile_ranks give them, constants of the point (no gradient flows through them), as integer
# indices for gather and as lerp's weights.

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_rank(s: Array, q: float, ignore_nan: bool, interpolation: str) -> Array:
    n = np.shape(s)[-1]
    nan = np.isnan(s)
    if ignore_nan:
        rank = q * (np.sum(~nan, axis=-1, keepdims=True) - 1)
        rank = np.where(rank < 0, 0.0, rank)
    else:
        rank = np.where(np.any(nan, axis=-1, keepdims=True), float(n - 1), q * (n - 1))
    if interpolation == "lower":
        return np.floor(rank)
    if interpolation == "higher":
        return np.ceil(rank)
    if interpolation == "nearest":
        return np.round(rank)
    return np.asarray(rank, dtype=float)


def _quantile_ranks(s: Array, ranks: tuple[int, ...], q: float = 0.5, ignore_nan: bool = False,
                    interpolation: str = "linear", part: int = 0, of: Any = None) -> Array:
    rank = _quantile_rank(np.asarray(getattr(s, "primal", s)), q, ignore_nan, interpolation)
    below = np.trunc(rank)
    if part % 3 == 0:
        return below
    if part % 3 == 1:
        return np.ceil(rank)
    return np.full(np.shape(rank), 0.5) if interpolation == "midpoint" else rank - below


def _quantile_check(name: str, x: Shape, q: Any, dim: Any, interpolation: str) -> None:
    if q is None or not 0.0 <= q <= 1.0:  # (nanquantile's words are quantile's; q as C++ prints a double: 2, 1.23457)
        raise ValueError(f"quantile() q must be in the range [0, 1] but got {q if q is None else format(q, 'g')}")
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest. "
                         f"Got {interpolation}")
    if math.prod(x) == 0:
        raise ValueError("quantile() input tensor must be non-empty")  # (nanquantile's too)
    if dim is not None:
        point_axes(dim, len(x))


def _quantile_out(x: Shape, dim: Any, keepdim: bool) -> list[int]:
    if dim is None:
        return [1] * len(x) if keepdim else []
    if not x:
        return []
    axis = point_axes(dim, len(x))[0] + len(x)
    return [1 if i == axis else s for i, s in enumerate(x)] if keepdim else [s for i, s in enumerate(x) if i != axis]


def _quantile_shape(name: str) -> Any:
    def shape(x: Shape, q: Any = None, dim: Any = None, keepdim: bool = False, interpolation: str = "linear") -> Shape:
        _quantile_check(name, x, q, dim, interpolation)
        if (math.prod(x) > 2**24 and dim is None) or (dim is not None and x and x[point_axes(dim, len(x))[0]] > 2**24):
            raise ValueError(f"{name}() input tensor is too large")
        return tuple(_quantile_out(x, dim, keepdim))

    return shape


def _quantile_program(name: str) -> Any:
    ignore_nan = name == "nanquantile"

    def program(emit: Any, x: Any, q: Any = None, dim: Any = None, keepdim: bool = False,
                interpolation: str = "linear") -> Any:
        shape = emit.shape(x)
        if shape is None:
            return emit("shaped_later", x, of=name, given=(("dim", dim), ("interpolation", interpolation),
                                                         ("keepdim", keepdim), ("q", q)))
        _quantile_shape(name)(shape, q, dim, keepdim, interpolation)
        if dim is None:
            flat = x if len(shape) == 1 else emit("reshape", x, shape=(-1,))  # (flatten: a vector is itself)
            n = max(math.prod(shape), 1)
        else:
            axis = point_axes(dim, len(shape))[0] + len(shape) if shape else 0
            n = shape[axis] if shape else 1
            flat = x if axis == len(shape) - 1 else emit("transpose", emit("unsqueeze", x, dim=-1), dim0=axis, dim1=-1)
        values = emit("sort", flat, part=0, of=None)
        values = emit("reshape", values, shape=(*_quantile_out(shape, dim, keepdim), n))
        given = {"q": float(q), "ignore_nan": ignore_nan, "interpolation": interpolation}
        below = emit("gather", values, emit("quantile_ranks", values, part=0, **given), dim=-1)
        if interpolation in ("linear", "midpoint"):
            above = emit("gather", values, emit("quantile_ranks", values, part=1, **given), dim=-1)
            below = emit("lerp", below, above, emit("quantile_ranks", values, part=2, **given))
        return emit("squeeze_last", below)

    return program


def _quantile_row(name: str) -> Any:
    return composite(name, 1, _quantile_program(name), "SqueezeBackward4", sympy=None, shape=_quantile_shape(name),
                     params=(Param("q", "float", None), Param("dim", "int", None, aliases=("axis",)),
                             Param("keepdim", "bool", False, aliases=("keepdims",)),
                             Param("interpolation", "str", "linear", aliases=("method",), choices=_INTERPOLATIONS)),
                     dialects=(Dialect("numpy", order=("q", "dim")),),  # (np.quantile's 4th is out=)
                     methods=(name,), kinked=True,
                     text=_call(f"torch.{name}", {"q": None, "dim": None, "keepdim": False, "interpolation": "linear"}),
                     examples=((((5,),), {"q": 0.3}), (((3, 4),), {"q": 0.5, "dim": 0}),
                               (((3, 4),), {"q": 0.7, "dim": 1, "keepdim": True}),
                               (((3, 4),), {"q": 0.25, "interpolation": "midpoint"}),
                               (((2, 3),), {"q": 0.6, "dim": 0, "interpolation": "nearest"}),
                               (((4,),), {"q": 0.4, "interpolation": "lower"}), (((),), {"q": 0.5})),
                     reference=f"torch.{name}(a, 0.25)", reference_program=f"torch.{name}(a, 0.25)",
                     dtype_refusals=(("integer", "RuntimeError", "quantile() input tensor must be either float or double dtype"),))


def _squeeze_last(x: Array, ranks: tuple[int, ...]) -> Array:
    return x[..., 0]


ROWS += [
    structural("quantile_ranks", 1, _quantile_ranks, lambda g, ans, s, ranks, **_: (None,), "None",
               jvp=lambda tangents, ans, s, ranks, **_: np.zeros(np.shape(ans)),
               shape=lambda s, q=0.5, ignore_nan=False, interpolation="linear", part=0, of=None: (*s[:-1], 1),
               params=(Param("q", "float", 0.5), Param("ignore_nan", "bool", False),
                       Param("interpolation", "str", "linear", choices=_INTERPOLATIONS)),
               parts=3, integer_parts=(0, 1), differentiable=False, callable=False, reference=None,
               text=lambda args, part=0, **_: f"the ranks of quantile in {args[0]}[{part}]", examples=()),
    # x.squeeze_(-1) of a value whose last axis is 1: PyTorch's in-place squeeze records SqueezeBackward4
    structural("squeeze_last", 1, _squeeze_last, lambda g, ans, x, ranks: (g[..., None],),
               "SqueezeBackward4", shape=lambda x: x[:-1], callable=False, reference=None, dtype="keeps",
               text=lambda args: f"{args[0]}.squeeze_(-1)", examples=((((3, 1),), {}),)),
    _quantile_row("quantile"),
    _quantile_row("nanquantile"),
]
