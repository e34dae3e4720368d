"""`gradcli run` held to what PyTorch printed (issue #21): the dtype a call computes in, the kernels that
refuse integers or bools, the tensors that must share one dtype, broadcasting's words and LinAlgError; and
`gradcli grad` refusing (exit 2) the formulas PyTorch raises at (refuse_no_grad: as `gradcli grad` does, PyTorch's
y.backward() of an output that takes no gradient).

The snippets and PyTorch's output are recorded in tests/reference/dtype_cases.json by
tests/reference/make_dtype_cases.py (with torch); the test needs no torch.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import GradcliError
from tests.test_front_ends import Case, under_run

REFERENCE = json.loads((Path(__file__).parent / "reference" / "dtype_cases.json").read_text())
RECORDED, FORMULAS = REFERENCE["cases"], REFERENCE["formulas"]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_run_prints_what_pytorch_printed(name):
    case = RECORDED[name]
    run = under_run(Case(name, "", case["snippet"], {}, {}))
    assert run.stdout.splitlines() == case["stdout"].splitlines()
    assert run.error == case["error"]


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_grad_refuses_what_pytorch_raises_at(name):
    case = FORMULAS[name]
    assert case["error"] is not None  # (PyTorch raised, forward or backward)
    with pytest.raises(GradcliError):
        grad(case["program"], at={key: np.asarray(value, dtype=float) for key, value in case["at"].items()}, seed="ones",
             refuse_no_grad=True)


# gradcli's own words where they say more than PyTorch's (which speak of a later call, lu_solve) or PyTorch's is LAPACK's
OWN_WORDS = {"lu_factor of a singular matrix", "cholesky_inverse of a zero on the diagonal"}


@pytest.mark.parametrize("name", sorted(set(FORMULAS) - OWN_WORDS))
def test_grad_refuses_in_pytorchs_words(name):
    case = FORMULAS[name]
    words = case["error"].split(": ", 1)[1].replace("element 0 of tensors ", "")  # (gradcli names the output)
    with pytest.raises(GradcliError) as refused:
        grad(case["program"], at={key: np.asarray(value, dtype=float) for key, value in case["at"].items()}, seed="ones",
             refuse_no_grad=True)
    assert words in str(refused.value)


@pytest.mark.parametrize("args", [("--at", "x=[1,3,2]"), ("--at", "x=2"), ("--points", "-", "--json")])
def test_gradcli_grad_refuses_an_output_that_takes_no_gradient(args):
    from tests.helpers import cli

    # PyTorch's y.backward() of argmax or a comparison raises (at every point): exit 2, one line, nothing on stdout
    for program in ("argmax(x)", "x > 1", "sum(x > 1)"):
        run = cli("grad", program, *args, stdin="x\n1\n2\n")
        assert run.exit_code == 2 and run.stdout == "", (program, args, run.stdout)
        assert "does not require grad and does not have a grad_fn" in run.stderr and "Traceback" not in run.stderr
    # a Jacobian's row of it is zeros (torch.autograd.functional.jacobian's), and a --of that names a float one answers
    jacobian = cli("jacobian", "argmax(x)", "--at", "x=[1,3,2]", "--json")
    assert jacobian.exit_code == 0, jacobian.stderr
    answered = cli("grad", "y = 2*x; argmax(y)", "--at", "x=[1,3,2]", "--of", "y", "--seed", "ones", "--json")
    assert answered.exit_code == 0, answered.stderr
    assert answered.json()["grad"] == {"x": [2.0, 2.0, 2.0]}  # d/dx sum(2x)
