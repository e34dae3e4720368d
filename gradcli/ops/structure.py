"""The rows of the ops on a value's structure: @, dot, indexing and list literals (stack).

Their rules act on the trailing `ranks` axes of each arg (see core: rules never see a batch).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gradcli.ops.core import Array, Param, structural, sympy_total


def _matmul(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    # Lift 1-D operands to matrices (a row on the left, a column on the right), multiply,
    # and drop the lifted axes again: NumPy's matmul for 1-D and 2-D, batched.
    na, nb = ranks
    if na not in (1, 2) or nb not in (1, 2):
        raise ValueError(f"@ takes 1-D or 2-D operands, got {na}-D and {nb}-D")
    out = np.matmul(a[..., None, :] if na == 1 else a, b[..., :, None] if nb == 1 else b)
    if nb == 1:
        out = out[..., 0]
    if na == 1:
        out = out[..., 0] if nb == 1 else out[..., 0, :]
    return np.asarray(out)


def _matmul_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    na, nb = ranks
    a2 = a[..., None, :] if na == 1 else a
    b2 = b[..., :, None] if nb == 1 else b
    g2 = g
    if nb == 1:
        g2 = g2[..., None]
    if na == 1:
        g2 = g2[..., None, :]
    ga = np.matmul(g2, np.swapaxes(b2, -1, -2))
    gb = np.matmul(np.swapaxes(a2, -1, -2), g2)
    return (ga[..., 0, :] if na == 1 else ga), (gb[..., 0] if nb == 1 else gb)


def _matmul_torch_node(constant: Sequence[bool], shapes: Sequence[tuple[int, ...]] | None) -> str:
    if shapes is None:
        return "MmBackward0"
    ndims = (len(shapes[0]), len(shapes[1]))
    return {(2, 2): "MmBackward0", (2, 1): "MvBackward0", (1, 1): "DotBackward0"}.get(ndims, "MmBackward0")


def _matmul_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    if len(a) not in (1, 2) or len(b) not in (1, 2) or a[-1] != b[0]:
        raise ValueError("@ takes 1-D or 2-D operands whose inner sizes agree")
    return a[:-1] + b[1:]


def _cannot_take(label: str, shapes: Sequence[tuple[int, ...]]) -> str:
    return f"{label} cannot take shapes {' and '.join(str(tuple(s)) for s in shapes)}"


def _dot(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    if ranks != (1, 1) or a.shape[-1] != b.shape[-1]:
        raise ValueError("dot takes two 1-D vectors of one length")
    return np.asarray(np.einsum("...i,...i->...", a, b))


def _dot_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    return g[..., None] * b, g[..., None] * a


def _dot_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    if len(a) != 1 or a != b:
        raise ValueError("dot takes two 1-D vectors of one length")
    return ()


def _full_key(x: Array, key: tuple[Any, ...], rank: int) -> tuple[Any, ...]:
    """The key of one point, taking every point along the axes before the point's own."""
    return (slice(None),) * (x.ndim - rank) + tuple(key)


def _getitem(x: Array, key: tuple[Any, ...], ranks: tuple[int, ...]) -> Array:
    return np.asarray(x[_full_key(x, key, ranks[0])])


def _getitem_vjp(g: Array, ans: Array, x: Array, key: tuple[Any, ...], ranks: tuple[int, ...]) -> tuple[Array]:
    cotangent = np.zeros_like(x)
    cotangent[_full_key(x, key, ranks[0])] += g  # basic indexing: no element is picked twice
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
        raise ValueError(f"Dimension out of range (expected to be in range of [{-rank - 1}, {rank}], but got {dim})")
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
    if any(shape != shapes[0] for shape in shapes):
        raise ValueError("the items of a list differ in shape")
    axis = len(shapes[0]) + 1 + _stack_axis(dim, len(shapes[0]))
    return (*shapes[0][:axis], len(shapes), *shapes[0][axis:])


def _stack_text(args: Sequence[str], dim: int = 0) -> str:
    """A list literal, or the call where it takes a dim: stack([a, b], dim=1)."""
    items = f"[{', '.join(args)}]"
    return items if dim == 0 else f"stack({items}, dim={dim})"


ROWS = [
    structural("matmul", 2, _matmul, _matmul_vjp, "MmBackward0", bilinear=True,
               sympy=lambda a, b: np.asarray(np.matmul(a, b), dtype=object), symbol="@", precedence=20,
               callable=False, torch_node_rule=_matmul_torch_node, shape=_matmul_shape, shape_message=_cannot_take,
               examples=tuple((shapes, {}) for shapes in [((2, 3), (3, 4)), ((2, 3), (3,)), ((3,), (3, 2)),
                                                          ((3,), (3,))]), spellings=("matmul",), methods=("matmul",)),
    structural("dot", 2, _dot, _dot_vjp, "DotBackward0", bilinear=True,
               sympy=lambda a, b: sympy_total(a * b), shape=_dot_shape,
               shape_message=_cannot_take, examples=((((4,), (4,)), {}),), methods=("dot",)),
    structural("getitem", 1, _getitem, _getitem_vjp, "SelectBackward0",
               sympy=lambda x, key: np.asarray(x[key], dtype=object), callable=False, linear=True,
               torch_node_rule=_getitem_torch_node, shape=_getitem_shape,
               text=lambda args, key: f"{args[0]}[{_key_text(key)}]",
               shape_message=lambda label, shapes: f"index out of range for shape {tuple(shapes[0])}",
               examples=tuple(((shape,), {"key": key}) for shape, key in [
                   ((4,), (1,)), ((4,), (slice(1, 3),)), ((4,), (-1,)), ((5,), (slice(None, None, 2),)),
                   ((2, 3), (0, slice(1, None))), ((2, 3), (slice(None), 1)), ((2, 3), (1,)), ((4,), (None,)),
                   ((2, 3), (slice(None), None)), ((2, 3), (Ellipsis, 0)), ((2, 3, 2), (0, Ellipsis, None, 1))])),
    # A list literal `[a, b]`, and the call stack([a, b], dim) (torch.stack, np.stack).
    structural("stack", -1, _stack, _stack_vjp, "StackBackward0",
               sympy=lambda *xs, dim=0: np.stack(np.broadcast_arrays(*xs), axis=dim), aligns=True, linear=True,
               shape=_stack_shape, text=_stack_text, params=(Param("dim", "int", 0, aliases=("axis",)),),
               examples=((((), ()), {}), (((3,), (3,), (3,)), {}), (((2, 3), (2, 3)), {"dim": 1}),
                         (((3,), (3,)), {"dim": -1}))),
]

