"""The rows of convolution and pooling: torch.nn.functional's conv1d/2d/3d, conv_transpose1d/2d/3d,
avg_pool1d/2d/3d and max_pool1d/2d/3d (return_indices=True too), in PyTorch's layout.

An input is (N, C, *S) or, unbatched, (C, *S), S one to three spatial axes; a weight is
(C_out, C_in / groups, *k). Every rule works on windows: the input padded (np.pad), its windows
a view (sliding_window_view), strided and dilated by slicing, and contracted by np.einsum. A VJP
puts each window's cotangent back where the window came from (`_unwindow`: one place of the
windows at a time, by padding and adding, never by assigning into an array, so that the
Hessian's dual numbers go through).

With --points a value may carry a batch axis in front of its per-point axes: the rules act on
the trailing axes (`ranks` says how many belong to the point) and einsum's `...` broadcasts
whatever stands in front, so that an input, a weight and a bias may each have one or not.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from gradcli.errors import Limits, over_limit
from gradcli.ops.core import Array, DimError, Op, Param, Shape, ValueRefusal, composite, kernel_refusal, structural


class Geometry(NamedTuple):
    """Where the windows of one call stand along each spatial axis."""

    kernel: tuple[int, ...]
    stride: tuple[int, ...]
    dilation: tuple[int, ...]
    before: tuple[int, ...]  # padding in front
    after: tuple[int, ...]  # padding behind (more than `before` for 'same' with an even kernel, or ceil_mode)
    out: tuple[int, ...]  # the output's spatial sizes

    def span(self, axis: int) -> int:
        return self.dilation[axis] * (self.kernel[axis] - 1) + 1


def _per_axis(name: str, value: Any, d: int) -> tuple[int, ...]:
    """An int or one per spatial axis, as PyTorch's _single/_pair expand them."""
    values = tuple(value)
    if len(values) == 1:
        return values * d
    if len(values) != d:
        raise ValueError(f"expected {name} to be a single integer value or a list of {d} values to match the "
                         f"convolution dimensions, but got {name}={list(values)}")
    return values


def _letters(d: int) -> tuple[str, str]:
    """einsum's letters of the output's spatial axes and of the kernel's."""
    return "uvw"[:d], "ijk"[:d]


def _windows(x: Any, geometry: Geometry, fill: float = 0.0) -> Any:
    """x (..., *S) padded -> its windows (..., *out, *kernel): a view of the padded array."""
    d = len(geometry.kernel)
    padded = np.pad(x, [(0, 0)] * (np.ndim(x) - d) + list(zip(geometry.before, geometry.after, strict=True)),
                    constant_values=fill)
    spans = tuple(geometry.span(a) for a in range(d))
    windows = sliding_window_view(padded, spans, axis=tuple(range(-d, 0)))
    strided = (slice(0, s * (o - 1) + 1, s) for s, o in zip(geometry.stride, geometry.out, strict=True))
    key: tuple[Any, ...] = (Ellipsis, *strided, *(slice(None, None, r) for r in geometry.dilation))
    return windows[key]


def _spread(v: Any, axis: int, step: int, offset: int, total: int) -> Any:
    """v along `axis` (negative) put at offset, offset + step, ... of an axis of `total` zeros."""
    v = np.moveaxis(v, axis, -1)
    count = v.shape[-1]
    if step > 1:  # (count, step) with zeros after each value, read as one axis
        v = np.pad(v[..., None], [(0, 0)] * v.ndim + [(0, step - 1)]).reshape((*v.shape[:-1], count * step))
    v = np.pad(v, [(0, 0)] * (v.ndim - 1) + [(offset, max(0, total - offset - v.shape[-1]))])[..., :total]
    return np.moveaxis(v, -1, axis)


def _offsets(geometry: Geometry) -> list[tuple[int, ...]]:
    """The places of a window, in PyTorch's scan order (rows outer): the kernel's indices."""
    return list(itertools.product(*(range(k) for k in geometry.kernel)))


def _unwindow(part_at: Callable[[tuple[int, ...]], Any], geometry: Geometry, size: tuple[int, ...]) -> Any:
    """The VJP of _windows: the cotangent (..., *out) of each place of the windows, part_at(offsets),
    added up where its elements came from, the padding cut off: (..., *size). One place at a time:
    nothing of the windows' size (out elements x kernel elements) is made."""
    d = len(geometry.kernel)
    padded = tuple(b + s + a for b, s, a in zip(geometry.before, size, geometry.after, strict=True))
    total: Any = None
    for offsets in _offsets(geometry):
        part = part_at(offsets)
        for a in range(d):
            part = _spread(part, a - d, geometry.stride[a], offsets[a] * geometry.dilation[a], padded[a])
        total = part if total is None else total + part
    return total[(Ellipsis, *(slice(b, b + s) for b, s in zip(geometry.before, size, strict=True)))]


def _check_windows(count: int, what: str) -> None:
    """Refuse windows past the elements limit before they are made (the VJPs make them)."""
    if count > Limits.get("elements"):
        raise over_limit(f"{what} would make {count:,} window elements", "elements")


def _checked(d: int, x: Shape, w: Shape, b: Shape | None, name: str, stride: Any, padding: Any, dilation: Any,
             groups: int, output_padding: Any = None) -> tuple[Shape, tuple[int, ...], Any, tuple[int, ...], Any]:
    """A convolution's shapes and settings checked in PyTorch's order and words (ValueError), as
    at::_convolution and check_shape_forward check them: the input's rank for the op, then the weight's,
    the settings expanded to the weight's spatial rank, their signs, the ranks against each other,
    the weight's channels, the input's, the bias (`b`: when it is known). -> the batched input's
    shape, stride, padding (or its word), dilation and output_padding (None: not transposed)."""
    transposed = output_padding is not None
    if len(x) not in (d + 1, d + 2):
        raise ValueError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to {name}, but got input of "
                         f"size: {list(x)}")
    batched = tuple(x) if len(x) == d + 2 else (1, *x)
    if len(w) < 3:
        raise ValueError("weight should have at least three dimensions")
    if groups <= 0:
        raise ValueError("non-positive groups is not supported")
    def expanded(name: str, value: Any) -> Any:  # an int is d of it (PyTorch's argument parser), then the weight's
        return _per_axis(name, _per_axis(name, value, d) if len(tuple(value)) == 1 else value, len(w) - 2)

    stride = expanded("stride", stride)
    padding = padding if isinstance(padding, str) else expanded("padding", padding)
    dilation = expanded("dilation", dilation)
    if transposed:
        output_padding = expanded("output_padding", output_padding)
    if not isinstance(padding, str) and min(padding) < 0:
        raise ValueError("negative padding is not supported")
    if transposed and min(output_padding) < 0:
        raise ValueError("negative output_padding is not supported")
    if min(stride) <= 0:
        raise ValueError("non-positive stride is not supported")
    if min(dilation) < 0:
        raise ValueError("dilation should be greater than zero")
    if len(w) != len(batched):
        raise ValueError(f"Expected {len(w)}-dimensional input for {len(w)}-dimensional weight {list(w)}, but got "
                         f"{len(batched)}-dimensional input of size {list(batched)} instead")
    if w[0] < groups:
        raise ValueError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                         f"weight of size {list(w)} instead")
    if w[0] % groups:
        raise ValueError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but got "
                         f"weight of size [{list(w)}] instead")  # (PyTorch's brackets, twice)
    channels, outs = (w[0], w[1] * groups) if transposed else (w[1] * groups, w[0])
    if batched[1] != channels:
        given = "transposed=1" if transposed else f"groups={groups}"
        raise ValueError(f"Given {given}, weight of size {list(w)}, expected input{list(batched)} to have "
                         f"{channels} channels, but got {batched[1]} channels instead")
    if b and tuple(b) != (outs,):
        raise ValueError(f"Given {'transposed=1, ' if transposed else ''}weight of size {list(w)}, expected bias to be "
                         f"1-dimensional with {outs} elements, but got bias of size {list(b)} instead")
    # then the kernel's own checks, in 2-D or 3-D (conv1d is conv2d of height 1: `fake`, that axis's value)
    def axes(name: str, values: Any, fake: int, between: str = " ") -> str:
        spelled = ("depth", "height", "width")[-max(len(values), 2):]
        return between.join(f"{name}_{axis}: {value}"
                            for axis, value in zip(spelled, (fake,) * (len(values) == 1) + tuple(values), strict=True))
    if min(dilation) == 0:
        written = axes("dilation", dilation, 1, ", ") if transposed else [1] * (len(dilation) == 1) + list(dilation)
        raise ValueError(f"dilation should be greater than zero, but got {written}")
    if transposed and any(p >= s and p >= r for p, s, r in zip(output_padding, stride, dilation, strict=True)):
        raise ValueError(f"output padding must be smaller than either stride or dilation, but got "
                         f"{axes('output_padding', output_padding, 0)} {axes('stride', stride, 1)} "
                         f"{axes('dilation', dilation, 1)}")
    return batched, stride, padding, dilation, output_padding


# --- conv1d, conv2d ------------------------------------------------------------------------------


