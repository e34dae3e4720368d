"""Tensors that record what is done to them, on the op table, as PyTorch's autograd does.

Every tensor op of a file run by `gradcli run` computes at once (eagerly, in the tensor's
dtype: float32 unless asked) and appends a node to one growing tape (tape.Node, the same as
`gradcli grad` builds from a formula): the leaves that require grad are its inputs, other
tensors and Python numbers its constants. `backward` and `autograd.grad` then run the engine's
reverse sweep on that tape with the values already computed, and the views of `gradcli graph`,
`--paths` and `explain` read the same tape.

PyTorch's errors are raised as TorchError with PyTorch's type and message.
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gradcli import engine
from gradcli.errors import Limits, over_limit, visible
from gradcli.ops import OPS, Op, call_forward
from gradcli.ops.core import (
    DimError,
    LinAlgError,
    Number,
    PythonValueError,
    TypedWords,
    Unsupported,
    ValueRefusal,
    given_0d_problem,
    kernel_dtype_name,
    rule_params,
    torch_dtype_name,
)
from gradcli.tape import APPLY, CONST, INPUT, Node, Tape, broadcast_shape, output_shape
from gradcli.torch_graph import next_functions, torch_name

Array = np.ndarray

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward."
)


class TorchError(Exception):
    """What PyTorch (or Python) raises: printed as the last line of a traceback, exit 1."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message
        self.interpreter: Any = None  # the run it stopped, with the backward calls made before it

    def text(self) -> str:
        return f"{self.kind}: {self.message}"

    def line(self) -> str:
        """Python's last traceback line, every control byte of it escaped (a format spec is the user's text)."""
        return visible(self.text(), lines=True)


# torch.linalg.LinAlgError as a traceback names it: a RuntimeError (interpreter.catches)
LINALG_ERROR = "torch._C._LinAlgError"


def runtime_error(message: str) -> TorchError:
    return TorchError("RuntimeError", message)


def said(problem: Exception, args: Sequence[Any]) -> str:
    """A shape rule's refusal in PyTorch's words, the first line: where they name a tensor arg by its type
    (TypedWords), of these args' dtypes."""
    if isinstance(problem, TypedWords):
        return problem.typed([a.data.dtype.name if isinstance(a, Tensor) else "" for a in args])
    return str(problem).split("\n")[0]


# --- dtypes: PyTorch's promotion, on NumPy's types ----------------------------------------

FLOAT32, FLOAT64, INT64, BOOL = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.bool_)
INT32 = np.dtype(np.int32)
_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2}


def promote(tensors: Sequence[Array], numbers: Sequence[Any]) -> np.dtype:
    """PyTorch's result type: tensors with dims outrank 0-d tensors, which outrank Python numbers,
    by category (bool < int < float); within the winning group, the widest dtype."""
    dimmed = [t.dtype for t in tensors if t.ndim]
    zero_d = [t.dtype for t in tensors if not t.ndim]
    python = [BOOL if isinstance(n, bool) else INT64 if isinstance(n, int) else FLOAT32 for n in numbers]
    best: np.dtype | None = None
    for group in (dimmed, zero_d, python):
        if not group:
            continue
        top = max(_CATEGORY[d.kind] for d in group)
        widest = np.result_type(*(d for d in group if _CATEGORY[d.kind] == top))  # (uint8 with int8: int16)
        if best is None or _CATEGORY[widest.kind] > _CATEGORY[best.kind]:
            best = widest if best is None or group is not python else _default_of(widest)
    return best if best is not None else FLOAT32


def _default_of(dtype: np.dtype) -> np.dtype:
    """A Python number that lifts the category takes the default dtype of it: float32, int64."""
    return {0: BOOL, 1: INT64, 2: FLOAT32}[_CATEGORY[dtype.kind]]


# --- the graph ------------------------------------------------------------------------------


Saved = tuple["Tensor", list[int], int]  # a tensor arg of a node: it, its version counter, its version then (PyTorch's
# SavedVariable holds the tensor itself)


class Graph:
    """The one tape a run appends to, with each node's value, and what backward has freed."""

    def __init__(self, source: str) -> None:
        self.tape = Tape(source, [], {}, {}, (), (), False)
        self.values: list[Any] = []
        self.freed: set[int] = set()  # nodes whose saved values a backward without retain_graph freed
        # during a backward to given inputs (autograd.grad, backward(inputs=)): the nodes it reaches that PyTorch's
        # engine does not run, no input being below them (a custom Function's backward there is not called)
        self.idle: frozenset[int] = frozenset()
        # during gradcheck's check of undefined output gradients: the outputs whose gradient is undefined (a custom
        # Function's backward gets None there under ctx.set_materialize_grads(False))
        self.undefined: frozenset[int] = frozenset()
        self.leaves: dict[int, Tensor] = {}  # the input node of each leaf tensor that requires grad
        self.grad_enabled = True
        self.inference = False  # in `with torch.inference_mode():` (its tensors keep no version counter)
        # what PyTorch raises when a backward reaches a node (Op.dtype_refusals' "... into N": pow's bool exponent)
        self.refusals: dict[int, TorchError] = {}
        self.elements: int | None = None  # the elements limit (Limits), once read
        self.grad_fns: dict[int, tuple[Any, Any]] = {}  # a node -> (it, its GradFn): one object a node
        # a node -> each tensor arg, its version counter and the version it was at, and its result's counter and
        # version then: what backward holds to the versions of the tensors PyTorch's node saved (run/saved.py)
        self.saves: dict[int, tuple[tuple[Saved | None, ...], list[int], int]] = {}
        # PyTorch's one node for the parts of one call (U, S, V = torch.svd(a); i, f = g.chunk(2)): the tape has a
        # node a part, each part's node -> the first part's, whose grad_fn they all show
        self.one_node: dict[int, int] = {}
        self.call: dict[tuple[Any, ...], int] | None = None  # (a call of parts being made: its rows' first nodes)

    def add(self, kind: str, op: Op | None, args: tuple[int, ...], value: Any, span: tuple[int, int],
            params: dict[str, Any] | None = None, name: str | None = None) -> int:
        nodes = self.tape.nodes
        index = len(nodes)
        wants = tuple(nodes[a].requires_grad for a in args)
        requires_grad = kind == INPUT or (kind == APPLY and any(wants))
        nodes.append(Node(index, kind, op, args, span, params or {}, name,
                          np.asarray(value) if kind == CONST else None, requires_grad, wants))
        self.values.append(value)
        if (self.call is not None and op is not None and op.parts and params and "part" in params
                and op.torch_node != "SliceBackward0"):  # (tensor_split's parts: a slice each, as PyTorch's)
            held = tuple(a if nodes[a].kind != CONST else None for a in args)  # (an index arg's constant: made anew)
            key = (op.name, held, *sorted((k, repr(v)) for k, v in params.items() if k not in ("part", "of")))
            self.one_node[index] = self.call.setdefault(key, index)
        return index


