"""A Hessian made symmetric where only rounding parts H from its transpose: one rule for the arrays' Hessian
(derivatives.hessian, on NumPy's arrays) and the numbers' (scalar.hessian_of_numbers, on Python floats, without
NumPy). Each function is written once, entry by entry, against `xp`: NumPy, or FLOATS on one pair of numbers.

H and H^T agree to rounding at an entry where both are finite and |H - H^T| <= 1e-8 max(|H|, |H^T|) + 1e-13 of
the largest such magnitude in H. Where they differ by more, at a kink or a mask (x**y at y = 0: d(grad x)/dy is
0, the exponent's mask, but d(grad y)/dx is 1/x), or where one is NaN or infinite, H is left as computed, as
PyTorch's double backward leaves it.
"""

from __future__ import annotations

import math
import types
from typing import Any


def _pick(condition: bool, a: float, b: float) -> float:
    return a if condition else b


FLOATS = types.SimpleNamespace(isfinite=math.isfinite, maximum=max, where=_pick)  # NumPy's functions on one number


def magnitude(h: Any, h_t: Any, xp: Any) -> Any:
    """max(|H|, |H^T|) where both are finite, else 0: the scale of the rounding."""
    return xp.where(xp.isfinite(h) & xp.isfinite(h_t), xp.maximum(abs(h), abs(h_t)), 0.0)


def settled(h: Any, h_t: Any, magnitude: Any, scale: float, xp: Any) -> tuple[Any, Any]:
    """H made symmetric where H and H^T agree to rounding (`scale`: the largest magnitude in H), and |H - H^T|
    where it was so made (else 0)."""
    finite = xp.isfinite(h) & xp.isfinite(h_t)
    difference = xp.where(finite, abs(h - h_t), 0.0)
    rounding = finite & (difference <= 1e-8 * magnitude + 1e-13 * scale)
    return xp.where(rounding, (h + h_t) / 2, h), xp.where(rounding, difference, 0.0)
