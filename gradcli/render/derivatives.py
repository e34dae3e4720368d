"""Views of the other derivatives: checks, formulas, Jacobians, Hessians, JVPs (rich imported by the views that
print with it: the documents of --json load none)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gradcli.render.numbers import human, human_line, point_document, to_json

if TYPE_CHECKING:
    import numpy as np

    from gradcli.derivatives import HessianResult, JacobianResult, JvpResult
    from gradcli.symbolic import Report
    from gradcli.verify import Agreement, Note


def _element_labels(name: str, shape: tuple[int, ...]) -> list[str]:
    if not shape:
        return [name]
    import numpy as np  # (the scalar path's numbers have no shape)

    return [name + "".join(f"[{i}]" for i in index) for index in np.ndindex(*shape)]


# --- --check ---------------------------------------------------------------------------

NOTES_SHOWN = 8  # per reference, in the human view; --json lists them all


def _note_document(note: Note) -> dict[str, Any]:
    document: dict[str, Any] = {"input": note.input, "why": note.why, "grad": to_json(note.grad)}
    if note.one_sided is not None:
        document["one_sided"] = [to_json(v) for v in note.one_sided]
        document["ok"] = note.ok
    return document


def check_document(agreements: list[Agreement], tol: float) -> dict[str, Any]:
    document: dict[str, Any] = {"tol": tol, "ok": all(a.ok for a in agreements)}
    for agreement in agreements:
        key = "finite_differences" if agreement.reference == "finite differences" else "sympy"
        if agreement.skipped:
            document[key] = {"skipped": agreement.skipped}
            continue
        part: dict[str, Any] = {"ok": agreement.ok, "checked": agreement.checked, "elements": agreement.elements}
        if agreement.compared:
            part.update(max_abs=to_json(agreement.max_abs), max_rel=to_json(agreement.max_rel))
        if agreement.not_differentiable:
            part["not_differentiable"] = [_note_document(n) for n in agreement.not_differentiable]
        if agreement.unchecked:
            part["unchecked"] = [_note_document(n) for n in agreement.unchecked]
        document[key] = part
    return document


def _verdict(agreement: Agreement) -> tuple[Any, ...]:
    """The words after the reference's name: the verdict (styled), then how far."""
    if agreement.ok and agreement.checked == 0:
        plain = "could not be checked" if agreement.unchecked or not agreement.not_differentiable else \
            "not differentiable at the point"
        return (plain,)
    parts: list[Any] = [("agrees", "green") if agreement.ok else ("DISAGREES", "red")]
    if agreement.compared:
        if agreement.compared < agreement.elements:
            parts.append(f" on {agreement.compared} of {agreement.elements} elements")
        parts.append(f", largest difference {agreement.max_abs:.3g} (relative {agreement.max_rel:.3g})")
    return tuple(parts)


def _note_line(note: Note) -> tuple[Any, ...]:
    if note.one_sided is None:
        prefix = "" if note.why.startswith(("not differentiable", "SymPy could not")) else "could not be checked: "
        return (f"{note.input}: {prefix}{note.why}",)
    low, high = note.one_sided
    where = "lies between them (a subgradient, as PyTorch takes it)" if note.ok else ("is outside them", "red")
    return (f"{note.input}: {note.why}: the one-sided derivatives are {human(low)} and {human(high)}; "
            f"the gradient {human(note.grad)} ", where)


def show_check(agreements: list[Agreement], tol: float, console: Any) -> None:
    from rich.text import Text

    console.print(Text.assemble("\n", ("check", "bold"),
                                f" (tolerance {tol:g}: |grad - reference| <= tol × (1 + |reference|))"))
    for agreement in agreements:
        if agreement.skipped:
            console.print(Text(f"  {agreement.reference}: skipped ({agreement.skipped})"))
            continue
        console.print(Text.assemble(f"  {agreement.reference}: ", *_verdict(agreement)))
        notes = agreement.not_differentiable + agreement.unchecked
        for note in notes[:NOTES_SHOWN]:
            console.print(Text.assemble("    ", *_note_line(note)))
        if len(notes) > NOTES_SHOWN:
            console.print(Text(f"    ... and {len(notes) - NOTES_SHOWN} more (--json lists them all)"))
        unsampled = agreement.elements - agreement.compared - len(notes)
        if unsampled > 0:
            console.print(Text(f"    {unsampled} elements not sampled"))


# --- --symbolic ------------------------------------------------------------------------


