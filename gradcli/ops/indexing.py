"""The row of integer-array indexing: `v[[0, 2]]`, `m[[0, 1], [1, 0]]`, `m[:, idx]`, `v[idx]` with idx
an input (PyTorch's IndexBackward0).

The key holds, per axis, an int, a slice, a constant index array (nested tuples of ints,
written in the program) or INDEX_ARG: the next of the node's index args, a value of the
point (an integer input, or computed from integer inputs). Indices are whole numbers, in
range of their axis (negative counts from the end); repeated indices add up their gradient.

Rules never see a batch: with --points the point's axes are indexed by the key, and the
batch axis in front by an index of its own (numpy's advanced indexing then puts the batch
first; where the key's own advanced axes come after a slice, they are moved back in place).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gradcli.ops.core import Array, Param, point_axes, structural

INDEX_ARG = "*"  # in a key: the next index arg of the node

Shape = tuple[int, ...]


def _whole(index: Any) -> Array:
    values = np.asarray(index)
    if values.dtype.kind == "f":
        if not np.all(np.isfinite(values) & (np.mod(values, 1) == 0)):
            bad = values[~(np.isfinite(values) & (np.mod(values, 1) == 0))].flat[0]
            raise ValueError(f"an index must be a whole number, got {bad!r}")
        values = values.astype(np.intp)
    return values


def _in_range(values: Array, size: int, axis: int, negative: bool = True) -> Array:
    """`values` index an axis of `size` (negative from the end, where `negative`: not in gather)."""
    if values.size and (values.max() >= size or values.min() < (-size if negative else 0)):
        bad = int(values.max() if values.max() >= size else values.min())
        raise IndexError(f"index {bad} is out of range for size {size} (dim {axis})")
    return values


def _items(key: tuple[Any, ...], indices: Sequence[Any]) -> list[Any]:
    """The key with its index args and constant arrays as NumPy arrays (whole numbers checked)."""
    given = iter(indices)
    items = []
    for item in key:
        if isinstance(item, str):
            items.append(_whole(next(given)))
        elif isinstance(item, tuple):
            items.append(np.asarray(item, dtype=np.intp))
        else:
            items.append(item)
    return items


def _advanced(items: Sequence[Any]) -> list[int]:
    """The positions of the key's advanced items: its arrays (its ints were applied first: _split)."""
    return [i for i, item in enumerate(items) if isinstance(item, np.ndarray)]


def _split(key: tuple[Any, ...]) -> tuple[tuple[Any, ...] | None, tuple[Any, ...]]:
    """PyTorch applies the ints of a key that has arrays first, as selects (x[1, :, [0, 0]] is
    x[1][:, [0, 0]]; NumPy would count the 1 among the arrays): (that select or None, the rest)."""
    if not any(isinstance(item, int) for item in key):
        return None, key
    return (tuple(item if isinstance(item, int) else slice(None) for item in key),
            tuple(item for item in key if not isinstance(item, int)))


def _select(x: Array, first: tuple[Any, ...], rank: int) -> Array:
    point_shape = x.shape[x.ndim - rank:]
    if len(first) > rank:
        raise IndexError(f"too many indices: {len(first)} for {rank} axes")
    for axis, item in enumerate(first):
        if isinstance(item, int):
            _in_range(np.asarray(item), point_shape[axis], axis)
    return x[(slice(None),) * (x.ndim - rank) + first]


def _checked(items: list[Any], point_shape: Shape) -> list[Any]:
    if len(items) > len(point_shape):
        raise IndexError(f"too many indices: {len(items)} for {len(point_shape)} axes")
    for axis, item in enumerate(items):
        if isinstance(item, np.ndarray):
            _in_range(item, point_shape[axis], axis)
        elif isinstance(item, int):
            _in_range(np.asarray(item), point_shape[axis], axis)
    return items


