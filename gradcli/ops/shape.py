"""The rows of the ops that move a value's elements about: reshape, flatten, squeeze, unsqueeze,
transpose, permute, t, expand, repeat, tile, flip, roll, cat, pad, diag, diagonal, trace, tril, triu.

Their rules act on the trailing `ranks[i]` axes of each arg (see core: rules never see a batch);
the leading axes, the points of --points, are carried along untouched. Every op here is linear:
its JVP is its forward on the tangents, and its VJP moves the cotangent back (or sums it where
the forward copied an element). Their params are those of PyTorch's call, under PyTorch's names
with NumPy's as aliases (dim/axis); where the two differ, the row says which it follows.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradcli.ops.construct import MEMORY_FORMATS
from gradcli.ops.core import (
    Array,
    Dialect,
    DimError,
    Op,
    Param,
    Unsupported,
    ValueRefusal,
    broadcast_shape,
    cannot_take,
    composite,
    expand_problem,
    kernel_refusal,
    point_axes,
    structural,
    too_few_sizes,
    unbroadcast,
)

Shape = tuple[int, ...]


def _lead(x: Array, rank: int) -> Shape:
    """The batch axes in front of a value's `rank` per-point axes."""
    return tuple(np.shape(x)[: np.ndim(x) - rank])


def _one_axis(dim: Any, rank: int) -> int:
    if dim is None or isinstance(dim, tuple):
        raise ValueError(f"dim must be a whole number, got {dim!r}")
    return point_axes(dim, rank)[0] if rank else -1


def _sympy(forward: Any) -> Any:
    """The SymPy builder of a row whose forward only moves elements: the forward itself, on
    arrays of expressions (each arg is one point: all of its axes are its own)."""
    return lambda *args, **params: np.asarray(forward(*args, ranks=tuple(np.ndim(a) for a in args), **params),
                                              dtype=object)


def _same_shape_back(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Array]:
    return (np.reshape(g, np.shape(x)),)


# --- reshape, flatten, squeeze, unsqueeze: the same elements, other axes ---------------------


def _reshape_shape(x: Shape, shape: Shape | None = None) -> Shape:
    if shape is None:
        raise ValueError("reshape needs a shape, as in x.reshape(2, 3) or x.reshape(-1)")
    size = math.prod(x)
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise ValueError("only one dimension can be inferred")
    if any(s < -1 for s in shape):
        raise ValueError(f"invalid shape dimension {min(shape)}")
    known = math.prod(s for s in shape if s != -1)
    if unknown and known and size % known == 0:
        return tuple(size // known if s == -1 else s for s in shape)
    if not unknown and known == size:
        return tuple(shape)
    raise ValueError(f"shape '{list(shape)}' is invalid for input of size {size}")


def _reshape(x: Array, ranks: tuple[int, ...], shape: Shape | None = None) -> Array:
    rank = ranks[0]
    return np.reshape(x, _lead(x, rank) + _reshape_shape(np.shape(x)[np.ndim(x) - rank:], shape))


def _flatten_shape(x: Shape, start_dim: int = 0, end_dim: int = -1) -> Shape:
    if not x:
        point_axes(start_dim, 0), point_axes(end_dim, 0)  # (the range check)
        return (1,)
    start, end = (len(x) + point_axes(d, len(x))[0] for d in (start_dim, end_dim))
    if start > end:
        raise ValueError("flatten() has invalid args: start_dim cannot come after end_dim")
    return (*x[:start], math.prod(x[start:end + 1]), *x[end + 1:])


def _flatten(x: Array, ranks: tuple[int, ...], start_dim: int = 0, end_dim: int = -1) -> Array:
    rank = ranks[0]
    return np.reshape(x, _lead(x, rank) + _flatten_shape(np.shape(x)[np.ndim(x) - rank:], start_dim, end_dim))


_FLATTEN_PARAMS = (Param("start_dim", "int", 0), Param("end_dim", "int", -1))


def _flatten_program(emit: Any, x: Any, start_dim: int = 0, end_dim: int = -1) -> Any:
    """torch.flatten: a view (ViewBackward0), a number's too; where start_dim and end_dim are one axis (a vector's
    whole range) the input itself, no node, as PyTorch returns self."""
    shape = emit.shape(x)
    if shape is None or not shape:
        return emit("flatten_whole", x, start_dim=start_dim, end_dim=end_dim)
    _flatten_shape(tuple(shape), start_dim, end_dim)  # (its checks)
    if point_axes(start_dim, len(shape)) == point_axes(end_dim, len(shape)):
        return x
    return emit("flatten_whole", x, start_dim=start_dim, end_dim=end_dim)


def _squeezed_axes(x: Shape, dim: Any) -> tuple[int, ...]:
    """The axes squeeze drops: those of `dim` (every axis: None) whose size is 1, as PyTorch
    leaves an axis named but not of size 1 (NumPy would refuse it)."""
    return tuple(a for a in point_axes(dim, len(x)) if x[a] == 1)


def _squeeze_shape(x: Shape, dim: Any = None) -> Shape:
    dropped = {len(x) + a for a in _squeezed_axes(x, dim)}
    return tuple(s for i, s in enumerate(x) if i not in dropped)


def _squeeze(x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
    rank = ranks[0]
    return np.reshape(x, _lead(x, rank) + _squeeze_shape(np.shape(x)[np.ndim(x) - rank:], dim))


def _squeeze_node(constant: Sequence[bool], shapes: object, dim: Any = None) -> str:
    return f"SqueezeBackward{0 if dim is None else 2 if isinstance(dim, tuple) else 1}"


def _unsqueeze_axis(dim: int | None, rank: int) -> int:
    """Where unsqueeze puts its new axis, counted from the end of the result."""
    if dim is None or isinstance(dim, tuple):
        raise ValueError("unsqueeze needs a dim, as in x.unsqueeze(0)")
    if not -rank - 1 <= dim <= rank:
        raise DimError(f"Dimension out of range (expected to be in range of [{-rank - 1}, {rank}], but got {dim})")
    return dim - rank - 1 if dim >= 0 else dim


def _unsqueeze_shape(x: Shape, dim: int | None = None) -> Shape:
    axis = len(x) + 1 + _unsqueeze_axis(dim, len(x))
    return (*x[:axis], 1, *x[axis:])


def _unsqueeze(x: Array, ranks: tuple[int, ...], dim: int | None = None) -> Array:
    return np.expand_dims(x, _unsqueeze_axis(dim, ranks[0]))


def _unsqueeze_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: int | None = None) -> tuple[Array]:
    # PyTorch's: the gradient squeezed along that dim (under create_graph, SqueezeBackward1)
    return (np.squeeze(g, axis=_unsqueeze_axis(dim, ranks[0])),)


# --- transpose, permute, t: the same elements, axes in another order -------------------------


def _permutation(rank: int, dims: Shape | None) -> tuple[int, ...]:
    """The per-point axes in their new order, negative; None: reversed (`.T`, np.transpose(m))."""
    if dims is None:
        return tuple(range(-1, -rank - 1, -1))
    if len(dims) != rank:
        raise ValueError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
                         f"the desired ordering of dimensions i.e. input.dim() = {rank} is not equal to len(dims) = "
                         f"{len(dims)}")  # (PyTorch 2.13 says "(sparse_coo)" of every tensor)
    return point_axes(tuple(dims), rank) if rank else ()


def _permute(x: Array, ranks: tuple[int, ...], dims: Shape | None = None) -> Array:
    lead = np.ndim(x) - ranks[0]
    return np.transpose(x, tuple(range(lead)) + tuple(np.ndim(x) + a for a in _permutation(ranks[0], dims)))


def _permute_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dims: Shape | None = None) -> tuple[Array]:
    lead = np.ndim(x) - ranks[0]
    order = [lead + ranks[0] + a for a in _permutation(ranks[0], dims)]
    return (np.transpose(g, tuple(range(lead)) + tuple(int(i) for i in np.argsort(order) + lead)),)


def _permute_shape(x: Shape, dims: Shape | None = None) -> Shape:
    return tuple(x[a] for a in _permutation(len(x), dims))


def _swapped(rank: int, dim0: int | None, dim1: int | None) -> tuple[int, int] | None:
    """transpose's two axes, negative; None: both left out, every axis reversed (NumPy's transpose)."""
    if dim0 is None and dim1 is None:
        return None
    if dim0 is None or dim1 is None:
        raise ValueError("transpose takes two dims, as in transpose(m, 0, 1)")
    if not rank:
        point_axes((dim0,), 0), point_axes((dim1,), 0)  # (the range check)
        return (-1, -1)
    return _one_axis(dim0, rank), _one_axis(dim1, rank)


def _transpose(x: Array, ranks: tuple[int, ...], dim0: int | None = None, dim1: int | None = None) -> Array:
    axes = _swapped(ranks[0], dim0, dim1)
    if axes is None:
        return _permute(x, ranks)
    return x if not ranks[0] else np.swapaxes(x, *axes)


def _transpose_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim0: int | None = None,
                   dim1: int | None = None) -> tuple[Array]:
    if _swapped(ranks[0], dim0, dim1) is None:
        return _permute_vjp(g, ans, x, ranks)
    return (_transpose(g, ranks, dim0, dim1),)


def _transpose_shape(x: Shape, dim0: int | None = None, dim1: int | None = None) -> Shape:
    axes = _swapped(len(x), dim0, dim1)
    if axes is None:
        return x[::-1]
    out = list(x)
    if x:
        out[axes[0]], out[axes[1]] = x[axes[1]], x[axes[0]]
    return tuple(out)


def _transpose_node(constant: Sequence[bool], shapes: object, dim0: int | None = None, dim1: int | None = None) -> str:
    return "PermuteBackward0" if dim0 is None and dim1 is None else "TransposeBackward0"


def _t_shape(x: Shape) -> Shape:
    if len(x) > 2:
        raise ValueError(f"t() expects a tensor with <= 2 dimensions, but self is {len(x)}D")
    return x[::-1]


def _t(x: Array, ranks: tuple[int, ...]) -> Array:
    _t_shape(np.shape(x)[np.ndim(x) - ranks[0]:])
    return np.swapaxes(x, -1, -2) if ranks[0] == 2 else x


# --- expand, repeat, tile, flip, roll: elements copied or moved ------------------------------


def _expand_shape(x: Shape, size: Shape | None = None) -> Shape:
    if size is None:
        raise ValueError("expand needs the sizes, as in v.expand(2, 3)")
    if len(size) < len(x):
        raise too_few_sizes(x, size)
    new = len(size) - len(x)
    out = list(size)
    for i in range(len(size) - 1, -1, -1):  # (from the last dim, as PyTorch's infer_expand_geometry)
        if size[i] == -1:
            if i < new:
                raise ValueError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                 f"dimension {i}")
            out[i] = x[i - new]
        elif i >= new and x[i - new] not in (1, size[i]):
            raise ValueError(expand_problem(x, out, size))
    if min(out, default=0) < 0:
        raise ValueError(f"the expanded size {min(out)} is negative")
    return tuple(out)


def _expand(x: Array, ranks: tuple[int, ...], size: Shape | None = None) -> Array:
    rank = ranks[0]
    point = np.shape(x)[np.ndim(x) - rank:]
    out = _expand_shape(point, size)
    lead = _lead(x, rank)
    return np.broadcast_to(np.reshape(x, lead + (1,) * (len(out) - rank) + point), lead + out)


def _expand_as(x: Array, like: Array, ranks: tuple[int, ...]) -> Array:
    # (not aligned: x's own rank is what PyTorch checks, a (1, 3) x does not expand as a (3,) one)
    point = _lead_off(x, ranks[0])
    out = _expand_as_shape(point, _lead_off(like, ranks[1]))
    own = _lead(x, ranks[0])
    return np.broadcast_to(np.reshape(x, own + (1,) * (len(out) - len(point)) + point),
                           (own or _lead(like, ranks[1])) + out)


def _lead_off(x: Array, rank: int) -> Shape:
    """A value's per-point axes, its batch axes left off."""
    return tuple(np.shape(x)[np.ndim(x) - rank:])


def _expand_as_shape(x: Shape, like: Shape) -> Shape:
    if len(x) > len(like):
        raise too_few_sizes(x, like)
    problem = expand_problem(x, like)
    if problem is not None:
        raise ValueError(problem)
    return tuple(like)


def _expand_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], size: Shape | None = None) -> tuple[Array]:
    rank = ranks[0]
    lead = np.ndim(x) - rank
    new = np.ndim(g) - np.ndim(x)
    g = np.sum(g, axis=tuple(range(lead, lead + new))) if new else g
    spread = tuple(i for i in range(lead, np.ndim(x)) if np.shape(x)[i] == 1 and np.shape(g)[i] != 1)
    return (np.sum(g, axis=spread, keepdims=True) if spread else g,)


def _tile_reps(x: Shape, reps: Shape | None, padded: bool) -> Shape:
    if reps is None:
        raise ValueError("repeat needs the number of copies along each dim, as in x.repeat(2, 1)")
    if not padded and len(reps) < len(x):
        raise ValueError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    if any(r < 0 for r in reps):
        raise ValueError(f"Trying to create tensor with negative dimension {min(reps)}")
    return (1,) * (len(x) - len(reps)) + tuple(reps)


def _tile_shape(padded: bool) -> Any:
    def shape(x: Shape, dims: Shape | None = None) -> Shape:
        reps = _tile_reps(x, dims, padded)
        point = (1,) * (len(reps) - len(x)) + x
        return tuple(r * s for r, s in zip(reps, point, strict=True))

    return shape


def _tile(padded: bool) -> Any:
    def forward(x: Array, ranks: tuple[int, ...], dims: Shape | None = None) -> Array:
        rank = ranks[0]
        point = np.shape(x)[np.ndim(x) - rank:]
        reps = _tile_reps(point, dims, padded)
        lead = _lead(x, rank)
        x = np.reshape(x, lead + (1,) * (len(reps) - rank) + point)
        return np.tile(x, (1,) * len(lead) + reps)

    return forward


def _tile_vjp(padded: bool) -> Any:
    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dims: Shape | None = None) -> tuple[Array]:
        rank = ranks[0]
        point = np.shape(x)[np.ndim(x) - rank:]
        reps = _tile_reps(point, dims, padded)
        lead = _lead(x, rank)
        sizes = (1,) * (len(reps) - rank) + point
        # Each output axis is (copy, element): split it so, and add the copies up.
        split = np.reshape(g, lead + tuple(n for pair in zip(reps, sizes, strict=True) for n in pair))
        summed = np.sum(split, axis=tuple(len(lead) + 2 * i for i in range(len(reps))))
        return (np.reshape(summed, np.shape(x)),)

    return vjp


def _flip(x: Array, ranks: tuple[int, ...], dims: Any = None) -> Array:
    axes = point_axes(dims, ranks[0])
    return np.flip(x, axes) if axes else x


def _flip_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dims: Any = None) -> tuple[Array]:
    return (_flip(g, ranks, dims),)


def _shift_axes(rank: int, shifts: Any, dims: Any) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """roll's shifts and axes (None: the value flattened, as PyTorch and NumPy roll it then)."""
    if shifts is None:
        raise ValueError("roll needs shifts, as in x.roll(1) or x.roll(1, 0)")
    shifts = shifts if isinstance(shifts, tuple) else (shifts,)
    if dims is None:
        if len(shifts) != 1:
            raise ValueError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return shifts, None
    axes = dims if isinstance(dims, tuple) else (dims,)
    if len(axes) != len(shifts):
        raise ValueError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(axes)}")
    return shifts, tuple(point_axes(d, rank)[0] if rank else -1 for d in axes)


