"""Dual numbers over NumPy arrays: a value and its tangent, for the Hessian's forward-over-reverse.

The reverse sweep's rules (gradcli/ops/) are NumPy code. Run on `Dual` arrays, they give the
gradient and, in its tangent, the derivative of the gradient along a direction: exactly, with
no step to choose, nothing that cancels, and NaN where PyTorch's double backward has NaN.

Each NumPy function a rule calls is differentiated by the op table's own JVP rule for it
(np.sin by the row of `sin`, np.power by `pow`, ...): no derivative is written a second time.
A tangent of None is a structural zero, as PyTorch's undefined gradients are: it multiplies
nothing, so a NaN value where no direction flows stays out of the Hessian.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from gradcli.ops import OPS

Array = np.ndarray

# NumPy's ufuncs and the rows of the op table whose JVP rule differentiates them.
_UFUNC_OPS = {ufunc: op.name for op in OPS.values() for ufunc in op.ufuncs}
# Ufuncs that are other ufuncs in disguise.
_SPELLED: dict[Any, Callable[..., Any]] = {
    np.square: lambda x: np.multiply(x, x), np.reciprocal: lambda x: np.divide(1.0, x),
    np.positive: lambda x: x, np.conjugate: lambda x: x,
}
# Piecewise constant: their derivative is zero (PyTorch's sign, floor, ... have zero gradients).
_CONSTANT_UFUNCS = {np.sign, np.floor, np.ceil, np.trunc, np.rint, np.heaviside}


def _call(ufunc: Any, *args: Any) -> Any:
    return ufunc(*args)  # through Dual.__array_ufunc__ (NumPy's stubs do not know Dual)


def primal(x: Any) -> Any:
    return x.primal if isinstance(x, Dual) else x


def tangent(x: Any) -> Array | None:
    return x.tangent if isinstance(x, Dual) else None


def _linear(function: Callable[..., Any], x: Dual, *args: Any, **kwargs: Any) -> Dual:
    """A function linear in x (a reshape, a sum, a selection): the same on the tangent."""
    return Dual(function(x.primal, *args, **kwargs),
                None if x.tangent is None else function(x.tangent, *args, **kwargs))


def _where(condition: Any, a: Any, b: Any) -> Dual:
    condition = primal(condition)
    value = np.where(condition, primal(a), primal(b))
    ta, tb = tangent(a), tangent(b)
    if ta is None and tb is None:
        return Dual(value)
    return Dual(value, np.where(condition, 0.0 if ta is None else ta, 0.0 if tb is None else tb))


def _multilinear(function: Callable[..., Any], subscripts: str, *operands: Any, **kwargs: Any) -> Dual:
    """A function linear in each operand (einsum): the sum of it with one tangent at a time."""
    value = function(subscripts, *[primal(x) for x in operands], **kwargs)
    terms = [function(subscripts, *[primal(x) for x in operands[:i]], t, *[primal(x) for x in operands[i + 1:]], **kwargs)
             for i, t in enumerate(tangent(x) for x in operands) if t is not None]
    return Dual(value, sum(terms[1:], terms[0]) if terms else None)


def _bilinear(function: Callable[..., Any], a: Any, b: Any, **kwargs: Any) -> Dual:
    """A function linear in each of its two args (np.cross)."""
    ta, tb = tangent(a), tangent(b)
    terms = [function(ta, primal(b), **kwargs) if ta is not None else None,
             function(primal(a), tb, **kwargs) if tb is not None else None]
    present = [t for t in terms if t is not None]
    return Dual(function(primal(a), primal(b), **kwargs), sum(present[1:], present[0]) if present else None)


def _det(a: Dual) -> Dual:
    from gradcli.ops.linalg import true_cofactors  # d det(A) = <cofactors, dA>, exact where A is singular too

    value = np.linalg.det(a.primal)
    if a.tangent is None:
        return Dual(value)
    return Dual(value, np.sum(true_cofactors(a.primal) * a.tangent, axis=(-2, -1)))


def _inv(a: Dual) -> Dual:
    value = np.linalg.inv(a.primal)
    return Dual(value, None if a.tangent is None else -(value @ a.tangent @ value))


def _solve(a: Any, b: Any) -> Dual:
    # X = A^-1 B: dX = A^-1 (dB - dA X) (NumPy's solve, a stack of matrices on both sides)
    value = np.linalg.solve(primal(a), primal(b))
    ta, tb = tangent(a), tangent(b)
    if ta is None and tb is None:
        return Dual(value)
    rhs = np.zeros_like(value) if tb is None else np.broadcast_to(tb, value.shape)
    if ta is not None:
        rhs = rhs - ta @ value
    return Dual(value, np.linalg.solve(np.broadcast_to(primal(a), value.shape[:-2] + primal(a).shape[-2:]), rhs))


def _of_values(function: Callable[..., Any], x: Any, *args: Any, **kwargs: Any) -> Any:
    return function(primal(x), *args, **kwargs)


def _like(function: Callable[..., Any], x: Dual, *args: Any, **kwargs: Any) -> Dual:
    return Dual(function(x.primal, *args, **kwargs))


def _concatenate(arrays: Any, axis: int = 0) -> Dual:
    """Linear in all its arrays together: the tangents side by side (zeros for a constant)."""
    value = np.concatenate([primal(a) for a in arrays], axis=axis)
    if all(tangent(a) is None for a in arrays):
        return Dual(value)
    return Dual(value, np.concatenate([np.zeros(np.shape(a)) if tangent(a) is None else tangent(a) for a in arrays],
                                      axis=axis))


_FUNCTIONS: dict[Any, Callable[..., Any]] = {
    np.where: _where,
    np.concatenate: _concatenate,
    np.shape: lambda x: x.shape,
    np.ndim: lambda x: x.ndim,
    np.size: lambda x: x.size,
    # Linear in x: the same function on the value and on the tangent.
    **{function: partial(_linear, function) for function in (np.reshape, np.broadcast_to, np.swapaxes, np.take,
                                                               np.moveaxis, np.transpose, np.expand_dims,
                                                               np.squeeze, np.sum, np.mean, np.copy, np.flip, np.roll,
                                                               np.tile, np.diagonal, np.cumsum, np.pad,
                                                               np.lib.stride_tricks.sliding_window_view)},
    np.einsum: partial(_multilinear, np.einsum),
    np.cross: partial(_bilinear, np.cross),
    np.linalg.det: _det,
    np.linalg.inv: _inv,
    np.linalg.solve: _solve,
    # Integer results (the index a max picks): of the values alone.
    **{function: partial(_of_values, function) for function in (np.argmax, np.argmin)},
    np.zeros_like: partial(_like, np.zeros_like),
    np.ones_like: partial(_like, np.ones_like),
}


class Dual:
    """An array `primal + ε tangent` with ε² = 0; a tangent of None is zero."""

    __slots__ = ("primal", "tangent")
    __hash__ = None  # type: ignore[assignment]  # == compares values, elementwise

    def __init__(self, primal: Any, tangent: Array | None = None) -> None:
        self.primal = np.asarray(primal)
        if tangent is not None:
            tangent = np.asarray(tangent)
            if tangent.shape != self.primal.shape:
                tangent = np.broadcast_to(tangent, self.primal.shape)
        self.tangent = tangent

    # --- NumPy's protocols: ufuncs and the functions the rules call -----------------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if ufunc is np.add and method == "at" and isinstance(inputs[0], Dual):  # a scatter-add: linear
            target, key, values = inputs
            np.add.at(target.primal, key, primal(values))
            given = tangent(values)
            if given is not None:
                if target.tangent is None or not target.tangent.flags.writeable:
                    target.tangent = np.zeros(target.shape) if target.tangent is None else np.array(target.tangent)
                np.add.at(target.tangent, key, given)
            return None
        if method != "__call__" or "out" in kwargs:
            return NotImplemented
        if ufunc in _SPELLED:
            return _SPELLED[ufunc](*inputs)
        primals = [primal(x) for x in inputs]
        value = ufunc(*primals, **kwargs)
        if np.asarray(value).dtype.kind == "b" or ufunc in _CONSTANT_UFUNCS:
            return value  # a comparison, a mask, or a step function: nothing to differentiate
        tangents = [tangent(x) for x in inputs]
        if all(t is None for t in tangents):
            return Dual(value)
        if ufunc is np.matmul:  # bilinear
            a, b = primals
            ta, tb = tangents
            terms = [np.matmul(ta, b) if ta is not None else None, np.matmul(a, tb) if tb is not None else None]
            return Dual(value, sum(t for t in terms if t is not None))
        name = _UFUNC_OPS.get(ufunc)
        if name is None:
            raise TypeError(f"the Hessian's dual numbers have no rule for numpy.{ufunc.__name__}")
        rule = OPS[name].jvp
        assert rule is not None
        return Dual(value, rule(tangents, value, *primals))

    def __array_function__(self, function: Any, types: Any, args: Any, kwargs: Any) -> Any:
        handler = _FUNCTIONS.get(function)
        if handler is None:
            return NotImplemented
        return handler(*args, **kwargs)

    # --- an array's face ---------------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        return self.primal.shape

    @property
    def ndim(self) -> int:
        return self.primal.ndim

    @property
    def size(self) -> int:
        return self.primal.size

    @property
    def dtype(self) -> Any:
        return self.primal.dtype

    def reshape(self, *shape: Any) -> Dual:
        return _linear(np.reshape, self, shape[0] if len(shape) == 1 else shape)

    def sum(self, axis: Any = None, keepdims: bool = False) -> Dual:
        return _linear(np.sum, self, axis=axis, keepdims=keepdims)

    def __getitem__(self, key: Any) -> Dual:
        return Dual(self.primal[key], None if self.tangent is None else self.tangent[key])

    def __setitem__(self, key: Any, value: Any) -> None:
        self.primal[key] = primal(value)
        given = tangent(value)
        if given is None and self.tangent is None:
            return
        if self.tangent is None or not self.tangent.flags.writeable:
            self.tangent = np.zeros(self.shape) if self.tangent is None else np.array(self.tangent)
        self.tangent[key] = 0.0 if given is None else given

    def __len__(self) -> int:
        return len(self.primal)

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"Dual({self.primal!r}, {self.tangent!r})"

    # --- arithmetic goes through the ufuncs above ----------------------------------------------

    def __add__(self, other: Any) -> Any:
        return _call(np.add, self, other)

    def __radd__(self, other: Any) -> Any:
        return _call(np.add, other, self)

    def __sub__(self, other: Any) -> Any:
        return _call(np.subtract, self, other)

    def __rsub__(self, other: Any) -> Any:
        return _call(np.subtract, other, self)

    def __mul__(self, other: Any) -> Any:
        return _call(np.multiply, self, other)

    def __rmul__(self, other: Any) -> Any:
        return _call(np.multiply, other, self)

    def __truediv__(self, other: Any) -> Any:
        return _call(np.divide, self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _call(np.divide, other, self)

    def __pow__(self, other: Any) -> Any:
        return _call(np.power, self, other)

    def __rpow__(self, other: Any) -> Any:
        return _call(np.power, other, self)

    def __matmul__(self, other: Any) -> Any:
        return _call(np.matmul, self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _call(np.matmul, other, self)

    def __neg__(self) -> Any:
        return np.negative(self)

    def __pos__(self) -> Dual:
        return self

    # Comparisons decide branches: they look at values only.
    def __eq__(self, other: Any) -> Any:
        return self.primal == primal(other)

    def __ne__(self, other: Any) -> Any:
        return self.primal != primal(other)

    def __lt__(self, other: Any) -> Any:
        return self.primal < primal(other)

    def __le__(self, other: Any) -> Any:
        return self.primal <= primal(other)

    def __gt__(self, other: Any) -> Any:
        return self.primal > primal(other)

    def __ge__(self, other: Any) -> Any:
        return self.primal >= primal(other)
