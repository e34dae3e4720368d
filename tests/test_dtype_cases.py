"""`gradcli run` held to what PyTorch printed (issue #21): the dtype a call computes in, the kernels that
refuse integers or bools, the tensors that must share one dtype, broadcasting's words and LinAlgError; and
`gradcli grad` refusing (exit 2) the formulas PyTorch's backward raises at, and answering with zeros and a warning
where PyTorch's y.backward() raises because the output takes no gradient (argmax, a comparison: as every release
has answered, so nothing that worked stops working).

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


NO_GRAD = {name for name, case in FORMULAS.items() if "does not require grad" in (case["error"] or "")}


@pytest.mark.parametrize("name", sorted(set(FORMULAS) - NO_GRAD))
def test_grad_refuses_what_pytorch_raises_at(name):
    case = FORMULAS[name]
    assert case["error"] is not None  # (PyTorch raised, forward or backward)
    with pytest.raises(GradcliError):
        grad(case["program"], at={key: np.asarray(value, dtype=float) for key, value in case["at"].items()}, seed="ones",
             warn_no_grad=True)


# gradcli's own words where they say more than PyTorch's (which speak of a later call, lu_solve) or PyTorch's is LAPACK's
OWN_WORDS = {"lu_factor of a singular matrix", "cholesky_inverse of a zero on the diagonal"}


@pytest.mark.parametrize("name", sorted(set(FORMULAS) - OWN_WORDS - NO_GRAD))
def test_grad_refuses_in_pytorchs_words(name):
    case = FORMULAS[name]
    words = case["error"].split(": ", 1)[1].replace("element 0 of tensors ", "")  # (gradcli names the output)
    with pytest.raises(GradcliError) as refused:
        grad(case["program"], at={key: np.asarray(value, dtype=float) for key, value in case["at"].items()}, seed="ones",
             warn_no_grad=True)
    assert words in str(refused.value)


@pytest.mark.parametrize("name", sorted(NO_GRAD))
def test_grad_of_an_output_that_takes_no_gradient_is_zeros_with_pytorchs_words_as_a_warning(name):
    case = FORMULAS[name]
    with pytest.warns(UserWarning, match="does not require grad and does not have a grad_fn: PyTorch's backward raises"):
        result = grad(case["program"], at={key: np.asarray(value, dtype=float) for key, value in case["at"].items()},
                      seed="ones", warn_no_grad=True)
    assert all(not np.any(np.asarray(g)) for g in result.grad.values())


@pytest.mark.parametrize("args", [("--at", "x=[1,3,2]"), ("--at", "x=2"), ("--points", "-", "--json")])
def test_gradcli_grad_of_an_output_that_takes_no_gradient_answers_zeros_and_warns(args):
    from tests.helpers import cli

    # PyTorch's y.backward() of argmax or a comparison raises; gradcli grad answered zeros in every release, and still
    # does (nothing that worked stops working), saying on stderr that PyTorch raises here
    for program in ("argmax(x)", "sum(x > 1)", *(("x > 1",) if args[1] != "x=[1,3,2]" else ())):
        run = cli("grad", program, *args, stdin="x\n1\n2\n")
        assert run.exit_code == 0 and run.stdout, (program, args, run.stderr)
        assert "does not require grad and does not have a grad_fn: PyTorch's backward raises" in run.stderr
    # a Jacobian's row of it is zeros (torch.autograd.functional.jacobian's), and a --of that names a float one answers
    jacobian = cli("jacobian", "argmax(x)", "--at", "x=[1,3,2]", "--json")
    assert jacobian.exit_code == 0, jacobian.stderr
    answered = cli("grad", "y = 2*x; argmax(y)", "--at", "x=[1,3,2]", "--of", "y", "--seed", "ones", "--json")
    assert answered.exit_code == 0, answered.stderr
    assert answered.json()["grad"] == {"x": [2.0, 2.0, 2.0]}  # d/dx sum(2x)
