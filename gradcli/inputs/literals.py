"""The values a user types beside a program: --at points and --seed vectors.

A value is a number (`0.5`, `-3`, `1e-2`, `pi`), a bracketed, possibly nested list
(`[1, 3]`, `[[1, 2], [3, 4]]`), `arange(start, stop, step)` or `linspace(start, stop, n)`.
Values are read with the program parser and then walked here; nothing is ever `eval`ed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from gradcli import syntax
from gradcli.errors import GradcliError, LimitProblem, Limits, NameProblem, ShapeProblem, SyntaxProblem, over_limit
from gradcli.inputs import ranges
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
        return ranges.arange(start, step, count)
    if call.func == "linspace" and len(numbers) == 3:
        points = numbers[2]
        if not points.is_integer() or points < 0:
            raise _problem("linspace's third argument is a count of points", call.args[2], source)
        if points > Limits.get("elements"):
            raise over_limit("linspace makes too many elements", "elements", source=source, span=call.span)
        counted.add(int(points), call, source)
        return ranges.linspace(numbers[0], numbers[1], int(points))
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

