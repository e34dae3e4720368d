"""--points as a table: Parquet, or Arrow IPC/Feather, read a batch of rows at a time by polars.

A column is an input by its name: `x` a number a row (integers, floats, or text holding a
number), `z` a list a row (a vector; nested lists a matrix), or `z[0]`, `z[1]`, ... an element
a column, as in CSV; a column that names no input is carried through, as an Arrow array of its
own type. A row is a point; a bad row (a null, text that is no number, a list of another length
than the first good row's) is named by its 1-based number and stops the run, or with --skip-bad
is passed over, as a bad line of CSV is. Rows are read in batches (Parquet
row groups, Arrow record batches, cut to --chunk-size): memory stays flat however long the file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from gradcli.errors import NameProblem, PointsProblem
from gradcli.inputs.csv import _COLUMN, _layout, _shapes
from gradcli.inputs.jsonl import _Named, _value
from gradcli.inputs.points import PointChunk
from gradcli.inputs.rows import Array, PointShapes, Shape, shown

# The formats --points-format names, and the extensions that choose the table formats.
POINTS_FORMATS = ("csv", "jsonl", "parquet", "arrow")
EXTENSIONS = {".parquet": "parquet", ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow"}
_NAMES = {"parquet": "Parquet", "arrow": "Arrow IPC/Feather", "table": "a table"}


def table_format(path: str, given: str | None) -> str | None:
    """'parquet' or 'arrow' where the points are a table (by --points-format, else by extension); None for text."""
    if given is not None:
        return given if given in _NAMES else None
    return EXTENSIONS.get(os.path.splitext(path)[1].lower())


def _depth(dtype: Any) -> int:
    """How many lists deep a column's values are (0: a number a row)."""
    import polars as pl

    depth = 0
    while isinstance(dtype, pl.List | pl.Array):
        dtype, depth = dtype.inner, depth + 1
    return depth


def _leaf(dtype: Any) -> Any:
    import polars as pl

    while isinstance(dtype, pl.List | pl.Array):
        dtype = dtype.inner
    return dtype


