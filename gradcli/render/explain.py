"""`gradcli explain`: the forward tape, then the backward sweep written out step by step.

It reads an Explanation (session.explain): every adjoint update of the sweep, in the order
the sweep made it, with the local derivative and formula of its edge and the names of the
nodes, all worked out already. Each update is written as the chain rule it applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gradcli.errors import visible
from gradcli.render.numbers import human, human_line

if TYPE_CHECKING:
    from gradcli.jacobians import LocalJacobian
    from gradcli.session import Explanation


def show_explanation(explanation: Explanation, console: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    result, names, torch_names = explanation.result, explanation.names, explanation.torch_names
    tape = result.tape
    values = result.values
    word = "Program" if explanation.source in ("", tape.source) else "Call"  # (under run: the backward call)
    console.print(Text.assemble((word, "bold"), "  ", visible((explanation.source or tape.source).strip(),
                                                                   lines=True)))
    console.print(Text("\nForward: the tape, evaluated top to bottom", style="bold"))
    table = Table(show_edge=False, header_style="bold", box=None)
    for column, justify in (("node", "right"), ("name", "left"), ("definition", "left"), ("value", "right"),
                            ("PyTorch node", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for index, name, definition in explanation.forward:
        table.add_row(names[index], name, definition, human(values[index]), torch_names.get(index, ""))
    console.print(table)
    definitions = {index: definition for index, _, definition in explanation.forward}

    console.print(Text("\nBackward: adjoints from the output back to the inputs", style="bold"))
    console.print(Text("v.grad is d(output)/d(v); each line applies the chain rule to one edge, and "
                       "'+=' adds what arrives along another path.", style="dim"))
    for root, name, seed in zip(result.roots, result.root_names, result.seeds, strict=True):
        if type(seed) is float or seed.size == 1:  # (the scalar path's seed is a float)
            console.print(f"  seed: {names[root]}.grad = {human_line(seed)}   (d {name} / d {name} = 1)")
        else:
            console.print(f"  seed: {names[root]}.grad = {human_line(seed)}   (the vector of the vector-Jacobian "
                          f"product: --seed, PyTorch's grad_tensors)")
    current = -1
    for explained in explanation.steps:
        step = explained.step
        source = names[step.node]
        if step.node != current:
            current = step.node
            console.print(Text.assemble(f"\n  {source} = {definitions[step.node]}   ",
                                        (f"{torch_names[step.node]}, {source}.grad = "
                                         f"{human_line(result.adjoints[step.node])}", "dim")))
        target = names[step.arg]
        if explained.scalar:
            formula_text = f" = {explained.formula}" if explained.formula else ""
            chain = (f"{source}.grad × ∂{source}/∂{target}{formula_text} = {human_line(result.adjoints[step.node])} "
                     f"× {human_line(explained.factor)} = {human_line(step.contribution)}")
        else:
            assert explained.jacobian is not None
            console.print(Text(f"    J = ∂{source}/∂{target} = {_jacobian_text(explained.jacobian, explained.formula)}",
                               style="dim"))
            chain = f"Jᵀ·{source}.grad = {_product_text(explained.jacobian, result.adjoints[step.node])}" \
                    f"{human_line(step.contribution)}"
        before = "" if step.total is step.contribution else f"   (accumulated: {human_line(step.total - step.contribution)} was there)"
        console.print(Text.assemble(f"    {target}.grad += {chain}  ->  {human_line(step.total)}", (before, "dim")))

    console.print(Text("\nResult", style="bold"))
    for name, gradient in result.grad.items():
        console.print(f"  {name}.grad = {human_line(gradient)}")


def _jacobian_text(jacobian: LocalJacobian, formula: str | None) -> str:
    """J by its structure, then its numbers (a big one by its size only)."""
    rows, columns = jacobian.size
    kind = jacobian.kind
    if kind in ("diag", "broadcast"):
        shown = f"diag({formula}) = diag({human_line(jacobian.entries)})" if formula else \
            f"diag({human_line(jacobian.entries)})"
        if kind == "broadcast":
            shown += f", summed back over axes {jacobian.axes} (the arg was broadcast)"
        return f"{shown}   ({rows} × {columns})"
    if kind == "summed":
        return f"the broadcast undone: each element of the arg gets the sum over axes {jacobian.axes}   ({rows} × {columns})"
    if kind == "ones":
        return f"1ᵀ, a row of {columns} ones (a sum)"
    if kind == "row":
        return f"{human_line(jacobian.entries)}, one row (1 × {columns})"
    if kind == "identity":
        return f"I, the {rows} × {columns} identity (each element passed on as it is)"
    if kind == "matrix":
        return f"{human_line(jacobian.entries)}   ({rows} × {columns})"
    return f"a {rows} × {columns} matrix (too big to write out: its product is the op's VJP)"


def _product_text(jacobian: LocalJacobian, gradient: Any) -> str:
    """Jᵀ·v written with its numbers, up to the '=' before the result."""
    v = human_line(gradient)
    if jacobian.kind == "diag":
        return f"{human_line(jacobian.entries)} ⊙ {v} = "
    if jacobian.kind == "broadcast":
        return f"sum over axes {jacobian.axes} of {human_line(jacobian.entries)} ⊙ {v} = "
    if jacobian.kind == "summed":
        return f"sum over axes {jacobian.axes} of {v} = "
    if jacobian.kind in ("ones", "row"):
        return f"{human_line(jacobian.entries)} × {v} = "
    if jacobian.kind == "identity":
        return f"{v} = "
    if jacobian.kind == "matrix" and jacobian.entries is not None:
        return f"{human_line(jacobian.entries.T)} · {v} = "
    return ""
