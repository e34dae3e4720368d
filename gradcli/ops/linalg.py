"""The rows of products and linear algebra: @ (matmul of any rank), mm, mv, bmm, dot, outer, inner,
einsum, tensordot, kron, cross, det, inv, solve, logdet.

Their rules act on the trailing `ranks` axes of each arg (see core: rules never see a batch);
the axes before those are the points' batch axis, which an arg may have or not. Matrices are
the last two of an arg's own axes, and the axes before them are PyTorch's batch of matrices,
broadcast as torch.matmul broadcasts them.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradcli.ops.core import Array, Param, point_axes, structural, sympy_total, unbroadcast

Shape = tuple[int, ...]


def _cannot_take(label: str, shapes: Sequence[Shape]) -> str:
    return f"{label} cannot take shapes {' and '.join(str(tuple(s)) for s in shapes)}"


def _point_shapes(args: Sequence[Array], ranks: Sequence[int]) -> list[Shape]:
    return [a.shape[a.ndim - r:] for a, r in zip(args, ranks, strict=True)]


def _pad(x: Array, rank: int, width: int) -> Array:
    """x with axes of size 1 put in front of its `rank` own axes, to make `width` of them."""
    if rank == width:
        return x
    lead = x.shape[: x.ndim - rank]
    return x.reshape(lead + (1,) * (width - rank) + x.shape[x.ndim - rank:])


# --- matmul: PyTorch's @ of 1-D ... n-D operands ------------------------------------------------


def _matmul_shape(a: Shape, b: Shape) -> Shape:
    if not a or not b:
        raise ValueError("both arguments to matmul need to be at least 1D")
    inner = b[-2] if len(b) >= 2 else b[0]
    if a[-1] != inner:
        raise ValueError(f"shapes cannot be multiplied ({'x'.join(map(str, a))} and {'x'.join(map(str, b))})")
    batch = np.broadcast_shapes(a[:-2], b[:-2])
    return tuple(batch) + a[-2:-1] + (b[-1:] if len(b) >= 2 else ())


def _lifted(a: Array, b: Array, ranks: Sequence[int]) -> tuple[Array, Array]:
    """a and b as stacks of matrices with as many batch axes each: a vector on the left is a
    row, on the right a column (torch.matmul's rule)."""
    na, nb = ranks
    a2 = a[..., None, :] if na == 1 else a
    b2 = b[..., :, None] if nb == 1 else b
    width = max(na, nb, 2)
    return _pad(a2, max(na, 2), width), _pad(b2, max(nb, 2), width)


def _matmul(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    _matmul_shape(*_point_shapes((a, b), ranks))
    na, nb = ranks
    out = np.matmul(*_lifted(a, b, ranks))
    if nb == 1:
        out = out[..., 0]
    if na == 1:
        out = out[..., 0] if nb == 1 else out[..., 0, :]
    return np.asarray(out)


def _matmul_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    na, nb = ranks
    a2, b2 = _lifted(a, b, ranks)
    if na == 1:
        g = g[..., None] if nb == 1 else g[..., None, :]
    if nb == 1:
        g = g[..., None]
    ga = np.matmul(g, np.swapaxes(b2, -1, -2))
    gb = np.matmul(np.swapaxes(a2, -1, -2), g)
    # The batch of matrices was broadcast: each arg gets the sum over what it was spread on.
    return unbroadcast(ga, a2.shape).reshape(a.shape), unbroadcast(gb, b2.shape).reshape(b.shape)


def _matmul_torch_node(constant: Sequence[bool], shapes: Sequence[Shape] | None) -> str:
    """The node grad_fn shows for a @ b: torch.matmul calls dot, mv or mm for 1-D and 2-D
    operands; past 2-D it folds the batch into mm/mv (an _unsafe_view of it) or calls bmm, and a
    matrix times a stack is done transposed and made contiguous again (a clone)."""
    if shapes is None:
        return "MmBackward0"
    a, b = shapes
    small = {(1, 1): "DotBackward0", (2, 1): "MvBackward0", (1, 2): "SqueezeBackward4", (2, 2): "MmBackward0"}
    if (len(a), len(b)) in small:
        return small[(len(a), len(b))]
    # 3-D @ 3-D where one batch is 1: PyTorch squeezes it away, and is then a 2-D @ 3-D.
    squeezed_left = len(a) == 3 == len(b) and a[0] == 1 != b[0]
    return "CloneBackward0" if (len(a) == 2 and len(b) >= 3) or squeezed_left else "UnsafeViewBackward0"


def _strict(name: str, ndims: tuple[int, int], *, same_batch: bool = False) -> Any:
    """The shape rule of mm, mv, bmm: matmul's, for operands of exactly these ranks."""
    def shape(a: Shape, b: Shape) -> Shape:
        if (len(a), len(b)) != ndims:
            raise ValueError(f"{name} takes {ndims[0]}-D and {ndims[1]}-D operands, got {len(a)}-D and {len(b)}-D")
        if same_batch and a[0] != b[0]:
            raise ValueError(f"{name}: the batches differ in size ({a[0]} and {b[0]})")
        return _matmul_shape(a, b)

    return shape


def _product(shape_rule: Any) -> Any:
    def forward(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
        shape_rule(*_point_shapes((a, b), ranks))
        return _matmul(a, b, ranks)

    return forward


def _sym_matmul(a: Array, b: Array) -> Array:
    return np.asarray(np.matmul(a, b), dtype=object)


# --- products written as einsum: inner, outer -------------------------------------------------

_LETTERS = string.ascii_letters


def _einsum(inputs: Sequence[str], output: str, operands: Sequence[Any], ranks: Sequence[int]) -> Any:
    """np.einsum of subscripts that name each arg's own axes; an arg with the points' batch
    axis in front gets a letter for it, and so does the output if any arg has one."""
    batch = next(c for c in _LETTERS if c not in "".join(inputs))
    leads = [np.ndim(x) > r for x, r in zip(operands, ranks, strict=True)]
    terms = [batch + s if lead else s for s, lead in zip(inputs, leads, strict=True)]
    return np.einsum(",".join(terms) + "->" + (batch if any(leads) else "") + output, *operands)


def _einsum_cotangent(which: int, inputs: Sequence[str], output: str, operands: Sequence[Any], g: Any,
                      ranks: Sequence[int]) -> Any:
    """The cotangent of operand `which` of an einsum: g contracted with the other operands.

    A letter the operand repeats (a diagonal, 'ii') is tied to its first by an identity
    matrix; a letter only the operand has (summed over, 'ij->i') is spread by ones.
    """
    used = "".join(inputs) + output
    batch = next(c for c in _LETTERS if c not in used)
    fresh = iter(c for c in _LETTERS if c not in used + batch)
    leads = [np.ndim(x) > r for x, r in zip(operands, ranks, strict=True)]
    sizes = {c: n for s, x, r in zip(inputs, operands, ranks, strict=True) for c, n in zip(s, np.shape(x)[np.ndim(x) - r:])}
    out_lead = any(leads)
    terms = [(batch if out_lead else "") + output]
    arrays = [g]
    for j, (s, x) in enumerate(zip(inputs, operands, strict=True)):
        if j != which:
            terms.append(batch + s if leads[j] else s)
            arrays.append(x)
    written, seen = [], set()
    for c in inputs[which]:
        if c in seen:
            d = next(fresh)
            terms.append(c + d)
            arrays.append(np.eye(sizes[c]))
            written.append(d)
        else:
            seen.add(c)
            written.append(c)
    present = set("".join(terms))
    for c in seen - present:
        terms.append(c)
        arrays.append(np.ones(sizes[c]))
    target = (batch if leads[which] or out_lead else "") + "".join(written)
    return np.einsum(",".join(terms) + "->" + target, *arrays)


def _letters(rank: int, start: int = 0) -> str:
    return _LETTERS[start:start + rank]


def _outer(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    _outer_shape(*_point_shapes((a, b), ranks))
    return a[..., :, None] * b[..., None, :]  # (a product, not a sum of them: -0.0 stays -0.0)


def _outer_subscripts(ranks: Sequence[int]) -> tuple[list[str], str]:
    return ["a", "b"], "ab"


def _inner_subscripts(ranks: Sequence[int]) -> tuple[list[str], str]:
    na, nb = ranks
    if na == 0 or nb == 0:  # a number times a tensor
        a, b = _letters(na), _letters(nb, na)
        return [a, b], a + b
    a, b = _letters(na - 1) + "z", _letters(nb - 1, na - 1) + "z"
    return [a, b], a[:-1] + b[:-1]


def _bilinear(subscripts: Any, shape_rule: Any) -> tuple[Any, Any]:
    """(forward, vjp) of a product of two args written as an einsum of their own axes."""
    def forward(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
        shape_rule(*_point_shapes((a, b), ranks))
        inputs, output = subscripts(ranks)
        return np.asarray(_einsum(inputs, output, (a, b), ranks))

    def vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
        inputs, output = subscripts(ranks)
        return (_einsum_cotangent(0, inputs, output, (a, b), g, ranks),
                _einsum_cotangent(1, inputs, output, (a, b), g, ranks))

    return forward, vjp


def _outer_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 1 or len(b) != 1:
        raise ValueError(f"outer takes two 1-D vectors, got {len(a)}-D and {len(b)}-D")
    return a + b


def _inner_shape(a: Shape, b: Shape) -> Shape:
    if not a or not b:
        return a + b
    if a[-1] != b[-1]:
        raise ValueError(f"inner: the last dims differ ({a[-1]} and {b[-1]})")
    return a[:-1] + b[:-1]


def _sym_einsum(subscripts: Any) -> Any:
    def build(a: Array, b: Array) -> Array:
        inputs, output = subscripts((a.ndim, b.ndim))
        return np.asarray(np.einsum(",".join(inputs) + "->" + output, a, b), dtype=object)

    return build


def _dot(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    _dot_shape(*_point_shapes((a, b), ranks))
    return np.asarray(np.einsum("...i,...i->...", a, b))


def _dot_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    return g[..., None] * b, g[..., None] * a


def _dot_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 1 or a != b:
        raise ValueError("dot takes two 1-D vectors of one length")
    return ()


_outer_vjp = _bilinear(_outer_subscripts, _outer_shape)[1]
_inner, _inner_vjp = _bilinear(_inner_subscripts, _inner_shape)
_mm_shape, _mv_shape, _bmm_shape = _strict("mm", (2, 2)), _strict("mv", (2, 1)), _strict("bmm", (3, 3), same_batch=True)


# --- det, inv, solve, logdet: NumPy's LAPACK, PyTorch's derivative rules ----------------------


def _square_shape(name: str) -> Any:
    def shape(a: Shape) -> Shape:
        if len(a) < 2 or a[-1] != a[-2]:
            what = f"{'x'.join(map(str, a[-2:]))} matrices" if len(a) >= 2 else f"{len(a)}-D"
            raise ValueError(f"{name}: A must be batches of square matrices, but they are {what}")
        return a[:-2]

    return shape


_det_shape = _square_shape("det")


def _inv_shape(a: Shape) -> Shape:
    _square_shape("inv")(a)
    return a


def _singular_or_not_square(name: str, square: Any) -> Any:
    """What is wrong when NumPy refuses: shapes that do not fit, else a singular matrix."""
    def message(label: str, shapes: Sequence[Shape]) -> str:
        try:
            square(*shapes)
        except ValueError:
            return _cannot_take(label, shapes)
        return f"{name} of a singular matrix: it has no inverse (PyTorch raises here too)"

    return message


def _transposed(x: Any) -> Any:
    return np.swapaxes(x, -1, -2)


def _is_dual(x: Any) -> bool:
    return type(x) is not np.ndarray and not np.isscalar(x)


def true_cofactors(a: Array) -> Array:
    """The matrix of cofactors of each matrix (d det / d A), exactly where A is singular too: by
    the SVD, A = U S Vh, whose cofactors are det(U) det(Vh) U diag(prod of the other s) Vh."""
    u, s, vh = np.linalg.svd(a)
    n = s.shape[-1]
    others = np.prod(np.where(np.eye(n, dtype=bool), 1.0, s[..., None, :]), axis=-1) if n else s
    sign = np.linalg.det(u) * np.linalg.det(vh)
    return np.asarray(sign[..., None, None] * (u * others[..., None, :]) @ vh)


def _cofactors_by_minors(a: Any) -> Any:
    """The cofactors as signed determinants of minors: on dual numbers (the Hessian), whose
    det is differentiated exactly at singular matrices too."""
    n = a.shape[-1]
    keep = np.array([[k for k in range(n) if k != i] for i in range(n)], dtype=np.intp).reshape(n, n - 1)
    minors = a[..., keep[:, None, :, None], keep[None, :, None, :]]
    signs = (-1.0) ** np.add.outer(np.arange(n), np.arange(n))
    return np.linalg.det(minors) * signs


def _det(a: Array, ranks: tuple[int, ...]) -> Array:
    _det_shape(*_point_shapes((a,), ranks))
    # (LAPACK's LU, as PyTorch's; NumPy multiplies U's diagonal by adding logarithms, which
    # costs up to ~1e-13 of the value near the ends of float64.)
    return np.asarray(np.linalg.det(a))


def _det_vjp(g: Array, ans: Array, a: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    if _is_dual(a):  # PyTorch's double backward: the exact cofactors (its SVD), singular or not
        return (g[..., None, None] * _cofactors_by_minors(a),)
    # PyTorch's backward: g det(A) A^-T, which is 0 where det(A) is 0 (a zero right-hand side
    # stays 0 in its triangular solve: no inverse is needed there).
    singular = ans == 0
    inverse = np.linalg.inv(np.where(singular[..., None, None], np.eye(a.shape[-1]), a))
    cofactors = np.where(singular[..., None, None], 0.0, ans[..., None, None] * _transposed(inverse))
    return (g[..., None, None] * cofactors,)


def _det_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, ranks: tuple[int, ...]) -> Array:
    (t,) = tangents
    return np.asarray(np.sum(_det_vjp(np.ones_like(ans), ans, a, ranks)[0] * t, axis=(-2, -1)))


def _inv(a: Array, ranks: tuple[int, ...]) -> Array:
    _inv_shape(*_point_shapes((a,), ranks))
    return np.asarray(np.linalg.inv(a))


def _inv_vjp(g: Array, ans: Array, a: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    inverse_t = _transposed(ans)
    return (-(inverse_t @ g @ inverse_t),)


def _inv_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, ranks: tuple[int, ...]) -> Array:
    (t,) = tangents
    return np.asarray(-(ans @ t @ ans))


def _solve_shape(a: Shape, b: Shape) -> Shape:
    _square_shape("solve")(a)
    vector = _is_vector_side(a, b)
    if not b or (b[-1] if vector else b[-2]) != a[-1]:
        raise ValueError(f"Incompatible shapes of A and B for the equation AX = B ({a[-2]}x{a[-1]} and "
                         f"{'x'.join(map(str, b[-2:]))})")
    batch = np.broadcast_shapes(a[:-2], b[:-1] if vector else b[:-2])
    return tuple(batch) + ((a[-1],) if vector else b[-2:])


def _is_vector_side(a: Shape, b: Shape) -> bool:
    """torch.linalg.solve: B is a (batch of) vector(s) if it is 1-D or has A's shape without its last axis."""
    return len(b) == 1 or tuple(b) == tuple(a[:-1])


def _solve_lifted(a: Any, b: Any, ranks: Sequence[int]) -> tuple[Any, Any, bool]:
    na, nb = ranks
    vector = _is_vector_side(a.shape[a.ndim - na:], b.shape[b.ndim - nb:])
    b2 = b[..., None] if vector else b
    width = max(na, nb + vector)
    return _pad(a, na, width), _pad(b2, nb + vector, width), vector


def _solve(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    _solve_shape(*_point_shapes((a, b), ranks))
    a2, b2, vector = _solve_lifted(a, b, ranks)
    x = np.linalg.solve(a2, b2)
    return np.asarray(x[..., 0] if vector else x)


def _solve_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    # X = A^-1 B: gB = A^-T g, gA = -gB X^T (PyTorch's linalg_solve_backward).
    a2, b2, vector = _solve_lifted(a, b, ranks)
    x = ans[..., None] if vector else ans
    g2 = g[..., None] if vector else g
    gb = np.linalg.solve(np.broadcast_to(_transposed(a2), np.broadcast_shapes(a2.shape[:-2], g2.shape[:-2]) + a2.shape[-2:])
                         if _is_dual(a2) else _transposed(a2), g2)
    ga = -(gb @ _transposed(x))
    return unbroadcast(ga, a2.shape).reshape(a.shape), unbroadcast(gb, b2.shape).reshape(b.shape)


def _solve_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    # dX = A^-1 (dB - dA X)
    ta, tb = tangents
    a2, b2, vector = _solve_lifted(a, b, ranks)
    x = ans[..., None] if vector else ans
    rhs: Any = 0.0
    if tb is not None:
        rhs = rhs + (tb[..., None] if vector else _pad(tb, ranks[1], b2.ndim - (b.ndim - ranks[1])))
    if ta is not None:
        rhs = rhs - _pad(ta, ranks[0], a2.ndim - (a.ndim - ranks[0])) @ x
    rhs = np.broadcast_to(rhs, x.shape)
    dx = np.linalg.solve(np.broadcast_to(a2, x.shape[:-2] + a2.shape[-2:]), rhs)
    return np.asarray(dx[..., 0] if vector else dx)


def _logdet(a: Array, ranks: tuple[int, ...]) -> Array:
    # torch.logdet: log|det| where det > 0, NaN where it is negative.
    _det_shape(*_point_shapes((a,), ranks))
    sign, logabsdet = np.linalg.slogdet(a)
    return np.asarray(np.where(sign < 0, np.nan, logabsdet))


def _logdet_vjp(g: Array, ans: Array, a: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    # d log|det A| = A^-T; PyTorch's where() passes nothing back where det < 0. At a singular
    # matrix, cofactors / det: infinite and NaN as in PyTorch.
    det = np.linalg.det(a)
    singular = det == 0
    if _is_dual(a) or not np.any(singular):
        inverse_t = _transposed(np.linalg.inv(a))
    else:
        with np.errstate(all="ignore"):
            safe = np.linalg.inv(np.where(singular[..., None, None], np.eye(a.shape[-1]), a))
            inverse_t = np.where(singular[..., None, None], true_cofactors(a) / det[..., None, None], _transposed(safe))
    return (np.where((det < 0)[..., None, None], 0.0, g[..., None, None] * inverse_t),)


def _logdet_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, ranks: tuple[int, ...]) -> Array:
    (t,) = tangents
    return np.asarray(np.sum(_logdet_vjp(np.ones_like(ans), ans, a, ranks)[0] * t, axis=(-2, -1)))


def _sym_det(a: Array) -> Array:
    sympy = _sympy()
    return np.asarray(sympy.Matrix(a.tolist()).det(method="berkowitz") if a.ndim == 2 else
                      np.array([_sym_det(m) for m in a], dtype=object), dtype=object)


def _sym_inv(a: Array) -> Array:
    if a.ndim > 2:
        return np.array([_sym_inv(m) for m in a], dtype=object)
    return np.array(_sympy().Matrix(a.tolist()).inv(method="LU").tolist(), dtype=object)


def _sym_solve(a: Array, b: Array) -> Array:
    inverse = _sym_inv(a)
    if _is_vector_side(a.shape, b.shape):
        return np.asarray(np.matmul(inverse, b[..., None])[..., 0], dtype=object)
    return np.asarray(np.matmul(inverse, b), dtype=object)


def _sympy() -> Any:
    from gradcli.ops.core import load_sympy

    return load_sympy()


# --- einsum, tensordot, kron: products written as einsum subscripts ---------------------------


def _parse_equation(equation: str, count: int) -> tuple[list[str], str]:
    """torch.einsum's subscripts -> (the subscripts of each operand, the output's); ValueError
    saying what is wrong. Without '->' the output is the letters used once, in order."""
    text = equation.replace(" ", "")
    left, arrow, output = text.partition("->")
    inputs = left.split(",")
    for part in [*inputs, output]:
        if not all(c in _LETTERS for c in part):
            raise ValueError(f"einsum: subscripts are letters, got {part!r} (and '...' is not supported)")
    if len(inputs) != count:
        raise ValueError(f"einsum: the equation names {len(inputs)} operands, but {count} are given")
    if not arrow:
        output = "".join(sorted(c for c in set(left) - {","} if left.count(c) == 1))
    if len(set(output)) != len(output) or not set(output) <= set("".join(inputs)):
        raise ValueError(f"einsum: the output subscripts {output!r} must be letters of the operands, each once")
    return inputs, output


def _einsum_shape(*shapes: Shape, equation: str = "") -> Shape:
    inputs, output = _parse_equation(equation, len(shapes))
    sizes: dict[str, int] = {}
    for part, shape in zip(inputs, shapes, strict=True):
        if len(part) != len(shape):
            raise ValueError(f"einsum: the subscripts {part!r} name {len(part)} dims of an operand with {len(shape)}")
        for c, n in zip(part, shape, strict=True):
            if sizes.setdefault(c, n) != n:
                raise ValueError(f"einsum: '{c}' is a dim of size {sizes[c]} and of size {n}")
    return tuple(sizes[c] for c in output)


def _einsum_op(*operands: Array, ranks: tuple[int, ...], equation: str = "") -> Array:
    _einsum_shape(*_point_shapes(operands, ranks), equation=equation)
    inputs, output = _parse_equation(equation, len(operands))
    return np.asarray(_einsum(inputs, output, operands, ranks))


def _einsum_vjp(g: Array, ans: Array, *operands: Array, ranks: tuple[int, ...], equation: str = "") -> tuple[Array, ...]:
    inputs, output = _parse_equation(equation, len(operands))
    return tuple(_einsum_cotangent(i, inputs, output, operands, g, ranks) for i in range(len(operands)))


def _einsum_jvp(tangents: Sequence[Array | None], ans: Array, *operands: Array, ranks: tuple[int, ...],
                equation: str = "") -> Any:
    inputs, output = _parse_equation(equation, len(operands))
    terms = [_einsum(inputs, output, [*operands[:i], t, *operands[i + 1:]], ranks)
             for i, t in enumerate(tangents) if t is not None]
    return sum(terms[1:], terms[0]) if terms else 0.0


def _einsum_torch_node(constant: Sequence[bool], shapes: Any, equation: str = "") -> str:
    # torch.einsum's last step: a sum (one operand), a permute, a product (nothing summed), or
    # the view of a bmm.
    inputs, output = _parse_equation(equation, len(constant))
    letters = set("".join(inputs))
    if len(inputs) == 1:
        return "PermuteBackward0" if letters == set(output) else "SumBackward1"
    return "MulBackward0" if letters == set(output) else "ViewBackward0"


def _sym_einsum_op(*operands: Array, equation: str = "") -> Array:
    inputs, output = _parse_equation(equation, len(operands))
    return np.asarray(np.einsum(",".join(inputs) + "->" + output, *operands), dtype=object)


def _tensordot_subscripts(ranks: Sequence[int], dims: Any) -> tuple[list[str], str]:
    na, nb = ranks
    if isinstance(dims, int):
        if not 0 <= dims <= min(na, nb):
            raise ValueError(f"tensordot: dims={dims} must be between 0 and the operands' dims")
        pairs = list(zip(range(na - dims, na), range(dims), strict=True))
    else:
        if len(dims[0]) != len(dims[1]):
            raise ValueError("tensordot: both lists of dims must have one length")
        pairs = [(d % max(na, 1) if -na <= d < na else na, e % max(nb, 1) if -nb <= e < nb else nb)
                 for d, e in zip(*dims, strict=True)]
        if any(d >= na or e >= nb for d, e in pairs):
            raise ValueError("tensordot: Dimension out of range")
    a, b = list(_letters(na)), list(_letters(nb, na))
    for d, e in pairs:
        b[e] = a[d]
    summed = {a[d] for d, _ in pairs}
    return ["".join(a), "".join(b)], "".join(c for c in a + b if c not in summed)


def _tensordot_shape(a: Shape, b: Shape, dims: Any = 2) -> Shape:
    inputs, output = _tensordot_subscripts((len(a), len(b)), dims)
    return _einsum_shape(a, b, equation=",".join(inputs) + "->" + output)


def _tensordot(a: Array, b: Array, ranks: tuple[int, ...], dims: Any = 2) -> Array:
    a_shape, b_shape = _point_shapes((a, b), ranks)
    _tensordot_shape(a_shape, b_shape, dims=dims)
    inputs, output = _tensordot_subscripts(ranks, dims)
    return np.asarray(_einsum(inputs, output, (a, b), ranks))


def _tensordot_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], dims: Any = 2) -> tuple[Any, Any]:
    inputs, output = _tensordot_subscripts(ranks, dims)
    return (_einsum_cotangent(0, inputs, output, (a, b), g, ranks),
            _einsum_cotangent(1, inputs, output, (a, b), g, ranks))


def _sym_tensordot(a: Array, b: Array, dims: Any = 2) -> Array:
    inputs, output = _tensordot_subscripts((a.ndim, b.ndim), dims)
    return np.asarray(np.einsum(",".join(inputs) + "->" + output, a, b), dtype=object)


def _kron_parts(ranks: Sequence[int]) -> tuple[list[str], str, int]:
    """kron as an einsum of the args padded to one rank r: out[i k, j l] = a[i, j] b[k, l]."""
    r = max(ranks)
    a, b = _letters(r), _letters(r, r)
    return [a, b], "".join(x + y for x, y in zip(a, b, strict=True)), r


def _kron_shape(a: Shape, b: Shape) -> Shape:
    r = max(len(a), len(b))
    a, b = (1,) * (r - len(a)) + a, (1,) * (r - len(b)) + b
    return tuple(x * y for x, y in zip(a, b, strict=True))


def _kron(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    # a[i, 1, j, 1] * b[1, k, 1, l]: products only (an einsum would add each to 0: -0.0 lost)
    r = max(ranks)
    a2, b2 = _pad(a, ranks[0], r), _pad(b, ranks[1], r)
    a_sizes, b_sizes = a2.shape[a2.ndim - r:], b2.shape[b2.ndim - r:]
    a3 = a2.reshape(a2.shape[: a2.ndim - r] + tuple(x for n in a_sizes for x in (n, 1)))
    b3 = b2.reshape(b2.shape[: b2.ndim - r] + tuple(x for n in b_sizes for x in (1, n)))
    out = a3 * b3
    lead = out.shape[: out.ndim - 2 * r]
    return np.asarray(out.reshape(lead + _kron_shape(*_point_shapes((a, b), ranks))))


def _kron_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Any, Any]:
    inputs, output, r = _kron_parts(ranks)
    a2, b2 = _pad(a, ranks[0], r), _pad(b, ranks[1], r)
    sizes = [n for x, y in zip(a2.shape[a2.ndim - r:], b2.shape[b2.ndim - r:], strict=True) for n in (x, y)]
    g2 = g.reshape(g.shape[: g.ndim - r] + tuple(sizes))
    ga = _einsum_cotangent(0, inputs, output, (a2, b2), g2, (r, r))
    gb = _einsum_cotangent(1, inputs, output, (a2, b2), g2, (r, r))
    return ga.reshape(ga.shape[: ga.ndim - r] + a.shape[a.ndim - ranks[0]:]), gb.reshape(
        gb.shape[: gb.ndim - r] + b.shape[b.ndim - ranks[1]:])


def _sym_kron(a: Array, b: Array) -> Array:
    r = max(a.ndim, b.ndim)
    a2, b2 = a.reshape((1,) * (r - a.ndim) + a.shape), b.reshape((1,) * (r - b.ndim) + b.shape)
    inputs, output, _ = _kron_parts((r, r))
    out = np.einsum(",".join(inputs) + "->" + output, a2, b2)
    return np.asarray(out.reshape(_kron_shape(a.shape, b.shape)), dtype=object)


# --- cross: torch.linalg.cross, of 3-vectors along dim (-1) -----------------------------------


def _cross_shape(a: Shape, b: Shape, dim: int = -1) -> Shape:
    shape = tuple(np.broadcast_shapes(a, b))
    axis = point_axes(dim, len(shape))
    if len(a) != len(b):
        raise ValueError("linalg.cross: inputs must have the same number of dimensions")
    if not axis or a[axis[0]] != 3 or b[axis[0]] != 3:
        raise ValueError(f"linalg.cross: inputs dimension {dim} must have length 3")
    return shape


def _cross(a: Array, b: Array, ranks: tuple[int, ...], dim: int = -1) -> Array:
    a_shape, b_shape = _point_shapes((a, b), ranks)
    _cross_shape(a_shape, b_shape, dim=dim)
    return np.asarray(np.cross(a, b, axis=point_axes(dim, ranks[0])[0]))


def _cross_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], dim: int = -1) -> tuple[Any, Any]:
    axis = point_axes(dim, ranks[0])[0]
    return np.cross(b, g, axis=axis), np.cross(g, a, axis=axis)


def _sym_cross(a: Array, b: Array, dim: int = -1) -> Array:
    a, b = np.broadcast_arrays(a, b)
    axis = point_axes(dim, a.ndim)[0]
    x, y = np.moveaxis(a, axis, 0), np.moveaxis(b, axis, 0)
    out = np.stack([x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]])
    return np.asarray(np.moveaxis(out, 0, axis), dtype=object)


def _tensordot_text(args: Sequence[str], dims: Any = 2) -> str:
    given = "" if dims == 2 else f", dims={dims}" if isinstance(dims, int) else f", dims=({list(dims[0])}, {list(dims[1])})"
    return f"tensordot({', '.join(args)}{given})"


def _einsum_text(args: Sequence[str], equation: str = "") -> str:
    return f"einsum({equation!r}, {', '.join(args)})"


def _examples(*cases: tuple[Shape, ...]) -> tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...]:
    return tuple((shapes, {}) for shapes in cases)


ROWS = [
    structural("matmul", 2, _matmul, _matmul_vjp, "MmBackward0", bilinear=True, sympy=_sym_matmul, symbol="@",
               precedence=20, callable=False, torch_node_rule=_matmul_torch_node, shape=_matmul_shape,
               shape_message=_cannot_take,
               examples=_examples(((2, 3), (3, 4)), ((2, 3), (3,)), ((3,), (3, 2)), ((3,), (3,)), ((2, 2, 3), (3, 2)),
                                  ((2, 3), (2, 3, 2)), ((2, 1, 2, 3), (3, 3, 2)), ((3,), (2, 3, 2)), ((2, 2, 3), (3,))),
               spellings=("matmul",), methods=("matmul",)),
    structural("mm", 2, _product(_mm_shape), _matmul_vjp, "MmBackward0", bilinear=True, sympy=_sym_matmul,
               shape=_mm_shape, shape_message=_cannot_take, examples=_examples(((2, 3), (3, 2))), methods=("mm",)),
    structural("mv", 2, _product(_mv_shape), _matmul_vjp, "MvBackward0", bilinear=True, sympy=_sym_matmul,
               shape=_mv_shape, shape_message=_cannot_take, examples=_examples(((2, 3), (3,))), methods=("mv",)),
    structural("bmm", 2, _product(_bmm_shape), _matmul_vjp, "BmmBackward0", bilinear=True, sympy=_sym_matmul,
               shape=_bmm_shape, shape_message=_cannot_take, examples=_examples(((2, 2, 3), (2, 3, 2))),
               methods=("bmm",)),
    structural("dot", 2, _dot, _dot_vjp, "DotBackward0", bilinear=True,
               sympy=lambda a, b: sympy_total(a * b), shape=_dot_shape,
               shape_message=_cannot_take, examples=_examples(((4,), (4,))), methods=("dot",)),
    structural("outer", 2, _outer, _outer_vjp, "MulBackward0", bilinear=True, sympy=_sym_einsum(_outer_subscripts),
               shape=_outer_shape, shape_message=_cannot_take, examples=_examples(((2,), (3,))),
               spellings=("ger",), methods=("outer", "ger")),
    structural("inner", 2, _inner, _inner_vjp, "ViewBackward0", bilinear=True, sympy=_sym_einsum(_inner_subscripts),
               shape=_inner_shape, shape_message=_cannot_take,
               torch_node_rule=lambda constant, shapes: "MulBackward0" if shapes and not all(shapes) else "ViewBackward0",
               examples=_examples(((3,), (3,)), ((2, 3), (4, 3)), ((), (2,)), ((2, 2, 3), (3,))), methods=("inner",)),
    structural("einsum", -1, _einsum_op, _einsum_vjp, "ViewBackward0", jvp=_einsum_jvp, sympy=_sym_einsum_op,
               shape=_einsum_shape, shape_message=_cannot_take, torch_node_rule=_einsum_torch_node, aligns=False,
               params=(Param("equation", "str"),), text=_einsum_text,
               examples=tuple((shapes, {"equation": equation}) for shapes, equation in [
                   (((2, 3), (3, 2)), "ij,jk->ik"), (((3, 3),), "ii->"), (((3, 3),), "ii->i"), (((2, 3),), "ij->j"),
                   (((2,), (3,)), "i,j->ij"), (((2, 2, 3), (2, 3, 2)), "bij,bjk->bik"), (((2, 3),), "ji"),
                   (((2, 3), (3, 2), (2, 2)), "ij,jk,kl->il"), (((3,), (3,)), "i,i")])),
    structural("tensordot", 2, _tensordot, _tensordot_vjp, "ViewBackward0", bilinear=True, sympy=_sym_tensordot,
               shape=_tensordot_shape, shape_message=_cannot_take, params=(Param("dims", "axes", 2),), text=_tensordot_text,
               examples=tuple((shapes, params) for shapes, params in [
                   (((2, 3, 2), (3, 2, 2)), {}), (((2, 3), (3, 2)), {"dims": 1}), (((2,), (3,)), {"dims": 0}),
                   (((3, 2), (2, 3)), {"dims": ((1, 0), (0, 1))})])),
    structural("kron", 2, _kron, _kron_vjp, "UnsafeViewBackward0", bilinear=True, sympy=_sym_kron, shape=_kron_shape,
               shape_message=_cannot_take, examples=_examples(((2, 2), (2, 3)), ((2,), (3,)), ((2, 2), (3,))),
               methods=("kron",)),
    structural("cross", 2, _cross, _cross_vjp, "LinalgCrossBackward0", bilinear=True, sympy=_sym_cross,
               shape=_cross_shape, shape_message=_cannot_take, aligns=True, params=(Param("dim", "int", -1),),
               examples=tuple((shapes, params) for shapes, params in [
                   (((3,), (3,)), {}), (((3, 2), (3, 2)), {"dim": 0}), (((2, 3), (2, 3)), {"dim": -1})]),
               methods=("cross",)),
    structural("det", 1, _det, _det_vjp, "LinalgDetBackward0", jvp=_det_jvp, sympy=_sym_det, shape=_det_shape,
               shape_message=_cannot_take, examples=_examples(((3, 3),), ((2, 2, 2),), ((1, 1),)), methods=("det",)),
    structural("inv", 1, _inv, _inv_vjp, "LinalgInvExBackward0", jvp=_inv_jvp, sympy=_sym_inv,
               shape=_inv_shape, shape_message=_singular_or_not_square("inv", _inv_shape),
               examples=_examples(((3, 3),), ((2, 2, 2),)), spellings=("inverse",), methods=("inverse",)),
    structural("solve", 2, _solve, _solve_vjp, "LinalgSolveExBackward0", jvp=_solve_jvp,
               sympy=_sym_solve, shape=_solve_shape,
               shape_message=_singular_or_not_square("solve", _solve_shape),
               examples=_examples(((3, 3), (3,)), ((2, 2), (2, 3)), ((2, 2, 2), (2,)), ((2, 2), (2, 2, 2)))),
    structural("logdet", 1, _logdet, _logdet_vjp, "WhereBackward0", jvp=_logdet_jvp,
               sympy=lambda a: np.asarray(_sympy().log(_sym_det(a).item()) if a.ndim == 2 else
                                          np.array([_sympy().log(_sym_det(m).item()) for m in a], dtype=object),
                                          dtype=object),
               shape=_det_shape, shape_message=_cannot_take, examples=_examples(((1, 1),), ((2, 1, 1),)),
               domain=((0.5, 2.0),), methods=("logdet",)),  # (a positive det; tests/test_linalg.py: larger ones)
]
