"""Record how PyTorch reads a call of each function and method gradcli has (run with torch installed).

    python tests/reference/make_torch_signatures.py     # writes gradcli/torch_signatures.py

For every name of the op table (its rows, spellings and methods) that is a `torch.`, `torch.linalg.`,
`torch.special.`, `torch.fft.` or `torch.nn.functional.` function or a Tensor method, what PyTorch's
argument parser (torch/csrc/utils/python_arg_parser.cpp) or Python itself binds a call against:

- a function of PyTorch's parser with several signatures: their text as its TypeError lists them
  (`(Tensor input, tuple of ints dim, bool unbiased = True, ...)`), read from PyTorch's own message for a
  call of 40 args, which no signature takes;
- one with a single signature: that signature in the same form, made from its ATen schema (the
  parser's are made from them: `self` is `input`, an `out=` overload adds `Tensor out = None`), kept
  only where its counts agree with PyTorch's own message ("takes from 1 to 3 positional arguments");
- a method that takes no args (a C method: "TensorBase.exp() takes no arguments (1 given)");
- a Python function (torch.nn.functional's, torch.functional's, Tensor.norm): its Python signature.

gradcli.lowering reads it to refuse, in PyTorch's words, a call that PyTorch refuses for its count of
args or its keywords (gradcli.torch_parser). PyTorch itself is never a dependency of gradcli.
"""

from __future__ import annotations

import inspect
import pprint
import re
import sys
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gradcli.ops import FAMILY_FUNCTIONS, FUNCTIONS, METHODS, OPS  # noqa: E402

OUT = ROOT / "gradcli" / "torch_signatures.py"
MODULES = {"torch": torch, "torch.linalg": torch.linalg, "torch.special": torch.special, "torch.fft": torch.fft,
           "torch.nn.functional": F}
ATEN_PREFIX = {"torch": "", "torch.linalg": "linalg_", "torch.special": "special_", "torch.fft": "fft_",
               "torch.nn.functional": ""}
# the parser's type names (FunctionParameter::type_name) of the schema's (its real types, Optional[] aside)
TYPES = {"Tensor": "Tensor", "int": "int", "SymInt": "SymInt", "float": "float", "number": "Number", "Scalar": "Number",
         "bool": "bool", "ScalarType": "torch.dtype", "str": "str", "List[Tensor]": "tuple of Tensors",
         "List[Optional[Tensor]]": "tuple of Tensors", "List[float]": "tuple of floats", "Layout": "torch.layout",
         "Device": "torch.device", "MemoryFormat": "torch.memory_format", "Generator": "torch.Generator",
         "List[int]": "tuple of ints", "List[SymInt]": "tuple of ints", "List[bool]": "tuple of bools"}


def _type_name(schema_type: str) -> str:
    bare = re.sub(r"^Optional\[(.*)\]$", r"\1", schema_type)
    return TYPES.get(bare, bare)


def names() -> set[str]:
    found = set(FUNCTIONS) | set(METHODS) | {name for _, name in FAMILY_FUNCTIONS}
    for op in OPS.values():
        found |= {op.name, *op.spellings, *op.methods, *(m for m, _ in op.method_params)}
    return {name for name in found if name.isidentifier()}


def _message(call: Any) -> str | None:
    try:
        call()
    except TypeError as error:
        return str(error)
    except Exception:  # (another refusal: nothing learnt)
        return None
    return None


def _listed(message: str) -> list[str] | None:
    """The signatures an "invalid combination" message lists."""
    if "received an invalid combination of arguments" not in message:
        return None
    if "but expected one of:\n" in message:
        return [line[3:] for line in message.split("\n") if line.startswith(" * ")]
    return [message.split(", but expected ", 1)[1]]


def _counts(message: str) -> tuple[int, int] | None:
    """(min_args, max_pos_args) from "takes from A to B positional arguments" / "takes B positional argument"."""
    if (m := re.search(r"takes from (\d+) to (\d+) positional arguments but", message)):
        return int(m.group(1)), int(m.group(2))
    if (m := re.search(r"takes (\d+) positional arguments? but", message)):
        return int(m.group(1)), int(m.group(1))
    return None


