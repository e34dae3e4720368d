"""Integer-list indexing (#12, point 4): `v[[0, 2]]`, `m[[0, 1], [1, 0]]`, `m[:, [2, 0]]`, with NumPy's
(and PyTorch's) values, repeated indices accumulating the gradient as IndexBackward0 does."""

from __future__ import annotations

import json

import numpy as np
import pytest

from gradcli import grad
from tests.helpers import central_difference, cli

V = np.array([0.5, -1.25, 2.0, 3.5])
M = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])


@pytest.mark.parametrize(("program", "name", "reference"), [
    ("v[[0, 2]]", "v", lambda v: v[[0, 2]]),
    ("v[[3, 3, 0, 3]]", "v", lambda v: v[[3, 3, 0, 3]]),
    ("v[[-1, 0]]", "v", lambda v: v[[-1, 0]]),
    ("m[[0, 1], [1, 0]]", "m", lambda m: m[[0, 1], [1, 0]]),
    ("m[:, [2, 0, 2]]", "m", lambda m: m[:, [2, 0, 2]]),
    ("m[[1, 1]]", "m", lambda m: m[[1, 1]]),
    ("m[1, [0, 0]]", "m", lambda m: m[1, [0, 0]]),
    # PyTorch's reading: ints and Nones first (a view), then the index lists on it (were "too many indices")
    ("m[None, 1, [2, 0]]", "m", lambda m: m[None][:, 1][:, [2, 0]]),
    ("m[1, None, [2, 0]]", "m", lambda m: m[1][None][:, [2, 0]]),
    ("m[[1, 0], None, 2]", "m", lambda m: m[:, None, 2][[1, 0]]),
    ("m[..., [2, 0]]", "m", lambda m: m[:, [2, 0]]),
    # a 0-d bool among the items: a new axis there, indexed with [0] (True) or [] (False), as PyTorch's applySlicing
    ("m[torch.tensor(True), 0]", "m", lambda m: m[None][:, 0][[0]]),
    ("m[1, torch.tensor(False)]", "m", lambda m: m[1][None][[]]),
    ("m[:, True, 1]", "m", lambda m: m[:, None][:, :, 1][:, [0]]),
    ("m[torch.tensor(True), [1, 0]]", "m", lambda m: m[None][[0], [1, 0]]),
    ("m[False, ...]", "m", lambda m: m[None][[]]),
    ("m[True]", "m", lambda m: m[None]),
    ("m[torch.tensor(True)]", "m", lambda m: m[None]),
    # a bool tensor is a mask, as the list of bools is (it was read as the indices 1 and 0)
    ("m[torch.tensor([True, False])]", "m", lambda m: m[[0]]),
    ("m[torch.tensor([1, 0], dtype=torch.bool)]", "m", lambda m: m[[0]]),
])
def test_integer_list_indexing_gives_numpys_value_and_the_gradient_of_central_differences(program, name, reference):
    x = {"v": V, "m": M}[name]
    result = grad(program, at={name: x}, seed="ones")
    np.testing.assert_array_equal(result.value, reference(x))
    expected = central_difference(lambda args: float(np.sum(reference(args[0]))), [x], 0)
    np.testing.assert_allclose(result.grad[name], expected, rtol=1e-7)


def test_repeated_indices_accumulate_the_gradient():
    run = cli("grad", "--json", "--at", "v=[1,2,3]", "--", "sum(v[[0, 0, 2, 0]] * [1, 2, 3, 4])")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"]["v"] == [7.0, 0.0, 3.0]  # 1 + 2 + 4 into v[0], 3 into v[2]


def test_integer_list_indexing_is_index_backward():
    run = cli("graph", "--format", "json", "--at", "v=[1,2,3]", "--", "sum(v[[0, 2]])")
    assert run.exit_code == 0, run.stderr
    assert "IndexBackward0" in run.stdout


def test_integer_list_indexing_with_points_gives_each_point():
    run = cli("grad", "--json", "--points", "-", "--", "sum(v[[1, 1]] ** 2)", stdin='{"v": [1, 2]}\n{"v": [3, 4]}\n')
    assert run.exit_code == 0, run.stderr
    assert [json.loads(line)["grad"]["v"] for line in run.stdout.splitlines()] == [[0.0, 8.0], [0.0, 16.0]]


@pytest.mark.parametrize(("program", "words"), [
    ("v[[0, 3]]", "index 3 is out of range for size 3"),
    ("v[[0.5]]", "whole number"),
])
def test_a_bad_index_list_is_refused_naming_it(program, words):
    run = cli("grad", "--at", "v=[1,2,3]", "--seed", "ones", "--", program)
    assert run.exit_code == 2
    assert run.stdout == ""
    assert words in run.stderr.splitlines()[0]


