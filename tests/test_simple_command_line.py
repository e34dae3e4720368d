"""A simple command line (`gradcli grad PROGRAM --at ... --json`) is read without typer and click
(commands.simple): the same output, errors and exit codes as typer's reading of it, and anything
else is left to typer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gradcli.commands import simple

CASES = Path(__file__).parent / "run_cases"

# The process as installed (python -m gradcli), and the same process with typer reading every command line.
TYPER = ("import sys; import gradcli.commands as commands; commands.simple = lambda argv: None; "
         "sys.argv = ['gradcli', *sys.argv[1:]]; from gradcli.__main__ import main; main()")
LOADED = ("import sys, json, atexit, os; sys.argv = ['gradcli', *sys.argv[1:]]; "
          "real_exit = os._exit\n"
          "def leave(code):\n"
          "    sys.stdout.flush(); sys.stderr.write(json.dumps(sorted(m.split('.')[0] for m in sys.modules)) + '\\n')\n"
          "    sys.stderr.flush(); real_exit(code)\n"
          "os._exit = leave\n"
          "from gradcli.__main__ import main; main()")


def _run(*command: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


SIMPLE_LINES = [
    ["grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--json"],
    ["grad", "log(x1*x2)*sin(x2)", "-a", "x1=0.5", "--at=x2=0.75"],  # the table, --at twice
    ["grad", "sin(x", "--at", "x=1"],  # a syntax error: exit 2, the caret
    ["grad", "x*y", "--at", "x=1", "--format", "json"],  # a value missing
    ["grad", "x", "--at", "x=1", "--json", "--format", "table"],  # two formats
    ["grad", "log(x)", "--at", "x=-1", "--json", "--strict"],  # NaN: named, and exit 3
    ["grad", "sum(v*v)", "--at", "v=[1,2,3]", "--format=table"],  # an array: the op table's way
    ["jacobian", "(x*y, x+y)", "--at", "x=1,y=2", "--json"],
    ["jvp", "x*y", "--at", "x=1,y=2", "-t", "x=1"],
    ["jvp", "x*y", "--at", "x=1,y=2"],  # no tangent
    ["hessian", "sin(x*y)*cos(y)", "--at", "x=0.5,y=0.75"],
    ["hessian", "x**3", "--at", "x=2", "--json"],
    ["hessian", "(x, x)", "--at", "x=2"],  # not a scalar output: exit 2
    ["graph", "sin(x1*x2)*cos(x2)", "--at", "x1=0.5,x2=0.75"],
    ["graph", "y = x * 2; y ** 2", "-a", "x=[1,2]"],
    ["graph", "log(x)", "--at", "x=-1"],  # NaN: its warning
    ["graph", "x +", "--at", "x=1"],  # a syntax error: exit 2
    ["graph", "sin(x) * x"],  # without --at: the structure alone
    ["explain", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75"],
    ["explain", "x ** 12 + x / 3", "-a", "x=2"],  # numbers whose formulas SymPy prints: the table's way
    ["explain", "sum(v*v)", "--at=v=[1,2]"],  # an array: the table's way
    ["explain", "log(x)", "--at", "x=-1"],  # NaN
    ["explain", "x +", "--at", "x=1"],  # a syntax error: exit 2
    ["explain", "x * 2"],  # no value for x
    ["run", str(CASES.parent.parent / "samples" / "autograd" / "grad_fn_next_functions.py")],
    ["run", str(CASES / "error_inplace_leaf.py")],  # PyTorch's error after the output: exit 1
    ["run", str(CASES / "anomaly_mode.py")],  # PyTorch's warnings on stderr
    ["run", str(CASES / "no_such_file.py")],  # exit 2
]


@pytest.mark.parametrize("argv", SIMPLE_LINES, ids=lambda argv: " ".join(argv))
def test_a_simple_command_line_gives_what_typer_gives(argv):
    assert simple(argv) is not None
    ours = _run("-m", "gradcli", *argv)
    theirs = _run("-c", TYPER, *argv)
    assert ours == theirs
    assert ours[0] in ((0, 1, 2) if argv[0] == "run" else (0, 2, 3)) and "Traceback" not in ours[2]  # (1: PyTorch's error)


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["grad", "--help"], ["grad", "x", "-h"], ["--version"], ["grad", "x", "--version"],
    ["grad", "x", "--at"], ["grad", "--", "-x", "--at", "x=1"], ["grad", "x", "--at", "-x=1"],
    ["grad", "x", "--points", "f.csv"], ["grad", "x", "--format", "csv"], ["grad", "x", "--json=1"],
    ["grad", "x", "y"], ["hessian", "x", "--wrt", "x"], ["grad", "x", "-ax=1"], ["grad", "x", "--tangent", "x=1"],
    ["grad", "x", "--at", "x=1", "--digits", "3"], ["grad", "--at", "x=1"], ["grad", "x", "--format", "json", "--format", "json"],
    ["grad", "x\udcff", "--at", "x=1"], ["graph", "x", "--format", "dot"], ["graph", "x", "--json"],
    ["explain", "x", "--at", "x=1", "--seed", "1"], ["explain", "x", "--at", "x=1", "--json"],
    ["explain", "x", "--at", "x=1", "--digits", "3"], ["run"], ["run", "f.py", "--json"], ["run", "--graph", "f.py"],
    ["run", "-x.py"], ["run", "f.py", "g.py"], ["run", "f.py", "--digits", "3"], ["run", "--help"], ["run", "f\udcff.py"],
])
def test_anything_else_is_left_to_typer(argv):
    assert simple(argv) is None


def test_a_simple_command_line_loads_neither_typer_nor_click():
    code, out, err = _run("-c", LOADED, "grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--json")
    assert code == 0 and json.loads(out)["grad"] == {"x1": 1.3632775200466682, "x2": 0.19118983333660755}
    loaded = set(json.loads(err.splitlines()[-1]))
    assert not loaded & {"typer", "click", "rich", "sympy"}
    code, out, err = _run("-c", LOADED, "grad", "x", "--at", "x=1", "--digits", "3")  # typer's, as before
    assert code == 0 and "typer" in set(json.loads(err.splitlines()[-1]))
    code, out, err = _run("-c", LOADED, "run", str(CASES / "error_inplace_leaf.py"))
    assert code == 1 and not set(json.loads(err.splitlines()[-1])) & {"typer", "click", "rich", "sympy"}
