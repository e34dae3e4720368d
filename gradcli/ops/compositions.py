"""Composite rows of linear algebra and statistics, each the program of rows PyTorch runs (its C++ in
aten/src/ATen/native/LinearAlgebra.cpp, Correlation.cpp, TensorShape.cpp), so that `graph` shows the
nodes PyTorch records: linalg.multi_dot, diagflat, linalg.vander, linalg.tensorinv, linalg.tensorsolve,
cov, corrcoef, meshgrid, cartesian_prod and combinations.

Their graphs depend on the args' shapes (multi_dot's order of products, cov's count of observations):
each program asks for them (emit.shape); where they are not known yet, the call is one node
(shaped_later) whose value at a point is the composite's own, and the tape is built again with the
point's shapes; a tape for many points refuses it rather than guess.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from gradcli.errors import Limits, over_limit
from gradcli.ops import linalg
from gradcli.ops.core import (
    DimError,
    LinAlgError,
    Param,
    Shape,
    TypedWords,
    Unsupported,
    composite,
    structural,
    torch_positional,
)
from gradcli.ops.linalg import _reshaped


def _shapes_or_none(emit: Any, *handles: Any) -> list[Shape] | None:
    shapes = [emit.shape(h) for h in handles]
    return None if any(s is None for s in shapes) else shapes


def _whole(emit: Any, row: str, *args: Any, **params: Any) -> Any:
    """Where the args' shapes are not known (the first pass at a point, a tape for many points): the
    composite as one node (shaped_later), whose rules are the composite's own, each point's tape built
    with its shapes; at a point the tape is then built again with them, and shows PyTorch's graph."""
    return emit("shaped_later", *args, of=row, given=tuple(sorted(params.items())))


def _later(rule: str) -> Any:
    def apply(*args: Any, ranks: tuple[int, ...], of: str = "", given: Any = ()) -> Any:
        from gradcli.ops import OPS

        return getattr(OPS[of], rule)(*args, ranks=ranks, **dict(given))

    return apply


def _later_shape(*shapes: Shape, of: str = "", given: Any = ()) -> Shape:
    from gradcli.ops import OPS

    return tuple(OPS[of].shape(*shapes, **dict(given)))  # type: ignore[misc]


def _later_node(constant: Any, shapes: Any, of: str = "", given: Any = ()) -> str:
    from gradcli.ops import OPS, torch_node_name

    return torch_node_name(OPS[of], constant, shapes, dict(given))


def _call(name: str, defaults: dict[str, Any], listed: bool = False) -> Any:
    """The print rule of a call: its args (a list of them where `listed`), then the params it was given."""
    def text(args: Any, **params: Any) -> str:
        said = [f"{key}={value!r}" for key, value in params.items() if key in defaults and value != defaults[key]]
        written = f"[{', '.join(args)}]" if listed else ", ".join(args)
        return f"{name}({', '.join([written, *said])})"

    return text


# --- linalg.multi_dot: mm in the cheapest order, a 1-D first (last) arg a row (column) --------------


def _multi_dot_shape(*shapes: Shape) -> Shape:
    n = len(shapes)
    if n < 2:
        raise ValueError(f"multi_dot(): expected at least 2 tensors but got {n}")
    if len(shapes[0]) not in (1, 2):
        raise ValueError(f"multi_dot(): the first tensor must be 1D or 2D but got {len(shapes[0])}D")
    if len(shapes[-1]) not in (1, 2):
        raise ValueError(f"multi_dot(): the last tensor must be 1D or 2D but got {len(shapes[-1])}D")
    for i in range(1, n - 1):
        if len(shapes[i]) != 2:
            raise ValueError(f"multi_dot(): tensor {i} must be 2D but got {len(shapes[i])}D")
    mats = _as_matrices(shapes)
    for i in range(1, n):
        if mats[i - 1][1] != mats[i][0]:
            raise ValueError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(shapes[i - 1])} and "
                             f"{list(shapes[i])} cannot be multiplied")
    return tuple(([shapes[0][0]] if len(shapes[0]) == 2 else []) + ([shapes[-1][1]] if len(shapes[-1]) == 2 else []))


