"""The functions the float rules are written against (`xp` on Python floats), with NumPy's bits.

A program of numbers runs its sweeps on Python floats, and every float rule must give the
bits NumPy gives on an array. For these functions `math` (libm) does, for every float64 (the
zeros' signs and NaN's included), so the float rules call them and no NumPy:

    sin, cos   NumPy's float64 loops call libm's
    sqrt       IEEE rounds it exactly (below 0 it raises, and the sweep hands back to NumPy)
    abs        fabs: the sign bit cleared, a NaN's too
    sign       1, -1, 0 for either zero, a NaN itself
    power      to the exponents 2, 1, 0, -1 and 0.5: a * a, a, 1, 1 / a, sqrt(a), as NumPy does them

NumPy's exp, log, log2, log10, log1p, expm1, tan, the inverse and hyperbolic functions, arctan2,
power to other exponents and hypot are its own SIMD code (SVML's on AVX-512), which differs from libm's in the last
place, for exp at one point in twenty (measured on an AVX-512 machine, NumPy 2.4: math.log differs from np.log at
13,717 of 10^7 positive doubles, subnormals included; log1p, expm1, tanh, sinh, cosh, asin, atan, log2 and log10
each at hundreds to hundreds of thousands of 2*10^6; none agrees everywhere, and a NumPy on a machine without
AVX-512 calls libm's for some of them: no function of math can stand in for these without NumPy on every
machine). There the float rules call NumPy's ufunc on the float,
and NumPy is imported at the first such call (`ufunc`). tests/test_float_bits.py holds each
function of `EXACT` to NumPy's, bit for bit, on the machine it runs on. This module imports no
NumPy: the scalar path (gradcli.scalar) computes with it before NumPy is loaded, if ever.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from typing import Any


def _sign(x: float) -> float:
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return 0.0 if x == 0 else x  # NumPy's sign of -0.0 is 0.0; of a NaN, that NaN


# NumPy's ufunc (by its name and its NumPy spelling) -> the function of Python floats with its bits
EXACT: dict[str, Callable[[float], float]] = {"sin": math.sin, "cos": math.cos, "sqrt": math.sqrt, "abs": abs,
                                              "absolute": abs, "sign": _sign}


class _NumPys:
    """NumPy's ufunc `name` on Python floats, NumPy imported at the first call. (Its RuntimeWarnings, of
    NaN and infinities, are NumPy's: the command line does not say them, and names the NaN itself.)"""

    __slots__ = ("function", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.function: Any = None

    def __call__(self, *args: Any) -> Any:
        function = self.function
        if function is None:
            import numpy

            function = self.function = getattr(numpy, self.name)
        return function(*args)


_MADE: dict[str, Callable[..., Any]] = {}


def ufunc(name: str) -> Callable[..., Any]:
    """NumPy's ufunc `name` on Python floats: math's function where it has NumPy's bits, else NumPy's own, loaded
    at its first call."""
    made = _MADE.get(name)
    if made is None:
        made = _MADE[name] = EXACT.get(name) or _NumPys(name)
    return made


# NumPy's power of one number to these exponents is exact, or done as NumPy does it (x ** 2 is x * x, its square)
_POWERS: dict[float, Callable[[Any], Any]] = {2.0: lambda a: a * a, 1.0: lambda a: a, 0.0: lambda a: 1.0,
                                             -1.0: lambda a: 1.0 / a, 0.5: math.sqrt}


def power(a: float, b: float) -> Any:
    """NumPy's power on Python floats, which cannot say whether b is a Python number: where
    PyTorch's two overloads part ways beyond rounding (b = +-0.5, a <= 0 or NaN), NumPy takes over.
    The exponents of _POWERS are done here (1 / 0 raises: NumPy takes over), the others by NumPy's pow."""
    if (b == 0.5 or b == -0.5) and not a > 0:
        raise ArithmeticError("pow(Tensor, Scalar) and pow(Tensor, Tensor) differ here")
    exact = _POWERS.get(b)
    return ufunc("power")(a, b) if exact is None else exact(a)


def pick(condition: Any, a: Any, b: Any) -> Any:
    return a if condition else b


# The functions of the array namespace (ops.core.NUMPY) that the elementwise rules call, by NumPy's names.
UFUNCS = ("exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "arcsin", "arccos", "arctan",
          "sinh", "cosh", "tanh", "arctan2", "maximum", "minimum", "sign", "abs")

# The namespace itself: Python floats, with NumPy's bits; Python's branches for where.
FLOATS = types.SimpleNamespace(**{name: ufunc(name) for name in UFUNCS}, power=power, where=pick)
