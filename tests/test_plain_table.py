"""The scalar path's gradient, Jacobian and Hessian tables, its JVP and the graph's tree are written without rich (render/plain.py): what rich
writes, byte for byte, to a pipe and to a terminal of any width, and rich's own where they need more than a plain
layout."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.console import Console

from gradcli import session
from gradcli.commands import UNWRAPPED_WIDTH, graph_view
from gradcli.render.derivatives import show_hessian, show_jacobian, show_jvp
from gradcli.render.graph import tree, tree_lines
from gradcli.render.plain import Plain, grad_table, graph_tree, hessian_table, jacobian_table, jvp_text
from gradcli.render.table import show_grad
from gradcli.scalar import grad_of_numbers, hessian_of_numbers, jacobian_of_numbers, jvp_of_numbers

CASES = [
    ("log(x1*x2)*sin(x2)", "x1=0.5,x2=0.75"),
    ("loss = (w * x - y) ** 2; loss", "w=-1.5e-7,x=123456.789,y=1e30"),
    ("a_rather_long_input_name * b", "a_rather_long_input_name=2,b=-0.0"),
    ("q", "q=7"),
    ("result_with_a_long_name = exp(t) * 3", "t=1"),
]


def _rich(program: str, at: str, terminal: bool, width: int) -> str:
    result = grad_of_numbers(program, [at])
    assert result is not None
    console = Console(file=io.StringIO(), markup=False, emoji=False, highlight=False, force_terminal=terminal,
                      width=width, soft_wrap=not terminal)
    show_grad(result, console)  # type: ignore[arg-type]
    return console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("program", "at"), CASES)
def test_a_piped_table_is_riches_byte_for_byte(program, at):
    result = grad_of_numbers(program, [at])
    assert grad_table(result, Plain(False, UNWRAPPED_WIDTH)) == _rich(program, at, False, UNWRAPPED_WIDTH)


@pytest.mark.parametrize(("program", "at"), CASES)
@pytest.mark.parametrize("width", [20, 28, 33, 34, 35, 40, 80])
def test_a_table_on_a_terminal_is_riches_where_it_fits_and_left_to_rich_where_not(program, at, width):
    result = grad_of_numbers(program, [at])
    ours, theirs = grad_table(result, Plain(True, width)), _rich(program, at, True, width)
    if ours is not None:
        assert ours == theirs and "\x1b[1m" in ours
    else:  # rich wraps or shrinks it: some line of the plain layout is wider than the terminal
        assert max(len(line) for line in _rich(program, at, False, UNWRAPPED_WIDTH).splitlines()) > width


def test_a_name_that_is_not_ascii_is_left_to_rich():  # (its width on a terminal is rich's to measure)
    result = grad_of_numbers("x * 2", ["x=1"])
    assert result is not None
    result.root_names = ("größe",)
    assert grad_table(result, Plain(False, UNWRAPPED_WIDTH)) is None


@pytest.mark.parametrize(("environment", "plain"), [
    ({}, Plain(False, UNWRAPPED_WIDTH)),
    ({"PYTHONIOENCODING": "ascii"}, None),  # (rich draws the box in ASCII)
    ({"FORCE_COLOR": "1"}, None),  # (rich writes a terminal's codes to the pipe)
    ({"NO_COLOR": "1"}, None),
])
def test_how_a_pipe_is_written_is_decided_as_rich_decides_it(environment, plain):
    code = "from gradcli.render.plain import plain_output; print(repr(plain_output()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**_environment(), **environment})
    assert done.stdout.strip() == repr(plain)


def _environment() -> dict[str, str]:
    import os

    return {name: value for name, value in os.environ.items()
            if name not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "PYTHONIOENCODING")}


GRAPHS = [
    ("log(x1*x2)*sin(x2)*3", ["x1=0.5,x2=0.75"]),  # the scalar path: a None, a node met again
    ("log(x1*x2)*sin(x2)*3", []),
    ("y = x ** 2; z = 2 * y - x; z + pi", ["x=3"]),
    ("(x * w, sin(x), x)", ["x=0.5,w=2"]),  # the table's way: a tuple, a root met again
    ("y = z ** 2; l = sum(y)", ["z=[1,3]"]),  # arrays: shapes, Jacobians on the edges (J = 1ᵀ: left to rich)
    ("y = z * 2; l = (y + z).mean()", ["z=[1,3]"]),
    ("q", ["q=7"]),
    ("a_very_long_name_for_an_input * another_rather_long_name_for_one", ["a_very_long_name_for_an_input=1e-300,"
                                                                            "another_rather_long_name_for_one=-2"]),
]


def _rich_tree(view: object, terminal: bool, width: int) -> str:
    console = Console(file=io.StringIO(), markup=False, emoji=False, highlight=False, force_terminal=terminal,
                      width=width, soft_wrap=not terminal)
    console.print(tree(view))  # type: ignore[arg-type]
    return console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("program", "at"), GRAPHS)
def test_a_piped_graph_is_riches_byte_for_byte(program, at):
    view = graph_view(session.graph(session.Request(program, None, at)))
    ours, theirs = graph_tree(tree_lines(view), Plain(False, UNWRAPPED_WIDTH)), _rich_tree(view, False, UNWRAPPED_WIDTH)
    assert ours == theirs or (ours is None and not theirs.replace("×", "").replace("─", "").replace("│", "")
                              .replace("└", "").replace("├", "").isascii())


@pytest.mark.parametrize(("program", "at"), GRAPHS)
@pytest.mark.parametrize("width", [30, 50, 64, 65, 66, 80, 120])
def test_a_graph_on_a_terminal_is_riches_where_it_fits_and_left_to_rich_where_not(program, at, width):
    view = graph_view(session.graph(session.Request(program, None, at)))
    ours, theirs = graph_tree(tree_lines(view), Plain(True, width)), _rich_tree(view, True, width)
    piped = _rich_tree(view, False, UNWRAPPED_WIDTH)
    if ours is not None:
        assert ours == theirs and "\x1b[1" in ours and "\x1b[2m" in ours
    elif graph_tree(tree_lines(view), Plain(False, UNWRAPPED_WIDTH)) is not None:
        assert max(len(line) for line in piped.splitlines()) > width  # rich wraps it: a line is wider than the terminal


def test_a_graph_whose_labels_take_lines_of_their_own_is_left_to_rich():
    view = graph_view(session.graph(session.Request("sum(sin(x) * 2)", None, [f"x=[{', '.join(['0.5'] * 40)}]"])))
    assert graph_tree(tree_lines(view), Plain(False, UNWRAPPED_WIDTH)) is None


def _rich_hessian(result: object, terminal: bool, width: int) -> str:
    console = Console(file=io.StringIO(), markup=False, emoji=False, highlight=False, force_terminal=terminal,
                      width=width, soft_wrap=not terminal)
    show_hessian(result, console)  # type: ignore[arg-type]
    return console.file.getvalue()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("program", "at"), CASES)
def test_a_piped_hessian_is_riches_byte_for_byte(program, at):
    result = hessian_of_numbers(program, [at])
    assert hessian_table(result, Plain(False, UNWRAPPED_WIDTH)) == _rich_hessian(result, False, UNWRAPPED_WIDTH)


@pytest.mark.parametrize(("program", "at"), CASES)
@pytest.mark.parametrize("width", [20, 33, 40, 57, 58, 80, 113, 114, 200])
def test_a_hessian_on_a_terminal_is_riches_where_it_fits_and_left_to_rich_where_not(program, at, width):
    result = hessian_of_numbers(program, [at])
    ours, theirs = hessian_table(result, Plain(True, width)), _rich_hessian(result, True, width)
    if ours is not None:  # (the note wrapped as rich wraps it)
        assert ours == theirs and "\x1b[3mHessian" in ours
    else:  # rich wraps or shrinks it: a line of the table is wider than the terminal
        assert max(len(line) for line in _rich_hessian(result, False, UNWRAPPED_WIDTH).splitlines()[:-1]) > width


def _rich_view(show: object, result: object, terminal: bool, width: int) -> str:
    console = Console(file=io.StringIO(), markup=False, emoji=False, highlight=False, force_terminal=terminal,
                      width=width, soft_wrap=not terminal)
    show(result, console)  # type: ignore[operator]
    return console.file.getvalue()  # type: ignore[attr-defined]


def _views(program: str, at: str) -> list[tuple[object, object, object]]:
    """(the scalar path's Jacobian or JVP, rich's view of it, the plain text of it)"""
    names = [item.partition("=")[0] for item in at.split(",")]
    tangent = ",".join(f"{name}={index - 0.5!r}" for index, name in enumerate(names))
    return [(jacobian_of_numbers(program, [at]), show_jacobian, jacobian_table),
            (jvp_of_numbers(program, [at], [tangent]), show_jvp, jvp_text)]


@pytest.mark.parametrize(("program", "at"), CASES)
def test_a_piped_jacobian_and_jvp_are_riches_byte_for_byte(program, at):
    for result, show, text in _views(program, at):
        assert result is not None
        assert text(result, Plain(False, UNWRAPPED_WIDTH)) == _rich_view(show, result, False, UNWRAPPED_WIDTH)


@pytest.mark.parametrize(("program", "at"), CASES)
@pytest.mark.parametrize("width", [12, 20, 26, 28, 33, 40, 57, 58, 80, 113, 200])
def test_a_jacobian_and_jvp_on_a_terminal_are_riches_where_they_fit_and_left_to_rich_where_not(program, at, width):
    for result, show, text in _views(program, at):
        ours, theirs = text(result, Plain(True, width)), _rich_view(show, result, True, width)
        if ours is not None:  # (a Jacobian's title wrapped to the table's width as rich wraps it)
            assert ours == theirs and "\x1b[1m" in ours
        else:  # rich wraps or shrinks it: a line (a Jacobian's title: a word of it) is wider than the terminal
            piped = _rich_view(show, result, False, UNWRAPPED_WIDTH).splitlines()
            if show is show_jacobian:
                piped[1] = max(piped[1].split(), key=len)
            assert max(len(line) for line in piped) > width
