"""--points: many points, read from CSV or JSON Lines a chunk at a time.

The one reading loop: lines come from inputs/lines.py (bytes read in bounded pieces), are
numbered, blank ones judged, gathered into chunks of bounded count and text, and handed to
the format the first line chooses (inputs/csv.py, inputs/jsonl.py), which turns them into
columns. Bad lines stop the run, or with --skip-bad are passed over, the same for every format.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gradcli.errors import GradcliError, Limits, PointsProblem
from gradcli.inputs import rows as rules
from gradcli.inputs.csv import Csv
from gradcli.inputs.jsonl import JsonLines
from gradcli.inputs.lines import PAUSE, LineReader, Parsed, Unreadable, too_long
from gradcli.inputs.rows import Carried, PointShapes, Rows

Array = np.ndarray

CHUNK_CHARS = 1 << 23  # a chunk of points ends at this much text, however few its lines
PROBLEMS_AT_ONCE = 4096  # ... and at this many bad lines passed over (--skip-bad), however few its points


@dataclass(eq=False, repr=False)
class PointChunk:
    columns: dict[str, Array]  # name -> (count, *shape), in the program's input order
    count: int
    lines: Sequence[int]  # the input line of each point (a range where they follow each other)
    skipped: list[PointsProblem]  # bad lines passed over (with --skip-bad), in order
    extra: dict[str, Any] = field(default_factory=dict)  # a column that is no input -> an Arrow array, a value a point
    header: int = 0  # the line of a CSV header: a point's row is its line less this (the header is no row)

    def rows(self) -> Array:
        """Each point's row: 1-based, the header not counted, the same in every format."""
        if isinstance(self.lines, range):
            return np.arange(self.lines.start - self.header, self.lines.stop - self.header, dtype=np.int64)
        return np.asarray(self.lines, dtype=np.int64) - self.header

    def part(self, start: int, stop: int) -> PointChunk:
        """Points start:stop of this chunk (no bad lines)."""
        return PointChunk({name: column[start:stop] for name, column in self.columns.items()}, stop - start,
                          self.lines[start:stop], [], {name: column[start:stop] for name, column in self.extra.items()},
                          self.header)


