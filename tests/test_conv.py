"""conv1d, conv2d, avg_pool1d/2d and max_pool1d/2d: against PyTorch where it is installed, and
against central differences, ties, PyTorch's errors, the limits and --points everywhere.

The rows' generated tests (tests/test_ops.py, test_views.py ...) and the special points of
tests/reference/make_torch_reference.py cover each row at its examples; here are the calls with
every param, the node names by layout, and what a user sees on the command line.
"""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest

from gradcli import grad
from gradcli.derivatives import hessian
from gradcli.ops import OPS
from gradcli.torch_graph import backward_graph
from tests.helpers import central_difference, cli

# (gradcli's program, PyTorch's, the inputs' shapes)
CALLS = [
    ("conv1d(x, w, b)", lambda t, F, x, w, b: F.conv1d(x, w, b), {"x": (2, 2, 5), "w": (3, 2, 2), "b": (3,)}),
    ("conv1d(x, w)", lambda t, F, x, w: F.conv1d(x, w), {"x": (2, 5), "w": (3, 2, 2)}),
    ("F.conv1d(x, w, b, 2, 1, 2)", lambda t, F, x, w, b: F.conv1d(x, w, b, 2, 1, 2),
     {"x": (1, 2, 7), "w": (3, 2, 2), "b": (3,)}),
    ("torch.conv1d(x, w, bias=b, groups=2, padding='same')",
     lambda t, F, x, w, b: t.conv1d(x, w, bias=b, groups=2, padding="same"), {"x": (2, 4, 7), "w": (4, 2, 4), "b": (4,)}),
    ("conv1d(x, w, padding='same', dilation=3)", lambda t, F, x, w: F.conv1d(x, w, padding="same", dilation=3),
     {"x": (1, 6), "w": (2, 1, 2)}),
    ("conv1d(x, w, padding='valid', stride=(2,))", lambda t, F, x, w: F.conv1d(x, w, padding="valid", stride=(2,)),
     {"x": (1, 1, 6), "w": (1, 1, 3)}),
    ("F.conv2d(x, w, b)", lambda t, F, x, w, b: F.conv2d(x, w, b), {"x": (2, 2, 4, 5), "w": (3, 2, 2, 3), "b": (3,)}),
    ("conv2d(x, w, b, padding='same', dilation=(1, 2))",
     lambda t, F, x, w, b: F.conv2d(x, w, b, padding="same", dilation=(1, 2)),
     {"x": (1, 2, 5, 6), "w": (3, 2, 2, 3), "b": (3,)}),
    ("conv2d(x, w, b, stride=(2, 1), padding=(1, 2), groups=2)",
     lambda t, F, x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), groups=2),
     {"x": (6, 5, 5), "w": (4, 3, 2, 3), "b": (4,)}),
    ("conv2d(x, w, stride=2)", lambda t, F, x, w: F.conv2d(x, w, stride=2), {"x": (1, 1, 5, 5), "w": (2, 1, 2, 2)}),
    ("avg_pool1d(x, 2)", lambda t, F, x: F.avg_pool1d(x, 2), {"x": (2, 3, 7)}),
    ("avg_pool1d(x, 3, 2, 1, True, False)", lambda t, F, x: F.avg_pool1d(x, 3, 2, 1, True, False), {"x": (2, 3, 8)}),
    ("avg_pool1d(x, 2, ceil_mode=True)", lambda t, F, x: F.avg_pool1d(x, 2, ceil_mode=True), {"x": (3, 7)}),
    ("avg_pool2d(x, (2, 3), stride=(1, 2), padding=1)",
     lambda t, F, x: F.avg_pool2d(x, (2, 3), stride=(1, 2), padding=1), {"x": (2, 3, 5, 6)}),
    ("avg_pool2d(x, 3, 2, 1, True, False)", lambda t, F, x: F.avg_pool2d(x, 3, 2, 1, True, False), {"x": (2, 5, 6)}),
    ("avg_pool2d(x, 2, divisor_override=3)", lambda t, F, x: F.avg_pool2d(x, 2, divisor_override=3), {"x": (2, 4, 4)}),
    ("max_pool1d(x, 2)", lambda t, F, x: F.max_pool1d(x, 2), {"x": (2, 2, 6)}),
    ("max_pool1d(x, 3, 2, 1, 2, True)", lambda t, F, x: F.max_pool1d(x, 3, 2, 1, 2, True), {"x": (2, 3, 9)}),
    ("max_pool2d(x, (2, 3), padding=1, dilation=(2, 1))",
     lambda t, F, x: F.max_pool2d(x, (2, 3), padding=1, dilation=(2, 1)), {"x": (2, 3, 6, 7)}),
    ("max_pool2d(x, 3, 2, 1, ceil_mode=True)", lambda t, F, x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True),
     {"x": (2, 6, 6)}),
]
IDS = [program for program, _, _ in CALLS]


