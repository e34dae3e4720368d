"""The sweeps over a tape: forward (every node's value), reverse (adjoints), tangent (JVPs).

One loop each, parameterised by a backend: what a value is and which of an op's rules
computes it. The backends are `FLOATS` (Python floats, for a program of numbers at one
point), `ARRAYS` (NumPy arrays at one point) and `Batches` (NumPy arrays with a leading
axis of points, which that backend alone knows about: the op table's rules never see it).
The engine takes arrays and numbers, never text; the seed of ones has one form here,
`ops.UNIT`.

`backward` is PyTorch's `torch.autograd.backward(tensors, grad_tensors, inputs)` on a tape:
seed the roots, walk the tape once in reverse, and add up the adjoints where paths meet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple, NoReturn

import numpy as np

from gradcli.errors import ShapeProblem
from gradcli.ops import call_forward, call_jvp, call_vjp, ones_for
from gradcli.ops.core import Number
from gradcli.tape import APPLY, INPUT, Node, Tape, check_shapes, shape_problem

Array = np.ndarray
Rule = Callable[..., Any]


class Step(NamedTuple):
    """One adjoint update of the reverse sweep: node `arg` receives `contribution` from `node`."""

    node: int
    arg: int
    contribution: Array
    total: Array


class HandBack(Exception):
    """The float sweep cannot give NumPy's answer here: the sweep is done again in NumPy."""


class Backend:
    """How the sweeps compute on one kind of value.

    Each APPLY node's rule comes from `forward_rule(node)` and its kin, which bind the node's
    parameters and the batch axes of its args; on floats (`on_floats`) the sweeps take the
    op's own float rules, `op.floats`, with no work per node (on floats that is the whole
    cost). A forward rule takes the args' values, `rule(*args)`; a VJP rule
    `rule(g, ans, *args)` gives one cotangent per arg (None where none flows); a JVP rule
    `rule(tangents, ans, *args)`.
    """

    on_floats = False
    # What a forward rule raises that `failed` answers (NumPy: shapes that do not fit), and
    # what a VJP rule raises that it answers (none: a bug would be hidden).
    errors: tuple[type[Exception], ...] = (ValueError, IndexError)
    # Refuse, before a reverse sweep, a node whose backward PyTorch raises at (Op.backward_problem: clamp's bounds of
    # shapes its masks cannot be written into). `gradcli run` keeps its own, raised in PyTorch's voice when a
    # backward reaches the node (run.tensor._note_backward_refusal).
    refuses_backward = True
    reverse_errors: tuple[type[Exception], ...] = ()

    def leaf(self, value: Any) -> Any:
        """An input's or a constant's value, as the sweep computes on it."""
        # A 0-d value runs as a NumPy scalar: several times faster than a 0-d array.
        return value[()] if value.ndim == 0 else value

    def number(self, value: Any) -> Any:
        """A constant PyTorch sees as a Python number (Node.is_number), as the sweep computes on it:
        a `Number`, which a rule can tell from a tensor (x ** 0.5 is sqrt, x ** y C's pow)."""
        return Number(value) if np.ndim(value) == 0 else self.leaf(value)

    def check(self, tape: Tape, at: Mapping[str, Any]) -> None:
        """Refuse, before anything is computed, values past the limits (tape.check_shapes)."""
        _check(tape, {name: np.shape(at[name]) for name in tape.inputs})

    def leads(self, node: Node) -> tuple[int, ...]:
        """The leading axes of points of each of the node's args: none at one point."""
        return (0,) * len(node.args)

    def point_shape(self, values: Sequence[Any], index: int) -> tuple[int, ...]:
        """Node `index`'s shape at one point."""
        return np.shape(values[index])

    def forward_rule(self, node: Node) -> Rule:
        op, params, leads = node.op, node.params, self.leads(node)
        return lambda *args: call_forward(op, args, params, leads)  # type: ignore[arg-type]

    def vjp_rule(self, node: Node) -> Rule:
        op, params, leads, wants = node.op, node.params, self.leads(node), node.wants
        return lambda g, ans, *args: call_vjp(op, g, ans, args, params, leads, wants)  # type: ignore[arg-type]

    def jvp_rule(self, node: Node) -> Rule:
        op, params, leads = node.op, node.params, self.leads(node)
        return lambda tangents, ans, *args: call_jvp(op, tangents, ans, args, params, leads)  # type: ignore[arg-type]

    def failed(self, tape: Tape, node: Node, args: Sequence[Any], problem: Exception) -> NoReturn:
        """A rule raised one of `errors`: the shapes do not fit the op."""
        assert node.op is not None
        raise shape_problem(node.op, list(args), problem, node.span, tape.source) from None

    def take(self, values: Sequence[Any]) -> Sequence[Any]:
        """The forward values, as the reverse sweep computes on them."""
        return values

    def seed(self, seed: Any) -> Any:
        return seed

    def ones(self, g: Any, like: Any) -> Any:
        """`g` as a value: UNIT becomes ones of `like`'s shape."""
        return ones_for(g, like)

    def give(self, adjoints: Sequence[Any]) -> Sequence[Any]:
        """The reverse sweep's adjoints, as the caller gets them."""
        return adjoints


