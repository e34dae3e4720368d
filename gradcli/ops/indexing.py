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

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from gradcli.ops.core import (
    Array,
    Dialect,
    DimError,
    Param,
    broadcast_shape,
    composite,
    point_axes,
    structural,
    torch_positional,
)

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


def _consumes(item: Any) -> int:
    """How many axes of the tensor an index item takes (None, a bool and ... none: ... takes what the others
    leave)."""
    if item is None or item is Ellipsis or isinstance(item, bool):
        return 0
    return item.ndim if isinstance(item, np.ndarray) and item.dtype == np.bool_ else 1


def _expand(key: tuple[Any, ...], rank: int) -> tuple[Any, ...]:
    """The key with its ... as the whole slices it stands for."""
    at = next((i for i, item in enumerate(key) if item is Ellipsis), None)
    if at is None:
        return key
    left = max(rank - sum(_consumes(item) for item in key), 0)
    return (*key[:at], *(slice(None),) * left, *key[at + 1:])


def _split(key: tuple[Any, ...], rank: int) -> tuple[tuple[Any, ...] | None, tuple[Any, ...]]:
    """PyTorch applies the ints and Nones of a key first, as selects and new axes of a view (x[1, :, [0, 0]] is
    x[1][:, [0, 0]]; NumPy would count the 1 among the arrays), then the rest on that view: (that first key or None,
    the rest; `rank` the tensor's rank at a point, for ...). A bool (a 0-d boolean tensor among the items,
    x[torch.tensor(True), 0]) is a new axis in the view, which the rest indexes with [0] (True) or [] (False), as
    PyTorch's applySlicing unsqueezes and records an index tensor there."""
    key = _expand(key, rank)
    if not any(isinstance(item, int) or item is None for item in key):
        return None, key
    first: tuple[Any, ...] = ()
    rest: tuple[Any, ...] = ()
    for item in key:
        if isinstance(item, bool):
            first, rest = (*first, None), (*rest, (0,) if item else ())
        elif isinstance(item, int):
            first += (item,)
        elif item is None:
            first, rest = (*first, None), (*rest, slice(None))
        else:
            first, rest = first + (slice(None),) * _consumes(item), (*rest, item)
    return first, rest


def _rank_after(first: tuple[Any, ...], rank: int) -> int:
    return rank - sum(isinstance(item, int) for item in first) + sum(item is None for item in first)


def _select(x: Array, first: tuple[Any, ...], rank: int) -> Array:
    point_shape = x.shape[x.ndim - rank:]
    consuming = sum(item is not None for item in first)
    if consuming > rank:
        raise IndexError(f"too many indices: {consuming} for {rank} axes")
    axis = 0
    for item in first:
        if isinstance(item, int):
            _in_range(np.asarray(item), point_shape[axis], axis)
        axis += item is not None
    return x[(slice(None),) * (x.ndim - rank) + first + (Ellipsis,)]  # (... keeps a 0-d view where all are ints)


def torch_view(array: Array, key: tuple[Any, ...]) -> tuple[Array, tuple[Any, ...]]:
    """PyTorch's reading of `array[key]` in two steps: (the view its ints and Nones make — NumPy's, so a write into it
    is a write into `array` — and the rest of the key, to index that view with); the key's items NumPy's (ints,
    slices, None, ..., int arrays, bool masks)."""
    first, rest = _split(key, array.ndim)
    return (array, rest) if first is None else (array[(*first, Ellipsis)], rest)


def torch_getitem(array: Array, key: tuple[Any, ...]) -> Array:
    """`array[key]` as PyTorch reads the key (torch_view)."""
    view, rest = torch_view(array, key)
    return view[rest]


def makes_view(key: tuple[Any, ...], shape: Shape) -> bool:
    """Does PyTorch's setitem write this key through a view (CopySlices): an int, a None, or a slice that is not the
    whole axis as written (x[0:], x[:9] of 3 are whole; x[-3:] is not: PyTorch looks at the numbers as written)?"""
    sizes = iter(shape)
    for item in _expand(key, len(shape)):
        if item is None or isinstance(item, int):  # (a bool too: a new axis of the view, x[torch.tensor(True), 0])
            return True
        if isinstance(item, slice):
            size = next(sizes, 0)
            if item.start not in (None, 0) or item.step not in (None, 1) or (item.stop is not None and item.stop < size):
                return True
        else:
            for _ in range(_consumes(item)):
                next(sizes, 0)
    return False


def _checked(items: list[Any], point_shape: Shape) -> list[Any]:
    consuming = sum(item is not None and item is not Ellipsis for item in items)
    if consuming > len(point_shape):
        raise IndexError(f"too many indices: {consuming} for {len(point_shape)} axes")
    axis = 0
    for item in items:  # (None takes no axis; ... the axes the other items leave: x[..., [0, 3]])
        if item is Ellipsis:
            axis += len(point_shape) - consuming
        elif isinstance(item, (np.ndarray, int)):
            _in_range(np.asarray(item), point_shape[axis], axis)
        axis += item is not None and item is not Ellipsis
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
    first, key = _split(key, ranks[0])
    if first is not None:
        x = _select(x, first, ranks[0])
        ranks = (_rank_after(first, ranks[0]), *ranks[1:])
    full, count, moves = _parts(x, key, indices, ranks)
    if count is not None and x.ndim == ranks[0]:
        x = np.broadcast_to(x, (count, *x.shape))
    out = x[full]
    if moves is not None:
        out = np.moveaxis(out, *moves)
    return np.asarray(out)


def _index_vjp(g: Array, ans: Array, x: Array, *indices: Array, ranks: tuple[int, ...],
               key: tuple[Any, ...] = ()) -> tuple[Array | None, ...]:
    first, rest = _split(key, ranks[0])
    if first is None:
        return (_scatter(g, ans, x, indices, ranks, rest), *[None] * len(indices))
    picked = _select(x, first, ranks[0])
    part = _scatter(g, ans, picked, indices, (_rank_after(first, ranks[0]), *ranks[1:]), rest)
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
    consuming = sum(_consumes(item) if item is not Ellipsis else 0 for item in key)
    if consuming > len(x):
        raise IndexError(f"too many indices: {consuming} for {len(x)} axes")
    first, key = _split(key, len(x))
    if first is not None:
        made: list[int] = []
        sizes = iter(x)
        for item in first:
            if item is None:
                made.append(1)
            elif isinstance(item, int):
                next(sizes)
            else:
                made.append(next(sizes))
        x = (*made, *sizes)
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
    if len(parts) == 1 and parts[0].startswith("[["):  # (a lone nested list is a tuple of indices: x[torch.tensor(...)])
        parts[0] = f"torch.tensor({parts[0]})"
    return ", ".join(parts)


def _sympy_index(x: Array, *indices: Array, key: tuple[Any, ...] = ()) -> Array:
    first, key = _split(key, np.ndim(x))
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


# --- PyTorch's checks of the index family, in its order and words ------------------------------------
# gather, index_select (and embedding, an index_select of the weight's rows), take, take_along_dim, index_copy,
# index_fill, index_add, index_reduce: each its own words and exception (a DimError is PyTorch's IndexError, a
# ValueError its RuntimeError), as its C++ checks say them, shapes first, then the index's values (`values`: the
# index, given by the forward; the shape rules check the shapes alone). Where PyTorch walks the index, the first
# bad one in order is named.


