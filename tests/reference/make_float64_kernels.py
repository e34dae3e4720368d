"""Record PyTorch's float64 softmax, log_softmax, nll_loss and layer_norm for tests/test_float64_kernels.py (run with torch
installed: `python tests/reference/make_float64_kernels.py`; writes float64_kernels.json beside it).

Each case is a program of `gradcli run`'s (its inputs written out as float64 literals) and what PyTorch printed
for it, together with the exponentials PyTorch's vector kernels took (SLEEF's exp, read back through
_log_softmax_backward_data, whose g - exp(y) * sum(g) is -exp(y) exactly where g is 0 and the sum 1): the test
compares the slices whose exponentials NumPy's exp gives with the same bits, as the order of the arithmetic is
what is under test, not the libm. Recorded on a CPU where PyTorch runs its AVX-512 kernels (8 doubles a vector).
Over a dim that is not the last, PyTorch's threads split the other positions among them and take the ones left
over from whole vectors one by one, through C's exp: the shapes there give each thread whole vectors.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
CASES = [  # (name, shape, dim, op)
    *[(f"softmax_last_{n}", (6, n), -1, "softmax") for n in (1, 3, 4, 5, 8, 9, 15, 16, 17, 33, 65)],
    ("softmax_last_240", (2, 240), -1, "softmax"),
    *[(f"log_softmax_last_{n}", (6, n), -1, "log_softmax") for n in (3, 5, 8, 17, 65)],
    ("softmax_dim0", (9, 16), 0, "softmax"),
    ("softmax_dim1_of_3", (4, 7, 16), 1, "softmax"),
    ("log_softmax_dim0", (9, 16), 0, "log_softmax"),
    ("log_softmax_dim1_of_3", (4, 7, 16), 1, "log_softmax"),
    ("softmax_3d_last", (2, 3, 13), 2, "softmax"),
]
PROGRAM = """import torch
x = torch.tensor({x}, dtype=torch.float64, requires_grad=True)
g = torch.tensor({g}, dtype=torch.float64)
y = torch.{op}(x, {dim})
y.backward(g)
print(y.tolist())
print(x.grad.tolist())
"""
LAYER_NORM = """import torch
import torch.nn.functional as F
x = torch.tensor({x}, dtype=torch.float64, requires_grad=True)
g = torch.tensor({g}, dtype=torch.float64)
y = F.layer_norm(x, {shape}{affine})
y.backward(g)
print(y.tolist())
print(x.grad.tolist())
"""
NLL = """import torch
import torch.nn.functional as F
x = torch.tensor({x}, dtype=torch.float64, requires_grad=True)
t = torch.tensor({t})
loss = F.nll_loss(x, t)
loss.backward()
print(loss.item(), F.nll_loss(x, t, reduction="sum").item(), F.nll_loss(x, t, weight=torch.arange(1.0, {c} + 1, dtype=torch.float64)).item())
"""


def sleef_exp(v: torch.Tensor) -> list[float]:
    """The exponential of each element as PyTorch's float64 vector kernels compute it (SLEEF's)."""
    flat = torch.cat([v.detach().reshape(-1), torch.zeros(1, dtype=torch.float64)])
    g = torch.zeros_like(flat)
    g[-1] = 1.0
    back = torch.ops.aten._log_softmax_backward_data(g[None], flat[None], -1, torch.float64)[0]
    return (-back[:-1]).tolist()


def run(source: str) -> str:
    return subprocess.run([sys.executable, "-"], input=source, capture_output=True, text=True, check=True).stdout


def main() -> None:
    torch.manual_seed(0)
    cases = {}
    for name, shape, dim, op in CASES:
        x = torch.randn(*shape, dtype=torch.float64) * 3
        g = torch.randn(*shape, dtype=torch.float64)
        source = PROGRAM.format(x=x.tolist(), g=g.tolist(), op=op, dim=dim)
        stdout = run(source)
        shifted = x - x.max(dim, keepdim=True).values
        exps = {"exp_shifted": sleef_exp(shifted)}
        if op == "log_softmax":
            exps["exp_y"] = sleef_exp(torch.log_softmax(x, dim))
        cases[name] = {"source": source, "stdout": stdout, "shape": list(shape), "dim": dim, "op": op, **exps}
    for batch in (6, 17, 40, 300):
        x = torch.log_softmax(torch.randn(batch, 5, dtype=torch.float64), 1)
        t = torch.randint(0, 5, (batch,))
        source = NLL.format(x=x.tolist(), t=t.tolist(), c=5)
        cases[f"nll_loss_{batch}"] = {"source": source, "stdout": run(source), "op": "nll_loss"}
    for size in (1, 3, 5, 8, 17, 65, 127, 240, 1000):
        for affine in (False, True):
            x = torch.randn(4, size, dtype=torch.float64) * 2 + 1
            g = torch.randn(4, size, dtype=torch.float64)
            extra = ""
            if affine:
                w, b = torch.randn(size, dtype=torch.float64), torch.randn(size, dtype=torch.float64)
                extra = f", torch.tensor({w.tolist()}, dtype=torch.float64), torch.tensor({b.tolist()}, dtype=torch.float64)"
            source = LAYER_NORM.format(x=x.tolist(), g=g.tolist(), shape=(size,), affine=extra)
            cases[f"layer_norm_{size}{'_affine' if affine else ''}"] = {"source": source, "stdout": run(source),
                                                                        "op": "layer_norm"}
    x = torch.randn(2, 3, 5, dtype=torch.float64)
    source = LAYER_NORM.format(x=x.tolist(), g=torch.randn(2, 3, 5, dtype=torch.float64).tolist(), shape=(3, 5), affine="")
    cases["layer_norm_3x5"] = {"source": source, "stdout": run(source), "op": "layer_norm"}
    record = {"torch": torch.__version__, "capability": torch.backends.cpu.get_cpu_capability(), "cases": cases}
    (HERE / "float64_kernels.json").write_text(json.dumps(record, indent=0) + "\n")
    print(len(cases), "cases", file=sys.stderr)


if __name__ == "__main__":
    main()
