"""explain of a program of numbers takes the scalar path (gradcli.scalar.explain_of_numbers): its formulas come
from gradcli/table.py, printed by SymPy when the table was generated, and it is written without rich
(render/plain.py). It must be the table's way's explanation byte for byte, written by rich, over every
spelling of the table and over programs with numbers written in them. An edge of a number the table holds no
formula for is differentiated by SymPy from the row's expression the table holds as data (formulas.form): the
same bytes, SymPy loaded but not the op table."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from gradcli import session
from gradcli.commands import UNWRAPPED_WIDTH
from gradcli.render.explain import show_explanation
from gradcli.render.plain import Plain, explanation_text
from gradcli.scalar import explain_of_numbers
from tests.test_scalar import POINTS, _programs

LITERAL_PROGRAMS = [
    ("x**3", "x"), ("3*x", "x"), ("x/2", "x"), ("x/10 - 0.5*x", "x"), ("x ** 0.5 + x ** -1 + x ** 2.5", "x"),
    ("sin(x**2)*3 - x/10 + 2**x", "x"), ("y = (x - 1) * (x + 1); y ** 2 / 4", "x"), ("x // 2 + x * 100", "x"),
    ("c = 2; c * x + x ** c", "x"), ("y = x; y += x * 3; y", "x"), ("z = x * -1; -z + 1 - x", "x"),
    ("O = 3*a**3; P = b**2; Q = O - P", "a b"), ("y = x ** 2\nz = y * 2 - 1\nz", "x"), ("log(x1*x2)*sin(x2)", "x1 x2"),
    ("max(x, w) - min(w, x) + atan2(x, w) + hypot(x, w) + x.pow(w)", "x w"), ("y = x*x; z = sin(y) + y", "x"),
    ("x * x * x", "x"), ("2.5 - x + 0.25 * x", "x"),
]
OTHER_NUMBERS = [  # numbers whose formulas SymPy prints at run time, from the table's forms of the rows
    ("x * 0.123", "x"), ("x ** 12", "x"), ("x / 3 + pi * x", "x"), ("y = x ** 2\nz = y * pi - e\nz", "x"),
    ("x ** 2.37 + 0.3 * x - x / 7.5", "x"), ("x ** -0.125 - x ** 1e-3 + x * 1e20", "x"),
    ("x ** (1 / 3) + 2.5 ** 2 * x", "x"), ("exp(-x / 7) * 1.234567", "x"), ("x - 3.75 + 0.1 * x ** 3.5", "x"),
]
LEFT_TO_THE_TABLE = [  # not the scalar path's: a number computed, 2's pow, a number as a function's arg
    ("sin(2) * x", "x"), ("pow(2, x)", "x"), ("atan2(x, 0.37) + hypot(x, 12)", "x"), ("heaviside(x, 0.5) * x", "x"),
]


def _at(names: str, point: tuple[float, ...]) -> list[str]:
    return [",".join(f"{name}={value!r}" for name, value in zip(names.split(), point, strict=False))]


def _rich(explanation: session.Explanation, terminal: bool, width: int) -> str:
    console = Console(file=io.StringIO(), markup=False, emoji=False, highlight=False, force_terminal=terminal,
                      width=width, soft_wrap=not terminal)
    show_explanation(explanation, console)
    return console.file.getvalue()  # type: ignore[attr-defined]


def _tables(program: str, at: list[str], monkeypatch: pytest.MonkeyPatch) -> session.Explanation:
    with monkeypatch.context() as patched:
        patched.setattr("gradcli.scalar.explain_of_numbers", lambda *args: None)
        return session.explain(session.Request(program, None, at))


def _same_as_the_table(program: str, at: list[str], monkeypatch: pytest.MonkeyPatch) -> bool:
    """The scalar path's explanation, where it gives one, is the table's: written plainly and by rich, byte for
    byte; True where it gave one."""
    if explain_of_numbers(program, at) is None:
        return False
    ours = session.explain(session.Request(program, None, at))
    theirs = _rich(_tables(program, at, monkeypatch), False, UNWRAPPED_WIDTH)
    assert _rich(ours, False, UNWRAPPED_WIDTH) == theirs, (program, at)
    assert explanation_text(ours, Plain(False, UNWRAPPED_WIDTH)) == theirs, (program, at)
    return True


@pytest.mark.parametrize("program", _programs())
def test_every_spelling_explains_as_the_table(program, monkeypatch):
    names = "x y" if "y" in program else "x"
    answered = False
    for point in POINTS:  # (until one is answered: elsewhere a value may not be finite)
        answered += _same_as_the_table(program, _at(names, point), monkeypatch)
        if answered:
            break
    # (2.5 / x is PyTorch's reflected method; x op (1 / 3) puts in a number SymPy prints at run time)
    assert answered or program.startswith("2.5") or "(1 / 3)" in program


@pytest.mark.parametrize(("program", "names"), LITERAL_PROGRAMS)
def test_numbers_written_in_a_program_explain_as_the_table(program, names, monkeypatch):
    assert _same_as_the_table(program, _at(names, POINTS[0]), monkeypatch)


@pytest.mark.parametrize(("program", "names"), OTHER_NUMBERS)
def test_a_number_the_table_does_not_hold_is_put_in_by_sympy_as_the_table_does(program, names, monkeypatch):
    assert _same_as_the_table(program, _at(names, POINTS[0]), monkeypatch)


@pytest.mark.parametrize(("program", "names"), LEFT_TO_THE_TABLE)
def test_what_the_scalar_path_does_not_take_is_the_tables(program, names, monkeypatch):
    at = _at(names, POINTS[0])
    assert explain_of_numbers(program, at) is None
    assert "= 12*x**11 =" in _rich(session.explain(session.Request("x ** 12", None, at)), False, UNWRAPPED_WIDTH)


@pytest.mark.parametrize(("program", "names"), [*LITERAL_PROGRAMS[:6], ("a_rather_long_input_name * b", "a_rather_long_input_name b")])
@pytest.mark.parametrize("width", [40, 80, 96, 97, 100, 118, 119, 120, 200])
def test_an_explanation_on_a_terminal_is_riches_where_it_fits_and_left_to_rich_where_not(program, names, width):
    at = _at(names, POINTS[0])
    assert explain_of_numbers(program, at) is not None
    explanation = session.explain(session.Request(program, None, at))
    ours, theirs = explanation_text(explanation, Plain(True, width)), _rich(explanation, True, width)
    if ours is not None:
        assert ours == theirs and "\x1b[1mProgram" in ours and "\x1b[2m" in ours
    else:  # rich wraps it: some line of the plain layout is wider than the terminal
        piped = _rich(explanation, False, UNWRAPPED_WIDTH)
        assert max(len(line) for line in piped.splitlines()) > width


def test_a_name_that_is_not_ascii_is_left_to_rich():  # (its width on a terminal is rich's to measure)
    explanation = session.explain(session.Request("size * 2", None, ["size=1"]))
    assert explanation_text(explanation, Plain(False, UNWRAPPED_WIDTH)) is not None
    index, _, definition = explanation.forward[-1]
    explanation.forward[-1] = (index, "größe", definition)
    assert explanation_text(explanation, Plain(False, UNWRAPPED_WIDTH)) is None
