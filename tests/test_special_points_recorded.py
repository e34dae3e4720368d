"""Special points where PyTorch's answer comes from its kernels' own dtypes, recorded from PyTorch 2.13
(issue #21), held without torch; where torch is installed, held to it live too."""

from __future__ import annotations

import math

import pytest

from tests.helpers import cli

inf = math.inf

# torch.frexp's gradient is grad / exponent.exp2(), the exp2 of an int32 tensor in the default dtype: float32 in
# a program, so 2**e underflows below e = -149 (the gradient inf) and overflows above e = 127 (the gradient 0).
# PyTorch 2.13 prints this program's last line as FREXP_GRAD. (`gradcli grad` is PyTorch with float64 as the
# default dtype, where the exp2 is exact: tests/test_torch_reference.py holds that.)
FREXP_AT = [1e300, 1e-300, 3.0, 1e38, 1e39, -2e-40, 1e-45]
FREXP_GRAD = [0.0, inf, 0.25, 5.877471754111438e-39, 0.0, 2.722258935367508e+39, 7.1362384635298e+44]
FREXP_PROGRAM = f"""import torch
x = torch.tensor({FREXP_AT}, dtype=torch.float64, requires_grad=True)
torch.frexp(x)[0].sum().backward()
print(x.grad.tolist())
"""


def _printed_under_run(tmp_path, name: str, program: str) -> str:
    """What `gradcli run` prints for this program, written to a file of this name (it must exit 0)."""
    path = tmp_path / name
    path.write_text(program)
    result = cli("run", str(path))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_frexp_gradient_under_run_is_pytorchs_at_huge_and_tiny_values(tmp_path):
    assert _printed_under_run(tmp_path, "frexp.py", FREXP_PROGRAM) == f"{FREXP_GRAD}\n"


def test_frexp_gradient_matches_live_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    x = torch.tensor(FREXP_AT, dtype=torch.float64, requires_grad=True)
    torch.frexp(x)[0].sum().backward()
    assert x.grad.tolist() == FREXP_GRAD


# torch.triangular_solve's gradient of A is -grad_B @ X^T: at a pivot of 1e-300, X's first row is ~1e300 and so is
# grad_B's, and the products of both signs overflow to inf and -inf, which add to NaN in PyTorch's (MKL's) product.
# NumPy's fused multiply-adds would carry the finite -2e600 into +inf instead. PyTorch 2.13's gradient of A:
TRIANGULAR_A = [[1e-300, 1.912442794799433], [1.4465757832656778, 0.5292683173463533]]
TRIANGULAR_B = [[0.18343737918738334, -0.7606657292733772, 1.9154311216612818],
                [-1.6380943665792116, -0.8735776364476022, 1.117980408878262]]
TRIANGULAR_GRAD_A = [[math.nan, 6.730990502760721e+299], [0.0, -2.432156595620347e+300]]
TRIANGULAR_SEED = [[0.5, 0.75, 1.0], [1.25, 1.5, 1.75]]


def test_triangular_solve_gradient_overflows_to_nan_as_pytorchs_product():
    import numpy as np

    from gradcli import grad

    result = grad("torch.triangular_solve(b, a)[0]", at={"a": np.array(TRIANGULAR_A), "b": np.array(TRIANGULAR_B)},
                  seed=np.array(TRIANGULAR_SEED))
    np.testing.assert_allclose(result.grad["a"], TRIANGULAR_GRAD_A, rtol=1e-12)  # (NaN where PyTorch's is)


