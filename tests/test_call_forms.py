"""Calls bound as PyTorch's argument parser binds them, through the formula language (issue #21).

What fuzz/call_forms.py found (every positional prefix, keyword order and overload of PyTorch's signatures,
held to PyTorch): each case here is held to an independent reference -- NumPy's own function, or PyTorch's
words where PyTorch refuses the call. `gradcli run` is held to PyTorch's recorded output by the run cases
(tests/run_cases/svd_compute_uv_false.py, call_forms_refused.py).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import GradcliError
from tests.helpers import cli

M = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])


def _svd_values_and_gradient(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sum(S) and its gradient U V^T (the reduced factors), by NumPy."""
    u, s, vh = np.linalg.svd(m, full_matrices=False)
    return s.sum(), u @ vh


@pytest.mark.parametrize("program", ["sum(torch.svd(m, True, False)[1])", "sum(torch.svd(m, compute_uv=False).S)",
                                     "sum(m.svd(False, False)[1])", "sum(torch.svd(m, some=False, compute_uv=False)[1])"])
def test_svd_without_vectors_gives_the_singular_values(program):
    value, gradient = _svd_values_and_gradient(M)
    result = grad(program, at={"m": M})
    assert np.isclose(result.value, value, rtol=1e-12)
    assert np.allclose(result.grad["m"], gradient, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("part, shape", [(0, (2, 2)), (2, (3, 3))])
@pytest.mark.parametrize("some", [True, False])
def test_svd_without_vectors_gives_u_and_v_of_zeros(part, shape, some):
    # (PyTorch's U and V are zeros of (m, m) and (n, n) whatever `some` says, and constants)
    result = grad(f"torch.svd(m, {some}, False)[{part}]", at={"m": M}, seed="ones")
    assert np.shape(result.value) == shape
    assert not np.any(result.value)
    assert not np.any(result.grad["m"])


A = np.array([[1.0, 2.0, 4.0], [3.0, 3.0, 6.0]])


@pytest.mark.parametrize("program", [
    "sum(torch.addmm(c, a, b, 0.5))",  # (beta and alpha by keyword alone)
    "sum(c.addmm(a, b, 0.5))",
    "sum(torch.addcmul(a, a, a, 2.0))",
    "sum(torch.round(a, 1))",  # (decimals by keyword alone)
    "sum(torch.aminmax(a, 0)[0])",
    "sum(torch.sort(a, 0, True, False)[0])",  # (stable by keyword alone)
    "torch.std(a, 1, 0)[0]",  # (an int is not a bool to PyTorch's parser)
    "sum(torch.var(a, 0, True, 1))",
    "sum(a.sum(0, 1))",
    "sum(torch.cumsum(a, 0, 1))",
    "sum(torch.gradient(a, 2.0)[0])",  # (spacing by keyword alone)
    "sum(F.hardtanh(a, 2.0))",  # (min_val above max_val: F.hardtanh's ValueError)
])
def test_a_call_pytorch_refuses_is_refused(program):
    with pytest.raises(GradcliError):
        grad(program, at={name: value for name, value in {"a": A, "b": A.T, "c": np.ones((2, 2))}.items()
                          if re.search(rf"\b{name}\b", program)})


@pytest.mark.parametrize("program, reference", [
    ("sum(torch.addmm(c, a, b, beta=0.5, alpha=2.0))", lambda a, b, c: np.sum(0.5 * c + 2.0 * a @ b)),
    ("sum(addmm(c, a, b, 0.5, 2.0))", lambda a, b, c: np.sum(0.5 * c + 2.0 * a @ b)),  # (bare: every param by position)
    ("sum(torch.addcmul(a, a, a, value=2.0))", lambda a, b, c: np.sum(a + 2.0 * a * a)),
    ("sum(round(a / 3, 1))", lambda a, b, c: np.sum(np.round(a / 3, 1))),  # (Python's round(x, ndigits))
    ("sum(np.round(a / 3, 1))", lambda a, b, c: np.sum(np.round(a / 3, 1))),
    ("sum(torch.aminmax(a, dim=0)[1])", lambda a, b, c: np.sum(np.max(a, axis=0))),
    ("sum(torch.sort(a, 0, True)[0] * a)", lambda a, b, c: np.sum(-np.sort(-a, axis=0) * a)),
    ("torch.std(a, 1, False)[0]", lambda a, b, c: np.std(a[0])),  # (dim=1, unbiased=False)
    ("torch.std(a, False)", lambda a, b, c: np.std(a)),
    ("sum(torch.cumsum(a, 0, dtype=torch.float64))", lambda a, b, c: np.sum(np.cumsum(a, axis=0))),
])
def test_the_forms_pytorch_takes_still_answer(program, reference):
    point = {"a": A, "b": A.T, "c": np.ones((2, 2))}
    result = grad(program, at={name: value for name, value in point.items() if re.search(rf"\b{name}\b", program)})
    assert np.isclose(result.value, reference(**point), rtol=1e-12)


N = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, -6.0]])


