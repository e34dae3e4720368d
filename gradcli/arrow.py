"""pyarrow as gradcli calls it (--points only), where the data extra installed it: its compute
functions by name, and floats out of its arrays, without the imports its conveniences make. `import pyarrow.compute` writes a Python
wrapper for each of its hundreds of functions (0.04-0.1 s, more than the calls), and `Array.cast`
imports it; `to_numpy` and `pa.array` import pandas where it is installed (a quarter of a second)."""

from __future__ import annotations

from typing import Any

import numpy as np

_AVAILABLE: bool | None = None
INSTALL = "pip install 'gradcli[data]'"  # what brings pyarrow, said where it is missing


def available() -> bool:
    """Is pyarrow (the data extra) installed? Parquet and Arrow need it (CSV and JSON Lines do not)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            _AVAILABLE = False
        else:
            _AVAILABLE = True
    return _AVAILABLE


def call(function: str, *args: Any, options: Any = None) -> Any:
    """A pyarrow compute function by its name, through pyarrow._compute as pyarrow.compute calls it."""
    import pyarrow._compute as arrow

    return arrow.call_function(function, list(args), options)


def cast(array: Any, kind: Any, safe: bool = True) -> Any:
    """An Arrow array cast to the type `kind` (`safe`: refusing what it cannot hold; else as C casts)."""
    import pyarrow._compute as arrow

    return call("cast", array, options=arrow.CastOptions(kind) if safe else arrow.CastOptions.unsafe(kind))


def from_numbers(array: np.ndarray, kind: Any) -> Any:
    """An Arrow array of these numbers (int64 or float64), on their buffer."""
    import pyarrow as pa

    array = np.ascontiguousarray(array, dtype=np.int64 if kind == pa.int64() else np.float64)
    return pa.Array.from_buffers(kind, len(array), [None, pa.py_buffer(array)])


def floats(column: Any) -> np.ndarray:
    """An Arrow array or chunked array of float64 without nulls as NumPy's (a view where it is one chunk)."""
    chunks = column.chunks if hasattr(column, "chunks") else [column]
    views = [np.frombuffer(chunk.buffers()[1], dtype=np.float64, count=len(chunk), offset=8 * chunk.offset)
             for chunk in chunks]
    return views[0] if len(views) == 1 else np.concatenate(views) if views else np.empty(0)