def test_triangular_solve_gradient_matches_live_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    a = torch.tensor(TRIANGULAR_A, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(TRIANGULAR_B, dtype=torch.float64)
    torch.triangular_solve(b, a)[0].backward(torch.tensor(TRIANGULAR_SEED, dtype=torch.float64))
    assert str(a.grad.tolist()) == str(TRIANGULAR_GRAD_A)


# torch.linalg.solve_ex and inv_ex of a singular matrix answer, with LAPACK's infinities and NaN and its info (that is
# what _ex is for); PyTorch 2.13's values and gradients of the sum at [[1, 2], [2, 4]], b = [1, 1]:
SINGULAR = [[1.0, 2.0], [2.0, 4.0]]
SOLVE_EX = ([-inf, inf], {"a": [[-inf, inf], [inf, -inf]], "b": [-inf, inf]})
INV_EX = ([[-inf, inf], [inf, -inf]], {"a": [[math.nan, math.nan], [math.nan, math.nan]]})


@pytest.mark.parametrize(("program", "expected"), [("torch.linalg.solve_ex(a, b)[0]", SOLVE_EX),
                                                   ("torch.linalg.inv_ex(a)[0]", INV_EX)])
def test_ex_functions_of_a_singular_matrix_answer_as_pytorch(program, expected):
    import numpy as np

    from gradcli import grad

    value, grads = expected
    at = {"a": np.array(SINGULAR), "b": np.ones(2)}
    result = grad(program, at={name: at[name] for name in grads}, seed="ones")
    np.testing.assert_array_equal(result.value, value)
    for name, gradient in grads.items():
        np.testing.assert_array_equal(result.grad[name], gradient)


# Zeros carry a sign, and PyTorch's gradients of solve and det give each zero the sign of its kernels' steps: the
# vector case's gradient of A is the outer product -gB X^T (each product alone, no sum from +0), gB comes from
# LAPACK's getrs with the LU of A (each row's dot product summed from its first product, as MKL's small trsm), and
# det's gradient solves A^T X = diag(g det) with the LU of A^T (its column scaled by the pivot's reciprocal, as
# getf2), a zero pivot taken as eps: at a singular matrix, zeros of PyTorch's signs, and the det is what that LU's
# rounding leaves (1.6e-18 where the rows are equal, not NumPy's 0). PyTorch 2.13's values and gradients (seed
# [0.5, 0.75, 1] for solve, 0.5 for det):
SOLVE_A = [[-0.39634850745413974, 1.6641483638049333, -0.6710388596069525],
           [-1.3167530563708127, -1.90670490986093, 1.4598902009723544],
           [-0.6009842590005015, 1.1408204806706648, -0.9418837401437257]]
SOLVE_B = [-0.080322968353574, 0.32340884079012033, 1.835578713624801]
SOLVE_AT_INF = {  # a[0][0]: (value, grad a, grad b)
    inf: ([0.0, -22.882362772688026, -29.66422034908445],
          [[-0.0, 0.0, 0.0], [0.0, -324.0952892773065, -420.1504088859838], [0.0, -526.6317684752025, -682.7144984137177]],
          [0.0, -14.163541260876293, -23.014746060392884]),
    -inf: ([-0.0, -22.882362772688026, -29.66422034908445],
           [[0.0, 0.0, 0.0], [-0.0, -324.0952892773065, -420.1504088859838],
            [-0.0, -526.6317684752025, -682.7144984137177]],
           [0.0, -14.163541260876293, -23.014746060392884]),
}
DET_AT = [  # (a, det, grad a)
    ([[-1.7443977658138614, -1.186847977302575, -0.17836870409370542], [0.0, 0.0, 0.0],
      [1.2554742793136127, 0.8880384615327541, -1.2990521574508294]],
     0.0, [[-0.0, -0.0, -0.0], [0.0, 0.0, 0.0], [-0.0, -0.0, -0.0]]),
    ([[0.1257302210933933, -0.1321048632913019, 0.6404226504432821], [0.0, 0.0, 0.0],
      [1.3040000451301372, 0.9470809631292422, -0.7037352358069926]],
     -0.0, [[0.0, 0.0, -0.0], [0.0, 0.0, 0.0], [-0.0, 0.0, 0.0]]),
    ([[-0.6538286094183394, -0.12961363369276946, 0.7839754700613295], [0.0, 0.0, 0.0],
      [1.3458754237823045, 0.7813114007004275, 0.2644556303293035]],
     -0.0, [[0.0, 0.0, -0.0], [0.0, 0.0, 0.0], [-0.0, 0.0, 0.0]]),
]


def _same_with_signs(given, expected):
    import numpy as np

    given, expected = np.asarray(given, dtype=float), np.asarray(expected, dtype=float)
    np.testing.assert_allclose(given, expected, rtol=1e-12, atol=0)
    assert np.signbit(given).tolist() == np.signbit(expected).tolist(), (given.tolist(), expected.tolist())


@pytest.mark.parametrize("program", ["torch.linalg.solve(a, b)", "torch.linalg.solve_ex(a, b)[0]"])
@pytest.mark.parametrize("corner", [inf, -inf])
def test_solve_at_an_infinity_gives_pytorchs_zero_signs(program, corner):
    import numpy as np

    from gradcli import grad

    a = np.array(SOLVE_A)
    a[0, 0] = corner
    value, grad_a, grad_b = SOLVE_AT_INF[corner]
    result = grad(program, at={"a": a, "b": np.array(SOLVE_B)}, seed=np.array([0.5, 0.75, 1.0]))
    _same_with_signs(result.value, value)
    _same_with_signs(result.grad["a"], grad_a)
    _same_with_signs(result.grad["b"], grad_b)


@pytest.mark.parametrize(("a", "det", "grad_a"), DET_AT)
def test_det_of_a_singular_matrix_gives_pytorchs_zero_signs(a, det, grad_a):
    import numpy as np

    from gradcli import grad

    result = grad("det(a)", at={"a": np.array(a)}, seed=np.array(0.5))
    _same_with_signs(result.value, det)
    _same_with_signs(result.grad["a"], grad_a)


EQUAL_ROWS = [[-1.2654214710460525, -0.6232744625373522, 0.0413259793472436],
              [-1.2654214710460525, -0.6232744625373522, 0.0413259793472436],
              [-0.7322673547034516, -0.5442589828573099, -0.31630015636915454]]
DET_EQUAL_ROWS = "1.6119984568080592e-18\n[2.1624176842807433e-18, -4.390312665657385e-18, -0.0]\n"


def test_det_of_equal_rows_is_what_pytorchs_lu_leaves(tmp_path):
    # rows 0 and 1 equal: the LU of A^T leaves 1.6e-18 in PyTorch 2.13 (NumPy's det: 0.0), and the gradient is
    # that det times the nudged inverse (PyTorch's last row, printed by PyTorch 2.13, is DET_EQUAL_ROWS)
    program = f"""import torch
EQUAL_ROWS = {EQUAL_ROWS}
a = torch.tensor(EQUAL_ROWS, dtype=torch.float64, requires_grad=True)
d = torch.linalg.det(a)
d.backward(torch.tensor(0.5, dtype=torch.float64))
print(d.item())
print(a.grad[2].tolist())
"""
    assert _printed_under_run(tmp_path, "det.py", program) == DET_EQUAL_ROWS


def test_solve_and_det_zero_signs_match_live_pytorch(tmp_path):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    for corner, (value, grad_a, grad_b) in SOLVE_AT_INF.items():
        m = [row[:] for row in SOLVE_A]
        m[0][0] = corner
        a = torch.tensor(m, dtype=torch.float64, requires_grad=True)
        b = torch.tensor(SOLVE_B, dtype=torch.float64, requires_grad=True)
        out = torch.linalg.solve(a, b)
        out.backward(torch.tensor([0.5, 0.75, 1.0], dtype=torch.float64))
        assert str((out.tolist(), a.grad.tolist(), b.grad.tolist())) == str((value, grad_a, grad_b))
    for m, det, grad_a in DET_AT:
        a = torch.tensor(m, dtype=torch.float64, requires_grad=True)
        d = torch.linalg.det(a)
        d.backward(torch.tensor(0.5, dtype=torch.float64))
        assert str((d.item(), a.grad.tolist())) == str((det, grad_a))


# batch_norm of a channel whose variance overflows (x = 1e300): invstd is 0 and PyTorch's weight gradient is the
# dot product of x - mean with the gradient (here -5e299) times it: -0.0. PyTorch 2.13's gradients (seed 0.5 .. 1.75):
BATCH_X = [[1e300, -1.4576402239610244], [-1.5026664708731756, 1.9478515155295595],
           [0.7889333254249347, 0.47966702286727303]]
BATCH_W = [-1.1444196414104035, 0.414154398346517]
BATCH_GRAD_W = [-0.0, 0.6945347100127783]
BATCH_GRAD_X = [[0.0, -0.060688846814282264], [-0.0, -0.08007948900866416], [-0.0, 0.14076833582294643]]


def test_batch_norm_weight_gradient_keeps_the_sign_of_zero():
    import numpy as np

    from gradcli import grad

    result = grad("batch_norm(x, None, None, weight=w, bias=None, training=True)",
                  at={"x": np.array(BATCH_X), "w": np.array(BATCH_W)}, seed=np.arange(6.0).reshape(3, 2) * 0.25 + 0.5)
    _same_with_signs(result.grad["w"], BATCH_GRAD_W)
    _same_with_signs(result.grad["x"], BATCH_GRAD_X)


def test_batch_norm_zero_sign_matches_live_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    x = torch.tensor(BATCH_X, dtype=torch.float64, requires_grad=True)
    w = torch.tensor(BATCH_W, dtype=torch.float64, requires_grad=True)
    out = torch.nn.functional.batch_norm(x, None, None, weight=w, training=True)
    out.backward(torch.arange(6.0, dtype=torch.float64).reshape(3, 2) * 0.25 + 0.5)
    assert str(w.grad.tolist()) == str(BATCH_GRAD_W)
    assert str(x.grad.tolist()) == str(BATCH_GRAD_X)


# F.logsigmoid of float32 is PyTorch's log_sigmoid_cpu_kernel: every element in vectors, min(x, 0) - log1p(exp(-|x|))
# with SLEEF's expf and log1pf (NumPy's float32 exp and log1p differ from them in the last bit on about a quarter of
# these inputs), and its backward reads that exp. multilabel_soft_margin_loss and binary_cross_entropy_with_logits
# of a float32 input take that kernel too. The program and what PyTorch 2.13 prints for it:
LOG_SIGMOID_PROGRAM = """import torch
import torch.nn.functional as F

x = torch.tensor([0.0036904599983245134, 0.8962365984916687, -0.8224135637283325, -2.6717755794525146, -1.364012360572815, -2.9749395847320557, 0.1804308146238327, 4.020645618438721, -1.4766196012496948, -1.8614246845245361, 1.4695261716842651, 1.0706610679626465, 0.3162427544593811, -2.7914042472839355, -0.0877554640173912, 2.085909605026245, -4.032643795013428, -1.372847318649292, -5.703668117523193, -3.8686132431030273, -5.525205135345459, -0.7052733898162842, -3.802339553833008, 0.8137930631637573], requires_grad=True)
y = F.logsigmoid(x)
print(y.tolist())
y.backward(torch.ones_like(y))
print(x.grad.tolist())
a = torch.tensor([[-1.1084152460098267, 1.7073612213134766, -1.0480389595031738], [-1.0348403453826904, -0.21918892860412598, -0.04484045132994652]], requires_grad=True)
b = torch.tensor([[0.283756586157495, 0.8458626093946393, 0.6475212100648148], [0.8107265869033266, 0.4703984682536536, 0.6638468816149258]], dtype=torch.float64, requires_grad=True)
c = torch.tensor([1.7287214837939153, 1.3818100521303858, 1.7558613372474206], dtype=torch.float64)
loss = F.multilabel_soft_margin_loss(a, b, c)
print(loss.item())
loss.backward()
print(a.grad.tolist())
print(b.grad.tolist())
p = torch.tensor([0.8751029372215271, -1.5688151121139526, -2.1830763816833496, 0.08882129937410355], requires_grad=True)
q = torch.tensor([0.7735480182732225, 0.02552848804867669, 0.04560791930654262, 0.4834369928060662], dtype=torch.float64)
loss = F.binary_cross_entropy_with_logits(p, q)
print(loss.item())
"""
LOG_SIGMOID_PRINTED = """[-0.6913036108016968, -0.34224313497543335, -1.1866190433502197, -2.7386202812194824, -1.5916521549224854, -3.0247297286987305, -0.606995701789856, -0.01778233051300049, -1.682339072227478, -2.005915403366089, -0.20704218745231628, -0.29474347829818726, -0.5474752187728882, -2.8509318828582764, -0.737987220287323, -0.11706642061471939, -4.050215721130371, -1.5986948013305664, -5.706996440887451, -3.8892853260040283, -5.529182434082031, -1.1067126989364624, -3.8244125843048096, -0.3668447732925415]
[0.49907737970352173, 0.2898244857788086, 0.6947484016418457, 0.9353405237197876, 0.7964110374450684, 0.9514290690422058, 0.45501428842544556, 0.01762515865266323, 0.8140614032745361, 0.8654628992080688, 0.187014639377594, 0.2552773952484131, 0.4215916693210602, 0.9422095417976379, 0.5219247937202454, 0.11047389358282089, 0.982581377029419, 0.7978397607803345, 0.9966773390769958, 0.9795400500297546, 0.9960307478904724, 0.6693559288978577, 0.9781687259674072, 0.30708280205726624]
1.2522507255000657
[[-0.010254241526126862, 0.00014534033834934235, -0.11352209746837616], [-0.15805694460868835, -0.005752328783273697, -0.05122876539826393]]
[[0.31935686620366505, -0.3932081600000495, 0.3067018307105244], [0.29815846481328123, 0.05047957747681178, 0.013122270229345145]]
0.41944857438491123
"""


def test_float32_log_sigmoid_and_its_losses_are_pytorchs_bits(tmp_path):
    assert _printed_under_run(tmp_path, "log_sigmoid.py", LOG_SIGMOID_PROGRAM) == LOG_SIGMOID_PRINTED


def test_float32_log_sigmoid_matches_live_pytorch(tmp_path, capsys):
    pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    exec(compile(LOG_SIGMOID_PROGRAM, "log_sigmoid.py", "exec"), {})
    assert capsys.readouterr().out == LOG_SIGMOID_PRINTED


# torch.xlogy's kernel is scalar: C's log, of float32 glibc's logf (not torch.log's vectorised log, nor NumPy's); and
# F.kl_div's C++ makes target * input before xlogy(target, target), so its backward adds xlogy's two gradients of
# target first and the product's last. PyTorch 2.13's output for a float32 target:
KL_PROGRAM = """import torch
import torch.nn.functional as F

a = torch.tensor([1.2587801469973137, -0.5015321577579459, -0.3302510323683516, 1.3796194646946676], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.6044421792030334, 0.1443462073802948, 0.9801235198974609, 0.5960211157798767], requires_grad=True)
out = F.kl_div(a, b, reduction="sum")
print(out.item())
out.backward()
print(b.grad.tolist())
print(torch.xlogy(b, b).tolist())
"""
KL_PRINTED = """-2.0988611466130775
[-0.7622293829917908, -0.43400853872299194, 1.3101743459701538, -0.8970986604690552]
[-0.3043059706687927, -0.2793879508972168, -0.019677620381116867, -0.3084285259246826]
"""


def test_float32_xlogy_and_kl_div_are_pytorchs_bits(tmp_path):
    assert _printed_under_run(tmp_path, "kl.py", KL_PROGRAM) == KL_PRINTED


def test_float32_kl_div_matches_live_pytorch(capsys):
    pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    exec(compile(KL_PROGRAM, "kl.py", "exec"), {})
    assert capsys.readouterr().out == KL_PRINTED


def test_glibc_logf_is_the_platforms():
    import ctypes
    import ctypes.util
    import platform

    import numpy as np

    from gradcli.ops.float32 import c_logf

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("PyTorch's logf is the platform's: glibc's is the one written out")
    try:
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        logf = libm.logf
    except (OSError, AttributeError):
        pytest.skip("no C library's logf here")
    logf.restype, logf.argtypes = ctypes.c_float, [ctypes.c_float]
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(0, 3, 3000), np.exp(rng.uniform(-103, 88, 3000)),
                        [0.0, -0.0, 1.0, -1.0, np.inf, 1e-45, 3.4e38]]).astype(np.float32)
    expected = np.array([logf(float(v)) for v in x], dtype=np.float32)
    np.testing.assert_array_equal(c_logf(x), expected)


