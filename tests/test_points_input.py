"""--points input: every line is a point or a named bad line, read in bounded pieces.

The expected numbers are worked out here by hand or with `math` (x*x has the value x**2 and
the derivative 2x), never taken from gradcli's own output.
"""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradcli import compile_program
from gradcli.errors import PointsProblem
from gradcli.inputs import points
from gradcli.inputs.lines import LineReader
from gradcli.inputs.points import PointsReader
from tests.helpers import cli, process


def _csv_rows(stdout: str) -> list[list[float]]:
    return [[float(cell) for cell in line.split(",")] for line in stdout.splitlines()[1:]]


def _square_rows(xs: list[float]) -> list[list[float]]:
    return [[x * x, 2 * x] for x in xs]


# --- 10. JSON values: numbers only --------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "named"),
    [('"1"', "a string"), ("true", "a boolean"), ("false", "a boolean"), ("null", "null"),
     ('[1, true]', "a boolean"), ('[1, "2"]', "a string"), ('{"a": 1}', "an object")],
)
def test_json_strings_booleans_and_null_are_bad_values(given, named):
    run = cli("grad", "sum(x*x)", "--points", "-", "--json", stdin=f'{{"x": 2}}\n{{"x": {given}}}\n')
    assert run.exit_code == 2
    assert run.stderr.startswith("gradcli: error: --points: line 2: the value of 'x' ")
    assert named in run.stderr
    assert [json.loads(line)["value"] for line in run.stdout.splitlines()] == [4.0]


def test_json_strings_and_booleans_are_skipped_as_bad_lines():
    stdin = '{"x": "1"}\n{"x": 3}\n{"x": true}\n'
    run = cli("grad", "x*x", "--points", "-", "--json", "--skip-bad", stdin=stdin)
    assert run.exit_code == 0
    assert [json.loads(line)["line"] for line in run.stdout.splitlines()] == [2]
    assert "1 point done; 2 bad lines skipped: 1, 3" in run.stderr


# --- 11. no line is dropped silently ------------------------------------------------------


def test_a_csv_line_starting_with_hash_is_a_bad_line_not_a_comment():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="x\n1\n#2\n3\n")
    assert run.exit_code == 2
    assert _csv_rows(run.stdout) == _square_rows([1.0])
    assert run.stderr.strip() == "gradcli: error: --points: line 3: '#2' is not a number"


def test_a_csv_line_starting_with_hash_ends_a_json_run_with_exit_2():
    run = process("grad", "x*x", "--points", "-", "--json", stdin="x\n1\n#2\n3\n")
    assert run.exit_code == 2
    assert "line 3: '#2' is not a number" in run.stderr
    assert [json.loads(line)["value"] for line in run.stdout.splitlines()] == [1.0]


def test_skip_bad_names_the_hash_line_it_skips():
    run = cli("grad", "x*x", "--points", "-", "--csv", "--skip-bad", stdin="x\n1\n#2\n3\n")
    assert run.exit_code == 0
    assert _csv_rows(run.stdout) == _square_rows([1.0, 3.0])
    assert "skipped line 3: '#2' is not a number" in run.stderr


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_line_between_points_is_a_bad_line(blank):
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin=f"x\n1\n{blank}\n3\n")
    assert run.exit_code == 2
    assert _csv_rows(run.stdout) == _square_rows([1.0])
    assert "line 3: a blank line is not a point" in run.stderr
    run = cli("grad", "x*x", "--points", "-", "--json", stdin=f'{{"x": 1}}\n{blank}\n{{"x": 3}}\n')
    assert run.exit_code == 2
    assert "line 2: a blank line is not a point" in run.stderr


def test_blank_lines_at_the_end_are_not_points():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="x\n1\n3\n\n  \n\n")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == _square_rows([1.0, 3.0])
    assert run.stderr == ""


