"""One lowering of calls for every way in (#21): the spelling says whose semantics, arguments bind as
the named library binds them, and the formula language, `gradcli run` and the --at literals agree.

References: PyTorch where it is installed (float64), else Python's and NumPy's own answers, which
these cases are written so that anyone can check by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli import grad
from tests.helpers import cli

V = [1.0, 2.0, 4.0]
M = [[1.0, 2.0, 3.0], [0.5, -2.0, 4.0]]


def _value(program: str, **point):
    return np.asarray(grad(program, at=point, seed="ones").value, dtype=float)


# --- bare max/min: Python's and mathematics' elementwise maximum, whatever the second argument --------

@pytest.mark.parametrize(("program", "x", "value", "slope"), [
    ("max(x, 0)", 2.0, 2.0, 1.0), ("max(x, 0)", -2.0, 0.0, 0.0),
    ("min(relu(x), 6)", 7.5, 6.0, 0.0), ("min(relu(x), 6)", 2.0, 2.0, 1.0),
    ("min(max(x + 3, 0), 6) / 6", 1.0, 4.0 / 6, 1.0 / 6),  # hardsigmoid as people write it
    ("max(x, 2.0)", 3.0, 3.0, 1.0),
])
def test_bare_max_and_min_of_two_values_are_elementwise(program, x, value, slope):
    result = grad(program, at={"x": x})
    assert result.value == pytest.approx(value)
    assert result.grad["x"] == pytest.approx(slope)


def test_a_ramp_of_a_vector_takes_the_seed_of_its_shape():
    result = grad("max(x, 0)", at={"x": [-1.0, 2.0]}, seed="ones")
    assert np.asarray(result.value).tolist() == [0.0, 2.0]
    assert result.grad["x"].tolist() == [0.0, 1.0]


def test_an_elementwise_max_against_a_list_literal():
    result = grad("sum(g*max([1, 2, 3], g))", at={"g": [1.5, 2.5, 2.5]})
    assert result.value == 1.5 * 1.5 + 2.5 * 2.5 + 2.5 * 3
    assert result.grad["g"].tolist() == [3.0, 5.0, 3.0]


def test_the_ramp_runs_from_the_command_line():
    run = cli("grad", "max(x, 0)", "--at", "x=2", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"] == {"x": 1.0}


# --- torch./methods: PyTorch's overloads; np.: NumPy's ---------------------------------------------

TORCH_CASES = [
    ("torch.max(m, 1)[0]", {"m": M}, lambda t, m: t.max(m, 1)[0]),
    ("m.max(1).values", {"m": M}, lambda t, m: m.max(1).values),
    ("max(m, dim=1)[0]", {"m": M}, lambda t, m: t.max(m, dim=1)[0]),
    ("torch.max(m, w)", {"m": M, "w": [[2.0, 2.0, 2.0], [0.0, 0.0, 5.0]]}, lambda t, m, w: t.max(m, w)),
    ("torch.std(v, False)", {"v": V}, lambda t, v: t.std(v, False)),
    ("torch.std(v, True)", {"v": V}, lambda t, v: t.std(v, True)),
    ("torch.std(m, 0)", {"m": M}, lambda t, m: t.std(m, 0)),
    ("torch.var(m, True)", {"m": M}, lambda t, m: t.var(m, True)),
    ("torch.var(m, 1, False, True)", {"m": M}, lambda t, m: t.var(m, 1, False, True)),
    ("m.std(1, unbiased=False)", {"m": M}, lambda t, m: m.std(1, unbiased=False)),
    ("torch.norm(v, 1)", {"v": V}, lambda t, v: t.norm(v, 1)),
    ("torch.norm(m, 1, 0)", {"m": M}, lambda t, m: t.norm(m, 1, 0)),
    ("torch.sum(m, 0, True)", {"m": M}, lambda t, m: t.sum(m, 0, True)),
    ("torch.gather(m, 1, index=torch.tensor([[0, 0], [1, 2]]))", {"m": M},
     lambda t, m: t.gather(m, 1, index=t.tensor([[0, 0], [1, 2]]))),
    ("torch.gather(m, dim=1, index=torch.tensor([[2], [1]]))", {"m": M},
     lambda t, m: t.gather(m, dim=1, index=t.tensor([[2], [1]]))),
    ("torch.sin(input=v)", {"v": V}, lambda t, v: t.sin(input=v)),
]


@pytest.mark.parametrize(("program", "point", "spelled"), TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_torch_spellings_bind_as_pytorchs_parser_binds(program, point, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True) for name, value in point.items()}
    out = spelled(torch, *tensors.values())
    out.backward(torch.ones_like(out))
    result = grad(program, at=point, seed="ones")
    np.testing.assert_allclose(np.asarray(result.value, dtype=float), out.detach().numpy(), rtol=1e-12)
    for name, tensor in tensors.items():
        np.testing.assert_allclose(result.grad[name], tensor.grad.numpy(), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("program", "point", "numpy_value"), [
    ("np.max(m, 0)", {"m": M}, np.max(np.array(M), 0)),
    ("np.max(m, axis=1)", {"m": M}, np.max(np.array(M), axis=1)),
    ("np.amax(m, 0)", {"m": M}, np.amax(np.array(M), 0)),
    ("np.min(m, 1)", {"m": M}, np.min(np.array(M), 1)),
    ("np.std(v)", {"v": V}, np.std(V)),
    ("np.var(m, 0)", {"m": M}, np.var(np.array(M), 0)),
    ("np.std(v, ddof=1)", {"v": V}, np.std(V, ddof=1)),
    ("numpy.var(v, axis=0, ddof=0)", {"v": V}, np.var(V, axis=0, ddof=0)),
    ("np.sort(m, 0)", {"m": M}, np.sort(np.array(M), 0)),  # (the values: never PyTorch's (values, indices))
    ("np.sort(m)", {"m": M}, np.sort(np.array(M))),
    ("np.sort(m, axis=0)", {"m": M}, np.sort(np.array(M), axis=0)),
])
def test_numpy_spellings_give_numpys_values(program, point, numpy_value):
    np.testing.assert_allclose(_value(program, **point), numpy_value, rtol=1e-12)


def test_numpys_max_never_gives_indices():
    run = cli("grad", "--json", "--seed", "ones", "--at", "m=[[1,5],[3,2]]", "--", "np.max(m, 0)")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] == [3.0, 5.0]
    assert run.json()["grad"]["m"] == [[0.0, 1.0], [1.0, 0.0]]


def test_numpys_sort_gives_the_sorted_values_and_their_gradient():
    m, w = np.array([[3.0, 1.0], [2.0, 4.0]]), np.array([[1.0, 2.0], [3.0, 4.0]])
    result = grad("sum(np.sort(m, 0) * w)", at={"m": m.tolist(), "w": w.tolist()})
    order = np.argsort(m, axis=0)  # (each weight flows back to the element sorted into its place)
    expected = np.zeros_like(m)
    np.put_along_axis(expected, order, w, axis=0)
    assert result.value == pytest.approx(np.sum(np.sort(m, 0) * w))
    np.testing.assert_array_equal(result.grad["m"], expected)
    np.testing.assert_array_equal(result.grad["w"], np.sort(m, 0))


def test_a_bool_is_never_a_dim():
    assert _value("torch.std(v, False)", v=V) == pytest.approx(np.std(V))
    assert _value("torch.std(v, 0)", v=V) == pytest.approx(np.std(V, ddof=1))  # 0 is the dim
    run = cli("grad", "torch.sum(m, True)", "--at", "m=[[1,2],[3,4]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "not True or False" in run.stderr and "^" in run.stderr


def test_the_literals_read_constructors_by_the_same_spelling():
    run = cli("grad", "sum(x)", "--at", "x=torch.ones(2, 3)", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"]["x"] == [[1.0] * 3] * 2
    run = cli("grad", "sum(x)", "--at", "x=np.arange(0, 2, 0.5)", "--json")
    assert run.json()["at"]["x"] == [0.0, 0.5, 1.0, 1.5]
    run = cli("grad", "sum(x)", "--at", "x=ones(2, foo=3)")
    assert run.exit_code == 2 and "unexpected keyword argument 'foo'" in run.stderr


# --- the Python-number rule, one for every front end ----------------------------------------------

@pytest.mark.parametrize(("program", "node", "edges"), [
    ("x ** 2", "PowBackward0", ["AccumulateGrad"]),  # a Python number: Tensor-Scalar
    ("x ** torch.tensor(2.)", "PowBackward1", ["AccumulateGrad", None]),  # a tensor: Tensor-Tensor
    ("x ** tensor(2.)", "PowBackward1", ["AccumulateGrad", None]),
    ("x ** (1 + 1)", "PowBackward0", ["AccumulateGrad"]),  # folded from numbers: still a number
    ("x ** e", "PowBackward0", ["AccumulateGrad"]),
])
def test_a_python_number_and_a_tensor_constant_record_pytorchs_nodes(program, node, edges):
    run = cli("graph", "--format", "json", "--at", "x=1.5", "--", program)
    assert run.exit_code == 0, run.stderr
    nodes = {entry["id"]: entry for entry in run.json()["nodes"]}
    root = nodes[max(nodes)]
    assert root["op"] == node
    assert [None if n is None else nodes[n]["op"] for n in root["next_functions"]] == edges


def test_the_number_rule_against_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    x = torch.tensor(1.5, requires_grad=True)
    assert type((x ** torch.tensor(2.)).grad_fn).__name__ == "PowBackward1"
    assert len((x ** torch.tensor(2.)).grad_fn.next_functions) == 2
    assert len((x ** 2).grad_fn.next_functions) == 1


# --- gradcli run: the same lowering, PyTorch's graph, gradcli's own words for a gap ------------------

def _run(tmp_path, text: str):
    path = tmp_path / "snippet.py"
    path.write_text("import torch\nimport torch.nn.functional as F\n" + text)
    return cli("run", str(path))


@pytest.mark.parametrize("text", [
    "x = torch.tensor([[1., 2., 3.], [1., 0., -1.]], requires_grad=True)\nt = torch.tensor([2, 0])\n"
    "loss = F.cross_entropy(x, t)\nloss.backward()\nprint(loss)\n",
    "x = torch.tensor([[1., 2., 3.]], requires_grad=True)\nprint(F.nll_loss(F.log_softmax(x, 1), torch.tensor([1])))\n",
    "x = torch.tensor([[1., 2., 3.]], requires_grad=True)\nprint(F.layer_norm(x, (3,)))\n",
    "x = torch.ones(1, 1, 4, requires_grad=True)\nw = torch.ones(1, 1, 2)\nprint(F.conv1d(x, w))\n"
    "print(F.conv1d(x, w, None))\n",
    "x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)\nprint(torch.gather(x, 0, torch.tensor([[1, 0]])))\n",
    "x = torch.tensor([1., 2., 3.], requires_grad=True)\nprint(x[torch.tensor([2, 0])])\n",
])
def test_run_takes_valid_pytorch_it_once_refused_with_an_invented_typeerror(tmp_path, text):
    run = _run(tmp_path, text)
    assert run.exit_code == 0, run.stderr
    assert "TypeError" not in run.stderr and run.stdout


def test_run_says_what_it_cannot_take_in_its_own_words(tmp_path):
    # (PyTorch takes `sparse_grad=True`: a sparse gradient, which gradcli has not. expand_copy(implicit=True), which
    # this test held before, is taken now (implicit changes nothing); torch.sum(x, foo=1) is PyTorch's own TypeError,
    # in its words: test_call_forms)
    run = _run(tmp_path, "x = torch.tensor([[1.], [2.]], requires_grad=True)\n"
                         "print(torch.gather(x, 0, torch.tensor([[1], [0]]), sparse_grad=True))\n")
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("gradcli: error: ") and "not supported" in run.stderr and "^" in run.stderr
    assert "TypeError" not in run.stderr


def test_run_refuses_create_graph_through_a_row_it_cannot_differentiate_again(tmp_path):
    run = _run(tmp_path, "x = torch.tensor([[2., 1.], [0., 3.]], requires_grad=True)\ny = torch.det(x)\n"
                         "g, = torch.autograd.grad(y, x, create_graph=True)\n")
    assert run.exit_code == 2 and "create_graph=True through det" in run.stderr and "line 5" in run.stderr


def test_run_and_the_language_record_the_same_graph(tmp_path):
    run = _run(tmp_path, "m = torch.tensor([[1., -2.], [3., 4.]], requires_grad=True)\n"
                         "print(m.T.grad_fn)\nw = torch.where(m > 0, m, 0.)\nprint(len(w.grad_fn.next_functions))\n"
                         "d = F.dropout(m, p=0.0)\nprint(d.grad_fn, d.is_leaf)\n")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("<PermuteBackward0")
    assert lines[1] == "2"
    assert lines[2] == "None True"
    graph = cli("graph", "--format", "json", "--at", "m=[[1,-2],[3,4]]", "--", "sum(where(m > 0, m, 0.) + m.T)")
    ops = {entry["op"] for entry in graph.json()["nodes"]}
    assert "PermuteBackward0" in ops and "TransposeBackward0" not in ops


def test_nothing_here_is_an_internal_error():
    for program in ["max(x, 0)", "min(x, 0)", "torch.max(x, 0)", "np.max(x, 0)", "max(x, dim=0)"]:
        run = cli("grad", program, "--at", "x=[1,-2]", "--seed", "ones")
        assert run.exit_code in (0, 2), (program, run.stderr)
        assert "internal error" not in run.stderr
    assert math.isfinite(grad("max(x, 0) + min(x, 0)", at={"x": 0.5}).value)


# --- dtypes: each row's own rule (Op.dtype), one copy op (ToCopyBackward0) -------------------------

def test_a_copy_in_another_dtype_keeps_the_graph_under_run(tmp_path):
    run = _run(tmp_path, "x = torch.tensor([1., 2.], requires_grad=True)\nd = x.double()\nprint(d.grad_fn, d.dtype)\n"
                         "(d ** 2).sum().backward()\nprint(x.grad, x.grad.dtype)\nprint(x.float().grad_fn)\n"
                         "print(x.to(torch.float64).grad_fn)\nprint(torch.sum(x, 0, dtype=torch.float64))\n")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("<ToCopyBackward0") and lines[0].endswith("torch.float64")
    assert lines[1] == "tensor([2., 4.]) torch.float32"  # the gradient in the leaf's dtype
    assert lines[2] == "None"  # a float32 tensor's float(): itself
    assert lines[3].startswith("<ToCopyBackward0")
    assert lines[4] == "tensor(3., dtype=torch.float64, grad_fn=<SumBackward1>)"


def test_a_copy_in_a_program_is_pytorchs_copy():
    assert grad("x.double() * 2", at={"x": 0.1}).value == 0.2  # float64 already: x itself
    result = grad("x.float() * 1", at={"x": 0.1})
    assert result.value == float(np.float32(0.1))  # rounded to float32, as PyTorch's copy is
    assert result.grad["x"] == 1.0
    graph = cli("graph", "--format", "json", "--at", "x=0.1", "--", "x.to(torch.float32) * 2")
    assert "ToCopyBackward0" in {entry["op"] for entry in graph.json()["nodes"]}
    assert grad("x.to('cpu')", at={"x": 2.0}).value == 2.0


def test_integer_results_are_int64_under_run(tmp_path):
    run = _run(tmp_path, "a = torch.tensor([[1, 5, 3], [4, 2, 6]])\nprint(torch.argmax(a), a.argmin(1))\n"
                         "print(a.max(0))\nprint(a.sum(), (a > 2).sum())\n")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "tensor(5) tensor([0, 1])"
    assert "values=tensor([4, 5, 6])" in run.stdout and "indices=tensor([1, 0, 1])" in run.stdout
    assert lines[-1] == "tensor(21) tensor(4)"  # (5, 3, 4, 6 are past 2)


def test_a_tensor_of_ints_is_class_indices_as_in_pytorch():
    point = {"x": [[1.0, 2.0, 3.0], [1.0, 0.0, -1.0]]}
    result = grad("F.cross_entropy(x, torch.tensor([2, 0]))", at=point)
    assert result.value == pytest.approx(grad("F.cross_entropy(x, [2, 0])", at=point).value, rel=1e-15)
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    x = torch.tensor(point["x"], dtype=torch.float64, requires_grad=True)
    loss = torch.nn.functional.cross_entropy(x, torch.tensor([2, 0]))
    loss.backward()
    assert result.value == pytest.approx(loss.item(), rel=1e-15)
    np.testing.assert_allclose(result.grad["x"], x.grad.numpy(), rtol=1e-15)


def test_a_loss_that_does_not_fit_names_the_call_not_an_internal_row():
    run = cli("grad", "F.cross_entropy(x, torch.tensor([0.2, 0.8]))", "--at", "x=[[1,2],[1,0]]")
    assert run.exit_code == 2 and run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert "cross_entropy cannot take an input of shape (2, 2) with a target of shape (2,)" in first
    assert "_probs" not in first and "shape ()" not in first


@pytest.mark.parametrize(("program", "spelled"), [
    ("max(m, 1).values", lambda t, m: t.max(m, 1).values),  # only the dim form has .values
    ("min(m, 0).indices * 1.0", lambda t, m: t.min(m, 0).indices * 1.0),
    ("min(m, 0, keepdim=True)[0]", lambda t, m: t.min(m, 0, keepdim=True)[0]),  # nor has maximum a keepdim
])
def test_what_only_the_dim_form_has_reads_a_bare_max_as_it(program, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    expected = spelled(torch, torch.tensor(M, dtype=torch.float64)).double().numpy()
    np.testing.assert_array_equal(_value(program, m=M), expected)


def test_a_bare_max_unpacked_into_two_names_is_values_and_indices():
    result = grad("v, i = max(m, 1); sum(v * 2) + sum(i)", at={"m": M})
    assert result.value == (3.0 + 4.0) * 2 + (2 + 2)
    assert result.grad["m"].tolist() == [[0.0, 0.0, 2.0], [0.0, 0.0, 2.0]]


# --- what an attack on the lowering found ---------------------------------------------------------

@pytest.mark.parametrize(("program", "at", "words"), [
    ("math.max(x, 1)", "x=2", "math has no 'max'"),
    ("einsum(x, x).sum()", "x=[[1,2],[3,4]]", "einsum takes its equation first"),
    ("x.triu(10**30).sum()", "x=[[1,2],[3,4]]", "must fit in 64 bits"),
    ("x[1.0]", "x=[1,2,3]", "not a float"),
    ("torch.sum(x, dtype=torch.int64)", "x=[1.5,2.5]", "takes no gradient"),
    ("x.long().sum()", "x=[1.5,2.5]", "takes no gradient"),
])
def test_odd_calls_are_exit_2_naming_what_is_wrong(program, at, words):
    run = cli("grad", program, "--at", at, "--seed", "ones")
    assert run.exit_code == 2 and run.stdout == "", run.stderr
    assert words in run.stderr.splitlines()[0]


def test_a_tuple_output_of_torchs_max_is_its_two_parts():
    run = cli("grad", "torch.max(x, 0)", "--at", "x=2", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] == [2.0, 0.0] and run.json()["grad"] == {"x": 1.0}


def test_a_list_of_bools_is_a_mask_and_a_list_a_size():
    assert grad("x[[True, False, True]].sum()", at={"x": [1.0, 2.0, 3.0]}).value == 4.0  # PyTorch's x[mask]
    run = cli("grad", "x.sum()", "--at", "x=torch.ones([2, 3])", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] == 6.0


def test_an_integer_copy_takes_no_gradient_under_run(tmp_path):
    run = _run(tmp_path, "x = torch.tensor([1.5, 2.5], requires_grad=True)\ny = x.long()\n"
                         "print(y, y.requires_grad, y.grad_fn)\nz = x.sum(dtype=torch.int64)\n")
    assert run.stdout == "tensor([1, 2]) False None\n"
    assert run.exit_code == 1 and run.stderr.strip().splitlines()[-1] == "RuntimeError: Autograd not support dtype: Long"


@pytest.mark.parametrize(("program", "point", "spelled"), [
    ("F.cosine_similarity(x, y, dim=0).sum()", {"x": [[0.1, 0.2], [1.0, 3.0]], "y": [[1.0, 2.0]]},
     lambda t, F, x, y: F.cosine_similarity(x, y, dim=0).sum()),  # broadcast along the dim it reduces
    ("F.cosine_similarity(x, y).sum()", {"x": [[1.0, 2.0, 2.0]], "y": [0.5, -1.0, 3.0]},
     lambda t, F, x, y: F.cosine_similarity(x, y).sum()),
    ("F.kl_div(x, y, reduction='batchmean')", {"x": -1.0, "y": [0.3, 0.7]},
     lambda t, F, x, y: F.kl_div(x, y, reduction="batchmean")),  # a 0-d input: no batch to divide by
])
def test_composites_broadcast_as_pytorchs_do(program, point, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True) for name, value in point.items()}
    out = spelled(torch, torch.nn.functional, *tensors.values())
    out.backward()
    result = grad(program, at=point)
    assert result.value == pytest.approx(out.item(), rel=1e-12)
    for name, tensor in tensors.items():
        np.testing.assert_allclose(result.grad[name], tensor.grad.numpy(), rtol=1e-12, atol=1e-15)


def test_a_constructors_odd_dtype_says_what_it_must_be():
    run = cli("grad", "sum(x)", "--at", "x=torch.tensor([1, 2], [3])")
    assert run.exit_code == 2 and "dtype must be a name, as in dtype=torch.float64" in run.stderr


@pytest.mark.parametrize("program", ["np.std(v, unbiased=True)", "np.var(v, correction=0)", "torch.std(v, ddof=1)",
                                     "v.var(ddof=0)"])
def test_a_keyword_of_the_other_library_is_refused_as_it_is_there(program):
    run = cli("grad", program, "--at", "v=[1,2,4]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "unexpected keyword argument" in run.stderr.splitlines()[0]
