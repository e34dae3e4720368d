"""--points as a table: Parquet, or Arrow IPC/Feather, read a batch of rows at a time by pyarrow.

A column is an input by its name: `x` a number a row (integers, floats, or text holding a
number, read as a CSV cell is), `z` a list a row (a vector; nested lists a matrix), or `z[0]`,
`z[1]`, ... an element a column, as in CSV; a column that names no input is carried through, as
an Arrow array of its own type. A row is a point; a bad row (a null, text that is no number, a
list of another length than the first good row's) is named by its 1-based number and stops the
run, or with --skip-bad is passed over, as a bad line of CSV is. Rows are read in batches
(Parquet row groups, Arrow record batches, cut to --chunk-size): memory stays flat however long
the file. A file pyarrow cannot read (not the format, corrupt, a column name twice) is exit 2
naming the file; an Arrow file's batches are all checked before the first point is computed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from gradcli.arrow import call, cast, floats, from_numbers
from gradcli.errors import NameProblem, PointsProblem
from gradcli.inputs.csv import _COLUMN, _layout, _number, _shapes
from gradcli.inputs.jsonl import _Named, _value
from gradcli.inputs.points import PointChunk, empty_chunk, settled
from gradcli.inputs.rows import Array, Carried, PointShapes, Shape, carries, placed

# The formats --points-format names, and the extensions that choose the table formats.
POINTS_FORMATS = ("csv", "jsonl", "parquet", "arrow")
EXTENSIONS = {".parquet": "parquet", ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow"}
_NAMES = {"parquet": "Parquet", "arrow": "Arrow IPC/Feather", "table": "a table"}


def table_format(path: str, given: str | None) -> str | None:
    """'parquet' or 'arrow' where the points are a table (by --points-format, else by extension, else by the
    first bytes of a whole file: a pipe's are not peeked at); None for text."""
    if given is not None:
        return given if given in _NAMES else None
    extension = os.path.splitext(path)[1].lower()
    if extension in EXTENSIONS or extension == ".arrows":  # (the Arrow stream format's own: read, not written)
        return EXTENSIONS.get(extension, "arrow")
    try:
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as file:
            start = file.read(8)
            file.seek(-4, os.SEEK_END)
            end = file.read(4)
    except OSError:  # (too short to seek back, or not to be read: the text reader says so)
        return None
    if start[:4] == end == b"PAR1":
        return "parquet"
    # an Arrow file starts with its magic, a stream (from Arrow 0.15 on) with a continuation marker: not UTF-8
    return "arrow" if start[:6] == b"ARROW1" or start[:4] == b"\xff\xff\xff\xff" else None


def _lists(kind: Any) -> tuple[int, Any]:
    """How many lists deep a column's values are (0: a number a row), and the type of what they hold."""
    import pyarrow as pa

    depth = 0
    while pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        kind, depth = kind.value_type, depth + 1
    return depth, kind


def _numeric(kind: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind))


def _text(kind: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind))


def _problem(problem: BaseException) -> str:
    return (getattr(problem, "strerror", None) or str(problem) or type(problem).__name__).strip().splitlines()[0]