def test_blank_lines_before_the_first_line_are_bad_lines():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="\nx\n2\n")
    assert run.exit_code == 2
    assert "line 1: a blank line is not a point" in run.stderr
    run = cli("grad", "x*x", "--points", "-", "--csv", "--skip-bad", stdin="\nx\n2\n")
    assert run.exit_code == 0
    assert _csv_rows(run.stdout) == _square_rows([2.0])


def test_skipped_lines_are_named_in_line_order_in_csv_as_in_json():
    # A bad cell on line 2 and a blank line 3: the warnings and the summary go line by line.
    expected = ["gradcli: warning: skipped line 2: 'abc' is not a number",
                "gradcli: warning: skipped line 3: a blank line is not a point",
                "gradcli: 1 point done; 2 bad lines skipped: 2, 3"]
    run = cli("grad", "x*x", "--points", "-", "--csv", "--skip-bad", stdin="x\nabc\n\n1\n")
    assert run.exit_code == 0
    assert _csv_rows(run.stdout) == _square_rows([1.0])
    assert run.stderr.splitlines() == expected
    run = cli("grad", "x*x", "--points", "-", "--csv", "--skip-bad", stdin='{"x": "abc"}\n\n{"x": 1}\n')
    assert _csv_rows(run.stdout) == _square_rows([1.0])
    assert run.stderr.splitlines()[1:] == ["gradcli: warning: skipped line 2: a blank line is not a point",
                                           "gradcli: 1 point done; 2 bad lines skipped: 1, 2"]


# --- 12. a skipped line decides nothing ---------------------------------------------------


def test_a_skipped_json_line_does_not_fix_the_shape_of_later_lines():
    stdin = '{"x":[1,"a"]}\n{"x":3}\n{"x":4}\n'
    run = cli("grad", "sum(x*x)", "--points", "-", "--json", "--skip-bad", stdin=stdin)
    assert run.exit_code == 0
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(d["line"], d["value"], d["grad"]["x"]) for d in documents] == [(2, 9.0, 6.0), (3, 16.0, 8.0)]
    assert "2 points done; 1 bad line skipped: 1" in run.stderr


def test_the_shape_is_fixed_by_the_first_good_line_and_named_with_it():
    stdin = '{"x": [1, "no"]}\n{"x": 3}\n{"x": [4, 5]}\n'
    run = cli("grad", "sum(x*x)", "--points", "-", "--json", "--skip-bad", stdin=stdin)
    assert [json.loads(line)["line"] for line in run.stdout.splitlines()] == [2]
    assert "skipped line 3: 'x' has shape (2,) here but () before, on line 2" in run.stderr


def test_a_line_leaving_a_name_to_an_at_value_of_another_shape_is_a_bad_line():
    stdin = '{"x": [1, 2, 3]}\n{}\n'
    run = cli("grad", "sum(x*x)", "--points", "-", "--json", "--at", "x=[1,2]", stdin=stdin)
    assert run.exit_code == 2
    assert [json.loads(line)["value"] for line in run.stdout.splitlines()] == [14.0]
    assert ("line 2: no value for 'x' here, and its --at value has shape (2,) but 'x' has shape (3,) before, "
            "on line 1") in run.stderr


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


@pytest.mark.parametrize("number", ["1" + "0" * 400, "1e400", "-1e400", "9" * 5_000])
def test_a_json_number_past_float64_is_a_bad_value(number):
    run = cli("grad", "x*x", "--points", "-", "--json", stdin=f'{{"x": {number}}}\n')
    assert run.exit_code == 2
    assert "line 1: the value of 'x' is " in run.stderr and "past the range of float64 numbers" in run.stderr


def test_a_csv_number_past_float64_is_a_bad_value():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="x\n2\n1e400\n")
    assert run.exit_code == 2
    assert _csv_rows(run.stdout) == _square_rows([2.0])
    assert "line 3: '1e400' is past the range of float64" in run.stderr


