"""The view of `gradcli functions`: every op of the table, grouped, with its PyTorch node."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from gradcli.session import FunctionEntry


def functions_document(entries: list[FunctionEntry]) -> dict[str, Any]:
    return {"functions": [asdict(entry) for entry in entries]}


def show_functions(entries: list[FunctionEntry], console: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    for group in dict.fromkeys(entry.group for entry in entries):
        table = Table(title=Text(group, style="bold"), title_justify="left", show_edge=False)
        for column in ("written", "also", "methods", "PyTorch node"):
            table.add_column(column)
        for entry in (e for e in entries if e.group == group):
            table.add_row(entry.spelling, " ".join(entry.aliases), " ".join(f".{m}()" for m in entry.methods),
                          entry.torch_node)
        console.print(table)


def dumps(entries: list[FunctionEntry]) -> str:
    return json.dumps(functions_document(entries))
