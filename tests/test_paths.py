"""grad --paths: path counts, the largest contributions, and that they add up to the gradient."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.paths import count_paths, enumerate_paths, paths
from tests.helpers import cli, process
from tests.programs import random_program


def test_first_example_x2_has_two_paths_via_log_and_via_sin():
    document = cli("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--paths", "--json").json()
    x2 = document["paths"]["x2"]
    assert x2["total_paths"] == 2
    by_op = {tuple(p["ops"]): p["contribution"] for p in x2["listed"]}
    via_log = next(c for ops, c in by_op.items() if "LogBackward0" in ops)
    via_sin = next(c for ops, c in by_op.items() if "SinBackward0" in ops)
    assert via_log == pytest.approx(0.9089, abs=5e-5)
    assert via_sin == pytest.approx(-0.7177, abs=5e-5)
    assert via_log + via_sin == pytest.approx(document["grad"]["x2"], abs=1e-12)
    assert x2["unlisted"] == pytest.approx(0.0, abs=1e-15)
    for path in x2["listed"]:
        assert np.prod(path["factors"]) == pytest.approx(path["contribution"], rel=1e-12)
        assert path["nodes"][-1] == "x2"


def test_human_view_shows_each_path_and_the_sum():
    run = cli("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--paths")
    assert "paths into x2: 2 paths" in run.stdout
    assert "0.908852" in run.stdout and "-0.717662" in run.stdout
    assert "0.908852 + -0.717662 = 0.19119 = d/dx2" in run.stdout


@pytest.mark.parametrize("seed", range(12))
def test_paths_add_up_to_the_gradient_on_random_scalar_programs(seed):
    rng = np.random.default_rng(seed)
    program = random_program(rng, ["a", "b", "c"], statements=int(rng.integers(2, 5)))
    point = {n: float(rng.uniform(-1.5, 1.5)) for n in "abc"}
    inputs = compile_program(program).inputs
    result = grad(program, at={n: v for n, v in point.items() if n in inputs})
    for report in paths(result, k=10_000):
        assert len(report.listed) == report.total_paths
        total = sum(float(p.contribution) for p in report.listed)
        assert total == pytest.approx(float(report.gradient), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_paths_add_up_to_the_gradient_on_random_vector_programs(seed):
    rng = np.random.default_rng(100 + seed)
    program = random_program(rng, ["u", "w"], statements=3, vector=True)
    point = {"u": rng.uniform(-1, 1, 3).tolist(), "w": rng.uniform(-1, 1, 3).tolist()}
    inputs = compile_program(program).inputs
    result = grad(program, at={n: v for n, v in point.items() if n in inputs})
    for report in paths(result, k=10_000):
        assert report.total_paths == len(report.listed)
        total = sum(p.contribution for p in report.listed)
        np.testing.assert_allclose(total, report.gradient, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_the_k_best_paths_are_the_k_largest_of_all_paths(seed):
    rng = np.random.default_rng(200 + seed)
    program = random_program(rng, ["a", "b"], statements=5)
    inputs = compile_program(program).inputs
    result = grad(program, at={n: v for n, v in {"a": 0.3, "b": -0.8}.items() if n in inputs})
    targets = {result.tape.inputs[n] for n in result.tape.inputs}
    everything, complete = enumerate_paths(result, k=10**6, targets=targets)
    assert complete
    for report in paths(result, k=3):
        all_magnitudes = sorted((abs(float(p.contribution)) for p in everything[result.tape.inputs[report.name]]),
                                reverse=True)
        listed = [abs(float(p.contribution)) for p in report.listed]
        np.testing.assert_allclose(listed, all_magnitudes[:3], rtol=1e-12)


def test_path_counts_grow_exponentially_and_are_counted_exactly():
    program = "y = x*x; " + "; ".join(["y = y*y"] * 59)
    result = grad(program, at={"x": 1.0})
    counts = count_paths(result)
    assert counts[result.tape.inputs["x"]] == 2**60


def test_sixty_squarings_answer_paths_without_enumerating_them():
    # 2^60 paths: only a method polynomial in the tape size can answer (a timeout would show it).
    program = "y = x*x; " + "; ".join(["y = y*y"] * 59)
    run = process("grad", program, "--at", "x=1", "--paths", "--max-paths", "5", "--json")
    assert run.exit_code == 0, run.stderr
    x = __import__("json").loads(run.stdout)["paths"]["x"]
    assert x["total_paths"] == 2**60
    assert len(x["listed"]) == 5
    assert all(p["contribution"] == 1.0 for p in x["listed"])
    assert x["unlisted"] == pytest.approx(2.0**60 - 5)


def test_max_paths_keeps_the_largest_and_reports_the_rest():
    run = cli("grad", "sin(x) + 3*x + x*x", "--at", "x=2", "--paths", "--max-paths", "2", "--json")
    x = run.json()["paths"]["x"]
    assert x["total_paths"] == 4
    assert [p["contribution"] for p in x["listed"]] == [3.0, 2.0]
    assert x["unlisted"] == pytest.approx(2.0 + np.cos(2.0))


def test_paths_into_an_input_the_output_ignores():
    x = cli("grad", "q = a*2; r = b*3; q", "--at", "a=1,b=2", "--paths", "--json").json()["paths"]["b"]
    assert x == {"total_paths": 0, "listed": [], "unlisted": 0.0, "searched_all": True}


# --- the work of the path search is bounded (issue #10: 33) ---------------------------------


def _paths_json(program, *options, env=None):
    done = subprocess.run([sys.executable, "-m", "gradcli", "grad", program, "--paths", "--json", *options],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_paths_into_one_input_never_walk_the_paths_into_another():
    # 2^40 paths into x; one into y: only the paths that can reach y are walked.
    program = "z = x*[1, 1]; " + "z = z*z; " * 40 + "sum(z) + sum(y*[1, 1])"
    document = _paths_json(program, "--at", "x=1,y=[2,3]", "--wrt", "y")
    y = document["paths"]["y"]
    assert document["grad"]["y"] == [1.0, 1.0]  # d/dy of sum(y*[1,1])
    assert y["total_paths"] == 1 and y["searched_all"]
    assert [p["contribution"] for p in y["listed"]] == [[1.0, 1.0]]
    assert y["unlisted"] == [0.0, 0.0]


def test_a_tensor_path_walk_stops_at_its_step_limit_with_the_gradient_exact():
    # 2^15 paths of 2,000 steps each: more than the path search may take.
    program = "z = x*[1, 1]; " + "z = sin(z); " * 2000 + "z = z*z; " * 15 + "sum(z)"
    document = _paths_json(program, "--at", "x=0.5")
    x = document["paths"]["x"]
    assert x["total_paths"] == 2**15
    assert not x["searched_all"]
    z = 0.5
    for _ in range(2000):
        z = np.sin(z)
    assert document["value"] == pytest.approx(2 * z ** (2**15), abs=1e-300)  # underflows to 0, as in NumPy
    found = sum(p["contribution"] for p in x["listed"]) + x["unlisted"]
    assert found == pytest.approx(document["grad"]["x"], abs=1e-300)


def test_the_human_view_says_the_search_stopped_and_how_to_go_further(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_PATH_STEPS", "50")
    run = cli("grad", "z = x*[1, 1]; " + "z = z*z; " * 6 + "sum(z)", "--at", "x=1", "--paths")
    assert run.exit_code == 0, run.stderr
    assert "GRADCLI_MAX_PATH_STEPS" in run.stdout


def test_a_scalar_path_search_past_its_step_limit_lists_nothing_and_says_so(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_PATH_STEPS", "50")
    program = "y = x*x; " + "; ".join(["y = y*y"] * 59)
    x = cli("grad", program, "--at", "x=1", "--paths", "--json").json()["paths"]["x"]
    assert x["total_paths"] == 2**60 and x["listed"] == [] and not x["searched_all"]
    assert x["unlisted"] == pytest.approx(2.0**60)  # d/dx of x^(2^60) at 1
    run = cli("grad", program, "--at", "x=1", "--paths")
    assert run.exit_code == 0 and "GRADCLI_MAX_PATH_STEPS" in run.stdout


def test_max_paths_has_a_documented_maximum():
    run = cli("grad", "x*x", "--at", "x=1", "--paths", "--max-paths", "1000000000")
    assert run.exit_code == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1
    assert "--max-paths" in run.stderr and "10,000" in run.stderr
    assert cli("grad", "x*x", "--at", "x=1", "--paths", "--max-paths", "10000").exit_code == 0


def test_an_input_with_few_paths_is_searched_whole_beside_one_with_too_many(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_PATH_STEPS", "200")
    program = "z = x*[1, 1]; " + "z = z*z; " * 10 + "sum(z) + sum(y*[1, 1])"
    document = cli("grad", program, "--at", "x=1,y=[2,3]", "--paths", "--json").json()
    x, y = document["paths"]["x"], document["paths"]["y"]
    assert y["searched_all"] and [p["contribution"] for p in y["listed"]] == [[1.0, 1.0]]
    assert not x["searched_all"] and x["total_paths"] == 2**10
    found = np.sum([p["contribution"] for p in x["listed"]], axis=0) + x["unlisted"]
    np.testing.assert_allclose(found, document["grad"]["x"])


def test_post_001_paths_through_single_elements_are_scalar_paths():
    # f(x) = log(x[0]*x[1]) * sin(x[1]): every node a number, the input a vector: the three paths are
    # scalar paths into x[0] and x[1], each with its scalar factors
    run = cli("grad", "log(x[0]*x[1])*sin(x[1])", "--at", "x=[0.5,0.75]", "--paths", "--json")
    assert run.exit_code == 0, run.stderr
    listed = run.json()["paths"]["x"]["listed"]
    assert sorted(map(tuple, (p["element"] for p in listed))) == [(0,), (1,), (1,)]
    for path in listed:
        assert path["factors"] is not None
        product = float(np.prod(path["factors"]))
        assert path["contribution"][path["element"][0]] == pytest.approx(product, rel=1e-12)
    via_sin = next(p for p in listed if p["ops"][1] == "SinBackward0")
    assert via_sin["factors"] == pytest.approx([math.log(0.375), math.cos(0.75), 1.0])
    table = cli("grad", "log(x[0]*x[1])*sin(x[1])", "--at", "x=[0.5,0.75]", "--paths").stdout
    assert "-> x[0]" in table and "-> x[1]" in table and "vector-Jacobian" not in table


def test_a_path_into_a_whole_vector_shows_the_local_jacobians_it_applies():
    listed = cli("grad", "sum(x*x)", "--at", "x=[2,3]", "--paths", "--json").json()["paths"]["x"]["listed"]
    assert all(p["factors"] is None and "element" not in p for p in listed)
    assert [j["kind"] for j in listed[0]["jacobians"]] == ["ones", "diag"]  # 1ᵀ, then diag(x)
    table = cli("grad", "y = z**2; l = sum(y)", "--at", "z=[1,3]", "--paths").stdout
    assert "1ᵀ · diag([2., 6.])  (Jᵀ·v along the path)" in table and "vector-Jacobian products)" not in table
