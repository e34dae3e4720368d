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
