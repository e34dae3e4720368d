"""Real data files (issue 25): columns that are no input are carried through, every output row
says which input row it answers (the same numbering in every format, with --skip-bad too), the
program from stdin (`grad -`), and constant expressions in --at."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from tests.helpers import cli, tables

CSV = "id,x1,label,x2\na,0.5,p,0.75\nb,1,q,2\n"
F = "log(x1*x2)*sin(x2)"


def _f(x1: float, x2: float) -> float:
    return math.log(x1 * x2) * math.sin(x2)


def _write(frame, path) -> str:
    name = str(path)
    frame.write_parquet(name) if name.endswith(".parquet") else frame.write_ipc(name)
    return name


# --- columns that are no input --------------------------------------------------------------------


def test_csv_extra_columns_lead_the_csv_output_in_their_input_order():
    run = cli("grad", F, "--points", "-", "--csv", stdin=CSV)
    assert run.exit_code == 0, run.stderr
    header, *rows = run.stdout.splitlines()
    assert header == "id,label,value,grad_x1,grad_x2"
    assert [row.split(",")[:3] for row in rows] == [["a", "p", repr(_f(0.5, 0.75))], ["b", "q", repr(_f(1, 2))]]


def test_drop_extra_leaves_them_out():
    run = cli("grad", F, "--points", "-", "--csv", "--drop-extra", stdin=CSV)
    plain = cli("grad", F, "--points", "-", "--csv", stdin="x1,x2\n0.5,0.75\n1,2\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == plain.stdout
    documents = [json.loads(line) for line in
                 cli("grad", F, "--points", "-", "--json", "--drop-extra", stdin=CSV).stdout.splitlines()]
    assert [sorted(d) for d in documents] == [["at", "grad", "line", "row", "value"]] * 2


JSONL = '{"id": "a", "x1": 0.5, "label": "p", "x2": 0.75, "w": 1}\n{"id": "b", "x1": 1, "x2": 2, "label": "q", "w": 2}\n'


@pytest.mark.parametrize(("source", "text"), [("csv", CSV), ("jsonl", JSONL)])
def test_keep_carries_the_columns_named_and_no_others(source, text):
    run = cli("grad", F, "--points", "-", "--csv", "--keep", "label", stdin=text)
    assert run.exit_code == 0, run.stderr
    header, *rows = run.stdout.splitlines()
    assert header == "label,value,grad_x1,grad_x2"
    assert [row.split(",")[:2] for row in rows] == [["p", repr(_f(0.5, 0.75))], ["q", repr(_f(1, 2))]]
    documents = [json.loads(line) for line in
                 cli("grad", F, "--points", "-", "--json", "--keep", "label,id", stdin=text).stdout.splitlines()]
    assert [(d["id"], d["label"]) for d in documents] == [("a", "p"), ("b", "q")]
    assert all("w" not in d for d in documents)


def test_keep_in_a_big_json_lines_file_read_in_blocks_keeps_the_same_columns(tmp_path):
    lines = [json.dumps({"id": i, "x": i / 8, "tag": f"t{i}"}) for i in range(20_000)]  # past 64 KB: pyarrow's reader
    path = tmp_path / "points.jsonl"
    path.write_text("\n".join(lines) + "\n")
    run = cli("grad", "x*x", "--points", str(path), "--csv", "--keep", "tag")
    assert run.exit_code == 0, run.stderr
    rows = run.stdout.splitlines()
    assert rows[0] == "tag,value,grad_x" and len(rows) == 20_001
    assert rows[-1] == f"t19999,{(19_999 / 8) ** 2!r},{2 * 19_999 / 8!r}"


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_keep_chooses_a_tables_columns(tmp_path, suffix):
    pl = tables()
    path = _write(pl.DataFrame({"id": [10, 11], "x": [1.0, 2.0], "label": ["a", "b"]}), tmp_path / f"points{suffix}")
    run = cli("grad", "x*x", "--points", path, "--csv", "--keep", "id")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "id,value,grad_x\n10,1.0,2.0\n11,4.0,4.0\n"


def test_keep_and_drop_extra_together_are_refused():
    run = cli("grad", "x*x", "--points", "-", "--csv", "--keep", "id", "--drop-extra", stdin="id,x\na,1\n")
    assert run.exit_code == 2 and "--keep" in run.stderr and "--drop-extra" in run.stderr and run.stdout == ""


def test_csv_extra_columns_go_beside_the_results_in_json_lines():
    run = cli("grad", F, "--points", "-", "--json", stdin=CSV)
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(d["row"], d["id"], d["label"]) for d in documents] == [(1, "a", "p"), (2, "b", "q")]
    assert list(documents[0])[:4] == ["line", "row", "id", "label"]


def test_json_lines_extras_keep_their_values_and_a_name_gradcli_writes_goes_under_extra():
    stdin = ('{"x": 1, "id": 7, "tags": ["a", 1], "value": "mine", "note": "say \\"hi\\""}\n'
             '{"x": 2, "id": 8, "tags": null, "value": 3, "note": "ok"}\n')
    run = cli("grad", "x*x", "--points", "-", "--json", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    first, second = (json.loads(line) for line in run.stdout.splitlines())
    assert (first["id"], first["tags"], first["note"], first["extra"]) == (7, ["a", 1], 'say "hi"', {"value": "mine"})
    assert (second["id"], second["tags"], second["extra"], second["value"]) == (8, None, {"value": 3}, 4.0)


def test_a_carried_column_named_as_a_result_column_is_renamed_in_csv():
    run = cli("grad", "x*x", "--points", "-", "--csv", "--row-id", stdin="value,x,row\nv,3,r\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "row,extra_value,extra_row,value,grad_x\n1,v,r,9.0,6.0\n"


def test_csv_cells_with_commas_or_quotes_from_json_are_quoted():
    run = cli("grad", "x*x", "--points", "-", "--csv", stdin='{"x": 1, "note": "a,b\\"c"}\n')
    assert run.stdout == 'note,value,grad_x\n"a,b""c",1.0,2.0\n'


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_table_extra_columns_keep_their_own_type(tmp_path, suffix):
    pl = tables()
    path = _write(pl.DataFrame({"id": [10, 11], "x": [1.0, 2.0], "label": ["a", "b"], "ok": [True, False]}),
                  tmp_path / f"points{suffix}")
    out = tmp_path / f"out{suffix}"
    run = cli("grad", "x*x", "--points", path, "--output", str(out), "--row-id")
    assert run.exit_code == 0, run.stderr
    frame = pl.read_parquet(out) if suffix == ".parquet" else pl.read_ipc(out)
    assert frame.columns == ["row", "id", "label", "ok", "value", "grad_x"]
    assert frame.dtypes[:4] == [pl.Int64, pl.Int64, pl.String, pl.Boolean]
    assert frame["id"].to_list() == [10, 11] and frame["value"].to_list() == [1.0, 4.0]
    dropped = cli("grad", "x*x", "--points", path, "--csv", "--drop-extra")
    assert dropped.stdout == "value,grad_x\n1.0,2.0\n4.0,4.0\n"


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_a_carried_value_a_later_chunk_gives_in_another_type_is_said_at_its_line_and_no_file_written(tmp_path, suffix):
    tables()  # (the data extra writes Parquet and Arrow)
    points = tmp_path / "points.jsonl"
    points.write_text('{"x": 1.5, "id": 1}\n{"x": 2.5, "id": 2}\n{"x": 3.5, "id": 1.5}\n')
    out = tmp_path / f"out{suffix}"
    run = cli("grad", "x*x", "--points", str(points), "--output", str(out), "--chunk-size", "2")
    assert run.exit_code == 2 and run.stdout == "" and not out.exists()
    assert run.stderr.startswith("gradcli: error: --points: line 3: the column 'id' carried into the ")
    assert "is int64 (its first rows'), and 1.5 is not" in run.stderr and "--drop-extra" in run.stderr
    assert cli("grad", "x*x", "--points", str(points), "--output", str(out), "--chunk-size", "2",
               "--drop-extra").exit_code == 0


def test_a_parquet_column_of_bytes_that_are_not_utf8_is_carried_through_not_an_internal_error(tmp_path):
    tables()
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "points.parquet"
    pq.write_table(pa.table({"x": [1.0, 2.0], "tag": pa.array([b"ok", b"\xff\xfe"], pa.binary())}), path)
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 0 and run.stdout == "tag,value,grad_x\nok,1.0,2.0\n\\xff\\xfe,4.0,4.0\n"
    lines = cli("grad", "x*x", "--points", str(path), "--json").stdout.splitlines()
    assert json.loads(lines[1])["tag"] == "\\xff\\xfe"
    out = tmp_path / "out.parquet"
    assert cli("grad", "x*x", "--points", str(path), "--output", str(out)).exit_code == 0
    assert pq.read_table(out).column("tag").to_pylist() == [b"ok", b"\xff\xfe"]  # (the bytes as they were)


def test_a_csv_extra_column_in_a_big_file_is_read_by_the_fast_reader_as_by_the_exact_one(tmp_path):
    lines = [f"r{i},{0.5 + i / 7},x\"{i}" for i in range(30_000)]  # past the first 64 KB: pyarrow's reader
    path = tmp_path / "points.csv"
    path.write_text("id,x,note\n" + "\n".join(lines) + "\n")
    run = cli("grad", "x*x", "--points", str(path), "--json")
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(documents) == 30_000
    assert [(d["row"], d["id"], d["note"]) for d in documents[::7_000]] == \
        [(i + 1, f"r{i}", f'x"{i}') for i in range(0, 30_000, 7_000)]
    csv = cli("grad", "x*x", "--points", str(path), "--csv").stdout.splitlines()
    assert csv[0] == "id,note,value,grad_x" and csv[-1].startswith('r29999,"x""29999",')  # its text, quoted


def test_an_input_with_the_wrong_shape_is_still_an_error():
    run = cli("grad", "sum(z)", "--points", "-", "--csv", stdin="id,z,z[0]\na,1,2\n")
    assert run.exit_code == 2
    assert "the columns of 'z' mix different numbers of indices" in run.stderr


def test_an_at_name_the_program_does_not_use_is_a_warning():
    run = cli("grad", "x*x", "--points", "-", "--csv", "--at", "unused=3", stdin="x\n2\n")
    assert run.exit_code == 0
    assert run.stdout == "value,grad_x\n4.0,4.0\n"
    assert run.stderr.splitlines()[0] == ("gradcli: warning: --at: 'unused' is not an input of the program; its value "
                                          "is not used (its inputs are: x)")


# --- rows that line up ----------------------------------------------------------------------------

ROWS = [(0.5, 0.75), None, (1.0, 2.0), (2.0, 0.5)]  # None: a bad row


def _file(tmp_path, format: str) -> str:
    """ROWS in `format`, a bad row where ROWS has None."""
    path = tmp_path / f"p.{format}"
    if format == "csv":
        path.write_text("x1,x2\n" + "".join("x,1\n" if row is None else f"{row[0]},{row[1]}\n" for row in ROWS))
    elif format == "jsonl":
        path.write_text("".join('{"x1": "x", "x2": 1}\n' if row is None else json.dumps({"x1": row[0], "x2": row[1]}) + "\n"
                                for row in ROWS))
    else:
        frame = tables().DataFrame({"x1": [None if r is None else r[0] for r in ROWS],
                                    "x2": [1.0 if r is None else r[1] for r in ROWS]})
        _write(frame, path)
    return str(path)


@pytest.mark.parametrize("format", ["csv", "jsonl", "parquet", "arrow"])
def test_rows_are_numbered_the_same_in_every_format_and_skip_bad_keeps_them(tmp_path, format):
    path = _file(tmp_path, format)
    run = cli("grad", F, "--points", path, "--json", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    assert [json.loads(line)["row"] for line in run.stdout.splitlines()] == [1, 3, 4]
    csv = cli("grad", F, "--points", path, "--csv", "--row-id", "--skip-bad")
    assert [line.split(",")[0] for line in csv.stdout.splitlines()] == ["row", "1", "3", "4"]
    table = cli("grad", F, "--points", path, "--skip-bad")
    assert [line.split()[0] for line in table.stdout.splitlines()[2:]] == ["1", "3", "4"]
    stopped = cli("grad", F, "--points", path, "--json")
    assert stopped.exit_code == 2
    assert [json.loads(line)["row"] for line in stopped.stdout.splitlines()] == [1]


def test_json_lines_keeps_line_as_it_was():
    run = cli("grad", F, "--points", "-", "--json", stdin=CSV)
    assert [(d["line"], d["row"]) for d in map(json.loads, run.stdout.splitlines())] == [(2, 1), (3, 2)]


# --- the program from stdin, constant expressions -------------------------------------------------


@pytest.mark.parametrize("command", [["grad"], ["hessian"], ["jacobian"], ["explain"], ["graph"],
                                     ["jvp", "--tangent", "x=1"]])
def test_a_program_of_dash_is_read_from_stdin(command):
    run = cli(command[0], "-", "--at", "x=3", *command[1:], stdin="x*x\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == cli(command[0], "x*x", "--at", "x=3", *command[1:]).stdout


def test_grad_dash_json():
    assert cli("grad", "-", "--at", "x=3", "--json", stdin="x*x").json()["grad"] == {"x": 6.0}


@pytest.mark.parametrize("text", ["x*x\n", "x*x\r\n", "x*x"])
def test_the_program_from_stdin_is_written_without_the_line_end_the_shell_adds(text):
    assert cli("grad", "-", "--at", "x=3", "--json", stdin=text).json()["expr"] == "x*x"


def test_the_program_from_a_file_keeps_its_own_lines_but_not_its_last_line_end(tmp_path):
    path = tmp_path / "p.grad"
    path.write_text("y = x**2\n\ny\n")
    assert cli("grad", "-f", str(path), "--at", "x=3", "--json").json()["expr"] == "y = x**2\n\ny"


def test_the_program_and_the_points_cannot_both_come_from_stdin():
    run = cli("grad", "-", "--points", "-", stdin="x*x\n")
    assert run.exit_code == 2 and "cannot both come from stdin" in run.stderr


def test_at_values_may_be_constant_expressions():
    run = cli("grad", "x1*x2", "--at", "x1=1/2,x2=pi/4", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["at"] == {"x1": 0.5, "x2": math.pi / 4}
    point = cli("grad", "x+y+z", "--at", "x=2*pi,y=-1/3,z=-inf", "--json").json()["at"]
    assert (point["x"], point["y"], point["z"]) == (2 * math.pi, -1 / 3, None)  # -inf: null in JSON


@pytest.mark.parametrize("option", ["--drop-extra", "--row-id", "--keep=id"])
def test_the_row_options_need_points(option):
    run = cli("grad", "x*x", "--at", "x=1", option)
    assert run.exit_code == 2 and f"{option.split('=')[0]} is about the rows of --points" in run.stderr


def test_an_extra_integer_past_64_bits_is_carried_as_written():
    # (found by the fuzz test: it was an internal error, float() of an int past float64's range)
    huge = 10**400 + 7
    line = '{"x": 1, "y": 2, "bogus": ' + str(huge) + "}\n"
    csv = cli("grad", "x*y", "--points", "-", "--csv", stdin=line)
    assert csv.exit_code == 0, csv.stderr
    assert csv.stdout.splitlines()[1].startswith(f"{huge},2.0,")
    jsonl = cli("grad", "x*y", "--points", "-", "--json", stdin=line)
    assert jsonl.exit_code == 0, jsonl.stderr
    assert json.loads(jsonl.stdout)["bogus"] == huge


def test_an_extra_integer_of_more_digits_than_python_reads_is_carried_as_its_digits():
    # it was an internal error: json.loads refuses integers past 4,300 digits
    digits = "9" * 5_000
    run = cli("grad", "x*x", "--points", "-", "--json", stdin=f'{{"x": 2, "id": {digits}}}\n')
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["id"] == digits


def test_a_column_name_given_twice_is_refused_only_where_it_would_be_written():
    text = "id,id,x\na,b,1\n"
    refused = cli("grad", "x*x", "--points", "-", "--csv", stdin=text)
    assert refused.exit_code == 2 and "column 2 of the header, 'id', repeats column 1" in refused.stderr
    assert "--keep" in refused.stderr and "--drop-extra" in refused.stderr  # the way round it, said
    for option in (["--drop-extra"], ["--keep", "label"]):
        run = cli("grad", "x*x", "--points", "-", "--csv", *option, stdin=text)
        assert run.exit_code == 0, run.stderr
        assert run.stdout == "value,grad_x\n1.0,2.0\n"
    twice_an_input = cli("grad", "x*x", "--points", "-", "--csv", "--drop-extra", stdin="x,x\n1,2\n")
    assert twice_an_input.exit_code == 2 and "repeats column 1" in twice_an_input.stderr
    assert "--keep" not in twice_an_input.stderr


def test_a_trailing_comma_of_a_spreadsheet_is_read():
    # a spreadsheet's export may end every line with commas: columns without a name, carried as empty cells
    run = cli("grad", "x*y", "--points", "-", "--csv", "--drop-extra", stdin="x,y,,\r\n1,2,,\r\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "value,grad_x,grad_y\n2.0,2.0,1.0\n"


def _strict_json(line: str):
    """A line as RFC 8259 reads it: NaN and Infinity are no JSON."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(line, parse_constant=refuse)


