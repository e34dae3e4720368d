"""--points: many points, read from CSV or JSON Lines text a chunk at a time."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from gradcli.errors import GradcliError, Limits, NameProblem, PointsProblem
from gradcli.inputs.literals import MAX_LIST_DEPTH

Array = np.ndarray


@dataclass(eq=False, repr=False)
class PointChunk:
    columns: dict[str, Array]  # name -> (count, *shape), in the program's input order
    count: int
    lines: list[int]  # the input line of each point
    skipped: list[PointsProblem]  # bad lines passed over (with --skip-bad)


class Unreadable:
    """A line that is not text (too long to hold, or not UTF-8), in the place of its text."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


# Not a line: nothing more has come down the pipe for now. What was read is answered
# before waiting for more.
PAUSE = Unreadable("")


PIECE = 1 << 16  # bytes read at once
CHUNK_CHARS = 1 << 23  # a chunk of points ends at this much text, however few its lines
_BOM = b"\xef\xbb\xbf"


def _too_long(limit: int) -> str:
    return f"longer than {limit:,} characters (raise the limit with {Limits.variable('line_chars')}=N)"


def read_lines(stream: BinaryIO, name: str = "-") -> Iterator[str | Unreadable]:
    """The lines of a stream of bytes as text, read in pieces: no line is ever held whole.

    A line ends at LF or CRLF. A line past the line limit is given up as soon as its bytes
    pass four times the limit (UTF-8 spends at most 4 bytes on a character), and the rest
    of it is passed over a piece at a time. A UTF-8 byte order mark at the start is dropped.
    """
    limit = Limits.get("line_chars")
    most_bytes = 4 * limit + 1  # and the CR of a CRLF
    read, more_now = _pieces(stream)
    pending: list[bytes] = []  # the start of a line whose end has not come yet
    pending_size = 0
    passing_over = False  # inside a line already given up as too long
    first = True
    while True:
        try:
            piece = read(PIECE)
        except OSError as problem:
            raise NameProblem(f"cannot read points from {name!r}: {problem.strerror or problem}",
                              where="--points") from None
        if not piece:
            break
        if passing_over:
            end = piece.find(b"\n")
            if end < 0:
                continue
            piece = piece[end + 1 :]
            passing_over = False
        end = piece.rfind(b"\n")
        if end >= 0:
            block = b"".join([*pending, piece[:end]]) if pending else piece[:end]
            yield from _decode(block, first)
            first = False
            pending, pending_size = [], 0
            piece = piece[end + 1 :]
            if more_now is not None and not more_now():
                yield PAUSE
        if piece:
            pending.append(piece)
            pending_size += len(piece)
            if pending_size > most_bytes:
                yield Unreadable(_too_long(limit))
                first = False
                pending, pending_size, passing_over = [], 0, True
    if pending:
        yield from _decode(b"".join(pending), first)


def _pieces(stream: BinaryIO) -> tuple[Callable[[int], bytes], Callable[[], bool] | None]:
    """How to read `stream` a piece at a time; for a pipe or a terminal, also how to tell
    whether more bytes are there now (a file's next bytes always are)."""
    import io
    import os
    import stat

    read = getattr(stream, "read1", stream.read)
    try:
        descriptor = stream.fileno()
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            return read, None
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return read, None
    import select

    def more_now() -> bool:
        try:
            return bool(select.select([descriptor], [], [], 0)[0])
        except (OSError, ValueError):  # no select on this kind of stream: never pause
            return True

    raw = getattr(stream, "raw", None)
    if raw is None:
        return read, more_now

    def read_raw(size: int) -> bytes:
        # Nothing is buffered above the descriptor yet (nothing has read it): read it
        # directly, so that what select sees is all there is.
        piece = raw.read(size)
        while piece is None:  # a non-blocking descriptor with nothing in it yet: wait
            select.select([descriptor], [], [])
            piece = raw.read(size)
        return piece

    return read_raw, more_now


def _decode(block: bytes, first: bool) -> Iterator[str | Unreadable]:
    """The lines of `block` (whole lines, without the last LF) as text."""
    if first and block.startswith(_BOM):
        block = block[len(_BOM) :]
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        for raw in block.split(b"\n"):
            try:
                yield raw.decode("utf-8").removesuffix("\r")
            except UnicodeDecodeError as problem:
                column = len(raw[: problem.start].decode("utf-8")) + 1
                yield Unreadable(f"not UTF-8 text (byte 0x{raw[problem.start]:02x} at column {column})")
        return
    if "\r" in text:
        text = text.replace("\r\n", "\n").removesuffix("\r")
    yield from text.split("\n")


