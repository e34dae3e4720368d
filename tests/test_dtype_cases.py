"""`gradcli run` held to what PyTorch printed (issue #21): the dtype a call computes in, the kernels that
refuse integers or bools, the tensors that must share one dtype, broadcasting's words and LinAlgError; and
`gradcli grad` refusing (exit 2) the formulas PyTorch raises at.

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
        grad(case["program"], at={key: np.asarray(value, dtype=float) for key, value in case["at"].items()}, seed="ones")
