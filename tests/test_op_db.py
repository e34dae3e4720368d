"""gradcli against PyTorch's own OpInfo samples (issue 24), without torch.

tests/reference/op_db_cases.json was written by tests/reference/make_op_db.py from PyTorch's op_db:
each case is a sample input written as a user writes it (`sum(torch.NAME(a, ...) * seed)`) with
PyTorch's value and gradients (float64). Each case goes through `gradcli.grad` and is one of:

- matches: answered, and the value and every gradient agree with PyTorch's;
- differs: answered, but something disagrees (only the cases of KNOWN_DIFFERENCES may);
- refused: a GradcliError (exit 2 class): an op or a spelling gradcli does not take (yet);
- crashed: any other exception, a bug in gradcli (only the cases of KNOWN_CRASHES may).

Every case runs (about 5 s); GRADCLI_OP_DB_REPORT=path writes the per-entry results
(docs/op_db_coverage.md is one), and `-s` prints the coverage figures.
"""

from __future__ import annotations

import json
import os
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import GradcliError

FIXTURE = json.loads((Path(__file__).resolve().parent / "reference" / "op_db_cases.json").read_text())
RTOL, ATOL = 1e-7, 1e-10

# case id ("entry#sample") -> why gradcli's answer differs from PyTorch's.
KNOWN_DIFFERENCES: dict[str, str] = {
    "linalg.eigh#0": "eigenvectors' signs are LAPACK's choice: NumPy's OpenBLAS syevd and PyTorch's MKL one pick other "
                     "signs for two of the five columns (the eigenvalues and every sign-free function of the vectors "
                     "agree)",
}
# case id -> the exception gradcli raises where it should answer or refuse (bugs to fix).
KNOWN_CRASHES: dict[str, str] = {}


def case_id(entry: dict, case: dict) -> str:
    return f"{entry['entry']}#{case['sample']}"


def _array(spec: dict, kind: str = "float") -> np.ndarray:
    dtype = {"float": np.float64, "int": np.int64, "bool": np.float64}[kind]
    return np.array(spec["values"], dtype=dtype).reshape(spec["shape"])


def _agrees(got, want: np.ndarray) -> bool:
    got = np.asarray(got, dtype=np.float64)
    if got.shape != want.shape:
        return False
    scale = ATOL * max(1.0, float(np.max(np.abs(want[np.isfinite(want)]), initial=0.0)))
    return bool(np.allclose(got, want, rtol=RTOL, atol=scale, equal_nan=True)
                and np.array_equal(np.isinf(got) & (got > 0), np.isinf(want) & (want > 0))
                and np.array_equal(np.isinf(got) & (got < 0), np.isinf(want) & (want < 0)))


