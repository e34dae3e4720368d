"""How PyTorch prints a tensor, on NumPy values: `tensor([1., 9.], grad_fn=<PowBackward0>)`.

PyTorch's rules (torch/_tensor_str.py, default print options), written anew:

- A floating tensor's nonzero finite values choose the mode. All whole numbers: "int mode",
  each value printed as `2.`; otherwise 4 digits after the point. Scientific notation (`1.0000e+08`)
  when the largest magnitude is over 1000 times the smallest, over 1e8, or the smallest below 1e-4.
- Every element is padded to the widest one; a row holds as many as fit in 80 columns
  (the indent counted); rows of a matrix are separated by ",\n" and an indent, deeper
  axes by blank lines.
- Over 1000 elements, each axis shows its first and last 3 entries around "...", the mode
  and the widths chosen from those entries only.
- The suffixes (dtype=torch.float64 where the dtype is not float32, int64 or bool;
  grad_fn=<...> or requires_grad=True) follow on the same line while it stays within 80
  columns.

Values are formatted as Python formats the double of each element, as PyTorch's `tolist()`
does (a float32 0.1 prints 0.1000 with 4 digits).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

PRECISION = 4
THRESHOLD: float = 1000
EDGE_ITEMS = 3
LINE_WIDTH = 80
SCI_MODE: bool | None = None  # None: chosen from the values; torch.set_printoptions(sci_mode=) forces it

_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}


def set_printoptions(precision: int | None = None, threshold: float | None = None, edgeitems: int | None = None,
                     linewidth: int | None = None, profile: str | None = None, sci_mode: bool | None = None) -> None:
    """torch.set_printoptions, as PyTorch sets them: a profile first, then each option given; sci_mode
    always (left out, it is chosen from the values again)."""
    global PRECISION, THRESHOLD, EDGE_ITEMS, LINE_WIDTH, SCI_MODE
    if profile in _PROFILES:
        PRECISION, THRESHOLD, EDGE_ITEMS, LINE_WIDTH = _PROFILES[profile]
    if precision is not None:
        PRECISION = precision
    if threshold is not None:
        THRESHOLD = threshold
    if edgeitems is not None:
        EDGE_ITEMS = edgeitems
    if linewidth is not None:
        LINE_WIDTH = linewidth
    SCI_MODE = sci_mode

# dtypes PyTorch leaves unsaid: the default float, int64 and bool
_UNSAID = ("float32", "int64", "bool")


class _Formatter:
    """One format for every element: chosen from all the (shown) values together."""

    def __init__(self, values: np.ndarray) -> None:
        self.floating = values.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.width = True, False, 1
        flat = values.reshape(-1)
        if not self.floating:
            self.width = max([len(_plain(v)) for v in flat.tolist()], default=1)
            return
        shown = flat[np.isfinite(flat) & (flat != 0)]
        if not shown.size:
            return
        magnitudes = np.abs(shown).astype(np.float64)
        low, high = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        self.sci_mode = (high / low > 1000.0 or high > 1.0e8 or low < 1.0e-4) if SCI_MODE is None else bool(SCI_MODE)
        doubles = shown.astype(np.float64).tolist()
        if self.sci_mode:
            self.width = max(len(f"{v:.{PRECISION}e}") for v in doubles)
        elif self.int_mode:
            self.width = max(len(f"{v:.0f}") + 1 for v in doubles)
        else:
            self.width = max(len(f"{v:.{PRECISION}f}") for v in doubles)

    def format(self, value: float | int | bool) -> str:
        if not self.floating:
            text = _plain(value)
        elif self.sci_mode:
            text = f"{value:{self.width}.{PRECISION}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if not (math.isinf(value) or math.isnan(value)):
                text += "."
        else:
            text = f"{value:.{PRECISION}f}"
        return text.rjust(self.width)


def _plain(value: object) -> str:
    return str(value)


def _summarized(values: np.ndarray) -> np.ndarray:
    """The entries a summarized print shows: the first and last EDGE_ITEMS along each axis."""
    for axis in range(values.ndim):
        if values.shape[axis] > 2 * EDGE_ITEMS:
            keep = list(range(EDGE_ITEMS)) + list(range(values.shape[axis] - EDGE_ITEMS, values.shape[axis]))
            values = np.take(values, keep, axis=axis)
    return values


def _vector(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    per_line = max(1, math.floor((LINE_WIDTH - indent) / (formatter.width + 2)))
    if summarize and values.shape[0] > 2 * EDGE_ITEMS:
        items = ([formatter.format(v) for v in values[:EDGE_ITEMS].tolist()] + [" ..."]
                 + [formatter.format(v) for v in values[-EDGE_ITEMS:].tolist()])
    else:
        items = [formatter.format(v) for v in values.tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        return _vector(values, indent, summarize, formatter)
    size = values.shape[0]
    if summarize and size > 2 * EDGE_ITEMS:
        parts = ([_nested(values[i], indent + 1, summarize, formatter) for i in range(EDGE_ITEMS)] + ["..."]
                 + [_nested(values[i], indent + 1, summarize, formatter) for i in range(size - EDGE_ITEMS, size)])
    else:
        parts = [_nested(values[i], indent + 1, summarize, formatter) for i in range(size)]
    return "[" + ("," + "\n" * (values.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def dtype_name(values: np.ndarray) -> str:
    """PyTorch's name of a NumPy dtype: torch.float32, torch.int64, torch.bool."""
    return f"torch.{values.dtype.name}"


def contents(values: np.ndarray, indent: int) -> str:
    """The bracketed numbers of a tensor, as PyTorch lays them out after `indent` columns."""
    if values.size == 0:
        return "[]"
    summarize = values.size > THRESHOLD
    formatter = _Formatter(_summarized(values) if summarize else values)
    return _nested(values, indent, summarize, formatter)


def tensor_repr(values: np.ndarray, *, grad_fn: str | None = None, requires_grad: bool = False,
                prefix: str = "tensor(") -> str:
    """PyTorch's repr (and str) of a tensor holding `values`."""
    indent = len(prefix)
    suffixes: list[str] = []
    if values.size == 0:
        if values.ndim != 1:
            suffixes.append(f"size={tuple(values.shape)}")
        if values.dtype.name != "float32":
            suffixes.append(f"dtype={dtype_name(values)}")
        text = "[]"
    else:
        if values.dtype.name not in _UNSAID:
            suffixes.append(f"dtype={dtype_name(values)}")
        text = contents(values, indent)
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _with_suffixes(prefix + text, suffixes, indent)


def _with_suffixes(text: str, suffixes: Sequence[str], indent: int) -> str:
    parts = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > LINE_WIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