def _as_matrices(shapes: Any) -> list[tuple[int, int]]:
    mats = [tuple(s) for s in shapes]
    if len(mats[0]) == 1:
        mats[0] = (1, mats[0][0])
    if len(mats[-1]) == 1:
        mats[-1] = (mats[-1][0], 1)
    return mats


def _chain_order(mats: list[tuple[int, int]]) -> list[list[int]]:
    """PyTorch's matrix_chain_order (Cormen's dynamic program): s[i][j], where the chain i..j splits."""
    n = len(mats)
    p = [mats[0][0]] + [m[1] for m in mats]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = 2**63 - 1
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _multi_dot_program(emit: Any, *tensors: Any) -> Any:
    shapes = _shapes_or_none(emit, *tensors)
    if shapes is None:
        return _whole(emit, "multi_dot", *tensors)
    out = _multi_dot_shape(*shapes)
    parts = list(tensors)
    if len(shapes[0]) == 1:
        parts[0] = emit("unsqueeze", parts[0], dim=0)
    if len(shapes[-1]) == 1:
        parts[-1] = emit("unsqueeze", parts[-1], dim=-1)
    mats = _as_matrices(shapes)
    if len(parts) == 2:
        product = emit("mm", parts[0], parts[1])
    elif len(parts) == 3:  # (PyTorch's own comparison of the two orders)
        (a, b), (_, c), (_, d) = mats
        if a * c * (b + d) > b * d * (a + c):
            product = emit("mm", parts[0], emit("mm", parts[1], parts[2]))
        else:
            product = emit("mm", emit("mm", parts[0], parts[1]), parts[2])
    else:
        split = _chain_order(mats)

        def chain(i: int, j: int) -> Any:
            if i == j:
                return parts[i]
            return emit("mm", chain(i, split[i][j]), chain(split[i][j] + 1, j))

        product = chain(0, len(parts) - 1)
    return emit("reshape", product, shape=out)


# --- diagflat, linalg.vander ------------------------------------------------------------------------


def _diagflat_shape(x: Shape, offset: int = 0) -> Shape:
    n = math.prod(x) + abs(offset)
    return (n, n)


def _diagflat_program(emit: Any, x: Any, offset: int = 0) -> Any:
    return emit("diag_embed", emit("reshape", x, shape=(-1,)), offset=offset)


def _vander_shape(x: Shape, N: Any = None) -> Shape:
    lifted = tuple(x) or (1,)
    n = lifted[-1] if N is None else N
    if n <= 1:
        raise ValueError("N must be greater than 1.")
    return (*lifted, n)


def _vander_program(emit: Any, x: Any, N: Any = None) -> Any:
    shape = emit.shape(x)
    if shape is None:
        return _whole(emit, "vander", x, N=N)
    out = _vander_shape(shape, N)
    lifted = emit("unsqueeze", x, dim=-1) if not shape else x
    column = emit("unsqueeze", lifted, dim=-1)
    powers = emit("cumprod", emit("expand", column, size=(*out[:-1], out[-1] - 1)), dim=-1)
    return emit("cat", emit("ones_like", column), powers, dim=-1)


# --- linalg.tensorinv, linalg.tensorsolve: inv and solve of the args reshaped to matrices -----------


def _tensorinv_shape(a: Shape, ind: int = 2) -> Shape:
    if ind <= 0:
        raise ValueError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    if ind > len(a):  # (PyTorch slices A's shape past its end)
        raise ValueError(f"ArrayRef: invalid slice, N = {ind}; size = {len(a)}")
    start, end = math.prod(a[:ind]), math.prod(a[ind:])
    if start != end:
        raise ValueError("Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
                         f"but got {end} != {start}")
    return (*a[ind:], *a[:ind])


