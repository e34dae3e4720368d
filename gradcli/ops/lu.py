"""The rows of the LU family: linalg.lu_factor_ex (and linalg.lu_factor, torch.lu, its programs), linalg.lu,
lu_unpack, linalg.lu_solve (and torch.lu_solve), with PyTorch's derivatives (FunctionsManual.cpp:
linalg_lu_backward, lu_factor_ex_backward, lu_unpack_backward, linalg_lu_solve_LU); and linalg.lstsq.

A = P L U, of any m x n matrix: LAPACK's getrf, unblocked (partial pivoting, the first of the largest
in a column; a zero pivot scales nothing and sets info), L (m, k) unit lower, U (k, n) upper, k = min(m, n).
The pivots are LAPACK's, 1-based, as PyTorch gives them; they and info are integers (no gradient), and P,
a permutation, takes none either. Without pivoting (pivot=False) PyTorch's CPU refuses, and so does gradcli.

The rules act on the trailing two axes of each arg; a factor of a dual matrix (the Hessian) is a dual
number whose tangent is PyTorch's linalg_lu_jvp (decompositions._factored).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradcli.ops.core import (
    Array,
    Dialect,
    Param,
    Shape,
    ValueRefusal,
    batch_element,
    composite,
    kernel_refusal,
    structural,
)
from gradcli.ops.decompositions import _factored, _mT, _point_shape, _primal, _triangular, _tril, _triu

# --- the factorization ----------------------------------------------------------------------------


def _getrf(a: Array) -> tuple[Array, Array, Array]:
    """(LU packed, the 0-based row each step took its pivot from, info) of each matrix, LAPACK's steps."""
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = a.shape[:-2]
    lu = np.array(a, dtype=float).reshape(math.prod(batch), m, n)  # (not -1: a matrix may have no entries)
    every = np.arange(len(lu))
    pivots = np.zeros((len(lu), k), dtype=np.intp)
    info = np.zeros(len(lu), dtype=np.intp)
    with np.errstate(all="ignore"):
        for j in range(k):
            size = np.abs(lu[:, j:, j])
            # idamax: the first of the largest; a NaN is taken where it comes first
            p = j + np.where(np.isnan(size[:, 0]), 0, np.argmax(np.where(np.isnan(size), -1.0, size), axis=1))
            pivots[:, j] = p
            lu[every, j], lu[every, p] = lu[every, p], lu[every, j]
            pivot = lu[:, j, j]
            zero = pivot == 0
            info = np.where(zero & (info == 0), j + 1, info)
            below = np.where(zero[:, None], lu[:, j + 1:, j], lu[:, j + 1:, j] / np.where(zero, 1.0, pivot)[:, None])
            lu[:, j + 1:, j] = below
            lu[:, j + 1:, j + 1:] -= below[:, :, None] * lu[:, j, None, j + 1:]
    return lu.reshape((*batch, m, n)), pivots.reshape((*batch, k)), info.reshape(batch)


def _permutation(pivots: Array, m: int) -> Array:
    """P of A = P L U from the 0-based pivots: P[perm[i], i] = 1, perm the rows in the order the swaps left them."""
    batch = pivots.shape[:-1]
    flat = pivots.reshape(math.prod(batch), pivots.shape[-1])
    out = np.zeros((len(flat), m, m))
    for b, row in enumerate(flat):
        perm = list(range(m))
        for j, p in enumerate(row):
            perm[j], perm[p] = perm[p], perm[j]
        out[b, perm, np.arange(m)] = 1.0
    return out.reshape((*batch, m, m))


def _unpacked(lu: Any) -> tuple[Any, Any]:
    """L (unit lower, m x k) and U (upper, k x n) of a packed LU (of a dual number too)."""
    m, n = np.shape(lu)[-2:]
    k = min(m, n)
    low = np.where(np.eye(m, k, dtype=bool), 1.0, _tril(lu[..., :, :k], -1))  # (a -0.0 below the diagonal stays one)
    return low, _triu(lu[..., :k, :])


def _factors(a: Array) -> tuple[Array, Array, Array]:
    lu, pivots, _ = _getrf(np.asarray(a))
    low, up = _unpacked(lu)
    return _permutation(pivots, np.shape(a)[-2]), low, up


def _lu_tangents(t: Array, p: Array, low: Array, up: Array) -> tuple[Array, Array, Array]:
    """PyTorch's linalg_lu_jvp: dP = 0; dL, dU from P^T dA."""
    m, n = t.shape[-2:]
    k = min(m, n)
    moved = _mT(p) @ t
    low1, up1 = low[..., :k, :], up[..., :, :k]
    inner = _right_solve(_triangular(low1, moved[..., :k, :k], lower=True, unit=True), up1)  # L1^-1 (P^T dA)1 U1^-1
    d_low1, d_up1 = low1 @ _tril(inner, -1), _triu(inner) @ up1
    d_low, d_up = d_low1, d_up1
    if m > n:  # tall: the rows below, dL2 = (P^T dA)2 U^-1 - L2 dU U^-1
        d_low = np.concatenate([d_low1, _right_solve(moved[..., k:, :] - low[..., k:, :] @ d_up1, up)], axis=-2)
    if m < n:  # wide: the columns beyond, dU2 = L^-1 ((P^T dA)2 - dL U2)
        d_up = np.concatenate([d_up1, _triangular(low, moved[..., :, k:] - d_low1 @ up[..., :, k:], True, True)], axis=-1)
    return np.zeros(np.shape(p)), d_low, d_up


