"""The rows of matrix decompositions and what is built on them: cholesky, qr, eigh, eigvalsh, svd,
svdvals, slogdet, inv_ex, solve_ex, solve_triangular, cholesky_solve, cholesky_inverse, pinv,
matrix_exp.

NumPy's LAPACK computes the values (the same routines PyTorch calls on the CPU: potrf, geqrf and
orgqr, syevd, gesdd, getrf), so the signs of Q's columns, of eigenvectors and of singular vectors
are LAPACK's, as PyTorch's are. The derivatives are PyTorch's (tools/autograd/derivatives.yaml,
torch/csrc/autograd/FunctionsManual.cpp): the same formulas, so the gradient of a function that
depends on a vector's sign is PyTorch's too, and PyTorch's symmetrizations (cholesky's and eigh's
gradients are symmetric) are kept.

A decomposition that gives a tuple is a row with `parts` (see core.Op.parts): each part its own
node, whose VJP takes that part's cotangent alone (the formulas are linear in the cotangents of
the parts: the parts' nodes add up). The VJP rules are written with what the Hessian's dual
numbers take (matmul, solve, where, elementwise ufuncs): a factor of a dual matrix is a dual
number whose tangent is the factor's JVP (`_factored`), so forward-over-reverse needs nothing more.

Their rules act on the trailing two axes of each arg (NumPy's linalg broadcasts the rest).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradcli.ops import linalg
from gradcli.ops.core import (
    Array,
    Dialect,
    LinAlgError,
    Param,
    Shape,
    batch_element,
    composite,
    float_input,
    kernel_refusal,
    structural,
    unbroadcast,
)

# --- shapes and small helpers ---------------------------------------------------------------


def _mT(x: Any) -> Any:
    return np.swapaxes(x, -1, -2)


def _is_dual(x: Any) -> bool:
    return type(x) is not np.ndarray and hasattr(x, "primal")


def _primal(x: Any) -> Any:
    return x.primal if _is_dual(x) else x


def _tangent(x: Any) -> Any:
    return x.tangent if _is_dual(x) else None


def _square(name: str) -> Callable[..., Shape]:
    def shape(a: Shape, **_: Any) -> Shape:
        linalg.square_matrices(name, a)
        return a

    return shape


def _matrices(name: str, a: Shape, label: str = "A") -> None:
    if len(a) < 2:
        raise ValueError(f"{name}: The input tensor {label} must have at least 2 dimensions.")


def _point_shape(x: Array, rank: int) -> Shape:
    return tuple(np.shape(x)[np.ndim(x) - rank:])


def _eye_like(n: int) -> Array:
    return np.eye(n)


def _tril(x: Any, k: int = 0) -> Any:
    n, m = np.shape(x)[-2:]
    return np.where(np.tri(n, m, k, dtype=bool), x, 0.0)


def _triu(x: Any, k: int = 0) -> Any:
    n, m = np.shape(x)[-2:]
    return np.where(~np.tri(n, m, k - 1, dtype=bool), x, 0.0)


def _diag_part(x: Any) -> Any:
    """The diagonal of each matrix, as matrices: x where i == j, 0 elsewhere."""
    n, m = np.shape(x)[-2:]
    return np.where(np.eye(n, m, dtype=bool), x, 0.0)


def _phi(x: Any) -> Any:
    """The lower triangle with half the diagonal (cholesky's and qr's Phi)."""
    n = np.shape(x)[-1]
    return _tril(x) * np.where(np.eye(n, dtype=bool), 0.5, 1.0)


def _sym(x: Any) -> Any:
    return 0.5 * (x + _mT(x))


def _solve(a: Any, b: Any) -> Any:
    """A^-1 B, broadcast over the batch (np.linalg.solve, which the dual numbers take too)."""
    batch = np.broadcast_shapes(np.shape(a)[:-2], np.shape(b)[:-2])
    if np.shape(a)[:-2] != batch:
        a = np.broadcast_to(_primal(a), (*batch, *np.shape(a)[-2:])) if not _is_dual(a) else a
    if np.shape(a)[-1] == 0:
        return np.zeros((*batch, 0, np.shape(b)[-1])) if not _is_dual(b) else b
    return np.linalg.solve(a, b)


def _substitute(t: Array, b: Array, lower: bool, unit: bool = False) -> Array:
    """T^-1 B for a triangular T (its other triangle not read), by substitution a column of T at a
    time, as BLAS's trsm: a zero on T's diagonal gives infinities and NaN, as there, not an error."""
    n = t.shape[-1]
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    x = np.array(np.broadcast_to(b, (*batch, *b.shape[-2:])), dtype=float)
    t = np.broadcast_to(t, (*batch, n, n))
    with np.errstate(all="ignore"):
        for j in range(n) if lower else reversed(range(n)):
            if not unit:
                x[..., j, :] /= t[..., j, j, None]
            rest = slice(j + 1, n) if lower else slice(0, j)
            x[..., rest, :] -= t[..., rest, j, None] * x[..., j, None, :]
    return x


def _triangular(t: Any, b: Any, lower: bool, unit: bool = False) -> Any:
    """T^-1 B: by substitution (_substitute), or by np.linalg.solve on the triangle for dual numbers."""
    if not _is_dual(t) and not _is_dual(b):
        return _substitute(np.asarray(t), np.asarray(b), lower, unit)
    n = np.shape(t)[-1]
    part = _tril(t) if lower else _triu(t)
    if unit:
        part = np.where(np.eye(n, dtype=bool), 1.0, part)
    return _solve(part, b)


def _solve_right(b: Any, a: Any) -> Any:
    """B A^-1."""
    return _mT(_solve(_mT(a), _mT(b)))


def _factored(a: Any, factor: Callable[[Array], tuple[Array, ...]], tangents: Callable[..., tuple[Array, ...]]) -> Any:
    """The factors of `a`; of a dual matrix (the Hessian), dual factors whose tangents are the JVP."""
    if not _is_dual(a):
        return factor(a)
    from gradcli.dual import Dual

    values = factor(a.primal)
    if a.tangent is None:
        return tuple(Dual(v) for v in values)
    return tuple(Dual(v, t) for v, t in zip(values, tangents(np.asarray(a.tangent), *values), strict=True))


def _empty_safe(function: Callable[[Array], Any], a: Array, *shapes: Shape) -> Any:
    """NumPy's LAPACK on a batch of 0x0 (or empty) matrices: empty results of these shapes."""
    if np.size(a) == 0:
        batch = np.shape(a)[:-2]
        results = tuple(np.zeros((*batch, *s)) for s in shapes)
        return results if len(results) > 1 else results[0]
    return function(a)


# --- cholesky: A = L L^T ----------------------------------------------------------------------


def _not_positive_definite(name: str, a: Array) -> str:
    """PyTorch's words for the first leading minor that is not positive-definite."""
    info = np.asarray(_cholesky_info(a))
    order = int(info.reshape(-1)[int(np.argmax(info.reshape(-1) > 0))])
    return (f"{name}: {batch_element(a, info > 0)}The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {order} is not positive-definite).")


def _cholesky_info(a: Array) -> Array:
    """LAPACK's info per matrix: 0, or the order of the first leading minor that is not positive-definite."""
    flat = np.reshape(a, (-1, *np.shape(a)[-2:]))
    info = np.zeros(len(flat))
    for k, m in enumerate(flat):
        if np.isnan(m).any():  # (NumPy's LAPACK lets a NaN pivot through; PyTorch's, as _potf2, stops at it)
            info[k] = _potf2_info(m)
            continue
        for order in range(1, m.shape[-1] + 1):
            try:
                with np.errstate(all="ignore"):
                    np.linalg.cholesky(m[:order, :order])
            except np.linalg.LinAlgError:
                info[k] = order
                break
    return info.reshape(np.shape(a)[:-2])


def _cholesky_factor(a: Array, name: str = "linalg.cholesky", partial: bool = False) -> Array:
    """L; a matrix that is not positive-definite is refused, or (`partial`: cholesky_ex) gives LAPACK's
    partial factor (_potf2)."""
    if np.size(a) == 0:
        return np.zeros(np.shape(a))
    try:
        with np.errstate(all="ignore"):
            factor = np.asarray(np.linalg.cholesky(a))
        if np.isnan(a).any() and np.any(_cholesky_info(a)):  # (a NaN pivot: not positive-definite, as PyTorch says)
            raise np.linalg.LinAlgError
        return factor
    except np.linalg.LinAlgError:
        if partial:
            return _potf2(a)
        raise LinAlgError(_not_positive_definite(name, a)) from None


def _potf2_info(m: Array) -> int:
    """The order of the first pivot of _potf2 that is not positive (NaN included), or 0."""
    low = np.tril(m).astype(float)
    n = m.shape[-1]
    with np.errstate(all="ignore"):
        for j in range(n):
            pivot = low[j, j] - low[j, :j] @ low[j, :j]
            if not pivot > 0:
                return j + 1
            low[j, j] = np.sqrt(pivot)
            low[j + 1:, j] = (low[j + 1:, j] - low[j + 1:, :j] @ low[j, :j]) / low[j, j]
    return 0


def _potf2(a: Array) -> Array:
    """LAPACK's unblocked Cholesky of each matrix: where a pivot is not positive (or NaN) it is left
    there and the factorization stops, the rest of the lower triangle as the input has it."""
    n = a.shape[-1]
    flat = np.reshape(np.tril(a), (-1, n, n)).astype(float)
    with np.errstate(all="ignore"):
        for low in flat:
            for j in range(n):
                pivot = low[j, j] - low[j, :j] @ low[j, :j]
                if not pivot > 0:
                    low[j, j] = pivot
                    break
                low[j, j] = np.sqrt(pivot)
                low[j + 1:, j] = (low[j + 1:, j] - low[j + 1:, :j] @ low[j, :j]) / low[j, j]
    return flat.reshape(a.shape)


def _cholesky_tangent(t: Array, low: Array) -> tuple[Array]:
    # dL = L Phi(L^-1 sym(dA) L^-T): PyTorch's cholesky_jvp
    if low.shape[-1] == 0:
        return (np.zeros(low.shape),)
    return (low @ _phi(_solve_right(_solve(low, _sym(t)), _mT(low))),)


