"""cross_entropy and nll_loss: class-index targets (an integer input or constant: no gradient,
no grad entry) and class-probability targets (a float: it takes a gradient), weight=,
ignore_index, label_smoothing, reduction, on (N, C) and (C,) inputs, against PyTorch (skipped
without it) and against central differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.batch import grad_batch
from tests.helpers import central_difference

X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [-2.0, 3.0, 0.0]]
P = [[0.2, 0.3, 0.5], [0.0, 1.0, 0.0], [0.6, 0.1, 0.3]]
W = "tensor([0.5, 2.0, 1.25])"

CALLS = [  # (gradcli's program, PyTorch's call; t: the class indices, p: probabilities, w: the weight)
    ("cross_entropy(x, t)", lambda torch, F, x, y, w: F.cross_entropy(x, y)),
    ("F.cross_entropy(x, t, reduction='sum')", lambda torch, F, x, y, w: F.cross_entropy(x, y, reduction="sum")),
    ("cross_entropy(x, t, reduction='none')", lambda torch, F, x, y, w: F.cross_entropy(x, y, reduction="none")),
    (f"cross_entropy(x, t, weight={W})", lambda torch, F, x, y, w: F.cross_entropy(x, y, weight=w)),
    (f"cross_entropy(x, t, {W}, reduction='none')", lambda torch, F, x, y, w: F.cross_entropy(x, y, w, reduction="none")),
    ("cross_entropy(x, t, ignore_index=1)", lambda torch, F, x, y, w: F.cross_entropy(x, y, ignore_index=1)),
    ("cross_entropy(x, t, label_smoothing=0.1)", lambda torch, F, x, y, w: F.cross_entropy(x, y, label_smoothing=0.1)),
    (f"cross_entropy(x, t, weight={W}, label_smoothing=0.2, ignore_index=2)",
     lambda torch, F, x, y, w: F.cross_entropy(x, y, weight=w, label_smoothing=0.2, ignore_index=2)),
    (f"cross_entropy(x, t, weight={W}, label_smoothing=0.3, reduction='none')",
     lambda torch, F, x, y, w: F.cross_entropy(x, y, weight=w, label_smoothing=0.3, reduction="none")),
    ("nll_loss(x, t)", lambda torch, F, x, y, w: F.nll_loss(x, y)),
    (f"nll_loss(x, t, {W}, reduction='sum')", lambda torch, F, x, y, w: F.nll_loss(x, y, w, reduction="sum")),
    ("nll_loss(x, t, ignore_index=0, reduction='none')", lambda torch, F, x, y, w: F.nll_loss(x, y, ignore_index=0, reduction="none")),
    ("cross_entropy(x, softmax(p, -1))", lambda torch, F, x, y, w: F.cross_entropy(x, torch.softmax(y, -1))),
    ("cross_entropy(x, p * 1.0, reduction='sum')", lambda torch, F, x, y, w: F.cross_entropy(x, y * 1.0, reduction="sum")),
    (f"cross_entropy(x, p + 0, weight={W}, reduction='none')", lambda torch, F, x, y, w: F.cross_entropy(x, y + 0, weight=w, reduction="none")),
    ("cross_entropy(x, p * 1, label_smoothing=0.25)", lambda torch, F, x, y, w: F.cross_entropy(x, y * 1, label_smoothing=0.25)),
]


def _point(program: str, batched: bool, row: int = 0) -> dict:
    x = np.array(X) if batched else np.array(X[row])
    point = {"x": x}
    if "p" in program.replace("label_smoothing", "").replace("cross_entropy", "").replace("nll", ""):
        point["p"] = np.array(P) if batched else np.array(P[row])
    else:
        point["t"] = np.array([0, 2, 1]) if batched else np.array(row % 3)
    return point


def _torch_call(call, point: dict):
    torch = pytest.importorskip("torch")
    tensors = {name: (torch.tensor(v, dtype=torch.int64) if name == "t" else
                      torch.tensor(v, dtype=torch.float64, requires_grad=True)) for name, v in point.items()}
    w = torch.tensor([0.5, 2.0, 1.25], dtype=torch.float64)
    target = tensors["t"] if "t" in tensors else tensors["p"]
    out = call(torch, torch.nn.functional, tensors["x"], target, w)
    seed = torch.linspace(0.5, 1.5, out.numel(), dtype=torch.float64).reshape(out.shape)
    out.backward(seed)
    grads = {name: t.grad.numpy() for name, t in tensors.items() if t.grad is not None}
    return out.detach().numpy(), seed.numpy(), grads, out.grad_fn.name()


@pytest.mark.parametrize(("ours", "theirs"), CALLS)
@pytest.mark.parametrize("batched", [True, False])
def test_values_gradients_and_node_names_are_pytorchs(ours, theirs, batched):
    if not batched and "ignore_index=2" in ours:
        pytest.skip("one sample, ignored: 0/0")
    point = _point(ours, batched)
    value, seed, grads, node = _torch_call(theirs, point)
    tape = compile_program(ours)
    result = grad(tape, at=point, seed=seed.tolist() if seed.ndim else float(seed))
    np.testing.assert_allclose(result.value, value, rtol=1e-13, atol=1e-15)
    assert set(result.grad) == set(grads)  # the class indices take no gradient, and get no entry
    for name, expected in grads.items():
        np.testing.assert_allclose(result.grad[name], expected, rtol=1e-12, atol=1e-15, err_msg=name)
    out = tape.nodes[tape.outputs[0]]
    from gradcli.ops import torch_node_name
    shapes = [np.shape(point.get(tape.nodes[a].name, tape.nodes[a].value)) for a in out.args]
    assert torch_node_name(out.op, [False] * len(out.args), shapes, out.params) == node


@pytest.mark.parametrize("program", ["cross_entropy(x, t, w)", "cross_entropy(x, q, w, label_smoothing=0.2)",
                                     "cross_entropy(x, t, w, label_smoothing=0.3, reduction='sum')",
                                     "nll_loss(x, t, weight=w)", "cross_entropy(x, t, w, reduction='none')[1]"])
def test_gradients_match_central_differences_the_weights_too(program):
    # PyTorch refuses a weight that takes a gradient with class indices; gradcli gives it.
    point = {"x": np.array(X), "w": np.array([0.5, 2.0, 1.25])}
    if "q" in program:
        program = program.replace("q", "softmax(q, -1)")
        point["q"] = np.array(P)
    else:
        point["t"] = np.array([0, 2, 1])
    names = [n for n in point if n != "t"]
    result = grad(program, at=point)
    for which, name in enumerate(names):
        def value(args, names=names):
            return float(grad(program, at={**point, **dict(zip(names, args, strict=True))}).value)
        expected = central_difference(value, [point[n] for n in names], which)
        np.testing.assert_allclose(result.grad[name], expected, rtol=1e-6, atol=1e-8, err_msg=name)


def test_class_indices_are_an_integer_input_and_a_batch_agrees():
    tape = compile_program("cross_entropy(x, t)")
    assert tape.integer_inputs == ("t",)
    batch = grad_batch(tape, {"x": np.array(X), "t": np.array([0, 2, 1])}, 3)
    for k in range(3):
        alone = grad(tape, at={"x": np.array(X[k]), "t": np.array([0, 2, 1][k])})
        np.testing.assert_array_equal(batch.grad["x"][k], alone.grad["x"])


@pytest.mark.parametrize(("program", "at", "words"), [
    ("cross_entropy(x, t)", "x=[1.0, 2.0],t=2", "out of bounds"),
    ("cross_entropy(x, t)", "x=[1.0, 2.0],t=0.5", "whole numbers"),
    ("cross_entropy(x, t)", "x=[[1.0, 2.0]],t=[0, 1]", "target"),
])
def test_bad_targets_are_one_clear_line(program, at, words):
    from tests.helpers import cli
    result = cli("grad", program, "--at", at)
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.stderr
