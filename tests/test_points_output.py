"""--points output: the table view, and a reader that leaves."""

from __future__ import annotations

import math
import os
import queue
import subprocess
import sys
import threading
import time

import pytest

from tests.helpers import cli


def test_the_table_has_a_row_per_point_with_its_row_number():
    stdin = "x1,x2\n0.5,0.75\n1,2\n"
    run = cli("grad", "log(x1*x2)*sin(x2)", "--points", "-", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    header, rule, *rows = run.stdout.splitlines()
    assert header.split() == ["row", "┃", "value", "┃", "grad", "x1", "┃", "grad", "x2"]
    assert set(rule) <= {"━", "╇"}
    assert len(rows) == 2
    for row, (line, x1, x2) in zip(rows, [(1, 0.5, 0.75), (2, 1.0, 2.0)], strict=True):
        cells = [cell.strip() for cell in row.split("│")]
        assert int(cells[0]) == line
        expected = [math.log(x1 * x2) * math.sin(x2), math.sin(x2) / x1,
                    math.sin(x2) / x2 + math.log(x1 * x2) * math.cos(x2)]
        assert [float(c) for c in cells[1:]] == pytest.approx(expected, rel=1e-5)


def test_the_table_columns_line_up_across_chunks():
    stdin = "x\n" + "".join(f"{10.0 ** i}\n" for i in range(-3, 12))
    run = cli("grad", "x*x", "--points", "-", "--chunk-size", "4", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 2 + 15
    assert len({len(line.rstrip()) for line in lines[2:]}) == 1  # every row as wide as the others
    assert [float(line.split("│")[1]) for line in lines[2:]] == pytest.approx([10.0 ** (2 * i) for i in range(-3, 12)],
                                                                              rel=1e-5)


@pytest.mark.parametrize("source", ["file", "pipe"])
def test_the_table_columns_line_up_with_the_header_however_wide_later_numbers_and_lines_are(tmp_path, source):
    # Later chunks hold longer line numbers and wider numbers (-1.5e-05, 1.25e+100) than the first
    xs = [0.5] * 5 + [-1.5e-05 * (1 + i / 1000) for i in range(12_000)] + [1.25e100, -2.5e-100]
    text = "x\n" + "".join(f"{x!r}\n" for x in xs)
    path = tmp_path / "points.csv"
    path.write_text(text)
    args = ("--points", str(path)) if source == "file" else ("--points", "-")
    run = cli("grad", "x*1", *args, "--chunk-size", "16", stdin=text)
    assert run.exit_code == 0, run.stderr
    header, rule, *rows = run.stdout.splitlines()
    assert len(rows) == len(xs)
    assert {len(row) for row in rows} == {len(header)}
    assert set(rule) <= {"━", "╇"}
    assert [float(row.split("│")[1]) for row in rows] == pytest.approx(xs, rel=1e-5)


def test_the_table_writes_a_matrix_cell_on_its_points_own_line():
    # a streamed table is a row a line: a matrix's rows are not lines of their own
    import re

    ms = [[k + 0.5, k - 1.0, 2.0 * k, -3.0] for k in range(3)]  # m[0][0], m[0][1], m[1][0], m[1][1]
    text = "m[0][0],m[0][1],m[1][0],m[1][1]\n" + "".join(",".join(map(repr, m)) + "\n" for m in ms)
    run = cli("grad", "sum(m*m)", "--points", "-", stdin=text)
    assert run.exit_code == 0, run.stderr
    _, _, *rows = run.stdout.splitlines()
    assert len(rows) == len(ms)
    for number, (row, m) in enumerate(zip(rows, ms, strict=True), start=1):
        line, value, grad = row.split("│")
        assert int(line) == number
        assert float(value) == pytest.approx(sum(e * e for e in m), rel=1e-6)
        assert [float(n) for n in re.findall(r"[-+.\de]+", grad)] == [2 * e for e in m]


def test_the_table_shows_vectors_and_tuple_outputs():
    run = cli("grad", "(sum(z*z), z[0])", "--points", "-", "--seed", "(1, 1)", stdin='{"z": [1, 2]}\n')
    assert run.exit_code == 0, run.stderr
    header, _, row = run.stdout.splitlines()
    assert [cell.strip() for cell in header.split("┃")] == ["row", "out[0]", "out[1]", "grad z"]
    assert [cell.strip() for cell in row.split("│")] == ["1", "5", "1", "[3., 4.]"]


def _endless_points(stdin, first: bytes, line: bytes) -> None:
    try:
        stdin.write(first)
        while True:
            stdin.write(line * 1000)
    except (BrokenPipeError, OSError, ValueError):
        pass


@pytest.mark.parametrize("output", [[], ["--csv"], ["--json"]])
def test_a_reader_that_leaves_ends_the_run_at_once_with_exit_0(output):
    # The input never ends: only the reader leaving can end the run.
    command = [sys.executable, "-m", "gradcli", "grad", "x*x", "--points", "-", "--chunk-size", "1000", *output]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    feeder = threading.Thread(target=_endless_points, args=(child.stdin, b"x\n", b"1.5\n"), daemon=True)
    feeder.start()
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    assert first
    started = time.monotonic()
    child.stdout.close()  # `| head -1`
    code = child.wait(timeout=60)
    assert time.monotonic() - started < 30
    assert code == 0
    assert child.stderr.read() == b""


def test_from_a_pipe_each_point_is_answered_before_the_next_one_comes():
    command = [sys.executable, "-m", "gradcli", "grad", "x*x", "--points", "-", "--csv"]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    lines: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in child.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        child.stdin.write(b"x\n3\n")
        child.stdin.flush()
        assert lines.get(timeout=60) == b"value,grad_x\n"
        assert [float(c) for c in lines.get(timeout=60).split(b",")] == [9.0, 6.0]
        child.stdin.write(b"-4\n")
        child.stdin.flush()
        assert [float(c) for c in lines.get(timeout=60).split(b",")] == [16.0, -8.0]
    finally:
        child.stdin.close()
        assert child.wait(timeout=60) == 0


@pytest.mark.parametrize("output", [[], ["--json"], ["--csv"]])
def test_points_leave_pyarrow_compute_unimported(tmp_path, output):
    # Its import writes a wrapper for each of pyarrow's functions (0.04-0.1 s, README, Speed): the
    # table view's padding and JSON's warning for a NaN call the functions without it.
    path = tmp_path / "points.csv"
    path.write_text("x\n1\nnan\n")
    code = ("import sys\nfrom gradcli.cli import main\nsys.argv = ['gradcli', 'grad', 'x*2', '--points', sys.argv[1], "
            "*sys.argv[2:]]\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('pyarrow.compute' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(path), *output], capture_output=True, text=True, timeout=60)
    assert done.stderr.split()[-1:] == ["False"], done.stderr


@pytest.mark.parametrize("name", ["results.csv", "results.json", "results.parquet"])
def test_output_that_is_a_directory_is_bad_input_before_any_work(tmp_path, name):
    (tmp_path / name).mkdir()
    run = cli("grad", "x*x", "--points", "-", "--output", str(tmp_path / name), stdin="x\n1\n")
    assert run.exit_code == 2, run.stderr
    assert "is a directory" in run.stderr and name in run.stderr and run.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == [name] and not any((tmp_path / name).iterdir())


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc, where no file can be made")
@pytest.mark.parametrize("name", ["results.csv", "results.parquet"])
def test_output_where_no_file_can_be_made_is_bad_input_before_any_work(name):
    # /proc takes no new files, for root too (a folder without write permission is the same for a user)
    run = cli("grad", "x*x", "--points", "-", "--output", f"/proc/{name}", stdin="x\n1\n")
    assert run.exit_code == 2, run.stderr
    assert f"--output '/proc/{name}'" in run.stderr and run.stdout == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("name", ["results.csv", "results.jsonl", "results.json"])
def test_output_on_a_full_disk_is_exit_5_however_the_lines_are_written(tmp_path, monkeypatch, name):
    # the file's writes fail as a full disk fails them: text and the compiled helper's bytes alike, from a file
    # (written on worker threads) as from a pipe
    import builtins

    real_open = builtins.open

    def full_open(file, mode="r", *args, **kwargs):
        return real_open("/dev/full", mode, *args, **kwargs) if str(file).endswith(".partial") else \
            real_open(file, mode, *args, **kwargs)

    points = tmp_path / "points.csv"
    points.write_text("x\n" + "".join(f"{i / 7!r}\n" for i in range(20_000)))
    monkeypatch.setattr(builtins, "open", full_open)
    out = tmp_path / name
    for source, stdin in ((str(points), None), ("-", points.read_text())):
        run = cli("grad", "x*x", "--points", source, "--output", str(out), stdin=stdin)
        assert run.exit_code == 5 and run.stdout == ""
        assert run.stderr.strip() == "gradcli: error: cannot write the output: No space left on device"
        assert sorted(os.listdir(tmp_path)) == ["points.csv"]
