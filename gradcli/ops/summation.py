"""PyTorch's float32 and float64 sum, in its order: its CPU kernel (SumKernel.cpp's cascade_sum) adds a
contiguous row in vectors of 8 float32 or 4 float64 lanes (the AVX2 build x86 machines run), four vectors side by side,
each in a cascade of four levels of 2**p additions; a reduction over the leading axes adds whole
columns so. Float addition is not associative: NumPy's pairwise order gives other last bits,
and a tutorial that prints `loss.item()` every 100 steps shows them (float64's too: `.item()` prints 17 digits).

Checked against PyTorch 2.13 over sizes 1 to 32,000 and sums over leading, trailing and all axes
(tests/test_run_numbers.py). A sum over axes between kept ones adds each block of the leading kept
axes as a sum over leading axes. Past 32,767 elements PyTorch splits the sum among its threads, and
a sum over axes that interleave with kept ones goes otherwise: there, NumPy's sum.
"""
from __future__ import annotations

import math

import numpy as np

LANES = 8  # float32s in one of PyTorch's vectors (AVX2); float64s: 4 (_lanes)
_LEVELS = 4
_ILP = 4
FLOAT32, FLOAT64 = np.dtype(np.float32), np.dtype(np.float64)
_GRAIN = 32768  # from here on PyTorch's reduction runs in parallel chunks


def _lanes(x: np.ndarray) -> int:
    return LANES * 4 // x.dtype.itemsize


def _ceil_log2(n: int) -> int:
    return max(0, (n - 1).bit_length())


