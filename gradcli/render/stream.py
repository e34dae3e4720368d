"""Results at many points, written as they come: JSON Lines, CSV, or a rich table.

JSON Lines and CSV are written a chunk at a time, a column at a time: orjson writes the numbers
(Python's shortest round-trip `repr`, except the few `repr` writes with a one-digit exponent,
which `repr` writes), pyarrow joins them with the text around them into lines (both imported
here only, for --points). The bytes are what `repr` and `json.dumps` write. A chunk too wide
for that (more than WIDEST cells a point) is written point by point, as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

import numpy as np

from gradcli.arrow import available, compute
from gradcli.batch import BatchResult
from gradcli.diagnostics import point_warnings
from gradcli.errors import PointsProblem, visible
from gradcli.inputs.points import PointChunk
from gradcli.inputs.rows import Cells, text_array
from gradcli.render.numbers import human_line, to_json

WIDEST = 512  # cells a point, past which a chunk is written point by point


def _orjson_text(numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """orjson's text of a 1-D array, `[a,b,c]`, as bytes that may be changed, and where its commas are.

    orjson writes the shortest text that reads back to the same float, as `repr`; its text differs
    from `repr` only where `repr` writes an exponent of one digit with a 0 (1e-9 <= |x| < 1e-4:
    `1e-05`, where orjson writes `0.00001`) and for NaN and infinities (its `null`): see _odd."""
    import orjson

    text = np.frombuffer(orjson.dumps(np.ascontiguousarray(numbers), option=orjson.OPT_SERIALIZE_NUMPY),
                         dtype=np.uint8).copy()
    return text, (np.flatnonzero(text == 44) if len(numbers) > 1 else np.empty(0, dtype=np.int64))


def _odd(numbers: np.ndarray, null: str | None) -> np.ndarray:
    """Where orjson's text of these floats is not what `repr` (or, for NaN and infinities, `null`) writes."""
    size = np.abs(numbers)
    with np.errstate(invalid="ignore"):
        odd = (size >= 1e-9) & (size < 1e-4)
        if null is None:
            odd |= ~np.isfinite(numbers)
    return np.flatnonzero(odd)


def _spelled(numbers: np.ndarray, where: np.ndarray, null: str | None, after: str = "") -> list[bytes]:
    """The text `repr` writes of the numbers at `where` (`null` for NaN and infinities, when given)."""
    return [((repr(n) if null is None or n - n == 0.0 else null) + after).encode() for n in numbers[where].tolist()]


def _replaced(text: np.ndarray, starts: Sequence[int], ends: Sequence[int], spelled: list[bytes],
              start: int = 0) -> list[bytes | memoryview]:
    """`text` from `start` on, with each span starts[i]:ends[i] (in order) written as spelled[i]."""
    data = text.data
    pieces: list[bytes | memoryview] = []
    done = start
    for begin, end, new in zip(starts, ends, spelled, strict=True):
        pieces += [data[done:begin], new]
        done = end
    pieces.append(data[done:])
    return pieces


def _texts(array: np.ndarray, after: str, null: str | None = None) -> Any:
    """An Arrow array of each number's text followed by `after` (one character): the text
    Python's `repr` writes (`null`, when given, for NaN and infinities). The numbers' separators
    in orjson's text become `after`, so the array takes orjson's bytes as they are, without a
    copy per number; the few numbers orjson writes otherwise (_odd) are spliced in."""
    import pyarrow as pa

    count = len(array)
    text, ends = _orjson_text(array)
    offsets = np.empty(count + 1, dtype=np.int64)
    offsets[0], offsets[1:-1], offsets[-1] = 1, ends + 1, len(text)
    separator = ord(after)
    if separator != 44:
        text[ends] = separator
    text[-1] = separator  # the closing bracket
    where = _odd(array, null) if array.dtype.kind == "f" else np.empty(0, dtype=np.int64)
    if not where.size:
        return pa.LargeStringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(text))
    spelled = _spelled(array, where, null, after)
    pieces = _replaced(text, offsets[where].tolist(), offsets[where + 1].tolist(), spelled)
    grown = np.zeros(len(offsets), dtype=np.int64)
    grown[where + 1] = np.array([len(new) for new in spelled]) - (offsets[where + 1] - offsets[where])
    return pa.LargeStringArray.from_buffers(count, pa.py_buffer(offsets + np.cumsum(grown)),
                                            pa.py_buffer(b"".join(pieces)))


def _literal(text: str) -> Any:
    """An Arrow scalar of text (made from buffers, as rows.text_array makes its arrays)."""
    return text_array([text])[0]