def _right_solve(b: Any, up: Any) -> Any:
    """B U^-1, U upper triangular."""
    return _mT(_triangular(_mT(up), _mT(b), lower=True))


def _lu_parts(a: Any) -> tuple[Any, Any, Any]:
    return _factored(a, _factors, _lu_tangents)


def _lu_backward(g_low: Any, g_up: Any, p: Any, low: Any, up: Any) -> Any:
    """PyTorch's linalg_lu_backward (pivot=True), in its order; a None cotangent is none."""
    m, n = np.shape(low)[-2], np.shape(up)[-1]
    k = min(m, n)
    grad: Any = 0.0
    if m == n:
        if g_low is not None:
            grad = _tril(_mT(low) @ g_low, -1)
        if g_up is not None:
            grad = grad + _triu(g_up @ _mT(up))
        grad = _mT(_triangular(up, _mT(grad), lower=False))  # A_grad U^-H
        grad = _triangular(_mT(low), grad, lower=False, unit=True)  # L^-H A_grad
        return p @ grad
    if m < n:  # wide
        up1 = up[..., :, :k]
        grad = _mT(low) @ g_low if g_low is not None else np.zeros((*np.shape(low)[:-2], m, m))
        if g_up is not None:
            grad = grad - _triu(g_up) @ _mT(up)
        grad = _mT(_triangular(up1, _mT(_tril(grad, -1)), lower=False))
        if g_up is not None:
            grad = np.concatenate([grad + _triu(g_up[..., :, :k]), g_up[..., :, k:]], axis=-1)
        grad = _triangular(_mT(low), grad, lower=False, unit=True)
        if g_up is None:
            grad = np.concatenate([grad, np.zeros((*np.shape(grad)[:-1], n - k))], axis=-1)
        return p @ grad
    low1 = low[..., :k, :]  # tall
    grad = g_up @ _mT(up) if g_up is not None else np.zeros((*np.shape(up)[:-2], n, n))
    if g_low is not None:
        grad = grad - _mT(low) @ _tril(g_low, -1)
    grad = _triangular(_mT(low1), _triu(grad), lower=False, unit=True)
    if g_low is not None:
        grad = np.concatenate([grad + _tril(g_low[..., :k, :], -1), g_low[..., k:, :]], axis=-2)
    grad = _mT(_triangular(up, _mT(grad), lower=False))
    if g_low is None:
        grad = np.concatenate([grad, np.zeros((*np.shape(grad)[:-2], m - k, n))], axis=-2)
    return p @ grad


# --- lu_factor_ex (LU, pivots, info); lu_factor, torch.lu; linalg.lu (P, L, U) ---------------------


def _matrices(name: str) -> Any:
    def check(a: Shape, pivot: bool = True) -> None:
        if len(a) < 2:
            raise ValueError(f"{name}: Expected tensor with 2 or more dimensions. Got size: {list(a)} instead")
        if not pivot:
            raise ValueError(f"{name}: LU without pivoting is not implemented on the CPU")

    return check


def _factor_ex_shape(a: Shape, pivot: bool = True, check_errors: bool = False, part: int = 0, of: Any = None) -> Shape:
    _matrices("torch.lu_factor")(a, pivot)
    if of is not None and of != 3:
        raise ValueError(f"cannot unpack 3 values into {of} names")
    k = min(a[-2:])
    return (a, (*a[:-2], k), a[:-2])[part % 3]


def _factor_ex(a: Array, ranks: tuple[int, ...], pivot: bool = True, check_errors: bool = False, part: int = 0,
               of: Any = None) -> Array:
    _factor_ex_shape(_point_shape(a, ranks[0]), pivot)
    lu, pivots, info = _getrf(np.asarray(a))
    if check_errors and np.any(info):  # (linalg.lu_factor's check, whichever part is asked for)
        bad = np.reshape(info, -1) > 0
        first = int(np.reshape(info, -1)[np.argmax(bad)])
        where = batch_element(a, info > 0) if np.ndim(a) == ranks[0] else ""
        raise ValueRefusal(f"torch.linalg.lu_factor: {where}U[{first},{first}] is zero and using it on lu_solve would "
                           "result in a division by zero. If you still want to perform the factorization, consider "
                           "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)",
                           f"lu_factor of a singular matrix: {where}U[{first},{first}] is zero (PyTorch raises here too; "
                           "lu_factor_ex gives its info)")
    if part % 3 == 1:
        return pivots.astype(float) + 1.0
    if part % 3 == 2:
        return info.astype(float)
    return lu


def _factor_ex_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], pivot: bool = True, check_errors: bool = False,
                   part: int = 0, of: Any = None) -> tuple[Any]:
    if part % 3:
        return (None,)
    p, low, up = _lu_parts(a)
    k = min(np.shape(a)[-2:])
    return (_lu_backward(g[..., :, :k], g[..., :k, :], p, low, up),)  # (lu_factor_ex_backward)