def _conv_geometry(d: int, x: Shape, w: Shape, stride: Any, padding: Any, dilation: Any, groups: int,
                   name: str, b: Shape | None = None) -> Geometry:
    """The windows of a convolution, its shapes checked in PyTorch's words (ValueError)."""
    batched, stride, padding, dilation, _ = _checked(d, x, w, b, name, stride, padding, dilation, groups)
    kernel = tuple(w[2:])
    spans = [r * (k - 1) + 1 for r, k in zip(dilation, kernel, strict=True)]
    if padding == "valid":
        before = after = (0,) * d
    elif padding == "same":  # the extra one behind, as PyTorch pads an even kernel
        if max(stride) > 1:
            raise ValueError("padding='same' is not supported for strided convolutions")
        before = tuple((s - 1) // 2 for s in spans)
        after = tuple(s - 1 - b for s, b in zip(spans, before, strict=True))
    else:
        before = after = padding
    padded = [b + s + a for b, s, a in zip(before, batched[2:], after, strict=True)]
    if any(p < s for p, s in zip(padded, spans, strict=True)):
        raise ValueError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                         f"({' x '.join(map(str, spans))}). Kernel size can't be greater than actual input size")
    out = tuple((p - s) // st + 1 for p, s, st in zip(padded, spans, stride, strict=True))
    return Geometry(kernel, stride, dilation, before, after, out)


_CONV_DEFAULTS = {"stride": 1, "padding": 0, "dilation": 1, "groups": 1}
_CONV_PARAMS = (Param("stride", "ints", (1,)), Param("padding", "ints", (0,), choices=("valid", "same")),
                Param("dilation", "ints", (1,)), Param("groups", "int", 1))


class _Conv(NamedTuple):
    """One convolution's arrays in einsum's layout: x with an N axis and its channels in groups."""

    geometry: Geometry
    batched: bool
    x: Any  # (..., N, G, C_in / G, *S)
    w: Any  # (..., G, C_out / G, C_in / G, *k)


def _conv_parts(d: int, x: Any, w: Any, ranks: tuple[int, ...], stride: Any = (1,), padding: Any = (0,),
                dilation: Any = (1,), groups: int = 1) -> _Conv:
    xs, ws = np.shape(x), np.shape(w)
    point_x, point_w = xs[len(xs) - ranks[0]:], ws[len(ws) - ranks[1]:]
    geometry = _conv_geometry(d, point_x, point_w, stride, padding, dilation, groups, f"conv{d}d")
    batched = ranks[0] == d + 2
    lead = xs[: len(xs) - ranks[0]]
    n = point_x[0] if batched else 1
    x = np.reshape(x, (*lead, n, groups, point_x[-d - 1] // groups, *point_x[-d:]))
    w = np.reshape(w, (*ws[:len(ws) - ranks[1]], groups, point_w[0] // groups, *point_w[1:]))
    return _Conv(geometry, batched, x, w)


def _conv_out(parts: _Conv, out: Any, d: int) -> Any:
    """(..., N, G, C_out / G, *out) -> (..., [N,] C_out, *out)."""
    shape = np.shape(out)
    lead = shape[: len(shape) - d - 3]
    channels = shape[-d - 2] * shape[-d - 1]
    return np.reshape(out, lead + ((shape[-d - 3],) if parts.batched else ()) + (channels,) + shape[-d:])


def _with_bias(out: Any, b: Any, ranks: tuple[int, ...], d: int) -> Any:
    """out (..., [N,] C_out, *out) plus the bias along its channels (a number where none was given)."""
    shape, rank = np.shape(b), ranks[2]
    batched = (1,) if ranks[0] == d + 2 else ()
    return out + np.reshape(b, shape[: len(shape) - rank] + batched + (shape[-1] if rank else 1,) + (1,) * d)


def _convolve(d: int, x: Any, w: Any, ranks: tuple[int, ...], **params: Any) -> Any:
    parts = _conv_parts(d, x, w, ranks, **params)
    o, k = _letters(d)
    windows = _windows(parts.x, parts.geometry)
    return _conv_out(parts, np.einsum(f"...ngc{o}{k},...gec{k}->...nge{o}", windows, parts.w), d)


def _point_shapes(ranks: tuple[int, ...], *args: Any) -> list[Shape]:
    return [np.shape(a)[np.ndim(a) - rank:] for a, rank in zip(args, ranks, strict=True)]


def _conv(d: int, x: Array, w: Array, b: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    sx, sw, sb = _point_shapes(ranks, x, w, b)
    _conv_shape(d, sx, sw, sb, **params)  # (the forward names what the shape check found)
    return np.asarray(_with_bias(_convolve(d, x, w, ranks[:2], **params), b, ranks, d))


def _conv_vjp(d: int, g: Array, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...],
              **params: Any) -> tuple[Any, Any, Any]:
    # PyTorch's slow convolution: the input's cotangent is the weight's transpose times g, put back
    # window by window (col2im); the weight's, g times the windows; the bias's, g summed.
    parts = _conv_parts(d, x, w, ranks[:2], **params)
    geometry, o, k = parts.geometry, *_letters(d)
    shape, g_shape = np.shape(parts.x), np.shape(g)
    g_lead = g_shape[: len(g_shape) - d - (2 if parts.batched else 1)]
    gs = np.reshape(g, (*g_lead, shape[-d - 3], *np.shape(parts.w)[-d - 3:-d - 1], *geometry.out))
    dx = _unwindow(lambda offsets: np.einsum(f"...nge{o},...gec->...ngc{o}", gs, parts.w[(Ellipsis, *offsets)]),
                   geometry, shape[-d:])
    dx = np.reshape(dx, np.shape(dx)[: np.ndim(dx) - d - 3] + np.shape(x)[np.ndim(x) - ranks[0]:])
    dw = np.einsum(f"...nge{o},...ngc{o}{k}->...gec{k}", gs, _windows(parts.x, geometry))
    dw = np.reshape(dw, np.shape(dw)[: np.ndim(dw) - d - 3] + np.shape(w)[np.ndim(w) - ranks[1]:])
    db = np.sum(g, axis=tuple(range(-d, 0)) + ((-d - 2,) if parts.batched else ()) + (() if ranks[2] else (-d - 1,)))
    return dx, dw, db


def _bilinear_jvp(product: Any) -> Any:
    """The JVP of a convolution or its transpose, `product(d, x, w)` plus a bias: linear in x and in w
    each, so the tangent is the product of each tangent with the other arg, plus the bias's tangent."""
    def jvp(d: int, tangents: Any, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...],
            **params: Any) -> Any:
        tx, tw, tb = tangents
        out: Any = 0.0
        if tx is not None:
            out = out + product(d, tx, w, ranks[:2], **params)
        if tw is not None:
            out = out + product(d, x, tw, ranks[:2], **params)
        if tb is not None:
            out = _with_bias(np.broadcast_to(out, np.shape(ans)), tb, ranks, d)
        return out

    return jvp


_conv_jvp = _bilinear_jvp(_convolve)


def _conv_shape(d: int, x: Shape, w: Shape, b: Shape, stride: Any = (1,), padding: Any = (0,), dilation: Any = (1,),
                groups: int = 1) -> Shape:
    geometry = _conv_geometry(d, x, w, stride, padding, dilation, groups, f"conv{d}d", b)
    n = x[0] if len(x) == d + 2 else 1
    _check_windows(n * x[-d - 1] * math.prod(geometry.out) * math.prod(geometry.kernel), f"conv{d}d")
    return (*x[: len(x) - d - 1], w[0], *geometry.out)


def _conv_node(d: int, constant: Any, shapes: Any, **params: Any) -> str:
    # An unbatched input is unsqueezed for the convolution and the result squeezed back.
    return "ConvolutionBackward0" if shapes is None or len(shapes[0]) == d + 2 else "SqueezeBackward1"


def _conv_text(d: int) -> Any:
    def text(args: list[str], **params: Any) -> str:
        bias = [] if args[2] in ("0", "0.0") else [args[2]]
        given = [f"{k}={v!r}" for k, v in params.items() if _given(v, _CONV_DEFAULTS[k])]
        return f"conv{d}d({', '.join([args[0], args[1], *bias, *given])})"

    return text


def _given(value: Any, default: Any) -> bool:
    """Does a param differ from PyTorch's default (an int for every axis: 1, (1,), (1, 1))?"""
    return value != default and not (isinstance(value, tuple) and set(value) == {default})


def _on_symbols(forward: Any) -> Any:
    """A SymPy builder from a forward written against NumPy: the same windows and sums, on arrays
    of expressions (one point: every axis is the point's)."""
    def build(*args: Any, **params: Any) -> Array:
        return np.asarray(forward(*args, ranks=tuple(np.ndim(a) for a in args), **params), dtype=object)

    return build


def _conv_program(d: int) -> Any:
    # PyTorch's conv of an unbatched input: the input unsqueezed, convolved, the result squeezed
    # back (SqueezeBackward1 over ConvolutionBackward0 over UnsqueezeBackward0); over --points,
    # where the shapes are not known, one node.
    def program(emit: Any, x: Any, w: Any, b: Any, **params: Any) -> Any:
        shape = emit.shape(x)
        if shape is not None and len(shape) == d + 1:
            convolved = emit(f"conv{d}d_whole", emit("unsqueeze", x, dim=0), w, b, **params)
            return emit("squeeze", convolved, dim=0)
        return emit(f"conv{d}d_whole", x, w, b, **params)

    return program


def _bias_0d(transposed: bool) -> Callable[..., str]:
    """PyTorch's words for a 0-d bias (Op.given_0d): one number per output channel."""
    def message(keyword: str, shapes: Any, params: dict[str, Any]) -> str:
        w = tuple(shapes[1])
        channels = (w[1] * params.get("groups", 1) if transposed else w[0]) if len(w) > 1 else 1
        return (f"Given {'transposed=1, ' if transposed else ''}weight of size {list(w)}, expected bias to be "
                f"1-dimensional with {channels} elements, but got bias of size [] instead")

    return message


# PyTorch's dtype checks of a convolution: the bias's dtype is the input's, then the weight's
_CONV_DTYPES = (("mixed 0 2", "RuntimeError", "Input type ({c0}) and bias type ({c2}) should be the same"),
                ("mixed 0 1", "RuntimeError", "expected scalar type {0} but found {1}"))
# The CPU kernels of the poolings and the transposed convolutions, which have no loop for bools (the 1-D
# ones are the 2-D ones' parts) or, "integer", for integers either
_KERNELS = {"avg_pool2d": ("avg_pool2d", "bool input"), "avg_pool3d": ("avg_pool3d_out_frame", "bool input"),
            "max_pool1d": ("max_pool1d_impl", "integer"), "max_pool2d": ("max_pool2d", "bool input"),
            "max_pool3d": ("max_pool3d", "bool input"), "conv_transpose1d": ("slow_conv_transpose2d_out_cpu", "bool input"),
            "conv_transpose2d": ("slow_conv_transpose2d_out_cpu", "bool input"),
            "conv_transpose3d": ("slow_conv_transpose3d_out_cpu", "bool input")}


def _refusals(name: str) -> tuple[tuple[str, str, str], ...]:
    return kernel_refusal(*_KERNELS[name]) if name in _KERNELS else ()


def _conv_row(d: int, examples: Any, **fields: Any) -> list[Op]:
    forward = partial(_conv, d)
    return [composite(f"conv{d}d", 3, _conv_program(d), "ConvolutionBackward0", sympy=_on_symbols(forward),
                      shape=partial(_conv_shape, d), torch_node_rule=partial(_conv_node, d),
                      optional_args=((2, "bias", 0.0),), given_0d=_bias_0d(False), params=_CONV_PARAMS,
                      text=_conv_text(d), examples=examples, dtype_refusals=_CONV_DTYPES,
                      **fields),
            structural(f"conv{d}d_whole", 3, forward, partial(_conv_vjp, d), "ConvolutionBackward0",
                       jvp=partial(_conv_jvp, d), sympy=_on_symbols(forward), shape=partial(_conv_shape, d),
                       torch_node_rule=partial(_conv_node, d), optional_args=((2, "bias", 0.0),), params=_CONV_PARAMS,
                       given_0d=_bias_0d(False), text=_conv_text(d), examples=examples[:1], callable=False, reference=None,
                       dtype_refusals=_CONV_DTYPES)]


# --- conv_transpose1d/2d/3d ----------------------------------------------------------------------
# The transpose of a convolution: its input is the convolution's output and its forward the
# convolution's input cotangent (col2im); its input's cotangent is the convolution itself.


def _transpose_geometry(d: int, x: Shape, w: Shape, stride: Any = (1,), padding: Any = (0,),
                        output_padding: Any = (0,), groups: int = 1, dilation: Any = (1,), b: Shape | None = None
                        ) -> tuple[Geometry, tuple[int, ...]]:
    """The windows of the convolution that this one transposes (over its output), and the output's
    spatial sizes, the call checked in PyTorch's words."""
    batched, stride, padding, dilation, output_padding = _checked(d, x, w, b, f"conv_transpose{d}d", stride, padding,
                                                                  dilation, groups, output_padding)
    kernel = tuple(w[2:])
    out = tuple((n - 1) * s - 2 * p + r * (k - 1) + q + 1
                for n, s, p, r, k, q in zip(batched[2:], stride, padding, dilation, kernel, output_padding, strict=True))
    if min(out) <= 0:
        raise ValueError(f"Given input size per channel: ({' x '.join(map(str, batched[2:]))}). Calculated output size "
                         f"per channel: ({' x '.join(map(str, out))}). Output size is too small")
    # the convolution's windows over this one's output (padded), one per element of this one's input
    return Geometry(kernel, stride, dilation, padding, padding, tuple(batched[2:])), out


def _transpose_shape(d: int, x: Shape, w: Shape, b: Shape, **params: Any) -> Shape:
    geometry, out = _transpose_geometry(d, x, w, b=b, **params)
    n = x[0] if len(x) == d + 2 else 1
    channels = w[1] * params.get("groups", 1)  # (the output, padded, is made once for each place of a window)
    _check_windows(n * channels * max(math.prod(geometry.out), math.prod(out)) * math.prod(geometry.kernel),
                   f"conv_transpose{d}d")
    return (*x[: len(x) - d - 1], w[1] * params.get("groups", 1), *out)


class _Transposed(NamedTuple):
    geometry: Geometry
    out: tuple[int, ...]  # the output's spatial sizes
    batched: bool
    x: Any  # (..., N, G, C_in / G, *S)
    w: Any  # (..., G, C_in / G, C_out / G, *k)


def _transpose_parts(d: int, x: Any, w: Any, ranks: tuple[int, ...], groups: int = 1, **params: Any) -> _Transposed:
    xs, ws = np.shape(x), np.shape(w)
    point_x, point_w = xs[len(xs) - ranks[0]:], ws[len(ws) - ranks[1]:]
    geometry, out = _transpose_geometry(d, point_x, point_w, groups=groups, **params)
    batched = ranks[0] == d + 2
    n = point_x[0] if batched else 1
    x = np.reshape(x, (*xs[: len(xs) - ranks[0]], n, groups, point_x[-d - 1] // groups, *point_x[-d:]))
    w = np.reshape(w, (*ws[: len(ws) - ranks[1]], groups, point_w[0] // groups, *point_w[1:]))
    return _Transposed(geometry, out, batched, x, w)


def _transposed(d: int, x: Any, w: Any, ranks: tuple[int, ...], **params: Any) -> Any:
    """conv_transpose without its bias: each input element's weights put back over its window."""
    parts = _transpose_parts(d, x, w, ranks, **params)
    o, _ = _letters(d)
    out = _unwindow(lambda offsets: np.einsum(f"...ngc{o},...gce->...nge{o}", parts.x, parts.w[(Ellipsis, *offsets)]),
                    parts.geometry, parts.out)
    return _conv_out(_Conv(parts.geometry, parts.batched, parts.x, parts.w), out, d)


def _transpose(d: int, x: Array, w: Array, b: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    _transpose_shape(d, *_point_shapes(ranks, x, w, b), **params)
    return np.asarray(_with_bias(_transposed(d, x, w, ranks[:2], **params), b, ranks, d))


def _transpose_vjp(d: int, g: Array, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...],
                   **params: Any) -> tuple[Any, Any, Any]:
    parts = _transpose_parts(d, x, w, ranks[:2], **params)
    geometry, o, k = parts.geometry, *_letters(d)
    shape, g_shape = np.shape(parts.x), np.shape(g)
    g_lead = g_shape[: len(g_shape) - d - (2 if parts.batched else 1)]
    gs = np.reshape(g, (*g_lead, shape[-d - 3], shape[-d - 2], np.shape(parts.w)[-d - 1], *parts.out))
    windows = _windows(gs, geometry)  # (..., N, G, C_out / G, *S, *k)
    dx = np.einsum(f"...nge{o}{k},...gce{k}->...ngc{o}", windows, parts.w)
    dx = np.reshape(dx, np.shape(dx)[: np.ndim(dx) - d - 3] + np.shape(x)[np.ndim(x) - ranks[0]:])
    dw = np.einsum(f"...ngc{o},...nge{o}{k}->...gce{k}", parts.x, windows)
    dw = np.reshape(dw, np.shape(dw)[: np.ndim(dw) - d - 3] + np.shape(w)[np.ndim(w) - ranks[1]:])
    db = np.sum(g, axis=tuple(range(-d, 0)) + ((-d - 2,) if parts.batched else ()) + (() if ranks[2] else (-d - 1,)))
    return dx, dw, db


_transpose_jvp = _bilinear_jvp(_transposed)


_TRANSPOSE_DEFAULTS = {"stride": 1, "padding": 0, "output_padding": 0, "groups": 1, "dilation": 1}


def _transpose_text(d: int) -> Any:
    def text(args: list[str], **params: Any) -> str:
        bias = [] if args[2] in ("0", "0.0") else [args[2]]
        given = [f"{k}={v!r}" for k, v in params.items() if _given(v, _TRANSPOSE_DEFAULTS[k])]
        return f"conv_transpose{d}d({', '.join([args[0], args[1], *bias, *given])})"

    return text


def _transpose_row(d: int, examples: Any, **fields: Any) -> Op:
    forward = partial(_transpose, d)
    params = (Param("stride", "ints", (1,)), Param("padding", "ints", (0,)), Param("output_padding", "ints", (0,)),
              Param("groups", "int", 1), Param("dilation", "ints", (1,)))
    return structural(f"conv_transpose{d}d", 3, forward, partial(_transpose_vjp, d), "ConvolutionBackward0",
                      jvp=partial(_transpose_jvp, d), sympy=_on_symbols(forward), shape=partial(_transpose_shape, d),
                      torch_node_rule=partial(_conv_node, d), optional_args=((2, "bias", 0.0),), params=params,
                      given_0d=_bias_0d(True), text=_transpose_text(d), examples=examples,
                      # (its bias may be of any dtype in 1-D and 2-D: PyTorch's slow kernel adds it in the input's, dtype
                      # "first"; the 3-D kernel checks it)
                      dtype_refusals=(*_refusals(f"conv_transpose{d}d"),
                                      ("mixed 0 1", "RuntimeError", "expected scalar type {0} but found {1}"),
                                      *([("mixed 0 2", "RuntimeError", "expected scalar type {0} but found {2}")]
                                        if d == 3 else [])),
                      dtype="first", **fields)


def indices_row(name: str, node: str, forward: Callable[..., Any], vjp: Callable[..., Any], jvp: Callable[..., Any],
                indices: Callable[..., Any], shape: Callable[..., Any], params: tuple[Param, ...], examples: Any = (),
                reference: str = "", reference_program: str = "", program: Any = None, **fields: Any) -> Op:
    """The row of a pooling's call with return_indices=True: the tuple (values, indices), one part at a
    time (Op.parts); the indices are each taken element's place in its plane of the input (int64), with
    no gradient. Tested as sorting.py's tuple rows are: its values (part 0) at the examples of the row
    without indices, against that row's reference called with return_indices=True."""
    def part_forward(x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None, **given: Any) -> Array:
        return indices(x, ranks, **given) if part % 2 else forward(x, ranks, **given)

    def part_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None,
                 **given: Any) -> tuple[Any]:
        return (np.zeros_like(x),) if part % 2 else vjp(g, ans, x, ranks, **given)

    def part_jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None,
                 **given: Any) -> Any:
        return np.zeros_like(ans) if part % 2 else jvp(tangents, ans, x, ranks, **given)

    def part_shape(x: Shape, part: int = 0, of: Any = None, **given: Any) -> Shape:
        if of not in (None, 2) or not -2 <= part < 2:
            raise ValueError(f"{name} with return_indices=True gives 2 values (values, indices)")
        return shape(x, **{**given, "return_indices": True})

    def text(args: Any, part: int = 0, of: Any = None, **given: Any) -> str:
        said = [f"{p.name}={given[p.name]!r}" for p in params
                if p.name != "return_indices" and given.get(p.name, p.default) != p.default]
        return f"{name}({', '.join([args[0], *said])}, return_indices=True)[{part}]"

    def with_indices(call: str) -> str:  # F.max_pool2d(a, 2) -> F.max_pool2d(a, 2, return_indices=True)[0]
        return f"{call[:-1]}, return_indices=True)[0]"

    common = dict(shape=part_shape, parts=2, integer_parts=(1,), params=params, kinked=True, callable=False, text=text,
                  examples=tuple((shapes, {**given, "part": 0}) for shapes, given in examples),
                  reference=with_indices(reference), reference_program=with_indices(reference_program), **fields)
    if program is not None:  # a 1-D pooling: the 2-D row's parts over the unsqueezed input, as PyTorch records them
        return composite(f"{name}_with_indices", 1, program, node, sympy=None, **common)
    return structural(f"{name}_with_indices", 1, part_forward, part_vjp, node, jvp=part_jvp, **common)


# --- avg_pool1d/2d, max_pool1d/2d ------------------------------------------------------------------


def _pool_geometry(d: int, x: Shape, name: str, kernel_size: Any, stride: Any = None, padding: Any = (0,),
                   dilation: Any = (1,), ceil_mode: bool = False, **rest: Any) -> Geometry:
    """The windows of a 2-D or 3-D pooling (the 1-D ones are the 2-D ones over an unsqueezed input, _pool1d),
    its args checked in PyTorch's order and words (ValueError): the kernel's meta function (the settings'
    counts, the input's rank), then pooling_output_shape along each axis, then pool2d/pool3d_shape_check."""
    if d == 1:  # its own checks, then the 2-D pooling's over the input unsqueezed at -2
        if kernel_size is None:
            raise ValueError(f"{name}() missing required argument 'kernel_size'")
        _pool1d_checks(name, x, kernel_size, stride, padding, dilation, ceil_mode, rest.get("return_indices", False))
        wide = _pool_geometry(2, (*x[:-1], 1, x[-1]), name.replace("1d", "2d"), (1, *kernel_size),
                              (1, *(stride or kernel_size)), (0, *padding), (1, *dilation), ceil_mode, **rest)
        return Geometry(*(part[1:] for part in wide))
    average = name.startswith("avg")
    either = "" if average and d == 3 else "either "
    count = ("a single int", "a tuple of two ints" if d == 2 else "a tuple of three ints")
    if kernel_size is None:
        raise ValueError(f"{name}() missing required argument 'kernel_size'")
    if len(kernel_size) not in (1, d):
        raise ValueError(f"{name}: kernel_size must {either}be {count[0]}, or {count[1]}")
    if stride and len(stride) not in (1, d):
        raise ValueError(f"{name}: stride must {either}be omitted, {count[0]}, or {count[1]}")
    if len(padding) not in (1, d):
        raise ValueError(f"{name}: padding must {either}be {count[0]}, or {count[1]}")
    if not average and len(dilation) not in (1, d):
        raise ValueError(f"{name}: dilation must be either {count[0]}, or {count[1]}")
    kernel = _per_axis("kernel_size", kernel_size, d)
    stride = kernel if not stride else _per_axis("stride", stride, d)
    padding, dilation = _per_axis("padding", padding, d), _per_axis("dilation", dilation, d)
    if (not average or d == 3) and len(x) not in (d + 1, d + 2):
        raise ValueError(f"non-empty {d + 1}D or {d + 2}D (batch mode) tensor expected for input")
    if average and rest.get("divisor_override") == 0:
        raise ValueError("divisor must be not zero")
    if len(x) < d + 1:  # (avg_pool2d reads the channels' size first)
        rank = max(len(x), 1)
        raise DimError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {-d - 1})")
    size, out = x[-d:], []
    for length, k, s, p, r in zip(size, kernel, stride, padding, dilation, strict=True):  # pooling_output_shape
        if s == 0:
            raise ValueError("stride should not be zero")
        if p < 0:
            raise ValueError(f"pad must be non-negative, but got pad: {p}")
        if p > ((k - 1) * r + 1) // 2:
            raise ValueError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} "
                             f"and dilation={r}")
        span = r * (k - 1) + 1
        outs = (length + 2 * p - span + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (outs - 1) * s >= length + p:  # the last window must start inside the input or its padding
            outs -= 1
        out.append(outs)
    axes = "THW"[-d:]
    for what, values, short in (("kernel size", kernel, "k"), ("stride", stride, "d"), ("dilation", dilation, "dilation")):
        if min(values) <= 0:
            said = " ".join(f"{short}{axis}: {value}" for axis, value in zip(axes, values, strict=True))
            raise ValueError(f"{what} should be greater than zero, but got {said}")
    if d == 2:
        valid = x[1] != 0 and x[2] != 0
        if not ((len(x) == 3 and x[0] != 0 and valid) or (len(x) == 4 and valid and x[3] != 0)):
            raise ValueRefusal(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                               f"got:{list(x)}")
    else:
        kernel_name = "avg_pool3d()" if average else "max_pool3d_with_indices_out_cpu_template()"
        empty = next((axis for axis in range(len(x)) if x[axis] <= 0 and not (len(x) == 5 and axis == 0)), None)
        if empty is not None:
            raise ValueRefusal(f"{kernel_name}: Expected input's non-batch dimensions to have positive length, but "
                               f"input has a shape of {list(x)} and non-batch dimension {x[empty]} has length zero!")
        if average and any(n < k for n, k in zip(size, kernel, strict=True)):
            raise ValueError(f"input image (T: {size[0]} H: {size[1]} W: {size[2]}) smaller than kernel size "
                             f"(kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    if min(out) < 1:
        raise ValueError(f"Given input size: ({'x'.join(map(str, (x[-d - 1], *size)))}). Calculated output size: "
                         f"({'x'.join(map(str, (x[-d - 1], *out)))}). Output size is too small")
    after = tuple(max(p, (o - 1) * s + r * (k - 1) + 1 - length - p)
                  for o, s, r, k, length, p in zip(out, stride, dilation, kernel, size, padding, strict=True))
    return Geometry(kernel, stride, dilation, padding, after, tuple(out))


def _pool1d_checks(name: str, x: Shape, kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool,
                   indices: bool) -> None:
    """A 1-D pooling's own checks before the 2-D one it calls (whose checks follow, in its words): avg_pool1d's
    and max_pool1d_with_indices' (checkDimRange, check1d), or max_pool1d's (its values: check_max_pool1d)."""
    if name == "max_pool1d" and not indices:
        if not ((len(x) == 2 and x[0] != 0 and x[1] != 0) or (len(x) == 3 and x[1] != 0 and x[2] != 0)):
            raise ValueRefusal(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                               f"input, but got:{list(x)}")
        sizes = (("kernel_size", kernel_size, "an int, list of ints or tuple of ints"),
                 ("stride", stride, "None, an int, list of ints, or tuple of ints"),
                 ("padding", padding, "an int, list of ints, or tuple of ints"),
                 ("dilation", dilation, "an int, list of ints or tuple of ints"))
        for what, given, kinds in sizes:
            if given is not None and len(given) != 1 and not (what == "stride" and not given):
                raise ValueError(f"max_pool1d() {what} must be {kinds} of size 1 but got size {len(given)}")
        (k,), (p,), (r,) = kernel_size, padding, dilation
        s = stride[0] if stride else k
        for what, value, rule in (("kernel_size", k, k > 0), ("stride", s, s > 0)):
            if not rule:
                raise ValueError(f"max_pool1d() {what} must be greater than zero, but got {value}")
        if p < 0:
            raise ValueError(f"max_pool1d() padding must be non-negative, but got {p}")
        if p > k // 2:
            raise ValueError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                             f"kernel_size={k}")
        if r <= 0:
            raise ValueError(f"max_pool1d() dilation must be greater than zero, but got {r}")
        outs = (x[-1] + 2 * p - r * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
        if ceil_mode and (outs - 1) * s >= x[-1] + p:
            outs -= 1
        if outs <= 0:
            raise ValueError(f"max_pool1d() Invalid computed output size: {outs}")
        return
    if len(x) not in (2, 3):
        raise ValueError(f"Expected 2 to 3 dimensions, but got {len(x)}-dimensional tensor for argument #1 'self' "
                         f"(while checking arguments for {name})")
    for what, given in (("kernel_size", kernel_size), ("stride", stride or kernel_size), ("padding", padding),
                        ("dilation", dilation if name.startswith("max") else (1,))):
        if len(given) != 1:
            raise ValueError(f"{name}() argument '{what}' should contain one int (got {len(given)})")


def _pool_shape(d: int, name: str, x: Shape, **params: Any) -> Shape:
    geometry = _pool_geometry(d, x, name, **params)
    _check_windows(math.prod(x[:-d]) * math.prod(geometry.out) * math.prod(geometry.kernel), name)
    return (*x[:-d], *geometry.out)


def _divisor(geometry: Geometry, size: tuple[int, ...], count_include_pad: bool, divisor_override: int | None
             ) -> Array:
    """What each average divides by: its window's elements, within the padding or within the input
    (a window that ceil_mode lets run past the padding counts only what it covers)."""
    if divisor_override:
        return np.asarray(float(divisor_override))
    counts = []
    for o, s, k, p, length in zip(geometry.out, geometry.stride, geometry.kernel, geometry.before, size, strict=True):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, length + p)
        counts.append(end - start if count_include_pad else np.minimum(end, length) - np.maximum(start, 0))
    divisor = counts[0]
    for count in counts[1:]:
        divisor = np.multiply.outer(divisor, count)
    return np.asarray(divisor, dtype=float)


def _avg_parts(d: int, x: Any, ranks: tuple[int, ...], name: str, count_include_pad: bool = True,
               divisor_override: int | None = None, **params: Any) -> tuple[Geometry, Array]:
    size = np.shape(x)[-d:]
    geometry = _pool_geometry(d, np.shape(x)[np.ndim(x) - ranks[0]:], name, **params)
    return geometry, _divisor(geometry, size, count_include_pad, divisor_override)


def _avg_row(d: int, examples: Any, **fields: Any) -> Op:
    name = f"avg_pool{d}d"

    def forward(x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
        _pool_shape(d, name, *_point_shapes(ranks, x), **params)
        geometry, divisor = _avg_parts(d, x, ranks, name, **params)
        return np.asarray(np.sum(_windows(x, geometry), axis=tuple(range(-d, 0))) / divisor)

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Any]:
        geometry, divisor = _avg_parts(d, x, ranks, name, **params)
        share = g / divisor
        return (_unwindow(lambda offsets: share, geometry, np.shape(x)[-d:]),)

    params = [Param("kernel_size", "ints"), Param("stride", "ints"), Param("padding", "ints", (0,)),
              Param("ceil_mode", "bool", False), Param("count_include_pad", "bool", True)]
    if d == 1:
        return composite(name, 1, _pool1d("avg_pool2d"), "SqueezeBackward1", params=tuple(params), examples=examples,
                         dtype="keeps", **fields)
    params.append(Param("divisor_override", "int"))
    return structural(name, 1, forward, vjp, f"AvgPool{d}DBackward0", sympy=_on_symbols(forward),
                      shape=partial(_pool_shape, d, name), params=tuple(params), examples=examples, dtype="keeps",
                      dtype_refusals=_refusals(name), **fields)


def _pool1d(row: str) -> Any:
    """PyTorch's 1-D pooling: the 2-D one over the input unsqueezed at -2, squeezed back (so the graph is
    SqueezeBackward1 over the 2-D node over UnsqueezeBackward0, batched or not)."""
    name = row.replace("2d", "1d").removesuffix("_with_indices")

    def program(emit: Any, x: Any, kernel_size: Any = None, stride: Any = None, padding: Any = (0,),
                dilation: Any = (1,), **params: Any) -> Any:
        shape = emit.shape(x) if hasattr(emit, "shape") else None  # (SymPy's emit knows no shapes)
        if kernel_size is None:
            raise ValueError(f"{name}() missing required argument 'kernel_size'")
        if shape is not None:  # (its own checks; the 2-D pooling's follow in its words, as PyTorch's do)
            _pool1d_checks(name, shape, kernel_size, stride, padding, dilation, params.get("ceil_mode", False),
                           row.endswith("_with_indices"))
        widen = {"kernel_size": (1, *kernel_size), "stride": (1, *(stride or kernel_size)), "padding": (0, *padding)}
        if row.startswith("max"):
            widen["dilation"] = (1, *dilation)
        return emit("squeeze", emit(row, emit("unsqueeze", x, dim=-2), **params, **widen), dim=-2)

    return program


def _peaks(x: Any, geometry: Geometry) -> Array:
    """Which place of each window max pooling takes (an index into _offsets), by PyTorch's scan: a
    place is taken where its value is larger than the one taken so far, or NaN; the padding never
    (a window of -inf keeps its first place in the input). So ties go to the first, NaN to the last."""
    values = np.asarray(getattr(x, "primal", x))  # (the Hessian's dual numbers choose by their values)
    windows = _windows(values, geometry)
    inside = _windows(np.ones(values.shape[-len(geometry.kernel):], dtype=bool), geometry, False)
    index = np.full(np.shape(windows)[: windows.ndim - len(geometry.kernel)], -1)
    best = np.full(index.shape, -np.inf)
    for place, offsets in enumerate(_offsets(geometry)):
        key = (Ellipsis, *offsets)
        value = windows[key]
        taken = inside[key] & ((value > best) | np.isnan(value) | (index < 0))
        best, index = np.where(taken, value, best), np.where(taken, place, index)
    return index


def _picked(x: Any, geometry: Geometry, peaks: Array) -> Any:
    """x's elements at the places `peaks` (x's tangents too, or dual numbers)."""
    windows = _windows(x, geometry)
    picked: Any = None
    for place, offsets in enumerate(_offsets(geometry)):
        value = windows[(Ellipsis, *offsets)]
        picked = value if picked is None else np.where(peaks == place, value, picked)
    return picked


def _max_row(d: int, examples: Any, **fields: Any) -> Op:
    name = f"max_pool{d}d"

    def geometry_of(x: Any, ranks: tuple[int, ...], params: dict[str, Any]) -> Geometry:
        return _pool_geometry(d, np.shape(x)[np.ndim(x) - ranks[0]:], name, **params)

    def forward(x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
        _pool_shape(d, name, *_point_shapes(ranks, x), **params)
        geometry = geometry_of(x, ranks, params)
        return np.asarray(_picked(x, geometry, _peaks(x, geometry)))

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Any]:
        # the whole of each window's g to the one element it took
        geometry = geometry_of(x, ranks, params)
        peaks, places = _peaks(x, geometry), {offsets: i for i, offsets in enumerate(_offsets(geometry))}
        return (_unwindow(lambda offsets: np.where(peaks == places[offsets], g, 0.0), geometry, np.shape(x)[-d:]),)

    def jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> Any:
        geometry = geometry_of(x, ranks, params)
        return _picked(tangents[0], geometry, _peaks(x, geometry))

    def indices(x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
        geometry = geometry_of(x, ranks, params)
        places = np.asarray(_offsets(geometry)).reshape(-1, d)[_peaks(x, geometry)]  # (..., *out, d)
        flat: Any = 0
        for a in range(d):
            out = np.arange(geometry.out[a]).reshape((-1,) + (1,) * (d - 1 - a))
            along = out * geometry.stride[a] - geometry.before[a] + places[..., a] * geometry.dilation[a]
            flat = flat * np.shape(x)[a - d] + along
        return np.asarray(flat, dtype=np.int64)

    node = "SqueezeBackward1" if d == 1 else f"MaxPool{d}DWithIndicesBackward0"
    params = (Param("kernel_size", "ints"), Param("stride", "ints"), Param("padding", "ints", (0,)),
              Param("dilation", "ints", (1,)), Param("ceil_mode", "bool", False), Param("return_indices", "bool", False))
    shape = partial(_pool_shape, d, name)
    _WITH_INDICES.append(indices_row(name, node, forward, vjp, jvp, indices, shape, params, examples,
                                     fields["reference"], fields["reference_program"],
                                     program=_pool1d("max_pool2d_with_indices") if d == 1 else None, dtype="keeps",
                                     dtype_refusals=() if d == 1 else _refusals(name)))
    if d == 1:  # (its values alone: the 2-D pooling over the unsqueezed input, as PyTorch records it)
        return composite(name, 1, _pool1d("max_pool2d"), node, params=params, kinked=True, sympy=None, shape=shape,
                         with_indices=f"{name}_with_indices", examples=examples, dtype="keeps",
                         dtype_refusals=_refusals(name), **fields)
    return structural(name, 1, forward, vjp, node, jvp=jvp, shape=shape, params=params, kinked=True,
                      with_indices=f"{name}_with_indices", examples=examples, dtype="keeps",
                      dtype_refusals=_refusals(name),
                      **fields)


_WITH_INDICES: list[Op] = []  # the rows of max_pool1d/2d/3d with return_indices=True


ROWS: list[Op] = [
    *_conv_row(1, ((((1, 2, 4), (2, 2, 2), (2,)), {}),
                  (((2, 5), (2, 2, 3), (2,)), {"stride": (2,), "padding": (1,)}),
                  (((2, 2, 5), (4, 1, 2), (4,)), {"groups": 2, "dilation": (2,)}),
                  (((1, 2, 4), (3, 2, 2), (3,)), {"padding": "same"}),
                  (((2, 6), (1, 2, 3), (1,)), {"padding": "valid", "stride": (3,)})),
                  reference="F.conv1d(a, b)", reference_program="conv1d(a, b)"),
    *_conv_row(2, ((((1, 3, 3), (2, 1, 2, 2), (2,)), {}),
                  (((1, 2, 4, 3), (2, 2, 2, 2), (2,)), {"stride": (2, 1), "padding": (1, 0)}),
                  (((2, 4, 4), (2, 1, 3, 2), (2,)), {"groups": 2, "padding": "same", "dilation": (1, 2)}),
                  (((1, 1, 5, 5), (1, 1, 2, 2), (1,)), {"stride": (2,), "dilation": (2,)})),
                  reference="F.conv2d(a, b)", reference_program="F.conv2d(a, b)"),
    *_conv_row(3, ((((1, 2, 3, 3, 2), (2, 2, 2, 2, 1), (2,)), {}),
                  (((1, 2, 4, 3, 3), (2, 1, 2, 1, 2), (2,)), {"stride": (2, 1, 1), "padding": (1, 0, 1), "groups": 2}),
                  (((2, 3, 3, 4), (1, 2, 2, 2, 2), (1,)), {"padding": "same", "dilation": (1, 1, 2)})),
                  reference="F.conv3d(a, b)", reference_program="F.conv3d(a, b)"),
    _transpose_row(1, ((((1, 2, 3), (2, 3, 2), (3,)), {}),
                       (((1, 2, 4), (2, 2, 3), (4,)), {"stride": (2,), "padding": (1,), "output_padding": (1,),
                                                       "groups": 2, "dilation": (2,)}),
                       (((2, 3), (2, 1, 2), (1,)), {"stride": (3,)})),
                   reference="F.conv_transpose1d(a, b)", reference_program="F.conv_transpose1d(a, b)"),
    _transpose_row(2, ((((1, 2, 2, 3), (2, 1, 2, 2), (1,)), {"stride": (2, 1), "padding": (1, 0)}),
                       (((1, 2, 3, 2), (2, 2, 2, 1), (2,)), {"output_padding": (1, 0), "stride": (2, 3), "dilation": (1, 2)})),
                   reference="F.conv_transpose2d(a, b)", reference_program="F.conv_transpose2d(a, b)"),
    _transpose_row(3, ((((1, 2, 2, 2, 2), (2, 1, 2, 1, 2), (1,)), {"stride": (2,), "padding": (1,)}),
                       (((1, 2, 2, 1, 2), (2, 1, 1, 2, 2), (2,)), {"groups": 2, "output_padding": (1,), "stride": (2,)})),
                   reference="F.conv_transpose3d(a, b)", reference_program="F.conv_transpose3d(a, b)"),
    _avg_row(1, ((((2, 5),), {"kernel_size": (2,)}), (((1, 2, 5),), {"kernel_size": (3,), "stride": (1,)}),
                 (((2, 5),), {"kernel_size": (2,), "padding": (1,), "count_include_pad": False}),
                 (((1, 5),), {"kernel_size": (2,), "ceil_mode": True}),
                 (((1, 6),), {"kernel_size": (3,), "stride": (2,), "padding": (1,), "ceil_mode": True})),
                 reference="F.avg_pool1d(a, 2, 1)", reference_program="avg_pool1d(a, 2, 1)"),
    _avg_row(2, ((((1, 4, 4),), {"kernel_size": (2,)}), (((1, 1, 3, 5),), {"kernel_size": (2, 3), "stride": (1, 2)}),
                 (((1, 4, 5),), {"kernel_size": (3,), "stride": (2,), "padding": (1,), "ceil_mode": True,
                                 "count_include_pad": False}),
                 (((1, 3, 3),), {"kernel_size": (2,), "divisor_override": 3})),
                 reference="F.avg_pool2d(a, 2, 1)", reference_program="avg_pool2d(a, 2, 1)"),
    _avg_row(3, ((((1, 1, 4, 4, 4),), {"kernel_size": (2,)}),
                 (((1, 2, 3, 4, 5),), {"kernel_size": (2, 2, 3), "stride": (1, 2, 1), "padding": (1, 0, 1),
                                       "count_include_pad": False}),
                 (((1, 3, 4, 5),), {"kernel_size": (2,), "stride": (1,), "ceil_mode": True, "divisor_override": 3})),
                 reference="F.avg_pool3d(a, 2, 1)", reference_program="F.avg_pool3d(a, 2, 1)"),
    _max_row(1, ((((2, 5),), {"kernel_size": (2,)}), (((1, 2, 5),), {"kernel_size": (3,), "stride": (1,)}),
                 (((2, 6),), {"kernel_size": (2,), "padding": (1,), "dilation": (2,)}),
                 (((1, 5),), {"kernel_size": (2,), "ceil_mode": True})),
                 reference="F.max_pool1d(a, 2, 1, 1)", reference_program="max_pool1d(a, 2, 1, 1)"),
    _max_row(2, ((((1, 4, 4),), {"kernel_size": (2,)}), (((1, 1, 3, 5),), {"kernel_size": (2, 3), "stride": (1, 2)}),
                 (((1, 5, 5),), {"kernel_size": (3,), "stride": (2,), "padding": (1,), "ceil_mode": True}),
                 (((1, 5, 4),), {"kernel_size": (2,), "dilation": (2, 1)})),
                 reference="F.max_pool2d(a, 2, 1, 1)", reference_program="F.max_pool2d(a, 2, 1, 1)"),
    _max_row(3, ((((1, 1, 4, 4, 4),), {"kernel_size": (2,)}),
                 (((1, 2, 3, 4, 5),), {"kernel_size": (2, 2, 3), "stride": (1, 2, 1), "padding": (1, 0, 1)}),
                 (((1, 3, 5, 4),), {"kernel_size": (2,), "stride": (2,), "ceil_mode": True, "dilation": (1, 2, 1)})),
                 reference="F.max_pool3d(a, 2, 1, 1)", reference_program="F.max_pool3d(a, 2, 1, 1)"),
]
ROWS += _WITH_INDICES


# --- max_unpool1d/2d/3d: each value put back where max pooling took it, zeros elsewhere -------------


def _unpool_size(d: int, x: Shape, kernel_size: Any = None, stride: Any = None, padding: Any = (0,),
                 output_size: Any = None) -> tuple[int, ...]:
    """The output's spatial sizes, as F.max_unpool's _unpool_output_size finds them (ValueError in its words)."""
    _unpool_rank(d, x)
    if kernel_size is None:
        raise ValueError(f"max_unpool{d}d() missing required argument 'kernel_size'")
    kernel = _per_axis("kernel_size", kernel_size, d)
    stride = kernel if not stride else _per_axis("stride", stride, d)
    padding = _per_axis("padding", padding, d)
    default = [(size - 1) * s + k - 2 * p for size, s, k, p in zip(x[-d:], stride, kernel, padding, strict=True)]
    if output_size is None:
        return tuple(default)
    sizes = tuple(output_size)
    if len(sizes) == d + 2:
        sizes = sizes[2:]
    if len(sizes) != d:
        raise ValueError(f"output_size should be a sequence containing {d} or {d + 2} elements, but it has a length "
                         f"of '{len(sizes)}'")
    for axis, (size, s) in enumerate(zip(sizes, stride, strict=True)):
        if not default[axis] - s < size < default[axis] + s:
            raise ValueError(f'invalid output_size "{tuple(output_size)}" (dim {axis} must be between '
                             f"{default[axis] - s} and {default[axis] + s})")
    return sizes


def _unpool_rank(d: int, x: Shape) -> None:
    """F.max_unpool's input sizes read in Python (an IndexError), then its kernel's rank, in PyTorch's words: 1-D is
    max_unpool2d of the input unsqueezed at -1."""
    if len(x) < d:
        raise DimError("tuple index out of range")
    wide = max(d, 2)
    if len(x) + (d == 1) not in (wide + 1, wide + 2):
        raise ValueError(f"Input to max_unpooling{wide}d should be a {wide + 1}d or {wide + 2}d Tensor, but got a "
                         f"tensor with {len(x) + (d == 1)} dimensions.")


def _unpool_shape(d: int, x: Shape, idx: Shape, **params: Any) -> Shape:
    _unpool_rank(d, x)
    seen, seen_idx = (([*x, 1], [*idx, 1]) if d == 1 else (list(x), list(idx)))  # (as the 2-D kernel sees them)
    if tuple(idx) != tuple(x):
        raise ValueError(f"Expected shape of indices to be same as that of the input tensor ({seen}) but got "
                         f"indices tensor with shape: {seen_idx}")
    empty = next((axis for axis in range(1, len(seen)) if seen[axis] == 0), None)
    if empty is not None:
        raise ValueError(f"max_unpooling{max(d, 2)}d_forward_out_cpu(): Expected input to have non-zero size for "
                         f"non-batch dimensions, but got {seen} with dimension {empty} being empty.")
    out = _unpool_size(d, x, **params)
    if min(out, default=1) < 0:
        raise ValueError(f"max_unpooling: output_size must contain non-negative spatial dimensions, got {list(out)}")
    _check_windows(math.prod(x[:-d]) * math.prod(out), f"max_unpool{d}d")
    return (*x[:-d], *out)


def _unpool_sources(d: int, idx: Array, ranks: tuple[int, ...], shape: Shape, **params: Any) -> tuple[Array, Shape]:
    """Where each output element of each plane comes from (a place in the input's plane, -1: none), and the output's
    spatial sizes. Two values sent to one place: the last one stays (PyTorch's kernel leaves it unspecified)."""
    point = np.shape(idx)[np.ndim(idx) - ranks[1]:]
    out = _unpool_size(d, point, **params)
    total = math.prod(out)
    index = np.asarray(idx)
    if index.size and not np.all(np.mod(index, 1) == 0):
        raise ValueError("max_unpool's indices must be whole numbers")
    flat = np.broadcast_to(index.astype(np.int64), shape).reshape(-1, math.prod(point[-d:]))
    bad = (flat < 0) | (flat >= total)
    if bad.any():
        raise ValueError(f"Found an invalid max index: {flat[bad][0]} (output volumes are of size "
                         f"{'x'.join(map(str, out))})")
    sources = np.full((len(flat), total), -1)
    planes = np.repeat(np.arange(len(flat)), flat.shape[1])
    sources[planes, flat.reshape(-1)] = np.tile(np.arange(flat.shape[1]), len(flat))  # (NumPy: the last one assigned)
    return sources, out


def _unpool(d: int, x: Array, idx: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    _unpool_shape(d, *_point_shapes(ranks, x, idx), **params)
    shape = np.shape(x)
    sources, out = _unpool_sources(d, idx, ranks, shape, **params)
    planes = np.reshape(x, (len(sources), math.prod(shape[-d:])))  # (a batch of none: no planes)
    picked = planes[np.arange(len(sources))[:, None], np.maximum(sources, 0)]
    return np.reshape(np.where(sources >= 0, picked, 0.0), (*shape[:-d], *out))


def _unpool_vjp(d: int, g: Array, ans: Array, x: Array, idx: Array, ranks: tuple[int, ...],
                **params: Any) -> tuple[Array, None]:
    # PyTorch's: g gathered at the indices (a value sent where another stayed gets its g all the same)
    shape = np.shape(x)
    flat = np.broadcast_to(np.asarray(idx).astype(np.int64), shape).reshape(-1, math.prod(shape[-d:]))
    planes = np.reshape(np.broadcast_to(g, np.shape(ans)), (len(flat), math.prod(np.shape(ans)[-d:])))
    return np.reshape(planes[np.arange(len(flat))[:, None], flat], shape), None


def _unpool_jvp(d: int, tangents: Any, ans: Array, x: Array, idx: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    return np.zeros_like(ans) if tangents[0] is None else _unpool(d, tangents[0], idx, ranks, **params)


def _unpool_text(d: int) -> Any:
    def said(value: Any) -> str:  # (one size for every axis as one int: PyTorch's _pair((2,)) is refused)
        return repr(value[0] if isinstance(value, tuple) and len(value) == 1 else value)

    def text(args: list[str], **params: Any) -> str:
        given = [f"{k}={said(v) if k != 'output_size' else repr(v)}" for k, v in params.items()
                 if v is not None and k != "kernel_size" and v != (0,)]
        return f"max_unpool{d}d({', '.join([args[0], args[1], said(params.get('kernel_size')), *given])})"

    return text


def _unpool1d(emit: Any, x: Any, idx: Any, kernel_size: Any = None, stride: Any = None, padding: Any = (0,),
              output_size: Any = None) -> Any:
    # F.max_unpool1d: the 2-D unpooling of the input and the indices unsqueezed at -1, squeezed back
    shape = emit.shape(x)
    if kernel_size is None:
        raise ValueError("max_unpool1d() missing required argument 'kernel_size'")
    size = None if shape is None else _unpool_size(1, tuple(shape), kernel_size, stride, padding, output_size)
    widen = {"kernel_size": (*kernel_size, 1), "stride": (*(stride or kernel_size), 1), "padding": (*padding, 0),
             "output_size": None if size is None else (*size, 1)}
    return emit("squeeze", emit("max_unpool2d", emit("unsqueeze", x, dim=-1), emit("unsqueeze", idx, dim=-1), **widen),
                dim=-1)


_UNPOOL_PARAMS = (Param("kernel_size", "ints"), Param("stride", "ints"), Param("padding", "ints", (0,)),
                  Param("output_size", "ints"))
_UNPOOL_DOMAIN = ((-2.0, 2.0), (0.0, 0.0))  # (the tests sample index 0: one element a plane, sent to its first place)


def _unpool_row(d: int, examples: Any, reference: str, program: str) -> Op:
    fields: dict[str, Any] = dict(index_from=1, params=_UNPOOL_PARAMS, text=_unpool_text(d), examples=examples,
                                  reference=reference, reference_program=program, inputs=("input", "indices"),
                                  dtype="keeps", domain=_UNPOOL_DOMAIN,
                                  dtype_refusals=kernel_refusal(f"max_unpool{d}d") if d > 1 else ())
    if d == 1:
        return composite("max_unpool1d", 2, _unpool1d, "SqueezeBackward1", sympy=None,
                         shape=partial(_unpool_shape, 1), **fields)
    return structural(f"max_unpool{d}d", 2, partial(_unpool, d), partial(_unpool_vjp, d), f"MaxUnpool{d}DBackward0",
                      jvp=partial(_unpool_jvp, d),
                      sympy=lambda x, idx, **params: np.asarray(_unpool(d, x, idx, (np.ndim(x), np.ndim(idx)), **params),
                                                                dtype=object),
                      shape=partial(_unpool_shape, d), **fields)


ROWS += [
    _unpool_row(2, ((((1, 2, 1, 1), (1, 2, 1, 1)), {"kernel_size": (2,)}),
                    (((2, 1, 1), (2, 1, 1)), {"kernel_size": (3,), "stride": (2,), "output_size": (2, 4)}),
                    (((1, 1, 1, 1), (1, 1, 1, 1)), {"kernel_size": (2, 3), "padding": (0, 1)})),
                "F.max_unpool2d(a, b, 2)", "max_unpool2d(a, b, 2)"),
    _unpool_row(3, ((((1, 2, 1, 1, 1), (1, 2, 1, 1, 1)), {"kernel_size": (2,)}),
                    (((2, 1, 1, 1), (2, 1, 1, 1)), {"kernel_size": (2, 1, 3), "stride": (1,), "output_size": (2, 1, 3)})),
                "F.max_unpool3d(a, b, 2)", "max_unpool3d(a, b, 2)"),
    _unpool_row(1, ((((1, 2, 1), (1, 2, 1)), {"kernel_size": (2,)}),
                    (((3, 1), (3, 1)), {"kernel_size": (3,), "stride": (2,), "output_size": (2,)})),
                "F.max_unpool1d(a, b, 2)", "max_unpool1d(a, b, 2)"),
]


# --- F.unfold (im2col) and F.fold (col2im): an image's sliding blocks as columns, and back (Im2ColBackward0,
# Col2ImBackward0); each is the other's VJP -----------------------------------------------------------------------


def _blocks(x: Shape, size: Shape, kernel_size: Any, dilation: Any = (1,), padding: Any = (0,), stride: Any = (1,),
            name: str = "unfold") -> Geometry:
    """The sliding blocks over an image of spatial `size` (H, W), the args checked in PyTorch's words."""
    kernel = _blocks_pair("kernel_size", kernel_size)
    dilation, padding, stride = (_blocks_pair(n, v) for n, v in (("dilation", dilation), ("padding", padding),
                                                                 ("stride", stride)))
    if min(kernel) <= 0:
        raise ValueError(f"kernel size should be greater than zero, but got kernel_height: {kernel[0]} kernel_width: "
                         f"{kernel[1]}")
    if min(stride) <= 0:
        raise ValueError(f"stride should be greater than zero, but got stride_height: {stride[0]} stride_width: {stride[1]}")
    if min(dilation) <= 0:
        raise ValueError(f"dilation should be greater than zero, but got dilation_height: {dilation[0]} dilation_width: "
                         f"{dilation[1]}")
    if min(padding) < 0:
        raise ValueError(f"padding should be non-negative, but got pad_height: {padding[0]} pad_width: {padding[1]}")
    out = tuple((s + 2 * p - (d * (k - 1) + 1)) // st + 1
                for s, p, d, k, st in zip(size, padding, dilation, kernel, stride, strict=True))
    if min(out) < 1:
        raise ValueError(f"Given {'input with spatial size' if name == 'unfold' else 'output_size='}"
                         f"{tuple(size)}, kernel_size={kernel}, dilation={dilation}, padding={padding}, calculated "
                         f"shape of the array of sliding blocks as {out}, but its components must be at least one.")
    return Geometry(kernel, stride, dilation, padding, padding, out)


def _blocks_pair(name: str, value: Any) -> tuple[int, ...]:
    values = tuple(value)
    if len(values) == 1:
        return values * 2
    if len(values) != 2:
        raise ValueError(f"It is expected {name} equals to 2, but got size {len(values)}")
    return values


def _unfold_shape(x: Shape, kernel_size: Any = None, dilation: Any = (1,), padding: Any = (0,),
                  stride: Any = (1,)) -> Shape:
    # (PyTorch's im2col_shape_check reads input.size(1), then size(2) where size(1) is not 0, before its check)
    for dim in (1, 2):
        if len(x) <= dim:
            raise DimError(f"Dimension specified as {dim} but tensor has no dimensions" if not x else
                           f"Dimension out of range (expected to be in range of [{-len(x)}, {len(x) - 1}], but got {dim})")
        if not x[dim]:
            break
    if not ((len(x) == 3 and all(x)) or (len(x) == 4 and all(x[1:]))):
        raise ValueError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                         f"dimensions for input, but got: {list(x)}")
    geometry = _blocks(x, x[-2:], kernel_size, dilation, padding, stride)
    columns = x[-3] * math.prod(geometry.kernel)
    _check_windows(math.prod(x[:-3]) * columns * math.prod(geometry.out), "unfold")
    return (*x[:-3], columns, math.prod(geometry.out))


def _im2col(x: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    (point,) = _point_shapes(ranks, x)
    _unfold_shape(point, **params)
    shape = np.shape(x)
    geometry = _blocks(shape, shape[-2:], **params)
    windows = _windows(x, geometry)  # (..., C, oh, ow, kh, kw)
    lead = np.shape(windows)[:-4]
    columns = np.transpose(windows, (*range(len(lead)), len(lead) + 2, len(lead) + 3, len(lead), len(lead) + 1))
    return np.reshape(columns, (*lead[:-1], lead[-1] * math.prod(geometry.kernel), math.prod(geometry.out)))


def _col2im_parts(g: Any, geometry: Geometry, size: Shape) -> Any:
    """Columns (..., C kh kw, L) added back into images (..., C, *size): the blocks' sum where they overlap."""
    shape = np.shape(g)
    blocks: Any = np.reshape(g, (*shape[:-2], shape[-2] // math.prod(geometry.kernel), *geometry.kernel,
                                 *geometry.out))
    return _unwindow(lambda offsets: blocks[(Ellipsis, *offsets, slice(None), slice(None))], geometry, size)


def _im2col_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **params: Any) -> tuple[Any]:
    shape = np.shape(x)
    return (_col2im_parts(g, _blocks(shape, shape[-2:], **params), shape[-2:]),)


def _fold_shape(x: Shape, output_size: Any = None, kernel_size: Any = None, dilation: Any = (1,), padding: Any = (0,),
                stride: Any = (1,)) -> Shape:
    if len(x) not in (2, 3) or not all(x[-2:]):
        raise ValueError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                         f"dimensions for input, but got: {list(x)}")
    size = _blocks_pair("output_size", output_size)
    geometry = _blocks(x, size, kernel_size, dilation, padding, stride, name="fold")
    kernel = math.prod(geometry.kernel)
    if x[-2] % kernel:
        raise ValueError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
                         f"input.size(1)={x[-2]} and kernel_size={geometry.kernel}.")
    if x[-1] != math.prod(geometry.out):
        raise ValueError(f"Given output_size={tuple(size)}, kernel_size={geometry.kernel}, dilation={geometry.dilation}, "
                         f"padding={geometry.before}, stride={geometry.stride}, expected size of input's dimension 2 to "
                         f"match the calculated number of sliding blocks {geometry.out[0]} * {geometry.out[1]} = "
                         f"{math.prod(geometry.out)}, but got input.size(2)={x[-1]}.")
    _check_windows(math.prod(x), "fold")
    return (*x[:-2], x[-2] // kernel, *size)


def _col2im(x: Array, ranks: tuple[int, ...], output_size: Any = None, **params: Any) -> Array:
    (point,) = _point_shapes(ranks, x)
    _fold_shape(point, output_size, **params)
    size = _blocks_pair("output_size", output_size)
    return np.asarray(_col2im_parts(x, _blocks(np.shape(x), size, **params), size))


def _col2im_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], output_size: Any = None,
                **params: Any) -> tuple[Any]:
    return (_im2col(g, (ranks[0] + 1,), **params),)


_BLOCK_PARAMS = (Param("kernel_size", "ints"), Param("dilation", "ints", (1,)), Param("padding", "ints", (0,)),
                 Param("stride", "ints", (1,)))


def _blocks_text(name: str, first: tuple[str, ...]) -> Any:
    def text(args: list[str], **params: Any) -> str:
        said = [f"{k}={(v[0] if len(v) == 1 else v)!r}" for k, v in params.items()
                if k not in first and v != {"dilation": (1,), "padding": (0,), "stride": (1,)}.get(k)]
        leading = [repr(params[k][0] if len(params[k]) == 1 else params[k]) for k in first]
        return f"{name}({', '.join([args[0], *leading, *said])})"

    return text


ROWS += [
    structural("im2col", 1, _im2col, _im2col_vjp, "Im2ColBackward0", shape=_unfold_shape, params=_BLOCK_PARAMS,
               spellings=("unfold",), text=_blocks_text("unfold", ("kernel_size",)),
               sympy=lambda x, **params: np.asarray(_im2col(x, (np.ndim(x),), **params), dtype=object),
               examples=((((1, 1, 3, 3),), {"kernel_size": (2,)}), (((2, 3, 4),), {"kernel_size": (2, 1), "stride": (2,)}),
                         (((1, 2, 3, 4),), {"kernel_size": (2,), "dilation": (1, 2), "padding": (1,), "stride": (2, 1)})),
               reference="F.unfold(a, 2)", reference_program="unfold(a, 2)",
               dtype_refusals=kernel_refusal("im2col_out_cpu", "int"), dtype="keeps", saved_sizes=(-1, -2)),
    structural("col2im", 1, _col2im, _col2im_vjp, "Col2ImBackward0", shape=_fold_shape,
               params=(Param("output_size", "ints"), *_BLOCK_PARAMS), spellings=("fold",),
               text=_blocks_text("fold", ("output_size", "kernel_size")),
               sympy=lambda x, **params: np.asarray(_col2im(x, (np.ndim(x),), **params), dtype=object),
               examples=((((1, 4, 4),), {"output_size": (3,), "kernel_size": (2,)}),
                         (((4, 2),), {"output_size": (4, 2), "kernel_size": (2, 1), "stride": (2,)}),
                         (((1, 8, 8),), {"output_size": (3, 4), "kernel_size": (2,), "dilation": (1, 2), "padding": (1,),
                                         "stride": (2, 1)})),
               reference="F.fold(a, 3, 2)", reference_program="fold(a, 3, 2)",
               dtype_refusals=kernel_refusal("col2im_out_cpu", "int"), dtype="keeps"),
]
