"""--points input: every line is a point or a named bad line, read in bounded pieces.

The expected numbers are worked out here by hand or with `math` (x*x has the value x**2 and
the derivative 2x), never taken from gradcli's own output.
"""

from __future__ import annotations

import io
import json

import pytest

from gradcli import compile_program
from gradcli.values import PointsProblem, PointsReader, read_lines
from tests.helpers import cli, process


def _csv_rows(stdout: str) -> list[list[float]]:
    return [[float(cell) for cell in line.split(",")] for line in stdout.splitlines()[1:]]


def _square_rows(xs: list[float]) -> list[list[float]]:
    return [[x * x, 2 * x] for x in xs]


# --- 13. bytes that are not UTF-8 ---------------------------------------------------------


def test_a_line_that_is_not_utf8_is_a_bad_line(tmp_path):
    path = tmp_path / "points.csv"
    path.write_bytes(b"x\n1\n2\xff\n4\n")
    run = process("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2
    assert _csv_rows(run.stdout) == _square_rows([1.0])
    assert run.stderr.strip() == "gradcli: error: --points: line 3: not UTF-8 text (byte 0xff at column 2)"


def test_a_line_that_is_not_utf8_is_skipped_like_any_bad_line():
    stdin = b'{"x": 1}\n{"x": \xc3(}\n{"x": 4}\n'
    run = cli("grad", "x*x", "--points", "-", "--json", "--skip-bad", stdin=stdin)  # type: ignore[arg-type]
    assert run.exit_code == 0
    assert [json.loads(line)["value"] for line in run.stdout.splitlines()] == [1.0, 16.0]
    assert "skipped line 2: not UTF-8 text (byte 0xc3 at column 7)" in run.stderr


def test_non_utf8_from_a_pipe_is_a_bad_line_too():
    done = __import__("subprocess").run(
        [__import__("sys").executable, "-m", "gradcli", "grad", "x*x", "--points", "-", "--csv"],
        input=b"x\n1\n\xff\n4\n", capture_output=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout.decode().splitlines() == ["value,grad_x", "1.0,2.0"]
    assert b"line 3: not UTF-8 text (byte 0xff at column 1)" in done.stderr


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


# --- 21. huge, deep and unreadable input --------------------------------------------------


def test_points_that_cannot_be_read_are_named():
    run = process("grad", "x", "--points", "/proc/self/mem", "--json")
    assert run.exit_code == 2
    assert run.stderr.strip() == "gradcli: error: --points: cannot read points from '/proc/self/mem': Input/output error"


def test_points_from_a_folder_are_named(tmp_path):
    run = cli("grad", "x", "--points", str(tmp_path), "--json")
    assert run.exit_code == 2
    assert "cannot read points from" in run.stderr


# --- 27. `at` in the program's input order ------------------------------------------------


def test_json_lines_at_lists_inputs_in_the_programs_order():
    stdin = '{"c": 3, "a": 1}\n{"a": 2, "c": 1}\n'
    run = cli("grad", "a*b + c", "--points", "-", "--json", "--at", "b=5", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    for line in run.stdout.splitlines():
        assert list(json.loads(line)["at"]) == ["a", "b", "c"]
    run = cli("grad", "a*b + c", "--points", "-", "--json", "--at", "b=5", stdin="c,a\n3,1\n")
    assert list(json.loads(run.stdout)["at"]) == ["a", "b", "c"]


# --- 30. a byte order mark ----------------------------------------------------------------


def test_a_utf8_byte_order_mark_is_accepted():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="\ufeffx\n3\n")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == _square_rows([3.0])
    run = cli("grad", "x*x", "--points", "-", "--json", stdin='\ufeff{"x": 3}\n')
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["grad"] == {"x": 6.0}


def test_a_byte_order_mark_after_the_first_line_is_a_bad_value():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="x\n\ufeff3\n")
    assert run.exit_code == 2
    assert "line 2: '\\ufeff3' is not a number" in run.stderr


# --- 35. a long line is refused while it is read ------------------------------------------


class EndlessLine(io.RawIOBase):
    """A stream of '1's with no end of line, that counts what was read from it."""

    def __init__(self, head: bytes = b"") -> None:
        self.head = head
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        data = (self.head + b"1" * len(buffer))[: len(buffer)]
        self.head = self.head[len(data):]
        buffer[: len(data)] = data
        self.served += len(data)
        return len(data)


def test_a_line_past_the_limit_is_refused_after_reading_a_bounded_part(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_LINE", "1000")
    endless = EndlessLine(b"x\n")
    reader = PointsReader(read_lines(io.BufferedReader(endless)), compile_program("x").inputs, {})
    with pytest.raises(PointsProblem, match="line 2: longer than 1,000 characters"):
        list(reader.chunks())
    assert endless.served < 1_000_000  # never the whole line: it has no end


def test_skip_bad_passes_over_a_long_line_and_goes_on(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_LINE", "100")
    stdin = "x\n2\n" + "1" * 3_000_000 + "\n3\n"
    run = cli("grad", "x*x", "--points", "-", "--csv", "--skip-bad", stdin=stdin)
    assert run.exit_code == 0
    assert _csv_rows(run.stdout) == _square_rows([2.0, 3.0])
    assert "skipped line 3: longer than 100 characters (raise the limit with GRADCLI_MAX_LINE=N)" in run.stderr


def test_a_line_of_exactly_the_limit_is_read(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_LINE", "10")
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="x\n0.12345678\n0.123456789\n")
    assert run.exit_code == 2
    assert _csv_rows(run.stdout) == _square_rows([0.12345678])
    assert "line 3: longer than 10 characters" in run.stderr


# --- the edges: NaN, infinities, -0, empty input, CRLF, headers ----------------------------


def test_crlf_line_endings_are_read():
    run = cli("grad", "x*y", "--points", "-", "--csv", stdin="x,y\r\n1,2\r\n3,4\r\n")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == [[2.0, 2.0, 1.0], [12.0, 4.0, 3.0]]
    run = cli("grad", "x*x", "--points", "-", "--json", stdin='{"x": 3}\r\n')
    assert json.loads(run.stdout)["grad"] == {"x": 6.0}