def test_json_lists_nested_100k_deep_are_a_bad_line():
    deep = "[" * 100_000 + "1" + "]" * 100_000
    run = cli("grad", "sum(x)", "--points", "-", "--json", stdin=f'{{"x": {deep}}}\n')
    assert run.exit_code == 2
    assert "line 1: lists nested deeper than 32" in run.stderr
    run = cli("grad", "sum(x)", "--points", "-", "--json", stdin='{"x": ' + "[" * 40 + "1" + "]" * 40 + "}\n")
    assert "line 1: the value of 'x' has lists nested deeper than 32" in run.stderr


@pytest.mark.parametrize("column", ["m[2][6148914691236517205]", "z[99999999999999999999]", "z[" + "9" * 5_000 + "]"])
def test_a_csv_header_index_of_absurd_size_is_named(column):
    run = cli("grad", "sum(m)" if column.startswith("m") else "sum(z)", "--points", "-", "--json",
              stdin=f"{column}\n1\n")
    assert run.exit_code == 2
    assert run.stderr.startswith("gradcli: error: --points: line 1: column 1 of the header, ")
    assert "has an index of more than 18 digits" in run.stderr
    assert len(run.stderr) < 200


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
    reader = PointsReader(LineReader(io.BufferedReader(endless)), compile_program("x").inputs, {})
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


def test_nan_inf_and_negative_zero_in_csv_are_read_as_ieee_values():
    run = cli("grad", "x*y", "--points", "-", "--json", stdin="x,y\nnan,1\ninf,2\n-0,3\n-inf,-0.0\n")
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [d["at"]["x"] for d in documents] == [None, None, -0.0, None]
    assert math.copysign(1.0, documents[2]["at"]["x"]) == -1.0
    assert [d["grad"]["x"] for d in documents] == [1.0, 2.0, 3.0, -0.0]
    assert [d["value"] for d in documents] == [None, None, -0.0, None]  # nan, inf, -0*3, -inf*-0 = nan
    assert all("warnings" in d for d in (documents[0], documents[1], documents[3]))


