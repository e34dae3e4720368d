"""--points from Parquet and Arrow IPC/Feather, and --output FILE in every format.

Expected numbers come from the programs' derivatives worked out by hand (x*y: value xy,
gradient (y, x); sum(z*z): 2z), never from gradcli's own output.
"""

from __future__ import annotations

import errno
import json
import math
import os

import pytest

from tests.helpers import Tables, cli, tables

pl = Tables()  # polars: a test of Parquet or Arrow skips without the data extra

XS = [0.5, -1.25, 3.0, 7.75, 1e-7, -2.5e20]
YS = [2.0, 0.1, -4.5, 1.0, 3.0, 0.25]


def _xy_rows(xs: list[float], ys: list[float]) -> list[list[float]]:
    return [[x * y, y, x] for x, y in zip(xs, ys)]


def _csv_rows(text: str) -> list[list[float]]:
    return [[float(cell) for cell in line.split(",")] for line in text.splitlines()[1:]]


def _write(frame: pl.DataFrame, path, **options) -> str:
    name = str(path)
    if name.endswith((".parquet", ".pq")) or options.pop("parquet", False):
        frame.write_parquet(name, **options)
    else:
        frame.write_ipc(name, **options)
    return name


@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ".feather", ".ipc"])
def test_scalar_columns_are_read_from_parquet_and_arrow(tmp_path, suffix):
    path = _write(pl.DataFrame({"x": XS, "y": YS}), tmp_path / f"points{suffix}")
    run = cli("grad", "x*y", "--points", path, "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[0] == "value,grad_x,grad_y"
    assert _csv_rows(run.stdout) == _xy_rows(XS, YS)


def test_integer_columns_are_numbers(tmp_path):
    path = _write(pl.DataFrame({"x": [1, 2, 3], "y": [4, 5, 6]}), tmp_path / "points.parquet")
    run = cli("grad", "x*y", "--points", path, "--csv")
    assert _csv_rows(run.stdout) == _xy_rows([1, 2, 3], [4, 5, 6])


def test_points_format_overrides_the_extension(tmp_path):
    path = _write(pl.DataFrame({"x": XS, "y": YS}), tmp_path / "points.dat", parquet=True)
    run = cli("grad", "x*y", "--points", path, "--points-format", "parquet", "--csv")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == _xy_rows(XS, YS)
    arrow = _write(pl.DataFrame({"x": XS, "y": YS}), tmp_path / "points.bin")
    assert _csv_rows(cli("grad", "x*y", "--points", arrow, "--points-format", "arrow", "--csv").stdout) == \
        _xy_rows(XS, YS)


def test_points_format_jsonl_and_csv_read_text(tmp_path):
    path = tmp_path / "points.txt"
    path.write_text('{"x": 2, "y": 3}\n')
    run = cli("grad", "x*y", "--points", str(path), "--points-format", "jsonl", "--csv")
    assert _csv_rows(run.stdout) == [[6.0, 3.0, 2.0]]
    path.write_text("x,y\n2,3\n")
    run = cli("grad", "x*y", "--points", str(path), "--points-format", "csv", "--csv")
    assert _csv_rows(run.stdout) == [[6.0, 3.0, 2.0]]
    run = cli("grad", "x*y", "--points", str(path), "--points-format", "jsonl", "--csv")
    assert run.exit_code == 2 and "line 1" in run.stderr


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_list_columns_are_vectors_and_nested_lists_matrices(tmp_path, suffix):
    zs = [[1.0, 2.0, 3.0], [-0.5, 0.0, 4.0]]
    ms = [[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]]
    path = _write(pl.DataFrame({"z": zs, "m": ms}), tmp_path / f"points{suffix}")
    run = cli("grad", "sum(z*z) + sum(m*m)", "--points", path, "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[0] == ("value,grad_z[0],grad_z[1],grad_z[2],"
                                          "grad_m[0][0],grad_m[0][1],grad_m[1][0],grad_m[1][1]")
    expected = [[sum(v * v for v in z) + sum(v * v for row in m for v in row), *(2 * v for v in z),
                 *(2 * v for row in m for v in row)] for z, m in zip(zs, ms)]
    assert _csv_rows(run.stdout) == expected


def test_element_columns_are_vectors(tmp_path):
    path = _write(pl.DataFrame({"z[0]": [1.0, 3.0], "z[1]": [2.0, -1.0]}), tmp_path / "points.parquet")
    run = cli("grad", "sum(z*z)", "--points", path, "--csv")
    assert _csv_rows(run.stdout) == [[5.0, 2.0, 4.0], [10.0, 6.0, -2.0]]


def test_at_gives_inputs_the_table_does_not(tmp_path):
    path = _write(pl.DataFrame({"x": XS}), tmp_path / "points.parquet")
    run = cli("grad", "x*y", "--points", path, "--at", "y=2", "--csv")
    assert _csv_rows(run.stdout) == _xy_rows(XS, [2.0] * len(XS))


def test_json_lines_out_name_rows(tmp_path):
    path = _write(pl.DataFrame({"x": [2.0, 3.0], "y": [5.0, 7.0]}), tmp_path / "points.parquet")
    run = cli("grad", "x*y", "--points", path, "--json")
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [d["line"] for d in documents] == [1, 2]
    assert [d["grad"] for d in documents] == [{"x": 5.0, "y": 2.0}, {"x": 7.0, "y": 3.0}]


def test_many_row_groups_and_small_chunks_keep_every_row_in_order(tmp_path):
    xs = [float(i) / 7 for i in range(1, 2_001)]
    ys = [1.0 + i % 13 for i in range(2_000)]
    path = _write(pl.DataFrame({"x": xs, "y": ys}), tmp_path / "points.parquet", row_group_size=333)
    run = cli("grad", "x*y", "--points", path, "--csv", "--chunk-size", "250")
    assert _csv_rows(run.stdout) == _xy_rows(xs, ys)


BAD_TABLES = {  # the column x of a table
    "null": ([1.0, None, 3.0, 4.0], "row 2", "'x' is null"),
    "text": (["1", "two", "3", "4"], "row 2", "'two' is not a number"),
    "ragged": ([[1.0, 2.0], [1.0], [3.0, 4.0], [5.0, 6.0]], "row 2", "1 element"),
    "null element": ([[1.0, 2.0], [1.0, None], [3.0, 4.0], [5.0, 6.0]], "row 2", "null"),
    "ragged matrix": ([[[1.0], [2.0]], [[1.0], [2.0, 3.0]], [[3.0], [4.0]], [[5.0], [6.0]]], "row 2",
                      "rows of different lengths"),
}


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
@pytest.mark.parametrize("kind", list(BAD_TABLES))
def test_a_bad_row_is_named_and_stops_the_run(tmp_path, suffix, kind):
    column, row, named = BAD_TABLES[kind]
    path = _write(tables().DataFrame({"x": column}), tmp_path / f"points{suffix}")
    run = cli("grad", "sum(x*x)", "--points", path, "--csv")
    assert run.exit_code == 2
    assert run.stderr.startswith(f"gradcli: error: --points: {row}: "), run.stderr
    assert named in run.stderr
    assert len(run.stderr.splitlines()) == 1
    assert len(_csv_rows(run.stdout)) == 1  # the row before it, nothing after


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
@pytest.mark.parametrize("kind", list(BAD_TABLES))
def test_skip_bad_passes_over_bad_rows(tmp_path, suffix, kind):
    column, row, named = BAD_TABLES[kind]
    path = _write(tables().DataFrame({"x": column}), tmp_path / f"points{suffix}")
    run = cli("grad", "sum(x*x)", "--points", path, "--json", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    assert [json.loads(line)["line"] for line in run.stdout.splitlines()] == [1, 3, 4]
    assert f"skipped {row}: " in run.stderr and named in run.stderr


def test_a_column_that_is_not_an_input_is_carried_through(tmp_path):  # it was refused before issue 25
    path = _write(pl.DataFrame({"x": [1.0], "w": [2.0]}), tmp_path / "points.parquet")
    run = cli("grad", "x*x", "--points", path, "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "w,value,grad_x\n2.0,1.0,2.0\n"


def test_a_file_that_is_not_parquet_is_refused(tmp_path):
    tables()
    path = tmp_path / "points.parquet"
    path.write_text("x\n1\n")
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2 and run.stdout == "" and "points.parquet" in run.stderr
    assert len(run.stderr.splitlines()) == 1


def test_an_empty_table_writes_what_a_header_only_csv_does(tmp_path):
    path = _write(pl.DataFrame({"x": []}, schema={"x": pl.Float64}), tmp_path / "points.parquet")
    run = cli("grad", "x*x", "--points", path, "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == cli("grad", "x*x", "--points", "-", "--csv", stdin="x\n").stdout


# --- --output FILE ------------------------------------------------------------------------


POINTS = "x,z[0],z[1]\n" + "".join(f"{x},{x + 1},{2 * x}\n" for x in (0.5, -3.0, 1e-6, 12.0))


def _expected_columns() -> dict[str, list[float]]:
    xs = [0.5, -3.0, 1e-6, 12.0]
    return {"value": [math.sin(x) * ((x + 1) + 2 * x) for x in xs], "grad_x": [math.cos(x) * ((x + 1) + 2 * x) for x in xs],
            "grad_z[0]": [math.sin(x) for x in xs], "grad_z[1]": [math.sin(x) for x in xs]}


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_output_text_is_what_stdout_gets(tmp_path, suffix):
    out = tmp_path / f"results{suffix}"
    flag = "--csv" if suffix == ".csv" else "--json"
    shown = cli("grad", "sin(x)*sum(z)", "--points", "-", flag, stdin=POINTS)
    run = cli("grad", "sin(x)*sum(z)", "--points", "-", "--output", str(out), stdin=POINTS)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == ""
    assert out.read_text() == shown.stdout
    assert os.listdir(tmp_path) == [out.name]


@pytest.mark.parametrize("suffix", [".parquet", ".arrow", ".feather"])
def test_output_tables_have_the_csv_columns(tmp_path, suffix):
    tables()
    out = tmp_path / f"results{suffix}"
    run = cli("grad", "sin(x)*sum(z)", "--points", "-", "--output", str(out), "--chunk-size", "3", stdin=POINTS)
    assert run.exit_code == 0, run.stderr
    frame = pl.read_parquet(out) if suffix == ".parquet" else pl.read_ipc(out)
    expected = _expected_columns()
    assert frame.columns == list(expected)
    assert all(dtype == pl.Float64 for dtype in frame.dtypes)
    for name, column in expected.items():
        assert frame[name].to_list() == pytest.approx(column, rel=1e-15, abs=0)
    assert os.listdir(tmp_path) == [out.name]


def test_output_table_round_trips_as_points(tmp_path):
    """Results written as Parquet read back as points (grad_z[i] columns as a vector): every bit kept."""
    tables()
    out = tmp_path / "results.parquet"
    cli("grad", "sin(x)*sum(z)", "--points", "-", "--output", str(out), stdin=POINTS)
    shown = _csv_rows(cli("grad", "sin(x)*sum(z)", "--points", "-", "--csv", stdin=POINTS).stdout)
    again = cli("grad", "value + 0*grad_x + 0*sum(grad_z)", "--points", str(out), "--csv")
    assert again.exit_code == 0, again.stderr
    assert [row[0] for row in _csv_rows(again.stdout)] == [row[0] for row in shown]


def test_output_of_a_failed_run_leaves_no_file(tmp_path):
    out = tmp_path / "results.parquet"
    run = cli("grad", "x*x", "--points", "-", "--output", str(out), stdin="x\n1\nfoo\n3\n")
    assert run.exit_code == 2
    assert os.listdir(tmp_path) == []


def test_output_keeps_an_older_file_when_the_run_fails(tmp_path):
    out = tmp_path / "results.csv"
    out.write_text("before\n")
    run = cli("grad", "x*x", "--points", "-", "--output", str(out), stdin="x\n1\nfoo\n")
    assert run.exit_code == 2
    assert out.read_text() == "before\n"
    assert os.listdir(tmp_path) == [out.name]


def test_output_with_an_unknown_extension_is_refused(tmp_path):
    run = cli("grad", "x*x", "--points", "-", "--output", str(tmp_path / "results.xlsx"), stdin="x\n1\n")
    assert run.exit_code == 2 and "results.xlsx" in run.stderr and ".parquet" in run.stderr
    assert os.listdir(tmp_path) == []


def test_output_needs_points(tmp_path):
    run = cli("grad", "x*x", "--at", "x=1", "--output", str(tmp_path / "r.csv"))
    assert run.exit_code == 2 and "--points" in run.stderr


def test_output_on_a_full_disk_is_exit_5(tmp_path, monkeypatch):
    import builtins

    real_open = builtins.open

    class Full:
        def __init__(self, file):
            self.file = file

        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(self.file, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

    def full_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return Full(handle) if str(file).endswith(".partial") else handle

    monkeypatch.setattr(builtins, "open", full_open)
    out = tmp_path / "results.csv"
    run = cli("grad", "x*x", "--points", "-", "--output", str(out), stdin="x\n1\n2\n")
    assert run.exit_code == 5
    assert "No space left on device" in run.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["results.csv", "results.parquet"])
def test_output_into_a_missing_directory_is_bad_input(tmp_path, name):
    # the user named a place that is not there: exit 2 before any point is computed, as a bad --at is
    run = cli("grad", "x*x", "--points", "-", "--output", str(tmp_path / "nowhere" / name), stdin="x\n1\n")
    assert run.exit_code == 2, run.stderr
    assert "--output" in run.stderr and "nowhere" in run.stderr
    assert run.stdout == ""
    assert os.listdir(tmp_path) == []


def test_skipped_rows_of_a_table_are_called_rows(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "points.parquet"
    pq.write_table(pa.table({"x": ["1", "foo", "3"]}), path)
    run = cli("grad", "x*x", "--points", str(path), "--csv", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    assert "1 bad row skipped" in run.stderr and "line" not in run.stderr.splitlines()[-1]


# --- one engine (issue 25): pyarrow reads and writes the tables, and what it cannot read is exit 2 ----------------


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_a_column_name_given_twice_is_refused_naming_the_file(tmp_path, suffix):
    # polars panicked on such an Arrow file: only the header reached stdout, "0 points done", exit 0
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    table = pa.Table.from_arrays([pa.array([1.0, 2.0]), pa.array([3.0, 4.0])], names=["x", "x"])
    path = tmp_path / f"points{suffix}"
    if suffix == ".parquet":
        pq.write_table(table, path)
    else:
        with ipc.new_file(path, table.schema) as writer:
            writer.write_table(table)
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 2 and run.stdout == ""
    assert str(path) in run.stderr and "'x'" in run.stderr and "twice" in run.stderr


def test_a_corrupted_arrow_file_is_exit_2_or_every_row(tmp_path):
    # one byte changed anywhere: either pyarrow cannot read the file (exit 2, nothing written) or every
    # row is answered; never rows lost with exit 0, never an internal error
    import random

    import numpy as np
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc

    count = 2_000
    table = pa.table({"x1": np.linspace(0.1, 2.0, count), "x2": np.linspace(0.2, 3.0, count)})
    good = tmp_path / "good.arrow"
    with ipc.new_file(good, table.schema) as writer:
        for batch in table.to_batches(max_chunksize=500):
            writer.write_batch(batch)
    data = good.read_bytes()
    chooser = random.Random(25)
    for _ in range(40):
        changed = bytearray(data)
        place = chooser.randrange(len(changed))
        changed[place] = (changed[place] + chooser.randrange(1, 256)) % 256
        path = tmp_path / "changed.arrow"
        path.write_bytes(bytes(changed))
        run = cli("grad", "log(x1*x2)*sin(x2)", "--points", str(path), "--csv")
        rows = run.stdout.count("\n")
        assert (run.exit_code == 2 and run.stdout == "") or (run.exit_code == 0 and rows == count + 1), \
            (place, run.exit_code, rows, run.stderr[-200:])


def test_a_text_cell_is_read_as_a_csv_cell_is(tmp_path):
    # `1e400` is past float64's range in CSV; it was read as inf from a Parquet text cell
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "points.parquet"
    pq.write_table(pa.table({"x": [" 1.5", "1e400", "inf"]}), path)
    run = cli("grad", "x*2", "--points", str(path), "--csv", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == [[3.0, 2.0], [math.inf, 2.0]]
    assert "row 2" in run.stderr and "past the range of float64" in run.stderr


def test_an_arrow_stream_file_is_read(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc

    table = pa.table({"x": XS, "y": YS})
    path = tmp_path / "points.arrow"
    with ipc.new_stream(path, table.schema) as writer:
        writer.write_table(table)
    run = cli("grad", "x*y", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == _xy_rows(XS, YS)


@pytest.mark.parametrize(("name", "kind"), [("points.arrows", "stream"), ("points.arrows", "file"), ("points.dat", "parquet"),
                                          ("points", "parquet"), ("points.dat", "file"), ("points", "stream")])
def test_a_table_file_whose_name_says_nothing_is_read_by_its_first_bytes(tmp_path, name, kind):
    # `.arrows` is the Arrow stream format's own extension; a file of another name is told by its magic bytes
    # (it was read as CSV: 'line 1: not UTF-8 text'), where it is a whole file (a pipe's bytes are not peeked at)
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    table = pa.table({"id": ["a", "b", "c", "d", "e", "f"], "x": XS, "y": YS})
    path = tmp_path / name
    if kind == "parquet":
        pq.write_table(table, path)
    else:
        with (ipc.new_file if kind == "file" else ipc.new_stream)(path, table.schema) as writer:
            writer.write_table(table)
    run = cli("grad", "x*y", "--points", str(path), "--csv", "--drop-extra")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == _xy_rows(XS, YS)


def test_a_text_file_is_not_taken_for_a_table_by_its_first_bytes(tmp_path):
    path = tmp_path / "points.txt"
    path.write_text("PAR1,x\n1,2\n")  # a CSV header can start as a Parquet file does: its last bytes differ
    run = cli("grad", "x*PAR1", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "value,grad_x,grad_PAR1\n2.0,1.0,2.0\n"


def test_dictionary_encoded_and_integer_columns_are_numbers(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "points.parquet"
    pq.write_table(pa.table({"x": pa.array(["0.5", "2", "0.5"]).dictionary_encode(),
                             "y": pa.array([2, -3, 2**53 + 1], pa.int64())}), path)
    run = cli("grad", "x*y", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    assert _csv_rows(run.stdout) == [[1.0, 2.0, 0.5], [-6.0, -3.0, 2.0], [0.5 * 2.0**53, float(2**53), 0.5]]


@pytest.mark.parametrize("count", [0, 1, 3, 20_000])
def test_output_json_is_one_json_array_of_what_json_lines_writes(tmp_path, count):
    # --output x.json wrote JSON Lines under a name that promises one JSON document (issue 25)
    points = tmp_path / "points.csv"
    points.write_text("x,y\n" + "".join(f"{i * 0.5},{1 - i}\n" for i in range(count)))
    lines_out, array_out = tmp_path / "out.jsonl", tmp_path / "out.json"
    for out in (lines_out, array_out):
        run = cli("grad", "x*y", "--points", str(points), "--output", str(out))
        assert run.exit_code == 0, run.stderr
    document = json.loads(array_out.read_text())
    assert isinstance(document, list)
    assert document == [json.loads(line) for line in lines_out.read_text().splitlines()]
    assert len(document) == count
    if count:
        assert document[-1]["value"] == (count - 1) * 0.5 * (2 - count)


def _damaged_text_table(tmp_path, suffix: str):
    """A table of x and a text column `tag` whose last row's text is not UTF-8 (one byte changed in the file)."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    count = 2_000
    table = pa.table({"x": [i / 8 for i in range(count)], "tag": [f"t{i:05d}" for i in range(count - 1)] + ["zz\u00e9"]})
    path = tmp_path / f"points{suffix}"
    if suffix == ".parquet":
        pq.write_table(table, path, compression="none", use_dictionary=False, write_statistics=False,
                       row_group_size=500)
    else:
        with ipc.new_stream(path, table.schema) as writer:  # the stream format: batches one after the other
            for batch in table.to_batches(max_chunksize=500):
                writer.write_batch(batch)
    data = path.read_bytes()
    assert data.count("zz\u00e9".encode()) == 1
    path.write_bytes(data.replace("zz\u00e9".encode(), b"zz\xc3\x28"))
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_a_text_column_that_is_not_utf8_is_a_damaged_file_not_an_internal_error(tmp_path, suffix):
    path = _damaged_text_table(tmp_path, suffix)
    run = cli("grad", "x*x", "--points", str(path), "--json")
    assert run.exit_code == 2, run.stderr
    assert run.stderr.startswith("gradcli: error: --points: cannot read ") and str(path) in run.stderr
    assert "UTF8" in run.stderr and len(run.stderr.splitlines()) == 1
    if suffix == ".arrow":  # an Arrow file's batches are all checked before the first point: nothing written
        assert run.stdout == ""
