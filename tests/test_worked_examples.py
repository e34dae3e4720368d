"""The worked examples of DESIGN.md (from PyTorch), through the CLI and the Python API."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import ShapeProblem
from gradcli.inputs.literals import parse_assignments
from tests.helpers import cli, process

EXAMPLES = [
    # program, --at, options, expected gradient
    ("log(x1*x2)*sin(x2)", "x1=0.5,x2=0.75", [], {"x1": 1.3633, "x2": 0.1912}),
    ("O = 3*a**3; P = b**2; Q = O - P", "a=2,b=6", [], {"a": 36.0, "b": -12.0}),
    ("y = z**2; l = sum(y)", "z=[1,3]", ["--of", "y", "--seed", "[1,1]"], {"z": [2.0, 6.0]}),
    ("y = z**2; l = sum(y)", "z=[1,3]", [], {"z": [2.0, 6.0]}),
    ("log(x[0]*x[1])*sin(x[1])", "x=[0.5,0.75]", [], {"x": [1.3633, 0.1912]}),
]


@pytest.mark.parametrize(("program", "at", "options", "expected"), EXAMPLES)
def test_worked_example_through_the_cli(program, at, options, expected):
    run = cli("grad", program, "--at", at, *options, "--json")
    assert run.exit_code == 0, run.stderr
    document = run.json()
    assert set(document["grad"]) == set(expected)
    for name, gradient in expected.items():
        np.testing.assert_allclose(document["grad"][name], gradient, atol=5e-5)


@pytest.mark.parametrize(("program", "at", "options", "expected"), EXAMPLES)
def test_worked_example_through_the_api(program, at, options, expected):
    keyword = dict(zip(options[::2], options[1::2], strict=True))
    point = {name: value.tolist() for name, value in parse_assignments(at).items()}  # plain Python values
    result = grad(program, at=point, of=keyword.get("--of"), seed=keyword.get("--seed"))
    for name, gradient in expected.items():
        np.testing.assert_allclose(result.grad[name], gradient, atol=5e-5)


def test_first_example_prints_value_and_gradient_in_a_table():
    run = cli("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75")
    assert run.exit_code == 0
    assert "-0.668571" in run.stdout
    assert "1.36328" in run.stdout and "0.19119" in run.stdout


def test_x2_gathers_both_paths_into_its_gradient():
    result = grad("log(x1*x2)*sin(x2)", at={"x1": 0.5, "x2": 0.75}, trace=True)
    assert result.trace is not None
    x2 = result.tape.inputs["x2"]
    into_x2 = [float(step.contribution) for step in result.trace if step.arg == x2]
    np.testing.assert_allclose(sorted(into_x2), [-0.7177, 0.9089], atol=5e-5)
    np.testing.assert_allclose(sum(into_x2), 0.1912, atol=5e-5)


def test_non_scalar_output_without_seed_is_an_error_in_pytorchs_words():
    with pytest.raises(ShapeProblem, match="grad can be implicitly created only for scalar outputs"):
        grad("y = x**2", at={"x": [1, 2, 3]})
    run = cli("grad", "y = x**2", "--at", "x=[1,2,3]")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "grad can be implicitly created only for scalar outputs" in run.stderr


def test_relu_with_seed_ones_over_an_arange():
    run = cli("grad", "relu(x)", "--at", "x=arange(-8,8,0.1)", "--seed", "ones", "--json")
    assert run.exit_code == 0, run.stderr
    x = np.array(run.json()["at"]["x"])
    gradient = np.array(run.json()["grad"]["x"])
    assert x.shape == (160,)
    assert np.all(gradient[x < 0] == 0.0)
    assert np.all(gradient[x > 0] == 1.0)


def test_first_example_as_a_newcomer_runs_it():
    run = process("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75")
    assert run.exit_code == 0, run.stderr
    assert "1.36328" in run.stdout
