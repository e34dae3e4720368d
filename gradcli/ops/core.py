"""The row type of the op table, the adapters that derive an op's rules, and applying a rule.

A row holds everything gradcli knows about an op (see `Op`). The rules have one signature
per kind (`params` are the static parameters an op takes from the program text, such as the
key of an index; `ranks` is given to the ops that are not elementwise, see below):

    forward(*args, **params) -> value
    vjp(g, ans, *args, **params) -> one cotangent per arg, None where none flows
    jvp(tangents, ans, *args, **params) -> the output's tangent (a tangent may be None: zero)
    sympy(*args, **params) -> a SymPy expression: elementwise ops take and give one
        expression (symbolic.py applies them element by element); the others take and give
        NumPy arrays of expressions (dtype object)
    shape(*shapes, **params) -> the value's shape at one point, from the args' shapes, before
        anything is computed (ValueError where they do not fit); None: broadcasting, as
        for every elementwise op
    floats = (forward, vjp): the same op on Python floats, for programs of numbers only.

An elementwise row is written once: its forward and ONE derivative, `derivative(xp, g, ans,
*args) -> (g times d ans / d arg, for each arg)`, written against an array namespace `xp`.
`elementwise()` derives from it the VJP (xp = NUMPY), the float VJP (xp = FLOATS) and the JVP
(the derivative of an elementwise op is diagonal: it is its own transpose, applied to each
arg's tangent). PyTorch's masks are declared beside it, not written into it: `mask(*args)`
says, per arg, where the product is 0 whatever g is (masked_fill: a NaN g gives 0 there),
and `tie(*args)` where the gradient is split in half between the args.

The float namespace gives NumPy's bits on Python floats: math's sin, cos, sqrt, abs and sign,
which have them (gradcli.float_math), and NumPy's ufuncs on the float for the rest (np.exp(x) runs
the same loop as on an array, and NumPy's exp, log, tan, pow... are SIMD code that differs
from libm's math.exp in the last place); Python's own arithmetic for what IEEE rounds
exactly (+ - * /). A float rule may also raise ValueError or ArithmeticError (1/0,
math.sqrt(-1), math.sin(inf)): the engine then does the whole sweep again in NumPy.

Rules never see a batch. With --points, values carry a leading batch axis; the elementwise
rules need nothing but arguments whose point shapes are aligned (call_* inserts the axes),
and the others act on the trailing, per-point axes of each arg: `ranks`, the number of those
axes per arg, is what call_* passes them. Cotangents may have the broadcast shape; call_vjp
undoes broadcasting with `unbroadcast`.

The VJP rules also run on dual numbers, for the Hessian's forward-over-reverse (gradcli.dual).
A rule that branches on a value compares it (`x < 0`, `np.where`), and a dual number's
comparisons look at its value alone, never its tangent: that requirement is met there, once.
Values and derivatives follow PyTorch, subgradients included (relu'(0) = 0, abs'(0) = 0,
max(a, a) sends half the gradient each way).
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any, NamedTuple

import numpy as np

from gradcli import mkl
from gradcli.float_math import EXACT, UFUNCS, pick, power
from gradcli.ops import float32
from gradcli.ops.float32 import fma32  # noqa: F401 (the rules' fused multiply-add)
from gradcli.ops.summation import torch_sum

# torch.get_default_dtype(): the dtype of a float tensor an op makes for itself (frexp's backward divides by
# exp2 of its int32 exponent, made in it). float64 in a formula, where every value is float64 (PyTorch's
# references for `grad` are recorded with torch.set_default_dtype(torch.float64)); float32 under
# `gradcli run`, which sets it for the program's run.
DEFAULT_FLOAT: ContextVar[type] = ContextVar("default_float", default=np.float64)

Array = np.ndarray
Rule = Callable[..., Any]
Shape = tuple[int, ...]


class ValueRefusal(ValueError):
    """PyTorch refuses these values, not their shapes (binary_cross_entropy's input outside [0, 1]): under
    `run` the `kind` of exception PyTorch raises, under `grad` exit 2 at the call in PyTorch's words, over
    --points a bad line at the line that holds them. `ours`: gradcli's words for `grad`, where PyTorch's
    (its run message) would mislead."""

    kind = "RuntimeError"

    def __init__(self, message: str, ours: str = "") -> None:
        super().__init__(message)
        self.ours = ours or f"{message} (PyTorch raises here too)"


class Unsupported(ValueError):
    """A case PyTorch computes and gradcli does not (cross_entropy of an (N, C, d1, ...) input): `grad`'s shape
    error as any other, and under `run` exit 2 naming it, never an error PyTorch would not raise."""


class NotImplementedRefusal(ValueRefusal):
    """A refusal PyTorch raises as NotImplementedError (a combination of args it has no kernel for)."""

    kind = "NotImplementedError"


class WrittenList(tuple):
    """A static param a program wrote as a Python list (size=[4]): a tuple to every rule, and the list it was where
    a message prints what was given, as PyTorch's Python checks print it (F.interpolate's size)."""

    def __repr__(self) -> str:
        return repr(list(self))


# A tensor's type as PyTorch's C++ prints it in a message (toString of its DeprecatedTypeProperties):
# "torch.DoubleTensor", and for the types that have no legacy tensor class, "CPUBoolType"
_TENSOR_TYPES = {"float64": "torch.DoubleTensor", "float32": "torch.FloatTensor", "float16": "torch.HalfTensor",
                 "int64": "torch.LongTensor", "int32": "torch.IntTensor", "int16": "torch.ShortTensor",
                 "int8": "torch.CharTensor", "uint8": "torch.ByteTensor", "bool": "CPUBoolType",
                 "complex64": "CPUComplexFloatType", "complex128": "CPUComplexDoubleType"}


class TypedWords(ValueError):
    """PyTorch's words for shapes it refuses that name a tensor arg by its type ("expand(torch.DoubleTensor{[1, 3]},
    size=[3]): ..."), which a shape rule does not know: `template` holds {type0}, {type1} ... for the tensor args' types,
    which `gradcli run` fills from their dtypes (typed); str() is `grad`'s, where every value is float64."""

    def __init__(self, template: str) -> None:
        self.template = template
        super().__init__(self.typed(()))

    def typed(self, dtypes: Sequence[str]) -> str:
        """The words with the tensor args' types, from their dtypes by NumPy's names (float64 where not given)."""
        def named(match: Any) -> str:
            place = int(match[1])
            return _TENSOR_TYPES.get(dtypes[place] if place < len(dtypes) and dtypes[place] else "float64", "")

        return re.sub(r"\{type(\d+)\}", named, self.template)


def too_few_sizes(shape: Sequence[int], size: Sequence[int]) -> TypedWords:
    """PyTorch's words where a tensor of `shape` is expanded to fewer dims (`size`): expand's, addmm's input."""
    return TypedWords(f"expand({{type0}}{{{list(shape)}}}, size={list(size)}): the number of sizes provided ({len(size)}) "
                      f"must be greater or equal to the number of dimensions in the tensor ({len(shape)})")


class PythonValueError(ValueRefusal):
    """A refusal PyTorch makes in Python (torch/nn/functional.py's checks): Python's ValueError."""

    kind = "ValueError"


