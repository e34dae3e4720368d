"""Every row of the op table, checked in tests generated from the table.

The programs are written by the rows themselves (their print rule), at the shapes each row
gives in `examples`, sampled in its `domain` (away from its kinks where it is `kinked`). A
new row is tested the moment it is added: its derivative against central differences, its
VJP and JVP as each other's transpose, its rules on a batch of points against one point at a
time, SymPy's derivative, and the Hessian's dual numbers against differences of the gradient.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
import pytest

from gradcli import grad
from gradcli.autodiff import hessian
from gradcli.derivatives import _prepare, targets
from gradcli.ops import OPS, Op, call_forward, call_jvp, call_vjp, node_text, recurrent, unbroadcast, writes
from gradcli.tape import compile_program
from tests.helpers import central_difference, sampled

NAMES = "abcdfghi"  # (no e: a program's e is the constant)
# Programs of more than one op, beyond what one row's examples reach.
COMPOSITES = [("stack", "[a, 2*a, b]", {"a": (3,), "b": (3,)}), ("stack", "[[a, b], [b, a]]", {"a": (), "b": ()})]


def _program(op: Op, shapes: tuple[tuple[int, ...], ...], params: dict[str, Any]) -> str:
    return node_text(op, list(NAMES[: len(shapes)]), params)


def _cases() -> list[tuple[str, str, dict[str, tuple[int, ...]]]]:
    cases = [(op.name, _program(op, shapes, params), dict(zip(NAMES, shapes, strict=False)))
             for op in OPS.values() for shapes, params in op.examples if op.reference is not None]
    return cases + COMPOSITES


# Rows no program calls by themselves: parts of composites (Op.reference None), checked through them.
PARTS = {op.name for op in OPS.values() if op.reference is None}
# ... and the rows only `gradcli run` records (a write into a tensor with a graph, oneDNN's fused LSTM layer),
# held to PyTorch by the run cases (tests/run_cases/writes_into_tensors_with_a_graph.py, recurrent_modules.py).
RUN_ROWS = {op.name for module in (writes, recurrent) for op in module.ROWS}


CASES = _cases()


def test_every_op_is_covered():
    covered = {name for name, _, _ in CASES}
    assert covered | PARTS == set(OPS)


def test_every_part_is_a_part_of_a_composite():
    used = set()
    for op in OPS.values():
        for shapes, params in op.examples if op.program is not None else ():
            program = _program(op, shapes, params)
            tape = compile_program(program)
            used |= {node.op.name for node in tape.nodes if node.op is not None}
            if tape.wants_shapes:  # a graph that depends on the shapes (tensordot): at a point of these shapes
                rng = np.random.default_rng(0)  # (numbers, not one number everywhere: a matrix must not be singular)
                point = {name: np.zeros(shape) if i >= (op.index_from or len(shapes)) else rng.uniform(0.5, 1.5, shape)
                         for i, (name, shape) in enumerate(zip(NAMES, shapes, strict=False))}  # (an index: 0)
                tape = _prepare(program, point)[0]
                used |= {node.op.name for node in tape.nodes if node.op is not None}
    # (a composite a call of a row with a reference resolves to, Op.overloads: binary_cross_entropy_with_logits with
    # weight= or pos_weight=, is called through that row; tests/run_cases/bce_with_logits_weights.py holds it)
    used |= {name for op in OPS.values() if op.reference is not None for name in op.overloads if OPS[name].program}
    # (a row another spelling of a row resolves to, Op.dialects: np.sort is sort_values, tests/test_lowering.py holds it)
    used |= {d.row for op in OPS.values() if op.reference is not None for d in op.dialects if d.row and not OPS[d.row].program}
    # (a row NumPy's spelling of a row resolves to, np.dot's numpy_dot: NumPy's, with no PyTorch reference;
    # tests/test_numpy_spellings.py holds it to NumPy and to differences)
    used |= {d.row for op in OPS.values() for d in op.dialects if d.row and d.family == "numpy"}
    used |= {op.name for op in OPS.values() for d in op.dialects if d.family == "numpy" and not d.row and not op.callable}
    # (a row a param's value rebinds such a row's call to, Op.rebinds: np.linalg.svd(m, compute_uv=False) is
    # numpy_svdvals; tests/test_numpy_spellings.py holds it to NumPy)
    used |= {row for op in OPS.values() if op.name in used for _, _, row in op.rebinds}
    assert PARTS - RUN_ROWS <= used


def _sample(op_name: str, shapes: dict[str, tuple[int, ...]], rng: np.random.Generator) -> dict[str, np.ndarray]:
    op = OPS[op_name]
    ranges = op.domain or ()
    point = {}
    for position, (name, shape) in enumerate(shapes.items()):
        low, high = ranges[position] if position < len(ranges) else (-2.0, 2.0)
        value = rng.uniform(low, high, size=shape)
        if op.kinked:  # keep away from 0 and from ties, where only a subgradient exists
            value = np.sign(value) * (0.3 + np.abs(value)) + 0.37 * position
        point[name] = np.asarray(value)
    return point


_TAPES: dict[str, Any] = {}


def _evaluate(program: str, point: dict[str, np.ndarray]) -> np.ndarray:
    """The program's value at the point: the forward sweep alone (what grad's value is), its tape compiled once
    (the differences evaluate it twice an element)."""
    tape = _TAPES.get(program)
    if tape is None:
        tape = _TAPES[program] = compile_program(program)
    tape, _, values = _prepare(tape, point)
    roots = targets(tape, None, None)[0]
    return np.asarray(values[roots[0]] if len(roots) == 1 else [values[root] for root in roots])


# args whose gradient is PyTorch's recorded one, which is not its forward mode's transpose (PyTorch 2.13's
# as_strided_scatter_backward gives x the written region's g; its forward mode, and finite differences, the rest):
# held to PyTorch's values by tests/test_op_db.py instead
NOT_A_TRANSPOSE = {"as_strided_scatter": (0,)}


@pytest.mark.parametrize(("op_name", "program", "shapes"), sampled(CASES, lambda c: c[0]),
                         ids=[f"{c[0]}:{c[1]}:{list(c[2].values())}" for c in sampled(CASES, lambda c: c[0])])
def test_vjp_matches_central_differences(op_name, program, shapes):
    rng = np.random.default_rng(zlib.crc32(f"{program}{shapes}".encode()))
    for _ in range(3):  # several points
        point = _sample(op_name, shapes, rng)
        output = _evaluate(program, point)
        seed = rng.normal(size=output.shape)
        result = grad(program, at=point, seed=seed.tolist() if seed.shape else float(seed))
        names = list(shapes)
        arrays = [point[n] for n in names]

        def weighted(args: list[np.ndarray], seed: np.ndarray = seed, names: list[str] = names) -> float:
            return float(np.sum(seed * _evaluate(program, dict(zip(names, args, strict=True)))))

        for which, name in enumerate(names):
            if which >= (OPS[op_name].index_from or len(names)):  # an index: an integer input, no gradient
                assert name not in result.grad
                continue
            if which in OPS[op_name].conditions and not np.any(result.grad[name]):
                continue  # no gradient flows into it, as in PyTorch (soft_margin_loss's target)
            if which in NOT_A_TRANSPOSE.get(op_name, ()):
                continue
            expected = central_difference(weighted, arrays, which)
            assert result.grad[name].shape == point[name].shape
            np.testing.assert_allclose(result.grad[name], expected, rtol=1e-5, atol=1e-6, err_msg=f"d/d{name} of {program}")


ROW_CASES = [pytest.param(op, shapes, params, id=f"{op.name}{list(shapes)}{params or ''}")
             for op in OPS.values() for shapes, params in op.examples]


def _row_point(op: Op, shapes: tuple[tuple[int, ...], ...], rng: np.random.Generator) -> list[np.ndarray]:
    return list(_sample(op.name, dict(zip(NAMES, shapes, strict=False)), rng).values())


@pytest.mark.parametrize(("op", "shapes", "params"), ROW_CASES)
def test_jvp_and_vjp_agree_as_a_transpose(op, shapes, params):
    # <g, J t> == <J^T g, t>: the JVP rule and the VJP rule describe the same Jacobian.
    rng = np.random.default_rng(7)
    args = _row_point(op, shapes, rng)
    leads = [0] * len(args)
    with np.errstate(all="ignore"):
        ans = np.asarray(call_forward(op, args, params, leads))
        tangents = [rng.normal(size=a.shape) * (i not in NOT_A_TRANSPOSE.get(op.name, ())) for i, a in enumerate(args)]
        g = rng.normal(size=ans.shape)
        forward_side = float(np.sum(g * call_jvp(op, tangents, ans, args, params, leads)))
        cotangents = call_vjp(op, g, ans, args, params, leads, [True] * len(args))
    backward_side = sum(float(np.sum(unbroadcast(np.asarray(c), t.shape) * t))
                        for c, t in zip(cotangents, tangents, strict=True) if c is not None)  # (None: an index's)
    assert forward_side == pytest.approx(backward_side, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(("op", "shapes", "params"), ROW_CASES)
def test_a_batch_of_points_gives_what_each_point_gives(op, shapes, params):
    # Rules never see a batch: the first arg carries a leading axis of 3 points, the others
    # are the same at every point; value, VJP and JVP are those of each point alone.
    rng = np.random.default_rng(3)
    points = [_row_point(op, shapes, rng) for _ in range(3)]
    batch = [np.stack([p[0] for p in points]), *points[0][1:]]
    leads = [1] + [0] * (len(shapes) - 1)
    with np.errstate(all="ignore"):
        ans = call_forward(op, batch, params, leads)
        g = rng.normal(size=np.shape(ans))
        tangent = rng.normal(size=batch[0].shape)
        cotangents = call_vjp(op, g, ans, batch, params, leads, [True] * len(batch))
        out_tangent = call_jvp(op, [tangent] + [None] * (len(batch) - 1), ans, batch, params, leads)
        for k in range(3):
            args = [batch[0][k], *batch[1:]]
            alone = call_forward(op, args, params, [0] * len(args))
            np.testing.assert_array_equal(ans[k], alone)
            each = call_vjp(op, g[k], alone, args, params, [0] * len(args), [True] * len(args))[0]
            if cotangents[0] is None:  # (an output PyTorch's backward gives no gradient: slogdet's sign)
                assert each is None
            else:
                np.testing.assert_array_equal(cotangents[0][k], each)
            np.testing.assert_array_equal(out_tangent[k], call_jvp(op, [tangent[k]] + [None] * (len(args) - 1),
                                                                   alone, args, params, [0] * len(args)))


@pytest.mark.parametrize(("op", "shapes", "params"),
                         sampled([case for case in ROW_CASES if case.values[0].sympy is not None], lambda c: c.values[0].name))
def test_vjp_matches_sympys_derivative(op, shapes, params):
    sympy = pytest.importorskip("sympy")
    from gradcli.symbolic import apply_rule

    rng = np.random.default_rng(5)
    args = _row_point(op, shapes, rng)
    symbols = [np.array([sympy.Symbol(f"{NAMES[i]}{k}", real=True) for k in range(a.size)], dtype=object)
               .reshape(a.shape) for i, a in enumerate(args)]
    indices = range(op.index_from or len(args), len(args))  # an index is a number of the point, never a variable
    expression = apply_rule(op, [args[i].astype(np.intp) if i in indices else s for i, s in enumerate(symbols)], params)
    seed = rng.normal(size=expression.shape)
    objective = sympy.Add(*(float(s) * e for s, e in zip(seed.flat, expression.flat, strict=True)))
    values = {symbol: sympy.Float(float(value), 30) for grid, arg in zip(symbols, args, strict=True)
              for symbol, value in zip(grid.flat, arg.flat, strict=True)}
    with np.errstate(all="ignore"):
        ans = call_forward(op, args, params, [0] * len(args))
        cotangents = call_vjp(op, seed, ans, args, params, [0] * len(args), [True] * len(args))
    for i, (grid, cotangent) in enumerate(zip(symbols[: op.index_from], cotangents[: op.index_from], strict=True)):
        if i in op.conditions:  # (no input of the row's node: no gradient flows into it)
            continue
        # the numbers put in at 30 digits at once (evalf's subs= rebuilt every Max and Abs of the partly
        # substituted expression, symbol by symbol: 20 s for triplet_margin_loss), then evaluated at 30 digits
        exact = [float(sympy.diff(objective, symbol).xreplace(values).evalf(30)) for symbol in grid.flat]
        if cotangent is None:  # (no gradient at all, as PyTorch's for slogdet's sign: the derivative must be 0)
            cotangent = np.zeros(np.shape(grid))
        np.testing.assert_allclose(np.ravel(cotangent), exact, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("op", "shapes", "params"), [case for case in ROW_CASES if case.values[0].examples[0][0] ==
                                                      case.values[1] and case.values[0].reference is not None])
def test_the_hessian_on_dual_numbers_matches_differences_of_the_gradient(op, shapes, params):
    rng = np.random.default_rng(9)
    point = dict(zip(NAMES, _row_point(op, shapes, rng), strict=False))
    program = f"sum(({_program(op, shapes, params)}) ** 2)"  # ** 2: a linear op has a Hessian too
    result = hessian(program, at=point)
    names = list(point)
    differentiable = names[: op.index_from]  # (an index is an integer input: it has no Hessian)
    first = grad(program, at=point).grad  # (nor has an arg PyTorch takes no gradient for: soft_margin_loss's target)
    for which, name in enumerate(differentiable):
        if which in op.conditions and not np.any(first[name]):
            continue
        for other in differentiable:
            def gradient(args: list[np.ndarray], other: str = other) -> np.ndarray:
                return np.asarray(grad(program, at=dict(zip(names, args, strict=True))).grad[other])

            # d(grad other)/d name, element by element, laid out as (other's shape + name's shape)
            base = point[name]
            expected = np.zeros(point[other].shape + base.shape)
            for position in np.ndindex(base.shape):
                h = 1e-6 * max(1.0, abs(float(base[position])))
                up, down = [point[n].copy() for n in names], [point[n].copy() for n in names]
                up[which][position] += h
                down[which][position] -= h
                expected[(..., *position)] = (gradient(up) - gradient(down)) / (2 * h)
            np.testing.assert_allclose(result.blocks[other][name], expected, rtol=1e-5, atol=1e-6,
                                       err_msg=f"d(grad {other})/d{name} of {program}")


# PyTorch's choices where the derivative does not exist (checked against torch 2.13).
SUBGRADIENTS = [
    ("relu(x)", {"x": 0.0}, {"x": 0.0}),
    ("abs(x)", {"x": 0.0}, {"x": 0.0}),
    ("max(a, b)", {"a": 1.0, "b": 1.0}, {"a": 0.5, "b": 0.5}),
    ("min(a, b)", {"a": 2.0, "b": 2.0}, {"a": 0.5, "b": 0.5}),
    ("norm(x)", {"x": [0.0, 0.0]}, {"x": [0.0, 0.0]}),
    ("x**2", {"x": 0.0}, {"x": 0.0}),
    ("x**0", {"x": 0.0}, {"x": 0.0}),
    ("x**y", {"x": 0.0, "y": 2.0}, {"x": 0.0, "y": 0.0}),
    ("sqrt(x)", {"x": 0.0}, {"x": np.inf}),
    ("x**0.5", {"x": 0.0}, {"x": np.inf}),
    ("x**2.5", {"x": 0.0}, {"x": 0.0}),
    ("x**y", {"x": 0.0, "y": -1.0}, {"x": -np.inf, "y": -np.inf}),
    ("x**y", {"x": -1.0, "y": 2.0}, {"x": -2.0, "y": np.nan}),
    ("x**y", {"x": 0.0, "y": 0.0}, {"x": 0.0, "y": 0.0}),
    ("atan2(a, b)", {"a": 0.0, "b": 0.0}, {"a": 0.0, "b": 0.0}),
    ("sigmoid(x)", {"x": -1000.0}, {"x": 0.0}),
    ("softplus(x)", {"x": -1000.0}, {"x": 0.0}),
    ("softplus(x)", {"x": 30.0}, {"x": 1.0}),
]


@pytest.mark.parametrize(("program", "point", "expected"), SUBGRADIENTS)
def test_subgradients_follow_pytorch(program, point, expected):
    result = grad(program, at=point)
    for name, value in expected.items():
        np.testing.assert_array_equal(result.grad[name], value)


def test_softplus_is_linear_above_its_threshold_like_pytorch():
    result = grad("softplus(x)", at={"x": 30.0})
    assert float(result.value) == 30.0


def test_broadcast_gradients_are_summed_back_to_each_input_shape():
    result = grad("sum(m * v)", at={"m": [[1.0, 2.0], [3.0, 4.0]], "v": [10.0, 20.0]})
    np.testing.assert_array_equal(result.grad["v"], [4.0, 6.0])
    np.testing.assert_array_equal(result.grad["m"], [[10.0, 20.0], [10.0, 20.0]])
