"""Calls bound as PyTorch's argument parser binds them, through the formula language (issue #21).

What fuzz/call_forms.py found (every positional prefix, keyword order and overload of PyTorch's signatures,
held to PyTorch): each case here is held to an independent reference -- NumPy's own function, or PyTorch's
words where PyTorch refuses the call. `gradcli run` is held to PyTorch's recorded output by the run cases
(tests/run_cases/svd_compute_uv_false.py, call_forms_refused.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import grad

M = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])


def _svd_values_and_gradient(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sum(S) and its gradient U V^T (the reduced factors), by NumPy."""
    u, s, vh = np.linalg.svd(m, full_matrices=False)
    return s.sum(), u @ vh


@pytest.mark.parametrize("program", ["sum(torch.svd(m, True, False)[1])", "sum(torch.svd(m, compute_uv=False).S)",
                                     "sum(m.svd(False, False)[1])", "sum(torch.svd(m, some=False, compute_uv=False)[1])"])
def test_svd_without_vectors_gives_the_singular_values(program):
    value, gradient = _svd_values_and_gradient(M)
    result = grad(program, at={"m": M})
    assert np.isclose(result.value, value, rtol=1e-12)
    assert np.allclose(result.grad["m"], gradient, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("part, shape", [(0, (2, 2)), (2, (3, 3))])
@pytest.mark.parametrize("some", [True, False])
def test_svd_without_vectors_gives_u_and_v_of_zeros(part, shape, some):
    # (PyTorch's U and V are zeros of (m, m) and (n, n) whatever `some` says, and constants)
    result = grad(f"torch.svd(m, {some}, False)[{part}]", at={"m": M}, seed="ones")
    assert np.shape(result.value) == shape
    assert not np.any(result.value)
    assert not np.any(result.grad["m"])
