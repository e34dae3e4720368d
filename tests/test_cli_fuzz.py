"""A fuzzer over what users type into options and files, for every command: the answer is a result
(exit 0) or gradcli's own one-line error (exit 2), never an internal error (exit 4), a traceback, or
output on stdout before an error."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import Run, cli

# 40 examples a test in the README's run (a developer's runs each try new ones; CI replays the same);
# GRADCLI_FUZZ_EXAMPLES=2000 explores more.
FUZZ = settings(max_examples=int(__import__("os").environ.get("GRADCLI_FUZZ_EXAMPLES", "40")), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Programs over a scalar x and whatever y turns out to be, each command's own kind of output.
PROGRAMS = ["x*y", "sum(x*y)", "log(x)*sin(y)", "sum(y)**0.5", "y", "x/y", "max(x, y)", "(x, sum(y))"]

# The pieces values are made of: numbers ordinary and extreme, brackets, ranges, names, junk.
VALUE_TOKENS = ["0", "-0", "1", "-3", "0.5", "1e-300", "1e308", "1e309", "-1e999", "nan", "inf", "-inf", "pi", "e",
                "9" * 400, "[", "]", ",", "(", ")", "arange", "linspace", "ones", "=", "x", "y", " ", "..", "-", "+",
                "*", "'", "\x00", "\x1b", "é", "[]", "[[", "]]", "0x10", "1_000", "True", ";", ":"]
value_text = st.lists(st.sampled_from(VALUE_TOKENS), max_size=12).map("".join)
assignments = st.one_of(
    value_text.map(lambda v: f"y={v}"),
    st.tuples(value_text, value_text).map(lambda p: f"x={p[0]},y={p[1]}"),
    value_text,
    st.text(max_size=20),
)


def _expect_clean(run: Run) -> None:
    assert run.exit_code in (0, 2), (run.exit_code, run.stderr)
    assert "Traceback" not in run.stderr
    assert "internal error" not in run.stderr
    if run.exit_code == 2:
        assert run.stdout == "", run.stdout
        assert run.stderr.startswith("gradcli: error: "), run.stderr


@FUZZ
@given(st.sampled_from(["grad", "graph", "explain", "jacobian", "hessian", "jvp"]), st.sampled_from(PROGRAMS),
       assignments, st.booleans())
def test_any_at_text_gives_a_result_or_a_clean_error(command, program, at, as_json):
    options = ["--at", "x=0.5", "--at", at] if not at.startswith("x=") else ["--at", at]
    if command == "jvp":
        options += ["--tangent", "x=1"]
    if as_json and command not in ("graph", "explain"):
        options.append("--json")
    _expect_clean(cli(command, "--", program, *options))


@FUZZ
@given(st.sampled_from(PROGRAMS), st.sampled_from(["y=[1,2]", "y=2", "y=[[1,2],[3,4]]"]),
       st.one_of(value_text, st.text(max_size=15)), st.booleans())
def test_any_seed_text_gives_a_result_or_a_clean_error(program, at, seed, as_json):
    options = ["--at", "x=0.5", "--at", at, "--seed", seed] + (["--json"] if as_json else [])
    _expect_clean(cli("grad", "--", program, *options))


@FUZZ
@given(st.sampled_from(PROGRAMS), st.sampled_from(["y=[1,2]", "y=2"]), assignments, st.booleans())
def test_any_tangent_text_gives_a_result_or_a_clean_error(program, at, tangent, as_json):
    options = ["--at", "x=0.5", "--at", at, "--tangent", tangent] + (["--json"] if as_json else [])
    _expect_clean(cli("jvp", "--", program, *options))


# --- --points lines ---------------------------------------------------------------------

CELL_TOKENS = ["0", "1", "-2.5", "1e309", "nan", "NaN", "inf", "-inf", "", " ", "x", "#", '"', "[", "]", "1,2",
               "\x00", "\xff", "é", "9" * 30, "true", "-0"]
cell = st.lists(st.sampled_from(CELL_TOKENS), max_size=3).map("".join)
HEADERS = ["x,y", "y,x", "x,y[0],y[1]", "x,y[0],y[1],y[2]", "x,y[1],y[0]", "x", "y", "x,y,bogus", "x,y[0]",
           "x,y[99999999999999999999]", "x,y[0][1]", "#x,y", "", "x,x"]

json_scalar = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-(10**400),
                        max_value=10**400), st.booleans(), st.none(), st.text(max_size=3))
json_value = st.recursive(json_scalar, lambda inner: st.lists(inner, max_size=3), max_leaves=8)


def _json_line(point: dict[str, object]) -> str:
    return json.dumps(point, allow_nan=True)


json_lines = st.one_of(
    st.dictionaries(st.sampled_from(["x", "y", "bogus"]), json_value, max_size=3).map(_json_line),
    st.text(max_size=20),
)
COMMANDS = [("grad", []), ("jacobian", []), ("jvp", ["--tangent", "x=1"])]


@FUZZ
@given(st.sampled_from(COMMANDS), st.sampled_from(PROGRAMS), st.sampled_from(HEADERS),
       st.lists(st.lists(cell, min_size=1, max_size=4).map(",".join), max_size=5),
       st.sampled_from([[], ["--csv"], ["--json"]]), st.booleans())
def test_any_csv_points_give_results_or_a_clean_error(command, program, header, rows, output, skip_bad):
    name, options = command
    text = "\n".join([header, *rows]) + "\n"
    run = cli(name, "--", program, "--points", "-", *options, *output, *(["--skip-bad"] if skip_bad else []),
              stdin=text)
    _expect_points_clean(run)


@FUZZ
@given(st.sampled_from(COMMANDS), st.sampled_from(PROGRAMS), st.lists(json_lines, min_size=1, max_size=5),
       st.sampled_from([[], ["--csv"], ["--json"]]), st.booleans())
def test_any_json_points_give_results_or_a_clean_error(command, program, lines, output, skip_bad):
    name, options = command
    run = cli(name, "--", program, "--points", "-", *options, *output, *(["--skip-bad"] if skip_bad else []),
              stdin="\n".join(lines) + "\n")
    _expect_points_clean(run)


def _expect_points_clean(run: Run) -> None:
    # A stream may have written the points before a bad line: that is the documented behaviour.
    assert run.exit_code in (0, 2), (run.exit_code, run.stderr)
    assert "Traceback" not in run.stderr
    assert "internal error" not in run.stderr
    if run.exit_code == 2:
        assert "gradcli: error: " in run.stderr, run.stderr