ARRAYS = Backend()


def _check(tape: Tape, shapes: Mapping[str, tuple[int, ...]]) -> None:
    if not (tape.floats and all(shape == () for shape in shapes.values())):  # numbers only: nothing grows
        check_shapes(tape, shapes)


class Floats(Backend):
    """Python floats: a program of numbers at one point, without NumPy's cost per node.

    A float rule gives the bits the NumPy rule gives, or raises (1/0, a case where Python
    and NumPy part ways): the sweep then hands back, and is done again in NumPy (ops: floats).
    """

    on_floats = True
    errors = reverse_errors = (ValueError, ArithmeticError)

    # The sweeps take a node's float rules straight from its op; these, for a node with params
    # (leaky_relu's negative_slope), bind them.
    def forward_rule(self, node: Node) -> Rule:
        return partial(node.op.floats[0], **node.params)  # type: ignore[union-attr, index]

    def vjp_rule(self, node: Node) -> Rule:
        return partial(node.op.floats[1], **node.params)  # type: ignore[union-attr, index]

    leaf = number = float  # type: ignore[assignment]  # (a float rule that needs to tell hands back)

    def check(self, tape: Tape, at: Mapping[str, Any]) -> None:
        pass  # numbers only: nothing grows

    def failed(self, tape: Tape, node: Node, args: Sequence[Any], problem: Exception) -> NoReturn:
        raise HandBack() from problem

    def take(self, values: Sequence[Any]) -> Sequence[Any]:
        return np.array(values, dtype=float).tolist()

    def seed(self, seed: Any) -> Any:
        return float(seed)

    def ones(self, g: Any, like: Any) -> Any:
        return g  # a float seed is never UNIT

    def give(self, adjoints: Sequence[Any]) -> list[Any]:
        float64 = np.float64
        return [None if a is None else float64(a) for a in adjoints]  # NumPy scalars, as NumPy gives


FLOATS = Floats()


class Batches(Backend):
    """NumPy arrays with a leading axis of points, where an input flows in (a constant has none).

    This backend alone knows the axis: it tells the op table's rules which args carry it
    (`leads`, 0 or 1 per arg); the rules act on the per-point axes.
    """

    def __init__(self, tape: Tape) -> None:
        # 1: the node's value has the axis: an input (an integer input too, which takes no
        # gradient), and whatever one flows into (a comparison's mask too: not requires_grad).
        self.lead: list[int] = []
        for node in tape.nodes:
            self.lead.append(int(node.requires_grad or node.kind == INPUT or any(self.lead[a] for a in node.args)))

    def check(self, tape: Tape, at: Mapping[str, Any]) -> None:
        _check(tape, {name: np.shape(at[name])[1:] for name in tape.inputs})

    def leads(self, node: Node) -> tuple[int, ...]:
        lead = self.lead
        return tuple([lead[a] for a in node.args])

    def point_shape(self, values: Sequence[Any], index: int) -> tuple[int, ...]:
        return np.shape(values[index])[self.lead[index]:]

    def one_point(self, values: Sequence[Any], count: int) -> list[Any]:
        """The values at one point as `count` points: broadcast views, nothing is evaluated again."""
        return [np.broadcast_to(v, (count, *np.shape(v))) if lead else v for v, lead in zip(values, self.lead, strict=True)]

    def with_axis(self, value: Any, index: int, count: int) -> Any:
        """A value of node `index` with its axis of points (a constant is the same at every point)."""
        return value if self.lead[index] else np.broadcast_to(value, (count, *np.shape(value)))


def float_point(tape: Tape, at: Mapping[str, Any]) -> bool:
    """Can the sweeps run on Python floats at this point? (a program of numbers, all real)"""
    if not tape.floats:
        return False
    for name in tape.inputs:
        value = at[name]
        if np.ndim(value) != 0 or np.asarray(value).dtype.kind != "f":
            return False
    return True