def _tensorinv_program(emit: Any, a: Any, ind: int = 2) -> Any:
    shape = emit.shape(a)
    if shape is None:
        return _whole(emit, "tensorinv", a, ind=ind)
    out = _tensorinv_shape(shape, ind)
    n = math.prod(shape[ind:])
    inverse = emit("tensorinv_inv", emit("reshape", a, shape=(n, n)))
    return _reshaped(emit, inverse, (n, n), (1, n), out)  # (LAPACK's inverse is column-major)


def _inv_as_tensorinv(a: Any, ranks: tuple[int, ...], singular_ok: bool = False) -> Any:
    # (PyTorch's tensorinv takes linalg.inv_ex and checks its info itself, as "inv")
    try:
        return linalg._inv(a, ranks, singular_ok)
    except LinAlgError as error:
        raise LinAlgError(f"inv: {str(error).partition(': ')[2]}") from None


def _tensorinv_inv() -> Any:
    """tensorinv's inverse: linalg.inv's row, its singular matrix said in tensorinv's words."""
    inv = next(op for op in linalg.ROWS if op.name == "inv")
    return dataclasses.replace(inv, name="tensorinv_inv", forward=_inv_as_tensorinv, callable=False, spellings=(),
                               methods=(), examples=(), reference=None,
                               text=lambda args: f"torch.linalg.inv({args[0]})")


def _tensorsolve_order(rank: int, dims: Any) -> list[int]:
    moved = [d % rank for d in dims]
    return [d for d in range(rank) if d not in moved] + moved


def _tensorsolve_shape(a: Shape, b: Shape, dims: Any = None) -> Shape:
    if dims is not None:
        if any(not -len(a) <= d < len(a) for d in dims) or len({d % max(len(a), 1) for d in dims}) != len(dims):
            raise ValueError(f"movedim: dims {list(dims)} do not name different dims of a {len(a)}-D tensor")
        a = tuple(a[d] for d in _tensorsolve_order(len(a), dims))
    if len(a) < len(b):  # (PyTorch slices A's shape past its end: the vector's words, as its C++ says them)
        raise ValueError("cannot create std::vector larger than max_size()")
    result = tuple(a[len(b):])
    rows, cols = math.prod(result), math.prod(b)
    if rows != cols:
        raise ValueError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                         f"prod(self.shape[:other.ndim]), but got {rows} != {cols}")
    if math.prod(a) != rows * cols:  # (its reshape to the square matrix)
        raise ValueError(f"shape '[{rows}, {rows}]' is invalid for input of size {math.prod(a)}")
    return result


def _tensorsolve_program(emit: Any, a: Any, b: Any, dims: Any = None) -> Any:
    shapes = _shapes_or_none(emit, a, b)
    if shapes is None:
        return _whole(emit, "tensorsolve", a, b, dims=dims)
    sa, sb = shapes
    out = _tensorsolve_shape(sa, sb, dims)
    n = math.prod(out)
    strides = [math.prod(sa[i + 1:]) for i in range(len(sa))]
    shape = list(sa)
    if dims is not None:  # movedim: the dims to the end, as a permutation
        order = _tensorsolve_order(len(sa), dims)
        a = emit("permute", a, dims=tuple(order))
        shape, strides = [sa[i] for i in order], [strides[i] for i in order]
    matrix = _reshaped(emit, a, shape, strides, (n, n))
    flat = b if len(sb) == 1 else emit("reshape", b, shape=(-1,))  # (flatten of a vector is itself)
    return emit("reshape", emit("solve", matrix, flat), shape=out)


# --- cov, corrcoef --------------------------------------------------------------------------------


def _cov_shape(x: Shape, correction: int = 1) -> Shape:
    if len(x) > 2:
        raise ValueError(f"cov(): expected input to have two or fewer dimensions but got an input with {len(x)} "
                         "dimensions")
    variables = x[0] if len(x) == 2 else 1
    return () if variables == 1 else (variables, variables)


