"""gradcli/run/saved.py, generated from PyTorch: which tensors each row's node saves for its backward.

    python tests/reference/make_saved.py        # needs torch; writes gradcli/run/saved.py

PyTorch checks, when a node's backward runs, that every tensor it saved is still at the version it
saved (a write in place bumps a tensor's version, and its views'): otherwise "one of the variables
needed for gradient computation has been modified by an inplace operation". Which tensors a node
saves is its derivative formula's business (tools/autograd/derivatives.yaml) and depends on which
inputs take a gradient (mul saves `other` only for `self`'s gradient). This asks PyTorch itself: for
each row and each of its examples (tests/test_front_ends.build: the row's call in PyTorch's
spelling), the node's `_saved_*` tensors, matched by identity to the call's tensor args (a saved
input is the tensor itself) or named `result` (its output), once with every float arg requiring grad
and once with each alone, so that each saved arg is listed with the args whose gradient needs it.

gradcli/run/saved.py maps a row's name and its node's name to (((arg position, (positions that
need it)), ...), (positions whose gradient needs the result)). A row with no entry is a row this
could not ask (no PyTorch spelling, or its node is not PyTorch's): `gradcli run` refuses a backward
through such a node after a write into one of its args, rather than guess.
"""

from __future__ import annotations

import dataclasses
import pprint
import re
import sys
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from gradcli.ops import OPS  # noqa: E402
from tests import test_front_ends as front  # noqa: E402

TARGET = ROOT / "gradcli" / "run" / "saved.py"
RESULT = re.compile(r"_saved_result(\d*)")

Entry = tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]]


def _saved(case: front.Case, grads: set[str], number: str | None = None) -> tuple[str, set[int], bool] | None:
    """(the node's name, the positions of the args it saved, whether it saved its result) for the call of
    `case` where the float args named in `grads` require grad (and the one named `number`, if any, is a
    Python number: x.pow(2.5), x * 2)."""
    lines = case.snippet.splitlines()
    upto = next(i for i, line in enumerate(lines) if line.startswith("out = "))
    code = []
    for line in lines[: upto + 1]:
        name = line.split(" = ", 1)[0]
        if name == number:
            line = f"{name} = 1.5"
        elif line.endswith("requires_grad=True)") and name not in grads:
            line = line.replace(", requires_grad=True)", ")")
        code.append(line)
    scope: dict[str, Any] = {"__name__": "__saved__"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile("\n".join(code), f"<{case.id}>", "exec"), scope)  # text test_front_ends generated
        except Exception:  # (an example PyTorch refuses: nothing to learn from it)
            return None
    out = scope["out"]
    if isinstance(out, (tuple, list)):
        out = out[0]
    if not isinstance(out, torch.Tensor) or out.grad_fn is None:
        return None
    node = out.grad_fn
    names = list(case.kinds)
    positions: set[int] = set()
    result = False
    for attribute in dir(node):
        if not attribute.startswith("_saved_"):
            continue
        try:
            value = getattr(node, attribute)
        except Exception:  # (a saved value PyTorch will not hand out)
            continue
        if RESULT.fullmatch(attribute) and isinstance(value, torch.Tensor):
            result = result or RESULT.fullmatch(attribute).group(1) in ("", "0")  # type: ignore[union-attr]
            continue
        values = value if isinstance(value, (tuple, list)) else (value,)
        for item in values:
            if isinstance(item, torch.Tensor):
                positions.update(p for p, name in enumerate(names) if scope.get(name) is item)
    return type(node).__name__, positions, result


