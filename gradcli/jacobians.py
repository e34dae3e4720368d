"""The local Jacobian of one edge of the backward graph, as a learner writes it.

A vector step of the sweep applies Jᵀ to the node's gradient, where J = ∂node/∂arg. `explain`
shows J by its structure and its numbers: `diag(2*z) = diag([2, 6])` for an elementwise op, the
same summed back over the axes a broadcast added, `1ᵀ` for a sum, the matrix itself where it is
small, and only its size where it is not (a big Jacobian is never written out). Computed here,
at the point, from the row's own VJP; the views only write it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gradcli.ops import call_vjp
from gradcli.tape import INPUT, Tape
from gradcli.torch_graph import EDGES_AT_MOST

Array = np.ndarray

SMALL = 144  # a Jacobian of at most this many entries is written out in full


@dataclass(frozen=True)
class LocalJacobian:
    """J = ∂node/∂arg at the point, by its structure.

    kind:
    - "diag": an elementwise op, arg and node of one shape: J = diag(entries)
    - "broadcast": an elementwise op whose arg was broadcast: diag(entries) over the node's shape,
      then summed back over `axes` into the arg
    - "summed": a "broadcast" whose partials are all 1 (x + b by b): the gradient summed back over `axes`
    - "ones": the node is one number that sums the arg: J = 1ᵀ, a row of ones
    - "row": the node is one number: J is one row, `entries` (of the arg's shape)
    - "identity": the node holds the arg's elements (x + y by x, a view): J = I
    - "matrix": J itself, `entries` of shape (node elements, arg elements)
    - "large": too many entries to write: only its size
    """

    kind: str
    size: tuple[int, int]  # (node elements, arg elements)
    entries: Array | None = None
    axes: tuple[int, ...] = ()


def _args(tape: Tape, values: Any, index: int) -> list[Any]:
    from gradcli.engine import ARRAYS

    return [ARRAYS.number(values[a]) if tape.nodes[a].literal and tape.nodes[a].kind != INPUT else values[a]
            for a in tape.nodes[index].args]


def _vjp(tape: Tape, values: Any, index: int, cotangent: Array, args: list[Any], position: int) -> Array:
    node = tape.nodes[index]
    assert node.op is not None
    wanted = [i == position for i in range(len(args))]
    with np.errstate(all="ignore"):
        parts = call_vjp(node.op, cotangent, values[index], args, node.params, [0] * len(args), wanted)
    part = parts[position]
    shape = np.shape(args[position])
    return np.zeros(shape) if part is None else np.broadcast_to(np.asarray(part, dtype=float), shape)


def local_jacobian(tape: Tape, values: Any, index: int, position: int) -> LocalJacobian:
    """∂node/∂(its arg at `position`) at the point, by its structure (see LocalJacobian)."""
    node = tape.nodes[index]
    assert node.op is not None
    out = np.asarray(values[index])
    arg = np.asarray(values[node.args[position]])
    size = (int(out.size), int(arg.size))
    args = _args(tape, values, index)
    if node.op.elementwise and out.ndim >= arg.ndim:
        # each output element depends on one element of each arg: the partials, at the output's shape
        spread = [np.broadcast_to(a, out.shape) if i == position else a for i, a in enumerate(args)]
        entries = _vjp(tape, values, index, np.ones(out.shape), spread, position)
        if arg.shape == out.shape:
            return LocalJacobian("identity" if bool(np.all(entries == 1)) else "diag", size, entries)
        lead = out.ndim - arg.ndim
        axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(arg.shape) if n == 1 and out.shape[lead + i] != 1)
        return LocalJacobian("summed" if bool(np.all(entries == 1)) else "broadcast", size, entries, axes)
    if out.size == 1:
        row = _vjp(tape, values, index, np.ones(out.shape), args, position)
        return LocalJacobian("ones" if bool(np.all(row == 1)) else "row", size, row)
    if size[0] * size[1] > SMALL:
        return LocalJacobian("large", size)
    rows = []
    for i in range(out.size):
        basis = np.zeros(out.size)
        basis[i] = 1.0
        rows.append(_vjp(tape, values, index, basis.reshape(out.shape), args, position).reshape(-1))
    matrix = np.array(rows).reshape(size)
    if size[0] == size[1] and np.array_equal(matrix, np.eye(size[0])):
        return LocalJacobian("identity", size)
    return LocalJacobian("matrix", size, matrix)




def edge_locals(tape: Tape, values: Any, graph: Any) -> dict[int, list[float | LocalJacobian | None]]:
    """Per node of the backward graph (GraphNode), aligned with its next_functions: the local derivative
    of each edge, a number where node and arg are numbers, else the local Jacobian (None: a constant's
    edge). Empty past EDGES_AT_MOST nodes."""
    from gradcli.engine import local_derivatives
    from gradcli.tape import APPLY

    found: dict[int, list[float | LocalJacobian | None]] = {}
    if len(graph) > EDGES_AT_MOST:
        return found
    for node in graph:
        if tape.nodes[node.id].kind != APPLY:
            continue
        args = tape.nodes[node.id].args
        used: set[int] = set()
        scalars: list[Any] | None = None
        labels: list[float | LocalJacobian | None] = []
        for child in node.next_functions:
            position = next((p for p, a in enumerate(args) if a == child and p not in used), None)
            if child is None or position is None:
                labels.append(None)
                continue
            used.add(position)
            if np.size(values[node.id]) == 1 and np.size(values[child]) == 1:
                if scalars is None:
                    scalars = local_derivatives(tape, values, node.id)
                part = scalars[position]
                labels.append(None if part is None else float(np.asarray(part, dtype=float).reshape(())))
            else:
                labels.append(local_jacobian(tape, values, node.id, position))
        found[node.id] = labels
    return found
