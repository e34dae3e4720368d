"""Tokens -> the constructs of the language, handed one by one to a sink.

The grammar:

    program    := statement ((';' | NEWLINE) statement)*
    statement  := [NAME ('=' | AUG)] items          -- several items make a tuple: the output only;
                                                    -- AUG (+= -= *= /=): `y += e` is `y = y + (e)`
    items      := item (',' item)* [',']
    item       := prefix (INFIX_OP item | subscript | method)*
    prefix     := NUMBER | NAME | STRING | call | group | list | PREFIX_OP item
    call       := NAME '(' [args] ')'               -- only a function's name is called
                | MODULE '.' NAME '(' [args] ')'    -- torch.sin(x) is sin(x); np.pi is pi
    method     := '.' NAME '(' [args] ')'           -- x.sum() is sum(x): the names of Op.methods
                | '.' NAME                          -- a property: m.T, m.mT (PROPERTIES)
    args       := arg (',' arg)* [',']
    arg        := item | NAME '=' item              -- keywords after the positional args: sum(x, dim=0)
    group      := '(' items ')'                     -- one item and no comma: that item
    list       := '[' items ']'
    subscript  := '[' index (',' index)* [','] ']'
    index      := item | [item] ':' [item] [':' [item]] | '...'   -- None (np.newaxis) is an item

INFIX_OP is + - * / % @ ** < <= > >= == != & | and PREFIX_OP - + ~, with their binding powers from the op table
(operators.py): an operator's right operand goes on while the next operator binds tighter,
so `-x**2` is `-(x**2)` and `a - b - c` is `(a - b) - c`. A NEWLINE inside brackets is a space.

The parser is a Pratt parser driven by two tables, keyed by the token (its text for an
operator, else its kind): PREFIX for the token where an item starts, INFIX for the token
after a complete item. An operator's entry is its binding powers and a number's or a name's
is ATOM, and the loop does the rest; every other form's entry is a handler. A new form is a new entry: a method `.name(args)`
is INFIX['.']; a keyword argument is a NAME followed by '=' where a call's argument starts.

It is iterative: where a recursive Pratt parser would call itself for an operand, this one
pushes a frame (an operator waiting for its right operand, or an open bracket gathering its
items) and goes on reading, so nesting costs memory, never Python recursion:
`((((...x...))))` 100,000 deep parses.

Each construct goes to the sink as soon as it is complete, bottom-up: a TreeSink builds the
tree (`parse`), and tape.TapeSink builds the tape directly (`tape.compile_program`), in one
pass over the text.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple, Optional, Union

from gradcli import table
from gradcli.errors import Limits, SyntaxProblem, line_and_column, over_limit
from gradcli.syntax import operators
from gradcli.syntax.tokens import KEYWORDS, Token, Tokens, tokenize
from gradcli.syntax.tree import Expr, Program, Span, TreeSink
from gradcli.table import CONSTANTS, DTYPES, METHODS

# What a handler returns: what the parser reads next.
WANT_ITEM = False  # the start of an item (the PREFIX table)
AFTER_ITEM = True  # what follows a complete item (the INFIX table)
STATEMENT_ENDS = None  # the statement is complete; the token that ends it is not consumed

# A handler is given the token's fields (the parser's position is at the token) and returns
# one of the above.
Handler = Callable[["Parser", str, str, int, int], Optional[bool]]

# An operator's entry: (left power, right power, prefix?). A prefix operator binds nothing on
# its left: its left power is above every right power.
Operator = tuple[int, int, bool]


class _Atom:
    """The entry of a number or a name: an item by itself (a name just before '(' is the
    function of a call)."""


ATOM = _Atom()
Entry = Union[Operator, _Atom, Handler]

# An operator waiting for its right operand: (right power, symbol, start, prefix?).
_Pending = tuple[int, str, int, bool]
_ALL = -1  # a binding power below every operator's: reduce(_ALL) completes them all


class _Form(NamedTuple):
    """A bracketed construct: how it closes and what it makes."""

    closer: str  # '' for the statement, which no token closes
    may_be_empty: bool  # f()
    slices: bool  # v[1:3]
    finish: Callable[[Parser, _Open, int], tuple[Any, Span]]  # (parser, bracket, where its closer ends)


class _Open:
    """An open bracket (or the statement itself) and the items gathered inside it so far."""

    __slots__ = ("base", "comma", "form", "head", "head_span", "items", "keyword", "keywords", "opener", "slice", "spans")

    def __init__(self, form: _Form, opener: int, base: int, head: Any = None, head_span: Span | None = None) -> None:
        self.form = form
        self.opener = opener  # the index of its first token
        self.base = base  # the height of the operand stack when it opened: its items are above
        self.head, self.head_span = head, head_span  # the called name or the subscripted value
        self.items: list[Any] = []
        self.spans: list[Span] = []  # beside items: where each one stands in the text
        self.slice: list[tuple[Any, Span] | None] | None = None  # the parts of a slice being read
        self.comma = False  # the last token was a comma: `(a,)` is a tuple, `f(a,)` has one argument
        self.keyword: Token | None = None  # the keyword of the argument being read: `dim` in `f(x, dim=0)`
        self.keywords: list[tuple[str, Any, Span]] = []  # (name, value, span) of a call's keyword arguments


class _Callee:
    """Stands on the operand stack for a name read just before '(': a function to call, not
    a value."""


_CALLEE = _Callee()


class Parser:
    """The Pratt machine over explicit stacks. It hands every construct it completes to its
    sink: a TreeSink makes the tree, a tape.TapeSink makes the tape directly, in one pass.
    """

    def __init__(self, source: str, tokens: Tokens, sink: Any) -> None:
        self.source = source
        self.tokens = tokens
        self.kinds = tokens.kinds
        self.sink = sink
        self.position = 0  # the token being read
        self.values: list[Any] = []  # complete items, waiting for what they belong to
        self.spans: list[Span] = []  # beside values: where each one stands in the text
        self.frames: list[_Pending | _Open] = []
        self.depth = 0  # brackets open
        self.max_depth = 0

    # --- errors ---

    def fail(self, message: str, token: Token, hint: str = "") -> SyntaxProblem:
        span = (token.start, max(token.end, token.start + 1))
        return SyntaxProblem(message, source=self.source, span=span, hint=hint)

    def unexpected(self, token: Token) -> SyntaxProblem:
        kind, text = token.kind, token.text
        if kind == "END":
            return self.fail("unexpected end of input", token)
        if kind == "NEWLINE":
            return self.fail("unexpected end of line", token)
        if kind == "NAME" and text in KEYWORDS:
            return self.fail(f"'{text}' is not supported", token)
        if kind in ("NAME", "NUM"):
            return self.fail(f"unexpected {'name' if kind == 'NAME' else 'number'} {text!r}", token)
        return self.fail(f"unexpected {text!r}", token)

    # --- program, statement ---

    def program(self) -> Any:
        tokens, kinds = self.tokens, self.kinds
        count = 0
        while kinds[self.position] != "END":
            if kinds[self.position] in (";", "NEWLINE"):
                self.position += 1
                continue
            first = tokens[self.position]
            target: str | tuple[str, ...] | None = None
            augmented = None
            names = self.unpacked_names()
            if names is not None:  # a, b = x.split(2)
                target = names
            elif first.kind == "NAME" and kinds[self.position + 1] in ("=", "AUG"):
                if first.text in KEYWORDS or first.text in ("True", "False", "None"):
                    raise self.unexpected(first)
                target = first.text
                if kinds[self.position + 1] == "AUG":  # x += e is x = x + (e)
                    augmented = tokens.texts[self.position + 1][0]
                self.position += 2
            value, span = self.expression()
            if augmented is not None:
                span = (first.start, span[1])
                value = self.sink.binary(augmented, self.sink.name(first.text, (first.start, first.end)), value, span)
            self.sink.statement(target, value, (first.start, span[1]))
            count += 1
        if not count:
            raise self.fail("empty program", tokens[-1])
        return self.sink.finish()

    def unpacked_names(self) -> tuple[str, ...] | None:
        """At a statement's start: `NAME (',' NAME)+ [','] '='`, the names it unpacks into (the
        parser then stands after the '='); else None."""
        kinds, position = self.kinds, self.position
        names = []
        while kinds[position] == "NAME" and kinds[position + 1] == ",":
            names.append(self.tokens[position])
            position += 2
        if not names:
            return None
        if kinds[position] == "NAME" and kinds[position + 1] == "=":
            names.append(self.tokens[position])
            position += 1
        elif kinds[position] != "=":
            return None
        for token in names:
            if token.text in KEYWORDS or token.text in ("True", "False", "None"):
                raise self.unexpected(token)
        self.position = position + 1
        return tuple(token.text for token in names)

    def expression(self) -> tuple[Any, Span]:
        """Parse `items` from the current token to the end of the statement (or of the text)."""
        kinds, texts, starts, ends = self.kinds, self.tokens.texts, self.tokens.starts, self.tokens.ends
        statement = _Open(_STATEMENT, self.position, 0)
        self.values, self.spans, self.frames = [], [], [statement]
        self.depth, self.max_depth = 0, Limits.get("depth")
        frames, values, spans, sink = self.frames, self.values, self.spans, self.sink
        prefix, infix = _PREFIX_ALL, _INFIX_ALL
        wants: bool | None = WANT_ITEM
        position = self.position
        while True:
            kind, text = kinds[position], texts[position]
            key = text if kind == "OP" else kind
            entry = infix[key] if wants else prefix[key]
            if entry is ATOM:  # a number or a name: an item by itself
                span = (starts[position], ends[position])
                if kind == "NUM":
                    values.append(sink.number(text, span))
                elif text in KEYWORDS:
                    raise self.unexpected(self.tokens[position])
                elif kinds[position + 1] == "(":  # the name of a function to call, not a value
                    values.append(_CALLEE)
                elif kinds[position + 1] == "=" and self.depth:  # a keyword argument: sum(x, dim=0)
                    self.keyword_argument(position)
                    position += 2
                    continue
                elif kinds[position + 1] == "." and text in _MODULE_ROOTS:  # torch.sin(x), np.pi
                    position, span = self.module_name(position)
                    values.append(_CALLEE if kinds[position + 1] == "(" else sink.name("None", span)
                                  if texts[position] == "newaxis" else sink.name(texts[position], span)
                                  if texts[position] in DTYPES else sink.number(_CONSTANT_TEXT[texts[position]], span))
                else:
                    values.append(sink.name(text, span))
                spans.append(span)
                wants = AFTER_ITEM
            elif type(entry) is tuple:  # an operator: the operators that bind at least as tightly are complete
                left, right, is_prefix = entry
                if type(frames[-1]) is tuple and frames[-1][0] >= left:
                    if text in operators.COMPARISONS:
                        self.refuse_chained(left, position)
                    self.reduce(left)
                frames.append((right, text, starts[position], is_prefix))
                wants = WANT_ITEM
            else:
                self.position = position
                wants = entry(self, kind, text, starts[position], ends[position])  # type: ignore[operator]
                if wants is STATEMENT_ENDS:
                    break
                position = self.position  # (a handler may read on: `.name(`)
            position += 1

        bracket = self.innermost()
        if bracket is not statement:
            opener = self.tokens[bracket.opener]
            raise self.fail(f"{opener.text!r} never closed", opener)
        value, span = self.values.pop(), self.spans.pop()
        if statement.items:  # `a, b` at the top level
            statement.items.append(value)
            statement.spans.append(span)
            span = (statement.spans[0][0], span[1])
            return self.sink.make_tuple(statement.items, statement.spans, span), span
        return value, span

    def keyword_argument(self, position: int) -> None:
        """At NAME '=' inside brackets: where a call's argument starts, the NAME is its keyword."""
        bracket, token = self.frames[-1], self.tokens[position]
        if not isinstance(bracket, _Open) or bracket.form.closer != ")" or bracket.form is _GROUP:
            raise self.fail("unexpected '='", self.tokens[position + 1],
                            "keyword arguments go inside a call, as in sum(x, dim=0)")
        if bracket.keyword is not None or len(self.values) > bracket.base:
            raise self.unexpected(self.tokens[position + 1])
        if token.text in KEYWORDS:
            raise self.unexpected(token)
        if any(name == token.text for name, _, _ in bracket.keywords):
            raise self.fail(f"keyword argument '{token.text}' repeated", token)
        bracket.keyword = token

    def module_name(self, position: int) -> tuple[int, Span]:
        """At a NAME followed by '.': the longest known module prefix from here (`torch.`,
        `torch.nn.functional.`, `np.linalg.`...) means the plain name after it. Returns the
        position of that name, which calls a function or is a constant, and the span of the
        whole dotted name."""
        kinds, texts, tokens = self.kinds, self.tokens.texts, self.tokens
        parts, last, plain = [texts[position]], position, None
        while kinds[last + 1] == "." and kinds[last + 2] == "NAME":
            if ".".join(parts) in MODULE_PREFIXES:
                plain = last + 2
            parts.append(texts[last + 2])
            last += 2
        if plain is None or plain != last or (kinds[plain + 1] != "(" and texts[plain] not in _CONSTANT_TEXT
                                              and texts[plain] != "newaxis"  # np.newaxis is None
                                              and texts[plain] not in DTYPES):
            dotted = ".".join(parts)
            after = "a function, as in torch.sin(x), or a constant (pi, e)"
            raise self.fail(f"'{dotted}' is not supported", Token("NAME", dotted, tokens.starts[position], tokens.ends[last]),
                            f"after a module prefix ({', '.join(p + '.' for p in MODULE_PREFIXES)}) comes {after}")
        return plain, (tokens.starts[position], tokens.ends[plain])

    def refuse_chained(self, power: int, position: int) -> None:
        """A comparison after a comparison that is still open: Python would chain them."""
        for frame in reversed(self.frames):
            if type(frame) is not tuple or frame[0] < power:
                return
            if frame[1] in operators.COMPARISONS:
                raise self.fail("comparisons cannot be chained", self.tokens[position],
                                "write (a < b) & (b < c), or parenthesise one: (a < b) == c")

    # --- the stacks ---

    def reduce(self, power: int) -> None:
        """Hand the operators on top of the stack whose right power is at least `power` to the
        sink, with their operands: their right operands are complete."""
        frames, values, spans, sink = self.frames, self.values, self.spans, self.sink
        while type(frames[-1]) is tuple and frames[-1][0] >= power:
            _, symbol, start, is_prefix = frames.pop()  # type: ignore[misc]
            if is_prefix:
                span = (start, spans[-1][1])
                values[-1] = sink.unary(symbol, values[-1], span)
            else:
                right = values.pop()
                end = spans.pop()[1]
                span = (spans[-1][0], end)
                values[-1] = sink.binary(symbol, values[-1], right, span)
            spans[-1] = span

    def innermost(self) -> _Open:
        """The innermost open bracket, once the operators inside it are complete."""
        if type(self.frames[-1]) is tuple:
            self.reduce(_ALL)
        return self.frames[-1]  # type: ignore[return-value]

    def open(self, form: _Form, head: Any = None, head_span: Span | None = None) -> bool:
        """Open a bracket at the current token."""
        self.depth += 1
        if self.depth > self.max_depth:
            opener = self.tokens[self.position]
            raise over_limit("brackets nested too deep", "depth", source=self.source, span=(opener.start, opener.end))
        self.frames.append(_Open(form, self.position, len(self.values), head, head_span))
        return WANT_ITEM

    def take_item(self, bracket: _Open) -> tuple[Any, Span] | None:
        """The item just read inside `bracket`, or None where it is empty: `f()`, `v[:3]`."""
        if len(self.values) > bracket.base:
            return self.values.pop(), self.spans.pop()
        return None

    def end_item(self, bracket: _Open, closing: bool) -> None:
        """End the item before the current token (a ',' or the closer) and add it to `bracket`."""
        if bracket.keyword is not None:
            keyword, bracket.keyword = bracket.keyword, None
            item = self.take_item(bracket)
            if item is None:  # f(x, dim=)
                raise self.unexpected(self.tokens[self.position])
            bracket.keywords.append((keyword.text, item[0], (keyword.start, item[1][1])))
            bracket.comma = False
            return
        if bracket.keywords and len(self.values) > bracket.base:
            raise self.fail("positional argument follows keyword argument", Token("NAME", "", *self.spans[-1]),
                            "write the positional arguments first, as in sum(x, 0, keepdim=True)")
        if bracket.slice is None and len(self.values) > bracket.base:  # the common case: f(x)
            bracket.items.append(self.values.pop())
            bracket.spans.append(self.spans.pop())
            bracket.comma = False
            return
        item = self.take_item(bracket)
        if bracket.slice is not None:
            token = self.tokens[self.position]
            parts = [*bracket.slice, item, None, None][:3]
            starts = [part[1][0] for part in parts if part is not None]
            span = (starts[0] if starts else token.start, token.start)
            start, stop, step = (None if part is None else part[0] for part in parts)
            bracket.items.append(self.sink.make_slice(start, stop, step, span))
            bracket.spans.append(span)
            bracket.slice = None
            bracket.comma = False
        elif item is not None:
            bracket.items.append(item[0])
            bracket.spans.append(item[1])
            bracket.comma = False
        elif not (closing and (bracket.comma or (bracket.form.may_be_empty and not bracket.items))):
            raise self.unexpected(self.tokens[self.position])  # an empty item: `f(,)`, `()`, `v[]`


