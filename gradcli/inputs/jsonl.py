"""--points as JSON Lines: one object `{name: value}` per line.

A value is a number or nested lists of numbers. Integers become floats (`-0` keeps its sign);
NaN, Infinity and -Infinity are read as Python writes them; a number past float64's range, a
string, a boolean or null is a bad value. A name that is no input is carried through with any
JSON value, as it was written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gradcli.arrow import compute, floats
from gradcli.errors import PointsProblem
from gradcli.inputs.literals import MAX_LIST_DEPTH
from gradcli.inputs.rows import Array, Carried, PointShapes, Rows, carries, each_line, extra_array

_numbers: Any
try:
    from gradcli.inputs import _numbers  # compiled where pip found a C compiler (setup.py)
except ImportError:
    _numbers = None


class JsonLines:
    """The JSON Lines format: an input's shape is fixed by the first good line that gives it. A name
    that is no input is carried through (`extra`: kept; else read past), whatever its value."""

    def __init__(self, inputs: Mapping[str, int], fixed: Mapping[str, Array], extra: Carried = True) -> None:
        self.inputs = inputs
        self.fixed = fixed
        self.shapes = PointShapes(inputs, fixed)
        self.keep = extra

    def read(self, texts: list[str], lines: list[int], skip_bad: bool) -> Rows:
        rows, good, problems = each_line(texts, lines, skip_bad, self._row)
        names: dict[str, None] = {}  # the names carried through, in the order they come
        for _, others in rows:
            names.update(dict.fromkeys(others))
        extra = {name: extra_array([others.get(name) for _, others in rows]) for name in names}
        return Rows(self._columns([row for row, _ in rows]), good, problems, extra)

    def extra(self, parsed: object) -> dict[str, Any]:
        """The names carried through, from `fast`'s reading."""
        assert isinstance(parsed, dict)
        return {name: column for name, column in parsed.items() if name not in self.inputs}

    def extra_empty(self) -> dict[str, Any]:
        return {}

    def fast(self, block: bytes | memoryview) -> tuple[int, dict[str, Array]] | None:
        """How many whole lines of bytes `block` has and their columns, read at once, if each is a
        good point giving the same numbers (no lists) as the first line of the block; else None.
        Where every line is the plainest point (`_plain_numbers`), the compiled helper finds the
        numbers; else pyarrow's JSON reader reads the block.

        Pyarrow reads numbers as Python's reader does (correctly rounded, `-0` with its sign) and
        refuses a name given twice, a name that is not among the first line's, a list, a string,
        true/false and `1e400`; what is checked here: a BOM (pyarrow drops it), null or a missing
        name (a null), a blank line or two objects on one line (another count of rows than of
        lines, or an object opened on another line than its row's: both at once); a line where NaN
        or Infinity is written is read again, whole, by the exact reader (which says which spellings
        Python takes), the rest of the block by pyarrow."""
        import pyarrow as pa
        import pyarrow.json as arrow_json

        from gradcli.inputs.lines import searchable

        if bytes(block[:3]) == b"\xef\xbb\xbf":  # pyarrow drops a BOM at the start of a buffer; json does not
            return None
        data = searchable(block)
        end = data.find(b"\n", 0, len(block))
        first = data[: end if end >= 0 else len(block)]
        names = [name for name in self.inputs if f'"{name}"'.encode() in first]
        if not names:
            return None
        try:
            if self.shapes.check({name: () for name in names}, 0):  # a shape fixed here: the exact reader names its line
                return None
        except PointsProblem:
            return None
        spelled, places = _spelled_lines(data, len(block))  # NaN and infinities, which JSON has no words for
        codes = np.frombuffer(block, dtype=np.uint8)
        ends = codes == 10  # where lines end
        count = int(np.count_nonzero(ends)) + 1
        plain = None if places else _plain_numbers(block, names, count)
        if plain is not None:
            return (count, plain) if all(np.isfinite(column).all() for column in plain.values()) else None
        schema = pa.schema([(name, pa.float64()) for name in names])
        try:
            table = arrow_json.read_json(pa.BufferReader(pa.py_buffer(_as_numbers(data, len(block), places) if places
                                                                      else block)),
                                         parse_options=arrow_json.ParseOptions(
                                             explicit_schema=schema,
                                             unexpected_field_behavior="infer" if self.keep else "ignore"))
        except (pa.ArrowException, ValueError, OverflowError):
            return None
        if (table.num_rows != count or any(table.column(name).null_count for name in names)
                or not _one_object_a_line(codes, ends)):
            return None
        extra = {name: table.column(name).combine_chunks() for name in table.column_names
                 if name not in names and carries(self.keep, name)}
        if not all(_plain(column.type) for column in extra.values()):  # a list or an object: the exact reader
            return None
        if extra and places:  # a NaN spelled in a value carried through was read as a number here
            return None
        columns = {name: floats(table.column(name)) for name in names}
        if spelled:  # each such line as the exact reader reads it, whole
            columns = {name: column.copy() for name, column in columns.items()}
        for line, text in spelled:
            try:
                row, _ = self._row(text.decode("utf-8"), 0)
            except (UnicodeDecodeError, PointsProblem):
                return None
            if sorted(row) != sorted(names) or any(isinstance(value, np.ndarray) for value in row.values()):
                return None
            for name, value in row.items():
                columns[name][line] = value
        if all(np.isfinite(column).all() for column in columns.values()):
            return count, {**columns, **extra}
        finite = np.logical_and.reduce([np.isfinite(column) for column in columns.values()])
        finite[[line for line, _ in spelled]] = True
        return (count, {**columns, **extra}) if finite.all() else None

    def columns(self, rows: object) -> dict[str, Array]:
        assert isinstance(rows, dict)
        return {name: column for name, column in rows.items() if name in self.inputs}

    def _row(self, text: str, line: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """One line -> {input: value}, and {name: JSON value} of the names carried through; shapes
        are only remembered from a line found good."""
        from json import JSONDecodeError

        try:
            point = _decode(text)
        except JSONDecodeError as problem:
            raise PointsProblem(line, f"not JSON: {problem.msg} at column {problem.colno}") from None
        except _BadJson as problem:
            raise PointsProblem(line, str(problem)) from None
        except RecursionError:
            raise PointsProblem(line, f"lists nested deeper than {MAX_LIST_DEPTH}") from None
        if type(point) is not dict:
            raise PointsProblem(line, "a point is a JSON object {name: value}")
        try:
            return self._point(point, text, line)
        except PointsProblem as problem:  # the names carried through, for --mark-bad's row of this line
            if self.keep:
                import json

                again = json.loads(text, parse_int=_integer)
                problem.extra = {name: value for name, value in again.items()
                                 if name not in self.inputs and carries(self.keep, name)}
            raise

    def _point(self, point: dict[str, Any], text: str, line: int) -> tuple[dict[str, Any], dict[str, Any]]:
        row = {}
        others: list[str] = []
        for name, given in point.items():
            if name not in self.inputs:
                if carries(self.keep, name):
                    others.append(name)
                continue
            try:
                row[name] = _value(given)
            except ValueError as problem:
                raise PointsProblem(line, f"the value of {name!r} {problem}") from None
        shapes = {name: value.shape if isinstance(value, np.ndarray) else () for name, value in row.items()}
        new = self.shapes.check(shapes, line)
        if new:
            self.shapes.fix(new, line)
        if others and self.keep:  # read again as it was written (integers as integers) for the names carried through
            import json

            again = json.loads(text, parse_int=_integer)
            return row, {name: again[name] for name in others}
        return row, {}

    def _columns(self, rows: list[dict[str, Any]]) -> dict[str, Array]:
        columns: dict[str, Array] = {}
        given = {name for row in rows for name in row}
        for name in self.inputs:
            if name in given:
                # A name given on some lines only takes its --at value on the others.
                default = self.fixed.get(name)
                columns[name] = np.array([row.get(name, default) for row in rows], dtype=float)
        return columns


def _plain(kind: Any) -> bool:
    """Is an Arrow type one a value carried through is written back from as it was read?"""
    import pyarrow as pa

    return bool(pa.types.is_string(kind) or pa.types.is_integer(kind) or pa.types.is_floating(kind)
                or pa.types.is_boolean(kind) or pa.types.is_null(kind))


def _integer(text: str) -> int | str:
    """An integer carried through, as Python reads it; past the digits Python turns into an int
    (sys.get_int_max_str_digits, 4,300), its digits as text."""
    import sys

    most = sys.get_int_max_str_digits()  # (0: no limit)
    return int(text) if not most or len(text.lstrip("-")) <= most else text


class _BadJson(Exception):
    """Raised inside the JSON decoder by _object: a line that is JSON but not a point."""


class _Named(float):
    """NaN, Infinity or -Infinity, spelled out in JSON (as Python writes them): meant, not an
    overflow. A plain float that is not finite was a number past float64's range."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    point = dict(pairs)
    if len(point) != len(pairs):
        seen: set[str] = set()
        repeated = next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise _BadJson(f"{repeated!r} is given twice")
    return point


_decoder: Any = None


def _decode(text: str) -> Any:
    global _decoder
    if _decoder is None:
        import json  # only JSON points pay for it

        # Integers become floats (`-0` keeps its sign; 10**400 becomes inf, and is refused).
        _decoder = json.JSONDecoder(parse_int=float, parse_constant=_Named, object_pairs_hook=_object)
    return _decoder.decode(text)


_KINDS = {str: "a string", bool: "a boolean", type(None): "null", dict: "an object"}


def _value(given: Any) -> float | Array:
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


_WORDS = (b"NaN", b"Infinity")  # Python's json reads them (-Infinity too); pyarrow's does not
_NAME_BYTES = np.zeros(256, dtype=bool)  # what a word written as a value has on neither side: a name's or a string's
_NAME_BYTES[[*b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", ord('"')]] = True


def _plain_numbers(block: bytes | memoryview, names: list[str], count: int) -> dict[str, Array] | None:
    """The columns of a block whose every line is the plainest point, `{"x1": 0.5, "x2": -1e-3}`
    (each of `names` once, a JSON number each, nothing else), else None. gradcli's compiled helper
    (_numbers.c, where pip built it) finds each number's text, a third of what pyarrow's JSON
    reader spends on a block; pyarrow turns the texts into floats as its CSV reader does
    (correctly rounded, as Python's `float`)."""
    if _numbers is None:
        return None
    found = _numbers.texts(block, [name.encode() for name in names], count)
    if found is None:
        return None
    import pyarrow as pa

    columns = {}
    for name, (offsets, text) in zip(names, found, strict=True):
        texts = pa.LargeStringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(text))
        try:
            columns[name] = floats(compute("cast", texts, options=("CastOptions", pa.float64())))
        except (pa.ArrowException, ValueError):
            return None
    return columns


def _spelled_lines(data: bytes, size: int) -> tuple[list[tuple[int, bytes]], list[tuple[int, bytes]]]:
    """Where NaN or Infinity is written as a value in data[:size] (not inside a name, `xNaN`):
    the lines (counted from 0) and their text, and each word's place and the word."""
    codes = np.frombuffer(data, dtype=np.uint8, count=size)
    places: list[tuple[int, bytes]] = []
    for word in _WORDS:
        if data.find(word[:1], 0, size) < 0:  # (a byte's search is quick)
            continue
        at = np.flatnonzero(codes[: max(size - len(word) + 1, 0)] == word[0])
        for offset, byte in enumerate(word[1:], start=1):
            at = at[codes[at + offset] == byte]
        before = np.where(at > 0, codes[np.maximum(at - 1, 0)], ord(" "))
        after = np.where(at + len(word) < size, codes[np.minimum(at + len(word), size - 1)], ord(" "))
        places += [(int(place), word) for place in at[~(_NAME_BYTES[before] | _NAME_BYTES[after])]]
    if not places:
        return [], []
    from gradcli.inputs.lines import lines_of

    lines = sorted(set(np.searchsorted(np.flatnonzero(codes == 10), [place for place, _ in places]).tolist()))
    return list(zip(lines, lines_of(data, size, lines), strict=True)), places


def _as_numbers(data: bytes, size: int, places: list[tuple[int, bytes]]) -> bytes:
    """data[:size] with each NaN and Infinity at `places` written as a number of its length (0e0,
    0.000000), for pyarrow to read; the lines they were on are read again, whole, by the exact reader."""
    text = bytearray(data[:size])
    for place, word in places:
        text[place : place + len(word)] = b"0e0" if word == b"NaN" else b"0.000000"
    return bytes(text)


def _one_object_a_line(codes: np.ndarray, ends: np.ndarray) -> bool:
    """Is each line of a block pyarrow read (as many rows as lines, numbers only) one object?
    `codes`: the block's bytes; `ends`: where they are LF. Pyarrow also reads two objects on a
    line and none on a blank one: the rows' count alone does not tell. Where each line starts with
    `{`, none is blank; else each line's `{`s are counted (the only `{`s in such a block open
    objects: keys are inputs' names, values numbers)."""
    brace = ord("{")
    if len(codes) and codes[0] == brace and not ends[-1] and not (ends[:-1] & (codes[1:] != brace)).any():
        return True
    at = np.flatnonzero(ends)
    opens = np.flatnonzero(codes == brace)
    return len(opens) == len(at) + 1 and bool((np.searchsorted(at, opens) == np.arange(len(opens))).all())