class TableReader:
    """The points of a Parquet or Arrow file, a PointChunk at a time (PointsReader's contract)."""

    def __init__(self, path: str | Any, format: str, inputs: Mapping[str, int], fixed: Mapping[str, Array],
                 chunk: int = 65_536, skip_bad: bool = False, extra: bool = True) -> None:
        """`path` a file's, or a polars LazyFrame (`format` then names it in messages)."""
        import polars as pl

        self.chunk = chunk
        self.skip_bad = skip_bad
        self.inputs = inputs
        scan = pl.scan_parquet if format == "parquet" else pl.scan_ipc
        try:
            self.frame = scan(path) if isinstance(path, str) else path
            schema = self.frame.collect_schema()
        except (pl.exceptions.PolarsError, OSError, ValueError) as problem:
            reason = (getattr(problem, "strerror", None) or str(problem)).strip().splitlines()[0]
            raise NameProblem(f"cannot read {path!r} as {_NAMES[format]}: {reason}", where="--points") from None
        self.names = list(schema)
        self.lists: dict[str, int] = {}  # a list column's input -> how deep its lists are
        scalars: list[str] = []
        self.extras: list[str] = []  # the columns that name no input: carried through as they are (`extra`)
        for name, dtype in schema.items():
            found = _COLUMN.match(name)
            if found is None or found.group(1) not in inputs:
                if extra:
                    self.extras.append(name)
                continue
            leaf = _leaf(dtype)
            if not (leaf.is_numeric() or (leaf == pl.String and not isinstance(dtype, pl.List | pl.Array))):
                where = f" of {path!r}" if isinstance(path, str) else ""
                raise NameProblem(f"column {name!r}{where} holds {dtype}, not numbers", where="--points")
            if isinstance(dtype, pl.List | pl.Array):
                if name not in inputs:
                    raise NameProblem(f"column {name!r} holds lists: a list column is named by its input alone",
                                      where="--points")
                self.lists[name] = _depth(dtype)
            else:
                scalars.append(name)
        try:
            if any("," in name for name in scalars):
                raise PointsProblem(0, f"column {next(n for n in scalars if ',' in n)!r} is not NAME or NAME[i]")
            self.layout = [(name, index) for name, index in (_layout(",".join(scalars), inputs, 0) if scalars else [])
                           if index is not None]
            self.shapes = PointShapes(inputs, fixed)
            self.shapes.fix(_shapes(self.layout, 0), 0)
        except PointsProblem as problem:
            raise NameProblem(problem.message.removeprefix("line 0: ").replace(" of the header", ""),
                              where="--points") from None
        self.scalars = scalars
        overlap = sorted(set(self.lists) & {name for name, _ in self.layout})
        if overlap:
            raise NameProblem(f"input {overlap[0]!r} is given both as a list column and as element columns",
                              where="--points")
        missing = self.shapes.missing({*self.lists, *(name for name, _ in self.layout)})
        if missing:
            raise NameProblem(f"no column and no --at value for input {', '.join(repr(n) for n in missing)}",
                              where="--points")
        self.row = 0  # rows read so far
        self.first: dict[str, int] = {}  # a list input -> the row that fixed its shape

    def chunks(self) -> Iterator[PointChunk]:
        import polars as pl

        try:
            batches = iter(self.frame.collect_batches(chunk_size=self.chunk))
            while True:
                try:
                    batch = next(batches)
                except StopIteration:
                    return
                for at in range(0, batch.height, self.chunk):
                    yield from self._chunk(batch.slice(at, self.chunk))
        except pl.exceptions.PolarsError as problem:
            reason = str(problem).strip().splitlines()[0]
            raise NameProblem(f"cannot read the points: {reason}", where="--points") from None

    def empty(self) -> PointChunk | None:
        """A chunk of no points with the shapes the columns give (PointsReader.empty)."""
        from gradcli.inputs.points import empty_chunk

        chunk = empty_chunk(self.shapes)
        if chunk is not None:
            chunk.extra = {name: _arrow(self.frame.head(0).collect()[name], None) for name in self.extras}
        return chunk

    def _chunk(self, batch: Any) -> Iterator[PointChunk]:
        count, start = batch.height, self.row + 1
        self.row += count
        bad: dict[int, str] = {}  # a row of the batch -> its first problem
        table = np.empty((count, len(self.scalars)))
        for position, name in enumerate(self.scalars):
            table[:, position] = self._numbers(batch[name], name, bad)
        values = {name: self._lists(batch[name], name, start, bad) for name in self.lists}
        problems = [PointsProblem(start + i, bad[i], unit="row") for i in sorted(bad)]
        good = np.ones(count, dtype=bool)
        if problems and not self.skip_bad:
            good[problems[0].line - start :] = False
        good[list(bad)] = False
        rows = np.flatnonzero(good)
        columns: dict[str, Array] = {}
        for name in self.inputs:
            if name in values:
                columns[name] = values[name][rows]
            elif name in self.shapes.shapes and any(n == name for n, _ in self.layout):
                columns[name] = np.empty((rows.size, *self.shapes.shapes[name]))
        for position, (name, index) in enumerate(self.layout):
            key: tuple[Any, ...] = (slice(None), *index)
            columns[name][key] = table[rows, position]
        lines = (rows + start).tolist()
        extra = {name: _arrow(batch[name], None if rows.size == count else rows) for name in self.extras}
        if problems and not self.skip_bad:
            if lines:
                yield PointChunk(columns, len(lines), lines, [], extra)
            raise problems[0]
        if lines or problems:
            yield PointChunk(columns, len(lines), lines, problems, extra)

    def _numbers(self, column: Any, name: str, bad: dict[int, str]) -> Array:
        """A column of a number a row, as floats; its bad rows into `bad`."""
        import polars as pl

        if column.dtype == pl.String:
            numbers = column.str.strip_chars().cast(pl.Float64, strict=False)
            for i in np.flatnonzero((numbers.is_null() & column.is_not_null()).to_numpy()):
                bad.setdefault(int(i), f"column {name!r}: {shown(column[int(i)])} is not a number")
        else:
            numbers = column.cast(pl.Float64)
        for i in np.flatnonzero(column.is_null().to_numpy()):
            bad.setdefault(int(i), f"column {name!r} is null")
        return numbers.fill_null(np.nan).to_numpy()

    def _lists(self, column: Any, name: str, start: int, bad: dict[int, str]) -> Array:
        """A list column, as an array (rows, *shape); its bad rows into `bad`, their slots left NaN."""
        import polars as pl

        shape = self.shapes.shapes.get(name)
        if shape is None:  # fixed by the first good row
            for i, given in enumerate(column.to_list()):
                try:
                    value = _value(_floats(given))
                except ValueError:
                    continue
                shape = np.shape(value)
                self.shapes.fix({name: shape}, start + i)
                self.first[name] = start + i
                break
            else:
                shape = None
        depth = self.lists[name]
        if shape is not None and len(shape) == depth:
            try:
                flat = column
                for _ in range(depth):
                    flat = flat.explode()
                if not flat.null_count() and not column.null_count():
                    return column.cast(pl.Array(pl.Float64, shape)).to_numpy()
            except pl.exceptions.PolarsError:
                pass
        # some row is bad: each row judged
        out = np.full((column.len(), *(shape or ())), np.nan)
        for i, given in enumerate(column.to_list()):
            if given is None:
                bad.setdefault(i, f"column {name!r} is null")
                continue
            try:
                value = _value(_floats(given))
            except ValueError as problem:
                bad.setdefault(i, f"the list in column {name!r} {problem}")
                continue
            here: Shape = np.shape(value)
            if here != shape:
                assert shape is not None
                before = f"row {self.first.get(name, 0)}" if name in self.first else "its --at value"
                if len(here) == len(shape) == 1:
                    bad.setdefault(i, f"the list in column {name!r} has {here[0]} element{'' if here[0] == 1 else 's'} "
                                      f"where {before} has {shape[0]}")
                else:
                    bad.setdefault(i, f"the list in column {name!r} has shape {here} where {before} has {shape}")
                continue
            out[i] = value
        return out


def _arrow(column: Any, rows: Array | None) -> Any:
    """A polars column as an Arrow array of its own type, its `rows` (all where None)."""
    import pyarrow as pa

    array = (column if rows is None else column.gather(rows)).to_arrow()
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if pa.types.is_string_view(array.type):
        array = array.cast(pa.large_string())
    return array


def _floats(given: Any) -> Any:
    """A row's nested lists with integers as floats (the JSON reader's rule: numbers are floats)."""
    if isinstance(given, list):
        return [_floats(item) for item in given]
    if type(given) is int:
        return float(given)
    if type(given) is float and given - given != 0.0:  # NaN or an infinity the table holds: meant
        return _Named(given)
    return given
