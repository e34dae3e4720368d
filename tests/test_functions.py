"""`gradcli functions` lists the op table as it is, and the README's language section names it all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gradcli.ops import OPS
from gradcli.tape import compile_program
from gradcli.torch_graph import torch_name
from tests.helpers import cli

README = Path(__file__).resolve().parent.parent / "README.md"


def _listing() -> list[dict]:
    run = cli("functions", "--json")
    assert run.exit_code == 0, run.stderr
    return run.json()["functions"]


def test_functions_lists_every_row_of_the_table_once_with_its_pytorch_node():
    listed = {entry["name"]: entry for entry in _listing()}
    assert sorted(listed) == sorted(OPS) and len(_listing()) == len(OPS)
    for name, op in OPS.items():
        assert listed[name]["torch_node"] == op.torch_node
        assert listed[name]["aliases"] == list(op.spellings)
        assert listed[name]["methods"] == list(op.methods)


@pytest.mark.parametrize("entry", _listing(), ids=lambda entry: entry["name"])
def test_each_listed_spelling_is_a_program_of_that_op(entry):
    if OPS[entry["name"]].reference is None:  # a part of composites, with no call of its own (tests/test_ops.py)
        return
    tape = compile_program(entry["spelling"])
    if OPS[entry["name"]].identity_when is not None:  # dropout(x, p=0.0): x itself, no node (as PyTorch)
        assert tape.nodes[tape.outputs[0]].name == "x"
        return
    if OPS[entry["name"]].program is not None:  # a composite is its parts, PyTorch's last at the root
        if tape.wants_shapes:  # (its graph depends on the shapes: tests/test_front_ends.py holds it at points)
            return
        assert torch_name(tape, tape.outputs[0]) == OPS[entry["name"]].torch_node
        return
    if OPS[entry["name"]].dtype == "param":  # x.to(torch.float32): the copy, or x itself in its own dtype
        assert tape.nodes[tape.outputs[0]].op is OPS[entry["name"]] or tape.nodes[tape.outputs[0]].name == "x"
        return
    assert tape.nodes[tape.outputs[0]].op is OPS[entry["name"]]


def test_the_readme_names_every_function_of_the_table():
    section = README.read_text(encoding="utf-8").split("## The language", 1)[1].split("\n## ", 1)[0]
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", section))
    callable_names = {op.name for op in OPS.values() if op.callable}
    assert callable_names - words == set()


def test_functions_as_a_table_groups_them():
    run = cli("functions")
    assert run.exit_code == 0
    for group in ("operators", "elementwise functions", "reductions", "structure", "linear algebra"):
        assert group in run.stdout
    assert "SinBackward0" in run.stdout


def test_an_unknown_function_points_at_the_listing():
    run = cli("grad", "softmaxx(x)", "--at", "x=1")
    assert run.exit_code == 2
    assert "`gradcli functions` lists them all" in run.stderr.splitlines()[0]


def test_an_unknown_function_is_answered_by_meaning_with_a_function_that_exists():
    from gradcli.ops import FUNCTIONS, METHODS
    from gradcli.ops.meanings import MEANINGS

    for name, (target, _) in MEANINGS.items():
        assert name not in FUNCTIONS, f"{name} is a function now: its meaning entry is dead"
        assert target is None or target in FUNCTIONS or target in METHODS, (name, target)


@pytest.mark.parametrize(("program", "words"), [
    ("logistic(x)", ["unknown function 'logistic'", "it is 'sigmoid' here"]),
    ("torch.randn(3)", ["random tensors are not supported"]),
    ("x.relu_()", ["in-place ops are not supported"]),
    ("sofmax(x, 0)", ["did you mean 'softmax'"]),
    ("det2(x)", ["did you mean 'det'"]),
    ("dett(x, x)", ["`gradcli functions` lists them all"]),
])
def test_unknown_functions_are_answered_by_meaning_then_by_spelling(program, words):
    run = cli("grad", "--at", "x=1", "--", program)
    assert run.exit_code == 2
    for word in words:
        assert word in run.stderr.splitlines()[0]
