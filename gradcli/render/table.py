"""The rich view of a gradient: the output's value, then a table of inputs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from gradcli.render.numbers import human, human_line, is_finite

if TYPE_CHECKING:
    from gradcli.derivatives import GradResult


def marked(value: object, one_line: bool = False) -> Text:
    """A number as text, in red where it is NaN or infinite; a matrix row by row unless `one_line`."""
    return Text(human_line(value) if one_line else human(value), style="" if is_finite(value) else "bold red")


def _seeded(result: GradResult) -> bool:
    """Was the sweep started from anything but 1 at a scalar output (PyTorch's implicit seed)?"""
    return not all(_one(seed) for seed in result.seeds)


def _one(seed: Any) -> bool:
    if type(seed) is float:  # (the scalar path's)
        return seed == 1.0
    return bool(seed.size == 1 and float(seed.reshape(())) == 1.0)


def _derivative_header(result: GradResult) -> str:
    """What the last column holds: d out / d input, or under a seed the vector-Jacobian product."""
    if not _seeded(result):
        return f"d {' + '.join(result.root_names)} / d input"
    if len(result.root_names) == 1:
        return f"seed · d {result.root_names[0]} / d input"
    return f"seeds · d ({', '.join(result.root_names)}) / d input"


def show_grad(result: GradResult, console: Console) -> None:
    value = result.value
    outputs = value if isinstance(value, tuple) else (value,)
    for name, output in zip(result.root_names, outputs, strict=True):
        console.print(Text.assemble((name, "bold"), " = ", marked(output, one_line=True)))
    table = Table(show_edge=False, header_style="bold")
    table.add_column("input")
    table.add_column("value", justify="right")
    table.add_column(_derivative_header(result), justify="right")
    gradients = result.grad
    for name in result.wrt:
        index = result.tape.inputs.get(name, result.tape.names.get(name))
        assert index is not None
        table.add_row(name, marked(result.values[index]), marked(gradients[name]))
    console.print(table)
    if _seeded(result):
        seeds = [f"{name} = {human_line(seed)}" for name, seed in zip(result.root_names, result.seeds, strict=True)]
        console.print(Text(f"{_derivative_header(result)}: the vector-Jacobian product (seed × derivative, summed over "
                           f"the output's elements), with --seed (PyTorch's grad_tensors) {', '.join(seeds)}",
                           style="dim"))
    for warning in result.warnings:
        console.print(Text.assemble(("warning:", "yellow"), " ", warning))
