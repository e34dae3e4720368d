"""arange and linspace with PyTorch's bits (CPU, float64).

PyTorch computes start + step * i, which its x86 builds compile to a fused multiply-add (one
rounding); arange goes in vectors of 4, each from its first element (base + lane * step, fused
again), the last elements short of a pair of vectors one by one. (Past 32,768 elements PyTorch
splits the range among threads, and its bits then depend on their number; gradcli computes it
as one piece.) A range is made in blocks, so that the emulation's temporaries stay small; its
elements are counted (by the caller) before it is made.
"""

from __future__ import annotations

import numpy as np

Array = np.ndarray

# _fma is a * b + c rounded once, on arrays: Boldo and Melquiond's emulation with rounding to
# odd ("Emulation of FMA and correctly rounded sums", IEEE TC 2008), exact without overflow.


def _two_sum(a: Array, b: Array) -> tuple[Array, Array]:
    total = a + b
    b_part = total - a
    return total, (a - (total - b_part)) + (b - b_part)


def _two_product(a: Array, b: Array) -> tuple[Array, Array]:
    product = a * b
    a_high = a * 134217729.0 - (a * 134217729.0 - a)  # Veltkamp's split at 2**27 + 1
    b_high = b * 134217729.0 - (b * 134217729.0 - b)
    a_low, b_low = a - a_high, b - b_high
    return product, ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low


def _fma(a: Array | float, b: Array | float, c: Array | float) -> Array:
    with np.errstate(all="ignore"):
        high, low = _two_product(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
        total, rest = _two_sum(np.asarray(c, dtype=float), high)
        near, error = _two_sum(rest, low)
        even = (near.view(np.int64) & 1) == 0
        odd = np.where((error != 0) & even & np.isfinite(near), np.nextafter(near, np.copysign(np.inf, error)), near)
        return total + odd


_BLOCK = 16_384  # elements of a range made at once: _fma's temporaries stay a few hundred kB


def arange(start: float, step: float, count: int) -> Array:
    """`count` elements start + step * i, as torch.arange makes them."""
    values = np.empty(count)
    paired = count // 8 * 8  # whole pairs of vectors; the rest one by one
    for first in range(0, count, _BLOCK):
        index = np.arange(first, min(first + _BLOCK, count), dtype=float)
        lane = index % 4
        values[first : first + len(index)] = _fma(lane, step, _fma(step, index - lane, start))
    values[paired:] = _fma(step, np.arange(paired, count, dtype=float), start)
    return values


def linspace(start: float, stop: float, count: int) -> Array:
    """`count` elements from start to stop, as torch.linspace makes them."""
    if count <= 1:
        return np.full(count, start)
    step = (stop - start) / (count - 1)
    half = count // 2  # the first half from the start, the second from the stop
    values = np.empty(count)
    for first in range(0, count, _BLOCK):
        index = np.arange(first, min(first + _BLOCK, count), dtype=float)
        values[first : first + len(index)] = np.where(index < half, _fma(step, index, start),
                                                      _fma(-step, count - 1 - index, stop))
    values[0], values[-1] = start, stop
    return values



def arange32(start: float, step: float, count: int) -> Array:
    """torch.arange in float32: the vectors of 8 floats each start at (float) start + step * i,
    fused, in double; each lane adds lane * step to that float in double, fused, and rounds
    to float; the elements short of a pair of vectors come one by one, in double."""
    values = np.empty(count, dtype=np.float32)
    paired = count // 16 * 16
    for first in range(0, count, _BLOCK):
        index = np.arange(first, min(first + _BLOCK, count), dtype=float)
        lane = index % 8
        base = _fma(step, index - lane, start).astype(np.float32).astype(float)
        values[first : first + len(index)] = _fma(lane, step, base)
    values[paired:] = _fma(step, np.arange(paired, count, dtype=float), start)
    return values


def linspace32(start: float, stop: float, count: int) -> Array:
    """torch.linspace in float32: as in double (halves from each end), with a float step and
    float start and stop."""
    start32, stop32 = np.float32(start), np.float32(stop)
    if count <= 1:
        return np.full(count, start32, dtype=np.float32)
    step = (stop32 - start32) / np.float32(count - 1)
    index = np.arange(count, dtype=float)
    half = count // 2
    return np.where(index < half, _fma(float(step), index, float(start32)),
                    _fma(-float(step), count - 1 - index, float(stop32))).astype(np.float32)
