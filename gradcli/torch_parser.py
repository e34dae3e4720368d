"""PyTorch's refusal of a call for the count or the names of its args, in its words (issue #21).

gradcli.lowering asks it where gradcli cannot bind a call of a `torch.` function, a Tensor method or a
torch.nn.functional function: if PyTorch surely refuses the call too, the words of its TypeError, else
None (PyTorch may take it: gradcli's own "not supported" stands). How PyTorch reads each spelling is
recorded in gradcli/torch_signatures.py (tests/reference/make_torch_signatures.py); what it says is
ported from its argument parser (torch/csrc/utils/python_arg_parser.cpp: FunctionSignature::parse and
PythonArgParser::print_error; torch/csrc/utils/invalid_arguments.cpp: format_invalid_args) and, for a
Python function, from CPython's binding of args to parameters.

"Surely": every signature fails on what the call's shape decides (more positional args than it takes,
a keyword it has not, one given twice, a required one missing) or on a type it surely refuses (an int
for a bool); where an arg's type is not known for sure (a tensor for an int), the call may be taken.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

# NumPy's names the parser takes for its params (python_arg_parser.cpp: numpy_compatibility_arg_names)
_NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"), "other": ("x2",)}
# The functions whose Tensor params take a Python number (python_arg_parser.cpp: should_allow_numbers_as_tensors);
# every other refuses one there (torch.maximum(x, 0), torch.atan2(x, 1.0)), but where an overload takes a Number
_NUMBERS_AS_TENSORS = frozenset({"add", "add_", "div", "div_", "divide", "divide_", "mul", "mul_", "multiply",
                                 "multiply_", "sub", "sub_", "subtract", "subtract_", "true_divide", "true_divide_",
                                 "to", "_to_copy", "copy_", "floor_divide", "floor_divide_", "_conj"})


class Given(NamedTuple):
    """What PyTorch's parser sees of an arg: its Python type's name (Py_TYPE(obj)->tp_name), its items' for a tuple
    or a list, and for a tensor whether it passes for a Python number (0-d, no grad; None: not known)."""

    type: str
    items: list[str] | None = None
    scalar: bool | None = None


Describe = Callable[[Any], Given | None]


class _Param(NamedTuple):
    type: str  # the parser's type name: "Tensor", "int", "tuple of ints", "torch.dtype" ...
    name: str
    optional: bool  # has a default
    allow_none: bool  # its default is None
    keyword_only: bool
    listed: bool = False  # an int list of no size (`int[] source`): an int is refused there, as a list of a size takes one


class _Signature(NamedTuple):
    name: str
    text: str
    params: tuple[_Param, ...]

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if not p.optional)

    @property
    def max_pos_args(self) -> int:
        return sum(1 for p in self.params if not p.keyword_only)


def _split(text: str) -> list[str]:
    """A signature's params, split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def _signature(name: str, text: str, listed: Sequence[str] = ()) -> _Signature:
    params, keyword_only = [], False
    for part in _split(text[1:-1]):
        if part == "*":
            keyword_only = True
            continue
        declared, given, default = part.partition(" = ")
        kind, _, param = declared.rpartition(" ")
        params.append(_Param(kind, param, bool(given), default == "None", keyword_only,
                             kind == "tuple of ints" and param in listed))
    return _Signature(name, text, tuple(params))


