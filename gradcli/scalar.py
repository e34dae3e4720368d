"""The scalar path: `grad`, `jacobian`, `jvp`, `hessian`, `graph` of a program of numbers at a point of numbers, before
the op table and NumPy load.

A program such as `log(x1*x2)*sin(x2)` at x1=0.5,x2=0.75 needs neither arrays nor the table's
hundreds of rows: one gradient as a process would spend most of its time loading them. Here
the parser (which reads the language's data from gradcli/table.py) hands each construct to
`NumbersSink`, which applies the rows of numbers of gradcli/table.py: each row's float forward
and VJP, recorded from the row's own float rules, on the functions of gradcli.float_math (math's
where it has NumPy's bits, NumPy's ufunc, loaded at its first call, elsewhere). The sweeps are
the engine's float sweeps (engine.Floats), step for step, so the numbers are the bits the table
gives.

Anything else is not done here: a construct or spelling the table's rows of numbers do not
cover, a constant folded where Python would raise, a value that is not finite (its warnings
name nodes), an option beyond the gradient of the output. `grad_of_numbers` (and its kin) then
answers None, and the request takes the table's way (session.grad), which also says every error. So the scalar
path only ever gives what the table's way gives (tests/test_scalar.py holds them together).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from gradcli import table
from gradcli.errors import GradcliError, Limits
from gradcli.formulas import derivative_with_numbers, filled, operand

if TYPE_CHECKING:
    from gradcli.torch_graph import GraphNode

_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_NAME = re.compile(r"[A-Za-z_]\w*")
_WORDS = frozenset({"True", "False", "None", "..."})


class NotScalar(Exception):
    """The program or the point is beyond the scalar path: the table's way takes it."""


def point_of(at: Sequence[str]) -> dict[str, float] | None:
    """--at NAME=NUMBER,... as floats; None where anything else is written (a list, a range, pi, a name twice)."""
    point: dict[str, float] = {}
    for entry in at:
        for item in entry.split(","):
            name, equals, text = item.strip().partition("=")
            if not equals or not _NAME.fullmatch(name) or not _NUMBER.fullmatch(text) or name in point:
                return None
            point[name] = float(text)
    return point


@dataclass(slots=True, eq=False, repr=False)
class Node:
    args: tuple[int, ...]
    row: table.Row | None  # None: an input or a constant
    value: float  # a constant's
    name: str | None
    requires_grad: bool
    wants: tuple[bool, ...] = ()  # for each arg: does a gradient flow back into it?
    number: bool = False  # a constant PyTorch sees as a Python number (tape.Node.is_number)


# (an operator's symbol or a call's spelling, its number of args) -> its row
_ROW_OF = {key: table.ROWS[name] for key, name in table.CALLS.items()}


