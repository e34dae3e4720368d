"""The reverse sweep over a tape, and `grad`, the library's front door.

`backward` is PyTorch's `torch.autograd.backward(tensors, grad_tensors, inputs)` on a tape:
seed the roots, walk the tape once in reverse, and add up the adjoints where paths meet.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gradcli import values as values_module
from gradcli.engine import Batches, Step, backward, forward, jvp_sweep, local_derivatives  # noqa: F401
from gradcli.errors import Limits, NameProblem, ShapeProblem, over_limit
from gradcli.ops import UNIT
from gradcli.tape import Tape, check_shapes, compile_program
from gradcli.torch_graph import GraphNode, backward_graph, torch_name  # noqa: F401  (where they have always been)

Array = np.ndarray


def _shape(shape: tuple[int, ...]) -> str:
    return str(tuple(shape))


def make_seeds(
    values: Sequence[Array], roots: Sequence[int], names: Sequence[str], given: Sequence[Array | str] | None
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
        if isinstance(seed, str):
            seeds.append(np.ones_like(values[root], dtype=float))
            continue
        if seed.shape != values[root].shape:
            raise ShapeProblem(
                f"seed has shape {_shape(seed.shape)} but '{name}' has shape {_shape(values[root].shape)}",
                where="--seed",
            )
        seeds.append(seed)
    return seeds


@dataclass(eq=False, repr=False)
class GradResult:
    """The value of what was differentiated and the gradient of each reported input."""

    tape: Tape
    point: dict[str, Array]  # the input values
    values: list[Array]  # every node's forward value
    adjoints: list[Array | None]  # every node's adjoint
    roots: tuple[int, ...]  # what was differentiated
    root_names: tuple[str, ...]
    seeds: tuple[Array, ...]
    wrt: tuple[str, ...]  # the names reported, in order
    is_tuple: bool = False
    trace: list[Step] | None = field(default=None, repr=False)

    def index_of(self, name: str) -> int:
        return self.tape.inputs[name] if name in self.tape.inputs else self.tape.names[name]

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


def _finite(value: Any) -> bool:
    return bool(np.all(np.isfinite(value)))


def _where(tape: Tape, index: int) -> str:
    from gradcli.errors import line_and_column

    node = tape.nodes[index]
    what = node.op.name if node.op is not None else node.kind
    _, column, _ = line_and_column(tape.source, node.span[0])
    return f"node [{index}] ({what}, column {column})"


def value_warnings(tape: Tape, values: Sequence[Array], roots: Sequence[int], names: Sequence[str]) -> list[str]:
    """A line for each root whose value is NaN or infinite, naming the first node in tape order that is."""
    warnings = []
    for root, name in zip(roots, names, strict=True):
        if not _finite(values[root]):
            first = next(i for i in range(root + 1) if not _finite(values[i]))
            warnings.append(f"the value of '{name}' is not finite; it starts at {_where(tape, first)}")
    return warnings


def non_finite_warnings(result: GradResult) -> list[str]:
    """A line for each value or gradient that is NaN or infinite, naming where it starts.

    A value goes non-finite at the first node, in tape order, whose value is; a gradient at
    the first node, in the order of the reverse sweep, whose adjoint is.
    """
    tape = result.tape
    warnings = value_warnings(tape, result.values, result.roots, result.root_names)
    top = max(result.roots, default=-1)
    for name, gradient in result.grad.items():
        if not _finite(gradient):
            origin = next((i for i in range(top, -1, -1)
                           if result.adjoints[i] is not None and not _finite(result.adjoints[i])), None)
            where = ""
            if origin is not None:
                # The backward rule that made it: a consumer of that node whose own adjoint is finite.
                makers = [j for j in range(top, origin, -1) if origin in tape.nodes[j].args
                          and result.adjoints[j] is not None and _finite(result.adjoints[j])]
                where = f"; it starts in the backward of {_where(tape, makers[0])}" if makers else \
                    f"; it starts at {_where(tape, origin)}"
            warnings.append(f"the gradient of '{name}' is not finite{where}")
    return warnings


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
                                  hint="it depends on no input; differentiate a name that does")
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


def _targets(tape: Tape, of: str | Sequence[str] | None, wrt: str | Sequence[str] | None
             ) -> tuple[tuple[int, ...], tuple[str, ...], bool, list[str]]:
    """What to differentiate (--of, else the output) and what to report (--wrt, else the inputs)."""
    if of:
        roots, root_names = tuple(resolve(tape, of, "--of", differentiable=True)), tuple(names_of(of))
        is_tuple = len(roots) > 1
    else:
        roots, root_names, is_tuple = tape.outputs, tape.output_names, tape.is_tuple
    if wrt:
        resolve(tape, wrt, "--wrt")
    return roots, root_names, is_tuple, names_of(wrt) if wrt else list(tape.inputs)


def _given_seeds(seed: Any, is_tuple: bool) -> list[Array | str] | None:
    if seed is None:
        return None
    if isinstance(seed, str):
        return values_module.parse_seed(seed)
    if isinstance(seed, (list, tuple)) and is_tuple:
        return [s if isinstance(s, str) else values_module.as_array(s, "seed") for s in seed]
    return [values_module.as_array(seed, "seed")]


def grad(
    program: str | Tape,
    at: Mapping[str, Any] | None = None,
    *,
    seed: Any = None,
    of: str | Sequence[str] | None = None,
    wrt: str | Sequence[str] | None = None,
    trace: bool = False,
) -> GradResult:
    """Differentiate `program` at the point `at`.

    `seed` is PyTorch's grad_tensors (an array, "ones", or a list of those for several
    outputs); `of` names intermediates to differentiate instead of the output (PyTorch's
    tensors); `wrt` names the inputs to report (PyTorch's inputs). With `trace`, the
    result keeps every adjoint update of the sweep, in order.

    >>> round(float(grad("log(x1*x2)*sin(x2)", at={"x1": 0.5, "x2": 0.75}).grad["x1"]), 4)
    1.3633
    """
    tape = compile_program(program) if isinstance(program, str) else program
    point = {name: values_module.as_array(v, name) for name, v in (at or {}).items()}
    values_module.check_point(tape.inputs, point)
    values = forward(tape, point)

    roots, root_names, is_tuple, wrt_names = _targets(tape, of, wrt)
    seeds = make_seeds(values, roots, root_names, _given_seeds(seed, is_tuple))
    steps: list[Step] | None = [] if trace else None
    adjoints = backward(tape, values, roots, seeds, steps)
    return GradResult(tape, point, values, adjoints, roots, root_names, tuple(seeds), tuple(wrt_names), is_tuple, steps)


# Points read at once by --points (each block then goes through grad_batch's sweeps).
CHUNK = 65_536
# Points in one sweep: big enough that Python's work per sweep (~50 us) is small beside
# NumPy's, small enough that a sweep's arrays (128 KB each) stay in the cache.
SWEEP = 16_384


@dataclass(eq=False, repr=False)
class BatchResult:
    """Values and derivatives at many points: every array has a leading axis of points."""

    values: list[Array]  # one per differentiated root, shape (points, *root shape)
    grad: dict[str, Array]  # name -> (points, *the name's shape); empty for the other kinds
    root_names: tuple[str, ...]
    is_tuple: bool
    kind: str = "grad"  # or "jvp", "jacobian": the derivative computed, and its JSON key
    per_root: list[Any] = field(default_factory=list)  # jvp: (points, *root shape) per root;
    # jacobian: {input name: (points, *root shape, *input shape)} per root

    def columns(self) -> list[tuple[str, Array]]:
        """Every derivative as (label, array), for the flat views (CSV, the table)."""
        if self.kind == "grad":
            return [(f"grad_{name}", array) for name, array in self.grad.items()]
        single = len(self.root_names) == 1
        if self.kind == "jvp":
            return [("jvp" if single else f"jvp_{root}", array) for root, array in zip(self.root_names, self.per_root, strict=True)]
        return [(f"d{root}/d{name}", array) for root, blocks in zip(self.root_names, self.per_root, strict=True)
                for name, array in blocks.items()]


def _batch_point(tape: Tape, columns: Mapping[str, Array], fixed: Mapping[str, Array], start: int,
                 size: int) -> dict[str, Array]:
    """The inputs of points start..start+size: from the columns, else --at's value at every point."""
    point = {name: columns[name][start : start + size] for name in tape.inputs if name in columns}
    for name in tape.inputs:
        if name not in columns:
            value = fixed[name]
            point[name] = np.broadcast_to(value, (size, *value.shape))
    return point


def _batched(value: Array, lead: int, size: int) -> Array:
    """A value with its axis of points (a constant is the same at every point)."""
    return value if lead else np.broadcast_to(value, (size, *np.shape(value)))


def _check_size(what: str, elements: int, per: str = "") -> None:
    """A Jacobian or Hessian is refused before its sweeps when it would pass the limit."""
    if elements > Limits.get("jacobian"):
        raise over_limit(f"the {what} would have {elements:,} elements{per}", "jacobian")


def _size(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64))


