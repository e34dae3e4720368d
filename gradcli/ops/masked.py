"""torch.masked's functions: each is PyTorch's own program of rows, as torch/masked/_ops.py writes it.

`torch.masked.sum(x, dim, keepdim=False, mask=m)` is `torch.where(m, x, 0)` reduced over the dims
(all of them, as a tuple, where dim is None: SumBackward1): the masked-out elements take the
reduction's identity (0 for sum, 1 for prod, -inf for amax, logsumexp and softmax, inf for amin and
softmin, NaN for median, which is nanmedian). mean, var and std divide by the count of the mask
(a constant); normalize divides by the masked norm, at least eps. Without a mask (mask=None, or
none given) there is no where at all. Each function is two rows: `masked.NAME` without a mask and
`masked.NAME.where` with one (the call with mask= lowers to it: its `mask` a keyword-only tensor,
Op.keyword_tensors), both composites, so the graph and the gradients are those of their parts.
logaddexp is taken without its masks alone (input_mask=None, other_mask=None).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gradcli.ops.core import DimError, Op, Param, PythonValueError, ValueRefusal, composite, expand_problem

_IDENTITY = {"sum": 0.0, "prod": 1.0, "amax": -float("inf"), "amin": float("inf"), "logsumexp": -float("inf"),
             "cumsum": 0.0, "cumprod": 1.0, "softmax": -float("inf"), "log_softmax": -float("inf"),
             "softmin": float("inf"), "median": float("nan"), "norm": 0.0, "mean": 0.0, "var": 0.0, "std": 0.0,
             "normalize": 0.0, "logaddexp": -float("inf")}

_DIMS = Param("dim", "dims", None, aliases=("axis",))
_KEEPDIM = Param("keepdim", "bool", False, aliases=("keepdims",))
_DIM = Param("dim", "int", None, aliases=("axis",))


class _NotImplemented(ValueRefusal):
    kind = "NotImplementedError"


class _MissingArgument(ValueRefusal):  # (torch.masked's functions are Python's: a call without their dim)
    kind = "TypeError"


def _masked(emit: Any, x: Any, mask: Any, name: str) -> Any:
    if mask is None:
        return x
    _check_mask(emit, x, mask)
    return emit("where", mask, x, _identity(emit, x, name))


def _check_mask(emit: Any, x: Any, mask: Any) -> None:
    """torch.masked's _input_mask: a mask of more dims than x is its IndexError, one that does not expand to x's
    shape is broadcast_to's error."""
    shape, given = emit.shape(x), emit.shape(mask)
    if shape is None or given is None or tuple(shape) == tuple(given):
        return
    if len(given) > len(shape):
        raise DimError("_input_mask expected broadcastable mask (got mask dimensionality higher than of the input)")
    problem = expand_problem(given, shape)
    if problem is not None:
        raise ValueRefusal(problem)


def _identity(emit: Any, x: Any, name: str) -> Any:
    """torch.masked's _reduction_identity: the fill of the masked-out elements, a 0-d tensor of x's dtype (of
    integers the dtype's extreme for amax, amin and logsumexp; none of bools), so that the where keeps x's dtype."""
    kind = emit.dtype(x)
    if not kind or np.dtype(kind).kind == "f":
        return _IDENTITY[name]
    if name in ("amax", "amin", "logsumexp", "logaddexp", "softmax", "log_softmax", "softmin"):
        named = {"softmax": "amax", "log_softmax": "amax", "softmin": "amin"}.get(name, name)  # (whose identity)
        if np.dtype(kind).kind == "b":
            raise _NotImplemented(f"identity of {named} on torch.bool input")
        limits = np.iinfo(np.dtype(kind))
        return emit.tensor(np.asarray(limits.max if named == "amin" else limits.min, dtype=kind))
    value = 1 if name in ("prod", "cumprod") else 0
    return emit.tensor(np.asarray(value, dtype=kind))


def _as_input(emit: Any, x: Any, out: Any) -> Any:
    """PyTorch's `.to(dtype=input.dtype)` at the end of a masked reduction: a copy where the dtype differs."""
    kind = emit.dtype(x)
    return emit("to_copy", out, dtype=kind) if kind and kind != emit.dtype(out) else out