class NumbersSink:
    """Builds the tape of a program of numbers as the parser reads it, as tape.TapeSink does for these
    constructs (same nodes, same folding of constants); NotScalar for every other."""

    def __init__(self, assigned: set[str]) -> None:
        self.nodes: list[Node] = []
        self.inputs: dict[str, int] = {}
        self.bindings: dict[str, int] = {}
        self.assigned_later = set(assigned)
        self.max_nodes = Limits.get("nodes")
        self.last: tuple[str | None, Any] | None = None

    def __getattr__(self, construct: str) -> Any:
        raise NotScalar(construct)  # index, make_list, make_tuple, string...: the table's way

    def add(self, node: Node) -> int:
        nodes = self.nodes
        index = len(nodes)
        if index >= self.max_nodes:
            raise NotScalar("the limit of nodes")
        nodes.append(node)
        return index

    def constant(self, value: float, number: bool = False) -> int:
        return self.add(Node((), None, value, None, False, number=number))

    def fold(self, row: table.Row, args: tuple[int, ...]) -> int:
        """Numbers alone: folded as TapeSink folds them, by the float rule (where it raises, NumPy would fold)."""
        nodes = self.nodes
        try:
            value = row.forward(*[nodes[a].value for a in args])
        except (TypeError, ValueError, ArithmeticError):
            raise NotScalar("a fold in NumPy") from None
        number = all(nodes[a].number for a in args)  # (TapeSink.fold's literal)
        for a in sorted(args, reverse=True):  # (TapeSink.drop_constants)
            if a == len(nodes) - 1 and nodes[a].name is None:
                nodes.pop()
        return self.constant(float(value), number)

    def number(self, text: str, span: Any) -> int:
        return self.constant(float(text), number=True)

    def name(self, text: str, span: Any) -> int:
        index = self.inputs.get(text)
        if index is not None:
            return index
        if text in self.bindings:
            return self.bindings[text]
        if text in _WORDS or text in table.DTYPES or text in table.FUNCTIONS or text in self.assigned_later:
            raise NotScalar(text)  # a word, or an error the table's way says
        if text in table.CONSTANTS:
            return self.constant(table.CONSTANTS[text], number=True)
        index = self.add(Node((), None, 0.0, text, True))
        self.inputs[text] = index
        return index

    def unary(self, symbol: str, operand: Any, span: Any) -> int:
        if type(operand) is not int:
            raise NotScalar("not a value")
        if symbol == "+":
            return operand  # PyTorch records no node for unary plus
        row = _ROW_OF.get((symbol, 1))
        if row is None:
            raise NotScalar(symbol)
        if self.nodes[operand].requires_grad:
            return self.add(Node((operand,), row, 0.0, None, True, (True,)))
        return self.fold(row, (operand,))

    def binary(self, symbol: str, left: Any, right: Any, span: Any) -> int:
        row = _ROW_OF.get((symbol, 2))
        if row is None or type(left) is not int or type(right) is not int:
            raise NotScalar(symbol)
        nodes = self.nodes
        wants = (nodes[left].requires_grad, nodes[right].requires_grad)
        if wants[0]:
            return self.add(Node((left, right), row, 0.0, None, True, wants))
        if wants[1]:
            if row.reflected:
                raise NotScalar("2 / x: recorded as PyTorch's reflected method")
            return self.add(Node((left, right), row, 0.0, None, True, wants))
        return self.fold(row, (left, right))

    def call(self, func: str, func_span: Any, args: list[Any], span: Any, keywords: Any = None) -> int:
        nodes = self.nodes
        row = _ROW_OF.get((func, len(args)))
        if row is None or keywords or any(type(a) is not int or not nodes[a].requires_grad for a in args):
            raise NotScalar("another spelling, keywords, or a number among the args (another overload may take it)")
        return self.add(Node(tuple(args), row, 0.0, None, True, (True,) * len(args)))

    def statement(self, target: Any, value: Any, span: Any) -> None:
        if type(value) is not int or not (target is None or isinstance(target, str)):
            raise NotScalar("a tuple")
        self.last = (target, value)
        self.assigned_later.discard(target or "")
        if target is None:
            return
        if target in _WORDS or target in table.FUNCTIONS or target in self.inputs:
            raise NotScalar(target)  # an error the table's way says
        node = self.nodes[value]
        if node.row is None and not node.requires_grad and node.name is not None:
            value = self.constant(node.value)  # `c = 2; d = c`: a node per name
            node = self.nodes[value]
        if node.name is None:
            node.name = target
        self.bindings[target] = value

    def finish(self) -> NumbersSink:
        return self


@dataclass(eq=False, repr=False)
class NumbersTape:
    """What the views read of a tape (tape.Tape's fields of the same names)."""

    source: str
    inputs: dict[str, int]
    names: dict[str, int]
    output_names: tuple[str, ...] = ()


@dataclass(eq=False, repr=False)
class NumbersResult:
    """A gradient of the scalar path, read by the views as they read derivatives.GradResult."""

    tape: NumbersTape
    point: dict[str, float]
    values: list[float]
    value: float
    grad: dict[str, float]
    root_names: tuple[str, ...]
    wrt: tuple[str, ...]
    seeds: tuple[float, ...] = (1.0,)
    warnings: list[str] = field(default_factory=list)
    adjoints: list[float | None] = field(default_factory=list)  # every node's (None: none flowed into it)
    roots: tuple[int, ...] = ()  # (explain's: the output's node)