@pytest.mark.parametrize("program, ord, axis", [
    ("torch.linalg.norm(m, 1)", 1, None), ("np.linalg.norm(m, 1)", 1, None), ("np.linalg.norm(m, np.inf)", np.inf, None),
    ("torch.linalg.norm(m, -1)", -1, None), ("np.linalg.norm(m, 2)", 2, None), ("torch.linalg.norm(m, 'nuc')", "nuc", None),
    ("np.linalg.norm(m)", None, None), ("torch.linalg.norm(m, ord=1, dim=(1, 0))", 1, (1, 0)),
    ("np.linalg.norm(m, 3, axis=1)", 3, 1), ("torch.linalg.norm(m, dim=0)", None, 0),
])
def test_linalg_norm_of_a_matrix_with_an_ord_is_the_matrix_norm(program, ord, axis):
    # (NumPy's np.linalg.norm is the reference: its semantics are torch.linalg.norm's)
    expected = np.linalg.norm(N, ord, axis=axis)
    result = grad(program, at={"m": N}, seed="ones")
    assert np.allclose(result.value, expected, rtol=1e-12)
    step = 1e-6  # (away from ties: central differences of the seeded sum)
    numeric = np.zeros_like(N)
    for index in np.ndindex(N.shape):
        up, down = N.copy(), N.copy()
        up[index] += step
        down[index] -= step
        numeric[index] = (np.sum(np.linalg.norm(up, ord, axis=axis)) - np.sum(np.linalg.norm(down, ord, axis=axis))) / (2 * step)
    assert np.allclose(result.grad["m"], numeric, rtol=1e-6, atol=1e-7)


def test_torch_norm_stays_the_vector_norm_of_every_entry():
    assert grad("torch.norm(m, 1)", at={"m": N}).value == np.sum(np.abs(N))
    assert grad("m.norm(1)", at={"m": N}).value == np.sum(np.abs(N))


@pytest.mark.parametrize("program, reference", [
    ("sum(torch.mm(a, mat2=b))", lambda a, b: np.sum(a @ b)),
    ("sum(torch.mm(input=a, mat2=b))", lambda a, b: np.sum(a @ b)),
    ("sum(torch.bmm(a[None], mat2=b[None]))", lambda a, b: np.sum(a @ b)),
    ("sum(torch.mv(a, vec=b[0]))", lambda a, b: np.sum(a @ b[0])),
    ("torch.dot(a[0], tensor=b[1])", lambda a, b: a[0] @ b[1]),
    ("sum(torch.outer(a[0], vec2=b[1]))", lambda a, b: np.sum(np.outer(a[0], b[1]))),
    ("sum(torch.pow(a, exponent=b))", lambda a, b: np.sum(a ** b)),
    ("sum(a.pow(exponent=b))", lambda a, b: np.sum(a ** b)),
])
def test_a_tensor_arg_by_its_pytorch_keyword(program, reference):
    a, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.5, 1.0], [1.5, 2.0]])
    assert np.isclose(grad(program, at={"a": a, "b": b}).value, reference(a, b), rtol=1e-12)


X = np.array([-1.5, 0.25, 2.0, 7.0])


