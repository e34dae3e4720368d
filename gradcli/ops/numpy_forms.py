"""NumPy's functions where NumPy's semantics are not PyTorch's: `np.dot`, `np.median`, `np.cumsum`, ...

The spelling says whose semantics (gradcli.lowering): `np.dot(m, m)` is NumPy's product of any shapes,
`np.median` NumPy's mean of the two middle values, `np.cumsum(m)` the running sum of m flattened. Each is a
program of the rows PyTorch has (a composite), reached from the row of the same PyTorch name by a
Dialect("numpy", row=...), so that no derivative is written again and `graph` shows the nodes
of the rows the program runs. They have no PyTorch reference (NumPy's value is theirs):
tests/test_numpy_spellings.py holds each to NumPy itself and its gradient to central differences.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradcli.ops.core import Dialect, Param, Shape, Unsupported, composite


def _shapes_or_none(emit: Any, *handles: Any) -> list[Shape] | None:
    shapes = [emit.shape(h) for h in handles]
    return None if any(s is None for s in shapes) else shapes


def _whole(emit: Any, row: str, *args: Any, **params: Any) -> Any:
    """Where the args' shapes are not known yet: the row as one node, built again at a point's shapes
    (compositions.shaped_later)."""
    return emit("shaped_later", *args, of=row, given=tuple(sorted(params.items())))


def _numpy_tuple(shape: Shape) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else f"({','.join(str(size) for size in shape)})"


def _call(name: str, defaults: dict[str, Any]) -> Any:
    """The print rule of a call: its args, then the params it was given (by NumPy's names)."""
    def text(args: Any, **params: Any) -> str:
        said = [f"{_NUMPY_NAMES.get(key, key)}={value!r}" for key, value in params.items()
                if key in defaults and value != defaults[key]]
        return f"{name}({', '.join([*args, *said])})"

    return text


_NUMPY_NAMES = {"dim": "axis", "keepdim": "keepdims", "dims": "axes", "dim1": "axis1", "dim2": "axis2"}
_AXIS = Param("dim", "int", None, aliases=("axis",))
_KEEPDIMS = Param("keepdim", "bool", False, aliases=("keepdims",))


# --- np.dot: a number scales; up to matrices matmul; else a's last axis against b's second-to-last ---------------


def _dot_shape(a: Shape, b: Shape) -> Shape:
    if not a or not b:
        return tuple(a or b)
    inner = len(b) - 2 if len(b) > 1 else 0
    if a[-1] != b[inner]:  # (NumPy's words)
        raise ValueError(f"shapes {_numpy_tuple(a)} and {_numpy_tuple(b)} not aligned: {a[-1]} (dim {len(a) - 1}) "
                         f"!= {b[inner]} (dim {inner})")
    return (*a[:-1], *b[:inner], *b[inner + 1:])


def _dot_row(shapes: Any) -> str:
    if not all(shapes):
        return "mul"
    return "matmul" if max(len(shape) for shape in shapes) <= 2 else "tensordot"


def _dot_program(emit: Any, a: Any, b: Any) -> Any:
    shapes = _shapes_or_none(emit, a, b)
    if shapes is None:
        return _whole(emit, "numpy_dot", a, b)
    sa, sb = shapes
    _dot_shape(sa, sb)
    row = _dot_row(shapes)
    if row != "tensordot":  # np.dot(2., m): a product; of vectors and matrices: matmul's
        return emit(row, a, b)
    return emit("tensordot", a, b, dims=((len(sa) - 1,), (len(sb) - 2 if len(sb) > 1 else 0,)))


def _dot_node(constant: Any, shapes: Any) -> str:
    from gradcli.ops import OPS, torch_node_name

    if not shapes or len(shapes) != 2:
        return "MmBackward0"
    return torch_node_name(OPS[_dot_row(shapes)], constant, shapes)


def _cannot_take(name: str) -> Any:
    def message(label: str, shapes: Any) -> str:
        return f"{name} cannot take shapes {' and '.join(str(tuple(s)) for s in shapes)}"

    return message


# --- np.median, np.percentile: NumPy's linear interpolation between the two middle values ------------------------


def _median_program(row: str) -> Any:
    quantile = "nanquantile" if row == "numpy_nanmedian" else "quantile"

    def program(emit: Any, x: Any, dim: Any = None, keepdim: bool = False) -> Any:
        return emit(quantile, x, q=0.5, dim=dim, keepdim=keepdim)

    return program


def _median_shape(x: Shape, dim: Any = None, keepdim: bool = False) -> Shape:
    from gradcli.ops import OPS

    return OPS["quantile"].shape(x, q=0.5, dim=dim, keepdim=keepdim)  # type: ignore[misc]


def _percentile_shape(x: Shape, q: Any = None, dim: Any = None, keepdim: bool = False,
                      interpolation: str = "linear") -> Shape:
    from gradcli.ops import OPS

    if q is None or not 0.0 <= q <= 100.0:  # (NumPy's words)
        raise ValueError("Percentiles must be in the range [0, 100]")
    return OPS["quantile"].shape(x, q=q / 100.0, dim=dim, keepdim=keepdim,  # type: ignore[misc]
                                 interpolation=interpolation)


def _percentile_program(emit: Any, x: Any, q: Any = None, dim: Any = None, keepdim: bool = False,
                        interpolation: str = "linear") -> Any:
    if q is None:  # (Python's words: np.percentile(x))
        raise ValueError("percentile() missing 1 required positional argument: 'q'")
    shape = emit.shape(x)
    if shape is not None:
        _percentile_shape(shape, q, dim, keepdim, interpolation)
    return emit("quantile", x, q=q / 100.0, dim=dim, keepdim=keepdim, interpolation=interpolation)


# --- np.cumsum, np.cumprod: without an axis, of the array flattened ------------------------------------------------


def _scan_program(row: str) -> Any:
    def program(emit: Any, x: Any, dim: Any = None) -> Any:
        if dim is None:
            return emit(row, emit("reshape", x, shape=(-1,)), dim=0)
        return emit(row, x, dim=dim)

    return program


def _scan_shape(x: Shape, dim: Any = None) -> Shape:
    if dim is None:
        return (int(math.prod(x)),)
    _axis(dim, len(x))
    return tuple(x)


def _axis(dim: int, rank: int) -> int:
    if not -max(rank, 1) <= dim < max(rank, 1):  # (NumPy's AxisError)
        raise ValueError(f"axis {dim} is out of bounds for array of dimension {rank}")
    return dim % max(rank, 1)


# --- np.trace: the sum of a diagonal (offset, axis1, axis2), of any array of two axes or more ----------------------


def _trace_shape(x: Shape, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Shape:
    if len(x) < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    first, second = _axis(dim1, len(x)), _axis(dim2, len(x))
    if first == second:
        raise ValueError("axis1 and axis2 cannot be the same")
    return tuple(size for i, size in enumerate(x) if i not in (first, second))


def _trace_program(emit: Any, x: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    shape = emit.shape(x)
    if shape is not None:
        _trace_shape(shape, offset, dim1, dim2)
        if len(shape) == 2 and offset == 0 and dim1 % 2 == 0 and dim2 % 2 == 1:  # torch.trace's own
            return emit("trace", x)
    return emit("sum", emit("diagonal", x, offset=offset, dim1=dim1, dim2=dim2), dim=-1)


# --- np.transpose: every axis reversed, or in the order `axes` says ------------------------------------------------


def _transpose_shape(x: Shape, dims: Any = None) -> Shape:
    order = _transpose_order(len(x), dims)
    return tuple(x[i] for i in order)


def _transpose_order(rank: int, dims: Any) -> tuple[int, ...]:
    if dims is None:
        return tuple(range(rank))[::-1]
    if len(dims) != rank:
        raise ValueError("axes don't match array")
    order = tuple(_axis(d, rank) for d in dims)
    if len(set(order)) != rank:
        raise ValueError("repeated axis in transpose")
    return order


def _transpose_program(emit: Any, x: Any, dims: Any = None) -> Any:
    shape = emit.shape(x)
    if shape is None:
        return _whole(emit, "numpy_transpose", x, dims=dims)
    return emit("permute", x, dims=_transpose_order(len(shape), dims))


# --- np.linalg.solve: NumPy 2's rule, b a vector only where it is 1-D ---------------------------------------------


def _solve_shape(a: Shape, b: Shape) -> Shape:
    if len(a) < 2:
        raise ValueError(f"{len(a)}-dimensional array given. Array must be at least two-dimensional")
    if a[-1] != a[-2]:
        raise ValueError("Last 2 dimensions of the array must be square")
    rows = b[0] if len(b) == 1 else b[-2] if len(b) > 1 else None
    if rows != a[-1]:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0 (size {rows} is different "
                         f"from {a[-1]})")
    if len(b) == 1:
        return (*a[:-1],)
    return (*np.broadcast_shapes(a[:-2], b[:-2]), *b[-2:])


def _solve_program(emit: Any, a: Any, b: Any) -> Any:
    shapes = _shapes_or_none(emit, a, b)
    if shapes is None:
        return _whole(emit, "numpy_solve", a, b)
    sa, sb = shapes
    out = _solve_shape(sa, sb)
    if len(sb) > 1 and tuple(sb) == tuple(sa[:-1]):  # (PyTorch would read b as a batch of vectors: NumPy's matrix)
        b = emit("expand", b, size=out)
    return emit("solve", a, b)


# --- np.pad: pad_width per axis, (before, after), in the axes' order ----------------------------------------------


_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric", "wrap",
              "empty")


def _pad_widths(rank: int, widths: Any) -> list[tuple[int, int]]:
    """NumPy's pad_width, one (before, after) for each axis: an int, (n,), (before, after), ((before, after),)
    for every axis, or one pair per axis."""
    pairs = widths if isinstance(widths, tuple) else (widths,)
    if pairs and all(isinstance(pair, tuple) for pair in pairs):
        if len(pairs) == 1:
            pairs = pairs * rank
    elif len(pairs) in (1, 2) and all(isinstance(n, int) for n in pairs):
        pairs = (pairs,) * rank
    else:
        raise ValueError("pad_width must be a whole number, a pair (before, after), or one pair for each axis")
    if len(pairs) != rank:
        raise ValueError(f"operands could not be broadcast together with remapped shapes [original->remapped]: "
                         f"({len(pairs)},2) and requested shape ({rank},2)")
    out = []
    for pair in pairs:
        if len(pair) not in (1, 2) or not all(isinstance(n, int) and not isinstance(n, bool) for n in pair):
            raise ValueError("pad_width must be whole numbers")
        before, after = (pair[0], pair[0]) if len(pair) == 1 else pair
        if before < 0 or after < 0:
            raise ValueError("index can't contain negative values")
        out.append((before, after))
    return out


def _pad_shape(x: Shape, pad_width: Any = None, mode: str = "constant", constant_values: float = 0.0) -> Shape:
    if mode != "constant":
        raise Unsupported(f"np.pad's mode '{mode}' is not supported (its mode 'constant' is)")
    return tuple(size + before + after for size, (before, after) in zip(x, _pad_widths(len(x), pad_width), strict=True))


def _pad_program(emit: Any, x: Any, pad_width: Any = None, mode: str = "constant", constant_values: float = 0.0) -> Any:
    shape = emit.shape(x)
    if shape is None:
        return _whole(emit, "numpy_pad", x, pad_width=pad_width, mode=mode, constant_values=constant_values)
    _pad_shape(shape, pad_width, mode, constant_values)
    widths = _pad_widths(len(shape), pad_width)
    pad = tuple(n for before, after in reversed(widths) for n in (before, after))  # (F.pad's: the last axis first)
    return emit("pad", x, pad=pad, value=constant_values)


# np.linalg.svd(a, full_matrices=True, compute_uv=True, hermitian=False): torch.linalg.svd's (U, S, Vh), and with
# compute_uv=False the singular values alone (svdvals), as NumPy returns them; hermitian=True (NumPy's eigh of a
# hermitian matrix) is not taken
_SVD_PARAMS = (Param("full_matrices", "bool", True), Param("compute_uv", "bool", True),
               Param("hermitian", "absent", False))


def _svd_program(emit: Any, a: Any, full_matrices: bool = True, compute_uv: bool = True, hermitian: Any = False,
                 part: int = 0, of: Any = None) -> Any:
    return emit("linalg_svd", a, full_matrices=full_matrices, part=part, of=of)


def _svd_shape(a: Shape, full_matrices: bool = True, compute_uv: bool = True, hermitian: Any = False, part: int = 0,
               of: Any = None) -> Shape:
    from gradcli.ops import OPS

    return tuple(OPS["linalg_svd"].shape(a, full_matrices=full_matrices, part=part, of=of))  # type: ignore[misc]


def _svdvals_program(emit: Any, a: Any, full_matrices: bool = True, compute_uv: bool = False,
                     hermitian: Any = False) -> Any:
    return emit("svdvals", a)


def _svdvals_shape(a: Shape, full_matrices: bool = True, compute_uv: bool = False, hermitian: Any = False) -> Shape:
    from gradcli.ops import OPS

    return tuple(OPS["svdvals"].shape(a))  # type: ignore[misc]


ROWS = [
    composite("numpy_svd", 1, _svd_program, "LinalgSvdBackward0", sympy=None, shape=_svd_shape, parts=3,
              fields=("U", "S", "Vh"), params=_SVD_PARAMS, rebinds=(("compute_uv", False, "numpy_svdvals"),),
              callable=False, reference=None,
              text=lambda args, part=0, of=None, **params: _call("np.linalg.svd", {"full_matrices": True})(
                  args, **{k: v for k, v in params.items() if k == "full_matrices"}) + f"[{part}]",
              examples=(((((3, 2),), {"part": 1}), (((2, 3),), {"part": 0, "full_matrices": False})))),
    composite("numpy_svdvals", 1, _svdvals_program, "LinalgSvdBackward0", sympy=None, shape=_svdvals_shape,
              params=(*_SVD_PARAMS[:1], Param("compute_uv", "bool", False), _SVD_PARAMS[2]), callable=False,
              reference=None, text=lambda args, **params: f"np.linalg.svd({args[0]}, compute_uv=False)",
              examples=(((((3, 2),), {}), (((2, 2, 3),), {})))),

    composite("numpy_median", 1, _median_program("numpy_median"), "SqueezeBackward4", sympy=None, shape=_median_shape,
              params=(_AXIS, _KEEPDIMS), callable=False, reference=None, kinked=True,
              text=_call("np.median", {"dim": None, "keepdim": False}),
              examples=(((((4,),), {}), (((5,),), {}), (((2, 4),), {"dim": 1}), (((3, 2),), {"dim": 0, "keepdim": True})))),
    composite("numpy_nanmedian", 1, _median_program("numpy_nanmedian"), "SqueezeBackward4", sympy=None,
              shape=_median_shape, params=(_AXIS, _KEEPDIMS), callable=False, reference=None, kinked=True,
              text=_call("np.nanmedian", {"dim": None, "keepdim": False}),
              examples=(((((4,),), {}), (((2, 4),), {"dim": 1})))),
    composite("percentile", 1, _percentile_program, "SqueezeBackward4", sympy=None, shape=_percentile_shape,
              params=(Param("q", "float", None), _AXIS, _KEEPDIMS,
                      Param("interpolation", "str", "linear", aliases=("method",),
                            choices=("linear", "lower", "higher", "midpoint", "nearest"))),
              dialects=(Dialect("numpy", order=("q", "dim")),), callable=False, reference=None, kinked=True,
              text=_call("np.percentile", {"q": None, "dim": None, "keepdim": False, "interpolation": "linear"}),
              examples=(((((5,),), {"q": 30.0}), (((3, 4),), {"q": 50.0, "dim": 1}),
                         (((3, 4),), {"q": 75.0, "dim": 0, "keepdim": True})))),
    composite("numpy_cumsum", 1, _scan_program("cumsum"), "CumsumBackward0", sympy=None, shape=_scan_shape,
              params=(_AXIS,), callable=False, reference=None, text=_call("np.cumsum", {"dim": None}),
              examples=(((((2, 3),), {}), (((2, 3),), {"dim": 1}), (((4,),), {})))),
    composite("numpy_cumprod", 1, _scan_program("cumprod"), "CumprodBackward0", sympy=None, shape=_scan_shape,
              params=(_AXIS,), callable=False, reference=None, text=_call("np.cumprod", {"dim": None}),
              examples=(((((2, 3),), {}), (((2, 3),), {"dim": 0})))),
    composite("numpy_trace", 1, _trace_program, "SumBackward1", sympy=None, shape=_trace_shape,
              params=(Param("offset", "int", 0), Param("dim1", "int", 0, aliases=("axis1",)),
                      Param("dim2", "int", 1, aliases=("axis2",))),
              torch_node_rule=lambda constant, shapes, offset=0, dim1=0, dim2=1: "TraceBackward0" if (
                  shapes and len(shapes[0]) == 2 and offset == 0 and dim1 % 2 == 0 and dim2 % 2 == 1) else "SumBackward1",
              callable=False, reference=None, text=_call("np.trace", {"offset": 0, "dim1": 0, "dim2": 1}),
              examples=(((((3, 3),), {}), (((3, 4),), {"offset": 1}), (((4, 3),), {"offset": -2}),
                         (((2, 3, 4),), {"offset": 1}), (((2, 3, 4),), {"dim1": 1, "dim2": 2})))),
    composite("numpy_transpose", 1, _transpose_program, "PermuteBackward0", sympy=None, shape=_transpose_shape,
              params=(Param("dims", "ints", None, aliases=("axes",)),), callable=False, reference=None,
              text=_call("np.transpose", {"dims": None}),
              examples=(((((2, 3),), {}), (((2, 3, 4),), {}), (((2, 3, 4),), {"dims": (2, 0, 1)})))),
    composite("numpy_solve", 2, _solve_program, "LinalgSolveExBackward0", sympy=None, shape=_solve_shape,
              shape_message=_cannot_take("np.linalg.solve"),
              callable=False, reference=None, text=_call("np.linalg.solve", {}),
              examples=(((((3, 3), (3,)), {}), (((3, 3), (3, 2)), {}), (((2, 2, 2), (2, 2)), {}),
                         (((2, 3, 3), (3,)), {})))),
    composite("numpy_pad", 1, _pad_program, "ConstantPadNdBackward0", sympy=None, shape=_pad_shape,
              params=(Param("pad_width", "widths", None), Param("mode", "str", "constant", choices=_PAD_MODES),
                      Param("constant_values", "float", 0.0)),
              callable=False, reference=None,
              text=_call("np.pad", {"pad_width": None, "mode": "constant", "constant_values": 0.0}),
              examples=(((((2, 2),), {"pad_width": 1}), (((2, 3),), {"pad_width": (1, 2)}),
                         (((2, 3),), {"pad_width": ((1, 0), (0, 2))}), (((3,),), {"pad_width": 2, "constant_values": 1.5})))),
    composite("numpy_dot", 2, _dot_program, "MmBackward0", sympy=None, shape=_dot_shape, shape_message=_cannot_take("np.dot"),
              callable=False, reference=None, text=_call("np.dot", {}), torch_node_rule=_dot_node,
              examples=(((((2, 3), (3, 4)), {}), (((3,), (3,)), {}), (((), (2, 3)), {}), (((2, 3), (3,)), {}),
                         (((2, 2, 3), (2, 3, 4)), {}), (((2, 3), (4, 3, 2)), {})))),
]
