"""The backward graph as PyTorch records it: node names (`grad_fn`) and `next_functions`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from gradcli.tape import APPLY, Tape

Array = np.ndarray


@dataclass(eq=False)
class GraphNode:
    """A node of the backward graph as PyTorch shows it: a grad_fn, or an input's AccumulateGrad."""

    id: int  # the tape index: node [3] is v3 of `gradcli explain`
    op: str  # "MulBackward0", ..., or "AccumulateGrad" for an input
    name: str | None  # the input's name, or the intermediate's
    next_functions: tuple[int | None, ...]  # in argument order; None for a constant, as PyTorch shows it


def _scalar_constants(tape: Tape, index: int) -> list[bool]:
    """Which arguments of a node are Python numbers in PyTorch's eyes (0-d constants)."""
    nodes = tape.nodes
    return [nodes[a].is_scalar_constant() for a in nodes[index].args]


def torch_name(tape: Tape, index: int, values: Sequence[Array] | None = None) -> str:
    """The name of the node PyTorch would record for tape node `index`."""
    from gradcli.ops import torch_node_name

    node = tape.nodes[index]
    if node.kind != APPLY:
        return "AccumulateGrad" if node.requires_grad else "None"
    assert node.op is not None
    shapes = None if values is None else [np.shape(values[a]) for a in node.args]
    return torch_node_name(node.op, _scalar_constants(tape, index), shapes, node.params)


def backward_graph(tape: Tape, roots: Sequence[int], values: Sequence[Array] | None = None) -> list[GraphNode]:
    """The nodes reachable from `roots`, each before its next_functions (backward order).

    A constant that is a Python number in PyTorch (a 0-d constant here) is not an input of
    a Tensor-Scalar node (`x**2` is PowBackward0 with one next function), and is `None` in
    the next_functions of the others (`3*x` is MulBackward0 with (AccumulateGrad, None)).
    """
    from gradcli.ops import SCALAR_OVERLOADS

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
        if node.kind != APPLY:
            graph.append(GraphNode(index, op_name, node.name, ()))
            continue
        assert node.op is not None
        args = list(node.args)
        scalar_constant = _scalar_constants(tape, index)
        if node.op.reflects and scalar_constant[0]:
            args.reverse()
            scalar_constant.reverse()
        next_functions: list[int | None] = []
        if node.op.index_from is not None:  # PyTorch lists no index among the next functions
            args, scalar_constant = args[: node.op.index_from], scalar_constant[: node.op.index_from]
        for position, (arg, is_scalar) in enumerate(zip(args, scalar_constant, strict=True)):
            if position in node.op.conditions:  # where's condition: a boolean, not an input of the node
                continue
            if nodes[arg].requires_grad:
                reachable[arg] = True
                next_functions.append(arg)
            elif not (is_scalar and op_name in SCALAR_OVERLOADS):
                next_functions.append(None)
        graph.append(GraphNode(index, op_name, node.name, tuple(next_functions)))
    return graph
