"""--points as CSV: a header of input names, then a point per line.

A vector input is spread over columns `z[0]`, `z[1]`, ... (a matrix over `m[0][1]`, ...). A column
that names no input is carried through as the text of its cells (read as strings beside the numbers). A
block of bytes of whole lines is read at once by pyarrow's CSV reader (`fast`), a chunk of lines
it could not read by NumPy's C parser, and line by line only to find a bad one. Pyarrow reads
every finite number as Python's `float` does (correctly rounded; no `1_000`, no fullwidth
digits); a line where it reads a NaN or an infinity (which it also reads from `nan(1)`, which
Python refuses, and from a number past float64's range) is read again on its own the exact way.
Where that differs, or pyarrow meets a blank cell, a lone CR (a line end to pyarrow, not to us),
a BOM starting the block or a blank line ending it (which it drops), or a line it cannot read,
the block goes the exact way, which names each bad line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from gradcli.arrow import floats
from gradcli.errors import PointsProblem
from gradcli.inputs.rows import Array, Carried, PointShapes, Rows, Shape, carries, each_line, placed, shown, text_array

_COLUMN = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)((?:\[\d+\])*)\s*$")
MAX_INDEX_DIGITS = 18  # an index past a billion billion columns cannot be filled


class Csv:
    """The CSV format, its layout fixed by the header (line `line`). A column that names no input is
    carried through as text (`extra`: kept; else read past)."""

    def __init__(self, header: str, line: int, inputs: Mapping[str, int], fixed: Mapping[str, Array],
                 extra: Carried = True) -> None:
        self.inputs = inputs
        every = _layout(header, inputs, line)
        self.width = len(every)  # cells a line has
        self.positions = [i for i, (_, index) in enumerate(every) if index is not None]  # the inputs' cells
        self.layout = [(name, index) for name, index in every if index is not None]
        self.extras = [(i, name) for i, (name, index) in enumerate(every) if index is None and carries(extra, name)]
        written: dict[str, int] = {}  # a name carried through twice could not be told apart in the output
        for i, name in self.extras:
            if name in written:
                raise PointsProblem(line, f"column {i + 1} of the header, {shown(name)}, repeats column {written[name]}")
            written[name] = i + 1
        self.shapes = PointShapes(inputs, fixed)
        missing = self.shapes.missing({name for name, _ in self.layout})
        if missing:
            raise PointsProblem(line, f"no column and no --at value for input {', '.join(repr(n) for n in missing)}")
        self.shapes.fix(_shapes(self.layout, line), line)

    def read(self, texts: list[str], lines: list[int], skip_bad: bool) -> Rows:
        if self.width == len(self.layout):  # numbers only: NumPy's parser first
            try:
                table = np.loadtxt(texts, delimiter=",", comments=None, ndmin=2, dtype=float)
                if table.shape[1] != len(self.layout) or np.isinf(table).any():
                    raise ValueError("a bad cell, or an infinity to look at")
                return Rows(self._columns(table), lines, [])
            except ValueError:
                pass
        rows, good, problems = each_line(texts, lines, skip_bad, self._row)
        return Rows(self._columns([numbers for numbers, _ in rows]), good, problems,
                    self._extra_texts([cells for _, cells in rows]))

    def _extra_texts(self, cells: list[list[str]]) -> dict[str, Any]:
        return {name: text_array([row[k] for row in cells]) for k, (_, name) in enumerate(self.extras)}

    def fast(self, block: bytes | memoryview) -> tuple[int, tuple[list[Array], dict[str, Any]]] | None:
        """How many whole lines of bytes `block` has, and their numbers, a column an input's cell,
        and the text of the columns carried through, if each line is a good point; else None. (A blank
        line is a row here, and no number: the exact reader names it.)"""
        import pyarrow as pa
        import pyarrow.csv as csv

        names = [f"c{i}" for i in range(self.width)]
        if not self.layout:
            return None
        numbers_at = [names[i] for i in self.positions]
        texts_at = [names[i] for i, _ in self.extras]
        if bytes(block[:3]) == b"\xef\xbb\xbf" or bytes(block[-1:]) == b"\n":  # pyarrow drops a BOM at the start
            return None  # (only a file's first bytes may be one), and reads no row after a last LF (a blank last line)
        try:
            table = csv.read_csv(pa.py_buffer(block), read_options=csv.ReadOptions(column_names=names, use_threads=False),
                                 parse_options=csv.ParseOptions(quote_char=False, ignore_empty_lines=False),
                                 convert_options=csv.ConvertOptions(
                                     column_types={**dict.fromkeys(names, pa.large_string()), **dict.fromkeys(numbers_at, pa.float64())},
                                     include_columns=[*numbers_at, *texts_at], null_values=[], strings_can_be_null=False))
        except (pa.ArrowException, ValueError, OverflowError):
            return None
        if table.num_columns != len(numbers_at) + len(texts_at) or _split_at_cr(block, table.num_rows):
            return None
        numbers = [floats(table.column(name)) for name in numbers_at]  # a column an input's cell of the line
        if not all(np.isfinite(column).all() for column in numbers):
            odd = np.flatnonzero(~np.logical_and.reduce([np.isfinite(column) for column in numbers]))
            if not self._as_python_reads(block, odd, np.column_stack(numbers)[odd]):
                return None
        return table.num_rows, (numbers, {name: table.column(column).combine_chunks()
                                          for column, (_, name) in zip(texts_at, self.extras, strict=True)})

    def _as_python_reads(self, block: bytes | memoryview, rows: Array, numbers: Array) -> bool:
        """Are these rows of `block` (lines: one a row) what the exact reader reads (`numbers`: a
        row each, as pyarrow read them), NaN for NaN?
        Pyarrow also reads a NaN from `nan(1)`, which Python refuses, and an infinity from a number
        past float64's range, which is no number here: each line with a NaN or an infinity is read
        again on its own, and any other answer sends the block the exact way, which names the line."""
        from gradcli.inputs.lines import lines_of, searchable

        wanted = rows.tolist()
        for row, line in zip(numbers, lines_of(searchable(block), len(block), wanted), strict=True):
            try:
                exact, _ = self._row(line.decode("utf-8"), 0)
            except (UnicodeDecodeError, PointsProblem):
                return False
            if not np.array_equal(np.asarray(exact, dtype=float), row, equal_nan=True):
                return False
        return True

    def columns(self, parsed: object) -> dict[str, Array]:
        """The inputs' columns from `fast`'s numbers, a column a cell."""
        assert isinstance(parsed, tuple)
        return placed(self.layout, self.shapes.shapes, self.inputs, parsed[0], len(parsed[0][0]))

    def extra(self, parsed: object) -> dict[str, Any]:
        """The columns carried through, from `fast`'s reading."""
        assert isinstance(parsed, tuple)
        return parsed[1]

    def extra_empty(self) -> dict[str, Any]:
        return {name: text_array([]) for _, name in self.extras}

    def _row(self, text: str, line: int) -> tuple[list[float], list[str]]:
        """A line's inputs' numbers, and the cells carried through."""
        cells = text.split(",")
        if len(cells) != self.width:
            raise PointsProblem(line, f"{len(cells)} cells where the header has {self.width}")
        numbers = [_number(cells[i]) for i in self.positions]
        for number in numbers:
            if isinstance(number, str):
                problem = PointsProblem(line, number)
                problem.extra = {name: cells[i] for i, name in self.extras}
                raise problem
        return numbers, [cells[i] for i, _ in self.extras]  # type: ignore[return-value]

    def _columns(self, rows: Any) -> dict[str, Array]:
        table = np.asarray(rows, dtype=float).reshape(len(rows), len(self.layout))
        return placed(self.layout, self.shapes.shapes, self.inputs, list(np.ascontiguousarray(table.T)), len(rows))


