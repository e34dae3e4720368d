"""Results at many points, written as they come: JSON Lines, CSV, or a rich table.

JSON Lines, CSV and the table are written a chunk at a time from `pieces` (the same text on every
line, or a column: one text a point) put together by the compiled helper (inputs/_numbers.c,
`lines`), which writes each float as Python's `repr` does (the same bytes); where pip built no
helper, by Python, a line at a time. Parquet and Arrow are written by pyarrow (the data extra).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from gradcli.arrow import available, cast, from_numbers
from gradcli.batch import BatchResult
from gradcli.diagnostics import point_warnings
from gradcli.errors import PointsProblem, visible
from gradcli.inputs.points import PointChunk
from gradcli.inputs.rows import Cells, helper
from gradcli.inputs.tables import EXTENSIONS
from gradcli.render.numbers import human_line, to_json

Texts = tuple  # a column of text: one str a point (a tuple; a list in a document is a JSON list)


def _piece(piece: Any, null: bytes | None) -> Any:
    """A piece as the helper's `lines` takes it: bytes, or (kind, column, argument)."""
    if isinstance(piece, str):
        return piece.encode()
    if isinstance(piece, np.ndarray):
        if piece.dtype.kind in "iu":
            return "d", np.ascontiguousarray(piece, dtype=np.int64), 0
        return "r", np.ascontiguousarray(piece, dtype=np.float64), null
    if isinstance(piece, list):  # the table's (kind, column, width)
        kind, column, width = piece
        return kind, column if kind == "s" else np.ascontiguousarray(column, dtype=np.int64 if kind == "d" else float), width
    return "s", piece, 0


def _joined(pieces: list[Any], count: int, null: str | None = None) -> list[Text]:
    """The `count` lines of `pieces` put together, each piece in turn (the last ends the line): a str is
    the same on every line, a float array each point's number as `repr` writes it (`null`, where given,
    for NaN and infinities), an int array each point's integer, Texts each point's text, and a list
    (kind, column, width) a column the table right-aligns: ('g', floats) as `format(x, '.6g')`,
    ('d', ints), ('s', texts)."""
    merged: list[Any] = []  # neighbouring fixed texts as one
    for piece in pieces:
        if isinstance(piece, str) and merged and isinstance(merged[-1], str):
            merged[-1] += piece
        else:
            merged.append(piece)
    given = [_piece(piece, None if null is None else null.encode()) for piece in merged]
    if helper is not None:
        return [helper.lines(given, count)]
    columns: list[Any] = []  # where pip built no helper: the same text, a line at a time
    for piece in given:
        if isinstance(piece, bytes):
            columns.append(repeat(piece.decode()))
            continue
        kind, column, argument = piece
        if kind == "r":
            texts = [repr(n) if argument is None or n - n == 0.0 else argument.decode() for n in column.tolist()]
        else:
            texts = ([f"{n:.6g}" for n in column.tolist()] if kind == "g" else list(map(str, column.tolist()))
                     if kind == "d" else ["" if text is None else str(text) for text in column])
            texts = [text.rjust(argument) for text in texts] if argument else texts
        columns.append(texts)
    return ["".join(map("".join, zip(*columns)))] if count else []


def _cells(array: Any) -> Cells:
    """A column carried through, as Cells (from a Parquet or Arrow file: strings, integers, floats,
    booleans as they are, lists, structs and maps as JSON values, any other type as the text pyarrow
    casts it to)."""
    if isinstance(array, Cells):
        return array
    import pyarrow as pa

    kind = array.type
    for test, name in ((pa.types.is_boolean, "bool"), (pa.types.is_integer, "int"), (pa.types.is_floating, "float"),
                       (pa.types.is_null, "text")):
        if test(kind):
            return Cells(array.to_pylist(), texts=False, kind=name)
    if pa.types.is_nested(kind):  # a list, struct or map: its JSON value (lists, objects)
        return Cells(array.to_pylist(), texts=False, kind="json")
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_fixed_size_binary(kind):
        # (bytes carried through as text: what is not UTF-8 written as Python escapes it, \xff)
        return Cells([None if value is None else value.decode("utf-8", "backslashreplace") for value in array.to_pylist()],
                     texts=False, kind="text")
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        array = cast(array, pa.large_string())
    return Cells(array.to_pylist(), texts=False, kind="text")