def _first_outside(values: Array | None, low: int, high: int) -> int | None:
    """The first of the index's values (in order) outside [low, high); None where all are inside."""
    if values is None or not np.size(values):
        return None
    flat = np.reshape(values, -1)
    outside = (flat < low) | (flat >= high)
    return int(flat[int(np.argmax(outside))]) if outside.any() else None


def _wrapped(dim: int, rank: int) -> int:
    """dim counted from 0 among `rank` dims (a number's one), PyTorch's IndexError out of range."""
    axes = point_axes(dim, rank)
    return axes[0] + rank if rank else 0


def _contiguous_strides(sizes: Sequence[int]) -> list[int]:
    strides: list[int] = []
    step = 1
    for n in reversed(sizes):
        strides.insert(0, step)
        step *= max(n, 1)
    return strides


def _restrided_empty(x: Shape, axis: int, count: int, itemsize: int) -> None:
    """index_fill and index_copy view an empty x with its dim's size set to the index's count and stride 0: a view
    no storage of zero bytes holds, PyTorch's setStorage error."""
    sizes = list(x or (1,))
    strides = _contiguous_strides(sizes)
    sizes[axis], strides[axis] = count, 0
    if int(np.prod(x, dtype=np.int64)) or not all(sizes):
        return
    needed = (1 + sum((n - 1) * s for n, s in zip(sizes, strides, strict=True))) * itemsize
    raise ValueError(f"setStorage: sizes {sizes}, strides {strides}, storage offset 0, and itemsize {itemsize} "
                     f"requiring a storage size of {needed} are out of bounds for storage of size 0")


def index_checks(name: str, x: Shape, index: Shape, dim: int | None = 0, source: Shape | None = None,
                 values: Array | None = None, itemsize: int = 8) -> None:
    """PyTorch's refusals of `name`(x, dim, index[, source]) at these shapes (and the index's values, if given)."""
    count = int(np.prod(index, dtype=np.int64))
    size = int(np.prod(x, dtype=np.int64))
    if name == "index_fill" and source:
        raise ValueError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {len(source)} "
                         "dimension(s).")
    if name == "take":
        if size == 0 and count:
            raise DimError("take(): tried to take from an empty tensor")
        bad = _first_outside(values, -size, size)
        if bad is not None:
            raise DimError(f"out of range: tried to access index {bad} on a tensor of {size} elements.")
        return
    if name == "embedding":  # (x: the weight; index_select of its rows at the indices flattened)
        if len(x) != 2:
            raise ValueError("'weight' must be 2-D")
        name, index, dim = "index_select", (count,), 0
    if name == "take_along_dim" and dim is not None:
        if len(x) != len(index):
            raise ValueError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                             f"but got {len(x)} dimensions for input, and {len(index)} dimensions for indices")
        if not x:
            _wrapped(dim, 0)
            raise DimError("Dimension specified as 0 but tensor has no dimensions")
    if dim is None:
        return
    axis = _wrapped(dim, len(x))
    along = (x or (1,))[axis]
    if name == "gather":
        if not count:
            return
        if max(len(index), 1) != max(len(x), 1):
            raise ValueError("Index tensor must have the same number of dimensions as input tensor")
        for d, (i, n) in enumerate(zip(index or (1,), x or (1,), strict=True)):
            if d != axis and i > n:
                raise ValueError(f"Size does not match at dimension {d} expected index {list(index)} to be no larger "
                                 f"than self {list(x)} apart from dimension {axis}")
        bad = _first_outside(values, 0, along)
        if bad is not None:
            raise ValueError(f"index {bad} is out of bounds for dimension {axis} with size {along}")
    elif name == "take_along_dim":
        rest = [(1 if a == axis else n) for a, n in enumerate(x)], [(1 if a == axis else n) for a, n in enumerate(index)]
        broadcast_shape([tuple(rest[0]), tuple(rest[1])])
        if count and not along:
            raise ValueError("ZeroDivisionError")  # (its indices are taken modulo the size of dim)
    elif name == "index_select":
        if len(index) > 1:
            raise DimError("index_select(): Index is supposed to be a vector")
        if not x and count != 1:
            raise ValueError(f"index_select(): Index to scalar can have only 1 value, got {count} value(s)")
        if len(x) > 1 and not count:
            return
        if len(x) > 1 and not size:
            if not along:
                raise ValueError("index_select(): self indexing axis dim should be positive")
            bad = _first_outside(values, 0, along)
            if bad is not None:
                raise ValueError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={along}")
        elif len(x) > 1 and axis == 1:  # (its kernel for dim 1 checks the whole index first)
            bad = _first_outside(values, 0, along)
            if bad is not None:
                raise ValueError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={along}")
        elif _first_outside(values, 0, along if len(x) > 1 else size) is not None:
            raise DimError("index out of range in self")
    elif name == "index_fill":
        if len(index) > 1:
            raise ValueError("Index has to be a vector/scalar")
        if values is not None:
            _restrided_empty(x, axis, count, itemsize)
        bad = _first_outside(values if size else None, -along, along)  # (an empty x is not walked)
        if bad is not None:
            raise DimError(f"index {bad} is out of bounds for dimension {axis} with size {along}")
    elif name == "index_copy":
        _index_copy_checks(x, index, axis, source or (), count, values, itemsize)
    else:  # index_add, index_reduce
        _index_func_checks(name, x, index, axis, source or (), count, values)


def _index_copy_checks(x: Shape, index: Shape, axis: int, source: Shape, count: int, values: Array | None,
                       itemsize: int) -> None:
    if len(index) > 1:
        raise DimError(f"index_copy_(): Index should have dimension 1 or 0 (got {len(index)})")
    if not source and count != 1:
        raise DimError(f"index_copy_(): When source is scalar, index should have one element (got {count})")
    if source and x and len(source) != len(x):
        raise DimError(f"index_copy_(): When source and destination are not scalars, their dimensionality must match. "
                       f"Source dimensionality ({len(source)}), destination dimensionality ({len(x)})")
    ours, theirs = list(x[:axis] + x[axis + 1:]), list(source[:axis] + source[axis + 1:])
    if ours != theirs:
        raise ValueError(f"index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
                         f"shape: {' '.join(map(str, ours))} at dimension {axis} and source slice shape: "
                         f"{' '.join(map(str, theirs))} at dimension 0.")
    if source and count != source[axis]:
        raise DimError(f"index_copy_(): Number of indices ({count}) should be equal to source.size(dim) "
                       f"({source[axis]})")
    if values is not None:
        _restrided_empty(x, axis, count, itemsize)
    along = (x or (1,))[axis]
    bad = _first_outside(values if int(np.prod(x, dtype=np.int64)) else None, 0, along)  # (an empty x is not walked)
    if bad is not None:
        raise DimError(f"index_copy_(): index {bad} is out of bounds for dimension {axis} with size {along}")