class Tensor:
    """A tensor of the run: its values (NumPy, in PyTorch's dtype) and its place in the graph; a view
    (x[0], x.view(-1), x.t(), x.detach() ...) knows its base and how it reads it, and a base its live
    views, so that a write into either is seen by the other (Interpreter.changed)."""

    view_of: tuple[Tensor, Callable[[Array], Array]] | None = None
    views: tuple[weakref.ref[Tensor], ...] = ()
    detached = False  # x.detach(): its values are x's, but autograd sees no view (a write through it records none)
    read_at = 0  # a view: the version of the values its node read (a recorded write since: refresh reads them again)
    one_of: tuple[str, int, bool] | None = None  # a part of split/chunk/unbind: (its node, which, made with grad)

    def __init__(self, graph: Graph, data: Array, *, node: int | None = None, requires_grad: bool = False) -> None:
        self.graph = graph
        self.data = data
        self.node = node  # the tape node that computed it (None: a constant, made into one when used)
        self.requires_grad = requires_grad
        self.grad: Tensor | None = None
        self.retains_grad = False
        self.name: str | None = None
        self.parameter = False  # an nn.Parameter: prints as `Parameter containing:`
        self.stand_in = False  # the value of an optional tensor arg left out (lowering: Front.stand_in)
        self.version = [0]  # PyTorch's version counter: a write in place adds one; shared with its views
        self.inference = graph.inference  # made in inference mode: PyTorch's inference tensor, which has no version

    def viewed_as(self, view: Tensor, path: Callable[[Array], Array]) -> Tensor:
        """`view` reads this tensor's values through `path` (NumPy's view of them)."""
        view.view_of = (self, path)
        view.version = self.version
        view.read_at = self.version[0]
        self.views = (*(ref for ref in self.views if ref() is not None), weakref.ref(view))
        return view

    def in_root(self) -> tuple[Tensor, Array]:
        """The tensor whose values a view reads (itself where it is none: a detached tensor is its own), and the
        positions of the view's elements in it."""
        root, positions = self, np.arange(self.data.size).reshape(self.data.shape)
        while root.view_of is not None and not root.detached:
            owner, path = root.view_of
            through = path(np.arange(owner.data.size).reshape(owner.data.shape))
            if isinstance(through, np.generic):  # (one element, b[1, 2]: NumPy reads it as a number)
                through = np.asarray(through)
            if not (isinstance(through, np.ndarray) and through.shape == root.data.shape):
                break
            positions, root = through.reshape(-1)[positions], owner
        return root, positions

    def refresh(self) -> None:
        """A view whose base took a recorded write since its node was made reads the base again, as PyTorch
        regenerates a view's grad_fn when its version moved (AsStridedBackward0 of the base's node): a gradient
        through the view then flows through the write. Lazily, when the view is next used or looked at."""
        if self.view_of is None or self.detached or self.read_at == self.version[0]:
            return
        self.read_at = self.version[0]
        root = self
        while root.view_of is not None and not root.detached:
            root = root.view_of[0]
        if root.node is None or root.is_leaf:  # (no recorded write: a plain tensor's views take its values alone)
            return
        try:
            root, positions = self.in_root()
        except (IndexError, ValueError):  # (a base given other values since: x.data = ..., its views keep theirs)
            return
        if root is self or root.node is None or positions.shape != self.data.shape:
            return
        read = apply(self.graph, OPS["strided_read"], [root], {"positions": positions},
                     self.graph.tape.nodes[root.node].span)
        self.node, self.requires_grad = read.node, read.requires_grad

    @property
    def is_leaf(self) -> bool:
        self.refresh()
        return self.node is None or self.graph.tape.nodes[self.node].kind != APPLY

    @property
    def grad_fn(self) -> GradFn | None:
        self.refresh()
        if self.node is None or self.graph.tape.nodes[self.node].kind != APPLY:
            return None
        return GradFn(self.graph, self.node)

    def as_node(self, span: tuple[int, int]) -> int:
        """The tape node of this tensor, made on first use: a leaf that requires grad is an
        input, any other tensor a constant."""
        self.refresh()
        if self.node is None:
            kind = INPUT if self.requires_grad else CONST
            self.node = self.graph.add(kind, None, (), self.data, span, name=self.name)
            if kind == INPUT:
                self.graph.leaves[self.node] = self
        return self.node

    # --- as Python sees it: printing and formatting, as PyTorch's Tensor does ---

    def __repr__(self) -> str:
        from gradcli.run.reprs import tensor_repr

        grad_fn = self.grad_fn
        text = tensor_repr(self.data, grad_fn=None if grad_fn is None else grad_fn.name(),
                           requires_grad=self.requires_grad)
        return f"Parameter containing:\n{text}" if self.parameter else text

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self.data.ndim == 0:
            return format(self.data.item(), spec)
        if spec:
            raise TorchError("TypeError", "unsupported format string passed to Tensor.__format__")
        return repr(self)

    def _scalar(self) -> Any:
        if self.data.size != 1:
            raise runtime_error(f"a Tensor with {self.data.size} elements cannot be converted to Scalar")
        return self.data.reshape(()).item()

    def scalar(self) -> Any:
        """The one number of a one-element tensor, as float(t), int(t) and math.floor(t) read it."""
        if self.data.size != 1:
            raise TorchError("ValueError", "only one element tensors can be converted to Python scalars")
        return self.data.reshape(()).item()

    def __float__(self) -> float:
        return float(self.scalar())

    def __int__(self) -> int:
        return int(self.scalar())

    def __index__(self) -> int:
        if self.data.dtype.kind not in "iub":
            raise TorchError("TypeError", "only integer tensors of a single element can be converted to an index")
        return int(self._scalar())