def _csv_cells(column: Any) -> Texts:
    """A column carried through, as CSV cells: text quoted (RFC 4180) where it holds a comma, a quote or a
    line end (a CSV cell as it was read, or quoted again); empty for a null; a float as `repr`
    writes it (a missing float NaN), as the results are; any other JSON value as its JSON text."""
    cells = _cells(column)
    kind = cells.kind
    if kind == "float":
        return tuple(repr(float("nan") if value is None else float(value)) for value in cells)
    if kind == "text" and cells.texts and not any(c in "".join(cells) for c in ',"\r\n'):  # plain CSV cells, as read
        return tuple(cells)
    if kind == "bool":
        return tuple("" if value is None else str(value).lower() for value in cells)
    if kind == "int":
        return tuple("" if value is None else str(value) for value in cells)
    return tuple("" if value is None else _csv_cell(value if kind == "text" else json.dumps(value, default=str)) for value in cells)


def _csv_cell(text: str) -> str:
    """One cell's text, quoted (RFC 4180) where it holds a comma, a quote or a line end (polars' reader takes a
    quote inside an unquoted cell for the start of a quoted one)."""
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\r\n') else text


def _json_values(column: Any) -> Texts:
    """A column carried through, as each point's JSON text: strings quoted, numbers and booleans as
    they are, null for a null, NaN and infinities null (RFC 8259)."""
    cells = _cells(column)
    if cells.kind == "float":
        return tuple("null" if value is None or value - value != 0 else repr(float(value)) for value in cells)
    if cells.kind == "text":
        from json.encoder import encode_basestring_ascii as quoted  # what json.dumps writes of a str

        return tuple("null" if value is None else quoted(value) for value in cells)
    return tuple(map(_json_text, cells))



def _result_columns(result: BatchResult, lists: bool = False) -> list[tuple[str, np.ndarray]]:
    """The results as CSV, Parquet and Arrow name and write them: an element a column (`grad_z[0]`),
    or with `lists` an array (points, ...) a column (`grad_z`, a list a point)."""
    named = [*(("value" if len(result.values) == 1 else f"value_{name}", value)
               for name, value in zip(result.root_names, result.values, strict=True)), *result.columns()]
    if lists:
        return named
    return [(label, block[:, i]) for name, array in named for block in [_flat(array)]
            for i, label in enumerate(element_names(name, array.shape[1:]))]


def _flat_header(extra: list[str], result: BatchResult, row_id: bool, marks: bool,
                 lists: bool = False) -> tuple[list[tuple[str, str]], list[str]]:
    """The columns CSV, Parquet and Arrow write: `row` (--row-id), the columns carried through (as
    (output's name, input's): one named as another column is written `extra_NAME`), `error` (--mark-bad),
    then the results'; the carried, and every column's name."""
    labels = [label for label, _ in _result_columns(result, lists)]
    lead, error = (["row"] if row_id else []), (["error"] if marks else [])
    taken = {*labels, *lead, *error}
    carried = [(f"extra_{name}" if name in taken else name, name) for name in extra]
    return carried, [*lead, *(label for label, _ in carried), *error, *labels]


def _extra_column(chunk: PointChunk, name: str) -> Any:
    """A column carried through, the chunk's (nulls where its rows have none: a later name in JSON Lines)."""
    found = chunk.extra.get(name)
    return Cells([None] * chunk.count) if found is None else found


def _json_text(value: Any) -> str:
    """A value carried through as JSON text: NaN and infinities null at any depth, as RFC 8259 has them (where
    there are any, by a round trip through the text json writes: no recursion of ours, however deep)."""
    try:
        return json.dumps(value, allow_nan=False, default=str)
    except ValueError:
        return json.dumps(json.loads(json.dumps(value, default=str), parse_constant=lambda _: None))


Text = str | bytes  # what a chunk's rendering gives: text, or UTF-8 bytes
Rendering = Callable[[], list[Text]]


def emit(out: Any, parts: list[Text]) -> None:
    """Text to `out`, and bytes as bytes where it takes them (no decoding and encoding again)."""
    for part in parts:
        if isinstance(part, str):
            out.write(part)
        elif hasattr(out, "write_bytes"):
            out.write_bytes(part)
        elif hasattr(out, "buffer"):
            out.flush()
            out.buffer.write(part)
        else:
            out.write(bytes(part).decode())


