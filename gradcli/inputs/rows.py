"""What a --points format gives the reading loop, and the rules every format shares.

A format (inputs/csv.py, inputs/jsonl.py) turns a chunk of lines into `Rows`: the columns of
the good lines, their line numbers, and a PointsProblem for each bad line. Everything else
(reading, numbering, blank lines, chunk sizes, --skip-bad) is the loop's, in inputs/points.py,
so that swapping the parser inside a format is local to it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, NamedTuple, Protocol, TypeVar

import numpy as np

from gradcli.errors import PointsProblem

Array = np.ndarray
Shape = tuple[int, ...]


class Rows(NamedTuple):
    columns: dict[str, Array]  # name -> (count, *shape), for the good lines, in the program's input order
    lines: list[int]  # the line of each good row
    problems: list[PointsProblem]  # the bad lines, in order
    extra: dict[str, Any] = {}  # noqa: RUF012 (never changed) -- a column that is no input -> an Arrow array, a value a good line


def extra_array(values: list[Any]) -> Any:
    """An Arrow array of a column that is no input (a value a row, None where a row has none): its
    strings, numbers or booleans as they are; any other JSON value (a list, an object, a mix) as its
    JSON text, in a binary array (which says: JSON text, written into JSON as it is)."""
    import pyarrow as pa

    try:
        array = pa.array(values)
        if pa.types.is_string(array.type) or pa.types.is_integer(array.type) or pa.types.is_floating(array.type) \
                or pa.types.is_boolean(array.type) or pa.types.is_null(array.type):
            return array
    except (pa.ArrowException, ValueError, TypeError, OverflowError):
        pass
    import json

    return pa.array([None if value is None else json.dumps(value).encode() for value in values], type=pa.binary())


class Format(Protocol):
    def read(self, texts: list[str], lines: list[int], skip_bad: bool) -> Rows:
        """The rows of these lines. Without `skip_bad`, reading stops at the first bad line:
        the rows before it, and it as the one problem."""
        ...


Row = TypeVar("Row")


def each_line(texts: list[str], lines: list[int], skip_bad: bool, row: Callable[[str, int], Row]
              ) -> tuple[list[Row], list[int], list[PointsProblem]]:
    """`row` of each line: the good rows and their lines, and a problem for each bad line;
    without `skip_bad`, up to the first bad line (the Format.read contract, for every format)."""
    rows: list[Row] = []
    good: list[int] = []
    problems: list[PointsProblem] = []
    for text, line in zip(texts, lines, strict=True):
        try:
            rows.append(row(text, line))
            good.append(line)
        except PointsProblem as problem:
            problems.append(problem)
            if not skip_bad:
                break
    return rows, good, problems


class PointShapes:
    """The shape of each input at a point, the same at every point of a run.

    An input takes its shape from the first good line that gives it (in CSV, the header), or
    from its --at value where no line gives it; an input with neither has no value.
    """

    def __init__(self, inputs: Mapping[str, int], fixed: Mapping[str, Array]) -> None:
        self.inputs = inputs
        self.fixed = fixed
        self.shapes: dict[str, Shape] = {}  # fixed by the first good line that gives the input
        self.lines: dict[str, int] = {}  # ... and that line

    def at_point(self, name: str, given: Mapping[str, Shape]) -> Shape | None:
        """The input's shape at a point that gives `given`: its own, or its --at value's; None if neither."""
        if name in given:
            return given[name]
        if name in self.fixed:
            return self.fixed[name].shape
        return None

    def missing(self, given: Collection[str]) -> list[str]:
        """The inputs a point that gives values for `given` has no value for."""
        return [name for name in self.inputs if name not in given and name not in self.fixed]

    def fix(self, given: Mapping[str, Shape], line: int) -> None:
        """A good line (or a header) gives these shapes: the first to give an input fixes its shape."""
        for name, shape in given.items():
            if name not in self.shapes:
                self.shapes[name] = shape
                self.lines[name] = line

    def check(self, given: Mapping[str, Shape], line: int) -> dict[str, Shape]:
        """A line giving these shapes: every input has a value, of the shape it had before.
        Returns the shapes of the inputs that had none yet (for `fix`, once the line is good)."""
        new = {}
        for name in self.inputs:
            shape = self.at_point(name, given)
            if shape is None:
                raise PointsProblem(line, f"no value for input {name!r}")
            expected = self.shapes.get(name)
            if expected is None:
                new[name] = shape
            elif shape != expected:
                before = f"before, on line {self.lines[name]}"
                if name in given:
                    raise PointsProblem(line, f"{name!r} has shape {shape} here but {expected} {before}")
                raise PointsProblem(line, f"no value for {name!r} here, and its --at value has shape {shape} "
                                          f"but {name!r} has shape {expected} {before}")
        return new


def shown(text: str, most: int = 40) -> str:
    """A cell for a message: cut short when it is long."""
    text = text.strip()
    return repr(text if len(text) <= most else text[: most - 3] + "...")