def _point(shapes: dict, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {name: rng.normal(size=shape) for name, shape in shapes.items()}


def _torch_run(torch, spelled, point: dict, seed: np.ndarray):
    import torch.nn.functional as F

    tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True) for name, value in point.items()}
    out = spelled(torch, F, *tensors.values())
    out.backward(torch.tensor(seed, dtype=torch.float64))
    return out, {name: t.grad.numpy() for name, t in tensors.items()}


@pytest.mark.filterwarnings("ignore:Using padding='same'")  # (PyTorch's note on its own copy of the input)
@pytest.mark.parametrize(("program", "spelled", "shapes"), CALLS, ids=IDS)
def test_values_gradients_and_node_are_pytorchs(program, spelled, shapes):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    point = _point(shapes)
    ours = grad(program, at=point, seed="ones")
    seed = np.random.default_rng(1).normal(size=np.shape(ours.value))
    result = grad(program, at=point, seed=seed.tolist())
    out, grads = _torch_run(torch, spelled, point, seed)
    np.testing.assert_allclose(result.value, out.detach().numpy(), rtol=1e-12, atol=1e-12)
    for name in point:
        np.testing.assert_allclose(result.grad[name], grads[name], rtol=1e-12, atol=1e-12, err_msg=name)
    nodes = backward_graph(result.tape, result.roots, result.values)  # (the tape at this point's shapes)
    assert nodes[0].op == type(out.grad_fn).__name__  # (the root first)


@pytest.mark.parametrize(("program", "spelled", "shapes"), CALLS, ids=IDS)
def test_gradients_match_central_differences(program, spelled, shapes):
    point = _point(shapes, seed=2)
    value = np.asarray(grad(program, at=point, seed="ones").value)
    seed = np.random.default_rng(3).normal(size=value.shape)
    result = grad(program, at=point, seed=seed.tolist())
    names = list(point)

    def weighted(args: list[np.ndarray]) -> float:
        return float(np.sum(seed * np.asarray(grad(program, at=dict(zip(names, args, strict=True)), seed="ones").value)))

    for which, name in enumerate(names):
        expected = central_difference(weighted, [point[n] for n in names], which)
        np.testing.assert_allclose(result.grad[name], expected, rtol=1e-6, atol=1e-7, err_msg=name)


def test_the_bias_is_the_third_next_function_and_none_without_one():
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    import torch.nn.functional as F

    point = _point({"x": (1, 2, 4), "w": (3, 2, 2), "b": (3,)})
    for program, call in [("conv1d(x, w, b)", lambda x, w, b: F.conv1d(x, w, b)),
                          ("conv1d(x, w)", lambda x, w, b: F.conv1d(x, w))]:
        tensors = [torch.tensor(v, requires_grad=True) for v in point.values()]
        functions = call(*tensors).grad_fn.next_functions
        result = grad(f"sum({program})", at={k: v for k, v in point.items() if k in program})
        graph = backward_graph(result.tape, result.roots, result.values)
        conv = next(n for n in graph if n.op == "ConvolutionBackward0")
        assert graph[0].op == "SumBackward0"
        assert [f is None for f, _ in functions] == [i is None for i in conv.next_functions]


# --- max pooling's choice at ties and NaN, and -inf padding --------------------------------------

# (x, kernel_size, stride, padding): PyTorch's kernel takes a window's first largest element,
# its last NaN, and never the padding (checked against torch 2.13 in the next test).
TIES = [
    ([1.0, 1.0, 1.0, 1.0], 2, 1, 0),
    ([1.0, 3.0, 3.0, 1.0], 3, 1, 0),
    ([math.nan, 1.0, math.nan, 2.0], 4, 1, 0),
    ([1.0, math.nan, math.nan, 2.0], 3, 1, 0),
    ([-math.inf, -math.inf, -math.inf], 2, 1, 1),
    ([-math.inf, 2.0, -math.inf], 3, 1, 1),
    ([0.0, -0.0, 0.0], 2, 1, 1),
    ([math.inf, math.inf, 1.0], 2, 2, 1),
]


