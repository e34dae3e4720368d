"""Float64 softmax, log_softmax (forward and backward, over the last dim and over another), nll_loss's sums and
layer_norm follow PyTorch's kernels' order (#21): its kernels' order of operations (gradcli.ops.float64), held to what PyTorch 2.13 printed
(tests/reference/float64_kernels.json, written by tests/reference/make_float64_kernels.py).

The exponentials are the libm's, not the order's: PyTorch's vector kernels call SLEEF's exp, NumPy its own, and the
two differ in the last bit on a few percent of arguments (a decided difference: gradcli does not carry a libm). So
the test hands gradcli the exponentials PyTorch took (recorded beside its outputs) and asks for every bit; the log of
log_softmax's sum stays NumPy's, and a slice of it is compared where that log agrees.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.ops import float32, float64
from tests.helpers import cli

REFERENCE = json.loads((Path(__file__).resolve().parent / "reference" / "float64_kernels.json").read_text())
CASES: dict[str, dict[str, Any]] = REFERENCE["cases"]
KERNELS = sorted(name for name, case in CASES.items() if case["op"] in ("softmax", "log_softmax"))
NLL = sorted(name for name, case in CASES.items() if case["op"] == "nll_loss")
LAYER_NORMS = sorted(name for name, case in CASES.items() if case["op"] == "layer_norm")
NUMPY_EXP = np.exp


def _lists(stdout: str) -> list[np.ndarray]:
    return [np.array(ast.literal_eval(line), dtype=np.float64) for line in stdout.splitlines()]


def _input(source: str) -> np.ndarray:
    """The x of a recorded program (its first torch.tensor literal)."""
    start = source.index("torch.tensor(") + len("torch.tensor(")
    return np.array(ast.literal_eval(source[start:source.index(", dtype", start)]), dtype=np.float64)


def _recorded_exp(arguments: list[np.ndarray], values: list[list[float]]) -> Any:
    """exp that answers PyTorch's recorded exponential for an argument it took, NumPy's for any other."""
    keys = np.concatenate([a.reshape(-1) for a in arguments]).view(np.uint64)
    found = np.concatenate([np.asarray(v, dtype=np.float64) for v in values])
    order = np.argsort(keys)
    keys, found = keys[order], found[order]

    def exp(a: Any) -> np.ndarray:
        a = np.asarray(a, dtype=np.float64)
        out = NUMPY_EXP(a)
        bits = np.ascontiguousarray(a).reshape(-1).view(np.uint64)
        at = np.minimum(np.searchsorted(keys, bits), len(keys) - 1)
        hit = keys[at] == bits
        flat = out.reshape(-1)
        flat[hit] = found[at[hit]]
        return flat.reshape(a.shape)

    return exp


def _slices(a: np.ndarray, dim: int) -> np.ndarray:
    moved = np.moveaxis(a, dim, -1)
    return moved.reshape(-1, moved.shape[-1])


@pytest.mark.parametrize("name", KERNELS)
def test_float64_softmax_and_log_softmax_are_pytorchs_bits_given_its_exponentials(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    case = CASES[name]
    if case["dim"] == -1 and float32._lanes() != 16:
        pytest.skip("recorded where PyTorch runs its AVX-512 kernels (8 doubles a vector); this CPU's are AVX2's")
    x = _input(case["source"]).reshape(case["shape"])
    y_torch, grad_torch = _lists(case["stdout"])
    shifted = x - np.max(x, axis=case["dim"], keepdims=True)
    arguments, values = [shifted], [case["exp_shifted"]]
    if case["op"] == "log_softmax":
        arguments.append(y_torch)
        values.append(case["exp_y"])
    monkeypatch.setattr(float64, "exp", _recorded_exp(arguments, values))
    run = cli("run", "-", stdin=case["source"])
    assert run.exit_code == 0, run.stderr
    y, grad = _lists(run.stdout)
    if case["op"] == "softmax":
        assert y.tobytes() == y_torch.tobytes()
        if case["dim"] == -1:
            assert grad.tobytes() == grad_torch.tobytes()
        else:  # (PyTorch fuses sum += g * y there, gradcli does not: gradcli.ops.float64)
            _near(_slices(grad, case["dim"]), _slices(grad_torch, case["dim"]))
        return
    # log_softmax: where NumPy's log of the sum is SLEEF's, every bit of the slice; its gradient g - exp(y) * sum(g),
    # which PyTorch fuses and gradcli does not, to the last bits of the slice's largest element
    same = np.all(_slices(y, case["dim"]) == _slices(y_torch, case["dim"]), axis=-1)
    assert same.mean() >= 0.5, f"{same.sum()} of {same.size} slices"
    _near(_slices(grad, case["dim"])[same], _slices(grad_torch, case["dim"])[same])


def _near(got: np.ndarray, want: np.ndarray) -> None:
    """The last bits apart (a rounding of the sum's terms), nowhere more."""
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-16)


