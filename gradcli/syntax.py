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

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Final, Union

from gradcli.errors import Limits, SyntaxProblem, line_and_column, over_limit

Span = tuple[int, int]

# Words Python reserves: a clear "not supported" beats a puzzling "unexpected name".
KEYWORDS = frozenset(
    "False None True and as assert async await break class continue def del elif else "
    "except finally for from global if import in is lambda nonlocal not or pass raise "
    "return try while with yield".split()
)



# --- the tree ---------------------------------------------------------------------------
# Plain classes with __slots__ (dataclasses cost start-up time on every run). Spans are left
# out of equality, so that a re-parsed, re-printed tree compares equal.


class _Node:
    __slots__: tuple[str, ...] = ()
    _compared: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        # A loop over pairs, not a recursion: trees 100,000 deep compare too.
        pending: list[tuple[Any, Any]] = [(self, other)]
        while pending:
            a, b = pending.pop()
            if isinstance(a, _Node):
                if type(a) is not type(b):
                    return False
                pending.extend((getattr(a, f), getattr(b, f)) for f in a._compared)
            elif isinstance(a, tuple):
                if not isinstance(b, tuple) or len(a) != len(b):
                    return False
                pending.extend(zip(a, b))
            elif a != b:
                return False
        return True

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Num(_Node):
    __slots__ = ("span", "text", "value")
    _compared = ("value", "text")

    def __init__(self, value: float, text: str, span: Span) -> None:
        self.value, self.text, self.span = value, text, span


class Name(_Node):
    __slots__ = ("id", "span")
    _compared = ("id",)

    def __init__(self, id: str, span: Span) -> None:
        self.id, self.span = id, span


class Unary(_Node):
    __slots__ = ("op", "operand", "span")
    _compared = ("op", "operand")

    def __init__(self, op: str, operand: Expr, span: Span) -> None:
        self.op, self.operand, self.span = op, operand, span


class Binary(_Node):
    __slots__ = ("left", "op", "right", "span")
    _compared = ("op", "left", "right")

    def __init__(self, op: str, left: Expr, right: Expr, span: Span) -> None:
        self.op, self.left, self.right, self.span = op, left, right, span


class Call(_Node):
    __slots__ = ("args", "func", "span")
    _compared = ("func", "args")

    def __init__(self, func: str, args: tuple[Expr, ...], span: Span) -> None:
        self.func, self.args, self.span = func, args, span


class Slice(_Node):
    __slots__ = ("span", "start", "step", "stop")
    _compared = ("start", "stop", "step")

    def __init__(self, start: Expr | None, stop: Expr | None, step: Expr | None, span: Span) -> None:
        self.start, self.stop, self.step, self.span = start, stop, step, span


class Index(_Node):
    __slots__ = ("base", "items", "span")
    _compared = ("base", "items")

    def __init__(self, base: Expr, items: tuple[Expr | Slice, ...], span: Span) -> None:
        self.base, self.items, self.span = base, items, span


class ListLit(_Node):
    __slots__ = ("items", "span")
    _compared = ("items",)

    def __init__(self, items: tuple[Expr, ...], span: Span) -> None:
        self.items, self.span = items, span


class TupleLit(_Node):
    __slots__ = ("items", "span")
    _compared = ("items",)

    def __init__(self, items: tuple[Expr, ...], span: Span) -> None:
        self.items, self.span = items, span


Expr = Union[Num, Name, Unary, Binary, Call, Index, ListLit, TupleLit]


class Statement(_Node):
    __slots__ = ("span", "target", "value")
    _compared = ("target", "value")

    def __init__(self, target: str | None, value: Expr, span: Span) -> None:
        self.target = target  # the assigned name, None for a bare expression
        self.value, self.span = value, span


class Program(_Node):
    __slots__ = ("source", "statements")
    _compared = ("statements",)

    def __init__(self, statements: tuple[Statement, ...], source: str) -> None:
        self.statements, self.source = statements, source


# --- tokens -----------------------------------------------------------------------------