def _index_func_checks(name: str, x: Shape, index: Shape, axis: int, source: Shape, count: int,
                       values: Array | None) -> None:
    """index_add's and index_reduce's (PyTorch's index_func_meta_impl, then their kernels')."""
    if len(index) > 1:
        raise DimError(f"{name}_(): Index is supposed to be a vector, but got dim: {len(index)} with type: Long and "
                       f"size: {list(index)}")
    if axis != 0 and axis >= len(source):
        raise ValueError(f"{name}_(): Indexing dim {axis} is out of bounds of the source tensor with dim {len(source)}")
    if count != (source[axis] if source else 1):
        if not source:  # (its message reads source.size(dim) of a number)
            raise DimError(f"Dimension specified as {axis} but tensor has no dimensions")
        raise ValueError(f"{name}_(): Number of indices ({count}) should be equal to source.size(dim): "
                         f"({source[axis]}), for dim: {axis}")
    if x[:axis] + x[axis + 1:] != source[:axis] + source[axis + 1:] or len(x) != len(source):
        raise ValueError(f"source tensor shape must match self tensor shape, excluding the specified dimension. Got "
                         f"self.shape = {list(x)} source.shape = {list(source)}")
    along = (x or (1,))[axis]
    if name == "index_reduce" and len(x) > 1 and not along and count:
        raise DimError(f"select(): index 0 out of range for tensor of size {list(x)} at dimension {axis}")
    bad = _first_outside(values, 0, along)
    if bad is None:
        return
    if len(x) > 1 and name == "index_add":
        if int(np.prod(x, dtype=np.int64)):  # (an empty x is not walked)
            raise ValueError(f"index {bad} is out of bounds for dimension {axis} with size {along}")
        return
    raise DimError("index out of range in self")


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
    index = _whole(index)
    index_checks("gather", x.shape[x.ndim - ranks[0]:], index.shape[index.ndim - ranks[1]:], dim, values=index)
    if ranks[0] == 0 or ranks[1] == 0:  # (a number, or an index of one, as a vector of one)
        return _gather_key(x if ranks[0] else x[..., None], index if ranks[1] else index[..., None], (1, 1), 0)
    rank = ranks[0]
    (axis,) = point_axes(dim, rank)
    x, index = _alike(x, index, ranks)
    return x, _along(index, axis)


def _gather(x: Array, index: Array, ranks: tuple[int, ...], dim: int = 0) -> Array:
    if not np.size(index):  # (nothing picked: PyTorch does not read dim)
        return np.zeros_like(x, shape=np.broadcast_shapes(np.shape(index)[: np.ndim(index) - ranks[1]],
                                                          np.shape(x)[: np.ndim(x) - ranks[0]]) + index.shape[index.ndim - ranks[1]:])
    x, key = _gather_key(x, index, ranks, dim)
    shape = np.broadcast_shapes(*(np.shape(k) for k in key))
    return np.reshape(x[key], shape[:-1] if ranks[1] == 0 else shape)


def _gather_vjp(g: Array, ans: Array, x: Array, index: Array, ranks: tuple[int, ...], dim: int = 0
                ) -> tuple[Array, None]:
    if not np.size(index):
        return np.zeros_like(g, shape=np.shape(x)), None
    wide, key = _gather_key(x, index, ranks, dim)
    cotangent = np.zeros_like(g, shape=wide.shape)
    picked = np.broadcast_shapes(*(np.shape(k) for k in key))
    np.add.at(cotangent, key, np.reshape(np.broadcast_to(g, ans.shape), picked))  # a repeated index adds up (GatherBackward0)
    return (cotangent if ranks[0] else cotangent[..., 0]), None


def _gather_shape(x: Shape, index: Shape, dim: int = 0) -> Shape:
    index_checks("gather", x, index, dim)
    return index


def _select_as_gather(x: Array, index: Array, ranks: tuple[int, ...], dim: int) -> tuple[Array, tuple[int, ...]]:
    """index_select's index, as gather's: its k entries along `dim`, the same across the other axes."""
    rank, lead = ranks[0], index.ndim - ranks[1]
    index = _whole(index)
    index_checks("index_select", x.shape[x.ndim - rank:], index.shape[lead:], dim, values=index)
    if rank == 0:  # (a number: its one index picks it)
        return np.reshape(index, index.shape[:lead]), (0, 0)
    (axis,) = point_axes(dim, rank)
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
    index_checks("index_select", x, index, dim)
    if not x:
        return ()
    (axis,) = point_axes(dim, len(x))
    return (*x[: len(x) + axis], index[0] if index else 1, *x[len(x) + axis + 1:])


def _take_key(x: Array, index: Array, ranks: tuple[int, ...]) -> tuple[Array, tuple[Array, ...], Shape]:
    """x flattened per point, the key into it, and the shape of the result."""
    index = _whole(index)
    x_lead, index_lead = x.ndim - ranks[0], index.ndim - ranks[1]
    index_checks("take", x.shape[x_lead:], index.shape[index_lead:], values=index)
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


def _take_shape(x: Shape, index: Shape) -> Shape:
    index_checks("take", x, index)
    return index


def _index_arg_jvp(forward: Any) -> Any:
    def jvp(tangents: Sequence[Array | None], ans: Array, x: Array, index: Array, **params: Any) -> Array:
        return np.zeros_like(ans) if tangents[0] is None else forward(tangents[0], index, **params)

    return jvp


def _sympy_gather(x: Array, index: Array, dim: int = 0) -> Array:
    return np.asarray(_gather(x, index, (x.ndim, index.ndim), dim), dtype=object)


_DIM = Param("dim", "int", aliases=("axis",))
_DIM_ALONE = torch_positional("dim")  # (index_add's alpha=, gather's sparse_grad= by keyword alone)
_INDEX_SHAPES = ((-2.0, 2.0), (0.0, 0.0))  # (the tests sample index 0 everywhere)

ROWS += [
    structural("gather", 2, _gather, _gather_vjp, "GatherBackward0", dtype="keeps", jvp=_index_arg_jvp(_gather), index_from=1,
               # (sparse_grad=True: PyTorch's gradient is a sparse tensor, which gradcli has not)
               params=(_DIM, Param("sparse_grad", "absent", False, why="a sparse gradient: gradcli's are dense")), dialects=_DIM_ALONE,
               tensor_positions=(0, 2), inputs=("input", "index"), shape=_gather_shape, methods=("gather",),
               sympy=_sympy_gather, domain=_INDEX_SHAPES,
               examples=((((4,), (3,)), {"dim": 0}), (((2, 3), (2, 2)), {"dim": 1}), (((2, 3), (1, 3)), {"dim": -2})),
               reference="torch.gather(a, 0, b)", reference_program="gather(a, 0, b)"),
    structural("take", 2, _take, _take_vjp, "TakeBackward0", dtype="keeps", jvp=_index_arg_jvp(_take), index_from=1,
               shape=_take_shape, methods=("take",), domain=_INDEX_SHAPES,
               sympy=lambda x, index: np.asarray(np.reshape(x, -1)[_whole(index)], dtype=object),
               examples=((((4,), (3,)), {}), (((2, 3), (2, 2)), {})), inputs=('input', 'index')),
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
    if len(mask_point) > len(x_point):
        raise DimError(f"too many indices for tensor of dimension {len(x_point)}")
    for k, (size, mask_size) in enumerate(zip(x_point, mask_point)):
        if size != mask_size:  # (PyTorch's IndexError, in its words)
            raise DimError(f"The shape of the mask {list(mask_point)} at index {k} does not match the shape of the "
                           f"indexed tensor {list(x_point)} at index {k}")


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
    # added to the zeros, as PyTorch's index_put with accumulate: a -0.0 of g is 0.0 there
    cotangent[picks] += g if count is None else np.reshape(g, (-1, *np.shape(g)[2:]))
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
               reference="a[b > 0]", reference_program="a[b > 0]", dtype="keeps"),
]


