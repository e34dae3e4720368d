"""The Python of `gradcli run` around the tensors: scopes, the file's own functions, lazy iterators
and the builtins tutorials call, as Python has them.

The interpreter (gradcli.run.interpreter) walks statements and expressions; this module holds what
they make and read: a Frame per function call (and per comprehension), a UserFunction per `def` and
`lambda` with Python's argument binding and its TypeErrors, Lazy iterators (`enumerate`, `zip`,
generator expressions: made one item at a time, so `range(10**12)` is never a list), the checks
Python's compiler makes before running (`'break' outside loop`), and the builtins. What the file does
wrong, as Python would raise it, is a PythonError (TorchError: exit 1, Python's last traceback line).
"""

from __future__ import annotations

import ast
import builtins
import operator
import random as _random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from gradcli.errors import LimitProblem, Limits, SyntaxProblem, over_limit
from gradcli.run.tensor import GradFn, Tensor, TorchError

if TYPE_CHECKING:
    from gradcli.run.interpreter import Interpreter

MAX_CALL_DEPTH = 1_000  # calls of the file's functions inside each other (Python's own default limit)


class PythonError(TorchError):
    """An exception Python raises in the file's own code; without a message, Python prints its name
    alone (`AssertionError`)."""

    def text(self) -> str:
        return f"{self.kind}: {self.message}" if self.message else self.kind


def python_error(problem: Exception) -> PythonError:
    """A Python exception met while doing what the file asked, as the file's own (KeyError's message is
    the key's repr, as Python prints it)."""
    return PythonError(type(problem).__name__, str(problem))


# --- how a block ends early: break, continue, return (the placement checks keep them inside) ------


class Break(Exception):
    pass


class Continue(Exception):
    pass


class Return(Exception):
    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value


# --- scopes and functions -----------------------------------------------------------------------------


@dataclass(eq=False)
class Frame:
    """The names of one scope: the module's, a function call's or a comprehension's. `parent` is the
    scope it was written in (closures read through it); `local` the names a function assigns
    anywhere in its body, which are its own even before they are bound (UnboundLocalError)."""

    names: dict[str, Any]
    parent: Frame | None = None
    local: frozenset[str] = frozenset()
    qualname: str = ""  # the function's, for the qualified names of the functions defined in it
    function: UserFunction | None = None  # the call's function (super() reads its class and first argument)
    is_class: bool = False  # a class body: the methods defined in it do not see its names (Python's rule)
    declared: dict[str, str] = field(default_factory=dict)  # name -> 'global' or 'nonlocal', as the body declares


@dataclass(eq=False)
class UserFunction:
    """A `def` or `lambda` of the file: its code, its defaults (evaluated where it was defined) and
    the scope it closes over."""

    name: str
    qualname: str
    node: ast.FunctionDef | ast.Lambda
    defaults: list[Any]
    kw_defaults: dict[str, Any]
    closure: Frame
    local: frozenset[str] = field(default_factory=frozenset)
    owner: UserClass | None = None  # the class whose body defined it (super() starts after it)
    declared: dict[str, str] = field(default_factory=dict)  # its `global` and `nonlocal` names
    generator: bool = False  # a `def` with `yield`: a call makes a generator, run as it is iterated
    grad_mode: bool | None = None  # @torch.no_grad() / @torch.enable_grad(): the mode its calls run in
    once_differentiable: bool = False  # @once_differentiable (a custom Function's backward): never recorded

    def __repr__(self) -> str:
        return f"<function {self.qualname} at {address(self)}>"


# --- the file's classes ---------------------------------------------------------------------------


@dataclass(eq=False)
class UserClass:
    """A `class` of the file: its bases (the file's classes, or nn.Module) and the names its body
    bound (methods, class attributes)."""

    name: str
    qualname: str
    bases: tuple[Any, ...]
    namespace: dict[str, Any]

    def mro(self) -> list[Any]:
        """Python's method resolution order (C3) over the file's classes; a native base (nn.Module)
        comes last, as `object` does."""
        sequences = [base.mro() if isinstance(base, UserClass) else [base] for base in self.bases]
        sequences.append(list(self.bases))
        order: list[Any] = [self]
        while any(sequences):
            sequences = [s for s in sequences if s]
            for sequence in sequences:
                head = sequence[0]
                if not any(head in s[1:] for s in sequences):
                    break
            else:
                raise PythonError("TypeError", "Cannot create a consistent method resolution order (MRO)")
            order.append(head)
            sequences = [s[1:] if s[0] is head else s for s in sequences]
        return order

    def lookup(self, name: str, after: UserClass | None = None) -> tuple[bool, Any]:
        """`name` in the classes of the MRO (after `after`, for super()): (found, value)."""
        order = self.mro()
        if after is not None:
            order = order[order.index(after) + 1:] if after in order else []
        for cls in order:
            if isinstance(cls, UserClass) and name in cls.namespace:
                return True, cls.namespace[name]
        return False, None

    def native(self) -> Any:
        """The native class (nn.Module) among its bases, if any."""
        for cls in self.mro():
            if not isinstance(cls, UserClass):
                return cls
        return None

    def __repr__(self) -> str:
        return f"<class '__main__.{self.qualname}'>"


@dataclass(eq=False)
class Instance:
    """An object of a file's class that is not an nn.Module: its attributes, its class."""

    cls: UserClass
    fields: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        if SHOW and self.cls.lookup("__repr__")[0]:
            return SHOW[-1](self, "__repr__")
        return f"<__main__.{self.cls.qualname} object at {address(self)}>"

    def __str__(self) -> str:
        if SHOW and self.cls.lookup("__str__")[0]:
            return SHOW[-1](self, "__str__")
        return self.__repr__()


@dataclass(eq=False)
class BoundMethod:
    """`obj.method`: the file's function with its receiver, passed as the first argument."""

    function: UserFunction
    receiver: Any

    def __repr__(self) -> str:
        return f"<bound method {self.function.qualname} of {self.receiver!r}>"


@dataclass(eq=False)
class Property:
    """`@property def x(self)` in a class (and `@x.setter`): read and written through its functions,
    before the object's own attributes, as Python's data descriptors are."""

    getter: UserFunction
    setter: UserFunction | None = None

    def __repr__(self) -> str:
        return f"<property object at {address(self)}>"


