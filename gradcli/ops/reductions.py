"""The rows of the reductions: sum, mean, prod, max, min, amax, amin, norm,
logsumexp, var, std, softmax, log_softmax.

Their rules act on the trailing `ranks[0]` axes of their arg (see core: rules never see a batch).
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np

from gradcli.ops import float32, float64
from gradcli.ops.core import (
    BOOL_SUBTRACTION,
    Array,
    Dialect,
    DimError,
    Op,
    Param,
    Shape,
    ValueRefusal,
    composite,
    kernel_refusal,
    load_sympy,
    point_axes,
    sign,
    structural,
)
from gradcli.ops.summation import torch_sum

# dim/axis and keepdim/keepdims, as PyTorch and NumPy spell them.
DIM = Param("dim", "dims", None, aliases=("axis",))
KEEPDIM = Param("keepdim", "bool", False, aliases=("keepdims",))
# dtype=: the result's dtype (a "dtype" param: the lowering hands it to the front end, never to the rules).
CAST = Param("dtype", "dtype", None)


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


def _sum(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    return np.asarray(torch_sum(x, point_axes(dim, ranks[0]), keepdims=keepdim))


def _sum_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
             keepdim: bool = False) -> tuple[Array]:
    return (np.broadcast_to(_kept(g, point_axes(dim, ranks[0]), keepdim), x.shape),)


def _count(x: Array, axes: tuple[int, ...]) -> int:
    return int(np.prod([x.shape[axis] for axis in axes], dtype=np.int64))


def torch_mean(x: Array, axes: tuple[int, ...], keepdims: bool = False) -> Array:
    """PyTorch's CPU mean: its sum (in its order: torch_sum), divided by the count."""
    if type(x) is np.ndarray and x.dtype.kind == "f" and x.size:
        return np.asarray(torch_sum(x, axes, keepdims=keepdims) / x.dtype.type(_count(x, axes)))
    return np.mean(x, axis=axes, keepdims=keepdims)  # (dual numbers, a recorded gradient's values: their own mean)


def _mean(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    return np.asarray(torch_mean(x, point_axes(dim, ranks[0]), keepdim))


def _mean_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
              keepdim: bool = False) -> tuple[Array]:
    axes = point_axes(dim, ranks[0])
    return (np.broadcast_to(_kept(g, axes, keepdim) / _count(x, axes), x.shape),)


def _nansum(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    return np.asarray(np.sum(np.where(x == x, x, 0.0), axis=point_axes(dim, ranks[0]), keepdims=keepdim))


def _nansum_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
                keepdim: bool = False) -> tuple[Array]:
    # PyTorch's: the gradient times the mask of the numbers (a NaN or inf gradient stays NaN at a NaN)
    return (np.broadcast_to(_kept(g, point_axes(dim, ranks[0]), keepdim), x.shape) * (x == x),)


def _nansum_jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
                keepdim: bool = False) -> Array:
    (t,) = tangents
    if t is None:
        return np.zeros_like(ans)
    return np.asarray(np.sum(np.broadcast_to(t, x.shape) * (x == x), axis=point_axes(dim, ranks[0]), keepdims=keepdim))


def _nanmean_program(emit: Any, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
    # PyTorch's nanmean: nansum divided by the count of the numbers (a constant: DivBackward0's None)
    count = emit("sum", emit("eq", x, x), dim=dim, keepdim=keepdim)
    return emit("div", emit("nansum", x, dim=dim, keepdim=keepdim), count)


def _with_dim(name: str) -> Any:
    """PyTorch's node: SumBackward0 over everything, SumBackward1 over given dims."""
    return lambda constant, shapes, dim=None, keepdim=False: f"{name}Backward{0 if dim is None else 1}"


def _check_nonempty(name: str, shape: tuple[int, ...], axes: tuple[int, ...], dim: Any) -> None:
    """max, min, amax, amin have no value over no elements: PyTorch's error."""
    if dim is None and 0 in shape:
        if name == "aminmax":
            raise ValueRefusal("aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
                               "identity.")
        if name in ("argmax", "argmin"):  # (PyTorch's IndexError, its first sentence alone)
            raise DimError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        raise ValueError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                         "Specify the reduction dim with the 'dim' argument.")
    for given, axis in zip(dim if isinstance(dim, tuple) else (dim,), axes, strict=False):
        if shape[axis] == 0:  # (PyTorch's IndexError)
            raise DimError(f"{name}{':' if name == 'aminmax' else '():'} Expected reduction dim {given} to have "
                           "non-zero size.")


