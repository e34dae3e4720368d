"""kl_div, cosine_similarity, normalize, layer_norm and dropout, against PyTorch (skipped without
it) and central differences: values, gradients and the outermost node's name."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.ops import torch_node_name
from tests.helpers import central_difference, cli

A = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
B = [[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]
W = [0.5, 2.0, -1.25]

CALLS = [  # (gradcli's program, PyTorch's call on (torch, F, a, b, w))
    ("kl_div(a, b)", lambda torch, F, a, b, w: F.kl_div(a, b)),
    ("F.kl_div(a, b, reduction='batchmean')", lambda torch, F, a, b, w: F.kl_div(a, b, reduction="batchmean")),
    ("kl_div(a, b, reduction='sum', log_target=True)",
     lambda torch, F, a, b, w: F.kl_div(a, b, reduction="sum", log_target=True)),
    ("kl_div(a, b, reduction='none')", lambda torch, F, a, b, w: F.kl_div(a, b, reduction="none")),
    ("kl_div(a, b, reduction='none', log_target=True)",
     lambda torch, F, a, b, w: F.kl_div(a, b, reduction="none", log_target=True)),
    ("cosine_similarity(a, b)", lambda torch, F, a, b, w: F.cosine_similarity(a, b)),
    ("cosine_similarity(a, b, dim=0)", lambda torch, F, a, b, w: F.cosine_similarity(a, b, dim=0)),
    ("cosine_similarity(a, b, 1, 0.5)", lambda torch, F, a, b, w: F.cosine_similarity(a, b, 1, 0.5)),
    ("normalize(a)", lambda torch, F, a, b, w: F.normalize(a)),
    ("normalize(a, p=1, dim=0)", lambda torch, F, a, b, w: F.normalize(a, p=1, dim=0)),
    ("normalize(a, 3.0, -1, eps=2.0)", lambda torch, F, a, b, w: F.normalize(a, 3.0, -1, eps=2.0)),
    ("layer_norm(a, (3,))", lambda torch, F, a, b, w: F.layer_norm(a, (3,))),
    ("layer_norm(a, [2, 3], eps=0.1)", lambda torch, F, a, b, w: F.layer_norm(a, [2, 3], eps=0.1)),
    ("layer_norm(a, (3,), w, b[0])", lambda torch, F, a, b, w: F.layer_norm(a, (3,), w, b[0])),
    ("layer_norm(a, (3,), bias=b[1])", lambda torch, F, a, b, w: F.layer_norm(a, (3,), bias=b[1])),
    ("layer_norm(a, (3,), weight=w)", lambda torch, F, a, b, w: F.layer_norm(a, (3,), weight=w)),
    ("dropout(a, 0.0) * b", lambda torch, F, a, b, w: F.dropout(a, 0.0) * b),
    ("F.dropout(a, p=0.3, training=False) * b", lambda torch, F, a, b, w: F.dropout(a, p=0.3, training=False) * b),
]


def _torch(call):
    torch = pytest.importorskip("torch")
    tensors = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (A, B, W)]
    out = call(torch, torch.nn.functional, *tensors)
    seed = torch.linspace(0.5, 1.5, out.numel(), dtype=torch.float64).reshape(out.shape)
    out.backward(seed)
    grads = [t.grad.numpy() if t.grad is not None else np.zeros(t.shape) for t in tensors]
    return out.detach().numpy(), seed.numpy(), grads, out.grad_fn.name()


@pytest.mark.parametrize(("ours", "theirs"), CALLS, ids=[c[0] for c in CALLS])
def test_values_gradients_and_node_names_are_pytorchs(ours, theirs):
    value, seed, grads, node = _torch(theirs)
    tape = compile_program(ours)
    point = {"a": np.array(A), "b": np.array(B), "w": np.array(W)}
    point = {name: v for name, v in point.items() if name in tape.inputs}
    result = grad(tape, at=point, seed=seed.tolist() if seed.ndim else float(seed))
    np.testing.assert_allclose(result.value, value, rtol=1e-13, atol=1e-15)
    for name, expected in zip("abw", grads, strict=True):
        if name in point:
            np.testing.assert_allclose(result.grad[name], expected, rtol=1e-12, atol=1e-15, err_msg=name)
    out = tape.nodes[tape.outputs[0]]
    assert torch_node_name(out.op, [False] * len(out.args), None, out.params) == node


@pytest.mark.parametrize("program", ["kl_div(a, b, reduction='batchmean')", "cosine_similarity(a, b, dim=0)[1]",
                                     "normalize(a, p=1.5)[0, 2]", "layer_norm(a, (3,), w, b[0])[1, 0]",
                                     "layer_norm(a, (2, 3), eps=0.5)[0, 1]"])
def test_gradients_match_central_differences(program):
    point = {"a": np.array(A), "b": np.array(B), "w": np.array(W)}
    tape = compile_program(program)
    names = [n for n in point if n in tape.inputs]
    result = grad(tape, at={n: point[n] for n in names})
    for which, name in enumerate(names):
        def value(args, names=names):
            return float(grad(tape, at=dict(zip(names, args, strict=True))).value)
        expected = central_difference(value, [point[n] for n in names], which)
        np.testing.assert_allclose(result.grad[name], expected, rtol=1e-6, atol=1e-8, err_msg=name)


def test_dropout_that_keeps_everything_is_the_input_itself():
    # PyTorch returns the input itself: no node, as `+x` records none.
    tape = compile_program("dropout(x, 0.0)")
    assert tape.nodes[tape.outputs[0]].name == "x"
    assert len(compile_program("y = F.dropout(x, training=False); y * 2").nodes) == len(compile_program("x * 2").nodes)


@pytest.mark.parametrize("program", ["dropout(x)", "dropout(x, 0.5)", "F.dropout(x, p=0.1, training=True)"])
def test_dropout_that_draws_random_numbers_is_refused(program):
    result = cli("grad", program, "--at", "x=[1.0, 2.0]")
    assert result.exit_code == 2 and result.stdout == ""
    assert "random" in result.stderr and "Traceback" not in result.stderr