@pytest.mark.parametrize(("x", "kernel", "stride", "padding"), TIES)
def test_max_pool_sends_a_windows_gradient_to_one_element_as_pytorch(x, kernel, stride, padding):
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    import torch.nn.functional as F

    tensor = torch.tensor([x], dtype=torch.float64, requires_grad=True)
    out = F.max_pool1d(tensor, kernel, stride, padding)
    out.sum().backward()
    result = grad(f"sum(max_pool1d(x, {kernel}, {stride}, {padding}))", at={"x": [x]})
    np.testing.assert_array_equal(result.grad["x"], tensor.grad.numpy())
    ours = np.asarray(grad(f"max_pool1d(x, {kernel}, {stride}, {padding})", at={"x": [x]}, seed="ones").value)
    np.testing.assert_array_equal(ours, out.detach().numpy())


def test_max_pool2d_ties_go_to_the_first_in_row_major_order():
    # A window of equal values: all of it to its top-left element (PyTorch's scan, rows outer).
    result = grad("sum(max_pool2d(x, 2))", at={"x": [[[1.0, 1.0], [1.0, 1.0]]]})
    np.testing.assert_array_equal(result.grad["x"], [[[1.0, 0.0], [0.0, 0.0]]])


def test_max_pools_hessian_is_that_of_the_picked_elements():
    # sum(max_pool1d(x, 2) ** 2): 2 on the diagonal at each picked element, 0 elsewhere.
    result = hessian("sum(max_pool1d(x, 2) ** 2)", at={"x": [[3.0, 1.0, 2.0, 2.0]]})
    expected = np.zeros((1, 4, 1, 4))
    expected[0, 0, 0, 0] = expected[0, 2, 0, 2] = 2.0
    np.testing.assert_array_equal(result.blocks["x"]["x"], expected)


def test_conv_hessian_has_the_cross_terms_of_input_and_weight():
    # sum(conv1d(x, w)) is bilinear: d2/dx dw is 1 where w[k] meets x[k + o], summed over o.
    result = hessian("sum(conv1d(x, w))", at={"x": [[1.0, 2.0, 3.0]], "w": [[[0.5, -1.0]]]})
    expected = np.zeros((1, 3, 1, 1, 2))
    for o in range(2):
        for k in range(2):
            expected[0, o + k, 0, 0, k] += 1.0
    np.testing.assert_array_equal(result.blocks["x"]["w"], expected)


# --- what the command line says ------------------------------------------------------------------


@pytest.mark.parametrize(("program", "at", "words"), [
    ("conv1d(x, w)", ["x=ones(5)", "w=ones(1, 1, 2)"],
     "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [5]"),
    ("conv1d(x, w)", ["x=ones(1, 2, 5)", "w=ones(3, 3, 2)"],
     "Given groups=1, weight of size [3, 3, 2], expected input[1, 2, 5] to have 3 channels, but got 2 channels instead"),
    ("conv1d(x, w)", ["x=ones(1, 2, 5)", "w=ones(3, 2, 9)"],
     "Calculated padded input size per channel: (5). Kernel size: (9). Kernel size can't be greater than actual "
     "input size"),
    ("conv1d(x, w, b)", ["x=ones(1, 2, 5)", "w=ones(3, 2, 2)", "b=ones(2)"],
     "Given weight of size [3, 2, 2], expected bias to be 1-dimensional with 3 elements, but got bias of size [2] "
     "instead"),
    ("conv1d(x, w, groups=2)", ["x=ones(1, 2, 5)", "w=ones(3, 1, 2)"],
     "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [[3, 1, 2]] instead"),
    ("conv1d(x, w, stride=2, padding='same')", ["x=ones(1, 2, 5)", "w=ones(3, 2, 2)"],
     "padding='same' is not supported for strided convolutions"),
    ("conv2d(x, w, stride=(1, 2, 3))", ["x=ones(1, 2, 5, 5)", "w=ones(3, 2, 2, 2)"],
     "expected stride to be a single integer value or a list of 2 values"),
    ("max_pool1d(x, 4, padding=3)", ["x=ones(1, 2, 5)"], "max_pool1d() padding should be at most half of kernel size"),
    ("avg_pool1d(x, 9)", ["x=ones(1, 2, 5)"], "Output size is too small"),
])
def test_shape_errors_are_pytorchs_words_on_one_line_with_a_column(program, at, words):
    run = cli("grad", f"sum({program})", *[arg for a in at for arg in ("--at", a)])
    assert run.exit_code == 2 and run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert words in first and "column 5" in first and "Traceback" not in run.stderr


