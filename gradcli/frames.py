"""grad_table: the gradient at every row of a table, for data people's own tools.

A pandas DataFrame, a polars DataFrame or an Arrow table in (columns = inputs, as --points
reads a Parquet file: numbers, list columns for vectors, or NAME[i] columns), the same kind of
table out, row for row, with the columns --csv writes (value, grad_NAME). Where the table gave
an input as a list column, the output gives vectors as list columns too; else an element a
column (grad_z[0], ...). A pandas table keeps its index, so results line up with the rows
they came from (and dask.dataframe.map_partitions can use it partition by partition). pyarrow
reads and writes, through --points' table reader and --output's Arrow writer (a bad row with
skip_bad is --mark-bad's row of nulls); polars and pandas are imported only to give their tables back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gradcli.inputs import literals
from gradcli.tape import Tape, compile_program

_KINDS = {("polars", "DataFrame"): "polars", ("pandas", "DataFrame"): "pandas", ("pyarrow", "Table"): "arrow"}


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
    from gradcli.inputs.points import PointChunk
    from gradcli.inputs.tables import TableReader
    from gradcli.render.stream import ColumnsWriter
    from gradcli.session import Answered, answered, in_order

    kind = _KINDS.get((type(table).__module__.split(".")[0], type(table).__name__))
    if kind is None:
        raise TypeError(f"grad_table takes a pandas DataFrame, a polars DataFrame or an Arrow table, not {type(table)!r}")
    index = None
    if kind == "polars":
        frame = table.to_arrow()
    elif kind == "pandas":
        index = table.index
        frame = pa.Table.from_pandas(table, preserve_index=False)  # a NaN is pandas' null: a bad row
    else:
        frame = table
    tape = program if isinstance(program, Tape) else compile_program(program)
    fixed = {name: literals.as_array(value, name) for name, value in (at or {}).items()}  # as grad reads them
    reader = TableReader(frame, "table", tape.inputs, fixed, chunk=max(frame.num_rows, 1), skip_bad=skip_bad,
                         extra=False)
    writer = ColumnsWriter(None, "table", lists=bool(reader.lists))  # a bad row (skip_bad): nulls

    def compute(tape: Tape, columns: Any, count: int, fixed: Any) -> Any:
        return grad_batch(tape, columns, count, fixed, seed=seed, of=of, wrt=wrt)

    for part in (part for chunk in reader.chunks() for part in in_order(chunk)):  # (bad rows: with skip_bad only)
        answers = part if isinstance(part, list) else answered(compute, tape, part, fixed, "row") if part.count else ()
        for answer in answers:
            if isinstance(answer, Answered):
                writer.render(answer.chunk, answer.result)  # (written at once)
            elif skip_bad:
                writer.render_bad([answer])
            else:
                raise answer
    if writer.schema is None:  # no good rows: the columns computed at no points, of the shapes known
        empty = reader.empty() or PointChunk({name: np.empty((0, *shape)) for name, shape in reader.shapes.shapes.items()},
                                             0, [], [])
        writer.render(empty, compute(tape, empty.columns, 0, fixed))
    out = pa.Table.from_batches(writer.batches, writer.schema).combine_chunks() if writer.batches else writer.schema.empty_table()
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

