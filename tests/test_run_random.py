"""torch's random numbers, bit for bit: gradcli.run.random held to PyTorch 2.13's own draws.

tests/reference/torch_random.json holds what PyTorch gave (tests/reference/make_torch_random.py
writes it) over seeds, sizes on both sides of 16 (where PyTorch changes paths) and both float
dtypes; with torch installed the same calls are also replayed live.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.run.random import Generator
from tests.helpers import cli

REFERENCE = Path(__file__).resolve().parent / "reference"
FIXTURE = json.loads((REFERENCE / "torch_random.json").read_text())
CASES = FIXTURE["cases"]


def replay(case: dict[str, Any]) -> list[list[float]]:
    """The case's calls on gradcli's generator, in order, each call's values flattened."""
    generator = Generator(case["seed"])
    values = []
    for name, *args in case["calls"]:
        if name in ("rand", "randn"):
            result = getattr(generator, name)(args[0], np.dtype(args[1]))
        elif name == "randint":
            result = generator.randint(args[0], args[1], args[2])
        elif name == "randperm":
            result = generator.randperm(args[0])
        elif name in ("normal_", "uniform_"):
            result = getattr(generator, name)(np.empty(args[0], dtype=np.dtype(args[1])), args[2], args[3])
        else:
            result = generator.bernoulli(np.asarray(args[0], dtype=np.dtype(args[1])))
        values.append(result.ravel().tolist())
    return values


def label(case: dict[str, Any]) -> str:
    return f"seed{case['seed']}-" + "-".join(str(call[0]) for call in case["calls"][:2])


@pytest.mark.parametrize("case", CASES, ids=[label(c) for c in CASES])
def test_draws_are_pytorchs_bits(case: dict[str, Any]) -> None:
    for call, got, want in zip(case["calls"], replay(case), case["values"], strict=True):
        assert got == want, f"{call}: first difference at {next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)}"


def test_fixture_covers_both_paths_and_dtypes() -> None:
    sizes = {call[1][0] for case in CASES for call in case["calls"] if call[0] == "randn"}
    dtypes = {call[2] for case in CASES for call in case["calls"] if call[0] == "randn"}
    assert {1, 15, 16, 17, 100, 1000} <= sizes and dtypes == {"float32", "float64"}
    assert {0, 1, 42, 2**32 - 1, 2**40} <= {case["seed"] for case in CASES}


def test_live_torch_agrees() -> None:
    torch = pytest.importorskip("torch")
    if torch.backends.cpu.get_cpu_capability() not in ("AVX2", "AVX512"):
        pytest.skip("PyTorch's float32 normals of 16 or more come from its AVX2 kernel")
    spec = importlib.util.spec_from_file_location("make_torch_random", REFERENCE / "make_torch_random.py")
    assert spec is not None and spec.loader is not None
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    cases = maker.cases()
    extra = [{"seed": seed, "calls": [["randn", [n], dtype] for n in (5, 16, 47, 64)] + [["rand", [9], dtype]]}
             for seed in (7, 2**63 + 5, 31337) for dtype in ("float32", "float64")]
    for case in cases[::3] + extra:
        assert replay(case) == maker.torch_values(case), label(case)


def test_cached_normal_is_forgotten_by_manual_seed() -> None:
    generator = Generator(0)
    first = generator.randn([1]).tolist()  # keeps the pair's second value
    generator.manual_seed(0)
    assert generator.randn([1]).tolist() == first


def test_unseeded_generators_differ() -> None:
    assert Generator().rand([4]).tolist() != Generator().rand([4]).tolist()


SNIPPET = "import torch\ntorch.manual_seed(0); print(torch.randn(3)); print(torch.rand(2, 2)); print(torch.randint(0, 10, (5,)))\n"
PYTORCH_PRINTS = """tensor([ 1.5410, -0.2934, -2.1788])
tensor([[0.4556, 0.6323],
        [0.3489, 0.4017]])
tensor([6, 9, 8, 6, 6])
"""


def test_run_prints_what_pytorch_prints(tmp_path: Path) -> None:
    program = tmp_path / "seeded.py"
    program.write_text(SNIPPET)
    run = cli("run", str(program))
    assert (run.exit_code, run.stdout) == (0, PYTORCH_PRINTS)


def test_run_random_tensors_take_part_in_autograd(tmp_path: Path) -> None:
    program = tmp_path / "grad.py"
    program.write_text("import torch\ntorch.manual_seed(1)\nw = torch.randn(2, 2, dtype=torch.float64, requires_grad=True)\n"
                       "x = torch.rand_like(w)\n(w * x).sum().backward()\nprint(bool((w.grad == x).all()))\n"
                       "print(torch.randperm(5), torch.randint(3, (2,)).dtype)\n")
    run = cli("run", str(program))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[0] == "True"
    assert run.stdout.splitlines()[1].endswith("torch.int64")


def test_run_randint_empty_range_is_pytorchs_error(tmp_path: Path) -> None:
    program = tmp_path / "bad.py"
    program.write_text("import torch\ntorch.randint(3, 3, (2,))\n")
    run = cli("run", str(program))
    assert run.exit_code == 1
    assert "random_ expects 'from' to be less than 'to', but got from=3 >= to=3" in run.stderr