def _float_seeds(seeds: Sequence[Any]) -> bool:
    return all(np.ndim(seed) == 0 and np.asarray(seed).dtype.kind == "f" for seed in seeds)


# --- forward --------------------------------------------------------------------------------


def forward(tape: Tape, at: Mapping[str, Any], backend: Backend | None = None) -> list[Any]:
    """The value of every node of `tape` at the point `at` (input name -> value).

    Without a backend: on Python floats where the program and the point are numbers, else
    on NumPy arrays (the same bits, as NumPy scalars and arrays).
    """
    if backend is None:
        if float_point(tape, at):
            try:
                return list(np.array(sweep_forward(tape, at, FLOATS)))  # NumPy scalars, as NumPy gives
            except HandBack:
                pass
        backend = ARRAYS
    return sweep_forward(tape, at, backend)


def _whole_numbers(name: str, value: Any) -> None:
    """An input used as an index holds whole numbers (PyTorch indexes with integer tensors)."""
    values = np.asarray(value)
    whole = np.isfinite(values) & (np.mod(values, 1) == 0)
    if not np.all(whole):
        raise ShapeProblem(f"input '{name}' is used as an index: its values must be whole numbers, "
                           f"got {float(values[~whole].flat[0])!r}")
    huge = np.abs(values) >= 2.0**63  # (cast to int64, it would wrap round to another index)
    if np.any(huge):
        raise ShapeProblem(f"input '{name}' is used as an index: its values must be whole numbers within int64's "
                           f"range, got {float(values[huge].flat[0])!r}")


def sweep_forward(tape: Tape, at: Mapping[str, Any], backend: Backend) -> list[Any]:
    """The forward loop: each node's value from its args' values, by the backend's rules."""
    backend.check(tape, at)
    for name in tape.integer_inputs:
        _whole_numbers(name, at[name])
    values: list[Any] = [None] * len(tape.nodes)
    leaf, number = backend.leaf, backend.number
    on_floats = backend.on_floats
    rule_of = backend.forward_rule
    errors = backend.errors
    with np.errstate(all="ignore"):  # NaN and infinity follow IEEE, as in PyTorch
        for node in tape.nodes:
            if node.kind == APPLY:
                rule = node.op.floats[0] if on_floats and not node.params else rule_of(node)  # type: ignore[union-attr, index]
                args = node.args
                try:
                    if len(args) == 2:
                        values[node.index] = rule(values[args[0]], values[args[1]])
                    elif len(args) == 1:
                        values[node.index] = rule(values[args[0]])
                    else:
                        values[node.index] = rule(*[values[a] for a in args])
                except errors as problem:
                    backend.failed(tape, node, [values[a] for a in args], problem)
            elif node.kind == INPUT:
                values[node.index] = leaf(at[node.name])  # type: ignore[index]
            else:
                values[node.index] = number(node.value) if node.literal else leaf(node.value)
    return values


def with_numbers(tape: Tape, values: Sequence[Any], backend: Backend = ARRAYS) -> Sequence[Any]:
    """The values with the Python numbers among the constants told apart again (Backend.number):
    values that went through the float sweep, or np.array, lost it."""
    numbers = [node.index for node in tape.nodes if node.literal and node.kind != INPUT and
               type(values[node.index]) is not Number]
    if not numbers:
        return values
    values = list(values)
    for index in numbers:
        values[index] = backend.number(np.asarray(values[index]))
    return values


# --- reverse --------------------------------------------------------------------------------


def backward(
    tape: Tape,
    values: Sequence[Any],
    roots: Sequence[int],
    seeds: Sequence[Any],
    trace: list[Step] | None = None,
    backend: Backend | None = None,
    hooks: Mapping[int, Callable[[Any], Any]] | None = None,
    node_hooks: Mapping[int, Callable[[Any, tuple[Any, ...]], tuple[Any, ...]]] | None = None,
) -> Sequence[Any]:
    """Adjoints of every node: d(sum of seed * root)/d node. None where nothing flows.

    A seed may be ops.UNIT: ones of the root's shape, never multiplied by. Without a
    backend: on Python floats where the program, the point and the seeds are numbers (and
    no trace is kept), else on NumPy arrays. With `trace`, every adjoint update, in order.
    `hooks` (a run's tensor hooks): a node's whole adjoint, once complete, replaced by its hook's;
    `node_hooks` (a run's hooks on a node, grad_fn.register_hook): the cotangents a node sends to its args,
    replaced by its hook's, given the node's adjoint and them.
    """
    if hooks or node_hooks:
        return sweep_backward(tape, values, roots, seeds, backend or ARRAYS, trace, hooks, node_hooks)
    if backend is None:
        if trace is None and _float_seeds(seeds) and float_point(tape, {n: values[i] for n, i in tape.inputs.items()}):
            try:
                return sweep_backward(tape, values, roots, seeds, FLOATS)
            except HandBack:
                pass
        backend = ARRAYS
    if backend.refuses_backward:
        refuse_backward(tape, values, roots, backend)
    return sweep_backward(tape, values, roots, seeds, backend, trace)


