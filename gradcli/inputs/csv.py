"""--points as CSV: a header of input names, then a point per record: a line, or the lines a quoted cell's
line breaks join (RFC 4180, as pandas and spreadsheets write them; `Record`).

A vector input is spread over columns `z[0]`, `z[1]`, ... (a matrix over `m[0][1]`, ...). A column
that names no input is carried through as the text of its cells. A block of whole lines is read at
once by the compiled helper (`fast`, inputs/_numbers.c: numbers as Python's `float` reads them),
where every line has the header's cells and a plain number in each input's; any other block (and
every line where the helper was not built) is read line by line, which names each bad line. A
number is read as NumPy's CSV parser reads it: no `1_000` or fullwidth digits, `inf` and `nan`
spelled out, never by overflow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from gradcli.errors import Limits, PointsProblem
from gradcli.inputs import rows
from gradcli.inputs.lines import Unreadable, searchable
from gradcli.inputs.rows import (
    Array,
    Carried,
    Cells,
    PointShapes,
    Shape,
    carries,
    placed,
    shown,
)

_COLUMN = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)((?:\[\d+\])*)\s*$")
_CELL = r'(?:"(?:[^"]|"")*+"[^,]*+|[^,"][^,]*+|)'  # a cell whose quote, if it opens with one, closes (open_cell)
_CLOSED = re.compile(rf"{_CELL}(?:,{_CELL})*+")  # (possessive: a `""` once read is never a closing quote)
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
                raise PointsProblem(line, f"column {i + 1} of the header, {shown(name)}, repeats column {written[name]}: "
                                          "columns carried through must be told apart (--keep NAMES or --drop-extra "
                                          "leaves them out)")
            written[name] = i + 1
        self.shapes = PointShapes(inputs, fixed)
        missing = self.shapes.missing({name for name, _ in self.layout})
        if missing:
            raise PointsProblem(line, f"no column and no --at value for input {', '.join(repr(n) for n in missing)}")
        self.shapes.fix(_shapes(self.layout, line), line)
        self.open_since: int | None = None  # the first line of a record still open (a line break in a quoted cell):
        # the lines that come next are inside it, never a block of points to read at once

    def fast(self, block: bytes | memoryview, longest: int) -> tuple[int, tuple[dict[str, Array], dict[str, Any]]] | None:
        """How many whole lines of bytes `block` has, their numbers (a column an input's cell) and
        the text of the columns carried through, read at once by the compiled helper, if each line
        is a good point of plain numbers of at most `longest` bytes; else None (the lines are then
        judged one by one)."""
        if rows.helper is None or not self.layout or self.open_since is not None:
            return None
        # The helper splits at every comma. Where the block has a quote, every cell that is no input's is
        # looked at: a quoted comma leaves a piece that opens a quote and does not close it, and the block
        # is the line reader's; else a cell that starts with a quote is a quoted cell, unquoted here.
        quoted = searchable(block).find(b'"', 0, len(block)) >= 0
        texts = [i for i in range(self.width) if i not in self.positions] if quoted else [i for i, _ in self.extras]
        found = rows.helper.csv(block, self.width, self.positions, texts, longest)
        if found is None:
            return None
        numbers, cells = found
        count = len(numbers[0]) // 8
        columns = {}
        for i, data in zip(texts, cells, strict=True):  # each cell followed by an LF
            try:
                column = data.decode("utf-8").split("\n")[:-1]
            except UnicodeDecodeError:  # not UTF-8: the line reader names the line
                return None
            if quoted and b'"' in data:
                for k, cell in enumerate(column):
                    if '"' in cell:
                        if not (cell[:1] == cell[-1:] == '"' and len(cell) > 1 and '"' not in cell[1:-1].replace('""', "")):
                            return None  # (a quote inside an unquoted cell, which a split quoted cell can leave too)
                        column[k] = cell[1:-1].replace('""', '"')
            columns[i] = column
        extra = {name: Cells(columns[i]) for i, name in self.extras}
        return count, (placed(self.layout, self.shapes.shapes, self.inputs, [np.frombuffer(c) for c in numbers], count),
                       extra)

    def row(self, text: str, line: int) -> tuple[list[float], list[str]]:
        """A record's inputs' numbers, and the cells carried through. A record is a line, or lines joined by
        LF where a quoted cell holds a line break (`Record`)."""
        cells = _split(text, line)
        if len(cells) != self.width:
            raise PointsProblem(line, f"{len(cells)} cells where the header has {self.width}")
        numbers = [_number(cells[i]) for i in self.positions]
        for number in numbers:
            if isinstance(number, str):
                problem = PointsProblem(line, number)
                problem.extra = {name: cells[i] for i, name in self.extras}
                raise problem
        return numbers, [cells[i] for i, _ in self.extras]  # type: ignore[return-value]

    def columns(self, rows: list[tuple[list[float], list[str]]]) -> tuple[dict[str, Array], dict[str, Any]]:
        """The inputs' columns and the columns carried through, of the rows `row` read."""
        table = np.asarray([numbers for numbers, _ in rows], dtype=float).reshape(len(rows), len(self.layout))
        return (placed(self.layout, self.shapes.shapes, self.inputs, list(np.ascontiguousarray(table.T)), len(rows)),
                {name: Cells([cells[k] for _, cells in rows]) for k, (_, name) in enumerate(self.extras)})


def _layout(header: str | list[tuple[int, str]], inputs: Mapping[str, int],
            line: int) -> list[tuple[str, tuple[int, ...] | None]]:
    """`id,x1,z[0],z[1]` -> the input and the element index each column holds; a column that names
    no input, (its name, None): carried through. A table's header comes as its (position, name) pairs."""
    layout: list[tuple[str, tuple[int, ...] | None]] = []
    seen: dict[tuple[str, tuple[int, ...]], tuple[int, str]] = {}
    cells = header if isinstance(header, list) else list(enumerate(_split(header, line), start=1))
    for position, cell in cells:
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
            first, spelled = seen[name, index]
            exact = spelled != cell  # (spelled otherwise: both as written)
            raise PointsProblem(line, f"column {position} of the header, {shown(cell, exact=exact)}, repeats column "
                                      f"{first}" + (f", {shown(spelled, exact=True)}" if exact else ""))
        seen[name, index] = position, cell
        layout.append((name, index))
    return layout


class Record:
    """A CSV record whose quoted cell holds a line break (RFC 4180; pandas and spreadsheets write one): its
    lines, from `line`, until the quote closes, read as one line joined by LF. Past `limit` characters (or at
    a line that cannot be read) it is bad (`problem`) and its lines are passed over, not held, up to where the
    quote closes: no piece of a cell is ever taken for a point."""

    def __init__(self, first: str, line: int, row: int, cell: int, limit: int, problem: str | None = None) -> None:
        self.line, self.row = line, row  # where it starts, and its row
        self.cell = cell  # the cell whose quote is open (0: closed, the record ends)
        self.limit = limit
        self.lines: list[str] = [first]  # (none once it is bad)
        self.count = 1  # its lines so far
        self.chars = len(first)
        self.problem: PointsProblem | None = None
        if problem is not None:
            self._bad(problem)

    def add(self, line: str | Unreadable) -> bool:
        """The record's next line (one that is not text is bad; where nothing can be told of it, its
        cell stays open). True where the record ends with it."""
        self.count += 1
        text = line if isinstance(line, str) else line.text
        if self.problem is None:
            self.chars += 1 + len(text or "")
            if isinstance(line, Unreadable):
                self._bad(f"line {self.line + self.count - 1}, inside cell {self.cell}: {line.reason}")
            elif self.chars > self.limit:  # (before the line is held: a stray quote never holds more)
                self._bad(f"cell {self.cell} opens a quote that does not close within {self.limit:,} characters "
                          f"(raise the limit with {Limits.variable('line_chars')}=N)")
            else:
                self.lines.append(line)
        if text is not None:
            self.cell = open_cell(text, self.cell)
        return self.cell == 0

    def _bad(self, reason: str) -> None:
        self.problem = PointsProblem(self.line, reason)
        self.problem.row = self.row
        self.lines = []

    def text(self) -> str:
        return "\n".join(self.lines)

    def unclosed(self) -> PointsProblem:
        """The record at the end of the input, its quote still open."""
        problem = PointsProblem(self.line, f"cell {self.cell} opens a quote that does not close before the end of "
                                           "the input")
        problem.row = self.row
        return problem


def open_cell(text: str, cell: int) -> int:
    """The number of the cell (1-based) whose quote is open at the end of the line `text`, 0 if none: the
    record goes on to the next line. `cell` is the one open at its start (0: the line starts a record). As
    RFC 4180 and Python's csv module read a line: a cell that starts with a quote ends at the next lone quote
    (`""` is a quote inside it); a quote anywhere else is text."""
    if not cell and _CLOSED.fullmatch(text):  # (the common case, by the regular expression engine)
        return 0
    at, inside, number = 0, cell > 0, max(cell, 1)
    while True:
        if inside:
            end = text.find('"', at)
            while end >= 0 and text.startswith('"', end + 1):
                end = text.find('"', end + 2)
            if end < 0:
                return number
            at, inside = end + 1, False
        elif text.startswith('"', at):  # (never right after a closing quote: that would be a `""`)
            at, inside = at + 1, True
            continue
        comma = text.find(",", at)
        if comma < 0:
            return 0
        at, number = comma + 1, number + 1


def _split(text: str, line: int) -> list[str]:
    """A line's cells (RFC 4180): a cell that starts with a quote ends at the next lone quote, before a
    comma or the line's end; `""` inside it is one quote. A quote inside another cell is its own."""
    if '"' not in text:
        return text.split(",")
    cells: list[str] = []
    at = 0
    while True:
        if not text.startswith('"', at):
            end = text.find(",", at)
            cells.append(text[at:] if end < 0 else text[at:end])
            if end < 0:
                return cells
            at = end + 1
            continue
        end = at
        while True:
            end = text.find('"', end + 1)
            if end < 0:
                raise PointsProblem(line, f"cell {len(cells) + 1} opens a quote that does not close on its line")
            if not text.startswith('"', end + 1):
                break
            end += 1
        cells.append(text[at + 1 : end].replace('""', '"'))
        if end + 1 == len(text):
            return cells
        if text[end + 1] != ",":
            raise PointsProblem(line, f"cell {len(cells)} goes on after its closing quote")
        at = end + 2


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