# --- writing into a copy: scatter, scatter_add, scatter_reduce, index_add, index_copy, index_fill,
# index_reduce, put -------------------------------------------------------------------------------
# Each row's args are (the tensor written into, what is written, the index): PyTorch's order
# (x, dim, index, src) is the row's tensor_positions. Every one is a scatter along an axis (a
# _Write): the index_* rows spread their 1-D index over the source's shape (as index_select is a
# gather), put scatters along the flattened tensor. Each element of x and of what is written reaches
# one element of the result, so the VJP (PyTorch's, FunctionsManual's scatter_reduce_backward) is
# diagonal in each, and the JVP follows from it. Of two writes to one place the last one wins, as on
# PyTorch's CPU; a reduce combines them (NaN spreads).

_REDUCES = ("sum", "prod", "mean", "amax", "amin")
_IDENTITY = {"sum": 0.0, "mean": 0.0, "prod": 1.0, "amax": -np.inf, "amin": np.inf}


def _lined(arrays: Sequence[Any], ranks: Sequence[int]) -> list[Any]:
    """The arrays, each with the batch axis in front where any has one."""
    leads = [np.ndim(a) - rank for a, rank in zip(arrays, ranks, strict=True)]
    if not any(leads):
        return list(arrays)
    count = next(np.shape(a)[0] for a, lead in zip(arrays, leads, strict=True) if lead)
    return [a if lead else np.broadcast_to(a, (count, *np.shape(a))) for a, lead in zip(arrays, leads, strict=True)]


def _out_of_bounds(index: Array, size: int, dim: int, negative: bool = False) -> Array:
    """The index in range of a dim of `size` (negative ones from the end where `negative`), in PyTorch's words."""
    if index.size and (index.min() < (-size if negative else 0) or index.max() >= size):
        bad = int(index.min() if index.min() < (-size if negative else 0) else index.max())
        raise ValueError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    return np.where(index < 0, index + size, index) if negative else index


class _Write(NamedTuple):
    """One call as a scatter along `axis` of x (lined up, the batch axis in front where there is one)."""

    x: Any
    src: Any  # (of the index's shape)
    key: tuple[Array, ...]  # where each element of src goes in x
    axis: int
    reduce: str | None  # None: set
    include_self: bool
    x_shape: tuple[int, ...]  # the shapes the cotangents take back: x's and the written arg's, lined up
    src_shape: tuple[int, ...]
    spread: bool = False  # the written arg is one number for every place: its cotangent is their sum
    scale: float = 1.0  # what is written is the arg times this (index_add's alpha)
    weight: Array | None = None  # what of src's cotangent flows (index_fill's value: each place once)


def _greater(current: Any, new: Any) -> Any:  # PyTorch's amax step: a NaN written wins, a tie keeps what is there
    return np.where(np.isnan(new) | (current < new), new, current)


def _less(current: Any, new: Any) -> Any:
    return np.where(np.isnan(new) | (new < current), new, current)


_COMBINE = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": _greater, "amin": _less}


def _accumulate(combine: Any, out: Any, key: tuple[Array, ...], part: Any, axis: int) -> Any:
    """combine.at(out, key, part), in the index's order; one slice of the index at a time where combine is
    no ufunc (amax, amin: which of two equal zeros stays) or on the Hessian's dual numbers."""
    if isinstance(combine, np.ufunc) and type(out) is np.ndarray and type(part) is np.ndarray:
        combine.at(out, key, part)
        return out
    for k in range(np.shape(part)[axis]):  # (a slice writes each place once: the loop keeps the order)
        along: list[Any] = [slice(None)] * np.ndim(part)
        along[axis] = slice(k, k + 1)
        sub = tuple(a[tuple(along)] if a.shape[axis] != 1 else a for a in key)
        here = part[tuple(along)]
        out[sub] = out[sub] * here if combine is np.multiply else out[sub] + here if combine is np.add else combine(
            out[sub], here)
    return out


def _counts(write: _Write) -> Array:
    counts = np.full(np.shape(write.x), float(write.include_self))
    np.add.at(counts, write.key, 1.0)
    counts[counts == 0] = 1.0
    return counts


def _apply(write: _Write) -> Any:
    """x with src written at the key: set (reduce None), or combined with what is there."""
    out = np.copy(write.x)
    if not np.size(out):  # (nothing to write into: index_add of an empty self)
        return out
    reduce = write.reduce
    if reduce is None:
        out[write.key] = write.src
        return out
    if not write.include_self:
        identity: Any = _IDENTITY[reduce]
        if out.dtype.kind in "iub" and not np.isfinite(identity):
            identity = np.iinfo(np.int64).min if identity < 0 else np.iinfo(np.int64).max
        out[write.key] = identity
    out = _accumulate(_COMBINE[reduce], out, write.key, write.src, write.axis)
    if reduce == "mean":
        counts = _counts(write)
        out = out // counts.astype(out.dtype) if out.dtype.kind in "iu" else out / counts
    return out


def _apply_vjp(write: _Write, g: Any, ans: Any) -> tuple[Any, Any]:
    """(x's cotangent, src's), as PyTorch's backward of scatter, scatter_add and scatter_reduce."""
    key, x, src, reduce = write.key, write.x, write.src, write.reduce
    if not np.size(x):  # (index_add of an empty self: PyTorch's backward into src raises, Op.backward_problem)
        return g, np.zeros_like(src)
    if reduce is None:  # ScatterBackward0: grad.scatter(dim, index, 0), grad.gather(dim, index)
        gx = np.copy(g)
        gx[key] = 0.0
        return gx, g[key] if write.weight is None else g[key] * write.weight
    if reduce == "sum":
        gx, gsrc = g, g[key]
    elif reduce == "mean":
        counts = _counts(write)
        gx, gsrc = g / counts, g[key] / counts[key]
    elif reduce in ("amax", "amin"):  # shared evenly among the ties
        value = ans[key]
        self_is = np.asarray(x == ans, dtype=float)
        src_is = np.asarray(src == value, dtype=float)
        share = np.copy(self_is)
        np.add.at(share, key, src_is)
        distributed = g / share
        gx, gsrc = self_is * distributed, src_is * distributed[key]
    else:  # prod: where an element is 0, the product of the others
        masked_self = np.where(x == 0, 1.0, x)
        gx = g * _apply(write._replace(x=masked_self)) / masked_self
        src_zero = np.asarray(src == 0)
        zeros = np.zeros(np.shape(x))
        np.add.at(zeros, key, src_zero.astype(float))
        single = src_zero & (zeros[key] == 1)
        without = _apply(write._replace(src=np.where(single, 1.0, src)))
        gsrc = np.where(single, (g * without)[key], (g * ans)[key] / np.where(src_zero, 1.0, src))
    if not write.include_self:
        gx = np.copy(gx)
        gx[key] = 0.0
    return gx, gsrc if write.weight is None else gsrc * write.weight


def _back(write: _Write, gx: Any, gsrc: Any) -> tuple[Any, Any]:
    """The cotangents in the shapes of the args as lined up (call_vjp sums a batch axis they had not)."""
    if write.spread:  # one number written everywhere
        gsrc = np.sum(gsrc, axis=tuple(range(len(write.src_shape), np.ndim(gsrc))))
    elif np.shape(gsrc) != write.src_shape:
        if np.size(gsrc) == int(np.prod(write.src_shape)):
            gsrc = np.reshape(gsrc, write.src_shape)
        else:  # (src larger than the index: its first elements alone are written)
            full = np.zeros_like(gsrc, shape=write.src_shape)
            full[tuple(slice(0, n) for n in np.shape(gsrc))] = gsrc
            gsrc = full
    return np.reshape(gx, write.x_shape), gsrc if write.scale == 1.0 else gsrc * write.scale