def _cov_program(emit: Any, x: Any, correction: int = 1) -> Any:
    shape = emit.shape(x)
    if shape is None:
        return _whole(emit, "cov", x, correction=correction)
    _cov_shape(shape, correction)
    table = emit("reshape", x, shape=(1, -1)) if len(shape) < 2 else x
    observations = shape[-1] if shape else 1
    count = emit.tensor(float(observations))  # (at::scalar_tensor: DivBackward0, not a number's DivBackward1)
    mean = emit("div", emit("sum", table, dim=1), count)
    centred = emit("sub", table, emit("unsqueeze", mean, dim=1))
    factor = observations - correction
    divisor = emit.tensor(float(max(factor, 0)))  # (degrees of freedom <= 0: PyTorch divides by zero)
    return emit("squeeze", emit("div", emit("mm", centred, emit("t", centred)), divisor))


def _corrcoef_program(emit: Any, x: Any) -> Any:
    shape = emit.shape(x)
    if shape is None:
        return _whole(emit, "corrcoef", x)
    c = emit("cov", x)
    if _cov_shape(shape) == ():  # one variable: c / c (NaN where c is 0, NaN or infinite)
        return emit("div", c, c)
    deviation = emit("sqrt", emit("diagonal", c))
    c = emit("div", c, emit("reshape", deviation, shape=(-1, 1)))
    c = emit("div", c, emit("reshape", deviation, shape=(1, -1)))
    return emit("clamp", c, min=-1.0, max=1.0)


def _examples(*cases: Any) -> Any:
    return tuple((shapes, params) for shapes, params in cases)