class _Batches:
    """The record batches of a Parquet or Arrow file (or of a pyarrow Table), opened at once: a file
    pyarrow cannot open is a NameProblem here, before any point is read. An Arrow file's batches (the
    file or the stream format) are mapped, not read: every one is checked here; a Parquet row group
    is checked as it is read (a damaged one is a NameProblem then)."""

    def __init__(self, source: Any, format: str, chunk: int) -> None:
        import pyarrow as pa

        self.chunk = chunk
        self.columns: list[str] | None = None  # the columns a Parquet file is read for (None: all)
        self.parquet: Any = None
        self.batches: Any = None  # an Arrow file's, checked; a table's
        self.where = f"{source!r}" if isinstance(source, str) else "the table"
        try:
            if not isinstance(source, str):
                self.schema, self.batches = source.schema, source.to_batches(max_chunksize=chunk)
            elif format == "parquet":
                import pyarrow.parquet as parquet

                self.parquet = parquet.ParquetFile(source, memory_map=True)
                self.schema = self.parquet.schema_arrow
            else:
                import pyarrow.ipc as ipc

                mapped = pa.memory_map(source)
                try:
                    opened = ipc.open_file(mapped)
                    self.batches = [opened.get_batch(i) for i in range(opened.num_record_batches)]
                except pa.ArrowInvalid:  # not the file format: the stream format (its schema first)
                    mapped.seek(0)
                    opened = ipc.open_stream(mapped)
                    self.batches = list(opened)
                self.schema = opened.schema
                for batch in self.batches:
                    batch.validate(full=True)
        except (pa.ArrowException, OSError, ValueError) as problem:
            raise NameProblem(f"cannot read {self.where} as {_NAMES[format]}: {_problem(problem)}",
                              where="--points") from None
        names = self.schema.names
        twice = next((name for i, name in enumerate(names) if name in names[:i]), None)
        if twice is not None:
            raise NameProblem(f"cannot read {self.where} as {_NAMES[format]}: column {twice!r} is there twice",
                              where="--points")

    def __iter__(self) -> Iterator[Any]:
        import pyarrow as pa

        try:
            batches = self.batches
            if self.parquet is not None:
                batches = self.parquet.iter_batches(batch_size=self.chunk, columns=self.columns)
            for batch in batches:
                if self.parquet is not None:
                    batch.validate(full=True)
                for at in range(0, batch.num_rows, self.chunk):
                    yield batch.slice(at, self.chunk)
        except (pa.ArrowException, OSError, ValueError) as problem:
            raise NameProblem(f"cannot read the points of {self.where}: {_problem(problem)}", where="--points") from None


