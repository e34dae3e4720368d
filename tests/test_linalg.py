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
    ("det(a)", lambda t, a: t.det(a), {"a": (3, 3)}),
    ("torch.linalg.det(a)", lambda t, a: t.linalg.det(a), {"a": (2, 3, 3)}),
    ("a.det()", lambda t, a: a.det(), {"a": (1, 1)}),
    ("inv(a)", lambda t, a: t.linalg.inv(a), {"a": (3, 3)}),
    ("torch.inverse(a)", lambda t, a: t.inverse(a), {"a": (2, 2, 2)}),
    ("np.linalg.inv(a)", lambda t, a: t.linalg.inv(a), {"a": (2, 2)}),
    ("solve(a, b)", lambda t, a, b: t.linalg.solve(a, b), {"a": (3, 3), "b": (3,)}),
    ("torch.linalg.solve(a, b)", lambda t, a, b: t.linalg.solve(a, b), {"a": (3, 3), "b": (3, 2)}),
    # (np.linalg.solve of these shapes is NumPy 2's error: a b of two axes is a matrix; tests/test_numpy_spellings.py)
    ("torch.linalg.solve(a, b)", lambda t, a, b: t.linalg.solve(a, b), {"a": (2, 3, 3), "b": (2, 3)}),
    ("np.linalg.solve(a, b)", lambda t, a, b: t.linalg.solve(a, b), {"a": (2, 3, 3), "b": (3,)}),
    ("solve(a, b)", lambda t, a, b: t.linalg.solve(a, b), {"a": (2, 3, 3), "b": (3, 2)}),
    ("solve(a, b)", lambda t, a, b: t.linalg.solve(a, b), {"a": (3, 3), "b": (2, 3, 1)}),
    ("einsum('ij,jk->ik', a, b)", lambda t, a, b: t.einsum("ij,jk->ik", a, b), {"a": (2, 3), "b": (3, 4)}),
    ("torch.einsum('ij,jk', [a, b])", lambda t, a, b: t.einsum("ij,jk", [a, b]), {"a": (2, 3), "b": (3, 4)}),
    ("torch.einsum('ii->', a)", lambda t, a: t.einsum("ii->", a), {"a": (3, 3)}),
    ("np.einsum('ii->i', a)", lambda t, a: t.einsum("ii->i", a), {"a": (3, 3)}),
    ("einsum('ij->j', a)", lambda t, a: t.einsum("ij->j", a), {"a": (3, 4)}),
    ("einsum('i,j->ij', a, b)", lambda t, a, b: t.einsum("i,j->ij", a, b), {"a": (2,), "b": (3,)}),
    ("einsum('bij,bjk->bik', a, b)", lambda t, a, b: t.einsum("bij,bjk->bik", a, b), {"a": (2, 2, 3), "b": (2, 3, 2)}),
    ("einsum('ij,jk,kl->il', a, b, c)", lambda t, a, b, c: t.einsum("ij,jk,kl->il", a, b, c),
     {"a": (2, 3), "b": (3, 4), "c": (4, 2)}),
    ("tensordot(a, b)", lambda t, a, b: t.tensordot(a, b), {"a": (2, 3, 4), "b": (3, 4, 2)}),
    ("tensordot(a, b, dims=1)", lambda t, a, b: t.tensordot(a, b, dims=1), {"a": (2, 3), "b": (3, 4)}),
    ("np.tensordot(a, b, 0)", lambda t, a, b: t.tensordot(a, b, dims=0), {"a": (2,), "b": (3,)}),
    ("tensordot(a, b, dims=([1, 0], [0, 1]))", lambda t, a, b: t.tensordot(a, b, dims=([1, 0], [0, 1])),
     {"a": (3, 2), "b": (2, 3)}),
    ("kron(a, b)", lambda t, a, b: t.kron(a, b), {"a": (2, 2), "b": (3, 3)}),
    ("kron(a, b)", lambda t, a, b: t.kron(a, b), {"a": (2, 2), "b": (3,)}),
    ("cross(a, b)", lambda t, a, b: t.linalg.cross(a, b), {"a": (3,), "b": (3,)}),
    ("torch.linalg.cross(a, b, dim=0)", lambda t, a, b: t.linalg.cross(a, b, dim=0), {"a": (3, 2), "b": (3, 2)}),
    ("a.cross(b, dim=-1)", lambda t, a, b: a.cross(b, dim=-1), {"a": (2, 3), "b": (1, 3)}),
    ("logdet(a)", lambda t, a: t.logdet(a), {"a": [[2.0, 0.5, 0.1], [0.3, 1.5, -0.2], [0.1, 0.4, 1.8]]}),
    ("a.logdet()", lambda t, a: a.logdet(), {"a": [[[0.0, 1.0], [1.0, 0.0]], [[2.0, 1.0], [1.0, 3.0]]]}),
]


