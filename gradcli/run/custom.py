"""Custom `torch.autograd.Function`s under `gradcli run`: a class of the file with
`@staticmethod forward(ctx, ...)` and `backward(ctx, grad_output)`, called through `.apply(...)`.

`apply` runs the file's forward with grad mode off, as PyTorch does, and records one node on the
tape (`<ClassName>Backward`, PyTorch's name) whose row is made for that call: its VJP calls the
file's backward with the call's context (`ctx.saved_tensors`, `ctx.needs_input_grad`, what the
forward set on it), with grad mode off, or on where the sweep is recorded (create_graph=True:
gradcli.run.higher), so a backward written with tensor ops is differentiated again as PyTorch's is.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli.ops import Op
from gradcli.run.python import Builtin, UserClass, UserFunction, address
from gradcli.run.tensor import Tensor, TorchError, runtime_error
from gradcli.tape import APPLY

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter


class FunctionBase:
    """`torch.autograd.Function`, as a base of the file's classes."""

    def __repr__(self) -> str:
        return "<class 'torch.autograd.function.Function'>"

    def mro(self) -> list[Any]:
        return [self]


FUNCTION = FunctionBase()


class OnceDifferentiable:
    """`torch.autograd.function.once_differentiable`, a decorator of a custom Function's backward: PyTorch runs
    that backward with grad mode off, so its gradients cannot be differentiated again."""

    def __repr__(self) -> str:
        return f"<function once_differentiable at {address(self)}>"


ONCE_DIFFERENTIABLE = OnceDifferentiable()


@dataclass(frozen=True, eq=False, repr=False)
class FunctionOp(Op):
    """The row of one call of a custom Function: its VJP is the file's backward on that call's context.
    `recorded_vjp(g)`: the same with grad mode on, the gradients as run tensors (create_graph)."""

    recorded_vjp: Callable[[Tensor], list[Tensor | None]] | None = None
    node_module: str = "torch.autograd.function."  # (PyTorch's repr of the node names the module of its class)
    # One output of a call whose forward returned several (the node's arg: the call's node, whose value holds them
    # all, one after another): PyTorch's node is that call's, this is its output `node.output` (torch_graph).
    through: bool = False


class Context:
    """The `ctx` of one call: what forward saved and set, read again by backward."""

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.fields: dict[str, Any] = {}
        self.saved: tuple[Any, ...] = ()
        self.versions: tuple[tuple[list[int] | None, int], ...] = ()  # each saved tensor's counter, and its version then
        self.needs_input_grad = needs_input_grad
        self.non_differentiable: list[Any] = []
        self.materialize_grads = True

    def __repr__(self) -> str:
        return "<torch.autograd.function.BackwardCFunction object at 0x7f3e00000100>"


def is_function_class(cls: Any) -> bool:
    return isinstance(cls, UserClass) and cls.native() is FUNCTION


def class_attribute(interpreter: Interpreter, cls: UserClass, name: str) -> Any:
    """`Cls.apply`: the call that runs it; None where the class itself has the name."""
    if name == "apply":
        return Builtin(f"{cls.name}.apply", lambda i, args, kwargs, node: apply(i, cls, args, kwargs, node))
    return None


def context_attribute(interpreter: Interpreter, ctx: Context, name: str, node: ast.AST) -> Any:
    if name == "saved_tensors":  # (PyTorch's SavedVariable::unpack: each still at the version it was saved at)
        for item, (counter, saved_at) in zip(ctx.saved, ctx.versions, strict=True):
            if counter is not None and counter[0] != saved_at:
                grad_fn = item.grad_fn
                raise runtime_error(interpreter.modified(item.data, None if grad_fn is None else grad_fn.name(),
                                                         counter[0], saved_at))
        return ctx.saved
    if name == "needs_input_grad":
        return ctx.needs_input_grad
    if name == "save_for_backward":
        return Builtin("save_for_backward", lambda i, args, kwargs, n: _save(ctx, args, kwargs))
    if name == "mark_non_differentiable":
        return Builtin("mark_non_differentiable", lambda i, args, kwargs, n: ctx.non_differentiable.extend(args))
    if name == "set_materialize_grads":
        return Builtin("set_materialize_grads", lambda i, args, kwargs, n: setattr(ctx, "materialize_grads",
                                                                                    bool(args[0])))
    if name in ctx.fields:
        return ctx.fields[name]
    if name in ("mark_dirty", "saved_variables", "save_for_forward"):
        raise interpreter.refuse(node, f"ctx.{name} is not supported", "save tensors with ctx.save_for_backward")
    raise TorchError("AttributeError", f"'BackwardCFunction' object has no attribute '{name}'")


