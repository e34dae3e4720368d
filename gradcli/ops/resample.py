"""The rows of resampling: F.interpolate in every mode (nearest, nearest-exact, linear, bilinear,
bicubic, trilinear, area), F.upsample_nearest and F.upsample_bilinear, and the adaptive poolings
adaptive_avg_pool1d/2d/3d and adaptive_max_pool1d/2d/3d, in PyTorch's layout.

The interpolations are separable: along each spatial axis an output element is a few input
elements ("taps", their indices clamped into the input) times weights, computed as PyTorch's CPU
kernels compute them. The forward applies the axes from the last to the first, as PyTorch's kernel
nests them (the weights of the last axis innermost); the VJP adds each output's cotangent into its
taps (np.add.at, as the indexing rows do: the Hessian's dual numbers go through), the first axis
first. Every tap is read, a zero weight included (0 * inf is NaN there too), and nothing else:
no dense matrix whose zeros would spread a NaN.

An adaptive pooling's window along an axis of `size` for output `o` of `out` is
[floor(o * size / out), ceil((o + 1) * size / out)); its windows are walked one place at a time
(the largest window's places), in PyTorch's row-major order.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, NamedTuple

import numpy as np

from gradcli.errors import Limits, over_limit
from gradcli.ops import float32
from gradcli.ops.conv import _check_windows, _point_shapes, indices_row
from gradcli.ops.core import (
    Array,
    NotImplementedRefusal,
    Op,
    Param,
    PythonValueError,
    Shape,
    Unsupported,
    ValueRefusal,
    composite,
    kernel_refusal,
    point_axes,
    structural,
)

_MODES = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area")
_LINEAR_RANK = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}  # the spatial axes each mode needs
_CUBIC_A = -0.75


def _check_size(count: int, name: str) -> None:
    if count > Limits.get("elements"):
        raise over_limit(f"{name} would make {count:,} elements", "elements")


# --- interpolate -----------------------------------------------------------------------------------


class _NotImplemented(ValueRefusal):
    """F.interpolate's NotImplementedError: no kernel for this rank and mode."""

    kind = "NotImplementedError"


