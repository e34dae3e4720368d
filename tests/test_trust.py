"""What gradcli promises about hostile input: no eval, clear limits, no silent non-finite numbers."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from gradcli.errors import Limits
from tests.helpers import cli

PACKAGE = Path(__file__).resolve().parent.parent / "gradcli"
BUILTINS = {"eval", "exec", "compile", "__import__"}  # as bare names: re.compile is fine
PARSERS = {"sympify", "parse_expr"}  # SymPy's text parsers, however they are reached


def _calls(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Name) and function.id in BUILTINS | PARSERS:
                found.append((node.lineno, function.id))
            elif isinstance(function, ast.Attribute) and function.attr in PARSERS:
                found.append((node.lineno, function.attr))
    return found


def test_no_source_file_of_the_package_calls_eval_exec_or_a_text_parser_of_sympy():
    offenders = {str(path.relative_to(PACKAGE)): calls for path in sorted(PACKAGE.rglob("*.py")) if (calls := _calls(path))}
    assert offenders == {}


def test_the_scan_itself_finds_a_forbidden_call(tmp_path):
    planted = tmp_path / "bad.py"
    planted.write_text("import sympy\n\ndef f(text):\n    return sympy.sympify(text) + eval(text)\n")
    assert {name for _, name in _calls(planted)} == {"sympify", "eval"}


# --- limits -----------------------------------------------------------------------------

LIMITS = [
    ("GRADCLI_MAX_PROGRAM_CHARS", "100", ["grad", "x" + " + x" * 50, "--at", "x=1"], "characters long"),
    ("GRADCLI_MAX_DEPTH", "50", ["grad", "(" * 60 + "x" + ")" * 60, "--at", "x=1"], "brackets nested too deep"),
    ("GRADCLI_MAX_NODES", "100", ["grad", " + ".join(["x"] * 200), "--at", "x=1"], "more than 100 tape nodes"),
    ("GRADCLI_MAX_ELEMENTS", "1000", ["grad", "sum(x)", "--at", "x=arange(0, 5000, 1)"], "arange makes too many"),
    ("GRADCLI_MAX_ELEMENTS", "1000", ["grad", "sum(x)", "--at", "x=linspace(0, 1, 5000)"], "linspace makes too many"),
]


@pytest.mark.parametrize(("variable", "value", "args", "message"), LIMITS, ids=[f"{v}:{m}" for v, _, _, m in LIMITS])
def test_each_limit_has_a_clear_message_and_a_variable_to_raise_it(monkeypatch, variable, value, args, message):
    monkeypatch.setenv(variable, value)
    run = cli(*args)
    assert run.exit_code == 2
    assert message in run.stderr
    assert f"raise it with {variable}=N" in run.stderr
    assert run.stdout == ""
    monkeypatch.delenv(variable)
    assert cli(*args, "--seed", "ones").exit_code == 0  # within the default limit


def test_a_points_line_past_the_limit_is_a_bad_line(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_LINE", "40")
    stdin = '{"x": 1}\n{"x": 2, "padding_padding_padding_padding": 0}\n'
    run = cli("grad", "x*2", "--points", "-", "--json", stdin=stdin)
    assert run.exit_code == 2
    assert "line 2: longer than 40 characters" in run.stderr and "GRADCLI_MAX_LINE" in run.stderr
    assert [json.loads(line)["line"] for line in run.stdout.splitlines()] == [1]


def test_a_bad_limit_setting_is_reported(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_DEPTH", "lots")
    run = cli("grad", "x", "--at", "x=1")
    assert run.exit_code == 2
    assert "GRADCLI_MAX_DEPTH must be a positive whole number" in run.stderr


def test_every_limit_is_documented_in_the_readme():
    readme = (PACKAGE.parent / "README.md").read_text()
    for variable, _ in Limits.DEFAULTS.values():
        assert variable in readme


# --- non-finite results -----------------------------------------------------------------


def test_non_finite_values_follow_ieee_and_are_named_with_where_they_start():
    run = cli("grad", "y = log(x); y * 2 + 1/z", "--at", "x=-1,z=0", "--json")
    assert run.exit_code == 0
    document = json.loads(run.stdout)  # RFC 8259: no NaN or Infinity literals
    assert document["value"] is None and document["grad"]["z"] is None and document["grad"]["x"] == -2.0
    assert document["warnings"] == [
        "the value of 'out' is not finite (NaN); it starts at node [1] (log, column 5)",
        "the gradient of 'z' is not finite (-inf); it starts in the backward of node [6] (reciprocal, column 21)",  # 1/z: PyTorch's z.reciprocal() * 1
    ]


def test_the_human_view_marks_non_finite_results():
    run = cli("grad", "1/x", "--at", "x=0")
    assert "inf" in run.stdout
    assert "warning: the value of 'out' is not finite" in run.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["grad", "log(x)", "--at", "x=-1"],
        ["grad", "1/x", "--at", "x=0", "--json"],
        ["jacobian", "[sqrt(x), x]", "--at", "x=-1"],
        ["hessian", "log(x)", "--at", "x=-1", "--json"],
        ["jvp", "log(x)", "--at", "x=-1", "--tangent", "x=1"],
    ],
)
def test_strict_turns_a_non_finite_result_into_exit_3(args):
    assert cli(*args).exit_code == 0
    strict = cli(*args, "--strict")
    assert strict.exit_code == 3
    assert "not finite (--strict)" in strict.stderr
    assert strict.stdout  # the result is still shown


def test_strict_with_points():
    run = cli("grad", "log(x)", "--points", "-", "--csv", "--strict", stdin="x\n1\n-1\n")
    assert run.exit_code == 3
    assert run.stdout.splitlines()[2].startswith("nan")


def test_strict_passes_finite_results():
    assert cli("grad", "log(x)", "--at", "x=2", "--strict").exit_code == 0


def test_exit_codes_are_documented_in_help():
    run = cli("--help")
    for code in ("0 success", "1 a failed --check", "2 bad input", "3 a non-finite result under --strict"):
        assert code in " ".join(run.stdout.split())


def test_the_human_view_shows_non_finite_numbers_in_red():
    from gradcli.render.table import marked

    assert str(marked(float("inf"))) == "inf" and marked(float("inf")).style == "bold red"
    assert str(marked(float("nan"))) == "nan" and marked(float("nan")).style == "bold red"
    assert marked(1.5).style == ""