def test_nan_and_infinities_in_json_are_read_as_python_writes_them():
    stdin = '{"x": NaN}\n{"x": Infinity}\n{"x": -Infinity}\n{"x": -0}\n{"x": -0.0}\n'
    run = cli("grad", "x*2", "--points", "-", "--json", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [d["value"] for d in documents][3:] == [-0.0, -0.0]
    assert all(math.copysign(1.0, d["value"]) == -1.0 for d in documents[3:])  # -0 keeps its sign
    assert [d["value"] for d in documents][:3] == [None, None, None]


@pytest.mark.parametrize("stdin", ["", "\n\n", "x\n", "x\n\n"])
@pytest.mark.parametrize("output", ["--csv", "--json"])
def test_no_points_is_no_output_and_success(stdin, output):
    run = cli("grad", "x*x", "--points", "-", output, stdin=stdin)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == ("value,grad_x\n" if output == "--csv" and stdin.startswith("x") else "")  # a header, if any


def test_crlf_line_endings_are_read():
    run = cli("grad", "x*y", "--points", "-", "--csv", stdin="x,y\r\n1,2\r\n3,4\r\n")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == [[2.0, 2.0, 1.0], [12.0, 4.0, 3.0]]
    run = cli("grad", "x*x", "--points", "-", "--json", stdin='{"x": 3}\r\n')
    assert json.loads(run.stdout)["grad"] == {"x": 6.0}


def test_a_header_naming_an_unknown_input_is_carried_through():  # it was refused before issue 25
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin="x,w\n1,2\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "w,value,grad_x\n2,1.0,2.0\n"


def test_a_header_naming_a_column_twice_is_named():
    run = cli("grad", "x*y", "--points", "-", "--csv", stdin="x,y,x\n1,2,3\n")
    assert run.exit_code == 2
    assert "line 1: column 3 of the header, 'x', repeats column 1" in run.stderr


def test_ragged_csv_rows_are_bad_lines():
    run = cli("grad", "x*y", "--points", "-", "--csv", "--skip-bad", stdin="x,y\n1,2\n3\n4,5,6\n7,8\n")
    assert run.exit_code == 0
    assert _csv_rows(run.stdout) == [[2.0, 2.0, 1.0], [56.0, 8.0, 7.0]]
    assert "skipped line 3: 1 cells where the header has 2" in run.stderr
    assert "skipped line 4: 3 cells where the header has 2" in run.stderr


def test_a_very_wide_csv_is_read_in_chunks_of_bounded_size():
    width = 20_000
    header = ",".join(f"z[{i}]" for i in range(width))
    rows = "".join(",".join(str(r + i) for i in range(width)) + "\n" for r in range(3))
    run = cli("grad", "sum(z*z)", "--points", "-", "--json", stdin=header + "\n" + rows)
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    for r, document in enumerate(documents):
        assert document["value"] == sum(float(r + i) ** 2 for i in range(width))
        assert document["grad"]["z"][-1] == 2.0 * (r + width - 1)


def test_a_chunk_holds_a_bounded_amount_of_text(monkeypatch):
    # 65,536 lines of a million characters each would be 65 GB: a chunk ends at CHUNK_CHARS.
    monkeypatch.setattr(points, "CHUNK_CHARS", 1_000)
    header = ",".join(f"z[{i}]" for i in range(10))
    lines = [header] + [",".join(["1.2345"] * 10)] * 100  # 69 characters a line
    for text in (lines, [json.dumps({"z": [1.2345] * 10})] * 100):
        chunks = list(PointsReader(iter(text), compile_program("sum(z)").inputs, {}).chunks())
        assert sum(chunk.count for chunk in chunks) == 100
        assert max(chunk.count for chunk in chunks) <= 1_000 // 60 + 1


def test_python_spellings_of_numbers_are_not_csv_numbers():
    # float() reads '1_000' and fullwidth digits; NumPy's CSV parser does not: neither do we.
    for cell in ["1_000", "\uff11"]:
        run = cli("grad", "x*x", "--points", "-", "--csv", stdin=f"x\n{cell}\n")
        assert run.exit_code == 2
        assert f"line 2: {cell!r} is not a number" in run.stderr


def test_a_duplicate_json_key_is_a_bad_line():
    run = cli("grad", "x*x", "--points", "-", "--json", stdin='{"x": 1, "x": 2}\n')
    assert run.exit_code == 2
    assert "line 1: 'x' is given twice" in run.stderr


# --- any input: points or named bad lines, never a crash -----------------------------------

_PIECES = st.sampled_from(['{"x": ', '{"y": ', "}", "[", "]", ",", "1", "-0", "2.5", "1e400", "NaN", "true", '"1"',
                           "null", "x", "y", "x[0]", "x[1]", "nan", "inf", "#", " ", "\r", "\ufeff", "\t", ":"])
_LINES = st.one_of(st.lists(_PIECES, max_size=12).map("".join).map(str.encode), st.binary(max_size=12))


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=8), st.booleans())
def test_any_lines_are_points_or_named_bad_lines(lines, skip_bad):
    from gradcli.batch import grad_batch
    from gradcli.errors import GradcliError

    tape = compile_program("sum(x * x) + y")
    fixed = {"y": np.asarray(0.5)}
    reader = PointsReader(LineReader(io.BytesIO(b"\n".join(lines))), tape.inputs, fixed, chunk=2, skip_bad=skip_bad)
    try:
        for chunk in reader.chunks():
            assert len(chunk.lines) == chunk.count
            if chunk.count:
                result = grad_batch(tape, chunk.columns, chunk.count, fixed)
                expected = np.sum(chunk.columns["x"].reshape(chunk.count, -1) ** 2, axis=1) + 0.5
                np.testing.assert_array_equal(result.values[0], expected)
    except GradcliError:
        pass