# torch.linalg.lstsq's CPU driver is LAPACK's gelsy. Its A holding an infinity is scaled by max|A| first, by zero
# (finite entries 0, the infinities NaN), its QR with column pivoting takes the first column holding NaN, and the
# solution is NaN in that column's row alone, or in every row where the NaN reaches the rest of R's first row; the
# rest 0, and its rank 1. PyTorch 2.13 hands gelsy a pivot array from at::empty, never zeroed (pytorch/pytorch#187411,
# fixed by zeroing it): the columns that memory marks fixed are taken in order, so a fresh process may answer
# [0, 0] with rank 0 for an infinity in the second column, and a later call as gelsy does. Recorded from MKL
# 2024.2's dgelsy (PyTorch's library) with every column free, as LAPACK documents the call: (a, b, solution); the
# first is PyTorch 2.13's own answer in a fresh process too.
LSTSQ_AT_INF = [
    ([[inf, 1.5], [-0.25, 1.25], [0.75, 0.5]], [[0.5, -0.75], [-0.75, 1.5], [-0.125, -0.75]],
     [[math.nan, math.nan], [0.0, 0.0]]),
    ([[0.5, -inf], [-0.25, 1.25], [0.75, 0.5]], [[0.5, -0.75], [-0.75, 1.5], [-0.125, -0.75]],
     [[0.0, 0.0], [math.nan, math.nan]]),
    ([[0.5, 1.5, 2.0], [-0.25, inf, inf], [0.75, 0.5, 1.0]], [[0.5], [-0.75], [-0.125]], [[math.nan]] * 3),
    ([[inf, 1.5, 2.0], [-0.25, 1.0, 3.0], [0.75, 0.5, -inf]], [[0.5], [-0.75], [-0.125]], [[math.nan], [0.0], [0.0]]),
    ([[0.5, 1.5, inf, -inf]], [[0.5, 2.0]], [[math.nan, math.nan]] * 4),
    ([[1.0, 0.5, -inf], [2.0, inf, 0.25]], [[1.0], [-2.0]], [[math.nan]] * 3),
    ([[0.5], [inf], [2.0]], [[1.0], [2.0], [3.0]], [[math.nan]]),
]


