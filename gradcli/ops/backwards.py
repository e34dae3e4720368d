"""The rows of PyTorch's backward kernels that a gradient made with create_graph=True records as
one node each (sigmoid's gradient is SigmoidBackwardBackward0, relu's ThresholdBackwardBackward0).

Each is the VJP of the row named by its `backward_of`, as a function of (g, the saved tensor): it
gives the bits of that row's derivative, and its own derivative is PyTorch's (derivatives.yaml), so
the gradient of a gradient flows through the saved output as PyTorch's does (relu's gradient
depends on x, through its saved output, though it is piecewise constant in it).

They are rows of the same kind as the table's, but not in ops.OPS: no program calls them by name,
no front end lowers to them, and `gradcli functions` does not list them. gradcli.run.higher applies
them where it records a backward sweep (ROWS, by name); tests/test_run_higher.py holds them to PyTorch.
"""

from __future__ import annotations

from typing import Any

from gradcli.ops.core import Op, Param, elementwise, load_sympy
from gradcli.ops.elementwise import _softplus_derivative


def _sigmoid_backward_derivative(xp: Any, G: Any, ans: Any, g: Any, y: Any) -> tuple[Any, Any]:
    # grad_output: sigmoid_backward(grad, output); output: grad * grad_output * (-2 * output + 1)
    return G * (1.0 - y) * y, G * g * (-2.0 * y + 1.0)


def _tanh_backward_derivative(xp: Any, G: Any, ans: Any, g: Any, y: Any) -> tuple[Any, Any]:
    # grad_output: tanh_backward(grad, output); output: grad * (-2 * output * grad_output)
    return G * (1.0 - y * y), G * (-2.0 * y * g)


def _threshold_backward(xp: Any, g: Any, y: Any, threshold: float = 0.0) -> Any:
    return xp.where(y <= threshold, 0.0, g)


def _threshold_mask(g: Any, y: Any, threshold: float = 0.0) -> tuple[Any, bool]:
    # grad_output: threshold_backward(grad, self, threshold); self: zeros (a step in y)
    return y <= threshold, True


def _threshold_derivative(xp: Any, G: Any, ans: Any, g: Any, y: Any, threshold: float = 0.0) -> tuple[Any, Any]:
    return G, G


def _sympy_threshold(g: Any, y: Any, threshold: float = 0.0) -> Any:
    sympy = load_sympy()
    return sympy.Piecewise((0, y <= threshold), (g, True))


def _softplus_backward(xp: Any, g: Any, x: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    return _softplus_derivative(xp, g, None, x, beta, threshold)[0]  # (softplus's own VJP: the same bits)


def _softplus_backward_derivative(xp: Any, G: Any, ans: Any, g: Any, x: Any, beta: float = 1.0,
                                  threshold: float = 20.0) -> tuple[Any, Any]:
    # grad_output: softplus_backward(grad, self, beta, threshold); self: softplus_double_backward(grad * grad_output,
    # self, beta, threshold), which is sigmoid_backward(grad * grad_output, sigmoid(self * beta)) * (self * beta <
    # threshold) * beta
    scaled = x * beta
    s = 1.0 / (1.0 + xp.exp(-scaled))
    return _softplus_backward(xp, G, x, beta, threshold), G * g * (1.0 - s) * s * xp.where(scaled < threshold, 1.0, 0.0) * beta


def _sympy_softplus_backward(g: Any, x: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    sympy = load_sympy()
    return sympy.Piecewise((g, x * beta > threshold), (g / (1 + sympy.exp(-x * beta)), True))


_TWO: tuple[tuple[tuple[tuple[int, ...], ...], dict[str, Any]], ...] = tuple((shapes, {}) for shapes in [((), ()), ((4,), (4,)), ((2, 3), (2, 3))])

ROWS: list[Op] = [
    # The copy AccumulateGrad makes of a gradient with a graph: backward(create_graph=True)'s x.grad.
    elementwise("grad_copy", 1, lambda xp, x: xp.where(True, x, x), lambda xp, g, ans, x: (g,), "CopyBackwards",
                sympy=lambda x: x, callable=False, reference=None, linear=True, ufuncs=(), dtype="keeps"),
    elementwise("sigmoid_backward", 2, lambda xp, g, y: g * (1.0 - y) * y, _sigmoid_backward_derivative,
                "SigmoidBackwardBackward0", sympy=lambda g, y: g * (1 - y) * y, callable=False, reference=None,
                backward_of="sigmoid", examples=_TWO, domain=((-2.0, 2.0), (0.1, 0.9))),
    elementwise("tanh_backward", 2, lambda xp, g, y: g * (1.0 - y * y), _tanh_backward_derivative,
                "TanhBackwardBackward0", sympy=lambda g, y: g * (1 - y * y), callable=False, reference=None,
                backward_of="tanh", examples=_TWO, domain=((-2.0, 2.0), (-0.9, 0.9))),
    elementwise("threshold_backward", 2, _threshold_backward, _threshold_derivative, "ThresholdBackwardBackward0",
                mask=_threshold_mask, sympy=_sympy_threshold, callable=False, reference=None, backward_of="relu",
                params=(Param("threshold", "float", 0.0),), examples=_TWO, kinked=True),
    elementwise("softplus_backward", 2, _softplus_backward, _softplus_backward_derivative, "SoftplusBackwardBackward0",
                sympy=_sympy_softplus_backward, callable=False, reference=None, backward_of="softplus",
                params=(Param("beta", "float", 1.0), Param("threshold", "float", 20.0)), examples=_TWO,
                domain=((-2.0, 2.0), (-3.0, 3.0))),
]
# the rows whose saved tensor is the op's input (derivatives.yaml's `self`), not its output
SAVES_INPUT = frozenset({"softplus_backward"})

BY_NAME = {op.name: op for op in ROWS}