class TableReader:
    """The points of a Parquet or Arrow file, a PointChunk at a time (PointsReader's contract)."""

    def __init__(self, path: str | Any, format: str, inputs: Mapping[str, int], fixed: Mapping[str, Array],
                 chunk: int = 65_536, skip_bad: bool = False, extra: Carried = True) -> None:
        """`path` a file's, or a pyarrow Table (`format` then names it in messages)."""
        self.chunk = chunk
        self.skip_bad = skip_bad
        self.inputs = inputs
        self.batches = _Batches(path, format, chunk)
        schema = self.batches.schema
        self.lists: dict[str, int] = {}  # a list column's input -> how deep its lists are
        scalars: list[tuple[int, str]] = []  # (position, name) of the element columns
        self.extras: list[str] = []  # the columns that name no input: carried through as they are (`extra`)
        for position, field in enumerate(schema, start=1):
            name, kind = field.name, _plain_type(field.type)
            depth, leaf = _lists(kind)
            found = _COLUMN.match(name)
            if found is None or found.group(1) not in inputs:
                if carries(extra, name):
                    self.extras.append(name)
                continue
            if not (_numeric(leaf) or (_text(leaf) and not depth)):
                where = f" of {path!r}" if isinstance(path, str) else ""
                raise NameProblem(f"column {name!r}{where} holds {kind}, not numbers", where="--points")
            if depth:
                if name not in inputs:
                    raise NameProblem(f"column {name!r} holds lists: a list column is named by its input alone",
                                      where="--points")
                self.lists[name] = depth
            else:
                scalars.append((position, name))
        try:
            self.layout = [(name, index) for name, index in _layout(scalars, inputs, 0)
                           if index is not None]
            self.shapes = PointShapes(inputs, fixed)
            self.shapes.fix(_shapes(self.layout, 0), 0)
        except PointsProblem as problem:
            raise NameProblem(problem.message.removeprefix("line 0: ").replace(" of the header", ""),
                              where="--points") from None
        self.scalars = [name for _, name in scalars]
        overlap = sorted(set(self.lists) & {name for name, _ in self.layout})
        if overlap:
            raise NameProblem(f"input {overlap[0]!r} is given both as a list column and as element columns",
                              where="--points")
        missing = self.shapes.missing({*self.lists, *(name for name, _ in self.layout)})
        if missing:
            raise NameProblem(f"no column and no --at value for input {', '.join(repr(n) for n in missing)}",
                              where="--points")
        self.batches.columns = [name for name in schema.names
                                if name in self.lists or name in self.scalars or name in self.extras]
        self.row = 0  # rows read so far
        self.first: dict[str, int] = {}  # a list input -> the row that fixed its shape

    def chunks(self) -> Iterator[PointChunk]:
        for batch in self.batches:
            yield from self._chunk(batch)

    def empty(self) -> PointChunk | None:
        """A chunk of no points with the shapes the columns give (PointsReader.empty)."""
        chunk = empty_chunk(self.shapes)
        if chunk is not None:
            table = self.batches.schema.empty_table()
            chunk.extra = {name: _arrow(table.column(name), None) for name in self.extras}
        return chunk

    def _chunk(self, batch: Any) -> Iterator[PointChunk]:
        count, start = batch.num_rows, self.row + 1
        self.row += count
        bad: dict[int, str] = {}  # a row of the batch -> its first problem
        table = np.empty((count, len(self.scalars)))
        for position, name in enumerate(self.scalars):
            table[:, position] = self._numbers(_decoded(batch.column(name)), name, bad)
        values = {name: self._lists(_decoded(batch.column(name)), name, start, bad) for name in self.lists}
        problems = [PointsProblem(start + i, bad[i], unit="row") for i in sorted(bad)]
        if self.skip_bad:  # the bad rows' columns carried through, for --mark-bad's rows
            for problem in problems:
                problem.extra = {name: batch.column(name)[problem.line - start].as_py() for name in self.extras}
        good = np.ones(count, dtype=bool)
        if problems and not self.skip_bad:
            good[problems[0].line - start :] = False
        good[list(bad)] = False
        rows = np.flatnonzero(good)
        cells = placed(self.layout, self.shapes.shapes, self.inputs, list(np.ascontiguousarray(table[rows].T)), rows.size)
        columns = {name: values[name][rows] if name in values else cells[name]
                   for name in self.inputs if name in values or name in cells}
        lines = (rows + start).tolist()
        extra = {name: _arrow(batch.column(name), None if rows.size == count else rows) for name in self.extras}
        yield from settled(PointChunk(columns, len(lines), lines, problems, extra), self.skip_bad)

    def _numbers(self, column: Any, name: str, bad: dict[int, str]) -> Array:
        """A column of a number a row, as floats; its bad rows into `bad`. Text is read as a CSV
        cell is (`1e400` is past float64's range, not inf)."""
        if _text(column.type):
            numbers = np.full(len(column), np.nan)
            for i, text in enumerate(column.to_pylist()):
                if text is None:
                    bad.setdefault(i, f"column {name!r} is null")
                    continue
                number = _number(text)
                if isinstance(number, str):
                    bad.setdefault(i, f"column {name!r}: {number}")
                else:
                    numbers[i] = number
            return numbers
        numbers = _as_floats(column)
        if column.null_count:
            for row in np.flatnonzero(~_valid(column)).tolist():
                bad.setdefault(row, f"column {name!r} is null")
        return numbers

    def _lists(self, column: Any, name: str, start: int, bad: dict[int, str]) -> Array:
        """A list column, as an array (rows, *shape); its bad rows into `bad`, their slots left NaN."""
        shape = self.shapes.shapes.get(name)
        given: list[Any] | None = None
        if shape is None:  # fixed by the first good row
            given = column.to_pylist()
            for i, row in enumerate(given):
                try:
                    value = _value(_floats(row))
                except ValueError:
                    continue
                shape = np.shape(value)
                self.shapes.fix({name: shape}, start + i)
                self.first[name] = start + i
                break
        if shape is not None and len(shape) == self.lists[name]:
            whole = _regular(column, shape)
            if whole is not None:
                return whole
        # some row is bad: each row judged
        out = np.full((len(column), *(shape or ())), np.nan)
        for i, row in enumerate(column.to_pylist() if given is None else given):
            if row is None:
                bad.setdefault(i, f"column {name!r} is null")
                continue
            try:
                value = _value(_floats(row))
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


