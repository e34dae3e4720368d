"""gradcli/table.py, generated from the op table: what the parser and the scalar path read without it.

    python tests/reference/make_scalar_table.py        # writes gradcli/table.py

Loading the op table (gradcli.ops) loads NumPy and builds every row; a program of numbers needs
neither. This writes, from the rows themselves (nothing here lists an op):

- the language's data that the parser reads: the operators' precedences, the methods, the
  properties and fields, the constants, the dtypes' names, the names of the functions;
- the rows of numbers: each elementwise row with float rules and no params, its forward and VJP
  on Python floats written out as straight-line code. They are the row's own rules
  (`Op.rules_over`), run once on stand-ins that record each operation, in the order it is done, so
  the code does what the row's float rules do, step for step, on the same functions
  (gradcli.float_math); a rule that branches on a value cannot be recorded, and its row is left
  to the table. Each row's code is then held to the row's float rules, bit for bit, at special
  and ordinary points, and left out if it differs anywhere;
- how each spelling is lowered: `a + b`, `-a`, `sin(a)`, `torch.atan2(a, b)`, `a.exp()`, each
  compiled by the real tape builder, which says the row it binds to;
- what `graph` shows of each row's node: the name PyTorch gives it and the order of its
  next_functions, for each way its args may be Python numbers (ops.torch_node_name and
  torch_graph.next_functions, which read the same row);
- for `explain`, each row's definition as the language writes it (`a * b`, `log(a)`) and the local derivative
  of each arg as SymPy prints it (`1/a`), cut at the args' places (gradcli.formulas); and for each operator's
  row with a number written in the program as one arg, the derivative with that number put in (`3*a**2` for
  `a ** 3`), for the numbers of LITERALS: the scalar path leaves an edge of another number to the table;
- for `hessian`, the row that differentiates each function and operator the rows' float VJPs
  apply, as gradcli.dual's Dual differentiates NumPy's ufunc of it (its _UFUNC_OPS), or "" for
  a piecewise constant one (its _CONSTANT_UFUNCS).

tests/test_scalar.py fails while gradcli/table.py is not what this writes: regenerate after
changing a row.
"""

from __future__ import annotations

import itertools
import math
import pprint
import re
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gradcli import float_math, lowering, ops  # noqa: E402
from gradcli.formulas import SLOT, Form, Template, cut, expression_of, form, placeholders  # noqa: E402
from gradcli.tape import APPLY, INPUT, compile_program  # noqa: E402

TARGET = ROOT / "gradcli" / "table.py"
EDGES = [-710.0, -25.0, -2.5, -1.0, -0.5, -0.0, 0.0, 1e-310, 0.3, 0.5, 1.0, 2.0, 21.0, 710.0, 1e300, math.inf,
         -math.inf, math.nan]
PAIR_EDGES = [-2.5, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 3.0, 1e300, math.inf, -math.inf, math.nan]
PREFIXES = ("", "torch.", "np.", "math.", "F.")
# the numbers explain's formulas are printed with at generation time, as one arg of an operator (x ** 3, 2 * x, x / 10)
LITERALS = sorted({float(n) for n in range(-10, 11)} | {float(n) for n in (100, 1000)}
                  | {sign * part for part in (0.5, 0.25, 0.75, 1.5, 2.5, 0.1, 0.2) for sign in (1.0, -1.0)})


class Untraceable(Exception):
    """The rule did something the straight-line code cannot: it branched on a value, or called NumPy."""


def text_of(value: Any) -> str:
    if isinstance(value, Traced):
        return value.code
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):  # (a NumPy float too: the same arithmetic)
        number = float(value)
        if math.isnan(number):
            raise Untraceable("a NaN constant")
        return repr(number) if math.isfinite(number) else ("math.inf" if number > 0 else "-math.inf")
    raise Untraceable(f"a constant of type {type(value).__name__}")


class Recorder:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def emit(self, expression: str) -> Traced:
        name = f"t{len(self.lines)}"
        self.lines.append(f"{name} = {expression}")
        return Traced(self, name)


