"""What fuzz/special_points.py found, held to PyTorch (issue #21): rows at NaN, the infinities, 1e+-300,
empty tensors and bool or integer tensors, through `grad` (float64) and `gradcli run` (PyTorch's dtypes).

Each case is checked against PyTorch itself where torch is installed (skipped without it); the checks
that need no reference (no internal error) run everywhere.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gradcli import grad
from tests.helpers import cli, process
from tests.test_front_ends import Case, under_run, under_torch

nan, inf = math.nan, math.inf


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")


def _same(ours, theirs) -> bool:
    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    return ours.shape == theirs.shape and bool(np.allclose(ours, theirs, rtol=1e-12, atol=0.0, equal_nan=True))


# (formula, PyTorch's call over the tensors a, b, the point)
GRID = np.linspace(-2.0, 2.0, 8).reshape(1, 1, 2, 2, 2)
NEAREST = [nan, 0.5, -0.5, inf, -inf, 1e300, 0.0, -1.0, 1.0, 3.5, -2.25, 1 / 3, 0.75, -0.75, 5.0, -1e300, 0.25, nan,
           1.5, -1.5, 2.5, inf, 0.1, -0.0]
CASES = [
    # grid_sampler_3d adds only the corners inside: a NaN or infinite coordinate samples 0, with a 0 gradient
    *[(f"torch.grid_sampler_3d(a, b, 0, 0, {corners})", lambda torch, a, b, c=corners: torch.grid_sampler_3d(a, b, 0, 0, c),
       {"a": GRID, "b": np.array([0.25, special, -0.5, special, 0.1, 0.3]).reshape(1, 1, 1, 2, 3)})
      for special in (nan, inf, -inf, 1e300) for corners in (False, True)],
    ("F.grid_sample(a, b, align_corners=False)", lambda torch, a, b: torch.nn.functional.grid_sample(
        a, b, align_corners=False), {"a": GRID, "b": np.array([nan, 0.5, 0.25, 0.1, inf, -0.3]).reshape(1, 1, 1, 2, 3)}),
    # mode='nearest': the element at nearbyint of the place (a tie to the even one), with every padding; the 2-D kernel
    # clips NaN to 0, the 3-D one samples it at the far edge with no gradient; the grid's gradient is 0
    *[(f"grid_sample(a, b, 'nearest', {padding!r}, {corners})",
       lambda torch, a, b, p=padding, c=corners: torch.nn.functional.grid_sample(a, b, "nearest", p, c),
       {"a": GRID.reshape(1, 2, 2, 2) if d == 2 else GRID,
        "b": np.array(NEAREST[: 4 * d]).reshape((1, 2, 2, 2) if d == 2 else (1, 1, 2, 2, 3))})
      for d in (2, 3) for padding in ("zeros", "border", "reflection") for corners in (False, True)],
    *[(f"torch.grid_sampler_{d}d(a, b, 1, {padding}, True)",
       lambda torch, a, b, d=d, p=padding: getattr(torch, f"grid_sampler_{d}d")(a, b, 1, p, True),
       {"a": GRID.reshape(1, 2, 2, 2) if d == 2 else GRID,
        "b": np.array(NEAREST[4 * d:][: 4 * d]).reshape((1, 2, 2, 2) if d == 2 else (1, 1, 2, 2, 3))})
      for d in (2, 3) for padding in (0, 1, 2)],
    # group_norm as PyTorch's kernel computes it, x * scale + (b - scale * mean): an infinite weight gives NaN where
    # the two sides cancel
    *[("group_norm(a, 2, weight=b, bias=c)", lambda torch, a, b, c: torch.nn.functional.group_norm(a, 2, b, c),
       {"a": np.linspace(-2.0, 2.0, 24).reshape(2, 4, 3), "b": np.array([special, 0.5, -1.0, 2.0]),
        "c": np.array([0.25, -0.5, 1.0, 0.0])}) for special in (inf, -inf)],
    # a product over a dim of an empty matrix: empty, its gradient empty (was an internal error)
    ("prod(a, 1)", lambda torch, a: torch.prod(a, 1), {"a": np.zeros((0, 3))}),
    ("torch.masked.prod(a)", lambda torch, a: torch.masked.prod(a), {"a": np.zeros((0, 3))}),
    ("sum(prod(a, 1, True))", lambda torch, a: torch.prod(a, 1, True).sum(), {"a": np.zeros((0, 3))}),
]


@pytest.mark.parametrize(("program", "call", "point"), CASES, ids=[f"{p}-{k}" for k, (p, _, _) in enumerate(CASES)])
def test_the_formula_at_special_points_is_pytorchs(program, call, point):
    result = grad(program, at=point, seed="ones")  # (never an internal error, torch or not)
    torch = _torch()
    tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True) for name, value in point.items()}
    out = call(torch, *tensors.values())
    out.backward(torch.ones_like(out))
    assert _same(result.value, out.detach().numpy()), (result.value, out)
    for name, tensor in tensors.items():
        assert _same(result.grad[name], tensor.grad.numpy()), (name, result.grad[name], tensor.grad)


# Snippets under `gradcli run`, printing what PyTorch prints (or raising what it raises).
HEADER = "import torch\nimport torch.nn.functional as F\nb = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, " \
         "requires_grad=True)\n"
SNIPPETS = {
    # an integer target of a float loss: its derivative reads it as the loss's dtype (the sign of a zero too)
    "soft_margin_loss of an int64 target": "t = torch.tensor([1, 0, 2])\nout = F.soft_margin_loss(b, t)\n"
                                           "out.backward()\nprint(out, b.grad)\n",
    "binary_cross_entropy_with_logits of an int64 target":
        "t = torch.tensor([1, 0, 1])\nout = F.binary_cross_entropy_with_logits(b, t.double())\nout.backward()\n"
        "print(out, b.grad)\n",
    # a bool or int64 input: PyTorch's log_sigmoid has no such kernel (was an internal error)
    **{f"binary_cross_entropy_with_logits of a {kind} input":
       f"a = torch.tensor({values})\nprint(F.binary_cross_entropy_with_logits(a, b))\n"
       for kind, values in (("bool", "[True, False, True]"), ("int64", "[1, 0, 2]"))},
    # PyTorch's batch norm has no integer kernel (a bool input was an internal error)
    **{f"{call} of a {kind} input":
       f"a = torch.tensor({values})\nw = torch.ones(2, dtype=torch.float64, requires_grad=True)\n"
       f"rm, rv = torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64)\n"
       f"try:\n    print({call})\nexcept NotImplementedError as e:\n    print('caught', e)\n"
       for kind, values in (("bool", "[[True, False], [False, True], [True, True]]"), ("int64", "[[1, 0], [0, 2], [3, 1]]"))
       for call in ("F.batch_norm(a, rm, rv, weight=w, training=True)", "F.batch_norm(a, rm, rv)",
                    "torch.native_batch_norm(a, w, None, rm, rv, True, 0.1, 1e-5)[0]")},
    # gaussian_nll_loss checks its variance in Python: a ValueError, not a RuntimeError (a NaN is let through)
    "gaussian_nll_loss of a negative or ill-sized variance":
        "t = torch.tensor([0.25, 0.0, 1.0], dtype=torch.float64)\n"
        "for v in ([1.0, -float('inf'), 0.5], [1.0, -0.0, 2.0], [float('nan'), -1e-300, 1.0], [1.0, 2.0],\n"
        "          [1.0, float('nan'), 0.0]):\n"
        "    try:\n"
        "        print(F.gaussian_nll_loss(b, t, torch.tensor(v, dtype=torch.float64)))\n"
        "    except ValueError as e:\n"
        "        print('caught', e)\n",
    # each element's input, then its target, checked in order (NaN is outside)
    "binary_cross_entropy outside [0, 1]":
        "for x, t in (([0.5, 0.25], [0.5, float('nan')]), ([0.5, 0.25], [1.5, 0.0]), ([0.5, float('nan')], [2.0, 0.5]),\n"
        "             ([-0.5, 0.0], [1.0, 1.0]), ([0.5, 0.25], [0.0, 1.0])):\n"
        "    try:\n"
        "        print(F.binary_cross_entropy(torch.tensor(x, dtype=torch.float64), torch.tensor(t, dtype=torch.float64)))\n"
        "    except RuntimeError as e:\n"
        "        print('caught', e)\n",
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_run_at_special_dtypes_is_pytorchs(name):
    case = Case(name, "", HEADER + SNIPPETS[name], {}, {})
    run = under_run(case)
    assert run.error is None or not run.error.startswith("exit"), run.error  # PyTorch's error or none
    torch_run = under_torch(case) if _torch() else None
    assert (run.stdout, run.error) == (torch_run.stdout, torch_run.error)


# Where PyTorch raises, `grad` says so (exit 2), never a number.
NAN_MATRICES = [[[nan]], [[4.0, nan], [nan, 9.0]], [[4.0, 1.0], [1.0, nan]], [[nan, 1.0], [1.0, 4.0]],
                [[4.0, 2.0, 0.0], [2.0, nan, 1.0], [0.0, 1.0, 5.0]]]


@pytest.mark.parametrize("matrix", NAN_MATRICES, ids=[str(m) for m in NAN_MATRICES])
def test_cholesky_of_a_matrix_with_a_nan_pivot_is_refused_as_pytorch_refuses_it(matrix):
    # PyTorch's LAPACK stops at a NaN pivot: "linalg.cholesky: ... the leading minor of order k is not positive-definite"
    from gradcli.errors import GradcliError

    for program in ("torch.linalg.cholesky(a)", "torch.cholesky(a)"):
        with pytest.raises(GradcliError, match="PyTorch raises here too"):
            grad(program, at={"a": matrix}, seed="ones")
    info = grad("torch.linalg.cholesky_ex(a)[1]", at={"a": matrix}, seed="ones").value
    torch = _torch()
    assert int(info) == int(torch.linalg.cholesky_ex(torch.tensor(matrix, dtype=torch.float64))[1])


@pytest.mark.parametrize(("x", "y"), [([0.5, nan], [1.0, 0.0]), ([0.5, 0.25], [0.5, nan]), ([1.5, 0.5], [1.0, 0.0]),
                                      ([0.5, inf], [2.0, 0.0]), ([-0.0, 1.0], [1.0, -1e-300])])
def test_binary_cross_entropy_outside_0_1_is_refused_as_pytorch_refuses_it(x, y):
    run = cli("grad", "F.binary_cross_entropy(a, b)", "--at", f"a={x},b={y}")
    assert run.exit_code == 2 and "should be between 0 and 1" in run.stderr and run.stdout == "", run.stderr



def test_a_negative_variance_is_refused_at_the_call_as_pytorch_refuses_it():
    run = cli("grad", "F.gaussian_nll_loss(x, t, v)", "--at", "x=[0.5,-1,2],t=[0.25,0,1],v=[1,-inf,0.5]")
    assert run.exit_code == 2 and run.stdout == "", run.stderr
    assert "var has negative entry/entries (PyTorch raises here too)" in run.stderr
    assert "clamped_clone" not in run.stderr  # (the user wrote gaussian_nll_loss: no part of it is named)


@pytest.mark.parametrize(("program", "bad"), [("F.binary_cross_entropy(x, t)", "x,t\n1.5,0.5\n"),
                                              ("F.gaussian_nll_loss(x, x, t)", "x,t\n0.5,-1\n")])
def test_values_a_call_refuses_are_a_bad_line_at_their_own_line(tmp_path, program, bad):
    # the lines around it answered, --skip-bad skips it, --mark-bad writes its row (the refusal is the values',
    # not the shapes': it was said at the first line, and every line was lost)
    good = "0.5,0.5\n0.25,0.75\n"
    path = tmp_path / "points.csv"
    path.write_text(bad.split("\n")[0] + "\n" + good + bad.split("\n")[1] + "\n" + good)
    run = cli("grad", program, "--points", str(path), "--json")
    assert run.exit_code == 2 and "line 4" in run.stderr and "PyTorch raises here too" in run.stderr, run.stderr
    assert [json.loads(line)["line"] for line in run.stdout.splitlines()] == [2, 3]
    skipped = cli("grad", program, "--points", str(path), "--json", "--skip-bad")
    assert skipped.exit_code == 0 and [json.loads(line)["line"] for line in skipped.stdout.splitlines()] == [2, 3, 5, 6]
    marked = cli("grad", program, "--points", str(path), "--json", "--mark-bad")
    rows = [json.loads(line) for line in marked.stdout.splitlines()]
    assert [row["line"] for row in rows] == [2, 3, 4, 5, 6] and "error" in rows[2] and "value" not in rows[2]


# PyTorch 2.13's block_diag derivative does not step past the row an empty vector takes in the result: the
# blocks after it read the rows above theirs (recorded from torch: seed = arange over the result)
BLOCK_DIAG_EMPTY = [
    ([(0,), (1, 3)], [[], [[0.0, 1.0, 2.0]]]),
    ([(1, 3), (0,), (2,)], [[[0.0, 1.0, 2.0]], [], [8.0, 9.0]]),
    ([(0,), (0,), (2,)], [[], [], [0.0, 1.0]]),
    ([(2, 0), (1, 2)], [[[], []], [[4.0, 5.0]]]),
    ([(2,), (0,), (1,)], [[0.0, 1.0], [], [5.0]]),
]


@pytest.mark.parametrize(("shapes", "expected"), BLOCK_DIAG_EMPTY, ids=[str(s) for s, _ in BLOCK_DIAG_EMPTY])
def test_block_diag_with_an_empty_vector_has_pytorchs_gradient(shapes, expected):
    names = "abc"[: len(shapes)]
    point = {n: np.ones(s) for n, s in zip(names, shapes, strict=True)}
    rows = sum(1 if len(s) == 1 else s[0] for s in shapes)
    cols = sum(s[-1] for s in shapes)
    result = grad(f"block_diag({', '.join(names)})", at=point, seed=np.arange(rows * cols, dtype=float).reshape(rows, cols))
    for name, want in zip(names, expected, strict=True):
        assert np.asarray(result.grad[name]).tolist() == want, (name, result.grad[name])
    torch = _torch()
    tensors = [torch.ones(s, dtype=torch.float64, requires_grad=True) for s in shapes]
    out = torch.block_diag(*tensors)
    out.backward(torch.arange(out.numel(), dtype=torch.float64).reshape(out.shape))
    assert [t.grad.tolist() for t in tensors] == expected


# LAPACK's gelsy (PyTorch's CPU driver) refuses NaN in A (its argument 4) or B (6): PyTorch's words, recorded
GELSY = ('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":1613, '
         "please report a bug to PyTorch. torch.linalg.lstsq: Argument {} has illegal value. Most certainly there is "
         "a bug in the implementation calling the backend library.")


@pytest.mark.parametrize(("a", "b", "argument"), [("[[nan, 1.0], [2.0, 3.0], [1.0, 1.0]]", "[[1.0], [2.0], [3.0]]", 4),
                                                  ("[[1.0, 1.0], [2.0, 3.0], [1.0, nan]]", "[[1.0], [2.0], [3.0]]", 4),
                                                  ("[[1.0, 1.0], [2.0, 3.0], [1.0, 0.5]]", "[[1.0], [nan], [3.0]]", 6)])
def test_lstsq_of_nan_is_refused_as_pytorchs_lapack_refuses_it(a, b, argument):
    snippet = (f"import torch\nnan = float('nan')\nA = torch.tensor({a}, dtype=torch.float64)\n"
               f"B = torch.tensor({b}, dtype=torch.float64)\ntry:\n    torch.linalg.lstsq(A, B)\n"
               "except RuntimeError as e:\n    print(e)\n")
    run = under_run(Case("lstsq", "", snippet, {}, {}))
    assert run.error is None and run.stdout == GELSY.format(argument) + "\n", run
    refused = cli("grad", "torch.linalg.lstsq(a, b).solution", "--at", f"a={a},b={b}")
    assert refused.exit_code == 2 and "holding NaN" in refused.stderr and refused.stdout == "", refused.stderr


@pytest.mark.parametrize("program", ["sum(torch.linalg.pinv(a))", "sum(torch.linalg.svd(a)[2])",
                                     "torch.linalg.lstsq(a, b).solution", "sum(torch.linalg.svdvals(a))"])
def test_an_svd_of_an_infinite_matrix_ends(program):
    # NumPy's LAPACK never returns from the SVD of a matrix holding an infinity: gradcli does not hand it one
    run = process("grad", program, "--at", "a=[[inf,1,2],[3,4,5],[1,2,1],[0,1,3]],b=[[1],[1],[1],[1]]",
                  "--json", "--seed", "ones")
    assert run.exit_code == 0, run.stderr


@pytest.mark.parametrize("row", ["native_batch_norm", "_native_batch_norm_legit"])
@pytest.mark.parametrize("bias", [(0,), (0, 3)])
def test_native_batch_norm_of_an_empty_bias_is_refused_as_pytorchs_backward_refuses_it(row, bias):
    # PyTorch reads an empty bias as none, and its backward gives it a gradient per channel, which it then refuses
    from gradcli.errors import GradcliError

    point = {"a": np.array([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]]), "b": np.array([0.5, 2.0]), "c": np.zeros(bias),
             "d": np.array([0.25, -0.5]), "f": np.array([1.5, 0.5])}
    node = "NativeBatchNormBackward0" if row == "native_batch_norm" else "NativeBatchNormLegitBackward0"
    with pytest.raises(GradcliError, match=f"Function {node} returned an invalid gradient at index 2 - got \\[2\\] but "
                                           f"expected shape compatible with \\{list(bias)}"):
        grad(f"torch.{row}(a, b, c, d, f, True, 0.1, 1e-5)[0]", at=point, seed="ones")


# expand_as checks the rank of the tensor it expands, as PyTorch's expand does: a (1, 3) tensor does not expand as a
# (3,) one (it was broadcast to (1, 3), a value PyTorch never gives); the batch path expands each point alike
@pytest.mark.parametrize(("a", "b"), [("[[1,2,3]]", "[1,2,3]"), ("[[1],[2]]", "[1,2,3]"), ("[[[1]]]", "[[1,2]]")])
def test_expand_as_of_fewer_dims_is_refused_as_pytorch_refuses_it(a, b):
    run = cli("grad", "sum(a.expand_as(b))", "--at", f"a={a}", "--at", f"b={b}")
    assert run.exit_code == 2 and run.stdout == "", run.stderr
    assert "the number of sizes provided" in run.stderr and "expand(torch.DoubleTensor{" in run.stderr, run.stderr
    assert "^" in run.stderr  # (at the call)


def test_expand_as_gives_pytorchs_gradient_over_points(tmp_path):
    path = tmp_path / "points.csv"
    path.write_text("a,b\n1,2\n3,4\n")
    run = cli("grad", "sum(a.expand_as(ones(2,3)*b)*b)", "--points", str(path), "--json")
    assert run.exit_code == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    # (a expanded to 6 elements, times b, summed: 6ab, d/da 6b, d/db 6a)
    assert [(r["value"], r["grad"]["a"], r["grad"]["b"]) for r in rows] == [
        (6 * a * b, 6 * b, 6 * a) for a, b in ((1.0, 2.0), (3.0, 4.0))]
    one = grad("sum(a.expand_as(b)*b)", at={"a": [1.0, 2.0, 3.0], "b": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]})
    assert np.asarray(one.grad["a"]).tolist() == [5.0, 7.0, 9.0]


# grad's words for these refusals name the call the program wrote (not gradcli's row: im2col, tensorinv's inv), at
# its caret, with PyTorch's words as the hint
@pytest.mark.parametrize(("program", "at", "said"), [
    ("sum(F.unfold(a, 2))", "a=[1,2,3]", "unfold cannot take shape (3,)"),
    ("y = 2*a; sum(torch.linalg.tensorinv(y, ind=1))", "a=[[1,2],[2,4]]",
     "torch.linalg.tensorinv cannot take this matrix (PyTorch raises here too)"),
    ("sum(torch.linalg.tensorsolve(a, b))", "a=[[1,2],[2,4]],b=[1,2]",
     "torch.linalg.tensorsolve cannot take this matrix (PyTorch raises here too)"),
    ("sum(a.inverse())", "a=[[1,2],[2,4]]", "inverse of a singular matrix"),
    ("sum(torch.meshgrid(a, b)[0])", "a=[[1,2,3]],b=[1,2]", "meshgrid cannot take shape (1, 3) and shape (2,)"),
])
def test_grads_refusal_names_the_call_as_written(program, at, said):
    run = cli("grad", program, "--at", at)
    assert run.exit_code == 2 and run.stdout == "", run.stderr
    assert run.stderr.startswith(f"gradcli: error: {said}"), run.stderr
    assert "im2col" not in run.stderr and "tensorinv_inv" not in run.stderr
    assert run.stderr.rstrip().endswith("^"), run.stderr  # (the caret under the call, on the program's line)
    assert program in run.stderr


def test_grad_of_empty_args_that_pytorch_refuses_is_exit_2():
    from gradcli.errors import GradcliError

    for program, point in (("sum(F.unfold(a, 2))", {"a": np.zeros(0)}),
                           ("sum(torch.meshgrid(a, b)[0])", {"a": np.zeros(0), "b": np.zeros((0, 3))}),
                           ("sum(a.expand_as(b))", {"a": np.zeros((1, 3)), "b": np.zeros(0)})):
        with pytest.raises(GradcliError):
            grad(program, at=point)


def test_meshgrid_of_a_2d_tensor_with_elements_is_a_gap_under_run(tmp_path):
    # PyTorch's words print the tensor's values as its C++ prints them, which gradcli does not: exit 2, naming it
    path = tmp_path / "meshgrid.py"
    path.write_text("import torch\na = torch.ones(2, 3)\ntry:\n    torch.meshgrid(a, torch.ones(2), indexing='ij')\n"
                    "except RuntimeError as e:\n    print('caught', e)\n")
    run = cli("run", str(path))
    assert run.exit_code == 2 and run.stdout == "", run.stdout
    assert "torch.meshgrid(...) of a 2-D tensor with elements" in run.stderr and "not supported" in run.stderr
    assert "line 4" in run.stderr and "^" in run.stderr
