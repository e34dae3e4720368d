"""Composites whose graph depends on the shapes (einsum): the whole backward graph -- every node's
name and its next_functions, down to the leaves -- through `gradcli graph` and `gradcli run`, held
to each other and to the graph PyTorch records (live, skipped without torch); their values against
NumPy and their gradients against central differences."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from gradcli import grad
from tests.helpers import central_difference, cli

EINSUMS = [  # (equation, the operands' shapes)
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("i,i->", [(3,), (3,)]), ("ij->ji", [(2, 3)]), ("ii->", [(3, 3)]),
    ("ii->i", [(3, 3)]), ("ij->", [(2, 3)]), ("ij->j", [(2, 3)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("i,j->ij", [(2,), (3,)]), ("ij,ij->ij", [(2, 3), (2, 3)]), ("ij,j->i", [(2, 3), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]), ("ji", [(2, 3)]), ("i,i", [(3,), (3,)]),
    ("ij,jk->k", [(2, 3), (3, 4)]),  # i summed in the first operand alone (Sum, keepdim) before the Bmm
    ("ij,kl->", [(2, 3), (2, 2)]),
    ("iij,jk->ik", [(2, 2, 3), (3, 2)]),  # a diagonal, then a ReshapeAlias into the Bmm
    ("bij,bkj->bik", [(2, 2, 3), (2, 4, 3)]), ("ijk,jk->ik", [(2, 3, 4), (3, 4)]),
    ("ij,jk,k->i", [(2, 3), (3, 2), (2,)]), ("ii,ij->j", [(2, 2), (2, 3)]),
    ("ij,ji->", [(2, 3), (3, 2)]),  # a Clone under an UnsafeView: the permuted operand cannot be viewed
    ("ijk->kji", [(2, 3, 4)]), ("iji->j", [(2, 3, 2)]), ("ab,bc,cd,de->ae", [(2, 3), (3, 2), (2, 4), (4, 2)]),
    ("i,j,k->ijk", [(2,), (3,), (2,)]), ("ij,ij->", [(2, 3), (2, 3)]),
    ("ij,jk->ik", [(1, 3), (3, 4)]), ("ij,jk->ik", [(2, 1), (1, 4)]),  # a dim of 1 is not contracted
    ("Ab,bA->", [(2, 3), (3, 2)]),
]
IDS = [f"{equation}:{shapes}" for equation, shapes in EINSUMS]
NAMES = "abcd"
ADDRESS = re.compile(r"^( *)<(\w+) object at 0x[0-9a-f]+>$")


def _operands(shapes: list[tuple[int, ...]]) -> dict[str, np.ndarray]:
    return {name: (np.arange(1.0, math.prod(shape) + 1) / 7 - 0.5).reshape(shape)
            for name, shape in zip(NAMES, shapes, strict=False)}


def _program(equation: str, count: int) -> str:
    return f"einsum({equation!r}, {', '.join(NAMES[:count])})"


def _snippet(equation: str, point: dict[str, np.ndarray]) -> str:
    lines = ["import torch"]
    lines += [f"{name} = torch.tensor({value.tolist()}, dtype=torch.float64, requires_grad=True)"
              for name, value in point.items()]
    lines += [f"out = torch.einsum({equation!r}, {', '.join(point)})",
              "def walk(fn, depth):",
              "    print('  ' * depth + str(fn))",
              "    if fn is not None:",
              "        for following, _ in fn.next_functions:",
              "            walk(following, depth + 1)",
              "walk(out.grad_fn, 0)"]
    return "\n".join(lines) + "\n"


def _tree(printed: str) -> list[str]:
    """A printed walk as indented node names (PyTorch's `<MulBackward0 object at 0x...>` -> MulBackward0)."""
    return [ADDRESS.sub(r"\1\2", line) for line in printed.splitlines() if line.strip()]


def under_graph(equation: str, point: dict[str, np.ndarray]) -> list[str]:
    at = ",".join(f"{name}={json.dumps(value.tolist())}" for name, value in point.items())
    shown = cli("graph", "--at", at, "--seed", "ones", "--format", "json", "--", _program(equation, len(point)))
    assert shown.exit_code == 0, shown.stderr
    document = shown.json()
    nodes = {node["id"]: node for node in document["nodes"]}
    lines: list[str] = []
    stack = [(document["roots"][0], 0)]
    while stack:
        index, depth = stack.pop()
        lines.append("  " * depth + ("None" if index is None else nodes[index]["op"]))
        if index is not None:
            stack.extend((following, depth + 1) for following in reversed(nodes[index]["next_functions"]))
    return lines


def under_run(equation: str, point: dict[str, np.ndarray]) -> list[str]:
    run = cli("run", "-", stdin=_snippet(equation, point))
    assert run.exit_code == 0, run.stderr
    return _tree(run.stdout)


def under_torch(equation: str, point: dict[str, np.ndarray]) -> list[str]:
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    operands = [torch.tensor(value, dtype=torch.float64, requires_grad=True) for value in point.values()]
    lines: list[str] = []
    stack = [(torch.einsum(equation, *operands).grad_fn, 0)]
    while stack:
        fn, depth = stack.pop()
        lines.append("  " * depth + ("None" if fn is None else type(fn).__name__))
        if fn is not None:
            stack.extend((following, depth + 1) for following, _ in reversed(fn.next_functions))
    return lines


@pytest.mark.parametrize(("equation", "shapes"), EINSUMS, ids=IDS)
def test_einsum_graph_is_the_same_through_graph_and_run(equation, shapes):
    point = _operands(shapes)
    assert under_graph(equation, point) == under_run(equation, point)


@pytest.mark.parametrize(("equation", "shapes"), EINSUMS, ids=IDS)
def test_einsum_graph_is_pytorchs(equation, shapes):
    point = _operands(shapes)
    assert under_graph(equation, point) == under_torch(equation, point)


@pytest.mark.parametrize(("equation", "shapes"), EINSUMS, ids=IDS)
def test_einsum_value_and_gradient(equation, shapes):
    point = _operands(shapes)
    values = list(point.values())
    weights = np.cos(np.arange(1.0, 1 + math.prod(np.shape(np.einsum(equation, *values)))))

    def weighted(args: list[np.ndarray]) -> float:
        return float(np.sum(np.ravel(np.einsum(equation, *args)) * weights))

    seed = weights.reshape(np.shape(np.einsum(equation, *values)))
    result = grad(_program(equation, len(point)), at=point, seed=seed.tolist() if seed.ndim else float(seed))
    np.testing.assert_allclose(result.value, np.einsum(equation, *values), rtol=1e-12, atol=1e-12)
    for i, name in enumerate(point):
        np.testing.assert_allclose(result.grad[name], central_difference(weighted, values, i), rtol=1e-6, atol=1e-8)


def test_einsum_over_many_points_is_one_node():
    """A tape for many points knows no shapes: einsum is one node there (einsum_whole), with the same numbers."""
    from gradcli.tape import compile_program

    tape = compile_program("einsum('ij,jk->ik', a, b)")
    assert [node.op.name for node in tape.nodes if node.op is not None] == ["einsum_whole"]