def _cholesky_empty_backward(shapes: Sequence[Shape], flows: Sequence[bool], given: Sequence[bool],
                              upper: bool = False) -> str | None:
    """PyTorch's words where the backward of torch.cholesky of an empty tensor that is no batch of square matrices
    raises (its forward gives the empty tensor back unchecked): its solve with L^H, or L.mH of a vector."""
    (a,) = shapes
    if not flows[0] or 0 not in a or (len(a) >= 2 and a[-1] == a[-2]):
        return None
    if len(a) < 2:
        return f"tensor.mH is only supported on matrices or batches of matrices. Got {len(a)}-D tensor."
    rows, cols = (a[-2], a[-1]) if upper else (a[-1], a[-2])
    return f"linalg.solve_triangular: A must be batches of square matrices, but they are {rows} by {cols} matrices"


def _cholesky_row(name: str, node: str, spelled: str, parts: int = 0, empty_unchecked: bool = False,
                  checked_as: str = "", **fields: Any) -> Any:
    """`empty_unchecked`: torch.cholesky's, which gives an empty tensor of any shape back (its backward raises where
    that is no batch of square matrices). `checked_as`: the name PyTorch's square check says (cholesky_ex's is
    linalg.cholesky's)."""
    checked = _square(checked_as or spelled)

    def square(a: Shape, **params: Any) -> Shape:
        return tuple(a) if empty_unchecked and not math.prod(a) else checked(a)

    def forward(a: Array, ranks: tuple[int, ...], upper: bool = False, part: int = 0, of: Any = None) -> Array:
        square(_point_shape(a, ranks[0]))
        if empty_unchecked and not np.size(a):
            return np.zeros(np.shape(a))
        if part % 2:  # cholesky_ex's info: 0, or the order of the first leading minor that is not positive-definite
            return _cholesky_info(a)
        low = _cholesky_factor(a, spelled, partial=parts > 0)
        return _mT(low) if upper else low

    def vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], upper: bool = False, part: int = 0,
            of: Any = None) -> tuple[Any]:
        if part % 2:
            return (None,)
        if empty_unchecked and not np.size(a):
            problem = _cholesky_empty_backward([_point_shape(a, ranks[0])], [True], [True], upper)
            if problem is not None:
                from gradcli.errors import ShapeProblem  # (the one error a rule raises in the reverse sweep)

                raise ShapeProblem(f"the gradient of cholesky here: {problem} (PyTorch raises here too)")
            return (np.zeros(np.shape(a)),)
        low = _mT(ans) if upper else ans
        g_low = _mT(g) if upper else g
        if np.shape(low)[-1] == 0:
            return (np.zeros(np.shape(a)),)
        # PyTorch's cholesky_backward, in its order: S = tril(L^T gL) made symmetric (half the diagonal),
        # gA = L^-T S L^-1 (a solve from the left, then one from the right), symmetrized
        lower = _tril(_mT(low) @ g_low)
        both = 0.5 * (lower + _mT(_tril(lower, -1)))
        left = _triangular(_mT(low), both, lower=False)
        return (_sym(_mT(_triangular(_mT(low), _mT(left), lower=False))),)

    def jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], upper: bool = False,
            part: int = 0, of: Any = None) -> Array:
        if part % 2 or tangents[0] is None:
            return np.zeros(np.shape(ans))
        (d_low,) = _cholesky_tangent(np.asarray(tangents[0]), _mT(ans) if upper else ans)
        return _mT(d_low) if upper else d_low

    extra: dict[str, Any] = {"parts": parts, "fields": ("L", "info"), "integer_parts": (1,), "integer_dtype": "int32"} if parts else {}
    return structural(name, 1, forward, vjp, node, jvp=jvp, shape=_parts_shape(square, parts, lambda a: a[:-2]),
                      shape_message=_refused(spelled, square), params=(Param("upper", "bool", False),),
                      domain=((0.5, 2.0),), examples=(((((1, 1),), {"upper": False, **({"part": 0} if parts else {})}),
                                                       (((2, 1, 1),), {"upper": True, **({"part": 0} if parts else {})}))),
                      **extra, **fields)


def _parts_shape(check: Callable[..., Shape], parts: int, second: Callable[[Shape], Shape]) -> Callable[..., Shape]:
    def shape(a: Shape, *_: Any, part: int = 0, of: Any = None, **params: Any) -> Shape:
        out = check(a, **params)
        return second(a) if parts and part % parts == 1 else out

    return shape


def _refused(name: str, check: Callable[..., Shape]) -> Callable[..., str]:
    """What is wrong when a rule refuses: shapes that do not fit, else the matrix itself (the hint says how)."""
    def message(label: str, shapes: Sequence[Shape]) -> str:
        try:
            check(*shapes)
        except ValueError as problem:
            return str(problem)
        return f"{name} cannot take this matrix (PyTorch raises here too)"

    return message


# --- qr: A = Q R (Householder: LAPACK's signs) --------------------------------------------------

_MODES = ("reduced", "complete", "r")


def _qr_shape(a: Shape, mode: str = "reduced", some: Any = None, part: int = 0, of: Any = None) -> Shape:
    _matrices("linalg.qr", a)
    mode = _qr_mode(mode, some)
    m, n = a[-2:]
    k = m if mode == "complete" else min(m, n)
    if part % 2 == 0:
        return (0,) if mode == "r" else (*a[:-2], m, k)
    return (*a[:-2], k, n)


def _qr_mode(mode: str, some: Any) -> str:
    return mode if some is None else ("reduced" if some else "complete")  # torch.qr(a, some=True)


def _qr_factors(a: Array, mode: str) -> tuple[Array, Array]:
    m, n = a.shape[-2:]
    k = m if mode == "complete" else min(m, n)
    if a.size == 0:
        q = np.broadcast_to(np.eye(m, k), (*a.shape[:-2], m, k)).copy()
        return q, np.zeros((*a.shape[:-2], k, n))
    # (+0.0: a -0.0 counts as positive in the sign of a Householder reflection, as in PyTorch's LAPACK)
    q, r = np.linalg.qr(a + 0.0, mode="complete" if mode == "complete" else "reduced")
    return np.asarray(q), np.asarray(r)


def _qr_tangents(t: Array, q: Array, r: Array) -> tuple[Array, Array]:
    """dQ, dR of A = Q R (m >= n, reduced; or m < n: A = Q [U | V] with U square)."""
    m, n = t.shape[-2:]
    if m < n:
        dq, du = _qr_tangents(t[..., :m], q, r[..., :m])
        dv = _mT(q) @ (t[..., m:] - dq @ r[..., m:])
        return dq, np.concatenate([du, dv], axis=-1)
    c = _solve_right(_mT(q) @ t, r)  # Q^T dA R^-1
    below = _tril(c, -1)
    omega = below - _mT(below)  # Q^T dQ, skew
    dr = (c - omega) @ r
    dq = _solve_right(t, r) - q @ (c - omega)
    return dq, dr


def _qr_backward(gq: Any, gr: Any, q: Any, r: Any) -> Any:
    """PyTorch's linalg_qr_backward, in its order. X = gR R^T - Q^T gQ; m >= n: gA = (Q sym(X) + gQ) R^-T,
    sym(X) X's upper triangle mirrored; m < n: gA = [Q tril(X^T - X) R1^-T | 0] + Q gR, R1 R's first m columns."""
    m, n = np.shape(q)[-2], np.shape(r)[-1]
    x = gr @ _mT(r) - _mT(q) @ gq
    if m >= n:
        upper = _triu(x)
        mirrored = upper + _mT(upper)
        mirrored = mirrored - 0.5 * _diag_part(mirrored)
        return _mT(_triangular(r, _mT(q @ mirrored + gq), lower=False))
    skew = q @ _tril(_mT(x) - x)
    solved = _mT(_triangular(r[..., :m], _mT(skew), lower=False))
    return np.concatenate([solved, np.zeros((*np.shape(solved)[:-1], n - m))], axis=-1) + q @ gr


def _qr_parts(a: Any, mode: str) -> tuple[Any, Any]:
    return _factored(a, lambda m: _qr_factors(m, mode), _qr_tangents)


def _qr_forward(a: Array, ranks: tuple[int, ...], mode: str = "reduced", some: Any = None, part: int = 0,
                of: Any = None) -> Array:
    mode = _qr_mode(mode, some)
    _qr_shape(_point_shape(a, ranks[0]), mode)
    q, r = _qr_factors(a, mode)
    if part % 2:
        return r
    return np.zeros(0) if mode == "r" else q


def _qr_usable(a: Any, mode: str) -> None:
    """PyTorch's refusals of qr's backward, raised as it raises them: when the gradient is asked for."""
    from gradcli.errors import ShapeProblem

    m, n = np.shape(a)[-2:]
    if mode == "r":
        raise ShapeProblem("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
                         "Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    if mode == "complete" and m > n:
        raise ShapeProblem("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")


def _qr_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], mode: str = "reduced", some: Any = None,
            part: int = 0, of: Any = None) -> tuple[Any]:
    mode = _qr_mode(mode, some)
    _qr_usable(a, mode)
    q, r = _qr_parts(a, mode)
    if np.size(a) == 0:
        return (np.zeros(np.shape(a)),)
    zero_q, zero_r = np.zeros(np.shape(q)), np.zeros(np.shape(r))
    return (_qr_backward(zero_q, g, q, r) if part % 2 else _qr_backward(g, zero_r, q, r),)


def _qr_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], mode: str = "reduced",
            some: Any = None, part: int = 0, of: Any = None) -> Array:
    mode = _qr_mode(mode, some)
    if tangents[0] is None or np.size(a) == 0:
        return np.zeros(np.shape(ans))
    _qr_usable(a, mode)
    q, r = _qr_factors(a, mode)
    return _qr_tangents(np.broadcast_to(tangents[0], np.shape(a)), q, r)[part % 2]


def _qr_text(args: Sequence[str], mode: str = "reduced", some: Any = None, part: int = 0, of: Any = None) -> str:
    said = f", mode={mode!r}" if mode != "reduced" else ""
    return f"torch.linalg.qr({args[0]}{said})[{part}]"


# --- eigh: A = V diag(L) V^T of a symmetric A (one triangle read) ---------------------------------


def _eigh_factors(a: Array, uplo: str) -> tuple[Array, Array]:
    if a.size == 0:
        return np.zeros(a.shape[:-1]), np.zeros(a.shape)
    values, vectors = np.linalg.eigh(a, UPLO=uplo)  # type: ignore[call-overload]
    return np.asarray(values), np.asarray(vectors)


