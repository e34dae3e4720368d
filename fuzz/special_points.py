"""Every row of the op table at special points, through both front ends, held to PyTorch (issue #21).

    python fuzz/special_points.py                       # every row with a PyTorch reference (minutes)
    python fuzz/special_points.py --rows 'det|inv'      # the rows whose name matches a regular expression
    python fuzz/special_points.py --jobs 2 --out /tmp/findings.jsonl --examples 2

Needs torch (PyTorch 2.13 is the reference). Not a test: what it finds goes into the suite as small
table-driven tests over values recorded from PyTorch (tests/reference/make_special_cases.py).

Each row's first example (tests/test_front_ends.py builds it: the formula, the PyTorch snippet and the
point) is varied one input at a time:
- one element set to NaN, inf, -inf, 0, -0, 1e300, 1e-300 (the first element; NaN and the infinities
  the last one too);
- ties (the second element equal to the first) and a singular matrix (the second row equal to the first);
- empty: the input of shape (0,), (0, 3), and its own shape with the first size 0;
- under `run` only, the input as float32, int64 and bool (no requires_grad where PyTorch refuses it).

Each variant runs three ways: the snippet under PyTorch itself, under `gradcli run`, and (float64
variants) the formula under the library's `grad`. What is compared, by kind of finding:
- exit 4: an internal error of either front end (never allowed);
- value / grad: a number PyTorch does not give (NaN where PyTorch has NaN, the same infinities,
  finite numbers to 1e-9 relative in float64 and 1e-4 in float32); zero sign: a zero of the other sign;
- raises: PyTorch raises and gradcli answers, or raises another error (run: type and message);
  refused: gradcli exits 2 where PyTorch answers (a gap, said cleanly);
- dtype / node / next_functions / print: what `run` prints beside the numbers differs from PyTorch's.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import multiprocessing
import re
import signal
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gradcli import grad  # noqa: E402
from gradcli.errors import GradcliError  # noqa: E402
from gradcli.ops import OPS  # noqa: E402
from tests import test_front_ends as front  # noqa: E402

nan, inf = math.nan, math.inf
SPECIALS = {"nan": nan, "inf": inf, "-inf": -inf, "0": 0.0, "-0": -0.0, "1e300": 1e300, "1e-300": 1e-300}
AT_THE_END = ("nan", "inf", "-inf")  # also put at the last element
EMPTY_SHAPES = ((0,), (0, 3))
RUN_DTYPES = ("float32", "int64", "bool")
SECONDS = 20  # a variant that takes longer is a finding
KINDS = ("exit 4", "value", "grad", "raises", "refused", "dtype", "node", "next_functions", "print", "zero sign")


@dataclass
class Variant:
    case: str  # the row's case id (test_front_ends)
    label: str  # what was changed: "a=nan", "a ties", "b empty (0, 3)", "a int64"
    program: str
    snippet: str
    point: dict[str, Any]
    formula: bool  # float64 throughout: the formula language is held to PyTorch too
    grads: tuple[str, ...]  # the inputs whose gradients PyTorch prints


@dataclass
class Finding:
    kind: str
    case: str
    label: str
    detail: str
    program: str = ""
    snippet: str = ""


@dataclass
class Outcome:
    findings: list[Finding] = field(default_factory=list)
    tried: int = 0
    crashed: list[str] = field(default_factory=list)


# --- the variants ------------------------------------------------------------------------------------


def _number_text(x: Any, dtype: str) -> str:
    if dtype == "bool":
        return repr(bool(x))
    if dtype == "int64":
        return repr(int(x))
    x = float(x)
    if math.isnan(x):
        return "float('nan')"
    if math.isinf(x):
        return "float('inf')" if x > 0 else "-float('inf')"
    return repr(x)


def _nested_text(value: Any, dtype: str) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_nested_text(v, dtype) for v in value) + "]"
    return _number_text(value, dtype)


def tensor_line(name: str, value: np.ndarray, dtype: str, requires_grad: bool) -> str:
    requires = ", requires_grad=True" if requires_grad else ""
    if value.size == 0:
        return f"{name} = torch.zeros({tuple(value.shape)}, dtype=torch.{dtype}{requires})"
    return f"{name} = torch.tensor({_nested_text(value.tolist(), dtype)}, dtype=torch.{dtype}{requires})"


def _vary(case: front.Case, label: str, name: str, value: np.ndarray, dtype: str = "float64") -> Variant:
    requires = case.kinds[name] == front.FLOAT and dtype in ("float64", "float32")
    line = tensor_line(name, value, dtype, requires)
    lines = [line if text.startswith(f"{name} = ") else text for text in case.snippet.splitlines()]
    if not requires:  # no .grad to print for it
        lines = [text for text in lines if f"{name}.grad" not in text]
    point = dict(case.point) | {name: value}
    grads = tuple(n for n, kind in case.kinds.items() if kind == front.FLOAT and (n != name or requires))
    return Variant(case.id, label, case.program, "\n".join(lines) + "\n", point, dtype == "float64", grads)


def variants(case: front.Case) -> Iterator[Variant]:
    for name, kind in case.kinds.items():
        if kind not in (front.FLOAT, front.NO_GRAD):
            continue
        value = np.asarray(case.point[name], dtype=np.float64)
        if value.size:
            for label, special in SPECIALS.items():
                for where in (0, -1) if label in AT_THE_END and value.size > 1 else (0,):
                    changed = value.copy()
                    changed.flat[where] = special
                    yield _vary(case, f"{name}={label}" + ("" if where == 0 else " (last)"), name, changed)
        if value.size >= 2:
            tied = value.copy()
            tied.flat[1] = tied.flat[0]
            yield _vary(case, f"{name} ties", name, tied)
        if value.ndim >= 2 and value.shape[-1] == value.shape[-2] >= 2:
            # (a row of zeros: singular in every LU; a row equal to another is singular only up to the
            # rounding of each library's own LU, which is its choice)
            singular = value.copy()
            singular[..., 1, :] = 0.0
            yield _vary(case, f"{name} singular", name, singular)
        shapes = list(EMPTY_SHAPES)
        if value.ndim and (0, *value.shape[1:]) not in shapes:
            shapes.append((0, *value.shape[1:]))
        for shape in shapes:
            yield _vary(case, f"{name} empty {shape}", name, np.zeros(shape))
        for dtype in RUN_DTYPES:
            cast = value.astype(np.float32) if dtype == "float32" else (
                np.round(value).astype(np.int64) if dtype == "int64" else value > 0)
            yield _vary(case, f"{name} {dtype}", name, cast.astype(np.float64), dtype)


def all_variants(pattern: str, examples: int) -> list[Variant]:
    chosen = re.compile(pattern)
    found = []
    for op in OPS.values():
        if op.reference is None or op.dtype == "param" or not chosen.search(op.name):
            continue
        for example in range(min(examples, len(op.examples))):
            try:
                case = front.build(op, example)
            except front.Inexpressible:
                continue
            if case.id in front.KNOWN or case.id in front.PYTORCH_RAISES:
                continue
            found.extend(variants(case))
    return found


# --- running one variant three ways ------------------------------------------------------------------


def _same(given: Any, expected: Any, rtol: float, atol: float) -> str | None:
    """None where `given` is PyTorch's `expected`; else what differs."""
    try:
        a, b = np.asarray(given, dtype=float), np.asarray(expected, dtype=float)
    except (TypeError, ValueError):
        return f"{given!r} is not {expected!r}"
    if a.size == 0 and b.size == 0:  # (an empty .tolist() is [] whatever its shape)
        return None
    if a.shape != b.shape:
        return f"shape {a.shape}, PyTorch {b.shape}"
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return f"{a.tolist()}, PyTorch {b.tolist()} (NaN)"
    if not np.array_equal(a[np.isinf(a) | np.isinf(b)], b[np.isinf(a) | np.isinf(b)]):
        return f"{a.tolist()}, PyTorch {b.tolist()} (inf)"
    finite = np.isfinite(a) & np.isfinite(b)
    if not np.allclose(a[finite], b[finite], rtol=rtol, atol=atol):
        return f"{a.tolist()}, PyTorch {b.tolist()}"
    return None


