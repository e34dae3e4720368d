"""Tape -> SymPy expressions, built from the op table's SymPy rules (never from text).

Every value becomes a NumPy array of SymPy expressions (dtype object), so that vectors and
matrices, broadcasting, indexing and `@` work as in the numeric engine. SymPy is imported
only here, and only when a symbolic view is asked for.

SymPy's time is not bounded by the size of the program (an expression can double with each
statement), so `derive` runs it in a worker process with a deadline: the worker is given the
tape as data (op names, arguments, constants; never text to parse), sends back what it has
as it goes (formulas, unsimplified first; the derivatives' values at the point), and is
killed at the deadline. What arrived is used; past the budget gradcli goes on without SymPy.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli.errors import GradcliError, LimitProblem
from gradcli.formulas import Template, derivative_template, filled, operand, placeholders, written
from gradcli.ops import OPS, Op, load_sympy
from gradcli.tape import APPLY, INPUT, Node, Tape

if TYPE_CHECKING:
    from gradcli.derivatives import GradResult

Array = np.ndarray

DEFAULT_LIMIT = 2_000  # elements over all the nodes SymPy is given, by default
DEFAULT_SECONDS = 5.0  # SymPy's time budget: build, differentiate, evaluate, simplify and print
SECONDS_VARIABLE = "GRADCLI_SYMBOLIC_SECONDS"


def _number(value: float) -> Any:
    sympy = load_sympy()
    return sympy.Integer(int(value)) if float(value).is_integer() else sympy.Float(float(value))


def input_symbols(tape: Tape, shapes: Mapping[str, tuple[int, ...]]) -> dict[str, Array]:
    """A real symbol per input element: `x1`, or `z[0]`, `z[1]` for a vector z."""
    sympy = load_sympy()
    symbols = {}
    for name in tape.inputs:
        shape = shapes[name]
        grid = np.empty(shape, dtype=object)
        for index in np.ndindex(*shape):
            label = name + "".join(f"[{i}]" for i in index)
            grid[index] = sympy.Symbol(label, real=True)
        symbols[name] = grid
    return symbols


def expressions(tape: Tape, symbols: Mapping[str, Array], upto: int, limit: int = DEFAULT_LIMIT) -> list[Array | None]:
    """A SymPy expression array for every node up to `upto`, from the op table's rules."""
    sympy = load_sympy()
    nodes = tape.nodes
    result: list[Array | None] = [None] * len(nodes)
    elements = 0
    for node in nodes[: upto + 1]:
        if node.kind == INPUT:
            assert node.name is not None
            value = symbols[node.name]
        elif node.kind == APPLY:
            assert node.op is not None
            args = [result[a] for a in node.args]
            value = apply_rule(node.op, args, node.params)  # type: ignore[arg-type]
        else:
            assert node.value is not None
            value = np.asarray(np.vectorize(_number, otypes=[object])(node.value), dtype=object)
        elements += max(1, int(np.size(value)))
        if elements > limit:
            raise LimitProblem(f"the program is too large for SymPy: more than {limit:,} expression elements",
                               hint="raise the limit with --symbolic-limit N, at the cost of time")
        result[node.index] = value
    del sympy
    return result


def apply_rule(op: Op, args: Sequence[Array], params: dict[str, Any]) -> Array:
    if op.sympy is None:
        raise LimitProblem(f"{op.name} has no SymPy rule")
    if op.elementwise:
        return np.asarray(np.frompyfunc(lambda *xs: op.sympy(*xs, **params), len(args), 1)(*args), dtype=object)  # type: ignore[misc]
    return np.asarray(op.sympy(*args, **params), dtype=object)


def objective(tape: Tape, exprs: Sequence[Array | None], roots: Sequence[int], seeds: Sequence[Array]) -> Any:
    """sum over roots of sum(seed * root): what the reverse sweep differentiates."""
    sympy = load_sympy()
    terms = []
    for root, seed in zip(roots, seeds, strict=True):
        root_expr = exprs[root]
        assert root_expr is not None
        for index in np.ndindex(*np.shape(seed)):
            weight = float(np.asarray(seed)[index])
            if weight:
                terms.append(_number(weight) * np.broadcast_to(root_expr, np.shape(seed))[index])
    return sympy.Add(*terms)