def _factor_ex_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], pivot: bool = True,
                   check_errors: bool = False, part: int = 0, of: Any = None) -> Array:
    if part % 3 or tangents[0] is None:
        return np.zeros(np.shape(ans))
    p, low, up = _factors(a)
    _, d_low, d_up = _lu_tangents(np.broadcast_to(tangents[0], np.shape(a)), p, low, up)
    m, n = np.shape(a)[-2:]
    k = min(m, n)
    out = np.zeros(np.shape(ans))
    out[..., :, :k] += _tril(d_low, -1)
    out[..., :k, :] += _triu(d_up)
    return out


def _linalg_lu_shape(a: Shape, pivot: bool = True, part: int = 0, of: Any = None) -> Shape:
    _matrices("linalg.lu")(a, pivot)
    if of is not None and of != 3:
        raise ValueError(f"cannot unpack 3 values into {of} names")
    m, n = a[-2:]
    k = min(m, n)
    return ((*a[:-2], m, m), (*a[:-2], m, k), (*a[:-2], k, n))[part % 3]


def _linalg_lu(a: Array, ranks: tuple[int, ...], pivot: bool = True, part: int = 0, of: Any = None) -> Array:
    _linalg_lu_shape(_point_shape(a, ranks[0]), pivot)
    return _factors(np.asarray(a))[part % 3]


def _linalg_lu_vjp(g: Any, ans: Any, a: Any, ranks: tuple[int, ...], pivot: bool = True, part: int = 0,
                   of: Any = None) -> tuple[Any]:
    if part % 3 == 0:
        return (None,)
    p, low, up = _lu_parts(a)
    return (_lu_backward(g, None, p, low, up) if part % 3 == 1 else _lu_backward(None, g, p, low, up),)


def _linalg_lu_jvp(tangents: Sequence[Any], ans: Array, a: Array, ranks: tuple[int, ...], pivot: bool = True,
                   part: int = 0, of: Any = None) -> Array:
    if part % 3 == 0 or tangents[0] is None:
        return np.zeros(np.shape(ans))
    factors = _factors(a)
    return _lu_tangents(np.broadcast_to(tangents[0], np.shape(a)), *factors)[part % 3]


def _lu_factor_program(emit: Any, a: Any, pivot: bool = True, part: int = 0, of: Any = None) -> Any:
    if of is not None and of != 2:
        raise ValueError(f"cannot unpack 2 values into {of} names")
    return emit("lu_factor_ex", a, pivot=pivot, check_errors=True, part=part % 2, of=None)


def _torch_lu_shape(a: Shape, pivot: bool = True, get_infos: bool = False, part: int = 0, of: Any = None) -> Shape:
    count = 3 if get_infos else 2
    if of is not None and of != count:
        raise ValueError(f"cannot unpack {count} values into {of} names")
    if not -count <= part < count:
        raise ValueError(f"tuple index out of range: torch.lu gives {count} values")
    return _factor_ex_shape(a, pivot, part=part % count)


def _torch_lu_program(emit: Any, a: Any, pivot: bool = True, get_infos: bool = False, part: int = 0,
                      of: Any = None) -> Any:
    count = 3 if get_infos else 2
    return emit("lu_factor_ex", a, pivot=pivot, part=part % count, of=None)


# --- lu_unpack: (P, L, U) of a packed LU and its pivots -------------------------------------------


def _perm_of(pivots: Array, m: int) -> Array:
    """P from LAPACK's 1-based pivots (an integer arg), checked."""
    zero_based = np.asarray(pivots).astype(np.intp) - 1
    if np.any(zero_based < 0) or np.any(zero_based >= m):
        raise ValueError(f"lu_unpack: the pivots must be between 1 and {m}")
    return _permutation(zero_based, m)


