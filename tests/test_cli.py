"""The grad command as scripts and people use it: JSON, files, stdin, options."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gradcli.errors import ExitCode
from tests.helpers import central_difference, cli, process

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def strict_json(text: str):
    """Parse as RFC 8259 does: NaN and Infinity are not JSON."""
    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_json_has_the_documented_keys():
    run = cli("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--json")
    document = strict_json(run.stdout)
    assert run.stdout.count("\n") == 1
    assert {"expr", "at", "value", "grad"} <= set(document)
    assert document["expr"] == "log(x1*x2)*sin(x2)"
    assert document["at"] == {"x1": 0.5, "x2": 0.75}
    assert document["value"] == pytest.approx(math.log(0.375) * math.sin(0.75))


def test_non_finite_values_are_null_in_json_and_named_in_warnings():
    run = cli("grad", "log(x) + 1/y", "--at", "x=-1,y=0", "--json")
    assert run.exit_code == 0
    document = strict_json(run.stdout)
    assert document["value"] is None
    assert document["grad"]["y"] is None
    assert any("'y'" in w for w in document["warnings"])


def test_nested_list_values_keep_their_shape_in_json():
    run = cli("grad", "sum(m @ v)", "--at", "m=[[1,2],[3,4]],v=[1,-1]", "--json")
    document = strict_json(run.stdout)
    assert document["grad"]["m"] == [[1.0, -1.0], [1.0, -1.0]]
    assert document["grad"]["v"] == [4.0, 6.0]


def test_program_from_a_file_and_from_stdin(tmp_path):
    path = tmp_path / "p.grad"
    path.write_text("O = 3*a**3\nP = b**2\nQ = O - P\n")
    from_file = cli("grad", "-f", str(path), "--at", "a=2,b=6", "--json").json()
    from_stdin = cli("grad", "-f", "-", "--at", "a=2,b=6", "--json", stdin=path.read_text()).json()
    assert from_file["grad"] == from_stdin["grad"] == {"a": 36.0, "b": -12.0}


def test_a_program_starting_with_minus_goes_after_double_dash():
    run = process("grad", "--json", "--", "-x**2", "--at", "x=3")
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["grad"] == {"x": -6.0}


def test_at_is_repeatable_and_takes_ranges():
    run = cli("grad", "sum(x*y)", "--at", "x=linspace(0,1,5)", "--at", "y=2", "--json")
    document = run.json()
    assert document["at"]["x"] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert document["grad"]["y"] == pytest.approx(2.5)


def test_wrt_reports_only_the_named_inputs_and_zero_for_unused_ones():
    run = cli("grad", "y = a*b; y + sum(0*c)", "--at", "a=2,b=3,c=[1,2]", "--wrt", "c,a", "--json")
    assert run.json()["grad"] == {"c": [0.0, 0.0], "a": 3.0}
    run = cli("grad", "q = a*2; r = b*3; q", "--at", "a=1,b=[1,2]", "--json")
    assert run.json()["grad"]["b"] == [0.0, 0.0]


def test_wrt_an_intermediate_gives_its_adjoint():
    run = cli("grad", "y = x**2; z = 3*y", "--at", "x=2", "--wrt", "y,x", "--json")
    assert run.json()["grad"] == {"y": 3.0, "x": 12.0}


def test_of_several_intermediates_takes_a_tuple_seed():
    run = cli("grad", "u = x*y; v = x+y; u*v", "--at", "x=2,y=3", "--of", "u,v", "--seed", "(1, 10)", "--json")
    document = run.json()
    assert document["value"] == [6.0, 5.0]
    assert document["grad"] == {"x": 3.0 + 10.0, "y": 2.0 + 10.0}


def test_seed_is_the_vector_of_a_vector_jacobian_product():
    seed = [0.5, -2.0, 3.0]
    run = cli("grad", "y = sin(x) * x", "--at", "x=[0.1,0.2,0.3]", "--seed", json.dumps(seed), "--json")
    gradient = np.array(run.json()["grad"]["x"])
    x = np.array([0.1, 0.2, 0.3])

    def weighted(args):
        return float(np.dot(seed, np.sin(args[0]) * args[0]))

    np.testing.assert_allclose(gradient, central_difference(weighted, [x], 0), rtol=1e-6)


def test_python_dash_m_gradcli_runs():
    run = process("--help")
    assert run.exit_code == 0
    assert "Exit codes" in run.stdout


@pytest.mark.parametrize(("args", "code"), [
    (["grad", "x*x", "--at", "x=3", "--json"], 0),
    (["grad", "log(x", "--at", "x=3"], 2),
    (["grad", "sin(x)", "--at", "x=1", "--check", "--tol", "0"], 1),
    (["grad", "log(x)", "--at", "x=-1", "--strict", "--json"], 3),
    (["grad", "x", "--at", "x=1", "--no-such-option"], 2),
])
def test_the_process_ends_with_the_commands_exit_code_and_all_its_output(args, code):
    # The gradcli process ends with os._exit once its output is flushed (gradcli/__main__.py).
    run = process(*args)
    assert run.exit_code == code, run.stderr
    in_process = cli(*args)
    assert run.stdout == in_process.stdout  # all of it, flushed before the end
    assert (run.stderr == "") == (in_process.stderr == "") and "Traceback" not in run.stderr


def test_output_that_cannot_be_written_is_not_a_success():
    # A full disk: the process must not end with 0 as if the gradient had been written.
    code = (
        "import io, sys\n"
        "class Full(io.StringIO):\n"
        "    def flush(self):\n"
        "        raise OSError(28, 'No space left on device')\n"
        "sys.stdout = Full()\n"
        "sys.argv = ['gradcli', 'grad', 'x*x', '--at', 'x=3', '--json']\n"
        "from gradcli.__main__ import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == ExitCode.OUTPUT  # its own code, not 4 (a bug in gradcli): finding 22 of issue #10
    assert "No space left on device" in done.stderr and "Traceback" not in done.stderr


def test_a_reader_that_leaves_early_ends_the_process_quietly(tmp_path):
    # `gradcli ... | head -1`: the rest of the output has nowhere to go; exit 0, no traceback.
    points = tmp_path / "points.csv"
    points.write_text("x\n" + "\n".join(str(i) for i in range(200_000)) + "\n")
    command = [sys.executable, "-m", "gradcli", "grad", "x*x", "--points", str(points), "--csv"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline() == b"value,grad_x\n"
        child.stdout.close()
        assert child.wait(timeout=120) == 0
        assert child.stderr.read() == b""


SAMPLE_FILES = sorted(SAMPLES.glob("*.grad"))


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[p.name for p in SAMPLE_FILES])
def test_every_sample_runs_as_its_comment_says(sample):
    # The second line of each sample is the command that runs it.
    command = sample.read_text().splitlines()[1].removeprefix("# ")
    words = [w.strip("'") for w in re.findall(r"'[^']*'|\S+", command)]
    assert words[:2] == ["gradcli", "grad"]
    words = [str(SAMPLES.parent / w) if w.startswith("samples/") else w for w in words]
    run = cli(*words[1:], "--json")
    assert run.exit_code == 0, run.stderr
    for gradient in run.json()["grad"].values():
        assert np.all(np.isfinite(gradient))


def test_readme_opens_with_the_two_commands_that_ci_runs():
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text().splitlines()
    commands = readme[readme.index("```sh") + 1 : readme.index("```sh") + 3]
    assert "gradcli grad" in commands[0] and "pytest" in commands[1]
    ci = (root / ".ci" / "run").read_text().splitlines()
    for command in commands:
        assert command in ci


def test_the_json_path_imports_neither_sympy_nor_rich():
    # nor the data libraries --points uses
    code = (
        "import sys\n"
        "sys.argv = ['gradcli', 'grad', 'log(x1*x2)*sin(x2)', '--at', 'x1=0.5,x2=0.75', '--json']\n"
        "from gradcli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('sympy', 'rich', 'pydantic', 'polars', 'pyarrow', 'orjson', 'pandas')\n"
        "             if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


@pytest.mark.parametrize("output", ["--csv", "--json", "--table"])
def test_points_from_csv_import_neither_polars_nor_pandas(tmp_path, output):
    # Their imports cost more than reading a million points (pyarrow's pa.array imports pandas where installed)
    points = tmp_path / "points.csv"
    points.write_text("x1,x2\n0.5,0.75\n1e-5,nan\n")
    argv = ["gradcli", "grad", "log(x1*x2)*sin(x2)", "--points", str(points), *([output] if output != "--table" else [])]
    code = (
        "import sys\n"
        f"sys.argv = {argv!r}\n"
        "from gradcli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('sympy', 'polars', 'pandas') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    *answers, imported = done.stdout.splitlines()
    assert len(answers) == {"--json": 2, "--csv": 3, "--table": 4}[output]  # both points, under their header
    assert imported == "[]"


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a new Python, as a library user's script."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_importing_gradcli_alone_loads_no_numpy_so_the_command_decides_how_it_starts():
    assert _python("import sys\nimport gradcli\nprint('numpy' in sys.modules, gradcli.__version__)").stdout.split() \
        == ["False", "0.1.0"]
    done = _python("import gradcli\nfrom gradcli import Tape, grad\nprint(grad('x*x', at={'x': 3.0}).grad['x'], Tape.__name__)")
    assert done.stdout.split() == ["6.0", "Tape"], done.stderr
    assert "module 'gradcli' has no attribute 'nothing'" in _python("import gradcli\ngradcli.nothing").stderr


def test_importing_gradcli_leaves_the_cycle_collector_as_it_found_it():
    # The first use pauses the collector while NumPy loads; a library must not keep it off.
    assert _python("import gc, sys\nfrom gradcli import grad\nprint(gc.isenabled(), 'numpy' in sys.modules)").stdout.split() \
        == ["True", "True"]
    assert _python("import gc\ngc.disable()\nfrom gradcli import grad\nprint(gc.isenabled())").stdout.split() == ["False"]


def test_importing_gradcli_leaves_no_pile_of_young_objects_for_the_collector():
    # What the import made (NumPy's tens of thousands of objects) goes to the oldest generation:
    # the first collection after the import would otherwise walk all of it at once.
    done = _python("import gc\nfrom gradcli import grad\n"
                   "print(len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1)), len(gc.get_objects(generation=2)))")
    young, old = map(int, done.stdout.split())
    assert young < 1000 < old


def test_importing_gradcli_leaves_what_its_user_froze_frozen():
    # a server that freezes its objects before it forks (gc.freeze: the children's collections
    # leave their pages alone) and then imports gradcli keeps them frozen
    done = _python("import gc\nkept = [[] for _ in range(1000)]\ngc.freeze()\nbefore = gc.get_freeze_count()\n"
                   "from gradcli import grad\nprint(before, gc.get_freeze_count())")
    before, after = map(int, done.stdout.split())
    assert before > 1000
    assert after > before - 100  # (a frozen object can still be freed: its count drops)


class _Malloc:
    """A C library whose mallopt refuses an mmap threshold past `most` (older glibc: HEAP_MAX_SIZE / 2, 32 MiB)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.set: dict[int, int] = {}

    def mallopt(self, option: int, value: int) -> int:
        if option == -3 and value > self.most:
            return 0
        self.set[option] = value
        return 1