@dataclass(eq=False)
class ClassMethod:
    """`@classmethod def make(cls, ...)` in a class: bound to the class, through it or an object of it."""

    function: UserFunction

    def __repr__(self) -> str:
        return f"<classmethod({self.function!r})>"


@dataclass(eq=False)
class Super:
    """`super()` in a method: the receiver's attributes looked up after the method's class."""

    cls: UserClass
    receiver: Any

    def __repr__(self) -> str:
        return f"<super: <class '{self.cls.name}'>, <{self.cls.name} object>>"



def bind_by_name(function: str, names: list[str], args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """A native call's args bound to `names` by position, then by keyword, with Python's TypeErrors
    for a keyword it has not or gets twice (the caller has checked how many came by position)."""
    bound = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names:
            raise PythonError("TypeError", f"{function}() got an unexpected keyword argument '{key}'")
        if key in bound:
            raise PythonError("TypeError", f"{function}() got multiple values for argument '{key}'")
        bound[key] = value
    return bound

# the operators a class of the file may define (micrograd's Value): symbol -> (method, reflected method)
OPERATOR_METHODS = {"+": ("__add__", "__radd__"), "-": ("__sub__", "__rsub__"), "*": ("__mul__", "__rmul__"),
                    "/": ("__truediv__", "__rtruediv__"), "//": ("__floordiv__", "__rfloordiv__"),
                    "%": ("__mod__", "__rmod__"), "**": ("__pow__", "__rpow__"), "@": ("__matmul__", "__rmatmul__")}
UNARY_METHODS = {"-": "__neg__", "+": "__pos__"}
ALLOWED_DUNDERS = frozenset({"__init__", "__call__", "__repr__", "__str__", "__getitem__", "__len__", *UNARY_METHODS.values(),
                             *(name for pair in OPERATOR_METHODS.values() for name in pair)})
SHOW: list[Callable[[Instance, str], str]] = []  # the running interpreter's call of a __repr__ or __str__ of the file


def address(value: Any) -> str:
    return f"0x7f3e{id(value) & 0xFFFFFFFF:08x}"


def scope_of(body: list[ast.stmt], arguments: ast.arguments | None) -> tuple[frozenset[str], ast.AST | None]:
    """The names a function's body binds (its locals, as Python's compiler finds them: not those of
    the functions, lambdas and comprehensions inside it, nor those it declares global or nonlocal),
    and a `yield` or `await` if it has one."""
    names: set[str] = set()
    declared = declarations(body)
    if arguments is not None:
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        names.update(a.arg for a in every if a is not None)
    generator: ast.AST | None = None
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            stack.extend(node.decorator_list)
            if not isinstance(node, ast.ClassDef):
                stack.extend([*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)])
            continue
        if isinstance(node, ast.Lambda):
            stack.extend([*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)])
            continue
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            stack.append(node.generators[0].iter)  # the rest is the comprehension's own scope
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:  # (`except E as e` binds e, and unbinds it)
            names.add(node.name)
        elif isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)) and generator is None:
            generator = node
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(names - set(declared)), generator


_GENERATOR_STATEMENTS = (ast.For, ast.While, ast.If, ast.With)


def holds_yield(node: ast.AST) -> bool:
    """Whether a `yield` of this function is in the node (not in a function or class inside it)."""
    stack = [node]
    while stack:
        each = stack.pop()
        if isinstance(each, (ast.Yield, ast.YieldFrom)):
            return True
        if each is not node and isinstance(each, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(each))
    return False


def misplaced_yield(body: list[ast.stmt]) -> ast.AST | None:
    """The first `yield` a generator of the run cannot suspend at: one that is not a statement of
    its own (`x = yield v`), or one inside `try` or another statement than for/while/if/with."""
    for statement in body:
        if not holds_yield(statement):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, (ast.Yield, ast.YieldFrom)):
            value = statement.value.value
            if value is not None and holds_yield(value):
                return value
            continue
        if not isinstance(statement, _GENERATOR_STATEMENTS):
            return statement
        heads = [statement.iter] if isinstance(statement, ast.For) else (
            [statement.test] if isinstance(statement, (ast.While, ast.If)) else [i.context_expr for i in statement.items])
        if any(holds_yield(head) for head in heads):
            return statement
        found = misplaced_yield(statement.body) or misplaced_yield(getattr(statement, "orelse", []))
        if found is not None:
            return found
    return None


def declarations(body: list[ast.stmt]) -> dict[str, str]:
    """The names a function's body declares `global` or `nonlocal` (not those of the functions and
    classes inside it): name -> 'global' or 'nonlocal'."""
    declared: dict[str, str] = {}
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(dict.fromkeys(node.names, "global" if isinstance(node, ast.Global) else "nonlocal"))
        stack.extend(ast.iter_child_nodes(node))
    return declared


def misplaced(body: list[ast.stmt], loop: bool = False, function: bool = False) -> tuple[ast.stmt, str] | None:
    """A `break`, `continue` or `return` where Python's compiler refuses it (before anything runs),
    with Python's message."""
    for node in body:
        if isinstance(node, ast.Break) and not loop:
            return node, "'break' outside loop"
        if isinstance(node, ast.Continue) and not loop:
            return node, "'continue' not properly in loop"
        if isinstance(node, ast.Return) and not function:
            return node, "'return' outside function"
        found = None
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            found = misplaced(node.body, True, function) or misplaced(node.orelse, loop, function)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found = misplaced(node.body, False, True)
        elif isinstance(node, ast.ClassDef):
            found = misplaced(node.body, False, False)
        else:
            for name in ("body", "orelse", "finalbody"):
                found = found or misplaced(getattr(node, name, []) or [], loop, function)
            for handler in getattr(node, "handlers", []) or []:
                found = found or misplaced(handler.body, loop, function)
        if found:
            return found
    return None


