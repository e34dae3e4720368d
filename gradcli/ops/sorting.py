"""The rows of sorting and selection: sort, argsort, msort, topk, kthvalue, mode, median, nanmedian,
cummax, cummin, aminmax.

The ones that give a tuple, (values, indices) as torch.max(x, dim) does (Op.parts, Op.fields), send
the values' gradient to the indices they picked (PyTorch's value_selecting_reduction_backward: a
scatter; cummax and cummin: a scatter_add), and their indices are integers that take none. Which
index a tie or a NaN gets is PyTorch's on CPU, bit for bit: sort is stable (NaN the largest), the
median with a dim the stable order's lower middle (the first NaN for median), topk what libstdc++'s
nth_element, sort and partial_sort leave where PyTorch calls them, and kthvalue what PyTorch's own
quick_select leaves: those are written out below, on Python lists, as their C++ does them.

Their rules act on the trailing `ranks[0]` axes of their arg (see core: rules never see a batch).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gradcli.ops import reductions
from gradcli.ops.core import (
    Array,
    Dialect,
    DimError,
    Param,
    ValueRefusal,
    kernel_refusal,
    point_axes,
    structural,
    torch_positional,
)

Less = Callable[[Any, Any], bool]

# --- libstdc++'s std::nth_element, std::sort, std::partial_sort and PyTorch's quick_select --------
# (on a list in place, `less` their comparator): the order they leave ties in is PyTorch's indices.


def _median_to_first(a: list, result: int, i: int, j: int, k: int, less: Less) -> None:
    if less(a[i], a[j]):
        if less(a[j], a[k]):
            a[result], a[j] = a[j], a[result]
        elif less(a[i], a[k]):
            a[result], a[k] = a[k], a[result]
        else:
            a[result], a[i] = a[i], a[result]
    elif less(a[i], a[k]):
        a[result], a[i] = a[i], a[result]
    elif less(a[j], a[k]):
        a[result], a[k] = a[k], a[result]
    else:
        a[result], a[j] = a[j], a[result]


def _partition_pivot(a: list, first: int, last: int, less: Less) -> int:
    mid = first + (last - first) // 2
    _median_to_first(a, first, first + 1, mid, last - 1, less)
    lo, hi, pivot = first + 1, last, a[first]
    while True:
        while less(a[lo], pivot):
            lo += 1
        hi -= 1
        while less(pivot, a[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _linear_insert(a: list, i: int, less: Less) -> None:
    value, j = a[i], i - 1
    while less(value, a[j]):
        a[j + 1] = a[j]
        j -= 1
    a[j + 1] = value


def _insertion_sort(a: list, first: int, last: int, less: Less) -> None:
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            value = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = value
        else:
            _linear_insert(a, i, less)


def _push_heap(a: list, first: int, hole: int, top: int, value: Any, less: Less) -> None:
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a: list, first: int, hole: int, length: int, value: Any, less: Less) -> None:
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, less)


def _make_heap(a: list, first: int, last: int, less: Less) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a: list, first: int, last: int, result: int, less: Less) -> None:
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a: list, first: int, middle: int, last: int, less: Less) -> None:
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def _partial_sort(a: list, first: int, middle: int, last: int, less: Less) -> None:
    _heap_select(a, first, middle, last, less)
    while middle - first > 1:
        middle -= 1
        _pop_heap(a, first, middle, middle, less)


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _std_sort(a: list, first: int, last: int, less: Less) -> None:
    if last - first < 2:
        return
    _introsort(a, first, last, 2 * _lg(last - first), less)
    if last - first > 16:
        _insertion_sort(a, first, first + 16, less)
        for i in range(first + 16, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _introsort(a: list, first: int, last: int, depth: int, less: Less) -> None:
    while last - first > 16:
        if depth == 0:
            _partial_sort(a, first, last, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort(a, cut, last, depth, less)
        last = cut


def _nth_element(a: list, first: int, nth: int, last: int, less: Less) -> None:
    if first == last or nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)


def _quick_select(a: list, k: int, greater: Less) -> None:
    """PyTorch's quick_select_template (kthvalue), `greater` its gt_or_nan."""
    low, high = 0, len(a) - 1
    while True:
        if high <= low:
            return
        if high == low + 1:
            if greater(a[low], a[high]):
                a[low], a[high] = a[high], a[low]
            return
        p = low + (high - low) // 2
        a[p], a[low + 1] = a[low + 1], a[p]
        if greater(a[low + 1], a[high]):
            a[low + 1], a[high] = a[high], a[low + 1]
        if greater(a[low], a[high]):
            a[low], a[high] = a[high], a[low]
        if greater(a[low + 1], a[low]):
            a[low + 1], a[low] = a[low], a[low + 1]
        i, j, pivot = low + 1, high, a[low]
        while True:
            i += 1
            while greater(pivot, a[i]):
                i += 1
            j -= 1
            while greater(a[j], pivot):
                j -= 1
            if j < i:
                break
            a[i], a[j] = a[j], a[i]
        a[low], a[j] = a[j], a[low]
        if j <= k:
            low = i
        if j >= k:
            high = j - 1