def _zero_signs(given: Any, expected: Any) -> bool:
    a, b = np.asarray(given, dtype=float), np.asarray(expected, dtype=float)
    if a.shape != b.shape:
        return True
    zeros = (a == 0) & (b == 0)
    return bool(np.array_equal(np.signbit(a[zeros]), np.signbit(b[zeros])))


def _numbers(kind: str, label: str, given: Any, expected: Any, rtol: float, atol: float) -> list[tuple[str, str]]:
    if given is None or expected is None:
        return []
    problem = _same(given, expected, rtol, atol)
    if problem is not None:
        return [(kind, f"{label}: {problem}")]
    if not _zero_signs(given, expected):
        return [("zero sign", f"{label}: {np.asarray(given).tolist()}, PyTorch {np.asarray(expected).tolist()}")]
    return []


def _printed_lines(printed: front.Printed) -> dict[str, str]:
    lines = front.EXACT_NUMBERS.sub("", front.ADDRESS.sub("0x", printed.stdout))
    return {"dtype": printed.field("dtype") or "", "node": printed.node() or "",
            "next_functions": str(printed.next_functions()), "print": lines}


def _formula(variant: Variant) -> tuple[Any, dict[str, Any], str | None]:
    """The library's grad of the formula at the point, seeded as the snippet seeds (value, grads, error)."""
    try:
        shape = np.shape(grad(variant.program, at=variant.point, seed="ones").value)
        seed = (np.arange(math.prod(shape), dtype=np.float64) * 0.25 + 0.5).reshape(shape)
        result = grad(variant.program, at=variant.point, seed=seed if shape else float(seed), warn_no_grad=True)
    except GradcliError as error:
        return None, {}, f"exit 2: {error}"
    except Exception as error:  # the finding: an internal error
        return None, {}, f"exit 4: {type(error).__name__}: {error}"
    return result.value, dict(result.grad), None


