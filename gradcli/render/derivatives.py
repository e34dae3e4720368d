"""Views of the other derivatives: checks, formulas, Jacobians, Hessians, JVPs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from gradcli.autodiff import Agreement, HessianResult, JacobianResult, JvpResult
from gradcli.render.numbers import human, to_json


def _element_labels(name: str, shape: tuple[int, ...]) -> list[str]:
    return [name + "".join(f"[{i}]" for i in index) for index in np.ndindex(*shape)] if shape else [name]


# --- --check ---------------------------------------------------------------------------


def check_document(agreements: list[Agreement], tol: float) -> dict[str, Any]:
    document: dict[str, Any] = {"tol": tol, "ok": all(a.ok for a in agreements)}
    for agreement in agreements:
        key = "finite_differences" if agreement.reference == "finite differences" else "sympy"
        if agreement.skipped:
            document[key] = {"skipped": agreement.skipped}
        else:
            document[key] = {"max_abs": to_json(agreement.max_abs), "max_rel": to_json(agreement.max_rel),
                             "ok": agreement.ok}
    return document


def show_check(agreements: list[Agreement], tol: float, console: Any) -> None:
    console.print(f"\n[bold]check[/bold] (tolerance {tol:g}: |grad - reference| <= tol × (1 + |reference|))")
    for agreement in agreements:
        if agreement.skipped:
            console.print(f"  {agreement.reference}: skipped ({agreement.skipped})", highlight=False)
            continue
        verdict = "[green]agrees[/green]" if agreement.ok else "[red]DISAGREES[/red]"
        console.print(f"  {agreement.reference}: {verdict}, largest difference {agreement.max_abs:.3g} "
                      f"(relative {agreement.max_rel:.3g})", highlight=False)


# --- --symbolic ------------------------------------------------------------------------


def show_symbolic(texts: Mapping[str, Any], root_names: tuple[str, ...], all_simplified: bool, console: Any) -> None:
    console.print("\n[bold]formulas[/bold] (SymPy, from the op table's rules)")
    out = " + ".join(root_names)
    for name, formula in texts.items():
        if isinstance(formula, list):
            for label, text in zip(_element_labels(name, np.shape(np.asarray(formula, dtype=object))),
                                   np.asarray(formula, dtype=object).flat, strict=True):
                console.print(f"  d {out} / d {label} = {text}", highlight=False)
        else:
            console.print(f"  d {out} / d {name} = {formula}", highlight=False)
    if not all_simplified:
        console.print("  [dim](some shown unsimplified: simplifying ran past its time budget)[/dim]")


# --- jacobian --------------------------------------------------------------------------


def jacobian_document(result: JacobianResult) -> dict[str, Any]:
    blocks = [{name: to_json(block) for name, block in per_output.items()} for per_output in result.blocks]
    document = {
        "expr": result.tape.source,
        "at": {name: to_json(v) for name, v in result.point.items()},
        "value": [to_json(v) for v in result.outputs] if result.is_tuple else to_json(result.outputs[0]),
        "jacobian": blocks if result.is_tuple else blocks[0],
        "mode": result.mode,
    }
    return _warned(document, result.warnings())


def _warned(document: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """grad --json's contract: every null is named in `warnings`."""
    if warnings:
        document["warnings"] = warnings
    return document


def _show_warnings(warnings: list[str], console: Any) -> None:
    from rich.text import Text

    for warning in warnings:
        console.print(Text.assemble(("warning:", "yellow"), " ", warning))


def _matrix_table(title: str, rows: list[str], columns: list[str], matrix: np.ndarray) -> Any:
    from rich.table import Table
    from rich.text import Text

    if not rows or not columns:  # an empty input or output: nothing to tabulate
        return Text(f"{title}: empty ({len(rows)} × {len(columns)})")

    table = Table(title=title, show_edge=False, header_style="bold", title_justify="left")
    table.add_column("")
    for column in columns:
        table.add_column(column, justify="right")
    for label, row in zip(rows, matrix, strict=True):
        table.add_row(label, *(human(v) for v in row))
    return table


def show_jacobian(result: JacobianResult, console: Any) -> None:
    for name, output in zip(result.output_names, result.outputs, strict=True):
        console.print(f"[bold]{name}[/bold] = {human(output)}", highlight=False)
    sweeps = "one reverse sweep per output element" if result.mode == "reverse" else "one forward sweep per input element"
    console.print(f"[dim]Jacobian by {sweeps}[/dim]")
    for out_name, output, per_output in zip(result.output_names, result.outputs, result.blocks, strict=True):
        rows = _element_labels(out_name, np.shape(output))
        for name, block in per_output.items():
            in_shape = block.shape[np.ndim(output):]
            matrix = block.reshape(len(rows), int(np.prod(in_shape, dtype=np.int64)))  # -1 is ambiguous for 0 rows
            console.print(_matrix_table(f"d {out_name} / d {name}", rows, _element_labels(name, in_shape), matrix))
    _show_warnings(result.warnings(), console)


# --- hessian ---------------------------------------------------------------------------


def hessian_document(result: HessianResult) -> dict[str, Any]:
    return _warned({
        "expr": result.tape.source,
        "at": {name: to_json(v) for name, v in result.point.items()},
        "value": to_json(result.value),
        "grad": {name: to_json(g) for name, g in result.grad.items()},
        "hessian": {a: {b: to_json(block) for b, block in row.items()} for a, row in result.blocks.items()},
    }, result.warnings())


def show_hessian(result: HessianResult, console: Any) -> None:
    console.print(f"[bold]{result.tape.output_names[0]}[/bold] = {human(result.value)}", highlight=False)
    names = list(result.blocks)
    labels = [label for name in names for label in _element_labels(name, np.shape(result.point[name]))]
    matrix = np.block([[result.blocks[a][b].reshape(np.size(result.point[a]), np.size(result.point[b]))
                        for b in names] for a in names]) if names else np.zeros((0, 0))
    console.print(_matrix_table("Hessian", labels, labels, matrix))
    console.print(f"[dim]forward-over-reverse (dual numbers through the reverse sweep); largest asymmetry "
                  f"made symmetric (rounding): {result.asymmetry:.2g}[/dim]", highlight=False)
    _show_warnings(result.warnings(), console)


# --- jvp -------------------------------------------------------------------------------


def jvp_document(result: JvpResult) -> dict[str, Any]:
    def one_or_many(value: Any) -> Any:
        return [to_json(v) for v in value] if isinstance(value, tuple) else to_json(value)

    return _warned({
        "expr": result.tape.source,
        "at": {name: to_json(v) for name, v in result.point.items()},
        "tangent": {name: to_json(v) for name, v in result.tangent.items()},
        "value": one_or_many(result.value),
        "jvp": one_or_many(result.jvp),
    }, result.warnings())


def show_jvp(result: JvpResult, console: Any) -> None:
    values = result.value if isinstance(result.value, tuple) else (result.value,)
    tangents = result.jvp if isinstance(result.jvp, tuple) else (result.jvp,)
    for name, value, tangent in zip(result.output_names, values, tangents, strict=True):
        console.print(f"[bold]{name}[/bold] = {human(value)}", highlight=False)
        console.print(f"  tangent of {name} (J @ tangent) = {human(tangent)}", highlight=False)
    shown = ", ".join(f"{n}={human(v)}" for n, v in result.tangent.items())
    console.print(f"[dim]tangent: {shown}[/dim]", highlight=False)
    _show_warnings(result.warnings(), console)