def _listed(names: list[str]) -> str:
    quoted = [f"'{name}'" for name in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"


def bind_arguments(function: UserFunction, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments as the function's locals, or the TypeError Python raises, in the order
    CPython checks: keywords, then too many positionals, then what is missing."""
    spec = function.node.args
    name = f"{function.qualname}()"
    positional = [a.arg for a in [*spec.posonlyargs, *spec.args]]
    only_positional = {a.arg for a in spec.posonlyargs}
    keyword_only = [a.arg for a in spec.kwonlyargs]
    bound: dict[str, Any] = dict(zip(positional, args, strict=False))
    if spec.vararg is not None:
        bound[spec.vararg.arg] = tuple(args[len(positional):])
    extra: dict[str, Any] = {}
    passed_positional_only = []
    for key, value in kwargs.items():
        if key in only_positional and spec.kwarg is None:
            passed_positional_only.append(key)
            continue
        if key in positional[len(only_positional):] or key in keyword_only:
            if key in bound:
                raise PythonError("TypeError", f"{name} got multiple values for argument '{key}'")
            bound[key] = value
        elif spec.kwarg is not None:
            extra[key] = value
        else:
            raise PythonError("TypeError", f"{name} got an unexpected keyword argument '{key}'")
    if passed_positional_only:
        raise PythonError("TypeError", f"{name} got some positional-only arguments passed as keyword arguments: "
                                       f"'{', '.join(passed_positional_only)}'")
    if len(args) > len(positional) and spec.vararg is None:
        least = len(positional) - len(function.defaults)
        takes = f"from {least} to {len(positional)}" if least != len(positional) else f"{len(positional)}"
        plural = "" if takes == "1" else "s"
        raise PythonError("TypeError", f"{name} takes {takes} positional argument{plural} but {len(args)} "
                                       f"{'was' if len(args) == 1 else 'were'} given")
    defaults = dict(zip(positional[len(positional) - len(function.defaults):], function.defaults, strict=True))
    missing = [p for p in positional if p not in bound and p not in defaults]
    if missing:
        raise PythonError("TypeError", f"{name} missing {len(missing)} required positional argument"
                                       f"{'s' if len(missing) > 1 else ''}: {_listed(missing)}")
    for key, value in defaults.items():
        bound.setdefault(key, value)
    missing = [k for k in keyword_only if k not in bound and k not in function.kw_defaults]
    if missing:
        raise PythonError("TypeError", f"{name} missing {len(missing)} required keyword-only argument"
                                       f"{'s' if len(missing) > 1 else ''}: {_listed(missing)}")
    for key, value in function.kw_defaults.items():
        bound.setdefault(key, value)
    if spec.kwarg is not None:
        bound[spec.kwarg.arg] = extra
    return bound


class Lazy:
    """An iterator of the run (enumerate, zip, reversed, a generator expression): its items are made
    one at a time, as the loop that reads them asks."""

    def __init__(self, kind: str, items: Iterator[Any]) -> None:
        self.kind, self.items = kind, items

    def __repr__(self) -> str:
        return f"<{self.kind} at {address(self)}>"


def type_name(value: Any) -> str:
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, GradFn):
        return value.name()
    if isinstance(value, UserFunction):
        return "function"
    if isinstance(value, BoundMethod):
        return "method"
    if isinstance(value, Instance):
        return value.cls.name
    if isinstance(value, UserClass):
        return "type"
    named = getattr(value, "type_name", None)  # nn modules, optimizers
    if callable(named):
        return str(named())
    if isinstance(value, Lazy):
        return value.kind.split()[0]
    if value is None:
        return "NoneType"
    return type(value).__name__


# --- builtins -------------------------------------------------------------------------------------

Call = Callable[["Interpreter", list[Any], dict[str, Any], ast.AST], Any]


@dataclass(frozen=True)
class Builtin:
    name: str
    function: Call

    def __repr__(self) -> str:
        return f"<built-in function {self.name}>"


@dataclass(frozen=True)
class Caught:
    """An exception object: one the file caught (`except RuntimeError as e:`) or made (`ValueError("...")`),
    printed as Python prints it."""

    kind: str
    message: str
    written: str | None = None  # its args as repr writes them ('k' for KeyError('k')); None: the message's repr

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{self.type_name()}({repr(self.message) if self.written is None else self.written})"

    def type_name(self) -> str:  # (type(e).__name__: the exception's class; torch._C._LinAlgError's is _LinAlgError)
        return self.kind.rpartition(".")[2]


@dataclass(frozen=True)
class ExceptionClass(Builtin):
    """Python's own exception classes (ValueError, RuntimeError, ...): called, an exception object;
    or a class of the file deriving from one (`class StopTraining(Exception): pass`), with its base."""

    base: ExceptionClass | None = None

    def __repr__(self) -> str:
        return f"<class '{'' if self.base is None else '__main__.'}{self.name}'>"


def user_exception(name: str, base: ExceptionClass) -> ExceptionClass:
    return ExceptionClass(name, _exception(name), base)


def exception_matches(kind: str, wanted: ExceptionClass, classes: dict[str, ExceptionClass]) -> bool:
    """Is an exception of `kind` an instance of `wanted`? `classes`: the file's exception classes by name."""
    current = classes.get(kind)
    while current is not None and current.base is not None:
        if current is wanted:
            return True
        kind, current = current.base.name, current.base
    if wanted.base is not None:
        return False
    raised = getattr(builtins, kind, RuntimeError)  # (torch's own, as LinAlgError: RuntimeErrors)
    return isinstance(raised, type) and issubclass(raised, getattr(builtins, wanted.name))


def _exception(kind: str) -> Call:
    def make(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Caught:
        if kwargs:
            raise PythonError("TypeError", f"{kind}() takes no keyword arguments")
        if not args:
            return Caught(kind, "", "")
        shown, written = BUILTINS["str"].function, BUILTINS["repr"].function
        if len(args) > 1:
            text = written(interpreter, [tuple(args)], {}, node)
            return Caught(kind, text, text[1:-1])
        text = written(interpreter, [args[0]], {}, node)
        return Caught(kind, text if kind == "KeyError" else shown(interpreter, [args[0]], {}, node), text)  # (a key: its repr)

    return make


EXCEPTIONS = frozenset(name for name, value in vars(builtins).items()
                       if isinstance(value, type) and issubclass(value, BaseException))


MAX_NESTING = 1_000  # lists in lists that gradcli writes out or compares (Python's own repr stops near there)


def measure(value: Any) -> tuple[int, int]:
    """How many items writing `value` out shows, and how deep its lists nest, without recursion: a
    list that holds another twice shows it twice (`a = [a, a]` sixty times over is 2**60 items), a
    list inside itself shows as [...]."""
    containers = (list, tuple, dict, set)
    if not isinstance(value, containers):
        return 1, 0
    known: dict[int, tuple[int, int]] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        item, finished = stack.pop()
        children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
        if finished:
            count, depth = 1, 0
            for child in children:
                shown, nested = known.get(id(child), (1, 0)) if isinstance(child, containers) else (1, 0)
                count, depth = count + shown, max(depth, nested)
            known[id(item)] = (count, depth + 1)
        elif id(item) not in known:
            known[id(item)] = (1, 0)  # until its items are measured (met again inside itself: [...])
            stack.append((item, True))
            stack.extend((child, False) for child in children if isinstance(child, containers)
                         and id(child) not in known)
    return known[id(value)]


def check_printable(interpreter: Interpreter, values: list[Any], node: ast.AST) -> None:
    """Refuse, before Python's repr or == walks it, a value too big to write out or nested too deep
    for Python's own recursion."""
    count = 0
    for value in values:
        for shown_value in (value, *(value.values() if isinstance(value, dict) else
                                     value if isinstance(value, (list, tuple)) else ())):
            if isinstance(shown_value, Tensor) and id(shown_value.data) in interpreter.unset:
                raise SyntaxProblem("the values of torch.empty(...) are read here before they are written (PyTorch "
                                    "shows whatever the memory held): gradcli run does not make them up",
                                    source=interpreter.source, span=interpreter.span(node),
                                    hint="fill it first: .zero_(), .fill_(v), .uniform_(), nn.init...")
        shown, depth = measure(value)
        if depth > MAX_NESTING:
            raise LimitProblem(f"this value nests {depth:,} lists deep (gradcli run writes out and compares up to "
                               f"{MAX_NESTING:,})", source=interpreter.source, span=interpreter.span(node))
        count += shown
    if count > Limits.get("elements"):
        raise over_limit(f"writing this out would show {count:,} items", "elements", source=interpreter.source,
                         span=interpreter.span(node))


def _shown(function: Callable[[Any], str]) -> Call:
    def show(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> str:
        check_printable(interpreter, args, node)
        return _python(function)(interpreter, args, kwargs, node)

    return show


def _write(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> int:
    """sys.stdout.write(s): s as it is, no newline; the count of its characters."""
    if kwargs:
        raise PythonError("TypeError", "TextIOWrapper.write() takes no keyword arguments")
    if len(args) != 1:
        raise PythonError("TypeError", f"TextIOWrapper.write() takes exactly one argument ({len(args)} given)")
    text = args[0]
    if not isinstance(text, str):
        raise PythonError("TypeError", f"write() argument must be str, not {type_name(text)}")
    interpreter.out.write(text)
    return len(text)


def _flush(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
    if kwargs:
        raise PythonError("TypeError", "TextIOWrapper.flush() takes no keyword arguments")
    if args:
        raise PythonError("TypeError", f"TextIOWrapper.flush() takes no arguments ({len(args)} given)")


STDOUT: dict[str, Call] = {"write": _write, "flush": _flush}


def _print(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
    check_printable(interpreter, args, node)
    unknown = set(kwargs) - {"sep", "end", "flush"}
    if unknown:
        raise TorchError("TypeError", f"'{sorted(unknown)[0]}' is an invalid keyword argument for print()")
    sep = kwargs.get("sep", " ")
    end = kwargs.get("end", "\n")
    for name, given in (("sep", sep), ("end", end)):
        if given is not None and not isinstance(given, str):
            raise PythonError("TypeError", f"{name} must be None or a string, not {type_name(given)}")
    try:
        text = (" " if sep is None else sep).join(str(a) for a in args)
    except ValueError as problem:  # an int past Python's 4300 digits
        raise python_error(problem) from None
    interpreter.out.write(text + ("\n" if end is None else end))


_FORMAT_NAMES = {"Module": "module", "Size": "torch.Size", "Dtype": "torch.dtype", "Function": "builtin_function_or_method"}


def formatted(value: Any, spec: str) -> str:
    """format(value, spec) as Python does it: a spec on a value that takes none is Python's TypeError
    (named by the class Python would name), an invalid one its ValueError."""
    try:
        return format(value, spec)
    except (TypeError, ValueError, OverflowError) as problem:
        if isinstance(problem, TypeError) and spec:
            name = _FORMAT_NAMES.get(type(value).__name__, type_name(value))
            raise PythonError("TypeError", f"unsupported format string passed to {name}.__format__") from None
        raise python_error(problem) from None


class TypeOf(str):
    """type(x): its name, printed as Python prints a class (`<class 'torch.Tensor'>`)."""

    def __repr__(self) -> str:
        name = str.__str__(self)
        return f"<class '{_QUALIFIED.get(name, name)}'>"

    __str__ = __repr__


def _type_of(value: Any) -> Any:
    """type(x): a class of torch.nn as the file names it (type(m) == nn.Linear), else its name."""
    from gradcli.run import nn as torch_nn

    if isinstance(value, np.generic):
        return TypeOf(f"numpy.{type(value).__name__}")
    if isinstance(value, Tensor) and getattr(value, "parameter", False):
        return TypeOf("torch.nn.parameter.Parameter")
    if isinstance(value, torch_nn.Module) and value.cls is None:
        native = torch_nn.module_class(value.label)
        if native is not None:
            return native
    if isinstance(value, torch_nn.Optimizer):  # (type(opt) is torch.optim.SGD)
        native = torch_nn.optim_class(type(value).label)
        if native is not None:
            return native
    from gradcli.run import schedulers

    if isinstance(value, schedulers.Scheduler):
        native = schedulers.scheduler_class(type(value).label)
        if native is not None:
            return native
    return TypeOf(type_name(value))


def type_of(value: Any) -> Any:
    return _type_of(value)


def name_of(value: Any) -> str | None:
    """x.__name__ of a class or a function (its name, as Python's), None for anything else."""
    from gradcli.run import nn as torch_nn

    if isinstance(value, (UserClass, UserFunction, torch_nn.NativeClass)):
        return value.name
    if isinstance(value, TypeOf):  # (as its class is qualified: type(torch.float32).__name__ is 'dtype')
        name = str.__str__(value)
        return _QUALIFIED.get(name, name).rsplit(".", 1)[-1]
    return None


_QUALIFIED = {"Tensor": "torch.Tensor", "Size": "torch.Size", "Dtype": "torch.dtype", "ndarray": "numpy.ndarray"}


def _python(function: Callable[..., Any]) -> Call:
    def call(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        try:
            return function(*args, **kwargs)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError) as problem:
            raise python_error(problem) from None

    return call


def _len_of(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """len(x); an object of the file's class answers by its __len__, as Python asks it."""
    if len(args) == 1 and not kwargs and isinstance(args[0], Instance):
        found, method = args[0].cls.lookup("__len__")
        if found:
            length = interpreter.call(BoundMethod(method, args[0]) if isinstance(method, UserFunction) else method,
                                      [], {}, node)
            if not isinstance(length, int):
                raise PythonError("TypeError", f"'{type_name(length)}' object cannot be interpreted as an integer")
            if length < 0:
                raise PythonError("ValueError", "__len__() should return >= 0")
            return int(length)
    return _python(_len)(interpreter, args, kwargs, node)


def _len(value: Any) -> int:
    if isinstance(value, Tensor):
        if not value.data.ndim:
            raise TypeError("len() of a 0-d tensor")
        return len(value.data)
    if isinstance(value, Lazy):
        raise TypeError(f"object of type '{type_name(value)}' has no len()")
    return len(value)


def _no_keywords(function: str, kwargs: dict[str, Any]) -> None:
    if kwargs:
        raise PythonError("TypeError", f"{function}() takes no keyword arguments")


def _one(function: str, args: list[Any], at_most: int = 1) -> None:
    if len(args) > at_most:
        raise PythonError("TypeError", f"{function} expected at most {at_most} argument{'s' if at_most > 1 else ''}, "
                                       f"got {len(args)}")


def _range(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> range:
    _no_keywords("range", kwargs)
    try:
        return range(*args)  # lazy: range(10**12) is three numbers (a tensor gives its __index__)
    except (TypeError, ValueError) as problem:
        raise python_error(problem) from None


def _list(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> list[Any]:
    _no_keywords("list", kwargs)
    _one("list", args)
    return interpreter.collect(args[0], node) if args else []


def _set(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> set[Any]:
    _no_keywords("set", kwargs)
    _one("set", args)
    try:
        return set(interpreter.collect(args[0], node)) if args else set()
    except TypeError as problem:  # an unhashable item: Python's words
        raise python_error(problem) from None


def _tuple(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> tuple[Any, ...]:
    _no_keywords("tuple", kwargs)
    _one("tuple", args)
    return tuple(interpreter.collect(args[0], node)) if args else ()


def _dict(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> dict[Any, Any]:
    _one("dict", args)
    made: dict[Any, Any] = {}
    try:
        made.update(args[0] if args and isinstance(args[0], dict) else interpreter.collect(args[0], node) if args else {})
        made.update(kwargs)
    except (TypeError, ValueError) as problem:
        raise python_error(problem) from None
    return made


def _enumerate(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Lazy:
    if not args and "iterable" not in kwargs:
        raise PythonError("TypeError", "enumerate() missing required argument 'iterable' (pos 1)")
    iterable = args[0] if args else kwargs.pop("iterable")
    start = args[1] if len(args) > 1 else kwargs.pop("start", 0)
    if kwargs:
        raise PythonError("TypeError", f"'{next(iter(kwargs))}' is an invalid keyword argument for enumerate()")
    try:
        first = operator.index(start)
    except TypeError:
        raise PythonError("TypeError", f"'{type_name(start)}' object cannot be interpreted as an integer") from None
    items = interpreter.iterate(iterable, node)
    return Lazy("enumerate object", ((first + i, item) for i, item in enumerate(items)))


def _zip(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Lazy:
    strict = bool(kwargs.pop("strict", False))
    if kwargs:
        raise PythonError("TypeError", f"zip() got an unexpected keyword argument '{next(iter(kwargs))}'")
    iterators = [interpreter.iterate(a, node) for a in args]
    try:
        return Lazy("zip object", zip(*iterators, strict=strict))
    except ValueError as problem:
        raise python_error(problem) from None


def _reversed(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Lazy:
    _no_keywords("reversed", kwargs)
    if len(args) != 1:
        raise PythonError("TypeError", f"reversed expected 1 argument, got {len(args)}")
    sequence = args[0]
    if not isinstance(sequence, (list, tuple, range, str)):
        raise PythonError("TypeError", f"'{type_name(sequence)}' object is not reversible")
    kind = {list: "list_reverseiterator object", range: "range_iterator object"}.get(type(sequence), "reversed object")
    return Lazy(kind, reversed(sequence))


def _map(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Lazy:
    if kwargs:
        raise PythonError("TypeError", "map() takes no keyword arguments")
    if len(args) < 2:
        raise PythonError("TypeError", "map() must have at least two arguments.")
    function, iterators = args[0], [interpreter.iterate(a, node) for a in args[1:]]
    return Lazy("map object", (interpreter.call(function, list(items), {}, node) for items in zip(*iterators)))


def _filter(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Lazy:
    if kwargs:
        raise PythonError("TypeError", "filter() takes no keyword arguments")
    if len(args) != 2:
        raise PythonError("TypeError", f"filter expected 2 arguments, got {len(args)}")
    function, items = args[0], interpreter.iterate(args[1], node)
    kept = (item for item in items
            if interpreter.truth(item if function is None else interpreter.call(function, [item], {}, node), node))
    return Lazy("filter object", kept)


def _abs(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """abs(x): a tensor's __abs__ is torch.abs (AbsBackward0); anything else Python's abs."""
    if len(args) == 1 and not kwargs and isinstance(args[0], Tensor):
        return interpreter.call_op(".abs", [args[0]], {}, node)
    return _python(abs)(interpreter, args, kwargs, node)


def _pow(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """pow(base, exp) is base ** exp, as Python calls it (a tensor's __pow__ or __rpow__); pow(base, exp, mod)
    Python's, of ints."""
    given = [*args, *(kwargs.pop(key) for key in ("base", "exp", "mod")[len(args):] if key in kwargs)]
    if kwargs or not 2 <= len(given) <= 3:
        return _python(pow)(interpreter, args, kwargs, node)  # (Python's TypeError)
    if len(given) == 2 and (isinstance(given[0], Tensor) or isinstance(given[1], Tensor)):
        return interpreter.binary("**", given[0], given[1], node)
    return _python(pow)(interpreter, given, {}, node)


def _sum(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    if not args:
        raise PythonError("TypeError", "sum() takes at least 1 positional argument (0 given)")
    total = args[1] if len(args) > 1 else kwargs.pop("start", 0)
    if isinstance(total, str):
        raise PythonError("TypeError", "sum() can't sum strings [use ''.join(seq) instead]")
    for item in interpreter.each(args[0], node):
        total = interpreter.binary("+", total, item, node)  # 0 + t: AddBackward0, as in PyTorch
    return total


def _extreme(name: str, better: type[ast.cmpop]) -> Call:
    """min and max as Python has them: the first best item (`item < best` decides, a tensor of one
    element by its bool), over one iterable or several arguments, with key= and default=."""

    def pick(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        key = kwargs.pop("key", None)
        has_default = "default" in kwargs
        default = kwargs.pop("default", None)
        if kwargs:
            raise PythonError("TypeError", f"'{next(iter(kwargs))}' is an invalid keyword argument for {name}()")
        if not args:
            raise PythonError("TypeError", f"{name} expected at least 1 argument, got 0")
        if len(args) > 1 and has_default:
            raise PythonError("TypeError", f"Cannot specify a default for {name}() with multiple positional arguments")
        items = interpreter.each(args[0], node) if len(args) == 1 else iter(args)
        best, best_key, empty = None, None, True
        for item in items:
            score = item if key is None else interpreter.call(key, [item], {}, node)
            if empty or interpreter.truth(interpreter.compare(better, score, best_key), node):
                best, best_key, empty = item, score, False
        if empty:
            if has_default:
                return default
            raise PythonError("ValueError", f"{name}() arg is an empty sequence")
        return best

    return pick


def _truth_of_all(name: str, wanted: bool) -> Call:
    def test(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> bool:
        _no_keywords(name, kwargs)
        if len(args) != 1:
            raise PythonError("TypeError", f"{name}() takes exactly one argument ({len(args)} given)")
        for item in interpreter.each(args[0], node):
            if interpreter.truth(item, node) == wanted:
                return wanted
        return not wanted

    return test


class _Ordered:
    """A key of sorted() that holds a tensor: `<` as the run computes it (Tensor.__lt__, then its bool)."""

    def __init__(self, interpreter: Interpreter, value: Any, node: ast.AST) -> None:
        self.interpreter, self.value, self.node = interpreter, value, node

    def __lt__(self, other: _Ordered) -> bool:
        return self.interpreter.truth(self.interpreter.compare(ast.Lt, self.value, other.value), self.node)


def _sorted(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> list[Any]:
    if len(args) != 1:
        raise PythonError("TypeError", f"sorted expected 1 argument, got {len(args)}")
    key = kwargs.pop("key", None)
    reverse = interpreter.truth(kwargs.pop("reverse", False), node)
    if kwargs:
        raise PythonError("TypeError", f"sort() got an unexpected keyword argument '{next(iter(kwargs))}'")
    items = interpreter.collect(args[0], node)
    keys = items if key is None else [interpreter.call(key, [item], {}, node) for item in items]
    if any(isinstance(k, Tensor) for k in keys):  # (Python's sort asks `a < b`: a tensor's answer by its bool)
        keys = [_Ordered(interpreter, k, node) for k in keys]
    order = list(range(len(items)))
    try:
        order.sort(key=lambda i: keys[i], reverse=reverse)
    except TypeError as problem:
        raise python_error(problem) from None
    return [items[i] for i in order]


def _number(kind: type) -> Callable[..., Any]:
    def convert(*args: Any) -> Any:
        value = args[0] if args else kind()
        if isinstance(value, Tensor) and value.data.size != 1:  # (Tensor.__int__'s and __float__'s words, not .item()'s)
            raise PythonError("ValueError", "only one element tensors can be converted to Python scalars")
        if isinstance(value, Tensor):
            value = value._scalar()
        return kind(value)

    return convert


_PYTHON_TYPES: dict[str, type] = {"int": int, "float": float, "str": str, "list": list, "tuple": tuple, "dict": dict,
                                  "bool": bool}


def _is_instance(value: Any, kind: Any, classes: dict[str, ExceptionClass]) -> bool:
    if isinstance(kind, tuple):
        return any(_is_instance(value, each, classes) for each in kind)
    if isinstance(kind, UserClass):
        cls = getattr(value, "cls", None)
        return isinstance(cls, UserClass) and kind in cls.mro()
    if isinstance(kind, Builtin) and kind.name in _PYTHON_TYPES:
        return isinstance(value, _PYTHON_TYPES[kind.name]) and not isinstance(value, Tensor)
    if isinstance(kind, ExceptionClass):  # isinstance(e, ValueError) of an exception caught or made
        return isinstance(value, Caught) and exception_matches(value.kind, kind, classes)
    if (getattr(kind, "module", None), getattr(kind, "name", None)) == ("torch", "Tensor"):
        return isinstance(value, Tensor)  # (a Parameter too)
    check = getattr(kind, "instance_check", None)  # nn.Module, nn.Linear, torch.optim.SGD ...
    if check is not None:
        if check(value):
            return True
        cls = getattr(value, "cls", None)  # a file's nn.Module subclass is an nn.Module
        return isinstance(cls, UserClass) and any(getattr(base, "kind", None) is getattr(kind, "kind", 0)
                                                  for base in cls.mro())
    raise PythonError("TypeError", "isinstance() arg 2 must be a type, a tuple of types, or a union")


def _isinstance(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> bool:
    _no_keywords("isinstance", kwargs)
    if len(args) != 2:
        raise PythonError("TypeError", f"isinstance expected 2 arguments, got {len(args)}")
    return _is_instance(args[0], args[1], interpreter.exception_classes)


def _attribute_name(interpreter: Interpreter, function: str, name: Any, node: ast.AST) -> str:
    """The name getattr, setattr and hasattr were given: a string, as Python wants, and one the file could
    have written as `obj.name` (a special name or another string is refused: they reach no further)."""
    if not isinstance(name, str):
        raise PythonError("TypeError", f"attribute name must be string, not '{type_name(name)}'")
    if not name.isidentifier() or (name.startswith("__") and name.endswith("__")):
        raise interpreter.refuse(node, f"{function}() of the attribute {name!r} is not supported",
                                 "getattr, setattr and hasattr take the names `obj.name` could be written with")
    return name


def _getattr(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """getattr(obj, name[, default]): obj.name as the file would read it."""
    _no_keywords("getattr", kwargs)
    if not 2 <= len(args) <= 3:
        raise PythonError("TypeError", f"getattr expected 2 or 3 arguments, got {len(args)}")
    name = _attribute_name(interpreter, "getattr", args[1], node)
    try:
        return interpreter.attribute_of(args[0], name, node)
    except TorchError as problem:
        if problem.kind != "AttributeError" or len(args) == 2:
            raise
        return args[2]


def _hasattr(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> bool:
    _no_keywords("hasattr", kwargs)
    if len(args) != 2:
        raise PythonError("TypeError", f"hasattr expected 2 arguments, got {len(args)}")
    name = _attribute_name(interpreter, "hasattr", args[1], node)
    try:
        interpreter.attribute_of(args[0], name, node)
    except TorchError as problem:
        if problem.kind != "AttributeError":
            raise
        return False
    return True


def _setattr(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> None:
    """setattr(obj, name, value): obj.name = value (MorvanZhou's setattr(self, 'fc%i' % i, fc), a module's
    submodule registered as the assignment registers it)."""
    _no_keywords("setattr", kwargs)
    if len(args) != 3:
        raise PythonError("TypeError", f"setattr expected 3 arguments, got {len(args)}")
    interpreter.set_attribute(args[0], _attribute_name(interpreter, "setattr", args[1], node), args[2], node)


def _super(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Super:
    """super() in a method (its class and its first argument), or super(Class, obj)."""
    _no_keywords("super", kwargs)
    if len(args) == 2:
        if not isinstance(args[0], UserClass):
            raise PythonError("TypeError", f"super() argument 1 must be a type, not {type_name(args[0])}")
        return Super(args[0], args[1])
    if args:
        raise interpreter.refuse(node, "super() with one argument is not supported", "write super() or super(Class, self)")
    frame: Frame | None = interpreter.frame
    while frame is not None and frame.function is None:
        frame = frame.parent
    function = None if frame is None else frame.function
    if frame is None or function is None or function.owner is None:
        raise PythonError("RuntimeError", "super(): no arguments")
    spec = function.node.args
    first = [*spec.posonlyargs, *spec.args]
    if not first or first[0].arg not in frame.names:
        raise PythonError("RuntimeError", "super(): no arguments")
    return Super(function.owner, frame.names[first[0].arg])


def _next(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """next(iterator[, default]): the next item of a generator of the run (model.parameters(), zip, ...)."""
    if kwargs or not 1 <= len(args) <= 2:
        raise PythonError("TypeError", f"next expected 1 or 2 arguments, got {len(args) + len(kwargs)}")
    source = args[0]
    if not isinstance(source, Lazy):
        raise PythonError("TypeError", f"'{type_name(source)}' object is not an iterator")
    interpreter.tick(node)
    for item in source.items:
        return item
    if len(args) == 2:
        return args[1]
    raise PythonError("StopIteration", "")


def _iter(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    if kwargs or len(args) != 1:
        raise PythonError("TypeError", f"iter expected 1 argument, got {len(args) + len(kwargs)}")
    if isinstance(args[0], Lazy):
        return args[0]
    return Lazy(f"{type_name(args[0])}_iterator object", interpreter.each(args[0], node))


def _ord(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """ord(c) of a str, chr(i) of an int, as Python answers them (hunkim's 13_1 makes names ASCII codes)."""
    if kwargs or len(args) != 1:
        raise PythonError("TypeError", f"ord() takes exactly one argument ({len(args) + len(kwargs)} given)")
    if not isinstance(args[0], str):
        raise PythonError("TypeError", f"ord() expected string of length 1, but {type_name(args[0])} found")
    return _python(ord)(interpreter, args, kwargs, node)


def _chr(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    if kwargs or len(args) != 1:
        raise PythonError("TypeError", f"chr() takes exactly one argument ({len(args) + len(kwargs)} given)")
    if not isinstance(args[0], int):
        raise PythonError("TypeError", f"'{type_name(args[0])}' object cannot be interpreted as an integer")
    return _python(chr)(interpreter, args, kwargs, node)


def _format(interpreter: Interpreter, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> str:
    """format(value, spec): what the f-string {value:spec} gives (a tensor's __format__ included)."""
    if kwargs:
        raise PythonError("TypeError", "format() takes no keyword arguments")
    if not 1 <= len(args) <= 2:
        raise PythonError("TypeError", f"format expected at {'least 1 argument' if not args else 'most 2 arguments'}, "
                                       f"got {len(args)}")
    spec = args[1] if len(args) == 2 else ""
    if not isinstance(spec, str):
        raise PythonError("TypeError", f"format() argument 2 must be str, not {type_name(spec)}")
    check_printable(interpreter, args[:1], node)
    interpreter.check_width(spec, node)
    return formatted(args[0], spec)


BUILTINS: dict[str, Builtin] = {name: Builtin(name, function) for name, function in {
    "ord": _ord,
    "chr": _chr,
    "next": _next,
    "iter": _iter,
    "id": _python(id),  # (an object of the run: its address, as CPython's id is)
    "print": _print,
    "len": _len_of,
    "float": _python(_number(float)),
    "int": _python(_number(int)),
    "bool": lambda interpreter, args, kwargs, node: interpreter.truth(args[0], node) if args else False,
    "str": _shown(str),
    "repr": _shown(repr),
    "format": _format,
    "abs": _abs,
    "pow": _pow,
    "round": _python(round),
    "list": _list,
    "tuple": _tuple,
    "dict": _dict,
    "set": _set,
    "type": _python(lambda v: _type_of(v)),
    "range": _range,
    "slice": _python(slice),  # (an index as x[1:3] writes it: x[slice(1, 3)])
    "enumerate": _enumerate,
    "zip": _zip,
    "reversed": _reversed,
    "sorted": _sorted,
    "map": _map,
    "filter": _filter,
    "sum": _sum,
    "min": _extreme("min", ast.Lt),
    "max": _extreme("max", ast.Gt),
    "any": _truth_of_all("any", True),
    "all": _truth_of_all("all", False),
    "isinstance": _isinstance,
    "getattr": _getattr,
    "hasattr": _hasattr,
    "setattr": _setattr,
    "super": _super,
}.items()}
BUILTINS.update({name: ExceptionClass(name, _exception(name)) for name in EXCEPTIONS})


# --- Python's random module ----------------------------------------------------------------------

RANDOM_FUNCTIONS = frozenset({"seed", "random", "randint", "randrange", "uniform", "choice", "shuffle", "sample",
                              "gauss", "normalvariate", "getrandbits"})


class PythonRandom(_random.Random):
    """The run's own random.Random: Python's Mersenne Twister and its algorithms, seeded by the
    file's random.seed (unseeded, from the system as Python does), shared with nothing else."""


def call_random(interpreter: Interpreter, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
    """random.NAME(...) on the run's instance, as Python runs it, after the checks that keep it
    bounded (a sample never past the elements limit, getrandbits never past the digits limit)."""
    engine = interpreter.python_random
    if name == "shuffle":
        if len(args) != 1 or kwargs or not isinstance(args[0], list):
            raise interpreter.refuse(node, "random.shuffle of anything but a list is not supported")
        interpreter.tick(node)
    if name == "sample":
        count = args[1] if len(args) > 1 else kwargs.get("k")
        if isinstance(count, int) and count > Limits.get("elements"):
            raise over_limit(f"this list would have {count:,} items", "elements", source=interpreter.source,
                             span=interpreter.span(node))
        if args and not isinstance(args[0], (list, tuple, str, range)):
            raise PythonError("TypeError", "Population must be a sequence.  For dicts or sets, use sorted(d).")
    if name == "getrandbits" and args and isinstance(args[0], int) and args[0] * 0.302 > Limits.get("int_digits"):
        raise over_limit(f"this integer would have about {int(args[0] * 0.302):,} digits", "int_digits",
                         source=interpreter.source, span=interpreter.span(node))
    if name == "choice" and args and not isinstance(args[0], (list, tuple, str, range)):
        raise interpreter.refuse(node, f"random.choice of a {type_name(args[0])} is not supported",
                                 "choose from a list, tuple, string or range")
    try:
        return getattr(engine, name)(*args, **kwargs)
    except (TypeError, ValueError, IndexError, OverflowError) as problem:
        raise python_error(problem) from None


# --- methods of Python's lists, dicts and strings --------------------------------------------------

METHODS: dict[type, frozenset[str]] = {
    list: frozenset({"append", "extend", "pop", "insert", "index", "count", "reverse", "copy", "clear", "remove"}),
    dict: frozenset({"items", "keys", "values", "get", "pop", "update", "setdefault", "copy", "clear"}),
    set: frozenset({"add", "discard", "remove", "pop", "copy", "clear", "update"}),
    str: frozenset({"format", "join", "upper", "lower", "strip", "lstrip", "rstrip", "split", "replace", "startswith",
                    "endswith", "title", "capitalize", "find", "rfind", "index", "rindex", "count", "isdigit", "isalpha",
                    "isalnum", "isspace", "splitlines", "partition", "rpartition"}),
    slice: frozenset({"indices"}),
}


def call_python_method(interpreter: Interpreter, receiver: Any, name: str, args: list[Any], kwargs: dict[str, Any],
                       node: ast.AST) -> Any:
    """A method of a list, dict or string, as Python runs it, after the checks that keep it bounded
    (a list or string never grows past the elements limit in one call)."""
    limit = Limits.get("elements")
    if name == "update" and isinstance(receiver, set):
        args = [interpreter.collect(arg, node) for arg in args]
        if len(receiver) + sum(len(arg) for arg in args) > limit:
            raise over_limit(f"this set would have {len(receiver) + sum(len(arg) for arg in args):,} items",
                             "elements", source=interpreter.source, span=interpreter.span(node))
    elif name == "add" and isinstance(receiver, set) and len(receiver) >= limit:
        raise over_limit(f"this set would have {len(receiver) + 1:,} items", "elements", source=interpreter.source,
                         span=interpreter.span(node))
    if name == "extend" and isinstance(receiver, list):
        args = [interpreter.collect(args[0], node)] if len(args) == 1 else args
        if len(args) == 1 and len(receiver) + len(args[0]) > limit:
            raise over_limit(f"this list would have {len(receiver) + len(args[0]):,} items", "elements",
                             source=interpreter.source, span=interpreter.span(node))
    elif name == "join" and isinstance(receiver, str) and len(args) == 1:
        items = interpreter.collect(args[0], node)
        length = sum(len(i) for i in items if isinstance(i, str)) + len(receiver) * max(len(items) - 1, 0)
        if length > limit:
            raise over_limit(f"this string would have {length:,} characters", "elements", source=interpreter.source,
                             span=interpreter.span(node))
        args = [items]
    elif name == "replace" and isinstance(receiver, str) and len(args) >= 2 and all(isinstance(a, str) for a in args[:2]):
        length = len(receiver) + (receiver.count(args[0]) if args[0] else len(receiver) + 1) * len(args[1])
        if length > limit:
            raise over_limit(f"this string would have {length:,} characters", "elements", source=interpreter.source,
                             span=interpreter.span(node))
    try:
        return getattr(receiver, name)(*args, **kwargs)
    except (TypeError, ValueError, KeyError, IndexError, OverflowError) as problem:
        raise python_error(problem) from None
