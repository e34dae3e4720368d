"""A CSV record over several lines (issue 25): a quoted cell holding a line break, as pandas, spreadsheets and
RFC 4180 write one, is one record, read whole in every path (a pipe, a file's blocks read at once, chunks of any
size, --skip-bad, --mark-bad) and carried through with its line break. Rows count records (the header not
counted); `line` is the line where a record starts. Python's csv module is the reference of what a record is."""

from __future__ import annotations

import csv
import io
import json
import queue
import subprocess
import sys
import threading
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradcli.errors import PointsProblem
from gradcli.inputs.points import PointsReader
from tests.helpers import cli, process

NOTES = ["two\nlines", "plain", "a, b\nc,d", 'say "hi"\nthere', "\n", "three\n\nlines", "", 'end"\n', "x\n1,2"]


def _text(notes: list[str], bad: dict[int, str] | None = None) -> str:
    """A CSV file as Python's csv module writes it (pandas quotes the same cells): id, note, x."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "note", "x"])
    for i, note in enumerate(notes):
        writer.writerow([f"r{i}", note, (bad or {}).get(i, i / 8)])
    return out.getvalue()


def _records(text: str) -> list[tuple[int, int, str, str, str]]:
    """(line where it starts, row, id, note, x) of each record after the header, as Python's csv module reads them."""
    reader = csv.reader(io.StringIO(text, newline=""))
    next(reader)
    found = []
    start = reader.line_num + 1
    for row, (ident, note, x) in enumerate(reader, start=1):
        found.append((start, row, ident, note, x))
        start = reader.line_num + 1
    return found


def _good(text: str) -> list[tuple[int, int, str, str, float]]:
    return [(line, row, ident, note, float(x)) for line, row, ident, note, x in _records(text)]


def _documents(stdout: str) -> list[tuple[int, int, str, str, float]]:
    return [(d["line"], d["row"], d["id"], d["note"], d["at"]["x"]) for d in map(json.loads, stdout.splitlines())]


@pytest.mark.parametrize("chunk", ["1", "2", "3", "65536"])
def test_a_quoted_cell_holding_line_breaks_is_one_record_as_pythons_csv_reads_it(chunk):
    text = _text(NOTES)
    run = cli("grad", "x*2", "--points", "-", "--json", "--chunk-size", chunk, stdin=text)
    assert run.exit_code == 0, run.stderr
    assert _documents(run.stdout) == _good(text)
    assert [d["value"] for d in map(json.loads, run.stdout.splitlines())] == [2 * i / 8 for i in range(len(NOTES))]


def test_the_data_tools_read_those_records_as_pythons_csv_does():
    text = _text(NOTES)
    pl = pytest.importorskip("polars")
    frame = pl.read_csv(io.StringIO(text))
    assert frame["note"].fill_null("").to_list() == [note for _, _, _, note, _ in _records(text)]
    pd = pytest.importorskip("pandas")
    assert pd.read_csv(io.StringIO(text), keep_default_na=False)["note"].to_list() == NOTES


@pytest.mark.parametrize("chunk", ["1", "65536"])  # (a chunk of one cell with a line break and no comma, too)
def test_csv_output_quotes_the_line_breaks_again_and_reads_back_as_the_same_records(chunk):
    text = _text(NOTES)
    run = cli("grad", "x*2", "--points", "-", "--csv", "--row-id", "--chunk-size", chunk, stdin=text)
    assert run.exit_code == 0, run.stderr
    written = list(csv.DictReader(io.StringIO(run.stdout, newline="")))
    assert [(int(r["row"]), r["id"], r["note"]) for r in written] == [(row, i, n) for _, row, i, n, _ in _records(text)]
    assert [float(r["value"]) for r in written] == [2 * i / 8 for i in range(len(NOTES))]