def _parts(x: Array, key: tuple[Any, ...], indices: Sequence[Array], ranks: tuple[int, ...]) -> tuple[Any, ...]:
    """(the full NumPy key, batch size or None, the moves that put a point's axes in order)."""
    point_shape = x.shape[x.ndim - ranks[0]:]
    items = _checked(_items(key, indices), point_shape)
    index_args = [i for i, item in enumerate(key) if isinstance(item, str)]
    batches = {x.shape[0]} if x.ndim > ranks[0] else set()
    for position, rank in zip(index_args, ranks[1:], strict=True):
        if items[position].ndim > rank:  # an index of the point with the batch axis in front
            batches.add(items[position].shape[0])
    if not batches:
        return tuple(items), None, None
    (count,) = batches
    advanced = _advanced(items)
    if not advanced:  # slices and ints only: the batch axis is one more slice in front
        return (slice(None), *items), count, None
    # Each advanced item, as an array of the points: the batch axis in front of its own shape.
    per_point = []
    for position, item in enumerate(items):
        if position in advanced:
            array = np.asarray(item)
            batched = position in index_args and array.ndim > ranks[1 + index_args.index(position)]
            per_point.append(array if batched else array[None])
    shape = np.broadcast_shapes(*(a.shape[1:] for a in per_point))
    batch_index = np.arange(count).reshape((count,) + (1,) * len(shape))
    full = [batch_index]
    arrays = iter(per_point)
    for position, item in enumerate(items):
        full.append(next(arrays) if position in advanced else item)
    adjacent = advanced == list(range(advanced[0], advanced[-1] + 1))
    if adjacent and advanced[0] > 0:  # the point puts its advanced axes after the leading slices
        before = advanced[0]  # (slices consume one axis each, and keep it)
        return tuple(full), count, (list(range(1, 1 + len(shape))), list(range(1 + before, 1 + before + len(shape))))
    return tuple(full), count, None


def _index(x: Array, *indices: Array, ranks: tuple[int, ...], key: tuple[Any, ...] = ()) -> Array:
    first, key = _split(key)
    if first is not None:
        x = _select(x, first, ranks[0])
        ranks = (ranks[0] - sum(isinstance(item, int) for item in first), *ranks[1:])
    full, count, moves = _parts(x, key, indices, ranks)
    if count is not None and x.ndim == ranks[0]:
        x = np.broadcast_to(x, (count, *x.shape))
    out = x[full]
    if moves is not None:
        out = np.moveaxis(out, *moves)
    return np.asarray(out)


def _index_vjp(g: Array, ans: Array, x: Array, *indices: Array, ranks: tuple[int, ...],
               key: tuple[Any, ...] = ()) -> tuple[Array | None, ...]:
    first, rest = _split(key)
    if first is None:
        return (_scatter(g, ans, x, indices, ranks, key), *[None] * len(indices))
    picked = _select(x, first, ranks[0])
    part = _scatter(g, ans, picked, indices, (ranks[0] - sum(isinstance(i, int) for i in first), *ranks[1:]), rest)
    extra = part.ndim - picked.ndim  # a batch axis the indices brought
    cotangent = np.zeros_like(g, shape=part.shape[:extra] + x.shape)
    cotangent[(slice(None),) * (extra + x.ndim - ranks[0]) + first] = part
    return (cotangent, *[None] * len(indices))


def _scatter(g: Array, ans: Array, x: Array, indices: Sequence[Array], ranks: tuple[int, ...],
             key: tuple[Any, ...]) -> Array:
    full, count, moves = _parts(x, key, indices, ranks)
    shape = x.shape if count is None or x.ndim > ranks[0] else (count, *x.shape)
    g = np.broadcast_to(g, ans.shape)
    if moves is not None:
        g = np.moveaxis(g, moves[1], moves[0])
    cotangent = np.zeros_like(g, shape=shape)  # (a dual number's, for the Hessian)
    np.add.at(cotangent, full, g)  # a repeated index adds up (IndexBackward0's index_put with accumulate)
    return cotangent


