"""The values a user types beside a program: --at points and --seed vectors.

A value is a number (`0.5`, `-3`, `1e-2`, `pi`), a bracketed, possibly nested list
(`[1, 3]`, `[[1, 2], [3, 4]]`), `arange(start, stop, step)` or `linspace(start, stop, n)`.
Values are read with the program parser and then walked here; nothing is ever `eval`ed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

import numpy as np

from gradcli import syntax
from gradcli.errors import GradcliError, LimitProblem, Limits, NameProblem, ShapeProblem, SyntaxProblem, over_limit
from gradcli.syntax import END, KIND, START
from gradcli.tape import MAX_AXES

Array = np.ndarray

MAX_LIST_DEPTH = MAX_AXES  # NumPy broadcasts at most 32 axes; nobody types 32 nested lists
_NAMED_NUMBERS = {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan}
_EXPECTED = "a value is a number, a [list], arange(start, stop, step) or linspace(start, stop, n)"


def _problem(message: str, expr: syntax.Expr | syntax.Slice, source: str) -> SyntaxProblem:
    return SyntaxProblem(message, source=source, span=expr.span)


def _number(expr: syntax.Expr, source: str) -> float:
    sign = 1.0
    while isinstance(expr, syntax.Unary):
        sign = -sign if expr.op == "-" else sign
        expr = expr.operand
    if isinstance(expr, syntax.Num):
        return sign * expr.value
    if isinstance(expr, syntax.Name) and expr.id in _NAMED_NUMBERS:
        return sign * float(_NAMED_NUMBERS[expr.id])
    raise _problem(f"expected a number; {_EXPECTED}", expr, source)


# arange and linspace give PyTorch's bits (CPU, float64). PyTorch computes start + step * i,
# which its x86 builds compile to a fused multiply-add (one rounding); arange goes in vectors of
# 4, each from its first element (base + lane * step, fused again), the last elements short of
# a pair of vectors one by one. (Past 32,768 elements PyTorch splits the range among threads,
# and its bits then depend on their number; gradcli computes it as one piece.)
# _fma is a * b + c rounded once, on arrays: Boldo and Melquiond's emulation with rounding to
# odd ("Emulation of FMA and correctly rounded sums", IEEE TC 2008), exact without overflow.


def _two_sum(a: Array, b: Array) -> tuple[Array, Array]:
    total = a + b
    b_part = total - a
    return total, (a - (total - b_part)) + (b - b_part)


def _two_product(a: Array, b: Array) -> tuple[Array, Array]:
    product = a * b
    a_high = a * 134217729.0 - (a * 134217729.0 - a)  # Veltkamp's split at 2**27 + 1
    b_high = b * 134217729.0 - (b * 134217729.0 - b)
    a_low, b_low = a - a_high, b - b_high
    return product, ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low


def _fma(a: Array | float, b: Array | float, c: Array | float) -> Array:
    with np.errstate(all="ignore"):
        high, low = _two_product(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
        total, rest = _two_sum(np.asarray(c, dtype=float), high)
        near, error = _two_sum(rest, low)
        even = (near.view(np.int64) & 1) == 0
        odd = np.where((error != 0) & even & np.isfinite(near), np.nextafter(near, np.copysign(np.inf, error)), near)
        return total + odd


_BLOCK = 16_384  # elements of a range made at once: _fma's temporaries stay a few hundred kB


def _arange(start: float, step: float, count: int) -> Array:
    values = np.empty(count)
    paired = count // 8 * 8  # whole pairs of vectors; the rest one by one
    for first in range(0, count, _BLOCK):
        index = np.arange(first, min(first + _BLOCK, count), dtype=float)
        lane = index % 4
        values[first : first + len(index)] = _fma(lane, step, _fma(step, index - lane, start))
    values[paired:] = _fma(step, np.arange(paired, count, dtype=float), start)
    return values


def _linspace(start: float, stop: float, count: int) -> Array:
    if count <= 1:
        return np.full(count, start)
    step = (stop - start) / (count - 1)
    half = count // 2  # the first half from the start, the second from the stop
    values = np.empty(count)
    for first in range(0, count, _BLOCK):
        index = np.arange(first, min(first + _BLOCK, count), dtype=float)
        values[first : first + len(index)] = np.where(index < half, _fma(step, index, start),
                                                      _fma(-step, count - 1 - index, stop))
    values[0], values[-1] = start, stop
    return values


def _range(call: syntax.Call, source: str, counted: _Count) -> Array:
    """arange or linspace, its elements counted before they are made."""
    numbers = [_number(arg, source) for arg in call.args]
    if call.func == "arange" and 1 <= len(numbers) <= 3:
        if len(numbers) == 3 and numbers[2] == 0:
            raise _problem("arange's step cannot be 0", call, source)
        start, stop, step = (0.0, numbers[0], 1.0) if len(numbers) == 1 else (*numbers[:2], numbers[2] if len(numbers) == 3 else 1.0)
        limit = Limits.get("elements")
        count = max(0, int(np.ceil((stop - start) / step))) if np.isfinite((stop - start) / step) else limit + 1
        if count > limit:
            raise over_limit("arange makes too many elements", "elements", source=source, span=call.span)
        counted.add(count, call, source)
        return _arange(start, step, count)
    if call.func == "linspace" and len(numbers) == 3:
        points = numbers[2]
        if not points.is_integer() or points < 0:
            raise _problem("linspace's third argument is a count of points", call.args[2], source)
        if points > Limits.get("elements"):
            raise over_limit("linspace makes too many elements", "elements", source=source, span=call.span)
        counted.add(int(points), call, source)
        return _linspace(numbers[0], numbers[1], int(points))
    if call.func in ("arange", "linspace"):
        usage = "arange(start, stop, step)" if call.func == "arange" else "linspace(start, stop, n)"
        raise _problem(f"{call.func} takes {usage}", call, source)
    raise _problem(f"'{call.func}' is not a value; {_EXPECTED}", call, source)


class _Count:
    """Elements made so far while building one value: refused as soon as they pass the limit."""

    __slots__ = ("limit", "made")

    def __init__(self) -> None:
        self.limit = Limits.get("elements")
        self.made = 0

    def add(self, count: int, expr: syntax.Expr, source: str) -> None:
        self.made += count
        if self.made > self.limit:
            raise over_limit(f"the value has more than {self.limit:,} elements", "elements", source=source,
                             span=expr.span)


def _literal(expr: syntax.Expr, source: str, count: _Count, depth: int = 0) -> Any:
    """Nested Python lists of floats (or an array for a range) for a value expression."""
    if depth > MAX_LIST_DEPTH:
        raise LimitProblem(f"lists nested deeper than {MAX_LIST_DEPTH}", source=source, span=expr.span)
    if isinstance(expr, syntax.ListLit):
        return [_literal(item, source, count, depth + 1) for item in expr.items]
    if isinstance(expr, syntax.Call):
        return _range(expr, source, count)
    count.add(1, expr, source)
    return _number(expr, source)


def value(expr: syntax.Expr, source: str) -> Array:
    """The array a value expression stands for."""
    nested = _literal(expr, source, _Count())
    try:
        array = np.array(nested, dtype=float)
    except ValueError:
        raise _problem("the rows of a nested list must have equal lengths", expr, source) from None
    if array.size > Limits.get("elements"):
        raise over_limit(f"the value has {array.size:,} elements", "elements", source=source, span=expr.span)
    return array


def parse_value(text: str, where: str = "") -> Array:
    """One value, from its text."""
    try:
        return value(syntax.parse_expression(text), text)
    except GradcliError as error:
        raise error.locate(text, where) from None


def parse_assignments(text: str, where: str = "--at") -> dict[str, Array]:
    """`x1=0.5,x2=[1,2]` -> {name: value}. Commas inside brackets do not split."""
    try:
        tokens = syntax.tokenize(text)
        result: dict[str, Array] = {}
        position = 0
        while tokens[position][KIND] != "END":
            (name_kind, name, name_start, name_end), equals = tokens[position], tokens[position + 1]
            if name_kind != "NAME" or equals[KIND] != "=":
                raise SyntaxProblem("expected NAME=VALUE", span=(name_start, max(name_end, name_start + 1)))
            if name in result:
                raise SyntaxProblem(f"'{name}' is given twice", span=(name_start, name_end))
            depth = 0
            end = position + 2
            while tokens[end][KIND] != "END" and not (depth == 0 and tokens[end][KIND] == ","):
                depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(tokens[end][KIND], 0)
                end += 1
            start_offset = equals[END]
            end_offset = tokens[end][START]
            if end == position + 2:
                raise SyntaxProblem(f"no value for '{name}'", span=(equals[START], equals[END]))
            try:
                piece = text[start_offset:end_offset]
                result[name] = value(syntax.parse_expression(piece), piece)
            except GradcliError as error:
                if error.span is not None:  # point into the whole --at text, not the piece
                    error.span = (error.span[0] + start_offset, error.span[1] + start_offset)
                error.source = None
                raise
            position = end + 1 if tokens[end][KIND] == "," else end
        return result
    except GradcliError as error:
        raise error.locate(text, where) from None


def merge_points(texts: list[str], inputs: Mapping[str, int] | None = None, where: str = "--at") -> dict[str, Array]:
    """Several --at (or --tangent) options into one point; with `inputs`, every name must be one of them."""
    point: dict[str, Array] = {}
    for text in texts:
        for name, array in parse_assignments(text, where).items():
            offset = _name_offset(text, name)
            span = (offset, offset + len(name))
            if name in point:
                raise SyntaxProblem(f"'{name}' is given twice", source=text, span=span, where=where)
            if inputs is not None and name not in inputs:
                raise NameProblem(f"'{name}' is not an input of the program", source=text, span=span, where="--at",
                                  hint=f"its inputs are: {', '.join(inputs) or 'none'}")
            point[name] = array
    return point


def _name_offset(text: str, name: str) -> int:
    """Where `name=` starts in an --at text (at the start or after a comma)."""
    for found in re.finditer(rf"(?:^|,)\s*({re.escape(name)})\s*=", text):
        return found.start(1)
    return 0


def as_array(given: Any, name: str) -> Array:
    """A value handed in from Python: a number, a nested list, an array, or a value's text."""
    if isinstance(given, str):
        return parse_value(given, where=f"value of {name}")
    try:
        return np.array(given, dtype=float)
    except (TypeError, ValueError):
        raise ShapeProblem(f"the value of '{name}' is not a number or a rectangular list of numbers") from None