# --- the indices each op picks along the last axis of `y` (..., n): an int array (..., m) --------


def _greater(x: tuple[float, int], y: tuple[float, int]) -> bool:  # NaN the largest (PyTorch's comparators)
    return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]


def _smaller(x: tuple[float, int], y: tuple[float, int]) -> bool:
    return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _each_slice(y: Array, m: int, pick: Callable[[list[tuple[float, int]]], list[int]]) -> Array:
    out = np.zeros((*y.shape[:-1], m), dtype=np.int64)
    for index in np.ndindex(y.shape[:-1]):
        out[index] = pick([(float(v), i) for i, v in enumerate(y[index])])
    return out


def _sort_pick(y: Array, descending: bool = False, **_: Any) -> Array:
    # stable, NaN the largest: NumPy's stable argsort puts NaN last; descending, NaN first, ties in order
    if not descending:
        return np.argsort(y, axis=-1, kind="stable")
    nan = y != y
    return np.lexsort((np.where(nan, 0.0, -y), ~nan), axis=-1)


def _topk_pick(y: Array, k: int = 1, largest: bool = True, sorted: bool = True, **_: Any) -> Array:
    n, less = y.shape[-1], (_greater if largest else _smaller)

    def pick(queue: list[tuple[float, int]]) -> list[int]:  # PyTorch's topk_impl_loop
        if k * 64 <= n:
            _partial_sort(queue, 0, k, n, less)
        elif k:
            _nth_element(queue, 0, k - 1, n, less)
            if sorted:
                _std_sort(queue, 0, k - 1, less)
        return [i for _, i in queue[:k]]

    return _each_slice(y, k, pick)


def _kthvalue_pick(y: Array, k: int = 1, **_: Any) -> Array:
    def pick(queue: list[tuple[float, int]]) -> list[int]:
        _quick_select(queue, k - 1, _greater)
        return [queue[k - 1][1]]

    return _each_slice(y, 1, pick)


def _mode_pick(y: Array, **_: Any) -> Array:
    def pick(queue: list[tuple[float, int]]) -> list[int]:
        # PyTorch's CPU mode: std::sort by value alone, then the last of the first longest run of equal values
        _std_sort(queue, 0, len(queue), lambda a, b: a[0] < b[0])
        best, count, longest = 0, 0, 0
        for i, (value, index) in enumerate(queue):
            count += 1
            if i == len(queue) - 1 or value != queue[i + 1][0]:
                if count > longest:
                    best, longest = index, count
                count = 0
        return [best]

    return _each_slice(y, 1, pick)


