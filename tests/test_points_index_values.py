"""--points: a bad value of an input used as an index (`v[i]` with i NaN, 0.5, or past v's end) is a
bad line like any other (issue 25): named at its own line, the good lines before it written, and
skipped by --skip-bad. Expected values are v[i] and the one-hot gradient, worked out by hand."""

from __future__ import annotations

import json

import pytest

from tests.helpers import cli

V = [10.0, 20.0, 30.0]


def _lines(indices: list[str]) -> str:
    return "".join(f'{{"v": [10, 20, 30], "i": {i}}}\n' for i in indices)


def _answers(stdout: str) -> list[tuple[int, float, list[float]]]:
    rows = [json.loads(line) for line in stdout.splitlines()]
    return [(row["line"], row["value"], row["grad"]["v"]) for row in rows]


def _expected(lines: list[int], indices: list[int]) -> list[tuple[int, float, list[float]]]:
    return [(line, V[i], [1.0 if k == i else 0.0 for k in range(3)]) for line, i in zip(lines, indices, strict=True)]


@pytest.mark.parametrize(("bad", "said"), [("NaN", "whole numbers"), ("0.5", "whole numbers"), ("7", "out of range")])
def test_a_bad_index_value_is_named_at_its_own_line_after_the_lines_before(bad, said):
    run = cli("grad", "v[i]", "--points", "-", "--json", stdin=_lines(["0", "1", "2", "0", "1", bad, "2"]))
    assert run.exit_code == 2
    assert "line 6" in run.stderr and said in run.stderr
    assert _answers(run.stdout) == _expected([1, 2, 3, 4, 5], [0, 1, 2, 0, 1])


@pytest.mark.parametrize("chunk", ["1", "3", "65536"])
def test_skip_bad_skips_each_bad_index_value_and_answers_the_rest(chunk):
    text = _lines(["0", "0.5", "2", "NaN", "-1", "9", "1"])
    run = cli("grad", "v[i]", "--points", "-", "--json", "--skip-bad", "--chunk-size", chunk, stdin=text)
    assert run.exit_code == 0, run.stderr
    assert _answers(run.stdout) == _expected([1, 3, 5, 7], [0, 2, 2, 1])  # -1 is the last element, as in PyTorch
    assert "3 bad lines skipped: 2, 4, 6" in run.stderr


def test_mark_bad_writes_a_row_for_a_bad_index_value_where_it_was():
    run = cli("grad", "v[i]", "--points", "-", "--csv", "--mark-bad", "--row-id", "--at", "v=[10,20,30]",
              stdin="id,i\na,0\nb,3\nc,2\n")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "row,id,error,value,grad_v[0],grad_v[1],grad_v[2]"
    assert lines[1] == "1,a,,10.0,1.0,0.0,0.0"
    assert lines[2].startswith("2,b,") and "out of range" in lines[2] and lines[2].endswith(",,,,")
    assert lines[3] == "3,c,,30.0,0.0,0.0,1.0"


def test_a_shape_that_does_not_fit_still_stops_the_run_at_the_first_point_with_skip_bad():
    run = cli("grad", "v[i] + sum(v + w)", "--points", "-", "--json", "--skip-bad",
              stdin='{"v": [1, 2, 3], "i": 0, "w": [1, 2]}\n{"v": [1, 2, 3], "i": 1, "w": [1, 2]}\n')
    assert run.exit_code == 2
    assert "line 1" in run.stderr and run.stdout == ""


@pytest.mark.parametrize("huge", ["1e19", "-1e300", "9223372036854775808"])
def test_an_index_value_past_int64_is_named_as_it_was_given_not_wrapped(huge):
    run = cli("grad", "v[i]", "--points", "-", "--json", "--skip-bad", stdin=_lines(["0", huge, "2"]))
    assert run.exit_code == 0, run.stderr
    assert _answers(run.stdout) == _expected([1, 3], [0, 2])
    assert (f"skipped line 2: input 'i' is used as an index: its values must be whole numbers within int64's range, "
            f"got {float(huge)!r}") in run.stderr
    assert "-9223372036854775808" not in run.stderr


@pytest.mark.parametrize("option", ["--skip-bad", "--mark-bad"])
def test_bad_index_values_and_bad_numbers_are_named_in_the_order_of_their_lines(option):
    run = cli("grad", "v[i]*x", "--points", "-", "--json", option, "--at", "v=[10,20,30]",
              stdin="i,x\n0,1\nnan,2\n1,oops\n9,1\n2,x\n1,3\n")
    assert run.exit_code == 0, run.stderr
    named = [line.split(":")[2].strip() for line in run.stderr.splitlines()[:-1]]
    assert named == ["skipped line 3", "skipped line 4", "skipped line 5", "skipped line 6"]
    assert run.stderr.splitlines()[-1] == "gradcli: 2 points done; 4 bad lines skipped: 3, 4, 5, 6"