@pytest.mark.parametrize(("a", "b", "solution"), LSTSQ_AT_INF)
def test_lstsq_of_an_infinite_matrix_is_gelsys_nan_pattern(a, b, solution):
    import numpy as np

    from gradcli import grad

    result = grad("torch.linalg.lstsq(a, b)[0]", at={"a": np.array(a), "b": np.array(b)}, seed="ones")
    _same_with_signs(result.value, solution)
    rank = grad("torch.linalg.lstsq(a, b)[2]", at={"a": np.array(a), "b": np.array(b)})
    assert rank.value == 1


def test_lstsq_of_an_infinite_matrix_under_run_and_in_a_batch(tmp_path):
    program = f"""import torch
inf = float("inf")
A = torch.tensor([{LSTSQ_AT_INF[1][0]}, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]], dtype=torch.float64)
B = torch.tensor({LSTSQ_AT_INF[1][1]}, dtype=torch.float64)
r = torch.linalg.lstsq(A, B)
print(r.solution[0].tolist(), r.rank.tolist())
"""
    assert _printed_under_run(tmp_path, "lstsq.py", program) == "[[0.0, 0.0], [nan, nan]] [1, 2]\n"


# torch.atan2's gradient of its second arg is grad * -a * recip: -a of an integer zero is 0 (no sign), so the zero
# takes the sign of grad; of a float zero, -0 flips it. PyTorch 2.13 prints ATAN2_GRADS for ATAN2_PROGRAM.
ATAN2_PROGRAM = """import torch
b = torch.tensor([1.25, -0.5], dtype=torch.float64, requires_grad=True)
for a in (torch.tensor([0, 0]), torch.tensor([0.0, -0.0], dtype=torch.float64)):
    b.grad = None
    torch.atan2(a, b).backward(torch.tensor([0.5, -0.25], dtype=torch.float64))
    print(b.grad.tolist())
"""
ATAN2_GRADS = "[0.0, -0.0]\n[-0.0, -0.0]\n"


