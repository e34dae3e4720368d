"""`gradcli explain`: the forward tape, then the backward sweep written out step by step.

It reads a result computed with `trace=True`: every adjoint update of the sweep, in the
order the sweep made it. Each update is written as the chain rule it applies.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradcli.derivatives import GradResult
from gradcli.engine import local_derivatives
from gradcli.errors import visible
from gradcli.render.numbers import human, human_line
from gradcli.tape import APPLY, CONST, INPUT, Node, Tape
from gradcli.torch_graph import torch_name


def ref(tape: Tape, index: int) -> str:
    """How the explanation names a node: an input by its name, anything else as v<index>."""
    node = tape.nodes[index]
    if node.kind == INPUT:
        return str(node.name)
    if node.is_scalar_constant() and node.name is None:
        return human_line(node.value)  # a number is written in place
    return f"v{index}"


def _key_text(key: tuple[Any, ...]) -> str:
    parts = []
    for item in key:
        if isinstance(item, slice):
            text = ":".join("" if p is None else str(p) for p in (item.start, item.stop, item.step))
            parts.append(text.rstrip(":") if item.step is None else text)
        else:
            parts.append(str(item))
    return ", ".join(p or ":" for p in parts)


def definition(tape: Tape, node: Node) -> str:
    """The right-hand side of a tape line: `v0 * x2`, `sin(x2)`, `v3[1:]`."""
    if node.kind == INPUT:
        return "input"
    if node.kind == CONST:
        return f"constant {human_line(node.value)}"
    assert node.op is not None
    args = [ref(tape, a) for a in node.args]
    op = node.op
    if op.name == "getitem":
        return f"{args[0]}[{_key_text(node.params['key'])}]"
    if op.name == "stack":
        return f"[{', '.join(args)}]"
    if op.name == "neg":
        return f"-{args[0]}"
    if op.symbol and op.arity == 2:
        return f"{args[0]} {op.symbol} {args[1]}"
    return f"{op.name}({', '.join(args)})"


def show_explanation(result: GradResult, console: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    from gradcli.symbolic import local_derivative_formula

    tape = result.tape
    values = result.values
    console.print(Text.assemble(("Program", "bold"), "  ", visible(tape.source.strip(), lines=True)))
    console.print(Text("\nForward: the tape, evaluated top to bottom", style="bold"))
    table = Table(show_edge=False, header_style="bold", box=None)
    for column, justify in (("node", "right"), ("name", "left"), ("definition", "left"), ("value", "right"),
                            ("PyTorch node", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    last = max(result.roots)
    for node in tape.nodes[: last + 1]:
        if ref(tape, node.index) != f"v{node.index}" and node.kind == CONST:
            continue  # written in place where it is used
        name = node.name if node.name and node.kind != INPUT else ""
        pytorch = torch_name(tape, node.index, values) if node.requires_grad else ""
        table.add_row(ref(tape, node.index), name, definition(tape, node), human(values[node.index]), pytorch)
    console.print(table)

    console.print(Text("\nBackward: adjoints from the output back to the inputs", style="bold"))
    console.print(Text("v.grad is d(output)/d(v); each line applies the chain rule to one edge, and "
                       "'+=' adds what arrives along another path.", style="dim"))
    for root, name, seed in zip(result.roots, result.root_names, result.seeds, strict=True):
        if seed.size == 1:
            console.print(f"  seed: {ref(tape, root)}.grad = {human_line(seed)}   (d {name} / d {name} = 1)")
        else:
            console.print(f"  seed: {ref(tape, root)}.grad = {human_line(seed)}   (the vector of the vector-Jacobian "
                          f"product: --seed, PyTorch's grad_tensors)")
    assert result.trace is not None
    current = -1
    factors: list[np.ndarray | None] = []
    for step, edge in zip(result.trace, _edge_positions(result), strict=True):
        node = tape.nodes[step.node]
        if step.node != current:
            current = step.node
            assert node.kind == APPLY
            factors = local_derivatives(tape, values, step.node)
            adjoint = result.adjoints[step.node]
            console.print(Text.assemble(f"\n  {ref(tape, step.node)} = {definition(tape, node)}   ",
                                        (f"{torch_name(tape, step.node, values)}, {ref(tape, step.node)}.grad = "
                                         f"{human_line(adjoint)}", "dim")))
        position = edge  # x*x: each edge its own, though both carry the same factor
        target = ref(tape, step.arg)
        scalar = values[step.node].size == 1 and values[step.arg].size == 1
        if scalar:
            factor = factors[position]
            assert node.op is not None
            formula = local_derivative_formula(node.op, [ref(tape, a) for a in node.args], position, node.params)
            formula_text = f" = {formula}" if formula else ""
            chain = (f"{ref(tape, step.node)}.grad × ∂{ref(tape, step.node)}/∂{target}{formula_text} = "
                     f"{human_line(result.adjoints[step.node])} × {human_line(factor)} = {human_line(step.contribution)}")
        else:
            chain = f"VJP of {torch_name(tape, step.node, values)} applied to {ref(tape, step.node)}.grad = {human_line(step.contribution)}"
        accumulated = np.any(step.total is not step.contribution)
        before = "" if not accumulated else f"   (accumulated: {human_line(step.total - step.contribution)} was there)"
        console.print(Text.assemble(f"    {target}.grad += {chain}  ->  {human_line(step.total)}", (before, "dim")))

    console.print(Text("\nResult", style="bold"))
    for name, gradient in result.grad.items():
        console.print(f"  {name}.grad = {human_line(gradient)}")


def _edge_positions(result: GradResult) -> list[int]:
    """For each step of the sweep, the argument position of the edge it came along.

    An op may take the same node twice (x*x): its steps for that node take the positions in
    order. One pass over the trace, each node's arguments looked at once.
    """
    assert result.trace is not None
    slots: dict[int, dict[int, list[int]]] = {}  # node -> argument -> its positions, in order
    taken: dict[tuple[int, int], int] = {}
    positions = []
    for step in result.trace:
        if step.node not in slots:
            slots[step.node] = {}
            for position, arg in enumerate(result.tape.nodes[step.node].args):
                slots[step.node].setdefault(arg, []).append(position)
        count = taken.get((step.node, step.arg), 0)
        taken[(step.node, step.arg)] = count + 1
        positions.append(slots[step.node][step.arg][count])
    return positions


def check_size(tape: Tape) -> None:
    """Refuse, before any work, a program too large to be read as an explanation."""
    from gradcli.errors import Limits, over_limit

    size = len(tape.nodes) + sum(len(node.args) for node in tape.nodes)
    if size > Limits.get("explain"):
        problem = over_limit(f"the program is too large to explain: {size:,} nodes and edges", "explain")
        problem.hint += "; for a large program, see gradcli grad --json, grad --paths or graph --format json"
        raise problem
