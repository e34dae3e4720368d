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

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradcli.ops.core import Array, Dialect, Param, Shape, structural

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
        if len(a) < 2 or a[-1] != a[-2]:
            what = f"{'x'.join(map(str, a[-2:]))} matrices" if len(a) >= 2 else f"{len(a)}-D"
            raise ValueError(f"{name}: A must be batches of square matrices, but they are {what}")
        return a

    return shape


def _matrices(name: str, a: Shape) -> None:
    if len(a) < 2:
        raise ValueError(f"{name}: The input tensor A must have at least 2 dimensions.")


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
    order = int(np.max(_cholesky_info(a)))
    return (f"{name}: The factorization could not be completed because the input is not positive-definite "
            f"(the leading minor of order {order} is not positive-definite).")


def _cholesky_info(a: Array) -> Array:
    """LAPACK's info per matrix: 0, or the order of the first leading minor that is not positive-definite."""
    flat = np.reshape(a, (-1, *np.shape(a)[-2:]))
    info = np.zeros(len(flat))
    for k, m in enumerate(flat):
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
            return np.asarray(np.linalg.cholesky(a))
    except np.linalg.LinAlgError:
        if partial:
            return _potf2(a)
        raise ValueError(_not_positive_definite(name, a)) from None


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


def _cholesky_row(name: str, node: str, spelled: str, parts: int = 0, **fields: Any) -> Any:
    square = _square(spelled)

    def forward(a: Array, ranks: tuple[int, ...], upper: bool = False, part: int = 0, of: Any = None) -> Array:
        square(_point_shape(a, ranks[0]))
        if part % 2:  # cholesky_ex's info: 0, or the order of the first leading minor that is not positive-definite
            return _cholesky_info(a)
        low = _cholesky_factor(a, spelled, partial=parts > 0)
        return _mT(low) if upper else low

    def vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], upper: bool = False, part: int = 0,
            of: Any = None) -> tuple[Any]:
        if part % 2:
            return (None,)
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

    extra: dict[str, Any] = {"parts": parts, "fields": ("L", "info"), "integer_parts": (1,)} if parts else {}
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
    u, s, vh = np.linalg.svd(a, full_matrices=full)
    return np.asarray(u), np.asarray(s), np.asarray(vh)


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


def _torch_svd(rule: Callable[..., Any]) -> Callable[..., Any]:
    """torch.svd(a, some=True): U, S and V = Vh^T (reduced where `some`)."""
    def apply(*args: Any, some: bool = True, compute_uv: bool = True, part: int = 0, of: Any = None, **given: Any) -> Any:
        if not compute_uv and part % 3 != 1:
            raise ValueError("torch.svd with compute_uv=False gives U and V of zeros; gradcli gives no zeros for "
                             "them: use torch.linalg.svdvals")
        return rule(*args, full_matrices=not some, part=part, **given)

    return apply


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
    return np.asarray(np.linalg.svd(a, compute_uv=False))


def _svdvals_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...]) -> tuple[Any]:
    return _svd_vjp(g, ans, a, ranks, False, 1)


def _svdvals_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...]) -> Array:
    return _svd_jvp(tangents, ans, a, ranks, False, 1)


def _svd_vjp_torch(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], some: bool = True, compute_uv: bool = True,
                   part: int = 0, of: Any = None) -> tuple[Any]:
    return _svd_vjp(_mT(g) if part % 3 == 2 else g, ans, a, ranks, not some, part)


def _svd_forward_torch(a: Array, ranks: tuple[int, ...], some: bool = True, compute_uv: bool = True, part: int = 0,
                       of: Any = None) -> Array:
    out = _svd_forward(a, ranks, not some, part)
    return _mT(out) if part % 3 == 2 else out


def _svd_jvp_torch(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], some: bool = True,
                   compute_uv: bool = True, part: int = 0, of: Any = None) -> Array:
    out = _svd_jvp(tangents, ans, a, ranks, not some, part)
    return _mT(out) if part % 3 == 2 else out


def _svd_shape_torch(a: Shape, some: bool = True, compute_uv: bool = True, part: int = 0, of: Any = None) -> Shape:
    out = _svd_shape(a, not some, part)
    return (*out[:-2], out[-1], out[-2]) if part % 3 == 2 else out


def _parts_text(call: str, defaults: dict[str, Any]) -> Callable[..., str]:
    def text(args: Sequence[str], part: int = 0, of: Any = None, **params: Any) -> str:
        said = "".join(f", {k}={v!r}" for k, v in params.items() if defaults.get(k, v) != v)
        return f"{call}({args[0]}{said})[{part}]"

    return text


def _call_text(call: str, defaults: dict[str, Any]) -> Callable[..., str]:
    def text(args: Sequence[str], **params: Any) -> str:
        said = "".join(f", {k}={v!r}" for k, v in params.items() if defaults.get(k, v) != v)
        return f"{call}({', '.join(args)}{said})"

    return text


_UPLO = Param("UPLO", "str", "L", choices=("L", "U", "l", "u"))
_GENERAL: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((2, 2),), {}), (((3, 2),), {}), (((2, 3),), {}), (((2, 3, 3),), {}))
_SYMMETRIC: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((1, 1),), {}), (((2, 1, 1),), {}))  # (one triangle is read: larger ones in tests/test_decompositions.py)


