"""Every way PyTorch lets a call be written, through both front ends, held to PyTorch (issue #21).

    python fuzz/call_forms.py                          # every torch.* / method / F.* row (minutes)
    python fuzz/call_forms.py --rows '^(std|var|max)$' # the rows whose name matches a regular expression
    python fuzz/call_forms.py --list --rows std        # the forms alone, not run

Needs torch (PyTorch 2.13 is the reference). Not a test: what it finds goes into the suite as run cases
(tests/run_cases) and table-driven tests (tests/test_call_forms.py).

For each row whose PyTorch reference is a `torch.*` or `F.*` function (tests/test_front_ends.py reads it),
the row's example (its 2-D one where it has one: dims are more telling there) gives the inputs, and
PyTorch's own signatures give the forms: for `torch.NAME` every overload's schema
(`aten::NAME.*`, torch._C._jit_get_schemas_for_operator), for `F.NAME` the Python signature. Of each:
- every positional prefix (`torch.std(a)`, `torch.std(a, 0)`, `torch.std(a, 0, True)`, ...), the values
  of each argument varied over its kind (a dim as 0, -1, a tuple, a list; a bool as True and False;
  the row's example values first);
- the arguments by keyword, in the other order, and the first positional with the rest by keyword;
- the keyword-only arguments (`correction=`, `dtype=`), each on the whole positional form;
- the method spelling `a.NAME(...)` of each positional form where torch.Tensor has the method;
- forms PyTorch refuses: one positional argument too many, an unknown keyword, a dim out of range.

Each form runs as special_points runs a variant (its runner, `check_all`): the snippet under PyTorch, under
`gradcli run` (values, dtype, grad_fn, next_functions, gradients; for a refusal the exception's type and
words) and, where every input is float64, the same call as a formula under the library's `grad`
(a tuple's first part: `torch.max(a, 0)[0]`).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import math
import re
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fuzz"))

import special_points as points  # noqa: E402

from gradcli.ops import OPS, Op  # noqa: E402
from tests import test_front_ends as front  # noqa: E402

DIM_NAMES = ("dim", "dim0", "dim1", "start_dim", "end_dim", "source", "destination")
SKIPPED_TYPES = ("Generator", "Layout", "Device", "MemoryFormat", "Dimname", "Storage", "Stream", "SymInt[]")
OUT_OF_RANGE = 7


def _case(op: Op) -> tuple[front.Case, int] | None:
    """The row's example to vary (and its number): its 2-D one where it has one."""
    built = []
    for example in range(min(2, len(op.examples))):
        try:
            built.append((op.examples[example], (front.build(op, example), example)))
        except front.Inexpressible:
            continue
    if not built:
        return None
    for (shapes, _), case in built:
        if len(shapes[0]) >= 2:
            return case
    return built[0][1]


def _example_params(op: Op, example: int) -> dict[str, list[Any]]:
    return {key: [value] for key, value in op.examples[example][1].items() if key != "dtype"}


def _text(value: Any) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "float('inf')" if value > 0 else "-float('inf')"
    return repr(value)


def candidates(name: str, kind: str, ndim: int, example: dict[str, list[Any]]) -> list[str] | None:
    """The texts an argument of this name and (schema) type is given as; None: not expressible here."""
    given = [_text(v) for v in example.get(name, []) if not isinstance(v, str) or kind == "str"]
    if kind in ("Tensor", "Optional[Tensor]"):
        return None  # (placed by the caller)
    if any(skip in kind for skip in SKIPPED_TYPES):
        return None
    whole = name in DIM_NAMES
    if kind in ("int", "Optional[int]", "SymInt", "Optional[SymInt]") and whole:
        values = ["0", "-1"] + (["1"] if ndim >= 2 else [])
    elif "List[int]" in kind and name.startswith("dim"):
        values = ["1" if ndim >= 2 else "0", "(0, 1)" if ndim >= 2 else "(0,)", "[-1]"]
    elif "List[int]" in kind:
        values = []
    elif kind in ("int", "Optional[int]", "SymInt", "Optional[SymInt]"):
        values = ["1"]
    elif kind == "bool" or kind == "Optional[bool]":
        values = ["True", "False"]
    elif name == "p" or name == "ord":
        values = ["1", "2", "float('inf')"]
    elif name == "correction":
        values = ["0", "1"]
    elif "number" in kind or kind in ("float", "Optional[float]"):
        values = ["2", "0.5"]
    elif "ScalarType" in kind:
        values = ["torch.float64", "torch.float32"]
    elif kind in ("str", "Optional[str]"):
        values = []
    else:
        return None
    values = [*given, *(v for v in values if v not in given)]
    return values or None