# --- integer inputs: an input used as an index ------------------------------------------------

W = np.array([1.0, 2.0, 3.0, 4.0])


def test_an_index_input_picks_and_accumulates_like_pytorch_and_takes_no_gradient():
    run = cli("grad", "--json", "--at", "v=[0.5,-1.25,2,3.5],idx=[3,0,3,1]", "--", "sum(v[idx] * [1, 2, 3, 4])")
    assert run.exit_code == 0, run.stderr
    out = run.json()
    idx = [3, 0, 3, 1]
    assert out["value"] == pytest.approx(float(np.sum(V[idx] * W)))
    expected = central_difference(lambda args: float(np.sum(args[0][idx] * W)), [V], 0)
    np.testing.assert_allclose(out["grad"]["v"], expected, rtol=1e-7)
    assert "idx" not in out["grad"]


def test_an_index_input_gets_zeros_under_wrt_and_no_column_elsewhere():
    run = cli("grad", "--json", "--at", "v=[1,2,3],idx=[2,0]", "--wrt", "v,idx", "--", "sum(v[idx])")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"] == {"v": [1.0, 0.0, 1.0], "idx": [0.0, 0.0]}
    table = cli("grad", "--at", "v=[1,2,3],idx=[2,0]", "--", "sum(v[idx])")
    assert table.exit_code == 0, table.stderr
    assert "idx" not in table.stdout
    csv = cli("grad", "--csv", "--points", "-", "--", "sum(v[idx])", stdin='{"v": [1, 2, 3], "idx": [2, 0]}\n')
    assert csv.exit_code == 0, csv.stderr
    assert "idx" not in csv.stdout.splitlines()[0]


def test_rows_and_cols_inputs_index_a_matrix():
    run = cli("grad", "--json", "--at", "m=[[1,-2,3],[0.5,4,-1.5]],rows=[1,0,1],cols=[2,2,0]", "--",
              "sum(m[rows, cols] ** 2)")
    assert run.exit_code == 0, run.stderr
    rows, cols = [1, 0, 1], [2, 2, 0]
    expected = central_difference(lambda args: float(np.sum(args[0][rows, cols] ** 2)), [M], 0)
    np.testing.assert_allclose(run.json()["grad"]["m"], expected, rtol=1e-7)
    assert set(run.json()["grad"]) == {"m"}


def test_an_index_computed_from_an_input_makes_it_an_integer_input():
    run = cli("grad", "--json", "--at", "v=[1,2,3],i=[0,1]", "--", "j = i * 1; sum(v[j + 1] * i)")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"] == {"v": [0.0, 0.0, 1.0]}  # v[1] * 0 + v[2] * 1


def test_index_inputs_at_many_points():
    run = cli("grad", "--json", "--points", "-", "--", "sum(v[idx] ** 2)",
              stdin='{"v": [1, 2, 3], "idx": [0, 0]}\n{"v": [1, 2, 3], "idx": [2, 1]}\n')
    assert run.exit_code == 0, run.stderr
    grads = [json.loads(line)["grad"] for line in run.stdout.splitlines()]
    assert grads == [{"v": [4.0, 0.0, 0.0]}, {"v": [0.0, 4.0, 6.0]}]


def test_index_inputs_with_a_slice_before_them_at_many_points():
    stdin = '{"m": [[1, 2, 3], [4, 5, 6]], "c": [2, 0]}\n{"m": [[1, 2, 3], [4, 5, 6]], "c": [1, 1]}\n'
    run = cli("grad", "--json", "--seed", "[[1, 2], [3, 4]]", "--points", "-", "--", "m[:, c]", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["value"] for line in lines] == [[[3.0, 1.0], [6.0, 4.0]], [[2.0, 2.0], [5.0, 5.0]]]
    assert [line["grad"]["m"] for line in lines] == [[[2.0, 0.0, 1.0], [4.0, 0.0, 3.0]], [[0.0, 3.0, 0.0], [0.0, 7.0, 0.0]]]


@pytest.mark.parametrize(("at", "words"), [
    ("v=[1,2,3],idx=[0,1.5]", "input 'idx' is used as an index: its values must be whole numbers, got 1.5"),
    ("v=[1,2,3],idx=[0,3]", "index 3 is out of range for size 3"),
    ("v=[1,2,3],idx=[-4]", "index -4 is out of range for size 3"),
])
def test_a_bad_index_input_is_refused_naming_it(at, words):
    run = cli("grad", "--at", at, "--seed", "ones", "--", "v[idx]")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert words in run.stderr.splitlines()[0]


