"""grad_table: the gradient at every row of a table, for data people's own tools.

A pandas DataFrame, a polars DataFrame or an Arrow table in (columns = inputs, as --points
reads a Parquet file: numbers, list columns for vectors, or NAME[i] columns), the same kind of
table out, row for row, with the columns --csv writes (value, grad_NAME). Where the table gave
an input as a list column, the output gives vectors as list columns too; else an element a
column (grad_z[0], ...). A pandas table keeps its index, so results line up with the rows
they came from (and dask.dataframe.map_partitions can use it partition by partition). pyarrow
does the reading, as for --points; polars and pandas are imported only to give their tables back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gradcli.tape import Tape, compile_program


def _kind(table: Any) -> str:
    module = type(table).__module__.split(".")[0]
    name = type(table).__name__
    if module == "polars" and name == "DataFrame":
        return "polars"
    if module == "pandas" and name == "DataFrame":
        return "pandas"
    if module == "pyarrow" and name == "Table":
        return "arrow"
    raise TypeError(f"grad_table takes a pandas DataFrame, a polars DataFrame or an Arrow table, not {type(table)!r}")


def grad_table(program: str | Tape, table: Any, at: Mapping[str, Any] | None = None, seed: Any = None, *,
               of: str | Sequence[str] | None = None, wrt: str | Sequence[str] | None = None,
               skip_bad: bool = False) -> Any:
    """The value and gradient of `program` at every row of `table`, as a table of the same kind.

    `at` gives the inputs the table has no column for (the same at every row); `seed`, `of`
    and `wrt` are `grad`'s. A bad row (a null or a pandas NaN, text that is no number, a list of
    another length) raises a GradcliError naming its row (1-based); with `skip_bad`, its results
    are nulls instead, and the output still has a row for each row of the table.
    """
    from gradcli.arrow import INSTALL, available

    if not available():
        raise ModuleNotFoundError(f"grad_table reads tables with pyarrow, which the data extra installs: {INSTALL}")
    import pyarrow as pa

    from gradcli.batch import grad_batch
    from gradcli.inputs.tables import TableReader
    from gradcli.render.stream import element_names
    from gradcli.session import Answered, answered

    kind = _kind(table)
    index = None
    if kind == "polars":
        frame = table.to_arrow()
    elif kind == "pandas":
        index = table.index
        frame = pa.Table.from_pandas(table, preserve_index=False)  # a NaN is pandas' null: a bad row
    else:
        frame = table
    tape = program if isinstance(program, Tape) else compile_program(program)
    fixed = {name: np.asarray(value, dtype=float) for name, value in (at or {}).items()}
    count = frame.num_rows
    reader = TableReader(frame, "table", tape.inputs, fixed, chunk=max(count, 1), skip_bad=skip_bad, extra=False)

    def compute(tape: Tape, columns: Any, count: int, fixed: Any) -> Any:
        return grad_batch(tape, columns, count, fixed, seed=seed, of=of, wrt=wrt)

    pieces = []  # the good rows' results, in order: a bad index value is a bad row too
    for chunk in reader.chunks():
        for answer in answered(compute, tape, chunk, fixed, "row") if chunk.count else ():
            if isinstance(answer, Answered):
                pieces.append(answer)
            elif not skip_bad:
                raise answer
    rows = np.concatenate([np.asarray(piece.chunk.lines, dtype=np.int64) for piece in pieces]) - 1 if pieces else \
        np.empty(0, dtype=np.int64)
    good = len(rows)
    if good:
        results = [piece.result for piece in pieces]
        result = results[0]
        values = [np.concatenate(parts) for parts in zip(*(r.values for r in results), strict=True)]
        derivatives = [(label, np.concatenate([dict(r.columns())[label] for r in results])) for label, _ in result.columns()]
    else:  # no good rows: one made-up row of ones gives the columns, then none of its numbers
        shapes = reader.shapes.shapes
        columns = {name: np.ones((1, *shapes[name])) for name in tape.inputs if name in shapes}
        result = compute(tape, columns, 1, fixed)
        values, derivatives = result.values, result.columns()
    lists = bool(reader.lists)
    named = [("value" if len(result.values) == 1 else f"value_{root}", value)
             for root, value in zip(result.root_names, values, strict=True)]
    valid = None
    if good < count:  # rows passed over: their results are nulls
        valid = np.zeros(count, dtype=bool)
        valid[rows] = True
    names: list[str] = []
    arrays: list[Any] = []
    for label, array in [*named, *derivatives]:
        array = array[:good]
        if valid is not None:
            full = np.full((count, *array.shape[1:]), np.nan)
            full[rows] = array
            array = full
        if array.ndim == 1 or lists:
            names.append(label)
            arrays.append(_column(array, valid))
        else:  # an element a column, named as --csv names it
            names += element_names(label, array.shape[1:])
            arrays += [_column(np.ascontiguousarray(column), valid) for column in array.reshape(count, -1).T]
    out = pa.Table.from_arrays(arrays, names=names)
    if kind == "arrow":
        return out
    if kind == "polars":
        import polars as pl

        converted = pl.from_arrow(out)
        assert isinstance(converted, pl.DataFrame)
        return converted
    frame_out = out.to_pandas()
    frame_out.index = index
    return frame_out


def _column(array: np.ndarray, valid: np.ndarray | None) -> Any:
    """An Arrow column of floats a row (nested lists of floats where a row is an array); null where not `valid`."""
    import pyarrow as pa

    from gradcli.arrow import from_numbers

    rows = len(array)
    bits = None if valid is None else pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = 0 if valid is None else rows - int(valid.sum())
    flat = np.ascontiguousarray(array, dtype=np.float64).reshape(-1)
    column: Any = from_numbers(flat, pa.float64())
    for length in reversed(array.shape[1:]):
        offsets = np.arange(0, len(column) + 1, length, dtype=np.int32)
        column = pa.ListArray.from_buffers(pa.list_(column.type), len(offsets) - 1, [None, pa.py_buffer(offsets)],
                                           children=[column])
    if bits is not None:
        column = pa.Array.from_buffers(column.type, rows, [bits, *column.buffers()[1:2]], nulls,
                                       children=[column.values] if array.ndim > 1 else None) \
            if array.ndim > 1 else pa.Array.from_buffers(pa.float64(), rows, [bits, pa.py_buffer(flat)], nulls)
    return column
