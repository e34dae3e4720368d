"""The rows of the ops on a value's structure: indexing and list literals (stack).

Their rules act on the trailing `ranks` axes of each arg (see core: rules never see a batch).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gradcli.ops.construct import MEMORY_FORMATS
from gradcli.ops.core import Array, DimError, Param, PythonValueError, ValueRefusal, point_axes, structural


def _full_key(x: Array, key: tuple[Any, ...], rank: int) -> tuple[Any, ...]:
    """The key of one point, taking every point along the axes before the point's own."""
    return (slice(None),) * (x.ndim - rank) + tuple(key)


def _getitem(x: Array, key: tuple[Any, ...], ranks: tuple[int, ...]) -> Array:
    return np.asarray(x[_full_key(x, key, ranks[0])])


def _getitem_vjp(g: Array, ans: Array, x: Array, key: tuple[Any, ...], ranks: tuple[int, ...]) -> tuple[Array]:
    cotangent = np.zeros_like(x)
    # basic indexing: no element is picked twice, so g is copied in (PyTorch's select/slice_backward: a -0 stays -0)
    cotangent[_full_key(x, key, ranks[0])] = g
    return (cotangent,)


def _getitem_torch_node(constant: Sequence[bool], shapes: object, key: tuple[Any, ...] = ()) -> str:
    # PyTorch indexes one axis at a time; its outermost node is that of the last item
    # that does something (a bare `:` and `...` do nothing; None adds an axis). Only `...`: an alias.
    acting = [k for k in key if k is not Ellipsis and not (isinstance(k, slice) and k == slice(None))]
    if not acting:
        return "AliasBackward0" if Ellipsis in key else "SliceBackward0"
    last = acting[-1]
    return "UnsqueezeBackward0" if last is None else "SelectBackward0" if isinstance(last, int) else "SliceBackward0"


def _getitem_shape(x: tuple[int, ...], key: tuple[Any, ...]) -> tuple[int, ...]:
    # Basic indexing of a stand-in that holds one number: a view, nothing allocated.
    return np.broadcast_to(np.zeros(()), x)[key].shape


def _key_text(key: tuple[Any, ...]) -> str:
    parts = []
    for item in key:
        if isinstance(item, slice):
            text = ":".join("" if p is None else str(p) for p in (item.start, item.stop, item.step))
            parts.append(text.rstrip(":") if item.step is None else text)
        else:
            parts.append("..." if item is Ellipsis else str(item))  # (None: "None")
    return ", ".join(p or ":" for p in parts)


def _stack_axis(dim: int, rank: int) -> int:
    """Where stack puts its new axis among the items' `rank` axes and it, counted from the end."""
    if not -rank - 1 <= dim <= rank:
        raise DimError(f"Dimension out of range (expected to be in range of [{-rank - 1}, {rank}], but got {dim})")
    return dim - rank - 1 if dim >= 0 else dim


def _stack(*items: Array, ranks: tuple[int, ...], dim: int = 0) -> Array:
    # The items have one shape at each point (tape.check_shapes refuses a ragged list); with
    # points, a constant item is spread over the points' axis.
    shape = max((item.shape for item in items), key=len)
    return np.stack([item if item.shape == shape else np.broadcast_to(item, shape) for item in items],
                    axis=_stack_axis(dim, ranks[0]))


def _stack_vjp(g: Array, ans: Array, *items: Array, ranks: tuple[int, ...], dim: int = 0) -> tuple[Array, ...]:
    # Views of g, one per item: np.take would copy all of g (a broadcast seed) for each item.
    return tuple(np.moveaxis(g, _stack_axis(dim, ranks[0]), 0))


def _stack_shape(*shapes: tuple[int, ...], dim: int = 0) -> tuple[int, ...]:
    for entry, shape in enumerate(shapes):
        if shape != shapes[0]:
            raise ValueRefusal(f"stack expects each tensor to be equal size, but got {list(shapes[0])} at entry 0 and "
                               f"{list(shape)} at entry {entry}", "the items of a list differ in shape")
    axis = len(shapes[0]) + 1 + _stack_axis(dim, len(shapes[0]))
    return (*shapes[0][:axis], len(shapes), *shapes[0][axis:])