def _dims(emit: Any, x: Any, dim: Any) -> Any:
    """torch.masked's canonical dims: a sorted tuple, every dim where None (None itself where the shape is not known)."""
    shape = emit.shape(x)
    if shape is None:
        return dim
    if dim is None or dim == ():
        return tuple(range(len(shape)))
    rank = max(len(shape), 1)
    dims = dim if isinstance(dim, tuple) else (dim,)
    if any(not -rank <= d < rank for d in dims):
        bad = next(d for d in dims if not -rank <= d < rank)
        raise DimError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {bad})")
    return tuple(sorted({d % rank for d in dims}))


def _one(emit: Any, x: Any, dim: Any) -> Any:
    dims = _dims(emit, x, dim)
    return dims[0] if isinstance(dims, tuple) else dims


def _reduction(name: str) -> Any:
    def program(emit: Any, x: Any, mask: Any = None, dim: Any = None, keepdim: bool = False) -> Any:
        dims = _dims(emit, x, dim)
        if name == "prod":  # (one dim at a time, the last first: ProdBackward1 over ProdBackward1)
            out = _masked(emit, x, mask, name)
            for d in reversed(dims if isinstance(dims, tuple) else (dims,)):
                out = emit("prod", out, dim=d, keepdim=keepdim)
            return out
        out = emit(name, _masked(emit, x, mask, name), dim=dims, keepdim=keepdim)
        return _as_input(emit, x, out) if name != "sum" else out

    return program


def _count(emit: Any, x: Any, mask: Any, dims: Any, keepdim: bool) -> Any:
    """How many elements are not masked out, over the dims (a constant: no gradient)."""
    every = emit("logical_or", emit("eq", x, x), emit("ne", x, x))  # (a mask of x's shape: NaN too)
    return emit("sum", every if mask is None else emit("logical_and", mask, every), dim=dims, keepdim=keepdim)


def _mean(emit: Any, x: Any, mask: Any = None, dim: Any = None, keepdim: bool = False) -> Any:
    kind = emit.dtype(x)
    if kind and np.dtype(kind).kind != "f":
        raise PythonValueError("mean(): Could not infer output dtype. Input dtype must be either a floating point or "
                               f"complex dtype. Got: torch.{kind}")
    dims = _dims(emit, x, dim)
    total = emit("sum", _masked(emit, x, mask, "sum"), dim=dims, keepdim=keepdim)
    return emit("div", total, _count(emit, x, mask, dims, keepdim))


def _var(root: bool) -> Any:
    def program(emit: Any, x: Any, mask: Any = None, dim: Any = None, unbiased: Any = None, correction: Any = None,
                keepdim: bool = False) -> Any:
        dims = _dims(emit, x, dim)
        shift = 1.0 if unbiased is None and correction is None else (
            float(correction) if correction is not None else float(bool(unbiased)))
        mean = emit("div", emit("sum", _masked(emit, x, mask, "sum"), dim=dims, keepdim=True),
                    _count(emit, x, mask, dims, True))
        centered = emit("sub", x, mean)
        total = emit("sum", _masked(emit, emit("mul", centered, centered), mask, "sum"), dim=dims, keepdim=keepdim)
        count = _count(emit, x, mask, dims, keepdim)
        if shift != 0:
            count = emit("maximum", emit("sub", count, shift), emit("zeros_like", count))
        out = emit("div", total, count)
        return emit("sqrt", out) if root else out

    return program


def _norm(emit: Any, x: Any, mask: Any = None, ord: float = 2.0, dim: Any = None, keepdim: bool = False) -> Any:
    if mask is not None:
        _check_mask(emit, x, mask)
    filled = x if mask is None else emit("where", mask, x, float("inf") if ord == -float("inf") else
                                         _identity(emit, x, "norm"))
    return emit("norm", filled, p=ord, dim=_dims(emit, x, dim), keepdim=keepdim)


