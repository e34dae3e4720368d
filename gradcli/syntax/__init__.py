"""Text -> syntax tree (or, through a sink, straight to the tape).

The language is a small piece of Python, with Python's precedence (loosest first):

    program   := statement ((';' | NEWLINE) statement)*
    statement := NAME '=' expr | expr
    expr      := item (',' item)* [',']        -- a tuple, allowed only as the output
    item      := term (('+' | '-') term)*
    term      := factor (('*' | '/' | '@') factor)*
    factor    := ('+' | '-') factor | power
    power     := primary ['**' factor]         -- right-associative: -x**2 == -(x**2)
    primary   := atom (call | subscript)*
    call      := '(' [item (',' item)* [',']] ')'
    subscript := '[' index (',' index)* ']'
    index     := item | [item] ':' [item] [':' [item]]
    atom      := NUMBER | NAME | '(' expr ')' | '[' item (',' item)* [','] ']'

`#` starts a comment. Newlines inside brackets are ignored, as in Python.

The parser is an operator-precedence (shunting-yard) machine over explicit stacks, so
nesting depth costs memory, never Python recursion: `((((...x...))))` 100,000 deep parses.
It hands every construct it reduces to a sink: a TreeSink builds the tree (`parse`), and
tape.TapeSink builds the tape directly (`tape.compile_program`), in one pass over the text.
`to_source` prints a tree back as text.
"""

from gradcli.syntax.parser import Parser, assigned_names, no_cycle_collection, parse, parse_expression
from gradcli.syntax.printer import to_source
from gradcli.syntax.tokens import END, KEYWORDS, KIND, START, TEXT, Token, tokenize
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
    TreeSink,
    TupleLit,
    Unary,
    fold,
    replay,
)

__all__ = [
    "END", "KEYWORDS", "KIND", "START", "TEXT", "Binary", "Call", "Expr", "Index", "ListLit", "Name", "Num",
    "Parser", "Program", "Slice", "Span", "Statement", "Token", "TreeSink", "TupleLit", "Unary", "assigned_names",
    "fold", "no_cycle_collection", "parse", "parse_expression", "replay", "to_source", "tokenize",
]