def _stack_text(args: Sequence[str], dim: int = 0) -> str:
    """A list literal, or the call where it takes a dim: stack([a, b], dim=1)."""
    items = f"[{', '.join(args)}]"
    return items if dim == 0 else f"stack({items}, dim={dim})"


def _rounded(x: Array, dtype: str) -> Array:
    """A program's values (float64) rounded to `dtype`, held in float64 again; bfloat16 (which NumPy
    has not) as PyTorch rounds to it: to float32, then to the nearest of 8 bits of mantissa, ties to even."""
    if dtype != "bfloat16":
        return np.asarray(x, dtype=dtype).astype(np.result_type(x, np.float64))
    single = np.asarray(x, dtype=np.float32)
    bits = single.view(np.uint32)
    with np.errstate(over="ignore"):
        kept = ((bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) & np.uint32(0xFFFF0000)).astype(np.uint32)
    return np.where(np.isnan(single), single, kept.view(np.float32)).astype(np.float64)


def _copy(x: Array, ranks: tuple[int, ...], dtype: Any = None, **ignored: Any) -> Array:
    # (a program's values are float64: a float32 copy is its value rounded to float32, as PyTorch's is)
    return x if dtype is None else _rounded(x, dtype)


def _same_back(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], dtype: Any = None, **ignored: Any
               ) -> tuple[Array]:
    # The gradient of a copy in a narrower float comes in that dtype, as PyTorch's does (a program's
    # gradients are float64: rounded to it); `gradcli run`'s already has it.
    if dtype in ("float32", "float16", "bfloat16") and isinstance(g, (np.ndarray, np.float64)) and g.dtype == np.float64:
        return (_rounded(g, dtype),)
    return (g,)


def _clamped(x: Array, ranks: tuple[int, ...], min: float = 0.0, nonnegative: bool = False) -> Array:
    if nonnegative and np.any(x < 0):  # (gaussian_nll_loss's variance; NaN is let through, as PyTorch lets it)
        raise PythonValueError("var has negative entry/entries")
    return np.maximum(x, min)  # (a NaN stays NaN, as in PyTorch's clamp)


def _size(x: Array, ranks: tuple[int, ...], dim: int = 0) -> Array:
    # one number a point (the batch axes kept): the size of the axis; a number's is 1 (kl_div's
    # batchmean divides a 0-d input's sum by nothing, as PyTorch's does)
    size = float(np.shape(x)[point_axes(dim, ranks[0])[0]]) if ranks[0] else 1.0
    return np.full(np.shape(x)[: np.ndim(x) - ranks[0]], size)


