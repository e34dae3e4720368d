"""cross_entropy and nll_loss: class-index targets (an integer input or constant: no gradient,
no grad entry) and class-probability targets (a float: it takes a gradient), weight=,
ignore_index, label_smoothing, reduction, on (N, C) and (C,) inputs, against PyTorch (skipped
without it) and against central differences."""

from __future__ import annotations

import re

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


XK = np.linspace(-2.0, 2.5, 24).reshape(2, 3, 4) ** 2 % 3.0 - 1.0  # (N, C, d1)
TK = np.array([[0, 2, 1, 1], [2, 0, 0, 1]])


@pytest.mark.parametrize(("program", "chain", "shape"), [
    # PyTorch's K-dimensional loss: nll_loss2d of the (N, C, 1, d1) view, the loss of each element viewed back (the
    # nodes along each first next function, as PyTorch 2.13 records them)
    ("cross_entropy(x, t)", ["NllLoss2DBackward0", "ViewBackward0", "LogSoftmaxBackward0", "AccumulateGrad"], ()),
    ("cross_entropy(x, t, reduction='none')",
     ["ViewBackward0", "NllLoss2DBackward0", "ViewBackward0", "LogSoftmaxBackward0", "AccumulateGrad"], (2, 4)),
    (f"cross_entropy(x, t, {W}, reduction='sum', ignore_index=1)",
     ["NllLoss2DBackward0", "ViewBackward0", "LogSoftmaxBackward0", "AccumulateGrad"], ()),
    ("cross_entropy(x, t, label_smoothing=0.2)",
     ["AddBackward0", "MulBackward1", "NllLoss2DBackward0", "ViewBackward0", "LogSoftmaxBackward0", "AccumulateGrad"], ()),
    (f"cross_entropy(x, t, weight={W}, label_smoothing=0.3, reduction='none')",
     ["AddBackward0", "MulBackward1", "ViewBackward0", "NllLoss2DBackward0", "ViewBackward0", "LogSoftmaxBackward0",
      "AccumulateGrad"], (2, 4)),
    ("nll_loss(log_softmax(x, 1), t)", ["NllLoss2DBackward0", "ViewBackward0", "LogSoftmaxBackward0", "AccumulateGrad"], ()),
    ("nll_loss(x.reshape(2, 3, 2, 2), t.reshape(2, 2, 2), reduction='none')",
     ["NllLoss2DBackward0", "ViewBackward0", "AccumulateGrad"], (2, 2, 2)),
    ("cross_entropy(x, softmax(x * 0.5, 1))",
     ["DivBackward1", "NegBackward0", "SumBackward0", "MulBackward0", "LogSoftmaxBackward0", "AccumulateGrad"], ()),
])
def test_an_input_of_more_than_two_dims_is_pytorchs_k_dimensional_loss(program, chain, shape):
    import json

    from tests.helpers import cli
    point = {"x": XK, "t": TK} if re.search(r"\bt\b", program) else {"x": XK}
    at = ",".join(f"{name}={value.tolist()}" for name, value in point.items())
    graph = json.loads(cli("graph", program, "--at", at, "--seed", "ones", "--format", "json").stdout)
    nodes = {node["id"]: node for node in graph["nodes"]}
    names, node = [], nodes[graph["roots"][0]]
    while True:
        names.append(node["op"])
        if not node["next_functions"] or node["next_functions"][0] is None:
            break
        node = nodes[node["next_functions"][0]]
    assert names == chain
    result = grad(program, at=point, seed="ones")
    assert np.shape(result.value) == shape

    def total(args):
        return float(np.sum(grad(program, at={**point, "x": args[0]}, seed="ones").value))

    np.testing.assert_allclose(result.grad["x"], central_difference(total, [XK], 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(("t", "words"), [
    ("[[0, 1, 2], [0, 1, 2]]", "Expected target size [2, 4], got [2, 3]"),
    ("[0, 1]", "Expected target size [2, 4], got [2]"),
    ("[[0, 1, 2, 3], [0, 1, 2, 0]]", "Target 3 is out of bounds."),
])
def test_a_k_dimensional_target_that_does_not_fit_is_refused_in_pytorchs_words(t, words):
    from tests.helpers import cli
    result = cli("grad", "cross_entropy(x, t)", "--at", f"x={XK.tolist()},t={t}")
    assert result.exit_code == 2 and result.stdout == ""
    assert words in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("program", ["cross_entropy(x, t)", "cross_entropy(x, t, reduction='sum', ignore_index=2)",
                                     "cross_entropy(x, t, label_smoothing=0.1)", "nll_loss(x, t)"])
def test_a_batch_of_k_dimensional_points_gives_what_each_point_gives(program):
    # (the tape of a batch is made before the point's shapes are known: the classes are dim 1 all the same)
    xs = np.stack([XK, XK[::-1] * 0.5])
    ts = np.stack([TK, TK[:, ::-1]])
    tape = compile_program(program)
    batch = grad_batch(tape, {"x": xs, "t": ts}, 2)
    for k in range(2):
        alone = grad(program, at={"x": xs[k], "t": ts[k]})
        np.testing.assert_allclose(batch.values[0][k], alone.value, rtol=1e-14)
        np.testing.assert_allclose(batch.grad["x"][k], alone.grad["x"], rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize(("x", "t"), [(X, P), (X[0], P[0]), (X, [0, 2, 1]), (X[1], 2)])
def test_an_input_target_is_read_by_its_shape_as_pytorch_reads_it(x, t):
    # a target of the input's shape is class probabilities (it takes a gradient); any other, class indices
    torch = pytest.importorskip("torch")
    probs = np.shape(t) == np.shape(x)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    tt = torch.tensor(t, dtype=torch.float64 if probs else torch.int64, requires_grad=probs)
    loss = torch.nn.functional.cross_entropy(xt, tt)
    loss.backward()
    result = grad("cross_entropy(x, t)", at={"x": np.array(x), "t": np.array(t)})
    np.testing.assert_allclose(result.value, loss.item(), rtol=1e-14)
    np.testing.assert_allclose(result.grad["x"], xt.grad.numpy(), rtol=1e-13, atol=1e-16)
    assert ("t" in result.grad) == probs
    if probs:
        np.testing.assert_allclose(result.grad["t"], tt.grad.numpy(), rtol=1e-13, atol=1e-16)


def test_over_points_an_input_target_of_probabilities_says_how_to_write_it():
    from tests.helpers import cli
    lines = '{"x": [1, 2, 3], "t": [0.2, 0.3, 0.5]}\n'
    refused = cli("grad", "cross_entropy(x, t)", "--points", "-", "--json", stdin=lines)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "cross_entropy(x, t * 1.0)" in refused.stderr.splitlines()[0]
    answered = cli("grad", "cross_entropy(x, t * 1.0)", "--points", "-", "--json", stdin=lines)
    alone = grad("cross_entropy(x, t)", at={"x": np.array([1.0, 2, 3]), "t": np.array([0.2, 0.3, 0.5])})
    assert answered.exit_code == 0
    assert __import__("json").loads(answered.stdout)["value"] == pytest.approx(float(alone.value), rel=1e-15)