class GradFn:
    """A node of the backward graph as PyTorch shows it (`grad_fn`, `next_functions`)."""

    graph: Graph
    index: int

    def __new__(cls, graph: Graph, node: int) -> GradFn:
        op = graph.tape.nodes[node].op
        if getattr(op, "through", False):  # an output of a custom Function's call of several: that call's node
            node = graph.tape.nodes[node].args[0]
        node = graph.one_node.get(node, node)  # (a part of a call of several: the node of them all)
        # one object a node, as PyTorch's (`s.grad_fn is c.grad_fn`); a node taken off the tape again, another
        known = graph.grad_fns.get(node)
        if known is not None and known[0] is graph.tape.nodes[node]:
            return known[1]
        made = super().__new__(cls)
        made.graph, made.index = graph, node
        graph.grad_fns[node] = (graph.tape.nodes[node], made)
        return made

    def __init__(self, graph: Graph, node: int) -> None:
        pass  # (made in __new__)

    def name(self) -> str:
        node = self.graph.tape.nodes[self.index]
        if node.kind != APPLY:
            return "AccumulateGrad"
        assert node.op is not None
        return node_name(self.graph, self.index)

    @property
    def next_functions(self) -> tuple[tuple[GradFn | None, int], ...]:
        following = next_functions(self.graph.tape, self.index, self.name())
        return tuple((None, 0) if arg is None else (GradFn(self.graph, arg), self.graph.tape.nodes[arg].output)
                     for arg in following)

    def address(self) -> str:
        """An address of gradcli's choosing: the same node, the same address."""
        return f"0x7f{0x3f000000 + 0x60 * self.index:010x}"

    def __repr__(self) -> str:
        module = getattr(self.graph.tape.nodes[self.index].op, "node_module", "")  # a custom Function's node
        return f"<{module}{self.name()} object at {self.address()}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GradFn) and (other.graph, other.index) == (self.graph, self.index)

    def __hash__(self) -> int:
        return hash((id(self.graph), self.index))


def node_name(graph: Graph, index: int) -> str:
    return torch_name(graph.tape, index, graph.values)


# --- applying an op -------------------------------------------------------------------------


class _Emitter:
    """A composite's emit (as tape.Emitter): emit(row, *args, **params) applies a row; emit.shape(t), a
    tensor's shape (here every value is known)."""

    def __init__(self, graph: Graph, span: tuple[int, int]) -> None:
        self.graph, self.span = graph, span

    def __call__(self, row: str, *parts: Any, **given: Any) -> Tensor:
        part = OPS[row]
        return apply(self.graph, part, list(parts), rule_params(part, given), self.span)

    def shape(self, value: Any) -> tuple[int, ...]:
        return tuple(value.data.shape) if isinstance(value, Tensor) else ()

    def given(self, value: Any) -> bool:
        """Was this optional tensor arg given (not the number that stands in for it)?"""
        return not (isinstance(value, Tensor) and value.stand_in)

    def tensor(self, value: Any) -> Tensor:
        """A constant tensor, not a Python number (tape.Emitter.tensor): C++'s at::scalar_tensor(n), an int64 one
        where n is whole; a mask stays one."""
        array = np.asarray(value)
        if array.dtype == BOOL:  # (a mask: combinations' places)
            return Tensor(self.graph, array)
        whole = array.ndim == 0 and float(array).is_integer()
        return Tensor(self.graph, array.astype(INT64 if whole else FLOAT64))

    def dtype(self, value: Any) -> str:
        """A tensor arg's dtype, by NumPy's name ("" for a Python number)."""
        return value.data.dtype.name if isinstance(value, Tensor) else ""

    def requires_grad(self, value: Any) -> bool:
        return isinstance(value, Tensor) and value.requires_grad and self.graph.grad_enabled


