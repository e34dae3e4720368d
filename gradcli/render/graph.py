"""The backward graph, drawn four ways: a tree (rich's, or render/plain.py's where that is plain), Graphviz dot,
Mermaid, and JSON.

Every format reads the same list of `GraphNode`s (from `torch_graph.backward_graph`, or the scalar path's), and,
when the program was evaluated at a point, the forward values and adjoints of a result. NumPy is imported where an
array is shown: the scalar path's graph is of Python floats.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gradcli.errors import visible
from gradcli.numbers import brief
from gradcli.render.numbers import human_line, to_json

if TYPE_CHECKING:
    from gradcli.derivatives import GradResult
    from gradcli.torch_graph import GraphNode

MAX_TREE_DEPTH = 200  # deeper graphs are cut in the tree view (every other format is whole)
LABEL_WIDTH = 100  # a node's label longer than this puts its value and gradient on lines of their own


@dataclass(frozen=True)
class GraphView:
    source: str
    nodes: list[GraphNode]  # backward order: each node before its next_functions
    roots: tuple[int, ...]
    root_names: tuple[str, ...]
    result: GradResult | None  # values and gradients, when evaluated at a point
    # per node, aligned with its next_functions: each edge's local derivative, a number or a
    # jacobians.LocalJacobian (None: not worked out)
    edges: dict[int, list[Any]] | None = None

    def by_id(self) -> dict[int, GraphNode]:
        return {node.id: node for node in self.nodes}

    def facts(self, node_id: int) -> list[str]:
        """Lines under a node's name: its forward value and the gradient flowing into it."""
        if self.result is None:
            return []
        value = self.result.values[node_id]
        lines = [] if isinstance(value, float) or _shape(value) == () else [f"shape {_shape(value)}"]
        lines.append(f"value = {brief(value)}")
        adjoint = self.result.adjoints[node_id]
        if adjoint is not None:
            lines.append(f"grad = {brief(adjoint)}")
        return lines

    def edge(self, node_id: int, position: int) -> str:
        """The local derivative on the edge to a node's `position`-th next function, as a label."""
        local = (self.edges or {}).get(node_id)
        if local is None or position >= len(local) or local[position] is None:
            return ""
        return edge_label(local[position])

    def title(self, node: GraphNode) -> str:
        name = f" {node.name}" if node.name is not None else ""
        if node.id in self.roots and node.op != "AccumulateGrad":
            root_name = self.root_names[self.roots.index(node.id)]
            if root_name != node.name:
                name += f" ({root_name})"
        return f"[{node.id}] {node.op}{name}"


def _shape(value: Any) -> tuple[int, ...]:
    import numpy as np

    return tuple(np.shape(value))


def edge_label(local: Any) -> str:
    """A local derivative on an edge: `x 0.731689` (a times sign), or its Jacobian by its structure (explain's words)."""
    if isinstance(local, float):
        return f"× {human_line(local)}"
    kind, (rows, columns) = local.kind, local.size
    if kind == "diag":
        return f"J = diag({brief(local.entries, 24)})"
    if kind == "broadcast":
        return f"J = diag({brief(local.entries, 24)}) summed over axes {local.axes}"
    if kind == "summed":
        return f"summed over axes {local.axes}"
    if kind == "ones":
        return "J = 1ᵀ"
    if kind == "row":
        return f"J = {brief(local.entries, 24)} (a row)"
    if kind == "identity":
        return "J = I"
    if kind == "matrix":
        return f"J = {brief(local.entries, 24)}"
    return f"J: {rows} × {columns}"


# A line of the tree: its depth (0: the title, 1: a root, 2: a root's next function...) and its label, as
# (text, style) parts (style "": none)
TreeLine = tuple[int, tuple[tuple[str, str], ...]]


