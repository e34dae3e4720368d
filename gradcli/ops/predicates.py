"""The elementwise questions about each number: isnan, isinf, isfinite, isposinf, isneginf, signbit,
isreal.

Each gives PyTorch's bool tensor (a mask, as a comparison's), of any dtype's input, and is not
differentiable: PyTorch records no node and its output does not require grad, so no gradient flows
back through it (`x[~torch.isnan(x)]` selects, as `x[x > 0]` does). One row each serves the
formula language and `gradcli run` alike.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradcli.ops.core import Op, elementwise, load_sympy


def _no_gradient(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    return (g,)  # masked everywhere: the value is a constant of the point


def _masked(x: Any) -> tuple[bool]:
    return (True,)


def _predicate(name: str, holds: Any, sympy: Any) -> Op:
    """The row of a question `holds(xp, x)` -> a truth per element, as 1.0 where it holds and 0.0 elsewhere."""
    return elementwise(name, 1, lambda xp, x: xp.where(holds(xp, x), 1.0, 0.0), _no_gradient, "None",
                       mask=_masked, sympy=lambda x: load_sympy().Piecewise((1, sympy(x)), (0, True)),
                       differentiable=False, boolean=True, kinked=True, methods=(name,),
                       reference=f"torch.{name}(a)", reference_program=f"{name}(a)")


def _sympy_false(x: Any) -> Any:
    return load_sympy().false  # a symbol is a finite real number


ROWS = [
    _predicate("isnan", lambda xp, x: x != x, _sympy_false),
    _predicate("isinf", lambda xp, x: xp.abs(x) == math.inf, _sympy_false),
    _predicate("isfinite", lambda xp, x: xp.abs(x) < math.inf, lambda x: load_sympy().true),
    _predicate("isposinf", lambda xp, x: x == math.inf, _sympy_false),
    _predicate("isneginf", lambda xp, x: x == -math.inf, _sympy_false),
    # The sign bit, -0.0's and a negative NaN's included (NumPy's copysign reads it as C's does).
    _predicate("signbit", lambda xp, x: np.copysign(1.0, x) < 0, lambda x: x < 0),
    # Every real number is real, NaN and the infinities too.
    _predicate("isreal", lambda xp, x: (x != x) | (x == x), lambda x: load_sympy().true),
]