def _unpack_shape(lu: Shape, pivots: Shape, unpack_data: bool = True, unpack_pivots: bool = True, part: int = 0,
                  of: Any = None) -> Shape:
    if len(lu) < 2:
        raise ValueError("torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                         f"{list(lu)} instead")
    m, n = lu[-2:]
    k = min(m, n)
    if tuple(pivots) != (*lu[:-2], k):
        raise ValueError(f"torch.lu_unpack: Expected LU_pivots of shape {[*lu[:-2], k]}, got {list(pivots)}")
    if of is not None and of != 3:
        raise ValueError(f"cannot unpack 3 values into {of} names")
    if not (unpack_data if part % 3 else unpack_pivots):  # (what a call does not unpack is an empty tensor)
        return (0,)
    return ((*lu[:-2], m, m), (*lu[:-2], m, k), (*lu[:-2], k, n))[part % 3]


def _unpack(lu: Array, pivots: Array, ranks: tuple[int, ...], unpack_data: bool = True, unpack_pivots: bool = True,
            part: int = 0, of: Any = None) -> Array:
    if not (unpack_data if part % 3 else unpack_pivots):  # (torch.lu_unpack(LU, pivots, unpack_data=False): L, U empty)
        return np.zeros((*np.shape(lu)[:np.ndim(lu) - ranks[0]], 0))
    if part % 3 == 0:
        return _perm_of(pivots, np.shape(lu)[-2])
    return _unpacked(lu)[part % 3 - 1]


def _unpack_vjp(g: Any, ans: Any, lu: Any, pivots: Any, ranks: tuple[int, ...], unpack_data: bool = True,
                unpack_pivots: bool = True, part: int = 0, of: Any = None) -> tuple[Any, None]:
    if part % 3 == 0:
        return None, None
    if not unpack_data:
        return np.zeros(np.shape(lu)), None
    m, n = np.shape(lu)[-2:]
    k = min(m, n)
    if part % 3 == 1:  # L's cotangent below the diagonal, in LU's first k columns
        padded = np.concatenate([_tril(g, -1), np.zeros((*np.shape(g)[:-1], n - k))], axis=-1) if n > k else _tril(g, -1)
    else:  # U's on and above it, in LU's first k rows
        padded = np.concatenate([_triu(g), np.zeros((*np.shape(g)[:-2], m - k, n))], axis=-2) if m > k else _triu(g)
    return padded, None


def _unpack_jvp(tangents: Sequence[Any], ans: Array, lu: Array, pivots: Array, ranks: tuple[int, ...],
                unpack_data: bool = True, unpack_pivots: bool = True, part: int = 0, of: Any = None) -> Array:
    if part % 3 == 0 or tangents[0] is None or not unpack_data:
        return np.zeros(np.shape(ans))
    t = np.broadcast_to(tangents[0], np.shape(lu))
    k = min(np.shape(lu)[-2:])
    return _tril(t[..., :, :k], -1) if part % 3 == 1 else _triu(t[..., :k, :])


# --- linalg.lu_solve(LU, pivots, B, left=True, adjoint=False); torch.lu_solve(B, LU, pivots) ----------


def _solve_shape(lu: Shape, b: Shape, pivots: Shape, left: bool = True, adjoint: bool = False) -> Shape:
    if len(lu) < 2:  # (PyTorch 2.13's checks and words)
        raise ValueError("torch.linalg.lu_solve: The input tensor A must have at least 2 dimensions.")
    if lu[-1] != lu[-2]:
        raise ValueError(f"torch.linalg.lu_solve: A must be batches of square matrices, but they are {lu[-2]} by "
                         f"{lu[-1]} matrices")
    if len(b) < 2:
        raise ValueError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n = lu[-1]
    if (b[-2] if left else b[-1]) != n:
        raise ValueError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'}"
                         f" ({n}x{n} and {b[-2]}x{b[-1]})")
    if tuple(pivots[-1:]) != (n,):
        raise ValueError(f"linalg.lu_solve: Expected LU_pivots of shape {[*lu[:-2], n]}, got {list(pivots)}")
    return (*np.broadcast_shapes(tuple(lu[:-2]), tuple(b[:-2]), tuple(pivots[:-1])), *b[-2:])


def _rows_of(p: Any, b: Any) -> Any:
    """P B as getrs swaps rows: each row taken where P has its 1 (no 0 * inf: NaN, as a product by P would make)."""
    return np.sum(np.where(np.asarray(p)[..., :, :, None] == 1.0, b[..., None, :, :], 0.0), axis=-2)


def _applied(lu: Any, p: Any, b: Any, left: bool, adjoint: bool) -> Any:
    """X of op(A) X = B (left) or X op(A) = B, A = P L U, op the adjoint where `adjoint`."""
    low, up = _unpacked(lu)
    if not left:  # X A = B is A^H X^H = B^H
        return _mT(_applied(lu, p, _mT(b), True, not adjoint))
    if not adjoint:  # X = U^-1 L^-1 P^T B
        return _triangular(up, _triangular(low, _rows_of(_mT(p), b), lower=True, unit=True), lower=False)
    # A^H X = B: U^H L^H P^T X = B, X = P L^-H U^-H B
    return _rows_of(p, _triangular(_mT(low), _triangular(_mT(up), b, lower=True), lower=False, unit=True))


def _lined_up(lu: Any, b: Any, pivots: Any, ranks: tuple[int, ...]) -> tuple[Any, Any, Any]:
    """The args with axes of 1 after a batch axis of points, so that their batches of matrices broadcast."""
    width = max(ranks[0] - 2, ranks[1] - 2, ranks[2] - 1)

    def lined(x: Any, rank: int, core: int) -> Any:
        lead = np.ndim(x) - rank
        shape = np.shape(x)
        return np.reshape(x, (*shape[:lead], *(1,) * (width - rank + core), *shape[lead:]))

    return lined(lu, ranks[0], 2), lined(b, ranks[1], 2), lined(pivots, ranks[2], 1)


def _lu_solve(lu: Array, b: Array, pivots: Array, ranks: tuple[int, ...], left: bool = True,
              adjoint: bool = False) -> Array:
    _solve_shape(_point_shape(lu, ranks[0]), _point_shape(b, ranks[1]), _point_shape(pivots, ranks[2]), left, adjoint)
    lu, b, pivots = _lined_up(lu, b, pivots, ranks)
    return np.asarray(_applied(lu, _perm_of(pivots, np.shape(lu)[-1]), b, left, adjoint))


def _lu_solve_vjp(g: Any, ans: Any, lu: Any, b: Any, pivots: Any, ranks: tuple[int, ...], left: bool = True,
                  adjoint: bool = False) -> tuple[Any, Any, None]:
    shapes = np.shape(lu), np.shape(b)
    lu, b, pivots = _lined_up(lu, b, pivots, ranks)
    lined = np.shape(lu), np.shape(b)
    grad_lu, grad_b, _ = _lu_solve_cotangents(g, ans, lu, b, pivots, left, adjoint)
    return _summed_back(grad_lu, lined[0], shapes[0]), _summed_back(grad_b, lined[1], shapes[1]), None