def test_a_tables_list_struct_and_map_columns_are_carried_through_as_json(tmp_path):
    tables()
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "points.parquet"
    pq.write_table(pa.table({"x": [1.0, 2.0], "z": pa.array([[1.0, float("nan")], None]),
                             "s": pa.array([{"a": 1, "b": "p,q"}, None]),
                             "m": pa.array([[("k", 1)], None], pa.map_(pa.string(), pa.int64()))}), path)
    run = cli("grad", "x*x", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ['z,s,m,value,grad_x', '"[1.0, NaN]","{""a"": 1, ""b"": ""p,q""}","[[""k"", 1]]",1.0,2.0',
                                       ',,,4.0,4.0']
    run = cli("grad", "x*x", "--points", str(path), "--json")
    assert run.exit_code == 0, run.stderr
    first, second = map(_strict_json, run.stdout.splitlines())
    assert (first["z"], first["s"], first["m"]) == ([1.0, None], {"a": 1, "b": "p,q"}, [["k", 1]])
    assert (second["z"], second["s"], second["m"]) == (None, None, None)


def test_nan_and_infinity_inside_a_carried_json_value_are_null_in_json_lines():
    stdin = '{"x": 1, "tag": [NaN, Infinity], "deep": {"a": [-Infinity]}}\n{"x": "oops", "tag": [NaN]}\n'
    for option in ("--json", "--mark-bad"):
        run = cli("grad", "x*x", "--points", "-", "--json", *([option] if option != "--json" else []), stdin=stdin)
        good = _strict_json(run.stdout.splitlines()[0])
        assert (good["tag"], good["deep"]) == ([None, None], {"a": [None]})
    assert _strict_json(run.stdout.splitlines()[1])["tag"] == [None]


# --- CSV quoted cells (RFC 4180, as pandas and spreadsheets write them) ----------------------------

QUOTED = 'name,"x1",x2\n"Smith, J","0.5",0.75\n"say ""hi""",1,2\nplain,1,2\n'


def test_a_quoted_csv_cell_is_one_cell_its_quotes_not_part_of_its_value():
    run = cli("grad", F, "--points", "-", "--json", stdin=QUOTED)
    assert run.exit_code == 0, run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(d["name"], d["at"]["x1"], d["value"]) for d in documents] == [
        ("Smith, J", 0.5, _f(0.5, 0.75)), ('say "hi"', 1.0, _f(1, 2)), ("plain", 1.0, _f(1, 2))]
    csv_out = cli("grad", F, "--points", "-", "--csv", stdin=QUOTED)
    assert [row.rsplit(",", 3)[:2] for row in csv_out.stdout.splitlines()] == [
        ["name", "value"], ['"Smith, J"', repr(_f(0.5, 0.75))], ['"say ""hi"""', repr(_f(1, 2))], ["plain", repr(_f(1, 2))]]