ROWS = [
    # a composite whose graph depends on shapes, where they are not known yet (its value at a point)
    structural("shaped_later", -1, _later("forward"), _later("vjp"), "None", jvp=_later("jvp"), shape=_later_shape,
               torch_node_rule=_later_node, params=(Param("of", "str", ""), Param("given", "ints", ())), callable=False,
               reference=None, text=lambda args, of="", given=(): f"{of}({', '.join(args)})", examples=()),
    composite("multi_dot", -1, _multi_dot_program, "ViewBackward0", sympy=None, shape=_multi_dot_shape, list_keyword="tensors",
              text=_call("torch.linalg.multi_dot", {}, listed=True),
              examples=_examples((((2, 3), (3, 4)), {}), (((3,), (3, 2), (2,)), {}), (((2, 3), (3, 1), (1, 2)), {}),
                                 (((2, 3), (3, 4), (4, 2), (2, 5)), {}), (((3,), (3,)), {})),
              reference="torch.linalg.multi_dot([a, b])", reference_program="torch.linalg.multi_dot([a, b])",
              dtype_refusals=(("mixed", "RuntimeError", "multi_dot(): all tensors must have be the same dtype but tensor 0 is {c0} and tensor 1 {c1}"),)),
    composite("diagflat", 1, _diagflat_program, "DiagEmbedBackward0", sympy=None, shape=_diagflat_shape,
              params=(Param("offset", "int", 0),), methods=("diagflat",), text=_call("torch.diagflat", {"offset": 0}),
              examples=_examples((((3,),), {}), (((2, 2),), {"offset": 1}), (((),), {}), (((3,),), {"offset": -2})),
              reference="torch.diagflat(a)", reference_program="torch.diagflat(a)"),
    composite("vander", 1, _vander_program, "CatBackward0", sympy=None, shape=_vander_shape,
              params=(Param("N", "int", None),), text=_call("torch.linalg.vander", {"N": None}),
              examples=_examples((((3,),), {}), (((2, 3),), {"N": 4}), (((),), {"N": 2}), (((4,),), {"N": 2})),
              reference="torch.linalg.vander(a)", reference_program="torch.linalg.vander(a)",
              dtype_refusals=(("bool input", "RuntimeError", "linalg.vander supports floating point, complex, and integer tensors, but got Bool"),)),
    _tensorinv_inv(),
    composite("tensorinv", 1, _tensorinv_program, "ReshapeAliasBackward0", sympy=None, shape=_tensorinv_shape,
              shape_message=linalg.singular_or_not_square(_tensorinv_shape),
              params=(Param("ind", "int", 2),), text=_call("torch.linalg.tensorinv", {"ind": 2}),
              examples=_examples((((4, 2, 2),), {"ind": 1}), (((2, 3, 6),), {"ind": 2}), (((1, 1),), {"ind": 1})),
              reference="torch.linalg.tensorinv(a, ind=1)", reference_program="torch.linalg.tensorinv(a, ind=1)"),
    composite("tensorsolve", 2, _tensorsolve_program, "ViewBackward0", sympy=None, shape=_tensorsolve_shape,
              params=(Param("dims", "ints", None),), text=_call("torch.linalg.tensorsolve", {"dims": None}),
              examples=_examples((((2, 3, 6), (2, 3)), {}), (((2, 3, 6), (2, 3)), {"dims": (0, 2)}),
                                 (((4, 2, 2), (4,)), {}), (((3, 3), (3,)), {})),
              reference="torch.linalg.tensorsolve(a, b)", reference_program="torch.linalg.tensorsolve(a, b)"),
    composite("cov", 1, _cov_program, "SqueezeBackward0", sympy=None, shape=_cov_shape,
              params=(Param("correction", "int", 1),), methods=("cov",), dialects=torch_positional(), text=_call("torch.cov", {"correction": 1}),
              examples=_examples((((3, 4),), {}), (((4,),), {}), (((2, 3),), {"correction": 0}),
                                 (((1, 3),), {"correction": 2})),
              reference="torch.cov(a)", reference_program="torch.cov(a)",
              dtype_refusals=(("bool alike", "RuntimeError", "cov(): bool dtype is not supported for input"),)),
    composite("corrcoef", 1, _corrcoef_program, "ClampBackward1", sympy=None, shape=lambda x: _cov_shape(x),
              methods=("corrcoef",), text=_call("torch.corrcoef", {}),
              torch_node_rule=lambda constant, shapes: "DivBackward0" if shapes and _cov_shape(shapes[0]) == ()
              else "ClampBackward1",
              examples=_examples((((3, 4),), {}), (((4,),), {}), (((2, 3),), {})),
              reference="torch.corrcoef(a)", reference_program="torch.corrcoef(a)"),
]


# --- meshgrid, cartesian_prod, combinations: views of each arg expanded to the grid ------------------


def _grid_check(name: str, shapes: Any) -> None:
    for place, shape in enumerate(shapes):
        if len(shape) > 1 and name != "torch.meshgrid":
            raise ValueError(f"Expect a 1D vector, but got shape {list(shape)}")
        if len(shape) > 1 and math.prod(shape):  # (PyTorch's words print the tensor's values, as C++ prints them)
            raise Unsupported(f"a {len(shape)}-D tensor with elements (PyTorch's error for it prints its values)")
        if len(shape) > 1:  # (an empty one prints as its type and sizes)
            raise TypedWords(f"{name}: Expected 0D or 1D tensor in the tensor list but got: "
                             f"[ {{type{place}}}{{{','.join(str(size) for size in shape)}}} ]")


def _meshgrid_order(count: int, indexing: str) -> list[int]:
    """Which arg each grid views: 'xy' swaps the first two (args and grids alike), as PyTorch does."""
    order = list(range(count))
    if indexing == "xy" and count >= 2:
        order[0], order[1] = 1, 0
    return order