def _summed_back(cotangent: Any, lined: Shape, shape: Shape) -> Any:
    """A cotangent of a lined-up arg summed over what broadcasting spread it to, in the arg's own shape (of a
    dual number too)."""
    extra = np.ndim(cotangent) - len(lined)
    if extra:
        cotangent = np.sum(cotangent, axis=tuple(range(extra)))
    spread = tuple(i for i, (size, got) in enumerate(zip(lined, np.shape(cotangent), strict=True)) if size == 1 != got)
    if spread:
        cotangent = np.sum(cotangent, axis=spread, keepdims=True)
    return np.reshape(cotangent, shape)


def _lu_solve_cotangents(g: Any, ans: Any, lu: Any, b: Any, pivots: Any, left: bool,
                         adjoint: bool) -> tuple[Any, Any, None]:
    p = _perm_of(_primal(pivots), np.shape(lu)[-1])
    low, up = _unpacked(lu)
    x = ans
    if left != adjoint:  # PyTorch's linalg_lu_solve_LU
        product = -((g if left else _mT(g)) @ (_mT(x) if left else x))
        grad_r = _triangular(_mT(up), product, lower=True)
        grad_low = _tril(_triangular(_mT(low), grad_r @ _mT(up), lower=False, unit=True), -1)
        grad_lu = grad_low + _triu(grad_r)
    else:
        grad_r = -(_mT(p) @ (x if left else _mT(x)) @ (_mT(g) if left else g) @ p)
        grad_r = _mT(_triangular(low, _mT(grad_r), lower=True, unit=True))  # gR L^-H
        grad_up = _triu(_mT(_triangular(up, _mT(_mT(low) @ grad_r), lower=False)))  # (L^H gR U^-H).triu()
        grad_lu = _tril(grad_r, -1) + grad_up
    return grad_lu, _applied(lu, p, g, left, not adjoint), None


def _lu_solve_jvp(tangents: Sequence[Any], ans: Array, lu: Array, b: Array, pivots: Array, ranks: tuple[int, ...],
                  left: bool = True, adjoint: bool = False) -> Array:
    # linear in B; in LU, X(LU + t dLU) differentiated: dX = -op(A)^-1 op(dA) X, dA = P (dL U + L dU)
    t_lu = None if tangents[0] is None else _lined_up(np.broadcast_to(tangents[0], np.shape(lu)), b, pivots, ranks)[0]
    t_b = None if tangents[1] is None else _lined_up(lu, np.broadcast_to(tangents[1], np.shape(b)), pivots, ranks)[1]
    lu, b, pivots = _lined_up(lu, b, pivots, ranks)
    p = _perm_of(pivots, np.shape(lu)[-1])
    out = np.zeros(np.shape(ans))
    if t_b is not None:
        out = out + _applied(lu, p, t_b, left, adjoint)
    if t_lu is not None:
        low, up = _unpacked(lu)
        d_low, d_up = _unpacked(t_lu)
        d_a = p @ ((d_low - np.eye(np.shape(lu)[-1])) @ up + low @ d_up)
        moved = _mT(d_a) if adjoint else d_a
        out = out - (_applied(lu, p, moved @ ans, True, adjoint) if left else _applied(lu, p, ans @ moved, False, adjoint))
    return out


def _torch_lu_solve_program(emit: Any, b: Any, lu: Any, pivots: Any) -> Any:
    return emit("linalg_lu_solve", lu, b, pivots)


def _parts_text(call: str, defaults: dict[str, Any]) -> Any:
    def text(args: Sequence[str], part: int = 0, of: Any = None, **params: Any) -> str:
        said = [f"{key}={value!r}" for key, value in params.items() if defaults.get(key, value) != value]
        return f"{call}({', '.join([*args, *said])})[{part}]"

    return text


_PIVOT = Param("pivot", "bool", True)
_SQUARE_AND_NOT: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ((((3, 3),), {}), (((2, 4),), {}), (((4, 2),), {}), (((2, 3, 3),), {}))