def _says(error: str, raised: str) -> bool:
    """Does gradcli's refusal say PyTorch's words (its exception's message; the output named, not element 0)?"""
    words = raised.split(": ", 1)[-1].replace("element 0 of tensors ", "")
    return words in error


def check(variant: Variant) -> list[tuple[str, str]]:
    """What differs between PyTorch, `gradcli run` and the formula language for one variant."""
    found: list[tuple[str, str]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = front.under_torch(front.Case(variant.case, variant.program, variant.snippet, variant.point, {}))
        try:
            run = front.under_run(front.Case(variant.case, variant.program, variant.snippet, variant.point, {}))
        except Exception as error:
            run = front.Printed("", f"exit 4: {type(error).__name__}: {error}")
    float32 = reference.field("dtype") == "torch.float32"
    rtol, atol = (1e-4, 1e-6) if float32 else (1e-9, 1e-12)
    if run.error is not None and run.error.startswith("exit 4"):
        found.append(("exit 4", f"run: {run.error}"))
    elif run.error != reference.error:
        if reference.error is None:
            found.append(("refused", f"run: {run.error}"))
        else:
            found.append(("raises", f"run: {run.error!r}, PyTorch {reference.error!r}"))
    for label in ["value", *(f"grad {name}" for name in variant.grads)]:
        kind = "value" if label == "value" else "grad"
        found += _numbers(kind, f"run {label}", run.number(label), reference.number(label), rtol, atol)
    if run.error is None or not run.error.startswith("exit"):
        ours, theirs = _printed_lines(run), _printed_lines(reference)
        for kind in ("dtype", "node", "next_functions"):
            if ours[kind] != theirs[kind]:
                found.append((kind, f"run {ours[kind]!r}, PyTorch {theirs[kind]!r}"))
        if not found and ours["print"] != theirs["print"]:  # (only where nothing else told it)
            found.append(("print", f"run:\n{run.stdout}PyTorch:\n{reference.stdout}"))
    if not variant.formula:
        return found
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value, grads, error = _formula(variant)
    expected_value = reference.number("value")
    if error is not None:
        if error.startswith("exit 4"):
            found.append(("exit 4", f"grad: {error}"))
        elif reference.error is None or (expected_value is not None and not _says(error, reference.error)):
            found.append(("refused", f"grad: {error}"))  # PyTorch answers (a value at least, its backward raising
        return found  # other words: `gradcli grad` refusing in PyTorch's words where its backward raises agrees)
    if reference.error is not None and expected_value is None:
        found.append(("raises", f"grad answers {np.asarray(value).tolist()}; PyTorch {reference.error!r}"))
        return found
    found += _numbers("value", "grad value", value, expected_value, rtol, atol)
    for name in variant.grads:
        found += _numbers("grad", f"grad grad {name}", grads.get(name), reference.number(f"grad {name}"), rtol, atol)
    return found


class _TooSlow(Exception):
    pass


def _too_slow(signum: int, frame: Any) -> None:
    raise _TooSlow


def _check_each(batch: list[Variant], path: str, checker: Any = None) -> None:
    """A worker: one JSON line of findings per variant, in order, flushed as each is done (a crash of PyTorch
    itself ends it; the main process reads complete lines alone, so a half-written one is never waited for).
    `checker`: what compares one variant (default: check; fuzz/call_forms.py gives its own)."""
    import torch

    checker = checker or check

    torch.set_num_threads(1)
    signal.signal(signal.SIGALRM, _too_slow)
    with open(path, "a") as out:
        for variant in batch:
            signal.alarm(SECONDS)
            try:
                found = checker(variant)
            except _TooSlow:
                found = [("exit 4", f"took more than {SECONDS} s")]
            finally:
                signal.alarm(0)
            out.write(json.dumps([Finding(kind, variant.case, variant.label, detail, variant.program,
                                          variant.snippet).__dict__ for kind, detail in found]) + "\n")
            out.flush()


@dataclass
class _Worker:
    process: Any
    path: Path
    batch: list[Variant]
    read: int = 0  # bytes of its file taken
    since: float = 0.0  # when it last finished a variant


def _take_lines(worker: _Worker, outcome: Outcome) -> None:
    """The variants `worker` has finished since last asked: its file's complete lines."""
    with open(worker.path, "rb") as handle:
        handle.seek(worker.read)
        text = handle.read()
    done = text[: text.rfind(b"\n") + 1]
    worker.read += len(done)
    for line in done.splitlines():
        outcome.tried += 1
        outcome.findings += [Finding(**entry) for entry in json.loads(line)]
        worker.batch.pop(0)
        worker.since = time.time()


def check_all(variants: list[Variant], jobs: int, started: float, checker: Any = None) -> Outcome:
    """Every variant, over `jobs` spawned workers (not forked: torch's thread pools do not survive a fork).
    Where PyTorch itself crashes (a segfault at an empty input) or a worker finishes nothing for a deadline
    (a hang no alarm ends), the worker is ended and replaced and its variant skipped, said on stderr: the
    walk always finishes."""
    import tempfile

    context = multiprocessing.get_context("spawn")
    waiting = [variants[k::jobs] for k in range(jobs)]
    outcome = Outcome()
    workers: list[_Worker] = []
    deadline = 3 * SECONDS + 60  # (a spawned worker imports torch and gradcli before its first variant)
    with tempfile.TemporaryDirectory(prefix="special_points") as folder:
        made = 0
        while waiting or workers:
            while waiting and len(workers) < jobs:
                batch = waiting.pop()
                made += 1
                path = Path(folder) / f"worker{made}.jsonl"
                path.touch()
                process = context.Process(target=_check_each, args=(batch, str(path), checker),
                                          daemon=True)
                process.start()
                workers.append(_Worker(process, path, batch, since=time.time()))
            time.sleep(0.2)
            for worker in list(workers):
                before = outcome.tried
                _take_lines(worker, outcome)
                if outcome.tried // 500 != before // 500:
                    print(f"{outcome.tried} of {len(variants)} variants, {time.time() - started:.0f} s", file=sys.stderr)
                alive = worker.process.is_alive()
                if alive and time.time() - worker.since < deadline:
                    continue
                if alive:  # hung
                    worker.process.kill()
                worker.process.join()
                _take_lines(worker, outcome)
                workers.remove(worker)
                if worker.batch:  # it died, or hung, at batch[0]
                    first = worker.batch[0]
                    how = "hung" if alive else "crashed"
                    print(f"PyTorch {how} at {first.case} [{first.label}]:\n{first.snippet}", file=sys.stderr)
                    outcome.crashed.append(f"{first.case} [{first.label}] ({how})")
                    if worker.batch[1:]:
                        waiting.append(worker.batch[1:])
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="", help="a regular expression: only the rows whose name it finds")
    parser.add_argument("--examples", type=int, default=1, help="how many of each row's examples (default 1)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", help="write every finding there, as JSON Lines")
    parser.add_argument("--show", type=int, default=3, help="findings shown of each kind")
    options = parser.parse_args()
    started = time.time()
    found = all_variants(options.rows, options.examples)
    outcome = check_all(found, options.jobs, started)
    report(outcome, found, started, options.show, options.out)


def report(outcome: Outcome, found: list[Variant], started: float, show: int, out: str | None) -> None:
    """The findings by kind (the first `show` of each), and all of them as JSON Lines to `out`."""
    counts = collections.Counter(finding.kind for finding in outcome.findings)
    cases = {kind: len({(f.case, f.label, f.program) for f in outcome.findings if f.kind == kind}) for kind in counts}
    print(f"{outcome.tried} variants of {len({v.case for v in found})} cases in {time.time() - started:.0f} s")
    if outcome.crashed:
        print(f"PyTorch itself crashed or hung at {len(outcome.crashed)}: {', '.join(outcome.crashed)}")
    for kind in KINDS:
        if counts[kind]:
            print(f"\n== {kind}: {cases[kind]} variants")
            for finding in sorted((f for f in outcome.findings if f.kind == kind), key=lambda f: (f.case, f.label))[
                    : show]:
                print(f"  {finding.case} [{finding.label}] {finding.program}\n    {finding.detail[:400]}")
    if out:
        with open(out, "w") as handle:
            for finding in outcome.findings:
                handle.write(json.dumps(finding.__dict__) + "\n")


if __name__ == "__main__":
    main()