def _multi_row_sum(x: np.ndarray) -> np.ndarray:
    """Sums along axis 1 of x (R, size, ...) as multi_row_sum adds them: runs of 2**p loads into
    a first accumulator, carried up four levels."""
    size = x.shape[1]
    power = max(4, _ceil_log2(size) // _LEVELS)
    step = 1 << power
    zero = np.zeros((x.shape[0], *x.shape[2:]), dtype=x.dtype)
    acc = [zero.copy() for _ in range(_LEVELS)]
    blocks = size // step
    if blocks:
        runs = np.add.accumulate(x[:, :blocks * step].reshape(x.shape[0], blocks, step, *x.shape[2:]), axis=2)[:, :, -1]
        i = 0
        for b in range(blocks):
            acc[0] = zero + runs[:, b]
            i += step
            for j in range(1, _LEVELS):
                acc[j] = acc[j] + acc[j - 1]
                acc[j - 1] = zero.copy()
                if i & ((step - 1) << (j * power)):
                    break
    tail = x[:, blocks * step:]
    if tail.shape[1]:
        acc[0] = zero + np.add.accumulate(tail, axis=1)[:, -1]
    for j in range(1, _LEVELS):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def _row_sum(x: np.ndarray) -> np.ndarray:
    """row_sum: x (R, n, ...) read as (n/4, 4) rows summed four at a time, the rest into the first."""
    rows, n = x.shape[:2]
    size_ilp = n // _ILP
    parts = _multi_row_sum(x[:, :size_ilp * _ILP].reshape(rows, size_ilp, _ILP, *x.shape[2:]))
    first = parts[:, 0]
    for i in range(size_ilp * _ILP, n):
        first = first + x[:, i]
    for k in range(1, _ILP):
        first = first + parts[:, k]
    return first


def _short_row_sum(x: np.ndarray) -> np.ndarray:
    """inner_sum of one row of LANES to 16 * 4 * LANES - 1 elements, where the cascade has one level: the same
    additions in the same order, as three folds (accumulate adds in order). Its zeros added to an accumulator are
    left out: x + 0 is x except for -0, and the last fold starts at +0, where a -0 stops mattering."""
    n, lanes = x.shape[1], _lanes(x)
    count = n // lanes
    vectors = x[0, :count * lanes].reshape(count, lanes)
    blocks = count // _ILP
    parts = np.add.accumulate(vectors[:blocks * _ILP].reshape(blocks, _ILP, lanes), axis=0)[-1] if blocks \
        else np.zeros((_ILP, lanes), x.dtype)
    # row_sum: the first of the four, the vectors left over, then the other three
    first = np.add.accumulate(np.concatenate((parts[:1], vectors[blocks * _ILP:], parts[1:])), axis=0)[-1]
    # then one total: the elements left over, then the lanes
    return np.add.accumulate(np.concatenate((np.zeros(1, x.dtype), x[0, count * lanes:], first)))[-1:]


def inner_sum(x: np.ndarray) -> np.ndarray:
    """Each row of x (R, n), summed along a contiguous reduced axis."""
    rows, n = x.shape
    lanes = _lanes(x)
    if n < lanes:
        return _row_sum(x)
    if rows == 1 and n < (1 << 4) * _ILP * lanes:
        return _short_row_sum(x)
    count = n // lanes
    vectors = _row_sum(x[:, :count * lanes].reshape(rows, count, lanes))
    total = np.zeros(rows, dtype=x.dtype)
    for k in range(count * lanes, n):
        total = total + x[:, k]
    for k in range(lanes):
        total = total + vectors[:, k]
    return total


def outer_sum(x: np.ndarray) -> np.ndarray:
    """x (n, M) summed over axis 0, M contiguous: columns in blocks of 4 vectors, then of one, then one by one."""
    n, m = x.shape
    lanes = _lanes(x)
    out = np.zeros(m, dtype=x.dtype)
    if m >= lanes:
        j = 0
        wide = (m // (4 * lanes)) * 4 * lanes
        if wide:
            out[:wide] = _multi_row_sum(x[:, :wide].reshape(n, wide // (4 * lanes), 4, lanes).transpose(1, 0, 2, 3)
                                        ).reshape(-1)
            j = wide
        narrow = j + ((m - j) // lanes) * lanes
        if narrow > j:
            out[j:narrow] = _row_sum(x[:, j:narrow].reshape(n, (narrow - j) // lanes, lanes).transpose(1, 0, 2)
                                     ).reshape(-1)
            j = narrow
        if j < m:
            out[j:] = _row_sum(x[:, j:].T)
        return out
    # scalar_outer_sum: four columns at a time, then one by one
    j = (m // 4) * 4
    if j:
        out[:j] = _multi_row_sum(x[:, :j].reshape(n, j // 4, 4).transpose(1, 0, 2)).reshape(-1)
    if j < m:
        out[j:] = _row_sum(x[:, j:].T)
    return out


def torch_sum(x: np.ndarray, axes: tuple[int, ...] | None = None, keepdims: bool = False) -> np.ndarray:
    """np.sum(x, axes) for float32 and float64 as PyTorch's CPU kernel orders it, where its order is known
    (all axes, trailing axes, leading axes of a contiguous tensor under 32768 elements); else np.sum."""
    if axes is not None and not isinstance(axes, tuple):
        axes = (axes,)
    if type(x) is not np.ndarray or x.dtype not in (FLOAT32, FLOAT64) or x.size == 0 or x.size >= _GRAIN:
        return np.sum(x, axis=axes, keepdims=keepdims)  # (an array of duals or SymPy terms: its own sum)
    ndim = x.ndim
    axes = tuple(range(ndim)) if axes is None else tuple(sorted(a % ndim for a in axes)) if ndim else ()
    shape = x.shape
    keep_shape = tuple(1 if a in axes else s for a, s in enumerate(shape))
    out_shape = keep_shape if keepdims else tuple(s for a, s in enumerate(shape) if a not in axes)
    # size-1 dims do not count (TensorIterator drops them)
    real = tuple(a for a in axes if shape[a] != 1)
    kept = tuple(a for a in range(ndim) if a not in axes and shape[a] != 1)
    if not real:
        return np.asarray(x.reshape(out_shape) + x.dtype.type(0))
    reduced = math.prod([shape[a] for a in real])
    rest = math.prod([shape[a] for a in kept])
    if not kept or max(kept) < min(real):  # the reduced axes are innermost
        flat = np.ascontiguousarray(x).reshape(rest, reduced)
        result = inner_sum(flat)
    elif max(real) < min(kept):  # the reduced axes are outermost
        flat = np.ascontiguousarray(x).reshape(reduced, rest)
        if rest == 1:
            result = inner_sum(flat.T)
        else:
            result = outer_sum(flat)
    elif all(a < min(real) or a > max(real) for a in kept):  # the reduced axes between kept ones: each block so
        before = math.prod([shape[a] for a in kept if a < min(real)])
        after = rest // before
        blocks = np.ascontiguousarray(x).reshape(before, reduced, after)
        result = np.stack([outer_sum(block) for block in blocks])
    else:
        return np.asarray(np.sum(x, axis=axes, keepdims=keepdims))
    return np.asarray((result + x.dtype.type(0)).astype(x.dtype).reshape(out_shape))