def _roll(x: Array, ranks: tuple[int, ...], shifts: Any = None, dims: Any = None, back: bool = False) -> Array:
    rank = ranks[0]
    amounts, axes = _shift_axes(rank, shifts, dims)
    amounts = tuple(-s for s in amounts) if back else amounts
    if axes is None:
        lead = _lead(x, rank)
        return np.reshape(np.roll(np.reshape(x, (*lead, -1)), amounts[0], -1), np.shape(x))
    return np.roll(x, amounts, axes) if rank else x


def _roll_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], shifts: Any = None,
              dims: Any = None) -> tuple[Array]:
    return (_roll(g, ranks, shifts, dims, back=True),)


def _roll_shape(x: Shape, shifts: Any = None, dims: Any = None) -> Shape:
    _shift_axes(len(x), shifts, dims)
    return x


# --- cat, pad: values put side by side ---------------------------------------------------


def _skipped(shape: Shape) -> bool:
    # PyTorch's legacy empty tensor (torch.FloatTensor(), torch.empty(0)): cat passes over it whatever the others' dims
    return shape == (0,)


def _cat_axis(shapes: Sequence[Shape], dim: int) -> int:
    for i, shape in enumerate(shapes):  # (PyTorch's first check, before the ranks are compared)
        if not len(shape):
            raise ValueError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    if not shapes:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    kept = [(i, shape) for i, shape in enumerate(shapes) if not _skipped(shape)]
    if not kept:
        return 0  # (only legacy empties: the result is one, whatever the dim)
    first = kept[0][1]
    rank = len(first)
    for _, shape in kept:  # (the first kept tensor's rank, then the first other one, as PyTorch names them)
        if len(shape) != rank:
            raise ValueError(f"Tensors must have same number of dimensions: got {rank} and {len(shape)}")
    axis = point_axes(dim, rank)[0]
    for i, shape in kept:
        for a in range(-rank, 0):
            if a != axis and shape[a] != first[a]:
                raise ValueError(f"Sizes of tensors must match except in dimension {rank + axis}. Expected size "
                                 f"{first[a]} but got size {shape[a]} for tensor number {i} in the list.")
    return axis


def _cat_shape(*shapes: Shape, dim: int = 0) -> Shape:
    axis = _cat_axis(shapes, dim)
    kept = [s for s in shapes if not _skipped(s)] or [shapes[0]]
    out = list(kept[0])
    out[axis] = sum(s[axis] for s in kept)
    return tuple(out)


def _cat(*items: Array, ranks: tuple[int, ...], dim: int = 0) -> Array:
    points = [np.shape(x)[np.ndim(x) - r:] for x, r in zip(items, ranks, strict=True)]
    axis = _cat_axis(points, dim)
    kept = [(x, point) for x, point in zip(items, points, strict=True) if not _skipped(point)]
    if not kept:
        return items[0]
    leads = [_lead(x, len(point)) for x, point in kept]
    lead = max(leads, key=len)  # with points, a constant item is spread over the points' axis
    return np.concatenate([x if shape == lead else np.broadcast_to(x, lead + point)
                           for (x, point), shape in zip(kept, leads, strict=True)], axis=axis)


def _cat_vjp(g: Array, ans: Array, *items: Array, ranks: tuple[int, ...], dim: int = 0) -> tuple[Array, ...]:
    points = [np.shape(x)[np.ndim(x) - r:] for x, r in zip(items, ranks, strict=True)]
    axis = _cat_axis(points, dim)
    parts, start = [], 0
    for x, point in zip(items, points, strict=True):
        if _skipped(point):
            parts.append(np.zeros_like(x, dtype=g.dtype))
            continue
        size = np.shape(x)[axis]
        parts.append(g[(Ellipsis, slice(start, start + size)) + (slice(None),) * (-axis - 1)])
        start += size
    return tuple(parts)


def _pad_cuts(x: Shape, pad: Shape | None) -> tuple[Shape, tuple[Any, ...], tuple[Any, ...]]:
    """The padded shape, and where the kept part of x lands in it (dst) and comes from (src).
    A negative pad cuts, as in PyTorch."""
    if pad is None or len(pad) % 2 or len(pad) > 2 * len(x):
        raise ValueError(f"Padding length must be divisible by 2 and at most twice the number of dimensions of the "
                         f"input ({len(x)}), got {None if pad is None else len(pad)}")
    out, dst, src = list(x), [slice(None)] * len(x), [slice(None)] * len(x)
    for i in range(len(pad) // 2):
        axis = len(x) - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        out[axis] = x[axis] + before + after
        if out[axis] < 0:
            raise ValueError(f"The input size {x[axis]}, plus negative padding {before} and {after} resulted in a "
                             f"negative output size, which is invalid. Check dimension {axis} of your input.")
        dst[axis] = slice(max(before, 0), out[axis] - max(after, 0))
        src[axis] = slice(max(-before, 0), x[axis] - max(-after, 0))
    return tuple(out), (Ellipsis, *dst), (Ellipsis, *src)


def _pad_shape(x: Shape, pad: Shape | None = None, mode: str = "constant", value: float = 0.0) -> Shape:
    return _pad_cuts(x, pad)[0]


def _pad(x: Array, ranks: tuple[int, ...], pad: Shape | None = None, mode: str = "constant",
         value: float = 0.0) -> Array:
    rank = ranks[0]
    out_shape, dst, src = _pad_cuts(np.shape(x)[np.ndim(x) - rank:], pad)
    out = np.zeros_like(x, shape=_lead(x, rank) + out_shape) + value
    out[dst] = x[src]
    return out


def _pad_jvp(tangents: Sequence[Array | None], ans: Array, x: Array, ranks: tuple[int, ...], pad: Shape | None = None,
             mode: str = "constant", value: float = 0.0) -> Array:
    # Affine, not linear: the padding value is a constant, its tangent 0.
    return _pad(np.zeros_like(x) if tangents[0] is None else tangents[0], ranks, pad)


def _pad_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], pad: Shape | None = None,
             mode: str = "constant", value: float = 0.0) -> tuple[Array]:
    _, dst, src = _pad_cuts(np.shape(x)[np.ndim(x) - ranks[0]:], pad)
    cotangent = np.zeros_like(x)
    cotangent[src] = g[dst]
    return (cotangent,)


# --- split, chunk: a tuple of parts (Op.parts) ------------------------------------------------


def _split_sizes(n: int, split_size: Any = None, chunks: int | None = None, dim: int = 0) -> list[int]:
    """The parts' lengths along the split axis (`dim`) of length n: split's size (an int: parts of that
    length, the last shorter; a tuple: those lengths), or chunk's number of parts (of an empty axis, that
    many empty parts, as PyTorch's)."""
    if chunks is not None:
        if chunks <= 0:
            raise ValueError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        if not n:
            return [0] * chunks
        split_size = -(-n // chunks)
    if split_size is None:
        raise ValueError("split needs a size, as in x.split(2) or x.split((1, 3))")
    if isinstance(split_size, tuple):
        if sum(split_size) != n or any(size < 0 for size in split_size):
            raise ValueError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                             f"dimension {dim}), but got split_sizes={list(split_size)}")
        return list(split_size)
    if split_size <= 0 and n:
        raise ValueError(f"split expects split_size be non-negative, but got split_size={split_size}")
    return [min(split_size, n - start) for start in range(0, n, split_size)] if n else [0]


def _part_cut(x: Shape, part: int, of: int | None, dim: int, split_size: Any = None,
              chunks: int | None = None) -> tuple[int, slice]:
    """The axis (negative) and the slice of it that part `part` of the tuple takes."""
    axis = point_axes(dim, len(x))[0] if x else 0
    if not x:
        raise ValueError("split: a number cannot be split (it has no dim)")
    sizes = _split_sizes(x[axis], split_size, chunks, axis % len(x))
    if of is not None and of != len(sizes):
        raise ValueError(f"cannot unpack {len(sizes)} parts into {of} names")
    if not -len(sizes) <= part < len(sizes):
        raise ValueError(f"tuple index out of range: {len(sizes)} parts")
    part %= len(sizes)
    start = sum(sizes[:part])
    return axis, slice(start, start + sizes[part])


def _part_key(axis: int, cut: slice) -> tuple[Any, ...]:
    return (Ellipsis, cut) + (slice(None),) * (-axis - 1)


def _parted(chunked: bool) -> tuple[Any, Any, Any]:
    """forward, vjp and shape of split (chunked False) or chunk (True): one part of the tuple."""
    def cut(x: Array, rank: int, part: int, of: int | None, size: Any, dim: int) -> tuple[int, slice]:
        point = np.shape(x)[np.ndim(x) - rank:]
        return _part_cut(point, part, of, dim, None if chunked else size, size if chunked else None)

    def forward(x: Array, ranks: tuple[int, ...], size: Any = None, dim: int = 0, part: int = 0,
                of: int | None = None) -> Array:
        return x[_part_key(*cut(x, ranks[0], part, of, size, dim))]

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], size: Any = None, dim: int = 0, part: int = 0,
            of: int | None = None) -> tuple[Array]:
        cotangent = np.zeros_like(x)
        cotangent[_part_key(*cut(x, ranks[0], part, of, size, dim))] = g
        return (cotangent,)

    def shape(x: Shape, size: Any = None, dim: int = 0, part: int = 0, of: int | None = None) -> Shape:
        axis, piece = _part_cut(x, part, of, dim, None if chunked else size, size if chunked else None)
        out = list(x)
        out[axis] = piece.stop - piece.start
        return tuple(out)

    return forward, vjp, shape


def _part_text(name: str, size_name: str) -> Any:
    def text(args: Sequence[str], dim: int = 0, part: int = 0, of: int | None = None, **params: Any) -> str:
        given = [repr(params[size_name])] + ([f"dim={dim}"] if dim else [])
        return f"{args[0]}.{name}({', '.join(given)})[{part}]"

    return text


def _split_node(constant: Sequence[bool], shapes: object, size: Any = None, **params: Any) -> str:
    return "SplitWithSizesBackward0" if isinstance(size, tuple) else "SplitBackward0"


def _chunk_node(unsafe: bool) -> Callable[..., str]:
    # PyTorch's chunk of a dim of size 0 is split_with_sizes (its chunks of size 0 kept), else split
    prefix = "Unsafe" if unsafe else ""

    def node(constant: Sequence[bool], shapes: Sequence[Shape] | None, dim: int = 0, **params: Any) -> str:
        if shapes and shapes[0] and -len(shapes[0]) <= dim < len(shapes[0]) and shapes[0][dim] == 0:
            return f"{prefix}SplitWithSizesBackward0"
        return f"{prefix}SplitBackward0"

    return node


# --- diag, diagonal, trace, tril, triu: matrices and their diagonals ---------------------------


def _diagonal_cells(rows: int, cols: int, offset: int) -> tuple[Array, Array]:
    """The (row, column) of each element of the `offset` diagonal of a rows x cols matrix."""
    length = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    index = np.arange(length)
    return index + max(-offset, 0), index + max(offset, 0)


def _diag_shape(x: Shape, diagonal: int = 0) -> Shape:
    if len(x) == 1:
        n = x[0] + abs(diagonal)
        return (n, n)
    if len(x) == 2:
        return (len(_diagonal_cells(x[0], x[1], diagonal)[0]),)
    raise ValueError(f"diag(): Supports 1D or 2D tensors. Got {len(x)}D")


def _diag(x: Array, ranks: tuple[int, ...], diagonal: int = 0) -> Array:
    rank = ranks[0]
    shape = _diag_shape(np.shape(x)[np.ndim(x) - rank:], diagonal)
    if rank == 2:
        rows, cols = _diagonal_cells(np.shape(x)[-2], np.shape(x)[-1], diagonal)
        return x[..., rows, cols]
    rows, cols = _diagonal_cells(shape[0], shape[1], diagonal)
    out = np.zeros_like(x, shape=_lead(x, rank) + shape)
    out[..., rows, cols] = x
    return out


def _diag_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], diagonal: int = 0) -> tuple[Array]:
    if ranks[0] == 2:  # a matrix's diagonal: back onto the diagonal, zeros elsewhere
        rows, cols = _diagonal_cells(np.shape(x)[-2], np.shape(x)[-1], diagonal)
        cotangent = np.zeros_like(x)
        cotangent[..., rows, cols] = g
        return (cotangent,)
    rows, cols = _diagonal_cells(np.shape(g)[-2], np.shape(g)[-1], diagonal)
    return (g[..., rows, cols],)


def _diag_node(constant: Sequence[bool], shapes: Sequence[Shape] | None, diagonal: int = 0) -> str:
    return "DiagonalBackward0_copy" if shapes is not None and len(shapes[0]) == 2 else "DiagEmbedBackward0"


def _diagonal_axes(rank: int, dim1: int, dim2: int) -> tuple[int, int]:
    # PyTorch's: each dim wrapped (its IndexError: a vector has no dim 1; a 0-d tensor wraps as a vector), then the
    # two must differ
    a, b = point_axes(dim1, max(rank, 1))[0], point_axes(dim2, max(rank, 1))[0]
    if a == b:
        raise ValueError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return a, b


def _diagonal_shape(x: Shape, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Shape:
    a, b = _diagonal_axes(len(x), dim1, dim2)
    length = len(_diagonal_cells(x[a], x[b], offset)[0])
    return (*tuple(s for i, s in enumerate(x) if i - len(x) not in (a, b)), length)


def _diagonal(x: Array, ranks: tuple[int, ...], offset: int = 0, dim1: int = 0, dim2: int = 1) -> Array:
    a, b = _diagonal_axes(ranks[0], dim1, dim2)
    if type(x) is np.ndarray:  # NumPy's view (read-only), so that `gradcli run` writes through it (x.diagonal().zero_())
        return np.diagonal(x, offset, a, b)
    rows, cols = _diagonal_cells(np.shape(x)[a], np.shape(x)[b], offset)
    return np.moveaxis(x, (a, b), (-2, -1))[..., rows, cols]


def _diagonal_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], offset: int = 0, dim1: int = 0,
                  dim2: int = 1) -> tuple[Array]:
    a, b = _diagonal_axes(ranks[0], dim1, dim2)
    rows, cols = _diagonal_cells(np.shape(x)[a], np.shape(x)[b], offset)
    moved = np.shape(np.moveaxis(np.empty(np.shape(x), dtype=bool), (a, b), (-2, -1)))
    cotangent = np.zeros_like(g, shape=moved)
    cotangent[..., rows, cols] = g
    return (np.moveaxis(cotangent, (-2, -1), (a, b)),)


def _matrix(name: str, rank: int) -> None:
    if rank != 2:
        raise ValueError(f"{name}: expected a matrix, but got tensor with dim {rank}")


def _trace_shape(x: Shape) -> Shape:
    _matrix("trace", len(x))
    return ()


def _trace(x: Array, ranks: tuple[int, ...]) -> Array:
    _matrix("trace", ranks[0])
    rows, cols = _diagonal_cells(np.shape(x)[-2], np.shape(x)[-1], 0)
    return np.sum(x[..., rows, cols], axis=-1)


def _trace_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    # g onto the diagonal, zeros elsewhere (never g * eye: a NaN g stays off the rest, as in PyTorch)
    rows, cols = _diagonal_cells(np.shape(x)[-2], np.shape(x)[-1], 0)
    cotangent = np.zeros_like(x)
    cotangent[..., rows, cols] = np.reshape(g, (*np.shape(g), 1))
    return (cotangent,)


