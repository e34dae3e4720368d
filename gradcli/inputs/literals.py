"""The values a user types beside a program: --at and --tangent points, --seed vectors.

One grammar, read once, each part with its span in the text as typed:

    assignments := [assignment (',' assignment)* [',']]   -- --at, --tangent
    assignment  := NAME '=' value                         -- a ',' inside brackets does not end it
    seeds       := seed (',' seed)* | '(' seeds [','] ')'  -- --seed: one per output
    seed        := value | 'ones' | 'ones_like' '(' NAME ')'
    value       := number | '[' value (',' value)* [','] ']'
                 | CONSTRUCTOR '(' args ')'    -- tensor, ones, zeros, full, eye, arange, linspace
                                                  (ops.CONSTRUCTORS: a program's own, bound alike)
    number      := ('+' | '-')* (NUMBER | 'pi' | 'e' | 'inf' | 'nan')
                 | number ('+' | '-' | '*' | '/' | '**') number   -- a constant expression: 1/2, pi/4
    (and parentheses around any value or number)

The text is tokenized once and each value parsed once by the program's parser (`_tree`, the
one place a value meets it), then walked here into an array: the elements are counted before
any are made, lists nest at most MAX_LIST_DEPTH deep. Nothing is ever `eval`ed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from gradcli import lowering, syntax
from gradcli.errors import GradcliError, LimitProblem, Limits, NameProblem, ShapeProblem, SyntaxProblem, over_limit
from gradcli.ops import CONSTANTS, CONSTRUCTORS, DTYPES, SIZED
from gradcli.syntax import END, KIND, START, Span, Token, Tokens
from gradcli.tape import MAX_AXES

Array = np.ndarray

MAX_LIST_DEPTH = MAX_AXES  # NumPy broadcasts at most 32 axes; nobody types 32 nested lists
# The language's constants (pi, e), and the IEEE specials a value may be but a program spells otherwise.
_NAMED_NUMBERS = {**CONSTANTS, "inf": np.inf, "nan": np.nan}
_EXPECTED = ("a value is a number, a [list], arange(start, stop, step), linspace(start, stop, n), tensor([...]), "
             "ones(n), zeros(n), full(size, x) or eye(n)")


def _problem(message: str, expr: syntax.Expr | syntax.Slice, source: str) -> SyntaxProblem:
    return SyntaxProblem(message, source=source, span=expr.span)


_ARITHMETIC = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide, "**": np.power}


def _number(expr: syntax.Expr, source: str) -> float:
    """A number, or a constant expression of numbers (`1/2`, `pi/4`, `-2*pi`, `2**-3`), worked out
    in float64 as a program would (`1/0` is inf). Walked with a stack: no recursion grows with the text."""
    values: list[float] = []
    stack: list[tuple[syntax.Expr, bool]] = [(expr, False)]
    while stack:
        node, operands_done = stack.pop()
        if isinstance(node, syntax.Unary) and node.op in "+-":
            if operands_done:
                values[-1] = -values[-1] if node.op == "-" else values[-1]
            else:
                stack += [(node, True), (node.operand, False)]
        elif isinstance(node, syntax.Binary) and node.op in _ARITHMETIC:
            if operands_done:
                right = values.pop()
                with np.errstate(all="ignore"):
                    values[-1] = float(_ARITHMETIC[node.op](np.float64(values[-1]), np.float64(right)))
            else:
                stack += [(node, True), (node.right, False), (node.left, False)]
        elif isinstance(node, syntax.Num):
            values.append(node.value)
        elif isinstance(node, syntax.Name) and node.id in _NAMED_NUMBERS:
            values.append(float(_NAMED_NUMBERS[node.id]))
        else:
            raise _problem(f"expected a number; {_EXPECTED}", node, source)
    return values[0]


def _static(expr: syntax.Expr, source: str, count: _Count) -> Any:
    """What a constructor's argument says: a number, a tuple of them, a dtype word, or (for
    tensor's data) a nested list."""
    if isinstance(expr, syntax.TupleLit):
        return tuple(_static(item, source, count) for item in expr.items)
    if isinstance(expr, syntax.Name) and expr.id in DTYPES:
        return expr.id
    if isinstance(expr, (syntax.ListLit, syntax.Call)):
        return value(expr, source, count)
    number = _number(expr, source)
    return int(number) if _written_as_int(expr) else number


