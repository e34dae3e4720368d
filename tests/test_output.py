"""What people read: numbers, user text and layout in the human views."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import cli, process


def _g(x: float) -> str:
    """The reference layout of one element: %g with six significant digits (NumPy's '1.' for whole numbers)."""
    text = format(x, ".6g")
    return text + "." if text.lstrip("-").isdigit() else text


def test_tiny_gradients_in_a_table_keep_their_significant_digits():
    scales = [1e-9, 1e-7, 1e-12]
    run = cli("grad", f"sum(v*{scales})", "--at", "v=[1,1,1]")
    assert run.exit_code == 0, run.stderr
    # d/dv sum(v*c) = c, element by element
    assert "[" + ", ".join(_g(c) for c in scales) + "]" in run.stdout


def test_huge_non_finite_and_negative_zero_elements_are_shown_as_they_are():
    v = [-1.0, 0.0, 1e-300, 3.0]
    run = cli("grad", "sum(log(v) * [1, 1, 1, -0.0])", "--at", f"v={v}")
    assert run.exit_code == 0, run.stderr
    # d/dv log(v)*c = c/v: -1, inf, 1e300, -0
    expected = [-1.0, math.inf, 1e300, -0.0 / 3.0]
    assert "[" + ", ".join(_g(c) for c in expected) + "]" in run.stdout
    assert "-0." in run.stdout and "1e+300" in run.stdout


def test_a_matrix_in_a_table_is_shown_row_by_row():
    c = [[1e-9, 2.0], [3.0, 4e-12]]
    run = cli("grad", f"sum(m*{c})", "--at", "m=[[1,1],[1,1]]")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    first = next(line for line in lines if _g(c[0][0]) in line)
    second = lines[lines.index(first) + 1]
    cells = [re.findall(r"[-\w.+]+", part) for part in (first.split("│")[-1], second.split("│")[-1])]
    assert cells == [[_g(c[0][0]), _g(c[0][1])], [_g(c[1][0]), _g(c[1][1])]]
    # its columns line up, as NumPy and PyTorch print a matrix: each column ends at one place
    for left, right in [(c[0][0], c[1][0]), (c[0][1], c[1][1])]:
        assert first.index(_g(left)) + len(_g(left)) == second.index(_g(right)) + len(_g(right))


def test_a_matrix_lines_up_its_decimal_points():
    from gradcli.render.numbers import human

    assert human([[1.0, 22.5], [333.0, 4.0]]) == "[[  1. ,  22.5],\n [333. ,   4. ]]"
    assert human([[1.0, 22.5], [333.0, 4.0]], one_line=True) == "[[1., 22.5], [333., 4.]]"


@pytest.mark.parametrize("digits", [1, 3, 12, 17])
def test_digits_sets_the_significant_digits_of_every_human_view(digits):
    third = format(1 / 3, f".{digits}g")
    for command in (["grad", "x/3"], ["jacobian", "x/3"], ["hessian", "x**3/18"], ["explain", "x/3"],
                    ["graph", "x/3"]):
        run = cli(*command, "--at", "x=1", "--digits", str(digits))
        assert run.exit_code == 0, run.stderr
        assert third in run.stdout, (command, run.stdout)
        if digits < 6:
            assert format(1 / 3, ".6g") not in run.stdout
    exact = cli("grad", "x/3", "--at", "x=1", "--digits", "3", "--json")
    assert '"grad": {"x": 0.3333333333333333}' in exact.stdout  # JSON keeps every digit


def test_digits_out_of_range_is_refused():
    run = cli("grad", "x", "--at", "x=1", "--digits", "0")
    assert run.exit_code == 2 and run.stdout == "" and "--digits" in run.stderr


@pytest.mark.parametrize("value", [1e-9, 123456789.0, -2.5e-300, float("nan"), float("-inf"), -0.0])
def test_a_number_is_written_with_six_significant_digits(value):
    from gradcli.render.numbers import human

    assert human(value) == format(value, ".6g")
    assert human([value, value]) == f"[{_g(value)}, {_g(value)}]"


# --- user text is shown as typed: never read as rich markup, control characters escaped -------------

MARKUP = "[bold]b[/bold] [link=https://example.com]l[/link] [/] :smile:"
PROGRAM = f"y = [x, 2*x]; sum(y*y) # {MARKUP}"

HUMAN_VIEWS = [
    ["grad", PROGRAM, "--at", "x=0.5"],
    ["grad", PROGRAM, "--at", "x=0.5", "--paths"],
    ["grad", PROGRAM, "--at", "x=0.5", "--symbolic"],
    ["grad", PROGRAM, "--at", "x=0.5", "--check"],
    ["graph", PROGRAM],
    ["graph", PROGRAM, "--at", "x=0.5"],
    ["explain", PROGRAM, "--at", "x=0.5"],
    ["jacobian", PROGRAM, "--at", "x=0.5"],
    ["hessian", PROGRAM, "--at", "x=0.5"],
    ["jvp", PROGRAM, "--at", "x=0.5", "--tangent", "x=1"],
    ["grad", PROGRAM, "--points", "-"],
]


@pytest.mark.parametrize("args", HUMAN_VIEWS, ids=[" ".join(a[:1] + a[2:]) for a in HUMAN_VIEWS])
def test_markup_in_a_program_is_shown_as_typed_in_every_human_view(args):
    run = cli(*args, stdin="x\n0.5\n")
    assert run.exit_code == 0, run.stderr
    assert ":smile:" not in run.stdout or MARKUP in run.stdout  # echoed whole, or not at all
    assert "\x1b" not in run.stdout
    if args[0] in ("graph", "explain"):
        assert PROGRAM in run.stdout


def test_the_graph_of_a_list_names_the_list():
    run = cli("graph", "sum([a, b])")
    assert run.stdout.splitlines()[0] == "backward graph of sum([a, b])"


def test_explain_keeps_the_list_literal_in_the_program_and_on_the_tape():
    run = cli("explain", "y = [x, 2*x]; sum(y)", "--at", "x=1")
    assert "Program  y = [x, 2*x]; sum(y)" in run.stdout
    assert "[x, v2]" in run.stdout  # the stack's definition on the tape


def test_an_unclosed_markup_tag_in_a_comment_is_not_an_internal_error():
    for command in (["graph", "x*2 # [/]"], ["explain", "x*2 # [/]", "--at", "x=1"]):
        run = cli(*command)
        assert run.exit_code == 0, run.stderr
        assert "x*2 # [/]" in run.stdout


CONTROL = "\x1b]0;pwned\x07 \x00\x9b\u202e\x7f\r"  # the carriage return ends the comment
CONTROL_SHOWN = "\\x1b]0;pwned\\x07 \\x00\\x9b\\u202e\\x7f"


@pytest.mark.parametrize("args", [["graph"], ["graph", "--format", "dot"], ["graph", "--format", "mermaid"],
                                  ["explain", "--at", "x=1"], ["graph", "--at", "x=1"]])
def test_control_characters_in_a_program_are_shown_escaped(args):
    run = cli(args[0], "-f", "-", *args[1:], stdin=f"x*2 # {CONTROL}")
    assert run.exit_code == 0, run.stderr
    assert not any(c in run.stdout for c in "\x1b\x07\x00\x9b\u202e\x7f\r")
    if "dot" in args:  # inside a dot string a backslash is written twice
        assert CONTROL_SHOWN.replace("\\", "\\\\") in run.stdout
    elif "mermaid" not in args:  # mermaid does not show the program
        assert CONTROL_SHOWN in run.stdout


@pytest.mark.parametrize("args", [["graph"], ["graph", "--format", "dot"], ["explain", "--at", "x=1"],
                                  ["grad", "--at", "x=1", "--wrt"]])
def test_bytes_that_are_not_utf8_in_a_program_are_shown_escaped(args):
    # argv is bytes: Python hands a byte that is not UTF-8 over as a lone surrogate (U+DCxx). Written
    # back, it is either the raw byte again (0x9b is CSI to a terminal reading 8-bit controls) or,
    # where stdout is strict UTF-8 (any UTF-8 locale but C.UTF-8), an encoding error.
    program = b"x*2 # \x9b31m \xff".decode("utf-8", "surrogateescape")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    given = [program, *args[1:]] if args[0] != "grad" else ["x*2", *args[1:], program]  # an unknown --wrt name
    done = subprocess.run([sys.executable, "-m", "gradcli", args[0], *given], capture_output=True, env=env, timeout=120)
    assert done.returncode == (0 if args[0] != "grad" else 2), done.stderr
    shown = done.stdout + done.stderr
    assert b"\x9b" not in shown and b"\xff" not in shown and b"please report" not in shown
    assert (b"\\\\x9b31m \\\\xff" if "dot" in args else b"\\x9b31m \\xff") in shown


def test_a_byte_that_is_not_utf8_is_named_as_a_byte_in_an_error():
    run = cli("grad", b"x*2 \xff".decode("utf-8", "surrogateescape"), "--at", "x=1")
    assert run.exit_code == 2
    first, text, caret = run.stderr.splitlines()
    assert first.startswith("gradcli: error: unexpected byte 0xff (not UTF-8) at column 5")
    assert text == "  x*2 \\xff" and caret == "      ^^^^"


def test_control_characters_in_an_error_are_shown_escaped():
    run = cli("grad", "\x1b]0;pwned\x07 x", "--at", "x=1")
    assert run.exit_code == 2
    assert "\x1b" not in run.stderr and "\x07" not in run.stderr
    first, text, caret = run.stderr.splitlines()
    assert "unexpected character U+001B at column 1" in first
    assert text == "  \\x1b]0;pwned\\x07 x"
    assert caret == "  ^^^^"  # under the whole of the shown \x1b
    run = cli("grad", "x + \x07y", "--at", "x=1,y=2")
    _, text, caret = run.stderr.splitlines()
    assert caret.index("^") == text.index("\\x07")
    run = cli("grad", "x", "--at", "x=1", "--of", "\x1b[2J")
    assert run.exit_code == 2 and "\x1b" not in run.stderr and "\\x1b[2J" in run.stderr


def test_no_view_writes_rich_markup():
    # Every human view prints on a console that reads no markup (cli._console), so that no
    # user text is ever taken for it; a view styles its own words with rich Text objects.
    # Markup written into a view would be shown as typed.
    import io
    import tokenize

    package = Path(__file__).resolve().parent.parent / "gradcli"
    tag = re.compile(r"\[/?(bold|dim|italic|underline|reverse|red|green|yellow|blue|cyan|magenta|link)\b[^\]]*\]")
    for source in package.rglob("*.py"):  # (in the text the code writes: its strings, not `shape[dim]`)
        strings = [token.string for token in tokenize.generate_tokens(io.StringIO(source.read_text()).readline)
                   if token.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING))]
        assert not any(tag.search(text) for text in strings), f"rich markup in {source.name}"


