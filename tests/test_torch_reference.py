"""Every op of the table against PyTorch's own values and gradients at special points.

tests/reference/torch_special_points.json was written by tests/reference/make_torch_reference.py
from PyTorch (float64): NaN, infinities, both zeros, subnormals, tiny and huge magnitudes and
ties, each at the upstream gradients 1, 0 and NaN. This test needs no torch. Each point goes
through both of gradcli's sweeps: the one-point sweep (`grad`, on Python floats where it can)
and the batch sweep (`grad_batch`, NumPy over all the points of an op at once).

Agreement: NaN where PyTorch has NaN, the same infinity, the same zero with its sign, and
otherwise a relative difference of at most a few units in the last place (PyTorch's libm and
NumPy's are not the same code). The exceptions are the tables below, each with its reason.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.batch import grad_batch
from gradcli.errors import ShapeProblem
from gradcli.ops import OPS

REFERENCE = json.loads((Path(__file__).resolve().parent / "reference" / "torch_special_points.json").read_text())
BY_OP = {entry["op"]: entry for entry in REFERENCE["ops"]}
ULPS = 4

# Derivatives that PyTorch (and gradcli, following it) computes from the rounded value: the
# value's rounding, up to 2**-53, becomes an absolute error of the derivative.
FROM_THE_VALUE = {"expm1": "g * (ans + 1)", "tanh": "g * (1 - ans * ans)", "sigmoid": "g * (1 - ans) * ans",
                  # (and gradcli's erfcx is not PyTorch's table of Chebyshev fits: a unit in its last place,
                  # times 2 x, is lost to the cancellation, as the rounding of PyTorch's own value is)
                  "erfcx": "(2 x ans - 2 / sqrt(pi)) * g"}
# Zeros whose sign is not meaningful: the order of a sum of products, or which of two equal
# zeros a tie picks (NumPy's maximum takes the second, PyTorch's the first).
ZERO_SIGN_NOT_MEANINGFUL = {"matmul", "mm", "mv", "bmm", "baddbmm", "addbmm", "dot", "vdot", "inner", "einsum", "tensordot",
                            "cross", "det", "inv", "solve", "logdet", "maximum", "minimum", "max", "min", "amax", "amin",
                            # the decompositions: sums of products in LAPACK's order (OpenBLAS's, MKL's)
                            "cholesky", "linalg_cholesky", "cholesky_ex", "qr", "eigh", "eigvalsh", "svd", "linalg_svd",
                            "svdvals", "svd_values", "slogdet", "inv_ex", "solve_ex", "solve_triangular", "triangular_solve",
                            "cholesky_solve", "cholesky_inverse", "matrix_exp", "pinv", "matrix_power", "matrix_norm",
                            "linalg_norm",
                            "cond", "multi_dot", "tensorinv", "tensorsolve", "lu_factor_ex", "lu_factor", "lu", "linalg_lu",
                            "lu_solve", "lstsq",
                            # torch.masked's amax and amin are amax and amin
                            "masked.amax", "masked.amax.where", "masked.amin", "masked.amin.where",
                            # the norms' gradients: sums over a channel or a group that cancel to 0, in PyTorch's
                            # kernels' order
                            *(NORMS := ("batch_norm", "native_batch_norm", "_native_batch_norm_legit", "group_norm",
                                        "native_group_norm", "instance_norm", "native_layer_norm"))}
# gradcli keeps a subnormal result where PyTorch's gives 0.
SUBNORMAL_WHERE_PYTORCH_GIVES_0 = {
    "sigmoid": "exp(x) / (1 + exp(x)) below 0; PyTorch's 1 / (1 + exp(-x)) is 0 once exp(-x) overflows",
    "log1p": "PyTorch's vectorised log1p flushes subnormal inputs to 0",
}
# Values where gradcli differs from PyTorch on purpose: (op, args) -> why.
KNOWN_VALUES = {
    ("logaddexp2", (-1.0, -1.0)): "log2(2**-1 + 2**-1) is 0 exactly, as NumPy's logaddexp2 gives; PyTorch's "
                                  "rounds to -4.8e-17",
    **{("tanhshrink", (x,)): "x - tanh(x) cancels: NumPy's tanh and PyTorch's differ in the last place, and the "
                             "difference is 7 units of the result's; the exact value 0.0378828427399902415 lies "
                             "between the two" for x in (0.5, -0.5)},
    **{("bmm", (repr(a), repr(b))): "NumPy's product of a row and a column fuses each multiply-add (one rounding): "
                                    "-inf*1e300 + 1e300*1e300 is -inf; PyTorch's bmm rounds 1e300*1e300 to inf first: "
                                    "NaN" for a, b in [([[[-math.inf, 1e300]]], [[[1e300], [1e300]]]),
                                                       ([[[1e300, 1e300]]], [[[-math.inf], [1e300]]])]},
    **{(name, (repr(x), repr(a), repr(b))): "as bmm's: NumPy's product of a row and a column fuses each "
                                             "multiply-add, PyTorch's rounds each product first"
       for name, x in [("baddbmm", [[[0.5]]]), ("baddbmm", [[[math.nan]]]), ("addbmm", [[0.5]]), ("addbmm", [[math.nan]])]
       for a, b in [([[[-math.inf, 1e300]]], [[[1e300], [1e300]]]), ([[[1e300, 1e300]]], [[[-math.inf], [1e300]]])]},
    **{("einsum", (repr(a), repr(b))): "einsum's product is a bmm, as PyTorch's is (see bmm): NumPy's fuses "
                                       "-inf*1e300 + 1e300*1e300 into -inf, PyTorch's rounds each product: NaN"
       for a, b in [([-math.inf, 1e300], [1e300, 1e300]), ([1e300, 1e300], [-math.inf, 1e300])]},
    **{("conv1d", (repr(a), repr(b))): "PyTorch's convolution fuses a multiply-add (one rounding), as its bmm: "
                                       "-inf*1e300 + 1e300*1e300 is -inf and 1e-300*1e300 - 1e-300*1e300 leaves the "
                                       "first product's rounding (-7.8e-17); NumPy's einsum rounds each product: NaN, 0"
       for a, b in [([[[1e300, 1e300, 1.0]]], [[[-math.inf, 1e300]]]), ([[[1e-300, -1e-300, 1.0]]], [[[1e300, 1e300]]])]},
    **{("batch_norm", (repr([pair, pair]), repr([0.5, -1.0]), repr([1.0, 2.0]))):
       "two equal samples: each channel's variance is 0 and x - mean is 0; PyTorch's output there is -1.29e-314 and "
       "1.29e-314 whatever the values (no rounding of x - mean: a subnormal of its kernel's own)"
       for pair in ([0.0, 0.0], [-0.0, 0.0], [1.0, 2.0], [3.0, -4.0], [1e-3, 7.0], [5e-324, 0.0], [1e-300, -1e-300],
                    [-2.5, -2.5])},
    ("layer_norm", (repr([5e-324, 0.0, 0.0]),)): "the mean of a subnormal and two zeros: 5e-324 / 3 rounds to 0 in "
                                               "NumPy's two passes, and Welford's steps in PyTorch keep 5e-324",
    ("cross", (repr([1e300, 1e300, 1.0]), repr([1e300, 1e300, -2.0]))):
        "a0*b1 - a1*b0 is inf - inf, NaN, in NumPy's cross; PyTorch's fuses one product into the subtraction "
        "(one rounding): -inf",
}
# Linear algebra by LAPACK in NumPy and by PyTorch's own LU solves: the same formulas, their
# operations in another order. Agreement: within this times the largest number of the row.
MATRIX_ALGORITHMS = {"det": 1e-13, "inv": 1e-13, "solve": 1e-13, "logdet": 1e-13,
                     # layer_norm: PyTorch's moments by Welford's steps, NumPy's by two passes; its gradient
                     # cancels (it sums to 0), so the mean's last place shows
                     "layer_norm": 1e-13,
                     # the other norms the same: their statistics in PyTorch's kernels' order, gradients that cancel
                     **dict.fromkeys(NORMS, 1e-13),
                     # grid_sample: the grid's gradient sums the corners' differences in PyTorch's kernels' order (a
                     # vectorised one in 2-D); where they cancel, the last place of the largest shows
                     **dict.fromkeys(("grid_sample", "grid_sampler_2d", "grid_sampler_3d"), 1e-13),
                     # the decompositions: LAPACK's routines in OpenBLAS (NumPy) and in MKL (PyTorch)
                     **dict.fromkeys(("cholesky", "linalg_cholesky", "cholesky_ex", "qr", "eigh", "eigvalsh", "svd",
                                      "linalg_svd", "svdvals", "svd_values", "linalg_norm", "slogdet", "inv_ex",
                                      "solve_ex", "solve_triangular",
                                      "triangular_solve", "cholesky_solve", "cholesky_inverse", "matrix_exp", "pinv",
                                      "matrix_power", "matrix_norm", "cond", "multi_dot", "tensorinv", "tensorsolve",
                                      "lu_factor_ex", "lu_factor", "lu", "linalg_lu", "lu_solve"),
                                     1e-13),
                     # the pseudo-inverse of an ill-conditioned matrix, and the exponential of a large one: their
                     # rounding grows with the condition number (with the norm, through the squarings)
                     "pinv": 1e-10, "matrix_exp": 1e-11,
                     # lstsq's gradient is pinv's (its solution pinv(A) B): as ill-conditioned
                     "lstsq": 1e-10}
# Where the value overflows, which entries come out inf and which NaN is the algorithm's own (PyTorch's matrix_exp:
# its Taylor polynomial's squarings; gradcli's: Pade's, whose result is NaN throughout there): not compared.
OVERFLOW_ITS_OWN_WAY = {"matrix_exp"}
# Where an infinity meets a product that overflows ([-inf, 1e300] . [1e300, 1e300]), the sum is the BLAS kernel's own:
# -inf where it adds in order with fused multiply-adds (MKL's and OpenBLAS's AVX-512 kernels on Intel, where the
# reference was recorded), NaN where it adds lanes of inf and -inf (both on AMD's, PyTorch too): not compared there.
INFINITY_MEETS_OVERFLOW_BY_KERNEL = {"multi_dot"}
# PyTorch's graph of these depends on the input's rank (matrix_norm's permutation): a tape for many points refuses them.
GRAPH_NEEDS_THE_RANK = {"matrix_norm", "linalg_norm"}  # (linalg_norm with an ord and no dim: 2-D or 1-D)
TINY = 2.2250738585072014e-308  # the smallest normal number


def _decode(x: Any) -> Any:
    if isinstance(x, list):
        return [_decode(v) for v in x]
    return float(x)  # "nan", "inf", "-inf" as written for JSON, numbers as they are


def agrees(ours: float, theirs: float, op: str, absolute: float = 0.0) -> bool:
    if math.isnan(theirs) or math.isnan(ours):
        return math.isnan(theirs) and math.isnan(ours)
    if ours == theirs:
        return theirs != 0 or op in ZERO_SIGN_NOT_MEANINGFUL or math.copysign(1, ours) == math.copysign(1, theirs)
    if math.isinf(theirs) or math.isinf(ours):
        return False
    if theirs == 0 and 0 < abs(ours) < TINY and op in SUBNORMAL_WHERE_PYTORCH_GIVES_0:
        return True
    return abs(ours - theirs) <= ULPS * math.ulp(theirs) + absolute


def _mismatches(what: str, ours: Any, theirs: Any, op: str, absolute: float = 0.0) -> list[str]:
    ours_flat, theirs_flat = np.ravel(np.asarray(ours, dtype=float)), np.ravel(np.asarray(theirs, dtype=float))
    if ours_flat.shape != theirs_flat.shape:
        return [f"{what}: shape {np.shape(ours)}, PyTorch {np.shape(theirs)}"]
    if all(agrees(float(o), float(t), op, absolute) for o, t in zip(ours_flat, theirs_flat, strict=True)):
        return []
    return [f"{what}: gradcli {np.asarray(ours).tolist()!r}, PyTorch {theirs!r}"]


def _differences(name: str, args: list, seed: Any, value: Any, grads: list, our_value: Any,
                 our_grads: list) -> list[str]:
    entry = BY_OP[name]
    where = f"{entry['program']} at {dict(zip(entry['inputs'], args, strict=True))}, seed {seed}"
    problems = []
    absolute = 0.0
    if name in OVERFLOW_ITS_OWN_WAY and not np.isfinite(np.asarray(value, dtype=float)).all():
        return []  # (see OVERFLOW_ITS_OWN_WAY)
    if name in INFINITY_MEETS_OVERFLOW_BY_KERNEL and np.isinf(np.asarray(value, dtype=float)).any() \
            and np.isnan(np.asarray(our_value, dtype=float)).any() and np.isinf(np.concatenate(
                [np.ravel(np.asarray(a, dtype=float)) for a in args])).any():
        value = our_value  # (see INFINITY_MEETS_OVERFLOW_BY_KERNEL: the gradients are still compared)
    if name in MATRIX_ALGORITHMS:
        numbers = np.concatenate([np.ravel(np.asarray(v, dtype=float)) for v in [value, *grads]])
        finite = [abs(float(v)) for v in numbers if math.isfinite(v)]
        absolute = MATRIX_ALGORITHMS[name] * max(finite, default=0.0)
    if (name, tuple(a if isinstance(a, float) else repr(a) for a in args)) not in KNOWN_VALUES:
        problems += _mismatches(f"value of {where}", our_value, value, name, absolute)
    if name in FROM_THE_VALUE:
        absolute = 4 * 2**-53 * abs(float(np.max(seed)))
    for input_name, ours, expected in zip(entry["inputs"], our_grads, grads, strict=True):
        problems += _mismatches(f"grad {input_name} of {where}", ours, expected, name, absolute)
    return problems


def _rows(entry: dict) -> list[tuple[list, Any, Any, list]]:
    """(args, seed, value, grads) of every row, decoded."""
    count = len(entry["inputs"])
    return [(_decode(row[:count]), _decode(row[count]), _decode(row[count + 1]), _decode(row[count + 2:]))
            for row in entry["rows"]]


def test_the_reference_has_every_op_of_the_table():
    # Adding an op means running tests/reference/make_torch_reference.py again.
    assert set(BY_OP) == {name for name, op in OPS.items() if op.reference is not None}  # (None: a composite's part)


# Where gradcli's node differs from PyTorch's, and why (strict: fixing it turns the test red).
NODE_DIFFERENCES: dict[str, str] = {}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=NODE_DIFFERENCES[n], strict=True))
                                  if n in NODE_DIFFERENCES else n for n in sorted(BY_OP)])
def test_each_ops_program_records_pytorchs_node(name):
    # The root of the backward graph of the op's program, at its first reference point, is the
    # node PyTorch recorded for the same call (None: PyTorch records no node, a comparison's mask).
    from gradcli.derivatives import grad as differentiate
    from gradcli.torch_graph import torch_name

    entry = BY_OP[name]
    tape = compile_program(entry["program"])
    args = _rows(entry)[0][0]  # (the first row is of the first point where PyTorch's call runs)
    result = differentiate(tape, at=dict(zip(entry["inputs"], args, strict=True)), seed="ones")
    tape = result.tape  # (compiled again at the point where its graph depends on the shapes: tensordot, linear)
    root = tape.outputs[0]
    # (a leaf has no grad_fn: dropout(a, 0.0) is `a` itself, in PyTorch as here)
    ours = torch_name(tape, root, result.values) if tape.nodes[root].requires_grad and root not in tape.inputs.values() \
        else None
    assert ours == entry["torch_node"], f"{entry['program']}: gradcli records {ours}, PyTorch {entry['torch_node']}"


@pytest.mark.parametrize("name", sorted(BY_OP))
def test_one_point_at_a_time_gives_pytorchs_values_and_gradients(name):
    entry = BY_OP[name]
    tape = compile_program(entry["program"])
    problems = []
    for args, seed, value, grads in _rows(entry):
        result = grad(tape, at=dict(zip(entry["inputs"], args, strict=True)), seed=seed)
        problems += _differences(name, args, seed, value, grads, result.value,
                                 [result.grad.get(input_name, np.zeros(np.shape(arg)))  # (an index: none, as
                                  for input_name, arg in zip(entry["inputs"], args, strict=True)])  # PyTorch's zeros)
    assert not problems, f"{len(problems)} differences from PyTorch, the first:\n" + "\n".join(problems[:15])


@pytest.mark.parametrize("name", sorted(BY_OP))
def test_a_batch_of_points_gives_pytorchs_values_and_gradients(name):
    entry = BY_OP[name]
    tape = compile_program(entry["program"])
    if name in GRAPH_NEEDS_THE_RANK:  # refused over many points, cleanly (exit 2), saying why
        args = _rows(entry)[0][0]
        columns = {input_name: np.array([args[i]]) for i, input_name in enumerate(entry["inputs"])}
        with pytest.raises(ShapeProblem, match="many points"):
            grad_batch(tape, columns, 1, seed="ones")
        return
    groups: dict[str, list] = defaultdict(list)  # the points of one seed go through as one batch
    for row in _rows(entry):
        groups[repr(row[1])].append(row)
    problems = []
    for rows in groups.values():
        seed = rows[0][1]
        columns = {input_name: np.array([row[0][i] for row in rows])
                   for i, input_name in enumerate(entry["inputs"])}
        result = grad_batch(tape, columns, len(rows), seed=seed)
        for k, (args, _, value, grads) in enumerate(rows):
            problems += _differences(name, args, seed, value, grads, result.values[0][k],
                                     [result.grad[input_name][k] if input_name in result.grad else np.zeros(np.shape(arg))
                                      for input_name, arg in zip(entry["inputs"], args, strict=True)])
    assert not problems, f"{len(problems)} differences from PyTorch, the first:\n" + "\n".join(problems[:15])
