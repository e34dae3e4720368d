"""PyTorch's float32 kernels where their bits are not NumPy's: a fused multiply-add, pow, sigmoid, softmax,
log_softmax (over the last dim and over another) and nll_loss's sum.

PyTorch's CPU pow kernel runs its elementwise loop in vectors where it can: two vectors of 16
floats at a time (its AVX-512 build; 8 on a machine without AVX-512) through SLEEF's
`Sleef_powf16_u10`, and the elements left over one by one through C's pow, as does a loop whose
operands do not step one element at a time (an exponent tensor broadcast along the innermost
axis: `x.unsqueeze(-1).pow(p)` of a (2000, 1) and a (3,) tensor goes through C's powf
everywhere). SLEEF's powf is a logarithm and an exponential in pairs of floats with fused
multiply-adds; C's is the platform's libm. NumPy's float32 power is neither (its own SIMD
code): it differs from PyTorch's in the last bit on about 7% of the powers of a sweep.

Which elements the vectors take follows TensorIterator: the operands' dims coalesced, each
thread's range (above 32,768 elements PyTorch splits the range among its threads) walked row by
row. The layout assumed is that of the arrays gradcli holds: row-major, broadcast operands
stepping by 0 (a strided view, which PyTorch's loop takes one by one, is not told apart yet). torch.sigmoid's
kernel splits its loop so too: `1 / (exp(0 - x) + 1)` with SLEEF's expf in vectors, `1 / (1 + expf(-x))` with C's
for the rest. Softmax over the last dim sums each row in vectors, whose lanes are then added as a tree
(vec::reduce_all). Checked against PyTorch 2.13 in tests/test_run_kernels.py.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

Array = np.ndarray
Value = Any  # float32: an array, or one number where SLEEF broadcasts a constant
F = np.float32

_GRAIN = 32768  # at::internal::GRAIN_SIZE: a loop over more elements is split among the threads

compiled: Any  # inputs/_numbers.c's float64 kernels (fma, float64's lane sums and moments): built where pip found a
try:           # C compiler; where not, NumPy takes the same steps to the same bits (tests/test_float64_kernels.py)
    from gradcli.inputs import _numbers as compiled
except ImportError:
    compiled = None
if getattr(compiled, "version", 0) < 3:  # (a build of an older _numbers.c, without them)
    compiled = None


def fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """a * b + c in float32 rounded once. The product of two float32 is exact in float64; the float64
    sum rounds the right way to float32 except where it lands on a float32 halfway point (the low 29
    bits of its significand 1 << 28), where the sum's error (TwoSum, exact) says which way."""
    product = np.multiply(a, b, dtype=np.float64)
    addend = np.asarray(c, dtype=np.float64)
    total = np.asarray(product + addend)
    rounded = total.astype(np.float32)
    halfway = (total.view(np.uint64) & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)
    if halfway.any():
        product, addend = np.broadcast_arrays(product, addend)
        p, a, t = product[halfway], addend[halfway], total[halfway]
        virtual = t - p
        error = (p - (t - virtual)) + (a - virtual)
        rounded[halfway] = np.where(error != 0, np.nextafter(t, np.copysign(np.inf, error)), t).astype(np.float32)
    return rounded


_SPLIT = 134217729.0  # 2**27 + 1: Dekker's split of a float64 into two halves of 26 bits


