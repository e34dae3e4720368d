"""--check and --symbolic: what they say when a reference cannot be had, at kinks, and in time.

The references here are mathematics: the derivative of log at 1e-9 is 1e9, the one-sided
derivatives of relu at 0 are 0 and 1, of abs at 0 are -1 and 1.
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import time

import numpy as np
import pytest

from gradcli import ops
from tests.helpers import cli


def shown(*args: str) -> tuple[int, str]:
    """The human view's exit code and text, its lines joined (rich may wrap them)."""
    run = cli(*args)
    return run.exit_code, " ".join(run.stdout.split())


def checked(program: str, at: str, *options: str) -> dict:
    run = cli("grad", program, "--at", at, "--check", "--json", *options)
    assert run.exit_code == 0, (run.exit_code, run.stderr)
    return run.json()["check"]


# --- finite differences: steps inside the domain, and saying when nothing was compared ----


def test_finite_differences_step_inside_the_domain_near_zero():
    # A step of 6e-6 would leave log's domain at x = 1e-9: the step must follow the point.
    check = checked("log(x)", "x=1e-9")
    fd = check["finite_differences"]
    assert fd["checked"] == 1 and fd["ok"] is True
    assert fd["max_rel"] < 1e-6  # against 1/x = 1e9
    assert "unchecked" not in fd


@pytest.mark.parametrize(("program", "at", "derivative"), [
    ("log(x)", "x=1e-9", 1e9),
    ("sqrt(x)", "x=1e-300", 0.5e150),
    ("log(x - 1)", "x=1.000001", 1e6),
    ("x * log(x)", "x=1e-12", math.log(1e-12) + 1),
])
def test_a_wrong_rule_near_a_domain_edge_is_still_caught(monkeypatch, program, at, derivative):
    # The check must compare something there: a gradient 1% off is found out.
    from gradcli import derivatives

    real = derivatives.GradResult.grad

    def off(self):
        return {name: g * 1.01 for name, g in real.fget(self).items()}

    monkeypatch.setattr(derivatives.GradResult, "grad", property(off))
    run = cli("grad", program, "--at", at, "--check", "--json")
    assert run.exit_code == 1, run.stderr
    fd = run.json()["check"]["finite_differences"]
    assert fd["ok"] is False and fd["checked"] == 1
    assert fd["max_abs"] == pytest.approx(0.01 * abs(derivative), rel=1e-3)


def test_nothing_compared_is_said_and_is_not_a_failure():
    # sqrt(x) + sqrt(-x) is finite only at 0 itself: no step stays inside the domain.
    code, text = shown("grad", "sqrt(x) + sqrt(-x)", "--at", "x=0", "--check")
    assert code == 0
    assert "largest difference 0" not in text
    assert "finite differences: could not be checked" in text
    assert "not finite" in text
    check = checked("sqrt(x) + sqrt(-x)", "x=0")
    fd = check["finite_differences"]
    assert fd["checked"] == 0 and fd["elements"] == 1
    assert fd["unchecked"][0]["input"] == "x" and "not finite" in fd["unchecked"][0]["why"]
    assert "max_abs" not in fd


def test_a_non_finite_output_cannot_be_checked_by_finite_differences():
    check = checked("log(x)", "x=0")
    assert check["finite_differences"]["checked"] == 0
    assert "not finite at the point" in check["finite_differences"]["unchecked"][0]["why"]


def test_vector_elements_are_reported_one_by_one():
    # sqrt is not finite left of z[1] = 0 at any step; the other two are checked.
    check = checked("sum(sqrt(z))", "z=[0.5,0,2]")
    fd = check["finite_differences"]
    assert fd["checked"] == 2 and fd["elements"] == 3
    assert [u["input"] for u in fd["unchecked"]] == ["z[1]"]
    _, text = shown("grad", "sum(sqrt(z))", "--at", "z=[0.5,0,2]", "--check")
    assert "agrees on 2 of 3 elements" in text and "z[1]: could not be checked" in text


def test_a_large_output_around_a_small_change_is_still_checked():
    # 1e6 + x: the output's rounding (1e-10) over the first step (6e-6) is too coarse; a larger step is not.
    fd = checked("1e6 + x", "x=1")["finite_differences"]
    assert fd["checked"] == 1 and fd["max_abs"] < 1e-5


def test_a_large_vector_is_checked_on_a_sample_in_bounded_work():
    fd = checked("sum(sin(v) * v)", "v=linspace(0,1,100000)")["finite_differences"]
    assert 8 <= fd["checked"] <= 512 and fd["elements"] == 100_000 and fd["ok"] is True


# --- kinks: the one-sided differences bracket the gradient -----------------------------