# --- piped or redirected output is never wrapped -------------------------------------------------------


def test_explain_piped_keeps_each_step_on_one_line():
    run = process("explain", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75")  # stdout is a pipe
    assert run.exit_code == 0, run.stderr
    x1, x2 = 0.5, 0.75
    step = f"x2.grad += v4.grad × ∂v4/∂x2 = cos(x2) = {math.log(x1 * x2):.6g}"  # v4.grad = log(x1*x2)
    assert any(line.startswith("    " + step) and line.endswith(f"->  {math.log(x1 * x2) * math.cos(x2):.6g}")
               for line in run.stdout.splitlines()), run.stdout


def test_a_long_vector_in_a_piped_table_stays_on_its_row():
    values = [0.5 + i for i in range(40)]
    run = cli("grad", "sum(v*v)", "--at", f"v={values}")
    row = next(line for line in run.stdout.splitlines() if line.lstrip().startswith("v "))
    # d/dv sum(v*v) = 2v: its first and last elements on the row of v
    assert _g(2 * values[0]) in row and _g(2 * values[-1]) in row and row.rstrip().endswith("]")


def test_a_matrix_in_the_graph_tree_stays_on_its_node_line():
    m = [[1.0, 2.0], [3.0, 4.0]]
    run = cli("graph", "sum(m*m)", "--at", f"m={m}")
    line = next(line for line in run.stdout.splitlines() if "AccumulateGrad m" in line)
    twice = [[2 * a for a in row] for row in m]  # d/dm sum(m*m) = 2m
    shown = "[" + ", ".join("[" + ", ".join(_g(a) for a in row) + "]" for row in twice) + "]"
    assert line.endswith(f"grad = {shown}")


@pytest.mark.parametrize("format", ["dot", "mermaid"])
def test_graph_labels_never_hold_a_raw_newline(format):
    run = cli("graph", "sum(m*m)", "--at", "m=[[1,2],[3,4]]", "--format", format)
    assert run.exit_code == 0, run.stderr
    for line in run.stdout.splitlines():
        if "label=" in line or '"' in line:
            assert line.count('"') - line.count('\\"') in (0, 2, 4), line  # every quoted label closes on its line
    assert "[[2., 4.], [6., 8.]]" in run.stdout


# --- a reader that leaves ------------------------------------------------------------------------------

LEFT_EARLY = [
    ["grad", "sin(x)", "--at", "x=1"],
    ["grad", "sin(x)", "--at", "x=1", "--check"],
    ["grad", "sin(x)", "--at", "x=1", "--check", "--tol", "0"],  # a failed check the reader never saw
    ["grad", "sin(x)", "--at", "x=1", "--json"],
    ["grad", "sin(x)", "--at", "x=1", "--paths"],
    ["explain", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75"],
    ["graph", "x*x"],
    ["graph", "x*x", "--format", "dot"],
    ["jacobian", "[x, 2*x]", "--at", "x=1"],
    ["grad", "x*x", "--points", "-"],
    ["--help"],
]


@pytest.mark.parametrize("args", LEFT_EARLY, ids=[" ".join(a) for a in LEFT_EARLY])
def test_a_reader_that_has_left_ends_the_run_with_0_and_nothing_on_stderr(args):
    # `gradcli ... | head -0`: the pipe's reading end is closed before gradcli writes anything.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "gradcli", *args], stdout=write_end, stderr=subprocess.PIPE,
                              input=b"x\n1\n2\n", timeout=120)
    finally:
        os.close(write_end)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""


# --- output that cannot be written, memory that runs out -----------------------------------------------

FULL_DISK = [
    ["grad", "sin(x)", "--at", "x=1", "--json"],
    ["grad", "sin(x)", "--at", "x=1"],
    ["explain", "sin(x)", "--at", "x=1"],
    ["graph", "sin(x)", "--format", "dot"],
    ["grad", "x*x", "--points", "-", "--csv"],
    ["--help"],
]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", FULL_DISK, ids=[" ".join(a) for a in FULL_DISK])
def test_a_full_disk_is_an_output_error_with_its_own_exit_code(args):
    from gradcli.errors import ExitCode

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "gradcli", *args], stdout=full, stderr=subprocess.PIPE,
                              input="x\n1\n2\n", text=True, timeout=120)
    assert done.returncode == ExitCode.OUTPUT == 5
    assert done.stderr == "gradcli: error: cannot write the output: No space left on device\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux has it")