def _triangle_shape(name: str) -> Any:
    def shape(x: Shape, diagonal: int = 0) -> Shape:
        if len(x) < 2:
            raise ValueError(f"{name}: input tensor must have at least 2 dimensions")
        return x

    return shape


def _triangle(keep_lower: bool) -> Any:
    def forward(x: Array, ranks: tuple[int, ...], diagonal: int = 0) -> Array:
        name = "tril" if keep_lower else "triu"
        _triangle_shape(name)(np.shape(x)[np.ndim(x) - ranks[0]:])
        rows, cols = np.shape(x)[-2:]
        below = np.arange(cols)[None, :] - np.arange(rows)[:, None] <= diagonal  # PyTorch's and NumPy's rule
        return np.where(below if keep_lower else ~np.tri(rows, cols, diagonal - 1, dtype=bool), x, 0.0)

    return forward


def _triangle_vjp(keep_lower: bool) -> Any:
    forward = _triangle(keep_lower)
    return lambda g, ans, x, ranks, diagonal=0: (forward(g, (2,), diagonal),)


# --- clone, narrow, select, view_as, movedim, unflatten: copies, cuts and views ----------------


def _clone(x: Array, ranks: tuple[int, ...]) -> Array:
    return np.copy(x)


def _narrow_cut(x: Shape, dim: int | None, start: int | None, length: int | None) -> tuple[int, slice]:
    """narrow's axis (negative) and the slice of it, in PyTorch's words where they do not fit."""
    if dim is None or start is None or length is None:
        raise ValueError("narrow takes dim, start and length, as in x.narrow(0, 1, 2)")
    if not x:
        raise ValueError("narrow() cannot be applied to a 0-dim tensor.")
    axis = _one_axis(dim, len(x))
    size = x[axis]
    if not -size <= start <= size:
        raise DimError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if length < 0:
        raise ValueError("narrow(): length must be non-negative.")
    if start + length > size:
        raise ValueError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return axis, slice(start, start + length)


def _narrow_shape(x: Shape, dim: int | None = None, start: int | None = None, length: int | None = None) -> Shape:
    axis, cut = _narrow_cut(x, dim, start, length)
    out = list(x)
    out[axis] = cut.stop - cut.start
    return tuple(out)


def _narrow(x: Array, ranks: tuple[int, ...], dim: int | None = None, start: int | None = None,
            length: int | None = None) -> Array:
    return x[_part_key(*_narrow_cut(np.shape(x)[np.ndim(x) - ranks[0]:], dim, start, length))]


def _narrow_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: int | None = None,
                start: int | None = None, length: int | None = None) -> tuple[Array]:
    cotangent = np.zeros_like(x)
    cotangent[_part_key(*_narrow_cut(np.shape(x)[np.ndim(x) - ranks[0]:], dim, start, length))] = g
    return (cotangent,)


def _select_at(x: Shape, dim: int | None, index: int | None) -> tuple[Any, ...]:
    """select's key: the index along dim (negative axis), the axes after it whole."""
    if dim is None or index is None:
        raise ValueError("select takes dim and index, as in x.select(0, 1)")
    if not x:
        raise DimError("select() cannot be applied to a 0-dim tensor.")  # (its IndexError)
    axis = _one_axis(dim, len(x))
    if not -x[axis] <= index < x[axis]:
        raise DimError(f"select(): index {index} out of range for tensor of size {list(x)} at dimension "
                       f"{len(x) + axis}")  # (PyTorch's IndexError)
    return (Ellipsis, index % x[axis]) + (slice(None),) * (-axis - 1)


def _select_shape(x: Shape, dim: int | None = None, index: int | None = None) -> Shape:
    axis = len(x) + _one_axis(dim, len(x)) if x and dim is not None else 0
    _select_at(x, dim, index)
    return x[:axis] + x[axis + 1:]


def _select(x: Array, ranks: tuple[int, ...], dim: int | None = None, index: int | None = None) -> Array:
    return np.asarray(x[_select_at(np.shape(x)[np.ndim(x) - ranks[0]:], dim, index)])


def _select_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: int | None = None,
                index: int | None = None) -> tuple[Array]:
    cotangent = np.zeros_like(x)
    cotangent[_select_at(np.shape(x)[np.ndim(x) - ranks[0]:], dim, index)] = g
    return (cotangent,)


def _view_as(x: Array, like: Array, ranks: tuple[int, ...]) -> Array:
    rank, like_rank = ranks
    return np.reshape(x, _lead(x, rank) + np.shape(like)[np.ndim(like) - like_rank:])


def _view_as_shape(x: Shape, like: Shape) -> Shape:
    return _reshape_shape(x, tuple(like))


def _moved_order(rank: int, source: Any, destination: Any) -> tuple[int, ...]:
    """movedim's permutation of the per-point axes (permute's dims)."""
    if source is None or destination is None:
        raise ValueError("movedim takes source and destination, as in torch.movedim(x, 0, 1)")
    src = source if isinstance(source, tuple) else (source,)
    dst = destination if isinstance(destination, tuple) else (destination,)
    if len(src) != len(dst):
        raise ValueError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should contain the "
                         f"same number of dims as destination ({list(dst)} dims)")
    for name, dims in (("source", src), ("destination", dst)):
        if len(set(point_axes(d, rank) for d in dims)) != len(dims):
            raise ValueError(f"movedim: repeated dim in `{name}` ({list(dims)})")
    if not rank:
        return ()
    sources = [rank + point_axes(d, rank)[0] for d in src]
    order = [axis for axis in range(rank) if axis not in sources]
    for target, axis in sorted(zip((rank + point_axes(d, rank)[0] for d in dst), sources, strict=True)):
        order.insert(target, axis)
    return tuple(order)


def _movedim(x: Array, ranks: tuple[int, ...], source: Any = None, destination: Any = None) -> Array:
    return _permute(x, ranks, _moved_order(ranks[0], source, destination))


def _movedim_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], source: Any = None,
                 destination: Any = None) -> tuple[Array]:
    return _permute_vjp(g, ans, x, ranks, _moved_order(ranks[0], source, destination))


def _movedim_shape(x: Shape, source: Any = None, destination: Any = None) -> Shape:
    return _permute_shape(x, _moved_order(len(x), source, destination))


def _unflatten_shape(x: Shape, dim: int | None = None, sizes: Shape | None = None) -> Shape:
    if dim is None or sizes is None:
        raise ValueError("unflatten takes dim and sizes, as in x.unflatten(0, (2, 3))")
    if not x:
        raise ValueError("Dimension specified as 0 but tensor has no dimensions")
    axis = len(x) + _one_axis(dim, len(x))
    try:
        middle = _reshape_shape((x[axis],), sizes)
    except ValueError:
        raise ValueError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                         f"({x[axis]}) in the input tensor") from None
    return (*x[:axis], *middle, *x[axis + 1:])


def _unflatten(x: Array, ranks: tuple[int, ...], dim: int | None = None, sizes: Shape | None = None) -> Array:
    rank = ranks[0]
    return np.reshape(x, _lead(x, rank) + _unflatten_shape(np.shape(x)[np.ndim(x) - rank:], dim, sizes))


# --- rot90, diag_embed, repeat_interleave --------------------------------------------------------


def _rot90_axes(rank: int, k: int, dims: Any) -> tuple[int, int]:
    dims = dims if isinstance(dims, tuple) else (dims,)
    if len(dims) != 2:
        raise ValueError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if rank < 2:
        raise ValueError(f"expected total dims >= 2, but got total dims = {rank}")
    a, b = point_axes(dims[0], rank)[0], point_axes(dims[1], rank)[0]
    if a == b:
        raise ValueError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
    return a, b


def _rotated(x: Array, k: int, a: int, b: int) -> Array:
    # np.rot90's steps, in flips and a swap (which dual numbers, the Hessian's, go through too)
    k %= 4
    if k == 0:
        return x
    if k == 2:
        return np.flip(np.flip(x, a), b)
    return np.swapaxes(np.flip(x, b), a, b) if k == 1 else np.flip(np.swapaxes(x, a, b), b)


def _rot90(x: Array, ranks: tuple[int, ...], k: int = 1, dims: Any = (0, 1)) -> Array:
    return _rotated(x, k, *_rot90_axes(ranks[0], k, dims))


def _rot90_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], k: int = 1, dims: Any = (0, 1)) -> tuple[Array]:
    return (_rotated(g, -k, *_rot90_axes(ranks[0], k, dims)),)


def _rot90_shape(x: Shape, k: int = 1, dims: Any = (0, 1)) -> Shape:
    a, b = _rot90_axes(len(x), k, dims)
    out = list(x)
    if k % 2:
        out[a], out[b] = x[b], x[a]
    return tuple(out)


def _diag_embed_axes(rank: int, dim1: int, dim2: int) -> tuple[int, int]:
    """The result's two axes (negative) that hold the diagonal: the result has one axis more."""
    a, b = point_axes(dim1, rank + 1)[0], point_axes(dim2, rank + 1)[0]
    if a == b:
        raise ValueError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return a, b


def _diag_embed_shape(x: Shape, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Shape:
    a, b = _diag_embed_axes(len(x), dim1, dim2)
    n = (x[-1] if x else 1) + abs(offset)
    out = list(x[:-1])
    for axis in sorted((len(x) + 1 + a, len(x) + 1 + b)):
        out.insert(axis, n)
    return tuple(out)


def _diag_embed(x: Array, ranks: tuple[int, ...], offset: int = 0, dim1: int = -2, dim2: int = -1) -> Array:
    a, b = _diag_embed_axes(ranks[0], dim1, dim2)
    y = x[..., None] if ranks[0] == 0 else x  # (a 0-d value is a vector of one, as PyTorch's error allows)
    n = np.shape(y)[-1] + abs(offset)
    rows, cols = _diagonal_cells(n, n, offset)
    out = np.zeros_like(y, shape=(*np.shape(y)[:-1], n, n))
    out[..., rows, cols] = y
    return np.moveaxis(out, (-2, -1), (a, b))


def _diag_embed_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], offset: int = 0, dim1: int = -2,
                    dim2: int = -1) -> tuple[Array]:
    a, b = _diag_embed_axes(ranks[0], dim1, dim2)
    moved = np.moveaxis(g, (a, b), (-2, -1))
    rows, cols = _diagonal_cells(np.shape(moved)[-1], np.shape(moved)[-1], offset)
    return (np.reshape(moved[..., rows, cols], np.shape(x)),)


def _interleave_axis(rank: int, repeats: int | None, dim: int | None) -> int | None:
    if repeats is None:  # (torch.repeat_interleave(r): the indices that r's counts repeat, of integers; of floats
        # PyTorch's NotImplementedError: Op.dtype_refusals)
        raise Unsupported("repeat_interleave without repeats (the indices an integer tensor of counts repeats)")
    if repeats < 0:
        raise ValueError("Repeats must be non-negative")
    return None if dim is None else _one_axis(dim, rank) if rank else -1


def _repeat_interleave(x: Array, ranks: tuple[int, ...], repeats: int | None = None, dim: int | None = None,
                       output_size: int | None = None) -> Array:
    rank = ranks[0]
    axis = _interleave_axis(rank, repeats, dim)
    if axis is None or not rank:  # flattened first, as PyTorch does without a dim
        x, axis = np.reshape(x, (*_lead(x, rank), -1)), -1
    return np.repeat(x, int(repeats or 0), axis=axis)


def _repeat_interleave_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], repeats: int | None = None,
                           dim: int | None = None) -> tuple[Array]:
    axis = _interleave_axis(ranks[0], repeats, dim)
    if not repeats:
        return (np.zeros_like(x),)
    at = np.ndim(g) + (-1 if axis is None or not ranks[0] else axis)
    # Each output element along the axis is (element, copy): split it so, and add the copies up.
    split = np.reshape(g, (*np.shape(g)[:at], -1, repeats, *np.shape(g)[at + 1:]))
    return (np.reshape(np.sum(split, axis=at + 1), np.shape(x)),)


def _repeat_interleave_shape(x: Shape, repeats: int | None = None, dim: int | None = None,
                             output_size: int | None = None) -> Shape:
    axis = _interleave_axis(len(x), repeats, dim)
    assert repeats is not None
    out = [math.prod(x)] if axis is None or not x else list(x)
    at = -1 if axis is None or not x else axis
    out[at] *= repeats
    if output_size is not None and output_size != out[at]:  # (the length PyTorch's caller says it will be)
        raise ValueRefusal(f"repeat_interleave: Invalid output_size, expected {out[at]} but got {output_size}")
    return tuple(out)


# --- hstack, vstack, dstack, column_stack: cat of values given enough axes -------------------------

# Each: (the rank each item is brought to, the dim of the cat, where a vector's axis goes).
_STACKS = {"hstack": 1, "vstack": 2, "dstack": 3, "column_stack": 2}


def _stacked_point(name: str, x: Shape) -> Shape:
    """An item's point shape as the stack sees it (atleast_Nd; column_stack: a vector is a column)."""
    if name == "column_stack":
        return x if len(x) >= 2 else (math.prod(x), 1)
    if name == "hstack":
        return x if x else (1,)
    if name == "vstack":
        return x if len(x) >= 2 else (1, *x) if x else (1, 1)
    return x if len(x) >= 3 else (1, *x, 1) if len(x) == 1 else (*x, 1) if x else (1, 1, 1)


def _stack_dim(name: str, points: Sequence[Shape]) -> int:
    if not points:
        raise ValueError(f"{name} expects a non-empty TensorList")
    if name == "hstack":
        return 0 if len(points[0]) == 1 else 1
    return {"vstack": 0, "dstack": 2, "column_stack": 1}[name]


def _stacks(name: str) -> tuple[Any, Any, Any]:
    def points(items: Sequence[Array], ranks: tuple[int, ...]) -> list[Shape]:
        return [_stacked_point(name, np.shape(x)[np.ndim(x) - r:]) for x, r in zip(items, ranks, strict=True)]

    def lifted(items: Sequence[Array], ranks: tuple[int, ...]) -> tuple[list[Array], tuple[int, ...], int]:
        shapes = points(items, ranks)
        return ([np.reshape(x, _lead(x, r) + p) for x, r, p in zip(items, ranks, shapes, strict=True)],
                tuple(len(p) for p in shapes), _stack_dim(name, shapes))

    def forward(*items: Array, ranks: tuple[int, ...]) -> Array:
        lifted_items, lifted_ranks, dim = lifted(items, ranks)
        return _cat(*lifted_items, ranks=lifted_ranks, dim=dim)

    def vjp(g: Array, ans: Array, *items: Array, ranks: tuple[int, ...]) -> tuple[Array, ...]:
        lifted_items, lifted_ranks, dim = lifted(items, ranks)
        parts = _cat_vjp(g, ans, *lifted_items, ranks=lifted_ranks, dim=dim)
        # (a part has g's batch axes, which a constant item has not: call_vjp sums them away)
        return tuple(np.reshape(part, np.shape(part)[: np.ndim(part) - lr] + np.shape(x)[np.ndim(x) - r:])
                     for part, x, r, lr in zip(parts, items, ranks, lifted_ranks, strict=True))

    def shape(*shapes: Shape) -> Shape:
        lifted_shapes = [_stacked_point(name, s) for s in shapes]
        return _cat_shape(*lifted_shapes, dim=_stack_dim(name, lifted_shapes))

    return forward, vjp, shape


