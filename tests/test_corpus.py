"""The regression corpus (issue #21): every example that ever worked still works, with the same numbers.

tests/reference/corpus.jsonl holds the programs of README.md (every version), DESIGN.md's worked
examples, samples/*.grad and the tests (current and removed), each with its point and options,
and what gradcli answered at the baseline commit (tests/reference/make_corpus.py says how it was
made and how to make it again). Here each case is put to gradcli again:

- a case answered at the baseline (exit 0) still exits 0, with the same value, derivatives and
  point (`at`), of the same shapes: NaN where NaN was (null in JSON), otherwise within 1e-12
  relative (to the number, or to the largest number of the same result);
- a case refused at the baseline (exit 2) may now be answered;
- no case exits 4.

A case whose answer changes on purpose goes in CHANGED_ON_PURPOSE, with its reason (only where
the old answer was wrong against PyTorch). The regressions to fix (a crash at the baseline that
an older commit answered) are xfail(strict=True): they pass when fixed, and then lose the mark.
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

CORPUS = Path(__file__).resolve().parent / "reference" / "corpus.jsonl"
CASES: list[dict[str, Any]] = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
BY_ID = {case["id"]: case for case in CASES}
RTOL = 1e-12
DERIVATIVES = ("grad", "jacobian", "hessian", "jvp")  # commands whose --json holds numbers
ANSWER_KEYS = ("at", "tangent", "value", "grad", "jacobian", "hessian", "jvp")

# Cases whose answer changes on purpose: id -> (why, the new answer or None). Only where the old
# answer was wrong against PyTorch. The new answer is what the case's "answer" holds (the --json
# keys, or value/grad/... of the library's result), and the case must exit 0 with it; None: the
# answer is not compared, and the case must only not crash (exit 0 or 2).
_BARE_MAX = (
    "issue #21's rule: a bare max(a, b) / min(a, b) of two values is the elementwise maximum / minimum wh"
    "atever b is (an int included), as in Python, mathematics and every release before ddfb8b6; PyTorch's"
    " dim form is spelled torch.max(x, dim), x.max(dim) or max(x, dim=...), and .values, .indices, unpack"
    "ing and keepdim= still read it. At a8f5c0f these read the int as PyTorch's dim; now t[k] indexes the"
    " elementwise value, and a tuple output is one value (tests/test_lowering.py holds the new readings t"
    "o torch.maximum)"
)
_GIVEN_0D = (
    "issue #21: a 0-d class weight of cross_entropy / nll_loss, a 0-d weight or bias of layer_norm, a 0-d conv bias, is "
    "refused by PyTorch (weight tensor should be defined either for all 3 classes or no classes ...; Expected bias "
    "to be of same shape as normalized_shape ...); gradcli broadcast it, a number PyTorch does not give: now exit 2 "
    "in PyTorch's words (the rows' examples that used one take a weight per class)"
)
_NUMPY_SOLVE = (
    "issue #21's rule for np.: np.linalg.solve(a, b) of a (2, 3, 3) and b (2, 3) is NumPy 2's error (a b of two axes "
    "is a stack of matrices, here of 2 rows against 3); gradcli answered PyTorch's reading of b as 2 vectors. Now "
    "exit 2; torch.linalg.solve(a, b) still answers it (tests/test_linalg.py, tests/test_numpy_spellings.py)"
)
_SEQUENCE_AS_TUPLE = (
    "issue #21: a list index holding lists is the tuple of its items, as PyTorch 2.13 reads it (treatSequenceAsTuple, with "
    "its deprecation warning): a[[[0, 1], [1, 1]]] is a[[0, 1], [1, 1]], two elements, where gradcli read one index "
    "tensor of shape (2, 2) (tests/test_indexing.py holds the readings to PyTorch)"
)
CHANGED_ON_PURPOSE: dict[str, tuple[str, dict[str, Any] | None]] = {
    "36e3321bfc6a": (_NUMPY_SOLVE, None),
    "5cbd87924547": (_NUMPY_SOLVE, None),
    "1033643f77db": (_SEQUENCE_AS_TUPLE, None),
    "1391d532e742": (_SEQUENCE_AS_TUPLE, None),
    "02fb7d6b3630": (_BARE_MAX, None),
    "06c502ce3420": (_BARE_MAX, None),
    "0adfa25c6073": (_BARE_MAX, None),
    "0ca0481590fe": (_BARE_MAX, None),
    "21977322a780": (_BARE_MAX, None),
    "28aca22cda00": (_BARE_MAX, None),
    "53abe0e42333": (_BARE_MAX, None),
    "54a30cf44d99": (_BARE_MAX, None),
    "83718d5e26bf": (_BARE_MAX, None),
    "8ce7e3e0dac0": (_BARE_MAX, None),
    "b55a4ab05ed0": (_BARE_MAX, None),
    "d3980a005980": (_BARE_MAX, None),
    "df18c4061e70": (_BARE_MAX, None),
    "df488009a30c": (_BARE_MAX, None),
    "e2d71c579b43": (_BARE_MAX, None),
    "ebe7715c9790": (_BARE_MAX, None),
    "232d6d8d5100": (_GIVEN_0D, None),
    "29b01eae2ab0": (_GIVEN_0D, None),
    "0904fb71ee00": (_GIVEN_0D, None),
    "390661c50e50": (_GIVEN_0D, None),
    "8ed61e783ba0": (_GIVEN_0D, None),
}

# The regressions to fix: cases the corpus marks "regression" (a crash, exit 4, or a refusal at the
# baseline, although older commits answered them; the line says since when, and holds PyTorch's
# answer). Those listed here are xfail(strict=True); a fixed one leaves the list and from then on
# must give PyTorch's answer. At a8f5c0f there were eight, all bare max/min of two values (issue
# #21), each answered from the first commit (d1e0a1f) on; all eight give PyTorch's answer at 9f130f2:
#   972162189955  gradcli grad 'max(x, 0)' --at x=2: exit 4
#   69df19a455b8  gradcli grad 'min(relu(x), 6)' --at x=2: exit 4
#   3d2358caa24c  gradcli grad 'sum(g*max([1, 2, 3], g))' --at g=[1.5,2.5,2.5]: exit 4 (IndexError)
#   bf1fadee6ecb  gradcli grad 'max(x, 0)' --at x=[-1,0.5,2] --seed ones: refused, asks for a tuple seed
#   f18fe20cb915  gradcli grad 'min(max(x + 3, 0), 6) / 6' --at x=-1: refused, "a tuple is not a value"
#   bf8efa8e2d9c  grad('max(x, 2)', at={'x': 0.7}, seed='ones') (tests/test_graph.py, ff1f972 to ddfb8b6): exit 4
#   9b911f984c52  grad('max(x, 0)', at={'x': 2.0}, seed=1.0) (tests/test_reductions.py, ddfb8b6 to 89604a8): exit 4
#   484d577c15bc  grad('max(x, 0)', at={'x': 2.0}, seed=nan) (tests/test_reductions.py, ddfb8b6 to 89604a8): exit 4
REGRESSIONS_TO_FIX: dict[str, str] = {}

CHUNK = 150  # cases a test item puts to gradcli (thousands of items would cost more than the cases)


# --- the answers ------------------------------------------------------------------------------


def _decode(value: Any) -> Any:
    """make_corpus.encode's tags back to Python and NumPy values."""
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"float"}:
            return float(value["float"])
        if set(value) == {"tuple"}:
            return tuple(_decode(v) for v in value["tuple"])
        if "ndarray" in value and set(value) <= {"ndarray", "dtype", "shape"}:
            array = np.array(_decode(value["ndarray"]), dtype=value.get("dtype", "float64"))
            return array.reshape(value["shape"]) if "shape" in value else array
        return {k: _decode(v) for k, v in value.items()}
    return value


