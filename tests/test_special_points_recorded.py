"""Special points where PyTorch's answer comes from its kernels' own dtypes, recorded from PyTorch 2.13
(issue #21), held without torch; where torch is installed, held to it live too."""

from __future__ import annotations

import math

import pytest

from tests.helpers import cli

inf = math.inf

# torch.frexp's gradient is grad / exponent.exp2(), the exp2 of an int32 tensor in the default dtype: float32 in
# a program, so 2**e underflows below e = -149 (the gradient inf) and overflows above e = 127 (the gradient 0).
# PyTorch 2.13 prints this program's last line as FREXP_GRAD. (`gradcli grad` is PyTorch with float64 as the
# default dtype, where the exp2 is exact: tests/test_torch_reference.py holds that.)
FREXP_AT = [1e300, 1e-300, 3.0, 1e38, 1e39, -2e-40, 1e-45]
FREXP_GRAD = [0.0, inf, 0.25, 5.877471754111438e-39, 0.0, 2.722258935367508e+39, 7.1362384635298e+44]
FREXP_PROGRAM = f"""import torch
x = torch.tensor({FREXP_AT}, dtype=torch.float64, requires_grad=True)
torch.frexp(x)[0].sum().backward()
print(x.grad.tolist())
"""


def test_frexp_gradient_under_run_is_pytorchs_at_huge_and_tiny_values(tmp_path):
    program = tmp_path / "frexp.py"
    program.write_text(FREXP_PROGRAM)
    result = cli("run", str(program))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{FREXP_GRAD}\n"


def test_frexp_gradient_matches_live_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    x = torch.tensor(FREXP_AT, dtype=torch.float64, requires_grad=True)
    torch.frexp(x)[0].sum().backward()
    assert x.grad.tolist() == FREXP_GRAD


# torch.triangular_solve's gradient of A is -grad_B @ X^T: at a pivot of 1e-300, X's first row is ~1e300 and so is
# grad_B's, and the products of both signs overflow to inf and -inf, which add to NaN in PyTorch's (MKL's) product.
# NumPy's fused multiply-adds would carry the finite -2e600 into +inf instead. PyTorch 2.13's gradient of A:
TRIANGULAR_A = [[1e-300, 1.912442794799433], [1.4465757832656778, 0.5292683173463533]]
TRIANGULAR_B = [[0.18343737918738334, -0.7606657292733772, 1.9154311216612818],
                [-1.6380943665792116, -0.8735776364476022, 1.117980408878262]]
TRIANGULAR_GRAD_A = [[math.nan, 6.730990502760721e+299], [0.0, -2.432156595620347e+300]]
TRIANGULAR_SEED = [[0.5, 0.75, 1.0], [1.25, 1.5, 1.75]]


def test_triangular_solve_gradient_overflows_to_nan_as_pytorchs_product():
    import numpy as np

    from gradcli import grad

    result = grad("torch.triangular_solve(b, a)[0]", at={"a": np.array(TRIANGULAR_A), "b": np.array(TRIANGULAR_B)},
                  seed=np.array(TRIANGULAR_SEED))
    np.testing.assert_allclose(result.grad["a"], TRIANGULAR_GRAD_A, rtol=1e-12)  # (NaN where PyTorch's is)


def test_triangular_solve_gradient_matches_live_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    a = torch.tensor(TRIANGULAR_A, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(TRIANGULAR_B, dtype=torch.float64)
    torch.triangular_solve(b, a)[0].backward(torch.tensor(TRIANGULAR_SEED, dtype=torch.float64))
    assert str(a.grad.tolist()) == str(TRIANGULAR_GRAD_A)


# torch.linalg.solve_ex and inv_ex of a singular matrix answer, with LAPACK's infinities and NaN and its info (that is
# what _ex is for); PyTorch 2.13's values and gradients of the sum at [[1, 2], [2, 4]], b = [1, 1]:
SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
SOLVE_EX = ([-inf, inf], {"a": [[-inf, inf], [inf, -inf]], "b": [-inf, inf]})
INV_EX = ([[-inf, inf], [inf, -inf]], {"a": [[math.nan, math.nan], [math.nan, math.nan]]})


@pytest.mark.parametrize(("program", "expected"), [("torch.linalg.solve_ex(a, b)[0]", SOLVE_EX),
                                                   ("torch.linalg.inv_ex(a)[0]", INV_EX)])
def test_ex_functions_of_a_singular_matrix_answer_as_pytorch(program, expected):
    import numpy as np

    from gradcli import grad

    value, grads = expected
    at = {"a": np.array(SINGULAR), "b": np.ones(2)}
    result = grad(program, at={name: at[name] for name in grads}, seed="ones")
    np.testing.assert_array_equal(result.value, value)
    for name, gradient in grads.items():
        np.testing.assert_array_equal(result.grad[name], gradient)