def fma64(a: Any, b: Any, c: Any) -> np.ndarray:
    """a * b + c in float64 rounded once (a C compiler's fused multiply-add). The product's error is exact by
    Dekker's split (p + e = a * b), p + c by TwoSum (s + t), t + e (u + v); s + u rounds to the answer but where
    it is a tie and v lies beyond it. An exact zero keeps the sign of p + c. Where a split could overflow or a
    product overflow or underflow (magnitudes past 1e300, below 1e-280), a and b are scaled to [0.5, 1) by powers of two and c
    with them (exact), and the answer scaled back (c where a * b is too small to reach it: p + c); a value that is
    not finite: a * b + c (its infinities, NaN). The compiled helper's C fma where it is built."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (a, b, c)))
    if compiled is not None:
        out = np.empty(a.shape)
        compiled.fma(*(np.ascontiguousarray(v) for v in (a, b, c)), out)
        return out
    with np.errstate(all="ignore"):
        p = a * b
        halves = []
        for v in (a, b):
            t = _SPLIT * v
            high = t - (t - v)
            halves.append((high, v - high))
        (ah, al), (bh, bl) = halves
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s = p + c
        z = s - p
        t = (p - (s - z)) + (c - z)
        u = t + e
        z = u - t
        v = (t - (u - z)) + (e - z)
        r = s + u
        z = r - s
        w = (s - (r - z)) + (u - z)
        beyond = np.nextafter(r, np.copysign(np.inf, w))  # (the float past r on w's side: below a power of two,
        tie = (w != 0) & (np.abs(w) * 2 == np.abs(beyond - r))  # half r's spacing above it)
        r = np.where(tie & (v != 0) & ((v > 0) == (w > 0)), beyond, r)
        r = np.where(r == 0, s, r)
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c)
        fine = (np.abs(a) < 1e300) & (np.abs(b) < 1e300) & ((np.abs(p) > 1e-280) | (a == 0) | (b == 0)) \
            & (np.abs(p) < 1e300)  # (a product past the range: its split is inf - inf)
        zero = (a == 0) | (b == 0)  # (an exact zero product: c itself, as p + c gives it, whatever a or b's size)
        # (a finite product and an infinite c: c, though the product's rounding may overflow)
        out = np.where(finite & ~zero, r, np.where(np.isfinite(a) & np.isfinite(b) & ~np.isfinite(c), c, p + c))
        scaled = finite & ~fine & ~zero
        if scaled.any():
            (ma, ea), (mb, eb) = np.frexp(a[scaled]), np.frexp(b[scaled])
            addend = np.ldexp(c[scaled], -(ea + eb))
            # (a product far below c, scaled, would take c past the floats: c is the answer, as p + c rounds it)
            result = np.where(np.abs(addend) < 1e300, np.ldexp(fma64(ma, mb, addend), ea + eb), (p + c)[scaled])
            # (where scaling c lost bits, or the result is among the subnormals, which scaling back rounds again:
            # in rationals, as few as these are)
            again = (np.ldexp(addend, ea + eb) != c[scaled]) | (np.abs(result) < 2.0 ** -1021)
            for i, x, y, z in zip(np.flatnonzero(again), a[scaled][again], b[scaled][again], c[scaled][again],
                                  strict=True):
                result[i] = _exact_fma(float(x), float(y), float(z))
            out[scaled] = result
        return np.asarray(out)


def _exact_fma(a: float, b: float, c: float) -> float:
    """a * b + c rounded once, in rationals (finite a, b and c, a * b not 0): Fraction's float rounds to nearest, even
    on ties, subnormals too (an exact 0 is +0, as a fused multiply-add rounds it)."""
    from fractions import Fraction

    exact = Fraction(a) * Fraction(b) + Fraction(c)
    try:
        return float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf


# --- pairs of floats (SLEEF's df.h, its FMA build): a value as hi + lo -------------------------

Pair = tuple[Value, Value]


def _add2(x: Value, y: Value) -> Pair:
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _add2_pair(x: Pair, y: Value | Pair) -> Pair:
    y_hi, y_lo = y if isinstance(y, tuple) else (y, None)
    s = x[0] + y_hi
    v = s - x[0]
    t = (x[0] - (s - v)) + (y_hi - v)
    return s, t + (x[1] if y_lo is None else x[1] + y_lo)


def _add(x: Pair, y: Pair) -> Pair:  # (|x| >= |y|)
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def _add_one(x: Value, y: Pair) -> Pair:
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]


def _normalize(t: Pair) -> Pair:
    s = t[0] + t[1]
    return s, (t[0] - s) + t[1]


def _mul(x: Pair, y: Value) -> Pair:
    s = x[0] * y
    return s, fma32(x[1], y, fma32(x[0], y, -s))


def _mul_pair(x: Pair, y: Pair) -> Pair:
    s = x[0] * y[0]
    return s, fma32(x[0], y[1], fma32(x[1], y[0], fma32(x[0], y[0], -s)))


def _square(x: Pair) -> Pair:
    s = x[0] * x[0]
    return s, fma32(x[0] + x[0], x[1], fma32(x[0], x[0], -s))


def _div(n: Pair, d: Pair) -> Pair:
    t = F(1) / d[0]
    s = n[0] * t
    u = fma32(t, n[0], -s)
    v = fma32(-d[1], t, fma32(-d[0], t, F(1)))
    return s, fma32(s, v, fma32(n[1], t, u))


# --- SLEEF's powf (u10), as its AVX-512 build computes it ----------------------------------------

def _int32(x: Value, rounding: Any) -> Value:
    """cvtps_epi32 / cvttps_epi32: out of range and NaN give INT32_MIN."""
    fits = np.abs(x) < 2.0**31
    return np.where(fits, rounding(np.where(fits, x, 0)), -(2**31)).astype(np.int32)


def _bits(x: Value) -> Value:
    return np.asarray(x, dtype=F).view(np.int32)


def _float(bits: Value) -> Value:
    return np.asarray(bits, dtype=np.int32).view(F)


def _mulsign(x: Value, y: Value) -> Value:
    return _float(_bits(x) ^ (_bits(y) & np.int32(-(2**31))))


def _ldexp(x: Value, q: Value) -> Value:
    """x * 2**q in SLEEF's steps (four factors of 2**(16 * (q // 64)), then the rest)."""
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = np.clip(m + 0x7F, 0, 0xFF)
    u = _float(m << 23)
    x = x * u * u * u * u
    return x * _float((q + 0x7F) << 23)


