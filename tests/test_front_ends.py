"""Every row of the op table through both front ends, held to each other and to PyTorch (#21, Build 4).

For each row of gradcli.ops.OPS and its first two examples (shapes and params), generated from the table:

(a) the formula language: the row's call as gradcli spells it (its print rule, `node_text`, which
    `gradcli functions` shows), evaluated with the library (`grad`) and `graph --format json`;
(b) the same call as PyTorch code -- float64 leaves with requires_grad=True at the same point, the call
    in PyTorch's spelling of the row (read from the row's reference, Op.reference),
    `out.backward(seed)`, and prints of out, its grad_fn, next_functions, dtype and each input's .grad --
    run by `gradcli run`, in-process;
(c) where torch is importable, the same snippet under PyTorch itself (exec'd in-process: it is text this
    file generated).

(a) and (b) must agree exactly on the value, the gradients, the root node's name and the names in its
next_functions. (b) and (c) must print the same bytes, addresses masked, and raise the same error, if
any; the snippet's own full-precision lines (`out.tolist()`, `x.grad.tolist()`) are held to PyTorch's
within rounding (1e-10 relative), since NumPy's and PyTorch's kernels may differ in the last place.

Inputs are deterministic, float64, sampled in the row's `domain` (away from 0 and ties for `kinked`
rows). Integer args (indices, class targets) are int64 tensors (a Python int where PyTorch takes one:
polygamma's n); the args PyTorch does not differentiate (`Op.conditions`: where's condition, a loss's
class weights) are float64 tensors without requires_grad, and a condition is compared as
its reference compares it (`c != 0`), in both texts.

Where the front ends disagree today, the case is in KNOWN with a one-line reason: a strict xfail, so
that fixing it turns the suite red until the case leaves KNOWN. Without torch, (b) vs (c) cannot be
told, and the KNOWN cases are skipped.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import math
import re
import traceback
import warnings
import zlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import GradcliError
from gradcli.ops import FUNCTIONS, OPS, Op, node_text
from gradcli.ops.core import reference_texts
from tests.helpers import cli

NAMES = "abcdfghi"  # (no e: a program's e is the constant)
EXAMPLES = 2  # the first two examples of each row
ADDRESS = re.compile(r"0x[0-9a-f]+")
NODE = re.compile(r"\(<(\w+) object at 0x[0-9a-f]+>, \d+\)|\((None), \d+\)")
EXACT_NUMBERS = re.compile(r"^(value|grad [a-h]) .*\n?", re.MULTILINE)  # the snippet's full-precision lines
# The seed of out.backward: distinct, nonzero and exact in binary, in both front ends.
SEED = "(torch.arange(out.numel(), dtype=torch.float64) * 0.25 + 0.5).reshape(out.shape)"

# Cases (a row's name for its first example, `name[1]` for its second) where the front ends and PyTorch
# disagree today (issue #21): a strict xfail each. Remove a case as it is fixed.
_ZERO_TENSOR = ("PyTorch's SgnBackward0 of a real tensor returns an efficient zero tensor, which a.grad keeps: its "
                ".tolist() raises 'tolist() shouldn't be called on a tensor with unallocated storage'; gradcli's "
                "gradient is an ordinary tensor of the same zeros")
KNOWN: dict[str, str] = {"sgn": _ZERO_TENSOR, "sgn[1]": _ZERO_TENSOR}


# --- PyTorch's spelling of each row, read from its reference (Op.reference) ---------------------------


def _dotted(node: ast.expr) -> str | None:
    """`torch.linalg.det`, `F.softplus`: a function of torch's modules, as text (None: anything else)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in ("torch", "F") and parts:
        return ".".join([node.id, *reversed(parts)])
    return None


@dataclass(frozen=True)
class TorchSpelling:
    callee: str | None  # the torch function the row is (None: an operator or a method)
    method: str | None = None  # else the Tensor method it is, on the first arg: a.expand(...)
    compared: dict[int, tuple[ast.cmpop, Any]] = field(default_factory=dict)  # a condition arg: `c != 0`
    python_int: frozenset[int] = frozenset()  # args PyTorch takes as a Python int: polygamma's n