def refusal(spelling: str, args: Sequence[Any], keywords: Sequence[tuple[str, Any]], describe: Describe) -> str | None:
    """PyTorch's TypeError words for `spelling(*args, **keywords)` where it surely refuses the call for
    its args' count or names; None where it may take it. A method's args start with its receiver."""
    from gradcli.torch_signatures import SIGNATURES

    entry = SIGNATURES.get(spelling)
    if entry is None:
        return None
    method = spelling.startswith("Tensor.")
    if entry[0] == "noargs":  # a C method of no args: Python's words (its keywords checked first)
        if keywords:
            return f"{entry[1]}() takes no keyword arguments"
        if len(args) > 1:
            return f"{entry[1]}() takes no arguments ({len(args) - 1} given)"
        return None
    if entry[0] == "python":
        return _python_refusal(entry[1], entry[2], len(args), [key for key, _ in keywords])
    given = list(args[1:] if method else args)
    types = [describe(value) for value in given]
    keyword_types = [(key, describe(value)) for key, value in keywords]
    if any(t is None for t in types) or any(t is None for _, t in keyword_types):
        return None
    signatures = [_signature(entry[1], text, entry[5]) for text in entry[2]]
    call = _Call(types, keyword_types)  # type: ignore[arg-type]
    hidden = [_signature(entry[1], text) for text in entry[4]]  # (deprecated ones, which PyTorch takes but does not list)
    if not all(call.surely_fails(s) for s in hidden):
        return None
    if not all(call.surely_fails(s) for s in signatures):
        return None
    if entry[3]:  # one signature: its own refusal (FunctionSignature::parse)
        return call.parse_error(signatures[0])
    count = len(given) + len(keywords)
    plausible = [s for s in signatures if s.min_args <= count <= len(s.params)]
    if len(plausible) == 1 and (words := call.parse_error(plausible[0])) is not None:
        return words
    return call.invalid_combination(entry[1], list(entry[2]))


class _Call:
    """A call's args as their Python types: (type name, its items' type names for a tuple or a list)."""

    def __init__(self, types: list[Given], keywords: list[tuple[str, Given]]) -> None:
        self.types, self.keywords = types, keywords

    def _find(self, signature: _Signature, key: str) -> int:
        for i, param in enumerate(signature.params):
            if key == param.name or key in _NUMPY_NAMES.get(param.name, ()):
                return i
        return -1

    def _given(self, signature: _Signature, param: _Param) -> Given | None:
        for key, value in self.keywords:
            if key == param.name or key in _NUMPY_NAMES.get(param.name, ()):
                return value
        return None

    def _positional(self, signature: _Signature) -> list[Given]:
        """The positional args as the signature's params take them: x.expand(3, 2)'s ints are its one size."""
        if len(self.types) > 1 and _varargs(signature, self.types):
            return [Given("tuple", [t.type for t in self.types])]
        return self.types

    def surely_fails(self, signature: _Signature) -> bool:
        params, types = signature.params, self._positional(signature)
        nargs = len(types)
        if nargs > signature.max_pos_args:
            return True
        for key, _ in self.keywords:
            at = self._find(signature, key)
            if at < 0 or at < nargs:
                return True
        for i, param in enumerate(params):
            value = types[i] if i < nargs else self._given(signature, param)
            if value is None:
                if not param.optional:
                    return True
                continue
            if _matches(param, value, signature.name) is False and not (i == 0 and _varargs(signature, self.types)):
                return True
        return False

    def parse_error(self, signature: _Signature) -> str | None:
        """FunctionSignature::parse's TypeError for this call, None where it finds none."""
        name, types = signature.name, self._positional(signature)
        nargs = len(types)
        if nargs > signature.max_pos_args:
            return _extra_args(signature, nargs)
        for i, param in enumerate(signature.params):
            keyword = i >= nargs
            value = self._given(signature, param) if keyword else types[i]
            if value is None:
                if param.optional:
                    continue
                missing = [f'"{p.name}"' for p in signature.params[i:] if not p.optional]
                return (f"{name}() missing {len(missing)} required positional argument{'s' if len(missing) == 1 else ''}: "
                        f"{', '.join(missing)}")
            if value[0] == "NoneType" and param.allow_none:
                continue
            if _matches(param, value, signature.name) is False:
                if keyword:
                    return f"{name}(): argument '{param.name}' must be {param.type}, not {value[0]}"
                return f"{name}(): argument '{param.name}' (position {i + 1}) must be {param.type}, not {value[0]}"
        for key, _ in self.keywords:
            at = self._find(signature, key)
            if at < 0:
                return f"{name}() got an unexpected keyword argument '{key}'"
            if at < nargs:
                return f"{name}() got multiple values for argument '{key}'"
        return None

    def invalid_combination(self, name: str, options: list[str]) -> str:
        """format_invalid_args: the signatures listed, with why those of the call's count of args did not match."""
        keywords = self.keywords[::-1]  # (its std::unordered_map's order: the last given first, as libstdc++ links them)
        words = f"{name}() received an invalid combination of arguments - "
        if len(options) == 1:
            option = _option(options[0])
            unmatched = _unmatched(option, keywords)
            if unmatched:
                return words + "got unrecognized keyword arguments: " + ", ".join(unmatched)
            got = self._formatted(option, keywords) if self._count_matches(option, keywords) else self._described(keywords)
            return words + f"got {got}, but expected {options[0]}"
        words += f"got {self._described(keywords)}, but expected one of:\n"
        for text in options:
            option = _option(text)
            words += f" * {text}\n"
            if self._count_matches(option, keywords):
                unmatched = _unmatched(option, keywords)
                if unmatched:
                    words += "      didn't match because some of the keywords were incorrect: " + ", ".join(unmatched) + "\n"
                else:
                    words += ("      didn't match because some of the arguments have invalid types: "
                              + self._formatted(option, keywords) + "\n")
        return words

    def _count_matches(self, option: list[tuple[str, str]], keywords: list[Any]) -> bool:
        return len(self.types) + len(keywords) == len(option)

    def _described(self, keywords: list[Any]) -> str:  # _argDesc
        parts = [t[0] for t in self.types] + [f"{key}={t[0]}" for key, t in keywords]
        text = "".join(f"{part}, " for part in parts)
        return f"({text[:-2] if self.types else text})"

    def _formatted(self, option: list[tuple[str, str]], keywords: list[Any]) -> str:  # _formattedArgDesc
        given = dict(keywords)
        text = ""
        for i in range(len(self.types) + len(keywords)):
            keyword = i >= len(self.types)
            kind, items, _ = given[option[i][1]] if keyword else self.types[i]
            mark = "" if i < len(option) and _option_matches(option[i][0], kind) else "!"
            text += mark + (f"{option[i][1]}=" if keyword else "")
            if items is not None:
                inner = ", ".join(items) + ("," if kind == "tuple" and len(items) == 1 else "")
                text += f"{kind} of " + (f"({inner})" if kind == "tuple" else f"[{inner}]")
            else:
                text += kind
            text += mark + ", "
        return f"({text[:-2] if self.types else text})"


