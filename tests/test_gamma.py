"""lgamma, digamma and polygamma(n, x): PyTorch's values, gradients and Hessians.

References: PyTorch where it is installed (the test skips without torch), mpmath (SymPy's) otherwise.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from gradcli import grad
from gradcli.autodiff import hessian

nan, inf = math.nan, math.inf
POINTS = [-2.5, -0.5, 0.25, 1.0, 1.5, 2.0, 3.7, 9.5, 10.0, 10.5, 42.0, 1e-8, -1e-8, 1e17, 1e300]
SPECIAL = [0.0, -0.0, -1.0, -2.0, inf, -inf, nan]


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")


@pytest.mark.parametrize("x", POINTS + SPECIAL)
@pytest.mark.parametrize(("program", "spelled"), [
    ("lgamma(x)", lambda t, x: t.lgamma(x)),
    ("digamma(x)", lambda t, x: t.digamma(x)),
    ("torch.special.digamma(x)", lambda t, x: t.special.digamma(x)),
    ("polygamma(1, x)", lambda t, x: t.polygamma(1, x)),
    ("polygamma(2, x)", lambda t, x: t.polygamma(2, x)),
    ("polygamma(3, x)", lambda t, x: t.polygamma(3, x)),
])
def test_value_and_gradient_are_pytorchs_bits(program, spelled, x):
    torch = _torch()
    tensor = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    out = spelled(torch, tensor)
    out.backward()
    result = grad(program, at={"x": x})
    for ours, theirs in [(result.value, out.item()), (result.grad["x"], tensor.grad.item())]:
        assert ours == pytest.approx(theirs, rel=4 * 2**-52, abs=0.0, nan_ok=True) or (ours == theirs), (ours, theirs)


@pytest.mark.parametrize("x", [p for p in POINTS if abs(p) < 1e16])
@pytest.mark.parametrize(("program", "spelled"), [
    ("lgamma(x)", lambda t, x: t.lgamma(x)),
    ("digamma(x)", lambda t, x: t.digamma(x)),
    ("polygamma(1, x)", lambda t, x: t.polygamma(1, x)),
])
def test_hessian_is_pytorchs_double_backward(program, spelled, x):
    torch = _torch()
    expected = torch.autograd.functional.hessian(lambda v: spelled(torch, v), torch.tensor(x, dtype=torch.float64))
    assert hessian(program, at={"x": x}).blocks["x"]["x"] == pytest.approx(expected.item(), rel=1e-12)


@pytest.mark.parametrize("x", [p for p in POINTS if abs(p) < 1e16])
def test_values_and_derivatives_against_mpmath(x):
    mpmath.mp.dps = 40
    assert grad("lgamma(x)", at={"x": x}).value == pytest.approx(float(mpmath.log(abs(mpmath.gamma(x)))), rel=1e-13,
                                                                  abs=1e-15)
    result = grad("digamma(x)", at={"x": x})
    assert result.value == pytest.approx(float(mpmath.digamma(x)), rel=1e-13, abs=1e-15)
    # PyTorch's trigamma (six steps and a short series) is good to about 1e-9, not to the last place.
    assert result.grad["x"] == pytest.approx(float(mpmath.polygamma(1, x)), rel=1e-9)
    assert grad("lgamma(x)", at={"x": x}).grad["x"] == pytest.approx(float(mpmath.digamma(x)), rel=1e-13, abs=1e-15)
    for n in (2, 3):
        assert grad(f"polygamma({n}, x)", at={"x": x}).value == pytest.approx(float(mpmath.polygamma(n, x)), rel=1e-12)


def test_poles_are_pytorchs():
    assert grad("lgamma(x)", at={"x": -2.0}).value == inf
    assert math.isnan(grad("digamma(x)", at={"x": -2.0}).value)
    assert grad("digamma(x)", at={"x": 0.0}).value == -inf
    assert grad("digamma(x)", at={"x": -0.0}).value == inf


def test_a_batch_gives_each_points_bits():
    xs = np.array(POINTS + SPECIAL)
    batch = grad("sum(lgamma(x) + digamma(x) + polygamma(2, x))", at={"x": xs}).grad["x"]
    for x, ours in zip(xs, batch, strict=True):
        alone = grad("lgamma(x) + digamma(x) + polygamma(2, x)", at={"x": float(x)}).grad["x"]
        assert ours == alone or (math.isnan(ours) and math.isnan(alone))


def test_polygamma_takes_a_whole_order():
    from tests.helpers import cli

    run = cli("grad", "--at", "x=2", "--", "polygamma(1.5, x)")
    assert run.exit_code == 2 and run.stdout == "" and "whole" in run.stderr.splitlines()[0], run.stderr
