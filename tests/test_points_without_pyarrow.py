"""--points without the data extra (pyarrow and orjson not installed): CSV and JSON Lines are read
a line at a time and written a point at a time, and say the same as with them.

Each case runs `gradcli` twice as a separate process, once as installed and once with pyarrow and
orjson made unimportable (as on `pip install gradcli` without `[data]`): CSV and the table for
people must be the same bytes; JSON Lines the same JSON (pyarrow's writer keeps non-ASCII text as it
is, json.dumps escapes it: the same string either way). Parquet and Arrow say what to install.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import cli

pytest.importorskip("pyarrow")
pytest.importorskip("orjson")

WITHOUT = ("import sys; sys.modules['pyarrow'] = None; sys.modules['orjson'] = None; "
           "sys.argv = ['gradcli', *sys.argv[1:]]; from gradcli.__main__ import main; main()")


def _run(args: list[str], stdin: str, without: bool) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", WITHOUT, *args] if without else [sys.executable, "-m", "gradcli", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)


CSV = "id,x,z[0],z[1],note\n7,0.5,1,2,a \"quoted\" cell\n8,-1.5,3,-4,b\n9,nan,1e-5,2e-300,\n10,oops,1,1,c\n11,2,3,4,ü\n"
JSONL = "\n".join([
    '{"x": 0.5, "z": [1, 2], "id": 1, "tag": "a", "w": 1, "flag": true, "meta": {"k": [1, 2]}}',
    '{"x": -1.5, "z": [3, -4], "id": 2, "tag": "b \\"q\\" ü", "w": 2.5, "flag": false, "meta": null}',
    '{"x": NaN, "z": [1e-5, 2e-300], "id": 3, "w": null, "big": 123456789012345678901234567890}',
    '{"x": "bad", "z": [1, 1], "id": 4}',
    '{"x": 1e300, "z": [Infinity, -0.0], "id": 5, "tag": "c,d\\ne"}',
]) + "\n"
CASES = {
    "csv --csv": (["grad", "x*sum(z*z)", "--points", "-", "--csv", "--skip-bad"], CSV),
    "csv --json": (["grad", "x*sum(z*z)", "--points", "-", "--json", "--skip-bad", "--row-id"], CSV),
    "csv table": (["grad", "x*sum(z*z)", "--points", "-", "--skip-bad"], CSV),
    "csv --row-id --drop-extra": (["grad", "x*z", "--seed", "ones", "--points", "-", "--csv", "--skip-bad", "--row-id",
                                   "--drop-extra"], CSV),
    "jsonl --csv": (["grad", "x*sum(z*z)", "--points", "-", "--csv", "--skip-bad"], JSONL),
    "jsonl --json": (["grad", "x*sum(z*z)", "--points", "-", "--json", "--skip-bad"], JSONL),
    "jsonl jacobian": (["jacobian", "x*z", "--points", "-", "--json", "--skip-bad"], JSONL),
    "a bad line stops the run": (["grad", "x*sum(z*z)", "--points", "-", "--csv"], JSONL),
    "csv --mark-bad": (["grad", "x*sum(z*z)", "--points", "-", "--csv", "--mark-bad", "--row-id"], CSV),
    "jsonl --mark-bad": (["grad", "x*sum(z*z)", "--points", "-", "--json", "--mark-bad"], JSONL),
    "header only": (["grad", "x*y", "--points", "-", "--csv"], "x,y\n"),
    "no lines": (["grad", "x*y", "--points", "-", "--json", "--at", "y=2"], ""),
    "wide points": (["grad", "sum(v*v)", "--points", "-", "--csv"],
                    "\n".join(json.dumps({"v": [float(i + k) for i in range(600)]}) for k in range(3)) + "\n"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_without_pyarrow_the_output_says_the_same(case):
    args, stdin = CASES[case]
    with_it, without = cli(*args, stdin=stdin), _run(args, stdin, True)  # (as installed: in this process, quicker)
    assert (without.returncode, without.stderr) == (with_it.exit_code, with_it.stderr)
    if "--json" in args:
        assert [json.loads(line) for line in without.stdout.splitlines()] == \
            [json.loads(line) for line in with_it.stdout.splitlines()]
    else:
        assert without.stdout == with_it.stdout


@pytest.mark.parametrize("suffix", [".parquet", ".arrow"])
def test_without_pyarrow_tables_say_what_to_install(tmp_path, suffix):
    path = tmp_path / f"points{suffix}"
    path.write_bytes(b"not read")
    for args in (["grad", "x*x", "--points", str(path)],
                 ["grad", "x*x", "--points", "-", "--output", str(tmp_path / f"out{suffix}")]):
        run = _run(args, "x\n1\n", True)
        assert run.returncode == 2 and run.stdout == ""
        assert "pip install 'gradcli[data]'" in run.stderr and len(run.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no output file begun