def test_parquet_output_holds_the_text_with_its_line_breaks(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    text = _text(NOTES)
    out = tmp_path / "out.parquet"
    run = cli("grad", "x*2", "--points", "-", "--output", str(out), "--row-id", stdin=text)
    assert run.exit_code == 0, run.stderr
    table = pq.read_table(out).to_pydict()
    assert table["note"] == NOTES and table["row"] == list(range(1, len(NOTES) + 1))


def test_from_a_pipe_a_record_is_read_whole_however_its_lines_come():
    command = [sys.executable, "-m", "gradcli", "grad", "x*2", "--points", "-", "--json"]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in child.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        child.stdin.write(b'id,note,x\na,plain,1\nb,"two\n')
        child.stdin.flush()
        first = json.loads(lines.get(timeout=60))  # answered before the record's end has come
        assert (first["line"], first["row"], first["note"]) == (2, 1, "plain")
        child.stdin.write(b'3,lines",2\nc,"x\n\ny",3\nd,z,4\n')
        child.stdin.flush()
        child.stdin.close()
        assert child.wait(timeout=60) == 0, child.stderr.read()
        rest = [json.loads(lines.get(timeout=60)) for _ in range(3)]
    finally:
        if child.poll() is None:
            child.kill()
    assert [(d["line"], d["row"], d["id"], d["note"], d["value"]) for d in rest] == [
        (3, 2, "b", "two\n3,lines", 4.0), (5, 3, "c", "x\n\ny", 6.0), (8, 4, "d", "z", 8.0)]


def test_a_process_reading_a_pipe_reads_the_records_as_pythons_csv_does():
    text = _text(NOTES * 3)
    run = process("grad", "x*2", "--points", "-", "--json", stdin=text)
    assert run.exit_code == 0, run.stderr
    assert _documents(run.stdout) == _good(text)


def _big(count: int, over: Any) -> str:
    """`count` records, those in `over` with a note over lines that look like points (never taken for one)."""
    notes = [f"n{i}\n{i % 5},{i}\n" + "\n" * (i % 3) if i in over else f"n{i}" for i in range(count)]
    return _text(notes)


def test_records_over_lines_deep_in_a_big_file_are_read_whole_and_rows_count_records(tmp_path, monkeypatch):
    # Past the first 64 KB, blocks of lines (1 MB, growing to 8 MB) go to the compiled helper: a block holding a record
    # over lines is read line by line, and the blocks after it (their rows numbered on by records) go to it again.
    from gradcli.inputs.csv import Csv

    asked: list[int] = []
    exact = Csv.row
    monkeypatch.setattr(Csv, "row", lambda self, text, line: asked.append(1) or exact(self, text, line))
    text = _big(300_000, {0, 20_000, 20_001, 20_005})
    path = tmp_path / "points.csv"
    path.write_text(text)
    run = cli("grad", "x*2", "--points", str(path), "--json", "--drop-extra")
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    expected = _good(text)
    assert [(d["line"], d["row"], d["at"]["x"]) for d in documents] == [(line, row, x) for line, row, _, _, x in expected]
    assert len(asked) < 100_000  # the 255,000 lines after the first megabyte read at once


def test_a_record_over_lines_in_a_file_is_carried_through_whole(tmp_path):
    text = _big(40_000, range(0, 40_000, 997))
    path = tmp_path / "points.csv"
    path.write_text(text)
    run = cli("grad", "x*2", "--points", str(path), "--json", "--chunk-size", "1000")
    assert run.exit_code == 0, run.stderr
    assert _documents(run.stdout) == _good(text)


_RAW = st.text(alphabet='a,"\n ', max_size=8)  # a cell's text as it may stand in a file: quotes anywhere, line breaks
_CELL = st.one_of(_RAW, _RAW.map(lambda text: '"' + text.replace('"', '""') + '"'))  # ... or quoted as writers do


@settings(max_examples=80, deadline=None)
@given(st.lists(_CELL, min_size=1, max_size=6), st.sampled_from(["1", "2", "65536"]))
def test_records_start_where_pythons_csv_starts_them_whatever_the_quotes(cells, chunk):
    # --mark-bad writes every record once, good or bad: its line and row are where Python's csv module (not strict)
    # starts a record, and a good one's cells are the module's
    text = "id,note,x\n" + "".join(f"r{i},{cell},{i}\n" for i, cell in enumerate(cells))
    reader = csv.reader(io.StringIO(text, newline=""))
    next(reader)
    starts, start = [], reader.line_num + 1
    for row, record in enumerate(reader, start=1):
        starts.append((start, row, record))
        start = reader.line_num + 1
    while starts and not starts[-1][2]:  # (blank lines at the very end are no points for gradcli)
        starts.pop()
    run = cli("grad", "x*2", "--points", "-", "--json", "--mark-bad", "--chunk-size", chunk, stdin=text)
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(d["line"], d["row"]) for d in documents] == [(line, row) for line, row, _ in starts]
    for d, (_, _, record) in zip(documents, starts, strict=True):
        if "error" not in d:
            assert [d["id"], d["note"], d["at"]["x"]] == [record[0], record[1], float(record[2])]