def _scan(name: str) -> Any:
    def program(emit: Any, x: Any, mask: Any = None, dim: Any = None) -> Any:
        if dim is None:
            raise _MissingArgument(f"{name}() missing 1 required positional argument: 'dim'")
        kind = emit.dtype(x)
        if name in ("cumsum", "cumprod") and kind == "bool":  # (PyTorch's scan in the input's dtype)
            raise _NotImplemented(f'"{name}_out_cpu" not implemented for \'Bool\'')
        along = _one(emit, x, dim)  # (PyTorch's _canonical_dim before the mask)
        filled = _masked(emit, x, mask, name)
        if name == "softmin":  # F.softmin: softmax of the negated
            return emit("softmax", emit("neg", filled), dim=along)
        return emit(name, filled, dim=along)

    return program


def _median(emit: Any, x: Any, mask: Any = None, dim: int = -1, keepdim: bool = False) -> Any:
    kind = emit.dtype(x)
    floating = not kind or np.dtype(kind).kind == "f"
    along = _one(emit, x, dim)  # (PyTorch's _canonical_dim before the mask)
    given = x if floating else emit("to_copy", x, dtype="float32")  # (integers and bools: the median of their floats)
    out = emit("nanmedian_dim", _masked(emit, given, mask, "median"), dim=along, keepdim=keepdim, part=0, of=None)
    if floating:
        return out
    if np.isnan(out.data).any():  # (under `run`, where a tensor holds its values: the only front end with integers)
        raise PythonValueError("masked median expects no fully masked out rows if dtype is not floating point")
    return emit("to_copy", out, dtype=kind)


def _normalize(emit: Any, x: Any, mask: Any = None, ord: float = 2.0, dim: Any = None, eps: float = 1e-12) -> Any:
    if dim is None:
        raise _MissingArgument("normalize() missing 1 required positional argument: 'dim'")
    norm = _norm(emit, x, mask, ord, dim, keepdim=True)
    denominator = emit("maximum", norm, emit("add", emit("zeros_like", norm), eps))
    return emit("div", _masked(emit, x, mask, "sum"), denominator)


def _text(name: str, masks: tuple[str, ...]) -> Any:
    def text(args: list[str], **params: Any) -> str:
        tensors = len(args) - len(masks)
        given = [f"{key}={value!r}" for key, value in params.items() if value is not None and (key, value) != (
            "keepdim", False)]
        written = [f"{key}={arg} != 0" for key, arg in zip(masks, args[tensors:], strict=True)]
        return f"torch.masked.{name}({', '.join([*args[:tensors], *given, *written])})"

    return text


def _pair(name: str, program: Any, params: tuple[Param, ...], examples: Any, reference: str, torch_node: str,
          masks: tuple[str, ...] = ("mask",), arity: int = 1, masked_form: bool = True, **fields: Any) -> list[Op]:
    """The rows of torch.masked.NAME: without its mask (`masked.NAME`) and with it (`masked.NAME.where`)."""
    def bare(emit: Any, *args: Any, **given: Any) -> Any:
        for key in masks:
            if given.pop(key, None) is not None:
                raise ValueError(f"masked.{name}: {key} is a tensor of booleans, or None")
        return program(emit, *args, *([None] * len(masks)), **given)

    nothing = tuple(Param(key, "float", None) for key in masks)
    plain = composite(f"masked.{name}", arity, bare, torch_node, params=params + nothing, callable=False, sympy=None,
                      overloads=(f"masked.{name}.where",) if masked_form else (), text=_text(name, ()), examples=examples,
                      reference=f"torch.masked.{name}({reference})",
                      reference_program=f"torch.masked.{name}({reference})", **fields)
    positions = ", ".join("bcd"[arity - 1:][: len(masks)])
    masked = composite(f"masked.{name}.where", arity + len(masks), program, torch_node, params=params, callable=False,
                       sympy=None, keyword_tensors=masks, conditions=tuple(range(arity, arity + len(masks))),
                       text=_text(name, masks),
                       examples=tuple((shapes + shapes[:1] * len(masks), given) for shapes, given in examples),
                       reference=(call := f"torch.masked.{name}({reference}, " + ", ".join(
                           f"{key}={p} != 0" for key, p in zip(masks, positions.split(", "), strict=True)) + ")"),
                       reference_program=call, **fields)
    return [plain, masked] if masked_form else [plain]