class Arg:
    def __init__(self, name: str, kind: str, keyword_only: bool, required: bool, values: list[str] | None,
                 tensor: str | None = None) -> None:
        self.name, self.kind, self.keyword_only, self.required = name, kind, keyword_only, required
        self.values, self.tensor = values, tensor

    def value(self, k: int) -> str:
        if self.tensor is not None:
            return self.tensor
        assert self.values
        return self.values[k % len(self.values)]


def _tensor_order(case: front.Case) -> list[str]:
    """The case's tensors in the order PyTorch's call takes them (its snippet's call: scatter(a, 0, c, b)
    takes the index c before the source b), then any it does not name."""
    call = next(line for line in case.snippet.splitlines() if line.startswith("out ="))
    named = [name.id for name in ast.walk(ast.parse(call[len("out ="):].strip(), mode="eval"))
             if isinstance(name, ast.Name) and name.id in case.kinds]
    ordered = sorted(set(named), key=named.index)
    return [*ordered, *(name for name in case.kinds if name not in ordered)]


def _signature(args: list[tuple[str, str, bool, bool]], case: front.Case, ndim: int,
               example: dict[str, list[Any]]) -> list[Arg] | None:
    """A signature's args after the first tensor, with the case's other tensors placed; None where one
    cannot be given."""
    tensors = _tensor_order(case)[1:]
    out: list[Arg] = []
    for name, kind, keyword_only, required in args:
        if kind in ("Tensor", "Optional[Tensor]", "List[Tensor]"):
            if tensors:
                out.append(Arg(name, kind, keyword_only, required, None, tensors.pop(0)))
                continue
            if required:
                return None
            continue
        values = candidates(name, kind, ndim, example)
        if values is None:
            if required:
                return None
            continue
        out.append(Arg(name, kind, keyword_only, required, values))
    if tensors:  # the case has tensors this signature does not take
        return None
    return out


def _schemas(name: str) -> list[list[tuple[str, str, bool, bool]]]:
    import torch

    found = []
    for schema in torch._C._jit_get_schemas_for_operator(f"aten::{name}"):
        if "out" in schema.overload_name or any(a.name == "out" for a in schema.arguments):
            continue
        arguments = schema.arguments
        if not arguments or str(arguments[0].type) != "Tensor":
            continue
        found.append([(a.name, str(a.type), a.kwarg_only, not a.has_default_value()) for a in arguments[1:]])
    return found


def _python_signature(function: Any) -> list[tuple[str, str, bool, bool]] | None:
    try:
        parameters = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        return None
    args = []
    for p in parameters:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            return None
        default = p.default
        if p.name in ("weight", "bias", "target", "other", "input2", "x2", "index", "mask", "grid", "running_mean",
                      "running_var", "positive", "negative", "pos_weight", "var", "offset"):
            kind = "Optional[Tensor]" if default is None else "Tensor"
        elif isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int) and p.name in DIM_NAMES:
            kind = "int"
        elif isinstance(default, int):
            kind = "int"
        elif isinstance(default, float):
            kind = "float"
        elif isinstance(default, str):
            kind = "str"
        elif p.name in DIM_NAMES:
            kind = "Optional[int]"
        elif p.name == "dtype":
            kind = "Optional[ScalarType]"
        elif p.name in ("p",):
            kind = "float"
        else:
            kind = "?"
        args.append((p.name, kind, p.kind == p.KEYWORD_ONLY, default is inspect.Parameter.empty))
    return args