class Writer:
    """Results a chunk at a time, as text. `render` does in order what depends on the chunks before
    (a header, the columns' widths) and gives the rest as a function, which may run on another thread
    (see Stdout) and gives the text."""

    held: list[PointsProblem]  # bad lines waiting for a header

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        raise NotImplementedError

    def render_bad(self, problems: Sequence[PointsProblem]) -> Rendering:
        """--mark-bad: a row for each bad line, where it was (what a format writes before its
        first results, a header, waits for them: `held`)."""
        if not self._begun():
            self.held += problems
            return list
        text = self._bad_lines(problems)
        return lambda: [text]

    def _begun(self) -> bool:
        """Is what goes before the rows (a header) written?"""
        return True

    def _bad_lines(self, problems: Sequence[PointsProblem]) -> str:
        raise NotImplementedError

    def finish(self) -> list[Text]:
        """What is still to write once every chunk is (bad lines held for a header that never came)."""
        return []

    def _held_lines(self) -> list[Text]:
        """The bad lines held for a header, now that it is written (or never will be)."""
        held, self.held = self.held, []
        return [self._bad_lines(held)] if held else []


def _flat(array: np.ndarray) -> np.ndarray:
    """(points, ...) -> (points, elements a point), for no points too."""
    return array.reshape(array.shape[0], int(np.prod(array.shape[1:], dtype=np.int64)))


def element_names(name: str, shape: tuple[int, ...]) -> list[str]:
    """`z` of shape (2,) -> ['z[0]', 'z[1]']; a scalar keeps its name."""
    return [name + "".join(f"[{i}]" for i in index) for index in np.ndindex(*shape)] if shape else [name]


class JsonLinesWriter(Writer):
    """One JSON object per point: the input line, the point (in the program's input order),
    the value and the derivative. With `array` (a .json file), the same objects as the elements of
    one JSON array: `[` before the first, a comma before each other, `]` after the last."""

    def __init__(self, fixed: Mapping[str, np.ndarray], inputs: Sequence[str], row_id: bool = False,
                 marks: bool = False, array: bool = False) -> None:
        self.fixed = {name: to_json(value) for name, value in fixed.items()}
        self.given = {name: np.asarray(value) for name, value in fixed.items()}  # (--at values: their warnings)
        self.inputs = list(inputs)
        self.array = array
        self.started = False  # an object is written

    def _starts(self, count: int) -> tuple[str, str, str]:
        """What goes before the next `count` objects' first, and before each other; what ends each."""
        first = "" if not self.array else ",\n" if self.started else "[\n"
        self.started = self.started or count > 0
        return first, ",\n" if self.array else "", "" if self.array else "\n"

    def _bad_lines(self, problems: Sequence[PointsProblem]) -> str:
        first, between, end = self._starts(len(problems))
        return first + between.join(_json_text({"line": problem.line, "row": problem.row, **_beside(problem.extra),
                                                "error": problem.reason}) + end for problem in problems)

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        if not chunk.count:
            return list
        starts = self._starts(chunk.count)
        return lambda: self._columns(chunk, result, starts)

    def finish(self) -> list[Text]:
        return ["\n]\n" if self.started else "[]\n"] if self.array else []

    def _derivative(self, result: BatchResult) -> Any:
        """The derivative, laid out as the one-point --json of the same command: arrays of (points, ...)."""
        per_root: list[Any]
        if result.kind == "grad":
            per_root = [dict(result.grad)]
        elif result.kind == "jvp":
            per_root = list(result.per_root)
        else:
            per_root = [dict(blocks) for blocks in result.per_root]
        return per_root if result.is_tuple and result.kind != "grad" else per_root[0]

    def _columns(self, chunk: PointChunk, result: BatchResult, starts: tuple[str, str, str]) -> list[Text]:
        """The whole chunk at once: a template of the document whose numbers are columns of text."""
        at = {name: json.dumps(self.fixed[name]) if name not in chunk.columns else chunk.columns[name]
              for name in self.inputs}
        value = list(result.values) if result.is_tuple else result.values[0]
        derivative = self._derivative(result)
        rows = chunk.rows()
        first, between, end = starts
        pieces: list[Any] = [(first, *[between] * (chunk.count - 1)) if first != between else first]
        document = {"line": chunk.line_numbers(), "row": rows, **_beside({name: _json_values(column)
                                                                   for name, column in chunk.extra.items()}),
                    "at": at, "value": value, result.kind: derivative}
        _template(document, pieces)
        inputs = {name: (chunk.columns[name], True) if name in chunk.columns else (self.given[name], False)
                  for name in self.inputs}
        finite = np.ones(chunk.count, dtype=bool)
        for array in [*(column for column, per_point in inputs.values() if per_point), *result.values,
                      *(array for _, array in result.columns())]:
            finite &= np.isfinite(array.reshape(chunk.count, -1)).all(axis=1)
        if not all(np.isfinite(value).all() for value, per_point in inputs.values() if not per_point):
            finite[:] = False
        pieces.pop()  # the closing brace: warnings, where a number is not finite, go before it
        if not finite.all():
            texts = [""] * chunk.count
            bad = np.flatnonzero(~finite).tolist()
            for row, said in zip(bad, point_warnings(result, bad, inputs), strict=True):
                texts[row] = ", " + json.dumps("warnings") + ": " + json.dumps(said)
            pieces.append(tuple(texts))
        pieces.append("}" + end)
        return _joined(pieces, chunk.count, null="null")