@pytest.mark.parametrize("program, reference", [
    ("sum(F.elu(a, 2.0, False))", lambda a: np.sum(np.where(a > 0, a, 2.0 * np.expm1(a)))),
    ("sum(F.celu(a, 2.0, False))", lambda a: np.sum(np.where(a > 0, a, 2.0 * np.expm1(a / 2.0)))),
    ("sum(F.relu6(a, False))", lambda a: np.sum(np.clip(a, 0, 6))),
    ("sum(F.relu(a, False))", lambda a: np.sum(np.maximum(a, 0))),
    ("sum(F.hardtanh(a, 0.5, 2, False))", lambda a: np.sum(np.clip(a, 0.5, 2))),
    ("sum(F.leaky_relu(a, 2, False))", lambda a: np.sum(np.where(a > 0, a, 2 * a))),
    ("sum(F.leaky_relu(a, 2, inplace=False))", lambda a: np.sum(np.where(a > 0, a, 2 * a))),
    ("sum(F.silu(a, False))", lambda a: np.sum(a / (1 + np.exp(-a)))),
    ("sum(F.hardsigmoid(a, False))", lambda a: np.sum(np.clip(a + 3, 0, 6) / 6)),
    ("sum(F.threshold(a, 0.1, 2.0, False))", lambda a: np.sum(np.where(a > 0.1, a, 2.0))),
    ("sum(F.softmin(a, 0, 3))", lambda a: 1.0),  # (_stacklevel by position: where PyTorch's warning points)
    ("sum(F.softmax(a, 0, _stacklevel=5))", lambda a: 1.0),
])
def test_the_activations_take_inplace_false_and_stacklevel_by_position(program, reference):
    assert grad(program, at={"a": X}).value == pytest.approx(reference(X), rel=1e-12)


@pytest.mark.parametrize("program", ["sum(F.relu(a, True))", "sum(F.elu(a, 1.0, inplace=True))",
                                     "sum(F.hardtanh(a, -1.0, 1.0, True))"])