def _written_as_int(expr: syntax.Expr) -> bool:
    """`3`, `-1`: a number written as Python's int (a dim, a size, a count)."""
    while isinstance(expr, syntax.Unary):
        expr = expr.operand
    return isinstance(expr, syntax.Num) and expr.text.isdigit()


def _construct(call: syntax.Call, source: str, count: _Count) -> Array:
    """tensor([...]), ones(2, 3), arange(5)...: the constructors of programs (ops.CONSTRUCTORS),
    their args bound by the one lowering of calls, the elements counted before they are made."""
    family, name = lowering.spelling(call.func)
    op = CONSTRUCTORS.get(name) if family != lowering.METHOD else None
    if op is None:
        raise _problem(f"'{call.func}' is not a value; {_EXPECTED}", call, source)
    args: list[Any] = list(call.args)
    if name in SIZED and len(args) > 1:  # ones(2, 3) is ones((2, 3))
        args = [syntax.TupleLit(tuple(args), call.span)]
    front = _Written(source, count)
    try:
        tensors, params = lowering.bind(op, name, args, call.keywords, front)
        data = [np.asarray(front.static(item), dtype=float) for item in tensors]
        shape = op.shape(*[d.shape for d in data], **params)  # type: ignore[misc]
    except lowering.CallProblem as problem:
        raise SyntaxProblem(problem.message, source=source, span=getattr(problem.value, "span", call.span),
                            hint=problem.hint) from None
    except ValueError as problem:
        raise _problem(f"{name}: {problem}", call, source) from None
    if name in ("tensor", "array", "as_tensor", "asarray"):
        return data[0]  # (counted as it was read)
    if math.prod(shape) > count.limit:
        raise over_limit(f"{name} makes too many elements", "elements", source=source, span=call.span)
    count.add(math.prod(shape), call, source)
    return np.asarray(op.forward(*data, ranks=(), **params), dtype=float)


class _Written:
    """The values of a constructor's call in a literal, as gradcli.lowering asks of them (lowering.Front)."""

    def __init__(self, source: str, count: _Count) -> None:
        self.source, self.count = source, count

    def kind(self, expr: Any) -> str:
        if isinstance(expr, syntax.ListLit):
            return lowering.LIST
        if isinstance(expr, syntax.TupleLit):
            return lowering.TUPLE
        if isinstance(expr, syntax.Str) or (isinstance(expr, syntax.Name) and expr.id in DTYPES):
            return lowering.STR
        if isinstance(expr, syntax.Name) and expr.id in ("True", "False"):
            return lowering.BOOL
        if isinstance(expr, syntax.Name) and expr.id == "None":
            return lowering.NONE
        if isinstance(expr, syntax.Call):
            return lowering.TENSOR
        return lowering.INT if _written_as_int(expr) else lowering.FLOAT

    def static(self, expr: Any) -> Any:
        if isinstance(expr, syntax.Name) and expr.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[expr.id]
        if isinstance(expr, syntax.Str):
            return expr.value
        if isinstance(expr, syntax.ListLit):  # ones([2, 3]): a list of sizes as a tuple (tensor's data as well)
            self.count.add(len(expr.items), expr, self.source)
            return tuple(self.static(item) for item in expr.items)
        return _static(expr, self.source, self.count)

    def items(self, expr: Any) -> list[Any]:
        return list(expr.items)

    def tensor(self, expr: Any) -> Any:
        return expr

    def stand_in(self, number: float) -> Any:
        return syntax.Num(number, repr(number), (0, 0))

    def floating(self, expr: Any) -> bool:
        return True

    def dtype(self, expr: Any) -> str:
        return "float64"

    def arg_shapes(self, values: list[Any], row: str) -> None:
        return None  # (no loss is a literal)