def apply(graph: Graph, op: Op, args: Sequence[Any], params: dict[str, Any], span: tuple[int, int],
          cast: str | None = None) -> Tensor:
    """`op` on tensors and Python numbers: its value in PyTorch's dtype, and a node where a
    gradient can flow. A composite (Op.program) is its parts, as PyTorch records them."""
    for a in args:
        if isinstance(a, Tensor) and a.view_of is not None:
            a.refresh()
    if op.given_0d is not None:  # an optional tensor arg given 0-d, which PyTorch refuses
        problem = given_0d_problem(op, [np.shape(a.data) if isinstance(a, Tensor) else () for a in args],
                                   [isinstance(a, Tensor) and a.stand_in for a in args], params)
        if problem is not None:
            raise runtime_error(problem)
    if op.program is not None or (op.reflected is not None and not isinstance(args[0], Tensor)):
        signature = _signature(op, args, None)
        key = None if signature is None else ("composite", *signature)
        together = _COMPUTING.get(key) if key is not None else None
        checked = together is not None
        if together is None:
            together = promote([a.data for a in args if isinstance(a, Tensor)],
                               [a for a in args if not isinstance(a, Tensor)])
        emit = _Emitter(graph, span)
        if op.program is None:  # 2 / x: x.reciprocal() * 2 (Op.reflected)
            if not checked:
                _check_dtypes(op, args, together, None, params)
                _remember(key, together)
            return op.reflected(emit, *args)  # type: ignore[misc]
        # (a composite's own refusals before its shape rule, nanmean's of integers and prelu's of two dtypes, but the
        # kernel's after it: prelu's of integers)
        if not checked:
            _check_dtypes(op, args, together, None, params, shapes_checked=False, after=_KERNEL_AFTER_SHAPES)
        if op.shape is not None:  # its own shape rule, which its parts may not hold (margin_ranking_loss's same dims)
            try:
                op.shape(*[np.shape(a.data) if isinstance(a, Tensor) else () for a in args], **params)
            except TypeError:
                pass  # (a rule that wants more than the call gave: the parts say what)
            except ValueError as problem:
                if not any(words in str(problem) for words in _NUMPY_BROADCAST):
                    raise
                # (shapes that do not broadcast: the part that meets them says so, its operands in PyTorch's order)
        if not checked:
            _check_dtypes(op, args, together, None, params, shapes_checked=True, after=_KERNEL_AFTER_SHAPES)
            _remember(key, together)
        try:
            made = op.program(emit, *args, **params)
        except ValueError as problem:
            _check_broadcast(op, args, params, problem)
            raise
        if not (signature is not None and op.backward_problem is None and isinstance(made, Tensor)
                and (signature, *[a.requires_grad for a in args if isinstance(a, Tensor)]) in _NO_BACKWARD_REFUSAL):
            _note_backward_refusal(graph, op, args, together, None, params, made, signature)
        return made
    if op.undifferentiable and op.shape is not None:  # (torch.nn.functional's and nll_loss_nd's checks come first)
        try:
            op.shape(*[np.shape(a.data) if isinstance(a, Tensor) else () for a in args], **params)
        except PythonValueError:
            raise
        except (ValueError, IndexError, TypeError):
            pass
    if op.saved_sizes and graph.grad_enabled and isinstance(args[0], Tensor) and args[0].requires_grad:
        rank = args[0].data.ndim
        for dim in op.saved_sizes:  # (autograd's saved sizes, read before the kernel: im2col's)
            if not -max(rank, 1) <= dim < max(rank, 1) or not rank:
                raise TorchError("IndexError", f"Dimension specified as {dim} but tensor has no dimensions" if not rank
                                 else f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but "
                                      f"got {dim})")
    for place, function, name in op.undifferentiable:
        if graph.grad_enabled and isinstance(args[place], Tensor) and args[place].requires_grad:
            raise runtime_error(f"The function '{function}' is not differentiable with respect to argument '{name}'. "
                                "This input cannot have requires_grad True.")
    numbers = [a for a in args if not isinstance(a, Tensor)]
    signature = _signature(op, args, cast)
    computing = _COMPUTING.get(signature) if signature is not None else None
    known = computing is not None
    if computing is None:
        dtype = _result_type(op, args, params)
        # The row's dtype rule (Op.dtype): integers and booleans stay what they are through the ops that
        # keep them (+ - *, shapes, indexing, max, sum ...); any other op computes in float32.
        computing = dtype if dtype.kind == "f" or op.keeps_integers or _keeps(op, params) else FLOAT32
        if op.dtype == "param":  # x.to(dtype): the copy in that dtype
            cast = params["dtype"]
        if cast is not None:  # sum(x, dtype=torch.float64): the args in that dtype, as PyTorch casts them first
            computing = np.dtype(cast)
        _check_dtypes(op, args, computing, cast, params, shapes_checked=False)  # (PyTorch's dtype checks come first ...)
        if op.dtype == "sums" and cast is None and computing.kind in "biu":  # a sum of integers or bools: int64 (dtype= wins)
            computing = INT64
        elif op.dtype == "squares" and computing == BOOL:
            computing = INT64
    shapes = [np.shape(a.data) if isinstance(a, Tensor) else () for a in args]
    _check_shape_refusal(op, shapes, params)
    _check_elements(graph, op, shapes, params, span)
    if not known:
        _check_dtypes(op, args, computing, cast, params, shapes_checked=True)  # (... but a product's after its shapes)
        _remember(signature, computing)
    if computing.kind in "biu":
        promoted = {id(a) for a in _promoted(op, args)}
        values = [(a.data if id(a) not in promoted else a.data.astype(computing, copy=False))  # (an index stays one)
                  if isinstance(a, Tensor) else _number(a, computing) for a in args]
    else:
        own = op.dtype == "target"  # (a kernel that computes in each tensor's own dtype in turn: the row does it)
        values = [(a.data if own else a.data.astype(computing, copy=False)) if isinstance(a, Tensor) else float(a)
                  for a in args]
    if not op.elementwise and numbers:  # (a rule that is not elementwise takes arrays: scatter(x, 0, i, 2.5))
        values = [np.asarray(v) for v in values]
    integer_out = _integer_forward(op, args, values) if computing.kind in "biu" else None
    with np.errstate(all="ignore"):
        try:
            out = integer_out if integer_out is not None else np.asarray(
                call_forward(op, values, params, [0] * len(values)))
        except LinAlgError as problem:
            raise TorchError(LINALG_ERROR, str(problem)) from None
        except (ValueError, IndexError) as problem:
            _check_broadcast(op, args, params, problem)
            said = None if isinstance(problem, (ValueRefusal, DimError, Unsupported)) else check_rule(op, args, params)
            if said is not None:
                raise said from None
            raise
    if op.boolean:
        out = out.astype(BOOL)
    elif op.integer_valued(params):  # argmax, max's indices; LU's pivots (int32)
        out = out.astype(op.integer_dtype)
    elif out.dtype != computing and (out.dtype.kind == "f" or computing.kind in "biu"):
        out = out.astype(computing)
    if op.dtype == "target" and isinstance(args[1], Tensor) and args[1].data.dtype.kind == "f":
        out = out.astype(args[1].data.dtype)
    written = np.dtype(cast) if cast is not None and op.dtype != "param" else computing if op.dtype == "first" else None
    if written is not None and written.kind != "f" and graph.grad_enabled and any(
            isinstance(a, Tensor) and a.requires_grad for a in args):  # (a gradient into an integer result)
        raise runtime_error(f"Autograd not support dtype: {torch_dtype_name(written)}")
    tracks = (op.differentiable and not op.detached(params) and graph.grad_enabled
              and (cast is None or np.dtype(cast).kind == "f")  # (an integer copy takes no gradient: x.long())
              and any(isinstance(a, Tensor) and a.requires_grad  # (a condition is no input of PyTorch's node)
                      for i, a in enumerate(args) if i not in op.conditions))
    if not tracks:
        return Tensor(graph, out)
    nodes = []
    for a, value in zip(args, values, strict=True):
        if isinstance(a, Tensor) and not a.requires_grad and computing.kind == "f" and a.data.dtype != computing:
            # (a bool or integer target of a float op: its derivatives read it in the op's dtype, as PyTorch's)
            nodes.append(graph.add(CONST, None, (), np.asarray(a.data if op.saved_integers else value), span))
        elif isinstance(a, Tensor):
            nodes.append(a.as_node(span))
        else:
            nodes.append(graph.add(CONST, None, (), np.asarray(float(a)), span))
            graph.tape.nodes[nodes[-1]].literal = _LITERALS[type(a)]  # a Python number (Node.is_number)
    index = graph.add(APPLY, op, tuple(nodes), out, span, params)
    if computing.kind == "f" and any((isinstance(a, Tensor) and a.data.dtype.kind == "f" and a.data.dtype != computing)
                                     or (computing != FLOAT64 and not isinstance(a, Tensor)) for a in args):
        graph.tape.nodes[index].promoted = computing.str  # (a Python number reaches the VJP as a float64 Number)
    made = Tensor(graph, out, node=index, requires_grad=True)
    graph.saves[index] = (tuple((a, a.version, a.version[0]) if isinstance(a, Tensor) else None for a in args),
                          made.version, 0)
    if not (signature is not None and op.backward_problem is None
            and (signature, *[a.requires_grad for a in args if isinstance(a, Tensor)]) in _NO_BACKWARD_REFUSAL):
        _note_backward_refusal(graph, op, args, computing, cast, params, made, signature)
    return made