def _median_pick(ignore_nan: bool) -> Any:
    def pick(y: Array, **_: Any) -> Array:
        # the stable order's lower middle (PyTorch's nth_element breaks ties by index); median: the first NaN
        nan = y != y
        order = np.argsort(y, axis=-1, kind="stable")
        count = np.sum(~nan, axis=-1, keepdims=True) if ignore_nan else y.shape[-1]
        middle = np.take_along_axis(order, np.maximum((count - 1) // 2, 0) + np.zeros_like(order[..., :1]), axis=-1)
        if ignore_nan:
            return middle
        return np.where(np.any(nan, axis=-1, keepdims=True), np.argmax(nan, axis=-1)[..., None], middle)

    return pick


def _cumulative_pick(largest: bool) -> Any:
    def pick(y: Array, **_: Any) -> Array:
        # PyTorch's cummax_cummin_helper: a NaN takes over, and stays until the next NaN; a tie moves the index on
        out = np.zeros(y.shape, dtype=np.int64)
        if y.shape[-1] == 0:
            return out
        best, where = y[..., 0], np.zeros(y.shape[:-1], dtype=np.int64)
        for i in range(1, y.shape[-1]):
            value = y[..., i]
            beats = (value >= best) if largest else (value <= best)
            take = (value != value) | ((best == best) & beats)
            best, where = np.where(take, value, best), np.where(take, i, where)
            out[..., i] = where
        return out

    return pick


# --- the rows: the picked values along one axis, and their indices --------------------------------


def _axis(name: str, dim: Any, rank: int) -> int:
    if dim is None:
        raise ValueError(f"{name}() takes a dim")
    return point_axes(dim, rank)[0] if rank else -1


class Selection:
    """An op that picks elements of its arg along one axis: `pick(y, **params)` gives their indices
    along the last axis of `y` (the axis moved there). `reduces`: one element each (kthvalue, median:
    the axis dropped unless keepdim)."""

    def __init__(self, name: str, pick: Any, reduces: bool = False, default_dim: Any = -1) -> None:
        self.name, self.pick, self.reduces, self.default_dim = name, pick, reduces, default_dim

    def indices(self, x: Array, rank: int, params: dict[str, Any]) -> tuple[Array, Array, int]:
        """(x with the axis last, the picked indices along it, the axis)."""
        axis = _axis(self.name, params.get("dim", self.default_dim), rank)
        plain = _plain(x)
        y = np.moveaxis(plain[..., None] if rank == 0 else plain, axis, -1)
        return y, np.asarray(self.pick(y, **params)), axis

    def placed(self, value: Array, rank: int, axis: int, keepdim: bool) -> Array:
        """A result along the last axis put back in its place (dropped where it reduces, or of a number)."""
        out = np.moveaxis(value, -1, axis)
        if rank == 0:
            return out[..., 0]
        return out if keepdim or not self.reduces else np.squeeze(out, axis)

    def gathered(self, g: Array, rank: int, axis: int, keepdim: bool) -> Array:
        """The inverse of placed: a cotangent with the axis last."""
        if rank == 0:
            g = g[..., None]
        elif self.reduces and not keepdim:
            g = np.expand_dims(g, axis)
        return np.moveaxis(g, axis, -1)

    def values(self, x: Array, rank: int, params: dict[str, Any]) -> Array:
        return self.jvp(x, x, rank, params)  # the picked elements (of a dual number too)

    def index_values(self, x: Array, rank: int, params: dict[str, Any]) -> Array:
        _, index, axis = self.indices(x, rank, params)
        return np.asarray(self.placed(index, rank, axis, params.get("keepdim", False)), dtype=float)

    def vjp(self, g: Array, x: Array, rank: int, params: dict[str, Any], adds: bool = False) -> Array:
        y, index, axis = self.indices(x, rank, params)

        def scatter(g: Array) -> Array:
            picked = np.broadcast_to(self.gathered(g, rank, axis, params.get("keepdim", False)), index.shape)
            out = np.zeros(y.shape, dtype=picked.dtype)
            if adds:  # scatter_add (cummax: an index picked more than once gets each g)
                lead = int(np.prod(y.shape[:-1], dtype=np.int64))
                base = (np.arange(lead) * y.shape[-1]).reshape((*y.shape[:-1], 1))
                np.add.at(out.reshape(-1), (base + index).reshape(-1), picked.reshape(-1))
            else:  # scatter into zeros (each index once: a -0.0 stays one)
                np.put_along_axis(out, index, picked, axis=-1)
            out = np.moveaxis(out, -1, axis)
            return out[..., 0] if rank == 0 else out

        return _linearly(scatter, g)

    def jvp(self, t: Array, x: Array, rank: int, params: dict[str, Any]) -> Array:
        _y, index, axis = self.indices(x, rank, params)

        def gather(t: Array) -> Array:
            tm = np.moveaxis(t[..., None] if rank == 0 else t, axis, -1)
            return self.placed(np.take_along_axis(tm, index, axis=-1), rank, axis, params.get("keepdim", False))

        return _linearly(gather, t)


def _plain(x: Any) -> Array:
    """A value as NumPy's array: a dual number's (the Hessian's) own value; which elements are picked is its alone."""
    return np.asarray(getattr(x, "primal", x))


def _linearly(f: Any, v: Any) -> Any:
    """f (linear, given the picked indices) of an array, or of a dual number's value and tangent each."""
    if hasattr(v, "primal"):
        from gradcli.dual import Dual

        return Dual(f(v.primal), None if v.tangent is None else f(v.tangent))
    return f(np.asarray(v))


DIM_LAST = Param("dim", "int", -1, aliases=("axis",))
DIM_INT = Param("dim", "int", None, aliases=("axis",))
KEEPDIM = Param("keepdim", "bool", False, aliases=("keepdims",))
DESCENDING = Param("descending", "bool", False)
STABLE = Param("stable", "bool", None)  # given (either way): PyTorch's sort.stable overload, SortBackward1
K = Param("k", "int", None)

_ALONG: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = (
    (((4,),), {}), (((2, 3),), {"dim": 0}), (((2, 3),), {}), (((),), {}))


def _k_shape(name: str, selection: Selection) -> Any:
    def shape(x: tuple[int, ...], k: Any = None, dim: Any = -1, keepdim: bool = False, part: int = 0, of: Any = None,
              **_: Any) -> tuple[int, ...]:
        axis = _axis(name, dim, len(x))
        size = x[axis] if x else 1
        if k is None:
            raise ValueError(f"{name}() missing required argument 'k'")
        if name == "topk":
            if not 0 <= k <= size:
                raise ValueRefusal("selected index k out of range")
        elif x and size == 0:  # (PyTorch's IndexError, before k's)
            raise DimError(f"kthvalue(): Expected reduction dim {axis % len(x)} to have non-zero size.")
        elif not 1 <= k <= size:
            raise ValueRefusal(f"kthvalue(): selected number k out of range for dimension {axis % len(x) if x else 0}")
        if not x:
            return ()
        out = list(x)
        if selection.reduces:
            out[axis] = 1
            return tuple(out) if keepdim else tuple(out[:axis] + out[axis + 1:] if axis != -1 else out[:-1])
        out[axis] = k
        return tuple(out)

    return shape


def _along_shape(name: str, reduces: bool, default_dim: Any = -1) -> Any:
    def shape(x: tuple[int, ...], dim: Any = default_dim, keepdim: bool = False, part: int = 0, of: Any = None,
              **_: Any) -> tuple[int, ...]:
        axis = _axis(name, dim, len(x))
        if not x:
            return ()
        if not reduces:
            return x
        if x[axis] == 0:  # (PyTorch's IndexError; nanmedian's says median)
            raise DimError(f"{name.removeprefix('nan')}(): Expected reduction dim {axis % len(x)} to have non-zero size.")
        return reductions._reduced_shape(x, dim, keepdim)

    return shape


def _tuple_row(name: str, selection: Selection, node: str, params: tuple[Param, ...], shape: Any,
               examples: Any, adds: bool = False, **fields: Any) -> Any:
    """One part of (values, indices), the `part` param saying which (see reductions._tuple_row)."""
    def forward(x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None, **given: Any) -> Array:
        return (selection.index_values if part % 2 else selection.values)(x, ranks[0], given)

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None,
            **given: Any) -> tuple[Array]:
        return (np.zeros_like(x) if part % 2 else selection.vjp(g, x, ranks[0], given, adds),)

    def jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None, **given: Any) -> Array:
        return np.zeros_like(ans) if part % 2 else selection.jvp(t[0], x, ranks[0], given)

    def text(args: Any, part: int = 0, of: Any = None, **given: Any) -> str:
        said = [f"{p.name}={given[p.name]!r}" for p in params if given.get(p.name, p.default) != p.default]
        return f"torch.{name}({', '.join([args[0], *said])})[{part}]"

    fields.setdefault("reference", f"torch.{name}(a)[0]")
    fields.setdefault("reference_program", fields["reference"])
    return structural(name, 1, forward, vjp, node, dtype="keeps", jvp=jvp, shape=shape, text=text, parts=2,
                      fields=("values", "indices"), integer_parts=(1,), params=params, kinked=True, methods=(name,),
                      examples=tuple((shapes, {**given, "part": 0}) for shapes, given in examples), **fields)