def jacobian_points_at_once(tape: Tape, columns: Mapping[str, Array], fixed: Mapping[str, Array] | None = None,
                            wrt: str | Sequence[str] | None = None) -> int:
    """How many of these points jacobian_batch may take at once: their Jacobians stay within
    the limit together. The Jacobian's size comes from the first point's shapes (one point is
    evaluated); past the limit for one point, the error."""
    fixed = fixed or {}
    first = {name: column[0] for name, column in columns.items() if len(column)}
    point = {**fixed, **first}
    values_module.check_point(tape.inputs, point)
    values = forward(tape, point)
    roots, _, _, names = _targets(tape, None, wrt)
    indices = [tape.inputs[n] if n in tape.inputs else tape.names[n] for n in names]
    elements = sum(_size(np.shape(values[r])) for r in roots) * sum(_size(np.shape(values[i])) for i in indices)
    _check_size("Jacobian", elements, " per point")
    return max(1, Limits.get("jacobian") // max(1, elements))


def jvp_batch(tape: Tape, columns: Mapping[str, Array], count: int, fixed: Mapping[str, Array] | None = None,
              tangent: Mapping[str, Array] | None = None) -> BatchResult:
    """`jvp` at `count` points at once, along the same tangent at every point."""
    fixed = fixed or {}
    values_module.check_point(tape.inputs, {**fixed, **columns})
    backend = Batches(tape)
    leads = backend.lead
    values = forward(tape, _batch_point(tape, columns, fixed, 0, count), backend)
    given = _checked_tangents(tape, tangent, {name: np.shape(values[i])[1:] for name, i in tape.inputs.items()})
    seeds = {tape.inputs[name]: np.broadcast_to(t, (count, *t.shape)) for name, t in given.items()}
    tangents = jvp_sweep(tape, values, seeds, max(tape.outputs), backend)
    outs = [_batched(values[r], leads[r], count) for r in tape.outputs]
    per_root = [np.zeros(o.shape) if tangents[r] is None else _batched(np.asarray(tangents[r]), leads[r], count)
                for r, o in zip(tape.outputs, outs, strict=True)]
    return BatchResult(outs, {}, tape.output_names, tape.is_tuple, "jvp", per_root)


def jacobian_batch(tape: Tape, columns: Mapping[str, Array], count: int, fixed: Mapping[str, Array] | None = None,
                   wrt: str | Sequence[str] | None = None) -> BatchResult:
    """`jacobian` at `count` points at once: one batched reverse sweep per output element."""
    fixed = fixed or {}
    values_module.check_point(tape.inputs, {**fixed, **columns})
    roots, root_names, is_tuple, names = _targets(tape, None, wrt)
    backend = Batches(tape)
    leads = backend.lead
    values = forward(tape, _batch_point(tape, columns, fixed, 0, count), backend)
    outs = [_batched(values[r], leads[r], count) for r in roots]
    indices = [tape.inputs[n] if n in tape.inputs else tape.names[n] for n in names]
    in_shapes = [np.shape(values[i])[leads[i]:] for i in indices]
    _check_size("Jacobian", count * sum(_size(o.shape[1:]) for o in outs) * sum(_size(s) for s in in_shapes),
                f" for {count:,} points at once")
    per_root = [{n: np.zeros((count, *o.shape[1:], *s)) for n, s in zip(names, in_shapes, strict=True)} for o in outs]
    for k, out in enumerate(outs):
        for element in np.ndindex(*out.shape[1:]):
            seeds = [np.zeros(o.shape) for o in outs]
            seeds[k][(slice(None), *element)] = 1.0
            adjoints = backward(tape, values, roots, seeds, backend=backend)
            for name, index in zip(names, indices, strict=True):
                if adjoints[index] is not None:
                    per_root[k][name][(slice(None), *element)] = adjoints[index]
    return BatchResult(outs, {}, root_names, is_tuple, "jacobian", per_root)


def grad_batch(
    tape: Tape,
    columns: Mapping[str, Array],
    count: int,
    fixed: Mapping[str, Array] | None = None,
    *,
    seed: Any = None,
    of: str | Sequence[str] | None = None,
    wrt: str | Sequence[str] | None = None,
    chunk: int = SWEEP,
    threads: int | None = None,
) -> BatchResult:
    """`grad` at `count` points at once: `columns[name][i]` is input `name` at point i.

    Inputs missing from `columns` take their value from `fixed` at every point. The points
    go through the tape in chunks of `chunk`, each one vectorised NumPy computation whose
    arrays stay in cache; no Python loop runs per point. Chunks run on `threads` threads
    (default: one per core, at most 4): NumPy lets go of the GIL inside its loops, and the
    chunks are independent, so the results are the same whatever the number of threads.
    """
    fixed = fixed or {}
    values_module.check_point(tape.inputs, {**fixed, **columns})
    roots, root_names, is_tuple, wrt_names = _targets(tape, of, wrt)
    given = _given_seeds(seed, is_tuple)
    backend = Batches(tape)
    leads = backend.lead
    wrt_indices = [tape.inputs[name] if name in tape.inputs else tape.names[name] for name in wrt_names]
    # A sweep holds each of its points' values (and adjoints): no more points at once, over all
    # the threads, than a one-point run may hold (GRADCLI_MAX_TAPE_ELEMENTS), however big each is.
    budget = Limits.get("tape_elements")
    per_point = check_shapes(tape, {name: np.shape(columns[name])[1:] if name in columns else np.shape(fixed[name])
                                    for name in tape.inputs}) or 1
    chunk = max(1, min(chunk, budget // per_point))

    def sweep(start: int, seeds_at_a_point: list[Array] | None
              ) -> tuple[list[Array], list[Array], list[Array | None], list[Array]]:
        size = min(chunk, count - start)
        values = forward(tape, _batch_point(tape, columns, fixed, start, size), backend)
        point_values = [_batched(values[r], leads[r], size) for r in roots]
        if seeds_at_a_point is None:  # the first chunk: check the seeds against the output
            shapes = [v[0] for v in point_values] if size else [v.reshape(v.shape[1:]) for v in point_values]
            seeds_at_a_point = make_seeds(shapes, range(len(roots)), root_names, given)
        # The default seed is UNIT: no pass over the points multiplies by it (ops.Unit).
        seeds = [UNIT if given is None or isinstance(given[i], str) else np.broadcast_to(s, (size, *s.shape))
                 for i, s in enumerate(seeds_at_a_point)]
        adjoints = backward(tape, values, roots, seeds, backend=backend)
        return values, point_values, [adjoints[i] for i in wrt_indices], seeds_at_a_point

    values, point_values, first, point_seeds = sweep(0, None)
    point_shapes = [values[i].shape[leads[i]:] for i in wrt_indices]
    if count <= chunk:  # one chunk: its arrays are the result, nothing to copy
        grads = {}
        for name, adjoint, shape in zip(wrt_names, first, point_shapes, strict=True):
            if adjoint is None:
                adjoint = np.zeros((count, *shape))
            elif adjoint.base is not None or not adjoint.flags.writeable:
                adjoint = np.array(adjoint)  # a view, maybe of the inputs (the gradient of x*y to x is y)
            grads[name] = adjoint
        return BatchResult(point_values, grads, root_names, is_tuple)

    out_values = [np.empty((count, *v.shape[1:])) for v in point_values]
    out_grads = {name: np.zeros((count, *shape)) for name, shape in zip(wrt_names, point_shapes, strict=True)}

    def keep(start: int, point_values: list[Array], adjoints: list[Array | None]) -> None:
        stop = min(start + chunk, count)
        for target, value in zip(out_values, point_values, strict=True):
            target[start:stop] = value
        for name, adjoint in zip(wrt_names, adjoints, strict=True):
            if adjoint is not None:
                out_grads[name][start:stop] = adjoint

    def run(start: int) -> None:
        _, point_values, adjoints, _ = sweep(start, point_seeds)
        keep(start, point_values, adjoints)

    keep(0, point_values, first)
    rest = range(chunk, count, chunk)
    workers = min(threads or min(os.cpu_count() or 1, 4), len(rest), max(1, budget // (chunk * per_point)))
    if workers <= 1:
        for start in rest:
            run(start)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(workers) as pool:
            for _ in pool.map(run, rest):  # each chunk writes its own rows; errors come out here
                pass
    return BatchResult(out_values, out_grads, root_names, is_tuple)


# --- forward mode, Jacobians and Hessians --------------------------------------------------


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

    def warnings(self) -> list[str]:
        """A line for each value or block that is NaN or infinite."""
        lines = value_warnings(self.tape, self.values, self.tape.outputs, self.output_names)
        return lines + [f"the Jacobian of '{out}' with respect to '{name}' is not finite"
                        for out, blocks in zip(self.output_names, self.blocks, strict=True)
                        for name, block in blocks.items() if not _finite(block)]


def _prepare(program: str | Tape, at: Mapping[str, Any] | None) -> tuple[Tape, dict[str, Array], list[Array]]:
    tape = compile_program(program) if isinstance(program, str) else program
    point = {name: values_module.as_array(v, name) for name, v in (at or {}).items()}
    values_module.check_point(tape.inputs, point)
    return tape, point, forward(tape, point)


def jacobian(program: str | Tape, at: Mapping[str, Any] | None = None, *,
             wrt: str | Sequence[str] | None = None, mode: str = "auto") -> JacobianResult:
    """The full Jacobian of the output(s): reverse sweeps or forward sweeps, whichever are fewer.

    `mode` "reverse" or "forward" forces one kind of sweep.
    """
    tape, point, values = _prepare(program, at)
    roots, _, _, names = _targets(tape, None, wrt)
    indices = [tape.inputs[n] if n in tape.inputs else tape.names[n] for n in names]
    out_shapes = [np.shape(values[r]) for r in roots]
    in_shapes = [np.shape(values[i]) for i in indices]
    out_size = sum(int(np.prod(s, dtype=np.int64)) for s in out_shapes)
    in_size = sum(int(np.prod(s, dtype=np.int64)) for s in in_shapes)
    _check_size("Jacobian", out_size * in_size)
    blocks = [{n: np.zeros(o + i) for n, i in zip(names, in_shapes, strict=True)} for o in out_shapes]
    if mode == "reverse" or (mode == "auto" and out_size <= in_size):
        mode = "reverse"
        for k, shape in enumerate(out_shapes):
            for element in np.ndindex(*shape):
                seed = np.zeros(shape)
                seed[element] = 1.0
                seeds = [seed if r == k else np.zeros(out_shapes[r]) for r in range(len(roots))]
                adjoints = backward(tape, values, roots, seeds)
                for name, index in zip(names, indices, strict=True):
                    if adjoints[index] is not None:
                        blocks[k][name][element] = adjoints[index]
    else:
        mode = "forward"
        for name, index, shape in zip(names, indices, in_shapes, strict=True):
            for element in np.ndindex(*shape):
                tangent = np.zeros(shape)
                tangent[element] = 1.0
                tangents = jvp_sweep(tape, values, {index: tangent}, max(roots))
                for k, root in enumerate(roots):
                    if tangents[root] is not None:
                        blocks[k][name][(..., *element)] = tangents[root]
    outputs = tuple(np.asarray(values[r]) for r in roots)
    return JacobianResult(tape, point, outputs, tape.output_names, blocks, mode, tape.is_tuple, values)


@dataclass(eq=False, repr=False)
class JvpResult:
    tape: Tape
    point: dict[str, Array]
    tangent: dict[str, Array]
    value: Array | tuple[Array, ...]
    jvp: Array | tuple[Array, ...]
    output_names: tuple[str, ...]
    values: list[Array] = field(default_factory=list)  # every node's value

    def warnings(self) -> list[str]:
        """A line for each value or tangent that is NaN or infinite."""
        tangents = self.jvp if isinstance(self.jvp, tuple) else (self.jvp,)
        lines = value_warnings(self.tape, self.values, self.tape.outputs, self.output_names)
        lines += [f"the tangent of '{name}' is not finite" for name, t in self.tangent.items() if not _finite(t)]
        return lines + [f"the tangent of '{name}' (J @ tangent) is not finite"
                        for name, t in zip(self.output_names, tangents, strict=True) if not _finite(t)]


def _checked_tangents(tape: Tape, tangent: Mapping[str, Any] | None,
                      shapes: Mapping[str, tuple[int, ...]]) -> dict[str, Array]:
    """--tangent: a value per named input, of that input's (point) shape."""
    given = {name: values_module.as_array(v, name) for name, v in (tangent or {}).items()}
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
    given = _checked_tangents(tape, tangent, {name: np.shape(values[i]) for name, i in tape.inputs.items()})
    tangents = jvp_sweep(tape, values, {tape.inputs[n]: t for n, t in given.items()}, max(tape.outputs))
    out_tangents = tuple(np.zeros(np.shape(values[r])) if tangents[r] is None else np.asarray(tangents[r])
                         for r in tape.outputs)
    outs = tuple(np.asarray(values[r]) for r in tape.outputs)
    full = {name: given.get(name, np.zeros(np.shape(values[i]))) for name, i in tape.inputs.items()}
    if tape.is_tuple:
        return JvpResult(tape, point, full, outs, out_tangents, tape.output_names, values)
    return JvpResult(tape, point, full, outs[0], out_tangents[0], tape.output_names, values)


@dataclass(eq=False, repr=False)
class HessianResult:
    tape: Tape
    point: dict[str, Array]
    value: Array
    grad: dict[str, Array]
    blocks: dict[str, dict[str, Array]]  # name i -> name j -> block of shape (shape_i + shape_j)
    asymmetry: float  # the largest |H - H^T| that was rounding and is made symmetric
    values: list[Array] = field(default_factory=list)  # every node's value

    def warnings(self) -> list[str]:
        """A line for each value, gradient or block that is NaN or infinite."""
        lines = value_warnings(self.tape, self.values, self.tape.outputs[:1], self.tape.output_names[:1])
        lines += [f"the gradient of '{name}' is not finite" for name, g in self.grad.items() if not _finite(g)]
        return lines + [f"the Hessian block d(grad {a})/d {b} is not finite"
                        for a, row in self.blocks.items() for b, block in row.items() if not _finite(block)]


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
    if tape.is_tuple or np.size(values[root]) != 1:
        raise ShapeProblem("a Hessian needs a scalar output",
                           hint=f"'{tape.output_names[0]}' has shape {_shape(np.shape(values[root]))}")
    _, _, _, names = _targets(tape, None, wrt)
    for name in names:
        if name not in tape.inputs:
            raise NameProblem(f"'{name}' is not an input", where="--wrt", hint="a Hessian is taken over inputs")
    shapes = {name: np.shape(point[name]) for name in tape.inputs}
    sizes = {name: _size(shapes[name]) for name in names}
    _check_size("Hessian", sum(sizes.values()) ** 2)
    directions_of = Batches(tape)  # the directions are the points of a batch
    leads = directions_of.lead
    # A sweep holds every node's value and tangent once per direction: as many directions at
    # once as keep that within the limit.
    at_once = max(1, Limits.get("jacobian") // max(1, sum(_size(np.shape(v)) for v in values)))
    blocks: dict[str, dict[str, Array]] = {a: {b: np.zeros(shapes[a] + shapes[b]) for b in names} for a in names}
    for a in names:  # the directions: the elements of input a
        directions = np.eye(sizes[a]).reshape(sizes[a], *shapes[a])
        for start in range(0, sizes[a], at_once):
            count = min(at_once, sizes[a] - start)
            # Every value once per direction: broadcast views, nothing is evaluated again.
            batch = [np.broadcast_to(v, (count, *np.shape(v))) if lead else v
                     for v, lead in zip(values, leads, strict=True)]
            tangents = jvp_sweep(tape, batch, {tape.inputs[a]: directions[start : start + count]}, root,
                                 directions_of)
            duals: list[Any] = [Dual(v, t) for v, t in zip(batch, tangents, strict=True)]
            adjoints = backward(tape, duals, [root], [np.ones(np.shape(batch[root]))], backend=directions_of)
            for b in names:  # the tangent of grad b along a[i], in row i: d(grad b)/d a, transposed
                second = tangent(adjoints[tape.inputs[b]])
                if second is not None:
                    blocks[b][a].reshape(sizes[b], sizes[a])[:, start : start + count] = \
                        np.reshape(second, (count, sizes[b])).T
    asymmetry = _symmetrise(blocks, names, shapes, sizes)
    plain = backward(tape, values, [root], [np.ones(np.shape(values[root]))])
    gradients = {n: np.zeros(shapes[n]) if plain[tape.inputs[n]] is None else np.asarray(plain[tape.inputs[n]])
                 for n in names}
    return HessianResult(tape, point, np.asarray(values[root]), gradients, blocks, asymmetry, values)


def _symmetrise(blocks: dict[str, dict[str, Array]], names: Sequence[str], shapes: Mapping[str, tuple[int, ...]],
                sizes: Mapping[str, int]) -> float:
    """Make H symmetric where H and its transpose agree to rounding; the largest |H - H^T| made so.

    Where they differ by more, at a kink or a mask (x**y at y = 0: d(grad x)/dy is 0, the
    exponent's mask, but d(grad y)/dx is 1/x), or where one is NaN or infinite, H is left as
    computed, as PyTorch's double backward leaves it.
    """
    full = np.block([[blocks[a][b].reshape(sizes[a], sizes[b]) for b in names] for a in names]) \
        if names else np.zeros((0, 0))
    with np.errstate(invalid="ignore"):
        finite = np.isfinite(full) & np.isfinite(full.T)
        magnitude = np.where(finite, np.maximum(np.abs(full), np.abs(full.T)), 0.0)
        difference = np.where(finite, np.abs(full - full.T), 0.0)
    scale = float(np.max(magnitude, initial=0.0))
    rounding = finite & (difference <= 1e-8 * magnitude + 1e-13 * scale)
    asymmetry = float(np.max(difference, where=rounding, initial=0.0))
    full = np.where(rounding, (full + full.T) / 2, full)
    row = 0
    for a in names:
        col = 0
        for b in names:
            blocks[a][b] = full[row : row + sizes[a], col : col + sizes[b]].reshape(shapes[a] + shapes[b])
            col += sizes[b]
        row += sizes[a]
    return asymmetry


# --- checking a gradient: gradcli/verify.py ---------------------------------------------------


def __getattr__(name: str) -> Any:
    """check, compare, finite_differences and Agreement, where the library has always had them.

    They live in gradcli/verify.py, imported when first asked for: `grad --json` never pays for it.
    """
    if name in ("Agreement", "check", "compare", "finite_differences"):
        from gradcli import verify

        return getattr(verify, name)
    raise AttributeError(f"module 'gradcli.autodiff' has no attribute {name!r}")