def _nonempty_shape(name: str) -> Any:
    def shape(x: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> tuple[int, ...]:
        _check_nonempty(name, x, point_axes(dim, len(x)), dim)
        return _reduced_shape(x, dim, keepdim)

    return shape


def _along(x: Array, axes: tuple[int, ...]) -> tuple[Array, tuple[int, ...]]:
    """x with the (negative) `axes` moved to the end and made one: (that, the moved shape)."""
    moved = np.moveaxis(x, axes, tuple(range(-len(axes), 0)))
    return np.reshape(moved, (*moved.shape[: moved.ndim - len(axes)], -1)), moved.shape


def _back(flat: Array, moved_shape: tuple[int, ...], axes: tuple[int, ...]) -> Array:
    return np.moveaxis(np.reshape(flat, moved_shape), tuple(range(-len(axes), 0)), axes)


def _exclusive_cumprod(flat: Array) -> Array:
    """[1, x0, x0 x1, ...] along the last axis, in PyTorch's order of products."""
    out = np.ones_like(flat)
    if type(flat) is np.ndarray:
        out[..., 1:] = np.cumprod(flat[..., :-1], axis=-1)
        return out
    running = out[..., 0]  # dual numbers (the Hessian): the same products, one at a time
    for i in range(1, flat.shape[-1]):
        running = running * flat[..., i - 1]
        out[..., i] = running
    return out


def _others_product(x: Array, axes: tuple[int, ...]) -> Array:
    """Each element's product of the others in its slice: PyTorch's prod_safe_zeros_backward."""
    flat, moved_shape = _along(x, axes)
    left = _exclusive_cumprod(flat)
    right = np.flip(_exclusive_cumprod(np.flip(flat, -1)), -1)
    return _back(left * right, moved_shape, axes)


def _prod(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    return np.asarray(np.prod(x, axis=point_axes(dim, ranks[0]), keepdims=keepdim))


def _prod_slope(ans: Array, x: Array, rank: int, dim: Any, keepdim: bool) -> Array:
    """d prod / d x, as PyTorch's prod_backward computes it: result / x where the point has no
    zero, else the product of the others (exact with zeros)."""
    axes = point_axes(dim, rank)
    if not axes or x.size == 0:  # (nothing to multiply: an empty x has an empty slope)
        return np.ones_like(x)
    has_zero = np.any(x == 0, axis=_axes(rank), keepdims=True)
    safe = np.where(has_zero, 1.0, x)
    return np.where(has_zero, _others_product(x, axes), _kept(ans, axes, keepdim) / safe)


def _many_zeros(x: Array, rank: int, dim: Any) -> Array | bool:
    # prod over everything with two zeros or more: PyTorch's backward is zeros (g NaN too).
    return dim is None and rank > 0 and np.sum(x == 0, axis=_axes(rank), keepdims=True) > 1


def _prod_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
              keepdim: bool = False) -> tuple[Array]:
    axes = point_axes(dim, ranks[0])
    part = _kept(g, axes, keepdim) * _prod_slope(ans, x, ranks[0], dim, keepdim)
    many = _many_zeros(x, ranks[0], dim)
    return (np.where(many, 0.0, part) if many is not False else part,)


def _prod_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    axes = point_axes(dim, ranks[0])
    return np.sum(t[0] * _prod_slope(ans, x, ranks[0], dim, keepdim), axis=axes, keepdims=keepdim)


# max and min of one tensor (torch.max(x): MaxBackward1, the gradient split evenly among the
# elements equal to the result, NaN ones where it is NaN; with a dim, MaxBackward0: all of it
# to the index torch.max(x, dim) gives, the first of the ties, the first NaN), and amax/amin
# (AmaxBackward0: split evenly among the ties of each slice).
DIM_INT = Param("dim", "int", None, aliases=("axis",))  # torch.max/min take one dim


def _extreme(name: str, numpy_function: Any, arg_function: Any = None) -> Any:
    def forward(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
        axes = point_axes(dim, ranks[0])
        if x.size == 0:  # (the shape check stops at it: the sweep gives its words)
            _check_nonempty(name, x.shape[x.ndim - ranks[0]:], axes, dim)
        if arg_function is not None and dim is not None and axes:
            # The element at the index PyTorch picks (max of [0.0, -0.0] over dim 0 is 0.0; NumPy's -0.0).
            index = np.expand_dims(arg_function(x, axis=axes[0]), axes[0])
            picked = np.take_along_axis(x, index, axis=axes[0])
            return np.asarray(picked if keepdim else np.squeeze(picked, axis=axes[0]))
        return np.asarray(numpy_function(x, axis=axes, keepdims=keepdim))

    return forward


def _ties(ans: Array, x: Array, rank: int, dim: Any, keepdim: bool) -> Array:
    """Where x equals its reduction (NaN where the reduction is NaN, for torch.max(x))."""
    kept = _kept(ans, point_axes(dim, rank), keepdim)
    return (x == kept) | ((x != x) & (kept != kept))


def _first(arg_function: Any, x: Array, axis: int) -> Array:
    """A one-hot mask of the index arg_function (np.argmax: the first of ties, or the first NaN) picks along `axis`."""
    index = np.expand_dims(arg_function(x, axis=axis), axis)
    positions = np.reshape(np.arange(x.shape[axis]), (x.shape[axis],) + (1,) * (-axis - 1))
    return np.asarray(positions == index)


def _extreme_mask(arg_function: Any) -> Any:
    """(mask, divisor): the share of g each element of a max/min gets."""
    def mask(ans: Array, x: Array, rank: int, dim: Any, keepdim: bool) -> tuple[Array, Any]:
        if dim is None:
            ties = _ties(ans, x, rank, None, keepdim)
            return ties, np.sum(ties, axis=_axes(rank), keepdims=True)
        axes = point_axes(dim, rank)
        return (_first(arg_function, x, axes[0]) if axes else np.ones(np.shape(x), dtype=bool)), 1.0

    return mask


def _even_mask(ans: Array, x: Array, rank: int, dim: Any, keepdim: bool) -> tuple[Array, Any]:
    axes = point_axes(dim, rank)
    ties = np.asarray(x == _kept(ans, axes, keepdim))  # amax of a NaN: no element is the result (NaN)
    return ties, np.sum(ties, axis=axes, keepdims=True)


def _selection_vjp(mask_of: Any, masked_fill: bool) -> Any:
    """masked_fill: the others get 0 whatever g is (torch.max); else g / count * mask (amax: a NaN g stays NaN)."""
    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
            keepdim: bool = False) -> tuple[Array]:
        mask, count = mask_of(ans, x, ranks[0], dim, keepdim)
        share = _kept(g, point_axes(dim, ranks[0]), keepdim) / count
        return (np.where(mask, share, 0.0) if masked_fill else share * mask,)

    return vjp


def _selection_jvp(mask_of: Any) -> Any:
    def jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
        mask, count = mask_of(ans, x, ranks[0], dim, keepdim)
        return np.sum(np.where(mask, t[0], 0.0) / count, axis=point_axes(dim, ranks[0]), keepdims=keepdim)

    return jvp


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


def _logsumexp(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    # PyTorch's: the largest element taken out (0 where it is infinite), log of the sum, put back.
    axes = point_axes(dim, ranks[0])
    if x.size == 0:
        return np.asarray(np.log(np.sum(np.exp(x), axis=axes, keepdims=keepdim)))
    peak = np.max(x, axis=axes, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    return np.asarray(np.log(np.sum(np.exp(x - peak), axis=axes, keepdims=keepdim))
                      + (peak if keepdim else np.squeeze(peak, axis=axes)))


def _logsumexp_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
                   keepdim: bool = False) -> tuple[Array]:
    axes = point_axes(dim, ranks[0])
    return (_kept(g, axes, keepdim) * np.exp(x - _kept(ans, axes, keepdim)),)


def _logsumexp_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
                   keepdim: bool = False) -> Array:
    axes = point_axes(dim, ranks[0])
    return np.sum(t[0] * np.exp(x - _kept(ans, axes, keepdim)), axis=axes, keepdims=keepdim)


# var and std (VarBackward0, StdBackward0): PyTorch's correction (default 1; `unbiased=False`
# is 0; NumPy's `ddof` is the same number), its error-free cases where n - correction <= 0.
UNBIASED = Param("unbiased", "bool", None)
CORRECTION = Param("correction", "float", None, aliases=("ddof",))


def _correction(unbiased: Any, correction: Any) -> float:
    if correction is not None:
        return float(correction)
    return 1.0 if unbiased is None or unbiased else 0.0


def _var(x: Array, ranks: tuple[int, ...], dim: Any = None, unbiased: Any = None, keepdim: bool = False,
         correction: Any = None, welford: bool = False) -> Array:
    """(welford: var_mean's var, which takes Welford's steps even where its result is one number)"""
    axes = point_axes(dim, ranks[0])
    count = _count(x, axes)
    if type(x) is np.ndarray and x.dtype == np.float64 and x.size:
        squares = _float64_moments(x, ranks[0], axes, keepdim, welford)[1]
    else:
        mean = np.mean(x, axis=axes, keepdims=True)
        squares = np.sum(np.square(np.abs(x - mean)), axis=axes, keepdims=keepdim)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(squares / max(count - _correction(unbiased, correction), 0.0))


def _float64_moments(x: Array, rank: int, axes: tuple[int, ...], keepdim: bool, welford: bool) -> tuple[Array, Array]:
    """The mean and the sum of squared deviations over `axes` in PyTorch's steps (gradcli.ops.float64): two passes
    where a point's result is one number (but for var_mean), else Welford's (its running mean)."""
    ndim = x.ndim
    reduced = sorted(a % ndim for a in axes)
    kept = [a for a in range(ndim) if a not in reduced]
    rows = np.moveaxis(x, kept + reduced, range(ndim)).reshape(math.prod(x.shape[a] for a in kept), -1)
    if not welford and rows.shape[-1] == math.prod(x.shape[ndim - rank:]):  # (each point's all: std_var_all_cpu)
        mean = torch_mean(rows, (-1,))
        squares = float64.squared_deviations(rows, mean)
    else:
        mean, squares = float64.welford(rows)
    shape = [1 if a in reduced else n for a, n in enumerate(x.shape)] if keepdim else [x.shape[a] for a in kept]
    return mean.reshape(shape), squares.reshape(shape)


def _std(x: Array, ranks: tuple[int, ...], dim: Any = None, unbiased: Any = None, keepdim: bool = False,
         correction: Any = None, welford: bool = False) -> Array:
    return np.asarray(np.sqrt(_var(x, ranks, dim, unbiased, keepdim, correction, welford)))


def _var_slope(g: Array, x: Array, rank: int, dim: Any = None, unbiased: Any = None, keepdim: bool = False,
               correction: Any = None) -> Array:
    """PyTorch's var_backward: (2 / (n - correction)) * g * (x - mean)."""
    axes = point_axes(dim, rank)
    dof = _count(x, axes) - _correction(unbiased, correction)
    g = _kept(g, axes, keepdim)
    centred = x - torch_mean(x, axes, keepdims=True)  # (self.mean(dim, true), as var_backward takes it)
    if (dim is None or rank == 0) and dof <= 0:  # g * (NaN where x is the mean, else inf)
        return g * np.where(centred == 0, np.nan, np.inf)
    with np.errstate(divide="ignore"):
        return (2.0 / np.float64(dof)) * g * centred


def _var_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Array]:
    return (_var_slope(g, x, ranks[0], **params),)


def _std_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Array]:
    # PyTorch's std_backward: var_backward of g / (2 std), that made 0 where std is 0.
    return (_var_slope(np.where(ans == 0, 0.0, g / np.where(ans == 0, 1.0, ans * 2.0)), x, ranks[0], **params),)


def _reduction_jvp(vjp: Any) -> Any:
    """The JVP of a reduction whose VJP is g (kept) times a slope: the sum of t times that slope."""
    def jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False,
            **params: Any) -> Array:
        slope = vjp(np.ones_like(ans), ans, x, ranks, dim=dim, keepdim=keepdim, **params)[0]
        return np.sum(t[0] * slope, axis=point_axes(dim, ranks[0]), keepdims=keepdim)

    return jvp


def _sym_var(root: bool) -> Any:
    def build(x: Array, dim: Any = None, unbiased: Any = None, keepdim: bool = False, correction: Any = None) -> Array:
        sympy = load_sympy()
        dof = _correction(unbiased, correction)

        def combine(terms: list[Any]) -> Any:
            mean = sympy.Add(*terms) / len(terms)
            var = sympy.Add(*[(t - mean) ** 2 for t in terms]) / (len(terms) - sympy.nsimplify(dof))
            return sympy.sqrt(var) if root else var

        return _sympy_reduction(combine)(x, dim, keepdim)

    return build


def _var_shape(x: tuple[int, ...], dim: Any = None, unbiased: Any = None, keepdim: bool = False,
               correction: Any = None) -> tuple[int, ...]:
    return _reduced_shape(x, dim, keepdim)


