"""--mark-bad: a row of output for each bad line, where it was, so the output lines up one to one
with the input (issue 25). Expected values are the derivative of x*x worked out by hand (2x)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.helpers import cli

# ids a..f; lines 3 and 6 (rows b and e) are bad
CSV = "id,x\na,1\nb,oops\nc,3\nd,-2\ne,\nf,0.5\n"
GOOD = {"a": 1.0, "c": 3.0, "d": -2.0, "f": 0.5}
BAD = {"b": "'oops' is not a number", "e": "'' is not a number"}


def _check_rows(rows: list[dict[str, str]]) -> None:
    assert [row["id"] for row in rows] == list("abcdef")
    for row in rows:
        if row["id"] in GOOD:
            x = GOOD[row["id"]]
            assert (row["error"], float(row["value"]), float(row["grad_x"])) == ("", x * x, 2 * x)
        else:
            assert (row["error"], row["value"], row["grad_x"]) == (BAD[row["id"]], "", "")


@pytest.mark.parametrize("chunk", ["1", "2", "65536"])
@pytest.mark.parametrize("from_stdin", [False, True])
def test_csv_has_a_row_for_each_input_row_in_order(tmp_path, chunk, from_stdin):
    path = tmp_path / "points.csv"
    path.write_text(CSV)
    source = "-" if from_stdin else str(path)
    run = cli("grad", "x*x", "--points", source, "--csv", "--mark-bad", "--chunk-size", chunk, stdin=CSV)
    assert run.exit_code == 0, run.stderr
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert list(rows[0]) == ["id", "error", "value", "grad_x"]
    _check_rows(rows)
    assert "2 bad lines skipped: 3, 6" in run.stderr  # still named on stderr


@pytest.mark.parametrize("chunk", ["1", "65536"])
def test_json_lines_bad_lines_say_line_row_their_columns_and_error(chunk):
    run = cli("grad", "x*x", "--points", "-", "--json", "--mark-bad", "--chunk-size", chunk, stdin=CSV)
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(d["line"], d["row"], d["id"]) for d in documents] == [(i + 2, i + 1, name) for i, name in enumerate("abcdef")]
    for document in documents:
        if document["id"] in BAD:
            assert document == {"line": document["line"], "row": document["row"], "id": document["id"],
                                "error": BAD[document["id"]]}
        else:
            assert document["grad"] == {"x": 2 * GOOD[document["id"]]} and "error" not in document


def test_bad_lines_before_the_first_point_come_after_the_header():
    run = cli("grad", "x*x", "--points", "-", "--csv", "--mark-bad", "--row-id", stdin="x\nno\nnope\n4\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["row,error,value,grad_x", "1,'no' is not a number,,",
                                       "2,'nope' is not a number,,", "3,,16.0,8.0"]
    table = cli("grad", "x*x", "--points", "-", "--mark-bad", stdin="x\nno\n4\n")
    lines = table.stdout.splitlines()
    assert "row" in lines[0] and "error: 'no' is not a number" in lines[2] and lines[3].split()[:3] == ["2", "│", "16"]


def test_a_file_of_bad_lines_only_is_still_a_row_each():
    run = cli("grad", "x*x", "--points", "-", "--csv", "--mark-bad", stdin="x\nno\nnope\n")
    assert run.exit_code == 0, run.stderr
    # the header's shapes are known (the CSV header gives them): the results' columns are there, empty
    assert run.stdout.splitlines() == ["error,value,grad_x", "'no' is not a number,,", "'nope' is not a number,,"]
    lines = cli("grad", "x*x", "--points", "-", "--csv", "--mark-bad", stdin='{"x": "no"}\n')
    assert lines.exit_code == 0, lines.stderr  # JSON Lines: no shape is known, only the error column
    assert lines.stdout.splitlines() == ["error", "the value of 'x' is not a number or a list of numbers: it is a string"]


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_tables_get_null_results_and_the_error(tmp_path, suffix):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    points = tmp_path / "points.csv"
    points.write_text(CSV)
    out = tmp_path / f"out{suffix}"
    run = cli("grad", "x*x", "--points", str(points), "--mark-bad", "--row-id", "--output", str(out))
    assert run.exit_code == 0, run.stderr
    table = pq.read_table(out) if suffix == ".parquet" else ipc.open_file(pa.memory_map(str(out))).read_all()
    assert table.column_names == ["row", "id", "error", "value", "grad_x"]
    data = table.to_pydict()
    assert data["row"] == [1, 2, 3, 4, 5, 6] and data["id"] == list("abcdef")
    assert data["error"] == [None, BAD["b"], None, None, BAD["e"], None]
    assert data["grad_x"] == [2.0, None, 6.0, -4.0, None, 1.0]


def test_bad_rows_of_a_table_keep_their_own_columns(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "points.parquet"
    pq.write_table(pa.table({"id": [10, 11, 12], "x": [1.0, None, 3.0]}), path)
    run = cli("grad", "x*x", "--points", str(path), "--json", "--mark-bad")
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert documents[1] == {"line": 2, "row": 2, "id": 11, "error": "column 'x' is null"}
    assert [d["id"] for d in documents] == [10, 11, 12]


def test_mark_bad_needs_points():
    run = cli("grad", "x*x", "--at", "x=1", "--mark-bad")
    assert run.exit_code == 2 and run.stdout == ""
    assert "--mark-bad" in run.stderr


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_bad_lines_before_the_first_point_are_the_first_rows_of_a_table(tmp_path, suffix):
    # a table's columns are known from the first results: the bad lines before them wait, then come first
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    points = tmp_path / "points.csv"
    points.write_text("id,x\na,oops\nb,\nc,3\n")
    out = tmp_path / f"out{suffix}"
    run = cli("grad", "x*x", "--points", str(points), "--mark-bad", "--row-id", "--output", str(out),
              "--chunk-size", "1")
    assert run.exit_code == 0, run.stderr
    table = pq.read_table(out) if suffix == ".parquet" else ipc.open_file(pa.memory_map(str(out))).read_all()
    assert table.column_names == ["row", "id", "error", "value", "grad_x"]
    data = table.to_pydict()
    assert data["row"] == [1, 2, 3] and data["id"] == ["a", "b", "c"]
    assert data["error"] == ["'oops' is not a number", "'' is not a number", None]
    assert data["grad_x"] == [None, None, 6.0]


def test_a_column_carried_into_parquet_keeps_the_type_of_its_first_chunk(tmp_path):
    # later chunks' values are cast to it; a bad line's value that does not fit it is null
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    points = tmp_path / "points.jsonl"
    points.write_text('{"id": 1, "flag": true, "x": 1}\n{"id": 2.0, "flag": null, "x": 2}\n'
                      '{"id": "oops", "flag": false, "x": "bad"}\n')
    out = tmp_path / "out.parquet"
    run = cli("grad", "x*x", "--points", str(points), "--mark-bad", "--output", str(out), "--chunk-size", "1")
    assert run.exit_code == 0, run.stderr
    table = pq.read_table(out)
    assert [str(field.type) for field in table.schema][:2] == ["int64", "bool"]
    data = table.to_pydict()
    assert data["id"] == [1, 2, None] and data["flag"] == [True, None, False]
    assert data["grad_x"] == [2.0, 4.0, None]
    assert data["error"][:2] == [None, None] and "'x'" in data["error"][2]


@pytest.mark.parametrize("skip", ["--skip-bad", "--mark-bad"])
def test_a_bad_row_beside_view_columns_as_polars_writes_them(tmp_path, skip):
    # polars writes its text as string_view (and bytes as binary_view) in an Arrow file: the good rows'
    # columns carried through are read where a row is left out (was exit 4: no 'take' of string_view)
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc

    path = tmp_path / "points.arrow"
    table = pa.table({"id": pa.array(["a", "b", "c"], pa.string_view()),
                      "tag": pa.array([b"p", b"q", b"r"], pa.binary_view()), "x": [1.0, None, 3.0]})
    with ipc.new_file(str(path), table.schema) as writer:
        writer.write_table(table)
    run = cli("grad", "x*x", "--points", str(path), "--json", skip)
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    good = [d for d in documents if "error" not in d]
    assert [(d["row"], d["id"], d["tag"], d["grad"]["x"]) for d in good] == [(1, "a", "p", 2.0), (3, "c", "r", 6.0)]
    assert [d["id"] for d in documents] == (["a", "b", "c"] if skip == "--mark-bad" else ["a", "c"])


@pytest.mark.parametrize("flags", [[], ["--mark-bad"]])
def test_a_categorical_column_is_carried_into_an_arrow_file_as_its_values(tmp_path, flags):
    # polars gives each Parquet row group its own dictionary of a categorical, and a bad line's row is
    # made apart from the file's: an Arrow file holds one dictionary a column, so the values are written
    # (was exit 5 after all the work: 'Dictionary replacement detected')
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    path = tmp_path / "points.parquet"
    with pq.ParquetWriter(str(path), pa.schema([("x", pa.float64()), ("k", pa.dictionary(pa.uint32(), pa.string()))])) as w:
        for xs, ks in (([1.0, None], ["a", "b"]), ([3.0, 4.0], ["c", "d"])):
            w.write_table(pa.table({"x": pa.array(xs), "k": pa.array(ks).dictionary_encode().cast(
                pa.dictionary(pa.uint32(), pa.string()))}))
    for out in (tmp_path / "out.arrow", tmp_path / "out.parquet"):
        run = cli("grad", "x*x", "--points", str(path), "--output", str(out), "--skip-bad", *flags, "--chunk-size", "1")
        assert run.exit_code == 0, run.stderr
        table = ipc.open_file(pa.memory_map(str(out))).read_all() if out.suffix == ".arrow" else pq.read_table(out)
        data = table.to_pydict()
        assert data["k"] == (["a", "b", "c", "d"] if flags else ["a", "c", "d"])
        assert data["grad_x"] == ([2.0, None, 6.0, 8.0] if flags else [2.0, 6.0, 8.0])


def test_a_categorical_of_string_views_is_read(tmp_path):
    # polars' categorical in an Arrow file: a dictionary of string_view (was exit 4)
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc

    path = tmp_path / "points.arrow"
    table = pa.table({"k": pa.array(["u", "v", "u"], pa.string_view()).dictionary_encode(), "x": [1.0, None, 3.0],
                      "v": pa.array(["0.5", "1", "2"], pa.string_view()).dictionary_encode()})
    with ipc.new_file(str(path), table.schema) as writer:
        writer.write_table(table)
    run = cli("grad", "x*v", "--points", str(path), "--csv", "--mark-bad")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["k,error,value,grad_x,grad_v", "u,,0.5,0.5,1.0", "v,column 'x' is null,,,",
                                       "u,,6.0,2.0,3.0"]
