"""torch.autograd.functional under `gradcli run`: jacobian, hessian, vjp, jvp, hvp and vhp, built as
PyTorch builds them from autograd.grad (torch/autograd/functional.py), on the run's one tape.

The inputs are detached copies that require grad (with create_graph=True, views that keep their
graph), the user's function runs once on them, and each result is a set of backward sweeps: one
per output element for a Jacobian, a recorded sweep (gradcli.run.higher) where a gradient is
differentiated again. jvp and hvp use PyTorch's double-backward trick, so their numbers are the
ones PyTorch's sweeps add up. Without create_graph the results are detached, as PyTorch's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli import engine
from gradcli.errors import Limits, over_limit
from gradcli.ops import OPS
from gradcli.run.tensor import PROMOTING, Tensor, TorchError, apply, runtime_error

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

NAMES = ("jacobian", "hessian", "vjp", "jvp", "hvp", "vhp")
_KEYWORDS = {
    "jacobian": ["func", "inputs", "create_graph", "strict", "vectorize", "strategy"],
    "hessian": ["func", "inputs", "create_graph", "strict", "vectorize", "outer_jacobian_strategy"],
    **{name: ["func", "inputs", "v", "create_graph", "strict"] for name in ("vjp", "jvp", "hvp", "vhp")},
}


def call(interpreter: Interpreter, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    from gradcli.run.interpreter import _python_bind

    bound = _python_bind(name, _KEYWORDS[name], args, kwargs)
    for required in ("func", "inputs"):
        if required not in bound:
            raise TorchError("TypeError", f"{name}() missing 1 required positional argument: '{required}'")
    if bound.get("strict"):
        raise interpreter.refuse(node, f"torch.autograd.functional.{name}(strict=True) is not supported",
                                 "leave strict out: an output independent of an input gives zeros, as by default")
    for keyword in ("strategy", "outer_jacobian_strategy"):
        if bound.get(keyword, "reverse-mode") != "reverse-mode":
            raise interpreter.refuse(node, f"{keyword}={bound[keyword]!r} is not supported (reverse-mode is)")
    work = _Functional(interpreter, name, bool(bound.get("create_graph")), node)
    is_tuple, inputs = work.tensors("inputs", bound["inputs"])
    if name == "jacobian":
        return work.jacobian(bound["func"], inputs, is_tuple)
    if name == "hessian":
        return work.hessian(bound["func"], inputs, is_tuple)
    return work.product(bound["func"], inputs, is_tuple, bound.get("v"))


class _Functional:
    def __init__(self, interpreter: Interpreter, name: str, create_graph: bool, node: ast.AST) -> None:
        self.interpreter, self.name, self.create_graph, self.node = interpreter, name, create_graph, node
        self.graph = interpreter.graph
        self.span = interpreter.span(node)

    # --- PyTorch's _as_tuple, _grad_preprocess, _grad_postprocess ---

    def tensors(self, what: str, value: Any) -> tuple[bool, list[Tensor]]:
        shown = "outputs of the user-provided function" if what == "outputs" else what
        if isinstance(value, Tensor):
            return False, [value]
        if not isinstance(value, tuple):
            raise TorchError("TypeError", f"The {shown} given to {self.name} must be either a Tensor or a tuple of "
                                          f"Tensors but the given {what} has type {_python_type(value)}.")
        for i, item in enumerate(value):
            if not isinstance(item, Tensor):
                raise TorchError("TypeError", f"The {shown} given to {self.name} must be either a Tensor or a tuple "
                                              f"of Tensors but the value at index {i} has type {_python_type(item)}.")
        return True, list(value)

    def prepared(self, inputs: list[Tensor]) -> list[Tensor]:
        """Leaves that require grad (create_graph: views of the inputs that keep their graph)."""
        made = []
        for tensor in inputs:
            if self.create_graph and tensor.requires_grad:
                made.append(apply(self.graph, OPS["view_as"], [tensor, tensor], {}, self.span))
            else:
                leaf = Tensor(self.graph, tensor.data)
                self.interpreter.set_requires_grad(leaf, True)
                made.append(leaf)
        return made

    def finished(self, tensor: Tensor) -> Tensor:
        return tensor if self.create_graph else Tensor(self.graph, tensor.data)

    def run(self, function: Any, inputs: list[Tensor]) -> tuple[bool, list[Tensor]]:
        out = self.interpreter.call(function, list(inputs), {}, self.node)
        return self.tensors("outputs", out)

    # --- gradients ---

    def grads(self, outputs: list[Tensor], inputs: list[Tensor], seeds: list[Any], create_graph: bool) -> list[Any]:
        """d(sum of seed * output)/d input for each input: a run tensor (recorded where create_graph),
        None where nothing flows. A seed is a run tensor or an array."""
        roots, given = [], []
        for output, seed in zip(outputs, seeds, strict=True):
            if output.requires_grad:
                roots.append(output.as_node(self.span))
                given.append(seed)
        if not roots:
            return [None] * len(inputs)
        nodes = [tensor.as_node(self.span) for tensor in inputs]
        if create_graph:
            tensors = [s if isinstance(s, Tensor) else Tensor(self.graph, np.asarray(s)) for s in given]
            adjoints = self.interpreter.recorded_backward(roots, tensors, self.node)
            return [adjoints[index] for index in nodes]
        arrays = [s.data if isinstance(s, Tensor) else s for s in given]
        adjoints = engine.backward(self.graph.tape, self.graph.values, roots, arrays, backend=PROMOTING)
        return [None if adjoints[index] is None else
                Tensor(self.graph, np.array(np.broadcast_to(adjoints[index], tensor.data.shape), dtype=tensor.data.dtype))
                for index, tensor in zip(nodes, inputs, strict=True)]

    def rows(self, output: Tensor, inputs: list[Tensor], create_graph: bool) -> list[Tensor]:
        """The Jacobian of one output by each input, output.shape + input.shape, one sweep per element
        of the output (PyTorch's reverse mode)."""
        count = output.data.size
        elements = count * sum(t.data.size for t in inputs)
        if elements > Limits.get("jacobian"):
            raise over_limit(f"this {self.name} would have {elements:,} elements", "jacobian",
                             source=self.interpreter.source, span=self.span)
        per_input: list[list[Any]] = [[] for _ in inputs]
        for j in range(count):
            seed = np.zeros(output.data.shape, dtype=output.data.dtype)
            seed.reshape(-1)[j] = 1
            for i, grad in enumerate(self.grads([output], inputs, [seed], create_graph)):
                per_input[i].append(grad)
        jacobians = []
        for tensor, grads in zip(inputs, per_input, strict=True):
            shape = output.data.shape + tensor.data.shape
            if all(g is None or not g.requires_grad for g in grads):
                data = np.zeros((count, *tensor.data.shape), dtype=tensor.data.dtype)
                for j, g in enumerate(grads):
                    if g is not None:
                        data[j] = g.data
                jacobians.append(Tensor(self.graph, data.reshape(shape)))
                continue
            items = [g if g is not None else Tensor(self.graph, np.zeros_like(tensor.data)) for g in grads]
            stacked = apply(self.graph, OPS["stack"], items, {"dim": 0}, self.span)
            jacobians.append(apply(self.graph, OPS["reshape"], [stacked], {"shape": shape}, self.span))
        return jacobians

    # --- the functions ---

    def jacobian(self, function: Any, inputs: list[Tensor], inputs_tuple: bool) -> Any:
        inputs = self.prepared(inputs)
        outputs_tuple, outputs = self.run(function, inputs)
        table = [[self.finished(j) for j in self.rows(output, inputs, self.create_graph)] for output in outputs]
        return _shaped(table, outputs_tuple, inputs_tuple)

    def hessian(self, function: Any, inputs: list[Tensor], inputs_tuple: bool) -> Any:
        inputs = self.prepared(inputs)
        _, outputs = self.run(function, inputs)
        if len(outputs) != 1 or outputs[0].data.size != 1:
            raise runtime_error("The function given in torch.autograd.functional.hessian should return a single element "
                                "Tensor" if len(outputs) != 1 else
                                "The Tensor returned by the function given to hessian should contain a single element")
        output = outputs[0]
        first = self.grads([output], inputs, [np.ones(output.data.shape, dtype=output.data.dtype)], True)
        first = [g if g is not None else Tensor(self.graph, np.zeros_like(t.data)) for g, t in zip(first, inputs, strict=True)]
        table = [[self.finished(h) for h in self.rows(g, inputs, self.create_graph)] for g in first]
        return _shaped(table, inputs_tuple, inputs_tuple)

    def product(self, function: Any, inputs: list[Tensor], inputs_tuple: bool, v: Any) -> tuple[Any, Any]:
        """vjp, jvp, vhp, hvp: (the function's output, the product with v)."""
        name = self.name
        inputs = self.prepared(inputs)
        outputs_tuple, outputs = self.run(function, inputs)
        if name in ("hvp", "vhp") and (len(outputs) != 1 or outputs[0].data.size != 1):
            raise runtime_error(f"The function given in torch.autograd.functional.{name} should return a single "
                                "element Tensor" if len(outputs) != 1 else
                                f"The Tensor returned by the function given to {name} should contain a single element")
        against = outputs if name == "vjp" else inputs
        vectors = self.vectors(v, against, outputs_tuple if name == "vjp" else inputs_tuple,
                               "user-provided function returns" if name == "vjp" else "input to the user-provided function is")
        if name == "vjp":
            result = self.grads(outputs, inputs, vectors, self.create_graph)
        elif name == "jvp":  # PyTorch's: grad of (grad of the outputs with zeros that require grad) by those zeros
            zeros = [self.leaf(np.zeros_like(o.data)) for o in outputs]
            through = self.grads(outputs, inputs, zeros, True)
            used = [(g, v) for g, v in zip(through, vectors, strict=True) if g is not None and g.requires_grad]
            result = self.grads([g for g, _ in used], zeros, [v for _, v in used], self.create_graph)
            result = [r if r is not None else Tensor(self.graph, np.zeros_like(o.data)) for r, o in zip(result, outputs, strict=True)]
            return _pair(outputs, result, outputs_tuple, outputs_tuple, self)
        else:
            ones = np.ones(outputs[0].data.shape, dtype=outputs[0].data.dtype)
            jac = self.grads(outputs, inputs, [ones], True)
            if name == "vhp":
                used = [(g, v) for g, v in zip(jac, vectors, strict=True) if g is not None and g.requires_grad]
                result = self.grads([g for g, _ in used], inputs, [v for _, v in used], self.create_graph)
            else:  # hvp: the double-backward trick, as PyTorch's
                zeros = [self.leaf(np.zeros_like(t.data)) for t in inputs]
                used_zeros = [(g, z) for g, z in zip(jac, zeros, strict=True) if g is not None and g.requires_grad]
                back = self.grads([g for g, _ in used_zeros], inputs, [z for _, z in used_zeros], True)
                used = [(b, v) for b, v in zip(back, vectors, strict=True) if b is not None and b.requires_grad]
                result = self.grads([b for b, _ in used], zeros, [v for _, v in used], self.create_graph)
        result = [r if r is not None else Tensor(self.graph, np.zeros_like(t.data)) for r, t in zip(result, inputs, strict=True)]
        return _pair(outputs, result, outputs_tuple, inputs_tuple, self)

    def leaf(self, data: np.ndarray) -> Tensor:
        tensor = Tensor(self.graph, data)
        self.interpreter.set_requires_grad(tensor, True)
        return tensor

    def vectors(self, v: Any, against: list[Tensor], is_tuple: bool, said: str) -> list[Any]:
        if v is None:
            if len(against) != 1 or against[0].data.size != 1:
                raise runtime_error(f"The vector v can only be None if the {said} a single Tensor with a single element.")
            return [Tensor(self.graph, np.ones(against[0].data.shape, dtype=against[0].data.dtype))]
        _, vs = self.tensors("v", v)
        if len(vs) != len(against):
            if is_tuple:
                raise runtime_error(f"v is a tuple of invalid length: should be {len(against)} but got {len(vs)}.")
            raise runtime_error("The given v should contain a single Tensor.")
        from gradcli.run.interpreter import Size

        for i, (given, other) in enumerate(zip(vs, against, strict=True)):
            if given.data.shape != other.data.shape:
                prepend = f"Entry {i} in " if is_tuple else ""
                raise runtime_error(f"{prepend}v has invalid size: should be {Size(other.data.shape)!r} but got "
                                    f"{Size(given.data.shape)!r}.")
        return list(vs)


def _pair(outputs: list[Tensor], result: list[Tensor], outputs_tuple: bool, result_tuple: bool,
          work: _Functional) -> tuple[Any, Any]:
    out = [work.finished(o) for o in outputs]
    done = [work.finished(r) for r in result]
    return (tuple(out) if outputs_tuple else out[0]), (tuple(done) if result_tuple else done[0])


def _shaped(table: list[list[Tensor]], rows_tuple: bool, columns_tuple: bool) -> Any:
    """PyTorch's _tuple_postprocess: a tuple where the function gave or took one, else the tensor."""
    rows = [tuple(row) if columns_tuple else row[0] for row in table]
    return tuple(rows) if rows_tuple else rows[0]


def _python_type(value: Any) -> str:
    from gradcli.run.python import type_name

    return f"<class '{'torch.Tensor' if isinstance(value, Tensor) else type_name(value)}'>"


