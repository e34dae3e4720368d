"""The decompositions (gradcli.ops.decompositions): cholesky, qr, eigh, eigvalsh, svd, svdvals.

Each program is replayed in PyTorch (float64) where torch is installed: value, gradient and the node
grad_fn shows, at matrices larger than the rows' own examples (which are 1x1 where one triangle of a
symmetric matrix is read). The programs read what does not depend on LAPACK's choice of signs (R's
rows times Q's columns, |U|, eigenvalues), or a sign that LAPACK fixes (Householder's Q).
"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.torch_graph import backward_graph
from tests.helpers import cli

L = "torch.linalg"
# (gradcli's program, PyTorch's, the input's shape, how the input is made: "spd", "symmetric" or "any")
PROGRAMS = [
    (f"sum({L}.cholesky(a) * w)", f"({L}.cholesky(a) * w).sum()", (4, 4), "spd"),
    (f"sum({L}.cholesky(a, upper=True) * w)", f"({L}.cholesky(a, upper=True) * w).sum()", (2, 3, 3), "spd"),
    ("sum(torch.cholesky(a) * w)", "(torch.cholesky(a) * w).sum()", (3, 3), "spd"),
    (f"sum({L}.cholesky_ex(a)[0] * w)", f"({L}.cholesky_ex(a)[0] * w).sum()", (3, 3), "spd"),
    (f"sum({L}.qr(a)[0] * w)", f"({L}.qr(a)[0] * w).sum()", (5, 3), "any"),
    (f"sum({L}.qr(a).R * w)", f"({L}.qr(a).R * w).sum()", (3, 5), "any"),
    (f"sum({L}.qr(a, mode='complete')[1] * w)", f"({L}.qr(a, mode='complete')[1] * w).sum()", (3, 3), "any"),
    ("sum(torch.qr(a, some=True)[0] * w)", "(torch.qr(a, some=True)[0] * w).sum()", (2, 4, 4), "any"),
    (f"sum({L}.eigh(a)[0] * w)", f"({L}.eigh(a)[0] * w).sum()", (4, 4), "symmetric"),
    (f"sum({L}.eigh(a, UPLO='U').eigenvalues * w)", f"({L}.eigh(a, UPLO='U').eigenvalues * w).sum()", (4, 4), "any"),
    (f"sum(abs({L}.eigh(a)[1]) * w)", f"({L}.eigh(a)[1].abs() * w).sum()", (3, 3), "symmetric"),
    (f"sum({L}.eigvalsh(a) * w)", f"({L}.eigvalsh(a) * w).sum()", (2, 3, 3), "symmetric"),
    (f"sum({L}.svdvals(a) * w)", f"({L}.svdvals(a) * w).sum()", (4, 3), "any"),
    (f"sum(abs({L}.svd(a, full_matrices=False)[0]) * w)", f"({L}.svd(a, full_matrices=False)[0].abs() * w).sum()",
     (5, 3), "any"),
    (f"sum(abs({L}.svd(a)[2]) * w)", f"({L}.svd(a)[2].abs() * w).sum()", (3, 3), "any"),
    ("sum(abs(torch.svd(a)[2]) * w)", "(torch.svd(a)[2].abs() * w).sum()", (4, 3), "any"),
    ("sum(torch.svd(a).S * w)", "(torch.svd(a).S * w).sum()", (2, 3, 4), "any"),
]


def _point(shape: tuple[int, ...], kind: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.normal(size=shape)
    if kind == "spd":
        return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])
    if kind == "symmetric":
        return a + np.swapaxes(a, -1, -2)
    return a


@pytest.mark.parametrize(("program", "theirs", "shape", "kind"), PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_values_gradients_and_nodes_are_pytorchs(program, theirs, shape, kind):
    torch = pytest.importorskip("torch")
    a = _point(shape, kind, len(program))
    ta = torch.tensor(a, requires_grad=True)
    out = eval(theirs.removeprefix("(").removesuffix(" * w).sum()"), {"torch": torch, "a": ta})
    w = np.random.default_rng(1).normal(size=tuple(out.shape))
    total = (out * torch.tensor(w)).sum()
    total.backward()
    ours = grad(program, at={"a": a, "w": w}, wrt=["a"])
    np.testing.assert_allclose(ours.value, float(total), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.grad["a"], ta.grad.numpy(), rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize(("program", "node"), [
    ("torch.linalg.qr(a)[1]", "LinalgQrBackward0"), ("torch.linalg.cholesky(a)", "LinalgCholeskyExBackward0"),
    ("torch.cholesky(a)", "CholeskyBackward0"), ("torch.linalg.eigvalsh(a)", "LinalgEighBackward0"),
    ("torch.linalg.svd(a)[1]", "LinalgSvdBackward0")])
def test_the_nodes_are_named_as_pytorch_names_them(program, node):
    tape = compile_program(program)
    result = grad(tape, at={"a": [[2.0, 0.5], [0.5, 1.0]]}, seed="ones")
    nodes = {n.id: n for n in backward_graph(tape, tape.outputs, result.values)}
    assert nodes[tape.outputs[0]].op == node


def test_cholesky_of_a_matrix_that_is_not_positive_definite_is_a_clean_error():
    run = cli("grad", "sum(torch.linalg.cholesky(m))", "--at", "m=[[1,2],[2,1]]")
    assert run.exit_code == 2
    assert "the leading minor of order 2 is not positive-definite" in run.stderr


def test_qr_in_mode_r_has_no_gradient_as_in_pytorch():
    run = cli("grad", "sum(torch.linalg.qr(m, mode='r')[1])", "--at", "m=[[1,2],[3,1]]")
    assert run.exit_code == 2
    assert "depends on Q, which is not computed when mode='r'" in run.stderr


def test_a_field_of_the_named_tuple_is_its_part():
    m = [[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 4.0]]
    by_field = grad("sum(torch.linalg.eigh(m).eigenvalues ** 2)", at={"m": m})
    by_index = grad("sum(torch.linalg.eigh(m)[0] ** 2)", at={"m": m})
    # the sum of the squared eigenvalues is the squared Frobenius norm: its gradient is 2 m
    np.testing.assert_allclose(by_field.value, np.sum(np.square(m)))
    np.testing.assert_allclose(by_field.grad["m"], 2 * np.array(m))
    np.testing.assert_array_equal(by_field.grad["m"], by_index.grad["m"])


def test_the_singular_values_sum_to_the_nuclear_norm_whose_gradient_is_u_vh():
    a = np.array([[3.0, 1.0], [-1.0, 2.0], [0.5, 0.5]])
    result = grad("sum(torch.linalg.svdvals(a))", at={"a": a})
    u, _, vh = np.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose(result.grad["a"], u @ vh, rtol=1e-12)


# The rows built on them: (gradcli's program, PyTorch's, the inputs' shapes and kinds)
BUILT = [
    ("torch.linalg.slogdet(a).logabsdet", (3, 3), "any"),
    ("torch.logdet(a)", (2, 3, 3), "spd"),
    ("torch.linalg.inv_ex(a)[0]", (3, 3), "any"),
    ("torch.linalg.matrix_exp(a)", (3, 3), "any"),
    ("torch.matrix_exp(4 * a)", (2, 3, 3), "any"),
    ("torch.linalg.pinv(a)", (4, 3), "any"),
    ("torch.linalg.pinv(a, hermitian=True)", (3, 3), "symmetric"),
    ("torch.pinverse(a)", (2, 4), "any"),
    ("torch.cholesky_inverse(a)", (3, 3), "any"),
    ("torch.cholesky_inverse(a, upper=True)", (3, 3), "any"),
    *[(f"torch.linalg.matrix_power(a, {n})", (3, 3), "any") for n in (0, 1, 2, 3, 6, -1, -2)],
    *[(f"torch.linalg.matrix_norm(a, {o})", (2, 3, 4), "any") for o in ("'nuc'", "2", "-2", "1", "-1", "inf")],
    ("torch.linalg.matrix_norm(a, 'nuc', dim=(0, 2), keepdim=True)", (2, 3, 4), "any"),
    ("torch.norm(a, 'nuc')", (3, 4), "any"),
    ("torch.linalg.cond(a)", (2, 3, 3), "any"),
]


@pytest.mark.parametrize(("program", "shape", "kind"), BUILT, ids=[b[0] for b in BUILT])
def test_the_ops_built_on_them_are_pytorchs(program, shape, kind):
    torch = pytest.importorskip("torch")
    a = _point(shape, kind, len(program))
    ta = torch.tensor(a, requires_grad=True)
    out = eval(program.replace("inf", "float('inf')"), {"torch": torch, "a": ta})
    w = np.random.default_rng(2).normal(size=tuple(out.shape))
    total = (out * torch.tensor(w)).sum()
    total.backward()
    ours = grad(f"sum(({program}) * w)", at={"a": a, "w": w}, wrt=["a"])
    np.testing.assert_allclose(ours.value, float(total), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.grad["a"], ta.grad.numpy(), rtol=1e-7, atol=1e-10)


# Of a matrix and a second argument: (gradcli's program, the shapes of a and b)
SOLVES = [
    ("torch.linalg.solve_ex(a, b)[0]", (3, 3), (3, 2)),
    ("torch.linalg.solve_triangular(a, b, upper=True)", (3, 3), (3, 2)),
    ("torch.linalg.solve_triangular(a, b, upper=False, left=False, unitriangular=True)", (2, 3, 3), (2, 3)),
    ("torch.triangular_solve(b, a)[0]", (3, 3), (3, 2)),
    ("torch.triangular_solve(b, a, upper=False, transpose=True).solution", (3, 3), (2, 3, 1)),
    ("torch.cholesky_solve(b, a)", (3, 3), (3, 2)),
    ("torch.cholesky_solve(b, a, upper=True)", (2, 3, 3), (3, 1)),
]


@pytest.mark.parametrize(("program", "sa", "sb"), SOLVES, ids=[s[0] for s in SOLVES])
def test_the_solves_are_pytorchs(program, sa, sb):
    torch = pytest.importorskip("torch")
    a, b = _point(sa, "spd", 1) + np.tril(np.ones(sa[-2:])), _point(sb, "any", 2)
    ta, tb = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    out = eval(program, {"torch": torch, "a": ta, "b": tb})
    w = np.random.default_rng(3).normal(size=tuple(out.shape))
    total = (out * torch.tensor(w)).sum()
    total.backward()
    ours = grad(f"sum(({program}) * w)", at={"a": a, "b": b, "w": w}, wrt=["a", "b"])
    np.testing.assert_allclose(ours.value, float(total), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours.grad["a"], ta.grad.numpy(), rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(ours.grad["b"], tb.grad.numpy(), rtol=1e-7, atol=1e-10)


def test_matrix_power_is_recorded_as_pytorchs_products():
    tape = compile_program("torch.linalg.matrix_power(a, 5)")
    names = sorted(node.op.torch_node for node in tape.nodes if node.op is not None)
    assert names == ["MmBackward0"] * 3  # a^2, a^4 = a^2 a^2, a a^4


def test_matrix_power_needs_its_exponent_as_in_pytorch():
    run = cli("grad", "sum(torch.linalg.matrix_power(a))", "--at", "a=[[1,2],[3,4]]")
    assert run.exit_code == 2
    assert "required" in run.stderr and "n" in run.stderr


def test_a_matrix_norm_whose_graph_depends_on_the_rank_is_refused_over_points():
    run = cli("grad", "torch.linalg.matrix_norm(a, 'nuc')", "--points", "-", stdin='{"a": [[1, 2], [3, 4]]}\n')
    assert run.exit_code == 2
    assert "--points" in run.stderr
