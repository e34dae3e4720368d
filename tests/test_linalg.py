"""Products and linear algebra (matmul of any rank, mm, mv, bmm, outer, inner, det, inv, solve ...).

Each program is replayed in PyTorch (float64) where torch is installed: value, gradient and the
name of the node grad_fn shows. Without torch, the checks against exact formulas still run.
"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.torch_graph import backward_graph
from tests.helpers import cli

# (gradcli's program, PyTorch's spelling, the inputs' shapes)
PROGRAMS = [
    ("a @ b", lambda t, a, b: a @ b, {"a": (2, 3), "b": (3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (3,), "b": (3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (5, 2, 3), "b": (5, 3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (5, 2, 3), "b": (3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (2, 3), "b": (5, 3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (5, 2, 3), "b": (3,)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (3,), "b": (2, 3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (1, 2, 3), "b": (5, 3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (5, 2, 3), "b": (1, 3, 4)}),
    ("a @ b", lambda t, a, b: a @ b, {"a": (4, 1, 2, 3), "b": (5, 3, 4)}),
    ("torch.matmul(a, b)", lambda t, a, b: t.matmul(a, b), {"a": (2, 2, 3), "b": (2, 3, 2)}),
    ("np.matmul(a, b)", lambda t, a, b: t.matmul(a, b), {"a": (3,), "b": (3,)}),
    ("mm(a, b)", lambda t, a, b: t.mm(a, b), {"a": (2, 3), "b": (3, 4)}),
    ("a.mm(b)", lambda t, a, b: a.mm(b), {"a": (2, 3), "b": (3, 4)}),
    ("mv(a, b)", lambda t, a, b: t.mv(a, b), {"a": (2, 3), "b": (3,)}),
    ("torch.bmm(a, b)", lambda t, a, b: t.bmm(a, b), {"a": (4, 2, 3), "b": (4, 3, 2)}),
    ("outer(a, b)", lambda t, a, b: t.outer(a, b), {"a": (2,), "b": (3,)}),
    ("ger(a, b)", lambda t, a, b: t.ger(a, b), {"a": (2,), "b": (3,)}),
    ("np.outer(a, b)", lambda t, a, b: t.outer(a, b), {"a": (4,), "b": (2,)}),
    ("inner(a, b)", lambda t, a, b: t.inner(a, b), {"a": (3,), "b": (3,)}),
    ("inner(a, b)", lambda t, a, b: t.inner(a, b), {"a": (2, 3), "b": (4, 3)}),
]


def _point(shapes: dict[str, tuple[int, ...]], seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {name: rng.uniform(-2, 2, size=shape) for name, shape in shapes.items()}


def _torch_run(torch, spelled, point: dict[str, np.ndarray], seed: np.ndarray):
    tensors = {n: torch.tensor(v, dtype=torch.float64, requires_grad=True) for n, v in point.items()}
    out = spelled(torch, *tensors.values())
    out.backward(torch.tensor(seed, dtype=torch.float64))
    return out, {n: t.grad.numpy() for n, t in tensors.items()}


def _root_name(program: str, point: dict[str, np.ndarray]) -> str:
    tape = compile_program(program)
    result = grad(tape, at=point, seed="ones")
    nodes = {node.id: node for node in backward_graph(tape, tape.outputs, result.values)}
    return nodes[tape.outputs[0]].op


@pytest.mark.parametrize(("program", "spelled", "shapes"), PROGRAMS, ids=[f"{p}{list(s.values())}" for p, _, s in PROGRAMS])
def test_value_gradient_and_node_match_pytorch(program, spelled, shapes):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    point = _point(shapes)
    value = np.asarray(grad(program, at=point, seed="ones").value)
    seed = np.random.default_rng(1).normal(size=value.shape)
    result = grad(program, at=point, seed=seed.tolist() if seed.shape else float(seed))
    out, grads = _torch_run(torch, spelled, point, seed)
    np.testing.assert_allclose(result.value, out.detach().numpy(), rtol=1e-12, atol=1e-12)
    for name in point:
        np.testing.assert_allclose(result.grad[name], grads[name], rtol=1e-10, atol=1e-12, err_msg=name)
    assert _root_name(program, point) == type(out.grad_fn).__name__


def test_batched_matmul_is_the_product_of_each_matrix():
    point = _point({"a": (3, 2, 4), "b": (4, 5)})
    result = grad("sum(a @ b)", at=point)
    for k in range(3):
        np.testing.assert_allclose(np.asarray(result.value), sum(float(np.sum(point["a"][j] @ point["b"]))
                                                                  for j in range(3)))
        # d sum(A B) / dA = ones @ B^T, for each matrix of the batch
        np.testing.assert_allclose(result.grad["a"][k], np.ones((2, 5)) @ point["b"].T)


@pytest.mark.parametrize(("program", "shapes", "words"), [
    ("mm(a, b)", {"a": (3,), "b": (3, 2)}, "mm"),
    ("mv(a, b)", {"a": (2, 3), "b": (2, 3)}, "mv"),
    ("bmm(a, b)", {"a": (2, 3), "b": (3, 2)}, "bmm"),
    ("a @ b", {"a": (2, 2, 3), "b": (3, 2, 3)}, "'@'"),
    ("outer(a, b)", {"a": (2, 2), "b": (2,)}, "outer"),
])
def test_shapes_that_do_not_fit_are_one_clear_error(program, shapes, words):
    at = [arg for n, s in shapes.items() for arg in ("--at", f"{n}={np.ones(s).tolist()}")]
    run = cli("grad", program, *at)
    assert run.exit_code == 2
    assert run.stdout == ""
    assert words in run.stderr and "Traceback" not in run.stderr
