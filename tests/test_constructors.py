"""Values made inside programs and in --at/--seed (#12, point 3): tensor([...]), ones, zeros,
ones_like, zeros_like, full, eye, arange, linspace, inf and nan, with PyTorch's (float64)
values: NumPy's for the plain ones, torch_ranges.json (written by PyTorch) for the ranges."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from gradcli import grad
from gradcli.tape import CONST, compile_program
from tests.helpers import cli

RANGES = json.loads((Path(__file__).resolve().parent / "reference" / "torch_ranges.json").read_text())


def _value(program: str, *options: str) -> np.ndarray:
    run = cli("grad", "--json", *options, "--", program)
    assert run.exit_code == 0, run.stderr
    return np.array(run.json()["value"], dtype=float)


@pytest.mark.parametrize(("program", "expected"), [
    ("ones(3)", np.ones(3)),
    ("torch.ones(2, 3)", np.ones((2, 3))),
    ("np.ones((2, 3))", np.ones((2, 3))),
    ("zeros([2])", np.zeros(2)),
    ("torch.zeros(2, 1, dtype=torch.float64, requires_grad=True)", np.zeros((2, 1))),
    ("full((2, 2), 1.5)", np.full((2, 2), 1.5)),
    ("np.full(3, -2)", np.full(3, -2.0)),
    ("eye(3)", np.eye(3)),
    ("torch.eye(2, 3)", np.eye(2, 3)),
    ("torch.tensor([1., 3.], requires_grad=True)", np.array([1.0, 3.0])),
    ("np.array([[1, 2], [3, 4]], dtype=float)", np.array([[1.0, 2.0], [3.0, 4.0]])),
    ("torch.as_tensor(2.5)", np.array(2.5)),
    ("torch.arange(5)", np.arange(5.0)),
    ("arange(1, 4)", np.arange(1.0, 4.0)),
    ("ones(0)", np.ones(0)),
])
def test_a_constructor_makes_numpys_float64_value(program, expected):
    value = _value(program, "--seed", "ones") if expected.ndim else _value(program)
    np.testing.assert_array_equal(value, expected)


@pytest.mark.parametrize("args", [args for args, _ in RANGES["arange"]])
def test_arange_in_a_program_has_pytorchs_bits(args):
    expected = dict((tuple(a), v) for a, v in RANGES["arange"])[tuple(args)]
    program = f"torch.arange({', '.join(repr(a) for a in args)})"
    tape = compile_program(program)
    node = tape.nodes[tape.outputs[0]]
    assert node.kind == CONST
    assert node.value.tolist() == expected


@pytest.mark.parametrize("args", [args for args, _ in RANGES["linspace"]])
def test_linspace_in_a_program_has_pytorchs_bits(args):
    expected = dict((tuple(a), v) for a, v in RANGES["linspace"])[tuple(args)]
    start, end, steps = args
    tape = compile_program(f"torch.linspace({start!r}, {end!r}, steps={int(steps)})")
    assert tape.nodes[tape.outputs[0]].value.tolist() == expected


def test_a_constructor_of_constants_folds_to_one_constant():
    tape = compile_program("ones(2, 3) * 2 + eye(2, 3)")
    assert [node.kind for node in tape.nodes] == [CONST]
    np.testing.assert_array_equal(tape.nodes[0].value, 2 * np.ones((2, 3)) + np.eye(2, 3))


def test_constants_built_in_the_program_weigh_the_gradient():
    run = cli("grad", "--json", "--at", "x=[1,2]", "--", "sum(torch.tensor([3., 5.], requires_grad=True) * x**2)")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"]["x"] == [6.0, 20.0]  # d/dx sum(c * x**2) = 2 c x


def test_ones_like_depends_only_on_the_shape_no_gradient_flows_through_it():
    run = cli("grad", "--json", "--at", "x=[1,2,3]", "--", "sum(x * ones_like(x) + zeros_like(x))")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] == 6.0
    assert run.json()["grad"]["x"] == [1.0, 1.0, 1.0]  # the product's factor x alone: ones_like(x) is a constant
    graph = cli("graph", "--format", "json", "--at", "x=[1,2,3]", "--", "sum(x * ones_like(x))")
    assert graph.exit_code == 0, graph.stderr
    assert "OnesLike" not in graph.stdout


def test_ones_like_with_points_has_each_points_shape():
    run = cli("grad", "--json", "--points", "-", "--", "sum(x * ones_like(x))", stdin='{"x": [1, 2]}\n{"x": [3, 4]}\n')
    assert run.exit_code == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["grad"]["x"] for line in lines] == [[1.0, 1.0], [1.0, 1.0]]


@pytest.mark.parametrize(("program", "expected"), [
    ("x + inf", math.inf), ("x - torch.inf", -math.inf), ("x * np.nan", math.nan), ("math.inf * 0 + x", math.nan),
    ("x + 2 * -inf", -math.inf),
])
def test_inf_and_nan_are_constants(program, expected):
    value = float(grad(program, at={"x": 1.0}).value)
    assert value == expected or (math.isnan(expected) and math.isnan(value))


@pytest.mark.parametrize(("program", "words"), [
    ("ones(100000, 100000)", "elements"),
    ("torch.arange(0, 1e12)", "elements"),
    ("eye(10**6)", "elements"),
    ("ones(-1)", "negative"),
    ("ones(2.5)", "whole number"),
    ("tensor(x)", "written in the program"),
    ("arange(0, 1, 0)", "step"),
])
def test_constructors_refuse_what_does_not_fit_before_making_it(program, words):
    run = cli("grad", "--at", "x=1", "--", program)
    assert run.exit_code == 2
    assert run.stdout == ""
    assert words in run.stderr.splitlines()[0]
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(("text", "expected"), [
    ('x=torch.tensor([1.,3.])', [1.0, 3.0]),
    ("x=ones(3)", [1.0, 1.0, 1.0]),
    ("x=np.array([[1, 2]], dtype=float)", [[1.0, 2.0]]),
    ("x=zeros(2)", [0.0, 0.0]),
    ("x=full((2,), 0.5)", [0.5, 0.5]),
    ("x=eye(2)", [[1.0, 0.0], [0.0, 1.0]]),
    ("x=torch.arange(3)", [0.0, 1.0, 2.0]),
])
def test_constructors_in_at(text, expected):
    run = cli("grad", "--json", "--at", text, "--seed", "ones", "--", "x * 1")
    assert run.exit_code == 0, run.stderr
    assert run.json()["at"]["x"] == expected


@pytest.mark.parametrize("seed", ["ones_like(y)", "torch.ones_like(y)", "ones(2)", "tensor([1, 1])"])
def test_constructors_in_seed(seed):
    run = cli("grad", "--json", "--at", "x=[1,3]", "--seed", seed, "--", "y = x**2")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"]["x"] == [2.0, 6.0]