def _log(d: Value) -> Pair:
    """log(d) of a positive d as a pair (logkf; AVX-512's getexp and getmant split d)."""
    scaled = d * F(1 / 0.75)
    exponent = np.frexp(scaled)[1]
    e = np.where(np.isinf(scaled), F(128), (exponent - 1).astype(F))
    fraction = np.frexp(d)[0]
    m = np.where(fraction >= 0.75, fraction, fraction * F(2))  # d's significand in [0.75, 1.5)
    x = _div(_add2(F(-1), m), _add2(F(1), m))
    x2 = _square(x)
    t: Value = F(0.240320354700088500976562)
    t = fma32(t, x2[0], F(0.285112679004669189453125))
    t = fma32(t, x2[0], F(0.400007992982864379882812))
    c = (F(0.66666662693023681640625), F(3.69183861259614332084311e-09))
    s = _mul((F(0.69314718246459960938), F(-1.904654323148236017e-09)), e)
    s = _add(s, (x[0] * F(2), x[1] * F(2)))
    return _add(s, _mul_pair(_mul_pair(x2, x), _add2_pair(_mul(x2, t), c)))


def _exp(d: Pair) -> Value:
    """exp of a pair (expkf)."""
    q = _int32((d[0] + d[1]) * F(1.442695040888963407359924681001892137426645954152985934135449406931), np.rint)
    qf = q.astype(F)
    s = _add2_pair(d, qf * F(-0.693145751953125))
    s = _add2_pair(s, qf * F(-1.428606765330187045e-06))
    s = _normalize(s)
    u: Value = F(0.00136324646882712841033936)
    for coefficient in (0.00836596917361021041870117, 0.0416710823774337768554688, 0.166665524244308471679688,
                        0.499999850988388061523438):
        u = fma32(u, s[0], F(coefficient))
    t = _add(s, _mul(_square(s), u))
    t = _add_one(F(1), t)
    result = _ldexp(t[0] + t[1], q)
    return np.where(d[0] < F(-104), F(0), result)


def sleef_powf(x: Value, y: Value) -> Value:
    """Sleef_powf16_u10(x, y), element by element, with its special values."""
    x, y = np.broadcast_arrays(np.asarray(x, dtype=F), np.asarray(y, dtype=F))
    with np.errstate(all="ignore"):
        magnitude = np.abs(y)
        whole = (np.trunc(y) == y) | (magnitude > F(1 << 24))
        odd = whole & (magnitude < F(1 << 24)) & ((_int32(y, np.trunc) & 1) == 1)
        result = _exp(_mul(_log(np.abs(x)), y))
        result = np.where(np.isnan(result), F(np.inf), result)
        result = result * np.where(x > 0, F(1), np.where(whole, np.where(odd, F(-1), F(1)), F(np.nan)))
        efx = _mulsign(np.abs(x) - F(1), y)
        result = np.where(np.isinf(y), np.where(efx < 0, F(0), np.where(efx == 0, F(1), F(np.inf))), result)
        zero_or_inf = np.isinf(x) | (x == 0)
        edge = _mulsign(np.where(np.signbit(y) ^ (x == 0), F(0), F(np.inf)), np.where(odd, x, F(1)))
        result = np.where(zero_or_inf, edge, result)
        result = np.where(np.isnan(x) | np.isnan(y), _float(np.int32(-1)), result)  # (all bits set)
        return np.where((y == 0) | (x == 1), F(1), result).astype(F)


