"""The reductions beyond sum and mean: prod, max/min, amax/amin, ... with dim, keepdim and PyTorch's special points.

References: PyTorch where it is installed (values, gradients and the backward node, live; the
test skips without torch), and without it the arithmetic each case is defined by.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gradcli import GradcliError, compile_program, grad
from gradcli.autodiff import hessian
from gradcli.torch_graph import backward_graph
from tests.helpers import cli

nan, inf = math.nan, math.inf
M = [[1.0, 3.0, 3.0], [0.5, -2.0, 4.0]]  # ties in the first row
ZERO = [[1.0, 0.0, 3.0], [2.0, -2.0, 4.0]]  # one zero
ZEROS = [[0.0, 2.0, 0.0], [2.0, -2.0, 4.0]]  # two zeros, in one row

# (program, point, the same in PyTorch: t is torch, the inputs by name)
TORCH_CASES = [
    ("prod(v)", {"v": [2.0, -3.0, 0.5]}, lambda t, v: t.prod(v)),
    ("prod(v)", {"v": [2.0, 0.0, 0.5]}, lambda t, v: t.prod(v)),
    ("prod(v)", {"v": [0.0, 0.0, 0.5]}, lambda t, v: t.prod(v)),
    ("prod(v)", {"v": [inf, 0.0, 0.5]}, lambda t, v: t.prod(v)),
    ("prod(v)", {"v": [nan, 2.0]}, lambda t, v: t.prod(v)),
    ("prod(v)", {"v": [inf, 2.0]}, lambda t, v: t.prod(v)),
    ("prod(m, 1)", {"m": ZERO}, lambda t, m: t.prod(m, 1)),
    ("prod(m, 1)", {"m": ZEROS}, lambda t, m: t.prod(m, 1)),
    ("m.prod(dim=-2, keepdim=True)", {"m": ZEROS}, lambda t, m: m.prod(dim=-2, keepdim=True)),
    ("prod(m, 0)", {"m": M}, lambda t, m: t.prod(m, 0)),
    ("prod(x)", {"x": 3.0}, lambda t, x: t.prod(x)),
    ("max(v)", {"v": [1.0, 3.0, 3.0, 3.0]}, lambda t, v: t.max(v)),
    ("max(v)", {"v": [1.0, nan, 3.0, nan]}, lambda t, v: t.max(v)),
    ("max(v)", {"v": [inf, 1.0, inf]}, lambda t, v: t.max(v)),
    ("min(v)", {"v": [-inf, 1.0, -inf]}, lambda t, v: t.min(v)),
    ("v.min()", {"v": [0.0, -0.0, 1.0]}, lambda t, v: v.min()),
    ("max(m)", {"m": M}, lambda t, m: t.max(m)),
    ("torch.max(m, 1).values", {"m": M}, lambda t, m: t.max(m, 1).values),
    ("torch.max(m, 0)[0]", {"m": [[1.0, nan], [nan, 2.0], [1.0, nan]]}, lambda t, m: t.max(m, 0).values),
    ("m.max(dim=-1, keepdim=True).values", {"m": M}, lambda t, m: m.max(dim=-1, keepdim=True).values),
    ("min(m, axis=0).values", {"m": [[1.0, 2.0], [1.0, 2.0]]}, lambda t, m: t.min(m, 0).values),
    ("torch.max(x, 0)[0]", {"x": 2.0}, lambda t, x: t.max(x, 0).values),
    ("amax(m)", {"m": M}, lambda t, m: t.amax(m)),
    ("amax(m, 1)", {"m": M}, lambda t, m: t.amax(m, 1)),
    ("amax(m, (0, 1), keepdim=True)", {"m": M}, lambda t, m: t.amax(m, (0, 1), keepdim=True)),
    ("amax(v)", {"v": [1.0, nan, nan]}, lambda t, v: t.amax(v)),
    ("amin(v)", {"v": [-inf, -inf, 2.0]}, lambda t, v: t.amin(v)),
    ("m.amin(-1)", {"m": [[2.0, 2.0, 2.0], [1.0, 2.0, 1.0]]}, lambda t, m: m.amin(-1)),
    ("np.amax(m, axis=0, keepdims=True)", {"m": M}, lambda t, m: t.amax(m, 0, keepdim=True)),
    ("logsumexp(m, 1)", {"m": M}, lambda t, m: t.logsumexp(m, 1)),
    ("logsumexp(m, (0, 1), keepdim=True)", {"m": M}, lambda t, m: t.logsumexp(m, (0, 1), keepdim=True)),
    ("m.logsumexp(-2)", {"m": [[inf, -inf, 1.0], [inf, -inf, nan]]}, lambda t, m: m.logsumexp(-2)),
    ("torch.special.logsumexp(v, 0)", {"v": [-inf, -inf]}, lambda t, v: t.special.logsumexp(v, 0)),
    ("var(m)", {"m": M}, lambda t, m: t.var(m)),
    ("var(m, 1)", {"m": M}, lambda t, m: t.var(m, 1)),
    ("m.var(0, keepdim=True, correction=0)", {"m": M}, lambda t, m: m.var(0, keepdim=True, correction=0)),
    ("m.var(unbiased=False)", {"m": M}, lambda t, m: m.var(unbiased=False)),
    ("var(m, (0, 1), False)", {"m": M}, lambda t, m: t.var(m, (0, 1), False)),
    ("var(v)", {"v": [2.0]}, lambda t, v: t.var(v)),
    ("var(v, correction=2)", {"v": [1.0, 2.0]}, lambda t, v: t.var(v, correction=2)),
    ("var(v, 0, correction=2)", {"v": [1.0, 2.0]}, lambda t, v: t.var(v, 0, correction=2)),
    ("var(v, correction=0.5)", {"v": [1.0, 2.0, 4.0]}, lambda t, v: t.var(v, correction=0.5)),
    ("var(x)", {"x": 3.0}, lambda t, x: t.var(x)),
    ("std(m)", {"m": M}, lambda t, m: t.std(m)),
    ("m.std(1, keepdim=True)", {"m": M}, lambda t, m: m.std(1, keepdim=True)),
    ("std(v)", {"v": [2.0, 2.0, 2.0]}, lambda t, v: t.std(v)),
    ("std(v, correction=2)", {"v": [1.0, 2.0]}, lambda t, v: t.std(v, correction=2)),
    ("std(v, unbiased=False)", {"v": [1.0, nan]}, lambda t, v: t.std(v, unbiased=False)),
    ("softmax(v)", {"v": [1.0, 2.0, 3.0]}, lambda t, v: t.softmax(v, 0)),
    ("softmax(v)", {"v": [0.0, -inf]}, lambda t, v: t.softmax(v, 0)),
    ("softmax(v)", {"v": [inf, 1.0]}, lambda t, v: t.softmax(v, 0)),
    ("softmax(v)", {"v": [1000.0, -1000.0, 999.0]}, lambda t, v: t.softmax(v, 0)),
    ("softmax(m, -1)", {"m": M}, lambda t, m: t.softmax(m, -1)),
    ("F.softmax(m, dim=0)", {"m": M}, lambda t, m: t.nn.functional.softmax(m, dim=0)),
    ("softmax(x, 0)", {"x": 3.0}, lambda t, x: t.softmax(x, 0)),
    ("log_softmax(v)", {"v": [1.0, 2.0, 3.0]}, lambda t, v: t.log_softmax(v, 0)),
    ("log_softmax(v)", {"v": [0.0, -inf]}, lambda t, v: t.log_softmax(v, 0)),
    ("m.log_softmax(1)", {"m": M}, lambda t, m: m.log_softmax(1)),
    ("F.log_softmax(m, 0)", {"m": [[1000.0, 1.0, 3.0], [-1000.0, 1.0, nan]]}, lambda t, m: t.log_softmax(m, 0)),
    ("cumsum(v)", {"v": [1.0, inf, -inf, 2.0]}, lambda t, v: t.cumsum(v, 0)),
    ("m.cumsum(-1)", {"m": M}, lambda t, m: m.cumsum(-1)),
    ("np.cumsum(m, axis=0)", {"m": M}, lambda t, m: t.cumsum(m, 0)),
    ("cumprod(v)", {"v": [2.0, -3.0, 0.5, 4.0]}, lambda t, v: t.cumprod(v, 0)),
    ("cumprod(v)", {"v": [2.0, 0.0, 0.5, 4.0]}, lambda t, v: t.cumprod(v, 0)),
    ("cumprod(v)", {"v": [2.0, 0.0, 0.5, 0.0, 3.0]}, lambda t, v: t.cumprod(v, 0)),
    ("cumprod(v)", {"v": [0.0, 0.0]}, lambda t, v: t.cumprod(v, 0)),
    ("cumprod(v)", {"v": [inf]}, lambda t, v: t.cumprod(v, 0)),
    ("m.cumprod(1)", {"m": ZEROS}, lambda t, m: m.cumprod(1)),
    ("cumprod(m, 0)", {"m": ZERO}, lambda t, m: t.cumprod(m, 0)),
    ("cumprod(x, 0)", {"x": 3.0}, lambda t, x: t.cumprod(x, 0)),
    ("logcumsumexp(v)", {"v": [1.0, 2.0, -1.0]}, lambda t, v: t.logcumsumexp(v, 0)),
    ("logcumsumexp(v)", {"v": [-inf, 1.0, inf, 2.0]}, lambda t, v: t.logcumsumexp(v, 0)),
    ("logcumsumexp(v)", {"v": [1000.0, -1000.0, 1000.0]}, lambda t, v: t.logcumsumexp(v, 0)),
    ("m.logcumsumexp(0)", {"m": M}, lambda t, m: m.logcumsumexp(0)),
    ("norm(m)", {"m": M}, lambda t, m: t.norm(m)),
    ("norm(v)", {"v": [0.0, 0.0]}, lambda t, v: t.norm(v)),
    ("norm(m, 1)", {"m": ZERO}, lambda t, m: t.norm(m, 1)),
    ("norm(m, p=1, dim=0)", {"m": ZERO}, lambda t, m: t.norm(m, p=1, dim=0)),
    ("m.norm(3, dim=-1, keepdim=True)", {"m": ZERO}, lambda t, m: m.norm(3, dim=-1, keepdim=True)),
    ("norm(m, 'fro')", {"m": M}, lambda t, m: t.norm(m, "fro")),
    ("norm(m, 'fro', dim=1)", {"m": M}, lambda t, m: t.norm(m, "fro", dim=1)),
    ("torch.linalg.vector_norm(m, ord=0.5, dim=1)", {"m": ZERO}, lambda t, m: t.linalg.vector_norm(m, ord=0.5, dim=1)),
    ("norm(v, 1.5)", {"v": [0.0, 0.0, 0.0]}, lambda t, v: t.norm(v, 1.5)),
    ("norm(v, 3)", {"v": [0.0, 0.0]}, lambda t, v: t.norm(v, 3)),
    ("norm(v, 0)", {"v": [0.0, 2.0, -1.0]}, lambda t, v: t.norm(v, 0)),
    ("norm(m, 2, (0, 1))", {"m": M}, lambda t, m: t.norm(m, 2, (0, 1))),
]
SEEDS = ["ones", "nan-first"]  # all ones; NaN at the output's first element (a NaN from elsewhere)


def _seed(shape: tuple[int, ...], kind: str) -> np.ndarray:
    seed = np.ones(shape)
    if kind == "nan-first":
        seed.reshape(-1)[:1] = nan
    return seed


def _same(ours: np.ndarray, theirs: np.ndarray) -> bool:
    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    return ours.shape == theirs.shape and bool(np.all((np.isnan(ours) & np.isnan(theirs)) | np.isclose(
        ours, theirs, rtol=1e-14, atol=0.0)))


@pytest.mark.parametrize(("program", "point", "spelled"), TORCH_CASES, ids=[f"{c[0]}@{c[1]}" for c in TORCH_CASES])
@pytest.mark.parametrize("seed_kind", SEEDS)
@pytest.mark.filterwarnings("ignore:.*degrees of freedom is <= 0")
def test_value_gradient_and_node_match_pytorch(program, point, spelled, seed_kind):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    tensors = {n: torch.tensor(v, dtype=torch.float64, requires_grad=True) for n, v in point.items()}
    out = spelled(torch, **tensors)
    seed = _seed(tuple(out.shape), seed_kind)
    out.backward(torch.tensor(seed))
    tape = compile_program(program)
    result = grad(tape, at=point, seed=seed.tolist() if seed.shape else float(seed))
    assert _same(result.value, out.detach().numpy()), (result.value, out)
    for name, tensor in tensors.items():
        expected = torch.zeros_like(tensor) if tensor.grad is None else tensor.grad
        assert _same(result.grad[name], expected.numpy()), (name, result.grad[name], expected)
    nodes = {node.id: node for node in backward_graph(tape, tape.outputs, result.values)}
    assert nodes[tape.outputs[0]].op == type(out.grad_fn).__name__


HESSIAN_CASES = [
    ("prod(v) ** 2", {"v": [2.0, -3.0, 0.5]}, lambda t, v: t.prod(v) ** 2),
    ("prod(v) * v[0]", {"v": [2.0, 0.0, 0.5]}, lambda t, v: t.prod(v) * v[0]),
    ("sum(prod(m, 1) ** 2)", {"m": ZERO}, lambda t, m: (t.prod(m, 1) ** 2).sum()),
    ("max(v) ** 2", {"v": [1.0, 3.0, 3.0]}, lambda t, v: t.max(v) ** 2),
    ("sum(torch.max(m, 1).values ** 2)", {"m": M}, lambda t, m: (t.max(m, 1).values ** 2).sum()),
    ("sum(amin(m, 0) ** 3)", {"m": M}, lambda t, m: (t.amin(m, 0) ** 3).sum()),
    ("sum(logsumexp(m, 1) ** 2)", {"m": M}, lambda t, m: (t.logsumexp(m, 1) ** 2).sum()),
    ("sum(var(m, 0) * std(m, 0))", {"m": M}, lambda t, m: (t.var(m, 0) * t.std(m, 0)).sum()),
    ("std(v)", {"v": [1.0, 2.0, 4.0]}, lambda t, v: t.std(v)),
    ("sum(softmax(m, 1) * m)", {"m": M}, lambda t, m: (t.softmax(m, 1) * m).sum()),
    ("sum(log_softmax(m, 0) ** 2)", {"m": M}, lambda t, m: (t.log_softmax(m, 0) ** 2).sum()),
    ("sum(cumsum(m, 1) ** 3)", {"m": M}, lambda t, m: (t.cumsum(m, 1) ** 3).sum()),
    ("sum(cumprod(v) * v)", {"v": [2.0, -3.0, 0.5, 4.0]}, lambda t, v: (t.cumprod(v, 0) * v).sum()),
    ("sum(cumprod(v) * v)", {"v": [2.0, 0.0, 0.5, 4.0]}, lambda t, v: (t.cumprod(v, 0) * v).sum()),
    ("sum(logcumsumexp(m, 1) ** 2)", {"m": M}, lambda t, m: (t.logcumsumexp(m, 1) ** 2).sum()),
    ("sum(norm(m, 3, 1) ** 2)", {"m": M}, lambda t, m: (t.norm(m, 3, 1) ** 2).sum()),
    ("norm(m, 1.5) * norm(m, 1)", {"m": M}, lambda t, m: t.norm(m, 1.5) * t.norm(m, 1)),
]


@pytest.mark.parametrize(("program", "point", "spelled"), HESSIAN_CASES, ids=[c[0] for c in HESSIAN_CASES])
def test_hessian_matches_pytorchs_double_backward(program, point, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    (name, value), = point.items()
    expected = torch.autograd.functional.hessian(lambda x: spelled(torch, x),
                                                 torch.tensor(value, dtype=torch.float64)).numpy()
    np.testing.assert_allclose(hessian(program, at=point).blocks[name][name], expected, rtol=1e-13, atol=0.0)


# --- without torch: the arithmetic each special point is defined by ---------------------------

def test_prod_with_one_zero_sends_the_product_of_the_others_to_it():
    result = grad("prod(v)", at={"v": [2.0, 0.0, 0.5, 3.0]})
    assert result.value == 0.0
    assert result.grad["v"].tolist() == [0.0, 2.0 * 0.5 * 3.0, 0.0, 0.0]


def test_prod_with_two_zeros_has_a_zero_gradient_even_for_a_nan_seed():
    assert grad("prod(v)", at={"v": [0.0, 0.0, 7.0]}, seed=nan).grad["v"].tolist() == [0.0, 0.0, 0.0]


def test_prod_over_a_dim_is_exact_in_each_slice():
    result = grad("sum(prod(m, dim=1))", at={"m": ZEROS})
    assert result.value == 0.0 + 2.0 * -2.0 * 4.0
    assert result.grad["m"].tolist() == [[0.0, 0.0, 0.0], [-8.0, 8.0, -4.0]]


def test_max_of_one_tensor_splits_the_gradient_among_its_ties():
    result = grad("max(v)", at={"v": [1.0, 3.0, 3.0, 3.0]})
    assert result.value == 3.0
    assert result.grad["v"].tolist() == [0.0, 1 / 3, 1 / 3, 1 / 3]


def test_max_over_a_dim_sends_the_gradient_to_the_first_of_the_ties():
    result = grad("sum(torch.max(m, 1)[0])", at={"m": M})
    assert result.value == 3.0 + 4.0
    assert result.grad["m"].tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def test_amax_splits_the_gradient_among_the_ties_of_each_slice():
    assert grad("sum(amax(m, -1))", at={"m": M}).grad["m"].tolist() == [[0.0, 0.5, 0.5], [0.0, 0.0, 1.0]]


@pytest.mark.parametrize(("program", "point", "value"), [
    ("max(a, b)", {"a": 1.0, "b": 2.0}, 2.0),  # two tensors: elementwise
    ("max(v, 0.5)", {"v": [0.0, 1.0]}, [0.5, 1.0]),  # a float: elementwise
    ("torch.max(v, 0)[0]", {"v": [0.0, 1.0]}, 1.0),  # torch's, an int: the dim, as in PyTorch
    ("v.max(0)[0]", {"v": [0.0, 1.0]}, 1.0),  # the method too
    ("max(v, 0)", {"v": [-1.0, 1.0]}, [0.0, 1.0]),  # bare: Python's max(a, b), elementwise (a ramp)
    ("min(v, 0)", {"v": [-1.0, 1.0]}, [-1.0, 0.0]),
    ("np.max(m, 0)", {"m": [[0.0, 3.0], [1.0, 2.0]]}, [1.0, 3.0]),  # NumPy's: the values alone
    ("np.max(m, axis=1)", {"m": [[0.0, 3.0], [1.0, 2.0]]}, [3.0, 2.0]),
    ("v.max(w)", {"v": [0.0, 1.0], "w": [2.0, -1.0]}, [2.0, 1.0]),
    ("min(v, dim=0).values", {"v": [0.0, 1.0]}, 0.0),
    ("minimum(v, 0)", {"v": [-1.0, 1.0]}, [-1.0, 0.0]),
])
def test_max_and_min_are_a_reduction_of_one_tensor_and_elementwise_of_two(program, point, value):
    assert np.asarray(grad(program, at=point, seed="ones").value).tolist() == value


@pytest.mark.parametrize(("program", "shape", "message"), [
    ("max(v)", (0,), "max(): Expected reduction dim to be specified for input.numel() == 0"),
    ("amin(v)", (0,), "amin(): Expected reduction dim to be specified for input.numel() == 0"),
    ("torch.max(v, 0)", (0, 2), "max(): Expected reduction dim 0 to have non-zero size"),
    ("amax(v, -1)", (2, 0), "amax(): Expected reduction dim -1 to have non-zero size"),
])
def test_max_of_nothing_is_pytorchs_error(program, shape, message):
    with pytest.raises(GradcliError) as raised:
        grad(program, at={"v": np.zeros(shape)})
    assert message in f"{raised.value} {raised.value.hint}"


@pytest.mark.parametrize(("program", "message"), [
    ("torch.max(m, 2)", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ("torch.max(m, (0, 1))", "dim must be a whole number"),
    ("prod(m, 1.0)", "dim must be a whole number, got 1.0"),
])
def test_dims_out_of_range_or_not_whole_are_errors(program, message):
    run = cli("grad", program, "--at", "m=[[1,2],[3,4]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert message in run.stderr and "Traceback" not in run.stderr


def test_var_and_std_use_pytorchs_correction_of_1_by_default():
    v = [1.0, 2.0, 4.0]  # mean 7/3, squares 16/9 + 1/9 + 25/9 = 42/9
    assert grad("var(v)", at={"v": v}).value == pytest.approx(42 / 9 / 2, rel=1e-15)
    assert grad("var(v, unbiased=False)", at={"v": v}).value == pytest.approx(42 / 9 / 3, rel=1e-15)
    assert grad("np.var(v, ddof=0)", at={"v": v}).value == pytest.approx(42 / 9 / 3, rel=1e-15)
    np.testing.assert_allclose(grad("var(v)", at={"v": v}).grad["v"], [2 / 2 * (x - 7 / 3) for x in v], rtol=1e-15)
    result = grad("std(v)", at={"v": v})
    assert result.value == pytest.approx(math.sqrt(42 / 9 / 2), rel=1e-15)
    np.testing.assert_allclose(result.grad["v"], [(x - 7 / 3) / 2 / math.sqrt(42 / 9 / 2) for x in v], rtol=1e-14)


def test_std_of_equal_values_has_a_zero_gradient_as_in_pytorch():
    assert grad("std(v)", at={"v": [2.0, 2.0, 2.0]}).grad["v"].tolist() == [0.0, 0.0, 0.0]


def test_softmax_sums_to_one_and_its_sum_has_no_gradient():
    result = grad("sum(softmax(m, dim=-1))", at={"m": M})
    assert result.value == pytest.approx(2.0, rel=1e-15)
    np.testing.assert_allclose(result.grad["m"], np.zeros((2, 3)), atol=1e-16)
    e = np.exp(np.asarray(M[0]) - 3.0)
    np.testing.assert_allclose(grad("log_softmax(v)", at={"v": M[0]}, seed="ones").value,
                               np.asarray(M[0]) - 3.0 - math.log(e.sum()), rtol=1e-15)


def test_softmax_of_a_matrix_needs_a_dim():
    run = cli("grad", "sum(softmax(m))", "--at", "m=[[1,2],[3,4]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "softmax of a 2-D value needs dim=" in run.stderr


def test_cumprod_with_zeros_is_exact():
    # d/dv_i of sum(cumprod(v)) = sum over k >= i of the product of v_0..v_k without v_i
    v = [2.0, 0.0, 0.5, 3.0]
    result = grad("sum(cumprod(v))", at={"v": v})
    assert result.value == 2.0
    assert result.grad["v"].tolist() == [1.0, 2.0 + 2.0 * 0.5 + 2.0 * 0.5 * 3.0, 0.0, 0.0]


def test_scans_of_a_matrix_need_a_dim():
    run = cli("grad", "sum(cumsum(m))", "--at", "m=[[1,2],[3,4]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "cumsum of a 2-D value needs dim=" in run.stderr


def test_prod_of_nothing_is_one_with_an_empty_gradient():
    result = grad("prod(v)", at={"v": np.zeros(0)})
    assert result.value == 1.0 and result.grad["v"].shape == (0,)


@pytest.mark.parametrize(("spelled", "plain"), [
    ("m.prod(1)", "prod(m, 1)"), ("torch.prod(m, dim=1, keepdim=True)", "prod(m, 1, True)"),
    ("np.prod(m, axis=(0, 1))", "prod(m, (0, 1))"), ("m.max()", "max(m)"), ("torch.max(m, dim=-1)", "max(m, dim=-1)"),
    ("m.min(0)", "min(m, dim=0)"), ("np.amax(m, 0)", "amax(m, 0)"), ("m.amin(axis=1, keepdims=True)", "amin(m, 1, True)"),
    ("torch.special.logsumexp(m, 1)", "logsumexp(m, 1)"), ("m.logsumexp(dim=0, keepdim=True)", "logsumexp(m, 0, True)"),
    ("m.var(0, unbiased=False)", "var(m, 0, False)"), ("np.std(m, axis=1, ddof=0)", "std(m, 1, correction=0)"),
    ("F.softmax(m, dim=1)", "softmax(m, 1)"), ("m.log_softmax(-1)", "log_softmax(m, -1)"),
    ("torch.nn.functional.log_softmax(m, 0)", "log_softmax(m, 0)"),
    ("m.cumsum(dim=1)", "cumsum(m, 1)"), ("np.cumprod(m, axis=0)", "cumprod(m, 0)"),
    ("torch.logcumsumexp(m, -1)", "logcumsumexp(m, -1)"),
    ("torch.linalg.vector_norm(m, ord=1, dim=0)", "norm(m, 1, 0)"), ("m.norm(p=3, keepdim=True)", "norm(m, 3, None, True)"),
])
def test_pytorch_and_numpy_spellings_give_the_plain_tape(spelled, plain):
    a, b = compile_program(spelled), compile_program(plain)
    assert [(n.op and n.op.name, n.args, n.params) for n in a.nodes] == [(n.op and n.op.name, n.args, n.params)
                                                                         for n in b.nodes]


# --- every view of a program that uses them -------------------------------------------------

PROGRAM = ("sum(prod(m, 1)) + max(m) + sum(amax(m, 0)) + sum(torch.max(m, -1).values) * min(m) + sum(amin(m, 1, keepdim=True))"
           " + logsumexp(m) + sum(var(m, 0) * std(m, 1, keepdim=True)) + sum(softmax(m, 1) * log_softmax(m, 0))"
           " + sum(cumsum(m, 0) * cumprod(m, 1)) + sum(logcumsumexp(m, -1))")
AT = "m=[[1,2,3],[0.5,-1,4]]"


def test_paths_add_up_to_the_gradient():
    run = cli("grad", PROGRAM, "--at", AT, "--paths", "--json")
    assert run.exit_code == 0, run.stderr
    document = run.json()
    paths = document["paths"]["m"]
    assert paths["total_paths"] == len(paths["listed"]) == 14
    total = sum(np.asarray(path["contribution"]) for path in paths["listed"]) + np.asarray(paths["unlisted"])
    np.testing.assert_allclose(total, document["grad"]["m"], rtol=1e-15)


@pytest.mark.parametrize("arguments", [
    ("explain", PROGRAM, "--at", AT), ("grad", PROGRAM, "--at", AT, "--symbolic"),
    ("grad", PROGRAM, "--at", AT, "--check"), ("jacobian", "amax(m, 0) * prod(m, 0)", "--at", AT),
    ("hessian", PROGRAM, "--at", AT), ("jvp", PROGRAM, "--at", AT, "--tangent", "m=[[1,0,0],[0,1,0]]"),
    ("graph", PROGRAM, "--at", AT),
])
def test_every_view_takes_them(arguments):
    run = cli(*arguments)
    assert run.exit_code == 0, run.stderr
    assert run.stdout


def test_a_batch_of_points_gives_what_each_point_gives(tmp_path):
    points = [{"m": [[1, 2, 3], [0.5, -1, 4]]}, {"m": [[0, 2, 0], [3, 3, 1]]}, {"m": [[-1, -1, 2], [2, 0, 2]]}]
    path = tmp_path / "points.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in points))
    run = cli("grad", PROGRAM, "--points", str(path), "--format", "json")
    assert run.exit_code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    for point, line in zip(points, lines, strict=True):
        alone = grad(PROGRAM, at={"m": np.asarray(point["m"], dtype=float)})
        assert line["value"] == alone.value
        assert line["grad"]["m"] == alone.grad["m"].tolist()