@cache
def torch_spellings() -> dict[str, TorchSpelling]:
    """Row name -> how its PyTorch reference (Op.reference, over the args a, b, c) calls it (read as text)."""
    spellings = {}
    params = list("abc")
    for name, op in OPS.items():
        if (texts := reference_texts(op)) is None:
            continue
        body = ast.parse(texts[1], mode="eval").body
        calls = [n for n in ast.walk(body) if isinstance(n, ast.Call)]
        callee = next((text for call in calls if (text := _dotted(call.func))), None)
        method = next((call.func.attr for call in calls if isinstance(call.func, ast.Attribute)
                       and isinstance(call.func.value, ast.Name) and call.func.value.id == params[0]), None)
        compared = {params.index(n.left.id): (n.ops[0], n.comparators[0].value) for n in ast.walk(body)
                    if isinstance(n, ast.Compare) and isinstance(n.left, ast.Name) and n.left.id in params
                    and isinstance(n.comparators[0], ast.Constant)}
        python_int = frozenset(params.index(c.args[0].id) for c in calls if isinstance(c.func, ast.Name)
                               and c.func.id == "int" and isinstance(c.args[0], ast.Name))
        spellings[name] = TorchSpelling(callee, method, compared, python_int)
    return spellings


class _Conditions(ast.NodeTransformer):
    """A condition arg passed bare to a call is compared, as PyTorch wants a boolean: where(c != 0, a, b)."""

    def __init__(self, compared: dict[str, tuple[ast.cmpop, Any]]) -> None:
        self.compared = compared

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        node.args = [ast.Compare(arg, [self.compared[arg.id][0]], [ast.Constant(self.compared[arg.id][1])])
                     if isinstance(arg, ast.Name) and arg.id in self.compared else arg for arg in node.args]
        return node


class _PyTorchOrder(ast.NodeTransformer):
    """The params PyTorch takes between a row's tensors, by position (Op.tensor_positions):
    gather(a, b, dim=0) -> gather(a, 0, b)."""

    def __init__(self, op: Op) -> None:
        self.op, self.places = op, op.tensor_positions
        self.gaps = [p for p in range(max(self.places) + 1) if p not in self.places] if self.places else []

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not (self.gaps and isinstance(node.func, ast.Name) and FUNCTIONS.get(node.func.id) is self.op
                and len(node.args) == len(self.places)):
            return node
        keywords = {keyword.arg: keyword.value for keyword in node.keywords}
        order = [spec.name for spec in self.op.params if spec.name in keywords][: len(self.gaps)]
        if len(order) < len(self.gaps):
            return node
        slots = dict(zip(self.places, node.args, strict=True)) | {
            place: keywords[name] for place, name in zip(self.gaps, order, strict=True)}
        node.args = [slots[place] for place in sorted(slots)]
        node.keywords = [keyword for keyword in node.keywords if keyword.arg not in order]
        return node


