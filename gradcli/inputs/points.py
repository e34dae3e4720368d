"""--points: many points, read from CSV or JSON Lines a chunk at a time.

The one reading loop: lines come from inputs/lines.py (bytes read in bounded pieces), are
numbered (a CSV record over several lines joined into one, numbered by its first), blank ones
judged, gathered into chunks of bounded count and text, and handed to
the format the first line chooses (inputs/csv.py, inputs/jsonl.py), which turns them into
columns. Bad lines stop the run, or with --skip-bad are passed over, the same for every format.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np

from gradcli.errors import GradcliError, Limits, PointsProblem
from gradcli.inputs import rows as rules
from gradcli.inputs.csv import Csv, Record, open_cell
from gradcli.inputs.jsonl import JsonLines
from gradcli.inputs.lines import PAUSE, LineReader, Parsed, Unreadable, too_long
from gradcli.inputs.rows import Carried, PointShapes

Array = np.ndarray

CHUNK_CHARS = 1 << 23  # a chunk of points ends at this much text, however few its lines
PROBLEMS_AT_ONCE = 4096  # ... and at this many bad lines passed over (--skip-bad), however few its points


@dataclass(eq=False, repr=False)
class PointChunk:
    columns: dict[str, Array]  # name -> (count, *shape), in the program's input order
    count: int
    lines: Sequence[int]  # the input line of each point (where its record starts; a range where they follow)
    skipped: list[PointsProblem]  # bad lines passed over (with --skip-bad), in order
    extra: dict[str, Any] = field(default_factory=dict)  # a column that is no input -> an Arrow array, a value a point
    numbers: Sequence[int] | None = None  # each point's row where it is not its line (CSV: records, the header not
    # counted; a range where they follow each other)

    def rows(self) -> Array:
        """Each point's row: 1-based, a CSV header not counted, the same in every format."""
        return _array(self.lines if self.numbers is None else self.numbers)

    def row(self, index: int) -> int:
        return int((self.lines if self.numbers is None else self.numbers)[index])

    def line_numbers(self) -> Array:
        return _array(self.lines)

    def part(self, start: int, stop: int) -> PointChunk:
        """Points start:stop of this chunk (no bad lines)."""
        return PointChunk({name: column[start:stop] for name, column in self.columns.items()}, stop - start,
                          self.lines[start:stop], [], {name: column[start:stop] for name, column in self.extra.items()},
                          None if self.numbers is None else self.numbers[start:stop])


def _array(numbers: Sequence[int]) -> Array:
    if isinstance(numbers, range):
        return np.arange(numbers.start, numbers.stop, dtype=np.int64)
    return np.asarray(numbers, dtype=np.int64)