def _point(shapes: dict[str, tuple[int, ...]], seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {name: np.array(shape) if isinstance(shape, list) else rng.uniform(-2, 2, size=shape)
            for name, shape in shapes.items()}


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


@pytest.mark.parametrize(("program", "spelled", "shapes"), PROGRAMS, ids=[f"{p}{[v if isinstance(v, tuple) else np.shape(v) for v in s.values()]}" for p, _, s in PROGRAMS])
def test_value_gradient_and_node_match_pytorch(program, spelled, shapes):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    point = _point(shapes)
    value = np.asarray(grad(program, at=point, seed="ones").value)
    seed = np.random.default_rng(1).normal(size=value.shape)
    result = grad(program, at=point, seed=seed.tolist() if seed.shape else float(seed))
    out, grads = _torch_run(torch, spelled, point, seed)
    np.testing.assert_allclose(result.value, out.detach().numpy(), rtol=1e-12, atol=1e-12, equal_nan=True)
    for name in point:
        np.testing.assert_allclose(result.grad[name], grads[name], rtol=1e-10, atol=1e-12, err_msg=name, equal_nan=True)
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


# det's gradient is the matrix of cofactors, det(A) A^-T; PyTorch's backward computes it as that
# product, which is 0 at a singular matrix (where det is 0). Its double backward takes the SVD and
# gives the true cofactors: the Hessian of det is exact there.
@pytest.mark.parametrize("matrix", [[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]],
                                    [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
def test_det_at_a_singular_matrix_has_pytorchs_zero_gradient_and_an_exact_hessian(matrix):
    from gradcli.autodiff import hessian

    a = np.array(matrix)
    result = grad("det(a)", at={"a": a})
    assert float(result.value) == 0.0
    np.testing.assert_array_equal(np.abs(result.grad["a"]), np.zeros_like(a))
    if a.shape == (2, 2):  # det = a00 a11 - a01 a10: its Hessian is constant
        expected = np.zeros((2, 2, 2, 2))
        expected[0, 0, 1, 1] = expected[1, 1, 0, 0] = 1.0
        expected[0, 1, 1, 0] = expected[1, 0, 0, 1] = -1.0
        np.testing.assert_allclose(hessian("det(a)", at={"a": a}).blocks["a"]["a"], expected, atol=1e-15)


def test_det_gradient_is_the_cofactor_matrix():
    a = np.array([[2.0, 1.0], [5.0, 3.0]])  # det 1: the cofactors are [[3, -5], [-1, 2]]
    result = grad("det(a)", at={"a": a})
    assert float(result.value) == pytest.approx(1.0, rel=1e-15)
    np.testing.assert_allclose(result.grad["a"], [[3.0, -5.0], [-1.0, 2.0]], rtol=1e-14)


def test_inverse_and_solve_against_their_definition():
    a = np.array([[2.0, 1.0], [5.0, 3.0]])
    result = grad("sum(inv(a))", at={"a": a})
    np.testing.assert_allclose(np.asarray(result.value), 3 - 1 - 5 + 2, atol=1e-14)  # inv = [[3, -1], [-5, 2]]
    result = grad("sum(solve(a, b))", at={"a": a, "b": [1.0, 2.0]})
    np.testing.assert_allclose(np.asarray(result.value), np.sum(np.array([[3, -1], [-5, 2]]) @ [1.0, 2.0]), atol=1e-14)


@pytest.mark.parametrize(("program", "words"), [("inv(a)", "singular"), ("solve(a, b)", "singular")])
def test_a_singular_matrix_is_one_clear_error(program, words):
    run = cli("grad", program.replace("b", "[1, 1]"), "--at", "a=[[1,2],[2,4]]")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert words in run.stderr.splitlines()[0] and "Traceback" not in run.stderr


@pytest.mark.parametrize(("program", "at"), [("det(a)", "a=[1,2]"), ("inv(a)", "a=[[1,2,3],[4,5,6]]"),
                                             ("solve(a, b)", "a=[[1,0],[0,1]]")])
def test_non_square_matrices_are_one_clear_error(program, at):
    run = cli("grad", program.replace("b", "[1, 2, 3]"), "--at", at)
    assert run.exit_code == 2
    assert run.stdout == "" and "Traceback" not in run.stderr


@pytest.mark.parametrize(("program", "words"), [
    ("einsum('ij,jk->ik', a)", "einsum"), ("einsum('ij->', a, a)", "einsum"), ("einsum('i', a)", "einsum"),
    ("tensordot(a, a, dims=3)", "tensordot"), ("cross(a, a)", "cross"), ("einsum(a, 'ij')", "string"),
])
def test_products_that_do_not_fit_are_one_clear_error(program, words):
    run = cli("grad", program, "--at", "a=[[1,2],[3,4]]")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert words in run.stderr and "Traceback" not in run.stderr
