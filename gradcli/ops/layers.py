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

from gradcli.ops.core import Array, Op, Param, Shape, composite, structural

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
    k = len(lead)
    cells = np.arange(math.prod(shape)).reshape(*lead, c, h // r, r, w // r, r)
    order = cells.transpose(*range(k), k, k + 2, k + 4, k + 1, k + 3)
    return order.reshape(-1), (*lead, c * r * r, h // r, w // r)


def _channel_shuffle_order(shape: Shape, groups: int) -> tuple[Array, Shape]:
    """channel_shuffle's: (N, C, *) with C = g k, its channels read as (k, g) where they were (g, k)."""
    if len(shape) <= 2:
        raise ValueError(f"channel_shuffle expects input to have at least 3 dimensions, but got input with sizes "
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

    return structural(name, 1, forward, vjp, node, sympy=sympy, params=(param,), dtype="keeps",
                      shape=lambda x, **given: order_of(tuple(x), given[key])[1], examples=examples,
                      reference=reference, reference_program=program, inputs=("input",))


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


def _embedding_parts(w: Any, idx: Array, ranks: tuple[int, ...], padding_idx: int | None,
                     max_norm: float | None) -> tuple[Shape, Array, int | None]:
    """(the batch axes of the two, the indices as (points, count), the padding index counted from 0)."""
    if ranks[0] != 2:
        raise ValueError(f"'weight' must be 2-D, got {ranks[0]} dims")
    if max_norm is not None:
        raise ValueError("embedding with max_norm renormalizes the weight's rows in place: not supported")
    rows = np.shape(w)[-2]
    if padding_idx is not None:
        if not -rows <= padding_idx < rows:
            raise ValueError("Padding_idx must be within num_embeddings")
        padding_idx %= rows
    index = np.asarray(idx)
    if index.size and not np.all(np.mod(index, 1) == 0):
        raise ValueError("the embedding's indices must be whole numbers")
    index = index.astype(np.int64)
    if index.size and (index.min() < 0 or index.max() >= rows):
        raise IndexError("index out of range in self")
    lead = np.broadcast_shapes(np.shape(w)[:-2], index.shape[: index.ndim - ranks[1]])
    points = math.prod(lead)
    flat = np.broadcast_to(index, lead + index.shape[index.ndim - ranks[1]:]).reshape(points, -1)
    return tuple(lead), flat, padding_idx


def _embedding(w: Array, idx: Array, ranks: tuple[int, ...], padding_idx: int | None = None,
               max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
               sparse: bool = False) -> Array:
    lead, flat, _ = _embedding_parts(w, idx, ranks, padding_idx, max_norm)
    wide = np.broadcast_to(w, lead + np.shape(w)[-2:]).reshape(len(flat), *np.shape(w)[-2:])
    picked = wide[np.arange(len(flat))[:, None], flat]  # (points, count, D)
    return np.reshape(picked, lead + np.shape(idx)[np.ndim(idx) - ranks[1]:] + np.shape(w)[-1:])


def _embedding_vjp(g: Array, ans: Array, w: Array, idx: Array, ranks: tuple[int, ...], padding_idx: int | None = None,
                   max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                   sparse: bool = False) -> tuple[Array, None]:
    # embedding_backward: each picked row's g added into its row of the weight (a repeated index adds
    # up), none into the padding row; scale_grad_by_freq: each divided by how often its index comes
    lead, flat, padding = _embedding_parts(w, idx, ranks, padding_idx, max_norm)
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


def _embedding_shape(w: Shape, idx: Shape, **params: Any) -> Shape:
    if len(w) != 2:
        raise ValueError(f"'weight' must be 2-D, got a weight of shape {tuple(w)}")
    return (*tuple(idx), w[1])


ROWS += [
    structural("embedding", 2, _embedding, _embedding_vjp, "EmbeddingBackward0", jvp=_embedding_jvp, index_from=1,
               tensor_positions=(1, 0), inputs=("weight", "input"), dtype="keeps", shape=_embedding_shape,
               params=(Param("padding_idx", "int", None), Param("max_norm", "float", None),
                       Param("norm_type", "float", 2.0), Param("scale_grad_by_freq", "bool", False),
                       Param("sparse", "bool", False)),
               sympy=lambda w, idx, **params: np.asarray(np.take(w, np.asarray(idx, dtype=np.int64), axis=0), dtype=object),
               text=lambda args, **params: "embedding({}, {}{})".format(args[1], args[0], "".join(
                   f", {k}={v!r}" for k, v in params.items() if v not in (None, False, 2.0))),
               domain=((-2.0, 2.0), (0.0, 0.0)),  # (the tests sample index 0 everywhere)
               examples=((((4, 3), (2,)), {}), (((4, 2), (2, 3)), {"padding_idx": 1}), (((3, 2), ()), {})),
               reference="F.embedding(b, a)", reference_program="embedding(b, a)"),
]


# --- rms_norm: x * rsqrt(mean(x ** 2 over the normalized dims) + eps), times the weight --------------


_FLOAT64_EPS = float(np.finfo(np.float64).eps)  # eps=None: torch.finfo(input.dtype).eps


def _rms_program(emit: Any, x: Any, w: Any = None, normalized_shape: tuple[int, ...] = (),
                 eps: float | None = None) -> Any:
    dims = tuple(range(-len(normalized_shape), 0))
    mean = emit("mean", emit("pow", x, 2.0), dim=dims, keepdim=True)
    out = emit("mul", x, emit("rsqrt", emit("add_scalar", mean, other=_FLOAT64_EPS if eps is None else eps)))
    return out if w is None else emit("mul", out, w)


def _rms_weighted(emit: Any, x: Any, w: Any, normalized_shape: tuple[int, ...] = (), eps: float | None = None) -> Any:
    return _rms_program(emit, x, w, normalized_shape, eps)


def _rms_shape(x: Shape, w: Shape | None = None, normalized_shape: tuple[int, ...] = (), eps: float | None = None
               ) -> Shape:
    k = len(normalized_shape)
    if k == 0 or tuple(x[len(x) - k:]) != tuple(normalized_shape) or k > len(x):
        raise ValueError(f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
                         f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{list(x)}")
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
              reference="F.rms_norm(a, (3,), b)", reference_program="rms_norm(a, (3,), b)"),
    composite("rms_norm_unweighted", 1, _rms_program, "MulBackward0", params=_RMS_PARAMS, shape=_rms_shape,
              callable=False, inputs=("input",),
              text=lambda args, normalized_shape=(), eps=None: "rms_norm({}, {}{})".format(
                  args[0], tuple(normalized_shape), "" if eps is None else f", eps={eps!r}"),
              examples=((((2, 3),), {"normalized_shape": (3,)}), (((4,),), {"normalized_shape": (4,), "eps": 0.25})),
              reference="F.rms_norm(a, (3,))", reference_program="rms_norm(a, (3,))"),
]