def refuse_backward(tape: Tape, values: Sequence[Any], roots: Sequence[int], backend: Backend) -> None:
    """PyTorch's words, as a ShapeProblem at the call, where its backward from `roots` raises at a node it reaches
    (Op.backward_problem, of the args' shapes at one point): the last such node, where PyTorch's backward gets first.
    (On Python floats every value is a number, and none raises.)"""
    nodes = tape.nodes
    if not any(node.op is not None and node.op.backward_problem is not None and node.requires_grad for node in nodes):
        return
    for index in reached(nodes, roots)[0]:
        node = nodes[index]
        op = node.op
        if node.kind != APPLY or op is None or op.backward_problem is None or not node.requires_grad:
            continue
        problem = op.backward_problem([backend.point_shape(values, a) for a in node.args], list(node.wants),
                                      [a not in tape.stand_ins for a in node.args], **node.params)
        if problem is not None:  # (named as the program wrote the call: clamp, not its row clamp_tensor)
            written = tape.source[node.span[0]:node.span[1]].split("(")[0].strip().rpartition(".")[2]
            raise ShapeProblem(f"the gradient of {written or op.name} here: {problem} (PyTorch raises here too)",
                               source=tape.source, span=node.span)


def reached(nodes: Sequence[Node], roots: Sequence[int]) -> tuple[list[int], list[int]]:
    """The nodes a gradient from `roots` can flow through, last first, and the Python numbers among
    their args (Backend.number): all that a reverse sweep reads."""
    seen = set(roots)
    pending = list(roots)
    numbers = []
    while pending:
        for arg in nodes[pending.pop()].args:
            if arg in seen:
                continue
            seen.add(arg)
            node = nodes[arg]
            if node.requires_grad:
                pending.append(arg)
            elif node.literal and node.kind != INPUT:
                numbers.append(arg)
    return sorted(seen, reverse=True), numbers


def sweep_backward(tape: Tape, values: Sequence[Any], roots: Sequence[int], seeds: Sequence[Any], backend: Backend,
                   trace: list[Step] | None = None, hooks: Mapping[int, Callable[[Any], Any]] | None = None,
                   node_hooks: Mapping[int, Callable[[Any, tuple[Any, ...]], tuple[Any, ...]]] | None = None
                   ) -> Sequence[Any]:
    """The reverse loop: from the roots down, each node's VJP rule sends its adjoint to its args."""
    nodes = tape.nodes
    top = max(roots, default=-1)
    order: Sequence[int] = range(top, -1, -1)
    adjoints: Any
    if backend.on_floats:
        values = backend.take(values)
    elif trace is None:
        # `gradcli run` keeps every step of a loop on one tape: a step's backward reaches a few
        # nodes of thousands, and reads, converts the numbers of and holds adjoints for those
        # alone (a list as long as the tape would make each step cost more as the file runs on).
        order, numbers = reached(nodes, roots)
        values = _values_read(values, order, numbers, backend)
    else:
        values = with_numbers(tape, values, backend)
    ones = backend.ones
    adjoints = [None] * len(nodes) if type(order) is range else _Reaching()
    for root, seed in zip(roots, seeds, strict=True):
        seed = backend.seed(seed)
        previous = adjoints[root]
        adjoints[root] = seed if previous is None else ones(previous, values[root]) + ones(seed, values[root])
    for root in roots:
        if root != top:  # a root below the top may receive from the nodes above it: a value to add to
            adjoints[root] = ones(adjoints[root], values[root])
    on_floats = backend.on_floats
    rule_of = backend.vjp_rule
    errors = backend.reverse_errors
    # On floats, where the work per node is the whole cost, nodes of one or two args take a
    # short way: a float rule gives every cotangent (never None). Elsewhere every node takes
    # the general way, which also records the steps of a trace.
    one, two = (1, 2) if on_floats and trace is None else (None, None)
    with np.errstate(all="ignore"):
        for index in order:
            g = adjoints[index]
            if g is None:
                continue
            if hooks is not None and index in hooks:  # (in reverse order the adjoint is whole here)
                g = adjoints[index] = hooks[index](ones(g, values[index]))
            node = nodes[index]
            if node.kind != APPLY or not node.requires_grad:
                continue
            rule = node.op.floats[1] if on_floats and not node.params else rule_of(node)  # type: ignore[union-attr, index]
            args = node.args
            wants = node.wants
            try:
                if len(args) == two:
                    a, b = args
                    ca, cb = rule(g, values[index], values[a], values[b])
                    if wants[0]:
                        previous = adjoints[a]
                        adjoints[a] = ca if previous is None else previous + ca
                    if wants[1]:
                        previous = adjoints[b]
                        adjoints[b] = cb if previous is None else previous + cb
                    continue
                if len(args) == one:
                    a = args[0]
                    (ca,) = rule(g, values[index], values[a])
                    if wants[0]:
                        previous = adjoints[a]
                        adjoints[a] = ca if previous is None else previous + ca
                    continue
                cotangents = rule(g, values[index], *[values[a] for a in args])
            except errors as problem:
                backend.failed(tape, node, [values[a] for a in args], problem)
            if node_hooks is not None and index in node_hooks:
                cotangents = node_hooks[index](ones(g, values[index]), tuple(cotangents))
            for arg, want, cotangent in zip(args, wants, cotangents, strict=True):
                if want and cotangent is not None:
                    previous = adjoints[arg]
                    adjoints[arg] = cotangent if previous is None else previous + cotangent
                    if trace is not None:
                        trace.append(Step(index, arg, cotangent, adjoints[arg]))
    for root in roots:  # a seed that reached no op (the output is an input): ones after all
        adjoints[root] = ones(adjoints[root], values[root])
    return backend.give(adjoints if type(adjoints) is list else Reached(adjoints, len(nodes)))