def _output_size(x: Shape, name: str, size: Any, scale_factor: Any, mode: str, align_corners: Any,
                 recompute_scale_factor: Any, antialias: bool) -> tuple[tuple[int, ...], tuple[float | None, ...]]:
    """The output's spatial sizes and the scales PyTorch's kernel is given (None: from the sizes),
    the call checked in F.interpolate's words (ValueError)."""
    d = len(x) - 2
    if mode not in _LINEAR_RANK and align_corners is not None:
        raise PythonValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                         "bicubic | trilinear")
    if size is not None and scale_factor is not None:
        raise PythonValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise PythonValueError("either size or scale_factor should be defined")
    if isinstance(size, tuple) and len(size) != d:
        raise PythonValueError(f"Input and output must have the same number of spatial dimensions, but got input with "
                         f"spatial dimensions of {list(x[2:])} and output size of {size!r}. Please provide "
                         f"input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
    if recompute_scale_factor and size is not None:
        raise PythonValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if antialias:
        raise Unsupported("antialias=True")
    if d not in (1, 2, 3):  # (F.interpolate's last word, after every mode's kernel was tried)
        raise _NotImplemented(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {len(x)}D) for the "
                              f"modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                              f"nearest-exact (got {mode})")
    if mode in _LINEAR_RANK and _LINEAR_RANK[mode] != d:
        raise _NotImplemented(f"Got {len(x)}D input, but {mode} mode needs {_LINEAR_RANK[mode] + 2}D input")
    if size is not None:
        sizes = (size,) * d if isinstance(size, int) else tuple(size)
        if None in sizes:
            raise PythonValueError(f"Input and output must have the same number of spatial dimensions, but got input with "
                             f"spatial dimensions of {list(x[2:])} and output size of {list(size) if isinstance(size, tuple) else size}. Please provide "
                             f"input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
        scales: tuple[float | None, ...] = (None,) * d
    else:
        if not math.isfinite(scale_factor):  # (Python's math.floor, in F.interpolate, raises OverflowError)
            raise ValueError(f"cannot convert float {'NaN' if math.isnan(scale_factor) else 'infinity'} to integer")
        sizes = tuple(math.floor(float(n) * scale_factor) for n in x[2:])
        scales = (None,) * d if recompute_scale_factor or mode == "area" else (float(scale_factor),) * d
    if mode == "area":  # (adaptive average pooling: its own check, 1-D as 2-D over the input unsqueezed)
        _check_nonempty(x if d > 1 else (*x[:-1], 1, x[-1]), f"adaptive_avg_pool{max(d, 2)}d")
    elif min(sizes) <= 0 or min(x[2:]) <= 0:  # (the upsample kernel's words: "and" between them in 1-D only)
        axes = "DHW"[-d:]
        given = ", ".join(f"{axis}: {n}" for axis, n in zip(axes, x[2:], strict=True))
        made = ", ".join(f"{axis}: {n}" for axis, n in zip(axes, sizes, strict=True))
        raise ValueError(f"Input and output sizes should be greater than 0, but got input ({given}){' and' * (d == 1)} "
                         f"output ({made})")
    return sizes, scales


def _interpolate_shape(x: Shape, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                       align_corners: Any = None, recompute_scale_factor: Any = None, antialias: bool = False) -> Shape:
    sizes, _ = _output_size(x, "interpolate", size, scale_factor, mode, align_corners, recompute_scale_factor,
                            antialias)
    if mode != "area" and not math.prod(x[1:]):  # (the upsample kernels' check, after the sizes': a batch may be empty)
        raise ValueError(f"Non-empty {len(x)}D data tensor expected but got a tensor with sizes {list(x)}")
    _check_size(math.prod(x[:2]) * math.prod(sizes) * 4 ** len(sizes), f"interpolate to {list(sizes)}")
    return (*x[:2], *sizes)


def _source_scale(size: int, out: int, align_corners: bool, scale: float | None) -> float:
    """area_pixel_compute_scale: how far apart the outputs' sources stand in the input."""
    if align_corners:
        return (size - 1) / (out - 1) if out > 1 else 0.0
    return 1.0 / scale if scale is not None and scale > 0 else size / out


def _source(scale: float, out: int, align_corners: bool, cubic: bool) -> Array:
    """area_pixel_compute_source_index, for every output at once (float64, as for a float64 tensor)."""
    dst = np.arange(out, dtype=np.float64)
    if align_corners:
        return scale * dst
    real = scale * (dst + 0.5) - 0.5
    return real if cubic else np.maximum(real, 0.0)


def _cubic_weights(t: Array) -> list[Array]:
    """The four weights of cubic convolution (A = -0.75) at a fraction t, as PyTorch writes them."""
    def near(s: Array) -> Array:
        return ((_CUBIC_A + 2) * s - (_CUBIC_A + 3)) * s * s + 1

    def far(s: Array) -> Array:
        return ((_CUBIC_A * s - 5 * _CUBIC_A) * s + 8 * _CUBIC_A) * s - 4 * _CUBIC_A

    return [far(t + 1.0), near(t), near(1.0 - t), far(1.0 - t + 1.0)]


def _taps(mode: str, size: int, out: int, align_corners: bool, scale: float | None,
          backward: bool = False) -> list[tuple[Array, Array | None]]:
    """Along one axis: each tap's input index per output and its weight (None: 1, nothing multiplied)."""
    dst = np.arange(out)
    if mode in ("nearest", "nearest-exact"):
        if backward and mode == "nearest" and out in (size, 2 * size):  # the backward kernel's exact cases
            return [(dst if out == size else dst >> 1, None)]
        given = scale is not None and scale > 0
        single = np.float32(1.0 / scale) if given else np.float32(size) / np.float32(out)  # type: ignore[operator]
        if mode == "nearest-exact":  # (dst + 0.5) * scale in double, floored as a float
            real: Array = ((dst + 0.5) * np.float64(single)).astype(np.float32)
        elif backward:  # nearest_idx: the float scale times the index, in float
            real = dst.astype(np.float32) * single
        else:  # the forward kernel: the scale in double, floored as a float
            real = (dst * (1.0 / scale if given else size / out)).astype(np.float32)  # type: ignore[operator]
        return [(np.minimum(np.floor(real).astype(np.int64), size - 1), None)]
    if mode == "area":
        raise AssertionError("area is an adaptive average pooling")
    cubic = mode == "bicubic"
    real = _source(_source_scale(size, out, align_corners, scale), out, align_corners, cubic)
    if cubic:
        index = np.floor(real).astype(np.int64)
        weights = _cubic_weights(real - index)
        return [(np.clip(index - 1 + k, 0, size - 1), weights[k]) for k in range(4)]
    index = np.minimum(np.floor(real).astype(np.int64), size - 1)
    fraction = np.clip(real - index, 0.0, 1.0)
    return [(index, 1.0 - fraction), (np.where(index < size - 1, index + 1, index), fraction)]


def _along(v: Any, axis: int, index: Array) -> Any:
    return v[(Ellipsis, index) + (slice(None),) * (-axis - 1)]


def _weighted(w: Array, axis: int) -> Array:
    return np.reshape(w, (-1,) + (1,) * (-axis - 1))


def _apply_taps(x: Any, axis: int, taps: list[tuple[Array, Array | None]]) -> Any:
    out: Any = None
    for index, weight in taps:
        part = _along(x, axis, index)
        if weight is not None:
            part = part * _weighted(weight, axis)
        out = part if out is None else out + part
    return out


def _scatter_taps(g: Any, axis: int, size: int, taps: list[tuple[Array, Array | None]]) -> Any:
    """The VJP of _apply_taps: each output's g, times its weight, added into its taps."""
    moved = np.moveaxis(g, axis, 0)
    cotangent = np.zeros_like(moved, shape=(size, *np.shape(moved)[1:]))
    for index, weight in taps:
        part = moved if weight is None else moved * np.reshape(weight, (-1,) + (1,) * (np.ndim(moved) - 1))
        np.add.at(cotangent, index, part)
    return np.moveaxis(cotangent, 0, axis)


def _plan(x: Any, ranks: tuple[int, ...], params: dict[str, Any], backward: bool = False
          ) -> tuple[Shape, list[list[tuple[Array, Array | None]]]]:
    point = np.shape(x)[np.ndim(x) - ranks[0]:]
    _interpolate_shape(point, **params)
    mode = params.get("mode", "nearest")
    sizes, scales = _output_size(point, "interpolate", params.get("size"), params.get("scale_factor"), mode,
                                 params.get("align_corners"), params.get("recompute_scale_factor"),
                                 params.get("antialias", False))
    return point[2:], [_taps(mode, n, o, bool(params.get("align_corners")), s, backward)
                       for n, o, s in zip(point[2:], sizes, scales, strict=True)]


def _linear_lambdas(size: int, out: int, align_corners: bool, scale: float | None, dtype: np.dtype
                    ) -> tuple[Array, Array, Array, Array]:
    """compute_source_index_and_lambda along one axis, in the kernel's opmath type (float for a float32 input):
    each output's two input indices and their weights. The source index is a fused multiply-add, its floor
    taken as a float (floorf), the weight clamped into [0, 1]."""
    dst = np.arange(out)
    if out == size:
        return dst, dst, np.ones(out, dtype=dtype), np.zeros(out, dtype=dtype)
    ratio = dtype.type(_source_scale(size, out, align_corners, scale))
    fma = float32.fma32 if dtype == np.float32 else float32.fma64
    if align_corners:
        real = np.asarray(ratio * dst.astype(dtype))
    else:
        real = np.maximum(fma(ratio, (dst + 0.5).astype(dtype), dtype.type(-0.5)), dtype.type(0.0)).astype(dtype)
    index = np.minimum(np.floor(real.astype(np.float32)).astype(np.int64), size - 1)
    lambda1 = np.clip(real - index.astype(dtype), dtype.type(0.0), dtype.type(1.0)).astype(dtype)
    return index, np.where(index < size - 1, index + 1, index), (dtype.type(1.0) - lambda1).astype(dtype), lambda1


def _bilinear_channels_last(x: Array, point: Shape, sizes: tuple[int, ...], scales: tuple[float | None, ...],
                            align_corners: bool) -> Array:
    """cpu_upsample_linear_channels_last in 2-D, PyTorch's bilinear kernel wherever the output is small: each output
    i00 w00 + i01 w01 + i10 w10 + i11 w11 (w01 = h0lambda * w1lambda ...) as its compiler fuses it. The channels of
    a pixel go by vectors of its AVX2 build (4 float64, 8 float32: the upsample kernels have no AVX-512 one), each
    fma(i00, w00, fma(i01, w01, fma(i11, w11, i10 * w10))); the channels left over one at a time,
    fma(i11, w11, fma(i10, w10, fma(i00, w00, i01 * w01))) (measured against PyTorch 2.13, every bit)."""
    dtype = x.dtype
    fma = float32.fma32 if dtype == np.float32 else float32.fma64
    h0, h1, h0l, h1l = _linear_lambdas(point[2], sizes[0], align_corners, scales[0], dtype)
    w0, w1, w0l, w1l = _linear_lambdas(point[3], sizes[1], align_corners, scales[1], dtype)
    rows, columns = (slice(None), None), (None, slice(None))
    i00, i01, i10, i11 = (x[..., h[rows], w[columns]] for h, w in ((h0, w0), (h0, w1), (h1, w0), (h1, w1)))
    w00, w01, w10, w11 = ((hl[rows] * wl[columns]).astype(dtype) for hl, wl in ((h0l, w0l), (h0l, w1l), (h1l, w0l),
                                                                                  (h1l, w1l)))
    with np.errstate(all="ignore"):
        first = fma(i00, w00, (i01 * w01).astype(dtype)).astype(dtype)
        one_at_a_time = np.asarray(fma(i11, w11, fma(i10, w10, first).astype(dtype))).astype(dtype)
        inner = fma(i11, w11, (i10 * w10).astype(dtype)).astype(dtype)
        vectors = np.asarray(fma(i00, w00, fma(i01, w01, inner).astype(dtype))).astype(dtype)
    lanes = 8 if dtype == np.float32 else 4
    channels = point[1]
    vectored = np.arange(channels) < channels - channels % lanes
    return np.where(vectored[:, None, None], vectors, one_at_a_time)


def _interpolate(x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    if params.get("mode") == "area":
        point = np.shape(x)[np.ndim(x) - ranks[0]:]
        return _adaptive_avg(len(point) - 2, x, ranks, _interpolate_shape(point, **params)[2:])
    if (params.get("mode") == "bilinear" and not params.get("antialias") and isinstance(x, np.ndarray)
            and x.dtype in (np.float32, np.float64)):
        # PyTorch's vectorized (channels-last) kernel where the output is small (its height plus width at most 128) or
        # the input is channels-last of more than 3 channels; else its generic kernel, separable, as below
        point = np.shape(x)[np.ndim(x) - ranks[0]:]
        sizes, scales = _output_size(point, "interpolate", params.get("size"), params.get("scale_factor"), "bilinear",
                                     params.get("align_corners"), params.get("recompute_scale_factor"), False)
        _interpolate_shape(point, **params)
        if sum(sizes) <= 128 or (point[1] > 3 and point[2] * point[3] == 1):
            return _bilinear_channels_last(x, point, sizes, scales, bool(params.get("align_corners")))
    _, taps = _plan(x, ranks, params)
    d = len(taps)
    for axis in range(-1, -d - 1, -1):  # the last axis innermost, as PyTorch's kernel nests them
        x = _apply_taps(x, axis, taps[d + axis])
    return np.asarray(x) if isinstance(x, np.ndarray) else x


def _interpolate_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Any]:
    if params.get("mode") == "area":
        point = np.shape(x)[np.ndim(x) - ranks[0]:]
        return (_adaptive_avg_vjp(len(point) - 2, g, x, _interpolate_shape(point, **params)[2:]),)
    sizes, taps = _plan(x, ranks, params, backward=True)
    d = len(taps)
    for axis in range(-d, 0):
        g = _scatter_taps(g, axis, sizes[d + axis], taps[d + axis])
    return (g,)


def _interpolate_node(constant: Any, shapes: Any, mode: str = "nearest", size: Any = None, **params: Any) -> str:
    d = len(shapes[0]) - 2 if shapes is not None else len(size) if isinstance(size, tuple) else 2
    if mode in ("nearest", "nearest-exact"):
        return f"UpsampleNearest{'Exact' if mode == 'nearest-exact' else ''}{d}DBackward0"
    if mode == "area":
        return "SqueezeBackward1" if d == 1 else f"AdaptiveAvgPool{d}DBackward0"
    return {"linear": "UpsampleLinear1DBackward0", "bilinear": "UpsampleBilinear2DBackward0",
            "bicubic": "UpsampleBicubic2DBackward0", "trilinear": "UpsampleTrilinear3DBackward0"}[mode]


_INTERPOLATE_PARAMS = (Param("size", "sizes"), Param("scale_factor", "float"),
                       Param("mode", "str", "nearest", choices=_MODES), Param("align_corners", "bool"),
                       Param("recompute_scale_factor", "bool"), Param("antialias", "bool", False))


def _upsample_row(name: str, mode: str, align_corners: bool | None, examples: Any, **fields: Any) -> Op:
    """F.upsample_nearest(x, size, scale_factor) and F.upsample_bilinear: interpolate in one mode."""
    fixed: dict[str, Any] = {"mode": mode, "align_corners": align_corners}

    def forward(x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
        return _interpolate(x, ranks, **params, **fixed)

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Any]:
        return _interpolate_vjp(g, ans, x, ranks, **params, **fixed)

    return structural(name, 1, forward, vjp, _interpolate_node(None, None, mode, (0,) * (1 if mode == "nearest" else 2)),
                      sympy=_on_symbols(forward), shape=lambda x, **given: _interpolate_shape(x, **given, **fixed),
                      torch_node_rule=lambda constant, shapes, **given: _interpolate_node(constant, shapes, **fixed),
                      params=(Param("size", "sizes"), Param("scale_factor", "float")), examples=examples, **fields)


# --- F.pad's reflect and replicate modes; torch.constant_pad_nd ------------------------------------


def _edge_sources(mode: str, size: int, before: int, after: int) -> Array:
    """Along one axis, the input element each output takes (PyTorch's reflection and replication
    kernels: a negative pad cuts)."""
    j = np.arange(size + before + after)
    if mode == "reflect":
        source = np.where(j < before, 2 * before - j, np.where(j < size + before, j, 2 * (size + before - 1) - j))
    else:
        source = np.clip(j, before, size + before - 1)
    return source - max(before, 0) + max(-before, 0)


def _edge_pads(x: Shape, pad: Any, mode: str) -> list[tuple[int, int, int]]:
    """(axis, before, after) of each padded axis, the call checked in PyTorch's words (ValueError)."""
    if pad is None or len(pad) % 2:
        raise ValueError("Padding length must be divisible by 2")
    if len(pad) > 2 * len(x):
        raise ValueError(f"Padding length should be less than or equal to two times the input dimension but got "
                         f"padding length {len(pad)} and input of dimension {len(x)}")
    k = len(pad) // 2
    if mode == "circular":
        raise Unsupported("mode='circular' (PyTorch records it as slices copied into a new tensor)")
    if k not in (1, 2, 3) or len(x) not in (k + 1, k + 2):
        raise NotImplementedRefusal(
            f"Padding size {len(pad)} is not supported for {len(x)}D input tensor.\nSupported combinations for "
            "non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: "
            "padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)",
            f"Padding size {len(pad)} is not supported for {len(x)}D input tensor. Non-constant padding takes 2 for a "
            "2D or 3D input, 4 for 3D or 4D, 6 for 4D or 5D")
    if 0 in (x[1:] if len(x) == k + 2 else x):  # (a batch of none is padded; nothing else may be empty)
        raise ValueRefusal(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {list(x)}")
    axes = []
    for i in range(k):
        axis, before, after = len(x) - 1 - i, pad[2 * i], pad[2 * i + 1]
        if mode == "reflect" and not (before < x[axis] and after < x[axis]):
            raise ValueError(f"Argument #4: Padding size should be less than the corresponding input dimension, but "
                             f"got: padding ({before}, {after}) at dimension {axis} of input {list(x)}")
        if x[axis] + before + after < 1:
            raise ValueError(f"input (W: {x[axis]}) is too small. Calculated output W: {x[axis] + before + after}")
        axes.append((axis - len(x), before, after))
    return axes


def _edge_shape(x: Shape, pad: Any = None, mode: str = "reflect", value: float | None = None) -> Shape:
    if value:
        raise ValueError(f'Padding mode "{mode}" doesn\'t take in value argument')
    out = list(x)
    for axis, before, after in _edge_pads(x, pad, mode):
        out[axis] += before + after
    _check_size(math.prod(out), f"pad to {out}")
    return tuple(out)


def _edge_taps(x: Any, ranks: tuple[int, ...], pad: Any, mode: str
               ) -> list[tuple[int, list[tuple[Array, Array | None]]]]:
    point = np.shape(x)[np.ndim(x) - ranks[0]:]
    return [(axis, [(_edge_sources(mode, point[axis], before, after), None)])
            for axis, before, after in _edge_pads(point, pad, mode)]


def _edge_pad(x: Array, ranks: tuple[int, ...], pad: Any = None, mode: str = "reflect", value: Any = None) -> Array:
    for axis, taps in _edge_taps(x, ranks, pad, mode):
        x = _apply_taps(x, axis, taps)
    return x


def _edge_pad_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], pad: Any = None, mode: str = "reflect",
                  value: Any = None) -> tuple[Any]:
    for axis, taps in reversed(_edge_taps(x, ranks, pad, mode)):
        g = _scatter_taps(g, axis, np.shape(x)[axis], taps)
    return (g,)


def _edge_node(constant: Any, shapes: Any, pad: Any = None, mode: str = "reflect", value: Any = None) -> str:
    k = len(pad) // 2 if pad else 1
    return f"{'Reflection' if mode == 'reflect' else 'Replication'}Pad{k}DBackward0"


def _edge_text(args: list[str], pad: Any = None, mode: str = "reflect", value: Any = None) -> str:
    return f"pad({args[0]}, {pad!r}, {mode!r})"


def _constant_pad_nd(emit: Any, x: Any, pad: Any = None, value: float = 0.0) -> Any:
    """torch.constant_pad_nd(x, pad, value): F.pad's constant mode (ConstantPadNdBackward0)."""
    return emit("pad", x, pad=pad, value=value)


# --- adaptive pooling ----------------------------------------------------------------------------


def _adaptive_sizes(d: int, x: Shape, output_size: Any, name: str, kernel: bool = True) -> tuple[int, ...]:
    """The output's spatial sizes, checked in PyTorch's order: F.*'s own (_list_with_default); the maximum's kernel
    checks its input, then the sizes; the average checks the sizes, takes the mean where every one is 1 (no more
    checks: `kernel` False), else its kernel checks the input."""
    if isinstance(output_size, tuple) and d > 1 and len(x) <= len(output_size):  # (torch/nn/functional.py)
        raise PythonValueError(f"Input dimension should be at least {len(output_size) + 1}")
    average = name.startswith("adaptive_avg")
    if not average:
        _adaptive_rank(d, x, name)
        _check_nonempty(x, name)
    if output_size is None:
        raise ValueError(f"{name}() missing required argument 'output_size'")
    sizes = (output_size,) * d if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != d:
        raise ValueError(f"{name}: output_size must be {d}" if average
                         else f"{name}(): internal error: output_size.size() must be {d}")
    if None in sizes:  # (F.*'s: the input's own size there)
        sizes = tuple(n if o is None else o for o, n in zip(sizes, x[-d:], strict=True))
    if min(sizes) < 0:
        raise ValueError(f"{name}: elements of output_size must be greater than or equal to 0 but received "
                         f"{{{', '.join(map(str, sizes))}}}")
    if average and kernel:  # (the 3-D kernel checks for empty dims before its rank)
        if d == 3:
            _check_nonempty(x, name)
        _adaptive_rank(d, x, name)
        _check_nonempty(x, name)
    return sizes


def _adaptive_rank(d: int, x: Shape, name: str) -> None:
    if len(x) in (d + 1, d + 2):
        return
    if d == 1:
        raise ValueError(f"Expected 2 to 3 dimensions, but got {len(x)}-dimensional tensor for argument #1 'self' "
                         f"(while checking arguments for {name})")
    colon = "" if name.startswith("adaptive_avg") else ":"  # (the average kernels' words have none)
    raise ValueError(f"{name}(): Expected {d + 1}D or {d + 2}D tensor, but got{colon} {list(x)}")


def _check_nonempty(x: Shape, name: str) -> None:
    """PyTorch's adaptive poolings refuse an empty dim but the first (adaptive_avg_pool2d's kernel: but the last two,
    so an unbatched input of no channels pools to none)."""
    checked = range(len(x) - 2, len(x)) if name == "adaptive_avg_pool2d" else range(1, len(x))
    empty = next((axis for axis in checked if x[axis] <= 0), None)
    if empty is not None:
        raise ValueError(f"{name}(): Expected input to have non-zero size for non-batch dimensions, but input has "
                         f"sizes {list(x)} with dimension {empty} being empty")


def _windows(size: int, out: int) -> tuple[Array, Array]:
    """Each output's window along an axis: its start and its length."""
    o = np.arange(out)
    start = (o * size) // out
    end = ((o + 1) * size + out - 1) // out
    return start, end - start


def _window_places(d: int, sizes: Shape, outs: Shape) -> Any:
    """The windows of every axis, and each place of the largest window: (offsets, its indices along each
    axis as an open grid, where the place lies inside its window)."""
    spans = [_windows(n, o) for n, o in zip(sizes, outs, strict=True)]
    largest = [int(length.max(initial=0)) for _, length in spans]
    for offsets in itertools.product(*(range(k) for k in largest)):
        index = [np.minimum(start + off, n - 1) for (start, _), off, n in zip(spans, offsets, sizes, strict=True)]
        inside = [off < length for (_, length), off in zip(spans, offsets, strict=True)]
        yield np.ix_(*index), _outer_and(inside), index


def _outer_and(masks: list[Array]) -> Array:
    d = len(masks)
    out = np.ones((1,) * d, dtype=bool)
    for a, mask in enumerate(masks):  # (np.ix_ would read a boolean array as the indices where it holds)
        out = out & np.reshape(mask, (-1,) + (1,) * (d - 1 - a))
    return out


def _lengths(sizes: Shape, outs: Shape) -> list[Array]:
    d = len(sizes)
    return [np.reshape(_windows(n, o)[1], (-1,) + (1,) * (d - 1 - a))
            for a, (n, o) in enumerate(zip(sizes, outs, strict=True))]


def _adaptive_avg(d: int, x: Any, ranks: tuple[int, ...] | None, outs: Shape) -> Any:
    sizes = np.shape(x)[-d:]
    if 0 in outs:  # no windows
        return np.zeros_like(x, shape=(*np.shape(x)[:-d], *outs))
    total: Any = 0.0
    for grid, inside, _ in _window_places(d, sizes, outs):
        total = total + np.where(inside, x[(Ellipsis, *grid)], 0.0)
    for length in _lengths(sizes, outs):  # sum / kh / kw, as PyTorch divides
        total = total / length
    return total


def _adaptive_avg_vjp(d: int, g: Any, x: Any, outs: Shape) -> Any:
    sizes = np.shape(x)[-d:]
    for length in _lengths(sizes, outs):
        g = g / length
    g = np.broadcast_to(g, (*np.shape(x)[:-d], *outs))
    lead = np.shape(g)[:-d]
    cotangent = np.zeros_like(g, shape=(*lead, *sizes))
    for _, inside, index in _window_places(d, sizes, outs):
        key = (Ellipsis, *np.ix_(*index))
        np.add.at(cotangent, key, np.where(inside, g, 0.0))  # (a place outside its window adds 0 where it is clamped)
    return cotangent


def _adaptive_shape(d: int, name: str) -> Any:
    def shape(x: Shape, output_size: Any = None, return_indices: bool = False) -> Shape:
        outs = _adaptive_sizes(d, x, output_size, name)
        # a window is at most ceil(size / out) + 1 long: the work bounded before any window is made
        largest = [-(-n // o) + 1 if o else 0 for n, o in zip(x[-d:], outs, strict=True)]
        _check_size(math.prod(x[:-d]) * math.prod(outs) * math.prod(largest), name)
        return (*x[:-d], *outs)

    return shape


def _on_symbols(forward: Any) -> Any:
    def build(*args: Any, **params: Any) -> Array:
        return np.asarray(forward(*args, ranks=tuple(np.ndim(a) for a in args), **params), dtype=object)

    return build


def _avg_rows(d: int, examples: Any, **fields: Any) -> list[Op]:
    """adaptive_avg_pool{d}d: PyTorch's mean over the pooled axes where every output size is 1 (MeanBackward1),
    else its windows' averages (one node, the `_whole` row, which is all there is where shapes are not known)."""
    name = f"adaptive_avg_pool{d}d"
    kernel_shape = _adaptive_shape(d, name)
    node_rule = (lambda constant, shapes, output_size=None: "MeanBackward1" if shapes and all(
        size == 1 for size in _adaptive_sizes(d, tuple(shapes[0]), output_size, name, kernel=False))
        else f"AdaptiveAvgPool{d}DBackward0")

    def program(emit: Any, x: Any, output_size: Any = None) -> Any:
        sx = emit.shape(x)  # (every size 1: the mean over the last d axes, whatever the input's rank, as PyTorch)
        if sx is not None and all(size == 1 for size in _adaptive_sizes(d, tuple(sx), output_size, name, kernel=False)):
            return emit("mean", x, dim=tuple(range(-1, -d - 1, -1)), keepdim=True)
        return emit(f"{name}_whole", x, output_size=output_size)

    def either(x: Shape, output_size: Any = None) -> Shape:  # the mean's shape, or the kernel's (both rows': the
        if all(size == 1 for size in _adaptive_sizes(d, x, output_size, name, kernel=False)):  # whole one stands
            point_axes(tuple(range(-1, -d - 1, -1)), len(x))  # in for the mean where shapes are not known yet)
            return (*x[:-d], *(1,) * d)
        return kernel_shape(x, output_size)

    whole = _avg_row(d, examples, name, either)
    return [whole, composite(name, 1, program, f"AdaptiveAvgPool{d}DBackward0", sympy=whole.sympy, shape=either,
                             torch_node_rule=node_rule, params=(Param("output_size", "sizes"),), examples=examples,
                             **fields)]


def _avg_row(d: int, examples: Any, name: str, shape: Any) -> Op:

    def outs(x: Any, ranks: tuple[int, ...], output_size: Any) -> Shape:
        return shape(np.shape(x)[np.ndim(x) - ranks[0]:], output_size)[-d:]

    def forward(x: Array, ranks: tuple[int, ...], output_size: Any = None) -> Array:
        return np.asarray(_adaptive_avg(d, x, ranks, outs(x, ranks, output_size)))

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], output_size: Any = None) -> tuple[Any]:
        return (_adaptive_avg_vjp(d, g, x, outs(x, ranks, output_size)),)

    return structural(f"{name}_whole", 1, forward, vjp, f"AdaptiveAvgPool{d}DBackward0", sympy=_on_symbols(forward),
                      shape=shape, params=(Param("output_size", "sizes"),), examples=examples, callable=False,
                      reference=None,
                      dtype_refusals=kernel_refusal("adaptive_avg_pool2d" if d == 2 else f"adaptive_avg_pool{d}d_cpu"))


def _peaks(d: int, x: Any, outs: Shape) -> tuple[Array, list[Array]]:
    """Which element of its window each output takes, by PyTorch's scan (larger, or NaN; the first
    place of its window where all are -inf): its index along each axis."""
    values = np.asarray(getattr(x, "primal", x))
    sizes = values.shape[-d:]
    best = np.full((*values.shape[:-d], *outs), -np.inf)
    taken_at: list[Any] = [np.zeros(best.shape, dtype=np.int64) for _ in range(d)]
    first = True
    for grid, inside, index in _window_places(d, sizes, outs):
        value = values[(Ellipsis, *grid)]
        taken = inside & ((value > best) | np.isnan(value) | first)
        best = np.where(taken, value, best)
        for a in range(d):
            along = np.reshape(index[a], (-1,) + (1,) * (d - 1 - a))
            taken_at[a] = np.where(taken, along, taken_at[a])
        first = False
    return best, taken_at


def _max_rules(d: int, name: str) -> dict[str, Any]:
    """adaptive_max_pool{d}d's rules: its forward, vjp, jvp, the indices it takes, its shape."""
    shape = _adaptive_shape(d, name)

    def outs(x: Any, ranks: tuple[int, ...], output_size: Any) -> Shape:
        return shape(np.shape(x)[np.ndim(x) - ranks[0]:], output_size)[-d:]

    def taken(x: Any, ranks: tuple[int, ...], output_size: Any) -> tuple[tuple[Array, ...], list[Array]]:
        """Where each output's element stands: an open grid of the leading axes, and its index along each axis."""
        _, taken_at = _peaks(d, x, outs(x, ranks, output_size))
        lead = np.shape(taken_at[0])[:-d]
        sparse: tuple[Array, ...] = tuple(np.indices(lead, sparse=True)) if lead else ()
        return tuple(np.reshape(grid, np.shape(grid) + (1,) * d) for grid in sparse), taken_at

    def forward(x: Array, ranks: tuple[int, ...], output_size: Any = None, return_indices: bool = False) -> Array:
        grids, taken_at = taken(x, ranks, output_size)
        return np.asarray(x[(*grids, *taken_at)])

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], output_size: Any = None,
            return_indices: bool = False) -> tuple[Any]:
        grids, taken_at = taken(x, ranks, output_size)
        cotangent = np.zeros_like(g, shape=np.shape(x))
        np.add.at(cotangent, (*grids, *taken_at), np.broadcast_to(g, np.shape(taken_at[0])))
        return (cotangent,)

    def jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], output_size: Any = None,
            return_indices: bool = False) -> Any:
        grids, taken_at = taken(x, ranks, output_size)
        return np.broadcast_to(tangents[0], np.shape(x))[(*grids, *taken_at)]

    def indices(x: Array, ranks: tuple[int, ...], output_size: Any = None, return_indices: bool = False) -> Array:
        _, taken_at = taken(x, ranks, output_size)
        flat: Any = 0
        for a in range(d):
            flat = flat * np.shape(x)[a - d] + taken_at[a]
        return np.asarray(flat, dtype=np.int64)

    return {"forward": forward, "vjp": vjp, "jvp": jvp, "indices": indices, "shape": shape}