# --- bad records ---------------------------------------------------------------------------


def test_a_bad_record_over_lines_is_named_by_its_first_line_and_the_rows_after_it_count_records():
    text = _text(NOTES, bad={3: "oops"})
    records = _records(text)
    line = records[3][0]
    stopped = cli("grad", "x*2", "--points", "-", "--json", stdin=text)
    assert stopped.exit_code == 2
    assert stopped.stderr == f"gradcli: error: --points: line {line}: 'oops' is not a number\n"
    assert _documents(stopped.stdout) == _good(_text(NOTES[:3]))
    skipped = cli("grad", "x*2", "--points", "-", "--json", "--skip-bad", stdin=text)
    assert skipped.exit_code == 0, skipped.stderr
    assert f"skipped line {line}: 'oops' is not a number" in skipped.stderr
    assert _documents(skipped.stdout) == [(ln, row, i, n, float(x)) for ln, row, i, n, x in records if x != "oops"]
    marked = cli("grad", "x*2", "--points", "-", "--json", "--mark-bad", stdin=text)
    assert marked.exit_code == 0, marked.stderr
    documents = [json.loads(one) for one in marked.stdout.splitlines()]
    assert documents[3] == {"line": line, "row": 4, "id": "r3", "note": NOTES[3], "error": "'oops' is not a number"}
    assert [d["row"] for d in documents] == list(range(1, len(NOTES) + 1))


def test_mark_bad_in_csv_writes_the_bad_records_cells_quoted_again():
    text = _text(NOTES, bad={5: "oops"})
    run = cli("grad", "x*2", "--points", "-", "--csv", "--mark-bad", "--row-id", stdin=text)
    assert run.exit_code == 0, run.stderr
    written = list(csv.DictReader(io.StringIO(run.stdout, newline="")))
    assert [(r["row"], r["note"], r["error"]) for r in written][5] == ("6", NOTES[5], "'oops' is not a number")
    assert [r["note"] for r in written] == NOTES


@pytest.mark.parametrize("chunk", ["1", "65536"])
def test_a_quote_that_never_closes_is_a_bad_record_at_the_line_where_it_opens(chunk):
    text = 'id,note,x\na,plain,1\nb,"two\nlines,2\nc,x,3\n'
    stopped = cli("grad", "x*2", "--points", "-", "--csv", "--chunk-size", chunk, stdin=text)
    assert stopped.exit_code == 2
    assert stopped.stderr == ("gradcli: error: --points: line 3: cell 2 opens a quote that does not close before the "
                              "end of the input\n")
    assert stopped.stdout.splitlines() == ["id,note,value,grad_x", "a,plain,2.0,2.0"]
    skipped = cli("grad", "x*2", "--points", "-", "--csv", "--skip-bad", "--chunk-size", chunk, stdin=text)
    assert skipped.exit_code == 0
    assert skipped.stdout.splitlines() == ["id,note,value,grad_x", "a,plain,2.0,2.0"]
    assert skipped.stderr.endswith("gradcli: 1 point done; 1 bad line skipped: 3\n")
    with pytest.raises(csv.Error):  # (Python's csv module: the same record, unclosed at the end)
        list(csv.reader(io.StringIO(text, newline=""), strict=True))


