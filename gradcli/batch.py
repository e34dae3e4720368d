"""Many points at once: grad, jvp and jacobian over a batch, in chunked, threaded sweeps.

Every array of a batch has a leading axis of points; the engine's `Batches` backend carries
it through the sweeps (the op table's rules never see it). `--points` reads session.CHUNK points at
a time and hands each block to these functions.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from gradcli.derivatives import (
    check_size,
    checked_tangents,
    engine_seeds,
    given_seeds,
    index_of,
    make_seeds,
    reverse_jacobian,
    targets,
)
from gradcli.engine import Batches, backward, forward, jvp_sweep
from gradcli.errors import Limits
from gradcli.inputs import literals
from gradcli.ops import Unit, call_forward
from gradcli.tape import APPLY, CONST, Node, Tape, check_shapes

Array = np.ndarray

# Points in one sweep: big enough that Python's work per sweep (~50 us) is small beside
# NumPy's, small enough that a sweep's arrays (128 KB each) stay in the cache.
SWEEP = 16_384
# ... and on several threads: each takes the GIL back after every NumPy call, and waits while another holds
# it, so the fewer the calls per point, the less they wait (a million points of log(x1*x2)*sin(x2) on 2
# threads: 24 ms at 32,768, 30 ms at 16,384; on one thread, 31 and 32 ms).
THREADED_SWEEP = 2 * SWEEP
# The first sweep, which checks the seeds, runs before the threads start: on several threads it is this short,
# so that the others do not wait a whole sweep for it.
FIRST_SWEEP = 1_024


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


def _size(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64))


def points_at_once(tape: Tape, columns: Mapping[str, Array], fixed: Mapping[str, Array] | None = None) -> int:
    """How many of these points a sweep with tangents or adjoints may take at once: their values
    and as many derivatives again stay within what one point may hold (GRADCLI_MAX_TAPE_ELEMENTS),
    worked out from the shapes before anything is computed."""
    fixed = fixed or {}
    per_point = check_shapes(tape, {name: np.shape(columns[name])[1:] if name in columns else np.shape(fixed[name])
                                    for name in tape.inputs if name in columns or name in fixed}) or 1
    return max(1, Limits.get("tape_elements") // (2 * per_point))


def jacobian_points_at_once(tape: Tape, columns: Mapping[str, Array], fixed: Mapping[str, Array] | None = None,
                            wrt: str | Sequence[str] | None = None) -> int:
    """How many of these points jacobian_batch may take at once: their Jacobians stay within
    the limit together, and their sweeps within the tape's (points_at_once). The Jacobian's size
    comes from the first point's shapes (one point is evaluated); past the limit for one point,
    the error."""
    fixed = fixed or {}
    first = {name: column[0] for name, column in columns.items() if len(column)}
    point = {**fixed, **first}
    literals.check_point(tape.inputs, point)
    values = forward(tape, point)
    roots, _, _, names = targets(tape, None, wrt)
    elements = sum(_size(np.shape(values[r])) for r in roots) * sum(_size(np.shape(values[index_of(tape, n)]))
                                                                    for n in names)
    check_size("Jacobian", elements, " per point")
    return max(1, min(Limits.get("jacobian") // max(1, elements), points_at_once(tape, columns, fixed)))


def jvp_batch(tape: Tape, columns: Mapping[str, Array], count: int, fixed: Mapping[str, Array] | None = None,
              tangent: Mapping[str, Array] | None = None) -> BatchResult:
    """`jvp` at `count` points at once, along the same tangent at every point."""
    fixed = fixed or {}
    literals.check_point(tape.inputs, {**fixed, **columns})
    backend = Batches(tape)
    values = forward(tape, _batch_point(tape, columns, fixed, 0, count), backend)
    given = checked_tangents(tape, tangent, {name: np.shape(values[i])[1:] for name, i in tape.inputs.items()})
    seeds = {tape.inputs[name]: np.broadcast_to(t, (count, *t.shape)) for name, t in given.items()}
    tangents = jvp_sweep(tape, values, seeds, max(tape.outputs), backend)
    outs = [backend.with_axis(values[r], r, count) for r in tape.outputs]
    per_root = [np.zeros(o.shape) if tangents[r] is None else backend.with_axis(np.asarray(tangents[r]), r, count)
                for r, o in zip(tape.outputs, outs, strict=True)]
    return BatchResult(outs, {}, tape.output_names, tape.is_tuple, "jvp", per_root)


def jacobian_batch(tape: Tape, columns: Mapping[str, Array], count: int, fixed: Mapping[str, Array] | None = None,
                   wrt: str | Sequence[str] | None = None) -> BatchResult:
    """`jacobian` at `count` points at once: one batched reverse sweep per output element."""
    fixed = fixed or {}
    literals.check_point(tape.inputs, {**fixed, **columns})
    roots, root_names, is_tuple, names = targets(tape, None, wrt)
    backend = Batches(tape)
    values = forward(tape, _batch_point(tape, columns, fixed, 0, count), backend)
    outs = [backend.with_axis(values[r], r, count) for r in roots]
    in_shapes = [np.shape(values[index_of(tape, n)])[backend.lead[index_of(tape, n)]:] for n in names]
    check_size("Jacobian", count * sum(_size(o.shape[1:]) for o in outs) * sum(_size(s) for s in in_shapes),
               f" for {count:,} points at once")
    per_root = reverse_jacobian(tape, values, roots, [o.shape[1:] for o in outs], names, in_shapes, count, backend)
    return BatchResult(outs, {}, root_names, is_tuple, "jacobian", per_root)


@dataclass(eq=False, repr=False)
class SummedElements:
    """A gradient taken as a batch whose points are the elements: the program's value, its gradients."""

    value: Array  # the final sum, as its row sums the elements (NumPy's pairwise order, as at one point)
    grad: dict[str, Array]  # name -> of the name's shape