# The dtype a call computes in, by its signature (_signature), once every dtype check of PyTorch's passed for it:
# those depend on the args' dtypes, dims and kinds of number alone, so the next call of that signature skips them.
_COMPUTING: dict[tuple[Any, ...], np.dtype] = {}
_SIGNATURES = 4096  # (forgotten past this many: a custom Function makes a row per call)
# The signatures, with whether each tensor arg requires grad, of calls whose backward PyTorch does not refuse by dtype
_NO_BACKWARD_REFUSAL: set[tuple[Any, ...]] = set()


def _keeps(op: Op, params: dict[str, Any]) -> bool:
    """Does an integer or bool tensor stay one through `op` (Op.dtype: not "float"; "rounds" where a rounding_mode
    is given)?"""
    return op.dtype not in ("float", "target") and (op.dtype != "rounds" or params.get("rounding_mode") is not None)


def _remember(signature: tuple[Any, ...] | None, computing: np.dtype) -> None:
    """Every dtype check passed for a call of this signature: they pass again for args of these dtypes."""
    if signature is not None:
        if len(_COMPUTING) > _SIGNATURES:
            _COMPUTING.clear()
        _COMPUTING[signature] = computing


def _signature(op: Op, args: Sequence[Any], cast: str | None) -> tuple[Any, ...] | None:
    """What `op`'s result dtype and dtype refusals depend on for these args; None where it is more (the dtype of
    x.to(dtype) and the Scalar params that promote, which are values: clamp's min; a refusal by a param's value:
    lu_unpack's "with unpack_pivots": Op.refuses_by_value)."""
    if op.scalar_params or op.dtype in ("param", "rounds") or op.refuses_by_value:
        return None
    return (op, cast, *[(a.data.dtype, a.data.ndim, a.stand_in) if isinstance(a, Tensor) else type(a) for a in args])


class _Promoting(engine.Backend):
    """engine's arrays, with PyTorch's dtypes in a backward: at a node whose args are float tensors of two dtypes, or
    a float32 tensor and a Python number (Node.promoted), each gradient reaches its arg in the arg's dtype, as
    PyTorch's engine casts it (x / 3 of a float32 x sends float32 on, not float64), and where the
    row's PyTorch formula promotes its args first (Op.backward_promotes: pow's log of a float32 base by a float64
    exponent is float64's) its VJP reads them promoted."""

    refuses_backward = False  # (a run raises PyTorch's words itself: _note_backward_refusal)

    def vjp_rule(self, node: Node) -> Any:
        rule = super().vjp_rule(node)
        if node.in_place and node.op is not None and node.op.in_place_vjp is not None:  # (EluBackward1)
            rule = super().vjp_rule(dataclasses.replace(node, op=_in_place_op(node.op)))
        if not node.promoted:
            return rule
        dtype = np.dtype(node.promoted)

        up_first = node.op is not None and node.op.backward_promotes

        def promoted(g: Any, ans: Any, *args: Any) -> tuple[Any, ...]:
            kinds = [getattr(a, "dtype", None) for a in args]
            # (a Python number as PyTorch's kernel reads it in a float32 computation: rounded to float32)
            up = [Number(dtype.type(a)) if type(a) is Number and dtype.itemsize < 8
                  else a.astype(dtype) if up_first and kind is not None and kind.kind == "f" and kind.itemsize < dtype.itemsize
                  else a for a, kind in zip(args, kinds, strict=True)]
            cotangents = rule(g, ans, *up)
            return tuple(c.astype(kind) if c is not None and kind is not None and kind.kind == "f"
                         and getattr(c, "dtype", kind) != kind else c
                         for c, kind in zip(cotangents, kinds, strict=True))

        return promoted


PROMOTING = _Promoting()


_IN_PLACE_OPS: dict[str, Op] = {}


def _in_place_op(op: Op) -> Op:
    """The row with its in-place node's VJP (Op.in_place_vjp) as its VJP."""
    if op.name not in _IN_PLACE_OPS and op.in_place_vjp is not None:
        _IN_PLACE_OPS[op.name] = dataclasses.replace(op, vjp=op.in_place_vjp)
    return _IN_PLACE_OPS[op.name]