class Traced:
    """A float the rule computes on, recording each operation as a line of code."""

    __array_ufunc__ = None  # a NumPy function called on it fails: that rule calls NumPy itself

    def __init__(self, recorder: Recorder, code: str) -> None:
        self.recorder = recorder
        self.code = code

    def __bool__(self) -> bool:
        raise Untraceable("a branch on a value")

    def __float__(self) -> float:
        raise Untraceable("float() of a value")

    def __neg__(self) -> Traced:
        return self.recorder.emit(f"-{self.code}")

    def __pos__(self) -> Traced:
        return self.recorder.emit(f"+{self.code}")

    def __abs__(self) -> Traced:
        return self.recorder.emit(f"abs({self.code})")

    def __invert__(self) -> Traced:
        return self.recorder.emit(f"~{self.code}")

    __hash__ = None  # type: ignore[assignment]


def _binary(symbol: str, reflected: bool = False) -> Any:
    def apply(self: Traced, other: Any) -> Traced:
        left, right = (text_of(other), self.code) if reflected else (self.code, text_of(other))
        return self.recorder.emit(f"{left} {symbol} {right}")

    return apply


for _name, _symbol in (("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("pow", "**"), ("mod", "%"),
                       ("floordiv", "//"), ("and", "&"), ("or", "|")):
    setattr(Traced, f"__{_name}__", _binary(_symbol))
    setattr(Traced, f"__r{_name}__", _binary(_symbol, reflected=True))
for _name, _symbol in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="), ("eq", "=="), ("ne", "!=")):
    setattr(Traced, f"__{_name}__", _binary(_symbol))


def recording_namespace(recorder: Recorder) -> types.SimpleNamespace:
    """float_math.FLOATS's functions, each call recorded as `xp.name(...)`."""
    def call(name: str) -> Any:
        return lambda *args: recorder.emit(f"xp.{name}({', '.join(text_of(a) for a in args)})")

    return types.SimpleNamespace(**{name: call(name) for name in vars(float_math.FLOATS)})


def eligible(op: ops.Op) -> bool:
    """A row the scalar path can apply as it is: elementwise on floats, no params, one node, a float."""
    return (op.elementwise and op.rules_over is not None and op.floats is not None and op.program is None
            and not op.params and op.arity in (1, 2) and op.differentiable and not op.boolean and not op.compares
            and op.index_from is None and not op.integer_parts and not op.parts and op.identity_when is None
            and not op.optional_args and op.with_dim is None and op.float_index is None)


def function(name: str, arguments: list[str], lines: list[str], result: str) -> str:
    body = "".join(f"    {line}\n" for line in lines)
    return f"def {name}({', '.join(f'{a}: float' for a in arguments)}) -> Any:\n{body}    return {result}\n"


def _needed(lines: list[str], result: str) -> list[str]:
    """The lines `result` is computed from: the cotangent of one arg needs not the others' (pow's exponent's log)."""
    wanted = set(re.findall(r"\bt\d+\b", result))
    kept = []
    for line in reversed(lines):
        name, _, expression = line.partition(" = ")
        if name in wanted:
            kept.append(line)
            wanted |= set(re.findall(r"\bt\d+\b", expression))
    return kept[::-1]


def record(op: ops.Op, key: str) -> str:
    """The row's forward and VJP as code: `{key}_forward(a, b)`, and `{key}_vjp0(g, ans, a, b)` and so on, the
    cotangent of each arg alone (None where none flows)."""
    assert op.rules_over is not None
    args = list("ab"[: op.arity])
    recorder = Recorder()
    forward, vjp = op.rules_over(recording_namespace(recorder))
    traced = [Traced(recorder, a) for a in args]
    if isinstance(forward, np.ufunc):
        out = recorder.emit(f"ufunc({forward.__name__!r})({', '.join(args)})")
    else:
        out = forward(*traced)
    forward_code = function(f"{key}_forward", args, recorder.lines, text_of(out))
    recorder = Recorder()
    _, vjp = op.rules_over(recording_namespace(recorder))
    cotangents = vjp(Traced(recorder, "g"), Traced(recorder, "ans"), *[Traced(recorder, a) for a in args])
    if not isinstance(cotangents, tuple) or len(cotangents) != op.arity:
        raise Untraceable("not one cotangent per arg")
    vjps = [function(f"{key}_vjp{i}", ["g", "ans", *args], _needed(recorder.lines, text_of(c)), text_of(c))
            for i, c in enumerate(cotangents)]
    return "\n\n".join([forward_code, *vjps])


def _run(rule: Any, *args: float) -> Any:
    try:
        return rule(*args)
    except (ValueError, ArithmeticError) as problem:
        return type(problem).__name__


def _bits(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_bits(v) for v in value)
    if isinstance(value, str) or value is None:
        return value
    return float(value).hex() if not math.isnan(value) else ("nan", math.copysign(1.0, value))


def agrees(op: ops.Op, code: str, key: str) -> bool:
    """The recorded code gives the row's float rules' bits (or raises where they raise) everywhere tried."""
    assert op.floats is not None
    space: dict[str, Any] = {"xp": float_math.FLOATS, "ufunc": float_math.ufunc, "math": math, "Any": Any}
    exec(compile(code, f"<{key}>", "exec"), space)  # (code written above from the row's own rules)
    forward, vjps = space[f"{key}_forward"], [space[f"{key}_vjp{i}"] for i in range(op.arity)]
    rng = np.random.default_rng(26)
    points = list(itertools.product(EDGES if op.arity == 1 else PAIR_EDGES, repeat=op.arity))
    points += [tuple(rng.uniform(-3, 3, op.arity).tolist()) for _ in range(200)]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for point in points:
            ours, theirs = _run(forward, *point), _run(op.floats[0], *point)
            if _bits(ours) != _bits(theirs):
                return False
            if isinstance(ours, str):
                continue
            for g in (1.0, -0.75, math.nan):
                theirs = _run(op.floats[1], g, float(ours), *point)
                if isinstance(theirs, str):  # (NumPy's sweep answers there; tests/test_scalar.py holds the outcomes)
                    continue
                if [_bits(_run(vjp, g, float(ours), *point)) for vjp in vjps] != [_bits(t) for t in theirs]:
                    return False
    return True


def lowered(source: str, rows: dict[int, str]) -> str | None:
    """The key of the scalar row that `source`, a call or operator on the inputs a (and b), compiles to alone."""
    try:
        tape = compile_program(source)
    except Exception:  # (not a call this spelling takes: any error of the table's)
        return None
    applies = [node for node in tape.nodes if node.kind == APPLY]
    inputs = [node.index for node in tape.nodes if node.kind == INPUT]
    if len(applies) != 1 or len(tape.nodes) != len(inputs) + 1 or applies[0].params:
        return None
    node = applies[0]
    if node.args != tuple(inputs) or [tape.nodes[i].name for i in inputs] != list("ab"[: len(inputs)]):
        return None
    return rows.get(id(node.op))


def graph_facts(op: ops.Op) -> dict[tuple[bool, ...], tuple[str, tuple[int, ...]]]:
    """For each pattern of Python numbers among the args (all but all numbers, which folds): the node's name
    and its next_functions' arg positions, as torch_graph.next_functions orders them (a number is no input of a
    Tensor-Scalar node; an arg at a position listed is its node where it takes a gradient, else None)."""
    facts = {}
    for numbers in itertools.product((False, True), repeat=op.arity):
        if all(numbers):
            continue
        name = ops.torch_node_name(op, list(numbers), [()] * op.arity, {})
        if name != ops.torch_node_name(op, list(numbers), None, {}):  # (the same without --at's shapes)
            raise Untraceable("a node name that depends on shapes")
        positions = list(range(op.arity))
        flags = list(numbers)
        if op.reflects and numbers[0]:
            positions.reverse()
            flags.reverse()
        facts[numbers] = (name, tuple(p for p, number in zip(positions, flags, strict=True)
                                      if not (number and name in ops.SCALAR_OVERLOADS)))
    return facts


# The operators the float VJPs apply to values (and the NumPy ufunc a Dual gets for each)
_OPERATORS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "neg": "negative"}


