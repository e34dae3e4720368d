"""The backward graph as PyTorch records it: node names (`grad_fn`) and `next_functions`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gradcli.tape import Tape

# (NumPy and the tape are imported where used: the scalar path's graph (gradcli.scalar) builds GraphNodes without them)
Array = Any
EDGES_AT_MOST = 10_000  # a bigger graph is drawn without its edges' local derivatives (one VJP a node)


@dataclass(eq=False)
class GraphNode:
    """A node of the backward graph as PyTorch shows it: a grad_fn, or an input's AccumulateGrad."""

    id: int  # the tape index: node [3] is v3 of `gradcli explain`
    op: str  # "MulBackward0", ..., or "AccumulateGrad" for an input
    name: str | None  # the input's name, or the intermediate's
    next_functions: tuple[int | None, ...]  # in argument order; None for a constant, as PyTorch shows it


def _numbers(tape: Tape, index: int) -> list[bool]:
    """Which arguments of a node are Python numbers in PyTorch's eyes (Node.is_number: `2`, not tensor(2.))."""
    nodes = tape.nodes
    return [nodes[a].is_number() for a in nodes[index].args]


def torch_name(tape: Tape, index: int, values: Sequence[Array] | None = None) -> str:
    """The name of the node PyTorch would record for tape node `index`."""
    import numpy as np

    from gradcli.ops import torch_node_name
    from gradcli.tape import APPLY

    node = tape.nodes[index]
    if node.kind != APPLY:
        return "AccumulateGrad" if node.requires_grad else "None"
    assert node.op is not None
    shapes = None if values is None else [np.shape(values[a]) for a in node.args]
    name = torch_node_name(node.op, _numbers(tape, index), shapes, node.params)
    return dict(node.op.in_place_nodes).get(name, name) if node.in_place else name


def next_functions(tape: Tape, index: int, name: str) -> tuple[int | None, ...]:
    """The next_functions of node `index` (whose PyTorch name is `name`), as PyTorch lists them: an arg
    that takes a gradient by its node, a tensor that takes none as None; a Python number is no input of
    a Tensor-Scalar node (`x**2` is PowBackward0 with one next function) and None in the others (`3*x`
    is MulBackward0 with (AccumulateGrad, None), its number second: x.__rmul__(3)); an index
    (v[idx]) and a condition (where's) are no inputs at all. Every front end reads them here."""
    nodes = tape.nodes
    node = nodes[index]
    if getattr(node.op, "through", False):  # an output of a custom Function's call of several: that call's node
        return next_functions(tape, node.args[0], name)
    if node.holds_op:  # (CopySlices of b[1:].mul_(w): the base's node, then the op's other inputs: w's)
        held = node.args[1]
        return (node.args[0] if nodes[node.args[0]].requires_grad else None,
                *next_functions(tape, held, torch_name(tape, held))[1:])
    return tuple(node.args[slot] if nodes[node.args[slot]].requires_grad else None
                 for slot in input_slots(tape, index, name))


def input_slots(tape: Tape, index: int, name: str) -> list[int]:
    """Where PyTorch's inputs of node `index` (next_functions' entries, in their order) stand among its args."""
    from gradcli.ops import SCALAR_OVERLOADS
    from gradcli.tape import APPLY

    nodes = tape.nodes
    node = nodes[index]
    if node.kind != APPLY:
        return []
    assert node.op is not None
    slots = list(range(len(node.args)))
    number = _numbers(tape, index)
    if node.op.reflects and number[0]:
        slots.reverse()
        number.reverse()
    if node.op.index_from is not None:  # PyTorch lists no index among the next functions
        slots, number = slots[: node.op.index_from], number[: node.op.index_from]
    found: list[int] = []
    for position, (slot, is_number) in enumerate(zip(slots, number, strict=True)):
        if position in node.op.conditions:  # where's condition: a boolean, not an input of the node
            continue
        if nodes[node.args[slot]].requires_grad or not (is_number and name in SCALAR_OVERLOADS):
            found.append(slot)
    return found


def backward_graph(tape: Tape, roots: Sequence[int], values: Sequence[Array] | None = None) -> list[GraphNode]:
    """The nodes reachable from `roots`, each before its next_functions (backward order)."""
    nodes = tape.nodes
    reachable = [False] * len(nodes)
    for root in roots:
        reachable[root] = True
    graph = []
    for index in range(max(roots, default=-1), -1, -1):
        node = nodes[index]
        if not reachable[index] or not node.requires_grad:
            continue
        op_name = torch_name(tape, index, values)
        following = next_functions(tape, index, op_name)
        for arg in following:
            if arg is not None:
                reachable[arg] = True
        graph.append(GraphNode(index, op_name, node.name, following))
    return graph


def reachable(tape: Tape, roots: Sequence[int]) -> set[int]:
    """The nodes a backward from `roots` walks: those a gradient flows through, back to the inputs."""
    nodes = tape.nodes
    seen = set(roots)
    pending = list(roots)
    while pending:
        for arg in nodes[pending.pop()].args:
            if nodes[arg].requires_grad and arg not in seen:
                seen.add(arg)
                pending.append(arg)
    return seen
