"""--points JSON Lines: where every line of a block is the plainest point, `{"x1": 0.5, "x2": -1e-3}`,
gradcli's compiled helper (inputs/_numbers.c) finds the numbers' texts and pyarrow turns them into
floats. What it takes must be what Python's json reads; what it refuses goes the way it went before."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradcli.inputs import jsonl
from tests.helpers import cli

compiled = pytest.mark.skipif(jsonl._numbers is None, reason="the compiled helper was not built (no C compiler)")

NAMES = ["x1", "x2", "y"]
_SPACE = st.sampled_from(["", "", " ", "  ", "\t", "\r", " \t"])
_NUMBER = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False).map(json.dumps),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["0", "-0", "0.0", "-0.0e-0", "1E5", "1e+5", "2.5E-3", "123456789012345678901234567890",
                     "5e-324", "1e400", "-1e400", "1e-400", "0.1", "9007199254740993"]),
)


@st.composite
def _plain_line(draw) -> str:
    order = draw(st.permutations(NAMES))
    s = lambda: draw(_SPACE)
    pairs = [f'{s()}"{name}"{s()}:{s()}{draw(_NUMBER)}{s()}' for name in order]
    return f"{s()}{{" + ",".join(pairs) + f"}}{s()}"


def _python_reads(line: str) -> dict[str, float] | None:
    """The point Python's json reads from a line as gradcli documents it (an integer is a float:
    `-0` keeps its sign; a key given twice is no point); None if it is no such point."""
    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        if len({key for key, _ in items}) != len(items):
            raise ValueError("a key given twice")
        return dict(items)

    try:
        point = json.loads(line, parse_int=float, object_pairs_hook=pairs)
    except ValueError:
        return None
    if type(point) is not dict or sorted(point) != sorted(NAMES) or any(type(v) is not float for v in point.values()):
        return None
    return point


def _read(lines: list[str]) -> dict[str, list[float]] | None:
    block = "\n".join(lines).encode()
    found = jsonl._plain_numbers(block, NAMES, len(lines))
    return None if found is None else {name: column.tolist() for name, column in found.items()}


@compiled
@settings(max_examples=150, deadline=None)
@given(st.lists(_plain_line(), min_size=1, max_size=8))
def test_plain_lines_are_read_as_python_reads_them(lines):
    found = _read(lines)
    assert found is not None, lines
    for i, line in enumerate(lines):
        expected = _python_reads(line)
        assert expected is not None
        for name in NAMES:
            assert found[name][i] == expected[name] or (math.isnan(found[name][i]) and math.isnan(expected[name]))
            assert math.copysign(1.0, found[name][i]) == math.copysign(1.0, expected[name])


@st.composite
def _changed_line(draw) -> str:
    line = draw(_plain_line())
    at = draw(st.integers(0, len(line)))
    how = draw(st.sampled_from(["insert", "delete", "replace"]))
    text = draw(st.sampled_from([*'{}[]":,.-+eE0123456789 \t\r\\ntruefalsNaIfiy"x1', "", "\u00e9", "\x00", '"x1": 1, ',
                                 "[1, 2]"]))
    if how == "insert":
        return line[:at] + text + line[at:]
    if how == "delete":
        return line[:at] + line[at + 1 :]
    return line[:at] + text + line[at + 1 :]


@compiled
@settings(max_examples=400, deadline=None)  # (a developer's runs each try new ones; CI replays the same)
@given(st.lists(st.one_of(_plain_line(), _changed_line()), min_size=1, max_size=6))
def test_what_the_helper_takes_is_what_python_reads_and_the_rest_is_left_to_the_readers_before(lines):
    found = _read(lines)
    if found is None:
        return  # pyarrow's reader, then the exact one, read it as before (tests/test_points_fast.py)
    for i, line in enumerate(lines):
        expected = _python_reads(line)
        assert expected is not None, line
        for name in NAMES:
            assert found[name][i] == expected[name], (line, name)
            assert math.copysign(1.0, found[name][i]) == math.copysign(1.0, expected[name])


@compiled
@pytest.mark.parametrize(("block", "count"), [
    (b'{"x1": 1, "x2": 2, "y": 3}\n', 2),  # a blank last line
    (b'{"x1": 1, "x2": 2, "y": 3}', 2),  # fewer lines than counted
    (b'{"x1": 1, "x2": 2, "y": 3}\n{"x1": 1, "x2": 2, "y": 3}', 1),  # more
    (b'{"x1": 1, "x2": 2, "y": 3}{"x1": 1, "x2": 2, "y": 3}', 1),  # two objects on a line
    (b'{"x1": 1, "x2": 2}', 1),  # a name missing
    (b'{"x1": 1, "x2": 2, "y": 3, "z": 4}', 1),  # a key that is no name
    (b'{"x\\u0031": 1, "x2": 2, "y": 3}', 1),  # an escape in a key
    (b'{"x1": NaN, "x2": 2, "y": 3}', 1),
    (b'{"x1": [1], "x2": 2, "y": 3}', 1),
    (b'{"x1": "1", "x2": 2, "y": 3}', 1),
    (b'{"x1": 1, "x2": 2, "y": 3,}', 1),
    (b'\xef\xbb\xbf{"x1": 1, "x2": 2, "y": 3}', 1),
    (b"", 1),
])
def test_the_helper_refuses_what_is_not_the_plainest_point(block, count):
    assert jsonl._numbers.texts(block, [name.encode() for name in NAMES], count) is None


@compiled
def test_the_helper_survives_any_bytes_and_any_count():
    # In a process of its own: a crash must fail this test, not end the run.
    code = """if True:
        import random
        from gradcli.inputs import _numbers
        random.seed(7)
        pieces = [b'{', b'}', b'"x1"', b'"y"', b':', b',', b' ', b'\\n', b'1', b'-', b'.', b'e', b'"', b'\\\\', b'\\x00', b'\\xff']
        for _ in range(20000):
            block = b''.join(random.choice(pieces) for _ in range(random.randint(0, 40)))
            for count in (1, 2, 3, block.count(b'\\n') + 1, len(block) + 1, 2**62):
                _numbers.texts(block, [b'x1', b'y'], count)
        for bad in ([b'x'] * 65, ['x1'], None):
            try:
                _numbers.texts(b'{"x": 1}', bad, 1)
            except TypeError:
                pass
        print('held')
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "held", done.stderr


