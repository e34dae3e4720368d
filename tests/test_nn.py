"""torch.nn.functional's params: activations called with them, against PyTorch.

The calls of tests/reference/make_torch_reference.py's VARIANTS (leaky_relu(a, 0.2),
gelu(a, approximate='tanh'), clamp(a, min=0) ...) hold gradcli to PyTorch's recorded values
and gradients at the special points, on both sweeps, as tests/test_torch_reference.py does
for the rows at their defaults. The rows' `examples` put the params through the generated
tests (central differences, transposes, batches, Hessians) too.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections import defaultdict

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.batch import grad_batch
from tests.helpers import central_difference, cli
from tests.test_torch_reference import MATRIX_ALGORITHMS, REFERENCE, _mismatches, _rows

VARIANTS = {entry["program"]: entry for entry in REFERENCE.get("variants", [])}


# PyTorch's LogSoftmaxBackward0 kernel, g - exp(out) * sum(g), takes its exp from its own vector
# library, which can differ from NumPy's in the last place; where g's terms cancel, that place
# shows in the result. The bound: a few ulps of the largest term of g (weight 2, target 2, the seed).
CANCELS_IN_PYTORCHS_KERNEL = {"cross_entropy_probs": 4.0}
# PyTorch's bicubic kernel is built with fused multiply-adds in its AVX2 and AVX512 versions (the ones a
# user's machine runs, and the reference was made on), which round its weights and sums otherwise than
# its portable version; gradcli's values are the portable version's bits (test_bicubic_values_are_
# pytorchs_portable_kernel_bit_for_bit; its gradient adds the same terms in another order, a few ulps
# apart). The bound: a few ulps of the largest input (value) or seed (gradient), the terms of its sums
# of 16 products, some of which cancel.
FUSED_IN_PYTORCHS_KERNEL = {"interpolate(a, size=(3, 3), mode='bicubic')": 16.0}


def _differences(entry: dict, args: list, seed, value, grads, our_value, our_grads) -> list[str]:
    where = f"{entry['program']} at {dict(zip(entry['inputs'], args, strict=True))}, seed {seed}"
    fused = FUSED_IN_PYTORCHS_KERNEL.get(entry["program"], 0.0) * 2**-53
    inputs = [abs(v) for arg in args for v in np.ravel(np.asarray(arg, dtype=float)) if math.isfinite(v)]
    problems = _mismatches(f"value of {where}", our_value, value, entry["op"], fused * max(inputs, default=0.0))
    absolute = 0.0
    if fused:
        seeds = [abs(s) for s in np.ravel(np.asarray(seed, dtype=float)) if math.isfinite(s)]
        absolute = fused * max(seeds, default=0.0)
    if entry["op"] in MATRIX_ALGORITHMS:  # (layer_norm: as in test_torch_reference)
        numbers = np.concatenate([np.ravel(np.asarray(v, dtype=float)) for v in [value, *grads]])
        absolute = MATRIX_ALGORITHMS[entry["op"]] * max((abs(v) for v in numbers if math.isfinite(v)), default=0.0)
    if entry["op"] in CANCELS_IN_PYTORCHS_KERNEL:
        seeds = [abs(s) for s in np.ravel(np.asarray(seed, dtype=float)) if math.isfinite(s)]
        absolute = 8 * 2**-53 * CANCELS_IN_PYTORCHS_KERNEL[entry["op"]] * max(seeds, default=1.0)
    for input_name, ours, expected in zip(entry["inputs"], our_grads, grads, strict=True):
        problems += _mismatches(f"grad {input_name} of {where}", ours, expected, entry["op"], absolute)
    return problems


def test_the_reference_has_the_calls_with_params():
    assert {"leaky_relu(a, 0.2)", "gelu(a, approximate='tanh')", "clamp(a, min=0)", "softplus(a, beta=2.0)",
            "threshold(a, 0.5, -3.0)"} <= set(VARIANTS)


@pytest.mark.parametrize("program", sorted(VARIANTS))
def test_calls_with_params_give_pytorchs_values_and_gradients(program):
    entry = VARIANTS[program]
    tape = compile_program(program)
    problems = []
    for args, seed, value, grads in _rows(entry):
        result = grad(tape, at=dict(zip(entry["inputs"], args, strict=True)), seed=seed)
        problems += _differences(entry, args, seed, value, grads, result.value,  # (an index: no entry, PyTorch's zeros)
                                 [result.grad.get(name, np.zeros(np.shape(arg))) for name, arg in
                                  zip(entry["inputs"], args, strict=True)])
    groups: dict[str, list] = defaultdict(list)
    for row in _rows(entry):
        groups[repr(row[1])].append(row)
    for rows in groups.values():
        columns = {name: np.array([row[0][i] for row in rows]) for i, name in enumerate(entry["inputs"])}
        batch = grad_batch(tape, columns, len(rows), seed=rows[0][1])
        for k, (args, seed, value, grads) in enumerate(rows):
            problems += _differences(entry, args, seed, value, grads, batch.values[0][k],
                                     [batch.grad[name][k] if name in batch.grad else np.zeros(np.shape(arg))
                                      for name, arg in zip(entry["inputs"], args, strict=True)])
    assert not problems, f"{len(problems)} differences from PyTorch, the first:\n" + "\n".join(problems[:15])


BICUBIC = """\
import torch
import torch.nn.functional as F
a = torch.tensor([[[[0.0, 1e300], [1.0, 2.0]]], [[[-0.5, 3.0], [7.0, -2.5]]]], dtype=torch.float64)
b = torch.arange(24.0, dtype=torch.float64).reshape(1, 1, 4, 6) / 7 - 1
out = F.interpolate(a, size=(3, 3), mode="bicubic")
out2 = F.interpolate(b, size=(7, 4), mode="bicubic")
print(out.tolist(), out2.tolist())
"""


def test_bicubic_values_are_pytorchs_portable_kernel_bit_for_bit(tmp_path):
    # ATEN_CPU_CAPABILITY=default: PyTorch's kernels without fused multiply-adds (FUSED_IN_PYTORCHS_KERNEL).
    pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    path = tmp_path / "bicubic.py"
    path.write_text(BICUBIC)
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}
    torch_run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, env=env)
    assert torch_run.returncode == 0, torch_run.stderr
    run = cli("run", str(path))
    assert run.exit_code == 0, run.stderr
    assert run.stdout == torch_run.stdout


@pytest.mark.parametrize(("program", "x", "value", "slope"), [
    ("leaky_relu(x, 0.2)", -2.0, -0.4, 0.2),
    ("leaky_relu(x, negative_slope=0.3)", 1.5, 1.5, 1.0),
    ("elu(x, alpha=2.0)", -1.0, 2.0 * math.expm1(-1.0), 2.0 * math.exp(-1.0)),
    ("celu(x, 2.0)", -1.0, 2.0 * math.expm1(-0.5), math.exp(-0.5)),
    ("softplus(x, beta=2.0)", 0.5, math.log1p(math.exp(1.0)) / 2.0, 1.0 / (1.0 + math.exp(-1.0))),
    ("softplus(x, 1, 0.25)", 0.5, 0.5, 1.0),  # above the threshold: linear
    ("x.clamp(min=0)", -1.0, 0.0, 0.0),
    ("x.clamp(min=0)", 3.0, 3.0, 1.0),
    ("clip(x, 0, 1)", 0.5, 0.5, 1.0),
    ("hardtanh(x, -2.0, 2.0)", 1.5, 1.5, 1.0),
    ("threshold(x, 1.0, 7.0)", 0.5, 7.0, 0.0),
    ("x.clamp_min(0.5)", 0.5, 0.5, 1.0),  # at the bound: ClampMinBackward0 passes the gradient
    ("clamp_max(x, -1.0)", 0.5, -1.0, 0.0),
])
def test_params_reach_the_value_and_the_gradient_on_numbers(program, x, value, slope):
    # At one point of numbers the sweeps run on Python floats: the params must reach those rules.
    tape = compile_program(program)
    assert tape.floats
    result = grad(tape, at={"x": x})
    assert float(result.value) == pytest.approx(value, rel=1e-15)
    assert float(result.grad["x"]) == pytest.approx(slope, rel=1e-15)


def test_a_folded_constant_takes_its_params():
    # leaky_relu of a number is folded when the program is read: with its slope.
    assert float(grad("x * leaky_relu(-2.0, 0.5)", at={"x": 1.0}).value) == -1.0


def test_clamp_at_its_bounds_passes_the_gradient_as_pytorch():
    # PyTorch's ClampBackward1 passes the gradient where min <= x <= max, bounds included, not at NaN.
    result = grad("sum(clamp(v, 0.0, 1.0))", at={"v": [0.0, 1.0, -1.0, 2.0, 0.5, math.nan]})
    assert result.grad["v"].tolist() == [1.0, 1.0, 0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize(("program", "message"), [
    ("clamp(x)", "At least one of 'min' or 'max' must not be None"),
    ("clamp_min(x)", "clamp_min() missing 1 required positional argument: 'min'"),
    ("gelu(x, approximate='fast')", "approximate must be one of 'none', 'tanh'"),
    ("leaky_relu(x, 'a')", "negative_slope must be a number"),
])
def test_bad_params_are_refused_with_one_line(program, message):
    result = cli("grad", program, "--at", "x=1")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert "Traceback" not in result.stderr


# --- losses --------------------------------------------------------------------------------


def test_binary_cross_entropy_clamps_its_log_at_minus_100():
    # PyTorch's: -log(0) would be infinite; it costs 100 (a certain and wrong prediction).
    result = grad("binary_cross_entropy(p, t, reduction='none')", at={"p": [0.0, 0.25], "t": [1.0, 1.0]},
                  seed=[1.0, 1.0])
    assert result.value.tolist() == [100.0, pytest.approx(-math.log(0.25), rel=1e-15)]


@pytest.mark.parametrize(("program", "expected"), [
    ("mse_loss(x, y)", sum((a - b) ** 2 for a, b in [(1, 0), (2, 2), (3, 5)]) / 3),
    ("mse_loss(x, y, reduction='sum')", 1 + 0 + 4),
    ("l1_loss(x, y)", (1 + 0 + 2) / 3),
    ("huber_loss(x, y, delta=1.5)", (0.5 + 0 + 1.5 * (2 - 0.75)) / 3),
    ("smooth_l1_loss(x, y, beta=2.0)", (0.25 + 0 + 1.0) / 3),
])
def test_losses_reduce_as_pytorch(program, expected):
    assert float(grad(program, at={"x": [1.0, 2.0, 3.0], "y": [0.0, 2.0, 5.0]}).value) == pytest.approx(expected)


@pytest.mark.parametrize(("program", "node"), [
    ("mse_loss(x, y)", "MseLossBackward0"), ("l1_loss(x, y)", "MeanBackward0"),
    ("l1_loss(x, y, reduction='none')", "AbsBackward0"), ("smooth_l1_loss(x, y, beta=0.0)", "MeanBackward0"),
    ("huber_loss(x, y)", "HuberLossBackward0"), ("binary_cross_entropy_with_logits(x, y)",
                                                 "BinaryCrossEntropyWithLogitsBackward0"),
])
def test_the_graph_names_pytorchs_outermost_node(program, node):
    # grad_fn shows the outermost node: l1_loss is abs, then mean, in PyTorch.
    result = cli("graph", program, "--at", "x=[0.2, 0.5]", "--at", "y=[0.0, 1.0]", "--seed", "ones")
    assert result.exit_code == 0, result.stderr
    assert node in result.stdout.splitlines()[1]


def test_a_loss_refuses_an_unknown_reduction():
    result = cli("grad", "mse_loss(x, y, reduction='avg')", "--at", "x=1", "--at", "y=2")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "reduction must be one of 'none', 'mean', 'sum'" in result.stderr


def test_glu_gates_the_first_half_with_the_sigmoid_of_the_second():
    result = grad("sum(glu(m, dim=0))", at={"m": [[1.0, -2.0], [0.5, 3.0]]})
    gate = [1 / (1 + math.exp(-0.5)), 1 / (1 + math.exp(-3.0))]
    assert float(result.value) == pytest.approx(1.0 * gate[0] - 2.0 * gate[1], rel=1e-15)
    expected = [[gate[0], gate[1]], [1.0 * gate[0] * (1 - gate[0]), -2.0 * gate[1] * (1 - gate[1])]]
    np.testing.assert_allclose(result.grad["m"], expected, rtol=1e-15)


def test_glu_refuses_an_odd_dim():
    result = cli("grad", "sum(glu(x))", "--at", "x=[1, 2, 3]")
    assert result.exit_code == 2
    assert "Halving dimension must be even, but dimension -1 is size 3" in result.stderr


@pytest.mark.parametrize(("program", "names"), [
    ("binary_cross_entropy_with_logits(x, y, pos_weight=p)", "xyp"),
    ("F.binary_cross_entropy_with_logits(x, y, w, reduction='sum', pos_weight=p)", "xywp"),
    ("binary_cross_entropy_with_logits(x, y, weight=w, reduction='none')", "xyw"),
])
def test_bce_with_logits_weights_are_pytorchs_and_their_own_gradients_central_differences(program, names):
    torch = pytest.importorskip("torch")
    point = {"x": np.array([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]]), "y": np.array([[1.0, 0.0, 1.0], [0.0, 0.3, 1.0]]),
             "w": np.array([1.0, 0.5, 2.0]), "p": np.array([1.0, 2.0, 3.0])}
    point = {name: value for name, value in point.items() if name in names}
    result = grad(program, at=point, seed="ones")
    x, y = (torch.tensor(point[n], requires_grad=True) for n in "xy")
    keywords = {"reduction": "sum" if "sum" in program else "none" if "none" in program else "mean"}
    if "p" in names:
        keywords["pos_weight"] = torch.tensor(point["p"])
    if "w" in point:
        keywords["weight"] = torch.tensor(point["w"])
    loss = torch.nn.functional.binary_cross_entropy_with_logits(x, y, **keywords)
    loss.backward(torch.ones_like(loss))
    np.testing.assert_allclose(result.value, loss.detach().numpy(), rtol=1e-14)
    np.testing.assert_allclose(result.grad["x"], x.grad.numpy(), rtol=1e-13, atol=1e-16)
    np.testing.assert_allclose(result.grad["y"], y.grad.numpy(), rtol=1e-13, atol=1e-16)
    for name in set(point) & {"w", "p"}:  # (PyTorch refuses a weight that requires grad; gradcli gives it)
        def value(args, name=name):
            return float(np.sum(grad(program, at={**point, name: args[0]}, seed="ones").value))
        expected = central_difference(value, [point[name]], 0)
        np.testing.assert_allclose(result.grad[name], expected, rtol=1e-6, atol=1e-8, err_msg=name)
