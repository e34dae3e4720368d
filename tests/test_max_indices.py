"""max/min over a dim give PyTorch's (values, indices) tuple; argmax and argmin; indices as an index.

References: PyTorch where it is installed (the test skips without torch), NumPy's argmax/argmin
(the first of ties, the first NaN: PyTorch's rule) otherwise.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gradcli import GradcliError, grad
from gradcli.tape import compile_program
from tests.helpers import cli

nan, inf = math.nan, math.inf
M = [[1.0, 3.0, 3.0], [0.5, -2.0, 4.0], [nan, 1.0, nan]]  # ties in the first row, NaNs in the last


def _value(program: str, point: dict) -> np.ndarray:
    return np.asarray(grad(program, at=point, seed="ones").value, dtype=float)


# (program, PyTorch's spelling: t is torch, the inputs by name)
TORCH_CASES = [
    ("torch.max(m, 1)[0]", lambda t, m: t.max(m, 1)[0]),
    ("torch.max(m, 1)[1]", lambda t, m: t.max(m, 1)[1]),
    ("m.max(dim=0).values", lambda t, m: m.max(dim=0).values),
    ("m.max(dim=0).indices", lambda t, m: m.max(dim=0).indices),
    ("m.min(0, keepdim=True).indices", lambda t, m: m.min(0, keepdim=True).indices),
    ("torch.min(m, -1).values", lambda t, m: t.min(m, -1).values),
    ("argmax(m)", lambda t, m: t.argmax(m)),
    ("argmax(m, 1)", lambda t, m: t.argmax(m, 1)),
    ("m.argmin(dim=0, keepdim=True)", lambda t, m: m.argmin(dim=0, keepdim=True)),
    ("torch.argmin(m)", lambda t, m: t.argmin(m)),
]


@pytest.mark.parametrize(("program", "spelled"), TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_values_and_indices_are_pytorchs(program, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    expected = spelled(torch, torch.tensor(M, dtype=torch.float64)).double().numpy()
    np.testing.assert_array_equal(_value(program, {"m": M}), expected)


def test_indices_are_numpys_first_of_ties_and_first_nan():
    assert _value("torch.max(m, 1)[1]", {"m": M}).tolist() == np.argmax(np.array(M), axis=1).tolist() == [1, 2, 0]
    assert _value("argmin(m, 0)", {"m": M}).tolist() == np.argmin(np.array(M), axis=0).tolist()
    assert _value("argmax(m)", {"m": M}).tolist() == np.argmax(np.array(M))  # of the flattened values


def test_unpacking_gives_both_parts_and_the_values_take_the_gradient_to_the_index():
    result = grad("v, i = torch.max(m, 1); sum(v * 2) + sum(i)", at={"m": M[:2]})
    assert result.value == (3.0 + 4.0) * 2 + (1 + 2)
    assert result.grad["m"].tolist() == [[0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]


def test_the_gradient_is_pytorchs():
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    m = torch.tensor(M, dtype=torch.float64, requires_grad=True)
    (m.min(0).values ** 2).sum().backward()
    result = grad("sum(m.min(0).values ** 2)", at={"m": M})
    np.testing.assert_array_equal(result.grad["m"], m.grad.numpy())


def test_indices_take_no_gradient_and_record_no_node():
    tape = compile_program("m.max(1).indices * m")
    out = tape.nodes[tape.outputs[0]]
    assert not tape.nodes[out.args[0]].requires_grad
    assert grad("sum(argmax(m, 1) * 1.0)", at={"m": M}).grad["m"].tolist() == [[0.0] * 3] * 3


def test_the_values_node_is_pytorchs_maxbackward0():
    run = cli("graph", "--format", "json", "--at", "m=[[1,2],[3,0]]", "--", "sum(m.max(1).values)")
    assert run.exit_code == 0, run.stderr
    assert "MaxBackward0" in run.stdout and "argmax" not in run.stdout.lower()


def test_an_index_from_argmax_indexes_without_making_its_input_an_integer():
    result = grad("v[argmax(v)] * 2", at={"v": [1.0, 5.0, 3.0]})
    assert result.value == 10.0
    assert result.grad["v"].tolist() == [0.0, 2.0, 0.0]
    result = grad("sum(m[0, m.max(1).indices])", at={"m": [[1.0, 2.0], [3.0, 0.0]]})
    assert result.value == 2.0 + 1.0
    assert result.grad["m"].tolist() == [[1.0, 1.0], [0.0, 0.0]]


def test_indices_under_points_are_each_points_own():
    run = cli("grad", "--json", "--points", "-", "--", "v[argmax(v)]",
              stdin='{"v": [1, 5, 3]}\n{"v": [7, 0, 3]}\n')
    assert run.exit_code == 0, run.stderr
    assert [json.loads(line)["value"] for line in run.stdout.splitlines()] == [5.0, 7.0]


def test_a_max_without_dim_is_still_one_value():
    assert grad("max(v)", at={"v": [1.0, 3.0]}).value == 3.0


@pytest.mark.parametrize(("program", "words"), [
    ("v.values", "'.values' needs a tuple of (values, indices)"),
    ("max(v).indices", "'.indices' needs a tuple of (values, indices)"),
    ("v.split(1).values", "'.values' needs a tuple of (values, indices)"),
    ("torch.max(v, 0)[2]", "tuple index out of range"),
    ("a, b, c = torch.max(v, 0); a", "cannot unpack 2 values into 3 names"),
])
def test_values_and_indices_of_anything_else_are_refused(program, words):
    run = cli("grad", "--at", "v=[1,2]", "--", program)
    assert run.exit_code == 2 and run.stdout == ""
    assert words in run.stderr.splitlines()[0], run.stderr


def test_a_max_tuple_as_the_output_gives_both_parts():
    run = cli("grad", "--json", "--at", "v=[1,3,2]", "--seed", "(1, 0)", "--", "torch.max(v, 0)")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] == [3.0, 1.0]


def test_max_over_a_dim_of_nothing_is_pytorchs_error():
    with pytest.raises(GradcliError) as raised:
        grad("argmax(v, 0)", at={"v": np.zeros((0, 2))})
    assert "Expected reduction dim 0 to have non-zero size" in f"{raised.value} {raised.value.hint}"
