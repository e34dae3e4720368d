"""The rows of torch.nn.functional's layers that are not losses: embedding, the shuffles of
pixels and channels (pixel_shuffle, pixel_unshuffle, channel_shuffle) and rms_norm.

The shuffles move elements and nothing else: each is a permutation of its input's elements at
one point, found once from the point's shape, and its VJP the inverse permutation. rms_norm is a
composite, PyTorch's own decomposition (x * rsqrt(mean(x ** 2) + eps), times the weight).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradcli.ops import float32
from gradcli.ops.conv import _point_shapes
from gradcli.ops.core import (
    Array,
    Dialect,
    DimError,
    Op,
    Param,
    PythonValueError,
    Shape,
    ValueRefusal,
    composite,
    elementwise,
    fma32,
    kernel_refusal,
    load_sympy,
    structural,
)
from gradcli.ops.indexing import index_checks
from gradcli.ops.nn import (
    MIXED_CPU,
    NORM_DTYPES,
    _layer_norm,
    _layer_norm_jvp,
    _layer_norm_shape,
    _layer_norm_vjp,
    _layer_parts,
    row_moments,
)

# --- the shuffles: permutations of a point's elements -----------------------------------------


def _pixel_shuffle_order(shape: Shape, upscale_factor: int) -> tuple[Array, Shape]:
    """Where each element of pixel_shuffle's output comes from (a flat index into the point), and
    the output's shape: (*, C r^2, H, W) -> (*, C, H r, W r)."""
    r = upscale_factor
    if len(shape) < 3:
        raise ValueError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                         f"{len(shape)} dimension(s)")
    if r <= 0:
        raise ValueError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *lead, c, h, w = shape
    if c % (r * r):
        raise ValueError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                         f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    k = len(lead)
    cells = np.arange(math.prod(shape)).reshape(*lead, c // (r * r), r, r, h, w)
    order = cells.transpose(*range(k), k, k + 3, k + 1, k + 4, k + 2)
    out = (*lead, c // (r * r), h * r, w * r)
    return order.reshape(-1), out


def _pixel_unshuffle_order(shape: Shape, downscale_factor: int) -> tuple[Array, Shape]:
    """pixel_unshuffle's: (*, C, H r, W r) -> (*, C r^2, H, W)."""
    r = downscale_factor
    if len(shape) < 3:
        raise ValueError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                         f"{len(shape)} dimension(s)")
    if r <= 0:
        raise ValueError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *lead, c, h, w = shape
    if h % r or w % r:
        which, size = ("height", h) if h % r else ("width", w)
        raise ValueError(f"pixel_unshuffle expects {which} to be divisible by downscale_factor, but input.size"
                         f"({-2 if which == 'height' else -1})={size} is not divisible by {r}")
    if not math.prod(shape):  # (PyTorch's kernel gives an empty input back, in its own shape: a clone)
        return np.arange(0), tuple(shape)
    k = len(lead)
    cells = np.arange(math.prod(shape)).reshape(*lead, c, h // r, r, w // r, r)
    order = cells.transpose(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return order.reshape(-1), (*lead, c * r * r, h // r, w // r)


def _channel_shuffle_order(shape: Shape, groups: int) -> tuple[Array, Shape]:
    """channel_shuffle's: (N, C, *) with C = g k, its channels read as (k, g) where they were (g, k)."""
    if len(shape) <= 2:
        raise ValueError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                         f"{list(shape)}")
    if groups <= 0:
        raise ValueError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    n, c, *rest = shape
    if c % groups:
        raise ValueError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    cells = np.arange(math.prod(shape)).reshape(n, groups, c // groups, *rest)
    return np.swapaxes(cells, 1, 2).reshape(-1), tuple(shape)


def _shuffle(order_of: Any, name: str, node: str, param: Param, examples: Any, reference: str, program: str) -> Op:
    """A row that permutes the elements of its input's point (order_of(point shape, param) -> (the
    source of each output element, the output's shape))."""
    key = param.name

    def parts(x: Any, rank: int, given: dict[str, Any]) -> tuple[Array, Shape, Shape]:
        lead = np.shape(x)[: np.ndim(x) - rank]
        order, out = order_of(np.shape(x)[np.ndim(x) - rank:], given[key])
        return order, tuple(lead), out

    def forward(x: Array, ranks: tuple[int, ...], **given: Any) -> Array:
        order, lead, out = parts(x, ranks[0], given)
        return np.reshape(np.take(np.reshape(x, (*lead, -1)), order, axis=-1), (*lead, *out))

    def vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], **given: Any) -> tuple[Array]:
        order, lead, _ = parts(x, ranks[0], given)
        back = np.argsort(order, kind="stable")
        return (np.reshape(np.take(np.reshape(g, (*lead, -1)), back, axis=-1), np.shape(x)),)

    def sympy(x: Array, **given: Any) -> Array:
        order, out = order_of(x.shape, given[key])
        return np.asarray(np.reshape(np.reshape(x, -1)[order], out), dtype=object)

    def backward_problem(shapes: list[Shape], flows: list[bool], given: list[bool], **params: Any) -> str | None:
        # PyTorch's pixel_unshuffle of none gives its input back, in its own shape: so the backward of a pixel_shuffle
        # of none gets a gradient of its output's shape, and that of a pixel_unshuffle shuffles one of the input's
        (x,) = shapes
        if math.prod(x) or not flows[0] or name == "channel_shuffle":
            return None
        try:
            got = order_of(x, params[key])[1] if name == "pixel_shuffle" else _pixel_shuffle_order(x, params[key])[1]
        except ValueError as problem:
            return str(problem)
        if tuple(got) == tuple(x):
            return None
        return f"Function {node} returned an invalid gradient at index 0 - got {list(got)} but expected shape " \
               f"compatible with {list(x)}"

    return structural(name, 1, forward, vjp, node, sympy=sympy, params=(param,), dtype="keeps",
                      shape=lambda x, **given: order_of(tuple(x), given[key])[1], examples=examples,
                      reference=reference, reference_program=program, inputs=("input",),
                      backward_problem=backward_problem)


ROWS: list[Op] = [
    _shuffle(_pixel_shuffle_order, "pixel_shuffle", "PixelShuffleBackward0", Param("upscale_factor", "int"),
             ((((1, 4, 2, 3),), {"upscale_factor": 2}), (((2, 1, 9, 1, 2),), {"upscale_factor": 3}),
              (((2, 1, 1),), {"upscale_factor": 1})), "F.pixel_shuffle(a, 2)", "pixel_shuffle(a, 2)"),
    _shuffle(_pixel_unshuffle_order, "pixel_unshuffle", "PixelUnshuffleBackward0", Param("downscale_factor", "int"),
             ((((1, 1, 4, 6),), {"downscale_factor": 2}), (((2, 2, 3, 3),), {"downscale_factor": 3})),
             "F.pixel_unshuffle(a, 2)", "pixel_unshuffle(a, 2)"),
    _shuffle(_channel_shuffle_order, "channel_shuffle", "ChannelShuffleBackward0", Param("groups", "int"),
             ((((1, 4, 3),), {"groups": 2}), (((2, 6, 2, 1),), {"groups": 3})), "F.channel_shuffle(a, 2)",
             "channel_shuffle(a, 2)"),
]


# --- embedding: rows of a weight picked by integer indices (EmbeddingBackward0) -----------------


class _Assertion(ValueRefusal):
    """F.embedding's own assert: Python's AssertionError."""

    kind = "AssertionError"


def _embedding_arg(name: str, position: int, kind: str) -> tuple[str, str]:
    """torch.embedding's TypeError, which F.embedding passes its args on to (after its own checks)."""
    return "TypeError", f"embedding(): argument '{name}' (position {position}) must be {kind}, not {{type}}"


# (aten's embedding checks its indices' dtype; F.embedding's max_norm renormalizes first, Interpreter.embedding)
_EMBEDDING_INDICES = (("index not long or int", "RuntimeError", "Expected tensor for argument #1 'indices' to have one "
                       "of the following scalar types: Long, Int; but got torch.{1}Tensor instead (while checking "
                       "arguments for embedding)"),)


def _embedding_parts(w: Any, idx: Array, ranks: tuple[int, ...], padding_idx: int | None
                     ) -> tuple[Shape, Array, int | None]:
    """(the batch axes of the two, the indices as (points, count), the padding index counted from 0)."""
    index_checks("embedding", np.shape(w)[np.ndim(w) - ranks[0]:], np.shape(idx)[np.ndim(idx) - ranks[1]:])
    rows = np.shape(w)[-2]
    if padding_idx is not None:
        if not -rows <= padding_idx < rows:  # (F.embedding's assert, before it counts a negative one from the end)
            raise _Assertion("Padding_idx must be within num_embeddings")
        padding_idx %= rows
    index = np.asarray(idx)
    if index.size and not np.all(np.mod(index, 1) == 0):
        raise ValueError("the embedding's indices must be whole numbers")
    index = index.astype(np.int64)
    index_checks("embedding", np.shape(w)[np.ndim(w) - ranks[0]:], np.shape(idx)[np.ndim(idx) - ranks[1]:], values=index)
    lead = np.broadcast_shapes(np.shape(w)[:-2], index.shape[: index.ndim - ranks[1]])
    points = math.prod(lead)
    flat = np.broadcast_to(index, lead + index.shape[index.ndim - ranks[1]:]).reshape(points, -1)
    return tuple(lead), flat, padding_idx


def _embedding(w: Array, idx: Array, ranks: tuple[int, ...], padding_idx: int | None = None,
               norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> Array:
    lead, flat, _ = _embedding_parts(w, idx, ranks, padding_idx)
    wide = np.broadcast_to(w, lead + np.shape(w)[-2:]).reshape(len(flat), *np.shape(w)[-2:])
    picked = wide[np.arange(len(flat))[:, None], flat]  # (points, count, D)
    return np.reshape(picked, lead + np.shape(idx)[np.ndim(idx) - ranks[1]:] + np.shape(w)[-1:])


def _embedding_vjp(g: Array, ans: Array, w: Array, idx: Array, ranks: tuple[int, ...], padding_idx: int | None = None,
                   norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> tuple[Array, None]:
    # embedding_backward: each picked row's g added into its row of the weight (a repeated index adds
    # up), none into the padding row; scale_grad_by_freq: each divided by how often its index comes
    lead, flat, padding = _embedding_parts(w, idx, ranks, padding_idx)
    rows, width = np.shape(w)[-2:]
    g = np.reshape(np.broadcast_to(g, np.shape(ans)), (len(flat), flat.shape[1], width))
    if scale_grad_by_freq:
        counts = np.stack([np.bincount(row, minlength=rows) for row in flat]) if flat.size else np.ones((len(flat), rows))
        g = g / np.take_along_axis(counts, flat, axis=1)[..., None]
    if padding is not None:
        g = np.where((flat == padding)[..., None], 0.0, g)
    cotangent = np.zeros_like(g, shape=(len(flat), rows, width))  # (a dual number's, for the Hessian)
    np.add.at(cotangent, (np.arange(len(flat))[:, None], flat), g)
    return np.reshape(cotangent, (*lead, rows, width)), None


def _embedding_jvp(tangents: Any, ans: Array, w: Array, idx: Array, ranks: tuple[int, ...], **params: Any) -> Array:
    if tangents[0] is None:
        return np.zeros_like(ans)
    return _embedding(tangents[0], idx, ranks, **params)


def _aten(rule: Any) -> Any:
    """A rule of F.embedding's row as torch.embedding (aten) calls it: its padding_idx compared with the indices as
    given, so that -1 (its default, which F.embedding passes for None), any other negative one and one past the
    rows mask no row (F.embedding's counts a negative one from the end and asserts it is in range)."""
    def aten(*args: Any, ranks: tuple[int, ...], padding_idx: int = -1, **params: Any) -> Any:
        rows = np.shape(args[-2])[-2]  # (the weight: (w, idx), (g, ans, w, idx), (tangents, ans, w, idx))
        padding = padding_idx if 0 <= padding_idx < rows else None
        return rule(*args, ranks=ranks, padding_idx=padding, **params)

    return aten


def _embedding_shape(w: Shape, idx: Shape, **params: Any) -> Shape:
    index_checks("embedding", w, idx)
    return (*tuple(idx), w[1])


ROWS += [
    structural("embedding", 2, _embedding, _embedding_vjp, "EmbeddingBackward0", jvp=_embedding_jvp, index_from=1,
               tensor_positions=(1, 0), inputs=("weight", "input"), dtype="keeps", shape=_embedding_shape,
               # (max_norm renormalizes the weight's rows in place, which `run` does before it calls the row
               # (Interpreter.embedding) and a formula cannot; sparse=True makes its gradient a sparse tensor: a clean
               # "not supported")
               params=(Param("padding_idx", "int", None, refused=_embedding_arg("padding_idx", 3, "int")),
                       Param("max_norm", "absent", why="it renormalizes the weight's rows in place, which a formula "
                                                       "cannot write; `gradcli run` does"),
                       Param("norm_type", "float", 2.0),
                       Param("scale_grad_by_freq", "bool", False, refused=_embedding_arg("scale_grad_by_freq", 4, "bool")),
                       Param("sparse", "absent", False, refused=_embedding_arg("sparse", 5, "bool"),
                             why="a sparse gradient: gradcli's are dense")),
               sympy=lambda w, idx, **params: np.asarray(np.take(w, np.asarray(idx, dtype=np.int64), axis=0), dtype=object),
               text=lambda args, **params: "embedding({}, {}{})".format(args[1], args[0], "".join(
                   f", {k}={v!r}" for k, v in params.items() if v not in (None, False, 2.0))),
               domain=((-2.0, 2.0), (0.0, 0.0)),  # (the tests sample index 0 everywhere)
               examples=((((4, 3), (2,)), {}), (((4, 2), (2, 3)), {"padding_idx": 1}), (((3, 2), ()), {})),
               reference="F.embedding(b, a)", reference_program="embedding(b, a)", dtype_refusals=_EMBEDDING_INDICES,
               dialects=(Dialect("torch", row="embedding_aten"),)),
    # torch.embedding, aten's own spelling: (weight, indices) in that order, and its padding_idx as aten reads it
    structural("embedding_aten", 2, _aten(_embedding), _aten(_embedding_vjp), "EmbeddingBackward0",
               jvp=_aten(_embedding_jvp), index_from=1, inputs=("weight", "indices"), dtype="keeps",
               shape=_embedding_shape, callable=False,
               params=(Param("padding_idx", "int", -1, refused=_embedding_arg("padding_idx", 3, "int")),
                       Param("scale_grad_by_freq", "bool", False, refused=_embedding_arg("scale_grad_by_freq", 4, "bool")),
                       Param("sparse", "absent", False, refused=_embedding_arg("sparse", 5, "bool"),
                             why="a sparse gradient: gradcli's are dense")),
               sympy=lambda w, idx, **params: np.asarray(np.take(w, np.asarray(idx, dtype=np.int64), axis=0), dtype=object),
               text=lambda args, **params: "torch.embedding({}, {}{})".format(args[0], args[1], "".join(
                   f", {k}={v!r}" for k, v in params.items() if v not in (-1, False))),
               domain=((-2.0, 2.0), (0.0, 0.0)),
               examples=((((4, 3), (2,)), {}), (((4, 2), (2, 3)), {"padding_idx": 1}), (((3, 2), ()), {})),
               reference="torch.embedding(a, b)", reference_program="torch.embedding(a, b)",
               dtype_refusals=_EMBEDDING_INDICES),
]


# --- rms_norm: x * rsqrt(mean(x ** 2 over the normalized dims) + eps), times the weight --------------


def _rms_program(emit: Any, x: Any, w: Any = None, normalized_shape: tuple[int, ...] = (),
                 eps: float | None = None) -> Any:
    # PyTorch's rms_norm_composite: eps=None is the input dtype's epsilon, and the weighted result is cast
    # back to the input's dtype (a float32 input times a float64 weight: ToCopyBackward0, float32)
    kind = emit.dtype(x)
    dims = tuple(range(-len(normalized_shape), 0))
    mean = emit("mean", emit("pow", x, 2.0), dim=dims, keepdim=True)
    epsilon = float(np.finfo(np.float32 if kind == "float32" else np.float64).eps) if eps is None else eps
    out = emit("mul", x, emit("rsqrt", emit("add_scalar", mean, other=epsilon)))
    if w is None:
        return out
    out = emit("mul", out, w)
    return emit("to_copy", out, dtype=kind) if kind and kind != emit.dtype(out) else out


def _rms_weighted(emit: Any, x: Any, w: Any, normalized_shape: tuple[int, ...] = (), eps: float | None = None) -> Any:
    return _rms_program(emit, x, w, normalized_shape, eps)


def _rms_shape(x: Shape, w: Shape | None = None, normalized_shape: tuple[int, ...] = (), eps: float | None = None
               ) -> Shape:
    k = len(normalized_shape)
    if len(x) < k:  # (torch.nn.functional's check, in Python)
        raise PythonValueError(f"Input tensor must have at least {k} dimensions, but got {len(x)}")
    if k == 0 or tuple(x[len(x) - k:]) != tuple(normalized_shape) or k > len(x):
        raise ValueError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                         f"[*{', '.join(map(str, normalized_shape))}], but got input of size{list(x)}")
    if w is not None and tuple(w) != tuple(normalized_shape):
        raise ValueError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                         f"{list(w)} and normalized_shape = {list(normalized_shape)}")
    return tuple(x)


_RMS_PARAMS = (Param("normalized_shape", "ints"), Param("eps", "float", None))

ROWS += [
    composite("rms_norm", 2, _rms_weighted, "MulBackward0", params=_RMS_PARAMS, shape=_rms_shape,
              tensor_positions=(0, 2), overloads=("rms_norm_unweighted",), inputs=("input", "weight"),
              examples=((((2, 3), (3,)), {"normalized_shape": (3,)}), (((2, 3), (2, 3)), {"normalized_shape": (2, 3),
                                                                                            "eps": 0.5})),
              reference="F.rms_norm(a, (3,), b)", reference_program="rms_norm(a, (3,), b)",
              dtype_refusals=kernel_refusal("rms_norm")),
    composite("rms_norm_unweighted", 1, _rms_program, "MulBackward0", params=_RMS_PARAMS, shape=_rms_shape,
              callable=False, inputs=("input",),
              text=lambda args, normalized_shape=(), eps=None: "rms_norm({}, {}{})".format(
                  args[0], tuple(normalized_shape), "" if eps is None else f", eps={eps!r}"),
              examples=((((2, 3),), {"normalized_shape": (3,)}), (((4,),), {"normalized_shape": (4,), "eps": 0.25})),
              reference="F.rms_norm(a, (3,))", reference_program="rms_norm(a, (3,))",
              dtype_refusals=kernel_refusal("rms_norm")),
]



# --- batch_norm: each channel normalized over the batch and the spatial axes (NativeBatchNormBackward0) ---


def _channel(v: Any, rank: int, x_rank: int) -> Any:
    """A per-channel value (C,) (or the number that stands in for one left out) laid out against an
    input (N, C, *S) of `x_rank` point axes: (..., 1, C, 1, ...)."""
    shape = np.shape(v)
    lead = shape[: len(shape) - rank]
    return np.reshape(v, (*lead, 1, shape[-1] if rank else 1, *(1,) * (x_rank - 2)))


def _batch_axes(rank: int) -> tuple[int, ...]:
    """The point axes a channel's statistics run over: all but the channel axis (1), from the end."""
    return tuple(axis for axis in range(-rank, 0) if axis != 1 - rank)


def _per_channel_sum(v: Any, rank: int, w_rank: int) -> Any:
    """v (..., N, C, *S) summed to the channel's (..., C), or to a number for a weight left out. Axes of size 1 (a
    sum already taken, keepdims) are dropped, not summed: NumPy's sum starts from +0 and would lose a -0."""
    axes = _batch_axes(rank)
    summed = isinstance(v, np.ndarray) and all(np.shape(v)[a] == 1 for a in axes)
    total = np.squeeze(v, axis=axes) if summed else np.sum(v, axis=axes)
    return total if w_rank else np.sum(total, axis=-1)


def _empty_batch_check(x: Shape, training: bool, eps: float) -> None:
    """F.batch_norm's own checks, which hold before its empty input's way (the batch size: of its first axis and
    those after the channels')."""
    if training and x and x[0] * math.prod(x[2:]) == 1:
        raise PythonValueError(f"Expected more than 1 value per channel when training, got input size "
                               f"torch.Size({list(x)})")
    if training and eps <= 0.0:
        raise PythonValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise PythonValueError(f"batch_norm eps must be non-negative, but got {eps}")


def _batch_check(x: Shape, rm: Shape, rv: Shape, w: Shape, b: Shape, training: bool, eps: float,
                 functional: bool) -> None:
    """The call's shapes in PyTorch's words (ValueError); `functional`: F.batch_norm's own checks too, else
    native_batch_norm's: its input's size(1) (a vector's IndexError; an empty one in evaluation it gives back, and a
    0-d input fails inside PyTorch: gradcli's words for those), its running statistics read as vectors."""
    if not functional and len(x) == 1 and (training or x[0]):
        raise DimError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    if len(x) < 2:
        raise ValueError(f"batch_norm expects an input of at least 2 dims (N, C, ...), got one of shape {list(x)}")
    channels = x[1]
    if not functional and not math.prod(x):  # (F.batch_norm takes an empty batch: x itself)
        raise ValueError(f"input tensor must have at least one element, but got input_sizes = {list(x)}")
    if functional and training and x[0] * math.prod(x[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size torch.Size({list(x)})")
    if functional and training and eps <= 0.0:  # (torch.nn.functional's: Python's ValueError)
        raise PythonValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if functional and eps < 0.0:
        raise PythonValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if not training and not (rm and rv):
        raise ValueError("running_mean must be defined in evaluation mode")
    for name, shape in (("weight", w), ("bias", b), ("running_mean", rm), ("running_var", rv)):
        if not functional and shape and len(shape) != 1 and name.startswith("running"):
            raise ValueRefusal(f"TensorAccessor expected 1 dims but tensor has {len(shape)}")
        if shape and math.prod(shape) != channels:
            raise ValueError(f"{name} should contain {channels} elements not {math.prod(shape)}")


def _running_total(x: Array, axes: tuple[int, ...]) -> Array:
    """The sum over `axes` (kept) of x's elements added one after another in their order, as a C loop adds them."""
    moved = np.moveaxis(x, axes, range(np.ndim(x) - len(axes), np.ndim(x)))
    flat = np.reshape(moved, (*np.shape(moved)[:np.ndim(x) - len(axes)], -1))
    total = np.cumsum(flat, axis=-1)[..., -1]
    return np.expand_dims(total, axes)


def _batch_stats(x: Any, rm: Any, rv: Any, ranks: tuple[int, ...], training: bool, eps: float) -> tuple[Any, Any]:
    """The mean and 1 / sqrt(var + eps) each channel is normalized with, laid out against x."""
    rank = ranks[0]
    if training:
        axes = _batch_axes(rank)
        if not math.prod(np.shape(x)[a] for a in axes):  # an empty batch: x itself, scaled and shifted (PyTorch's)
            stats = np.zeros(np.shape(np.sum(x, axis=axes, keepdims=True)))
            return stats, stats + 1.0
        count = math.prod(np.shape(x)[a] for a in axes)
        if not (isinstance(x, np.ndarray) and x.dtype.kind == "f") or count == np.shape(x)[-rank]:
            # (dual numbers for a Hessian; an (N, C) or (N, C, 1 ...) input, PyTorch's channels-last kernel)
            mean = np.mean(x, axis=axes, keepdims=True)
            centred = x - mean
            return mean, 1.0 / np.sqrt(np.mean(centred * centred, axis=axes, keepdims=True) + eps)
        # PyTorch's contiguous CPU kernel (batch_norm_cpu_collect_stats): the sum in double, the mean rounded to
        # x's dtype; the squares of x - mean in x's dtype summed in double and rounded, divided by the count in
        # x's dtype; 1 / sqrt(var + eps) in double, rounded
        kind = x.dtype
        if kind == np.float64:  # (its loops add each channel's elements one after another: NumPy's cumsum's order)
            mean = _running_total(x, axes) / count
            centred = x - mean
            squares = _running_total(centred * centred, axes)
            return mean, 1.0 / np.sqrt(squares / count + eps)
        mean = (np.sum(x, axis=axes, keepdims=True, dtype=np.float64) / count).astype(kind)
        centred = x - mean
        squares = np.sum(centred * centred, axis=axes, keepdims=True, dtype=np.float64).astype(kind)
        variance = (squares / kind.type(count)).astype(kind)
        return mean, (1.0 / np.sqrt(variance.astype(np.float64) + eps)).astype(kind)
    return _channel(rm, ranks[1], rank), 1.0 / np.sqrt(_channel(rv, ranks[2], rank) + eps)


def _batch_norm(x: Array, rm: Array, rv: Array, w: Array, b: Array, ranks: tuple[int, ...], training: bool = False,
                momentum: float = 0.1, eps: float = 1e-5, functional: bool = True) -> Array:
    sx, sm, sv, sw, sb = _point_shapes(ranks, x, rm, rv, w, b)
    if functional and sx and not math.prod(sx):  # (F.batch_norm's way, the batch_norm row's parts: x as it is)
        _empty_batch_check(sx, training, eps)
        return np.asarray(x * 1.0)
    _batch_check(sx, sm, sv, sw, sb, training, eps, functional)
    mean, invstd = _batch_stats(x, rm, rv, ranks, training, eps)
    # PyTorch's kernel: x alpha + beta, alpha = invstd w and beta = b - mean alpha per channel (its roundings),
    # x alpha + beta fused (its vectorised loop is compiled to fmadd)
    alpha = invstd * _channel(w, ranks[3], ranks[0])
    bias = _channel(b, ranks[4], ranks[0])
    if all(isinstance(v, np.ndarray) and v.dtype == np.float64 for v in (x, alpha, mean)):
        # (float64: b - mean alpha fused too, as its compiler fuses it)
        return np.asarray(float32.fma64(x, alpha, float32.fma64(-mean, alpha, bias)))
    beta = bias - mean * alpha
    if all(isinstance(v, np.ndarray) and v.dtype == np.float32 for v in (x, alpha, beta)):
        return np.asarray(fma32(x, alpha, beta))
    return np.asarray(x * alpha + beta)


def _batch_norm_vjp(g: Array, ans: Array, x: Array, rm: Array, rv: Array, w: Array, b: Array, ranks: tuple[int, ...],
                    training: bool = False, momentum: float = 0.1, eps: float = 1e-5,
                    functional: bool = True) -> tuple[Any, None, None, Any, Any]:
    # PyTorch's kernel (batch_norm_cpu_backward): from the sum of g and the dot product of x - mean with g, per
    # channel, dx = (g - (x - mean) k - sum / count) invstd w in training (the statistics depend on x too)
    rank = ranks[0]
    if not np.size(x):  # (an empty batch: nothing to sum)
        return np.zeros(np.shape(x)), None, None, np.zeros(np.shape(w)), np.zeros(np.shape(b))
    mean, invstd = _batch_stats(x, rm, rv, ranks, training, eps)
    g = np.broadcast_to(g, np.shape(ans))
    centred = x - mean
    axes = _batch_axes(rank)
    total, dot = np.sum(g, axis=axes, keepdims=True), np.sum(centred * g, axis=axes, keepdims=True)
    w = _channel(w, ranks[3], rank)
    if training:
        count = math.prod(np.shape(x)[np.ndim(x) - rank + a] for a in (0, *range(2, rank)))
        dx = (g - centred * (dot * invstd * invstd / count) - total / count) * invstd * w
    else:
        dx = g * invstd * w
    return (dx, None, None, _per_channel_sum(dot * invstd, rank, ranks[3]), _per_channel_sum(total, rank, ranks[4]))


def _batch_norm_jvp(tangents: Any, ans: Array, x: Array, rm: Array, rv: Array, w: Array, b: Array,
                    ranks: tuple[int, ...], training: bool = False, momentum: float = 0.1, eps: float = 1e-5,
                    functional: bool = True) -> Any:
    rank = ranks[0]
    mean, invstd = _batch_stats(x, rm, rv, ranks, training, eps)
    xhat = (x - mean) * invstd
    tx, _, _, tw, tb = tangents
    out = 0.0 * xhat
    if tx is not None:
        if training:
            axes = _batch_axes(rank)
            tx = tx - np.mean(tx, axis=axes, keepdims=True) - xhat * np.mean(tx * xhat, axis=axes, keepdims=True)
        out = out + tx * invstd * _channel(w, ranks[3], rank)
    if tw is not None:
        out = out + xhat * _channel(tw, ranks[3], rank)
    return out if tb is None else out + _channel(tb, ranks[4], rank)


def _batch_norm_shape(x: Shape, rm: Shape, rv: Shape, w: Shape, b: Shape, training: bool = False,
                      momentum: float = 0.1, eps: float = 1e-5, functional: bool = True) -> Shape:
    if functional and x and not math.prod(x):  # (the batch_norm row's parts check the weight and bias)
        _empty_batch_check(tuple(x), training, eps)
        return tuple(x)
    _batch_check(x, rm, rv, w, b, training, eps, functional)
    return tuple(x)


def _batch_norm_text(args: list[str], training: bool = False, momentum: float = 0.1, eps: float = 1e-5,
                     functional: bool = True) -> str:
    optional = [f"{key}={arg}" for key, arg, left_out in (("weight", args[3], ("1", "1.0")), ("bias", args[4], ("0", "0.0")))
                if arg not in left_out]
    said = [f"{k}={v!r}" for k, v, default in (("training", training, False), ("momentum", momentum, 0.1),
                                               ("eps", eps, 1e-5)) if v != default]
    running = args[1:3] if args[1] not in ("0", "0.0") else ["None", "None"]
    return f"batch_norm({', '.join([args[0], *running, *optional, *said])})"


_BATCH_PARAMS = (Param("training", "bool", False), Param("momentum", "float", 0.1), Param("eps", "float", 1e-5))
_BATCH_OPTIONAL = ((1, "running_mean", 0.0), (2, "running_var", 1.0), (3, "weight", 1.0), (4, "bias", 0.0))
_BATCH_FLOATS_ONLY = (("integer", "NotImplementedError", "\"batch_norm\" not implemented for '{0}'"),)
_BATCH_EXAMPLES = ((((3, 2), (2,), (2,), (2,), (2,)), {"training": True}),
                   (((2, 3, 2), (3,), (3,), (3,), (3,)), {"eps": 0.25}),
                   (((2, 2, 2, 1), (2,), (2,), (2,), (2,)), {"training": True, "momentum": 0.5}))
_BATCH_REFUSALS = (*_BATCH_FLOATS_ONLY, ("mixed params 3 4 1 2", "RuntimeError", MIXED_CPU),
                   ("mixed", "RuntimeError", "expected scalar type {0} but found {odd}"))


def _batch_norm_program(emit: Any, x: Any, rm: Any, rv: Any, w: Any, b: Any, training: bool = False,
                        momentum: float = 0.1, eps: float = 1e-5) -> Any:
    """F.batch_norm: NativeBatchNormBackward0; of an empty input, PyTorch's at::_batch_norm_impl_index way, which
    keeps the graph from the weight and bias: x cloned, times weight[0], plus bias[0] (CloneBackward0, MulBackward0,
    AddBackward0 over SelectBackward0), the running statistics untouched."""
    shape = emit.shape(x)
    if shape is None or not shape or math.prod(shape):  # (over --points, where the shapes are not known: the node)
        return emit("batch_norm_whole", x, rm, rv, w, b, training=training, momentum=momentum, eps=eps)
    _empty_batch_check(tuple(shape), training, eps)
    out = emit("clone", x)
    if emit.given(w):
        out = emit("mul", out, emit("select", w, dim=0, index=0))
    return emit("add", out, emit("select", b, dim=0, index=0)) if emit.given(b) else out


ROWS += [
    structural("batch_norm_whole", 5, _batch_norm, _batch_norm_vjp, "NativeBatchNormBackward0", jvp=_batch_norm_jvp,
               conditions=(1, 2), optional_args=_BATCH_OPTIONAL, params=_BATCH_PARAMS, shape=_batch_norm_shape,
               inputs=("input", "running_mean", "running_var", "weight", "bias"), text=_batch_norm_text,
               domain=((-2.0, 2.0), (-1.0, 1.0), (0.5, 2.0)), examples=_BATCH_EXAMPLES, callable=False, reference=None,
               dtype_refusals=_BATCH_REFUSALS),
    composite("batch_norm", 5, _batch_norm_program, "NativeBatchNormBackward0", sympy=None, conditions=(1, 2),
              optional_args=_BATCH_OPTIONAL, params=_BATCH_PARAMS, shape=_batch_norm_shape,
              inputs=("input", "running_mean", "running_var", "weight", "bias"), text=_batch_norm_text,
              domain=((-2.0, 2.0), (-1.0, 1.0), (0.5, 2.0)), examples=_BATCH_EXAMPLES,
              reference="F.batch_norm(a, b, c, training=True)", reference_program="batch_norm(a, b, c, training=True)",
              dtype_refusals=_BATCH_REFUSALS),
]


# native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps) -> (out, save_mean,
# save_invstd): the batch's mean and 1 / sqrt(var + eps) per channel in training (empty in evaluation), no gradient
# flowing from them (PyTorch's derivative reads the output's alone); _native_batch_norm_legit the same.


def _no_bias(b: Any, rank: int) -> bool:
    """Is native_batch_norm's bias empty? PyTorch's kernel reads one of no elements as none (its values are those of
    a bias left out), while its node keeps the edge to it (and its backward refuses a gradient into it)."""
    return rank > 0 and not math.prod(np.shape(b)[np.ndim(b) - rank:])


def _native_batch(node: str, name: str) -> Op:
    def forward(x: Array, w: Array, b: Any, rm: Array, rv: Array, ranks: tuple[int, ...], training: bool = False,
                momentum: float = 0.1, eps: float = 1e-5, part: int = 0, of: Any = None) -> Array:
        if _no_bias(b, ranks[2]):
            b, ranks = 0.0, (*ranks[:2], 0, *ranks[3:])
        order = (ranks[0], ranks[3], ranks[4], ranks[1], ranks[2])
        if part % 3 == 0:
            return _batch_norm(x, rm, rv, w, b, order, training, momentum, eps, functional=False)
        sx, sm, sv, sw, sb = _point_shapes(order, x, rm, rv, w, b)
        _batch_check(sx, sm, sv, sw, sb, training, eps, False)
        lead = np.shape(x)[: np.ndim(x) - ranks[0]]
        if not training:
            return np.zeros((*lead, 0))
        mean, invstd = _batch_stats(x, rm, rv, order, True, eps)
        stat = mean if part % 3 == 1 else invstd
        return np.reshape(stat, (*lead, np.shape(x)[np.ndim(x) - ranks[0] + 1]))

    def vjp(g: Array, ans: Array, x: Array, w: Array, b: Any, rm: Array, rv: Array, ranks: tuple[int, ...],
            part: int = 0, of: Any = None, **params: Any) -> tuple[Any, ...]:
        if part % 3:
            return None, None, None, None, None
        empty = _no_bias(b, ranks[2])  # (PyTorch's backward refuses a gradient into it: backward_problem)
        if empty:
            b, ranks = 0.0, (*ranks[:2], 0, *ranks[3:])
        dx, _, _, dw, db = _batch_norm_vjp(g, ans, x, rm, rv, w, b, (ranks[0], ranks[3], ranks[4], ranks[1], ranks[2]),
                                           functional=False, **params)
        return dx, dw, None if empty else db, None, None

    def jvp(tangents: Any, ans: Array, x: Array, w: Array, b: Any, rm: Array, rv: Array, ranks: tuple[int, ...],
            part: int = 0, of: Any = None, **params: Any) -> Any:
        if part % 3:
            return np.zeros_like(ans)
        tx, tw, tb, _, _ = tangents
        if _no_bias(b, ranks[2]):
            b, tb, ranks = 0.0, None, (*ranks[:2], 0, *ranks[3:])
        return _batch_norm_jvp((tx, None, None, tw, tb), ans, x, rm, rv, w, b,
                               (ranks[0], ranks[3], ranks[4], ranks[1], ranks[2]), functional=False, **params)

    def shape(x: Shape, w: Shape, b: Shape, rm: Shape, rv: Shape, training: bool = False, momentum: float = 0.1,
              eps: float = 1e-5, part: int = 0, of: Any = None) -> Shape:
        if of not in (None, 3) or not -3 <= part < 3:
            raise ValueError(f"{name} gives 3 values (output, save_mean, save_invstd)")
        _batch_check(x, rm, rv, w, () if b and not math.prod(b) else b, training, eps, False)
        return tuple(x) if part % 3 == 0 else ((x[1],) if training else (0,))

    def text(args: list[str], training: bool = False, momentum: float = 0.1, eps: float = 1e-5, part: int = 0,
             of: Any = None) -> str:
        return f"{name}({', '.join(args)}, {training}, {momentum!r}, {eps!r})[{part}]"

    def backward_problem(shapes: list[Shape], flows: list[bool], given: list[bool], **params: Any) -> str | None:
        # (an empty bias, which the forward read as none: PyTorch's backward gives it a gradient per channel)
        x, b = shapes[0], shapes[2]
        if len(flows) > 2 and flows[2] and given[2] and b and not math.prod(b) and len(x) > 1:
            return (f"Function {node} returned an invalid gradient at index 2 - got [{x[1]}] but expected shape "
                    f"compatible with {list(b)}")
        return None

    return structural(name, 5, forward, vjp, node, jvp=jvp, conditions=(3, 4), params=_BATCH_PARAMS, shape=shape,
                      backward_problem=backward_problem,
                      dtype_refusals=(*_BATCH_FLOATS_ONLY, ("mixed params 1 2 3 4", "RuntimeError", MIXED_CPU),
                                      ("mixed", "RuntimeError", "expected scalar type {0} but found {odd}")), parts=3, detached_parts=(1, 2), text=text, inputs=("input", "weight", "bias", "running_mean",
                                                                          "running_var"),
                      optional_args=((1, "weight", 1.0), (2, "bias", 0.0), (3, "running_mean", 0.0),
                                     (4, "running_var", 1.0)),
                      domain=((-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0), (-1.0, 1.0), (0.5, 2.0)),
                      examples=((((3, 2), (2,), (2,), (2,), (2,)), {"training": True, "part": 0}),
                                (((2, 3, 2), (3,), (3,), (3,), (3,)), {"eps": 0.25, "part": 0})),
                      reference=f"torch.{name}(a, b, c, d, f, True, 0.1, 1e-5)[0]",
                      reference_program=f"{name}(a, b, c, d, f, True, 0.1, 1e-5)[0]")


ROWS += [_native_batch("NativeBatchNormBackward0", "native_batch_norm"),
         _native_batch("NativeBatchNormLegitBackward0", "_native_batch_norm_legit")]


# --- group_norm: each sample's channels in groups, each group normalized over its channels and the spatial axes
# (NativeGroupNormBackward0); native_group_norm gives the groups' mean and rstd too, and they take their gradients
# (PyTorch's backward takes theirs only where the output's and both of theirs come in: the gradient of a program
# that uses the mean or the rstd without the others is none there) ------------------------------------------------


def _group_check(x: Shape, w: Shape, b: Shape, num_groups: int, channels: int | None = None) -> None:
    """PyTorch's check_group_norm_inputs, of the input's channels (native_group_norm's: its C, `channels`)."""
    if channels is None and len(x) < 2:
        raise ValueError(f"Expected at least 2 dimensions for input tensor but received {len(x)}")
    channels = x[1] if channels is None else channels
    if num_groups <= 0 or channels % num_groups:
        raise ValueError(f"Expected number of channels in input to be divisible by num_groups, but got input of shape "
                         f"{list(x)} and num_groups={num_groups}")
    for name, shape in (("weight", w), ("bias", b)):
        if shape and tuple(shape) != (channels,):  # (PyTorch's bias message shows the weight's shape, where one is given)
            shown = list(w) if name == "bias" and w else list(shape)
            raise ValueError(f"Expected {name} to be a vector of size equal to the number of channels in input, but got "
                             f"{name} of shape {shown} and input of shape {list(x)}")


def _grouped(x: Any, rank: int, groups: int) -> tuple[Any, Shape]:
    """x (..., N, C, *S) as (..., N, G, C / G * prod(S)), and x's shape."""
    shape = np.shape(x)
    lead = shape[: len(shape) - rank]
    per_group = math.prod(shape[len(lead) + 1:]) // groups  # (spelt out: -1 is no size of an empty batch)
    return np.reshape(x, (*lead, shape[len(lead)], groups, per_group)), shape


def _group_parts(x: Any, rank: int, groups: int, eps: float) -> tuple[Any, Any, Any, Shape]:
    """(x grouped and normalized, the groups' mean, their rstd: kept, (..., N, G, 1)), x's shape."""
    xg, shape = _grouped(x, rank, groups)
    mean, variance = row_moments(xg, 1)  # (PyTorch's own steps where a square may overflow: NaN where its are)
    rstd = 1.0 / np.sqrt(variance + eps)
    return (xg - mean) * rstd, mean, rstd, shape


def _group_forward(x: Array, w: Array, b: Array, ranks: tuple[int, ...], num_groups: int = 1, eps: float = 1e-5,
                   part: int = 0) -> Array:
    sx, sw, sb = _point_shapes(ranks, x, w, b)
    _group_check(sx, sw, sb, num_groups)
    _, mean, rstd, shape = _group_parts(x, ranks[0], num_groups, eps)
    if part % 3:
        return np.asarray((mean if part % 3 == 1 else rstd)[..., 0])
    # PyTorch's kernel: x * scale + (b - scale * mean), scale = rstd * w per channel (where w is infinite, a NaN where
    # x's side and the shift's cancel, as PyTorch's); in float64 its steps' bits: both fused, fma(x, scale,
    # fma(-scale, mean, b)), and where neither weight nor bias is given, (x - mean) * rstd
    xg, _ = _grouped(x, ranks[0], num_groups)
    doubles = all(type(v) is np.ndarray and v.dtype == np.float64 for v in (xg, np.asarray(w), np.asarray(b)))
    if doubles and ranks[1] == ranks[2] == 0:
        return np.reshape((xg - mean) * rstd, shape)
    scale = np.reshape(np.broadcast_to(rstd, np.shape(xg)), shape) * _channel(w, ranks[1], ranks[0])
    mean = np.reshape(np.broadcast_to(mean, np.shape(xg)), shape)
    if doubles:
        return float32.fma64(x, scale, float32.fma64(-scale, mean, _channel(b, ranks[2], ranks[0])))
    return np.asarray(x * scale + (_channel(b, ranks[2], ranks[0]) - scale * mean))


def _group_sum(v: Array, w: Array, ranks: tuple[int, ...], groups: int) -> Array:
    """v (..., N, C, *S) summed over each channel's S, times the channel's w, summed over each group: (..., N, G, 1)."""
    shape = np.shape(v)
    lead = shape[: len(shape) - ranks[0]]
    channels = shape[len(lead) + 1]
    per_channel = np.sum(np.reshape(v, (*lead, shape[len(lead)], channels, math.prod(shape[len(lead) + 2:]))), axis=-1)
    weighted = per_channel * _channel(w, ranks[1], 2)
    return np.sum(np.reshape(weighted, (*np.shape(weighted)[:-1], groups, channels // groups)), axis=-1, keepdims=True)


def _group_vjp(g: Array, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...], num_groups: int = 1,
               eps: float = 1e-5, part: int = 0) -> tuple[Any, Any, Any]:
    xhat, mean, rstd, shape = _group_parts(x, ranks[0], num_groups, eps)
    count = xhat.shape[-1]
    if part % 3 == 1:  # the mean: 1 / count of each of its group's elements
        return np.reshape(np.broadcast_to(g[..., None] / count, np.shape(xhat)), shape), None, None
    if part % 3 == 2:  # rstd = (var + eps) ** -1/2: -rstd ** 3 (x - mean) / count
        return np.reshape(-g[..., None] * rstd * rstd * xhat / count, shape), None, None
    # PyTorch's kernel (GroupNormBackward): dx = rstd w g + c2 x + c3, from the sums of g x and g over each
    # channel, weighted by the channel's w and summed over the group (an infinite w: its sums' infinities)
    g = np.broadcast_to(g, shape)
    xg, _ = _grouped(x, ranks[0], num_groups)
    ds, db = (_group_sum(v, w, ranks, num_groups) for v in (g * x, g))
    w = _channel(w, ranks[1], ranks[0])
    c2 = (db * mean - ds) * rstd * rstd * rstd * np.divide(1.0, count)
    c3 = -c2 * mean - db * rstd * np.divide(1.0, count)
    rstd_w = np.reshape(np.broadcast_to(rstd, np.shape(xg)), shape) * w
    dx = rstd_w * g + np.reshape(c2 * xg + c3, shape)
    dw = _per_channel_sum(g * np.reshape(xhat, shape), ranks[0], ranks[1])
    if not count and np.size(mean):  # (empty groups: PyTorch's sums times their mean, the NaN of nothing)
        dw = dw + np.nan
    return dx, dw, _per_channel_sum(g, ranks[0], ranks[2])


def _group_jvp(tangents: Any, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...], num_groups: int = 1,
               eps: float = 1e-5, part: int = 0) -> Any:
    xhat, _, rstd, shape = _group_parts(x, ranks[0], num_groups, eps)
    tx, tw, tb = tangents
    if part % 3:
        if tx is None:
            return np.zeros_like(ans)
        txg, _ = _grouped(tx, ranks[0], num_groups)
        if part % 3 == 1:
            return np.mean(txg, axis=-1)
        return -np.mean(txg * xhat, axis=-1) * rstd[..., 0] * rstd[..., 0]
    out: Any = 0.0 * ans
    if tx is not None:
        txg, _ = _grouped(tx, ranks[0], num_groups)
        normal = rstd * (txg - np.mean(txg, axis=-1, keepdims=True) - xhat * np.mean(txg * xhat, axis=-1, keepdims=True))
        out = out + np.reshape(normal, shape) * _channel(w, ranks[1], ranks[0])
    if tw is not None:
        out = out + np.reshape(xhat, shape) * _channel(tw, ranks[1], ranks[0])
    return out if tb is None else out + _channel(tb, ranks[2], ranks[0])


def _group_shape(x: Shape, w: Shape, b: Shape, num_groups: int = 1, eps: float = 1e-5, part: int = 0) -> Shape:
    _group_check(x, w, b, num_groups)
    return tuple(x) if part % 3 == 0 else (x[0], num_groups)


def _group_text(args: list[str], num_groups: int = 1, eps: float = 1e-5) -> str:
    optional = [f"{key}={arg}" for key, arg, left_out in (("weight", args[1], ("1", "1.0")), ("bias", args[2], ("0", "0.0")))
                if arg not in left_out]
    return f"group_norm({', '.join([args[0], str(num_groups), *optional, *([f'eps={eps!r}'] if eps != 1e-5 else [])])})"


def _native_group(x: Array, w: Array, b: Array, ranks: tuple[int, ...], N: int = 0, C: int = 0, HxW: int = 0,
                  group: int = 1, eps: float = 1e-5, part: int = 0, of: Any = None) -> Any:
    x_shape, w_shape, b_shape = (np.shape(arg)[np.ndim(arg) - rank:] for arg, rank in zip((x, w, b), ranks, strict=True))
    _native_group_shape(x_shape, w_shape, b_shape, N, C, HxW, group, eps, part, of)
    return _group_forward(x, w, b, ranks, group, eps, part)


def _native_group_vjp(g: Array, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...], N: int = 0,
                      C: int = 0, HxW: int = 0, group: int = 1, eps: float = 1e-5, part: int = 0,
                      of: Any = None) -> tuple[Any, Any, Any]:
    return _group_vjp(g, ans, x, w, b, ranks, group, eps, part)


def _native_group_jvp(tangents: Any, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...], N: int = 0,
                      C: int = 0, HxW: int = 0, group: int = 1, eps: float = 1e-5, part: int = 0, of: Any = None) -> Any:
    return _group_jvp(tangents, ans, x, w, b, ranks, group, eps, part)


def _native_group_shape(x: Shape, w: Shape, b: Shape, N: int = 0, C: int = 0, HxW: int = 0, group: int = 1,
                        eps: float = 1e-5, part: int = 0, of: Any = None) -> Shape:
    if of not in (None, 3) or not -3 <= part < 3:
        raise ValueError("native_group_norm gives 3 values (output, mean, rstd)")
    _group_check(x, w, b, group, C)  # (the weight and bias against C first, then C against the input)
    if math.prod(x) != N * C * HxW:  # (PyTorch's only check of them)
        raise ValueError("Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message be "
                         "improved?  If so, please report an enhancement request to PyTorch.)")
    if len(x) < 2 or (math.prod(x) != 0 and (N, C, HxW) != (x[0], x[1], math.prod(x[2:]))):
        raise ValueError(f"native_group_norm: N, C and HxW must be the input's, {x[0] if x else '?'}, "
                         f"{x[1] if len(x) > 1 else '?'} and {math.prod(x[2:])}; got {N}, {C} and {HxW}")
    return _group_shape(x, w, b, group, eps, part)


_GROUP_OPTIONAL = ((1, "weight", 1.0), (2, "bias", 0.0))

ROWS += [
    structural("group_norm", 3, _group_forward, _group_vjp, "NativeGroupNormBackward0", jvp=_group_jvp,
               tensor_positions=(0, 2, 3), optional_args=((2, "weight", 1.0), (3, "bias", 0.0)),
               params=(Param("num_groups", "int"), Param("eps", "float", 1e-5)), shape=_group_shape,
               inputs=("input", "weight", "bias"), text=_group_text,
               examples=((((2, 4, 3), (4,), (4,)), {"num_groups": 2}), (((3, 2), (2,), (2,)), {"num_groups": 1, "eps": 0.5}),
                         (((1, 6, 2, 2), (6,), (6,)), {"num_groups": 3})),
               reference="F.group_norm(a, 2, b, c)", reference_program="group_norm(a, 2, b, c)", dtype_refusals=NORM_DTYPES),
    structural("native_group_norm", 3, _native_group, _native_group_vjp, "NativeGroupNormBackward0",
               jvp=_native_group_jvp, optional_args=_GROUP_OPTIONAL, parts=3, shape=_native_group_shape,
               params=(Param("N", "int"), Param("C", "int"), Param("HxW", "int"), Param("group", "int"),
                       Param("eps", "float")), inputs=("input", "weight", "bias"),
               text=lambda args, part=0, of=None, **given: "native_group_norm({}, {})[{}]".format(
                   ", ".join(args), ", ".join(repr(given[key]) for key in ("N", "C", "HxW", "group", "eps")), part),
               examples=((((2, 4, 3), (4,), (4,)), {"N": 2, "C": 4, "HxW": 3, "group": 2, "eps": 1e-5, "part": 0}),
                         (((1, 6, 2), (6,), (6,)), {"N": 1, "C": 6, "HxW": 2, "group": 3, "eps": 0.5, "part": 0}),
                         (((1, 6, 2), (6,), (6,)), {"N": 1, "C": 6, "HxW": 2, "group": 3, "eps": 0.5, "part": 2}),
                         (((2, 2, 2), (2,), (2,)), {"N": 2, "C": 2, "HxW": 2, "group": 1, "eps": 0.5, "part": 1})),
               reference="torch.native_group_norm(a, b, c, 1, 2, 2, 2, 1e-5)[0]",
               reference_program="native_group_norm(a, b, c, 1, 2, 2, 2, 1e-5)[0]", dtype_refusals=NORM_DTYPES),
]


# --- native_layer_norm(input, normalized_shape, weight, bias, eps) -> (out, mean, rstd): layer_norm's output, and
# the mean and rstd it normalized with (kept, no gradient: PyTorch's derivative reads the output's alone) ----------


def _native_layer(x: Array, w: Array, b: Array, ranks: tuple[int, ...], normalized_shape: tuple[int, ...] = (),
                  eps: float = 1e-5, part: int = 0, of: Any = None) -> Array:
    if part % 3 == 0:
        return _layer_norm(x, w, b, ranks, normalized_shape, eps)
    _, mean, _, rstd = _layer_parts(x, ranks[0], normalized_shape, eps)
    return np.asarray(mean if part % 3 == 1 else rstd)


def _native_layer_vjp(g: Array, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...],
                      normalized_shape: tuple[int, ...] = (), eps: float = 1e-5, part: int = 0,
                      of: Any = None) -> tuple[Any, Any, Any]:
    return _layer_norm_vjp(g, ans, x, w, b, ranks, normalized_shape, eps) if part % 3 == 0 else (None, None, None)


def _native_layer_jvp(tangents: Any, ans: Array, x: Array, w: Array, b: Array, ranks: tuple[int, ...],
                      normalized_shape: tuple[int, ...] = (), eps: float = 1e-5, part: int = 0, of: Any = None) -> Any:
    if part % 3:
        return np.zeros_like(ans)
    return _layer_norm_jvp(tangents, ans, x, w, b, ranks, normalized_shape, eps)


def _native_layer_shape(x: Shape, w: Shape, b: Shape, normalized_shape: tuple[int, ...] = (), eps: float = 1e-5,
                        part: int = 0, of: Any = None) -> Shape:
    if of not in (None, 3) or not -3 <= part < 3:
        raise ValueError("native_layer_norm gives 3 values (output, mean, rstd)")
    _layer_norm_shape(x, w, b, normalized_shape, eps)
    k = len(normalized_shape)
    return tuple(x) if part % 3 == 0 else (*x[: len(x) - k], *(1,) * k)


ROWS += [
    structural("native_layer_norm", 3, _native_layer, _native_layer_vjp, "NativeLayerNormBackward0",
               jvp=_native_layer_jvp, aligns=True, tensor_positions=(0, 2, 3),
               optional_args=((2, "weight", 1.0), (3, "bias", 0.0)), parts=3, detached_parts=(1, 2),
               params=(Param("normalized_shape", "ints"), Param("eps", "float")), shape=_native_layer_shape,
               inputs=("input", "weight", "bias"),
               text=lambda args, normalized_shape=(), eps=1e-5, part=0, of=None: "native_layer_norm({}, {}, {}, {}, {!r})[{}]"
               .format(args[0], tuple(normalized_shape), args[1] if args[1] not in ("1", "1.0") else "None",
                       args[2] if args[2] not in ("0", "0.0") else "None", eps, part),
               examples=((((2, 3), (3,), (3,)), {"normalized_shape": (3,), "eps": 1e-5, "part": 0}),
                         (((2, 2, 3), (2, 3), (2, 3)), {"normalized_shape": (2, 3), "eps": 0.5, "part": 0})),
               reference="torch.native_layer_norm(a, (3,), b, c, 1e-5)[0]",
               reference_program="native_layer_norm(a, (3,), b, c, 1e-5)[0]", dtype_refusals=NORM_DTYPES),
]


# --- instance_norm: batch_norm of each sample's channels as channels of their own, recorded as PyTorch's
# at::instance_norm records it: ViewBackward0 over NativeBatchNormBackward0 over the input viewed as (1, N C, *S)
# and the weight and bias repeated N times (RepeatBackward0) ---------------------------------------------------


def _instance_check(x: Shape, rm: Shape, rv: Shape, w: Shape, b: Shape, use_input_stats: bool = True,
                    momentum: float = 0.1, eps: float = 1e-5) -> Shape:
    if use_input_stats and math.prod(x[2:]) == 1:  # (torch.nn.functional's check, first: its ValueError)
        raise PythonValueError(f"Expected more than 1 spatial element when training, got input size "
                               f"torch.Size({list(x)})")
    if len(x) < 2:
        raise ValueError(f"instance_norm expects an input of at least 2 dims (N, C, ...), got one of shape {list(x)}")
    if not use_input_stats and not (rm and rv):
        raise ValueError("Expected running_mean and running_var to be defined when use_input_stats is false")
    if bool(rm) != bool(rv):
        raise PythonValueError("running_mean and running_var must either both be None or neither be None")
    # PyTorch repeats each one N times (a tensor of more dims than one cannot be), then batch_norm counts their elements
    given = (("weight", w), ("bias", b), ("running_mean", rm), ("running_var", rv))
    if any(len(shape) > 1 for _, shape in given):
        raise ValueError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    for name, shape in given:
        if shape and math.prod(shape) != x[1]:
            raise ValueError(f"{name} should contain {x[0] * x[1]} elements not {x[0] * math.prod(shape)}")
    return tuple(x)


def _instance_program(emit: Any, x: Any, rm: Any, rv: Any, w: Any, b: Any, use_input_stats: bool = True,
                      momentum: float = 0.1, eps: float = 1e-5) -> Any:
    shape = emit.shape(x)
    if shape is None:  # over --points, where the shapes are not known: one node of any shape
        return emit("instance_norm_whole", x, rm, rv, w, b, use_input_stats=use_input_stats, momentum=momentum, eps=eps)
    sm, sv, sw, sb = (tuple(emit.shape(a) or ()) if emit.given(a) else () for a in (rm, rv, w, b))
    _instance_check(tuple(shape), sm, sv, sw, sb, use_input_stats)
    n = shape[0]
    wide = emit("reshape", x, shape=(1, n * shape[1], *shape[2:]))
    rm, rv, w, b = (emit("repeat", a, dims=(n,)) if emit.given(a) else a for a in (rm, rv, w, b))
    if not math.prod(shape):  # (PyTorch's batch_norm of an empty input: it cloned, times weight[0], plus bias[0])
        out = emit("clone", wide)
        if emit.given(w):
            out = emit("mul", out, emit("select", w, dim=0, index=0))
        if emit.given(b):
            out = emit("add", out, emit("select", b, dim=0, index=0))
        return emit("reshape", out, shape=tuple(shape))
    out = emit("batch_norm_whole", wide, rm, rv, w, b, training=use_input_stats, momentum=momentum, eps=eps,
               functional=False)
    return emit("reshape", out, shape=tuple(shape))


def _instance_parts(x: Any, per_channel: tuple[Any, ...], ranks: tuple[int, ...]) -> tuple[Any, list[Any], int]:
    """x (..., N, C, *S) as (..., 1, N C, *S) and each per-channel value (C,) repeated N times, and N."""
    shape, rank = np.shape(x), ranks[0]
    lead, point = shape[: len(shape) - rank], shape[len(shape) - rank:]
    n = point[0]
    wide = np.reshape(x, (*lead, 1, n * point[1], *point[2:]))
    return wide, [np.concatenate([v] * n, axis=-1) if r else v for v, r in zip(per_channel, ranks[1:], strict=True)], n


def _instance_whole(x: Array, rm: Array, rv: Array, w: Array, b: Array, ranks: tuple[int, ...],
                    use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-5) -> Array:
    sx, sm, sv, sw, sb = _point_shapes(ranks, x, rm, rv, w, b)
    _instance_check(sx, sm, sv, sw, sb, use_input_stats)
    wide, (rm, rv, w, b), _ = _instance_parts(x, (rm, rv, w, b), ranks)
    return np.reshape(_batch_norm(wide, rm, rv, w, b, ranks, use_input_stats, momentum, eps, functional=False),
                      np.shape(x))


def _instance_whole_vjp(g: Array, ans: Array, x: Array, rm: Array, rv: Array, w: Array, b: Array,
                        ranks: tuple[int, ...], use_input_stats: bool = True, momentum: float = 0.1,
                        eps: float = 1e-5) -> tuple[Any, None, None, Any, Any]:
    wide, (rm_n, rv_n, w_n, b_n), n = _instance_parts(x, (rm, rv, w, b), ranks)
    g = np.reshape(np.broadcast_to(g, np.shape(ans)), np.shape(wide))
    dx, _, _, dw, db = _batch_norm_vjp(g, g, wide, rm_n, rv_n, w_n, b_n, ranks, use_input_stats, momentum, eps, False)

    def per_channel(d: Any, rank: int) -> Any:  # (the N repeats of each channel added up)
        return np.sum(np.reshape(d, (*np.shape(d)[:-1], n, -1)), axis=-2) if rank else d

    return np.reshape(dx, np.shape(x)), None, None, per_channel(dw, ranks[3]), per_channel(db, ranks[4])


def _instance_whole_jvp(tangents: Any, ans: Array, x: Array, rm: Array, rv: Array, w: Array, b: Array,
                        ranks: tuple[int, ...], use_input_stats: bool = True, momentum: float = 0.1,
                        eps: float = 1e-5) -> Any:
    tx, _, _, tw, tb = tangents
    wide, (rm_n, rv_n, w_n, b_n), _ = _instance_parts(x, (rm, rv, w, b), ranks)
    t_wide = None if tx is None else _instance_parts(tx, (), (ranks[0],))[0]
    tw_n, tb_n = (None if t is None else _instance_parts(x, (t,), (ranks[0], r))[1][0]
                  for t, r in ((tw, ranks[3]), (tb, ranks[4])))
    out = _batch_norm_jvp((t_wide, None, None, tw_n, tb_n), np.reshape(ans, np.shape(wide)), wide, rm_n, rv_n, w_n, b_n,
                          ranks, use_input_stats, momentum, eps, False)
    return np.reshape(out, np.shape(x))


def _instance_text(args: list[str], use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-5) -> str:
    given = [f"{key}={arg}" for key, arg, left_out in (("running_mean", args[1], "0"), ("running_var", args[2], "1"),
                                                      ("weight", args[3], "1"), ("bias", args[4], "0"))
             if arg not in (left_out, f"{left_out}.0")]
    said = [f"{k}={v!r}" for k, v, default in (("use_input_stats", use_input_stats, True), ("momentum", momentum, 0.1),
                                               ("eps", eps, 1e-5)) if v != default]
    return f"instance_norm({', '.join([args[0], *given, *said])})"


_INSTANCE_PARAMS = (Param("use_input_stats", "bool", True), Param("momentum", "float", 0.1), Param("eps", "float", 1e-5))

ROWS += [
    structural("instance_norm_whole", 5, _instance_whole, _instance_whole_vjp, "ViewBackward0", jvp=_instance_whole_jvp,
               conditions=(1, 2), params=_INSTANCE_PARAMS, shape=_instance_check, callable=False, reference=None,
               domain=((-2.0, 2.0), (-1.0, 1.0), (0.5, 2.0)),
               examples=((((2, 3, 2), (3,), (3,), (3,), (3,)), {}),
                         (((2, 2, 3), (2,), (2,), (2,), (2,)), {"use_input_stats": False, "eps": 0.5}))),
    composite("instance_norm", 5, _instance_program, "ViewBackward0", sympy=None, conditions=(1, 2),
              optional_args=_BATCH_OPTIONAL, shape=_instance_check, text=_instance_text,
              params=_INSTANCE_PARAMS, inputs=("input", "running_mean", "running_var", "weight", "bias"),
              domain=((-2.0, 2.0), (-1.0, 1.0), (0.5, 2.0)),
              examples=((((2, 3, 2), (3,), (3,), (3,), (3,)), {}),
                        (((2, 2, 3), (2,), (2,), (2,), (2,)), {"use_input_stats": False, "eps": 0.5}),
                        (((1, 2, 2, 2), (2,), (2,), (2,), (2,)), {"momentum": 0.5})),
              reference="F.instance_norm(a, b, c, d, f)", reference_program="instance_norm(a, b, c, d, f)",
              dtype_refusals=(*_BATCH_FLOATS_ONLY, ("mixed params 3 4", "RuntimeError", MIXED_CPU),
                              ("mixed 0 2 4", "RuntimeError", "expected scalar type {0} but found {odd}"))),
]


# --- prelu: x where x > 0, else weight * x; PyTorch's prelu views the weight as (1, C, 1, ...) for an input
# (N, C, ...) and calls _prelu_kernel (PreluKernelBackward0 over the weight's ViewBackward0) ------------------


def _prelu_shape(x: Shape, w: Shape) -> Shape:
    count, channels = math.prod(w), (x[1] if len(x) > 1 else 1)
    if count != 1 and not x:  # (PyTorch's order: the weight's count against the channels, then its dims)
        raise ValueError("Not allow zero-dim input tensor.")
    if count != 1 and count != channels:
        raise ValueError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = {count} and "
                         f"channel size = {channels}.")
    if len(w) > 1:
        raise ValueError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {len(w)}")
    return tuple(x)


def _prelu_program(emit: Any, x: Any, w: Any) -> Any:
    sx, sw = emit.shape(x), emit.shape(w)
    if sx is not None and sw is not None:
        _prelu_shape(tuple(sx), tuple(sw))
        laid = tuple(math.prod(sw) if axis == 1 else 1 for axis in range(len(sx)))
        if laid != tuple(sw):  # (a reshape to its own shape is the weight itself: no node)
            w = emit("reshape", w, shape=laid)
    return emit("_prelu_kernel", x, w)


_PRELU_KERNEL = (("integer alike", "NotImplementedError", "\"prelu_cpu\" not implemented for '{0}'"),)

ROWS += [
    elementwise("_prelu_kernel", 2, lambda xp, x, w: xp.where(x > 0, x, w * x),
                lambda xp, g, ans, x, w: (xp.where(x > 0, g, w * g), xp.where(x > 0, 0.0, x * g)),
                "PreluKernelBackward0", kinked=True, reference="torch._prelu_kernel(a, b)",
                dtype_refusals=(("mixed 0 1", "RuntimeError", "Found dtype {1} but expected {0}"), *_PRELU_KERNEL),
                sympy=lambda x, w: load_sympy().Piecewise((x, x > 0), (w * x, True)), inputs=('input', 'weight')),
    composite("prelu", 2, _prelu_program, "PreluKernelBackward0", shape=_prelu_shape, inputs=("input", "weight"),
              kinked=True, examples=((((2, 3), (3,)), {}), (((4,), ()), {}), (((2, 2, 3), (1,)), {})),
              reference="F.prelu(a, b)", reference_program="prelu(a, b)",
              dtype_refusals=(("mixed 0 1", "RuntimeError", "prelu: Type promoting not supported. Got {0} and {1}"),
                              *_PRELU_KERNEL)),
]


# --- local_response_norm: x / (k + alpha * the mean of x ** 2 over `size` neighbouring channels) ** beta, recorded as
# PyTorch's functional composes it (DivBackward0 over PowBackward0 over AddBackward0 over MulBackward0 over the
# squares averaged by avg_pool2d, or avg_pool3d past 3 dims, over the channel axis padded with zeros) -----------


def _lrn_shape(x: Shape, size: int = 1, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Shape:
    if len(x) < 3:  # (torch.nn.functional's ValueError, its words' spaces and all)
        raise PythonValueError(f"Expected 3D or higher dimensionality{' ' * 26}input (got {len(x)} dimensions)")
    if size <= 0:
        raise ValueError(f"local_response_norm: size must be positive, got {size}")
    return tuple(x)


def _lrn_program(emit: Any, x: Any, size: int = 1, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> Any:
    shape = emit.shape(x)
    if shape is None:  # over --points, where the shapes are not known: one node of any rank
        return emit("local_response_norm_whole", x, size=size, alpha=alpha, beta=beta, k=k)
    _lrn_shape(tuple(shape), size)
    if 0 in shape:  # (F.local_response_norm returns an empty input itself)
        return x
    square = emit("mul", x, x)
    if len(shape) == 3:
        padded = emit("constant_pad_nd", emit("unsqueeze", square, dim=1), pad=(0, 0, size // 2, (size - 1) // 2))
        div = emit("squeeze", emit("avg_pool2d", padded, kernel_size=(size, 1), stride=(1,)), dim=1)
    else:
        n, c = shape[0], shape[1]
        viewed = emit("reshape", square, shape=(n, 1, c, shape[2], math.prod(shape[3:])))
        padded = emit("constant_pad_nd", viewed, pad=(0, 0, 0, 0, size // 2, (size - 1) // 2))
        pooled = emit("squeeze", emit("avg_pool3d", padded, kernel_size=(size, 1, 1), stride=(1,)), dim=1)
        div = emit("reshape", pooled, shape=tuple(shape))
    return emit("div", x, emit("pow", emit("add", emit("mul", div, alpha), k), beta))


def _channel_windows(v: Any, rank: int, before: int, size: int) -> Any:
    """The sums of `size` neighbouring channels of v (..., N, C, *S), from `before` channels back, zeros past the ends."""
    axis = 1 - rank
    channels = np.shape(v)[axis]
    pads = [(0, 0)] * np.ndim(v)
    pads[axis] = (before, size - 1 - before)
    padded = np.pad(v, pads)
    total: Any = 0.0
    for offset in range(size):
        key = [slice(None)] * np.ndim(v)
        key[axis] = slice(offset, offset + channels)
        total = total + padded[tuple(key)]
    return total


def _lrn_base(x: Any, rank: int, size: int, alpha: float, k: float) -> Any:
    """k + alpha * the mean of the squares over each channel's window (its power beta divides x)."""
    return k + alpha * (_channel_windows(x * x, rank, size // 2, size) / size)


def _lrn(x: Array, ranks: tuple[int, ...], size: int = 1, alpha: float = 1e-4, beta: float = 0.75,
         k: float = 1.0) -> Array:
    _lrn_shape(np.shape(x)[np.ndim(x) - ranks[0]:], size)
    return np.asarray(x / _lrn_base(x, ranks[0], size, alpha, k) ** beta)


def _lrn_vjp(g: Array, ans: Array, x: Array, ranks: tuple[int, ...], size: int = 1, alpha: float = 1e-4,
             beta: float = 0.75, k: float = 1.0) -> tuple[Any]:
    # out_i = x_i u_i ** -beta, u_i = k + alpha / size * (the sum of x_j ** 2 over i's window): x_m's cotangent is
    # g_m u_m ** -beta - 2 alpha beta / size x_m (the sum of g_i x_i u_i ** (-beta - 1) over the windows holding m)
    base = _lrn_base(x, ranks[0], size, alpha, k)
    back = _channel_windows(g * x * base ** (-beta - 1.0), ranks[0], size - 1 - size // 2, size)
    return (g * base ** -beta - (2.0 * alpha * beta / size) * x * back,)


def _lrn_jvp(tangents: Any, ans: Array, x: Array, ranks: tuple[int, ...], size: int = 1, alpha: float = 1e-4,
             beta: float = 0.75, k: float = 1.0) -> Any:
    t = tangents[0]
    base = _lrn_base(x, ranks[0], size, alpha, k)
    spread = _channel_windows(x * t, ranks[0], size // 2, size)
    return t * base ** -beta - (2.0 * alpha * beta / size) * x * base ** (-beta - 1.0) * spread


_LRN_PARAMS = (Param("size", "int"), Param("alpha", "float", 1e-4), Param("beta", "float", 0.75), Param("k", "float", 1.0))

ROWS += [
    structural("local_response_norm_whole", 1, _lrn, _lrn_vjp, "DivBackward0", jvp=_lrn_jvp, shape=_lrn_shape,
               params=_LRN_PARAMS, callable=False, reference=None,
               examples=((((1, 4, 3),), {"size": 2}), (((2, 3, 2, 2),), {"size": 3, "alpha": 0.5, "beta": 0.5, "k": 2.0}))),
    composite("local_response_norm", 1, _lrn_program, "DivBackward0", sympy=None, shape=_lrn_shape,
              params=_LRN_PARAMS,
              examples=((((1, 4, 3),), {"size": 2}), (((2, 3, 2, 2),), {"size": 3, "alpha": 0.5, "beta": 0.5, "k": 2.0}),
                        (((1, 5, 2),), {"size": 4, "alpha": 0.1})),
              reference="F.local_response_norm(a, 2)", reference_program="local_response_norm(a, 2)",
              dtype_refusals=kernel_refusal("avg_pool2d", "bool input")),
]


# --- bilinear: x1 W x2 + b, recorded as PyTorch's at::bilinear records it: AddBackward0 over the product's
# ViewBackward0 over TrilinearBackward0 of the inputs flattened to (B, I) and (B, J) (ViewBackward0 each) and W --------


def _bilinear_check(x1: Shape, x2: Shape, w: Shape, b: Shape | None = None) -> Shape:
    if len(x1) != len(x2):
        raise ValueError(f"bilinear(): input dimensions do not match: got {len(x1)} and {len(x2)}")
    for axis, (s1, s2) in enumerate(zip(x1[:-1], x2[:-1], strict=True)):
        if s1 != s2:
            raise ValueError(f"bilinear(): input batch dimensions do not match at dim {axis}: got {s1} and {s2}")
    def size(dim: int) -> int:  # (weight.size(dim), as PyTorch reads it: its IndexError past the weight's dims)
        if not w:
            raise DimError(f"Dimension specified as {dim} but tensor has no dimensions")
        if dim >= len(w):
            raise DimError(f"Dimension out of range (expected to be in range of [{-len(w)}, {len(w) - 1}], but got {dim})")
        return w[dim]

    if not x1 or x1[-1] != size(1):
        raise ValueError(f"bilinear(): input1 size does not match weight size: got {x1[-1] if x1 else 1} but expected "
                         f"{size(1)}")
    if x2[-1] != size(2):
        raise ValueError(f"bilinear(): input2 size does not match weight size: got {x2[-1]} but expected {w[2]}")
    if b is not None and (len(b) != 1 or b[0] != w[0]):
        raise ValueError(f"bilinear(): bias size does not match weight size: got {b[0] if b else 1} but expected {w[0]}")
    if len(w) != 3:  # (a weight of more dims, in the words of the _trilinear PyTorch hands it to)
        raise ValueError("number of dimensions must match")
    return (*x1[:-1], w[0])


def _trilinear(x1: Array, w: Array, x2: Array, ranks: tuple[int, ...] = (2, 3, 2)) -> Array:
    """at::_trilinear as bilinear calls it: (B, I), (O, I, J), (B, J) -> (B, O)."""
    # (PyTorch's order: x1 with W first, then with x2; an infinity meets the other's sum, not each of its terms)
    return np.asarray(np.einsum("...boj,...bj->...bo", np.einsum("...bi,...oij->...boj", x1, w), x2))


def _trilinear_vjp(g: Array, ans: Array, x1: Array, w: Array, x2: Array, ranks: tuple[int, ...]) -> tuple[Any, Any, Any]:
    return (np.einsum("...bo,...oij,...bj->...bi", g, w, x2), np.einsum("...bo,...bi,...bj->...oij", g, x1, x2),
            np.einsum("...bo,...bi,...oij->...bj", g, x1, w))


def _trilinear_jvp(tangents: Any, ans: Array, x1: Array, w: Array, x2: Array, ranks: tuple[int, ...]) -> Any:
    t1, tw, t2 = tangents
    out: Any = np.zeros_like(ans)
    for term in ((t1, w, x2), (x1, tw, x2), (x1, w, t2)):
        if all(t is not None for t in term):
            out = out + _trilinear(term[0], term[1], term[2], ranks)
    return out


def _bilinear_parts(x1: Any, w: Any, b: Any, ranks: tuple[int, ...]) -> tuple[Any, Any]:
    """W and b laid out against x1 (..., *B, I): (..., 1 per B, O, I, J) and (..., 1 per B, O)."""
    between = (1,) * (ranks[0] - 1)
    ws, bs = np.shape(w), np.shape(b)
    w = np.reshape(w, (*ws[: len(ws) - 3], *between, *ws[len(ws) - 3:]))
    b = np.reshape(b, (*bs[: len(bs) - ranks[3]], *between, *(bs[len(bs) - 1:] if ranks[3] else (1,))))
    return w, b


def _bilinear_whole(x1: Array, x2: Array, w: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    """The whole of bilinear in one node (over --points, where the shapes are not known)."""
    s1, s2, sw = _point_shapes(ranks[:3], x1, x2, w)
    _bilinear_check(s1, s2, sw, None)
    w, b = _bilinear_parts(x1, w, b, ranks)
    return np.asarray(np.einsum("...oj,...j->...o", np.einsum("...i,...oij->...oj", x1, w), x2) + b)


def _bilinear_whole_vjp(g: Array, ans: Array, x1: Array, x2: Array, w: Array, b: Array,
                        ranks: tuple[int, ...]) -> tuple[Any, Any, Any, Any]:
    wide, _ = _bilinear_parts(x1, w, b, ranks)
    batch = tuple(range(-ranks[0], -1))  # (the batch axes of the inputs, summed for W and b)
    dw = np.sum(np.einsum("...o,...i,...j->...oij", g, x1, x2), axis=tuple(a - 2 for a in batch))
    db = np.sum(g, axis=batch) if ranks[3] else np.sum(g, axis=(*batch, -1))
    return np.einsum("...o,...oij,...j->...i", g, wide, x2), np.einsum("...o,...i,...oij->...j", g, x1, wide), dw, db


def _bilinear_whole_jvp(tangents: Any, ans: Array, x1: Array, x2: Array, w: Array, b: Array,
                        ranks: tuple[int, ...]) -> Any:
    t1, t2, tw, tb = tangents
    wide, _ = _bilinear_parts(x1, w, b, ranks)
    out: Any = np.zeros_like(ans)
    if t1 is not None:
        out = out + np.einsum("...i,...oij,...j->...o", t1, wide, x2)
    if t2 is not None:
        out = out + np.einsum("...i,...oij,...j->...o", x1, wide, t2)
    if tw is not None:
        out = out + np.einsum("...i,...oij,...j->...o", x1, _bilinear_parts(x1, tw, b, ranks)[0], x2)
    if tb is not None:
        out = out + _bilinear_parts(x1, w, tb, ranks)[1]
    return out


def _bilinear_program(emit: Any, x1: Any, x2: Any, w: Any, b: Any) -> Any:
    s1, s2, sw = emit.shape(x1), emit.shape(x2), emit.shape(w)
    if s1 is None or s2 is None or sw is None:  # over --points: one node
        return emit("bilinear_whole", x1, x2, w, b)
    given = emit.given(b)
    out_shape = _bilinear_check(tuple(s1), tuple(s2), tuple(sw), tuple(emit.shape(b) or ()) if given else None)
    flat1 = emit("reshape", x1, shape=(math.prod(s1[:-1]), s1[-1]))
    flat2 = emit("reshape", x2, shape=(math.prod(s2[:-1]), s2[-1]))
    out = emit("reshape", emit("_trilinear", flat1, w, flat2), shape=out_shape)
    return emit("add", out, b) if given else out


_BILINEAR_EXAMPLES: Any = ((((2, 3), (2, 4), (5, 3, 4), (5,)), {}), (((3,), (2,), (2, 3, 2), (2,)), {}),
                      (((2, 2, 3), (2, 2, 1), (1, 3, 1), (1,)), {}))

ROWS += [
    structural("_trilinear", 3, _trilinear, _trilinear_vjp, "TrilinearBackward0", jvp=_trilinear_jvp, callable=False,
               reference=None, examples=((((2, 3), (4, 3, 2), (2, 2)), {}),)),
    structural("bilinear_whole", 4, _bilinear_whole, _bilinear_whole_vjp, "AddBackward0", jvp=_bilinear_whole_jvp,
               callable=False, reference=None, optional_args=((3, "bias", 0.0),), examples=_BILINEAR_EXAMPLES),
    composite("bilinear", 4, _bilinear_program, "AddBackward0", sympy=None, optional_args=((3, "bias", 0.0),),
              shape=lambda x1, x2, w, b: _bilinear_check(x1, x2, w, b or None), inputs=("input1", "input2", "weight", "bias"),
              examples=_BILINEAR_EXAMPLES, reference="F.bilinear(a, b, c, d)", reference_program="bilinear(a, b, c, d)",
              dtype_refusals=(("mixed", "RuntimeError", "All tensors must have the same dtype, got input1: {c0}, input2: {c1}, weight: {c2}, bias: {c3}"),)),
]
