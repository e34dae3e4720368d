"""--check: the gradient held against central finite differences and against SymPy.

A reference says, for each element of each input, one of three things: a value (the
gradient must be within tol of it); at a kink, the two one-sided derivatives (the gradient,
a subgradient as PyTorch takes it, must lie between them); or why it can say neither. What
could not be checked is said, and is never counted as agreement.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from gradcli.engine import Batches, forward
from gradcli.errors import GradcliError

if TYPE_CHECKING:
    from gradcli.derivatives import GradResult
    from gradcli.symbolic import Report

Array = np.ndarray

EPS = float(np.finfo(float).eps)
FD_STEP = EPS ** (1 / 3)  # central differences: error ~ h^2 + eps/h, least near h = eps^(1/3)
FD_SHRINK = 64.0  # each further step is this much smaller
FD_GROW = 2  # times a step may grow by FD_SHRINK where the output's rounding hides the change
FD_LEVELS = 12  # steps tried at most, from eps^(1/3) * max(1, |x|) down by FD_SHRINK each
FD_KINK_LEVELS = 2  # after a kink shows: smaller steps tried, to tell a kink at x from one near it
FD_SETTLED = 1e-6  # the estimates with steps h and h/2 must be this close (relative), or tol if tighter
FD_MAX_ELEMENTS = 512  # elements of one input checked by finite differences (a sample past that)
FD_WORK = 1 << 27  # numbers computed for one input's sample, about: a big program gets a smaller sample
FD_MIN_SAMPLE = 8
FD_BATCH = 128  # elements whose perturbed points go through the tape at once, at most
FD_BATCH_VALUES = 1 << 23  # ... and fewer where their forward sweep would hold more numbers (64 MB)
NOT_FINITE = "the output is not finite at the point"


def label(name: str, shape: tuple[int, ...], flat: int) -> str:
    """`z[1]` for element 1 of a vector z; `x` for a number."""
    if not shape:
        return name
    return name + "".join(f"[{i}]" for i in np.unravel_index(flat, shape))


def checked_tolerance(tol: float) -> float:
    if not (math.isfinite(tol) and tol >= 0):
        raise GradcliError(f"the tolerance must be a finite number >= 0, not {tol:g}", where="--tol")
    return tol


@dataclass(eq=False)
class Expected:
    """What one reference says about the gradient of one input, element by element (flat)."""

    value: Array  # NaN where there is none
    low: Array  # at a kink: the one-sided derivatives, low <= high; NaN elsewhere
    high: Array
    why: list[str]  # why there is no value ('' where there is one, or the element was not sampled)

    @classmethod
    def nothing(cls, size: int) -> Expected:
        return cls(np.full(size, np.nan), np.full(size, np.nan), np.full(size, np.nan), [""] * size)


# --- finite differences --------------------------------------------------------------------


def finite_differences(result: GradResult, names: Sequence[str], tol: float = 1e-5) -> dict[str, Expected]:
    """Central differences of sum(seed * output) for each element of each named input.

    The first step is h = eps^(1/3) * max(1, |x|). Where the function is not finite at x ± h
    (a domain's edge), the step shrinks (past zero, at once to |x|/4); where the estimates do
    not agree, it shrinks too. The estimate is a Richardson extrapolation. Where the one-sided
    differences stay apart however small the step (their gap does not shrink with h), the
    point is a kink, and the two one-sided derivatives are the answer. Where none of this
    works, the reason is the answer. Past FD_MAX_ELEMENTS elements (fewer for a large program:
    FD_WORK), a sample is checked.
    """
    settle = max(min(tol, FD_SETTLED), 1e-9)
    estimates = {}
    rng = np.random.default_rng(0)
    per_row = sum(max(1, int(np.size(v))) for v in result.values)  # numbers a sweep keeps, per point
    sample = min(FD_MAX_ELEMENTS, max(FD_MIN_SAMPLE, FD_WORK // (6 * per_row)))
    batch = max(1, min(FD_BATCH, FD_BATCH_VALUES // (6 * per_row)))
    with np.errstate(all="ignore"):
        base_value = _objective(result)[0]
        for name in names:
            shape = np.shape(result.point[name])
            size = int(np.prod(shape, dtype=np.int64))
            expected = Expected.nothing(size)
            chosen = np.arange(size) if size <= sample else np.sort(rng.choice(size, sample, replace=False))
            if not np.isfinite(base_value):
                for element in chosen:
                    expected.why[element] = NOT_FINITE
            else:
                for start in range(0, len(chosen), batch):
                    _estimate(result, name, chosen[start : start + batch], float(base_value), settle, expected)
            estimates[name] = expected
    return estimates


def _objective(result: GradResult, name: str | None = None, rows: Array | None = None) -> Array:
    """sum(seed * output) at the point, or with each row (flat) in place of input `name`."""
    point = result.point
    count = 1 if rows is None else len(rows)
    columns = {n: np.broadcast_to(np.asarray(v, dtype=float), (count, *np.shape(v))) for n, v in point.items()}
    if name is not None and rows is not None:
        columns[name] = rows.reshape(count, *np.shape(point[name]))
    values = forward(result.tape, columns, Batches(result.tape))
    total = np.zeros(count)
    for root, seed in zip(result.roots, result.seeds, strict=True):
        out = np.broadcast_to(values[root], (count, *np.shape(seed)))
        total += np.sum((out * seed).reshape(count, -1), axis=1)
    return total


def _estimate(result: GradResult, name: str, elements: Array, f0: float, settle: float, expected: Expected) -> None:
    """Finite differences for some elements of one input, writing into `expected`.

    Each round evaluates x ± h, x ± h/2 and x ± h/4 for the elements still open, with each
    element's own h, all as one batch. Two Richardson estimates (from h, h/2 and from h/2,
    h/4) that agree settle the element; one-sided differences whose gap stays as the step
    halves (smooth: it halves too) are a kink, confirmed at smaller steps; the rounding of
    the output over the step must stay below the tolerance.
    """
    shape = np.shape(result.point[name])
    base = np.asarray(result.point[name], dtype=float).reshape(-1)
    x = base[elements]
    n = len(elements)
    h = FD_STEP * np.maximum(1.0, np.abs(x))
    active = np.ones(n, dtype=bool)
    kink_levels = np.zeros(n, dtype=int)  # rounds in a row that showed the same kink
    grown = np.zeros(n, dtype=int)  # times the step was made larger, for rounding
    first = h.copy()
    first_gap, low, high, near = (np.full(n, np.nan) for _ in range(4))
    why = [""] * n
    resolution = max(min(settle * 10, 1e-5) / 4, 1e-9)  # the rounding the estimate may carry (relative)
    for _ in range(FD_LEVELS):
        todo = np.flatnonzero(active & (h > 4 * EPS * np.maximum(np.abs(x), np.finfo(float).tiny)))
        active[:] = False
        if not todo.size:
            break
        xs, hs = x[todo], h[todo]
        points = np.stack([xs + hs, xs - hs, xs + hs / 2, xs - hs / 2, xs + hs / 4, xs - hs / 4])  # (6, m)
        steps = np.abs(points - xs)  # the steps as the floating-point numbers took them
        rows = np.repeat(base.reshape(1, -1), points.size, axis=0)
        rows[np.arange(points.size), np.tile(elements[todo], 6)] = points.reshape(-1)
        f = _objective(result, name, rows).reshape(6, -1)
        finite = np.all(np.isfinite(f), axis=0)
        central = (f[0::2] - f[1::2]) / (steps[0::2] + steps[1::2])  # (3, m): steps h, h/2, h/4
        right, left = (f[0::2] - f0) / steps[0::2], (f0 - f[1::2]) / steps[1::2]
        gap = right - left
        richardson = central[1:] + (central[1:] - central[:-1]) / 3  # h^2 terms cancelled: (2, m)
        noise = 2 * EPS * np.maximum(np.max(np.abs(f), axis=0), abs(f0)) / np.minimum(steps[4], steps[5])
        scale = 1.0 + np.abs(central[2])
        resolved = noise <= resolution * scale
        # A kink: the one-sided differences stay apart as the step halves (smooth: the gap halves).
        kink = finite & (np.abs(gap[2]) > FD_SETTLED * scale + 4 * noise) & (np.abs(gap[2]) >= 0.75 * np.abs(gap[1])) \
            & (gap[1] * gap[2] > 0)
        settled = finite & ~kink & resolved & (np.abs(richardson[0] - richardson[1]) <= settle * scale)
        for k, i in enumerate(todo):
            if settled[k]:
                expected.value[elements[i]] = richardson[1][k]
                kink_levels[i] = 0
                continue
            if kink[k] and (not kink_levels[i] or abs(gap[2][k] - first_gap[i]) <= 0.25 * abs(first_gap[i])):
                if not kink_levels[i]:  # the one-sided derivatives, Richardson-extrapolated
                    first_gap[i] = gap[2][k]
                    why[i] = "the one-sided differences stay apart, but smaller steps could not tell if x is a kink"
                    sides = (2 * right[2][k] - right[1][k], 2 * left[2][k] - left[1][k])
                    low[i], high[i] = min(sides), max(sides)
                kink_levels[i] += 1
                near[i] = hs[k]
                active[i] = kink_levels[i] <= FD_KINK_LEVELS  # smaller steps: a kink at x, or only near it?
                h[i] = hs[k] / FD_SHRINK
                continue
            if kink_levels[i] > 1:
                continue  # a kink seen at several steps stands; smaller ones tell nothing new
            kink_levels[i] = 0
            where = label(name, shape, int(elements[i]))
            if not finite[k]:
                side = "+" if not np.all(np.isfinite(f[0::2, k])) else "-"
                why[i] = f"the function is not finite at {where} {side} h for any step h tried, down to {hs[k] / 4:.2g}"
                active[i] = True
                # Past a domain's edge: shrink; past zero, where domains often end, at once to x's scale.
                h[i] = min(hs[k] / FD_SHRINK, abs(x[i]) / 4) if 0 < abs(x[i]) < hs[k] else hs[k] / FD_SHRINK
            elif not resolved[k]:  # smaller steps would only round worse; larger ones may do
                why[i] = (f"the output ({abs(f0):.3g}) changes too little over a step of {hs[k] / 4:.2g} at {where} "
                          f"for its rounding to be below the tolerance")
                if hs[k] >= first[i] and grown[i] < FD_GROW:
                    grown[i] += 1
                    active[i] = True
                    h[i] = hs[k] * FD_SHRINK
            else:
                why[i] = (f"finite differences do not settle: steps {hs[k]:.2g} to {hs[k] / 4:.2g} give "
                          f"{central[0][k]:.6g} to {central[2][k]:.6g}")
                active[i] = True
                h[i] = hs[k] / FD_SHRINK
    for j, element in enumerate(elements.tolist()):
        if kink_levels[j] > 1:
            expected.low[element], expected.high[element] = low[j], high[j]
            expected.why[element] = f"not differentiable at the point (or within {near[j]:.2g} of it)"
        elif np.isnan(expected.value[element]):
            expected.why[element] = why[j] or "finite differences do not settle"


# --- comparing ---------------------------------------------------------------------------


@dataclass(eq=False)
class Note:
    """An element that was not compared with a value: a kink, or no reference to be had."""

    input: str  # the element: `x`, `z[1]`
    why: str
    grad: float
    one_sided: tuple[float, float] | None = None  # at a kink: the one-sided derivatives
    ok: bool = True  # at a kink: does the gradient lie between them?


@dataclass(eq=False)
class Agreement:
    """How far the gradient is from one reference, and what could not be held against it."""

    reference: str
    max_abs: float  # over the elements compared with a value (NaN when there were none)
    max_rel: float
    ok: bool  # nothing disagrees
    skipped: str = ""  # why this reference could not be had at all
    compared: int = 0  # elements compared with a value
    elements: int = 0  # elements there are
    not_differentiable: list[Note] = field(default_factory=list)
    unchecked: list[Note] = field(default_factory=list)

    @property
    def checked(self) -> int:
        """Elements held against a value or a bracket."""
        return self.compared + sum(1 for note in self.not_differentiable if note.one_sided is not None)


def compare(reference: str, gradient: Mapping[str, Array], expected: Mapping[str, Expected], tol: float) -> Agreement:
    """Within tolerance where |g - e| <= tol * (1 + |e|); at a kink, between the one-sided values."""
    worst_abs = worst_rel = 0.0
    ok = True
    agreement = Agreement(reference, np.nan, np.nan, True)
    for name, want in expected.items():
        shape = np.shape(gradient[name])
        got = np.asarray(gradient[name], dtype=float).reshape(-1)
        agreement.elements += got.size
        has_value = ~np.isnan(want.value)
        if has_value.any():
            g, e = got[has_value], want.value[has_value]
            same = (np.isnan(g) & np.isnan(e)) | (np.isinf(g) & (g == e))
            difference = np.where(same, 0.0, np.abs(g - e))
            difference = np.where(np.isnan(difference), np.inf, difference)
            scale = np.where(np.isfinite(e), np.abs(e), 0.0)
            worst_abs = max(worst_abs, float(np.max(difference)))
            worst_rel = max(worst_rel, float(np.max(difference / np.maximum(scale, np.finfo(float).tiny))))
            ok = ok and bool(np.all(difference <= tol * (1.0 + scale)))
            agreement.compared += int(has_value.sum())
        for element in np.flatnonzero(~has_value):
            where = label(name, shape, int(element))
            lo, hi = float(want.low[element]), float(want.high[element])
            if not np.isnan(lo):
                inside = bool(lo - tol * (1 + abs(lo)) <= got[element] <= hi + tol * (1 + abs(hi)))
                ok = ok and inside
                agreement.not_differentiable.append(Note(where, want.why[element], float(got[element]), (lo, hi),
                                                         inside))
            elif want.why[element].startswith("not differentiable"):
                agreement.not_differentiable.append(Note(where, want.why[element], float(got[element])))
            elif want.why[element]:
                agreement.unchecked.append(Note(where, want.why[element], float(got[element])))
    if agreement.compared:
        agreement.max_abs, agreement.max_rel = worst_abs, worst_rel
    agreement.ok = ok
    return agreement


def sympy_expected(report: Report, names: Sequence[str], fd: Mapping[str, Expected], output_finite: bool = True
                   ) -> dict[str, Expected]:
    """SymPy's values as a reference; where the point is a kink, SymPy's convention is not one.

    SymPy writes the derivative of relu, abs or max with Heaviside and sign, whose values at
    0 (1/2 and 0) are conventions. An element is a kink for SymPy where finite differences
    found one, or where they have no value and SymPy's derivative holds Heaviside(0) or sign(0).
    Where the output itself is not finite (not real), SymPy's derivative is no reference either.
    """
    assert report.values is not None
    expected = {}
    for name in names:
        values = np.asarray(report.values[name], dtype=float).reshape(-1)
        want = Expected.nothing(values.size)
        numeric = fd.get(name)
        for element in range(values.size):
            at_kink = numeric is not None and not np.isnan(numeric.low[element])
            convention = report.kinks[name][element] and (numeric is None or np.isnan(numeric.value[element]))
            if report.why[name][element]:
                want.why[element] = f"SymPy could not evaluate this derivative at the point ({report.why[name][element]})"
            elif not output_finite:
                want.why[element] = NOT_FINITE
            elif at_kink or convention:
                want.why[element] = ("not differentiable at the point: SymPy's value there comes from "
                                     "Heaviside(0) = 1/2 or sign(0) = 0, a convention; not compared")
            else:
                want.value[element] = values[element]
        expected[name] = want
    return expected


def check(result: GradResult, tol: float = 1e-5, symbolic_limit: int | None = None, *,
          seconds: float | None = None, sympy_report: Report | None = None) -> list[Agreement]:
    """The gradient against central finite differences and against SymPy's derivative.

    SymPy works in a worker process given at most `seconds` (see symbolic.derive); a report
    made already (for --symbolic) can be passed as `sympy_report`.
    """
    from gradcli import symbolic

    checked_tolerance(tol)
    names = [n for n in result.wrt if n in result.tape.inputs]
    gradient = result.grad
    numeric = finite_differences(result, names, tol)
    agreements = [compare("finite differences", gradient, numeric, tol)]
    report = sympy_report
    if report is None:
        limit = symbolic.DEFAULT_LIMIT if symbolic_limit is None else symbolic_limit
        report = symbolic.derive(result, names, formulas=False, values=True, limit=limit, seconds=seconds)
    if report.values is None:
        agreements.append(Agreement("SymPy", np.nan, np.nan, True, skipped=report.problem))
    else:
        output_finite = bool(np.isfinite(_objective(result)[0]))
        agreements.append(compare("SymPy", gradient, sympy_expected(report, names, numeric, output_finite), tol))
    return agreements