def _index_jvp(tangents: Sequence[Array | None], ans: Array, x: Array, *indices: Array, ranks: tuple[int, ...],
               key: tuple[Any, ...] = ()) -> Array:
    t = tangents[0]
    return np.zeros_like(ans) if t is None else _index(t, *indices, ranks=ranks, key=key)


def _slice_size(item: slice, size: int) -> int:
    return len(range(*item.indices(size)))


def index_shape(x: Shape, *indices: Shape, key: tuple[Any, ...] = ()) -> Shape:
    """NumPy's shape of x[key] at one point, from the shapes alone: nothing is allocated."""
    if len(key) > len(x):
        raise IndexError(f"too many indices: {len(key)} for {len(x)} axes")
    first, key = _split(key)
    if first is not None:
        x = tuple(size for size, item in zip(x, first + (slice(None),) * len(x), strict=False) if not isinstance(item, int))
    shapes = iter(indices)
    items: list[Any] = []
    for item in key:
        if isinstance(item, str):
            items.append(np.empty(next(shapes), dtype=np.intp))  # (an index of the point: its own size)
        elif isinstance(item, tuple):
            items.append(np.asarray(item, dtype=np.intp))
        else:
            items.append(item)
    advanced = _advanced(items)
    rest = list(x[len(items):])
    kept = [(position, _slice_size(item, x[position])) for position, item in enumerate(items) if isinstance(item, slice)]
    if not advanced:
        return tuple(size for _, size in kept) + tuple(rest)
    broadcast = np.broadcast_shapes(*(np.shape(items[p]) for p in advanced))
    if advanced == list(range(advanced[0], advanced[-1] + 1)):
        before = [size for position, size in kept if position < advanced[0]]
        after = [size for position, size in kept if position > advanced[-1]]
        return (*before, *broadcast, *after, *rest)
    return (*broadcast, *(size for _, size in kept), *rest)


def key_text(key: tuple[Any, ...], indices: Sequence[str]) -> str:
    given = iter(indices)
    parts = []
    for item in key:
        if isinstance(item, str):
            parts.append(next(given))
        elif isinstance(item, tuple):
            parts.append(str(np.asarray(item).tolist()))
        elif isinstance(item, slice):
            text = ":".join("" if p is None else str(p) for p in (item.start, item.stop, item.step))
            parts.append((text.rstrip(":") if item.step is None else text) or ":")
        else:
            parts.append(str(item))
    return ", ".join(parts)


def _sympy_index(x: Array, *indices: Array, key: tuple[Any, ...] = ()) -> Array:
    first, key = _split(key)
    return np.asarray((x if first is None else x[first])[tuple(_items(key, indices))], dtype=object)


ROWS = [
    structural("index", 1, _index, _index_vjp, "IndexBackward0", dtype="keeps", jvp=_index_jvp, callable=False, index_from=1,
               sympy=_sympy_index, shape=index_shape, text=lambda args, key: f"{args[0]}[{key_text(key, args[1:])}]",
               shape_message=lambda label, shapes: f"index out of range for shape {tuple(shapes[0])}",
               examples=tuple(((shape,), {"key": key}) for shape, key in [
                   ((4,), ((0, 2),)), ((4,), ((3, 3, 0, 3),)), ((4,), ((-1, 0),)), ((2, 3), ((0, 1), (1, 0))),
                   ((2, 3), (slice(None), (2, 0, 2))), ((2, 3), ((1, 1),)), ((2, 3), (1, (0, 0))), ((2, 3, 2), (1, slice(None), (0, 0))),
                   ((2, 3, 2), ((1, 0), slice(None), (1, 1))), ((2, 3), (((0, 1), (1, 1)),))]),
                   reference="a[[1, 0, 1]]", reference_program="a[[1, 0, 1]]"),
]


# --- gather, take, index_select: the index is a tensor arg -----------------------------------


