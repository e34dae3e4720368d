"""Text or syntax tree -> tape (the sweeps over it are in engine.py).

The tape is a Wengert list: a flat list of nodes in topological order, each an input, a
constant, or an op of `ops.OPS` applied to earlier nodes. Every sweep over it is a loop.
A tape holds no input values, so one tape serves any number of points.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from gradcli import lowering, syntax
from gradcli.errors import LimitProblem, Limits, NameProblem, ShapeProblem, SyntaxProblem, ValueProblem, over_limit
from gradcli.ops import (
    BINARY_OPERATORS,
    CONSTANTS,
    CONSTRUCTORS,
    DTYPES,
    FUNCTIONS,
    MEMORY_FORMATS,
    OPS,
    PREFIX_OPERATORS,
    SIZED,
    Op,
    call_forward,
    shape_message,
)
from gradcli.ops.core import LinAlgError, ValueRefusal, broadcast_shape, given_0d_problem, rule_params

_NO_PARAMS: dict[str, Any] = {}  # shared by the nodes of ops that take no parameters; never changed

INPUT = "input"
CONST = "const"
APPLY = "apply"

Array = np.ndarray
Shape = tuple[int, ...]

# NumPy broadcasts at most 32 axes (np.broadcast and its kin), and the points of --points
# add one more; nobody types 32 nested lists.
MAX_AXES = 32


@dataclass(slots=True, eq=False, repr=False)
class Node:
    index: int
    kind: str  # INPUT, CONST or APPLY
    op: Op | None  # set for APPLY
    args: tuple[int, ...]
    span: tuple[int, int]
    params: dict[str, Any] = field(default_factory=dict)  # TapeSink passes a shared empty one
    name: str | None = None  # an input's name, or the first name assigned to this node
    value: Array | None = None  # set for CONST
    requires_grad: bool = False  # does any input flow into it?
    wants: tuple[bool, ...] = ()  # for each arg: does a gradient flow back into it?
    integer: bool = False  # a constant Python would hold as an int (`2`, `-1`, `True`): a dim, a size
    # A Python number, as the program wrote it or folded it from such numbers: "int", "float" or
    # "bool" ("" for a tensor, a constructor's or a list's included). PyTorch takes such a number
    # into the node (x**2 is PowBackward0, x**torch.tensor(2.) PowBackward1) and binds it to dims.
    literal: str = ""
    bools: bool = False  # a constant list of True and False: as an index, a mask (x[[True, False, True]])
    # run: the float dtype the node computes in where an arg is a float tensor of another (float32 * float64):
    # PyTorch's derivative formulas compute in it too (gradcli.run.tensor.PROMOTING)
    promoted: str = ""
    in_place: bool = False  # run: its result was written into its first arg in place (Op.in_place_nodes)
    # run: a CopySlices of an op written in place through a view (v.mul_(w) of v = b[1:]): PyTorch's node holds the
    # op's node inside, and lists the op's inputs but the view after the base's (torch_graph.next_functions)
    holds_op: bool = False

    def is_scalar_constant(self) -> bool:
        """A 0-d constant: written in place by the views."""
        return self.kind == CONST and self.value is not None and self.value.ndim == 0

    def is_number(self) -> bool:
        """A constant PyTorch would see as a Python number (the one rule, for every front end)."""
        return self.kind == CONST and bool(self.literal)

    @property
    def output(self) -> int:
        """Which output of PyTorch's node this is: a part of a tuple (Op.parts) is that part's, else 0."""
        if self.op is None:
            return 0
        if not self.op.parts or "part" not in self.params:
            return self.op.output
        return int(self.params["part"]) % self.op.parts if self.op.parts > 0 else int(self.params["part"])


@dataclass(eq=False, repr=False)
class Tape:
    source: str
    nodes: list[Node]
    inputs: dict[str, int]  # input name -> node, in order of first use
    names: dict[str, int]  # every assigned name -> the node it holds at the end
    outputs: tuple[int, ...]  # the program's output, several for a tuple
    output_names: tuple[str, ...]
    is_tuple: bool
    # Numbers only: every op has float rules and every constant is a number, so at a point
    # of numbers the sweeps can run on Python floats (see engine.Floats).
    floats: bool = False
    item_spans: dict[int, tuple[Span, ...]] = field(default_factory=dict)  # a list node -> its items' spans
    # input shapes check_shapes has passed -> the elements of all the values at such a point
    checked: dict[tuple[Shape, ...], int] = field(default_factory=dict)
    integer_inputs: tuple[str, ...] = ()  # the inputs used as indices: whole numbers, no gradient
    # calls whose graph depends on their args' shapes (TapeSink.wants_shapes): (span, row) -> their args' nodes;
    # at one point, derivatives.prepare compiles the program again with those shapes
    wants_shapes: dict[ShapeKey, tuple[int, ...]] = field(default_factory=dict)
    shaped: bool = False  # compiled with the shapes of a point
    # composite calls (not on the tape: their parts are) whose shape rule check_shapes holds: the index of
    # their first part -> (the row, its args' nodes, its params, its span)
    composite_calls: dict[int, list[tuple[Op, tuple[int, ...], dict[str, Any], Span]]] = field(default_factory=dict)
    stand_ins: set[int] = field(default_factory=set)  # the constants that stand in for optional tensor args left out

    def node_label(self, index: int) -> str:
        """A short name for a node: its own name, or v<index>."""
        node = self.nodes[index]
        return node.name if node.name is not None else f"v{index}"


def _fail(message: str, span: tuple[int, int], source: str, hint: str = "") -> NameProblem:
    return NameProblem(message, source=source, span=span, hint=hint)


def _typos(a: str, b: str) -> int:
    """Edits from a to b: letters inserted, deleted, replaced or swapped with the next."""
    before, row = list(range(len(b) + 1)), list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        earlier, before, row = before, row, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], earlier[j - 2] + 1)
    return row[-1]


def _suggest(name: str, arity: int) -> str:
    """A function the user plausibly meant: by meaning (ops.meanings: `logistic` is `sigmoid`),
    else one that takes as many arguments and is one typo away (two in a name of six letters
    or more). Else nothing: `det` is not `dot`."""
    from gradcli.ops.meanings import meaning

    listed = "`gradcli functions` lists them all"
    meant = meaning(name)
    if meant is not None:
        return f"{meant} ({listed})"
    allowed = 1 if len(name) < 6 else 2
    distances = {known: _typos(name, known) for known, op in FUNCTIONS.items()
                 if op.arity == arity or op.arity <= arity <= op.arity + len(op.params)}
    best = min(distances.values(), default=allowed + 1)
    close = [known for known, distance in distances.items() if distance == best]
    if best > allowed or not close:
        return listed
    return "did you mean " + " or ".join(f"'{known}'" for known in close[:3]) + f"? ({listed})"


class _Tuple:
    """A tuple of values: allowed only as the program's output."""

    __slots__ = ("items", "span", "spans")

    def __init__(self, items: list[int], spans: list[Span], span: Span) -> None:
        self.items, self.spans, self.span = items, spans, span