def _gaps(values: Any) -> Any:
    """1 / (L_j - L_i) off the diagonal, 0 on it (PyTorch's E, inverted; a repeated eigenvalue gives inf)."""
    n = np.shape(values)[-1]
    differences = values[..., None, :] - values[..., :, None]
    eye = np.eye(n, dtype=bool)
    with np.errstate(divide="ignore"):
        return np.where(eye, 0.0, 1.0 / np.where(eye, 1.0, differences))


def _eigh_tangents(t: Array, values: Array, vectors: Array) -> tuple[Array, Array]:
    inner = _mT(vectors) @ _sym(t) @ vectors
    return np.diagonal(inner, axis1=-2, axis2=-1), vectors @ (_gaps(values) * inner)


def _eigh_backward(g_values: Any, g_vectors: Any, values: Any, vectors: Any) -> Any:
    """PyTorch's linalg_eig_backward, Hermitian: gA = V (diag(gL) + (V^T gV - gV^T V) / 2E) V^T."""
    inner: Any = 0.0
    if g_vectors is not None:
        product = _mT(vectors) @ g_vectors
        inner = _gaps(values) * (0.5 * (product - _mT(product)))
    if g_values is not None:
        n = np.shape(values)[-1]
        inner = inner + np.where(np.eye(n, dtype=bool), g_values[..., None, :], 0.0)
    return vectors @ inner @ _mT(vectors)


def _uplo(uplo: str) -> str:
    return uplo.upper()


def _eigh_forward(a: Array, ranks: tuple[int, ...], UPLO: str = "L", part: int = 0, of: Any = None) -> Array:
    _square("linalg.eigh")(_point_shape(a, ranks[0]))
    return _eigh_factors(a, _uplo(UPLO))[part % 2]


def _eigh_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], UPLO: str = "L", part: int = 0,
              of: Any = None) -> tuple[Any]:
    if np.size(a) == 0:
        return (np.zeros(np.shape(a)),)
    values, vectors = _factored(a, lambda m: _eigh_factors(m, _uplo(UPLO)), _eigh_tangents)
    return (_eigh_backward(None, g, values, vectors) if part % 2 else _eigh_backward(g, None, values, vectors),)


def _eigh_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], UPLO: str = "L",
              part: int = 0, of: Any = None) -> Array:
    if tangents[0] is None or np.size(a) == 0:
        return np.zeros(np.shape(ans))
    values, vectors = _eigh_factors(a, _uplo(UPLO))
    return _eigh_tangents(np.broadcast_to(tangents[0], np.shape(a)), values, vectors)[part % 2]


def _eigh_shape(a: Shape, UPLO: str = "L", part: int = 0, of: Any = None) -> Shape:
    _square("linalg.eigh")(a)
    return a if part % 2 else a[:-1]


def _eigvalsh_forward(a: Array, ranks: tuple[int, ...], UPLO: str = "L") -> Array:
    return _eigh_forward(a, ranks, UPLO, 0)


def _eigvalsh_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], UPLO: str = "L") -> tuple[Any]:
    return _eigh_vjp(g, ans, a, ranks, UPLO, 0)


def _eigvalsh_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], UPLO: str = "L") -> Array:
    return _eigh_jvp(tangents, ans, a, ranks, UPLO, 0)


# --- svd: A = U diag(S) Vh (gesdd: LAPACK's signs) ------------------------------------------------


def _svd_factors(a: Array, full: bool = False) -> tuple[Array, Array, Array]:
    m, n = a.shape[-2:]
    if a.size == 0:
        k = min(m, n)
        um, vn = (m, n) if full else (k, k)
        batch = a.shape[:-2]
        return (np.broadcast_to(np.eye(m, um), (*batch, m, um)).copy(), np.zeros((*batch, k)),
                np.broadcast_to(np.eye(vn, n), (*batch, vn, n)).copy())
    u, s, vh = _lapack_svd(a, full_matrices=full)
    return np.asarray(u), np.asarray(s), np.asarray(vh)


def _lapack_svd(a: Array, full_matrices: bool = True, compute_uv: bool = True) -> Any:
    """linalg.lapack_svd (U, S, Vh, or S alone); PyTorch's LinAlgError for a matrix holding NaN, on which its
    LAPACK does not converge (NumPy's may return NaN)."""
    nan = np.isnan(a).any(axis=(-2, -1))
    if np.any(nan):
        raise LinAlgError(f"linalg.svd: {batch_element(a, nan)}The algorithm failed to converge because the input "
                          "matrix contained non-finite values.")
    u, s, vh = linalg.lapack_svd(a, full_matrices=full_matrices)
    return (u, s, vh) if compute_uv else s


def _svd_tangents(t: Array, u: Array, s: Array, vh: Array) -> tuple[Array, Array, Array]:
    """dU, dS, dVh of the reduced SVD."""
    v = _mT(vh)
    k = s.shape[-1]
    p = _mT(u) @ t @ v  # k x k
    ds = np.diagonal(p, axis1=-2, axis2=-1)
    sq = s * s
    with np.errstate(divide="ignore"):
        f = np.where(np.eye(k, dtype=bool), 0.0, 1.0 / np.where(np.eye(k, dtype=bool), 1.0,
                                                                 sq[..., None, :] - sq[..., :, None]))
        inverse = 1.0 / s
    smat = s[..., None, :]  # right-multiplying by S scales columns
    du = u @ (f * (p * smat + s[..., :, None] * _mT(p))) + (t @ v - u @ p) * inverse[..., None, :]
    dv = v @ (f * (_mT(p) * smat + s[..., :, None] * p)) + (_mT(t) @ u - v @ _mT(p)) * inverse[..., None, :]
    return du, ds, _mT(dv)


def _svd_backward(gu: Any, gs: Any, gvh: Any, u: Any, s: Any, vh: Any) -> Any:
    """PyTorch's svd_backward (real): gA = U [skew(U^T gU)/E S + S skew(V^T gV)/E + diag(gS)] V^T
    + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T), E_jk = S_k^2 - S_j^2."""
    k = np.shape(s)[-1]
    eye = np.eye(k, dtype=bool)
    if gu is None and gvh is None:
        return (u * gs[..., None, :]) @ vh
    sq = s * s
    with np.errstate(divide="ignore"):
        e = np.where(eye, 1.0, sq[..., None, :] - sq[..., :, None])
    inner: Any = 0.0
    if gs is not None:
        inner = np.where(eye, gs[..., None, :], 0.0)
    m, n = np.shape(u)[-2], np.shape(vh)[-1]
    result: Any = 0.0
    if gu is not None:
        uhgu = _mT(u) @ gu
        inner = inner + ((uhgu - _mT(uhgu)) / e) * s[..., None, :]
        if m > k:
            result = result + ((gu - u @ uhgu) / s[..., None, :]) @ vh
    if gvh is not None:
        gv = _mT(gvh)
        vhgv = vh @ gv
        inner = inner + s[..., :, None] * ((vhgv - _mT(vhgv)) / e)
        if n > k:
            result = result + u @ ((_mT(gv) - _mT(vhgv) @ vh) / s[..., :, None])
    return u @ inner @ vh + result


def _svd_shape(a: Shape, full_matrices: bool = True, part: int = 0, of: Any = None) -> Shape:
    _matrices("linalg.svd", a)
    m, n = a[-2:]
    k = min(m, n)
    return [(*a[:-2], m, m if full_matrices else k), (*a[:-2], k), (*a[:-2], n if full_matrices else k, n)][part % 3]


def _svd_forward(a: Array, ranks: tuple[int, ...], full_matrices: bool = True, part: int = 0, of: Any = None) -> Array:
    _svd_shape(_point_shape(a, ranks[0]), full_matrices)
    return _svd_factors(a, full_matrices)[part % 3]


def _svd_parts(a: Any) -> tuple[Any, Any, Any]:
    return _factored(a, _svd_factors, _svd_tangents)


def _narrowed(g: Any, part: int, k: int) -> Any:
    """full_matrices: PyTorch's backward reads the first k columns of U (rows of Vh) alone."""
    return g[..., :k] if part == 0 else g[..., :k, :] if part == 2 else g


def _svd_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], full_matrices: bool = True, part: int = 0,
             of: Any = None) -> tuple[Any]:
    if np.size(a) == 0:
        return (np.zeros(np.shape(a)),)
    part %= 3
    u, s, vh = _svd_parts(a)
    given: list[Any] = [None, None, None]
    given[part] = _narrowed(g, part, np.shape(s)[-1])
    return (_svd_backward(given[0], given[1], given[2], u, s, vh),)


def _svd_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], full_matrices: bool = True,
             part: int = 0, of: Any = None) -> Array:
    if tangents[0] is None or np.size(a) == 0:
        return np.zeros(np.shape(ans))
    part %= 3
    m, n = np.shape(a)[-2:]
    if full_matrices and m != n and part != 1:
        raise ValueError("linalg.svd: the forward derivative of the full U or Vh of a matrix that is not square "
                         "is not defined (PyTorch's is not either): use full_matrices=False")
    u, s, vh = _svd_factors(a)
    return _svd_tangents(np.broadcast_to(tangents[0], np.shape(a)), u, s, vh)[part]


def _svdvals_forward(a: Array, ranks: tuple[int, ...]) -> Array:
    _svd_shape(_point_shape(a, ranks[0]))
    if np.size(a) == 0:
        return np.zeros((*np.shape(a)[:-2], min(np.shape(a)[-2:])))
    return np.asarray(_lapack_svd(a, compute_uv=False))


def _svdvals_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...]) -> tuple[Any]:
    return _svd_vjp(g, ans, a, ranks, False, 1)


def _svdvals_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...]) -> Array:
    return _svd_jvp(tangents, ans, a, ranks, False, 1)


def _torch_svd_program(emit: Any, a: Any, some: bool = True, compute_uv: bool = True, part: int = 0,
                      of: Any = None) -> Any:
    # torch.svd: linalg.svd(A, full_matrices=not some), its V = Vh.mT (PyTorch's TransposeBackward0 over the
    # LinalgSvdBackward0 that U and S come from)
    out = emit("linalg_svd", a, full_matrices=not some, part=part % 3)
    return emit("transpose", out, dim0=-2, dim1=-1) if part % 3 == 2 else out