def test_inplace_true_in_a_formula_is_refused_at_the_arg(program):
    run = cli("grad", program, "--at", "a=[1, -2]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "(..., inplace=True) writes into its input" in run.stderr and "^" in run.stderr


M3 = np.array([[-1.0, 0.5, 2.0], [0.25, 1.0, -0.5]])
T3 = np.array([[0.0, 1.0, 3.0], [0.0, 2.0, 3.0]])


@pytest.mark.parametrize("program, reference", [
    ("sum(torch.trapezoid(m, x=t))", lambda m, t: np.sum(np.trapezoid(m, x=t))),
    ("sum(torch.cumulative_trapezoid(m, x=t)[:, -1])", lambda m, t: np.sum(np.trapezoid(m, x=t))),
    ("sum(m.narrow_copy(1, 1, 2) * t[:, :2])", lambda m, t: np.sum(m[:, 1:3] * t[:, :2])),
    ("sum(m.fliplr() * t)", lambda m, t: np.sum(m[:, ::-1] * t)),
    ("sum(m.flipud() * t)", lambda m, t: np.sum(m[::-1] * t)),
])
def test_keyword_tensors_and_methods_pytorch_has(program, reference):
    assert grad(program, at={"m": M3, "t": T3}).value == pytest.approx(reference(M3, T3), rel=1e-12)


@pytest.mark.parametrize("program, words", [
    ("sum(torch.exp(a, 0))", "exp takes 1 argument, got 2"),
    ("sum(torch.sum(a, 0, bogus=1))", "unexpected keyword argument 'bogus'"),
    ("torch.std(a, 0, True, False, 0)", "std takes 4 arguments, got 5"),
])
def test_a_formula_says_what_pytorch_refuses_in_its_own_words(program, words):
    # (`run` gives PyTorch's TypeError, its listing of signatures included: tests/run_cases/call_forms_typeerrors.py)
    run = cli("grad", program, "--at", "a=[1, -2]")
    assert run.exit_code == 2 and run.stdout == ""
    assert words in run.stderr and "^" in run.stderr and "TypeError" not in run.stderr


W = np.array([[1.0, 2.0], [3.0, -3.0], [4.0, 6.0]])
S = np.array([[0.5, 1.5]])


@pytest.mark.parametrize("program, reference", [
    ("sum(torch.index_add(a, 0, i, b, alpha=2.0) * a)", lambda a, b: np.sum((a + 2.0 * np.eye(3)[1][:, None] * b) * a)),
    ("sum(index_add(a, 0, i, b, 2.0) * a)", lambda a, b: np.sum((a + 2.0 * np.eye(3)[1][:, None] * b) * a)),  # (bare)
    ("sum(torch.gather(a, 0, i[None].expand(1, 2), sparse_grad=False) * b)", lambda a, b: np.sum(a[1] * b)),
    ("sum(a.expand(2, 3, 2, implicit=True) * a)", lambda a, b: 2 * np.sum(a * a)),
    ("sum(torch.clone(a, memory_format=torch.contiguous_format) * a)", lambda a, b: np.sum(a * a)),
    ("sum(torch.cat(tensors=[a, a], dim=1) * torch.cat([a, a], 1))", lambda a, b: 2 * np.sum(a * a)),
    ("sum(torch.stack(tensors=[a, a]))", lambda a, b: 2 * np.sum(a)),
    ("sum(F.embedding(i, a, sparse=False) * b)", lambda a, b: np.sum(a[1] * b)),
])
def test_keyword_only_args_by_keyword_answer(program, reference):
    point = {"a": W, "b": S, "i": np.array([1])}
    result = grad(program, at={name: value for name, value in point.items() if re.search(rf"\b{name}\b", program)},
                  wrt=["a"])
    assert result.value == pytest.approx(reference(W, S), rel=1e-12)


@pytest.mark.parametrize("program, words", [
    ("sum(torch.index_add(a, 0, i, b, 2.0))", "index_add() takes 4 positional arguments but 5 were given"),
    ("sum(a.index_add(0, i, b, 2.0))", "index_add() takes 3 positional arguments but 4 were given"),
    ("sum(torch.index_reduce(a, 0, i, b, 'prod', False))", "index_reduce() takes 5 positional arguments but 6 were given"),
    ("sum(torch.gather(a, 0, i[None], False))", "gather() takes 3 positional arguments but 4 were given"),
    ("sum(torch.gather(a, 0, i[None], sparse_grad=True))", "sparse_grad= is not supported (a sparse gradient"),
    ("sum(F.normalize(a, 1, 0, 2, b))", "out= is not supported"),  # (F.normalize's div(..., out=out))
    ("sum(F.embedding(i, a, max_norm=1.0))", "max_norm= is not supported"),
    ("sum(F.embedding(i, a, None, False))", "max_norm= is not supported"),  # (False is not None: a max_norm of 0)
    ("sum(F.embedding(i, a, sparse=True))", "sparse= is not supported (a sparse gradient"),
    # (F.embedding passes these on to torch.embedding, whose parser refuses them; its own assert first)
    ("sum(F.embedding(i, a, 0.5))", "embedding(): argument 'padding_idx' (position 3) must be int, not float"),
    ("sum(F.embedding(i, a, scale_grad_by_freq=1))",
     "embedding(): argument 'scale_grad_by_freq' (position 4) must be bool, not int"),
    ("sum(F.embedding(i, a, sparse=0))", "embedding(): argument 'sparse' (position 5) must be bool, not int"),
    ("sum(F.embedding(i, a, -4))", "Padding_idx must be within num_embeddings"),
    ("sum(torch.broadcast_to(a, (2, 3, 2), implicit=True))", "unexpected keyword argument 'implicit'"),
])
def test_what_pytorch_takes_by_keyword_alone_or_gradcli_has_not_is_refused(program, words):
    run = cli("grad", program, "--at", "a=[[1, 2], [3, -3], [4, 6]]", "--at", "b=[[0.5, 1.5]]", "--at", "i=[1]")
    assert run.exit_code == 2 and run.stdout == ""
    assert words in run.stderr and "^" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("program, words", [
    # (`run` refuses torch.maximum(x, 0) too, as PyTorch does: tests/run_cases/call_forms_numbers_for_tensors.py; the
    # formula language takes an elementwise row's number as it takes one in x + 1)
    ("sum(torch.trapezoid(a, 0))", "trapezoid() received an invalid combination of arguments"),
    ("sum(torch.cumulative_trapezoid(a, 0))", "cumulative_trapezoid() received an invalid combination of arguments"),
    ("sum(torch.dist(a, 0))", "dist(): argument 'other' (position 2) must be Tensor, not int"),
])
def test_a_number_for_a_tensor_that_pytorch_refuses_is_refused(program, words):
    run = cli("grad", program, "--at", "a=[[1, 2], [3, -3]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert words in run.stderr and "^" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("program, reference", [
    ("sum(max(a, 0))", lambda a: np.sum(np.maximum(a, 0))),  # (the bare spelling: mathematics' maximum)
    ("sum(maximum(a, 0))", lambda a: np.sum(np.maximum(a, 0))),
    ("sum(np.maximum(a, 0))", lambda a: np.sum(np.maximum(a, 0))),
    ("sum(atan2(a, 1.0))", lambda a: np.sum(np.arctan2(a, 1.0))),
    ("sum(torch.add(a, 1))", lambda a: np.sum(a + 1)),  # (PyTorch takes a number for a tensor here)
    ("sum(torch.pow(a, 2))", lambda a: np.sum(a ** 2)),  # (and where an overload takes a Number)
    ("sum(torch.where(a > 0, a, 0.))", lambda a: np.sum(np.where(a > 0, a, 0))),
    ("sum(torch.trapezoid(a, dx=0.5))", lambda a: np.sum(np.trapezoid(a, dx=0.5))),
])
def test_a_number_for_a_tensor_where_the_spelling_takes_one(program, reference):
    a = np.array([[1.0, 2.0], [3.0, -3.0]])
    assert grad(program, at={"a": a}).value == pytest.approx(reference(a), rel=1e-12)