# softmax and log_softmax along one dim (SoftmaxBackward0, LogSoftmaxBackward0). PyTorch wants
# the dim; without one, a value of one axis (or none) has only that one, and one of more axes
# is an error (F.softmax's implicit choice, dim 0 for 3-D values and 1 for 2-D, is deprecated).
def _softmax_axis(name: str, dim: Any, rank: int) -> int:
    if dim is None and rank > 1:
        raise ValueError(f"{name} of a {rank}-D value needs dim= (PyTorch's implicit choice of a dim is deprecated)")
    axes = point_axes(0 if dim is None else dim, rank)
    return axes[0] if axes else -1


def _with_axis(x: Array, rank: int) -> Array:
    return x[..., None] if rank == 0 else x  # a number: a softmax over its one element


def _softmax(x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    axis = _softmax_axis("softmax", dim, ranks[0])
    y = _with_axis(x, ranks[0])
    if y.size == 0:  # (no slice to take a maximum of: PyTorch's empty result)
        return np.array(x, copy=True)
    if y.dtype == np.float32 and axis in (-1, y.ndim - 1):  # (PyTorch's kernel over the last dim)
        out = float32.softmax_lastdim(y)
    elif type(y) is np.ndarray and y.dtype == np.float64:
        out = float64.softmax(y, axis)
    else:
        shifted = np.exp(y - np.max(y, axis=axis, keepdims=True))
        out = shifted * (1.0 / np.sum(shifted, axis=axis, keepdims=True))
    return np.asarray(out[..., 0] if ranks[0] == 0 else out)


def _log_softmax(x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    axis = _softmax_axis("log_softmax", dim, ranks[0])
    y = _with_axis(x, ranks[0])
    if y.size == 0:  # (no slice to take a maximum of: PyTorch's empty result)
        return np.array(x, copy=True)
    if y.dtype == np.float32 and axis in (-1, y.ndim - 1):  # (PyTorch's kernel over the last dim)
        return np.asarray(float32.log_softmax_lastdim(y)[..., 0] if ranks[0] == 0 else float32.log_softmax_lastdim(y))
    if y.dtype == np.float32:  # (its kernel over another dim: cross_entropy's classes of an (N, C, d1) input)
        return float32.log_softmax_along(y, axis % y.ndim)
    if type(y) is np.ndarray and y.dtype == np.float64:
        out = float64.log_softmax(y, axis)
        return np.asarray(out[..., 0] if ranks[0] == 0 else out)
    peak = np.max(y, axis=axis, keepdims=True)
    shifted = y - peak  # PyTorch's order: (x - max) - log(sum(exp(x - max)))
    out = shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return np.asarray(out[..., 0] if ranks[0] == 0 else out)


def _softmax_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> tuple[Array]:
    axis = _softmax_axis("softmax", dim, ranks[0])
    g, y = _with_axis(g, ranks[0]), _with_axis(ans, ranks[0])
    if type(g) is np.ndarray and g.dtype == y.dtype == np.float32 and axis in (-1, y.ndim - 1):
        out = (g - float32.vector_sum(g * y)[..., None]) * y  # (PyTorch's kernel over the last dim, in its order)
    elif type(g) is type(y) is np.ndarray and g.dtype == y.dtype == np.float64:
        out = float64.softmax_backward(g, y, axis)
    else:
        out = y * (g - np.sum(g * y, axis=axis, keepdims=True))
    return (out[..., 0] if ranks[0] == 0 else out,)


def _log_softmax_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> tuple[Array]:
    axis = _softmax_axis("log_softmax", dim, ranks[0])
    g, y = _with_axis(g, ranks[0]), _with_axis(ans, ranks[0])
    if type(g) is np.ndarray and g.dtype == y.dtype == np.float32 and axis in (-1, y.ndim - 1):
        out = float32.log_softmax_backward_lastdim(g, y)  # (PyTorch's kernel over the last dim)
        return (out[..., 0] if ranks[0] == 0 else out,)
    if type(g) is np.ndarray and g.dtype == y.dtype == np.float32:  # (its kernel over another dim)
        return (float32.log_softmax_backward_along(g, y, axis % y.ndim),)
    if type(g) is type(y) is np.ndarray and g.dtype == y.dtype == np.float64:
        out = float64.log_softmax_backward(g, y, axis)
        return (out[..., 0] if ranks[0] == 0 else out,)
    # (a sum of -0s is -0, as in PyTorch's kernel: NumPy's starts from +0, and -0 - 0 would stay -0)
    out = g - np.exp(y) * np.sum(g, axis=axis, keepdims=True, initial=-0.0)
    return (out[..., 0] if ranks[0] == 0 else out,)


def _softmax_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    return _softmax_vjp(t[0], ans, x, ranks, dim)[0]  # symmetric: its Jacobian is its own transpose


def _log_softmax_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    axis = _softmax_axis("log_softmax", dim, ranks[0])
    tt, y = _with_axis(t[0], ranks[0]), _with_axis(ans, ranks[0])
    out = tt - np.sum(np.exp(y) * tt, axis=axis, keepdims=True)
    return out[..., 0] if ranks[0] == 0 else out


def _softmax_shape(name: str) -> Any:
    def shape(x: tuple[int, ...], dim: Any = None) -> tuple[int, ...]:
        _softmax_axis(name, dim, len(x))
        return x

    return shape


def _sym_along(x: Array, axis: int, each: Any) -> Array:
    """SymPy expressions, `each(terms)` giving the expressions of one slice of `x` along `axis`
    (a number is a slice of one)."""
    y = _with_axis(x, x.ndim)
    out = np.empty(y.shape, dtype=object)
    moved_in, moved_out = np.moveaxis(y, axis, -1), np.moveaxis(out, axis, -1)
    for index in np.ndindex(moved_in.shape[:-1]):
        moved_out[index] = each(list(moved_in[index]))
    return np.asarray(out[..., 0] if x.ndim == 0 else out, dtype=object)


def _sym_softmax(log: bool) -> Any:
    def each(terms: list[Any]) -> list[Any]:
        sympy = load_sympy()
        total = sympy.Add(*[sympy.exp(e) for e in terms])
        return [e - sympy.log(total) if log else sympy.exp(e) / total for e in terms]

    return lambda x, dim=None: _sym_along(x, _softmax_axis("softmax", dim, x.ndim), each)


# norm: torch.norm / torch.linalg.vector_norm, any p ('fro' is 2), over dims, LinalgVectorNormBackward0
# with PyTorch's norm_backward: 0 at the origin, sign(x) * g for p = 1, ties split for p = +-inf.
ORD = Param("p", "float", 2.0, aliases=("ord",), choices=("fro",))


def _order(p: Any) -> float:
    return 2.0 if p == "fro" else float(p)


def _norm(x: Array, ranks: tuple[int, ...], p: Any = 2.0, dim: Any = None, keepdim: bool = False) -> Array:
    axes, p = point_axes(dim, ranks[0]), _order(p)
    if p == 2.0 and type(x) is np.ndarray and x.dtype == np.float32 and x.size and axes \
            and sorted(axes) == list(range(-len(axes), 0)):  # (over the last dims: PyTorch's kernel, in its order)
        kept = x.shape[:x.ndim - len(axes)]
        rows = float32.norm_two_rows(np.ascontiguousarray(x).reshape(math.prod(kept), -1)).reshape(kept)
        return np.asarray(rows.reshape(kept + (1,) * len(axes)) if keepdim else rows)
    if p in (1.0, 2.0) and type(x) is np.ndarray and x.dtype == np.float32 and x.size and axes:
        # (PyTorch's other kernel: for each result, each |x| or rounded square added in memory order)
        total = _in_memory_order(np.abs(x) if p == 1.0 else x * x, axes, keepdim)
        return np.asarray(total if p == 1.0 else np.sqrt(total))
    if type(x) is np.ndarray and x.dtype == np.float64 and x.size and axes and p != 0.0 and not math.isinf(p):
        if p == 2.0 and sorted(axes) == list(range(-len(axes), 0)):  # (over the last dims: its kernel, in its order)
            kept = x.shape[:x.ndim - len(axes)]
            rows = float64.norm_two_rows(np.ascontiguousarray(x).reshape(math.prod(kept), -1)).reshape(kept)
            return np.asarray(rows.reshape(kept + (1,) * len(axes)) if keepdim else rows)
        # (its other kernel: each |x|**p added in memory order (|x|, or x * x for p = 2), then the root, pow(sum, 1/p))
        with np.errstate(all="ignore"):
            terms = np.abs(x) if p == 1.0 else x * x if p == 2.0 else np.abs(x) ** p
            total = _in_memory_order(terms, axes, keepdim)
            return np.asarray(total if p == 1.0 else np.sqrt(total) if p == 2.0 else total ** (1.0 / p))
    if p == 2.0:
        return np.asarray(np.sqrt(np.sum(x * x, axis=axes, keepdims=keepdim)))
    size = np.abs(x)
    if p == 1.0:
        return np.asarray(np.sum(size, axis=axes, keepdims=keepdim))
    if math.isinf(p):
        return np.asarray((np.max if p > 0 else np.min)(size, axis=axes, keepdims=keepdim))
    if p == 0.0:
        return np.asarray(np.sum(x != 0, axis=axes, keepdims=keepdim), dtype=float)
    return np.asarray(np.sum(size**p, axis=axes, keepdims=keepdim) ** (1.0 / p))


def _in_memory_order(terms: Array, axes: tuple[int, ...], keepdim: bool) -> Array:
    """The sum over `axes` (negative) of each result's terms, one after another in memory order, as PyTorch's
    reduction kernel adds them (binary_kernel_reduce; NumPy's sum is pairwise along the last axis): a running sum."""
    ndim = terms.ndim
    reduced = sorted(a % ndim for a in axes)
    kept = [a for a in range(ndim) if a not in reduced]
    rows = np.moveaxis(terms, kept + reduced, range(ndim)).reshape(math.prod(terms.shape[a] for a in kept), -1)
    total = np.cumsum(rows, axis=1, dtype=terms.dtype)[:, -1]
    shape = [1 if a in reduced else n for a, n in enumerate(terms.shape)] if keepdim else [terms.shape[a] for a in kept]
    return total.reshape(shape)


def _norm_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], p: Any = 2.0, dim: Any = None,
              keepdim: bool = False) -> tuple[Array]:
    axes, p = point_axes(dim, ranks[0]), _order(p)
    g, norm = _kept(g, axes, keepdim), _kept(ans, axes, keepdim)
    if p == 0.0:
        return (np.zeros_like(x),)
    if p == 1.0:  # (0 where x is NaN: PyTorch's sgn)
        return (sign(np, x) * g,)
    at_origin = norm == 0
    if p == 2.0:  # g times x / |x|, 0 at the origin (a NaN g stays NaN there, as in PyTorch)
        return (g * np.where(at_origin, 0.0, x / np.where(at_origin, 1.0, norm)),)
    size = np.abs(x)
    if math.isinf(p):
        mask = (size == norm) | (size != size)
        return (sign(np, x) * ((g / np.sum(mask, axis=axes, keepdims=True)) * mask),)
    if p < 1.0:
        return (np.sign(x) * np.where(x == 0, 0.0, size ** (p - 1.0)) * g * norm ** (1.0 - p),)
    scaled = np.sign(x) * size ** (p - 1.0) if p < 2.0 else x * size ** (p - 2.0)
    return (scaled * np.where(at_origin, 0.0, g / np.where(at_origin, 1.0, norm ** (p - 1.0))),)


