"""Numbers that must come out right at the edges: large logits, huge and tiny quotients, NaN.

Each reference is computed independently of gradcli: by `math` on the exact formula, or by
an identity the true derivative satisfies.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from gradcli import grad
from tests.helpers import cli

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def _sigmoid(x: float) -> float:
    """The logistic function, evaluated where it does not cancel."""
    return math.exp(x) / (1.0 + math.exp(x)) if x < 0 else 1.0 / (1.0 + math.exp(-x))


# --- sigmoid and softplus over the whole line ----------------------------------------------


@pytest.mark.parametrize("x", [-37.0, -40.0, -100.0, -700.0, -2.5, -1e-300, 0.0])
def test_log_of_sigmoid_is_exact_for_large_negative_logits(x):
    # log(sigmoid(x)) = x - log1p(exp(x)); its derivative is 1 - sigmoid(x) = sigmoid(-x).
    result = grad("log(sigmoid(x))", at={"x": x})
    assert float(result.value) == pytest.approx(x - math.log1p(math.exp(x)), rel=1e-15, abs=0)
    assert float(result.grad["x"]) == pytest.approx(_sigmoid(-x), rel=1e-15, abs=0)


def test_log_of_sigmoid_at_minus_37_on_the_command_line_is_minus_37():
    run = cli("grad", "log(sigmoid(x))", "--at", "x=-37", "--json")
    assert run.exit_code == 0
    assert run.json()["value"] == pytest.approx(-37.0, rel=1e-15)


@pytest.mark.parametrize("x", [-745.0, -710.0, -100.0, -30.0, -1e-300, 0.0, 5.0, 19.5, 40.0])
def test_sigmoid_keeps_its_relative_precision_over_the_whole_line(x):
    result = grad("sigmoid(x)", at={"x": x})
    assert float(result.value) == pytest.approx(_sigmoid(x), rel=1e-15, abs=0)
    # The derivative comes from the value, as in PyTorch: (1 - ans) * ans, exact where
    # ans <= 1/2, and within a few roundings of 1 - ans (2**-53 each) above.
    derivative = _sigmoid(x) * _sigmoid(-x)
    if x <= 0:
        assert float(result.grad["x"]) == pytest.approx(derivative, rel=1e-15, abs=0)
    else:
        assert float(result.grad["x"]) == pytest.approx(derivative, rel=1e-15, abs=4 * 2**-53)


@pytest.mark.parametrize("x", [-745.0, -710.0, -100.0, -30.0, -1e-300, 0.0, 5.0, 19.5])
def test_softplus_derivative_is_sigmoid_down_to_the_smallest_numbers(x):
    # PyTorch: softplus'(x) = exp(x) / (exp(x) + 1) below the threshold, exact for x << 0.
    result = grad("softplus(x)", at={"x": x})
    assert float(result.value) == pytest.approx(math.log1p(math.exp(x)), rel=1e-15, abs=0)
    assert float(result.grad["x"]) == pytest.approx(_sigmoid(x), rel=1e-15, abs=0)


def _logistic_reference(w: list[float], b: float, X: list[list[float]], t: list[float]):
    """Mean binary cross-entropy and its gradient, written with softplus, which does not cancel."""
    def softplus(z: float) -> float:
        return max(z, 0.0) + math.log1p(math.exp(-abs(z)))

    zs = [sum(wi * xi for wi, xi in zip(w, row, strict=True)) + b for row in X]
    loss = sum(ti * softplus(-z) + (1 - ti) * softplus(z) for z, ti in zip(zs, t, strict=True)) / len(zs)
    errors = [_sigmoid(z) - ti for z, ti in zip(zs, t, strict=True)]
    dw = [sum(e * row[j] for e, row in zip(errors, X, strict=True)) / len(zs) for j in range(len(w))]
    return loss, dw, sum(errors) / len(zs)


@pytest.mark.parametrize("scale", [1.0, 30.0, 200.0])
def test_the_logistic_regression_sample_is_exact_with_large_logits(scale):
    w, b = [0.5 * scale, -0.25 * scale], 0.1
    X, t = [[1, 2], [0.5, -1], [-1.5, 0.3], [2, 2]], [1, 0, 0, 1]
    program = (SAMPLES / "logistic_regression.grad").read_text()
    result = grad(program, at={"w": w, "b": b, "X": X, "t": t})
    loss, dw, db = _logistic_reference(w, b, X, t)
    assert float(result.value) == pytest.approx(loss, rel=1e-13)
    np.testing.assert_allclose(result.grad["w"], dw, rtol=1e-13)
    assert float(result.grad["b"]) == pytest.approx(db, rel=1e-13)


# --- division -------------------------------------------------------------------------------


def test_the_quotients_gradient_to_the_divisor_does_not_overflow():
    # d(x/y)/dy = -x/y**2 = -(x/y)/y: -1e-100 at x=1e300, y=1e200, though y*y overflows.
    run = cli("grad", "x/y", "--at", "x=1e300,y=1e200", "--json")
    assert run.json()["grad"] == {"x": pytest.approx(1e-200, rel=1e-15, abs=0), "y": pytest.approx(-1e-100, rel=1e-15, abs=0)}


def test_y_over_y_has_the_gradient_zero_exactly():
    # y/y is 1 everywhere: PyTorch's rule (g/y - g*(y/y)/y) gives exactly 0.
    assert cli("grad", "y/y", "--at", "y=0.1", "--json").json()["grad"] == {"y": 0.0}
    batch = cli("grad", "y/y", "--points", "-", "--json", stdin="y\n0.1\n0.3\n")
    assert [json.loads(line)["grad"] for line in batch.stdout.splitlines()] == [{"y": 0.0}, {"y": 0.0}]


def test_the_tangent_of_a_quotient_does_not_overflow():
    run = cli("jvp", "x/y", "--at", "x=1e300,y=1e200", "--tangent", "x=0,y=1", "--json")
    assert run.json()["jvp"] == pytest.approx(-1e-100, rel=1e-15, abs=0)


# --- NaN goes where PyTorch sends it ---------------------------------------------------------
# Expected values are PyTorch 2.13's (float64), as recorded in tests/reference by
# make_torch_reference.py: a NaN input or a NaN flowing in from elsewhere in the program is
# not turned into 0 by a mask, except where PyTorch's own rule masks it.


def test_max_and_min_with_a_nan_operand_give_both_sides_the_gradient():
    # torch.maximum's backward masks a side only where it is strictly smaller: NaN is not.
    for program in ("max(x, y)", "min(x, y)"):
        run = cli("grad", program, "--at", "x=nan,y=1", "--json")
        assert run.json()["grad"] == {"x": 1.0, "y": 1.0}, program


def test_relu_of_nan_passes_the_gradient_and_relu_keeps_the_sign_of_zero():
    result = grad("relu(x)", at={"x": math.nan})
    assert math.isnan(float(result.value)) and float(result.grad["x"]) == 1.0
    assert math.copysign(1.0, float(grad("relu(x)", at={"x": -0.0}).value)) == -1.0


def test_abs_of_nan_has_the_gradient_zero_as_in_pytorch():
    # PyTorch: abs' = sgn(x), and sgn(NaN) = 0.
    assert float(grad("abs(x)", at={"x": math.nan}).grad["x"]) == 0.0


@pytest.mark.parametrize(("program", "at"), [
    ("log(-1) * x**y", {"x": 0.0, "y": 2.0}),  # a zero base: no gradient of its own to y, but NaN comes in
    ("log(-1) * norm(v)", {"v": [0.0, 0.0]}),  # the norm at the origin
    ("log(-1) * abs(x)", {"x": 0.0}),
    ("0 * log(-1) * atan2(x, y)", {"x": 0.0, "y": 0.0}),
])
def test_a_nan_coming_in_from_upstream_stays_nan(program, at):
    result = grad(program, at=at)
    for name, gradient in result.grad.items():
        assert np.all(np.isnan(gradient)), (name, gradient)
    batch = cli("grad", program, "--points", "-", "--json",
                stdin=",".join(at) + "\n" + ",".join(str(v) for v in at.values()) + "\n") if all(
        np.ndim(v) == 0 for v in at.values()) else None
    if batch is not None:
        assert all(v is None for v in json.loads(batch.stdout)["grad"].values())


# --- arange and linspace as PyTorch makes them -------------------------------------------------
# tests/reference/torch_ranges.json holds torch.arange and torch.linspace (float64), written by
# tests/reference/make_torch_reference.py.

RANGES = json.loads((Path(__file__).resolve().parent / "reference" / "torch_ranges.json").read_text())


def test_relu_of_an_arange_has_as_many_zero_gradients_as_in_pytorch():
    # arange(-8, 8, 0.1)[80] is 4.4e-16 in PyTorch, not 0: 80 elements are <= 0, not 81.
    torch_values = next(values for args, values in RANGES["arange"] if args == [-8.0, 8.0, 0.1])
    run = cli("grad", "relu(x)", "--at", "x=arange(-8,8,0.1)", "--seed", "ones", "--json")
    gradient = run.json()["grad"]["x"]
    assert gradient.count(0.0) == sum(v <= 0 for v in torch_values) == 80


@pytest.mark.parametrize("kind", ["arange", "linspace"])
def test_ranges_have_pytorchs_bits(kind):
    from gradcli.inputs.literals import parse_value

    for args, expected in RANGES[kind]:
        text = f"{kind}({', '.join(repr(a) for a in args)})"
        assert parse_value(text).tolist() == expected, text