def _with_part(examples: Any, part: int = 0) -> Any:
    return tuple((shapes, {**params, "part": part}) for shapes, params in examples)


ROWS = [
    _cholesky_row("cholesky", "CholeskyBackward0", "cholesky", methods=("cholesky",),
                  dialects=(Dialect("linalg", row="linalg_cholesky"),),
                  reference="torch.cholesky(a)"),
    _cholesky_row("linalg_cholesky", "LinalgCholeskyExBackward0", "linalg.cholesky", callable=False,
                  text=_call_text("torch.linalg.cholesky", {"upper": False}), reference="torch.linalg.cholesky(a)",
                  reference_program="torch.linalg.cholesky(a)"),
    _cholesky_row("cholesky_ex", "LinalgCholeskyExBackward0", "linalg.cholesky_ex", parts=2,
                  text=_parts_text("torch.linalg.cholesky_ex", {"upper": False}),
                  reference="torch.linalg.cholesky_ex(a)[0]", reference_program="torch.linalg.cholesky_ex(a)[0]"),
    structural("qr", 1, _qr_forward, _qr_vjp, "LinalgQrBackward0", jvp=_qr_jvp, shape=_qr_shape, text=_qr_text,
               shape_message=_refused("linalg.qr", _qr_shape), parts=2, fields=("Q", "R"),
               params=(Param("mode", "str", "reduced", choices=_MODES), Param("some", "bool", None)),
               dialects=(Dialect("torch", order=("some",), refuses=("mode",)),
                         Dialect("method", order=("some",), refuses=("mode",)),
                         Dialect("linalg", order=("mode",), refuses=("some",)),
                         Dialect("numpy", order=("mode",), refuses=("some",))),
               methods=("qr",), examples=_with_part(_GENERAL) + _with_part(_GENERAL[:2], 1),
               reference="torch.linalg.qr(a)[0]", reference_program="torch.linalg.qr(a)[0]"),
    structural("eigh", 1, _eigh_forward, _eigh_vjp, "LinalgEighBackward0", jvp=_eigh_jvp, shape=_eigh_shape,
               text=_parts_text("torch.linalg.eigh", {"UPLO": "L"}), shape_message=_refused("linalg.eigh", _eigh_shape),
               parts=2, fields=("eigenvalues", "eigenvectors"), params=(_UPLO,),
               examples=_with_part(_SYMMETRIC) + _with_part(_SYMMETRIC, 1),
               reference="torch.linalg.eigh(a)[0]", reference_program="torch.linalg.eigh(a)[0]"),
    structural("eigvalsh", 1, _eigvalsh_forward, _eigvalsh_vjp, "LinalgEighBackward0", jvp=_eigvalsh_jvp,
               shape=lambda a, UPLO="L": _eigh_shape(a), shape_message=_refused("linalg.eigvalsh", _eigh_shape),
               params=(_UPLO,), examples=_SYMMETRIC, reference="torch.linalg.eigvalsh(a)",
               text=_call_text("torch.linalg.eigvalsh", {"UPLO": "L"}), reference_program="torch.linalg.eigvalsh(a)"),
    structural("svd", 1, _svd_forward_torch, _svd_vjp_torch, "LinalgSvdBackward0", jvp=_svd_jvp_torch,
               shape=_svd_shape_torch, shape_message=_refused("svd", _svd_shape_torch), parts=3,
               fields=("U", "S", "V"), params=(Param("some", "bool", True), Param("compute_uv", "bool", True)),
               text=_parts_text("torch.svd", {"some": True, "compute_uv": True}), methods=("svd",),
               dialects=(Dialect("linalg", row="linalg_svd"), Dialect("numpy", row="linalg_svd")),
               examples=_with_part(_GENERAL[:1]) + _with_part(_GENERAL[1:2], 1) + _with_part(_GENERAL[2:3], 2),
               reference="torch.svd(a)[1]", reference_program="torch.svd(a)[1]"),
    structural("linalg_svd", 1, _svd_forward, _svd_vjp, "LinalgSvdBackward0", jvp=_svd_jvp, shape=_svd_shape,
               shape_message=_refused("linalg.svd", _svd_shape), parts=3, fields=("U", "S", "Vh"), callable=False,
               params=(Param("full_matrices", "bool", True),), text=_parts_text("torch.linalg.svd", {"full_matrices": True}),
               examples=_with_part(_GENERAL[:1]) + _with_part(_GENERAL[1:2], 1) + _with_part(_GENERAL[:1], 2),
               reference="torch.linalg.svd(a)[1]", reference_program="torch.linalg.svd(a)[1]"),
    structural("svdvals", 1, _svdvals_forward, _svdvals_vjp, "LinalgSvdBackward0", jvp=_svdvals_jvp,
               shape=lambda a: _svd_shape(a, False, 1), shape_message=_refused("linalg.svdvals", _svd_shape),
               text=_call_text("torch.linalg.svdvals", {}), examples=_GENERAL,
               reference="torch.linalg.svdvals(a)", reference_program="torch.linalg.svdvals(a)"),
]