def _select_scatter(a: np.ndarray, src: np.ndarray, dim: int, index: int) -> np.ndarray:
    out = a.copy()
    np.moveaxis(out, dim, 0)[index] = src
    return out


def _diagonal_scatter(a: np.ndarray, src: np.ndarray, offset: int = 0) -> np.ndarray:
    out = a.copy()
    rows = np.arange(len(src)) + max(-offset, 0)
    out[rows, rows + offset] = src
    return out


@pytest.mark.parametrize("program, reference", [
    ("torch.select_scatter(a, src=b, dim=0, index=1)", lambda a, b: _select_scatter(a, b, 0, 1)),
    ("torch.select_scatter(a, index=1, dim=-1, src=b[:2])", lambda a, b: _select_scatter(a, b[:2], -1, 1)),
    ("torch.select_scatter(input=a, src=b, dim=0, index=0)", lambda a, b: _select_scatter(a, b, 0, 0)),
    ("torch.diagonal_scatter(a, src=b[:2])", lambda a, b: _diagonal_scatter(a, b[:2])),
    ("torch.diagonal_scatter(a, dim2=1, dim1=0, offset=1, src=b[:2])", lambda a, b: _diagonal_scatter(a, b[:2], 1)),
])
def test_the_scatters_take_src_by_keyword(program, reference):
    a, b = np.array([[1.0, 2.0, 4.0], [3.0, -3.0, 6.0]]), np.array([0.5, 1.5, -2.0])
    seed = np.arange(6.0).reshape(2, 3) + 1
    result = grad(program, at={"a": a, "b": b}, seed=seed)
    assert np.array_equal(result.value, reference(a, b))
    expected_a = np.where(reference(np.zeros_like(a), np.ones_like(b)) != 0, 0.0, seed)  # (where src lands, no gradient)
    assert np.array_equal(result.grad["a"], expected_a)


@pytest.mark.parametrize("program", ["sum(torch.movedim(a, (1,), -1))", "sum(a.movedim(1, [0]))",
                                     "sum(torch.moveaxis(a, source=(1,), destination=0))"])
