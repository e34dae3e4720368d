"""torch.special's functions and the other elementwise odds: Bessel's i0/i1 (and their scaled
forms), the normal distribution's ndtr/ndtri/log_ndtr, erfcx, entr, nan_to_num, angle, the
shrinks, nextafter, ldexp, rsub, and the calls that are their input itself (positive, conj...).

Each follows PyTorch's kernel step by step where the bits depend on it (the Cephes Chebyshev
series of i0, i0e, i1, i1e and Cephes' rational ndtri, with Cephes' published coefficients;
log_ndtr's two branches), on Python floats, element by element on arrays (np.frompyfunc: the
same bits on a point and in a batch; each row names its ufunc, which dual.py differentiates by
the row's JVP, so the Hessians are PyTorch's double backward). erfcx is PyTorch's outside [-6.1,
50] and gradcli's own inside, where PyTorch's is a table of 100 Chebyshev fits (Faddeeva's):
exp(x^2) erfc(x) with x^2 carried exactly up to 26, a continued fraction above; within a few
units in the last place of PyTorch's (tests/test_torch_reference.py).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradcli.ops.core import (
    BOOL_SUBTRACTION,
    DEFAULT_FLOAT,
    Op,
    Param,
    ValueRefusal,
    composite,
    elementwise,
    kernel_refusal,
    load_sympy,
    sign,
    structural,
    torch_positional,
)
from gradcli.ops.elementwise import ALPHA, _digamma, _element_by_element, _floor_divide, _lgamma, _sympy_step
from gradcli.ops.float32 import fma32, fma64
from gradcli.ops.nn import _keeps_everything
from gradcli.ops.reductions import CAST, DIM_INT, _softmax_axis

# --- Bessel's i0, i1 and their scaled forms: Cephes' Chebyshev series (PyTorch's calc_i0...) ---

# exp(-x) I0(x) on [0, 8], and exp(-x) sqrt(x) I0(x) on [8, inf) in 32 / x - 2 (Cephes' i0.c)
_I0_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
         1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
         -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
         9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
         -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
         1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
         -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
         1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
         -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
         1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
         3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
         1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
         -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
         7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
         -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
         3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
         2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
         8.04490411014108831608E-1)
# exp(-x) I1(x) / x on [0, 8], exp(-x) sqrt(x) I1(x) on [8, inf) (Cephes' i1.c)
_I1_A = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
         -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
         3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
         -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
         9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
         -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
         4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
         -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
         2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
         -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1_B = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
         -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
         -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
         4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
         -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
         3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
         -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
         -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
         7.78576235018280120474E-1)


def _chebyshev(y: float, coefficients: tuple[float, ...]) -> float:
    """Clenshaw's sum of a Chebyshev series at y (Cephes' chbevl), in its order of operations."""
    b0, b1, b2 = coefficients[0], 0.0, 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = y * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _exp(x: float) -> float:
    """C's exp, where Python's raises past float64's range: inf."""
    return math.inf if x > 709.78 else math.exp(x)


def _log(x: float) -> float:
    """C's log, where Python's raises: -inf at 0, NaN below."""
    return math.log(x) if x > 0 else -math.inf if x == 0 else math.nan


def _i0_one(x: float) -> float:
    a = abs(x)
    if a <= 8.0:
        return _exp(a) * _chebyshev(a / 2.0 - 2.0, _I0_A)
    return _exp(a) * _chebyshev(32.0 / a - 2.0, _I0_B) / math.sqrt(a)


def _i0e_one(x: float) -> float:
    a = abs(x)
    if a <= 8.0:
        return _chebyshev(a / 2.0 - 2.0, _I0_A)
    return _chebyshev(32.0 / a - 2.0, _I0_B) / math.sqrt(a)


def _i1_one(x: float) -> float:
    a = abs(x)
    if a <= 8.0:
        out = _exp(a) * a * _chebyshev(a / 2.0 - 2.0, _I1_A)
    else:
        out = _exp(a) * _chebyshev(32.0 / a - 2.0, _I1_B) / math.sqrt(a)
    return -out if x < 0 else out


def _i1e_one(x: float) -> float:
    a = abs(x)
    if a <= 8.0:
        out = _chebyshev(a / 2.0 - 2.0, _I1_A) * a
    else:
        out = _chebyshev(32.0 / a - 2.0, _I1_B) / math.sqrt(a)
    return -out if x < 0 else out


# --- the normal distribution: ndtri (Cephes' rational approximations), erfcx, log_ndtr ---------

_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
             -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
             1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
             1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
             -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
             2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
             2.89247864745380683936E-6, 6.79019408009981274425E-9)
_SQRT_2PI = 2.50662827463100050242
_EXP_MINUS_2 = 0.13533528323661269189


def _polynomial(x: float, coefficients: tuple[float, ...]) -> float:
    """Horner's rule, the highest power first (Cephes' polevl)."""
    out = coefficients[0]
    for c in coefficients[1:]:
        out = out * x + c
    return out