@compiled
def test_the_helper_holds_no_more_than_the_numbers_of_a_wide_block():
    # Each name's texts were once given a buffer as big as the block: 64 names, 64 blocks' worth
    # of memory at once (8 MB blocks from a file: half a gigabyte), enough to end a run under a
    # memory limit that the readers before it pass.
    import random
    import tracemalloc

    random.seed(11)
    names = [f"a{i}" for i in range(64)]
    lines = ["{" + ", ".join(f'"{name}": {random.uniform(-9, 9)!r}' for name in names) + "}" for _ in range(300)]
    block = "\n".join(lines).encode()
    tracemalloc.start()
    try:
        found = jsonl._numbers.texts(block, [name.encode() for name in names], len(lines))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found is not None
    offsets = len(names) * (len(lines) + 1) * 8
    assert peak < offsets + 2 * len(block), (peak, len(block))
    columns = jsonl._plain_numbers(block, names, len(lines))
    assert columns is not None
    for i, line in enumerate(lines):
        assert {name: columns[name][i] for name in names} == json.loads(line)


@compiled
def test_the_helper_allocates_nothing_for_more_lines_than_a_block_of_points_can_have():
    # A point of 64 names and then 200,000 blank lines: no block of plain points has that many
    # lines for its bytes; the helper refuses it at once, not after 64 offsets of 200,001 lines
    # (100 MB; 4 GB for a block of 8 MB read from a file).
    import tracemalloc

    names = [f"a{i}" for i in range(64)]
    block = ("{" + ", ".join(f'"{name}": 1' for name in names) + "}").encode() + b"\n" * 200_000
    tracemalloc.start()
    try:
        found = jsonl._numbers.texts(block, [name.encode() for name in names], block.count(b"\n") + 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found is None
    assert peak < len(block), peak


def _big_file(tmp_path, lines: list[str]) -> str:
    path = tmp_path / "points.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("helper", ["compiled", "pyarrow"])
def test_a_big_json_lines_file_gives_the_values_python_reads_with_and_without_the_helper(tmp_path, monkeypatch, helper):
    if helper == "compiled" and jsonl._numbers is None:
        pytest.skip("the compiled helper was not built")
    if helper == "pyarrow":
        monkeypatch.setattr(jsonl, "_numbers", None)
    spellings = ['{{"x1": {a}, "x2": {b}}}', '{{"x2":{b},"x1":{a}}}', ' {{ "x1" : {a} ,\t"x2" : {b} }}\r',
                 '{{"x1": {a}, "x2": {b}}}']
    values = [((i * 7919) % 1000 / 7.0 - 50.0, (i * 104729) % 997 * 1e-3 - 0.5) for i in range(40000)]
    lines = [spellings[i % len(spellings)].format(a=repr(a), b=repr(b)) for i, (a, b) in enumerate(values)]
    lines[30000] = '{"x1": NaN, "x2": 1.0}'  # a block that goes pyarrow's way
    values[30000] = (math.nan, 1.0)
    lines[35000] = '{"x1": 1e-400, "x2": -0}'
    values[35000] = (0.0, -0.0)
    run = cli("grad", "x1 - x2", "--points", _big_file(tmp_path, lines), "--csv")
    assert run.exit_code == 0, run.stderr
    header, *rows = run.stdout.splitlines()
    assert header == "value,grad_x1,grad_x2"
    assert rows == [f"{a - b!r},1.0,-1.0" for a, b in values]


def test_a_bad_line_among_plain_ones_is_still_named(tmp_path):
    lines = [f'{{"x1": {i}.5, "x2": 2}}' for i in range(30000)]
    lines[25000] = '{"x1": 01, "x2": 2}'
    run = cli("grad", "x1 - x2", "--points", _big_file(tmp_path, lines), "--csv")
    assert run.exit_code == 2
    assert "line 25001" in run.stderr
    assert len(run.stdout.splitlines()) == 25001  # the header and the points before it
