"""torch.autograd.gradcheck and gradgradcheck under `gradcli run`, as PyTorch's slow mode runs them
(torch/autograd/gradcheck.py): the analytical Jacobian from one backward sweep per output element, the
numerical one from central differences (each input element moved by -eps, then +eps, the function run
again each time), compared with allclose(analytical, numerical, rtol, atol) for every input and output;
True, or PyTorch's GradcheckError naming the pair that differs. gradgradcheck draws its grad_outputs
from torch's generator as PyTorch's make_tensor does (uniform in [-1, 1)) and checks the function that
returns the gradients, made with create_graph=True.

Every function run is a run of the file's code, counted by the budget; a tensor of more than
_MAX_ELEMENTS elements is refused before the work (PyTorch's slow mode is one sweep per element).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli.errors import Limits, over_limit
from gradcli.run.python import Builtin
from gradcli.run.tensor import Tensor, TorchError

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

NAMES = ("gradcheck", "gradgradcheck")
GRADCHECK_ERROR = "torch.autograd.gradcheck.GradcheckError"
_MAX_ELEMENTS = 4096  # elements of the inputs (and outputs) checked: each one a run of the function
_GRADCHECK = ["func", "inputs", "eps", "atol", "rtol", "raise_exception", "nondet_tol", "check_undefined_grad",
              "check_grad_dtypes", "check_batched_grad", "check_batched_forward_grad", "check_forward_ad",
              "check_backward_ad", "fast_mode", "masked"]
_GRADGRADCHECK = ["func", "inputs", "grad_outputs", "eps", "atol", "rtol", "gen_non_contig_grad_outputs",
                  "raise_exception", "nondet_tol", "check_undefined_grad", "check_grad_dtypes", "check_batched_grad",
                  "check_fwd_over_rev", "check_rev_over_rev", "fast_mode", "masked"]
_UNSUPPORTED = ("check_batched_grad", "check_batched_forward_grad", "check_forward_ad", "check_fwd_over_rev",
                "fast_mode", "masked", "gen_non_contig_grad_outputs")


def call(interpreter: Interpreter, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> bool:
    from gradcli.run.interpreter import _python_bind

    if len(args) > 2:  # (everything after inputs is keyword-only in PyTorch)
        raise TorchError("TypeError", f"{name}() takes 2 positional arguments but {len(args)} were given")
    bound = _python_bind(name, _GRADCHECK if name == "gradcheck" else _GRADGRADCHECK, args, kwargs)
    for required in ("func", "inputs"):
        if required not in bound:
            raise TorchError("TypeError", f"{name}() missing 1 required positional argument: '{required}'")
    for keyword in _UNSUPPORTED:
        if bound.get(keyword):
            raise interpreter.refuse(node, f"torch.autograd.{name}({keyword}=True) is not supported",
                                     "gradcli runs PyTorch's slow mode, reverse over reverse")
    check = _Check(interpreter, node, float(bound.get("eps", 1e-6)), float(bound.get("atol", 1e-5)),
                   float(bound.get("rtol", 1e-3)), bool(bound.get("raise_exception", True)))
    check.nondet_tol = float(bound.get("nondet_tol", 0.0))
    check.check_undefined_grad = bool(bound.get("check_undefined_grad", True))
    inputs = bound["inputs"]
    inputs = list(inputs) if isinstance(inputs, (tuple, list)) else [inputs]
    if name == "gradcheck":
        return check.gradcheck(bound["func"], inputs)
    return check.gradgradcheck(bound["func"], inputs, bound.get("grad_outputs"))


_FAILED_NONDET = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


class _Check:
    nondet_tol = 0.0
    check_undefined_grad = True

    def __init__(self, interpreter: Interpreter, node: ast.AST, eps: float, atol: float, rtol: float,
                 raise_exception: bool) -> None:
        self.interpreter, self.node = interpreter, node
        self.eps, self.atol, self.rtol, self.raise_exception = eps, atol, rtol, raise_exception

    def run(self, func: Any, inputs: list[Any]) -> list[Tensor]:
        out = self.interpreter.call(func, list(inputs), {}, self.node)
        outputs = list(out) if isinstance(out, (tuple, list)) else [out]
        return [o for o in outputs if isinstance(o, Tensor)]

    def gradcheck(self, func: Any, inputs: list[Any]) -> bool:
        wanted = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
        if not wanted:
            raise TorchError("ValueError", "gradcheck expects at least one input tensor to require gradient, but none "
                                           "of the them have requires_grad=True.")
        for i in wanted:
            if inputs[i].data.dtype != np.float64:
                self.interpreter.warn("UserWarning", f"Input #{i} requires gradient and is not a double precision "
                                      "floating point or complex. This check will likely fail if all the inputs are "
                                      "not of double precision floating point or complex. ", self.node)
        if sum(inputs[i].data.size for i in wanted) > _MAX_ELEMENTS:
            raise self.interpreter.refuse(self.node, f"gradcheck of inputs of more than {_MAX_ELEMENTS:,} elements "
                                                     "is not supported", "check a smaller input: each element is a run")
        returned = self.run(func, inputs)
        size = sum(inputs[i].data.size for i in wanted) * sum(o.data.size for o in returned)
        if size > Limits.get("elements"):  # (two Jacobians of inputs x outputs elements, before they are made)
            raise over_limit(f"gradcheck's Jacobians would have {size:,} elements", "elements",
                             source=self.interpreter.source, span=self.interpreter.span(self.node))
        # PyTorch's order (_gradcheck_helper, _slow_gradcheck), which a function that prints shows: the numerical
        # Jacobian of every output first, then per differentiable output its analytical Jacobian, computed twice (the
        # reentrancy check), then one sweep of zeros (backward must multiply by grad_output), then the function run
        # again and a sweep of its outputs' undefined gradients, given as zeros (check_undefined_grad)
        outputs = [o for o in returned if o.requires_grad]
        diff = [inputs[i] for i in wanted]
        numerical = self.numerical(func, inputs, wanted, returned)
        if not outputs:
            if any(np.any(column != 0) for columns in numerical for column in columns):
                return self.fail("Numerical gradient for function expected to be zero")
            return True
        numerical = [[columns[j] for j, o in enumerate(returned) if o.requires_grad] for columns in numerical]
        for j, output in enumerate(outputs):
            analytical = self.analytical(output, diff)
            again = self.analytical(output, diff)
            if any(np.any(np.abs(a - b) > self.nondet_tol) for a, b in zip(analytical, again, strict=True)):
                return self.fail("Backward is not reentrant, i.e., running backward with same input and grad_output "
                                 "multiple times gives different values, although analytical gradient matches "
                                 f"numerical gradient.The tolerance for nondeterminism was {self.nondet_tol}."
                                 + _FAILED_NONDET)
            for k, i in enumerate(wanted):
                a, n = analytical[k], numerical[k][j]
                if not np.allclose(a, n, rtol=self.rtol, atol=self.atol):
                    return self.fail(f"Jacobian mismatch for output {j} with respect to input {i},\n"
                                     f"numerical:{self.shown(n)}\nanalytical:{self.shown(a)}\n")
        if any(g is not None and np.any(g.data != 0) for g in self.zeros_sweep(outputs, diff)):
            return self.fail("backward not multiplied by grad_output")
        if self.check_undefined_grad:
            every = [o for o in self.run(func, inputs) if o.requires_grad]
            checks = [(every, every)]
            if len(every) > 1:  # (and each output's undefined alone, the function run again for each)
                for k in range(len(outputs)):
                    rerun = [o for o in self.run(func, inputs) if o.requires_grad]
                    checks.append((rerun, rerun[k:k + 1]))
            for check, undefined in checks:
                if any(g is not None and np.any(g.data != 0) for g in self.zeros_sweep(check, diff, undefined)):
                    return self.fail("Expected all input grads to be undefined or zero when all output grads are "
                                     "undefined or zero. Please look at \"Notes about undefined output gradients\" in "
                                     "\"tools/autograd/derivatives.yaml\"")
        return True

    def zeros_sweep(self, outputs: list[Tensor], inputs: list[Tensor], undefined: Sequence[Tensor] = ()
                    ) -> tuple[Any, ...]:
        """A sweep of zero grad_outputs; `undefined`: the outputs whose gradient is PyTorch's undefined one
        (UndefinedGrad), which a custom Function's backward gets as None under set_materialize_grads(False)."""
        graph = self.interpreter.graph
        zeros = [Tensor(graph, np.zeros_like(o.data)) for o in outputs]
        graph.undefined = frozenset(o.node for o in undefined if o.node is not None)
        try:
            return self.interpreter.autograd_grad([outputs, inputs], {"grad_outputs": zeros, "allow_unused": True},
                                                  self.node)
        finally:
            graph.undefined = frozenset()

    def analytical(self, output: Tensor, inputs: list[Tensor]) -> list[np.ndarray]:
        """[input]: an (input elements, output elements) matrix, a column per backward sweep."""
        made = [np.zeros((x.data.size, output.data.size), dtype=x.data.dtype) for x in inputs]
        for e in range(output.data.size):
            seed = np.zeros(output.data.size, dtype=output.data.dtype)
            seed[e] = 1
            grad_output = Tensor(self.interpreter.graph, seed.reshape(output.data.shape))
            grads = self.interpreter.autograd_grad([[output], inputs], {"grad_outputs": [grad_output],
                                                                        "retain_graph": True,
                                                                        "allow_unused": True}, self.node)
            for k, grad in enumerate(grads):
                if grad is not None:
                    made[k][:, e] = np.asarray(grad.data).reshape(-1)
        return made

    def numerical(self, func: Any, inputs: list[Any], wanted: list[int], outputs: list[Tensor]
                  ) -> list[list[np.ndarray]]:
        """[input][output]: central differences, each input element moved in place by -eps then +eps."""
        made = [[np.zeros((inputs[i].data.size, o.data.size), dtype=inputs[i].data.dtype) for o in outputs]
                for i in wanted]
        for k, i in enumerate(wanted):
            tensor = inputs[i]
            original, recorded = tensor.data, tensor.node
            for e in range(original.size):
                moved = []
                for step in (-self.eps, self.eps):
                    data = original.copy()
                    flat = data.reshape(-1)
                    flat[e] = flat[e] + data.dtype.type(step)
                    tensor.data = data
                    if tensor.is_leaf:
                        tensor.node = None  # (a leaf of the moved values on the tape, for a function that differentiates)
                    try:
                        moved.append([np.array(o.data, copy=True) for o in self.run(func, inputs)])
                    finally:
                        tensor.data, tensor.node = original, recorded
                for j, (a, b) in enumerate(zip(*moved, strict=True)):
                    made[k][j][e] = ((b - a) / (2 * self.eps)).reshape(-1)
        return made

    def gradgradcheck(self, func: Any, inputs: list[Any], grad_outputs: Any) -> bool:
        interpreter = self.interpreter
        if grad_outputs is None:  # (PyTorch's make_tensor(low=-1, high=1): uniform_ on torch's generator)
            drawn = []
            for output in self.run(func, inputs):
                if not output.requires_grad:
                    continue
                values = np.empty(output.data.shape, dtype=output.data.dtype)
                interpreter.generator.uniform_(values, -1.0, 1.0)
                made = Tensor(interpreter.graph, values)
                interpreter.set_requires_grad(made, True)
                drawn.append(made)
            grad_outputs = drawn
        grad_outputs = list(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else [grad_outputs]
        count = len(inputs)
        wanted = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]

        def gradients(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], where: ast.AST) -> Any:
            outputs = [o for o in self.run(func, args[:count]) if o.requires_grad]
            found = interpreter.autograd_grad([outputs, [args[i] for i in wanted]],
                                              {"grad_outputs": list(args[count:]), "create_graph": True,
                                               "allow_unused": True}, where)
            return tuple(g for g in found if g is not None)

        return self.gradcheck(Builtin("new_func", gradients), [*inputs, *grad_outputs])

    def shown(self, matrix: np.ndarray) -> str:
        return repr(Tensor(self.interpreter.graph, matrix))

    def fail(self, message: str) -> bool:
        if self.raise_exception:
            raise TorchError(GRADCHECK_ERROR, message)
        return False