class Param(NamedTuple):
    """A static parameter of a call: its keyword, what it takes and its default.

    kind: "int"; "float"; "number" (a float, or an int kept an int: a Scalar that promotes, Op.scalar_params);
    "bool"; "str" (one of `choices`); "dtype" (a dtype's name: the result's dtype, which the lowering takes out
    of the params for the front end: Bound.cast); "dims" (an int, a tuple of ints, or None: every axis); "ints" (a tuple of ints, given as a tuple, a list, or as the rest of
    the positional args: `x.reshape(2, 3)`); "sizes" (an int, for every axis, or a tuple of ints and Nones); "floats" (a
    number, for every axis, or a tuple of numbers); "axes" (an int, or a pair of tuples of ints:
    tensordot's dims); "widths" (a whole number, or tuples of them, pairs in tuples: np.pad's pad_width). Every kind
    takes None where the default is None.
    Two kinds hold a place of PyTorch's signature that no rule reads, so that the args after it bind where PyTorch
    binds them: "legacy" (a loss's size_average and reduce: any value, read for its truth, which the lowering folds
    into `reduction` as torch.nn._reduction.legacy_get_string does); "absent" (a param PyTorch has and gradcli
    does not take, as mse_loss's weight: None alone, and False where the default is False, as gather's sparse_grad;
    `refused` PyTorch's own error for a value that is no tensor, its words with {type}, the value's Python type).
    """

    name: str
    kind: str
    default: Any = None
    aliases: tuple[str, ...] = ()  # dim/axis, keepdim/keepdims
    choices: tuple[str, ...] = ()
    # PyTorch's parser takes only a tuple or a list here (an int[] without a size: flip's dims,
    # reshape's shape), but from a method's positional args (x.flip(0)): torch.flip(x, 0) is a TypeError
    listed: bool = False
    # PyTorch's own refusal of a value that is not one of `choices` (None included, where the default is not):
    # (its exception's type, its words with {value}): reduction='avg' is its ValueError
    refused: tuple[str, str] | None = None
    # PyTorch's UserWarning where a call gives one of these values, and the value it means then: ((value, its
    # words, the value read, whether Python's filter keeps it once per line of the call rather than once per
    # function), ...): reduction='elementwise_mean' is 'mean' (torch.nn._reduction.get_enum's deprecation),
    # F.kl_div's 'mean' warns that it is not 'batchmean' (lowering.settle)
    warned: tuple[tuple[str, str, str, bool], ...] = ()
    # PyTorch's param that changes nothing here (expand's implicit, clone's memory_format): a value of its kind is
    # taken, and no rule reads it
    unread: bool = False
    # why an "absent" param is not taken, where its name does not say it (embedding's max_norm writes into the weight)
    why: str = ""

    def refusal(self, value: Any) -> ValueRefusal:
        """PyTorch's refusal of this value (Param.refused), as the exception of its type."""
        kind, words = self.refused  # type: ignore[misc]
        refusal = PythonValueError if kind == "ValueError" else ValueRefusal
        must = (f"one of {', '.join(repr(c) for c in self.choices)}" if self.choices
                else _KIND_TEXT.get(self.kind, "left out"))
        made = refusal(words.format(value=value, type=type(value).__name__), f"{self.name} must be {must}")
        if kind not in ("ValueError", "RuntimeError"):  # (a TypeError of PyTorch's argument parser)
            made.kind = kind
        return made

    def convert(self, value: Any) -> Any:
        """The parameter's value from what the program wrote (a number, a tuple of numbers, a
        string, None); ValueError saying what it must be."""
        kind = self.kind
        if value is None:
            if self.default is None:
                return None
            if self.refused is not None:
                raise self.refusal(value)
            raise ValueError(f"{self.name} cannot be None")
        if kind == "legacy":  # (size_average=False: torch's `if size_average and reduce`)
            return bool(value)
        if kind == "dtype":
            if value == "cpu":  # x.to("cpu"): the one device there is, no dtype
                return None
            if isinstance(value, str) and value in _DTYPE_NAMES:
                return _DTYPE_NAMES[value]
            raise ValueError(f"{self.name} must be a dtype, as in torch.float64")
        if kind == "str":
            if isinstance(value, str) and (not self.choices or value in self.choices):
                return value
            if not self.choices:  # (dtype=, device=: a word, as in dtype=torch.float64)
                raise ValueError(f"{self.name} must be a name, as in {self.name}=torch.float64" if self.name == "dtype"
                                 else f"{self.name} must be a string")
            if self.refused is not None and (isinstance(value, str) or self.refused[0] == "ValueError"):
                raise self.refusal(value)  # (a Python check compares a value of any type: cdist's compute_mode=1)
            raise ValueError(f"{self.name} must be one of {', '.join(repr(c) for c in self.choices)}")
        if isinstance(value, str):
            if value in self.choices:  # a number or one of these names: norm's p='fro'
                return value
            if self.refused is not None:  # (PyTorch's TypeError: poisson_nll_loss's eps='none')
                raise self.refusal(value)
            raise ValueError(f"{self.name} must be {_KIND_TEXT[kind]}, not a string")
        if kind == "widths":  # np.pad's pad_width: a whole number, or tuples (of pairs) of them
            return _nested_whole(self.name, value)
        if kind == "axes":  # tensordot's dims: a count, or a pair of lists of dims
            if not isinstance(value, tuple):
                return _whole(self.name, value)
            if len(value) == 2 and not any(isinstance(part, tuple) for part in value):  # NumPy's axes=[1, 0]: a dim each
                value = tuple((part,) for part in value)
            if len(value) != 2 or not all(isinstance(part, tuple) for part in value):
                raise ValueError(f"{self.name} must be {_KIND_TEXT[kind]}")
            return tuple(tuple(_whole(self.name, v) for v in part) for part in value)
        if kind == "floats":  # one number for every axis, or a tuple of them (gradient's spacing)
            if isinstance(value, tuple):
                if not all(isinstance(v, (int, float)) for v in value):
                    raise ValueError(f"{self.name} must be {_KIND_TEXT[kind]}")
                return tuple(float(v) for v in value)
            return float(value)
        if kind == "sizes":  # one size for every axis, or a tuple of them (adaptive pooling's None keeps the input's)
            if not isinstance(value, tuple):
                return _whole(self.name, value)
            sizes = tuple(None if v is None else _whole(self.name, v) for v in value)
            return WrittenList(sizes) if isinstance(value, WrittenList) else sizes
        if kind in ("dims", "ints"):
            if value == () and kind == "dims":  # (PyTorch's sum(x, ()) is over every dim, its flip(x, ()) none)
                raise ValueError(f"{self.name} () names no dim: name the dims, or leave {self.name} out for every dim")
            if isinstance(value, tuple):
                return tuple(_whole(self.name, v) for v in value)
            if kind == "dims":
                return _whole(self.name, value)
            return (_whole(self.name, value),)
        if isinstance(value, tuple):
            raise ValueError(f"{self.name} must be {_KIND_TEXT[kind]}")
        if kind == "int":
            if self.refused is not None and isinstance(value, float):  # (PyTorch's parser: an int, never a float)
                raise self.refusal(value)
            return _whole(self.name, value)
        if kind == "bool":
            if self.refused is not None and not isinstance(value, bool):  # (PyTorch's parser: a bool, never an int)
                raise self.refusal(value)
            if value in (0, 1):
                return bool(value)
            raise ValueError(f"{self.name} must be True or False")
        if kind == "number" and isinstance(value, int) and not isinstance(value, bool):
            return value  # (a Python int, which promotes otherwise than a float: Op.scalar_params)
        return float(value)


# PyTorch's names of its dtypes, as NumPy names them (torch.float is float32, torch.double float64).
_DTYPE_NAMES = {"float64": "float64", "double": "float64", "float32": "float32", "float": "float32", "float16": "float16",
                "half": "float16", "bfloat16": "bfloat16", "int64": "int64", "long": "int64", "int32": "int32", "int": "int32",
                "int16": "int16", "short": "int16", "int8": "int8", "uint8": "uint8", "bool": "bool"}

_KIND_TEXT = {"int": "a whole number", "float": "a number", "number": "a number", "bool": "True or False",
              "dims": "a dim or a tuple of dims",
              "ints": "whole numbers", "sizes": "whole numbers or None", "floats": "a number or a tuple of numbers", "axes": "a whole number or a pair of lists of dims",
              "widths": "a whole number or tuples of them"}


def _nested_whole(name: str, value: Any) -> Any:
    return tuple(_nested_whole(name, v) for v in value) if isinstance(value, tuple) else _whole(name, value)


def _whole(name: str, value: Any) -> int:
    # A dim or a size is written as an int (`sum(x, 0.0)` is refused, as PyTorch refuses it), one
    # that fits PyTorch's int64 (10**30 is refused as it is there: "Overflow when unpacking long").
    if isinstance(value, (tuple, float)) or not float(value).is_integer():
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if not -2**63 <= int(value) < 2**63:
        raise ValueError(f"{name} must fit in 64 bits, got {value!r}")
    return int(value)


def sign(xp: Any, x: Any) -> Any:
    """PyTorch's sign (and sgn of reals): 1, -1, and 0 at +-0 and at NaN (NumPy's sign is NaN there). The sign
    row, the special functions' derivatives and the norms' backward all take it from here."""
    return xp.where(x > 0, 1.0, xp.where(x < 0, -1.0, 0.0))