def _write_rows(prepare: Any) -> tuple[Any, Any, Any]:
    """forward, vjp and jvp of a row whose call `prepare(*args, ranks=, **params)` makes a _Write."""
    def forward(*args: Any, ranks: tuple[int, ...], **params: Any) -> Array:
        write = prepare(*args, ranks=ranks, **params)
        return np.reshape(_apply(write), write.x_shape)

    def vjp(g: Any, ans: Any, *args: Any, ranks: tuple[int, ...], **params: Any) -> tuple[Any, ...]:
        write = prepare(*args, ranks=ranks, **params)
        answer = np.reshape(ans, np.shape(write.x))
        g = np.reshape(np.broadcast_to(g, np.shape(ans)), np.shape(write.x))
        return (*_back(write, *_apply_vjp(write, g, answer)), *[None] * (len(args) - 2))

    def jvp(tangents: Sequence[Any], ans: Any, *args: Any, ranks: tuple[int, ...], **params: Any) -> Array:
        write = prepare(*args, ranks=ranks, **params)
        dx, dsrc = _apply_vjp(write, np.ones(np.shape(write.x)), np.reshape(ans, np.shape(write.x)))
        out = np.zeros(np.shape(write.x))
        if tangents[0] is not None:  # (each tangent lined up as its arg is, by the same prepare)
            out = out + dx * prepare(tangents[0], *args[1:], ranks=ranks, **params).x
        if tangents[1] is not None:
            np.add.at(out, write.key, dsrc * prepare(args[0], tangents[1], *args[2:], ranks=ranks, **params).src)
        return np.reshape(out, np.shape(ans))

    return forward, vjp, jvp


def _scatter_write(x: Any, src: Any, index: Any, ranks: tuple[int, ...], name: str, reduce: str | None,
                   dim: int | None = None, include_self: bool = True) -> _Write:
    """scatter(x, dim, index, src) and its kin: src (a number: everywhere) written along dim where index says."""
    if dim is None or (name.endswith("_reduce") and reduce is None):
        raise ValueError(f"{name}() missing 1 required positional argument: '{'dim' if dim is None else 'reduce'}'")
    rank = ranks[0]
    if ranks[2] != rank:
        raise ValueError("Index tensor must have the same number of dimensions as self tensor")
    spread = ranks[1] == 0 and rank > 0  # scatter(x, 0, index, 2.0)
    if not spread and ranks[1] != rank:
        raise ValueError("Index tensor must have the same number of dimensions as src tensor")
    x, src, index = _lined([x, src, _whole(index)], ranks)
    x_shape, src_shape = np.shape(x), np.shape(src)
    if rank == 0:  # (numbers: as vectors of one)
        x, src, index, rank = np.reshape(x, (*x_shape, 1)), np.reshape(src, (*src_shape, 1)), index[..., None], 1
    (axis,) = point_axes(dim, rank)
    point_x, point_index = np.shape(x)[-rank:], index.shape[-rank:]
    point_src = point_index if spread else np.shape(src)[-rank:]
    if any(i > s or (d != rank + axis and i > n)
           for d, (i, s, n) in enumerate(zip(point_index, point_src, point_x, strict=True))):
        raise ValueError(f"Expected index {list(point_index)} to be no larger than self {list(point_x)} apart from "
                         f"dimension {rank + axis} and to be no larger size than src {list(point_src)}")
    index = _out_of_bounds(index, point_x[axis], rank + axis)
    if spread:
        src = np.broadcast_to(np.reshape(src, (*np.shape(src), *(1,) * rank)), index.shape)
    else:
        src = src[tuple(slice(0, n) for n in index.shape)]
    return _Write(x, src, _along(index, axis), axis, reduce, include_self, x_shape, src_shape, spread)


def _index_write(x: Any, source: Any, index: Any, ranks: tuple[int, ...], name: str, reduce: str | None,
                 dim: int | None = None, include_self: bool = True, alpha: float = 1.0, fill: bool = False) -> _Write:
    """index_add(x, dim, index, source) and its kin: source's slices written into x's slices along dim at the
    1-D index (index_fill: a number, everywhere), as a scatter of the index spread over source's shape."""
    if dim is None or (name.endswith("_reduce") and reduce is None):
        raise ValueError(f"{name}() missing 1 required positional argument: '{'dim' if dim is None else 'reduce'}'")
    index = _whole(index)
    points = [np.shape(a)[np.ndim(a) - r:] for a, r in zip((x, source, index), ranks, strict=True)]
    index_checks(name, points[0], points[2], dim, source=points[1], values=index, itemsize=np.asarray(x).dtype.itemsize)
    x, source, index = _lined([x, source, index], ranks)
    x_shape, src_shape = np.shape(x), np.shape(source)
    rank, lead = max(ranks[0], 1), np.ndim(x) - ranks[0]
    x = np.reshape(x, (*x_shape[:lead], *x_shape[lead:], *(1,) * (rank - ranks[0])))
    (axis,) = point_axes(dim, rank)
    index = np.reshape(index, (*index.shape[:lead], -1))
    count = index.shape[-1]
    if not np.size(x) and np.shape(x)[axis]:  # (an empty x, whose index PyTorch does not read: nothing is written)
        index = np.clip(index, 0, np.shape(x)[axis] - 1)
    elif not np.size(x) and np.ndim(source) - lead == rank:  # (none along dim: nothing either)
        index, count, source = index[..., :0], 0, np.take(source, np.arange(0), axis=np.ndim(source) + axis)
    index = _out_of_bounds(index, np.shape(x)[axis], rank + axis, negative=fill)
    wanted = list(np.shape(x)[lead:])
    wanted[axis] = count
    if fill:
        source = np.broadcast_to(np.reshape(source, (*src_shape, *(1,) * rank)), (*src_shape, *wanted))
    else:
        point = np.shape(source)[lead:] or (1,)
        if tuple(point) != tuple(wanted) and not (count == 1 and ranks[1] == 0 and ranks[0] == 0):
            raise ValueError(f"{name}(): Number of indices ({count}) should be equal to source.size(dim): "
                             f"({point[axis] if len(point) == rank else point}), for dim: {rank + axis}, and source "
                             f"{list(point)} should be self {list(np.shape(x)[lead:])} but along dim")
        source = np.reshape(source, (*np.shape(source)[:lead], *wanted))
    def spread(along: Array) -> Array:  # (lead..., count) -> source's shape, the same along every other axis
        laid = np.reshape(along, (*along.shape[:lead], *(1,) * (rank + axis), count, *(1,) * (-axis - 1)))
        return np.broadcast_to(laid, (*along.shape[:lead], *wanted))

    if alpha != 1.0:
        source = source * alpha
    weight = None
    if fill:  # a place filled twice takes the value's gradient once (PyTorch's: at the index made unique)
        order = np.argsort(index, axis=-1, kind="stable")
        ordered = np.take_along_axis(index, order, axis=-1)
        first = np.ones(index.shape, dtype=bool)
        np.put_along_axis(first, order, np.concatenate([first[..., :1], ordered[..., 1:] != ordered[..., :-1]], axis=-1),
                          axis=-1)
        weight = spread(first).astype(float)
    return _Write(x, source, _along(spread(index), axis), axis, reduce, include_self, x_shape, src_shape, fill,
                  alpha, weight)


