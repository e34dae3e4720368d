"""The float rules (numbers only, on Python floats) against the NumPy rules, op by op.

A program of numbers runs its sweeps on Python floats; every float rule must give what the
NumPy rule gives, or hand the case back to NumPy. These tests compare both sweeps on every
op with float rules, at ordinary points and at the edges (zeros of both signs, infinities,
NaN, overflow, domain errors).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradcli import compile_program, grad, ops
from gradcli.batch import grad_batch
from gradcli.engine import forward
from gradcli.tape import Tape
from tests.helpers import cli
from tests.programs import random_program

EDGES = [-710.0, -25.0, -2.5, -1.0, -0.5, -0.0, 0.0, 1e-310, 0.3, 1.0, 2.0, 21.0, 710.0, 1e300,
         math.inf, -math.inf, math.nan]
PAIR_EDGES = [-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 1e300, math.inf, -math.inf, math.nan]
FLOAT_OPS = [op for op in ops.OPS.values() if op.floats is not None]
WHOLE = [0.0, 1.0, 2.0, 3.0]  # an index arg's values (polygamma's order n)


def program_of(op: ops.Op) -> str:
    return ops.node_text(op, ["a", "b", "c"][: op.arity], op.examples[0][1])  # (clamp needs min or max)


def _edges(op: ops.Op) -> tuple[int, list[list[float]]]:
    """(how many args are floats, each arg's special values): the args from op.index_from on are
    indices (polygamma's n), whole numbers."""
    floating = op.arity if op.index_from is None else op.index_from
    return floating, [EDGES if op.arity == 1 else PAIR_EDGES] * floating + [WHOLE] * (op.arity - floating)


def _whole(rng: np.random.Generator, count: int) -> tuple[float, ...]:
    return tuple(rng.integers(0, 4, count) * 1.0)


def same(x: float, y: float) -> bool:
    """Equal as IEEE numbers, zeros' signs included, up to the rounding of libm against NumPy's
    own math functions (a last-place difference in expm1 grows in its derivative, ans + 1)."""
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y) or x == 0 or y == 0:
        return x == y and math.copysign(1, x) == math.copysign(1, y)
    return abs(x - y) <= 1e-13 * max(abs(x), abs(y))


def numpy_only(tape: Tape) -> Tape:
    return dataclasses.replace(tape, floats=False)


def test_every_elementwise_op_has_float_rules():
    # The engine takes the float sweeps only for programs whose every op has them.
    missing = [op.name for op in ops.OPS.values() if op.elementwise and op.floats is None]
    assert missing == []


@pytest.mark.parametrize("op", FLOAT_OPS, ids=lambda op: op.name)
def test_float_rules_give_what_numpy_gives(op):
    source = program_of(op)
    tape = compile_program(source)
    assert tape.floats
    floating, edges = _edges(op)
    points = itertools.product(*edges)
    rng = np.random.default_rng(5)
    ordinary = [tuple(rng.uniform(-3, 3, floating)) + _whole(rng, op.arity - floating) for _ in range(50)]
    for values in [*points, *ordinary]:
        at = dict(zip(("a", "b", "c"), values, strict=False))
        fast, slow = grad(tape, at=at), grad(numpy_only(tape), at=at)
        assert same(float(fast.value), float(slow.value)), (source, at, fast.value, slow.value)
        assert fast.grad.keys() == slow.grad.keys()  # (an integer input has no entry)
        for name in fast.grad:
            assert same(float(fast.grad[name]), float(slow.grad[name])), (source, at, name, fast.grad, slow.grad)


def test_numbers_run_on_floats_and_give_numpy_scalars():
    tape = compile_program("log(x1*x2)*sin(x2)")
    at = {"x1": np.asarray(0.5), "x2": np.asarray(0.75)}
    values = forward(tape, at)
    assert all(type(v) is np.float64 for v in values)
    result = grad(tape, at=at)
    assert type(result.adjoints[tape.inputs["x1"]]) is np.float64
    assert float(result.grad["x1"]) == pytest.approx(1.3632775200466682, rel=1e-15)


def test_a_domain_error_in_the_float_sweep_falls_back_to_numpy():
    # math.log(0) raises where np.log(0) is -inf; 1/0 raises where NumPy gives inf.
    result = grad("log(x) + 1/y", at={"x": 0.0, "y": 0.0})
    assert math.isnan(float(result.value))  # -inf + inf
    assert float(result.grad["x"]) == math.inf and float(result.grad["y"]) == -math.inf


@pytest.mark.parametrize(("source", "at"), [
    ("sum(x) * y", {"x": 2.0, "y": 3.0}),  # an op without float rules
    ("x * [1, 2]", {"x": 2.0}),  # a constant that is not a number
    ("x * y", {"x": [1.0, 2.0], "y": 3.0}),  # a point that is not all numbers
])
def test_programs_beyond_numbers_take_the_numpy_sweeps(source, at):
    tape = compile_program(source)
    result = grad(tape, at=at, seed="ones")
    reference = grad(numpy_only(tape), at=at, seed="ones")
    for name in tape.inputs:
        np.testing.assert_array_equal(result.grad[name], reference.grad[name])


# --- the same bits as --points -----------------------------------------------------------------
# The one-point sweep must not rely on math.* agreeing with NumPy (NumPy's exp, log, sin, pow...
# may be SIMD code of its own, and differ from libm in the last place): the float rules call
# the NumPy ufuncs on Python floats, which run the same loops as on an array.


def identical(x: float, y: float) -> bool:
    """The same IEEE number: NaN is NaN, and a zero keeps its sign."""
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y and math.copysign(1, x) == math.copysign(1, y)


def test_one_point_gives_the_bits_that_points_gives():
    # The case: math.exp(0.017522913084037528) ends in ...336, NumPy's in ...334.
    x = 0.017522913084037528
    alone = cli("grad", "exp(x)", "--at", f"x={x!r}", "--json").json()
    batch = json.loads(cli("grad", "exp(x)", "--points", "-", "--json", stdin=f"x\n{x!r}\n").stdout)
    assert alone["value"] == batch["value"] == float(np.exp(np.array([x]))[0])
    assert alone["grad"] == batch["grad"]


@pytest.mark.parametrize("op", FLOAT_OPS, ids=lambda op: op.name)
def test_float_rules_give_the_bits_of_the_batch_sweep(op):
    source = program_of(op)
    tape = compile_program(source)
    rng = np.random.default_rng(11)
    floating, edges = _edges(op)
    special = list(itertools.product(*edges))
    ordinary = [tuple(v) + _whole(rng, op.arity - floating) for v in rng.uniform(-3, 3, (400, floating))]
    ordinary += [tuple(v) + _whole(rng, op.arity - floating)  # pow's special exponents
                 for v in rng.choice([0.5, 2.0, -1.0, 3.0], (20, floating))]
    points = special + ordinary
    names = [name for name in tape.inputs if name not in tape.integer_inputs]
    columns = {name: np.array([p[i] for p in points]) for i, name in enumerate(("a", "b", "c")[: op.arity])}
    batch = grad_batch(tape, columns, len(points))
    for k, values in enumerate(points):
        at = dict(zip(("a", "b", "c"), values, strict=False))
        alone = grad(tape, at=at)
        assert identical(float(alone.value), float(batch.values[0][k])), (source, at, alone.value, batch.values[0][k])
        for name in names:
            assert identical(float(alone.grad[name]), float(batch.grad[name][k])), (source, at, name)


# Random programs of numbers over every op with float rules, at ordinary and special points:
# one point at a time (the float sweep, or NumPy on scalars where it hands back) against the
# batch sweep of --points, bit for bit.
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -2.5, 20.0, 21.0, -40.0, 1e-300, 5e-324, 1e300, -1e300, 710.0,
           math.inf, -math.inf, math.nan]
