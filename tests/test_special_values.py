"""Special values where gradcli once gave a number PyTorch does not give, or failed (issue #21).

NaN, the infinities, both zeros, 1e+-300 and singular matrices, through `grad` (one point),
`--points` (a batch of points), `jacobian`, `jvp` and `hessian`. Where torch is installed the
points are held to PyTorch (float64) itself; the checks against certain values run without it.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.batch import grad_batch
from tests.helpers import cli
from tests.reference.make_mkl_reference import RECORDED_ON, local_code_path

nan, inf = math.nan, math.inf


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")


def _same(ours, theirs, rtol: float = 1e-12) -> bool:
    """NaN where PyTorch has NaN, the same infinities, and the numbers to rounding."""
    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    if ours.shape != theirs.shape:
        return False
    if not (np.array_equal(np.isnan(ours), np.isnan(theirs)) and np.array_equal(np.isinf(ours), np.isinf(theirs))):
        return False
    if not np.array_equal(ours[np.isinf(ours)], theirs[np.isinf(theirs)]):
        return False
    finite = np.isfinite(ours)
    scale = max(1.0, float(np.max(np.abs(theirs[finite]), initial=0.0)))
    return bool(np.all(np.abs(ours[finite] - theirs[finite]) <= rtol * scale))


# --- det, logdet, inv, solve of matrices holding NaN or an infinity -----------------------------
# PyTorch factors them by LAPACK's LU (getrf: the first largest pivot, a NaN never larger; no
# step skipped for a zero), and det is the product of U's diagonal: NaN where a NaN or inf * 0
# meets it. NumPy's det is 0 wherever its LU finds a zero pivot, whatever else the matrix holds.

SPECIAL = [0.0, -0.0, 1.0, 2.0, inf, -inf, nan, 1e300]
NON_FINITE = [m for m in (np.array(v).reshape(2, 2) for v in itertools.product(SPECIAL, repeat=4))
              if not np.isfinite(m).all()]
RNG = np.random.default_rng(21)
NON_FINITE_3 = [m for m in (np.where(RNG.random((3, 3)) < 0.25, RNG.choice(SPECIAL, (3, 3)), RNG.uniform(-3, 3, (3, 3)))
                            for _ in range(300)) if not np.isfinite(m).all()]
RIGHT_SIDE = {2: np.array([1.0, 2.0]), 3: np.array([1.0, -2.0, 0.5])}


def test_det_of_a_matrix_holding_nan_is_nan_with_a_nan_gradient():
    result = grad("det(m)", at={"m": [[0.0, nan], [nan, 0.0]]})
    assert math.isnan(float(result.value))
    assert np.isnan(result.grad["m"]).all()


def test_logdet_of_a_matrix_holding_nan_is_nan():
    run = cli("grad", "logdet(m)", "--at", "m=[[0,nan],[nan,0]]", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] is None and run.json()["grad"]["m"] == [[None, None], [None, None]]


@pytest.mark.parametrize(("program", "matrix"), [
    ("sum(inv(m))", [[-inf, 2.0], [-inf, -1.0]]), ("sum(inv(m))", [[inf, 1.0], [inf, 3.0]]),
    ("sum(solve(m, [1, 1]))", [[-inf, 2.0], [-inf, -1.0]]), ("sum(solve(m, [1, 2]))", [[nan, 1.0], [1.0, inf]])])
def test_inv_and_solve_of_a_matrix_holding_an_infinity_are_nan_as_in_pytorch(program, matrix):
    # LU: the pivot -inf, the multiplier -inf / -inf is NaN, and NaN reaches every entry
    result = grad(program, at={"m": matrix})
    assert math.isnan(float(result.value)) and np.isnan(result.grad["m"]).all()


@pytest.mark.parametrize("matrix", [[[1.0, inf], [0.0, 1.0]], [[1.0, 2.0], [inf, inf]], [[inf, inf], [1.0, 2.0]],
                                    [[1.0, inf], [1.0, inf]]])
def test_solve_with_an_infinity_in_a_singular_matrix_is_nan_not_a_crash(matrix):
    run = cli("grad", "sum(solve(A, b))", "--at", f"A={matrix}".replace("inf", "inf"), "--at", "b=[1,1]", "--json")
    assert run.exit_code == 0, run.stderr
    out = run.json()
    assert out["value"] is None
    assert out["grad"]["A"] == [[None, None], [None, None]] and out["grad"]["b"] == [None, None]


def _torch_linalg(torch, name: str, matrices: list[np.ndarray]) -> list:
    """PyTorch's value and gradients (seed ones) at each matrix, all at once; None where PyTorch
    raises (a singular matrix: torch.linalg.inv and solve refuse it)."""
    a = torch.tensor(np.array(matrices), dtype=torch.float64, requires_grad=True)
    b = torch.tensor(np.broadcast_to(RIGHT_SIDE[len(matrices[0])], (len(matrices), len(matrices[0]))),
                     dtype=torch.float64, requires_grad=True)
    refused = torch.zeros(len(matrices), dtype=torch.bool)
    if name == "det":
        out = torch.linalg.det(a)
    elif name == "logdet":
        out = torch.logdet(a)
    elif name == "inv":
        out, info = torch.linalg.inv_ex(a)
        refused = info != 0
    else:
        out, info = torch.linalg.solve_ex(a, b)
        refused = info != 0
    seed = torch.where(refused.reshape((-1,) + (1,) * (out.ndim - 1)), 0.0, torch.ones_like(out))
    out.backward(seed)
    return [None if refused[k] else (out[k].detach().numpy(), a.grad[k].numpy(), None if name != "solve" else
                                      b.grad[k].numpy()) for k in range(len(matrices))]


PROGRAMS = {"det": "det(a)", "logdet": "logdet(a)", "inv": "inv(a)", "solve": "solve(a, b)"}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("size", [2, 3])
def test_matrices_holding_nan_or_inf_give_pytorchs_values_and_gradients(name, size):
    from gradcli.errors import GradcliError

    torch = _torch()
    matrices = NON_FINITE if size == 2 else NON_FINITE_3
    expected = _torch_linalg(torch, name, matrices)
    tape = compile_program(PROGRAMS[name])
    fine = [k for k, e in enumerate(expected) if e is not None]
    problems = []
    # every matrix PyTorch factors, as one batch of points (--points)
    columns = {"a": np.array([matrices[k] for k in fine]), "b": np.broadcast_to(RIGHT_SIDE[size], (len(fine), size))}
    batch = grad_batch(tape, {n: c for n, c in columns.items() if n in tape.inputs}, len(fine), seed="ones")
    for j, k in enumerate(fine):
        value, ga, gb = expected[k]
        if not (_same(batch.values[0][j], value) and _same(batch.grad["a"][j], ga)
                and (gb is None or _same(batch.grad["b"][j], gb))):
            problems.append(f"batch {matrices[k].tolist()}: {batch.values[0][j]}, {batch.grad['a'][j].tolist()}; "
                            f"PyTorch {value}, {ga.tolist()}")
    # and one point at a time, a sample of them and every matrix PyTorch refuses
    for k in list(RNG.choice(fine, size=min(60, len(fine)), replace=False)) + [k for k, e in enumerate(expected)
                                                                                  if e is None]:
        at = {"a": matrices[k], "b": RIGHT_SIDE[size]}
        at = {n: v for n, v in at.items() if n in tape.inputs}
        if expected[k] is None:  # singular: PyTorch raises, and gradcli says so
            with pytest.raises(GradcliError, match="singular"):
                grad(tape, at=at, seed="ones")
            continue
        value, ga, gb = expected[k]
        result = grad(tape, at=at, seed="ones")
        if not (_same(result.value, value) and _same(result.grad["a"], ga) and (gb is None or _same(result.grad["b"], gb))):
            problems.append(f"one point {matrices[k].tolist()}: {np.asarray(result.value).tolist()}, "
                            f"{result.grad['a'].tolist()}; PyTorch {value.tolist()}, {ga.tolist()}")
    assert not problems, f"{len(problems)} differences from PyTorch, the first:\n" + "\n".join(problems[:10])


@pytest.mark.parametrize("matrix", [[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]], [[1.0, 0.0], [0.0, 0.0]],
                                    [[0.0, nan], [nan, 0.0]], [[1.0, inf], [0.0, 1.0]]])
def test_the_hessian_of_logdet_at_a_singular_matrix_is_a_clean_error(matrix):
    # PyTorch's double backward solves with A^T there, and raises: "the input matrix is singular"
    run = cli("hessian", "logdet(m)", "--at", f"m={matrix}")
    assert run.exit_code == 2, run.stderr
    assert "singular" in run.stderr and run.stdout == ""


@pytest.mark.parametrize("matrix", [[[2.0]], [[0.0]], [[inf]], [[nan]], [[-0.0]]])
def test_the_gradient_of_a_1x1_det_is_the_seed(matrix):
    # (PyTorch's: 1 at 0, NaN and inf too; the cofactor of a 1x1 matrix is the empty minor's det)
    result = grad("det(m)", at={"m": matrix}, seed=1.0)
    assert result.grad["m"].tolist() == [[1.0]]


def test_logdet_at_a_singular_matrix_has_the_infinities_of_pytorchs_lu_solve():
    torch = _torch()
    singular = [np.array(v).reshape(2, 2) for v in itertools.product([0.0, -0.0, 1.0, 2.0, -1.0, 0.5], repeat=4)]
    singular = [m for m in singular if m[0, 0] * m[1, 1] == m[0, 1] * m[1, 0]]
    a = torch.tensor(np.array(singular), dtype=torch.float64, requires_grad=True)
    torch.logdet(a).sum().backward()
    tape = compile_program("logdet(a)")
    batch = grad_batch(tape, {"a": np.array(singular)}, len(singular), seed="ones")
    # (where PyTorch's LU does not find the zero pivot, its FMA leaves a rounding error instead)
    exact = torch.linalg.det(a.detach()) == 0
    problems = [m.tolist() for k, m in enumerate(singular) if exact[k] and not _same(batch.grad["a"][k], a.grad[k])]
    assert not problems, problems[:5]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # (torch.func's own)
@pytest.mark.parametrize("name", ["det", "logdet", "inv", "solve"])
def test_jvp_jacobian_and_hessian_at_matrices_holding_nan_or_inf_are_pytorchs(name):
    from gradcli.autodiff import hessian, jacobian, jvp
    from gradcli.errors import GradcliError

    torch = _torch()
    from torch.autograd.functional import hessian as torch_hessian
    from torch.autograd.functional import jacobian as torch_jacobian

    b = RIGHT_SIDE[2]
    f = {"det": torch.linalg.det, "logdet": torch.logdet, "inv": torch.linalg.inv,
         "solve": lambda m: torch.linalg.solve(m, torch.tensor(b, dtype=torch.float64))}[name]
    program = PROGRAMS[name].replace("(a", "(m")
    tangent = np.array([[0.5, -1.0], [0.0, 2.0]])
    problems = []
    for m in [NON_FINITE[k] for k in RNG.choice(len(NON_FINITE), size=80, replace=False)]:
        at = {"m": m, "b": b} if "b" in program else {"m": m}
        t = torch.tensor(m, dtype=torch.float64)
        try:
            expected = (torch.func.jvp(f, (t,), (torch.tensor(tangent),))[1].numpy(), torch_jacobian(f, t).numpy())
        except RuntimeError:
            expected = None
        try:
            ours = (np.asarray(jvp(program, at=at, tangent={"m": tangent, "b": np.zeros(2)} if "b" in at else
                                   {"m": tangent}).jvp), jacobian(program, at=at, wrt="m").blocks[0]["m"])
        except GradcliError:
            ours = None
        if (expected is None) != (ours is None) or (ours and not all(map(_same, ours, expected))):
            problems.append(f"jvp, jacobian at {m.tolist()}: {ours}; PyTorch {expected}")
        scalar = f"sum({program})" if name in ("inv", "solve") else program
        try:
            expected_h = torch_hessian(lambda x: f(x).sum(), t).numpy()
        except RuntimeError:
            expected_h = None
        try:
            ours_h = hessian(scalar, at=at, wrt="m").blocks["m"]["m"]
        except GradcliError:
            ours_h = None
        if (expected_h is None) != (ours_h is None) or (ours_h is not None and not _same(ours_h, expected_h, 1e-9)):
            problems.append(f"hessian at {m.tolist()}: {ours_h}; PyTorch {expected_h}")
    assert not problems, f"{len(problems)} differences from PyTorch, the first:\n" + "\n".join(problems[:5])


# --- layer_norm where the square of a mean or a difference overflows ------------------------------
# PyTorch's CPU moments are Welford's, over lanes of 4 doubles with the rest one at a time, the
# lanes added in at the end: where a lane or the mean is met with nothing counted yet, its
# square (inf past 1.3e154) is multiplied by 0, and the variance is NaN.


def test_layer_norm_of_a_row_whose_mean_squared_overflows_is_nan():
    result = grad("sum(F.layer_norm(v, (2,)) * w)", at={"v": [0.0, 1e300], "w": [1.0, 2.0]})
    assert math.isnan(float(result.value)) and np.isnan(result.grad["v"]).all()


LAYER_ROWS = [[0.0, 1e300], [1e300, 0.0], [1e300, 1e300], [1e300, -1e300], [0.0, 3e154], [0.0, 2e154], [1e155, -1e155],
              [1e308, -1e308], [1.7e308, 1.7e308], [0.0, 1e300, 0.0], [1e300, 1e300, 1e300], [1e300, -1e300, 1e300],
              [1e160, 0.0, 0.0], [1e-300, -1e-300], [1.0, 2.0], [5.0], [1e300]]
LAYER_ROWS += [[1e300 if i == k else 0.0 for i in range(n)] for n in (4, 5, 8, 9, 12) for k in range(n)]
# (not [1e300] * 5: there PyTorch's moments are fine, and its gradient is NaN from the rounding of
# its own sums, sum(g w x) - sum(g w) mean, a residual times 1e300)
LAYER_ROWS += [[1e300] * n for n in (4, 8)] + [[1e300 * (-1) ** i for i in range(n)] for n in (4, 6, 8)]


@pytest.mark.parametrize("row", LAYER_ROWS, ids=[str(r) for r in LAYER_ROWS])
def test_layer_norm_of_huge_rows_is_pytorchs(row):
    torch = _torch()
    v = torch.tensor(row, dtype=torch.float64, requires_grad=True)
    weight = torch.arange(1.0, len(row) + 1, dtype=torch.float64)
    out = torch.nn.functional.layer_norm(v, (len(row),))
    (out * weight).sum().backward()
    program = f"sum(F.layer_norm(v, ({len(row)},)) * w)"
    at = {"v": row, "w": weight.tolist()}
    one = grad(program, at=at)
    batch = grad_batch(compile_program(program), {"v": np.array([row]), "w": np.array([weight.tolist()])}, 1)
    for value, gradient in [(one.value, one.grad["v"]), (batch.values[0][0], batch.grad["v"][0])]:
        assert _same(value, (out.detach() * weight).sum().item()), (value, out.tolist())
        assert _same(gradient, v.grad.numpy()), (gradient.tolist(), v.grad.tolist())


# --- normalize of a 0-d value: the norm over its one element ---------------------------------------

NORMALIZE_P = [("1.2", 1.2), ("2", 2.0), ("1", 1.0), ("3", 3.0), ("0.5", 0.5), ("math.inf", inf), ("-math.inf", -inf),
               ("0", 0.0), ("-1", -1.0)]


@pytest.mark.parametrize("dim", [0, -1])
@pytest.mark.parametrize(("spelled", "p"), NORMALIZE_P, ids=[s for s, _ in NORMALIZE_P])
def test_normalize_of_a_0d_value_is_pytorchs(spelled, p, dim):
    program = f"F.normalize(x, p={spelled}, dim={dim})"
    points = [2.0, -2.0, 0.0, -0.0, inf, -inf, nan, 1e-300, 1e300, 5e-324, 1e-13]
    run = cli("grad", program, "--at", "x=2", "--json")
    assert run.exit_code == 0, run.stderr
    torch = pytest.importorskip("torch")
    batch = grad_batch(compile_program(program), {"x": np.array(points)}, len(points))
    for k, x in enumerate(points):
        t = torch.tensor(x, dtype=torch.float64, requires_grad=True)
        out = torch.nn.functional.normalize(t, p=p, dim=dim)
        out.backward()
        one = grad(program, at={"x": x})
        for value, gradient in [(one.value, one.grad["x"]), (batch.values[0][k], batch.grad["x"][k])]:
            assert _same(value, out.item()) and _same(gradient, t.grad.item()), (x, value, gradient, out.item(),
                                                                                 t.grad.item())


def test_the_hessian_of_normalize_with_p_0_is_zero():
    # p=0: the norm is the count of nonzeros, a constant; x / max(count, eps) is linear (was a crash)
    run = cli("hessian", "sum(F.normalize(x, p=0, dim=0) * w)", "--at", "x=[1,2]", "--at", "w=[3,4]", "--wrt", "x",
              "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["hessian"]["x"]["x"] == [[0.0, 0.0], [0.0, 0.0]]


# --- the sign of a NaN: PyTorch's sqrt and logarithms make it positive, NumPy's negative -------------
# (only copysign reads it: copysign(b, sqrt(-1)) is |b| in PyTorch)


def test_copysign_of_a_sqrt_of_a_negative_number_is_positive():
    result = grad("copysign(b, sqrt(s))", at={"b": 0.79, "s": -1.0})
    assert float(result.value) == 0.79 and float(result.grad["b"]) == 1.0
    batch = grad_batch(compile_program("copysign(b, sqrt(s))"), {"b": np.array([0.79, -0.79]), "s": np.array([-1.0, -4.0])}, 2)
    assert batch.values[0].tolist() == [0.79, 0.79] and batch.grad["b"].tolist() == [1.0, -1.0]


NAN_MAKERS = ["sqrt", "log", "log2", "log10", "log1p", "rsqrt", "asin", "acos", "acosh", "atanh", "sin", "cos", "tan",
              "exp", "neg", "abs", "erfinv", "lgamma", "digamma"]


@pytest.mark.parametrize("name", NAN_MAKERS)
def test_the_sign_of_a_nan_that_an_op_makes_is_pytorchs(name):
    torch = _torch()
    if name == "acos" and local_code_path() != RECORDED_ON:  # (tests/reference/make_mkl_reference.py)
        pytest.skip("PyTorch's acos is MKL's vdAcos, whose NaN's sign differs on MKL's AVX2 path (AMD's CPUs) from "
                    "its AVX-512 path (Intel's), where it was measured")
    points = [-1.0, -2.0, -1e-300, -inf, inf, 2.0, nan, -nan, 0.0, -0.0]
    program = f"copysign(1.0, {name}(x))" if name != "neg" else "copysign(1.0, -x)"
    batch = grad_batch(compile_program(program), {"x": np.array(points)}, len(points))
    for k, x in enumerate(points):
        made = getattr(torch, name)(torch.tensor(x, dtype=torch.float64)).item()
        expected = math.copysign(1.0, made)
        one = float(grad(program, at={"x": x}).value)
        assert (one, float(batch.values[0][k])) == (expected, expected), (x, made, one, batch.values[0][k])


# --- x ** y: PyTorch's pow(Tensor, Tensor) is C's pow; x ** 0.5 is pow(Tensor, Scalar): sqrt -------


def test_a_tensor_exponent_is_cs_pow_at_minus_infinity():
    result = grad("x ** y", at={"x": -inf, "y": 0.5})
    assert float(result.value) == inf  # (sqrt's NaN where the exponent is a Python number, as in PyTorch)
    assert math.isnan(float(grad("x ** 0.5", at={"x": -inf}).value))


POW_POINTS = [-inf, inf, -0.0, 0.0, -1.0, -2.5, 4.0, 0.3, 1e-300, 1e300, nan]


@pytest.mark.parametrize("exponent", ["y", "0.5", "-0.5", "1.5", "2", "3", "-1", "-2", "0", "1", "2.5"])
def test_pow_at_special_points_is_pytorchs(exponent):
    from gradcli.autodiff import hessian, jvp

    torch = _torch()
    ys = [0.5, -0.5, 1.5, 2.0, -1.0, 0.0] if exponent == "y" else [None]
    points = [(x, y) for x in POW_POINTS for y in ys]
    program = f"x ** {exponent}"
    names = ["x", "y"] if exponent == "y" else ["x"]
    batch = grad_batch(compile_program(program), {n: np.array([p[i] for p in points]) for i, n in enumerate(names)},
                       len(points))
    problems = []
    for k, (x, y) in enumerate(points):
        args = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in ([x, y] if y is not None else [x])]

        def f(*a):
            return a[0] ** (a[1] if exponent == "y" else float(exponent) if "." in exponent else int(exponent))

        out = f(*args)
        out.backward()
        expected = [out.item()] + [a.grad.item() for a in args]
        at = dict(zip(names, [x, y]))
        one = grad(program, at=at)
        tangent = {n: 1.0 for n in names}
        expected_jvp = torch.func.jvp(f, tuple(a.detach() for a in args), tuple(torch.ones((), dtype=torch.float64)
                                                                              for _ in args))[1].item()
        expected_h = torch.autograd.functional.hessian(f, tuple(a.detach() for a in args))
        ours = {"one point": [float(one.value)] + [float(one.grad[n]) for n in names],
                "batch": [float(batch.values[0][k])] + [float(batch.grad[n][k]) for n in names]}
        for where, got in ours.items():
            if not _same(got, expected, 4e-16):
                problems.append(f"{where} at {at}: {got}, PyTorch {expected}")
        if not _same(float(jvp(program, at=at, tangent=tangent).jvp), expected_jvp, 4e-16):
            problems.append(f"jvp at {at}: PyTorch {expected_jvp}")
        if exponent == "y" and (x == 0 or math.isinf(x) or y == 0):
            continue  # (on pow's masks, x = 0 and y = 0, PyTorch's double backward differs: left as it was)
        blocks = hessian(program, at=at).blocks
        ours_h = [[float(blocks[a][b]) for b in names] for a in names]
        theirs_h = [[float(expected_h[i][j]) for j in range(len(names))] for i in range(len(names))]
        if not _same(ours_h, theirs_h, 1e-12):
            problems.append(f"hessian at {at}: {ours_h}, PyTorch {theirs_h}")
    assert not problems, f"{len(problems)} differences from PyTorch, the first:\n" + "\n".join(problems[:10])


# --- lists nested 400 deep: no RecursionError ---------------------------------------------------------

DEEP = "[" * 400 + "1" + "]" * 400


@pytest.mark.parametrize("where", ["--at", "--seed", "--tangent"])
def test_a_list_nested_400_deep_in_a_literal_is_a_clean_error_naming_the_limit(where):
    command = "jvp" if where == "--tangent" else "grad"
    value = {"--at": f"x={DEEP}", "--seed": DEEP, "--tangent": f"x={DEEP}"}[where]
    at = [] if where == "--at" else ["--at", "x=1"]
    run = cli(command, "x * 1", *at, where, value)
    assert run.exit_code == 2 and "nested deeper than" in run.stderr and "internal" not in run.stderr


@pytest.mark.parametrize("program", [f"sum(x * {DEEP})", f"sum(x * tensor({DEEP}))"])
def test_a_list_nested_400_deep_in_the_formula_is_a_clean_error(program):
    run = cli("grad", program, "--at", "x=1")
    assert run.exit_code == 2 and "axes" in run.stderr


def test_det_of_matrices_holding_nan_or_inf_through_points():
    lines = '{"m": [[0, NaN], [NaN, 0]]}\n{"m": [[1, 2], [3, 4]]}\n{"m": [[Infinity, 0], [0, 1]]}\n'
    run = cli("grad", "det(m)", "--points", "-", "--json", stdin=lines)
    assert run.exit_code == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert rows[0]["value"] is None and rows[0]["grad"]["m"] == [[None, None], [None, None]]
    assert rows[1]["value"] == pytest.approx(-2.0) and rows[1]["grad"]["m"] == [[4.0, -3.0], [-2.0, 1.0]]
    # PyTorch's: det inf, its gradient diag(inf) solved by the LU of A^T: [[NaN, NaN], [NaN, inf]]
    assert rows[2]["value"] is None and rows[2]["grad"]["m"] == [[None, None], [None, None]]