def point_axes(dim: int | tuple[int, ...] | None, rank: int) -> tuple[int, ...]:
    """The axes `dim` names among a value's `rank` per-point (trailing) axes, counted from the
    end (negative): they stay right with a batch axis in front. None: all of them.
    ValueError where a dim is out of range or named twice, in PyTorch's words."""
    if dim is None:
        return tuple(range(-rank, 0))
    dims = dim if isinstance(dim, tuple) else (dim,)
    axes = []
    for d in dims:
        if not -max(rank, 1) <= d < max(rank, 1):
            raise DimError(f"Dimension out of range (expected to be in range of [{-max(rank, 1)}, {max(rank, 1) - 1}], "
                             f"but got {d})")
        axes.append(d - rank if d >= 0 else d)
    if len(set(axes)) != len(axes):
        raise ValueError(f"dim {dims} names an axis twice")
    return tuple(axes) if rank else ()


class Dialect(NamedTuple):
    """What a call of a row means when spelled by one family (Op.dialects; gradcli.lowering reads it)."""

    family: str  # "" (bare: Python's and mathematics'), "torch", "nn" (F.), "method", "numpy", "math"
    row: str | None = None  # the row it means instead
    positional: int | None = None  # only a call with this many positional args
    order: tuple[str, ...] | None = None  # its params by position, in the family's order
    defaults: tuple[tuple[str, Any], ...] = ()  # its params' defaults where they differ (NumPy's ddof=0)
    refuses: tuple[str, ...] = ()  # keywords the family's function has not (np.std has no unbiased=)
    required: tuple[str, ...] = ()  # params the family's function cannot do without (torch.cumsum's dim)
    # where the row's tensor args stand among the family's positional args, where they differ from the
    # row's (Op.tensor_positions): x.where(cond, y) is where(cond, x, y), (1, 0, 2); None: the row's
    tensor_positions: tuple[int, ...] | None = None
    # the call's names it applies to, where the row has several spellings ("norm", not "vector_norm"); (): every one
    names: tuple[str, ...] = ()
    # the row's tensors and params are the family's whole Python signature, in its order (F.mse_loss's, its legacy
    # size_average and reduce included: Param kinds "legacy", "absent"): an arg too many, one missing or an unknown
    # keyword is the TypeError Python raises for that function
    whole: bool = False



def torch_positional(*names: str) -> tuple[Dialect, Dialect]:
    """The dialects of a row whose PyTorch function takes only these params by position (the others after its
    `*`: addmm's beta and alpha, round's decimals): `torch.` and method calls bind as PyTorch's parser binds them,
    and refuse another positional arg with its TypeError; a bare or `np.` call binds every param by position."""
    return Dialect("torch", order=names), Dialect("method", order=names)


# dtypes as PyTorch's messages name them: its ScalarType (Long, Float) and its C++ kernels' type (long int, float)
_TORCH_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
                "float16": "Half", "float32": "Float", "float64": "Double"}
_KERNEL_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
                 "uint8": "unsigned char", "bool": "bool", "float16": "c10::Half", "float32": "float", "float64": "double"}


class DimError(ValueError, IndexError):
    """A dim out of a tensor's range, in PyTorch's words: its IndexError (`gradcli run` raises that class); `grad`
    refuses it as any ValueError of a call."""


class LinAlgError(ValueError):
    """Where PyTorch raises torch.linalg.LinAlgError (torch._C._LinAlgError, a RuntimeError), in its words: a
    singular matrix, an SVD of NaN. `gradcli run` raises that class; `grad` refuses the matrix as any other
    its op cannot take (a ValueError)."""


def batch_element(a: Any, bad: Any) -> str:
    """PyTorch's "(Batch element 1): " naming the first matrix of a batch where `bad` (a flag per matrix) holds;
    "" for one matrix."""
    if np.ndim(a) <= 2:
        return ""
    return f"(Batch element {int(np.argmax(np.reshape(bad, -1)))}): "


