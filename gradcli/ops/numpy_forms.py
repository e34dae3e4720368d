"""NumPy's functions where NumPy's semantics are not PyTorch's: `np.dot`, `np.median`, `np.cumsum`, ...

The spelling says whose semantics (gradcli.lowering): `np.dot(m, m)` is NumPy's product of any shapes,
`np.median` NumPy's mean of the two middle values, `np.cumsum(m)` the running sum of m flattened. Each is a
program of the rows PyTorch has (a composite), reached from the row of the same PyTorch name by a
Dialect("numpy", row=...), so that no derivative is written again and `graph` shows the nodes
of the rows the program runs. They have no PyTorch reference (NumPy's value is theirs):
tests/test_numpy_spellings.py holds each to NumPy itself and its gradient to central differences.
"""

from __future__ import annotations

from typing import Any

from gradcli.ops.core import Param, Shape, composite


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


def _cannot_take(label: str, shapes: Any) -> str:
    return f"np.dot cannot take shapes {' and '.join(str(tuple(s)) for s in shapes)}"


ROWS = [
    composite("numpy_dot", 2, _dot_program, "MmBackward0", sympy=None, shape=_dot_shape, shape_message=_cannot_take,
              callable=False, reference=None, text=_call("np.dot", {}), torch_node_rule=_dot_node,
              examples=(((((2, 3), (3, 4)), {}), (((3,), (3,)), {}), (((), (2, 3)), {}), (((2, 3), (3,)), {}),
                         (((2, 2, 3), (2, 3, 4)), {}), (((2, 3), (4, 3, 2)), {})))),
]
