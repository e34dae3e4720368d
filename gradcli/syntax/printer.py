"""Tree -> text that parses back to the same tree."""

from __future__ import annotations

from gradcli.syntax import operators
from gradcli.syntax.tree import (
    Binary,
    Call,
    Expr,
    Index,
    ListLit,
    Name,
    Num,
    Program,
    Slice,
    Statement,
    Str,
    TupleLit,
    Unary,
    fold,
)

# A node's text is printed with its binding power (operators.py): an atom, a call or a
# subscript binds tightest.
_ATOM = operators.POSTFIX_POWER


def to_source(node: Program | Statement | Expr) -> str:
    """Text that parses back to the same tree: parse(to_source(t)) == t.

    Parentheses are written only where binding powers need them. Iterative, like the parser.
    """
    if isinstance(node, Program):
        return "\n".join(to_source(statement) for statement in node.statements)
    if isinstance(node, Statement):
        value = to_source(node.value)
        if isinstance(node.target, tuple):  # a, b = ...
            return f"{', '.join(node.target)} = {value}"
        return value if node.target is None else f"{node.target} = {value}"
    return _print_expression(node)



def _print_expression(root: Expr) -> str:
    # Each node's (text, binding power), from its children's.
    return str(fold(root, _print_one)[0])


def _wrapped(part: tuple[str, int], needs: bool) -> str:
    return f"({part[0]})" if needs else part[0]


def _print_one(node: Expr | Slice, parts: list[tuple[str, int]]) -> tuple[str, int]:
    if isinstance(node, Num):
        return node.text, _ATOM
    if isinstance(node, (Name, Str)):
        return (node.id if isinstance(node, Name) else node.text), _ATOM
    if isinstance(node, Unary):
        power = operators.PREFIX[node.op]
        return f"{node.op}{_wrapped(parts[0], parts[0][1] < power)}", power
    if isinstance(node, Binary):
        power = operators.INFIX[node.op][0]
        left, right = parts
        if node.op in operators.RIGHT_ASSOCIATIVE:  # a signed base needs parentheses, (-x)**2; a signed exponent not: 2**-x
            text = f"{_wrapped(left, left[1] <= power)} {node.op} {_wrapped(right, right[1] < operators.PREFIX_POWER)}"
        else:
            chained = node.op in operators.COMPARISONS and left[1] == power  # (a < b) < c
            text = f"{_wrapped(left, left[1] < power or chained)} {node.op} {_wrapped(right, right[1] <= power)}"
        return text, power
    if isinstance(node, Call):
        positional = [p[0] for p in parts[: len(node.args)]]
        keywords = [f"{name}={p[0]}" for (name, _), p in zip(node.keywords, parts[len(node.args):], strict=True)]
        if node.func.startswith("."):  # a row that is a method only: x.repeat(2)
            receiver = parts[0]
            if node.func in (".values", ".indices"):  # a property: max(x, 0).values
                return f"{_wrapped(receiver, receiver[1] < _ATOM)}{node.func}", _ATOM
            return f"{_wrapped(receiver, receiver[1] < _ATOM)}{node.func}({', '.join(positional[1:] + keywords)})", _ATOM
        return f"{node.func}({', '.join(positional + keywords)})", _ATOM
    if isinstance(node, Index):
        base, items = parts[0], parts[1:]
        return f"{_wrapped(base, base[1] < _ATOM)}[{', '.join(p[0] for p in items)}]", _ATOM
    if isinstance(node, Slice):
        given = iter(parts)
        pieces = ["" if part is None else next(given)[0] for part in (node.start, node.stop, node.step)]
        text = ":".join(pieces) if node.step is not None else ":".join(pieces[:2])
        return text, _ATOM
    if isinstance(node, ListLit):
        return f"[{', '.join(p[0] for p in parts)}]", _ATOM
    assert isinstance(node, TupleLit)
    inner = ", ".join(p[0] for p in parts)
    return (f"({inner},)" if len(parts) == 1 else f"({inner})"), _ATOM
