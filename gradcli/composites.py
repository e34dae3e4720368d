"""The rules of a composite row (ops.core.composite), derived from its program of rows.

The tape never holds a composite: every front end lowers it into its parts. Whoever calls the
row alone -- the table's tests, a fold of constants -- gets these rules, which build the
program's own small tape once per set of params and sweep it with the engine: the value, the
VJP and the JVP of the parts, never a derivative written for the whole. The batch axes a rule
is given (`ranks`, as for every row that is not elementwise) become the leading axes of the
program's inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from gradcli.ops.core import Rule, rule_params

Array = np.ndarray


class Rules:
    """forward, vjp and jvp of one composite, with the signatures of a structural row's rules."""

    def __init__(self, program: Rule, arity: int) -> None:
        self.program, self.arity = program, arity
        self.tapes: dict[tuple[Any, ...], Any] = {}

    def tape(self, params: dict[str, Any], count: int, shapes: tuple[Any, ...] | None = None) -> Any:
        """The program's tape for these params (and, for a row of any number of args (einsum), this many); where
        its graph depends on the args' shapes (Emitter.shape: matrix_norm's permutation), the tape of these."""
        arity = count if self.arity < 0 else self.arity
        key = (arity, *sorted((name, repr(value)) for name, value in params.items()))
        if key not in self.tapes:
            self.tapes[key] = _program_tape(self.program, arity, params)
        tape = self.tapes[key]
        if not tape.wants_shapes or shapes is None:
            return tape
        if (key, shapes) not in self.tapes:
            self.tapes[(key, shapes)] = _program_tape(self.program, arity, params, shapes)
        return self.tapes[(key, shapes)]

    def sweep(self, args: tuple[Any, ...], ranks: tuple[int, ...] | None, params: dict[str, Any],
              on_floats: bool = False) -> tuple[Any, list[Any], Any]:
        """The program's values at `args`; `ranks` None: an elementwise composite (no batch axes to
        tell: its parts broadcast), on Python floats where `on_floats`."""
        from gradcli import engine

        shapes = None if ranks is None else tuple(np.shape(a)[np.ndim(a) - rank:] for a, rank in zip(args, ranks, strict=True))
        tape = self.tape(params, len(args), shapes)
        if on_floats:
            backend = engine.FLOATS
            at: dict[str, Any] = {f"a{i}": a for i, a in enumerate(args)}
            return tape, engine.sweep_forward(tape, at, backend), backend
        leads = [0] * len(args) if ranks is None else [np.ndim(a) - rank for a, rank in zip(args, ranks, strict=True)]
        backend = _Leads(tape, leads)
        at = {f"a{i}": np.asarray(a) for i, a in enumerate(args)}
        return tape, engine.sweep_forward(tape, at, backend), backend

    def forward(self, *args: Array, ranks: tuple[int, ...] | None = None, **params: Any) -> Array:
        tape, values, backend = self.sweep(args, ranks, params)
        return _with_batch(np.asarray(values[tape.outputs[0]]), tape, backend, args, ranks)

    def vjp(self, g: Array, ans: Array, *args: Array, ranks: tuple[int, ...] | None = None,
            **params: Any) -> tuple[Any, ...]:
        from gradcli import engine

        tape, values, backend = self.sweep(args, ranks, params)
        if _batch_of(tape, backend, args, ranks):  # (an output the same at every point: its cotangents add up)
            g = np.sum(g, axis=0)
        adjoints = engine.sweep_backward(tape, values, [tape.outputs[0]], [g], backend)
        return tuple(_input_part(tape, adjoints, i, np.broadcast_shapes(np.shape(ans), np.shape(a)) if ranks is None
                                 else np.shape(a)) for i, a in enumerate(args))

    def float_forward(self, *args: float, **params: Any) -> float:
        tape, values, _ = self.sweep(args, None, params, on_floats=True)
        return values[tape.outputs[0]]

    def float_vjp(self, g: float, ans: float, *args: float, **params: Any) -> tuple[Any, ...]:
        from gradcli import engine

        tape, values, backend = self.sweep(args, None, params, on_floats=True)
        adjoints = engine.sweep_backward(tape, values, [tape.outputs[0]], [g], backend)
        return tuple(0.0 if tape.inputs.get(f"a{i}") is None or adjoints[tape.inputs[f"a{i}"]] is None
                     else adjoints[tape.inputs[f"a{i}"]] for i in range(len(args)))

    def sympy(self, *args: Any, **params: Any) -> Any:
        """The SymPy expression: the program run on the parts' own SymPy builders."""
        from gradcli.ops import OPS
        from gradcli.symbolic import apply_rule

        def emit(row: str, *parts: Any, **given: Any) -> Any:
            op = OPS[row]
            return apply_rule(op, [np.asarray(part, dtype=object) for part in parts],
                              rule_params(op, given) if op.params else {})

        emit.shape = np.shape  # type: ignore[attr-defined]  # (every shape is known here)
        emit.given = lambda value: True  # type: ignore[attr-defined]  # (every arg is given here)
        emit.tensor = lambda value: np.asarray(value, dtype=object)  # type: ignore[attr-defined]
        emit.dtype = lambda value: "float64"  # type: ignore[attr-defined]  # (a program's every value is)
        emit.requires_grad = lambda value: True  # type: ignore[attr-defined]
        out = self.program(emit, *args, **params)
        return out.item() if not any(isinstance(a, np.ndarray) for a in args) else out

    def jvp(self, tangents: Any, ans: Array, *args: Array, ranks: tuple[int, ...] | None = None,
            **params: Any) -> Array:
        from gradcli import engine

        tape, values, backend = self.sweep(args, ranks, params)
        given = {tape.inputs[f"a{i}"]: t for i, t in enumerate(tangents) if t is not None and f"a{i}" in tape.inputs}
        out = tape.outputs[0]
        result = engine.jvp_sweep(tape, values, given, out, backend)[out]
        return np.zeros_like(ans) if result is None else _with_batch(result, tape, backend, args, ranks)


