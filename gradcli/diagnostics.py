"""Where a NaN or an infinity starts: one line per value or derivative that is not finite.

The front doors (derivatives.py) compute these once into each result's `warnings`; the
views only read them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gradcli.tape import Tape

Array = np.ndarray


def finite(value: Any) -> bool:
    return bool(np.all(np.isfinite(value)))


SHOWN = 4  # the non-finite elements a warning names, at most


def which(value: Any, shown: int | None = SHOWN) -> str:
    """Which kind of non-finite a value holds, where: `NaN`, `+inf`, or `NaN at [0], -inf at [2]` (JSON
    writes all three as null: this tells overflow from a domain error); past `shown` of them (None: no
    limit), how many more."""
    array = np.asarray(value, dtype=float)
    def kind(x: float) -> str:
        return "NaN" if np.isnan(x) else "+inf" if x > 0 else "-inf"
    if array.ndim == 0:
        return kind(float(array))
    bad = np.argwhere(~np.isfinite(array))
    most = len(bad) if shown is None else shown
    parts = [f"{kind(float(array[tuple(at)]))} at [{', '.join(map(str, at))}]" for at in bad[:most]]
    return ", ".join(parts) + (f", and {len(bad) - most} more" if len(bad) > most else "")


def named(text: str) -> dict[tuple[int, ...], float]:
    """What `which` wrote, read back: {position: NaN or an infinity} (() for a number); elements past
    the ones shown (`and 2 more`) are not named, so not here."""
    import re

    kinds = {"NaN": float("nan"), "+inf": float("inf"), "-inf": float("-inf")}
    if text in kinds:
        return {(): kinds[text]}
    return {tuple(int(i) for i in at.split(", ")): kinds[kind]
            for kind, at in re.findall(r"(NaN|[+-]inf) at \[(\d+(?:, \d+)*)\]", text)}


def point_warnings(result: Any, rows: Sequence[int],
                   inputs: Mapping[str, tuple[Array, bool]] | None = None) -> list[list[str]]:
    """For each of these points of a --points result (a BatchResult), what is not finite and where,
    as the one-point --json says it (`the gradient of 'x' is not finite (+inf at [1])`): JSON writes
    NaN, +inf and -inf all as null. `inputs`, in the program's order: each input as `at` writes it,
    a column of the points' values (True) or the one value every point has (False: an --at value)."""
    said = []
    for row in rows:
        at = {name: column[row] if per_point else column for name, (column, per_point) in (inputs or {}).items()}
        lines = [f"the input '{name}' is not finite ({which(value, None)})"  # every one: the line reads back
                 for name, value in at.items() if not finite(value)]
        lines += [f"the value of '{name}' is not finite ({which(value[row])})"
                  for name, value in zip(result.root_names, result.values, strict=True) if not finite(value[row])]
        if result.kind == "grad":
            lines += [f"the gradient of '{name}' is not finite ({which(array[row])})"
                      for name, array in result.grad.items() if not finite(array[row])]
        elif result.kind == "jvp":
            lines += [f"the jvp of '{name}' is not finite ({which(array[row])})"
                      for name, array in zip(result.root_names, result.per_root, strict=True) if not finite(array[row])]
        else:
            lines += [f"the jacobian of '{root}' by '{name}' is not finite ({which(array[row])})"
                      for root, blocks in zip(result.root_names, result.per_root, strict=True)
                      for name, array in blocks.items() if not finite(array[row])]
        said.append(lines)
    return said


def _where(tape: Tape, index: int) -> str:
    from gradcli.errors import line_and_column

    node = tape.nodes[index]
    what = node.op.name if node.op is not None else node.kind
    _, column, _ = line_and_column(tape.source, node.span[0])
    return f"node [{index}] ({what}, column {column})"


def value_warnings(tape: Tape, values: Sequence[Array], roots: Sequence[int], names: Sequence[str]) -> list[str]:
    """A line for each root whose value is NaN or infinite, naming the first node in tape order that is."""
    warnings = []
    for root, name in zip(roots, names, strict=True):
        if not finite(values[root]):
            first = next(i for i in range(root + 1) if not finite(values[i]))
            warnings.append(f"the value of '{name}' is not finite ({which(values[root])}); it starts at "
                            f"{_where(tape, first)}")
    return warnings


def gradient_warnings(tape: Tape, values: Sequence[Array], adjoints: Sequence[Array | None], roots: Sequence[int],
                      root_names: Sequence[str], grad: Mapping[str, Array]) -> list[str]:
    """A line for each value or gradient that is NaN or infinite, naming where it starts.

    A value goes non-finite at the first node, in tape order, whose value is; a gradient at
    the first node, in the order of the reverse sweep, whose adjoint is.
    """
    warnings = value_warnings(tape, values, roots, root_names)
    top = max(roots, default=-1)
    for name, gradient in grad.items():
        if not finite(gradient):
            origin = next((i for i in range(top, -1, -1) if adjoints[i] is not None and not finite(adjoints[i])), None)
            where = ""
            if origin is not None:
                # The backward rule that made it: a consumer of that node whose own adjoint is finite.
                makers = [j for j in range(top, origin, -1) if origin in tape.nodes[j].args
                          and adjoints[j] is not None and finite(adjoints[j])]
                where = f"; it starts in the backward of {_where(tape, makers[0])}" if makers else \
                    f"; it starts at {_where(tape, origin)}"
            warnings.append(f"the gradient of '{name}' is not finite ({which(gradient)}){where}")
    return warnings


def jacobian_warnings(tape: Tape, values: Sequence[Array], output_names: Sequence[str],
                      blocks: Sequence[Mapping[str, Array]]) -> list[str]:
    """A line for each value or block of a Jacobian that is NaN or infinite."""
    lines = value_warnings(tape, values, tape.outputs, output_names)
    return lines + [f"the Jacobian of '{out}' with respect to '{name}' is not finite ({which(block)})"
                    for out, row in zip(output_names, blocks, strict=True)
                    for name, block in row.items() if not finite(block)]


def jvp_warnings(tape: Tape, values: Sequence[Array], output_names: Sequence[str], tangent: Mapping[str, Array],
                 out_tangents: Sequence[Array]) -> list[str]:
    """A line for each value or tangent that is NaN or infinite."""
    lines = value_warnings(tape, values, tape.outputs, output_names)
    lines += [f"the tangent of '{name}' is not finite ({which(t)})" for name, t in tangent.items() if not finite(t)]
    return lines + [f"the tangent of '{name}' (J @ tangent) is not finite ({which(t)})"
                    for name, t in zip(output_names, out_tangents, strict=True) if not finite(t)]


def hessian_warnings(tape: Tape, values: Sequence[Array], grad: Mapping[str, Array],
                     blocks: Mapping[str, Mapping[str, Array]]) -> list[str]:
    """A line for each value, gradient or block of a Hessian that is NaN or infinite."""
    lines = value_warnings(tape, values, tape.outputs[:1], tape.output_names[:1])
    lines += [f"the gradient of '{name}' is not finite ({which(g)})" for name, g in grad.items() if not finite(g)]
    return lines + [f"the Hessian block d(grad {a})/d {b} is not finite ({which(block)})"
                    for a, row in blocks.items() for b, block in row.items() if not finite(block)]


def non_finite_warnings(result: Any) -> list[str]:
    """The warnings of a result (computed once, when it was made)."""
    return list(result.warnings)