def dual_rows(rows: dict[int, str]) -> dict[str, str]:
    """The operators and xp's functions -> the row whose float VJPs differentiate them on dual numbers, as
    gradcli.dual.Dual differentiates the NumPy ufunc; "" for a piecewise constant ufunc (its derivative is zero).
    Those a Dual spells as other ufuncs (square, reciprocal) are left out: the scalar path's Hessian then hands
    back."""
    from gradcli import dual

    names = {symbol: getattr(np, ufunc) for symbol, ufunc in _OPERATORS.items()}
    names |= {name: getattr(np, name) for name in vars(float_math.FLOATS) if isinstance(getattr(np, name, None),
                                                                                         np.ufunc)}
    names["power"] = np.power  # (NUMPY.power, on a Dual, is NumPy's power)
    found = {}
    for name, ufunc in names.items():
        if ufunc in dual._CONSTANT_UFUNCS:
            found[name] = ""
        elif ufunc in dual._UFUNC_OPS and dual._UFUNC_OPS[ufunc] in {row for row in rows.values()}:
            found[name] = dual._UFUNC_OPS[ufunc]
    return dict(sorted(found.items()))


def explained(names: list[str]) -> tuple[dict[str, Template], dict[str, tuple[Template | None, ...]]]:
    """Each row's definition (ops.node_text) and the local derivative of each of its args (SymPy's), as templates."""
    from gradcli.symbolic import local_derivative_template

    definitions, derivatives = {}, {}
    for name in names:
        op = ops.OPS[name]
        definitions[name] = cut(ops.node_text(op, [f"{SLOT}{i}" for i in range(op.arity)], {}))
        derivatives[name] = tuple(local_derivative_template(op, op.arity, position, {}) for position in range(op.arity))
    return definitions, derivatives


