"""The syntax tree: plain node classes, the sink that builds them, and iterative walks.

Plain classes with __slots__ (dataclasses cost start-up time on every run). Spans are left
out of equality, so that a re-parsed, re-printed tree compares equal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

Span = tuple[int, int]

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


class Str(_Node):
    """A string literal (its text with the quotes): einsum's subscripts, reduction='sum'."""

    __slots__ = ("span", "text")
    _compared = ("text",)

    def __init__(self, text: str, span: Span) -> None:
        self.text, self.span = text, span

    @property
    def value(self) -> str:
        return self.text[1:-1]


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
    __slots__ = ("args", "func", "keywords", "span")
    _compared = ("func", "args", "keywords")

    def __init__(self, func: str, args: tuple[Expr, ...], span: Span, keywords: tuple[tuple[str, Expr], ...] = ()) -> None:
        self.func, self.args, self.span = func, args, span
        self.keywords = keywords  # (name, value) of each keyword argument, in order


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


Expr = Union[Num, Name, Str, Unary, Binary, Call, Index, ListLit, TupleLit]


class Statement(_Node):
    __slots__ = ("span", "target", "value")
    _compared = ("target", "value")

    def __init__(self, target: str | tuple[str, ...] | None, value: Expr, span: Span) -> None:
        self.target = target  # the assigned name (names: a, b = ...), None for a bare expression
        self.value, self.span = value, span


class Program(_Node):
    __slots__ = ("source", "statements")
    _compared = ("statements",)

    def __init__(self, statements: tuple[Statement, ...], source: str) -> None:
        self.statements, self.source = statements, source



class TreeSink:
    """Makes the syntax tree: what the parser reduces becomes a node (see tape.TapeSink)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.statements: list[Statement] = []

    def number(self, text: str, span: Span) -> Num:
        return Num(float(text), text, span)

    # Where the parser's call has a node's own fields, the node's class takes it: one Python
    # call per node, not two (a big program has hundreds of thousands).
    name = Name  # (text, span)
    unary = Unary  # (op, operand, span)
    binary = Binary  # (op, left, right, span)

    string = Str  # (text, span)

    def call(self, func: str, func_span: Span, args: list[Expr], span: Span,
             keywords: list[tuple[str, Expr, Span]] | None = None) -> Call:
        return Call(func, tuple(args), span, tuple((name, value) for name, value, _ in keywords or ()))

    def make_slice(self, start: Expr | None, stop: Expr | None, step: Expr | None, span: Span) -> Slice:
        return Slice(start, stop, step, span)

    def index(self, base: Expr, items: list[Expr | Slice], span: Span) -> Index:
        return Index(base, tuple(items), span)

    def make_list(self, items: list[Expr], spans: list[Span], span: Span) -> ListLit:
        return ListLit(tuple(items), span)

    def make_tuple(self, items: list[Expr], spans: list[Span], span: Span) -> TupleLit:
        return TupleLit(tuple(items), span)

    def statement(self, target: str | tuple[str, ...] | None, value: Expr, span: Span) -> None:
        self.statements.append(Statement(target, value, span))

    def finish(self) -> Program:
        return Program(tuple(self.statements), self.source)



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
    if isinstance(node, Str):
        return sink.string(node.text, node.span)
    if isinstance(node, Unary):
        return sink.unary(node.op, args[0], node.span)
    if isinstance(node, Binary):
        return sink.binary(node.op, args[0], args[1], node.span)
    if isinstance(node, Call):
        positional = len(node.args)
        keywords = [(name, value, expr.span) for (name, expr), value in zip(node.keywords, args[positional:], strict=True)]
        return sink.call(node.func, (node.span[0], node.span[0] + len(node.func)), args[:positional], node.span, keywords)
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



def _children(node: Expr | Slice) -> list[Expr | Slice]:
    if isinstance(node, Unary):
        return [node.operand]
    if isinstance(node, Binary):
        return [node.left, node.right]
    if isinstance(node, Call):
        return [*node.args, *(value for _, value in node.keywords)]
    if isinstance(node, Index):
        return [node.base, *node.items]
    if isinstance(node, (ListLit, TupleLit)):
        return list(node.items)
    if isinstance(node, Slice):
        return [part for part in (node.start, node.stop, node.step) if part is not None]
    return []

