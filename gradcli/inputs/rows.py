"""What a --points format gives the reading loop, and the rules every format shares.

A format (inputs/csv.py, inputs/jsonl.py) reads a line into a row (`row`, a PointsProblem where
it is bad), rows into columns (`columns`), and a block of plain lines at once (`fast`, by the
compiled helper). Everything else (reading, numbering, blank lines, chunk sizes, --skip-bad) is
the loop's, in inputs/points.py, so that swapping the parser inside a format is local to it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from gradcli.errors import PointsProblem

Array = np.ndarray
Shape = tuple[int, ...]

helper: Any  # inputs/_numbers.c, which reads blocks of plain points at once: compiled where pip found a C compiler
try:
    from gradcli.inputs import _numbers as helper
except ImportError:  # every line is read on its own (the same points, slower)
    helper = None
if getattr(helper, "version", 1) < 2:  # a build of an older _numbers.c (an editable install not built again): not used
    helper = None


class Cells(list):
    """A column carried through: a Python value a row (None: no value), as CSV or JSON Lines gave it;
    `texts`: CSV cells (strings written back as they were read), else JSON values. `kind` says how
    its values are written: text, bool, int, float or json (Parquet and Arrow: the type of their column)."""

    def __init__(self, values: Any = (), texts: bool = True, kind: str | None = None) -> None:
        super().__init__(values)
        self.texts = texts
        self.kind = kind or ("text" if texts else _kind(self))

    def __getitem__(self, key: Any) -> Any:
        found = super().__getitem__(key)
        return Cells(found, self.texts, self.kind) if isinstance(key, slice) else found


def _kind(values: list[Any]) -> str:
    """text, bool, int, float or json: how a column of these values is written."""
    kinds = {type(value) for value in values} - {type(None)}
    if kinds <= {str}:
        return "text"
    if kinds == {bool}:
        return "bool"
    small = all(-(2**63) <= value < 2**63 for value in values if type(value) is int)
    if kinds == {int} and small:
        return "int"
    if kinds <= {int, float} and small:
        return "float"
    return "json"


def placed(layout: list[tuple[str, tuple[int, ...]]], shapes: Mapping[str, Shape], inputs: Mapping[str, int],
           cells: list[Array], count: int) -> dict[str, Array]:
    """The inputs' columns, in the program's order, from a column of numbers a cell of `layout` (an
    input and an element's index): a number's own column is the input's, as it is; a vector's or a
    matrix's elements are gathered into one array."""
    columns = {name: np.empty((count, *shapes[name])) for name in inputs if shapes.get(name)}
    for column, (name, index) in zip(cells, layout, strict=True):
        if index:
            key: tuple[Any, ...] = (slice(None), *index)
            columns[name][key] = column
        else:
            columns[name] = column
    return {name: columns[name] for name in inputs if name in columns}


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
            shape = given[name] if name in given else self.fixed[name].shape if name in self.fixed else None
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


Carried = bool | Collection[str]  # the columns that are no input carried through: all (True), none, or these


def carries(carried: Carried, name: str) -> bool:
    """Is a column that is no input, `name`, carried through?"""
    return carried if isinstance(carried, bool) else name in carried


def shown(text: str, most: int = 40, exact: bool = False) -> str:
    """A cell for a message: cut short when it is long (and its spaces kept: `exact`)."""
    text = text if exact else text.strip()
    return repr(text if len(text) <= most else text[: most - 3] + "...")