def _index_row(name: str, selection: Selection, params: tuple[Param, ...], shape: Any, **fields: Any) -> Any:
    def forward(x: Array, ranks: tuple[int, ...], **given: Any) -> Array:
        return selection.index_values(x, ranks[0], given)

    def no_gradient(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **given: Any) -> tuple[Array]:
        return (np.zeros_like(x),)

    def zero(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], **given: Any) -> Array:
        return np.zeros_like(ans)

    return structural(name, 1, forward, no_gradient, "None", jvp=zero, shape=shape, params=params, kinked=True,
                      methods=(name,), differentiable=False, integer_parts=(0,), examples=_ALONG, **fields)


def _values_row(name: str, selection: Selection, node: str, params: tuple[Param, ...], shape: Any,
                **fields: Any) -> Any:
    def forward(x: Array, ranks: tuple[int, ...], **given: Any) -> Array:
        return selection.values(x, ranks[0], given)

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **given: Any) -> tuple[Array]:
        return (selection.vjp(g, x, ranks[0], given),)

    def jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], **given: Any) -> Array:
        return selection.jvp(t[0], x, ranks[0], given)

    fields.setdefault("methods", (name,))
    return structural(name, 1, forward, vjp, node, dtype="keeps", jvp=jvp, shape=shape, params=params, kinked=True,
                      **fields)