def gradient_expressions(tape: Tape, point: Mapping[str, Array], roots: Sequence[int], seeds: Sequence[Array],
                         names: Sequence[str], limit: int = DEFAULT_LIMIT) -> tuple[dict[str, Array], dict[str, Array]]:
    """SymPy's derivative of the objective, per element of each named input; and the symbols."""
    sympy = load_sympy()
    shapes = {name: np.shape(value) for name, value in point.items()}
    symbols = input_symbols(tape, shapes)
    for name in tape.integer_inputs:  # an index is a number of the point, never a variable
        symbols[name] = np.asarray(point[name]).astype(np.intp)
    try:
        exprs = expressions(tape, symbols, max(roots), limit)
        total = objective(tape, exprs, roots, seeds)
        derivatives = {}
        for name in names:
            grid = np.empty(shapes[name], dtype=object)
            for index in np.ndindex(*shapes[name]):
                grid[index] = sympy.diff(total, symbols[name][index])
            derivatives[name] = grid
    except RecursionError:
        raise LimitProblem("the program is too deep for SymPy", hint="try a smaller program") from None
    return derivatives, {name: grid for name, grid in symbols.items() if name not in tape.integer_inputs}




# --- the derivatives at the point ------------------------------------------------------


def _exact(value: float) -> Any:
    """A float as SymPy's exact rational (infinities and NaN as SymPy's)."""
    sympy = load_sympy()
    return sympy.Rational(value) if math.isfinite(value) else sympy.Float(value)


def _short(problem: Exception) -> str:
    text = " ".join(str(problem).split())
    text = text if len(text) <= 100 else text[:97] + "..."
    return f"SymPy raised {type(problem).__name__}" + (f": {text}" if text else "")


def at_point(entry: Any, exact: Mapping[Any, Any]) -> tuple[float, str, bool]:
    """One derivative at the point: (value, why there is none, is it at a Heaviside(0)/sign(0)).

    SymPy may answer zoo (1/0), nan (0*log(0)), a complex number (log of a negative number),
    or raise: each is a reason, never a number.
    """
    sympy = load_sympy()
    kink = False
    # Exact arithmetic: the inputs, and the program's constants, as the binary fractions they
    # are. In floating point, sqrt(1 - 0.25/a**2) at a = -0.5 is a tiny number, not 0, and
    # its reciprocal a huge one, not zoo.
    exact = {**exact, **{number: sympy.Rational(number) for number in entry.atoms(sympy.Float)
                         if math.isfinite(float(number))}}
    for atom in entry.atoms(sympy.Heaviside, sympy.sign):
        try:
            kink = kink or bool(atom.args[0].xreplace(exact).is_zero)
        except (TypeError, ValueError, ArithmeticError):
            pass
    try:
        number = entry.xreplace(exact).evalf()
    except Exception as problem:  # SymPy raises what it raises; it is a reason, said as such
        return math.nan, _short(problem), kink
    if number.has(sympy.zoo):
        return math.nan, "it is complex infinity, zoo, there", kink
    if number.has(sympy.nan):
        return math.nan, "it is undefined, nan, there", kink
    if not number.is_number:
        return math.nan, f"SymPy left it as {sympy.sstr(number)[:80]}", kink
    try:
        value = complex(number)
    except (TypeError, ValueError) as problem:
        return math.nan, _short(problem), kink
    if abs(value.imag) > 1e-12 * max(1.0, abs(value.real)):
        return math.nan, f"it is not real there: {value.real:.6g}{value.imag:+.6g}i", kink
    return value.real, "", kink


def evaluate(derivatives: Mapping[str, Array], symbols: Mapping[str, Array], point: Mapping[str, Array]) -> dict[str, Array]:
    """The derivatives' values at the point; NaN where SymPy has none (see at_point)."""
    values, _, _ = evaluate_with_reasons(derivatives, symbols, point)
    return values


def evaluate_with_reasons(derivatives: Mapping[str, Array], symbols: Mapping[str, Array], point: Mapping[str, Array]
                          ) -> tuple[dict[str, Array], dict[str, list[str]], dict[str, list[bool]]]:
    """The derivatives at the point, with why (per element) where there is no value, and the kinks."""
    exact = {}
    for name, grid in symbols.items():
        for index in np.ndindex(*np.shape(grid)):
            exact[grid[index]] = _exact(float(np.asarray(point[name])[index]))
    values, why, kinks = {}, {}, {}
    for name, grid in derivatives.items():
        out = np.empty(np.shape(grid))
        reasons, flags = [], []
        for index in np.ndindex(*np.shape(grid)):
            out[index], reason, kink = at_point(grid[index], exact)
            reasons.append(reason)
            flags.append(kink)
        values[name], why[name], kinks[name] = out, reasons, flags
    return values, why, kinks


# --- the worker and its budget ---------------------------------------------------------