def _sym_norm(x: Array, p: Any = 2.0, dim: Any = None, keepdim: bool = False) -> Array:
    sympy, order = load_sympy(), _order(p)

    def combine(terms: list[Any]) -> Any:
        if math.isinf(order):
            return (sympy.Max if order > 0 else sympy.Min)(*map(sympy.Abs, terms))
        if order == 2.0:
            return sympy.sqrt(sympy.Add(*[t * t for t in terms]))
        exponent = sympy.nsimplify(order)
        return sympy.Add(*[sympy.Abs(t) ** exponent for t in terms]) ** (1 / exponent)

    return _sympy_reduction(combine)(x, dim, keepdim)


def _norm_shape(x: tuple[int, ...], p: Any = 2.0, dim: Any = None, keepdim: bool = False) -> tuple[int, ...]:
    return _reduced_shape(x, dim, keepdim)


_VECTORS_AND_MATRICES: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = ((((4,),), {}), (((2, 3),), {}))
# ... and over some of their dims: one, negative, a tuple, kept.
_OVER_DIMS = _VECTORS_AND_MATRICES + tuple(((shape,), params) for shape, params in [
    ((2, 3), {"dim": 0}), ((2, 3), {"dim": -1, "keepdim": True}), ((2, 3, 2), {"dim": (0, 2)}),
    ((4,), {"dim": 0, "keepdim": True}), ((), {"dim": 0})])

def _extreme_row(name: str, numpy_function: Any, arg_function: Any, combine: str, overload: str) -> Op:
    mask = _extreme_mask(arg_function)
    return structural(name, 1, _extreme(name, numpy_function, arg_function), _selection_vjp(mask, masked_fill=True), f"{name.title()}Backward1", dtype="keeps",
                      jvp=_selection_jvp(mask), sympy=_sympy_reduction(lambda terms: getattr(load_sympy(), combine)(*terms)),
                      shape=_nonempty_shape(name), examples=_VECTORS_AND_MATRICES, kinked=True, methods=(name,),
                      params=(DIM_INT, KEEPDIM), overloads=(overload,), with_dim=f"{name}_dim",
                      # Python's max(a, b) is the elementwise maximum, whatever b is (max(x, 0) is a
                      # ramp); NumPy's np.max(m, 0) gives the values alone (amax).
                      dialects=(Dialect("", row=overload, positional=2), Dialect("numpy", row=f"a{name}")),
                      torch_node_rule=lambda constant, shapes, dim=None, keepdim=False:
                      f"{name.title()}Backward{1 if dim is None else 0}")


# With a dim, torch.max(x, dim) gives the tuple (values, indices) (Op.parts, Op.fields): the values
# take the gradient to the index (MaxBackward0), the indices are integers and take none. argmax and
# argmin are those indices alone (of the flattened value without a dim): the first of ties, the
# first NaN, as NumPy's argmax and argmin pick.
def _index_of(name: str, arg_function: Any) -> Any:
    def forward(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
        rank = ranks[0]
        axes = point_axes(dim, rank)
        if x.size == 0:  # (the shape check stops at it: the sweep gives its words)
            _check_nonempty(name, x.shape[x.ndim - rank:], axes, dim)
        if dim is None:
            index = arg_function(np.reshape(x, (*x.shape[: x.ndim - rank], -1)), axis=-1)
            return np.asarray(np.reshape(index, index.shape + (1,) * rank) if keepdim else index, dtype=float)
        if not axes:  # a number, over its dim 0: index 0
            return np.zeros(x.shape)
        return np.asarray(arg_function(x, axis=axes[0], keepdims=keepdim), dtype=float)

    return forward


def _no_gradient(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Array]:
    return (np.zeros_like(x),)


def _zero_tangent(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    return np.zeros_like(ans)


def _index_row(name: str, arg_function: Any, **fields: Any) -> Op:
    return structural(name, 1, _index_of(name, arg_function), _no_gradient, "None",
                      jvp=_zero_tangent, shape=_nonempty_shape(name), examples=_OVER_ONE_DIM, kinked=True,
                      methods=(name,), params=(DIM_INT, KEEPDIM), differentiable=False, integer_parts=(0,),
                      dtype_refusals=(("bool input", "RuntimeError", f"{name}(): does not support bool input"),), **fields)


def _tuple_row(name: str, numpy_function: Any, arg_function: Any, combine: str, **fields: Any) -> Op:
    """max(x, dim) / min(x, dim): one part of (values, indices), the `part` param saying which."""
    mask = _extreme_mask(arg_function)
    values, values_vjp, values_jvp = _extreme(name, numpy_function, arg_function), _selection_vjp(mask, True), _selection_jvp(mask)
    indices = _index_of(name, arg_function)
    sympy_values = _sympy_reduction(lambda terms: getattr(load_sympy(), combine)(*terms))

    def forward(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False, part: int = 0,
                of: Any = None) -> Array:
        return (indices if part % 2 else values)(x, ranks, dim, keepdim)

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False,
            part: int = 0, of: Any = None) -> tuple[Array]:
        return _no_gradient(g, ans, x, ranks) if part % 2 else values_vjp(g, ans, x, ranks, dim, keepdim)

    def jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False,
            part: int = 0, of: Any = None) -> Array:
        return np.zeros_like(ans) if part % 2 else values_jvp(t, ans, x, ranks, dim, keepdim)

    def sympy(x: Array, dim: Any = None, keepdim: bool = False, part: int = 0, of: Any = None) -> Array:
        if part % 2:
            raise ValueError(f"{name}'s indices have no SymPy form")
        return sympy_values(x, dim, keepdim)

    def shape(x: tuple[int, ...], dim: Any = None, keepdim: bool = False, part: int = 0,
              of: Any = None) -> tuple[int, ...]:
        if dim is None:
            raise ValueError(f"{name}() takes a dim for its (values, indices), as in torch.{name}(x, 0); keepdim alone is not one")
        return _nonempty_shape(name)(x, dim, keepdim)

    def text(args: Any, dim: Any = None, keepdim: bool = False, part: int = 0, of: Any = None) -> str:
        return f"torch.{name}({args[0]}, {dim}{', keepdim=True' if keepdim else ''})[{part}]"  # (bare max(a, b): elementwise)

    return structural(f"{name}_dim", 1, forward, vjp, f"{name.title()}Backward0", dtype="keeps", jvp=jvp, sympy=sympy, shape=shape,
                      text=text, callable=False, parts=2, fields=("values", "indices"), integer_parts=(1,),
                      params=(DIM_INT, KEEPDIM), kinked=True,
                      examples=tuple(((shape,), {**params, "part": 0}) for (shape,), params in _OVER_ONE_DIM[2:]),
                      **fields)


