"""The library's front doors: grad, jacobian, jvp and hessian at one point.

A front door takes what a caller has at hand (a program's text or its tape, values as
numbers, lists, arrays or text, a seed as `ones` or text), turns it into arrays once, picks
what to differentiate (targets) and the seeds, runs the engine's sweeps, and returns a
result with its non-finite warnings already worked out (diagnostics.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gradcli.diagnostics import gradient_warnings, hessian_warnings, jacobian_warnings, jvp_warnings
from gradcli.engine import Backend, Batches, Step, backward, forward, jvp_sweep, reached
from gradcli.errors import GradcliError, Limits, NameProblem, ShapeProblem, over_limit
from gradcli.inputs import literals
from gradcli.ops import UNIT, Unit
from gradcli.tape import CONST, INPUT, Tape, compile_program

Array = np.ndarray


def _shape(shape: tuple[int, ...]) -> str:
    return str(tuple(shape))


def _size(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64))


def check_size(what: str, elements: int, per: str = "") -> None:
    """A Jacobian or Hessian is refused before its sweeps when it would pass the limit."""
    if elements > Limits.get("jacobian"):
        raise over_limit(f"the {what} would have {elements:,} elements{per}", "jacobian")


# --- targets: what to differentiate, what to report -----------------------------------------


def index_of(tape: Tape, name: str) -> int:
    """The node a name stands for: an input, else the node an assigned name holds at the end."""
    return tape.inputs[name] if name in tape.inputs else tape.names[name]


def names_of(names: str | Sequence[str]) -> list[str]:
    return [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)


def resolve(tape: Tape, names: str | Sequence[str], option: str, differentiable: bool = False) -> list[int]:
    """Node indices for the names of --of or --wrt; an unknown name is pointed at, and with
    `differentiable` so is a name that depends on no input (torch.autograd.backward refuses it)."""
    text = names if isinstance(names, str) else ",".join(names)
    found = []
    offset = 0
    for piece in text.split(","):
        name = piece.strip()
        start = offset + piece.find(name) if name else offset
        offset += len(piece) + 1
        if name in tape.names:
            found.append(tape.names[name])
            if differentiable and not tape.nodes[found[-1]].requires_grad:
                raise NameProblem(f"'{name}' does not require grad and does not have a grad_fn", source=text,
                                  span=(start, start + len(name)), where=option,
                                  hint="it depends on no input, or only on integer inputs (indices); "
                                       "differentiate a name that depends on another input")
        elif name in tape.inputs:
            found.append(tape.inputs[name])
        else:
            known = list(tape.inputs) + [n for n in tape.names if n not in tape.inputs]
            what = f"'{name}' is not a name in the program" if name else "an empty name"
            raise NameProblem(
                what,
                source=text,
                span=(start, start + max(1, len(name))),
                where=option,
                hint=f"its names are: {', '.join(known) or 'none'}",
            )
    return found


def targets(tape: Tape, of: str | Sequence[str] | None, wrt: str | Sequence[str] | None,
            warn_no_grad: bool = False) -> tuple[tuple[int, ...], tuple[str, ...], bool, list[str]]:
    """What to differentiate (--of, else the output) and what to report (--wrt, else the inputs). With `warn_no_grad`
    (grad: PyTorch's backward of the output), an output that takes no gradient, where a gradient is reported, gives
    zeros (as ever, and as torch.autograd.grad's materialize_grads) with a warning that PyTorch's backward raises."""
    if of:
        roots, root_names = tuple(resolve(tape, of, "--of", differentiable=True)), tuple(names_of(of))
        is_tuple = len(roots) > 1
    else:
        roots, root_names, is_tuple = tape.outputs, tape.output_names, tape.is_tuple
    if wrt:
        resolve(tape, wrt, "--wrt")
    # An integer input (an index) has no gradient to report, unless --wrt names it: zeros then.
    reported = names_of(wrt) if wrt else [name for name in tape.inputs if name not in tape.integer_inputs]
    # (a tuple's part that takes none, torch.max(v, 0)'s indices, is shown with the others: said where all are)
    if warn_no_grad and not of and reported and not any(tape.nodes[root].requires_grad for root in roots):
        import warnings

        said = f"the output '{root_names[0]}' does not require grad and does not have a grad_fn" if len(roots) == 1 \
            else "none of the output's parts requires grad or has a grad_fn"
        warnings.warn(f"{said}: PyTorch's backward raises here; the gradients shown are zeros (no gradient flows "
                      "from an integer or bool result: argmax, a comparison, an _ex function's info)", stacklevel=2)
    return roots, root_names, is_tuple, reported


# --- seeds ------------------------------------------------------------------------------------


def given_seeds(seed: Any, is_tuple: bool) -> list[Array | Unit] | None:
    """The seeds a caller gave, as arrays, and UNIT for `ones`; None for none (text is parsed here, once)."""
    if seed is None:
        return None
    if isinstance(seed, str):
        return [UNIT if isinstance(s, str) else s for s in literals.parse_seed(seed)]
    if isinstance(seed, (list, tuple)) and is_tuple:
        return [UNIT if isinstance(s, str) else literals.as_array(s, "seed") for s in seed]
    return [literals.as_array(seed, "seed")]


def make_seeds(
    values: Sequence[Array], roots: Sequence[int], names: Sequence[str], given: Sequence[Array | Unit] | None
) -> list[Array]:
    """PyTorch's `_make_grads`: a seed per root, checked against the root's shape."""
    if given is None:
        seeds = []
        for root, name in zip(roots, names, strict=True):
            if values[root].size != 1:
                raise ShapeProblem(
                    "grad can be implicitly created only for scalar outputs",
                    hint=f"'{name}' has shape {_shape(values[root].shape)}; give --seed of that shape, or --seed ones",
                )
            seeds.append(np.ones_like(values[root], dtype=float))
        return seeds
    if len(given) != len(roots):
        raise ShapeProblem(
            f"{len(given)} seed(s) for {len(roots)} output(s)",
            where="--seed",
            hint="a tuple output takes a tuple seed, as in --seed '(s1, s2)'",
        )
    seeds = []
    for root, name, seed in zip(roots, names, given, strict=True):
        if seed is UNIT:
            seeds.append(np.ones_like(values[root], dtype=float))
            continue
        assert isinstance(seed, np.ndarray)
        if seed.shape != values[root].shape:
            raise ShapeProblem(
                f"seed has shape {_shape(seed.shape)} but '{name}' has shape {_shape(values[root].shape)}",
                where="--seed",
            )
        seeds.append(seed)
    return seeds


def engine_seeds(seeds: Sequence[Array], given: Sequence[Array | Unit] | None) -> list[Array | Unit]:
    """The checked seeds as the engine takes them: a seed of ones (the default, or `ones`) is UNIT."""
    return [UNIT if given is None or given[i] is UNIT else seed for i, seed in enumerate(seeds)]


# --- grad -------------------------------------------------------------------------------------


@dataclass(eq=False, repr=False)
class GradResult:
    """The value of what was differentiated and the gradient of each reported input."""

    tape: Tape
    point: dict[str, Array]  # the input values
    values: Sequence[Array]  # every node's forward value
    adjoints: Sequence[Array | None]  # every node's adjoint
    roots: tuple[int, ...]  # what was differentiated
    root_names: tuple[str, ...]
    seeds: tuple[Array, ...]
    wrt: tuple[str, ...]  # the names reported, in order
    is_tuple: bool = False
    trace: list[Step] | None = field(default=None, repr=False)
    warnings: list[str] = field(default_factory=list)  # each value or gradient that is not finite

    def index_of(self, name: str) -> int:
        return index_of(self.tape, name)

    @property
    def value(self) -> Array | tuple[Array, ...]:
        """The value of the output (a tuple of them for several)."""
        outs = tuple(self.values[r] for r in self.roots)
        return outs if self.is_tuple else outs[0]

    @property
    def grad(self) -> dict[str, Array]:
        """Input name -> gradient, of the input's shape (zeros where nothing flows)."""
        result = {}
        for name in self.wrt:
            index = self.index_of(name)
            adjoint = self.adjoints[index]
            result[name] = np.zeros_like(self.values[index], dtype=float) if adjoint is None else np.array(adjoint)
        return result


def point_of(tape: Tape, at: Mapping[str, Any] | None, copy: bool = True) -> dict[str, Array]:
    """The values of the inputs, as arrays (a value's text is parsed here), one for each input (without `copy`,
    the caller's float64 arrays as they are: literals.as_array)."""
    point = {name: literals.as_array(v, name, copy) for name, v in (at or {}).items()}
    literals.check_point(tape.inputs, point)
    return point


def _prepare(program: str | Tape, at: Mapping[str, Any] | None) -> tuple[Tape, dict[str, Array], list[Array]]:
    tape = compile_program(program) if isinstance(program, str) else program
    point = point_of(tape, at)
    try:
        values = forward(tape, point)
    except GradcliError as first:
        # (the first tape may not hold at this point where the shapes choose how an input is read -- cross_entropy's
        # target of the input's shape, an index before its shape says probabilities; trapezoid's zeros of an empty
        # input --: its args' shapes from the point, and the tape of those; the first tape's error where that one
        # fails too)
        # (a limit's refusal stands: the tape of those shapes would compute what the limit refuses)
        again = tape.integer_inputs or isinstance(first, ShapeProblem)
        shapes = _written_shapes(tape, point) if tape.wants_shapes and not tape.shaped and again else None
        if shapes is None:
            raise
        try:
            shaped = compile_program(tape.source, shapes)
            return shaped, point_of(shaped, at), forward(shaped, point_of(shaped, at))
        except GradcliError:
            raise first from None
    if tape.wants_shapes and not tape.shaped:  # a graph that depends on shapes (tensordot): PyTorch's, at this point
        shapes = {span: tuple(np.shape(values[a]) for a in args) for span, args in tape.wants_shapes.items()}
        tape = compile_program(tape.source, shapes)
        point = point_of(tape, at)
        values = forward(tape, point)
    return tape, point, values


def _written_shapes(tape: Tape, point: Mapping[str, Array]) -> dict[Any, tuple[Any, ...]] | None:
    """The shapes a tape asks for (Tape.wants_shapes) where each is an input's or a constant's: known
    without the first tape's forward, which may not hold at this point (cross_entropy's target read as
    class indices before its shape says probabilities). None where one is computed."""
    shapes = {}
    for key, args in tape.wants_shapes.items():
        nodes = [tape.nodes[a] for a in args]
        if any(not (n.kind == CONST or (n.kind == INPUT and n.name in point)) for n in nodes):
            return None
        shapes[key] = tuple(np.shape(point[str(n.name)]) if n.kind == INPUT else np.shape(n.value)  # type: ignore[arg-type]
                            for n in nodes)
    return shapes


def grad(
    program: str | Tape,
    at: Mapping[str, Any] | None = None,
    *,
    seed: Any = None,
    of: str | Sequence[str] | None = None,
    wrt: str | Sequence[str] | None = None,
    trace: bool = False,
    warn_no_grad: bool = False,
) -> GradResult:
    """Differentiate `program` at the point `at`.

    `seed` is PyTorch's grad_tensors (an array, "ones", or a list of those for several
    outputs); `of` names intermediates to differentiate instead of the output (PyTorch's
    tensors); `wrt` names the inputs to report (PyTorch's inputs). With `trace`, the
    result keeps every adjoint update of the sweep, in order. An output that takes no
    gradient (argmax, a comparison) gives zeros, as torch.autograd.grad's materialize_grads;
    with `warn_no_grad` (`gradcli grad`, PyTorch's y.backward()) a warning says PyTorch's
    backward raises there.

    >>> round(float(grad("log(x1*x2)*sin(x2)", at={"x1": 0.5, "x2": 0.75}).grad["x1"]), 4)
    1.3633
    """
    if seed is None and of is None and not trace:
        tape = compile_program(program) if isinstance(program, str) else program
        # (the sweeps only read the inputs, and the result holds them: a million points are not copied first)
        summed = _summed(tape, point_of(tape, at, copy=False), wrt, warn_no_grad)
        if summed is not None:
            return summed
        program = tape  # (compiled once)
    tape, point, values = _prepare(program, at)
    roots, root_names, is_tuple, wrt_names = targets(tape, of, wrt, warn_no_grad)
    given = given_seeds(seed, is_tuple)
    seeds = make_seeds(values, roots, root_names, given)
    steps: list[Step] | None = [] if trace else None
    adjoints = backward(tape, values, roots, engine_seeds(seeds, given), steps)
    result = GradResult(tape, point, values, adjoints, roots, root_names, tuple(seeds), tuple(wrt_names), is_tuple,
                        steps)
    result.warnings = gradient_warnings(tape, values, adjoints, roots, root_names, result.grad)
    return result


class Deferred(Sequence[Any]):
    """Every node's value, or adjoint, of a gradient the chunked sweeps gave (batch.summed_elements), which
    keep none but the inputs', the output's and the gradients: the others come from one sweep of the whole
    arrays when first read (a view, --paths), with the same bits."""

    def __init__(self, known: dict[int, Any], size: int, sweeps: Any, part: int) -> None:
        self.known, self.size, self.sweeps, self.part = known, size, sweeps, part

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: Any) -> Any:
        if type(index) is int and index in self.known:
            return self.known[index]
        return self.sweeps()[self.part][index]


def _summed(tape: Tape, point: dict[str, Array], wrt: str | Sequence[str] | None, warn_no_grad: bool = False
            ) -> GradResult | None:
    """grad of a program elementwise up to a final sum, at arrays of one shape: by elements in chunks
    (batch.summed_elements), else None."""
    from gradcli.batch import summed_elements

    summed = summed_elements(tape, point, wrt)
    if summed is None:
        return None
    roots, root_names, _, wrt_names = targets(tape, None, wrt, warn_no_grad)
    seeds = (np.ones(()),)
    swept: list[tuple[list[Any], Sequence[Any]]] = []

    def sweeps() -> tuple[list[Any], Sequence[Any]]:
        if not swept:
            values = forward(tape, point)
            swept.append((values, backward(tape, values, roots, [UNIT])))
        return swept[0]

    size = len(tape.nodes)
    values = Deferred({**{tape.inputs[n]: v for n, v in point.items()}, roots[0]: summed.value}, size, sweeps, 0)
    reach = set(reached(tape.nodes, roots)[0])  # (an input the output does not read has no adjoint, as in a sweep)
    adjoints = Deferred({index_of(tape, n): g if index_of(tape, n) in reach else None for n, g in summed.grad.items()},
                        size, sweeps, 1)
    result = GradResult(tape, point, values, adjoints, roots, root_names, seeds, tuple(wrt_names))
    result.warnings = gradient_warnings(tape, values, adjoints, roots, root_names, summed.grad)
    return result


# --- Jacobians ----------------------------------------------------------------------------------


def reverse_jacobian(tape: Tape, values: Sequence[Any], roots: Sequence[int], out_shapes: Sequence[tuple[int, ...]],
                     names: Sequence[str], in_shapes: Sequence[tuple[int, ...]], count: int | None = None,
                     backend: Backend | None = None) -> list[dict[str, Array]]:
    """The Jacobian by one reverse sweep per output element: per root, input name -> block.

    With `count`, every value has a leading axis of `count` points (the backend's), and so
    do the blocks.
    """
    points = () if count is None else (count,)
    every = () if count is None else (slice(None),)
    indices = [index_of(tape, n) for n in names]
    blocks = [{n: np.zeros(points + o + i) for n, i in zip(names, in_shapes, strict=True)} for o in out_shapes]
    for k, shape in enumerate(out_shapes):
        for element in np.ndindex(*shape):
            seeds = [np.zeros(points + o) for o in out_shapes]
            seeds[k][(*every, *element)] = 1.0
            adjoints = backward(tape, values, roots, seeds, backend=backend)
            for name, index in zip(names, indices, strict=True):
                if adjoints[index] is not None:
                    blocks[k][name][(*every, *element)] = adjoints[index]
    return blocks


@dataclass(eq=False, repr=False)
class JacobianResult:
    """d output / d input for each output and input, laid out as torch.autograd.functional.jacobian."""

    tape: Tape
    point: dict[str, Array]
    outputs: tuple[Array, ...]  # the values of the outputs
    output_names: tuple[str, ...]
    blocks: list[dict[str, Array]]  # per output: input name -> array of shape (output shape + input shape)
    mode: str  # "reverse" (one sweep per output element) or "forward" (one per input element)
    is_tuple: bool
    values: list[Array] = field(default_factory=list)  # every node's value
    warnings: list[str] = field(default_factory=list)  # each value or block that is not finite


def jacobian(program: str | Tape, at: Mapping[str, Any] | None = None, *,
             wrt: str | Sequence[str] | None = None, mode: str = "auto") -> JacobianResult:
    """The full Jacobian of the output(s): reverse sweeps or forward sweeps, whichever are fewer.

    `mode` "reverse" or "forward" forces one kind of sweep.
    """
    tape, point, values = _prepare(program, at)
    roots, _, _, names = targets(tape, None, wrt)
    out_shapes = [np.shape(values[r]) for r in roots]
    in_shapes = [np.shape(values[index_of(tape, n)]) for n in names]
    out_size = sum(_size(s) for s in out_shapes)
    in_size = sum(_size(s) for s in in_shapes)
    check_size("Jacobian", out_size * in_size)
    if mode == "reverse" or (mode == "auto" and out_size <= in_size):
        mode = "reverse"
        blocks = reverse_jacobian(tape, values, roots, out_shapes, names, in_shapes)
    else:
        mode = "forward"
        blocks = [{n: np.zeros(o + i) for n, i in zip(names, in_shapes, strict=True)} for o in out_shapes]
        for name, shape in zip(names, in_shapes, strict=True):
            for element in np.ndindex(*shape):
                tangent = np.zeros(shape)
                tangent[element] = 1.0
                tangents = jvp_sweep(tape, values, {index_of(tape, name): tangent}, max(roots))
                for k, root in enumerate(roots):
                    if tangents[root] is not None:
                        blocks[k][name][(..., *element)] = tangents[root]
    outputs = tuple(np.asarray(values[r]) for r in roots)
    result = JacobianResult(tape, point, outputs, tape.output_names, blocks, mode, tape.is_tuple, values)
    result.warnings = jacobian_warnings(tape, values, tape.output_names, blocks)
    return result


# --- forward mode -------------------------------------------------------------------------------


@dataclass(eq=False, repr=False)
class JvpResult:
    tape: Tape
    point: dict[str, Array]
    tangent: dict[str, Array]
    value: Array | tuple[Array, ...]
    jvp: Array | tuple[Array, ...]
    output_names: tuple[str, ...]
    values: list[Array] = field(default_factory=list)  # every node's value
    warnings: list[str] = field(default_factory=list)  # each value or tangent that is not finite


def checked_tangents(tape: Tape, tangent: Mapping[str, Any] | None,
                     shapes: Mapping[str, tuple[int, ...]]) -> dict[str, Array]:
    """--tangent: a value per named input, of that input's (point) shape."""
    given = {name: literals.as_array(v, name) for name, v in (tangent or {}).items()}
    for name, t in given.items():
        if name not in tape.inputs:
            raise NameProblem(f"'{name}' is not an input of the program", where="--tangent",
                              hint=f"its inputs are: {', '.join(tape.inputs) or 'none'}")
        if t.shape != shapes[name]:
            raise ShapeProblem(f"the tangent of '{name}' has shape {_shape(t.shape)} but '{name}' has shape "
                               f"{_shape(shapes[name])}", where="--tangent")
    return given


def jvp(program: str | Tape, at: Mapping[str, Any] | None = None, tangent: Mapping[str, Any] | None = None) -> JvpResult:
    """Forward mode: the output's tangent, J @ tangent (inputs without a tangent get zero)."""
    tape, point, values = _prepare(program, at)
    given = checked_tangents(tape, tangent, {name: np.shape(values[i]) for name, i in tape.inputs.items()})
    tangents = jvp_sweep(tape, values, {tape.inputs[n]: t for n, t in given.items()}, max(tape.outputs))
    out_tangents = tuple(np.zeros(np.shape(values[r])) if tangents[r] is None else np.asarray(tangents[r])
                         for r in tape.outputs)
    outs = tuple(np.asarray(values[r]) for r in tape.outputs)
    full = {name: given.get(name, np.zeros(np.shape(values[i]))) for name, i in tape.inputs.items()}
    if tape.is_tuple:
        result = JvpResult(tape, point, full, outs, out_tangents, tape.output_names, values)
    else:
        result = JvpResult(tape, point, full, outs[0], out_tangents[0], tape.output_names, values)
    result.warnings = jvp_warnings(tape, values, tape.output_names, full, out_tangents)
    return result


# --- Hessians -----------------------------------------------------------------------------------


@dataclass(eq=False, repr=False)
class HessianResult:
    tape: Tape
    point: dict[str, Array]
    value: Array
    grad: dict[str, Array]
    blocks: dict[str, dict[str, Array]]  # name i -> name j -> block of shape (shape_i + shape_j)
    asymmetry: float  # the largest |H - H^T| that was rounding and is made symmetric
    values: list[Array] = field(default_factory=list)  # every node's value
    warnings: list[str] = field(default_factory=list)  # each value, gradient or block that is not finite


def hessian(program: str | Tape, at: Mapping[str, Any] | None = None, *,
            wrt: str | Sequence[str] | None = None) -> HessianResult:
    """The Hessian of a scalar output: forward-over-reverse from the op rules.

    For each input, its elements are the directions: a forward sweep of the table's JVP
    rules carries them through the tape (a batch of points, one per direction), and the
    reverse sweep then runs on dual numbers (gradcli.dual): the tangent of each gradient is
    its derivative along the direction, exact, with no step. Block [a][b] is laid out as
    torch.autograd.functional.hessian's: d(grad a)/d b, of shape (shape_a + shape_b).
    """
    from gradcli.dual import Dual, tangent

    tape, point, values = _prepare(program, at)
    root = tape.outputs[0]
    if tape.is_tuple:
        raise ShapeProblem("a Hessian needs a scalar output",
                           hint=f"the program gives a tuple of {len(tape.outputs)} outputs; take one of them, or their sum")
    if np.size(values[root]) != 1:
        raise ShapeProblem("a Hessian needs a scalar output",
                           hint=f"'{tape.output_names[0]}' has shape {_shape(np.shape(values[root]))}")
    _, _, _, names = targets(tape, None, wrt)
    for name in names:
        if name not in tape.inputs:
            raise NameProblem(f"'{name}' is not an input", where="--wrt", hint="a Hessian is taken over inputs")
    shapes = {name: np.shape(point[name]) for name in tape.inputs}
    sizes = {name: _size(shapes[name]) for name in names}
    check_size("Hessian", sum(sizes.values()) ** 2)
    directions_of = Batches(tape)  # the directions are the points of a batch
    # A sweep holds every node's value and tangent once per direction: as many directions at
    # once as keep that within the limit.
    at_once = max(1, Limits.get("jacobian") // max(1, sum(_size(np.shape(v)) for v in values)))
    blocks: dict[str, dict[str, Array]] = {a: {b: np.zeros(shapes[a] + shapes[b]) for b in names} for a in names}
    for a in names:  # the directions: the elements of input a
        directions = np.eye(sizes[a]).reshape(sizes[a], *shapes[a])
        for start in range(0, sizes[a], at_once):
            count = min(at_once, sizes[a] - start)
            # Every value once per direction: broadcast views, nothing is evaluated again.
            batch = directions_of.one_point(values, count)
            tangents = jvp_sweep(tape, batch, {tape.inputs[a]: directions[start : start + count]}, root,
                                 directions_of)
            # (what takes no gradient, an index among them, stays a plain array)
            duals: list[Any] = [Dual(v, t) if node.requires_grad else v
                                for v, t, node in zip(batch, tangents, tape.nodes, strict=True)]
            adjoints = backward(tape, duals, [root], [np.ones(np.shape(batch[root]))], backend=directions_of)
            for b in names:  # the tangent of grad b along a[i], in row i: d(grad b)/d a, transposed
                second = tangent(adjoints[tape.inputs[b]])
                if second is not None:
                    blocks[b][a].reshape(sizes[b], sizes[a])[:, start : start + count] = \
                        np.reshape(second, (count, sizes[b])).T
    asymmetry = _symmetrise(blocks, names, shapes, sizes)
    plain = backward(tape, values, [root], [UNIT])
    gradients = {n: np.zeros(shapes[n]) if plain[tape.inputs[n]] is None else np.asarray(plain[tape.inputs[n]])
                 for n in names}
    result = HessianResult(tape, point, np.asarray(values[root]), gradients, blocks, asymmetry, values)
    result.warnings = hessian_warnings(tape, values, gradients, blocks)
    return result


def _symmetrise(blocks: dict[str, dict[str, Array]], names: Sequence[str], shapes: Mapping[str, tuple[int, ...]],
                sizes: Mapping[str, int]) -> float:
    """Make H symmetric where H and its transpose agree to rounding (gradcli.symmetry's rule); the largest
    |H - H^T| made so."""
    from gradcli import symmetry

    full = np.block([[blocks[a][b].reshape(sizes[a], sizes[b]) for b in names] for a in names]) \
        if names else np.zeros((0, 0))
    with np.errstate(invalid="ignore"):
        magnitude = symmetry.magnitude(full, full.T, np)
        full, made = symmetry.settled(full, full.T, magnitude, float(np.max(magnitude, initial=0.0)), np)
    asymmetry = float(np.max(made, initial=0.0))
    row = 0
    for a in names:
        col = 0
        for b in names:
            blocks[a][b] = full[row : row + sizes[a], col : col + sizes[b]].reshape(shapes[a] + shapes[b])
            col += sizes[b]
        row += sizes[a]
    return asymmetry
