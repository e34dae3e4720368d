"""A formula written over an op's arguments, as text cut at the arguments' places: `cos(#0)` is ("cos(", 0, ")").

`explain` writes each edge's local derivative as SymPy prints it (symbolic.local_derivative_template), and
each node's definition as the language writes it (ops.node_text). Both are cut once per kind of edge or
node and filled here with each one's argument names; gradcli/table.py holds those of the rows of numbers,
cut at generation time, so that explain of a program of numbers loads neither SymPy nor the op table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