def _joined(pieces: list[Any], null: str | None = None, fast: bool = True) -> list[Text]:
    """The points' lines: the pieces joined (the last ends the line). A piece is the same text on
    every line (str), an array of the points' numbers (floats; ints), or the points' texts (an Arrow
    array, a list or a tuple); each array of numbers is followed by text, or by texts. `null`: see _texts.
    By orjson and pyarrow where `fast` and they are installed, else a line at a time by Python: the
    same text.

    The text that starts every line is joined as the end of the line before (one piece fewer a
    line), and written once in front."""
    if not fast or not available():
        return [_python_lines(pieces, null)]
    import pyarrow as pa

    first = ""
    if isinstance(pieces[0], str) and isinstance(pieces[-1], str) and len(pieces) > 2:
        first, pieces = pieces[0], [*pieces[1:-1], pieces[-1] + pieces[0]]
    parts: list[Any] = []
    tail = ""  # the text that starts the next piece, written by the numbers before it
    for i, piece in enumerate(pieces):
        if isinstance(piece, str):
            piece = piece[len(tail) :]
            tail = ""
            if piece:
                parts.append(_literal(piece))
        elif isinstance(piece, np.ndarray):
            following = pieces[i + 1]
            if isinstance(following, str):
                tail = following[0]
                parts.append(_texts(piece, tail, null))
            else:  # texts that differ from line to line (warnings after a bare number): the numbers' own
                parts.append(compute("utf8_slice_codeunits", _texts(piece, " ", null), options=("SliceOptions", (0, -1))))
        elif isinstance(piece, (list, tuple)):
            parts.append(text_array(list(piece)))
        elif piece.type == pa.large_string():
            parts.append(piece)
        else:  # (through compute: Array.cast imports pyarrow.compute)
            parts.append(compute("cast", piece, options=("CastOptions", pa.large_string())))
    lines = _join(parts)
    return [first, lines[: len(lines) - len(first.encode())]] if first else [lines]


def _python_lines(pieces: list[Any], null: str | None) -> str:
    """What _joined writes, a line at a time: each number as `repr` writes it (`null` for NaN and
    infinities, when given)."""
    from itertools import repeat

    columns: list[Any] = []
    for piece in pieces:
        if isinstance(piece, str):
            columns.append(repeat(piece))
        elif isinstance(piece, np.ndarray):
            numbers = piece.tolist()
            columns.append(list(map(str, numbers)) if piece.dtype.kind in "iu" else
                           [repr(n) if null is None or n - n == 0.0 else null for n in numbers])
        else:
            columns.append(piece if isinstance(piece, (list, tuple)) else piece.to_pylist())
    return "".join(map("".join, zip(*columns)))


def _join(parts: list[Any]) -> memoryview:
    """Lines put together from Arrow text: arrays of large strings, and scalars (the same text on every line)."""
    return _data(compute("binary_join_element_wise", *parts, _literal("")))


def _data(texts: Any) -> memoryview:
    """The bytes of an Arrow array of text, one after another."""
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)[texts.offset : texts.offset + len(texts) + 1]
    return memoryview(texts.buffers()[2])[offsets[0] : offsets[-1]]


def _as_text(array: Any, null: str) -> Any:
    """An Arrow array of a column carried through, as large strings (`null` for a null)."""
    import pyarrow as pa

    if not pa.types.is_large_string(array.type):
        array = compute("cast", array, options=("CastOptions", pa.large_string()))
    return compute("coalesce", array, _literal(null)) if array.null_count else array


def _bytes(codes: Sequence[int]) -> np.ndarray:
    table = np.zeros(256, dtype=bool)
    table[list(codes)] = True
    return table


_CSV_SPECIAL = _bytes(b",\r\n")  # a cell holding one is quoted
_JSON_SPECIAL = _bytes([ord('"'), ord("\\"), *range(32)])  # a string holding one is escaped


def _holds(texts: Any, special: np.ndarray) -> bool:
    """Does some text of an Arrow array of large strings hold a byte `special` marks? (One pass over
    its bytes: no regular expression over each text.)"""
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)[texts.offset : texts.offset + len(texts) + 1]
    data = texts.buffers()[2]
    if data is None or offsets[-1] == offsets[0]:
        return False
    return bool(special[np.frombuffer(data, dtype=np.uint8)[offsets[0] : offsets[-1]]].any())


def _csv_cells(array: Any) -> Any:
    """A column carried through, as CSV cells: its text as it was; quoted (RFC 4180) where it holds
    a comma or a line end (a value from JSON Lines, Parquet or Arrow may; a CSV cell cannot, and a
    CSV cell's quotes are written as they were read), empty for a null; a float as `repr` writes
    it, as the results are. An Arrow array of text; for Cells (without pyarrow), a list."""
    if isinstance(array, Cells):
        kind = array.kind
        if kind == "float":  # as a float column: a missing value is NaN
            return [repr(float("nan") if value is None else float(value)) for value in array]
        if kind in ("int", "bool"):
            return ["" if value is None else str(value).lower() if kind == "bool" else str(value) for value in array]
        return ["" if value is None else _csv_cell(value if kind == "text" else json.dumps(value)) for value in array]
    import pyarrow as pa

    if pa.types.is_floating(array.type):
        numbers = compute("cast", array, options=("CastOptions", pa.float64())).to_numpy(zero_copy_only=False)  # null: NaN
        return compute("utf8_slice_codeunits", _texts(numbers, " "), options=("SliceOptions", (0, -1)))
    texts = _as_text(array, "")
    if not _holds(texts, _CSV_SPECIAL):
        return texts
    odd = compute("match_substring_regex", texts, options=("MatchSubstringOptions", "[,\r\n]"))
    quoted = compute("binary_join_element_wise", _literal('"'),
                     compute("replace_substring", texts, options=("ReplaceSubstringOptions", ('"', '""'))),
                     _literal('"'), _literal(""))
    return compute("if_else", odd, quoted, texts)


