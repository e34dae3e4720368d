"""The float rules (numbers only, on Python floats) against the NumPy rules, op by op.

A program of numbers runs its sweeps on Python floats; every float rule must give what the
NumPy rule gives, or hand the case back to NumPy. These tests compare both sweeps on every
op with float rules, at ordinary points and at the edges (zeros of both signs, infinities,
NaN, overflow, domain errors).
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from gradcli import compile_program, grad, ops
from gradcli.tape import Tape, forward

EDGES = [-710.0, -25.0, -2.5, -1.0, -0.5, -0.0, 0.0, 1e-310, 0.3, 1.0, 2.0, 21.0, 710.0, 1e300,
         math.inf, -math.inf, math.nan]
PAIR_EDGES = [-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, 1e300, math.inf, -math.inf, math.nan]
FLOAT_OPS = [op for op in ops.OPS.values() if op.floats is not None]


def program_of(op: ops.Op) -> str:
    if op.symbol is not None and op.arity == 2:
        return f"a {op.symbol} b"
    if op.symbol is not None:
        return f"{op.symbol}a"
    return f"{op.name}(a, b)" if op.arity == 2 else f"{op.name}(a)"


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
    points = itertools.product(EDGES if op.arity == 1 else PAIR_EDGES, repeat=op.arity)
    rng = np.random.default_rng(5)
    ordinary = [tuple(rng.uniform(-3, 3, op.arity)) for _ in range(50)]
    for values in [*points, *ordinary]:
        at = dict(zip(("a", "b"), values, strict=False))
        fast, slow = grad(tape, at=at), grad(numpy_only(tape), at=at)
        assert same(float(fast.value), float(slow.value)), (source, at, fast.value, slow.value)
        for name in tape.inputs:
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