class _Count:
    """Elements made so far while building one value: refused as soon as they pass the limit."""

    __slots__ = ("limit", "made")

    def __init__(self) -> None:
        self.limit = Limits.get("elements")
        self.made = 0

    def add(self, count: int, expr: syntax.Expr, source: str) -> None:
        self.made += count
        if self.made > self.limit:
            raise over_limit(f"the value has more than {self.limit:,} elements", "elements", source=source,
                             span=expr.span)


def _literal(expr: syntax.Expr, source: str, count: _Count, depth: int = 0) -> Any:
    """Nested Python lists of floats (or an array for a range) for a value expression."""
    if depth > MAX_LIST_DEPTH:
        raise LimitProblem(f"lists nested deeper than {MAX_LIST_DEPTH}", source=source, span=expr.span)
    if isinstance(expr, syntax.ListLit):
        return [_literal(item, source, count, depth + 1) for item in expr.items]
    if isinstance(expr, syntax.Call):
        return _construct(expr, source, count)
    count.add(1, expr, source)
    return _number(expr, source)


def value(expr: syntax.Expr, source: str, count: _Count | None = None) -> Array:
    """The array a value expression stands for."""
    nested = _literal(expr, source, count or _Count())
    try:
        array = np.array(nested, dtype=float)
    except ValueError:
        raise _problem("the rows of a nested list must have equal lengths", expr, source) from None
    if array.size > Limits.get("elements"):
        raise over_limit(f"the value has {array.size:,} elements", "elements", source=source, span=expr.span)
    return array


def parse_value(text: str, where: str = "") -> Array:
    """value: one value, from its text."""
    try:
        return value(_tree(text, syntax.tokenize(text)), text)
    except GradcliError as error:
        raise error.locate(text, where) from None


class Assignment(NamedTuple):
    name: str
    span: Span  # where the name stands in the text of its option
    value: Array


def assignments(text: str, where: str = "--at") -> list[Assignment]:
    """assignments: `x1=0.5, x2=[1,2]` -> its assignments in order, each name with its span.

    The text is tokenized once; each value is parsed from its own tokens, where they stand
    in the whole text (an error points into the text as typed), and made into an array
    before the next assignment is read. A comma inside brackets does not end a value.
    """
    try:
        tokens = syntax.tokenize(text)
        result: list[Assignment] = []
        given: set[str] = set()
        position = 0
        while tokens[position][KIND] != "END":
            (name_kind, name, name_start, name_end), equals = tokens[position], tokens[position + 1]
            if name_kind != "NAME" or equals[KIND] != "=":
                raise SyntaxProblem("expected NAME=VALUE", span=(name_start, max(name_end, name_start + 1)))
            if name in given:
                raise SyntaxProblem(f"'{name}' is given twice", span=(name_start, name_end))
            end = _value_end(tokens, position + 2)
            if end == position + 2:
                raise SyntaxProblem(f"no value for '{name}'", span=(equals[START], equals[END]))
            tree = _tree(text, [*tokens[position + 2 : end], _end_at(tokens[end])])
            result.append(Assignment(name, (name_start, name_end), value(tree, text)))
            given.add(name)
            position = end + 1 if tokens[end][KIND] == "," else end
        return result
    except GradcliError as error:
        raise error.locate(text, where) from None


def parse_assignments(text: str, where: str = "--at") -> dict[str, Array]:
    """`x1=0.5,x2=[1,2]` -> {name: value}."""
    return {name: array for name, _, array in assignments(text, where)}


def _value_end(tokens: Sequence[Token], position: int) -> int:
    """The ',' that ends the value starting at `position` (outside any bracket), or the END."""
    depth = 0
    while tokens[position][KIND] != "END" and not (depth == 0 and tokens[position][KIND] == ","):
        depth += _DEPTH.get(tokens[position][KIND], 0)
        position += 1
    return position


_DEPTH = {"(": 1, "[": 1, ")": -1, "]": -1}