# The keys gradcli writes: a column carried through of one of these names goes under "extra".
KEYS = frozenset({"line", "row", "at", "value", "grad", "jvp", "jacobian", "warnings", "error", "extra"})


def _beside(extra: dict[str, Any]) -> dict[str, Any]:
    """The columns carried through, beside the results under their own names; those named as a key
    gradcli writes, under "extra"."""
    own = {name: value for name, value in extra.items() if name not in KEYS}
    clash = {name: value for name, value in extra.items() if name in KEYS}
    return {**own, **({"extra": clash} if clash else {})}


def _template(item: Any, pieces: list[Any]) -> None:
    """`item` as json.dumps writes it, into `pieces`: str for fixed text (a str in `item` is JSON text
    the same on every line, Texts each point's), an array of the points' numbers for each element of an
    array of (points, ...), integers as they are."""
    if isinstance(item, dict):
        pieces.append("{")
        for i, (key, part) in enumerate(item.items()):
            pieces.append((", " if i else "") + json.dumps(key) + ": ")
            _template(part, pieces)
        pieces.append("}")
    elif isinstance(item, list):
        pieces.append("[")
        for i, part in enumerate(item):
            if i:
                pieces.append(", ")
            _template(part, pieces)
        pieces.append("]")
    elif not isinstance(item, np.ndarray) or item.dtype.kind == "i":  # JSON text, the lines and rows
        pieces.append(item)
    elif item.ndim == 1:
        pieces.append(np.ascontiguousarray(item, dtype=float))
    else:
        _template([item[:, i] for i in range(item.shape[1])], pieces)


class CsvWriter(Writer):
    """A header, then one row per point: the value's columns, then the derivative's
    (`grad_NAME`; `jvp`; `dOUT/dNAME` for a Jacobian), an element a column."""

    def __init__(self, fixed: Mapping[str, np.ndarray], inputs: Sequence[str], row_id: bool = False,
                 marks: bool = False) -> None:
        self.started = False
        self.row_id = row_id
        self.marks = marks  # --mark-bad: an `error` column after the columns carried through
        self.carried: list[tuple[str, str]] = []  # the columns carried through, fixed by the first chunk
        self.width = 1 + row_id  # the header's cells
        self.held = []

    def _bad_lines(self, problems: Sequence[PointsProblem]) -> str:
        lines = []
        for problem in problems:
            cells = [*([str(problem.row)] if self.row_id else []),
                     *(_csv_cells(Cells([problem.extra.get(name)], texts=False))[0] for _, name in self.carried),
                     _csv_cell(problem.reason)]
            lines.append(",".join(cells + [""] * (self.width - len(cells))) + "\n")
        return "".join(lines)

    def _begun(self) -> bool:
        return self.started

    def finish(self) -> list[Text]:
        if self.started or not self.held:
            return []
        self.started = True  # no results came: the header has what is known
        return [",".join([*(["row"] if self.row_id else []), "error"]) + "\n", *self._held_lines()]

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        header: list[Text] = []
        if not self.started:
            self.carried, names = _flat_header(list(chunk.extra), result, self.row_id, self.marks)
            self.width = len(names)
            header.append(",".join(map(_csv_cell, names)) + "\n")
            self.started = True
            header += self._held_lines()  # bad lines that came before the first results, after the header
        if not chunk.count:
            return lambda: header

        def rows() -> list[Text]:
            pieces: list[Any] = [chunk.rows(), ","] if self.row_id else []
            for _, name in self.carried:
                pieces += [_csv_cells(_extra_column(chunk, name)), ","]
            if self.marks:  # the `error` column: empty on a good line
                pieces.append(",")
            for _, column in _result_columns(result):
                pieces += [column, ","]
            pieces[-1:] = ["\n"]
            return [*header, *_joined(pieces, chunk.count)]

        return rows