def _save(ctx: Context, args: list[Any], kwargs: dict[str, Any]) -> None:
    for item in args:
        if item is not None and not isinstance(item, Tensor):
            raise TorchError("TypeError", "save_for_backward can only save variables, but argument 0 is of type "
                                          f"{type(item).__name__}")
    ctx.saved = tuple(args)
    ctx.versions = tuple((item.version, item.version[0]) if isinstance(item, Tensor) else (None, 0) for item in args)


def apply(interpreter: Interpreter, cls: UserClass, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    if kwargs:
        raise interpreter.refuse(node, f"{cls.name}.apply(...) with keyword arguments is not supported",
                                 "PyTorch's apply takes its arguments by position")
    forward, backward = (_method(interpreter, cls, name, node) for name in ("forward", "backward"))
    graph = interpreter.graph
    tracked = graph.grad_enabled
    needs = tuple(isinstance(a, Tensor) and a.requires_grad and tracked for a in args)
    ctx = Context(needs)
    before = graph.grad_enabled
    graph.grad_enabled = False  # PyTorch runs forward with grad mode off
    try:
        out = interpreter.call(forward, [ctx, *args], {}, node)
    finally:
        graph.grad_enabled = before
    several = isinstance(out, tuple)
    if not several and not isinstance(out, Tensor):
        return out
    returned = list(out) if several else [out]
    # PyTorch's differentiable outputs: the tensors of a float dtype forward did not mark non-differentiable, each
    # once (a tensor returned twice is one tensor, its last place's output); the others take no gradient, and
    # backward gets zeros of theirs for them (None for a non-tensor, or where set_materialize_grads(False) said so)
    kept = [k for k, o in enumerate(returned) if isinstance(o, Tensor) and o.data.dtype.kind == "f" and any(needs)
            and not any(o is t for t in ctx.non_differentiable) and not any(o is later for later in returned[k + 1:])]
    if not kept:
        plain = [Tensor(graph, o.data) if isinstance(o, Tensor) else o for o in returned]
        return tuple(next(p for p, later in zip(plain, returned, strict=True) if later is o) for o in returned) \
            if several else plain[0]
    outputs = [returned[k] for k in kept]
    if any(o.data.dtype != outputs[0].data.dtype for o in outputs):
        raise interpreter.refuse(node, f"a custom Function whose differentiable outputs are not of one dtype is not "
                                       f"supported ({cls.name})", "return tensors of one float dtype from forward")
    span = interpreter.span(node)
    positions = [i for i, need in enumerate(needs) if need]
    shapes = [o.data.shape for o in outputs]
    offsets = np.cumsum([0, *(o.data.size for o in outputs)]).tolist()
    dtype = outputs[0].data.dtype

    arrived: dict[int, Tensor] = {}  # (create_graph) the gradient of each output, as a recorded sweep gave it
    reached: set[int] = set()  # the outputs a sweep gave a gradient (their nodes' VJPs say so before the call's)

    def split(g: Any) -> list[Any]:
        """The gradient of each output, from the gradient of the call's node (its outputs one after another)."""
        if not several:
            return [g]
        return [g[offsets[k]:offsets[k + 1]].reshape(shape) for k, shape in enumerate(shapes)]

    def every(parts: list[Tensor | None]) -> list[Tensor | None]:
        """What backward gets for each output forward returned, from the differentiable ones' parts: for another
        tensor zeros of its shape and dtype (None under set_materialize_grads(False)), for a non-tensor None."""
        if not several:
            return parts
        given = dict(zip(kept, parts, strict=True))
        return [given[j] if j in given else
                Tensor(graph, np.zeros_like(o.data)) if isinstance(o, Tensor) and ctx.materialize_grads else None
                for j, o in enumerate(returned)]

    def came(parts: list[Any]) -> list[Tensor | None]:
        """The parts of a sweep that is not recorded: None for an output that got no gradient, unless materialized."""
        if several:
            got = set(reached)
        else:  # (gradcheck's undefined gradient of the one output: none came)
            got = set() if index in graph.undefined else {0}
        reached.clear()
        return [Tensor(graph, part) if k in got or ctx.materialize_grads else None
                for k, part in enumerate(parts)]

    def gradients(gs: list[Tensor | None], record: bool) -> list[Tensor | None]:
        if record and backward.once_differentiable:  # PyTorch runs it with grad mode off: its gradients are constants
            if any(g is not None and g.requires_grad for g in gs):  # (behind PyTorch's DelayedError node)
                return [None if grad is None else _delayed_error(graph, grad, span)
                        for grad in gradients(gs, False)]
            record = False
        before = graph.grad_enabled
        graph.grad_enabled = record  # PyTorch: grad mode is create_graph's in backward
        try:
            given = interpreter.call(backward, [ctx, *every(gs)], {}, node)
        finally:
            graph.grad_enabled = before
        grads = list(given) if isinstance(given, tuple) else [given]
        if len(grads) > len(args) and all(extra is None for extra in grads[len(args):]):
            grads = grads[:len(args)]  # (extra Nones are dropped, as PyTorch drops them: an optional bias left out)
        if len(grads) != len(args):
            raise runtime_error(f"function {cls.name}Backward returned an incorrect number of gradients (expected "
                                f"{len(args)}, got {len(grads)})")
        picked = []
        for i in positions:
            grad = grads[i]
            if grad is not None and not isinstance(grad, Tensor):
                raise TorchError("TypeError", f"function {cls.name}Backward returned a gradient different than None at "
                                              f"position {i + 1}, but the corresponding forward input was not a Variable")
            if grad is not None and grad.data.shape != args[i].data.shape:
                try:
                    np.broadcast_to(np.zeros(args[i].data.shape), grad.data.shape)
                except ValueError:
                    raise runtime_error(f"Function {cls.name}Backward returned an invalid gradient at index {i} - got "
                                        f"{list(grad.data.shape)} but expected shape compatible with "
                                        f"{list(args[i].data.shape)}") from None
            picked.append(grad)
        return picked

    given: list[tuple[Any, tuple[Any, ...]]] = []  # (g, what backward gave): a view's sweep after the run reads them

    def vjp(g: Any, ans: Any, *values: Any, **params: Any) -> tuple[Any, ...]:
        if index in graph.idle:  # (no input of this backward below the call: PyTorch does not run its backward)
            reached.clear()
            return (None,) * len(positions)
        if interpreter.finished:  # a view sweeps again: what backward gave for this g, else its numbers, silently
            for seen, result in given:
                if np.array_equal(seen, g, equal_nan=True):
                    return result
            shown, interpreter.out, errors, interpreter.errors = interpreter.out, io.StringIO(), interpreter.errors, None
            try:
                grads = gradients(came(split(np.asarray(g, dtype=dtype))), False)
            finally:
                interpreter.out, interpreter.errors = shown, errors
        else:
            grads = gradients(came(split(np.asarray(g, dtype=dtype))), False)
        result = tuple(None if grad is None else grad.data for grad in grads)
        given.append((np.array(g), result))
        return result

    def recorded(g: Tensor) -> list[Tensor | None]:
        if index in graph.idle:
            arrived.clear()
            return [None] * len(positions)
        if not several:
            return gradients([g], True)
        # each output's gradient as the sweep gave it (its output's node left it here), zeros where none came
        parts: list[Tensor | None] = []
        for k, shape in enumerate(shapes):
            part, own = arrived.pop(k, None), g.data[offsets[k]:offsets[k + 1]].reshape(shape)
            # (none came: zeros, as PyTorch materializes them, or None; one left by another sweep: this g's numbers)
            parts.append(part if part is not None and np.array_equal(part.data, own, equal_nan=True)
                         else None if part is None and not ctx.materialize_grads else Tensor(graph, np.array(own)))
        return gradients(parts, True)

    value = np.concatenate([o.data.reshape(-1) for o in outputs]) if several else outputs[0].data

    def forward_rule(*values: Any, **params: Any) -> Any:
        return value

    op = FunctionOp(cls.name, len(positions), forward_rule, vjp, f"{cls.name}Backward", elementwise=False,
                    recorded_vjp=recorded, callable=False, reference=None)
    nodes = tuple(args[i].as_node(span) for i in positions)
    index = graph.add(APPLY, op, nodes, value, span)
    made = Tensor(graph, value, node=index, requires_grad=True)
    if not several:
        results = [made]
    else:  # (the others plain tensors: a tensor returned twice, one object)
        made_outputs = {j: _output(graph, cls.name, index, (m, j), shapes[m], offsets, span, arrived, reached)
                        for m, j in enumerate(kept)}
        others = {id(o): Tensor(graph, o.data) for o in returned if isinstance(o, Tensor)}
        results = [made_outputs[j] if j in made_outputs else
                   made_outputs[max(i for i in kept if returned[i] is o)] if any(returned[i] is o for i in kept) else
                   others[id(o)] if isinstance(o, Tensor) else o for j, o in enumerate(returned)]
    # an output saved for backward is unpacked as the output, its node the call's (PyTorch's saved output), so a
    # backward recorded with create_graph differentiates through it (the Double Backward tutorial's Exp)
    ctx.saved = tuple(next((r for o, r in zip(returned, results, strict=True) if saved is o), saved)
                      for saved in ctx.saved)
    return tuple(results) if several else made


def native_node(graph: Any, row: str, torch_node: str, inputs: list[Tensor], value: np.ndarray,
                vjp: Callable[[np.ndarray], tuple[Any, ...]], span: tuple[int, int]) -> Tensor:
    """One node of one of ATen's fused kernels (`torch_node`, printed as PyTorch prints it) over `inputs`, its
    VJP given for that call (the kernel's backward: g -> one gradient per input); not differentiated again."""

    def rule(g: Any, ans: Any, *values: Any, **params: Any) -> tuple[Any, ...]:
        return vjp(np.asarray(g, dtype=value.dtype))

    op = FunctionOp(row, len(inputs), lambda *values, **params: value, rule, torch_node, elementwise=False,
                    callable=False, reference=None, node_module="")
    index = graph.add(APPLY, op, tuple(t.as_node(span) for t in inputs), value, span)
    return Tensor(graph, value, node=index, requires_grad=True)


def _row(graph: Any, row: str, x: Tensor, span: tuple[int, int], **params: Any) -> Tensor:
    from gradcli.ops import OPS
    from gradcli.ops.core import rule_params
    from gradcli.run.tensor import apply as apply_row

    return apply_row(graph, OPS[row], [x], rule_params(OPS[row], params), span)


def _output(graph: Any, name: str, index: int, place: tuple[int, int], shape: tuple[int, ...], offsets: list[int],
            span: tuple[int, int], arrived: dict[int, Tensor], reached: set[int]) -> Tensor:
    """Output j of a call whose forward returned several, the k-th differentiable one (place: (k, j)): a node over
    the call's (which holds them one after another), PyTorch's node that call's, output j of it. A sweep says it
    reached it in `reached`, a recorded one (create_graph) leaves its gradient in `arrived` too, for the call's
    backward to get as it came (the sweep reaches this node before the call's)."""
    k, j = place
    start, stop, total = offsets[k], offsets[k + 1], offsets[-1]

    def forward_rule(packed: Any, **params: Any) -> Any:
        return np.asarray(packed)[start:stop].reshape(shape)

    def vjp(g: Any, ans: Any, packed: Any, **params: Any) -> tuple[Any]:
        if part not in graph.undefined:  # (gradcheck's undefined gradient of this output: none reached it)
            reached.add(k)
        full = np.zeros(total, dtype=np.result_type(g))
        full[start:stop] = np.reshape(g, -1)
        return (full,)

    def recorded(g: Tensor) -> list[Tensor | None]:
        arrived[k] = g
        before = graph.grad_enabled
        graph.grad_enabled = True
        try:
            return [_row(graph, "pad", _row(graph, "reshape", g, span, shape=(-1,)), span, pad=(start, total - stop))]
        finally:
            graph.grad_enabled = before

    op = FunctionOp(name, 1, forward_rule, vjp, f"{name}Backward", elementwise=False, recorded_vjp=recorded,
                    callable=False, reference=None, through=True, output=j)
    value = forward_rule(graph.values[index])
    part = graph.add(APPLY, op, (index,), value, span)
    return Tensor(graph, value, node=part, requires_grad=True)


_TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


def _delayed_error(graph: Any, grad: Tensor, span: tuple[int, int]) -> Tensor:
    """A gradient of a backward marked @once_differentiable, made with create_graph=True, as torch.autograd.function's
    once_differentiable gives it: its values behind an `Error` node (DelayedError) over a detached copy that requires
    grad, so that it requires grad, and a backward that runs the node raises."""
    alias = Tensor(graph, grad.data, requires_grad=True)
    index = -1

    def vjp(g: Any, ans: Any, value: Any, **params: Any) -> tuple[Any]:
        if index in graph.idle:
            return (None,)
        raise runtime_error(_TWICE)

    op = Op("Error", 1, lambda value, **params: value, vjp, "Error", elementwise=False, callable=False, reference=None)
    index = graph.add(APPLY, op, (alias.as_node(span),), grad.data, span)
    return Tensor(graph, grad.data, node=index, requires_grad=True)


def _method(interpreter: Interpreter, cls: UserClass, name: str, node: ast.AST) -> UserFunction:
    found, method = cls.lookup(name)
    if not found or not isinstance(method, UserFunction):
        raise interpreter.refuse(node, f"{cls.name}.{name} is not defined: a custom Function defines forward and "
                                       "backward as @staticmethods")
    return method
