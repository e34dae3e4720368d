"""--points at the speed of the data tools (issue #13): the fast readers and writers give the
same bytes as Python's own `repr` and `json.dumps`, and fall back to the exact path where they
cannot tell."""

from __future__ import annotations

import json
import math
import queue
import subprocess
import sys
import threading
from typing import Any

import numpy as np
import pytest

from tests.helpers import cli

# Every kind of float a writer can meet: each decade of float64's range (where Python's repr
# switches between fixed and exponent notation), both zeros, subnormals, the extremes, NaN, infinities.
_MAGNITUDES = [0.0, -0.0, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1.0, 100.0,
               1e-4, 9.999999999999999e-05, 1e-5, 1e15, 9999999999999998.0, 1e16, 1e22, 123456789.125,
               math.nan, math.inf, -math.inf]
_RANDOM = (np.random.default_rng(13).standard_normal(400) * 10.0 ** np.arange(-200, 200)).tolist()
VALUES = _MAGNITUDES + _RANDOM + [-v for v in _RANDOM[::7]]


def _points(values: list[float]) -> str:
    return "x\n" + "".join(f"{v!r}\n" for v in values)


@pytest.mark.parametrize("chunk", ["65536", "1"])  # 1: each number alone in its chunk (polars writes floats as they are)
def test_csv_cells_are_pythons_shortest_repr_of_every_kind_of_float(chunk):
    run = cli("grad", "x*1", "--points", "-", "--csv", "--chunk-size", chunk, stdin=_points(VALUES))
    assert run.exit_code == 0, run.stderr
    header, *rows = run.stdout.splitlines()
    assert header == "value,grad_x"
    assert rows == [f"{v!r},1.0" for v in VALUES]


def _document(line: int, x: float, value: float, grad: float, row: int) -> str:
    def json_number(v: float) -> float | None:
        return v if math.isfinite(v) else None

    document = {"line": line, "row": row, "at": {"x": json_number(x)}, "value": json_number(value), "grad": {"x": json_number(grad)}}
    def kind(v: float) -> str:
        return "NaN" if math.isnan(v) else "+inf" if v > 0 else "-inf"

    said = [f"the input 'x' is not finite ({kind(x)})"] if not math.isfinite(x) else []
    said += [f"the value of 'out' is not finite ({kind(value)})"] if not math.isfinite(value) else []
    said += [f"the gradient of 'x' is not finite ({kind(grad)})"] if not math.isfinite(grad) else []
    if said:
        document["warnings"] = said
    return json.dumps(document)


@pytest.mark.parametrize("chunk", ["65536", "1"])
def test_json_lines_are_what_json_dumps_writes(chunk):
    run = cli("grad", "x*1", "--points", "-", "--json", "--chunk-size", chunk, stdin=_points(VALUES))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == [_document(i + 2, v, v, 1.0, i + 1) for i, v in enumerate(VALUES)]