def _meshgrid_shape(*shapes: Shape, indexing: str = "ij", part: int = 0, of: Any = None) -> Shape:
    if not shapes:
        raise ValueError("torch.meshgrid: Expected at least one tensor")
    _grid_check("torch.meshgrid", shapes)
    if of is not None and of != len(shapes):
        raise ValueError(f"cannot unpack {len(shapes)} values into {of} names")
    if not -len(shapes) <= part < len(shapes):
        raise ValueError(f"tuple index out of range: meshgrid gives {len(shapes)} values")
    sizes = [math.prod(shapes[i]) for i in _meshgrid_order(len(shapes), indexing)]
    return tuple(sizes)


def _grid(emit: Any, x: Any, which: int, sizes: list[int]) -> tuple[Any, list[int]]:
    """x viewed along axis `which` of the grid and expanded to it (PyTorch's meshgrid), and its strides."""
    view = [1] * len(sizes)
    view[which] = sizes[which]
    strides = [0 if view[d] == 1 and sizes[d] != 1 else math.prod(view[d + 1:]) for d in range(len(sizes))]
    shaped = emit("reshape", x, shape=tuple(-1 if d == which else 1 for d in range(len(sizes))))
    return emit("expand", shaped, size=tuple(sizes)), strides


def _meshgrid_program(emit: Any, *tensors: Any, indexing: str = "ij", part: int = 0, of: Any = None) -> Any:
    shapes = _shapes_or_none(emit, *tensors)
    if shapes is None:
        return _whole(emit, "meshgrid", *tensors, indexing=indexing, part=part, of=of)
    sizes = list(_meshgrid_shape(*shapes, indexing=indexing, part=part, of=of))
    which = part % len(tensors)  # (with 'xy', the first two args' grids swapped, and swapped back)
    return _grid(emit, tensors[which], _meshgrid_order(len(tensors), indexing)[which], sizes)[0]


def _cartesian_prod_shape(*shapes: Shape) -> Shape:
    _grid_check("cartesian_prod", shapes)
    if any(len(s) != 1 for s in shapes):
        raise ValueError(f"Expect a 1D vector, but got shape {next(list(s) for s in shapes if len(s) != 1)}")
    if len(shapes) == 1:
        return tuple(shapes[0])
    return (math.prod(s[0] for s in shapes), len(shapes))


def _cartesian_prod_program(emit: Any, *tensors: Any) -> Any:
    shapes = _shapes_or_none(emit, *tensors)
    if shapes is None:
        return _whole(emit, "cartesian_prod", *tensors)
    _cartesian_prod_shape(*shapes)
    if len(tensors) == 1:  # (the arg itself, no node: PyTorch returns it)
        return tensors[0]
    sizes = [s[0] for s in shapes]
    flat = []
    for i, x in enumerate(tensors):
        grid, strides = _grid(emit, x, i, sizes)
        flat.append(_reshaped(emit, grid, sizes, strides, (math.prod(sizes),)))
    return emit("stack", *flat, dim=1)


def _combination_count(n: int, r: int, with_replacement: bool) -> int:
    return math.comb(n + r - 1, r) if with_replacement else math.comb(n, r)


def _combinations_shape(x: Shape, r: int = 2, with_replacement: bool = False) -> Shape:
    if len(x) != 1:
        raise ValueError(f"Expect a 1D vector, but got shape {list(x)}")
    if r < 0:
        raise ValueError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return (0,)
    n = x[0]
    grid = n**r if n < 2 or r * math.log(n) < 64 else 2**64  # (PyTorch makes r grids of n**r first)
    if grid * r > Limits.get("elements"):
        raise over_limit(f"combinations of {n} elements taken {r} at a time makes {r} grids of {n}**{r} elements",
                         "elements")
    return (_combination_count(n, r, with_replacement), r)