def _index_add_backward_problem(shapes: list[Shape], flows: list[bool], given: list[bool], dim: int | None = None,
                                alpha: float = 1.0) -> str | None:
    """index_add's backward into the source is grad.index_select(dim, index): of a self with no slices along dim
    and some index, PyTorch's index_select raises."""
    x, _, index = shapes
    if not flows[1] or dim is None or len(x) < 2 or not math.prod(index):
        return None
    return "index_select(): self indexing axis dim should be positive" if x[dim] == 0 else None


def _put_write(x: Any, source: Any, index: Any, ranks: tuple[int, ...], accumulate: bool = False) -> _Write:
    """put(x, index, source, accumulate): source written into x flattened, at the index (negative: from the end)."""
    x, source, index = _lined([x, source, _whole(index)], ranks)
    x_shape, src_shape = np.shape(x), np.shape(source)
    lead = np.ndim(x) - ranks[0]
    size = int(np.prod(x_shape[lead:], dtype=np.int64))
    index = np.reshape(index, (*index.shape[:lead], -1))
    if int(np.prod(src_shape[lead:], dtype=np.int64)) != index.shape[-1]:  # (PyTorch's IndexErrors)
        raise DimError(f"put_(): Expected source and index to have the same number of elements, but got "
                       f"source.numel() = {int(np.prod(src_shape[lead:], dtype=np.int64))}, "
                       f"index.numel() = {index.shape[-1]}")
    if index.size and size == 0:
        raise DimError("put_(): Tried to put elements into an empty tensor")
    if index.size and (index.min() < -size or index.max() >= size):
        bad = int(index.max() if index.max() >= size else index.min())
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {size} elements.")
    index = np.where(index < 0, index + size, index)
    flat = np.reshape(x, (*x_shape[:lead], size))
    return _Write(flat, np.reshape(source, (*src_shape[:lead], -1)), _along(index, -1), -1,
                  "sum" if accumulate else None, True, x_shape, src_shape)


def _write_shape(x: Shape, *others: Shape, **params: Any) -> Shape:
    return x


def _index_write_shape(name: str) -> Any:
    def shape(x: Shape, source: Shape, index: Shape, dim: int | None = None, **params: Any) -> Shape:
        if dim is not None:
            index_checks(name, x, index, dim, source=source)
        return x

    return shape


def _scatter_node(plain: str, number: str) -> Any:
    return lambda constant, shapes, **params: number if constant[1] else plain


_DIM_GIVEN = Param("dim", "int", aliases=("axis",))  # (required: None says so)
_INCLUDE_SELF = Param("include_self", "bool", True)
# (PyTorch's torch. and method spellings take include_self= by keyword alone, and cannot do without reduce)
_NEEDS_REDUCE = (Dialect("torch", order=("dim", "reduce"), required=("reduce",)),
                 Dialect("method", order=("dim", "reduce"), required=("reduce",)))
_WRITE_DOMAIN = ((-2.0, 2.0), (-2.0, 2.0), (0.0, 0.0))  # (the tests sample index 0 everywhere)


def _write_row(name: str, prepare: Any, torch_node: str, params: tuple[Param, ...], examples: Any, reference: str,
               positions: tuple[int, ...] = (0, 3, 2), inputs: tuple[str, ...] = ("input", "src", "index"),
               **fields: Any) -> Any:
    forward, vjp, jvp = _write_rows(prepare)
    fields.setdefault("dtype", "keeps")
    fields.setdefault("shape", _index_write_shape(name) if name.startswith("index_") else _write_shape)
    return structural(name, 3, forward, vjp, torch_node, jvp=jvp, index_from=2, params=params,
                      tensor_positions=positions, inputs=inputs, methods=(name,),
                      domain=_WRITE_DOMAIN, sympy=None, examples=examples, reference=reference,
                      reference_program=reference.removeprefix("torch."), **fields)


def _partial(function: Any, **fixed: Any) -> Any:
    def prepare(*args: Any, ranks: tuple[int, ...], **params: Any) -> _Write:
        return function(*args, ranks=ranks, **fixed, **params)

    return prepare


_SCATTER_EXAMPLES = ((((3, 2), (1, 2), (1, 2)), {"dim": 0}), (((2, 3), (2, 1), (2, 1)), {"dim": 1}),
                     (((4,), (1,), (1,)), {"dim": -1}), (((2, 3), (), (1, 3)), {"dim": 0}))
_REDUCE_EXAMPLES = ((((3, 2), (2, 2), (2, 2)), {"dim": 0, "reduce": "sum"}),
                    (((3, 2), (2, 2), (2, 2)), {"dim": 0, "reduce": "prod"}),
                    (((2, 3), (2, 2), (2, 2)), {"dim": 1, "reduce": "mean", "include_self": False}),
                    (((3, 2), (2, 2), (2, 2)), {"dim": 0, "reduce": "amax"}),
                    (((3, 2), (2, 2), (2, 2)), {"dim": -2, "reduce": "amin", "include_self": False}),
                    (((3, 2), (2, 2), (2, 2)), {"dim": 0, "reduce": "prod", "include_self": False}))
_INDEX_EXAMPLES = ((((3, 2), (1, 2), (1,)), {"dim": 0}), (((2, 3), (2, 2), (2,)), {"dim": 1}),
                   (((), (), (1,)), {"dim": 0}))

