"""Keyword arguments and static parameters of calls (#12, point 1): `sum(m, dim=0)`,
`x.mean(axis=-1, keepdims=True)`; the spelled forms give the tape of the plain one, and what
does not fit is exit 2 with one line pointing at it."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import syntax
from gradcli.tape import compile_program
from tests.helpers import central_difference, cli
from tests.test_spellings import assert_refused


def params_of(source: str) -> list[tuple]:
    return [(node.kind, node.op.name if node.op else None, node.args, dict(node.params))
            for node in compile_program(source).nodes]


@pytest.mark.parametrize(("spelled", "plain"), [
    ("m.sum(dim=0)", "sum(m, 0)"),
    ("m.sum(axis=0)", "sum(m, 0)"),
    ("torch.sum(m, dim=-1, keepdim=True)", "sum(m, -1, True)"),
    ("np.mean(m, axis=(0, 1), keepdims=False)", "mean(m, (0, 1))"),
    ("m.mean(dim=[0, 1])", "mean(m, (0, 1))"),
    ("sum(m, dim=None)", "sum(m)"),
    ("m.sum(2 - 3)", "sum(m, -1)"),
])
def test_keywords_and_positions_give_one_tape(spelled, plain):
    assert params_of(spelled) == params_of(plain)


def test_a_reduction_over_a_dim_is_numpys_with_the_gradient_of_central_differences():
    m = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
    for program, reference in [("sum(m**2, dim=0) @ [1, 2, 3]", lambda a: np.sum(a**2, axis=0) @ np.array([1, 2, 3])),
                               ("m.mean(axis=-1, keepdims=True).sin().sum()",
                                lambda a: np.sin(np.mean(a, axis=-1, keepdims=True)).sum())]:
        run = cli("grad", "--at", "m=[[1,-2,3],[0.5,4,-1.5]]", "--json", "--", program)
        assert run.exit_code == 0, run.stderr
        assert run.json()["value"] == pytest.approx(reference(m), rel=1e-12)
        grad = np.array(run.json()["grad"]["m"])
        expected = central_difference(lambda args, reference=reference: float(reference(args[0])), [m], 0)
        assert grad == pytest.approx(expected, rel=1e-6, abs=1e-8)


def test_pytorchs_node_tells_a_sum_over_dims_from_a_sum_of_everything():
    run = cli("graph", "--at", "m=[[1,2],[3,4]]", "--format", "json", "--", "m.sum(dim=0).sum()")
    assert run.exit_code == 0, run.stderr
    assert [node["op"] for node in run.json()["nodes"]] == ["SumBackward0", "SumBackward1", "AccumulateGrad"]


def test_keywords_round_trip_through_the_printer():
    for source in ["sum(m, dim=0, keepdim=True)", "einsum('ij->ji', m)", "x.sum(axis=(0, 1))"]:
        tree = syntax.parse(source)
        assert syntax.parse(syntax.to_source(tree)) == tree


@pytest.mark.parametrize(("program", "words"), [
    ("sum(x, dim=)", ["unexpected ')'", "column 12"]),
    ("sum(x, dim=0, 1)", ["positional argument follows keyword argument", "column 15"]),
    ("sum(x, foo=1)", ["unexpected keyword argument 'foo'", "dim=, keepdim="]),
    ("sum(x, 0, dim=0)", ["multiple values for argument 'dim'"]),
    ("sum(x, dim=0, dim=1)", ["'dim' repeated"]),
    ("sum(x, dim=x)", ["must be written in the program"]),
    ("sum(x, 0.5)", ["dim must be a whole number"]),
    ("sum(x, 3)", ["Dimension out of range"]),
    ("x.sum(keepdim=2)", ["keepdim", "must be bool, not int"]),  # (PyTorch's parser: a method's bool takes a bool alone)
    ("(x, dim=1)", ["unexpected '='", "keyword arguments go inside a call"]),
    ("x = None", ["None is not a value"]),
    ("x + 'a'", ["a string is not a value"]),
    ("sin(x, 1, 2)", ["sin takes 1 argument, got 3"]),
    ("sum(x, 'ab)", ["unterminated string"]),
    ("True = 1", ["True"]),
])
def test_a_call_that_does_not_fit_is_refused_at_its_column(program, words):
    assert_refused(program, "x=[1,2]", *words)


def test_true_and_false_are_numbers_as_pytorch_promotes_them():
    run = cli("grad", "--at", "x=2", "--json", "--", "x * True + False")
    assert run.exit_code == 0
    assert run.json()["value"] == 2.0
    assert run.json()["grad"]["x"] == 1.0