def test_json_lines_of_vectors_and_tuples_are_what_json_dumps_writes():
    stdin = "".join(json.dumps({"z": [a, b], "w": c}) + "\n" for a, b, c in [(1.5, -2.0, 3.0), (0.0, 1e-7, -1.0)])
    run = cli("grad", "(sum(z*w), z[0])", "--points", "-", "--json", "--seed", "(1, 1)", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    expected = []
    for line, (a, b, c) in enumerate([(1.5, -2.0, 3.0), (0.0, 1e-7, -1.0)], start=1):
        expected.append(json.dumps({"line": line, "row": line, "at": {"z": [a, b], "w": c}, "value": [a * c + b * c, a],
                                    "grad": {"z": [c + 1.0, c], "w": a + b}}))
    assert run.stdout.splitlines() == expected


@pytest.mark.parametrize("output", ["--csv", "--json"])
def test_a_chunk_boundary_changes_no_byte(output):
    values = _RANDOM[:50]
    whole = cli("grad", "x*x", "--points", "-", output, stdin=_points(values))
    pieces = cli("grad", "x*x", "--points", "-", output, "--chunk-size", "7", stdin=_points(values))
    assert whole.exit_code == pieces.exit_code == 0
    assert whole.stdout == pieces.stdout


# --- bad lines inside the blocks polars reads at once --------------------------------------

# Past the first piece of input (64 KiB, read line by line to find the header), lines go to
# polars a block at a time: a bad line there must be named as it is near the start.
_PADDING = 20_000  # good lines before the bad one (140 kB): well past the first piece
_BAD_CSV = [
    (b"", "a blank line is not a point"),
    (b"   ", "a blank line is not a point"),
    (b"abc", "'abc' is not a number"),
    (b"1e400", "'1e400' is past the range of float64 numbers"),
    (b"#1", "'#1' is not a number"),
    (b"1_000", "'1_000' is not a number"),
    (b"\xef\xbc\x91", "'\uff11' is not a number"),
    (b"1,2", "2 cells where the header has 1"),
    (b"\xff1", "not UTF-8 text (byte 0xff at column 1)"),
    # ("1" is 1, as data tools read it; the lines after an open quote are inside its cell, to the end here)
    (b'"1', "cell 1 opens a quote that does not close before the end of the input"),
]


def _padded(bad: bytes, after: int = 3) -> bytes:
    good = b"".join(f"{1 + i / 8:.3f}\n".encode() for i in range(_PADDING))
    return b"x\n" + good + bad + b"\n" + b"2.5\n" * after


def _rows(stdout: str) -> list[list[float]]:
    return [[float(cell) for cell in line.split(",")] for line in stdout.splitlines()[1:]]


@pytest.mark.parametrize(("bad", "named"), _BAD_CSV)
def test_a_bad_line_deep_in_a_file_stops_the_run_after_the_points_before_it(tmp_path, bad, named):
    path = tmp_path / "points.csv"
    path.write_bytes(_padded(bad))
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2
    expected = [[x * x, 2 * x] for x in (1 + i / 8 for i in range(_PADDING))]
    assert _rows(run.stdout) == expected
    assert f"line {_PADDING + 2}: {named}" in run.stderr


@pytest.mark.parametrize(("bad", "named"), _BAD_CSV)
def test_a_bad_line_deep_in_a_file_is_skipped_and_nothing_else_is_lost(tmp_path, bad, named):
    path = tmp_path / "points.csv"
    path.write_bytes(_padded(bad, after=2_000))
    run = cli("grad", "x*x", "--points", str(path), "--json", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    after = 0 if named.endswith("the end of the input") else 2_000  # (an open quote takes the rest into its cell)
    lines = [*range(2, _PADDING + 2), *range(_PADDING + 3, _PADDING + 3 + after)]
    assert [d["line"] for d in documents] == lines
    xs = [1 + i / 8 for i in range(_PADDING)] + [2.5] * after  # eighths: exact in binary, and their squares
    assert [d["at"]["x"] for d in documents] == xs
    assert [d["value"] for d in documents] == [x * x for x in xs]
    assert f"skipped line {_PADDING + 2}: {named}" in run.stderr


def test_infinities_and_nan_deep_in_a_file_are_read(tmp_path):
    path = tmp_path / "points.csv"
    path.write_bytes(_padded(b"inf\n-Infinity\nnan\n-0", after=1))
    run = cli("grad", "x*1", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[-5:] == ["inf,1.0", "-inf,1.0", "nan,1.0", "-0.0,1.0", "2.5,1.0"]


def _exact_reads(monkeypatch, reader: Any) -> list[int]:
    """A 1 for each line `reader`'s exact (line by line) read is given, as they come."""
    asked: list[int] = []
    exact = reader.row

    def counting(self, text, line):
        asked.append(1)
        return exact(self, text, line)

    monkeypatch.setattr(reader, "row", counting)
    return asked


def test_a_few_nans_and_infinities_deep_in_a_file_leave_the_rest_of_their_block_to_the_fast_reader(tmp_path, monkeypatch):
    # A NaN or an infinity is checked on its own line by Python's rules; it does not send its whole
    # block (a million points: seconds) line by line through the exact reader.
    from gradcli.inputs.csv import Csv

    asked = _exact_reads(monkeypatch, Csv)
    xs = [1 + i / 8 for i in range(300_000)]
    spelled = {100_000: "nan", 150_000: "-inf", 200_000: "Infinity", 250_000: "+inf", 250_001: "-nan"}
    cells = [spelled.get(i, f"{x:.3f}") for i, x in enumerate(xs)]
    path = tmp_path / "points.csv"
    path.write_text("x,y\n" + "".join(f"{cell},2\n" for cell in cells))
    run = cli("grad", "x*y", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    expected = [float(cell) for cell in cells]
    rows = _rows(run.stdout)
    assert len(rows) == len(expected)
    assert all(value == 2 * x or (math.isnan(value) and math.isnan(x)) for (value, _, _), x in zip(rows, expected))
    assert [row[1] for row in rows] == [2.0] * len(rows)
    assert sum(asked) < 20_000  # the first piece's lines only


def test_a_nan_spelled_as_python_does_not_read_it_deep_in_a_file_is_still_a_bad_line(tmp_path):
    path = tmp_path / "points.csv"
    path.write_bytes(_padded(b"nan(1)"))
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2
    assert f"line {_PADDING + 2}: 'nan(1)' is not a number" in run.stderr
    assert len(_rows(run.stdout)) == _PADDING


def test_a_long_line_deep_in_a_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_LINE", "100")
    path = tmp_path / "points.csv"
    path.write_bytes(_padded(b"1." + b"0" * 200))
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2
    assert len(_rows(run.stdout)) == _PADDING
    assert f"line {_PADDING + 2}: longer than 100 characters" in run.stderr


def test_json_lines_with_at_values_are_what_json_dumps_writes():
    stdin = "x\n" + "".join(f"{v!r}\n" for v in _RANDOM[150:250])
    run = cli("grad", "x*sum(w) + c", "--points", "-", "--json", "--at", "w=[1.5,-2e-7],c=3e-05", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    expected = []
    for line, x in enumerate(_RANDOM[150:250], start=2):
        w = 1.5 + -2e-7
        document = {"line": line, "row": line - 1, "at": {"x": x, "w": [1.5, -2e-7], "c": 3e-05},
                    "value": x * w + 3e-05, "grad": {"x": w, "w": [x, x], "c": 1.0}}
        expected.append(json.dumps(document))
    assert run.stdout.splitlines() == expected


def test_json_lines_with_a_scalar_at_value_are_what_json_dumps_writes():
    xs = _RANDOM[150:250]
    run = cli("grad", "x*c", "--points", "-", "--json", "--at", "c=-3e-05", stdin="x\n" + "".join(f"{x!r}\n" for x in xs))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == [json.dumps({"line": line, "row": line - 1, "at": {"x": x, "c": -3e-05}, "value": x * -3e-05,
                                                   "grad": {"x": -3e-05, "c": x}})
                                       for line, x in enumerate(xs, start=2)]


# --- live pipes: gradcli as a coprocess ---------------------------------------------------


def _coprocess(*options: str) -> tuple[Any, queue.Queue[bytes]]:
    command = [sys.executable, "-m", "gradcli", "grad", "x*x", "--points", "-", *options]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in child.stdout], daemon=True).start()  # type: ignore[union-attr]
    return child, lines


@pytest.mark.parametrize("header", [b"x\n", b""])  # CSV, JSON Lines
def test_json_lines_answer_each_line_before_the_next_is_written(header):
    child, lines = _coprocess("--json")
    try:
        child.stdin.write(header)
        for x in [3.0, -4.0, 0.5, 1e-300]:
            child.stdin.write((f"{x!r}\n" if header else json.dumps({"x": x}) + "\n").encode())
            child.stdin.flush()
            answer = json.loads(lines.get(timeout=60))
            assert (answer["value"], answer["grad"]["x"]) == (x * x, 2 * x)
    finally:
        child.stdin.close()
        assert child.wait(timeout=60) == 0


def test_the_table_answers_each_line_before_the_next_is_written():
    child, lines = _coprocess()
    try:
        child.stdin.write(b"x\n")
        for x in [3.0, -4.0, 0.5]:
            child.stdin.write(f"{x!r}\n".encode())
            child.stdin.flush()
            row = lines.get(timeout=60)
            while "│".encode() not in row:  # the header and its rule come with the first row
                row = lines.get(timeout=60)
            cells = [cell.strip() for cell in row.decode().split("│")]
            assert [float(c) for c in cells[1:]] == pytest.approx([x * x, 2 * x], rel=1e-5)
    finally:
        child.stdin.close()
        assert child.wait(timeout=60) == 0


_BAD_JSON = [
    (b"", "a blank line is not a point"),
    (b'{"x": "1"}', "the value of 'x' is not a number or a list of numbers: it is a string"),
    (b'{"x": 1, "x": 2}', "'x' is given twice"),
    (b'{"x": null}', "the value of 'x' is not a number or a list of numbers: it is null"),
    (b'{"x": [1]}', "'x' has shape (1,) here but () before, on line 1"),
    (b'{"x": 1e400}', "the value of 'x' is a number past the range of float64 numbers"),
    (b'{}', "no value for input 'x'"),
    (b'[1]', "a point is a JSON object {name: value}"),
    (b'{"x": 1}{"x": 2}', "not JSON: Extra data at column 9"),
    (b'{"x": nan}', "not JSON: Expecting value at column 7"),
    (b'{"x": -NaN}', "not JSON: Expecting value at column 7"),
    (b'{"x": 1.}', "not JSON: Expecting ',' delimiter at column 8"),
    (b'{"x": 1,}', "not JSON: Expecting property name enclosed in double quotes at column 9"),
]


# JSON Lines: past the first piece (64 kB), blocks go to pyarrow's JSON reader once the lines
# before have fixed the shapes; the bad line is in such a block, after a good block pyarrow read.
# Blocks of 64 kB (small_blocks) put it there with 12,000 lines before it, as blocks of a megabyte
# do with 80,000 (a fifth of a second each case, not a second and a half).
_PADDING_JSON = 12_000


@pytest.fixture
def small_blocks(monkeypatch):
    from gradcli.inputs import lines

    monkeypatch.setattr(lines, "BLOCK", 1 << 16)


def _padded_json(bad: bytes, after: int = 3) -> bytes:
    good = b"".join(b'{"x": %.3f}\n' % (1 + i / 8) for i in range(_PADDING_JSON))
    return good + bad + b"\n" + b'{"x": 2.5}\n' * after


@pytest.mark.parametrize(("bad", "named"), _BAD_JSON)
def test_a_bad_json_line_deep_in_a_file_stops_the_run_after_the_points_before_it(small_blocks, tmp_path, bad, named):
    path = tmp_path / "points.jsonl"
    path.write_bytes(_padded_json(bad))
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2
    assert _rows(run.stdout) == [[x * x, 2 * x] for x in (1 + i / 8 for i in range(_PADDING_JSON))]
    assert f"line {_PADDING_JSON + 1}: {named}" in run.stderr


@pytest.mark.parametrize(("bad", "named"), _BAD_JSON)
def test_a_bad_json_line_deep_in_a_file_is_skipped_and_nothing_else_is_lost(small_blocks, tmp_path, bad, named):
    path = tmp_path / "points.jsonl"
    path.write_bytes(_padded_json(bad, after=100))
    run = cli("grad", "x*x", "--points", str(path), "--csv", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    xs = [1 + i / 8 for i in range(_PADDING_JSON)] + [2.5] * 100
    assert _rows(run.stdout) == [[x * x, 2 * x] for x in xs]
    assert f"skipped line {_PADDING_JSON + 1}: {named}" in run.stderr


def test_a_long_json_line_deep_in_a_file_is_refused(small_blocks, tmp_path, monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_LINE", "100")
    path = tmp_path / "points.jsonl"
    path.write_bytes(_padded_json(b'{"x": 1.' + b"0" * 200 + b"}"))
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2
    assert len(_rows(run.stdout)) == _PADDING_JSON
    assert f"line {_PADDING_JSON + 1}: longer than 100 characters" in run.stderr


@pytest.mark.parametrize("blank", [b"", b"  ", b"\r", b"\t"])
def test_two_json_objects_on_a_line_are_not_made_up_for_by_a_blank_line_in_the_same_block(small_blocks, tmp_path, blank):
    # pyarrow reads two rows from the first line and none from the blank one: as many rows as lines
    path = tmp_path / "points.jsonl"
    path.write_bytes(_padded_json(b'{"x": 1}{"x": 2}\n' + blank, after=100))
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2
    assert len(_rows(run.stdout)) == _PADDING_JSON
    assert f"line {_PADDING_JSON + 1}: not JSON: Extra data at column 9" in run.stderr
    skipped = cli("grad", "x*x", "--points", str(path), "--csv", "--skip-bad")
    assert skipped.exit_code == 0, skipped.stderr
    xs = [1 + i / 8 for i in range(_PADDING_JSON)] + [2.5] * 100
    assert _rows(skipped.stdout) == [[x * x, 2 * x] for x in xs]
    assert f"skipped line {_PADDING_JSON + 2}: a blank line is not a point" in skipped.stderr


def test_json_nan_and_infinities_deep_in_a_file_are_read_as_python_reads_them(small_blocks, tmp_path):
    path = tmp_path / "points.jsonl"
    path.write_bytes(_padded_json(b'{"x": NaN}\n{"x": Infinity}\n{"x": -Infinity}', after=1))
    run = cli("grad", "x*1", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[-4:] == ["nan,1.0", "inf,1.0", "-inf,1.0", "2.5,1.0"]


def test_a_few_json_nans_and_infinities_deep_in_a_file_leave_the_rest_of_their_block_to_the_fast_reader(
        tmp_path, monkeypatch):
    from gradcli.inputs.jsonl import JsonLines

    asked = _exact_reads(monkeypatch, JsonLines)
    xs = [1 + i / 8 for i in range(200_000)]
    spelled = {60_000: "NaN", 90_000: "-Infinity", 120_000: "Infinity", 120_001: "NaN"}
    path = tmp_path / "points.jsonl"
    path.write_text("".join(f'{{"x": {spelled.get(i, f"{x:.3f}")}, "y": 2}}\n' for i, x in enumerate(xs)))
    run = cli("grad", "x*y", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    expected = [float(spelled.get(i, f"{x:.3f}").replace("Infinity", "inf")) for i, x in enumerate(xs)]
    rows = _rows(run.stdout)
    assert len(rows) == len(expected)
    assert all(value == 2 * x or (math.isnan(value) and math.isnan(x)) for (value, _, _), x in zip(rows, expected))
    assert sum(asked) < 20_000  # the first piece's lines only


def test_inputs_named_with_nan_or_infinity_in_them_leave_their_json_lines_to_the_fast_reader(tmp_path, monkeypatch):
    # xNaN and Infinity_1 are names, not numbers: only a line with NaN written as a value is read again
    from gradcli.inputs.jsonl import JsonLines

    asked = _exact_reads(monkeypatch, JsonLines)
    xs = [1 + i / 8 for i in range(150_000)]
    path = tmp_path / "points.jsonl"
    path.write_text("".join(f'{{"xNaN": {"NaN" if i == 100_000 else f"{x:.3f}"}, "Infinity_1": 2}}\n'
                            for i, x in enumerate(xs)))
    run = cli("grad", "xNaN*Infinity_1", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    rows = _rows(run.stdout)
    assert len(rows) == len(xs)
    assert math.isnan(rows[100_000][0])
    assert [row[0] for i, row in enumerate(rows) if i != 100_000] == [2 * x for i, x in enumerate(xs) if i != 100_000]
    assert sum(asked) < 20_000  # the first piece's lines only


@pytest.mark.parametrize("line", [b'{"x": -NaN, "y": 2}', b'{"x": nan, "y": 2}', b'{"x": NaN, "x": 1, "y": 2}',
                                  b'{"xNaN": 1, "y": 2}', b'{"x": NaN}'])
def test_a_json_line_with_a_nan_deep_in_a_file_that_is_no_point_is_still_a_bad_line(small_blocks, tmp_path, line):
    good = b"".join(b'{"x": %.3f, "y": 2}\n' % (1 + i / 8) for i in range(_PADDING_JSON))
    path = tmp_path / "points.jsonl"
    path.write_bytes(good + line + b"\n" + b'{"x": 2.5, "y": 2}\n')
    run = cli("grad", "x*y", "--points", str(path), "--csv")
    assert run.exit_code == 2, run.stdout[-200:]
    assert f"line {_PADDING_JSON + 1}: " in run.stderr
    assert len(_rows(run.stdout)) == _PADDING_JSON


def test_json_integers_deep_in_a_file_are_floats_and_minus_zero_keeps_its_sign(small_blocks, tmp_path):
    path = tmp_path / "points.jsonl"
    path.write_bytes(_padded_json(b'{"x": -0}\n{"x": 3}\n{"x": 99999999999999999999999}', after=0))
    run = cli("grad", "x*1", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[-3:] == ["-0.0,1.0", "3.0,1.0", f"{float(99999999999999999999999)!r},1.0"]


@pytest.mark.parametrize("limit", [1, 7, 100, 1000, 5000])
def test_a_line_past_the_limit_is_found_in_a_block_however_it_falls(limit):
    # the compiled helper measures each line of a block it reads; it must agree with measuring every line
    from gradcli.inputs.rows import helper

    if helper is None:
        pytest.skip("the compiled helper is not built")
    rng = np.random.default_rng(limit)
    for _ in range(200):
        lengths = rng.integers(1, limit // 4 + 2, rng.integers(1, 60))
        if rng.random() < 0.5:  # one long line
            lengths[rng.integers(len(lengths))] = rng.integers(limit // 2 + 1, 5 * limit // 2 + 2)
        block = b"\n".join(b"0" * int(n) for n in lengths)  # (zeros: a number of any length)
        assert (helper.csv(block, 1, [0], [], limit) is not None) == (max(lengths) <= limit), (limit, list(lengths))


@pytest.mark.parametrize("output", [["--csv"], ["--json"], [], ["--output", "out.csv"], ["--output", "out.jsonl"]])
def test_a_file_and_a_pipe_of_the_same_points_give_the_same_bytes(tmp_path, output):
    # from a file the chunks are rendered on writer threads (Pipelined), from a pipe one by one:
    # many chunks, tiny and odd numbers among them, in input order either way
    values = _RANDOM * 12 + [1e-5, -0.0, 3e-300, 1e300] * 50  # past the first 64 kB: blocks read at once too
    text = "x,y\n" + "".join(f"{v!r},{i % 7 - 3}\n" for i, v in enumerate(values))
    path = tmp_path / "points.csv"
    path.write_text(text)
    extra = [*output[:1], str(tmp_path / output[1])] if output[:1] == ["--output"] else output
    from_file = cli("grad", "x*y + exp(-x*x)", "--points", str(path), "--chunk-size", "256", *extra)
    written = (tmp_path / output[1]).read_text() if output[:1] == ["--output"] else from_file.stdout
    if output[:1] == ["--output"]:
        (tmp_path / output[1]).unlink()
    from_pipe = cli("grad", "x*y + exp(-x*x)", "--points", "-", "--chunk-size", "256", *extra, stdin=text)
    piped = (tmp_path / output[1]).read_text() if output[:1] == ["--output"] else from_pipe.stdout
    assert from_file.exit_code == from_pipe.exit_code == 0, from_file.stderr + from_pipe.stderr
    assert written == piped
    assert len(written.splitlines()) >= len(values)


def test_a_block_handed_on_as_a_view_is_searched_within_its_own_bytes():
    # the fast readers search a block (find, count) in the piece it views, without a copy, and
    # only where the view starts at the piece's first byte
    from gradcli.inputs.lines import searchable

    piece = b"1.5\n2.5\n3.5\r\n"
    assert searchable(piece) is piece
    assert searchable(memoryview(piece)[:7]) is piece
    inner = searchable(memoryview(piece)[4:11])
    assert inner == b"2.5\n3.5" and inner.count(b"\n", 0, 7) == 1


@pytest.mark.parametrize("chunk", ["65536", "1"])
def test_json_lines_warnings_tell_nan_and_each_infinity_apart_and_where(chunk):
    # JSON writes NaN, +inf and -inf all as null (RFC 8259): the warnings say which, and at which element,
    # so a script can tell an overflow from a domain error (issue 25)
    stdin = "\n".join(json.dumps(point) for point in [{"x": 0.0, "y": [1.0, -1.0]}, {"x": 1.0, "y": [1.0, 2.0]},
                                                       {"x": -1.0, "y": [0.0, 1e308]}]) + "\n"
    run = cli("grad", "log(x)*y*1e10", "--seed", "ones", "--points", "-", "--json", "--chunk-size", chunk, stdin=stdin)
    assert run.exit_code == 0, run.stderr
    first, second, third = (json.loads(line) for line in run.stdout.splitlines())
    assert first["warnings"] == ["the value of 'out' is not finite (-inf at [0], +inf at [1])",
                                 "the gradient of 'x' is not finite (NaN)",
                                 "the gradient of 'y' is not finite (-inf at [0], -inf at [1])"]
    assert "warnings" not in second
    assert third["warnings"] == ["the value of 'out' is not finite (NaN at [0], NaN at [1])",
                                 "the gradient of 'x' is not finite (-inf)",  # sum(y)*1e10 overflows, / -1
                                 "the gradient of 'y' is not finite (NaN at [0], NaN at [1])"]


def test_the_helper_writes_each_float_as_repr_does():
    """The compiled writer's shortest round-trip text is repr's, byte for byte: random bit patterns
    (subnormals, huge, tiny), halfway decimals and their neighbours, powers of two and theirs, NaN,
    infinities and -0.0; ('r', ..., b"null") writes null for each NaN and infinity."""
    from gradcli.inputs.rows import helper

    if not hasattr(helper, "lines"):
        pytest.skip("the compiled helper is not built")
    rng = np.random.default_rng(25)
    halfway = (rng.integers(1, 10**8, 20_000) + 0.5) * 10.0 ** rng.integers(-20, 20, 20_000)
    powers = np.ldexp(1.0, np.arange(-1074, 1024))
    numbers = np.concatenate([
        rng.integers(0, 2**64, 50_000, dtype=np.uint64).view(np.float64),
        rng.uniform(0.5, 1.5, 20_000), halfway, np.nextafter(halfway, np.inf), np.nextafter(halfway, -np.inf),
        powers, np.nextafter(powers, 0), np.nextafter(powers, np.inf),
        [0.0, -0.0, np.nan, np.inf, -np.inf, 1e16, 1e17, 1e-4, 1e-5, 1e-15, 1e-16, 0.1, 5e-324, 1.7976931348623157e308]])
    written = helper.lines([("r", numbers, None), b"\n"], len(numbers)).decode().splitlines()
    assert written == [repr(number) for number in numbers.tolist()]
    nulls = helper.lines([("r", numbers[-14:], b"null"), b","], 14).decode().split(",")[:-1]
    assert nulls == ["null" if number - number != 0 else repr(number) for number in numbers[-14:].tolist()]


@pytest.mark.parametrize("chunk", ["65536", "1"])
def test_json_lines_warnings_name_an_input_that_is_not_finite(chunk):
    # `at` writes a NaN or infinite input as null, as it writes results: the warnings say which it was, by path,
    # whether the point gave it or --at did (a result that stays finite would otherwise leave the null unexplained)
    stdin = "\n".join(json.dumps(point) for point in [{"x": "NaN", "v": [1.0, "-Infinity"]}, {"x": 2.0, "v": [1.0, 2.0]}])
    stdin = stdin.replace('"NaN"', "NaN").replace('"-Infinity"', "-Infinity") + "\n"
    run = cli("grad", "where(x > 0, 1.0, 2.0) + w*0 + sum(v)*0", "--points", "-", "--at", "w=inf", "--json",
              "--chunk-size", chunk, stdin=stdin)
    assert run.exit_code == 0, run.stderr
    first, second = (json.loads(line) for line in run.stdout.splitlines())
    assert first["at"] == {"x": None, "w": None, "v": [1.0, None]}
    assert first["warnings"][:3] == ["the input 'x' is not finite (NaN)", "the input 'w' is not finite (+inf)",
                                     "the input 'v' is not finite (-inf at [1])"]
    assert second["warnings"][:1] == ["the input 'w' is not finite (+inf)"]


def test_what_points_json_writes_reads_back_as_the_same_points(tmp_path):
    # JSON writes NaN, +inf and -inf as null; the line's warnings say which each input was, every one of them
    # (six here, past the four a result's warning shows), so gradcli's own lines read back as the points they
    # answer: the same --csv as from the original file, where a null means NaN, +inf or -inf as it was
    points = tmp_path / "points.jsonl"
    points.write_text('{"id": 1, "x": NaN, "v": [1.0, -Infinity]}\n{"id": 2, "x": Infinity, "v": [-2.0, 0.5]}\n'
                      '{"id": 3, "x": -Infinity, "v": [NaN, Infinity]}\n{"id": 4, "x": 0.25, "v": [3.0, -1.0]}\n')
    wide = tmp_path / "wide.jsonl"
    wide.write_text('{"x": 1.0, "v": [NaN, 1.0, Infinity, -Infinity, NaN, NaN, -Infinity, 2.0]}\n')
    for path, program in [(points, "x*2 + sum(v)"), (wide, "x + sum(v*v)")]:
        written = cli("grad", program, "--points", str(path), "--at", "w=-inf", "--json")
        assert written.exit_code == 0, written.stderr
        again = tmp_path / "again.jsonl"
        again.write_text(written.stdout)
        expected = cli("grad", program, "--points", str(path), "--csv", "--drop-extra")
        read_back = cli("grad", program, "--points", str(again), "--csv", "--drop-extra")
        assert read_back.exit_code == 0, read_back.stderr
        assert read_back.stdout == expected.stdout and "nan" in expected.stdout and "inf" in expected.stdout


def test_a_null_the_line_does_not_name_is_still_a_missing_value():
    # null is how pandas and others write a missing value: only a null the line's own warnings name is a number
    unnamed = cli("grad", "x*2", "--points", "-", "--json", stdin='{"at": {"x": null}, "warnings": []}\n')
    assert unnamed.exit_code == 2 and "line 1: the value of 'x' is not a number" in unnamed.stderr
    other = cli("grad", "x*2", "--points", "-", "--json",
                stdin='{"x": null, "warnings": ["the input \'y\' is not finite (NaN)"]}\n')
    assert other.exit_code == 2 and "line 1: the value of 'x' is not a number" in other.stderr
    # a line that gives an input itself is read as it is, whatever its `at` says
    both = cli("grad", "x*2", "--points", "-", "--json", stdin='{"x": 3, "at": {"x": 5}}\n')
    assert both.exit_code == 0 and json.loads(both.stdout)["value"] == 6.0
