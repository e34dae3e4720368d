"""gradcli explain: the forward tape and the backward sweep, written out for a learner."""

from __future__ import annotations

import re

from tests.helpers import cli


def test_first_example_is_explained_step_by_step():
    run = cli("explain", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75")
    assert run.exit_code == 0, run.stderr
    text = " ".join(run.stdout.split())  # rich may wrap long lines
    # the forward tape
    assert "v2 x1 * x2 0.375 MulBackward0" in text
    assert "v3 log(v2) -0.980829 LogBackward0" in text
    assert "v4 sin(x2) 0.681639 SinBackward0" in text
    # the seed, then the chain rule on each edge, with its formula
    assert "seed: v5.grad = 1 (d out / d out = 1)" in text
    assert "x2.grad += v4.grad × ∂v4/∂x2 = cos(x2) = -0.980829 × 0.731689 = -0.717662 -> -0.717662" in text
    assert "x2.grad += v2.grad × ∂v2/∂x2 = x1 = 1.8177 × 0.5 = 0.908852 -> 0.19119" in text
    assert "accumulated: -0.717662 was there" in text
    assert "x1.grad = 1.36328" in text and "x2.grad = 0.19119" in text


def test_every_update_of_the_sweep_is_written_once():
    run = cli("explain", "y = x*x; z = sin(y) + y", "--at", "x=0.5")
    text = " ".join(run.stdout.split())
    assert len(re.findall(r"x\.grad \+=", text)) == 2  # two edges of x*x
    assert len(re.findall(r"v1\.grad \+=", text)) == 2  # y reached via sin and directly


def test_a_vector_output_explains_its_seed_as_the_vector_of_the_vjp():
    run = cli("explain", "y = z**2; l = sum(y)", "--at", "z=[1,3]", "--of", "y", "--seed", "[1,1]")
    text = " ".join(run.stdout.split())
    assert "seed: v2.grad = [1., 1.]" in text
    assert "vector of the vector-Jacobian product" in text
    assert "z.grad = [2., 6.]" in text


def test_explain_needs_a_scalar_output_or_a_seed():
    run = cli("explain", "y = x**2", "--at", "x=[1,2,3]")
    assert run.exit_code == 2
    assert "grad can be implicitly created only for scalar outputs" in run.stderr


def _terms(count: int) -> str:
    # The benchmark's large program: 8 tape nodes a term over 50 inputs.
    return " + ".join(f"sin(x{i % 50}*x{(i * 7 + 1) % 50}+3)*log(x{(i * 3 + 2) % 50}+3/7)" for i in range(count))


AT_50 = ",".join(f"x{i}={0.5 + i / 100}" for i in range(50))


def test_explain_asks_sympy_once_per_kind_of_edge(monkeypatch):
    import sympy

    calls = []
    real = sympy.diff
    monkeypatch.setattr(sympy, "diff", lambda *args, **kwargs: calls.append(args) or real(*args, **kwargs))
    run = cli("explain", _terms(200), "--at", AT_50)
    assert run.exit_code == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "∂v1/∂x0 = cos(" not in text  # the formulas are still there, in the edges' own names:
    assert re.search(r"∂v\d+/∂v\d+ = cos\(v\d+\) =", text) and re.search(r"∂v\d+/∂v\d+ = 1/v\d+ =", text)
    assert len(calls) <= 12  # mul (2 edges), add (2), sin, log: not one per edge (1,600 edges)


def test_explain_refuses_a_program_past_its_limit_before_the_work(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_EXPLAIN", "1000")
    run = cli("explain", _terms(200), "--at", AT_50)
    assert run.exit_code == 2 and run.stdout == ""
    assert "GRADCLI_MAX_EXPLAIN" in run.stderr and "the limit is 1,000" in run.stderr
    assert "--json" in run.stderr  # where to look instead
    monkeypatch.setenv("GRADCLI_MAX_EXPLAIN", "100000")
    assert cli("explain", _terms(200), "--at", AT_50).exit_code == 0


def test_explain_of_100k_nodes_is_refused_at_once():
    import time

    start = time.monotonic()
    run = cli("explain", _terms(12_500), "--at", AT_50)
    assert run.exit_code == 2 and "GRADCLI_MAX_EXPLAIN" in run.stderr
    assert time.monotonic() - start < 30  # the program is compiled, then refused: no SymPy, no rendering


def test_a_negative_constant_is_bracketed_in_a_formula():
    import sympy

    run = cli("explain", "y = x**-2", "--at", "x=3")
    formula = re.search(r"∂v\d+/∂x = (.*?) = 1 ×", " ".join(run.stdout.split())).group(1)
    x = sympy.Symbol("x", real=True)
    # Reading gradcli's output back, in a test: -2 must stay a number under the power.
    assert sympy.simplify(sympy.parse_expr(formula, local_dict={"x": x}) - sympy.diff(x**-2, x)) == 0