def _csv_cell(text: str) -> str:
    """One cell's text, quoted as _csv_cells quotes."""
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ",\r\n") else text


def _json_values(array: Any) -> Any:
    """A column carried through, as each row's JSON text: strings quoted, numbers and booleans as
    they are, null for a null, NaN and infinities null (RFC 8259). An Arrow array of text; for Cells
    (without pyarrow), a tuple."""
    if isinstance(array, Cells):
        if array.kind == "float":  # (a tuple: a document's list is a JSON list, see _template)
            return tuple("null" if value is None or value - value != 0 else repr(float(value)) for value in array)
        return tuple(json.dumps(value) for value in array)
    import pyarrow as pa

    kind = array.type
    if pa.types.is_binary(kind):  # JSON text already (rows.extra_array)
        return _as_text(array, "null")
    if pa.types.is_floating(kind):
        numbers = compute("cast", array, options=("CastOptions", pa.float64())).to_numpy(zero_copy_only=False)  # null: NaN
        return compute("utf8_slice_codeunits", _texts(numbers, " ", "null"), options=("SliceOptions", (0, -1)))
    if pa.types.is_integer(kind) or pa.types.is_boolean(kind) or pa.types.is_null(kind):
        return _as_text(array, "null")
    texts = _as_text(array, "")
    if not _holds(texts, _JSON_SPECIAL):
        quoted = compute("binary_join_element_wise", _literal('"'), texts, _literal('"'), _literal(""))
    else:  # a quote, a backslash or a control character: json writes each
        quoted = text_array([json.dumps(text) for text in texts.to_pylist()])
    return compute("if_else", compute("is_null", array), _literal("null"), quoted) if array.null_count else quoted


def _result_labels(result: BatchResult) -> list[str]:
    """The columns of the results, as CSV, Parquet and Arrow name them."""
    labels: list[str] = []
    for name, value in zip(result.root_names, result.values, strict=True):
        labels += _element_names("value" if len(result.values) == 1 else f"value_{name}", value.shape[1:])
    for label, array in result.columns():
        labels += _element_names(label, array.shape[1:])
    return labels


def _result_table(result: BatchResult, count: int) -> np.ndarray:
    """The results as (points, columns), the columns _result_labels names."""
    blocks = [_flat(value) for value in result.values] + [_flat(array) for _, array in result.columns()]
    return np.concatenate(blocks, axis=1) if blocks else np.empty((count, 0))


def _outside(names: list[str], labels: list[str], row_id: bool) -> list[str]:
    """The names of the columns carried through as written beside the results' `labels`: one that is
    also a result's name (or `row` with --row-id) is written `extra_NAME`."""
    taken = {*labels, *(["row"] if row_id else [])}
    return [f"extra_{name}" if name in taken else name for name in names]


def _extra_names(chunk: PointChunk, row_id: bool) -> list[str]:
    return [*(["row"] if row_id else []), *chunk.extra]


def _extra_column(chunk: PointChunk, name: str | None) -> Any:
    """A column carried through, the chunk's (nulls where its rows have none: a later name in JSON Lines;
    None: a column of nulls, --mark-bad's `error` on good lines)."""
    found = None if name is None else chunk.extra.get(name)
    if found is not None:
        return found
    if not available():
        return Cells([None] * chunk.count)
    import pyarrow as pa

    return pa.nulls(chunk.count, pa.large_string())


def _json_ready(value: Any) -> Any:
    """A value carried through, for json.dumps: NaN and infinities null, as RFC 8259 has them."""
    return None if type(value) is float and value - value != 0 else value


Text = str | bytes | memoryview  # what a chunk's rendering gives: text, or UTF-8 bytes
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
    """Results a chunk at a time to `out`. `render` does in order what depends on the chunks
    before (a header, the columns' widths) and gives the rest as a function, which may run on
    another thread (see Pipelined); `write` does both at once."""

    out: TextIO
    held: list[tuple[PointsProblem, int]]  # bad lines (and the line of their header) waiting for a header

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        raise NotImplementedError

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        emit(self.out, self.render(chunk, result)())

    def render_bad(self, problems: Sequence[PointsProblem], header: int) -> Rendering:
        """--mark-bad: a row for each bad line, where it was (what a format writes before its
        first results, a header, waits for them: `held`)."""
        marked = [(problem, header) for problem in problems]
        if not self._begun():
            self.held += marked
            return list
        text = self._bad_lines(marked)
        return lambda: [text]

    def _begun(self) -> bool:
        """Is what goes before the rows (a header) written?"""
        return True

    def _bad_lines(self, problems: Sequence[tuple[PointsProblem, int]]) -> str:
        raise NotImplementedError

    def write_bad(self, problems: Sequence[PointsProblem], header: int) -> None:
        emit(self.out, self.render_bad(problems, header)())

    def finish(self) -> list[Text]:
        """What is still to write once every chunk is (bad lines held for a header that never came)."""
        return []