def test_gradcli_reads_back_the_csv_it_writes():
    stdin = '{"x": 1, "note": "a,b\\"c"}\n{"x": 2, "note": "\\"quoted\\""}\n{"x": 3, "note": "plain"}\n'
    written = cli("grad", "x*x", "--points", "-", "--csv", stdin=stdin)
    assert written.exit_code == 0, written.stderr
    back = cli("grad", "grad_x", "--points", "-", "--json", stdin=written.stdout)
    assert [json.loads(line)["note"] for line in back.stdout.splitlines()] == ['a,b"c', '"quoted"', "plain"]


def test_the_csv_gradcli_writes_is_read_by_the_data_tools():
    # RFC 4180: a cell holding a quote anywhere is quoted (polars refused 'say "hi"' written unquoted)
    notes = ['a,b"c', '"quoted"', 'say "hi"', 'c"d', "two\nlines", "plain", ""]
    stdin = "".join(json.dumps({"x": x, "note": note}) + "\n" for x, note in enumerate(notes))
    written = cli("grad", "x*x", "--points", "-", "--csv", stdin=stdin)
    assert written.exit_code == 0, written.stderr
    assert [row["note"] for row in csv.DictReader(io.StringIO(written.stdout))] == notes
    pl = pytest.importorskip("polars")
    assert pl.read_csv(io.StringIO(written.stdout))["note"].fill_null("").to_list() == notes
    pd = pytest.importorskip("pandas")
    assert pd.read_csv(io.StringIO(written.stdout), keep_default_na=False)["note"].to_list() == notes


