"""How numbers are written: short for people, exact and RFC 8259-safe for JSON."""

from __future__ import annotations

from typing import Any

import numpy as np


def to_json(value: Any) -> Any:
    """A number or nested list for JSON; NaN and infinities become None (null)."""
    array = np.asarray(value, dtype=float)
    finite = np.isfinite(array)
    if finite.all():
        return array.tolist()
    cleaned = array.astype(object)
    cleaned[~finite] = None
    return cleaned.tolist()


def is_finite(value: Any) -> bool:
    return bool(np.isfinite(np.asarray(value, dtype=float)).all())


def human(value: Any) -> str:
    """Six significant digits, NumPy's layout for arrays."""
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        return f"{float(array):.6g}"
    # Long vectors are summarised with "..."; --json has every element.
    return np.array2string(array, precision=6, separator=", ", threshold=64, edgeitems=4, max_line_width=60,
                           floatmode="maxprec", suppress_small=True)


def has_null(document: Any) -> bool:
    """Does a JSON document hold a null: where a NaN or an infinity was written?"""
    stack = [document]
    while stack:
        item = stack.pop()
        if item is None:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
