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


# --- fused products, addcmul/addcdiv, nansum/nanmean, logit, xlog1py, F.linear ---------------------


@pytest.mark.parametrize(("program", "at", "root"), [
    ("F.linear(x, w, b)", "x=[[1,2,3]],w=[[1,0,1],[0,1,0]],b=[1,2]", ("AddmmBackward0", ["AccumulateGrad", "AccumulateGrad",
                                                                                      "TBackward0"])),
    ("F.linear(x, w)", "x=[[1,2,3]],w=[[1,0,1],[0,1,0]]", ("MmBackward0", ["AccumulateGrad", "TBackward0"])),
    ("F.linear(x, w, b)", "x=[1,2,3],w=[[1,0,1],[0,1,0]],b=[1,2]", ("ViewBackward0", ["AddmmBackward0"])),
    ("F.linear(x, w, bias=b)", "x=[[[1,2,3]]],w=[[1,0,1],[0,1,0]],b=[1,2]", ("ViewBackward0", ["AddmmBackward0"])),
    ("F.linear(x, w)", "x=[[[1,2,3]]],w=[[1,0,1],[0,1,0]]", ("UnsafeViewBackward0", ["MmBackward0"])),
    ("torch.nanmean(x)", "x=[1,2]", ("DivBackward0", ["NansumBackward0"])),
    ("torch.special.xlog1py(x, 2)", "x=[1,2]", ("SpecialXlog1PyBackward2", ["AccumulateGrad"])),
    ("torch.special.xlog1py(2, x)", "x=[1,2]", ("SpecialXlog1PyBackward1", ["AccumulateGrad"])),
])
def test_linear_nanmean_and_xlog1py_are_recorded_as_pytorch_records_them(program, at, root):
    assert _root(program, at) == root


@pytest.mark.parametrize(("program", "at", "value", "gradient"), [
    # beta=0 ignores the input, NaN too; alpha=0 the product, but its gradient is (g @ m2.T) * 0
    ("sum(torch.addmm(m, k, k, beta=0))", {"m": [[nan, 1.0], [2.0, 3.0]], "k": [[1.0, 0.0], [0.0, 1.0]]}, 2.0,
     {"m": [[0.0, 0.0], [0.0, 0.0]], "k": [[2.0, 2.0], [2.0, 2.0]]}),
    ("sum(torch.addmm(i, n, n, alpha=0))", {"i": [[1.0, 1.0], [1.0, 1.0]], "n": [[nan, 1.0], [2.0, 3.0]]}, 4.0,
     {"i": [[1.0, 1.0], [1.0, 1.0]], "n": [[nan, nan], [nan, 0.0]]}),
    ("sum(torch.addcdiv(t, t, c, value=2))", {"t": [1.0, 2.0], "c": [0.0, 1.0]}, inf,
     {"t": [inf, 3.0], "c": [-inf, -4.0]}),
    ("torch.nanmean(v)", {"v": [1.0, nan, 3.0]}, 2.0, {"v": [0.5, 0.0, 0.5]}),
    ("sum(torch.logit(x))", {"x": [-0.5, 0.0, 0.3, 1.0, 1.5, nan]}, nan, {"x": [nan, inf, 1 / 0.21, inf, nan, nan]}),
    ("sum(torch.logit(x, eps=0.1))", {"x": [-0.5, 0.0, 0.3, 1.0, 1.5, nan]}, nan, {"x": [0.0, 0.0, 1 / 0.21, 0.0, 0.0, nan]}),
    ("sum(torch.special.xlog1py(a, b))", {"a": [0.0, 0.0, 1.0, nan, 2.0], "b": [-1.0, -2.0, -1.0, 0.0, nan]}, nan,
     {"a": [0.0, 0.0, -inf, 0.0, nan], "b": [nan, -0.0, inf, nan, nan]}),
])
def test_fused_and_nan_aware_ops_at_special_points_as_pytorch(program, at, value, gradient):
    result = grad(program, at=at)
    assert _same(result.value, value)
    for name, expected in gradient.items():
        assert np.allclose(result.grad[name], expected, equal_nan=True), name
        numbers = ~np.isnan(np.asarray(expected))
        assert _same(np.signbit(result.grad[name])[numbers], np.signbit(expected)[numbers]), name  # -0.0 too


def test_nn_linear_under_run_prints_addmm_as_pytorch(tmp_path):
    source = tmp_path / "linear.py"
    source.write_text("import torch\nimport torch.nn as nn\nprint(nn.Linear(3, 2)(torch.ones(1, 3)).grad_fn)\n"
                      "print(nn.Linear(3, 2, bias=False)(torch.ones(1, 3)).grad_fn)\n")
    result = CliRunner().invoke(app, ["run", str(source)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("<AddmmBackward0 object at 0x") and lines[0].endswith(">")
    assert lines[1].startswith("<MmBackward0 object at 0x")