def _note_backward_refusal(graph: Graph, op: Op, args: Sequence[Any], computing: np.dtype, cast: str | None,
                           params: dict[str, Any], made: Any, signature: tuple[Any, ...] | None = None) -> None:
    """Keep, on the node that `op` made, what PyTorch raises when a backward reaches it (_backward_refusal).
    Of a call by its signature (_signature), that none is kept (_NO_BACKWARD_REFUSAL)."""
    if not ((op.dtype_refusals or op.backward_problem) and graph.grad_enabled and isinstance(made, Tensor)
            and made.node is not None):
        return
    refusal = _backward_refusal(op, args, computing, cast, params)
    if refusal is None and signature is not None and op.backward_problem is None:  # (which depends on shapes)
        if len(_NO_BACKWARD_REFUSAL) > _SIGNATURES:
            _NO_BACKWARD_REFUSAL.clear()
        _NO_BACKWARD_REFUSAL.add((signature, *[a.requires_grad for a in args if isinstance(a, Tensor)]))
    if refusal is None and op.backward_problem is not None:
        tensors = [a for a in args if isinstance(a, Tensor)]
        problem = op.backward_problem([np.shape(a.data) for a in tensors], [a.requires_grad for a in tensors],
                                      [not a.stand_in for a in tensors], **params)
        refusal = None if problem is None else runtime_error(problem)
    if refusal is not None:
        graph.refusals[made.node] = refusal


_LITERALS = {bool: "bool", int: "int", float: "float"}


def _promoted(op: Op, args: Sequence[Any]) -> list[Any]:
    """The args that take part in PyTorch's type promotion: not an index (gather's) nor a mask (where's
    condition), which keep their own dtype, nor the number standing in for an optional tensor left out."""
    return [a for i, a in enumerate(args) if (op.index_from is None or i < op.index_from) and not (
        isinstance(a, Tensor) and (a.stand_in or (i in op.conditions and a.data.dtype == BOOL)))]


def _result_type(op: Op, args: Sequence[Any], params: dict[str, Any]) -> np.dtype:
    """The dtype `op` computes in before its own rule (Op.dtype): PyTorch's promotion of its tensors and
    numbers (the params that are Scalars of its signature among them: clamp's min and max), or the first
    tensor's dtype for the ops whose kernel writes into a tensor like it (Op.dtype "first")."""
    if op.dtype == "first" and isinstance(args[0], Tensor):
        return args[0].data.dtype
    promoted = _promoted(op, args)
    numbers = [a for a in promoted if not isinstance(a, Tensor)]
    numbers += [params[name] for name in op.scalar_params if params.get(name) is not None]
    return promote([a.data for a in promoted if isinstance(a, Tensor)], numbers)


# --- integers as PyTorch computes them: int64 that wraps, never through float64 ----------------

NEGATIVE_POWER = "Integers to negative integer powers are not allowed."


def _check_dtypes(op: Op, args: Sequence[Any], computing: np.dtype, cast: str | None, params: dict[str, Any],
                  shapes_checked: bool | None = None,
                  after: tuple[str, ...] = ("mixed", "integer alike", "bool alike", "index not long")) -> None:
    """PyTorch's refusals by dtype, as the row says them (Op.dtype_refusals): a mean of integers, a
    difference of bools, LU pivots that are not int32 (before the shapes are checked), a product of
    two dtypes (after them: the refusals that start with one of `after`). shapes_checked None: all of them. (The
    ones PyTorch makes in a backward, "... into N", are _backward_refusal's.)"""
    for when, kind, message in op.dtype_refusals:
        if " into " in when or (shapes_checked is not None and shapes_checked != when.startswith(after)):
            continue
        if _refused(op, when, args, computing, cast, params):
            raise _refusal(op, args, kind, message, params, cast)


_KERNEL_AFTER_SHAPES = ("integer alike", "bool alike")


def check_dtype_refusals(op: Op, args: Sequence[Any], params: dict[str, Any], composite: bool = False) -> None:
    """Op.dtype_refusals of a call that gives its input itself (torch.positive of a bool is PyTorch's error all the same);
    `composite`: those a composite makes before its shape rule (as apply does: meshgrid's of two dtypes), for a call
    whose parts are counted by that rule."""
    if op.dtype_refusals:
        together = promote([a.data for a in args if isinstance(a, Tensor)], [a for a in args if not isinstance(a, Tensor)])
        if composite:
            _check_dtypes(op, args, together, None, params, shapes_checked=False, after=_KERNEL_AFTER_SHAPES)
        else:
            _check_dtypes(op, args, together, None, params)


def _backward_refusal(op: Op, args: Sequence[Any], computing: np.dtype, cast: str | None,
                      params: dict[str, Any]) -> TorchError | None:
    """What PyTorch raises when a backward reaches this call's node (Op.dtype_refusals' "... into N": a gradient
    into the tensor arg N meets a dtype its derivative cannot take, as pow's exponent - 1 of a bool), or None."""
    tensors = [a for a in args if isinstance(a, Tensor)]
    for when, kind, message in op.dtype_refusals:
        if " into " not in when:
            continue
        condition, places = when.split(" into ")
        flows = any(int(place) < len(tensors) and tensors[int(place)].requires_grad for place in places.split())
        if flows and _refused(op, condition, args, computing, cast, params):
            return _refusal(op, args, kind, message, params)
    return None