@pytest.mark.parametrize(("program", "at", "name", "one_sided", "subgradient"), [
    ("relu(x)", "x=0", "x", [0.0, 1.0], 0.0),
    ("abs(x)", "x=0", "x", [-1.0, 1.0], 0.0),
    ("max(x, y)", "x=1,y=1", "x", [0.0, 1.0], 0.5),
    ("max(x, y)", "x=1,y=1", "y", [0.0, 1.0], 0.5),
    ("3*abs(x - 2) + x", "x=2", "x", [-2.0, 4.0], 1.0),
])
def test_at_a_kink_the_one_sided_differences_bracket_the_gradient(program, at, name, one_sided, subgradient):
    run = cli("grad", program, "--at", at, "--check", "--json")
    assert run.exit_code == 0, run.stderr
    document = run.json()
    assert document["grad"][name] == subgradient  # PyTorch's choice
    fd = document["check"]["finite_differences"]
    kink = next(k for k in fd["not_differentiable"] if k["input"] == name)
    np.testing.assert_allclose(kink["one_sided"], one_sided, atol=1e-6)
    assert kink["ok"] is True
    sympy_side = document["check"]["sympy"]
    assert sympy_side["ok"] is True  # SymPy's Heaviside(0) = 1/2 is no verdict on a kink
    code, text = shown("grad", program, "--at", at, "--check")
    assert code == 0 and "DISAGREES" not in text
    assert "not differentiable" in text


def test_a_kink_near_the_point_is_not_taken_for_one_at_it():
    check = checked("relu(x)", "x=1e-7")
    fd = check["finite_differences"]
    assert fd["checked"] == 1 and "not_differentiable" not in fd


def test_a_gradient_outside_the_bracket_of_a_kink_disagrees(monkeypatch):
    row = ops.OPS["abs"]
    assert row.floats is not None
    wrong = dataclasses.replace(row, vjp=lambda g, ans, x: (g * (np.sign(x) + 3),),
                                floats=(row.floats[0], lambda g, ans, x: (g * (math.copysign(1, x) * (x != 0) + 3),)))
    monkeypatch.setitem(ops.FUNCTIONS, "abs", wrong)
    monkeypatch.setitem(ops.OPS, "abs", wrong)
    code, text = shown("grad", "abs(x)", "--at", "x=0", "--check")
    assert code == 1
    assert "DISAGREES" in text and "is outside them" in text


# --- --tol ---------------------------------------------------------------------------


@pytest.mark.parametrize("tol", ["inf", "nan", "-1", "-inf"])
def test_tol_must_be_a_finite_number_at_least_zero(tol):
    for extra in ([], ["--json"]):
        run = cli("grad", "sin(x)", "--at", "x=1", "--check", "--tol", tol, *extra)
        assert run.exit_code == 2, run.stderr
        assert run.stdout == ""
        assert "--tol" in run.stderr and len(run.stderr.strip().splitlines()) == 1
        assert "Traceback" not in run.stderr


# --- SymPy at points where it cannot evaluate ------------------------------------------


@pytest.mark.parametrize(("program", "at"), [
    ("x**y", "x=0,y=2"),
    ("log(x)", "x=0"),
    ("1/x", "x=0"),
    ("sqrt(x)", "x=0"),
    ("relu(log(y))", "y=-2"),
])
def test_sympy_that_cannot_evaluate_says_so_and_is_not_a_crash(program, at):
    run = cli("grad", program, "--at", at, "--check", "--json")
    assert run.exit_code in (0, 1), run.stderr
    assert "internal error" not in run.stderr
    sympy_side = run.json()["check"]["sympy"]
    whys = [u["why"] for u in sympy_side.get("unchecked", [])]
    assert whys, sympy_side
    assert all(w.startswith("SymPy could not evaluate this derivative at the point (") for w in whys)
    _, text = shown("grad", program, "--at", at, "--check")
    assert "SymPy could not evaluate this derivative at the point" in text


def test_sympy_at_a_pole_is_not_a_disagreement():
    # SymPy's d/dx x**y = x**y*y/x and d/dy = x**y*log(x) are undefined at x = 0, where
    # PyTorch (and the finite differences of x**2 and 0**y) say 0 and 0.
    run = cli("grad", "x**y", "--at", "x=0,y=2", "--check", "--json")
    assert run.exit_code == 0, run.stderr
    document = run.json()
    assert document["grad"] == {"x": 0.0, "y": 0.0}
    sympy_side = document["check"]["sympy"]
    assert sympy_side["ok"] is True and sympy_side["checked"] == 0
    assert [u["input"] for u in sympy_side["unchecked"]] == ["x", "y"]
    assert all("undefined" in u["why"] for u in sympy_side["unchecked"])
    assert document["check"]["finite_differences"]["checked"] == 2


# --- the two views work on every kind of program ------------------------------------------