def _triu_mask(n: int, r: int, with_replacement: bool) -> np.ndarray:
    """PyTorch's _triu_mask: the places of the grid whose indices rise (i < j < k...; <= with replacement)."""
    grids = np.meshgrid(*([np.arange(n)] * r), indexing="ij")
    mask = np.ones((n,) * r, dtype=bool)
    for i in range(r - 1):
        mask &= grids[i] <= grids[i + 1] if with_replacement else grids[i] < grids[i + 1]
    return mask


def _combinations_program(emit: Any, x: Any, r: int = 2, with_replacement: bool = False) -> Any:
    shape = emit.shape(x)
    if shape is None:
        return _whole(emit, "combinations", x, r=r, with_replacement=with_replacement)
    _combinations_shape(shape, r, with_replacement)
    if r == 0:
        return emit.tensor(np.zeros(0))  # (at::empty: no node)
    n = shape[0]
    mask = emit.tensor(_triu_mask(n, r, with_replacement))
    picked = [emit("masked_select", _grid(emit, x, i, [n] * r)[0], mask) for i in range(r)]
    return emit("stack", *picked, dim=1)


def _parts_call(name: str) -> Any:
    def text(args: Any, indexing: str = "ij", part: int = 0, of: Any = None) -> str:
        said = "" if indexing == "ij" else f", indexing={indexing!r}"
        return f"{name}({', '.join(args)}{said})[{part}]"

    return text


ROWS += [
    composite("meshgrid", -1, _meshgrid_program, "ExpandBackward0", sympy=None, shape=_meshgrid_shape, parts=-1,
              params=(Param("indexing", "str", "ij", choices=("ij", "xy")),), text=_parts_call("torch.meshgrid"),
              examples=_examples((((3,), (2,)), {"part": 0}), (((3,), (2,)), {"part": 1, "indexing": "xy"}),
                                 (((), (2,), (3,)), {"part": 2, "indexing": "xy"}), (((3,),), {"part": 0})),
              reference="torch.meshgrid(a, b, indexing='ij')[0]",
              reference_program="torch.meshgrid(a, b, indexing='ij')[0]",
              dtype_refusals=(("mixed", "RuntimeError", "meshgrid expects all tensors to have the same dtype"),)),
    composite("cartesian_prod", -1, _cartesian_prod_program, "StackBackward0", sympy=None, shape=_cartesian_prod_shape,
              text=_call("torch.cartesian_prod", {}),
              examples=_examples((((3,), (2,)), {}), (((2,), (1,), (3,)), {}), (((3,),), {})),
              reference="torch.cartesian_prod(a, b)", reference_program="torch.cartesian_prod(a, b)",
              dtype_refusals=(("mixed", "RuntimeError", "meshgrid expects all tensors to have the same dtype"),)),
    composite("combinations", 1, _combinations_program, "StackBackward0", sympy=None, shape=_combinations_shape,
              params=(Param("r", "int", 2), Param("with_replacement", "bool", False)),
              text=_call("torch.combinations", {"r": 2, "with_replacement": False}),
              examples=_examples((((4,),), {}), (((3,),), {"r": 3, "with_replacement": True}), (((3,),), {"r": 1})),
              reference="torch.combinations(a)", reference_program="torch.combinations(a)"),
]


# --- gradient: central differences inside, one-sided (edge_order 1 or 2) at the ends, per dim ----------


def _gradient_dims(x: Shape, dim: Any) -> list[int]:
    if dim is None:
        return list(range(len(x)))
    dims = list(dim) if isinstance(dim, tuple) else [dim]
    if len(x) == 0:
        raise ValueError("torch.gradient only supports tensors of 1 or more dimensions")
    return [d % len(x) if -len(x) <= d < len(x) else _bad_dim(d, len(x)) for d in dims]


def _bad_dim(d: int, rank: int) -> int:
    raise DimError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {d})")


def _spacings(spacing: Any, count: int) -> list[float]:
    if spacing is None:
        return [1.0] * count
    if isinstance(spacing, tuple):
        if len(spacing) != count:
            raise ValueError(f"torch.gradient expected spacing to be unspecified, a scalar or a list of length {count} "
                             f"but got a list of length {len(spacing)}")
        return [float(s) for s in spacing]
    return [float(spacing)] * count


