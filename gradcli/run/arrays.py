"""NumPy in a run: `np.random`'s legacy seeded draws and the array arithmetic that tutorials write
beside PyTorch (np.dot, .T, np.maximum, np.square, .sum(), .copy(), `a[h < 0] = 0`, `w -= lr * g`),
computed by NumPy itself, so that a file prints what NumPy prints.

- `np.random.seed(s)` seeds the run's own `RandomState` (NumPy's legacy Mersenne Twister, its
  polar Box-Muller `randn` with the cached second value): the same draws as NumPy's global
  generator seeded so. Unseeded, it starts from fresh entropy, as NumPy does.
- Only the functions, methods and attributes named below are there: each computes and returns
  arrays or numbers, none reads or writes a file, none runs code, none sets NumPy's global state.
  Arguments are arrays, NumPy numbers, Python numbers, None, NumPy's dtypes and lists or tuples
  of those; anything else (a tensor, a string, an object of the file's) is refused.
- Every result's elements, and a product's multiply-adds, are counted from the shapes before
  NumPy is called, and refused past GRADCLI_MAX_ELEMENTS (products: 100 times that).
- What NumPy raises (shapes not aligned, a cast it refuses) is the file's exception, as Python
  prints it; NumPy's RuntimeWarnings (overflow, invalid value) are not printed.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from gradcli.errors import Limits

ARRAY_TYPES = (np.ndarray, np.generic)
DTYPES: dict[str, Any] = {name: getattr(np, name) for name in (
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_", "double", "single",
    "longlong", "intc")}

# np.<name>: elementwise (the result has the arguments' broadcast shape)
_ELEMENTWISE = {
    "abs", "absolute", "add", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "cbrt", "ceil",
    "clip", "cos", "cosh", "deg2rad", "degrees", "divide", "exp", "exp2", "expm1", "fabs", "floor", "floor_divide",
    "fmax", "fmin", "fmod", "hypot", "isfinite", "isinf", "isnan", "log", "log10", "log1p", "log2", "logaddexp",
    "maximum", "minimum", "mod", "multiply", "negative", "power", "rad2deg", "radians", "reciprocal", "remainder",
    "rint", "round", "sign", "sin", "sinh", "sqrt", "square", "subtract", "tan", "tanh", "true_divide", "trunc",
    "where", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
    "logical_not", "isclose",
}
# np.<name>: a result no larger than the arguments
_SHRINKING = {
    "sum", "mean", "max", "min", "amax", "amin", "prod", "std", "var", "argmax", "argmin", "all", "any", "allclose",
    "array_equal", "median", "cumsum", "cumprod", "copy", "reshape", "transpose", "ravel", "squeeze", "expand_dims",
    "asarray", "array", "zeros_like", "ones_like", "full_like", "sort", "argsort", "trace", "count_nonzero",
    "shape", "ndim", "size", "concatenate", "stack", "vstack", "hstack", "nonzero", "flip",
}
_PRODUCTS = {"dot", "matmul", "outer", "inner"}
_MADE = {"zeros", "ones", "full", "eye", "identity", "arange", "linspace"}  # their size from their arguments
FUNCTIONS = _ELEMENTWISE | _SHRINKING | _PRODUCTS | _MADE
RANDOM = {"seed", "randn", "rand", "random", "random_sample", "uniform", "normal", "standard_normal", "randint",
          "shuffle", "permutation"}
METHODS = {"dot", "sum", "mean", "max", "min", "prod", "std", "var", "argmax", "argmin", "all", "any", "cumsum",
           "cumprod", "copy", "reshape", "transpose", "ravel", "flatten", "squeeze", "astype", "clip", "item",
           "tolist", "round", "fill", "sort", "argsort", "nonzero", "resize"}
PROPERTIES = {"T", "shape", "ndim", "size", "dtype"}
_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "@": operator.matmul}
_IN_PLACE: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv, "//": operator.ifloordiv,
    "%": operator.imod, "**": operator.ipow, "@": operator.imatmul}


class Unsupported(Exception):
    """What the run does not do with NumPy: exit 2, naming it."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message, self.hint = message, hint


class TooLarge(Exception):
    """A result past the elements limit, counted before NumPy computes it."""

    def __init__(self, what: str, limit: str = "elements") -> None:
        super().__init__(what)
        self.what, self.limit = what, limit