class PointsReader:
    """Reads --points text (JSON Lines or CSV, told apart by the first line) in chunks.

    Every line is a point or a bad line (PointsProblem), except for blank lines at the very
    end. A bad line decides nothing about later lines. Without --skip-bad the points before
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
        self.number = 0  # the line of the last text _next_line gave
        self.ended = False  # the input has no more lines
        self.failure: GradcliError | None = None  # why it has no more, if it could not be read
        self.max_line = Limits.get("line_chars")
        self._numbered = self._number_lines()
        self._held: Parsed | None = None  # lines parsed at once, for the next chunk
        self.shapes = PointShapes(inputs, fixed)  # the inputs' shapes, once the format knows them
        self.header = 0  # the line of a CSV header
        self._reader: Csv | JsonLines | None = None

    def _number_lines(self) -> Iterator[tuple[int, str | PointsProblem | Unreadable | Parsed]]:
        """Each line with its number; a problem in place of a line that is not a point.

        Blank lines are held back: bad lines when a line follows them, nothing at the end.
        """
        number = 0
        blanks: list[int] = []
        for text in self.lines:
            if text is PAUSE:
                yield number, PAUSE
                continue
            if isinstance(text, Parsed):  # lines read at once: none blank, so any held back were bad
                for blank in blanks:
                    yield blank, PointsProblem(blank, "a blank line is not a point")
                blanks.clear()
                yield number + 1, text
                number += text.count
                continue
            number += 1
            if isinstance(text, Unreadable):
                item: str | PointsProblem | Unreadable | Parsed = PointsProblem(number, text.reason)
            elif len(text) > self.max_line:
                item = PointsProblem(number, too_long(self.max_line))
            elif not text or text.isspace():
                blanks.append(number)
                continue
            else:
                item = text
            if blanks:
                for blank in blanks:
                    yield blank, PointsProblem(blank, "a blank line is not a point")
                blanks.clear()
            yield number, item

    def _next_line(self) -> str | PointsProblem | Unreadable | Parsed | None:
        """The next line's text, a problem in its place, or PAUSE; None at the end."""
        try:
            for number, item in self._numbered:
                self.number = number
                return item
        except GradcliError as failure:  # unreadable past here: what was read is answered first
            self.failure = failure
        self.ended = True
        return None

    def chunks(self) -> Iterator[PointChunk]:
        yield from self._chunks()
        if self.failure is not None:
            raise self.failure

    def _chunks(self) -> Iterator[PointChunk]:
        first = self._next_line()
        while isinstance(first, PointsProblem | Unreadable):  # bad lines (or a pause) before the first
            if isinstance(first, PointsProblem):
                if not self.skip_bad:
                    raise first
                yield PointChunk({}, 0, [], [first])
            first = self._next_line()
        if first is None:
            return
        assert not isinstance(first, Parsed)  # nothing is parsed at once before a format is chosen
        reader: Csv | JsonLines  # told by the first line; a CSV header is no point
        if self.format == "jsonl" or (self.format is None and first.lstrip().startswith("{")):
            reader, pending = JsonLines(self.inputs, self.fixed, self.extra), [first]
        else:
            reader, pending = Csv(first, self.number, self.inputs, self.fixed, self.extra), []
            self.header = self.number
        self.shapes = reader.shapes
        self._reader = reader
        if isinstance(self.lines, LineReader) and rules.helper is not None:  # from here on, blocks of lines are offered
            self.lines.fast = reader.fast  # to the compiled helper first (where pip built it)
        while True:
            gathered = self._gather(pending)
            pending = []
            if len(gathered) == 3:
                texts, lines, problems = gathered
            else:  # lines parsed at once: all good, numbered on from `start`
                start, parsed = gathered
                columns, extra = reader.columns(parsed.rows), reader.extra(parsed.rows)
                for at in range(0, parsed.count, self.chunk):
                    count = min(self.chunk, parsed.count - at)
                    yield PointChunk({name: column[at : at + count] for name, column in columns.items()}, count,
                                     range(start + at, start + at + count), [],
                                     {name: column[at : at + count] for name, column in extra.items()}, self.header)
                texts, lines, problems = [], [], []
            rows = reader.read(texts, lines, self.skip_bad) if texts else Rows({}, [], [])
            if rows.problems:
                problems = sorted([*rows.problems, *problems], key=lambda problem: problem.line)
            if problems and not self.skip_bad:
                if rows.lines:
                    yield PointChunk(rows.columns, len(rows.lines), rows.lines, [], rows.extra, self.header)
                raise problems[0]
            if rows.lines or problems:
                yield PointChunk(rows.columns, len(rows.lines), rows.lines, problems, rows.extra, self.header)
            if self.ended and self._held is None:
                return

    def empty(self) -> PointChunk | None:
        """A chunk of no points whose columns have the shapes the input gives (a CSV header, else
        --at), for the header of a run with no points; None while some input's shape is unknown."""
        chunk = empty_chunk(self.shapes)
        if chunk is not None and self._reader is not None:
            chunk.extra = self._reader.extra_empty()
        return chunk

    def _gather(self, pending: list[str]) -> tuple[list[str], list[int], list[PointsProblem]] | tuple[int, Parsed]:
        """The next chunk's lines: their texts and numbers, and the lines that are not text;
        or lines parsed at once, with the number of the first, when they come first.

        A chunk ends at `chunk` lines or CHUNK_CHARS of text, at the end, where the input
        pauses (what came is answered before waiting), (without --skip-bad) at a bad line,
        (with it) at PROBLEMS_AT_ONCE bad lines, or where lines parsed at once come.
        """
        if self._held is not None and not pending:
            held, self._held = self._held, None
            return self.number - held.count + 1, held
        texts = list(pending)
        lines = [self.number] * len(pending)
        problems: list[PointsProblem] = []
        chars = sum(map(len, texts))
        while len(texts) < self.chunk and chars < CHUNK_CHARS and len(problems) < PROBLEMS_AT_ONCE:
            text = self._next_line()
            if text is None:
                break
            if isinstance(text, Parsed):
                if texts or problems:
                    self._held = text
                    self.number += text.count - 1  # the number of its last line
                    break
                start = self.number
                self.number += text.count - 1
                return start, text
            if isinstance(text, Unreadable):  # a pause
                if texts or problems:
                    break
                continue
            if isinstance(text, PointsProblem):
                problems.append(text)
                if not self.skip_bad:
                    break
                continue
            texts.append(text)
            lines.append(self.number)
            chars += len(text)
        return texts, lines, problems


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