@pytest.mark.parametrize(("most", "changed"), [(1 << 25, False), (1 << 30, True)])
def test_malloc_is_left_as_it_was_where_it_refuses_the_mmap_threshold(monkeypatch, most, changed):
    # glibc's M_TRIM_THRESHOLD alone also stops the mmap threshold from growing (no_dyn_threshold):
    # where the mmap threshold was refused, setting the trim threshold would leave every big array
    # mapped and unmapped again for each chunk, the opposite of what was meant
    import ctypes

    from gradcli.cli import _keep_freed_memory

    library = _Malloc(most)
    monkeypatch.setattr(ctypes, "CDLL", lambda name: library)
    monkeypatch.setattr(sys, "platform", "linux")
    for name in [n for n in os.environ if n.startswith("MALLOC_") or n == "GLIBC_TUNABLES"]:
        monkeypatch.delenv(name)
    _keep_freed_memory()
    assert (library.set != {}) == changed
    library.set.clear()
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=0")  # a user's own tuning stands
    _keep_freed_memory()
    assert library.set == {}


@pytest.mark.parametrize("command", [[], ["grad"], ["graph"], ["explain"], ["jacobian"], ["hessian"], ["jvp"]])
def test_dash_h_is_help_on_the_top_level_and_every_command(command):
    run = process(*command, "-h")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith(f"Usage: gradcli {' '.join(command)}".rstrip() + " ")
    assert run.stdout == process(*command, "--help").stdout