# A token is a plain tuple (kind, text, start, end): big programs have hundreds of
# thousands, and a tuple is the cheapest thing Python makes. Kinds: NUM NAME OP ( ) [ ] , :
# = ; NEWLINE END.
Token = tuple[str, str, int, int]
KIND: Final = 0
TEXT: Final = 1
START: Final = 2
END: Final = 3

# The punctuation of the language and each one's kind, and the Python operators it does not
# have (named as such rather than as unexpected characters).
_KIND_OF = {"**": "OP", "+": "OP", "-": "OP", "*": "OP", "/": "OP", "@": "OP", "\n": "NEWLINE",
            **{p: p for p in "()[],:=;"}}
_NOT_OURS = frozenset(["//", "%", "==", "!=", "<=", ">=", "<<", ">>", "**=", "+=", "-=", "*=", "/=", "@=", *"<>&|^~!."])


def _alternatives(texts: Iterable[str]) -> str:
    return "|".join(re.escape(text) for text in sorted(texts, key=lambda text: (-len(text), text)))  # longest first


# Every character is matched by one alternative, so positions are sums of lengths, and
# `findall` (all in C) does the scanning. No groups: findall then gives plain strings, 2.5x
# faster than a tuple of groups; a token's kind is read off its text. (A number comes before
# the operators we do not have, so that `.5` is a number and `.` alone is not ours.)
_TOKEN = re.compile(
    r"[A-Za-z_][A-Za-z_0-9]*"  # name
    r"|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"  # number
    r"|[ \t\r\f]+|\\\n|\#[^\n]*"  # space, line continuation, comment
    f"|{_alternatives(_NOT_OURS)}"
    f"|{_alternatives(_KIND_OF)}"
    r"|.",  # anything else
    re.DOTALL,
)
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NUMBER_START = frozenset("0123456789.")
_SPACE_START = frozenset(" \t\r\f#")


def tokenize(source: str) -> list[Token]:
    if len(source) > Limits.get("program_chars"):
        raise over_limit(f"the text is {len(source):,} characters long", "program_chars")
    tokens: list[Token] = []
    append = tokens.append
    kind_of = _KIND_OF.get
    position = 0
    for text in _TOKEN.findall(source):
        end = position + len(text)
        kind = kind_of(text)
        if kind is None:
            first = text[0]
            if first in _NAME_START:
                kind = "NAME"
            elif first in _NUMBER_START and text != ".":
                kind = "NUM"
            elif first in _SPACE_START or text == "\\\n":
                position = end
                continue
            elif text in _NOT_OURS:
                what = "attribute access ('.')" if text == "." else f"operator {text!r}"
                raise SyntaxProblem(f"{what} is not supported", source=source, span=(position, end))
            else:
                shown = "character " + (repr(text) if text.isprintable() else f"U+{ord(text):04X}")
                if "\udc80" <= text <= "\udcff":  # how Python hands over a byte of argv that is not UTF-8
                    shown = f"byte 0x{ord(text) - 0xdc00:02x} (not UTF-8)"
                raise SyntaxProblem(f"unexpected {shown}", source=source, span=(position, position + 1))
        append((kind, text, position, end))
        position = end
    append(("END", "", len(source), len(source)))
    return tokens


# --- the parser -------------------------------------------------------------------------

_BINARY = {"+": 10, "-": 10, "*": 20, "/": 20, "@": 20, "**": 40}
_UNARY_PRECEDENCE = 30
_CLOSER = {"group": ")", "call": ")", "list": "]", "index": "]"}

# An operator waiting on the stack: (symbol, precedence, is_unary, start).
_Operator = tuple[str, int, bool, int]


class _Bracket:
    """An open bracket (or the statement itself): the items gathered inside it so far."""

    __slots__ = ("base", "head", "head_span", "item_spans", "items", "kind", "slice_parts", "slice_spans", "token",
                 "trailing_comma")

    def __init__(self, kind: str, token: Token, base: int, head: Any = None) -> None:
        self.kind = kind  # stmt group call list index
        self.token = token
        self.base = base  # height of the operand stack when it opened
        self.head = head  # the called name or the indexed value
        self.head_span: Span | None = None
        self.items: list[Any] = []
        self.item_spans: list[Span] = []
        self.slice_parts: list[Any] | None = None
        self.slice_spans: list[Span | None] = []
        self.trailing_comma = False


