"""The interpreter of `gradcli run`: PyTorch autograd code as tutorials write it, statement by statement.

The file is parsed by Python's own parser into a syntax tree (`ast.parse`, which reads and
never runs anything), and this module walks that tree: imports of torch, numpy and math bind
modules, assignments bind names, calls go to the op table (tensor ops, as functions and
methods), to the autograd API (backward, autograd.grad, .grad, .grad_fn ...) or to the file's
own functions, and print writes what PyTorch would print. Loops, `if`, `def`, `lambda` and
comprehensions run as Python runs them (their scopes and builtins: gradcli.run.python), each
statement and loop iteration a step of a bounded budget (--max-steps, --timeout). Anything
else -- classes, try, other imports, attributes of anything but tensors, nodes, known modules
and Python's lists, dicts and strings -- is refused with its line and column. Nothing a file
says is passed to eval or exec, and a format string may not reach into attributes
(`"{0.__class__}".format(x)` is refused).
"""

from __future__ import annotations

import ast
import builtins
import itertools
import math
import operator
import re
import string
import sys
import time
import warnings
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

import numpy as np

from gradcli import engine, lowering, mkl
from gradcli.errors import GradcliError, LimitProblem, Limits, SyntaxProblem, over_limit, visible
from gradcli.inputs import ranges
from gradcli.ops import (
    BINARY_OPERATORS,
    FUNCTIONS,
    MEMORY_FORMATS,
    METHODS,
    OPS,
    PREFIX_OPERATORS,
    Op,
    backwards,
    call_forward,
    indexing,
)
from gradcli.ops.core import (
    DEFAULT_FLOAT,
    DimError,
    Unsupported,
    ValueRefusal,
    WrittenList,
    expand_problem,
    kernel_dtype_name,
    rule_params,
    too_few_sizes,
    torch_dtype_name,
)
from gradcli.run import (
    arrays,
    custom,
    distributions,
    functional,
    gradcheck,
    higher,
    python,
    random,
    reprs,
    schedulers,
    stdlib,
)
from gradcli.run import data as torch_data
from gradcli.run import nn as torch_nn
from gradcli.run.python import BUILTINS as _BUILTINS
from gradcli.run.python import (
    BoundMethod,
    Break,
    Builtin,
    Caught,
    ClassMethod,
    Continue,
    ExceptionClass,
    Frame,
    Instance,
    Lazy,
    Property,
    PythonError,
    Return,
    Super,
    UserClass,
    UserFunction,
    python_error,
)
from gradcli.run.python import type_name as _type_name
from gradcli.run.tensor import (
    BOOL,
    FLOAT32,
    FLOAT64,
    FREED,
    INT64,
    LINALG_ERROR,
    PROMOTING,
    GradFn,
    Graph,
    Tensor,
    TorchError,
    apply,
    check_dtype_refusals,
    check_rule,
    node_name,
    runtime_error,
    said,
)
from gradcli.tape import APPLY, INPUT
from gradcli.torch_graph import input_slots, next_functions, reachable

Span = tuple[int, int]
_WALK_DEPTH = 40_000
_LINALG_ERRORS = ("torch.linalg.LinAlgError", "torch._C._LinAlgError")  # (RuntimeErrors: LINALG_ERROR)
MAX_STEPS = 10_000_000  # statements and loop iterations of one run (--max-steps)
TIMEOUT = 60.0  # seconds of one run (--timeout)
_RESHAPES = frozenset({"reshape", "flatten", "unflatten", "view_as"})  # (a view where the strides allow it)
# the rows whose result is a view of their first arg in PyTorch (a write into either is seen by the other)
VIEW_ROWS = frozenset({"reshape", "flatten", "t", "transpose", "permute", "squeeze", "unsqueeze", "select", "narrow",
                       "diagonal", "movedim", "unflatten", "view_as", "expand", "expand_as"})

# --- what a program can name: modules, dtypes, functions --------------------------------------

_MODULES = {"torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.autograd", "torch.special", "torch.linalg",
            "torch.cuda", "torch.accelerator", "torch.backends", "torch.backends.mps", "torch.utils", "torch.utils.data",
            "torch.masked", "torch.fft", "numpy", "numpy.linalg", "numpy.random", "torch.nn.init", "math", "torch.autograd.functional", "random",
            "torch.autograd.function", "torch.autograd.graph",
            "torch.optim.lr_scheduler", "torch.nn.utils", "copy", "torch.distributions", "collections", "itertools",
            "torch.functional", "sys", "torch.nn.utils.rnn",
            *(f"torch.distributions.{name}" for name in distributions.SUBMODULES)}
TORCH_VERSION = "2.13.0+cpu"  # the PyTorch whose behaviour gradcli run follows (its CPU build)
_END = object()  # (what a loop's iterator gives when it has no more)
_FUTURE = {"nested_scopes", "generators", "division", "absolute_import", "with_statement", "print_function",
           "unicode_literals", "generator_stop", "annotations"}
# torch.functional's own names (its __all__), each torch's function of the name
_TORCH_FUNCTIONAL = frozenset({"atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes",
                               "broadcast_tensors", "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum",
                               "istft", "lu", "norm", "meshgrid", "pca_lowrank", "split", "stft", "svd_lowrank",
                               "tensordot", "unique", "unique_consecutive", "unravel_index"})
# The activations of torch.nn.functional with an inplace= keyword (F.relu(x, inplace=True))
_IN_PLACE_ACTIVATIONS = frozenset({"relu", "relu6", "elu", "selu", "celu", "leaky_relu", "rrelu", "hardtanh",
                                   "hardsigmoid", "hardswish", "silu", "mish", "threshold"})
_DATA = {"DataLoader", "TensorDataset", "Dataset", "random_split"}  # importable; run/data.py takes the first two
_TORCH_INTS = (INT64, np.dtype(np.int32), np.dtype(np.int16), np.dtype(np.int8), np.dtype(np.uint8))  # (NumPy ints torch keeps)


# Python's own builtins (Python 3.11 to 3.14): a name among them that gradcli does not have is
# refused as not supported, where a name Python lacks too is the file's NameError.
_PYTHON_BUILTINS = frozenset(dir(builtins)) | {"aiter", "anext", "breakpoint", "exit", "quit", "copyright", "credits",
                                                "license", "help", "PythonFinalizationError", "EncodingWarning"}
_NO_CODE = "a file under `gradcli run` reads no files and runs no code but its own statements"
_UNSAFE_BUILTINS = {name: _NO_CODE for name in (
    "open", "exec", "eval", "compile", "__import__", "input", "breakpoint", "exit", "quit", "help", "globals", "locals",
    "vars", "delattr", "dir", "memoryview")}
_NOT_IMPLEMENTED = "NotImplemented"  # the node PyTorch records for an op it has no derivative of


class DefaultGenerator:
    """torch's default CPU generator as torch.manual_seed returns it: it prints as PyTorch's object does; gradcli
    run takes nothing else from it."""

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"

    def type_name(self) -> str:
        return "torch._C.Generator"


DEFAULT_GENERATOR = DefaultGenerator()


@dataclass(frozen=True)
class Module:
    path: str

    def __repr__(self) -> str:
        return f"<module '{self.path}'>"


@dataclass(frozen=True)
class Function:
    module: str
    name: str

    def __repr__(self) -> str:
        if self.module == "torch" and self.name in _LEGACY:  # (classes: torch.Tensor, torch.FloatTensor)
            return f"<class 'torch.{self.name}'>"
        return f"<built-in method {self.name} of type object at 0x7f3e00000000>"


@dataclass(frozen=True)
class Dtype:
    numpy: np.dtype

    def __repr__(self) -> str:
        return f"torch.{self.numpy.name}"


_DTYPE_OBJECTS: dict[np.dtype, Dtype] = {}


def dtype_of(numpy: np.dtype) -> Dtype:
    """torch.float32 and x.dtype are one object, as in PyTorch (`x.dtype is torch.float32`)."""
    return _DTYPE_OBJECTS.setdefault(np.dtype(numpy), Dtype(np.dtype(numpy)))


@dataclass(frozen=True)
class Device:
    """torch.device: gradcli computes on the CPU, and answers so where a file asks (no CUDA, no accelerator)."""

    type: str
    index: int | None = None

    def __repr__(self) -> str:
        return f"device(type='{self.type}')" if self.index is None else f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"


CPU = Device("cpu")


@dataclass(frozen=True)
class MemoryFormat:
    """torch.contiguous_format and the others: a word a copy may be given, which changes no value here."""

    name: str

    def __repr__(self) -> str:
        return f"torch.{self.name}"


@dataclass(frozen=True)
class Layout:
    """torch.strided: the one layout of a tensor here, which a constructor may be given."""

    name: str = "strided"

    def __repr__(self) -> str:
        return f"torch.{self.name}"


def creation_options(name: str, kwargs: dict[str, Any]) -> None:
    """A *_like constructor's layout=, memory_format= and pin_memory=, as PyTorch's parser and CPU allocator take
    them: torch.strided, a memory format, False (or None) change nothing here; another type is its TypeError."""
    for key, kind in (("layout", Layout), ("memory_format", MemoryFormat)):
        value = kwargs.get(key)
        if value is not None and not isinstance(value, kind):
            raise TorchError("TypeError", f"{name}(): argument '{key}' must be torch.{key}, not {_type_name(value)}")
    pin = kwargs.get("pin_memory")
    if pin is not None and not isinstance(pin, bool):
        raise TorchError("TypeError", f"{name}(): argument 'pin_memory' must be bool, not {_type_name(pin)}")
    if pin:
        raise runtime_error("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator "
                            "is available on this system.")
_PLATFORM = {("torch", "device"), ("torch", "set_default_device"), ("torch.cuda", "is_available"),
             ("torch.cuda", "device_count"), ("torch.accelerator", "is_available"),
             ("torch.accelerator", "current_accelerator"), ("torch.backends.mps", "is_available")}
_SOFTMAXES = ("softmax", "log_softmax", "softmin")
_LEGACY: dict[str, np.dtype] = {"Tensor": FLOAT32, "FloatTensor": FLOAT32, "DoubleTensor": FLOAT64, "LongTensor": INT64,
                                "IntTensor": np.dtype(np.int32), "ShortTensor": np.dtype(np.int16),
                                "CharTensor": np.dtype(np.int8), "ByteTensor": np.dtype(np.uint8), "BoolTensor": BOOL}

_DTYPES: dict[str, np.dtype] = {"float32": FLOAT32, "float": FLOAT32, "float64": FLOAT64, "double": FLOAT64, "int64": INT64,
           "long": INT64, "int32": np.dtype(np.int32), "int": np.dtype(np.int32), "int16": np.dtype(np.int16),
           "short": np.dtype(np.int16), "int8": np.dtype(np.int8), "uint8": np.dtype(np.uint8), "bool": BOOL}


class ReturnTuple(tuple[Any, ...]):
    """PyTorch's namedtuple of a call such as torch.max(x, 0): `.values`, `.indices`."""

    def __new__(cls, function: str, fields: tuple[str, ...], items: list[Any]) -> ReturnTuple:
        made = super().__new__(cls, items)
        made.function, made.fields = function, fields  # type: ignore[attr-defined]
        return made

    def __repr__(self) -> str:
        inner = ",\n".join(f"{name}={item!r}" for name, item in zip(self.fields, self, strict=True))  # type: ignore[attr-defined]
        return f"torch.return_types.{self.function}(\n{inner})"  # type: ignore[attr-defined]

    __str__ = __repr__

    def type_name(self) -> str:  # (type(r): <class 'torch.return_types.max'>, its __name__ 'max')
        return f"torch.return_types.{self.function}"  # type: ignore[attr-defined]


