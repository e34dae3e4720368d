"""Tape -> SymPy expressions, built from the op table's SymPy rules (never from text).

Every value becomes a NumPy array of SymPy expressions (dtype object), so that vectors and
matrices, broadcasting, indexing and `@` work as in the numeric engine. SymPy is imported
only here, and only when a symbolic view is asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from gradcli.errors import LimitProblem
from gradcli.ops import Op, load_sympy
from gradcli.tape import APPLY, INPUT, Tape

Array = np.ndarray

DEFAULT_LIMIT = 2_000  # elements over all the nodes SymPy is given, by default
DEFAULT_SIMPLIFY_SECONDS = 2.0


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
    return derivatives, symbols


def evaluate(derivatives: Mapping[str, Array], symbols: Mapping[str, Array], point: Mapping[str, Array]) -> dict[str, Array]:
    """The derivatives' values at the point."""
    substitution = {}
    for name, grid in symbols.items():
        for index in np.ndindex(*np.shape(grid)):
            substitution[grid[index]] = float(np.asarray(point[name])[index])
    values = {}
    for name, grid in derivatives.items():
        out = np.empty(np.shape(grid))
        for index in np.ndindex(*np.shape(grid)):
            entry: Any = grid[index]
            number = complex(entry.evalf(subs=substitution))
            out[index] = number.real if abs(number.imag) <= 1e-12 * max(1.0, abs(number.real)) else np.nan
        values[name] = out
    return values


def simplified(expression: Any, seconds: float) -> tuple[Any, bool]:
    """SymPy's simplify, given at most `seconds`; the unsimplified form when it runs long."""
    sympy = load_sympy()
    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append(sympy.simplify(expression))
        except Exception:
            outcome.append(None)

    worker = threading.Thread(target=work, daemon=True)  # left behind if it runs long
    worker.start()
    worker.join(max(0.0, seconds))
    if outcome and outcome[0] is not None:
        return outcome[0], True
    return expression, False


def formulas(derivatives: Mapping[str, Array], seconds: float = DEFAULT_SIMPLIFY_SECONDS) -> tuple[dict[str, Any], bool]:
    """Each derivative as text, simplified within a total of `seconds`; and whether all were."""
    sympy = load_sympy()
    import time

    deadline = time.monotonic() + seconds
    texts: dict[str, Any] = {}
    all_simplified = True
    for name, grid in derivatives.items():
        shown = np.empty(np.shape(grid), dtype=object)
        for index in np.ndindex(*np.shape(grid)):
            expression, done = simplified(grid[index], deadline - time.monotonic())
            all_simplified = all_simplified and done
            shown[index] = sympy.sstr(expression)
        texts[name] = shown.tolist()
    return texts, all_simplified


def local_derivative_formula(op: Op, arg_names: Sequence[str], position: int, params: dict[str, Any]) -> str | None:
    """d op(args) / d args[position] as a formula in the argument names, e.g. `cos(x2)`.

    None when the op has no scalar SymPy rule (the tensor ops) or SymPy cannot differentiate it.
    """
    if op.sympy is None or not op.elementwise:
        return None
    sympy = load_sympy()
    # One symbol per argument position, so that x*x has the two edges d/da = b and d/db = a.
    placeholders = [sympy.Dummy(f"a{i}", real=True) for i in range(len(arg_names))]
    try:
        expression = op.sympy(*placeholders, **params)
        derivative = sympy.diff(expression, placeholders[position])
    except (TypeError, ValueError, AttributeError, NotImplementedError):
        return None
    named = derivative.subs({p: sympy.Symbol(name, real=True) for p, name in zip(placeholders, arg_names, strict=True)},
                            simultaneous=True)
    return str(sympy.sstr(named))