def _schema_counts(schema: Any, method: bool) -> tuple[int, int]:
    arguments = [a for a in schema.arguments if not (method and a.name == "self")]
    return (sum(1 for a in arguments if not a.has_default_value()), sum(1 for a in arguments if not a.kwarg_only))


def _from_schema(aten: str, method: bool, counts: tuple[int, int]) -> str | None:
    """The parser's one signature of an ATen op, as its toString() writes it, where the counts agree."""
    schemas = [s for s in torch._C._jit_get_schemas_for_operator(f"aten::{aten}")]
    has_out = any(a.is_out for s in schemas for a in s.arguments)
    # (the Python bindings' overloads take a tensor first, or a list of them: cat(tensors, dim); exp.int, exp.float
    # are TorchScript's math)
    functional = [s for s in schemas if "out" not in s.overload_name and not any(a.is_out for a in s.arguments)
                  and s.arguments and str(s.arguments[0].real_type) in ("Tensor", "List[Tensor]")]
    fitting = [s for s in functional if _schema_counts(s, method) == counts]
    if len(fitting) > 1:  # (mul.Tensor and mul.Scalar: the parser's one signature is the Tensor one)
        fitting = [s for s in fitting if s.overload_name in ("", "Tensor")]
    if len(fitting) != 1:
        return None
    functional = fitting
    params = []
    for a in functional[0].arguments:
        if method and a.name == "self":
            continue
        name = "input" if a.name == "self" else a.name
        default = f" = {a.default_value!r}".replace(", ", ",") if a.has_default_value() else ""
        params.append((a.kwarg_only, f"{_type_name(str(a.real_type))} {name}{default}"))
    if has_out and not method:
        params.append((True, "Tensor out = None"))
    text, star = [], False
    for kwarg_only, param in params:
        if kwarg_only and not star:
            text.append("*")
            star = True
        text.append(param)
    signature = f"({', '.join(text)})"
    required = sum(1 for _, p in params if " = " not in p)
    positional = sum(1 for k, _ in params if not k)
    return signature if (required, positional) == counts else None


def _python(function: Any) -> tuple[str, str, tuple[tuple[str, str, bool], ...]] | None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    params = tuple((p.name, p.kind.name, p.default is not inspect.Parameter.empty)
                   for p in signature.parameters.values())
    return ("python", function.__qualname__, params)


_STUBS: dict[str, dict[str, list[Any]]] = {}
_STUB_TYPES = {"Tensor": "Tensor", "Number | _complex": "Number", "_int": "int", "_bool": "bool", "_float": "float",
               "Number": "Number", "_dtype": "torch.dtype"}


def _overloads(module: str, name: str) -> list[Any]:
    """The stubs' overloads of a function or a method (torch/_C/*.pyi, written from the same signatures, the
    deprecated ones included, which PyTorch's TypeError does not list)."""
    if module not in _STUBS:
        import ast

        stub = Path(torch.__file__).parent / "_C" / ("__init__.pyi" if module == "Tensor" else "_VariableFunctions.pyi")
        tree = ast.parse(stub.read_text())
        body = tree.body
        if module == "Tensor":
            body = next(node.body for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "TensorBase")
        found: dict[str, list[Any]] = {}
        for node in body:
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, []).append(node.args)
        _STUBS[module] = found
    return _STUBS[module].get(name, []) if module in ("torch", "Tensor") else []