class Size(tuple[int, ...]):
    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def __add__(self, other: Any) -> Any:  # x.shape + (4,), x.shape * 2, x.shape[1:]: still a torch.Size
        return Size(tuple(self) + other) if isinstance(other, tuple) else NotImplemented

    def __radd__(self, other: Any) -> Any:
        return Size(other + tuple(self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, count: Any) -> Any:
        return Size(tuple(self) * count) if isinstance(count, int) else NotImplemented

    __rmul__ = __mul__

    def __getitem__(self, key: Any) -> Any:
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item


def _new_size(args: list[Any], kwargs: dict[str, Any]) -> Size:
    """torch.Size(sizes=()): a torch.Size of an iterable of ints, with Python's and PyTorch's TypeErrors."""
    if kwargs:
        raise PythonError("TypeError", "torch.Size() takes no keyword arguments")
    if len(args) > 1:
        raise PythonError("TypeError", f"torch.Size expected at most 1 argument, got {len(args)}")
    given = args[0] if args else ()
    if not isinstance(given, (tuple, list, range)):
        raise PythonError("TypeError", f"'{_type_name(given)}' object is not iterable")
    for position, item in enumerate(given):
        if isinstance(item, Tensor) and item.data.ndim == 0 and item.data.dtype.kind in "iu":
            continue
        if not isinstance(item, int):
            raise PythonError("TypeError", f"torch.Size() takes an iterable of 'int' (item {position} is "
                                           f"'{_type_name(item)}')")
    return Size(int(item.data) if isinstance(item, Tensor) else int(item) for item in given)


def _size_numel(size: Size, args: list[Any], kwargs: dict[str, Any]) -> int:
    if args or kwargs:
        raise PythonError("TypeError", f"numel() takes no arguments ({len(args) + len(kwargs)} given)")
    return math.prod(size)


def _check_write_shape(value: tuple[int, ...], target: tuple[int, ...], advanced: bool, dtype: np.dtype) -> None:
    """PyTorch's error where `t[k] = v` cannot write v's shape (of `dtype`) into the elements k names: index_put_'s
    words where the key has an index tensor or a mask, copy_'s (an expand of v) where it has ints and slices alone."""
    if advanced:
        try:
            fits = np.broadcast_shapes(value, target) == tuple(target)
        except ValueError:
            fits = False
        if not fits:
            raise runtime_error(f"shape mismatch: value tensor of shape [{', '.join(map(str, value))}] cannot be "
                                f"broadcast to indexing result of shape [{', '.join(map(str, target))}]")
        return
    if len(value) > len(target):
        raise runtime_error(too_few_sizes(value, target).typed([dtype.name]))
    problem = expand_problem(value, target)
    if problem:
        raise runtime_error(problem)


def _without_leading_ones(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A value's sizes with the 1s on its left dropped, as PyTorch's setitem views the value it writes."""
    first = next((i for i, size in enumerate(shape) if size != 1), len(shape))
    return tuple(shape[first:])


@dataclass
class Method:
    receiver: Any
    name: str


@dataclass
class BackwardCall:
    """One backward (or autograd.grad) the file made: what the views show."""

    kind: str  # "backward" or "autograd.grad"
    roots: list[int]
    seeds: list[np.ndarray]
    grads: dict[str, Any] = field(default_factory=dict)  # what it gave each leaf (or input); None: nothing
    adjoints: Sequence[Any] = field(default_factory=list)
    line: int = 0


class HookHandle:
    """What t.register_hook gives: torch.utils.hooks.RemovableHandle (its remove() takes the hook away)."""

    def __init__(self, function: Any, handles: list[HookHandle]) -> None:
        self.function, self.handles = function, handles

    def remove(self) -> None:
        if self in self.handles:
            self.handles.remove(self)

    def type_name(self) -> str:
        return "RemovableHandle"

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {python.address(self)}>"


class NodeClass:
    """torch.autograd.graph.Node, the class of every grad_fn: for isinstance."""

    def __repr__(self) -> str:
        return "<class 'torch.autograd.graph.Node'>"

    @staticmethod
    def instance_check(value: Any) -> bool:
        return isinstance(value, GradFn)


NODE_CLASS = NodeClass()
_NODE_HOOK = object()  # (in node_hooks: a grad_fn.register_hook's hook, called hook(grad_inputs, grad_outputs))


class NodeHookHandle:
    """What grad_fn.register_hook and register_prehook give: a RemovableHandle that takes its entry away."""

    def __init__(self, entry: Any, entries: list[Any]) -> None:
        self.entry, self.entries = entry, entries

    def remove(self) -> None:
        for i, item in enumerate(self.entries):
            if item is self.entry:
                del self.entries[i]
                return

    def type_name(self) -> str:
        return "RemovableHandle"

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {python.address(self)}>"


@dataclass(frozen=True)
class GradMode:
    """What torch.no_grad(), enable_grad() and set_grad_enabled(mode) give: a context (and a decorator)."""

    enabled: bool
    name: str
    before: bool | None = None  # set_grad_enabled's: the mode before the call set it
    inference: bool = False  # inference_mode(True)'s: the tensors made in it are inference tensors

    def __repr__(self) -> str:
        return f"<torch.autograd.grad_mode.{self.name} object at {python.address(self)}>"


@dataclass
class AnomalyMode:
    """What torch.autograd.detect_anomaly() and set_detect_anomaly(mode) give: a context (set_detect_anomaly's is
    set at the call, `before` the mode it found)."""

    enabled: bool
    name: str
    before: bool | None = None

    def __repr__(self) -> str:
        return f"<torch.autograd.anomaly_mode.{self.name} object at {python.address(self)}>"


_ANOMALY = ("set_detect_anomaly", "detect_anomaly", "is_anomaly_enabled")
_CONSTRUCTORS = {"tensor", "as_tensor", "array", "ones", "zeros", "ones_like", "zeros_like", "full", "full_like", "eye",
                 "arange", "linspace", "empty", "rand", "randn", "randint", "rand_like", "randn_like", "manual_seed",
                 "randperm", "initial_seed", "normal", "multinomial",
                 "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode", "grad", "backward",
                 "is_tensor", *_ANOMALY,
                 "from_numpy", "isclose", "allclose", "equal"}
_CLOSENESS = ("isclose", "allclose", "equal")
_LOGIC = ("all", "any")  # torch.all(x, dim): x.all(dim)
_KINDS = {bool: lowering.BOOL, int: lowering.INT, float: lowering.FLOAT, type(None): lowering.NONE, str: lowering.STR,
          list: lowering.LIST, tuple: lowering.TUPLE, Size: lowering.TUPLE}
_RANDOM = {"rand", "randn", "randint", "rand_like", "randn_like", "randperm", "manual_seed", "initial_seed", "normal",
           "multinomial"}
_NORMAL_OVERLOADS = (
    "normal() received an invalid combination of arguments - got ({}), but expected one of:\n"
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n")
_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "newaxis": None}


_T_NOT_2D = ("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
             "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
             "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. (Triggered "
             "internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, "
    "use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
    "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


# Interpreter's method for each kind of statement (do_For) and expression (_BinOp), found once by the node's type
_STATEMENTS: dict[type, Callable[..., None]] = {}
_EXPRESSIONS: dict[type, Callable[..., Any]] = {}


class Interpreter:
    def __init__(self, source: str, out: TextIO, filename: str = "<stdin>", errors: TextIO | None = None,
                 max_steps: int = MAX_STEPS, timeout: float = TIMEOUT) -> None:
        self.source = source
        self.out = out
        self.filename = filename
        self.errors = errors  # where PyTorch's warnings go, as Python writes them (None: nowhere)
        self.warned: set[tuple[int | str, str] | str] = set()  # (line, message) that warned (Python warns once per place), the once-only ones
        self.handling: list[TorchError] = []  # the errors whose except clauses run now (innermost last)
        self.named_leaves = 0  # how many of the graph's leaves name_inputs has named
        self.name_counts: dict[str, int] = {}  # a leaf's name -> the last number given to it (x, x#2, ...)
        self.input_nodes: set[int] = set()  # the nodes named as inputs
        self.graph = Graph(source)
        self.generator = random.Generator()  # torch's default CPU generator: a fresh seed each run, as PyTorch
        self.python_random = python.PythonRandom()  # Python's `random` module: this run's own instance
        self.numpy_random: np.random.RandomState | None = None  # np.random's legacy generator, made when first used
        # arrays that two tensors, or a tensor and NumPy, share (t.data, t.numpy(), torch.from_numpy(a)):
        # written in place, so each sees the other (weakly held: an array no tensor holds leaves)
        self.shared: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()
        # the scope being run: the module's, or a call's (self.names); the file runs as Python runs a script,
        # so its `if __name__ == '__main__':` block runs
        self.frame = Frame({"__name__": "__main__"})
        self.module_frame = self.frame
        self.max_steps, self.timeout = max_steps, timeout
        self.steps = 0
        self.deadline = math.inf
        self.depth = 0  # calls of the file's functions inside each other
        self.calls: list[BackwardCall] = []
        self.finished = False
        self.retained: dict[int, Tensor] = {}  # non-leaf tensors whose grad is kept (retain_grad)
        # the arrays of torch.empty(...) not written yet (their values are PyTorch's leftover memory)
        self.unset: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()
        self.anomaly = False  # torch.autograd's anomaly detection (set_detect_anomaly, detect_anomaly)
        self.module_names: dict[tuple[str, str], Any] = {}  # what the file set on a module: torch.pi = ...
        self.exception_classes: dict[str, ExceptionClass] = {}  # the file's own, by name (class E(Exception): pass)
        self.hooks: dict[int, list[HookHandle]] = {}  # t.register_hook(fn), by id(t), in the order registered
        self.hooked: dict[int, Tensor] = {}  # the non-leaf tensors with hooks, by node
        self.node_hooks: dict[int, list[tuple[Any, Any]]] = {}  # a module's register_backward_hook's, by its output's node
        self.node_prehooks: dict[int, list[Any]] = {}  # grad_fn.register_prehook(fn), by the node, in the order registered
        self.post_hooks: dict[int, list[HookHandle]] = {}  # t.register_post_accumulate_grad_hook(fn), by id(t)
        self.multi_hooks: list[Any] = []  # torch.autograd.graph.register_multi_grad_hook's (tensors, fn), in order
        self.line_starts = [0]
        for line in source.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.lines = source.splitlines(keepends=True)
        self.spans: dict[ast.AST, Span] = {}  # each node's span (Interpreter.span)
        self.node: ast.AST | None = None  # the statement being run
        self.call_node: ast.AST | None = None  # the call being lowered

    @property
    def names(self) -> dict[str, Any]:
        return self.frame.names

    # --- where things are ---

    def offset(self, line: int, column: int) -> int:
        """The character offset of ast's (line, UTF-8 byte column)."""
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.line_starts[line - 1] + len(text.encode()[:column].decode(errors="ignore"))

    def span(self, node: ast.AST) -> Span:
        known = self.spans.get(node)
        if known is None:  # (worked out once per node: a loop's body asks at every step)
            start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
            end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
            end = self.offset(end_line, end_col) if end_line is not None and end_col is not None else start + 1
            known = self.spans[node] = start, max(end, start + 1)
        return known

    def warn(self, category: str, message: str, node: ast.AST, once: bool = False, where: str | None = None) -> None:
        """A warning of PyTorch's, on stderr as Python writes it (file:line: Category: message, then
        the line), once per line of the file (`once`: once per run, as PyTorch's TORCH_WARN_ONCE; `where`: once per
        run for that place of PyTorch's Python code that warns, as Python's filter keeps it: F.mse_loss's),
        after what the file printed before it."""
        line = getattr(self.node, "lineno", getattr(node, "lineno", 0))
        key = message if once else (where, message) if where else (line, message)  # (Python's: once per message and line)
        if self.errors is None or key in self.warned:
            return
        self.warned.add(key)
        text = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        self.out.flush()
        self.errors.write(f"{self.filename}:{line}: {category}: {message}\n  {visible(text)}\n")
        self.errors.flush()

    def refuse(self, node: ast.AST, message: str, hint: str = "") -> SyntaxProblem:
        return SyntaxProblem(message, source=self.source, span=self.span(node), hint=hint)

    def initialized(self, node: ast.AST, *values: Any) -> None:
        """A lazy module's parameter computed with before the module's first call: refused (PyTorch's ValueError
        names the C++ method it reached)."""
        if any(isinstance(value, torch_nn.UninitializedParameter) for value in values):
            raise self.refuse(node, "an uninitialized parameter of a lazy module (nn.LazyLinear) is used here before "
                                    "the module's first call", "call the module once on an input first")

    # --- statements ---

    def run(self, tree: ast.Module) -> None:
        self.deadline = time.monotonic() + self.timeout
        reprs.set_printoptions(profile="default")  # (a run starts from PyTorch's defaults)
        try:
            self.block(tree.body)
        finally:
            self.finished = True  # (a view that sweeps again runs none of the file's code: run/custom.py)

    def block(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self.statement(statement)

    def tick(self, node: ast.AST) -> None:
        """One step of the budget (a statement, or an iteration of a loop, a comprehension or a
        builtin's): past --max-steps or --timeout the run stops here, before the step is done."""
        self.steps += 1
        if self.steps > self.max_steps:
            raise LimitProblem(f"the file took more than {self.max_steps:,} steps (statements and loop iterations; "
                               f"the limit is --max-steps {self.max_steps})", source=self.source, span=self.span(node),
                               hint="raise it with --max-steps N")
        if time.monotonic() > self.deadline:
            raise LimitProblem(f"the file ran longer than {self.timeout:g} s (the limit is --timeout {self.timeout:g})",
                               source=self.source, span=self.span(node), hint="raise it with --timeout SECONDS")

    def statement(self, node: ast.stmt) -> None:
        self.tick(node)
        self.node = node
        run = _STATEMENTS.get(type(node))
        if run is None:
            run = getattr(Interpreter, f"do_{type(node).__name__}", None)
            if run is None:
                raise self.refuse(node, f"{_statement_name(node)} is not supported",
                                  "gradcli run takes imports, assignments, calls, for/while/if, def and lambda, "
                                  "assert, raise, try/except and `with torch.no_grad():`")
            _STATEMENTS[type(node)] = run
        run(self, node)

    def do_Expr(self, node: ast.Expr) -> None:
        self.expression(node.value)

    def do_Assign(self, node: ast.Assign) -> None:
        value = self.expression(node.value)
        for target in node.targets:
            self.assign(target, value)

    def do_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.expression(node.value))

    def do_AugAssign(self, node: ast.AugAssign) -> None:
        self.augmented(node)

    def do_Delete(self, node: ast.Delete) -> None:
        """`del x`, `del a, b`, `del xs[i]`, `del d[k]` as Python does them (a tensor's elements and
        attributes are not deleted: exit 2)."""
        for target in node.targets:
            self.delete(target)

    def delete(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            names = self.scope_of(target.id)
            if target.id not in names:
                self.expression(target)  # (Python's NameError or UnboundLocalError for a name not bound)
                raise PythonError("NameError", f"name '{target.id}' is not defined")
            del names[target.id]
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.delete(element)
        elif isinstance(target, ast.Subscript):
            base, key = self.expression(target.value), self.key(target.slice)
            if not isinstance(base, (list, dict)):
                raise self.refuse(target, f"deleting items of a {_type_name(base)} is not supported",
                                  "`del` takes names and the items of lists and dicts")
            try:
                del base[key]
            except (IndexError, TypeError, KeyError) as problem:
                raise python_error(problem) from None
        else:
            raise self.refuse(target, "deleting an attribute is not supported",
                              "`del` takes names and the items of lists and dicts")

    def do_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.import_module(node, alias.name, alias.asname)

    def do_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.import_from(node)

    def do_With(self, node: ast.With) -> None:
        self.with_block(node)

    def do_Pass(self, node: ast.Pass) -> None:
        pass

    def do_If(self, node: ast.If) -> None:
        self.block(node.body if self.truth(self.expression(node.test), node.test) else node.orelse)

    def do_For(self, node: ast.For) -> None:
        for item in self.each(self.expression(node.iter), node):
            self.assign(node.target, item)
            try:
                self.block(node.body)
            except Break:
                return
            except Continue:
                continue
        self.block(node.orelse)

    def do_While(self, node: ast.While) -> None:
        while True:
            self.tick(node)
            if not self.truth(self.expression(node.test), node.test):
                break
            try:
                self.block(node.body)
            except Break:
                return
            except Continue:
                continue
        self.block(node.orelse)

    def do_Break(self, node: ast.Break) -> None:
        raise Break

    def do_Continue(self, node: ast.Continue) -> None:
        raise Continue

    def do_Return(self, node: ast.Return) -> None:
        raise Return(None if node.value is None else self.expression(node.value))

    def do_Assert(self, node: ast.Assert) -> None:
        if not self.truth(self.expression(node.test), node.test):
            message = "" if node.msg is None else str(self.expression(node.msg))
            raise PythonError("AssertionError", message)

    def do_Try(self, node: ast.Try) -> None:
        """try/except/else/finally, over the errors PyTorch and Python raise (TorchError); gradcli's own
        refusals and limits (exit 2) are not exceptions of the file and are never caught."""
        try:
            try:
                self.block(node.body)
            except TorchError as error:
                for handler in node.handlers:
                    if self.catches(handler, error):
                        if handler.name:
                            self.scope_of(handler.name)[handler.name] = Caught(error.kind, error.message,
                                                                               None if error.message else "")
                        self.handling.append(error)  # (what a bare `raise` raises again)
                        try:
                            self.block(handler.body)
                        finally:
                            self.handling.pop()
                            if handler.name:  # Python deletes the name at the clause's end: a later use is a NameError
                                self.scope_of(handler.name).pop(handler.name, None)
                        break
                else:
                    raise
            else:
                self.block(node.orelse)
        except GradcliError:
            raise  # (a limit or a refusal ends the run where it was met: no finally runs after it)
        except BaseException:
            self.block(node.finalbody)  # (the file's exception, or a return/break/continue through it)
            raise
        self.block(node.finalbody)

    def do_Raise(self, node: ast.Raise) -> None:
        """raise ValueError("..."), raise ValueError, raise e (one the file caught), a bare raise in an
        except clause; `from` a cause (Python's traceback ends with the raised one alone, as here)."""
        if node.exc is None:
            if not self.handling:
                raise PythonError("RuntimeError", "No active exception to reraise")
            raise self.handling[-1]
        raised = self.expression(node.exc)
        if node.cause is not None:
            self.expression(node.cause)
        if isinstance(raised, ExceptionClass):
            raised = self.call(raised, [], {}, node.exc)
        if not isinstance(raised, Caught):
            raise PythonError("TypeError", "exceptions must derive from BaseException")
        raise PythonError(raised.kind, raised.message)

    def catches(self, handler: ast.ExceptHandler, error: TorchError) -> bool:
        """Does this `except` clause take the error, by Python's classes (RuntimeError, Exception, a tuple of them)?"""
        if handler.type is None:
            return True
        written = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for item in written:
            if isinstance(item, ast.Attribute) and ast.unparse(item) in _LINALG_ERRORS:  # except torch.linalg.LinAlgError
                if error.kind == LINALG_ERROR:
                    return True
                continue
            wanted = self.expression(item) if isinstance(item, ast.Name) else None
            if not isinstance(wanted, ExceptionClass):
                raise self.refuse(item, "an except clause takes Python's exception classes here, as in "
                                        "`except RuntimeError as e:`")
            if python.exception_matches(error.kind, wanted, self.exception_classes):
                return True
        return False

    def do_FunctionDef(self, node: ast.FunctionDef) -> None:
        decorators = node.decorator_list
        descriptor = self.descriptor_of(decorators[0]) if self.frame.is_class and decorators else None
        if descriptor is not None:
            decorators = decorators[1:]  # (@staticmethod above @once_differentiable, a custom Function's backward)
        once = [written for written in decorators if self.is_once_differentiable(written)]
        modes = [self.decorator_mode(written) for written in decorators if written not in once]
        function = self.function(node, node.name, node.body)
        function.once_differentiable = bool(once)
        if modes:
            if function.generator:
                raise self.refuse(decorators[0], "a grad-mode decorator of a generator function is not supported")
            function.grad_mode = modes[0]  # (the outermost decorator's mode is the one the body runs in)
        made: Any = function
        if isinstance(descriptor, Property):  # @x.setter: a new property with the getter and this setter
            made = Property(descriptor.getter, function)
        elif descriptor == "property":
            made = Property(function)
        elif descriptor == "classmethod":
            made = ClassMethod(function)
        self.scope_of(node.name)[node.name] = made

    def descriptor_of(self, written: ast.expr) -> Property | str | None:
        """A method's one decorator that Python's classes give: @staticmethod, @property, @classmethod
        (their names, unless the file rebound them), @x.setter of a property x of the class body."""
        if isinstance(written, ast.Name) and written.id in ("staticmethod", "property", "classmethod") \
                and written.id not in self.names and written.id not in self.frame.names:
            return written.id
        if isinstance(written, ast.Attribute) and written.attr == "setter" and isinstance(written.value, ast.Name):
            owner = self.frame.names.get(written.value.id)
            if isinstance(owner, Property):
                return owner
        return None

    def is_once_differentiable(self, written: ast.expr) -> bool:
        named = isinstance(written, ast.Attribute) or (isinstance(written, ast.Name) and written.id not in _PYTHON_BUILTINS)
        return named and self.expression(written) is custom.ONCE_DIFFERENTIABLE

    def decorator_mode(self, written: ast.expr) -> bool:
        """@torch.no_grad() / @torch.enable_grad() (or without the parentheses): the mode the body runs in."""
        dotted = written.func if isinstance(written, ast.Call) else written
        named = isinstance(dotted, ast.Attribute) or (isinstance(dotted, ast.Name) and dotted.id not in _PYTHON_BUILTINS)
        value = self.expression(written) if named else None
        if isinstance(value, Function) and value.module == "torch" and value.name in ("no_grad", "enable_grad",
                                                                                    "inference_mode"):
            return value.name == "enable_grad"
        if isinstance(value, GradMode) and value.name != "set_grad_enabled":
            return value.enabled
        raise self.refuse(written, "a decorator is not supported", "gradcli run takes @torch.no_grad(), "
                                                                   "@torch.enable_grad(), @torch.inference_mode() and "
                                                                   "@once_differentiable, and @staticmethod, @classmethod, @property and "
                                                                   "@x.setter in a class")

    def do_Global(self, node: ast.Global) -> None:
        """(Read where the function is made: its body's names go to the module's scope.)"""

    def do_Nonlocal(self, node: ast.Nonlocal) -> None:
        if self.frame is self.module_frame:
            raise self.refuse(node, "'nonlocal' at the module's level is not supported (Python's SyntaxError)")

    def scope_of(self, name: str) -> dict[str, Any]:
        """The names an assignment to `name` writes: the running scope's, the module's for a name
        declared `global`, the nearest enclosing function's that binds it for one declared `nonlocal`."""
        frame = self.frame
        kind = frame.declared.get(name)
        while kind == "nonlocal":
            parent = frame.parent
            while parent is not None and parent.is_class:
                parent = parent.parent
            if parent is None or parent is self.module_frame:
                raise PythonError("SyntaxError", f"no binding for nonlocal '{name}' found")
            frame = parent
            kind = frame.declared.get(name, "local" if name in frame.local else "nonlocal")
        return self.module_frame.names if kind == "global" else frame.names

    def do_ClassDef(self, node: ast.ClassDef) -> None:
        """A class: its body run in a scope of its own, whose names become the class's attributes
        (methods, class attributes); its bases the file's classes or nn.Module."""
        if node.decorator_list:
            if len(node.decorator_list) == 1 and self.expression(node.decorator_list[0]) == Module(
                    "dataclasses.dataclass"):
                node = self.dataclass(node)
            else:
                raise self.refuse(node.decorator_list[0], "a class decorator is not supported")
        if node.keywords:
            raise self.refuse(node.keywords[0], "a metaclass or class keyword is not supported")
        if len(node.bases) == 1 and isinstance(base := self.expression(node.bases[0]), ExceptionClass):
            self.exception_class(node, base)
            return
        bases = []
        for written in node.bases:
            if isinstance(written, ast.Name) and written.id == "object" and "object" not in self.names:
                continue
            base = self.expression(written)
            if base == Function("torch.utils.data", "Dataset"):  # (a map-style dataset: its __getitem__ and __len__)
                continue
            if not (isinstance(base, UserClass) or base is custom.FUNCTION or (isinstance(base, torch_nn.NativeClass)
                                                                                and torch_nn.is_module_kind(base.kind))):
                raise self.refuse(written, f"a subclass of {base!r} is not supported",
                                  "derive from nn.Module or from a class of the file")
            bases.append(base)
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                dunder = statement.name.startswith("__") and statement.name.endswith("__")
                if dunder and statement.name not in python.ALLOWED_DUNDERS:
                    raise self.refuse(statement, f"the special method '{statement.name}' is not supported",
                                      "gradcli run takes __init__, __call__ and ordinary methods")
        qualname = f"{self.frame.qualname}.<locals>.{node.name}" if self.frame.qualname else node.name
        frame = Frame({}, self.frame, qualname=qualname, is_class=True)
        outer = self.frame
        self.frame = frame
        try:
            self.block(node.body)
        finally:
            self.frame = outer
        cls = UserClass(node.name, qualname, tuple(bases), frame.names)
        for value in frame.names.values():
            functions = [value.getter, value.setter] if isinstance(value, Property) else [value.function] if \
                isinstance(value, ClassMethod) else [value]
            for function in functions:
                if isinstance(function, UserFunction) and function.owner is None:
                    function.owner = cls
        python.UserClass.mro(cls)  # (an inconsistent order is Python's TypeError, at the definition)
        self.bind(node.name, cls)

    def dataclass(self, node: ast.ClassDef) -> ast.ClassDef:
        """`@dataclass` (without arguments) over a class of annotated fields, as a config class is written: the class
        with the __init__ and __repr__ dataclasses would write (each field a parameter, in order, its default the
        class's). Anything more (bases, methods of those names, fields without a default after ones with) is refused."""
        fields: list[tuple[str, ast.expr | None]] = []
        for statement in node.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                if "ClassVar" in ast.unparse(statement.annotation):
                    raise self.refuse(statement, "a ClassVar field of a @dataclass is not supported")
                fields.append((statement.target.id, statement.value))
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name in (
                    "__init__", "__repr__", "__eq__", "__post_init__"):
                raise self.refuse(statement, f"a @dataclass with its own {statement.name} is not supported")
        if node.bases or node.keywords:
            raise self.refuse(node, "a @dataclass with bases or class keywords is not supported")
        defaulted = False
        for name, default in fields:
            if default is None and defaulted:
                raise PythonError("TypeError", f"non-default argument '{name}' follows default argument")
            defaulted = defaulted or default is not None
        where = {"lineno": node.lineno, "col_offset": node.col_offset, "end_lineno": node.lineno,
                 "end_col_offset": node.col_offset}
        names = [name for name, _ in fields]
        init = ast.parse("def __init__(self, " + ", ".join(f"{n}=_{n}" for n in names) + "):\n" + "".join(
            f"    self.{n} = {n}\n" for n in names) + ("" if names else "    pass\n")).body[0]
        assert isinstance(init, ast.FunctionDef)
        init.args.defaults = [default for _, default in fields if default is not None]
        shown = ", ".join(f"{n}={{self.{n}!r}}" for n in names)
        text = f"def __repr__(self):\n    return f'{node.name}({shown})'\n"
        show = ast.parse(text).body[0]
        for made in (init, show):
            for part in ast.walk(made):
                for key, value in where.items():
                    if key in part._attributes:
                        setattr(part, key, value)
        return ast.ClassDef(name=node.name, bases=[], keywords=[], body=[*node.body, init, show], decorator_list=[],
                            **where)

    def exception_class(self, node: ast.ClassDef, base: ExceptionClass) -> None:
        """`class StopTraining(Exception): pass` (a docstring, `pass`): an exception class of the file,
        raised, caught and printed as Python's own."""
        for statement in node.body:
            plain = isinstance(statement, ast.Pass) or (isinstance(statement, ast.Expr)
                                                        and isinstance(statement.value, ast.Constant))
            if not plain:
                raise self.refuse(statement, "an exception class with a body is not supported",
                                  "gradcli run takes `class MyError(Exception): pass` (a docstring, pass)")
        made = python.user_exception(node.name, base)
        self.exception_classes[node.name] = made
        self.bind(node.name, made)

    def function(self, node: ast.FunctionDef | ast.Lambda, name: str, body: list[ast.stmt]) -> UserFunction:
        """A `def` or `lambda`: its defaults evaluated now, in the scope it is written in, which it
        keeps (a closure reads the names of that scope as they are when it runs)."""
        local, generator = python.scope_of(body, node.args)
        if isinstance(generator, ast.Await) or (generator is not None and isinstance(node, ast.Lambda)):
            raise self.refuse(generator, "a coroutine ('await') or a lambda with 'yield' is not supported")
        if generator is not None:
            misplaced = python.misplaced_yield(body)
            if misplaced is not None:
                raise self.refuse(misplaced, "a 'yield' here is not supported",
                                  "gradcli run suspends a generator at a `yield v` or `yield from it` statement of "
                                  "its own, in for, while, if and with blocks (not in try, not inside an expression)")
        declared = python.declarations(body)
        for written in ast.walk(node.args):
            if isinstance(written, ast.arg) and written.arg in declared:
                raise self.refuse(node, f"'{written.arg}' is a parameter and declared {declared[written.arg]} "
                                        "(Python's SyntaxError)")
        defaults = [self.expression(d) for d in node.args.defaults]
        kw_defaults = {a.arg: self.expression(d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults,
                                                                 strict=True) if d is not None}
        if self.frame.is_class:  # a method: its qualified name is the class's, its scope the class's scope
            assert self.frame.parent is not None
            return UserFunction(name, f"{self.frame.qualname}.{name}", node, defaults, kw_defaults, self.frame.parent,
                                local, declared=declared, generator=generator is not None)
        qualname = f"{self.frame.qualname}.<locals>.{name}" if self.frame.qualname else name
        return UserFunction(name, qualname, node, defaults, kw_defaults, self.frame, local, declared=declared,
                            generator=generator is not None)

    def call_user(self, function: UserFunction, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if self.depth >= python.MAX_CALL_DEPTH:
            raise LimitProblem(f"the calls of '{function.qualname}' nest more than {python.MAX_CALL_DEPTH:,} deep "
                               "(unbounded recursion? the limit is Python's own)", source=self.source,
                               span=self.span(node), hint="write the recursion as a loop")
        frame = Frame(python.bind_arguments(function, args, kwargs), function.closure, function.local,
                      function.qualname, function, declared=function.declared)
        if function.generator and isinstance(function.node, ast.FunctionDef):  # its body runs as it is iterated
            return Lazy(f"generator object {function.qualname}", self.resumed(frame, function.node.body))
        caller, statement, mode = self.frame, self.node, self.graph.grad_enabled
        self.frame = frame
        self.depth += 1
        if function.grad_mode is not None:
            self.graph.grad_enabled = function.grad_mode
        try:
            if isinstance(function.node, ast.Lambda):
                return self.expression(function.node.body)
            self.block(function.node.body)
            return None
        except Return as returned:
            return returned.value
        finally:
            self.frame, self.node = caller, statement
            self.depth -= 1
            if function.grad_mode is not None:
                self.graph.grad_enabled = mode

    def resumed(self, frame: Frame, body: list[ast.stmt]) -> Iterator[Any]:
        """A generator of the file: each item runs its body in its own scope up to the next `yield`,
        then the caller's scope is the running one again."""
        steps = self.suspended(body)
        while True:
            caller, statement = self.frame, self.node
            if self.depth >= python.MAX_CALL_DEPTH:
                raise LimitProblem(f"generators and calls nest more than {python.MAX_CALL_DEPTH:,} deep", source=self.source,
                                   span=self.span(statement or body[0]), hint="write the recursion as a loop")
            self.frame = frame
            self.depth += 1
            try:
                item = next(steps)
            except (StopIteration, Return):
                return
            finally:
                self.frame, self.node = caller, statement
                self.depth -= 1
            yield item

    def suspended(self, body: list[ast.stmt]) -> Iterator[Any]:
        """The statements of a generator's body, as a Python generator that stops at each `yield`
        (python.misplaced_yield has made sure every `yield` is a statement of for/while/if/with)."""
        for statement in body:
            if not python.holds_yield(statement):
                self.statement(statement)
                continue
            self.tick(statement)
            self.node = statement
            if isinstance(statement, ast.Expr):
                written = statement.value
                value = None if written.value is None else self.expression(written.value)  # type: ignore[attr-defined]
                if isinstance(written, ast.YieldFrom):
                    yield from self.each(value, written)
                else:
                    yield value
            elif isinstance(statement, ast.If):
                yield from self.suspended(statement.body if self.truth(self.expression(statement.test), statement.test)
                                          else statement.orelse)
            elif isinstance(statement, ast.With):
                yield from self.suspended_with(statement)
            else:
                yield from self.suspended_loop(statement)  # type: ignore[arg-type]

    def suspended_loop(self, node: ast.For | ast.While) -> Iterator[Any]:
        items = self.each(self.expression(node.iter), node) if isinstance(node, ast.For) else None
        while True:
            if items is not None:
                item = next(items, _END)
                if item is _END:
                    break
                self.assign(node.target, item)  # type: ignore[union-attr]
            else:
                self.tick(node)
                if not self.truth(self.expression(node.test), node.test):  # type: ignore[union-attr]
                    break
            try:
                yield from self.suspended(node.body)
            except Break:
                return
            except Continue:
                continue
        yield from self.suspended(node.orelse)

    def suspended_with(self, node: ast.With) -> Iterator[Any]:
        before, inference = self.enter_grad_mode(node)
        try:
            yield from self.suspended(node.body)
        finally:
            self.graph.grad_enabled, self.graph.inference = before, inference

    # --- iteration and truth, as Python has them ---

    def truth(self, value: Any, node: ast.AST) -> bool:
        """`if t:`, `while`, `and`/`or`, `not`, assert: PyTorch's bool(t) for a tensor (one element),
        Python's for anything else."""
        if isinstance(value, Tensor):
            if value.data.size == 0:
                raise runtime_error("Boolean value of Tensor with no values is ambiguous")
            if value.data.size > 1:
                raise runtime_error("Boolean value of Tensor with more than one value is ambiguous")
            return bool(value.data.reshape(()).item())
        try:
            return bool(value)
        except (ValueError, TypeError) as problem:  # a NumPy array from .numpy(), as Python says it
            raise python_error(problem) from None

    def iterate(self, value: Any, node: ast.AST) -> Iterator[Any]:
        """The items of what a loop (or enumerate, zip, list ...) goes over, one at a time: a tensor
        by its first axis, a range never as a list. Not iterable: Python's TypeError, at once."""
        if isinstance(value, Tensor):
            if not value.data.ndim:
                raise PythonError("TypeError", "iteration over a 0-d tensor")
            # (PyTorch's Tensor.__iter__ is iter(self.unbind(0)): one UnbindBackward0 node, its parts views)
            return iter(self.parts(OPS["unbind"], [value], {"dim": 0}, node))
        if isinstance(value, Lazy):
            return value.items
        if isinstance(value, torch_nn.Sequential):
            return iter([m for m in value.children.values() if m is not None])
        if isinstance(value, torch_nn.ModuleDict):
            return iter(list(value.children))
        if isinstance(value, torch_data.DataLoader):
            return value.batches(self)
        if isinstance(value, torch_data.TensorDataset):  # (Python's sequence protocol: __getitem__ until IndexError)
            return (torch_data.index(self, value, i, node) for i in range(len(value)))
        if isinstance(value, (list, tuple, str, range, dict, set, type({}.keys()), type({}.values()),
                              type({}.items()))):
            return iter(value)
        if isinstance(value, np.ndarray):
            if not value.ndim:
                raise PythonError("TypeError", "iteration over a 0-d array")
            return iter(value)
        raise PythonError("TypeError", f"'{_type_name(value)}' object is not iterable")

    def each(self, value: Any, node: ast.AST) -> Iterator[Any]:
        """The items of `value`, each a step of the budget."""
        items = self.iterate(value, node)

        def counted() -> Iterator[Any]:
            for item in items:
                self.tick(node)
                yield item

        return counted()

    def collect(self, value: Any, node: ast.AST) -> list[Any]:
        """All the items of `value` in a list, never past the elements limit."""
        if isinstance(value, (list, tuple, str, dict)) or (isinstance(value, range) and len(value) < 1 << 62):
            self.check_items(len(value), node)
        limit = Limits.get("elements")
        items = []
        for item in self.each(value, node):
            items.append(item)
            if len(items) > limit:
                self.check_items(len(items), node)
        return items

    def check_items(self, count: int, node: ast.AST) -> None:
        if count > Limits.get("elements"):
            raise over_limit(f"this list would have {count:,} items", "elements", source=self.source,
                             span=self.span(node))

    def import_module(self, node: ast.AST, path: str, alias: str | None) -> None:
        if path not in _MODULES and (path.split(".")[0] in sys.stdlib_module_names or path.startswith("torch.")):
            # A module of Python's own or of PyTorch that the run lacks (tutorials import pdb, time, os,
            # torch.nn.utils.rnn and never use them): the import is taken and only a use of it is refused.
            self.names[alias or path.split(".")[0]] = Module(path if alias else path.split(".")[0])
            return
        if path not in _MODULES:
            raise self.refuse(node, f"import of '{path}' is not supported",
                              "gradcli run knows torch, torch.nn.functional, numpy, math, random, collections and itertools")
        if alias:
            self.names[alias] = Module(path)
        else:
            self.names[path.split(".")[0]] = Module(path.split(".")[0])

    def import_from(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if module == "__future__":  # Python 3's own behaviour already: nothing to do
            for alias in node.names:
                if alias.name not in _FUTURE:
                    raise self.refuse(node, f"the future feature '{alias.name}' is not supported")
            return
        if module not in _MODULES and (module.split(".")[0] in sys.stdlib_module_names or module.startswith("torch.")):
            # (as import_module: `from torch.nn.utils.rnn import pack_padded_sequence` unused is no refusal; a use is)
            for alias in node.names:
                if alias.name == "*":
                    raise self.refuse(node, "import * is not supported", "import the names you use")
                self.names[alias.asname or alias.name] = Module(f"{module}.{alias.name}")
            return
        if module not in _MODULES:
            raise self.refuse(node, f"import from '{module}' is not supported",
                              "gradcli run knows torch, torch.nn.functional, numpy, math, random, collections and itertools")
        for alias in node.names:
            if alias.name == "*":
                raise self.refuse(node, "import * is not supported", "import the names you use")
            value = self.attribute_of(Module(module), alias.name, node)
            self.names[alias.asname or alias.name] = value

    def with_block(self, node: ast.With) -> None:
        manager = None
        if len(node.items) == 1 and node.items[0].optional_vars is None:
            manager = self.expression(node.items[0].context_expr)
            if isinstance(manager, AnomalyMode):
                self.anomaly_block(node, manager)
                return
        before, inference = self.enter_grad_mode(node, manager)
        try:
            self.block(node.body)
        finally:
            self.graph.grad_enabled, self.graph.inference = before, inference

    def anomaly_block(self, node: ast.With, manager: AnomalyMode) -> None:
        """`with torch.autograd.detect_anomaly():` (PyTorch's warning as it enters) or `set_detect_anomaly(mode)`:
        the block runs with the mode, the one before restored after it."""
        before = self.anomaly if manager.before is None else manager.before
        if manager.name == "detect_anomaly":
            self.warn("UserWarning", "Anomaly Detection has been enabled. This mode will increase the runtime and "
                                     "should only be enabled for debugging.", node)
        self.anomaly = manager.enabled
        try:
            self.block(node.body)
        finally:
            self.anomaly = before

    def anomaly_mode(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if name == "is_anomaly_enabled":
            python.bind_by_name(name, [], args, kwargs)
            return self.anomaly
        names = ["check_nan"] if name == "detect_anomaly" else ["mode", "check_nan"]
        bound = python.bind_by_name(name, names, args, kwargs)
        if name == "detect_anomaly":
            return AnomalyMode(True, name)
        if "mode" not in bound:
            raise PythonError("TypeError", "set_detect_anomaly.__init__() missing 1 required positional argument: 'mode'")
        before, self.anomaly = self.anomaly, bool(bound["mode"])  # (set at the call, as PyTorch's)
        return AnomalyMode(self.anomaly, name, before)

    def enter_grad_mode(self, node: ast.With, manager: Any = None) -> tuple[bool, bool]:
        """`with torch.no_grad():`, `torch.enable_grad()`, `torch.set_grad_enabled(mode)`: the mode the
        block runs in set, and the one to restore after it returned (set_grad_enabled's is the mode
        before the call, which set it already, as PyTorch's), with the inference mode to restore.
        `manager`: the context, evaluated already."""
        if len(node.items) != 1 or node.items[0].optional_vars is not None:
            raise self.refuse(node, "only `with torch.no_grad():` is supported")
        if manager is None:
            manager = self.expression(node.items[0].context_expr)
        if not isinstance(manager, GradMode):
            raise self.refuse(node.items[0].context_expr, "only `with torch.no_grad():`, `torch.enable_grad()`, "
                                                          "`torch.set_grad_enabled(mode)`, `torch.inference_mode()` "
                                                          "and `torch.autograd.detect_anomaly()` are supported")
        before = self.graph.grad_enabled if manager.before is None else manager.before
        inference = self.graph.inference
        self.graph.grad_enabled = manager.enabled
        if manager.name == "inference_mode":
            self.graph.inference = manager.inference
        return before, inference

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, (tuple, list)):
                items = list(value)
            elif isinstance(value, Tensor):
                items = list(self.iterate(value, target))  # (a 0-d one: PyTorch's "iteration over a 0-d tensor")
            else:  # (zip(*pairs), a dict's items, a generator ...: what iterates)
                try:
                    items = self.collect(value, target)
                except PythonError as problem:
                    if problem.kind != "TypeError" or not problem.message.endswith("object is not iterable"):
                        raise
                    raise TorchError("TypeError", f"cannot unpack non-iterable {_type_name(value)} object") from None
            starred = next((i for i, element in enumerate(target.elts) if isinstance(element, ast.Starred)), None)
            if starred is not None:  # a, *rest = items: the starred name takes a list of what the others leave
                after = len(target.elts) - starred - 1
                if len(items) < len(target.elts) - 1:
                    raise TorchError("ValueError", f"not enough values to unpack (expected at least "
                                                   f"{len(target.elts) - 1}, got {len(items)})")
                rest = items[starred:len(items) - after]
                items = [*items[:starred], list(rest), *items[len(items) - after:]]
                elements = [element.value if isinstance(element, ast.Starred) else element for element in target.elts]
            elif len(items) != len(target.elts):
                more = len(items) > len(target.elts)
                raise TorchError("ValueError", f"too many values to unpack (expected {len(target.elts)})" if more
                                 else f"not enough values to unpack (expected {len(target.elts)}, got {len(items)})")
            else:
                elements = list(target.elts)
            for element, item in zip(elements, items, strict=True):
                self.assign(element, item)
        elif isinstance(target, ast.Attribute):
            self.set_attribute(self.expression(target.value), target.attr, value, target)
        elif isinstance(target, ast.Subscript):
            self.set_item(self.expression(target.value), self.key(target.slice), value, target)
        else:
            raise self.refuse(target, "only names, tuples of names, items of lists and dicts and tensor attributes "
                                      "can be assigned")

    def set_item(self, base: Any, key: Any, value: Any, node: ast.AST) -> None:
        """`d[k] = v`, `xs[i] = v` as Python does them; `t[k] = v` into a tensor outside any graph."""
        if isinstance(base, Tensor):
            too_many = _index_problem(base.data.ndim, key)
            if too_many:
                raise TorchError("IndexError", too_many)
            self.set_elements(base, key, value, node)
            return
        if isinstance(base, np.ndarray):
            self.numpy(node, arrays.set_item, base, key, value)
            return
        if not isinstance(base, (list, dict)):
            raise PythonError("TypeError", f"'{_type_name(base)}' object does not support item assignment")
        if isinstance(base, list) and isinstance(key, slice) and isinstance(value, (list, tuple, str, range)):
            self.check_items(len(base) + len(value), node)
        try:
            base[key] = value
        except (IndexError, TypeError, ValueError, KeyError) as problem:
            raise python_error(problem) from None

    def set_elements(self, base: Tensor, key: Any, value: Any, node: ast.AST) -> None:
        """`t[k] = v` (and `t[k] += v`) in place, as PyTorch's index_put_/copy_, where no graph is involved:
        a leaf that requires grad is PyTorch's error; a tensor with a graph, or a value with one, would
        record CopySlices, which gradcli does not (exit 2). The tensor takes the new values, which
        uses before keep the old (as `-=` under no_grad)."""
        grad = self.graph.grad_enabled
        if key is False and isinstance(value, (bool, int, float, Tensor)):  # (PyTorch's setitem writes nothing for a
            return  # lone Python False: no version, no node, no leaf's error)
        items = key if isinstance(key, tuple) else (key,)
        if grad and base.requires_grad and base.is_leaf:  # (ints and slices write through a view)
            view = all(item is None or item is Ellipsis or isinstance(item, (int, slice)) for item in items)
            raise runtime_error(f"{'a view of ' if view else ''}a leaf Variable that requires grad is being used in an "
                                f"in-place operation.")
        recorded = grad and (base.requires_grad or (isinstance(value, Tensor) and value.requires_grad))
        parts: list[Any] = []
        for item in items:
            try:
                kind, part = self.key_part(item)
            except lowering.CallProblem as problem:
                raise self.refuse(node, f"this index is not supported: {problem.message}") from None
            if kind == lowering.MASK and part.data.ndim == 0:  # (a new axis indexed with [0] or [], as in a read)
                kind, part = lowering.STATIC, bool(part.data)
            parts.append(part.data if kind == lowering.MASK else np.asarray(part, dtype=np.intp)
                         if isinstance(part, (list, tuple)) else part)
        _no_internal_overlap(base, tuple(parts))
        if isinstance(value, Tensor):
            stripped = _without_leading_ones(value.data.shape)
            if stripped != value.data.shape:  # (PyTorch's setitem views the value so first: [1, 1] into a [] slot)
                value = self.call_method(Method(value, "view"), [stripped], {}, node)
            values = value.data
        elif isinstance(value, (bool, int, float)):
            values = np.asarray(value)
        else:
            raise self.refuse(node, f"assigning a {_type_name(value)} into a tensor's elements is not supported",
                              "assign a number or a tensor")
        if recorded:
            self.write_recorded(base, tuple(parts), value, node)
            return
        shared = id(base.data) in self.shared
        data = base.data if shared else base.data.copy()
        key = tuple(parts)
        try:  # (PyTorch's reading of the key: its ints and Nones first, as a view, then the rest on it)
            region, rest = indexing.torch_view(data, key)
            target = region[rest]
        except IndexError as problem:
            raise TorchError("IndexError", str(problem)) from None
        _check_write_shape(np.shape(values), np.shape(target), any(isinstance(item, np.ndarray) for item in key),
                           values.dtype if isinstance(values, np.ndarray) else np.asarray(values).dtype)
        region[rest] = np.broadcast_to(values, np.shape(target)).astype(data.dtype)
        base.data = data
        if base.is_leaf:
            base.node = None
        elif base.requires_grad:
            self.unrecorded(base)
        self.changed(base)

    def write_recorded(self, base: Tensor, key: tuple[Any, ...], value: Any, node: ast.AST) -> None:
        """`t[k] = v` where t or v has a graph, recorded as PyTorch records it (ops/writes.py): into the tensor
        itself, IndexPutBackward0 (an index tensor or a mask in the key) or CopySlices (ints and slices); into
        a view, CopySlices on the tensor it views, and the view read again from it (AsStridedBackward0)."""
        _not_one_of_several(base)
        root, positions = base.in_root()
        try:
            region = indexing.torch_getitem(positions, key)
        except IndexError as problem:
            raise TorchError("IndexError", str(problem)) from None
        if isinstance(value, (bool, int, float)):
            value = Tensor(self.graph, np.asarray(value, dtype=base.data.dtype))
        elif not isinstance(value, Tensor):
            raise self.refuse(node, f"assigning a {_type_name(value)} into a tensor's elements is not supported",
                              "assign a number or a tensor")
        advanced = any(isinstance(item, np.ndarray) for item in key)
        _check_write_shape(value.data.shape, region.shape, advanced, value.data.dtype)
        if indexing.makes_view(key, base.data.shape) or root is not base:
            named = "CopySlices"
        elif advanced:
            named = "IndexPutBackward0"
        elif value.data.ndim == 0:  # (PyTorch's fill_ of the whole tensor with a 0-d tensor)
            named = "FillBackward3"
        else:  # (its copy_ of the value expanded to the tensor's shape)
            named = "CopyBackwards"
        if (not advanced and value.data.ndim and value.data.shape != region.shape and value.requires_grad
                and self.graph.grad_enabled):  # (copy_ into the tensor or its view takes the value expanded)
            value = apply(self.graph, OPS["expand"], [value], {"size": tuple(region.shape)}, self.span(node))
        written = apply(self.graph, OPS["index_put"], [root, value], {"positions": region, "node": named},
                        self.span(node))
        root.data, root.node, root.requires_grad = written.data, written.node, written.requires_grad
        root.version[0] += 1
        if root is not base:
            read = apply(self.graph, OPS["strided_read"], [root], {"positions": positions}, self.span(node))
            base.data, base.node, base.requires_grad = read.data, read.node, read.requires_grad
        base.read_at = root.version[0]
        self.changed(root, origin=base)

    def record_in_place(self, tensor: Tensor, result: Tensor, node: ast.AST, fills: bool = False) -> Tensor:
        """`tensor` takes `result` (its op computed out of place, recorded) in place, as PyTorch records t.add_(v),
        t.relu_(), x += v: the same tensor, its grad_fn the op's node (AddBackward0), its version one more (its views
        read it again when next used: Tensor.refresh); through a view, as `view[...] = result` (CopySlices on the
        tensor it views). The op's
        node holds the tensor as it was (PyTorch saves the original where its formula needs it) and its result
        as the tensor now is."""
        _not_one_of_several(tensor)
        if not fills:  # (t.fill_, t.zero_ write one value into an expanded tensor too)
            _no_internal_overlap(tensor)
        root, _ = tensor.in_root()
        if root is not tensor and root.is_leaf and root.requires_grad:  # (x[0].add_(1), x[1:] *= 2 of a leaf)
            raise runtime_error("a view of a leaf Variable that requires grad is being used in an in-place operation.")
        if result.data.shape != tensor.data.shape:
            raise runtime_error(f"output with shape [{', '.join(map(str, tensor.data.shape))}] doesn't match the "
                                f"broadcast shape [{', '.join(map(str, result.data.shape))}]")
        if result.data.dtype != tensor.data.dtype:
            if not np.can_cast(result.data.dtype, tensor.data.dtype, "same_kind"):
                raise runtime_error(f"result type {torch_dtype_name(result.data.dtype)} can't be cast to the "
                                    f"desired output type {torch_dtype_name(tensor.data.dtype)}")
            # (PyTorch computes in the promoted dtype and writes the tensor's: its node's result, and the gradient
            # that reaches the node, are in the tensor's dtype)
            result = Tensor(self.graph, result.data.astype(tensor.data.dtype), node=result.node,
                            requires_grad=result.requires_grad)
            if result.node is not None:
                self.graph.values[result.node] = result.data
        saves = self.graph.saves.get(result.node) if result.node is not None else None
        if saves is not None:
            # (the tensor as the op's self: PyTorch saves the original where its formula needs it; as another arg,
            # x.mul_(x), the tensor itself, which the write makes stale: PyTorch's error at backward)
            self.graph.saves[result.node] = (tuple(  # type: ignore[index]
                None if position == 0 and record is not None and record[0] is tensor else record
                for position, record in enumerate(saves[0])), tensor.version, tensor.version[0] + 1)
        if root is not tensor:
            self.write_recorded(tensor, (Ellipsis,), result, node)
            if root.node is not None and result.node is not None:  # (PyTorch's CopySlices holds the op's node)
                self.graph.tape.nodes[root.node].holds_op = True
            return tensor
        if id(tensor.data) in self.shared:
            tensor.data[...] = result.data
        else:
            tensor.data = result.data
        tensor.node, tensor.requires_grad = result.node, result.requires_grad
        if result.node is not None:  # (PyTorch's in-place derivative, where it has its own: EluBackward1)
            self.graph.tape.nodes[result.node].in_place = True
        self.changed(tensor)
        return tensor

    def write_in_place(self, tensor: Tensor, row: str, others: list[Any], node: ast.AST) -> Tensor:
        """t.fill_(v), t.zero_(), t.copy_(src) where a graph is involved: the row (of `tensor` and `others`)
        recorded as the write PyTorch records (record_in_place: FillBackward2, ZeroBackward0, CopyBackwards)."""
        result = apply(self.graph, OPS[row], [tensor, *others], {}, self.span(node))
        return self.record_in_place(tensor, result, node, fills=row in ("fill", "zero"))

    def changed(self, tensor: Tensor, origin: Tensor | None = None) -> None:
        """After a write into `tensor` in place: its base (where it is a view) and its views take the new
        values, as they share PyTorch's storage (a view NumPy cannot write back through, as a reshape
        that copied, is left as it was: PyTorch's copy too). `origin`: the tensor the write came from (None:
        the write itself, which adds one to the version counter the tensor shares with its views)."""
        if origin is None:
            tensor.version[0] += 1
        if tensor.view_of is not None and tensor.view_of[0] is not origin:
            base, path = tensor.view_of
            values = base.data.copy()
            target = path(values)
            positions = path(np.arange(values.size).reshape(values.shape))
            if isinstance(positions, np.ndarray) and positions.shape == tensor.data.shape and \
                    np.unique(positions).size < positions.size:  # (an expanded view: the elements written, once each)
                written = ~((tensor.data == target) | (np.isnan(tensor.data) & np.isnan(target))) \
                    if tensor.data.dtype.kind == "f" else tensor.data != target
                values.reshape(-1)[positions[written]] = tensor.data[written]
                self.takes(base, values)
                self.takes(tensor, np.array(path(base.data), dtype=tensor.data.dtype))
                self.changed(base, origin=tensor)
            elif isinstance(target, np.ndarray) and np.shares_memory(target, values) and target.shape == tensor.data.shape:
                target.flags.writeable = True  # (NumPy's diagonal is a read-only view of what it reads)
                target[...] = tensor.data
                self.takes(base, values)
                self.changed(base, origin=tensor)
            elif np.ndim(target) == 0 == tensor.data.ndim:  # one element (b[1, 2], v[0]): NumPy reads a copy of it
                values.reshape(-1)[int(np.asarray(path(np.arange(values.size).reshape(values.shape))))] = tensor.data
                self.takes(base, values)
                self.changed(base, origin=tensor)
        for ref in tensor.views:
            view = ref()
            if view is not None and view is not origin and view.view_of is not None:
                self.takes(view, np.array(view.view_of[1](tensor.data), dtype=view.data.dtype))
                self.changed(view, origin=tensor)

    def takes(self, tensor: Tensor, values: np.ndarray) -> None:
        """A base or a view takes the values a write into the other gave it (a leaf a new leaf)."""
        if id(tensor.data) in self.shared and tensor.data.shape == values.shape:
            tensor.data[...] = values
        else:
            tensor.data = values
        if tensor.is_leaf:
            tensor.node = None
        elif not self.graph.grad_enabled:
            self.unrecorded(tensor)

    def bind(self, name: str, value: Any) -> None:
        self.scope_of(name)[name] = value
        if isinstance(value, Tensor) and value.name is None:
            value.name = name
            if value.node is not None:
                node = self.graph.tape.nodes[value.node]
                if node.name is None:
                    node.name = name

    def augmented(self, node: ast.AugAssign) -> None:
        """`x += e` on a tensor is in place, as in PyTorch: refused on a leaf that requires grad
        (unless under no_grad, where the leaf keeps its identity and its flag); elsewhere the name
        takes the result. `xs[i] += 1` and `d[k] += 1` read and write the item once."""
        target = node.target
        if isinstance(target, ast.Subscript):
            base, key = self.expression(target.value), self.key(target.slice)
            item = self.index(base, key, target)
            change = self.expression(node.value)
            if isinstance(base, Tensor) and isinstance(item, Tensor):  # PyTorch's: in place on the item, written back
                self.augment_tensor(item, change, node)  # (its dtype's cast checked; its version one more, twice)
                self.set_item(base, key, item, target)
                return
            self.set_item(base, key, self.binary(self.symbol(node), item, change, node), target)
            return
        current = self.expression(target)
        change = self.expression(node.value)
        if isinstance(current, list) and isinstance(node.op, ast.Add):  # in place, as Python extends a list
            items = self.collect(change, node)
            self.check_items(len(current) + len(items), node)
            current.extend(items)
            return
        if isinstance(current, np.ndarray) and not isinstance(change, Tensor):  # NumPy's in place: the same array
            self.assign(node.target, self.numpy(node, arrays.in_place, self.symbol(node), current, change))
            return
        if isinstance(current, Tensor):
            self.augment_tensor(current, change, node)
            return
        self.assign(node.target, self.binary(self.symbol(node), current, change, node))

    def augment_tensor(self, current: Tensor, change: Any, node: ast.AugAssign) -> None:
        """`t += e` in place on the tensor itself (with a graph, recorded; without, its values overwritten)."""
        if current.requires_grad and current.is_leaf and self.graph.grad_enabled:
            raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
        if self.graph.grad_enabled and (current.requires_grad or getattr(change, "requires_grad", False)):
            self.record_in_place(current, self.binary(self.symbol(node), current, change, node), node)
            return
        value = self.binary(self.symbol(node), current, change, node)
        if not np.can_cast(value.data.dtype, current.data.dtype, "same_kind"):
            raise runtime_error(f"result type {torch_dtype_name(value.data.dtype)} can't be cast to the "
                                f"desired output type {torch_dtype_name(current.data.dtype)}")
        self.overwrite(current, value.data.astype(current.data.dtype))

    def overwrite(self, tensor: Tensor, values: np.ndarray, fills: bool = False) -> None:
        """A tensor takes new values in place, outside any graph. Its next use is a new leaf (the graph
        before keeps the old values), except that an array it shares with NumPy is written into; a tensor with a
        graph (not a leaf) keeps its grad_fn, as PyTorch's (`with torch.no_grad(): h.mul_(2)`: h is still MulBackward0's
        result, the gradient flows through it). `fills`: t.fill_ and t.zero_, which write one value into an
        expanded tensor too."""
        if not fills:
            _no_internal_overlap(tensor)
        self.unset.pop(id(tensor.data), None)
        if id(tensor.data) in self.shared and tensor.data.shape == values.shape:
            tensor.data[...] = values
        else:
            tensor.data = values
        if not tensor.requires_grad or tensor.is_leaf:
            tensor.node = None
        else:
            self.unrecorded(tensor)
        self.changed(tensor)

    def unrecorded(self, tensor: Tensor) -> None:
        """A tensor with a graph written in place without a node (under no_grad, or by an op that takes no gradient):
        its node's value is the storage as it is now, as PyTorch's nodes read the storage they saved."""
        if tensor.node is not None:
            self.graph.values[tensor.node] = tensor.data

    def in_place(self, tensor: Tensor, symbol: str, change: Any, node: ast.AST) -> Tensor:
        """t.add_(v), t.mul_(v) ...: t's values become t <symbol> v; with a graph, recorded as PyTorch records it
        (record_in_place)."""
        if self.graph.grad_enabled and tensor.requires_grad and tensor.is_leaf:
            raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
        if self.graph.grad_enabled and (tensor.requires_grad or getattr(change, "requires_grad", False)):
            return self.record_in_place(tensor, self.binary(symbol, tensor, change, node),
                                        node)
        value = self.binary(symbol, tensor, change, node)
        if not np.can_cast(value.data.dtype, tensor.data.dtype, "same_kind"):
            raise runtime_error(f"result type {torch_dtype_name(value.data.dtype)} can't be cast to the "
                                f"desired output type {torch_dtype_name(tensor.data.dtype)}")
        self.overwrite(tensor, np.broadcast_to(value.data, tensor.data.shape).astype(tensor.data.dtype))
        return tensor

    def scaled_add(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """torch.add/sub(x, y, alpha=a), x.add(y, alpha=a), x.add_(y, alpha=a): x ± a * y, the rows add_scaled and
        sub_scaled (PyTorch's AddBackward0/SubBackward0 with alpha), written in place for add_/sub_."""
        bound = python.bind_by_name(name, ["input", "other", "alpha"], args, kwargs)
        tensor, other, alpha = bound.get("input"), bound.get("other"), bound.get("alpha", 1)
        if not isinstance(tensor, Tensor) or not isinstance(other, (Tensor, bool, int, float)):
            raise TorchError("TypeError", f"{name}() received an invalid combination of arguments - got "
                                          f"({_type_name(tensor)}, {_type_name(other)}, alpha={_type_name(alpha)})")
        if isinstance(alpha, Tensor) and alpha.data.ndim == 0:
            alpha = alpha.scalar()
        if not isinstance(alpha, (bool, int, float)):
            raise TorchError("TypeError", f"{name}(): argument 'alpha' must be Number, not {_type_name(alpha)}")
        symbol = "-" if name.startswith("sub") else "+"
        graph = self.graph.grad_enabled and (tensor.requires_grad or getattr(other, "requires_grad", False))
        if graph and name.endswith("_") and tensor.requires_grad and tensor.is_leaf:
            raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
        try:
            result = apply(self.graph, OPS["sub_scaled" if symbol == "-" else "add_scaled"], [tensor, other],
                           {"alpha": alpha}, self.span(node))
        except ValueError as error:  # (shapes that do not fit, as `binary` says it)
            raise runtime_error(str(error).split("\n")[0]) from None
        dtype = result.data.dtype
        if isinstance(alpha, bool) and dtype != BOOL:
            raise runtime_error("Boolean alpha only supported for Boolean results.")
        if dtype.kind in "biu" and isinstance(alpha, float):
            raise runtime_error("For integral input tensors, argument alpha must not be a floating point number.")
        if dtype.kind == "f" and math.isfinite(alpha) and abs(alpha) > np.finfo(dtype).max:  # (c10's checked_convert)
            raise runtime_error(f"value cannot be converted to type {_C_TYPE[dtype.name]} without overflow")
        if not name.endswith("_"):
            return result
        if graph:
            return self.record_in_place(tensor, result, node)
        values = result.data
        if not np.can_cast(dtype, tensor.data.dtype, "same_kind"):
            raise runtime_error(f"result type {torch_dtype_name(dtype)} can't be cast to the "
                                f"desired output type {torch_dtype_name(tensor.data.dtype)}")
        if values.shape != tensor.data.shape:
            raise runtime_error(f"output with shape [{', '.join(map(str, tensor.data.shape))}] doesn't match the "
                                f"broadcast shape [{', '.join(map(str, values.shape))}]")
        self.overwrite(tensor, values.astype(tensor.data.dtype))
        return tensor

    def with_out(self, function: Function, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """torch.f(..., out=t): f's result written into t, as PyTorch's out= variants do (no graph)."""
        kwargs = dict(kwargs)
        out = kwargs.pop("out")
        if not isinstance(out, Tensor):
            raise TorchError("TypeError", f"{function.name}(): argument 'out' must be Tensor, not {_type_name(out)}")
        if self.graph.grad_enabled and any(isinstance(a, Tensor) and a.requires_grad for a in (*args, *kwargs.values(), out)):
            raise runtime_error(f"{function.name}(): functions with out=... arguments don't support automatic "
                                f"differentiation, but one of the arguments requires grad.")
        result = self.call_function(function, args, kwargs, node)
        if not isinstance(result, Tensor):
            raise self.refuse(node, f"out= of torch.{function.name} is not supported")
        if result.data.dtype != out.data.dtype:
            raise self.refuse(node, "out= of another dtype than the result's is not supported",
                              f"the result is {result.data.dtype.name}")
        if result.data.shape != out.data.shape and out.data.size:
            raise self.refuse(node, "out= of another shape than the result's is not supported (PyTorch resizes it, "
                                    "with a deprecation warning)")
        self.overwrite(out, result.data.copy())
        return out

    def set_attribute(self, owner: Any, name: str, value: Any, node: ast.AST) -> None:
        if isinstance(owner, custom.Context) and not (name.startswith("__") and name.endswith("__")):
            owner.fields[name] = value  # ctx.constant = c: what backward reads again
            return
        if isinstance(owner, (Instance, torch_nn.Module, UserClass)):
            self.set_object_attribute(owner, name, value, node)
            return
        if isinstance(owner, Module) and not (name.startswith("__") and name.endswith("__")):
            self.module_names[owner.path, name] = value  # (read back by this run only: torch's own code never reads it)
            return
        if not isinstance(owner, Tensor):
            raise self.refuse(node, f"cannot set '{name}' of {_type_name(owner)}")
        if name == "requires_grad":
            self.set_requires_grad(owner, bool(value), attribute=True)
        elif name == "grad":
            if value is not None and not isinstance(value, Tensor):
                raise TorchError("TypeError", f"assigned grad expected to be a Tensor or None but got grad of type {_type_name(value)}")
            owner.grad = value
        elif name == "data":
            if not isinstance(value, Tensor):
                raise TorchError("TypeError", f"Variable data has to be a tensor, but got {_type_name(value)}")
            # The tensor keeps its identity and its flag, takes the values; uses before keep the old, and so do
            # its views (and it is no one's view now): the storage is another, as in PyTorch.
            owner.data = value.data
            owner.views, owner.view_of = (), None
            if owner.is_leaf:
                owner.node = None
        else:
            raise self.refuse(node, f"setting '.{name}' of a tensor is not supported", "set .requires_grad, .grad or .data")

    def set_object_attribute(self, owner: Any, name: str, value: Any, node: ast.AST) -> None:
        """`self.x = v`: an attribute of an object of the file's class, of a module (PyTorch's
        Module.__setattr__ sorts parameters and child modules out), or of a class."""
        if name.startswith("__") and name.endswith("__"):
            raise self.refuse(node, f"setting the special attribute '{name}' is not supported")
        if isinstance(owner, UserClass):
            owner.namespace[name] = value
            return
        described = owner.cls.lookup(name)[1] if owner.cls is not None else None
        if isinstance(described, Property):
            if described.setter is None:
                raise PythonError("AttributeError", f"property '{name}' of '{_type_name(owner)}' object has no setter")
            self.call(described.setter, [owner, value], {}, node)
        elif isinstance(owner, Instance):
            owner.fields[name] = value
        else:
            if not owner.initialized and (isinstance(value, torch_nn.Module) or getattr(value, "parameter", False)):
                kind = "module" if isinstance(value, torch_nn.Module) else "parameters"
                raise TorchError("AttributeError", f"cannot assign {kind} before Module.__init__() call")
            owner.set(self, name, value)

    def object_attribute(self, owner: Any, name: str, node: ast.AST) -> Any:
        """`obj.name` for an object of the file's class or a module: its own attributes, then its
        class's (a method comes bound), then what nn.Module gives every module."""
        if name.startswith("__") and name.endswith("__"):
            raise self.refuse(node, f"the special attribute '{name}' is not supported")
        if name == "_modules" and isinstance(owner, torch_nn.Module):  # its children, by name (setting one adds it)
            return owner.children
        cls = owner.cls
        found, value = cls.lookup(name) if cls is not None else (False, None)
        if isinstance(value, Property):  # (before the object's own attributes, as Python's data descriptors)
            return self.call(value.getter, [owner], {}, node)
        if isinstance(owner, Instance) and name in owner.fields:
            return owner.fields[name]
        if isinstance(owner, torch_nn.Module) and name in owner.fields:
            return owner.fields[name]
        if found:
            return self.bound(value, owner)
        if isinstance(owner, torch_nn.Module):
            found, value = torch_nn.attribute(self, owner, name, node)
            if found:
                return value
            if name in torch_nn.MODULE_API:  # PyTorch has it; gradcli's run does not (not the file's AttributeError)
                raise self.refuse(node, f"'.{name}' of a module is not supported",
                                  "the README lists what gradcli run's nn.Module has")
        raise TorchError("AttributeError", f"'{_type_name(owner)}' object has no attribute '{name}'")

    def super_attribute(self, owner: Super, name: str, node: ast.AST) -> Any:
        receiver = owner.receiver
        cls = receiver.cls if isinstance(receiver, (Instance, torch_nn.Module)) else None
        if cls is not None:
            found, value = cls.lookup(name, after=owner.cls)
            if isinstance(value, Property):
                return self.call(value.getter, [receiver], {}, node)
            if found:
                return self.bound(value, receiver)
        if isinstance(receiver, torch_nn.Module):
            if name == "__init__":
                return torch_nn.NativeMethod(receiver, "__init__")
            found, value = torch_nn.attribute(self, receiver, name, node)
            if found:
                return value
        elif name == "__init__":
            return torch_nn.NativeMethod(receiver, "__init__")
        raise TorchError("AttributeError", f"'super' object has no attribute '{name}'")

    @staticmethod
    def bound(value: Any, receiver: Any) -> Any:
        """A class's attribute read through an object: a method bound to it, a classmethod to its class."""
        if isinstance(value, UserFunction):
            return BoundMethod(value, receiver)
        if isinstance(value, ClassMethod):
            return BoundMethod(value.function, receiver.cls)
        return value

    def instantiate(self, cls: UserClass, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        native = cls.native()
        made: Any = Instance(cls) if native is None else torch_nn.Module(cls)
        if isinstance(native, torch_nn.NativeClass) and native.kind is not torch_nn.Module:
            made = torch_nn.subclass_instance(native.kind, cls)  # (its native __init__ runs at super().__init__)
        found, init = cls.lookup("__init__")
        if not found and type(made) is not torch_nn.Module and isinstance(made, torch_nn.Module):
            torch_nn.native_init(self, made, args, kwargs)  # (no __init__ of its own: the native one's)
            return made
        if found:
            result = self.call(BoundMethod(init, made) if isinstance(init, UserFunction) else init, args, kwargs, node)
            if result is not None:
                raise PythonError("TypeError", f"__init__() should return None, not '{_type_name(result)}'")
        elif args or kwargs:
            raise PythonError("TypeError", f"{cls.name}() takes no arguments")
        else:
            made.initialized = True
        return made

    def call_object(self, owner: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """`model(x)`: a module's forward (its __call__, with its forward hooks), an object's __call__."""
        if isinstance(owner, torch_nn.Module) and (owner.__dict__.get("forward_pre_hooks")
                                                   or owner.__dict__.get("forward_hooks")
                                                   or owner.__dict__.get("backward_hooks")):
            return self.hooked_forward(owner, args, kwargs, node)
        return self.call_forward(owner, args, kwargs, node)

    def hooked_forward(self, module: torch_nn.Module, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """PyTorch's Module._call_impl: each forward pre-hook(module, args), a result other than None taking
        the args' place; forward; each forward hook(module, args, output), a result other than None
        taking the output's place (hooks in the order registered, a removed one skipped)."""
        for handle in list(module.__dict__.get("forward_pre_hooks", [])):
            result = self.call(handle.function, [module, tuple(args)], {}, node)
            if result is not None:
                args = list(result) if isinstance(result, tuple) else [result]
        output = self.call_forward(module, args, kwargs, node)
        for handle in list(module.__dict__.get("forward_hooks", [])):
            result = self.call(handle.function, [module, tuple(args), output], {}, node)
            if result is not None:
                output = result
        if module.__dict__.get("backward_hooks"):
            self.hook_output_node(module, args, output, node)
        return output

    def hook_output_node(self, module: torch_nn.Module, args: list[Any], output: Any, node: ast.AST) -> None:
        """register_backward_hook's hooks, as PyTorch's _call_impl registers them: on the node of the output's
        first tensor, each called hook(module, grad_input, grad_output) with what that node sends to its inputs;
        PyTorch's FutureWarning where the forward holds more nodes than that one."""
        first = output
        while not isinstance(first, Tensor):
            if isinstance(first, dict):
                first = next((v for v in first.values() if isinstance(v, Tensor)), None)
            elif isinstance(first, (tuple, list)) and first:
                first = first[0]
            else:
                return
        if first.node is None or self.graph.tape.nodes[first.node].kind != APPLY:
            return
        entries = self.node_hooks.setdefault(first.node, [])
        entries.extend((handle.function, module) for handle in module.__dict__["backward_hooks"])
        if isinstance(output, Tensor) and all(isinstance(a, Tensor) for a in args):
            inputs = {a.node for a in args if a.node is not None and self.graph.tape.nodes[a.node].kind == APPLY}
            if inputs != set(next_functions(self.graph.tape, first.node, node_name(self.graph, first.node))):
                self.warn("FutureWarning", "Using a non-full backward hook when the forward contains multiple autograd "
                                           "Nodes is deprecated and will be removed in future versions. This hook will "
                                           "be missing some grad_input. Please use register_full_backward_hook to get "
                                           "the documented behavior.", node, once=True)  # (one place in torch: once)

    def call_forward(self, owner: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        cls = owner.cls
        if cls is not None:
            for name in ("__call__", "forward") if isinstance(owner, torch_nn.Module) else ("__call__",):
                found, method = cls.lookup(name)
                if found:
                    return self.call(BoundMethod(method, owner) if isinstance(method, UserFunction) else method,
                                     args, kwargs, node)
        if isinstance(owner, torch_nn.Module):
            return owner.forward(self, args, kwargs, node)
        raise PythonError("TypeError", f"'{_type_name(owner)}' object is not callable")

    def hook_handle(self, function: Any, handles: list[Any], prepend: bool = False) -> HookHandle:
        """A hook registered in `handles` (first if `prepend`), and the handle whose remove() takes it away."""
        handle = HookHandle(function, handles)
        handles.insert(0, handle) if prepend else handles.append(handle)
        return handle

    def call_native_method(self, method: torch_nn.NativeMethod, args: list[Any], kwargs: dict[str, Any],
                           node: ast.AST) -> Any:
        receiver = method.receiver
        if method.name == "__init__" and type(receiver) is not torch_nn.Module and isinstance(receiver, torch_nn.Module) \
                and receiver.cls is not None:  # super().__init__(...) of a class deriving from a native module
            torch_nn.native_init(self, receiver, args, kwargs)
            return None
        if method.name == "__init__":
            if args or kwargs:
                raise PythonError("TypeError", "object.__init__() takes exactly one argument (the instance to initialize)")
            receiver.initialized = True
            return None
        if isinstance(receiver, torch_nn.Optimizer):
            return torch_nn.call_optimizer_method(self, receiver, method.name, args, kwargs, node)
        if isinstance(receiver, schedulers.Scheduler):
            return schedulers.call_method(self, receiver, method.name, args, kwargs, node)
        return torch_nn.call_module_method(self, receiver, method.name, args, kwargs, node)

    def set_requires_grad(self, tensor: Tensor, flag: bool, attribute: bool = False) -> Tensor:
        """t.requires_grad_(flag) (`attribute`: `t.requires_grad = flag`), as PyTorch's: a tensor with a graph
        keeps it where the call asks for what it has (t.requires_grad_() of a computed tensor); the attribute of
        one is never set."""
        if not tensor.is_leaf and (attribute or not flag):
            raise runtime_error("you can only change requires_grad flags of leaf variables." + (
                "" if flag else " If you want to use a computed variable in a subgraph that doesn't require "
                                "differentiation use var_no_grad = var.detach()."))
        if not tensor.is_leaf:
            return tensor
        if flag and tensor.data.dtype.kind != "f":
            raise runtime_error(f"only Tensors of floating point {'and complex ' if attribute else ''}dtype can "
                                f"require gradients")
        if tensor.node is not None and flag != tensor.requires_grad:
            tensor.node = None  # a new leaf from here on: earlier uses keep what they were
        tensor.requires_grad = flag
        return tensor

    # --- expressions ---

    def expression(self, node: ast.expr) -> Any:
        method = _EXPRESSIONS.get(type(node))
        if method is None:
            method = getattr(Interpreter, f"_{type(node).__name__}", None)
            if method is None:
                raise self.refuse(node, f"{_expression_name(node)} is not supported")
            _EXPRESSIONS[type(node)] = method
        return method(self, node)

    def _Constant(self, node: ast.Constant) -> Any:
        if isinstance(node.value, (int, float, str, bool)) or node.value is None or node.value is Ellipsis:
            return node.value
        raise self.refuse(node, f"a {type(node.value).__name__} literal is not supported")

    def _Name(self, node: ast.Name) -> Any:
        """A name as Python finds it: the scope being run, the scopes it was written in, the module,
        the builtins. A function's own name read before it is bound is UnboundLocalError."""
        name = node.id
        frame: Frame | None = self.module_frame if self.frame.declared.get(name) == "global" else self.frame
        while frame is not None:
            if name in frame.names:
                return frame.names[name]
            if name in frame.local:
                if frame is self.frame:
                    raise PythonError("UnboundLocalError", f"cannot access local variable '{name}' where it is not "
                                                           "associated with a value")
                raise PythonError("NameError", f"cannot access free variable '{name}' where it is not associated "
                                               "with a value in enclosing scope")
            frame = frame.parent
        if name in _BUILTINS:
            return _BUILTINS[name]
        if name == "Ellipsis":  # (x[Ellipsis, 0] is x[..., 0])
            return Ellipsis
        if name in _PYTHON_BUILTINS:  # Python has it, gradcli's run does not: not the file's NameError
            raise self.refuse(node, f"the builtin '{name}' is not supported", _UNSAFE_BUILTINS.get(
                name, "the README lists the builtins `gradcli run` has"))
        raise PythonError("NameError", f"name '{name}' is not defined")

    def _Dict(self, node: ast.Dict) -> dict[Any, Any]:
        made: dict[Any, Any] = {}
        try:
            for key, value in zip(node.keys, node.values, strict=True):
                if key is None:  # {**other}
                    other = self.expression(value)
                    if not isinstance(other, dict):
                        raise PythonError("TypeError", f"'{_type_name(other)}' object is not a mapping")
                    made.update(other)
                else:
                    made[self.expression(key)] = self.expression(value)
        except TypeError as problem:  # unhashable type: 'list'
            raise python_error(problem) from None
        return made

    def _IfExp(self, node: ast.IfExp) -> Any:
        return self.expression(node.body if self.truth(self.expression(node.test), node.test) else node.orelse)

    def _BoolOp(self, node: ast.BoolOp) -> Any:
        """`a and b`, `a or b`: the operand that decides, as Python gives it (a tensor by its bool)."""
        value = None
        for operand in node.values:
            value = self.expression(operand)
            if self.truth(value, operand) == isinstance(node.op, ast.Or):
                return value
        return value

    def _Lambda(self, node: ast.Lambda) -> UserFunction:
        return self.function(node, "<lambda>", [ast.Return(node.body)])

    def _ListComp(self, node: ast.ListComp) -> list[Any]:
        return self.collect(Lazy("list comprehension", self.comprehend(node, lambda: self.expression(node.elt))), node)

    def _DictComp(self, node: ast.DictComp) -> dict[Any, Any]:
        pairs = self.comprehend(node, lambda: (self.expression(node.key), self.expression(node.value)))
        made: dict[Any, Any] = {}
        for key, value in pairs:
            try:
                made[key] = value
            except TypeError as problem:
                raise python_error(problem) from None
            self.check_items(len(made), node)
        return made

    def _GeneratorExp(self, node: ast.GeneratorExp) -> Lazy:
        return Lazy("generator object <genexpr>", self.comprehend(node, lambda: self.expression(node.elt)))

    def comprehend(self, node: ast.ListComp | ast.DictComp | ast.SetComp | ast.GeneratorExp,
                   element: Callable[[], Any]) -> Iterator[Any]:
        """The items of a comprehension, one at a time, in a scope of its own (its loop names do not
        leak); the first iterable is evaluated at once, in the enclosing scope, as Python does."""
        generators = node.generators
        if any(g.is_async for g in generators):
            raise self.refuse(node, "an async comprehension is not supported")
        first = self.expression(generators[0].iter)
        frame = Frame({}, self.frame, qualname=self.frame.qualname)

        def inside(action: Callable[..., Any], *args: Any) -> Any:
            outer = self.frame
            self.frame = frame
            try:
                return action(*args)
            finally:
                self.frame = outer

        def level(depth: int, iterable: Any) -> Iterator[Any]:
            generator = generators[depth]
            for item in self.each(iterable, node):
                if not inside(self.chosen, generator, item):
                    continue
                if depth + 1 == len(generators):
                    yield inside(element)
                else:
                    yield from level(depth + 1, inside(self.expression, generators[depth + 1].iter))

        return level(0, first)

    def chosen(self, generator: ast.comprehension, item: Any) -> bool:
        self.assign(generator.target, item)
        return all(self.truth(self.expression(test), test) for test in generator.ifs)

    def _Tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self.expression(e) for e in node.elts)

    def _List(self, node: ast.List) -> list[Any]:
        return [self.expression(e) for e in node.elts]

    def _Set(self, node: ast.Set) -> set[Any]:
        try:
            return {self.expression(e) for e in node.elts}
        except TypeError as problem:  # unhashable type: 'list'
            raise python_error(problem) from None

    def _SetComp(self, node: ast.SetComp) -> set[Any]:
        made: set[Any] = set()
        for item in self.comprehend(node, lambda: self.expression(node.elt)):
            try:
                made.add(item)
            except TypeError as problem:
                raise python_error(problem) from None
            self.check_items(len(made), node)
        return made

    def _JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                assert isinstance(value, ast.FormattedValue)
                item = self.expression(value.value)
                python.check_printable(self, [item], node)
                if value.conversion == ord("r"):
                    item = repr(item)
                elif value.conversion == ord("s"):
                    item = str(item)
                elif value.conversion == ord("a"):
                    item = ascii(item)
                spec = self._JoinedStr(value.format_spec) if isinstance(value.format_spec, ast.JoinedStr) else ""
                self.check_width(spec, node)
                parts.append(python.formatted(item, spec))
        return "".join(parts)

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        operand = self.expression(node.operand)
        if isinstance(operand, Instance) and isinstance(node.op, (ast.UAdd, ast.USub)):
            sign = "+" if isinstance(node.op, ast.UAdd) else "-"
            found, method = operand.cls.lookup(python.UNARY_METHODS[sign])
            if not found:
                raise PythonError("TypeError", f"bad operand type for unary {sign}: '{operand.cls.name}'")
            return self.call_user(method, [operand], {}, node)
        if isinstance(node.op, ast.UAdd):
            if not isinstance(operand, (Tensor, int, float, np.ndarray, np.generic)):
                raise PythonError("TypeError", f"bad operand type for unary +: '{_type_name(operand)}'")
            if isinstance(operand, Tensor):  # (torch.positive: the tensor itself, of a bool PyTorch's error)
                return self.call_op(".positive", [operand], {}, node)
            return +operand if isinstance(operand, bool) else operand
        if isinstance(node.op, ast.USub):
            if isinstance(operand, Tensor):
                return apply(self.graph, PREFIX_OPERATORS["-"], [operand], {}, self.span(node))
            if not isinstance(operand, (int, float, np.ndarray, np.generic)):
                raise PythonError("TypeError", f"bad operand type for unary -: '{_type_name(operand)}'")
            return -operand  # type: ignore[operator]
        if isinstance(node.op, ast.Not):
            return not self.truth(operand, node.operand)
        return self.invert(operand, node)

    def invert(self, operand: Any, node: ast.AST) -> Any:
        """`~x`: a bool tensor's logical not (the row), an integer tensor's bitwise not, Python's ~ of an int."""
        if isinstance(operand, Tensor):
            kind = operand.data.dtype.kind
            if kind == "b":
                return apply(self.graph, PREFIX_OPERATORS["~"], [operand], {}, self.span(node))
            if kind in "iu":
                return Tensor(self.graph, np.invert(operand.data))
            raise TorchError("TypeError", "~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        if isinstance(operand, (bool, int)):
            return ~operand
        if isinstance(operand, (np.ndarray, np.generic)):
            return self.numpy(node, np.invert, operand)
        raise PythonError("TypeError", f"bad operand type for unary ~: '{_type_name(operand)}'")

    def _BinOp(self, node: ast.BinOp) -> Any:
        return self.binary(self.symbol(node), self.expression(node.left), self.expression(node.right), node)

    def symbol(self, node: ast.BinOp | ast.AugAssign) -> str:
        symbol = _SYMBOLS.get(type(node.op))
        if symbol is None:
            raise self.refuse(node, "this operator is not supported")
        return symbol

    def binary(self, symbol: str, left: Any, right: Any, node: ast.AST) -> Any:
        self.initialized(node, left, right)
        if isinstance(left, Instance) or isinstance(right, Instance):
            return self.operator_method(symbol, left, right, node)
        if isinstance(left, str) and symbol == "%":
            return self.percent(left, right, node)
        if (arrays.is_array(left) or arrays.is_array(right)) and not (
                isinstance(left, Tensor) or isinstance(right, Tensor)):
            return self.numpy(node, arrays.binary, symbol, left, right)
        if isinstance(left, Tensor) or isinstance(right, Tensor):
            if symbol not in BINARY_OPERATORS:
                raise self.refuse(node, f"'{symbol}' on tensors is not supported")
            # on a tensor's right, a NumPy number is a number to PyTorch; an array makes NumPy compute with
            # the tensor's array (its promotion), the result wrapped back as a tensor without a graph, as
            # PyTorch 2.13 with NumPy 2 does (NumPy values on the left: NumPy's own answer)
            if isinstance(left, Tensor) and isinstance(right, np.generic) and right.dtype.kind in "biuf":
                right = right.item()
            if isinstance(left, Tensor) and isinstance(right, np.ndarray) and right.dtype.kind in "biuf":
                if left.requires_grad:
                    raise runtime_error("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                                        "instead.")
                return Tensor(self.graph, np.asarray(self.numpy(node, arrays.binary, symbol, left.data, right)))
            if not isinstance(left, (Tensor, int, float)) or not isinstance(right, (Tensor, int, float)):
                raise TorchError("TypeError", f"unsupported operand type(s) for {symbol}: "
                                              f"'{_type_name(left)}' and '{_type_name(right)}'")
            try:
                return apply(self.graph, BINARY_OPERATORS[symbol], [left, right], {}, self.span(node))
            except ValueError as error:  # (shapes that do not fit: a @ b of 3 and 2x2, as call_op says it)
                raise runtime_error(str(error).split("\n")[0]) from None
        python = _PYTHON_OPERATORS.get(symbol)
        allowed = (int, float, bool)
        if python is None or not ((isinstance(left, allowed) and isinstance(right, allowed))
                                  or (symbol in "+*" and isinstance(left, (str, list, tuple)))
                                  or (symbol == "*" and isinstance(right, (str, list, tuple)))):
            raise TorchError("TypeError", f"unsupported operand type(s) for {symbol}: "
                                          f"'{_type_name(left)}' and '{_type_name(right)}'")
        self.check_python_size(symbol, left, right, node)
        try:
            return python(left, right)
        except (ZeroDivisionError, OverflowError, TypeError, ValueError) as problem:
            raise TorchError(type(problem).__name__, str(problem)) from None

    def operator_method(self, symbol: str, left: Any, right: Any, node: ast.AST) -> Any:
        """`a + b` where an operand is an object of the file's class: its __add__, else the right
        operand's __radd__, as Python tries them (a NotImplemented result is not in the subset)."""
        names = python.OPERATOR_METHODS.get(symbol)
        if names is not None:
            if isinstance(left, Instance):
                found, method = left.cls.lookup(names[0])
                if found:
                    return self.call_user(method, [left, right], {}, node)
            if isinstance(right, Instance) and not (isinstance(left, Instance) and left.cls is right.cls):
                found, method = right.cls.lookup(names[1])
                if found:
                    return self.call_user(method, [right, left], {}, node)
        raise PythonError("TypeError", f"unsupported operand type(s) for {symbol}: "
                                       f"'{_type_name(left)}' and '{_type_name(right)}'")

    def show(self, instance: Instance, name: str) -> str:
        """repr() or str() of an object whose class defines __repr__ or __str__: the file's method."""
        _, method = instance.cls.lookup(name)
        text = self.call_user(method, [instance], {}, self.node or ast.Pass())
        if not isinstance(text, str):
            raise PythonError("TypeError", f"{name} returned non-string (type {_type_name(text)})")
        return text

    def check_python_size(self, symbol: str, left: Any, right: Any, node: ast.AST) -> None:
        """Refuse, before Python makes it, a string or list past the elements limit (`'ab' * 10**10`)
        or an integer past the digits limit (`10 ** 10 ** 10`)."""
        if symbol == "*" and isinstance(right, (str, list, tuple)):
            left, right = right, left
        if isinstance(left, (str, list, tuple)):
            if symbol == "*" and isinstance(right, int):
                length = len(left) * max(right, 0)
            else:
                length = len(left) + (len(right) if isinstance(right, (str, list, tuple)) else 0)
            if length > Limits.get("elements"):
                raise over_limit(f"this {type(left).__name__} would have {length:,} items", "elements",
                                 source=self.source, span=self.span(node))
            return
        if not (isinstance(left, int) and isinstance(right, int)) or symbol not in ("*", "**"):
            return
        if symbol == "*":
            digits = (left.bit_length() + right.bit_length()) * math.log10(2)
        else:
            digits = right * math.log10(abs(left)) if right > 0 and abs(left) > 1 else 0
        self.check_digits(int(digits), node)

    def check_width(self, spec: str, node: ast.AST) -> None:
        """Refuse a format's width or precision past the elements limit (`f'{1:1000000000}'` would
        make a gigabyte of spaces)."""
        for number in re.findall(r"\d+", spec):
            if len(number) > 12 or int(number) > Limits.get("elements"):
                raise over_limit(f"a format width or precision of {int(number):,} characters", "elements",
                                 source=self.source, span=self.span(node))

    def check_digits(self, digits: int, node: ast.AST) -> None:
        if digits > Limits.get("int_digits"):
            raise over_limit(f"this integer would have about {digits:,} digits", "int_digits", source=self.source,
                             span=self.span(node))

    def percent(self, text: str, values: Any, node: ast.AST) -> str:
        """`"%.3f" % x`: Python's %-formatting of numbers, strings and tensors (a mapping is not
        in the subset)."""
        widths = [number for match in _PERCENT_SPEC.finditer(text) for number in match.groups() if number]
        if "*" in widths:  # a width taken from the values
            items = values if isinstance(values, tuple) else (values,)
            widths += [str(abs(v)) for v in items if isinstance(v, int)]
        self.check_width(" ".join(w for w in widths if w != "*"), node)
        try:
            return text % values
        except (TypeError, ValueError, KeyError, OverflowError) as problem:
            raise TorchError(type(problem).__name__, str(problem)) from None

    def _Compare(self, node: ast.Compare) -> Any:
        """`a == b`, `x > 0`: on tensors a bool tensor with no grad_fn (PyTorch's comparisons are not
        differentiable); on numbers, Python's. Chains (`a < b < c`) as Python reads them: each link
        decides by its truth (a tensor of one element by its bool)."""
        left = self.expression(node.left)
        outcome: Any = True
        for position, (comparison, right_node) in enumerate(zip(node.ops, node.comparators, strict=True)):
            right = self.expression(right_node)
            outcome = self.compare(type(comparison), left, right, node)
            if position + 1 < len(node.ops) and not self.truth(outcome, node):
                return outcome
            left = right
        return outcome

    def compare(self, comparison: type[ast.cmpop], left: Any, right: Any, node: ast.AST | None = None) -> Any:
        if comparison in (ast.Is, ast.IsNot):
            return (left is right) == (comparison is ast.Is)
        if comparison in (ast.In, ast.NotIn):
            return self.contains(right, left) == (comparison is ast.In)
        test = _COMPARISONS.get(comparison)
        if test is None:
            raise self.refuse(node or self.node or ast.Pass(), "this comparison is not supported")
        if isinstance(left, Tensor) or isinstance(right, Tensor):
            a = left.data if isinstance(left, Tensor) else left
            b = right.data if isinstance(right, Tensor) else right
            if not isinstance(a, (np.ndarray, int, float, bool)) or not isinstance(b, (np.ndarray, int, float, bool)):
                if test in (np.equal, np.not_equal):
                    return test is np.not_equal  # a tensor is never equal to None, a string, a list ...
                raise PythonError("TypeError", f"'{_SIGNS[comparison]}' not supported between instances of "
                                               f"'{_type_name(left)}' and '{_type_name(right)}'")
            try:
                return Tensor(self.graph, np.asarray(test(a, b)))
            except ValueError as problem:
                raise runtime_error(str(problem).split("\n")[0]) from None
        if (arrays.is_array(left) or arrays.is_array(right)) and not isinstance(left, (list, tuple, str)) and not (
                isinstance(right, (list, tuple, str))):
            return self.numpy(node or self.node or ast.Pass(), arrays.compare, test, left, right)
        if test in (np.equal, np.not_equal):
            python.check_printable(self, [left, right], node or self.node or ast.Pass())
            try:
                return (left == right) == (test is np.equal)
            except (ValueError, TypeError) as problem:
                raise python_error(problem) from None
        try:
            return bool(_PYTHON_COMPARISONS[comparison](left, right))
        except (TypeError, ValueError) as problem:
            raise python_error(problem) from None

    def contains(self, container: Any, item: Any) -> bool:
        """`item in container`: a tensor as PyTorch's `__contains__` ((t == item).any()), anything
        else as Python looks it up."""
        if isinstance(container, Tensor):
            if not isinstance(item, (Tensor, int, float, bool)):
                raise runtime_error(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                                    f"{type(item)}.")
            found = container.data == (item.data if isinstance(item, Tensor) else item)
            return bool(np.any(found))
        if isinstance(container, Lazy):
            return any(element is item or element == item for element in self.each(container, self.node or ast.Pass()))
        python.check_printable(self, [container, item], self.node or ast.Pass())
        try:
            return item in container
        except TypeError as problem:
            raise python_error(problem) from None

    def _Subscript(self, node: ast.Subscript) -> Any:
        base = self.expression(node.value)
        key = self.key(node.slice)
        return self.index(base, key, node)

    def key(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Slice):
            parts = [None if p is None else self.expression(p) for p in (node.lower, node.upper, node.step)]
            return slice(*parts)
        if isinstance(node, ast.Tuple):
            return tuple(self.key(e) for e in node.elts)
        if isinstance(node, ast.Constant) and node.value is Ellipsis:  # t[..., -1]
            return Ellipsis
        return self.expression(node)

    def index(self, base: Any, key: Any, node: ast.AST) -> Any:
        if isinstance(base, Tensor):
            items, as_tuple = lowering.sequence_as_tuple(key if isinstance(key, tuple) else (key,), self)
            if as_tuple:  # (x[[[1, 0]]]: x[[1, 0]], with PyTorch's warning)
                key = items = tuple(items)
                self.warn("UserWarning", lowering.SEQUENCE_AS_TUPLE, node)
            too_many = _index_problem(base.data.ndim, key)
            if too_many:
                raise TorchError("IndexError", too_many)
            self.call_node = node
            try:
                bound = lowering.index(base, items, self)
            except lowering.CallProblem as problem:
                if problem.raised:
                    raise TorchError(problem.raised, problem.message) from None
                raise self.refuse(node, f"this index is not supported: {problem.message}") from None
            if len(bound.tensors) == 1:  # a key of ints, slices and lists: PyTorch's IndexError out of range
                try:
                    np.broadcast_to(np.zeros(()), base.data.shape)[bound.params["key"]]
                except IndexError as problem:  # (PyTorch says "dimension" where NumPy says "axis")
                    said = str(problem).replace(" for axis ", " for dimension ")
                    if said.endswith(" with size 0") and any(isinstance(item, list) or (isinstance(item, Tensor) and item.data.ndim)
                                                          for item in items):
                        said = "index is out of bounds for dimension with size 0"  # (its advanced index's words)
                    raise TorchError("IndexError", _advanced_dimension(said, items, base.data.ndim)) from None
            try:
                result = apply(self.graph, bound.op, bound.tensors, bound.params, self.span(node))
            except (ValueError, IndexError) as error:
                said = str(error).split("\n")[0]
                raise TorchError("IndexError", _advanced_dimension(said, items, base.data.ndim)) from None
            basic = all(item is None or item is Ellipsis or isinstance(item, (int, slice)) for item in items)
            if basic and isinstance(result, Tensor) and len(bound.tensors) == 1 and bound.tensors[0] is base:
                key = bound.params["key"]
                return base.viewed_as(result, lambda values: values[key])  # (ints and slices: PyTorch's view)
            return result
        if isinstance(base, (tuple, list, str, dict, range)):
            try:
                return base[key]
            except (IndexError, TypeError, KeyError, ValueError, OverflowError) as problem:
                raise python_error(problem) from None
        if isinstance(base, (torch_nn.Sequential, torch_nn.ModuleDict)):
            return base.item(key)
        if isinstance(base, torch_data.TensorDataset):
            return torch_data.index(self, base, key, node)
        if isinstance(base, Instance):  # an object of the file's class, by its __getitem__
            found, method = base.cls.lookup("__getitem__")
            if found:
                return self.call(BoundMethod(method, base) if isinstance(method, UserFunction) else method, [key], {}, node)
        if arrays.is_array(base):
            return self.numpy(node, arrays.index, base, key)
        raise TorchError("TypeError", f"'{_type_name(base)}' object is not subscriptable")

    def mask_values(self, mask: Any) -> Any:
        """A boolean mask's values (lowering.index: a mask among other index items is its True elements' indices)."""
        return mask.data

    def key_part(self, item: Any) -> tuple[str, Any]:
        """What an index item is (lowering.index): an int tensor's values are a static part of the key,
        as a Python int or list is (the run knows them); a bool tensor is a mask."""
        if item is None or item is Ellipsis:
            return lowering.STATIC, item
        if isinstance(item, slice):
            if isinstance(item.step, int) and item.step == 0:
                raise TorchError("ValueError", "slice step cannot be zero")
            try:
                return lowering.STATIC, slice(*(None if p is None else operator.index(p)
                                                for p in (item.start, item.stop, item.step)))
            except TypeError:
                raise TorchError("TypeError", "slice indices must be integers or None or have an __index__ method") from None
        if isinstance(item, range):  # (PyTorch takes a range's numbers as it takes a list's)
            item = list(item)
        if isinstance(item, list):  # (an empty one indexes as int64, as PyTorch's indexing tensors do)
            item = self.tensor_from(item, None, self.call_node) if item else Tensor(self.graph, np.zeros(0, np.int64))  # type: ignore[arg-type]
        if isinstance(item, Tensor):
            kind = item.data.dtype.kind
            if kind == "b":
                return lowering.MASK, item
            if item.data.dtype == np.uint8:  # (PyTorch still takes a byte tensor as a mask, and warns)
                self.warn("UserWarning", "indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                          "torch.bool instead. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                          "IndexingUtils.h:37.)", self.call_node or ast.Pass())
                return lowering.MASK, Tensor(self.graph, item.data != 0)
            if kind not in "iu":
                raise TorchError("IndexError", "tensors used as indices must be long, int, byte or bool tensors")
            values = item.data.tolist()
            return lowering.STATIC, _nested(values) if item.data.ndim else int(values)
        if isinstance(item, int):  # (a bool: a new axis, indexed with [0] or [], as PyTorch's applySlicing reads it)
            return lowering.STATIC, item
        raise lowering.CallProblem(f"a {_type_name(item)} as an index", value=item)

    def _Attribute(self, node: ast.Attribute) -> Any:
        owner = self.expression(node.value)
        return self.attribute_of(owner, node.attr, node)

    def attribute_of(self, owner: Any, name: str, node: ast.AST) -> Any:
        if isinstance(owner, torch_nn.NativeClass) and (owner.name, name) == (
                "Transformer", "generate_square_subsequent_mask"):  # (a staticmethod)
            return Builtin(name, torch_nn.attention.generate_square_subsequent_mask)
        if name == "__class__" and not isinstance(owner, (Module, UserClass, torch_nn.NativeClass)):
            if isinstance(owner, (Instance, torch_nn.Module)) and owner.cls is not None:
                return owner.cls
            return python.type_of(owner)  # (m.__class__.__name__, as weight-init functions test a layer's kind)
        if name == "__name__":
            named = python.name_of(owner)
            if named is not None:
                return named
        if name == "__version__" and isinstance(owner, Module) and owner.path == "torch":
            return TORCH_VERSION
        if isinstance(owner, Module) and (owner.path, name) in self.module_names:
            return self.module_names[owner.path, name]
        if isinstance(owner, Module):
            path = f"{owner.path}.{name}"
            if owner.path == "sys.stdout" and name in ("write", "flush"):
                return Builtin(path, python.STDOUT[name])
            if owner.path == "sys" and name == "stdout":
                return Module(path)
            if owner.path not in _MODULES and owner.path != "sys.stdout":
                raise self.refuse(node, f"'{path}' is not supported",
                                  f"the import of Python's '{owner.path}' is taken, but gradcli run has none of it")
            if owner.path.startswith("sys"):
                raise self.refuse(node, f"'{path}' is not supported", "gradcli run has sys.stdout.write and flush")
            native = torch_nn.nn_class(name) if owner.path == "torch.nn" else (
                torch_nn.optim_class(name) if owner.path == "torch.optim" else (
                    schedulers.scheduler_class(name) if owner.path == "torch.optim.lr_scheduler" else None))
            if native is not None:
                return native
            if path in _MODULES or (owner.path, name) == ("torch", "nn"):
                return Module(path)
            if (owner.path == "torch.distributions" and name in distributions.CLASSES) or (
                    distributions.SUBMODULES.get(owner.path.rsplit(".", 1)[-1]) == name):
                return Builtin(name, lambda interpreter, args, kwargs, where: distributions.construct(
                    interpreter, name, args, kwargs, where))
            if name == "Size" and owner.path == "torch":
                return Builtin("Size", lambda interpreter, args, kwargs, where: _new_size(args, kwargs))
            if name in _DTYPES and owner.path == "torch":
                return dtype_of(_DTYPES[name])
            if name in MEMORY_FORMATS and owner.path == "torch":
                return MemoryFormat(name)
            if name == "strided" and owner.path == "torch":
                return Layout()
            if name in _CONSTANTS and (name != "newaxis" or owner.path == "numpy"):
                return _CONSTANTS[name]
            if (owner.path, name) in _PLATFORM or (owner.path == "torch" and name in (*_LEGACY, "set_printoptions")) or (
                    path in _IN_PLACE_FUNCTIONS) or (
                    owner.path == "torch.nn.functional" and name in ("one_hot", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
                                                                     "gumbel_softmax", "lp_pool1d", "lp_pool2d",
                                                                     "scaled_dot_product_attention", "rrelu",
                                                                     "fractional_max_pool2d")) or (
                    owner.path == "torch.utils.data" and name in _DATA) or (
                    (owner.path, name) == ("torch.autograd", "Variable")):
                return Function(owner.path, name)
            if path in ("torch.autograd.Function", "torch.autograd.function.Function"):
                return custom.FUNCTION
            if path == "torch.autograd.function.once_differentiable":
                return custom.ONCE_DIFFERENTIABLE
            if path == "torch.autograd.graph.Node":
                return NODE_CLASS
            if path == "torch.autograd.graph.register_multi_grad_hook":
                return Builtin("register_multi_grad_hook", lambda interpreter, args, kwargs, where:
                               self.register_multi_grad_hook(args, kwargs, where))
            if owner.path == "torch.autograd" and name in gradcheck.NAMES:
                return Function(owner.path, name)
            if owner.path in ("collections", "itertools"):
                names = stdlib.COLLECTIONS if owner.path == "collections" else stdlib.ITERTOOLS
                if name in names:
                    return Function(owner.path, name)
                raise self.refuse(node, f"'{path}' is not supported",
                                  f"{owner.path} has {', '.join(sorted(names))} here")
            if owner.path == "torch.functional":  # (PyTorch's module of a few torch functions: torch.functional.einsum)
                if name in _TORCH_FUNCTIONAL:
                    return self.attribute_of(Module("torch"), name, node)
                raise TorchError("AttributeError", f"module 'torch.functional' has no attribute '{name}'")
            if owner.path == "random":
                if name in python.RANDOM_FUNCTIONS:
                    return Function(owner.path, name)
                raise self.refuse(node, f"'{path}' is not supported",
                                  f"random has {', '.join(sorted(python.RANDOM_FUNCTIONS))} here")
            if owner.path == "torch.nn.utils.rnn":  # (the others: refused where used, as an unknown import is)
                return Function(owner.path, name) if name == "pad_sequence" else Module(path)
            if (owner.path == "torch.nn.utils" and name in torch_nn.UTILS) or (
                    owner.path == "copy" and name in ("copy", "deepcopy")):
                return Function(owner.path, name)
            if owner.path == "torch.nn.init":
                if name in torch_nn.INIT or name == "calculate_gain":
                    return Function(owner.path, name)
                raise self.refuse(node, f"'{path}' is not supported",
                                  f"torch.nn.init has {', '.join(sorted(torch_nn.INIT))} here")
            if owner.path == "numpy.random":
                if name in arrays.RANDOM:
                    return Function(owner.path, name)
                raise self.refuse(node, f"'{path}' is not supported",
                                  f"numpy.random has {', '.join(sorted(arrays.RANDOM))} here")
            if owner.path in _REAL_MODULES and not hasattr(_REAL_MODULES[owner.path], name):  # (np.logsumexp)
                raise TorchError("AttributeError", f"module '{owner.path}' has no attribute '{name}'")
            if owner.path == "numpy" and name in arrays.DTYPES:
                return arrays.DTYPES[name]
            if owner.path == "numpy" and (name in arrays.FUNCTIONS or name == "set_printoptions"):
                return Function(owner.path, name)
            if owner.path == "torch.autograd.functional":
                if name in functional.NAMES:
                    return Function(owner.path, name)
                raise self.refuse(node, f"'{path}' is not supported",
                                  f"torch.autograd.functional has {', '.join(functional.NAMES)} here")
            if name in _CONSTRUCTORS or name in FUNCTIONS or lowering.find(f"{owner.path}.{name}") is not None or (
                    owner.path == "math" and name in _MATH_NUMBERS) or (owner.path == "torch" and name in _LOGIC):
                return Function(owner.path, name)
            raise self.refuse(node, f"'{path}' is not supported", "`gradcli functions` lists the functions")
        if isinstance(owner, Tensor):
            return self.tensor_attribute(owner, name, node)
        if arrays.is_array(owner) and (name in arrays.PROPERTIES or name in arrays.METHODS):
            return arrays.attribute(owner, name) if name in arrays.PROPERTIES else Method(owner, name)
        if isinstance(owner, Device) and name in ("type", "index"):
            return getattr(owner, name)
        if isinstance(owner, (Instance, torch_nn.Module)):
            return self.object_attribute(owner, name, node)
        if isinstance(owner, Super):
            return self.super_attribute(owner, name, node)
        if isinstance(owner, UserClass):
            if name.startswith("__") and name.endswith("__") and name != "__name__":
                raise self.refuse(node, f"the special attribute '{name}' is not supported")
            if name == "__name__":
                return owner.name
            found, value = owner.lookup(name)
            if isinstance(value, ClassMethod):
                return BoundMethod(value.function, owner)
            if not found and custom.is_function_class(owner):
                value = custom.class_attribute(self, owner, name)
                found = value is not None
            if not found:
                raise TorchError("AttributeError", f"type object '{owner.name}' has no attribute '{name}'")
            return value
        if isinstance(owner, custom.Context):
            return custom.context_attribute(self, owner, name, node)
        if isinstance(owner, distributions.Distribution):
            return owner.attribute(name)
        if isinstance(owner, torch_nn.Optimizer):
            found, value = torch_nn.optimizer_attribute(owner, name)
            if found:
                return value
            raise self.refuse(node, f"'.{name}' of an optimizer is not supported")
        if isinstance(owner, (HookHandle, NodeHookHandle)):
            if name != "remove":
                raise self.refuse(node, f"'.{name}' of a hook's handle is not supported")
            return Builtin("remove", lambda interpreter, args, kwargs, where: owner.remove())
        if isinstance(owner, schedulers.Scheduler):
            found, value = schedulers.attribute(owner, name)
            if found:
                return value
            raise self.refuse(node, f"'.{name}' of a learning-rate scheduler is not supported")
        if isinstance(owner, stdlib.OrderedDict) and name in python.METHODS[dict]:
            return Method(owner, name)
        if isinstance(owner, GradFn):
            if name == "next_functions":
                return owner.next_functions
            if name == "name":
                return Method(owner, "name")
            if name in ("register_hook", "register_prehook"):
                return Builtin(name, lambda interpreter, args, kwargs, where: self.register_node_hook(
                    owner, name, args, kwargs, where))
        if isinstance(owner, ReturnTuple) and name in owner.fields:  # type: ignore[attr-defined]
            return owner[owner.fields.index(name)]  # type: ignore[attr-defined]
        if type(owner) in python.METHODS and name in python.METHODS[type(owner)]:
            return Method(owner, name)
        if isinstance(owner, Size) and name == "numel":  # (the product of the sizes: 1 for torch.Size([]))
            return Builtin("numel", lambda interpreter, args, kwargs, where: _size_numel(owner, args, kwargs))
        if type(owner) is slice and name in ("start", "stop", "step"):
            return getattr(owner, name)
        if owner is None:  # (a grad_fn of a leaf, a .grad never computed): Python's own error
            raise TorchError("AttributeError", f"'NoneType' object has no attribute '{name}'")
        raise self.refuse(node, f"'.{name}' of {_type_name(owner)} is not supported")

    def tensor_attribute(self, tensor: Tensor, name: str, node: ast.AST) -> Any:
        if name == "grad":
            if tensor.grad is None and not tensor.is_leaf and not tensor.retains_grad:
                self.warn("UserWarning", NON_LEAF_GRAD, node)  # and gives None
            return tensor.grad
        if name == "grad_fn":
            return tensor.grad_fn
        if name == "requires_grad":
            tensor.refresh()
            return tensor.requires_grad
        if name == "is_leaf":
            return tensor.is_leaf
        if name == "retains_grad":  # (True after retain_grad() of a non-leaf; a leaf's is always False)
            return tensor.retains_grad
        if name == "_version":  # (the counter of in-place writes its storage has seen, shared with its views)
            if tensor.inference:
                raise runtime_error("Inference tensors do not track version counter.")
            return tensor.version[0]
        if name == "shape":
            return Size(tensor.data.shape)
        if name == "dtype":
            return dtype_of(tensor.data.dtype)
        if name == "data":  # the same values, outside the graph: a change of either shows in the other
            self.shared[id(tensor.data)] = tensor.data
            return Tensor(self.graph, tensor.data)
        if name == "ndim":
            return tensor.data.ndim
        if name == "device":
            return CPU
        if name in lowering.PROPERTIES:  # m.T, m.mT: the ops they are, as every way in reads them
            if name == "T" and tensor.data.ndim != 2:
                self.warn("UserWarning", _T_NOT_2D, node, once=True)
            row, given = lowering.PROPERTIES[name]
            op = OPS[row]
            params = rule_params(op, given)
            try:
                result = apply(self.graph, op, [tensor], params, self.span(node))
            except (ValueError, IndexError) as error:
                raise runtime_error(str(error).split("\n")[0]) from None
            if row not in VIEW_ROWS or not isinstance(result, Tensor):
                return result
            return tensor.viewed_as(result, lambda values: call_forward(op, [values], params, [0]))  # (m.T, m.mT)
        if name in _TENSOR_METHODS or name in METHODS or (name.endswith("_") and name[:-1] in METHODS
                                                          and not name.startswith("_")):
            return Method(tensor, name)
        raise self.refuse(node, f"'.{name}' of a tensor is not supported")

    def _Call(self, node: ast.Call) -> Any:
        callee = self.expression(node.func)
        args: list[Any] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):  # f(*items)
                args.extend(self.collect(self.expression(arg.value), arg))
            else:
                args.append(self.expression(arg))
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg is None:  # f(**mapping)
                mapping = self.expression(keyword.value)
                if not isinstance(mapping, dict) or not all(isinstance(k, str) for k in mapping):
                    raise PythonError("TypeError", f"argument after ** must be a mapping with string keys, not "
                                                   f"{_type_name(mapping)}")
                for key, value in mapping.items():
                    if key in kwargs:
                        raise PythonError("TypeError", f"got multiple values for keyword argument '{key}'")
                    kwargs[key] = value
            else:
                kwargs[keyword.arg] = self.expression(keyword.value)
        return self.call(callee, args, kwargs, node)

    # --- calls ---

    def call(self, callee: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if isinstance(callee, UserFunction):
            return self.call_user(callee, args, kwargs, node)
        if isinstance(callee, Builtin):
            return callee.function(self, args, kwargs, node)
        if isinstance(callee, Function):
            return self.call_function(callee, args, kwargs, node)
        if isinstance(callee, Method):
            return self.call_method(callee, args, kwargs, node)
        if isinstance(callee, BoundMethod):
            return self.call_user(callee.function, [callee.receiver, *args], kwargs, node)
        if isinstance(callee, UserClass):
            return self.instantiate(callee, args, kwargs, node)
        if isinstance(callee, (Instance, torch_nn.Module)):
            return self.call_object(callee, args, kwargs, node)
        if isinstance(callee, torch_nn.NativeClass):
            return torch_nn.construct(self, callee, args, kwargs, node)
        if isinstance(callee, type) and callee in arrays.DTYPES.values():
            return self.numpy(node, arrays.convert, callee, args, kwargs)
        if isinstance(callee, torch_nn.NativeMethod):
            return self.call_native_method(callee, args, kwargs, node)
        if isinstance(callee, Module) and callee.path not in _MODULES:  # (imported, and used: from torch.nn.utils.rnn ...)
            raise self.refuse(node, f"'{callee.path}' is not supported", "`gradcli functions` lists the functions")
        raise TorchError("TypeError", f"'{_type_name(callee)}' object is not callable")

    def call_function(self, function: Function, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        name = function.name
        if kwargs.get("out") is not None and function.module in ("torch", "torch.special", "torch.linalg") and (  # (None: no out)
                name not in _CONSTRUCTORS and name not in _RANDOM and (name in FUNCTIONS or lowering.find(
                    f"{function.module}.{name}") is not None)):
            return self.with_out(function, args, kwargs, node)
        if function.module == "torch.nn.init":
            if name == "calculate_gain":
                return torch_nn.calculate_gain(args, kwargs)
            return torch_nn.init_call(self, name, args, kwargs, node)
        if function.module == "torch.nn.utils":
            return torch_nn.utils_call(self, name, args, kwargs, node)
        if function.module == "torch.nn.utils.rnn":
            return torch_nn.recurrent.pad_sequence(self, args, kwargs, node)
        if function.module == "copy":
            return torch_nn.copy_call(self, name, args, kwargs, node)
        if function.module == "numpy.random":
            if self.numpy_random is None:
                self.numpy_random = np.random.RandomState()  # fresh entropy, as NumPy's own until seeded
            return self.numpy(node, arrays.random_call, self.numpy_random, name, args, kwargs)
        if function.module == "numpy.linalg":  # (NumPy's linear algebra gives NumPy's arrays, which gradcli run lacks)
            of = "a torch tensor" if any(_holds_tensor(value) for value in (*args, *kwargs.values())) else "NumPy's arrays"
            raise self.refuse(node, f"np.linalg.{name} of {of} is not supported",
                              f"write torch.linalg.{name} of a tensor (its values, and a gradient)")
        if function.module == "numpy" and name in arrays.FUNCTIONS:
            if any(_holds_tensor(value) for value in (*args, *kwargs.values())):
                return self.numpy_of_tensors(name, args, kwargs, node)
            return self.numpy(node, arrays.call, name, *_python_types(args, kwargs))
        if (function.module, name) in _PLATFORM:
            return self.platform(function, args, kwargs, node)
        if (function.module == "torch" and name in _LEGACY) or (function.module, name) == ("torch.autograd", "Variable"):
            return self.legacy(function, args, kwargs, node)
        if name == "empty" and function.module == "torch":  # written before it is read, or refused where printed
            if not args and "size" not in kwargs:
                raise TorchError("TypeError", 'empty() missing 1 required positional arguments: "size"')
            made = self.construct("empty", args, kwargs, node)
            if made.data.size:  # (torch.empty(0) has no values to make up: it prints tensor([]))
                self.unset[id(made.data)] = made.data
            return made
        if name in _RANDOM and function.module == "torch":
            return self.random(name, args, kwargs, node)
        if name in ("no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode") \
                and function.module == "torch":
            return self.grad_mode(name, args, kwargs)
        if function.module == "torch.autograd" and name in gradcheck.NAMES:
            return gradcheck.call(self, name, args, kwargs, node)
        if function.module == "torch.autograd" and name == "grad":
            return self.autograd_grad(args, kwargs, node)
        if function.module == "torch.autograd" and name == "backward":
            return self.autograd_backward(args, kwargs, node)
        if function.module == "torch.autograd.functional":
            return functional.call(self, name, args, kwargs, node)
        if function.module == "random":
            return python.call_random(self, name, args, kwargs, node)
        if function.module == "collections":
            return stdlib.call_collections(self, name, args, kwargs, node)
        if function.module == "itertools":
            return stdlib.call_itertools(self, name, args, kwargs, node)
        if function.module == "torch.utils.data":
            return torch_data.call(self, name, args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "dropout":
            return self.dropout(args, kwargs, node)
        if function.module == "torch.nn.functional" and name in ("dropout1d", "dropout2d", "dropout3d"):
            return self.feature_dropout(int(name[-2]), args, kwargs, node)
        if function.module == "torch" and name in ("atleast_1d", "atleast_2d", "atleast_3d") and (
                len(args) != 1 or not isinstance(args[0], Tensor)):
            return self.atleast_several(name, args, kwargs, node)
        if function.module == "torch.nn.functional" and name in ("alpha_dropout", "feature_alpha_dropout"):
            return self.alpha_dropout(name, args, kwargs, node)
        if function.module == "torch" and name == "tensordot":
            return self.tensordot(args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "normalize" and self.graph.grad_enabled and (
                (args[4] if len(args) > 4 else kwargs.get("out")) is not None) and any(
                isinstance(a, Tensor) and a.requires_grad for a in (*args[:1], kwargs.get("input"))):
            raise runtime_error("div(): functions with out=... arguments don't support automatic differentiation, but "
                                "one of the arguments requires grad.")  # (F.normalize's torch.div(input, denom, out=out))
        if function.module == "torch.nn.functional" and name == "pad" and isinstance(args[0] if args else kwargs.get(
                "input"), Tensor) and (args[2] if len(args) > 2 else kwargs.get("mode")) == "circular":
            bound = python.bind_by_name("pad", ["input", "pad", "mode", "value"], args, kwargs)
            return torch_nn.pad_circular(self, bound["input"], bound.get("pad", ()), node)
        if function.module == "torch.nn.functional" and name == "embedding":
            return self.embedding(args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "one_hot":
            return self.one_hot(args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "gumbel_softmax":
            return self.gumbel_softmax(args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "fractional_max_pool2d":
            return torch_nn.fractional_max_pool2d(self, args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "rrelu":
            return torch_nn.rrelu(self, args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "scaled_dot_product_attention":
            return torch_nn.attention.scaled_dot_product_attention(self, args, kwargs, node)
        if function.module == "torch.nn.functional" and name in ("lp_pool1d", "lp_pool2d"):
            return torch_nn.lp_pool(self, int(name[-2]), args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "batch_norm":
            return self.batch_norm(args, kwargs, node)
        if function.module == "torch.nn.functional" and name == "instance_norm":
            return self.instance_norm(args, kwargs, node)
        if function.module == "torch" and name in ("native_batch_norm", "_native_batch_norm_legit"):
            return self.batch_norm(args, kwargs, node, name)
        if function.module == "torch.nn.functional" and name in _SOFTMAXES:
            return self.softmax(name, args, kwargs, node)
        if function.module == "torch.nn.functional" and name in _IN_PLACE_ACTIVATIONS:
            args, keywords, inplace = lowering.take_out(name, "inplace", args, list(kwargs.items()))  # (by position too)
            if inplace is not None:
                return self.activation_in_place(name, args, {**dict(keywords), "inplace": inplace}, node)
        if function.module == "torch" and name == "set_printoptions":
            return self.set_printoptions(args, kwargs, node)
        if function.module == "numpy" and name == "set_printoptions":
            return self.numpy_printoptions(args, kwargs, node)
        if function.module == "torch" and name in _CLOSENESS:
            return self.closeness(name, args, kwargs, node)
        if function.module == "math" and all(isinstance(a, (int, float, Tensor)) for a in args) and hasattr(math, name):
            return _math(name, [a.scalar() if isinstance(a, Tensor) else a for a in args])
        if name in _ANOMALY and function.module in ("torch", "torch.autograd"):
            return self.anomaly_mode(name, args, kwargs)
        if name in _CONSTRUCTORS:
            return self.construct(name, args, kwargs, node)
        if function.module == "torch" and name in ("add", "sub") and "alpha" in kwargs:
            return self.scaled_add(name, args, kwargs, node)
        if f"{function.module}.{name}" in _IN_PLACE_FUNCTIONS and name[:-1] in _IN_PLACE_ACTIVATIONS:
            return self.activation_in_place(name[:-1], args, {**kwargs, "inplace": True}, node)  # F.elu_(x)
        if (f"{function.module}.{name}" in _IN_PLACE_FUNCTIONS and args and isinstance(args[0], Tensor)
                and FUNCTIONS.get(name) is None):  # torch.exp_(x): x.exp_()
            return self.in_place_op(args[0], name, list(args[1:]), kwargs, node)
        if function.module == "torch" and name in _LOGIC and args and isinstance(args[0], Tensor):  # torch.all(x, 1)
            return _TENSOR_METHODS[name](self, args[0], list(args[1:]), kwargs, node)
        if FUNCTIONS.get(name) is None and lowering.find(f"{function.module}.{name}") is None:
            raise self.refuse(node, f"'{function.module}.{name}' is not supported")
        return self.call_op(f"{function.module}.{name}", args, kwargs, node)

    def activation_in_place(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """F.relu(x, inplace=True) and the other activations': x takes the values in place where no graph is
        involved (a leaf that requires grad: PyTorch's error); with a graph, recorded in place as PyTorch records it
        (record_in_place: x itself is the result, its grad_fn ReluBackward0)."""
        kwargs = dict(kwargs)
        inplace = kwargs.pop("inplace")
        if not inplace:
            return self.call_op(f"torch.nn.functional.{name}", args, kwargs, node)
        x = args[0] if args else kwargs.get("input")
        result = self.call_op(f"torch.nn.functional.{name}", args, kwargs, node)  # (F.hardtanh's ValueError first)
        if isinstance(x, Tensor) and self.graph.grad_enabled and x.requires_grad and x.is_leaf:
            raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
        if not isinstance(x, Tensor) or not isinstance(result, Tensor) or result.data.shape != x.data.shape:
            return result
        if self.graph.grad_enabled and result.requires_grad:
            written = self.record_in_place(x, result, node)
            slope = self.graph.tape.nodes[result.node].params.get("negative_slope", 0.0) if result.node else 0.0
            if name == "leaky_relu" and result.node is not None and slope < 0:  # (LeakyReluBackward1 reads the result)
                self.graph.refusals[result.node] = runtime_error(
                    "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
                    "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
                    "version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting "
                    "in-place leakRelu backward calculation with negative slope")
            return written
        if not np.can_cast(result.data.dtype, x.data.dtype, "same_kind"):
            raise runtime_error(f"result type {torch_dtype_name(result.data.dtype)} can't be cast to the "
                                f"desired output type {torch_dtype_name(x.data.dtype)}")
        self.overwrite(x, result.data.astype(x.data.dtype))
        return x

    def softmax(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """F.softmax, log_softmax, softmin: without a dim, PyTorch's deprecated implicit choice (dim 0 of a
        value of 0, 1 or 3 axes, else dim 1), with its warning; the rows themselves want the dim."""
        bound = python.bind_by_name(name, ["input", "dim", "_stacklevel", "dtype"], args, kwargs)
        x = bound.get("input")
        if bound.get("dim") is not None or not isinstance(x, Tensor):
            return self.call_op(f"torch.nn.functional.{name}", args, kwargs, node)
        self.warn("UserWarning", f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                                 f"include dim=X as an argument.", node)
        given = {"dim": 0 if x.data.ndim in (0, 1, 3) else 1}
        if bound.get("dtype") is not None:
            given["dtype"] = bound["dtype"]
        return self.call_op(f"torch.nn.functional.{name}", [x], given, node)

    def batch_norm(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST, native: str | None = None) -> Any:
        """F.batch_norm (and torch.native_batch_norm, _native_batch_norm_legit: `native`): the row's output; in
        training, running_mean and running_var updated in place as PyTorch's CPU kernel does (the batch's mean and
        variance in float64 sums, rounded to the dtype, blended by the momentum as its kernel blends them)."""
        names = ["input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"]
        if native is not None:
            names = ["input", "weight", "bias", "running_mean", "running_var", "training", "momentum", "eps"]
        bound = {"weight": None, "bias": None, "training": False, "momentum": 0.1, "eps": 1e-05,
                 **python.bind_by_name(native or "batch_norm", names, args, kwargs)}
        x = bound.get("input")
        if native is None and bound["training"] and isinstance(x, Tensor) and x.data.ndim >= 2 and (
                x.data.shape[0] * math.prod(x.data.shape[2:]) == 1):
            raise TorchError("ValueError", f"Expected more than 1 value per channel when training, got input size "
                                           f"{Size(x.data.shape)!r}")
        start = len(self.graph.tape.nodes)
        result = self.call_op(f"torch.{native}" if native else "torch.nn.functional.batch_norm", args, kwargs, node)
        means, variances = bound.get("running_mean"), bound.get("running_var")
        if not bound["training"] or not isinstance(x, Tensor) or (means is None and variances is None) or not x.data.size:
            return result  # (an empty batch leaves them as they were, as PyTorch's does)
        kind = x.data.dtype.type
        axes = (0, *range(2, x.data.ndim))
        count = x.data.size // x.data.shape[1]
        mean = (x.data.astype(np.float64).sum(axis=axes) / count).astype(kind)
        shape = [1, -1] + [1] * (x.data.ndim - 2)
        spread = (x.data - mean.reshape(shape)).astype(kind)
        squares = (spread * spread).astype(kind).astype(np.float64).sum(axis=axes).astype(kind)
        # (PyTorch's update: the momentum in the statistics' dtype, m mean + (1 - m) running in it; the variance's
        # m unbiased in float64, (1 - m) running rounded to the dtype first)
        if isinstance(means, Tensor):
            param = means.data.dtype.type
            m = param(bound["momentum"])
            self.overwrite(means, (m * mean.astype(param) + (param(1) - m) * means.data).astype(param))
        if isinstance(variances, Tensor):
            param = variances.data.dtype.type
            m = param(bound["momentum"])
            unbiased = (squares / kind(count - 1)).astype(kind) if count > 1 else np.full_like(squares, np.nan)
            kept = ((param(1) - m) * variances.data).astype(param).astype(np.float64)
            self.overwrite(variances, (np.float64(m) * unbiased.astype(np.float64) + kept).astype(param))
        self.written_in_op(start, (means, variances))
        return result

    def instance_norm(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """F.instance_norm: the row's output; with use_input_stats, running_mean and running_var updated in place as
        PyTorch's instance_norm does (batch_norm's update of the stats repeated for each sample, m stat + (1 - m)
        running, then their mean over the batch, copied back in the stats' own dtype). A running_mean of a dtype
        other than the input's is read in the input's (PyTorch's instance_norm takes it; a running_var it does not)."""
        names = ["input", "running_mean", "running_var", "weight", "bias", "use_input_stats", "momentum", "eps"]
        bound = {"use_input_stats": True, "momentum": 0.1,
                 **python.bind_by_name("instance_norm", names, args, kwargs)}
        x, means, variances = bound.get("input"), bound.get("running_mean"), bound.get("running_var")
        if (isinstance(x, Tensor) and isinstance(means, Tensor) and x.data.dtype.kind == "f"
                and means.data.dtype != x.data.dtype):
            read = Tensor(self.graph, means.data.astype(x.data.dtype))
            if "running_mean" in kwargs:
                kwargs = {**kwargs, "running_mean": read}
            else:
                args = [*args[:1], read, *args[2:]]
        start = len(self.graph.tape.nodes)
        result = self.call_op("torch.nn.functional.instance_norm", args, kwargs, node)
        if (not bound["use_input_stats"] or not isinstance(x, Tensor) or not x.data.size or x.data.ndim < 2
                or (means is None and variances is None)):
            return result
        data = x.data.astype(np.float64)
        axes = tuple(range(2, x.data.ndim))
        count = math.prod(x.data.shape[2:])
        mean = data.sum(axis=axes) / count  # (N, C)
        squares = ((data - mean.reshape(*mean.shape, *(1,) * len(axes))) ** 2).sum(axis=axes)
        m = float(bound["momentum"])
        for stats, sample in ((means, mean), (variances, squares / (count - 1) if count > 1 else np.full_like(squares, np.nan))):
            if isinstance(stats, Tensor):
                blended = (m * sample + (1.0 - m) * stats.data.astype(np.float64)).mean(axis=0)
                self.overwrite(stats, (blended != 0) if stats.data.dtype == np.bool_ else blended.astype(stats.data.dtype))
        self.written_in_op(start, (means, variances))
        return result

    def written_in_op(self, start: int, written: Sequence[Any]) -> None:
        """The op whose nodes start at `start` wrote these tensors itself (batch_norm's running statistics): its
        nodes hold them at the versions they are now at, as PyTorch's kernel writes them before its node saves."""
        for index in range(start, len(self.graph.tape.nodes)):
            saves = self.graph.saves.get(index)
            if saves is not None:
                self.graph.saves[index] = (tuple((arg[0], arg[1], arg[1][0])
                                                 if arg is not None and any(arg[0] is t for t in written) else arg
                                                 for arg in saves[0]), saves[1], saves[2])

    def gumbel_softmax(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """F.gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1) as PyTorch writes it: -log of Exponential(1)
        noise drawn from torch's generator, added to the logits, over tau, softmax over dim; hard, the one-hot of the
        argmax minus the detached soft sample plus the soft sample (its gradient the soft one's)."""
        bound = {"tau": 1, "hard": False, "dim": -1,
                 **python.bind_by_name("gumbel_softmax", ["logits", "tau", "hard", "eps", "dim"], args, kwargs)}
        logits = bound.get("logits")
        if not isinstance(logits, Tensor) or logits.data.dtype.kind != "f":
            raise self.refuse(node, "F.gumbel_softmax of other than a floating tensor is not supported")
        drawn = self.generator.exponential_(np.empty_like(logits.data))
        noise = self.call_op("torch.neg", [self.call_op("torch.log", [Tensor(self.graph, drawn)], {}, node)], {}, node)
        scaled = self.call_op("torch.div", [self.call_op("torch.add", [logits, noise], {}, node), bound["tau"]], {}, node)
        soft = self.call_op(".softmax", [scaled, bound["dim"]], {}, node)
        if not bound["hard"]:
            return soft
        dim = bound["dim"] % max(soft.data.ndim, 1)
        one_hot = np.zeros_like(soft.data)
        np.put_along_axis(one_hot, np.expand_dims(np.argmax(soft.data, axis=dim), dim), 1, axis=dim)
        return self.call_op("torch.add", [Tensor(self.graph, one_hot - soft.data), soft], {}, node)

    def one_hot(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """F.one_hot(tensor, num_classes=-1): int64 rows of zeros with a one at each class (no graph)."""
        bound = {"num_classes": -1, **python.bind_by_name("one_hot", ["tensor", "num_classes"], args, kwargs)}
        indices, classes = bound.get("tensor"), bound["num_classes"]
        if not isinstance(indices, Tensor) or indices.data.dtype != INT64:
            raise runtime_error("one_hot is only applicable to index tensor of type LongTensor.")
        values = indices.data
        if classes == -1:
            if not values.size:
                raise runtime_error("Can not infer total number of classes from empty tensor.")
            classes = int(values.max()) + 1
        if values.size and values.min() < 0:
            raise runtime_error("Class values must be non-negative.")
        if values.size and values.max() >= classes:
            raise runtime_error("Class values must be smaller than num_classes.")
        self.check_items(values.size * max(int(classes), 0), node)
        made = (values[..., None] == np.arange(int(classes))).astype(INT64)
        return Tensor(self.graph, made)

    def closeness(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """torch.isclose (a bool tensor), allclose and equal (Python bools), as PyTorch computes them:
        |a - b| <= atol + |rtol * b| in the tensors' dtype, or equal; no graph."""
        names = ["input", "other"] if name == "equal" else ["input", "other", "rtol", "atol", "equal_nan"]
        bound = {"rtol": 1e-05, "atol": 1e-08, "equal_nan": False, **python.bind_by_name(name, names, args, kwargs)}
        a, b = bound.get("input"), bound.get("other")
        if not isinstance(a, Tensor) or not isinstance(b, Tensor):
            wrong = a if not isinstance(a, Tensor) else b
            raise TorchError("TypeError", f"{name}(): argument '{'input' if wrong is a else 'other'}' must be Tensor, "
                                          f"not {_type_name(wrong)}")
        if name == "equal":
            return a.data.shape == b.data.shape and bool(np.all(a.data == b.data))
        if a.data.dtype != b.data.dtype:
            raise runtime_error(f"{torch_dtype_name(a.data.dtype)} did not match {torch_dtype_name(b.data.dtype)}")
        try:
            x, y = np.broadcast_arrays(a.data, b.data)
        except ValueError:
            raise runtime_error(f"The size of tensor a ({a.data.shape[-1]}) must match the size of tensor b "
                                f"({b.data.shape[-1]}) at non-singleton dimension {max(a.data.ndim, b.data.ndim) - 1}") from None
        kind = x.dtype if x.dtype.kind == "f" else FLOAT32
        with np.errstate(all="ignore"):
            close = x == y
            if bound["equal_nan"] and x.dtype.kind == "f":
                close |= np.isnan(x) & np.isnan(y)
            if bound["rtol"] != 0 or bound["atol"] != 0:
                xs, ys = x.astype(kind), y.astype(kind)
                allowed = kind.type(bound["atol"]) + np.abs(kind.type(bound["rtol"]) * ys)
                actual = np.abs(xs - ys)
                close |= np.isfinite(actual) & (actual <= allowed)
        if name == "allclose":
            return bool(np.all(close))
        return Tensor(self.graph, np.asarray(close))

    def grad_mode(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
        if name == "is_grad_enabled":
            python.bind_by_name(name, [], args, kwargs)
            return self.graph.grad_enabled
        if name == "inference_mode":  # (gradcli's tensors have no inference mode of their own: no grad is recorded)
            mode = python.bind_by_name(name, ["mode"], args, kwargs).get("mode", True)
            return GradMode(self.graph.grad_enabled and not mode, name, inference=bool(mode))
        if name != "set_grad_enabled":
            python.bind_by_name(name, [], args, kwargs)
            return GradMode(name == "enable_grad", name)
        bound = python.bind_by_name(name, ["mode"], args, kwargs)
        if "mode" not in bound:
            raise PythonError("TypeError", "set_grad_enabled.__init__() missing 1 required positional argument: 'mode'")
        if not isinstance(bound["mode"], bool):
            raise TorchError("TypeError", f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                                          f"{_type_name(bound['mode'])}")
        before, self.graph.grad_enabled = self.graph.grad_enabled, bound["mode"]  # set at the call, as PyTorch's
        return GradMode(bound["mode"], name, before)

    def set_printoptions(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        names = ["precision", "threshold", "edgeitems", "linewidth", "profile", "sci_mode"]
        bound = python.bind_by_name("set_printoptions", names, args, kwargs)
        for name in ("precision", "edgeitems", "linewidth"):
            value = bound.get(name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000):
                raise self.refuse(node, f"set_printoptions({name}={value!r}) is not supported",
                                  f"gradcli run takes a {name} from 0 to 1,000")
        threshold = bound.get("threshold")
        if threshold is not None and not isinstance(threshold, (int, float)):
            raise self.refuse(node, f"set_printoptions(threshold={threshold!r}) is not supported")
        if bound.get("profile") not in (None, "default", "short", "full"):
            raise self.refuse(node, f"set_printoptions(profile={bound['profile']!r}) is not supported",
                              "PyTorch's profiles are 'default', 'short' and 'full'")
        sci = bound.get("sci_mode")
        reprs.set_printoptions(**{**bound, "sci_mode": None if sci is None else bool(sci)})

    def numpy_printoptions(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        """np.set_printoptions(...): how NumPy prints arrays from here on, for this run alone (run() restores
        NumPy's own at its end); a formatter (code of the file that NumPy would call) is not taken."""
        names = ["precision", "threshold", "edgeitems", "linewidth", "suppress", "nanstr", "infstr", "formatter",
                 "sign", "floatmode", "legacy"]
        if len(args) > 10:
            raise PythonError("TypeError", f"set_printoptions() takes from 0 to 10 positional arguments but {len(args)} "
                                           "were given")
        bound = python.bind_by_name("set_printoptions", names, args, kwargs)
        for name in ("formatter", "legacy"):
            if bound.get(name) not in (None, False):
                raise self.refuse(node, f"np.set_printoptions({name}=...) is not supported",
                                  "gradcli run takes precision, threshold, edgeitems, linewidth, suppress, nanstr, "
                                  "infstr, sign and floatmode")
        for name in ("precision", "edgeitems", "linewidth"):
            value = bound.get(name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000):
                raise self.refuse(node, f"np.set_printoptions({name}={value!r}) is not supported",
                                  f"gradcli run takes a {name} from 0 to 1,000")
        for name in ("nanstr", "infstr"):
            value = bound.get(name)
            if value is not None and (not isinstance(value, str) or len(value) > 100):
                raise self.refuse(node, f"np.set_printoptions({name}=...) is not supported", "give a short string")
        try:
            np.set_printoptions(**bound)
        except (TypeError, ValueError) as problem:
            raise python_error(problem) from None

    def feature_dropout(self, dims: int, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """F.dropout1d/2d/3d as PyTorch's: one draw per channel (noise of shape (N, C, 1, ...)); dropout1d
        and 3d unsqueeze an unbatched input first and squeeze it after (their nodes recorded), dropout2d
        takes any input as (N, C, ...), as PyTorch 2.13 does."""
        bound = {"p": 0.5, "training": True, "inplace": False,
                 **python.bind_by_name(f"dropout{dims}d", ["input", "p", "training", "inplace"], args, kwargs)}
        x, p = bound.get("input"), bound["p"]
        if isinstance(p, (int, float)) and not isinstance(p, bool) and not 0.0 <= p <= 1.0:
            raise TorchError("ValueError", f"dropout probability has to be between 0 and 1, but got {p}")
        if not isinstance(x, Tensor):
            raise TorchError("TypeError", f"dropout{dims}d(): argument 'input' must be Tensor, not {_type_name(x)}")
        batched = dims == 2 or x.data.ndim == dims + 2
        if dims == 1 and x.data.ndim not in (2, 3):
            raise runtime_error(f"dropout1d: Expected 2D or 3D input, but received a {x.data.ndim}D input. Note "
                                "that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
                                "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
                                "inputs).")
        if not bound["training"] or p == 0 or not x.data.size:
            return x
        if bound["inplace"]:
            raise self.refuse(node, f"dropout{dims}d(..., inplace=True) in training mode is not supported")
        if x.data.dtype.kind != "f":
            raise self.refuse(node, f"dropout{dims}d of a {x.data.dtype.name} tensor is not supported")
        values = x if batched else self.call_op(".unsqueeze", [x, 0], {}, node)
        if values.data.ndim < 2:
            raise runtime_error("Feature dropout requires at least 2 dimensions in the input")
        shape = values.data.shape[:2] + (1,) * (values.data.ndim - 2)
        kind = x.data.dtype.type
        if p == 1:
            noise = np.zeros(shape, dtype=x.data.dtype)
        else:
            keep = self.generator.unit(math.prod(shape), FLOAT64).reshape(shape) < 1 - float(p)
            noise = keep.astype(x.data.dtype) / kind(1 - float(p))
        out = self.binary("*", values, Tensor(self.graph, noise), node)
        return out if batched else self.call_op(".squeeze", [out, 0], {}, node)

    def dropout(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """F.dropout(input, p, training, inplace) as PyTorch's CPU path: input * noise, the noise
        bernoulli(1 - p) (a float64 uniform from a 64-bit draw per element, kept below 1 - p) divided by
        1 - p in the input's dtype (MulBackward0); p=0, eval or an empty input: the input itself."""
        bound = {"p": 0.5, "training": True, "inplace": False,
                 **python.bind_by_name("dropout", ["input", "p", "training", "inplace"], args, kwargs)}
        x, p = bound.get("input"), bound["p"]
        if isinstance(p, (int, float)) and not isinstance(p, bool) and not 0.0 <= p <= 1.0:
            raise TorchError("ValueError", f"dropout probability has to be between 0 and 1, but got {p}")
        if not isinstance(x, Tensor) or not bound["training"] or p == 0 or not x.data.size:
            return self.call_op("torch.nn.functional.dropout", args, kwargs, node)
        if x.data.dtype.kind != "f":
            raise self.refuse(node, f"dropout of a {x.data.dtype.name} tensor is not supported")
        kind = x.data.dtype.type
        if p == 1:
            noise = np.zeros((), dtype=x.data.dtype)
        else:
            keep = self.generator.unit(x.data.size, FLOAT64).reshape(x.data.shape) < 1 - float(p)
            noise = keep.astype(x.data.dtype) / kind(1 - float(p))
        return self.scaled(x, noise, None, bool(bound["inplace"]), node)

    def tensordot(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """torch.tensordot(a, b, dims=2, out=None): its Python reading of dims first (an int, a pair of lists of dims,
        or an int tensor: one count, or two rows of dims), in its words where it refuses them, then the row."""
        if len(args) > 4:
            return self.call_op("torch.tensordot", args, kwargs, node)
        bound = {"dims": 2, "out": None, **python.bind_by_name("tensordot", ["a", "b", "dims", "out"], args, kwargs)}
        missing = [f"'{name}'" for name in ("a", "b") if name not in bound]
        if missing:
            raise TorchError("TypeError", f"tensordot() missing {len(missing)} required positional argument"
                                          f"{'s' if len(missing) > 1 else ''}: {' and '.join(missing)}")
        dims = bound["dims"]
        if not isinstance(dims, (tuple, list, Tensor, int)):
            raise runtime_error("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                                f"containing two lists, but got dims={dims}")
        if isinstance(dims, Tensor):
            dims = [list(row) for row in dims.data.tolist()] if dims.data.size > 1 else int(dims.data.reshape(-1)[0])
        if isinstance(dims, int) and dims < 0:
            raise runtime_error(f"tensordot expects dims >= 0, but got dims={dims}")
        if isinstance(dims, (tuple, list)):
            if len(dims) != 2:
                raise TorchError("ValueError", f"not enough values to unpack (expected 2, got {len(dims)})" if len(dims) < 2
                                 else "too many values to unpack (expected 2)")
            for position, (name, part) in enumerate(zip(("dims_self", "dims_other"), dims, strict=True), start=3):
                if not isinstance(part, (tuple, list)):
                    raise TorchError("TypeError", f"tensordot(): argument '{name}' (position {position}) must be tuple "
                                                  f"of ints, not {_type_name(part)}")
            dims = tuple(tuple(part) for part in dims)
        keywords = {"dims": dims, **({"out": bound["out"]} if "out" in bound and bound["out"] is not None else {})}
        return self.call_op("torch.tensordot", [bound.get("a"), bound.get("b")], keywords, node)

    def atleast_several(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> tuple[Any, ...]:
        """torch.atleast_1d(a, b) / atleast_2d((a, b)) / atleast_3d([a, b]): PyTorch's tuple form (its
        atleast_Nd(*tensors) passes several, or one tuple or list, on as a tuple of Tensors), each as one tensor's."""
        if kwargs:
            raise TorchError("TypeError", f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if len(args) == 1 and not isinstance(args[0], (list, tuple)):  # (its _VF's parser, of two overloads)
            given = _type_name(args[0])
            raise TorchError("TypeError", f"{name}() received an invalid combination of arguments - got ({given}), but "
                                          "expected one of:\n * (Tensor input)\n      didn't match because some of the "
                                          f"arguments have invalid types: (!{given}!)\n * (tuple of Tensors tensors)\n"
                                          "      didn't match because some of the arguments have invalid types: "
                                          f"(!{given}!)\n")
        tensors = list(args[0]) if len(args) == 1 else list(args)
        for place, tensor in enumerate(tensors):
            if not isinstance(tensor, Tensor):
                raise TorchError("TypeError", f"expected Tensor as element {place} in argument 0, but got "
                                              f"{_type_name(tensor)}")
        return tuple(self.call_op(f"torch.{name}", [tensor], {}, node) for tensor in tensors)

    def alpha_dropout(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """F.alpha_dropout and F.feature_alpha_dropout(input, p=0.5, training=False, inplace=False) as PyTorch's
        _dropout_impl: a bernoulli(1 - p) draw per element (per channel: noise of shape (N, C, 1, ...)), then
        input * (noise * a) + b, a = 1 / sqrt((alpha^2 p + 1)(1 - p)), b = (noise - 1) * alpha a + alpha a p, each
        step in the input's dtype (MulBackward0 under AddBackward0); p=1: input * zeros(()); p=0, eval or an empty
        input: the input itself."""
        if len(args) > 4:
            raise TorchError("TypeError", f"{name}() takes from 1 to 4 positional arguments but {len(args)} were given")
        bound = {"p": 0.5, "training": False, "inplace": False,
                 **python.bind_by_name(name, ["input", "p", "training", "inplace"], args, kwargs)}
        if "input" not in bound:
            raise TorchError("TypeError", f"{name}() missing 1 required positional argument: 'input'")
        x, p = bound.get("input"), bound["p"]
        if isinstance(p, (int, float)) and not isinstance(p, bool) and not 0.0 <= p <= 1.0:
            raise TorchError("ValueError", f"dropout probability has to be between 0 and 1, but got {p}")
        if not isinstance(x, Tensor) or not bound["training"] or p == 0 or p == 1 or not x.data.size:
            if name == "feature_alpha_dropout" and not (bound["inplace"] and p == 1):  # (the row: x, or x * 0)
                return self.call_op(f"torch.nn.functional.{name}", args, kwargs, node)
            if isinstance(x, Tensor) and bound["training"] and p == 1 and x.data.size:
                return self.scaled(x, np.zeros((), dtype=x.data.dtype), None, bool(bound["inplace"]), node)
            if not isinstance(x, Tensor):
                raise TorchError("TypeError", f"{name}(): argument 'input' (position 1) must be Tensor, not "
                                              f"{_type_name(x)}")
            return x
        if x.data.dtype.kind != "f":
            raise self.refuse(node, f"{name} of a {x.data.dtype.name} tensor is not supported")
        shape = x.data.shape
        if name == "feature_alpha_dropout":
            if x.data.ndim < 2:
                raise runtime_error("Feature dropout requires at least 2 dimensions in the input")
            shape = shape[:2] + (1,) * (x.data.ndim - 2)
        kind = x.data.dtype.type
        noise = (self.generator.unit(math.prod(shape), FLOAT64).reshape(shape) < 1 - float(p)).astype(x.data.dtype)
        alpha = 1.7580993408473766
        a = 1.0 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
        shift = ((noise + kind(-1)) * kind(alpha * a) + kind(alpha * a * p)).astype(x.data.dtype)
        return self.scaled(x, (noise * kind(a)).astype(x.data.dtype), shift, bool(bound["inplace"]), node)

    def scaled(self, x: Tensor, noise: np.ndarray, shift: np.ndarray | None, inplace: bool, node: ast.AST) -> Tensor:
        """The dropouts' input * noise (+ shift), as PyTorch's multiply<inplace>(input, noise)[.add_(b)]: in place, x
        itself takes each step (recorded as PyTorch records x.mul_(noise).add_(b); a leaf that requires grad is its
        error, after the draw)."""
        if not inplace:
            out = self.binary("*", x, Tensor(self.graph, noise), node)
            return out if shift is None else self.binary("+", out, Tensor(self.graph, shift), node)
        if self.graph.grad_enabled and x.requires_grad and x.is_leaf:
            raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
        for symbol, other in (("*", noise), ("+", shift)):
            if other is None:
                continue
            result = self.binary(symbol, x, Tensor(self.graph, other), node)
            if self.graph.grad_enabled and result.requires_grad:
                self.record_in_place(x, result, node)
            else:
                self.overwrite(x, result.data.astype(x.data.dtype))
        return x

    def embedding(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """F.embedding as torch/nn/functional.py runs it: with a max_norm, the weight's rows that the input picks are
        renormalized in place first (torch.embedding_renorm_ of weight.detach() under no_grad: each row whose
        norm_type-norm is above max_norm scaled by max_norm / (norm + 1e-7), in the weight's dtype; the weight's
        version one more), then looked up by the row, whose gradient knows nothing of the scaling."""
        names = ["input", "weight", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse"]
        if len(args) > len(names) or (args[3] if len(args) > 3 else kwargs.get("max_norm")) is None:
            return self.call_op("torch.nn.functional.embedding", args, kwargs, node)
        bound = {"padding_idx": None, "norm_type": 2.0, **python.bind_by_name("embedding", names, args, kwargs)}
        x, weight, padding = bound.get("input"), bound.get("weight"), bound["padding_idx"]
        if not isinstance(x, Tensor) or not isinstance(weight, Tensor) or weight.data.ndim == 0:
            return self.call_op("torch.nn.functional.embedding", args, kwargs, node)
        rows = weight.data.shape[0]
        if isinstance(padding, (int, float)) and (padding >= rows if padding > 0 else padding < -rows):
            raise TorchError("AssertionError", "Padding_idx must be within num_embeddings")
        self.renorm_rows(weight, x, bound["max_norm"], bound["norm_type"], node)
        looked_up = {**kwargs, "max_norm": None} if len(args) <= 3 else kwargs
        return self.call_op("torch.nn.functional.embedding", [*args[:3], *([None] if len(args) > 3 else []), *args[4:]],
                            looked_up, node)

    def renorm_rows(self, weight: Tensor, indices: Tensor, max_norm: Any, norm_type: Any, node: ast.AST) -> None:
        """torch.embedding_renorm_(weight, indices, max_norm, norm_type) under no_grad, as its CPU kernel: each index
        once, in sorted order, its row's norm (the norm's own bits) compared as a double."""
        for position, (name, value) in enumerate((("max_norm", max_norm), ("norm_type", norm_type)), start=3):
            if not isinstance(value, (int, float)):
                raise TorchError("TypeError", f"embedding_renorm_(): argument '{name}' (position {position}) must be "
                                              f"float, not {_type_name(value)}")
        if weight.data.ndim != 2:
            raise runtime_error(f"Expected 2-dimensional tensor, but got {weight.data.ndim}-dimensional tensor for "
                                "argument #1 'self' (while checking arguments for embedding_renorm_)")
        if indices.data.dtype not in (INT64, np.dtype(np.int32)):
            raise runtime_error("Expected tensor for argument #2 'indices' to have one of the following scalar types: "
                                f"Long, Int; but got torch.{torch_dtype_name(indices.data.dtype)}Tensor instead (while "
                                "checking arguments for embedding_renorm_)")
        values = weight.data.copy()
        rows = len(values)
        before, self.graph.grad_enabled = self.graph.grad_enabled, False
        try:
            for index in np.unique(indices.data):
                if not -rows <= index < rows:
                    raise TorchError("IndexError", f"select(): index {index} out of range for tensor of size "
                                                   f"[{', '.join(map(str, values.shape))}] at dimension 0")
                norm = float(self.call_op(".norm", [Tensor(self.graph, values[index]), float(norm_type)], {}, node).data)
                if norm > max_norm:
                    values[index] = values[index] * values.dtype.type(max_norm / (norm + 1e-7))
        finally:
            self.graph.grad_enabled = before
        kept = weight.node  # (weight.detach() is written: the tensor keeps its grad_fn, its version is one more)
        self.overwrite(weight, values)
        weight.node = kept

    def call_op(self, spelled: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """A call of the op table, lowered as every way in lowers it (gradcli.lowering); what gradcli
        cannot take is said in gradcli's words (exit 2), never as an error PyTorch would not raise."""
        keywords = [(k, v) for k, v in kwargs.items() if k != "out" or v is not None]
        self.call_node = node
        self.initialized(node, *args, *kwargs.values())
        try:
            bound = lowering.lower(spelled, args, keywords, self)
        except lowering.CallProblem as problem:
            if problem.raised:  # what PyTorch raises for this call (torch.cumsum(x) without dim: TypeError)
                raise TorchError(problem.raised, problem.message) from None
            raise self.refuse(node, f"{spelled.lstrip('.')}(...) as written here is not supported: {problem.message}",
                              problem.hint or "`gradcli functions` lists each function with the arguments it takes") from None
        if bound.warning is not None:  # (F.mse_loss(a, b, False): size_average's deprecation)
            self.warn("UserWarning", bound.warning, node, where=None if bound.warning_at_call else spelled)
        if bound.identity:  # F.dropout(x, p=0): x itself, as PyTorch returns it (after its dtype checks: +bool)
            check_dtype_refusals(bound.op, bound.tensors, bound.params)
            if bound.op.name == "contiguous" and isinstance(bound.tensors[0], Tensor) and not _contiguous(bound.tensors[0]):
                return self.call_op(".clone", [bound.tensors[0]], {}, node)  # (a view that is not: PyTorch's copy)
            return bound.tensors[0]
        if "bfloat16" in (bound.cast, bound.params.get("dtype")):  # (NumPy has no such dtype; `grad` rounds to it)
            raise self.refuse(node, "bfloat16 tensors are not supported by gradcli run",
                              "float16, float32 and float64 are; `gradcli grad` takes x.bfloat16() as a rounding")
        operands = list(bound.tensors)
        if not any(isinstance(a, Tensor) for a in operands) and operands:
            operands[0] = self.tensor_from(operands[0], None, node)
        try:
            path: Callable[[np.ndarray], np.ndarray] | None = None
            if bound.op.name in VIEW_ROWS and bound.cast is None and isinstance(operands[0], Tensor):
                op, params, others = bound.op, dict(bound.params), [getattr(o, "data", o) for o in operands[1:]]
                path = lambda values: call_forward(op, [values, *others], params, [0] * (1 + len(others)))
                if op.name == "flatten" and operands[0].data.ndim == 0:  # (its program copies a number: reshape(1))
                    path = lambda values: np.reshape(values, (1,))
                if op.name in _RESHAPES and not _strided_view(operands[0], path):  # (its strides do not allow a view)
                    if spelled in (".view", ".view_as"):
                        raise runtime_error("view size is not compatible with input tensor's size and stride (at least "
                                            "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                                            "instead.")
                    if op.name in ("reshape", "flatten"):  # PyTorch's copy: a clone, viewed (_unsafe_view)
                        shape = tuple(np.shape(path(operands[0].data)))
                        copy = self.call_op(".clone", [operands[0]], {}, node)
                        return apply(self.graph, OPS["unsafe_view"], [copy], {"shape": shape}, self.span(node))
                    path = None
            if (bound.op.name.startswith("as_strided") and isinstance(operands[0], Tensor)
                    and _storage_of_its_own(operands[0]) is None
                    and not (_contiguous(operands[0]) and bound.params.get("storage_offset") is None)):
                raise self.refuse(node, f"{spelled.lstrip('.')}(...) of a view that is not contiguous, or with a "
                                  "storage_offset, is not supported", "PyTorch reads the storage of the view's base, which gradcli's views do not keep: "
                                  "call it on a tensor that is not a view (x.clone())")
            if bound.op.parts:
                return self.parts(bound.op, operands, bound.params, node, spelled)
            result = apply(self.graph, bound.op, operands, bound.params, self.span(node), bound.cast)
            if path is not None and isinstance(result, Tensor) and result is not operands[0]:
                return operands[0].viewed_as(result, path)
            return result
        except IndexError as error:  # (an index out of range: PyTorch's IndexError too)
            raise TorchError("IndexError", str(error).split("\n")[0]) from None
        except ValueRefusal as error:  # (values PyTorch refuses: its kernel's RuntimeError or functional.py's ValueError)
            raise TorchError(error.kind, str(error)) from None
        except Unsupported as error:  # (what PyTorch computes and gradcli does not)
            raise self.refuse(node, f"{spelled.lstrip('.')}(...) of {error} is not supported") from None
        except ValueError as error:
            # (the row's words where it refuses the shapes, not NumPy's)
            raise check_rule(bound.op, operands, bound.params) or runtime_error(said(error, operands)) from None

    # --- what gradcli.lowering asks of a value (lowering.Front) ---

    python_lists = True  # (a list is Python's, which PyTorch's parser refuses where a tensor goes)

    def kind(self, value: Any) -> str:
        if isinstance(value, Tensor):
            return lowering.TENSOR
        if isinstance(value, (Dtype, MemoryFormat)):
            return lowering.STR
        return _KINDS.get(type(value), "other")

    def type_name(self, value: Any) -> str | None:
        """Python's name of a value's type where its kind does not say it (a dtype is no str): PyTorch's messages."""
        if isinstance(value, Dtype):
            return "torch.dtype"
        if isinstance(value, MemoryFormat):
            return "torch.memory_format"
        return "Parameter" if isinstance(value, Tensor) and value.parameter else None

    def scalar(self, value: Any) -> bool:
        """Does PyTorch's parser take this tensor for a Python number (a Scalar param): 0-d, taking no grad."""
        return value.data.ndim == 0 and not (value.requires_grad and self.graph.grad_enabled)

    def static(self, value: Any) -> Any:
        if isinstance(value, Tensor):
            raise lowering.CallProblem("this argument must be a Python number here, not a tensor", value=value)
        if isinstance(value, Dtype):
            return value.numpy.name
        if isinstance(value, MemoryFormat):
            return value.name
        if isinstance(value, list):  # (a tuple to the rules, printed as the list it was: WrittenList)
            return WrittenList(self.static(item) for item in value)
        if isinstance(value, tuple):
            return tuple(self.static(item) for item in value)
        return value

    def items(self, value: Any) -> list[Any]:
        return list(value)

    def tensor(self, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            assert self.call_node is not None
            return self.tensor_from(value, None, self.call_node)
        return value

    def stand_in(self, number: float) -> Any:
        tensor = Tensor(self.graph, np.asarray(number, dtype=FLOAT32))  # (0-d: it never sets the dtype)
        tensor.stand_in = True
        return tensor

    def floating(self, value: Any) -> bool:
        return isinstance(value, Tensor) and value.data.dtype.kind == "f"

    def dtype(self, value: Any) -> str:
        return value.data.dtype.name if isinstance(value, Tensor) else "float32"

    def arg_shapes(self, values: list[Any], row: str) -> list[tuple[int, ...]]:
        return [tuple(np.shape(v.data)) if isinstance(v, Tensor) else () for v in values]

    def parts(self, op: Op, operands: list[Any], params: dict[str, Any], node: ast.AST,
              spelled: str | None = None) -> tuple[Any, ...]:
        """A call that gives a tuple (Op.parts): each part a tensor of its own, as PyTorch's
        namedtuple (max(x, 0) -> values, indices) or tuple (split, chunk). The namedtuple's type is named
        by the call as written: torch.linalg.slogdet's `linalg_slogdet`, torch.slogdet's and a.slogdet()'s
        `slogdet`."""
        count = op.parts
        if count < 0:  # as many as the shapes give: try parts until there is none
            if op.program is not None:  # (a composite's refusals by dtype come before its shape rule)
                check_dtype_refusals(op, operands, params, composite=True)
            shapes = [np.shape(a.data) if isinstance(a, Tensor) else () for a in operands]
            count = 0
            while True:
                try:
                    assert op.shape is not None
                    op.shape(*shapes, **params, part=count, of=None)
                except DimError as error:  # (a dim out of range: PyTorch's IndexError, not a tuple of none)
                    raise TorchError("IndexError", str(error)) from None
                except IndexError:
                    break
                except Unsupported:  # (what gradcli lacks: said as a gap by call_op)
                    raise
                except ValueError as error:  # (past the last part; any other is PyTorch's error for the call)
                    if not str(error).startswith("tuple index out of range"):
                        raise runtime_error(said(error, operands)) from None
                    break
                count += 1
        items, outer = [], self.graph.call
        self.graph.call = {}  # (its parts one node of PyTorch's: Graph.one_node)
        try:
            for part in range(count):
                items.append(apply(self.graph, op, operands, {**params, "part": part, "of": None}, self.span(node)))
        finally:
            self.graph.call = outer
        if op.name in _SPLITS and isinstance(operands[0], Tensor):  # views of the tensor, as PyTorch's
            base, others, label = operands[0], [getattr(o, "data", o) for o in operands[1:]], _SPLITS[op.name]
            if op.name == "split" and isinstance(params.get("size"), (list, tuple)):
                label = "SplitWithSizes"
            made_with_grad = self.graph.grad_enabled and base.requires_grad
            for part, item in enumerate(items):
                given = {**params, "part": part, "of": None}
                base.viewed_as(item, partial(_part_of, op, others, given))
                if label:  # (tensor_split's parts are slices, each a view of its own: a write into one is recorded)
                    item.one_of = (label, part, made_with_grad)
        if op.fields:
            words = (spelled or op.name).lstrip(".").split(".")
            name = f"linalg_{words[-1]}" if words[-2:-1] == ["linalg"] else words[-1] if spelled else op.name.split("_")[0]
            return ReturnTuple(name, op.fields, items)
        return tuple(items)

    def call_method(self, method: Method, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        receiver, name = method.receiver, method.name
        if isinstance(receiver, GradFn):  # (PyTorch's C++ nodes, not generated from derivatives.yaml, name their namespace)
            named = receiver.name()
            return f"torch::autograd::{named}" if named in ("CopySlices", "CopyBackwards", "AccumulateGrad") else named
        if isinstance(receiver, str) and name == "format":
            return self.format_string(receiver, args, kwargs, node)
        if isinstance(receiver, (list, dict, str, set, slice)):
            return python.call_python_method(self, receiver, name, args, kwargs, node)
        if arrays.is_array(receiver):
            return self.numpy(node, arrays.call_method, receiver, name, *_python_types(args, kwargs))
        tensor: Tensor = receiver
        if name in ("add", "sub", "add_", "sub_") and "alpha" in kwargs:
            return self.scaled_add(name, [tensor, *args], kwargs, node)
        if name in ("add", "sub", "add_", "sub_") and len(args) == 2 and not kwargs and isinstance(
                args[0], (int, float)) and isinstance(args[1], Tensor):  # p.data.add_(-lr, grad): the old overload
            self.warn("UserWarning", f"This overload of {name} is deprecated:\n\t{name}(Number alpha, Tensor other)\n"
                                     f"Consider using one of the following signatures instead:\n\t{name}(Tensor other, "
                                     f"*, Number alpha = 1) (Triggered internally at /__w/pytorch/pytorch/torch/csrc/"
                                     f"utils/python_arg_parser.cpp:1841.)", node)
            return self.scaled_add(name, [tensor, args[1]], {"alpha": args[0]}, node)
        handler = _TENSOR_METHODS.get(name)
        if handler is not None:
            return handler(self, tensor, args, kwargs, node)
        if name.endswith("_") and name not in METHODS and name[:-1] in METHODS:
            return self.in_place_op(tensor, name, args, kwargs, node)
        return self.call_op(f".{name}", [tensor, *args], kwargs, node)

    def in_place_op(self, tensor: Tensor, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """t.clamp_(...), t.relu_(), t.exp_() ...: t's values become t.<op>(...)'s, in t's dtype (a leaf that
        requires grad: PyTorch's error); with a graph, recorded as PyTorch records it (record_in_place)."""
        if self.graph.grad_enabled and tensor.requires_grad and tensor.is_leaf:
            raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
        if name in _RESHAPES_IN_PLACE:
            return self.reshape_in_place(tensor, name, args, kwargs, node)
        result = self.call_op(f".{name[:-1]}", [tensor, *args], kwargs, node)
        if not isinstance(result, Tensor) or result.data.shape != tensor.data.shape:
            raise self.refuse(node, f"t.{name}(...) that changes the tensor's shape is not supported")
        if self.graph.grad_enabled and result.requires_grad:
            return self.record_in_place(tensor, result, node)
        if self.graph.grad_enabled and tensor.requires_grad and name[:-1] in _COMPARED_IN_PLACE and len(args) == 1 \
                and not kwargs:  # (t.lt_(v): PyTorch's LtBackward0/1, its gradient 0)
            _not_one_of_several(tensor)
            return self.record_in_place(tensor, apply(self.graph, OPS["compare_in_place"], [tensor, args[0]],
                                                      {"op": _COMPARED_IN_PLACE[name[:-1]]}, self.span(node)), node)
        if not np.can_cast(result.data.dtype, tensor.data.dtype, "same_kind"):
            scalar_bounds = name in _CLAMPS and not any(isinstance(v, Tensor) for v in [*args, *kwargs.values()])
            desired = _C_NAMES.get(tensor.data.dtype.name) if scalar_bounds else None  # (its kernel's C++ words)
            raise runtime_error(f"result type {torch_dtype_name(result.data.dtype)} can't be cast to the "
                                f"desired output type {desired or torch_dtype_name(tensor.data.dtype)}")
        if self.graph.grad_enabled and tensor.requires_grad:  # (t.logical_not_() of a tensor with a graph: an op
            _not_one_of_several(tensor)  # PyTorch records nothing for; the values change, the node stays, the
            self.unrecorded_write(tensor, result.data.astype(tensor.data.dtype))  # version is one more)
            return tensor
        self.overwrite(tensor, result.data.astype(tensor.data.dtype))
        return tensor

    def unrecorded_write(self, tensor: Tensor, values: np.ndarray) -> None:
        """A tensor with a graph takes new values by an op PyTorch records no node for (t.logical_not_()): its
        grad_fn stays what it was, and a node that saved it finds its version changed at backward."""
        _no_internal_overlap(tensor)
        root, _ = tensor.in_root()
        if root is not tensor:
            raise self.refuse(self.node or ast.Pass(), "an in-place op that takes no gradient, of a view with a graph, "
                                                       "is not supported")
        if id(tensor.data) in self.shared:
            tensor.data[...] = values
        else:
            tensor.data = values
        self.unrecorded(tensor)
        self.changed(tensor)

    def reshape_in_place(self, tensor: Tensor, name: str, args: list[Any], kwargs: dict[str, Any],
                         node: ast.AST) -> Tensor:
        """t.t_(), t.transpose_(0, 1) (swapdims_, swapaxes_), t.unsqueeze_(0), t.squeeze_(): t itself takes the
        view's shape, as PyTorch changes a tensor's sizes in place (its version one more); with a graph, recorded
        as PyTorch records it (TBackward1, TransposeBackward1, UnsqueezeBackward1, SqueezeBackward3/4/5). Its views
        keep reading the elements they read, and where t is a view, it reads its base through the change."""
        old_shape = tensor.data.shape
        if name == "t_" and len(old_shape) > 2:
            raise runtime_error(f"t_() expects a tensor with <= 2 dimensions, but self is {len(old_shape)}D")
        result = self.call_op(f".{name[:-1]}", [tensor, *args], kwargs, node)  # (PyTorch's errors first)
        assert isinstance(result, Tensor)
        tensor.views = tuple(ref for ref in tensor.views if ref() is not None and ref() is not result)
        recorded = self.graph.grad_enabled and tensor.requires_grad
        if recorded and (tensor.view_of is not None or tensor.views):
            raise self.refuse(node, f"t.{name}(...) of a view or of a tensor with views, where a graph is involved, "
                                    f"is not supported", f"write t = t.{name[:-1]}(...)")
        if name in ("t_", "transpose_", "swapdims_", "swapaxes_"):
            dims = (0, -1) if name == "t_" else python.bind_by_name(name, ["dim0", "dim1"] if name != "swapaxes_" else [
                "axis0", "axis1"], args, kwargs).values()
            first, second = (int(dim) for dim in dims)

            def change(values: np.ndarray) -> np.ndarray:
                return np.swapaxes(values, first, second) if values.ndim > 1 else values

            inverse = change
        else:
            new_shape = result.data.shape

            def change(values: np.ndarray) -> np.ndarray:
                return values.reshape(new_shape)  # (unit axes in or out: NumPy's view, never a copy)

            def inverse(values: np.ndarray) -> np.ndarray:
                return values.reshape(old_shape)

        new = change(tensor.data)
        if id(tensor.data) in self.shared:
            self.shared[id(new)] = new
        if tensor.view_of is not None:
            base, path = tensor.view_of
            tensor.view_of = (base, lambda values, path=path: change(path(values)))
        for ref in tensor.views:
            view = ref()
            if view is not None and view.view_of is not None and view.view_of[0] is tensor:
                read = view.view_of[1]
                view.view_of = (tensor, lambda values, read=read: read(inverse(values)))
        tensor.data = new
        tensor.version[0] += 1
        if recorded:
            tensor.node, tensor.requires_grad = result.node, result.requires_grad
            if result.node is not None:
                self.graph.tape.nodes[result.node].in_place = True
        else:
            tensor.node = None  # (its next use a new leaf, of its new shape)
        return tensor

    def numpy_of_tensors(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """np.NAME(...) of torch tensors, as PyTorch 2.13 with NumPy 2 runs it: each tensor is its array
        (Tensor.__array__, which refuses one that requires grad), NumPy computes, and a ufunc's result (np.exp,
        np.add, np.isnan ...) and that of the functions that fall back to the array (np.reshape, np.argmax ...) come
        back as a tensor without a graph (Tensor.__array_wrap__: a bool one as uint8); the others give NumPy's own
        array or number (np.where, np.dot, np.median ...). np.sum, np.mean, np.max and the like call the tensor's
        own method with NumPy's keywords, which PyTorch's methods refuse: not supported here."""
        if name in ("shape", "ndim") and len(args) == 1 and not kwargs and isinstance(args[0], Tensor):
            return self.tensor_attribute(args[0], "shape", node) if name == "shape" else args[0].data.ndim
        wraps = isinstance(getattr(np, name, None), np.ufunc) or name in _NUMPY_WRAPS
        if not wraps and name not in _NUMPY_CONVERTS:
            raise self.refuse(node, f"np.{name} of a torch tensor is not supported",
                              f"PyTorch's np.{name}(t) calls the tensor's own method with NumPy's keywords; write "
                              f"torch.{name}(t), or np.{name}(t.numpy()) for NumPy's")

        def array(value: Any) -> Any:
            if isinstance(value, Tensor):
                if value.requires_grad and self.graph.grad_enabled:
                    raise runtime_error("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                                        "instead.")
                return value.data.copy()
            if isinstance(value, (list, tuple)):
                return [array(item) for item in value] if isinstance(value, list) else tuple(array(v) for v in value)
            return value

        result = self.numpy(node, arrays.call, name, *_python_types([array(a) for a in args],
                                                                    {key: array(v) for key, v in kwargs.items()}))
        if not wraps:
            return result
        data = np.asarray(result)
        return Tensor(self.graph, data.astype(np.uint8) if data.dtype == BOOL else data)

    def numpy(self, node: ast.AST, function: Callable[..., Any], *args: Any) -> Any:
        """A NumPy call of the file (run/arrays.py): its refusals and limits with the line, what NumPy
        raised as the file's exception."""
        try:
            return function(*args)
        except arrays.Unsupported as problem:
            raise self.refuse(node, problem.message, problem.hint) from None
        except arrays.TooLarge as problem:
            raise over_limit(problem.what, problem.limit, source=self.source, span=self.span(node)) from None
        except arrays.NumpyRaised as problem:
            raise PythonError(problem.kind, problem.message) from None

    def format_string(self, text: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> str:
        for _, field_name, spec, _ in string.Formatter().parse(text):
            if field_name and any(mark in field_name for mark in ".["):
                raise self.refuse(node, "a format field that reaches into attributes or items is not supported",
                                  "format the value itself: '{}'.format(x.grad)")
            if spec and "{" in spec:
                raise self.refuse(node, "a format field nested in a format spec is not supported",
                                  "write the width itself: '{:>10}'.format(x)")
            self.check_width(spec or "", node)
        try:
            return text.format(*args, **kwargs)
        except (IndexError, KeyError, ValueError, TypeError, OverflowError) as problem:
            raise TorchError(type(problem).__name__, str(problem)) from None

    # --- tensors ---

    def tensor_from(self, data: Any, dtype: Any, node: ast.AST) -> Tensor:
        """torch.tensor(data): PyTorch's dtype from the data (float32 for floats, int64 for ints,
        bool for bools) unless dtype= says."""
        if isinstance(data, Tensor):
            values = data.data
        elif isinstance(data, np.ndarray) and data.dtype.kind in "biuf":  # t.numpy() back (from_numpy): its dtype
            values = data.astype(data.dtype if data.dtype.kind not in "iu" or data.dtype in _TORCH_INTS else INT64)
        else:
            flat = _flatten(data, node, self)
            try:
                values = np.array(flat)
            except ValueError as problem:
                raise TorchError("ValueError", str(problem).split("\n")[0]) from None
            if values.dtype.kind == "u" or (values.dtype == object and any(
                    isinstance(v, int) and not -(2**63) <= v < 2**63 for v in values.ravel().tolist())):
                raise TorchError("ValueError", "Overflow when unpacking long long")  # (past int64, as PyTorch reads it)
            if values.dtype == object or values.dtype.kind not in "biuf":
                raise TorchError("TypeError", "could not convert the data to a tensor")
            if values.dtype.kind == "f" and dtype is None:
                values = values.astype(FLOAT32)  # (with a dtype, the Python floats go straight to it)
        if dtype is not None:
            if not isinstance(dtype, Dtype):
                raise TorchError("TypeError", "dtype must be a torch dtype, such as torch.float64")
            if (not isinstance(data, Tensor) and values.dtype.kind == "f" and dtype.numpy == INT64
                    and not np.all(np.abs(values) < 2.0**63)):  # NaN, inf, 1e20: PyTorch checks each number
                raise runtime_error("value cannot be converted to type int64 without overflow")
            values = values.astype(dtype.numpy)
        return Tensor(self.graph, np.array(values))

    def platform(self, function: Function, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        """Where the file asks what it runs on: the CPU, no CUDA, no accelerator (as PyTorch's CPU build answers)."""
        name = function.name
        if name in ("is_available", "current_accelerator", "device_count"):
            if args or kwargs:
                raise TorchError("TypeError", f"{name}() takes no arguments")
            return 0 if name == "device_count" else None if name == "current_accelerator" else False
        bound = _python_bind(name, ["device"] if name == "set_default_device" else ["type", "index"], args, kwargs)
        given = bound.get("device", bound.get("type"))
        device = given if isinstance(given, Device) else self.device(given, bound.get("index"), node)
        if name == "device":
            return device
        if device.type != "cpu":
            raise self.refuse(node, f"torch.set_default_device('{visible(str(device))}') is not supported",
                              "gradcli computes on the CPU")
        return None

    def on_cpu(self, given: Any, node: ast.AST, cuda_call: bool = False) -> None:
        """A device the file asks for, as PyTorch's CPU build takes it: the CPU, or its errors for CUDA
        (AssertionError: not compiled with it; t.cuda(1), an index: no accelerator) and MPS; others exit 2."""
        if given is None:
            return
        if cuda_call and isinstance(given, int) and not isinstance(given, bool):
            raise runtime_error("Cannot access accelerator device when none is available.")
        spelled = given if isinstance(given, Device) else self.device(given, None, node) if isinstance(given, str) \
            else None
        if spelled is None:
            raise self.refuse(node, f"a device given as {_type_name(given)} is not supported", "give 'cpu' or a torch.device")
        if spelled.type == "cuda":
            raise TorchError("AssertionError", "Torch not compiled with CUDA enabled")
        if spelled.type == "mps":
            raise runtime_error("PyTorch is not linked with support for mps devices")
        if spelled.type != "cpu":
            raise self.refuse(node, f"the device '{visible(str(spelled))}' is not supported", "gradcli computes on the CPU")

    def check_devices(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        """The devices among a .to(...)'s arguments, each as PyTorch's CPU build takes it."""
        for each in [*(a for a in args if isinstance(a, (Device, str))), kwargs.get("device")]:
            self.on_cpu(each, node)

    def device(self, spelled: Any, index: Any, node: ast.AST) -> Device:
        if not isinstance(spelled, str):
            raise TorchError("TypeError", f"device() received an invalid combination of arguments - got "
                                          f"({_type_name(spelled)})")
        kind, _, number = spelled.partition(":")
        if kind not in ("cpu", "cuda", "mps", "xpu", "meta") or (number and not number.isdigit()):
            raise runtime_error(f"Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
                                f"maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
                                f"device string: {spelled}")
        if number and index is not None:
            raise runtime_error(f"type (string) must not include an index because index was passed explicitly: {spelled}")
        chosen = int(number) if number else index
        return Device(kind, None if chosen is None else int(chosen))

    def legacy(self, function: Function, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """torch.Tensor([...]), torch.FloatTensor / LongTensor / DoubleTensor([...]) and autograd.Variable(t):
        the constructors of PyTorch before 0.4, still in tutorials. Variable(t) is t.detach() with its flag."""
        if function.name == "Variable":
            bound = _python_bind("Variable", ["data", "requires_grad", "volatile"], args, kwargs)
            data = bound.get("data")
            if not isinstance(data, Tensor):
                raise TorchError("TypeError", f"Variable data has to be a tensor, but got {_type_name(data)}")
            tensor = Tensor(self.graph, data.data)
            if bound.get("requires_grad"):
                self.set_requires_grad(tensor, True)
            return tensor
        kind = _LEGACY[function.name]
        if not kwargs and len(args) == 1 and isinstance(args[0], np.ndarray) and args[0].dtype.kind in "biuf":
            return self.legacy_of_array(args[0], kind)
        sizes = args[0] if len(args) == 1 and isinstance(args[0], Size) else args
        if not kwargs and all(isinstance(size, int) and not isinstance(size, bool) for size in sizes) and (
                len(args) != 1 or not isinstance(args[0], (list, tuple)) or isinstance(args[0], Size)):
            # torch.Tensor(2, 3), torch.LongTensor(5): sizes make a tensor whose values are leftover memory, as
            # torch.empty's: written before they are read (`.fill_(-10000.)`), or refused where they are read
            made = self.construct("empty", [tuple(sizes) if sizes else (0,)], {"dtype": dtype_of(kind)}, node)
            if made.data.size:
                self.unset[id(made.data)] = made.data
            return made
        if kwargs or len(args) != 1 or not isinstance(args[0], (list, tuple, Tensor)):
            raise self.refuse(node, f"torch.{function.name}(...) other than of a list of numbers is not supported",
                              "sizes make an uninitialized tensor: use torch.zeros(...)")
        if isinstance(args[0], Tensor):
            if args[0].data.dtype != kind:
                raise TorchError("TypeError", f"expected {_options(kind)} (got {_options(args[0].data.dtype)})")
            return args[0]
        return self.tensor_from(args[0], dtype_of(kind), node)

    def legacy_of_array(self, array: np.ndarray, kind: np.dtype) -> Tensor:
        """torch.Tensor(a) / FloatTensor(a) / LongTensor(a) of a NumPy array: the array's own memory where it has
        the constructor's dtype (a write into either is seen by the other, as PyTorch's), else a copy cast to it
        (an integer one wraps, a float one to an integer truncates)."""
        if array.dtype == kind:
            self.shared[id(array)] = array
            return Tensor(self.graph, array)
        with np.errstate(all="ignore"):
            values = array.astype(kind) if kind.kind == "f" or array.dtype.kind != "f" else np.trunc(array).astype(
                INT64).astype(kind)
        return Tensor(self.graph, values)

    def multinomial(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """torch.multinomial(input, num_samples, replacement=False): int64 indices of the categories, drawn from
        torch's generator as PyTorch's CPU kernel draws them (gradcli.run.random), with its errors."""
        if kwargs.get("generator") is not None or kwargs.get("out") is not None:
            raise self.refuse(node, "torch.multinomial(..., generator= or out=) is not supported",
                              "torch's default generator: leave generator= out")
        given = {k: v for k, v in kwargs.items() if k not in ("generator", "out")}
        if len(args) > 3:
            raise TorchError("TypeError", "multinomial() takes from 2 to 3 positional arguments but "
                                          f"{len(args)} were given")
        bound = {"replacement": False, **python.bind_by_name("multinomial", ["input", "num_samples", "replacement"],
                                                              args, given)}
        probs, count = bound.get("input"), bound.get("num_samples")
        if not isinstance(probs, Tensor) or not isinstance(count, int) or isinstance(count, bool):
            raise TorchError("TypeError", "multinomial() received an invalid combination of arguments - expected "
                                          "(Tensor input, int num_samples, bool replacement = False, *, Generator "
                                          "generator = None, Tensor out = None)")
        data = probs.data
        if data.dtype.kind != "f":
            raise runtime_error(f"multinomial only supports floating-point dtypes for input, got: "
                                f"{torch_dtype_name(data.dtype)}")
        if data.ndim not in (1, 2):
            raise runtime_error("prob_dist must be 1 or 2 dim")
        if count <= 0:
            raise runtime_error("cannot sample n_sample <= 0 samples")
        categories = data.shape[-1]
        replacement = bool(bound["replacement"])
        if not replacement and count > categories:
            raise runtime_error("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        if categories > 2**24:
            raise runtime_error("number of categories cannot exceed 2^24")
        rows = data.reshape(-1, categories)
        self.check_size(rows.shape[0] * count, node)
        if not np.all(np.isfinite(rows)) or np.any(rows < 0):
            raise runtime_error("probability tensor contains either `inf`, `nan` or element < 0")
        if np.any(rows.sum(axis=1, dtype=np.float64) <= 0):
            raise runtime_error("invalid multinomial distribution (sum of probabilities <= 0)")
        drawn = self.generator.multinomial(rows, count, replacement)
        return Tensor(self.graph, drawn.reshape(count) if data.ndim == 1 else drawn)

    def random(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST,
               moments: tuple[float, float] = (0.0, 1.0)) -> Any:
        """torch's random constructors, drawn from the run's generator (gradcli.run.random) as PyTorch draws them."""
        if name == "manual_seed":
            self.generator.manual_seed(int(args[0] if args else kwargs["seed"]))
            return DEFAULT_GENERATOR  # (PyTorch returns its default generator: a notebook's cell shows it)
        if name == "initial_seed":
            return self.generator.initial_seed()
        if name == "normal":
            return self.normal(args, kwargs, node)
        if name == "multinomial":
            return self.multinomial(args, kwargs, node)
        if name in _SIZE_SIGNATURES and "size" not in kwargs and (
                not args or (name == "randint" and not isinstance(args[-1], (tuple, list, Size)))):
            # (no size: PyTorch's parser matches none of the function's signatures)
            raise TorchError("TypeError", _invalid_combination(name, args, kwargs, _SIZE_SIGNATURES[name]))
        requires_grad = bool(kwargs.pop("requires_grad", False))
        dtype = kwargs.pop("dtype", None)
        self.on_cpu(kwargs.pop("device", None), node)
        if kwargs.get("generator", 0) is None:  # (generator=None: the default generator, as left out)
            del kwargs["generator"]
        unsupported = sorted(kwargs.keys() - {"size", "low", "high", "n", "input"})
        if unsupported:
            raise self.refuse(node, f"torch.{name}(...) with {', '.join(unsupported)}= is not supported",
                              "torch's default generator: leave generator= out")
        if name in ("rand_like", "randn_like"):
            like = args[0] if args else kwargs.get("input")
            if not isinstance(like, Tensor):
                raise TorchError("TypeError", f"{name}(): argument 'input' must be Tensor")
            shape, kind = like.data.shape, dtype.numpy if isinstance(dtype, Dtype) else like.data.dtype
        elif name == "randperm":
            count = int(args[0] if args else kwargs["n"])
            if count < 0:
                raise runtime_error(f"n must be non-negative, got{count}")
            shape, kind = (count,), dtype.numpy if isinstance(dtype, Dtype) else INT64
        else:
            numbers = list(args)
            if name == "randint":
                sizes = numbers.pop() if numbers and isinstance(numbers[-1], (tuple, list)) else kwargs.get("size")
                bounds = numbers or [kwargs[k] for k in ("low", "high") if k in kwargs]
                low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
                if sizes is None:
                    raise TorchError("TypeError", _invalid_combination(name, args, kwargs, _SIZE_SIGNATURES[name]))
            else:
                sizes = numbers[0] if len(numbers) == 1 and isinstance(numbers[0], (tuple, list)) else (
                    numbers or kwargs.get("size", ()))
            shape = tuple(int(s) for s in sizes)
            kind = dtype.numpy if isinstance(dtype, Dtype) else INT64 if name == "randint" else FLOAT32
        if any(size < 0 for size in shape):
            raise runtime_error(f"Trying to create tensor with negative dimension {min(shape)}: "
                                f"[{', '.join(map(str, shape))}]")
        self.check_size(math.prod(shape), node)
        if name in ("rand", "randn", "rand_like", "randn_like") and kind not in (FLOAT32, FLOAT64):
            raise self.refuse(node, f"torch.{name} of {kind.name} is not supported", "dtype=torch.float32 or float64")
        if name == "randint":
            if int(low) >= int(high):
                raise runtime_error(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
            data = self.generator.randint(int(low), int(high), shape, kind)
        elif name == "randperm":
            data = self.generator.randperm(shape[0], kind)
        elif name in ("rand", "rand_like"):
            data = self.generator.rand(shape, kind)
        else:
            data = self.generator.normal_(np.empty(shape, dtype=kind), *moments)
        tensor = Tensor(self.graph, data)
        if requires_grad:
            self.set_requires_grad(tensor, True)
        return tensor

    def normal(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        """torch.normal's four overloads: (float, float, size) fills a new tensor as normal_(mean, std)
        does; a tensor mean adds itself to normal_(0, std), a tensor std scales normal_(0, 1) then
        adds the mean, as PyTorch's normal kernels compute them."""
        if kwargs.pop("generator", None) is not None or kwargs.pop("out", None) is not None:
            raise self.refuse(node, "torch.normal(...) with generator= or out= is not supported",
                              "torch's default generator: leave generator= and out= out")
        bound = _python_bind("normal", ["mean", "std", "size"], args,
                             {k: v for k, v in kwargs.items() if k in ("mean", "std", "size")})
        extra = sorted(kwargs.keys() - {"mean", "std", "size", "dtype", "requires_grad", "device"})
        if extra:
            raise TorchError("TypeError", f"normal() got an unexpected keyword argument '{extra[0]}'")
        mean, std, size = bound.get("mean", 0.0), bound.get("std", 1.0), bound.get("size")
        tensors = [value for value in (mean, std) if isinstance(value, Tensor)]
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (mean, std))
        sizes_ok = isinstance(size, (tuple, list)) and all(isinstance(v, int) for v in size)
        settings = size is not None or kwargs.get("dtype") is not None or kwargs.get("requires_grad")
        if (tensors and settings) or (not tensors and not (numbers and sizes_ok)):
            got = [_type_name(v) for v in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
            raise TorchError("TypeError", _NORMAL_OVERLOADS.format(", ".join(got)))
        if not tensors:
            dtype = kwargs.get("dtype")
            if isinstance(dtype, Dtype) and dtype.numpy not in (FLOAT32, FLOAT64):
                raise TorchError("NotImplementedError", f"\"normal_kernel_cpu\" not implemented for "
                                                        f"'{torch_dtype_name(dtype.numpy)}'")
            if float(std) < 0:
                raise runtime_error(f"normal expects std >= 0.0, but found std {float(std):g}")
            return self.random("randn", [tuple(size or ())], {"dtype": kwargs.get("dtype"),
                                                 "requires_grad": kwargs.get("requires_grad", False)},
                               node, moments=(float(mean), float(std)))
        if any(t.requires_grad for t in tensors):
            raise self.refuse(node, "torch.normal of a tensor that requires grad is not supported",
                              "draw from a detached tensor: torch.normal(mean.detach(), std)")
        shape = np.broadcast_shapes(*(t.data.shape for t in tensors))
        kind = np.result_type(*(t.data.dtype for t in tensors))
        if kind not in (FLOAT32, FLOAT64):
            raise TorchError("NotImplementedError", f"\"normal_kernel_cpu\" not implemented for "
                                                    f"'{torch_dtype_name(kind)}'")
        self.check_size(math.prod(shape), node)
        if isinstance(std, Tensor):
            if (std.data < 0).any():
                raise runtime_error("normal expects all elements of std >= 0.0")
            data = self.generator.normal_(np.empty(shape, dtype=kind))
            data = (data * std.data.astype(kind)).astype(kind)
        else:
            if float(std) < 0:
                raise runtime_error(f"normal expects std >= 0.0, but found std {float(std):g}")
            data = self.generator.normal_(np.empty(shape, dtype=kind), 0.0, float(std))
        data = (data + (mean.data.astype(kind) if isinstance(mean, Tensor) else kind.type(mean))).astype(kind)
        return Tensor(self.graph, data)

    def construct(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        requires_grad = bool(kwargs.pop("requires_grad", False))
        dtype = kwargs.pop("dtype", None)
        self.on_cpu(kwargs.pop("device", None), node)
        if name == "from_numpy" and len(args) == 1 and isinstance(args[0], np.ndarray) and (
                args[0].dtype in (FLOAT32, FLOAT64, BOOL, *_TORCH_INTS)):  # the same memory as the array's
            self.shared[id(args[0])] = args[0]
            tensor = Tensor(self.graph, args[0])
        elif name in ("tensor", "as_tensor", "array", "from_numpy"):
            if len(args) != 1:
                raise TorchError("TypeError", f"{name}() takes 1 positional argument")
            tensor = self.tensor_from(args[0], dtype, node)
        elif name in ("ones", "zeros", "full", "empty"):
            fill = kwargs.pop("fill_value", None)
            keyword = "size" in kwargs
            if keyword:
                if (args and name != "full") or len(args) > 1:
                    raise TorchError("TypeError", f"{name}() got multiple values for argument 'size'")
                args = [kwargs.pop("size"), *args]
            if not args and name != "full":  # (PyTorch's words: "arguments", one of them)
                raise TorchError("TypeError", f'{name}() missing 1 required positional arguments: "size"')
            if name == "full":
                if fill is None:
                    if not args or (len(args) == 1 and isinstance(args[0], (tuple, list))):
                        missing = '"fill_value"' if args else '"size", "fill_value"'
                        raise TorchError("TypeError", f"full() missing {2 - len(args)} required positional "
                                                      f"argument{'s' if args else ''}: {missing}")
                    fill, args = args[-1], args[:-1]
                if isinstance(fill, (tuple, list, str)) or fill is None:
                    raise TorchError("TypeError", f"full(): argument 'fill_value' (position 2) must be Number, not "
                                                  f"{_type_name(fill)}")
            shape = _size_argument(name, args, keyword)
            negative = [size for size in shape if size < 0]
            if negative and name == "zeros":
                raise runtime_error("zeros: Dimension size must be non-negative.")
            if negative:
                raise runtime_error(f"Trying to create tensor with negative dimension {negative[0]}: "
                                    f"[{', '.join(map(str, shape))}]")
            self.check_size(math.prod(shape), node)
            value = {"ones": 1.0, "zeros": 0.0, "empty": 0.0}.get(name, fill)
            kind = dtype.numpy if isinstance(dtype, Dtype) else (
                INT64 if isinstance(value, int) and not isinstance(value, bool) and name == "full"
                else BOOL if isinstance(value, bool) else FLOAT32)
            tensor = Tensor(self.graph, np.full(shape, value, dtype=kind))
        elif name in ("ones_like", "zeros_like", "full_like"):
            most = 2 if name == "full_like" else 1  # (PyTorch's parser: the rest by keyword alone)
            if len(args) > most:
                raise TorchError("TypeError", f"{name}() takes {most} positional argument{'s' if most > 1 else ''} but "
                                              f"{len(args)} were given")
            unknown = [key for key in kwargs if key not in ("fill_value", "layout", "memory_format", "pin_memory")
                       or (key == "fill_value" and name != "full_like")]
            if unknown:
                raise TorchError("TypeError", f"{name}() got an unexpected keyword argument '{unknown[0]}'")
            if dtype is not None and not isinstance(dtype, Dtype):
                raise TorchError("TypeError", f"{name}(): argument 'dtype' must be torch.dtype, not {_type_name(dtype)}")
            creation_options(name, kwargs)
            like = args[0]
            if not isinstance(like, Tensor):
                raise TorchError("TypeError", f"{name}(): argument 'input' must be Tensor")
            value = {"ones_like": 1, "zeros_like": 0}.get(name, args[1] if len(args) > 1 else kwargs.get("fill_value"))
            kind = dtype.numpy if isinstance(dtype, Dtype) else like.data.dtype
            tensor = Tensor(self.graph, np.full(like.data.shape, value, dtype=kind))
        elif name == "eye":
            given = [*args, *(kwargs[k] for k in ("n", "m")[len(args):] if k in kwargs)]
            sizes = [_whole_size(v) for v in given]
            if len(given) == 1 and sizes[0] is None and not kwargs:
                raise TorchError("TypeError", f"eye(): argument 'n' (position 1) must be int, not {_type_name(args[0])}")
            if not 0 < len(given) <= 2 or None in sizes:
                raise TorchError("TypeError", _invalid_combination("eye", args, kwargs, _EYE))
            n = m = int(sizes[0])  # type: ignore[arg-type]
            if len(sizes) > 1:
                m = int(sizes[1])  # type: ignore[arg-type]
            if n < 0 or m < 0:
                raise runtime_error(f"{'n' if n < 0 else 'm'} must be greater or equal to 0, got {n if n < 0 else m}")
            self.check_size(n * m, node)
            tensor = Tensor(self.graph, np.eye(n, m, dtype=dtype.numpy if isinstance(dtype, Dtype) else FLOAT32))
        elif name == "arange":
            tensor = self.arange(args, kwargs, dtype, node)
        elif name == "linspace":
            given = [*args, *(kwargs[k] for k in ("start", "end", "steps")[len(args):] if k in kwargs)]
            start, end, steps = (given + [None] * 3)[:3]
            if steps is None:
                raise TorchError("TypeError", _invalid_combination("linspace", args, kwargs, _LINSPACE))
            kind = dtype.numpy if isinstance(dtype, Dtype) else FLOAT32
            self.check_size(int(steps), node)
            values = (ranges.linspace32(float(start), float(end), int(steps)) if kind == FLOAT32
                      else ranges.linspace(float(start), float(end), int(steps)))
            tensor = Tensor(self.graph, values.astype(kind))
        elif name == "is_tensor":
            return isinstance(args[0], Tensor)  # type: ignore[return-value]
        else:
            raise self.refuse(node, f"torch.{name} is not supported here")
        if requires_grad:
            self.set_requires_grad(tensor, True)
        return tensor

    def arange(self, args: list[Any], kwargs: dict[str, Any], dtype: Any, node: ast.AST) -> Tensor:
        numbers = list(args)
        if "end" in kwargs:  # arange(end=4), arange(1, end=3)
            numbers = [numbers[0] if numbers else kwargs.get("start", 0), kwargs["end"], kwargs.get("step", 1)]
        if not numbers:
            raise TorchError("TypeError", _invalid_combination("arange", args, kwargs, _ARANGE))
        if len(numbers) == 1:
            numbers = [0, numbers[0], 1]
        elif len(numbers) == 2:
            numbers.append(kwargs.get("step", 1))
        names = ["end"] if len(args) == 1 else ["start", "end", "step"]
        given = [*((name, f" (position {i + 1})", value) for i, (name, value) in enumerate(zip(names, args))),
                 *((name, "", value) for name, value in kwargs.items())]
        for name, where, value in given:  # a tensor of more than 0 dims is not a number, as PyTorch's Scalar
            if isinstance(value, Tensor) and value.data.ndim:
                raise TorchError("TypeError", f"arange(): argument '{name}'{where} must be Number, not Tensor")
        # a 0-d tensor is a number (its value)
        numbers = [number.data.item() if isinstance(number, Tensor) else number for number in numbers]
        start, end, step = numbers
        if step == 0:
            raise runtime_error("step must be nonzero")
        if isinstance(dtype, Dtype):
            kind = dtype.numpy
        else:
            kind = FLOAT32 if any(isinstance(n, float) for n in (start, end, step)) else INT64
        span = (end - start) / step
        if not math.isfinite(span):
            raise runtime_error("unsupported range: " + f"{start} -> {end}")
        if span < 0:
            raise runtime_error("upper bound and larger bound inconsistent with step sign")
        count = math.ceil(span)
        self.check_size(count, node)
        if kind == INT64:
            return Tensor(self.graph, np.arange(start, end, step, dtype=INT64))
        values = ranges.arange32(start, step, count) if kind == FLOAT32 else ranges.arange(start, step, count)
        return Tensor(self.graph, values.astype(kind))

    def check_saved(self, reached: Iterable[int], node: ast.AST) -> None:
        """PyTorch's check as a node's backward runs (the last recorded first): each tensor the node saved
        (run/saved.py: which, by its args that take a gradient) is still at the version it was saved at."""
        graph = self.graph
        for index in sorted(reached, reverse=True):
            record = graph.saves.get(index)
            if record is None:
                continue
            args, result, version = record
            stale = [p for p, arg in enumerate(args) if arg is not None and arg[1][0] != arg[2]]
            if not stale and result[0] == version:
                continue
            from gradcli.run.saved import SAVED

            tape_node = graph.tape.nodes[index]
            op = tape_node.op
            assert op is not None
            name = node_name(graph, index)
            entry = SAVED.get(op.name, {}).get(name)
            if entry is None:
                if op.linear:  # (a rule that reads no values: PyTorch's node saves none)
                    continue
                raise self.refuse(node, f"a backward through {name} after a write in place into a tensor it read "
                                        f"is not supported (gradcli does not know which tensors PyTorch's {name} saves)",
                                  "write the op out of place: t = t + v")
            wants = tape_node.wants
            for position, needers in entry[0]:
                if position in stale and _needed(wants, needers):
                    tensor, counter, saved_at = args[position]  # type: ignore[misc]
                    grad_fn = tensor.grad_fn
                    raise runtime_error(self.modified(tensor.data, None if grad_fn is None else grad_fn.name(),
                                                      counter[0], saved_at))
            if result[0] != version and _needed(wants, entry[1]):
                raise runtime_error(self.modified(np.asarray(graph.values[index]), name, result[0], version))

    def modified(self, values: np.ndarray, grad_fn: str | None, now: int, saved_at: int) -> str:
        """PyTorch's words for a saved tensor written in place since (SavedVariable::unpack)."""
        kind = _TENSOR_TYPES.get(values.dtype.name, values.dtype.name.capitalize())
        words = (f"one of the variables needed for gradient computation has been modified by an inplace operation: "
                 f"[torch.{kind}Tensor [{', '.join(map(str, values.shape))}]]")
        if grad_fn is not None:
            named = f"torch::autograd::{grad_fn}" if grad_fn in ("CopySlices", "CopyBackwards") else grad_fn
            words += f", which is output 0 of {named.replace('Backward0', '').replace('Backward', '')},"
        words += f" is at version {now}; expected version {saved_at} instead."
        if not self.anomaly:
            words += (" Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
                      "with torch.autograd.set_detect_anomaly(True, check_nan=False).")
        return words

    def check_size(self, count: int, node: ast.AST) -> None:
        if count > Limits.get("elements"):
            raise over_limit(f"this tensor would have {count:,} elements", "elements", source=self.source,
                             span=self.span(node))

    # --- backward ---

    def backward(self, roots: list[Tensor], grads: list[Any], retain_graph: bool, inputs: list[Tensor] | None,
                 kind: str, node: ast.AST, accumulate: bool = True, create_graph: bool = False,
                 targets: list[Tensor] | None = None) -> Sequence[Any]:
        """The adjoint of every node, arrays; with create_graph, run tensors recorded on the tape
        (gradcli.run.higher) where a gradient flows, so they can be differentiated again. `targets` (autograd.grad's
        inputs, backward's inputs=): what the sweep is for; a custom Function's backward and a hook run only above
        them, as PyTorch's engine runs only the nodes that lead to them."""
        graph = self.graph
        if targets is None and inputs is not None:
            targets = inputs
        seeds = []
        given = []  # the seeds as tensors: a grad_outputs that requires grad stays in the graph
        for i, (root, grad) in enumerate(zip(roots, grads, strict=True)):
            if not root.requires_grad:
                raise runtime_error(f"element {i} of tensors does not require grad and does not have a grad_fn")
            if grad is None:
                if root.data.size != 1:
                    raise runtime_error("grad can be implicitly created only for scalar outputs")
                seeds.append(np.ones(root.data.shape, dtype=root.data.dtype))
                given.append(Tensor(graph, seeds[-1]))
                continue
            seed = grad.data if isinstance(grad, Tensor) else np.asarray(grad, dtype=root.data.dtype)
            if seed.shape != root.data.shape:
                raise runtime_error(f"Mismatch in shape: grad_output[{i}] has a shape of {Size(seed.shape)!r} and "
                                    f"output[{i}] has a shape of {Size(root.data.shape)!r}.")
            seeds.append(seed.astype(root.data.dtype))
            given.append(grad if isinstance(grad, Tensor) and grad.data.dtype == root.data.dtype
                         else Tensor(graph, seeds[-1]))
        span = self.span(node)
        indices = [root.as_node(span) for root in roots]
        self.name_inputs()
        reached = reachable(graph.tape, indices)
        nodes = graph.tape.nodes
        runs, idle = reached, frozenset[int]()
        if targets is not None:  # PyTorch's engine runs only the nodes above an input (their hooks, what they free)
            ends = {t.as_node(span) for t in targets}
            runs = set()  # the reached nodes at or above an input
            for i in sorted(reached):
                if i in ends or any(arg in runs for arg in nodes[i].args):
                    runs.add(i)
            idle = frozenset(i for i in reached if not any(arg in runs for arg in nodes[i].args))
        executed = reached - idle if idle else reached
        if any(i in graph.freed and _saves_tensors(graph, i) for i in executed):
            raise runtime_error(FREED)
        self.check_saved(executed, node)
        for i in executed:  # a node PyTorch records without a derivative (floor_divide, heaviside) stops its backward
            op = nodes[i].op
            if op is not None and _NOT_IMPLEMENTED in (op.torch_node, *op.scalar_overloads) \
                    and node_name(graph, i) == _NOT_IMPLEMENTED:
                raise runtime_error(f"derivative for aten::{op.name} is not implemented")
        refused = [i for i in executed if i in graph.refusals]
        if refused:  # (PyTorch's backward of that node raises: pow's of a bool exponent)
            raise graph.refusals[max(refused)]
        hooks = self.hooks_of(runs, node)
        node_hooks = {index: self.node_hook_runner(index, self.node_hooks[index], node)
                      for index in runs if index in self.node_hooks}
        graph.idle = idle
        try:
            if create_graph:
                if hooks or node_hooks:
                    raise self.refuse(node, "a tensor hook (register_hook) or a module's backward hook with "
                                            "create_graph=True is not supported")
                adjoints = self.recorded_backward(indices, given, node)
            else:
                adjoints = engine.backward(graph.tape, graph.values, indices, seeds, backend=PROMOTING, hooks=hooks,
                                           node_hooks=node_hooks)
        finally:
            graph.idle = frozenset()
        if self.multi_hooks:
            self.run_multi_grad_hooks(reached, adjoints, inputs, accumulate, span, node)
        if self.anomaly and any(adjoints[i] is not None and np.isnan(np.asarray(
                adjoints[i].data if isinstance(adjoints[i], Tensor) else adjoints[i], dtype=float)).any() for i in reached):
            raise self.refuse(node, "a NaN gradient under torch.autograd's anomaly detection is not supported (PyTorch "
                                    "names the node that made it: gradcli does not yet)",
                              "run it without set_detect_anomaly / detect_anomaly to see the NaN gradients")
        if not retain_graph:
            graph.freed.update(i for i in reached if nodes[i].kind == APPLY and i not in idle)
        arrays = [a.data if isinstance(a, Tensor) else a for a in adjoints] if create_graph else adjoints
        call = BackwardCall(kind, indices, seeds, adjoints=arrays, line=getattr(node, "lineno", 0))
        self.calls.append(call)
        if accumulate:
            wanted = None if inputs is None else {id(t) for t in inputs}
            versions = _grad_versions(graph, reached, indices) if not create_graph else {}
            for index, tensor in self.leaves(reached):
                if wanted is not None and id(tensor) not in wanted:
                    continue
                self.accumulate(tensor, adjoints[index], versions.get(index, 0))
                call.grads[tensor.name or f"leaf{index}"] = arrays[index]
                if adjoints[index] is not None:
                    self.run_post_accumulate_hooks(tensor, create_graph, node)
            for index, tensor in self.retained.items():
                if index in reached and (wanted is None or id(tensor) in wanted) and adjoints[index] is not None:
                    self.accumulate(tensor, adjoints[index])
            for tensor in inputs or ():  # backward(inputs=[h]) of a non-leaf h: its .grad, as PyTorch fills it
                index = tensor.as_node(span)
                if not tensor.is_leaf and index not in self.retained and index in reached:
                    self.accumulate(tensor, adjoints[index])
        return adjoints

    def hooks_of(self, reached: set[int], node: ast.AST) -> dict[int, Callable[[Any], Any]]:
        """The reached tensors' hooks (t.register_hook), each node's in the order registered: each gets
        the gradient (a tensor outside the graph) and may give back another of its shape; then the node's
        pre-hooks (grad_fn.register_prehook), as PyTorch's engine calls them after the tensor's."""
        made: dict[int, Callable[[Any], Any]] = {}
        for index in reached:
            tensor = self.graph.leaves.get(index) or self.hooked.get(index)
            handles = self.hooks.get(id(tensor)) if tensor is not None else None
            prehooks = self.node_prehooks.get(index)
            if handles or prehooks:
                dtype = self.graph.values[index].dtype if tensor is None else tensor.data.dtype
                made[index] = self.hook_runner(handles or [], dtype, node, prehooks or [])
        return made

    def register_node_hook(self, owner: GradFn, kind: str, args: list[Any], kwargs: dict[str, Any],
                           node: ast.AST) -> NodeHookHandle:
        """grad_fn.register_hook(fn): fn(grad_inputs, grad_outputs) when the node has run, what it returns (if not
        None) sent to its inputs; grad_fn.register_prehook(fn): fn(grad_outputs) before it runs, what it returns
        (if not None) the node's gradient."""
        hook = python.bind_by_name(kind, ["fn"], args, kwargs).get("fn")
        if not isinstance(hook, (UserFunction, Builtin)):
            raise self.refuse(node, f"grad_fn.{kind} of anything but a function of the file is not supported")
        if self.graph.tape.nodes[owner.index].kind != APPLY:
            raise self.refuse(node, f"{kind} on an AccumulateGrad node is not supported",
                              "register_hook on the leaf tensor")
        entries: list[Any]
        if kind == "register_hook":
            entry: Any = (hook, _NODE_HOOK)
            entries = self.node_hooks.setdefault(owner.index, [])
        else:
            entry, entries = hook, self.node_prehooks.setdefault(owner.index, [])
        entries.append(entry)
        return NodeHookHandle(entry, entries)

    def node_hook_runner(self, index: int, entries: list[tuple[Any, Any]], node: ast.AST
                         ) -> Callable[[Any, tuple[Any, ...]], tuple[Any, ...]]:
        """A node's module backward hooks: each hook(module, grad_input, grad_output), grad_input what the node sends
        to its inputs in next_functions' order (None where one takes no gradient), a tuple it gives back taking
        their place."""
        graph = self.graph
        tape_node = graph.tape.nodes[index]
        slots = input_slots(graph.tape, index, node_name(graph, index))

        def as_tensor(value: Any, like: Any) -> Tensor:
            return Tensor(graph, np.asarray(value).astype(np.result_type(like)))

        def run(gradient: Any, cotangents: tuple[Any, ...]) -> tuple[Any, ...]:
            sent = list(cotangents)
            grad_input = tuple(as_tensor(sent[s], graph.values[tape_node.args[s]])
                               if tape_node.wants[s] and sent[s] is not None else None for s in slots)
            grad_output = (as_tensor(gradient, graph.values[index]),)
            for function, module in entries:
                given = self.call(function, [grad_input, grad_output] if module is _NODE_HOOK
                                  else [module, grad_input, grad_output], {}, node)
                if given is None:
                    continue
                if not isinstance(given, (tuple, list)) or len(given) != len(grad_input):
                    count = len(given) if isinstance(given, (tuple, list)) else 1
                    raise runtime_error(f"hook '{getattr(function, 'name', 'hook')}' has returned an incorrect number "
                                        f"of values (got {count}, but expected {len(grad_input)})")
                grad_input = tuple(given)
            for slot, item in zip(slots, grad_input, strict=True):
                sent[slot] = item.data if isinstance(item, Tensor) else None
            return tuple(sent)

        return run

    def hook_runner(self, handles: list[HookHandle], dtype: np.dtype, node: ast.AST,
                    prehooks: Sequence[Any] = ()) -> Callable[[Any], Any]:
        def run(gradient: Any) -> Any:
            values = np.asarray(gradient).astype(dtype)  # (the gradient a hook sees is in its tensor's dtype)
            values = run_tensor_hooks(values)
            for function in list(prehooks):
                given = self.call(function, [(Tensor(self.graph, values),)], {}, node)
                if given is None:
                    continue
                if not isinstance(given, (tuple, list)) or len(given) != 1 or not isinstance(given[0], Tensor):
                    raise self.refuse(node, "a grad_fn pre-hook that returns other than a tuple of one tensor is not "
                                            "supported", "a pre-hook returns None or (gradient,)")
                if given[0].data.shape != values.shape:
                    raise runtime_error(f"hook '{getattr(function, 'name', 'hook')}' has changed the size of value")
                values = given[0].data.astype(values.dtype)
            return values

        def run_tensor_hooks(values: Any) -> Any:
            for handle in list(handles):
                given = self.call(handle.function, [Tensor(self.graph, values)], {}, node)
                if given is None:
                    continue
                if not isinstance(given, Tensor):
                    raise self.refuse(node, f"a tensor hook that returns a {_type_name(given)} is not supported",
                                      "a hook returns None or a tensor")
                if given.data.shape != values.shape:
                    raise runtime_error(f"hook '{getattr(handle.function, 'name', 'hook')}' has changed the size of value")
                values = given.data.astype(values.dtype)
            return values

        return run

    def register_multi_grad_hook(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> NodeHookHandle:
        """torch.autograd.graph.register_multi_grad_hook(tensors, fn): fn(grads) once a backward has computed the
        gradients of those of the tensors it reaches, None for the others (mode="all", PyTorch's default)."""
        bound = python.bind_by_name("register_multi_grad_hook", ["tensors", "fn", "mode"], args, kwargs)
        tensors, hook = bound.get("tensors"), bound.get("fn")
        if bound.get("mode", "all") != "all":
            raise self.refuse(node, f"register_multi_grad_hook with mode={bound['mode']!r} is not supported",
                              "mode='all' (the default) is")
        if not isinstance(tensors, (tuple, list)) or not all(isinstance(t, Tensor) for t in tensors):
            raise self.refuse(node, "register_multi_grad_hook of other than a tuple or list of tensors is not supported")
        if not isinstance(hook, (UserFunction, Builtin)):
            raise self.refuse(node, "register_multi_grad_hook of anything but a function of the file is not supported")
        if not all(t.requires_grad for t in tensors):  # (PyTorch's own assert, finding no node for it)
            raise TorchError("AssertionError", "Expected gradient function to be set")
        span = self.span(node)
        entry = ([(t, t.as_node(span)) for t in tensors], hook)
        self.multi_hooks.append(entry)
        return NodeHookHandle(entry, self.multi_hooks)

    def run_multi_grad_hooks(self, reached: set[int], adjoints: Sequence[Any], inputs: list[Tensor] | None,
                             accumulate: bool, span: tuple[int, int], node: ast.AST) -> None:
        """Each multi-grad hook whose tensors this backward reaches, with the gradient of each tensor whose node the
        engine runs: a leaf's where it accumulates (every leaf, or those of inputs=), another's where it leads on to
        one of inputs=."""
        wanted = None if inputs is None else {t.as_node(span) for t in inputs}
        for tensors, hook in list(self.multi_hooks):
            grads: list[Any] = []
            for tensor, index in tensors:
                adjoint = adjoints[index] if index in reached else None
                if adjoint is not None and wanted is not None and (
                        index not in wanted if tensor.is_leaf else not wanted & reachable(self.graph.tape, [index])):
                    adjoint = None
                grads.append(None if adjoint is None else adjoint if isinstance(adjoint, Tensor)
                             else Tensor(self.graph, np.asarray(adjoint).astype(tensor.data.dtype)))
            if all(grad is None for grad in grads):
                continue
            if not accumulate:
                raise self.refuse(node, "register_multi_grad_hook with torch.autograd.grad is not supported",
                                  "call backward()")
            self.call(hook, [grads], {}, node)

    def run_post_accumulate_hooks(self, tensor: Tensor, create_graph: bool, node: ast.AST) -> None:
        """t.register_post_accumulate_grad_hook(fn): fn(t) once t.grad holds this backward's gradient, with grad
        mode as backward runs (off, unless create_graph), its result dropped."""
        handles = self.post_hooks.get(id(tensor))
        if not handles:
            return
        before, self.graph.grad_enabled = self.graph.grad_enabled, create_graph
        try:
            for handle in list(handles):
                self.call(handle.function, [tensor], {}, node)
        finally:
            self.graph.grad_enabled = before

    def leaves(self, reachable: set[int]) -> list[tuple[int, Tensor]]:
        """The leaves a backward reached, each with its node: a leaf changed in place under no_grad since
        (`w -= lr * w.grad`) is a new node from there on, and its graph before still reaches it by the old one."""
        leaves = self.graph.leaves
        return [(index, leaves[index]) for index in sorted(reachable) if index in leaves]

    def result_of(self, call: BackwardCall, trace: bool = False) -> Any:
        """A backward call as derivatives.GradResult, for the views of `gradcli grad`: the tape as it
        stood, every leaf it reached as an input."""
        from gradcli.derivatives import GradResult

        graph, tape = self.graph, self.graph.tape
        reached = reachable(graph.tape, call.roots)
        wrt = tuple(name for name, index in tape.inputs.items() if index in reached)
        steps: list[Any] | None = [] if trace else None
        adjoints = engine.backward(tape, graph.values, call.roots, call.seeds, steps, backend=PROMOTING) \
            if trace else call.adjoints
        names = tuple(tape.node_label(root) for root in call.roots)
        point = {name: graph.values[index] for name, index in tape.inputs.items()}
        return GradResult(tape, point, graph.values, adjoints, tuple(call.roots), names, tuple(call.seeds), wrt,
                          False, steps)

    def recorded_backward(self, roots: list[int], seeds: list[Tensor], node: ast.AST) -> Sequence[Any]:
        """create_graph=True: the backward sweep recorded on the tape, each adjoint a run tensor."""
        try:
            made = higher.backward(self.graph, roots, seeds, self.span(node))
        except higher.Unsupported as problem:
            through = "" if problem.op is None else f" through {problem.op.name} ({problem.op.torch_node})"
            raise self.refuse(node, f"create_graph=True{through} is not supported: its gradient is not made of "
                                    "ops gradcli can differentiate again",
                              "differentiate it once (without create_graph), or write the function with other "
                              "ops") from None
        adjoints: list[Any] = [None] * len(self.graph.tape.nodes)
        for index, tensor in made.items():
            adjoints[index] = tensor
        return adjoints

    def accumulate(self, tensor: Tensor, adjoint: Any, version: int = 0) -> None:
        """Add a backward's gradient into tensor.grad, as PyTorch's AccumulateGrad: a new grad is the engine's buffer
        (`version`: the writes in place it took, _grad_versions), an existing one takes it by += (one more version)."""
        if adjoint is None:
            return
        if isinstance(adjoint, Tensor):  # create_graph: the grad is in the graph, as PyTorch's AccumulateGrad keeps it
            span = (0, 0) if adjoint.node is None else self.graph.tape.nodes[adjoint.node].span
            if tensor.grad is None:
                tensor.grad = apply(self.graph, backwards.BY_NAME["grad_copy"], [adjoint], {}, span) if adjoint.requires_grad \
                    else Tensor(self.graph, np.array(adjoint.data))
            else:
                tensor.grad = apply(self.graph, OPS["add"], [tensor.grad, adjoint], {}, span)
            return
        value = np.asarray(adjoint)
        if value.shape != tensor.data.shape:
            value = np.broadcast_to(value, tensor.data.shape)
        value = value.astype(tensor.data.dtype)
        if tensor.grad is None:
            tensor.grad = Tensor(self.graph, np.array(value))
            tensor.grad.version[0] = version
        else:
            tensor.grad.data = np.asarray(tensor.grad.data + value)  # (a 0-d sum is a NumPy number, not an array)
            tensor.grad.version[0] += 1

    def name_inputs(self) -> None:
        """Every leaf that requires grad is an input of the tape, by its variable's name (made
        unique: a name assigned to a second leaf is `x#2`)."""
        tape = self.graph.tape
        # (only the leaves made since the last backward, found from the end, and each name's last number
        # kept: a loop makes new leaves every step, and a backward must not cost more as the file runs on)
        leaves = self.graph.leaves
        made = list(itertools.islice(reversed(leaves), len(leaves) - self.named_leaves))
        for index in reversed(made):
            node = tape.nodes[index]
            self.named_leaves += 1
            if node.kind != INPUT or index in self.input_nodes:
                continue
            name = node.name or f"leaf{node.index}"
            count = self.name_counts.get(name, 1)
            while (name if count == 1 else f"{name}#{count}") in tape.inputs:
                count += 1
            self.name_counts[name] = count
            node.name = name if count == 1 else f"{name}#{count}"
            tape.inputs[node.name] = node.index
            self.input_nodes.add(index)

    def autograd_backward(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
        names = ["tensors", "grad_tensors", "retain_graph", "create_graph", "grad_variables", "inputs"]
        bound = _python_bind("backward", names, args, kwargs)
        tensors = _as_list(bound.get("tensors"))
        grads = bound.get("grad_tensors")
        grads = [None] * len(tensors) if grads is None else _as_list(grads)
        inputs = bound.get("inputs")
        create = bool(bound.get("create_graph"))
        self.backward(tensors, grads, _retains(bound, create), None if inputs is None else _as_list(inputs),
                      "backward", node, create_graph=create)

    def autograd_grad(self, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> tuple[Any, ...]:
        names = ["outputs", "inputs", "grad_outputs", "retain_graph", "create_graph", "only_inputs", "allow_unused",
                 "is_grads_batched", "materialize_grads"]
        bound = _python_bind("grad", names, args, kwargs)
        create = bool(bound.get("create_graph"))
        outputs = _as_list(bound.get("outputs"))
        inputs = _as_list(bound.get("inputs"))
        grads = bound.get("grad_outputs")
        grads = [None] * len(outputs) if grads is None else _as_list(grads)
        for tensor in inputs:
            if not isinstance(tensor, Tensor) or not tensor.requires_grad:
                raise runtime_error("One of the differentiated Tensors does not require grad")
        span = self.span(node)
        input_nodes = [t.as_node(span) for t in inputs]
        reached = reachable(self.graph.tape, [o.as_node(span) for o in outputs if isinstance(o, Tensor)])
        earlier = {index: [i for i, leaf in self.graph.leaves.items() if leaf is tensor and i != index and i in reached]
                   for tensor, index in zip(inputs, input_nodes, strict=True)}  # a leaf changed in place under no_grad
        if create and any(earlier.values()):
            raise self.refuse(node, "autograd.grad(create_graph=True) of a leaf changed in place under no_grad after "
                                    "the graph used it is not supported")
        allow_unused = bound.get("allow_unused")
        materialize = bool(bound.get("materialize_grads"))
        if allow_unused is None:
            allow_unused = materialize
        for position, index in enumerate(input_nodes):
            if index not in reached and not earlier[index] and not allow_unused:
                raise runtime_error(f"The differentiated Tensor at index {position} appears to not have been used in "
                                    "the graph. Set allow_unused=True if this is the desired behavior.")
        adjoints = self.backward(outputs, grads, _retains(bound, create), None, "autograd.grad", node,
                                 accumulate=False, create_graph=create, targets=inputs)
        results: list[Any] = []
        for tensor, index in zip(inputs, input_nodes, strict=True):
            parts = [adjoints[i] for i in [index, *earlier[index]] if i in reached and adjoints[i] is not None]
            adjoint = parts[0] if len(parts) == 1 else sum(np.broadcast_to(np.asarray(part), tensor.data.shape)
                                                           for part in parts) if parts else None
            if adjoint is None:
                results.append(Tensor(self.graph, np.zeros_like(tensor.data)) if materialize else None)
            elif isinstance(adjoint, Tensor):  # create_graph: the gradient as recorded, in the graph
                results.append(adjoint)
                adjoint = adjoint.data
            else:
                value = np.broadcast_to(np.asarray(adjoint), tensor.data.shape).astype(tensor.data.dtype)
                results.append(Tensor(self.graph, np.array(value)))
                if len(parts) == 1:  # (the engine's buffer, as it took its gradients: _grad_versions)
                    results[-1].version[0] = _grad_versions(self.graph, reached, self.calls[-1].roots, (index,),
                                                            accumulated=False).get(index, 0)
            self.calls[-1].grads[tensor.name or f"leaf{index}"] = adjoint
        return tuple(results)


# --- the tensor methods that are not ops ----------------------------------------------------------


def _backward_method(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any],
                     node: ast.AST) -> None:
    bound = _python_bind("backward", ["gradient", "retain_graph", "create_graph", "inputs"], args, kwargs)
    inputs = bound.get("inputs")
    create = bool(bound.get("create_graph"))
    interpreter.backward([tensor], [bound.get("gradient")], _retains(bound, create),
                         None if inputs is None else _as_list(inputs), "backward", node, create_graph=create)


def _retains(bound: dict[str, Any], create_graph: bool) -> bool:
    """retain_graph: as given, else create_graph's (PyTorch's default)."""
    retain = bound.get("retain_graph")
    return create_graph if retain is None else bool(retain)


def _item(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    if tensor.data.size != 1:
        raise runtime_error(f"a Tensor with {tensor.data.size} elements cannot be converted to Scalar")
    return tensor.data.reshape(()).item()


def _zero(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
    python.bind_by_name("zero_", [], args, kwargs)
    if _records(interpreter, tensor):
        return interpreter.write_in_place(tensor, "zero", [], node)  # ZeroBackward0
    interpreter.overwrite(tensor, np.zeros_like(tensor.data), fills=True)
    return tensor


def _records(interpreter: Interpreter, tensor: Tensor, *others: Any) -> bool:
    """Is a write into `tensor` of these values recorded (a graph in it or in them)? A leaf that requires grad
    cannot be written: PyTorch's error."""
    if not interpreter.graph.grad_enabled:
        return False
    if tensor.requires_grad and tensor.is_leaf:
        raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
    return tensor.requires_grad or any(isinstance(other, Tensor) and other.requires_grad for other in others)


# torch.X_(t, ...): t.X_(...), the in-place functions PyTorch 2.13 has of the methods gradcli has
_IN_PLACE_FUNCTIONS = frozenset({*(f"torch.{name}_" for name in (
    "abs acos acosh arccos arccosh arcsin arcsinh arctan arctanh asin asinh atan atanh ceil clamp clamp_max clamp_min "
    "clip cos cosh deg2rad erf erfc exp exp2 expm1 floor frac i0 ldexp log log10 log1p log2 logit nan_to_num neg "
    "negative rad2deg reciprocal relu round rsqrt sigmoid sin sinc sinh sqrt square tan tanh trunc xlogy").split()),
    "torch.nn.functional.relu_", *(f"torch.{name}_" for name in ("celu", "selu", "threshold")),
    *(f"torch.nn.functional.{name}_" for name in ("elu", "leaky_relu", "celu", "selu", "threshold", "hardtanh"))})
# the methods that change a tensor's shape in place (Interpreter.reshape_in_place)
_RESHAPES_IN_PLACE = frozenset({"t_", "transpose_", "swapdims_", "swapaxes_", "unsqueeze_", "squeeze_"})
# the rows whose parts are views of their first arg, and the name PyTorch's error gives their node where it will not
# let a recorded write go into one (their grad_fn is one node for all of them; "": slices, each a view of its own)
_SPLITS = {"split": "Split", "chunk": "Split", "split_with_sizes": "SplitWithSizes", "unbind": "Unbind",
           "tensor_split": "", "hsplit": "", "vsplit": "", "dsplit": ""}
_TENSOR_TYPES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
                 "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
                 "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _part_of(op: Op, others: list[Any], params: dict[str, Any], values: np.ndarray) -> Any:
    """A part of split, chunk, unbind ... of these values: NumPy's view of them."""
    return call_forward(op, [values, *others], params, [0] * (1 + len(others)))


# nodes of rows gradcli does not call linear whose PyTorch node saves nothing (their gradient is zero or g itself)
_SAVES_NONE = frozenset({"SignBackward0", "FloorBackward0", "CeilBackward0", "RoundBackward0", "RoundBackward1",
                         "TruncBackward0", "FracBackward0"})


def _saves_tensors(graph: Graph, index: int) -> bool:
    """Did PyTorch's node save a tensor for its backward, which a backward without retain_graph frees? A node that
    saves none (SumBackward0, SelectBackward0, SignBackward0) runs again: a second backward through such a graph
    answers (x * 3 saves the 3 as a tensor: not so)."""
    op = graph.tape.nodes[index].op
    return not getattr(op, "linear", True) and node_name(graph, index) not in _SAVES_NONE


def _needed(wants: tuple[bool, ...], needers: tuple[int, ...]) -> bool:
    """Did PyTorch's node save the tensor: does a gradient flow into one of the args whose gradient needs it?"""
    return any(j < len(wants) and wants[j] for j in needers)


_C_TYPE = {"float16": "at::Half", "float32": "float", "float64": "double"}
_CLAMPS = frozenset({"clamp_", "clamp_min_", "clamp_max_", "clip_"})
_C_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool"}  # (the C++ type names that clamp_'s Python-number bounds give its dtype error)
_COMPARED_IN_PLACE = {"lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "eq": "eq", "ne": "ne", "less": "lt",
                      "less_equal": "le", "greater": "gt", "greater_equal": "ge", "not_equal": "ne"}


def _not_one_of_several(tensor: Tensor) -> None:
    """PyTorch's refusal of a recorded write into a part of split, chunk or unbind."""
    if tensor.one_of is not None:
        label, part, made_with_grad = tensor.one_of
        said = (f"Output {part} of {label} is a view and is being modified inplace." if made_with_grad
                else "A view was created in no_grad mode and is being modified inplace with grad mode enabled.")
        raise runtime_error(f"{said} This view is the output of a function that returns multiple views. Such functions "
                            f"do not allow the output views to be modified inplace. You should replace the inplace "
                            f"operation by an out-of-place one.")


def _writable(interpreter: Interpreter, tensor: Tensor, method: str, node: ast.AST) -> None:
    """What PyTorch says of an in-place method on a leaf that requires grad; on a tensor with a
    graph, gradcli's refusal (the in-place node is not recorded)."""
    if interpreter.graph.grad_enabled and tensor.requires_grad:
        if tensor.is_leaf:
            raise runtime_error("a leaf Variable that requires grad is being used in an in-place operation.")
        raise interpreter.refuse(node, f"t.{method}(...) on a tensor with a graph is not supported")


def _copy(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
    """t.copy_(src): src's values broadcast into t, cast to t's dtype (a Python number as a 0-d tensor, as PyTorch
    wraps it)."""
    bound = python.bind_by_name("copy_", ["src", "non_blocking"], args, kwargs)
    source = bound.get("src")
    if isinstance(source, (bool, int, float)):
        source = Tensor(interpreter.graph, np.asarray(source))
    if not isinstance(source, Tensor):
        raise TorchError("TypeError", f"copy_(): argument 'src' (position 1) must be Tensor, not {_type_name(source)}")
    recorded = _records(interpreter, tensor, source)
    try:
        values = np.broadcast_to(source.data, tensor.data.shape)
    except ValueError:
        raise runtime_error(f"The size of tensor a ({tensor.data.shape[-1] if tensor.data.ndim else 1}) must match the "
                            f"size of tensor b ({source.data.shape[-1] if source.data.ndim else 1}) at non-singleton "
                            f"dimension {tensor.data.ndim - 1}") from None
    if recorded:
        return interpreter.write_in_place(tensor, "copy_from", [source], node)  # CopyBackwards
    with np.errstate(all="ignore"):
        interpreter.overwrite(tensor, values.astype(tensor.data.dtype))
    return tensor


def _fill(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
    """t.fill_(value): every element the value, in t's dtype."""
    value = python.bind_by_name("fill_", ["value"], args, kwargs).get("value")
    if isinstance(value, Tensor):
        if value.data.ndim:
            raise runtime_error(f"fill_ only supports 0-dimension value tensor but got tensor with "
                                f"{value.data.ndim} dimensions.")
    elif not isinstance(value, (int, float, bool)):
        raise TorchError("TypeError", f"fill_(): argument 'value' (position 1) must be Number, not {_type_name(value)}")
    if _records(interpreter, tensor, value):
        return interpreter.write_in_place(tensor, "fill", [value], node)  # FillBackward2, a tensor's FillBackward3
    if isinstance(value, Tensor):
        value = value.data.item()
    with np.errstate(all="ignore"):
        interpreter.overwrite(tensor, np.full(tensor.data.shape, value, dtype=tensor.data.dtype), fills=True)
    return tensor


def _drawn_in_place(name: str, names: list[str], defaults: tuple[float, float]) -> Callable[..., Tensor]:
    """t.normal_(mean, std) and t.uniform_(from, to): t's values drawn from torch's generator, as
    nn.init draws them (the same kernels)."""

    def draw(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
        if kwargs.get("generator") is not None:
            raise interpreter.refuse(node, f"t.{name}(..., generator=...) is not supported")
        bound = python.bind_by_name(name, names, args, {k: v for k, v in kwargs.items() if k != "generator"})
        low, high = (float(bound.get(key, default)) for key, default in zip(names, defaults))
        if tensor.data.dtype.kind != "f":
            raise interpreter.refuse(node, f"t.{name}(...) of a {tensor.data.dtype.name} tensor is not supported")
        _writable(interpreter, tensor, name, node)
        values = np.empty_like(tensor.data)
        if name == "normal_":
            if high < 0:
                raise runtime_error(f"normal expects std >= 0.0, but found std {high:g}")
            interpreter.generator.normal_(values, low, high)
        else:
            if low > high:
                raise runtime_error(f"uniform_ expects to return a [from, to) range, but found from={low:g} > to={high:g}")
            interpreter.generator.uniform_(values, low, high)
        interpreter.overwrite(tensor, values)
        return tensor

    return draw


def _random_(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST
             ) -> Tensor:
    """t.random_(to), t.random_(from, to), t.random_(): integers drawn from torch's generator into t, as PyTorch's
    random_ kernels draw them (a word modulo the range; without bounds, every integer t's dtype holds exactly)."""
    if kwargs.get("generator") is not None:
        raise interpreter.refuse(node, "t.random_(..., generator=...) is not supported")
    bound = python.bind_by_name("random_", ["from", "to"], args, {k: v for k, v in kwargs.items() if k != "generator"})
    dtype = tensor.data.dtype
    if dtype.kind not in "fi" or dtype.itemsize < 4:
        raise interpreter.refuse(node, f"t.random_(...) of a {dtype.name} tensor is not supported")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in bound.values()):
        raise interpreter.refuse(node, "t.random_(...) takes integer bounds here")
    _writable(interpreter, tensor, "random_", node)
    values = np.empty_like(tensor.data)
    if bound:
        low, high = (0, bound["from"]) if "to" not in bound else (bound["from"], bound["to"])
        if low >= high:
            raise runtime_error(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        least, most = (-2 ** (np.finfo(dtype).nmant + 1), 2 ** (np.finfo(dtype).nmant + 1)) if dtype.kind == "f" else (
            int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
        if not (least <= low and high - 1 <= most):
            raise interpreter.refuse(node, f"t.random_({low}, {high}) past the integers a {dtype.name} tensor holds "
                                           "exactly is not supported")
        interpreter.generator.random_(values, low, high)
    else:  # (PyTorch's uniform_int: a 64-bit draw for float64 and int64, else a 32-bit one)
        wide = dtype in (np.dtype(np.float64), np.dtype(np.int64))
        span = 2 ** (np.finfo(dtype).nmant + 1) + 1 if dtype.kind == "f" else int(np.iinfo(dtype).max) + 1
        draws = interpreter.generator.words64(values.size) if wide else interpreter.generator.words(values.size)
        values[...] = (draws % np.uint64(span)).astype(dtype).reshape(values.shape)
    interpreter.overwrite(tensor, values)
    return tensor


def _new(kind: str) -> Callable[..., Any]:
    """t.new_tensor / new_zeros / new_ones / new_full: the constructor, in t's dtype unless given."""

    def make(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if kind == "empty":
            raise interpreter.refuse(node, "t.new_empty: an uninitialized tensor is not supported",
                                     "t.new_zeros(...) gives the values")
        given = {"dtype": dtype_of(tensor.data.dtype), **kwargs}
        if kind == "tensor" and args and isinstance(args[0], Tensor):
            args = [Tensor(interpreter.graph, args[0].data.copy()), *args[1:]]  # (a copy, outside the graph)
        return interpreter.construct(kind, list(args), given, node)

    return make


def _type(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """t.type(): 'torch.FloatTensor'; t.type(torch.DoubleTensor) or 'torch.DoubleTensor': t.to(that dtype)."""
    if not args and not kwargs:
        return f"torch.{torch_dtype_name(tensor.data.dtype)}Tensor"
    given = args[0] if args else kwargs.get("dtype")
    legacy = given.name if isinstance(given, Function) and given.module == "torch" else (
        given[len("torch."):] if isinstance(given, str) and given.startswith("torch.") else None)
    if legacy in _LEGACY:
        return _to(interpreter, tensor, [dtype_of(_LEGACY[legacy])], {}, node)
    return interpreter.call_op(".type", [tensor, *args], kwargs, node)


def _requires_grad_(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any],
                    node: ast.AST) -> Tensor:
    flag = args[0] if args else kwargs.get("requires_grad", True)
    return interpreter.set_requires_grad(tensor, bool(flag))


def _register_hook(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any],
                   node: ast.AST) -> HookHandle:
    """t.register_hook(fn): fn(grad) runs when t's gradient is whole in a backward (a leaf's before it
    accumulates into .grad); what it returns, if not None, is the gradient from then on."""
    hook = python.bind_by_name("register_hook", ["hook"], args, kwargs).get("hook")
    if not tensor.requires_grad:
        raise runtime_error("cannot register a hook on a tensor that doesn't require gradient")
    if not isinstance(hook, (UserFunction, Builtin)):
        raise interpreter.refuse(node, "register_hook of anything but a function of the file is not supported")
    if not tensor.is_leaf:
        interpreter.hooked[tensor.as_node(interpreter.span(node))] = tensor
    handles = interpreter.hooks.setdefault(id(tensor), [])
    handle = HookHandle(hook, handles)
    handles.append(handle)
    return handle


def _register_post_accumulate_grad_hook(interpreter: Interpreter, tensor: Tensor, args: list[Any],
                                        kwargs: dict[str, Any], node: ast.AST) -> HookHandle:
    """t.register_post_accumulate_grad_hook(fn): fn(t) after a backward has accumulated into t.grad (a leaf's)."""
    hook = python.bind_by_name("register_post_accumulate_grad_hook", ["hook"], args, kwargs).get("hook")
    if not tensor.requires_grad:
        raise runtime_error("cannot register a hook on a tensor that doesn't require gradient")
    if not tensor.is_leaf:
        raise runtime_error("post accumulate grad hooks cannot be registered on non-leaf tensors")
    if not isinstance(hook, (UserFunction, Builtin)):
        raise interpreter.refuse(node, "register_post_accumulate_grad_hook of anything but a function of the file is "
                                       "not supported")
    handles = interpreter.post_hooks.setdefault(id(tensor), [])
    handle = HookHandle(hook, handles)
    handles.append(handle)
    return handle


def _retain_grad(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any],
                 node: ast.AST) -> None:
    if not tensor.requires_grad:
        raise runtime_error("can't retain_grad on Tensor that has requires_grad=False")
    if not tensor.is_leaf:
        tensor.retains_grad = True
        interpreter.retained[tensor.as_node(interpreter.span(node))] = tensor


def _cuda(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """t.cuda(device=None, non_blocking=False): PyTorch's CPU build has no CUDA (its errors)."""
    bound = python.bind_by_name("cuda", ["device", "non_blocking", "memory_format"], args, kwargs)
    device = bound.get("device")
    interpreter.on_cpu("cuda" if device is None else device, node, cuda_call=True)
    return tensor


def _to(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """t.to(device), t.to('cpu'), t.cpu(): the tensor itself (gradcli computes on the CPU); t.to(dtype): the op."""
    interpreter.check_devices(args, kwargs, node)
    kwargs.pop("device", None)
    rest = [a for a in args if not isinstance(a, (Device, str))]
    if not rest and not kwargs:
        return tensor
    return interpreter.call_op(".to", [tensor, *rest], kwargs, node)


def _numpy(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """t.numpy(): the tensor's own array, shared from then on (an in-place change shows in both); of a tensor that
    requires grad only with grad mode off, as PyTorch checks (a custom Function's forward, `with torch.no_grad()`)."""
    if tensor.requires_grad and interpreter.graph.grad_enabled:
        raise runtime_error("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    interpreter.shared[id(tensor.data)] = tensor.data
    return tensor.data


def _in_place_method(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST,
                     symbol: str) -> Tensor:
    if symbol == "/" and len(args) == 1 and set(kwargs) == {"rounding_mode"}:  # t.div_(v, rounding_mode='floor')
        return interpreter.in_place_op(tensor, "div_", args, kwargs, node)
    if len(args) != 1 or kwargs:
        raise interpreter.refuse(node, "an in-place method takes one value here", "t.add_(v) or t.add_(v, alpha=a)")
    return interpreter.in_place(tensor, symbol, args[0], node)


def _laid_out(tensor: Tensor) -> tuple[np.ndarray, np.ndarray]:
    """(a stand-in array of the tensor's base's shape, the tensor's view of it): the strides PyTorch's
    tensor has, as the chain of views from its base lays them out (NumPy's views keep them alike)."""
    chain = []
    while tensor.view_of is not None:
        tensor, step = tensor.view_of
        chain.append(step)
    stand_in = np.zeros(tensor.data.shape, dtype=np.int8)
    values = stand_in
    for step in reversed(chain):
        values = step(values)
    return stand_in, values


# PyTorch's nodes whose backward hands on the gradient it got (or a view of it) rather than a new tensor, and the
# ones that hand on an expanded one (stride 0): the engine adds a later gradient into neither in place
_HANDS_ON = frozenset({"AddBackward0", "CloneBackward0", "ViewBackward0", "UnsafeViewBackward0", "SqueezeBackward0",
                       "SqueezeBackward1", "UnsqueezeBackward0", "PermuteBackward0", "TransposeBackward0", "TBackward0",
                       "ExpandBackward0", "AliasBackward0"})
_EXPANDS = frozenset({"SumBackward0", "SumBackward1"})
# (a view of the gradient keeps the tensor it views alive: its storage is not the buffer's own, no add in place)
_VIEWS = frozenset({"ViewBackward0", "UnsafeViewBackward0", "SqueezeBackward0", "SqueezeBackward1", "UnsqueezeBackward0",
                    "PermuteBackward0", "TransposeBackward0", "TBackward0", "AliasBackward0", "CatBackward0",
                    "StackBackward0"})  # (cat's and stack's: narrowed and unbound views of their gradient)
_BROADCASTS = frozenset({"AddBackward0", "SubBackward0", "ExpandBackward0"})  # (an arg of another shape: a new sum)


def _grad_versions(graph: Graph, reached: set[int], roots: Sequence[int], wanted: Collection[int] | None = None,
                   accumulated: bool = True) -> dict[int, int]:
    """The version each leaf's new .grad has after a backward (or, not `accumulated`, each `wanted` node's gradient
    that torch.autograd.grad returns), as PyTorch's engine makes it: a node's gradients arrive in its input buffer
    from the nodes made last first; the buffer adds each later one in place (a version more) where the one it holds
    is a dense tensor of its own (a new one: a product's, a mean's), else out of place (a new tensor: an expanded
    sum's gradient, or one an add hands on to both its args); AccumulateGrad keeps that buffer, or copies an
    expanded one into a new tensor (copy_: version 1)."""
    wanted = graph.leaves if wanted is None else wanted
    nodes = graph.tape.nodes
    dense: dict[int, bool] = {}  # does the gradient a node gets arrive as a dense tensor of its own?
    into: dict[int, list[tuple[int, int]]] = {}  # node -> (the node it came from, its place there), made last first
    for index in sorted(reached, reverse=True):
        node = nodes[index]
        if node.kind != APPLY:
            continue
        for place, arg in enumerate(node.args):
            if arg in reached:
                into.setdefault(arg, []).append((index, place))
    versions: dict[int, int] = {}
    for index in sorted(reached, reverse=True):
        edges = into.get(index, [])
        if index in roots or len(edges) != 1:
            dense[index] = True  # (a seed, or a sum made out of place or in place of a new tensor)
        else:
            dense[index] = _dense_edge(graph, dense, *edges[0])
        if index in wanted and edges:
            if len(edges) == 1:
                versions[index] = 0 if not accumulated or (dense[index] and not _shared_first(
                    graph, reached, *edges[0])) else 1
            else:
                held = edges[0]  # (the first to arrive: the buffer a later one is added into)
                versions[index] = len(edges) - (1 if _dense_edge(graph, dense, *held) and node_name(
                    graph, held[0]) not in _VIEWS and not _shared(graph, *held, into[index]) else 2)
    return versions


def _dense_edge(graph: Graph, dense: dict[int, bool], source: int, place: int) -> bool:
    """Is the gradient `source`'s node sends to its arg at `place` a dense tensor of its own?"""
    name = node_name(graph, source)
    if name in _EXPANDS:
        return False
    arg = graph.tape.nodes[source].args[place]
    reduced = name in _BROADCASTS and np.shape(graph.values[arg]) != np.shape(graph.values[source])  # (sum_to: new)
    if name in _HANDS_ON or (name == "SubBackward0" and place == 0):
        return dense.get(source, True) or reduced
    return True


def _shared(graph: Graph, source: int, place: int, edges: list[tuple[int, int]]) -> bool:
    """Does an add hand one gradient to two of its args that are both this node (w + w)?"""
    return node_name(graph, source) == "AddBackward0" and sum(1 for edge in edges if edge[0] == source) > 1


def _shared_first(graph: Graph, reached: set[int], source: int, place: int) -> bool:
    """An add hands the one gradient to both its args: the first leaf's AccumulateGrad runs while the other still
    holds it, and copies it (a later leaf's finds it its own)."""
    node = graph.tape.nodes[source]
    if node_name(graph, source) != "AddBackward0" or len(node.args) < 2 or any(
            np.shape(graph.values[arg]) != np.shape(graph.values[source]) for arg in node.args):
        return False
    others = [arg for other, arg in enumerate(node.args) if other != place and arg in reached]
    return bool(others) and (others[0] not in graph.leaves or place == 0)


def _no_internal_overlap(tensor: Tensor, key: tuple[Any, ...] = (Ellipsis,)) -> None:
    """PyTorch refuses a write into elements of a tensor that share one memory location (an expanded view's, written
    whole or by a key that reaches two of them): before it writes anything."""
    if tensor.view_of is None or tensor.data.size < 2:
        return
    _, positions = tensor.in_root()
    try:
        region = np.asarray(indexing.torch_getitem(positions, key))
    except (IndexError, ValueError, TypeError):
        return  # (the write's own check says what is wrong with the key)
    if np.unique(region).size < region.size:
        raise runtime_error("unsupported operation: more than one element of the written-to tensor refers to a single "
                            "memory location. Please clone() the tensor before performing the operation.")


_OUT_OF_BOUNDS = re.compile(r"^(index -?\d+ is out of bounds for dimension )(\d+)( with size \d+)$")


def _advanced_dimension(said: str, items: Sequence[Any], ndim: int) -> str:
    """PyTorch's words for an index out of range: an advanced index's (a list, a tensor of indices) dimension is its
    place among the advanced indices (x[:, [5]]: "dimension 0"), as its index kernel counts them; an int's is its
    place in the key as written (applySlicing's real_dim: x[:, 5] and x[None, 5] "dimension 1", x[..., 9] of three
    dims "dimension 1")."""
    found = _OUT_OF_BOUNDS.match(said)
    if found is None:
        return said
    axis, advanced = 0, 0
    takes = [0 if item is None or isinstance(item, bool) or item is Ellipsis
             else item.data.ndim if isinstance(item, Tensor) and item.data.dtype == BOOL else 1 for item in items]
    for place, (item, count) in enumerate(zip(items, takes)):
        if item is Ellipsis:
            axis += ndim - sum(takes)
            continue
        is_advanced = isinstance(item, list) or (isinstance(item, Tensor) and item.data.ndim > 0)
        if is_advanced and axis <= int(found.group(2)) < axis + count:
            return f"{found.group(1)}{advanced + int(found.group(2)) - axis}{found.group(3)}"
        selects = (isinstance(item, int) and not isinstance(item, bool)) or (
            isinstance(item, Tensor) and item.data.ndim == 0 and item.data.dtype.kind in "iu")
        if selects and axis == int(found.group(2)):
            return f"{found.group(1)}{place}{found.group(3)}"
        axis += count
        advanced += count if is_advanced else 0
    return said


def _strided_view(tensor: Tensor, path: Callable[[np.ndarray], np.ndarray]) -> bool:
    """Is `path` of this tensor a view in PyTorch, as its strides allow (a transposed tensor reshaped is
    a copy)? NumPy's reshape decides by the same rule."""
    if tensor.data.size <= 1:  # (PyTorch's strides of no element, or of one, fit every shape: a view)
        return True
    stand_in, values = _laid_out(tensor)
    return bool(np.shares_memory(path(values), stand_in))


def _storage_of_its_own(tensor: Tensor) -> Tensor | None:
    """The tensor whose storage this one reads as its own (itself, or what x.detach() was taken of), else None."""
    while tensor.view_of is not None and tensor.detached:
        tensor = tensor.view_of[0]
    return tensor if tensor.view_of is None else None


def _contiguous(tensor: Tensor) -> bool:
    return tensor.view_of is None or bool(_laid_out(tensor)[1].flags.c_contiguous)


def _detach(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Tensor:
    detached = Tensor(interpreter.graph, tensor.data)
    detached.detached = True  # (the same storage and version counter, but no view of it for autograd)
    return tensor.viewed_as(detached, lambda values: values)


def _detach_(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any],
             node: ast.AST) -> Tensor:
    """t.detach_(): t itself, out of the graph from here on (a leaf that does not require grad); never a view."""
    _python_bind("detach_", [], args, kwargs)
    if tensor.view_of is not None and not tensor.detached:
        raise runtime_error("Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                            "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                            "buckets, and hence detach_() cannot be called on these gradients. To fix this error, "
                            "please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                            "solution.")
    tensor.node = None  # (a constant of its values when next used)
    tensor.requires_grad = False  # (retains_grad and its grad stay, as PyTorch keeps them)
    return tensor


def _size(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    shape = Size(tensor.data.shape)
    dim = args[0] if args else kwargs.get("dim")
    if dim is None:
        return shape
    if not -len(shape) <= dim < max(len(shape), 1):
        raise TorchError("IndexError", f"Dimension out of range (expected to be in range of [{-max(len(shape), 1)}, "
                                       f"{max(len(shape), 1) - 1}], but got {dim})")
    return shape[dim] if shape else 1


def _logic(test: Callable[..., Any]) -> Callable[..., Tensor]:
    """x.all(), x.any(dim): a boolean tensor, no grad_fn (PyTorch records none)."""

    def reduce(interpreter: Interpreter, tensor: Tensor, args: list[Any], kwargs: dict[str, Any],
               node: ast.AST) -> Tensor:
        bound = _python_bind(test.__name__, ["dim", "keepdim"], args, kwargs)
        dim = bound.get("dim")
        if dim is not None and not -max(tensor.data.ndim, 1) <= int(dim) < max(tensor.data.ndim, 1):
            raise TorchError("IndexError", f"Dimension out of range (expected to be in range of "
                                           f"[{-max(tensor.data.ndim, 1)}, {max(tensor.data.ndim, 1) - 1}], but got {dim})")
        axis = None if dim is None or not tensor.data.ndim else int(dim)
        return Tensor(interpreter.graph, np.asarray(test(tensor.data, axis=axis, keepdims=bool(bound.get("keepdim")))))

    return reduce


_TENSOR_METHODS: dict[str, Callable[..., Any]] = {
    "backward": _backward_method,
    "item": _item,
    "tolist": lambda i, t, a, k, n: t.data.tolist(),
    "zero_": _zero,
    "fill_": _fill,
    "new_tensor": _new("tensor"),
    "new_zeros": _new("zeros"),
    "new_ones": _new("ones"),
    "new_full": _new("full"),
    "new_empty": _new("empty"),
    "type": _type,
    "isclose": lambda i, t, a, k, n: i.closeness("isclose", [t, *a], k, n),
    "allclose": lambda i, t, a, k, n: i.closeness("allclose", [t, *a], k, n),
    "equal": lambda i, t, a, k, n: i.closeness("equal", [t, *a], k, n),
    "copy_": _copy,
    "normal_": _drawn_in_place("normal_", ["mean", "std"], (0.0, 1.0)),
    "uniform_": _drawn_in_place("uniform_", ["from", "to"], (0.0, 1.0)),
    "random_": _random_,
    "multinomial": lambda i, t, a, k, n: i.multinomial([t, *a], k, n),
    "requires_grad_": _requires_grad_,
    "retain_grad": _retain_grad,
    "register_hook": _register_hook,
    "register_post_accumulate_grad_hook": _register_post_accumulate_grad_hook,
    "detach": _detach,
    "detach_": _detach_,
    "is_inference": lambda i, t, a, k, n: t.inference,
    "to": _to,
    "cpu": lambda i, t, a, k, n: t,
    "cuda": lambda i, t, a, k, n: _cuda(i, t, a, k, n),
    "size": _size,
    "dim": lambda i, t, a, k, n: t.data.ndim,
    "numel": lambda i, t, a, k, n: int(t.data.size),
    "numpy": _numpy,
    "add_": lambda i, t, a, k, n: _in_place_method(i, t, a, k, n, "+"),
    "sub_": lambda i, t, a, k, n: _in_place_method(i, t, a, k, n, "-"),
    "mul_": lambda i, t, a, k, n: _in_place_method(i, t, a, k, n, "*"),
    "div_": lambda i, t, a, k, n: _in_place_method(i, t, a, k, n, "/"),
    "all": _logic(np.all),
    "any": _logic(np.any),
}


# --- small pieces -----------------------------------------------------------------------------------

# A %-conversion's width and precision (either may be `*`: taken from the values)
_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_SYMBOLS: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**",
                             ast.MatMult: "@", ast.Mod: "%", ast.FloorDiv: "//", ast.BitAnd: "&", ast.BitOr: "|",
                             ast.BitXor: "^"}
_COMPARISONS: dict[type, Any] = {ast.Eq: np.equal, ast.NotEq: np.not_equal, ast.Lt: np.less, ast.LtE: np.less_equal,
                                 ast.Gt: np.greater, ast.GtE: np.greater_equal}
_PYTHON_COMPARISONS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_SIGNS: dict[type, str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
_PYTHON_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "**": lambda a, b: a**b, "%": lambda a, b: a % b, "//": lambda a, b: a // b,
    "&": operator.and_, "|": operator.or_, "^": operator.xor}  # (of two floats: Python's TypeError)


# math's functions of numbers that are not rows of the table (math.exp, math.sqrt ... are): each cheap
# for any number a file can hold (math.factorial is bounded in _math)
_MATH_NUMBERS = frozenset({"isnan", "isinf", "isfinite", "isclose", "floor", "ceil", "trunc", "copysign", "hypot",
                           "degrees", "radians", "fmod", "gcd", "factorial", "modf", "frexp", "ldexp", "gamma",
                           "lgamma", "erf", "erfc", "isqrt", "expm1", "log1p", "log2", "log10"})
_MAX_FACTORIAL = 5_000


def _math(name: str, args: list[Any]) -> Any:
    if name == "factorial" and args and isinstance(args[0], int) and args[0] > _MAX_FACTORIAL:
        raise LimitProblem(f"math.factorial({args[0]}) is past what gradcli's run computes (the limit is "
                           f"math.factorial({_MAX_FACTORIAL}))")
    try:
        return getattr(math, name)(*args)
    except (ValueError, OverflowError, TypeError) as problem:
        raise TorchError(type(problem).__name__, str(problem)) from None


def _flatten(data: Any, node: ast.AST, interpreter: Interpreter) -> Any:
    """Nested lists of numbers (tensors of one element taken as their numbers), as np.array takes them."""
    if isinstance(data, (list, tuple)):
        return [_flatten(item, node, interpreter) for item in data]
    if isinstance(data, Tensor):
        return data.scalar()  # (PyTorch reads a tensor inside the list as its one number)
    if isinstance(data, (int, float, bool)):
        return data
    raise TorchError("TypeError", f"could not infer a dtype for {_type_name(data)}")


_SIGNATURE_TAIL = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
                   "bool pin_memory = False, bool requires_grad = False)")
_SIZE_SIGNATURES = {  # torch's random constructors of a size, their signatures as PyTorch's parser lists them
    **{name: [f"(tuple of ints size, *, torch.Generator generator, Tensor out = None, {_SIGNATURE_TAIL}",
              f"(tuple of ints size, *, Tensor out = None, {_SIGNATURE_TAIL}"] for name in ("rand", "randn")},
    "randint": [f"({bounds}, tuple of ints size, *, {generator}Tensor out = None, {_SIGNATURE_TAIL}"
                for bounds in ("int high", "int low, int high") for generator in ("torch.Generator generator, ", "")]}
_LINSPACE = [f"({start} start, {end} end, int steps, *, Tensor out = None, {_SIGNATURE_TAIL}"
             for start, end in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"), ("Number", "Number"))]
_EYE = [f"(int n, *, Tensor out = None, {_SIGNATURE_TAIL}", f"(int n, int m, *, Tensor out = None, {_SIGNATURE_TAIL}"]
_ARANGE = [f"(Number end, *, Tensor out = None, {_SIGNATURE_TAIL}", f"(Number start, Number end, *, {_SIGNATURE_TAIL}",
           f"(Number start, Number end, Number step = 1, *, Tensor out = None, {_SIGNATURE_TAIL}"]


def _invalid_combination(function: str, args: list[Any], kwargs: dict[str, Any], signatures: list[str]) -> str:
    """PyTorch's TypeError for a call that matches none of a function's signatures (keywords sorted, as
    PyTorch lists them)."""
    got = ", ".join(_type_name(a) for a in args)
    if kwargs:
        named = ", ".join(f"{k}={_type_name(v)}" for k, v in sorted(kwargs.items()))
        got = (got + ", " if got else "") + named + (", " if len(kwargs) > 1 else "")  # (PyTorch's spacing)
    return (f"{function}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
            + "".join(f" * {signature}\n" for signature in signatures))


def _options(dtype: np.dtype) -> str:
    """A legacy constructor's TensorOptions, as PyTorch's type error prints them."""
    return (f"TensorOptions(dtype={kernel_dtype_name(dtype)}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


# np.<name> of a tensor that falls back to the tensor's array (the tensor's method refuses NumPy's keywords), its
# result wrapped back as a tensor; and the ones that take the tensors as arrays and give NumPy's results
_NUMPY_WRAPS = frozenset({"argmax", "argmin", "argsort", "clip", "cumprod", "cumsum", "reshape", "round", "transpose"})
_NUMPY_CONVERTS = frozenset({"allclose", "array", "asarray", "concatenate", "copy", "count_nonzero", "dot", "expand_dims",
                             "full_like", "hstack", "inner", "isclose", "median", "ones_like", "outer", "ravel", "sort",
                             "stack", "trace", "vstack", "where", "zeros_like"})


# the modules the file's names are Python's own here: a name they do not have is their AttributeError, as Python raises
# it (np.logsumexp, which the formula language reads as logsumexp)
_REAL_MODULES = {"numpy": np, "numpy.linalg": np.linalg, "math": math}


def _holds_tensor(value: Any) -> bool:
    return isinstance(value, Tensor) or (isinstance(value, (list, tuple)) and any(_holds_tensor(v) for v in value))


def _python_types(args: list[Any], kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """A NumPy call's args with the run's int, float and bool as Python's types, which NumPy takes as dtypes
    (`(a == b).astype(int)`, `np.zeros(3, dtype=float)`)."""
    def typed(value: Any) -> Any:
        return _NUMPY_PYTHON_TYPES.get(value.name, value) if isinstance(value, Builtin) else value

    return [typed(a) for a in args], {key: typed(value) for key, value in kwargs.items()}


_NUMPY_PYTHON_TYPES: dict[str, type] = {"int": int, "float": float, "bool": bool}


def _index_problem(rank: int, key: Any) -> str | None:
    """PyTorch's IndexError for a key with more indices than the tensor has dimensions, checked as its
    indexing does before any index is read: one int or slice into a 0-dim tensor in its own words
    (`loss.data[0]`, old tutorials' `.item()`), otherwise the count of what each item takes (a mask its
    dimensions, None and ... none)."""
    if not isinstance(key, tuple):
        if rank == 0 and isinstance(key, int) and not isinstance(key, bool):
            if key == 0:
                return ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
                        "to convert a 0-dim tensor to a number")
            return f"index {key} is out of bounds for dimension 0 with size 0"
        if rank == 0 and isinstance(key, slice):
            return "slice() cannot be applied to a 0-dim tensor."
        key = (key,)
    taken = sum(0 if item is None or item is Ellipsis or isinstance(item, bool) else
                item.data.ndim if isinstance(item, Tensor) and item.data.dtype in (np.bool_, np.uint8) else 1
                for item in key)
    return f"too many indices for tensor of dimension {rank}" if taken > rank else None


def _nested(values: Any) -> Any:
    return tuple(_nested(v) for v in values) if isinstance(values, list) else values


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _python_bind(function: str, names: list[str], args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    if len(args) > len(names):
        raise TorchError("TypeError", f"{function}() takes at most {len(names)} arguments ({len(args)} given)")
    return python.bind_by_name(function, names, args, kwargs)


def _statement_name(node: ast.AST) -> str:
    names = {ast.For: "a 'for' loop", ast.While: "a 'while' loop", ast.If: "'if'", ast.FunctionDef: "a function "
             "definition ('def')", ast.ClassDef: "a class definition", ast.Return: "'return'", ast.Try: "'try'",
             ast.Raise: "'raise'", ast.Delete: "'del'", ast.Global: "'global'", ast.Assert: "'assert'",
             ast.AsyncFunctionDef: "an async function", ast.Nonlocal: "'nonlocal'"}
    return names.get(type(node), f"a '{type(node).__name__}' statement")


def _expression_name(node: ast.AST) -> str:
    names = {ast.Lambda: "a lambda", ast.ListComp: "a list comprehension", ast.GeneratorExp: "a generator expression",
             ast.Dict: "a dict", ast.Set: "a set", ast.IfExp: "a conditional expression", ast.BoolOp: "'and'/'or'",
             ast.Compare: "a comparison", ast.DictComp: "a dict comprehension", ast.SetComp: "a set comprehension",
             ast.Await: "'await'", ast.Yield: "'yield'", ast.NamedExpr: "':='", ast.Starred: "'*'"}
    return names.get(type(node), f"a '{type(node).__name__}' expression")


def run(source: str, out: TextIO, filename: str = "<stdin>", errors: TextIO | None = None,
        max_steps: int = MAX_STEPS, timeout: float = TIMEOUT) -> Interpreter:
    """Run a file's text, writing what it prints to `out` and PyTorch's warnings to `errors`;
    SyntaxProblem (exit 2) for what gradcli run does not take, LimitProblem (exit 2) past `max_steps`
    statements and loop iterations or `timeout` seconds, TorchError (exit 1) for what PyTorch or
    Python would raise."""
    try:
        with warnings.catch_warnings():  # a docstring's '\s' (DeprecationWarning): Python 3.11 running the file says nothing
            warnings.simplefilter("ignore", DeprecationWarning)
            warnings.simplefilter("ignore", SyntaxWarning)
            tree = ast.parse(source)
    except (RecursionError, MemoryError):  # Python's own parser gives up on such nesting too
        raise SyntaxProblem("not Python: the program nests too deeply for Python's parser", source=source,
                            span=(0, 1)) from None
    except SyntaxError as problem:
        line, column = problem.lineno or 1, (problem.offset or 1) - 1
        starts = [0]
        for text in source.splitlines(keepends=True):
            starts.append(starts[-1] + len(text))
        start = starts[min(line, len(starts)) - 1] + max(column, 0)
        raise SyntaxProblem(f"not Python: {problem.msg}", source=source, span=(start, start + 1)) from None
    interpreter = Interpreter(source, out, filename, errors, max_steps, timeout)
    wrong = python.misplaced(tree.body)
    if wrong is not None:  # refused by Python's compiler, before anything runs
        raise interpreter.refuse(wrong[0], f"not Python: {wrong[1]}")
    # The walk takes a few Python frames per level of the tree ast.parse built (as deep as
    # Python's parser goes, about a thousand levels): room for them, and no further.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _WALK_DEPTH))
    python.SHOW.append(interpreter.show)
    default_float = DEFAULT_FLOAT.set(np.float32)  # (torch.get_default_dtype() of a program)
    routed = mkl.ROUTED.set(True)  # PyTorch's MKL kernels, where `gradcli[mkl]` is installed
    try:
        with np.printoptions():  # (np.set_printoptions of the file holds for the run alone)
            interpreter.run(tree)
    except TorchError as raised:
        raised.interpreter = interpreter
        raise
    except RecursionError:
        node = interpreter.node or tree
        raise interpreter.refuse(node, "this statement nests too deeply for gradcli run") from None
    finally:
        sys.setrecursionlimit(limit)
        python.SHOW.pop()
        DEFAULT_FLOAT.reset(default_float)
        mkl.ROUTED.reset(routed)
    return interpreter


__all__ = ["BackwardCall", "Interpreter", "node_name", "reprs", "run"]


def _size_argument(name: str, args: list[Any], keyword: bool) -> tuple[int, ...]:
    """The shape of ones/zeros/full/empty(size), as PyTorch's parser reads its `size` (ints one by one or one tuple
    of ints; a 1-element integer tensor an int), in its TypeErrors' words."""
    where = "argument 'size'" if keyword else "argument 'size' (position 1)"
    if len(args) > 1 and isinstance(args[0], (tuple, list)):
        raise TorchError("TypeError", f"{name}() takes 1 positional argument but {len(args)} were given")
    whole = len(args) == 1 and isinstance(args[0], (tuple, list))
    items = list(args[0]) if whole else args

    shape = []
    for place, item in enumerate(items):
        size = int(item) if isinstance(item, bool) and place > 0 else _whole_size(item)
        if size is None:
            if place > 0:
                raise TorchError("TypeError", f"{name}(): argument 'size' failed to unpack the object at pos "
                                              f"{place + 1} with error \"type must be tuple of ints,but got "
                                              f"{_type_name(item)}\"")
            if whole:
                raise TorchError("TypeError", f"{name}(): {where} must be tuple of ints, but found element of type "
                                              f"{_type_name(item)} at pos 0")
            raise TorchError("TypeError", f"{name}(): {where} must be tuple of ints, not {_type_name(item)}")
        shape.append(size)
    return tuple(shape)


def _whole_size(item: Any) -> int | None:
    """A size as PyTorch's parser takes an int: an int (no bool), a 1-element integer tensor; None for another."""
    if isinstance(item, bool):
        return None
    if isinstance(item, int):
        return item
    if isinstance(item, Tensor) and item.data.size == 1 and item.data.dtype.kind in "iu":
        return int(item.data.reshape(-1)[0])
    return None