ROWS = [
    # What cosine_similarity divides by: the norm cloned and clamped in place without a gradient
    # (PyTorch's CloneBackward0, whose gradient passes as it came). A part of that composite alone.
    structural("clamped_clone", 1, _clamped, lambda g, ans, x, ranks, **params: (g,), "CloneBackward0",
               jvp=lambda tangents, ans, x, ranks, **params: 0.0 * ans if tangents[0] is None else tangents[0],
               sympy=lambda x, **params: x, callable=False, reference=None,
               params=(Param("min", "float", 0.0), Param("nonnegative", "bool", False)),
               text=lambda args, min=0.0, **params: f"{args[0]}.clone().clamp_min_({min!r})",
               examples=((((3,),), {"min": 0.5}),)),
    # x.size(dim) as a value: what kl_div's batchmean divides by. A part of composites alone.
    structural("size", 1, _size, lambda g, ans, x, ranks, dim=0: (np.zeros_like(x),), "None",
               jvp=lambda tangents, ans, x, ranks, dim=0: np.zeros_like(ans), differentiable=False,
               sympy=lambda x, dim=0: np.asarray(float(x.shape[int(dim)]), dtype=object),
               integer_parts=(0,), callable=False, reference=None, params=(Param("dim", "int", 0),),
               shape=lambda x, dim=0: (point_axes(dim, len(x)) if x else (), ())[1],
               text=lambda args, dim=0: f"{args[0]}.size({dim})",
               examples=((((2, 3),), {"dim": 0}),)),
    # A copy in another dtype (x.double(), x.float(), x.to(torch.float32)): PyTorch's ToCopyBackward0,
    # the gradient sent back as it is (in the arg's dtype); none at all where the dtype is the arg's
    # own (dtype "param": the lowering gives the arg itself, as PyTorch returns self). In a program
    # (float64), x.float() is x rounded to float32, and what follows computes in float64 again.
    structural("to_copy", 1, _copy, _same_back, "ToCopyBackward0", callable=False, linear=True, dtype="param",
               sympy=lambda x, dtype=None, **ignored: x,
               params=(Param("dtype", "dtype", None), Param("non_blocking", "bool", False), Param("copy", "bool", False),
                       Param("memory_format", "str", None, choices=tuple(sorted(MEMORY_FORMATS))),
                       Param("device", "str", None, choices=("cpu",))),
               # PyTorch's Tensor.to(dtype, non_blocking, copy, memory_format) and to(device, dtype, ...)
               positional=(("dtype", "non_blocking", "copy", "memory_format"),
                           ("device", "dtype", "non_blocking", "copy", "memory_format")),
               methods=("to", "type", "double", "float", "half", "bfloat16", "long", "int", "short", "char", "byte", "bool"),
               method_params=tuple((method, (("dtype", dtype),)) for method, dtype in [
                   ("double", "float64"), ("float", "float32"), ("half", "float16"), ("bfloat16", "bfloat16"),
                   ("long", "int64"), ("int", "int32"), ("short", "int16"), ("char", "int8"), ("byte", "uint8"),
                   ("bool", "bool")]),
               text=lambda args, dtype=None, **ignored: f"{args[0]}.to(torch.{dtype})",
               examples=tuple(((shape,), {"dtype": "float64"}) for shape in [(), (3,), (2, 3)]),
               reference="a.to(torch.float32).double()", reference_program="a.float()"),
    structural("getitem", 1, _getitem, _getitem_vjp, "SelectBackward0", dtype="keeps",
               sympy=lambda x, key: np.asarray(x[key], dtype=object), callable=False, linear=True,
               torch_node_rule=_getitem_torch_node, shape=_getitem_shape,
               text=lambda args, key: f"{args[0]}[{_key_text(key)}]",
               shape_message=lambda label, shapes: f"index out of range for shape {tuple(shapes[0])}",
               examples=tuple(((shape,), {"key": key}) for shape, key in [
                   ((4,), (1,)), ((4,), (slice(1, 3),)), ((4,), (-1,)), ((5,), (slice(None, None, 2),)),
                   ((2, 3), (0, slice(1, None))), ((2, 3), (slice(None), 1)), ((2, 3), (1,)), ((4,), (None,)),
                   ((2, 3), (slice(None), None)), ((2, 3), (Ellipsis, 0)), ((2, 3, 2), (0, Ellipsis, None, 1))]),
                   reference="a[1]", reference_program="a[1]"),
    # A list literal `[a, b]`, and the call stack([a, b], dim) (torch.stack, np.stack).
    structural("stack", -1, _stack, _stack_vjp, "StackBackward0", dtype="keeps", list_keyword="tensors",
               sympy=lambda *xs, dim=0: np.stack(np.broadcast_arrays(*xs), axis=dim), aligns=True, linear=True,
               shape=_stack_shape, text=_stack_text, params=(Param("dim", "int", 0, aliases=("axis",)),),
               examples=((((), ()), {}), (((3,), (3,), (3,)), {}), (((2, 3), (2, 3)), {"dim": 1}),
                         (((3,), (3,)), {"dim": -1})), reference="torch.stack([a, b])", reference_program="[a, b]"),
]