def _even_row(name: str, numpy_function: Any, combine: str) -> Op:
    return structural(name, 1, _extreme(name, numpy_function), _selection_vjp(_even_mask, masked_fill=False),
                      f"{name.title()}Backward0", dtype="keeps", jvp=_selection_jvp(_even_mask),
                      sympy=_sympy_reduction(lambda terms: getattr(load_sympy(), combine)(*terms)),
                      shape=_nonempty_shape(name), examples=_OVER_DIMS[:-1], kinked=True, methods=(name,),
                      params=(DIM, KEEPDIM))


# torch.max/min/prod take one dim (NumPy's prod takes a tuple too: so does gradcli's).
_OVER_ONE_DIM = _VECTORS_AND_MATRICES + tuple(((shape,), params) for shape, params in [
    ((2, 3), {"dim": 0}), ((2, 3), {"dim": -1, "keepdim": True}), ((4,), {"dim": 0, "keepdim": True})])

# cumsum, cumprod, logcumsumexp along one dim (CumsumBackward0, CumprodBackward0,
# LogcumsumexpBackward0): PyTorch wants the dim; without one, as softmax (NumPy would flatten).
def _scan_axis(name: str, dim: Any, rank: int) -> int:
    return _softmax_axis(name, dim, rank)


def _scanned(scan: Any) -> Any:
    """A scan along the (negative) axis of `dim`, a number taken as a vector of one."""
    def apply(x: Array, rank: int, dim: Any, *args: Any) -> Array:
        axis = _scan_axis("cumsum", dim, rank)
        out = scan(_with_axis(x, rank), axis, *(_with_axis(a, rank) for a in args))
        return out[..., 0] if rank == 0 else out

    return apply


def _cumsum0(v: Array, axis: int) -> Array:
    summed = np.cumsum(v, axis=axis)
    return summed + 0.0 if summed.dtype.kind == "f" else summed  # PyTorch's sum starts at 0.0: a sum of -0.0s is 0.0


def _reversed_cumsum(g: Array, axis: int) -> Array:
    return np.flip(_cumsum0(np.flip(g, axis), axis), axis)