# Op.dtype_refusals of the ops whose kernels subtract one arg from another (sub, dist, logaddexp): not of bools
BOOL_SUBTRACTION = (("bool", "RuntimeError", "Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                     "the `^` or `logical_xor()` operator instead."),
                    ("any bool", "RuntimeError", "Subtraction, the `-` operator, with a bool tensor is not supported. If "
                     "you are trying to invert a mask, use the `~` or `logical_not()` operator instead."))

# The message of the ops whose kernels negate an arg (soft_margin_loss's -target, atan2's derivative): not of a bool
NEGATION = ("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
            "`~` or `logical_not()` operator instead.")

# Op.dtype_refusals of the ops PyTorch writes into a tensor like their first arg (huber_loss's): a float result
# cannot be written into integers or bools
UNCASTABLE = (("uncastable", "RuntimeError", "result type {result} can't be cast to the desired output type {0}"),)


def broadcast_shape(shapes: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The broadcasting of `shapes`, on any number of axes; where they do not broadcast, ValueError in PyTorch's
    words (its infer_size: the shapes from the first on, two at a time, each pair's dims from the last)."""
    result: tuple[int, ...] = tuple(shapes[0])
    for shape in shapes[1:]:
        if shape == result or not shape:  # (the common cases: the same shape, a number)
            continue
        ndim = max(len(result), len(shape))
        a, b = (1,) * (ndim - len(result)) + tuple(result), (1,) * (ndim - len(shape)) + tuple(shape)
        for axis in range(ndim - 1, -1, -1):
            if a[axis] != b[axis] and 1 not in (a[axis], b[axis]):
                raise ValueError(f"The size of tensor a ({a[axis]}) must match the size of tensor b ({b[axis]}) at "
                                 f"non-singleton dimension {axis}")
        result = tuple(size_b if size_a == 1 else size_a for size_a, size_b in zip(a, b, strict=True))
    return result


def expand_problem(shape: Sequence[int], target: Sequence[int], given: Sequence[int] | None = None) -> str | None:
    """PyTorch's words where `shape` does not expand to `target` (its infer_expand_geometry, from the last dim; `given`:
    the sizes as the call wrote them, -1 included), None where it does."""
    for axis in range(len(target) - 1, -1, -1):
        place = len(shape) - len(target) + axis
        size = shape[place] if place >= 0 else 1
        if size != target[axis] and size != 1:
            return (f"The expanded size of the tensor ({target[axis]}) must match the existing size ({size}) at "
                    f"non-singleton dimension {axis}.  Target sizes: {list(given or target)}.  Tensor sizes: "
                    f"{list(shape)}")
    return None


def cannot_take(label: str, shapes: Sequence[Shape]) -> str:
    """Op.shape_message of a row whose shapes are wrong for it in another way than broadcasting."""
    return f"{label} cannot take shapes {' and '.join(str(tuple(s)) for s in shapes)}"


def float_input(function: str) -> tuple[tuple[str, str, str], ...]:
    """Op.dtype_refusals of a linear algebra function of floats alone (linalg.det, linalg.svd ...), in its words."""
    return (("integer", "RuntimeError", f"{function}: Expected a floating point or complex tensor as input. Got {{0}}"),)


def kernel_refusal(kernel: str, when: str = "integer") -> tuple[tuple[str, str, str], ...]:
    """Op.dtype_refusals of a PyTorch kernel that has no loop for integers and bools (its dispatch over
    the floating types): `"softplus_cpu" not implemented for 'Long'`. when: "integer" (integers and
    bools), "int" (integers alone), "bool input" (bools alone)."""
    return ((when, "NotImplementedError", f'"{kernel}" not implemented for \'{{0}}\''),)


def torch_dtype_name(dtype: np.dtype) -> str:
    """A dtype as PyTorch's messages name it: Long, Float, Bool."""
    return _TORCH_NAMES.get(dtype.name, dtype.name)


def kernel_dtype_name(dtype: np.dtype) -> str:
    """A dtype as PyTorch's C++ kernels name it in their messages: long int, float, double."""
    return _KERNEL_NAMES.get(dtype.name, dtype.name)

@dataclass(frozen=True, eq=False, repr=False)  # eq/repr left out: they cost start-up time
class Op:
    name: str  # the name in the language: "sin", or "add" for the infix `+`
    arity: int  # -1: any number of arguments (a list literal)
    forward: Rule
    vjp: Rule
    torch_node: str  # PyTorch's backward node, as grad_fn shows it
    jvp: Rule | None = None
    sympy: Rule | None = None
    symbol: str | None = None  # the infix or prefix symbol, for operators
    callable: bool = True  # can a program call it by name? (`neg` cannot; `-x` it is)
    # When PyTorch's node depends on which args are constants, or on shapes:
    # torch_node_rule(constant, shapes, **params) -> name
    torch_node_rule: Rule | None = None
    # PyTorch's nodes where the op writes its result into its input in place under `run` (F.elu(x, inplace=True),
    # x.polygamma_(1), t.fill_(v)), where its in-place derivative has a node of its own: (the node out of place,
    # the node in place) pairs: (("EluBackward0", "EluBackward1"),) (EluBackward1 saves the result); () : the same
    in_place_nodes: tuple[tuple[str, str], ...] = ()
    # Its VJP where its in-place node's derivative is another formula (EluBackward1 computes from the result, the
    # input being overwritten): vjp(g, ans, *args, **params); None: the op's own. (elementwise(in_place_derivative=))
    in_place_vjp: Rule | None = None
    # Elementwise ops need nothing to work on a batch of points but arguments whose point
    # shapes are aligned; the others take `ranks=` (see above).
    elementwise: bool = True
    aligns: bool = False  # a non-elementwise op that also wants its arguments aligned (stack)
    # `3*x` is `x.__rmul__(3)` in PyTorch: with a number on the left, the tensor comes first
    # in next_functions.
    reflects: bool = False
    floats: tuple[Rule, Rule] | None = None  # (forward, vjp) on Python floats: see above
    shape: Rule | None = None  # the output's shape from the args' shapes: see above
    # The one derivative of an elementwise op, from which vjp, jvp and floats were derived.
    derivative: Rule | None = None
    # rules_over(xp) -> (forward, vjp) of an elementwise row over the namespace xp (FLOATS gives `floats`):
    # what gradcli's scalar table is generated from (tests/reference/make_scalar_table.py).
    rules_over: Rule | None = None
    linear: bool = False  # linear in its args together: its JVP is its forward on the tangents
    # Under run, where its args are float tensors of two dtypes: PyTorch's derivative formula promotes them all
    # first (pow's exponent: the base's log in float64), so its VJP reads them promoted (run.tensor.PROMOTING);
    # elsewhere each step of a formula promotes as NumPy's does, as PyTorch's (atan2's other * other stays float32)
    backward_promotes: bool = False
    # Operators: how tightly the symbol binds (higher binds tighter) and which way it groups.
    precedence: int = 0
    right_assoc: bool = False
    # The static parameters a call takes after its `arity` tensor args, by position or by
    # keyword (`sum(x, 0)`, `x.sum(dim=0, keepdim=True)`): numbers, dims, flags and strings
    # written in the program, which reach the rules as `params` (see Param).
    params: tuple[Param, ...] = ()
    # Other rows a call by this name means when its arguments do not fit this one's: max(v) is
    # the reduction, max(a, b) the elementwise maximum.
    overloads: tuple[str, ...] = ()
    # Whose semantics a spelling has, where PyTorch, NumPy and Python disagree: bare max(a, b) is the
    # elementwise maximum, np.max(m, 0) NumPy's values alone, np.std(x) NumPy's ddof=0 (Dialect).
    dialects: tuple[Dialect, ...] = ()
    # The orders in which positional args bind the params, where the library has several
    # (PyTorch's overloads of one op: std(x, dim, unbiased, keepdim) and std(x, unbiased)); the
    # first that fits wins. Empty: the order of `params`.
    positional: tuple[tuple[str, ...], ...] = ()
    # Python's ints stay ints through it (+ - * //): `-1` and `2*3` are still a dim and a size.
    keeps_integers: bool = False
    # Its dtype rule, for `gradcli run`'s dtypes (every value of `grad` is float64): "float" (integer
    # and bool args compute in float32, PyTorch's default), "keeps" (an integer or bool tensor stays
    # one: the ops that move, pick or add values, as keeps_integers does), "sums" (keeps, and a sum of
    # booleans counts them: int64); a mask (`boolean`) is bool, an integer part (`integer_parts`) int64.
    # "first": the first tensor's dtype, the others cast to it (the kernels that write into a tensor like
    # the first: masked_fill, expand_as, the scatters, fill). "rounds": "keeps" where the call is given a
    # rounding_mode, "float" where it is None (div(a, b, rounding_mode=...): floor division, or true division).
    # "squares": "keeps", a bool squared is int64 (torch.square is pow(x, 2), where the 2 promotes a bool).
    # "target": "float", the result in the second tensor's dtype where that is a float (a loss kernel that writes
    # into (1 - target) in place: binary_cross_entropy_with_logits of a float64 input and a float32 target is float32).
    dtype: str = "float"
    # The params that are Scalars of PyTorch's signature (clamp's min and max): they take part in the type
    # promotion as Python numbers (clamp(int tensor, min=0.5) is float32); their Param kind is "number".
    scalar_params: tuple[str, ...] = ()
    # What PyTorch refuses by dtype, in its words (`gradcli run`; every value of `grad` is float64), checked in
    # order: (when, the exception, the message). when, of the tensor args (unless dtype= casts them):
    #   "integer" / "int" / "bool input": the first is an integer or bool / an integer / a bool;
    #   "integer cast": the first is an integer or bool, dtype= or not; "narrowing cast": dtype= is narrower than
    #   the first's dtype ({cast} in the message: dtype='s);
    #   "integer dtype": dtype= is an integer or bool ({cast} in the message);
    #   "any integer" / "any bool": one is (indices, masks and optional tensors left out aside);
    #   "bool": they compute in bool (two bools);
    #   "mixed": two dtypes among them (indices, masks and left-out ones aside: the ops that do not promote);
    #   "mixed 0 2": two dtypes among the tensor args at these places;
    #   "mixed params 3 4 1 2": the first of the tensor args at these places (the parameters of a normalization,
    #   in its kernel's order) is of another dtype than the first arg, and one of them is not float32;
    #   "uncastable": their promoted dtype is of a higher category than the first's, which PyTorch writes the
    #   result into (huber_loss(int tensor, float tensor));
    #   "with unpack_pivots": that param is true (joined to another by " and "); "given rounding_mode": it is not
    #   None; "left out repeats": it is (Op.refuses_by_value: these hang on a param's value);
    #   "index not int32": an index arg, from index_from on, is not int32 (LU's pivots); "index not long or int": one
    #   is neither int64 nor int32 (embedding's indices); "target not long or byte":
    #   one is neither int64 nor uint8 (nll_loss's targets; before the shapes; "vector target ...": one of at most
    #   1 dim, where the target's rank is checked first);
    #   "integer alike": the first is an integer or bool and every other its dtype (a kernel's refusal that PyTorch
    #   makes after its check that they agree);
    #   "result integer": their promoted dtype is an integer or bool (a kernel dispatched on it: logaddexp of a
    #   bool and a float computes);
    #   "mixed shaped 0 2": as "mixed 0 2", a 0-d tensor at the later places left out (lerp's weight: a Scalar);
    #   "not result 2": the tensor arg at place 2 is not of the promoted dtype; "float 0": that one is a float;
    #   "number 2": the arg at place 2 is a Python number (PyTorch's Scalar overload: lerp's weight);
    #   two of them joined by " and ": both hold ("bool input 1 and float 0").
    # "integer", "int", "bool input", "uncastable", "float" and "not result" may end with a tensor arg's place: that arg's
    # dtype, not the first's ("bool input 1"). A refusal that ends "into 0" (or "into 0 1") PyTorch makes in the
    # backward of the call's node, where a gradient flows into a tensor arg at these places: pow's of a bool exponent
    # (its exponent - 1), "bool input 1 into 0".
    # The "mixed" and "integer alike" ones are checked after the shapes, as PyTorch does. The message's {0}, {1} are the tensor args'
    # dtypes as PyTorch names them (Long, Float), {c0}, {c1} as its C++ kernels do (long int, float), {shape0} a tensor
    # arg's shape as a list ([2, 2]), {odd} the
    # first that is not the first arg's, {result} the promoted one. A kernel's refusal of integers or bools is
    # kernel_refusal(its name); a linear algebra function's of integers, float_input(its name).
    dtype_refusals: tuple[tuple[str, str, str], ...] = ()
    # PyTorch's words where the backward of a call with these args' shapes raises (a RuntimeError), or None:
    # backward_problem(shapes, flows, given, **params), `flows` whether a gradient flows into each arg, `given` whether
    # an optional one was given. clamp's masks written in place into a smaller one, pixel_shuffle's of none. `gradcli run`
    # raises it when a backward reaches the call's node.
    backward_problem: Rule | None = None
    # The tensor args PyTorch's function takes no gradient for and refuses one that requires grad (grad mode on),
    # before anything else: (their place among the args, the function's name, the arg's name). nll_loss's weight.
    undifferentiable: tuple[tuple[int, str, str], ...] = ()
    # The dims of its first arg whose sizes PyTorch's autograd saves for the backward before the kernel runs, where
    # that arg requires grad (Im2ColBackward0's self.sym_size(-1), then (-2)): a dim out of range is then that
    # IndexError, before the kernel's own checks (`gradcli run`).
    saved_sizes: tuple[int, ...] = ()
    # The args from this position on are integer indices (v[idx], gather's index): no gradient
    # flows into them, an input among them is an integer input, and PyTorch does not list them
    # among the node's next_functions.
    index_from: int | None = None
    # Where the tensor args stand among a call's positional args, when a param comes between
    # them: gather(x, dim, index) is (0, 2).
    tensor_positions: tuple[int, ...] = ()
    # The names of the tensor args, in the row's order, for a call that gives one by keyword
    # (torch.gather(x, 1, index=i)); empty: input, other.
    inputs: tuple[str, ...] = ()
    # Tensor args a call may leave out or give by keyword: (their place among the call's
    # positional args, the keyword, the number a left-out one is). cross_entropy(x, t, weight=w):
    # ((2, "weight", 1.0),), every class weighing 1 where no weight is given.
    optional_args: tuple[tuple[int, str, float], ...] = ()
    # PyTorch's words where an optional tensor arg is given as a 0-d tensor, which the shape rule cannot
    # tell from one left out (a number stands in for that): (the keyword, the args' shapes, the params)
    # -> the message (cross_entropy's "weight tensor should be defined either for all 3 classes ...").
    given_0d: Callable[..., str] | None = None
    # The name PyTorch's argument parser gives the call in its TypeErrors (F.cross_entropy's "cross_entropy_loss"):
    # an optional tensor arg given a Python number or a string is refused in its words ("argument 'weight'
    # (position 3) must be Tensor, not str").
    parser_name: str | None = None
    # The last tensor args, which PyTorch takes by keyword alone (torch.masked.sum(x, 0, mask=m)): a call
    # gives each by that keyword, and they stand after the other tensors, before the params.
    keyword_tensors: tuple[str, ...] = ()
    # The keyword a `torch.` spelling also takes its list of tensors by (torch.cat(tensors=[a, b])); "": by
    # position alone (torch.meshgrid(*tensors), a Python function of varargs)
    list_keyword: str = ""
    # The row a call means instead when its index arg (at index_from) has the shape of its first
    # arg, as PyTorch reads cross_entropy's target (class probabilities). Where the shapes are not
    # known yet (an input of the formula language before its point), a float means it.
    float_index: str | None = None
    # identity_when(**params) -> True where the call is its first arg itself, with no node (PyTorch
    # returns the input: dropout with p=0 or training=False); False: the call is refused (random).
    identity_when: Rule | None = None
    # Other names a program may call it by, PyTorch's and NumPy's: `ln`, `arctan`, `multiply`.
    spellings: tuple[str, ...] = ()
    # The PyTorch/NumPy methods that are this op, the receiver its first arg: `x.sum()`, `y.pow(2)`.
    methods: tuple[str, ...] = ()
    # Methods that are this op with some params said by their name: x.double() is x.to(torch.float64).
    method_params: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    # text(args, **params) -> the op applied to argument texts; None: the generic spelling
    # (`a + b` for an infix operator, `-a` for a prefix one, `name(a, b)` for a call).
    text: Rule | None = None
    # PyTorch's nodes of this op that are Tensor-Scalar overloads: a number is not one of
    # their inputs (x**2 is PowBackward0 with one next function).
    scalar_overloads: frozenset[str] = frozenset()
    # shape_message(label, shapes) -> what is wrong when the args' shapes do not fit; None:
    # they do not broadcast.
    shape_message: Rule | None = None
    # Where the tests sample each arg, (low, high); None: (-2, 2). `kinked`: sampled away
    # from 0 and from ties, where only a subgradient exists.
    domain: tuple[tuple[float, float], ...] | None = None
    kinked: bool = False
    # The NumPy ufuncs this op is: a rule run on dual numbers (the Hessian) that calls one is
    # differentiated by this row's JVP (gradcli.dual).
    ufuncs: tuple[Any, ...] = ()
    # A call that gives a tuple, as PyTorch's does (x.split(2), max(x, dim=0) -> (values, indices),
    # slogdet): n > 0 values, or -1 where their number follows from the shapes (split, chunk).
    # TapeSink.call then gives a tuple of parts, each a node of its own of this row, made when
    # the program indexes the tuple (t[0]) or unpacks it (a, b = ...); every rule gets the
    # part's index as the param `part` (a negative one counts from the end) and the number
    # the program unpacked as `of` (None: indexed), and gives that part alone: forward its
    # value, vjp the args' cotangents from its g alone (the parts' nodes add up in the sweep),
    # shape its shape (ValueError where there is no such part or `of` is not their number).
    parts: int = 0
    # PyTorch's names of the parts (a namedtuple): `max(x, 0).values`, `.indices`.
    fields: tuple[str, ...] = ()
    # Which output of PyTorch's node its value is, where that node has several and this op gives one of them
    # (svdvals is the S of _linalg_svd's (U, S, Vh): 1); a part of a tuple is its part's (tape.Node.output).
    output: int = 0
    # The parts whose values are integers ((1,): max's indices; (0,): argmax's one value): no
    # gradient flows through them, PyTorch records no node, and one may index (v[argmax(v)])
    # without making the inputs it is computed from integer inputs.
    integer_parts: tuple[int, ...] = ()
    # Their dtype under `gradcli run`: int64 (indices), int32 (LAPACK's LU pivots and infos, as PyTorch gives them).
    integer_dtype: str = "int64"
    # The parts PyTorch gives as floats without a gradient (native_layer_norm's mean and rstd): no gradient
    # flows through them, PyTorch records no node, and their dtype is the op's.
    detached_parts: tuple[int, ...] = ()
    # The row (with `parts`) a call of this one means when it is given a dim: torch.max(x) is
    # one value, torch.max(x, 0) the tuple (values, indices).
    with_dim: str | None = None
    # The row (with `parts`: values, indices) a call of this one means when it says return_indices=True:
    # F.max_pool2d(x, 2, return_indices=True).
    with_indices: str | None = None
    # Other rows a call means by the value of one of its params: (the param, the value, the row).
    # torch.svd(a, compute_uv=False) is svd_values: (U and V of zeros, S), (("compute_uv", False, "svd_values"),).
    rebinds: tuple[tuple[str, Any, str], ...] = ()
    # Its PyTorch reference, for the tests (tests/reference/make_torch_reference.py, the front ends'
    # test, the Hessian's): PyTorch's call over the args `a`, `b`, `c` as text, read with `torch` and
    # `F` (torch.nn.functional) in scope: "F.softplus(a)", "F.cross_entropy(a, b.long())",
    # "a.reshape(2, 1)". "": the default (reference_texts): `torch.{name}(a, b, ...)`, the operator for
    # a symbol. None: none of its own, said so: a part of composites (the clone that cosine_similarity
    # clamps without a gradient), tested through them.
    reference: str | None = ""
    # gradcli's program that is held against the reference, over the same args; "": the row's print
    # rule (node_text) without params, as `gradcli functions` shows it.
    reference_program: str = ""
    # Calls the tests make of it: (the args' shapes at one point, the params).
    examples: tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...] = ()
    # False: its value is a constant of the point (a comparison's mask, PyTorch's booleans):
    # no gradient flows through it, and PyTorch records no node for it (TapeSink: requires_grad
    # False).
    differentiable: bool = True
    # A row that is the VJP of another, as PyTorch records that VJP under create_graph=True: the name of
    # that row (ops/backwards.py: sigmoid_backward is sigmoid's), applied to (g, the saved output).
    backward_of: str | None = None
    boolean: bool = False  # its value is a mask (PyTorch's bool tensor): as an index, it selects (x[x > 0])
    compares: bool = False  # a comparison operator: `a < b < c`, which Python chains, is refused
    # The args PyTorch does not count as inputs of its node (where's condition, masked_fill's
    # mask: booleans): next_functions leave them out.
    conditions: tuple[int, ...] = ()
    # Its derivative reads an integer arg (a target: it takes no gradient) in that arg's own dtype, as PyTorch's backward
    # reads the input it saved (atan2's -a: the negation of an integer zero has no sign); `gradcli run` hands it so.
    saved_integers: bool = False
    # A composite: an op PyTorch records as several nodes (cross_entropy is NllLossBackward0 over
    # LogSoftmaxBackward0), written as a small program of other rows:
    # program(emit, *args, **params) -> the value, where emit(row, *args, **params) applies a row
    # and an arg may be a Python number. Every front end lowers it into its parts as the tape is
    # built (TapeSink.apply, run's apply), so the graph is PyTorch's and no derivative is written
    # for it; its own rules, for whoever calls the row alone, are derived from the program
    # (composite(): gradcli.composites).
    program: Rule | None = None
    # What PyTorch records where the first arg is a Python number (its reflected method, as
    # program(emit, a, b)): `2 / x` is x.__rtruediv__(2), x.reciprocal() * 2.
    reflected: Rule | None = None

    def integer_valued(self, params: dict[str, Any]) -> bool:
        """Is the node of this op with these params an integer value (see integer_parts)?"""
        return bool(self.integer_parts) and params.get("part", 0) % max(self.parts, 1) in self.integer_parts

    def detached(self, params: dict[str, Any]) -> bool:
        """Does no gradient flow through the node of this op with these params (integer_parts, detached_parts)?"""
        return self.integer_valued(params) or (
            bool(self.detached_parts) and params.get("part", 0) % max(self.parts, 1) in self.detached_parts)

    @cached_property
    def refuses_by_value(self) -> bool:
        """Does one of its dtype_refusals hang on a param's value ("with unpack_pivots", "given rounding_mode", "left out
        repeats"), so that the dtypes of a call's args alone do not say whether it is refused?"""
        return any(f" {word} " in f" {when}" for when, _, _ in self.dtype_refusals for word in ("with", "given", "left"))

    @property
    def label(self) -> str:
        """How a message names the op: its symbol in quotes, else its name."""
        return f"'{self.symbol}'" if self.symbol else self.name


# --- the array namespaces the elementwise rules are written against --------------------------

# NumPy computes a power whose exponent is one number (or the same along the loop) 2, 0.5 or
# -1 as square, sqrt, reciprocal, whose bits differ from pow's; an exponent that varies per
# point goes through pow. _power does the former everywhere, so that a point gives the same
# bits alone (one number) and in a batch (an exponent per point).
_SCALAR_POWERS = ((2.0, np.square), (0.5, np.sqrt), (-1.0, np.reciprocal))


class Number(np.float64):
    """A constant that PyTorch sees as a Python number (tape.Node.is_number), as the sweeps hand it
    to the rules: where PyTorch's Scalar overload computes otherwise than its Tensor one, the rule
    can tell. x ** 0.5 is pow(Tensor, Scalar), which is sqrt (NaN at -inf); x ** y is
    pow(Tensor, Tensor), C's pow (inf at -inf). Arithmetic on it gives plain NumPy numbers."""

    __slots__ = ()


def _power(a: Array, b: Array) -> Array:
    if type(b) is Number and getattr(a, "dtype", None) == np.float32:
        b = float(b)  # a Python number's exponent keeps a float32 tensor float32
    out = np.power(a, b)
    if not isinstance(out, (np.ndarray, np.floating)):
        return out  # (a dual number of the Hessian keeps np.power, whose derivative carries the exponent's)
    if out.dtype == np.float32:
        return _float32_power(a, b, out)
    if type(b) is Number or type(b) is float:  # (gradcli run hands its Python numbers over as floats)
        # PyTorch's pow(Tensor, Scalar) multiplies for 3 and -2, in every float dtype; under run (a float: its Python
        # numbers) so. (The formula language keeps C's pow: its float fast path cannot tell x ** 3 from x ** y at y=3.)
        if type(b) is float and b == 3.0:
            return np.asarray(a * a * a)[()]
        if type(b) is float and b == -2.0:
            return np.asarray(1.0 / (a * a))[()]
        return _scalar_power(a, b, out)
    if type(b) is np.ndarray and b.ndim:  # an exponent per point: what one number would give
        for exponent, scalar_rule in _SCALAR_POWERS:
            hit = b == exponent
            if hit.any():
                out = np.where(hit, scalar_rule(a), out)
    # A tensor exponent: PyTorch's pow(Tensor, Tensor) is C's pow, which differs from the sqrt
    # that NumPy takes for 0.5 at -inf (inf, not NaN) and at -0.0 (0.0, not -0.0).
    if np.any(b == 0.5):
        out = np.where((b == 0.5) & ((a == -np.inf) | (a == 0)), np.abs(a), out)[()]
    return out


def _scalar_power(a: Array, b: float, out: Array) -> Array:
    """PyTorch's pow(Tensor, Scalar) where it is not C's pow beyond rounding: its exponent 0.5 is
    sqrt (a positive NaN below 0, as torch.sqrt's) and -0.5 rsqrt (1 / sqrt: NaN at -inf, -inf at
    -0.0). NumPy's power with one exponent gave the rest (its 0.5 is sqrt too); float64 stays C's
    pow here, as the scalar path computes it."""
    if b == 0.5:
        return np.where(a < 0, np.nan, out)[()]
    if b == -0.5:
        return np.where(a == -np.inf, np.nan, np.where((a == 0) & np.signbit(a), -np.inf, out))[()]
    return out


def _float32_power(a: Any, b: Any, out: Any) -> Any:
    """PyTorch's float32 pow kernels (gradcli.ops.float32), a NumPy scalar for a 0-dim result as NumPy's power
    gives. pow(Tensor, Scalar) fills 1 for an exponent of 0, copies for 1, is torch.sqrt's kernel for 0.5,
    1 / sqrt for -0.5, the reciprocal for -1, and multiplies for 2, 3 and -2 (x * x, x * x * x, 1 / (x * x));
    pow(Scalar, Tensor) fills 1 for a base of 1; the rest, and pow(Tensor, Tensor), is its vectorised loop of
    SLEEF's powf (C's pow for the elements it takes one by one)."""
    if type(b) is not np.ndarray:  # pow(Tensor, Scalar)
        b = float(b)
        if b == 0.0:
            result = np.ones_like(out)
        elif b == 1.0:
            result = np.array(a, dtype=np.float32)
        elif b in (2.0, -1.0):
            result = out
        elif b == 0.5:  # (NumPy's float32 power of 0.5 is not its sqrt)
            result = _scalar_power(a, b, NUMPY.sqrt(a))
        elif b == -0.5:
            result = _scalar_power(a, b, np.float32(1.0) / np.sqrt(a))
        elif b == 3.0:
            result = a * a * a
        elif b == -2.0:
            result = np.float32(1.0) / (a * a)
        else:
            result = float32.power(np.asarray(a, dtype=np.float32), b)
    elif type(a) is not np.ndarray and float(a) == 1.0:  # pow(Scalar, Tensor)
        result = np.ones_like(out)
    else:
        result = float32.power(np.asarray(a, dtype=np.float32), b.astype(np.float32, copy=False))
    return np.asarray(result, dtype=np.float32)[()]


def _on_floats(ufunc: Any) -> Rule:
    """A ufunc on Python floats, with its bits: math's function where it has them (gradcli.float_math), else the ufunc."""
    return EXACT.get(ufunc.__name__, ufunc)


# NumPy on arrays (and on dual numbers, which go through NumPy's protocols).
# (the functions PyTorch computes with MKL's VML: VML's where `gradcli run` asks and MKL is there, gradcli.mkl)
NUMPY = types.SimpleNamespace(**{name: mkl.kernel(getattr(np, name)) if name in mkl.VML else getattr(np, name)
                                 for name in UFUNCS}, power=_power, where=np.where)
# Python floats, with NumPy's bits (gradcli.float_math): math's sin, cos, sqrt (which raises below 0, where
# NumPy takes over)..., NumPy's ufuncs on the float for the rest; Python's branches for where.
FLOATS = types.SimpleNamespace(**{**vars(NUMPY), **{name: _on_floats(getattr(np, name)) for name in UFUNCS},
                                  "power": power, "where": pick})


def _sum_tangents(*terms: Array | None) -> Array | float:
    present = [t for t in terms if t is not None]
    return sum(present[1:], present[0]) if present else 0.0


def _zero_tangent(t: Array | None, like: Array) -> Array:
    return np.zeros_like(like) if t is None else t


# --- the adapters: rules derived from what a row gives ---------------------------------------


def _derived_vjp(derivative: Rule, xp: Any, mask: Rule | None, tie: Rule | None) -> Rule:
    if mask is None and tie is None:
        return partial(derivative, xp)

    def vjp(g: Any, ans: Any, *args: Any, **params: Any) -> tuple[Any, ...]:
        if tie is not None:
            g = xp.where(tie(*args), 0.5 * g, g)
        parts = derivative(xp, g, ans, *args, **params)
        if mask is None:
            return parts
        return tuple(part if masked is None else xp.where(masked, 0.0, part)
                     for part, masked in zip(parts, mask(*args, **params), strict=True))

    return vjp


def _derived_jvp(vjp: Rule) -> Rule:
    def jvp(tangents: Sequence[Array | None], ans: Array, *args: Array, **params: Any) -> Array | float:
        # Diagonal: each arg's tangent goes through that arg's own part of the derivative.
        return _sum_tangents(*(None if t is None else vjp(t, ans, *args, **params)[i] for i, t in enumerate(tangents)))

    return jvp


def _forwards(forward: Rule) -> tuple[Rule, Rule]:
    """(on arrays, on floats): a ufunc or Python's operator is the same on both; else forward(xp, *args)."""
    if isinstance(forward, np.ufunc):
        return getattr(NUMPY, forward.__name__) if forward.__name__ in mkl.VML else forward, _on_floats(forward)
    if isinstance(forward, types.BuiltinFunctionType):
        return forward, forward
    return partial(forward, NUMPY), partial(forward, FLOATS)


# Shapes an elementwise op is tried on: alone, and broadcast against each other.
_BROADCASTS: dict[int, tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...]] = {
    1: tuple(((shape,), {}) for shape in [(), (4,), (2, 3)]),
    2: tuple((shapes, {}) for shapes in [((), ()), ((4,), (4,)), ((2, 3), (3,)), ((), (2, 2)), ((2, 1), (1, 3)),
                                        ((3,), ())]),
    3: tuple((shapes, {}) for shapes in [((), (), ()), ((4,), (4,), (4,)), ((2, 3), (3,), ()), ((2, 1), (1, 3), (3,))]),
}


def elementwise(name: str, arity: int, forward: Rule, derivative: Rule, torch_node: str, *, mask: Rule | None = None,
                tie: Rule | None = None, **fields: Any) -> Op:
    """A row of an elementwise op, its rules derived from its forward and its one derivative.

    `forward` is a NumPy ufunc or one of Python's operators (it gives the same bits on an
    array and on a float), or forward(xp, *args, **params). A row with `params` (leaky_relu's
    negative_slope) gets them as keywords in its forward, derivative, mask and tie, on both
    paths: the float sweeps bind a node's params to the float rules (engine.Floats).
    """
    fields.setdefault("examples", _BROADCASTS[arity])
    if isinstance(forward, np.ufunc):
        fields.setdefault("ufuncs", (forward,))
    on_arrays, on_floats = _forwards(forward)
    vjp = _derived_vjp(derivative, NUMPY, mask, tie)
    if "in_place_derivative" in fields:
        fields["in_place_vjp"] = _derived_vjp(fields.pop("in_place_derivative"), NUMPY, mask, tie)

    def rules_over(xp: Any) -> tuple[Rule, Rule]:
        return (forward if isinstance(forward, (np.ufunc, types.BuiltinFunctionType)) else partial(forward, xp),
                _derived_vjp(derivative, xp, mask, tie))

    return Op(name, arity, on_arrays, vjp, torch_node, jvp=_derived_jvp(vjp),
              floats=(on_floats, _derived_vjp(derivative, FLOATS, mask, tie)), derivative=derivative,
              rules_over=rules_over, **fields)


def _linear_jvp(forward: Rule) -> Rule:
    def jvp(tangents: Sequence[Array | None], ans: Array, *args: Array, **params: Any) -> Array:
        return forward(*(_zero_tangent(t, a) for t, a in zip(tangents, args, strict=True)), **params)

    return jvp


def _bilinear_jvp(forward: Rule) -> Rule:
    def jvp(tangents: Sequence[Array | None], ans: Array, a: Array, b: Array, **params: Any) -> Array | float:
        ta, tb = tangents
        return _sum_tangents(None if ta is None else forward(ta, b, **params),
                             None if tb is None else forward(a, tb, **params))

    return jvp


def structural(name: str, arity: int, forward: Rule, vjp: Rule, torch_node: str, *, jvp: Rule | None = None,
               bilinear: bool = False, **fields: Any) -> Op:
    """A row of an op that acts on a value's own axes: its rules take `ranks` (see above).

    A linear op's JVP is its forward on the tangents, a bilinear op's the sum of its forward
    with one tangent at a time; the others give theirs.
    """
    if jvp is None:
        jvp = _bilinear_jvp(forward) if bilinear else _linear_jvp(forward)
    return Op(name, arity, forward, vjp, torch_node, jvp=jvp, elementwise=False, **fields)


def rule_params(op: Op, given: dict[str, Any]) -> dict[str, Any]:
    """The params a row's rules take, their defaults where not given (a call's result dtype is not one)."""
    return {spec.name: spec.default for spec in op.params
            if spec.kind not in _NO_RULE_READS and not spec.unread and (spec.kind != "dtype" or op.dtype == "param")
            } | given


_NO_RULE_READS = ("legacy", "absent")  # (Param: places of PyTorch's signature alone)


def composite(name: str, arity: int, program: Rule, torch_node: str, **fields: Any) -> Op:
    """A row that is a program of other rows (Op.program): its forward, VJP and JVP are the sweeps
    over the program's own small tape (gradcli.composites), never written by hand."""
    from gradcli import composites  # (the sweeps need the tape, which needs the table: at call time)

    rules = composites.Rules(program, arity)
    fields.setdefault("sympy", rules.sympy)
    if fields.get("elementwise"):  # a program of elementwise rows: on Python floats too
        fields["floats"] = (rules.float_forward, rules.float_vjp)
    else:
        fields["elementwise"] = False
    return Op(name, arity, rules.forward, rules.vjp, torch_node, jvp=rules.jvp, program=program, **fields)


def unbroadcast(cotangent: Array, shape: Shape) -> Array:
    """Sum `cotangent` over the axes that broadcasting added to a value of `shape`."""
    if cotangent.shape == shape:
        return cotangent
    extra = cotangent.ndim - len(shape)
    if type(cotangent) is np.ndarray and cotangent.dtype in (np.float32, np.float64):
        # one sum over every axis at once, as PyTorch's sum_to, in its order (gradcli.ops.summation)
        axes = (*range(extra), *(extra + axis for axis, size in enumerate(shape)
                                 if size == 1 and cotangent.shape[extra + axis] != 1))
        return torch_sum(cotangent, axes, keepdims=True).reshape(shape) if axes else cotangent
    if extra:
        cotangent = cotangent.sum(axis=tuple(range(extra)))
    kept = tuple(axis for axis, size in enumerate(shape) if size == 1 and cotangent.shape[axis] != 1)
    if kept:
        cotangent = cotangent.sum(axis=kept, keepdims=True)
    return cotangent


def load_sympy() -> Any:
    import sympy  # only the symbolic paths pay for importing SymPy

    return sympy


def sympy_total(terms: Any) -> Array:
    """The sum of an array of SymPy expressions, as a 0-d array of one."""
    return np.asarray(load_sympy().Add(*np.asarray(terms).flat), dtype=object)


# --- applying a rule: the one place that aligns batch axes and undoes broadcasting ---------


def _align(args: Sequence[Array], leads: Sequence[int]) -> list[Array]:
    """Insert axes after the batch axis, so that the point shapes of the args right-align."""
    point_ndims = [a.ndim - lead for a, lead in zip(args, leads, strict=True)]
    target = max(point_ndims)
    if min(point_ndims) == target:  # the common case: nothing to insert
        return list(args)
    return [
        a.reshape(a.shape[:lead] + (1,) * (target - n) + a.shape[lead:]) if lead and n < target else a
        for a, lead, n in zip(args, leads, point_ndims, strict=True)
    ]


def _ranks(args: Sequence[Array], leads: Sequence[int]) -> tuple[int, ...]:
    """The number of per-point (trailing) axes of each arg: what a non-elementwise rule acts on."""
    if len(args) == 1:  # the common case, made cheap: this runs at every node of a sweep
        return (args[0].ndim - leads[0],)
    return tuple([a.ndim - lead for a, lead in zip(args, leads, strict=True)])


def call_forward(op: Op, args: Sequence[Array], params: dict[str, Any], leads: Sequence[int]) -> Array:
    """op's value; `leads` says which args carry a leading batch axis (all zeros for one point)."""
    if (op.elementwise or op.aligns) and any(leads):
        args = _align(args, leads)
    if op.elementwise:
        return op.forward(*args, **params)
    return np.asarray(op.forward(*args, **params, ranks=_ranks(args, leads)))


class Unit:
    """The seed of ones, as a rule sees it: `UNIT * x` is `x` itself, so that the first step
    of a sweep does not spend a pass over the points multiplying by one (the VJP of
    `a * b` is `(b, a)`). Only elementwise rules see it; as an array it is 1.0.
    """

    __slots__ = ()
    __array_priority__ = 1000.0  # NumPy defers to it: array * UNIT calls __rmul__

    def __mul__(self, other: Any) -> Any:
        return other

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        return 1.0 / other

    def __neg__(self) -> float:
        return -1.0

    def __float__(self) -> float:
        return 1.0

    def __array__(self, dtype: Any = None, copy: Any = None) -> Array:
        return np.ones((), dtype=dtype or float)


UNIT = Unit()


_ONE = np.ones(())


def ones_for(g: Any, like: Any) -> Any:
    """`g` as an array: UNIT becomes ones of `like`'s shape (a read-only view of one number)."""
    if g is not UNIT:
        return g
    shape = np.shape(like)
    ones = np.ndarray(shape, float, _ONE, 0, (0,) * len(shape))  # np.broadcast_to, without its cost
    ones.flags.writeable = False
    return ones


def call_vjp(op: Op, g: Array, ans: Array, args: Sequence[Array], params: dict[str, Any], leads: Sequence[int],
             wanted: Sequence[bool]) -> list[Array | None]:
    """The cotangent of each wanted arg, of that arg's own shape (broadcasting undone).

    `g` may be UNIT (all ones) for an elementwise op.
    """
    aligned = _align(args, leads) if (op.elementwise or op.aligns) and any(leads) else args
    if op.elementwise:
        cotangents = op.vjp(g, ans, *aligned, **params)
    else:
        g = ones_for(g, ans)
        cotangents = op.vjp(g, ans, *aligned, **params, ranks=_ranks(aligned, leads))
    result: list[Array | None] = []
    for arg, lined_up, cotangent, want in zip(args, aligned, cotangents, wanted, strict=True):
        if cotangent is None or not want:
            result.append(None)
            continue
        if g is UNIT and not (type(cotangent) is np.ndarray and cotangent.shape == np.shape(ans)):
            # Multiplying by g would have made an array of the output's shape: `x*2` gives 2
            # for x, `x+y` gives UNIT itself, `-x` gives -1.0.
            cotangent = np.broadcast_to(1.0 if cotangent is UNIT else cotangent, np.shape(ans))
        if cotangent.shape != lined_up.shape:
            cotangent = unbroadcast(np.asarray(cotangent) if np.isscalar(cotangent) else cotangent, lined_up.shape)
        result.append(cotangent if lined_up is arg else cotangent.reshape(arg.shape))
    return result


def call_jvp(op: Op, tangents: Sequence[Array | None], ans: Array, args: Sequence[Array], params: dict[str, Any],
             leads: Sequence[int]) -> Array:
    """The output's tangent, given the args' tangents (None: zero)."""
    if (op.elementwise or op.aligns) and any(leads):
        # A tangent has its argument's shape: a missing one is aligned as its argument would be.
        lined_up = _align([a if t is None else t for t, a in zip(tangents, args, strict=True)], leads)
        tangents = [None if t is None else lined for t, lined in zip(tangents, lined_up, strict=True)]
        args = _align(args, leads)
    assert op.jvp is not None
    if op.elementwise:
        out = op.jvp(tangents, ans, *args, **params)
    else:
        out = op.jvp(tangents, ans, *args, **params, ranks=_ranks(args, leads))
    return np.broadcast_to(np.asarray(out), np.shape(ans))


def torch_node_name(op: Op, constant: Sequence[bool], shapes: Sequence[Shape] | None = None,
                    params: dict[str, Any] | None = None) -> str:
    """The name PyTorch gives the node for `op`, given which arguments are constants."""
    if op.torch_node_rule is None:
        return op.torch_node
    return str(op.torch_node_rule(constant, shapes, **(params or {})))


def node_text(op: Op, args: Sequence[str], params: dict[str, Any]) -> str:
    """The op applied to argument texts, as the language writes it: `a * b`, `-a`, `sin(a)`, `v[1:]`."""
    if op.text is not None:
        return str(op.text(args, **params))
    if op.symbol and op.arity == 2:
        return f"{args[0]} {op.symbol} {args[1]}"
    if op.symbol and op.arity == 1:
        return f"{op.symbol}{args[0]}"
    # The params the program gave, by keyword, where they differ from their defaults.
    given = [f"{p.name}={params[p.name]!r}" for p in op.params if params.get(p.name, p.default) != p.default]
    return f"{op.name}({', '.join([*args, *given])})"


def reference_texts(op: Op) -> tuple[str, str] | None:
    """The row's test reference over the args `a`, `b`, `c`: (gradcli's program, PyTorch's call), each
    as text, defaults applied (Op.reference, Op.reference_program); None where the row has none."""
    if op.reference is None:
        return None
    args = list("abc"[: max(op.arity, 0)])
    if op.reference:
        call = op.reference
    elif op.symbol:
        call = node_text(op, args, {})  # a + b, -a: Python's operator is PyTorch's
    else:
        call = f"torch.{op.name}({', '.join(args)})"
    return op.reference_program or node_text(op, args, {}), call


def given_0d_problem(op: Op, shapes: Sequence[Shape], stand_ins: Sequence[bool], params: dict[str, Any]) -> str | None:
    """PyTorch's refusal of an optional tensor arg given 0-d (Op.given_0d), where `stand_ins` says
    which args stand in for ones left out; None where there is none."""
    if op.given_0d is None:
        return None
    positions = op.tensor_positions or tuple(range(len(shapes)))
    for place, keyword, _ in op.optional_args:
        at = positions.index(place) if place in positions else place
        if at < len(shapes) and not stand_ins[at] and tuple(shapes[at]) == ():
            return op.given_0d(keyword, shapes, params)
    return None


def shape_message(op: Op, shapes: Sequence[Shape], label: str | None = None) -> str:
    """What is wrong when the args' shapes do not fit the op (named `label`: the call a program wrote, where the op
    is a part of it)."""
    label = label or op.label
    if op.shape_message is not None:
        return str(op.shape_message(label, shapes))
    if op.params:  # (the rule's own words, which say what does not fit, come as the hint)
        return f"{label} cannot take {' and '.join(f'shape {tuple(s)}' for s in shapes)} with these arguments"
    return f"shapes {' and '.join(str(tuple(s)) for s in shapes)} do not broadcast in {label}"