def forms(op: Op, callee: str, case: front.Case, number: int) -> list[tuple[str, str]]:
    """(label, expression) of each form of `callee` on the case's inputs."""
    import torch
    import torch.nn.functional as F

    first = _tensor_order(case)[0]
    ndim = np.ndim(case.point[first])
    example = _example_params(op, number)
    module, _, name = callee.rpartition(".")
    if module == "torch":
        signatures = _schemas(name)
    elif module == "F" and hasattr(F, name):
        found = _python_signature(getattr(F, name))
        signatures = [found] if found is not None else []
    else:
        return []
    method = module == "torch" and hasattr(torch.Tensor, name)
    made: dict[str, str] = {}
    refused: dict[str, str] = {}

    def add(label: str, text: str) -> None:
        (refused if label.startswith("refused") else made).setdefault(text, label)

    for raw in signatures:
        args = _signature(raw, case, ndim, example)
        if args is None:
            continue
        positional = [a for a in args if not a.keyword_only]
        keyword_only = [a for a in args if a.keyword_only]
        need = max((i + 1 for i, a in enumerate(positional) if a.required), default=0)
        for count in range(need, len(positional) + 1):
            rounds = max([len(a.values or [0]) for a in positional[:count]] or [1]) if count else 1
            for k in range(min(rounds, 3)):
                given = [a.value(k + i) for i, a in enumerate(positional[:count])]
                add(f"{count} positional", f"{callee}({', '.join([first, *given])})")
                if method:
                    add(f"method, {count} positional", f"{first}.{name}({', '.join(given)})")
        # by keyword, in the other order; the first positional and the rest by keyword
        written = [a for a in positional if a.required or a.values or a.tensor]
        if written:
            keys = [f"{a.name}={a.value(1)}" for a in reversed(written)]
            add("keywords reversed", f"{callee}({', '.join([first, *keys])})")
            if len(written) >= 2:
                keys = [f"{a.name}={a.value(0)}" for a in written[1:]]
                add("1 positional, keywords", f"{callee}({', '.join([first, written[0].value(0), *keys])})")
        full = [first, *(a.value(0) for a in positional)]
        for a in keyword_only:
            if a.values or a.tensor:
                add(f"keyword-only {a.name}", f"{callee}({', '.join([*full, f'{a.name}={a.value(0)}'])})")
        # refusals
        add("refused: one too many", f"{callee}({', '.join([*full, '0'])})")
        add("refused: unknown keyword", f"{callee}({', '.join([*full, 'bogus=1'])})")
        for i, a in enumerate(positional):
            if a.name in DIM_NAMES and a.tensor is None:
                wrong = [*full[: i + 1], str(OUT_OF_RANGE if "List" not in a.kind else (OUT_OF_RANGE,)), *full[i + 2:]]
                add(f"refused: {a.name} out of range", f"{callee}({', '.join(wrong)})")
                wrong[i + 1] = str(-OUT_OF_RANGE - 1)
                add(f"refused: {a.name} out of range", f"{callee}({', '.join(wrong)})")
    made.update((text, label) for text, label in refused.items() if text not in made)
    return [(label, text) for text, label in made.items()]


SNIPPET_TAIL = """\
if isinstance(out, (tuple, list)):
    print("parts", len(out))
    for part in out[1:]:
        print("part", part)
    out = out[0]
print(out)
print("grad_fn", out.grad_fn)
if out.grad_fn is not None:
    print("next_functions", out.grad_fn.next_functions)
print("dtype", out.dtype)
print("value", out.tolist())
if out.requires_grad:
    seed = (torch.arange(out.numel(), dtype=out.dtype) * 0.25 + 0.5).reshape(out.shape)
    out.backward(seed)
"""


