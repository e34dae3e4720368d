"""--points with no points: a header-only CSV, an empty JSON Lines file, an empty Parquet/Arrow
table, and --output of each, write what a user expects from the columns the input gives."""

from __future__ import annotations

import os

import pytest

from tests.helpers import cli, tables

NO_POINTS = "gradcli: 0 points done"


def _header_of_one_point(program: str, header: str, row: str, *options: str) -> str:
    """The CSV header gradcli writes when the same input has one point."""
    run = cli("grad", program, "--points", "-", "--csv", *options, stdin=f"{header}\n{row}\n")
    assert run.exit_code == 0, run.stderr
    return run.stdout.splitlines()[0]


@pytest.mark.parametrize(("program", "header", "row", "expected"), [
    ("log(x1*x2)*sin(x2)", "x1,x2", "1,2", "value,grad_x1,grad_x2"),
    ("z*x", "x,z[0],z[1]", "1,2,3", "value[0],value[1],grad_z[0],grad_z[1],grad_x"),
    ("sum(m)", "m[0][0],m[0][1],m[1][0],m[1][1]", "1,2,3,4", "value,grad_m[0][0],grad_m[0][1],grad_m[1][0],grad_m[1][1]"),
    ("(x*y, x)", "y", "2", "value_out[0],value_x,grad_x,grad_y"),
])
def test_a_header_only_csv_writes_the_csv_header(program, header, row, expected):
    options = {"(x*y, x)": ("--at", "x=3"), "z*x": ("--seed", "ones")}.get(program, ())
    run = cli("grad", program, "--points", "-", "--csv", *options, stdin=header + "\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == expected + "\n"
    assert run.stdout.splitlines()[0] == _header_of_one_point(program, header, row, *options)
    assert run.stderr.strip() == NO_POINTS


def test_jacobian_and_jvp_of_a_header_only_csv_write_their_headers():
    run = cli("jacobian", "z*2", "--points", "-", "--csv", stdin="z[0],z[1]\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "value[0],value[1],dout/dz[0][0],dout/dz[0][1],dout/dz[1][0],dout/dz[1][1]\n"
    run = cli("jvp", "x*y", "--points", "-", "--csv", "--tangent", "x=1", "--tangent", "y=0", stdin="x,y\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "value,jvp\n"


@pytest.mark.parametrize("stdin", ["x\n", "x\n\n", "x\nnot a number\n"])
def test_no_points_as_json_lines_is_nothing(stdin):
    run = cli("grad", "x*x", "--points", "-", "--json", "--skip-bad", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == ""
    assert run.stderr.splitlines()[-1].startswith("gradcli: 0 points done")


def test_a_header_only_csv_as_a_table_writes_the_table_header():
    run = cli("grad", "x*y", "--points", "-", stdin="x,y\n")
    assert run.exit_code == 0, run.stderr
    header, rule = run.stdout.splitlines()
    assert header.split() == ["row", "┃", "value", "┃", "grad", "x", "┃", "grad", "y"]
    assert set(rule) <= {"━", "╇"}


def test_bad_lines_only_with_skip_bad_still_write_the_header():
    run = cli("grad", "x*x", "--points", "-", "--csv", "--skip-bad", stdin="x\nfoo\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "value,grad_x\n"
    assert "0 points done; 1 bad line skipped: 2" in run.stderr


@pytest.mark.parametrize("stdin", ["", "\n\n"])
def test_an_empty_input_writes_nothing_unless_at_gives_every_shape(stdin):
    run = cli("grad", "x*y", "--points", "-", "--csv", "--at", "y=2", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == ""  # x's shape is known from nowhere
    assert run.stderr.strip() == NO_POINTS
    run = cli("grad", "x*y", "--points", "-", "--csv", "--at", "x=[1,2]", "--at", "y=2", "--seed", "ones",
              stdin=stdin)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "value[0],value[1],grad_x[0],grad_x[1],grad_y\n"


def test_a_header_whose_shapes_do_not_fit_the_program_is_named():
    run = cli("grad", "x @ z", "--points", "-", "--csv", "--at", "z=[1,2]", stdin="x\n")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert run.stderr.startswith("gradcli: error: --points line 1: '@' cannot take shapes () and (2,)")


def _empty_table(tmp_path, suffix: str) -> str:
    pl = tables()
    path = str(tmp_path / f"points{suffix}")
    frame = pl.DataFrame({"x": [], "z[0]": [], "z[1]": []}, schema={n: pl.Float64 for n in ("x", "z[0]", "z[1]")})
    frame.write_parquet(path) if suffix == ".parquet" else frame.write_ipc(path)
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_an_empty_table_writes_the_csv_header(tmp_path, suffix):
    run = cli("grad", "x*sum(z)", "--points", _empty_table(tmp_path, suffix), "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "value,grad_x,grad_z[0],grad_z[1]\n"
    assert run.stderr.strip() == NO_POINTS


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_output_of_no_points_is_what_stdout_gets(tmp_path, suffix):
    out = tmp_path / f"results{suffix}"
    run = cli("grad", "x*sum(z)", "--points", "-", "--output", str(out), stdin="x,z[0],z[1]\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == ""
    assert out.read_text() == ("value,grad_x,grad_z[0],grad_z[1]\n" if suffix == ".csv" else "")
    assert os.listdir(tmp_path) == [out.name]


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
@pytest.mark.parametrize("source", ["csv", "table"])
def test_output_table_of_no_points_has_the_columns(tmp_path, suffix, source):
    pl = tables()
    out = str(tmp_path / f"results{suffix}")
    if source == "csv":
        run = cli("grad", "x*sum(z)", "--points", "-", "--output", out, stdin="x,z[0],z[1]\n")
    else:
        run = cli("grad", "x*sum(z)", "--points", _empty_table(tmp_path, ".parquet"), "--output", out)
    assert run.exit_code == 0, run.stderr
    frame = pl.read_parquet(out) if suffix == ".parquet" else pl.read_ipc(out)
    assert frame.height == 0
    assert frame.schema == {name: pl.Float64 for name in ("value", "grad_x", "grad_z[0]", "grad_z[1]")}


def test_a_point_run_says_nothing_on_stderr():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="x\n1\n")
    assert run.exit_code == 0 and run.stderr == ""