def _ndtri_one(p: float) -> float:
    # PyTorch's calc_ndtri: the central rational function within 3/8 of 0.5, else one in 1 / sqrt(-2 log y).
    if p == 0:
        return -math.inf
    if p == 1:
        return math.inf
    if not 0 < p < 1:
        return math.nan
    lower, y = True, p
    if y > 1.0 - _EXP_MINUS_2:
        y, lower = 1.0 - y, False
    if y > _EXP_MINUS_2:
        y = y - 0.5
        y2 = y * y
        return (y + y * (y2 * _polynomial(y2, _NDTRI_P0) / _polynomial(y2, _NDTRI_Q0))) * _SQRT_2PI
    x = math.sqrt(-2.0 * math.log(y))
    x0 = x - math.log(x) / x
    z = 1.0 / x
    if x < 8.0:
        x1 = z * _polynomial(z, _NDTRI_P1) / _polynomial(z, _NDTRI_Q1)
    else:
        x1 = z * _polynomial(z, _NDTRI_P2) / _polynomial(z, _NDTRI_Q2)
    return -(x0 - x1) if lower else x0 - x1


_INV_SQRT_PI = 0.56418958354775628694807945156
_SPLIT = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves


def _erfcx_one(x: float) -> float:
    # exp(x^2) erfc(x). PyTorch's own steps outside [-6.1, 50]; inside, exp(x^2) erfc(x) with
    # x^2 = hi + lo exactly (exp(hi + lo) = exp(hi) (1 + lo): the rounding of x^2 would cost x^2
    # units in the last place) up to 26, where erfc is still a normal number; a continued
    # fraction above. Below 0: 2 exp(x^2) - erfcx(-x).
    if x != x:
        return x
    if x >= 0:
        if x > 50.0:
            if x > 5e7:
                return _INV_SQRT_PI / x
            return _INV_SQRT_PI * ((x * x) * (x * x + 4.5) + 2) / (x * ((x * x) * (x * x + 5) + 3.75))
        if x > 26.0:
            tail = x
            for n in range(40, 0, -1):
                tail = x + (0.5 * n) / tail
            return _INV_SQRT_PI / tail
        c = _SPLIT * x
        high = c - (c - x)
        low = x - high
        square = x * x
        error = ((high * high - square) + 2.0 * high * low) + low * low
        scaled = math.exp(square) * math.erfc(x)
        return scaled + scaled * error
    if x < -26.7:
        return math.inf
    if x < -6.1:
        return 2.0 * _exp(x * x)
    return 2.0 * _exp(x * x) - _erfcx_one(-x)


_SQRT1_2 = 0.7071067811865476


def _log_ndtr_one(x: float) -> float:
    # PyTorch's calc_log_ndtr: through erfcx below -1, where erfc(t) / 2 nears 1.
    t = x * _SQRT1_2
    if x < -1.0:
        return _log(_erfcx_one(-t) / 2) - t * t
    return math.log1p(-math.erfc(t) / 2)


def _entr_one(x: float) -> float:
    # PyTorch's calc_entr: -x log(x) above 0, 0 at 0, -inf below (NaN stays).
    if x != x:
        return x
    if x > 0:
        return -x * math.log(x)
    return 0.0 if x == 0 else -math.inf


_I0, _I0E, _I1, _I1E = (np.frompyfunc(f, 1, 1) for f in (_i0_one, _i0e_one, _i1_one, _i1e_one))
_NDTRI, _ERFCX, _LOG_NDTR, _ENTR = (np.frompyfunc(f, 1, 1) for f in (_ndtri_one, _erfcx_one, _log_ndtr_one, _entr_one))
_i0_float64, _i0e_float64 = _element_by_element(_I0, _i0_one), _element_by_element(_I0E, _i0e_one)


