"""The shape ops (reshape, transpose, cat, pad, diag, ...) against PyTorch: values, gradients and
the node PyTorch records, for the calls as PyTorch and NumPy write them. Needs torch (skipped
without it); the op table's generated tests cover every row without torch."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from tests.helpers import cli

M = [[1.0, -2.0, 3.0], [4.0, 0.5, -6.0]]
V = [1.5, -2.0, 3.0, 0.25]
S = [[[1.0, 2.0, -1.0]], [[0.5, -3.0, 2.0]]]  # (2, 1, 3)
Q = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.5]]

def _at(assignments: list[str]) -> list[str]:
    return [word for assignment in assignments for word in ("--at", assignment)]


# (program, its inputs, the same in PyTorch, the node PyTorch records for it)
CASES = [
    ("m.reshape(3, 2)", {"m": M}, lambda t, m: m.reshape(3, 2), "ViewBackward0"),
    ("m.reshape((-1,))", {"m": M}, lambda t, m: m.reshape(-1), "ViewBackward0"),
    ("m.view(3, -1)", {"m": M}, lambda t, m: m.view(3, -1), "ViewBackward0"),
    ("np.reshape(m, (1, 6))", {"m": M}, lambda t, m: m.reshape(1, 6), "ViewBackward0"),
    ("s.flatten()", {"s": S}, lambda t, s: s.flatten(), "ViewBackward0"),
    ("flatten(s, start_dim=1)", {"s": S}, lambda t, s: t.flatten(s, start_dim=1), "ViewBackward0"),
    ("s.squeeze()", {"s": S}, lambda t, s: s.squeeze(), "SqueezeBackward0"),
    ("s.squeeze(1)", {"s": S}, lambda t, s: s.squeeze(1), "SqueezeBackward1"),
    ("s.squeeze(0)", {"s": S}, lambda t, s: s.squeeze(0), "SqueezeBackward1"),
    ("torch.squeeze(s, (0, 1))", {"s": S}, lambda t, s: t.squeeze(s, (0, 1)), "SqueezeBackward2"),
    ("v.unsqueeze(0)", {"v": V}, lambda t, v: v.unsqueeze(0), "UnsqueezeBackward0"),
    ("m.unsqueeze(-1)", {"m": M}, lambda t, m: m.unsqueeze(-1), "UnsqueezeBackward0"),
    ("np.expand_dims(m, axis=1)", {"m": M}, lambda t, m: m.unsqueeze(1), "UnsqueezeBackward0"),
    ("m.transpose(0, 1)", {"m": M}, lambda t, m: m.transpose(0, 1), "TransposeBackward0"),
    ("np.swapaxes(s, 0, 2)", {"s": S}, lambda t, s: s.swapaxes(0, 2), "TransposeBackward0"),
    ("s.permute(2, 0, 1)", {"s": S}, lambda t, s: s.permute(2, 0, 1), "PermuteBackward0"),
    ("torch.permute(s, (1, 2, 0))", {"s": S}, lambda t, s: t.permute(s, (1, 2, 0)), "PermuteBackward0"),
    ("np.transpose(m)", {"m": M}, lambda t, m: m.permute(1, 0), "PermuteBackward0"),
    ("m.t()", {"m": M}, lambda t, m: m.t(), "TBackward0"),
    ("v.expand(2, 4)", {"v": V}, lambda t, v: v.expand(2, 4), "ExpandBackward0"),
    ("s.expand(2, 2, -1)", {"s": S}, lambda t, s: s.expand(2, 2, -1), "ExpandBackward0"),
    ("torch.broadcast_to(v, (3, 4))", {"v": V}, lambda t, v: t.broadcast_to(v, (3, 4)), "ExpandBackward0"),
    ("m.repeat(2, 1, 2)", {"m": M}, lambda t, m: m.repeat(2, 1, 2), "RepeatBackward0"),
    ("np.tile(m, 2)", {"m": M}, lambda t, m: m.tile(2), "RepeatBackward0"),
    ("m.flip(0)", {"m": M}, lambda t, m: m.flip(0), "FlipBackward0"),
    ("torch.flip(m, (0, 1))", {"m": M}, lambda t, m: t.flip(m, (0, 1)), "FlipBackward0"),
    ("m.roll(1)", {"m": M}, lambda t, m: m.roll(1), "RollBackward0"),
    ("m.roll((1, -1), (0, 1))", {"m": M}, lambda t, m: m.roll((1, -1), (0, 1)), "RollBackward0"),
    ("cat([v, 2*v[:2]])", {"v": V}, lambda t, v: t.cat([v, 2 * v[:2]]), "CatBackward0"),
    ("torch.cat((m, m[:, :1]), dim=1)", {"m": M}, lambda t, m: t.cat((m, m[:, :1]), dim=1), "CatBackward0"),
    ("np.concatenate([m, m], axis=0)", {"m": M}, lambda t, m: t.cat([m, m], 0), "CatBackward0"),
    ("F.pad(m, (1, 2))", {"m": M}, lambda t, m: t.nn.functional.pad(m, (1, 2)), "ConstantPadNdBackward0"),
    ("F.pad(m, (0, 1, 2, 0), value=-1.5)", {"m": M},
     lambda t, m: t.nn.functional.pad(m, (0, 1, 2, 0), value=-1.5), "ConstantPadNdBackward0"),
    ("F.pad(m, (-1, 1))", {"m": M}, lambda t, m: t.nn.functional.pad(m, (-1, 1)), "ConstantPadNdBackward0"),
    ("F.pad(m, (1, 1), mode='reflect')", {"m": M},
     lambda t, m: t.nn.functional.pad(m, (1, 1), mode="reflect"), "ReflectionPad1DBackward0"),
    ("diag(v)", {"v": V}, lambda t, v: t.diag(v), "DiagEmbedBackward0"),
    ("torch.diag(v, 1)", {"v": V}, lambda t, v: t.diag(v, 1), "DiagEmbedBackward0"),
    ("diag(m, diagonal=-1)", {"m": M}, lambda t, m: t.diag(m, diagonal=-1), None),
    ("q.diagonal()", {"q": Q}, lambda t, q: q.diagonal(), "DiagonalBackward0"),
    ("torch.diagonal(s, 0, 0, 2)", {"s": S}, lambda t, s: t.diagonal(s, 0, 0, 2), "DiagonalBackward0"),
    ("trace(q)", {"q": Q}, lambda t, q: t.trace(q), "TraceBackward0"),
    ("m.trace()", {"m": M}, lambda t, m: m.trace(), "TraceBackward0"),
    ("q.tril()", {"q": Q}, lambda t, q: q.tril(), "TrilBackward0"),
    ("torch.tril(m, diagonal=-1)", {"m": M}, lambda t, m: t.tril(m, diagonal=-1), "TrilBackward0"),
    ("q.triu(1)", {"q": Q}, lambda t, q: q.triu(1), "TriuBackward0"),
]


@pytest.mark.parametrize(("program", "inputs", "spelled", "node"), CASES, ids=[c[0] for c in CASES])
def test_shape_ops_give_pytorchs_values_gradients_and_node(program, inputs, spelled, node):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True) for name, value in inputs.items()}
    out = spelled(torch, *tensors.values())
    seed = torch.arange(1.0, out.numel() + 1, dtype=torch.float64).reshape(out.shape) * 0.5 - 1.0
    out.backward(seed)
    at = [f"{name}={value}" for name, value in inputs.items()]
    run = cli("grad", "--json", "--seed", str(seed.tolist()), *_at(at), "--", program)
    assert run.exit_code == 0, run.stderr
    result = run.json()
    np.testing.assert_array_equal(np.array(result["value"]), out.detach().numpy())
    for name, tensor in tensors.items():
        np.testing.assert_array_equal(np.array(result["grad"][name]), tensor.grad.numpy(), err_msg=name)
    if node is not None:
        graph = cli("graph", "--format", "json", "--seed", "ones", *_at(at), "--", program)
        assert graph.exit_code == 0, graph.stderr
        assert graph.json()["nodes"][0]["op"] == type(out.grad_fn).__name__ == node


@pytest.mark.parametrize(("program", "words"), [
    ("m.reshape(4, 2)", ["shape '[4, 2]' is invalid for input of size 6", "column 1"]),
    ("m.reshape(-1, -1)", ["only one dimension can be inferred"]),
    ("m.reshape(x)", ["must be written in the program"]),
    ("m.transpose(0, 2)", ["Dimension out of range"]),
    ("m.permute(0)", ["does not match the length of the desired ordering"]),
    ("v.expand(2, 3)", ["must match the existing size (4)"]),
    ("m.repeat(2)", ["can not be smaller than number of dimensions"]),
    ("cat([m, v])", ["Tensors must have same number of dimensions"]),
    ("cat([m, m.t()])", ["Sizes of tensors must match except in dimension 0"]),
    ("F.pad(m, (1,))", ["Padding length must be divisible by 2"]),
    ("F.pad(m, (1, 1), mode='circular')", ["mode='circular'"]),
    ("trace(v)", ["trace: expected a matrix"]),
    ("tril(v)", ["at least 2 dimensions"]),
    ("diag(s)", ["Supports 1D or 2D tensors"]),
    ("s.t()", ["t() expects a tensor with <= 2 dimensions"]),
    ("m.roll((1, 2))", ["shifts and dimensions must align"]),
])
def test_a_shape_that_does_not_fit_is_refused_in_pytorchs_words(program, words):
    values = {"m": M, "v": V, "s": S, "x": 1.0}
    names = set(re.findall(r"\b[a-z]\b", program))
    at = [f"{name}={values[name]}" for name in values if name in names]
    run = cli("grad", *_at(at), "--", program)
    assert run.exit_code == 2 and run.stdout == ""
    line = run.stderr.splitlines()[0] if run.stderr else ""
    assert all(word in run.stderr for word in words), run.stderr
    assert "Traceback" not in run.stderr and line.startswith("gradcli: error:")


INDEX_AND_PROPERTY_CASES = [
    ("v[None]", {"v": V}, lambda t, v: v[None], "UnsqueezeBackward0"),
    ("m[:, None]", {"m": M}, lambda t, m: m[:, None], "UnsqueezeBackward0"),
    ("m[..., 0]", {"m": M}, lambda t, m: m[..., 0], "SelectBackward0"),
    ("s[..., 1:]", {"s": S}, lambda t, s: s[..., 1:], "SliceBackward0"),
    ("s[0, ..., None]", {"s": S}, lambda t, s: s[0, ..., None], "UnsqueezeBackward0"),
    ("m[np.newaxis, :, 1]", {"m": M}, lambda t, m: m[None, :, 1], "SelectBackward0"),
    ("m[...]", {"m": M}, lambda t, m: m[...], "AliasBackward0"),
    ("m.T", {"m": M}, lambda t, m: m.T, "PermuteBackward0"),
    ("s.mT", {"s": S}, lambda t, s: s.mT, "TransposeBackward0"),
    ("(2*m).T.sum(0)", {"m": M}, lambda t, m: (2 * m).T.sum(0), "SumBackward1"),
    ("stack([m, 2*m], dim=1)", {"m": M}, lambda t, m: t.stack([m, 2 * m], dim=1), "StackBackward0"),
    ("torch.stack((v, v), -1)", {"v": V}, lambda t, v: t.stack((v, v), -1), "StackBackward0"),
    ("np.stack([v, v])", {"v": V}, lambda t, v: t.stack([v, v]), "StackBackward0"),
    ("m.repeat(1, 2)", {"m": M}, lambda t, m: m.repeat(1, 2), "RepeatBackward0"),
]


@pytest.mark.parametrize(("program", "inputs", "spelled", "node"), INDEX_AND_PROPERTY_CASES,
                         ids=[c[0] for c in INDEX_AND_PROPERTY_CASES])
def test_new_axes_ellipsis_properties_and_stack_give_pytorchs_results(program, inputs, spelled, node):
    test_shape_ops_give_pytorchs_values_gradients_and_node(program, inputs, spelled, node)


def test_new_axes_ellipsis_and_properties_work_on_a_batch_of_points(tmp_path):
    program = "sum(m[..., None, 1:] ** 2) + sum(m[None, :, 0] * m.T[1]) + sum(cat([m, m.mT.reshape(2, 3)]))"
    ms = [[[1, 2, 3], [4, 5, 6]], [[0, 1, 0], [2, -1, 1]]]
    points = tmp_path / "points.jsonl"
    points.write_text("".join(json.dumps({"m": m}) + "\n" for m in ms))
    run = cli("grad", "--points", str(points), "--json", "--", program)
    assert run.exit_code == 0, run.stderr
    for line, m in zip(run.stdout.splitlines(), ms, strict=True):
        a = np.array(m, dtype=float)
        expected = np.sum(a[..., None, 1:] ** 2) + np.sum(a[None, :, 0] * a.T[1]) + np.sum(a) + np.sum(a.T)
        alone = cli("grad", "--json", "--at", f"m={m}", "--", program).json()
        result = json.loads(line)
        assert result["value"] == pytest.approx(float(expected))
        assert result["grad"] == alone["grad"]


def test_repeat_is_a_method_only_as_numpys_repeat_is_another_op():
    run = cli("grad", "--at", "v=[1, 2]", "--", "sum(repeat(v, 2))")
    assert run.exit_code == 2 and "unknown function 'repeat'" in run.stderr
    # np.repeat is NumPy's own: each element repeated (torch.repeat_interleave), never x.repeat's tiling (#21)
    run = cli("grad", "--json", "--at", "v=[1, 2]", "--seed", "[1, 2, 3, 4]", "--", "np.repeat(v, 2)")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] == np.repeat([1.0, 2.0], 2).tolist()
    assert run.json()["grad"] == {"v": [3.0, 7.0]}


def test_t_is_a_method_only_and_stays_a_name_for_an_input():
    run = cli("grad", "--json", "--at", "t=2", "--at", "m=[[1, 2], [3, 4]]", "--", "sum(t * m.t()[0])")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"] == {"t": 4.0, "m": [[2.0, 0.0], [2.0, 0.0]]}


@pytest.mark.parametrize(("program", "words"), [
    ("m.T.T.X", ["attribute access"]),
    ("m.mT()", ["'mT' is a property"]),
    ("v[None, None, None, 0, 1]", ["index out of range"]),
    ("m[..., ..., 0]", ["an index can only have a single ellipsis"]),
])
def test_properties_and_new_axes_refuse_what_pytorch_refuses(program, words):
    names = set(re.findall(r"\b[a-z]\b", program))
    values = {"m": M, "v": V}
    run = cli("grad", *_at([f"{n}={values[n]}" for n in values if n in names]), "--", program)
    assert run.exit_code == 2 and run.stdout == "", run.stdout
    assert all(word in run.stderr for word in words), run.stderr


TUPLE_CASES = [
    ("a, b = v.split(2)\na * b", {"v": V}, lambda t, v: (lambda a, b: a * b)(*v.split(2)), "MulBackward0"),
    ("t = v.chunk(2); t[1] - t[0]", {"v": V}, lambda t, v: v.chunk(2)[1] - v.chunk(2)[0], "SubBackward0"),
    ("v.split(3)[-1]", {"v": V}, lambda t, v: v.split(3)[-1], "SplitBackward0"),
    ("m.split((1, 2), dim=1)[1]", {"m": M}, lambda t, m: m.split((1, 2), dim=1)[1], "SplitWithSizesBackward0"),
    ("a, b, c = m.chunk(3, 1); a + 2*b + 3*c", {"m": M},
     lambda t, m: (lambda a, b, c: a + 2 * b + 3 * c)(*m.chunk(3, 1)), "AddBackward0"),
    ("a, b = (m, 2*m); a @ b.T", {"m": M}, lambda t, m: m @ (2 * m).T, "MmBackward0"),
    ("u, w = v.chunk(2); p = (u, w); sum(p[0] * p[1])", {"v": V},
     lambda t, v: t.sum(v.chunk(2)[0] * v.chunk(2)[1]), "SumBackward0"),
]


@pytest.mark.parametrize(("program", "inputs", "spelled", "node"), TUPLE_CASES, ids=[c[0] for c in TUPLE_CASES])
def test_tuples_inside_programs_give_pytorchs_results(program, inputs, spelled, node):
    test_shape_ops_give_pytorchs_values_gradients_and_node(program, inputs, spelled, node)


def test_unpacking_as_the_last_statement_outputs_the_names():
    run = cli("grad", "--json", "--seed", "([1, 1], [1, 1])", "--at", f"v={V}", "--", "a, b = v.split(2)")
    assert run.exit_code == 0, run.stderr
    assert run.json()["of"] == ["a", "b"]
    assert run.json()["value"] == [V[:2], V[2:]]
    assert run.json()["grad"] == {"v": [1.0, 1.0, 1.0, 1.0]}


@pytest.mark.parametrize(("program", "words"), [
    ("v.split(2)", ["how many values split gives depends on the shapes", "unpack it"]),
    ("v.chunk(2) + 1", ["a tuple is not a value", "index it"]),
    ("a, b, c = v.split(2)\na", ["cannot unpack 2 parts into 3 names"]),
    ("a, b = v", ["only a tuple can be unpacked"]),
    ("a, b = (v, v, v)", ["cannot unpack 3 values into 2 names"]),
    ("t = (v, v); t[2]", ["tuple index out of range"]),
    ("t = (v, v); t[0:1]", ["a tuple takes one whole number as its index"]),
    ("sum(v.split(5)[1])", ["tuple index out of range"]),
    ("sum(m.split((1, 2))[0])", ["split_with_sizes expects split_sizes to sum exactly to 2"]),
    ("sum(v.chunk(0)[0])", ["chunk expects `chunks` to be greater than 0"]),
    ("np.split(v, 2)", ["how many values split gives depends on the shapes", "unpack it"]),  # (NumPy's split, #21)
])
def test_tuples_refuse_what_python_and_pytorch_refuse(program, words):
    names = set(re.findall(r"\b[a-z]\b", program))
    values = {"m": M, "v": V}
    run = cli("grad", *_at([f"{n}={values[n]}" for n in values if n in names]), "--", program)
    assert run.exit_code == 2 and run.stdout == "", run.stdout
    assert all(word in run.stderr for word in words), run.stderr
    assert "Traceback" not in run.stderr


def test_unpacking_round_trips_through_the_printer():
    from gradcli import syntax

    for source in ["a, b = x.split(2)\na * b", "m.repeat(2, 1).t()", "y = m[..., None].T"]:
        tree = syntax.parse(source)
        assert syntax.parse(syntax.to_source(tree)) == tree


@pytest.mark.parametrize("program", ["sum(torch.as_strided(a, [2], [1]))", "sum(torch.as_strided_copy(a, [2], [1]))",
                                     "sum(torch.as_strided_scatter(a, a[:1], [1], [1], 1))"])
def test_as_strided_over_no_points_is_no_rows(tmp_path, program):
    # (a batch of no points: its storage's length is written out, not inferred from a size of 0)
    empty = tmp_path / "none.csv"
    empty.write_text("b\n")  # (a column, no rows: a given by --at, the same at each of no points)
    run = cli("grad", f"{program} * b", "--at", "a=[1, 2]", "--points", str(empty), "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["value,grad_a[0],grad_a[1],grad_b"]