def _stack_program(name: str) -> Any:
    # PyTorch's stacks: each item through atleast_Nd (column_stack: a number or a vector viewed as a
    # column), then one cat; over --points, where the shapes are not known, the one-node row.
    def program(emit: Any, *items: Any) -> Any:
        shapes = [emit.shape(x) for x in items]
        if any(shape is None for shape in shapes):
            return emit(f"{name}_whole", *items)
        lifted_shapes = [_stacked_point(name, shape) for shape in shapes]
        dim = _stack_dim(name, lifted_shapes)
        if name == "column_stack":
            lifted = [x if len(shape) >= 2 else emit("reshape", x, shape=lifted)
                      for x, shape, lifted in zip(items, shapes, lifted_shapes, strict=True)]
        else:
            lift = _atleast_program(_STACKS[name])
            lifted = [lift(emit, x) for x in items]
        return emit("cat", *lifted, dim=dim)

    return program


def _interleave_program(emit: Any, x: Any, repeats: int | None = None, dim: int | None = None,
                        output_size: int | None = None) -> Any:
    # PyTorch's repeat_interleave of an int: (flattened without a dim) unsqueezed after the axis,
    # expanded to the repeats, made contiguous (a clone) and viewed back: View over Clone over Expand
    # over Unsqueeze; over --points, the one-node row.
    shape = emit.shape(x)
    if shape is None:
        return emit("repeat_interleave_whole", x, repeats=repeats, dim=dim)
    out = _repeat_interleave_shape(shape, repeats, dim, output_size)
    axis = _interleave_axis(len(shape), repeats, dim)
    if axis is None or not shape:
        if len(shape) != 1:
            x = emit("reshape", x, shape=(-1,))
        shape, axis = (math.prod(shape),), 0
    axis %= len(shape)  # (counted from the end: from the front here)
    sizes = (*shape[:axis + 1], int(repeats or 0), *shape[axis + 1:])
    spread = emit("expand", emit("unsqueeze", x, dim=axis + 1), size=sizes)
    return emit("reshape", emit("clone", spread), shape=out)


def _list_text(name: str) -> Any:
    return lambda args: f"{name}([{', '.join(args)}])"


def _sliced_key(x: Shape, dim: int, start: int | None, stop: int | None) -> tuple[Any, ...]:
    if not x:
        raise ValueError("diff expects input to be at least one-dimensional")
    return _part_key(_one_axis(dim, len(x)), slice(start, stop))


def _sliced(x: Array, ranks: tuple[int, ...], dim: int = 0, start: int | None = None, stop: int | None = None) -> Array:
    return x[_sliced_key(np.shape(x)[np.ndim(x) - ranks[0]:], dim, start, stop)]


def _sliced_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: int = 0, start: int | None = None,
                stop: int | None = None) -> tuple[Array]:
    cotangent = np.zeros_like(x)
    cotangent[_sliced_key(np.shape(x)[np.ndim(x) - ranks[0]:], dim, start, stop)] = g
    return (cotangent,)


def _sliced_shape(x: Shape, dim: int = 0, start: int | None = None, stop: int | None = None) -> Shape:
    axis = _one_axis(dim, len(x)) if x else 0
    _sliced_key(x, dim, start, stop)
    out = list(x)
    out[axis] = len(range(x[axis])[start:stop])
    return tuple(out)


def _diff_program(emit: Any, x: Any, n: int = 1, dim: int = -1) -> Any:
    # PyTorch's diff: x.narrow(dim, 1, len - 1) - x.narrow(dim, 0, len - 1) (two SliceBackward0
    # under SubBackward0), n times over; n = 0 a copy of x (CopyBackwards, into a new tensor).
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:
        return emit("copied", 0.0, x)
    shape = emit.shape(x)
    if shape and -len(shape) <= dim < len(shape):  # PyTorch takes at most as many differences as the dim has
        n = min(n, shape[dim])  # elements: none of a dim of none, where diff is x itself (no node)
    difference = "ne" if emit.dtype(x) == "bool" else "sub"  # (of booleans, PyTorch's diff is their xor)
    for _ in range(n):
        x = emit(difference, emit("sliced", x, dim=dim, start=1), emit("sliced", x, dim=dim, stop=-1))
    return x


def _copied(into: Array, x: Array, ranks: tuple[int, ...]) -> Array:
    """x copied into a new tensor (`into` stands for it: its points, not its values)."""
    points = np.shape(into)[:np.ndim(into) - ranks[0]]
    return np.array(np.broadcast_to(x, (*points, *np.shape(x))) if points and np.ndim(x) == ranks[1] else x, copy=True)


def _padded_diff_program(emit: Any, x: Any, before: Any, after: Any, n: int = 1, dim: int = -1) -> Any:
    # diff(x, n, dim, prepend, append): of the three together (CatBackward0), where one is given
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    ends = [end for end in (before, after) if emit.given(end)]
    if any(emit.shape(end) == () for end in ends):  # (its shape rule cannot tell it from one left out)
        raise ValueError("diff expects prepend or append to be the same dimension as input")
    if n and ends:
        x = emit("cat", *([before] if emit.given(before) else []), x, *([after] if emit.given(after) else []), dim=dim)
    return _diff_program(emit, x, n=n, dim=dim)


def _diff_shape(x: Shape, n: int = 1, dim: int = -1) -> Shape:
    if not x:
        raise ValueError("diff expects input to be at least one-dimensional")
    axis = _one_axis(dim, len(x))
    out = list(x)
    out[axis] = max(x[axis] - n, 0) if n else x[axis]
    return tuple(out)


def _padded_diff_shape(x: Shape, before: Shape, after: Shape, n: int = 1, dim: int = -1) -> Shape:
    # (a left-out end is a number: it adds nothing; a given one has the input's dims)
    if not x:
        raise ValueError("diff expects input to be at least one-dimensional")
    axis = _one_axis(dim, len(x)) % len(x)
    whole = list(x)
    for end in (before, after):
        if not end:
            continue  # (left out)
        if len(end) != len(x):
            raise ValueError("diff expects prepend or append to be the same dimension as input")
        for i, (size, other) in enumerate(zip(x, end, strict=True)):
            if i != axis and size != other:
                raise ValueError("diff expects the shape of tensor to prepend or append to match that of input "
                                 f"except along the differencing dimension; input.size({i}) = {size}, but got "
                                 f"tensor.size({i}) = {other}")
        whole[axis] += end[axis] if n else 0
    return _diff_shape(tuple(whole), n, dim)


_DIFF_PARAMS = (Param("n", "int", 1), Param("dim", "int", -1, aliases=("axis",)))


# --- sum_to_size, broadcast_tensors: the sums and expansions of broadcasting, as calls -------------


def _sum_to_size_shape(x: Shape, size: tuple[int, ...] = ()) -> Shape:
    size = tuple(size)
    lead = len(x) - len(size)
    if lead < 0 or any(want not in (have, 1) for have, want in zip(x[lead:], size, strict=True)):
        raise ValueError(f"size {{{list(size)}}} is not expandable to size {{{list(x)}}}.")
    return size


def _sum_to_size_program(emit: Any, x: Any, size: tuple[int, ...] = ()) -> Any:
    # PyTorch's sum_to: () is the sum (SumBackward0); else a sum over the leading dims and those
    # the size keeps as 1 (SumBackward1, keepdim), viewed without the leading ones (ViewBackward0);
    # a size that is x's own is x itself
    sx = emit.shape(x)
    if sx is None:
        return emit("sum_to_size_whole", x, size=size)
    size = _sum_to_size_shape(sx, tuple(size))
    if not size:
        return emit("sum", x)
    lead = len(sx) - len(size)
    dims = (*range(lead), *(lead + i for i, (have, want) in enumerate(zip(sx[lead:], size, strict=True))
                           if want == 1 and have != 1))
    if dims:
        x = emit("sum", x, dim=dims, keepdim=True)
    return emit("reshape", x, shape=size) if lead else x


def _broadcast_parts_shape(*shapes: Shape, part: int = 0, of: int | None = None) -> Shape:
    if of is not None and of != len(shapes):
        raise ValueError(f"cannot unpack {len(shapes)} tensors into {of} names")
    if not -len(shapes) <= part < len(shapes):
        raise ValueError(f"tuple index out of range: {len(shapes)} tensors")
    return broadcast_shape(shapes) if shapes else ()  # (PyTorch's infer_size, from the first on: its words)


def _sum_to_size_whole(x: Array, ranks: tuple[int, ...], size: tuple[int, ...] = ()) -> Array:
    lead = np.ndim(x) - ranks[0]
    point = np.shape(x)[lead:]
    size = _sum_to_size_shape(point, tuple(size))
    extra = len(point) - len(size)
    dims = (*range(lead, lead + extra), *(lead + extra + i for i, (have, want) in enumerate(zip(point[extra:], size, strict=True))
                                          if want == 1 and have != 1))
    return np.asarray(np.sum(x, axis=dims, keepdims=True)).reshape(np.shape(x)[:lead] + size)


def _sum_to_size_whole_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], size: tuple[int, ...] = ()
                           ) -> tuple[Array]:
    lead = np.ndim(x) - ranks[0]
    lifted = np.reshape(g, np.shape(g)[:lead] + (1,) * (ranks[0] - len(tuple(size))) + np.shape(g)[lead:])
    return (np.broadcast_to(lifted, np.shape(x)) * np.ones_like(x),)


def _lifted_parts(args: Sequence[Array], ranks: tuple[int, ...]) -> list[Array]:
    """Each arg with 1s before its point's axes, up to the widest point's rank: batch axes stay first."""
    widest = max(ranks, default=0)
    return [np.reshape(a, np.shape(a)[:np.ndim(a) - r] + (1,) * (widest - r) + np.shape(a)[np.ndim(a) - r:])
            for a, r in zip(args, ranks, strict=True)]


def _broadcast_tensors_whole(*args: Any, ranks: tuple[int, ...], part: int = 0, of: int | None = None) -> Array:
    _broadcast_parts_shape(*(np.shape(a)[np.ndim(a) - r:] for a, r in zip(args, ranks, strict=True)), part=part, of=of)
    return np.array(np.broadcast_arrays(*_lifted_parts(args, ranks))[part])


def _broadcast_tensors_whole_vjp(g: Array, ans: Array, *args: Any, ranks: tuple[int, ...], part: int = 0,
                                 of: int | None = None) -> tuple[Any, ...]:
    lifted = _lifted_parts(args, ranks)[part]
    chosen = unbroadcast(np.asarray(g), np.shape(lifted)).reshape(np.shape(args[part]))
    return tuple(chosen if i == part % len(args) else np.zeros_like(a) for i, a in enumerate(args))


def _sum_to_size_node(shapes: Any, size: tuple[int, ...]) -> str:
    if not size:
        return "SumBackward0"
    if shapes is not None and len(shapes[0]) > len(size):
        return "ViewBackward0"
    return "SumBackward1"


def _broadcast_tensors_program(emit: Any, *tensors: Any, part: int = 0, of: int | None = None) -> Any:
    # PyTorch's broadcast_tensors: each tensor expanded to the shape of them all (ExpandBackward0),
    # one that has it already itself
    shapes = [emit.shape(t) for t in tensors]
    if any(shape is None for shape in shapes):
        return emit("broadcast_tensors_whole", *tensors, part=part, of=of)
    out = _broadcast_parts_shape(*shapes, part=part, of=of)
    chosen = tensors[part]
    return chosen if shapes[part] == out else emit("expand", chosen, size=out)


# --- torch.fft.fftshift, ifftshift: a roll by half of each size ------------------------------------


def _fft_shifts(x: Array, rank: int, dim: Any, inverse: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shifts and axes (counted from the first, batch axes first) of fftshift: half of each size
    along each dim (every dim where none is given), the other way for ifftshift."""
    lead = np.ndim(x) - rank
    dims = tuple(range(rank)) if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    axes = tuple(lead + _one_axis(d, rank) % rank for d in dims) if rank else ()
    return tuple(-(np.shape(x)[a] // 2) if inverse else np.shape(x)[a] // 2 for a in axes), axes


def _fft_dims_shape(x: Shape, dim: Any) -> Shape:
    for d in () if dim is None else (dim,) if isinstance(dim, int) else tuple(dim):
        _one_axis(d, len(x))
    return x


def _fft_shift(inverse: bool) -> tuple[Any, Any]:
    # PyTorch's fftshift is a roll (RollBackward0) by half of each size: its gradient, the roll back
    def forward(x: Array, ranks: tuple[int, ...], dim: Any = None) -> Array:
        shifts, axes = _fft_shifts(x, ranks[0], dim, inverse)
        return np.roll(x, shifts, axes) if axes else np.array(x, copy=True)

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None) -> tuple[Array]:
        shifts, axes = _fft_shifts(x, ranks[0], dim, inverse)
        return (np.roll(g, tuple(-s for s in shifts), axes) if axes else g,)

    return forward, vjp


# --- unbind, unfold, fliplr, flipud, H, atleast_Nd ------------------------------------------------


def _unbind_axis(x: Shape, dim: int, part: int, of: int | None) -> tuple[int, int]:
    """unbind's axis (negative) and the index along it that part `part` of the tuple takes."""
    if not x:
        raise ValueError("Dimension specified as 0 but tensor has no dimensions")
    axis = _one_axis(dim, len(x))
    n = x[axis]
    if of is not None and of != n:
        raise ValueError(f"cannot unpack {n} parts into {of} names")
    if not -n <= part < n:
        raise ValueError(f"tuple index out of range: {n} parts")
    return axis, part % n


def _unbind(x: Array, ranks: tuple[int, ...], dim: int = 0, part: int = 0, of: int | None = None) -> Array:
    axis, at = _unbind_axis(np.shape(x)[np.ndim(x) - ranks[0]:], dim, part, of)
    return np.asarray(x[(Ellipsis, at) + (slice(None),) * (-axis - 1)])


def _unbind_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: int = 0, part: int = 0,
                of: int | None = None) -> tuple[Array]:
    axis, at = _unbind_axis(np.shape(x)[np.ndim(x) - ranks[0]:], dim, part, of)
    cotangent = np.zeros_like(x)
    cotangent[(Ellipsis, at) + (slice(None),) * (-axis - 1)] = g
    return (cotangent,)


def _unbind_shape(x: Shape, dim: int = 0, part: int = 0, of: int | None = None) -> Shape:
    axis, _ = _unbind_axis(x, dim, part, of)
    return x[:len(x) + axis] + x[len(x) + axis + 1:]


def _unbind_text(args: Sequence[str], dim: int = 0, part: int = 0, of: int | None = None) -> str:
    return f"unbind({args[0]}{f', {dim}' if dim else ''})[{part}]"


def _unfold_windows(x: Shape, dimension: int | None, size: int | None, step: int | None) -> tuple[int, int]:
    """x.unfold's axis (negative; -1 for a number, a vector of one) and its number of windows."""
    if dimension is None or size is None or step is None:
        raise ValueError("unfold takes dimension, size and step, as in x.unfold(0, 2, 1)")
    if x:
        axis = _one_axis(dimension, len(x))
    else:
        point_axes(dimension, 0)  # (the range check: a number unfolds along dim 0 or -1)
        axis = -1
    n = x[axis] if x else 1
    if size < 0:
        raise ValueError(f"size is {size} but must be >= 0")
    if size > n:
        raise ValueError(f"maximum size for tensor at dimension {len(x) + axis if x else 0} is {n} but size is {size}")
    if step <= 0:
        raise ValueError(f"step is {step} but must be > 0")
    return axis, (n - size) // step + 1


def _unfold_shape(x: Shape, dimension: int | None = None, size: int | None = None, step: int | None = None) -> Shape:
    axis, count = _unfold_windows(x, dimension, size, step)
    if not x:
        return (size or 0,)
    out = list(x)
    out[axis] = count
    return (*out, size or 0)


