"""--points JSON Lines and CSV: where every line of a block is a plain point, `{"x1": 0.5, "x2": -1e-3}`,
gradcli's compiled helper (inputs/_numbers.c) reads its numbers at once. What it takes must be what
Python reads (float, json); what it refuses goes to the line reader, which names each bad line."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradcli.inputs import rows as formats
from tests.helpers import cli

helper = formats.helper
compiled = pytest.mark.skipif(helper is None, reason="the compiled helper was not built (no C compiler)")

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


def _columns(block: bytes, names: list[str], count: int) -> dict[str, list[float]] | None:
    found = helper.json(block, [name.encode() for name in names], count)
    if found is None:
        return None
    return {name: np.frombuffer(column).tolist() for name, column in zip(names, found[0], strict=True)}


def _read(lines: list[str]) -> dict[str, list[float]] | None:
    return _columns("\n".join(lines).encode(), NAMES, len(lines))


@compiled
@settings(max_examples=150, deadline=None)
@given(st.lists(_plain_line(), min_size=1, max_size=8))
def test_plain_lines_are_read_as_python_reads_them(lines):
    found = _read(lines)
    expected_points = [_python_reads(line) for line in lines]
    if any(math.isinf(v) for point in expected_points if point for v in point.values()):
        assert found is None, lines  # 1e400: a bad value, named by the line reader
        return
    assert found is not None, lines
    for i, expected in enumerate(expected_points):
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
        return  # the line reader reads it (tests/test_points_fast.py)
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
    (b'{"x1": -NaN, "x2": 2, "y": 3}', 1),  # (NaN, Infinity, -Infinity as Python's json reads them)
    (b'{"x1": nan, "x2": 2, "y": 3}', 1),
    (b'{"x1": [1], "x2": 2, "y": 3}', 1),
    (b'{"x1": "1", "x2": 2, "y": 3}', 1),
    (b'{"x1": 1, "x2": 2, "y": 3,}', 1),
    (b'\xef\xbb\xbf{"x1": 1, "x2": 2, "y": 3}', 1),
    (b"", 1),
])
def test_the_helper_refuses_what_is_not_the_plainest_point(block, count):
    assert helper.json(block, [name.encode() for name in NAMES], count) is None


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
                _numbers.json(block, [b'x1', b'y'], count, [b'id'])
                _numbers.csv(block, 3, [0, 2], [1])
        for bad in ([b'x'] * 65, ['x1'], None):
            try:
                _numbers.json(b'{"x": 1}', bad, 1)
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
        found = helper.json(block, [name.encode() for name in names], len(lines))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found is not None
    columns_bytes = len(names) * len(lines) * 8
    assert peak < columns_bytes + 2 * len(block), (peak, len(block))
    columns = _columns(block, names, len(lines))
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
        found = helper.json(block, [name.encode() for name in names], block.count(b"\n") + 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found is None
    assert peak < len(block), peak


def _big_file(tmp_path, lines: list[str]) -> str:
    path = tmp_path / "points.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("built", [True, False])
def test_a_big_json_lines_file_gives_the_values_python_reads_with_and_without_the_helper(tmp_path, monkeypatch, built):
    if built and helper is None:
        pytest.skip("the compiled helper was not built")
    if not built:
        monkeypatch.setattr(formats, "helper", None)
    spellings = ['{{"x1": {a}, "x2": {b}}}', '{{"x2":{b},"x1":{a}}}', ' {{ "x1" : {a} ,\t"x2" : {b} }}\r',
                 '{{"x1": {a}, "x2": {b}}}']
    values = [((i * 7919) % 1000 / 7.0 - 50.0, (i * 104729) % 997 * 1e-3 - 0.5) for i in range(40000)]
    lines = [spellings[i % len(spellings)].format(a=repr(a), b=repr(b)) for i, (a, b) in enumerate(values)]
    lines[30000] = '{"x1": NaN, "x2": 1.0}'  # a block the line reader reads
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


# --- CSV -----------------------------------------------------------------------------------------

_CELL = st.one_of(
    _NUMBER,
    st.floats().map(repr),  # nan, inf, -inf as Python writes them
    st.sampled_from(["+1.5", ".5", "5.", "-.5e-3", "NaN", "-Infinity", "+inf", "iNf", "-nan", "1_000", "0x10", "",
                     "1e", "e5", ".", "+", "1.5.2", "\u0661", "nan(1)", "infinit", "1e400", "--1"]),
)


@st.composite
def _csv_line(draw) -> str:
    cells = [draw(_SPACE) + draw(_CELL) + draw(_SPACE) for _ in range(2)]
    if draw(st.booleans()):
        cells.insert(draw(st.integers(0, 2)), draw(st.sampled_from(["", "id7", '"a"', "é", "x y"])))
    else:
        cells.insert(1, "t")
    return ",".join(cells)


def _python_csv(line: str) -> tuple[float, float, str] | None:
    """The numbers of columns 0 and 2 and the text of column 1 as the line reader reads them
    (gradcli.inputs.csv._number), None for a bad line."""
    from gradcli.inputs.csv import _number

    cells = line.split(",")
    if len(cells) != 3:
        return None
    a, b = _number(cells[0]), _number(cells[2])
    if isinstance(a, str) or isinstance(b, str):
        return None
    return a, b, cells[1]


@compiled
@settings(max_examples=400, deadline=None)
@given(st.lists(_csv_line(), min_size=1, max_size=6), st.booleans())
def test_what_the_helper_takes_of_csv_is_what_the_line_reader_reads(lines, crlf):
    block = ("\r\n" if crlf else "\n").join(lines).encode()
    found = helper.csv(block, 3, [0, 2], [1])
    if found is None:
        return  # the line reader names the bad line (tests/test_points_input.py)
    (first, last), (texts,) = found
    assert len(first) == len(last) == 8 * len(lines)
    cells = texts.decode().split("\n")[:-1]
    for i, line in enumerate(lines):
        expected = _python_csv(line)
        assert expected is not None, line
        for column, want in ((first, expected[0]), (last, expected[1])):
            got = np.frombuffer(column)[i]
            assert got == want or (math.isnan(got) and math.isnan(want)), line
            assert math.copysign(1.0, got) == math.copysign(1.0, want), line
        assert cells[i] == expected[2]


@compiled
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(allow_nan=False, allow_infinity=False), st.floats(-1e3, 1e3)), min_size=1,
                max_size=8))
def test_plain_csv_numbers_are_read_as_python_reads_them(pairs):
    lines = [f"{a!r}, {b:.17g}" for a, b in pairs]
    found = helper.csv("\n".join(lines).encode(), 2, [0, 1], [])
    assert found is not None
    (first, last), _ = found
    assert np.frombuffer(first).tolist() == [a for a, _ in pairs]
    assert np.frombuffer(last).tolist() == [float(f"{b:.17g}") for _, b in pairs]


@compiled
@pytest.mark.parametrize("block", [b"1,2\n\n3,4", b"1,2\n3", b"1,2,3", b"1,\n", b"1,2\n", b"1,1e400", b"1,2\r3,4",
                                   b"\xef\xbb\xbf1,2"])
def test_the_csv_helper_refuses_what_the_line_reader_must_judge(block):
    assert helper.csv(block, 2, [0, 1], []) is None


@compiled
@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_the_helpers_leave_a_line_past_the_limit_to_the_line_reader(end):
    # the limit counts a line's bytes without its LF (a CR counted), as the line reader counts characters
    csv_lines = [b"1,2", b"10,20" + end[:-1], b"3,4"]
    json_lines = [b'{"x": 1}', b'{"x": 10}' + end[:-1], b'{"x": 3}']
    for read, lines in ((lambda block, longest: helper.csv(block, 2, [0, 1], [], longest), csv_lines),
                        (lambda block, longest: helper.json(block, [b"x"], 3, [], longest), json_lines)):
        block = b"\n".join(lines)
        longest = max(map(len, lines))
        assert read(block, longest) is not None
        assert read(block, longest - 1) is None


@compiled
def test_the_json_helper_gives_the_other_keys_values_as_their_json_text():
    block = b'{"id": "a,b", "x1": 1, "x2": 2, "y": 3, "n": null}\n{"x2": 5, "n": 7, "id": "", "y": -0, "x1": 1e-3}'
    found = helper.json(block, [b"x1", b"x2", b"y"], 2, [b"id", b"n"])
    assert found is not None
    numbers, values = found
    assert [np.frombuffer(column).tolist() for column in numbers] == [[1.0, 1e-3], [2.0, 5.0], [3.0, -0.0]]
    assert values == [b'"a,b"\n""\n', b"null\n7\n"]
    for block in (b'{"id": "a\\"b", "x1": 1, "x2": 2, "y": 3, "n": 1}', b'{"id": [1], "x1": 1, "x2": 2, "y": 3, "n": 1}',
                  b'{"x1": 1, "x2": 2, "y": 3, "n": 1}'):  # an escape, a list, a key missing: the line reader's
        assert helper.json(block, [b"x1", b"x2", b"y"], 1, [b"id", b"n"]) is None


@pytest.mark.parametrize("built", [True, False])
def test_a_big_csv_file_with_spelled_numbers_and_a_text_column_reads_the_same_with_and_without_the_helper(
        tmp_path, monkeypatch, built):
    if built and helper is None:
        pytest.skip("the compiled helper was not built")
    if not built:
        monkeypatch.setattr(formats, "helper", None)
    values = [((i * 7919) % 1000 / 7.0 - 50.0, (i * 104729) % 997 * 1e-3 - 0.5) for i in range(40000)]
    lines = [f"id{i},{a!r}, {b!r}" for i, (a, b) in enumerate(values)]
    lines[30000] = "odd,NaN,1.0"
    values[30000] = (math.nan, 1.0)
    lines[35000] = 'q"q,-inf,+.5e0'
    values[35000] = (-math.inf, 0.5)
    path = tmp_path / "points.csv"
    path.write_text("id,x1,x2\n" + "\r\n".join(lines) + "\r\n")
    run = cli("grad", "x1 - x2", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    header, *rows = run.stdout.splitlines()
    assert header == "id,value,grad_x1,grad_x2"
    assert rows[30000] == "odd,nan,1.0,-1.0" and rows[35000] == '"q""q",-inf,1.0,-1.0'
    assert rows[:30000] == [f"id{i},{a - b!r},1.0,-1.0" for i, (a, b) in enumerate(values[:30000])]


def test_a_helper_built_from_an_older_source_is_not_used():
    # An editable install keeps the .so it was built with: one without csv() reads line by line, never exit 4.
    code = ("import sys, types; sys.modules['gradcli.inputs._numbers'] = types.ModuleType('_numbers'); "
            "sys.argv = ['gradcli', *sys.argv[1:]]; from gradcli.__main__ import main; main()")
    done = subprocess.run([sys.executable, "-c", code, "grad", "x*y", "--points", "-", "--csv"],
                          input="x,y\n" + "".join(f"{i},2\n" for i in range(70000)), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"{69999 * 2.0!r},2.0,69999.0"
