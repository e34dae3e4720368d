"""The elementwise rows: each gives its forward and one derivative (see core.elementwise).

A derivative is `(xp, g, ans, *args) -> g times d ans / d arg, for each arg`, written against
the namespace `xp` (NumPy on arrays, NumPy's ufuncs on Python floats), in PyTorch's order of
operations where it matters to the bits (-g * ((a / b) / b), g * (1 - ans) * ans).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import numpy as np

from gradcli.ops import float32
from gradcli.ops.core import (
    BOOL_SUBTRACTION,
    FLOATS,
    NEGATION,
    NUMPY,
    Dialect,
    Number,
    Op,
    Param,
    PythonValueError,
    ValueRefusal,
    composite,
    elementwise,
    kernel_refusal,
    load_sympy,
    sign,
    torch_positional,
)
from gradcli.ops.float32 import fma32

METHOD = "method"  # (gradcli.lowering.METHOD: the family of x.name(...))

_LN2, _LN10 = float(np.log(2.0)), float(np.log(10.0))


def _sympy(name: str, *extra: Any) -> Any:
    """The SymPy builder of a function of one arg: sympy.<name>(x, *extra)."""
    return lambda x: getattr(load_sympy(), name)(x, *extra)


# --- forwards and derivatives needing more than one line ---------------------------------


def _pow_derivative(xp: Any, g: Any, ans: Any, a: Any, b: Any) -> tuple[Any, Any]:
    # PyTorch's exponent factor is 0 where the base is 0 and the exponent non-negative: 0**b
    # is constant there. The factor is masked, not the product, so a NaN g still flows. The
    # base's is b * a ** (b - 1), a Python number's b - 1 a Python number (Number): PyTorch's
    # backward of x ** 0.5 calls pow(x, -0.5), which is rsqrt, and of x ** y pow(x, y - 1), C's;
    # g times (b times the power), in PyTorch's order: float32 rounds each product.
    less, scale = (Number(b - 1.0), float(b)) if type(b) is Number else (b - 1, b)
    base = g * (scale * xp.power(a, less))
    if type(b) is Number and type(a) is np.ndarray:  # pow(Tensor, Scalar): a Python number takes no gradient (the
        return base, None  # log of every element spared; a recorded or dual sweep computes it as before)
    return base, g * xp.where((a == 0) & (b >= 0), 0.0, ans * xp.log(a))


def _rsqrt(xp: Any, x: Any) -> Any:
    # torch.rsqrt is 1 / sqrt in PyTorch's own loop (an exact sqrt and an exact division), never MKL's VML sqrt,
    # which rounds otherwise on some of MKL's code paths (AVX2's)
    return 1.0 / (np.sqrt(x) if xp is NUMPY else xp.sqrt(x))


def _pow_torch_node(constant: Any, shapes: object) -> str:
    # x**2 is pow(Tensor, Scalar); 2**x is pow(Scalar, Tensor); x**y is pow(Tensor, Tensor).
    if constant[1]:
        return "PowBackward0"
    return "PowBackward2" if constant[0] else "PowBackward1"


def _abs_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    # abs' as PyTorch has it: the sign, and 0 at 0 and at NaN.
    return (g * xp.where(x != x, 0.0, xp.sign(x)),)


def _positive_nan(xp: Any, out: Any, domain_error: Any) -> Any:
    """`out`, its NaN made positive where the argument was out of the domain: PyTorch's sqrt and
    logarithms give a NaN whose sign bit is clear there, NumPy's (x86's default NaN) has it set.
    Only copysign reads it: copysign(b, sqrt(-1)) is |b| in PyTorch. A NaN argument keeps its own."""
    if type(out) is np.ndarray:
        return np.abs(out, out=out, where=domain_error)
    if xp is not NUMPY:  # Python floats (as the scalar table records them: no branch on a value)
        return xp.where(domain_error, xp.abs(out), out)
    if isinstance(out, np.floating):
        return abs(out) if domain_error else out
    return out  # (the Hessian's dual numbers: no derivative reads a NaN's sign)


def _relu(xp: Any, x: Any) -> Any:
    # PyTorch's relu keeps what is not below 0: relu(-0.0) is -0.0 and relu(NaN) is NaN.
    return xp.where(x < 0, 0.0, x)


def _sigmoid(xp: Any, x: Any) -> Any:
    # exp(x) / (1 + exp(x)) below 0 and 1 / (1 + exp(-x)) above: exp never overflows, and
    # no 1 - tiny cancels, so the relative precision holds down to the smallest numbers.
    # A float32 tensor takes PyTorch's kernel, SLEEF's exp in its vectors (gradcli.ops.float32).
    if type(x) is np.ndarray and x.dtype == np.float32 and x.ndim:
        return float32.sigmoid(x)
    negative = x < 0
    e = xp.exp(xp.where(negative, x, -x))
    return xp.where(negative, e / (1.0 + e), 1.0 / (1.0 + e))


def _tanh_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    # PyTorch's tanh_backward, g * (1 - ans * ans): its float32 kernel is compiled to a fused 1 - ans * ans
    if getattr(ans, "dtype", None) == np.float32:
        return (g * fma32(-ans, ans, np.float32(1.0)),)
    return (g * (1.0 - ans * ans),)


def _softplus(xp: Any, x: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    # torch.nn.functional.softplus: log1p(exp(x * beta)) / beta, linear where x * beta is above
    # the threshold (exp is given the threshold there: no overflow, no infinite tangent).
    scaled = x * beta
    above = scaled > threshold
    return xp.where(above, x, xp.log1p(xp.exp(xp.where(above, threshold, scaled))) / beta)


def _softplus_derivative(xp: Any, g: Any, ans: Any, x: Any, beta: float = 1.0,
                         threshold: float = 20.0) -> tuple[Any]:
    # PyTorch's softplus_backward: z / (z + 1) with z = exp(x * beta), exact for x << 0 (where
    # 1 / (1 + exp(-x)) overflows to 0 first); 1 above the threshold.
    scaled = x * beta
    above = scaled > threshold
    z = xp.exp(xp.where(above, threshold, scaled))
    return (g * xp.where(above, 1.0, z / (z + 1.0)),)


def _sympy_softplus(x: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    sympy = load_sympy()
    return sympy.Piecewise((x, x * beta > threshold), (sympy.log(1 + sympy.exp(x * beta)) / beta, True))


def _atan2_derivative(xp: Any, g: Any, ans: Any, a: Any, b: Any) -> tuple[Any, Any]:
    # PyTorch's atan2_backward: g * b * recip, g * -a * recip, recip = 1 / (a^2 + b^2), and 0 at the origin where
    # PyTorch's gives 0. An integer a comes as PyTorch saved it (Op.saved_integers): its -a, an integer, has no -0.
    negated = -a
    if isinstance(a, np.ndarray) and a.dtype.kind in "iu":
        a, negated = (x.astype(np.result_type(g, b)) for x in (a, negated))
    denominator = a * a + b * b
    scale = xp.where(denominator == 0, 0.0, 1.0 / xp.where(denominator == 0, 1.0, denominator))
    return g * b * scale, g * negated * scale


def _zero_derivative(xp: Any, g: Any, ans: Any, x: Any, **params: Any) -> tuple[Any]:
    return (g,)  # masked everywhere (_masked_everywhere): a step's derivative is 0


def _masked_everywhere(x: Any, **params: Any) -> tuple[bool]:
    return (True,)


# Sampled (as `kinked`: sign(x) * (0.3 + |x|)) in (0.6, 0.75): away from 0, 0.5 and 1, where
# floor, ceil, round, trunc jump.
_BETWEEN_STEPS = ((0.3, 0.45),)


@cache
def _step_function(name: str) -> Any:
    """SymPy's step `name` with PyTorch's derivative, 0: SymPy leaves the derivative of its
    floor and ceiling unevaluated, and has no round (to even) or trunc."""
    sympy = load_sympy()
    on_numbers: dict[str, Callable[[float], int]] = {"round": round, "trunc": math.trunc}

    def fdiff(self: Any, argindex: int = 1) -> Any:
        return sympy.S.Zero

    if name in on_numbers:
        def evaluate(cls: Any, arg: Any) -> Any:
            return sympy.Integer(on_numbers[name](float(arg))) if arg.is_Number else None

        return type(name, (sympy.Function,), {"fdiff": fdiff, "eval": classmethod(evaluate)})
    return type(name, ({"floor": sympy.floor, "ceil": sympy.ceiling}[name],), {"fdiff": fdiff})


def _sympy_step(name: str, x: Any) -> Any:
    return _step_function(name)(x)


def _round(xp: Any, x: Any, decimals: int | None = None) -> Any:
    if decimals is None:
        return np.rint(x)
    scale = _c_pow(10.0, float(abs(decimals)))  # (inf past 10**308, as C's pow: NaN out, as in PyTorch)
    if decimals > 0:
        return np.rint(x * scale) / scale
    return np.rint(x / scale) * scale


def _sympy_round(x: Any, decimals: int | None = None) -> Any:
    if decimals is None:
        return _sympy_step("round", x)
    scale = load_sympy().Integer(10) ** decimals
    return _sympy_step("round", x * scale) / scale


# NumPy has no erf. The C library's (math.erf) on floats, and the same function element by
# element on arrays (np.frompyfunc): the same bits on both paths, within an ulp of the true
# value. It costs about 0.1 s per million points, against a port of an erf to NumPy
# arithmetic: more code to hold to the bits, for a function few programs call.
_ERF, _ERFC = np.frompyfunc(math.erf, 1, 1), np.frompyfunc(math.erfc, 1, 1)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erf(xp: Any, x: Any) -> Any:
    if xp is FLOATS:
        return math.erf(x)
    out = _ERF(x)
    if isinstance(out, (float, np.ndarray)):
        return np.asarray(out, dtype=float)
    # A dual number (the Hessian's, where gelu's derivative calls erf): dual.py differentiated
    # _ERF by the erf row's JVP; its value is made float like the others.
    return type(out)(np.asarray(out.primal, dtype=float), out.tangent)


def _erfc(xp: Any, x: Any) -> Any:
    return math.erfc(x) if xp is FLOATS else np.asarray(_ERFC(x), dtype=float)


_RADIANS_PER_DEGREE, _DEGREES_PER_RADIAN = math.pi / 180.0, 180.0 / math.pi


def _copysign_derivative(xp: Any, g: Any, ans: Any, a: Any, b: Any) -> tuple[Any, Any]:
    # The ratio is masked, not the product: a NaN g still flows (zeros_like for b: masked).
    return g * xp.where(a == 0, 0.0, ans / xp.where(a == 0, 1.0, a)), g


def _xlogy(xp: Any, a: Any, b: Any) -> Any:
    # torch.xlogy: NaN where b is NaN, else 0 where a is 0 (0 * log(0) is 0), else a * log(b); its kernel is scalar,
    # C's log (of float32, glibc's logf: float32.c_logf, not the vectorised log of torch.log)
    log = float32.c_logf(b) if type(b) is np.ndarray and b.dtype == np.float32 else xp.log(b)
    return xp.where((a == 0) & (b == b), 0.0, a * log)


def _xlogy_derivative(xp: Any, g: Any, ans: Any, a: Any, b: Any) -> tuple[Any, Any]:
    # PyTorch's: xlogy(g, b) for a (masked where a == 0 and b <= 0), g * a / b for b.
    return _xlogy(xp, g, b), g * a / b


def _xlog1py(xp: Any, a: Any, b: Any) -> Any:
    # torch.special.xlog1py: NaN where b is NaN, else 0 where a is 0, else a * log1p(b).
    return xp.where((a == 0) & (b == b), 0.0, a * xp.log1p(b))


def _xlog1py_derivative(xp: Any, g: Any, ans: Any, a: Any, b: Any) -> tuple[Any, Any]:
    # PyTorch's: xlog1py(g, b) for a (masked where a == 0 and b <= -1), g * a / (b + 1) for b.
    return _xlog1py(xp, g, b), g * a / (b + 1.0)


def _xlog1py_torch_node(constant: Any, shapes: object) -> str:
    # special_xlog1py.self_scalar is Backward1, .other_scalar Backward2
    return "SpecialXlog1PyBackward1" if constant[0] else "SpecialXlog1PyBackward2" if constant[1] else "SpecialXlog1PyBackward0"


def _logit(xp: Any, x: Any, eps: float | None = None) -> Any:
    # PyTorch's kernel: x clamped to [eps, 1 - eps] when eps is given (a NaN stays), then log(x / (1 - x)).
    if eps is not None:
        x = xp.where(x < eps, eps, xp.where(x > 1.0 - eps, 1.0 - eps, x))
    return xp.log(x / (1.0 - x))


def _logit_derivative(xp: Any, g: Any, ans: Any, x: Any, eps: float | None = None) -> tuple[Any]:
    # PyTorch's logit_backward: NaN outside [0, 1] without eps; 0 outside [eps, 1 - eps] with it.
    low, high = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
    outside = (x < low) | (x > high)
    # (x (1 - x) + 0.0: at -0.0 PyTorch's denominator is +0, the gradient +inf)
    return (xp.where(outside, math.nan if eps is None else 0.0, g / (x * (1.0 - x) + 0.0)),)


def _sympy_logit(x: Any, eps: float | None = None) -> Any:
    if eps is not None:
        x = load_sympy().Min(load_sympy().Max(x, eps), 1 - eps)
    return load_sympy().log(x / (1 - x))


VALUE = Param("value", "float", 1.0)


_SIXTH_F32 = float(np.float32(1.0 / 6.0))  # PyTorch's hardsigmoid slope, in float64 too


def _clamp(xp: Any, x: Any, low: float, high: float) -> Any:
    # PyTorch's clamp: NaN stays NaN, -0.0 stays -0.0 at a low bound of 0.
    return xp.where(x < low, low, xp.where(x > high, high, x))


def _hardtanh(xp: Any, x: Any, min_val: float = -1.0, max_val: float = 1.0) -> Any:
    if min_val > max_val:  # (F.hardtanh's own check, in Python)
        raise PythonValueError("min_val cannot be greater than max_val")
    return _clamp(xp, x, min_val, max_val)


def _clamp_bounds(xp: Any, x: Any, **bounds: float | None) -> Any:
    # torch.clamp: min(max(x, min), max), NaN stays, and max wins where min > max. Either may be
    # None, not both.
    low, high = bounds.get("min"), bounds.get("max")
    if low is None and high is None:
        raise ValueError("torch.clamp: At least one of 'min' or 'max' must not be None")
    out = x if low is None else xp.where(x < low, low, x)
    return out if high is None else xp.where(out > high, high, out)


def _one_bound(side: str) -> Any:
    """torch.clamp_min / clamp_max: clamp with its one bound, which must be given."""
    def forward(xp: Any, x: Any, **bound: float | None) -> Any:
        if bound.get(side) is None:
            raise ValueError(f"clamp_{side}() missing 1 required positional argument: '{side}'")
        return _clamp_bounds(xp, x, **bound)

    return forward


def _clamp_masked(x: Any, **bounds: float | None) -> tuple[Any]:
    # ClampBackward1 passes the gradient where min <= x <= max, the bounds included; not at NaN.
    low, high = bounds.get("min"), bounds.get("max")
    masked = x != x
    masked = masked if low is None else masked | (x < low)
    return (masked if high is None else masked | (x > high),)


def _sympy_clamp(x: Any, **bounds: float | None) -> Any:
    sympy = load_sympy()
    low, high = bounds.get("min"), bounds.get("max")
    out = x if low is None else sympy.Max(x, low)
    return out if high is None else sympy.Min(out, high)


def _threshold(xp: Any, x: Any, threshold: float | None = None, value: float | None = None) -> Any:
    # F.threshold: x where x > threshold, else value (NaN stays NaN).
    if threshold is None or value is None:
        raise ValueError("threshold takes threshold and value: threshold(x, 0.5, 0.0)")
    return xp.where(x <= threshold, value, x)


def _outside(x: Any, low: float, high: float) -> Any:
    # Where PyTorch's hardtanh backward gives 0: not strictly inside (a NaN x passes g).
    return (x <= low) | (x >= high)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _elu(xp: Any, x: Any, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0) -> Any:
    return xp.where(x <= 0, xp.expm1(x * input_scale) * (alpha * scale), x * scale)


def _elu_derivative(xp: Any, g: Any, ans: Any, x: Any, alpha: float = 1.0, scale: float = 1.0,
                    input_scale: float = 1.0) -> tuple[Any]:
    # The slope at 0 itself is a constant: PyTorch's double backward is 0 there (x < 0 only).
    slope = input_scale * (alpha * scale)
    return (g * xp.where(x < 0, slope * xp.exp(x * input_scale), xp.where(x == 0, slope, scale)),)


def _leaky_relu_derivative(xp: Any, g: Any, ans: Any, x: Any, negative_slope: float = 0.01) -> tuple[Any]:
    # g, or g times the slope in the tensor's dtype (a float32 g by float32's slope, as PyTorch's kernel: not by
    # float64's, rounded after)
    typed = x.dtype.type if isinstance(x, np.ndarray) and x.dtype.kind == "f" else float
    return (g * xp.where(x > 0, typed(1.0), typed(negative_slope)),)


def _elu_result_derivative(xp: Any, g: Any, ans: Any, x: Any, alpha: float = 1.0, scale: float = 1.0,
                           input_scale: float = 1.0) -> tuple[Any]:
    # In place (EluBackward1, CeluBackward1), PyTorch's derivative reads the result, its input overwritten: at and
    # below 0 g * input_scale * (result + alpha * scale), left to right, the coefficients in the tensor's dtype.
    kind = ans.dtype.type if isinstance(ans, np.ndarray) and ans.dtype.kind == "f" else float
    negative, negative_input, positive = kind(kind(alpha) * kind(scale)), kind(input_scale), kind(scale)
    return (xp.where(ans <= 0, g * negative_input * (ans + negative), g * positive),)


def _celu_result_derivative(xp: Any, g: Any, ans: Any, x: Any, alpha: float = 1.0) -> tuple[Any]:
    return _elu_result_derivative(xp, g, ans, x, alpha, 1.0, 1.0 / float(np.float32(alpha)))


def _sympy_elu(x: Any, alpha: Any = 1, scale: Any = 1, input_scale: Any = 1) -> Any:
    sympy = load_sympy()
    return sympy.Piecewise((scale * x, x > 0), (scale * alpha * (sympy.exp(x * input_scale) - 1), True))


def _celu(xp: Any, x: Any, alpha: float = 1.0) -> Any:
    # PyTorch's celu is its elu kernel with input_scale 1 / alpha.
    return _elu(xp, x, alpha, 1.0, 1.0 / alpha)


def _celu_derivative(xp: Any, g: Any, ans: Any, x: Any, alpha: float = 1.0) -> tuple[Any]:
    # (PyTorch's derivative takes 1 / alpha of alpha rounded to float32, where its forward takes 1 / alpha)
    return _elu_derivative(xp, g, ans, x, alpha, 1.0, 1.0 / float(np.float32(alpha)))


# silu' and mish' take PyTorch's sigmoid, 1 / (1 + exp(-x)), which is 0 below -745 (the
# sigmoid row's is subnormal there): their gradients are PyTorch's; their Hessians at -1e30 are
# NaN (inf / inf) where PyTorch's are 0.
def _silu_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    s = 1.0 / (1.0 + xp.exp(-x))
    return (g * s * (1.0 + x * (1.0 - s)),)


def _mish_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    s, t = 1.0 / (1.0 + xp.exp(-x)), xp.tanh(xp.log1p(xp.exp(x)))
    return (g * (t + x * s * (1.0 - t * t)),)


def _logsigmoid(xp: Any, x: Any) -> Any:
    # min(x, 0) - log1p(exp(-|x|)), PyTorch's kernel; of float32, its SLEEF expf and log1pf (float32.log_sigmoid)
    if type(x) is np.ndarray and x.dtype == np.float32:
        return float32.log_sigmoid(x)[0]
    return xp.where(x < 0, x, 0.0) - xp.log1p(xp.exp(-xp.abs(x)))


def _logsigmoid_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    # z = exp(-|x|), written without abs, whose derivative at 0 is 0: the Hessian at 0 is -1/4. Of float32, the
    # forward's buffer: SLEEF's expf, as PyTorch's backward reads it.
    if type(x) is np.ndarray and x.dtype == np.float32:
        z = float32.sleef_expf(-np.abs(x))
    else:
        z = xp.exp(xp.where(x < 0, x, -x))
    return (g * xp.where(x < 0, 1.0 - z / (1.0 + z), z / (1.0 + z)),)


# softsign and tanhshrink are compositions in PyTorch: x / (|x| + 1) and x - tanh(x), recorded
# as DivBackward0 over AddBackward0 over AbsBackward0, and SubBackward0 over TanhBackward0.
def _softsign(emit: Any, x: Any) -> Any:
    return emit("div", x, emit("add", emit("abs", x), 1.0))


def _tanhshrink(emit: Any, x: Any) -> Any:
    return emit("sub", x, emit("tanh", x))


_ONE_ARG: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = tuple(((shape,), {}) for shape in [(), (4,), (2, 3)])


_SQRT1_2 = math.sqrt(0.5)
_GELU_BETA = _TWO_OVER_SQRT_PI * _SQRT1_2 * 0.5  # PyTorch's kBeta: 1 / sqrt(2 pi)


_TANH_BETA, _TANH_KAPPA = math.sqrt(2.0) * _TWO_OVER_SQRT_PI * 0.5, 0.044715  # PyTorch's kBeta, kKappa
APPROXIMATE = Param("approximate", "str", "none", choices=("none", "tanh"))


def _gelu(xp: Any, x: Any, approximate: str = "none") -> Any:
    if approximate == "tanh":  # 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
        inner = _TANH_BETA * (x + _TANH_KAPPA * (x * x * x))
        return 0.5 * x * (1.0 + xp.tanh(inner))
    return x * 0.5 * (1.0 + _erf(xp, x * _SQRT1_2))


def _gelu_derivative(xp: Any, g: Any, ans: Any, x: Any, approximate: str = "none") -> tuple[Any]:
    if approximate == "tanh":  # PyTorch's GeluBackward: the product rule on 0.5 * x and 1 + tanh(inner)
        # 1 - tanh^2 as (1 - t) * (1 + t): PyTorch's compiled 1 - t * t is a fused multiply-add,
        # exact where tanh nears 1; NumPy's would cancel, 10 units in the last place off at -2.5.
        x_sq = x * x
        tanh_inner = xp.tanh(_TANH_BETA * (x + _TANH_KAPPA * (x_sq * x)))
        tanh_derivative = (1.0 - tanh_inner) * (1.0 + tanh_inner)
        right_derivative = 0.5 * x * tanh_derivative * (_TANH_BETA * (1.0 + 3.0 * _TANH_KAPPA * x_sq))
        return (g * (0.5 * (1.0 + tanh_inner) + right_derivative),)
    cdf = 0.5 * (1.0 + _erf(xp, x * _SQRT1_2))
    return (g * (cdf + x * (xp.exp(-0.5 * x * x) * _GELU_BETA)),)


def _frac(xp: Any, x: Any) -> Any:
    return x - np.trunc(x)  # torch.frac: frac(-0.0) is 0.0, frac(inf) NaN


def _remainder(xp: Any, a: Any, b: Any) -> Any:
    # torch.remainder (Python's %): fmod moved to the divisor's side. A zero keeps fmod's sign,
    # the dividend's (NumPy's remainder gives the divisor's).
    mod = np.fmod(a, b)
    return xp.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


def _floor_divide(xp: Any, a: Any, b: Any) -> Any:
    # PyTorch's div(a, b, rounding_mode="floor") (Python's //, NumPy's floor_divide), written
    # with fmod: its steps are in the op table, so that it runs on the Hessian's dual numbers too.
    mod = np.fmod(a, b)
    quotient = (a - mod) / xp.where(b == 0, 1.0, b)
    quotient = xp.where((mod != 0) & ((b < 0) != (mod < 0)), quotient - 1.0, quotient)
    floored = np.floor(quotient)
    floored = xp.where(quotient - floored > 0.5, floored + 1.0, floored)
    zero = xp.where(b == 0, 1.0, np.copysign(0.0, a) * np.copysign(1.0, b))  # copysign(0, a / b)
    return xp.where(b == 0, np.floor(a / b), xp.where(quotient == 0, zero, floored))  # (floor: +-inf, NaN)


def _remainder_derivative(xp: Any, g: Any, ans: Any, a: Any, b: Any) -> tuple[Any, Any]:
    # PyTorch's: g, and -g * div(a, b, rounding_mode="floor")
    return g, -g * _floor_divide(xp, a, b)


def _node_by_scalar(tensor_scalar: str, tensor_tensor: str) -> Callable[[Any, object], str]:
    # x % 2 is remainder(Tensor, Scalar); 2 % x is remainder(Scalar, Tensor), which PyTorch
    # records as NotImplemented (it has no derivative for it: gradcli gives the one above).
    return lambda constant, shapes: tensor_scalar if constant[1] else ("NotImplemented" if constant[0] else tensor_tensor)


def _sinc(xp: Any, x: Any) -> Any:
    # torch.sinc: 1 at 0, else sin(pi x) / (pi x)
    product = math.pi * xp.where(x == 0, 1.0, x)
    return xp.where(x == 0, 1.0, xp.sin(product) / product)


def _sinc_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    # PyTorch's sinc_backward: g * (pi x cos(pi x) - sin(pi x)) / (x * x * pi), 0 where that
    # denominator is 0 (masked: a NaN g gives 0 there too).
    product = x * math.pi
    squared = x * x * math.pi
    return (g * (product * xp.cos(product) - xp.sin(product)) / xp.where(squared == 0, 1.0, squared),)


def _integer_value(value: float, *args: Any) -> Any:
    """addcmul's value as PyTorch's integer kernels take it: cast to their dtype first (C++'s truncation toward zero,
    then wrapping: 0.5 is 0, -1 is 255 in uint8); the value itself elsewhere (floats, Python floats, dual numbers)."""
    dtypes = [arg.dtype for arg in args if isinstance(arg, np.ndarray)]
    if not dtypes or np.result_type(*dtypes).kind not in "iu":
        return value
    return np.asarray(math.trunc(value)).astype(np.int64).astype(np.result_type(*dtypes))[()]


def _addcmul(xp: Any, x: Any, a: Any, b: Any, value: float = 1.0) -> Any:
    return x + _integer_value(value, x, a, b) * a * b


# addcdiv's refusal of integer tensor1 and tensor2 (bools too), in its meta function, before the shapes
_ADDCDIV_INTEGERS = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
    "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
    "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
    "float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), "
    "for all dtypes.")


def _lerp(xp: Any, start: Any, end: Any, weight: Any) -> Any:
    # PyTorch's lerp kernel: from the nearer end, so that weight 1 gives end exactly.
    small = xp.abs(weight) < 0.5
    return xp.where(small, start + weight * (end - start), end - (end - start) * (1.0 - weight))


def _lerp_torch_node(constant: Any, shapes: object) -> str:
    return "LerpBackward0" if constant[2] else "LerpBackward1"  # a number weight is lerp.Scalar


# --- comparisons and masks: PyTorch's booleans, as 1.0 and 0.0 ------------------------------


def _no_derivative(xp: Any, g: Any, ans: Any, *args: Any) -> tuple[Any, ...]:
    return (g,) * len(args)  # masked everywhere: the value is a constant of the point


def _masked_all(*args: Any) -> tuple[bool, ...]:
    return (True,) * len(args)


def _sympy_mask(condition: Any) -> Any:
    return load_sympy().Piecewise((1, condition), (0, True))


def _comparison(name: str, symbol: str, compare: Callable[[Any, Any], Any], relation: str,
                methods: tuple[str, ...]) -> Op:
    # Comparisons bind below every other operator and never chain; IEEE's answers at NaN.
    return _binary(name, symbol, lambda xp, a, b: xp.where(compare(a, b), 1.0, 0.0), _no_derivative, "None", 4,
                   lambda a, b: _sympy_mask(getattr(load_sympy(), relation)(a, b)), mask=_masked_all,
                   differentiable=False, compares=True, boolean=True, callable=True, kinked=True, methods=methods)


def _logical(name: str, symbol: str, combine: Callable[[Any, Any], Any], relation: str, precedence: int) -> Op:
    # Any number but 0 is true, as torch.logical_and and np.logical_and have it (NaN too).
    return _binary(name, symbol, lambda xp, a, b: xp.where(combine(a != 0, b != 0), 1.0, 0.0), _no_derivative, "None",
                   precedence, lambda a, b: _sympy_mask(getattr(load_sympy(), relation)(load_sympy().Ne(a, 0),
                                                                                         load_sympy().Ne(b, 0))),
                   mask=_masked_all, differentiable=False, boolean=True, callable=True, kinked=True, methods=(name,),
                   reference=f"torch.{name}(a, b)")  # (PyTorch's | and & are bitwise: no float tensors)


def _masked_fill_shape(x: tuple[int, ...], mask: tuple[int, ...], value: tuple[int, ...]) -> tuple[int, ...]:
    if value:
        raise ValueRefusal(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {len(value)} "
                           f"dimension(s).")
    return tuple(np.broadcast_shapes(x, mask))


def _masked_fill_torch_node(constant: Any, shapes: object) -> str:
    return "MaskedFillBackward0" if constant[2] else "MaskedFillBackward1"  # a number value is masked_fill.Scalar


# --- erfinv: NumPy has none -----------------------------------------------------------------
# PyTorch's own kernel (calc_erfinv), written once against `xp`: NumPy's ufuncs and the C
# library's erf (as the erf row), the same bits on both paths; on the Hessian's dual numbers its
# arithmetic differentiates itself. SciPy would be a large dependency for one function.


_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def _erfinv(xp: Any, y: Any) -> Any:
    # PyTorch's calc_erfinv: a rational first guess, then two Newton steps on erf.
    a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
    y_abs = xp.abs(y)
    z = y * y
    num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
    dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0
    central = y * num / dem
    w = xp.sqrt(-xp.log(xp.where(y_abs < 1.0, (1.0 - y_abs) / 2.0, 0.5)))
    num = ((c[3] * w + c[2]) * w + c[1]) * w + c[0]
    dem = (d[1] * w + d[0]) * w + 1.0
    x = xp.where(y_abs <= 0.7, central, np.copysign(num, y) / dem)
    for _ in range(2):
        x = x - (_erf(xp, x) - y) / (_TWO_OVER_SQRT_PI * xp.exp(-x * x))
    x = xp.where(y_abs == 1.0, np.copysign(math.inf, y), x)
    return xp.where(y_abs > 1.0, math.nan, x)


_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)


def _heaviside(xp: Any, x: Any, value: Any) -> Any:
    # torch.heaviside: value at 0 (either sign), 1 above, 0 below and at NaN (NumPy's is NaN there).
    return xp.where(x == 0, value, xp.where(x > 0, 1.0, 0.0))


def _sympy_gelu(x: Any, approximate: str = "none") -> Any:
    sympy = load_sympy()
    if approximate == "tanh":
        return x * (1 + sympy.tanh(sympy.sqrt(2 / sympy.pi) * (x + sympy.Float(_TANH_KAPPA) * x**3))) / 2
    return x * (1 + sympy.erf(x / sympy.sqrt(2))) / 2


ALPHA = Param("alpha", "float", 1.0)


def _with_params(*params: dict[str, Any], defaults: bool = True) -> tuple[Any, ...]:
    """The examples of a row of one arg with params: at its defaults, and with each of `params`."""
    plain: list[Any] = [((shape,), {}) for shape in [(), (4,), (2, 3)]] if defaults else []
    return tuple(plain + [((shape,), given) for given in params for shape in [(), (2, 3)]])


def _binary(name: str, symbol: str, forward: Any, derivative: Any, torch_node: str, precedence: int,
            sympy: Any, **fields: Any) -> Op:
    fields.setdefault("callable", False)  # `a + b`; but `pow(a, b)` too
    return elementwise(name, 2, forward, derivative, torch_node, symbol=symbol, precedence=precedence,
                       sympy=sympy, **fields)


def _unary(name: str, forward: Any, derivative: Any, sympy: Any, **fields: Any) -> Op:
    torch_node = fields.pop("torch_node", f"{name.capitalize()}Backward0")
    return elementwise(name, 1, forward, derivative, torch_node, sympy=sympy, **fields)


# hardtanh's kernel (relu6's too) has no loop for bools
_HARDTANH_BOOL = (("bool input", "RuntimeError", "Bool inputs not supported for hardtanh"),)

ROWS = [
    # operators: + - lowest, then * / (and @, a structure row), unary -, ** highest
    _binary("add", "+", operator.add, lambda xp, g, ans, a, b: (g, g), "AddBackward0", 10, operator.add,
            ufuncs=(np.add,), linear=True, reflects=True, spellings=("add",), methods=("add",), keeps_integers=True,
            overloads=("add_scaled",)),  # add(a, b, alpha=2)
    _binary("sub", "-", operator.sub, lambda xp, g, ans, a, b: (g, -g), "SubBackward0", 10, operator.sub,
            ufuncs=(np.subtract,), linear=True, scalar_overloads=frozenset({"RsubBackward1"}),
            torch_node_rule=lambda constant, shapes: "RsubBackward1" if constant[0] else "SubBackward0", spellings=("sub", "subtract"), methods=("sub", "subtract"), keeps_integers=True,
            dtype_refusals=BOOL_SUBTRACTION, overloads=("sub_scaled",)),  # sub(a, b, alpha=2)
    _binary("mul", "*", operator.mul, lambda xp, g, ans, a, b: (g * b, g * a), "MulBackward0", 20, operator.mul,
            ufuncs=(np.multiply,), reflects=True, spellings=("mul", "multiply"), methods=("mul", "multiply"), keeps_integers=True),
    # PyTorch's rule for the divisor, -g * ((a / b) / b): a / (b * b) overflows where the
    # quotient does not, and y / y must have the gradient 0 exactly. (a / b, not the answer: a float32
    # tensor divided in place by a float64 one holds the quotient rounded to float32.)
    _binary("div", "/", operator.truediv, lambda xp, g, ans, a, b: (g / b, -g * ((a / b) / b)), "DivBackward0", 20,
            operator.truediv, ufuncs=(np.divide,), domain=((-2.0, 2.0), (0.5, 2.0)),
            reflected=lambda emit, a, b: emit("mul", emit("reciprocal", b), a), spellings=("div", "divide", "true_divide"), methods=("div", "divide", "true_divide"),
            overloads=("div_rounding",)),  # div(a, b, rounding_mode='floor')
    # PyTorch masks the base's product where the exponent is 0 (NaN of g included).
    _binary("pow", "**", lambda xp, a, b: xp.power(a, b), _pow_derivative, "PowBackward0", 40, operator.pow,
            mask=lambda a, b: (b == 0, None), right_assoc=True, callable=True, ufuncs=(np.power, np.float_power), torch_node_rule=_pow_torch_node,
            scalar_overloads=frozenset({"PowBackward0", "PowBackward2"}), domain=((0.3, 2.0), (-2.0, 2.0)), spellings=("power", "float_power"), methods=("pow", "float_power"),
            keeps_integers=True, dtype="keeps", reference="torch.pow(a, b)", backward_promotes=True, inputs=("input", "exponent"),
            dtype_refusals=(("bool input 1 into 0", "RuntimeError", BOOL_SUBTRACTION[1][2]),)),  # (its exponent - 1)
    elementwise("neg", 1, operator.neg, lambda xp, g, ans, x: (-g,), "NegBackward0", sympy=operator.neg,
                symbol="-", precedence=30, callable=False, linear=True,
                ufuncs=(np.negative,), spellings=("neg", "negative"), methods=("neg", "negative"), keeps_integers=True,
                dtype_refusals=(("bool", "RuntimeError", NEGATION),)),
    # functions of one arg
    _unary("exp", np.exp, lambda xp, g, ans, x: (g * ans,), _sympy("exp"), methods=("exp",)),
    _unary("log", lambda xp, x: _positive_nan(xp, xp.log(x), x < 0), lambda xp, g, ans, x: (g / x,), _sympy("log"), domain=((0.2, 3.0),), spellings=("ln",), methods=("log",),
           ufuncs=(np.log,)),
    _unary("log2", lambda xp, x: _positive_nan(xp, xp.log2(x), x < 0), lambda xp, g, ans, x: (g / (x * _LN2),), _sympy("log", 2), domain=((0.2, 3.0),), methods=("log2",),
           ufuncs=(np.log2,)),
    _unary("log10", lambda xp, x: _positive_nan(xp, xp.log10(x), x < 0), lambda xp, g, ans, x: (g / (x * _LN10),), _sympy("log", 10), domain=((0.2, 3.0),), methods=("log10",),
           ufuncs=(np.log10,)),
    # (PyTorch's log1p of a NaN is a positive NaN, whatever its sign)
    _unary("log1p", lambda xp, x: _positive_nan(xp, xp.log1p(x), (x < -1.0) | (x != x)), lambda xp, g, ans, x: (g / (1.0 + x),),
           lambda x: load_sympy().log(1 + x), torch_node="Log1PBackward0", domain=((-0.5, 3.0),), methods=("log1p",),
           ufuncs=(np.log1p,)),
    _unary("expm1", np.expm1, lambda xp, g, ans, x: (g * (ans + 1.0),), lambda x: load_sympy().exp(x) - 1, methods=("expm1",)),
    _unary("sqrt", lambda xp, x: _positive_nan(xp, xp.sqrt(x), x < 0), lambda xp, g, ans, x: (g / (2.0 * ans),), _sympy("sqrt"), domain=((0.2, 3.0),), methods=("sqrt",),
           ufuncs=(np.sqrt,)),
    _unary("abs", np.abs, _abs_derivative, _sympy("Abs"), ufuncs=(np.absolute, np.fabs), kinked=True, spellings=("absolute",), methods=("abs", "absolute"), dtype="keeps",
           dialects=(Dialect("numpy", names=("fabs",)),),
           dtype_refusals=kernel_refusal("abs_cpu", "bool input")),
    _unary("sin", np.sin, lambda xp, g, ans, x: (g * xp.cos(x),), _sympy("sin"), methods=("sin",)),
    _unary("cos", np.cos, lambda xp, g, ans, x: (-g * xp.sin(x),), _sympy("cos"), methods=("cos",)),
    _unary("tan", np.tan, lambda xp, g, ans, x: (g * (1.0 + ans * ans),), _sympy("tan"), domain=((-1.2, 1.2),), methods=("tan",)),
    _unary("asin", np.arcsin, lambda xp, g, ans, x: (g / xp.sqrt(1.0 - x * x),), _sympy("asin"),
           domain=((-0.8, 0.8),), spellings=("arcsin",), methods=("asin", "arcsin")),
    _unary("acos", np.arccos, lambda xp, g, ans, x: (-g / xp.sqrt(1.0 - x * x),), _sympy("acos"),
           domain=((-0.8, 0.8),), spellings=("arccos",), methods=("acos", "arccos")),
    _unary("atan", np.arctan, lambda xp, g, ans, x: (g / (1.0 + x * x),), _sympy("atan"), spellings=("arctan",), methods=("atan", "arctan")),
    _unary("sinh", np.sinh, lambda xp, g, ans, x: (g * xp.cosh(x),), _sympy("sinh"), methods=("sinh",)),
    _unary("cosh", np.cosh, lambda xp, g, ans, x: (g * xp.sinh(x),), _sympy("cosh"), methods=("cosh",)),
    _unary("tanh", np.tanh, _tanh_derivative, _sympy("tanh"), methods=("tanh",)),
    # sigmoid' from the value, in PyTorch's order: g * (1 - ans) * ans
    _unary("sigmoid", _sigmoid, lambda xp, g, ans, x: (g * (1.0 - ans) * ans,), lambda x: 1 / (1 + load_sympy().exp(-x)), methods=("sigmoid",),
           spellings=("expit",)),
    # PyTorch's threshold_backward masks where the value is <= 0: NaN passes the gradient.
    _unary("relu", _relu, lambda xp, g, ans, x: (g,), lambda x: load_sympy().Max(x, 0), mask=lambda x: (x <= 0,),
           kinked=True, methods=("relu",), dtype="keeps",
           dtype_refusals=(("bool input", "RuntimeError", "Boolean inputs not supported for relu"),)),
    _unary("softplus", _softplus, _softplus_derivative, _sympy_softplus, domain=((-25.0, 25.0),),
           params=(Param("beta", "float", 1.0), Param("threshold", "float", 20.0)),
           examples=_with_params({"beta": 2.0}, {"beta": 0.5, "threshold": 3.0}), reference="F.softplus(a)",
           dtype_refusals=kernel_refusal("softplus_cpu")),
    # PyTorch's square is pow(x, 2): its node is PowBackward0 and its derivative 2 * x.
    _unary("square", np.square, lambda xp, g, ans, x: (g * (2.0 * x),), lambda x: x**2, torch_node="PowBackward0", methods=("square",), dtype="squares"),
    # rsqrt' and reciprocal' from the value, as PyTorch has them: -0.5 * g * ans**3, -g * ans**2.
    _unary("rsqrt", _rsqrt, lambda xp, g, ans, x: (-0.5 * g * (ans * ans * ans),),
           lambda x: 1 / load_sympy().sqrt(x), domain=((0.2, 3.0),), methods=("rsqrt",)),
    _unary("reciprocal", np.reciprocal, lambda xp, g, ans, x: (-g * (ans * ans),), lambda x: 1 / x,
           domain=((0.3, 2.0),), methods=("reciprocal",)),
    _unary("exp2", np.exp2, lambda xp, g, ans, x: (g * ans * _LN2,), lambda x: 2**x, methods=("exp2",)),
    # PyTorch's: g * rsqrt(x**2 + 1), g * rsqrt(x**2 - 1), g / (1 - x**2)
    _unary("asinh", np.arcsinh, lambda xp, g, ans, x: (g * (1.0 / xp.sqrt(x * x + 1.0)),), _sympy("asinh"), methods=("asinh", "arcsinh"),
           spellings=("arcsinh",)),
    _unary("acosh", np.arccosh, lambda xp, g, ans, x: (g * (1.0 / xp.sqrt(x * x - 1.0)),), _sympy("acosh"),
           domain=((1.2, 3.0),), methods=("acosh", "arccosh"), spellings=("arccosh",)),
    _unary("atanh", np.arctanh, lambda xp, g, ans, x: (g / (1.0 - x * x),), _sympy("atanh"), domain=((-0.8, 0.8),), methods=("atanh", "arctanh"),
           spellings=("arctanh",)),
    # Piecewise constant: PyTorch's gradient is zeros_like(g), so a NaN coming in gives 0 too.
    # sign is 0 at NaN and +0.0 at -0.0, as PyTorch's; round is to even, as PyTorch's and rint.
    _unary("sign", sign, _zero_derivative,
           _sympy("sign"), mask=_masked_everywhere, kinked=True, methods=("sign",), dtype="keeps"),
    # sgn: sign of a real number, recorded as a node of its own (SgnBackward0)
    _unary("sgn", sign, _zero_derivative, _sympy("sign"), mask=_masked_everywhere, kinked=True, methods=("sgn",),
           dtype="keeps"),
    _unary("floor", np.floor, _zero_derivative, partial(_sympy_step, "floor"), mask=_masked_everywhere,
           kinked=True, domain=_BETWEEN_STEPS, methods=("floor",), dtype="keeps",
           dtype_refusals=kernel_refusal("floor_vml_cpu", "bool input")),
    _unary("ceil", np.ceil, _zero_derivative, partial(_sympy_step, "ceil"), mask=_masked_everywhere,
           kinked=True, domain=_BETWEEN_STEPS, methods=("ceil",), dtype="keeps",
           dtype_refusals=kernel_refusal("ceil_vml_cpu", "bool input")),
    # round(x, decimals=d): PyTorch's rint(x * 10**d) / 10**d, rint(x / 10**-d) * 10**-d below 0 (RoundBackward1)
    _unary("round", _round, _zero_derivative, _sympy_round, mask=_masked_everywhere, ufuncs=(np.rint,),
           kinked=True, domain=_BETWEEN_STEPS, methods=("round",), dtype="keeps", params=(Param("decimals", "int", None),),
           # (torch.round(x, decimals=1); Python's round(x, 1) and np.round(x, 1) by position; NumPy's np.around is
           # np.round, its np.rint the round to even without decimals)
           dialects=(*torch_positional(), Dialect("numpy", names=("around",)), Dialect("numpy", names=("rint",), order=())),
           torch_node_rule=lambda constant, shapes, decimals=None: "RoundBackward0" if decimals is None else "RoundBackward1",
           examples=_with_params({"decimals": 2}, {"decimals": -1}), reference="torch.round(a)",
           dtype_refusals=kernel_refusal("round_vml_cpu", "bool input")),
    _unary("trunc", np.trunc, _zero_derivative, partial(_sympy_step, "trunc"), mask=_masked_everywhere,
           kinked=True, domain=_BETWEEN_STEPS, methods=("trunc",), dtype="keeps", dialects=(Dialect("numpy", names=("fix",)),),
           dtype_refusals=kernel_refusal("trunc_vml_cpu", "bool input")),
    # PyTorch's: (+-2 / sqrt(pi)) * exp(-x**2) * g
    _unary("erf", _erf, lambda xp, g, ans, x: (_TWO_OVER_SQRT_PI * xp.exp(-(x * x)) * g,), _sympy("erf"),
           ufuncs=(_ERF,), methods=("erf",)),
    _unary("erfc", _erfc, lambda xp, g, ans, x: (-_TWO_OVER_SQRT_PI * xp.exp(-(x * x)) * g,), _sympy("erfc"), methods=("erfc",)),
    # PyTorch's: g * (pi / 180) and g * (180 / pi)
    _unary("deg2rad", np.deg2rad, lambda xp, g, ans, x: (g * _RADIANS_PER_DEGREE,),
           lambda x: x * load_sympy().pi / 180, torch_node="Deg2RadBackward0", linear=True, methods=("deg2rad",),
           dialects=(Dialect("numpy", names=("radians",)),)),
    _unary("rad2deg", np.rad2deg, lambda xp, g, ans, x: (g * _DEGREES_PER_RADIAN,),
           lambda x: x * 180 / load_sympy().pi, torch_node="Rad2DegBackward0", linear=True, methods=("rad2deg",),
           dialects=(Dialect("numpy", names=("degrees",)),)),
    # activations, with torch.nn.functional's defaults. hardtanh and relu6 (hardtanh(x, 0, 6),
    # PyTorch's node too) clamp, NaN stays; their gradient is 0 but strictly inside, and passes
    # at NaN (as PyTorch's on one element; its vectorised loop gives 0 there).
    _unary("relu6", partial(_hardtanh, min_val=0.0, max_val=6.0), lambda xp, g, ans, x: (g,),
           lambda x: load_sympy().Min(load_sympy().Max(x, 0), 6), mask=lambda x: (_outside(x, 0.0, 6.0),),
           torch_node="HardtanhBackward0", kinked=True, domain=((-2.0, 7.0),), reference="F.relu6(a)", dtype="keeps",
           dtype_refusals=_HARDTANH_BOOL),
    _unary("hardtanh", _hardtanh, lambda xp, g, ans, x, **bounds: (g,),
           lambda x, min_val=-1.0, max_val=1.0: load_sympy().Min(load_sympy().Max(x, min_val), max_val),
           mask=lambda x, min_val=-1.0, max_val=1.0: (_outside(x, min_val, max_val),), kinked=True,
           params=(Param("min_val", "float", -1.0), Param("max_val", "float", 1.0)),
           examples=_with_params({"min_val": -0.5, "max_val": 2.0}), reference="F.hardtanh(a)", dtype="keeps",
           dtype_refusals=_HARDTANH_BOOL),
    # torch.clamp (and clip, its alias): min, max or both, numbers; the gradient passes at the
    # bounds themselves (ClampBackward1), where hardtanh's does not.
    _unary("clamp", _clamp_bounds, lambda xp, g, ans, x, **bounds: (g,), _sympy_clamp, mask=_clamp_masked,
           torch_node="ClampBackward1", kinked=True, overloads=("clamp_tensor",), spellings=("clip",), methods=("clamp", "clip"),
           params=(Param("min", "number", None, aliases=("a_min",)), Param("max", "number", None, aliases=("a_max",))),
           scalar_params=("min", "max"),
           examples=_with_params({"min": -1.0, "max": 2.0}, {"min": 0.5}, {"max": -1.0}, {"min": 1.0, "max": -1.0},
                                 defaults=False), dtype="keeps",
                                 reference="torch.clamp(a, -1.0, 2.0)", reference_program="clamp(a, -1.0, 2.0)"),
    _unary("clamp_min", _one_bound("min"), lambda xp, g, ans, x, **bound: (g,), _sympy_clamp, mask=_clamp_masked,
           torch_node="ClampMinBackward0", kinked=True, overloads=("clamp_min_tensor",), methods=("clamp_min",), params=(Param("min", "number", None),), scalar_params=("min",),
           examples=_with_params({"min": 0.5}, {"min": -1.0}, defaults=False), dtype="keeps",
           reference="torch.clamp_min(a, 0.5)", reference_program="clamp_min(a, 0.5)"),
    _unary("clamp_max", _one_bound("max"), lambda xp, g, ans, x, **bound: (g,), _sympy_clamp, mask=_clamp_masked,
           torch_node="ClampMaxBackward0", kinked=True, overloads=("clamp_max_tensor",), methods=("clamp_max",), params=(Param("max", "number", None),), scalar_params=("max",),
           examples=_with_params({"max": 0.5}, {"max": -1.0}, defaults=False), dtype="keeps",
           reference="torch.clamp_max(a, 0.5)", reference_program="a.clamp_max(0.5)"),
    # F.threshold(x, threshold, value): x above the threshold, else value; NaN passes the gradient.
    _unary("threshold", _threshold, lambda xp, g, ans, x, **params: (g,),
           lambda x, threshold, value: load_sympy().Piecewise((x, x > threshold), (value, True)),
           mask=lambda x, threshold, value: (x <= threshold,), kinked=True,
           params=(Param("threshold", "float", None), Param("value", "float", None)),
           examples=_with_params({"threshold": 0.1, "value": -3.0}, {"threshold": -1.0, "value": 20.0}, defaults=False),
           reference="F.threshold(a, 0.5, -3.0)", reference_program="threshold(a, 0.5, -3.0)",
           in_place_nodes=(("ThresholdBackward0", "ThresholdBackward1"),),
           dtype_refusals=kernel_refusal("threshold_cpu", "bool input"), dtype="keeps"),
    # negative_slope 0.01 by default: NaN takes the slope.
    _unary("leaky_relu", lambda xp, x, negative_slope=0.01: xp.where(x > 0, x, x * negative_slope),
           _leaky_relu_derivative,
           lambda x, negative_slope=0.01: load_sympy().Piecewise((x, x > 0), (negative_slope * x, True)),
           torch_node="LeakyReluBackward0", in_place_nodes=(("LeakyReluBackward0", "LeakyReluBackward1"),), kinked=True,
           params=(Param("negative_slope", "float", 0.01),),
           examples=_with_params({"negative_slope": 0.2}, {"negative_slope": -1.5}), reference="F.leaky_relu(a)",
           dtype_refusals=kernel_refusal("leaky_relu_cpu")),
    # min(max(x + 3, 0), 6) / 6; PyTorch's slope is 1/6 rounded to float32 (0.1666666716...), 0
    # but strictly inside (-3, 3), NaN included. SymPy's rule has that slope too (its values
    # are 3e-9 relative from 1/6's).
    _unary("hardsigmoid", lambda xp, x: _clamp(xp, x + 3.0, 0.0, 6.0) / 6.0, lambda xp, g, ans, x: (g * _SIXTH_F32,),
           lambda x: load_sympy().Min(load_sympy().Max(x + 3, 0), 6) * _SIXTH_F32, mask=lambda x: (_outside(x, -3.0, 3.0) | (x != x),), kinked=True, domain=((-4.0, 4.0),),
           reference="F.hardsigmoid(a)", dtype_refusals=kernel_refusal("hardsigmoid_cpu")),
    # x * min(max(x + 3, 0), 6) / 6; its gradient: 0 up to -3 (a NaN g too), x / 3 + 0.5 below 3,
    # 1 from 3 on and at NaN.
    _unary("hardswish", lambda xp, x: x * _clamp(xp, x + 3.0, 0.0, 6.0) / 6.0,
           lambda xp, g, ans, x: (g * xp.where(x < 3.0, x / 3.0 + 0.5, 1.0),),
           lambda x: x * load_sympy().Min(load_sympy().Max(x + 3, 0), 6) / 6, mask=lambda x: (x <= -3.0,),
           kinked=True, domain=((-4.0, 4.0),), reference="F.hardswish(a)",
           dtype_refusals=kernel_refusal("hardswish_cpu")),
    # elu(x, alpha=1), selu, celu(x, alpha=1): PyTorch's elu kernel, expm1 below (and at) 0
    # (elu(-0.0) is -0.0), the derivative there from x: g * alpha * scale * exp(x).
    _unary("elu", _elu, _elu_derivative, _sympy_elu, kinked=True, params=(ALPHA,),
           examples=_with_params({"alpha": 2.0}, {"alpha": 0.5}), reference="F.elu(a)", in_place_nodes=(("EluBackward0", "EluBackward1"),),
           in_place_derivative=_elu_result_derivative,
           dtype_refusals=kernel_refusal("elu_cpu")),
    _unary("selu", partial(_elu, alpha=_SELU_ALPHA, scale=_SELU_SCALE),
           partial(_elu_derivative, alpha=_SELU_ALPHA, scale=_SELU_SCALE),
           partial(_sympy_elu, alpha=_SELU_ALPHA, scale=_SELU_SCALE), torch_node="EluBackward0", kinked=True,
           in_place_nodes=(("EluBackward0", "EluBackward1"),),
           in_place_derivative=partial(_elu_result_derivative, alpha=_SELU_ALPHA, scale=_SELU_SCALE),
           reference="F.selu(a)", dtype_refusals=kernel_refusal("elu_cpu")),
    _unary("celu", _celu, _celu_derivative, lambda x, alpha=1.0: _sympy_elu(x, alpha, 1, 1 / alpha), kinked=True,
           params=(ALPHA,), examples=_with_params({"alpha": 2.0}, {"alpha": 0.25}), reference="F.celu(a)",
           in_place_nodes=(("CeluBackward0", "CeluBackward1"),), in_place_derivative=_celu_result_derivative,
           dtype_refusals=kernel_refusal("elu_cpu")),
    # silu: x / (1 + exp(-x)), its derivative g * s * (1 + x * (1 - s)) with s = sigmoid(x), as PyTorch's.
    _unary("silu", lambda xp, x: x / (1.0 + xp.exp(-x)), _silu_derivative,
           lambda x: x / (1 + load_sympy().exp(-x)), spellings=("swish",), reference="F.silu(a)",
           dtype_refusals=kernel_refusal("silu_cpu")),
    # mish: x * tanh(log1p(exp(x))), PyTorch's kernel (no threshold), and its derivative.
    _unary("mish", lambda xp, x: x * xp.tanh(xp.log1p(xp.exp(x))), _mish_derivative,
           lambda x: x * load_sympy().tanh(load_sympy().log(1 + load_sympy().exp(x))), reference="F.mish(a)",
           dtype_refusals=kernel_refusal("mish_cpu")),
    # logsigmoid: min(x, 0) - log1p(exp(-|x|)), PyTorch's kernel and its backward.
    _unary("logsigmoid", _logsigmoid, _logsigmoid_derivative,
           lambda x: -load_sympy().log(1 + load_sympy().exp(-x)), torch_node="LogSigmoidBackward0",
           reference="F.logsigmoid(a)", dtype_refusals=kernel_refusal("log_sigmoid_cpu")),
    composite("softsign", 1, _softsign, "DivBackward0", elementwise=True, kinked=True, examples=_ONE_ARG,
              reference="F.softsign(a)", dtype_refusals=kernel_refusal("abs_cpu", "bool input")),
    composite("tanhshrink", 1, _tanhshrink, "SubBackward0", elementwise=True, examples=_ONE_ARG,
              reference="F.tanhshrink(a)"),
    # gelu, exact (approximate="none"): x * 0.5 * (1 + erf(x / sqrt(2))), and PyTorch's backward
    # g * (cdf + x * pdf).
    _unary("gelu", _gelu, _gelu_derivative, _sympy_gelu, params=(APPROXIMATE,),
           examples=_with_params({"approximate": "tanh"}), reference="F.gelu(a)",
           dtype_refusals=kernel_refusal("GeluKernelImpl")),
    # functions of two args. torch.maximum: ties split the gradient in half, and only the
    # strictly smaller side is masked, so where either side is NaN both get the gradient.
    # (`max(a, b)` is this row too: the reduction row `max` names it among its overloads.)
    elementwise("maximum", 2, np.maximum, lambda xp, g, ans, a, b: (g, g), "MaximumBackward0",
                tie=lambda a, b: a == b, mask=lambda a, b: (a < b, b < a), sympy=lambda a, b: load_sympy().Max(a, b),
                kinked=True, methods=("maximum",), dtype="keeps"),
    elementwise("minimum", 2, np.minimum, lambda xp, g, ans, a, b: (g, g), "MinimumBackward0",
                tie=lambda a, b: a == b, mask=lambda a, b: (a > b, b > a), sympy=lambda a, b: load_sympy().Min(a, b),
                kinked=True, methods=("minimum",), dtype="keeps"),
    elementwise("atan2", 2, np.arctan2, _atan2_derivative, "Atan2Backward0", sympy=lambda a, b: load_sympy().atan2(a, b), spellings=("arctan2",), methods=("atan2", "arctan2"),
                saved_integers=True, dtype_refusals=(("bool input 0 into 1", "RuntimeError", NEGATION),)),  # (its derivative's -a)
    # PyTorch's: g * a / hypot, g * b / hypot (NaN at the origin, as PyTorch's)
    elementwise("hypot", 2, np.hypot, lambda xp, g, ans, a, b: (g * a / ans, g * b / ans), "HypotBackward0",
                sympy=lambda a, b: load_sympy().sqrt(a * a + b * b), domain=((0.3, 2.0), (0.3, 2.0)), methods=("hypot",)),
    # PyTorch's: g / (1 + exp(b - a)) and g / (1 + 2**(b - a)), and the same the other way
    elementwise("logaddexp", 2, np.logaddexp, lambda xp, g, ans, a, b: (g / (1.0 + xp.exp(b - a)),
                                                                         g / (1.0 + xp.exp(a - b))),
                "LogaddexpBackward0", sympy=lambda a, b: load_sympy().log(load_sympy().exp(a) + load_sympy().exp(b)), methods=("logaddexp",),
                # its kernel has no integer loop; a bool with a float computes, but its derivatives subtract the args
                dtype_refusals=(("result integer", "NotImplementedError", '"logaddexp_cpu" not implemented for \'{result}\''),
                                ("any bool into 0 1", "RuntimeError", BOOL_SUBTRACTION[1][2]))),
    elementwise("logaddexp2", 2, np.logaddexp2, lambda xp, g, ans, a, b: (g / (1.0 + xp.power(2.0, b - a)),
                                                                           g / (1.0 + xp.power(2.0, a - b))),
                "Logaddexp2Backward0", sympy=lambda a, b: load_sympy().log(2**a + 2**b, 2), methods=("logaddexp2",),
                dtype_refusals=(("result integer", "NotImplementedError", '"logaddexp2_cpu" not implemented for \'{result}\''),
                                ("any bool into 0 1", "RuntimeError", BOOL_SUBTRACTION[1][2]))),
    # PyTorch's: g * (copysign(a, b) / a), the ratio 0 where a is 0; b gets zeros_like(g).
    # (a Python number for one arg: PyTorch's Tensor-Scalar overloads, nodes of their own whose one input is the tensor;
    # copysign takes a number second alone)
    elementwise("copysign", 2, np.copysign, _copysign_derivative, "CopysignBackward0", mask=lambda a, b: (None, True),
                sympy=lambda a, b: load_sympy().Abs(a) * load_sympy().sign(b), kinked=True, methods=("copysign",),
                torch_node_rule=lambda constant, shapes: "CopysignBackward1" if constant[1] else "CopysignBackward0",
                scalar_overloads=frozenset({"CopysignBackward1"})),
    elementwise("xlogy", 2, _xlogy, _xlogy_derivative, "XlogyBackward0", mask=lambda a, b: ((a == 0) & (b <= 0), None),
                torch_node_rule=lambda constant, shapes: ("XlogyBackward1" if constant[0] else "XlogyBackward2" if constant[1]
                                                          else "XlogyBackward0"),
                scalar_overloads=frozenset({"XlogyBackward1", "XlogyBackward2"}),
                sympy=lambda a, b: a * load_sympy().log(b), domain=((-2.0, 2.0), (0.3, 2.0)), methods=("xlogy",),
                backward_promotes=True),  # (PyTorch's xlogy(grad, other): the log in the promoted dtype)
    # torch.fmax/fmin ignore a NaN. A tie is not split: value and gradient come from a where
    # a >= b (a <= b for fmin) or b is NaN, from b elsewhere (fmax(-0.0, 0.0) is -0.0).
    elementwise("fmax", 2, lambda xp, a, b: xp.where((a >= b) | (b != b), a, b), lambda xp, g, ans, a, b: (g, g),
                "FmaxBackward0",
                mask=lambda a, b: ((b == b) & ((a < b) | (a != a)), (a >= b) | (b != b)),
                sympy=lambda a, b: load_sympy().Max(a, b), ufuncs=(np.fmax,), kinked=True, methods=("fmax",)),
    elementwise("fmin", 2, lambda xp, a, b: xp.where((a <= b) | (b != b), a, b), lambda xp, g, ans, a, b: (g, g),
                "FminBackward0",
                mask=lambda a, b: ((b == b) & ((a > b) | (a != a)), (a <= b) | (b != b)),
                sympy=lambda a, b: load_sympy().Min(a, b), ufuncs=(np.fmin,), kinked=True, methods=("fmin",)),
    # frac(x) = x - trunc(x): PyTorch's gradient is g itself (the jumps are left out).
    _unary("frac", _frac, lambda xp, g, ans, x: (g,), lambda x: x - _sympy_step("trunc", x), kinked=True,
           domain=_BETWEEN_STEPS, methods=("frac",), dtype_refusals=kernel_refusal("frac_cpu")),
    # fmod (C's, the sign of the dividend) and remainder (Python's %, the sign of the divisor):
    # PyTorch's gradients g and -g * div(a, b) rounded toward 0 (fmod) or down (remainder).
    elementwise("fmod", 2, np.fmod, lambda xp, g, ans, a, b: (g, -g * np.trunc(a / b)), "FmodBackward1",
                sympy=lambda a, b: a - b * _sympy_step("trunc", a / b), kinked=True, domain=((-3.0, 3.0), (0.7, 0.9)),
                torch_node_rule=_node_by_scalar("FmodBackward0", "FmodBackward1"),
                scalar_overloads=frozenset({"FmodBackward0"}), methods=("fmod",), dtype="keeps"),
    _binary("remainder", "%", _remainder, _remainder_derivative, "RemainderBackward1", 20,
            lambda a, b: a - b * _sympy_step("floor", a / b), callable=True, kinked=True,
            domain=((-3.0, 3.0), (0.7, 0.9)), torch_node_rule=_node_by_scalar("RemainderBackward0", "RemainderBackward1"),
            scalar_overloads=frozenset({"RemainderBackward0", "NotImplemented"}), spellings=("mod",), methods=("remainder",),
            keeps_integers=True, dtype="keeps"),
    # a // b, PyTorch's floor_divide (Python's //). PyTorch records it as a NotImplemented node and
    # its backward raises; gradcli's gradient is 0 for both args, a step's, as for heaviside.
    _binary("floor_divide", "//", np.floor_divide, _no_derivative, "NotImplemented", 20,
            lambda a, b: _sympy_step("floor", a / b), mask=_masked_all, callable=True, kinked=True,
            domain=((-3.0, 3.0), (0.7, 0.9)), scalar_overloads=frozenset({"NotImplemented"}), methods=("floor_divide",),
            keeps_integers=True, dtype="keeps"),
    _unary("sinc", _sinc, _sinc_derivative, lambda x: load_sympy().sinc(load_sympy().pi * x),
           mask=lambda x: (x * x * math.pi == 0,), methods=("sinc",)),
    # PyTorch's: g * sqrt(pi) / 2 * exp(erfinv(x)**2)
    _unary("erfinv", _erfinv, lambda xp, g, ans, x: (_HALF_SQRT_PI * xp.exp(ans * ans) * g,), _sympy("erfinv"),
           domain=((-0.9, 0.9),), methods=("erfinv",)),
    # heaviside(x, value at 0): PyTorch records a node (NotImplemented) but has no derivative for
    # it (its backward raises); gradcli's is 0 for both args, as a step's (floor, sign).
    elementwise("heaviside", 2, _heaviside, lambda xp, g, ans, x, v: (g, g), "NotImplemented",
                mask=_masked_all, sympy=lambda x, v: load_sympy().Piecewise((v, load_sympy().Eq(x, 0)), (1, x > 0),
                                                                        (0, True)),
                kinked=True, methods=("heaviside",), inputs=('input', 'values')),
    elementwise("xlog1py", 2, _xlog1py, _xlog1py_derivative, "SpecialXlog1PyBackward0",
                mask=lambda a, b: ((a == 0) & (b <= -1.0), None), sympy=lambda a, b: a * load_sympy().log(1 + b),
                torch_node_rule=_xlog1py_torch_node, backward_promotes=True,
                scalar_overloads=frozenset({"SpecialXlog1PyBackward1", "SpecialXlog1PyBackward2"}),
                domain=((-2.0, 2.0), (-0.7, 2.0)), reference="torch.special.xlog1py(a, b)"),
    _unary("logit", _logit, _logit_derivative, _sympy_logit, params=(Param("eps", "float", None),),
           examples=_with_params({"eps": 0.1}), domain=((0.2, 0.8),), methods=("logit",)),
    # addcmul(input, t1, t2, value=1) and addcdiv: input + value * t1 * t2 (/ t2), in PyTorch's order
    # (integers stay integers, the value cast to them: addcmul(int t, t, t, value=0.5) is t; bools have no kernel)
    elementwise("addcmul", 3, _addcmul,
                lambda xp, g, ans, x, a, b, value=1.0: (g, g * (b * value), g * (a * value)), "AddcmulBackward0",
                sympy=lambda x, a, b, value=1.0: x + value * a * b, params=(VALUE,), methods=("addcmul",),
                dialects=torch_positional(),  # (value= by keyword alone)
                inputs=("input", "tensor1", "tensor2"), dtype="keeps",
                dtype_refusals=kernel_refusal("addcmul_cpu_out", "bool")),
    elementwise("addcdiv", 3, lambda xp, x, a, b, value=1.0: x + value * a / b,
                lambda xp, g, ans, x, a, b, value=1.0: (g, g * (value / b), -g * (value * a / (b * b))), "AddcdivBackward0",
                sympy=lambda x, a, b, value=1.0: x + value * a / b, params=(VALUE,), methods=("addcdiv",),
                dialects=torch_positional(),
                inputs=("input", "tensor1", "tensor2"),
                domain=((-2.0, 2.0), (-2.0, 2.0), (0.5, 2.0)),
                dtype_refusals=(("integer 1 and integer 2", "RuntimeError", _ADDCDIV_INTEGERS),
                                ("integer 2 into 1", "RuntimeError",  # (tensor1's derivative value / tensor2, written into it)
                                 "result type Float can't be cast to the desired output type {2}"),)),
    # lerp(start, end, weight): PyTorch's gradients g * (1 - weight), g * weight, g * (end - start)
    elementwise("lerp", 3, _lerp, lambda xp, g, ans, start, end, weight: (g * (1.0 - weight), g * weight,
                                                                           g * (end - start)),
                "LerpBackward1", sympy=lambda start, end, weight: start + weight * (end - start),
                torch_node_rule=_lerp_torch_node, scalar_overloads=frozenset({"LerpBackward0"}),
                domain=((-2.0, 2.0), (-2.0, 2.0), (0.0, 1.0)), methods=("lerp",), inputs=("input", "end", "weight"),
                # (a 0-d weight is PyTorch's Scalar: any dtype; a bool one fails in the derivative's 1 - weight)
                dtype_refusals=(("mixed 0 1", "RuntimeError", "expected dtype {c0} for `end` but got dtype {c1}"),
                                ("mixed shaped 0 2", "RuntimeError", "expected dtype {c0} for `weight` but got dtype {c2}"),
                                # (no kernel for integers and bools: a Python number's weight is its Scalar overload's)
                                *kernel_refusal("lerp_kernel_scalar", "integer alike and number 2"),
                                *kernel_refusal("lerp_kernel_tensor", "integer alike"),
                                ("bool input 2 into 0", "RuntimeError", BOOL_SUBTRACTION[0][2]))),
    # comparisons (below every other operator: `a + 1 < b` is `(a + 1) < b`) and the logical
    # operators on their masks, `|` below `&`, as in Python. Their values are constants of the
    # point: no gradient flows through them, PyTorch records no node (`x * (x > 0)` is MulBackward0
    # with the mask's None).
    _comparison("lt", "<", operator.lt, "Lt", ("lt", "less")),
    _comparison("le", "<=", operator.le, "Le", ("le", "less_equal")),
    _comparison("gt", ">", operator.gt, "Gt", ("gt", "greater")),
    _comparison("ge", ">=", operator.ge, "Ge", ("ge", "greater_equal")),
    _comparison("eq", "==", operator.eq, "Eq", ("eq",)),
    _comparison("ne", "!=", operator.ne, "Ne", ("ne", "not_equal")),
    _logical("logical_or", "|", operator.or_, "Or", 6),
    _logical("logical_and", "&", operator.and_, "And", 8),
    elementwise("logical_not", 1, lambda xp, x: xp.where(x == 0, 1.0, 0.0), _no_derivative, "None",
                sympy=lambda x: _sympy_mask(load_sympy().Eq(x, 0)), mask=_masked_all, symbol="~", precedence=30,
                differentiable=False, boolean=True, kinked=True, methods=("logical_not",),
                reference="torch.logical_not(a)", reference_program="logical_not(a)"),
    # where(condition, a, b): the gradient goes to a where the condition holds, to b elsewhere.
    elementwise("where", 3, lambda xp, c, a, b: xp.where(c != 0, a, b), _no_derivative, "WhereBackward0",
                mask=lambda c, a, b: (True, c == 0, c != 0), conditions=(0,),
                sympy=lambda c, a, b: load_sympy().Piecewise((a, load_sympy().Ne(c, 0)), (b, True)), kinked=True, dtype="keeps",
                methods=("where",), dialects=(Dialect(METHOD, tensor_positions=(1, 0, 2)),),  # x.where(cond, y)
                inputs=("condition", "input", "other"),
                reference="torch.where(a != 0, b, c)"),
    # masked_fill(x, mask, value): value where the mask holds; x's gradient masked there, value's the rest.
    elementwise("masked_fill", 3, lambda xp, x, m, v: xp.where(m != 0, v, x), _no_derivative, "MaskedFillBackward1",
                mask=lambda x, m, v: (m != 0, True, m == 0), conditions=(1,), torch_node_rule=_masked_fill_torch_node,
                scalar_overloads=frozenset({"MaskedFillBackward0"}),
                sympy=lambda x, m, v: load_sympy().Piecewise((v, load_sympy().Ne(m, 0)), (x, True)), kinked=True,
                examples=tuple((shapes, {}) for shapes in [((), (), ()), ((4,), (4,), ()), ((2, 3), (3,), ())]),
                methods=("masked_fill",), dtype="first", reference="a.masked_fill(b != 0, c)",
                inputs=("input", "mask", "value"), shape=_masked_fill_shape),
]


# --- lgamma, digamma, polygamma: PyTorch's kernels ---------------------------------------------
# lgamma is the C library's (PyTorch calls std::lgamma; Python's math.lgamma is CPython's own and
# differs in the last places, lgamma(-2.5) by 9e-15), reached through ctypes once it is first
# called. digamma, trigamma (polygamma(1, x)) and polygamma(n >= 2, x) follow PyTorch's
# calc_digamma, calc_trigamma and calc_polygamma (Cephes' zeta) step by step, on Python floats
# (C doubles, libm's tan, log, sin, exp, pow). Each runs element by element on arrays
# (np.frompyfunc): the same bits on a point and in a batch. Each derivative is the next of
# these functions, whose ufunc dual.py differentiates by its row's JVP: the Hessians are
# PyTorch's double backward (polygamma(n + 1, x)).


@cache
def _c_lgamma() -> Callable[[float], float]:
    import ctypes

    try:
        function = ctypes.CDLL(None).lgamma
    except (OSError, AttributeError):  # no C library to reach: CPython's own, its poles made inf
        return lambda x: math.inf if x <= 0 and x == math.floor(x) else math.lgamma(x)
    function.restype, function.argtypes = ctypes.c_double, (ctypes.c_double,)
    return function


def _lgamma_one(x: float) -> float:
    return _c_lgamma()(x)


_PSI_10 = 2.25175258906672110764  # digamma(10)
_DIGAMMA_SERIES = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                   -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                   8.33333333333333333333E-2)


def _c_div(a: float, b: float) -> float:
    """C's a / b, where Python's raises: a / 0 is an infinity (NaN for 0 / 0)."""
    try:
        return a / b
    except ZeroDivisionError:
        return math.nan if a == 0 or a != a else math.copysign(math.inf, a) * math.copysign(1.0, b)


def _digamma_one(x: float) -> float:
    # PyTorch's calc_digamma: +-inf at -+0, NaN at the negative integers, the reflection below 0,
    # the recurrence up to 10, then the asymptotic series.
    if x == 0:
        return math.copysign(math.inf, -x)
    if x < 0:
        if x == math.trunc(x) if math.isfinite(x) else True:
            return math.nan
        return _digamma_one(1 - x) - _c_div(math.pi, math.tan(math.pi * math.modf(x)[0]))
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + _PSI_10
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        series = _DIGAMMA_SERIES[0]
        for coefficient in _DIGAMMA_SERIES[1:]:
            series = series * z + coefficient
        y = z * series
    return result + math.log(x) - (0.5 / x) - y if x != math.inf else math.inf


def _trigamma_one(x: float) -> float:
    # PyTorch's calc_trigamma: the reflection below 0.5, six steps of the recurrence, the series.
    sign, result = 1.0, 0.0
    if x < 0.5:
        sign = -1.0
        sin_pi_x = math.sin(math.pi * x) if math.isfinite(x) else math.nan
        result -= _c_div(math.pi * math.pi, sin_pi_x * sin_pi_x)
        x = 1 - x
    for _ in range(6):
        result += 1 / (x * x)
        x += 1
    ixx = 1 / (x * x)
    result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x
    return sign * result


ZETA_TERMS = 1_000_000  # the most terms one call of polygamma(n >= 2, x) sums below x = 0 (about 1 s)
_MACHEP = 1.11022302462515654042E-16
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15, 1.8152105401943546773e17,
           -7.1661652561756670113e18)


def _c_pow(a: float, b: float) -> float:
    """C's pow, where Python's raises: an overflow is an infinity, 0 to a negative power inf."""
    try:
        return float(a ** b)
    except OverflowError:
        return math.inf if a > 0 or b % 2 == 0 else -math.inf
    except ZeroDivisionError:
        return math.inf


def _zeta(x: float, q: float) -> float:
    # PyTorch's zeta (Cephes' Hurwitz zeta): Euler-Maclaurin summation.
    if x == 1:
        return math.inf
    if x < 1 or math.isnan(q):
        return math.nan
    if q <= 0:
        if not math.isfinite(q) or q == math.floor(q):  # (C's floor(-inf) is -inf)
            return math.inf
        if x != math.floor(x):
            return math.nan
    s = _c_pow(q, -x)
    a, b, i = q, 0.0, 0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1
        b = _c_pow(a, -x)
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1)
    s -= 0.5 * b
    a, k = 1.0, 0.0
    for coefficient in _ZETA_A:
        a *= x + k
        b /= w
        t = a * b / coefficient
        s = s + t
        if s != 0 and abs(t / s) < _MACHEP:  # (C's t / 0 is NaN or inf: not below)
            return s
        k += 1
        a *= x + k
        b /= w
        k += 1
    return s


def _polygamma_one(x: float, n: float) -> float:
    if not (n >= 0 and float(n).is_integer()):
        raise ValueError(f"polygamma(n, x) takes a whole number n >= 0, got {n!r}")
    if n == 0:
        return _digamma_one(x)
    if n == 1:
        return _trigamma_one(x)
    return (1.0 if n % 2 else -1.0) * math.exp(_lgamma_one(n + 1.0)) * _zeta(n + 1.0, x)


_LGAMMA, _DIGAMMA = np.frompyfunc(_lgamma_one, 1, 1), np.frompyfunc(_digamma_one, 1, 1)
_POLYGAMMA = np.frompyfunc(_polygamma_one, 2, 1)


def _element_by_element(ufunc: Any, scalar: Callable[..., float]) -> Callable[..., Any]:
    """f(xp, *args): `scalar` on floats, `ufunc` (np.frompyfunc of it) on arrays and dual numbers."""
    def apply(xp: Any, *args: Any) -> Any:
        if xp is FLOATS:
            return scalar(*args)
        out = ufunc(*args)
        if isinstance(out, (float, np.ndarray)):
            return np.asarray(out, dtype=float)
        return type(out)(np.asarray(out.primal, dtype=float), out.tangent)  # a dual number (see _erf)

    return apply


_lgamma = _element_by_element(_LGAMMA, _lgamma_one)
_digamma = _element_by_element(_DIGAMMA, _digamma_one)
_polygamma_each = _element_by_element(_POLYGAMMA, _polygamma_one)


def _polygamma(xp: Any, x: Any, n: Any) -> Any:
    # zeta's loop takes a step per unit of -x below 0 (x = -1e8 - 0.5: a minute): its steps over
    # the whole call are counted, and bounded, before any is taken.
    xs, ns = np.asarray(getattr(x, "primal", x), dtype=float), np.asarray(getattr(n, "primal", n), dtype=float)
    with np.errstate(invalid="ignore"):
        steps = float(np.sum(np.where((ns >= 2) & (xs < 0) & (xs != np.floor(xs)), -xs, 0.0)))  # (at a pole: inf at once)
    if steps > ZETA_TERMS:
        raise ValueError(f"polygamma(n, x) with n >= 2 takes a step per unit of -x below 0: {steps:,.0f} steps here, "
                         f"past gradcli's limit of {ZETA_TERMS:,} (PyTorch takes seconds there)")
    return _polygamma_each(xp, x, n)


def _sympy_polygamma(x: Any, n: Any) -> Any:
    sympy = load_sympy()
    return sympy.polygamma(sympy.Integer(int(n)) if getattr(n, "is_Number", True) else n, x)


ROWS += [
    # PyTorch's: g * digamma(x); g * polygamma(1, x); g * polygamma(n + 1, x).
    _unary("lgamma", _lgamma, lambda xp, g, ans, x: (g * _digamma(xp, x),),
           lambda x: load_sympy().log(abs(load_sympy().gamma(x))), ufuncs=(_LGAMMA,),
           domain=((0.5, 4.0),), spellings=("gammaln",), methods=("lgamma",)),
    _unary("digamma", _digamma, lambda xp, g, ans, x: (g * _polygamma(xp, x, 1.0),), _sympy("digamma"),
           # (sampled above 4, where PyTorch's trigamma is good to 1e-12; below, to about 3e-10: test_gamma.py)
           ufuncs=(_DIGAMMA,), domain=((4.0, 8.0),), spellings=("psi",), methods=("digamma",)),
    # polygamma(n, x): the order n first, as PyTorch writes it, a whole number that takes no gradient
    # (an integer input, if it is one) and is not among the node's inputs.
    elementwise("polygamma", 2, _polygamma, lambda xp, g, ans, x, n: (g * _polygamma(xp, x, n + 1.0), None),
                "PolygammaBackward0", in_place_nodes=(("PolygammaBackward0", "PolygammaBackward1"),), sympy=_sympy_polygamma, ufuncs=(_POLYGAMMA,), index_from=1,
                tensor_positions=(1, 0), text=lambda args: f"polygamma({args[1]}, {args[0]})",
                methods=("polygamma",), dialects=(Dialect(METHOD, tensor_positions=()),),  # x.polygamma(n)
                shape_message=lambda label, shapes: "polygamma(n, x) cannot take these arguments",
                domain=((0.5, 4.0), (2.0, 2.0)), reference="torch.polygamma(int(b), a)"),
]