def test_movedim_of_an_int_and_a_list_is_refused_as_pytorch_refuses_it(program):
    # (PyTorch's overloads: two ints, or two int[] of no size; `run` gives its TypeError: run_cases/call_forms_forms28.py)
    run = cli("grad", program, "--at", "a=[[1, 2], [3, 4]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "takes source and destination both ints or both lists of ints" in run.stderr and "^" in run.stderr


@pytest.mark.parametrize("program, reference", [
    ("sum(np.moveaxis(a, (1,), 0) * w)", lambda a: np.moveaxis(a, 1, 0)),
    ("sum(np.moveaxis(a, 1, (0,)) * w)", lambda a: np.moveaxis(a, 1, 0)),  # (NumPy takes either)
    ("sum(torch.movedim(a, (1,), (-2,)) * w)", lambda a: np.moveaxis(a, 1, 0)),
    ("sum(a.movedim(1, 0) * w)", lambda a: np.moveaxis(a, 1, 0)),
    ("sum(torch.roll(a, 1, (0,)) * w)", lambda a: np.roll(a, 1, 0)),  # (int[1] shifts and dims: either)
])
def test_movedim_of_two_ints_or_two_lists_and_numpy_of_either_answer(program, reference):
    a, w = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 10.0], [100.0, 1000.0]])
    assert grad(program, at={"a": a, "w": w}).value == np.sum(reference(a) * w)


@pytest.mark.parametrize("program, reference", [
    ("sum(torch.tensordot(a, w, 1, None))", lambda a, w: np.sum(a @ w)),  # (its 4th positional arg is out)
    ("sum(torch.tensordot(a, w, ([1], [0]), out=None))", lambda a, w: np.sum(a @ w)),
    ("sum(torch.sin(a, out=None) * w)", lambda a, w: np.sum(np.sin(a) * w)),  # (out=None: no out, for any function)
    ("sum(torch.linalg.inv(a, out=None) * w)", lambda a, w: np.sum(np.linalg.inv(a) * w)),
])
def test_out_none_is_no_out(program, reference):
    a, w = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 10.0], [100.0, 1000.0]])
    assert grad(program, at={"a": a, "w": w}).value == pytest.approx(reference(a, w), rel=1e-12)


