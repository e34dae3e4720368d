"""Every view works for every op of the table (#12, point 5), generated from the rows: at a point
of each row's examples, the gradient's paths add up to it and the backward graph and the
explained sweep name every node, the Jacobian's rows are the gradients, the Hessian is
symmetric, and the JVP is the Jacobian times the tangent."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.derivatives import grad, hessian, jacobian, jvp
from gradcli.ops import OPS
from gradcli.paths import paths
from gradcli.session import explanation
from gradcli.tape import compile_program
from gradcli.torch_graph import backward_graph
from tests.test_ops import NAMES, NOT_A_TRANSPOSE, _program, _sample

CASES = [pytest.param(op.name, shapes, params, id=f"{op.name}:{_program(op, shapes, params)}")
         for op in OPS.values() for shapes, params in op.examples[:2] if op.reference is not None]  # (parts: via composites)


def _point(name: str, shapes: tuple, params: dict) -> tuple[str, dict]:
    op = OPS[name]
    program = f"sum({_program(op, shapes, params)})"  # a scalar output, whatever the op's shape
    point = _sample(name, dict(zip(NAMES, shapes, strict=False)), np.random.default_rng(7))
    if op.index_from is not None:  # an index: whole numbers in range (a fixed one where the row's domain says: LU's pivots)
        fixed = [low if low == high else 0.0 for low, high in (op.domain or ())]
        point = {k: (np.full_like(v, fixed[position] if position < len(fixed) else 0.0) if position >= op.index_from
                     else v) for position, (k, v) in enumerate(point.items())}
    return program, point


@pytest.mark.parametrize(("name", "shapes", "params"), CASES)
def test_every_view_of_every_op(name, shapes, params):
    program, point = _point(name, shapes, params)
    tape = compile_program(program)
    if tape.outputs[0] in tape.inputs.values() or not tape.nodes[tape.outputs[0]].requires_grad:
        pytest.skip("the output takes no gradient (a mask, a constructor)")
    result = grad(tape, at=point, trace=True)
    # --paths: the listed contributions and what they leave out add up to the gradient
    for report in paths(result, 50):
        gradient = result.grad[report.name]
        total = sum((np.asarray(p.contribution) for p in report.listed), np.zeros_like(gradient)) + report.unlisted
        np.testing.assert_allclose(total, gradient, rtol=1e-9, atol=1e-9)
    # graph: every node a name PyTorch gives; explain: a step per edge the sweep walked
    nodes = backward_graph(result.tape, result.roots, result.values)  # (compiled again at the point: tensordot)
    assert all(node.op for node in nodes)
    explained = explanation(result)
    assert len(explained.steps) == len(result.trace or [])
    names = list(result.grad)
    if not names:
        return
    # jacobian of the scalar output: the gradient; the Hessian is symmetric; jvp is J @ t
    rows = jacobian(tape, point, wrt=names)
    for n in names:
        np.testing.assert_allclose(np.reshape(rows.blocks[0][n], np.shape(result.grad[n])), result.grad[n],
                                   rtol=1e-9, atol=1e-12)
    # (an arg whose gradient is PyTorch's and not its forward mode's transpose, test_ops.NOT_A_TRANSPOSE: no tangent)
    moved = [n for n in names if NAMES.index(n) not in NOT_A_TRANSPOSE.get(name, ())]
    tangent = {n: np.ones(np.shape(point[n])) * (n in moved) for n in names}
    along = jvp(tape, point, tangent)
    expected = sum(float(np.sum(result.grad[n])) for n in moved)
    np.testing.assert_allclose(np.asarray(along.jvp), expected, rtol=1e-8, atol=1e-10)
    if sum(np.size(point[n]) for n in names) <= 12:
        h = hessian(tape, point, wrt=names)
        # (an input that is only ever a condition of its nodes takes no gradient, as in PyTorch: soft_margin_loss's
        # target; the gradient of another still depends on it, so its blocks have no mirror)
        uses = [(k in node.op.conditions, a) for node in result.tape.nodes if node.op for k, a in enumerate(node.args)]
        conditions = {n for n in names if all(is_condition for is_condition, a in uses if a == result.tape.inputs[n])}
        for i in names:  # H[i][j] is H[j][i] transposed
            for j in names:
                if {i, j} & conditions and i != j:
                    continue
                block, mirror = h.blocks[i][j], h.blocks[j][i]
                axes = list(range(np.ndim(point[j]), mirror.ndim)) + list(range(np.ndim(point[j])))
                np.testing.assert_allclose(block, np.transpose(mirror, axes), rtol=1e-7, atol=1e-9, equal_nan=True)