def test_running_out_of_memory_is_a_limit_style_error_naming_what_was_too_big():
    import resource

    def small_address_space() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    rows = "[" + ",".join(["[1]"] * 200) + "]"  # (200, 1) times (5e6,): 7.45 GiB, more than 1.5 GB
    # The element limits would refuse this before it is made; raised past it, memory runs out.
    raised = {**os.environ, "GRADCLI_MAX_ELEMENTS": str(10**12), "GRADCLI_MAX_TAPE_ELEMENTS": str(10**13)}
    done = subprocess.run([sys.executable, "-m", "gradcli", "grad", f"sum(x*{rows})", "--at", "x=arange(0,5e6,1)",
                           "--json"], capture_output=True, text=True, timeout=120, preexec_fn=small_address_space,
                          env=raised)
    assert done.returncode == 2
    assert done.stdout == ""
    message = done.stderr.splitlines()
    assert len(message) == 1 and message[0].startswith("gradcli: error: out of memory")
    assert "(200, 5000000)" in message[0] and "GRADCLI_MAX_ELEMENTS" in message[0]
    assert "please report" not in done.stderr


# --- Python's warnings never reach the user raw -----------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["grad", "mean(x)", "--at", "x=linspace(0,1,0)"],
    ["grad", "mean(x)", "--at", "x=linspace(0,1,0)", "--json"],
    ["jacobian", "[mean(x), 2*y]", "--at", "x=linspace(0,1,0),y=1"],
    ["grad", "log(x) + 1/y", "--at", "x=-1,y=0"],
    ["grad", "log(x)", "--points", "-", "--csv"],
])
def test_numpys_runtime_warnings_stay_silent_where_gradcli_names_the_result(args):
    run = process(*args, stdin="x\n-1\n0\n")
    assert run.exit_code == 0, run.stderr
    assert "Warning" not in run.stderr and ".py:" not in run.stderr