ROWS = [
    structural("lu_factor_ex", 1, _factor_ex, _factor_ex_vjp, "LinalgLuFactorExBackward0", jvp=_factor_ex_jvp,
               shape=_factor_ex_shape, params=(_PIVOT, Param("check_errors", "bool", False)), parts=3,
               fields=("LU", "pivots", "info"), integer_parts=(1, 2), integer_dtype="int32",
               text=_parts_text("torch.linalg.lu_factor_ex", {"pivot": True, "check_errors": False}),
               examples=tuple((shapes, {"part": 0}) for shapes, _ in _SQUARE_AND_NOT),
               reference="torch.linalg.lu_factor_ex(a)[0]", reference_program="torch.linalg.lu_factor_ex(a)[0]",
               dtype_refusals=kernel_refusal("lu_cpu")),
    composite("lu_factor", 1, _lu_factor_program, "LinalgLuFactorExBackward0", sympy=None, params=(_PIVOT,), parts=2,
              fields=("LU", "pivots"), shape=lambda a, pivot=True, part=0, of=None: _factor_ex_shape(a, pivot, part=part % 2),
              text=_parts_text("torch.linalg.lu_factor", {"pivot": True}),
              examples=((((3, 3),), {"part": 0}), (((2, 4),), {"part": 0})),
              reference="torch.linalg.lu_factor(a)[0]", reference_program="torch.linalg.lu_factor(a)[0]",
              dtype_refusals=kernel_refusal("lu_cpu")),
    composite("lu", 1, _torch_lu_program, "LinalgLuFactorExBackward0", sympy=None, parts=-1, shape=_torch_lu_shape,
              params=(_PIVOT, Param("get_infos", "bool", False)), dialects=(Dialect("linalg", row="linalg_lu"),),
              text=_parts_text("torch.lu", {"pivot": True, "get_infos": False}),
              examples=((((3, 3),), {"part": 0}), (((4, 2),), {"part": 0, "get_infos": True})),
              reference="torch.lu(a)[0]", reference_program="torch.lu(a)[0]", dtype_refusals=kernel_refusal("lu_cpu")),
    structural("linalg_lu", 1, _linalg_lu, _linalg_lu_vjp, "LinalgLuBackward0", jvp=_linalg_lu_jvp,
               shape=_linalg_lu_shape, params=(_PIVOT,), parts=3, fields=("P", "L", "U"), detached_parts=(0,),
               callable=False, text=_parts_text("torch.linalg.lu", {"pivot": True}),
               examples=tuple((shapes, {"part": part}) for shapes, _ in _SQUARE_AND_NOT for part in (1, 2)),
               reference="torch.linalg.lu(a)[1]", reference_program="torch.linalg.lu(a)[1]",
               dtype_refusals=kernel_refusal("lu_cpu")),
    structural("lu_unpack", 2, _unpack, _unpack_vjp, "LuUnpackBackward0", jvp=_unpack_jvp, shape=_unpack_shape,
               params=(Param("unpack_data", "bool", True), Param("unpack_pivots", "bool", True)), parts=3,
               fields=("P", "L", "U"), detached_parts=(0,), index_from=1, inputs=("LU_data", "LU_pivots"),
               dtype_refusals=(("index not int32 and with unpack_pivots", "RuntimeError", "torch.lu_unpack: LU_pivots is expected to be a "
                                "contiguous tensor of torch.int32 dtype.\nNote: this function is intended to be used with "
                                "the output produced by torch.linalg.lu_factor"),),
               text=_parts_text("torch.lu_unpack", {"unpack_data": True, "unpack_pivots": True}),
               examples=((((3, 3), (3,)), {"part": 1}), (((2, 4), (2,)), {"part": 2}), (((4, 2), (2,)), {"part": 1})),
               domain=((-2.0, 2.0), (1.0, 1.0)),  # (LAPACK's pivots are 1-based: 1, a swap with the first row)
               reference="torch.lu_unpack(a, b.int())[1]", reference_program="torch.lu_unpack(a, b)[1]"),
    structural("linalg_lu_solve", 3, _lu_solve, _lu_solve_vjp, "LinalgLuSolveBackward0", jvp=_lu_solve_jvp,
               shape=_solve_shape, params=(Param("left", "bool", True), Param("adjoint", "bool", False)),
               index_from=2, tensor_positions=(0, 2, 1), inputs=("LU", "B", "pivots"), callable=False,
               dtype_refusals=(("index not int32", "RuntimeError",
                                "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32"),),
               text=lambda args, left=True, adjoint=False: (
                   f"torch.linalg.lu_solve({args[0]}, {args[2]}, {args[1]}"
                   + ("" if left else ", left=False") + (", adjoint=True" if adjoint else "") + ")"),
               examples=(), reference=None),
    composite("lu_solve", 3, _torch_lu_solve_program, "LinalgLuSolveBackward0", sympy=None, index_from=2,
              shape=lambda b, lu, pivots: _solve_shape(lu, b, pivots), inputs=("input", "LU_data", "LU_pivots"),
              dialects=(Dialect("linalg", row="linalg_lu_solve"),), methods=("lu_solve",),  # (b.lu_solve(LU, pivots))
              text=lambda args: f"torch.lu_solve({', '.join(args)})",
              examples=((((3, 2), (3, 3), (3,)), {}), (((2, 2, 1), (2, 2), (2,)), {})),
              domain=((-2.0, 2.0), (-2.0, 2.0), (1.0, 1.0)),
              reference="torch.lu_solve(a, b, c.int())", reference_program="torch.lu_solve(a, b, c)"),
]


# --- linalg.lstsq: (solution, residuals, rank, singular_values), the solution pinv(A) B ------------------
#
# PyTorch's derivative (linalg_lstsq_backward) goes through pinv: A's from the solution's cotangent is pinv's
# backward at gX B^H, B's pinv(A)^H gX; the residuals |A X - B|^2 add 2 R diag(gR) X^H to A's and -2 R diag(gR)
# to B's (R = A X - B). The values are LAPACK's least squares (NumPy's, by the SVD: the same solution for a
# matrix of full rank); rank and singular_values take no gradient.

_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _is_vector_rhs(a: Shape, b: Shape) -> bool:
    return len(b) == 1 or (len(b) == len(a) - 1 and tuple(b[:-1]) == tuple(a[:-2]))