def test_an_out_of_range_index_at_one_of_many_points_is_refused():
    run = cli("grad", "--json", "--points", "-", "--", "sum(v[idx])",
              stdin='{"v": [1, 2, 3], "idx": [0]}\n{"v": [1, 2, 3], "idx": [7]}\n')
    assert run.exit_code == 2
    assert "index 7 is out of range for size 3" in run.stderr


def test_index_graph_lists_only_the_indexed_tensor_as_pytorch_does():
    torch = pytest.importorskip("torch")
    v = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    out = v[torch.tensor([2, 0])].sum()
    index_node = out.grad_fn.next_functions[0][0]
    run = cli("graph", "--format", "json", "--at", "v=[1,2,3],idx=[2,0]", "--", "sum(v[idx])")
    assert run.exit_code == 0, run.stderr
    nodes = {node["id"]: node for node in run.json()["nodes"]}
    index = next(node for node in nodes.values() if node["op"] == type(index_node).__name__)
    assert len(index["next_functions"]) == len(index_node.next_functions) == 1


X = np.arange(12.0).reshape(2, 3, 2) / 7 - 0.5


@pytest.mark.parametrize(("program", "picks"), [
    ("x[c, :, c]", lambda x, c: x[c, :, c]),
    ("x[0, :, c]", lambda x, c: x[0][:, c]),
    ("x[:, c]", lambda x, c: x[:, c]),
    ("x[c]", lambda x, c: x[c]),
    ("x[1, [2, 0], c]", lambda x, c: x[1][[2, 0], c]),
])
def test_index_inputs_at_many_points_give_each_points_value_and_gradient(program, picks):
    indices = [[1, 0], [0, 0]]
    stdin = "".join(json.dumps({"x": X.tolist(), "c": c}) + "\n" for c in indices)
    run = cli("grad", "--json", "--points", "-", "--", f"sum(({program}) ** 2)", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    for line, c in zip(run.stdout.splitlines(), indices, strict=True):
        out = json.loads(line)
        assert out["value"] == pytest.approx(float(np.sum(picks(X, c) ** 2)))
        expected = central_difference(lambda args, c=c: float(np.sum(picks(args[0], c) ** 2)), [X], 0)
        np.testing.assert_allclose(out["grad"]["x"], expected, rtol=1e-6, atol=1e-9)


def test_the_hessian_and_sympy_see_an_index_input_as_numbers_of_the_point():
    at = "v=[1,2,3],idx=[2,0,2]"
    hessian = cli("hessian", "--json", "--at", at, "--", "sum(v[idx] ** 2)")
    assert hessian.exit_code == 0, hessian.stderr
    counts = np.bincount([2, 0, 2], minlength=3)  # d2/dv_k2 of sum over picks of v**2: 2 per pick
    assert hessian.json()["hessian"] == {"v": {"v": np.diag(2.0 * counts).tolist()}}
    check = cli("grad", "--check", "--at", at, "--", "sum(v[idx] ** 2)")
    assert check.exit_code == 0, check.stdout + check.stderr
    assert "SymPy: agrees" in check.stdout


def test_what_is_computed_from_index_inputs_alone_takes_no_gradient():
    run = cli("grad", "--at", "v=[1,2,3],idx=[2,0]", "--of", "j", "--", "j = idx * 2; sum(v[j - 2])")
    assert run.exit_code == 2
    assert "'j' does not require grad" in run.stderr and "integer inputs" in run.stderr
    mixed = cli("grad", "--json", "--at", "v=[1,2,3],idx=[2,0],x=2", "--", "y = sum(idx * x); y + sum(v[idx])")
    assert mixed.exit_code == 0, mixed.stderr
    assert mixed.json()["grad"] == {"x": 2.0, "v": [1.0, 0.0, 1.0]}  # d/dx sum(idx * x) = sum(idx) = 2


# --- gather, take, index_select ----------------------------------------------------------------

GATHERS = [
    ("torch.gather(m, 1, i)", "i=[[2,2],[0,1]]", lambda m, i: np.take_along_axis(m, np.array(i), 1)),
    ("m.gather(0, i)", "i=[[1,0,1]]", lambda m, i: np.take_along_axis(m, np.array(i), 0)),
    ("gather(m, -1, i)", "i=[[0],[2]]", lambda m, i: np.take_along_axis(m, np.array(i), -1)),
    ("torch.take(m, i)", "i=[5,0,5,-1]", lambda m, i: np.take(m, i)),
    ("m.take(i)", "i=[[1,2],[3,3]]", lambda m, i: np.take(m, i)),
    ("torch.index_select(m, 1, i)", "i=[2,0,2]", lambda m, i: np.take(m, i, axis=1)),
    ("m.index_select(0, i)", "i=[1,1]", lambda m, i: np.take(m, i, axis=0)),
]


@pytest.mark.parametrize(("program", "at", "reference"), GATHERS)
def test_gather_take_and_index_select_give_numpys_values_and_the_gradient_of_central_differences(program, at, reference):
    run = cli("grad", "--json", "--at", f"m=[[1,-2,3],[0.5,4,-1.5]],{at}", "--", f"sum(({program}) ** 2)")
    assert run.exit_code == 0, run.stderr
    index = json.loads(at.split("=", 1)[1])
    assert run.json()["value"] == pytest.approx(float(np.sum(reference(M, index) ** 2)))
    expected = central_difference(lambda args: float(np.sum(reference(args[0], index) ** 2)), [M], 0)
    np.testing.assert_allclose(run.json()["grad"]["m"], expected, rtol=1e-7, atol=1e-9)
    assert set(run.json()["grad"]) == {"m"}


@pytest.mark.parametrize(("program", "node"), [("gather(m, 1, i)", "GatherBackward0"), ("take(m, i)", "TakeBackward0"),
                                               ("index_select(m, 1, i)", "IndexSelectBackward0")])
def test_gather_take_and_index_select_are_pytorchs_nodes_with_one_next_function(program, node):
    run = cli("graph", "--format", "json", "--at", "m=[[1,2],[3,4]],i=[[0,1],[1,1]]" if "gather" in program
              else "m=[[1,2],[3,4]],i=[1,0]", "--", f"sum({program})")
    assert run.exit_code == 0, run.stderr
    found = [n for n in run.json()["nodes"] if n["op"] == node]
    assert len(found) == 1 and len(found[0]["next_functions"]) == 1


@pytest.mark.parametrize(("program", "at", "words"), [
    ("gather(v, 0, i)", "i=[-1]", "index -1 is out of bounds for dimension 0 with size 3"),  # (no negatives)
    ("index_select(v, 0, i)", "i=[3]", "index out of range in self"),  # (each in PyTorch's words)
    ("take(v, i)", "i=[-4]", "out of range: tried to access index -4 on a tensor of 3 elements."),
    ("take(v, i)", "i=[0.5]", "input 'i' is used as an index"),
])
def test_gather_take_and_index_select_refuse_a_bad_index(program, at, words):
    run = cli("grad", "--at", f"v=[1,2,3],{at}", "--seed", "ones", "--", program)
    assert run.exit_code == 2
    assert run.stdout == ""
    assert words in run.stderr.splitlines()[0]


@pytest.mark.parametrize(("program", "reference"), [
    ("gather(m, 1, i)", lambda m, i: np.take_along_axis(m, np.array(i), 1)),
    ("take(m, i)", lambda m, i: np.take(m, i)),
    ("index_select(m, 1, i)", lambda m, i: np.take(m, i, axis=1)),
])
def test_gather_take_and_index_select_at_many_points(program, reference):
    indices = [[[2, 0], [1, 1]], [[0, 0], [2, 1]]] if "gather" in program else [[2, 0], [1, 1]]
    stdin = "".join(json.dumps({"m": M.tolist(), "i": i}) + "\n" for i in indices)
    run = cli("grad", "--json", "--points", "-", "--", f"sum(({program}) ** 2)", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    for line, i in zip(run.stdout.splitlines(), indices, strict=True):
        expected = central_difference(lambda args, i=i: float(np.sum(reference(args[0], i) ** 2)), [M], 0)
        np.testing.assert_allclose(json.loads(line)["grad"]["m"], expected, rtol=1e-7, atol=1e-9)


_V, _M = {"x": [1.0, 2.0, 3.0]}, {"x": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}


@pytest.mark.parametrize(("program", "call", "point"), [
    ("x[[[1, 0]]]", lambda x: x[[[1, 0]]], _V), ("x[[[[1]]]]", lambda x: x[[[[1]]]], _V),
    ("x[[[1, 0]]]", lambda x: x[[[1, 0]]], _M), ("x[[[0, 1], [1, 2]]]", lambda x: x[[[0, 1], [1, 2]]], _M),
    ("x[[[1, 0]], 1]", lambda x: x[[[1, 0]], 1], _M), ("x[[1, 0]]", lambda x: x[[1, 0]], _M)])
def test_a_list_index_holding_lists_is_a_tuple_of_indices_as_pytorch_reads_it(program, call, point):
    # PyTorch 2.13's treatSequenceAsTuple: x[[[1, 0]]] is x[[1, 0]] (with its deprecation warning); x[[1, 0]] one index
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = grad(program, at=point, seed="ones")
        tensor = torch.tensor(point["x"], dtype=torch.float64, requires_grad=True)
        out = call(tensor)
    out.backward(torch.ones_like(out))
    assert np.shape(result.value) == tuple(out.shape) and np.allclose(result.value, out.detach().numpy())
    assert np.allclose(result.grad["x"], tensor.grad.numpy())