def test_any_other_python_warning_becomes_one_gradcli_line(capsys):
    import warnings

    from gradcli.cli import _run

    def body() -> None:
        warnings.warn("loadtxt: input contained no data: '\x1b[2J'", UserWarning, stacklevel=1)
        with np.errstate(all="warn"):
            np.log(np.zeros(1))  # a RuntimeWarning: gradcli names non-finite results itself

    _run(body)
    assert capsys.readouterr().err == "gradcli: warning: loadtxt: input contained no data: '\\x1b[2J'\n"


# --- path counts of any size ---------------------------------------------------------------------------


def _about(count: int) -> tuple[str, int]:
    """The reference: `count` to six significant digits and its number of digits, by the decimal module."""
    import decimal

    with decimal.localcontext(decimal.Context(prec=6)):
        rounded = +decimal.Decimal(count)
    mantissa, exponent = f"{rounded:E}".split("E")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent):+d}", decimal.Decimal(count).adjusted() + 1


def test_more_paths_than_python_writes_as_an_integer_are_shown_about_with_their_digits():
    import io
    import json

    from rich.console import Console

    from gradcli import grad
    from gradcli.paths import paths
    from gradcli.render.paths import paths_document, show_paths

    squarings = 14_300  # y = x*x, then y = y*y: 2**14301 paths, past Python's 4,300-digit limit
    result = grad("y = x*x; " + "; ".join(["y = y*y"] * squarings), at={"x": 1.0})
    reports = paths(result, 1)  # one path of 14,302 nodes is enough to draw
    count = 2 ** (squarings + 1)
    assert reports[0].total_paths == count
    text, digits = _about(count)
    out = io.StringIO()
    show_paths(reports, result, Console(file=out, width=1_000, markup=False))
    assert f"paths into x: about {text} paths ({digits:,} digits), the 1 largest listed" in out.getvalue()
    document = json.loads(json.dumps(paths_document(reports, result)))
    assert document["x"]["total_paths"] == text  # a string: no JSON number reader holds it