LEAVES = ["a", "b", "c", "0.5", "2", "3", "1e-300"]


def _call(op: ops.Op, args: list[str]) -> str:
    if op.symbol is not None and op.arity == 2:
        return f"({args[0]} {op.symbol} {args[1]})"
    if op.symbol is not None:
        return f"({op.symbol}{args[0]})"
    return ops.node_text(op, args, op.examples[0][1])  # (with the params clamp needs)


@st.composite
def float_programs(draw, depth: int = 0):
    if depth >= 4 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(LEAVES))
    op = draw(st.sampled_from(FLOAT_OPS))
    floating = op.arity if op.index_from is None else op.index_from  # (then indices: polygamma's n)
    return _call(op, [draw(float_programs(depth + 1)) if i < floating else draw(st.sampled_from(["0", "1", "2", "3"]))
                      for i in range(op.arity)])


@st.composite
def generated_programs(draw):
    """A program of random_program's kind (several statements, shared paths), from a seed."""
    return random_program(np.random.default_rng(draw(st.integers(0, 2**32 - 1))), ["a", "b", "c"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_one_point_gives_the_bits_of_the_batch_on_random_programs(data):
    program = data.draw(st.one_of(float_programs(), generated_programs()))
    tape = compile_program(program)
    numbers = st.one_of(st.sampled_from(SPECIAL), st.floats(-30, 30), st.floats(allow_nan=True, allow_infinity=True))
    count = data.draw(st.integers(1, 4))
    columns = {name: np.array([data.draw(numbers) for _ in range(count)]) for name in tape.inputs}
    batch = grad_batch(tape, columns, count)
    for k in range(count):
        at = {name: float(column[k]) for name, column in columns.items()}
        alone = grad(tape, at=at)
        assert identical(float(alone.value), float(batch.values[0][k])), (program, at, alone.value, batch.values[0][k])
        for name in tape.inputs:
            assert identical(float(alone.grad[name]), float(batch.grad[name][k])), (program, at, name)