def _unfold_cells(x: Array, rank: int, dimension: Any, size: Any, step: Any) -> tuple[Array, int, Array]:
    """x with its point axes at least one, the unfolded axis (from the end) and the windows' element indices."""
    axis, count = _unfold_windows(np.shape(x)[np.ndim(x) - rank:], dimension, size, step)
    if not rank:
        x = np.reshape(x, (*np.shape(x), 1))
    return x, axis, np.arange(count)[:, None] * step + np.arange(size)[None, :]


def _unfold(x: Array, ranks: tuple[int, ...], dimension: int | None = None, size: int | None = None,
            step: int | None = None) -> Array:
    lifted, axis, cells = _unfold_cells(x, ranks[0], dimension, size, step)
    windows = np.moveaxis(np.take(lifted, cells, axis=np.ndim(lifted) + axis), np.ndim(lifted) + axis + 1, -1)
    return windows if ranks[0] else np.reshape(windows, (*np.shape(x), -1))


def _unfold_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dimension: int | None = None,
                size: int | None = None, step: int | None = None) -> tuple[Array]:
    lifted, axis, cells = _unfold_cells(x, ranks[0], dimension, size, step)
    at = np.ndim(lifted) + axis
    g = np.reshape(g, (*np.shape(lifted)[:at], *cells.shape, *np.shape(lifted)[at + 1:])) if not ranks[0] else (
        np.moveaxis(g, -1, at + 1))
    cotangent = np.zeros_like(np.moveaxis(lifted, at, -1))
    np.add.at(cotangent, (Ellipsis, cells), np.moveaxis(g, (at, at + 1), (-2, -1)))  # type: ignore[arg-type]
    return (np.reshape(np.moveaxis(cotangent, -1, at), np.shape(x)),)


def _flip_side(axis: int) -> tuple[Any, Any, Any]:
    """fliplr (axis 1, at least 2-D) or flipud (axis 0, at least 1-D): forward, vjp and shape."""
    def shape(x: Shape) -> Shape:
        if len(x) <= axis:
            raise ValueError(f"Input must be >= {axis + 1}-d.")
        return x

    def forward(x: Array, ranks: tuple[int, ...]) -> Array:
        shape(np.shape(x)[np.ndim(x) - ranks[0]:])
        return np.flip(x, np.ndim(x) - ranks[0] + axis)

    return forward, lambda g, ans, x, ranks: (forward(g, ranks),), shape


def _matrix_h_shape(x: Shape) -> Shape:
    if len(x) != 2:
        raise ValueError(f"tensor.H is only supported on matrices (2-D tensors). Got {len(x)}-D tensor."
                         + (" For batches of matrices, consider using tensor.mH" if len(x) > 2 else ""))
    return x[::-1]


def _matrix_h(x: Array, ranks: tuple[int, ...]) -> Array:
    _matrix_h_shape(np.shape(x)[np.ndim(x) - ranks[0]:])
    return np.swapaxes(x, -1, -2)


def _atleast_program(n: int) -> Any:
    # PyTorch's atleast_Nd: a number is reshaped (View), a vector or a matrix given axes by unsqueeze
    # (atleast_3d: (1, n, 1) and (m, k, 1)), a value with enough axes is itself (no node).
    def program(emit: Any, x: Any) -> Any:
        shape = emit.shape(x)
        if shape is None:
            return emit(f"atleast_{n}d_whole", x)
        if not shape:
            return emit("reshape", x, shape=(1,) * n)
        if len(shape) >= n:
            return x
        if n == 2 or len(shape) == 2:
            return emit("unsqueeze", x, dim=0 if n == 2 else -1)
        return emit("unsqueeze", emit("unsqueeze", x, dim=0), dim=-1)

    return program


def _atleast_shape(n: int) -> Any:
    def shape(x: Shape) -> Shape:
        if len(x) >= n:
            return x
        return {0: (1,) * n, 1: (1, *x) if n == 2 else (1, *x, 1), 2: (*x, 1)}[len(x)]

    return shape


def _atleast(n: int) -> Any:
    def forward(x: Array, ranks: tuple[int, ...]) -> Array:
        return np.reshape(x, _lead(x, ranks[0]) + _atleast_shape(n)(np.shape(x)[np.ndim(x) - ranks[0]:]))

    return forward


# --- tensor_split, hsplit, vsplit, dsplit: tuples of slices (SliceBackward0 each) ------------------


def _section_sizes(n: int, sections: Any, name: str, dim: int = 0) -> list[int]:
    """The parts' lengths along an axis of length n: `sections` parts (the first n % sections one
    longer), or the cuts at a tuple of indices (each clamped into the axis, as slicing does)."""
    if sections is None:
        raise ValueError(f"{name} needs the number of sections or the indices, as in {name}(x, 2)")
    if isinstance(sections, tuple):
        bounds = [min(max(i + n if i < 0 else i, 0), n) for i in sections]
        edges = [0, *bounds, n]
        return [max(stop - start, 0) for start, stop in itertools.pairwise(edges)]
    if sections <= 0:
        raise ValueError(f"number of sections must be larger than 0, got {sections}")
    if name == "numpy_split" and n % sections:  # (NumPy's words: np.array_split is tensor_split)
        raise ValueError("array split does not result in an equal division")
    if name not in ("tensor_split", "numpy_split") and n % sections:
        raise ValueError(f"torch.{name} attempted to split along dimension {dim}, but the size "
                         f"of the dimension {n} is not divisible by the split_size {sections}!")
    return [n // sections + (i < n % sections) for i in range(sections)]


_HSPLIT_DIMS = {"vsplit": 0, "dsplit": 2}


def _sections_axis(name: str, x: Shape, dim: int) -> int:
    if name in ("tensor_split", "numpy_split"):
        if not x:
            raise ValueError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
        return _one_axis(dim, len(x))
    least = {"hsplit": 1, "vsplit": 2, "dsplit": 3}[name]
    if len(x) < least:
        raise ValueError(f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor with "
                         f"{len(x)} dimensions!")
    return -len(x) + (1 if name == "hsplit" and len(x) > 1 else 0 if name == "hsplit" else _HSPLIT_DIMS[name])


def _sectioned(name: str) -> tuple[Any, Any, Any]:
    """forward, vjp and shape of one part of tensor_split (hsplit, vsplit, dsplit: their dim fixed)."""
    def cut(x: Shape, sections: Any, dim: int, part: int, of: int | None) -> tuple[int, slice]:
        axis = _sections_axis(name, x, dim)
        sizes = _section_sizes(x[axis], sections, name, axis % len(x))
        if of is not None and of != len(sizes):
            raise ValueError(f"cannot unpack {len(sizes)} parts into {of} names")
        if not -len(sizes) <= part < len(sizes):
            raise ValueError(f"tuple index out of range: {len(sizes)} parts")
        start = sum(sizes[:part % len(sizes)])
        return axis, slice(start, start + sizes[part % len(sizes)])

    def forward(x: Array, ranks: tuple[int, ...], sections: Any = None, dim: int = 0, part: int = 0,
                of: int | None = None) -> Array:
        return x[_part_key(*cut(np.shape(x)[np.ndim(x) - ranks[0]:], sections, dim, part, of))]

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], sections: Any = None, dim: int = 0,
            part: int = 0, of: int | None = None) -> tuple[Array]:
        cotangent = np.zeros_like(x)
        cotangent[_part_key(*cut(np.shape(x)[np.ndim(x) - ranks[0]:], sections, dim, part, of))] = g
        return (cotangent,)

    def shape(x: Shape, sections: Any = None, dim: int = 0, part: int = 0, of: int | None = None) -> Shape:
        axis, piece = cut(x, sections, dim, part, of)
        out = list(x)
        out[axis] = piece.stop - piece.start
        return tuple(out)

    return forward, vjp, shape


def _sectioned_text(name: str) -> Any:
    def text(args: Sequence[str], sections: Any = None, dim: int = 0, part: int = 0, of: int | None = None) -> str:
        given = [repr(list(sections) if isinstance(sections, tuple) else sections)] + ([str(dim)] if dim else [])
        return f"{name}({', '.join([*args, *given])})[{part}]"

    return text


# --- diagonal_scatter, select_scatter: a copy of the input with a part put in -----------------------


def _scatter_base(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    """A copy of a, with the batch axes of both (where only b has them, a is spread over them)."""
    lead = max(_lead(a, ranks[0]), _lead(b, ranks[1]), key=len)
    out = np.copy(np.broadcast_to(a, lead + np.shape(a)[np.ndim(a) - ranks[0]:]))  # (np.copy: a Hessian's dual too)
    if isinstance(out, np.ndarray) and isinstance(b, np.ndarray) and out.dtype != np.result_type(out, b):
        out = out.astype(np.result_type(out, b))
    return out


def _diagonal_slot(a: Shape, offset: int, dim1: int, dim2: int) -> tuple[int, int, Array, Array]:
    x, y = _diagonal_axes(len(a), dim1, dim2)
    rows, cols = _diagonal_cells(a[x], a[y], offset)
    return x, y, rows, cols


def _diagonal_scatter_shape(a: Shape, b: Shape, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Shape:
    want = _diagonal_shape(a, offset, dim1, dim2)
    if tuple(b) != want:
        raise ValueError(f"expected src to have a size equal to the slice of self. src size = {list(b)}, slice size = "
                         f"{list(want)}")
    return a


def _diagonal_scatter(a: Array, b: Array, ranks: tuple[int, ...], offset: int = 0, dim1: int = 0,
                      dim2: int = 1) -> Array:
    point = np.shape(a)[np.ndim(a) - ranks[0]:]
    _diagonal_scatter_shape(point, np.shape(b)[np.ndim(b) - ranks[1]:], offset, dim1, dim2)
    x, y, rows, cols = _diagonal_slot(point, offset, dim1, dim2)
    out = _scatter_base(a, b, ranks)
    np.moveaxis(out, (x, y), (-2, -1))[..., rows, cols] = b
    return out


def _diagonal_scatter_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], offset: int = 0,
                          dim1: int = 0, dim2: int = 1) -> tuple[Array, Array]:
    x, y, rows, cols = _diagonal_slot(np.shape(a)[np.ndim(a) - ranks[0]:], offset, dim1, dim2)
    ga = np.copy(g)
    np.moveaxis(ga, (x, y), (-2, -1))[..., rows, cols] = 0.0
    return ga, np.moveaxis(g, (x, y), (-2, -1))[..., rows, cols]


def _select_scatter_shape(a: Shape, b: Shape, dim: int | None = None, index: int | None = None) -> Shape:
    want = _select_shape(a, dim, index)
    if tuple(b) != want:
        raise ValueError(f"expected src to have a size equal to the slice of self. src size = {list(b)}, slice size = "
                         f"{list(want)}")
    return a


def _select_scatter(a: Array, b: Array, ranks: tuple[int, ...], dim: int | None = None,
                    index: int | None = None) -> Array:
    point = np.shape(a)[np.ndim(a) - ranks[0]:]
    _select_scatter_shape(point, np.shape(b)[np.ndim(b) - ranks[1]:], dim, index)
    out = _scatter_base(a, b, ranks)
    out[_select_at(point, dim, index)] = b
    return out


def _select_scatter_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], dim: int | None = None,
                        index: int | None = None) -> tuple[Array, Array]:
    key = _select_at(np.shape(a)[np.ndim(a) - ranks[0]:], dim, index)
    ga = np.copy(g)
    ga[key] = 0.0
    return ga, np.asarray(g[key]) if isinstance(g, np.ndarray) else g[key]  # (a Hessian's dual keeps its tangent)


# --- block_diag: matrices on a diagonal (BlockDiagBackward0) -------------------------------------


def _block(x: Shape, i: int) -> Shape:
    """An arg of block_diag as the matrix it stands for: a number (1, 1), a vector a row."""
    if len(x) > 2:
        raise ValueError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {len(x)} "
                         f"dimensions")
    return x if len(x) == 2 else (1, *x) if x else (1, 1)


def _block_diag_shape(*shapes: Shape) -> Shape:
    blocks = [_block(x, i) for i, x in enumerate(shapes)]
    return (sum(b[0] for b in blocks), sum(b[1] for b in blocks))


def _block_cells(items: Sequence[Array], ranks: tuple[int, ...],
                 backward: bool = False) -> list[tuple[Shape, tuple[Any, ...]]]:
    """Each arg's matrix shape and where it lands in the result (`backward`: where PyTorch's derivative
    reads it, which does not step past the row an empty vector takes in the result)."""
    cells: list[tuple[Shape, tuple[Any, ...]]] = []
    row, col = 0, 0
    for i, (x, r) in enumerate(zip(items, ranks, strict=True)):
        rows, cols = _block(np.shape(x)[np.ndim(x) - r:], i)
        cells.append(((rows, cols), (Ellipsis, slice(row, row + rows), slice(col, col + cols))))
        row, col = row + (0 if backward and r == 1 and cols == 0 else rows), col + cols
    return cells


def _block_diag(*items: Array, ranks: tuple[int, ...]) -> Array:
    lead = max((_lead(x, r) for x, r in zip(items, ranks, strict=True)), key=len, default=())
    out = np.zeros(lead + _block_diag_shape(*(np.shape(x)[np.ndim(x) - r:] for x, r in zip(items, ranks, strict=True))),
                   dtype=np.result_type(*items) if items else float)
    for x, r, (block, key) in zip(items, ranks, _block_cells(items, ranks), strict=True):
        out[key] = np.reshape(x, _lead(x, r) + block)
    return out


def _block_diag_vjp(g: Array, ans: Array, *items: Array, ranks: tuple[int, ...]) -> tuple[Array, ...]:
    return tuple(np.reshape(g[key], np.shape(g)[: np.ndim(g) - 2] + np.shape(x)[np.ndim(x) - r:])
                 for x, r, (_, key) in zip(items, ranks, _block_cells(items, ranks, backward=True), strict=True))


# --- the rows ----------------------------------------------------------------------------------

DIM = Param("dim", "int", None, aliases=("axis",))
DIMS = Param("dim", "dims", None, aliases=("axis",))
SHAPE = Param("shape", "ints", None, aliases=("size", "newshape"), listed=True)
SIZES = Param("size", "ints", None, aliases=("shape", "sizes"), listed=True)
REPEATS = Param("dims", "ints", None, aliases=("repeats", "reps", "sizes"), listed=True)
DIAGONAL = Param("diagonal", "int", 0, aliases=("k",))
DIM_0 = Param("dim", "int", 0, aliases=("axis",))


def _one(*cases: tuple[Shape, dict[str, Any]]) -> tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...]:
    return tuple(((shape,), params) for shape, params in cases)


def _linear(name: str, forward: Any, vjp: Any, node: str, **fields: Any) -> Any:
    # (they move values: an integer tensor stays one, and its trace a sum)
    fields.setdefault("dtype", "keeps")
    return structural(name, fields.pop("arity", 1), forward, vjp, node, sympy=_sympy(forward), linear=True, **fields)


_STACK_EXAMPLES: dict[str, tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...]] = {
    "hstack": ((((2,), (3,)), {}), (((2, 3), (2, 1)), {}), (((), ()), {})),
    "vstack": ((((2, 3), (1, 3)), {}), (((3,), (3,)), {}), (((2, 3), (3,)), {})),
    "dstack": ((((2, 3, 1), (2, 3, 2)), {}), (((2, 3), (2, 3)), {}), (((3,), (3,)), {})),
    "column_stack": ((((2, 3), (2, 1)), {}), (((3,), (3,)), {}), (((3,), (3, 2)), {})),
}

