"""Values made by a call: tensor([...]), ones, zeros, full, eye, arange, linspace (the
constructors), and the rows ones_like and zeros_like.

A constructor is an Op that is no row of the table: its args are written in the program, so
TapeSink folds it at once into a constant (a value of the program, as `2` is), its shape
checked against the limits before anything is made; --at and --seed make the same values
(inputs/literals.py). Every value is float64, as every float of a `grad` program: `dtype=`
and `requires_grad=` are accepted and mean nothing more (PyTorch's float32 default belongs
to `gradcli run`). ones_like and zeros_like take a tensor, which may be an input: they are
rows, whose value depends only on the shape of their arg, and no gradient flows through them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradcli.inputs import ranges
from gradcli.ops.core import Array, Op, Param, structural

# The names a program gives a dtype (`dtype=torch.float64`, `dtype=float`): words, never values.
DTYPES = frozenset({"float64", "float32", "float16", "bfloat16", "double", "half", "float", "int64", "int32",
                    "int16", "int8", "uint8", "long", "int", "bool"})
# ... and a tensor's memory format (`x.to(memory_format=torch.contiguous_format)`): words too, which
# change no value (every value here is contiguous)
MEMORY_FORMATS = frozenset({"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"})

# What every constructor also accepts, and ignores: every float here is float64.
_IGNORED = (Param("dtype", "str"), Param("device", "str"), Param("requires_grad", "bool", False))
_SIZE = Param("size", "ints", aliases=("shape",))


def _sizes(size: tuple[int, ...] | None) -> tuple[int, ...]:
    if size is None:
        raise ValueError("a size is needed, as in ones(3) or ones(2, 3)")
    for n in size:
        if n < 0:
            raise ValueError(f"negative dimension {n} in the size {size}")
    return tuple(size)


def _arange_count(start: float | None, end: float | None, step: float) -> tuple[float, int]:
    """(start, number of elements) of arange: PyTorch's ceil((end - start) / step)."""
    if start is None:
        raise ValueError("arange takes (end), (start, end) or (start, end, step)")
    if end is None:
        start, end = 0.0, start
    if step == 0:
        raise ValueError("arange's step cannot be 0")
    length = (end - start) / step
    if not math.isfinite(length):
        raise ValueError("arange's start, end and step must be finite numbers")
    return start, max(0, math.ceil(length))


def _eye_shape(n: int | None = None, m: int | None = None, **_: Any) -> tuple[int, ...]:
    if n is None:
        raise ValueError("eye takes n, as in eye(3) or eye(2, 3)")
    return _sizes((n, n if m is None else m))


def _linspace_steps(steps: int | None) -> int:
    if steps is None:
        raise ValueError("linspace takes (start, end, steps)")
    if steps < 0:
        raise ValueError(f"linspace's steps must be at least 0, got {steps}")
    return steps


def _constructor(name: str, arity: int, params: tuple[Param, ...], shape: Any, forward: Any) -> Op:
    def no_gradient(g: Array, ans: Array, *args: Any, **_: Any) -> tuple[None, ...]:
        return (None,) * len(args)

    return structural(name, arity, forward, no_gradient, "None", params=(*params, *_IGNORED), shape=shape)


CONSTRUCTORS: dict[str, Op] = {op.name: op for op in [
    _constructor("tensor", 1, (), lambda data, **_: data, lambda data, ranks, **_: np.array(data, dtype=float)),
    _constructor("ones", 0, (_SIZE,), lambda size=None, **_: _sizes(size),
                 lambda ranks, size=None, **_: np.ones(_sizes(size))),
    _constructor("zeros", 0, (_SIZE,), lambda size=None, **_: _sizes(size),
                 lambda ranks, size=None, **_: np.zeros(_sizes(size))),
    _constructor("full", 0, (_SIZE, Param("fill_value", "float")), lambda size=None, **_: _sizes(size),
                 lambda ranks, size=None, fill_value=None, **_: np.full(_sizes(size), fill_value)),
    _constructor("eye", 0, (Param("n", "int"), Param("m", "int")), _eye_shape,
                 lambda ranks, n=None, m=None, **_: np.eye(_eye_shape(n, m)[0], _eye_shape(n, m)[1])),
    _constructor("arange", 0, (Param("start", "float"), Param("end", "float", aliases=("stop",)),
                               Param("step", "float", 1.0)),
                 lambda start=None, end=None, step=1.0, **_: (_arange_count(start, end, step)[1],),
                 lambda ranks, start=None, end=None, step=1.0, **_: ranges.arange(
                     _arange_count(start, end, step)[0], step, _arange_count(start, end, step)[1])),
    _constructor("linspace", 0, (Param("start", "float", 0.0), Param("end", "float", 0.0, aliases=("stop",)),
                                 Param("steps", "int", aliases=("num",))),
                 lambda start=0.0, end=0.0, steps=None, **_: (_linspace_steps(steps),),
                 lambda ranks, start=0.0, end=0.0, steps=None, **_: ranges.linspace(start, end, _linspace_steps(steps))),
]}
# The other spellings of tensor: np.array, torch.as_tensor, np.asarray.
CONSTRUCTORS.update({spelling: CONSTRUCTORS["tensor"] for spelling in ("array", "as_tensor", "asarray")})
# Sizes written as the rest of the positional args: ones(2, 3), zeros(2, 3).
SIZED = frozenset({"ones", "zeros"})


def _filled(fill: float) -> Any:
    def forward(x: Array, ranks: tuple[int, ...]) -> Array:
        return np.full(x.shape, fill)

    return forward


def _no_gradient(g: Array, ans: Array, x: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    # Never called by a sweep (no gradient flows into a row that is not differentiable); the
    # table's tests see the zero Jacobian it stands for.
    return (np.zeros_like(x),)


def _zero_tangent(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...]) -> Array:
    return np.zeros_like(ans)


ROWS = [
    structural(f"{name}_like", 1, _filled(fill), _no_gradient, "None", jvp=_zero_tangent, differentiable=False,
               sympy=lambda x, fill=fill: np.full(x.shape, fill, dtype=object), methods=(), dtype="keeps",  # (x's dtype)
               examples=((((),), {}), (((3,),), {}), (((2, 3),), {})))
    for name, fill in (("ones", 1.0), ("zeros", 0.0))
]
