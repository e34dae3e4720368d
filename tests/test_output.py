"""What people read: numbers, user text and layout in the human views."""

from __future__ import annotations

import math

import pytest

from tests.helpers import cli


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
    assert f"[[{_g(c[0][0])}, {_g(c[0][1])}]," in first
    assert f"[{_g(c[1][0])}, {_g(c[1][1])}]]" in second


@pytest.mark.parametrize("value", [1e-9, 123456789.0, -2.5e-300, float("nan"), float("-inf"), -0.0])
def test_a_number_is_written_with_six_significant_digits(value):
    from gradcli.render.numbers import human

    assert human(value) == format(value, ".6g")
    assert human([value, value]) == f"[{_g(value)}, {_g(value)}]"
