"""PyTorch's float64 CPU kernels where their order of operations is not NumPy's: softmax and log_softmax, forward and
backward, over the last dim and over another (SoftMaxKernel.cpp), layer_norm's moments and backward, var and std, and
the 2-norm over the last dims (below). Where the compiled helper is built (inputs/_numbers.c) its C loops take these steps; NumPy takes the same
ones where it is not, to the same bits.

Over the last dim each row is reduced in vectors (vec::reduce_all): a vector of lanes accumulated along the row, the
elements left over added into its first lanes, then its lanes added left to right (double has no shuffle-tree
specialisation); a row shorter than a vector is added left to right. A vector holds 8 doubles where PyTorch runs its
AVX-512 kernels, 4 under AVX2. Softmax multiplies by 1 / the sum; log_softmax subtracts the max, then the log of the
sum. Over another dim the sums run down the dim one row at a time and softmax divides by its sum. The backward
kernels fuse `sum += g * y` (over another dim) and `g - exp(y) * sum`; gradcli rounds them apart, as the rows a
create_graph gradient is recorded with do (the two must agree bit for bit).

What stays NumPy's: exp and log (PyTorch's vectors call SLEEF's, its leftover elements C's; NumPy's own differ from
either in the last bit on a few percent of arguments). Checked against PyTorch 2.13 in tests/test_float64_kernels.py.
"""

from __future__ import annotations

import numpy as np

from gradcli.ops import float32
from gradcli.ops.float32 import _lanes, fma64

Array = np.ndarray
F64 = np.dtype(np.float64)
# the libm: NumPy's (tests/test_float64_kernels.py puts the exponentials PyTorch's kernels took here)
exp, log = np.exp, np.log