def test_a_quote_open_past_the_line_limit_is_a_bad_record_naming_the_limit(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_LINE", "100")
    text = "id,note,x\na,plain,1\nb,\"stray,2\n" + "".join(f"c{i},x,{i}\n" for i in range(40)) + 'end",9\ne,z,5\n'
    stopped = cli("grad", "x*2", "--points", "-", "--csv", stdin=text)
    assert stopped.exit_code == 2 and stopped.stdout.splitlines()[1:] == ["a,plain,2.0,2.0"]
    assert stopped.stderr == ("gradcli: error: --points: line 3: cell 2 opens a quote that does not close within 100 "
                              "characters (raise the limit with GRADCLI_MAX_LINE=N)\n")
    # passed over up to where the quote closes (the record every CSV reader takes), the records after it read on
    skipped = cli("grad", "x*2", "--points", "-", "--json", "--skip-bad", stdin=text)
    assert skipped.exit_code == 0, skipped.stderr
    assert _records(text)[1:] == [(3, 2, "b", text[text.index("stray"):text.index('",9')], "9"), (45, 3, "e", "z", "5")]
    assert [(d["line"], d["row"], d["value"]) for d in map(json.loads, skipped.stdout.splitlines())] == [
        (2, 1, 2.0), (45, 3, 10.0)]
    assert "skipped line 3: cell 2 opens a quote that does not close within 100 characters" in skipped.stderr


def test_a_stray_quote_is_given_up_at_the_limit_before_the_rest_is_held():
    # The quote never closes: the reader stops asking for lines once the record passes the limit (memory stays flat).
    given: list[int] = []

    def lines() -> Any:
        yield "x,note"
        yield '1,"stray'
        for i in range(10_000_000):
            given.append(i)
            yield f"{i},{'y' * 90}"

    reader = PointsReader(lines(), {"x": 0}, {})
    chunks = reader.chunks()
    with pytest.raises(PointsProblem) as raised:
        for _ in chunks:
            pass
    assert raised.value.line == 2 and "does not close within 1,000,000 characters" in str(raised.value)
    assert 10_000 <= len(given) <= 11_000  # about a million characters of 95-character lines


def test_the_readmes_example_of_a_record_over_two_lines():
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text().splitlines()
    at = readme.index("""$ printf 'id,note,x\\na,"two\\nlines",0.5\\nb,plain,1\\n' | gradcli grad "x*x" --points - --json""")
    run = cli("grad", "x*x", "--points", "-", "--json", stdin='id,note,x\na,"two\nlines",0.5\nb,plain,1\n')
    assert run.exit_code == 0 and run.stdout.splitlines() == readme[at + 1 : at + 3]


@pytest.mark.parametrize(("data", "reason"), [
    (b'id,note,x\na,"bad \xff\nmore",1\nb,ok,2\n', "line 2: not UTF-8 text (byte 0xff at column 8)"),
    (b'id,note,x\na,"two\n\xff lines",1\nb,ok,2\n', "line 2: line 3, inside cell 2: not UTF-8 text (byte 0xff at column 1)")])
def test_a_record_with_a_line_that_is_not_utf8_is_bad_whole_and_the_next_record_is_read(tmp_path, data, reason):
    path = tmp_path / "points.csv"
    path.write_bytes(data)
    stopped = cli("grad", "x*2", "--points", str(path), "--json")
    assert stopped.exit_code == 2 and stopped.stderr == f"gradcli: error: --points: {reason}\n"
    run = cli("grad", "x*2", "--points", str(path), "--json", "--skip-bad")
    assert run.exit_code == 0 and f"skipped {reason}" in run.stderr
    # the record's extent as Python's csv module reads the text with the bad byte replaced
    assert _records(data.decode("utf-8", "replace"))[1][:2] == (4, 2)
    assert [(d["line"], d["row"], d["id"]) for d in map(json.loads, run.stdout.splitlines())] == [(4, 2, "b")]
