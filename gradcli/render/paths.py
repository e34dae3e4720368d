"""The per-path view of a gradient: each path's chain, local derivatives and contribution."""

from __future__ import annotations

from typing import Any

from gradcli.autodiff import GradResult, torch_name
from gradcli.paths import InputPaths, Path
from gradcli.render.numbers import human, human_line, to_json
from gradcli.tape import INPUT


def _node_text(result: GradResult, index: int) -> str:
    tape = result.tape
    node = tape.nodes[index]
    if node.kind == INPUT:
        return str(node.name)
    name = f" {node.name}" if node.name else ""
    return f"[{index}] {torch_name(tape, index, result.values)}{name}"


def chain_text(result: GradResult, path: Path) -> str:
    """`[5] MulBackward0 -> [3] LogBackward0 -> [2] MulBackward0 -> x2`; `x*x` edges say which side."""
    parts = [_node_text(result, path.nodes[0])]
    for parent, child, position in zip(path.nodes[:-1], path.nodes[1:], path.positions, strict=True):
        arrow = "->"
        if result.tape.nodes[parent].args.count(child) > 1:
            arrow = f"-(arg {position})->"
        parts.append(f"{arrow} {_node_text(result, child)}")
    return " ".join(parts)


def _factors_text(path: Path) -> str:
    if path.factors is None:
        return "(vector-Jacobian products)"
    return " × ".join(human_line(f) for f in path.factors) if path.factors else "1"


def show_paths(reports: list[InputPaths], result: GradResult, console: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    for report in reports:
        count = f"{report.total_paths:,} path{'s' if report.total_paths != 1 else ''}"
        console.print(Text.assemble("\n", (f"paths into {report.name}", "bold"),
                                    f": {count}, the {len(report.listed)} largest listed"))
        table = Table(show_edge=False, header_style="bold")
        table.add_column("#", justify="right")
        table.add_column("path, from the output back")
        table.add_column("local derivatives")
        table.add_column("contribution", justify="right")
        for number, path in enumerate(report.listed, 1):
            table.add_row(str(number), chain_text(result, path), _factors_text(path), human(path.contribution))
        console.print(table)
        listed = " + ".join(human_line(p.contribution) for p in report.listed[:6])
        if len(report.listed) > 6:
            listed += " + ..."
        unlisted = "" if report.total_paths == len(report.listed) else f" + {human_line(report.unlisted)} (unlisted)"
        console.print(f"  {listed or '0'}{unlisted} = {human_line(report.gradient)} = d/d{report.name}")
        if not report.searched_all:
            console.print(Text.assemble("  ", ("note:", "yellow"), " too many tensor paths to walk them all; the "
                                        "listed ones are the largest of those walked"))


def paths_document(reports: list[InputPaths], result: GradResult) -> dict[str, Any]:
    return {
        report.name: {
            "total_paths": report.total_paths,
            "listed": [
                {
                    "nodes": [result.tape.node_label(i) for i in path.nodes],
                    "ops": [torch_name(result.tape, i, result.values) for i in path.nodes],
                    "positions": list(path.positions),
                    "factors": None if path.factors is None else [to_json(f) for f in path.factors],
                    "contribution": to_json(path.contribution),
                }
                for path in report.listed
            ],
            "unlisted": to_json(report.unlisted),
            "searched_all": report.searched_all,
        }
        for report in reports
    }
