"""Python's collections.OrderedDict and itertools under `gradcli run`, as Python has them.

Tutorials import them for small things: `nn.Sequential(OrderedDict([...]))`, `for step in count(1):`
until a loss is small, `chain(a.parameters(), b.parameters())` for one optimizer. Every iterator here
is lazy (a Lazy of the run) and each item it gives is a step of the budget, so `count()` and
`cycle(...)` end at --max-steps or --timeout, and `list(...)` of them at the elements limit. The
other names of these modules are refused, naming what the file asked for.
"""

from __future__ import annotations

import ast
import collections
import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from gradcli.run.python import Lazy, PythonError, python_error, type_name

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

COLLECTIONS = frozenset({"OrderedDict"})
ITERTOOLS = frozenset({"count", "chain", "islice", "product", "permutations", "combinations",
                       "combinations_with_replacement", "repeat", "cycle", "zip_longest", "accumulate", "pairwise"})


class OrderedDict(collections.OrderedDict[Any, Any]):
    """collections.OrderedDict (and what a module's state_dict() is): Python's own, printed as Python 3.11
    prints one, its type named OrderedDict."""

    def __repr__(self) -> str:
        if not self:
            return "OrderedDict()"
        return "OrderedDict([" + ", ".join(f"({key!r}, {value!r})" for key, value in self.items()) + "])"

    __str__ = __repr__

    def type_name(self) -> str:
        return "OrderedDict"


def call_collections(interpreter: Interpreter, name: str, args: list[Any], kwargs: dict[str, Any],
                     node: ast.AST) -> Any:
    """OrderedDict(), OrderedDict(pairs or a mapping), OrderedDict(a=1): as dict() binds them."""
    if len(args) > 1:
        raise PythonError("TypeError", f"expected at most 1 arguments, got {len(args)}")
    made = OrderedDict()
    try:
        made.update(args[0] if args and isinstance(args[0], dict) else interpreter.collect(args[0], node) if args else {})
    except (TypeError, ValueError) as problem:
        raise python_error(problem) from None
    made.update(kwargs)
    return made


def _index(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PythonError("TypeError", f"'{type_name(value)}' object cannot be interpreted as an integer"
                          if what == "integer" else what)
    return value


def _bind(name: str, names: list[str], args: list[Any], kwargs: dict[str, Any], required: int) -> list[Any]:
    """itertools' arguments by position then keyword (None where one is left out)."""
    if len(args) > len(names):
        raise PythonError("TypeError", f"{name} expected at most {len(names)} arguments, got {len(args)}")
    bound: list[Any] = [*args, *[None] * (len(names) - len(args))]
    for key, value in kwargs.items():
        if key not in names:
            raise PythonError("TypeError", f"{name}() got an unexpected keyword argument '{key}'")
        bound[names.index(key)] = value
    if len(args) + len(kwargs) < required:
        raise PythonError("TypeError", f"{name} expected at least {required} argument{'s' if required > 1 else ''}, "
                                       f"got {len(args) + len(kwargs)}")
    return bound


def _accumulate(interpreter: Interpreter, items: Iterator[Any], func: Any, initial: Any,
                node: ast.AST) -> Iterator[Any]:
    total = initial
    started = initial is not None
    if started:
        yield total
    for item in items:
        if not started:
            total, started = item, True
        elif func is None:
            total = interpreter.binary("+", total, item, node)  # (a + b as the file's + is: tensors too)
        else:
            total = interpreter.call(func, [total, item], {}, node)
        yield total


def call_itertools(interpreter: Interpreter, name: str, args: list[Any], kwargs: dict[str, Any],
                   node: ast.AST) -> Lazy:
    """itertools.NAME(...): Python's own iterator over the run's items, each given item a step."""
    each = interpreter.each
    made: Iterator[Any]
    if name == "count":
        start, step = _bind(name, ["start", "step"], args, kwargs, 0)
        for value in (start, step):
            if value is not None and not isinstance(value, (int, float)):
                raise PythonError("TypeError", "a number is required")
        made = itertools.count(0 if start is None else start, 1 if step is None else step)
    elif name == "repeat":
        value, times = _bind(name, ["object", "times"], args, kwargs, 1)
        made = itertools.repeat(value) if times is None else itertools.repeat(value, _index(times, "integer"))
    elif name in ("chain", "product", "zip_longest"):
        if name == "chain" and kwargs:
            raise PythonError("TypeError", "chain() takes no keyword arguments")
        if name == "product":
            repeat = _index(kwargs.pop("repeat", 1), "integer")
            if kwargs:
                raise PythonError("TypeError", f"product() got an unexpected keyword argument '{next(iter(kwargs))}'")
            pools = [interpreter.collect(a, node) for a in args]  # (Python reads them all first, as here)
            made = itertools.product(*pools, repeat=repeat)
        elif name == "zip_longest":
            fill = kwargs.pop("fillvalue", None)
            if kwargs:
                raise PythonError("TypeError", f"zip_longest() got an unexpected keyword argument '{next(iter(kwargs))}'")
            made = itertools.zip_longest(*[each(a, node) for a in args], fillvalue=fill)
        else:
            made = itertools.chain(*[each(a, node) for a in args])
    elif name == "islice":
        if kwargs:
            raise PythonError("TypeError", "islice() takes no keyword arguments")
        if not 2 <= len(args) <= 4:
            raise PythonError("TypeError", f"islice expected at most 4 arguments, got {len(args)}" if args
                              else "islice expected at least 2 arguments, got 0")
        bounds = [None if value is None else _index(value, "Stop argument for islice() must be None or an integer: "
                                                          "0 <= x <= sys.maxsize.") for value in args[1:]]
        try:
            made = itertools.islice(each(args[0], node), *bounds)
        except ValueError as problem:
            raise python_error(problem) from None
    elif name in ("permutations", "combinations", "combinations_with_replacement"):
        names = ["iterable", "r"]
        iterable, r = _bind(name, names, args, kwargs, 1 if name == "permutations" else 2)
        pool = interpreter.collect(iterable, node)
        if r is not None:
            r = _index(r, "Expected int as r")
            if r < 0:
                raise PythonError("ValueError", "r must be non-negative")
        made = getattr(itertools, name)(pool, r) if r is not None or name != "permutations" else \
            itertools.permutations(pool)
    elif name == "cycle":
        (iterable,) = _bind(name, ["iterable"], args, kwargs, 1)
        made = itertools.cycle(each(iterable, node))
    elif name == "pairwise":
        (iterable,) = _bind(name, ["iterable"], args, kwargs, 1)
        made = itertools.pairwise(each(iterable, node))
    else:  # accumulate
        iterable, func, initial = _bind(name, ["iterable", "func", "initial"], args, kwargs, 1)
        made = _accumulate(interpreter, each(iterable, node), func, initial, node)
    return Lazy(f"itertools.{name} object", _counted(interpreter, made, node))


def _counted(interpreter: Interpreter, items: Iterator[Any], node: ast.AST) -> Iterator[Any]:
    for item in items:
        interpreter.tick(node)
        yield item