@pytest.mark.parametrize(("line", "reason", "after"), [
    # an open quote takes the lines after it into its cell (RFC 4180): here to the end, so nothing comes after it
    ('"open,1,2', "cell 1 opens a quote that does not close before the end of the input", []),
    ('"a"b,1,2', "cell 1 goes on after its closing quote", ["c"])])
def test_a_quote_that_does_not_close_is_a_bad_line_named_and_skipped(line, reason, after):
    stdin = f"name,x1,x2\na,0.5,0.75\n{line}\nc,1,2\n"
    stopped = cli("grad", F, "--points", "-", "--csv", stdin=stdin)
    assert stopped.exit_code == 2 and stopped.stderr == f"gradcli: error: --points: line 3: {reason}\n"
    skipped = cli("grad", F, "--points", "-", "--csv", "--skip-bad", stdin=stdin)
    assert skipped.exit_code == 0 and [row.split(",")[0] for row in skipped.stdout.splitlines()] == ["name", "a", *after]


def test_quoted_cells_deep_in_a_big_file_read_as_the_line_reader_reads_them(tmp_path):
    lines = ["name,x,y"] + [f'"n{i}, {i % 7}",{i / 8},1' if i % 3 else f"n{i},{i / 8},1" for i in range(20_000)]
    lines[15_000] = '"p,q",2'  # two cells where the header has three (the C reader would count three)
    path = tmp_path / "points.csv"
    path.write_text("\n".join(lines) + "\n")
    run = cli("grad", "x*y", "--points", str(path), "--json", "--skip-bad")
    assert run.exit_code == 0, run.stderr
    assert "skipped line 15001: 2 cells where the header has 3" in run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(documents) == 19_999
    assert documents[-1]["name"] == f"n19999, {19_999 % 7}" and documents[-1]["value"] == 19_999 / 8


