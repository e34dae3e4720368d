"""PyTorch's CPU random numbers, bit for bit: the generator `torch.manual_seed` seeds and the
transforms `rand`, `randn`, `randint`, `randperm`, `normal_`, `uniform_`, `bernoulli`, `exponential_` and
`multinomial` apply to it.

What PyTorch 2.13 does (read in its ATen sources; nothing here is its code):

- The engine is the 32-bit Mersenne Twister seeded with the low 32 bits of the seed, as
  std::mt19937 is; NumPy's MT19937 bit generator given that state draws the same words.
  A 64-bit draw is two words, the first the high half.
- A uniform float32 keeps 24 bits of one word, a float64 53 bits of a 64-bit draw:
  (bits & (2**digits - 1)) * 2**-digits, then `x * (to - from) + from` in the dtype.
- randint(low, high): a word (a 64-bit draw when high - low >= 2**32) modulo the range, plus low.
- randperm(n): 0..n-1, then for each i < n - 1 swap i with i + word % (n - i).
- normal_: a contiguous tensor of 16 or more elements fills itself with uniforms, then turns each
  block of 16 into normals by Box-Muller (the first 8 as radii, the next 8 as angles); when the
  size is not a multiple of 16 the last 16 places are drawn again and transformed again. float32
  takes the AVX2 kernel there (PyTorch keeps normal off AVX-512 on purpose), whose log, sin and
  cos are Cephes polynomials in float32: reproduced below operation by operation. Fewer than 16
  elements go one at a time through a float64 Box-Muller that keeps its second value (the sine)
  for the next call; manual_seed forgets it.
- bernoulli(p tensor): one uniform (of p's dtype) per element, 1 where it is below p.
- exponential_: -log1p(-u) / rate of a float64 uniform per element, rounded to the dtype.
- multinomial(probs, n, replacement): with replacement and n > 1, per row a float64 uniform per sample,
  searched (the first cumulative sum not below it) in the row's running sums in its dtype divided by
  their total, the last made 1; else exponentials q of probs' shape and the largest probs / q.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from gradcli.ops.core import fma32 as _fma32

FLOAT32 = np.dtype(np.float32)
FLOAT64 = np.dtype(np.float64)
INT64 = np.dtype(np.int64)

_STATE_WORDS = 624
_TWO_PI_32 = np.float32(2.0 * math.pi)


class Generator:
    """torch.Generator on the CPU: one engine, one cached normal (float64), one seed."""

    def __init__(self, seed: int | None = None) -> None:
        self._engine = np.random.MT19937()
        self._seed = 0
        self._next_normal: float | None = None
        self.manual_seed(secrets.randbits(64) if seed is None else seed)

    # --- the engine ---

    def manual_seed(self, seed: int) -> Generator:
        seed = int(seed) % 2**64  # PyTorch reads a negative seed as its two's complement
        key = np.empty(_STATE_WORDS, dtype=np.uint32)
        key[0] = seed & 0xFFFFFFFF
        word = int(key[0])
        for i in range(1, _STATE_WORDS):  # Matsumoto and Nishimura's init_genrand
            word = (1812433253 * (word ^ (word >> 30)) + i) & 0xFFFFFFFF
            key[i] = word
        # pos 624: the first draw twists the whole state, as PyTorch's engine does (left = 1)
        self._engine.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": _STATE_WORDS}}
        self._seed = seed
        self._next_normal = None
        return self

    def initial_seed(self) -> int:
        return self._seed

    def words(self, count: int) -> np.ndarray:
        """The next `count` 32-bit draws (uint64)."""
        return np.asarray(self._engine.random_raw(count), dtype=np.uint64)

    def words64(self, count: int) -> np.ndarray:
        """The next `count` 64-bit draws: two words each, the first the high half."""
        pairs = self.words(2 * count)
        return (pairs[0::2] << np.uint64(32)) | pairs[1::2]

    def unit(self, count: int, dtype: np.dtype) -> np.ndarray:
        """`count` uniforms in [0, 1) of dtype, as at::uniform_real_distribution(0, 1) draws them."""
        if dtype == FLOAT64:
            bits = self.words64(count) & np.uint64(2**53 - 1)
            return bits.astype(np.float64) * 2.0**-53
        bits = self.words(count) & np.uint64(2**24 - 1)
        return (bits.astype(np.float32) * np.float32(2.0**-24)).astype(FLOAT32)

    # --- the distributions ---

    def uniform_(self, out: np.ndarray, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        kind = _floating(out.dtype)
        low_, high_ = kind.type(low), kind.type(high)
        x = self.unit(out.size, kind)
        if (low_, high_) != (0, 1):  # (x * 1 + 0 is x)
            x = _fma(x, kind.type(high_ - low_), low_, kind)
        out[...] = x.reshape(out.shape)
        return out

    def normal_(self, out: np.ndarray, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        kind = _floating(out.dtype)
        size = out.size
        if size >= 16:
            data = self.unit(size, kind)
            fill = _normal_16_avx2 if kind == FLOAT32 else _normal_16
            whole = size - size % 16
            data[:whole] = fill(data[:whole].reshape(-1, 16), mean, std).ravel()
            if size % 16:  # the last 16 places, drawn and transformed again
                data[size - 16:] = fill(self.unit(16, kind).reshape(1, 16), mean, std).ravel()
            out[...] = data.reshape(out.shape)
        else:
            values = [self._normal(mean, std) for _ in range(size)]
            out[...] = np.asarray(values, dtype=np.float64).astype(kind).reshape(out.shape)
        return out

    def _normal(self, mean: float, std: float) -> float:
        """One float64 normal by Box-Muller, the pair's sine kept for the next call."""
        if self._next_normal is not None:
            value, self._next_normal = self._next_normal, None
            return _fma64_one(value, std, mean)
        u1, u2 = self.unit(2, FLOAT64)
        radius = math.sqrt(-2.0 * math.log1p(-float(u2)))
        theta = 2.0 * math.pi * float(u1)
        self._next_normal = radius * math.sin(theta)
        return _fma64_one(radius * math.cos(theta), std, mean)

    def random_(self, out: np.ndarray, low: int, high: int) -> np.ndarray:
        """Integers in [low, high): a draw modulo the range (PyTorch's random_(from, to))."""
        span = high - low
        if span <= 0:
            raise ValueError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        wide = span >= 2**32 and out.dtype in (INT64, FLOAT64, FLOAT32)
        draws = self.words64(out.size) if wide else self.words(out.size)
        values = (draws % np.uint64(span)).astype(np.int64) + np.int64(low)
        out[...] = values.astype(out.dtype).reshape(out.shape)
        return out

    def bernoulli(self, p: np.ndarray) -> np.ndarray:
        """1 where a uniform of p's dtype (float64 for float64 p, else float32) falls below p."""
        kind = FLOAT64 if p.dtype == FLOAT64 else FLOAT32
        return (self.unit(p.size, kind).reshape(p.shape) < p.astype(kind)).astype(p.dtype)

    def exponential_(self, out: np.ndarray, rate: float = 1.0) -> np.ndarray:
        """-log1p(-u) / rate of float64 uniforms, rounded to out's dtype (PyTorch's CPU kernel, every size)."""
        u = self.unit(out.size, FLOAT64)
        with np.errstate(divide="ignore"):
            values = -1.0 / rate * np.log1p(-u)
        out[...] = values.astype(out.dtype).reshape(out.shape)
        return out

    def multinomial(self, probs: np.ndarray, count: int, replacement: bool) -> np.ndarray:
        """Indices drawn by the rows of `probs` (rows, categories): with replacement and more than one sample,
        a float64 uniform per sample searched in the row's cumulative sums (in the dtype, divided by their
        total, the last set to 1); else exponentials q and the largest probs / q (argmax, topk)."""
        rows = probs.shape[0]
        if not replacement or count == 1:
            q = self.exponential_(np.empty(probs.shape, dtype=probs.dtype))
            ratio = (probs / q).astype(probs.dtype)
            if count == 1:
                return np.argmax(np.where(np.isnan(ratio), np.inf, ratio), axis=1).reshape(rows, 1).astype(INT64)
            order = np.argsort(-ratio, axis=1, kind="stable")
            return order[:, :count].astype(INT64)
        kind = probs.dtype.type
        out = np.empty((rows, count), dtype=INT64)
        for row in range(rows):
            cumulative = np.cumsum(probs[row], dtype=probs.dtype)  # (a running sum in the dtype, as the kernel's)
            cumulative = (cumulative / kind(cumulative[-1])).astype(probs.dtype)
            cumulative[-1] = 1
            draws = self.unit(count, FLOAT64)
            out[row] = np.searchsorted(cumulative.astype(np.float64), draws, side="left")
        return out

    # --- torch's constructors ---

    def rand(self, shape: Sequence[int], dtype: np.dtype = FLOAT32) -> np.ndarray:
        return self.uniform_(np.empty(tuple(shape), dtype=dtype))

    def randn(self, shape: Sequence[int], dtype: np.dtype = FLOAT32) -> np.ndarray:
        return self.normal_(np.empty(tuple(shape), dtype=dtype))

    def randint(self, low: int, high: int, shape: Sequence[int], dtype: np.dtype = INT64) -> np.ndarray:
        return self.random_(np.empty(tuple(shape), dtype=dtype), low, high)

    def randperm(self, n: int, dtype: np.dtype = INT64) -> np.ndarray:
        order = list(range(n))
        if n > 1:
            draws = self.words(n - 1).tolist()
            for i, draw in enumerate(draws):
                j = i + draw % (n - i)
                order[i], order[j] = order[j], order[i]
        return np.asarray(order, dtype=np.int64).astype(dtype)