class FailingAfter(io.RawIOBase):
    """A stream that gives `data`, then fails as a bad disk does."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        if not self.data:
            raise OSError(5, "Input/output error")
        size = min(len(buffer), len(self.data))
        buffer[:size], self.data = self.data[:size], self.data[size:]
        return size


def test_the_points_read_before_a_read_error_are_answered():
    from gradcli.errors import NameProblem

    stream = io.BufferedReader(FailingAfter(b"x\n1\n2\n"))
    reader = PointsReader(LineReader(stream, "points.csv"), compile_program("x").inputs, {})
    chunks = []
    with pytest.raises(NameProblem, match=r"cannot read points from 'points\.csv': Input/output error"):
        for chunk in reader.chunks():
            chunks.append(chunk)
    assert [chunk.lines for chunk in chunks] == [[2, 3]]
    assert [chunk.columns["x"].tolist() for chunk in chunks] == [[1.0, 2.0]]


def test_many_bad_lines_skipped_are_counted_not_kept(tmp_path):
    # Memory stays flat however many lines --skip-bad passes over: the run keeps the first ones it
    # names in its summary and a count, not every line number (20 million blank lines held 0.9 GB).
    from gradcli import session

    path = tmp_path / "points.csv"
    path.write_text("x\n1.5\n" + "\n" * 50_000 + "nope\n2.5\n")
    run = session.points(session.Request(program="x*2", points=str(path), skip_bad=True), "grad")
    answered = [event for event in run if isinstance(event, session.Answered)]
    assert sum(event.chunk.count for event in answered) == 2
    assert run.skipped_count == 50_001
    assert run.skipped == list(range(3, 23))
    done = cli("grad", "x*2", "--points", str(path), "--csv", "--skip-bad")
    assert done.exit_code == 0
    assert done.stderr.splitlines()[-1] == ("gradcli: 2 points done; 50,001 bad lines skipped: "
                                            + ", ".join(map(str, range(3, 23))) + ", ...")


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_a_long_run_of_bad_lines_is_passed_over_in_bounded_memory(tmp_path, suffix):
    # --skip-bad over 100,000 blank lines in a row: the lines are named a batch at a time, not
    # gathered into one chunk waiting for the next good line (2 million held 1.1 GB; these would hold 55 MB).
    import tracemalloc

    from gradcli import session

    path = tmp_path / f"points{suffix}"
    head, first, last = ("x\n", "1.5\n", "2.5\n") if suffix == ".csv" else ("", '{"x": 1.5}\n', '{"x": 2.5}\n')
    path.write_text(head + first + "\n" * 100_000 + last)
    run = session.points(session.Request(program="x*2", points=str(path), skip_bad=True), "grad")
    tracemalloc.start()
    try:
        batches = [len(event.problems) for event in run if isinstance(event, session.Skipped)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sum(batches) == run.skipped_count == 100_000
    assert peak < 16_000_000, f"{peak:,} bytes at the peak"


def test_a_json_array_of_points_is_refused_naming_json_lines(tmp_path):
    # what --output x.json writes (one JSON array) is no JSON Lines: it was read as a CSV header '['
    # ("line 1: no column and no --at value for input 'x'")
    out = tmp_path / "out.json"
    assert cli("grad", "x*x", "--points", "-", "--output", str(out), stdin="x\n1\n2\n").exit_code == 0
    for source, stdin in ((str(out), ""), ("-", '[{"x": 1}, {"x": 2}]\n')):
        run = cli("grad", "x*x", "--points", source, "--csv", stdin=stdin)
        assert run.exit_code == 2 and run.stdout == ""
        assert "line 1: a JSON array" in run.stderr and "JSON Lines" in run.stderr
        assert len(run.stderr.splitlines()) == 1