@pytest.mark.parametrize(("program", "at", "options", "expected"), [
    ("sum(z**2 * w)", "z=[1,2],w=3", [], {"z": [6.0, 12.0], "w": 5.0}),
    ("v[0] * v[1] + sum(v[1:])", "v=[1,2,3]", [], {"v": [2.0, 2.0, 1.0]}),
    ("(x * y, x + y)", "x=1,y=2", ["--seed", "(1,2)"], {"x": 4.0, "y": 3.0}),
    ("y = x*x; z = sin(y) * w", "x=1,w=2", ["--of", "y"], {"x": 2.0, "w": 0.0}),
    ("y = x*x; z = sin(y) * w", "x=1,w=2", ["--wrt", "w"], {"w": math.sin(1.0)}),
    ("y = z**2", "z=[1,3]", ["--seed", "[1,-1]"], {"z": [2.0, -6.0]}),
])
def test_check_and_symbolic_on_vectors_indexing_tuples_and_options(program, at, options, expected):
    run = cli("grad", program, "--at", at, *options, "--check", "--symbolic", "--json")
    assert run.exit_code == 0, run.stderr
    document = run.json()
    for name, want in expected.items():
        np.testing.assert_allclose(document["grad"][name], want, rtol=1e-12)
    check = document["check"]
    assert check["ok"] is True
    for reference in ("finite_differences", "sympy"):
        assert check[reference]["checked"] == check[reference]["elements"] > 0
    assert set(document["symbolic"]) == set(expected)


# --- the SymPy budget -----------------------------------------------------------------

DOUBLING = "y = sin(x)" + "; y = sin(y)*cos(y)" * 16  # 300 characters, SymPy's expressions explode


def _timed(*args: str) -> tuple[float, object]:
    start = time.monotonic()
    run = cli(*args)
    return time.monotonic() - start, run


def test_symbolic_stops_at_its_time_budget_and_says_so():
    seconds, run = _timed("grad", DOUBLING, "--at", "x=0.3", "--symbolic", "--symbolic-seconds", "1")
    assert run.exit_code == 0, run.stderr
    assert seconds < 20  # 1 s of SymPy, then the worker is killed: not minutes
    text = " ".join(run.stdout.split())
    assert "time budget of 1 s" in text and "--symbolic-seconds" in text
    assert not multiprocessing.active_children()  # the worker is gone


def test_check_past_the_budget_still_reports_finite_differences():
    seconds, run = _timed("grad", DOUBLING, "--at", "x=0.3", "--check", "--symbolic", "--symbolic-seconds", "1",
                          "--json")
    assert run.exit_code == 0, run.stderr
    assert seconds < 20
    document = run.json()
    assert "symbolic" not in document
    assert any("time budget of 1 s" in w for w in document["warnings"])
    assert document["check"]["finite_differences"]["checked"] == 1
    assert "time budget of 1 s" in document["check"]["sympy"]["skipped"]


def test_the_budget_covers_a_long_vector_too(monkeypatch):
    monkeypatch.setenv("GRADCLI_SYMBOLIC_SECONDS", "1")
    seconds, run = _timed("grad", "logsumexp(v) + norm(v)", "--at", "v=linspace(0,1,300)", "--symbolic")
    assert run.exit_code == 0, run.stderr
    assert seconds < 20
    assert "time budget of 1 s" in " ".join(run.stdout.split())


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_the_budget_must_be_a_positive_number(monkeypatch, value):
    run = cli("grad", "sin(x)", "--at", "x=1", "--symbolic", "--symbolic-seconds", value)
    assert run.exit_code == 2 and run.stdout == ""
    assert "--symbolic-seconds" in run.stderr and "GRADCLI_SYMBOLIC_SECONDS" in run.stderr
    monkeypatch.setenv("GRADCLI_SYMBOLIC_SECONDS", value)
    run = cli("grad", "sin(x)", "--at", "x=1", "--symbolic")
    assert run.exit_code == 2 and "GRADCLI_SYMBOLIC_SECONDS" in run.stderr


def test_within_the_budget_formulas_are_simplified_as_before():
    _, text = shown("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--symbolic", "--symbolic-seconds", "30")
    assert "d out / d x1 = sin(x2)/x1" in text
    assert not multiprocessing.active_children()


def test_symbolic_limit_still_refuses_before_any_work():
    program = " + ".join(f"sin(x*{i})" for i in range(30))
    run = cli("grad", program, "--at", "x=1", "--symbolic", "--symbolic-limit", "50")
    assert run.exit_code == 2 and "--symbolic-limit" in run.stderr
    assert not multiprocessing.active_children()


def test_the_worker_is_given_the_tape_not_the_text():
    from gradcli import grad, symbolic

    source = "y = sin(x) * w; y"
    result = grad(source, at={"x": 0.5, "w": 2.0})
    payload = symbolic.job(result, ["x", "w"], formulas=True, values=True)
    assert source not in repr(payload)
    assert not any(isinstance(item, str) and "(" in item for item in _leaves(payload))


def _leaves(item):
    if isinstance(item, dict):
        for key, value in item.items():
            yield key
            yield from _leaves(value)
    elif isinstance(item, (list, tuple)):
        for value in item:
            yield from _leaves(value)
    else:
        yield item


def test_the_worker_runs_under_spawn_as_well():
    from gradcli import grad, symbolic

    result = grad("log(x1*x2)*sin(x2)", at={"x1": 0.5, "x2": 0.75})
    report = symbolic.derive(result, ["x1", "x2"], formulas=True, values=True, seconds=60, start_method="spawn")
    assert not report.problem, report.problem
    assert report.formulas["x1"] == "sin(x2)/x1"
    np.testing.assert_allclose(report.values["x2"], math.log(0.375) * math.cos(0.75) + math.sin(0.75) / 0.75,
                               rtol=1e-14)
