"""Tape -> SymPy expressions, built from the op table's SymPy rules (never from text).

SymPy is imported only here, and only when a symbolic view is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gradcli.ops import Op


def local_derivative_formula(op: Op, arg_names: Sequence[str], position: int, params: dict[str, Any]) -> str | None:
    """d op(args) / d args[position] as a formula in the argument names, e.g. `cos(x2)`.

    None when the op has no SymPy rule (the tensor ops) or SymPy cannot differentiate it.
    """
    if op.sympy is None:
        return None
    import sympy

    # One symbol per argument position, so that x*x has the two edges d/da = b and d/db = a.
    placeholders = [sympy.Dummy(f"a{i}", real=True) for i in range(len(arg_names))]
    try:
        expression = op.sympy(*placeholders, **params)
        derivative = sympy.diff(expression, placeholders[position])
    except (TypeError, ValueError, AttributeError, NotImplementedError):
        return None
    named = derivative.subs({p: sympy.Symbol(name, real=True) for p, name in zip(placeholders, arg_names, strict=True)},
                            simultaneous=True)
    return sympy.sstr(named)