_CSV_COLUMN = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)((?:\[\d+\])*)\s*$")
MAX_INDEX_DIGITS = 18  # an index past a billion billion columns cannot be filled


def _shown(text: str, most: int = 40) -> str:
    """A cell for a message: cut short when it is long."""
    text = text.strip()
    return repr(text if len(text) <= most else text[: most - 3] + "...")


def _csv_layout(header: str, inputs: Mapping[str, int], line: int) -> list[tuple[str, tuple[int, ...]]]:
    """`x1,z[0],z[1]` -> the input and the element index each column holds."""
    layout = []
    seen: dict[tuple[str, tuple[int, ...]], int] = {}
    for position, cell in enumerate(header.split(","), start=1):
        found = _CSV_COLUMN.match(cell)
        if found is None:
            raise PointsProblem(line, f"column {position} of the header, {_shown(cell)}, is not NAME or NAME[i]")
        name = found.group(1)
        if name not in inputs:
            known = ", ".join(inputs) or "none"
            raise PointsProblem(line, f"column {cell.strip()!r} is not an input of the program (its inputs are: {known})")
        digits = re.findall(r"\d+", found.group(2))
        if any(len(d) > MAX_INDEX_DIGITS for d in digits):
            raise PointsProblem(line, f"column {position} of the header, {_shown(cell)}, has an index of more than "
                                      f"{MAX_INDEX_DIGITS} digits")
        index = tuple(int(d) for d in digits)
        if (name, index) in seen:
            raise PointsProblem(line, f"column {position} of the header, {_shown(cell)}, repeats column "
                                      f"{seen[name, index]}")
        seen[name, index] = position
        layout.append((name, index))
    return layout


class _BadJson(Exception):
    """Raised inside the JSON decoder by _json_object: a line that is JSON but not a point."""


class _Named(float):
    """NaN, Infinity or -Infinity, spelled out in JSON (as Python writes them): meant, not an
    overflow. A plain float that is not finite was a number past float64's range."""


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    point = dict(pairs)
    if len(point) != len(pairs):
        seen: set[str] = set()
        repeated = next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise _BadJson(f"{repeated!r} is given twice")
    return point


_json_decoder: Any = None


def _decode_json(text: str) -> Any:
    global _json_decoder
    if _json_decoder is None:
        import json  # only JSON points pay for it

        # Integers become floats (`-0` keeps its sign; 10**400 becomes inf, and is refused).
        _json_decoder = json.JSONDecoder(parse_int=float, parse_constant=_Named, object_pairs_hook=_json_object)
    return _json_decoder.decode(text)


_KINDS = {str: "a string", bool: "a boolean", type(None): "null", dict: "an object"}


