"""The operators of the language, read off the op table's rows: their spellings and binding powers.

An operator's row (ops.BINARY_OPERATORS, ops.PREFIX_OPERATORS, as gradcli/table.py holds them) gives its precedence (higher
binds tighter) and whether it is right-associative. The parser works in binding powers, twice
the precedence, so that an operator's right operand can stop just below an operator of its
own precedence (left-associative) or take it in (right-associative):

    infix  `a OP b`: OP holds `a` with its left power 2p; `b` is parsed until an operator whose
                     left power is at most OP's right power: 2p, or 2p - 1 if right-associative
    prefix `OP b`:   `b` is parsed until an operator whose left power is at most 2p
    postfix `f(...)`, `v[...]`: bind tighter than every operator

With Python's precedence this gives `-x**2 == -(x**2)`, `x**y**z == x**(y**z)`, `2**-x*3 ==
(2**-x)*3` and `a - b - c == (a - b) - c`.
"""

from __future__ import annotations

from gradcli import table  # (the rows' data, generated: the parser loads neither the op table nor NumPy)

_INFIX_PRECEDENCE = table.INFIX
_PREFIX_PRECEDENCE = table.PREFIX

# Unary plus is no op (PyTorch records no node for `+x`): it binds as the prefix operators do.
UNARY_PLUS = "+"
PREFIX_POWER = 2 * min(_PREFIX_PRECEDENCE.values())

# symbol -> (left power, right power) of an infix operator
INFIX: dict[str, tuple[int, int]] = {
    symbol: (2 * precedence, 2 * precedence - right_assoc) for symbol, (precedence, right_assoc) in _INFIX_PRECEDENCE.items()
}
RIGHT_ASSOCIATIVE = frozenset(symbol for symbol, (_, right_assoc) in _INFIX_PRECEDENCE.items() if right_assoc)
# symbol -> the right power of a prefix operator
PREFIX: dict[str, int] = {UNARY_PLUS: PREFIX_POWER} | {symbol: 2 * p for symbol, p in _PREFIX_PRECEDENCE.items()}
# calls and subscripts, and anything that needs no parentheses: tighter than every operator
POSTFIX_POWER = 2 * max(*(p for p, _ in _INFIX_PRECEDENCE.values()), *_PREFIX_PRECEDENCE.values()) + 2

SPELLINGS = frozenset(INFIX) | frozenset(PREFIX)
# `a < b < c`: Python chains comparisons (a < b and b < c); gradcli refuses it.
COMPARISONS = table.COMPARISONS