def check_point(inputs: Mapping[str, int], point: Mapping[str, Array]) -> None:
    """Every input has a value and every value names an input."""
    missing = [name for name in inputs if name not in point]
    if missing:
        example = ",".join(f"{name}=..." for name in missing)
        raise NameProblem(f"no value for input {', '.join(repr(n) for n in missing)}", hint=f"give it with --at {example}")
    extra = [name for name in point if name not in inputs]
    if extra:
        known = ", ".join(inputs) or "none"
        raise NameProblem(f"{', '.join(repr(n) for n in extra)} is not an input of the program", hint=f"its inputs are: {known}")


def parse_seed(text: str) -> list[Array | str]:
    """--seed: a value, `ones`, or a tuple of those for a tuple output."""
    try:
        expr = syntax.parse_expression(text)
        items = list(expr.items) if isinstance(expr, syntax.TupleLit) else [expr]
        seeds: list[Array | str] = []
        for item in items:
            if isinstance(item, syntax.Name) and item.id == "ones":
                seeds.append("ones")
            else:
                seeds.append(value(item, text))
        return seeds
    except GradcliError as error:
        raise error.locate(text, "--seed") from None


# --- --points: many points, streamed ------------------------------------------------------


class PointsProblem(GradcliError):
    """A bad line in a --points file; `line` is its 1-based number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}", where="--points")
        self.line = line


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