class PointsReader:
    """Reads --points text (JSON Lines or CSV, told apart by the first line) in chunks.

    Every line (in CSV, every record: lines where a quoted cell holds a line break are one) is a
    point or a bad line (PointsProblem), except for blank lines at the very end. A bad line decides nothing about later lines. Without --skip-bad the points before
    the first bad line are given, then it is raised; with it, each chunk names the bad lines
    among its own, in order.
    """

    def __init__(self, lines: Iterable[str | Unreadable | Parsed], inputs: Mapping[str, int], fixed: Mapping[str, Array],
                 chunk: int = 65_536, skip_bad: bool = False, format: str | None = None, extra: Carried = True) -> None:
        self.lines = lines
        self.format = format  # csv or jsonl; None: told by the first line
        self.inputs = inputs
        self.fixed = fixed
        self.chunk = chunk
        self.skip_bad = skip_bad
        self.extra = extra  # columns (names) that are no input are carried through
        self.failure: GradcliError | None = None  # why it has no more, if it could not be read
        self._numbered: Iterator[Line] = self._number_lines()  # (a line taken is given back by chaining it first)
        self.shapes = PointShapes(inputs, fixed)  # the inputs' shapes, once the format knows them
        self.header = 0  # the line of a CSV header
        self._reader: Csv | JsonLines | None = None
        self._csv: Csv | None = None  # the format, once the first line has told it CSV

    def _number_lines(self) -> Iterator[Line]:
        """Each line with its number and row (lines parsed at once: the first's); a problem in place of a
        line that is not a point. In CSV a record whose quoted cell holds a line break is one line, joined by
        LF, numbered by its first (`Record`): the rows after it count records. Blank lines are held back:
        bad lines when a line follows them, nothing at the end. Where the input cannot be read on, it ends
        there (`failure`: raised once what was read is answered)."""
        number = 0
        joined = 0  # lines that went on a record started on an earlier line: a row is a record
        blanks: list[int] = []
        max_line = Limits.get("line_chars")
        record: Record | None = None  # a CSV record whose quoted cell is still open
        try:
            for text in self.lines:
                if text is PAUSE:
                    yield number, number, PAUSE
                    continue
                if record is not None:  # a line of a record begun before
                    number += 1
                    joined += 1
                    yield from _go_on(record, text)  # type: ignore[arg-type]
                    if not record.cell:
                        record = None
                        self._open(None)
                    continue
                item: str | PointsProblem | Parsed = text  # type: ignore[assignment]
                if isinstance(text, Unreadable):
                    item = PointsProblem(number + 1, text.reason)
                elif isinstance(text, str) and len(text) > max_line:
                    item = PointsProblem(number + 1, too_long(max_line))
                elif isinstance(text, str) and (not text or text.isspace()):
                    number += 1
                    blanks.append(number)
                    continue
                for blank in blanks:  # lines read at once are none blank: any held back were bad
                    problem = PointsProblem(blank, "a blank line is not a point")
                    problem.row = blank - self.header - joined
                    yield blank, problem.row, problem
                blanks.clear()
                row = number + 1 - self.header - joined
                if self._csv is not None and not isinstance(text, Parsed):
                    opened = text if isinstance(text, str) else text.text
                    if opened and '"' in opened and (cell := open_cell(opened, 0)):
                        record = Record(opened, number + 1, row, cell, max_line,
                                        item.reason if isinstance(item, PointsProblem) else None)
                        self._open(record)
                        if record.problem is not None:
                            yield number + 1, row, record.problem
                        number += 1
                        continue
                if isinstance(item, PointsProblem):
                    item.row = row
                yield number + 1, row, item
                number += text.count if isinstance(text, Parsed) else 1
            if record is not None and record.problem is None:
                yield record.line, record.row, record.unclosed()
        except GradcliError as failure:
            self.failure = failure

    def _open(self, record: Record | None) -> None:
        """The CSV record still open, if any: while one is, no block of lines is read at once (a line of it
        could pass for a point)."""
        assert self._csv is not None
        self._csv.open_since = None if record is None else record.line

    def chunks(self) -> Iterator[PointChunk]:
        yield from self._chunks()
        if self.failure is not None:
            raise self.failure

    def _chunks(self) -> Iterator[PointChunk]:
        for first in self._numbered:  # bad lines (or a pause) before the first
            number, _, text = first
            if isinstance(text, str):
                break
            if isinstance(text, PointsProblem):
                if not self.skip_bad:
                    raise text
                yield PointChunk({}, 0, [], [text])
        else:
            return
        reader: Csv | JsonLines  # told by the first line; a CSV header is no point
        if self.format is None and text.lstrip().startswith("["):  # (--output x.json's; no CSV header starts so)
            raise PointsProblem(number, "a JSON array is not read as points: give JSON Lines, an object a line "
                                        "(what --json and --output FILE.jsonl write)")
        if self.format == "jsonl" or (self.format is None and text.lstrip().startswith("{")):
            reader, self._numbered = JsonLines(self.inputs, self.fixed, self.extra), chain([first], self._numbered)
        else:
            reader, self.header = Csv(text, number, self.inputs, self.fixed, self.extra), number
            self._csv = reader
        self.shapes = reader.shapes
        self._reader = reader
        if isinstance(self.lines, LineReader) and rules.helper is not None:  # from here on, blocks of lines are offered
            self.lines.fast = reader.fast  # to the compiled helper first (where pip built it)
        while gathered := self._gather():
            if len(gathered) == 3:  # lines parsed at once: all good, numbered on from `start`
                start, row, parsed = gathered
                block = PointChunk(parsed.rows[0], parsed.count, range(start, start + parsed.count), [], parsed.rows[1],
                                   range(row, row + parsed.count))
                for at in range(0, parsed.count, self.chunk):
                    yield block.part(at, min(at + self.chunk, parsed.count))
                continue
            texts, lines, rows, problems = gathered
            points: list[Any] = []
            good: list[int] = []
            good_rows: list[int] = []
            for text, line, row in zip(texts, lines, rows, strict=True):
                try:
                    points.append(reader.row(text, line))
                    good.append(line)
                    good_rows.append(row)
                except PointsProblem as problem:
                    problem.row = row
                    problems.append(problem)
                    if not self.skip_bad:
                        break
            columns, extra = reader.columns(points) if texts else ({}, {})
            problems.sort(key=lambda problem: problem.line)
            yield from settled(PointChunk(columns, len(good), good, problems, extra, good_rows), self.skip_bad)

    def empty(self) -> PointChunk | None:
        """A chunk of no points whose columns have the shapes the input gives (a CSV header, else
        --at), for the header of a run with no points; None while some input's shape is unknown."""
        chunk = empty_chunk(self.shapes)
        if chunk is not None and self._reader is not None:
            chunk.extra = self._reader.columns([])[1]
        return chunk

    def _gather(self) -> Gathered | None:
        """The next chunk's lines: their texts, numbers and rows, and the lines that are not text; or lines
        parsed at once, with the number and row of the first, when they come first; None at the end.

        A chunk ends at `chunk` lines or CHUNK_CHARS of text, at the end, where the input
        pauses (what came is answered before waiting), (without --skip-bad) at a bad line,
        (with it) at PROBLEMS_AT_ONCE bad lines, or where lines parsed at once come.
        """
        texts: list[str] = []
        lines: list[int] = []
        rows: list[int] = []
        problems: list[PointsProblem] = []
        chars = 0
        for number, row, text in self._numbered:
            if isinstance(text, Parsed):
                if texts or problems:
                    self._numbered = chain([(number, row, text)], self._numbered)
                    break
                return number, row, text
            if text is PAUSE:
                if texts or problems:
                    break
            elif isinstance(text, PointsProblem):
                problems.append(text)
                if not self.skip_bad:
                    break
            else:
                assert isinstance(text, str)
                texts.append(text)
                lines.append(number)
                rows.append(row)
                chars += len(text)
            if len(texts) >= self.chunk or chars >= CHUNK_CHARS or len(problems) >= PROBLEMS_AT_ONCE:
                break
        return (texts, lines, rows, problems) if texts or problems else None