def _torch_svd_matrices(a: Shape) -> None:
    if len(a) < 2:  # (torch.svd's words, not torch.linalg.svd's)
        raise ValueError(f"linalg.svd: input should have at least 2 dimensions, but has {len(a)} dimensions instead")


def _svd_shape_torch(a: Shape, some: bool = True, compute_uv: bool = True, part: int = 0, of: Any = None) -> Shape:
    _torch_svd_matrices(a)
    out = _svd_shape(a, not some, part)
    return (*out[:-2], out[-1], out[-2]) if part % 3 == 2 else out


# torch.svd(a, compute_uv=False): S, and U and V of zeros, (m, m) and (n, n) whatever `some` says, with no
# gradient (PyTorch's U and V are constants: no grad_fn).
def _svd_values_shape(a: Shape, some: bool = True, compute_uv: bool = False, part: int = 0, of: Any = None) -> Shape:
    _torch_svd_matrices(a)
    m, n = a[-2:]
    return [(*a[:-2], m, m), (*a[:-2], min(m, n)), (*a[:-2], n, n)][part % 3]


def _svd_values_forward(a: Array, ranks: tuple[int, ...], some: bool = True, compute_uv: bool = False, part: int = 0,
                        of: Any = None) -> Array:
    if part % 3 == 1:
        return _svdvals_forward(a, ranks)
    batch = np.shape(a)[: np.ndim(a) - ranks[0]]
    return np.zeros((*batch, *_svd_values_shape(_point_shape(a, ranks[0]), part=part)))


def _svd_values_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], some: bool = True, compute_uv: bool = False,
                    part: int = 0, of: Any = None) -> tuple[Any]:
    if part % 3 != 1:
        return (np.zeros(np.shape(a)),)
    return _svd_vjp(g, ans, a, ranks, False, 1)


def _svd_values_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], some: bool = True,
                    compute_uv: bool = False, part: int = 0, of: Any = None) -> Array:
    if part % 3 != 1:
        return np.zeros(np.shape(ans))
    return _svd_jvp(tangents, ans, a, ranks, False, 1)


def _parts_text(call: str, defaults: dict[str, Any]) -> Callable[..., str]:
    def text(args: Sequence[str], part: int = 0, of: Any = None, **params: Any) -> str:
        said = "".join(f", {k}={v!r}" for k, v in params.items() if k not in defaults or defaults[k] != v)
        return f"{call}({', '.join(args)}{said})[{part}]"

    return text


def _call_text(call: str, defaults: dict[str, Any]) -> Callable[..., str]:
    def text(args: Sequence[str], **params: Any) -> str:
        said = "".join(f", {k}={v!r}" for k, v in params.items() if k not in defaults or defaults[k] != v)
        return f"{call}({', '.join(args)}{said})"

    return text


_UPLO = Param("UPLO", "str", "L", choices=("L", "U", "l", "u"))
_GENERAL: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((2, 2),), {}), (((3, 2),), {}), (((2, 3),), {}), (((2, 3, 3),), {}))
_SYMMETRIC: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((1, 1),), {}), (((2, 1, 1),), {}))  # (one triangle is read: larger ones in tests/test_decompositions.py)


def _with_part(examples: Any, part: int = 0) -> Any:
    return tuple((shapes, {**params, "part": part}) for shapes, params in examples)


ROWS = [
    _cholesky_row("cholesky", "CholeskyBackward0", "cholesky", methods=("cholesky",), empty_unchecked=True,
                  backward_problem=_cholesky_empty_backward,
                  dialects=(Dialect("linalg", row="linalg_cholesky"),),
                  reference="torch.cholesky(a)", dtype_refusals=kernel_refusal("cholesky_cpu")),
    _cholesky_row("linalg_cholesky", "LinalgCholeskyExBackward0", "linalg.cholesky", callable=False,
                  text=_call_text("torch.linalg.cholesky", {"upper": False}), reference="torch.linalg.cholesky(a)",
                  reference_program="torch.linalg.cholesky(a)", dtype_refusals=float_input("linalg.cholesky")),
    _cholesky_row("cholesky_ex", "LinalgCholeskyExBackward0", "linalg.cholesky_ex", parts=2, checked_as="linalg.cholesky",
                  text=_parts_text("torch.linalg.cholesky_ex", {"upper": False}),
                  reference="torch.linalg.cholesky_ex(a)[0]", reference_program="torch.linalg.cholesky_ex(a)[0]",
                  dtype_refusals=float_input("linalg.cholesky")),
    structural("qr", 1, _qr_forward, _qr_vjp, "LinalgQrBackward0", jvp=_qr_jvp, shape=_qr_shape, text=_qr_text,
               shape_message=_refused("linalg.qr", _qr_shape), parts=2, fields=("Q", "R"),
               params=(Param("mode", "str", "reduced", choices=_MODES), Param("some", "bool", None)),
               dialects=(Dialect("torch", order=("some",), refuses=("mode",)),
                         Dialect("method", order=("some",), refuses=("mode",)),
                         Dialect("linalg", order=("mode",), refuses=("some",)),
                         Dialect("numpy", order=("mode",), refuses=("some",))),
               methods=("qr",), examples=_with_part(_GENERAL) + _with_part(_GENERAL[:2], 1),
               reference="torch.linalg.qr(a)[0]", reference_program="torch.linalg.qr(a)[0]",
               dtype_refusals=float_input("linalg.qr")),
    structural("eigh", 1, _eigh_forward, _eigh_vjp, "LinalgEighBackward0", jvp=_eigh_jvp, shape=_eigh_shape,
               text=_parts_text("torch.linalg.eigh", {"UPLO": "L"}), shape_message=_refused("linalg.eigh", _eigh_shape),
               parts=2, fields=("eigenvalues", "eigenvectors"), params=(_UPLO,),
               examples=_with_part(_SYMMETRIC) + _with_part(_SYMMETRIC, 1),
               reference="torch.linalg.eigh(a)[0]", reference_program="torch.linalg.eigh(a)[0]",
               dtype_refusals=kernel_refusal("linalg_eigh_cpu")),
    structural("eigvalsh", 1, _eigvalsh_forward, _eigvalsh_vjp, "LinalgEighBackward0", jvp=_eigvalsh_jvp,
               shape=lambda a, UPLO="L": _eigh_shape(a), shape_message=_refused("linalg.eigvalsh", _eigh_shape),
               params=(_UPLO,), examples=_SYMMETRIC, reference="torch.linalg.eigvalsh(a)",
               text=_call_text("torch.linalg.eigvalsh", {"UPLO": "L"}), reference_program="torch.linalg.eigvalsh(a)",
               dtype_refusals=kernel_refusal("linalg_eigh_cpu")),
    composite("svd", 1, _torch_svd_program, "LinalgSvdBackward0", sympy=None,
               shape=_svd_shape_torch, shape_message=_refused("svd", _svd_shape_torch), parts=3,
               fields=("U", "S", "V"), params=(Param("some", "bool", True), Param("compute_uv", "bool", True)),
               text=_parts_text("torch.svd", {"some": True, "compute_uv": True}), methods=("svd",),
               dialects=(Dialect("linalg", row="linalg_svd"), Dialect("numpy", row="numpy_svd")),
               rebinds=(("compute_uv", False, "svd_values"),),
               examples=_with_part(_GENERAL[:1]) + _with_part(_GENERAL[1:2], 1) + _with_part(_GENERAL[2:3], 2),
               reference="torch.svd(a)[1]", reference_program="torch.svd(a)[1]",
               dtype_refusals=float_input("linalg.svd")),
    structural("svd_values", 1, _svd_values_forward, _svd_values_vjp, "LinalgSvdBackward0", jvp=_svd_values_jvp,
               shape=_svd_values_shape, shape_message=_refused("svd", _svd_values_shape), parts=3, detached_parts=(0, 2),
               fields=("U", "S", "V"), params=(Param("some", "bool", True), Param("compute_uv", "bool", False)),
               text=lambda args, part=0, of=None, **params: _parts_text("torch.svd", {"some": True})(
                   args, part, of, **{**params, "compute_uv": False}), callable=False,
               examples=_with_part(_GENERAL[:1], 1) + _with_part(_GENERAL[1:2], 1),
               reference="torch.svd(a, compute_uv=False)[1]", reference_program="torch.svd(a, compute_uv=False)[1]",
               dtype_refusals=float_input("linalg.svd")),
    structural("linalg_svd", 1, _svd_forward, _svd_vjp, "LinalgSvdBackward0", jvp=_svd_jvp, shape=_svd_shape,
               shape_message=_refused("linalg.svd", _svd_shape), parts=3, fields=("U", "S", "Vh"), callable=False,
               params=(Param("full_matrices", "bool", True),), text=_parts_text("torch.linalg.svd", {"full_matrices": True}),
               examples=_with_part(_GENERAL[:1]) + _with_part(_GENERAL[1:2], 1) + _with_part(_GENERAL[:1], 2),
               reference="torch.linalg.svd(a)[1]", reference_program="torch.linalg.svd(a)[1]",
               dtype_refusals=float_input("linalg.svd")),
    structural("svdvals", 1, _svdvals_forward, _svdvals_vjp, "LinalgSvdBackward0", jvp=_svdvals_jvp,
               shape=lambda a: _svd_shape(a, False, 1), shape_message=_refused("linalg.svdvals", _svd_shape),
               text=_call_text("torch.linalg.svdvals", {}), examples=_GENERAL, output=1,
               reference="torch.linalg.svdvals(a)", reference_program="torch.linalg.svdvals(a)",
               dtype_refusals=float_input("linalg.svd")),
]


# --- inv_ex, solve_ex: inv and solve with LAPACK's info: a singular matrix's result with LAPACK's infinities and NaN
# and its first zero pivot (check_errors=False, PyTorch's default), or PyTorch's LinAlgError (check_errors=True) ---


