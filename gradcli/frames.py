"""grad_table: the gradient at every row of a table, for data people's own tools.

A pandas DataFrame, a polars DataFrame or an Arrow table in (columns = inputs, as --points
reads a Parquet file: numbers, list columns for vectors, or NAME[i] columns), the same kind of
table out, row for row, with the columns --csv writes (value, grad_NAME). Where the table gave
an input as a list column, the output gives vectors as list columns too; else an element a
column (grad_z[0], ...). A pandas table keeps its index, so results line up with the rows
they came from (and dask.dataframe.map_partitions can use it partition by partition).
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
               of: str | Sequence[str] | None = None, wrt: str | Sequence[str] | None = None) -> Any:
    """The value and gradient of `program` at every row of `table`, as a table of the same kind.

    `at` gives the inputs the table has no column for (the same at every row); `seed`, `of`
    and `wrt` are `grad`'s. A bad row (a null, text that is no number, a list of another
    length) raises a GradcliError naming its row (1-based).
    """
    import polars as pl

    from gradcli.batch import grad_batch
    from gradcli.inputs.tables import TableReader

    kind = _kind(table)
    index = None
    if kind == "polars":
        frame = table
    elif kind == "pandas":
        index = table.index
        frame = pl.from_pandas(table.reset_index(drop=True))
    else:
        frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    tape = program if isinstance(program, Tape) else compile_program(program)
    fixed = {name: np.asarray(value, dtype=float) for name, value in (at or {}).items()}
    count = frame.height
    reader = TableReader(frame.lazy(), "table", tape.inputs, fixed, chunk=max(count, 1))
    chunks = list(reader.chunks())
    if count:
        columns = {name: np.concatenate([chunk.columns[name] for chunk in chunks]) for name in chunks[0].columns}
    else:  # no rows: one made-up row of ones gives the columns, then none of its numbers
        shapes = reader.shapes.shapes
        columns = {name: np.ones((1, *shapes[name])) for name in tape.inputs if name in shapes}
    result = grad_batch(tape, columns, max(count, 1), fixed, seed=seed, of=of, wrt=wrt)
    lists = set(reader.lists)
    out: dict[str, Any] = {}
    named = [("value" if len(result.values) == 1 else f"value_{root}", value)
             for root, value in zip(result.root_names, result.values, strict=True)]
    derivatives = result.columns()
    as_lists = bool(lists)
    for label, array in [*named, *derivatives]:
        array = array[:count]
        if array.ndim == 1:
            out[label] = pl.Series(label, array)
        elif as_lists:
            out[label] = pl.Series(label, array)  # an Array column, cast to a list below
        else:
            flat = array.reshape(count, -1)
            for position, element in enumerate(np.ndindex(*array.shape[1:])):
                column = label + "".join(f"[{i}]" for i in element)
                out[column] = pl.Series(column, flat[:, position])
    result_frame = pl.DataFrame(list(out.values()))
    result_frame = result_frame.with_columns(pl.col(name).cast(_as_list(dtype)) for name, dtype
                                             in result_frame.schema.items() if isinstance(dtype, pl.Array))
    if kind == "polars":
        return result_frame
    if kind == "arrow":
        return result_frame.to_arrow()
    converted = result_frame.to_pandas()
    converted.index = index
    return converted


def _as_list(dtype: Any) -> Any:
    import polars as pl

    return pl.List(_as_list(dtype.inner)) if isinstance(dtype, pl.Array) else dtype