@dataclass(eq=False, repr=False)
class NumbersJacobian:
    """A Jacobian of the scalar path (one output: its gradient's numbers), read as derivatives.JacobianResult."""

    tape: NumbersTape
    point: dict[str, float]
    outputs: tuple[float, ...]
    output_names: tuple[str, ...]
    blocks: list[dict[str, float]]
    values: list[float]
    mode: str = "reverse"  # (one output: one reverse sweep, as derivatives.jacobian picks)
    is_tuple: bool = False
    warnings: list[str] = field(default_factory=list)


@dataclass(eq=False, repr=False)
class NumbersJvp:
    """A JVP of the scalar path, read as derivatives.JvpResult."""

    tape: NumbersTape
    point: dict[str, float]
    tangent: dict[str, float]
    value: float
    jvp: float
    output_names: tuple[str, ...]
    values: list[float]
    warnings: list[str] = field(default_factory=list)


def _finite(*numbers: float) -> bool:
    return all(math.isfinite(n) for n in numbers)


def _answered(answer: Any) -> Any:
    """answer()'s result; None where the table's way must answer."""
    try:
        with warnings.catch_warnings():  # (NumPy's about NaN and infinities: the sweeps run without them)
            warnings.simplefilter("ignore", RuntimeWarning)
            return answer()
    except (NotScalar, GradcliError):  # (an error: the table's way says it, with its words)
        return None


def grad_of_numbers(source: str, at: Sequence[str]) -> NumbersResult | None:
    """The value and gradient of a program of numbers at --at's numbers; None where the table's way must answer."""
    def answer() -> NumbersResult:
        program = _Program(source, at)
        grad = program.gradient()
        return NumbersResult(program.tape(), program.point, program.values, program.value, grad,
                             (program.output_name,), tuple(program.sink.inputs))

    return _answered(answer)


def jacobian_of_numbers(source: str, at: Sequence[str]) -> NumbersJacobian | None:
    """derivatives.jacobian of one output: one reverse sweep, the gradient (an input it does not reach: 0)."""
    def answer() -> NumbersJacobian:
        program = _Program(source, at)
        grad = program.gradient()
        return NumbersJacobian(program.tape(), program.point, (program.value,), (program.output_name,), [grad],
                               program.values)

    return _answered(answer)


def jvp_of_numbers(source: str, at: Sequence[str], tangent: Sequence[str]) -> NumbersJvp | None:
    """derivatives.jvp: engine.jvp_sweep's tangents, node by node (inputs not named get zero)."""
    def answer() -> NumbersJvp:
        program = _Program(source, at)
        given = point_of(tangent)
        if given is None or not set(given) <= set(program.point) or not _finite(*given.values()):
            raise NotScalar("--tangent")
        out = program.tangent(given)
        full = {name: given.get(name, 0.0) for name in program.sink.inputs}
        return NumbersJvp(program.tape(), program.point, full, program.value, out, (program.output_name,),
                          program.values)

    return _answered(answer)


@dataclass(eq=False, repr=False)
class NumbersHessian:
    """A Hessian of the scalar path, read as derivatives.HessianResult (each block a number)."""

    tape: NumbersTape
    point: dict[str, float]
    value: float
    grad: dict[str, float]
    blocks: dict[str, dict[str, float]]
    asymmetry: float
    values: list[float]
    warnings: list[str] = field(default_factory=list)


def hessian_of_numbers(source: str, at: Sequence[str]) -> NumbersHessian | None:
    """derivatives.hessian: for each input, the tangent sweep from it, then the reverse sweep on dual numbers, whose
    tangents are the gradient's derivatives along it; the rounding made symmetric. None where the table's way must
    answer."""
    def answer() -> NumbersHessian:
        program = _Program(source, at)
        grad = program.gradient()
        inputs = program.sink.inputs
        blocks = {a: dict.fromkeys(inputs, 0.0) for a in inputs}
        for a in inputs:  # the direction: input a
            adjoints = program.dual_gradient(program.tangents({a: 1.0}))
            for b, index in inputs.items():  # d(grad b)/d a
                second = adjoints[index]
                if type(second) is _Dual and second.tangent is not None:
                    blocks[b][a] = float(second.tangent)
        names = list(inputs)
        if not _finite(*(blocks[a][b] for a in names for b in names)):
            raise NotScalar("not finite: the warnings name blocks")
        asymmetry = _symmetrise(blocks, names)
        if not _finite(*(blocks[a][b] for a in names for b in names)):  # ((a + b) / 2 may overflow)
            raise NotScalar("not finite: the warnings name blocks")
        return NumbersHessian(program.tape(), program.point, program.value, grad, blocks, asymmetry, program.values)

    return _answered(answer)


