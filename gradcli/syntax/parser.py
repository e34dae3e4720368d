"""Tokens -> the constructs of the language, handed one by one to a sink."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from gradcli.errors import Limits, SyntaxProblem, line_and_column, over_limit
from gradcli.syntax.tokens import END, KEYWORDS, KIND, START, TEXT, Token, tokenize
from gradcli.syntax.tree import Expr, Program, Span, TreeSink

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