def _decoded(column: Any) -> Any:
    """A column as one array of plain types (_plain)."""
    return _plain(column.combine_chunks() if hasattr(column, "combine_chunks") else column)


def _plain(column: Any) -> Any:
    """An Arrow array of plain types: a dictionary-encoded one (a pandas or polars categorical) as its values
    (each Parquet row group may bring its own dictionary, an Arrow file holds one a column), and views (polars
    writes text as string_view) as large text, bytes and lists, which every kernel takes (`take` no view)."""
    import pyarrow as pa

    if pa.types.is_dictionary(column.type):
        return call("take", _plain(column.dictionary), column.indices)
    kind = _plain_type(column.type)
    return column if kind == column.type else cast(column, kind, safe=False)


def _plain_type(kind: Any) -> Any:
    """The type _plain gives an array of this type."""
    import pyarrow as pa

    types = pa.types
    if types.is_dictionary(kind):
        return _plain_type(kind.value_type)
    if types.is_string_view(kind):
        return pa.large_string()
    if types.is_binary_view(kind):
        return pa.large_binary()
    if types.is_list_view(kind) or types.is_large_list_view(kind):
        return pa.large_list(kind.value_field.with_type(_plain_type(kind.value_type)))
    if types.is_list(kind) or types.is_large_list(kind) or types.is_fixed_size_list(kind):
        item = kind.value_field.with_type(_plain_type(kind.value_type))
        return (pa.list_(item) if types.is_list(kind) else pa.large_list(item) if types.is_large_list(kind)
                else pa.list_(item, kind.list_size))
    if types.is_struct(kind):
        return pa.struct([field.with_type(_plain_type(field.type)) for field in kind])
    if types.is_map(kind):
        return pa.map_(kind.key_field.with_type(_plain_type(kind.key_type)),
                       kind.item_field.with_type(_plain_type(kind.item_type)), kind.keys_sorted)
    return kind


def _as_floats(column: Any) -> Array:
    """A numeric Arrow array as float64 (integers rounded as float() rounds them; a null: NaN)."""
    import pyarrow as pa

    if not pa.types.is_float64(column.type):
        column = cast(column, pa.float64(), safe=False)
    numbers = floats(column)
    if column.null_count:
        numbers = np.where(_valid(column), numbers, np.nan)
    return numbers


def _valid(column: Any) -> Array:
    """Which rows of an Arrow array are not null."""
    bits = column.buffers()[0]
    if bits is None:
        return np.ones(len(column), dtype=bool)
    return np.unpackbits(np.frombuffer(bits, dtype=np.uint8), bitorder="little",
                         count=column.offset + len(column))[column.offset :].astype(bool)


def _regular(column: Any, shape: Shape) -> Array | None:
    """A list column whose every row is a full list of `shape` without a null, as an array (rows,
    *shape) at once; None where some row is not (each row is then judged on its own)."""
    flat = column
    for length in shape:
        if flat.null_count or (len(flat) and not (np.asarray(call("list_value_length", flat)) == length).all()):
            return None
        flat = flat.flatten()
    if flat.null_count or not _numeric(flat.type):
        return None
    return _as_floats(flat).reshape(len(column), *shape)


def _arrow(column: Any, rows: Array | None) -> Any:
    """A column carried through as an Arrow array of its own type (made plain: _plain), its `rows` (all where None)."""
    import pyarrow as pa

    column = _decoded(column)
    if rows is not None:
        column = call("take", column, from_numbers(rows, pa.int64()))
    return column


def _floats(given: Any) -> Any:
    """A row's nested lists with integers as floats (the JSON reader's rule: numbers are floats)."""
    if isinstance(given, list):
        return [_floats(item) for item in given]
    if type(given) is int:
        return float(given)
    if type(given) is float and given - given != 0.0:  # NaN or an infinity the table holds: meant
        return _Named(given)
    return given
