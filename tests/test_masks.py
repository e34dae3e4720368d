"""Comparisons, their masks, where and masked_fill (#12, point 4): masks are constants of the
point, as PyTorch's booleans, and every view and batch keeps working with them."""

from __future__ import annotations

import itertools
import json
import math
import operator

import numpy as np
import pytest

from gradcli import compile_program, grad
from tests.helpers import cli

NAN, INF = math.nan, math.inf
SPECIAL = [NAN, INF, -INF, 0.0, -0.0, 1.0, -2.5]
COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
           "!=": operator.ne}

# Programs that mix masks with differentiable ops, each also as PyTorch writes it.
PROGRAMS = [
    ("x * (x > 0)", "x * (x > 0)"),
    ("where(x > y, x**2, -y) + x.masked_fill(y < 0, 3) * (x != y)",
     "torch.where(x > y, x**2, -y) + x.masked_fill(y < 0, 3) * (x != y)"),
    ("((x >= 0) & (y <= 1) | ~(x == y)) * x * y", "((x >= 0) & (y <= 1) | ~(x == y)) * x * y"),
    ("torch.where(x < 1, y, x) / (1 + (y > x))", "torch.where(x < 1, y, x) / (1 + (y > x))"),
]
POINTS = [(1.5, -2.0), (-1.0, 3.0), (0.0, 0.0), (-0.0, 0.0), (2.0, 2.0), (NAN, 1.0), (1.0, NAN), (INF, 1.0),
          (0.5, 1.0)]


@pytest.mark.parametrize("symbol", COMPARE)
def test_comparisons_are_ieee_at_nan_infinities_and_zeros(symbol):
    tape = compile_program(f"a {symbol} b")
    for a, b in itertools.product(SPECIAL, repeat=2):
        result = grad(tape, at={"a": a, "b": b})
        assert float(result.value) == float(COMPARE[symbol](a, b)), (a, b)  # Python's floats are IEEE's
        assert float(result.grad["a"]) == float(result.grad["b"]) == 0.0  # no gradient flows through a mask


def test_a_mask_in_arithmetic_is_a_constant_factor():
    # x * (x > 0) is relu as PyTorch differentiates it: 1 where x > 0, else 0 (a NaN x: NaN > 0 is False).
    for x, expected in [(2.0, 1.0), (-1.0, 0.0), (0.0, 0.0), (-0.0, 0.0), (1e-300, 1.0)]:
        assert float(grad("x * (x > 0)", at={"x": x}).grad["x"]) == expected


def test_the_graph_shows_no_node_for_a_comparison():
    document = cli("graph", "x * (x > 0) + where(x < 1, x, 2)", "--format", "json").json()
    names = [node["op"] for node in document["nodes"]]
    assert sorted(names) == ["AccumulateGrad", "AddBackward0", "MulBackward0", "WhereBackward0"]


@pytest.mark.parametrize(("program", "column"), [("x < y < 1", 7), ("x == y != 1", 8), ("x < y + 1 >= 2", 11),
                                                 ("(x < y <= 1) * x", 8)])
def test_a_chain_of_comparisons_is_refused(program, column):
    run = cli("grad", program, "--at", "x=1,y=2")
    assert run.exit_code == 2 and run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert "comparisons cannot be chained" in first and f"at column {column}" in first
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(("program", "_"), PROGRAMS)
def test_a_batch_of_points_gives_what_each_point_gives(program, _):
    names = list(compile_program(program).inputs)
    lines = ",".join(names) + "\n" + "".join(",".join(repr(dict(x=x, y=y)[n]) for n in names) + "\n" for x, y in POINTS)
    batch = [json.loads(line) for line in cli("grad", program, "--points", "-", "--json", stdin=lines).stdout.splitlines()]
    for (x, y), row in zip(POINTS, batch, strict=True):
        alone = grad(program, at={name: dict(x=x, y=y)[name] for name in names})
        for ours, theirs in [(row["value"], alone.value), *((row["grad"][n], alone.grad[n]) for n in row["grad"])]:
            assert (ours is None and not np.isfinite(theirs)) or ours == float(theirs), (x, y)


@pytest.mark.parametrize(("program", "spelled"), PROGRAMS)
def test_values_and_gradients_are_pytorchs(program, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    tape = compile_program(program)
    for x, y in POINTS:
        tensors = {"x": torch.tensor(x, dtype=torch.float64, requires_grad=True),
                   "y": torch.tensor(y, dtype=torch.float64, requires_grad=True)}
        out = eval(spelled, {"torch": torch}, tensors)  # the reference: our own fixed table, in PyTorch
        out.backward()
        result = grad(tape, at={name: {"x": x, "y": y}[name] for name in tape.inputs})
        np.testing.assert_array_equal(result.value, out.item())
        for name in tape.inputs:
            expected = tensors[name].grad
            np.testing.assert_array_equal(result.grad[name], 0.0 if expected is None else expected.item(),
                                          err_msg=f"{program} at x={x}, y={y}: d/d{name}")


def test_every_view_takes_a_mask():
    program, at = "where(x > 0, x**2, -y) * (y != 1)", "x=1.5,y=-2"
    for args in (["graph"], ["grad", "--paths"], ["explain"], ["grad", "--symbolic", "--check"], ["hessian"],
                 ["jvp", "--tangent", "x=1,y=1"], ["jacobian"]):
        run = cli(*args, program, "--at", at)
        assert run.exit_code == 0, (args, run.stderr)
    assert "agrees" in cli("grad", program, "--at", at, "--check").stdout
    hessian = cli("hessian", program, "--at", at, "--json").json()
    assert hessian is not None