def literal_derivatives(calls: dict[tuple[str, int], str]) -> dict[tuple[str, int, float], Template | None]:
    """(an operator's row, the position of its arg that takes a gradient, the number written as its other arg) -> the
    local derivative with that number put in, for the numbers of LITERALS (a number left of a reflected operator
    is not the scalar path's)."""
    from gradcli.symbolic import local_derivative_template

    found = {}
    for name in sorted({name for (symbol, count), name in calls.items() if count == 2 and symbol in ops.BINARY_OPERATORS}):
        op = ops.OPS[name]
        for position, number_at in ((0, 1), (1, 0)):
            if number_at == 0 and op.reflected is not None:
                continue
            for number in LITERALS:
                found[(name, position, number)] = local_derivative_template(op, 2, position, {}, {number_at: number})
    return found


def sympy_forms(names: list[str]) -> dict[str, Form | None]:
    """Each row's SymPy expression over placeholders as data (formulas.form), for explain of a number LITERALS does
    not hold; None where the row has no SymPy rule or its expression is not held as data."""
    found: dict[str, Form | None] = {}
    for name in names:
        op = ops.OPS[name]
        found[name] = None
        if op.sympy is None or not op.elementwise:
            continue
        slots = placeholders(op.arity)
        try:
            expression = op.sympy(*slots)
            data = form(expression)
        except (TypeError, ValueError, AttributeError, NotImplementedError):
            continue
        if expression_of(data, slots) == expression:
            found[name] = data
    return found


def _key(name: str) -> str:
    return "_" + re.sub(r"\W", "_", name)


