"""The Hessian against exact second derivatives (SymPy) and against PyTorch's double backward.

Every elementwise row of the op table is checked at tiny, huge, negative, zero and NaN points;
the others (sum, mean, norm, logsumexp, dot, @, indexing, stack) in small programs. PyTorch
(torch.autograd.functional.hessian, float64) is the reference where it is installed; where it
is not, those tests skip and the SymPy ones still run.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from gradcli import compile_program
from gradcli.derivatives import hessian
from gradcli.ops import OPS, node_text
from gradcli.ops.core import reference_texts
from tests.helpers import cli

ELEMENTWISE = [op for op in OPS.values() if op.elementwise]
# polygamma's first arg is its order n, a whole number and an integer input (no Hessian block of
# its own): tests/test_gamma.py holds its Hessian against PyTorch's and mpmath.
ORDER_FIRST = {"polygamma"}
# PyTorch's trigamma (lgamma's second derivative) is six steps of a recurrence and a short series:
# good to about 1e-9 of the exact value, which SymPy gives.
ACCURACY = {"lgamma": 1e-9, "mvlgamma": 1e-9}  # (mvlgamma: a sum of lgammas)
# The gamma function's poles (0 and the negative integers), where SymPy's limit gives up: PyTorch's
# values there are held in tests/test_gamma.py.
POLES = {(name, (x,)) for name in ("lgamma", "digamma", "mvlgamma") for x in (0.0, -3.0, -1e30)}
X, Y, Z = sympy.symbols("x y z", real=True)


def _source(name: str, args: list[str]) -> str:
    return node_text(OPS[name], args, OPS[name].examples[0][1])  # (clamp needs min or max)


def _matrix(result, names: list[str]) -> np.ndarray:
    return np.array([[float(result.blocks[a][b]) for b in names] for a in names])


# --- the cases of the issue ------------------------------------------------------------------


@pytest.mark.parametrize(("program", "x", "exact"), [
    ("x**4", 1e-40, lambda x: 12 * x**2),  # the complex step of 1e-30 i gave -4e-60
    ("sqrt(x)", 1e-40, lambda x: -0.25 * x**-1.5),  # gave -3.5e44
    ("x**4", 1e40, lambda x: 12 * x**2),
    ("sqrt(x)", 1e40, lambda x: -0.25 * x**-1.5),
    ("log(x)", 1e-150, lambda x: -1 / x**2),
    ("exp(x)", -700.0, math.exp),
])
def test_hessian_is_exact_at_tiny_and_huge_inputs(program, x, exact):
    run = cli("hessian", program, "--at", f"x={x!r}", "--strict", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["hessian"]["x"]["x"] == pytest.approx(exact(x), rel=1e-14)


def test_hessian_outside_the_domain_is_nan_as_in_pytorch():
    result = hessian("sqrt(x)", at={"x": -1.0})  # the complex step gave -5e29: sqrt(-1 + hi) is i
    assert math.isnan(float(result.blocks["x"]["x"]))
    result = hessian("sqrt(x) + y**2", at={"x": -2.0, "y": 3.0})
    assert math.isnan(float(result.blocks["x"]["x"]))
    assert float(result.blocks["y"]["y"]) == 2.0  # the NaN stays in its own block
    assert float(result.blocks["x"]["y"]) == 0.0


def test_hessian_at_ties_splits_as_pytorch_does():
    # torch: max(x, y) at a tie passes half the gradient each way, and its double backward
    # differentiates that rule again: every entry of the Hessian of max(x, y)**2 is 0.5.
    result = hessian("max(x,y)**2", at={"x": 1.0, "y": 1.0})
    np.testing.assert_array_equal(_matrix(result, ["x", "y"]), [[0.5, 0.5], [0.5, 0.5]])
    result = hessian("min(x,y)**2", at={"x": -2.0, "y": -2.0})
    np.testing.assert_array_equal(_matrix(result, ["x", "y"]), [[0.5, 0.5], [0.5, 0.5]])


@pytest.mark.parametrize("program", ["relu(x)**2", "abs(x)**2", "abs(x)*x", "relu(x)*relu(x)", "x**4"])
def test_hessian_at_kinks_and_zero_follows_pytorch(program):
    # PyTorch's subgradients: relu'(0) = abs'(0) = 0, and their derivatives 0.
    assert float(hessian(program, at={"x": 0.0}).blocks["x"]["x"]) == 0.0


# --- every elementwise op against SymPy's exact second derivatives ---------------------------

POINTS = [1e-40, -1e-40, 0.0, 0.3, -0.7, 2.5, -3.0, 1e30, -1e30]
PAIRS = [(0.3, 1.7), (-1.5, 0.5), (2.0, -3.0), (1e-40, 2.0), (1e-40, -1e-40), (0.0, 2.0), (2.0, 0.0), (-2.0, 3.0),
         (1e30, 0.5), (0.5, -1e30)]
TRIPLES = [(0.3, 1.7, 0.25), (-1.5, 0.5, 0.75), (2.0, -3.0, -0.5), (0.0, 2.0, 0.5), (1e30, 0.5, 0.6)]  # lerp
# Where float64 cannot hold the exact answer, whatever the method: sigmoid(1e-40) is 0.5
# exactly, so s(1-s)(1-2s) is 0, not 1.25e-41 (PyTorch gives 0 too).
NOT_IN_FLOAT64 = {("sigmoid", (1e-40,)), ("sigmoid", (-1e-40,))}
# PyTorch's masks: x**y sends nothing to the base where y = 0, so d(grad x)/dy is 0 there
# while d(grad y)/dx is 1/x; PyTorch's double backward keeps that (tested against it below).
MASKED = {("pow", (2.0, 0.0))}
# PyTorch's elu double backward masks x < 0: at the kink 0 it is 0 (tested against it below).
MASKED |= {(name, (0.0,)) for name in ("elu", "selu", "celu")}
# PyTorch's sinc backward is 0 where x * x * pi is 0: at 0 and wherever x * x underflows.
MASKED |= {("sinc", (x,)) for x in (0.0, 1e-40, -1e-40)}
# Where PyTorch's own formulas, which gradcli follows (and is tested against below), cancel to 0
# or make NaN from inf / inf before the exact second derivative (tiny, or complex outside acosh's
# domain, where PyTorch's rsqrt(x**2 - 1) is real) can show; sinc's pi * x at 1e30 is rounded
# far more than a period.
PYTORCHS_FORMULA = {("acosh", (0.0,)), ("acosh", (-3.0,)), ("acosh", (-1e30,)), ("softsign", (1e30,)),
                    ("softsign", (-1e30,)), ("mish", (1e30,)), ("sinc", (1e30,)), ("sinc", (-1e30,)), ("silu", (-1e30,)), ("mish", (-1e30,)),
                    *((name, point) for name in ("hypot", "logaddexp", "logaddexp2") for point in ((1e30, 0.5),
                                                                                                  (0.5, -1e30)))}
# torch.special's rows, where PyTorch's formulas (held to its double backward below) are not the exact
# second derivative: i1_backward's 0.5 below |x| = eps (i1'' is 3x/8 there); i0 and i1 overflow to inf
# at 1e30 (inf - inf in i1'), and the scaled forms' derivatives cancel to 0 there; ndtri, entr and
# log_ndtr outside their domains or at their poles (entr is -inf below 0 as a constant in SymPy's
# Piecewise, and -1/x in PyTorch's -(1 + log(x))); erfcx(1e30)'s 2 x erfcx(x) - 2/sqrt(pi) cancels.
PYTORCHS_FORMULA |= {*((name, (x,)) for name in ("i0", "i0e", "i1", "i1e") for x in (1e30, -1e30)),
                     *((name, (x,)) for name in ("i1", "i1e") for x in (1e-40, -1e-40)),
                     *(("ndtri", (x,)) for x in (-1e-40, -0.7, 2.5, -3.0, 1e30, -1e30)),
                     *(("entr", (x,)) for x in (-1e-40, 0.0, -0.7, -3.0, -1e30)),
                     ("log_ndtr", (-1e30,)), ("erfcx", (1e30,))}


def _exact(expression: sympy.Expr, point: dict) -> float | None:
    """The exact value at a point of floats, as a float: NaN where it is not real; None where
    SymPy cannot say (a kink's DiracDelta, a pole's complex infinity)."""
    exact = {s: sympy.Float(v, 60) for s, v in point.items()}
    value = expression.subs(exact).evalf(60)
    if value is sympy.nan:  # 0/0 in SymPy's closed form (x**y*y*(y-1)/x**2 at x = 0): its limit there
        for symbol in exact:
            rest = expression.subs({s: v for s, v in exact.items() if s is not symbol})
            value = sympy.limit(rest, symbol, exact[symbol], "+" if point[symbol] >= 0 else "-").evalf(60)
            if value is not sympy.nan:
                break
    if value is sympy.nan:
        return math.nan
    if value in (sympy.oo, -sympy.oo):
        return float(value)
    if value is sympy.zoo or not value.is_number or value.has(sympy.DiracDelta, sympy.Heaviside):
        return None
    real, imaginary = value.as_real_imag()
    if imaginary != 0:
        return math.nan
    return float(real)


def _elementwise_cases():
    for op in ELEMENTWISE:
        if op.name in ORDER_FIRST:
            continue
        for point in POINTS if op.arity == 1 else PAIRS if op.arity == 2 else TRIPLES:
            values = (point,) if op.arity == 1 else point
            marks = []
            if (op.name, values) in NOT_IN_FLOAT64:
                marks = [pytest.mark.skip(reason="the exact answer is not representable in float64")]
            elif (op.name, values) in MASKED:
                marks = [pytest.mark.skip(reason="PyTorch's mask, not calculus, decides here")]
            elif (op.name, values) in PYTORCHS_FORMULA:
                marks = [pytest.mark.skip(reason="PyTorch's formula cancels or overflows here")]
            elif (op.name, values) in POLES:
                marks = [pytest.mark.skip(reason="a pole of the gamma function: SymPy's limit gives up")]
            elif op.name == "erfinv" and abs(values[0]) > 1:
                marks = [pytest.mark.skip(reason="SymPy's erfinv refuses |x| > 1 (NaN here, as in PyTorch)")]
            elif op.name == "logit" and not 0 <= values[0] <= 1:
                marks = [pytest.mark.skip(reason="outside [0, 1] PyTorch's logit_backward is NaN by its mask; "
                                                 "SymPy's log of a negative number is complex")]
            yield pytest.param(op.name, dict(zip(["x", "y", "z"], values, strict=False)), id=f"{op.name}{values}",
                               marks=marks)


@pytest.mark.parametrize(("name", "point"), list(_elementwise_cases()))
def test_hessian_of_every_elementwise_op_matches_sympy(name, point):
    op = OPS[name]
    names = list(point)
    symbols = [X, Y, Z][: len(names)]
    assert op.sympy is not None
    expression = op.sympy(*symbols, **op.examples[0][1])  # (the params _source writes)
    if name == "softplus":  # PyTorch's softplus is linear above its threshold of 20
        expression = sympy.Piecewise((X, X > 20), (expression, True))
    got = _matrix(hessian(_source(name, names), at=point), names)
    substitution = dict(zip(symbols, point.values(), strict=True))
    for i, a in enumerate(symbols):
        for j, b in enumerate(symbols):
            want = _exact(sympy.diff(expression, a, b), substitution)
            if want is None:
                continue  # a kink, or a pole: PyTorch's tests below
            if math.isnan(want):
                assert math.isnan(got[i, j]), (i, j, got)
            else:
                assert got[i, j] == pytest.approx(want, rel=ACCURACY.get(name, 1e-12), abs=1e-300), (i, j, got, want)


# square's second derivative is 2 everywhere, NaN included (PyTorch's pow(x, 2) too).
CONSTANT_SECOND_DERIVATIVE = {"square"}
# PyTorch's i1_backward is 0.5 wherever |x| > eps fails, NaN included: i1's gradient and i0's second
# derivative at NaN are 0.5 (in PyTorch as here).
HALF_AT_NAN = {"i0", "i1"}
SMOOTH_UNARY = [op.name for op in ELEMENTWISE if op.arity == 1 and not (op.linear or op.kinked)
                and op.name not in CONSTANT_SECOND_DERIVATIVE | HALF_AT_NAN]


@pytest.mark.parametrize("name", SMOOTH_UNARY)
def test_a_nan_input_gives_a_nan_hessian(name):
    # Their second derivatives depend on x: NaN in, NaN out. (The piecewise linear ones have
    # a second derivative of 0 everywhere, and PyTorch gives 0 at NaN too; see below.)
    assert math.isnan(float(hessian(_source(name, ["x"]), at={"x": math.nan}).blocks["x"]["x"]))
    # A NaN in one input stays out of the blocks of the other: x*y has d2/dy2 = 0 at x = NaN.
    result = hessian(f"{_source(name, ['x'])} + y**3", at={"x": math.nan, "y": 2.0})
    assert float(result.blocks["y"]["y"]) == 12.0


# --- the other ops, in programs -----------------------------------------------------------------

# (program, point, PyTorch's spelling of the same function: a function of torch and the inputs)
SMOOTH_PROGRAMS = [
    ("sum(z**3)", {"z": [1.0, -2.0, 0.5]}, lambda t, z: (z**3).sum()),
    ("mean(z**3) * w", {"z": [1.0, -2.0, 0.5], "w": 1.5}, lambda t, z, w: (z**3).mean() * w),
    ("norm(z)", {"z": [3.0, -4.0]}, lambda t, z: t.linalg.vector_norm(z)),
    ("norm(z) ** 3", {"z": [1e-40, 2e-40]}, lambda t, z: t.linalg.vector_norm(z) ** 3),
    ("logsumexp(z)", {"z": [0.5, -1.0, 2.0]}, lambda t, z: t.logsumexp(z, 0)),
    ("logsumexp(z)", {"z": [1000.0, 1000.0, -1000.0]}, lambda t, z: t.logsumexp(z, 0)),
    ("dot(a, b) ** 2", {"a": [1.0, 2.0], "b": [-0.5, 3.0]}, lambda t, a, b: t.dot(a, b) ** 2),
    ("sum((m @ v) ** 2)", {"m": [[1.0, 2.0], [0.5, -1.0]], "v": [0.3, -0.7]}, lambda t, m, v: ((m @ v) ** 2).sum()),
    ("v @ m @ v", {"m": [[1.0, 2.0], [0.5, -1.0]], "v": [0.3, -0.7]}, lambda t, m, v: v @ m @ v),
    ("z[0] * z[1] ** 2 + sin(z[2])", {"z": [0.5, -1.5, 2.0]}, lambda t, z: z[0] * z[1] ** 2 + t.sin(z[2])),
    ("sum(m[:, 1] ** 3) + m[0, 0] * m[1, 0]", {"m": [[1.0, 2.0], [3.0, 4.0]]},
     lambda t, m: (m[:, 1] ** 3).sum() + m[0, 0] * m[1, 0]),
    # The shape ops (all linear): their second derivative is that of what they feed.
    ("sum(cat([m.T.reshape(-1), diag(m), F.pad(m, (1, 0)).flatten()]) ** 3)", {"m": [[1.0, -2.0], [0.5, 3.0]]},
     lambda t, m: (t.cat([m.T.reshape(-1), t.diag(m), t.nn.functional.pad(m, (1, 0)).flatten()]) ** 3).sum()),
    ("a, b = v.split(2)\nsum(a ** 2 * b.flip(0)) + trace(tril(v.reshape(2, 2)) ** 3)",
     {"v": [0.5, -1.0, 2.0, 1.5]},
     lambda t, v: (v.split(2)[0] ** 2 * v.split(2)[1].flip(0)).sum() + t.trace(t.tril(v.reshape(2, 2)) ** 3)),
    ("sum([x * y, x ** 3, exp(y)] * [1, 2, 3])", {"x": 0.7, "y": -0.4},
     lambda t, x, y: (t.stack([x * y, x**3, t.exp(y)]) * t.tensor([1.0, 2.0, 3.0], dtype=t.float64)).sum()),
    ("sum(sigmoid(X @ w + b))", {"X": [[1.0, 2.0], [3.0, -1.0]], "w": [0.1, -0.2], "b": 0.3},
     lambda t, X, w, b: t.sigmoid(X @ w + b).sum()),
    ("sum((a @ b) ** 2)", {"a": [[[1.0, 2.0]], [[0.5, -1.0]]], "b": [[0.3], [-0.7]]}, lambda t, a, b: ((a @ b) ** 2).sum()),
    ("det(m) * m[0, 1]", {"m": [[1.0, 2.0], [0.3, -1.0]]}, lambda t, m: t.linalg.det(m) * m[0, 1]),
    ("logdet(m)", {"m": [[2.0, 0.5, 0.1], [0.3, 1.5, -0.2], [0.1, 0.4, 1.8]]}, lambda t, m: t.logdet(m)),
    ("sum(inv(m) ** 2)", {"m": [[2.0, 0.5], [0.3, 1.5]]}, lambda t, m: (t.linalg.inv(m) ** 2).sum()),
    ("sum(solve(m, v) ** 2)", {"m": [[2.0, 0.5], [0.3, 1.5]], "v": [1.0, -2.0]},
     lambda t, m, v: (t.linalg.solve(m, v) ** 2).sum()),
    ("einsum('ij,jk,k->i', m, m, v)[0] ** 2 + einsum('ii->', m) ** 3", {"m": [[1.0, 2.0], [0.5, -1.0]], "v": [0.3, -0.7]},
     lambda t, m, v: t.einsum("ij,jk,k->i", m, m, v)[0] ** 2 + t.einsum("ii->", m) ** 3),
    ("sum(kron(a, m) ** 2) + sum(cross(u, w) ** 3) + tensordot(m, m) ** 2",
     {"a": [1.0, -0.5], "m": [[1.0, 2.0], [0.5, -1.0]], "u": [1.0, 2.0, -1.0], "w": [0.5, -0.3, 2.0]},
     lambda t, a, m, u, w: (t.kron(a, m) ** 2).sum() + (t.linalg.cross(u, w) ** 3).sum() + t.tensordot(m, m) ** 2),
    ("sum(outer(a, b) ** 3) + inner(a, b) ** 2", {"a": [1.0, -0.5], "b": [0.3, 2.0]},
     lambda t, a, b: (t.outer(a, b) ** 3).sum() + t.inner(a, b) ** 2),
]
# At ties and NaN: PyTorch is the reference (the SymPy test above cannot say).
SPECIAL_PROGRAMS = [
    ("max(x, y) * z", {"x": 1.0, "y": 1.0, "z": 2.0}, lambda t, x, y, z: t.maximum(x, y) * z),
    ("sum(sqrt(z))", {"z": [-1.0, 4.0]}, lambda t, z: t.sqrt(z).sum()),
    ("z[0] * z[1] + sqrt(z[2])", {"z": [1.0, 2.0, -1.0]}, lambda t, z: z[0] * z[1] + t.sqrt(z[2])),
    ("x * y + sqrt(w)", {"x": 1.0, "y": 2.0, "w": -1.0}, lambda t, x, y, w: x * y + t.sqrt(w)),
    ("x ** 2 + x * y", {"x": math.nan, "y": 1.0}, lambda t, x, y: x**2 + x * y),
    # convolution (bilinear: input-weight blocks) and pooling at ties, where one element takes a window's all
    ("sum(conv1d(x, w, b, padding=1) ** 2)", {"x": [[1.0, -2.0, 0.5]], "w": [[[0.5, -1.0]], [[2.0, 0.3]]], "b": [0.1, -0.2]},
     lambda t, x, w, b: (t.nn.functional.conv1d(x, w, b, padding=1) ** 2).sum()),
    ("sum(conv2d(x, w, stride=(1, 2)) ** 3)", {"x": [[[1.0, -2.0, 0.5], [0.3, 1.5, -1.0]]], "w": [[[[0.5, -1.0]]]]},
     lambda t, x, w: (t.nn.functional.conv2d(x, w, stride=(1, 2)) ** 3).sum()),
    ("sum(max_pool1d(x, 2, 1, 1) ** 3) + sum(avg_pool2d(m, 2, 1, 1, True, False) ** 2)",
     {"x": [[1.0, 1.0, 3.0, 3.0]], "m": [[[1.0, 2.0], [2.0, 2.0]]]},
     lambda t, x, m: (t.nn.functional.max_pool1d(x, 2, 1, 1) ** 3).sum()
     + (t.nn.functional.avg_pool2d(m, 2, 1, 1, True, False) ** 2).sum()),
    ("sum(max_pool2d(x, 2, ceil_mode=True) ** 2)", {"x": [[[2.0, 2.0, 1.0], [2.0, -1.0, 1.0], [0.5, 0.5, 0.5]]]},
     lambda t, x: (t.nn.functional.max_pool2d(x, 2, ceil_mode=True) ** 2).sum()),
]
PROGRAMS = SMOOTH_PROGRAMS + SPECIAL_PROGRAMS


@pytest.mark.parametrize(("program", "point", "spelled"), SMOOTH_PROGRAMS)
def test_hessian_of_the_other_ops_matches_sympy(program, point, spelled):
    from gradcli import symbolic

    tape = compile_program(program)
    shapes = {n: np.shape(v) for n, v in point.items()}
    symbols = symbolic.input_symbols(tape, shapes)
    expression = symbolic.expressions(tape, symbols, tape.outputs[0])[tape.outputs[0]].item()
    result = hessian(tape, at=point)
    for a in point:
        for b in point:
            block = np.zeros(shapes[a] + shapes[b])
            for i in np.ndindex(*shapes[a]):
                for j in np.ndindex(*shapes[b]):
                    second = sympy.diff(expression, symbols[a][i], symbols[b][j])
                    values = {symbols[n][k]: float(np.asarray(v)[k]) for n, v in point.items()
                              for k in np.ndindex(*shapes[n])}
                    exact = _exact(second, values)
                    assert exact is not None
                    block[i + j] = exact
            # The program's constants reach SymPy as 15-digit Floats: their rounding, not gradcli's.
            scale = float(np.max(np.abs(block), initial=0.0))
            np.testing.assert_allclose(result.blocks[a][b], block, rtol=1e-12, atol=1e-300 + 1e-15 * scale)


# --- against PyTorch, where it is installed -------------------------------------------------

def _torch_spelling(op):
    """PyTorch's function of a row, from the reference the row holds (Op.reference, over the args a, b, c): a mask
    (PyTorch's bool) as numbers; where PyTorch records no derivative (its NotImplemented node, whose backward
    raises), gradcli's, a step's: 0."""
    code = compile(reference_texts(op)[1], op.name, "eval")

    def call(t, *args):
        out = eval(code, {"torch": t, "F": t.nn.functional}, dict(zip("abc", args, strict=False)))
        if op.torch_node == "NotImplemented":
            return out.detach().double() * sum(args) * 0
        return out.double()

    return call


TORCH_POINTS = [*POINTS, 0.5, 1.0, -1.0, 30.0, -50.0, math.nan, math.inf, -math.inf]
TORCH_PAIRS = [*PAIRS, (-4.0, 1e-40), (math.nan, 1.0), (1.0, math.nan), (1.0, 1.0), (0.0, 0.0), (-2.0, -2.0), (0.0, -1.0), (0.0, 0.5), (-2.0, 0.5), (math.inf, 1.0),
               (1.0, math.inf), (3.0, -math.inf)]


def _torch_hessian(torch, function, point: dict) -> dict[str, dict[str, np.ndarray]]:
    names = list(point)
    tensors = tuple(torch.tensor(v, dtype=torch.float64) for v in point.values())
    matrix = torch.autograd.functional.hessian(lambda *xs: function(torch, *xs), tensors)
    return {a: {b: matrix[i][j].numpy() for j, b in enumerate(names)} for i, a in enumerate(names)}


# Where gradcli's forward-over-reverse and PyTorch's reverse-over-reverse part ways. Both
# differentiate the same backward formulas, but where a formula's masked-off branch is
# infinite, PyTorch's double backward multiplies that infinity by the mask's zero (NaN), and
# forward mode drops the branch (x**y at x = 0: the limit, 0); and a NaN made by 0 * NaN inside
# one tensor lands in the row of the gradient in forward mode, in the column in reverse mode.
PARTS_WAYS = {
    "erfcx(30.0,)": "gradcli's erfcx is not PyTorch's table of Chebyshev fits: their last places differ, and the "
                    "second derivative's 2 x erfcx(x) - 2/sqrt(pi) cancels 2 x^3 of them (3e-10 relative at 30)",
    "log_ndtr(-1e+30,)": "PyTorch: NaN from its double backward's exp(-(ans + x^2/2)) at -1e30, where ans and x^2/2 "
                         "cancel; here -inf, the tangent of that exp",
    "pow(0.0, 2.0)": "PyTorch: NaN from the masked branch g*out*log(0)",
    "pow(0.0, 0.0)": "PyTorch: NaN from the masked branches",
    "pow(0.0, 0.5)": "PyTorch: NaN from the masked branch g*out*log(0)",
    "atan2(0.0, 0.0)": "PyTorch: NaN from 1/(x*x + y*y) at the origin, which gradcli's rule masks",
    "sum(sqrt(z))": "the NaN of sqrt(-1): in row z[0] here, in column z[0] in PyTorch",
    "z[0] * z[1] + sqrt(z[2])": "the NaN of sqrt(-1): in row z[2] here, in column z[2] in PyTorch",
    **{f"{name}(-1e+30,)": "PyTorch: 0; here NaN, from inf / inf in the tangent of 1 / (1 + exp(-x)), PyTorch's "
                           "sigmoid in the gradient" for name in ("silu", "mish")},
    **{f"{name}(30.0,)": "PyTorch's 1 - sigmoid(30) cancels: 1e-3 off the exact value, gradcli's 4e-5 (silu) and "
                         "1e-15 (logsigmoid)" for name in ("silu", "logsigmoid")},
    **{f"copysign{point}": "PyTorch: NaN from result / self at self = 0, which the mask hides in the gradient only"
       for point in ((0.0, 2.0), (0.0, 0.0), (0.0, -1.0), (0.0, 0.5))},
    "copysign(nan, 1.0)": "the NaN of result / self: in row x here, in column x in PyTorch",
    "xlogy(0.0, 0.0)": "PyTorch: NaN from the masked branch xlogy(g, y) at y = 0",
    "sinc(0.0,)": "PyTorch: NaN from the masked branch (pi x cos(pi x) - sin(pi x)) / (x * x * pi) at 0",
    **{f"logit({x},)": "PyTorch: NaN, its mask (x outside [0, 1]) in the second derivative too; here the tangent "
                       "of g / (x (1 - x)) at x = inf, -inf" for x in ("inf", "-inf")},
    **{f"logit({x},)": "PyTorch: NaN (the pole of g / (x (1 - x)) through its double backward's products); here "
                       "the tangent of the quotient, -inf" for x in ("0.0", "1.0")},
    "xlog1py(0.0, -1.0)": "PyTorch: NaN from the masked branch xlog1py(g, y) at y = -1 (log1p(-1) = -inf times 0)",
    **{f"_prelu_kernel{point}": "PyTorch's double backward of prelu takes x >= 0 as the positive side, its backward "
                                "x > 0: at x = 0 its cross term is 0; here the derivative of the gradient, g"
       for point in ((0.0, 2.0), (0.0, 0.0), (0.0, -1.0), (0.0, 0.5))},
}
# PyTorch has no double backward for these: "derivative for aten::hardsigmoid_backward is not implemented".
NO_DOUBLE_BACKWARD = {"hardsigmoid"}


def _torch_cases():
    def param(program, point, spelled, label):
        marks = []
        if label in PARTS_WAYS:
            marks = [pytest.mark.xfail(reason=PARTS_WAYS[label], strict=True)]
        return pytest.param(program, point, spelled, id=label, marks=marks)

    for op in ELEMENTWISE:
        if op.name in NO_DOUBLE_BACKWARD or op.name in ORDER_FIRST or reference_texts(op) is None:
            continue  # (a row without a reference of its own, mul_scalar: held to PyTorch through its composites)
        for point in TORCH_POINTS if op.arity == 1 else TORCH_PAIRS if op.arity == 2 else TRIPLES:
            values = (point,) if op.arity == 1 else point
            point_dict = dict(zip("abc", values, strict=False))  # (the names of the row's reference)
            yield param(reference_texts(op)[0], point_dict, _torch_spelling(op), f"{op.name}{values}")
    for program, point, spelled in PROGRAMS:
        yield param(program, point, spelled, program)


@pytest.mark.parametrize(("program", "point", "spelled"), list(_torch_cases()))
def test_hessian_matches_pytorchs_double_backward(program, point, spelled):
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare")
    expected = _torch_hessian(torch, spelled, point)
    result = hessian(program, at=point)
    # PyTorch's rounding, not gradcli's: atan2(1e-40, -1e-40) has d2/dxdy = 0 exactly, and
    # PyTorch gives +-6.6e63 beside diagonal entries of 5e79.
    scale = max((float(np.max(np.abs(block), where=np.isfinite(block), initial=0.0))
                 for row in expected.values() for block in row.values()), default=0.0)
    for a in point:
        for b in point:
            np.testing.assert_allclose(result.blocks[a][b], expected[a][b], rtol=1e-12, atol=1e-300 + 1e-15 * scale,
                                       err_msg=f"block {a}, {b}")
