"""`gradcli run` computes PyTorch's numbers and raises PyTorch's errors (#23 item 5).

Integer tensors are int64 that wraps as PyTorch's do (never a detour through float64), integer
division by zero and negative integer powers raise as PyTorch raises, dtype promotion is PyTorch's
result_type, and values that once crashed the interpreter (format specs on modules, 10**5000,
x[::0], ...) are Python's or PyTorch's ordinary exceptions. tests/reference/run_numbers.json holds
what PyTorch 2.13 printed for each case (tests/reference/make_run_numbers.py writes it); with torch
installed the cases are also replayed live.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from gradcli.errors import visible
from tests.helpers import cli

REFERENCE = Path(__file__).resolve().parent / "reference"
FIXTURE = json.loads((REFERENCE / "run_numbers.json").read_text())
CASES: dict[str, dict[str, Any]] = FIXTURE["cases"]


def run(source: str) -> tuple[int, str, str]:
    done = cli("run", "-", stdin=source)
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize("name", sorted(CASES))
def test_prints_and_raises_what_pytorch_does(name: str) -> None:
    case = CASES[name]
    code, stdout, stderr = run(case["source"])
    assert stdout == case["stdout"]
    if case["error"] is None:
        assert (code, stderr) == (0, "")
    else:  # exit 1 with Python's last traceback line, its control bytes escaped
        assert code == 1, stderr
        assert stderr.strip() == visible(case["error"], lines=True).strip()


def test_control_bytes_of_a_format_spec_never_reach_stderr() -> None:
    for source in ('import torch\nprint(f"{1.5:\\x1b[2J}")', 'import torch\nprint(f"{torch:\\x07>5}")',
                   'import torch\nprint("{:\\x1b]0;t\\x07}".format(2))'):
        code, _, stderr = run(source)
        assert code == 1 and not any(ord(c) < 32 and c != "\n" for c in stderr), stderr


def test_integers_never_pass_through_float64() -> None:
    code, stdout, _ = run("import torch\nx = torch.tensor([2**53 + 1])\nprint((x + 1).item(), (x * 3).tolist(), "
                          "x.cumsum(0).item(), (x - 2**63).item(), x.sum().item(), x.prod().item())")
    assert (code, stdout) == (0, "9007199254740994 [27021597764222979] 9007199254740993 -9214364837600034815 "
                                 "9007199254740993 9007199254740993\n")


def test_fixture_covers_the_issue() -> None:
    assert FIXTURE["torch"] == "2.13.0"
    for name in ("big_add", "wrap_mul", "floordiv0", "negpow", "negpow_t", "nan_long", "mean_long", "fmt_torch",
                 "fmt_shape", "big_int_print", "pct_c", "slice0", "arange_end", "linspace2", "sep3", "nested_tensors",
                 "full1", "floor_t", "shape_mul", "type_t", "size_dim", "fmt_control_bytes"):
        assert name in CASES


def test_live_torch_agrees() -> None:
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("make_run_numbers", REFERENCE / "make_run_numbers.py")
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    for name, source in maker.CASES.items():
        assert maker.record(source) == {"stdout": CASES[name]["stdout"], "error": CASES[name]["error"]}, name