@pytest.mark.parametrize(("source", "text"), [("csv", CSV), ("jsonl", JSONL)])
def test_keep_naming_no_column_is_a_warning_as_an_unused_at_name_is(source, text):
    run = cli("grad", F, "--points", "-", "--csv", "--keep", "label,lable,x1", stdin=text)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[0] == "label,value,grad_x1,grad_x2"
    assert run.stderr == ("gradcli: warning: --keep: no column 'lable' was carried through (the points have none of "
                          "that name)\ngradcli: warning: --keep: 'x1' is an input of the program: its values are "
                          "the point's (`at` in --json), not a column carried through\n")
    quiet = cli("grad", F, "--points", "-", "--csv", "--keep", "label", stdin=text)
    assert quiet.exit_code == 0 and quiet.stderr == ""


@pytest.mark.parametrize("option", [[], ["--drop-extra"]])
def test_quoted_cells_with_commas_in_every_block_are_one_cell_each_and_a_short_line_is_still_bad(tmp_path, option):
    # the C reader splits at every comma: a quoted comma must never pass as two cells, even in a column not read
    lines = ["name,x,y"] + [f'"n{i}, ""{i % 7}""",{i / 8},1' for i in range(30_000)]
    lines[20_000] = '"p,q",2'  # two cells where the header has three: three, split at every comma
    path = tmp_path / "points.csv"
    path.write_text("\n".join(lines) + "\n")
    run = cli("grad", "x*y", "--points", str(path), "--json", "--skip-bad", *option)
    assert run.exit_code == 0, run.stderr
    assert "skipped line 20001: 2 cells where the header has 3" in run.stderr
    documents = [json.loads(line) for line in run.stdout.splitlines()]
    assert [d["value"] for d in documents] == [i / 8 for i in range(30_000) if i != 19_999]
    if not option:
        assert documents[-1]["name"] == f'n29999, "{29_999 % 7}"'