def _cumsum(x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    return np.asarray(_scanned(_cumsum0)(x, ranks[0], dim))


def _cumsum_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> tuple[Array]:
    return (_scanned(_reversed_cumsum)(g, ranks[0], dim),)


def _cumprod(x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    return np.asarray(_scanned(lambda y, axis: np.cumprod(y, axis=axis))(x, ranks[0], dim))


def _at_first_zero(g: Array, x: Array, axis: int, masked: bool = True) -> Array:
    """sum over z1 <= k < z2 of g_k * prod_{j <= k, j != z1} x_j (z1, z2: the first two zeros):
    the product before each i times S_i = g_i + x_{i+1} S_{i+1}, with what lies outside
    [z1, z2) left out; the caller keeps it at z1. Not `masked`: the whole sum at every i."""
    xm, gm = np.moveaxis(x, axis, -1), np.moveaxis(g, axis, -1)
    if masked:
        between = np.cumsum(xm == 0, axis=-1) == 1
        xm, gm = np.where(between, xm, 1.0), np.where(between, gm, 0.0)
    before = _exclusive_cumprod(np.moveaxis(x, axis, -1))
    out = np.zeros_like(gm * xm)
    n = xm.shape[-1]
    running = gm[..., n - 1]
    out[..., n - 1] = before[..., n - 1] * running
    for i in range(n - 2, -1, -1):
        running = gm[..., i] + xm[..., i + 1] * running
        out[..., i] = before[..., i] * running
    return np.moveaxis(out, -1, axis)


def _cumprod_scan_vjp(x: Array, axis: int, g: Array, ans: Array) -> Array:
    # PyTorch's cumprod_backward: g where the dim has one element; reversed_cumsum(g * out) / x
    # where there is no zero; with zeros, that before the first zero (out is 0 from there on:
    # left out), the exact sum at the first zero, and 0 after it, whatever g is.
    if x.shape[axis] <= 1:
        return g
    zeros = np.cumsum(x == 0, axis=axis)
    if not np.any(zeros):
        return _reversed_cumsum(g * ans, axis) / x
    if type(x) is not np.ndarray or type(g) is not np.ndarray:
        # Dual numbers (the Hessian): the same values, with the derivative of the masked-off
        # parts, as PyTorch's double backward has it.
        return _at_first_zero(g, x, axis, masked=False)
    before = zeros == 0
    plain = _reversed_cumsum(np.where(before, g * ans, 0.0), axis) / np.where(before, x, 1.0)
    first = (zeros == 1) & (x == 0)
    return np.where(before, plain, np.where(first, _at_first_zero(g, x, axis), 0.0))


def _cumprod_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> tuple[Array]:
    return (_scanned(_cumprod_scan_vjp)(x, ranks[0], dim, g, ans),)


def _cumprod_scan_jvp(x: Array, axis: int, t: Array, ans: Array) -> Array:
    # d out_k = sum over i <= k of t_i * prod_{j <= k, j != i} x_j: the transpose of the VJP's sum.
    xm, tm = np.moveaxis(x, axis, -1), np.moveaxis(t, axis, -1)
    before = _exclusive_cumprod(xm)
    out = np.zeros_like(tm * xm)
    running = tm[..., 0] * 0.0
    for k in range(xm.shape[-1]):
        running = running * xm[..., k] + tm[..., k] * before[..., k]
        out[..., k] = running
    return np.moveaxis(out, -1, axis)


def _cumprod_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    return _scanned(_cumprod_scan_jvp)(x, ranks[0], dim, t[0], ans)


def _logcumsumexp_scan(y: Array, axis: int) -> Array:
    if type(y) is np.ndarray:  # (PyTorch's starts from -inf: a -0.0 first is 0.0)
        return np.logaddexp.accumulate(y, axis=axis) + 0.0
    ym = np.moveaxis(y, axis, -1)  # dual numbers (the Hessian): the same, one step at a time
    out = np.zeros_like(ym)
    running = ym[..., 0] + 0.0
    out[..., 0] = running
    for k in range(1, ym.shape[-1]):
        running = np.logaddexp(running, ym[..., k])
        out[..., k] = running
    return np.moveaxis(out, -1, axis)


def _logcumsumexp(x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    return np.asarray(_scanned(_logcumsumexp_scan)(x, ranks[0], dim))


_LOWEST = np.finfo(np.float64).min


def _logcumsumexp_scan_vjp(x: Array, axis: int, g: Array, ans: Array) -> Array:
    # PyTorch's logcumsumexp_backward: the positive and negative parts of g in log space.
    def reversed_scan(v: Array) -> Array:
        return np.flip(_logcumsumexp_scan(np.flip(v, axis), axis), axis)

    with np.errstate(divide="ignore"):
        log_abs = np.log(np.abs(g))
    positive = np.where(g > 0, log_abs, _LOWEST)
    negative = np.where(g < 0, log_abs, _LOWEST)
    return np.exp(reversed_scan(positive - ans) + x) - np.exp(reversed_scan(negative - ans) + x)


def _logcumsumexp_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> tuple[Array]:
    return (_scanned(_logcumsumexp_scan_vjp)(x, ranks[0], dim, g, ans),)


def _logcumsumexp_scan_jvp(x: Array, axis: int, t: Array, ans: Array) -> Array:
    # d out_k = sum over i <= k of t_i exp(x_i - out_k), carried as T_k = T_{k-1} exp(out_{k-1} - out_k) + t_k exp(x_k - out_k).
    xm, tm, am = (np.moveaxis(v, axis, -1) for v in (x, t, ans))
    out = np.zeros_like(tm * xm)
    running = tm[..., 0] * np.exp(xm[..., 0] - am[..., 0])
    out[..., 0] = running
    for k in range(1, xm.shape[-1]):
        running = running * np.exp(am[..., k - 1] - am[..., k]) + tm[..., k] * np.exp(xm[..., k] - am[..., k])
        out[..., k] = running
    return np.moveaxis(out, -1, axis)


def _logcumsumexp_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    return _scanned(_logcumsumexp_scan_jvp)(x, ranks[0], dim, t[0], ans)


def _sym_scan(combine: Any) -> Any:
    def each(terms: list[Any]) -> list[Any]:
        return [combine(terms[: k + 1]) for k in range(len(terms))]

    return lambda x, dim=None: _sym_along(x, _scan_axis("cumsum", dim, x.ndim), each)


_SOFTMAX_EXAMPLES: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = (
    (((4,),), {}), (((2, 3),), {"dim": 1}), (((2, 3),), {"dim": 0}), (((2, 3, 2),), {"dim": -2}), (((),), {"dim": 0}))

_NORM_EXAMPLES = (*_VECTORS_AND_MATRICES, (((2, 3),), {"p": 1}), (((2, 3),), {"p": 3, "dim": 0}),
                  (((2, 3),), {"p": 0.5, "dim": -1, "keepdim": True}), (((4,),), {"p": 1.5}), (((2, 3),), {"dim": (0, 1)}))
_VAR_EXAMPLES = (*_OVER_DIMS[:-1], (((2, 3),), {"dim": 1, "correction": 0}), (((4,),), {"unbiased": False}))

# PyTorch's var/std overloads: (input, dim, unbiased, keepdim) and (input, unbiased), told apart by
# the bool (torch.std(x, False)); NumPy's np.std(a, axis, ..., ddof=0) divides by n unless asked.
_VAR_ORDERS = (("dim", "unbiased", "keepdim"), ("unbiased",))
_NEEDS_DIM = (Dialect("torch", required=("dim",)), Dialect("method", required=("dim",)))  # torch.cumsum(x): TypeError
# (torch.cumsum(x, dim, *, dtype): the dtype by keyword alone)
_NEEDS_DIM_ONLY = (Dialect("torch", order=("dim",), required=("dim",)), Dialect("method", order=("dim",), required=("dim",)))
_NUMPY_DDOF = (Dialect("numpy", order=("dim",), defaults=(("correction", 0.0),), refuses=("unbiased", "correction")),
               Dialect("torch", refuses=("ddof",)), Dialect("method", refuses=("ddof",)))

_FLOATS_ONLY = (("integer", "RuntimeError", "std and var only support floating point and complex dtypes"),)

ROWS = [
    structural("sum", 1, _sum, _sum_vjp, "SumBackward0", dtype="sums", sympy=_sympy_reduction(lambda terms: load_sympy().Add(*terms)),
               shape=_reduced_shape, examples=_OVER_DIMS, linear=True, methods=("sum",), params=(DIM, KEEPDIM, CAST),
               torch_node_rule=_with_dim("Sum")),
    structural("mean", 1, _mean, _mean_vjp, "MeanBackward0",
               sympy=_sympy_reduction(lambda terms: load_sympy().Add(*terms) / len(terms)), shape=_reduced_shape,
               examples=_OVER_DIMS, linear=True, methods=("mean",), params=(DIM, KEEPDIM, CAST), torch_node_rule=_with_dim("Mean"),
               # np.average(x, axis) without weights= (weighted: refused, an unexpected keyword)
               dialects=(Dialect("numpy", names=("average",), order=("dim",), refuses=("dtype",)),),
               dtype_refusals=(("integer", "RuntimeError", "mean(): could not infer output dtype. Input dtype must be "
                                "either a floating point or complex dtype. Got: {0}"),)),
    structural("nansum", 1, _nansum, _nansum_vjp, "NansumBackward0", dtype="sums", jvp=_nansum_jvp,
               sympy=_sympy_reduction(lambda terms: load_sympy().Add(*terms)), shape=_reduced_shape, examples=_OVER_DIMS,
               methods=("nansum",), params=(DIM, KEEPDIM, CAST)),
    composite("nanmean", 1, _nanmean_program, "DivBackward0", sympy=None, shape=_reduced_shape, examples=_OVER_DIMS,
              methods=("nanmean",), params=(DIM, KEEPDIM),
              dtype_refusals=(("integer", "RuntimeError", "nanmean(): expected input to have floating point or complex "
                               "dtype but got {0}"),)),
    structural("prod", 1, _prod, _prod_vjp, "ProdBackward0", dtype="sums", jvp=_prod_jvp,
               sympy=_sympy_reduction(lambda terms: load_sympy().Mul(*terms)), shape=_reduced_shape, examples=_OVER_DIMS,
               methods=("prod",), params=(DIM, KEEPDIM, CAST), torch_node_rule=_with_dim("Prod")),
    _extreme_row("max", np.max, np.argmax, "Max", "maximum"),
    _extreme_row("min", np.min, np.argmin, "Min", "minimum"),
    _tuple_row("max", np.max, np.argmax, "Max", reference="torch.max(a, 0)[0]", reference_program="torch.max(a, 0)[0]"),
    _tuple_row("min", np.min, np.argmin, "Min", reference="a.min(dim=-1).values",
               reference_program="a.min(dim=-1).values"),
    _index_row("argmax", np.argmax),
    _index_row("argmin", np.argmin, reference="torch.argmin(a, 0)", reference_program="argmin(a, 0)"),
    _even_row("amax", np.amax, "Max"),
    _even_row("amin", np.amin, "Min"),
    structural("cumsum", 1, _cumsum, _cumsum_vjp, "CumsumBackward0", dtype="sums", sympy=_sym_scan(lambda terms: load_sympy().Add(*terms)),
               shape=_softmax_shape("cumsum"), examples=_SOFTMAX_EXAMPLES, linear=True, methods=("cumsum",),
               params=(DIM_INT, CAST), reference="torch.cumsum(a, 0)",
               dialects=(*_NEEDS_DIM_ONLY, Dialect("numpy", row="numpy_cumsum", order=("dim",)))),  # np.cumsum(m): flat
    structural("cumprod", 1, _cumprod, _cumprod_vjp, "CumprodBackward0", dtype="sums", jvp=_cumprod_jvp,
               sympy=_sym_scan(lambda terms: load_sympy().Mul(*terms)), shape=_softmax_shape("cumprod"),
               examples=_SOFTMAX_EXAMPLES, methods=("cumprod",), params=(DIM_INT, CAST),
               reference="torch.cumprod(a, 0)", dialects=(*_NEEDS_DIM_ONLY, Dialect("numpy", row="numpy_cumprod", order=("dim",)))),
    structural("logcumsumexp", 1, _logcumsumexp, _logcumsumexp_vjp, "LogcumsumexpBackward0", jvp=_logcumsumexp_jvp,
               sympy=_sym_scan(lambda terms: load_sympy().log(load_sympy().Add(*map(load_sympy().exp, terms)))),
               shape=_softmax_shape("logcumsumexp"), examples=_SOFTMAX_EXAMPLES, methods=("logcumsumexp",),
               params=(DIM_INT,), reference="torch.logcumsumexp(a, 0)", dialects=_NEEDS_DIM),
    structural("norm", 1, _norm, _norm_vjp, "LinalgVectorNormBackward0", jvp=_reduction_jvp(_norm_vjp), sympy=_sym_norm,
               shape=_norm_shape, examples=_NORM_EXAMPLES, kinked=True, methods=("norm",), spellings=("vector_norm",),
               params=(ORD, DIM, KEEPDIM, CAST), positional=(("p", "dim", "keepdim"),),  # (dtype= by keyword alone)
               reference="torch.linalg.vector_norm(a)",
               overloads=("matrix_norm",),  # torch.norm(m, 'nuc'): a matrix norm (decompositions.py)
               # torch.linalg.norm(m, 1), np.linalg.norm(m, 1): the matrix norm of a matrix given an ord
               dialects=(Dialect("linalg", row="linalg_norm", names=("norm",)),
                         Dialect("numpy", row="linalg_norm", names=("norm",))),
               dtype_refusals=(("integer cast", "RuntimeError", "linalg.vector_norm: Expected a floating point or "
                                "complex tensor as input. Got {0}"),
                               ("integer dtype", "RuntimeError", "linalg.vector_norm: dtype should be floating point or "
                                "complex, but got {cast}"),
                               ("narrowing cast", "RuntimeError", "linalg.vector_norm: the dtype of the input ({0}) "
                                "should be convertible without narrowing to the specified dtype ({cast})"))),
    structural("logsumexp", 1, _logsumexp, _logsumexp_vjp, "LogsumexpBackward0", jvp=_logsumexp_jvp,
               sympy=_sympy_reduction(lambda terms: load_sympy().log(load_sympy().Add(*map(load_sympy().exp, terms)))),
               shape=_reduced_shape, examples=_OVER_DIMS, methods=("logsumexp",), params=(DIM, KEEPDIM),
               reference="torch.logsumexp(a, dim=0)", dialects=_NEEDS_DIM),
    structural("var", 1, _var, _var_vjp, "VarBackward0", jvp=_reduction_jvp(_var_vjp), sympy=_sym_var(root=False),
               shape=_var_shape, examples=_VAR_EXAMPLES,
               methods=("var",), params=(DIM, UNBIASED, KEEPDIM, CORRECTION), positional=_VAR_ORDERS,
               dialects=_NUMPY_DDOF, dtype_refusals=_FLOATS_ONLY),
    structural("std", 1, _std, _std_vjp, "StdBackward0", jvp=_reduction_jvp(_std_vjp), sympy=_sym_var(root=True),
               shape=_var_shape, examples=_VAR_EXAMPLES,
               methods=("std",), params=(DIM, UNBIASED, KEEPDIM, CORRECTION), positional=_VAR_ORDERS,
               dialects=_NUMPY_DDOF, dtype_refusals=_FLOATS_ONLY),
    structural("softmax", 1, _softmax, _softmax_vjp, "SoftmaxBackward0", jvp=_softmax_jvp, sympy=_sym_softmax(log=False),
               shape=_softmax_shape("softmax"), examples=_SOFTMAX_EXAMPLES, methods=("softmax",), params=(DIM_INT, CAST),
               reference="torch.softmax(a, 0)", dialects=_NEEDS_DIM, dtype_refusals=kernel_refusal("softmax{lastdim}_kernel_impl")),
    structural("log_softmax", 1, _log_softmax, _log_softmax_vjp, "LogSoftmaxBackward0", jvp=_log_softmax_jvp,
               sympy=_sym_softmax(log=True), shape=_softmax_shape("log_softmax"), examples=_SOFTMAX_EXAMPLES,
               methods=("log_softmax",), params=(DIM_INT, CAST), reference="torch.log_softmax(a, 0)", dialects=_NEEDS_DIM, dtype_refusals=kernel_refusal("log_softmax{lastdim}_kernel_impl")),
]


# torch._softmax_backward_data(grad_output, output, dim, input_dtype): softmax's VJP, y (g - sum(g y)), as a row of
# its own (SoftmaxBackwardDataBackward0): linear in g (its VJP in g is softmax's VJP again), and in y
# c (g - sum(g y)) - g sum(c y).
def _softmax_data(g: Array, y: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    axis = _softmax_axis("_softmax_backward_data", dim, max(ranks))
    g, y = _with_axis(g, max(ranks)), _with_axis(y, max(ranks))
    if type(g) is type(y) is np.ndarray and g.dtype == y.dtype == np.float64:  # (SoftmaxBackward0's own kernel)
        out = float64.softmax_backward(g, y, axis)
    else:
        out = y * (g - np.sum(g * y, axis=axis, keepdims=True))
    return np.asarray(out[..., 0] if max(ranks) == 0 else out)


def _softmax_data_vjp(c: Array, ans: Array, g: Array, y: Array, ranks: tuple[int, ...],
                      dim: Any = None) -> tuple[Array, Array]:
    rank = max(ranks)
    axis = _softmax_axis("_softmax_backward_data", dim, rank)
    c, g, y = _with_axis(c, rank), _with_axis(g, rank), _with_axis(y, rank)
    to_g = y * (c - np.sum(c * y, axis=axis, keepdims=True))
    to_y = c * (g - np.sum(g * y, axis=axis, keepdims=True)) - g * np.sum(c * y, axis=axis, keepdims=True)
    return (to_g[..., 0], to_y[..., 0]) if rank == 0 else (to_g, to_y)


def _softmax_data_jvp(tangents: Any, ans: Array, g: Array, y: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    rank = max(ranks)
    axis = _softmax_axis("_softmax_backward_data", dim, rank)
    tg, ty = (np.zeros_like(ans) if t is None else np.broadcast_to(t, np.shape(ans)) for t in tangents)
    g, y, tg, ty = (_with_axis(v, rank) for v in (g, y, tg, ty))
    out = ty * (g - np.sum(g * y, axis=axis, keepdims=True)) + y * (
        tg - np.sum(tg * y + g * ty, axis=axis, keepdims=True))
    return np.asarray(out[..., 0] if rank == 0 else out)


def _softmax_data_shape(g: Shape, y: Shape, dim: Any = None) -> Shape:
    if tuple(g) != tuple(y):
        raise ValueRefusal(f"Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; "
                           f"but {list(g)} does not equal {list(y)} (while checking arguments for softmax_backward)")
    _softmax_axis("_softmax_backward_data", dim, len(g))
    return tuple(g)


ROWS += [
    structural("_softmax_backward_data", 2, _softmax_data, _softmax_data_vjp, "SoftmaxBackwardDataBackward0",
               jvp=_softmax_data_jvp, aligns=True, shape=_softmax_data_shape, params=(Param("dim", "int"), CAST),
               inputs=("grad_output", "output"), domain=((-2.0, 2.0), (0.1, 0.9)),
               text=lambda args, dim=None: f"_softmax_backward_data({args[0]}, {args[1]}, {dim}, torch.float64)",
               examples=((((3,), (3,)), {"dim": 0}), (((2, 3), (2, 3)), {"dim": 1}), (((2, 2), (2, 2)), {"dim": -2})),
               reference="torch._softmax_backward_data(a, b, 0, torch.float64)",
               reference_program="_softmax_backward_data(a, b, 0, torch.float64)",
               dtype_refusals=(*kernel_refusal("softmax_backward{lastdim}_kernel_impl", "integer cast"), ("mixed", "RuntimeError", "expected scalar type {0} but found {1}"))),
]


# var_mean and std_mean (VarMeanBackward0, StdMeanBackward0): the tuple (var or std, mean), var's params.
def _moment_part(part: int, of: Any) -> int:
    if of is not None and of != 2:
        raise ValueError(f"cannot unpack 2 parts into {of} names")
    if not -2 <= part < 2:
        raise ValueError("tuple index out of range: 2 parts")
    return part % 2


def _running_mean(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    """var_mean's mean as PyTorch's Welford pass gives it, where it differs from sum / n: an infinity before
    finite values makes it NaN (inf + (x - inf) / k), and huge values do not overflow (1e308, 1e308, 1 -> 6.7e307)."""
    if type(x) is np.ndarray and x.dtype == np.float64 and x.size:  # (every bit of it: gradcli.ops.float64)
        return _float64_moments(x, ranks[0], point_axes(dim, ranks[0]), keepdim, welford=True)[0]
    mean = _mean(x, ranks, dim=dim, keepdim=keepdim)
    if type(x) is not np.ndarray or x.size == 0 or (np.isfinite(mean).all() and np.isfinite(x).all()):
        return mean
    axes = tuple(sorted(a % x.ndim for a in point_axes(dim, ranks[0])))
    kept = [a for a in range(x.ndim) if a not in axes]
    values = np.transpose(x, (*kept, *axes)).reshape(*(x.shape[a] for a in kept), -1)
    running = np.zeros(values.shape[:-1], dtype=x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        for k in range(values.shape[-1]):
            running = running + (values[..., k] - running) / (k + 1)
    return np.asarray(np.expand_dims(running, axes) if keepdim else running)


def _with_mean(spread: Any, spread_vjp: Any, root: bool) -> tuple[Any, Any, Any, Any, Any]:
    """forward, vjp, jvp, sympy and shape of one part of var_mean (root False) or std_mean (True)."""
    def forward(x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None, **params: Any) -> Array:
        if _moment_part(part, of) == 0:
            return spread(x, ranks, welford=True, **params)
        return _running_mean(x, ranks, dim=params.get("dim"), keepdim=params.get("keepdim", False))

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None,
            **params: Any) -> tuple[Array]:
        if _moment_part(part, of) == 0:
            return spread_vjp(g, ans, x, ranks, **params)
        return _mean_vjp(g, ans, x, ranks, dim=params.get("dim"), keepdim=params.get("keepdim", False))

    jvp = _reduction_jvp(vjp)

    def sympy(x: Array, part: int = 0, of: Any = None, **params: Any) -> Array:
        if _moment_part(part, of) == 0:
            return _sym_var(root)(x, **params)
        mean = _sympy_reduction(lambda terms: load_sympy().Add(*terms) / len(terms))
        return mean(x, params.get("dim"), params.get("keepdim", False))

    def shape(x: tuple[int, ...], part: int = 0, of: Any = None, **params: Any) -> tuple[int, ...]:
        _moment_part(part, of)
        return _var_shape(x, **params)

    return forward, vjp, jvp, sympy, shape


def _moments_text(name: str) -> Any:
    def text(args: Any, part: int = 0, of: Any = None, dim: Any = None, unbiased: Any = None, keepdim: bool = False,
             correction: Any = None) -> str:
        given = [*([f"dim={dim!r}"] if dim is not None else []), *([f"unbiased={unbiased!r}"] if unbiased is not None else []),
                 *(["keepdim=True"] if keepdim else []), *([f"correction={correction!r}"] if correction is not None else [])]
        return f"{name}({', '.join([*args, *given])})[{part}]"

    return text


def _moments_row(name: str, spread: Any, spread_vjp: Any, root: bool) -> Op:
    forward, vjp, jvp, sympy, shape = _with_mean(spread, spread_vjp, root)
    return structural(name, 1, forward, vjp, f"{'Std' if root else 'Var'}MeanBackward0", jvp=jvp, sympy=sympy,
                      shape=shape, parts=2, params=(DIM, UNBIASED, KEEPDIM, CORRECTION), positional=_VAR_ORDERS,
                      text=_moments_text(name), dialects=(Dialect("torch", refuses=("ddof",)),),
                      examples=tuple((shapes, {**cast(dict, params), "part": part}) for shapes, params in _VAR_EXAMPLES
                                     for part in (0, 1)),
                      reference=f"torch.{name}(a)[0] + torch.{name}(a)[1] * 2",
                      reference_program=f"{name}(a)[0] + {name}(a)[1] * 2",
                      dtype_refusals=(("integer", "RuntimeError", f"{name} only support floating point and complex dtypes"),))


ROWS += [_moments_row("var_mean", _var, _var_vjp, root=False), _moments_row("std_mean", _std, _std_vjp, root=True)]


# dist(a, b, p) (DistBackward0): the p-norm of a - b over every element, norm's derivative.
def _dist(a: Array, b: Array, ranks: tuple[int, ...], p: Any = 2.0) -> Array:
    return _norm(a - b, (max(ranks),), p)


def _dist_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], p: Any = 2.0) -> tuple[Array, Array]:
    part = _norm_vjp(g, ans, a - b, (max(ranks),), p)[0]
    return part, -part


def _dist_jvp(tangents: Any, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], p: Any = 2.0) -> Array:
    ta, tb = (np.zeros_like(x) if t is None else t for t, x in zip(tangents, (a, b), strict=True))
    slope = _norm_vjp(np.ones_like(ans), ans, a - b, (max(ranks),), p)[0]
    return np.sum((ta - tb) * slope, axis=tuple(range(-max(ranks), 0)))


ROWS += [structural("dist", 2, _dist, _dist_vjp, "DistBackward0", jvp=_dist_jvp, aligns=True, kinked=True,
                    sympy=lambda a, b, p=2.0: _sym_norm(np.asarray(a - b, dtype=object), p),
                    shape=lambda a, b, p=2.0: (np.broadcast_shapes(a, b), ())[1], params=(Param("p", "float", 2.0),),
                    methods=("dist",), examples=((((4,), (4,)), {}), (((2, 3), (3,)), {"p": 1.0}),
                                                 (((2, 3), (2, 3)), {"p": 3.0}), (((3,), ()), {"p": float("inf")})),
                    reference="torch.dist(a, b)", dtype_refusals=BOOL_SUBTRACTION)]


# trapezoid (trapz) and cumulative_trapezoid, as PyTorch writes them (Integration.cpp): with a spacing dx,
# (y.sum(dim) - (y[0] + y[-1]) * 0.5) * dx and ((y[:-1] + y[1:]) * (dx / 2)).cumsum(dim); with the
# positions x, ((y[:-1] + y[1:]) * (x[1:] - x[:-1])).sum(dim) / 2 and its cumsum, a 1-D x viewed along dim.
def _trapezoid_program(emit: Any, y: Any, dx: float = 1.0, dim: int = -1) -> Any:
    if _none_along(emit, y, dim):  # PyTorch's zeros, of no graph
        return emit("zeros_like", emit("sum", y, dim=dim))
    ends = emit("add", emit("select", y, dim=dim, index=0), emit("select", y, dim=dim, index=-1))
    return emit("mul_scalar", emit("sub", emit("sum", y, dim=dim), emit("mul_scalar", ends, other=0.5)), other=float(dx))


def _pairs(emit: Any, y: Any, dim: int) -> Any:
    return emit("add", emit("sliced", y, dim=dim, stop=-1), emit("sliced", y, dim=dim, start=1))


def _steps(emit: Any, y: Any, x: Any, dim: int) -> Any:
    sx, sy = emit.shape(x), emit.shape(y)
    if sx is not None and sy is not None:
        axis = point_axes(dim, len(sy))[0]
        if len(sx) < len(sy):  # x viewed to broadcast against y
            view = [1] * len(sy)
            if len(sx) == 1:
                view[axis] = sx[0]
            else:
                view[len(sy) - len(sx):] = sx
            x = emit("reshape", x, shape=tuple(view))
    dim = _front_dim(emit, y, dim)
    return emit("sub", emit("sliced", x, dim=dim, start=1), emit("sliced", x, dim=dim, stop=-1))


def _front_dim(emit: Any, y: Any, dim: int) -> int:
    """y's dim counted from the front, as PyTorch wraps it by y's dims: an x of more dims is sliced there, and the
    products of the steps (of x's dims) summed there."""
    shape = emit.shape(y)
    return dim if shape is None else len(shape) + point_axes(dim, len(shape))[0]


def _none_along(emit: Any, y: Any, dim: int) -> bool:
    shape = emit.shape(y)
    return shape is not None and len(shape) > 0 and shape[point_axes(dim, len(shape))[0]] == 0


def _trapezoid_x_program(emit: Any, y: Any, x: Any, dim: int = -1) -> Any:
    if _none_along(emit, y, dim):  # PyTorch's zeros, of no graph
        return emit("zeros_like", emit("sum", y, dim=dim))
    return emit("div_scalar", emit("sum", emit("mul", _pairs(emit, y, dim), _steps(emit, y, x, dim)),
                                   dim=_front_dim(emit, y, dim)), other=2.0)


def _cumulative_program(emit: Any, y: Any, dx: float = 1.0, dim: int = -1) -> Any:
    return emit("cumsum", emit("mul_scalar", _pairs(emit, y, dim), other=float(dx) / 2.0), dim=dim)


def _cumulative_x_program(emit: Any, y: Any, x: Any, dim: int = -1) -> Any:
    return emit("div_scalar", emit("cumsum", emit("mul", _pairs(emit, y, dim), _steps(emit, y, x, dim)),
                                   dim=_front_dim(emit, y, dim)), other=2.0)


def _integral_shape(cumulative: bool) -> Any:
    def shape(y: tuple[int, ...], *x: tuple[int, ...], dx: float = 1.0, dim: int = -1) -> tuple[int, ...]:
        if not y:
            raise ValueError("trapezoid: the values must have at least one dim")
        axis = len(y) + point_axes(dim, len(y))[0]
        # (trapezoid of no samples along dim is PyTorch's zeros before it looks at x; cumulative_trapezoid checks x)
        if x and len(x[0]) == 1 and x[0][0] != y[axis] and (cumulative or y[axis]):
            name = "cumulative_trapezoid" if cumulative else "trapezoid"
            raise ValueError(f"{name}: There must be one `x` value for each sample point")
        return (*y[:axis], max(y[axis] - 1, 0), *y[axis + 1:]) if cumulative else y[:axis] + y[axis + 1:]

    return shape


def _integral_text(name: str) -> Any:
    def text(args: Any, dx: float = 1.0, dim: int = -1) -> str:
        given = [*([f"dx={dx!r}"] if dx != 1.0 else []), *([f"dim={dim}"] if dim != -1 else [])]
        return f"{name}({', '.join([*args, *given])})"

    return text


_DX, _DIM_LAST = Param("dx", "float", 1.0), Param("dim", "int", -1, aliases=("axis",))
ROWS += [
    row
    for name, program, x_program, node, x_node in [
        ("trapezoid", _trapezoid_program, _trapezoid_x_program, "MulBackward1", "DivBackward1"),
        ("cumulative_trapezoid", _cumulative_program, _cumulative_x_program, "CumsumBackward0", "DivBackward1")]
    for row in (
        # (torch's x is positional, dx and dim keywords: a second positional arg is x, the row below)
        composite(name, 1, program, node, params=(_DX, _DIM_LAST), positional=((),), overloads=(f"{name}_x",),
                  shape=_integral_shape(name != "trapezoid"), text=_integral_text(name),
                  spellings=("trapz",) if name == "trapezoid" else (),
                  examples=((((4,),), {}), (((2, 3),), {"dx": 0.5, "dim": 0}), (((3, 2),), {"dim": 0})),
                  dtype_refusals=(("bool input", "RuntimeError",
                                   f"{name}: received a bool input for `y`, but bool is not supported"),)),
        composite(f"{name}_x", 2, x_program, x_node, params=(_DIM_LAST,), positional=((),), callable=False,
                  inputs=("y", "x"),  # (torch.trapezoid(y, x=x))
                  shape=_integral_shape(name != "trapezoid"), text=_integral_text(name),
                  examples=((((4,), (4,)), {}), (((2, 3), (2, 3)), {"dim": 0}), (((2, 3), (3,)), {})),
                  reference=f"torch.{name}(a, b)", reference_program=f"{name}(a, b)",
                  dtype_refusals=(("any bool", "RuntimeError",
                                   f"{name}: received a bool input for `x` or `y`, but bool is not supported"),)))
]
