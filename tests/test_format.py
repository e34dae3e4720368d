"""One --format option chooses how every command writes its result; --json and --csv are its aliases."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from tests.helpers import cli

PROGRAM = "log(x1*x2)*sin(x2)"
AT = "x1=0.5,x2=0.75"
POINTS = "x1,x2\n0.5,0.75\n1,2\n"


def reference_grad(x1: float, x2: float) -> tuple[float, float]:
    """d/dx1 and d/dx2 of log(x1*x2)*sin(x2), by hand."""
    return math.sin(x2) / x1, math.cos(x2) * math.log(x1 * x2) + math.sin(x2) / x2


ONE_POINT = {
    "grad": ["grad", PROGRAM, "--at", AT],
    "jacobian": ["jacobian", PROGRAM, "--at", AT],
    "hessian": ["hessian", PROGRAM, "--at", AT],
    "jvp": ["jvp", PROGRAM, "--at", AT, "--tangent", "x1=1"],
}


@pytest.mark.parametrize("command", list(ONE_POINT))
def test_format_json_is_what_json_writes(command):
    by_format = cli(*ONE_POINT[command], "--format", "json")
    by_alias = cli(*ONE_POINT[command], "--json")
    assert by_format.exit_code == 0, by_format.stderr
    assert by_format.stdout == by_alias.stdout
    json.loads(by_format.stdout)  # one JSON object


@pytest.mark.parametrize("command", list(ONE_POINT))
def test_format_table_is_the_default_view(command):
    run = cli(*ONE_POINT[command], "--format", "table")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == cli(*ONE_POINT[command]).stdout


def test_format_json_gives_the_gradient():
    document = cli(*ONE_POINT["grad"], "--format", "json").json()
    assert [document["grad"]["x1"], document["grad"]["x2"]] == pytest.approx(reference_grad(0.5, 0.75), rel=1e-12)


@pytest.mark.parametrize("output", ["csv", "json", "table"])
def test_format_with_points_is_what_the_alias_writes(output):
    by_format = cli("grad", PROGRAM, "--points", "-", "--format", output, stdin=POINTS)
    assert by_format.exit_code == 0, by_format.stderr
    alias = {"csv": ["--csv"], "json": ["--json"], "table": []}[output]
    assert by_format.stdout == cli("grad", PROGRAM, "--points", "-", *alias, stdin=POINTS).stdout


def test_format_csv_writes_each_points_gradient():
    run = cli("grad", PROGRAM, "--points", "-", "--format", "csv", stdin=POINTS)
    header, *rows = run.stdout.splitlines()
    assert header == "value,grad_x1,grad_x2"
    for row, point in zip(rows, [(0.5, 0.75), (1.0, 2.0)], strict=True):
        assert [float(cell) for cell in row.split(",")[1:]] == pytest.approx(reference_grad(*point), rel=1e-12)


@pytest.mark.parametrize(("options", "named"), [
    (["--format", "table", "--json"], "--format table and --json"),
    (["--format", "json", "--csv"], "--format json and --csv"),
    (["--format", "csv", "--json"], "--format csv and --json"),
])
def test_two_different_formats_are_refused_naming_both(options, named):
    run = cli("grad", PROGRAM, "--points", "-", *options, stdin=POINTS)
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [f"gradcli: error: {named} both choose how results are written: give one"]


def test_the_same_format_said_twice_is_one_choice():
    run = cli(*ONE_POINT["grad"], "--format", "json", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == cli(*ONE_POINT["grad"], "--json").stdout


@pytest.mark.parametrize("command", ["grad", "jacobian", "jvp"])
def test_format_csv_at_one_point_is_refused(command):
    run = cli(*ONE_POINT[command], "--format", "csv")
    assert run.exit_code == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and "--format csv writes the results of --points" in run.stderr


@pytest.mark.parametrize("args", [[*ONE_POINT["hessian"], "--format", "csv"], [*ONE_POINT["grad"], "--format", "dot"],
                                  ["graph", PROGRAM, "--format", "table"]])
def test_a_format_the_command_does_not_write_is_a_bad_option(args):
    run = cli(*args)
    assert run.exit_code == 2 and run.stdout == ""
    assert "--format" in run.stderr


def test_the_format_json_path_imports_neither_sympy_nor_rich():
    code = (
        "import sys\n"
        "sys.argv = ['gradcli', 'grad', 'log(x1*x2)*sin(x2)', '--at', 'x1=0.5,x2=0.75', '--format', 'json']\n"
        "from gradcli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('sympy', 'rich') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
