"""The backward graph, drawn four ways: a rich tree, Graphviz dot, Mermaid, and JSON.

Every format reads the same list of `GraphNode`s (from `torch_graph.backward_graph`), and,
when the program was evaluated at a point, the forward values and adjoints of a result.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gradcli.derivatives import GradResult
from gradcli.errors import visible
from gradcli.render.numbers import human_line, to_json
from gradcli.torch_graph import GraphNode

MAX_TREE_DEPTH = 200  # deeper graphs are cut in the tree view (every other format is whole)


@dataclass(frozen=True)
class GraphView:
    source: str
    nodes: list[GraphNode]  # backward order: each node before its next_functions
    roots: tuple[int, ...]
    root_names: tuple[str, ...]
    result: GradResult | None  # values and gradients, when evaluated at a point

    def by_id(self) -> dict[int, GraphNode]:
        return {node.id: node for node in self.nodes}

    def facts(self, node_id: int) -> list[str]:
        """Lines under a node's name: its forward value and the gradient flowing into it."""
        if self.result is None:
            return []
        lines = [f"value = {human_line(self.result.values[node_id])}"]
        adjoint = self.result.adjoints[node_id]
        if adjoint is not None:
            lines.append(f"grad = {human_line(adjoint)}")
        return lines

    def title(self, node: GraphNode) -> str:
        name = f" {node.name}" if node.name is not None else ""
        if node.id in self.roots and node.op != "AccumulateGrad":
            root_name = self.root_names[self.roots.index(node.id)]
            if root_name != node.name:
                name += f" ({root_name})"
        return f"[{node.id}] {node.op}{name}"


def tree(view: GraphView) -> Any:
    """A rich Tree: children in next_functions order; a node met again is referenced."""
    from rich.text import Text
    from rich.tree import Tree

    nodes = view.by_id()

    def label(node: GraphNode) -> Text:
        facts = view.facts(node.id)
        style = "bold cyan" if node.op == "AccumulateGrad" else "bold"
        return Text.assemble((view.title(node), style), ("  " + "  ".join(facts) if facts else "", "dim"))

    def dim(text: str) -> Text:
        return Text(text, style="dim")

    top = Tree(Text.assemble(("backward graph of", "dim"), " ", visible(view.source.strip(), lines=True)),
               guide_style="dim")
    drawn: set[int] = set()
    for root in view.roots:
        if root not in nodes:
            top.add(f"{view.root_names[view.roots.index(root)]}: a constant (no grad_fn)")
            continue
        if root in drawn:
            top.add(f"-> {view.title(nodes[root])}")
            continue
        drawn.add(root)
        branch = top.add(label(nodes[root]))
        stack = [(nodes[root], branch, iter(nodes[root].next_functions))]
        while stack:
            _, branch, pending = stack[-1]
            following = next(pending, -1)
            if following == -1:
                stack.pop()
            elif following is None:
                branch.add(dim("None"))
            elif following in drawn:
                branch.add(dim(f"-> {view.title(nodes[following])}"))
            elif len(stack) >= MAX_TREE_DEPTH:
                branch.add(dim(f"... deeper than {MAX_TREE_DEPTH} levels: see --format json or dot"))
                stack.pop()
            else:
                drawn.add(following)
                child = nodes[following]
                stack.append((child, branch.add(label(child)), iter(child.next_functions)))
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
            entry["value"] = to_json(view.result.values[node.id])
            adjoint = view.result.adjoints[node.id]
            entry["grad"] = None if adjoint is None else to_json(adjoint)
        nodes.append(entry)
    edges = [{"from": source, "to": target, "position": position}
             for source, target, position in _edges(view) if target is not None]
    return {"expr": view.source, "roots": list(view.roots), "root_names": list(view.root_names),
            "nodes": nodes, "edges": edges}


def as_json(view: GraphView) -> str:
    return json.dumps(document(view), allow_nan=False)


TEXT_FORMATS: dict[str, Callable[[GraphView], str]] = {"dot": dot, "mermaid": mermaid, "json": as_json}
