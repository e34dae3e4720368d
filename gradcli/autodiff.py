"""Where the library's names have always been importable from; they live in their own modules now.

engine.py (forward, backward, jvp_sweep), derivatives.py (grad, jacobian, jvp, hessian and
their results), batch.py (grad_batch, jvp_batch, jacobian_batch), torch_graph.py
(torch_name, backward_graph), diagnostics.py (non-finite warnings), verify.py (check).
"""

from __future__ import annotations

from typing import Any

from gradcli.batch import SWEEP, BatchResult, grad_batch, jacobian_batch, jacobian_points_at_once, jvp_batch
from gradcli.derivatives import (
    GradResult,
    HessianResult,
    JacobianResult,
    JvpResult,
    grad,
    hessian,
    jacobian,
    jvp,
    make_seeds,
    names_of,
    resolve,
)
from gradcli.diagnostics import non_finite_warnings, value_warnings
from gradcli.engine import Step, backward, forward, jvp_sweep, local_derivatives
from gradcli.session import CHUNK
from gradcli.torch_graph import GraphNode, backward_graph, torch_name

__all__ = [
    "CHUNK", "SWEEP", "BatchResult", "GradResult", "GraphNode", "HessianResult", "JacobianResult", "JvpResult", "Step",
    "backward", "backward_graph", "forward", "grad", "grad_batch", "hessian", "jacobian", "jacobian_batch",
    "jacobian_points_at_once", "jvp", "jvp_batch", "jvp_sweep", "local_derivatives", "make_seeds", "names_of",
    "non_finite_warnings", "resolve", "torch_name", "value_warnings",
]


def __getattr__(name: str) -> Any:
    """check, compare, finite_differences and Agreement, where the library has always had them.

    They live in gradcli/verify.py, imported when first asked for: `grad --json` never pays for it.
    """
    if name in ("Agreement", "check", "compare", "finite_differences"):
        from gradcli import verify

        return getattr(verify, name)
    raise AttributeError(f"module 'gradcli.autodiff' has no attribute {name!r}")