class _Runner:
    """The command line in this process, as tests/helpers.py's `cli` runs it, with typer's command
    built once (typer builds it again on every CliRunner.invoke: 20 ms, more than most cases)."""

    def __init__(self) -> None:
        from typer.main import get_command
        from typer.testing import CliRunner

        from gradcli.cli import app

        self.command = get_command(app)
        self.runner = CliRunner()

    def __call__(self, argv: list[str]) -> tuple[int, str, str]:
        with self.runner.isolation() as (stdout, stderr, _):
            try:
                self.command.main(args=argv, prog_name="gradcli")
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
            except Exception as error:  # what gradcli let through: a crash
                code = 4
                sys.stderr.write(repr(error))
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
            return code, stdout.getvalue().decode("utf-8", "replace"), stderr.getvalue().decode("utf-8", "replace")


_runner: _Runner | None = None


def _run_command(case: dict[str, Any]) -> tuple[int, Any, str]:
    global _runner
    _runner = _runner or _Runner()
    command, *rest = case["argv"]
    if rest[0] == "--":  # a program that starts with '-': after the options and '--', as a shell gives it
        rest = [*rest[2:], "--", rest[1]]
    extra = ["--json"] if command in DERIVATIVES else (["--format", "json"] if command == "graph" else [])
    argv = [command, *rest[:-2], *extra, *rest[-2:]] if "--" in rest else [command, *rest, *extra]
    exit_code, stdout, stderr = _runner(argv)
    if exit_code != 0 or command not in DERIVATIVES:
        return exit_code, None, stderr
    document = json.loads(stdout)
    return 0, {k: document[k] for k in ANSWER_KEYS if k in document}, ""