def _symmetrise(blocks: dict[str, dict[str, float]], names: list[str]) -> float:
    """derivatives._symmetrise on numbers: H made symmetric where H and its transpose agree to rounding
    (gradcli.symmetry's rule); the largest |H - H^T| made so."""
    from gradcli.symmetry import FLOATS, magnitude, settled

    pairs = [(a, b, blocks[a][b], blocks[b][a]) for a in names for b in names]
    magnitudes = [magnitude(h, h_t, FLOATS) for _, _, h, h_t in pairs]
    scale = max(magnitudes, default=0.0)
    asymmetry = 0.0
    for (a, b, h, h_t), size in zip(pairs, magnitudes, strict=True):
        blocks[a][b], made = settled(h, h_t, size, scale, FLOATS)
        asymmetry = max(asymmetry, made)
    return asymmetry


class _Dual:
    """gradcli.dual.Dual on one number: a float and its tangent (None: zero), for the Hessian. Each operator and
    function the rows' float VJPs apply to it is differentiated as a Dual differentiates NumPy's ufunc of it: by
    the row table.DUALS names, whose float VJP at each arg's tangent gives that arg's part (the engine's JVP of an
    elementwise row). Comparisons look at the values."""

    __slots__ = ("primal", "tangent")
    __hash__ = None  # type: ignore[assignment]
    __array_ufunc__ = None  # a NumPy number times a dual: the dual's reflected method

    def __bool__(self) -> bool:
        raise TypeError("a branch on a dual number")  # (NumPy's Dual has no truth value either: the table's way)

    def __init__(self, primal: float, tangent: float | None = None) -> None:
        self.primal, self.tangent = primal, tangent

    def __add__(self, other: Any) -> Any:
        return _through("+", _ADD, self, other)

    def __radd__(self, other: Any) -> Any:
        return _through("+", _ADD, other, self)

    def __sub__(self, other: Any) -> Any:
        return _through("-", _SUB, self, other)

    def __rsub__(self, other: Any) -> Any:
        return _through("-", _SUB, other, self)

    def __mul__(self, other: Any) -> Any:
        return _through("*", _MUL, self, other)

    def __rmul__(self, other: Any) -> Any:
        return _through("*", _MUL, other, self)

    def __truediv__(self, other: Any) -> Any:
        return _through("/", _DIV, self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _through("/", _DIV, other, self)

    def __neg__(self) -> Any:
        return _through("neg", _NEG, self)

    def __pos__(self) -> Any:
        return self

    def __eq__(self, other: Any) -> Any:
        return self.primal == _primal(other)

    def __ne__(self, other: Any) -> Any:
        return self.primal != _primal(other)

    def __lt__(self, other: Any) -> Any:
        return self.primal < _primal(other)

    def __le__(self, other: Any) -> Any:
        return self.primal <= _primal(other)

    def __gt__(self, other: Any) -> Any:
        return self.primal > _primal(other)

    def __ge__(self, other: Any) -> Any:
        return self.primal >= _primal(other)


def _ADD(a: float, b: float) -> float:
    return a + b


def _SUB(a: float, b: float) -> float:
    return a - b


def _MUL(a: float, b: float) -> float:
    return a * b


def _DIV(a: float, b: float) -> float:
    return a / b


def _NEG(a: float) -> float:
    return -a


def _primal(x: Any) -> Any:
    return x.primal if type(x) is _Dual else x


def _through(key: str, function: Any, *args: Any) -> Any:
    """function(*args) on dual numbers, as gradcli.dual.Dual.__array_ufunc__ computes NumPy's ufunc of it."""
    primals = [_primal(a) for a in args]
    value = function(*primals)
    row_name = table.DUALS.get(key)
    if row_name is None:
        raise NotScalar(f"{key}: a ufunc the dual numbers spell otherwise")
    if row_name == "" or type(value) is bool:
        return value  # a step, or a comparison: nothing to differentiate
    tangents = [a.tangent if type(a) is _Dual else None for a in args]
    if all(t is None for t in tangents):
        return _Dual(value)
    vjps = table.ROWS[row_name].vjps
    parts = [vjps[i](t, value, *primals) for i, t in enumerate(tangents) if t is not None]
    parts = [part for part in parts if part is not None]
    total = parts[0] if parts else 0.0
    for part in parts[1:]:
        total = total + part
    return _Dual(value, total)


class _DualMath:
    """table.py's `xp` (gradcli.float_math.FLOATS) on dual numbers: each function through `_through`, `where` as
    gradcli.dual's (the tangents picked as the values)."""

    def __getattr__(self, name: str) -> Any:
        function = getattr(table.xp, name)
        return lambda *args: _through(name, function, *args)

    @staticmethod
    def where(condition: Any, a: Any, b: Any) -> Any:
        value = _primal(a) if condition else _primal(b)
        ta, tb = (x.tangent if type(x) is _Dual else None for x in (a, b))
        if ta is None and tb is None:
            return _Dual(value)
        return _Dual(value, (0.0 if ta is None else ta) if condition else (0.0 if tb is None else tb))


def _on_duals(rule: Any) -> Any:
    """A row's float VJP as table.py wrote it, its `xp` the dual numbers' (_DualMath)."""
    made = _DUAL_RULES.get(rule)
    if made is None:
        import types

        made = _DUAL_RULES[rule] = types.FunctionType(rule.__code__, {**rule.__globals__, "xp": _DualMath()},
                                                      rule.__name__, rule.__defaults__, rule.__closure__)
    return made


_DUAL_RULES: dict[Any, Any] = {}


class NumbersStep(NamedTuple):
    """engine.Step on numbers: node `arg` receives `contribution` from `node`, its adjoint now `total`."""

    node: int
    arg: int
    contribution: float
    total: float


@dataclass(eq=False, repr=False)
class NumbersExplanation:
    """A gradient of the scalar path with every step of its sweep, as session.Explanation holds it."""

    result: NumbersResult
    names: list[str]
    torch_names: dict[int, str]
    forward: list[tuple[int, str, str]]  # (node, its name in the program, its definition) of the forward table
    steps: list[tuple[NumbersStep, int, float, str | None]]  # (step, the edge's arg position, its factor, formula)


def explain_of_numbers(source: str, at: Sequence[str]) -> NumbersExplanation | None:
    """session.explanation of a program of numbers: the sweep step by step, each edge's local derivative and formula
    (gradcli/table.py's, printed by SymPy at generation time). None where the table's way must answer: also where an
    edge has a number as an arg that table.LITERAL_DERIVATIVES does not hold (SymPy then prints its formula)."""
    def answer() -> NumbersExplanation:
        program = _Program(source, at)
        nodes, values = program.sink.nodes, program.values
        if len(nodes) + sum(len(node.args) for node in nodes) > Limits.get("explain"):
            raise NotScalar("too large to explain: the table's way says so")
        trace: list[NumbersStep] = []
        grad = program.gradient(trace)
        root = program.output
        result = NumbersResult(program.tape(), program.point, values, program.value, grad, (program.output_name,),
                               tuple(program.sink.inputs), adjoints=program.adjoints, roots=(root,))
        names = [_explained_name(node, index) for index, node in enumerate(nodes[: root + 1])]
        torch_names = {index: "AccumulateGrad" if node.row is None else
                       table.GRAPH[node.row.name][tuple(nodes[a].number for a in node.args)][0]
                       for index, node in enumerate(nodes[: root + 1]) if node.requires_grad}
        forward = [(index, node.name if node.name and not (node.row is None and node.requires_grad) else "",
                    _definition(node, names)) for index, node in enumerate(nodes[: root + 1])
                   if names[index] == f"v{index}" or node.requires_grad]  # (a number written in place: no line)
        steps = []
        taken: dict[tuple[int, int], int] = {}  # (node, arg) -> its edges met so far (x * x: each edge its own)
        for step in trace:
            node = nodes[step.node]
            assert node.row is not None
            count = taken.get((step.node, step.arg), 0)
            taken[(step.node, step.arg)] = count + 1
            position = [p for p, a in enumerate(node.args) if a == step.arg][count]
            args = [values[a] for a in node.args]
            factor = node.row.vjps[position](1.0, values[step.node], *args)
            if factor is None:
                raise NotScalar("no local derivative")
            steps.append((step, position, float(factor), _formula(nodes, node, names, position)))
        return NumbersExplanation(result, names, torch_names, forward, steps)

    return _answered(answer)


def _explained_name(node: Node, index: int) -> str:
    """session.explanation's name of a node: an input's, a number written in place, or v<index>."""
    if node.row is None and node.requires_grad:
        return str(node.name)
    if node.row is None and node.name is None:
        from gradcli.numbers import human_line

        return human_line(node.value)
    return f"v{index}"


def _definition(node: Node, names: list[str]) -> str:
    """The right-hand side of a line of the forward table (render.explain's)."""
    if node.row is None:
        if node.requires_grad:
            return "input"
        from gradcli.numbers import human_line

        return f"constant {human_line(node.value)}"
    return filled(table.DEFINITIONS[node.row.name], [names[a] for a in node.args])


def _formula(nodes: list[Node], node: Node, names: list[str], position: int) -> str | None:
    """The edge's local derivative in the args' names, as symbolic.local_derivative_formula prints it: the numbers
    written in the program (a constant of no name) put in, from gradcli/table.py's templates."""
    assert node.row is not None
    numbers = [(p, nodes[a].value) for p, a in enumerate(node.args)
               if nodes[a].row is None and not nodes[a].requires_grad and nodes[a].name is None
               and math.isfinite(nodes[a].value)]  # (SymPy keeps a number that is not finite as a name)
    if not numbers:
        template = table.DERIVATIVES[node.row.name][position]
    elif len(numbers) == 1 and (node.row.name, position, numbers[0][1]) in table.LITERAL_DERIVATIVES:
        template = table.LITERAL_DERIVATIVES[(node.row.name, position, numbers[0][1])]
    elif (data := table.SYMPY_FORMS.get(node.row.name)) is not None:  # SymPy puts the number in (no op table)
        template = derivative_with_numbers(data, len(node.args), position, dict(numbers))
    else:
        raise NotScalar("a number SymPy must put in")
    return None if template is None else filled(template, [operand(names[a]) for a in node.args])


@dataclass(eq=False, repr=False)
class NumbersGraph:
    """The backward graph of a program of numbers, as session.GraphReport holds it (at --at: its values, gradients
    and each edge's local derivative)."""

    source: str
    nodes: list[GraphNode]
    roots: tuple[int, ...]
    root_names: tuple[str, ...]
    result: NumbersResult | None
    edges: dict[int, list[float | None]] | None = None


def graph_of_numbers(source: str, at: Sequence[str]) -> NumbersGraph | None:
    """torch_graph.backward_graph of a program of numbers (and at --at, jacobians.edge_locals); None where the table's
    way must answer."""
    def answer() -> NumbersGraph:
        if at:
            program = _Program(source, at)
            grad = program.gradient()
            sink, root, name = program.sink, program.output, program.output_name
            result: NumbersResult | None = NumbersResult(program.tape(), program.point, program.values, program.value,
                                                         grad, (name,), tuple(sink.inputs), adjoints=program.adjoints)
        else:
            sink = _build(source)
            if sink.last is None or not sink.nodes[sink.last[1]].requires_grad:
                raise NotScalar("a constant output")
            root, name, result = sink.last[1], sink.last[0] or "out", None
        nodes = _backward_graph(sink.nodes, root)
        edges = None if result is None else _edge_locals(sink.nodes, result.values, nodes)
        return NumbersGraph(source, nodes, (root,), (name,), result, edges)

    return _answered(answer)


def _backward_graph(nodes: list[Node], root: int) -> list[GraphNode]:
    """torch_graph.backward_graph: the nodes reachable from the root, each before its next_functions."""
    from gradcli.torch_graph import GraphNode

    reachable = [False] * len(nodes)
    reachable[root] = True
    graph = []
    for index in range(root, -1, -1):
        node = nodes[index]
        if not reachable[index] or not node.requires_grad:
            continue
        if node.row is None:
            graph.append(GraphNode(index, "AccumulateGrad", node.name, ()))
            continue
        name, positions = table.GRAPH[node.row.name][tuple(nodes[a].number for a in node.args)]
        following = tuple(node.args[p] if nodes[node.args[p]].requires_grad else None for p in positions)
        for arg in following:
            if arg is not None:
                reachable[arg] = True
        graph.append(GraphNode(index, name, node.name, following))
    return graph


def _edge_locals(nodes: list[Node], values: list[float], graph: list[GraphNode]) -> dict[int, list[float | None]]:
    """jacobians.edge_locals: each edge's local derivative, the node's VJP of 1 (None: a constant's edge)."""
    from gradcli.torch_graph import EDGES_AT_MOST

    found: dict[int, list[float | None]] = {}
    if len(graph) > EDGES_AT_MOST:
        return found
    try:
        for graph_node in graph:
            node = nodes[graph_node.id]
            if node.row is None:
                continue
            args, used = node.args, set()
            labels: list[float | None] = []
            for child in graph_node.next_functions:
                position = next((p for p, a in enumerate(args) if a == child and p not in used), None)
                if child is None or position is None:
                    labels.append(None)
                    continue
                used.add(position)
                part = node.row.vjps[position](1.0, values[graph_node.id], *[values[a] for a in args])
                labels.append(None if part is None else float(part))
            found[graph_node.id] = labels
    except (ValueError, ArithmeticError):
        raise NotScalar("NumPy's sweep") from None
    return found


def _build(source: str) -> NumbersSink:
    from gradcli import syntax

    with syntax.no_cycle_collection():
        tokens = syntax.tokenize(source)
        sink = NumbersSink(syntax.assigned_names(tokens) if "=" in source else set())
        syntax.Parser(source, tokens, sink).program()
    return sink


class _Program:
    """A program of numbers at a point: its values (engine.sweep_forward on floats), and the sweeps after."""

    def __init__(self, source: str, at: Sequence[str]) -> None:
        point = point_of(at)
        if point is None:
            raise NotScalar("--at")
        self.source, self.sink = source, _build(source)
        nodes, inputs = self.sink.nodes, self.sink.inputs
        if self.sink.last is None or set(point) != set(inputs):
            raise NotScalar("a name of --at is not an input, or an input has no value")
        target, self.output = self.sink.last
        self.output_name = target or "out"
        if not nodes[self.output].requires_grad:
            raise NotScalar("a constant output")
        self.point = {name: point[name] for name in inputs}
        self.adjoints: list[float | None] = []  # (after the gradient: every node's)
        values: list[Any] = [0.0] * len(nodes)
        try:
            for index, node in enumerate(nodes):
                row, args = node.row, node.args
                if row is None:
                    values[index] = node.value if node.name is None or not node.requires_grad else point[node.name]
                elif len(args) == 2:
                    values[index] = row.forward(values[args[0]], values[args[1]])
                else:
                    values[index] = row.forward(values[args[0]])
        except (ValueError, ArithmeticError):  # (where the float sweep hands back to NumPy)
            raise NotScalar("NumPy's sweep") from None
        self.values = [float(v) for v in values]  # (engine.Floats.take)
        self.value = self.values[self.output]
        if not _finite(self.value, *self.point.values()):
            raise NotScalar("not finite: the warnings name nodes")

    def tape(self) -> NumbersTape:
        return NumbersTape(self.source, dict(self.sink.inputs), dict(self.sink.bindings), (self.output_name,))

    def gradient(self, trace: list[NumbersStep] | None = None) -> dict[str, float]:
        """engine.sweep_backward on floats from the output, seeded with 1; with `trace`, every adjoint update in
        order, as the engine's trace keeps them."""
        nodes, values = self.sink.nodes, self.values
        adjoints: list[Any] = [None] * len(nodes)
        adjoints[self.output] = 1.0
        try:
            for index in range(self.output, -1, -1):
                g = adjoints[index]
                if g is None:
                    continue
                node = nodes[index]
                row = node.row
                if row is None:
                    continue
                args, wants, vjps, ans = node.args, node.wants, row.vjps, values[index]
                # (a constant's cotangent is not computed: x ** 2 takes no log of x)
                if len(args) == 2:
                    a, b = args
                    va, vb = values[a], values[b]
                    if wants[0]:
                        cotangent = vjps[0](g, ans, va, vb)
                        if cotangent is not None:
                            previous = adjoints[a]
                            adjoints[a] = cotangent if previous is None else previous + cotangent
                            if trace is not None:
                                trace.append(NumbersStep(index, a, cotangent, adjoints[a]))
                    if wants[1]:
                        cotangent = vjps[1](g, ans, va, vb)
                        if cotangent is not None:
                            previous = adjoints[b]
                            adjoints[b] = cotangent if previous is None else previous + cotangent
                            if trace is not None:
                                trace.append(NumbersStep(index, b, cotangent, adjoints[b]))
                    continue
                a = args[0]
                cotangent = vjps[0](g, ans, values[a])
                if cotangent is not None:
                    previous = adjoints[a]
                    adjoints[a] = cotangent if previous is None else previous + cotangent
                    if trace is not None:
                        trace.append(NumbersStep(index, a, cotangent, adjoints[a]))
        except (ValueError, ArithmeticError):
            raise NotScalar("NumPy's sweep") from None
        self.adjoints = [None if a is None else float(a) for a in adjoints]
        grad = {name: 0.0 if adjoints[i] is None else float(adjoints[i]) for name, i in self.sink.inputs.items()}
        if not _finite(*grad.values()):
            raise NotScalar("not finite: the warnings name nodes")
        return grad

    def tangent(self, given: dict[str, float]) -> float:
        """The output's tangent (engine.jvp_sweep's)."""
        tangents = self.tangents(given)
        out = 0.0 if tangents[self.output] is None else float(tangents[self.output])
        if not _finite(out):
            raise NotScalar("not finite: the warnings name nodes")
        return out

    def dual_gradient(self, tangents: list[Any]) -> list[Any]:
        """engine.sweep_backward on dual numbers (each value with its tangent), seeded with 1, as derivatives.hessian
        sweeps: every cotangent of a row computed by its float VJP on duals (its xp: _DualMath)."""
        nodes = self.sink.nodes
        duals = [_Dual(value, tangent) if node.requires_grad else value
                 for value, tangent, node in zip(self.values, tangents, nodes, strict=True)]
        adjoints: list[Any] = [None] * len(nodes)
        adjoints[self.output] = 1.0
        try:
            for index in range(self.output, -1, -1):
                g = adjoints[index]
                node = nodes[index]
                if g is None or node.row is None:
                    continue
                args = [duals[a] for a in node.args]
                for position, (arg, want) in enumerate(zip(node.args, node.wants, strict=True)):
                    if not want:
                        continue
                    cotangent = _on_duals(node.row.vjps[position])(g, duals[index], *args)
                    if cotangent is not None:
                        previous = adjoints[arg]
                        adjoints[arg] = cotangent if previous is None else previous + cotangent
        except (ValueError, ArithmeticError, TypeError):  # (TypeError: abs() of a Dual, which NumPy's has not either)
            raise NotScalar("NumPy's sweep") from None
        return adjoints

    def tangents(self, given: dict[str, float]) -> list[Any]:
        """engine.jvp_sweep up to the output: a row's JVP is its VJP at each arg's tangent (its derivative is
        diagonal), the args' parts added in order; None where no tangent flows."""
        nodes, values = self.sink.nodes, self.values
        tangents: list[Any] = [None] * len(nodes)
        for name, t in given.items():
            tangents[self.sink.inputs[name]] = t
        try:
            for index in range(self.output + 1):
                node = nodes[index]
                if node.row is None or tangents[index] is not None:
                    continue
                if all(tangents[a] is None for a in node.args):
                    continue
                args = [values[a] for a in node.args]
                parts = [vjp(tangents[a], values[index], *args) for a, vjp in zip(node.args, node.row.vjps, strict=True)
                         if tangents[a] is not None]
                parts = [part for part in parts if part is not None]
                total = parts[0] if parts else 0.0
                for part in parts[1:]:
                    total = total + part
                tangents[index] = total
        except (ValueError, ArithmeticError):
            raise NotScalar("NumPy's sweep") from None
        return tangents