def _in_place(case: front.Case) -> front.Case | None:
    """The call of `case` written in place into a copy of its float input, as `run` records a row's
    Op.in_place_nodes: `F.elu(a)` -> `F.elu(a, inplace=True)`, `torch.polygamma(b, a)` -> `a.polygamma_(b)`,
    `a.squeeze(0)` -> `a.squeeze_(0)`."""
    target = next((n for n, kind in case.kinds.items() if kind == front.FLOAT), None)
    lines = case.snippet.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("out = ")), None)
    call = None if at is None else re.fullmatch(r"out = (\w+)\.(\w+)\((.*)\)", lines[at])
    if target is None or call is None:
        return None
    module, function, args = call.groups()
    if module == target:  # a method: a.squeeze(0) -> a.squeeze_(0)
        written = f"out = {target}.{function}_({args})"
    elif module == "F":
        written = f"out = F.{function}({args}, inplace=True)"
    else:
        others = [arg for arg in args.split(", ") if arg != target]
        written = f"out = {target}.{function}_({', '.join(others)})"
    snippet = "\n".join([*lines[:at], f"{target} = {target}.clone()", written, *lines[at + 1:]])
    return dataclasses.replace(case, snippet=snippet)


def entries() -> dict[str, dict[str, Entry]]:
    table: dict[str, dict[str, Entry]] = {}
    for name in sorted(OPS):
        op = OPS[name]
        if not op.differentiable or op.program is not None:  # (a composite's nodes are its parts')
            continue
        for example in range(len(op.examples)):
            try:
                case = front.build(op, example)
            except Exception:  # (Inexpressible, no PyTorch spelling)
                continue
            floats = [n for n, kind in case.kinds.items() if kind == front.FLOAT]
            # (and the node PyTorch records where the call writes into its input: Op.in_place_nodes)
            written = _in_place(case) if op.in_place_nodes else None
            for number in (None, *(floats if len(floats) > 1 else ())):  # (and each float arg a Python number)
                grads = [n for n in floats if n != number]
                entry = _entry(case, grads, number)
                if entry is not None:
                    _merge(table.setdefault(name, {}), *entry)
                entry = None if written is None else _entry(written, grads, number)
                if entry is not None and entry[0] in dict(op.in_place_nodes).values():
                    _merge(table.setdefault(name, {}), *entry)
    return table


def _entry(case: front.Case, floats: list[str], number: str | None) -> tuple[str, Entry] | None:
    every = _saved(case, set(floats), number)
    if every is None:
        return None
    node, _, _ = every
    needers: dict[int, set[int]] = {}
    result: set[int] = set()
    for one in floats:
        alone = _saved(case, {one}, number)
        if alone is None or alone[0] != node:
            continue
        position = list(case.kinds).index(one)
        for saved in alone[1]:
            needers.setdefault(saved, set()).add(position)
        if alone[2]:
            result.add(position)
    return node, (tuple((p, tuple(sorted(n))) for p, n in sorted(needers.items())), tuple(sorted(result)))


def _merge(nodes: dict[str, Entry], node: str, entry: Entry) -> None:
    """Examples of one node that disagree (one saves an arg another does not): the union, to be safe."""
    known = nodes.get(node)
    if known is not None and known != entry:
        merged = {p: set(n) for p, n in known[0]}
        for p, n in entry[0]:
            merged.setdefault(p, set()).update(n)
        entry = (tuple((p, tuple(sorted(n))) for p, n in sorted(merged.items())),
                 tuple(sorted(set(known[1]) | set(entry[1]))))
    nodes[node] = entry


def main() -> None:
    table = entries()
    text = (
        '"""Which tensors each row\'s node saves for its backward, as PyTorch ' + torch.__version__.split("+")[0]
        + " saves them.\n\nGenerated by tests/reference/make_saved.py: do not edit. A row's name -> its node's "
        "name -> (((arg position,\n(the arg positions whose gradient needs it)), ...), (the positions whose "
        'gradient needs the result)).\n"""\n\n'
        "SAVED: dict[str, dict[str, tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]]]] = "
        + pprint.pformat(table, width=120, sort_dicts=True) + "\n"
    )
    TARGET.write_text(text)
    print(f"{TARGET.relative_to(ROOT)}: {len(table)} rows, {sum(len(v) for v in table.values())} nodes")


if __name__ == "__main__":
    main()