@pytest.mark.parametrize("name", NLL)
def test_float64_nll_loss_adds_the_batch_in_pytorchs_cascade(name: str) -> None:
    run = cli("run", "-", stdin=CASES[name]["source"])
    assert (run.exit_code, run.stdout) == (0, CASES[name]["stdout"])


@pytest.mark.parametrize("name", LAYER_NORMS)
def test_float64_layer_norm_is_pytorchs_bits(name: str) -> None:
    """Its moments (Welford's steps in 4 lanes, chunks merged as a binary counter), (x - mean) * rstd and the fused
    weight and bias, and its input gradient (the backward kernel's sums in lanes, the elements left over fused into
    them): every bit."""
    case = CASES[name]
    run = cli("run", "-", stdin=case["source"])
    assert run.exit_code == 0, run.stderr
    (y, grad), (y_torch, grad_torch) = _lists(run.stdout), _lists(case["stdout"])
    assert y.tobytes() == y_torch.tobytes()
    assert grad.tobytes() == grad_torch.tobytes()



def _awkward_rows(size: int, seed: int) -> np.ndarray:
    """Rows of `size` float64 at many scales: normal ones, large and tiny magnitudes, -0, and rows holding an
    infinity or a NaN."""
    rng = np.random.default_rng(seed)
    rows = rng.standard_normal((9, size)) * np.array([1, 1e-3, 1e3, 1e200, 1e-300, 1, 1, 1, 1])[:, None]
    rows[5] = -0.0
    rows[6, rng.integers(size)] = np.inf
    rows[7, rng.integers(size)] = np.nan
    rows[8] += 1e8  # (a large mean: the moments' cancellation)
    return rows


SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 67, 127, 257, 1000, 1029, 4096, 4099, 16 * 4 * 33 + 3]


@pytest.mark.skipif(float32.compiled is None, reason="the compiled helper is not built here")
@pytest.mark.parametrize("size", SIZES)
def test_the_compiled_kernels_and_numpys_steps_give_the_same_bits(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where pip found no C compiler, gradcli takes the kernels' steps in NumPy: the same bits as the helper's."""
    rows = _awkward_rows(size, size)
    other = _awkward_rows(size, size + 1)[::-1]

    def results() -> list[np.ndarray]:
        with np.errstate(all="ignore"):
            return [float64.lane_sum(rows, 4), float64.lane_sum(rows, 8), *float64.row_moments(rows),
                    float64.lane_sum(rows * other, 4, (rows, other)), *float64.welford(rows),
                    float64.layer_norm_backward(other, rows, None, rows[:, :1], 1 / (1 + np.abs(rows[:, :1])), size),
                    float64.layer_norm_backward(other, rows, rows[0], rows[:, :1], 1 / (1 + np.abs(rows[:, :1])), size),
                    float32.fma64(rows, other, rows[::-1])]

    compiled = results()
    monkeypatch.setattr(float32, "compiled", None)
    for got, want in zip(compiled, results(), strict=True):
        _same_bits(got, want)


@pytest.mark.skipif(float32.compiled is None, reason="the compiled helper is not built here")
def test_the_compiled_fma_and_numpys_round_once_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """fma64's edges: exact zeros and their signs, ties, products past the range or below it, infinities, NaN."""
    rng = np.random.default_rng(3)
    edges = np.array([0.0, -0.0, 1.0, -1.0, 1 + 2**-52, 1 - 2**-53, 2**-1074, -2**-1074, 2**-1022, 1e308, -1e308,
                      1e300, 1e-300, 1e154, 1e-160, np.inf, -np.inf, np.nan, 3.0, 1 / 3])
    a, b, c = (v.reshape(-1) for v in np.meshgrid(edges, edges, edges, indexing="ij"))
    scales = 2.0 ** rng.integers(-1074, 1023, size=(3, 20000))
    a, b, c = (np.concatenate([v, rng.standard_normal(20000) * s]) for v, s in zip((a, b, c), scales, strict=True))
    # products at the edges of the range, and results among the subnormals (rounded once, not twice)
    tiny, huge = (rng.standard_normal((2, 20000)) * 2.0 ** rng.integers(*span, size=(2, 20000)) for span in
                  ((-560, -480), (500, 520)))
    near = (1 + rng.integers(-3, 4, 20000) * 2.0**-52) * -(tiny[0] * tiny[1]) + rng.standard_normal(20000) * 2.0**-1060
    a, b, c = (np.concatenate(parts) for parts in ((a, tiny[0], huge[0]), (b, tiny[1], huge[1]),
                                                    (c, near, rng.standard_normal(20000) * 1e300)))
    compiled = float32.fma64(a, b, c)
    monkeypatch.setattr(float32, "compiled", None)
    _same_bits(compiled, float32.fma64(a, b, c))


def _same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Every bit, but a NaN's sign and payload (printed as nan alike)."""
    assert got.shape == want.shape
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert got[~nan].tobytes() == want[~nan].tobytes()