def _with_info(row: Any, name: str, node: str, arity: int, fields: tuple[str, str], **extra: Any) -> Any:
    """`row`'s op as the first part of a tuple whose second is LAPACK's info (an int32, no gradient); its rules
    take singular_ok=True, where a singular matrix goes through LAPACK's steps as PyTorch's _ex functions take it."""
    def forward(*args: Any, ranks: tuple[int, ...], part: int = 0, of: Any = None, check_errors: bool = False
                ) -> Array:
        if check_errors:
            try:
                row.forward(*args, ranks=ranks)
            except LinAlgError as error:  # (inv's words, named as the _ex function: "linalg.inv_ex: ...")
                head, _, rest = str(error).partition(": ")
                raise LinAlgError(f"{head}_ex: {rest}") from None
        if part % 2:
            return linalg.lapack_info(args[0])
        return row.forward(*args, ranks=ranks, singular_ok=True)

    def vjp(g: Any, ans: Any, *args: Any, ranks: tuple[int, ...], part: int = 0, of: Any = None,
            check_errors: bool = False) -> tuple[Any, ...]:
        if part % 2:
            return tuple(None for _ in args)
        return tuple(row.vjp(g, ans, *args, ranks=ranks, singular_ok=True))

    def jvp(tangents: Sequence[Any], ans: Array, *args: Any, ranks: tuple[int, ...], part: int = 0,
            of: Any = None, check_errors: bool = False) -> Array:
        if part % 2:
            return np.zeros(np.shape(ans))
        return np.asarray(row.jvp(tangents, ans, *args, ranks=ranks, singular_ok=True))

    def shape(*shapes: Shape, part: int = 0, of: Any = None, check_errors: bool = False) -> Shape:
        out = row.shape(*shapes)
        return shapes[0][:-2] if part % 2 else out

    def text(args: Sequence[str], part: int = 0, of: Any = None, check_errors: bool = False) -> str:
        given = ", check_errors=True" if check_errors else ""
        return f"torch.linalg.{name}({', '.join(args)}{given})[{part}]"

    return structural(name, arity, forward, vjp, node, jvp=jvp, shape=shape, shape_message=row.shape_message,
                      parts=2, fields=fields, integer_parts=(1,), integer_dtype="int32", text=text, dialects=(),
                      params=(Param("check_errors", "bool", False),),
                      dtype_refusals=row.dtype_refusals,
                      examples=_with_part(row.examples), reference=f"torch.linalg.{name}({', '.join('ab'[:arity])})[0]",
                      reference_program=f"torch.linalg.{name}({', '.join('ab'[:arity])})[0]", **extra)


# --- solve_triangular, triangular_solve: substitution, as BLAS's trsm ----------------------------------


def _triangle(a: Any, upper: bool, unit: bool) -> Any:
    """The triangle of A a triangular solve reads, its diagonal 1 where `unit`: where A's gradient lands."""
    n = np.shape(a)[-1]
    part = _triu(a) if upper else _tril(a)
    return np.where(np.eye(n, dtype=bool), 0.0, part) if unit else part


def _solve_triangular_shape(a: Shape, b: Shape, upper: Any = None, left: bool = True, unitriangular: bool = False
                            ) -> Shape:
    _square("linalg.solve_triangular")(a)
    _matrices("linalg.solve_triangular", b, "B")
    if (b[-2] if left else b[-1]) != a[-1]:
        raise ValueError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                         f"{'AX = B' if left else 'XA = B'} ({a[-2]}x{a[-1]} and {b[-2]}x{b[-1]})")
    return (*np.broadcast_shapes(a[:-2], b[:-2]), *b[-2:])


def _solve_triangular(a: Array, b: Array, ranks: tuple[int, ...], upper: Any = None, left: bool = True,
                      unitriangular: bool = False) -> Array:
    if upper is None:
        raise ValueError("linalg.solve_triangular() missing required keyword argument 'upper'")
    _solve_triangular_shape(_point_shape(a, ranks[0]), _point_shape(b, ranks[1]), upper, left, unitriangular)
    a, b = _lined_up(a, b, ranks)
    if left:
        return _triangular(a, b, lower=not upper, unit=unitriangular)
    return _mT(_triangular(_mT(a), _mT(b), lower=bool(upper), unit=unitriangular))


def _lined_up(a: Any, b: Any, ranks: Sequence[int]) -> tuple[Any, Any]:
    """Two (batches of) matrices, with axes of 1 put in front of the one with fewer batch axes."""
    width = max(ranks)
    return (a.reshape(a.shape[:a.ndim - ranks[0]] + (1,) * (width - ranks[0]) + a.shape[a.ndim - ranks[0]:]),
            b.reshape(b.shape[:b.ndim - ranks[1]] + (1,) * (width - ranks[1]) + b.shape[b.ndim - ranks[1]:]))


def _solve_triangular_vjp(g: Any, ans: Any, a: Any, b: Any, ranks: tuple[int, ...], upper: Any = None,
                          left: bool = True, unitriangular: bool = False) -> tuple[Any, Any]:
    # PyTorch's linalg_solve_triangular_backward: gB = A^-T gX (A^T's other triangle), gA = -gB X^T (left)
    # or -X^T gB (right), on A's triangle
    la, lb = _lined_up(a, b, ranks)
    if left:
        gb = _triangular(_mT(la), g, lower=bool(upper), unit=unitriangular)
        ga = -(gb @ _mT(ans))
    else:
        gb = _mT(_triangular(la, _mT(g), lower=not upper, unit=unitriangular))
        ga = -(_mT(ans) @ gb)
    return _back(_triangle(ga, bool(upper), unitriangular), la, a), _back(gb, lb, b)


def _back(cotangent: Any, lined: Any, arg: Any) -> Any:
    """A cotangent of an arg that _lined_up gave axes of 1: broadcasting undone, the arg's own shape."""
    if _is_dual(cotangent) or np.shape(cotangent) == np.shape(arg):
        return cotangent
    return unbroadcast(np.asarray(cotangent), np.shape(lined)).reshape(np.shape(arg))


def _solve_triangular_jvp(tangents: Sequence[Any], ans: Array, a: Array, b: Array, ranks: tuple[int, ...],
                          upper: Any = None, left: bool = True, unitriangular: bool = False) -> Array:
    # dX = A^-1 (dB - dA X) (left), (dB - X dA) A^-1 (right), dA on A's triangle
    ta, tb = tangents
    la, _ = _lined_up(a, b, ranks)
    rhs: Any = np.zeros(np.shape(ans)) if tb is None else np.broadcast_to(_lined_up(a, np.asarray(tb), ranks)[1],
                                                                          np.shape(ans))
    if ta is not None:
        da = _triangle(_lined_up(np.asarray(ta), b, ranks)[0], bool(upper), unitriangular)
        rhs = rhs - (da @ ans if left else ans @ da)
    return _solve_triangular(la, np.broadcast_to(rhs, np.shape(ans)), (max(ranks), max(ranks)), upper, left,
                             unitriangular)


def _triangular_solve_forward(b: Array, a: Array, ranks: tuple[int, ...], upper: bool = True, transpose: bool = False,
                              unitriangular: bool = False, part: int = 0, of: Any = None) -> Array:
    # torch.triangular_solve(b, A): (A^-1 b or A^-T b, a copy of A)
    _solve_triangular_shape(_point_shape(a, ranks[1]), _point_shape(b, ranks[0]))
    if part % 2:
        return np.broadcast_to(a, (*np.broadcast_shapes(np.shape(a)[:-2], np.shape(b)[:-2]), *np.shape(a)[-2:])).copy()
    lb, la = _lined_up(b, a, ranks)
    if transpose:
        return _triangular(_mT(la), lb, lower=bool(upper), unit=unitriangular)
    return _triangular(la, lb, lower=not upper, unit=unitriangular)


def _triangular_solve_vjp(g: Any, ans: Any, b: Any, a: Any, ranks: tuple[int, ...], upper: bool = True,
                          transpose: bool = False, unitriangular: bool = False, part: int = 0,
                          of: Any = None) -> tuple[Any, Any]:
    if part % 2:  # the copy of A: its gradient is A's, whole
        return np.zeros(np.shape(b)), _back(g, _lined_up(b, a, ranks)[1], a)
    lb, la = _lined_up(b, a, ranks)
    x = _triangular_solve_forward(b, a, ranks, upper, transpose, unitriangular)
    # gb = A^-T g (A^-1 g where `transpose`); gA = -gb X^T (-X gb^T where `transpose`), on A's triangle
    gb = _triangular(la if transpose else _mT(la), g, lower=not upper if transpose else bool(upper), unit=unitriangular)
    ga = -linalg.product(x, _mT(gb)) if transpose else -linalg.product(gb, _mT(x))
    return _back(gb, lb, b), _back(_triangle(ga, upper, unitriangular), la, a)


def _triangular_solve_jvp(tangents: Sequence[Any], ans: Array, b: Array, a: Array, ranks: tuple[int, ...],
                          upper: bool = True, transpose: bool = False, unitriangular: bool = False, part: int = 0,
                          of: Any = None) -> Array:
    tb, ta = tangents
    if part % 2:
        return np.zeros(np.shape(ans)) if ta is None else np.broadcast_to(ta, np.shape(ans))
    x = ans
    _, la = _lined_up(b, a, ranks)
    rhs: Any = np.zeros(np.shape(x)) if tb is None else np.broadcast_to(_lined_up(np.asarray(tb), a, ranks)[0],
                                                                        np.shape(x))
    if ta is not None:
        da = _triangle(_lined_up(b, np.asarray(ta), ranks)[1], upper, unitriangular)
        rhs = rhs - ((_mT(da) if transpose else da) @ x)
    rhs = np.broadcast_to(rhs, np.shape(x))
    if transpose:
        return _triangular(_mT(la), rhs, lower=bool(upper), unit=unitriangular)
    return _triangular(la, rhs, lower=not upper, unit=unitriangular)


def _triangular_solve_shape(b: Shape, a: Shape, upper: bool = True, transpose: bool = False,
                            unitriangular: bool = False, part: int = 0, of: Any = None) -> Shape:
    # (torch.triangular_solve(b, A): its own checks in its order and words, not linalg.solve_triangular's)
    for label, shape in (("b", b), ("A", a)):
        if len(shape) < 2:
            raise ValueError(f"torch.triangular_solve: Expected {label} to have at least 2 dimensions, but it has "
                             f"{len(shape)} dimensions instead")
    if a[-1] != a[-2]:
        raise ValueError(f"A must be batches of square matrices, but they are {a[-2]} by {a[-1]} matrices")
    if a[-1] != b[-2]:
        raise ValueError(f"Incompatible matrix sizes for triangular_solve: each A matrix is {a[-1]} by {a[-1]} but "
                         f"each b matrix is {b[-2]} by {b[-1]}")
    out = (*np.broadcast_shapes(a[:-2], b[:-2]), *b[-2:])
    return (*out[:-2], *a[-2:]) if part % 2 else out


