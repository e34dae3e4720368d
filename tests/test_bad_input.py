"""Bad input: exit code 2, one clear line on stderr naming the problem, nothing on stdout."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from gradcli import grad
from tests.helpers import Run, cli, process

BAD = [
    # arguments, what the first line of stderr must say
    (["log(x1*x2))*sin(x2)", "--at", "x1=0.5,x2=0.75"], "unexpected ')' at column 11"),
    (["sin(x", "--at", "x=1"], "'(' never closed at column 4"),
    (["foo(x)", "--at", "x=1"], "unknown function 'foo' at column 1"),
    (["sni(x)", "--at", "x=1"], "did you mean 'sin'?"),
    (["sin(x, y)", "--at", "x=1,y=2"], "sin takes 1 argument, got 2"),
    (["x + y", "--at", "x=1"], "no value for input 'y'"),
    (["x + 1", "--at", "x=1", "--at", "x=2"], "'x' is given twice"),
    (["y = x*2; y + 1", "--at", "x=1", "--of", "q"], "--of: 'q' is not a name in the program at column 1"),
    (["x*y", "--at", "x=1,y=2", "--wrt", "x,w"], "--wrt: 'w' is not a name in the program at column 3"),
    (["y = z**2; l = sum(y)", "--at", "z=[1,3]", "--of", "y", "--seed", "[1,1,1]"],
     "seed has shape (3,) but 'y' has shape (2,)"),
    (["y = x**2", "--at", "x=[1,2,3]"], "grad can be implicitly created only for scalar outputs"),
    (["x + y", "--at", "x=[1,2],y=[1,2,3]", "--seed", "ones"], "shapes (2,) and (3,) do not broadcast in '+'"),
    (["m @ v", "--at", "m=[[1,2],[3,4]],v=[1,2,3]", "--seed", "ones"], "'@' cannot take shapes (2, 2) and (3,)"),
    (["x[5]", "--at", "x=[1,2]"], "index out of range for shape (2,)"),
    (["x[0.5]", "--at", "x=[1,2]"], "an index must be a whole number"),
    (["__import__('os').system('x')", "--at", "x=1"], "unknown function '__import__' at column 1"),
    (["x.real", "--at", "x=1"], "attribute access ('.') is not supported at column 2"),
    (["lambda x: x", "--at", "x=1"], "'lambda' is not supported at column 1"),
    (["sin = 2; sin", "--at", "x=1"], "cannot assign to 'sin': it is a function"),
    (["sin + x", "--at", "x=1"], "'sin' is a function"),
    (["y = 2*x; x = y; x", "--at", "x=1"], "'x' is used before it is assigned"),
    (["x + 1", "--at", "x=[1,2"], "--at: '[' never closed at column 3"),
    (["x + 1", "--at", "x=[[1,2],[3]]", "--seed", "ones"], "--at: the rows of a nested list must have equal lengths"),
    (["x + 1", "--at", "x=foo"], "--at: expected a number"),
    (["x + 1", "--at", "x"], "--at: expected NAME=VALUE at column 1"),
    (["x + 1", "--at", "x=1", "--seed", "[1,"], "--seed: unexpected end of input"),
    (["(x, 2*x)", "--at", "x=1", "--seed", "1"], "1 seed(s) for 2 output(s)"),
    (["", "--at", "x=1"], "empty program"),
    (["(x, y) + 1", "--at", "x=1,y=2"], "a tuple is not a value"),  # ((x, y)[0] is x: tuples are values now)
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_exits_2_with_one_clear_line(args, message):
    run = cli("grad", *args)
    assert run.exit_code == 2
    assert run.stdout == ""
    first_line = run.stderr.splitlines()[0]
    assert first_line.startswith("gradcli: error: ")
    assert message in first_line
    assert "Traceback" not in run.stderr


def test_code_in_a_program_is_never_run(tmp_path):
    marker = tmp_path / "ran"
    for program in [f"__import__('os').system('touch {marker}')", f"exec(\"open('{marker}', 'w')\")",
                    f"eval(\"open('{marker}', 'w')\")"]:
        run = process("grad", program, "--at", "x=1")
        assert run.exit_code == 2
        assert run.stdout == ""
        assert "Traceback" not in run.stderr
    assert not marker.exists()


def test_missing_program_file():
    run = cli("grad", "-f", "/nonexistent/prog.grad", "--at", "x=1")
    assert run.exit_code == 2
    assert "cannot read the program from '/nonexistent/prog.grad'" in run.stderr
    assert run.stdout == ""


def test_program_both_as_argument_and_file():
    run = cli("grad", "x", "-f", "-", "--at", "x=1", stdin="x")
    assert run.exit_code == 2
    assert "not both" in run.stderr


def test_no_program_at_all():
    run = cli("grad", "--at", "x=1")
    assert run.exit_code == 2
    assert "no program given" in run.stderr


# --- list literals: ragged lists and nesting past NumPy's axes (issue #10: 6, 18) ---------


def _caret_under(run, text):
    """Does the caret line of the error stand under `text` in the echoed program line?"""
    shown, caret = run.stderr.splitlines()[1:3]
    return caret.index("^") == shown.index(text)


def test_a_ragged_list_is_refused_at_the_short_row_naming_both_lengths():
    with pytest.raises(ValueError):  # NumPy (and PyTorch) refuse the same nested list
        np.array([[1.0, 2.0], [3.0]])
    run = cli("grad", "sum([[a, b], [c]])", "--at", "a=1,b=2,c=3")
    assert run.exit_code == 2, run.stdout
    assert run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert "ragged" in first and "length 1" in first and "length 2" in first
    assert _caret_under(run, "[c]")


def test_a_number_beside_a_vector_in_a_list_is_ragged():
    with pytest.raises(ValueError):
        np.array([1.0, [1.0, 2.0]], dtype=float)
    run = cli("grad", "sum([x, v])", "--at", "x=1,v=[1,2]")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "ragged" in run.stderr and "length 2" in run.stderr
    assert _caret_under(run, "v])")


def test_a_ragged_list_of_constants_is_refused_too():
    run = cli("grad", "x*sum([[1, 2], [3]])", "--at", "x=1")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "ragged" in run.stderr and "length 1" in run.stderr
    assert _caret_under(run, "[3]")


def test_a_ragged_list_is_refused_with_points_too():
    run = cli("grad", "sum([x, v])", "--at", "v=[1,2]", "--points", "-", "--json", stdin="x\n1\n2\n")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "ragged" in run.stderr and "Traceback" not in run.stderr


def test_a_list_of_equal_shapes_stacks_as_numpy_does():
    x = np.array([1.0, 2.0, 4.0])
    result = grad("sum([x, 2*x] * [[1, 1, 1], [3, 3, 3]])", at={"x": x})
    weights = np.array([[1.0, 1, 1], [3, 3, 3]])
    assert float(result.value) == pytest.approx(float(np.sum(np.stack([x, 2 * x]) * weights)))
    np.testing.assert_allclose(result.grad["x"], weights[0] + 2 * weights[1])


def _nested(depth, inner):
    return "[" * depth + inner + "]" * depth


def test_lists_nested_past_numpys_axes_are_refused_with_a_clear_message():
    run = cli("grad", f"sum({_nested(34, 'x')})", "--at", "x=1")
    assert run.exit_code == 2
    assert run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert "32 axes" in first and "Traceback" not in run.stderr


def test_constant_lists_nested_past_numpys_axes_are_refused():
    run = cli("grad", f"x*sum({_nested(40, '1')})", "--at", "x=1")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "32 axes" in run.stderr


def test_values_nested_past_numpys_axes_are_refused():
    run = cli("grad", "sum(x)", "--at", f"x={_nested(34, '1')}")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "32" in run.stderr


def test_thirty_two_nested_lists_work_at_a_point_and_with_points():
    program = f"sum({_nested(32, 'x')})"
    result = grad(program, at={"x": 3.0})
    assert float(result.value) == 3.0 and float(result.grad["x"]) == 1.0  # d/dx of x is 1
    run = cli("grad", program, "--points", "-", "--json", stdin="x\n1\n2\n")
    assert run.exit_code == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert [row["value"] for row in rows] == [1.0, 2.0]


# --- reading the program with -f ------------------------------------------------------------


def test_a_directory_as_the_program_file_is_one_clear_line(tmp_path):
    run = cli("grad", "-f", str(tmp_path), "--at", "x=1")
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [f"gradcli: error: cannot read the program from {str(tmp_path)!r}: "
                                       "it is a directory"]


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_a_program_that_is_not_utf8_names_the_byte_offset(tmp_path, where):
    text = "x*x + é".encode() + b"\xff + x"
    assert text.index(b"\xff") == 8  # é is two bytes
    path = tmp_path / "p.grad"
    path.write_bytes(text)
    if where == "file":
        run = process("grad", "-f", str(path), "--at", "x=1")
    else:
        done = subprocess.run([sys.executable, "-m", "gradcli", "grad", "-f", "-", "--at", "x=1"], input=text,
                              capture_output=True, timeout=60)
        run = Run(done.returncode, done.stdout.decode(), done.stderr.decode())
    assert run.exit_code == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1
    assert "not UTF-8" in run.stderr and "byte offset 8" in run.stderr


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_a_byte_order_mark_before_the_program_is_accepted(tmp_path, where):
    path = tmp_path / "p.grad"
    path.write_bytes(b"\xef\xbb\xbfx*x")
    if where == "file":
        run = cli("grad", "-f", str(path), "--at", "x=3", "--json")
    else:
        run = cli("grad", "-f", "-", "--at", "x=3", "--json", stdin="\ufeffx*x")
    assert run.exit_code == 0, run.stderr
    assert run.json()["grad"]["x"] == 6.0  # d/dx x^2 = 2x


ALSO_BAD = [
    # command and arguments, what the first line of stderr must say
    (["jvp", "x*y", "--at", "x=1,y=2", "--tangent", "x=1", "--tangent", "x=5"], "--tangent: 'x' is given twice"),
    (["jvp", "x*y", "--at", "x=1,y=2", "--tangent", "x=1,x=5"], "--tangent: 'x' is given twice"),
    (["jvp", "x*2", "--at", "x=1"], "no --tangent given"),
    (["jvp", "x*2", "--points", "-"], "no --tangent given"),
    (["grad", "c = 2; x*c", "--at", "x=1", "--of", "c"],
     "--of: 'c' does not require grad and does not have a grad_fn at column 1"),
    (["grad", "c = 2; y = x*c; y", "--at", "x=1", "--of", "y, c"], "--of: 'c' does not require grad"),
    (["grad", "x*x", "--at", "x=1", "--csv"], "--csv writes the results of --points"),
    (["jacobian", "x*x", "--at", "x=1", "--csv"], "--csv writes the results of --points"),
    (["jvp", "x*x", "--at", "x=1", "--tangent", "x=1", "--csv"], "--csv writes the results of --points"),
    (["grad", "x*x", "--points", "-", "--csv", "--json"], "--csv and --json"),
    (["jacobian", "x*x", "--points", "-", "--csv", "--json"], "--csv and --json"),
]


@pytest.mark.parametrize(("args", "message"), ALSO_BAD, ids=[" ".join(a) for a, _ in ALSO_BAD])
def test_options_that_cannot_be_honoured_exit_2_with_one_clear_line(args, message):
    run = cli(*args, stdin="x\n1\n")
    assert run.exit_code == 2, run.stdout
    assert run.stdout == ""
    assert message in run.stderr.splitlines()[0]


def test_of_a_constant_is_refused_by_the_library_as_by_pytorch():
    from gradcli import GradcliError, grad

    # torch.autograd.backward([c]) raises "element 0 of tensors does not require grad and does not have a grad_fn"
    with pytest.raises(GradcliError, match="'c' does not require grad"):
        grad("c = 2; x*c", at={"x": 1.0}, of="c")


def test_a_program_file_may_start_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.grad"
    path.write_text("\ufeffy = x*x\ny", encoding="utf-8")
    from_file = cli("grad", "-f", str(path), "--at", "x=3", "--json")
    from_stdin = cli("grad", "-f", "-", "--at", "x=3", "--json", stdin="\ufeffx*x")
    assert from_file.exit_code == from_stdin.exit_code == 0, from_file.stderr + from_stdin.stderr
    assert from_file.json()["grad"] == from_stdin.json()["grad"] == {"x": 6.0}  # d/dx x*x = 2x


@pytest.mark.parametrize(("program", "suggested"), [
    ("sni(x)", "did you mean 'sin'?"),
    ("sigmod(x)", "did you mean 'sigmoid'?"),
    ("atan3(x, x)", "did you mean 'atan2'?"),
    ("lgo(x)", "did you mean 'log'?"),
    ("dox(x)", None),  # 'dot' is one letter away, but takes two arguments (det is a function now)
    ("dett(x, x)", None),  # two edits in four letters: not a plausible typo of 'dot'
    ("frobnicate(x)", None),
])
def test_did_you_mean_only_suggests_a_plausible_function(program, suggested):
    run = cli("grad", program, "--at", "x=1")
    assert run.exit_code == 2
    first = run.stderr.splitlines()[0]
    assert "unknown function" in first
    if suggested is None:
        assert "did you mean" not in first
    else:
        assert suggested in first


IGNORED_BEFORE = [
    # an option given without the one it works with was ignored
    (["grad", "x*x", "--at", "x=1", "--skip-bad"], "--skip-bad"),
    (["jacobian", "x*x", "--at", "x=1", "--skip-bad"], "--skip-bad"),
    (["jvp", "x*x", "--at", "x=1", "--tangent", "x=1", "--skip-bad"], "--skip-bad"),
    (["graph", "x*x", "--seed", "3"], "--seed"),
]


@pytest.mark.parametrize(("args", "option"), IGNORED_BEFORE, ids=[" ".join(a) for a, _ in IGNORED_BEFORE])
def test_an_option_without_the_one_it_works_with_is_refused(args, option):
    run = cli(*args)
    assert run.exit_code == 2, run.stdout
    assert run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert option in first and len(run.stderr.splitlines()) == 1


@pytest.mark.parametrize("args", [["grad", "x", "--points", "-", "--csv"], ["grad", "-f", "-", "--at", "x=1"]])
def test_reading_a_closed_stdin_is_bad_input_not_an_internal_error(args):
    import os

    # `gradcli ... <&-`: the process starts without a stdin.
    done = subprocess.run([sys.executable, "-m", "gradcli", *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0))
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert "standard input" in done.stderr and "please report" not in done.stderr