def _chebyshev_float32(y: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """_chebyshev in float32 as PyTorch's chbevl<float> runs: its coefficients rounded to float32, each step's
    y * b1 - b2 one fused multiply-add (its CPU kernels' build contracts it) and + c another rounding."""
    f = np.float32
    b0, b1, b2 = np.full(y.shape, coefficients[0], dtype=f), np.zeros_like(y), np.zeros_like(y)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = fma32(y, b1, -b2) + f(c)
    return f(0.5) * (b0 - b2)


def _i0_float32(x: np.ndarray, scaled: bool) -> np.ndarray:
    """PyTorch's calc_i0 / calc_i0e of a float32 tensor, in float32 (i0(0) is 0.99999994, as PyTorch's)."""
    f = np.float32
    a = np.abs(x)
    with np.errstate(all="ignore"):
        small = _chebyshev_float32(a / f(2) - f(2), _I0_A)
        large = _chebyshev_float32(f(32) / a - f(2), _I0_B)
        if scaled:
            return np.where(a <= 8, small, large / np.sqrt(a))
        grows = np.exp(a.astype(np.float64)).astype(f)  # (C's expf: the float64 exp rounded once)
        return np.where(a <= 8, grows * small, grows * large / np.sqrt(a))


def _i0(xp: Any, x: Any) -> Any:
    if type(x) is np.ndarray and x.dtype == np.float32:
        return _i0_float32(x, scaled=False)
    return _i0_float64(xp, x)


def _i0e(xp: Any, x: Any) -> Any:
    if type(x) is np.ndarray and x.dtype == np.float32:
        return _i0_float32(x, scaled=True)
    return _i0e_float64(xp, x)


_i1, _i1e = _element_by_element(_I1, _i1_one), _element_by_element(_I1E, _i1e_one)
_ndtri, _erfcx = _element_by_element(_NDTRI, _ndtri_one), _element_by_element(_ERFCX, _erfcx_one)
_log_ndtr, _entr = _element_by_element(_LOG_NDTR, _log_ndtr_one), _element_by_element(_ENTR, _entr_one)


_EPS = float(np.finfo(float).eps)


def _i1_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    # PyTorch's i1_backward: i0(x) - i1(x) / x, 0.5 where |x| <= eps (and at NaN: not above it).
    big = xp.abs(x) > _EPS
    safe = xp.where(big, x, _EPS)
    return (g * xp.where(big, _i0(xp, safe) - ans * (1.0 / safe), 0.5),)


def _i1e_derivative(xp: Any, g: Any, ans: Any, x: Any) -> tuple[Any]:
    # PyTorch's i1e_backward: i0e(x) - i1e(x) (sgn(x) + 1 / x), 0.5 where |x| <= eps.
    big = xp.abs(x) > _EPS
    safe = xp.where(big, x, _EPS)
    return (g * xp.where(big, _i0e(xp, safe) - ans * (sign(xp, safe) + 1.0 / safe), 0.5),)


def _sympy_i0e(x: Any) -> Any:
    sympy = load_sympy()
    return sympy.besseli(0, x) * sympy.exp(-sympy.Abs(x))


def _sympy_i1e(x: Any) -> Any:
    sympy = load_sympy()
    return sympy.besseli(1, x) * sympy.exp(-sympy.Abs(x))


def _sympy_entr(x: Any) -> Any:
    sympy = load_sympy()
    return sympy.Piecewise((-x * sympy.log(x), x > 0), (0, sympy.Eq(x, 0)), (-sympy.oo, True))


# ndtr(x) is (1 + erf(x * sqrt(1/2))) * 0.5 in PyTorch, recorded as MulBackward1 over AddBackward1
# over ErfBackward0 over MulBackward1: the Tensor-Scalar overloads that C++ calls, not Python's
# operators (MulBackward0): the rows mul_scalar and add_scalar (gradcli/ops/losses.py).
def _ndtr(emit: Any, x: Any) -> Any:
    return emit("mul_scalar", emit("add_scalar", emit("erf", emit("mul_scalar", x, other=_SQRT1_2)), other=1.0),
                other=0.5)



def _nan_to_num(xp: Any, x: Any, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> Any:
    # The largest finite numbers of x's own dtype (float32's under `gradcli run`), as PyTorch's defaults.
    largest = float(np.finfo(x.dtype).max) if getattr(x, "dtype", None) in (np.float32, np.float16) else 1.7976931348623157e308
    high = largest if posinf is None else posinf
    low = -largest if neginf is None else neginf
    return xp.where(x != x, nan, xp.where(x == math.inf, high, xp.where(x == -math.inf, low, x)))


def _finite(xp: Any, x: Any) -> Any:
    return xp.where(x - x == 0, 1.0, 0.0)  # (x - x is NaN at NaN and at both infinities)


def _hardshrink(xp: Any, x: Any, lambd: float = 0.5) -> Any:
    return xp.where((x >= -lambd) & (x <= lambd), 0.0, x)


def _softshrink(xp: Any, x: Any, lambd: float = 0.5) -> Any:
    # PyTorch's kernel: x * 0 inside, so that -0.0 and NaN stay what they are.
    if lambd < 0:
        raise ValueError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return xp.where(x > lambd, x - lambd, xp.where(x < -lambd, x + lambd, x * 0.0))


def _shrunk(x: Any, lambd: float = 0.5) -> tuple[Any]:
    return ((x >= -lambd) & (x <= lambd),)  # where PyTorch's shrink backward gives 0 (a NaN g too)


def _sympy_shrink(soft: bool) -> Any:
    def build(x: Any, lambd: float = 0.5) -> Any:
        sympy = load_sympy()
        return sympy.Piecewise((x - lambd if soft else x, x > lambd), (x + lambd if soft else x, x < -lambd), (0, True))

    return build


_LN2 = math.log(2.0)
LAMBD = Param("lambd", "float", 0.5)


# --- clamp with tensor bounds (ClampBackward0, ClampMinBackward1, ClampMaxBackward1) -------------
# min(max(x, min), max), a NaN anywhere giving NaN; a left-out bound is -inf or inf. PyTorch's
# gradients: x's where min <= x <= max; min's where x < min < max; max's where max(x, min) > max.


def _at_least(xp: Any, x: Any, low: Any) -> Any:
    return xp.where((x < low) | (low != low), low, x)  # (a tie keeps x: clamp_min(-0.0, 0.0) is -0.0)


def _at_most(xp: Any, x: Any, high: Any) -> Any:
    return xp.where((x > high) | (high != high), high, x)


def _clamp_tensor_masks(x: Any, low: Any, high: Any) -> tuple[Any, Any, Any]:
    # (`^ True` is `not` on NumPy's booleans and on Python's alike; `~True` is -2)
    return ((x >= low) & (x <= high)) ^ True, ((x < low) & (low < high)) ^ True, ((x > high) | (low > high)) ^ True


def _sympy_clamp_tensor(x: Any, low: Any, high: Any) -> Any:
    sympy = load_sympy()
    return sympy.Min(sympy.Max(x, low), high)


# --- div with a rounding mode (DivBackward2): its gradients are 0, a step's ---------------------

ROUNDING = Param("rounding_mode", "str", None, choices=("trunc", "floor"), refused=(
    "RuntimeError", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{value}'"))


def _div_rounding(xp: Any, a: Any, b: Any, rounding_mode: str | None = None) -> Any:
    if rounding_mode is not None and all(np.asarray(v).dtype.kind in "iu" for v in (a, b)):
        floor = np.floor_divide(a, b)  # (integers, under run: exactly, not through a double)
        return floor if rounding_mode == "floor" else floor + ((np.remainder(a, b) != 0) & ((a < 0) != (b < 0)))
    if rounding_mode == "trunc":
        return np.trunc(a / b)
    if rounding_mode == "floor":
        return _floor_divide(xp, a, b)
    return a / b


def _div_rounding_derivative(xp: Any, g: Any, ans: Any, a: Any, b: Any, rounding_mode: str | None = None) -> tuple[Any, Any]:
    return g / b, -g * (ans / b)  # (rounding_mode=None, true division; masked everywhere with a mode)


def _sympy_div_rounding(a: Any, b: Any, rounding_mode: str | None = None) -> Any:
    if rounding_mode is None:
        return a / b
    return _sympy_step("trunc" if rounding_mode == "trunc" else "floor", a / b)


# --- mvlgamma(x, p): the sum of lgamma(x - j / 2), j < p, and p (p - 1) / 4 log(pi) --------------
# (PyTorch 2.13 no longer refuses x <= (p - 1) / 2: lgamma's poles and signs are in the sum, as here.)


def _mvlgamma_terms(x: Any, p: int | None) -> list[Any]:
    if p is None:
        raise ValueError("mvlgamma() missing 1 required positional argument: 'p'")
    if p < 1:
        raise ValueError("p has to be greater than or equal to 1")
    return [x + (-p * 0.5 + 0.5 + 0.5 * k) for k in range(p)]  # PyTorch's arange(-p/2 + 1/2, 1/2, 1/2) + x


def _mvlgamma(xp: Any, x: Any, p: int | None = None) -> Any:
    terms = _mvlgamma_terms(x, p)
    total = _lgamma(xp, terms[0])
    for term in terms[1:]:
        total = total + _lgamma(xp, term)
    return total + float(p * (p - 1)) * math.log(math.pi) * 0.25  # type: ignore[operator]


def _mvlgamma_derivative(xp: Any, g: Any, ans: Any, x: Any, p: int | None = None) -> tuple[Any]:
    terms = _mvlgamma_terms(x, p)
    total = _digamma(xp, terms[0])
    for term in terms[1:]:
        total = total + _digamma(xp, term)
    return (g * total,)


def _sympy_mvlgamma(x: Any, p: int | None = None) -> Any:
    sympy = load_sympy()
    count = int(p or 1)
    return sum((sympy.loggamma(x - sympy.Rational(j, 2)) for j in range(count)),
               sympy.Rational(count * (count - 1), 4) * sympy.log(sympy.pi))


# --- fill(x, value): value everywhere, x's shape (FillBackward0, FillBackward1 for a tensor value)


def _clamp_backward_problem(shapes: list[tuple[int, ...]], flows: list[bool], given: list[bool]) -> str | None:
    """PyTorch's clamp_backward_min_max of two tensor bounds: each arg's mask is a comparison of two args written in
    place over another (the input's: x >= min, and-ed with x <= max), which must not need a larger shape."""
    if len(shapes) < 3 or not (given[1] and given[2]):
        return None
    x, low, high = shapes
    both = np.broadcast_shapes
    for arg, out, other in ((0, both(x, low), both(x, high)), (1, both(x, low), both(low, high)),
                            (2, both(x, high), both(high, low))):
        whole = both(out, other)
        if flows[arg] and whole != out:
            return f"output with shape {list(out)} doesn't match the broadcast shape {list(whole)}"
    return None


def _fill_shape(x: tuple[int, ...], value: tuple[int, ...]) -> tuple[int, ...]:
    if value:
        raise ValueRefusal(f"fill_ only supports 0-dimension value tensor but got tensor with {len(value)} dimensions.")
    return x


def _softmin(emit: Any, x: Any, dim: Any = None, dtype: str | None = None) -> Any:
    # F.softmin: softmax(-x), SoftmaxBackward0 over NegBackward0; with a dtype, (-x).softmax(dim, dtype=dtype): the
    # negated cast to it first (ToCopyBackward0 between them), where it is another.
    negated = emit("neg", x)
    if dtype is not None and dtype != emit.dtype(negated):
        negated = emit("to_copy", negated, dtype=dtype)
    return emit("softmax", negated, dim=dim)


def _with(*params: dict[str, Any]) -> tuple[Any, ...]:
    return tuple([((shape,), {}) for shape in [(), (4,), (2, 3)]] + [((shape,), p) for p in params for shape in [(), (2, 3)]])



def _frexp(x: Any, ranks: tuple[int, ...], part: int = 0, of: Any = None) -> Any:
    mantissa, exponent = np.frexp(np.asarray(getattr(x, "primal", x)))
    if part % 2:
        return np.asarray(exponent, dtype=float)
    return x / np.exp2(exponent.astype(float)) if hasattr(x, "primal") else mantissa  # (a dual number: the Hessian)


def _frexp_vjp(g: Any, ans: Any, x: Any, ranks: tuple[int, ...], part: int = 0, of: Any = None) -> tuple[Any]:
    if part % 2:
        return (np.zeros(np.shape(x)),)
    # PyTorch's grad / exponent.exp2(): the exp2 of its int32 exponent in the default dtype, so under run
    # (float32) 0 below 2**-149 (the gradient inf) and inf above 2**127 (the gradient 0)
    exponent = np.frexp(np.asarray(getattr(x, "primal", x)))[1]
    with np.errstate(over="ignore", divide="ignore"):
        return (g / np.ldexp(DEFAULT_FLOAT.get()(1.0), exponent).astype(float),)  # (exact: NumPy's float32 exp2 is not)


def _frexp_jvp(tangents: Any, ans: Any, x: Any, ranks: tuple[int, ...], part: int = 0, of: Any = None) -> Any:
    if part % 2 or tangents[0] is None:
        return np.zeros(np.shape(ans))
    return _frexp_vjp(tangents[0], ans, x, ranks)[0]


def _fused_add(b: Any, alpha: float, a: Any) -> Any:
    """a + alpha * b as PyTorch's add kernel computes it: one fused multiply-add, in float32 and float64 alike (an
    integer tensor's in its integers, a bool's as or)."""
    if type(a) is float and type(b) is float:  # (the float sweeps: Python's numbers)
        return float(fma64(b, alpha, a))
    left, right = np.asarray(a), np.asarray(b)
    dtype = np.result_type(left, right)
    if dtype == np.float32:
        return fma32(right, np.float32(alpha), left)
    if dtype.kind == "f":
        return fma64(right, alpha, left)
    if dtype.kind == "b":
        return left | (right & bool(alpha))
    return left + np.asarray(alpha).astype(dtype) * right


ROWS: list[Op] = [
    elementwise("i0", 1, _i0, lambda xp, g, ans, x: (g * _i1(xp, x),), "I0Backward0",
                sympy=lambda x: load_sympy().besseli(0, x), ufuncs=(_I0,), methods=("i0",)),
    elementwise("i0e", 1, _i0e, lambda xp, g, ans, x: (g * (_i1e(xp, x) - sign(xp, x) * ans),),
                "SpecialI0EBackward0", sympy=_sympy_i0e, ufuncs=(_I0E,), kinked=True, reference="torch.special.i0e(a)"),
    elementwise("i1", 1, _i1, _i1_derivative, "SpecialI1Backward0", sympy=lambda x: load_sympy().besseli(1, x),
                ufuncs=(_I1,), reference="torch.special.i1(a)"),
    elementwise("i1e", 1, _i1e, _i1e_derivative, "SpecialI1EBackward0", sympy=_sympy_i1e, ufuncs=(_I1E,),
                kinked=True, reference="torch.special.i1e(a)"),
    composite("ndtr", 1, _ndtr, "MulBackward1", shape=lambda x: x, examples=_with(), reference="torch.special.ndtr(a)"),
    # PyTorch's: g * sqrt(2 pi) * exp(ndtri(x)^2 / 2); g / sqrt(2 pi) * exp(-(log_ndtr(x) + x^2 / 2));
    # (2 x erfcx(x) - 2 / sqrt(pi)) * g; g * -(1 + log(x)).
    elementwise("ndtri", 1, _ndtri, lambda xp, g, ans, x: (g * _SQRT_2PI * xp.exp(ans * ans / 2.0),),
                "SpecialNdtriBackward0", sympy=lambda x: load_sympy().sqrt(2) * load_sympy().erfinv(2 * x - 1),
                ufuncs=(_NDTRI,), domain=((0.05, 0.95),), reference="torch.special.ndtri(a)"),
    elementwise("log_ndtr", 1, _log_ndtr,
                lambda xp, g, ans, x: (g / _SQRT_2PI * xp.exp(-(ans + x * x / 2.0)),), "SpecialLogNdtrBackward0",
                sympy=lambda x: load_sympy().log(load_sympy().erfc(-x * load_sympy().sqrt(2) / 2) / 2),
                ufuncs=(_LOG_NDTR,), reference="torch.special.log_ndtr(a)"),
    elementwise("erfcx", 1, _erfcx, lambda xp, g, ans, x: ((2.0 * x * ans - 2.0 / math.sqrt(math.pi)) * g,),
                "SpecialErfcxBackward0", sympy=lambda x: load_sympy().exp(x * x) * load_sympy().erfc(x),
                ufuncs=(_ERFCX,), reference="torch.special.erfcx(a)"),
    elementwise("entr", 1, _entr, lambda xp, g, ans, x: (g * -(1.0 + xp.log(x)),), "SpecialEntrBackward0",
                sympy=_sympy_entr, ufuncs=(_ENTR,), domain=((0.2, 3.0),), reference="torch.special.entr(a)"),
    # nan_to_num(x, nan=0.0, posinf=None, neginf=None): the largest finite numbers by default;
    # PyTorch's gradient is g * isfinite(x) (a product: a NaN g stays NaN).
    elementwise("nan_to_num", 1, _nan_to_num, lambda xp, g, ans, x, **params: (g * _finite(xp, x),),
                "NanToNumBackward0", sympy=lambda x, **params: x, kinked=True, methods=("nan_to_num",),
                params=(Param("nan", "float", 0.0), Param("posinf", "float", None), Param("neginf", "float", None)),
                examples=_with({"nan": 1.0, "posinf": 2.0, "neginf": -3.0}), reference="torch.nan_to_num(a)", dtype="keeps"),
    # angle of a real number: pi below 0, else 0 (NaN stays); PyTorch's gradient is 0 (a NaN g too).
    elementwise("angle", 1, lambda xp, x: xp.where(x != x, x, xp.where(x < 0, math.pi, 0.0)), lambda xp, g, ans, x: (g,),
                "AngleBackward0", mask=lambda x: (True,), sympy=lambda x: load_sympy().Piecewise((load_sympy().pi, x < 0), (0, True)),
                kinked=True, methods=("angle",)),
    elementwise("hardshrink", 1, _hardshrink, lambda xp, g, ans, x, lambd=0.5: (g,), "HardshrinkBackward0",
                mask=_shrunk, sympy=_sympy_shrink(False), kinked=True, params=(LAMBD,), methods=("hardshrink",),
                examples=_with({"lambd": 1.0}, {"lambd": -0.5}), reference="F.hardshrink(a)",
                dtype_refusals=kernel_refusal("hardshrink_cpu")),
    elementwise("softshrink", 1, _softshrink, lambda xp, g, ans, x, lambd=0.5: (g,), "SoftshrinkBackward0",
                mask=_shrunk, sympy=_sympy_shrink(True), kinked=True, params=(LAMBD,),
                examples=_with({"lambd": 1.0}, {"lambd": 0.0}), reference="F.softshrink(a)",
                dtype_refusals=kernel_refusal("softshrink_check")),
    # nextafter(a, b): the next float after a toward b; PyTorch's gradients g (0 where a == b: the
    # value is b itself) and 0.
    elementwise("nextafter", 2, np.nextafter, lambda xp, g, ans, a, b: (g, g), "NextafterBackward0",
                mask=lambda a, b: (a == b, True), sympy=lambda a, b: a, kinked=True, methods=("nextafter",)),
    # ldexp(a, b) = a * 2**b; PyTorch's gradients g * 2**b and g * a * 2**b * ln 2.
    elementwise("ldexp", 2, lambda xp, a, b: a * xp.power(2.0, b),
                lambda xp, g, ans, a, b: (g * xp.power(2.0, b), g * a * xp.power(2.0, b) * _LN2), "LdexpBackward0",
                sympy=lambda a, b: a * 2**b, methods=("ldexp",),
                dtype_refusals=(("bool input 1 and float 0", "NotImplementedError",  # (its kernel of a float)
                                 "\"ldexp_cpu_exp\" not implemented for 'Bool'"),)),
    # add(a, b, alpha=), sub(a, b, alpha=): PyTorch's AddBackward0/SubBackward0 with alpha, a + alpha * b as its
    # kernel computes it (one fused multiply-add; sub is add of -alpha); the gradients g and g * alpha (-g * alpha).
    elementwise("add_scaled", 2, lambda xp, a, b, alpha=1.0: _fused_add(b, alpha, a),
                lambda xp, g, ans, a, b, alpha=1.0: (g, g * alpha), "AddBackward0",
                sympy=lambda a, b, alpha=1.0: a + alpha * b, params=(ALPHA,), callable=False, linear=True,
                dtype="keeps", text=lambda args, alpha=1.0: f"add({args[0]}, {args[1]}, alpha={alpha!r})",
                dialects=torch_positional(),  # (alpha= by keyword alone)
                reference="torch.add(a, b, alpha=2.5)", reference_program="add(a, b, alpha=2.5)",
                examples=tuple((shapes, {"alpha": alpha}) for alpha in (2.5, -0.1)
                               for shapes in [((), ()), ((2, 3), (3,))])),
    elementwise("sub_scaled", 2, lambda xp, a, b, alpha=1.0: _fused_add(b, -alpha, a),
                lambda xp, g, ans, a, b, alpha=1.0: (g, -g * alpha), "SubBackward0",
                sympy=lambda a, b, alpha=1.0: a - alpha * b, params=(ALPHA,), callable=False, linear=True,
                dtype="keeps", text=lambda args, alpha=1.0: f"sub({args[0]}, {args[1]}, alpha={alpha!r})",
                dialects=torch_positional(),  # (alpha= by keyword alone)
                reference="torch.sub(a, b, alpha=2.5)", reference_program="sub(a, b, alpha=2.5)",
                examples=tuple((shapes, {"alpha": alpha}) for alpha in (2.5, -0.1)
                               for shapes in [((), ()), ((2, 3), (3,))]), dtype_refusals=BOOL_SUBTRACTION),
    # rsub(a, b, alpha=1) = b - alpha * a (RsubBackward1 where b is a number).
    elementwise("rsub", 2, lambda xp, a, b, alpha=1.0: b - a * alpha if alpha != 1.0 else b - a,
                lambda xp, g, ans, a, b, alpha=1.0: (-g * alpha, g), "RsubBackward0",
                sympy=lambda a, b, alpha=1.0: b - alpha * a, params=(Param("alpha", "float", 1.0),),
                torch_node_rule=lambda constant, shapes, **params: "RsubBackward1" if constant[1] else "RsubBackward0",
                scalar_overloads=frozenset({"RsubBackward1"}), linear=True, dialects=torch_positional(),  # (alpha=)
                examples=tuple((shapes, given) for shapes, given in [(((), ()), {}), (((4,), (4,)), {}),
                                                                     (((2, 3), (3,)), {"alpha": 2.0})]), dtype_refusals=BOOL_SUBTRACTION),
    elementwise("clamp_tensor", 3, lambda xp, x, low, high: _at_most(xp, _at_least(xp, x, low), high),
                lambda xp, g, ans, x, low, high: (g, g, g), "ClampBackward0", mask=_clamp_tensor_masks,
                sympy=_sympy_clamp_tensor, kinked=True, callable=False,  # (min=, max=: optional_args)
                optional_args=((1, "min", -math.inf), (2, "max", math.inf)), dtype="keeps",
                text=lambda args: f"clamp({', '.join(args)})",
                examples=tuple((shapes, {}) for shapes in [((), (), ()), ((4,), (4,), (4,)), ((2, 3), (3,), ())]),
                domain=((-2.0, 2.0), (-1.5, 0.0), (0.2, 1.5)), backward_problem=_clamp_backward_problem,
                reference="torch.clamp(a, b, c)", reference_program="clamp(a, b, c)"),
    elementwise("clamp_min_tensor", 2, _at_least, lambda xp, g, ans, x, low: (g, g),
                "ClampMinBackward1", mask=lambda x, low: ((x >= low) ^ True, (x < low) ^ True),
                sympy=lambda x, low: load_sympy().Max(x, low), kinked=True, callable=False,
                inputs=("input", "min"), dtype="keeps", text=lambda args: f"clamp_min({args[0]}, {args[1]})",
                reference="torch.clamp_min(a, b)", reference_program="clamp_min(a, b)"),
    elementwise("clamp_max_tensor", 2, _at_most, lambda xp, g, ans, x, high: (g, g),
                "ClampMaxBackward1", mask=lambda x, high: ((x <= high) ^ True, (x > high) ^ True),
                sympy=lambda x, high: load_sympy().Min(x, high), kinked=True, callable=False,
                inputs=("input", "max"), dtype="keeps", text=lambda args: f"clamp_max({args[0]}, {args[1]})",
                reference="torch.clamp_max(a, b)", reference_program="clamp_max(a, b)"),
    elementwise("div_rounding", 2, _div_rounding, _div_rounding_derivative, "DivBackward2",
                mask=lambda a, b, rounding_mode=None: (None, None) if rounding_mode is None else (True, True),
                sympy=_sympy_div_rounding, params=(ROUNDING,), callable=False, kinked=True, dtype="rounds",
                dtype_refusals=kernel_refusal("div_{rounding_mode}_cpu", "bool and given rounding_mode"),
                text=lambda args, rounding_mode=None: f"div({args[0]}, {args[1]}, rounding_mode={rounding_mode!r})",
                examples=tuple((shapes, {"rounding_mode": mode}) for mode in ("trunc", "floor")
                               for shapes in [((), ()), ((2, 3), (3,))]),
                domain=((-3.0, 3.0), (0.7, 0.9)),
                reference="torch.div(a, b, rounding_mode='floor')", reference_program="div(a, b, rounding_mode='floor')"),
    elementwise("mvlgamma", 1, _mvlgamma, _mvlgamma_derivative, "MvlgammaBackward0", sympy=_sympy_mvlgamma,
                params=(Param("p", "int", None),), spellings=("multigammaln",), methods=("mvlgamma",),
                examples=tuple(((shape,), {"p": p}) for p in (1, 3) for shape in [(), (2, 3)]), domain=((2.5, 5.0),),
                reference="torch.mvlgamma(a, 2)", reference_program="mvlgamma(a, 2)",
                dtype_refusals=(("bool input", "RuntimeError", "The input tensor may not be a boolean tensor."),)),
    elementwise("fill", 2, lambda xp, x, value: xp.where(x != x, value, value), lambda xp, g, ans, x, value: (g, g),
                "FillBackward1", mask=lambda x, value: (True, None), sympy=lambda x, value: value, shape=_fill_shape,
                torch_node_rule=lambda constant, shapes: "FillBackward0" if constant[1] else "FillBackward1",
                scalar_overloads=frozenset({"FillBackward0", "FillBackward2"}), inputs=("input", "value"), dtype="first", linear=True,
                in_place_nodes=(("FillBackward0", "FillBackward2"), ("FillBackward1", "FillBackward3")),  # (t.fill_(v))
                examples=tuple((shapes, {}) for shapes in [((), ()), ((4,), ()), ((2, 3), ())])),
    composite("softmin", 1, _softmin, "SoftmaxBackward0", params=(DIM_INT, CAST),
              # (its own words where it needs a dim, not its softmax's)
              shape=lambda x, dim=None, dtype=None: (_softmax_axis("softmin", dim, len(x)), x)[1],
              examples=(((((4,),), {"dim": 0})), ((((2, 3),), {"dim": 1}))),
              reference="F.softmin(a, 0)", reference_program="softmin(a, 0)"),
    # F.feature_alpha_dropout with p=0 or training=False: the input itself (else random: refused).
    structural("feature_alpha_dropout", 1, lambda x, ranks, **params: x, lambda g, ans, x, ranks, **params: (g,),
               "(none: the input itself)",
               params=(Param("p", "number", 0.5), Param("training", "bool", False), Param("inplace", "bool", False)),
               identity_when=_keeps_everything, shape=lambda x, **params: x,
               examples=((((3,),), {"p": 0.0}), (((2, 3),), {"training": False})),
               reference="F.feature_alpha_dropout(a, 0.5, False)", reference_program="feature_alpha_dropout(a, 0.5, False)"),
    # The calls that are their real input itself, with no node, as PyTorch returns it (a real tensor
    # has no conjugate or negative bit to resolve).
    structural("positive", 1, lambda x, ranks: x, lambda g, ans, x, ranks: (g,), "(none: the input itself)",
               linear=True, identity_when=lambda **params: True, shape=lambda x: x, dtype="keeps",
               sympy=lambda x: x, spellings=("conj", "conj_physical", "resolve_conj", "resolve_neg", "real"),
               methods=("positive", "conj", "conj_physical", "resolve_conj", "resolve_neg"),
               examples=(((((3,),), {})), ((((2, 3),), {}))), reference="torch.positive(a)",
               dtype_refusals=(("bool input", "RuntimeError", "The `+` operator, on a bool tensor is not supported."),)),
    # frexp: (mantissa, exponent), x = mantissa * 2**exponent; the exponent an integer (no gradient), the
    # mantissa's gradient g / exp2(exponent), as PyTorch's FrexpBackward0 (0 where exp2 overflows)
    structural("frexp", 1, _frexp, _frexp_vjp, "FrexpBackward0", jvp=_frexp_jvp,
               shape=lambda x, part=0, of=None: x, parts=2, fields=("mantissa", "exponent"), integer_parts=(1,),
               integer_dtype="int32",  # (PyTorch's exponent is an int32 tensor)
               dtype="keeps", methods=("frexp",), text=lambda args, part=0, of=None: f"torch.frexp({args[0]})[{part}]",
               examples=((((4,),), {"part": 0}), (((2, 3),), {"part": 0}), (((),), {"part": 0})),
               reference="torch.frexp(a)[0]", reference_program="torch.frexp(a)[0]",
               dtype_refusals=(("integer", "RuntimeError", "torch.frexp() only supports floating-point dtypes"),)),
]