_REDUCED: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = ((((2, 3),), {}), (((2, 3),), {"dim": 1}), (((2, 3),), {"dim": 0, "keepdim": True}), (((4,),), {}))
_ALONG: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = ((((2, 3),), {"dim": 1}), (((2, 3),), {"dim": 0}), (((4,),), {"dim": 0}))

def _logaddexp(emit: Any, a: Any, b: Any, input_mask: Any = None, other_mask: Any = None) -> Any:
    # torch.masked.logaddexp: the result in the input's dtype (ToCopyBackward0 where the other's promoted it; an
    # integer input's a copy with no gradient)
    out = emit("logaddexp", _masked(emit, a, input_mask, "logaddexp"), _masked(emit, b, other_mask, "logaddexp"))
    kind = emit.dtype(a)
    return emit("to_copy", out, dtype=kind) if kind and kind != emit.dtype(out) else out


ROWS: list[Op] = [
    *_pair("sum", _reduction("sum"), (_DIMS, _KEEPDIM), _REDUCED, "a, 0", "SumBackward1"),
    *_pair("prod", _reduction("prod"), (_DIMS, _KEEPDIM), _REDUCED, "a, 0", "ProdBackward1"),
    *_pair("amax", _reduction("amax"), (_DIMS, _KEEPDIM), _REDUCED, "a, 0", "AmaxBackward0"),
    *_pair("amin", _reduction("amin"), (_DIMS, _KEEPDIM), _REDUCED, "a, 0", "AminBackward0"),
    *_pair("logsumexp", _reduction("logsumexp"), (_DIMS, _KEEPDIM), _REDUCED, "a, 0", "LogsumexpBackward0"),
    *_pair("mean", _mean, (_DIMS, _KEEPDIM), _REDUCED, "a, 0", "DivBackward0"),
    *_pair("norm", _norm, (Param("ord", "float", 2.0, choices=()), _DIMS, _KEEPDIM), _REDUCED, "a, 2.0, 0",
           "LinalgVectorNormBackward0"),
    *_pair("var", _var(False), (_DIMS, Param("unbiased", "bool", None), Param("correction", "float", None), _KEEPDIM),
           _REDUCED, "a, 0", "DivBackward0"),
    *_pair("std", _var(True), (_DIMS, Param("unbiased", "bool", None), Param("correction", "float", None), _KEEPDIM),
           _REDUCED, "a, 0", "SqrtBackward0"),
    *_pair("cumsum", _scan("cumsum"), (_DIM,), _ALONG, "a, 0", "CumsumBackward0"),
    *_pair("cumprod", _scan("cumprod"), (_DIM,), _ALONG, "a, 0", "CumprodBackward0"),
    *_pair("softmax", _scan("softmax"), (_DIM,), _ALONG, "a, 0", "SoftmaxBackward0"),
    *_pair("log_softmax", _scan("log_softmax"), (_DIM,), _ALONG, "a, 0", "LogSoftmaxBackward0"),
    *_pair("softmin", _scan("softmin"), (_DIM,), _ALONG, "a, 0", "SoftmaxBackward0"),
    *_pair("median", _median, (Param("dim", "int", -1, aliases=("axis",)), _KEEPDIM), _ALONG, "a, 0",
           "NanmedianBackward1"),
    *_pair("normalize", _normalize, (Param("ord", "float", 2.0), _DIM, Param("eps", "float", 1e-12)),
           ((((2, 3),), {"ord": 2.0, "dim": 1}), (((4,),), {"ord": 1.0, "dim": 0})), "a, 2.0, 0", "DivBackward0"),
    *_pair("logaddexp", _logaddexp, (),
        ((((2, 3), (2, 3)), {}), (((4,), (4,)), {})), "a, b", "LogaddexpBackward0", masks=("input_mask", "other_mask"),
        arity=2, masked_form=False),  # (with its masks: four tensors, more than the tests' references take)
]
