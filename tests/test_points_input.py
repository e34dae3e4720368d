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


# --- 27. `at` in the program's input order ------------------------------------------------


def test_json_lines_at_lists_inputs_in_the_programs_order():
    stdin = '{"c": 3, "a": 1}\n{"a": 2, "c": 1}\n'
    run = cli("grad", "a*b + c", "--points", "-", "--json", "--at", "b=5", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    for line in run.stdout.splitlines():
        assert list(json.loads(line)["at"]) == ["a", "b", "c"]
    run = cli("grad", "a*b + c", "--points", "-", "--json", "--at", "b=5", stdin="c,a\n3,1\n")
    assert list(json.loads(run.stdout)["at"]) == ["a", "b", "c"]