def run_case(case: dict) -> tuple[str, str]:
    """(outcome, detail): outcome one of matches, differs, refused, crashed."""
    at = {name: _array(spec, spec["kind"]) for name, spec in case["inputs"].items()}
    at.update({name: _array(spec) for name, spec in case["seeds"].items()})
    wrt = list(case["grad"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = grad(case["program"], at=at, wrt=wrt or None)
    except GradcliError as problem:
        return "refused", problem.message.splitlines()[0][:160]
    except Exception as problem:  # what this test is for: any other exception is a bug
        return "crashed", f"{type(problem).__name__}: {problem}"[:160]
    if not _agrees(result.value, np.array(case["value"])):
        return "differs", f"value {float(np.sum(result.value))!r} where PyTorch has {case['value']!r}"
    for name, spec in case["grad"].items():
        if name not in result.grad:
            return "differs", f"no gradient for {name}"
        if not _agrees(result.grad[name], _array(spec)):
            return "differs", f"gradient of {name}"
    return "matches", ""


def run_all(cases_per_entry: int | None) -> dict[str, list[tuple[str, str, str, str]]]:
    """entry -> [(case id, call, outcome, detail)]."""
    results = {}
    for entry in FIXTURE["entries"]:
        cases = entry["cases"][:cases_per_entry] if cases_per_entry else entry["cases"]
        results[entry["entry"]] = [(case_id(entry, c), c["call"], *run_case(c)) for c in cases]
    return results


def coverage(results) -> dict[str, int]:
    outcomes = Counter(outcome for rows in results.values() for _, _, outcome, _ in rows)
    answered_entries = sum(any(o == "matches" for _, _, o, _ in rows) for rows in results.values())
    return {
        "with_float64_backward": FIXTURE["with_float64_backward"],
        "excluded": len(FIXTURE["excluded"]),
        "measured": len(results),
        "answered": answered_entries,
        "answers": outcomes["matches"] + outcomes["differs"],
        "matching": outcomes["matches"],
        "refused": outcomes["refused"],
        "crashed": outcomes["crashed"],
        "cases": sum(outcomes.values()),
    }


def report(results) -> str:
    """The per-entry results as markdown (docs/op_db_coverage.md)."""
    c = coverage(results)
    lines = [
        "# gradcli against PyTorch's OpInfo database",
        "",
        f"Generated by `GRADCLI_OP_DB_REPORT=docs/op_db_coverage.md python -m pytest "
        f"tests/test_op_db.py` from tests/reference/op_db_cases.json (PyTorch {FIXTURE['torch']}, "
        "written by tests/reference/make_op_db.py). Do not edit by hand.",
        "",
        f"- op_db entries with a float64 CPU backward: {c['with_float64_backward']}; left out: {c['excluded']} "
        f"(below); measured: {c['measured']}",
        f"- entries answered (a case answered and matching PyTorch): **{c['answered']} / "
        f"{c['with_float64_backward']}** ({100 * c['answered'] / c['with_float64_backward']:.1f}%; "
        f"{100 * c['answered'] / c['measured']:.1f}% of the measured)",
        f"- answers matching PyTorch: {c['matching']} / {c['answers']}"
        + (f" ({100 * c['matching'] / c['answers']:.1f}%)" if c["answers"] else ""),
        f"- cases: {c['cases']}; refused (exit 2): {c['refused']}; crashed: {c['crashed']}",
        "",
        "## Left out",
        "",
    ]
    for why, text in FIXTURE["excluded_why"].items():
        names = [e["entry"] for e in FIXTURE["excluded"] if e["why"] == why]
        lines.append(f"- {text} ({len(names)}): " + (", ".join(f"`{n}`" for n in names) or "none"))
    lines += ["", "## Per entry", "", "| entry | outcome | cases (call: result) |", "|---|---|---|"]
    for entry in FIXTURE["entries"]:
        rows = results[entry["entry"]]
        if not rows:
            why = ", ".join(entry["no_cases_because"]) or "no sample"
            lines.append(f"| `{entry['entry']}` | no case | PyTorch's samples: {why} |")
            continue
        outcome = ("answered" if any(o == "matches" for _, _, o, _ in rows)
                   else "differs" if any(o == "differs" for _, _, o, _ in rows)
                   else "crashed" if any(o == "crashed" for _, _, o, _ in rows) else "refused")
        cells = "<br>".join(f"`{call}`: {o}" + (f" ({d})" if d else "")
                            for _, call, o, d in rows).replace("|", "\\|")
        lines.append(f"| `{entry['entry']}` | {outcome} | {cells} |")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def results():
    found = run_all(None)
    if path := os.environ.get("GRADCLI_OP_DB_REPORT"):
        Path(path).write_text(report(found))
    print("\nop_db coverage:", coverage(found))
    return found


def test_no_case_crashes(results):
    crashed = {cid: detail for rows in results.values() for cid, _, outcome, detail in rows
               if outcome == "crashed"}
    new = {cid: d for cid, d in crashed.items() if cid not in KNOWN_CRASHES}
    assert not new, f"gradcli raised a non-GradcliError (a bug): {new}"
    ran = {cid for rows in results.values() for cid, *_ in rows}
    fixed = [cid for cid in KNOWN_CRASHES if cid in ran and cid not in crashed]
    assert not fixed, f"no longer crash, take them out of KNOWN_CRASHES: {fixed}"


def test_answers_match_pytorch(results):
    differs = {cid: detail for rows in results.values() for cid, _, outcome, detail in rows
               if outcome == "differs"}
    new = {cid: d for cid, d in differs.items() if cid not in KNOWN_DIFFERENCES}
    assert not new, f"answers that differ from PyTorch's: {new}"
    ran = {cid for rows in results.values() for cid, *_ in rows}
    fixed = [cid for cid in KNOWN_DIFFERENCES if cid in ran and cid not in differs]
    assert not fixed, f"now match PyTorch (or are refused), take them out of KNOWN_DIFFERENCES: {fixed}"


def test_fixture_accounts_for_every_entry():
    listed = [e["entry"] for e in FIXTURE["entries"]] + [e["entry"] for e in FIXTURE["excluded"]]
    assert len(listed) == len(set(listed)) == FIXTURE["with_float64_backward"]
    assert all(e["why"] in FIXTURE["excluded_why"] for e in FIXTURE["excluded"])