def _flat(array: np.ndarray) -> np.ndarray:
    """(points, ...) -> (points, elements a point), for no points too."""
    return array.reshape(array.shape[0], int(np.prod(array.shape[1:], dtype=np.int64)))


def _element_names(name: str, shape: tuple[int, ...]) -> list[str]:
    """`z` of shape (2,) -> ['z[0]', 'z[1]']; a scalar keeps its name."""
    return [name + "".join(f"[{i}]" for i in index) for index in np.ndindex(*shape)] if shape else [name]


class JsonLinesWriter(Writer):
    """One JSON object per point: the input line, the point (in the program's input order),
    the value and the derivative."""

    def __init__(self, out: TextIO, fixed: Mapping[str, np.ndarray], inputs: Sequence[str], row_id: bool = False,
                 marks: bool = False) -> None:
        self.out = out
        self.fixed = {name: to_json(value) for name, value in fixed.items()}
        self.inputs = list(inputs)

    def _bad_lines(self, problems: Sequence[tuple[PointsProblem, int]]) -> str:
        return "".join(json.dumps({"line": problem.line, "row": problem.line - header,
                                   **_beside({name: _json_ready(value) for name, value in problem.extra.items()}),
                                   "error": problem.reason}) + "\n"
                       for problem, header in problems)

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        if not chunk.count:
            return list
        return lambda: self._columns(chunk, result)

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

    def _columns(self, chunk: PointChunk, result: BatchResult) -> list[Text]:
        """The whole chunk at once: a template of the document whose numbers are columns of text."""
        at = {name: _Json(json.dumps(self.fixed[name])) if name not in chunk.columns else chunk.columns[name]
              for name in self.inputs}
        value = list(result.values) if result.is_tuple else result.values[0]
        derivative = self._derivative(result)
        pieces: list[Any] = []
        document = {"line": _Json(None), "row": chunk.rows(), **_beside({name: _json_values(column)
                                                                         for name, column in chunk.extra.items()}),
                    "at": at, "value": value, result.kind: derivative}
        _template(document, pieces)
        lines = (np.arange(chunk.lines.start, chunk.lines.stop) if isinstance(chunk.lines, range)
                 else np.asarray(chunk.lines, dtype=np.int64))
        finite = np.ones(chunk.count, dtype=bool)
        for array in _arrays([value, derivative]):
            finite &= np.isfinite(array.reshape(chunk.count, -1)).all(axis=1)
        pieces = [lines if piece is None else piece for piece in pieces]
        pieces.pop()  # the closing brace: warnings, where a number is not finite, go before it
        if not finite.all():
            texts = [""] * chunk.count
            bad = np.flatnonzero(~finite).tolist()
            for row, said in zip(bad, point_warnings(result, bad), strict=True):
                texts[row] = ", " + json.dumps("warnings") + ": " + json.dumps(said)
            pieces.append(texts)
        pieces.append("}\n")
        return _joined(_merged(pieces), null="null", fast=_numbers_a_point(chunk, result) <= WIDEST)


# The keys gradcli writes: a column carried through of one of these names goes under "extra".
KEYS = frozenset({"line", "row", "at", "value", "grad", "jvp", "jacobian", "warnings", "extra"})


def _beside(extra: dict[str, Any]) -> dict[str, Any]:
    """The columns carried through, beside the results under their own names; those named as a key
    gradcli writes, under "extra"."""
    own = {name: value for name, value in extra.items() if name not in KEYS}
    clash = {name: value for name, value in extra.items() if name in KEYS}
    return {**own, **({"extra": clash} if clash else {})}


class _Json:
    """Text of a document the same on every line (None: a placeholder filled in later)."""

    def __init__(self, text: str | None) -> None:
        self.text = text


def _template(item: Any, pieces: list[Any]) -> None:
    """`item` as json.dumps writes it, into `pieces`: str for fixed text, an array of the points'
    numbers for each element of an array of (points, ...), None for a placeholder."""
    if isinstance(item, _Json):
        pieces.append(item.text)
    elif isinstance(item, dict):
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
    elif not isinstance(item, np.ndarray):  # each point's JSON text (an Arrow array, a tuple)
        pieces.append(item)
    elif item.dtype.kind == "i":  # the rows
        pieces.append(item)
    elif item.ndim == 1:
        pieces.append(np.ascontiguousarray(item, dtype=float))
    else:
        _template([item[:, i] for i in range(item.shape[1])], pieces)


def _arrays(item: Any) -> list[np.ndarray]:
    if isinstance(item, dict):
        return [a for part in item.values() for a in _arrays(part)]
    if isinstance(item, list):
        return [a for part in item for a in _arrays(part)]
    return [item] if isinstance(item, np.ndarray) else []


def _merged(pieces: list[Any]) -> list[Any]:
    """Neighbouring fixed texts as one."""
    merged: list[Any] = []
    for piece in pieces:
        if isinstance(piece, str) and merged and isinstance(merged[-1], str):
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged


def _numbers_a_point(chunk: PointChunk, result: BatchResult) -> int:
    """Numbers a point writes."""
    arrays = [*chunk.columns.values(), *result.values, *(array for _, array in result.columns())]
    return sum(int(np.prod(array.shape[1:])) for array in arrays)