def tree_lines(view: GraphView) -> list[TreeLine]:
    """The tree, top to bottom: children in next_functions order; a node met again is referenced."""
    nodes = view.by_id()

    def label(node: GraphNode, edge: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        facts = view.facts(node.id)
        style = "bold cyan" if node.op == "AccumulateGrad" else "bold"
        title = (*edge, (view.title(node), style))
        if len(view.title(node)) + sum(2 + len(f) for f in facts) <= LABEL_WIDTH:
            return (*title, ("  " + "  ".join(facts) if facts else "", "dim"))
        # a real model's node: its shape beside it, its value and gradient on lines of their own
        shape = [f for f in facts if f.startswith("shape ")]
        rest = [f for f in facts if not f.startswith("shape ")]
        return (*title, ("  " + "  ".join(shape) if shape else "", "dim"), *(("\n" + f, "dim") for f in rest))

    lines: list[TreeLine] = [(0, (("backward graph of", "dim"), (" ", ""),
                                  (visible(view.source.strip(), lines=True), "")))]
    drawn: set[int] = set()
    for root in view.roots:
        if root not in nodes:
            lines.append((1, ((f"{view.root_names[view.roots.index(root)]}: a constant (no grad_fn)", ""),)))
            continue
        if root in drawn:
            lines.append((1, ((f"-> {view.title(nodes[root])}", ""),)))
            continue
        drawn.add(root)
        lines.append((1, label(nodes[root], ())))
        stack = [(nodes[root], iter(enumerate(nodes[root].next_functions)))]
        while stack:
            parent, pending = stack[-1]
            depth = len(stack) + 1
            position, following = next(pending, (-1, -1))
            edge = view.edge(parent.id, position)
            edge_part = ((f"({edge}) ", "dim"),) if edge else ()
            if following == -1:
                stack.pop()
            elif following is None:
                lines.append((depth, (("None", "dim"),)))
            elif following in drawn:
                lines.append((depth, (*edge_part, (f"-> {view.title(nodes[following])}", "dim"))))
            elif len(stack) >= MAX_TREE_DEPTH:
                lines.append((depth, ((f"... deeper than {MAX_TREE_DEPTH} levels: see --format json or dot", "dim"),)))
                stack.pop()
            else:
                drawn.add(following)
                child = nodes[following]
                lines.append((depth, label(child, edge_part)))
                stack.append((child, iter(enumerate(child.next_functions))))
    return lines


def tree(view: GraphView) -> Any:
    """A rich Tree of tree_lines."""
    from rich.text import Text
    from rich.tree import Tree

    lines = tree_lines(view)
    top = Tree(Text.assemble(*lines[0][1]), guide_style="dim")
    branches = [top]
    for depth, parts in lines[1:]:
        del branches[depth:]
        branches.append(branches[depth - 1].add(Text.assemble(*parts)))
    return top


def _edges(view: GraphView) -> list[tuple[int, int | None, int]]:
    return [(node.id, following, position) for node in view.nodes
            for position, following in enumerate(node.next_functions)]


def _quoted(text: str) -> str:
    """Text inside a dot string: shown `visible`, backslashes and quotes escaped, lines joined by dot's line break."""
    return "\\n".join(visible(line).replace("\\", "\\\\").replace('"', '\\"') for line in text.split("\n"))


def dot(view: GraphView) -> str:
    lines = [
        "digraph backward {",
        f'  label="{_quoted("backward graph of " + view.source.strip())}";',
        '  node [shape=box, fontname="monospace"];',
    ]
    for node in view.nodes:
        label = "\\n".join(_quoted(line) for line in [view.title(node), *view.facts(node.id)])
        shape = ', shape=ellipse, style=filled, fillcolor="#dde8f5"' if node.op == "AccumulateGrad" else ""
        lines.append(f'  n{node.id} [label="{label}"{shape}];')
    for source, target, position in _edges(view):
        if target is None:
            lines.append(f'  none_{source}_{position} [label="None", shape=plaintext];')
            lines.append(f"  n{source} -> none_{source}_{position} [style=dashed];")
        else:
            lines.append(f"  n{source} -> n{target};")
    lines.append("}")
    return "\n".join(lines)


def mermaid(view: GraphView) -> str:
    lines = ["flowchart TD"]
    for node in view.nodes:
        label = "<br/>".join(visible(line).replace('"', "#quot;") for line in [view.title(node), *view.facts(node.id)])
        opening, closing = ("([", "])") if node.op == "AccumulateGrad" else ("[", "]")
        lines.append(f'  n{node.id}{opening}"{label}"{closing}')
    for source, target, position in _edges(view):
        if target is None:
            lines.append(f"  none_{source}_{position}[None]")
            lines.append(f"  n{source} -.-> none_{source}_{position}")
        else:
            lines.append(f"  n{source} --> n{target}")
    return "\n".join(lines)


def document(view: GraphView) -> dict[str, Any]:
    nodes = []
    for node in view.nodes:
        entry: dict[str, Any] = {"id": node.id, "op": node.op, "name": node.name,
                                 "next_functions": list(node.next_functions)}
        if view.result is not None:
            entry["shape"] = list(_shape(view.result.values[node.id]))
            entry["value"] = to_json(view.result.values[node.id])
            adjoint = view.result.adjoints[node.id]
            entry["grad"] = None if adjoint is None else to_json(adjoint)
        nodes.append(entry)
    edges = [{"from": source, "to": target, "position": position, **_edge_document(view, source, position)}
             for source, target, position in _edges(view) if target is not None]
    return {"expr": view.source, "roots": list(view.roots), "root_names": list(view.root_names),
            "nodes": nodes, "edges": edges}


def _edge_document(view: GraphView, source: int, position: int) -> dict[str, Any]:
    """An edge's local derivative: `local_derivative` where both ends are numbers, else `jacobian`:
    its structure (explain's kinds) and size."""
    local = (view.edges or {}).get(source)
    if local is None or position >= len(local) or local[position] is None:
        return {}
    if isinstance(local[position], float):
        return {"local_derivative": to_json(local[position])}
    return {"jacobian": {"kind": local[position].kind, "size": list(local[position].size)}}


def as_json(view: GraphView) -> str:
    return json.dumps(document(view), allow_nan=False)


TEXT_FORMATS: dict[str, Callable[[GraphView], str]] = {"dot": dot, "mermaid": mermaid, "json": as_json}
