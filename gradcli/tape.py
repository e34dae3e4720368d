"""Syntax tree -> tape, and the forward evaluation of a tape.

The tape is a Wengert list: a flat list of nodes in topological order, each an input, a
constant, or an op of `ops.OPS` applied to earlier nodes. Every sweep over it is a loop.
A tape holds no input values, so one tape serves any number of points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gradcli import syntax
from gradcli.errors import Limits, NameProblem, ShapeProblem, SyntaxProblem, over_limit
from gradcli.ops import BINARY_OPERATORS, CONSTANTS, FUNCTIONS, OPS, PREFIX_OPERATORS, Op, call_forward

_NO_PARAMS: dict[str, Any] = {}  # shared by the nodes of ops that take no parameters; never changed

INPUT = "input"
CONST = "const"
APPLY = "apply"

Array = np.ndarray


@dataclass(slots=True, eq=False)
class Node:
    index: int
    kind: str  # INPUT, CONST or APPLY
    op: Op | None  # set for APPLY
    args: tuple[int, ...]
    span: tuple[int, int]
    params: dict[str, Any] = field(default_factory=dict)  # the builder passes a shared empty one
    name: str | None = None  # an input's name, or the first name assigned to this node
    value: Array | None = None  # set for CONST
    requires_grad: bool = False  # does any input flow into it?
    wants: tuple[bool, ...] = ()  # for each arg: does a gradient flow back into it?

    def is_scalar_constant(self) -> bool:
        """A constant PyTorch would see as a Python number."""
        return self.kind == CONST and self.value is not None and self.value.ndim == 0


@dataclass(eq=False)
class Tape:
    source: str
    nodes: list[Node]
    inputs: dict[str, int]  # input name -> node, in order of first use
    names: dict[str, int]  # every assigned name -> the node it holds at the end
    outputs: tuple[int, ...]  # the program's output, several for a tuple
    output_names: tuple[str, ...]
    is_tuple: bool

    def node_label(self, index: int) -> str:
        """A short name for a node: its own name, or v<index>."""
        node = self.nodes[index]
        return node.name if node.name is not None else f"v{index}"


def _fail(message: str, span: tuple[int, int], source: str, hint: str = "") -> NameProblem:
    return NameProblem(message, source=source, span=span, hint=hint)


def _suggest(name: str, choices: list[str]) -> str:
    import difflib  # only a misspelt name pays for it

    close = difflib.get_close_matches(name, choices, n=1)
    return f"did you mean '{close[0]}'?" if close else ""


class _Builder:
    def __init__(self, program: syntax.Program) -> None:
        self.source = program.source
        self.nodes: list[Node] = []
        self.inputs: dict[str, int] = {}
        self.bindings: dict[str, int] = {}
        self.assigned_later = {s.target for s in program.statements if s.target is not None}
        self.max_nodes = Limits.get("nodes")

    # --- nodes ---

    def add(self, kind: str, op: Op | None, args: tuple[int, ...], span: tuple[int, int],
            params: dict[str, Any] = _NO_PARAMS) -> int:
        nodes = self.nodes
        if len(nodes) >= self.max_nodes:
            raise over_limit(f"the program makes more than {self.max_nodes:,} tape nodes", "nodes",
                             source=self.source, span=span)
        node = Node(len(nodes), kind, op, args, span, params)
        if kind == INPUT:
            node.requires_grad = True
        elif args:
            node.wants = tuple([nodes[a].requires_grad for a in args])
            node.requires_grad = True in node.wants
        nodes.append(node)
        return node.index

    def constant(self, value: Any, span: tuple[int, int]) -> int:
        index = self.add(CONST, None, (), span)
        self.nodes[index].value = np.asarray(value, dtype=float)
        return index

    def apply(self, op: Op, args: list[int], span: tuple[int, int], params: dict[str, Any] = _NO_PARAMS) -> int:
        nodes = self.nodes
        for a in args:
            if nodes[a].kind != CONST:
                return self.add(APPLY, op, tuple(args), span, params)
        # All constants: folded, as Python folds `3/7` before PyTorch sees it.
        values = [np.asarray(nodes[a].value) for a in args]
        try:  # (inside build's np.errstate: 1/0 folds to inf, as in IEEE)
            value = np.asarray(call_forward(op, values, params, [0] * len(values)), dtype=float)
        except (ValueError, IndexError) as problem:
            raise shape_problem(op, values, problem, span, self.source) from None
        for a in sorted(args, reverse=True):
            if a == len(nodes) - 1 and nodes[a].name is None:
                nodes.pop()
        return self.constant(value, span)

    # --- names ---

    def lookup(self, name: syntax.Name) -> int:
        if name.id in self.bindings:
            return self.bindings[name.id]
        if name.id in CONSTANTS:
            return self.constant(CONSTANTS[name.id], name.span)
        if name.id in FUNCTIONS:
            raise _fail(f"'{name.id}' is a function", name.span, self.source, f"call it, as in {name.id}(x)")
        if name.id in self.assigned_later:
            raise _fail(f"'{name.id}' is used before it is assigned", name.span, self.source)
        if name.id not in self.inputs:
            index = self.add(INPUT, None, (), name.span)
            self.nodes[index].name = name.id
            self.inputs[name.id] = index
        return self.inputs[name.id]

    def assign(self, statement: syntax.Statement, index: int) -> None:
        target = statement.target
        assert target is not None
        span = (statement.span[0], statement.span[0] + len(target))
        if target in FUNCTIONS or target in CONSTANTS:
            what = "function" if target in FUNCTIONS else "constant"
            raise _fail(f"cannot assign to '{target}': it is a {what}", span, self.source)
        if target in self.inputs:
            raise _fail(f"cannot assign to '{target}': it is already used as an input", span, self.source)
        node = self.nodes[index]
        if node.name is None:
            node.name = target
        self.bindings[target] = index

    # --- expressions ---

    def expression(self, expr: syntax.Expr) -> int:
        """Append the nodes of `expr` to the tape and return the index of its value."""
        # Post-order over an explicit stack: a count of -1 means "not expanded yet".
        work: list[tuple[syntax.Expr, int]] = [(expr, -1)]
        results: list[int] = []
        num, name, binary = syntax.Num, syntax.Name, syntax.Binary
        operators = BINARY_OPERATORS
        while work:
            item, count = work.pop()
            kind = type(item)
            if kind is num:
                results.append(self.constant(item.value, item.span))  # type: ignore[union-attr]
            elif kind is name:
                results.append(self.lookup(item))  # type: ignore[arg-type]
            elif kind is binary:  # the most common node, taken on a short path
                if count < 0:
                    work.append((item, 2))
                    work.append((item.right, -1))  # type: ignore[union-attr]
                    work.append((item.left, -1))  # type: ignore[union-attr]
                else:
                    right = results.pop()
                    results[-1] = self.apply(operators[item.op], [results[-1], right], item.span)  # type: ignore[union-attr]
            elif count < 0:
                children = self.children(item)
                work.append((item, len(children)))
                work.extend([(child, -1) for child in reversed(children)])
            else:
                split = len(results) - count
                args = results[split:]
                del results[split:]
                results.append(self.combine(item, args))
        return results[0]

    def children(self, expr: syntax.Expr) -> list[syntax.Expr]:
        """The subexpressions to evaluate before `expr`; checks `expr` itself first."""
        if isinstance(expr, syntax.Unary):
            return [expr.operand]
        if isinstance(expr, syntax.Binary):
            return [expr.left, expr.right]
        if isinstance(expr, syntax.Call):
            op = FUNCTIONS.get(expr.func)
            if op is None:
                name_span = (expr.span[0], expr.span[0] + len(expr.func))
                raise _fail(f"unknown function '{expr.func}'", name_span, self.source, _suggest(expr.func, list(FUNCTIONS)))
            if op.arity != len(expr.args):
                plural = "s" if op.arity != 1 else ""
                raise _fail(f"{expr.func} takes {op.arity} argument{plural}, got {len(expr.args)}", expr.span, self.source)
            return list(expr.args)
        if isinstance(expr, syntax.Index):
            return [expr.base]
        if isinstance(expr, syntax.ListLit):
            return list(expr.items)
        assert isinstance(expr, syntax.TupleLit)
        raise SyntaxProblem("a tuple can only be the program's output", source=self.source, span=expr.span)

    def combine(self, expr: syntax.Expr, args: list[int]) -> int:
        if isinstance(expr, syntax.Unary):
            if expr.op == "+":
                return args[0]  # PyTorch records no node for unary plus
            return self.apply(PREFIX_OPERATORS[expr.op], args, expr.span)
        if isinstance(expr, syntax.Binary):
            return self.apply(BINARY_OPERATORS[expr.op], args, expr.span)
        if isinstance(expr, syntax.Call):
            return self.apply(FUNCTIONS[expr.func], args, expr.span)
        if isinstance(expr, syntax.Index):
            return self.apply(OPS["getitem"], args, expr.span, {"key": self.index_key(expr)})
        assert isinstance(expr, syntax.ListLit)
        return self.apply(OPS["stack"], args, expr.span)

    def index_key(self, expr: syntax.Index) -> tuple[int | slice, ...]:
        key: list[int | slice] = []
        for item in expr.items:
            if isinstance(item, syntax.Slice):
                key.append(slice(*(None if part is None else self.integer(part) for part in (item.start, item.stop, item.step))))
            else:
                key.append(self.integer(item))
        return tuple(key)

    def integer(self, expr: syntax.Expr) -> int:
        sign = 1
        if isinstance(expr, syntax.Unary) and isinstance(expr.operand, syntax.Num):
            sign = -1 if expr.op == "-" else 1
            expr = expr.operand
        if isinstance(expr, syntax.Num) and expr.value.is_integer():
            return sign * int(expr.value)
        raise SyntaxProblem("an index must be a whole number, as in v[0], v[-1] or v[1:3]", source=self.source, span=expr.span)


def build(program: syntax.Program) -> Tape:
    """Turn a parsed program into its tape."""
    with np.errstate(all="ignore"), syntax.no_cycle_collection():  # constants fold by IEEE rules
        return _build(program)


def _build(program: syntax.Program) -> Tape:
    builder = _Builder(program)
    statements = program.statements
    outputs: tuple[int, ...] = ()
    output_names: tuple[str, ...] = ()
    is_tuple = False
    for number, statement in enumerate(statements):
        last = number == len(statements) - 1
        value = statement.value
        if last and isinstance(value, syntax.TupleLit):
            is_tuple = True
            outputs = tuple(builder.expression(item) for item in value.items)
            output_names = tuple(
                item.id if isinstance(item, syntax.Name) else f"{statement.target or 'out'}[{i}]"
                for i, item in enumerate(value.items)
            )
            continue  # a tuple's name only labels its items: t[0], t[1]
        index = builder.expression(value)
        builder.assigned_later.discard(statement.target or "")
        if statement.target is not None:
            if builder.nodes[index].kind == CONST and builder.nodes[index].name is not None:
                # `c = 2; d = c`: keep one node per name so each name can be found.
                index = builder.constant(builder.nodes[index].value, statement.span)
            builder.assign(statement, index)
        if last:
            outputs = (index,)
            output_names = (statement.target or "out",)
    return Tape(
        program.source,
        builder.nodes,
        builder.inputs,
        dict(builder.bindings),
        outputs,
        output_names,
        is_tuple,
    )


def compile_program(source: str) -> Tape:
    """Text -> tape."""
    return build(syntax.parse(source))


def shape_problem(
    op: Op, values: list[Any], problem: Exception, span: tuple[int, int], source: str
) -> ShapeProblem:
    shapes = " and ".join(str(tuple(np.shape(v))) for v in values)
    label = f"'{op.symbol}'" if op.symbol else op.name
    if op.name == "getitem":
        message = f"index out of range for shape {tuple(np.shape(values[0]))}"
    elif op.name in ("matmul", "dot"):
        message = f"{label} cannot take shapes {shapes}"
    else:
        message = f"shapes {shapes} do not broadcast in {label}"
    return ShapeProblem(message, source=source, span=span, hint=str(problem).split("\n")[0])


def leads_of(tape: Tape, batched: bool) -> list[int]:
    """The number of leading batch axes of each node's value: 1 where an input flows in."""
    return [int(batched and node.requires_grad) for node in tape.nodes]


def forward(tape: Tape, at: Mapping[str, Array], batched: bool = False) -> list[Array]:
    """The value of every node of `tape` at the point `at` (input name -> value).

    With `batched`, every input value has a leading axis of points, and so does every value
    an input flows into; ops act on the per-point axes.
    """
    values: list[Any] = [None] * len(tape.nodes)
    leads = leads_of(tape, batched)
    with np.errstate(all="ignore"):  # NaN and infinity follow IEEE, as in PyTorch
        for node in tape.nodes:
            if node.kind == APPLY:
                assert node.op is not None
                args = [values[a] for a in node.args]
                arg_leads = [leads[a] for a in node.args] if batched else (0,) * len(args)
                try:
                    values[node.index] = call_forward(node.op, args, node.params, arg_leads)
                except (ValueError, IndexError) as problem:
                    raise shape_problem(node.op, args, problem, node.span, tape.source) from None
            else:
                # A 0-d value runs as a NumPy scalar: several times faster than a 0-d array.
                value = at[node.name] if node.kind == INPUT else node.value  # type: ignore[index]
                assert value is not None
                values[node.index] = value[()] if value.ndim == 0 else value
    return values