def test_atan2_gradient_at_an_integer_zero_has_pytorchs_sign(tmp_path):
    assert _printed_under_run(tmp_path, "atan2.py", ATAN2_PROGRAM) == ATAN2_GRADS



# PyTorch's bilinear kernel for a small output (height plus width at most 128) is cpu_upsample_linear_channels_last:
# each output is i00 w00 + i01 w01 + i10 w10 + i11 w11 as its compiler fuses the multiply-adds, 4 float64 or 8 float32
# channels at a time and the rest one by one, its source index a fused multiply-add too. At a corner of -0 the
# other taps' products with a zero weight add +0: PyTorch's 0.0, not -0.0. PyTorch 2.13's outputs, every bit:
UPSAMPLE_AT = [[[[-0.0, -0.7637967940227974], [-1.4697128742038652, 0.3955135693948857],
                 [-0.6002391577767954, -0.8740766221334875]]]]
UPSAMPLE_VALUE = [[[[0.0, -0.3818983970113987, -0.7637967940227974], [-0.9798085828025768, -0.4853659006067928, 0.009076781588991245], [-1.1798883020615085, -0.6037857315880403, -0.027683161114571947], [-0.6002391577767954, -0.7371578899551414, -0.8740766221334875]]]]
BILINEAR_X = [[[[0.001, 0.299, -0.274], [-0.891, -0.455, -0.992]], [[0.06, 1.34, -0.492], [-0.62, 0.49, 0.357]], [[0.105, -0.93, -0.029], [0.695, -1.344, -0.458]], [[-1.901, -1.29, -1.842], [-0.235, -1.267, 0.271]], [[0.157, -0.187, -2.517], [-0.539, -0.049, 0.113]]]]
BILINEAR_FLOAT64 = [[[[0.001, 0.18724999999999997, 0.08412499999999998, -0.274], [-0.44499999999999995, -0.21562499999999996, -0.28612499999999996, -0.633], [-0.891, -0.6185, -0.656375, -0.9919999999999999]], [[0.06, 0.86, 0.653, -0.492], [-0.2799999999999999, 0.466875, 0.5465625, -0.06750000000000003], [-0.62, 0.07375000000000004, 0.44012500000000004, 0.35699999999999993]], [[0.105, -0.541875, -0.592125, -0.029], [0.3999999999999999, -0.560625, -0.8019375, -0.24349999999999997], [0.695, -0.5793750000000002, -1.0117500000000001, -0.45799999999999996]], [[-1.901, -1.519125, -1.4969999999999999, -1.842], [-1.068, -1.1995624999999999, -1.0936249999999998, -0.7855000000000001], [-0.235, -0.88, -0.69025, 0.271]], [[0.157, -0.05800000000000001, -1.06075, -2.517], [-0.19099999999999998, -0.145375, -0.5245, -1.202], [-0.539, -0.23275, 0.01175, 0.113]]]]
BILINEAR_FLOAT32 = [[[[0.0010000000474974513, 0.14999999105930328, 0.29899999499320984, 0.012500002980232239, -0.27399998903274536], [-0.4449999928474426, -0.2615000009536743, -0.078000009059906, -0.3554999828338623, -0.6330000162124634], [-0.890999972820282, -0.6729999780654907, -0.45500001311302185, -0.7235000133514404, -0.9919999837875366]], [[0.05999999865889549, 0.699999988079071, 1.340000033378601, 0.4240000247955322, -0.492000013589859], [-0.2800000011920929, 0.3174999952316284, 0.9150000214576721, 0.42375001311302185, -0.06750001013278961], [-0.6200000047683716, -0.06499999761581421, 0.49000000953674316, 0.4235000014305115, 0.3569999933242798]], [[0.10499999672174454, -0.4124999940395355, -0.9300000071525574, -0.4794999957084656, -0.028999999165534973], [0.4000000059604645, -0.3684999942779541, -1.1369999647140503, -0.6902499794960022, -0.2434999942779541], [0.6949999928474426, -0.3244999945163727, -1.343999981880188, -0.9010000228881836, -0.4580000042915344]], [[-1.9010000228881836, -1.5954999923706055, -1.2899999618530273, -1.565999984741211, -1.8420000076293945], [-1.0679999589920044, -1.1732499599456787, -1.278499960899353, -1.0320000648498535, -0.7854999899864197], [-0.23499999940395355, -0.7509999871253967, -1.2669999599456787, -0.49799996614456177, 0.2709999978542328]], [[0.15700000524520874, -0.015000000596046448, -0.18700000643730164, -1.3519999980926514, -2.5169999599456787], [-0.19099998474121094, -0.15450000762939453, -0.11800000071525574, -0.6600000262260437, -1.2020000219345093], [-0.5389999747276306, -0.2939999997615814, -0.04899999871850014, 0.03199999779462814, 0.11299999803304672]]]]