RETURN_INDICES = """\
import torch
import torch.nn.functional as F
x = torch.tensor([[[1., 5, 2, 0], [3, -1, 4, 4], [0, 2, 7, 1], [6, 6, -2, 3]]], requires_grad=True)
v, i = F.max_pool2d(x, 2, return_indices=True)
print(v)
print(i, i.dtype)
v1, i1 = F.max_pool1d(x[0], 3, 1, 1, return_indices=True)
print(v1, i1, i1.dtype)
(v.sum() + v1.sum()).backward()
print(x.grad)
"""


def test_return_indices_gives_pytorchs_values_and_int64_indices(tmp_path):
    # Ties (4, 4 and 6, 6) included: the index is the first in row-major order, as PyTorch's CPU kernel.
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    import torch.nn.functional as F

    x = torch.tensor([[[1., 5, 2, 0], [3, -1, 4, 4], [0, 2, 7, 1], [6, 6, -2, 3]]], requires_grad=True)
    v, i = F.max_pool2d(x, 2, return_indices=True)
    v1, i1 = F.max_pool1d(x[0], 3, 1, 1, return_indices=True)
    (v.sum() + v1.sum()).backward()
    expected = f"{v}\n{i} {i.dtype}\n{v1} {i1} {i1.dtype}\n{x.grad}\n"
    path = tmp_path / "pool.py"
    path.write_text(RETURN_INDICES)
    run = cli("run", str(path))
    assert run.exit_code == 0, run.stderr
    assert run.stdout == expected


def test_windows_past_the_elements_limit_are_refused_before_they_are_made():
    started = time.monotonic()
    run = cli("grad", "sum(conv1d(x, w))", "--at", "x=zeros(1, 1, 40000)", "--at", "w=zeros(1, 1, 20000)")
    assert run.exit_code == 2 and run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert "window elements" in first and "GRADCLI_MAX_ELEMENTS" in first and "column 5" in first
    run = cli("grad", "sum(max_pool2d(x, 300, 1))", "--at", "x=zeros(1, 700, 700)")
    assert run.exit_code == 2 and "GRADCLI_MAX_ELEMENTS" in run.stderr
    assert time.monotonic() - started < 5.0


@pytest.mark.parametrize(("program", "shapes"), [
    ("sum(conv1d(x, w, b) ** 2)", {"x": (2, 5), "w": (3, 2, 2), "b": (3,)}),
    ("sum(conv2d(x, w, b, padding=1) ** 2)", {"x": (1, 2, 3, 3), "w": (2, 2, 2, 2), "b": (2,)}),
    ("sum(max_pool1d(x, 3, 1, 1) * avg_pool1d(x, 3, 1, 1))", {"x": (2, 4)}),
    ("sum(max_pool2d(x, 2, 1) ** 2 + avg_pool2d(x, 2, 1, ceil_mode=True))", {"x": (1, 3, 3)}),
])
def test_points_give_what_each_point_gives(tmp_path, program, shapes):
    # Every input varies per point (the weight and the bias too): the batch axis in front of each.
    rng = np.random.default_rng(4)
    points = [{name: rng.normal(size=shape).tolist() for name, shape in shapes.items()} for _ in range(3)]
    path = tmp_path / "points.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in points))
    run = cli("grad", program, "--points", str(path), "--json")
    assert run.exit_code == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    for point, row in zip(points, rows, strict=True):
        alone = grad(program, at={k: np.asarray(v) for k, v in point.items()})
        np.testing.assert_allclose(row["value"], float(alone.value), rtol=1e-12)
        for name in shapes:
            np.testing.assert_allclose(row["grad"][name], alone.grad[name], rtol=1e-12, atol=1e-14)


def test_every_row_is_listed_under_torch_nn_functional():
    run = cli("functions", "--json")
    groups = {entry["name"]: entry["group"] for entry in run.json()["functions"]}
    for name in ("conv1d", "conv2d", "avg_pool1d", "avg_pool2d", "max_pool1d", "max_pool2d"):
        assert name in OPS and groups[name] == "torch.nn.functional"