def _called_name(call: str) -> str:
    """The name a call was written with, the last one before its args: `np.split` in np.split(x, 2), `split` in
    x.sum(0).split(2) ("" where it is not a call)."""
    depth = 0
    for i in range(len(call) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(call[i], 0)
        if depth == 0 and call[i] == "(":
            head = call[:i].rstrip()
            j = len(head)
            while j > 0 and (head[j - 1].isalnum() or head[j - 1] == "_"):
                j -= 1
            return head[j:]
    return ""


class _Parts:
    """The tuple a call of a row with `parts` gives (Op.parts: x.split(2), max(x, dim=0)): one
    node per part, made as the program indexes it (t[0]) or unpacks it (a, b = t)."""

    __slots__ = ("args", "op", "params", "span")

    def __init__(self, op: Op, args: list[int], params: dict[str, Any], span: Span) -> None:
        self.op, self.args, self.params, self.span = op, args, params, span


class _List:
    """A list literal, kept as its items until it is used: a call that takes a sequence of
    tensors (cat) takes them; anywhere else it is the stacked value (`operand`)."""

    __slots__ = ("depth", "items", "span", "spans")

    def __init__(self, items: list[Value], spans: list[Span], span: Span, depth: int = 1) -> None:
        self.items, self.spans, self.span, self.depth = items, spans, span, depth


class _Word:
    """None, or a string literal: a static argument of a call, never a value."""

    __slots__ = ("span", "value")

    def __init__(self, value: str | None, span: Span) -> None:
        self.value, self.span = value, span


class _Slice:
    __slots__ = ("parts", "span")

    def __init__(self, parts: tuple[int | None, int | None, int | None], span: Span) -> None:
        self.parts, self.span = parts, span


Span = tuple[int, int]
ShapeKey = tuple[Span, str]  # a composite call whose graph depends on shapes: its span and its row
Value = Union[int, _Tuple, _Parts, _Slice, _List, _Word]

# Names that are values in Python: True and False are the integers 1 and 0 (PyTorch promotes a
# bool to the float it meets); None stands for "no value" where a call takes it (dim=None).
_WORDS = {"True": 1, "False": 0, "None": None}
_KINDS: dict[type, str] = {_List: lowering.LIST, _Tuple: lowering.TUPLE, _Slice: "slice", _Parts: "parts"}
# The parts of PyTorch's namedtuples a program may name (Op.fields): the parser's `.values`.
_FIELDS = frozenset(name for op in OPS.values() for name in op.fields)


class Emitter:
    """What a composite's program is given (TapeSink.emitter): emit(row, *args, **params) applies a row,
    emit.shape(arg) is an arg's shape where the point is known (None on a tape for every point)."""

    def __init__(self, sink: TapeSink, span: Span, args: tuple[int, ...], row: str = "") -> None:
        self.sink, self.span, self.args = sink, span, args
        self.key = (span, row)  # (a composite inside a composite asks at the same span)

    def __call__(self, row: str, *args: Any, **params: Any) -> int:
        sink, op = self.sink, OPS[row]
        nodes = [sink.constant(a, self.span, literal="float") if type(a) is float else a for a in args]
        full = rule_params(op, params) if op.params or params else _NO_PARAMS  # (a part of a tuple: part=)
        out = sink.apply(op, nodes, self.span, full)
        if sink.point_shapes and isinstance(out, int) and out not in sink.point_shapes:
            # where the point's shapes are known, those of the parts too: a composite among them asks
            shapes = [sink.point_shapes.get(a) for a in nodes]
            if None not in shapes:
                shape = output_shape(op, shapes, full)  # type: ignore[arg-type]
                if shape is not None:
                    sink.point_shapes[out] = shape
        return out

    def given(self, handle: int) -> bool:
        """Was this optional tensor arg given (not the number that stands in for it)?"""
        return handle not in self.sink.stand_ins

    def tensor(self, value: Any) -> int:
        """A constant tensor, not a Python number: C++'s at::scalar_tensor(n) that PyTorch divides by
        (DivBackward0, its next function None), where a number would be DivBackward1's."""
        return self.sink.constant(np.asarray(value, dtype=float), self.span)

    def dtype(self, handle: int) -> str:
        return "float64"  # (every value of a program is)

    def requires_grad(self, handle: int) -> bool:
        """Does this arg take a gradient (an input, or computed from one; not a constant)?"""
        nodes = self.sink.nodes
        return not (isinstance(handle, int) and handle < len(nodes) and nodes[handle].kind == CONST)

    def shape(self, handle: int) -> Shape | None:
        sink = self.sink
        node = sink.nodes[handle] if isinstance(handle, int) and handle < len(sink.nodes) else None
        if node is not None and node.kind == CONST and node.value is not None:
            return node.value.shape
        if handle in sink.point_shapes:
            return sink.point_shapes[handle]
        if handle not in self.args:
            return None
        if sink.shapes is None:
            sink.wants_shapes.setdefault(self.key, self.args)
            return None
        known = sink.shapes.get(self.key)
        if known is None:
            return None
        sink.point_shapes.update(zip(self.args, known, strict=True))
        return known[self.args.index(handle)]


class TapeSink:
    """Builds the tape as the parser reads the program: one pass, no tree in between.

    The parser (syntax.Parser) calls one method per construct it reduces, bottom-up, and
    gets back a node index; `build` drives the same methods from a tree.
    """

    def __init__(self, source: str, assigned: set[str], shapes: dict[ShapeKey, tuple[Shape, ...]] | None = None) -> None:
        self.source = source
        # A composite whose graph depends on its args' shapes (tensordot, inner) asks for them
        # (Emitter.shape): on the first pass there are none, and it records the call here (its span ->
        # its args); the point's shapes of those args, once known, come back as `shapes` for a second pass.
        self.shapes = shapes
        self.wants_shapes: dict[ShapeKey, tuple[int, ...]] = {}
        self.composite_calls: dict[int, list[tuple[Op, tuple[int, ...], dict[str, Any], Span]]] = {}
        self.stand_ins: set[int] = set()  # the constants that stand in for optional tensor args left out
        self.point_shapes: dict[int, Shape] = {}  # (with shapes) nodes of a composite's args and parts -> theirs
        self.nodes: list[Node] = []
        self.inputs: dict[str, int] = {}
        self.bindings: dict[str, int] = {}
        self.assigned_later = set(assigned)  # names a later statement assigns
        self.max_nodes = Limits.get("nodes")
        self.last: tuple[str | None, Value, Span] | None = None
        self.call_span: Span = (0, 0)  # the call being lowered: where a left-out optional arg stands
        self.statics: list[Node] = []  # the constants static() has read for the call being lowered
        self.index_made: list[int] = []  # the constants an index being lowered has read into its key
        self.item_spans: dict[int, tuple[Span, ...]] = {}
        self.folded = 0  # elements of the constants folded so far
        self.tuples: dict[str, _Tuple | _Parts] = {}  # names that hold a tuple: t = x.chunk(2); t[0]
        self.integer_inputs: set[int] = set()  # inputs used as indices: no gradient, whole numbers

    # --- nodes ---

    def add(self, kind: str, op: Op | None, args: tuple[int, ...], span: Span,
            params: dict[str, Any] = _NO_PARAMS, value: Array | None = None,
            wants: tuple[bool, ...] | None = None) -> int:
        """The one place a node is made. A big program makes hundreds of thousands, so the
        commonest callers come straight here, with `wants` when they have it at hand."""
        nodes = self.nodes
        index = len(nodes)
        if index >= self.max_nodes:
            raise over_limit(f"the program makes more than {self.max_nodes:,} tape nodes", "nodes",
                             source=self.source, span=span)
        if wants is None:
            wants = tuple([nodes[a].requires_grad for a in args])
        integer = False
        if op is not None and (not op.differentiable or op.index_from is not None or op.integer_parts or op.detached_parts):
            integer = op.integer_valued(params)
            wants = (False,) * len(args) if op.detached(params) else self.no_gradient(op, args, wants)
        requires_grad = True in wants if args else kind == INPUT
        nodes.append(Node(index, kind, op, args, span, params, None, value, requires_grad, wants, integer))
        return index

    def no_gradient(self, op: Op, args: tuple[int, ...], wants: tuple[bool, ...]) -> tuple[bool, ...]:
        """The wants of a node no gradient flows through (ones_like(x)), or none into its index args,
        whose inputs are integer inputs (v[idx])."""
        if not op.differentiable:
            return (False,) * len(args)
        if op.index_from is None:
            return wants
        start = op.index_from
        nodes = self.nodes
        pending = [a for a in args[start:] if nodes[a].kind != CONST]
        while pending:  # the inputs an index is computed from (idx, or i and j in [i, j + 1])
            node = nodes[pending.pop()]
            if node.kind == INPUT:
                self.integer_inputs.add(node.index)
            elif not node.integer:  # (argmax(v) is an integer of its own: v stays a float input)
                pending += [a for a in node.args if nodes[a].kind != CONST]
        return wants[:start] + (False,) * (len(args) - start)

    def constant(self, value: Any, span: Span, integer: bool = False, literal: str = "") -> int:
        nodes = self.nodes
        index = len(nodes)
        if index >= self.max_nodes:
            return self.add(CONST, None, (), span, value=np.asarray(value, dtype=float), wants=())  # (says so)
        nodes.append(Node(index, CONST, None, (), span, _NO_PARAMS, None, np.asarray(value, dtype=float), False, (),
                          integer, literal))
        return index

    def apply(self, op: Op, args: list[int], span: Span, params: dict[str, Any] = _NO_PARAMS) -> int:
        if op.program is not None:  # a composite: its parts, as PyTorch records them (Op.program)
            if op.shape is not None:  # (its own shape rule, at a point: check_shapes)
                self.composite_calls.setdefault(len(self.nodes), []).append((op, tuple(args), params, span))
            try:
                return op.program(self.emitter(span, args, op.name), *args, **params)
            except ValueError as problem:  # (what its program refuses: diff's 0-d prepend)
                raise ShapeProblem(str(problem).split("\n")[0], source=self.source, span=span) from None
        if op.reflected is not None and self.nodes[args[0]].is_number() and self.nodes[args[1]].kind != CONST:
            return op.reflected(self.emitter(span), *args)  # 2 / x: x.reciprocal() * 2
        nodes = self.nodes
        for a in args:
            if nodes[a].kind != CONST or op.boolean:  # (a mask stays one, to select as an index: c[c > 0])
                return self.add(APPLY, op, tuple(args), span, params)
        # All constants: folded, as Python folds `3/7` before PyTorch sees it; on floats
        # where the op has float rules (as in the sweeps), else in NumPy.
        values = [nodes[a].value for a in args]
        value: Any = None
        if op.floats is not None:
            try:
                value = op.floats[0](*[float(v) for v in values], **params)  # type: ignore[arg-type]
            except (TypeError, ValueError, ArithmeticError):  # (TypeError: not a number)
                value = None
        if value is None:
            shape = output_shape(op, [nodes[a].value.shape for a in args], params, span, self.source)  # type: ignore[union-attr]
            if shape is not None:  # (None: the fold below says what does not fit)
                self.folded += _checked_size(shape, span, self.source)
                if self.folded > Limits.get("tape_elements"):
                    raise over_limit(f"the program's constants up to here would hold {self.folded:,} elements",
                                     "tape_elements", source=self.source, span=span)
            try:  # (inside np.errstate: 1/0 folds to inf, as in IEEE)
                value = np.asarray(call_forward(op, values, params, [0] * len(values)), dtype=float)  # type: ignore[arg-type]
            except (ValueError, IndexError) as problem:
                raise shape_problem(op, values, problem, span, self.source) from None
        # Python's ints stay ints through + - * and the like: `-1`, `2*3` are dims and sizes.
        integer = op.keeps_integers and all(nodes[a].integer for a in args) and bool(np.all(np.mod(value, 1) == 0))
        # Python's numbers fold to a Python number (`-1`, `2*3`, `1/2`); anything with a tensor in it is a tensor.
        literal = ("int" if integer else "float") if op.elementwise and all(nodes[a].literal for a in args) else ""
        self.drop_constants(args)
        return self.constant(value, span, integer, literal)

    def emitter(self, span: Span, args: Sequence[int] = (), row: str = "") -> Emitter:
        """emit(row, *args, **params): a composite's program applies a row; a Python float among the args is
        a Python number (a program writes its numbers as floats: `emit("add", a, 1.0)`); emit.shape(arg),
        an arg's shape at the point where it is known (see __init__), else None."""
        return Emitter(self, span, tuple(args), row)

    def drop_constants(self, args: list[int]) -> None:
        """Take unnamed constants that were just made for `args` off the end of the tape."""
        nodes = self.nodes
        for a in sorted(args, reverse=True):
            if a == len(nodes) - 1 and nodes[a].kind == CONST and nodes[a].name is None:
                nodes.pop()

    def operand(self, value: Value) -> int:
        """The node of a value an op takes: a list literal is stacked here; a tuple, None or a
        string is refused."""
        if type(value) is int:
            return value
        if isinstance(value, _List):
            return self.stack(value)
        if isinstance(value, _Word):
            if value.value is Ellipsis:
                raise SyntaxProblem("'...' is not a value", source=self.source, span=value.span,
                                    hint="it can only be an index, as in m[..., 0]")
            what = "None" if value.value is None else "a string"
            raise SyntaxProblem(f"{what} is not a value", source=self.source, span=value.span,
                                hint="it can only be an argument of a call that takes it, as in sum(x, dim=None), "
                                     "einsum('ij->ji', m), or an index (a new axis: v[None])")
        raise SyntaxProblem("a tuple is not a value", source=self.source, span=value.span,  # type: ignore[union-attr]
                            hint="index it (t[0]) or unpack it (a, b = t); a tuple can be the program's output")

    def part(self, parts: _Parts, which: int, of: int | None, span: Span) -> int:
        """The node of one part of a call that gives a tuple (see Op.parts)."""
        count = parts.op.parts
        if count > 0 and not -count <= which < count:
            raise SyntaxProblem(f"tuple index out of range: {parts.op.name} gives {count} values", source=self.source,
                                span=span)
        return self.apply(parts.op, parts.args, parts.span, {**parts.params, "part": which, "of": of})

    def as_parts(self, value: Value) -> Value:
        """A bare max(x, 1) read as what only PyTorch's dim form can be: its `.values`, `.indices`, or
        unpacked into (values, indices). An elementwise maximum has none of them, so where a program
        asks for them the call meant the dim form (lowering.dim_form): old programs keep working."""
        if type(value) is not int:
            return value
        node = self.nodes[value]
        row = lowering.dim_form(node.op) if node.op is not None else None
        if row is None or self.nodes[node.args[1]].literal != "int":
            return value
        dim = int(self.nodes[node.args[1]].value)  # type: ignore[arg-type]
        return _Parts(row, [node.args[0]], rule_params(row, {"dim": dim}), node.span)

    def field(self, value: Value, name: str, span: Span) -> int:
        """`t.values`, `t.indices`: the part of that name of a call that gives PyTorch's namedtuple."""
        value = self.as_parts(value)
        if isinstance(value, _Parts) and name in value.op.fields:
            return self.part(value, value.op.fields.index(name), None, span)
        raise SyntaxProblem(f"'.{name}' needs a tuple of (values, indices)", source=self.source, span=span,
                            hint="as torch.max(x, dim) and torch.min(x, dim) give: torch.max(x, 0).values, x.min(dim=1).indices")

    def unpack(self, value: Value, count: int, span: Span) -> list[Value]:
        """`a, b = value`: its items, as many as the names."""
        value = self.as_parts(value)
        if isinstance(value, _Parts):
            if value.op.parts > 0 and value.op.parts != count:
                raise SyntaxProblem(f"cannot unpack {value.op.parts} values into {count} names", source=self.source,
                                    span=span)
            return [self.part(value, i, count, span) for i in range(count)]
        if isinstance(value, _Tuple):
            if len(value.items) != count:
                raise SyntaxProblem(f"cannot unpack {len(value.items)} values into {count} names", source=self.source,
                                    span=span)
            return list(value.items)
        raise SyntaxProblem("only a tuple can be unpacked", source=self.source, span=span,
                            hint="as in a, b = x.split(2) or a, b = (x, y)")

    # --- what the parser reduces ---

    def number(self, text: str, span: Span) -> int:
        whole = text.isdigit()
        return self.constant(float(text), span, integer=whole, literal="int" if whole else "float")

    def string(self, text: str, span: Span) -> _Word:
        return _Word(text[1:-1], span)

    def name(self, text: str, span: Span) -> Value:
        index = self.inputs.get(text)  # an input is never assigned, nor a function or constant
        if index is not None:
            return index
        if text in self.bindings:
            return self.bindings[text]
        if text in self.tuples:
            return self.tuples[text]
        if text == "...":  # an index's ellipsis: m[..., 0]
            return _Word(Ellipsis, span)  # type: ignore[arg-type]
        if text in DTYPES or text in MEMORY_FORMATS:  # dtype=torch.float64, dtype=float: a word, which means nothing more
            return _Word(text, span)
        if text in _WORDS:
            word = _WORDS[text]
            return _Word(None, span) if word is None else self.constant(word, span, integer=True, literal="bool")
        if text in CONSTANTS:
            return self.constant(CONSTANTS[text], span, literal="float")
        if text in FUNCTIONS:
            raise _fail(f"'{text}' is a function", span, self.source, f"call it, as in {text}(x)")
        if text in self.assigned_later:
            raise _fail(f"'{text}' is used before it is assigned", span, self.source)
        if text not in self.inputs:
            index = self.add(INPUT, None, (), span)
            self.nodes[index].name = text
            self.inputs[text] = index
        return self.inputs[text]

    def unary(self, op: str, operand: Value, span: Span) -> int:
        if op == "+":
            return self.operand(operand)  # PyTorch records no node for unary plus
        return self.apply(PREFIX_OPERATORS[op], [self.operand(operand)], span)

    def binary(self, op: str, left: Value, right: Value, span: Span) -> int:
        if type(left) is not int or type(right) is not int:
            left, right = self.operand(left), self.operand(right)
        a, b = self.nodes[left], self.nodes[right]
        row = BINARY_OPERATORS[op]
        if (a.kind != CONST or b.kind != CONST) and (row.reflected is None or not a.literal) and row.program is None:
            return self.add(APPLY, row, (left, right), span, wants=(a.requires_grad, b.requires_grad))
        return self.apply(BINARY_OPERATORS[op], [left, right], span)

    def call(self, func: str, func_span: Span, args: list[Value], span: Span,
             keywords: list[tuple[str, Value, Span]] | None = None) -> Value:
        """A call as the program spelled it (`sin`, `torch.max`, `.max` for a method), lowered to a row
        by gradcli.lowering: the spelling says whose semantics, the args bind as the library binds them."""
        keywords = keywords or []
        if "." in func:  # torch.max, x.max(): the spelling's family decides (gradcli.lowering)
            op = lowering.find(func)
            family, name = lowering.spelling(func)
        else:  # (the common case, made cheap: a 100,000-node program calls 25,000 times)
            op, family, name = FUNCTIONS.get(func), lowering.BARE, func
        if op is None and family == lowering.METHOD and name in _FIELDS and len(args) == 1:  # max(x, 0).values
            return self.field(args[0], name, func_span)
        if op is None and name in CONSTRUCTORS and family != lowering.METHOD:
            return self.construct(name, args, keywords, span, family)
        if op is None:
            if name in FUNCTIONS:  # math.max: a function gradcli has, which that module has not
                raise _fail(f"'{func}' is not a function: {func.rpartition('.')[0]} has no '{name}'", func_span,
                            self.source, f"write {name}(...) or torch.{name}(...)")
            raise _fail(f"unknown function '{name}'", func_span, self.source, _suggest(name, len(args)))
        if (not keywords and op.arity == len(args) and not op.params and not op.overloads and not op.dialects
                and not op.tensor_positions and op.program is None and op.identity_when is None and not op.parts):  # sin(x), atan2(y, x)
            if len(args) == 1 and type(args[0]) is int:
                arg = self.nodes[args[0]]
                if arg.kind != CONST:
                    return self.add(APPLY, op, (args[0],), span, wants=(arg.requires_grad,))
            return self.apply(op, [self.operand(a) for a in args], span)
        self.call_span, self.statics = span, []
        try:
            bound = lowering.lower(func, args, [(key, value) for key, value, _ in keywords], self)
        except lowering.CallProblem as problem:
            raise self.call_problem(problem, span, keywords) from None
        self.drop_params(bound.tensors)
        if bound.warning is not None:  # (F.mse_loss(a, b, False): size_average's deprecation, PyTorch's words)
            import warnings

            warnings.warn(bound.warning, UserWarning, stacklevel=2)
        if bound.identity:  # dropout(x, 0.0), x.double(): x itself, as PyTorch returns it
            return bound.tensors[0]
        wanted = bound.cast or (bound.params.get("dtype") if bound.op.dtype == "param" else None)
        if wanted is not None and not wanted.startswith(("float", "bfloat")):  # sum(x, dtype=torch.int64), x.long()
            raise _fail(f"{name}: a result in {wanted} takes no gradient, and every value of a program is a float",
                        span, self.source, "PyTorch's autograd refuses it too; gradcli run computes it")
        if bound.op.parts:
            return _Parts(bound.op, bound.tensors, bound.params, span)
        return self.apply(bound.op, bound.tensors, span, bound.params)

    def construct(self, func: str, args: list[Value], keywords: list[tuple[str, Value, Span]], span: Span,
                  family: str = lowering.BARE) -> int:
        """A value made by a constructor (tensor([...]), ones(2, 3), arange(5)): a constant at once, its
        shape checked against the limits before it is made. NumPy's np.array([x, 2 * x]) of values computed
        from inputs is that list: NumPy's value, through which the gradient flows (as HIPS autograd's)."""
        op = CONSTRUCTORS[func]
        if func in SIZED and len(args) > 1:  # ones(2, 3) is ones((2, 3))
            args = [_Tuple(args, [], span)]  # type: ignore[arg-type]
        self.call_span, self.statics = span, []
        try:
            tensors, params = lowering.bind(op, func, args, [(key, value) for key, value, _ in keywords], self)
        except lowering.CallProblem as problem:
            raise self.call_problem(problem, span, keywords) from None
        tensors = [self.operand(t) for t in tensors]
        self.drop_params(tensors)
        if (family == "numpy" and func in ("array", "asarray") and len(tensors) == 1 and isinstance(args[0], _List)
                and self.nodes[tensors[0]].kind != CONST and params.get("dtype") in (None, "float64")):
            return tensors[0]
        for arg in tensors:
            if self.nodes[arg].kind != CONST:
                raise _fail(f"{func}(...) takes data written in the program, not computed from inputs",
                            self.nodes[arg].span, self.source, "PyTorch copies it: no gradient would flow back")
        try:
            op.shape(*[self.nodes[a].value.shape for a in tensors], **params)  # type: ignore[misc]
        except ValueError as problem:
            raise _fail(f"{func}: {problem}", span, self.source) from None
        # torch.tensor([2, 0]) is an int64 tensor: class indices, an index (unless dtype= says a float)
        integer = bool(tensors) and self.nodes[tensors[0]].integer and not str(params.get("dtype") or "int").startswith(
            ("float", "double", "half"))
        # torch.tensor([True, False]) is a bool tensor: as an index, a mask, as the list of bools is (and dtype=torch.bool)
        given = self.nodes[tensors[0]] if tensors else None
        bools = params.get("dtype") == "bool" or (
            params.get("dtype") is None and given is not None and (given.bools or given.literal == "bool"))
        index = self.apply(op, tensors, span, params)  # (the fold may put a new node in the arg's place)
        self.nodes[index].integer = self.nodes[index].integer or integer
        self.nodes[index].bools = bools
        return index

    def call_problem(self, problem: lowering.CallProblem, span: Span,
                     keywords: list[tuple[str, Value, Span]]) -> NameProblem | SyntaxProblem:
        """A CallProblem in the formula language's words, at the argument it names."""
        problem = problem.own or problem
        where = span
        if problem.keyword is not None:
            where = next((at for key, _, at in keywords if key == problem.keyword), span)
        elif problem.value is not None:
            where = self.nodes[problem.value].span if type(problem.value) is int else problem.value.span
        kind = SyntaxProblem if problem.syntax else NameProblem
        return kind(problem.message, source=self.source, span=where, hint=problem.hint)

    def drop_params(self, tensors: list[int]) -> None:
        """Take the constants written for a call's params (those static() read) off the end of the
        tape: they are no values of it. A constant the call takes as a tensor stays."""
        nodes, read = self.nodes, {id(node) for node in self.statics}
        while nodes and id(nodes[-1]) in read and nodes[-1].index not in tensors and nodes[-1].kind == CONST \
                and nodes[-1].name is None:
            nodes.pop()
        self.statics = []

    # --- what gradcli.lowering asks of a value (lowering.Front) ---

    def kind(self, value: Value) -> str:
        if type(value) is int:
            return self.nodes[value].literal or lowering.TENSOR
        if isinstance(value, _Word):
            return lowering.NONE if value.value is None else lowering.STR if isinstance(value.value, str) else "..."
        return _KINDS.get(type(value), "other")

    def items(self, value: Value) -> list[Value]:
        return list(value.items)  # type: ignore[union-attr]

    def tensor(self, value: Value) -> int:
        return self.operand(value)

    def stand_in(self, number: float) -> int:
        index = self.constant(number, self.call_span)
        self.stand_ins.add(index)
        return index

    def dtype(self, value: int) -> str:
        return "float64"  # (every value of a program is)

    def arg_shapes(self, values: list[int], row: str) -> list[Shape] | None:
        """The args' shapes where the point is known: as a composite's program asks them (Emitter.shape),
        so that a first tape for every point asks for them and derivatives.prepare compiles again with them."""
        emit = self.emitter(self.call_span, values, row)
        shapes = [emit.shape(value) for value in values]
        return None if None in shapes else shapes  # type: ignore[return-value]

    def floating(self, index: int) -> bool:
        """Is the node a float: a float constant, or computed from inputs (an input is not)?"""
        node = self.nodes[index]
        return (node.kind == CONST and not node.integer) or (node.kind == APPLY and node.requires_grad)

    def static(self, value: Value) -> Any:
        """What the program wrote for a static parameter: a number (an int where it was written
        as one, a bool where it was True or False), a tuple of them, a string or None; refused
        where it is computed from inputs."""
        if isinstance(value, _Word):
            return value.value
        if isinstance(value, (_Tuple, _List)):
            return tuple(self.static(item) for item in value.items)
        if isinstance(value, (_Slice, _Parts)):
            raise lowering.CallProblem(f"a {'slice' if isinstance(value, _Slice) else 'tuple'} is not an argument",
                                       value=value)
        node = self.nodes[value]
        self.statics.append(node)
        if node.kind != CONST or node.value is None:
            raise lowering.CallProblem("this argument must be written in the program (a number, a tuple, a string), "
                                       "not computed from inputs", value=value)
        if node.value.ndim:
            return tuple(int(v) if node.integer else float(v) for v in node.value.flat)
        number = float(node.value)
        if node.literal == "bool":
            return bool(number)
        return int(number) if node.integer else number

    def make_slice(self, start: Value | None, stop: Value | None, step: Value | None, span: Span) -> _Slice:
        parts = tuple(None if part is None else self.operand(part) for part in (start, stop, step))
        return _Slice(parts, span)  # type: ignore[arg-type]

    def index(self, base: Value, items: list[Value], span: Span) -> int:
        if isinstance(base, (_Tuple, _Parts)):  # t[0]: one item of a tuple
            if len(items) != 1 or isinstance(items[0], (_Slice, _Word, _Tuple, _Parts, _List)):
                raise SyntaxProblem("a tuple takes one whole number as its index, as in t[0]", source=self.source,
                                    span=span)
            which = self.integer(items[0])
            self.drop_constants([items[0]])
            if isinstance(base, _Parts):
                return self.part(base, which, None, span)
            if not -len(base.items) <= which < len(base.items):
                raise SyntaxProblem(f"tuple index out of range: the tuple has {len(base.items)} items", source=self.source,
                                    span=span)
            return base.items[which]
        self.index_made = []
        key, as_tuple = lowering.sequence_as_tuple(items, self)
        if as_tuple:  # (x[[[1, 0]]]: x[[1, 0]], with PyTorch's warning)
            import warnings

            warnings.warn(lowering.SEQUENCE_AS_TUPLE, UserWarning, stacklevel=2)
        try:
            bound = lowering.index(base, key, self)
        except lowering.CallProblem as problem:
            raise SyntaxProblem(problem.message, source=self.source, span=self.nodes[problem.value].span if type(
                problem.value) is int else problem.value.span) from None
        self.drop_constants(self.index_made)
        return self.apply(bound.op, bound.tensors, span, bound.params)

    def key_part(self, item: Value) -> tuple[str, Any]:
        """What an index item is (lowering.index): a static part of the key, an index arg or a mask."""
        if isinstance(item, _Word) and not isinstance(item.value, str):  # None: a new axis; ...
            return lowering.STATIC, item.value
        if isinstance(item, _Slice):
            self.index_made += [part for part in item.parts if part is not None]
            return lowering.STATIC, slice(*(None if part is None else self.integer(part) for part in item.parts))
        node = self.nodes[self.operand(item)]
        if node.op is not None and node.op.boolean:  # x[x > 0]: the elements the mask selects
            return lowering.MASK, node.index
        if node.kind != CONST:
            return lowering.INDEX, node.index
        if (node.bools or node.literal == "bool") and node.value is not None and node.value.ndim == 0:
            return lowering.STATIC, bool(node.value)  # x[True, 0], x[torch.tensor(False)]: a new axis, indexed with [0] or []
        if node.bools:  # x[[True, False, True]]: a mask, as PyTorch reads a list of bools
            return lowering.MASK, node.index
        if node.literal == "float":  # x[1.0]: PyTorch's IndexError
            raise SyntaxProblem("an index must be a whole number, an int: not a float",
                                source=self.source, span=node.span, hint="as in v[0], v[1:3] or v[v > 0]")
        self.index_made.append(node.index)
        return lowering.STATIC, self.integer(node.index) if node.value.ndim == 0 else self.index_array(node)  # type: ignore[union-attr]

    def index_array(self, node: Node) -> Any:
        """A constant index array, as nested tuples of ints (a static part of the key)."""
        values = node.value
        assert values is not None
        if not np.all(np.isfinite(values) & (np.mod(values, 1) == 0)):
            raise SyntaxProblem("an index must be a whole number, as in v[[0, 2]]", source=self.source, span=node.span)

        def nested(part: Any) -> Any:
            return tuple(nested(p) for p in part) if isinstance(part, list) else part

        return nested(values.astype(np.int64).tolist())

    def integer(self, index: int) -> int:
        node = self.nodes[index]
        if node.kind == CONST and node.value is not None and node.value.ndim == 0 and float(node.value).is_integer():
            return int(node.value)
        raise SyntaxProblem("an index must be a whole number, as in v[0], v[-1] or v[1:3]", source=self.source,
                            span=node.span)

    def make_list(self, items: list[Value], spans: list[Span], span: Span) -> _List:
        # How deep lists nest, known as each closes: past NumPy's axes it is refused here, before
        # anything walks it (a list 400 deep would be 400 frames of stack and operand).
        depth = 1 + max((item.depth for item in items if isinstance(item, _List)), default=0)
        if depth > MAX_AXES:
            raise LimitProblem(f"this list nests {depth} deep; NumPy's arrays have at most {MAX_AXES} axes",
                               source=self.source, span=span)
        return _List(items, spans, span, depth)

    def stack(self, value: _List) -> int:
        """A list literal used as a value: its items stacked (np.array, torch.tensor)."""
        args = [self.operand(item) for item in value.items]
        nodes = self.nodes
        if all(nodes[a].kind == CONST for a in args):
            ragged_item([nodes[a].value.shape for a in args], value.spans, self.source)  # type: ignore[union-attr]
            integer = all(nodes[a].integer for a in args)
            bools = all(nodes[a].literal == "bool" or nodes[a].bools for a in args)
            index = self.apply(OPS["stack"], args, value.span)
            nodes[index].integer, nodes[index].bools = integer, bools
            return index
        index = self.add(APPLY, OPS["stack"], tuple(args), value.span)
        self.item_spans[index] = tuple(value.spans)
        return index

    def make_tuple(self, items: list[Value], spans: list[Span], span: Span) -> _Tuple:
        # A None stays one: a static tuple may hold it (adaptive_avg_pool2d(x, (5, None))); as a value, refused.
        # So does a tuple in it (np.pad(x, ((1, 2), (0, 1))), tensordot's axes=((1,), (0,))): static, never a value.
        kept: list[Any] = [item if (isinstance(item, _Word) and item.value is None) or isinstance(item, _Tuple)
                           else self.operand(item) for item in items]
        return _Tuple(kept, spans, span)

    def statement(self, target: str | tuple[str, ...] | None, value: Value, span: Span) -> None:
        if self.last is not None and self.last[0] is None and isinstance(self.last[1], (_Tuple, _Parts)):
            raise SyntaxProblem("a tuple can only be the program's output", source=self.source,
                                span=self.last[1].span)
        if isinstance(value, _List):
            value = self.stack(value)
        if isinstance(value, _Tuple) and not value.items:
            raise SyntaxProblem("the empty tuple () is not a value", source=self.source, span=value.span,
                                hint="it can only be an argument that takes sizes or dims, as in x.tile(())")
        if isinstance(value, _Tuple):  # (a None among its items is refused here, as a value)
            for member in value.items:
                self.operand(member)
        if isinstance(target, tuple):  # a, b = x.split(2): one statement per name
            items = self.unpack(value, len(target), span)
            start, spans = span[0], []
            for name, item in zip(target, items, strict=True):
                start = self.source.index(name, start)
                spans.append((start, start + len(name)))
                self.statement(name, item, (start, span[1]))
                start += len(name)
            # As the last statement, its output is the tuple of the names.
            self.last = (", ".join(target), _Tuple(items, spans, span), span)  # type: ignore[arg-type]
            return
        self.last = (target, value, span)
        self.assigned_later.discard(target or "")
        if target is not None:
            self.tuples.pop(target, None)
        if target is None:
            return
        if isinstance(value, (_Tuple, _Parts)):
            self.bindings.pop(target, None)
            self.tuples[target] = value  # t[0], t[1]; a tuple's name labels its items in the output
            return
        index = self.operand(value)
        if self.nodes[index].kind == CONST and self.nodes[index].name is not None:
            # `c = 2; d = c`: keep one node per name so each name can be found.
            index = self.constant(self.nodes[index].value, span)
        name_span = (span[0], span[0] + len(target))
        if target in _WORDS:
            raise _fail(f"cannot assign to {target}", name_span, self.source)
        if target in FUNCTIONS:  # (pi and e may be assigned: constants until then, as in Python)
            raise _fail(f"cannot assign to '{target}': it is a function", name_span, self.source)
        if target in self.inputs:
            raise _fail(f"cannot assign to '{target}': it is already used as an input", name_span, self.source)
        node = self.nodes[index]
        if node.name is None:
            node.name = target
        self.bindings[target] = index

    def finish(self) -> Tape:
        assert self.last is not None
        target, value, _ = self.last
        if self.integer_inputs:
            self.settle_integers()
        parts: _Tuple | None = None
        if isinstance(value, _Parts):  # (its parts' nodes made first: the float rules below look at them too)
            if value.op.parts < 0:  # (named as written: np.split is the row numpy_split)
                called = _called_name(self.source[value.span[0]:value.span[1]]) or value.op.name
                raise SyntaxProblem(f"how many values {called} gives depends on the shapes", source=self.source,
                                    span=value.span, hint="unpack it (a, b = x.split(2)) or index it (t[0])")
            parts = _Tuple([self.part(value, i, None, value.span) for i in range(value.op.parts)], [], value.span)
        floats = True
        for node in self.nodes:
            if node.kind == CONST:
                floats = floats and node.value is not None and node.value.ndim == 0
            elif node.op is not None:
                floats = floats and node.op.floats is not None
        if parts is not None:
            value = parts
            names = [f"{target or 'out'}[{i}]" for i in range(len(value.items))]
            return Tape(self.source, self.nodes, self.inputs, dict(self.bindings), tuple(value.items), tuple(names), True,
                        floats, self.item_spans)
        if isinstance(value, _Tuple):
            outputs = tuple(value.items)
            names = []
            for i, (start, end) in enumerate(value.spans):
                text = self.source[start:end]
                names.append(text if text.isidentifier() else f"{target or 'out'}[{i}]")
            tape = Tape(self.source, self.nodes, self.inputs, dict(self.bindings), outputs, tuple(names), True, floats,
                        self.item_spans)
        else:
            index = self.operand(value)
            tape = Tape(self.source, self.nodes, self.inputs, dict(self.bindings), (index,), (target or "out",), False,
                        floats, self.item_spans)
        tape.integer_inputs = tuple(self.nodes[i].name for i in sorted(self.integer_inputs))  # type: ignore[misc]
        return tape

    def settle_integers(self) -> None:
        """Integer inputs take no gradient: nor does what is computed from them alone, here as in
        PyTorch (`idx * 2` is an integer tensor), before or after their use as an index."""
        nodes = self.nodes
        for index in self.integer_inputs:
            nodes[index].integer = True
            nodes[index].requires_grad = False
        for node in nodes:
            if node.kind == APPLY:
                node.wants = tuple([want and nodes[a].requires_grad for want, a in zip(node.wants, node.args, strict=True)])
                node.requires_grad = True in node.wants


def build(program: syntax.Program) -> Tape:
    """Turn a parsed tree into its tape (compile_program goes from text in one pass)."""
    sink = TapeSink(program.source, {name for s in program.statements if s.target is not None
                                     for name in ((s.target,) if isinstance(s.target, str) else s.target)})
    with np.errstate(all="ignore"), syntax.no_cycle_collection():  # constants fold by IEEE rules
        for statement in program.statements:
            sink.statement(statement.target, syntax.replay(statement.value, sink), statement.span)
        tape = sink.finish()
    tape.composite_calls = sink.composite_calls
    return tape


def compile_program(source: str, shapes: dict[ShapeKey, tuple[Shape, ...]] | None = None) -> Tape:
    """Text -> tape, in one pass: the parser hands each construct straight to a TapeSink (with `shapes`:
    the shapes of a point for the calls whose graph depends on them, TapeSink.wants_shapes)."""
    with np.errstate(all="ignore"), syntax.no_cycle_collection():  # the tokens too: 1 in 3 of the time
        tokens = syntax.tokenize(source)
        sink = TapeSink(source, syntax.assigned_names(tokens) if "=" in source else set(), shapes)
        tape = syntax.Parser(source, tokens, sink).program()
    tape.wants_shapes, tape.shaped, tape.composite_calls = sink.wants_shapes, shapes is not None, sink.composite_calls
    tape.stand_ins = sink.stand_ins
    return tape


def shape_problem(
    op: Op, values: list[Any], problem: Exception, span: tuple[int, int], source: str
) -> ShapeProblem:
    if isinstance(problem, ValueRefusal):  # (values PyTorch refuses, said in its words at the user's call)
        return ValueProblem(problem.ours, source=source, span=span)
    shapes = [np.shape(v) for v in values]
    hint = str(problem).split("\n")[0]
    if isinstance(problem, LinAlgError) and op.shape_message is None:  # (a composite whose parts are not made yet)
        return ValueProblem(f"{_called(op, source, span) or op.label} cannot take this matrix (PyTorch raises here "
                            "too)", source=source, span=span, hint=hint)
    if "broadcast" in hint:  # (NumPy's words for shapes that do not broadcast: PyTorch's, as `run` raises them)
        try:
            broadcast_shape(shapes)
        except ValueError as words:
            hint = str(words)
    return ShapeProblem(shape_message(op, shapes, _called(op, source, span)), source=source, span=span, hint=hint)


def _called(op: Op, source: str, span: Span) -> str | None:
    """The call the program wrote at `span`, where `op` is a part of it (F.l1_loss's '-'): what a message names."""
    head = source[span[0]:span[1]].split("(")[0].strip()
    written = head.rpartition(".")[2]
    if not head or "(" not in source[span[0]:span[1]] or written == op.name:
        return None
    return written if written in (*op.spellings, *op.methods) else head  # (F.unfold: unfold, not im2col)


# --- shapes, before anything is computed --------------------------------------------------


def output_shape(op: Op, shapes: list[Shape], params: dict[str, Any], span: Span | None = None,
                 source: str = "") -> Shape | None:
    """The shape of op's value at one point; None where the args' shapes do not fit it. A shape
    rule may refuse what the op would make on the way past a limit (conv's windows): at `span`."""
    try:
        if op.shape is None:
            return shapes[0] if len(shapes) == 1 else broadcast_shape(shapes)
        return tuple(op.shape(*shapes, **params))
    except ValueRefusal as problem:  # (shapes PyTorch refuses in its words, which the forward might not: fill's value)
        raise ShapeProblem(problem.ours, source=source, span=span) from None
    except (ValueError, IndexError):
        return None
    except LimitProblem as problem:
        problem.span = problem.span or span
        raise problem.locate(source) from None


def _describe_shape(shape: Shape) -> str:
    if not shape:
        return "is a number"
    return f"has length {shape[0]}" if len(shape) == 1 else f"has shape {shape}"


def ragged_item(shapes: list[Shape], spans: tuple[Span, ...] | list[Span], source: str) -> None:
    """A list's items must have one shape, as for torch.stack and np.array: point at the first that differs."""
    for shape, span in zip(shapes, spans, strict=True):
        if shape != shapes[0]:
            raise ShapeProblem(f"ragged list: this item {_describe_shape(shape)} but the first "
                               f"{_describe_shape(shapes[0])}", source=source, span=span)


def _checked_size(shape: Shape, span: Span, source: str) -> int:
    """The number of elements of a value of `shape`, refused past NumPy's axes or the elements limit."""
    if len(shape) > MAX_AXES:
        raise LimitProblem(f"this value would have {len(shape)} axes; NumPy's arrays have at most {MAX_AXES} axes",
                           source=source, span=span)
    size = math.prod(shape)
    if size > Limits.get("elements"):
        raise over_limit(f"this value would have {size:,} elements", "elements", source=source, span=span)
    return size


def check_shapes(tape: Tape, shapes: Mapping[str, Shape]) -> int | None:
    """Refuse, before anything is computed, a value past NumPy's axes or the elements limits, or a ragged list.

    Returns the elements of all the values at one point together (None where the shapes do
    not fit an op).

    Every node's shape at one point follows from the inputs' shapes (`shapes`: name -> shape)
    by the ops' shape rules. Where the shapes do not fit an op, checking stops there: the
    forward sweep then names the mismatch, before it gets further.
    """
    key = tuple(shapes[name] for name in tape.inputs)
    if key in tape.checked:
        return tape.checked[key]
    source = tape.source
    known: list[Shape] = [()] * len(tape.nodes)
    total = 0
    max_total = Limits.get("tape_elements")
    calls = tape.composite_calls
    for node in tape.nodes:
        if node.index in calls:
            _check_composites(calls[node.index], known, source, tape.stand_ins)
        if node.kind == APPLY:
            args = node.args
            arg_shapes = [known[a] for a in args]
            if node.index in tape.item_spans:
                ragged_item(arg_shapes, tape.item_spans[node.index], source)
            if len(args) == 1 and node.op.shape is None:  # type: ignore[union-attr]
                shape = arg_shapes[0]  # an elementwise function: the fast way
            else:
                if node.op.given_0d is not None:  # type: ignore[union-attr]
                    _check_given(node.op, arg_shapes, args, node.params, tape.stand_ins, node.span, source)  # type: ignore[arg-type]
                found = output_shape(node.op, arg_shapes, node.params, node.span, source)  # type: ignore[arg-type]
                if found is None:
                    return None
                shape = found
        elif node.kind == INPUT:
            shape = shapes[node.name]  # type: ignore[index]
        else:
            shape = node.value.shape  # type: ignore[union-attr]
        total += _checked_size(shape, node.span, source)
        if total > max_total:
            raise over_limit(f"the program's values up to here would hold {total:,} elements together",
                             "tape_elements", source=source, span=node.span)
        known[node.index] = shape
    if len(tape.nodes) in calls:  # (a composite that made no node: atleast_1d of a vector)
        _check_composites(calls[len(tape.nodes)], known, source, tape.stand_ins)
    tape.checked[key] = total
    return total


def _check_given(op: Op, shapes: list[Shape], args: Sequence[int], params: dict[str, Any], stand_ins: set[int],
                 span: Span, source: str) -> None:
    """An optional tensor arg given 0-d, which PyTorch refuses (Op.given_0d)."""
    problem = given_0d_problem(op, shapes, [a in stand_ins for a in args], params)
    if problem is not None:
        raise ShapeProblem(problem, source=source, span=span)


def _check_composites(calls: list[tuple[Op, tuple[int, ...], dict[str, Any], Span]], known: list[Shape],
                      source: str, stand_ins: set[int]) -> None:
    """A composite's own shape rule, which its parts may not hold (margin_ranking_loss's same dims)."""
    for op, args, params, span in calls:
        shapes = [known[a] for a in args]
        if op.given_0d is not None:
            _check_given(op, shapes, args, params, stand_ins, span, source)
        try:
            op.shape(*shapes, **params)  # type: ignore[misc]
        except ValueRefusal as problem:  # (in PyTorch's words)
            raise ShapeProblem(problem.ours, source=source, span=span) from None
        except (ValueError, IndexError) as problem:
            raise ShapeProblem(shape_message(op, shapes, _called(op, source, span)), source=source, span=span,
                               hint=str(problem).split("\n")[0]) from None
        except TypeError:
            pass  # (a rule that wants more than the call gave: the parts say what)
        except LimitProblem as problem:  # (past a limit: said at the call)
            problem.span = problem.span or span
            raise problem.locate(source) from None
