"""Every row of the op table, checked against central finite differences.

The programs below are generated from the table: one program shape per kind of op, and a
sampling range per op where its domain is not the whole line. A new row without an entry
here fails `test_every_op_is_covered`.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from gradcli import grad
from gradcli.ops import OPS, unbroadcast
from tests.helpers import central_difference

ELEMENTWISE_UNARY = ["exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "abs", "sin", "cos", "tan", "asin",
                     "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "softplus", "neg"]
ELEMENTWISE_BINARY = ["add", "sub", "mul", "div", "pow", "max", "min", "atan2"]
REDUCTIONS = ["sum", "mean", "norm", "logsumexp"]

UNARY_SHAPES = [(), (4,), (2, 3)]
BINARY_SHAPES = [((), ()), ((4,), (4,)), ((2, 3), (3,)), ((), (2, 2)), ((2, 1), (1, 3)), ((3,), ())]
REDUCTION_SHAPES = [(4,), (2, 3)]

# Where to sample each argument: (low, high); "kink" ops are sampled away from their kink.
RANGES = {
    "log": [(0.2, 3.0)], "log2": [(0.2, 3.0)], "log10": [(0.2, 3.0)], "log1p": [(-0.5, 3.0)],
    "sqrt": [(0.2, 3.0)], "asin": [(-0.8, 0.8)], "acos": [(-0.8, 0.8)], "tan": [(-1.2, 1.2)],
    "div": [(-2.0, 2.0), (0.5, 2.0)], "pow": [(0.3, 2.0), (-2.0, 2.0)],
    "softplus": [(-25.0, 25.0)],
}
KINKED = {"abs", "relu", "max", "min", "norm"}

STRUCTURE_PROGRAMS = {
    "matmul": [("a @ b", {"a": (2, 3), "b": (3, 4)}), ("a @ b", {"a": (2, 3), "b": (3,)}),
               ("a @ b", {"a": (3,), "b": (3, 2)}), ("a @ b", {"a": (3,), "b": (3,)})],
    "dot": [("dot(a, b)", {"a": (4,), "b": (4,)})],
    "getitem": [("x[1]", {"x": (4,)}), ("x[1:3]", {"x": (4,)}), ("x[-1]", {"x": (4,)}), ("x[::2]", {"x": (5,)}),
                ("m[0, 1:]", {"m": (2, 3)}), ("m[:, 1]", {"m": (2, 3)}), ("m[1]", {"m": (2, 3)})],
    "stack": [("[a, b]", {"a": (), "b": ()}), ("[a, 2*a, b]", {"a": (3,), "b": (3,)}), ("[[a, b], [b, a]]", {"a": (), "b": ()})],
}


def _source(op_name: str, args: list[str]) -> str:
    op = OPS[op_name]
    if op_name == "neg":
        return f"-{args[0]}"
    if op.symbol and not op.callable:
        return f"{args[0]} {op.symbol} {args[1]}"
    return f"{op_name}({', '.join(args)})"


def _cases() -> list[tuple[str, str, dict[str, tuple[int, ...]]]]:
    cases = []
    for name in ELEMENTWISE_UNARY:
        cases += [(name, _source(name, ["x"]), {"x": shape}) for shape in UNARY_SHAPES]
    for name in ELEMENTWISE_BINARY:
        cases += [(name, _source(name, ["a", "b"]), {"a": sa, "b": sb}) for sa, sb in BINARY_SHAPES]
    for name in REDUCTIONS:
        cases += [(name, _source(name, ["x"]), {"x": shape}) for shape in REDUCTION_SHAPES]
    for name, programs in STRUCTURE_PROGRAMS.items():
        cases += [(name, program, shapes) for program, shapes in programs]
    return cases


CASES = _cases()


def test_every_op_is_covered():
    covered = {name for name, _, _ in CASES}
    assert covered == set(OPS)


def _sample(op_name: str, shapes: dict[str, tuple[int, ...]], rng: np.random.Generator) -> dict[str, np.ndarray]:
    ranges = RANGES.get(op_name, [])
    point = {}
    for position, (name, shape) in enumerate(shapes.items()):
        low, high = ranges[position] if position < len(ranges) else (-2.0, 2.0)
        value = rng.uniform(low, high, size=shape)
        if op_name in KINKED:  # keep away from 0 and from ties, where only a subgradient exists
            value = np.sign(value) * (0.3 + np.abs(value)) + 0.37 * position
        point[name] = np.asarray(value)
    return point


def _evaluate(program: str, point: dict[str, np.ndarray]) -> np.ndarray:
    return np.asarray(grad(program, at=point, seed="ones").value)


@pytest.mark.parametrize(("op_name", "program", "shapes"), CASES, ids=[f"{c[0]}:{c[1]}:{list(c[2].values())}" for c in CASES])
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
            expected = central_difference(weighted, arrays, which)
            assert result.grad[name].shape == point[name].shape
            np.testing.assert_allclose(result.grad[name], expected, rtol=1e-5, atol=1e-6, err_msg=f"d/d{name} of {program}")


@pytest.mark.parametrize("op_name", ELEMENTWISE_UNARY + ELEMENTWISE_BINARY)
def test_jvp_and_vjp_agree_as_a_transpose(op_name):
    # <g, J t> == <J^T g, t>: the JVP rule and the VJP rule describe the same Jacobian.
    op = OPS[op_name]
    rng = np.random.default_rng(7)
    shapes = {"x": (5,)} if op.arity == 1 else {"a": (5,), "b": (5,)}
    args = list(_sample(op_name, shapes, rng).values())
    with np.errstate(all="ignore"):
        ans = np.asarray(op.forward(*args))
        tangents = [rng.normal(size=a.shape) for a in args]
        g = rng.normal(size=ans.shape)
        forward_side = float(np.sum(g * op.jvp(tangents, ans, *args)))
        cotangents = op.vjp(g, ans, *args)
    backward_side = sum(float(np.sum(unbroadcast(np.asarray(c), t.shape) * t)) for c, t in zip(cotangents, tangents, strict=True))
    assert forward_side == pytest.approx(backward_side, rel=1e-9, abs=1e-12)


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