# --- which elements PyTorch's loop computes in vectors -------------------------------------------

def _lanes() -> int:
    """Floats in one of PyTorch's vectors for pow: 16 where the CPU has AVX-512 (PyTorch's AVX512 build
    needs F, BW, DQ and VL: NumPy's AVX512_SKX), else 8 (its AVX2 build)."""
    import importlib

    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):  # (NumPy 2, NumPy 1.26)
        try:
            features = importlib.import_module(name).__cpu_features__
            break
        except (ImportError, AttributeError):
            continue
    else:
        return 16
    return 16 if features.get("AVX512_SKX") else 8


def _threads() -> int:
    """PyTorch's intra-op threads: OMP_NUM_THREADS, else one per core."""
    try:
        return max(1, int(os.environ.get("OMP_NUM_THREADS", "")))
    except ValueError:
        return max(1, os.cpu_count() or 1)


def _inner_loop(shape: tuple[int, ...], operands: list[tuple[int, ...]]) -> tuple[int, bool]:
    """The length of TensorIterator's innermost loop over `shape` (its dims coalesced), and whether
    that loop runs in vectors: every operand steps one element, or one input stays put."""
    dims = list(reversed(shape)) or [1]
    strides = []
    for operand in operands:
        padded = (1,) * (len(shape) - len(operand)) + operand
        step, own = [], 1
        for size, full in zip(reversed(padded), reversed(shape), strict=True):
            step.append(own if size == full and full != 1 else 0)
            own *= size
        strides.append(step or [0])
    strides.insert(0, [int(np.prod(dims[:i])) for i in range(len(dims))])  # the output, row-major
    inner = 0
    for dim in range(1, len(dims)):
        if dims[inner] == 1 or dims[dim] == 1 or all(s[inner] * dims[inner] == s[dim] for s in strides):
            if dims[inner] == 1:
                for s in strides:
                    s[inner] = s[dim]
            dims[inner] *= dims[dim]
        else:
            break
    steps = [s[inner] for s in strides]
    vectors = all(s == 1 for s in steps) or (steps[0] == 1 and sorted(steps[1:])[:1] == [0]
                                             and all(s == 1 for s in steps[1:] if s != 0)
                                             and steps[1:].count(0) == 1)
    return dims[inner], vectors