class NumpyRaised(Exception):
    """What NumPy (or Python) raised: the file's exception, `kind: message`."""

    def __init__(self, problem: Exception) -> None:
        super().__init__(str(problem))
        self.kind, self.message = type(problem).__name__, str(problem).split("\n")[0]


def is_array(value: Any) -> bool:
    return isinstance(value, ARRAY_TYPES)


def _plain(value: Any, where: str, depth: int = 0) -> Any:
    """An argument NumPy may have: arrays, numbers, None, dtypes, lists and tuples of them (NumPy's 64
    dimensions deep at most)."""
    if depth > 64:
        raise Unsupported(f"{where} of lists nested more than 64 deep is not supported")
    if value is None or isinstance(value, (bool, int, float, np.ndarray, np.generic, np.dtype, slice)):
        return value
    if isinstance(value, type) and (value in DTYPES.values() or value in (int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        items = [_plain(item, where, depth + 1) for item in value]
        return tuple(items) if isinstance(value, tuple) else items
    raise Unsupported(f"{where} of a {type(value).__name__} is not supported",
                      "NumPy takes arrays, numbers and lists of numbers here (t.numpy() for a tensor)")


def _named_dtype(value: Any) -> Any:
    """dtype='float32', .astype('int64'): the NumPy type a string names (only the dtypes of DTYPES)."""
    return DTYPES[value] if isinstance(value, str) and value in DTYPES else value


def _shape(value: Any) -> tuple[int, ...]:
    return tuple(np.shape(value)) if isinstance(value, (np.ndarray, np.generic, list, tuple)) else ()


def _count(shape: Iterable[int]) -> int:
    return math.prod(int(s) for s in shape)


def _check(count: int, what: str) -> None:
    if count > Limits.get("elements"):
        raise TooLarge(f"{what} would have {count:,} elements")


def _broadcast(values: Sequence[Any], what: str) -> None:
    try:
        shape = np.broadcast_shapes(*(_shape(v) for v in values))
    except ValueError:
        return  # NumPy raises its own error, having computed nothing
    _check(_count(shape), what)


def _product(a: Any, b: Any, name: str) -> None:
    """The elements and multiply-adds of np.dot / matmul / outer / inner of a and b, from their shapes."""
    sa, sb = _shape(a), _shape(b)
    if name == "outer":
        _check(_count(sa) * _count(sb), "np.outer")
        return
    if not sa or not sb:
        _broadcast([a, b], f"np.{name}")
        return
    if name == "inner":
        out = sa[:-1] + sb[:-1]
    elif name == "matmul" and len(sa) > 2 and len(sb) > 2:
        try:
            out = np.broadcast_shapes(sa[:-2], sb[:-2]) + sa[-2:-1] + sb[-1:]
        except ValueError:
            return
    else:
        out = sa[:-1] + sb[:-2] + sb[-1:]
    _check(_count(out), f"np.{name}")
    work = _count(out) * sa[-1]
    if work > 100 * Limits.get("elements"):
        raise TooLarge(f"np.{name} of shapes {sa} and {sb} would take {work:,} multiply-adds")


def _size_argument(value: Any) -> int:
    """The elements of a shape given as an int or a tuple of ints."""
    dims = value if isinstance(value, (tuple, list)) else (value,)
    if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
        return 0  # NumPy raises its own TypeError
    return _count(max(int(d), 0) for d in dims)


def _made_count(name: str, args: Sequence[Any], kwargs: dict[str, Any]) -> int:
    if name in ("zeros", "ones", "full"):
        return _size_argument(args[0] if args else kwargs.get("shape", 0))
    if name in ("eye", "identity"):
        n = args[0] if args else kwargs.get("N", 0)
        m = args[1] if len(args) > 1 and args[1] is not None else kwargs.get("M") or n
        return _size_argument((n, m))
    if name == "linspace":
        num = args[2] if len(args) > 2 else kwargs.get("num", 50)
        return _size_argument(num)
    # arange(stop), arange(start, stop[, step])
    numbers = [a for a in args if isinstance(a, (int, float, np.number)) and not isinstance(a, bool)]
    start, stop, step = (0, numbers[0], 1) if len(numbers) == 1 else (*numbers[:2], numbers[2] if len(numbers) > 2 else 1)
    try:
        return max(0, math.ceil((float(stop) - float(start)) / float(step)))
    except (ZeroDivisionError, ValueError, OverflowError):
        return 0  # NumPy says what is wrong


def _calling(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        with np.errstate(all="ignore"):
            result = function(*args, **kwargs)
        if isinstance(result, np.ndarray) and result.dtype == object:  # Python's ints in it: no digits limit
            raise Unsupported("an array of Python objects (dtype=object) is not supported",
                              "give NumPy numbers that fit a NumPy type")
        return result
    except (ValueError, TypeError, IndexError, ZeroDivisionError, OverflowError, KeyError, AttributeError,
            np.exceptions.AxisError) as problem:
        raise NumpyRaised(problem) from None


def call(name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """np.<name>(*args, **kwargs), counted first."""
    args = [_plain(a, f"np.{name}") for a in args]
    kwargs = {k: _plain(_named_dtype(v) if k == "dtype" else v, f"np.{name}") for k, v in kwargs.items()}
    if name in _ELEMENTWISE:
        _broadcast([*args, *kwargs.values()], f"np.{name}")
    elif name in _PRODUCTS and len(args) >= 2:
        _product(args[0], args[1], name)
    elif name in _MADE:
        _check(_made_count(name, args, kwargs), f"np.{name}")
    elif name in ("concatenate", "stack", "vstack", "hstack") and args and isinstance(args[0], (list, tuple)):
        _check(sum(_count(_shape(a)) for a in args[0]), f"np.{name}")
    return _calling(getattr(np, name), *args, **kwargs)


def convert(kind: type, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """np.float32(2.5), np.int64(x): NumPy's number (or array) of that type."""
    args = [_plain(a, kind.__name__) for a in args]
    kwargs = {k: _plain(_named_dtype(v) if k == "dtype" else v, kind.__name__) for k, v in kwargs.items()}
    return _calling(kind, *args, **kwargs)


def random_call(state: np.random.RandomState, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """np.random.<name>(...) on the run's RandomState (shuffle: the file's own list, in place)."""
    given = args
    args = [_plain(a, f"np.random.{name}") for a in args]
    if name == "shuffle" and given and isinstance(given[0], list):
        args[0] = given[0]
    kwargs = {k: _plain(_named_dtype(v) if k == "dtype" else v, f"np.random.{name}") for k, v in kwargs.items()}
    if name in ("randn", "rand"):
        _check(_size_argument(tuple(args)) if args else 1, f"np.random.{name}")
    elif name == "permutation" and args and isinstance(args[0], (int, np.integer)):
        _check(int(args[0]), "np.random.permutation")
    elif name != "seed":
        size = kwargs.get("size")
        if size is None:
            keyword = {"uniform": 2, "normal": 2, "randint": 2}.get(name, 0)
            size = args[keyword] if len(args) > keyword and name in ("uniform", "normal", "randint") else (
                args[0] if args and name in ("random", "random_sample", "standard_normal") else None)
        if size is not None:
            _check(_size_argument(size), f"np.random.{name}")
    return _calling(getattr(state, name), *args, **kwargs)


def attribute(array: Any, name: str) -> Any:
    """array.T, .shape, .ndim, .size, .dtype."""
    return getattr(array, name)


def call_method(array: Any, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    if name == "astype" and args:
        args = [_named_dtype(args[0]), *args[1:]]
    args = [_plain(a, f".{name}") for a in args]
    kwargs = {k: _plain(_named_dtype(v) if k == "dtype" else v, f".{name}") for k, v in kwargs.items()}
    if name == "dot" and args:
        _product(array, args[0], "dot")
    if name == "resize":
        return _resize(array, args, kwargs)
    return _calling(getattr(array, name), *args, **kwargs)


def _resize(array: Any, args: list[Any], kwargs: dict[str, Any]) -> None:
    """a.resize(shape): the array itself takes the shape (udacity's data.resize((n, 1)), which adds an axis). Its
    elements as they were: to another count NumPy would grow or cut the array's memory, which the run does not."""
    unknown = set(kwargs) - {"refcheck"}
    if unknown:
        raise NumpyRaised(TypeError(f"'{sorted(unknown)[0]}' is an invalid keyword argument for this function"))
    dims = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else tuple(args)
    if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
        raise NumpyRaised(TypeError("'list' object cannot be interpreted as an integer" if any(
            isinstance(d, list) for d in dims) else "an integer is required"))
    if any(int(d) < 0 for d in dims):
        raise NumpyRaised(ValueError("negative dimensions not allowed"))
    if not isinstance(array, np.ndarray):
        raise Unsupported("'.resize' of a NumPy number is not supported")
    if _count(dims) != array.size:
        raise Unsupported(f"'.resize' of an array of {array.size} elements to {_count(dims)} is not supported",
                          "reshape it, or make a new array (np.zeros) of the size you want")
    if not (array.flags.c_contiguous or array.flags.f_contiguous):
        raise NumpyRaised(ValueError("resize only works on single-segment arrays"))
    if not array.flags.c_contiguous:  # (NumPy reads a transposed array's memory in its order)
        raise Unsupported("'.resize' of an array in Fortran order (a transposed one) is not supported",
                          "reshape it, or copy it first (a.copy())")
    array.shape = tuple(int(d) for d in dims)


def binary(symbol: str, left: Any, right: Any) -> Any:
    """`a + b` with an array or a NumPy number on a side, as NumPy computes it."""
    function = _OPERATORS.get(symbol)
    if function is None:
        raise Unsupported(f"'{symbol}' of arrays is not supported")
    left, right = _plain(left, f"'{symbol}'"), _plain(right, f"'{symbol}'")
    if symbol == "@":
        _product(left, right, "matmul")
    else:
        _broadcast([left, right], f"'{symbol}'")
    return _calling(function, left, right)


def in_place(symbol: str, array: np.ndarray, change: Any) -> Any:
    """`a -= b` on an array: in place, as NumPy does it (the same array; a cast it refuses raises)."""
    function = _IN_PLACE.get(symbol)
    if function is None:
        raise Unsupported(f"'{symbol}=' of arrays is not supported")
    change = _plain(change, f"'{symbol}='")
    _broadcast([array, change], f"'{symbol}='")
    return _calling(function, array, change)


def compare(test: Callable[[Any, Any], Any], left: Any, right: Any) -> Any:
    """`a < b` with an array on a side: NumPy's array of bools."""
    left, right = _plain(left, "a comparison"), _plain(right, "a comparison")
    _broadcast([left, right], "a comparison")
    return _calling(test, left, right)


def _key(key: Any) -> tuple[Any, ...]:
    items = key if isinstance(key, tuple) else (key,)
    for item in items:
        if not (item is None or item is Ellipsis or isinstance(item, (slice, np.ndarray, list))
                or (isinstance(item, (int, np.integer)) and not isinstance(item, bool))):
            raise Unsupported(f"indexing an array by a {type(item).__name__} is not supported")
    return tuple(np.asarray(item) if isinstance(item, list) else item for item in items)


def _index_count(array: np.ndarray, items: tuple[Any, ...]) -> int:
    """An upper bound of the elements of array[items]: the index arrays' broadcast shape times the
    dims that slices, `...` and the dims after the key keep."""
    picked: list[tuple[int, ...]] = []
    takes = [0 if item is None or item is Ellipsis else item.ndim if isinstance(item, np.ndarray)
             and item.dtype == np.bool_ else 1 for item in items]
    position, kept = 0, 1
    for item, take in zip(items, takes, strict=True):
        if item is Ellipsis:
            skipped = max(array.ndim - sum(takes), 0)
            kept *= _count(array.shape[position:position + skipped])
            position += skipped
        elif isinstance(item, slice) and position < array.ndim:
            kept *= array.shape[position]
        elif isinstance(item, np.ndarray):
            picked.append((int(np.count_nonzero(item)),) if item.dtype == np.bool_ else item.shape)
        position += take
    if position > array.ndim:
        return 0  # NumPy raises its IndexError
    try:
        chosen = _count(np.broadcast_shapes(*picked)) if picked else 1
    except ValueError:
        return 0
    return chosen * kept * _count(array.shape[position:])


def index(array: Any, key: Any) -> Any:
    items = _key(key)
    if isinstance(array, np.ndarray):
        _check(_index_count(array, items), "this index")
    return _calling(operator.getitem, array, items if isinstance(key, tuple) else items[0])


def set_item(array: np.ndarray, key: Any, value: Any) -> None:
    """`a[k] = v` in place, as NumPy assigns."""
    items = _key(key)
    value = _plain(value, "assigning into an array")
    _calling(operator.setitem, array, items if isinstance(key, tuple) else items[0], value)