class CsvWriter(Writer):
    """A header, then one row per point: the value's columns, then the derivative's
    (`grad_NAME`; `jvp`; `dOUT/dNAME` for a Jacobian), an element a column."""

    def __init__(self, out: TextIO, fixed: Mapping[str, np.ndarray], inputs: Sequence[str], row_id: bool = False,
                 marks: bool = False) -> None:
        self.out = out
        self.started = False
        self.row_id = row_id
        self.marks = marks  # --mark-bad: an `error` column after the columns carried through
        self.lead: list[str] = []  # `row` (--row-id), then the columns carried through, fixed by the first chunk
        self.results = 0  # the results' columns, known from the first chunk
        self.held = []

    def _bad_lines(self, problems: Sequence[tuple[PointsProblem, int]]) -> str:
        extras = self.lead[1:] if self.row_id else self.lead
        return "".join(",".join([*([str(problem.line - header)] if self.row_id else []),
                                 *(_csv_cells(Cells([problem.extra.get(name)], texts=False))[0] for name in extras),
                                 _csv_cell(problem.reason), *[""] * self.results]) + "\n"
                       for problem, header in problems)

    def _begun(self) -> bool:
        return self.started

    def finish(self) -> list[Text]:
        if self.started or not self.held:
            return []
        self.started = True  # no results came: the header has what is known
        return [",".join([*(["row"] if self.row_id else []), "error"]) + "\n", self._bad_lines(self.held)]

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        header: list[Text] = []
        if not self.started:
            self.lead = _extra_names(chunk, self.row_id)
            results = _result_labels(result)
            taken = [*results, *(["error"] if self.marks else [])]
            labels: list[str] = [*(["row"] if self.row_id else []),
                                 *(_csv_cell(name) for name in _outside(list(chunk.extra), taken, self.row_id)),
                                 *(["error"] if self.marks else [])]
            self.results = len(results)
            labels += results
            header.append(",".join(labels) + "\n")
            self.started = True
            if self.held:  # bad lines that came before the first results, after the header
                header.append(self._bad_lines(self.held))
                self.held = []
        if not chunk.count:
            return lambda: header

        def rows() -> list[Text]:
            table = _result_table(result, chunk.count)
            fast = 0 < table.shape[1] <= WIDEST and available()
            texts = [] if fast else [",".join(map(repr, row)) + "\n" for row in table.tolist()]
            lines: list[Text] = _csv_rows(table) if fast else ["".join(texts)]
            if not self.lead and not self.marks:
                return [*header, *lines]
            pieces: list[Any] = []
            for i, name in enumerate(self.lead):
                pieces += [chunk.rows() if name == "row" and self.row_id and i == 0
                           else _csv_cells(_extra_column(chunk, name)), ","]
            if self.marks:  # the `error` column: empty on a good line
                pieces += [_csv_cells(_extra_column(chunk, None)), ","]
            if not table.shape[1]:
                pieces[-1] = "\n"
            else:
                pieces.append(_line_texts(lines, chunk.count) if fast else texts)  # each with its LF
            return [*header, *_joined(_merged(pieces), fast=fast)]

        return rows


def _line_texts(parts: list[Text], count: int) -> Any:
    """An Arrow array of the `count` lines of text `parts` (each with its LF), not copied where
    `parts` is one piece."""
    import pyarrow as pa

    data = parts[0] if len(parts) == 1 else b"".join(part.encode() if isinstance(part, str) else part for part in parts)
    assert not isinstance(data, str)
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    assert len(ends) == count
    offsets = np.zeros(count + 1, dtype=np.int64)
    offsets[1:] = ends + 1
    return pa.LargeStringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(data))


def _csv_rows(table: np.ndarray) -> list[Text]:
    """The rows of a (points, columns) table of floats as CSV lines, each number as `repr` writes it.

    orjson writes the table's numbers row after row, `[a,b,c,d]`; every row's last comma becomes
    a line's end, and the few numbers orjson writes otherwise than `repr` (_odd) are written by
    `repr` in their places."""
    numbers = np.ascontiguousarray(table, dtype=np.float64).ravel()
    text, commas = _orjson_text(numbers)
    columns = table.shape[1]
    text[commas[columns - 1 :: columns]] = 10
    text[-1] = 10  # the closing bracket
    where = _odd(numbers, None)
    if not where.size:
        return [text.data[1:]]
    # number i's text starts after separator i - 1 (the bracket) and ends at separator i (the last at the bracket)
    separators = np.concatenate([[0], commas, [len(text) - 1]])
    return list(_replaced(text, (separators[where] + 1).tolist(), separators[where + 1].tolist(),
                          _spelled(numbers, where, None), start=1))


NUMBER_WIDTH = 13  # the widest number a table cell writes (`.6g`): -1.23457e-100
LINE_WIDTH = 7  # line numbers up to 9,999,999 (more than a person reads a table of)