_MAX_PARAMS = (Param("output_size", "sizes"), Param("return_indices", "bool", False))


def _max_rows(d: int, examples: Any, **fields: Any) -> list[Op]:
    """adaptive_max_pool{d}d (2-D and 3-D; the 1-D one is a composite) and its row with return_indices=True."""
    name = f"adaptive_max_pool{d}d"
    rules = _max_rules(d, name)
    refusals = () if d == 1 else kernel_refusal("adaptive_max_pool2d" if d == 2 else f"adaptive_max_pool{d}d_cpu")
    node = "SqueezeBackward1" if d == 1 else f"AdaptiveMaxPool{d}DBackward0"
    rows = [indices_row(name, node, rules["forward"], rules["vjp"], rules["jvp"], rules["indices"], rules["shape"],
                        _MAX_PARAMS, examples, fields["reference"], fields["reference_program"],
                        program=_pool1d("adaptive_max_pool2d_with_indices") if d == 1 else None,
                        dtype_refusals=refusals)]
    if d > 1:
        rows.append(structural(name, 1, rules["forward"], rules["vjp"], node, jvp=rules["jvp"], shape=rules["shape"],
                               kinked=True, params=_MAX_PARAMS, with_indices=f"{name}_with_indices",
                               examples=examples, dtype_refusals=refusals, **fields))
    return rows


