"""Tree -> text that parses back to the same tree."""

from __future__ import annotations

from gradcli.syntax.parser import _BINARY, _UNARY_PRECEDENCE
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
    TupleLit,
    Unary,
    fold,
)

_ATOM = 100
_PRINT_PRECEDENCE = {**_BINARY, "unary": _UNARY_PRECEDENCE}


def to_source(node: Program | Statement | Expr) -> str:
    """Text that parses back to the same tree: parse(to_source(t)) == t.

    Parentheses are written only where precedence needs them. Iterative, like the parser.
    """
    if isinstance(node, Program):
        return "\n".join(to_source(statement) for statement in node.statements)
    if isinstance(node, Statement):
        value = to_source(node.value)
        return value if node.target is None else f"{node.target} = {value}"
    return _print_expression(node)



def _print_expression(root: Expr) -> str:
    # Each node's (text, precedence), from its children's.
    return str(fold(root, _print_one)[0])


def _wrapped(part: tuple[str, int], needs: bool) -> str:
    return f"({part[0]})" if needs else part[0]


def _print_one(node: Expr | Slice, parts: list[tuple[str, int]]) -> tuple[str, int]:
    if isinstance(node, Num):
        return node.text, _ATOM
    if isinstance(node, Name):
        return node.id, _ATOM
    if isinstance(node, Unary):
        precedence = _PRINT_PRECEDENCE["unary"]
        return f"{node.op}{_wrapped(parts[0], parts[0][1] < precedence)}", precedence
    if isinstance(node, Binary):
        precedence = _PRINT_PRECEDENCE[node.op]
        left, right = parts
        if node.op == "**":  # right-associative; a unary base needs parentheses: (-x)**2
            text = f"{_wrapped(left, left[1] <= precedence)} ** {_wrapped(right, right[1] < _UNARY_PRECEDENCE)}"
        else:
            text = f"{_wrapped(left, left[1] < precedence)} {node.op} {_wrapped(right, right[1] <= precedence)}"
        return text, precedence
    if isinstance(node, Call):
        return f"{node.func}({', '.join(p[0] for p in parts)})", _ATOM
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
