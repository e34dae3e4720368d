"""--points from a regular file (pyarrow's CSV reader on big blocks, writers on threads) against
what Python itself reads and writes: a line is what ends at LF or CRLF, a number is what
`float` reads, the output is `repr`'s text."""

from __future__ import annotations

from tests.helpers import cli


def _csv_rows(values: list[float]) -> list[str]:
    """`grad x*x --csv` of these points, as Python writes them."""
    return [f"{v * v!r},{2 * v!r}" for v in values]


def _file_with(tmp_path, values: list[float], at: int, bad: bytes) -> str:
    """A CSV file of x, the line after `at` points (past the first 64 KB: read at once) being `bad`."""
    lines = [b"x", *(repr(v).encode() for v in values[:at]), bad, *(repr(v).encode() for v in values[at:])]
    path = tmp_path / "points.csv"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return str(path)


VALUES = [i + 0.25 for i in range(20_000)]


def test_a_lone_carriage_return_inside_a_line_deep_in_a_file_is_a_bad_line(tmp_path):
    # A line ends at LF or CRLF; `1.5\r2.5` is one line, and no number (pyarrow alone would
    # read two rows, putting an extra point in and numbering every later line one too far).
    path = _file_with(tmp_path, VALUES, 15_000, b"1.5\r2.5")
    run = cli("grad", "x*x", "--points", path, "--csv")
    assert run.exit_code == 2
    assert run.stderr == "gradcli: error: --points: line 15002: '1.5\\r2.5' is not a number\n"
    assert run.stdout.splitlines() == ["value,grad_x", *_csv_rows(VALUES[:15_000])]