def variant(case: front.Case, label: str, expression: str) -> points.Variant:
    head = [line for line in case.snippet.splitlines() if not line.startswith(("out =", "print", "if ", "    ",
                                                                                "seed =", "out.backward"))]
    grads = tuple(n for n, kind in case.kinds.items() if kind == front.FLOAT)
    # (without a seed PyTorch's generator starts anywhere: dropout's draws differ from run to run)
    lines = [*head, "torch.manual_seed(0)", f"out = {expression}", *SNIPPET_TAIL.splitlines()]
    for name in grads:
        lines += [f"if {name}.grad is not None:", f"    print({name}.grad)", f'    print("grad {name}", {name}.grad.tolist())']
    return points.Variant(case.id, label, expression, "\n".join(lines) + "\n", case.point, True, grads)


def check(v: points.Variant) -> list[tuple[str, str]]:
    """special_points.check of the snippet, and the formula: the tuple's first part where PyTorch's is one."""
    found = points.check(points.Variant(v.case, v.label, v.program, v.snippet, v.point, False, v.grads))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = front.under_torch(front.Case(v.case, v.program, v.snippet, v.point, {}))
    program = f"({v.program})[0]" if reference.field("parts") is not None else v.program
    # the formula language's infinity is `inf`; its inputs are the names the formula uses
    program = program.replace("float('inf')", "inf")
    used = {name.id for name in ast.walk(ast.parse(program, mode="eval")) if isinstance(name, ast.Name)}
    point = {name: value for name, value in v.point.items() if name in used}
    value, grads, error = points._formula(points.Variant(v.case, v.label, program, v.snippet, point, True,
                                                        tuple(name for name in v.grads if name in used)))
    expected = reference.number("value")
    # every value of the formula language is float64 (dtype= means nothing more): PyTorch's float32 answer
    # is held to float32's precision
    rtol, atol = (1e-4, 1e-6) if reference.field("dtype") == "torch.float32" else (1e-9, 1e-12)
    if error is not None:
        if error.startswith("exit 4"):
            found.append(("exit 4", f"grad: {error}"))
        elif reference.error is None or expected is not None:
            found.append(("refused", f"grad: {error}"))
        return found
    if reference.error is not None and expected is None:
        found.append(("raises", f"grad answers {np.asarray(value).tolist()}; PyTorch {reference.error!r}"))
        return found
    found += points._numbers("value", "grad value", value, expected, rtol, atol)
    if reference.number("value") is not None:
        for name in v.grads:
            expected_grad = reference.number(f"grad {name}")
            if expected_grad is not None:
                found += points._numbers("grad", f"grad grad {name}", grads.get(name), expected_grad, rtol, atol)
    return found


def all_forms(pattern: str) -> list[points.Variant]:
    chosen = re.compile(pattern)
    spellings = front.torch_spellings()
    found: list[points.Variant] = []
    seen: set[tuple[str, str]] = set()
    for op in OPS.values():
        spelling = spellings.get(op.name)
        if spelling is None or spelling.callee is None or not chosen.search(op.name) or op.dtype == "param":
            continue
        if not spelling.callee.startswith(("torch.", "F.")) or spelling.callee.count(".") != 1:
            continue
        chosen_case = _case(op)
        if chosen_case is None:
            continue
        case, number = chosen_case
        if any(kind not in (front.FLOAT, front.NO_GRAD, front.INDEX) for kind in case.kinds.values()):
            continue
        for label, expression in forms(op, spelling.callee, case, number):
            if (spelling.callee, expression) not in seen:
                seen.add((spelling.callee, expression))
                found.append(variant(case, label, expression))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="", help="a regular expression: only the rows whose name it finds")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--list", action="store_true", help="print the forms, do not run them")
    parser.add_argument("--out", help="write every finding there, as JSON Lines")
    parser.add_argument("--show", type=int, default=5, help="findings shown of each kind")
    options = parser.parse_args()
    started = time.time()
    found = all_forms(options.rows)
    if options.list:
        for v in found:
            print(f"{v.case:20} {v.label:32} {v.program}")
        print(f"{len(found)} forms of {len({v.case for v in found})} rows")
        return
    outcome = points.check_all(found, options.jobs, started, checker=check)
    points.report(outcome, found, started, options.show, options.out)


if __name__ == "__main__":
    main()