def test_version_comes_from_the_package_metadata():
    from importlib.metadata import version

    run = process("--version")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == f"gradcli {version('gradcli')}\n"


# --- click's own errors and --version, through the process ------------------------------------


@pytest.mark.parametrize("args", [["grad", "x", "--at", "x=1", "--max-paths", "0"], ["grad", "x", "--bogus"],
                                  ["graph", "x", "--format", "bogus"], ["bogus"], ["grad", "x", "--at"]])
def test_a_bad_option_is_one_line_naming_it_and_where_help_is(args):
    run = process(*args)
    assert run.exit_code == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gradcli: error: ")
    command = f"gradcli {args[0]} -h" if args[0] != "bogus" else "gradcli -h"
    assert f"(see '{command}')" in lines[0]


@pytest.mark.parametrize("command", ["", "grad", "graph", "explain", "jacobian", "hessian", "jvp"])
def test_version_answers_on_every_command(command):
    from importlib.metadata import version

    run = process(*([command] if command else []), "--version")
    assert (run.exit_code, run.stdout, run.stderr) == (0, f"gradcli {version('gradcli')}\n", "")


@pytest.mark.parametrize("command", ["grad", "jacobian", "hessian"])
def test_json_at_lists_the_inputs_in_the_programs_order_as_points_does(command):
    run = cli(command, "b*a + c", "--at", "c=3", "--at", "a=1,b=2", "--json")
    assert run.exit_code == 0
    assert list(run.json()["at"]) == ["b", "a", "c"]