def _pool1d(row: str) -> Any:
    """PyTorch's 1-D adaptive pooling: the 2-D one over an unsqueezed input, squeezed back."""
    name = row.replace("2d", "1d").removesuffix("_with_indices")

    def program(emit: Any, x: Any, output_size: Any = None, **params: Any) -> Any:
        shape = emit.shape(x)
        if shape is not None and len(shape) not in (2, 3):
            raise ValueError(f"Expected 2 to 3 dimensions, but got {len(shape)}-dimensional tensor for argument #1 'self' "
                             f"(while checking arguments for {name})")
        if isinstance(output_size, tuple) and len(output_size) != 1:
            raise ValueError(f"{name}() argument 'output_size' should contain one int (got {len(output_size)})")
        if shape is not None and name == "adaptive_max_pool1d":  # (its own kernel's check; the average's is 2-D's)
            _check_nonempty(shape, name)
        if output_size is None:
            raise ValueError(f"{name}: output_size must be 1")
        size = output_size if isinstance(output_size, tuple) else (output_size,)
        pooled = emit(row, emit("unsqueeze", x, dim=-2), output_size=(1, *size), **params)
        return emit("squeeze", pooled, dim=-2)

    return program


ROWS: list[Op] = [
    # F.pad(x, pad, 'reflect' | 'replicate'): the row F.pad's constant one hands these modes over to (its overload)
    structural("pad_edges", 1, _edge_pad, _edge_pad_vjp, "ReflectionPad1DBackward0", callable=False,
               sympy=_on_symbols(_edge_pad), shape=_edge_shape, torch_node_rule=_edge_node,
               shape_message=lambda label, shapes: f"pad cannot take shape {tuple(shapes[0])} with these arguments",
               text=_edge_text,
               params=(Param("pad", "ints", None, listed=True), Param("mode", "str", "reflect", choices=("reflect", "replicate",
                                                                                           "circular")),
                       Param("value", "float")),
               examples=((((1, 4),), {"pad": (1, 2), "mode": "reflect"}),
                         (((1, 2, 3),), {"pad": (2, 1, 0, 1), "mode": "replicate"}),
                         (((1, 3, 3, 2),), {"pad": (1, 1, 2, 0, 1, 1), "mode": "reflect"}),
                         (((1, 4, 5),), {"pad": (-2, -1, 3, 1), "mode": "replicate"}),
                         (((2, 5),), {"pad": (-1, 3), "mode": "reflect"})),
               reference="F.pad(a, (1, 2), 'reflect')", reference_program="F.pad(a, (1, 2), 'reflect')",
               dtype_refusals=kernel_refusal("reflection_pad1d", "bool input"), dtype="keeps"),
    composite("constant_pad_nd", 1, _constant_pad_nd, "ConstantPadNdBackward0",
              params=(Param("pad", "ints", None, listed=True), Param("value", "float", 0.0)),
              examples=((((2, 3),), {"pad": (1, 2), "value": 1.5}), (((3,),), {"pad": (2, -1)})),
              reference="torch.constant_pad_nd(a, (1, 2), 0.5)",
              reference_program="torch.constant_pad_nd(a, (1, 2), 0.5)"),
    structural("interpolate", 1, _interpolate, _interpolate_vjp, "UpsampleNearest1DBackward0",
               sympy=_on_symbols(_interpolate), shape=_interpolate_shape, torch_node_rule=_interpolate_node,
               params=_INTERPOLATE_PARAMS,
               examples=((((1, 2, 3),), {"size": (5,)}),
                         (((1, 1, 3, 4),), {"size": (5, 3), "mode": "bilinear", "align_corners": True}),
                         (((1, 2, 4),), {"scale_factor": 1.7, "mode": "nearest-exact"}),
                         (((2, 1, 5),), {"size": (3,), "mode": "linear"}),
                         (((1, 1, 3, 3),), {"scale_factor": 0.6, "mode": "bicubic"}),
                         (((1, 1, 2, 3),), {"size": 4, "mode": "bicubic", "align_corners": True}),
                         (((1, 1, 2, 2, 3),), {"size": (3, 2, 2), "mode": "trilinear"}),
                         (((1, 2, 5, 4),), {"size": (3, 2), "mode": "area"}),
                         (((1, 1, 3, 3),), {"scale_factor": 1.7, "mode": "bilinear",
                                            "recompute_scale_factor": True})),
               reference="F.interpolate(a, size=3, mode='linear')",
               reference_program="F.interpolate(a, size=3, mode='linear')",
               dtype_refusals=kernel_refusal("compute_indices_weights_nearest")),
    _upsample_row("upsample_nearest", "nearest", None, ((((1, 2, 3),), {"size": (5,)}),
                                                          (((1, 1, 3, 2),), {"scale_factor": 1.7})),
                  reference="F.upsample_nearest(a, size=3)", reference_program="F.upsample_nearest(a, size=3)",
                  dtype_refusals=kernel_refusal("compute_indices_weights_nearest")),
    _upsample_row("upsample_bilinear", "bilinear", True, ((((1, 1, 3, 2),), {"size": (4, 3)}),
                                                            (((1, 2, 2, 3),), {"scale_factor": 0.6})),
                  reference="F.upsample_bilinear(a, size=3)", reference_program="F.upsample_bilinear(a, size=3)",
                  dtype_refusals=kernel_refusal("upsample_bilinear2d_channels_last")),
    composite("adaptive_avg_pool1d", 1, _pool1d("adaptive_avg_pool2d"), "SqueezeBackward1",
              params=(Param("output_size", "sizes"),),
              examples=((((1, 2, 5),), {"output_size": (3,)}), (((2, 7),), {"output_size": (4,)})),
              reference="F.adaptive_avg_pool1d(a, 2)", reference_program="F.adaptive_avg_pool1d(a, 2)"),
    *_avg_rows(2, ((((1, 2, 5, 4),), {"output_size": (3, 2)}), (((2, 4, 5),), {"output_size": (3, None)}),
                   (((1, 3, 3),), {"output_size": 5}), (((2, 3, 4, 5),), {"output_size": 1})),
               reference="F.adaptive_avg_pool2d(a, 2)", reference_program="F.adaptive_avg_pool2d(a, 2)"),
    *_avg_rows(3, ((((1, 1, 3, 4, 5),), {"output_size": (2, 3, 2)}), (((1, 3, 2, 4),), {"output_size": 2}),
                   (((2, 2, 3, 4),), {"output_size": (1, 1, 1)})),
               reference="F.adaptive_avg_pool3d(a, 2)", reference_program="F.adaptive_avg_pool3d(a, 2)"),
    composite("adaptive_max_pool1d", 1, _pool1d("adaptive_max_pool2d"), "SqueezeBackward1", params=_MAX_PARAMS,
              kinked=True, sympy=None, with_indices="adaptive_max_pool1d_with_indices",
              examples=((((1, 2, 5),), {"output_size": (3,)}), (((2, 7),), {"output_size": (4,)})),
              reference="F.adaptive_max_pool1d(a, 2)", reference_program="F.adaptive_max_pool1d(a, 2)",
              dtype_refusals=kernel_refusal("adaptive_max_pool2d")),
    *_max_rows(1, ((((1, 2, 5),), {"output_size": (3,)}), (((2, 7),), {"output_size": (4,)})),
               reference="F.adaptive_max_pool1d(a, 2)", reference_program="F.adaptive_max_pool1d(a, 2)"),
    *_max_rows(2, ((((1, 2, 5, 4),), {"output_size": (3, 2)}), (((2, 4, 5),), {"output_size": (3, None)})),
               reference="F.adaptive_max_pool2d(a, 2)", reference_program="F.adaptive_max_pool2d(a, 2)"),
    *_max_rows(3, ((((1, 1, 3, 4, 5),), {"output_size": (2, 3, 2)}), (((1, 3, 2, 4),), {"output_size": 2})),
               reference="F.adaptive_max_pool3d(a, 2)", reference_program="F.adaptive_max_pool3d(a, 2)"),
]