def _batch_of(tape: Any, backend: Any, args: tuple[Any, ...], ranks: tuple[int, ...] | None) -> int:
    """The number of points where the args carry a batch axis and the output depends on none of them
    (meshgrid's second grid, of a batch of first args): 0 where it has the axis itself."""
    if ranks is None or backend.lead[tape.outputs[0]]:
        return 0
    return next((np.shape(a)[0] for a, rank in zip(args, ranks, strict=True) if np.ndim(a) > rank), 0)


def _with_batch(value: Any, tape: Any, backend: Any, args: tuple[Any, ...], ranks: tuple[int, ...] | None) -> Any:
    count = _batch_of(tape, backend, args, ranks)
    return np.broadcast_to(value, (count, *np.shape(value))) if count else value


def _input_part(tape: Any, adjoints: Sequence[Any], i: int, shape: tuple[int, ...]) -> Any:
    index = tape.inputs.get(f"a{i}")
    adjoint = None if index is None else adjoints[index]
    return np.zeros(shape) if adjoint is None else np.broadcast_to(np.asarray(adjoint, dtype=float), shape)


def _program_tape(program: Rule, arity: int, params: dict[str, Any], shapes: tuple[Any, ...] | None = None) -> Any:
    from gradcli.tape import TapeSink

    sink = TapeSink("", set(), None if shapes is None else {((0, 0), ""): shapes})
    inputs = [sink.name(f"a{i}", (0, 0)) for i in range(arity)]
    out = program(sink.emitter((0, 0), [i for i in inputs if isinstance(i, int)]), *inputs, **params)
    sink.statement(None, out, (0, 0))
    tape = sink.finish()
    tape.wants_shapes = sink.wants_shapes
    return tape


def _leads_of(tape: Any, input_leads: list[int]) -> list[int]:
    lead: list[int] = []
    by_input = {index: input_leads[int(name[1:])] for name, index in tape.inputs.items()}
    for node in tape.nodes:
        lead.append(by_input.get(node.index, 0) or int(any(lead[a] for a in node.args)))
    return lead


@cache
def _backend_class() -> Any:
    from gradcli.engine import Backend

    class Leads(Backend):
        """The engine's backend for a composite's tape: NumPy arrays, its inputs' leading axes as given."""

        def __init__(self, tape: Any, input_leads: list[int]) -> None:
            self.lead = _leads_of(tape, input_leads)

        def check(self, tape: Any, at: Any) -> None:
            pass  # (the composite's call was checked as a whole)

        def leads(self, node: Any) -> tuple[int, ...]:
            return tuple([self.lead[a] for a in node.args])

        def failed(self, tape: Any, node: Any, args: Any, problem: Exception) -> Any:
            raise problem  # (the composite's own node says it, at the call the program wrote: its tape has no text)

    return Leads


def _Leads(tape: Any, input_leads: list[int]) -> Any:
    return _backend_class()(tape, input_leads)