# --- cholesky_solve, cholesky_inverse: with A = L L^T given by its factor ---------------------------


def _cholesky_solve_shape(b: Shape, low: Shape, upper: bool = False) -> Shape:
    # (PyTorch's checks in its order and words: B's dims, the factor's, the factor square, the sizes)
    for label, shape in (("b", b), ("u", low)):
        if len(shape) < 2:
            raise ValueError(f"{label} should have at least 2 dimensions, but has {len(shape)} dimensions instead")
    if low[-1] != low[-2]:
        raise ValueError(f"A must be batches of square matrices, but they are {low[-2]} by {low[-1]} matrices")
    if b[-2] != low[-1]:
        raise ValueError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {low[-2]} by {low[-1]} but "
                         f"each b matrix is {b[-2]} by {b[-1]}")
    return (*np.broadcast_shapes(b[:-2], low[:-2]), *b[-2:])


def _cholesky_solved(low: Any, b: Any, upper: bool) -> Any:
    """(L L^T)^-1 B, or (U^T U)^-1 B: two triangular solves."""
    factor = _mT(low) if upper else low
    return _triangular(_mT(factor), _triangular(factor, b, lower=True), lower=False)


def _cholesky_solve(b: Array, low: Array, ranks: tuple[int, ...], upper: bool = False) -> Array:
    _cholesky_solve_shape(_point_shape(b, ranks[0]), _point_shape(low, ranks[1]), upper)
    lb, ll = _lined_up(b, low, ranks)
    return _cholesky_solved(ll, lb, upper)


def _cholesky_solve_vjp(g: Any, ans: Any, b: Any, low: Any, ranks: tuple[int, ...], upper: bool = False
                        ) -> tuple[Any, Any]:
    # PyTorch's cholesky_solve_backward: gB = A^-1 gX; S = gB X^T + X gB^T; gL = -S L (-U S where `upper`)
    lb, ll = _lined_up(b, low, ranks)
    gb = _cholesky_solved(ll, g, upper)
    common = gb @ _mT(ans)
    common = common + _mT(common)
    return _back(gb, lb, b), _back(-(ll @ common) if upper else -(common @ ll), ll, low)


def _cholesky_solve_jvp(tangents: Sequence[Any], ans: Array, b: Array, low: Array, ranks: tuple[int, ...],
                        upper: bool = False) -> Array:
    # X = A^-1 B, A = L L^T: dX = A^-1 (dB - dA X), dA = dL L^T + L dL^T
    tb, tl = tangents
    _, ll = _lined_up(b, low, ranks)
    rhs: Any = np.zeros(np.shape(ans)) if tb is None else np.broadcast_to(_lined_up(np.asarray(tb), low, ranks)[0],
                                                                          np.shape(ans))
    if tl is not None:
        dl = _lined_up(b, np.asarray(tl), ranks)[1]
        da = _mT(dl) @ ll + _mT(ll) @ dl if upper else dl @ _mT(ll) + ll @ _mT(dl)
        rhs = rhs - da @ ans
    return _cholesky_solved(ll, np.broadcast_to(rhs, np.shape(ans)), upper)


def _cholesky_inverse(low: Array, ranks: tuple[int, ...], upper: bool = False) -> Array:
    _square("cholesky_inverse")(_point_shape(low, ranks[0]))
    n = np.shape(low)[-1]
    zeros = np.diagonal(_primal(low), axis1=-2, axis2=-1) == 0
    if np.any(zeros):  # (LAPACK's potri: the first zero on the factor's diagonal, 1-based; NaN is let through)
        bad = np.any(zeros, axis=-1)
        element = int(np.argmax(np.reshape(zeros, (-1, n))[np.argmax(np.reshape(bad, -1))])) + 1
        where = batch_element(low, bad) if np.ndim(low) == ranks[0] else ""
        raise LinAlgError(f"cholesky_inverse: {where}The diagonal element {element} is zero, the inversion could not be "
                          "completed because the input matrix is singular.")
    return _cholesky_solved(low, np.broadcast_to(np.eye(n), np.shape(low)), upper)


def _cholesky_inverse_vjp(g: Any, ans: Any, low: Any, ranks: tuple[int, ...], upper: bool = False) -> tuple[Any]:
    # PyTorch's: S = P (g + g^T) P, gL = -S L (-U S where `upper`), P = (L L^T)^-1
    common = ans @ ((g + _mT(g)) @ ans)
    return (-(low @ common) if upper else -(common @ low),)


def _cholesky_inverse_jvp(tangents: Sequence[Any], ans: Array, low: Array, ranks: tuple[int, ...],
                          upper: bool = False) -> Array:
    (t,) = tangents
    if t is None:
        return np.zeros(np.shape(ans))
    da = _mT(t) @ low + _mT(low) @ t if upper else t @ _mT(low) + low @ _mT(t)
    return -(ans @ da @ ans)


# --- matrix_exp: scaling and squaring of a Pade approximant; its derivatives by a block matrix ---------

# Higham's degree-13 Pade approximant (Higham 2005, "The scaling and squaring method for the matrix
# exponential revisited"): its coefficients and the norm up to which it needs no scaling.
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152
# PyTorch scales by 2^s until the 1-norm is at most its degree-18 Taylor bound (aten's mexp_impl; Bader, Blanes and
# Casas 2019) and squares s times: with the same s, where the squarings overflow, their infinities and NaNs are its
_THETA18 = 1.090863719290036


def _expm(a: Array) -> Array:
    """e^A of each matrix (NaN where A holds NaN or an infinity)."""
    n = a.shape[-1]
    if a.size == 0:
        return np.zeros(a.shape)
    with np.errstate(all="ignore"):
        norm = np.max(np.sum(np.abs(a), axis=-2), axis=-1)  # the 1-norm of each matrix
        finite = np.isfinite(norm)
        steps = np.where(finite & (norm > _THETA18), np.ceil(np.log2(np.where(finite, norm, 1.0) / _THETA18)), 0.0)
        steps = steps.astype(int)
        scaled = np.where(finite[..., None, None], a, 0.0) / (2.0 ** steps)[..., None, None]
        eye = np.broadcast_to(np.eye(n), scaled.shape)
        a2 = scaled @ scaled
        a4 = a2 @ a2
        a6 = a4 @ a2
        b = _PADE13
        u = scaled @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
        v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
        result = np.linalg.solve(v - u, v + u)
        for k in range(int(np.max(steps, initial=0))):
            result = np.where((steps > k)[..., None, None], result @ result, result)
        return np.where(finite[..., None, None], result, np.nan)  # (A holding NaN or an infinity: NaN throughout)


def _expm_block(a: Array, d: Array) -> Array:
    """The derivative of e^A along D: the upper right block of e^[[A, D], [0, A]]."""
    n = a.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], d.shape[:-2])
    block = np.zeros((*batch, 2 * n, 2 * n))
    block[..., :n, :n] = a
    block[..., n:, n:] = a
    block[..., :n, n:] = d
    return _expm(block)[..., :n, n:]


def _expm_of(a: Any) -> Any:
    """e^A; of a dual matrix (the Hessian), a dual number whose tangent is the derivative along A's."""
    return _factored(a, lambda m: (_expm(m),), lambda t, value: (_expm_block(a.primal, t),))[0]


def _matrix_exp(a: Array, ranks: tuple[int, ...]) -> Array:
    _square("linalg.matrix_exp")(_point_shape(a, ranks[0]))
    return _expm(np.asarray(a, dtype=float))


def _matrix_exp_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...]) -> tuple[Any]:
    # PyTorch's linalg_matrix_exp_differential(A, g, adjoint=True): the upper right block of e^[[A^T, g], [0, A^T]]
    if np.size(a) == 0:
        return (np.zeros(np.shape(a)),)
    if _is_dual(a) or _is_dual(g):
        return (_dual_expm_block(_mT(a), g),)
    return (_expm_block(_mT(a), g),)


def _dual_expm_block(a: Any, g: Any) -> Any:
    from gradcli.dual import Dual

    n = np.shape(a)[-1]
    pa, pg = _primal(a), _primal(g)
    ta = np.zeros(np.shape(pa)) if _tangent(a) is None else np.asarray(_tangent(a))
    tg = np.zeros(np.shape(pg)) if _tangent(g) is None else np.asarray(_tangent(g))
    batch = np.broadcast_shapes(np.shape(pa)[:-2], np.shape(pg)[:-2])
    block, tangent = np.zeros((*batch, 2 * n, 2 * n)), np.zeros((*batch, 2 * n, 2 * n))
    block[..., :n, :n] = block[..., n:, n:] = pa
    block[..., :n, n:] = pg
    tangent[..., :n, :n] = tangent[..., n:, n:] = ta
    tangent[..., :n, n:] = tg
    return Dual(_expm(block)[..., :n, n:], _expm_block(block, tangent)[..., :n, n:])


def _matrix_exp_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...]) -> Array:
    (t,) = tangents
    if t is None or np.size(a) == 0:
        return np.zeros(np.shape(ans))
    return _expm_block(a, np.broadcast_to(t, np.shape(a)))


# --- pinv: the pseudo-inverse by the SVD (or by eigh, where hermitian) ----------------------------------


def _pinv(a: Array, ranks: tuple[int, ...], rtol: Any = None, atol: Any = None, hermitian: bool = False,
          rcond: Any = None) -> Array:
    _matrices("linalg.pinv", _point_shape(a, ranks[0]))
    m, n = np.shape(a)[-2:]
    if np.size(a) == 0:
        return np.zeros((*np.shape(a)[:-2], n, m))
    if rcond is not None:  # torch.pinverse(a, rcond): rtol
        rtol = rcond
    if hermitian:
        values, vectors = np.linalg.eigh(a)
        size = np.abs(values)
    else:
        u, values, vh = _lapack_svd(a, full_matrices=False)
        size = values
    largest = np.max(size, axis=-1, keepdims=True)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(float).eps * max(m, n)
    tolerance = np.maximum(0.0 if atol is None else atol, rtol * largest)
    with np.errstate(divide="ignore"):
        inverse = np.where(size > tolerance, 1.0 / values, 0.0)
    if hermitian:
        return np.asarray((vectors * inverse[..., None, :]) @ _mT(vectors))
    return np.asarray((_mT(vh) * inverse[..., None, :]) @ _mT(u))