def test_a_lone_carriage_return_deep_in_a_file_is_skipped_and_later_lines_keep_their_numbers(tmp_path):
    path = _file_with(tmp_path, VALUES, 15_000, b"1.5\r2.5")
    run = cli("grad", "x*x", "--points", path, "--json", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    assert "skipped line 15002: '1.5\\r2.5' is not a number" in run.stderr
    lines = [int(line.split(",", 1)[0].removeprefix('{"line": ')) for line in run.stdout.splitlines()]
    assert lines == [*range(2, 15_002), *range(15_003, 20_003)]


def _block_starting_with(tmp_path, line: bytes, name: str = "points.csv", header: bytes = b"x\n",
                         point: bytes = b"1.25\n") -> tuple[str, int]:
    """A file whose first read (lines.PIECE bytes, read line by line) ends at a line's end, so that
    the block read at once after it starts with `line`; and that line's number."""
    from gradcli.inputs.lines import PIECE

    body = header + point * ((PIECE - len(header)) // len(point) - 1)
    body += b" " * (PIECE - len(body) - len(point)) + point  # padded to end at PIECE exactly
    assert len(body) == PIECE and body.endswith(b"\n")
    path = tmp_path / name
    path.write_bytes(body + line + b"\n" + point * 10)
    return str(path), body.count(b"\n") + 1


def test_a_byte_order_mark_at_the_start_of_a_block_deep_in_a_file_is_no_number(tmp_path):
    # Only the file's first bytes may be a BOM; pyarrow drops one at the start of any buffer it reads
    path, line = _block_starting_with(tmp_path, b"\xef\xbb\xbf1.5")
    run = cli("grad", "x*x", "--points", path, "--csv")
    assert run.exit_code == 2
    assert run.stderr == f"gradcli: error: --points: line {line}: '\\ufeff1.5' is not a number\n"
    assert run.stdout.splitlines() == ["value,grad_x", *_csv_rows([1.25] * (line - 2))]


def test_json_lines_of_a_scalar_jvp_warn_where_a_number_is_not_finite(tmp_path):
    # the document ends with a bare number (the jvp of one scalar output): the warning goes after it
    import json
    import math

    values = [1.5, math.nan, -2.0, math.inf, 0.0]
    path = tmp_path / "points.csv"
    path.write_text("x\n" + "".join(f"{v!r}\n" for v in values))
    expected = []
    for line, x in enumerate(values, start=2):
        value, jvp = x * x, 2 * x
        document: dict[str, object] = {"line": line, "row": line - 1, "at": {"x": x if math.isfinite(x) else None},
                                       "value": value if math.isfinite(value) else None,
                                       "jvp": jvp if math.isfinite(jvp) else None}
        said = [f"the {what} is not finite ({'NaN' if math.isnan(v) else '+inf' if v > 0 else '-inf'})"
                for what, v in (("input 'x'", x), ("value of 'out'", value), ("jvp of 'out'", jvp)) if not math.isfinite(v)]
        if said:
            document["warnings"] = said
        expected.append(json.dumps(document))
    for points in (str(path), "-"):
        run = cli("jvp", "x*x", "--tangent", "x=1", "--json", "--points", points, stdin=path.read_text())
        assert run.exit_code == 0, run.stderr
        assert run.stdout.splitlines() == expected


def _blank_line_ending_a_block(tmp_path) -> tuple[str, int, int]:
    """A file read in reads of lines.PIECE bytes whose second read ends with a blank line (the last
    line of the block it gives), more points after it; the blank line's number and the points' count."""
    from gradcli.inputs.lines import PIECE

    point = b"1.25\n"
    first = b"x\n" + point * ((PIECE - 2) // len(point) - 1)
    first += b" " * (PIECE - len(first) - len(point)) + point  # ends at PIECE exactly, at a line's end
    second = point * ((PIECE - 1) // len(point) - 1)
    second += b" " * (PIECE - 1 - len(second) - len(point)) + point + b"\n"  # ends at 2 * PIECE with a blank line
    assert len(first) == len(second) == PIECE
    path = tmp_path / "points.csv"
    path.write_bytes(first + second + point * 100)
    blank = (first + second).count(b"\n")
    return str(path), blank, blank - 2 + 100


def test_a_blank_line_ending_a_block_deep_in_a_file_is_a_bad_line(tmp_path, monkeypatch):
    import gradcli.inputs.lines as lines

    monkeypatch.setattr(lines, "FILE_BLOCK", lines.PIECE)  # a block a read: the boundary falls after the blank line
    path, blank, _ = _blank_line_ending_a_block(tmp_path)
    run = cli("grad", "x*x", "--points", path, "--csv")
    assert run.exit_code == 2
    assert run.stderr == f"gradcli: error: --points: line {blank}: a blank line is not a point\n"
    assert run.stdout.splitlines() == ["value,grad_x", *_csv_rows([1.25] * (blank - 2))]


def test_a_blank_line_ending_a_block_is_skipped_and_later_lines_keep_their_numbers(tmp_path, monkeypatch):
    import gradcli.inputs.lines as lines

    monkeypatch.setattr(lines, "FILE_BLOCK", lines.PIECE)
    path, blank, count = _blank_line_ending_a_block(tmp_path)
    run = cli("grad", "x*x", "--points", path, "--json", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    assert f"skipped line {blank}: a blank line is not a point" in run.stderr
    numbers = [int(line.split(",", 1)[0].removeprefix('{"line": ')) for line in run.stdout.splitlines()]
    assert numbers == [*range(2, blank), *range(blank + 1, count + 3)]


def test_a_byte_order_mark_at_the_start_of_a_json_block_deep_in_a_file_is_not_json(tmp_path):
    # pyarrow's JSON reader drops a BOM at the start of a buffer, as its CSV reader does; json does not
    path, line = _block_starting_with(tmp_path, b'\xef\xbb\xbf{"x": 1.5}', "points.jsonl", b"", b'{"x": 1.25}\n')
    run = cli("grad", "x*x", "--points", path, "--csv")
    assert run.exit_code == 2
    assert f"line {line}: not JSON" in run.stderr, run.stderr
    assert run.stdout.splitlines() == ["value,grad_x", *_csv_rows([1.25] * (line - 1))]