def test_quoted_cells_without_commas_deep_in_a_file_lose_their_quotes_as_the_line_reader_takes_them(tmp_path):
    lines = ["id,x,note"] + [f'"r{i}",{i / 8},"say ""{i}"""' for i in range(30_000)]
    path = tmp_path / "points.csv"
    path.write_text("\n".join(lines) + "\n")
    documents = [json.loads(line) for line in cli("grad", "x*x", "--points", str(path), "--json").stdout.splitlines()]
    assert [(d["id"], d["note"], d["value"]) for d in documents] == [
        (f"r{i}", f'say "{i}"', (i / 8) ** 2) for i in range(30_000)]
    rows = cli("grad", "x*x", "--points", str(path), "--csv").stdout.splitlines()
    assert rows[0] == "id,note,value,grad_x" and rows[-1] == f'r29999,"say ""29999""",{(29_999 / 8) ** 2!r},{29_999 / 4!r}'


@pytest.mark.parametrize("stdin", ['{"x": 1, "error": "mine"}\n{"x": "bad", "error": "mine2"}\n',
                                   "x,error\n1,mine\nbad,mine2\n"])
def test_a_carried_column_named_error_goes_under_extra_so_it_is_never_taken_for_gradclis_own(stdin):
    run = cli("grad", "x*x", "--points", "-", "--json", "--mark-bad", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    good, bad = map(json.loads, run.stdout.splitlines())
    assert "error" not in good and good["extra"] == {"error": "mine"} and good["value"] == 1.0
    assert bad["extra"] == {"error": "mine2"} and bad["error"].endswith("is a string" if stdin[0] == "{" else
                                                                        "'bad' is not a number")


@pytest.mark.parametrize("depth", [150, 500, 985])
def test_a_deeply_nested_carried_value_is_written_or_a_bad_line_never_an_internal_error(depth):
    stdin = '{"x": 1, "t": ' + "[" * depth + "NaN" + "]" * depth + "}\n"
    for option in ("--json", "--csv"):
        run = cli("grad", "x*x", "--points", "-", option, stdin=stdin)
        if depth <= 200:
            assert run.exit_code == 0, run.stderr
            if option == "--json":
                assert _strict_json(run.stdout)["t"] == json.loads("[" * depth + "null" + "]" * depth)
        else:
            assert run.exit_code == 2 and run.stdout == ""
            assert run.stderr.startswith("gradcli: error: --points: line 1: ") and "nested deeper than" in run.stderr


@pytest.mark.parametrize("chunk", ["65536", "1"])
def test_no_piece_of_a_quoted_cell_with_a_line_break_is_taken_for_a_point(chunk):
    # pandas quotes a text cell holding a line break across lines (RFC 4180): the record is read whole, so
    # '3,lines",1' (the header's three cells) is the end of the first record's note, never a point of its own; rows
    # count records (tests/test_points_records.py holds this to Python's csv module)
    stdin = 'id,note,x\n1,"two\n3,lines",1\n2,plain,2\n3,"a\nb\nc",3\n4,x,4\n'
    run = cli("grad", "x*2", "--points", "-", "--csv", "--skip-bad", "--row-id", "--chunk-size", chunk, stdin=stdin)
    assert run.exit_code == 0 and run.stderr == ""
    assert run.stdout == ('row,id,note,value,grad_x\n1,1,"two\n3,lines",2.0,2.0\n2,2,plain,4.0,2.0\n'
                          '3,3,"a\nb\nc",6.0,2.0\n4,4,x,8.0,2.0\n')
