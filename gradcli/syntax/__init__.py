"""Text -> syntax tree (or, through a sink, straight to the tape): a small piece of Python.

    tokens.py     text -> Tokens (kept as columns; each one a Token NamedTuple when looked at)
    operators.py  the operators' spellings and binding powers, read off the op table's rows
    parser.py     the grammar, and the table-driven, iterative Pratt parser that follows it:
                  it hands each construct to a sink (a TreeSink here, tape.TapeSink for the tape)
    tree.py       the nodes, the TreeSink, iterative walks (fold, replay)
    printer.py    to_source: a tree back to text that parses to the same tree

`#` starts a comment. Newlines inside brackets are ignored, as in Python.
"""

from gradcli.syntax.parser import Parser, assigned_names, no_cycle_collection, parse, parse_expression
from gradcli.syntax.printer import to_source
from gradcli.syntax.tokens import END, KEYWORDS, KIND, START, TEXT, Token, Tokens, tokenize
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
    Span,
    Statement,
    Str,
    TreeSink,
    TupleLit,
    Unary,
    fold,
    replay,
)

__all__ = [
    "END", "KEYWORDS", "KIND", "START", "TEXT", "Binary", "Call", "Expr", "Index", "ListLit", "Name", "Num",
    "Parser", "Program", "Slice", "Span", "Statement", "Str", "Token", "Tokens", "TreeSink", "TupleLit", "Unary", "assigned_names",
    "fold", "no_cycle_collection", "parse", "parse_expression", "replay", "to_source", "tokenize",
]
