"""How numbers are written for people: six significant digits (--digits N), every element (%g).

Below the session and the views both: the session writes a constant in place in a node's
name (explain), the views write values and gradients.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

SUMMARY_THRESHOLD = 64  # arrays with more elements show the first and last EDGE_ITEMS of each long axis
EDGE_ITEMS = 4
DIGITS = 6  # significant digits, unless --digits says otherwise
MAX_DIGITS = 17  # enough for every float64 to be read back exactly

_digits: ContextVar[int] = ContextVar("digits", default=DIGITS)


@contextmanager
def digits(count: int) -> Iterator[None]:
    """Write `count` significant digits inside this block (--digits)."""
    token = _digits.set(count)
    try:
        yield
    finally:
        _digits.reset(token)


def _element(x: float, digits: int) -> str:
    """One element: %g with `digits` significant digits; a whole number keeps NumPy's '1.'."""
    text = f"{x:.{digits}g}"
    return text + "." if text.lstrip("-").isdigit() else text


def _aligned(texts: list[str]) -> list[str]:
    """Elements padded to one width, their decimal points in a column (as NumPy prints a matrix);
    right-aligned where one is written in exponent form or is not a number (nan, inf, '...')."""
    numbers = [t for t in texts if t != "..."]  # ("..." stays as it is, as NumPy writes it)
    if not numbers:
        return texts
    if any("e" in t or "." not in t for t in numbers):
        width = max(map(len, numbers))
        return [t if t == "..." else t.rjust(width) for t in texts]
    left = max(len(t.partition(".")[0]) for t in numbers)
    right = max(len(t.partition(".")[2]) for t in numbers)
    return [t if t == "..." else t.partition(".")[0].rjust(left) + "." + t.partition(".")[2].ljust(right)
            for t in texts]


def human(value: Any, *, one_line: bool = False, edge: int = EDGE_ITEMS, threshold: int = SUMMARY_THRESHOLD) -> str:
    """Six significant digits (or --digits) for every element (%g: 1e-09 stays 1e-09, never 0.).

    A matrix is written row by row, one row a line (for table cells), its columns lined up;
    `one_line` keeps it on one line (for sentences, tree labels and graph labels). Long arrays are
    summarised with "..."; --json has every element.
    """
    places = _digits.get()
    if type(value) is float:  # (the scalar path's: NumPy not loaded)
        return f"{value:.{places}g}"
    import numpy as np

    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        return f"{float(array):.{places}g}"
    summarise = array.size > threshold

    def items(block: Any) -> list[Any]:
        if summarise and len(block) > 2 * edge:
            return [*block[:edge], None, *block[-edge:]]  # None: the "..." between them
        return list(block)

    def texts(block: np.ndarray) -> list[str]:
        """Every element written, in the order `nested` writes them ("..." included)."""
        if block.ndim == 1:
            return ["..." if x is None else _element(x, places) for x in items(block.tolist())]
        return [text for row in items(block) for text in (["..."] if row is None else texts(row))]

    written = iter(_aligned(texts(array)) if array.ndim > 1 and not one_line else texts(array))

    def nested(block: np.ndarray, depth: int) -> str:
        # Depth is at most NumPy's 64 dimensions: this recursion stays shallow.
        if block.ndim == 1:
            return "[" + ", ".join(next(written) for _ in items(block.tolist())) + "]"
        separator = ", " if one_line else ",\n" + " " * (depth + 1)
        return "[" + separator.join(next(written).strip() if row is None else nested(row, depth + 1)
                                    for row in items(block)) + "]"

    return nested(array, 0)


def human_line(value: Any) -> str:
    """`human` on one line: for a number inside a sentence or a label."""
    return human(value, one_line=True)


def brief(value: Any, width: int = 40) -> str:
    """`human_line`, summarised harder until it fits `width` characters where it can (a label in a
    graph of a real model: the first and last few elements of each long axis, as PyTorch's repr)."""
    text = human_line(value)
    for edge in (3, 2, 1):
        if len(text) <= width:
            break
        text = human(value, one_line=True, edge=edge, threshold=0)
    return text
