"""Limits are checked before the memory or time is spent (issue #10: 34, 35).

Memory is measured with tracemalloc, which sees NumPy's buffers as well as Python's objects;
the limits are lowered with their environment variables so that these tests stay small.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import LimitProblem
from gradcli.inputs.literals import parse_assignments
from tests.helpers import cli


def _peak_bytes(function):
    """The most memory `function` held at once, and what it raised (or None)."""
    tracemalloc.start()
    raised = None
    try:
        function()
    except Exception as problem:
        raised = problem
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak, raised


# --- values typed in: elements counted while the literal is built ---------------------------


def test_a_list_of_ranges_is_refused_before_its_elements_are_made(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_ELEMENTS", "100000")
    text = "x=[" + ", ".join(["arange(0, 90000, 1)"] * 40) + "]"  # each range fits; 3.6 million together
    peak, raised = _peak_bytes(lambda: parse_assignments(text))
    assert isinstance(raised, LimitProblem)
    assert "GRADCLI_MAX_ELEMENTS" in raised.hint
    assert peak < 4 * 100_000 * 8  # a few ranges' worth, not all forty (29 MB)
    run = cli("grad", "sum(x)", "--at", text)
    assert run.exit_code == 2 and run.stdout == ""
    assert "GRADCLI_MAX_ELEMENTS" in run.stderr


# --- values computed: every node's shape is known before the forward sweep ------------------


def _column(n):
    return "[" + ",".join(f"[{i}]" for i in range(n)) + "]"


@pytest.mark.parametrize("program", ["sum(c*r)", "sum(c @ [r])", "sum(exp(c) - r)"])
def test_broadcasting_past_the_elements_limit_is_refused_before_it_is_computed(monkeypatch, program):
    monkeypatch.setenv("GRADCLI_MAX_ELEMENTS", "100000")
    at = {"c": np.arange(400.0).reshape(400, 1), "r": np.linspace(0, 1, 400)}  # 160,000 elements together
    peak, raised = _peak_bytes(lambda: grad(program, at=at))
    assert isinstance(raised, LimitProblem), raised
    assert "160,000 elements" in raised.message and "GRADCLI_MAX_ELEMENTS" in raised.hint
    assert peak < 400_000  # the inputs and the tape, never a 160,000-element value (1.3 MB)
    run = cli("grad", program, "--at", f"c={_column(400)},r=linspace(0, 1, 400)")
    assert run.exit_code == 2 and run.stdout == ""
    assert "GRADCLI_MAX_ELEMENTS" in run.stderr


def test_the_same_broadcast_within_the_limit_is_numpys():
    c, r = np.arange(30.0).reshape(30, 1), np.linspace(0, 1, 30)
    result = grad("sum(c*r)", at={"c": c, "r": r})
    assert float(result.value) == pytest.approx(float(np.sum(c * r)))
    np.testing.assert_allclose(result.grad["c"], np.full((30, 1), r.sum()))


def test_folding_constants_past_the_elements_limit_is_refused_at_compile_time(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_ELEMENTS", "100000")
    program = f"c = {_column(400)}; r = {_column(400)}; x * sum(c * [r[:, 0]])"
    peak, raised = _peak_bytes(lambda: grad(program, at={"x": 1.0}))
    assert isinstance(raised, LimitProblem), raised
    assert peak < 1_000_000


def test_all_the_values_of_a_program_together_are_limited(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_ELEMENTS", "1000")
    monkeypatch.setenv("GRADCLI_MAX_TAPE_ELEMENTS", "5000")
    at = {"x": np.linspace(0, 1, 1000)}
    # x, sin, cos, +, exp, +: six values of 1,000 elements, each within the elements limit
    run = cli("grad", "sum(sin(x) + cos(x) + exp(x))", "--at", "x=linspace(0, 1, 1000)")
    assert run.exit_code == 2 and run.stdout == ""
    assert "GRADCLI_MAX_TAPE_ELEMENTS" in run.stderr
    monkeypatch.setenv("GRADCLI_MAX_TAPE_ELEMENTS", "7000")
    result = grad("sum(sin(x) + cos(x) + exp(x))", at=at)
    x = at["x"]
    assert float(result.value) == pytest.approx(float(np.sum(np.sin(x) + np.cos(x) + np.exp(x))))


# --- time linear in the size of the program ------------------------------------------------


def test_a_sum_over_a_long_list_takes_time_linear_in_its_length():
    # 400,000 items: linear work is a second or two; the quadratic backward it had took minutes.
    count = 400_000
    program = "sum([" + ",".join(["x"] * count) + "])"
    done = subprocess.run([sys.executable, "-m", "gradcli", "grad", "-f", "-", "--at", "x=0.5", "--json"],
                          input=program, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["value"] == count * 0.5 and document["grad"]["x"] == count  # d/dx of count*x


# --- the program's text is read in pieces, up to its limit ----------------------------------


def _under_600_mb():
    resource.setrlimit(resource.RLIMIT_AS, (600 * 2**20, 600 * 2**20))


@pytest.mark.parametrize("source", ["file", "stdin"])
def test_an_endless_program_file_is_refused_at_the_length_limit(source):
    args = ["-f", "/dev/zero"] if source == "file" else ["-f", "-"]
    with open("/dev/zero", "rb") as zeros:
        done = subprocess.run([sys.executable, "-m", "gradcli", "grad", *args, "--at", "x=1"], stdin=zeros,
                              capture_output=True, text=True, timeout=60, preexec_fn=_under_600_mb)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert "the limit is 20,000,000" in done.stderr and "GRADCLI_MAX_PROGRAM_CHARS" in done.stderr


def test_a_program_one_character_past_the_limit_is_refused_and_one_at_it_is_read(monkeypatch, tmp_path):
    monkeypatch.setenv("GRADCLI_MAX_PROGRAM_CHARS", "50")
    at_limit = "x" + " + x" * 12 + " "  # 50 characters
    path = tmp_path / "p.grad"
    path.write_text(at_limit)
    assert cli("grad", "-f", str(path), "--at", "x=1", "--json").json()["grad"]["x"] == 13.0  # d/dx of 13x
    path.write_text(at_limit + "+")
    run = cli("grad", "-f", str(path), "--at", "x=1")
    assert run.exit_code == 2 and "GRADCLI_MAX_PROGRAM_CHARS" in run.stderr
    run = cli("grad", "-f", "-", "--at", "x=1", stdin=at_limit + "x")
    assert run.exit_code == 2 and "GRADCLI_MAX_PROGRAM_CHARS" in run.stderr


# --- many points: the limits hold for the points computed together ---------------------------


@pytest.mark.parametrize("command", ["grad", "jvp", "jacobian"])
def test_points_that_each_fit_the_limits_are_not_computed_together_past_them(monkeypatch, tmp_path, command):
    # Each point's values fit GRADCLI_MAX_TAPE_ELEMENTS (x*y is 100 x 100); 40 points computed at
    # once would hold 40 times that. A run over many points holds no more than one over one point.
    monkeypatch.setenv("GRADCLI_MAX_TAPE_ELEMENTS", "30000")
    n, count = 100, 40
    points = tmp_path / "points.csv"
    points.write_text(",".join(f"x[{i}]" for i in range(n)) + "\n"
                      + "".join(",".join([str(p)] * n) + "\n" for p in range(count)))
    y = "[" + ",".join(["[1]"] * n) + "]"
    extra = {"grad": [], "jvp": ["--tangent", "y=" + "[" + ",".join(["[0]"] * n) + "]"], "jacobian": ["--wrt", "y"]}
    args = [command, "sum(x*y)", "--points", str(points), "--at", f"y={y}", "--csv", *extra[command]]
    one_point = ["--at", "x=[" + ",".join(["1"] * n) + "]"]
    cli(*args)  # the modules --points imports are not what is measured
    one, _ = _peak_bytes(lambda: cli(*args[:2], *args[4:6], *one_point, "--json", *extra[command]))
    peak, raised = _peak_bytes(lambda: cli(*args))
    assert raised is None
    run = cli(*args)
    assert run.exit_code == 0, run.stderr
    rows = run.stdout.splitlines()[1:]
    assert len(rows) == count
    # sum(x*y) = n * sum(x) at each point (y is all ones)
    assert [float(r.split(",")[0]) for r in rows] == [float(n * n * p) for p in range(count)]
    assert peak < 4 * one


# --- einsum: planned, and its work bounded before it starts (issue #24) -------------------------


def test_an_einsum_of_many_operands_is_planned_not_looped_over_every_letter_at_once(monkeypatch):
    # unplanned, 40**6 = 4.1e9 steps (minutes); planned, each vector summed first: a few hundred
    monkeypatch.setenv("GRADCLI_MAX_CONTRACTION", "10000")
    v = np.arange(40.0)
    result = grad("einsum('a,b,c,d,e,f->', v, v, v, v, v, v)", at={"v": v})
    assert result.value == pytest.approx(v.sum() ** 6, rel=1e-12)
    np.testing.assert_allclose(result.grad["v"], np.full(40, 6 * v.sum() ** 5), rtol=1e-12)


def test_letters_one_operand_alone_holds_are_summed_out_first(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_CONTRACTION", "1000000")  # 300**4 = 8.1e9 unplanned
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((300, 300)), rng.standard_normal((300, 300))
    result = grad("einsum('ij,kl->', a, b)", at={"a": a, "b": b})
    assert result.value == pytest.approx(a.sum() * b.sum(), rel=1e-9)
    np.testing.assert_allclose(result.grad["a"], np.full((300, 300), b.sum()), rtol=1e-9)


def test_an_einsum_past_the_contraction_limit_is_refused_before_it_runs(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_CONTRACTION", "1000")
    run = cli("grad", "sum(einsum('ij,jk,kl->il', a, a, a))", "--at", f"a={np.ones((30, 30)).tolist()}")
    assert run.exit_code == 2 and run.stdout == ""
    assert "multiply-adds" in run.stderr and "GRADCLI_MAX_CONTRACTION" in run.stderr
    fits = cli("grad", "sum(einsum('ij,jk,kl->il', a, a, a))", "--at", f"a={np.ones((3, 3)).tolist()}", "--json")
    assert fits.exit_code == 0 and fits.json()["value"] == 81.0  # (every entry of the cube of ones(3, 3) is 9)
