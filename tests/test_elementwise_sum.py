"""The library's grad of a program elementwise up to a final sum, at arrays, takes grad_batch's chunked
sweeps (batch.summed_elements): the same bits as the sweep of the whole arrays, over every elementwise row
of the op table at special and ordinary points, the final sum NumPy's pairwise order as at one point."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli import compile_program, grad, ops
from gradcli.batch import SWEEP, summed_elements
from gradcli.derivatives import Deferred
from gradcli.engine import backward, forward

EDGES = [-710.0, -25.0, -2.5, -1.0, -0.5, -0.0, 0.0, 5e-324, 1e-310, 0.3, 0.5, 1.0, 2.0, 21.0, 710.0, 1e300,
         -1e300, math.inf, -math.inf, math.nan, -math.nan]
COUNT = 2 * SWEEP + 123  # three sweeps, the last a short one


def _elementwise(op: ops.Op) -> bool:
    return (op.elementwise and op.shape is None and op.differentiable and not op.boolean and not op.parts
            and op.index_from is None and op.callable and op.examples != () and op.arity in (1, 2, 3))


ROWS = sorted((op for op in ops.OPS.values() if _elementwise(op)), key=lambda op: op.name)


def _program(op: ops.Op) -> str:
    return f"sum({ops.node_text(op, ['a', 'b', 'c'][: op.arity], op.examples[0][1])})"


def _point(arity: int, seed: int) -> dict[str, np.ndarray]:
    """Every combination of special values (a pair of them for two args), spread over the sweeps, the rest ordinary."""
    rng = np.random.default_rng(seed)
    columns = [rng.uniform(-3, 3, COUNT) for _ in range(arity)]
    edges = np.array(EDGES)
    grid = np.stack(np.meshgrid(*[edges] * min(arity, 2), indexing="ij"), -1).reshape(-1, min(arity, 2))
    places = rng.choice(COUNT, len(grid), replace=False)
    places[:2] = [SWEEP - 1, SWEEP]  # (either side of a sweep's end)
    for k in range(min(arity, 2)):
        columns[k][places] = grid[:, k]
    return dict(zip("abc", columns, strict=False))


def _bits(value: object) -> np.ndarray:
    return np.asarray(value, dtype=np.float64).view(np.int64)


def _same_bits(got: np.ndarray, want: np.ndarray, point: dict[str, np.ndarray], what: str) -> None:
    """Bit for bit, but for a NaN's sign where an input of that element is NaN: where two NaNs meet in an
    operation, which one comes out is the machine's choice of operand order, which NumPy's SIMD body and
    its scalar tail make differently (the same array gives either, as its start is aligned or not)."""
    same = _bits(got) == _bits(want)
    any_nan = np.any([np.isnan(column) for column in point.values()], axis=0)
    same |= any_nan & np.isnan(got) & np.isnan(want)
    assert same.all(), f"{what}: {np.flatnonzero(~same)[:5]}, {got[~same][:5]} != {want[~same][:5]}"


def _whole_arrays(tape, point):
    """Today's way: one forward and one reverse sweep of the whole arrays."""
    values = forward(tape, point)
    return values, backward(tape, values, tape.outputs, [ops.UNIT])


@pytest.mark.parametrize("op", ROWS, ids=lambda op: op.name)
def test_chunked_sweeps_give_the_bits_of_the_whole_arrays(op):
    tape = compile_program(_program(op))
    point = _point(len(tape.inputs), len(op.name))
    point = {name: point[name] for name in tape.inputs}
    summed = summed_elements(tape, point)
    assert summed is not None, f"{_program(op)} is elementwise up to its sum: the chunked way takes it"
    values, adjoints = _whole_arrays(tape, point)
    anywhere = {name: np.full(1, np.nan if np.isnan(column).any() else 0.0) for name, column in point.items()}
    _same_bits(np.reshape(summed.value, 1), np.reshape(values[-1], 1), anywhere, f"{_program(op)}: value")
    for name, index in tape.inputs.items():
        whole = np.zeros(COUNT) if adjoints[index] is None else adjoints[index]
        _same_bits(summed.grad[name], whole, point, f"{_program(op)}: grad {name}")


def test_the_final_sum_is_numpys_pairwise_sum_of_the_elements():
    # The order of the final sum is the one a single sweep has (the sum row's: NumPy's pairwise for
    # float64), not a sum of the sweeps' sums: it is held to np.sum of the elements, computed apart.
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, COUNT) * 10.0 ** rng.integers(-8, 8, COUNT)
    b = rng.uniform(0.5, 1.5, COUNT)
    result = grad("sum(a*b + a/b)", at={"a": a, "b": b})
    assert isinstance(result.values, Deferred)
    assert _bits(result.value) == _bits(np.sum(a * b + a / b))
    chunks = sum(np.sum(a[i : i + SWEEP] * b[i : i + SWEEP] + a[i : i + SWEEP] / b[i : i + SWEEP])
                 for i in range(0, COUNT, SWEEP))
    assert _bits(result.value) != _bits(chunks)  # (so the test can tell the two orders apart)
    np.testing.assert_array_equal(result.grad["a"], b + 1.0 / b)