def _floating(dtype: np.dtype) -> np.dtype:
    if dtype not in (FLOAT32, FLOAT64):
        raise TypeError(f"expected a floating dtype, got {dtype}")
    return np.dtype(dtype)


def _fma(a: np.ndarray, b: Any, c: Any, kind: np.dtype) -> np.ndarray:
    """a * b + c rounded once, as PyTorch's kernels (built with FMA contraction) compute it."""
    if kind == FLOAT32:
        return _fma32(a, b, c)
    return np.asarray(_FMA64(a, float(b), float(c)), dtype=np.float64)


def _fma64_one(a: float, b: float, c: float) -> float:
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    return float(Fraction(a) * Fraction(b) + Fraction(c))  # (Fraction's float() rounds once)


_FMA64 = np.frompyfunc(_fma64_one, 3, 1)


def _normal_16(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """PyTorch's scalar normal_fill_16 (float64) on rows of 16: the C library's log, cos and sin,
    which Python's math module calls too (NumPy's own float64 log differs in the last place)."""
    radius = np.sqrt(-2.0 * np.asarray(_LOG(1.0 - blocks[:, :8]), dtype=np.float64))
    theta = 2.0 * math.pi * blocks[:, 8:]
    cosine = radius * np.asarray(_COS(theta), dtype=np.float64)
    sine = radius * np.asarray(_SIN(theta), dtype=np.float64)
    if (mean, std) != (0.0, 1.0):
        cosine, sine = _fma(cosine, np.float64(std), np.float64(mean), FLOAT64), _fma(
            sine, np.float64(std), np.float64(mean), FLOAT64)
    return np.concatenate([cosine, sine], axis=1)


_LOG, _COS, _SIN = (np.frompyfunc(f, 1, 1) for f in (math.log, math.cos, math.sin))


def _normal_16_avx2(blocks: np.ndarray, mean: float, std: float) -> np.ndarray:
    """PyTorch's AVX2 normal_fill_16 on rows of 16 float32: lanes 0-7 give the radii, 8-15 the angles."""
    one = np.float32(1.0)
    u1 = (one - blocks[:, :8]).astype(FLOAT32)
    u2 = blocks[:, 8:]
    radius = np.sqrt((np.float32(-2.0) * _log_cephes(u1)).astype(FLOAT32)).astype(FLOAT32)
    theta = (_TWO_PI_32 * u2).astype(FLOAT32)
    sine, cosine = _sincos_cephes(theta)
    n1 = (radius * cosine).astype(FLOAT32)
    n2 = (radius * sine).astype(FLOAT32)
    std32, mean32 = np.float32(std), np.float32(mean)
    return np.concatenate([_fma(n1, std32, mean32, FLOAT32), _fma(n2, std32, mean32, FLOAT32)], axis=1)


_LOG_POLY = [7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
             -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1]


def _log_cephes(x: np.ndarray) -> np.ndarray:
    """Cephes' logf as the AVX2 kernel evaluates it, every step rounded to float32 (x in (0, 1])."""
    f32 = np.float32
    x = np.maximum(x, np.array(0x00800000, dtype=np.uint32).view(FLOAT32)).astype(FLOAT32)
    bits = x.view(np.uint32)
    exponent = ((bits >> np.uint32(23)).astype(np.int32) - np.int32(0x7F)).astype(FLOAT32) + f32(1.0)
    x = ((bits & np.uint32(~0x7F800000 & 0xFFFFFFFF)) | np.array(0.5, dtype=FLOAT32).view(np.uint32)).view(FLOAT32)
    small = x < f32(0.707106781186547524)
    x = (x - f32(1.0)).astype(FLOAT32)
    exponent = (exponent - np.where(small, f32(1.0), f32(0.0))).astype(FLOAT32)
    x = (x + np.where(small, x + f32(1.0), f32(0.0)).astype(FLOAT32)).astype(FLOAT32)
    z = (x * x).astype(FLOAT32)
    y = np.full_like(x, f32(_LOG_POLY[0]))
    for coefficient in _LOG_POLY[1:]:
        y = _fma32(y, x, f32(coefficient))
    y = (y * x).astype(FLOAT32)
    y = _fma32(y, z, (exponent * f32(-2.12194440e-4)).astype(FLOAT32))
    y = (y - (z * f32(0.5)).astype(FLOAT32)).astype(FLOAT32)
    x = (x + y).astype(FLOAT32)
    return _fma32(exponent, f32(0.693359375), x)


def _sincos_cephes(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cephes' sinf and cosf together, as the AVX2 kernel evaluates them (x >= 0 here)."""
    f32 = np.float32
    sign_sin = np.signbit(x)
    x = np.abs(x).astype(FLOAT32)
    j = (x * f32(1.27323954473516)).astype(FLOAT32).astype(np.int32)  # truncation, as cvttps
    j = (j + 1) & ~np.int32(1)
    y = j.astype(FLOAT32)
    swap_sin = (j & 4) != 0
    poly_sin = (j & 2) == 0  # there the sine is the sine polynomial
    x = _fma32(y, f32(-0.78515625), x)
    x = _fma32(y, f32(-2.4187564849853515625e-4), x)
    x = _fma32(y, f32(-3.77489497744594108e-8), x)
    sign_cos = ((~(j - 2)) & 4) != 0
    sign_sin = sign_sin ^ swap_sin
    z = (x * x).astype(FLOAT32)
    c = _fma32(f32(2.443315711809948e-5), z, f32(-1.388731625493765e-3))
    c = _fma32(c, z, f32(4.166664568298827e-2))
    c = (c * z).astype(FLOAT32)
    c = _fma32(c, z, -(z * f32(0.5)).astype(FLOAT32))
    c = (c + f32(1.0)).astype(FLOAT32)
    s = _fma32(f32(-1.9515295891e-4), z, f32(8.3321608736e-3))
    s = _fma32(s, z, f32(-1.6666654611e-1))
    s = (s * z).astype(FLOAT32)
    s = _fma32(s, x, x)
    sine = np.where(poly_sin, s, c).astype(FLOAT32)
    cosine = np.where(poly_sin, c, s).astype(FLOAT32)
    sine = np.where(sign_sin, -sine, sine).astype(FLOAT32)
    cosine = np.where(sign_cos, -cosine, cosine).astype(FLOAT32)
    return sine, cosine
