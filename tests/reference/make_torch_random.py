"""PyTorch's random numbers for gradcli.run.random to be held to, without torch in CI.

Run it with a Python that has PyTorch (2.13, CPU, on an x86 machine with AVX2: PyTorch's
float32 normals of 16 or more elements come from its AVX2 kernel):

    /path/to/python-with-torch tests/reference/make_torch_random.py

It writes tests/reference/torch_random.json: for each case a seed, the calls made after
torch.manual_seed(seed) in order (each call continues the generator's state, the cached
normal included), and what each call gave. tests/test_run_random.py replays the calls on
gradcli's Generator and holds every value to PyTorch's bits; with torch installed it also
replays them live through `torch_values` below.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "torch_random.json"

SEEDS = [0, 1, 42, 2**32 - 1, 2**32, 2**40, 123456789, 2**64 - 1]
SIZES = [1, 2, 3, 15, 16, 17, 31, 32, 33, 100]  # PyTorch changes paths at 16
DTYPES = ["float32", "float64"]


def cases() -> list[dict[str, Any]]:
    """Each case: a seed and the calls made after it, in order."""
    found: list[dict[str, Any]] = []
    for seed in SEEDS:
        for dtype in DTYPES:
            found.append({"seed": seed, "calls": [["rand", [n], dtype] for n in SIZES]})
            found.append({"seed": seed, "calls": [["randn", [n], dtype] for n in SIZES]})
        found.append({"seed": seed, "calls": [
            ["randint", 0, 10, [5]], ["randint", -5, 5, [17]], ["randint", 0, 2**40, [4]], ["randint", 3, 4, [2]],
            ["randperm", 1], ["randperm", 2], ["randperm", 10], ["randperm", 100]]})
        found.append({"seed": seed, "calls": [
            ["randn", [3], "float32"], ["randn", [1], "float32"], ["randn", [2, 2], "float64"], ["rand", [1], "float32"],
            ["randn", [1], "float64"], ["normal_", [5], "float32", 2.0, 3.0], ["normal_", [20], "float32", -1.0, 0.5],
            ["normal_", [20], "float64", 1.5, 2.5], ["uniform_", [7], "float32", -2.0, 5.0],
            ["uniform_", [7], "float64", -2.0, 5.0], ["uniform_", [33], "float32", 0.1, 0.3],
            ["bernoulli", [0.0, 0.25, 0.5, 0.75, 1.0, 0.5, 0.5, 0.3], "float32"],
            ["bernoulli", [0.1, 0.9, 0.5, 0.5], "float64"]]})
    for seed in (0, 2**40):  # long enough to twist the state more than once
        found.append({"seed": seed, "calls": [["rand", [1000], "float32"], ["randn", [1000], "float32"],
                                              ["randn", [1000], "float64"], ["rand", [1000], "float64"]]})
    return found


def torch_values(case: dict[str, Any]) -> list[list[float]]:
    """What PyTorch gives for the case's calls, flattened, each call's list in order."""
    import torch

    torch.manual_seed(case["seed"])
    values = []
    for call in case["calls"]:
        name, args = call[0], call[1:]
        if name == "rand":
            result = torch.rand(*args[0], dtype=getattr(torch, args[1]))
        elif name == "randn":
            result = torch.randn(*args[0], dtype=getattr(torch, args[1]))
        elif name == "randint":
            result = torch.randint(args[0], args[1], tuple(args[2]))
        elif name == "randperm":
            result = torch.randperm(args[0])
        elif name == "normal_":
            result = torch.empty(*args[0], dtype=getattr(torch, args[1])).normal_(args[2], args[3])
        elif name == "uniform_":
            result = torch.empty(*args[0], dtype=getattr(torch, args[1])).uniform_(args[2], args[3])
        elif name == "bernoulli":
            result = torch.bernoulli(torch.tensor(args[0], dtype=getattr(torch, args[1])))
        else:
            raise ValueError(name)
        values.append([float(v) if result.is_floating_point() else int(v) for v in result.flatten().tolist()])
    return values


def main() -> None:
    import torch

    found = cases()
    for case in found:
        case["values"] = torch_values(case)
    OUT.write_text(json.dumps({"torch": torch.__version__, "cpu_capability": torch.backends.cpu.get_cpu_capability(),
                               "cases": found}, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(found)} cases)")


if __name__ == "__main__":
    main()