@pytest.mark.parametrize("count", [3, 2**60, 2**1023, 10**308 - 1])
def test_path_counts_a_double_can_hold_stay_exact_json_integers(count):
    import dataclasses

    from gradcli import grad
    from gradcli.paths import paths
    from gradcli.render.paths import paths_document

    result = grad("x*x", at={"x": 1.0})
    reports = [dataclasses.replace(r, total_paths=count) for r in paths(result, 16)]
    assert paths_document(reports, result)["x"]["total_paths"] == count


@pytest.mark.parametrize(("program", "wrt", "says"), [
    ("x*x", "x", "paths into x: 2 paths, all listed"),
    ("sin(x)", "x", "paths into x: 1 path\n"),
    ("y = 2*x; x", "y", "paths into y: no paths (the output does not depend on it)"),
])
def test_the_paths_view_counts_in_plain_words(program, wrt, says):
    run = cli("grad", program, "--at", "x=1", "--wrt", wrt, "--paths")
    assert run.exit_code == 0, run.stderr
    assert says in run.stdout
    assert "the 0 largest" not in run.stdout


# --- the table says what its last column is --------------------------------------------------------------


def test_the_header_under_a_seed_says_it_is_the_vector_jacobian_product():
    run = cli("grad", "y = z**2", "--at", "z=[1,3]", "--seed", "[1,-2]")
    assert run.exit_code == 0, run.stderr
    assert "d y / d input" not in run.stdout.replace("seed · d y / d input", "")
    assert "seed · d y / d input" in run.stdout
    assert "vector-Jacobian product" in run.stdout and "[1., -2.]" in run.stdout
    assert "[2., -12.]" in run.stdout  # seed * 2z


def test_a_negative_scalar_seed_is_named_in_the_header():
    run = cli("grad", "x*2", "--at", "x=1", "--seed", "-1")
    assert "seed · d out / d input" in run.stdout and "--seed (PyTorch's grad_tensors) out = -1" in run.stdout
    plain = cli("grad", "x*2", "--at", "x=1")
    assert "d out / d input" in plain.stdout and "seed" not in plain.stdout


# --- standard streams that are closed or full ----------------------------------------------------------

CLOSED_STDOUT = [
    ["grad", "sin(x)", "--at", "x=1", "--json"],
    ["grad", "sin(x)", "--at", "x=1"],
    ["explain", "sin(x)", "--at", "x=1"],
    ["grad", "x*x", "--points", "-", "--csv"],
]


@pytest.mark.parametrize("args", CLOSED_STDOUT, ids=[" ".join(a) for a in CLOSED_STDOUT])
def test_a_closed_stdout_is_an_output_error_not_a_traceback(args):
    # `gradcli ... >&-`: the process starts without a stdout at all.
    from gradcli.errors import ExitCode

    done = subprocess.run([sys.executable, "-m", "gradcli", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          input="x\n1\n2\n", text=True, timeout=120, close_fds=True,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == ExitCode.OUTPUT
    assert done.stderr.startswith("gradcli: error: cannot write the output") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr and "please report" not in done.stderr


@pytest.mark.parametrize("stderr", ["closed", "full"])
def test_an_error_that_cannot_be_said_keeps_its_exit_code_and_stdout_stays_empty(stderr):
    # `gradcli grad 'x+' 2>&-` or `2>/dev/full`: the message is lost, the exit code still says bad input.
    if stderr == "full" and not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    with open("/dev/full" if stderr == "full" else os.devnull, "w") as sink:
        done = subprocess.run([sys.executable, "-m", "gradcli", "grad", "x+", "--at", "x=1"], stdout=subprocess.PIPE,
                              stderr=sink, text=True, timeout=120,
                              preexec_fn=(lambda: os.close(2)) if stderr == "closed" else None)
    assert done.returncode == 2
    assert done.stdout == ""