ROWS += [
    _write_row("scatter", _partial(_scatter_write, name="scatter", reduce=None), "ScatterBackward0", (_DIM_GIVEN,),
               _SCATTER_EXAMPLES, "torch.scatter(a, 0, c, b)", torch_node_rule=_scatter_node("ScatterBackward0",
                                                                                             "ScatterBackward1"),
               scalar_overloads=frozenset({"ScatterBackward1"}), dtype="first",  # (a number src: in x's dtype)
               dtype_refusals=(("mixed 0 1", "RuntimeError", "scatter(): Expected self.dtype to be equal to src.dtype"),)),
    _write_row("scatter_add", _partial(_scatter_write, name="scatter_add", reduce="sum"), "ScatterAddBackward0",
               (_DIM_GIVEN,), _SCATTER_EXAMPLES[:3], "torch.scatter_add(a, 0, c, b)",
               dtype_refusals=(("mixed 0 1", "RuntimeError", "scatter(): Expected self.dtype to be equal to src.dtype"),)),
    _write_row("scatter_reduce", _partial(_scatter_write, name="scatter_reduce"), "ScatterReduceBackward0",
               (_DIM_GIVEN, Param("reduce", "str", None, choices=_REDUCES), _INCLUDE_SELF), _REDUCE_EXAMPLES,
               "torch.scatter_reduce(a, 0, c, b, 'amax')", dialects=_NEEDS_REDUCE,
               dtype_refusals=(("mixed 0 1", "RuntimeError", "scatter(): Expected self.dtype to be equal to src.dtype"),)),
    _write_row("index_add", _partial(_index_write, name="index_add", reduce="sum"), "IndexAddBackward0",
               (_DIM_GIVEN, Param("alpha", "float", 1.0)), (*_INDEX_EXAMPLES, (((2, 3), (2, 2), (2,)), {"dim": 1, "alpha": -2.0})),
               "torch.index_add(a, 0, c, b)", inputs=("input", "source", "index"), backward_problem=_index_add_backward_problem,
               dialects=_DIM_ALONE,
               dtype_refusals=(("mixed 0 1", "RuntimeError", "index_add_(): self ({0}) and source ({1}) must have the same scalar type"),)),
    _write_row("index_copy", _partial(_index_write, name="index_copy", reduce=None), "IndexCopyBackward0",
               (_DIM_GIVEN,), (*_INDEX_EXAMPLES[::2], (((2, 3), (2, 1), (1,)), {"dim": 1})), "torch.index_copy(a, 0, c, b)", inputs=("input", "source", "index"),
               dtype_refusals=(("mixed 0 1", "RuntimeError", "index_copy_(): self and source expected to have the same dtype, but got (self) {0} and (source) {1}"),)),
    _write_row("index_fill", _partial(_index_write, name="index_fill", reduce=None, fill=True), "IndexFillBackward1",
               (_DIM_GIVEN,), ((((3, 2), (), (1,)), {"dim": 0}), (((2, 3), (), (2,)), {"dim": -1}),
                               (((), (), (1,)), {"dim": 0})),
               "torch.index_fill(a, 0, c, b)", inputs=("input", "value", "index"),
               torch_node_rule=_scatter_node("IndexFillBackward1", "IndexFillBackward0"),
               scalar_overloads=frozenset({"IndexFillBackward0"}), dtype="first"),
    _write_row("index_reduce", _partial(_index_write, name="index_reduce"), "IndexReduceBackward0",
               (_DIM_GIVEN, Param("reduce", "str", None, choices=("prod", "mean", "amax", "amin")), _INCLUDE_SELF),
               ((((3, 2), (2, 2), (2,)), {"dim": 0, "reduce": "prod"}),
                (((2, 3), (2, 2), (2,)), {"dim": 1, "reduce": "mean", "include_self": False}),
                (((3, 2), (2, 2), (2,)), {"dim": 0, "reduce": "amax"}),
                (((3, 2), (2, 2), (2,)), {"dim": 0, "reduce": "amin", "include_self": False})),
               "torch.index_reduce(a, 0, c, b, 'prod')", inputs=("input", "source", "index"), dialects=_NEEDS_REDUCE,
               dtype_refusals=(("mixed 0 1", "RuntimeError", "index_reduce_(): self ({0}) and source ({1}) must have the same scalar type"),)),
    _write_row("put", _put_write, "PutBackward0", (Param("accumulate", "bool", False),),
               ((((3, 2), (1,), (1,)), {}), (((2, 3), (2, 2), (2, 2)), {"accumulate": True}), (((4,), (1,), (1,)), {})),
               "torch.put(a, c, b)", positions=(0, 2, 1), inputs=("input", "source", "index"),
               text=lambda args, accumulate=False: f"put({args[0]}, {args[2]}, {args[1]}{', True' * accumulate})",
               dtype_refusals=(("mixed 0 1", "RuntimeError", "put_(): self and source expected to have the same dtype, but got self.dtype = {0} and source.dtype = {1}"),)),
]


# --- take_along_dim: gather after broadcasting ------------------------------------------------------
# PyTorch's take_along_dim(x, index, dim) expands x and the index to one shape but along dim (an
# ExpandBackward0 under the GatherBackward0, even where nothing grows); without a dim, it gathers
# from both flattened (a ViewBackward0 under it). Where the shapes are not known (a tape for many
# points), it is one node.


def _along_sizes(x: Shape, index: Shape, dim: int) -> tuple[Shape, Shape]:
    """The sizes x and the index are expanded to: their broadcast shape, each keeping its own along dim."""
    index_checks("take_along_dim", x, index, dim)
    if not x:
        return x, index
    (axis,) = point_axes(dim, len(x))
    rest = np.broadcast_shapes(tuple(1 if a == len(x) + axis else n for a, n in enumerate(x)),
                               tuple(1 if a == len(x) + axis else n for a, n in enumerate(index)))
    return (tuple(x[a] if a == len(x) + axis else n for a, n in enumerate(rest)),
            tuple(index[a] if a == len(x) + axis else n for a, n in enumerate(rest)))


def _take_along_shape(x: Shape, index: Shape, dim: int | None = None) -> Shape:
    if dim is None:
        index_checks("take_along_dim", x, index, None)
        return (int(np.prod(index, dtype=np.int64)),)
    return _along_sizes(x, index, dim)[1]


def _take_along(x: Array, index: Array, ranks: tuple[int, ...], dim: int | None = None) -> Array:
    lead = x.ndim - ranks[0], index.ndim - ranks[1]
    if dim is None:
        return _gather(np.reshape(x, (*x.shape[: lead[0]], -1)), np.reshape(index, (*index.shape[: lead[1]], -1)),
                       (1, 1), 0)
    sx, si = _along_sizes(x.shape[lead[0]:], index.shape[lead[1]:], dim)
    index = _modulo_along(index, sx, dim)
    return _gather(np.broadcast_to(x, x.shape[: lead[0]] + sx), np.broadcast_to(index, index.shape[: lead[1]] + si),
                   (len(sx), len(si)), dim)


def _modulo_along(index: Array, x: Shape, dim: int) -> Array:
    """take_along_dim's indices modulo the size of dim (PyTorch's: -1 is the last, the size itself the first)."""
    return np.mod(_whole(index), x[point_axes(dim, len(x))[0]]) if x and np.size(index) else index


def _take_along_vjp(g: Array, ans: Array, x: Array, index: Array, ranks: tuple[int, ...], dim: int | None = None
                    ) -> tuple[Array, None]:
    lead = x.ndim - ranks[0], index.ndim - ranks[1]
    if dim is None:
        flat = np.reshape(x, (*x.shape[: lead[0]], -1))
        part, _ = _gather_vjp(g, ans, flat, np.reshape(index, (*index.shape[: lead[1]], -1)), (1, 1), 0)
        return np.reshape(part, (*np.shape(part)[: np.ndim(part) - 1], *x.shape[lead[0]:])), None
    sx, si = _along_sizes(x.shape[lead[0]:], index.shape[lead[1]:], dim)
    wide = np.broadcast_to(x, x.shape[: lead[0]] + sx)
    index = _modulo_along(index, sx, dim)
    part, _ = _gather_vjp(g, ans, wide, np.broadcast_to(index, index.shape[: lead[1]] + si), (len(sx), len(si)), dim)
    return _narrowed(part, np.ndim(part) - len(sx), x.shape[lead[0]:]), None


def _take_along_program(emit: Any, x: Any, index: Any, dim: int | None = None) -> Any:
    if dim is None:
        return emit("gather", emit("reshape", x, shape=(-1,)), emit("reshape", index, shape=(-1,)), dim=0)
    sx, si = emit.shape(x), emit.shape(index)
    if sx is None or si is None:
        return emit("take_along_dim_whole", x, index, dim=dim)
    wide, picks = _along_sizes(sx, si, dim)
    if sx and math.prod(si):  # (the indices modulo the size of dim: the index takes no gradient, so no node)
        index = emit("remainder", index, emit.tensor(sx[point_axes(dim, len(sx))[0]]))
    return emit("gather", emit("expand", x, size=wide), emit("expand", index, size=picks), dim=dim)


_TAKE_ALONG_EXAMPLES: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((3, 2), (2, 2)), {"dim": 0}), (((1, 3), (2, 2)), {"dim": 1}), (((2, 3), (1, 2)), {}),
                        (((2, 3), (1, 2)), {"dim": -1}))

