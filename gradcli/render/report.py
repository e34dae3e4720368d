"""A gradient with its sections (paths, formulas, check, warnings), for people or as JSON.

It reads a session's GradReport: every section was computed by the session; here each is
only written, in one order: the gradient, then its paths, formulas and check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gradcli.session import GradReport


def grad_report_document(report: GradReport) -> dict[str, Any]:
    """The `grad --json` object: the gradient's keys, then `paths`, `symbolic`, `check`, `warnings`."""
    from gradcli.render.jsonout import grad_document

    document = grad_document(report.result)
    if report.paths is not None:
        from gradcli.render.paths import paths_document

        document["paths"] = paths_document(report.paths, report.result, report.path_names)
    if report.symbolic is not None:
        from gradcli.render.derivatives import symbolic_document

        formulas = symbolic_document(report.symbolic)
        if formulas is not None:
            document["symbolic"] = formulas
    if report.check is not None:
        from gradcli.render.derivatives import check_document

        document["check"] = check_document(report.check, report.tol)
    if report.warnings:
        document["warnings"] = document.get("warnings", []) + report.warnings
    return document


def show_grad_report(report: GradReport, console: Any) -> None:
    """The value and gradient table, then each section asked for."""
    from gradcli.render.table import show_grad

    show_grad(report.result, console)
    if report.paths is not None:
        from gradcli.render.paths import show_paths

        show_paths(report.paths, report.result, console, report.path_names)
    if report.symbolic is not None:
        from gradcli.render.derivatives import show_symbolic

        show_symbolic(report.symbolic, report.result.root_names, console)
    if report.check is not None:
        from gradcli.render.derivatives import show_check

        show_check(report.check, report.tol, console)