def symbolic_document(report: Report) -> dict[str, Any] | None:
    """The `symbolic` key: input name -> formula; None (no key) when SymPy gave none."""
    return report.formulas


def show_symbolic(report: Report, root_names: tuple[str, ...], console: Any) -> None:
    import numpy as np
    from rich.text import Text

    console.print(Text.assemble("\n", ("formulas", "bold"), " (SymPy, from the op table's rules)"))
    if report.formulas is None:
        console.print(Text(f"  none: {report.problem}"))
        return
    out = " + ".join(root_names)
    for name, formula in report.formulas.items():
        if isinstance(formula, list):
            for label, text in zip(_element_labels(name, np.shape(np.asarray(formula, dtype=object))),
                                   np.asarray(formula, dtype=object).flat, strict=True):
                console.print(Text(f"  d {out} / d {label} = {text}"))
        else:
            console.print(Text(f"  d {out} / d {name} = {formula}"))
    if not report.all_simplified:
        console.print(Text("  (some shown unsimplified: simplifying ran past SymPy's time budget)", style="dim"))


# --- jacobian --------------------------------------------------------------------------


def jacobian_document(result: JacobianResult) -> dict[str, Any]:
    blocks = [{name: to_json(block) for name, block in per_output.items()} for per_output in result.blocks]
    document = {
        "expr": result.tape.source,
        "at": point_document(result.tape, result.point),
        "value": [to_json(v) for v in result.outputs] if result.is_tuple else to_json(result.outputs[0]),
        "jacobian": blocks if result.is_tuple else blocks[0],
        "mode": result.mode,
    }
    return _warned(document, result.warnings)