ROWS += [
    structural("take_along_dim_whole", 2, _take_along, _take_along_vjp, "GatherBackward0", dtype="keeps",
               jvp=_index_arg_jvp(_take_along), index_from=1, params=(Param("dim", "int", None, aliases=("axis",)),),
               callable=False, reference=None, shape=_take_along_shape, domain=_INDEX_SHAPES,
               examples=_TAKE_ALONG_EXAMPLES, text=lambda args, dim=None: f"take_along_dim({', '.join(args)}, {dim})"),
    composite("take_along_dim", 2, _take_along_program, "GatherBackward0", dtype="keeps", index_from=1,
              params=(Param("dim", "int", None, aliases=("axis",)),), inputs=("input", "indices"), methods=("take_along_dim",),
              shape=_take_along_shape, domain=_INDEX_SHAPES, examples=_TAKE_ALONG_EXAMPLES, sympy=None,
              reference="torch.take_along_dim(a, b, 0)", reference_program="take_along_dim(a, b, 0)"),
]


# --- masked_select, masked_scatter: a boolean mask broadcast against x ------------------------------


def _mask_broadcast(x: Array, mask: Array, ranks: tuple[int, ...]) -> tuple[Array, Array, tuple[int, ...]]:
    """x and the mask broadcast to one shape (PyTorch's), as (x, mask, ranks) for the rows of a mask as x's first axes."""
    (x, mask) = _lined([x, mask], ranks)
    lead = x.ndim - ranks[0]
    point = np.broadcast_shapes(x.shape[lead:], mask.shape[lead:])
    return _widened(x, lead, point), _widened(mask, lead, point), (len(point), len(point))


def _narrowed(cotangent: Any, lead: int, own: Shape) -> Any:
    """The cotangent of a value widened to a point shape (_widened), summed back to its own (the lead axes kept)."""
    extra = np.ndim(cotangent) - lead - len(own)
    if extra:
        cotangent = np.sum(cotangent, axis=tuple(range(lead, lead + extra)))
    kept = tuple(lead + a for a, n in enumerate(own) if n == 1 and np.shape(cotangent)[lead + a] != 1)
    return np.sum(cotangent, axis=kept, keepdims=True) if kept else cotangent


def _widened(a: Any, lead: int, point: Shape) -> Any:
    """a (lead axes in front, then its own) broadcast to the point shape `point`, behind the lead axes."""
    own = np.shape(a)[lead:]
    a = np.reshape(a, (*np.shape(a)[:lead], *(1,) * (len(point) - len(own)), *own))
    return np.broadcast_to(a, (*np.shape(a)[:lead], *point))


def _masked_select(x: Array, mask: Array, ranks: tuple[int, ...]) -> Array:
    x, mask, ranks = _mask_broadcast(x, mask, ranks)
    return np.reshape(_mask_index(x, mask, ranks), (*x.shape[: x.ndim - ranks[0]], -1))


def _masked_select_vjp(g: Array, ans: Array, x: Array, mask: Array, ranks: tuple[int, ...]) -> tuple[Array, None]:
    wide, picks, wide_ranks = _mask_broadcast(x, mask, ranks)
    lead = wide.ndim - wide_ranks[0]
    return _narrowed(_mask_index_vjp(g, ans, wide, picks, wide_ranks)[0], lead, np.shape(x)[np.ndim(x) - ranks[0]:]), None


def _masked_select_shape(x: Shape, mask: Shape) -> Shape:
    return (int(np.prod(broadcast_shape([mask, x]), dtype=np.int64)),)  # (at most every element; PyTorch's order)


def _masked_scatter_parts(x: Any, mask: Array, source: Any, ranks: tuple[int, ...]) -> tuple[Any, Array, Any, int]:
    """x and the mask broadcast to one shape, source flattened (lined up), and the most places a point fills."""
    x, mask, source = _lined([x, mask, source], ranks)
    lead = np.ndim(x) - ranks[0]
    point = np.broadcast_shapes(np.shape(x)[lead:], mask.shape[lead:])
    picks = _widened(mask != 0, lead, point)
    counts = np.reshape(picks, (*picks.shape[:lead], -1)).sum(axis=-1)
    size = int(np.prod(np.shape(source)[lead:], dtype=np.int64))
    if counts.size and counts.max() > size:
        raise ValueError("Number of elements of source < number of ones in mask")
    return _widened(x, lead, point), picks, np.reshape(source, (*np.shape(source)[:lead], size)), lead


def _filled(picks: Array, flat: Any, lead: int) -> Array:
    """Which of source's elements (flattened) are written: the first as many as each point's mask holds."""
    counts = np.reshape(picks, (*picks.shape[:lead], -1)).sum(axis=-1)
    return np.arange(np.shape(flat)[-1]) < counts[..., None]


def _masked_scatter(x: Array, mask: Array, source: Array, ranks: tuple[int, ...]) -> Array:
    wide, picks, flat, lead = _masked_scatter_parts(x, mask, source, ranks)
    out = np.copy(wide)  # (np.copy: a dual number's tangent too)
    out[picks] = flat[_filled(picks, flat, lead)]  # (in order: point by point, each in its own order)
    return out


def _masked_scatter_vjp(g: Array, ans: Array, x: Array, mask: Array, source: Array, ranks: tuple[int, ...]
                        ) -> tuple[Array, None, Array]:
    _, picks, flat, lead = _masked_scatter_parts(x, mask, source, ranks)
    g = np.broadcast_to(g, np.shape(ans))
    gx = _narrowed(np.where(picks, 0.0, g), lead, np.shape(x)[np.ndim(x) - ranks[0]:])  # grad.masked_fill(mask, 0)
    gsource = np.zeros_like(g, shape=np.shape(flat))
    gsource[_filled(picks, flat, lead)] = g[picks]
    return gx, None, np.reshape(gsource, (*np.shape(flat)[:lead], *np.shape(source)[np.ndim(source) - ranks[2]:]))


def _masked_scatter_jvp(tangents: Sequence[Array | None], ans: Array, x: Array, mask: Array, source: Array,
                        ranks: tuple[int, ...]) -> Array:
    tx, _, ts = tangents
    return _masked_scatter(np.zeros_like(x) if tx is None else tx, mask, np.zeros_like(source) if ts is None else ts,
                           ranks)


ROWS += [
    structural("masked_select", 2, _masked_select, _masked_select_vjp, "MaskedSelectBackward0",
               jvp=_index_arg_jvp(_masked_select), dtype="keeps", conditions=(1,), shape=_masked_select_shape,
               methods=("masked_select",), inputs=("input", "mask"),
               examples=((((4,), (4,)), {}), (((2, 3), (3,)), {}), (((3,), (2, 3)), {})),
               reference="torch.masked_select(a, b != 0)", reference_program="masked_select(a, b != 0)"),
    structural("masked_scatter", 3, _masked_scatter, _masked_scatter_vjp, "MaskedScatterBackward0",
               jvp=_masked_scatter_jvp, dtype="keeps", conditions=(1,), shape=lambda x, mask, source: broadcast_shape(
                   [mask, x]), methods=("masked_scatter",), inputs=("input", "mask", "source"),
               examples=((((4,), (4,), (4,)), {}), (((2, 3), (3,), (2, 3)), {}), (((3,), (2, 3), (7,)), {})),
               reference="torch.masked_scatter(a, b != 0, c)", reference_program="masked_scatter(a, b != 0, c)",
               dtype_refusals=(("mixed 0 2", "RuntimeError", "masked_scatter: expected self and source to have same dtypes but got{0} and {2}"),)),
]