# median and nanmedian of everything: the lower median, one value (MedianBackward0), its gradient
# split evenly among the elements equal to it, or among the NaNs where it is NaN (evenly_distribute_backward).
def _whole_median(ignore_nan: bool) -> Any:
    def forward(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
        rank = ranks[0]
        flat = np.reshape(x, (*x.shape[:x.ndim - rank], -1))
        if flat.shape[-1] == 0:
            return np.full(flat.shape[:-1], np.nan)
        index = _median_pick(ignore_nan)(flat)
        return np.take_along_axis(flat, index, axis=-1)[..., 0]

    return forward


def _even_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None,
              keepdim: bool = False) -> tuple[Array]:
    axes = tuple(range(-ranks[0], 0))
    kept = np.reshape(ans, np.shape(ans) + (1,) * ranks[0])
    mask = np.where(kept != kept, x != x, x == kept)
    count = np.sum(mask, axis=axes, keepdims=True)
    share = np.reshape(g, np.shape(g) + (1,) * ranks[0]) / np.maximum(count, 1)
    return (np.where(mask, share, 0.0),)


def _even_jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False) -> Array:
    axes = tuple(range(-ranks[0], 0))
    kept = np.reshape(ans, np.shape(ans) + (1,) * ranks[0])
    mask = np.where(kept != kept, x != x, x == kept)
    count = np.sum(mask, axis=axes, keepdims=True)
    return np.sum(np.where(mask, t[0], 0.0) / np.maximum(count, 1), axis=axes)