def _lstsq_dims(a: Shape, b: Shape, driver: Any) -> tuple[Shape, int, bool]:
    if len(a) < 2:
        raise ValueError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if driver is not None and driver not in _DRIVERS:
        raise ValueError("torch.linalg.lstsq: parameter `driver` should be one of ('gels', 'gelsy', 'gelsd', 'gelss')")
    if not b:
        raise ValueError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if not 0 <= len(a) - len(b) <= 1:
        raise ValueError("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                         "(input.dim() - other.dim()) <= 1")
    vector = _is_vector_rhs(a, b)
    rows, k = (b[-1], 1) if vector else (b[-2], b[-1])
    if rows != a[-2]:
        other = -1 if len(b) == 1 or tuple(b) == tuple(a[:-1]) else -2  # (PyTorch's vector case)
        raise ValueError(f"torch.linalg.lstsq: input.size(-2) should match other.size({other})")
    batch = tuple(np.broadcast_shapes(tuple(a[:-2]), tuple(b[:-1] if vector else b[:-2])))
    return batch, k, vector


def _has_residuals(a: Shape, driver: Any) -> bool:
    return a[-2] > a[-1] and (driver or "gelsy") != "gelsy"


def _lstsq_shape(a: Shape, b: Shape, rcond: Any = None, driver: Any = None, part: int = 0, of: Any = None) -> Shape:
    batch, k, vector = _lstsq_dims(a, b, driver)
    if of is not None and of != 4:
        raise ValueError(f"cannot unpack 4 values into {of} names")
    column = () if vector else (k,)
    m, n = a[-2:]
    which = part % 4
    if which == 0:
        return (*batch, n, *column)
    if which == 1:
        return (*batch, *column) if _has_residuals(a, driver) else (0,)
    if which == 2:
        return batch if (driver or "gelsy") != "gels" else (0,)
    return (*batch, min(m, n)) if driver in ("gelsd", "gelss") else (0,)


def _lstsq_parts(a: Any, b: Any, rcond: Any, vector: bool) -> tuple[Any, Any, Any]:
    """(the solution as columns, pinv(A), B as columns), of dual numbers too (the Hessian)."""
    from gradcli.ops.decompositions import _pinv, _pinv_jvp

    inverse: Any = _pinv(_primal(a), (2,), rtol=rcond)
    if hasattr(a, "primal"):  # (a dual matrix: pinv's tangent is its JVP)
        from gradcli.dual import Dual

        inverse = Dual(inverse, None if a.tangent is None else _pinv_jvp((a.tangent,), inverse, a.primal, (2,)))
    columns = b[..., None] if vector else b
    return _each_product(inverse, columns), inverse, columns


def _gelsy_of_infinite(a: Array) -> tuple[Array, Array]:
    """(which matrices of `a` hold an infinity, the rows of gelsy's solution that are NaN for each). gelsy scales
    such an A by zero (its finite entries 0, its infinities NaN); its QR with column pivoting takes the first column
    holding NaN (MKL's idamax), whose reflector is NaN where that column has NaN below its first row (then it makes
    NaN of every other column holding NaN too). R's first row thus holds NaN past its first entry, or not; R11 is
    NaN, so the rank is 1, and the solution is NaN in the pivot's row alone, or everywhere where the RZ step of that
    row meets the NaN; every other row is 0 (the solution scaled back by zero)."""
    mask = np.isinf(a)
    infinite = mask.any(axis=(-2, -1))
    rows = np.zeros((*np.shape(a)[:-2], np.shape(a)[-1]), dtype=bool)
    for index in np.ndindex(np.shape(infinite)):
        if not infinite[index]:
            continue
        held = mask[index]
        pivot = int(np.argmax(held.any(axis=0)))
        others = np.delete(held, pivot, axis=1)
        spread = others.any() if held[1:, pivot].any() else others[0].any()
        rows[index] = True if spread else np.arange(held.shape[1]) == pivot
    return infinite, rows


def _each_product(x: Any, y: Any) -> Any:
    """x @ y a matrix at a time: BLAS's bits for each point, alone or in a batch of points."""
    if hasattr(x, "primal") or hasattr(y, "primal") or (np.ndim(x) == 2 and np.ndim(y) == 2):
        return x @ y
    batch = np.broadcast_shapes(np.shape(x)[:-2], np.shape(y)[:-2])
    x, y = np.broadcast_to(x, (*batch, *np.shape(x)[-2:])), np.broadcast_to(y, (*batch, *np.shape(y)[-2:]))
    out = np.zeros((*batch, np.shape(x)[-2], np.shape(y)[-1]))
    for index in np.ndindex(batch):
        out[index] = x[index] @ y[index]
    return out


def _lstsq(a: Array, b: Array, ranks: tuple[int, ...], rcond: Any = None, driver: Any = None, part: int = 0,
           of: Any = None) -> Array:
    point_a, point_b = _point_shape(a, ranks[0]), _point_shape(b, ranks[1])
    shape = _lstsq_shape(point_a, point_b, rcond, driver, part)
    vector = _is_vector_rhs(point_a, point_b)
    which = part % 4
    for name, value, position in (("A", a, 4), ("B", b, 6)):  # (MKL's gelsy, PyTorch's CPU driver, refuses NaN)
        if driver in (None, "gelsy") and np.isnan(_primal(value)).any():
            raise ValueRefusal(
                'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":1613, '
                f"please report a bug to PyTorch. torch.linalg.lstsq: Argument {position} has illegal value. Most "
                "certainly there is a bug in the implementation calling the backend library.",
                f"lstsq of {name} holding NaN: PyTorch's LAPACK (gelsy) refuses it, PyTorch raises here too")
    if which == 3:
        return np.linalg.svd(a, compute_uv=False) if shape != (0,) else np.zeros(0)
    gelsy = driver in (None, "gelsy")
    held, nan_rows = _gelsy_of_infinite(_primal(a))
    held = held & gelsy
    if which == 2:
        if shape == (0,):
            return np.zeros(0)
        values = np.linalg.svd(np.where(held[..., None, None], 0.0, a), compute_uv=False)
        tolerance = (np.finfo(float).eps * max(point_a[-2:]) if rcond is None else rcond) * values[..., :1]
        return np.where(held, 1.0, np.sum(values > tolerance, axis=-1).astype(float))
    solution, _, columns = _lstsq_parts(a, b, rcond, vector)
    if which == 0:
        if held.any():  # (gelsy's solution of an infinite A: NaN rows and zeros)
            solution = np.where(held[..., None, None], np.where(nan_rows[..., None], np.nan, 0.0), solution)
        infinite = np.isinf(_primal(columns)).any(axis=(-2, -1), keepdims=True)
        if gelsy and infinite.any():  # (gelsy's solution of an infinite B: NaN)
            solution = np.where(infinite, np.nan, solution)
        return solution[..., 0] if vector else solution
    if shape == (0,):
        return np.zeros(0)
    if np.any(np.linalg.matrix_rank(a) < point_a[-1]):
        raise ValueError("torch.linalg.lstsq: the residuals of a matrix that is not of full rank are an empty tensor "
                         "in PyTorch; gradcli gives none")
    residual = np.sum((a @ solution - columns) ** 2, axis=-2)
    return residual[..., 0] if vector else residual


def _lstsq_vjp(g: Any, ans: Any, a: Any, b: Any, ranks: tuple[int, ...], rcond: Any = None, driver: Any = None,
               part: int = 0, of: Any = None) -> tuple[Any, Any]:
    from gradcli.ops.decompositions import _pinv_vjp

    which = part % 4
    if which >= 2 or (which == 1 and np.size(ans) == 0):
        return None, None
    vector = _is_vector_rhs(_point_shape(a, ranks[0]), _point_shape(b, ranks[1]))
    solution, inverse, columns = _lstsq_parts(a, b, rcond, vector)
    g = g[..., None] if vector else g
    if which == 0:
        grad_a = _pinv_vjp(g @ _mT(columns), inverse, a, ranks)[0]
        grad_b = _mT(inverse) @ g
    else:  # the residuals: gR (..., k) on each column's |A x - b|^2
        scaled = 2.0 * (a @ solution - columns) * g[..., None, :]
        grad_a, grad_b = scaled @ _mT(solution), -scaled
    return grad_a, (grad_b[..., 0] if vector else grad_b)


def _lstsq_jvp(tangents: Sequence[Any], ans: Array, a: Array, b: Array, ranks: tuple[int, ...], rcond: Any = None,
               driver: Any = None, part: int = 0, of: Any = None) -> Array:
    # the JVP as the VJP's transpose, an element of the output at a time (small matrices), a point at a time
    leads = [np.ndim(x) - rank for x, rank in zip((a, b), ranks, strict=True)]
    if any(leads):
        return np.stack([_lstsq_jvp([None if t is None else (t[i] if lead else t) for t, lead in zip(tangents, leads, strict=True)],
                                    ans[i], a[i] if leads[0] else a, b[i] if leads[1] else b, ranks, rcond, driver, part)
                         for i in range(np.shape(ans)[0])])
    out = np.zeros(np.shape(ans))
    flat = out.reshape(-1)
    for i in range(flat.size):
        unit = np.zeros(flat.size)
        unit[i] = 1.0
        grads = _lstsq_vjp(unit.reshape(np.shape(ans)), ans, a, b, ranks, rcond, driver, part)
        flat[i] = sum(float(np.sum(np.asarray(gr) * t)) for gr, t in zip(grads, tangents, strict=True)
                      if gr is not None and t is not None)
    return out


ROWS += [
    structural("lstsq", 2, _lstsq, _lstsq_vjp, "LinalgLstsqBackward0", jvp=_lstsq_jvp, shape=_lstsq_shape,
               params=(Param("rcond", "float", None), Param("driver", "str", None, choices=_DRIVERS)), parts=4,
               fields=("solution", "residuals", "rank", "singular_values"), integer_parts=(2, 3),
               text=_parts_text("torch.linalg.lstsq", {"rcond": None, "driver": None}),
               examples=((((3, 2), (3, 2)), {"part": 0}), (((2, 3), (2,)), {"part": 0}),
                         (((4, 2), (4, 3)), {"part": 1, "driver": "gelsd"})),
               reference="torch.linalg.lstsq(a, b)[0]", reference_program="torch.linalg.lstsq(a, b)[0]",
               dtype_refusals=(("mixed", "RuntimeError", "torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype {0} and other's dtype {1}"),)),
]