@dataclass(eq=False)
class Report:
    """What SymPy gave within its budget: formulas, values at the point, or why not."""

    formulas: dict[str, Any] | None = None  # input name -> formula text (nested lists for a tensor)
    all_simplified: bool = True
    values: dict[str, Array] | None = None  # input name -> SymPy's derivative at the point (NaN: see why)
    why: dict[str, list[str]] = field(default_factory=dict)  # per element (flat): why there is no value
    kinks: dict[str, list[bool]] = field(default_factory=dict)  # per element: Heaviside(0) or sign(0) in it
    problem: str = ""  # why a part asked for is missing: past the budget, too large, ...


def budget(seconds: float | None = None) -> float:
    """SymPy's time budget: `seconds`, else GRADCLI_SYMBOLIC_SECONDS, else the default."""
    given, where, hint = seconds, "--symbolic-seconds", f"the default comes from {SECONDS_VARIABLE}"
    shown = f"{given:g}" if given is not None else ""
    if given is None:
        text = os.environ.get(SECONDS_VARIABLE)
        if text is None:
            return DEFAULT_SECONDS
        where, hint, shown = SECONDS_VARIABLE, "or give --symbolic-seconds", repr(text)
        try:
            given = float(text)
        except ValueError:
            given = math.nan
    if not (math.isfinite(given) and given > 0):
        raise GradcliError(f"SymPy's time budget must be a finite number of seconds > 0, not {shown}",
                           where=where, hint=hint)
    return given


def size_check(result: GradResult, limit: int) -> None:
    """--symbolic-limit, from the numeric values' sizes: before SymPy is even started."""
    upto = max(result.roots)
    elements = sum(max(1, int(np.size(v))) for v in result.values[: upto + 1])
    if elements > limit:
        raise LimitProblem(f"the program is too large for SymPy: more than {limit:,} expression elements",
                           hint="raise the limit with --symbolic-limit N, at the cost of time")


def job(result: GradResult, names: Sequence[str], *, formulas: bool, values: bool, limit: int = DEFAULT_LIMIT
        ) -> dict[str, Any]:
    """What the worker is given: the tape as plain data (op names, arguments, constants) and numbers."""
    tape = result.tape
    upto = max(result.roots)
    nodes = [(node.kind, None if node.op is None else node.op.name, node.args, node.params, node.value,
              node.name if node.kind == INPUT else None) for node in tape.nodes[: upto + 1]]
    return {"nodes": nodes, "inputs": dict(tape.inputs), "point": dict(result.point), "roots": list(result.roots),
            "seeds": list(result.seeds), "names": list(names), "formulas": formulas, "values": values, "limit": limit,
            "integer_inputs": list(tape.integer_inputs)}


def _tape_of(data: Mapping[str, Any]) -> Tape:
    nodes = [Node(index, kind, None if op is None else OPS[op], args, (0, 0), params, name, value)
             for index, (kind, op, args, params, value, name) in enumerate(data["nodes"])]
    tape = Tape("", nodes, dict(data["inputs"]), {}, tuple(data["roots"]), (), False)
    tape.integer_inputs = tuple(data.get("integer_inputs", ()))
    return tape


def _texts(grid: Array) -> Any:
    sympy = load_sympy()
    return sympy.sstr(grid.item()) if grid.ndim == 0 else np.vectorize(sympy.sstr, otypes=[object])(grid).tolist()


def _work(connection: Any, data: Mapping[str, Any]) -> None:
    """The worker: SymPy's part, each result sent as soon as it is had."""
    try:
        sympy = load_sympy()
        tape = _tape_of(data)
        derivatives, symbols = gradient_expressions(tape, data["point"], data["roots"], data["seeds"],
                                                    data["names"], data["limit"])
        if data["formulas"]:
            connection.send(("formulas", {name: _texts(grid) for name, grid in derivatives.items()}))
        if data["values"]:
            connection.send(("values", *evaluate_with_reasons(derivatives, symbols, data["point"])))
        if data["formulas"]:
            for name, grid in derivatives.items():
                for flat, entry in enumerate(grid.flat):
                    connection.send(("simplified", name, flat, sympy.sstr(sympy.simplify(entry))))
        connection.send(("done",))
    except GradcliError as problem:
        connection.send(("problem", problem.message + (f"; {problem.hint}" if problem.hint else "")))
    except RecursionError:
        connection.send(("problem", "the program is too deep for SymPy"))
    except Exception as problem:  # the worker says what went wrong; the parent goes on without SymPy
        connection.send(("problem", _short(problem)))
    finally:
        connection.close()


def _start_method() -> str:
    import multiprocessing

    # fork: the worker starts at once with what is imported; elsewhere (macOS, Windows) spawn.
    return "fork" if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods() \
        else "spawn"