def _json_value(given: Any) -> float | Array:
    """A number, or an array from nested lists of numbers; ValueError names what else it is."""
    if type(given) is float and given - given == 0.0:  # finite: the common case, first
        return given
    stack: list[tuple[Any, int]] = [(given, 0)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is list:
            if depth == MAX_LIST_DEPTH:
                raise ValueError(f"has lists nested deeper than {MAX_LIST_DEPTH}")
            stack.extend((element, depth + 1) for element in item)
        elif kind is float:
            if item - item != 0.0:
                raise ValueError(f"{'is' if item is given else 'holds'} a number past the range of float64 numbers")
        elif kind is not _Named:
            raise ValueError(f"is not a number or a list of numbers: it {'is' if item is given else 'holds'} "
                             f"{_KINDS.get(kind, kind.__name__)}")
    if type(given) is _Named:
        return float(given)
    try:
        return np.array(given, dtype=float)
    except ValueError:
        raise ValueError("has rows of different lengths") from None


def _csv_number(cell: str) -> float | str:
    """A CSV cell's number, or what is wrong with it. As NumPy's CSV parser reads numbers:
    not Python's `1_000` or fullwidth digits; `inf` and `nan` spelled out, never by overflow."""
    text = cell.strip()
    try:
        if not text.isascii() or "_" in text:
            raise ValueError
        number = float(text)
    except ValueError:
        return f"{_shown(cell)} is not a number"
    if number in (np.inf, -np.inf) and text.lstrip("+-").lower() not in ("inf", "infinity"):
        return f"{_shown(cell)} is past the range of float64 numbers"
    return number


class PointsReader:
    """Reads --points text (JSON Lines or CSV, told apart by the first line) in chunks.

    CSV: a header of input names; a vector input is spread over columns `z[0]`, `z[1]`, ...
    (a matrix over `m[0][1]`, ...). JSON Lines: one object `{name: value}` per line, a value
    being a number or a nested list. Every line is a point or a bad line (PointsProblem),
    except for blank lines at the very end. A bad line decides nothing about later lines.
    """

    def __init__(self, lines: Iterator[str | Unreadable], inputs: Mapping[str, int], fixed: Mapping[str, Array],
                 chunk: int = 65_536, skip_bad: bool = False) -> None:
        self.lines = lines
        self.inputs = inputs
        self.fixed = fixed
        self.chunk = chunk
        self.skip_bad = skip_bad
        self.number = 0  # the line of the last text _next_line gave
        self.ended = False  # the input has no more lines
        self.failure: GradcliError | None = None  # why it has no more, if it could not be read
        self.shapes: dict[str, tuple[int, ...]] = {}  # fixed by the first good line
        self.shape_lines: dict[str, int] = {}  # ... and that line
        self.format = ""
        self.layout: list[tuple[str, tuple[int, ...]]] = []
        self.max_line = Limits.get("line_chars")
        self._numbered = self._number_lines()

    def _number_lines(self) -> Iterator[tuple[int, str | PointsProblem | Unreadable]]:
        """Each line with its number; a problem in place of a line that is not a point.

        Blank lines are held back: bad lines when a line follows them, nothing at the end.
        """
        number = 0
        blanks: list[int] = []
        for text in self.lines:
            if text is PAUSE:
                yield number, PAUSE
                continue
            number += 1
            if isinstance(text, Unreadable):
                item: str | PointsProblem | Unreadable = PointsProblem(number, text.reason)
            elif len(text) > self.max_line:
                item = PointsProblem(number, _too_long(self.max_line))
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

    def _next_line(self) -> str | PointsProblem | Unreadable | None:
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
        while isinstance(first, PointsProblem | Unreadable):
            if isinstance(first, PointsProblem):
                if not self.skip_bad:
                    raise first
                yield PointChunk({}, 0, [], [first])
            first = self._next_line()
        if first is None:
            return
        if first.lstrip().startswith("{"):
            self.format = "jsonl"
            yield from self._json_chunks(first)
        else:
            self.format = "csv"
            self.layout = _csv_layout(first, self.inputs, self.number)
            self._csv_shapes()
            yield from self._csv_chunks()

    def _json_chunks(self, pending: str | None) -> Iterator[PointChunk]:
        while True:
            rows: list[dict[str, Any]] = []
            lines: list[int] = []
            skipped: list[PointsProblem] = []
            chars = 0
            while len(rows) < self.chunk and chars < CHUNK_CHARS:
                text = pending if pending is not None else self._next_line()
                pending = None
                if text is None or (isinstance(text, Unreadable) and rows):  # the end, or a pause
                    break
                if isinstance(text, Unreadable):
                    continue
                try:
                    if isinstance(text, PointsProblem):
                        raise text
                    rows.append(self._parse(text))
                    lines.append(self.number)
                    chars += len(text)
                except PointsProblem as problem:
                    if not self.skip_bad:
                        if rows:
                            yield self._chunk(rows, lines, skipped)
                        raise
                    skipped.append(problem)
            if rows or skipped:
                yield self._chunk(rows, lines, skipped)
            if self.ended:
                return

    def _csv_chunks(self) -> Iterator[PointChunk]:
        """CSV rows a chunk at a time, read by NumPy's C parser; line by line only to find a bad one."""
        while True:
            texts: list[str] = []
            lines: list[int] = []
            stop: PointsProblem | None = None  # a bad line found while gathering the chunk
            chars = 0
            while len(texts) < self.chunk and chars < CHUNK_CHARS:
                text = self._next_line()
                if text is None or (isinstance(text, Unreadable) and texts):  # the end, or a pause
                    break
                if isinstance(text, Unreadable):
                    continue
                if isinstance(text, PointsProblem):
                    if not self.skip_bad:
                        stop = text
                        break
                    yield PointChunk({}, 0, [], [text])
                    continue
                texts.append(text)
                lines.append(self.number)
                chars += len(text)
            if not texts:
                if stop is not None:
                    raise stop
                if self.ended:
                    return
                continue
            try:
                table = np.loadtxt(texts, delimiter=",", comments=None, ndmin=2, dtype=float)
                if table.shape[1] != len(self.layout) or np.isinf(table).any():
                    raise ValueError("a bad cell, or an infinity to look at")
                yield self._chunk(table, lines, [])
            except ValueError:
                rows: list[Any] = []
                good: list[int] = []
                skipped: list[PointsProblem] = []
                for text, line in zip(texts, lines, strict=True):
                    try:
                        rows.append(self._parse_csv(text, line))
                        good.append(line)
                    except PointsProblem as problem:
                        if not self.skip_bad:
                            if rows:
                                yield self._chunk(rows, good, [])
                            raise
                        skipped.append(problem)
                yield self._chunk(rows, good, skipped)
            if stop is not None:
                raise stop
            if self.ended:
                return

    def _parse_csv(self, text: str, line: int) -> list[float]:
        cells = text.split(",")
        if len(cells) != len(self.layout):
            raise PointsProblem(line, f"{len(cells)} cells where the header has {len(self.layout)}")
        numbers = [_csv_number(cell) for cell in cells]
        for number in numbers:
            if isinstance(number, str):
                raise PointsProblem(line, number)
        return numbers  # type: ignore[return-value]

    def _csv_shapes(self) -> None:
        missing = [name for name in self.inputs if name not in {n for n, _ in self.layout} and name not in self.fixed]
        if missing:
            raise PointsProblem(self.number, f"no column and no --at value for input {', '.join(repr(n) for n in missing)}")
        indices: dict[str, list[tuple[int, ...]]] = {}
        for name, index in self.layout:
            indices.setdefault(name, []).append(index)
        for name, found in indices.items():
            ndim = {len(i) for i in found}
            if len(ndim) != 1:
                raise PointsProblem(self.number, f"the columns of {name!r} mix different numbers of indices")
            shape = tuple(max(i[d] for i in found) + 1 for d in range(ndim.pop()))
            size = 1
            for length in shape:  # Python's integers: a shape from huge indices does not overflow
                size *= length
            if size != len(found):
                raise PointsProblem(self.number, f"the columns of {name!r} do not fill a shape {shape}: "
                                                 "give every element once")
            self.shapes[name] = shape

    def _parse(self, text: str) -> dict[str, Any]:
        """One JSON line -> {name: value}; shapes are only remembered from a line found good."""
        from json import JSONDecodeError

        try:
            point = _decode_json(text)
        except JSONDecodeError as problem:
            raise PointsProblem(self.number, f"not JSON: {problem.msg} at column {problem.colno}") from None
        except _BadJson as problem:
            raise PointsProblem(self.number, str(problem)) from None
        except RecursionError:
            raise PointsProblem(self.number, f"lists nested deeper than {MAX_LIST_DEPTH}") from None
        if type(point) is not dict:
            raise PointsProblem(self.number, "a point is a JSON object {name: value}")
        row = {}
        for name, given in point.items():
            if name not in self.inputs:
                raise PointsProblem(self.number, f"{name!r} is not an input of the program")
            try:
                row[name] = _json_value(given)
            except ValueError as problem:
                raise PointsProblem(self.number, f"the value of {name!r} {problem}") from None
        new = None
        for name in self.inputs:
            if name in row:
                value = row[name]
                shape = value.shape if isinstance(value, np.ndarray) else ()
            elif name in self.fixed:
                shape = self.fixed[name].shape
            else:
                raise PointsProblem(self.number, f"no value for input {name!r}")
            expected = self.shapes.get(name)
            if expected is None:
                new = new or {}
                new[name] = shape
            elif shape != expected:
                before = f"before, on line {self.shape_lines[name]}"
                if name in row:
                    raise PointsProblem(self.number, f"{name!r} has shape {shape} here but {expected} {before}")
                raise PointsProblem(self.number, f"no value for {name!r} here, and its --at value has shape {shape} "
                                                 f"but {name!r} has shape {expected} {before}")
        if new:  # the first good line to have these names fixes their shapes
            self.shapes.update(new)
            self.shape_lines.update(dict.fromkeys(new, self.number))
        return row

    def _chunk(self, rows: Any, lines: list[int], skipped: list[PointsProblem]) -> PointChunk:
        columns: dict[str, Array] = {}
        count = len(rows)
        if self.format == "csv":
            table = np.asarray(rows, dtype=float).reshape(count, len(self.layout))
            for name in self.inputs:
                if name in self.shapes:
                    columns[name] = np.empty((count, *self.shapes[name]))
            for position, (name, index) in enumerate(self.layout):
                key: tuple[Any, ...] = (slice(None), *index)
                columns[name][key] = table[:, position]
        else:
            given = {name for row in rows for name in row}
            for name in self.inputs:
                if name in given:
                    # A name given on some lines only takes its --at value on the others.
                    default = self.fixed.get(name)
                    columns[name] = np.array([row.get(name, default) for row in rows], dtype=float)
        return PointChunk(columns, count, lines, skipped)