def _median_rows(name: str) -> list[Any]:
    ignore_nan = name == "nanmedian"
    selection = Selection(name, _median_pick(ignore_nan), reduces=True, default_dim=None)
    title = name.title()
    whole = structural(name, 1, _whole_median(ignore_nan), _even_vjp, f"{title}Backward0", dtype="keeps", jvp=_even_jvp,
                       shape=lambda x, dim=None, keepdim=False: (), params=(DIM_INT, KEEPDIM), kinked=True,
                       methods=(name,), with_dim=f"{name}_dim", examples=(((((4,),), {}), (((2, 3),), {}))),
                       # np.median: NumPy's, the mean of the two middle values, never a (values, indices) tuple
                       dialects=(Dialect("numpy", row=f"numpy_{name}", order=("dim",)),),
                       dtype_refusals=kernel_refusal("median_cpu", "bool input"))
    with_dim = _tuple_row(name, selection, f"{title}Backward1", (DIM_INT, KEEPDIM), _along_shape(name, True, None),
                          ((((2, 3),), {"dim": 0}), (((2, 3),), {"dim": -1, "keepdim": True}), (((4,),), {"dim": 0})),
                          reference=f"torch.{name}(a, 0)[0]")
    return [whole, _renamed(with_dim, f"{name}_dim", dtype_refusals=kernel_refusal("median_out", "bool input"))]


def _renamed(op: Any, name: str, **fields: Any) -> Any:
    import dataclasses

    return dataclasses.replace(op, name=name, callable=False, methods=(), **fields)


# aminmax: (min, max), each amin's and amax's values and gradients (split evenly among the ties, NaN
# where the result is NaN), one node of PyTorch's, AminmaxBackward0.
def _aminmax_row() -> Any:
    amin, amax = (next(op for op in reductions.ROWS if op.name == name) for name in ("amin", "amax"))

    def row(part: int) -> Any:
        return amax if part % 2 else amin

    def forward(x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False, part: int = 0,
                of: Any = None) -> Array:
        return row(part).forward(x, ranks, dim, keepdim)

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False,
            part: int = 0, of: Any = None) -> tuple[Array]:
        return tuple(row(part).vjp(g, ans, x, ranks, dim, keepdim))

    def jvp(t: Any, ans: Array, x: Array, ranks: tuple[int, ...], dim: Any = None, keepdim: bool = False,
            part: int = 0, of: Any = None) -> Array:
        assert amin.jvp is not None and amax.jvp is not None
        return (amax.jvp if part % 2 else amin.jvp)(t, ans, x, ranks, dim, keepdim)

    def shape(x: tuple[int, ...], dim: Any = None, keepdim: bool = False, part: int = 0, of: Any = None) -> Any:
        return reductions._nonempty_shape("aminmax")(x, dim, keepdim)

    def text(args: Any, dim: Any = None, keepdim: bool = False, part: int = 0, of: Any = None) -> str:
        said = ([f"dim={dim}"] if dim is not None else []) + (["keepdim=True"] if keepdim else [])
        return f"torch.aminmax({', '.join([args[0], *said])})[{part}]"

    return structural("aminmax", 1, forward, vjp, "AminmaxBackward0", dtype="keeps", jvp=jvp, shape=shape, text=text,
                      parts=2, fields=("min", "max"), params=(DIM_INT, KEEPDIM), kinked=True, methods=("aminmax",),
                      dialects=torch_positional(),
                      examples=((((4,),), {"part": 0}), (((2, 3),), {"dim": 0, "part": 1}),
                                (((2, 3),), {"dim": -1, "keepdim": True, "part": 0})),
                      reference="torch.aminmax(a)[0]", reference_program="torch.aminmax(a)[0]")


