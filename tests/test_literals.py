"""The values typed beside a program (--at, --tangent, --seed): one grammar, read once.

Every error points into the text as typed: its column, its caret and the columns its hint
names are those of the whole option's text, whichever value of an assignment list is bad.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.inputs.literals import parse_assignments, parse_seed, parse_value
from tests.helpers import cli


def _caret_column(stderr: str) -> int:
    """The 1-based column of the first caret under the shown text."""
    return stderr.splitlines()[2].index("^") - 1


def test_a_bracket_still_open_in_an_at_value_is_named_at_its_column_in_the_whole_text():
    run = cli("grad", "x + y", "--at", "y=2,x=(1]")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert run.stderr.splitlines()[0] == ("gradcli: error: --at: unexpected ']' at column 9; "
                                          "the '(' at column 7 is still open")
    assert _caret_column(run.stderr) == 9


def test_a_name_given_again_in_another_at_is_pointed_at_where_it_is_given_again():
    run = cli("grad", "x + y", "--at", "x=1", "--at", "y=[1, 2],  x=3")
    assert run.exit_code == 2
    assert run.stderr.splitlines()[0] == "gradcli: error: --at: 'x' is given twice at column 12"
    assert run.stderr.splitlines()[1] == "  y=[1, 2],  x=3"
    assert _caret_column(run.stderr) == 12


def test_a_name_that_is_not_an_input_is_a_warning_and_its_value_is_not_used():
    run = cli("grad", "x + 1", "--at", "x=1", "--at", " q = [1,2]")
    assert run.exit_code == 0
    assert run.stderr.splitlines() == ["gradcli: warning: --at: 'q' is not an input of the program; its value is not "
                                       "used (its inputs are: x)"]


def test_constant_expressions_are_values():
    point = parse_assignments("a=1/2, b=pi/4, c=2*pi, d=-inf, e=-1/3, f=[1/2, -(1+2)*3], g=2**-3, h=1/0")
    assert [float(point[n]) for n in "abcdeg"] == [0.5, math.pi / 4, 2 * math.pi, -math.inf, -1 / 3, 0.125]
    np.testing.assert_array_equal(point["f"], [0.5, -9.0])
    assert float(point["h"]) == math.inf


@pytest.mark.parametrize(
    ("text", "column"),
    [("x=1+q", 5), ("y=1,x=[1, a*b]", 11), ("x=sin(1)", 3), ("y=[1,2],x=-,z=1", 12)],
)
def test_a_bad_value_in_an_assignment_list_is_pointed_at_in_the_whole_text(text, column):
    run = cli("grad", "x", "--at", text)
    assert run.exit_code == 2
    assert f"at column {column}" in run.stderr.splitlines()[0]
    assert _caret_column(run.stderr) == column


def test_commas_inside_brackets_and_ranges_do_not_split_an_assignment_list():
    point = parse_assignments("m=[[1, 2], [3, 4]], r=linspace(0, 1, 3), s=-pi")
    assert list(point) == ["m", "r", "s"]
    np.testing.assert_array_equal(point["m"], [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(point["r"], [0.0, 0.5, 1.0])
    assert float(point["s"]) == -math.pi


def test_named_numbers_are_the_languages_constants_and_ieee_specials():
    np.testing.assert_array_equal(parse_value("[pi, -e, inf, -inf]"), [math.pi, -math.e, math.inf, -math.inf])
    assert math.isnan(float(parse_value("nan")))


def test_a_seed_is_a_value_ones_or_a_tuple_of_them():
    seeds = parse_seed("([1, 2], ones)")
    np.testing.assert_array_equal(seeds[0], [1.0, 2.0])
    assert seeds[1] == "ones"
    assert [float(s) for s in parse_seed("-0.5")] == [-0.5]  # type: ignore[arg-type]