class TableWriter(Writer):
    """A table for people, as plain text written a chunk at a time (rich would take a minute
    for 200,000 rows). The header is written before later points are seen, so a column is as
    wide as what it can hold where that is known (a number; a line number up to LINE_WIDTH
    digits), from a file and from a pipe alike; a vector's cells as the widest so far."""

    def __init__(self, out: TextIO, fixed: Mapping[str, np.ndarray], inputs: Sequence[str], row_id: bool = False,
                 marks: bool = False) -> None:
        self.out = out
        self.widths: list[int] = []
        self.held = []

    def _bad_lines(self, problems: Sequence[tuple[PointsProblem, int]]) -> str:
        width = self.widths[0] if self.widths else LINE_WIDTH
        return "".join(f" {problem.line - header:>{width}} │ error: {visible(problem.reason)}\n"
                       for problem, header in problems)

    def _begun(self) -> bool:
        return bool(self.widths)

    def finish(self) -> list[Text]:
        held, self.held = self.held, []
        return [self._bad_lines(held)] if held else []

    def render(self, chunk: PointChunk, result: BatchResult) -> Rendering:
        derivatives = result.columns()
        headers = ["row", *(result.root_names if len(result.root_names) > 1 else ["value"]),
                   *(label.replace("_", " ", 1) for label, _ in derivatives)]
        arrays = [*result.values, *(array for _, array in derivatives)]
        columns = [[str(row) for row in chunk.rows().tolist()], *(_cells(array) for array in arrays)]
        least = [LINE_WIDTH, *(NUMBER_WIDTH if array.ndim == 1 else 0 for array in arrays)]
        widths = [max([len(header), floor, *map(len, cells)])
                  for header, floor, cells in zip(headers, least, columns, strict=True)]
        top: list[Text] = []
        if not self.widths:
            top.append(" " + " ┃ ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True)) + "\n")
            top.append("╇".join("━" * (w + 2) for w in widths) + "\n")
            self.widths = widths
        self.widths = widths = [max(w, old) for w, old in zip(widths, self.widths, strict=True)]
        if self.held:  # bad lines that came before the first results, after the header
            top.append(self._bad_lines(self.held))
            self.held = []
        if not chunk.count:
            return lambda: top

        def rows() -> list[Text]:
            pieces: list[Any] = [" "]
            for i, (cells, width) in enumerate(zip(columns, widths, strict=True)):
                pieces += [" │ "] if i else []
                pieces.append(compute("utf8_lpad", text_array(cells), options=("PadOptions", width)) if available()
                              else [cell.rjust(width) for cell in cells])
            pieces.append("\n")
            return [*top, *_joined(_merged(pieces))]

        return rows


def _cells(array: np.ndarray) -> list[str]:
    """Each point's element of `array` (its first axis), written as the one-point table does,
    on one line (a matrix's rows too: a row of this table is a line)."""
    if array.ndim == 1:  # a number: as `human` writes it, without its trip through NumPy
        return [f"{number:.6g}" for number in array.tolist()]
    return [human_line(element) for element in array]


class Pipelined:
    """A Writer whose chunks are rendered on worker threads and written in input order, as they
    are ready: orjson, pyarrow and NumPy let go of Python's lock for much of their work, so the
    rendering of one chunk overlaps the reading, computing and rendering of the next. At most
    AHEAD chunks wait their turn (memory stays bounded); `flush` writes all that wait."""

    AHEAD = 2

    def __init__(self, writer: Writer, workers: int = 2) -> None:
        from collections import deque
        from concurrent.futures import Future, ThreadPoolExecutor

        self.writer = writer
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="gradcli-writer")
        self.waiting: deque[Future[list[Text]]] = deque()

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        self._wait(self.writer.render(chunk, result))

    def write_bad(self, problems: Sequence[PointsProblem], header: int) -> None:
        self._wait(self.writer.render_bad(problems, header))

    def _wait(self, rendering: Rendering) -> None:
        self.waiting.append(self.pool.submit(rendering))
        while self.waiting and (len(self.waiting) > self.AHEAD or self.waiting[0].done()):
            emit(self.writer.out, self.waiting.popleft().result())

    def finish(self) -> list[Text]:
        self.flush()
        return self.writer.finish()

    def flush(self) -> None:
        while self.waiting:
            emit(self.writer.out, self.waiting.popleft().result())

    def close(self) -> None:
        """No more chunks: the pool's threads end (what waits, not written, is dropped)."""
        for waiting in self.waiting:
            waiting.cancel()
        self.waiting.clear()
        self.pool.shutdown(wait=True)


WRITERS: dict[str, Callable[..., Any]] = {"json": JsonLinesWriter, "csv": CsvWriter, "table": TableWriter}


class _Sink:
    """Where --points results go, chunk by chunk, through `writer` (Stdout, Output)."""

    writer: Any

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        self.writer.write(chunk, result)
        self._sent()

    def write_bad(self, problems: Sequence[PointsProblem], header: int) -> None:
        self.writer.write_bad(problems, header)
        self._sent()

    def _sent(self) -> None:
        """A chunk is written."""

    def flush(self) -> None:
        if isinstance(self.writer, Pipelined):
            self.writer.flush()