def test_upsample_bilinear_is_pytorchs_fused_kernel_zero_sign_and_bits():
    import numpy as np

    from gradcli import grad

    result = grad("F.upsample_bilinear(a, size=(4, 3))", at={"a": np.array(UPSAMPLE_AT)}, seed="ones")
    assert str(result.value.tolist()) == str(UPSAMPLE_VALUE)


def test_bilinear_interpolation_under_run_is_pytorchs_bits_by_vectors_and_one_by_one(tmp_path):
    program = f"""import torch
import torch.nn.functional as F
x = torch.tensor({BILINEAR_X}, dtype=torch.float64)
print(F.interpolate(x, size=(3, 4), mode="bilinear").tolist())
print(F.interpolate(x.float(), scale_factor=1.7, mode="bilinear", align_corners=True).tolist())
"""
    assert _printed_under_run(tmp_path, "bilinear.py", program) == f"{BILINEAR_FLOAT64}\n{BILINEAR_FLOAT32}\n"


# trapezoid of no samples along dim is PyTorch's zeros (of no graph: `grad` answers zeros, with PyTorch's words as a
# warning), before it reads x; an x of more dims than y is sliced along y's dim, and its empty steps give zeros of a
# graph (tests/run_cases/integrals_of_empty_inputs.py holds the nodes): PyTorch 2.13's values and gradients.
INTEGRALS_OF_EMPTY = [
    ("trapezoid(a)", {"a": []}, 0.0, {"a": []}),
    ("trapezoid(a, b)", {"a": [], "b": [0.5, 1.0, 2.0]}, 0.0, {"a": [], "b": [0.0, 0.0, 0.0]}),
    ("sum(trapezoid(a, b))", {"a": [0.5, -1.25, 2.0, 0.75], "b": [[]] * 0}, 0.0, None),
    ("sum(cumulative_trapezoid(a, b))", {"a": [0.5, -1.25, 2.0, 0.75], "b": [[]] * 0}, 0.0, None),
]