def _values_read(values: Sequence[Any], order: list[int], numbers: list[int], backend: Backend) -> Any:
    """The values a sweep over `order` reads (its nodes and their args), the Python numbers among them converted."""
    read = {index: values[index] for index in order}
    for index in numbers:
        if type(read[index]) is not Number:
            read[index] = backend.number(np.asarray(read[index]))
    return read


class _Reaching(dict[int, Any]):
    """The adjoints of a sweep over the nodes its roots reach, as the sweep writes them: None where none arrived."""

    def __missing__(self, index: int) -> None:
        return None


class Reached(Sequence[Any]):
    """Every node's adjoint after a sweep over the nodes its roots reach: those it gave, None for every other."""

    __slots__ = ("given", "size")

    def __init__(self, given: dict[int, Any], size: int) -> None:
        self.given, self.size = given, size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self.given.get(i) for i in range(*index.indices(self.size))]
        position = index + self.size if index < 0 else index
        if not 0 <= position < self.size:
            raise IndexError("adjoint index out of range")
        return self.given.get(position)


# --- tangent --------------------------------------------------------------------------------


def jvp_sweep(tape: Tape, values: Sequence[Any], tangents: Mapping[int, Any], upto: int,
              backend: Backend = ARRAYS) -> list[Any]:
    """Forward mode: the tangent of every node up to `upto`, from the tangents of some nodes.

    Each op's JVP rule in the table carries the tangents forward; None is a zero tangent.
    """
    nodes = tape.nodes
    values = with_numbers(tape, values, backend)
    result: list[Any] = [None] * len(nodes)
    for index, tangent in tangents.items():
        result[index] = tangent
    with np.errstate(all="ignore"):
        for index in range(upto + 1):
            node = nodes[index]
            if node.kind != APPLY or result[index] is not None:
                continue
            arg_tangents = [result[a] for a in node.args]
            if all(t is None for t in arg_tangents):
                continue
            rule = backend.jvp_rule(node)
            result[index] = rule(arg_tangents, values[index], *[values[a] for a in node.args])
    return result


def local_derivatives(tape: Tape, values: Sequence[Any], index: int) -> list[Any]:
    """d node / d arg for each arg of an APPLY node at one point: its VJP applied to ones.

    For a scalar node and a scalar argument this is the partial derivative itself, the
    factor a path multiplies by when it crosses this edge.
    """
    node = tape.nodes[index]
    assert node.op is not None
    args = [ARRAYS.number(values[a]) if tape.nodes[a].literal and tape.nodes[a].kind != INPUT else values[a]
            for a in node.args]
    with np.errstate(all="ignore"):
        return call_vjp(node.op, np.ones_like(values[index]), values[index], args,
                        node.params, [0] * len(node.args), [True] * len(node.args))