def test_the_result_reads_every_node_as_the_whole_sweep_has_it():
    # Views and --paths read every node's value and adjoint: computed when first read, the same bits.
    rng = np.random.default_rng(4)
    point = {"x1": rng.uniform(0.5, 1.5, COUNT), "x2": rng.uniform(0.5, 1.5, COUNT)}
    result = grad("sum(log(x1*x2)*sin(x2))", at=point)
    assert isinstance(result.values, Deferred) and isinstance(result.adjoints, Deferred)
    values, adjoints = _whole_arrays(result.tape, result.point)
    assert len(result.values) == len(values) == len(result.adjoints)
    for index in range(len(values)):
        np.testing.assert_array_equal(_bits(result.values[index]), _bits(values[index]))
        np.testing.assert_array_equal(_bits(result.adjoints[index]), _bits(adjoints[index]))
    assert result.warnings == []


def test_a_nan_is_traced_to_where_it_starts_as_without_chunks():
    rng = np.random.default_rng(5)
    point = {"x": rng.uniform(0.5, 1.5, COUNT), "y": rng.uniform(0.5, 1.5, COUNT)}
    point["x"][SWEEP + 7] = -1.0
    chunked = grad("sum(sqrt(x) * y)", at=point)
    whole = grad("sum(sqrt(x) * y)", at=point, trace=True)  # (a trace takes the whole arrays' way)
    assert isinstance(chunked.values, Deferred) and not isinstance(whole.values, Deferred)
    assert chunked.warnings == whole.warnings and len(chunked.warnings) == 3
    assert _bits(chunked.value) == _bits(whole.value)


@pytest.mark.parametrize("program, at", [
    ("sum(x*y)", {"x": np.ones(COUNT), "y": 2.0}),  # inputs of different shapes
    ("sum(x*y)", {"x": np.ones(SWEEP), "y": np.ones(SWEEP)}),  # one sweep's worth: nothing to gain
    ("sum(x*y, 0)", {"x": np.ones(COUNT), "y": np.ones(COUNT)}),  # a sum over a dim
    ("sum(cumsum(x, 0) * y)", {"x": np.ones(COUNT), "y": np.ones(COUNT)}),  # not elementwise
    ("sum(where(x > 0, x, y))", {"x": np.ones(COUNT), "y": np.ones(COUNT)}),  # a mask
    ("y = x*3; sum(2.0)", {"x": np.ones(COUNT)}),  # a sum of a constant
    ("sum(x * tensor([1.0, 2.0]))", {"x": np.ones((COUNT, 2))}),  # a constant array
    ("sum(x*y)", {"x": np.asfortranarray(np.ones((COUNT, 2))), "y": np.ones((COUNT, 2))}),  # Fortran's order
])
def test_what_is_not_elementwise_up_to_a_sum_takes_the_whole_arrays(program, at):
    tape = compile_program(program)
    point = {name: np.asarray(value, dtype=float) for name, value in at.items()}
    assert summed_elements(tape, point) is None


def test_the_callers_arrays_are_read_where_they_are_and_left_as_they_were():
    rng = np.random.default_rng(8)
    x, y = rng.uniform(0.5, 1.5, COUNT), rng.uniform(0.5, 1.5, COUNT)
    kept = x.copy(), y.copy()
    result = grad("sum(x * y + sin(y))", at={"x": x, "y": y})
    assert isinstance(result.values, Deferred)  # (the chunked sweeps)
    assert _bits(x).tolist() == _bits(kept[0]).tolist() and _bits(y).tolist() == _bits(kept[1]).tolist()
    assert not np.shares_memory(result.grad["x"], y)  # d/dx of x * y is y's values, in an array of the result's own
    np.testing.assert_array_equal(_bits(result.grad["x"]), _bits(y))
    # an array that is not float64 in C's order is read as its float64 copy: the same bits
    strided = np.empty(2 * COUNT)
    strided[::2] = x
    for other in (strided[::2], x.astype(np.float32).astype(np.float64).astype(object)):
        again = grad("sum(x * y + sin(y))", at={"x": other, "y": y})
        want = grad("sum(x * y + sin(y))", at={"x": np.array(other, dtype=float), "y": y})
        np.testing.assert_array_equal(_bits(again.grad["y"]), _bits(want.grad["y"]))
        assert _bits(again.value) == _bits(want.value)
