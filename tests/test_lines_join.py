"""--points lines are put together by gradcli's compiled helper (render/_lines.c) where pip built
it, by pyarrow's binary_join_element_wise where it did not: both write the same bytes, and the
helper checks every offset it is given before it copies a byte."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradcli.render import stream
from tests.helpers import cli

pa = pytest.importorskip("pyarrow")
compiled = pytest.mark.skipif(stream._lines is None, reason="the compiled helper was not built (no C compiler)")


def _large(texts: list[str], skip: int = 0) -> object:
    """An Arrow array of large strings; `skip` texts sliced off its front (its offsets then start past 0)."""
    return pa.array(["?"] * skip + texts, type=pa.large_string())[skip:]


_PIECE = st.one_of(st.text(max_size=6), st.lists(st.text(max_size=30), min_size=3, max_size=3))


@compiled
@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECE, min_size=1, max_size=12), st.integers(0, 3))
def test_the_compiled_join_writes_what_pyarrows_join_writes(pieces, skip):
    if all(isinstance(piece, str) for piece in pieces):
        pieces = [*pieces, ["a", "", "é✓"]]
    parts = [stream._literal(piece) if isinstance(piece, str) else _large(piece, skip) for piece in pieces]
    by_pyarrow = pa.compute.binary_join_element_wise(*parts, stream._literal("")).to_pylist()
    assert bytes(stream._join(parts)).decode() == "".join(by_pyarrow)


@compiled
@pytest.mark.parametrize(("pieces", "count", "problem"), [
    ([(np.array([0, 2, 1]), b"abc")], 2, "offsets that decrease"),
    ([(np.array([0, 2, 4]), b"abc")], 2, "offsets outside its data"),
    ([(np.array([-1, 0, 1]), b"abc")], 2, "offsets outside its data"),
    ([(np.array([0, 1]), b"abc")], 2, "fewer offsets than lines"),
    ([b"x", (np.array([0, 1]),)], 1, "a pair"),
    ([(np.array([0, 1, 2])[::2], b"ab")], 1, "contiguous"),
])
def test_the_compiled_join_refuses_offsets_outside_their_text_before_copying(pieces, count, problem):
    with pytest.raises((ValueError, BufferError), match=problem):
        stream._lines.join(pieces, count)


@compiled
def test_the_compiled_join_of_no_lines_and_no_pieces_is_empty():
    assert stream._lines.join([b"x", (np.array([0]), b"")], 0) == b""
    assert stream._lines.join([], 5) == b""


_COMMANDS = [
    (["grad", "log(x1*x2)*sin(x2)", "--json"], "x1,x2\n0.5,0.75\n1e-7,2\n-1,3\n0,0\n1e300,1e-300\n"),
    (["grad", "(sum(z*w), z[0])", "--seed", "(1, 1)", "--json"],
     "".join(json.dumps({"z": [a, b], "w": c}) + "\n" for a, b, c in [(1.5, -2.0, 3.0), (0.0, 1e-7, -1.0)])),
    (["grad", "sum(z*w)", "--at", "w=[2, 3]"], "z[0],z[1]\n1,2\n-3.5,1e-5\n"),
    (["jacobian", "z*x", "--json"], "x,z[0],z[1]\n2,1,2\nnan,1,inf\n"),
    (["grad", "x*y"], "x,y\n1,2\n1e22,-0.0\n"),
]


@compiled
@pytest.mark.parametrize(("command", "points"), _COMMANDS)
def test_lines_are_the_same_bytes_with_and_without_the_compiled_join(monkeypatch, command, points):
    arguments = [*command, "--points", "-"]
    with_helper = cli(*arguments, stdin=points)
    monkeypatch.setattr(stream, "_lines", None)
    by_pyarrow = cli(*arguments, stdin=points)
    assert with_helper.exit_code == by_pyarrow.exit_code == 0, by_pyarrow.stderr
    assert with_helper.stdout == by_pyarrow.stdout
    assert len(by_pyarrow.stdout.splitlines()) >= points.count("\n") - 1
