"""Boolean masks as an index: `x[x > 0]`, `m[mask]` select elements (PyTorch's IndexBackward0 with a
bool mask; the gradient scattered back).

References: PyTorch where it is installed (the test skips without torch), NumPy's boolean
indexing (the same selection, in the same order) otherwise.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gradcli import grad
from tests.helpers import cli

nan = math.nan
V = [1.5, -2.0, 0.0, 3.0, nan]
M = [[1.0, -3.0, 2.0], [-0.5, 4.0, -1.0]]

# (program, point, PyTorch's spelling: t is torch, the inputs by name)
TORCH_CASES = [
    ("sum(v[v > 0] ** 2)", {"v": V}, lambda t, v: (v[v > 0] ** 2).sum()),
    ("sum(m[m < 1] * 3)", {"m": M}, lambda t, m: (m[m < 1] * 3).sum()),
    ("sum(m[(m > -1) & (m != 2)])", {"m": M}, lambda t, m: m[(m > -1) & (m != 2)].sum()),
    ("sum(m[w > 0] ** 2)", {"m": M, "w": [1.0, -1.0]}, lambda t, m, w: (m[w > 0] ** 2).sum()),
    ("sum(a[b >= 0] * a[b >= 0])", {"a": [1.0, 2.0, 3.0], "b": [1.0, -1.0, 0.0]},
     lambda t, a, b: (a[b >= 0] * a[b >= 0]).sum()),
    ("sum(v[~(v > 0)])", {"v": [1.0, -2.0, 3.0]}, lambda t, v: v[~(v > 0)].sum()),
]


@pytest.mark.parametrize(("program", "point", "spelled"), TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_value_gradient_and_node_are_pytorchs(program, point, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True) for name, value in point.items()}
    out = spelled(torch, *tensors.values())
    out.backward()
    result = grad(program, at=point)
    np.testing.assert_array_equal(result.value, out.detach().numpy())
    for name, tensor in tensors.items():  # (a mask's input: PyTorch's None, gradcli's zeros)
        expected = np.zeros(tensor.shape) if tensor.grad is None else tensor.grad.numpy()
        np.testing.assert_array_equal(result.grad[name], expected)


def test_the_selection_is_numpys_in_order():
    run = cli("grad", "--json", "--at", "m=[[1,-3,2],[-0.5,4,-1]]", "--seed", "[1,2,3]", "--", "m[m > 0]")
    assert run.exit_code == 0, run.stderr
    m = np.array(M)
    assert run.json()["value"] == m[m > 0].tolist()
    expected = np.zeros_like(m)
    expected[m > 0] = [1.0, 2.0, 3.0]
    assert run.json()["grad"]["m"] == expected.tolist()


def test_the_node_is_indexbackward0():
    run = cli("graph", "--format", "json", "--at", "v=[1,-2,3]", "--", "sum(v[v > 0])")
    assert run.exit_code == 0, run.stderr
    assert "IndexBackward0" in run.stdout


def test_points_that_select_as_many_elements_are_computed_together():
    run = cli("grad", "--json", "--points", "-", "--", "sum(v[v > 0] ** 2)",
              stdin='{"v": [1, -2, 3]}\n{"v": [-1, 2, 2]}\n')
    assert run.exit_code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["value"] for line in lines] == [10.0, 8.0]
    assert [line["grad"]["v"] for line in lines] == [[2.0, 0.0, 6.0], [0.0, 4.0, 4.0]]


def test_points_that_select_different_counts_are_refused_clearly():
    run = cli("grad", "--json", "--points", "-", "--", "sum(v[v > 0])", stdin='{"v": [1, -2, 3]}\n{"v": [1, 2, 3]}\n')
    assert run.exit_code == 2 and run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert "mask" in first and "2" in first and "3" in first, run.stderr


@pytest.mark.parametrize(("program", "at", "words"), [
    ("sum(m[w > 0])", ["m=[[1,2],[3,4]]", "w=[1,2,3]"],
     "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 2] at index 0"),
    ("sum(m[m > 0, 0])", ["m=[[1,2],[3,4]]"], "a boolean mask must be the only index"),
    ("where(v > 0)", ["v=[1,2]"], "where takes 3 arguments"),
])
def test_bad_masks_are_refused_clearly(program, at, words):
    run = cli("grad", *(f"--at={a}" for a in at), "--", program)
    assert run.exit_code == 2 and run.stdout == "" and "Traceback" not in run.stderr
    assert words in run.stderr.splitlines()[0], run.stderr