# --- grid_sample: the input sampled at a grid of points, bilinear (trilinear in 3-D) between its 2^d nearest
# elements with padding 'zeros' or 'border', or its nearest element with any padding, as PyTorch's CPU kernels sample
# it (GridSampler2DBackward0, GridSampler3DBackward0) --------------------------------------------------------------


def _grid_check(x: Shape, grid: Shape, mode: str, padding_mode: str, name: str) -> Shape:
    # PyTorch's check_grid_sampler_common, then its 2-D or 3-D kernel's (grid_sample's by the input's dims)
    if x[:1] != grid[:1]:
        raise ValueError(f"grid_sampler(): expected grid and input to have same batch size, but got input with sizes "
                         f"{list(x)} and grid with sizes {list(grid)}")
    if grid[-1:] != (len(x) - 2,):
        raise ValueError(f"grid_sampler(): expected grid to have size {len(x) - 2} in last dimension, but got grid with "
                         f"sizes {list(grid)}")
    empty = next((axis for axis in range(2, len(x)) if x[axis] <= 0), None)
    if empty is not None:
        raise ValueError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes "
                         f"{list(x)} with dimension {empty} being empty")
    d = int(name[-2]) if name.startswith("grid_sampler_") else 3 if len(x) == 5 else 2
    if len(x) != d + 2 or len(grid) != len(x):
        raise ValueError(f"grid_sampler(): expected {d + 2}D input and grid with same number of dimensions, but got "
                         f"input with sizes {list(x)} and grid with sizes {list(grid)}")
    if mode == "bicubic" or (mode == "bilinear" and padding_mode == "reflection"):
        raise Unsupported(f"mode={mode!r} with padding_mode={padding_mode!r} (gradcli has mode='bilinear' with "
                          "padding_mode 'zeros' or 'border', and mode='nearest' with any padding_mode)")
    out = (x[0], x[1], *grid[1:-1])
    _check_windows(math.prod(out) * 2 ** d, name)
    return out