@pytest.mark.parametrize(("program", "at", "value", "grads"), INTEGRALS_OF_EMPTY)
def test_integrals_of_empty_inputs_answer_as_pytorch(program, at, value, grads):
    import numpy as np

    from gradcli import grad

    point = {name: np.array(v, dtype=float) for name, v in at.items()}
    if "b" in point and point["b"].size == 0 and point["a"].size:
        point["b"] = np.zeros((0, 3))
    result = grad(program, at=point, seed="ones")
    assert result.value.tolist() == value
    expected = grads or {"a": [0.0] * 4, "b": np.zeros((0, 3))}
    for name, gradient in expected.items():
        np.testing.assert_array_equal(result.grad[name], np.asarray(gradient).reshape(point[name].shape))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 3)])
def test_cond_of_empty_matrices_is_pytorchs_zeros(shape):
    # PyTorch 2.13: torch.linalg.cond of empty matrices is 0 for each (of no graph), the 2-norm's as the default's
    import numpy as np

    from gradcli import grad

    for program in ("torch.linalg.cond(a)", "torch.linalg.cond(a, 2)"):
        result = grad(program, at={"a": np.zeros(shape)}, seed="ones")
        np.testing.assert_array_equal(result.value, np.zeros(shape[:-2]))
        np.testing.assert_array_equal(result.grad["a"], np.zeros(shape))