ROWS = [
    _linear("reshape", _reshape, _same_shape_back, "ViewBackward0", params=(SHAPE,), shape=_reshape_shape,
            methods=("reshape", "view"), examples=_one(((2, 3), {"shape": (3, 2)}), ((2, 3), {"shape": (-1,)}),
                                                     ((6,), {"shape": (2, -1, 1)}), ((), {"shape": (1, 1)})),
                                                     reference="a.reshape(2, 1)", reference_program="a.reshape(2, 1)"),
    # reshape as PyTorch records it where the value is not contiguous (a composite's part: tensordot's)
    _linear("reshape_alias", _reshape, _same_shape_back, "ReshapeAliasBackward0", params=(SHAPE,), shape=_reshape_shape,
            callable=False, reference=None, examples=_one(((2, 3), {"shape": (3, 2)}))),
    _linear("unsafe_view", _reshape, _same_shape_back, "UnsafeViewBackward0", params=(SHAPE,), shape=_reshape_shape,
            callable=False, reference=None, examples=_one(((2, 3), {"shape": (6,)}))),
    composite("flatten", 1, _flatten_program, "ViewBackward0", params=_FLATTEN_PARAMS, shape=_flatten_shape,
              methods=("flatten",), dtype="keeps",
              sympy=lambda x, **params: np.reshape(x, _flatten_shape(np.shape(x), **params)),
              examples=_one(((2, 3), {}), ((2, 3, 2), {"start_dim": 1}), ((2, 3, 2), {"start_dim": 0, "end_dim": -2}),
                            ((), {}), ((3,), {}), ((2, 3), {"start_dim": 1, "end_dim": -1}))),
    # (over --points, where the shapes are not known while the tape is made: one node)
    _linear("flatten_whole", _flatten, _same_shape_back, "ViewBackward0", params=_FLATTEN_PARAMS, shape=_flatten_shape,
            callable=False, reference=None, examples=_one(((2, 3), {}), ((), {}))),
    # ravel: reshape(-1), a view of a vector too (ViewBackward0), where flatten gives the vector itself
    _linear("ravel", _flatten, _same_shape_back, "ViewBackward0", shape=_flatten_shape, methods=("ravel",),
            examples=_one(((2, 3), {}), ((3,), {}), ((), {})),
            reference="torch.ravel(a)", reference_program="ravel(a)"),  # (tests/run_cases/flatten_itself.py its node)
    _linear("squeeze", _squeeze, _same_shape_back, "SqueezeBackward0", params=(DIMS,), shape=_squeeze_shape,
            torch_node_rule=_squeeze_node, methods=("squeeze",),
            in_place_nodes=(("SqueezeBackward0", "SqueezeBackward3"), ("SqueezeBackward1", "SqueezeBackward4"),
                            ("SqueezeBackward2", "SqueezeBackward5")),
            examples=_one(((1, 3, 1), {}), ((1, 3, 1), {"dim": 0}), ((1, 3, 1), {"dim": (0, -1)}),
                          ((2, 3), {"dim": 1})), reference="a.squeeze(0)", reference_program="a.squeeze(0)"),
    # matmul's vector times a matrix squeezes its row away in place (SqueezeBackward4): a part of it alone
    _linear("squeeze_in_place", lambda x, ranks: _squeeze(x, ranks, dim=0), _same_shape_back, "SqueezeBackward4",
            shape=lambda x: _squeeze_shape(x, dim=0), callable=False, reference=None,
            text=lambda args: f"{args[0]}.squeeze_(0)", examples=_one(((1, 3), {}))),
    _linear("unsqueeze", _unsqueeze, _unsqueeze_vjp, "UnsqueezeBackward0", params=(DIM,), shape=_unsqueeze_shape,
            spellings=("expand_dims",), methods=("unsqueeze",), in_place_nodes=(("UnsqueezeBackward0", "UnsqueezeBackward1"),),
            examples=_one(((3,), {"dim": 0}), ((2, 3), {"dim": -1}), ((2, 3), {"dim": 1}), ((), {"dim": 0})),
            reference="a.unsqueeze(0)", reference_program="a.unsqueeze(0)"),
    _linear("transpose", _transpose, _transpose_vjp, "TransposeBackward0",
            params=(Param("dim0", "int", None, aliases=("axis1",)), Param("dim1", "int", None, aliases=("axis2",))),
            shape=_transpose_shape, torch_node_rule=_transpose_node, spellings=("swapaxes", "swapdims"),
            in_place_nodes=(("TransposeBackward0", "TransposeBackward1"),),
            methods=("transpose", "swapaxes", "swapdims"),
            # np.transpose(x, axes): NumPy's, every axis reversed or permuted (np.swapaxes is this row's)
            dialects=(Dialect("numpy", row="numpy_transpose", names=("transpose",), order=("dims",)),),
            examples=_one(((2, 3), {"dim0": 0, "dim1": 1}), ((2, 3, 2), {"dim0": -1, "dim1": 0}), ((2, 3), {})),
            reference="a.transpose(0, 1)", reference_program="a.transpose(0, 1)"),
    _linear("permute", _permute, _permute_vjp, "PermuteBackward0", params=(Param("dims", "ints", None, aliases=("axes",), listed=True),),
            shape=_permute_shape, methods=("permute",),
            examples=_one(((2, 3), {"dims": (1, 0)}), ((2, 3, 2), {"dims": (2, 0, 1)}), ((2, 3, 2), {})),
            reference="a.permute(1, 0)", reference_program="a.permute(1, 0)"),
    # A method, and torch.t: bare `t` is too common a name of an input (a time, a target) to be a function.
    _linear("t", _t, _transpose_vjp, "TBackward0", shape=_t_shape, methods=("t",), callable=False,
            in_place_nodes=(("TBackward0", "TBackward1"),),
            dialects=(Dialect("torch"),),
            text=lambda args: f"{args[0]}.t()",
            examples=_one(((2, 3), {}), ((3,), {}))),
    # (implicit=, by keyword alone, only marks a trace's expand as broadcasting; broadcast_to has none)
    _linear("expand", _expand, _expand_vjp, "ExpandBackward0", params=(SIZES, Param("implicit", "bool", False, unread=True)),
            positional=(("size",),), shape=_expand_shape, spellings=("broadcast_to",), methods=("expand", "broadcast_to"),
            dialects=(Dialect("torch", names=("broadcast_to",), refuses=("implicit",)),
                      Dialect("method", names=("broadcast_to",), refuses=("implicit",))),
            examples=_one(((3,), {"size": (2, 3)}), ((2, 1), {"size": (-1, 3)}), ((), {"size": (2,)})),
            reference="a.expand(3, 2)", reference_program="a.expand(3, 2)"),
    # x.expand_as(y): ExpandBackward0, whose one input is x (y gives its shape alone).
    structural("expand_as", 2, _expand_as, lambda g, ans, x, like, ranks: (*_expand_vjp(g, ans, x, ranks[:1]), None),
               "ExpandBackward0",
               jvp=lambda tangents, ans, x, like, ranks: np.zeros(np.shape(ans)) if tangents[0] is None
               else _expand_as(tangents[0], like, ranks),
               sympy=lambda x, like: np.broadcast_to(x, np.broadcast_shapes(x.shape, like.shape)),
               shape=_expand_as_shape, shape_message=cannot_take, conditions=(1,), dtype="first", methods=("expand_as",),
               examples=((((1, 3), (2, 3)), {}), (((3,), (2, 3)), {}), (((2, 1), (2, 2)), {})),
               reference="a.expand_as(b)", reference_program="a.expand_as(b)"),
    _linear("repeat", _tile(False), _tile_vjp(False), "RepeatBackward0", params=(REPEATS,), shape=_tile_shape(False),
            methods=("repeat",), callable=False,  # a method only: np.repeat(x, 2) repeats each element, another op
            text=lambda args, dims=None: f"{args[0]}.repeat({', '.join(str(d) for d in dims or ())})", examples=_one(((2, 3), {"dims": (2, 1)}), ((3,), {"dims": (2, 2)})),
            reference="a.repeat(2, 1)", reference_program="a.repeat(2, 1)"),
    _linear("tile", _tile(True), _tile_vjp(True), "RepeatBackward0", params=(REPEATS,), shape=_tile_shape(True),
            methods=("tile",), examples=_one(((2, 3), {"dims": (2,)}), ((3,), {"dims": (2, 1, 2)})),
            reference="a.tile(2)", reference_program="a.tile(2)"),
    _linear("flip", _flip, _flip_vjp, "FlipBackward0", params=(Param("dims", "dims", None, aliases=("axis",), listed=True),),
            shape=lambda x, dims=None: (point_axes(dims, len(x)), x)[1], methods=("flip",),
            examples=_one(((2, 3), {"dims": (0,)}), ((2, 3), {"dims": (0, 1)}), ((4,), {})),
            reference="a.flip(0)", reference_program="a.flip(0)"),
    _linear("roll", _roll, _roll_vjp, "RollBackward0",
            params=(Param("shifts", "dims", None, aliases=("shift",)), Param("dims", "dims", None, aliases=("axis",))),
            shape=_roll_shape, methods=("roll",),
            examples=_one(((4,), {"shifts": 1}), ((2, 3), {"shifts": (1, -1), "dims": (0, 1)}), ((2, 3), {"shifts": 2})),
            reference="a.roll(1, 0)", reference_program="a.roll(1, 0)"),
    _linear("cat", _cat, _cat_vjp, "CatBackward0", arity=-1, params=(Param("dim", "int", 0, aliases=("axis",)),),
            list_keyword="tensors",
            shape=_cat_shape, spellings=("concatenate", "concat"),
            text=lambda args, dim=0: f"cat([{', '.join(args)}]{'' if dim == 0 else f', dim={dim}'})",
            examples=((((2,), (3,)), {}), (((2, 3), (2, 1)), {"dim": 1}), (((1, 2), (2, 2), (1, 2)), {"dim": -2})),
            reference="torch.cat([a, b])", reference_program="cat([a, b])"),
    _linear("pad", _pad, _pad_vjp, "ConstantPadNdBackward0",
            params=(Param("pad", "ints", None, listed=True), Param("mode", "str", "constant", choices=("constant",)),
                    Param("value", "float", 0.0)), shape=_pad_shape, jvp=_pad_jvp, overloads=("pad_edges",),
            dialects=(Dialect("numpy", row="numpy_pad", order=("pad_width", "mode")),),  # np.pad's pad_width per axis
            examples=_one(((3,), {"pad": (1, 2)}), ((2, 3), {"pad": (1, 0, 0, 1), "value": 1.5}),
                          ((2, 4), {"pad": (-1, 1)})),
                          reference="F.pad(a, (1, 0), value=0.5)", reference_program="F.pad(a, (1, 0), value=0.5)"),
    # Tuples of parts: x.split(2), x.chunk(3) (a method only: np.split(x, 2) makes 2 parts, not parts of 2).
    _linear("split", _parted(False)[0], _parted(False)[1], "SplitBackward0", parts=-1, callable=False,
            dialects=(Dialect("torch"),),
            params=(Param("size", "dims", None, aliases=("split_size", "split_size_or_sections")), DIM_0),
            shape=_parted(False)[2], torch_node_rule=_split_node, methods=("split",), text=_part_text("split", "size"),
            examples=_one(((5,), {"size": 2, "part": 2}), ((2, 3), {"size": (1, 2), "dim": 1, "part": 1}),
                          ((4, 2), {"size": 3, "part": -1})),
                          reference="a.split(1)[1]", reference_program="a.split(1)[1]"),
    _linear("chunk", _parted(True)[0], _parted(True)[1], "SplitBackward0", parts=-1,
            params=(Param("size", "int", None, aliases=("chunks",)), DIM_0), shape=_parted(True)[2],
            methods=("chunk",), text=_part_text("chunk", "size"), torch_node_rule=_chunk_node(False),
            examples=_one(((5,), {"size": 2, "part": 0}), ((2, 4), {"size": 2, "dim": -1, "part": 1})),
            reference="a.chunk(2)[0]", reference_program="a.chunk(2)[0]"),
    _linear("diag", _diag, _diag_vjp, "DiagEmbedBackward0", params=(DIAGONAL,), shape=_diag_shape,
            torch_node_rule=_diag_node, methods=("diag",),
            examples=_one(((3,), {}), ((2,), {"diagonal": 1}), ((3, 3), {}), ((2, 3), {"diagonal": -1}))),
    _linear("diagonal", _diagonal, _diagonal_vjp, "DiagonalBackward0",
            params=(Param("offset", "int", 0), Param("dim1", "int", 0, aliases=("axis1",)),
                    Param("dim2", "int", 1, aliases=("axis2",))), shape=_diagonal_shape, methods=("diagonal",),
            examples=_one(((3, 3), {}), ((2, 3), {"offset": 1}), ((2, 3, 2), {"dim1": 1, "dim2": -1}))),
    _linear("trace", _trace, _trace_vjp, "TraceBackward0", dtype="sums", shape=_trace_shape, methods=("trace",),
            dialects=(Dialect("numpy", row="numpy_trace", order=("offset", "dim1", "dim2")),),  # np.trace(x, 1)
            dtype_refusals=(("bool", "NotImplementedError", "\"trace\" not implemented for 'Bool'"),),
            examples=_one(((3, 3), {}), ((2, 3), {}))),
    _linear("tril", _triangle(True), _triangle_vjp(True), "TrilBackward0", params=(DIAGONAL,),
            shape=_triangle_shape("tril"), methods=("tril",), examples=_one(((3, 3), {}), ((2, 3), {"diagonal": -1}))),
    _linear("triu", _triangle(False), _triangle_vjp(False), "TriuBackward0", params=(DIAGONAL,),
            shape=_triangle_shape("triu"), methods=("triu",), examples=_one(((3, 3), {}), ((2, 3), {"diagonal": 1})),
            reference="torch.triu(a, 1)", reference_program="triu(a, 1)"),
    _linear("clone", _clone, _same_shape_back, "CloneBackward0", shape=lambda x: x, methods=("clone",),
            params=(Param("memory_format", "str", None, choices=tuple(sorted(MEMORY_FORMATS)), unread=True),),
            positional=((),),  # (memory_format= by keyword alone; every value here is contiguous)
            examples=_one(((2, 3), {}), ((), {}))),
    # x.contiguous(): x itself, no node (PyTorch returns self: every value here is contiguous). Its
    # memory_format param, PyTorch's, also sends every call through the lowering that gives x itself.
    structural("contiguous", 1, lambda x, ranks, **params: x, _same_shape_back, "(none: the input itself)",
               linear=True, params=(Param("memory_format", "str", None),), identity_when=lambda **params: True,
               shape=lambda x, **params: x, methods=("contiguous",), callable=False, dtype="keeps",
               sympy=lambda x, **params: x, text=lambda args, **params: f"{args[0]}.contiguous()",
               examples=_one(((2, 3), {}), ((3,), {})), reference="a.contiguous()", reference_program="a.contiguous()"),
    _linear("narrow", _narrow, _narrow_vjp, "SliceBackward0",
            params=(Param("dim", "int", None, aliases=("axis",)), Param("start", "int", None), Param("length", "int", None)),
            shape=_narrow_shape, methods=("narrow",),
            examples=_one(((2, 3), {"dim": 1, "start": 1, "length": 2}), ((4,), {"dim": 0, "start": -3, "length": 2}),
                          ((2, 3), {"dim": -1, "start": 0, "length": 1})),
            reference="torch.narrow(a, 0, 1, 1)", reference_program="narrow(a, 0, 1, 1)"),
    _linear("select", _select, _select_vjp, "SelectBackward0",
            params=(Param("dim", "int", None, aliases=("axis",)), Param("index", "int", None)),
            shape=_select_shape, methods=("select",),
            examples=_one(((2, 3), {"dim": 1, "index": 1}), ((4,), {"dim": 0, "index": -1}),
                          ((2, 3, 2), {"dim": -2, "index": 0})),
            reference="torch.select(a, 0, 1)", reference_program="select(a, 0, 1)"),
    # x.view_as(y): ViewBackward0, whose one input is x (y gives its shape alone).
    structural("view_as", 2, _view_as, lambda g, ans, x, like, ranks: (np.reshape(g, np.shape(x)), np.zeros_like(like)),
               "ViewBackward0", jvp=lambda tangents, ans, x, like, ranks: np.reshape(
                   np.zeros_like(x) if tangents[0] is None else tangents[0], np.shape(ans)),
               sympy=lambda x, like: np.reshape(x, like.shape), shape=_view_as_shape, conditions=(1,), dtype="first",
               methods=("view_as", "reshape_as"), callable=False, text=lambda args: f"{args[0]}.view_as({args[1]})",
               examples=((((2, 3), (3, 2)), {}), (((4,), (2, 2)), {}), (((2, 2), (4,)), {})),
               reference="a.view_as(b)", reference_program="a.view_as(b)"),
    _linear("movedim", _movedim, _movedim_vjp, "PermuteBackward0",
            params=(Param("source", "dims", None), Param("destination", "dims", None)), shape=_movedim_shape,
            spellings=("moveaxis",), methods=("movedim", "moveaxis"),
            examples=_one(((2, 3, 4), {"source": 0, "destination": -1}),
                          ((2, 3, 4), {"source": (0, 1), "destination": (2, 0)}), ((2, 3), {"source": 1, "destination": 0})),
            reference="torch.movedim(a, 0, -1)", reference_program="movedim(a, 0, -1)"),
    _linear("unflatten", _unflatten, _same_shape_back, "ViewBackward0",
            params=(Param("dim", "int", None, aliases=("axis",)), Param("sizes", "ints", None, aliases=("unflattened_size",), listed=True)),
            shape=_unflatten_shape, methods=("unflatten",),
            examples=_one(((6,), {"dim": 0, "sizes": (2, 3)}), ((2, 6), {"dim": -1, "sizes": (3, -1)}),
                          ((4, 3), {"dim": 0, "sizes": (2, 1, 2)})),
            reference="torch.unflatten(a, 0, (2, 1))", reference_program="unflatten(a, 0, (2, 1))"),
    _linear("rot90", _rot90, _rot90_vjp, "Rot90Backward0",
            params=(Param("k", "int", 1), Param("dims", "dims", (0, 1), aliases=("axes",), listed=True)), shape=_rot90_shape,
            methods=("rot90",),
            examples=_one(((2, 3), {}), ((2, 3), {"k": 2}), ((2, 3, 2), {"k": -1, "dims": (2, 0)}), ((2, 3), {"k": 3}),
                          ((2, 3), {"k": 0})),
            reference="torch.rot90(a)", reference_program="rot90(a)"),
    _linear("diag_embed", _diag_embed, _diag_embed_vjp, "DiagEmbedBackward0",
            params=(Param("offset", "int", 0), Param("dim1", "int", -2), Param("dim2", "int", -1)),
            shape=_diag_embed_shape, methods=("diag_embed",),
            examples=_one(((3,), {}), ((2, 3), {"offset": 1}), ((1, 3), {"offset": -1, "dim1": 1, "dim2": 0}),
                          ((2, 2), {"dim1": 0, "dim2": 2}))),
    # (output_size: the length the caller says the result has, PyTorch's keyword alone; PyTorch's method has no
    # form without repeats)
    composite("repeat_interleave", 1, _interleave_program, "ViewBackward0", dtype="keeps",
              params=(Param("repeats", "int", None), Param("dim", "int", None, aliases=("axis",)),
                      Param("output_size", "int", None)),
              shape=_repeat_interleave_shape, methods=("repeat_interleave",),
              dialects=(Dialect("numpy", names=("repeat",), order=("repeats", "dim"), refuses=("output_size",)),  # (np.repeat;
                        # x.repeat is tile's)
                        Dialect("torch", order=("repeats", "dim")),
                        Dialect("method", order=("repeats", "dim"), required=("repeats",))),
              dtype_refusals=kernel_refusal("repeat_interleave_cpu", "left out repeats and float"),
              sympy=_sympy(_repeat_interleave),
              examples=_one(((3,), {"repeats": 2}), ((2, 3), {"repeats": 2, "dim": 1}), ((2, 3), {"repeats": 3}),
                            ((2, 3), {"repeats": 1, "dim": 0}), ((), {"repeats": 2}), ((2,), {"repeats": 0})),
              reference="torch.repeat_interleave(a, 2)", reference_program="repeat_interleave(a, 2)"),
    # (over --points, where the shapes are not known while the tape is made: one node)
    _linear("repeat_interleave_whole", _repeat_interleave, _repeat_interleave_vjp, "ViewBackward0",
            params=(Param("repeats", "int", None), Param("dim", "int", None, aliases=("axis",))),
            shape=_repeat_interleave_shape, callable=False, reference=None,
            examples=_one(((3,), {"repeats": 2}), ((2, 3), {"repeats": 2, "dim": 1}))),
    *(composite(name, -1, _stack_program(name), "CatBackward0", dtype="keeps", shape=_stacks(name)[2], list_keyword="tensors",
                sympy=_sympy(_stacks(name)[0]), text=_list_text(name),
                reference=f"torch.{name}([a, b])", reference_program=f"{name}([a, b])", examples=examples)
      for name, examples in _STACK_EXAMPLES.items()),
    *(_linear(f"{name}_whole", _stacks(name)[0], _stacks(name)[1], "CatBackward0", arity=-1, shape=_stacks(name)[2],
              text=_list_text(name), callable=False, reference=None, examples=examples[:1])
      for name, examples in _STACK_EXAMPLES.items()),
    # x[..., start:stop] along one dim (SliceBackward0): a part of diff alone.
    _linear("sliced", _sliced, _sliced_vjp, "SliceBackward0", callable=False, reference=None, shape=_sliced_shape,
            params=(Param("dim", "int", 0), Param("start", "int", None), Param("stop", "int", None)),
            text=lambda args, dim=0, start=None, stop=None: "{}[{}]".format(args[0], ", ".join(
                ([":"] * dim if dim >= 0 else ["..."]) + [f"{'' if start is None else start}:{'' if stop is None else stop}"]
                + ([":"] * (-dim - 1) if dim < 0 else []))),
            examples=_one(((4,), {"start": 1}), ((2, 3), {"dim": 1, "stop": -1}))),
    composite("diff", 1, _diff_program, "SubBackward0", shape=_diff_shape, params=_DIFF_PARAMS, methods=("diff",),
              torch_node_rule=lambda constant, shapes, n=1, dim=-1: "SubBackward0" if n else "CopyBackwards",
              examples=_one(((4,), {}), ((2, 3), {"dim": 0}), ((2, 4), {"n": 2}), ((1,), {}), ((3,), {"n": 0})),
              overloads=("diff_padded",), reference="torch.diff(a)", reference_program="diff(a)"),
    # diff(x, n, dim, prepend, append): the three cat together first
    composite("diff_padded", 3, _padded_diff_program, "SubBackward0", shape=_padded_diff_shape, params=_DIFF_PARAMS,
              tensor_positions=(0, 3, 4), optional_args=((3, "prepend", 0.0), (4, "append", 0.0)),
              inputs=("input", "prepend", "append"), callable=False, shape_message=lambda label, shapes: (
                  f"diff cannot take an input of shape {tuple(shapes[0])} with these prepend and append"),
              torch_node_rule=lambda constant, shapes, n=1, dim=-1: "SubBackward0" if n else "CopyBackwards",
              text=lambda args, n=1, dim=-1: "torch.diff({}, {}, {}, {}, {})".format(
                  args[0], n, dim, *(None if arg in ("0", "0.0") else arg for arg in args[1:])),
              examples=((((3,), (1,), (2,)), {}), (((2, 3), (2, 1), (2, 2)), {"n": 2, "dim": 1}),
                        (((2, 3), (1, 3), (1, 3)), {"dim": 0})),
              reference="torch.diff(a, 1, 0, b, c)", reference_program="torch.diff(a, 1, 0, b, c)"),
    composite("sum_to_size", 1, _sum_to_size_program, "SumBackward1", shape=_sum_to_size_shape, callable=False,
              params=(SIZES,), methods=("sum_to_size",),
              torch_node_rule=lambda constant, shapes, size=(): _sum_to_size_node(shapes, size),
              text=lambda args, size=(): f"{args[0]}.sum_to_size({tuple(size)})",
              examples=_one(((2, 3), {"size": (1, 3)}), ((2, 3), {"size": (3,)}), ((2, 3), {"size": ()}),
                            ((3,), {"size": (3,)})),
              reference="a.sum_to_size(1)", reference_program="a.sum_to_size(1)"),
    composite("broadcast_tensors", -1, _broadcast_tensors_program, "ExpandBackward0", shape=_broadcast_parts_shape,
              parts=-1, text=lambda args, part=0, of=None: f"torch.broadcast_tensors({', '.join(args)})[{part}]",
              torch_node_rule=lambda constant, shapes, part=0, of=None: "ExpandBackward0",
              examples=((((3,), (2, 1)), {"part": 0}), (((2, 3), (3,)), {"part": 0}),
                        (((1, 3), (2, 1), ()), {"part": 0})),  # (the first arg's part: each point's own)
              reference="torch.broadcast_tensors(a, b)[0]", reference_program="torch.broadcast_tensors(a, b)[0]"),
    # (over --points, where the shapes are not known while the tape is made: one node)
    structural("sum_to_size_whole", 1, _sum_to_size_whole, _sum_to_size_whole_vjp, "SumBackward1",
               shape=_sum_to_size_shape, params=(SIZES,), callable=False, reference=None, linear=True,
               text=lambda args, size=(): f"{args[0]}.sum_to_size({tuple(size)})",
               examples=_one(((2, 3), {"size": (1, 3)}), ((2, 3), {"size": (3,)}))),
    structural("broadcast_tensors_whole", -1, _broadcast_tensors_whole, _broadcast_tensors_whole_vjp, "ExpandBackward0",
               shape=_broadcast_parts_shape, parts=-1, callable=False, reference=None, linear=True, dtype="keeps",
               text=lambda args, part=0, of=None: f"torch.broadcast_tensors({', '.join(args)})[{part}]",
               examples=((((3,), (2, 1)), {"part": 0}), (((2, 3), (3,)), {"part": 1}))),
    *(_linear(f"fft.{name}", *_fft_shift(name == "ifftshift"), "RollBackward0", callable=False,
              params=(Param("dim", "dims", None),), shape=lambda x, dim=None: _fft_dims_shape(x, dim),
              text=lambda args, dim=None, name=name: f"torch.fft.{name}({args[0]}{'' if dim is None else f', dim={dim}'})",
              examples=_one(((4,), {}), ((2, 3), {"dim": 1}), ((3, 5), {"dim": (0, 1)})),
              reference=f"torch.fft.{name}(a)", reference_program=f"torch.fft.{name}(a)")
      for name in ("fftshift", "ifftshift")),
    # a copy of x into a new tensor (CopyBackwards; the new tensor, a constant, gets no gradient): diff's n = 0
    _linear("copied", _copied, lambda g, ans, into, x, ranks: (np.zeros_like(into), unbroadcast(np.asarray(g), np.shape(x))),
            "CopyBackwards", arity=2, shape=lambda into, x: x, callable=False, reference=None,
            text=lambda args: f"{args[1]}.clone()", examples=((((), (3,)), {}),)),
]
ROWS += [
    # torch.split_with_sizes(x, sizes, dim), torch.unsafe_split and torch.unsafe_chunk (UnsafeSplitBackward0):
    # split and chunk under PyTorch's other names.
    _linear("split_with_sizes", _parted(False)[0], _parted(False)[1], "SplitWithSizesBackward0", parts=-1,
            params=(Param("size", "ints", None, aliases=("split_sizes",)), DIM_0), shape=_parted(False)[2],
            methods=("split_with_sizes",), text=_part_text("split_with_sizes", "size"),
            examples=_one(((5,), {"size": (1, 3, 1), "part": 1}), ((2, 3), {"size": (2, 1), "dim": 1, "part": 0})),
            reference="torch.split_with_sizes(a, (1, 1))[1]", reference_program="split_with_sizes(a, (1, 1))[1]"),
    _linear("unsafe_split", _parted(False)[0], _parted(False)[1], "UnsafeSplitBackward0", parts=-1,
            params=(Param("size", "int", None, aliases=("split_size",)), DIM_0), shape=_parted(False)[2],
            methods=("unsafe_split",), text=_part_text("unsafe_split", "size"),
            examples=_one(((5,), {"size": 2, "part": 2}), ((2, 3), {"size": 2, "dim": 1, "part": 0})),
            reference="torch.unsafe_split(a, 1)[1]", reference_program="unsafe_split(a, 1)[1]"),
    _linear("unsafe_chunk", _parted(True)[0], _parted(True)[1], "UnsafeSplitBackward0", parts=-1,
            params=(Param("size", "int", None, aliases=("chunks",)), DIM_0), shape=_parted(True)[2],
            methods=("unsafe_chunk",), text=_part_text("unsafe_chunk", "size"), torch_node_rule=_chunk_node(True),
            examples=_one(((5,), {"size": 2, "part": 0}), ((2, 4), {"size": 2, "dim": -1, "part": 1})),
            reference="torch.unsafe_chunk(a, 2)[0]", reference_program="unsafe_chunk(a, 2)[0]"),
    _linear("unbind", _unbind, _unbind_vjp, "UnbindBackward0", parts=-1, params=(DIM_0,), shape=_unbind_shape,
            methods=("unbind",), text=_unbind_text,
            examples=_one(((3,), {"part": 1}), ((2, 3), {"dim": 1, "part": 2}), ((2, 3), {"dim": -2, "part": -1})),
            reference="torch.unbind(a)[1]", reference_program="unbind(a)[1]"),
    # x.unfold(dimension, size, step): the windows along one dim, as a new last axis (a method only:
    # F.unfold is im2col, another op).
    _linear("unfold", _unfold, _unfold_vjp, "UnfoldBackward0", callable=False, methods=("unfold",),
            params=(Param("dimension", "int", None, aliases=("dim",)), Param("size", "int", None),
                    Param("step", "int", None)), shape=_unfold_shape,
            text=lambda args, dimension=None, size=None, step=None: f"{args[0]}.unfold({dimension}, {size}, {step})",
            examples=_one(((5,), {"dimension": 0, "size": 2, "step": 1}), ((2, 5), {"dimension": 1, "size": 3, "step": 2}),
                          ((4, 3), {"dimension": 0, "size": 2, "step": 2}), ((), {"dimension": 0, "size": 1, "step": 1})),
            reference="a.unfold(0, 2, 1)", reference_program="a.unfold(0, 2, 1)"),
    _linear("fliplr", _flip_side(1)[0], _flip_side(1)[1], "FlipBackward0", shape=_flip_side(1)[2], methods=("fliplr",),
            examples=_one(((2, 3), {}), ((2, 3, 2), {}))),
    _linear("flipud", _flip_side(0)[0], _flip_side(0)[1], "FlipBackward0", shape=_flip_side(0)[2], methods=("flipud",),
            examples=_one(((3,), {}), ((2, 3), {}))),
    # m.H (lowering.PROPERTIES): the conjugate transpose of a matrix, a transpose for real values.
    _linear("H", _matrix_h, _transpose_vjp, "TransposeBackward0", shape=_matrix_h_shape, callable=False,
            text=lambda args: f"{args[0]}.H", examples=_one(((2, 3), {})), reference="a.H", reference_program="a.H"),
    *(composite(f"atleast_{n}d", 1, _atleast_program(n), "ViewBackward0", shape=_atleast_shape(n), dtype="keeps",
                sympy=lambda x, n=n: np.reshape(x, _atleast_shape(n)(np.shape(x))),
                examples=_one(((), {}), ((3,), {}), ((2, 3), {}), ((2, 1, 2), {})))
      for n in (1, 2, 3)),
    # (over --points, where the shapes are not known while the tape is made: one node)
    *(_linear(f"atleast_{n}d_whole", _atleast(n), _same_shape_back, "ViewBackward0", shape=_atleast_shape(n),
              callable=False, reference=None, examples=_one(((), {}), ((3,), {})))
      for n in (1, 2, 3)),
]