def _library_answer(call: str, result: Any) -> dict[str, Any]:
    if call == "grad":
        return {"value": result.value, "grad": dict(result.grad)}
    if call == "jacobian":
        return {"value": tuple(result.outputs), "jacobian": list(result.blocks)}
    if call == "jvp":
        return {"value": result.value, "jvp": result.jvp}
    return {"value": result.value, "grad": dict(result.grad), "hessian": dict(result.blocks)}


def _run_call(case: dict[str, Any]) -> tuple[int, Any, str]:
    import gradcli
    from gradcli import derivatives
    from gradcli.errors import GradcliError

    function = gradcli.grad if case["call"] == "grad" else getattr(derivatives, case["call"])
    kwargs = {k: _decode(v) for k, v in case["kwargs"].items()}
    try:
        return 0, _library_answer(case["call"], function(case["program"], **kwargs)), ""
    except GradcliError as error:
        return (2 if error.exit_code == 2 else 4), None, repr(error)
    except Exception as error:
        return 4, None, repr(error)


def run_case(case: dict[str, Any]) -> tuple[int, Any, str]:
    """(exit code, what was computed or None, stderr) of a case, from the gradcli under test."""
    return _run_command(case) if "argv" in case else _run_call(case)


def _numbers(value: Any) -> list[float]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _numbers(v)]
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _numbers(v)]
    if isinstance(value, np.ndarray):
        return [float(x) for x in value.ravel()] if value.dtype.kind in "biuf" else []
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return [float(value)]
    return []


def _close(a: float, b: float, scale: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= RTOL * max(abs(a), abs(b), scale)


def difference(expected: Any, actual: Any, where: str = "", scale: float | None = None) -> str | None:
    """Where `actual` differs from `expected` (None where it does not): keys, lengths, shapes, numbers."""
    if scale is None:
        finite = [abs(x) for x in _numbers(expected) if math.isfinite(x)]
        scale = max(finite, default=0.0)
    if isinstance(expected, dict):
        if not isinstance(actual, dict) or set(expected) != set(actual):
            keys = sorted(actual) if isinstance(actual, dict) else type(actual).__name__
            return f"{where}: keys {sorted(expected)} became {keys}"
        for key in expected:
            found = difference(expected[key], actual[key], f"{where}.{key}", scale)
            if found:
                return found
        return None
    if isinstance(expected, np.ndarray) or isinstance(actual, np.ndarray):
        e, a = np.asarray(expected), np.asarray(actual)
        if e.shape != a.shape:
            return f"{where}: shape {e.shape} became {a.shape}"
        if e.dtype.kind not in "biuf" or a.dtype.kind not in "biuf":
            return None if np.array_equal(e, a) else f"{where}: {e!r} became {a!r}"
        for index, (x, y) in enumerate(zip(e.ravel().astype(float), a.ravel().astype(float))):
            if not _close(float(x), float(y), scale):
                at = ", ".join(str(int(i)) for i in np.unravel_index(index, e.shape)) if e.shape else ""
                return f"{where}[{at}]: {float(x)!r} became {float(y)!r}"
        return None
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)) or len(expected) != len(actual):
            size = len(actual) if isinstance(actual, (list, tuple)) else type(actual).__name__
            return f"{where}: {len(expected)} items became {size}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            found = difference(e, a, f"{where}[{i}]", scale)
            if found:
                return found
        return None
    if expected is None or isinstance(expected, (bool, str)):
        return None if actual == expected and type(actual) is type(expected) else f"{where}: {expected!r} became {actual!r}"
    if isinstance(actual, np.generic):
        actual = actual.item()
    if not isinstance(actual, (int, float)) or isinstance(actual, bool):
        return f"{where}: {expected!r} became {actual!r}"
    return None if _close(float(expected), float(actual), scale) else f"{where}: {expected!r} became {actual!r}"


