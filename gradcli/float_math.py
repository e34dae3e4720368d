"""The functions of Python's `math` that give NumPy's float64 bits, for the float rules (core.FLOATS).

A program of numbers runs its sweeps on Python floats, and every float rule must give the
bits NumPy gives on an array. For these functions `math` (libm) does, for every float64 (the
zeros' signs and NaN's included), so the float rules call them and no NumPy:

    sin, cos   NumPy's float64 loops call libm's
    sqrt       IEEE rounds it exactly (below 0 it raises, and the sweep hands back to NumPy)
    abs        fabs: the sign bit cleared, a NaN's too
    sign       1, -1, 0 for either zero, a NaN itself

NumPy's exp, log, log2, log10, log1p, expm1, tan, the inverse and hyperbolic functions, arctan2,
power and hypot are its own SIMD code (SVML's on AVX-512), which differs from libm's in the last
place, for exp at one point in twenty: there the float rules keep NumPy's ufuncs.
tests/test_float_bits.py holds each function here to NumPy's, bit for bit, on the machine it
runs on. This module imports no NumPy.
"""

from __future__ import annotations

import math
from collections.abc import Callable


def _sign(x: float) -> float:
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return 0.0 if x == 0 else x  # NumPy's sign of -0.0 is 0.0; of a NaN, that NaN


# NumPy's ufunc name -> the function of Python floats with its bits
EXACT: dict[str, Callable[[float], float]] = {"sin": math.sin, "cos": math.cos, "sqrt": math.sqrt, "absolute": abs,
                                              "sign": _sign}
