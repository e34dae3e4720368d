"""--points as JSON Lines: one object `{name: value}` per line.

A value is a number or nested lists of numbers. Integers become floats (`-0` keeps its sign);
NaN, Infinity and -Infinity are read as Python writes them; a number past float64's range, a
string, a boolean or null is a bad value. A name that is no input is carried through with any
JSON value, as it was written. What `--points --json` writes reads back as its points: the inputs
in its `at`, a null there the NaN or infinity the line's warnings name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gradcli.errors import PointsProblem
from gradcli.inputs import rows as rules
from gradcli.inputs.literals import MAX_LIST_DEPTH
from gradcli.inputs.rows import Array, Carried, Cells, PointShapes, carries


class JsonLines:
    """The JSON Lines format: an input's shape is fixed by the first good line that gives it. A name
    that is no input is carried through (`extra`: kept; else read past), whatever its value."""

    def __init__(self, inputs: Mapping[str, int], fixed: Mapping[str, Array], extra: Carried = True) -> None:
        self.inputs = inputs
        self.fixed = fixed
        self.shapes = PointShapes(inputs, fixed)
        self.keep = extra

    def fast(self, block: bytes | memoryview, longest: int) -> tuple[int, tuple[dict[str, Array], dict[str, Any]]] | None:
        """How many whole lines of bytes `block` has and their columns, read at once by the compiled
        helper, if each is a good point of at most `longest` bytes, of the keys of the block's first line, the inputs' values
        numbers (no lists, no NaN) and the others' strings without escapes, numbers, true, false or
        null; else None (the lines are then judged one by one, which names each bad line)."""
        import json

        from gradcli.inputs.lines import searchable

        if rules.helper is None:
            return None
        data = searchable(block)
        end = data.find(b"\n", 0, len(block))
        try:
            keys = json.loads(data[: end if end >= 0 else len(block)])
        except (ValueError, RecursionError):
            return None
        if type(keys) is not dict:
            return None
        names = [name for name in self.inputs if name in keys]
        if "at" in keys and len(names) < len(self.inputs):  # a line gradcli wrote: its `at` is read line by line
            return None
        others = [name for name in keys if name not in self.inputs]
        try:
            if not names or self.shapes.check({name: () for name in names}, 0):  # a shape fixed here: the line
                return None  # reader names its line
        except PointsProblem:
            return None
        count = data.count(b"\n", 0, len(block)) + 1
        found = rules.helper.json(block, [name.encode() for name in names], count, [name.encode() for name in others],
                                  longest)
        if found is None:
            return None
        numbers, values = found
        columns = {name: np.frombuffer(column) for name, column in zip(names, numbers, strict=True)}
        extra = {}
        for name, texts in zip(others, values, strict=True):
            if carries(self.keep, name):
                try:  # the values of a column at once, as the line reader reads each (integers as integers)
                    column = json.loads(b"[" + texts[:-1].replace(b"\n", b",") + b"]", parse_int=_integer)
                except ValueError:  # not UTF-8
                    return None
                extra[name] = Cells(column, texts=False)
        return count, (columns, extra)

    def row(self, text: str, line: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """One line -> {input: value}, and {name: JSON value} of the names carried through (a bad line's
        too, for --mark-bad's row of it); shapes are only remembered from a line found good."""
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
        carried = {name: None for name in point if name not in self.inputs and carries(self.keep, name)}
        if carried:  # read again as it was written (integers as integers)
            import json

            again = json.loads(text, parse_int=_integer)
            carried = {name: again[name] for name in carried}
            for name, value in carried.items():
                if type(value) in (list, dict) and _deeper(value, CARRIED_DEPTH):
                    raise PointsProblem(line, f"the value of {name!r} is nested deeper than {CARRIED_DEPTH}")
        row = {}
        try:
            for name, given in _given(point, self.inputs).items():
                try:
                    row[name] = _value(given)
                except ValueError as problem:
                    raise PointsProblem(line, f"the value of {name!r} {problem}") from None
            new = self.shapes.check({name: value.shape if isinstance(value, np.ndarray) else ()
                                     for name, value in row.items()}, line)
        except PointsProblem as problem:
            problem.extra = carried
            raise
        self.shapes.fix(new, line)
        return row, carried

    def columns(self, rows: list[tuple[dict[str, Any], dict[str, Any]]]) -> tuple[dict[str, Array], dict[str, Any]]:
        """The inputs' columns (a name given on some lines only takes its --at value on the others), and
        the names carried through, in the order they come, of the rows `row` read."""
        given = {name for values, _ in rows for name in values}
        names: dict[str, None] = {}
        for _, others in rows:
            names.update(dict.fromkeys(others))
        return ({name: np.array([values.get(name, self.fixed.get(name)) for values, _ in rows], dtype=float)
                 for name in self.inputs if name in given},
                {name: Cells([others.get(name) for _, others in rows], texts=False) for name in names})


def _given(point: dict[str, Any], inputs: Mapping[str, int]) -> dict[str, Any]:
    """The inputs a line gives: at its top level, or, in a line `--points --json` wrote, in its `at`
    object. A null there is what JSON writes for NaN and the infinities: where the line's warnings
    name it (`the input 'x' is not finite (+inf at [1])`), it is that number; else a bad value."""
    given = {name: value for name, value in point.items() if name in inputs}
    at = point.get("at")
    if type(at) is dict and "at" not in inputs and len(given) < len(inputs):
        given.update({name: value for name, value in at.items() if name in inputs and name not in given})
    said = point.get("warnings") if "warnings" not in inputs else None
    if type(said) is list and given:
        import re

        from gradcli.diagnostics import named

        for text in said:
            found = re.fullmatch(r"the input '(.+)' is not finite \((.+)\)", text) if type(text) is str else None
            if found is not None and found.group(1) in given:
                given[found.group(1)] = _filled(given[found.group(1)], named(found.group(2)))
    return given


def _filled(value: Any, nulls: Mapping[tuple[int, ...], float]) -> Any:
    """`value` with the nulls at these positions the numbers they stand for (other positions as they were)."""
    if value is None:
        return _Named(nulls[()]) if () in nulls else None
    for at, number in nulls.items():
        item = value
        for i in at[:-1]:
            item = item[i] if type(item) is list and i < len(item) else None
        if at and type(item) is list and at[-1] < len(item) and item[at[-1]] is None:
            item[at[-1]] = _Named(number)
    return value


def _integer(text: str) -> int | str:
    """An integer carried through, as Python reads it; past the digits Python turns into an int
    (sys.get_int_max_str_digits, 4,300), its digits as text."""
    import sys

    most = sys.get_int_max_str_digits()  # (0: no limit)
    return int(text) if not most or len(text.lstrip("-")) <= most else text


CARRIED_DEPTH = 200  # lists and objects in a value carried through: more than data nests, and far from where
# Python's json (which writes it, on a deeper stack than the reader's) meets its recursion limit


def _deeper(value: Any, most: int) -> bool:
    """Are lists and objects nested more than `most` deep in `value`?"""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if type(item) in (list, dict):
            if depth > most:
                return True
            stack.extend((part, depth + 1) for part in (item.values() if type(item) is dict else item))
    return False


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
