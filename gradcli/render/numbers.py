"""How numbers are written: short for people, exact and RFC 8259-safe for JSON."""

from __future__ import annotations

from collections.abc import Mapping
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


SUMMARY_THRESHOLD = 64  # arrays with more elements show the first and last EDGE_ITEMS of each long axis
EDGE_ITEMS = 4


def _element(x: float) -> str:
    """One element: %g with six significant digits; a whole number keeps NumPy's '1.'."""
    text = f"{x:.6g}"
    return text + "." if text.lstrip("-").isdigit() else text


def human(value: Any, *, one_line: bool = False) -> str:
    """Six significant digits for every element (%g: 1e-09 stays 1e-09, never 0.).

    A matrix is written row by row, one row a line (for table cells); `one_line` keeps it on
    one line (for sentences, tree labels and graph labels). Long arrays are summarised with
    "..."; --json has every element.
    """
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        return f"{float(array):.6g}"
    summarise = array.size > SUMMARY_THRESHOLD

    def items(block: np.ndarray, write: Any) -> list[str]:
        if summarise and len(block) > 2 * EDGE_ITEMS:
            return [*map(write, block[:EDGE_ITEMS]), "...", *map(write, block[-EDGE_ITEMS:])]
        return list(map(write, block))

    def nested(block: np.ndarray, depth: int) -> str:
        # Depth is at most NumPy's 64 dimensions: this recursion stays shallow.
        if block.ndim == 1:
            return "[" + ", ".join(items(block.tolist(), _element)) + "]"
        separator = ", " if one_line else ",\n" + " " * (depth + 1)
        return "[" + separator.join(items(block, lambda row: nested(row, depth + 1))) + "]"

    return nested(array, 0)


def human_line(value: Any) -> str:
    """`human` on one line: for a number inside a sentence or a label."""
    return human(value, one_line=True)


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
