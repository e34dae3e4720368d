"""Writes into a tensor's elements, as `gradcli run` records `y[k] = v` on a tensor with a graph.

PyTorch records such a write as a node that takes the tensor as it was and the value: CopySlices where
the key makes a view first (an int, a None, a slice short of the whole axis: indexing.makes_view) or the
write went through a view (its base takes the CopySlices, and the view is read again from the base:
AsStridedBackward0); else IndexPutBackward0 where the key has an index tensor or a mask, FillBackward3
where the whole tensor takes a number (`y[:] = 0`), CopyBackwards where it takes a tensor (`y[...] = t`,
t expanded first: ExpandBackward0). Both rows here name the elements by their flat positions in the tensor written
(`positions`, an int array of the region's shape, worked out by the run from the key and the view's
path), so one rule serves every key. The gradient of the tensor is g with the written elements zeroed;
the value's, g at those elements summed back to the value's shape. Neither row is a call of the formula
language (there is no assignment there): the run cases hold them to PyTorch.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from gradcli.ops.core import Array, Param, structural, unbroadcast
from gradcli.ops.shape import ROWS as _SHAPE_ROWS


def _batch(x: Array, ranks: tuple[int, ...]) -> int:
    return np.ndim(x) - ranks[0]


def _put(x: Array, value: Array, ranks: tuple[int, ...], positions: Array, node: str = "IndexPutBackward0") -> Array:
    lead = max(_batch(x, ranks), np.ndim(value) - ranks[1])
    shape = np.broadcast_shapes(np.shape(x)[: _batch(x, ranks)], np.shape(value)[: np.ndim(value) - ranks[1]])
    out = np.array(np.broadcast_to(x, (*shape, *np.shape(x)[_batch(x, ranks):])))
    flat = out.reshape(*shape, -1)
    point_value = np.asarray(value)
    if lead and np.ndim(value) > ranks[1]:  # a value per point: its batch axes before the region's
        point_value = point_value.reshape(*shape, *(1,) * (np.ndim(positions) - ranks[1]), *np.shape(value)[lead:])
    flat[..., positions] = np.broadcast_to(point_value, (*shape, *np.shape(positions)))
    return flat.reshape(out.shape)


def _put_vjp(g: Array, ans: Array, x: Array, value: Array, ranks: tuple[int, ...], positions: Array,
             node: str = "IndexPutBackward0") -> tuple[Array, Array]:
    lead = np.ndim(g) - ranks[0]
    flat = np.array(g).reshape(*np.shape(g)[:lead], -1)
    picked = np.array(flat[..., positions])  # (a copy: one position, an int key, indexes as a view of flat)
    flat[..., positions] = 0
    x_grad = unbroadcast(flat.reshape(np.shape(g)), np.shape(x))
    if lead and np.ndim(value) > ranks[1]:  # a value per point: the region's axes summed down to the value's
        extra = tuple(range(lead, lead + np.ndim(positions) - ranks[1]))
        picked = picked.sum(axis=extra) if extra else picked
        return x_grad, unbroadcast(picked, np.shape(value))
    return x_grad, unbroadcast(picked, np.shape(value))


def _put_shape(x: Any, value: Any, positions: Array, node: str = "IndexPutBackward0") -> Any:
    return x


def _read(x: Array, ranks: tuple[int, ...], positions: Array) -> Array:
    lead = _batch(x, ranks)
    return np.asarray(x).reshape(*np.shape(x)[:lead], -1)[..., positions]


def _read_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], positions: Array) -> tuple[Array]:
    lead = _batch(x, ranks)
    flat = np.zeros_like(np.asarray(g), shape=(*np.shape(g)[:lead], int(np.prod(np.shape(x)[lead:], dtype=np.int64))))
    where: tuple[Any, ...] = (*(slice(None),) * lead, positions)
    np.add.at(flat, where, g)
    return (flat.reshape(*np.shape(g)[:lead], *np.shape(x)[lead:]),)


def _copy_from(x: Array, source: Array, ranks: tuple[int, ...]) -> Array:
    return np.array(np.broadcast_to(source, np.shape(x)))


def _copy_from_vjp(g: Array, ans: Array, x: Array, source: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    return np.zeros_like(g), unbroadcast(g, np.shape(source))


_TRANSPOSE = next(row for row in _SHAPE_ROWS if row.name == "transpose")
_COMPARISONS = {"lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "eq": operator.eq,
                "ne": operator.ne}


def _compare(x: Array, other: Array, ranks: tuple[int, ...], op: str = "lt") -> Array:
    return np.asarray(_COMPARISONS[op](x, other)).astype(np.asarray(x).dtype)


def _compare_vjp(g: Array, ans: Array, x: Array, other: Array, ranks: tuple[int, ...],
                 op: str = "lt") -> tuple[Array, Array]:
    return np.zeros_like(g), np.zeros(np.shape(other))

ROWS = [
    structural("index_put", 2, _put, _put_vjp, "IndexPutBackward0", callable=False, linear=True, dtype="first",
               torch_node_rule=lambda constant, shapes, node="IndexPutBackward0", **params: node,
               shape=_put_shape, reference=None,
               text=lambda args, **params: f"{args[0]}[...] = {args[1]}"),
    structural("strided_read", 1, _read, _read_vjp, "AsStridedBackward0", callable=False, linear=True, dtype="keeps",
               shape=lambda x, positions: tuple(np.shape(positions)), reference=None,
               text=lambda args, **params: f"{args[0]}.as_strided(...)"),
    # t.copy_(src) (src broadcast to t's shape, in t's dtype) and t.zero_() of a tensor with a graph, or src with one:
    # the tensor as it was takes no gradient, src all of it (summed to its shape)
    structural("copy_from", 2, _copy_from, _copy_from_vjp, "CopyBackwards", callable=False, linear=True,
               dtype="first", shape=lambda x, source: x, reference=None,
               text=lambda args: f"{args[0]}.copy_({args[1]})"),
    structural("zero", 1, lambda x, ranks: np.zeros_like(x), lambda g, ans, x, ranks: (np.zeros_like(g),),
               "ZeroBackward0", callable=False, linear=True, dtype="keeps", shape=lambda x: x, reference=None,
               text=lambda args: f"{args[0]}.zero_()"),
    # t.lt_(v), t.eq_(v) ... of a tensor with a graph: its values 1 and 0 in its dtype, a node whose gradients are 0
    # (LtBackward0 of a number, LtBackward1 of a tensor)
    structural("compare_in_place", 2, _compare, _compare_vjp, "LtBackward1", callable=False, linear=True,
               dtype="first", shape=lambda x, other, op="lt": x, reference=None, differentiable=True,
               params=(Param("op", "str", "lt", choices=tuple(_COMPARISONS)),),
               torch_node_rule=lambda constant, shapes, op="lt": f"{op.capitalize()}Backward{0 if constant[1] else 1}",
               scalar_overloads=frozenset(f"{op.capitalize()}Backward0" for op in _COMPARISONS),
               text=lambda args, op="lt": f"{args[0]}.{op}_({args[1]})"),
    # t.transpose_(0, 1) in place (ATen's RNN layers turn a batch_first output so): TransposeBackward1
    structural("transpose_in_place", 1, _TRANSPOSE.forward, _TRANSPOSE.vjp, "TransposeBackward1", callable=False,
               linear=True, dtype="keeps", shape=_TRANSPOSE.shape, reference=None,
               text=lambda args, dim0=0, dim1=1: f"{args[0]}.transpose_({dim0}, {dim1})"),
]