def _option(text: str) -> list[tuple[str, str]]:
    """_parseOption: each of a signature's ", "-separated parts as (type name, name), as PyTorch splits them."""
    found = []
    for part in text[1:-1].split(", "):
        space = part.rfind(" ")
        found.append((part[:space] if space >= 0 else part, part[space + 1:]))
    return found


def _option_matches(kind: str, given: str) -> bool:  # _buildType(...)->is_matching
    if kind == "float":
        return given in ("float", "int")
    if kind == "int":
        return given == "int"
    return given == kind


def _unmatched(option: list[tuple[str, str]], keywords: list[Any]) -> list[str]:  # _tryMatchKwargs
    start = max(len(option) - len(keywords), 0)
    names = {name for _, name in option[start:]}
    return [key for key, _ in keywords if key not in names]


def _extra_args(signature: _Signature, nargs: int) -> str:
    low, high = signature.min_args, signature.max_pos_args
    if low != high:
        return f"{signature.name}() takes from {low} to {high} positional arguments but {nargs} were given"
    return (f"{signature.name}() takes {high} positional argument{'' if high == 1 else 's'} but {nargs} "
            f"{'was' if nargs == 1 else 'were'} given")


def _varargs(signature: _Signature, types: list[Any]) -> bool:
    """x.view(2, 3), x.permute(1, 0): a single positional int list takes the positional ints themselves."""
    return (signature.max_pos_args == 1 and signature.params[0].type == "tuple of ints"
            and all(t[0] == "int" for t in types))


