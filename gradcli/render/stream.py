"""Results at many points, written as they come: JSON Lines, CSV, or a rich table."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

import numpy as np

from gradcli.batch import BatchResult
from gradcli.inputs.points import PointChunk
from gradcli.render.numbers import has_null, human, to_json


def _element_names(name: str, shape: tuple[int, ...]) -> list[str]:
    """`z` of shape (2,) -> ['z[0]', 'z[1]']; a scalar keeps its name."""
    return [name + "".join(f"[{i}]" for i in index) for index in np.ndindex(*shape)] if shape else [name]


class JsonLinesWriter:
    """One JSON object per point: the input line, the point (in the program's input order),
    the value and the derivative."""

    def __init__(self, out: TextIO, fixed: Mapping[str, np.ndarray], inputs: Sequence[str]) -> None:
        self.out = out
        self.fixed = {name: to_json(value) for name, value in fixed.items()}
        self.inputs = list(inputs)

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        columns = {name: to_json(values) for name, values in chunk.columns.items()}
        value_columns = [to_json(v) for v in result.values]
        # The derivative at point i, laid out as the one-point --json of the same command.
        per_root: list[Any]
        if result.kind == "grad":
            per_root = [{name: to_json(g) for name, g in result.grad.items()}]
        elif result.kind == "jvp":
            per_root = [to_json(t) for t in result.per_root]
        else:
            per_root = [{name: to_json(b) for name, b in blocks.items()} for blocks in result.per_root]

        def pick(i: int) -> Any:
            at_i = [{n: c[i] for n, c in part.items()} if isinstance(part, dict) else part[i] for part in per_root]
            return at_i if result.is_tuple and result.kind != "grad" else at_i[0]

        lines = []
        order = [(name, columns.get(name)) for name in self.inputs]
        for i, line in enumerate(chunk.lines):
            at = {name: self.fixed[name] if column is None else column[i] for name, column in order}
            point_values = [column[i] for column in value_columns]
            document: dict[str, Any] = {
                "line": line,
                "at": at,
                "value": point_values if result.is_tuple else point_values[0],
                result.kind: pick(i),
            }
            if has_null([point_values, document[result.kind]]):
                document["warnings"] = [f"a value or {result.kind} is not finite"]
            lines.append(json.dumps(document, allow_nan=False))
        if lines:
            self.out.write("\n".join(lines) + "\n")


class CsvWriter:
    """A header, then one row per point: the value's columns, then the derivative's
    (`grad_NAME`; `jvp`; `dOUT/dNAME` for a Jacobian), an element a column."""

    def __init__(self, out: TextIO, fixed: Mapping[str, np.ndarray], inputs: Sequence[str]) -> None:
        self.out = out
        self.started = False

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        derivatives = result.columns()
        blocks = [v.reshape(chunk.count, -1) for v in result.values]
        blocks += [array.reshape(chunk.count, -1) for _, array in derivatives]
        if not self.started:
            header: list[str] = []
            for name, value in zip(result.root_names, result.values, strict=True):
                label = "value" if len(result.values) == 1 else f"value_{name}"
                header += _element_names(label, value.shape[1:])
            for label, array in derivatives:
                header += _element_names(label, array.shape[1:])
            self.out.write(",".join(header) + "\n")
            self.started = True
        if chunk.count:
            table = np.concatenate(blocks, axis=1) if blocks else np.empty((chunk.count, 0))
            self.out.write("\n".join(",".join(map(repr, row)) for row in table.tolist()) + "\n")


class TableWriter:
    """A table for people, as plain text written a chunk at a time (rich would take a minute
    for 200,000 rows): columns as wide as their widest cell so far, never narrower."""

    def __init__(self, out: TextIO, fixed: Mapping[str, np.ndarray], inputs: Sequence[str]) -> None:
        self.out = out
        self.widths: list[int] = []

    def write(self, chunk: PointChunk, result: BatchResult) -> None:
        derivatives = result.columns()
        headers = ["line", *(result.root_names if len(result.root_names) > 1 else ["value"]),
                   *(label.replace("_", " ", 1) for label, _ in derivatives)]
        columns = [[str(line) for line in chunk.lines], *(_cells(v) for v in result.values),
                   *(_cells(a) for _, a in derivatives)]
        widths = [max([len(header), *map(len, cells)]) for header, cells in zip(headers, columns, strict=True)]
        text = []
        if not self.widths:
            text.append(" " + " ┃ ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True)))
            text.append("╇".join("━" * (w + 2) for w in widths))
            self.widths = widths
        self.widths = widths = [max(w, old) for w, old in zip(widths, self.widths, strict=True)]
        text += (" " + " │ ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
                 for row in zip(*columns, strict=True))
        self.out.write("\n".join(text) + "\n")


def _cells(array: np.ndarray) -> list[str]:
    """Each point's element of `array` (its first axis), written as the one-point table does."""
    if array.ndim == 1:
        return [human(number) for number in array.tolist()]
    return [human(element) for element in array]


WRITERS: dict[str, Callable[..., Any]] = {"json": JsonLinesWriter, "csv": CsvWriter, "table": TableWriter}
