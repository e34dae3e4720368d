"""--points: many points, read from CSV or JSON Lines a chunk at a time.

The one reading loop: lines come from inputs/lines.py (bytes read in bounded pieces), are
numbered, blank ones judged, gathered into chunks of bounded count and text, and handed to
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
from gradcli.inputs.csv import Csv
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
        self.failure: GradcliError | None = None  # why it has no more, if it could not be read
        self._numbered: Iterator[Line] = self._number_lines()  # (a line taken is given back by chaining it first)
        self.shapes = PointShapes(inputs, fixed)  # the inputs' shapes, once the format knows them
        self.header = 0  # the line of a CSV header
        self._reader: Csv | JsonLines | None = None

    def _number_lines(self) -> Iterator[Line]:
        """Each line with its number (lines parsed at once: the first's); a problem in place of a line
        that is not a point. Blank lines are held back: bad lines when a line follows them, nothing at
        the end. Where the input cannot be read on, it ends there (`failure`: raised once what was read
        is answered)."""
        number = 0
        blanks: list[int] = []
        max_line = Limits.get("line_chars")
        try:
            for text in self.lines:
                if text is PAUSE:
                    yield number, PAUSE
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
                    yield blank, PointsProblem(blank, "a blank line is not a point")
                blanks.clear()
                yield number + 1, item
                number += text.count if isinstance(text, Parsed) else 1
        except GradcliError as failure:
            self.failure = failure

    def chunks(self) -> Iterator[PointChunk]:
        yield from self._chunks()
        if self.failure is not None:
            raise self.failure

    def _chunks(self) -> Iterator[PointChunk]:
        for first in self._numbered:  # bad lines (or a pause) before the first
            number, text = first
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
        self.shapes = reader.shapes
        self._reader = reader
        if isinstance(self.lines, LineReader) and rules.helper is not None:  # from here on, blocks of lines are offered
            self.lines.fast = reader.fast  # to the compiled helper first (where pip built it)
        while gathered := self._gather():
            if len(gathered) == 2:  # lines parsed at once: all good, numbered on from `start`
                start, parsed = gathered
                block = PointChunk(parsed.rows[0], parsed.count, range(start, start + parsed.count), [], parsed.rows[1],
                                   self.header)
                for at in range(0, parsed.count, self.chunk):
                    yield block.part(at, min(at + self.chunk, parsed.count))
                continue
            texts, lines, problems = gathered
            rows: list[Any] = []
            good: list[int] = []
            for text, line in zip(texts, lines, strict=True):
                try:
                    rows.append(reader.row(text, line))
                    good.append(line)
                except PointsProblem as problem:
                    problems.append(problem)
                    if not self.skip_bad:
                        break
            columns, extra = reader.columns(rows) if texts else ({}, {})
            problems.sort(key=lambda problem: problem.line)
            yield from settled(PointChunk(columns, len(good), good, problems, extra, self.header), self.skip_bad)

    def empty(self) -> PointChunk | None:
        """A chunk of no points whose columns have the shapes the input gives (a CSV header, else
        --at), for the header of a run with no points; None while some input's shape is unknown."""
        chunk = empty_chunk(self.shapes)
        if chunk is not None and self._reader is not None:
            chunk.extra = self._reader.columns([])[1]
        return chunk

    def _gather(self) -> Gathered | None:
        """The next chunk's lines: their texts and numbers, and the lines that are not text; or lines
        parsed at once, with the number of the first, when they come first; None at the end.

        A chunk ends at `chunk` lines or CHUNK_CHARS of text, at the end, where the input
        pauses (what came is answered before waiting), (without --skip-bad) at a bad line,
        (with it) at PROBLEMS_AT_ONCE bad lines, or where lines parsed at once come.
        """
        texts: list[str] = []
        lines: list[int] = []
        problems: list[PointsProblem] = []
        chars = 0
        for number, text in self._numbered:
            if isinstance(text, Parsed):
                if texts or problems:
                    self._numbered = chain([(number, text)], self._numbered)
                    break
                return number, text
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
                chars += len(text)
            if len(texts) >= self.chunk or chars >= CHUNK_CHARS or len(problems) >= PROBLEMS_AT_ONCE:
                break
        return (texts, lines, problems) if texts or problems else None


Line = tuple[int, "str | PointsProblem | Unreadable | Parsed"]  # a line's number, and its text or what stands for it
Gathered = tuple[list[str], list[int], list[PointsProblem]] | tuple[int, Parsed]  # texts, their lines and the bad
# lines; or lines parsed at once, and the first's number


def settled(chunk: PointChunk, skip_bad: bool) -> Iterator[PointChunk]:
    """A chunk read, as every reader gives it: with --skip-bad, its points and bad lines; without, the
    points before its first bad line (its only points), then that line raised."""
    for problem in chunk.skipped:
        problem.row = problem.line - chunk.header
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