class Stdout(_Sink):
    """--points results to standard output (`out`): from a file pipelined, from a pipe or a
    terminal each chunk flushed as soon as it is written. The same calls as Output."""

    def __init__(self, out: TextIO, kind: str, fixed: Mapping[str, np.ndarray],
                 inputs: Mapping[str, int] | Sequence[str], live: bool, row_id: bool = False, marks: bool = False) -> None:
        self.out = out
        self.live = live
        writer = WRITERS[kind](out, fixed, inputs, row_id=row_id, marks=marks)
        self.writer: Writer | Pipelined = writer if live else Pipelined(writer)

    def _sent(self) -> None:
        if self.live:
            self.out.flush()

    def commit(self) -> None:
        self.flush()
        emit(self.out, self.writer.finish())
        self.abandon()

    def abandon(self) -> None:
        if isinstance(self.writer, Pipelined):
            self.writer.close()


# --- --output FILE ----------------------------------------------------------------------------

OUTPUT_KINDS = {".csv": "csv", ".jsonl": "json", ".ndjson": "json", ".json": "array", ".parquet": "parquet",
                ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow"}


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


class _File:
    """A text file where a failed write (a full disk) is an OutputProblem, exit 5."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.file = open(path, "w", encoding="utf-8", newline="")
        except OSError as problem:
            from gradcli.errors import cannot_write

            raise cannot_write(problem) from None

    def _do(self, call: Callable[[], Any]) -> Any:
        from gradcli.errors import cannot_write

        try:
            return call()
        except OSError as problem:
            raise cannot_write(problem) from None

    def write(self, text: str) -> int:
        return self._do(lambda: self.file.write(text))

    def write_bytes(self, data: bytes | memoryview) -> None:
        self.flush()
        self._do(lambda: self.file.buffer.write(data))  # type: ignore[arg-type]  # any buffer of bytes

    def flush(self) -> None:
        self._do(self.file.flush)

    def close(self) -> None:
        self._do(self.file.close)


class _JsonArray(_File):
    """A .json file: the lines JSON Lines writes, as the elements of one JSON array (`[` first, a
    comma after each line but the last, `]` last). A line's end is held back until the next line
    (or the end) says whether a comma goes before it; a JSON line holds no line end of its own."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.started = False
        self.held = False  # a line's end, not written yet

    def _part(self, data: Any, newline: Any, between: Any) -> Any:
        start = "" if isinstance(data, str) else b""
        if not self.started:
            start, self.started = ("[\n" if isinstance(data, str) else b"[\n"), True
        if self.held:
            start, self.held = start + between, False
        if data.endswith(newline):
            data, self.held = data[: -len(newline)], True
        return start + data.replace(newline, between)

    def write(self, text: str) -> int:
        return super().write(self._part(text, "\n", ",\n")) if text else 0

    def write_bytes(self, data: bytes | memoryview) -> None:
        if len(data):
            super().write_bytes(self._part(bytes(data), b"\n", b",\n"))

    def close(self) -> None:
        super().write("\n]\n" if self.started else "[]\n")
        super().close()


class ColumnsWriter:
    """Parquet or Arrow IPC: the columns --csv writes (value, grad_NAME, an element a column
    NAME[i]), float64, written by pyarrow a chunk at a time (a row group, a record batch: memory flat)."""

    def __init__(self, path: str, kind: str, row_id: bool = False, marks: bool = False) -> None:
        self.path = path
        self.kind = kind
        self.row_id = row_id
        self.marks = marks  # --mark-bad: an `error` column (text) after the columns carried through
        self.held: list[tuple[PointsProblem, int]] = []  # bad lines before the first results (the schema)
        self.labels: dict[str, str] = {}  # the output's name of each column carried through -> the input's
        self.schema: Any = None  # the first chunk's: later chunks' columns carried through are cast to it
        self.extra: list[str] = []  # the columns carried through, the first chunk's
        self.writer: Any = None

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        import pyarrow as pa

        if not chunk.count and self.writer is not None:
            return
        labels = _result_labels(result)
        table = _result_table(result, chunk.count)
        names: list[str] = []
        arrays: list[Any] = []
        if self.row_id:
            names.append("row")
            arrays.append(_numbers(np.ascontiguousarray(chunk.rows(), dtype=np.int64), pa.int64()))
        if self.schema is None:
            self.extra = list(chunk.extra)
        taken = [*labels, *(["error"] if self.marks else [])]
        self.labels = dict(zip(_outside(self.extra, taken, self.row_id), self.extra, strict=True))  # label -> column
        for name, label in zip(self.extra, _outside(self.extra, taken, self.row_id), strict=True):
            column = _extra_column(chunk, name)
            if column.type in (pa.binary(), pa.large_binary()):  # JSON text: a string column
                column = compute("cast", column, options=("CastOptions", pa.large_string()))
            names.append(label)
            arrays.append(column)
        if self.marks:
            names.append("error")
            arrays.append(pa.nulls(chunk.count, pa.large_string()))
        for i, label in enumerate(labels):
            names.append(label)
            arrays.append(_numbers(np.ascontiguousarray(table[:, i]), pa.float64()))
        batch = pa.RecordBatch.from_arrays(arrays, names=names)
        try:
            if self.schema is None:
                self.schema = batch.schema
                self._open()
                if self.held:
                    self.writer.write_batch(self._bad_batch(self.held))
                    self.held = []
            elif batch.schema != self.schema:
                batch = pa.RecordBatch.from_arrays([column if column.type == field.type else
                                                    compute("cast", column, options=("CastOptions", field.type))
                                                    for column, field in zip(batch.columns, self.schema, strict=True)],
                                                   schema=self.schema)
            if chunk.count:
                self.writer.write_batch(batch)
        except (OSError, pa.ArrowException) as problem:
            self._raise(problem)

    def write_bad(self, problems: Sequence[PointsProblem], header: int) -> None:
        import pyarrow as pa

        marked = [(problem, header) for problem in problems]
        if self.schema is None:
            self.held += marked
            return
        try:
            self.writer.write_batch(self._bad_batch(marked))
        except (OSError, pa.ArrowException) as problem:
            self._raise(problem)

    def _bad_batch(self, problems: Sequence[tuple[PointsProblem, int]]) -> Any:
        """A row for each bad line: its row (with --row-id), its reason under `error`, nulls elsewhere."""
        import pyarrow as pa

        count = len(problems)
        columns: list[Any] = []
        for field in self.schema:
            if field.name == "row" and self.row_id and not columns:
                rows = np.array([problem.line - header for problem, header in problems], dtype=np.int64)
                columns.append(_numbers(rows, pa.int64()))
            elif field.name == "error" and field.type == pa.large_string() and self.marks:
                columns.append(text_array([problem.reason for problem, _ in problems]))
            elif field.name in self.labels:  # a column carried through: the bad lines' own values where they fit
                try:
                    columns.append(pa.array([problem.extra.get(self.labels[field.name]) for problem, _ in problems],
                                            type=field.type))
                except (pa.ArrowException, TypeError, ValueError, OverflowError):
                    columns.append(pa.nulls(count, field.type))
            else:
                columns.append(pa.nulls(count, field.type))
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    def _open(self) -> Any:
        if self.kind == "parquet":
            import pyarrow.parquet as parquet

            # Dictionaries only for the columns carried through: a column of results seldom repeats a
            # number, and trying a dictionary on it first took 5x the time of writing it plain.
            self.writer = parquet.ParquetWriter(self.path, self.schema, use_dictionary=list(self.labels))
        else:
            import pyarrow.ipc as ipc

            self.writer = ipc.new_file(self.path, self.schema)
        return self.writer

    def _raise(self, problem: BaseException) -> None:
        from gradcli.errors import OutputProblem

        reason = str(problem).strip().splitlines()[0] if str(problem).strip() else type(problem).__name__
        raise OutputProblem(f"cannot write the output: {reason}")

    def close(self) -> None:
        import pyarrow as pa

        try:
            if self.writer is None:  # no points: the file still says so (and the bad lines, --mark-bad)
                self.schema = pa.schema([*([("row", pa.int64())] if self.row_id else []),
                                         *([("error", pa.large_string())] if self.held else [])])
                writer = self._open()
                if self.held:
                    writer.write_batch(self._bad_batch(self.held))
            self.writer.close()
        except (OSError, pa.ArrowException) as problem:
            self._raise(problem)

    def abandon(self) -> None:
        import contextlib

        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()


def _numbers(array: np.ndarray, kind: Any) -> Any:
    """An Arrow array of these numbers, on their buffer (pa.array imports pandas where it is installed)."""
    import pyarrow as pa

    return pa.Array.from_buffers(kind, len(array), [None, pa.py_buffer(array)])


class Output(_Sink):
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
        self.file: _File | None = None
        if self.kind in ("parquet", "arrow") and not available():
            from gradcli.arrow import INSTALL

            raise NameProblem(f"--output {path!r}: writing {'Parquet' if self.kind == 'parquet' else 'Arrow IPC'} "
                              f"needs pyarrow, which the data extra installs: {INSTALL}")
        try:  # made now, so a place where no file can be made is named before any work (the writers write it later)
            open(self.partial, "wb").close()
        except OSError as problem:
            raise NameProblem(f"--output {path!r}: cannot write there: {problem.strerror or problem}") from None
        if self.kind in ("parquet", "arrow"):
            self.writer: Any = ColumnsWriter(self.partial, self.kind, row_id, marks)
        else:
            self.file = _JsonArray(self.partial) if self.kind == "array" else _File(self.partial)
            self.writer = WRITERS["json" if self.kind == "array" else self.kind](self.file, fixed, inputs, row_id=row_id,
                                                                                 marks=marks)
            if pipelined:
                self.writer = Pipelined(self.writer)

    def commit(self) -> None:
        import os

        from gradcli.errors import cannot_write

        if self.file is not None:
            self.flush()
            emit(self.file, self.writer.finish())
            if isinstance(self.writer, Pipelined):
                self.writer.close()
            self.file.close()
        else:
            self.writer.close()
        try:
            os.replace(self.partial, self.path)
        except OSError as problem:
            raise cannot_write(problem) from None

    def abandon(self) -> None:
        import contextlib
        import os

        if self.file is not None:
            if isinstance(self.writer, Pipelined):
                self.writer.close()
            with contextlib.suppress(Exception):
                self.file.file.close()
        else:
            self.writer.abandon()
        with contextlib.suppress(OSError):
            os.remove(self.partial)
