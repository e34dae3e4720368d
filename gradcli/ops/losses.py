"""The rows of torch.nn.functional's other losses: margin_ranking_loss, hinge_embedding_loss,
soft_margin_loss, poisson_nll_loss, gaussian_nll_loss, multilabel_soft_margin_loss, cosine_embedding_loss,
triplet_margin_loss and pairwise_distance.

PyTorch writes most of them as compositions, in C++ (aten/src/ATen/native/Loss.cpp) or in Python
(torch/nn/functional.py): each is a composite row here, the program of rows PyTorch runs, so that
`graph` shows the nodes PyTorch records. C++ spells a Python number beside a tensor two ways: as a
Scalar overload (`dist + margin`: AddBackward1, the number no input of the node: the rows add_scalar,
sub_scalar and mul_scalar below), and, for `number - tensor`, a tensor filled with the number
(SubBackward0 over None and the tensor). Python's `0.5 * t` is MulBackward0 over (t, None), the
`mul` row with a Python number.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from gradcli.ops import reductions
from gradcli.ops.core import (
    NEGATION,
    UNCASTABLE,
    Array,
    Op,
    Param,
    PythonValueError,
    Shape,
    ValueRefusal,
    composite,
    kernel_refusal,
    load_sympy,
    structural,
)
from gradcli.ops.nn import (
    F_LOSS,
    LEGACY,
    REDUCE,
    REDUCTION,
    SIZE_AVERAGE,
    STRICT_REDUCTION,
    _ce_shape,
    _loss,
    _reduced,
    aten_loss,
    class_weight_problem,
)

# soft_margin_loss of a bool input: its kernel negates it first
_NEGATION = (("bool input", "RuntimeError", NEGATION),)

# --- a tensor and a number, as C++ writes them: PyTorch's Scalar overloads -------------------


def _scalar(name: str, node: str, forward: Any, slope: Any, spelled: str) -> Op:
    """A row of `x op other`, other a number PyTorch takes as a Scalar: one input, one next function.
    (Not an elementwise row: a part of composites alone, it has no reference of its own.)"""
    return structural(name, 1, lambda x, ranks, other=0.0: forward(x, other),
                      lambda g, ans, x, ranks, other=0.0: (slope(g, other),), node,
                      jvp=lambda tangents, ans, x, ranks, other=0.0: (
                          np.zeros_like(ans) if tangents[0] is None else slope(tangents[0], other)),
                      sympy=lambda x, other=0.0: np.asarray(forward(x, other), dtype=object),
                      params=(Param("other", "float", 0.0),), callable=False, reference=None,
                      text=lambda args, other=0.0: f"{args[0]}.{spelled}({other!r})",
                      examples=((((3,),), {"other": 0.5}), (((2, 3),), {"other": -2.0})))


ROWS: list[Op] = [
    _scalar("add_scalar", "AddBackward1", lambda x, c: x + c, lambda g, c: g, "add"),
    _scalar("sub_scalar", "SubBackward1", lambda x, c: x - c, lambda g, c: g, "sub"),
    _scalar("mul_scalar", "MulBackward1", lambda x, c: x * c, lambda g, c: g * c, "mul"),
    _scalar("div_scalar", "DivBackward1", lambda x, c: x / c, lambda g, c: g / c, "div"),
]


def _filled(emit: Any, like: Any, number: float) -> Any:
    """C++'s `number - tensor`, empty_like(tensor).fill_(number): a tensor of `like`'s shape and dtype filled with the
    number (no gradient; of integers the number truncated, of bools whether it is not 0)."""
    kind = emit.dtype(like)
    if kind and np.dtype(kind).kind in "biu":
        return emit("mul", emit("ones_like", like), bool(number) if kind == "bool" else int(number))
    return emit("mul", emit("ones_like", like), float(number))


def _same_dims(name: str, *what: str) -> Any:
    """The shape check of a loss whose inputs must have as many dims (Loss.cpp's TORCH_CHECK)."""
    def shape(*shapes: Shape, reduction: str = "mean", **params: Any) -> Shape:
        if len({len(s) for s in shapes}) > 1:
            sizes = ", ".join(f"{label}: torch.Size({list(s)})" for label, s in zip(what, shapes, strict=True))
            raise ValueError(f"{name} : All input tensors should have same dimension but got sizes: {sizes} ")
        both = tuple(np.broadcast_shapes(*shapes))
        return both if reduction == "none" else ()

    return shape


# --- margin_ranking_loss, hinge_embedding_loss: Loss.cpp ---------------------------------------


def _margin_ranking_program(emit: Any, a: Any, b: Any, y: Any, margin: float = 0.0, reduction: str = "mean") -> Any:
    # (-target * (input1 - input2) + margin).clamp_min_(0)
    losses = emit("add_scalar", emit("mul", emit("neg", y), emit("sub", a, b)), other=margin)
    return _reduced(emit, emit("clamp_min", losses, min=0.0), reduction)


def _hinge_program(emit: Any, x: Any, y: Any, margin: float = 1.0, reduction: str = "mean") -> Any:
    # where(target != 1, (margin - self).clamp_min_(0), 0) + where(target != -1, self, 0)
    zeros = emit("zeros_like", x)
    clamped = emit("clamp_min", emit("sub", _filled(emit, x, margin), x), min=0)  # (clamp_min_ in place: x's dtype)
    losses = emit("add", emit("where", emit("ne", y, 1.0), clamped, zeros), emit("where", emit("ne", y, -1.0), x, zeros))
    return _reduced(emit, losses, reduction)


def _reduction_node(base: str) -> Any:
    def node(constant: Any, shapes: Any, reduction: str = "mean", **params: Any) -> str:
        return {"none": base, "sum": "SumBackward0", "mean": "MeanBackward0"}[reduction]

    return node


_PAIRS: Any = ((((4,), (4,)), {}), (((2, 3), (2, 3)), {"reduction": "sum", "margin": 0.5}),
          (((2, 3), (2, 3)), {"reduction": "none", "margin": 2.0}))
_TRIPLES: Any = ((((4,), (4,), (4,)), {}), (((2, 3), (2, 3), (2, 3)), {"reduction": "sum", "margin": 0.5}),
            (((3,), (3,), (3,)), {"reduction": "none", "margin": -0.25}))

ROWS += [
    composite("margin_ranking_loss", 3, _margin_ranking_program, "MeanBackward0", kinked=True,
              params=(Param("margin", "float", 0.0, refused=(
                  "TypeError", "margin_ranking_loss(): argument 'margin' (position 4) must be float, not {type}")), *LEGACY), torch_node_rule=_reduction_node("ClampMinBackward0"),
              shape=_same_dims("margin_ranking_loss", "input1", "input2", "target"),
              inputs=("input1", "input2", "target"), examples=_TRIPLES, dialects=(*F_LOSS, aten_loss("margin")),
              reference="F.margin_ranking_loss(a, b, c)"),
    composite("hinge_embedding_loss", 2, _hinge_program, "MeanBackward0", kinked=True,
              params=(Param("margin", "float", 1.0), *LEGACY), torch_node_rule=_reduction_node("AddBackward0"),
              inputs=("input", "target"), examples=_PAIRS, domain=((-2.0, 2.0), (-1.0, 1.0)),
              dialects=(*F_LOSS, aten_loss("margin")),
              reference="F.hinge_embedding_loss(a, b)"),
]


# --- soft_margin_loss: PyTorch's own kernel (SoftMarginLossBackward0) -------------------------


def _soft_margin(a: Array, b: Array) -> Array:
    return np.log1p(np.exp(-a * b))  # at::neg(input).mul_(target).exp_().log1p_()


def _soft_margin_partials(g: Array, a: Array, b: Array) -> tuple[Array, None]:
    # soft_margin_loss_backward: z = exp(-target * input); -norm * target * z / (1 + z) * grad; the
    # target takes no gradient (PyTorch refuses one that requires it)
    z = np.exp(-b * a)
    return -b * z / (1.0 + z) * g, None


ROWS += [
    _loss("soft_margin_loss", _soft_margin, _soft_margin_partials, "SoftMarginLossBackward0",
          lambda a, b: load_sympy().log(1 + load_sympy().exp(-a * b)), conditions=(1,), divides_last=True,
          inputs=("input", "target"), reference="F.soft_margin_loss(a, b)", dtype="first",
          dtype_refusals=(*_NEGATION, *UNCASTABLE, ("bool input 1 into 0", "RuntimeError", NEGATION))),
]


# --- poisson_nll_loss (Loss.cpp), gaussian_nll_loss (functional.py) ---------------------------


def _poisson_program(emit: Any, x: Any, t: Any, log_input: bool = True, full: bool = False, eps: float = 1e-8,
                     reduction: str = "mean") -> Any:
    if log_input:  # exp(input) - target * input
        losses = emit("sub", emit("exp", x), emit("mul", t, x))
    else:  # input - target * log(input + eps)
        losses = emit("sub", x, emit("mul", t, emit("log", emit("add_scalar", x, other=eps))))
    if full:  # + (target * log(target) - target + 0.5 * log(2 * pi * target)).masked_fill(target <= 1, 0)
        stirling = emit("add", emit("sub", emit("mul", t, emit("log", t)), t),
                        emit("mul_scalar", emit("log", emit("mul_scalar", t, other=2 * math.pi)), other=0.5))
        losses = emit("add", losses, emit("masked_fill", stirling, emit("le", t, 1.0), 0.0))
    return _reduced(emit, losses, reduction)


def _poisson_node(constant: Any, shapes: Any, reduction: str = "mean", full: bool = False, **params: Any) -> str:
    return _reduction_node("AddBackward0" if full else "SubBackward0")(constant, shapes, reduction)


def _gaussian_program(emit: Any, x: Any, t: Any, var: Any, full: bool = False, eps: float = 1e-6,
                      reduction: str = "mean") -> Any:
    # var one dim short of the input (its last): unsqueezed; then cloned and clamped to eps without a
    # gradient; 0.5 * (log(var) + (input - target) ** 2 / var), + 0.5 * log(2 * pi) where full
    sx, sv = emit.shape(x), emit.shape(var)
    if sx is None or sv is None:  # (shapes not known: over --points, one node that unsqueezes where it must)
        var = emit("unsqueeze_short", var, x)
    elif tuple(sv) != tuple(sx) and tuple(sx[:-1]) == tuple(sv):
        var = emit("unsqueeze", var, dim=-1)
    var = emit("clamped_clone", var, min=eps, nonnegative=True)  # (a negative entry refused first)
    losses = emit("mul", 0.5, emit("add", emit("log", var), emit("div", emit("pow", emit("sub", x, t), 2.0), var)))
    if full:
        losses = emit("add", losses, 0.5 * math.log(2 * math.pi))
    return _reduced(emit, losses, reduction)


def _short(v: Any, x: Any, ranks: tuple[int, ...]) -> bool:
    """Is v's point one dim short of x's (x's last): gaussian_nll_loss's homoscedastic variance?"""
    sv, sx = np.shape(v)[np.ndim(v) - ranks[0]:], np.shape(x)[np.ndim(x) - ranks[1]:]
    return sv != sx and sx[:-1] == sv


def _unsqueeze_short(v: Any, x: Any, ranks: tuple[int, ...]) -> Any:
    # (with x's batch axes: the node's value is taken to have them)
    out = v[..., None] if _short(v, x, ranks) else v
    leads = np.broadcast_shapes(np.shape(v)[: np.ndim(v) - ranks[0]], np.shape(x)[: np.ndim(x) - ranks[1]])
    point = np.shape(out)[np.ndim(out) - ranks[0] - _short(v, x, ranks):]
    return np.broadcast_to(out, leads + point)


def _unsqueeze_short_vjp(g: Array, ans: Array, v: Array, x: Array, ranks: tuple[int, ...]) -> tuple[Array, None]:
    if _short(v, x, ranks):
        g = np.reshape(g, np.shape(g)[:-1])
    return g, None  # (call_vjp sums the batch axes v has not)


def _unsqueeze_short_jvp(tangents: Any, ans: Array, v: Array, x: Array, ranks: tuple[int, ...]) -> Array:
    return np.zeros_like(ans) if tangents[0] is None else _unsqueeze_short(tangents[0], x, ranks)


def _gaussian_shape(x: Shape, t: Shape, var: Shape, reduction: str = "mean", **params: Any) -> Shape:
    x, var = tuple(x), tuple(var)
    if var != x and x[:-1] != var and not (
            len(x) == len(var) and sum(v for a, v in zip(x, var, strict=True) if a != v) == 1):
        raise PythonValueError("var is of incorrect size")
    shape = tuple(np.broadcast_shapes(x, t, (*var, 1) if x[:-1] == var and var != x else var))
    return shape if reduction == "none" else ()


ROWS += [
    # gaussian_nll_loss's variance, unsqueezed where it is one dim short of the input: a part of that
    # composite alone, over --points (at one point it is PyTorch's Unsqueeze, or nothing)
    structural("unsqueeze_short", 2, _unsqueeze_short, _unsqueeze_short_vjp, "UnsqueezeBackward0",
               jvp=_unsqueeze_short_jvp, conditions=(1,), callable=False, reference=None,
               shape=lambda v, x: (*tuple(v), 1) if tuple(v) != tuple(x) and tuple(x[:-1]) == tuple(v) else tuple(v),
               text=lambda args: f"{args[0]} unsqueezed as {args[1]}",
               examples=((((2,), (2, 3)), {}), (((2, 3), (2, 3)), {}))),
    composite("poisson_nll_loss", 2, _poisson_program, "MeanBackward0", torch_node_rule=_poisson_node,
              params=(Param("log_input", "bool", True), Param("full", "bool", False), SIZE_AVERAGE,
                      Param("eps", "float", 1e-8, refused=("TypeError", "poisson_nll_loss(): argument 'eps' (position 5) "
                                                                       "must be float, not {type}")),
                      REDUCE, STRICT_REDUCTION),
              inputs=("input", "target"), domain=((0.2, 3.0), (0.5, 3.0)),
              dialects=(*F_LOSS, aten_loss("log_input", "full", "eps", required=("log_input", "full", "eps", "reduction"))),
              examples=((((4,), (4,)), {}), (((2, 3), (2, 3)), {"full": True, "reduction": "none"}),
                        (((2, 3), (2, 3)), {"log_input": False, "full": True, "reduction": "sum"})),
              reference="F.poisson_nll_loss(a, b)"),
    composite("gaussian_nll_loss", 3, _gaussian_program, "MeanBackward0", shape=_gaussian_shape,
              torch_node_rule=_reduction_node("MulBackward0"), sympy=None,  # (the clamp has no gradient)
              params=(Param("full", "bool", False), Param("eps", "float", 1e-6),
                      STRICT_REDUCTION._replace(refused=("ValueError", "{value} is not valid"))),  # (its own words)
              inputs=("input", "target", "var"), domain=((-2.0, 2.0), (-2.0, 2.0), (0.5, 3.0)), dialects=F_LOSS,
              examples=((((4,), (4,), (4,)), {}), (((2, 3), (2, 3), (2,)), {"full": True, "reduction": "none"}),
                        (((2, 3), (2, 3), (2, 1)), {"reduction": "sum", "eps": 0.25})),
              reference="F.gaussian_nll_loss(a, b, c)",  # (its var.clamp_(min=eps) in place)
              dtype_refusals=(("integer 2", "RuntimeError", "result type Float can't be cast to the desired output type {c2}"),)),
]


# --- multilabel_soft_margin_loss, cosine_embedding_loss, triplet_margin_loss ------------------


def _multilabel_soft_program(emit: Any, x: Any, t: Any, w: Any = None, reduction: str = "mean") -> Any:
    # -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input)), times the weight, summed over
    # the classes (the last dim) and divided by their number; then mean or sum over the samples
    losses = emit("neg", emit("add", emit("mul", t, emit("logsigmoid", x)),
                              emit("mul", emit("sub", 1.0, t), emit("logsigmoid", emit("neg", x)))))
    if w is not None:
        losses = emit("mul", losses, w)
    shape = emit.shape(x)  # (C, a Python number where the shape is known; else size(), over --points)
    classes = emit("size", x, dim=-1) if shape is None else float(shape[-1])
    losses = emit("div", emit("sum", losses, dim=-1), classes)
    return _reduced(emit, losses, reduction)


# (its reduction checked in Python, in its own words, before get_enum could read 'elementwise_mean')
_MULTILABEL_LEGACY = (*LEGACY[:2], STRICT_REDUCTION._replace(refused=("ValueError", "{value} is not valid")))


def _multilabel_soft_weighted(emit: Any, x: Any, t: Any, w: Any, reduction: str = "mean") -> Any:
    return _multilabel_soft_program(emit, x, t, w, reduction)


def _multilabel_soft_shape(x: Shape, t: Shape, w: Shape | None = None, reduction: str = "mean") -> Shape:
    if not x:
        raise ValueError("multilabel_soft_margin_loss takes an input of shape (C,) or (N, C), got a 0-d one")
    losses = np.broadcast_shapes(x, t, *([] if w is None else [w]))
    return tuple(losses[:-1]) if reduction == "none" else ()


def _cosine_embedding_program(emit: Any, a: Any, b: Any, y: Any, margin: float = 0.0, reduction: str = "mean") -> Any:
    # Loss.cpp: cos = sum(a * b) / sqrt((sum(a * a) + EPS) * (sum(b * b) + EPS)) over the last dim;
    # where(target == 1, 1 - cos, 0) + where(target == -1, (cos - margin).clamp_min_(0), 0)
    dim = -1
    prod = emit("sum", emit("mul", a, b), dim=dim)
    mag_a = emit("add_scalar", emit("sum", emit("mul", a, a), dim=dim), other=_EPSILON)
    mag_b = emit("add_scalar", emit("sum", emit("mul", b, b), dim=dim), other=_EPSILON)
    cos = emit("div", prod, emit("sqrt", emit("mul", mag_a, mag_b)))
    zeros = emit("zeros_like", cos)
    pos = emit("sub", _filled(emit, cos, 1.0), cos)
    neg = emit("clamp_min", emit("sub_scalar", cos, other=margin), min=0.0)
    losses = emit("add", emit("where", emit("eq", y, 1.0), pos, zeros), emit("where", emit("eq", y, -1.0), neg, zeros))
    return _reduced(emit, losses, reduction)


_EPSILON = float(np.float32(1e-12))  # Loss.cpp's EPSILON, a float


def _cosine_embedding_shape(a: Shape, b: Shape, y: Shape, reduction: str = "mean", **params: Any) -> Shape:
    if len(y) not in (0, 1):
        raise ValueError("0D or 1D target tensor expected, multi-target not supported")
    if len(y) == 1 and not (len(a) == 2 and len(b) == 2):
        raise ValueError(f"1D target tensor expects 2D input tensors, but found inputs with sizes {list(a)} and {list(b)}.")
    if not y and not (len(a) == 1 and len(b) == 1):
        raise ValueError(f"0D target tensor expects 1D input tensors, but found inputs with sizes {list(a)} and {list(b)}.")
    rows = tuple(np.broadcast_shapes(a, b))[:-1]
    return tuple(np.broadcast_shapes(rows, y)) if reduction == "none" else ()


def _pairwise_program(emit: Any, a: Any, b: Any, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Any:
    # at::norm(x1 - x2 + eps, p, the last dim of the two, keepdim)
    return emit("aten_norm", emit("add_scalar", emit("sub", a, b), other=eps), p=p, dim=-1, keepdim=keepdim)


def _triplet_program(emit: Any, a: Any, pos: Any, neg: Any, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                     swap: bool = False, reduction: str = "mean") -> Any:
    # clamp_min(margin + d(a, pos) - d(a, neg), 0), d(a, neg) the smaller of it and d(pos, neg) with swap
    near = _pairwise_program(emit, a, pos, p, eps)
    far = _pairwise_program(emit, a, neg, p, eps)
    if swap:
        far = emit("minimum", far, _pairwise_program(emit, pos, neg, p, eps))
    losses = emit("clamp_min", emit("sub", emit("add_scalar", near, other=margin), far), min=0.0)
    return _reduced(emit, losses, reduction)


def _triplet_shape(a: Shape, pos: Shape, neg: Shape, reduction: str = "mean", **params: Any) -> Shape:
    if not len(a) == len(pos) == len(neg):
        raise ValueError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                         f"dimensions, but got: anchor {len(a)}D, positive {len(pos)}D, and negative {len(neg)}D inputs")
    rows = tuple(np.broadcast_shapes(a, pos, neg))[:-1]
    return rows if reduction == "none" else ()


def _pairwise_shape(a: Shape, b: Shape, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Shape:
    both = tuple(np.broadcast_shapes(a, b))
    if not both:
        return ()
    return both[:-1] + ((1,) if keepdim else ())


_NORM = next(row for row in reductions.ROWS if row.name == "norm")
_MULTILABEL: Any = ((((2, 3), (2, 3)), {}), (((3,), (3,)), {"reduction": "none"}), (((2, 3), (2, 3)), {"reduction": "sum"}))

ROWS += [
    # at::norm(x, p, dim, keepdim): the norm of pairwise_distance, recorded as NormBackward1
    dataclasses.replace(_NORM, name="aten_norm", torch_node="NormBackward1", callable=False, methods=(), spellings=(),
                        reference=None, text=lambda args, p=2.0, dim=None, keepdim=False:
                        f"torch.norm({args[0]}, {p!r}, dim={dim}{', keepdim=True' if keepdim else ''})"),
    composite("pairwise_distance", 2, _pairwise_program, "NormBackward1", kinked=True, shape=_pairwise_shape,
              params=(Param("p", "float", 2.0), Param("eps", "float", 1e-6), Param("keepdim", "bool", False)),
              inputs=("x1", "x2"), examples=((((2, 3), (2, 3)), {}), (((4,), (4,)), {"p": 1.0}),
                                             (((2, 3), (3,)), {"keepdim": True, "eps": 0.5})),
              reference="F.pairwise_distance(a, b)"),
    composite("multilabel_soft_margin_loss", 3, _multilabel_soft_weighted, "MeanBackward0",
              overloads=("multilabel_soft_margin_loss_unweighted",), params=_MULTILABEL_LEGACY, dialects=F_LOSS,
              torch_node_rule=_reduction_node("DivBackward0"), shape=_multilabel_soft_shape,
              inputs=("input", "target", "weight"), domain=((-2.0, 2.0), (0.0, 1.0), (0.5, 2.0)),
              examples=((((2, 3), (2, 3), (3,)), {}), (((3,), (3,), (3,)), {"reduction": "none"})),
              reference="F.multilabel_soft_margin_loss(a, b, weight=c)",
              dtype_refusals=kernel_refusal("log_sigmoid_cpu")),
    composite("multilabel_soft_margin_loss_unweighted", 2, _multilabel_soft_program, "MeanBackward0", callable=False,
              params=(Param("weight", "absent"), *_MULTILABEL_LEGACY), torch_node_rule=_reduction_node("DivBackward0"),
              shape=_multilabel_soft_shape, inputs=("input", "target"), domain=((-2.0, 2.0), (0.0, 1.0)), examples=_MULTILABEL,
              text=lambda args, reduction="mean": "multilabel_soft_margin_loss({}{})".format(
                  ", ".join(args), "" if reduction == "mean" else f", reduction={reduction!r}"),
              reference="F.multilabel_soft_margin_loss(a, b)",
              reference_program="multilabel_soft_margin_loss(a, b)", dtype_refusals=kernel_refusal("log_sigmoid_cpu")),
    composite("cosine_embedding_loss", 3, _cosine_embedding_program, "MeanBackward0", kinked=True,
              params=(Param("margin", "float", 0.0), *LEGACY), torch_node_rule=_reduction_node("AddBackward0"),
              shape=_cosine_embedding_shape, inputs=("input1", "input2", "target"),
              dialects=(*F_LOSS, aten_loss("margin")),
              domain=((-2.0, 2.0), (-2.0, 2.0), (-1.0, 1.0)),
              examples=((((2, 3), (2, 3), (2,)), {}), (((3,), (3,), ()), {"reduction": "none", "margin": 0.5}),
                        (((2, 3), (2, 3), (2,)), {"reduction": "sum", "margin": -0.5})),
              reference="F.cosine_embedding_loss(a, b, c)"),
    composite("triplet_margin_loss", 3, _triplet_program, "MeanBackward0", kinked=True, shape=_triplet_shape,
              params=(Param("margin", "float", 1.0), Param("p", "float", 2.0), Param("eps", "float", 1e-6),
                      Param("swap", "bool", False), *LEGACY),
              torch_node_rule=_reduction_node("ClampMinBackward0"), inputs=("anchor", "positive", "negative"),
              dialects=(*F_LOSS, aten_loss("margin", "p", "eps", "swap")),
              examples=((((2, 3), (2, 3), (2, 3)), {}), (((4,), (4,), (4,)), {"swap": True, "reduction": "none"}),
                        (((2, 3), (2, 3), (2, 3)), {"p": 1.0, "margin": 3.0, "reduction": "sum"})),
              reference="F.triplet_margin_loss(a, b, c)"),
]


# --- multi_margin_loss and multilabel_margin_loss: PyTorch's own kernels (MultiMarginLossBackward0,
# MultilabelMarginLossBackward0), an input (C,) or (N, C) (or a number) and integer class targets -------------


def _samples(x: Any, t: Any, ranks: tuple[int, ...], per_class_target: bool) -> tuple[Any, Array, Shape]:
    """x as (..., N, C) and the targets as whole numbers (..., N) (or (..., N, C), a class list per sample), their
    leading axes broadcast, and the shape of the losses of one point (reduction 'none')."""
    xs, ts = np.shape(x), np.shape(t)
    point, target = xs[len(xs) - ranks[0]:], ts[len(ts) - ranks[1]:]
    lead = np.broadcast_shapes(xs[: len(xs) - ranks[0]], ts[: len(ts) - ranks[1]])
    n, c = (point[0], point[1]) if len(point) == 2 else (1, point[0] if point else 1)
    index = np.asarray(t)
    if index.size and not np.all(np.mod(index, 1) == 0):
        raise ValueError("the target's class indices must be whole numbers")
    x = np.broadcast_to(np.reshape(x, (*xs[: len(xs) - ranks[0]], n, c)), (*lead, n, c))
    shape = (n, c) if per_class_target else (n,)
    targets = np.broadcast_to(index.astype(np.int64).reshape((*ts[: len(ts) - ranks[1]], *shape)), (*lead, *shape))
    losses = (point[0],) if len(point) == 2 else (target if not per_class_target else ())
    return x, targets, tuple(losses)


def _reduce_samples(losses: Any, reduction: str, shape: Shape) -> Array:
    """The losses (..., N) reduced, or laid out as one point's ('none')."""
    if reduction == "none":
        return np.reshape(losses, (*np.shape(losses)[:-1], *shape))
    total = np.sum(losses, axis=-1)
    return np.asarray(total / np.shape(losses)[-1] if reduction == "mean" else total)


def _sample_upstream(g: Any, reduction: str, samples: Shape) -> Any:
    """The cotangent of each sample's loss, (..., N, 1), from the reduced loss's; `samples`: (..., N)."""
    if reduction == "none":  # (reshaped, never made an array: the Hessian's dual numbers go through)
        return np.reshape(g, (*samples, 1))
    g = np.reshape(g, (*np.shape(g), 1, 1))
    return g / samples[-1] if reduction == "mean" else g


def _margin_check(x: Shape, t: Shape, name: str) -> None:
    if len(x) > 2 or (len(x) == 2 and x[1] == 0) or (len(x) == 1 and x[0] == 0):
        raise ValueError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: {list(x)}")


def _multi_margin_shape(x: Shape, t: Shape, p: int = 1, margin: float = 1.0, reduction: str = "mean") -> Shape:
    _margin_check(x, t, "multi_margin_loss")
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    n = x[0] if len(x) == 2 else 1
    if len(t) > 1 or math.prod(t) != n:
        raise ValueError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples "
                         f"(batch size). Expected target size [{n}], but got {list(t)}. Input has shape {list(x)}.")
    return ((x[0],) if len(x) == 2 else tuple(t)) if reduction == "none" else ()


def _multi_margin_terms(x: Any, t: Any, ranks: tuple[int, ...], margin: float) -> tuple[Any, Array, Array, Shape]:
    """(z = margin - x[y] + x[d] per sample and class, where it counts (z > 0, d not y), the targets, the losses' shape)."""
    x, targets, shape = _samples(x, t, ranks, per_class_target=False)
    c = np.shape(x)[-1]
    if targets.size and (targets.min() < 0 or targets.max() >= c):
        raise ValueError("target out of range")
    picked = np.sum(np.where(np.arange(c) == targets[..., None], x, 0.0), axis=-1, keepdims=True)  # (dual numbers too)
    z = margin - picked + x
    counts = (z > 0) & (np.arange(c) != targets[..., None])
    return z, counts, targets, shape


def _multi_margin(x: Array, t: Array, ranks: tuple[int, ...], p: int = 1, margin: float = 1.0,
                  reduction: str = "mean") -> Array:
    sx, st = (np.shape(a)[np.ndim(a) - r:] for a, r in zip((x, t), ranks, strict=True))
    _multi_margin_shape(sx, st, p, margin, reduction)
    z, counts, _, shape = _multi_margin_terms(x, t, ranks, margin)
    terms = np.where(counts, z if p == 1 else z * z, 0.0)
    return _reduce_samples(np.sum(terms, axis=-1) / np.shape(z)[-1], reduction, shape)


def _multi_margin_vjp(g: Array, ans: Array, x: Array, t: Array, ranks: tuple[int, ...], p: int = 1, margin: float = 1.0,
                      reduction: str = "mean") -> tuple[Any, None]:
    z, counts, targets, _ = _multi_margin_terms(x, t, ranks, margin)
    c = np.shape(z)[-1]
    # PyTorch's kernel: each sample's own gradient (to each other class d, and minus their sum to the target), then
    # times the incoming gradient (a NaN one reaches every class)
    each = np.where(counts, (1.0 if p == 1 else 2.0 * z) / c, 0.0)
    local = np.where(np.arange(c) == targets[..., None], 0.0 - np.sum(each, axis=-1, keepdims=True), each)
    return np.reshape(local * _sample_upstream(g, reduction, np.shape(z)[:-1]), np.shape(x)), None


def _multilabel_shape(x: Shape, t: Shape, reduction: str = "mean") -> Shape:
    _margin_check(x, t, "multilabel_margin_loss")
    if tuple(t) != tuple(x):
        raise ValueError(f"inconsistent target size: {list(t)} for input of size: {list(x)}")
    _check_pairs(x)
    return ((x[0],) if len(x) == 2 else ()) if reduction == "none" else ()


def _check_pairs(x: Shape) -> None:
    from gradcli.errors import Limits, over_limit

    c = x[-1] if x else 1
    if math.prod(x) * c > Limits.get("elements"):
        raise over_limit(f"multilabel_margin_loss would compare {math.prod(x) * c:,} pairs of classes", "elements")


def _multilabel_terms(x: Any, t: Any, ranks: tuple[int, ...]) -> tuple[Any, Array, Array, Shape]:
    """(z = 1 - x[j] + x[k] for each listed target j (before the first -1) and each class k that is no target, where
    it counts, the listed targets (clipped to 0 past the list), the losses' shape)."""
    _check_pairs(np.shape(x)[np.ndim(x) - ranks[0]:])
    x, targets, shape = _samples(x, t, ranks, per_class_target=True)
    c = np.shape(x)[-1]
    listed = np.cumprod(targets >= 0, axis=-1).astype(bool)  # up to the first -1
    if np.any(listed & (targets >= c)) or np.any(targets < -1):
        raise ValueError("argument #2 'target' is out of range")
    places = np.where(listed, targets, 0)
    hit = np.any((places[..., :, None] == np.arange(c)) & listed[..., :, None], axis=-2)  # (..., N, K): a target
    picked = np.sum(np.where(places[..., :, None] == np.arange(c), x[..., None, :], 0.0), axis=-1)  # (..., N, J)
    z = 1.0 - picked[..., :, None] + x[..., None, :]  # (..., N, J, K)
    counts = listed[..., :, None] & ~hit[..., None, :] & (z > 0)
    return z, counts, places, shape


def _multilabel(x: Array, t: Array, ranks: tuple[int, ...], reduction: str = "mean") -> Array:
    sx, st = (np.shape(a)[np.ndim(a) - r:] for a, r in zip((x, t), ranks, strict=True))
    _multilabel_shape(sx, st, reduction)
    z, counts, _, shape = _multilabel_terms(x, t, ranks)
    return _reduce_samples(np.sum(np.where(counts, z, 0.0), axis=(-2, -1)) / np.shape(z)[-1], reduction, shape)


def _multilabel_vjp(g: Array, ans: Array, x: Array, t: Array, ranks: tuple[int, ...],
                    reduction: str = "mean") -> tuple[Any, None]:
    z, counts, places, _ = _multilabel_terms(x, t, ranks)
    c = np.shape(z)[-1]
    # PyTorch's kernel: each sample's own gradient (+1/c to k, -1/c to the target j of each pair that counts), then
    # times the incoming gradient (a NaN one reaches every class)
    each = np.where(counts, 1.0 / c, 0.0)  # (..., N, J, K)
    per_j = np.sum(each, axis=-1)  # (..., N, J)
    to_j = np.sum((places[..., :, None] == np.arange(c)) * per_j[..., :, None], axis=-2)
    local = np.sum(each, axis=-2) - to_j
    return np.reshape(local * _sample_upstream(g, reduction, np.shape(z)[:-2]), np.shape(x)), None


ROWS += [
    structural("multi_margin_loss", 2, _multi_margin, _multi_margin_vjp, "MultiMarginLossBackward0",
               jvp=lambda tangents, ans, x, t, ranks, **params: (
                   np.zeros_like(ans) if tangents[0] is None else _multi_margin_jvp(tangents[0], x, t, ranks, **params)),
               index_from=1, shape=_multi_margin_shape, inputs=("input", "target"), dialects=F_LOSS,
               params=(Param("p", "int", 1), Param("margin", "float", 1.0),
                       Param("weight", "absent", refused=("AttributeError", "'{type}' object has no attribute 'dim'")),
                       *LEGACY),
               domain=((-2.0, 2.0), (0.0, 0.0)),
               examples=((((3, 4), (3,)), {}), (((5,), ()), {"p": 2, "margin": 0.5}), (((2, 3), (2,)), {"reduction": "none"}),
                         (((4,), (1,)), {"reduction": "sum", "margin": 3.0})),
               reference="F.multi_margin_loss(a, b)", reference_program="multi_margin_loss(a, b)",
               dtype_refusals=kernel_refusal("multi_margin_loss_cpu_kernel")),
    structural("multilabel_margin_loss", 2, _multilabel, _multilabel_vjp, "MultilabelMarginLossBackward0",
               jvp=lambda tangents, ans, x, t, ranks, **params: (
                   np.zeros_like(ans) if tangents[0] is None else _multilabel_jvp(tangents[0], x, t, ranks, **params)),
               index_from=1, shape=_multilabel_shape, inputs=("input", "target"), params=LEGACY, dialects=F_LOSS,
               domain=((-2.0, 2.0), (0.0, 0.0)),
               examples=((((3, 4), (3, 4)), {}), (((5,), (5,)), {"reduction": "sum"}), (((2, 3), (2, 3)), {"reduction": "none"})),
               reference="F.multilabel_margin_loss(a, b)", reference_program="multilabel_margin_loss(a, b)",
               dtype_refusals=kernel_refusal("multilabel_margin_loss_forward_out_frame")),
]


def _multi_margin_jvp(tx: Any, x: Any, t: Any, ranks: tuple[int, ...], p: int = 1, margin: float = 1.0,
                      reduction: str = "mean") -> Any:
    z, counts, targets, shape = _multi_margin_terms(x, t, ranks, margin)
    txs, _, _ = _samples(tx, t, ranks, per_class_target=False)
    dz = txs - np.sum(np.where(np.arange(np.shape(z)[-1]) == targets[..., None], txs, 0.0), axis=-1, keepdims=True)
    terms = np.where(counts, dz if p == 1 else 2.0 * z * dz, 0.0)
    return _reduce_samples(np.sum(terms, axis=-1) / np.shape(z)[-1], reduction, shape)


def _multilabel_jvp(tx: Any, x: Any, t: Any, ranks: tuple[int, ...], reduction: str = "mean") -> Any:
    z, counts, places, shape = _multilabel_terms(x, t, ranks)
    txs, _, _ = _samples(tx, t, ranks, per_class_target=True)
    picked = np.sum(np.where(places[..., :, None] == np.arange(np.shape(z)[-1]), txs[..., None, :], 0.0), axis=-1)
    dz = -picked[..., :, None] + txs[..., None, :]
    return _reduce_samples(np.sum(np.where(counts, dz, 0.0), axis=(-2, -1)) / np.shape(z)[-1], reduction, shape)


# --- linear_cross_entropy: cross_entropy of linear's logits, recorded as PyTorch's reference path (options=None)
# records it: NllLossBackward0 over LogSoftmaxBackward0 over the logits' ViewBackward0 over linear's nodes -------


def _lce_shape(x: Shape, w: Shape, lb: Shape, cw: Shape, t: Shape, reduction: str = "mean",
               ignore_index: int | None = None, label_smoothing: float = 0.0) -> Shape:
    if not 1 <= len(x) <= 2:
        raise ValueError(f"expected input with dimensionality 1 or 2, got {len(x)}")
    if len(w) < 2:
        raise ValueError(f"expected linear_weight with dimensionality at least 2, got {len(w)}")
    if x[-1] != w[-1]:
        raise ValueError(f"expected equal input and linear_weight last dimensions (in_features), got {x[-1]} and "
                         f"{w[-1]}, respectively")
    if len(w) > 2:
        raise ValueError("linear_cross_entropy with a K-dimensional linear_weight (out_features) is not supported")
    if lb and tuple(lb) != (w[0],):
        raise ValueError(f"expected linear_bias shape {(w[0],)}, got {tuple(lb)}")
    logits = (*x[:-1], w[0])
    if cw and tuple(cw) != (w[0],):
        raise ValueRefusal(class_weight_problem(w[0], tuple(cw)),
                           f"the weight must have one number per class ({w[0]}), got shape {tuple(cw)}")
    return _ce_shape(logits, (), t, reduction)  # (cross_entropy's checks of its logits and class indices)


def _lce_program(emit: Any, x: Any, w: Any, lb: Any, cw: Any, t: Any, reduction: str = "mean",
                 ignore_index: int | None = None, label_smoothing: float = 0.0) -> Any:
    logits = emit("linear", x, w, lb) if emit.given(lb) else emit("linear_nobias", x, w)
    sx, sw = emit.shape(x), emit.shape(w)
    if sx is not None and sw is not None:  # (logits.reshape(logits_shape): a ViewBackward0 of its own shape)
        logits = emit("reshape", logits, shape=(*sx[:-1], sw[0]))
    return emit("cross_entropy", logits, cw, t, reduction=reduction,
                ignore_index=-100 if ignore_index is None else ignore_index, label_smoothing=label_smoothing)


ROWS += [
    composite("linear_cross_entropy", 5, _lce_program, "NllLossBackward0", sympy=None, index_from=4, conditions=(3,),
              tensor_positions=(0, 1, 3, 4, 2), optional_args=((3, "linear_bias", 0.0), (4, "weight", 1.0)),
              inputs=("input", "linear_weight", "linear_bias", "weight", "target"), shape=_lce_shape,
              params=(REDUCTION, Param("ignore_index", "int", None), Param("label_smoothing", "float", 0.0)),
              text=lambda args, **params: "linear_cross_entropy({}{}{}{})".format(
                  ", ".join([args[0], args[1], args[4]]),
                  "" if args[2] in ("0", "0.0") else f", linear_bias={args[2]}",
                  "" if args[3] in ("1", "1.0") else f", weight={args[3]}",
                  "".join(f", {k}={v!r}" for k, v in params.items()
                          if v != {"reduction": "mean", "ignore_index": None, "label_smoothing": 0.0}[k])),
              domain=((-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0), (0.5, 2.0), (0.0, 0.0)),
              examples=((((2, 3), (4, 3), (4,), (4,), (2,)), {}), (((3,), (2, 3), (2,), (2,), ()), {"reduction": "sum"}),
                        (((2, 3), (4, 3), (4,), (4,), (2,)), {"reduction": "none", "label_smoothing": 0.2})),
              reference="F.linear_cross_entropy(a, b, c.long())", reference_program="linear_cross_entropy(a, b, c)"),
]