NUMBER_WIDTH = 13  # the widest number a table cell writes (`.6g`): -1.23457e-100
LINE_WIDTH = 7  # line numbers up to 9,999,999 (more than a person reads a table of)


class TableWriter(Writer):
    """A table for people, as plain text written a chunk at a time (rich would take a minute
    for 200,000 rows). The header is written before later points are seen, so a column is as
    wide as what it can hold where that is known (a number; a line number up to LINE_WIDTH
    digits), from a file and from a pipe alike; a vector's cells as the widest so far."""

    def __init__(self, fixed: Mapping[str, np.ndarray], inputs: Sequence[str], row_id: bool = False,
                 marks: bool = False) -> None:
        self.widths: list[int] = []
        self.held = []

    def _bad_lines(self, problems: Sequence[PointsProblem]) -> str:
        width = self.widths[0] if self.widths else LINE_WIDTH
        return "".join(f" {problem.row:>{width}} │ error: {visible(problem.reason)}\n" for problem in problems)

    def _begun(self) -> bool:
        return bool(self.widths)

    def finish(self) -> list[Text]:
        return self._held_lines()

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        derivatives = result.columns()
        headers = ["row", *(result.root_names if len(result.root_names) > 1 else ["value"]),
                   *(label.replace("_", " ", 1) for label, _ in derivatives)]
        arrays = [*result.values, *(array for _, array in derivatives)]
        numbers = chunk.rows()
        columns = [["d", numbers, len(str(int(numbers.max()))) if chunk.count else 0], *map(_table_column, arrays)]
        least = [LINE_WIDTH, *(NUMBER_WIDTH if array.ndim == 1 else 0 for array in arrays)]
        widths = [max(len(header), floor, column[2]) for header, floor, column in zip(headers, least, columns, strict=True)]
        top: list[Text] = []
        if not self.widths:
            top.append(" " + " ┃ ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True)) + "\n")
            top.append("╇".join("━" * (w + 2) for w in widths) + "\n")
            self.widths = widths
        self.widths = widths = [max(w, old) for w, old in zip(widths, self.widths, strict=True)]
        top += self._held_lines()  # bad lines that came before the first results, after the header
        if not chunk.count:
            return lambda: top

        def rows() -> list[Text]:
            pieces: list[Any] = [" "]
            for i, ((kind, cells, _), width) in enumerate(zip(columns, widths, strict=True)):
                pieces += [" │ "] if i else []
                pieces.append([kind, cells, width])
            pieces.append("\n")
            return [*top, *_joined(pieces, chunk.count)]

        return rows


def _table_column(array: np.ndarray) -> list[Any]:
    """A column of the table, as _joined takes it, and its widest cell: each point's element of
    `array` (its first axis) as the one-point table writes it, on one line (a matrix's rows too: a
    row of this table is a line); a number as `human` writes it (.6g), never wider than NUMBER_WIDTH."""
    if array.ndim == 1:
        return ["g", array, NUMBER_WIDTH]
    cells = tuple(human_line(element) for element in array)
    return ["s", cells, max(map(len, cells), default=0)]


WRITERS: dict[str, Callable[..., Any]] = {"json": JsonLinesWriter, "csv": CsvWriter, "table": TableWriter}


class Stdout:
    """--points results to standard output (`out`), chunk by chunk, through a format's writer: from a
    file pipelined, from a pipe or a terminal each chunk flushed as soon as it is written. Output, to
    --output FILE, is the same with a file in place of stdout.

    Pipelined, a chunk is rendered on a worker thread and written in input order once it is ready:
    the helper (writing numbers) and NumPy let go of Python's lock for much of their work, so the
    rendering of one chunk overlaps the reading, computing and rendering of the next. At most AHEAD
    chunks wait their turn (memory stays bounded); `flush` writes all that wait."""

    AHEAD = 2

    def __init__(self, out: Any, writer: Any, pipelined: bool, flushed: bool) -> None:
        from collections import deque
        from concurrent.futures import Future, ThreadPoolExecutor

        self.out = out
        self.flushed = flushed  # each chunk flushed as soon as it is written
        self.writer: Any = writer
        self.pool = ThreadPoolExecutor(2, thread_name_prefix="gradcli-writer") if pipelined else None
        self.waiting: deque[Future[list[Text]]] = deque()

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        self._put(self.writer.render(chunk, result))

    def write_bad(self, problems: Sequence[PointsProblem]) -> None:
        self._put(self.writer.render_bad(problems))

    def _put(self, rendering: Rendering) -> None:
        if self.pool is None:
            self._emit(rendering())
            if self.flushed:
                self.out.flush()
            return
        self.waiting.append(self.pool.submit(rendering))
        while self.waiting and (len(self.waiting) > self.AHEAD or self.waiting[0].done()):
            self._emit(self.waiting.popleft().result())

    def _emit(self, parts: list[Text]) -> None:
        """`parts` to `out`, where a failed write (--output FILE on a full disk) is an OutputProblem, exit 5
        (stdout's own failures are __main__'s)."""
        try:
            emit(self.out, parts)
        except OSError as problem:
            from gradcli.errors import cannot_write

            raise cannot_write(problem) from None

    def flush(self) -> None:
        while self.waiting:
            self._emit(self.waiting.popleft().result())

    def commit(self) -> None:
        self.flush()
        self._emit(self.writer.finish())
        self._stop()

    def abandon(self) -> None:
        self._stop()

    def _stop(self) -> None:
        """No more chunks: the pool's threads end (what waits, not written, is dropped)."""
        for waiting in self.waiting:
            waiting.cancel()
        self.waiting.clear()
        if self.pool is not None:
            self.pool.shutdown(wait=True)


# --- --output FILE ----------------------------------------------------------------------------

OUTPUT_KINDS = {".csv": "csv", ".jsonl": "json", ".ndjson": "json", ".json": "array", **EXTENSIONS}


def output_kind(path: str) -> str:
    """What --output FILE writes, by its extension: csv, json (JSON Lines), array (one JSON array of the
    objects JSON Lines writes a line each: a .json file is one JSON document), parquet or arrow."""
    import os

    from gradcli.errors import NameProblem

    kind = OUTPUT_KINDS.get(os.path.splitext(path)[1].lower())
    if kind is None:
        raise NameProblem(f"--output {path!r}: the extension says what is written: .csv, .jsonl (JSON Lines), "
                          ".json (one JSON array), .parquet, or .arrow/.feather (Arrow IPC)")
    return kind


def _cast_carried(column: Any, field: Any, chunk: PointChunk, kind: str) -> Any:
    """A later chunk's column carried through, cast to the type the first chunk gave it; a value it cannot hold
    is said at its line (exit 2; the file is not written), never an internal error."""
    import pyarrow as pa

    try:
        return cast(column, field.type)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        for index, value in enumerate(column.to_pylist()):
            try:
                cast(pa.array([value], column.type), field.type)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                raise PointsProblem(int(chunk.lines[index]), (
                    f"the column {field.name!r} carried into the {'Parquet' if kind == 'parquet' else 'Arrow'} "
                    f"output is {field.type} (its first rows'), and {visible(repr(value))} is not: a column keeps one "
                    "type there (write CSV or JSON Lines, or leave the column out: --drop-extra)")) from None
        raise


class ColumnsWriter(Writer):
    """Parquet or Arrow IPC: the columns --csv writes (value, grad_NAME, an element a column
    NAME[i]), float64, written by pyarrow a chunk at a time (a row group, a record batch: memory flat).
    Bad lines before the first results wait for its schema (`held`). Kind "table" (grad_table): the
    batches kept in memory (`batches`), an input's vectors as list columns where `lists`."""

    def __init__(self, path: str | None, kind: str, row_id: bool = False, marks: bool = False,
                 lists: bool = False) -> None:
        self.path = path
        self.kind = kind
        self.row_id = row_id
        self.marks = marks  # --mark-bad: an `error` column (text) after the columns carried through
        self.lists = lists
        self.batches: list[Any] = []
        self.held = []
        self.carried: list[tuple[str, str]] = []  # the columns carried through (the first chunk's): output's, input's name
        self.names: list[str] = []  # every column's
        self.schema: Any = None  # the first chunk's: later chunks' columns carried through are cast to it
        self.writer: Any = None

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        """The chunk written at once (a Parquet or Arrow file is never pipelined)."""
        import pyarrow as pa

        if self.schema is None:
            self.carried, self.names = _flat_header(list(chunk.extra), result, self.row_id, self.marks, self.lists)
        arrays = [*([from_numbers(chunk.rows(), pa.int64())] if self.row_id else []),
                  *(_arrow_array(_extra_column(chunk, name)) for _, name in self.carried),
                  *([pa.nulls(chunk.count, pa.large_string())] if self.marks else []),
                  *(_arrow_numbers(numbers) for _, numbers in _result_columns(result, self.lists))]
        batch = pa.RecordBatch.from_arrays(arrays, names=self.names)
        if self.schema is not None and batch.schema != self.schema:
            batch = pa.RecordBatch.from_arrays([column if column.type == field.type else
                                                _cast_carried(column, field, chunk, self.kind)
                                                for column, field in zip(batch.columns, self.schema, strict=True)],
                                               schema=self.schema)
        self._write(batch if chunk.count else None, batch.schema)
        return list

    def render_bad(self, problems: Sequence[PointsProblem]) -> Rendering:
        for batch in super().render_bad(problems)():
            self._write(batch, self.schema)
        return list

    def _begun(self) -> bool:
        return self.schema is not None

    def _write(self, batch: Any, schema: Any, closing: bool = False) -> None:
        """`batch` written (the file opened first, with `schema`, and the bad lines held for it written);
        `closing`: then the file closed."""
        import pyarrow as pa

        try:
            if self.writer is None:
                self.schema = schema
                if self.kind == "table":
                    self.writer = self
                elif self.kind == "parquet":
                    import pyarrow.parquet as parquet

                    # Dictionaries only for the columns carried through: a column of results seldom repeats a
                    # number, and trying a dictionary on it first took 5x the time of writing it plain.
                    self.writer = parquet.ParquetWriter(self.path, schema, use_dictionary=[n for n, _ in self.carried])
                else:
                    import pyarrow.ipc as ipc

                    self.writer = ipc.new_file(self.path, schema)
                for held in self._held_lines():
                    self.writer.write_batch(held)
            if batch is not None:
                self.writer.write_batch(batch)
            if closing:
                self.writer.close()
        except (OSError, pa.ArrowException) as problem:
            from gradcli.errors import OutputProblem

            reason = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
            raise OutputProblem(f"cannot write the output: {reason}") from None

    def write_batch(self, batch: Any) -> None:  # (kind "table": the writer of the batches)
        self.batches.append(batch)

    def _bad_lines(self, problems: Sequence[PointsProblem]) -> Any:
        """A row for each bad line: its row (with --row-id), its reason under `error`, nulls elsewhere."""
        import pyarrow as pa

        count = len(problems)
        carried = dict(self.carried)
        columns: list[Any] = []
        for field in self.schema:
            if field.name == "row" and self.row_id and not columns:
                columns.append(from_numbers(np.array([problem.row for problem in problems]), pa.int64()))
            elif field.name == "error" and field.type == pa.large_string() and self.marks:
                columns.append(_arrow_array([problem.reason for problem in problems]))
            elif field.name in carried:  # a column carried through: the bad lines' own values where they fit
                try:
                    columns.append(pa.array([problem.extra.get(carried[field.name]) for problem in problems],
                                            type=field.type))
                except (pa.ArrowException, TypeError, ValueError, OverflowError):
                    columns.append(pa.nulls(count, field.type))
            else:
                columns.append(pa.nulls(count, field.type))
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    def close(self) -> None:
        import pyarrow as pa

        # no points: the file still says so (and the bad lines, --mark-bad)
        self._write(None, pa.schema([*([("row", pa.int64())] if self.row_id else []),
                                     *([("error", pa.large_string())] if self.held else [])]), closing=True)

    def abandon(self) -> None:
        import contextlib

        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()


def _arrow_numbers(array: np.ndarray) -> Any:
    """A column of results as an Arrow array: float64 a point, or (nested) lists of them where a point's is an array."""
    import pyarrow as pa

    column = from_numbers(array.reshape(-1), pa.float64())
    for length in reversed(array.shape[1:]):
        offsets = np.arange(0, len(column) + 1, length, dtype=np.int32)
        column = pa.ListArray.from_buffers(pa.list_(column.type), len(offsets) - 1, [None, pa.py_buffer(offsets)],
                                           children=[column])
    return column


def _arrow_array(values: Any) -> Any:
    """A column carried through as an Arrow array: from Parquet or Arrow, as it is (binary JSON text as
    text); from CSV or JSON Lines (a value a row, None where a row has none), its strings, integers,
    floats or booleans as they are, any other JSON value (a list, an object, a mix, an integer past 64
    bits) as its JSON text, in a string array. Made from buffers: pa.array imports pandas where it is
    installed (a quarter of a second)."""
    import pyarrow as pa

    if not isinstance(values, list):
        if values.type in (pa.binary(), pa.large_binary()):
            try:
                return cast(values, pa.large_string())
            except pa.ArrowInvalid:  # (bytes that are not UTF-8 text: carried as the bytes they are)
                return values
        return values

    kind = Cells(values, texts=False).kind
    valid = np.array([value is not None for value in values], dtype=bool)
    bits = None if valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
    nulls = len(values) - int(valid.sum())
    if kind == "bool":
        flags = np.packbits(np.array([bool(value) for value in values]), bitorder="little")
        return pa.BooleanArray.from_buffers(pa.bool_(), len(values), [bits, pa.py_buffer(flags)], nulls)
    if kind in ("int", "float"):
        numbers = np.array([(0 if kind == "int" else np.nan) if value is None else value for value in values],
                           dtype=np.int64 if kind == "int" else np.float64)
        return pa.Array.from_buffers(pa.int64() if kind == "int" else pa.float64(), len(values),
                                     [bits, pa.py_buffer(numbers)], nulls)
    texts = [b"" if value is None else (value if kind == "text" else json.dumps(value)).encode() for value in values]
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(text) for text in texts], out=offsets[1:])
    return pa.LargeStringArray.from_buffers(len(texts), pa.py_buffer(offsets), pa.py_buffer(b"".join(texts)), bits,
                                            nulls)


