"""--points input: every line is a point or a named bad line, read in bounded pieces.

The expected numbers are worked out here by hand or with `math` (x*x has the value x**2 and
the derivative 2x), never taken from gradcli's own output.
"""

from __future__ import annotations

import json

from tests.helpers import cli


def _csv_rows(stdout: str) -> list[list[float]]:
    return [[float(cell) for cell in line.split(",")] for line in stdout.splitlines()[1:]]


def _square_rows(xs: list[float]) -> list[list[float]]:
    return [[x * x, 2 * x] for x in xs]


# --- 14. shape errors name the line and the point's shapes --------------------------------


def test_a_shape_error_names_the_line_and_the_points_own_shapes():
    run = cli("grad", "sum(m*v)", "--points", "-", "--json", stdin='{"m": [1, 2, 3], "v": [1, 2]}\n')
    assert run.exit_code == 2
    first = run.stderr.splitlines()[0]
    assert first.startswith("gradcli: error: --points line 1: shapes (3,) and (2,) do not broadcast in '*' at column 5")
    assert "(1, 3)" not in run.stderr and "(1,3)" not in run.stderr
    assert run.stdout == ""


def test_a_shape_error_from_csv_names_the_line_of_the_first_point():
    run = cli("grad", "m @ v", "--points", "-", "--json", "--at", "m=[[1,2],[3,4]]", "--seed", "[1,1]",
              stdin="v[0],v[1],v[2]\n1,2,3\n")
    assert run.exit_code == 2
    assert run.stderr.startswith("gradcli: error: --points line 2: '@' cannot take shapes (2, 2) and (3,)")


# --- 27. `at` in the program's input order ------------------------------------------------


def test_json_lines_at_lists_inputs_in_the_programs_order():
    stdin = '{"c": 3, "a": 1}\n{"a": 2, "c": 1}\n'
    run = cli("grad", "a*b + c", "--points", "-", "--json", "--at", "b=5", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    for line in run.stdout.splitlines():
        assert list(json.loads(line)["at"]) == ["a", "b", "c"]
    run = cli("grad", "a*b + c", "--points", "-", "--json", "--at", "b=5", stdin="c,a\n3,1\n")
    assert list(json.loads(run.stdout)["at"]) == ["a", "b", "c"]