def generate() -> str:
    rows: dict[int, str] = {}
    codes: list[str] = []
    entries: list[str] = []
    graph: dict[str, dict[tuple[bool, ...], tuple[str, tuple[int, ...]]]] = {}
    for op in ops.OPS.values():
        if not eligible(op):
            continue
        key = _key(op.name)
        try:
            code = record(op, key)
            facts = graph_facts(op)
        except Exception:  # Untraceable, or a rule that took another way on the stand-ins (`xp is FLOATS`)
            continue
        if not agrees(op, code, key):
            continue
        rows[id(op)] = op.name
        graph[op.name] = facts
        codes.append(code)
        vjps = "".join(f"{key}_vjp{i}, " for i in range(op.arity)).rstrip(" ")
        entries.append(f"    {op.name!r}: Row({op.name!r}, {op.arity}, {key}_forward, ({vjps}), {op.reflected is not None}),")
    by_id = {id(op): op for op in ops.OPS.values()}
    calls: dict[tuple[str, int], str] = {}
    for symbol, op in ops.BINARY_OPERATORS.items():
        if id(op) in rows and lowered(f"a {symbol} b", rows) == op.name:
            calls[(symbol, 2)] = op.name
    for symbol, op in ops.PREFIX_OPERATORS.items():
        if id(op) in rows and lowered(f"{symbol}a", rows) == op.name:
            calls[(symbol, 1)] = op.name
    names = sorted(set(ops.FUNCTIONS) | {name for _, name in ops.FAMILY_FUNCTIONS})
    candidates = {name for name in names for op in _meanings(name, by_id) if id(op) in rows}
    for name in sorted(candidates):
        for prefix, count in itertools.product(PREFIXES, (1, 2)):
            row = lowered(f"{prefix}{name}({', '.join('ab'[:count])})", rows)
            if row is not None:
                calls[(prefix + name, count)] = row
    for name in sorted(ops.METHODS):
        if id(ops.METHODS[name]) not in rows and not any(id(o) in rows for o in _meanings(name, by_id)):
            continue
        for count in (1, 2):
            row = lowered(f"a.{name}({'b' if count == 2 else ''})", rows)
            if row is not None:
                calls[("." + name, count)] = row
    return _module(codes, entries, calls, graph, dual_rows(rows), *explained(list(graph)), literal_derivatives(calls),
                   sympy_forms(list(graph)))


def _meanings(name: str, by_id: dict[int, ops.Op]) -> list[ops.Op]:
    """The rows a call by this name may be lowered to: its own, its overloads', its dialects'."""
    found = [op for op in (ops.FUNCTIONS.get(name), ops.METHODS.get(name)) if op is not None]
    found += [op for (_, spelled), op in ops.FAMILY_FUNCTIONS.items() if spelled == name]
    for op in list(found):
        found += [ops.OPS[other] for other in op.overloads if other in ops.OPS]
        found += [ops.OPS[d.row] for d in op.dialects if d.row is not None and d.row in ops.OPS]
    return found


def _wrapped(value: Any) -> str:
    return pprint.pformat(value, width=116, compact=True, sort_dicts=False).replace("\n", "\n    ")


