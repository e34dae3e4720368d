"""A formula written over an op's arguments, as text cut at the arguments' places: `cos(#0)` is ("cos(", 0, ")").

`explain` writes each edge's local derivative as SymPy prints it (symbolic.local_derivative_template), and
each node's definition as the language writes it (ops.node_text). Both are cut once per kind of edge or
node and filled here with each one's argument names; gradcli/table.py holds those of the rows of numbers,
cut at generation time, so that explain of a program of numbers loads neither SymPy nor the op table. Where an
edge has a number the table holds no formula for (`x ** 2.37`), the row's SymPy expression, which the table holds
as data (`form`), is differentiated here: SymPy is loaded, the op table and NumPy are not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

Template = tuple[str | int, ...]  # text, and at an argument's place its position

SLOT = "gradcliarg"  # the placeholders' names: no name of the language starts like this


def cut(text: str) -> Template:
    """Text written over placeholders `gradcliarg0`, `gradcliarg1`... as a template."""
    pieces: list[str | int] = []
    for piece in re.split(f"({SLOT}\\d+)", text):
        if piece.startswith(SLOT):
            pieces.append(int(piece[len(SLOT):]))
        elif piece:
            pieces.append(piece)
    return tuple(pieces)


def filled(template: Template, texts: Sequence[str]) -> str:
    return "".join(piece if type(piece) is str else texts[piece] for piece in template)  # type: ignore[index]


def operand(text: str) -> str:
    """An argument as it may stand inside a formula: a name or a plain number as is, else in parentheses."""
    if text.isidentifier() or text.replace(".", "", 1).replace("e-", "", 1).replace("e+", "", 1).isdigit():
        return text
    return f"({text})"


# --- SymPy's local derivative: the one step symbolic.local_derivative_template and the scalar path share ---

Form = tuple[Any, ...]  # a SymPy expression as data: (its class's name in sympy, *its args' forms); an arg: ("arg", i)


def written(value: float) -> Any:
    """A number of the program for SymPy: an integer as one, a short decimal as its fraction (0.5: 1/2)."""
    import sympy

    if value == int(value) and abs(value) < 2**53:
        return sympy.Integer(int(value))
    text = repr(float(value))
    return sympy.Rational(text) if len(text) <= 8 and "e" not in text else sympy.Float(value)


def derivative_template(expression: Any, placeholder: Any) -> Template | None:
    """d expression / d placeholder as SymPy prints it, simplified as a textbook writes it, cut at the placeholders;
    None where SymPy cannot differentiate it."""
    import sympy

    try:
        derivative = sympy.diff(expression, placeholder)
        simpler = sympy.powsimp(sympy.cancel(derivative)) if derivative.is_Mul or derivative.is_Add else derivative
        if sympy.count_ops(simpler) <= sympy.count_ops(derivative):
            derivative = simpler
    except (TypeError, ValueError, AttributeError, NotImplementedError, sympy.PolynomialError):
        return None
    # SymPy's step is 1/2 at 0, PyTorch's relu and clamp take 0 there: written as the comparison it is
    return cut(re.sub(r"Heaviside\(([^(),]+)\)", r"(\1 > 0)", sympy.sstr(derivative)))


def placeholders(arity: int) -> list[Any]:
    import sympy

    return [sympy.Symbol(f"{SLOT}{i}", real=True) for i in range(arity)]


def form(expression: Any) -> Form:
    """A row's SymPy expression over `placeholders` as data gradcli/table.py can hold (make_scalar_table.py);
    ValueError where it holds what `expression_of` could not build again as it is."""
    import sympy

    if expression.is_Symbol and expression.name.startswith(SLOT):
        return ("arg", int(expression.name[len(SLOT):]))
    if expression.is_Integer:
        return ("Integer", int(expression))
    if expression.is_Rational:
        return ("Rational", int(expression.p), int(expression.q))
    if expression.is_Float:
        return ("Float", float(expression))  # (a row's float constant: a double, 53 bits)
    if expression is sympy.true:
        return ("S", "true")
    if expression.is_Atom:
        name = type(expression).__name__
        if getattr(sympy.S, name, None) is not expression:
            raise ValueError(f"no form for {expression!r}")
        return ("S", name)
    if isinstance(expression, sympy.Piecewise):  # its args are pairs (expression, condition)
        return ("Piecewise", *(("pair", form(pair.expr), form(pair.cond)) for pair in expression.args))
    name = type(expression).__name__
    if getattr(sympy, name, None) is not type(expression):
        raise ValueError(f"no form for {name}")
    return (name, *(form(arg) for arg in expression.args))


def expression_of(data: Form, args: Sequence[Any]) -> Any:
    """The SymPy expression a form holds, `args` at the args' places (SymPy builds and simplifies it as it would
    have had the row been called on them)."""
    import sympy

    head, *rest = data
    if head == "arg":
        return args[rest[0]]
    if head in ("Integer", "Rational", "Float"):
        return getattr(sympy, head)(*rest)
    if head == "S":
        return getattr(sympy.S, rest[0])
    if head == "pair":
        return tuple(expression_of(part, args) for part in rest)
    return getattr(sympy, head)(*(expression_of(part, args) for part in rest))


_DERIVED: dict[tuple[Form, int, int, tuple[tuple[int, float], ...]], Template | None] = {}


def derivative_with_numbers(data: Form, arity: int, position: int, numbers: Mapping[int, float]) -> Template | None:
    """d row / d arg `position` with the numbers written in the program put in at their args (symbolic's
    local_derivative_template, from the table's form of the row: no op table). SymPy works once per kind of edge."""
    key = (data, arity, position, tuple(sorted(numbers.items())))
    if key not in _DERIVED:
        slots = placeholders(arity)
        args = [written(numbers[i]) if i in numbers and math.isfinite(numbers[i]) and i != position else slot
                for i, slot in enumerate(slots)]
        _DERIVED[key] = derivative_template(expression_of(data, args), slots[position])
    return _DERIVED[key]