def _matches(param: _Param, value: Given, name: str = "") -> bool | None:
    """Does the parser take this value for the param: True, False, or None where it is not sure here."""
    kind, items = value.type, value.items
    if kind == "NoneType":
        return True if param.allow_none else None
    if param.type == "Tensor":
        if kind in ("int", "float", "bool"):  # (a Python number: only where the function takes one for a tensor)
            return name in _NUMBERS_AS_TENSORS
        return True if kind in ("Tensor", "Parameter") else None
    if param.type in ("int", "SymInt"):
        return True if kind == "int" else False if kind in ("float", "str", "tuple", "list", "torch.dtype") else None
    if param.type == "bool":
        return True if kind == "bool" else False if kind in ("int", "float", "str", "tuple", "list") else None
    if param.type in ("float", "Number"):  # (a tensor passes for a number where it is 0-d and takes no grad)
        if kind == "Tensor":
            return value.scalar
        return True if kind in ("int", "float") else False if kind in ("str", "tuple", "list", "torch.dtype") else None
    if param.type == "tuple of ints":
        if kind in ("tuple", "list"):
            return True if items is not None and all(item == "int" for item in items) else None
        if kind == "int":
            return False if param.listed else None
        return None if kind == "Tensor" else False
    if param.type == "torch.dtype":  # (a dtype, or Python's int, float, bool themselves: types, never their values)
        return kind == "torch.dtype" or (False if kind in ("int", "float", "bool", "str", "tuple", "list", "Tensor") else None)
    if param.type in ("torch.memory_format", "torch.layout"):  # (its own objects alone; a device takes str and int too)
        return True if kind == param.type else False if kind in ("int", "float", "bool", "str", "tuple", "list") else None
    if param.type == "str":
        return True if kind == "str" else False if kind in ("int", "float", "bool", "tuple", "list") else None
    return None


def _python_refusal(qualname: str, params: Sequence[tuple[str, str, bool]], nargs: int,
                    keywords: list[str]) -> str | None:
    """CPython's TypeError for a call of a Python function that it cannot bind, None where it can."""
    kinds = {kind for _, kind, _ in params}
    if "VAR_KEYWORD" in kinds:
        return None
    if "VAR_POSITIONAL" in kinds:  # torch.meshgrid(*tensors, indexing=None): a keyword it has not, else None
        named = {name for name, kind, _ in params if kind in ("POSITIONAL_OR_KEYWORD", "KEYWORD_ONLY")}
        unknown = [key for key in keywords if key not in named]
        return f"{qualname}() got an unexpected keyword argument '{unknown[0]}'" if unknown else None
    positional = [(name, default) for name, kind, default in params if kind in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    by_name = {name: (i, kind) for i, (name, kind, _) in enumerate(params)}
    for key in keywords:
        if key not in by_name or by_name[key][1] == "POSITIONAL_ONLY":
            return f"{qualname}() got an unexpected keyword argument '{key}'"
        if by_name[key][0] < nargs and by_name[key][1] != "KEYWORD_ONLY":
            return f"{qualname}() got multiple values for argument '{key}'"
    if nargs > len(positional):
        defaults = sum(1 for _, default in positional if default)
        count = len(positional)
        sig = f"from {count - defaults} to {count}" if defaults else f"{count}"
        plural = "s" if defaults or count != 1 else ""
        keyword_only = sum(1 for key in keywords if by_name[key][1] == "KEYWORD_ONLY")
        extra = (f" positional argument{'s' if nargs != 1 else ''} (and {keyword_only} keyword-only argument"
                 f"{'s' if keyword_only != 1 else ''})") if keyword_only else ""
        return (f"{qualname}() takes {sig} positional argument{plural} but {nargs}{extra} "
                f"{'was' if nargs == 1 and not keyword_only else 'were'} given")
    missing = [name for i, (name, default) in enumerate(positional) if i >= nargs and not default and name not in keywords]
    if missing:
        names = [f"'{name}'" for name in missing]
        listed = names[0] if len(names) == 1 else (" and ".join(names) if len(names) == 2
                                                   else ", ".join(names[:-1]) + ", and " + names[-1])
        return f"{qualname}() missing {len(missing)} required positional argument{'s' if len(missing) != 1 else ''}: {listed}"
    return None