def _elementwise_node(node: Node) -> bool:
    """An op whose value at an element reads that element of its args alone, as a float."""
    op = node.op
    return node.kind != APPLY or (op is not None and op.elementwise and op.shape is None and op.differentiable and
                                  not op.boolean and not op.parts and op.index_from is None)


def summed_elements(tape: Tape, point: Mapping[str, Array], wrt: str | Sequence[str] | None = None
                    ) -> SummedElements | None:
    """`grad` of a program that is elementwise up to a final sum of every element (`sum(log(x1*x2)*sin(x2))`),
    its inputs float64 arrays of one shape bigger than a sweep: each element a point of grad_batch's chunked,
    threaded sweeps, whose arrays stay in the cache. None where the program or the point is not such.

    Each element's value and gradient are the bits the sweep of the whole arrays gives (the ops are
    elementwise; the seed of the sum's elements is UNIT either way), and the final sum is the sum row's
    own, over the elements' values assembled in order: the same bits as at one point.
    """
    nodes = tape.nodes
    last = len(nodes) - 1
    total = nodes[last]
    if (tape.is_tuple or tape.outputs != (last,) or total.op is None or total.op.name != "sum"
            or total.params != {"dim": None, "keepdim": False} or tape.integer_inputs or tape.wants_shapes
            or tape.composite_calls or not tape.inputs):
        return None
    shapes = {np.shape(value) for value in point.values()}
    # (C's order: the elements' order of the whole arrays' final sum, which reads them in memory order)
    if len(shapes) != 1 or any(type(v) is not np.ndarray or v.dtype != np.float64 or not v.flags.c_contiguous
                               for v in point.values()):
        return None
    (shape,) = shapes
    count = _size(shape)
    if count <= SWEEP or not all(_elementwise_node(node) and (node.kind != CONST or node.value.ndim == 0)  # type: ignore[union-attr]
                                 for node in nodes[:last]):
        return None
    if check_shapes(tape, {name: shape for name in tape.inputs}) is None:  # (the limits, as the sweep checks them)
        return None
    (arg,) = total.args
    part = Tape(tape.source, nodes[:last], tape.inputs, {n: i for n, i in tape.names.items() if i < last}, (arg,),
                tape.output_names, False)
    if not Batches(part).lead[arg]:  # a sum of a constant: no element of the inputs in it
        return None
    batch = grad_batch(part, {name: point[name].reshape(count) for name in tape.inputs}, count, wrt=wrt)
    with np.errstate(all="ignore"):  # NaN and infinity follow IEEE, as in the sweeps
        value = call_forward(total.op, [batch.values[0].reshape(shape)], total.params, (0,))
    return SummedElements(value, {name: g.reshape(shape) for name, g in batch.grad.items()})