def _split_at_cr(block: bytes | memoryview, rows: int) -> bool:
    """Has pyarrow, which also ends a line at a lone CR, read more rows than `block` has lines
    (a line ends at LF or CRLF: `1.5\\r2.5` is one line, and no number)? Only counted where a CR is."""
    from gradcli.inputs.lines import searchable

    data, size = searchable(block), len(block)
    return data.find(b"\r", 0, size) >= 0 and rows != data.count(b"\n", 0, size) + 1


def _layout(header: str, inputs: Mapping[str, int], line: int) -> list[tuple[str, tuple[int, ...] | None]]:
    """`id,x1,z[0],z[1]` -> the input and the element index each column holds; a column that names
    no input, (its name, None): carried through."""
    layout: list[tuple[str, tuple[int, ...] | None]] = []
    seen: dict[tuple[str, tuple[int, ...]], int] = {}
    for position, cell in enumerate(header.split(","), start=1):
        found = _COLUMN.match(cell)
        if found is None or found.group(1) not in inputs:
            layout.append((cell.strip(), None))
            continue
        name = found.group(1)
        digits = re.findall(r"\d+", found.group(2))
        if any(len(d) > MAX_INDEX_DIGITS for d in digits):
            raise PointsProblem(line, f"column {position} of the header, {shown(cell)}, has an index of more than "
                                      f"{MAX_INDEX_DIGITS} digits")
        index = tuple(int(d) for d in digits)
        if (name, index) in seen:
            raise PointsProblem(line, f"column {position} of the header, {shown(cell)}, repeats column "
                                      f"{seen[name, index]}")
        seen[name, index] = position
        layout.append((name, index))
    return layout


def _shapes(layout: list[tuple[str, tuple[int, ...]]], line: int) -> dict[str, Shape]:  # the inputs' columns
    """The shape of each input the columns give: its elements' indices must fill it, once each."""
    indices: dict[str, list[tuple[int, ...]]] = {}
    for name, index in layout:
        indices.setdefault(name, []).append(index)
    shapes = {}
    for name, found in indices.items():
        ndim = {len(i) for i in found}
        if len(ndim) != 1:
            raise PointsProblem(line, f"the columns of {name!r} mix different numbers of indices")
        shape = tuple(max(i[d] for i in found) + 1 for d in range(ndim.pop()))
        size = 1
        for length in shape:  # Python's integers: a shape from huge indices does not overflow
            size *= length
        if size != len(found):
            raise PointsProblem(line, f"the columns of {name!r} do not fill a shape {shape}: give every element once")
        shapes[name] = shape
    return shapes


def _number(cell: str) -> float | str:
    """A CSV cell's number, or what is wrong with it. As NumPy's CSV parser reads numbers:
    not Python's `1_000` or fullwidth digits; `inf` and `nan` spelled out, never by overflow."""
    text = cell.strip()
    try:
        if not text.isascii() or "_" in text:
            raise ValueError
        number = float(text)
    except ValueError:
        return f"{shown(cell)} is not a number"
    if number in (np.inf, -np.inf) and text.lstrip("+-").lower() not in ("inf", "infinity"):
        return f"{shown(cell)} is past the range of float64 numbers"
    return number