def _gradient_shape(x: Shape, spacing: Any = None, dim: Any = None, edge_order: int = 1, part: int = 0,
                    of: Any = None) -> Shape:
    if edge_order not in (1, 2):
        raise ValueError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if not x:
        raise ValueError("torch.gradient only supports tensors of 1 or more dimensions")
    dims = _gradient_dims(x, dim)
    _spacings(spacing, len(dims))
    for d in dims:
        if x[d] < edge_order + 1:
            raise ValueError("torch.gradient expected each dimension size to be at least edge_order+1")
    if of is not None and of != len(dims):
        raise ValueError(f"cannot unpack {len(dims)} values into {of} names")
    if not -len(dims) <= part < len(dims):
        raise ValueError(f"tuple index out of range: gradient gives {len(dims)} values")
    return x


def _gradient_program(emit: Any, x: Any, spacing: Any = None, dim: Any = None, edge_order: int = 1, part: int = 0,
                      of: Any = None) -> Any:
    shape = emit.shape(x)
    if shape is None:
        return _whole(emit, "gradient", x, spacing=spacing, dim=dim, edge_order=edge_order, part=part, of=of)
    _gradient_shape(shape, spacing, dim, edge_order, part, of)
    dims = _gradient_dims(shape, dim)
    which = part % len(dims)
    axis, step = dims[which], _spacings(spacing, len(dims))[which]
    n = shape[axis]

    def piece(start: int, stop: int) -> Any:  # at::slice(self, axis, start, stop)
        start, stop = start % n if start < 0 else start, stop % n if stop < 0 else min(stop, n)
        return emit("narrow", x, dim=axis, start=start, length=stop - start)

    def scaled(start: int, stop: int, factor: float) -> Any:
        return emit("mul_scalar", piece(start, stop), other=factor)

    center = emit("div_scalar", emit("sub", piece(2, n), piece(0, n - 2)), other=step)
    if edge_order == 1:
        before = emit("div_scalar", emit("sub", piece(1, 2), piece(0, 1)), other=step)
        after = emit("div_scalar", emit("sub", piece(n - 1, n), piece(n - 2, n - 1)), other=step)
    else:
        before = emit("div_scalar", emit("sub", emit("add", scaled(0, 1, -1.5), scaled(1, 2, 2.0)), scaled(2, 3, 0.5)),
                      other=step)
        after = emit("div_scalar", emit("add", emit("sub", scaled(n - 3, n - 2, 0.5), scaled(n - 2, n - 1, 2.0)),
                                        scaled(n - 1, n, 1.5)), other=step)
    return emit("cat", before, emit("div_scalar", center, other=2.0), after, dim=axis)


ROWS += [
    composite("gradient", 1, _gradient_program, "CatBackward0", sympy=None, shape=_gradient_shape, parts=-1,
              dialects=torch_positional(),  # (torch.gradient(x, *, spacing, dim, edge_order))
              params=(Param("spacing", "floats", None), Param("dim", "dims", None), Param("edge_order", "int", 1)),
              text=lambda args, spacing=None, dim=None, edge_order=1, part=0, of=None: (
                  f"torch.gradient({args[0]}" + ("" if spacing is None else f", spacing={spacing!r}")
                  + ("" if dim is None else f", dim={dim!r}") + ("" if edge_order == 1 else f", edge_order={edge_order}")
                  + f")[{part}]"),
              examples=_examples((((5,),), {"part": 0}), (((3, 4),), {"part": 1, "spacing": 2.0}),
                                 (((4, 3),), {"part": 0, "edge_order": 2}), (((3, 4),), {"part": 0, "dim": 1})),
              reference="torch.gradient(a)[0]", reference_program="torch.gradient(a)[0]"),
]
