"""How numbers are written for people: six significant digits, every element (%g).

Below the session and the views both: the session writes a constant in place in a node's
name (explain), the views write values and gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