def derive(result: GradResult, names: Sequence[str], *, formulas: bool, values: bool, limit: int = DEFAULT_LIMIT,
           seconds: float | None = None, start_method: str | None = None) -> Report:
    """SymPy's derivative of what `result` differentiated, within `seconds` (see budget).

    With `formulas`, each derivative as text (simplified as far as the budget allows); with
    `values`, its value at the point. A program past `limit` expression elements is refused
    before any work: a LimitProblem when formulas are asked for, else the report says why.
    """
    import multiprocessing

    seconds = budget(seconds)
    report = Report()
    try:
        size_check(result, limit)
    except LimitProblem as problem:
        if formulas:
            raise
        report.problem = f"{problem.message}; {problem.hint}"
        return report
    method = start_method or _start_method()
    if method == "fork":
        load_sympy()  # imported once, here, and not by the worker against its budget
    context: Any = multiprocessing.get_context(method)
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(target=_work, args=(sender, job(result, names, formulas=formulas, values=values,
                                                              limit=limit)), daemon=True)
    for stream in (sys.stdout, sys.stderr):  # a forked copy must not write what is buffered again
        stream.flush()
    deadline = time.monotonic() + seconds
    worker.start()
    sender.close()
    done = False
    try:
        while not done:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not receiver.poll(remaining):
                break
            try:
                message = receiver.recv()
            except EOFError:
                break
            done = _take(report, message)
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join()
        receiver.close()
    if not done and not report.problem:
        report.all_simplified = False
        report.problem = (f"SymPy ran past its time budget of {seconds:g} s; raise it with --symbolic-seconds or "
                          f"{SECONDS_VARIABLE}" if time.monotonic() >= deadline else
                          f"the SymPy worker stopped (exit code {worker.exitcode})")
    return report


def _take(report: Report, message: tuple[Any, ...]) -> bool:
    """One message from the worker into the report; True when it is the last."""
    kind = message[0]
    if kind == "formulas":
        report.formulas = message[1]
    elif kind == "values":
        report.values, report.why, report.kinks = message[1], message[2], message[3]
    elif kind == "simplified":
        _, name, flat, text = message
        assert report.formulas is not None
        if isinstance(report.formulas[name], list):
            shape = np.shape(np.asarray(report.formulas[name], dtype=object))
            cell: Any = report.formulas[name]
            index = np.unravel_index(flat, shape)
            for i in index[:-1]:
                cell = cell[i]
            cell[index[-1]] = text
        else:
            report.formulas[name] = text
    elif kind == "problem":
        report.problem = message[1]
        return True
    return kind in ("done", "problem")


# --- local derivatives for `gradcli explain` --------------------------------------------

_TEMPLATES: dict[tuple[str, int, int, str, str], Template | None] = {}


def local_derivative_formula(op: Op, arg_names: Sequence[str], position: int, params: dict[str, Any],
                             constants: dict[int, float] | None = None) -> str | None:
    """d op(args) / d args[position] as a formula in the argument names, e.g. `cos(x2)`, simplified
    as a textbook writes it (local_derivative_template); None where there is none."""
    template = local_derivative_template(op, len(arg_names), position, params, constants)
    return None if template is None else filled(template, [operand(name) for name in arg_names])


def local_derivative_template(op: Op, arity: int, position: int, params: dict[str, Any],
                              constants: dict[int, float] | None = None) -> Template | None:
    """d op(args) / d args[position] as SymPy prints it, cut at the arguments' places (formulas.Template): the
    numbers of `constants` (arg position -> a number written in the program) put in before differentiating, so
    `a**3` gives `3*a**2`, never `a**3*3/a` (0/0 at 0).

    None when the op has no scalar SymPy rule (the tensor ops) or SymPy cannot differentiate it.
    SymPy works once per op, position, parameters and numbers, in placeholders; each edge then
    fills the argument names in: `explain` of a large program costs one SymPy call per kind of edge.
    """
    if op.sympy is None or not op.elementwise:
        return None
    numbers = tuple(sorted((constants or {}).items()))
    key = (op.name, arity, position, repr(sorted(params.items())), repr(numbers))
    if key not in _TEMPLATES:
        _TEMPLATES[key] = _template(op, arity, position, params, dict(numbers))
    return _TEMPLATES[key]


def _template(op: Op, arity: int, position: int, params: dict[str, Any], numbers: dict[int, float]) -> Template | None:
    """The derivative printed with placeholders, cut at the argument slots."""
    assert op.sympy is not None
    slots = placeholders(arity)
    operands = [written(numbers[i]) if i in numbers and math.isfinite(numbers[i]) and i != position else slot
                for i, slot in enumerate(slots)]
    try:
        expression = op.sympy(*operands, **params)
    except (TypeError, ValueError, AttributeError, NotImplementedError):
        return None
    return derivative_template(expression, slots[position])