def _refused(op: Op, when: str, args: Sequence[Any], computing: np.dtype, cast: str | None,
             params: dict[str, Any]) -> bool:
    """Does the refusal `when` (Op.dtype_refusals) hold for these args? A tensor arg's place may end the words
    ("bool input 1", "integer 2", "uncastable 1"): that arg's dtype, else the first's; " and " joins two."""
    if " and " in when:
        return all(_refused(op, part, args, computing, cast, params) for part in when.split(" and "))
    tensors = [a.data for a in args if isinstance(a, Tensor)]
    standing = [a.stand_in for a in args if isinstance(a, Tensor)]  # (an optional tensor left out)
    promoted = [a.data for a in _promoted(op, args) if isinstance(a, Tensor)]
    compared = [a.data for i, a in enumerate(args) if isinstance(a, Tensor) and not a.stand_in  # (masks too)
                and (op.index_from is None or i < op.index_from)]
    words = when.split()
    place = int(words[-1]) if words[-1].isdigit() and not when.startswith("mixed") else 0
    word = " ".join(words[:-1]) if words[-1].isdigit() and not when.startswith("mixed") else when
    one = tensors[place] if place < len(tensors) and not standing[place] else None
    if word in ("integer", "int"):
        return cast is None and one is not None and one.dtype.kind in ("biu" if word == "integer" else "iu")
    if word == "integer or vector":  # (pinv's: a tensor of fewer than 2 dims refused as an integer one, in one message)
        return cast is None and one is not None and (one.dtype.kind in "biu" or one.ndim < 2)
    if word == "integer cast":  # (an integer input refused whatever dtype= says: vector_norm's)
        return one is not None and one.dtype.kind in "biu"
    if word == "integer dtype":  # dtype= is an integer or bool (vector_norm(x, dtype=torch.int64))
        return cast is not None and np.dtype(cast).kind in "biu"
    if word == "narrowing cast":  # dtype= narrower than the input's (vector_norm(double, dtype=torch.float32))
        return cast is not None and one is not None and not np.can_cast(one.dtype, np.dtype(cast), "safe")
    if word == "result integer":  # (a kernel dispatched on the args' promoted dtype: logaddexp's of a bool and a float adds)
        return cast is None and bool(promoted) and promote(promoted, []).kind in "biu"
    if word == "integer alike":  # (a kernel's refusal, where its dtype check of the others passed)
        return cast is None and one is not None and one.dtype.kind in "biu" and all(t.dtype == one.dtype for t in compared)
    if word == "float":
        return one is not None and one.dtype.kind == "f"
    if word == "number":  # (a Python number there: PyTorch's Scalar overload, lerp's weight)
        return place >= len(args) or not isinstance(args[place], Tensor)
    if word == "not result":
        return one is not None and one.dtype != promote(promoted, [])
    if word == "bool":
        return computing == BOOL
    if words[0] == "given":  # "given rounding_mode": the call gives that param (not None)
        return params.get(words[1]) is not None
    if words[:2] == ["left", "out"]:  # "left out repeats": the call does not give it
        return params.get(words[2]) is None
    if words[0] == "with":  # "with unpack_pivots": that param is true
        return bool(params.get(words[1]))
    if word == "any bool":  # (a Python bool too: PyTorch wraps it as a bool tensor, x - True)
        return cast is None and (any(t.dtype.kind == "b" for t in promoted) or any(isinstance(a, (bool, np.bool_))
                                                                                   for a in args))
    if word == "any integer":
        return cast is None and any(t.dtype.kind in "biu" for t in promoted)
    if word in ("bool input", "bool alike"):  # ("bool alike": the same, checked after the shapes)
        return cast is None and one is not None and one.dtype == BOOL
    if word == "index not int32":
        return any(isinstance(a, Tensor) and a.data.dtype != INT32 for a in args[op.index_from or 0:])
    if word in ("target not long or byte", "vector target not long or byte"):  # (nll_loss's class indices: int64 or
        # uint8, before its shape checks; nll_loss_forward's after its target's rank, which it checks first)
        return any(isinstance(a, Tensor) and a.data.dtype.name not in ("int64", "uint8")
                   and (word[0] != "v" or a.data.ndim <= 1) for a in args[op.index_from or 0:])
    if word == "index not long or int":  # (embedding's indices: int64 or int32)
        return any(isinstance(a, Tensor) and a.data.dtype.name not in ("int64", "int32") for a in args[op.index_from or 0:])
    if word == "index not long":  # (nll_loss2d's class indices: int64)
        return any(isinstance(a, Tensor) and a.data.dtype.name != "int64" for a in args[op.index_from or 0:])
    if word == "uncastable":  # (a result of another category than the tensor's it is written into)
        return one is not None and _CATEGORY[promote(promoted, []).kind] > _CATEGORY[one.dtype.kind]
    if word == "mixed":
        return len({t.dtype for t in compared}) > 1
    if word.startswith("mixed params"):  # (the normalizations' kernels: their mixed mode takes float32 alone)
        weights = [tensors[i] for i in map(int, when.split()[2:]) if i < len(tensors) and not standing[i]]
        return bool(weights) and weights[0].dtype != tensors[0].dtype and any(w.dtype != FLOAT32 for w in weights)
    if word.startswith("mixed shaped"):  # "mixed shaped 0 2": as "mixed 0 2", a 0-d one left out (a Scalar to PyTorch)
        places = [i for i in map(int, words[2:]) if i < len(tensors) and not standing[i]
                  and (i == int(words[2]) or tensors[i].ndim)]
        return len({tensors[i].dtype for i in places}) > 1
    # "mixed 0 2": the args at these places that are tensors (a Python number there is a Scalar to PyTorch:
    # scatter(x, 1, index, 1) writes it in x's dtype)
    places = [int(place) for place in words[1:]]
    return len({args[i].data.dtype for i in places
                if i < len(args) and isinstance(args[i], Tensor) and not args[i].stand_in}) > 1