def grad_batch(
    tape: Tape,
    columns: Mapping[str, Array],
    count: int,
    fixed: Mapping[str, Array] | None = None,
    *,
    seed: Any = None,
    of: str | Sequence[str] | None = None,
    wrt: str | Sequence[str] | None = None,
    chunk: int | None = None,
    threads: int | None = None,
    warn_no_grad: bool = False,
) -> BatchResult:
    """`grad` at `count` points at once: `columns[name][i]` is input `name` at point i (`warn_no_grad`: as
    derivatives.grad's).

    Inputs missing from `columns` take their value from `fixed` at every point. The points
    go through the tape in chunks of `chunk` (default: SWEEP, THREADED_SWEEP on several threads),
    each one vectorised NumPy computation whose arrays stay in cache; no Python loop runs per
    point. Chunks run on `threads` threads (default: one per core, at most 4): NumPy lets go of
    the GIL inside its loops, and the chunks are independent, so the results are the same
    whatever the number of threads.
    """
    fixed = fixed or {}
    literals.check_point(tape.inputs, {**fixed, **columns})
    roots, root_names, is_tuple, wrt_names = targets(tape, of, wrt, warn_no_grad)
    given = given_seeds(seed, is_tuple)
    backend = Batches(tape)
    wrt_indices = [index_of(tape, name) for name in wrt_names]
    # A sweep holds each of its points' values (and adjoints): no more points at once, over all
    # the threads, than a one-point run may hold (GRADCLI_MAX_TAPE_ELEMENTS), however big each is.
    budget = Limits.get("tape_elements")
    per_point = check_shapes(tape, {name: np.shape(columns[name])[1:] if name in columns else np.shape(fixed[name])
                                    for name in tape.inputs}) or 1
    threads = threads or min(os.cpu_count() or 1, 4)
    chunk = max(1, min(chunk or (SWEEP if threads == 1 else THREADED_SWEEP), budget // per_point))

    def sweep(start: int, size: int, seeds_at_a_point: list[Array] | None
              ) -> tuple[list[Array], list[Array], list[Array | None], list[Array]]:
        values = forward(tape, _batch_point(tape, columns, fixed, start, size), backend)
        point_values = [backend.with_axis(values[r], r, size) for r in roots]
        if seeds_at_a_point is None:  # the first chunk: check the seeds against the output
            shapes = [v[0] for v in point_values] if size else [np.zeros(v.shape[1:]) for v in point_values]
            seeds_at_a_point = make_seeds(shapes, range(len(roots)), root_names, given)
        # The default seed is UNIT: no pass over the points multiplies by it (ops.Unit).
        seeds = [s if isinstance(s, Unit) else np.broadcast_to(s, (size, *s.shape))
                 for s in engine_seeds(seeds_at_a_point, given)]
        adjoints = backward(tape, values, roots, seeds, backend=backend)
        return values, point_values, [adjoints[i] for i in wrt_indices], seeds_at_a_point

    head = min(count, chunk if count <= chunk or threads == 1 else FIRST_SWEEP)
    values, point_values, first, point_seeds = sweep(0, head, None)
    point_shapes = [values[i].shape[backend.lead[i]:] for i in wrt_indices]
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

    def keep(start: int, size: int, point_values: list[Array], adjoints: list[Array | None]) -> None:
        stop = start + size
        for target, value in zip(out_values, point_values, strict=True):
            target[start:stop] = value
        for name, adjoint in zip(wrt_names, adjoints, strict=True):
            if adjoint is not None:
                out_grads[name][start:stop] = adjoint

    def run(start: int) -> None:
        size = min(chunk, count - start)
        _, point_values, adjoints, _ = sweep(start, size, point_seeds)
        keep(start, size, point_values, adjoints)

    keep(0, head, point_values, first)
    rest = range(head, count, chunk)
    workers = min(threads, len(rest), max(1, budget // (chunk * per_point)))
    if workers <= 1:
        for start in rest:
            run(start)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(workers) as pool:
            for _ in pool.map(run, rest):  # each chunk writes its own rows; errors come out here
                pass
    return BatchResult(out_values, out_grads, root_names, is_tuple)
