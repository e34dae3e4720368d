"""How numbers are written: short for people (gradcli/numbers.py), exact and RFC 8259-safe for JSON."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gradcli.numbers import human, human_line

__all__ = ["has_null", "human", "human_line", "is_finite", "point_document", "to_json"]


def to_json(value: Any) -> Any:
    """A number or nested list for JSON; NaN and infinities become None (null)."""
    if type(value) is float:  # (the scalar path's: NumPy not loaded)
        return value if math.isfinite(value) else None
    import numpy as np

    array = np.asarray(value, dtype=float)
    finite = np.isfinite(array)
    if finite.all():
        return array.tolist()
    cleaned = array.astype(object)
    cleaned[~finite] = None
    return cleaned.tolist()


def is_finite(value: Any) -> bool:
    if type(value) is float:
        return math.isfinite(value)
    import numpy as np

    return bool(np.isfinite(np.asarray(value, dtype=float)).all())


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


def point_document(tape: Any, point: Mapping[str, Any]) -> dict[str, Any]:
    """The `at` of a JSON document: the inputs in the program's order, as --points writes them."""
    order = [name for name in tape.inputs if name in point] + [name for name in point if name not in tape.inputs]
    return {name: to_json(point[name]) for name in order}