class _Grid(NamedTuple):
    """One sampling: the input as (P, C, prod S) (a batch's points and N as one axis P), the grid as (P, M, d), each
    axis's coordinate (P, M), its floor and d coord / d grid, the spatial sizes and the output's shape."""

    x: Any
    grid: Any
    coords: list[Any]
    floors: list[Any]
    slopes: list[Any]
    spatial: tuple[int, ...]
    out: Shape


def _grid_parts(x: Any, grid: Any, ranks: tuple[int, ...], padding_mode: str, align_corners: bool,
                forward: bool = False) -> _Grid:
    """`forward`: the coordinates PyTorch's forward kernel samples at, where its backward's differ (below)."""
    d = ranks[0] - 2
    flat_x, flat_grid, spatial, out = _flattened(x, grid, ranks)
    coords, floors, slopes = [], [], []
    for k in range(d):  # grid[..., 0] is x (the last axis), [..., 1] y, [..., 2] z
        size = spatial[-1 - k]
        g = flat_grid[..., k]
        coord = (g + 1.0) / 2.0 * (size - 1) if align_corners else ((g + 1.0) * size - 1.0) / 2.0
        slope = np.full(np.shape(g), (size - 1) / 2.0 if align_corners else size / 2.0)
        if padding_mode == "border":  # clipped to the edges, no gradient where clipped
            value = np.asarray(getattr(coord, "primal", coord))
            slope = np.where((value < 0) | (value > size - 1), 0.0, slope)
            coord = np.where(value < 0, 0.0, np.where(value > size - 1, size - 1.0, coord))
            if forward and d == 3:  # (the 3-D forward clips NaN to the far edge, min(size - 1, max(NaN, 0)); its
                coord = np.where(value != value, size - 1.0, coord)  # backward keeps NaN: outside, no gradient)
        value = np.asarray(getattr(coord, "primal", coord))  # (the Hessian's dual numbers choose by their values)
        coords.append(coord)
        floors.append(np.floor(np.where(np.isfinite(value), value, -2.0)))  # (NaN: a corner outside, as PyTorch's)
        slopes.append(slope)
    return _Grid(flat_x, flat_grid, coords, floors, slopes, spatial, out)


def _flattened(x: Any, grid: Any, ranks: tuple[int, ...]) -> tuple[Any, Any, tuple[int, ...], Shape]:
    """The input as (P, C, prod S), the grid as (P, M, d), the spatial sizes and the output's shape."""
    xs, gs = np.shape(x), np.shape(grid)
    lead = np.broadcast_shapes(xs[: len(xs) - ranks[0]], gs[: len(gs) - ranks[1]])
    n, c, *spatial = xs[len(xs) - ranks[0]:]
    flat_x = np.reshape(np.broadcast_to(x, (*lead, *xs[len(xs) - ranks[0]:])), (-1, c, math.prod(spatial)))
    flat_grid = np.reshape(np.broadcast_to(grid, (*lead, *gs[len(gs) - ranks[1]:])), (len(flat_x), -1, ranks[0] - 2))
    return flat_x, flat_grid, tuple(spatial), (*lead, n, c, *gs[len(gs) - ranks[1] + 1:-1])