class _TorchCalls(ast.NodeTransformer):
    """The formula's bare calls as PyTorch writes them: sin(a) -> torch.sin(a), norm(a) ->
    torch.linalg.vector_norm(a), expand(a, size=(2, 3)) -> a.expand(size=(2, 3))."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name):
            spelling = torch_spellings()[FUNCTIONS[node.func.id].name]
            if spelling.callee is None and spelling.method is not None:
                node.func, node.args = ast.Attribute(node.args[0], spelling.method, ast.Load()), node.args[1:]
            else:
                node.func = ast.parse(spelling.callee or f"torch.{node.func.id}", mode="eval").body
        return node


# --- one case: a row, an example, a point, and its two texts -----------------------------------------

FLOAT, NO_GRAD, INDEX, CONDITION = "float", "no grad", "index", "condition"


class Inexpressible(Exception):
    """The example cannot be written as PyTorch code (polygamma's n as a vector)."""


@dataclass
class Case:
    id: str
    program: str  # the formula language
    snippet: str  # PyTorch code
    point: dict[str, Any]  # name -> float64 array; an index's int64 array or int
    kinds: dict[str, str]  # name -> FLOAT, NO_GRAD, INDEX or CONDITION


def _kinds(op: Op, count: int, spelling: TorchSpelling) -> list[str]:
    def kind(position: int) -> str:
        if op.index_from is not None and position >= op.index_from:
            return INDEX
        if position in spelling.compared:
            return CONDITION
        return NO_GRAD if position in op.conditions else FLOAT

    return [kind(position) for position in range(count)]


def _sample(op: Op, shapes: tuple[tuple[int, ...], ...], kinds: list[str], rng: np.random.Generator) -> list[Any]:
    ranges = op.domain or ()
    values: list[Any] = []
    for position, (shape, kind) in enumerate(zip(shapes, kinds, strict=True)):
        low, high = ranges[position] if position < len(ranges) else (-2.0, 2.0)
        if kind == INDEX and low == high != 0:  # a fixed integer arg: polygamma's order
            values.append(np.full(shape, int(low), dtype=np.int64))
        elif kind == INDEX:  # valid along any dim of the first arg
            bound = min(shapes[0]) if shapes[0] else 1
            values.append(((np.arange(math.prod(shape)) * 2 + 1) % bound).reshape(shape).astype(np.int64))
        elif kind == CONDITION:  # holding and failing
            values.append(rng.integers(0, 2, size=shape).astype(np.float64))
        else:
            value = rng.uniform(low, high, size=shape)
            if op.kinked:  # away from 0 and from ties, where only a subgradient exists
                value = np.sign(value) * (0.3 + np.abs(value)) + 0.37 * position
            values.append(np.asarray(value, dtype=np.float64))
    return values


def _literal(value: Any) -> str:
    return repr(value.tolist() if isinstance(value, np.ndarray) else value)


def build(op: Op, example: int) -> Case:
    shapes, params = op.examples[example]
    spelling = torch_spellings()[op.name]
    names = list(NAMES[: len(shapes)])
    kinds = _kinds(op, len(shapes), spelling)
    values = _sample(op, shapes, kinds, np.random.default_rng(zlib.crc32(f"{op.name}:{example}".encode())))
    if op.symbol and spelling.callee:  # an operator PyTorch spells as a function: a | b -> torch.logical_or(a, b)
        text = f"{op.name}({', '.join(names)})"
    else:
        text = node_text(op, names, params)
    compared = {name: spelling.compared[p] for p, name in enumerate(names) if kinds[p] == CONDITION}
    tree = _PyTorchOrder(op).visit(_Conditions(compared).visit(ast.parse(text, mode="eval")))
    program = ast.unparse(ast.fix_missing_locations(tree))
    torch_tree = _TorchCalls().visit(ast.parse(program, mode="eval"))
    if isinstance(torch_tree.body, ast.List):  # [a, b] is torch.stack([a, b])
        stack = ast.parse(torch_spellings()["stack"].callee or "torch.stack", mode="eval").body
        torch_tree.body = ast.Call(stack, [torch_tree.body], [])
    expression = ast.unparse(ast.fix_missing_locations(torch_tree))

    point: dict[str, Any] = {}
    lines = ["import torch", "import torch.nn.functional as F", ""]
    if re.search(r"\binf\b", expression):  # (the language's constant; Python's math.inf)
        lines.append("inf = float('inf')")
    for position, (name, kind, value) in enumerate(zip(names, kinds, values, strict=True)):
        if kind == INDEX and position in spelling.python_int:
            if value.shape:
                raise Inexpressible(f"{op.name}: PyTorch takes arg {position} as a Python int, not of shape {value.shape}")
            point[name] = int(value)
            lines.append(f"{name} = {int(value)}")
        elif kind == INDEX:
            point[name] = value
            lines.append(f"{name} = torch.tensor({_literal(value)})")
        else:
            point[name] = value
            requires = ", requires_grad=True" if kind == FLOAT else ""
            lines.append(f"{name} = torch.tensor({_literal(value)}, dtype=torch.float64{requires})")
    lines += [f"out = {expression}", "print(out)", 'print("grad_fn", out.grad_fn)']
    if op.differentiable and op.identity_when is None:  # PyTorch records a node (dropout(p=0) is its input)
        lines += ["if out.grad_fn is not None:  # (atleast_1d of a vector is the vector itself)",
                  '    print("next_functions", out.grad_fn.next_functions)']
    lines += ['print("dtype", out.dtype)', 'print("value", out.tolist())']
    if op.differentiable:
        lines += [f"seed = {SEED}", "out.backward(seed)"]
        for name, kind in zip(names, kinds, strict=True):
            if kind == FLOAT:
                lines += [f"if {name}.grad is not None:  # (a loss's target can be only a condition of its nodes)",
                          f"    print({name}.grad)", f'    print("grad {name}", {name}.grad.tolist())']
    case_id = op.name if example == 0 else f"{op.name}[{example}]"
    return Case(case_id, program, "\n".join(lines) + "\n", point, dict(zip(names, kinds, strict=True)))


# --- the three ways through ---------------------------------------------------------------------


@dataclass
class Printed:
    """What a snippet printed, and the last line of the error it raised (None: none)."""

    stdout: str
    error: str | None

    def field(self, label: str) -> str | None:
        for line in self.stdout.splitlines():
            if line.startswith(label + " "):
                return line[len(label) + 1:]
        return None

    def number(self, label: str) -> Any:
        text = self.field(label)  # (our own print of .tolist(): Python's literals, nan and inf)
        return None if text is None else eval(text, {"__builtins__": {}}, {"nan": math.nan, "inf": math.inf})

    def node(self) -> str | None:
        text = self.field("grad_fn")
        return None if text in (None, "None") else text.strip("<>").split()[0]

    def next_functions(self) -> list[str | None] | None:
        text = self.field("next_functions")
        return None if text is None else [name or None for name, _ in NODE.findall(text)]  # (None, 0): None


_EXCEPTION_LINE = re.compile(r"[A-Z]\w*(Error|Exception|Warning|Interrupt|Exit|Iteration)\b")


def under_run(case: Case) -> Printed:
    run = cli("run", "-", stdin=case.snippet)
    if run.exit_code == 0:
        return Printed(run.stdout, None)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    if run.exit_code == 1:  # PyTorch's error, as Python's traceback ends: from its last line that names an exception
        # (PyTorch's TypeError that lists its signatures goes on over lines of its own: " * (Tensor input, ...)")
        named = [i for i, line in enumerate(lines) if _EXCEPTION_LINE.match(line)]
        start = named[-1] if named else max((i for i, line in enumerate(lines) if line[:1].isspace()), default=-1) + 1
        message = lines[start:]
        return Printed(run.stdout, "\n".join(message) if message else "exit 1")
    return Printed(run.stdout, f"exit {run.exit_code}: {lines[0] if lines else ''}")  # gradcli's own refusal


def under_torch(case: Case) -> Printed:
    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PyTorch's warnings go to stderr; stdout is what is compared)
        try:
            exec(compile(case.snippet, f"<{case.id}>", "exec"), {"__name__": "__snippet__"})  # our own text
        except Exception as raised:  # (PyTorch's error is what is compared)
            error = [line for line in traceback.format_exception_only(raised) if line.strip()][-1].rstrip("\n")
    return Printed(out.getvalue(), error)


@dataclass
class Formula:
    value: Any = None
    grads: dict[str, Any] = field(default_factory=dict)
    node: str | None = None
    next_functions: list[str | None] | None = None
    error: str | None = None


def _cli_value(value: Any) -> str:
    return json.dumps(value.tolist() if isinstance(value, np.ndarray) else value)


def under_formula(case: Case) -> Formula:
    try:
        shape = np.shape(grad(case.program, at=case.point, seed="ones").value)
        seed = (np.arange(math.prod(shape), dtype=np.float64) * 0.25 + 0.5).reshape(shape)  # SEED's numbers
        result = grad(case.program, at=case.point, seed=seed.tolist() if shape else float(seed))
    except GradcliError as error:
        return Formula(error=f"grad: {error}")
    at = ",".join(f"{name}={_cli_value(value)}" for name, value in case.point.items())
    graph = cli("graph", "--at", at, "--seed", _cli_value(seed), "--format", "json", "--", case.program)
    if graph.exit_code != 0:
        return Formula(result.value, dict(result.grad), error=f"graph: {graph.stderr.strip()}")
    document = graph.json()
    nodes = {node["id"]: node for node in document["nodes"]}
    root = nodes.get(document["roots"][0]) if document["roots"] else None
    name = None if root is None or root["op"] == "AccumulateGrad" else root["op"]  # a leaf: grad_fn is None
    following = None if name is None else [None if i is None else nodes[i]["op"] for i in root["next_functions"]]
    return Formula(result.value, dict(result.grad), name, following)


def _close(given: Any, expected: Any, rtol: float = 0.0, atol: float = 0.0) -> bool:
    given, expected = np.asarray(given, dtype=float), np.asarray(expected, dtype=float)
    return given.shape == expected.shape and bool(np.allclose(given, expected, rtol=rtol, atol=atol, equal_nan=True))


def _printed(stdout: str) -> str:
    return EXACT_NUMBERS.sub("", ADDRESS.sub("0x", stdout))


# Cases whose snippet PyTorch's own parser refuses, with what it raises (recorded from PyTorch 2.13;
# checked again where torch is installed): `run` must raise the same, and the formula language,
# whose bare spelling takes a default, is not compared with it.
PYTORCH_RAISES = {
    **{name: f'TypeError: {name}() missing 1 required positional arguments: "dim"'
       for name in ("cumsum", "cumprod", "logcumsumexp", "softmax", "log_softmax")},
    **{name: 'TypeError: logsumexp() missing 1 required positional arguments: "dim"'
       for name in ("logsumexp", "logsumexp[1]")},
    # (a node without a derivative: the backward raises; gradcli grad gives the 0 of a step)
    **{f"{name}{which}": f"RuntimeError: derivative for aten::{name} is not implemented"
       for name in ("floor_divide", "heaviside") for which in ("", "[1]")},
    # (the snippet's pivots are int64, as torch.tensor([1, 1, 1]) makes them; LAPACK's are int32:
    # tests/run_cases/lu_pivots_int32.py holds lu_factor's own pivots through both)
    **{f"lu_unpack{which}": "RuntimeError: torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                            "torch.int32 dtype.\nNote: this function is intended to be used with the output produced "
                            "by torch.linalg.lu_factor" for which in ("", "[1]")},
    **{f"lu_solve{which}": "RuntimeError: linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32"
       for which in ("", "[1]")},
}


def disagreements(case: Case, with_torch: bool) -> list[str]:
    """What differs between the formula language, gradcli run and PyTorch for one case (empty: nothing)."""
    problems = []
    run = under_run(case)
    raises = PYTORCH_RAISES.get(case.id)
    if raises is not None:  # PyTorch refuses the call as written: run says so as PyTorch does
        reference_error = under_torch(case).error if with_torch else raises
        if reference_error != raises:
            problems.append(f"PyTorch raises {reference_error!r}, not the recorded {raises!r}")
        if run.error != reference_error:
            problems.append(f"run raises {run.error!r}, PyTorch {reference_error!r}")
        return problems
    if with_torch:
        reference = under_torch(case)
        if _printed(run.stdout) != _printed(reference.stdout):
            problems.append(f"run prints differently from PyTorch:\n--- run\n{run.stdout}--- PyTorch\n{reference.stdout}")
        if run.error != reference.error:
            problems.append(f"run raises {run.error!r}, PyTorch {reference.error!r}")
        for label in ["value", *(f"grad {name}" for name in case.kinds)]:
            given, expected = run.number(label), reference.number(label)
            if given is not None and expected is not None and not _close(given, expected, rtol=1e-10, atol=1e-13):
                problems.append(f"{label}: run {given!r}, PyTorch {expected!r}")
    elif run.error is not None:
        problems.append(f"run raises {run.error!r}")
    formula = under_formula(case)
    if formula.error is not None:
        return [*problems, formula.error]
    value = run.number("value")
    if value is not None and not _close(formula.value, value):
        problems.append(f"value: grad {formula.value!r}, run {value!r}")
    if run.field("grad_fn") is not None and formula.node != run.node():
        problems.append(f"node: graph {formula.node}, run {run.node()}")
    following = run.next_functions()
    if following is not None and formula.next_functions != following:
        problems.append(f"next_functions: graph {formula.next_functions}, run {following}")
    for name, kind in case.kinds.items():
        given = run.number(f"grad {name}")
        if kind == FLOAT and given is not None and not (name in formula.grads and _close(formula.grads[name], given)):
            problems.append(f"grad {name}: grad {formula.grads.get(name)!r}, run {given!r}")
    return problems


# --- the test -------------------------------------------------------------------------------------


def _torch_importable() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


TORCH = _torch_importable()


def _cases() -> list[Any]:
    cases = []
    for op in OPS.values():
        if op.reference is None:  # a part of composites, no call of its own (their cases reach it)
            continue
        if op.dtype == "param":  # x.to(its own dtype) is x itself, no node: tests/test_lowering.py and the
            continue             # run case dtype_conversions_keep_graph hold the copies to PyTorch
        for example in range(min(EXAMPLES, len(op.examples))):
            try:
                case = build(op, example)
            except Inexpressible:
                continue
            marks = []
            if case.id in KNOWN:
                marks = [pytest.mark.xfail(strict=True, reason=KNOWN[case.id]) if TORCH
                         else pytest.mark.skip(reason=f"known to differ from PyTorch (needs torch): {KNOWN[case.id]}")]
            cases.append(pytest.param(case, id=case.id, marks=marks))
    return cases


CASES = _cases()


def test_every_row_is_a_case_and_every_known_case_exists():
    ids = {param.id for param in CASES}
    assert {case_id.split("[")[0] for case_id in ids} == {name for name, op in OPS.items()
                                                          if op.reference is not None and op.dtype != "param"}
    assert set(KNOWN) <= ids, f"KNOWN names no case: {sorted(set(KNOWN) - ids)}"


@pytest.mark.parametrize("case", CASES)
def test_each_row_gives_the_same_through_both_front_ends_and_pytorch(case):
    problems = disagreements(case, TORCH)
    assert not problems, f"{case.program}\n\n{case.snippet}\n" + "\n".join(problems)
