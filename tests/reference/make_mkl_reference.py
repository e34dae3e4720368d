"""Record PyTorch 2.13's float kernels that gradcli.mkl computes (needs torch; run from the repository root):

    python tests/reference/make_mkl_reference.py

writes tests/reference/mkl_kernels.json: for each product (mm of each layout, addmm, linear's forward and
backward, mv, dot, bmm on either side of PyTorch's 400 multiply-adds) and each VML function over special
points, in float32, the bits of torch's result. The inputs are made by `values` below (exact in float32,
so the file holds none): tests/test_mkl.py holds gradcli.mkl to the file without torch. Recorded with PyTorch
on 2 threads, and the tests run MKL on 2 (MKL_NUM_THREADS): MKL splits long sums across its threads.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "reference" / "mkl_kernels.json"
# MKL's code path (gradcli.mkl.code_path) on the machine that recorded this file and the tutorials' outputs:
# AVX-512 E1. Another path (AVX2 ...) may sum otherwise, in PyTorch too: the tests that need MKL's bits skip there.
RECORDED_ON = 14


@functools.cache
def local_code_path() -> int | None:
    """gradcli.mkl.code_path() here, asked in a Python of its own (a test process may have imported torch)."""
    program = "from gradcli import mkl\nprint(mkl.code_path())"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, cwd=ROOT)
    return int(done.stdout) if done.returncode == 0 and done.stdout.strip().isdigit() else None

# (torch function, the args' shapes, their layouts: C row-major, T a transposed view of a row-major array)
CASES: list[tuple[str, tuple[tuple[int, ...], ...], str]] = [
    *(("mm", ((5, 7), (7, 3)), layouts) for layouts in ("CC", "CT", "TC", "TT")),
    ("mm", ((1, 2000), (2000, 3)), "CC"),  # a long sum MKL splits across threads
    ("mm", ((3, 2000), (2000, 1)), "TC"),
    ("mm", ((1, 200), (200, 1)), "CT"),
    ("mm", ((17, 513), (513, 1)), "CC"),
    ("mm", ((33, 17), (17, 9)), "CC"),
    ("addmm", ((9,), (33, 17), (17, 9)), "CCC"),
    ("addmm", ((2,), (10, 10), (10, 2)), "CCC"),
    ("linear", ((64, 100), (10, 100), (10,), (64, 10)), "CCCC"),
    ("linear", ((500, 3), (1, 3), (1,), (500, 1)), "CCCC"),
    ("mv", ((3, 2000), (2000,)), "CC"),
    ("mv", ((300, 30), (30,)), "TC"),
    ("dot", ((513,), (513,)), "CC"),
    ("bmm", ((50, 1, 49), (50, 49, 1)), "CC"),  # PyTorch's own loop (under 400 multiply-adds a matrix)
    ("bmm", ((3, 10, 20), (3, 20, 5)), "CC"),  # MKL's batched gemm
]
UNARY = ("sin", "cos", "tan", "tanh", "exp", "log", "log10", "log2", "sqrt", "arcsin", "arccos", "arctan")
_EDGES = [float("nan"), float("inf"), -float("inf"), 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 1e-30, -1e-30, 1e30, -1e30,
          3.0e38, -3.0e38, 1.1754944e-38, 1e-40, -1e-45, 88.7, 89.0, -87.3, -103.9, 709.0, 710.0, -745.0, 1e300, -1e300,
          1e-310, 3.14159265, 1.5707963, 0.7853982, 1e5, -1e5, 12345.678, 0.999999, 1.000001, 20.0, -20.0, 9.0, 0.1]
SPECIAL = {dtype: _EDGES + [float(v) for v in ((np.arange(-60, 60) * 7919 % 2001 - 1000) / 137.0)]
           for dtype in ("float32",)}


def values(shape: tuple[int, ...], dtype: str, seed: int) -> Any:
    """Inputs of a product: small rationals, exact in float64, the same on every machine."""
    count = int(np.prod(shape))
    numbers = ((np.arange(count) * 7919 + seed * 104729) % 2001 - 1000) / 337.0
    return numbers.reshape(shape).astype(dtype)


def layout(x: Any, how: str) -> Any:
    """x as PyTorch would hold it: row-major (C), or a transposed view of a row-major copy (T)."""
    return x if how == "C" else x.T.copy(order="C").T


def bits(x: Any) -> list[int]:
    """The bits of each number of x, in order."""
    x = np.ascontiguousarray(x)
    return x.view(np.uint32 if x.dtype == np.float32 else np.uint64).ravel().tolist()


def main() -> None:
    import torch

    torch.set_num_threads(2)
    recorded: dict[str, list[int]] = {}
    for dtype in ("float32",):
        for name, shapes, layouts in CASES:
            args = []
            for i, (shape, how) in enumerate(zip(shapes, layouts, strict=True)):
                made = values(shape, dtype, i)
                args.append(torch.from_numpy(made).clone() if how == "C" else torch.from_numpy(made.T.copy()).clone().t())
            if name == "linear":
                x, w, b, g = args
                w.requires_grad_(True)
                b.requires_grad_(True)
                y = torch.nn.functional.linear(x, w, b)
                y.backward(g)
                outs = [y, w.grad, b.grad]
            else:
                outs = [getattr(torch, name)(*args)]
            recorded[f"{name} {dtype} {shapes} {layouts}"] = [v for out in outs for v in bits(out.detach().numpy())]
        with np.errstate(over="ignore"):  # (float32's overflows: infinities, as PyTorch's casts)
            x = torch.from_numpy(np.asarray(SPECIAL[dtype], dtype=dtype))
        for name in UNARY:
            recorded[f"{name} {dtype}"] = bits(getattr(torch, name)(x).numpy())
    FIXTURE.write_text(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "kernels": recorded})
                       + "\n")
    print(f"wrote {FIXTURE} ({len(recorded)} kernels)")


if __name__ == "__main__":
    main()