def _copy_node(rule: Any) -> Any:
    return lambda constant, shapes, **params: f"{rule(constant, shapes, **params)}_copy"


def _narrow_copy_shape(x: Shape, dim: int | None = None, start: int | None = None, length: int | None = None) -> Shape:
    if x and dim is not None and dim >= len(x):  # (narrow_copy's own check of a dim past the last, in its C++ words)
        raise ValueRefusal("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  (Could "
                           "this error message be improved?  If so, please report an enhancement request to PyTorch.)")
    return _narrow_shape(x, dim, start, length)


def _copy_of(row: str, name: str, node: str, reference: str = "", program: str = "", method: bool = False,
             **fields: Any) -> Op:
    """PyTorch's *_copy function of a view (torch.expand_copy): the view's row, its node the view's with
    _copy (ExpandBackward0_copy), a function under its own name only (and a method where it is one: x.narrow_copy)."""
    op = next(r for r in ROWS if r.name == row)
    rule = None if op.torch_node_rule is None else _copy_node(op.torch_node_rule)
    def text(args: Sequence[str], part: int = 0, of: int | None = None, **params: Any) -> str:
        # (by position, as PyTorch's parser takes them: its keywords are not always gradcli's names)
        given = [repr(params.get(spec.name, spec.default)) for spec in op.params if not spec.unread]
        while given and given[-1] == "None":
            given.pop()
        return f"{name}({', '.join([*args, *given])})" + (f"[{part}]" if op.parts else "")

    return dataclasses.replace(op, name=name, torch_node=node, torch_node_rule=rule, callable=True,
                               methods=(name,) if method else (),
                               spellings=(), dialects=(), text=text,
                               reference=reference, reference_program=program, **fields)


