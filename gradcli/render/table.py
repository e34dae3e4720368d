"""The rich view of a gradient: the output's value, then a table of inputs."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from gradcli.autodiff import GradResult, non_finite_warnings
from gradcli.render.numbers import human, human_line, is_finite


def marked(value: object, one_line: bool = False) -> Text:
    """A number as text, in red where it is NaN or infinite; a matrix row by row unless `one_line`."""
    return Text(human_line(value) if one_line else human(value), style="" if is_finite(value) else "bold red")


def show_grad(result: GradResult, console: Console) -> None:
    value = result.value
    outputs = value if isinstance(value, tuple) else (value,)
    for name, output in zip(result.root_names, outputs, strict=True):
        console.print(Text.assemble((name, "bold"), " = ", marked(output, one_line=True)))
    table = Table(show_edge=False, header_style="bold")
    table.add_column("input")
    table.add_column("value", justify="right")
    table.add_column(f"d {' + '.join(result.root_names)} / d input", justify="right")
    gradients = result.grad
    for name in result.wrt:
        index = result.tape.inputs.get(name, result.tape.names.get(name))
        assert index is not None
        table.add_row(name, marked(result.values[index]), marked(gradients[name]))
    console.print(table)
    for warning in non_finite_warnings(result):
        console.print(Text.assemble(("warning:", "yellow"), " ", warning))