def _literal(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "math.nan" if math.isnan(value) else ("math.inf" if value > 0 else "-math.inf")
    return repr(value)


def _module(codes: list[str], entries: list[str], calls: dict[tuple[str, int], str],
            graph: dict[str, dict[tuple[bool, ...], tuple[str, tuple[int, ...]]]], duals: dict[str, str],
            definitions: dict[str, Template], derivatives: dict[str, tuple[Template | None, ...]],
            literals: dict[tuple[str, int, float], Template | None], forms: dict[str, Form | None]) -> str:
    infix = {symbol: (op.precedence, op.right_assoc) for symbol, op in ops.BINARY_OPERATORS.items()}
    prefix = {symbol: op.precedence for symbol, op in ops.PREFIX_OPERATORS.items()}
    comparisons = sorted(symbol for symbol, op in ops.BINARY_OPERATORS.items() if op.compares)
    methods = {name: (op.symbol, op.arity) if op.symbol else None for name, op in sorted(ops.METHODS.items())}
    fields = sorted({name for op in ops.OPS.values() for name in op.fields if name not in ops.METHODS})
    constants = ", ".join(f"{name!r}: {_literal(value)}" for name, value in ops.CONSTANTS.items())
    parts = [
        '"""GENERATED by tests/reference/make_scalar_table.py from the op table (gradcli.ops): do not edit.\n\n'
        "What the parser and the scalar path (gradcli.scalar) read without loading the op table and NumPy:\n"
        "the language's data, and the rows of numbers, each row's float forward and VJP as straight-line code\n"
        "recorded from the row's own float rules (see the script). tests/test_scalar.py holds it to the table.\n"
        '"""\n',
        "from __future__ import annotations\n\nimport math\nfrom typing import Any, NamedTuple\n\n"
        "from gradcli.float_math import FLOATS as xp\nfrom gradcli.float_math import ufunc\n\n",
        "# --- the language, for the parser (syntax/operators.py, syntax/parser.py) ---\n\n"
        "# an infix operator's symbol -> (its precedence, right-associative?)\n"
        f"INFIX: dict[str, tuple[int, bool]] = {_wrapped(infix)}\n"
        f"# a prefix operator's symbol -> its precedence\nPREFIX: dict[str, int] = {_wrapped(prefix)}\n"
        f"COMPARISONS = frozenset({_wrapped(comparisons)})\n"
        "# a method's name -> (its operator's symbol, arity) where it is an operator (x.add(y) is x + y), else None\n"
        f"METHODS: dict[str, tuple[str, int] | None] = {_wrapped(methods)}\n"
        "# a property -> (the row it calls, its params): m.T\n"
        f"PROPERTIES: dict[str, tuple[str, dict[str, Any]]] = {_wrapped(lowering.PROPERTIES)}\n"
        "# the parts of PyTorch's namedtuples: max(x, 0).values\n"
        f"FIELDS = frozenset({_wrapped(fields)})\n"
        f"CONSTANTS: dict[str, float] = {{{constants}}}\n"
        f"DTYPES = frozenset({_wrapped(sorted(ops.DTYPES | ops.MEMORY_FORMATS))})  # (words: dtypes, memory formats)\n"
        f"FUNCTIONS = frozenset({_wrapped(sorted(ops.FUNCTIONS))})\n\n",
        "# --- the rows of numbers, for the scalar path ---\n\n\n"
        "class Row(NamedTuple):\n    name: str\n    arity: int\n    forward: Any\n"
        "    vjps: tuple[Any, ...]  # the cotangent of each arg alone: vjps[i](g, ans, *args)\n"
        "    reflected: bool  # 2 / x is recorded otherwise (Op.reflected): not on the scalar path\n\n\n",
        "\n\n".join(codes),
        "\n\nROWS = {\n" + "\n".join(entries) + "\n}\n",
        "# (an operator's symbol, or a call's spelling as the parser gives it, and its number of args) -> its row\n"
        "CALLS = {\n" + "".join(f"    {key!r}: {row!r},\n" for key, row in sorted(calls.items())) + "}\n",
        "# a row -> (which of its args are Python numbers -> (PyTorch's name of its node, the arg positions of its\n"
        "# next_functions in their order: each the arg's node where it takes a gradient, else None))\n"
        "GRAPH: dict[str, dict[tuple[bool, ...], tuple[str, tuple[int, ...]]]] = {\n"
        + "".join(f"    {name!r}: {facts!r},\n" for name, facts in graph.items()) + "}\n",
        "# an operator or a function of xp the rows' float VJPs apply -> the row that differentiates it on dual numbers\n"
        "# (gradcli.dual: NumPy's ufunc of it), \"\" where its derivative is zero (a step)\n"
        f"DUALS: dict[str, str] = {_wrapped(duals)}\n",
        "\n# --- for explain (gradcli.formulas: text, and at an arg's place its position) ---\n\n"
        "# a row -> its node's definition as the language writes it\n"
        "DEFINITIONS: dict[str, tuple[str | int, ...]] = {\n"
        + "".join(f"    {name!r}: {template!r},\n" for name, template in definitions.items()) + "}\n"
        "# a row -> for each arg, the local derivative as SymPy prints it (None: SymPy has none)\n"
        "DERIVATIVES: dict[str, tuple[tuple[str | int, ...] | None, ...]] = {\n"
        + "".join(f"    {name!r}: {templates!r},\n" for name, templates in derivatives.items()) + "}\n"
        "# (an operator's row, the position of the arg that takes a gradient, the number that is its other arg) -> the\n"
        "# local derivative with the number put in, as SymPy prints it; another number: SymPy's, on the table's way\n"
        "LITERAL_DERIVATIVES: dict[tuple[str, int, float], tuple[str | int, ...] | None] = {\n"
        + "".join(f"    {key!r}: {template!r},\n" for key, template in literals.items()) + "}\n"
        "# a row -> its SymPy expression as data (gradcli.formulas.form; None: none), differentiated with another\n"
        "# number put in (loading SymPy, not the op table)\n"
        "SYMPY_FORMS: dict[str, tuple[Any, ...] | None] = {\n"
        + "".join(f"    {name!r}: {data!r},\n" for name, data in forms.items()) + "}\n",
    ]
    return "".join(parts)


if __name__ == "__main__":
    TARGET.write_text(generate())
    print(f"wrote {TARGET}")