@pytest.mark.parametrize("program, words", [
    ("sum(torch.tensordot(a, a, 1, 2))", "tensordot(): argument 'out' must be Tensor, not int"),
    ("sum(torch.tensordot(a, a, 1, (0, 1)))", "tensordot(): argument 'out' must be Tensor, not tuple"),
    ("sum(torch.tensordot(a, a, 1, a))", "out= is not supported"),
])
def test_tensordot_out_other_than_none_is_refused(program, words):
    run = cli("grad", program, "--at", "a=[[1, 2], [3, 4]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert words in run.stderr and "^" in run.stderr


def test_repeat_interleave_takes_output_size_and_holds_it_to_the_length():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    result = grad("sum(torch.repeat_interleave(a, 2, 1, output_size=4) * w)", at={"a": a, "w": np.arange(8.0).reshape(2, 4)})
    assert result.value == np.sum(np.repeat(a, 2, axis=1) * np.arange(8.0).reshape(2, 4))
    run = cli("grad", "sum(torch.repeat_interleave(a, 2, 1, output_size=1))", "--at", "a=[[1, 2], [3, 4]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "repeat_interleave: Invalid output_size, expected 4 but got 1" in run.stderr and "^" in run.stderr


@pytest.mark.parametrize("program", ["sum(torch.repeat_interleave(a))", "sum(a.repeat_interleave())"])
def test_repeat_interleave_without_repeats_is_refused(program):
    # (under `run`: PyTorch's NotImplementedError of a float tensor, its TypeError of the method:
    # run_cases/call_forms_forms28.py)
    run = cli("grad", program, "--at", "a=[[1, 2], [3, 4]]")
    assert run.exit_code == 2 and run.stdout == "" and "repeats" in run.stderr and "^" in run.stderr


@pytest.mark.parametrize("program", ["F.dropout(a, 1) + b", "F.dropout(a, 1.0, True) + b",
                                     "F.feature_alpha_dropout(a, 1, True) + b"])
def test_dropout_of_p_1_is_the_input_times_zero(program):
    # (PyTorch draws nothing there: input * zeros(()), MulBackward0; a gradient of zeros into a)
    a, b = np.array([[1.0, -2.0], [3.0, 4.0]]), np.array([[0.5, 0.25], [2.0, 1.0]])
    result = grad(program, at={"a": a, "b": b}, seed="ones")
    assert np.array_equal(result.value, b) and np.array_equal(result.grad["a"], np.zeros((2, 2)))
    run = cli("graph", f"sum({program})", "--at", "a=[[1, -2], [3, 4]]", "--at", "b=[[0.5, 0.25], [2, 1]]")
    assert run.exit_code == 0 and "MulBackward0" in run.stdout


@pytest.mark.parametrize("program, p", [("sum(F.feature_alpha_dropout(a, 2))", "2"), ("sum(F.dropout(a, 2.5))", "2.5"),
                                        ("sum(F.feature_alpha_dropout(a, inf, True))", "inf")])
def test_dropout_of_p_outside_0_1_is_refused_in_pytorchs_words(program, p):
    run = cli("grad", program, "--at", "a=[[1, -2], [3, 4]]")
    assert run.exit_code == 2 and run.stdout == "" and "^" in run.stderr
    assert f"dropout probability has to be between 0 and 1, but got {p} " in run.stderr


@pytest.mark.parametrize("program, words", [
    ("sum(torch.cdist(a, a, 2, 1))", "1 is not a valid value for compute_mode"),
    ("sum(torch.cdist(a, a, compute_mode='bogus'))", "bogus is not a valid value for compute_mode"),
    ("sum(F.grid_sample(a[None, None], a[None, None, :1] / 5, 0))",
     "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '0'"),
    ("sum(F.grid_sample(a[None, None], a[None, None, :1] / 5, padding_mode=2))",
     "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '2'"),
])
def test_a_mode_that_is_none_of_the_names_is_refused_in_pytorchs_words(program, words):
    # (PyTorch's Python checks compare a value of any type: torch.cdist's and F.grid_sample's ValueError)
    run = cli("grad", program, "--at", "a=[[1, 2], [3, 4]]")
    assert run.exit_code == 2 and run.stdout == "" and words in run.stderr and "^" in run.stderr


@pytest.mark.parametrize("program, node, inputs", [
    ("sum(torch.xlogy(a, 2.0))", "XlogyBackward2", 1), ("sum(torch.xlogy(2.0, a))", "XlogyBackward1", 1),
    ("sum(a.xlogy(2))", "XlogyBackward2", 1), ("sum(torch.xlogy(a, a))", "XlogyBackward0", 2),
    ("sum(torch.copysign(a, -1.0))", "CopysignBackward1", 1), ("sum(torch.copysign(a, a))", "CopysignBackward0", 2),
])
def test_a_python_number_arg_is_pytorchs_scalar_overload_node(program, node, inputs):
    # (PyTorch 2.13: torch.xlogy(a, 2.0).grad_fn is XlogyBackward2, its next_functions the tensor's alone)
    run = cli("graph", program, "--at", "a=[1, 2]", "--format", "json")
    assert run.exit_code == 0, run.stderr
    assert node in run.stdout
    tree = cli("graph", program, "--at", "a=[1, 2]")
    line = next(i for i, text in enumerate(tree.stdout.splitlines()) if node in text)
    below = tree.stdout.splitlines()[line + 1:line + 1 + inputs + 1]
    assert sum("AccumulateGrad" in text or text.strip().endswith("None") for text in below[:inputs]) == inputs


def test_native_group_norm_checks_its_weight_against_its_c_first():
    run = cli("grad", "sum(torch.native_group_norm(x, w, w, 2, 1, 3, 1, 1e-5)[0])", "--at",
              "x=[[[1, 2, 3], [4, 5, 6]], [[1, 0, 3], [4, 5, 7]]]", "--at", "w=[1, 1]")
    assert run.exit_code == 2 and run.stdout == "" and "^" in run.stderr
    assert ("Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape "
            "[2] and input of shape [2, 2, 3]") in run.stderr


@pytest.mark.parametrize("program", ["sum(torch.cdist(a, x2=b))", "sum(torch.cdist(x1=a, x2=b, p=2.0))",
                                     "sum(torch.cdist(a, p=2.0, x2=b))"])
def test_cdist_takes_its_tensors_by_keyword(program):
    a, b = np.array([[0.0, 1.0], [2.0, 3.0]]), np.array([[1.0, 1.0], [0.0, -1.0], [4.0, 0.0]])
    expected = np.sum(np.linalg.norm(a[:, None] - b[None], axis=-1))
    assert grad(program, at={"a": a, "b": b}).value == pytest.approx(expected, rel=1e-12)


def test_the_lu_solve_method_is_torch_lu_solve_of_its_receiver():
    # (b.lu_solve(LU, pivots): the deprecated torch.lu_solve(b, LU, pivots); NumPy's solve is the reference, its
    # gradient A^-T seed)
    a, b = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.0, 1.0, 4.0]]), np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    result = grad("sum(b.lu_solve(torch.linalg.lu_factor(a)[0], torch.linalg.lu_factor(a)[1]))", at={"a": a, "b": b})
    assert result.value == pytest.approx(np.linalg.solve(a, b).sum(), rel=1e-12)
    assert np.allclose(result.grad["b"], np.linalg.solve(a.T, np.ones((3, 2))), rtol=1e-12)
    assert np.allclose(result.grad["a"], -np.linalg.solve(a.T, np.ones((3, 2))) @ np.linalg.solve(a, b).T, rtol=1e-12)