def _hidden(module: str, name: str, listed: list[str]) -> tuple[str, ...]:
    """The signatures PyTorch's parser takes but does not list (deprecated: addcmul(input, value, tensor1, tensor2)),
    as (positional names, keyword-only names) not among the listed ones', in the listed ones' form."""
    import ast

    def names(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
        positional, _, keyword = text[1:-1].partition("*")
        return (tuple(part.split(" = ")[0].rsplit(" ", 1)[-1] for part in positional.split(", ") if part.strip()),
                frozenset(part.split(" = ")[0].rsplit(" ", 1)[-1] for part in keyword.split(", ") if part.strip()))

    known = {names(text) for text in listed}
    hidden = []
    for args in _overloads(module, name):
        positional = [a for a in [*args.posonlyargs, *args.args] if not (module == "Tensor" and a.arg == "self")]
        defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        parts = []
        for arg, default in zip(positional, defaults, strict=True):
            kind = _STUB_TYPES.get(ast.unparse(arg.annotation) if arg.annotation else "", "?")
            parts.append(f"{kind} {'input' if arg.arg == 'self' else arg.arg}" + (" = ?" if default is not None else ""))
        if args.kwonlyargs:
            parts.append("*")
            parts += [f"? {arg.arg} = ?" for arg in args.kwonlyargs]  # (out= is optional to the parser)
        text = f"({', '.join(parts)})"
        mine = names(text)
        if not any(mine[0] == theirs[0] and mine[1] <= theirs[1] for theirs in known):
            hidden.append(text)
    return tuple(dict.fromkeys(hidden))


def _unsized(aten: str) -> tuple[str, ...]:
    """The int-list params of an ATen op that take a list alone: `int[] source` (movedim's), where the parser refuses
    an int, unlike a list of a size (`int[1] dim`: sum(x, 0)). By name, over every schema of the op."""
    sized, unsized = set(), set()
    for schema in torch._C._jit_get_schemas_for_operator(f"aten::{aten}"):
        for a in schema.arguments:
            if re.sub(r"^Optional\[(.*)\]$", r"\1", str(a.real_type)) in ("List[int]", "List[SymInt]"):
                (unsized if a.N is None else sized).add("input" if a.name == "self" else a.name)
    return tuple(sorted(unsized - sized))


def entry(module: str, name: str) -> tuple[Any, ...] | None:
    owner = torch.Tensor if module == "Tensor" else MODULES[module]
    function = getattr(owner, name, None)
    if function is None or not callable(function) or isinstance(function, type):
        return None
    if inspect.isfunction(function):
        return _python(function)
    probe = torch.ones(2, 3)
    if module == "Tensor":
        # (a C method of no args; a program's a.exp(0) names it TensorBase.exp, a bound method Tensor.exp)
        if _message(lambda: getattr(probe, name)(None)) in (f"Tensor{base}.{name}() takes no arguments (1 given)"
                                                           for base in ("", "Base")):
            return ("noargs", f"TensorBase.{name}")
        message = _message(lambda: getattr(probe, name)(*[None] * 40))
    else:
        message = _message(lambda: function(*[None] * 40))
    if message is None:
        return None
    listed = _listed(message)
    parser_name = message.split("(", 1)[0]
    aten = name if module == "Tensor" else ATEN_PREFIX[module] + name
    if listed is not None:
        return ("parser", parser_name, tuple(listed), False, _hidden(module, name, listed), _unsized(aten))
    counts = _counts(message)
    if counts is None:
        return None
    signature = _from_schema(aten, module == "Tensor", counts)
    if signature is None:
        return None
    return ("parser", parser_name, (signature,), True, (), _unsized(aten))


def main() -> None:
    table: dict[str, tuple[Any, ...]] = {}
    for name in sorted(names()):
        for module in (*MODULES, "Tensor"):
            found = entry(module, name)
            if found is not None:
                table[f"{module}.{name}"] = found
    text = f'''"""GENERATED by tests/reference/make_torch_signatures.py from PyTorch {torch.__version__.split('+')[0]}: do not edit.

How PyTorch reads a call of each function and method gradcli has (see the script): spelling ->
("parser", its name in messages, its signatures as PyTorch's TypeError lists them, single?, the ones it takes
but does not list (deprecated), their types "?" where the stubs do not say, its int-list params that take a list
alone, never an int: `int[] source`, not `int[1] dim`),
("noargs", its name in messages): a C method that takes no args, or
("python", its __qualname__, its parameters as (name, kind, has a default)).
gradcli.torch_parser reads it to refuse in PyTorch's words a call that PyTorch refuses.
"""
from __future__ import annotations

from typing import Any

SIGNATURES: dict[str, tuple[Any, ...]] = {pprint.pformat(table, width=118, sort_dicts=True)[1:-1].join("{}")}
'''
    OUT.write_text(text)
    print(f"{len(table)} spellings -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