def vector_mask(shape: tuple[int, ...], *operands: tuple[int, ...]) -> Array:
    """True where PyTorch's elementwise loop over `shape` (inputs of these shapes, broadcast) takes
    an element in vectors, False where one by one."""
    n = int(np.prod(shape))
    row, vectors = _inner_loop(shape, list(operands))
    if not vectors or n == 0:
        return np.zeros(shape, dtype=bool)
    block = 2 * _lanes()
    index = np.arange(n)
    chunk = n
    if n >= _GRAIN:
        threads = min(_threads(), -(-n // _GRAIN))
        chunk = -(-n // threads)
    begin = index // chunk * chunk
    end = np.minimum(begin + chunk, n)
    start = np.maximum(index // row * row, begin)
    stop = np.minimum(index // row * row + row, end)
    return ((index - start) < (stop - start) // block * block).reshape(shape)


def _c_powf(x: Array, y: Array) -> Array:
    """C's powf, one element at a time (NumPy's float32 scalars call it)."""
    return np.fromiter((a ** b for a, b in zip(x, y, strict=True)), dtype=F, count=x.size)


def power(x: Array, y: Array | float) -> Array:
    """x ** y of a float32 tensor as PyTorch's CPU kernel computes it. A Python number y (pow(Tensor,
    Scalar)) goes one by one through C's pow of doubles; a tensor y (pow(Tensor, Tensor), y already
    float32) through C's powf."""
    number = not isinstance(y, np.ndarray)
    shape = np.shape(x) if number else np.broadcast_shapes(np.shape(x), np.shape(y))
    base, exponent = np.broadcast_arrays(np.asarray(x, dtype=F), np.asarray(y, dtype=F))
    vectors = vector_mask(shape, np.shape(x)) if number else vector_mask(shape, np.shape(x), np.shape(y))
    out = np.empty(shape, dtype=F)
    out[vectors] = sleef_powf(base[vectors], exponent[vectors])
    single = ~vectors
    if single.any():
        with np.errstate(all="ignore"):
            if number:
                out[single] = np.fromiter((np.float64(a) ** np.float64(y) for a in base[single]), dtype=np.float64,
                                          count=int(single.sum())).astype(F)
            else:
                out[single] = _c_powf(base[single], exponent[single])
    return out


def sleef_expf(d: Value) -> Value:
    """Sleef_expf16_u10(d), element by element."""
    d = np.asarray(d, dtype=F)
    with np.errstate(all="ignore"):
        q = _int32(d * F(1.442695040888963407359924681001892137426645954152985934135449406931), np.rint)
        qf = q.astype(F)
        s = fma32(qf, F(-0.693145751953125), d)
        s = fma32(qf, F(-1.428606765330187045e-06), s)
        u: Value = F(0.000198527617612853646278381)
        for coefficient in (0.00139304355252534151077271, 0.00833336077630519866943359, 0.0416664853692054748535156,
                            0.166666671633720397949219, 0.5):
            u = fma32(u, s, F(coefficient))
        u = F(1) + fma32(s * s, u, s)
        half = q >> 1
        u = u * _float((half + 0x7F) << 23) * _float((q - half + 0x7F) << 23)
        u = np.where(d < F(-104), F(0), u)
        return np.where(F(100) < d, F(np.inf), u).astype(F)


_libm: list[Any] = []


def _c_expf(x: Array) -> Array:
    """C's expf, one element at a time (the platform's libm, as PyTorch's loop calls it; math.exp rounded to float32
    where ctypes finds none)."""
    if not _libm:
        try:
            import ctypes
            import ctypes.util
            import sys

            lib = ctypes.CDLL("ucrtbase" if sys.platform == "win32" else ctypes.util.find_library("m") or "libm.so.6")
            lib.expf.restype, lib.expf.argtypes = ctypes.c_float, [ctypes.c_float]
            _libm.append(lib.expf)
        except (OSError, AttributeError):
            _libm.append(None)
    expf = _libm[0]
    if expf is None:
        import math

        return np.array([math.exp(v) if v < 89 else math.inf for v in x.tolist()], dtype=np.float64).astype(F)
    return np.fromiter((expf(v) for v in x.tolist()), dtype=F, count=x.size)


def sigmoid(x: Array) -> Array:
    """torch.sigmoid of a float32 tensor: 1 / (exp(0 - x) + 1) with SLEEF's expf in its vectors, 1 / (1 + expf(-x))
    with C's for the elements its loop takes one by one."""
    x = np.asarray(x, dtype=F)
    vectors = vector_mask(x.shape, x.shape)
    out = np.empty(x.shape, dtype=F)
    with np.errstate(all="ignore"):
        out[vectors] = F(1) / (sleef_expf(F(0) - x[vectors]) + F(1))
        single = ~vectors
        if single.any():
            out[single] = F(1) / (F(1) + _c_expf(-x[single]))
    return out


def _tree(acc: Array) -> Array:
    """vec_reduce_all's sum of one vector's lanes: halves added lane by lane (lane i with lane i ^ 8, then ^ 4 ...)."""
    lanes = acc.shape[-1]
    step = lanes // 2
    while step:
        acc = acc + acc[..., np.arange(lanes) ^ step]
        step //= 2
    return acc[..., 0]


def vector_sum(x: Array) -> Array:
    """vec::reduce_all's sum over the last axis: a vector of lanes accumulated along the row (the leftover elements
    into the first lanes), then its lanes added as a tree; a row shorter than a vector in order."""
    lanes = _lanes()
    n = x.shape[-1]
    if n < lanes:
        total = x[..., 0]
        for i in range(1, n):
            total = total + x[..., i]
        return np.asarray(total)
    acc = x[..., :lanes].copy()
    whole = n - n % lanes
    for start in range(lanes, whole, lanes):
        acc += x[..., start:start + lanes]
    if whole < n:
        acc[..., :n - whole] += x[..., whole:]
    return _tree(acc)


def softmax_lastdim(x: Array) -> Array:
    """torch.softmax of float32 over the last dim (its _vec_softmax_lastdim): exp(x - max) with SLEEF's expf, their
    vector sum, each times 1 / the sum."""
    with np.errstate(all="ignore"):
        shifted = sleef_expf(x - np.max(x, axis=-1, keepdims=True))
        return shifted * (F(1) / vector_sum(shifted))[..., None]


def sleef_logf(d: Value) -> Value:
    """Sleef_logf16_u10(d) (xlogf_u1), element by element."""
    d = np.asarray(d, dtype=F)
    with np.errstate(all="ignore"):
        scaled = d * F(1 / 0.75)
        e = np.where(np.isinf(scaled), F(128), (np.frexp(scaled)[1] - 1).astype(F))
        fraction = np.frexp(d)[0]
        m = np.where(fraction >= 0.75, fraction, fraction * F(2))
        s = _mul((F(0.69314718246459960938), F(-1.904654323148236017e-09)), e)
        x = _div(_add2(F(-1), m), _add2(F(1), m))
        r = _log_series(s, x)
        r = np.where(np.isposinf(d), F(np.inf), r)
        r = np.where((d < 0) | np.isnan(d), F(np.nan), r)
        return np.where(d == 0, F(-np.inf), r).astype(F)


def _log_series(s: Pair, x: Pair) -> Value:
    """SLEEF's last step of logf and log1pf: e*ln(2) (`s`, a pair of floats) + 2x + x^3 times its series in x^2,
    `x` = (m - 1) / (m + 1) as a pair, summed as pairs and rounded once."""
    x2 = x[0] * x[0]
    t: Value = F(0.3027294874)
    t = fma32(t, x2, F(0.3996108174))
    t = fma32(t, x2, F(0.6666694880))
    s = _add(s, (x[0] * F(2), x[1] * F(2)))
    tail = (x2 * x[0]) * t
    high = s[0] + tail
    return high + (((s[0] - high) + tail) + s[1])


def sleef_log1pf(d: Value) -> Value:
    """Sleef_log1pf16_u10(d) (xlog1pf), element by element: log(1 + d) from m = (1 + d) / 2^e - 1, a fused d * t + (t - 1),
    as pairs of floats; above 1e38 SLEEF's logf."""
    d = np.asarray(d, dtype=F)
    with np.errstate(all="ignore"):
        scaled = (d + F(1)) * F(1 / 0.75)
        e = np.where(np.isinf(scaled), F(128), (np.frexp(scaled)[1] - 1).astype(F))
        t = np.ldexp(F(1), -e.astype(np.int32)).astype(F)
        m = fma32(d, t, t - F(1))
        s = _mul((F(0.69314718246459960938), F(-1.904654323148236017e-09)), e)
        total = F(2) + m
        x = _div((m, F(0)), (total, (F(2) - total) + m))
        r = _log_series(s, x)
        r = np.where(d <= F(1e38), r, sleef_logf(d))
        r = np.where(d < F(-1), F(np.nan), r)
        r = np.where(d == F(-1), F(-np.inf), r)
        return np.where((d == 0) & np.signbit(d), F(-0.0), r).astype(F)


# glibc's logf (its e_logf_data.c, from Arm's optimized-routines): 1/c and log(c) at the centres of 16 subintervals
_LOGF_TABLE = np.array([float.fromhex(v) for v in (
    "0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2", "0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2",
    "0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2", "0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3",
    "0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3", "0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3",
    "0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4", "0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4",
    "0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5", "0x1p+0", "0x0p+0",
    "0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5", "0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4",
    "0x1.b2036576afce6p-1", "0x1.526e57720db08p-3", "0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3",
    "0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2", "0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2")]).reshape(16, 2)
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = [float.fromhex(v) for v in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")]


def c_logf(x: Value) -> Array:
    """C's logf as PyTorch's scalar kernels call it (std::log of a float: glibc's): x = 2^k z, log(z / c) by a
    polynomial in double around the nearest of 16 centres c, plus log(c) + k log(2), rounded once to float32 (equal
    to glibc's on 90,000 inputs; not always the correctly rounded log, nor NumPy's or MKL's float32 log)."""
    x = np.asarray(x, dtype=F)
    with np.errstate(all="ignore"):
        bits = x.view(np.uint32).astype(np.int64)
        subnormal = (bits > 0) & (bits < 0x00800000)
        bits = np.where(subnormal, (x * F(2**23)).view(np.uint32).astype(np.int64) - (23 << 23), bits)
        tmp = (bits - 0x3F330000) & 0xFFFFFFFF
        index = (tmp >> 19) % 16
        k = (tmp.astype(np.uint32).view(np.int32) >> 23).astype(np.float64)
        z = ((bits - (tmp & 0xFF800000)) & 0xFFFFFFFF).astype(np.uint32).view(F).astype(np.float64)
        r = z * _LOGF_TABLE[index, 0] - 1.0
        y0 = _LOGF_TABLE[index, 1] + k * _LOGF_LN2
        r2 = r * r
        y = _LOGF_POLY[1] * r + _LOGF_POLY[2]
        y = _LOGF_POLY[0] * r2 + y
        y = (y * r2 + (y0 + r)).astype(F)
        y = np.where(x == F(1), F(0), y)
        y = np.where(x == 0, F(-np.inf), y)
        y = np.where(np.isposinf(x), F(np.inf), y)
        return np.where((x < 0) | np.isnan(x), F(np.nan), y).astype(F)


def log_sigmoid(x: Array) -> tuple[Array, Array]:
    """torch's log_sigmoid of float32 (log_sigmoid_cpu_kernel, every element in vectors): min(x, 0) - log1p(buffer),
    the buffer exp(-|x|) with SLEEF's expf and log1pf; (the value, the buffer its backward reads)."""
    x = np.asarray(x, dtype=F)
    with np.errstate(all="ignore"):
        buffer = sleef_expf(-np.abs(x))
        return np.asarray(np.minimum(x, F(0)) - sleef_log1pf(buffer), dtype=F), buffer


def log_softmax_lastdim(x: Array) -> Array:
    """torch.log_softmax of float32 over the last dim (its _vec_log_softmax_lastdim): (x - max) - log(sum), the sum of
    SLEEF's expf(x - max) in vectors, its log SLEEF's logf."""
    with np.errstate(all="ignore"):
        peak = np.max(x, axis=-1, keepdims=True)
        total = vector_sum(sleef_expf(x - peak))
        return (x - peak) - sleef_logf(total)[..., None]


def log_softmax_backward_lastdim(g: Array, y: Array) -> Array:
    """LogSoftmaxBackward0's float32 kernel over the last dim: g - exp(y) * sum(g), the sum in vectors, exp SLEEF's,
    the product and difference one fused multiply-add."""
    with np.errstate(all="ignore"):
        return fma32(-sleef_expf(y), vector_sum(g)[..., None], g)


def _along(shape: tuple[int, ...], axis: int) -> tuple[int, int, int, Array]:
    """(outer, the dim's size, inner, and which of the inner positions PyTorch's loop over a dim that is not the last
    takes in vectors): its chunks of the inner positions (128 KB of the dim's rows, whole vectors, at most the inner
    size), each chunk's whole vectors in lanes and the rest one by one."""
    dim, inner, outer = shape[axis], int(np.prod(shape[axis + 1:])), int(np.prod(shape[:axis]))
    lanes = _lanes()
    chunk = min(max(128 * 1024 // max(dim, 1) // 4, lanes) // lanes * lanes, inner)
    vectors = np.zeros(inner, dtype=bool)
    for begin in range(0, inner, max(chunk, 1)):
        size = min(chunk, inner - begin)
        vectors[begin:begin + size - size % lanes] = True
    return outer, dim, inner, vectors


def _exp_along(x: Array, vectors: Array) -> Array:
    """SLEEF's expf where the loop takes lanes, C's expf where it takes one element at a time."""
    out = sleef_expf(x)
    single = ~np.broadcast_to(vectors, x.shape)
    if single.any():
        out[single] = _c_expf(x[single])
    return out


def log_softmax_along(x: Array, axis: int) -> Array:
    """torch.log_softmax of float32 over a dim that is not the last (its serial_vec_logsoftmax_range): the sum of
    exp(x - max) over the dim in order, element by element across the inner positions; its log SLEEF's logf; then
    x - max - log(sum), left to right."""
    outer, dim, inner, vectors = _along(x.shape, axis)
    y = x.reshape(outer, dim, inner)
    with np.errstate(all="ignore"):
        shifted = y - np.max(y, axis=1, keepdims=True)
        terms = _exp_along(shifted, vectors)
        total = terms[:, 0].copy()
        for d in range(1, dim):
            total += terms[:, d]
        return (shifted - sleef_logf(total)[:, None]).reshape(x.shape)


def log_softmax_backward_along(g: Array, y: Array, axis: int) -> Array:
    """LogSoftmaxBackward0's float32 kernel over a dim that is not the last: g - exp(y) * sum(g), the sum over the
    dim in order, exp as the forward's, the product and difference one fused multiply-add."""
    outer, dim, inner, vectors = _along(y.shape, axis)
    g3, y3 = g.reshape(outer, dim, inner), y.reshape(outer, dim, inner)
    with np.errstate(all="ignore"):
        total = g3[:, 0].copy()
        for d in range(1, dim):
            total += g3[:, d]
        return fma32(-_exp_along(y3, vectors), np.broadcast_to(total[:, None], y3.shape), g3).reshape(y.shape)


def norm_two_rows(x: Array) -> Array:
    """torch.linalg.vector_norm of float32 (p=2) of each row of x (rows, n), its kernel over a contiguous last dim: the
    squares added into 8 lanes (its AVX2 build, on every x86 machine: the kernel has no AVX-512 one), the lanes added
    left to right, then the elements left over: four of them (where there are four) as the compiler's vectorized
    epilogue adds their squares, the rest each a fused multiply-add; then its square root."""
    rows, n = x.shape
    whole = n - n % 8
    with np.errstate(all="ignore"):
        lanes = np.zeros((rows, 8), dtype=F)
        for start in range(0, whole, 8):
            part = x[:, start:start + 8]
            lanes = lanes + part * part
        total = lanes[:, 0]
        for lane in range(1, 8):
            total = total + lanes[:, lane]
        for k, column in enumerate(range(whole, n)):
            value = x[:, column]
            total = total + value * value if k < 4 and n - whole >= 4 else fma32(value, value, total)
        return np.sqrt(total).astype(F)


def nll_sums(losses: Array, weights: Array, kept: Array) -> tuple[Any, Any]:
    """nll_loss's sums over a batch (the last axis; float32 or float64, the losses' dtype), in its cascade (eight
    levels of partial sums, 2**p samples each, p at least 4): the sum of -losses and the sum of the weights, over the
    samples kept. Leading axes (points of a batch of them) each add so."""
    if losses.ndim > 1:
        return _nll_sums_each(losses, np.broadcast_to(weights, losses.shape), np.broadcast_to(kept, losses.shape))
    f = losses.dtype.type
    batch = losses.shape[0]
    power = max(4, (batch - 1).bit_length() // 8)
    mask = (1 << power) - 1
    loss_parts, weight_parts = [f(0)] * 8, [f(0)] * 8
    for b in np.flatnonzero(kept).tolist():
        loss_parts[0] = f(loss_parts[0] - losses[b])
        weight_parts[0] = f(weight_parts[0] + weights[b])
        for j in range(7):
            if b & (mask << (j * power)):
                break
            loss_parts[j + 1] = f(loss_parts[j + 1] + loss_parts[j])
            weight_parts[j + 1] = f(weight_parts[j + 1] + weight_parts[j])
            loss_parts[j] = weight_parts[j] = f(0)
    loss_total, weight_total = f(0), f(0)
    for loss_part, weight_part in zip(loss_parts, weight_parts, strict=True):
        loss_total, weight_total = f(loss_total + loss_part), f(weight_total + weight_part)
    return loss_total, weight_total


def _nll_sums_each(losses: Array, weights: Array, kept: Array) -> tuple[Array, Array]:
    """nll_sums of each row of (..., batch): the same steps, a sample left out where it is not kept."""
    batch = losses.shape[-1]
    power = max(4, (batch - 1).bit_length() // 8)
    mask = (1 << power) - 1
    zero = np.zeros(losses.shape[:-1], dtype=losses.dtype)
    parts = [[zero] * 8, [zero] * 8]  # the losses', the weights'
    for b in range(batch):
        keep = kept[..., b]
        parts[0][0] = np.where(keep, parts[0][0] - losses[..., b], parts[0][0])
        parts[1][0] = np.where(keep, parts[1][0] + weights[..., b], parts[1][0])
        for j in range(7):
            if b & (mask << (j * power)):
                break
            for level in parts:
                level[j + 1] = np.where(keep, level[j + 1] + level[j], level[j + 1])
                level[j] = np.where(keep, zero, level[j])
    totals = []
    for level in parts:
        total = zero
        for part in level:
            total = total + part
        totals.append(total)
    return totals[0], totals[1]
