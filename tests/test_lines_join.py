"""--points lines are put together by gradcli's compiled helper (render/_lines.c) where pip built
it, by pyarrow's binary_join_element_wise where it did not: both write the same bytes, and the
helper checks every offset it is given before it copies a byte."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

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



@compiled
@pytest.mark.parametrize(("offsets", "problem"), [
    (np.array([0.0, 0.0, 0.0]), "64-bit integers"),
    (np.array([0, 0, 0, 0, 0, 0], dtype=np.int32), "64-bit integers"),
    (np.zeros(3, dtype=np.uint64), "64-bit integers"),
])
def test_the_compiled_join_takes_offsets_as_64_bit_integers_or_raw_bytes_only(offsets, problem):
    with pytest.raises(ValueError, match=problem):
        stream._lines.join([(offsets, b"abc")], 2)
    raw = np.array([0, 1, 3], dtype=np.int64).tobytes()
    assert stream._lines.join([(memoryview(raw), b"abc")], 2) == stream._lines.join([(bytearray(raw), b"abc")], 2) == b"abc"


def _alone(code: str) -> subprocess.CompletedProcess[str]:
    """`code` run by a Python of its own (a crash or a hang there fails the test, not the test run)."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=30)


@compiled
def test_the_compiled_join_of_the_most_lines_a_count_can_say_is_refused_or_empty_at_once():
    done = _alone("""
        import sys
        import numpy as np
        from gradcli.render import _lines
        before = np.array([0, 0, 1, 3], dtype=np.int64)  # the offset before the slice is 0, as a wrapped count + 1 would find
        try:
            _lines.join([(before[1:], b"abc")], sys.maxsize)
        except ValueError as error:
            print(error)
        print(_lines.join([b""], sys.maxsize) == b"", _lines.join([b"", (np.zeros(3, dtype=np.int64), b"")], 2) == b"")
    """)
    assert (done.returncode, done.stdout, done.stderr) == (0, "piece 0: fewer offsets than lines + 1\nTrue True\n", "")


@compiled
def test_offsets_changed_by_another_thread_while_the_compiled_join_copies_are_refused_not_followed():
    done = _alone("""
        import json
        import threading
        import numpy as np
        from gradcli.render import _lines
        count, outcomes = 2_000_000, set()
        for trial in range(8):
            offsets = np.arange(count + 1, dtype=np.int64)
            started = threading.Event()
            def spoil():
                started.wait()
                offsets[count // 2 :] = 0  # later lines would end before they start
                offsets[count - 1] = count + 999  # and one past the data the join was given
            spoiler = threading.Thread(target=spoil)
            spoiler.start()
            started.set()
            try:
                outcomes.add(_lines.join([(offsets, b"x" * count)], count) == b"x" * count)
            except ValueError as error:
                outcomes.add(str(error))
            spoiler.join()
        print(json.dumps(sorted(map(str, outcomes))))
    """)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) <= {"True", "piece 0: offsets that decrease", "piece 0: offsets outside its data",
                                      "offsets changed while the lines were joined"}


_COMMANDS = [
    (["grad", "log(x1*x2)*sin(x2)", "--json"], "x1,x2\n0.5,0.75\n1e-7,2\n-1,3\n0,0\n1e300,1e-300\n"),
    (["grad", "(sum(z*w), z[0])", "--seed", "(1, 1)", "--json"],
     "".join(json.dumps({"z": [a, b], "w": c}) + "\n" for a, b, c in [(1.5, -2.0, 3.0), (0.0, 1e-7, -1.0)])),
    (["grad", "sum(z*w)", "--at", "w=[2, 3]"], "z[0],z[1]\n1,2\n-3.5,1e-5\n"),
    (["jacobian", "z*x", "--json"], "x,z[0],z[1]\n2,1,2\nnan,1,inf\n"),
    (["grad", "x*y"], "x,y\n1,2\n1e22,-0.0\n"),
    (["jvp", "(z*x, x*x)", "--tangent", "z=[1, 0],x=1", "--json", "--chunk-size", "1"],
     "x,z[0],z[1]\n2,1,2\nnan,1,inf\n-1e-7,3,4\n"),
    (["jacobian", "m @ m"], "m[0][0],m[0][1],m[1][0],m[1][1]\n1,2,3,4\n-1e-300,nan,5e-324,1e16\n"),
    (["grad", "x/y", "--json"], "x,y\n"),  # no points: no lines
    (["grad", "sum(exp(z))", "--json"],  # lines of some 400 numbers, each a piece
     "".join(json.dumps({"z": [float(i + j) / 7 for i in range(200)]}) + "\n" for j in range(3))),
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