_SORT = Selection("sort", _sort_pick)
_MSORT = Selection("msort", _sort_pick, default_dim=0)
_TOPK = Selection("topk", _topk_pick)
_KTH = Selection("kthvalue", _kthvalue_pick, reduces=True)
_MODE = Selection("mode", _mode_pick, reduces=True)
_CUMMAX = Selection("cummax", _cumulative_pick(largest=True), default_dim=None)
_CUMMIN = Selection("cummin", _cumulative_pick(largest=False), default_dim=None)


def _sort_node(constant: Any, shapes: Any, stable: Any = None, **_: Any) -> str:
    return "SortBackward0" if stable is None else "SortBackward1"


ROWS = [
    _tuple_row("sort", _SORT, "SortBackward0", (DIM_LAST, DESCENDING, STABLE), _along_shape("sort", False),
               (*_ALONG, (((2, 3),), {"descending": True}), (((3,),), {"stable": True})), torch_node_rule=_sort_node,
               dialects=(*torch_positional("dim", "descending"),  # (stable= by keyword alone)
                         Dialect("numpy", row="sort_values", order=("dim",)))),
    # np.sort(m, axis): NumPy's sorted values alone, never PyTorch's (values, indices)
    _values_row("sort_values", _SORT, "SortBackward0", (DIM_LAST,), _along_shape("sort", False), examples=_ALONG,
                callable=False, methods=(), reference=None, text=lambda args, dim=-1: f"np.sort({args[0]}, {dim})"),
    _index_row("argsort", _SORT, (DIM_LAST, DESCENDING, STABLE), _along_shape("argsort", False),
               dialects=torch_positional("dim", "descending")),
    _values_row("msort", _MSORT, "SortBackward0", (), lambda x: x, examples=((((4,),), {}), (((2, 3),), {}))),
    _tuple_row("topk", _TOPK, "TopkBackward0", (K, DIM_LAST, Param("largest", "bool", True), Param("sorted", "bool", True)),
               _k_shape("topk", _TOPK), ((((4,),), {"k": 2}), (((2, 3),), {"k": 2, "dim": 0}),
                                        (((2, 3),), {"k": 1, "largest": False}), (((5,),), {"k": 3, "sorted": False})),
               reference="torch.topk(a, 1)[0]",
               dtype_refusals=(("bool input", "RuntimeError", "topk does not support bool dtypes on CPU"),)),
    _tuple_row("kthvalue", _KTH, "KthvalueBackward0", (K, DIM_LAST, KEEPDIM), _k_shape("kthvalue", _KTH),
               ((((4,),), {"k": 2}), (((2, 3),), {"k": 2, "dim": 0}), (((2, 3),), {"k": 3, "keepdim": True})),
               reference="torch.kthvalue(a, 1)[0]", dtype_refusals=kernel_refusal("kthvalue_cpu", "bool input")),
    _tuple_row("mode", _MODE, "ModeBackward0", (DIM_LAST, KEEPDIM), _along_shape("mode", True),
               ((((4,),), {}), (((2, 3),), {"dim": 0}), (((2, 3),), {"keepdim": True}), (((),), {}))),
    *_median_rows("median"),
    *_median_rows("nanmedian"),
    _tuple_row("cummax", _CUMMAX, "CummaxBackward0", (DIM_INT,), _along_shape("cummax", False, None),
               ((((4,),), {"dim": 0}), (((2, 3),), {"dim": 1}), (((2, 3),), {"dim": 0})), adds=True,
               reference="torch.cummax(a, 0)[0]"),
    _tuple_row("cummin", _CUMMIN, "CumminBackward0", (DIM_INT,), _along_shape("cummin", False, None),
               ((((4,),), {"dim": 0}), (((2, 3),), {"dim": 1}), (((2, 3),), {"dim": 0})), adds=True,
               reference="torch.cummin(a, 0)[0]"),
    _aminmax_row(),
]
