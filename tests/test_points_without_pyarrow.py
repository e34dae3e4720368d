"""--points without the data extra (pyarrow not installed) and without the compiled helper (pip
found no C compiler): CSV and JSON Lines are read and written a line at a time by Python, and say
the same bytes as the helper writes.

Each case runs `gradcli` twice, once as installed and once as a separate process with pyarrow and
gradcli.inputs._numbers made unimportable. Parquet and Arrow say what to install.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers import cli

WITHOUT = ("import sys; sys.modules['pyarrow'] = None; sys.modules['gradcli.inputs._numbers'] = None; "
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
    "numbers of every size": (["grad", "x*y", "--points", "-", "--json", "--skip-bad"],
                              "x,y\n" + "".join(f"{x!r},{y!r}\n" for x, y in [
                                  (1e-300, 5e-324), (-0.0, 1e300), (1e16, 1e-5), (0.1, 1 / 3), (1e-4, 123456789.0),
                                  (2.5e-16, -7e22), (float("inf"), 1.0), (9007199254740993.0, 1e17)])),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_without_the_helper_the_output_is_the_same_bytes(case):
    args, stdin = CASES[case]
    with_it, without = cli(*args, stdin=stdin), _run(args, stdin, True)  # (as installed: in this process, quicker)
    assert (without.returncode, without.stderr) == (with_it.exit_code, with_it.stderr)
    assert without.stdout == with_it.stdout


@pytest.mark.parametrize(("suffix", "content"), [(".parquet", b"not read"), (".arrow", b"not read"),
                                                (".dat", b"PAR1 a Parquet file by its first and last bytes PAR1")])
def test_without_pyarrow_tables_say_what_to_install(tmp_path, suffix, content):
    path = tmp_path / f"points{suffix}"
    path.write_bytes(content)
    for args in (["grad", "x*x", "--points", str(path)],
                 ["grad", "x*x", "--points", "-", "--output", str(tmp_path / f"out{suffix.replace('.dat', '.parquet')}")]):
        run = _run(args, "x\n1\n", True)
        assert run.returncode == 2 and run.stdout == ""
        assert "pip install 'gradcli[data]'" in run.stderr and len(run.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no output file begun
