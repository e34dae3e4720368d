"""The ops of issue #24's first batch, at the points the table's generated tests do not reach:
special values (NaN, inf), empty cuts, negative dims and indices, and the graph PyTorch records.
The expected numbers are PyTorch's (torch 2.13, float64)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli import grad
from gradcli.cli import app

nan, inf = math.nan, math.inf


def _same(given, expected):
    return np.array_equal(np.asarray(given, dtype=float), np.asarray(expected, dtype=float), equal_nan=True)


def _root(program: str, at: str) -> tuple[str, list[str]]:
    result = CliRunner().invoke(app, ["graph", program, "--at", at, "--seed", "ones", "--format", "json"])
    assert result.exit_code == 0, result.output
    graph = json.loads(result.stdout)
    nodes = {node["id"]: node for node in graph["nodes"]}
    root = nodes[graph["roots"][0]]
    return root["op"], [nodes[i]["op"] for i in root["next_functions"] if i is not None]


def test_contiguous_is_the_input_itself_with_no_node():
    assert _root("x.contiguous()", "x=[1,2]") == ("AccumulateGrad", [])


def test_diff_is_a_subtraction_of_two_slices_as_pytorch_records_it():
    assert _root("diff(x)", "x=[1,2,4]") == ("SubBackward0", ["SliceBackward0", "SliceBackward0"])


@pytest.mark.parametrize(("program", "value", "gradient"), [
    # diff of inf and NaN: inf - inf is NaN; the gradient is -1, 0, 1 whatever the values
    ("sum(diff(x))", nan, [-1.0, 0.0, 1.0]),
    ("sum(diff(x, n=2))", nan, [1.0, -2.0, 1.0]),
    ("sum(narrow(x, 0, -2, 2))", -inf, [0.0, 1.0, 1.0]),
    ("sum(narrow(x, 0, 3, 0))", 0.0, [0.0, 0.0, 0.0]),
    ("sum(select(x, 0, -1) * 2)", -2 * inf, [0.0, 0.0, 2.0]),
    ("sum(repeat_interleave(x, 3) * x.repeat_interleave(3))", nan, [inf, nan, -inf]),
    ("sum(clone(x))", nan, [1.0, 1.0, 1.0]),
])
def test_special_values_as_pytorch(program, value, gradient):
    cuts = "narrow" in program or "select" in program
    result = grad(program, at={"x": [inf, 1.0, -inf] if cuts else [inf, nan, -inf]})
    assert _same(result.value, value)
    assert _same(result.grad["x"], gradient)


def test_rot90_and_its_gradient_follow_numpy_axes_as_pytorch():
    m = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    result = grad("sum(rot90(m) * [[1, 2], [3, 4], [5, 6]])", at={"m": m})
    assert _same(result.value, 70.0)
    assert _same(result.grad["m"], [[5.0, 3.0, 1.0], [6.0, 4.0, 2.0]])


def test_movedim_moves_several_dims_as_pytorch():
    result = grad("movedim(x, (0, 1), (2, 0))[1, 2, 0]", at={"x": np.arange(24.0).reshape(2, 3, 4).tolist()})
    assert _same(result.value, 6.0)  # x[0, 1, 2]: dims 0, 1 moved to 2, 0


# --- sorting and selection: PyTorch's indices at ties and NaNs (torch 2.13, CPU) -----------------

TIES = [1.0, nan, 3.0, 1.0, nan, -inf, 3.0]


@pytest.mark.parametrize(("program", "value"), [
    ("torch.sort(x)[1]", [5, 0, 3, 2, 6, 1, 4]),
    ("torch.sort(x, descending=True)[1]", [1, 4, 2, 6, 0, 3, 5]),
    ("argsort(x, descending=True)", [1, 4, 2, 6, 0, 3, 5]),
    ("torch.topk(x, 3)[1]", [1, 4, 6]),
    ("torch.topk(x, 3, largest=False)[1]", [5, 3, 0]),
    ("kthvalue(x, 2)[1]", 3),
    ("kthvalue(x, 6)[1]", 1),
    ("median(x, 0)[1]", 1),
    ("nanmedian(x, 0)[1]", 3),
    ("cummax(x, 0)[1]", [0, 1, 1, 1, 4, 4, 4]),
    ("cummin(x, 0)[1]", [0, 1, 1, 1, 4, 4, 4]),
])
def test_indices_at_ties_and_nans_as_pytorch(program, value):
    assert _same(grad(program, at={"x": TIES}, seed="ones").value, value)


@pytest.mark.parametrize(("program", "value", "gradient"), [
    ("median(x)", 2.0, [1 / 3, 0.0, 1 / 3, 0.0, 1 / 3]),  # split evenly among the ties (MedianBackward0)
    ("aminmax(x)[0] + 10 * aminmax(x)[1]", 21.0, [10 / 3, 0.5, 10 / 3, 0.5, 10 / 3]),
    ("sum(cummax(x, 0)[0] * arange(1, 6))", 30.0, [3.0, 0.0, 7.0, 0.0, 5.0]),  # scatter_add to the running index
    ("torch.topk(x, 2)[0].sum()", 4.0, [0.0, 0.0, 1.0, 0.0, 1.0]),
])
def test_gradients_at_ties_as_pytorch(program, value, gradient):
    result = grad(program, at={"x": [2.0, 1.0, 2.0, 1.0, 2.0]})
    assert _same(result.value, value)
    assert np.allclose(result.grad["x"], gradient)


def test_sort_with_stable_is_pytorchs_other_overload():
    assert _root("torch.sort(x, stable=True)[0]", "x=[2,1]")[0] == "SortBackward1"
    assert _root("torch.sort(x)[0]", "x=[2,1]")[0] == "SortBackward0"
    assert _root("median(x, 0)[0]", "x=[2,1]")[0] == "MedianBackward1"