class Output(Stdout):
    """--output FILE: results written to FILE.partial and renamed to FILE once the run is done;
    a run that fails leaves no file (an older FILE stays as it was)."""

    def __init__(self, path: str, fixed: Mapping[str, np.ndarray], inputs: Mapping[str, int] | Sequence[str],
                 pipelined: bool = False, row_id: bool = False, marks: bool = False) -> None:
        import os

        from gradcli.errors import NameProblem

        self.path = path
        self.partial = path + ".partial"
        self.kind = output_kind(path)
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):  # a place that is not there is a bad argument, named before any work
            raise NameProblem(f"--output {path!r}: there is no directory {folder!r}")
        if os.path.isdir(path):
            raise NameProblem(f"--output {path!r} is a directory: give a file")
        if self.kind in ("parquet", "arrow") and not available():
            from gradcli.arrow import INSTALL

            raise NameProblem(f"--output {path!r}: writing {'Parquet' if self.kind == 'parquet' else 'Arrow IPC'} "
                              f"needs pyarrow, which the data extra installs: {INSTALL}")
        try:  # made now, so a place where no file can be made is named before any work
            file = open(self.partial, "w", encoding="utf-8", newline="")
        except OSError as problem:
            raise NameProblem(f"--output {path!r}: cannot write there: {problem.strerror or problem}") from None
        if self.kind in ("parquet", "arrow"):  # pyarrow writes the file: no text, nothing pipelined
            file.close()
            super().__init__(None, ColumnsWriter(self.partial, self.kind, row_id, marks), False, False)
            return
        super().__init__(file, WRITERS["json"](fixed, inputs, array=True) if self.kind == "array" else
                    WRITERS[self.kind](fixed, inputs, row_id=row_id, marks=marks), pipelined, False)

    def commit(self) -> None:
        import os

        from gradcli.errors import cannot_write

        super().commit()
        try:
            (self.out or self.writer).close()
            os.replace(self.partial, self.path)
        except OSError as problem:
            raise cannot_write(problem) from None

    def abandon(self) -> None:
        import contextlib
        import os

        self._stop()
        with contextlib.suppress(Exception):
            self.out.close() if self.out is not None else self.writer.abandon()
        with contextlib.suppress(OSError):
            os.remove(self.partial)