# --- module prefixes ------------------------------------------------------------------------

# `torch.sin(x)` is `sin(x)`: a dotted name is looked up here, and means the plain name after
# its longest known prefix; nothing else is reached through a '.' (no attributes, no eval).
MODULE_PREFIXES = ("torch", "torch.nn.functional", "F", "torch.special", "torch.linalg", "torch.masked", "torch.fft", "np", "numpy",
                   "np.linalg", "numpy.linalg", "math")
_MODULE_ROOTS = frozenset(prefix.split(".")[0] for prefix in MODULE_PREFIXES)
_CONSTANT_TEXT = {name: repr(value) for name, value in CONSTANTS.items()}  # np.pi: the number itself


# --- PREFIX: where an item starts ----------------------------------------------------------


def _string(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    p.values.append(p.sink.string(text, (start, end)))
    p.spans.append((start, end))
    return AFTER_ITEM


def _group(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    return p.open(_GROUP)


def _list(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    return p.open(_LIST)


def _empty_item(p: Parser, kind: str, text: str, start: int, end: int) -> bool | None:
    """A ',' ':' or closer where an item should start: an empty item, which the bracket may
    allow (`f()`, `(a,)`, `v[:3]`, `v[1:]`); the token's INFIX handler judges."""
    top = p.frames[-1]
    if type(top) is tuple or not (kind in (",", ":") or kind == top.form.closer):  # type: ignore[union-attr]
        raise p.unexpected(Token(kind, text, start, end))
    return INFIX[kind](p, kind, text, start, end)  # type: ignore[operator]


def _ellipsis(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    """`...` (three adjacent dots) where an item starts: an index's ellipsis, as in m[..., 0]."""
    position, tokens = p.position, p.tokens
    if not (p.kinds[position + 1] == "." and p.kinds[position + 2] == "." and tokens.starts[position + 1] == end
            and tokens.ends[position + 1] == tokens.starts[position + 2]):  # (END ends the kinds: no IndexError)
        raise p.unexpected(Token(kind, text, start, end))
    span = (start, tokens.ends[position + 2])
    p.values.append(p.sink.name("...", span))
    p.spans.append(span)
    p.position = position + 2
    return AFTER_ITEM


def _newline_before_item(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    if p.depth:
        return WANT_ITEM
    raise p.unexpected(Token(kind, text, start, end))


def _unexpected(p: Parser, kind: str, text: str, start: int, end: int) -> None:
    raise p.unexpected(Token(kind, text, start, end))


# --- INFIX: what follows a complete item ---------------------------------------------------


def _subscript(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    head, head_span = p.values.pop(), p.spans.pop()
    return p.open(_INDEX, head, head_span)


def _call(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    head, head_span = p.values.pop(), p.spans.pop()
    if head is not _CALLEE:  # `2(3)`, `(f)(x)`
        raise p.fail("only a function's name can be called", Token(kind, text, start, end))
    # The name as spelled, its module prefix with it (torch.max, np.max): the spelling says whose semantics.
    spelled = p.tokens.texts[p.position - 1]
    if head_span[1] - head_span[0] != len(spelled):
        spelled = "".join(p.source[head_span[0]:head_span[1]].split())
    return p.open(_CALL, spelled, head_span)


def _method(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    """`.name(` after an item: a method of the op table (Op.methods), the item its first
    argument (`x.sum()` is `sum(x)`); the parser reads on to the '('. Any other '.' after an
    item (an attribute) is refused, naming it."""
    position = p.position
    following = p.tokens[position + 1]
    if following.kind == "NAME" and following.text in PROPERTIES:
        if p.kinds[position + 2] == "(":
            raise p.fail(f"'{following.text}' is a property, not a method", following, f"write .{following.text}")
        receiver, receiver_span = p.values.pop(), p.spans.pop()
        span = (receiver_span[0], following.end)
        p.values.append(PROPERTIES[following.text](p.sink, receiver, (following.start, following.end), span))
        p.spans.append(span)
        p.position = position + 1
        return AFTER_ITEM
    if following.kind == "NAME" and following.text in METHODS and p.kinds[position + 2] == "(":
        receiver, receiver_span = p.values.pop(), p.spans.pop()
        p.position = position + 2
        return p.open(_METHOD, (following.text, receiver), receiver_span)
    hint = ""
    if following.kind == "NAME" and following.text in METHODS:
        hint = f"call the method: .{following.text}(...)"
    elif following.kind == "NAME":
        from gradcli.ops.meanings import meaning

        meant = meaning(following.text)
        hint = f"'{following.text}': {meant}" if meant else (
            f"'{following.text}' is neither a method nor a function of a module prefix")
    raise p.fail("attribute access ('.') is not supported", Token(kind, text, start, end), hint)


def _field(name: str) -> Callable[[Any, Any, Span, Span], Any]:
    return lambda sink, receiver, name_span, span: sink.call(f".{name}", name_span, [receiver], span, [])


def _property(name: str) -> Callable[[Any, Any, Span, Span], Any]:
    """A property that is an op (lowering.PROPERTIES): the call of its row, its params as keywords."""
    row, params = table.PROPERTIES[name]

    def call(sink: Any, receiver: Any, name_span: Span, span: Span) -> Any:
        keywords = []
        for keyword, value in params.items():
            if value is None:
                continue
            number = sink.number(str(abs(value)), name_span)
            keywords.append((keyword, sink.unary("-", number, name_span) if value < 0 else number, name_span))
        return sink.call(f".{row}", name_span, [receiver], span, keywords)

    return call


# The properties of a value (`m.T`, `m.mT`: lowering.PROPERTIES) and the parts of PyTorch's
# namedtuples. sink, receiver, the name's span, the whole span.
PROPERTIES: dict[str, Callable[[Any, Any, Span, Span], Any]] = {
    **{name: _property(name) for name in table.PROPERTIES},
    # The parts of PyTorch's namedtuples (Op.fields): max(x, 0).values, .indices, linalg.qr(m).R (the sink
    # refuses them elsewhere); a method's name stays a method (x.max is no field).
    **{name: _field(name) for name in table.FIELDS},
}


def _name_after_item(p: Parser, kind: str, text: str, start: int, end: int) -> None:
    """A name right after an item: `2x` means 2*x (said so), anything else is unexpected."""
    before = p.tokens[p.position - 1]
    if before.kind == "NUM" and before.end == start:
        raise p.fail(f"unexpected name {text!r}", Token(kind, text, start, end), f"write {before.text}*{text}")
    raise p.unexpected(Token(kind, text, start, end))


def _comma(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    bracket = p.innermost()
    p.end_item(bracket, closing=False)
    bracket.comma = True
    return WANT_ITEM


def _colon(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    bracket = p.innermost()
    if not bracket.form.slices:
        raise p.fail("unexpected ':'", Token(kind, text, start, end), "slices go inside an index, as in v[1:3]")
    item = p.take_item(bracket)
    if bracket.slice is None:
        bracket.slice = [item]
    elif len(bracket.slice) < 2:
        bracket.slice.append(item)
    else:
        raise p.unexpected(Token(kind, text, start, end))  # v[1:2:3:4]
    return WANT_ITEM


def _close(p: Parser, kind: str, text: str, start: int, end: int) -> bool:
    bracket = p.innermost()
    form = bracket.form
    if form.closer != kind:
        token = Token(kind, text, start, end)
        if form is _STATEMENT:
            raise p.fail(f"unexpected {kind!r}", token, "nothing is open to close")
        opener = p.tokens[bracket.opener]
        column = line_and_column(p.source, opener.start)[1]
        raise p.fail(f"unexpected {kind!r}", token, f"the {opener.text!r} at column {column} is still open")
    p.end_item(bracket, closing=True)
    p.frames.pop()
    p.depth -= 1
    value, span = form.finish(p, bracket, end)
    p.values.append(value)
    p.spans.append(span)
    return AFTER_ITEM


def _newline_after_item(p: Parser, kind: str, text: str, start: int, end: int) -> bool | None:
    return AFTER_ITEM if p.depth else STATEMENT_ENDS


def _end_of_statement(p: Parser, kind: str, text: str, start: int, end: int) -> None:
    return STATEMENT_ENDS


def _assignment(p: Parser, kind: str, text: str, start: int, end: int) -> None:
    token = Token(kind, text, start, end)
    raise p.fail(f"unexpected {text!r}", token, "only a single name can be assigned, at the start of a statement")


# --- the brackets: what each makes when it closes ------------------------------------------


def _finish_group(p: Parser, bracket: _Open, end: int) -> tuple[Any, Span]:
    span = (p.tokens.starts[bracket.opener], end)
    if len(bracket.items) == 1 and not bracket.comma:
        return bracket.items[0], span  # (a): the item, spanning its parentheses
    return p.sink.make_tuple(bracket.items, bracket.spans, span), span


def _finish_list(p: Parser, bracket: _Open, end: int) -> tuple[Any, Span]:
    span = (p.tokens.starts[bracket.opener], end)
    return p.sink.make_list(bracket.items, bracket.spans, span), span


def _finish_call(p: Parser, bracket: _Open, end: int) -> tuple[Any, Span]:
    assert bracket.head_span is not None
    span = (bracket.head_span[0], end)
    return p.sink.call(bracket.head, bracket.head_span, bracket.items, span, bracket.keywords), span


def _finish_method(p: Parser, bracket: _Open, end: int) -> tuple[Any, Span]:
    assert bracket.head_span is not None
    name, receiver = bracket.head
    span = (bracket.head_span[0], end)
    operator, args = METHODS[name], [receiver, *bracket.items]
    if operator is not None and operator[1] == len(args) and not bracket.keywords:  # x.add(y) is x + y, x.neg() is -x
        if operator[1] == 2:
            return p.sink.binary(operator[0], args[0], args[1], span), span
        return p.sink.unary(operator[0], args[0], span), span
    name_start = p.tokens.starts[bracket.opener - 1]
    return p.sink.call(f".{name}", (name_start, name_start + len(name)), args, span, bracket.keywords), span


def _finish_subscript(p: Parser, bracket: _Open, end: int) -> tuple[Any, Span]:
    assert bracket.head_span is not None
    span = (bracket.head_span[0], end)
    return p.sink.index(bracket.head, bracket.items, span), span


def _never_closed(p: Parser, bracket: _Open, end: int) -> tuple[Any, Span]:
    raise AssertionError("no token closes a statement")


_GROUP = _Form(")", may_be_empty=True, slices=False, finish=_finish_group)  # (`()`: the empty tuple, a shape or dims)
_LIST = _Form("]", may_be_empty=False, slices=False, finish=_finish_list)
_CALL = _Form(")", may_be_empty=True, slices=False, finish=_finish_call)
_METHOD = _Form(")", may_be_empty=True, slices=False, finish=_finish_method)
_INDEX = _Form("]", may_be_empty=False, slices=True, finish=_finish_subscript)
_STATEMENT = _Form("", may_be_empty=False, slices=False, finish=_never_closed)


# --- the tables --------------------------------------------------------------------------

_NOTHING_ON_THE_LEFT = operators.POSTFIX_POWER  # a prefix operator's left power: it completes nothing

PREFIX: dict[str, Entry] = {
    **{symbol: (_NOTHING_ON_THE_LEFT, power, True) for symbol, power in operators.PREFIX.items()},
    "NUM": ATOM,
    "NAME": ATOM,
    "STR": _string,
    "(": _group,
    "[": _list,
    **dict.fromkeys([",", ":", ")", "]"], _empty_item),
    "NEWLINE": _newline_before_item,
    ".": _ellipsis,
}  # anything else cannot start an item

INFIX: dict[str, Entry] = {
    **{symbol: (left, right, False) for symbol, (left, right) in operators.INFIX.items()},
    "(": _call,
    "[": _subscript,
    ",": _comma,
    ":": _colon,
    ")": _close,
    "]": _close,
    "NEWLINE": _newline_after_item,
    ";": _end_of_statement,
    "END": _end_of_statement,
    "=": _assignment,
    "AUG": _assignment,
    ".": _method,
    "NAME": _name_after_item,
}  # anything else cannot follow an item: `x y`

# The two tables filled out to every key a token can have (a kind, or an operator's text),
# which the loop reads: a lookup that always succeeds is the fastest.
_KEYS = ["NUM", "NAME", "STR", *"()[],:=;.", "AUG", "NEWLINE", "END", *operators.SPELLINGS]
_PREFIX_ALL = {**dict.fromkeys(_KEYS, _unexpected), **PREFIX}
_INFIX_ALL = {**dict.fromkeys(_KEYS, _unexpected), **INFIX}


def assigned_names(tokens: Tokens) -> set[str]:
    """Every name that a statement assigns (a NAME followed by '=', or by '+=' and the like; the
    names a statement unpacks into: `a, b = ...`)."""
    kinds, texts = tokens.kinds, tokens.texts
    names = {texts[i] for i in range(len(kinds) - 1) if kinds[i] == "NAME" and kinds[i + 1] in ("=", "AUG")}
    for i in range(len(kinds)):
        if kinds[i] != "=" or i < 2 or kinds[i - 1] not in ("NAME", ","):
            continue
        j, chain = i - 1 if kinds[i - 1] == "NAME" else i, []
        if kinds[j] == "NAME":
            chain.append(texts[j])
        while j >= 2 and kinds[j - 1] == "," and kinds[j - 2] == "NAME":
            j -= 2
            chain.append(texts[j])
        if len(chain) > 1 and (j == 0 or kinds[j - 1] in (";", "NEWLINE")):  # at a statement's start only
            names.update(chain)
    return names


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
    if token.kind != "END":
        raise parser.unexpected(token)
    return expression