def _grid_corners(parts: _Grid) -> Any:
    """Each of the 2^d corners around each point: (which side along each axis, its place in a plane, whether it is
    inside, its weight along each axis)."""
    for backwards in itertools.product((0, 1), repeat=len(parts.coords)):  # (x fastest: PyTorch's order of the terms)
        corner = backwards[::-1]
        place: Any = 0
        inside: Any = True
        weights, stride = [], 1
        for k, (coord, floor, side) in enumerate(zip(parts.coords, parts.floors, corner, strict=True)):
            size = parts.spatial[-1 - k]
            at = floor + side
            inside = inside & (at >= 0) & (at <= size - 1)
            place = place + np.clip(at, 0, size - 1).astype(np.int64) * stride
            stride *= size
            weights.append(coord - floor if side else floor + 1.0 - coord)
        yield corner, place, inside, weights


def _gathered(x: Any, place: Array, inside: Array) -> Any:
    """x (P, C, prod S) at each point's corner (P, M): (P, C, M), 0 outside."""
    value = x[np.arange(len(x))[:, None, None], np.arange(np.shape(x)[1])[None, :, None], place[:, None, :]]
    return np.where(inside[:, None, :], value, 0.0)


def _product(values: list[Any], skip: int = -1) -> Any:
    out: Any = 1.0
    for k, value in enumerate(values):
        if k != skip:
            out = out * value
    return out


def _nearest_coord(g: Array, size: int, d: int, padding_mode: str, align_corners: bool, forward: bool) -> Array:
    """The place along one axis that mode='nearest' reads for grid coordinates g, as a float (NaN or beyond the input
    where nothing is read), in the grid's dtype. PyTorch's 2-D kernel is vectorised (its clip sends NaN to 0); its
    3-D kernel is scalar, with its own arithmetic (its forward clips NaN to the far edge, its backward keeps NaN: no
    gradient, as in the bilinear 3-D kernel above)."""
    one = g.dtype.type(1)
    if d == 2:
        c = ((g + one) * g.dtype.type((size - 1) / 2) if align_corners
             else (g + one) * g.dtype.type(size / 2) - g.dtype.type(0.5))
    else:
        c = (g + one) / 2 * (size - 1) if align_corners else ((g + one) * size - one) / 2
    if padding_mode == "reflection":
        c = _reflected(c, size, d, align_corners)
    if padding_mode != "zeros":
        nan = np.isnan(c)
        c = np.clip(np.where(nan, 0, c), 0, size - 1).astype(g.dtype)
        if d == 3:
            c = np.where(nan, size - 1.0 if forward else np.nan, c).astype(g.dtype)
    if d == 3:  # (its safe_downgrade_to_int_range: a place past int's range is no place)
        c = np.where(np.isfinite(c) & (c <= 2.0**31 - 2) & (c >= -(2.0**31)), c, np.nan).astype(g.dtype)
    return np.rint(c)  # (nearbyint: a tie goes to the even place)


def _reflected(c: Array, size: int, d: int, align_corners: bool) -> Array:
    """The coordinate reflected at the input's edges (its corner elements' centres with align_corners, else their
    outer edges), as each kernel reflects it: the 2-D one by whole double flips, the 3-D one by counting flips in an
    int (a count past int's range is INT_MIN, even)."""
    low = 0.0 if align_corners else -0.5
    span = size - 1 if align_corners else size
    if span == 0:
        return np.zeros_like(c)
    distance = np.abs(c - c.dtype.type(low))
    if d == 2:
        twice = c.dtype.type(2 * span)
        extra = distance - np.trunc(distance / twice) * twice
        return np.minimum(extra, twice - extra) + c.dtype.type(low)  # (NaN stays NaN, as in its minimum)
    extra = np.fmod(distance, c.dtype.type(span))
    flips = np.floor(distance / c.dtype.type(span))
    odd = np.isfinite(flips) & (flips < 2.0**31) & (np.fmod(flips, 2) == 1)
    return np.where(odd, c.dtype.type(span) - extra + c.dtype.type(low), extra + c.dtype.type(low)).astype(c.dtype)


def _nearest_places(grid: Any, spatial: tuple[int, ...], padding_mode: str, align_corners: bool,
                    forward: bool) -> tuple[Array, Array]:
    """Each point's element in a plane of the input (P, M) and whether there is one."""
    g = np.asarray(getattr(grid, "primal", grid))  # (the Hessian's dual numbers: the place depends on values only)
    d = np.shape(g)[-1]
    place: Any = 0
    inside: Any = True
    stride = 1
    for k in range(d):  # grid[..., 0] is x (the last axis)
        size = spatial[-1 - k]
        with np.errstate(over="ignore", invalid="ignore"):  # (an infinite or NaN place is no place)
            at = _nearest_coord(g[..., k], size, d, padding_mode, align_corners, forward)
            inside = inside & (at >= 0) & (at <= size - 1)
        place = place + np.where(inside, at, 0).astype(np.int64) * stride
        stride *= size
    return np.where(inside, place, 0), np.asarray(inside)


def _grid_nearest(x: Any, grid: Any, ranks: tuple[int, ...], padding_mode: str, align_corners: bool) -> Any:
    flat_x, flat_grid, spatial, out = _flattened(x, grid, ranks)
    place, inside = _nearest_places(flat_grid, spatial, padding_mode, align_corners, forward=True)
    return np.reshape(_gathered(flat_x, place, inside), out)


def _grid_nearest_vjp(g: Any, ans: Array, x: Any, grid: Any, ranks: tuple[int, ...], padding_mode: str,
                      align_corners: bool) -> tuple[Any, Any]:
    """The cotangent of each point added into the element it read; the grid's is 0 (PyTorch writes zeros)."""
    flat_x, flat_grid, spatial, out = _flattened(x, grid, ranks)
    place, inside = _nearest_places(flat_grid, spatial, padding_mode, align_corners, forward=False)
    p, c, m = len(flat_x), np.shape(flat_x)[1], np.shape(flat_grid)[1]
    share = np.where(inside[:, None, :], np.reshape(np.broadcast_to(g, np.shape(ans)), (p, c, m)), 0.0)
    dx = np.zeros_like(share, shape=np.shape(flat_x))
    np.add.at(dx, (np.arange(p)[:, None, None], np.arange(c)[None, :, None], place[:, None, :]), share)
    xs = np.shape(x)
    lead = out[: len(out) - ranks[0]]
    return (np.reshape(dx, (*lead, *xs[len(xs) - ranks[0]:])),
            np.zeros(np.shape(grid), dtype=np.result_type(np.asarray(getattr(grid, "primal", grid)).dtype, np.float32)))


def _grid_sample(x: Array, grid: Array, ranks: tuple[int, ...], mode: str = "bilinear", padding_mode: str = "zeros",
                 align_corners: bool | None = None, name: str = "grid_sample") -> Array:
    sx, sg = _point_shapes(ranks, x, grid)
    out_shape = _grid_check(sx, sg, mode, padding_mode, name)
    if 0 in sx or 0 in sg:  # (an empty batch, or no points: nothing sampled)
        return np.zeros(np.shape(x)[: np.ndim(x) - ranks[0]] + tuple(out_shape))
    if mode == "nearest":
        return _grid_nearest(x, grid, ranks, padding_mode, bool(align_corners))
    parts = _grid_parts(x, grid, ranks, padding_mode, bool(align_corners), forward=True)
    out: Any = 0.0
    for _, place, inside, weights in _grid_corners(parts):
        out = out + _skipped(_gathered(parts.x, place, inside) * _product(weights)[:, None, :], inside[:, None, :], ranks)
    return np.reshape(out, parts.out)


def _skipped(term: Any, inside: Array, ranks: tuple[int, ...]) -> Any:
    """PyTorch's 3-D kernels add a corner's term only where the corner is inside (a NaN or infinite weight of a
    corner outside adds nothing: the sample is 0); its 2-D kernel multiplies every corner by its mask (NaN)."""
    return np.where(inside, term, 0.0) if ranks[0] == 5 else term


