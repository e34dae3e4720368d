"""NumPy's spellings mean NumPy's semantics (issue #21), held to HIPS autograd's own tests.

HIPS autograd differentiates NumPy code as people write it; each row here is one of the cases of its tests
(tests/test_numpy.py, test_systematic.py, test_linalg.py), written as a gradcli formula on fixed inputs. The
formula is Python too: NumPy runs it (`np` is numpy) for the expected value, and central differences of
NumPy's value give the expected gradient, seeded by fixed weights where the value is not one number. Where
NumPy raises, gradcli refuses the call (exit 2).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import GradcliError
from tests.helpers import central_difference, cli


def values(*shape: int, lo: float = -2.0, hi: float = 2.0, start: int = 1) -> np.ndarray:
    """Fixed numbers in [lo, hi), no two alike and no pattern a matrix could be singular by: the fractional
    parts of a quadratic in k (a float64 for an empty shape)."""
    k = np.arange(start, start + int(np.prod(shape)), dtype=float)
    fraction = (k * k * 0.6180339887498949 + k * 0.41421356237309515) % 1.0
    return (fraction * (hi - lo) + lo).reshape(shape)


def positive_definite(n: int, start: int = 1) -> np.ndarray:
    a = values(n, n, start=start)
    return a @ a.T + n * np.eye(n)


V = values
SPD = positive_definite

# (formula, inputs): HIPS autograd's cases, as a user writes them after `import numpy as np`
CASES: list[tuple[str, dict[str, Any]]] = [
    # np.dot: NumPy's product of any shapes (a number scales, N-D sums a's last axis against b's second-to-last)
    ("np.dot(x, y)", {"x": V(4, 5), "y": V(5, start=30)}),
    ("np.dot(x, y)", {"x": V(4, 5), "y": V(5, 3, start=30)}),
    ("np.dot(x, y)", {"x": V(4), "y": V(4, 5, start=30)}),
    ("np.dot(x, y)", {"x": V(5), "y": V(5, start=30)}),
    ("np.dot(x, y)", {"x": V(4, 5), "y": V(start=30)}),
    ("np.dot(x, y)", {"x": V(), "y": V(4, 5)}),
    ("np.dot(x, y)", {"x": V(2, 2, 3), "y": V(2, 3, 4, start=30)}),
    ("np.dot(x, y)", {"x": V(2, 3), "y": V(2, 3, 4, start=30)}),
    ("np.dot(x, y)", {"x": V(2, 2, 3), "y": V(3, start=30)}),
    ("np.trace(np.dot(m, m))", {"m": np.array([[1.0, 2.0], [3.0, 4.0]])}),
    ("np.sum(np.dot(A, B))", {"A": V(3, 4), "B": V(4, 2, start=20)}),
    ("np.dot(x[:2], x[2:])", {"x": V(4)}),
    ("np.outer(x, y)", {"x": V(4), "y": V(3, start=9)}),
    ("np.inner(a, b)", {"a": V(2, 3), "b": V(4, 3, start=20)}),
    ("np.inner(a, b)", {"a": V(3), "b": V(3, start=20)}),
    ("np.matmul(a, b)", {"a": V(2, 2, 3), "b": V(2, 3, 4, start=20)}),
    ("np.matmul(a, b)", {"a": V(1, 2, 2), "b": V(3, 2, 1, start=20)}),
    ("a @ b", {"a": V(3), "b": V(3, 4, start=20)}),
    ("np.kron(a, b)", {"a": V(3, 3), "b": V(2, 2, start=20)}),
    ("np.kron(a, b)", {"a": V(3), "b": V(2, start=20)}),
    ("np.tensordot(x * np.ones((2, 2)), x * np.ones((2, 2)), 2)", {"x": V()}),
    ("np.tensordot(a, b)", {"a": V(3, 2, 2), "b": V(2, 2, 4, start=20)}),
    ("np.tensordot(a, b, axes=((1,), (0,)))", {"a": V(2, 3, 2), "b": V(3, 4, 2, start=20)}),
    ("np.tensordot(a, b, ((1,), (0,)))", {"a": V(2, 3, 2), "b": V(3, 4, 2, start=20)}),
    ("np.tensordot(a, b, axes=[(0,), (1,)])", {"a": V(3, 4, 2), "b": V(2, 3, 2, start=20)}),
    ("np.tensordot(a, b, axes=[(0, 1), (1, 2)])", {"a": V(2, 3, 4), "b": V(2, 2, 3, 4, start=20)}),
    ("np.tensordot(a, b, axes=[(1, 0), (2, 1)])", {"a": V(2, 3), "b": V(1, 2, 3, start=20)}),
    ("np.tensordot(a, b, axes=1)", {"a": V(4, 2, 2), "b": V(2, 2, 4, start=20)}),
    ("np.tensordot(a, b, axes=2)", {"a": V(4, 2, 2), "b": V(2, 2, 4, start=20)}),
    ("np.tensordot(a, b, axes=0)", {"a": V(4), "b": V(3, start=20)}),
    ("np.tensordot(a, b, axes=[[-1], [0]])", {"a": V(2, 6), "b": V(6, 3, start=20)}),
    ("np.tensordot(a, b, axes=[-1, 0])", {"a": V(2, 6), "b": V(6, 3, start=20)}),
    ("np.tensordot(a, b, axes=[0, 1])", {"a": V(2), "b": V(2, 2, start=20)}),
    ("np.linalg.multi_dot([a, b, c])", {"a": V(2, 3), "b": V(3, 4, start=20), "c": V(4, 2, start=50)}),
    # reductions: axis=, keepdims=, NumPy's values alone
    ("np.max(x)", {"x": V(4, 5)}),
    ("np.max(x, axis=1)", {"x": V(3, 4, 5)}),
    ("np.max(x, axis=1, keepdims=True)", {"x": V(3, 4, 5)}),
    ("np.max(x, 1)", {"x": V(3, 4, 5)}),
    ("np.amax(x, 1)", {"x": V(3, 4, 5)}),
    ("np.min(x, axis=1)", {"x": V(3, 4, 5)}),
    ("np.min(x, axis=1, keepdims=True)", {"x": V(3, 4, 5)}),
    ("np.amin(x, axis=0)", {"x": V(3, 4)}),
    ("np.sum(x)", {"x": V(3, 4)}),
    ("np.sum(x, axis=0)", {"x": V(3, 4)}),
    ("np.sum(x, axis=0, keepdims=True)", {"x": V(3, 4)}),
    ("np.sum(x, axis=(1, 2))", {"x": V(3, 4, 2)}),
    ("np.sum(x, 1)", {"x": V(3, 4)}),
    ("np.sum(x, axis=-1)", {"x": V(3, 4)}),
    ("np.mean(x)", {"x": V(3, 4)}),
    ("np.mean(x, axis=0)", {"x": V(3, 4)}),
    ("np.mean(x, axis=0, keepdims=True)", {"x": V(3, 4)}),
    ("np.mean(x, 1)", {"x": V(3, 4)}),
    ("np.mean(x, axis=(0, 1))", {"x": V(3, 4, 2)}),
    ("np.average(x)", {"x": V(3, 4)}),
    ("np.average(x, 0)", {"x": V(3, 4)}),
    ("np.average(x, axis=1, keepdims=True)", {"x": V(3, 4)}),
    ("np.prod(x)", {"x": V(2, 3, lo=0.1, hi=1.5)}),
    ("np.prod(x, axis=0)", {"x": V(2, 3, lo=0.1, hi=1.5)}),
    ("np.prod(x, axis=0, keepdims=True)", {"x": V(2, 3, lo=0.1, hi=1.5)}),
    ("np.prod(x, 1)", {"x": V(3, 4)}),
    ("np.var(x, ddof=1)", {"x": V(3)}),
    ("np.var(x, axis=1, ddof=1, keepdims=True)", {"x": V(3, 4)}),
    ("np.var(x, axis=None, keepdims=True, ddof=0)", {"x": V(3, 4)}),
    ("np.var(x, axis=1, ddof=2)", {"x": V(3, 4)}),
    ("np.var(x, 1)", {"x": V(3, 4)}),
    ("np.std(x, ddof=1)", {"x": V(3)}),
    ("np.std(x, axis=1, ddof=2, keepdims=True)", {"x": V(3, 4)}),
    ("np.std(x, 0)", {"x": V(3, 4)}),
    ("np.cumsum(x, axis=0)", {"x": V(3, 4)}),
    ("np.cumsum(x, axis=1)", {"x": V(3, 4)}),
    ("np.cumsum(x, 0)", {"x": V(3, 4)}),
    ("np.cumsum(x)", {"x": V(5)}),
    ("np.cumprod(x, axis=1)", {"x": V(3, 4)}),
    ("np.cumsum(x)", {"x": V(3, 4)}),  # (no axis: NumPy's running sum of the array flattened)
    ("np.cumprod(x)", {"x": V(2, 3)}),
    ("np.quantile(x, 0.3)", {"x": V(5)}),
    ("np.quantile(x, 0.3, axis=1)", {"x": V(3, 5)}),
    ("np.quantile(x, 0.3, axis=1, keepdims=True)", {"x": V(3, 5)}),
    ("np.quantile(x, 0.25, method='midpoint')", {"x": V(6)}),
    # np.median: the mean of the two middle values of an even count (torch.median's is the lower), values alone
    ("np.median(x)", {"x": V(5)}),
    ("np.median(x)", {"x": V(6)}),
    ("np.median(x, axis=1)", {"x": V(3, 4)}),
    ("np.median(x, 0)", {"x": V(4, 3)}),
    ("np.median(x, axis=1, keepdims=True)", {"x": V(3, 4)}),
    ("np.nanmedian(x)", {"x": V(4)}),
    ("np.percentile(x, 30)", {"x": V(5)}),
    ("np.percentile(x, 30, axis=1)", {"x": V(3, 5)}),
    ("np.percentile(x, 50, method='lower')", {"x": V(6)}),
    ("np.nansum(x)", {"x": V(3, 4)}),
    ("np.nanmean(x, axis=0)", {"x": V(3, 4)}),
    ("np.logaddexp(a, b)", {"a": V(3), "b": V(3, start=8)}),
    ("np.sort(x)", {"x": V(7)}),
    ("np.sort(x, axis=0)", {"x": V(3, 4)}),
    ("np.sort(x)", {"x": V(3, 4)}),
    # shapes
    ("np.flipud(x)", {"x": V(3, 4)}),
    ("np.fliplr(x)", {"x": V(3, 4)}),
    ("np.flip(x)", {"x": V(3, 4)}),
    ("np.flip(x, 0)", {"x": V(3, 4)}),
    ("np.flip(x, axis=1)", {"x": V(3, 4)}),
    ("np.rot90(x)", {"x": V(3, 4)}),
    ("np.rot90(x, 2)", {"x": V(3, 4)}),
    ("x.T", {"x": V(3, 4)}),
    ("np.transpose(x)", {"x": V(2, 3, 4)}),
    ("np.transpose(x, (2, 0, 1))", {"x": V(2, 3, 4)}),
    ("np.transpose(x, axes=[1, 2, 0])", {"x": V(2, 3, 4)}),
    ("np.swapaxes(x, 0, 1)", {"x": V(2, 3)}),
    ("np.repeat(x, 2, axis=1)", {"x": V(5, 3, 4)}),
    ("np.repeat(x, 2, axis=0)", {"x": V(5)}),
    ("np.repeat(x, 2)", {"x": V(2, 3)}),  # (no axis: of the array flattened)
    ("np.repeat(x, 0, axis=1)", {"x": V(3, 1)}),
    ("np.array_split(x, 3)[0]", {"x": V(7)}),
    ("np.split(x, 2)[1]", {"x": V(4, 8)}),
    ("np.split(x, [1, 2], axis=1)[2]", {"x": V(4, 8)}),
    ("np.split(x, 4, 1)[3]", {"x": V(4, 8)}),
    ("np.array_split(x, [1, 3], axis=1)[1]", {"x": V(2, 5)}),
    ("np.pad(x, 2)", {"x": V(2, 2)}),
    ("np.pad(x, (1,))", {"x": V(2, 3)}),
    ("np.pad(x, (3, 2), 'constant')", {"x": V(2, 2)}),
    ("np.pad(x, ((1, 2), (3, 4)))", {"x": V(2, 2)}),
    ("np.pad(x, ((1, 0),))", {"x": V(2, 3)}),
    ("np.pad(x, [[0, 1], [2, 0]], constant_values=1.5)", {"x": V(2, 3)}),
    ("np.reshape(x, (20, 6))", {"x": V(5, 6, 4)}),
    ("x.reshape((20, 6))", {"x": V(5, 6, 4)}),
    ("x.reshape(20, 6)", {"x": V(5, 6, 4)}),
    ("np.ravel(x)", {"x": V(5, 6, 4)}),
    ("x.ravel()", {"x": V(5, 6, 4)}),
    ("x.flatten()", {"x": V(5, 6, 4)}),
    ("np.squeeze(x)", {"x": V(5, 1, 4)}),
    ("x.squeeze()", {"x": V(5, 1, 4)}),
    ("np.squeeze(x, axis=1)", {"x": V(5, 1, 4)}),
    ("np.expand_dims(x, 2)", {"x": V(5, 1, 4)}),
    ("np.expand_dims(x, axis=0)", {"x": V(5)}),
    ("np.moveaxis(x, 0, 2)", {"x": V(2, 3, 4)}),
    ("np.moveaxis(x, source=1, destination=0)", {"x": V(2, 3, 4)}),
    ("np.swapaxes(x, 0, 2)", {"x": V(3, 4, 5)}),
    ("np.swapaxes(x, axis1=1, axis2=2)", {"x": V(3, 4, 5)}),
    ("np.atleast_1d(x)", {"x": V()}),
    ("np.atleast_2d(x)", {"x": V(7)}),
    ("np.atleast_3d(x)", {"x": V(2, 4)}),
    ("np.atleast_3d(x)", {"x": V(7)}),
    ("np.broadcast_to(x, (3, 4))", {"x": V(4)}),
    ("np.tile(x, (1, 4, 1, 2))", {"x": V(2, 1, 3, 1)}),
    ("np.tile(x, (3, 2, 1))", {"x": V(1, 2)}),
    ("np.tile(x, 2)", {"x": V(1)}),
    ("np.roll(x, 2, axis=1)", {"x": V(4, 5)}),
    ("np.roll(x, 2)", {"x": V(4, 5)}),
    ("np.diff(x, axis=0)", {"x": V(4, 5)}),
    ("np.diff(x, n=2, axis=1)", {"x": V(4, 5)}),
    ("np.diff(x)", {"x": V(4, 5)}),
    ("np.concatenate((a, x))", {"a": V(3, 2, 4), "x": V(2, 2, 4, start=30)}),
    ("np.concatenate((b, x, b), axis=1)", {"b": V(3, 2, 4), "x": V(3, 2, 4, start=30)}),
    ("np.concatenate((b, x, b), 1)", {"b": V(3, 2, 4), "x": V(3, 2, 4, start=30)}),
    ("np.concatenate([b, x])", {"b": V(1), "x": V(3, start=30)}),
    ("np.vstack((a, b))", {"a": V(2, 4), "b": V(1, 4, start=20)}),
    ("np.vstack([a, b])", {"a": V(2), "b": V(2, start=20)}),
    ("np.hstack((a, b))", {"a": V(3, 4), "b": V(3, 5, start=20)}),
    ("np.hstack((a, b))", {"a": V(2), "b": V(2, start=20)}),
    ("np.stack((a, b), axis=1)", {"a": V(2), "b": V(2, start=20)}),
    ("np.stack([a, b])", {"a": V(2), "b": V(2, start=20)}),
    ("np.column_stack((a, b))", {"a": V(2), "b": V(2, start=20)}),
    ("np.dstack((a, b))", {"a": V(2, 2), "b": V(2, 2, start=20)}),
    ("np.hsplit(x, 4)[1]", {"x": V(4, 8)}),
    ("np.vsplit(x, 2)[1]", {"x": V(4, 8)}),
    ("np.where(c > 0, x, y)", {"c": V(4, 5, start=50), "x": V(4, 5), "y": V(4, 5, start=20)}),
    ("np.clip(x, a_min=0.1, a_max=1.1)", {"x": V(5, 5)}),
    ("np.clip(x, 0.1, 1.1)", {"x": V(5, 5)}),
    ("np.triu(x, k=2)", {"x": V(5, 5)}),
    ("np.tril(x, k=-1)", {"x": V(5, 5)}),
    ("np.tril(x)", {"x": V(5, 5, 4)}),
    ("np.triu(x, 1)", {"x": V(5, 5, 4)}),
    ("np.diag(x)", {"x": V(4, 4)}),
    ("np.diag(x, k=1)", {"x": V(4, 4)}),
    ("np.diag(x, -1)", {"x": V(4, 4)}),
    ("np.diag(x)", {"x": V(4)}),
    ("np.diag(x, k=1)", {"x": V(4)}),
    ("np.diagonal(x)", {"x": V(3, 4)}),
    ("np.diagonal(x, 1)", {"x": V(3, 4)}),
    ("np.diagonal(x, offset=1, axis1=1, axis2=2)", {"x": V(2, 3, 4)}),
    ("np.diagonal(x, axis1=-1, axis2=-2)", {"x": V(2, 3, 3)}),
    ("np.trace(x)", {"x": V(4, 5)}),
    ("np.trace(x, offset=2)", {"x": V(4, 5)}),
    ("np.trace(x, offset=-1)", {"x": V(5, 4)}),
    ("np.trace(x, 1)", {"x": V(5, 4)}),
    ("np.trace(x, offset=5)", {"x": V(3, 4)}),
    ("np.trace(x, offset=1)", {"x": V(3, 4, 5)}),  # (axes 0 and 1 of an array of three)
    ("np.trace(x, 0, 1, 2)", {"x": V(2, 3, 3)}),
    ("np.trace(x, axis1=2, axis2=0)", {"x": V(2, 3, 2)}),
    ("np.cross(a, b)", {"a": V(3, 3), "b": V(3, 3, start=20)}),
    ("np.cross(a, b, axis=0)", {"a": V(3, 2), "b": V(3, 2, start=20)}),
    ("np.nan_to_num(x)", {"x": V(4)}),
    ("np.sum(np.sin(np.nan_to_num(x + np.array([0.0, np.nan, np.inf, -np.inf]))))", {"x": V(4)}),
    ("np.maximum(x, x)", {"x": V()}),
    ("np.maximum(a, b)", {"a": V(1, 4), "b": V(3, 4, start=20)}),
    ("a % b", {"a": V(3, 2), "b": V(1, 2, lo=-2.0, hi=-0.3, start=40)}),
    # np.array of values computed from inputs: that list, the gradient flowing through (HIPS's ArrayBox)
    ("np.array([x, x * 1.0, x + 2.5])", {"x": V()}),
    ("np.array([[x, x * 1.0, x + 2.5], [x**2, x, x / 2.0]])", {"x": V()}),
    ("np.array([x, x * 1.0, x + 2.5]) + np.array([x, x * 1.0, x + 2.5])", {"x": V()}),
    ("np.array([x, x])", {"x": V(3, 2)}),
    ("np.array([[2 * x, x + 1], [x, x]])", {"x": V(3, 2)}),
    ("np.asarray([x, 2.0])", {"x": V()}),
    ("np.mean(np.array([x, x + 2]))", {"x": np.float64(0.0)}),
    ("np.std(np.array([x, x + 2]))", {"x": np.float64(0.0)}),
    ("np.var(np.array([x, x + 2]))", {"x": np.float64(0.0)}),
    ("np.linalg.norm(np.array([x, x + 2]))", {"x": np.float64(0.0)}),
    # ties (test_max_equal_values...): the gradient shared among them, as PyTorch's amax / maximum share it
    ("np.max(np.array([x, x]))", {"x": np.float64(1.0)}),
    ("np.max(np.array([[x, x], [x, 0.5]]), axis=1)", {"x": np.float64(1.0)}),
    ("np.max(np.array([[x, x], [x, 0.5]]), axis=1)", {"x": np.float64(-1.0)}),
    ("np.min(np.array([[x, x, x], [x, 0.5, 0.5], [0.5, 0.5, 0.5], [x, x, 0.5]]), axis=0)", {"x": np.float64(1.0)}),
    ("np.min(np.array([[x, x, x], [x, 0.5, 0.5], [0.5, 0.5, 0.5], [x, x, 0.5]]), axis=0)", {"x": np.float64(-1.0)}),
    ("np.maximum(np.array([x, x, 0.5]), np.array([[x, 0.5, x], [x, x, 0.5]]))", {"x": np.float64(1.0)}),
    ("np.maximum(np.array([x, x, 0.5]), np.array([[x, 0.5, x], [x, x, 0.5]]))", {"x": np.float64(-1.0)}),
    ("np.maximum(np.array([x, x, 0.5]), np.array([[x, 0.5, x], [x, x, 0.5]]))", {"x": np.float64(2.0)}),
    # indexing
    ("x[3, 0, 1]", {"x": V(5, 6, 4)}),
    ("x[::-1, 2:4, :]", {"x": V(5, 6, 4)}),
    ("x[[0, 1, 2], :, :]", {"x": V(5, 6, 4)}),
    ("np.sum(x[[0, 0]])", {"x": V(3)}),
    ("np.sum(x[[0, 1, 0]])", {"x": V(3)}),
    ("np.sum(x[::-1, 2:4, :] + x[::-1, 3:5, :])", {"x": V(5, 6, 4)}),
    # einsum (letters only)
    ("np.einsum('ij->ji', x)", {"x": V(3, 4)}),
    ("np.einsum('ij,jk->ik', a, b)", {"a": V(2, 3), "b": V(3, 4, start=20)}),
    ("np.einsum('ijk,lji->lki', a, b)", {"a": V(3, 4, 4), "b": V(4, 4, 3, start=20)}),
    ("np.einsum('ijk,lji,lli->lki', a, b, c)", {"a": V(3, 4, 4), "b": V(4, 4, 3, start=20), "c": V(4, 4, 3, start=60)}),
    ("np.einsum('k,nk->', a, b)", {"a": V(5), "b": V(10, 5, start=20)}),
    ("np.einsum('abcd->bd', a)", {"a": V(3, 2, 3, 2)}),
    ("np.einsum('ij,k', a, b)", {"a": V(3, 4), "b": V(3, start=20)}),
    ("np.einsum('ii', a)", {"a": V(3, 3)}),
    ("np.einsum('ii->i', a)", {"a": V(3, 3)}),
    # linear algebra (a symmetric matrix built from one triangle, as HIPS's check_symmetric_matrix_grads)
    ("np.linalg.inv(x)", {"x": SPD(4)}),
    ("np.linalg.inv(x)", {"x": V(3, 3, 3) + 5 * np.eye(3)}),
    ("np.linalg.pinv(x)", {"x": V(5, 3)}),
    ("np.linalg.pinv(x)", {"x": V(2, 5, 3)}),
    ("np.linalg.solve(a, b)", {"a": V(4, 4) + 10 * np.eye(4), "b": V(4, 3, start=40)}),
    ("np.linalg.solve(a, b)", {"a": V(4, 4) + 10 * np.eye(4), "b": V(4, start=40)}),
    ("np.linalg.solve(a, b)", {"a": V(3, 4, 4) + 5 * np.eye(4), "b": V(3, 4, 5, start=40)}),
    ("np.linalg.solve(a, b)", {"a": V(3, 2, 2) + 3 * np.eye(2), "b": V(2, start=40)}),
    # (NumPy 2: a b of two axes or more is a stack of matrices, even of a's shape without its last axis)
    ("np.linalg.solve(a, b)", {"a": V(2, 2, 2) + 3 * np.eye(2), "b": V(2, 2, start=40)}),
    ("np.linalg.solve(a, b)", {"a": V(2, 3, 3) + 3 * np.eye(3), "b": V(3, 2, start=40)}),
    ("np.linalg.det(x)", {"x": V(4, 4)}),
    ("np.linalg.det(x)", {"x": V(3, 3, 3)}),
    ("np.linalg.slogdet(x)[1]", {"x": V(4, 4)}),
    ("np.linalg.slogdet(-x)[1]", {"x": V(4, 4)}),
    ("np.linalg.slogdet(x).logabsdet", {"x": V(4, 4)}),
    ("np.sum(np.linalg.slogdet(x)[1])", {"x": np.stack([SPD(3, start=s) for s in (1, 20, 40)])}),
    ("np.linalg.norm(x)", {"x": V(6)}),
    ("np.linalg.norm(x)", {"x": V(5, 4)}),
    ("np.linalg.norm(x, axis=(0, 1))", {"x": V(4, 3, 2)}),
    ("np.linalg.norm(x, ord=3)", {"x": V(6)}),
    ("np.linalg.norm(x, ord=4)", {"x": V(6)}),
    ("np.linalg.norm(x, 1)", {"x": V(6)}),
    ("np.linalg.norm(x, np.inf)", {"x": V(6)}),
    ("np.linalg.norm(x, axis=1)", {"x": V(4, 3, 2)}),
    ("np.linalg.norm(x, axis=0)", {"x": V(4, 3, 2)}),
    ("np.linalg.norm(x, ord='nuc')", {"x": V(4, 3)}),
    ("np.linalg.norm(x, ord='fro')", {"x": V(4, 3)}),
    ("np.linalg.norm(x, 'fro')", {"x": V(4, 3)}),
    ("np.linalg.norm(x, ord=1)", {"x": V(4, 3)}),
    ("np.linalg.norm(x, ord=2)", {"x": V(4, 3)}),
    ("np.linalg.norm(x, ord=-1)", {"x": V(4, 3)}),
    ("np.linalg.norm(x, ord=np.inf)", {"x": V(4, 3)}),
    ("np.linalg.norm(x, ord='nuc', axis=(0, 1))", {"x": V(4, 3, 2)}),
    ("np.linalg.norm(x, axis=1, keepdims=True)", {"x": V(4, 3)}),
    ("np.linalg.eigh(np.tril(x) + np.tril(x, -1).T)[0]", {"x": SPD(4)}),
    ("np.linalg.eigh(np.triu(x) + np.triu(x, 1).T, 'U')[0]", {"x": SPD(4)}),
    ("np.linalg.eigvalsh(np.tril(x) + np.tril(x, -1).T)", {"x": SPD(4)}),
    ("np.abs(np.linalg.eigh(np.tril(x) + np.tril(x, -1).T)[1])", {"x": SPD(4)}),
    ("np.linalg.cholesky(np.tril(x) + np.tril(x, -1).T)", {"x": SPD(4)}),
    ("np.linalg.svd(x, full_matrices=False)[1]", {"x": V(3, 5)}),
    ("np.abs(np.linalg.svd(x, full_matrices=False)[0])", {"x": V(5, 3)}),
    # compute_uv=False: the singular values alone, as NumPy returns them (by keyword or by position)
    ("np.linalg.svd(x, compute_uv=False)", {"x": V(3, 5)}),
    ("np.linalg.svd(x, False, False)", {"x": V(4, 2)}),
    ("np.linalg.svd(x, compute_uv=False, hermitian=False)", {"x": V(2, 3, 2)}),
    ("np.linalg.qr(x)[1]", {"x": V(4, 3)}),
    ("np.linalg.matrix_power(x, 3)", {"x": V(3, 3)}),
    ("np.linalg.lstsq(a, b)[0]", {"a": V(5, 3), "b": V(5, start=20)}),
    ("np.linalg.lstsq(a, b, rcond=None)[0]", {"a": V(5, 3), "b": V(5, start=20)}),
    # constants and constructors beside inputs
    ("np.zeros_like(x) + x", {"x": V(3)}),
    ("np.ones_like(x) * x", {"x": V(3)}),
    ("np.eye(3) * x", {"x": V(3, 3)}),
    ("np.triu(np.ones((3, 3))) * x", {"x": V(3, 3)}),
    ("np.round(x, 1)", {"x": V(3)}),
    ("np.around(x, 1)", {"x": V(3)}),
    ("np.rint(x)", {"x": V(4)}),
    ("np.fix(x)", {"x": V(4)}),
    ("np.fabs(x)", {"x": V(4, lo=0.1)}),
    ("np.degrees(x)", {"x": V(4)}),
    ("np.radians(x)", {"x": V(4)}),
    ("np.heaviside(x, 0.5)", {"x": V(3)}),
    # test_scalar_ops.py's special points: x ** 0 at 0, 0 ** y, sign away from 0
    ("np.power(x, 0.0)", {"x": np.float64(0.0)}),
    ("np.power(0.0, y)", {"y": np.float64(0.3)}),
    ("3.0 * np.sign(x)", {"x": np.float64(-1.1)}),
    ("np.mod(x, y)", {"x": np.float64(0.7), "y": np.float64(0.3)}),
    ("np.sum(np.abs(x))", {"x": V(4)}),
    ("np.exp(x).sum(axis=0)", {"x": V(3, 4)}),
]

# test_systematic.py's unary and binary ufuncs, each in its domain (lo, hi)
UNARY = [("sin", -2, 2), ("abs", 0.1, 4), ("absolute", 0.1, 4), ("arccosh", 1.1, 4), ("arcsinh", -0.9, 0.9),
         ("arctanh", -0.9, 0.9), ("cos", -2, 2), ("cosh", -2, 2), ("deg2rad", -2, 2), ("exp", -2, 2), ("exp2", -2, 2),
         ("expm1", -2, 2), ("log", 0.2, 2), ("log10", 0.2, 2), ("log1p", 0.2, 2), ("log2", 0.2, 2), ("rad2deg", -2, 2),
         ("sign", -2, 2), ("sinh", -2, 2), ("sqrt", 1, 3), ("square", -2, 2), ("tan", -1.1, 1.1), ("tanh", -2, 2),
         ("arcsin", -0.9, 0.9), ("arccos", -0.9, 0.9), ("arctan", -2, 2), ("negative", -2, 2), ("reciprocal", 0.5, 2),
         ("floor", -1.5, 1.5), ("ceil", -1.5, 1.5), ("trunc", -1.5, 1.5), ("sinc", -2, 2), ("positive", -2, 2),
         ("real", -2, 2), ("conj", -2, 2)]
BINARY = [("add", (-2, 2), (-2, 2)), ("logaddexp", (-2, 2), (-2, 2)), ("logaddexp2", (-2, 2), (-2, 2)),
          ("remainder", (-0.9, 0.9), (0.7, 1.9)), ("true_divide", (-2, 2), (0.8, 1.2)), ("mod", (-2, 2), (0.8, 2.1)),
          ("mod", (-2, 2), (-2.0, -0.3)), ("fmod", (-2, 2), (0.8, 2.1)), ("subtract", (-2, 2), (-2, 2)),
          ("multiply", (-2, 2), (-2, 2)), ("divide", (-2, 2), (0.8, 1.2)), ("power", (0.5, 2), (-2, 2)),
          ("maximum", (-2, 2), (-2, 2)), ("minimum", (-2, 2), (-2, 2)), ("fmax", (-2, 2), (-2, 2)),
          ("fmin", (-2, 2), (-2, 2)), ("arctan2", (-2, 2), (-2, 2)), ("hypot", (-2, 2), (-2, 2)),
          ("copysign", (-2, 2), (-2, 2)), ("float_power", (0.5, 2), (-2, 2)), ("floor_divide", (-2, 2), (0.8, 2.1))]
CASES += [(f"np.{name}(x)", {"x": V(3, 2, lo=lo, hi=hi)}) for name, lo, hi in UNARY]
CASES += [(f"np.{name}(a, b)", {"a": V(3, 2, lo=a[0], hi=a[1]), "b": V(1, 2, lo=b[0], hi=b[1], start=40)})
          for name, a, b in BINARY]


def _numpy(formula: str, point: dict[str, Any]) -> np.ndarray:
    return np.asarray(eval(formula, {"np": np}, dict(point)), dtype=float)  # (the table's own formulas)


def _case_id(case: tuple[str, dict[str, Any]]) -> str:
    formula, point = case
    return f"{formula} at {', '.join(f'{name}{np.shape(value)}' for name, value in point.items())}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(case) for case in CASES])
def test_a_numpy_spelling_gives_numpys_value_and_its_gradient(case):
    formula, point = case
    expected = _numpy(formula, point)
    weights = V(*expected.shape, lo=0.5, hi=1.5, start=77) if expected.shape else None
    result = grad(formula, at=point, seed=weights)
    value = np.asarray(result.value, dtype=float)
    assert value.shape == expected.shape
    assert np.allclose(value, expected, rtol=1e-9, atol=1e-12)
    names = list(point)
    for which, name in enumerate(names):
        def weighted(args: list[np.ndarray]) -> float:
            return float(np.sum((1.0 if weights is None else weights) * _numpy(formula, dict(zip(names, args)))))

        expected_gradient = central_difference(weighted, [np.asarray(point[n], dtype=float) for n in names], which)
        assert np.allclose(result.grad[name], expected_gradient, rtol=1e-5, atol=1e-6), name


def test_the_trace_of_a_matrix_product_from_the_command_line():
    run = cli("grad", "np.trace(np.dot(m, m))", "--at", "m=[[1,2],[3,4]]", "--json")
    assert run.exit_code == 0, run.stderr
    m = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert run.json()["value"] == np.trace(np.dot(m, m))
    assert np.allclose(run.json()["grad"]["m"], 2 * m.T)  # d tr(M M) / dM = 2 M^T


# Calls NumPy raises at: gradcli refuses them (exit 2), never answers another library's way.
NUMPY_RAISES = [
    ("np.dot(a, b)", {"a": V(2, 2), "b": V(3)}),
    ("np.dot(a, b)", {"a": V(2, 3), "b": V(2, 3)}),
    ("np.dot(a, b)", {"a": V(2, 2, 3), "b": V(2, 2, 4)}),
    ("np.linalg.solve(a, b)", {"a": V(3, 4, 4), "b": V(3, 4)}),  # (NumPy 2: b is 3 rows, not 3 vectors)
    ("np.linalg.solve(a, b)", {"a": V(3, 2, 2), "b": V(3, 2)}),
    ("np.linalg.solve(a, b)", {"a": V(2, 3), "b": V(2)}),
    ("np.pad(x, (1, 2, 3))", {"x": V(2, 3)}),
    ("np.pad(x, ((1, 2), (3, 4), (5, 6)))", {"x": V(2, 3)}),
    ("np.pad(x, -1)", {"x": V(2, 3)}),
    ("np.trace(x)", {"x": V(3)}),
    ("np.trace(x, axis1=1, axis2=1)", {"x": V(3, 3)}),
    ("np.transpose(x, (0, 0, 1))", {"x": V(2, 3, 4)}),
    ("np.transpose(x, (0, 1))", {"x": V(2, 3, 4)}),
    ("np.percentile(x, 130)", {"x": V(4)}),
    ("np.percentile(x)", {"x": V(4)}),
    ("np.cumsum(x, 2)", {"x": V(2, 3)}),
    ("np.median(x, 2)", {"x": V(2, 3)}),
    ("np.split(x, 3)[0]", {"x": V(7)}),  # (not an equal division: np.array_split's to do)
]


@pytest.mark.parametrize("case", NUMPY_RAISES, ids=[_case_id(case) for case in NUMPY_RAISES])
def test_what_numpy_refuses_gradcli_refuses(case):
    formula, point = case
    with pytest.raises(Exception):  # noqa: B017  (NumPy's own ValueError or LinAlgError)
        _numpy(formula, point)
    with pytest.raises(GradcliError):
        grad(formula, at=point, seed="ones")


def test_a_refused_numpy_call_says_numpys_words_on_one_line():
    run = cli("grad", "sum(np.dot(a, b))", "--at", "a=[[1,2],[3,4]]", "--at", "b=[1,2,3]")
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "not aligned: 2 (dim 1) != 3 (dim 0)" in run.stderr
    assert "Traceback" not in run.stderr


# NumPy's functions gradcli has no row for (or not this form of): a clean refusal, exit 2, naming it
NOT_SUPPORTED = ["np.append(x, x)", "np.partition(x, 1)", "np.rollaxis(x, 1)", "np.average(x, weights=x)", "np.ptp(x)",
                 "np.cbrt(x)", "np.einsum('...i->...', x)", "np.pad(x, 1, 'edge')",
                 "np.median(x, axis=(0, 1))", "np.linalg.svd(x, hermitian=True)", "torch.tensor([x, x])",
                 "np.array([x, x], dtype=np.int64)"]


@pytest.mark.parametrize("formula", NOT_SUPPORTED)
def test_a_numpy_function_without_a_row_is_a_clean_refusal(formula):
    run = cli("grad", formula, "--at", "x=[[1,2],[3,4]]", "--seed", "ones")
    assert run.exit_code == 2, run.stderr
    assert run.stdout == ""
    assert run.stderr.startswith("gradcli: error:")
    assert "Traceback" not in run.stderr


# Under `gradcli run`, np.sum(t), np.mean(t), np.max(t) ... of a torch tensor call the tensor's own method with
# NumPy's keywords (t.sum(axis=None, out=None)), which PyTorch's methods refuse in words of their parser: a clean
# refusal naming it (exit 2), never a tensor (it was one, a value PyTorch never gives); a PyTorch module gradcli
# lacks, imported, is refused where it is used, not where it is imported
@pytest.mark.parametrize(("line", "said"), [
    ("np.sum(t)", "np.sum of a torch tensor is not supported"),
    ("np.mean(t, axis=0)", "np.mean of a torch tensor is not supported"),
    ("np.std([t, t])", "np.std of a torch tensor is not supported"),
    ("np.set_printoptions(formatter={'float': str})", "np.set_printoptions(formatter=...) is not supported"),
    ("from torch.nn.utils.rnn import pack_padded_sequence\npack_padded_sequence(t, [2])",
     "'torch.nn.utils.rnn.pack_padded_sequence' is not supported"),
])
def test_run_refuses_what_it_cannot_give_as_pytorch_with_numpy_does(tmp_path, line, said):
    path = tmp_path / "program.py"
    path.write_text(f"import numpy as np\nimport torch\nt = torch.tensor([1.0, 2.0])\nprint('before')\n{line}\n")
    run = cli("run", str(path))
    assert run.exit_code == 2, (run.stdout, run.stderr)
    assert said in run.stderr and f"line {4 + len(line.splitlines())}" in run.stderr and "^" in run.stderr, run.stderr
    assert run.stdout == "before\n"


def test_numpys_print_options_hold_for_the_run_alone(tmp_path):
    path = tmp_path / "program.py"
    path.write_text("import numpy as np\nnp.set_printoptions(precision=2)\nprint(np.array([1 / 3]))\n")
    assert cli("run", str(path)).stdout == "[0.33]\n"
    assert str(np.array([1 / 3])) == "[0.33333333]"  # (NumPy's own, after the run)