class _FunctionName:
    """A name read just before '(': a function to call, not a value."""

    __slots__ = ("span", "text")

    def __init__(self, text: str, span: Span) -> None:
        self.text, self.span = text, span


class TreeSink:
    """Makes the syntax tree: what the parser reduces becomes a node (see tape.TapeSink)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.statements: list[Statement] = []

    def number(self, text: str, span: Span) -> Num:
        return Num(float(text), text, span)

    def name(self, text: str, span: Span) -> Name:
        return Name(text, span)

    def unary(self, op: str, operand: Expr, span: Span) -> Unary:
        return Unary(op, operand, span)

    def binary(self, op: str, left: Expr, right: Expr, span: Span) -> Binary:
        return Binary(op, left, right, span)

    def call(self, func: str, func_span: Span, args: list[Expr], span: Span) -> Call:
        return Call(func, tuple(args), span)

    def make_slice(self, start: Expr | None, stop: Expr | None, step: Expr | None, span: Span) -> Slice:
        return Slice(start, stop, step, span)

    def index(self, base: Expr, items: list[Expr | Slice], span: Span) -> Index:
        return Index(base, tuple(items), span)

    def make_list(self, items: list[Expr], spans: list[Span], span: Span) -> ListLit:
        return ListLit(tuple(items), span)

    def make_tuple(self, items: list[Expr], spans: list[Span], span: Span) -> TupleLit:
        return TupleLit(tuple(items), span)

    def statement(self, target: str | None, value: Expr, span: Span) -> None:
        self.statements.append(Statement(target, value, span))

    def finish(self) -> Program:
        return Program(tuple(self.statements), self.source)


class Parser:
    """The operator-precedence machine. It hands every construct it reduces to its sink:
    a TreeSink makes the tree, a tape.TapeSink makes the tape directly, in one pass.
    """

    def __init__(self, source: str, tokens: list[Token], sink: Any) -> None:
        self.source = source
        self.tokens = tokens
        self.sink = sink
        self.position = 0

    def fail(self, message: str, token: Token, hint: str = "") -> SyntaxProblem:
        span = (token[START], max(token[END], token[START] + 1))
        return SyntaxProblem(message, source=self.source, span=span, hint=hint)

    def unexpected(self, token: Token) -> SyntaxProblem:
        kind, text = token[KIND], token[TEXT]
        if kind == "END":
            return self.fail("unexpected end of input", token)
        if kind == "NEWLINE":
            return self.fail("unexpected end of line", token)
        if kind == "NAME" and text in KEYWORDS:
            return self.fail(f"'{text}' is not supported", token)
        if kind in ("NAME", "NUM"):
            return self.fail(f"unexpected {'name' if kind == 'NAME' else 'number'} {text!r}", token)
        return self.fail(f"unexpected {text!r}", token)

    def program(self) -> Any:
        tokens = self.tokens
        count = 0
        while tokens[self.position][KIND] != "END":
            if tokens[self.position][KIND] in (";", "NEWLINE"):
                self.position += 1
                continue
            first = tokens[self.position]
            target = None
            if first[KIND] == "NAME" and tokens[self.position + 1][KIND] == "=":
                if first[TEXT] in KEYWORDS:
                    raise self.unexpected(first)
                target = first[TEXT]
                self.position += 2
            value, span = self.expression()
            self.sink.statement(target, value, (first[START], span[1]))
            count += 1
        if not count:
            raise self.fail("empty program", tokens[-1])
        return self.sink.finish()

    def expression(self) -> tuple[Any, Span]:
        """Parse from the current token to the end of the statement (or of the text)."""
        tokens = self.tokens
        sink = self.sink
        position = self.position
        operands: list[Any] = []
        spans: list[Span] = []  # beside operands: where each one stands in the text
        stack: list[_Operator | _Bracket] = [_Bracket("stmt", tokens[position], 0)]
        depth = 0
        max_depth = Limits.get("depth")
        expect_operand = True
        binary_precedence = _BINARY
        operator_type = tuple

        def reduce_one() -> None:
            symbol, _, unary, start = stack.pop()  # type: ignore[misc]
            if unary:
                span = (start, spans[-1][1])
                operands[-1] = sink.unary(symbol, operands[-1], span)
                spans[-1] = span
            else:
                right = operands.pop()
                right_end = spans.pop()[1]
                span = (spans[-1][0], right_end)
                operands[-1] = sink.binary(symbol, operands[-1], right, span)
                spans[-1] = span

        def reduce_operators() -> None:
            while type(stack[-1]) is operator_type:
                reduce_one()

        def open_bracket(kind: str, token: Token, head: Any, head_span: Span | None) -> None:
            nonlocal depth
            depth += 1
            if depth > max_depth:
                raise over_limit("brackets nested too deep", "depth", source=self.source,
                                 span=(token[START], token[END]))
            bracket = _Bracket(kind, token, len(operands), head)
            bracket.head_span = head_span
            stack.append(bracket)

        def close_item(bracket: _Bracket, token: Token, closing: bool) -> None:
            """End the item before `token` (a ',' or a closer) and add it to `bracket`."""
            reduce_operators()
            if len(operands) > bracket.base:
                part, part_span = operands.pop(), spans.pop()
            else:
                part, part_span = None, None
            if bracket.slice_parts is not None:
                bracket.slice_parts.append(part)
                bracket.slice_spans.append(part_span)
                starts = [p for p in bracket.slice_spans if p is not None]
                parts = bracket.slice_parts + [None] * (3 - len(bracket.slice_parts))
                span = (starts[0][0] if starts else token[START], token[START])
                bracket.items.append(sink.make_slice(parts[0], parts[1], parts[2], span))
                bracket.item_spans.append(span)
                bracket.slice_parts = None
                bracket.trailing_comma = False
            elif part_span is not None:
                bracket.items.append(part)
                bracket.item_spans.append(part_span)
                bracket.trailing_comma = False
            elif closing and bracket.trailing_comma:
                pass  # `f(a, b,)`: Python allows one trailing comma
            elif closing and not bracket.items and bracket.kind == "call":
                pass  # `f()`
            else:
                raise self.unexpected(token)

        while True:
            token = tokens[position]
            kind, text, start, end = token
            if expect_operand:
                if kind == "NAME":
                    if text in KEYWORDS:
                        raise self.unexpected(token)
                    span = (start, end)
                    if tokens[position + 1][0] == "(":
                        operands.append(_FunctionName(text, span))
                    else:
                        operands.append(sink.name(text, span))
                    spans.append(span)
                    expect_operand = False
                elif kind == "NUM":
                    span = (start, end)
                    operands.append(sink.number(text, span))
                    spans.append(span)
                    expect_operand = False
                elif kind == "(" or kind == "[":
                    open_bracket("group" if kind == "(" else "list", token, None, None)
                elif kind == "OP" and (text == "-" or text == "+"):
                    stack.append((text, _UNARY_PRECEDENCE, True, start))
                elif kind == "NEWLINE" and depth > 0:
                    pass
                elif kind in (",", ")", "]", ":"):
                    bracket = stack[-1]
                    if type(bracket) is operator_type:
                        raise self.unexpected(token)
                    assert isinstance(bracket, _Bracket)
                    if (kind == ":" or (bracket.slice_parts is not None and kind in ",]")) or (
                        kind == "," or (kind in ")]" and _CLOSER.get(bracket.kind) == kind)
                    ):
                        # An empty item, for the operator branch to judge: `v[:3]`, `f()`, `(a,)`.
                        expect_operand = False
                        continue
                    raise self.unexpected(token)
                else:
                    raise self.unexpected(token)
                position += 1
                continue

            # An operand was just read: what follows it?
            if kind == "OP":
                precedence = binary_precedence[text]
                right_assoc = text == "**"
                while type(stack[-1]) is operator_type:
                    top_precedence = stack[-1][1]
                    if top_precedence < precedence or (top_precedence == precedence and right_assoc):
                        break
                    reduce_one()
                stack.append((text, precedence, False, start))
                expect_operand = True
            elif kind == ")" or kind == "]":
                reduce_operators()
                bracket = stack[-1]
                assert isinstance(bracket, _Bracket)
                if _CLOSER.get(bracket.kind) != kind:
                    if bracket.kind == "stmt":
                        raise self.fail(f"unexpected {kind!r}", token, "nothing is open to close")
                    opener = bracket.token
                    column = line_and_column(self.source, opener[START])[1]
                    raise self.fail(f"unexpected {kind!r}", token, f"the {opener[TEXT]!r} at column {column} is still open")
                close_item(bracket, token, closing=True)
                stack.pop()
                depth -= 1
                value, span = self.finish(bracket, token)
                operands.append(value)
                spans.append(span)
            elif kind == "(" or kind == "[":
                head, head_span = operands.pop(), spans.pop()
                if kind == "(" and type(head) is not _FunctionName:
                    raise self.fail("only a function's name can be called", token)
                open_bracket("call" if kind == "(" else "index", token, head, head_span)
                expect_operand = True
            elif kind == ",":
                reduce_operators()
                bracket = stack[-1]
                assert isinstance(bracket, _Bracket)
                close_item(bracket, token, closing=False)
                bracket.trailing_comma = True
                expect_operand = True
            elif kind == ":":
                reduce_operators()
                bracket = stack[-1]
                assert isinstance(bracket, _Bracket)
                if bracket.kind != "index":
                    raise self.fail("unexpected ':'", token, "slices go inside an index, as in v[1:3]")
                if len(operands) > bracket.base:
                    part, part_span = operands.pop(), spans.pop()
                else:
                    part, part_span = None, None
                if bracket.slice_parts is None:
                    bracket.slice_parts, bracket.slice_spans = [part], [part_span]
                elif len(bracket.slice_parts) < 2:
                    bracket.slice_parts.append(part)
                    bracket.slice_spans.append(part_span)
                else:
                    raise self.unexpected(token)
                expect_operand = True
            elif kind == "NEWLINE" and depth > 0:
                pass
            elif kind in (";", "NEWLINE", "END"):
                break
            elif kind == "=":
                raise self.fail("unexpected '='", token, "only a single name can be assigned, at the start of a statement")
            else:
                raise self.unexpected(token)
            position += 1

        # The end of the statement.
        self.position = position
        token = tokens[position]
        if expect_operand and (type(stack[-1]) is operator_type or len(stack) == 1):
            raise self.unexpected(token)
        reduce_operators()
        if len(stack) > 1:
            bracket = stack[-1]
            assert isinstance(bracket, _Bracket)
            raise self.fail(f"{bracket.token[TEXT]!r} never closed", bracket.token)
        statement = stack[0]
        assert isinstance(statement, _Bracket)
        if statement.items:  # `a, b` at the top level
            if operands:
                statement.items.append(operands.pop())
                statement.item_spans.append(spans.pop())
            span = (statement.item_spans[0][0], statement.item_spans[-1][1])
            return sink.make_tuple(statement.items, statement.item_spans, span), span
        if type(operands[-1]) is _FunctionName:
            raise self.fail(f"'{operands[-1].text}' is a function", token, "call it, as in f(x)")
        return operands.pop(), spans.pop()

    def finish(self, bracket: _Bracket, closer: Token) -> tuple[Any, Span]:
        sink = self.sink
        start = bracket.token[START] if bracket.head_span is None else bracket.head_span[0]
        span = (start, closer[END])
        items = bracket.items
        if bracket.kind == "index":
            if type(bracket.head) is _FunctionName:  # `sin[0]`: the name was read as a call's
                head = sink.name(bracket.head.text, bracket.head.span)
            else:
                head = bracket.head
            return sink.index(head, items, span), span
        if bracket.kind == "call":
            head = bracket.head
            assert type(head) is _FunctionName
            return sink.call(head.text, head.span, items, span), span
        if bracket.kind == "list":
            if not items:
                raise self.fail("an empty list has no shape", closer)
            return sink.make_list(items, bracket.item_spans, span), span
        if not items:
            raise self.fail("empty parentheses", closer)
        if len(items) == 1 and not bracket.trailing_comma:
            return items[0], span
        return sink.make_tuple(items, bracket.item_spans, span), span


def assigned_names(tokens: list[Token]) -> set[str]:
    """Every name that a statement assigns (a NAME followed by '=')."""
    return {tokens[i][TEXT] for i in range(len(tokens) - 1) if tokens[i][KIND] == "NAME" and tokens[i + 1][KIND] == "="}


def fold(root: Expr, combine: Callable[[Any, list[Any]], Any]) -> Any:
    """combine(node, [the children's results]) over a tree, bottom-up: the root's result.

    Iterative: a tree 100,000 deep needs no deep Python stack.
    """
    done: list[Any] = []
    work: list[tuple[Any, bool]] = [(root, False)]
    while work:
        node, expanded = work.pop()
        children = _children(node)
        if not expanded and children:
            work.append((node, True))
            work.extend((child, False) for child in reversed(children))
            continue
        results = done[len(done) - len(children) :] if children else []
        if children:
            del done[len(done) - len(children) :]
        done.append(combine(node, results))
    return done[0]


def replay(expr: Expr, sink: Any) -> Any:
    """Hand a tree to a sink bottom-up, as the parser would have: the value of the root."""
    return fold(expr, lambda node, args: _replay_one(node, args, sink))


def _replay_one(node: Any, args: list[Any], sink: Any) -> Any:
    if isinstance(node, Num):
        return sink.number(node.text, node.span)
    if isinstance(node, Name):
        return sink.name(node.id, node.span)
    if isinstance(node, Unary):
        return sink.unary(node.op, args[0], node.span)
    if isinstance(node, Binary):
        return sink.binary(node.op, args[0], args[1], node.span)
    if isinstance(node, Call):
        return sink.call(node.func, (node.span[0], node.span[0] + len(node.func)), args, node.span)
    if isinstance(node, Index):
        return sink.index(args[0], args[1:], node.span)
    if isinstance(node, Slice):
        given = iter(args)
        parts = [None if part is None else next(given) for part in (node.start, node.stop, node.step)]
        return sink.make_slice(parts[0], parts[1], parts[2], node.span)
    if isinstance(node, ListLit):
        return sink.make_list(args, [item.span for item in node.items], node.span)
    assert isinstance(node, TupleLit)
    return sink.make_tuple(args, [item.span for item in node.items], node.span)


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector.

    A big program makes hundreds of thousands of small objects, none of them in a cycle;
    the collector would walk them all again and again as they pile up (parse and tape
    building took twice as long with it).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def parse(source: str) -> Program:
    """Parse a whole program; raise SyntaxProblem with the column of the first problem."""
    with no_cycle_collection():
        return Parser(source, tokenize(source), TreeSink(source)).program()


def parse_expression(source: str) -> Expr:
    """Parse a single expression (used for --at and --seed values)."""
    parser = Parser(source, tokenize(source), TreeSink(source))
    expression, _ = parser.expression()
    token = parser.tokens[parser.position]
    if token[KIND] != "END":
        raise parser.unexpected(token)
    return expression


# --- printing ---------------------------------------------------------------------------

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


def _children(node: Expr | Slice) -> list[Expr | Slice]:
    if isinstance(node, Unary):
        return [node.operand]
    if isinstance(node, Binary):
        return [node.left, node.right]
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, Index):
        return [node.base, *node.items]
    if isinstance(node, (ListLit, TupleLit)):
        return list(node.items)
    if isinstance(node, Slice):
        return [part for part in (node.start, node.stop, node.step) if part is not None]
    return []


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