def _grid_sample_vjp(g: Array, ans: Array, x: Array, grid: Array, ranks: tuple[int, ...], mode: str = "bilinear",
                     padding_mode: str = "zeros", align_corners: bool | None = None) -> tuple[Any, Any]:
    if np.size(x) == 0 or np.size(grid) == 0:
        return np.zeros(np.shape(x)), np.zeros(np.shape(grid))
    if mode == "nearest":
        return _grid_nearest_vjp(g, ans, x, grid, ranks, padding_mode, bool(align_corners))
    parts = _grid_parts(x, grid, ranks, padding_mode, bool(align_corners))
    p, c, m = len(parts.x), np.shape(parts.x)[1], np.shape(parts.grid)[1]
    g = np.reshape(np.broadcast_to(g, np.shape(ans)), (p, c, m))
    dx: Any = None
    d_coords: list[Any] = [0.0] * len(parts.coords)
    for corner, place, inside, weights in _grid_corners(parts):
        share = np.where(inside[:, None, :], g * _product(weights)[:, None, :], 0.0)
        if dx is None:  # (of the share's kind: the Hessian's dual numbers go through np.add.at)
            dx = np.zeros_like(share, shape=np.shape(parts.x))
        np.add.at(dx, (np.arange(p)[:, None, None], np.arange(c)[None, :, None], place[:, None, :]), share)
        value = np.sum(_gathered(parts.x, place, inside) * g, axis=1)  # (P, M)
        for k, side in enumerate(corner):
            d_coords[k] = d_coords[k] + _skipped(value * _product(weights, skip=k) * (1.0 if side else -1.0), inside,
                                                 ranks)
    axes = np.arange(len(d_coords))
    d_grid: Any = 0.0
    for k, (d, slope) in enumerate(zip(d_coords, parts.slopes, strict=True)):  # (no np.stack: dual numbers go through)
        d_grid = np.where(axes == k, (d * slope)[..., None], d_grid)
    xs, gs = np.shape(x), np.shape(grid)
    lead = parts.out[: len(parts.out) - ranks[0]]
    return (np.reshape(dx, (*lead, *xs[len(xs) - ranks[0]:])), np.reshape(d_grid, (*lead, *gs[len(gs) - ranks[1]:])))


def _grid_sample_jvp(tangents: Any, ans: Array, x: Array, grid: Array, ranks: tuple[int, ...], mode: str = "bilinear",
                     padding_mode: str = "zeros", align_corners: bool | None = None) -> Any:
    tx, tg = tangents
    if np.size(x) == 0 or np.size(grid) == 0:
        return np.zeros_like(ans)
    if mode == "nearest":  # (the grid moves nothing: its derivative is 0)
        return np.zeros_like(ans) if tx is None else _grid_sample(tx, grid, ranks, mode, padding_mode, align_corners)
    parts = _grid_parts(x, grid, ranks, padding_mode, bool(align_corners))
    out: Any = np.zeros_like(ans)
    if tx is not None:
        out = out + _grid_sample(tx, grid, ranks, mode, padding_mode, align_corners)
    if tg is not None:
        lead = parts.out[: len(parts.out) - ranks[0]]
        flat_t = np.reshape(np.broadcast_to(tg, (*lead, *np.shape(grid)[np.ndim(grid) - ranks[1]:])), np.shape(parts.grid))
        total: Any = 0.0
        for corner, place, inside, weights in _grid_corners(parts):
            value = _gathered(parts.x, place, inside)
            for k, side in enumerate(corner):
                total = total + _skipped(value * (_product(weights, skip=k) * (1.0 if side else -1.0) * parts.slopes[k]
                                                  * flat_t[..., k])[:, None, :], inside[:, None, :], ranks)
        out = out + np.reshape(total, parts.out)
    return out


_GRID_MODES, _GRID_PADDINGS = ("bilinear", "nearest", "bicubic"), ("zeros", "border", "reflection")
# (F.grid_sample's own checks of its words, of a value of any type)
_GRID_SAMPLE_PARAMS = (
    Param("mode", "str", "bilinear", choices=_GRID_MODES, refused=(
        "ValueError", "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: "
                      "'{value}'")),
    Param("padding_mode", "str", "zeros", choices=_GRID_PADDINGS, refused=(
        "ValueError", "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', "
                      "but got: '{value}'")),
    Param("align_corners", "bool", None))


def _grid_node(constant: Any, shapes: Any, **params: Any) -> str:
    return "GridSampler3DBackward0" if shapes is not None and len(shapes[0]) == 5 else "GridSampler2DBackward0"


def _sampler(d: int) -> Op:
    """torch.grid_sampler_2d / 3d(input, grid, interpolation_mode, padding_mode, align_corners): the modes by number."""
    def said(params: dict[str, Any]) -> dict[str, Any]:
        mode, padding = params["interpolation_mode"], params["padding_mode"]
        return {"mode": _GRID_MODES[mode] if 0 <= mode < 3 else str(mode),
                "padding_mode": _GRID_PADDINGS[padding] if 0 <= padding < 3 else str(padding),
                "align_corners": params["align_corners"]}

    def shape(x: Shape, grid: Shape, **params: Any) -> Shape:
        given = said(params)
        return _grid_check(x, grid, given["mode"], given["padding_mode"], f"grid_sampler_{d}d")

    return structural(f"grid_sampler_{d}d", 2, lambda x, grid, ranks, **params: _grid_sample(x, grid, ranks, **said(params),
                                                                                          name=f"grid_sampler_{d}d"),
                      lambda g, ans, x, grid, ranks, **params: _grid_sample_vjp(g, ans, x, grid, ranks, **said(params)),
                      f"GridSampler{d}DBackward0", shape=shape, inputs=("input", "grid"),
                      dtype_refusals=(*kernel_refusal("grid_sampler_2d_cpu_kernel_impl" if d == 2 else "grid_sampler3d_cpu"),
                                      ("mixed", "RuntimeError", "expected scalar type {0} but found {1}")),
                      jvp=lambda tangents, ans, x, grid, ranks, **params: _grid_sample_jvp(tangents, ans, x, grid, ranks,
                                                                                          **said(params)),
                      params=(Param("interpolation_mode", "int"), Param("padding_mode", "int"),
                              Param("align_corners", "bool")),
                      text=lambda args, **params: "grid_sampler_{}d({}, {}, {}, {}, {})".format(
                          d, *args, params["interpolation_mode"], params["padding_mode"], params["align_corners"]),
                      domain=((-2.0, 2.0), (-1.2, 1.2)), kinked=True,
                      examples=((((1, 1, *(2,) * d), (1, 1, 1, *(1,) * (d - 2), d)),
                                 {"interpolation_mode": 0, "padding_mode": 0, "align_corners": False}),
                                (((1, 2, *(3,) * d), (1, 2, 1, *(1,) * (d - 2), d)),
                                 {"interpolation_mode": 0, "padding_mode": 1, "align_corners": True})),
                      reference=f"torch.grid_sampler_{d}d(a, b, 0, 0, False)",
                      reference_program=f"grid_sampler_{d}d(a, b, 0, 0, False)")


ROWS += [
    structural("grid_sample", 2, _grid_sample, _grid_sample_vjp, "GridSampler2DBackward0", jvp=_grid_sample_jvp,
               torch_node_rule=_grid_node, inputs=("input", "grid"),
               shape=lambda x, grid, mode="bilinear", padding_mode="zeros", align_corners=None: _grid_check(
                   x, grid, mode, padding_mode, "grid_sample"),
               params=_GRID_SAMPLE_PARAMS, domain=((-2.0, 2.0), (-1.2, 1.2)), kinked=True,
               examples=((((1, 2, 3, 3), (1, 2, 2, 2)), {"align_corners": False}),
                         (((2, 1, 2, 3), (2, 1, 2, 2)), {"padding_mode": "border", "align_corners": True}),
                         (((1, 1, 2, 2, 2), (1, 1, 2, 1, 3)), {"align_corners": False})),
               reference="F.grid_sample(a, b, align_corners=False)",
               reference_program="grid_sample(a, b, align_corners=False)",
               dtype_refusals=(*kernel_refusal("grid_sampler_2d_cpu_kernel_impl"), ("mixed", "RuntimeError", "expected scalar type {0} but found {1}"))),
    _sampler(2),
    _sampler(3),
]
