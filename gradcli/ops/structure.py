"""The rows of the ops on a value's structure: indexing and list literals (stack).

Their rules act on the trailing `ranks` axes of each arg (see core: rules never see a batch).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from gradcli.ops.core import Array, structural


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
    # that does something (a bare `:` does nothing).
    acting = [k for k in key if not (isinstance(k, slice) and k == slice(None))]
    return "SelectBackward0" if acting and isinstance(acting[-1], int) else "SliceBackward0"


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
            parts.append(str(item))
    return ", ".join(p or ":" for p in parts)


def _stack(*items: Array, ranks: tuple[int, ...]) -> Array:
    # The items have one shape at each point (tape.check_shapes refuses a ragged list); with
    # points, a constant item is spread over the points' axis.
    shape = max((item.shape for item in items), key=len)
    return np.stack([item if item.shape == shape else np.broadcast_to(item, shape) for item in items],
                    axis=-1 - ranks[0])


def _stack_vjp(g: Array, ans: Array, *items: Array, ranks: tuple[int, ...]) -> tuple[Array, ...]:
    # Views of g, one per item: np.take would copy all of g (a broadcast seed) for each item.
    return tuple(np.moveaxis(g, -1 - ranks[0], 0))


def _stack_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    if any(shape != shapes[0] for shape in shapes):
        raise ValueError("the items of a list differ in shape")
    return (len(shapes), *shapes[0])


ROWS = [
    structural("getitem", 1, _getitem, _getitem_vjp, "SelectBackward0",
               sympy=lambda x, key: np.asarray(x[key], dtype=object), callable=False, linear=True,
               torch_node_rule=_getitem_torch_node, shape=_getitem_shape,
               text=lambda args, key: f"{args[0]}[{_key_text(key)}]",
               shape_message=lambda label, shapes: f"index out of range for shape {tuple(shapes[0])}",
               examples=tuple(((shape,), {"key": key}) for shape, key in [
                   ((4,), (1,)), ((4,), (slice(1, 3),)), ((4,), (-1,)), ((5,), (slice(None, None, 2),)),
                   ((2, 3), (0, slice(1, None))), ((2, 3), (slice(None), 1)), ((2, 3), (1,))])),
    structural("stack", -1, _stack, _stack_vjp, "StackBackward0",
               sympy=lambda *xs: np.stack(np.broadcast_arrays(*xs)), callable=False, aligns=True, linear=True,
               shape=_stack_shape, text=lambda args: f"[{', '.join(args)}]",
               examples=((((), ()), {}), (((3,), (3,), (3,)), {}))),
]