def _go_on(record: Record, text: str | Unreadable) -> Iterator[Line]:
    """A line of a CSV record begun before: held, or passed over once the record is bad (said at once: a
    stray quote stops the run where it passes the limit); the record, where it ends with this line."""
    good = record.problem is None
    ended = record.add(text)
    if good and record.problem is not None:
        yield record.line, record.row, record.problem
    if ended and record.problem is None:
        yield record.line, record.row, record.text()


Line = tuple[int, int, "str | PointsProblem | Unreadable | Parsed"]  # a line's number and row, and its text or what
# stands for it
Gathered = tuple[list[str], list[int], list[int], list[PointsProblem]] | tuple[int, int, Parsed]  # texts, their lines
# and rows, and the bad lines; or lines parsed at once, and the first's number and row


def settled(chunk: PointChunk, skip_bad: bool) -> Iterator[PointChunk]:
    """A chunk read, as every reader gives it: with --skip-bad, its points and bad lines; without, the
    points before its first bad line (its only points), then that line raised."""
    if chunk.skipped and not skip_bad:
        first, chunk.skipped = chunk.skipped[0], []
        if chunk.count:
            yield chunk
        raise first
    if chunk.count or chunk.skipped:
        yield chunk


def empty_chunk(shapes: PointShapes) -> PointChunk | None:
    """A PointChunk of no points, the inputs' columns of the shapes known; None if some input
    has neither a shape nor an --at value."""
    columns = {}
    for name in shapes.inputs:
        if name in shapes.shapes:
            columns[name] = np.empty((0, *shapes.shapes[name]))
        elif name not in shapes.fixed:
            return None
    return PointChunk(columns, 0, [], [])