# --- as_strided(x, size, stride, storage_offset=None): the elements of x's storage at offset + sum(i_k * stride_k) ---
#
# x is read as its own contiguous storage (a formula's tensors are; under run, a view's as_strided is refused: its
# storage is its base's). The gradient adds each output element's g into the element it was read from
# (AsStridedBackward0, overlapping reads added); as_strided_scatter writes b there into a copy of x.


def _check_strided(x: Shape, size: Any, stride: Any, storage_offset: Any = None) -> tuple[Shape, Shape, int]:
    size, stride = tuple(size), tuple(stride)
    offset = 0 if storage_offset is None else int(storage_offset)
    if len(size) != len(stride):
        raise ValueError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise ValueError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    if any(n < 0 for n in size):
        raise ValueError(f"Trying to create tensor with negative dimension {min(size)}: {list(size)}")
    if offset < 0:
        raise ValueError(f"Tensor: invalid storage offset {offset}")
    numel = math.prod(x)
    if math.prod(size):
        needed = offset + 1 + sum((n - 1) * st for n, st in zip(size, stride, strict=True))
        if needed > numel:
            raise ValueError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                             f"itemsize 8 requiring a storage size of {needed * 8} are out of bounds for storage of "
                             f"size {numel * 8}")
    return size, stride, offset


def _strided_positions(x: Shape, size: Any, stride: Any, storage_offset: Any = None) -> Array:
    size, stride, offset = _check_strided(x, size, stride, storage_offset)
    positions = np.full(size, offset, dtype=np.int64)
    for axis, (n, st) in enumerate(zip(size, stride, strict=True)):
        positions += (np.arange(n, dtype=np.int64) * st).reshape((n,) + (1,) * (len(size) - axis - 1))
    return positions


def _as_strided_shape(x: Shape, size: Any = (), stride: Any = (), storage_offset: Any = None) -> Shape:
    _check_strided(x, size, stride, storage_offset)  # (no positions made: the elements limit comes first)
    return tuple(size)


def _as_strided(x: Array, ranks: tuple[int, ...], size: Any = (), stride: Any = (), storage_offset: Any = None) -> Array:
    lead = np.ndim(x) - ranks[0]
    positions = _strided_positions(np.shape(x)[lead:], size, stride, storage_offset)
    # (the storage's length written out, not -1: a batch of no points has no size to infer it from)
    return x.reshape(*np.shape(x)[:lead], math.prod(np.shape(x)[lead:]))[..., positions]  # (x a Dual too: the Hessian)


def _as_strided_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], size: Any = (), stride: Any = (),
                    storage_offset: Any = None) -> tuple[Array]:
    lead = np.ndim(x) - ranks[0]
    positions = _strided_positions(np.shape(x)[lead:], size, stride, storage_offset)
    flat = np.zeros_like(g, shape=(*np.shape(g)[:lead], math.prod(np.shape(x)[lead:])))  # (a Dual's: the Hessian)
    where: tuple[Any, ...] = (*(slice(None),) * lead, positions)
    np.add.at(flat, where, g)
    return (flat.reshape(*np.shape(g)[:lead], *np.shape(x)[lead:]),)


def _as_strided_scatter_shape(x: Shape, src: Shape, size: Any = (), stride: Any = (), storage_offset: Any = None) -> Shape:
    if tuple(src) != tuple(_as_strided_shape(x, size, stride, storage_offset)):
        raise ValueError(f"expected src to have a size equal to the slice of self. src size = {list(src)}, slice size = "
                         f"{list(size)}")
    return x


def _as_strided_scatter(x: Array, src: Array, ranks: tuple[int, ...], size: Any = (), stride: Any = (),
                        storage_offset: Any = None) -> Array:
    lead = max(np.ndim(x) - ranks[0], np.ndim(src) - ranks[1])
    point = np.shape(x)[np.ndim(x) - ranks[0]:]
    positions = _strided_positions(point, size, stride, storage_offset)
    batch = np.broadcast_shapes(np.shape(x)[:np.ndim(x) - ranks[0]], np.shape(src)[:np.ndim(src) - ranks[1]])
    out = np.array(np.broadcast_to(x, (*batch, *point)), dtype=np.result_type(x, src))
    flat = out.reshape(*batch, math.prod(point))
    flat[..., positions] = np.broadcast_to(src, (*batch, *np.shape(positions)))
    return flat.reshape(out.shape) if lead else flat.reshape(point)


def _as_strided_scatter_vjp(g: Array, ans: Array, x: Array, src: Array, ranks: tuple[int, ...], size: Any = (),
                            stride: Any = (), storage_offset: Any = None) -> tuple[Array, Array]:
    lead = np.ndim(g) - ranks[0]
    positions = _strided_positions(np.shape(g)[lead:], size, stride, storage_offset)
    flat = g.reshape(*np.shape(g)[:lead], math.prod(np.shape(g)[lead:]))
    picked = flat[..., positions]
    # x's: PyTorch 2.13's as_strided_scatter_backward, the written region's g and zeros elsewhere (the region's
    # complement is what finite differences give; PyTorch's recorded gradient is this, and gradcli gives PyTorch's)
    kept = np.zeros_like(flat)
    kept[..., positions] = picked
    return unbroadcast(kept.reshape(np.shape(g)), np.shape(x)), unbroadcast(picked, np.shape(src))


_STRIDED = (Param("size", "ints"), Param("stride", "ints"), Param("storage_offset", "int", None))

ROWS += [
    _linear("as_strided", _as_strided, _as_strided_vjp, "AsStridedBackward0", params=_STRIDED, shape=_as_strided_shape,
            methods=("as_strided",),
            examples=((((4,),), {"size": (2, 2), "stride": (1, 2)}), (((2, 3),), {"size": (2,), "stride": (2,), "storage_offset": 1}),
                      (((5,),), {"size": (3, 2), "stride": (1, 1)})),
            reference="torch.as_strided(a, (2,), (0,))", reference_program="torch.as_strided(a, (2,), (0,))"),
    # (no SymPy derivative to hold its gradient to: x's is PyTorch's, not the derivative)
    structural("as_strided_scatter", 2, _as_strided_scatter, _as_strided_scatter_vjp, "AsStridedScatterBackward0",
            linear=True, sympy=None, params=_STRIDED, shape=_as_strided_scatter_shape, methods=("as_strided_scatter",),
            inputs=("input", "src"),
            dtype="first",
            examples=((((4,), (2, 2)), {"size": (2, 2), "stride": (1, 2)}), (((2, 3), (2,)), {"size": (2,), "stride": (2,), "storage_offset": 1})),
            reference="torch.as_strided_scatter(a, b, (1,), (1,), 1)",
            reference_program="torch.as_strided_scatter(a, b, (1,), (1,), 1)"),
]

ROWS += [
    _copy_of("expand", "expand_copy", "ExpandBackward0_copy", "torch.expand_copy(a, (3, 2))", "expand_copy(a, (3, 2))"),
    _copy_of("diagonal", "diagonal_copy", "DiagonalBackward0_copy"),
    _copy_of("clone", "alias_copy", "AliasBackward0_copy"),
    _copy_of("reshape", "view_copy", "ViewBackward0_copy", "torch.view_copy(a, (2, 1))", "view_copy(a, (2, 1))"),
    _copy_of("permute", "permute_copy", "PermuteBackward0_copy", "torch.permute_copy(a, (1, 0))",
             "permute_copy(a, (1, 0))"),
    _copy_of("squeeze", "squeeze_copy", "SqueezeBackward0_copy", "torch.squeeze_copy(a, 0)", "squeeze_copy(a, 0)"),
    _copy_of("unsqueeze", "unsqueeze_copy", "UnsqueezeBackward0_copy", "torch.unsqueeze_copy(a, 0)",
             "unsqueeze_copy(a, 0)"),
    _copy_of("transpose", "transpose_copy", "TransposeBackward0_copy", "torch.transpose_copy(a, 0, 1)",
             "transpose_copy(a, 0, 1)"),
    _copy_of("t", "t_copy", "TBackward0_copy"),
    _copy_of("narrow", "narrow_copy", "NarrowCopyBackward0", "torch.narrow_copy(a, 0, 1, 1)", "narrow_copy(a, 0, 1, 1)",
             shape=_narrow_copy_shape, method=True),
    _copy_of("unbind", "unbind_copy", "UnbindBackward0_copy", "torch.unbind_copy(a)[1]", "unbind_copy(a)[1]"),
    _copy_of("split_with_sizes", "split_with_sizes_copy", "SplitWithSizesBackward0_copy",
             "torch.split_with_sizes_copy(a, (1, 1))[1]", "split_with_sizes_copy(a, (1, 1))[1]"),
    _copy_of("unfold", "unfold_copy", "UnfoldBackward0_copy", "torch.unfold_copy(a, 0, 2, 1)", "unfold_copy(a, 0, 2, 1)"),
    _copy_of("as_strided", "as_strided_copy", "AsStridedBackward0_copy", "torch.as_strided_copy(a, (2,), (0,))",
             "as_strided_copy(a, (2,), (0,))"),
]

ROWS += [
    *(_linear(name, _sectioned(name)[0], _sectioned(name)[1], "SliceBackward0", parts=-1,
              params=(Param("sections", "dims", None, aliases=("indices_or_sections", "indices", "sections")),
                      *((DIM_0,) if name == "tensor_split" else ())),
              shape=_sectioned(name)[2], methods=(name,), text=_sectioned_text(name), examples=examples,
              dialects=(Dialect("numpy", names=("array_split",), order=("sections", "dim")),) if name == "tensor_split" else (),
              reference=f"torch.{name}(a, {sections})[0]", reference_program=f"{name}(a, {sections})[0]")
      for name, sections, examples in [
          ("tensor_split", 2, _one(((5,), {"sections": 3, "part": 2}), ((2, 5), {"sections": (1, 3), "dim": 1, "part": 1}),
                                   ((4,), {"sections": (-1, 9), "part": 2}))),
          ("hsplit", 2, _one(((2, 4), {"sections": 2, "part": 1}), ((4,), {"sections": (1, 3), "part": 0}))),
          ("vsplit", (1,), _one(((4, 2), {"sections": 2, "part": 1}), ((3, 2), {"sections": (1,), "part": 1}))),
          ("dsplit", (1,), _one(((1, 2, 4), {"sections": 2, "part": 0}), ((2, 1, 3), {"sections": (1, 2), "part": 2})))]),
    # np.split(x, 3): tensor_split's parts where they are equal, NumPy's error where they are not
    _linear("numpy_split", _sectioned("numpy_split")[0], _sectioned("numpy_split")[1], "SliceBackward0", parts=-1,
            params=(Param("sections", "dims", None, aliases=("indices_or_sections",)), DIM_0),
            shape=_sectioned("numpy_split")[2], text=_sectioned_text("np.split"), callable=False, reference=None,
            dialects=(Dialect("numpy", names=("split",), order=("sections", "dim")),),
            examples=_one(((4,), {"sections": 2, "part": 1}), ((2, 6), {"sections": (1, 3), "dim": 1, "part": 2}))),
    structural("diagonal_scatter", 2, _diagonal_scatter, _diagonal_scatter_vjp, "DiagonalScatterBackward0",
               sympy=lambda a, b, **params: np.asarray(_diagonal_scatter(a, b, (np.ndim(a), np.ndim(b)), **params),
                                                       dtype=object),
               params=(Param("offset", "int", 0), Param("dim1", "int", 0), Param("dim2", "int", 1)),
               shape=_diagonal_scatter_shape, linear=True, dtype="first", methods=("diagonal_scatter",), inputs=("input", "src"),
               examples=((((3, 3), (3,)), {}), (((2, 3), (2,)), {"offset": 1}), (((2, 3, 2), (2, 2)), {"offset": -1, "dim1": 1, "dim2": 2}))),
    structural("select_scatter", 2, _select_scatter, _select_scatter_vjp, "SelectScatterBackward0",
               sympy=lambda a, b, **params: np.asarray(_select_scatter(a, b, (np.ndim(a), np.ndim(b)), **params),
                                                       dtype=object),
               params=(Param("dim", "int", None), Param("index", "int", None)),
               shape=_select_scatter_shape, linear=True, dtype="first", methods=("select_scatter",), inputs=("input", "src"),
               examples=((((2, 3), (3,)), {"dim": 0, "index": 1}), (((2, 3), (2,)), {"dim": -1, "index": -1}),
                         (((3,), ()), {"dim": 0, "index": 0})),
               reference="torch.select_scatter(a, b, 0, 0)", reference_program="select_scatter(a, b, 0, 0)"),
]

ROWS += [_linear("block_diag", _block_diag, _block_diag_vjp, "BlockDiagBackward0", arity=-1, shape=_block_diag_shape,
                 examples=((((2, 2), (1, 3)), {}), (((3,), (), (2, 1)), {}), (((2, 3),), {})),
                 reference="torch.block_diag(a, b)", reference_program="block_diag(a, b)")]