def lane_sum(x: Array, lanes: int, factors: tuple[Array, Array] | None = None) -> Array:
    """vec::reduce_all's sum over the last axis in vectors of `lanes` doubles. With the factors of x (x = a * b, all
    of one shape), the elements left over are fused into their lanes, fma(a, b, lane), as map2_reduce_all's compiled
    tail fuses them (its vectors' steps are not)."""
    n = x.shape[-1]
    if n == 0:
        return np.zeros(x.shape[:-1], dtype=x.dtype)
    if float32.compiled is not None and x.dtype == F64:
        out = np.empty(x.shape[:-1])
        contiguous = [np.ascontiguousarray(v, dtype=F64) for v in (x, *(factors or ()))]
        float32.compiled.lane_sums(contiguous[0], n, lanes, out, *contiguous[1:])
        return out
    if n < lanes:
        total = x[..., 0]
        for i in range(1, n):
            total = total + x[..., i]
        return np.asarray(total)
    whole = n - n % lanes
    acc = np.add.accumulate(x[..., :whole].reshape(*x.shape[:-1], whole // lanes, lanes), axis=-2)[..., -1, :]
    if whole < n:
        acc = acc.copy()
        if factors is None:
            acc[..., :n - whole] += x[..., whole:]
        else:
            acc[..., :n - whole] = fma64(factors[0][..., whole:], factors[1][..., whole:], acc[..., :n - whole])
    total = acc[..., 0]
    for lane in range(1, lanes):
        total = total + acc[..., lane]
    return np.asarray(total)


def vector_sum(x: Array) -> Array:
    """vec::reduce_all's sum of float64 over the last axis, in the vectors PyTorch's softmax kernels take."""
    return lane_sum(x, _lanes() // 2)


def _down(x: Array, axis: int) -> Array:
    """The sum along `axis` one slice at a time, in order (keeping the axis)."""
    if x.shape[axis] == 0:
        return np.zeros((*x.shape[:axis % x.ndim], 1, *x.shape[axis % x.ndim + 1:]), dtype=x.dtype)
    return np.take(np.add.accumulate(x, axis=axis), [-1], axis=axis)


def softmax(x: Array, axis: int) -> Array:
    with np.errstate(all="ignore"):
        shifted = exp(x - np.max(x, axis=axis, keepdims=True))
        if axis in (-1, x.ndim - 1):
            return shifted * (1.0 / vector_sum(shifted))[..., None]
        return shifted / _down(shifted, axis)


def log_softmax(x: Array, axis: int) -> Array:
    with np.errstate(all="ignore"):
        shifted = x - np.max(x, axis=axis, keepdims=True)
        if axis in (-1, x.ndim - 1):
            return shifted - log(vector_sum(exp(shifted)))[..., None]
        return shifted - log(_down(exp(shifted), axis))


def softmax_backward(g: Array, y: Array, axis: int) -> Array:
    """SoftmaxBackward0: (g - sum(g y)) y, the sum in PyTorch's order. (Over another dim PyTorch's kernel fuses each
    step of the sum, g * y + sum; here they round apart, as the rows that create_graph records them with do: a
    recorded gradient has the plain one's bits.)"""
    with np.errstate(all="ignore"):
        if axis in (-1, y.ndim - 1):
            return (g - vector_sum(g * y)[..., None]) * y
        return y * (g - (_down(g * y, axis) + 0.0))


def log_softmax_backward(g: Array, y: Array, axis: int) -> Array:
    """LogSoftmaxBackward0: g - exp(y) sum(g), the sum in PyTorch's order. (PyTorch's kernel fuses the product and the
    difference; here they round apart, as the rows that create_graph records them with do: a recorded gradient has
    the plain one's bits.)"""
    with np.errstate(all="ignore"):
        # (over another dim the sum starts from +0, which turns a sum of -0s into +0)
        total = vector_sum(g)[..., None] if axis in (-1, y.ndim - 1) else _down(g, axis) + 0.0
        return g - exp(y) * total


# layer_norm (layer_norm_kernel.cpp, moments_utils.h): its kernel runs in vectors of 4 doubles on AVX2 and AVX-512
# CPUs alike. The moments of a row: Welford's steps in each lane over chunks of 16 vectors (fused multiply-adds,
# 1 / (j + 1) a table), the chunks merged as a binary counter merges (AddMomentsVec: m1 + c * delta rounded twice,
# m2 + m2_add then one fused multiply-add), the elements left over one at a time (no fusing), then the four lanes
# merged into those (AddMoments, fused). The output is (x - mean) * rstd, then one fused multiply-add with the weight
# and bias; the backward's sums go in the same lanes.
_NORM_LANES, _CHUNK = 4, 16
Moments = tuple[int, Array, Array]


def _merge_vectors(added: Moments, into: Moments) -> Moments:
    """AddMomentsVec."""
    m0_add, m1_add, m2_add = added
    m0, m1, m2 = into
    n = m0 + m0_add
    c = 0.0 if n == 0 else m0_add / n
    delta = m1_add - m1
    part = c * delta
    return n, m1 + part, fma64(delta * float(m0), part, m2 + m2_add)


def _welford(values: Array) -> tuple[Array, Array]:
    """Welford's steps down axis -2 of values (..., steps, lanes), each lane on its own."""
    m1 = np.zeros(values.shape[:-2] + values.shape[-1:])
    m2 = np.zeros_like(m1)
    for j in range(values.shape[-2]):
        value = values[..., j, :]
        delta = value - m1
        m1 = fma64(1.0 / (j + 1), delta, m1)
        m2 = fma64(delta, value - m1, m2)
    return m1, m2


def row_moments(rows: Array) -> tuple[Array, Array]:
    """RowwiseMoments: the mean and biased variance of each row (..., N) of float64."""
    lead, size = rows.shape[:-1], rows.shape[-1]
    if float32.compiled is not None and rows.dtype == F64 and size:
        mean, variance = np.empty(lead), np.empty(lead)
        float32.compiled.moments(np.ascontiguousarray(rows), size, mean, variance)
        return mean, variance
    vectors = size // _NORM_LANES
    chunks = -(-vectors // _CHUNK)
    with np.errstate(all="ignore"):
        lanes = rows[..., :vectors * _NORM_LANES].reshape(*lead, vectors, _NORM_LANES)
        whole = vectors // _CHUNK
        parts: list[Moments] = []
        if whole:
            m1, m2 = _welford(lanes[..., :whole * _CHUNK, :].reshape(*lead, whole, _CHUNK, _NORM_LANES))
            parts += [(_CHUNK, m1[..., i, :], m2[..., i, :]) for i in range(whole)]
        if whole < chunks:
            m1, m2 = _welford(lanes[..., whole * _CHUNK:, :])
            parts.append((vectors - whole * _CHUNK, m1, m2))
        depth = max(0, (chunks - 1).bit_length())
        zero: Moments = (0, np.zeros((*lead, _NORM_LANES)), np.zeros((*lead, _NORM_LANES)))
        stack = [zero] * max(depth, 1)
        for i, part in enumerate(parts):
            stack[0] = _merge_vectors(part, stack[0])
            mask, j = i + 1, 1
            while j < depth and mask & 1 == 0:
                stack[j] = _merge_vectors(stack[j - 1], stack[j])
                stack[j - 1] = zero
                mask >>= 1
                j += 1
        for j in range(1, depth):
            stack[0] = _merge_vectors(stack[j], stack[0])
        count, mean, m2 = 0, np.zeros(lead), np.zeros(lead)
        for i in range(vectors * _NORM_LANES, size):
            value = rows[..., i]
            delta = value - mean
            count += 1
            mean = mean + delta / count
            m2 = m2 + delta * (value - mean)
        for lane in range(_NORM_LANES):  # AddMoments of each lane
            n = count + vectors
            c = 0.0 if n == 0 else vectors / n
            delta = stack[0][1][..., lane] - mean
            mean = fma64(c, delta, mean)
            m2 = m2 + fma64(delta * delta * c, float(count), stack[0][2][..., lane])
            count = n
        return mean, m2 / size


def layer_norm_backward(g: Array, x: Array, w: Array | None, mean: Array, rstd: Array, count: int) -> Array:
    """LayerNormBackward0's input gradient over the last axis (x, g (..., N); w broadcast, None where there is no
    weight; mean, rstd kept): the sums of g*x*w (or g*x) and g*w (or g) in lanes, each product's elements left over
    fused into their lanes, then rstd*g*w + b*x + c, b*x fused into it."""
    scale = 1.0 / count
    shape = np.broadcast_shapes(g.shape, x.shape)
    with np.errstate(all="ignore"):
        g, x = np.broadcast_to(g, shape), np.broadcast_to(x, shape)
        if w is None:
            ds = lane_sum(g * x, _NORM_LANES, (g, x))[..., None]
            db = lane_sum(g, _NORM_LANES)[..., None]
            scaled = rstd * g
        else:
            gx, gw, w_ = g * x, g * w, np.broadcast_to(w, shape)
            ds = lane_sum(gx * w, _NORM_LANES, (gx, w_))[..., None]
            db = lane_sum(gw, _NORM_LANES, (g, w_))[..., None]
            scaled = rstd * g * w
        b = fma64(db, mean, -ds) * rstd * rstd * rstd * scale
        c = fma64(-b, mean, -(db * rstd * scale))
        return fma64(b, x, scaled) + c


# var and std (ReduceOps.cpp): where the result is one number, two passes: the mean (PyTorch's, its sum's order),
# then the squares of x - mean added one after another in memory order (a running sum in each of the threads' chunks
# past at::internal::GRAIN_SIZE elements, the chunks' sums then added in turn); along dims, each result's elements by
# Welford's steps, one after another (WelfordOps: mean + delta / n, m2 + delta * (x - mean), not fused). Then
# m2 / max(0, n - correction).


def squared_deviations(rows: Array, mean: Array) -> Array:
    """std_var_all_cpu's sum of (x - mean)**2 over each row (..., N), in order (rows in memory order)."""
    from gradcli.ops.float32 import _GRAIN, _threads

    with np.errstate(all="ignore"):
        squares = np.square(rows - mean[..., None])
        n = squares.shape[-1]
        chunks = 1 if n <= _GRAIN else min(_threads(), -(-n // _GRAIN))
        size = -(-n // chunks)
        total = np.zeros(rows.shape[:-1])
        for begin in range(0, n, size):
            total = total + np.add.accumulate(squares[..., begin:begin + size], axis=-1)[..., -1]
        return total


def welford(rows: Array) -> tuple[Array, Array]:
    """WelfordOps' running mean and m2 of each row (..., N) of float64, its elements taken one after another."""
    n = rows.shape[-1]
    mean, m2 = np.zeros(rows.shape[:-1]), np.zeros(rows.shape[:-1])
    if n and float32.compiled is not None:
        float32.compiled.welford(np.ascontiguousarray(rows, dtype=F64), n, m2, mean)
        return mean, m2
    with np.errstate(all="ignore"):
        for i in range(n):
            value = rows[..., i]
            delta = value - mean
            mean = mean + delta / float(i + 1)
            m2 = m2 + delta * (value - mean)
    return mean, m2


def norm_two_rows(rows: Array) -> Array:
    """torch.linalg.vector_norm (p=2) of each row of float64 (rows, n), its kernel over a contiguous last dim: the
    squares added into 4 lanes from 0 (a vector of doubles; the kernel has no AVX-512 build), the lanes added left to
    right, then each element left over fused in, fma(x, x, sum); then its square root."""
    count, n = rows.shape
    whole = n - n % _NORM_LANES
    with np.errstate(all="ignore"):
        total = np.zeros(count)
        if whole:
            squares = rows[:, :whole] * rows[:, :whole]
            lanes = np.add.accumulate(squares.reshape(count, -1, _NORM_LANES), axis=1)[:, -1]
            for lane in range(_NORM_LANES):
                total = total + lanes[:, lane]
        for i in range(whole, n):
            total = fma64(rows[:, i], rows[:, i], total)
        return np.sqrt(total)