def _end_at(token: Token) -> Token:
    """An END token where `token` starts: a value's own tokens stop there."""
    return Token("END", "", token.start, token.start)


def _tree(text: str, tokens: Sequence[Token]) -> syntax.Expr:
    """The syntax tree of one value, from its tokens (ending in END), by the program's parser.

    The one place a value meets the parser: spans and columns are those of `text`."""
    if not isinstance(tokens, Tokens):
        kinds, texts, starts, ends = (list(column) for column in zip(*tokens, strict=True))
        tokens = Tokens(kinds, texts, starts, ends)
    parser = syntax.Parser(text, tokens, syntax.TreeSink(text))
    tree, _ = parser.expression()
    token = parser.tokens[parser.position]
    if token[KIND] != "END":
        raise parser.unexpected(token)
    return tree


def merge_points(texts: list[str], inputs: Mapping[str, int] | None = None, where: str = "--at") -> dict[str, Array]:
    """Several --at (or --tangent) options into one point; with `inputs`, a name that is none of them is
    left out, with a warning (one --at can serve several programs)."""
    point: dict[str, Array] = {}
    unused: list[str] = []
    for text in texts:
        for name, span, array in assignments(text, where):
            if name in point or name in unused:
                raise SyntaxProblem(f"'{name}' is given twice", source=text, span=span, where=where)
            if inputs is not None and name not in inputs:  # one --at for several programs: said, not refused
                unused.append(name)
                continue
            point[name] = array
    if unused and inputs is not None:  # (said once every value is read: a bad one is the only line)
        import warnings

        for name in unused:
            warnings.warn(f"--at: '{name}' is not an input of the program; its value is not used "
                          f"(its inputs are: {', '.join(inputs) or 'none'})", UserWarning, stacklevel=2)
    return point


def as_array(given: Any, name: str, copy: bool = True) -> Array:
    """A value handed in from Python: a number, a nested list, an array, or a value's text. Without `copy`, a
    float64 C-contiguous array is the caller's own (a million points read where they are)."""
    if isinstance(given, str):
        return parse_value(given, where=f"value of {name}")
    if not copy and type(given) is np.ndarray and given.dtype == np.float64 and given.flags.c_contiguous:
        return given
    try:
        array = np.array(given)
        if array.dtype == object and any(item is None for item in array.flat):  # (NaN to NumPy): no number
            raise TypeError
        return array.astype(float, copy=False)
    except (TypeError, ValueError):
        raise ShapeProblem(f"the value of '{name}' is not a number or a rectangular list of numbers") from None


def check_point(inputs: Mapping[str, int], point: Mapping[str, Array]) -> None:
    """Every input has a value and every value names an input."""
    missing = [name for name in inputs if name not in point]
    if missing:
        example = ",".join(f"{name}=..." for name in missing)
        raise NameProblem(f"no value for input {', '.join(repr(n) for n in missing)}", hint=f"give it with --at {example}")
    extra = [name for name in point if name not in inputs]
    if extra:
        known = ", ".join(inputs) or "none"
        raise NameProblem(f"{', '.join(repr(n) for n in extra)} is not an input of the program", hint=f"its inputs are: {known}")


def _ones_like(expr: syntax.Expr) -> bool:
    """ones_like(y): the seed `ones`, of the shape of what is differentiated."""
    return (isinstance(expr, syntax.Call) and lowering.spelling(expr.func)[1] == "ones_like" and len(expr.args) == 1
            and isinstance(expr.args[0], syntax.Name) and not expr.keywords)


def parse_seed(text: str) -> list[Array | str]:
    """--seed: a value, `ones`, or a tuple of those for a tuple output."""
    try:
        expr = _tree(text, syntax.tokenize(text))
        items = list(expr.items) if isinstance(expr, syntax.TupleLit) else [expr]
        seeds: list[Array | str] = []
        for item in items:
            if (isinstance(item, syntax.Name) and item.id == "ones") or _ones_like(item):
                seeds.append("ones")
            else:
                seeds.append(value(item, text))
        return seeds
    except GradcliError as error:
        raise error.locate(text, "--seed") from None