def _describe(case: dict[str, Any]) -> str:
    if "argv" in case:
        return "gradcli " + " ".join(json.dumps(a) if set(a) & set(" ;*()[]'\"") else a for a in case["argv"])
    return f"{case['call']}({case['program']!r}, **{json.dumps(case['kwargs'])[:200]})"


def problem(case: dict[str, Any]) -> str | None:
    """What is wrong with gradcli's answer to a case now (None: nothing)."""
    exit_code, answer, stderr = run_case(case)
    if exit_code == 4:
        return f"exit 4 (a crash): {stderr.strip()[:300]}"
    expected_exit, expected = case["exit"], case.get("answer")
    if case["id"] in CHANGED_ON_PURPOSE:
        _, new = CHANGED_ON_PURPOSE[case["id"]]
        if new is None:
            return None  # not a crash: that is all that is asked
        expected_exit, expected = 0, new
    if expected_exit != 0:
        # refused (exit 2) at the baseline: answering it now is not an error
        return None if exit_code in (0, expected_exit) else f"exit {expected_exit} became {exit_code}: {stderr.strip()[:300]}"
    if exit_code != 0:
        return f"exit 0 became {exit_code}: {stderr.strip()[:300]}"
    if expected is None:
        return None
    if "call" in case:
        expected = _decode(expected)
    return difference(expected, answer)


# --- the tests --------------------------------------------------------------------------------


def _chunks() -> list[Any]:
    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for case in CASES:
        if "regression" not in case:
            by_source[case["sources"][0].split("@")[0].split("::")[0]].append(case)
    params = []
    for source, cases in sorted(by_source.items()):
        for start in range(0, len(cases), CHUNK):
            params.append(pytest.param(cases[start:start + CHUNK], id=f"{source}-{start // CHUNK}"))
    return params


@pytest.mark.parametrize("cases", _chunks())
def test_every_example_that_worked_still_works(cases):
    problems = []
    for case in cases:
        found = problem(case)
        if found:
            problems.append(f"{case['id']} {_describe(case)}\n    {found}\n    (from {', '.join(case['sources'][:2])})")
    assert not problems, f"{len(problems)} of {len(cases)} cases answer otherwise than at the baseline:\n" + "\n".join(
        problems[:25])


def _regressions() -> list[Any]:
    params = []
    for case in CASES:
        if "regression" in case:
            reason = case["regression"]["reason"]
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if case["id"] in REGRESSIONS_TO_FIX else []
            params.append(pytest.param(case, id=f"{case['id']}-{_describe(case)[:60]}", marks=marks))
    return params


@pytest.mark.parametrize("case", _regressions())
def test_regressions_to_fix(case):
    """A crash at the baseline that an older commit answered: it is answered again, with PyTorch's numbers where known."""
    exit_code, answer, stderr = run_case(case)
    if not case["regression"]["worked_at"]:  # never answered: it must not crash
        assert exit_code in (0, 2), f"{_describe(case)}: exit {exit_code}: {stderr.strip()[:300]}"
        return
    assert exit_code == 0, f"{_describe(case)}: exit {exit_code}: {stderr.strip()[:300]}"
    expected = case["regression"].get("expect")
    if expected is not None:
        wanted = _decode(expected["answer"]) if "call" in case else expected["answer"]
        found = difference(wanted, {k: answer[k] for k in wanted if k in answer})
        assert found is None, f"{_describe(case)}: {found} ({expected['by']})"


def test_the_corpus_holds_what_it_says():
    assert len(BY_ID) == len(CASES), "two cases with one id"
    assert len(CASES) > 1000
    assert not set(CHANGED_ON_PURPOSE) - set(BY_ID), "CHANGED_ON_PURPOSE names cases the corpus does not hold"
    assert set(REGRESSIONS_TO_FIX) <= {case["id"] for case in CASES if "regression" in case}
    for case in CASES:
        assert ("argv" in case) != ("call" in case)
        assert case["exit"] in (0, 2, 4) and case["sources"]
        assert case["exit"] != 4 or "regression" in case, case["id"]
        assert case["exit"] != 0 or "answer" in case or case.get("argv", [""])[0] in ("graph", "explain")
    sources = {case["sources"][0].split("@")[0].split("::")[0] for case in CASES}
    assert {"README.md", "DESIGN.md worked examples", "samples", "tests/test_cli.py"} <= sources