# PyTorch's batch_norm CPU kernel in float64: each channel's sum and sum of squares added element after element, then
# x * alpha + (b - mean * alpha) with both multiply-adds fused (alpha = invstd * w); instance_norm is that kernel over
# (1, N C, ...). PyTorch 2.13's outputs, every bit (they differed in the last bit of most elements):
NORM_X = [[[0.11, 0.42, -0.3], [-0.53, 0.66, 0.25], [1.42, -0.75, 0.5]],
          [[-0.18, -0.77, 0.9], [0.54, -1.22, 0.1], [1.0, -1.97, -0.4]]]
NORM_W, NORM_B = [0.8, 1.1, -0.5], [0.25, -0.5, 0.125]
BATCH_NORM_FLOAT64 = [[[0.36993700276788766, 0.8346928884934522, -0.24474013641753653], [-1.336007986190738, 0.6670447055548555, -0.023082692441525443], [-0.5097626830188061, 0.43801370836936543, -0.10794043413534173]], [[-0.06483463226570507, -0.9493700276788765, 1.5543149051007783], [0.4650561988242074, -2.4974418998919643, -0.2755683258548355], [-0.3263220911372246, 0.9708649514539596, 0.28514654846804743]]]
INSTANCE_NORM_FLOAT64 = [[[0.3404263694161368, 1.1813916049862092, -0.771817974402346], [-1.9634244050314063, 0.6885680446955583, -0.22514363966415218], [-0.45409904362025666, 0.7659445725505754, 0.0631544710696813]], [[0.061037481782445724, -0.6215414105544341, 1.3105039287719884], [0.5786291004412432, -2.0100807406177403, -0.06854835982350276], [-0.4753587839266123, 0.7487137022944668, 0.1016450816321455]]]


@pytest.mark.parametrize(("program", "expected"), [("F.batch_norm(x, None, None, w, b, training=True)", BATCH_NORM_FLOAT64),
                                                   ("F.instance_norm(x, weight=w, bias=b)", INSTANCE_NORM_FLOAT64)])
def test_float64_norms_are_pytorchs_kernel_bits(program, expected):
    import numpy as np

    from gradcli import grad

    at = {"x": np.array(NORM_X), "w": np.array(NORM_W), "b": np.array(NORM_B)}
    assert str(grad(program, at=at, seed="ones").value.tolist()) == str(expected)
