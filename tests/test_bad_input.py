"""Bad input: exit code 2, one clear line on stderr naming the problem, nothing on stdout."""

from __future__ import annotations

import pytest

from tests.helpers import cli, process

BAD = [
    # arguments, what the first line of stderr must say
    (["log(x1*x2))*sin(x2)", "--at", "x1=0.5,x2=0.75"], "unexpected ')' at column 11"),
    (["sin(x", "--at", "x=1"], "'(' never closed at column 4"),
    (["foo(x)", "--at", "x=1"], "unknown function 'foo' at column 1"),
    (["sni(x)", "--at", "x=1"], "did you mean 'sin'?"),
    (["sin(x, y)", "--at", "x=1,y=2"], "sin takes 1 argument, got 2"),
    (["x + y", "--at", "x=1"], "no value for input 'y'"),
    (["x + 1", "--at", "x=1,z=2"], "--at: 'z' is not an input of the program at column 5"),
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
    (["__import__('os').system('x')", "--at", "x=1"], "unexpected character \"'\" at column 12"),
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
    (["(x, y)[0]", "--at", "x=1,y=2"], "a tuple can only be the program's output"),
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
    ("det(x)", None),  # 'dot' is one letter away, but takes two arguments
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