def _pinv_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], **_: Any) -> tuple[Any]:
    # PyTorch's pinv_backward
    m, n = np.shape(a)[-2:]
    p, ph, gh = ans, _mT(ans), _mT(g)
    if m <= n:
        k = gh @ p
        kph = k @ ph
        return (-_mT(p @ k) + kph - (a @ p) @ kph + (ph @ p) @ (gh - k @ a),)
    k = p @ gh
    phk = ph @ k
    return (-_mT(k @ p) + (gh - a @ k) @ p @ ph + phk - phk @ p @ a,)


def _pinv_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], **_: Any) -> Array:
    (t,) = tangents
    if t is None:
        return np.zeros(np.shape(ans))
    p = ans
    m, n = np.shape(a)[-2:]
    return (-(p @ t @ p) + (p @ _mT(p)) @ _mT(t) @ (np.eye(m) - a @ p)
            + (np.eye(n) - p @ a) @ _mT(t) @ (_mT(p) @ p))


def _pinv_shape(a: Shape, **_: Any) -> Shape:
    _matrices("linalg.pinv", a)
    return (*a[:-2], a[-1], a[-2])


# --- matrix_power: PyTorch's products (a program of mm, inv, clone) ------------------------------------


def _eye_copy(a: Array, source: Any, ranks: tuple[int, ...]) -> Array:
    # a.copy_(I): PyTorch's CopyBackwards over the clone, the identity (a constant, no input) its source; I of
    # a's last two axes (the source, a number, only stands for it)
    return np.broadcast_to(np.eye(np.shape(a)[-1]), np.shape(a)).copy()


def _matrix_power_program(emit: Any, a: Any, n: int = 0) -> Any:
    # PyTorch's linalg_matrix_power: I (a copy into a clone) for 0; inv first for n < 0; a clone for 1;
    # then the binary powers of A, multiplied from the lowest bit up
    if n == 0:
        return emit("eye_copy", emit("clone", a), 1.0)
    if n < 0:
        a, n = emit("inv", a), -n
    if n == 1:
        return emit("clone", a)
    if n == 2:
        return emit("matmul", a, a)
    if n == 3:
        return emit("matmul", emit("matmul", a, a), a)
    power, result = None, None
    while n > 0:
        bit, n = n % 2, n // 2
        power = a if power is None else emit("matmul", power, power)
        if bit:
            result = power if result is None else emit("matmul", result, power)
    return result


def _matrix_power_shape(a: Shape, n: int = 0) -> Shape:
    _square("linalg.matrix_power")(a)
    return a


_LINALG = {op.name: op for op in linalg.ROWS}
_SQUARE: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((2, 2),), {}), (((3, 3),), {}), (((2, 2, 2),), {}))
_UPPER = Param("upper", "bool", None)


def _requires(name: str) -> tuple[Dialect, ...]:
    """A param every spelling must give (PyTorch's parser: a TypeError without it)."""
    return tuple(Dialect(family, required=(name,)) for family in ("", "torch", "linalg", "method", "numpy"))


ROWS += [
    _with_info(_LINALG["inv"], "inv_ex", "LinalgInvExBackward0", 1, ("inverse", "info")),
    _with_info(_LINALG["solve"], "solve_ex", "LinalgSolveExBackward0", 2, ("result", "info")),
    structural("solve_triangular", 2, _solve_triangular, _solve_triangular_vjp, "LinalgSolveTriangularBackward0",
               jvp=_solve_triangular_jvp, shape=_solve_triangular_shape,
               shape_message=_refused("linalg.solve_triangular", _solve_triangular_shape),
               params=(_UPPER, Param("left", "bool", True), Param("unitriangular", "bool", False)),
               text=_call_text("torch.linalg.solve_triangular", {"left": True, "unitriangular": False}),
               dialects=_requires("upper"),
               examples=((((2, 2), (2, 3)), {"upper": True}), (((3, 3), (3, 1)), {"upper": False}),
                         (((2, 2), (3, 2)), {"upper": True, "left": False}),
                         (((2, 2, 2), (2, 2)), {"upper": False, "unitriangular": True})),
               domain=((0.5, 2.0), (-2.0, 2.0)),
               reference="torch.linalg.solve_triangular(a, b, upper=True)",
               reference_program="torch.linalg.solve_triangular(a, b, upper=True)",
               dtype_refusals=kernel_refusal("triangular_solve_cpu"), dtype="first"),
    structural("triangular_solve", 2, _triangular_solve_forward, _triangular_solve_vjp, "TriangularSolveBackward0",
               jvp=_triangular_solve_jvp, shape=_triangular_solve_shape,
               shape_message=_refused("triangular_solve", _triangular_solve_shape), parts=2,
               fields=("solution", "cloned_coefficient"),
               params=(Param("upper", "bool", True), Param("transpose", "bool", False),
                       Param("unitriangular", "bool", False)),
               text=_parts_text("torch.triangular_solve", {"upper": True, "transpose": False, "unitriangular": False}),
               examples=((((2, 3), (2, 2)), {"part": 0}), (((3, 1), (3, 3)), {"upper": False, "part": 0}),
                         (((2, 2), (2, 2)), {"transpose": True, "part": 0}), (((2, 2), (2, 2)), {"part": 1})),
               domain=((-2.0, 2.0), (0.5, 2.0)), methods=("triangular_solve",),
               reference="torch.triangular_solve(a, b)[0]", reference_program="torch.triangular_solve(a, b)[0]",
               dtype_refusals=(("mixed", "RuntimeError", "Expected b and A to have the same dtype, but found b of type {0} and A of type {1} instead."),), inputs=('input', 'A')),
    structural("cholesky_solve", 2, _cholesky_solve, _cholesky_solve_vjp, "CholeskySolveBackward0",
               jvp=_cholesky_solve_jvp, shape=_cholesky_solve_shape,
               shape_message=_refused("cholesky_solve", _cholesky_solve_shape), params=(Param("upper", "bool", False),),
               # (L's other triangle is not read, but PyTorch's gradient fills it: 1x1 factors here, larger ones in
               # tests/test_decompositions.py)
               examples=((((1, 3), (1, 1)), {}), (((1, 1), (2, 1, 1)), {"upper": True}), (((2, 1, 2), (1, 1)), {})),
               domain=((-2.0, 2.0), (0.5, 2.0)), methods=("cholesky_solve",),
               dtype_refusals=(("mixed", "RuntimeError", "Expected b and A to have the same dtype, but found b of type {0} and A of type {1} instead."),), inputs=('input', 'input2')),
    structural("cholesky_inverse", 1, _cholesky_inverse, _cholesky_inverse_vjp, "CholeskyInverseBackward0",
               jvp=_cholesky_inverse_jvp, shape=_square("cholesky_inverse"),
               shape_message=_refused("cholesky_inverse", _square("cholesky_inverse")),
               params=(Param("upper", "bool", False),), examples=((((1, 1),), {}), (((2, 1, 1),), {"upper": True})),
               domain=((0.5, 2.0),), methods=("cholesky_inverse",),
               dtype_refusals=kernel_refusal("cholesky_inverse_out_cpu")),  # (1x1: as cholesky_solve's)
    structural("matrix_exp", 1, _matrix_exp, _matrix_exp_vjp, "LinalgMatrixExpBackward0", jvp=_matrix_exp_jvp,
               shape=_square("linalg.matrix_exp"), shape_message=_refused("matrix_exp", _square("linalg.matrix_exp")),
               examples=_SQUARE, methods=("matrix_exp",), dtype_refusals=float_input("linalg.matrix_exp")),
    structural("pinv", 1, _pinv, _pinv_vjp, "LinalgPinvBackward0", jvp=_pinv_jvp, shape=_pinv_shape,
               shape_message=_refused("linalg.pinv", _pinv_shape),
               params=(Param("rtol", "float", None), Param("atol", "float", None), Param("hermitian", "bool", False),
                       Param("rcond", "float", None)),
               dialects=(Dialect("linalg", order=("rtol", "hermitian"), refuses=("rcond",)),
                         Dialect("torch", order=("rcond",), refuses=("rtol", "atol", "hermitian")),
                         Dialect("method", order=("rcond",), refuses=("rtol", "atol", "hermitian")),
                         Dialect("numpy", order=("rcond", "hermitian"), refuses=("rtol", "atol"))),
               spellings=("pinverse",), methods=("pinverse",), text=_call_text("torch.linalg.pinv", {}),
               examples=_GENERAL, reference="torch.linalg.pinv(a)", reference_program="torch.linalg.pinv(a)",
               dtype_refusals=(("integer or vector", "RuntimeError", "linalg.pinv({0}{{{shape0}}}): expected a tensor with 2 or more "
                                "dimensions of float, double, cfloat or cdouble types"),)),
    structural("eye_copy", 2, _eye_copy, lambda g, ans, a, source, ranks: (np.zeros(np.shape(a)), None),
               "CopyBackwards", jvp=lambda tangents, ans, a, source, ranks: np.zeros(np.shape(ans)),
               shape=lambda a, source: a, callable=False, reference=None,
               text=lambda args: f"I copied into {args[0]}", examples=((((2, 2), ()), {}),)),
    composite("matrix_power", 1, _matrix_power_program, "MmBackward0", sympy=None, shape=_matrix_power_shape,
              shape_message=_refused("linalg.matrix_power", _matrix_power_shape), params=(Param("n", "int", None),),
              text=_call_text("torch.linalg.matrix_power", {}), methods=("matrix_power",), dialects=_requires("n"),
              examples=(*((((2, 2),), {"n": n}) for n in (3, 0, 1, 2, 5, 6, -1, -2)), (((2, 3, 3),), {"n": 4})),
              reference="torch.linalg.matrix_power(a, 3)", reference_program="torch.linalg.matrix_power(a, 3)"),
]


# --- matrix_norm, cond: programs of norm, svdvals, amax, amin, as PyTorch's ---------------------------