@pytest.mark.parametrize("program, padding", [
    ("torch.embedding(a, i)", None),  # (aten's order: the weight first)
    ("torch.embedding(a, i, 1)", 1),
    ("torch.embedding(a, i, -1)", None),  # (aten's -1: no padding row, not F.embedding's last row)
    ("torch.embedding(a, i, padding_idx=-2)", None),
    ("torch.embedding(a, i, 3)", None),  # (past the rows: it matches no index, no assert)
    ("torch.embedding(indices=i, weight=a)", None),
    ("F.embedding(i, a, -1)", 2),  # (F.embedding's own: counted from the end)
])
def test_torch_embedding_binds_as_aten_binds_it(program, padding):
    index = np.array([2, 0, 2, 1])
    seed = np.arange(8.0).reshape(4, 2)
    result = grad(f"sum({program} * s)", at={"a": W, "i": index, "s": seed}, wrt=["a"])
    expected = np.zeros_like(W)
    np.add.at(expected, index, seed)
    if padding is not None:
        expected[padding] = 0
    assert result.value == pytest.approx(np.sum(W[index] * seed), rel=1e-12)
    assert np.array_equal(result.grad["a"], expected)


@pytest.mark.parametrize("program, words", [
    ("torch.embedding(a, i, None)", "embedding(): argument 'padding_idx' (position 3) must be int, not NoneType"),
    ("torch.embedding(a, i, 0.5)", "embedding(): argument 'padding_idx' (position 3) must be int, not float"),
    ("torch.embedding(a, i, sparse=True)", "sparse= is not supported (a sparse gradient"),
])
def test_torch_embedding_refuses_what_aten_refuses(program, words):
    run = cli("grad", f"sum({program})", "--at", "a=[[1, 2], [3, -3], [4, 6]]", "--at", "i=[1]")
    assert run.exit_code == 2 and run.stdout == ""
    assert words in run.stderr and "^" in run.stderr and "Traceback" not in run.stderr


def test_softmin_without_a_dim_of_a_matrix_names_softmin():
    run = cli("grad", "sum(F.softmin(a))", "--at", "a=[[1, 2], [3, -3]]")
    assert run.exit_code == 2 and run.stdout == ""
    assert "softmin of a 2-D value needs dim=" in run.stderr and "softmax" not in run.stderr
