"""The views of `gradcli run`: after the file's own output, each backward call's graph, paths or
sweep (the views of `gradcli graph`, `grad --paths` and `explain`), or one JSON document."""

from __future__ import annotations

from typing import Any

from gradcli.render.numbers import to_json
from gradcli.session import RunReport


def show_run(report: RunReport, console: Any) -> None:
    """Each backward call, headed by its line, with the views it was given."""
    from rich.text import Text

    for number, call in enumerate(report.calls, 1):
        roots = ", ".join(call.result.root_names)
        console.print(Text(f"\n── {call.kind} {number} (line {call.line}) of {roots} ──", style="bold"))
        if call.graph is not None:
            from gradcli.render.graph import GraphView, tree

            graph = call.graph
            console.print(tree(GraphView(graph.source, graph.nodes, graph.roots, graph.root_names, graph.result,
                                         graph.edges)))
        if call.paths is not None:
            from gradcli.render.paths import show_paths

            show_paths(call.paths, call.result, console, call.path_names)
        if call.explanation is not None:
            from gradcli.render.explain import show_explanation

            show_explanation(call.explanation, console)


def run_document(report: RunReport, printed: str) -> dict[str, Any]:
    """The file's printed lines, and per backward call its roots, seeds and what it gave each leaf."""
    calls = []
    for call in report.calls:
        result = call.result
        entry: dict[str, Any] = {
            "kind": call.kind,
            "line": call.line,
            "roots": list(result.root_names),
            "seeds": [to_json(seed) for seed in result.seeds],
            "grads": {name: to_json(gradient) for name, gradient in result.grad.items()},
        }
        if call.paths is not None:
            from gradcli.render.paths import paths_document

            entry["paths"] = paths_document(call.paths, result, call.path_names)
        calls.append(entry)
    document: dict[str, Any] = {"printed": printed.splitlines(), "backward": calls}
    if report.error is not None:
        document["error"] = report.error
    return document
