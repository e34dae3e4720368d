"""A backward sweep recorded on the tape (create_graph=True): gradients that can be differentiated again.

The op table's VJP rules are NumPy code (gradcli/ops/). Run on `Recorded` values, each NumPy
ufunc or function a rule calls applies the row of the table that computes it (np.multiply is
`mul`, np.exp `exp`, np.broadcast_to `expand`, np.sum `sum` ...), eagerly, on the run's tape: the
gradient is made of nodes with PyTorch's names (the grad of x**3 is MulBackward0 over PowBackward0),
and a second backward runs through them as through any other node. No rule is written again: the
one VJP of each row is read as a program of rows, as gradcli.dual reads it on dual numbers.

A rule that calls what no row computes (np.add.at, a sort's indices ...) stops the sweep: the nodes
it made are taken off the tape again, and the file is told which op cannot be differentiated twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradcli import engine
from gradcli.ops import OPS, Op, backwards, call_vjp
from gradcli.ops.core import Number
from gradcli.run.tensor import Graph, Tensor, apply
from gradcli.tape import APPLY, CONST

Array = np.ndarray

# NumPy's ufuncs and the rows that compute them; a ufunc no row claims, by the row of its name (np.sign).
_UFUNC_ROWS = {ufunc: op for op in OPS.values() for ufunc in op.ufuncs}
_SPELLED: dict[Any, Callable[..., Any]] = {
    np.square: lambda x: x * x, np.reciprocal: lambda x: 1.0 / x, np.positive: lambda x: x,
    np.conjugate: lambda x: x,
}


_NP: Any = np  # (NumPy's stubs do not know that a ufunc hands a Recorded to its __array_ufunc__)


class Unsupported(Exception):
    """A VJP rule asked for what no row of the table computes (`op`: the row whose rule it was)."""

    def __init__(self, message: str, op: Op | None = None) -> None:
        super().__init__(message)
        self.op = op


class Recorded:
    """A run tensor as a VJP rule sees it: NumPy's protocols apply the table's rows to it, on the tape."""

    __slots__ = ("graph", "span", "tensor")
    __hash__ = None  # type: ignore[assignment]  # == compares values, elementwise

    def __init__(self, graph: Graph, tensor: Tensor, span: tuple[int, int]) -> None:
        self.graph, self.tensor, self.span = graph, tensor, span

    # --- what a rule reads of an array ---

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.tensor.data.shape)

    @property
    def ndim(self) -> int:
        return int(self.tensor.data.ndim)

    @property
    def size(self) -> int:
        return int(self.tensor.data.size)

    @property
    def dtype(self) -> np.dtype:
        return self.tensor.data.dtype

    def apply(self, row: str, *args: Any, **params: Any) -> Recorded:
        op = OPS[row] if row in OPS else backwards.BY_NAME[row]
        from gradcli.ops.core import rule_params

        return self.wrap(apply(self.graph, op, [self.operand(a) for a in args], rule_params(op, params), self.span))

    def wrap(self, tensor: Tensor) -> Recorded:
        return Recorded(self.graph, tensor, self.span)

    def operand(self, value: Any) -> Any:
        """A value a row is applied to: a run tensor, or a Python number (PyTorch's Scalar overloads)."""
        if isinstance(value, Recorded):
            return value.tensor
        if isinstance(value, Tensor):
            return value
        if isinstance(value, (bool, int)):
            return value
        if isinstance(value, (float, np.floating)) or (isinstance(value, np.ndarray) and value.ndim == 0
                                                       and value.dtype.kind == "f"):
            return float(value)
        array = np.asarray(value)
        if array.dtype.kind == "f":  # a constant the rule made: in the gradient's dtype, as PyTorch's would be
            array = array.astype(self.dtype)
        return Tensor(self.graph, array)

    # --- NumPy's protocols ---

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if method != "__call__" or "out" in kwargs:
            raise Unsupported(f"numpy.{ufunc.__name__}.{method}")
        if ufunc in _SPELLED:
            return _SPELLED[ufunc](*inputs)
        raw = [x.tensor.data if isinstance(x, Recorded) else x for x in inputs]
        with np.errstate(all="ignore"):
            value = ufunc(*raw, **kwargs)
        if np.asarray(value).dtype.kind == "b":
            return value  # a comparison, a mask: nothing to differentiate, no node (as PyTorch's rules)
        op = _UFUNC_ROWS.get(ufunc) or OPS.get(ufunc.__name__)
        if op is None or kwargs:
            raise Unsupported(f"numpy.{ufunc.__name__}")
        return self.apply(op.name, *inputs)

    def __array_function__(self, function: Any, types: Any, args: Any, kwargs: Any) -> Any:
        handler = _FUNCTIONS.get(function)
        if handler is None:
            raise Unsupported(f"numpy.{function.__name__}")
        return handler(self, *args, **kwargs)

    # --- Python's operators, as NumPy's ufuncs ---

    def __add__(self, other: Any) -> Any:
        return _NP.add(self, other)

    def __radd__(self, other: Any) -> Any:
        return _NP.add(other, self)

    def __sub__(self, other: Any) -> Any:
        return _NP.subtract(self, other)

    def __rsub__(self, other: Any) -> Any:
        return _NP.subtract(other, self)

    def __mul__(self, other: Any) -> Any:
        return _NP.multiply(self, other)

    def __rmul__(self, other: Any) -> Any:
        return _NP.multiply(other, self)

    def __truediv__(self, other: Any) -> Any:
        return _NP.divide(self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _NP.divide(other, self)

    def __pow__(self, other: Any) -> Any:
        return _NP.power(self, other)

    def __rpow__(self, other: Any) -> Any:
        return _NP.power(other, self)

    def __matmul__(self, other: Any) -> Any:
        return self.apply("matmul", self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return self.apply("matmul", other, self)

    def __neg__(self) -> Any:
        return _NP.negative(self)

    def __abs__(self) -> Any:
        return _NP.absolute(self)

    def __eq__(self, other: Any) -> Any:
        return np.asarray(self.tensor.data == _raw(other))

    def __ne__(self, other: Any) -> Any:
        return np.asarray(self.tensor.data != _raw(other))

    def __lt__(self, other: Any) -> Any:
        return np.asarray(self.tensor.data < _raw(other))

    def __le__(self, other: Any) -> Any:
        return np.asarray(self.tensor.data <= _raw(other))

    def __gt__(self, other: Any) -> Any:
        return np.asarray(self.tensor.data > _raw(other))

    def __ge__(self, other: Any) -> Any:
        return np.asarray(self.tensor.data >= _raw(other))

    # --- the array methods the rules call ---

    def sum(self, axis: Any = None, keepdims: bool = False) -> Recorded:
        return _sum(self, self, axis=axis, keepdims=keepdims)

    def reshape(self, *shape: Any) -> Recorded:
        return _reshape(self, self, shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape)

    @property
    def T(self) -> Recorded:
        return _transpose(self, self)

    def transpose(self, *axes: Any) -> Recorded:
        return _transpose(self, self, axes[0] if len(axes) == 1 and isinstance(axes[0], tuple) else axes or None)

    def astype(self, dtype: Any, copy: bool = True) -> Recorded:
        if np.dtype(dtype) == self.dtype:
            return self
        raise Unsupported("a cast inside the rule")

    def __getitem__(self, key: Any) -> Recorded:
        """Basic indexing (ints, slices, None, ...): the `getitem` row; an array as index has no row here."""
        key = key if isinstance(key, tuple) else (key,)
        if not all(k is None or k is Ellipsis or isinstance(k, (int, np.integer, slice)) for k in key):
            raise Unsupported("an index by an array inside the rule")
        key = tuple(int(k) if isinstance(k, np.integer) else k for k in key)
        return self.apply("getitem", self, key=key)


def _raw(value: Any) -> Any:
    return value.tensor.data if isinstance(value, Recorded) else value


def _owner(args: Sequence[Any]) -> Recorded:
    return next(a for a in args if isinstance(a, Recorded))


def _where(self: Recorded, condition: Any, a: Any, b: Any) -> Any:
    if isinstance(condition, (bool, np.bool_)):  # of Python numbers: PyTorch's C++ branches, no node
        chosen, _other = (a, b) if condition else (b, a)
        shape = np.broadcast_shapes(np.shape(_raw(a)), np.shape(_raw(b)))
        return _broadcast_to(self, chosen, shape) if isinstance(chosen, Recorded) else np.broadcast_to(chosen, shape)
    condition = np.asarray(_raw(condition), dtype=bool)
    if not isinstance(a, Recorded) and not isinstance(b, Recorded):
        return np.where(condition, a, b)
    return self.apply("where", Tensor(self.graph, condition), a, b)


def _broadcast_to(self: Recorded, x: Any, shape: Any) -> Any:
    x = x if isinstance(x, Recorded) else self.wrap(Tensor(self.graph, np.asarray(self.operand(x))))
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if x.shape == shape:
        return x
    return x.apply("expand", x, size=shape)


def _reshape(self: Recorded, x: Any, shape: Any) -> Any:
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if x.shape == shape:
        return x
    return x.apply("reshape", x, shape=shape)


def _sum(self: Recorded, x: Any, axis: Any = None, keepdims: bool = False, **rest: Any) -> Any:
    if rest.get("initial", 0.0) == 0.0:  # (-0.0: a sum of -0s is -0, as PyTorch's sum is)
        rest.pop("initial", None)
    if rest:
        raise Unsupported("numpy.sum with " + ", ".join(rest))
    if isinstance(axis, list):
        axis = tuple(axis)
    if axis == ():
        return x
    return x.apply("sum", x, dim=axis, keepdim=bool(keepdims))


def _mean(self: Recorded, x: Any, axis: Any = None, keepdims: bool = False, **rest: Any) -> Any:
    if rest:
        raise Unsupported("numpy.mean with " + ", ".join(rest))
    return x.apply("mean", x, dim=tuple(axis) if isinstance(axis, list) else axis, keepdim=bool(keepdims))


def _flip(self: Recorded, x: Any, axis: Any = None) -> Any:
    return x.apply("flip", x, dims=tuple(range(x.ndim)) if axis is None else axis)


def _cumsum(self: Recorded, x: Any, axis: Any = None, **rest: Any) -> Any:
    if axis is None or rest:
        raise Unsupported("numpy.cumsum of a flattened array")
    return x.apply("cumsum", x, dim=axis)


def _expand_dims(self: Recorded, x: Any, axis: Any) -> Any:
    axes = axis if isinstance(axis, tuple) else (axis,)
    ndim = x.ndim + len(axes)
    for position in sorted(a % ndim for a in axes):
        x = x.apply("unsqueeze", x, dim=position)
    return x


def _swapaxes(self: Recorded, x: Any, a: int, b: int) -> Any:
    return x.apply("transpose", x, dim0=a, dim1=b)


def _transpose(self: Recorded, x: Any, axes: Any = None) -> Any:
    order = tuple(range(x.ndim))[::-1] if axes is None else tuple(int(a) % max(x.ndim, 1) for a in axes)
    if order == tuple(range(x.ndim)):
        return x
    if x.ndim == 2:
        return x.apply("t", x)
    return x.apply("permute", x, dims=order)


def _moveaxis(self: Recorded, x: Any, source: Any, destination: Any) -> Any:
    order = list(np.moveaxis(np.arange(x.ndim), source, destination))
    return _transpose(self, x, order)


def _squeeze(self: Recorded, x: Any, axis: Any = None) -> Any:
    if axis is None:
        return _reshape(self, x, tuple(n for n in x.shape if n != 1))
    if isinstance(axis, int) and x.shape[axis] == 1:  # (PyTorch's squeeze(dim): SqueezeBackward1)
        return x.apply("squeeze", x, dim=axis)
    axes = axis if isinstance(axis, tuple) else (axis,)
    return _reshape(self, x, tuple(n for i, n in enumerate(x.shape) if i not in {a % x.ndim for a in axes}))


def _matmul(self: Recorded, a: Any, b: Any, **rest: Any) -> Any:
    if rest:
        raise Unsupported("numpy.matmul with " + ", ".join(rest))
    return self.apply("matmul", a, b)


_FUNCTIONS: dict[Any, Callable[..., Any]] = {
    np.where: _where,
    np.broadcast_to: _broadcast_to,
    np.reshape: _reshape,
    np.sum: _sum,
    np.expand_dims: _expand_dims,
    np.swapaxes: _swapaxes,
    np.matmul: _matmul,
    np.mean: _mean,
    np.flip: _flip,
    np.cumsum: _cumsum,
    np.transpose: _transpose,
    np.moveaxis: _moveaxis,
    np.squeeze: _squeeze,
    np.copy: lambda self, x, **kw: x,
    np.shape: lambda self, x: x.shape,
    np.ndim: lambda self, x: x.ndim,
    np.size: lambda self, x: x.size,
    np.zeros_like: lambda self, x, **kw: np.zeros_like(_raw(x), **kw),
    np.ones_like: lambda self, x, **kw: np.ones_like(_raw(x), **kw),
    np.asarray: lambda self, x, *a, **kw: x,
}


# --- the rules that write into an array: their programs of rows -----------------------------------


def _pad_axis(g: Recorded, axis: int, before: int, after: int) -> Recorded:
    """g with zeros before and after along `axis` (F.pad's pairs run from the last axis back)."""
    if before == after == 0:
        return g
    pairs = [0] * (2 * (g.ndim - axis))
    pairs[-2:] = [before, after]
    return g.apply("pad", g, pad=tuple(pairs))


def _getitem_program(g: Recorded, ans: Any, x: Recorded, key: tuple[Any, ...] = (), **rest: Any) -> tuple[Recorded]:
    """Basic indexing's VJP (ops.structure writes g into zeros): g put back in place, axis by axis,
    zeros padded around what the key took (a step s: each element padded to s, then the axis merged)."""
    at = key.index(Ellipsis) if Ellipsis in key else len(key)
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    key = key[:at] + (slice(None),) * (x.ndim - used) + key[at + 1:]
    axis = 0  # the axis of g (and of x) the next key item acts on
    for item in key:
        if item is None:
            g = g.apply("squeeze", g, dim=axis)
            continue
        size = x.shape[axis]
        if isinstance(item, slice):
            start, stop, step = item.indices(size)
            if step < 0:
                raise Unsupported("an index with a negative step")
            count = len(range(start, stop, step))
            if step > 1 and count:
                g = g.apply("unsqueeze", g, dim=axis + 1)
                g = _pad_axis(g, axis + 1, 0, step - 1)
                g = g.apply("reshape", g, shape=(*g.shape[:axis], count * step, *g.shape[axis + 2:]))
                if start + count * step > size:
                    g = g.apply("narrow", g, dim=axis, start=0, length=size - start)
                g = _pad_axis(g, axis, start, max(size - start - count * step, 0))
            else:
                g = _pad_axis(g, axis, start, size - start - count)
        else:
            index = int(item) % size
            g = _pad_axis(g.apply("unsqueeze", g, dim=axis), axis, index, size - index - 1)
        axis += 1
    return (g,)


def _fused(row: Op) -> Callable[..., tuple[Any, ...]]:
    """The VJP of an op as PyTorch's one backward kernel (ops/backwards.py): row(g, saved output), or row(g, input,
    the op's params) where PyTorch's kernel saves the input."""
    def program(g: Recorded, ans: Recorded, *args: Any, **params: Any) -> tuple[Any, ...]:
        if row.name in backwards.SAVES_INPUT:  # (softplus_backward(grad, self, beta, threshold))
            return (g.apply(row.name, g, args[0], **params),)
        return (g.apply(row.name, g, ans),)

    return program


# Rows whose VJP writes into an array (NumPy's item assignment, which no protocol reaches), and rows
# whose VJP PyTorch records as one node of its own.
_PROGRAMS: dict[str, Callable[..., tuple[Any, ...]]] = {
    "getitem": _getitem_program,
    **{op.backward_of: _fused(op) for op in backwards.ROWS if op.backward_of is not None},
}


def _sum_to(g: Recorded, shape: tuple[int, ...]) -> Recorded:
    """A gradient of a broadcast shape summed to its input's (PyTorch's sum_to, call_vjp's unbroadcast)."""
    if g.shape == shape:
        return g
    extra = g.ndim - len(shape)
    if extra:
        g = g.sum(axis=tuple(range(extra)))
    kept = tuple(axis for axis, size in enumerate(shape) if size == 1 and g.shape[axis] != 1)
    return g.sum(axis=kept, keepdims=True) if kept else g


# --- the sweep ------------------------------------------------------------------------------------


def backward(graph: Graph, roots: Sequence[int], seeds: Sequence[Tensor], span: tuple[int, int]) -> dict[int, Tensor]:
    """The adjoint of every node a gradient from `roots` reaches, each a tensor of the run recorded on
    the tape (engine.sweep_backward's loop, its rules run on Recorded values). Unsupported (the tape
    as it was) where a rule on the way has no program of rows."""
    nodes = graph.tape.nodes
    size = len(nodes)
    try:
        return _sweep(graph, roots, seeds, span)
    except Unsupported:
        del nodes[size:]
        del graph.values[size:]
        raise


def _sweep(graph: Graph, roots: Sequence[int], seeds: Sequence[Tensor], span: tuple[int, int]) -> dict[int, Tensor]:
    nodes = graph.tape.nodes
    order, _ = engine.reached(nodes, roots)
    made: dict[int, Any] = {}

    def value(index: int) -> Any:
        if index not in made:
            node = nodes[index]
            if node.kind == CONST and node.literal:  # a Python number, as the rules see one (Node.is_number)
                made[index] = Number(graph.values[index])
            else:
                tensor = Tensor(graph, np.asarray(graph.values[index]), node=index,
                                requires_grad=node.requires_grad)
                made[index] = Recorded(graph, tensor, span)
        return made[index]

    adjoints: dict[int, Recorded] = {}
    for root, seed in zip(roots, seeds, strict=True):
        given = Recorded(graph, seed, span)
        adjoints[root] = given if root not in adjoints else adjoints[root] + given
    with np.errstate(all="ignore"):
        for index in order:
            g = adjoints.get(index)
            node = nodes[index]
            if g is None or node.kind != APPLY or not node.requires_grad:
                continue
            op: Op = node.op  # type: ignore[assignment]
            args = [value(a) for a in node.args]
            cotangents: Sequence[Any]
            custom = getattr(op, "recorded_vjp", None)  # a custom autograd.Function's backward (run/custom.py)
            try:
                if custom is not None:
                    cotangents = [None if t is None else _sum_to(g.wrap(t), value(a).shape)
                                  for t, a in zip(custom(g.tensor), node.args, strict=True)]
                elif op.name in _PROGRAMS:
                    cotangents = _PROGRAMS[op.name](g, value(index), *args, **node.params)
                else:
                    cotangents = call_vjp(op, g, value(index), args, node.params,  # type: ignore[arg-type]
                                          (0,) * len(args), node.wants)
            except (Unsupported, TypeError, AttributeError, ValueError, IndexError) as problem:  # (what Recorded lacks)
                raise Unsupported(str(problem), op) from None
            for arg, cotangent in zip(node.args, cotangents, strict=True):
                if cotangent is None:
                    continue
                if not isinstance(cotangent, Recorded):  # (a constant the rule made: zeros)
                    cotangent = g.wrap(Tensor(graph, np.asarray(cotangent, dtype=g.dtype)))
                previous = adjoints.get(arg)
                adjoints[arg] = cotangent if previous is None else previous + cotangent
    return {index: adjoint.tensor for index, adjoint in adjoints.items()}