def _matrix_dims(dim: Any, rank: int) -> tuple[int, int]:
    if not isinstance(dim, tuple) or len(dim) != 2:
        raise ValueError("linalg.matrix_norm: dim must be a 2-tuple of ints")
    first, second = (d + rank if d < 0 else d for d in dim)
    if not (0 <= first < rank and 0 <= second < rank) or first == second:
        raise ValueError(f"linalg.matrix_norm: dims must be different and in range, got {dim}")
    return first, second


def _matrix_norm_program(emit: Any, a: Any, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False) -> Any:
    if ord == "fro":
        return emit("norm", a, p=2.0, dim=dim, keepdim=keepdim)
    shape = emit.shape(a)
    if shape is None:  # (a tape for every point: the graph depends on the rank)
        placeholder = emit("norm", a, p=2.0, dim=dim, keepdim=keepdim)  # (its shape; its value is refused)
        return emit("needs_shape", placeholder, what="linalg.matrix_norm with an ord other than 'fro'")
    first, second = _matrix_dims(dim, len(shape))
    rank = len(shape)
    if not isinstance(ord, str) and abs(ord) == np.inf:  # (the largest (smallest) row sum; 1: column sum)
        first, second = second, first
    if ord in (1.0, np.inf, 2.0) and 0 in ((shape[first], shape[second]) if ord == 2.0 else (shape[second],)):
        # (a largest of none: PyTorch's zeros, of no graph; the smallest of none raises as amin does)
        return emit("zeros_like", emit("sum", a, dim=(first, second), keepdim=keepdim))
    if ord in ("nuc", 2.0, -2.0):  # the singular values of the matrices moved to the last two dims
        order = [d for d in range(rank) if d not in (first, second)] + [first, second]
        values = emit("svdvals", emit("permute", a, dims=tuple(order)))
        result = emit("sum" if ord == "nuc" else "amax" if ord == 2.0 else "amin", values, dim=-1, keepdim=keepdim)
        if not keepdim:
            return result
        return emit("permute", emit("unsqueeze", result, dim=-1), dims=tuple(int(i) for i in np.argsort(order)))
    if ord not in (1.0, -1.0, np.inf, -np.inf):
        raise ValueError(f"linalg.matrix_norm: Order {ord} not supported.")
    if not keepdim and first < second:
        second -= 1
    sums = emit("norm", a, p=1.0, dim=first, keepdim=keepdim)
    return emit("amax" if ord > 0 else "amin", sums, dim=second, keepdim=keepdim)


def _matrix_norm_shape(a: Shape, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False) -> Shape:
    if len(a) < 2:
        raise ValueError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    first, second = _matrix_dims(dim, len(a))
    if ord != "fro" and ord not in ("nuc", 1.0, -1.0, 2.0, -2.0, np.inf, -np.inf):
        raise ValueError(f"linalg.matrix_norm: Order {ord} not supported.")
    if keepdim:
        return tuple(1 if i in (first, second) else s for i, s in enumerate(a))
    return tuple(s for i, s in enumerate(a) if i not in (first, second))


def _linalg_norm_dims(a: Shape, ord: Any, dim: Any) -> tuple[int, ...] | None:
    """The dims torch.linalg.norm (np.linalg.norm) takes a matrix norm over, None for a vector norm: a 2-D input
    with an ord and no dim, or two dims (with an ord)."""
    dims = (dim,) if isinstance(dim, int) else dim
    if dims is None and ord is not None:
        if len(a) not in (1, 2):
            raise ValueError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                             f"Got {len(a)}D.")
        return (-2, -1) if len(a) == 2 else None
    if ord is not None and dims is not None and len(dims) == 2:
        return tuple(dims)
    return None


def _linalg_norm_program(emit: Any, a: Any, ord: Any = None, dim: Any = None, keepdim: bool = False) -> Any:
    # PyTorch's linalg_norm: linalg_matrix_norm where _linalg_norm_dims says, else linalg_vector_norm (ord None: 2)
    if ord is None or (ord == "fro" and dim is None):  # (the 2-norm of every entry: the same node either way)
        return emit("norm", a, p=2.0, dim=dim, keepdim=keepdim)
    shape = emit.shape(a)
    if shape is None and dim is None:  # (a tape for every point: the graph depends on the rank)
        placeholder = emit("norm", a, p=2.0, keepdim=keepdim)
        return emit("needs_shape", placeholder, what="linalg.norm with an ord and no dim")
    dims = _linalg_norm_dims(shape if shape is not None else (0,) * 2, ord, dim)
    if dims is not None:
        return emit("matrix_norm", a, ord=ord, dim=dims, keepdim=keepdim)
    if isinstance(ord, str):
        raise ValueError(f"linalg.vector_norm: ord '{ord}' is a matrix norm: give two dims")
    return emit("norm", a, p=ord, dim=dim, keepdim=keepdim)


def _linalg_norm_shape(a: Shape, ord: Any = None, dim: Any = None, keepdim: bool = False) -> Shape:
    dims = None if ord is None else _linalg_norm_dims(a, ord, dim)
    if dims is not None:
        return _matrix_norm_shape(a, ord, dims, keepdim)
    from gradcli.ops.reductions import _norm_shape

    return _norm_shape(a, 2.0 if ord is None or ord == "fro" else ord, dim, keepdim)


def _cond_program(emit: Any, a: Any, p: Any = None) -> Any:
    # PyTorch's linalg_cond for p = None, 2, -2: the ratio of the largest and smallest singular values
    if p not in (None, 2.0, -2.0):
        raise ValueError("linalg.cond: gradcli takes p = None, 2 or -2 (the singular values' ratio)")
    shape = emit.shape(a)
    if shape is not None and 0 in shape[-2:]:  # a matrix of no entries: PyTorch's zeros, of no graph
        return emit("zeros_like", emit("sum", a, dim=(-2, -1)))
    values = emit("svdvals", a)
    largest, smallest = emit("narrow", values, dim=-1, start=0, length=1), emit("narrow", values, dim=-1, start=-1, length=1)
    ratio = emit("div", largest, smallest) if p != -2.0 else emit("div", smallest, largest)
    return emit("squeeze", ratio, dim=-1)


def _cond_shape(a: Shape, p: Any = None) -> Shape:
    if len(a) < 2:  # (linalg.cond's own words: not "tensor A" as the other linalg functions say)
        raise ValueError("linalg.cond: The input tensor must have at least 2 dimensions.")
    _matrices("linalg.cond", a)
    if p not in (None, 2.0, -2.0):
        raise ValueError("linalg.cond: gradcli takes p = None, 2 or -2 (the singular values' ratio)")
    return a[:-2]


def _placeholder(x: Array, ranks: tuple[int, ...], what: str = "") -> Array:
    """Where a composite's graph depends on a shape: the first tape of a point (built again with the point's
    shapes, which holds no placeholder) computes it; a tape for many points (a batch axis in front) refuses."""
    if np.ndim(x) > ranks[0]:
        _needs_shape(np.shape(x), what)
    return x


def _needs_shape(x: Shape, what: str = "") -> Shape:
    raise ValueError(f"{what} is recorded by PyTorch as a graph that depends on its input's rank: gradcli builds it "
                     "at one point (grad), not on a tape for many points (--points)")


ROWS += [
    # where a composite's graph depends on a shape that a tape for many points does not know
    structural("needs_shape", 1, _placeholder,
               lambda g, ans, x, ranks, what="": (None,), "None", shape=lambda x, what="": x, callable=False,
               reference=None,
               params=(Param("what", "str", ""),), shape_message=lambda label, shapes: "not on a tape for many points",
               examples=()),
    composite("matrix_norm", 1, _matrix_norm_program, "LinalgVectorNormBackward0", sympy=None, shape=_matrix_norm_shape,
              shape_message=_refused("linalg.matrix_norm", _matrix_norm_shape),
              params=(Param("ord", "float", "fro", aliases=("p",), choices=("fro", "nuc")),
                      Param("dim", "ints", (-2, -1)), Param("keepdim", "bool", False)),
              text=_call_text("torch.linalg.matrix_norm", {"ord": "fro", "dim": (-2, -1), "keepdim": False}),
              examples=((((2, 3),), {}), (((2, 3),), {"ord": "nuc"}), (((3, 2),), {"ord": 2.0}),
                        (((2, 2, 3),), {"ord": -2.0, "keepdim": True}), (((2, 3),), {"ord": 1.0}),
                        (((2, 3, 2),), {"ord": np.inf, "dim": (0, 2)}), (((2, 3),), {"ord": -1.0, "keepdim": True}),
                        (((2, 3, 2),), {"ord": "nuc", "dim": (2, 0), "keepdim": True})),
              kinked=True, reference="torch.linalg.matrix_norm(a, 'nuc')",
              reference_program="torch.linalg.matrix_norm(a, 'nuc')", dtype_refusals=float_input("linalg.matrix_norm")),
    # torch.linalg.norm and np.linalg.norm (the norm row's dialects): a matrix norm of a matrix given an ord
    composite("linalg_norm", 1, _linalg_norm_program, "LinalgVectorNormBackward0", sympy=None, shape=_linalg_norm_shape,
              shape_message=_refused("linalg.norm", _linalg_norm_shape), callable=False, kinked=True,
              params=(Param("ord", "float", None, aliases=("p",), choices=("fro", "nuc")),
                      Param("dim", "dims", None, aliases=("axis",)), Param("keepdim", "bool", False, aliases=("keepdims",))),
              text=_call_text("torch.linalg.norm", {"ord": None, "dim": None, "keepdim": False}),
              examples=((((2, 3),), {"ord": 1.0}), (((2, 3),), {"ord": np.inf, "keepdim": True}), (((4,),), {}),
                        (((2, 3),), {"ord": 3.0, "dim": 1}), (((2, 3),), {"ord": "nuc"}), (((2, 3),), {"ord": -1.0})),
              reference="torch.linalg.norm(a, 1)", reference_program="torch.linalg.norm(a, 1)"),
    composite("cond", 1, _cond_program, "SqueezeBackward1", sympy=None, shape=_cond_shape,
              shape_message=_refused("linalg.cond", _cond_shape), params=(Param("p", "float", None),),
              text=_call_text("torch.linalg.cond", {"p": None}),
              examples=((((2, 2),), {}), (((3, 2),), {"p": -2.0}), (((2, 3, 3),), {"p": 2.0})),
              reference="torch.linalg.cond(a)", reference_program="torch.linalg.cond(a)",
              dtype_refusals=float_input("linalg.svd")),
]