def _warned(document: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """grad --json's contract: every null is named in `warnings`."""
    if warnings:
        document["warnings"] = warnings
    return document


def _show_warnings(warnings: list[str], console: Any) -> None:
    from rich.text import Text

    for warning in warnings:
        console.print(Text.assemble(("warning:", "yellow"), " ", warning))


JACOBIAN_SUMMARY = 1000  # a Jacobian of more elements shows its first and last rows and columns, as PyTorch's repr
JACOBIAN_EDGE = 3


def _edges(count: int, summarise: bool) -> list[int | None]:
    """The indices shown of `count`: all, or the first and last JACOBIAN_EDGE with None ("...") between."""
    if summarise and count > 2 * JACOBIAN_EDGE:
        return [*range(JACOBIAN_EDGE), None, *range(count - JACOBIAN_EDGE, count)]
    return list(range(count))


def _matrix_table(title: str, rows: list[str], columns: list[str], matrix: np.ndarray, *, full: bool = True) -> Any:
    from rich.table import Table
    from rich.text import Text

    if not rows or not columns:  # an empty input or output: nothing to tabulate
        return Text(f"{title}: empty ({len(rows)} × {len(columns)})")

    summarise = not full and len(rows) * len(columns) > JACOBIAN_SUMMARY
    shown_rows, shown_columns = _edges(len(rows), summarise), _edges(len(columns), summarise)
    table = Table(title=title, show_edge=False, header_style="bold", title_justify="left")
    table.add_column("")
    for j in shown_columns:
        table.add_column("..." if j is None else columns[j], justify="right")
    for i in shown_rows:
        cells = ["..." if i is None or j is None else human(matrix[i, j]) for j in shown_columns]
        table.add_row("..." if i is None else rows[i], *cells)
    return table


def show_jacobian(result: JacobianResult, console: Any, full: bool = False) -> None:
    """f'(x) as the textbooks write it: one matrix, a row per output element (the outputs of a tuple
    stacked), a column per input element; a big one summarised as PyTorch's repr summarises a tensor."""
    import numpy as np  # (the layout of the matrix; the scalar path's numbers come as floats)
    from rich.text import Text

    for name, output in zip(result.output_names, result.outputs, strict=True):
        console.print(Text.assemble((name, "bold"), f" = {human_line(output)}"))
    rows = [label for name, output in zip(result.output_names, result.outputs, strict=True)
            for label in _element_labels(name, np.shape(output))]
    names = list(result.blocks[0]) if result.blocks else []
    in_shapes = [np.shape(result.blocks[0][name])[np.ndim(result.outputs[0]):] for name in names]
    columns = [label for name, shape in zip(names, in_shapes, strict=True) for label in _element_labels(name, shape)]
    widths = [int(np.prod(shape, dtype=np.int64)) for shape in in_shapes]  # (-1 is ambiguous for 0 rows)
    matrix = np.vstack([np.hstack([np.reshape(per_output[name], (int(np.size(output)), width))
                                   for name, width in zip(names, widths, strict=True)] or [np.zeros((np.size(output), 0))])
                        for output, per_output in zip(result.outputs, result.blocks, strict=True)]) \
        if result.outputs else np.zeros((0, 0))
    summarised = len(rows) * len(columns) > JACOBIAN_SUMMARY and (len(rows) > 2 * JACOBIAN_EDGE
                                                                   or len(columns) > 2 * JACOBIAN_EDGE)
    console.print(_matrix_table(jacobian_title(result.output_names, names, len(rows), len(columns)), rows, columns,
                                matrix, full=full))
    console.print(Text(jacobian_note(result.mode, summarised and not full), style="dim"))
    _show_warnings(result.warnings, console)


def jacobian_title(output_names: Sequence[str], input_names: Sequence[str], rows: int, columns: int) -> str:
    """The title of a Jacobian's table (render/plain.py's too)."""
    def group(labels: Sequence[str]) -> str:
        return labels[0] if len(labels) == 1 else f"({', '.join(labels)})"

    return (f"Jacobian d {group(output_names)} / d {group(input_names)} ({rows} × {columns}: a row per output element, "
            "a column per input element)")


def jacobian_note(mode: str, summarised: bool) -> str:
    """The line under a Jacobian's table (render/plain.py's too)."""
    sweeps = "one reverse sweep per output element" if mode == "reverse" else "one forward sweep per input element"
    notes = [f"by {sweeps}"]
    if summarised:
        notes.append(f"the first and last {JACOBIAN_EDGE} rows and columns shown: --full for all, --json for the numbers")
    return "; ".join(notes)


# --- hessian ---------------------------------------------------------------------------


def hessian_document(result: HessianResult) -> dict[str, Any]:
    return _warned({
        "expr": result.tape.source,
        "at": point_document(result.tape, result.point),
        "value": to_json(result.value),
        "grad": {name: to_json(g) for name, g in result.grad.items()},
        "hessian": {a: {b: to_json(block) for b, block in row.items()} for a, row in result.blocks.items()},
    }, result.warnings)


def show_hessian(result: HessianResult, console: Any) -> None:
    import numpy as np
    from rich.text import Text

    console.print(Text.assemble((result.tape.output_names[0], "bold"), f" = {human_line(result.value)}"))
    names = list(result.blocks)
    labels = [label for name in names for label in _element_labels(name, np.shape(result.point[name]))]
    matrix = np.block([[np.reshape(result.blocks[a][b], (np.size(result.point[a]), np.size(result.point[b])))
                        for b in names] for a in names]) if names else np.zeros((0, 0))
    console.print(_matrix_table("Hessian", labels, labels, matrix))
    from gradcli.render.plain import hessian_note

    console.print(Text(hessian_note(result), style="dim"))
    _show_warnings(result.warnings, console)


# --- jvp -------------------------------------------------------------------------------


def jvp_document(result: JvpResult) -> dict[str, Any]:
    def one_or_many(value: Any) -> Any:
        return [to_json(v) for v in value] if isinstance(value, tuple) else to_json(value)

    return _warned({
        "expr": result.tape.source,
        "at": point_document(result.tape, result.point),
        "tangent": {name: to_json(v) for name, v in result.tangent.items()},
        "value": one_or_many(result.value),
        "jvp": one_or_many(result.jvp),
    }, result.warnings)


def show_jvp(result: JvpResult, console: Any) -> None:
    from rich.text import Text

    values = result.value if isinstance(result.value, tuple) else (result.value,)
    tangents = result.jvp if isinstance(result.jvp, tuple) else (result.jvp,)
    for name, value, tangent in zip(result.output_names, values, tangents, strict=True):
        console.print(Text.assemble((name, "bold"), f" = {human_line(value)}"))
        console.print(f"  tangent of {name} (J @ tangent) = {human_line(tangent)}")
    console.print(Text(jvp_note(result.tangent), style="dim"))
    _show_warnings(result.warnings, console)


def jvp_note(tangent: dict[str, Any]) -> str:
    """The line under a JVP (render/plain.py's too): the direction."""
    return f"tangent: {', '.join(f'{n}={human_line(v)}' for n, v in tangent.items())}"