def _refusal(op: Op, args: Sequence[Any], kind: str, message: str, params: dict[str, Any],
             cast: str | None = None) -> TorchError:
    """A refusal's message, its {0} ... {c0} ... {shape0} ... {odd} {result} {cast} said for these args
    (Op.dtype_refusals)."""
    tensors = [a.data for a in args if isinstance(a, Tensor)]
    promoted = [a.data for a in _promoted(op, args) if isinstance(a, Tensor)]
    names = [torch_dtype_name(t.dtype) for t in tensors]
    kernels = {f"c{i}": kernel_dtype_name(t.dtype) for i, t in enumerate(tensors)}
    odd = next((name for t, name in zip(tensors, names, strict=True) if t.dtype != tensors[0].dtype), "")
    result = torch_dtype_name(promote(promoted, []))
    shapes = {f"shape{i}": list(t.shape) for i, t in enumerate(tensors)}
    said = {name: value for name, value in params.items() if isinstance(value, str)}  # ("div_{rounding_mode}_cpu")
    return TorchError(kind, message.format(*names, odd=odd, result=result, lastdim=_lastdim(tensors, params), **kernels,
                                           **shapes, **said, cast=torch_dtype_name(np.dtype(cast)) if cast else ""))


def _lastdim(tensors: Sequence[Array], params: dict[str, Any]) -> str:
    """"_lastdim" where a softmax's dim is its input's last (PyTorch's kernel for it), else "" (its implicit dim:
    0 for 0, 1 and 3 dims, else 1)."""
    ndim = tensors[0].ndim if tensors else 0
    dim = params.get("dim")
    if not isinstance(dim, int):
        dim = 0 if ndim in (0, 1, 3) else 1
    return "_lastdim" if dim % max(ndim, 1) == max(ndim, 1) - 1 else ""


_NUMPY_BROADCAST = ("could not be broadcast", "cannot be broadcast")


def check_rule(op: Op, args: Sequence[Any], params: dict[str, Any]) -> TorchError | None:
    """A forward that failed in NumPy's words (cannot reshape, tuple index out of range) at shapes the row's shape rule
    refuses: the rule's words, PyTorch's, which it says before it computes (a DimError its IndexError); None where the
    rule takes the shapes."""
    if op.shape is None:
        return None
    try:
        op.shape(*[np.shape(a.data) if isinstance(a, Tensor) else () for a in args], **params)
    except ValueRefusal as words:
        return TorchError(words.kind, str(words))
    except DimError as words:
        return TorchError("IndexError", str(words))
    except Unsupported:  # (what gradcli lacks is said as a gap, exit 2, by the caller)
        return None
    except ValueError as words:
        return runtime_error(said(words, args))
    except (IndexError, TypeError):
        pass
    return None


def _check_broadcast(op: Op, args: Sequence[Any], params: dict[str, Any], problem: Exception) -> None:
    """A rule that met tensor args NumPy could not broadcast: PyTorch's words for them, as it says them before it
    computes: the row's shape rule's (expand_as: core.expand_problem), else broadcasting's (tape.broadcast_shape)."""
    if not any(words in str(problem) for words in _NUMPY_BROADCAST):
        return
    if op.shape is not None:
        try:
            op.shape(*[np.shape(a.data) if isinstance(a, Tensor) else () for a in args], **params)
        except ValueError as words:
            if not any(numpy in str(words) for numpy in _NUMPY_BROADCAST):
                raise runtime_error(said(words, args)) from None
        except TypeError:
            pass  # (a rule that wants more than the call gave)
    try:
        broadcast_shape([a.data.shape for a in args if isinstance(a, Tensor)])
    except ValueError as words:
        raise runtime_error(str(words)) from None


def _number(value: Any, computing: np.dtype) -> Any:
    """A Python number as an operand: in an integer op an int64 (as PyTorch unpacks it: 2**63 wraps,
    past 64 bits is an OverflowError), else a double."""
    if computing.kind not in "biu" or isinstance(value, float):
        return float(value)
    if computing == BOOL:
        return np.bool_(value)
    number = int(value)
    if not -(2**63) <= number < 2**64:
        raise TorchError("OverflowError", "int too big to convert")
    return np.uint64(number).astype(INT64) if number >= 2**63 else np.int64(number)


def _integer_forward(op: Op, args: Sequence[Any], values: list[Any]) -> Array | None:
    """What PyTorch's integer kernels do where NumPy's differ: division by zero raises, and a negative
    power is refused for a Python exponent and is 1, -1 or 0 for a tensor's (an integer's reciprocal)."""
    if op.name in ("floor_divide", "div_rounding", "remainder", "fmod") and np.any(np.asarray(values[1]) == 0):
        raise runtime_error("ZeroDivisionError")
    if op.name != "pow" or not np.any(np.asarray(values[1]) < 0):
        return None
    if not isinstance(args[1], Tensor):
        raise runtime_error(NEGATIVE_POWER)
    base, exponent = np.broadcast_arrays(np.asarray(values[0], dtype=INT64), np.asarray(values[1], dtype=INT64))
    with np.errstate(all="ignore"):
        powers = np.power(base, np.maximum(exponent, 0))
    reciprocal = np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0))
    return np.where(exponent < 0, reciprocal, powers).astype(INT64)


def _check_shape_refusal(op: Op, shapes: list[tuple[int, ...]], params: dict[str, Any]) -> None:
    """The shapes PyTorch refuses in its own words, which the row's shape rule says (a ValueRefusal: masked_fill's value
    of 1 dim): raised before the op computes (the rule's other problems are said by the forward, as PyTorch says them)."""
    if op.shape is None:
        return
    try:
        op.shape(*shapes, **params)
    except (ValueRefusal, DimError):  # (a dim out of range, or an empty one a reduction cannot take: its IndexError)
        raise
    except (ValueError, IndexError, TypeError):
        pass


def _check_elements(graph: Graph, op: Op, shapes: list[tuple[int, ...]], params: dict[str, Any],
                    span: tuple[int, int]) -> None:
    """Refuse, before it is computed, a value past the elements limit (from the op's shape rule)."""
    try:
        shape = output_shape(op, shapes, params, span, graph.tape.source)
    except TypeError:
        return  # (a rule that wants more than the call gave: the op's own error follows)
    if graph.elements is None:  # (read once a run computes: the file cannot change it)
        graph.elements = Limits.get("elements")
    if shape is not None and math.prod(shape) > graph.elements:
        raise over_limit(f"this tensor would have {math.prod(shape):,} elements", "elements",
                         source=graph.tape.source, span=span)