def _alike(x: Array, index: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    """x and index with the same leading (batch) axes."""
    x_lead, index_lead = x.ndim - ranks[0], index.ndim - ranks[1]
    if x_lead == index_lead:
        return x, index
    if x_lead:
        return x, np.broadcast_to(index, x.shape[:x_lead] + index.shape)
    return np.broadcast_to(x, index.shape[:index_lead] + x.shape), index


def _along(index: Array, axis: int) -> tuple[Array, ...]:
    """The key that picks `index` along `axis` and runs over every other axis (take_along_axis's)."""
    ndim = index.ndim
    key = [np.arange(n).reshape((1,) * a + (n,) + (1,) * (ndim - a - 1)) for a, n in enumerate(index.shape)]
    key[ndim + axis] = index
    return tuple(key)


def _gather_key(x: Array, index: Array, ranks: tuple[int, ...], dim: int) -> tuple[Array, tuple[Array, ...]]:
    rank = ranks[0]
    if rank == 0 or ranks[1] != rank:
        raise ValueError(f"gather takes an index with as many dims as its input ({rank}), got {ranks[1]}")
    (axis,) = point_axes(dim, rank)
    x, index = _alike(x, _whole(index), ranks)
    for a in range(-rank, 0):
        if a != axis and index.shape[a] > x.shape[a]:
            raise ValueError(f"gather's index has size {index.shape[a]} at dim {rank + a}, more than the input's "
                             f"{x.shape[a]}")
    _in_range(index, x.shape[axis], rank + axis, negative=False)  # (PyTorch's gather and index_select)
    return x, _along(index, axis)


def _gather(x: Array, index: Array, ranks: tuple[int, ...], dim: int = 0) -> Array:
    x, key = _gather_key(x, index, ranks, dim)
    return np.asarray(x[key])


def _gather_vjp(g: Array, ans: Array, x: Array, index: Array, ranks: tuple[int, ...], dim: int = 0
                ) -> tuple[Array, None]:
    wide, key = _gather_key(x, index, ranks, dim)
    cotangent = np.zeros_like(g, shape=wide.shape)
    np.add.at(cotangent, key, np.broadcast_to(g, ans.shape))  # a repeated index adds up, as GatherBackward0
    return cotangent, None


def _gather_shape(x: Shape, index: Shape, dim: int = 0) -> Shape:
    if len(x) == 0 or len(index) != len(x):
        raise ValueError("gather takes an index with as many dims as its input")
    point_axes(dim, len(x))
    return index


def _select_as_gather(x: Array, index: Array, ranks: tuple[int, ...], dim: int) -> tuple[Array, tuple[int, ...]]:
    """index_select's index, as gather's: its k entries along `dim`, the same across the other axes."""
    rank = ranks[0]
    if rank == 0 or ranks[1] > 1:
        raise ValueError("index_select takes an input of at least one dim and a 1-D index")
    (axis,) = point_axes(dim, rank)
    lead = index.ndim - ranks[1]
    k = index.shape[-1] if ranks[1] else 1
    index = np.reshape(index, index.shape[:lead] + (1,) * (rank + axis) + (k,) + (1,) * (-axis - 1))
    out = list(x.shape[x.ndim - rank:])
    out[axis] = k
    return np.broadcast_to(index, index.shape[:lead] + tuple(out)), (rank, rank)


def _index_select(x: Array, index: Array, ranks: tuple[int, ...], dim: int = 0) -> Array:
    index, ranks = _select_as_gather(x, index, ranks, dim)
    return _gather(x, index, ranks, dim)


def _index_select_vjp(g: Array, ans: Array, x: Array, index: Array, ranks: tuple[int, ...], dim: int = 0
                      ) -> tuple[Array, None]:
    index, ranks = _select_as_gather(x, index, ranks, dim)
    return _gather_vjp(g, ans, x, index, ranks, dim)


def _index_select_shape(x: Shape, index: Shape, dim: int = 0) -> Shape:
    if len(x) == 0 or len(index) > 1:
        raise ValueError("index_select takes an input of at least one dim and a 1-D index")
    (axis,) = point_axes(dim, len(x))
    return (*x[: len(x) + axis], index[0] if index else 1, *x[len(x) + axis + 1:])


def _take_key(x: Array, index: Array, ranks: tuple[int, ...]) -> tuple[Array, tuple[Array, ...], Shape]:
    """x flattened per point, the key into it, and the shape of the result."""
    index = _whole(index)
    x_lead, index_lead = x.ndim - ranks[0], index.ndim - ranks[1]
    _in_range(index, int(np.prod(x.shape[x_lead:], dtype=np.int64)), 0)
    if not x_lead and not index_lead:
        return x.reshape(-1), (index,), index.shape
    x, index = _alike(x, index, ranks)
    count = x.shape[0]
    flat = x.reshape(count, -1)
    return flat, (np.arange(count)[:, None], index.reshape(count, -1)), index.shape


def _take(x: Array, index: Array, ranks: tuple[int, ...]) -> Array:
    flat, key, shape = _take_key(x, index, ranks)
    return np.asarray(flat[key]).reshape(shape)


def _take_vjp(g: Array, ans: Array, x: Array, index: Array, ranks: tuple[int, ...]) -> tuple[Array, None]:
    flat, key, _ = _take_key(x, index, ranks)
    cotangent = np.zeros_like(g, shape=flat.shape)
    np.add.at(cotangent, key, np.reshape(np.broadcast_to(g, ans.shape), np.broadcast_shapes(*(k.shape for k in key))))
    return cotangent.reshape(flat.shape[:-1] + x.shape[x.ndim - ranks[0]:]), None


def _index_arg_jvp(forward: Any) -> Any:
    def jvp(tangents: Sequence[Array | None], ans: Array, x: Array, index: Array, **params: Any) -> Array:
        return np.zeros_like(ans) if tangents[0] is None else forward(tangents[0], index, **params)

    return jvp


def _sympy_gather(x: Array, index: Array, dim: int = 0) -> Array:
    return np.asarray(_gather(x, index, (x.ndim, index.ndim), dim), dtype=object)


_DIM = Param("dim", "int", aliases=("axis",))
_INDEX_SHAPES = ((-2.0, 2.0), (0.0, 0.0))  # (the tests sample index 0 everywhere)

ROWS += [
    structural("gather", 2, _gather, _gather_vjp, "GatherBackward0", dtype="keeps", jvp=_index_arg_jvp(_gather), index_from=1,
               params=(_DIM,), tensor_positions=(0, 2), inputs=("input", "index"), shape=_gather_shape, methods=("gather",),
               sympy=_sympy_gather, domain=_INDEX_SHAPES,
               examples=((((4,), (3,)), {"dim": 0}), (((2, 3), (2, 2)), {"dim": 1}), (((2, 3), (1, 3)), {"dim": -2})),
               reference="torch.gather(a, 0, b)", reference_program="gather(a, 0, b)"),
    structural("take", 2, _take, _take_vjp, "TakeBackward0", dtype="keeps", jvp=_index_arg_jvp(_take), index_from=1,
               shape=lambda x, index: index, methods=("take",), domain=_INDEX_SHAPES,
               sympy=lambda x, index: np.asarray(np.reshape(x, -1)[_whole(index)], dtype=object),
               examples=((((4,), (3,)), {}), (((2, 3), (2, 2)), {}))),
    structural("index_select", 2, _index_select, _index_select_vjp, "IndexSelectBackward0", dtype="keeps",
               jvp=_index_arg_jvp(_index_select), index_from=1, params=(_DIM,), tensor_positions=(0, 2),
               inputs=("input", "index"),
               shape=_index_select_shape, methods=("index_select",), domain=_INDEX_SHAPES,
               sympy=lambda x, index, dim=0: np.asarray(np.take(x, _whole(index), axis=dim), dtype=object),
               examples=((((4,), (3,)), {"dim": 0}), (((2, 3), (4,)), {"dim": 1}), (((2, 3), (2,)), {"dim": -2})),
               reference="torch.index_select(a, 0, b)", reference_program="index_select(a, 0, b)"),
]


# --- a boolean mask as the index: x[x > 0] ----------------------------------------------------
# The elements where the mask (a comparison's value, over x's first axes) holds, in order
# (PyTorch's IndexBackward0 with a bool index; NumPy's boolean indexing). How many depends on
# the point: the shape rule gives at most all of them; with --points, points that select as many
# are computed together, and points that select different counts are refused (a batch has one
# shape; run them one at a time).


def _mask_fits(x_point: Shape, mask_point: Shape) -> None:
    if len(mask_point) > len(x_point) or tuple(x_point[: len(mask_point)]) != tuple(mask_point):
        raise ValueError(f"the mask of shape {tuple(mask_point)} does not fit the first axes of shape {tuple(x_point)}")


def _masked(x: Array, mask: Array, ranks: tuple[int, ...]) -> tuple[Array, Array, int | None]:
    """(x, where the mask holds, the batch size or None), with the batch axis given to both."""
    x_rank, mask_rank = ranks
    _mask_fits(x.shape[x.ndim - x_rank:], mask.shape[mask.ndim - mask_rank:])
    x_batch, mask_batch = x.ndim > x_rank, mask.ndim > mask_rank
    if not (x_batch or mask_batch):
        return x, mask != 0, None
    count = x.shape[0] if x_batch else mask.shape[0]
    x = x if x_batch else np.broadcast_to(x, (count, *x.shape))
    picks = mask != 0 if mask_batch else np.broadcast_to(mask != 0, (count, *mask.shape))
    selected = picks.reshape(count, -1).sum(axis=1)
    if selected.size and selected.min() != selected.max():
        raise ValueError(f"the mask selects {selected.min()} elements at one point and {selected.max()} at another: "
                         "--points computes points of one shape together (give such points apart)")
    return x, picks, count


def _mask_index(x: Array, mask: Array, ranks: tuple[int, ...]) -> Array:
    x, picks, count = _masked(x, mask, ranks)
    out = x[picks]
    return out if count is None else out.reshape(count, -1, *out.shape[1:])


def _mask_index_vjp(g: Array, ans: Array, x: Array, mask: Array, ranks: tuple[int, ...]) -> tuple[Array, None]:
    x, picks, count = _masked(x, mask, ranks)
    cotangent = np.zeros_like(x * 0.0)
    cotangent[picks] = g if count is None else np.reshape(g, (-1, *np.shape(g)[2:]))
    return cotangent, None


def _mask_index_jvp(tangents: Sequence[Array | None], ans: Array, x: Array, mask: Array,
                    ranks: tuple[int, ...]) -> Array:
    t = tangents[0]
    return np.zeros_like(ans) if t is None else _mask_index(t, mask, ranks)


def _mask_index_shape(x: Shape, mask: Shape) -> Shape:
    _mask_fits(x, mask)  # (at most every element: the count is the point's)
    return (int(np.prod(mask, dtype=np.int64)), *x[len(mask):])


def _sympy_mask_index(x: Array, mask: Array) -> Array:
    return np.asarray(x[np.asarray(mask != 0, dtype=bool)], dtype=object)


ROWS += [
    structural("mask_index", 2, _mask_index, _mask_index_vjp, "IndexBackward0", jvp=_mask_index_jvp, callable=False,
               conditions=(1,), shape=_mask_index_shape, sympy=None,
               text=lambda args: f"{args[0]}[{args[1]} > -9]",
               shape_message=lambda label, shapes: "this boolean mask cannot select here",
               examples=(((((4,), (4,)), {})), ((((2, 3), (2, 3)), {})), ((((2, 3), (2,)), {}))),
               reference="a[b > 0]", reference_program="a[b > 0]"),
]
