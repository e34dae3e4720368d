"""Float32 kernels as PyTorch computes them (#23 item 5), bit for bit over a large sweep.

`x ** 3` of a float32 tensor is PyTorch's pow(Tensor, Scalar) kernel, which multiplies
(x * x * x; 1 / (x * x) for -2), not C's pow; its gradient is g * (3 * (x * x)), each product
rounded to float32. 120,000 points (normals, uniforms over +-1e4) and the special values are
printed by `gradcli run` and held to the SHA-256 of PyTorch 2.13's stdout for the same file;
with torch installed, PyTorch runs the file too.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from tests.helpers import cli

POWERS = """\
import torch
torch.manual_seed(0)
special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, -1e-30, 1e30, -1e30, 3e-39, -3e-39,
                        1e-45, 3.4e38, -3.4e38, 1e13, -1e13, 2.0 ** -63, 4.6e12, 7e-14, 1.0, -1.0])
x = torch.cat([torch.randn(100000) * 10, torch.rand(20000) * 2e4 - 1e4, special]).requires_grad_()
g = torch.randn(x.shape[0])
y = x ** 3
y.backward(g)
print(y.tolist())
print(x.grad.tolist())
print(x.detach().pow(3).tolist())
print((x.detach() ** -2).tolist())
print(torch.pow(x.detach(), 2).tolist())
"""
# sha256 of PyTorch 2.13's stdout for POWERS (python POWERS.py | sha256sum)
POWERS_BY_PYTORCH = "ef72387a8e05d70f47609746e2a19258ae6b3b33eba165adbca98958512de94f"


def test_float32_powers_and_their_gradient_are_pytorchs_bits() -> None:
    run = cli("run", "-", stdin=POWERS)
    assert run.exit_code == 0, run.stderr
    assert len(run.stdout.splitlines()) == 5
    assert hashlib.sha256(run.stdout.encode()).hexdigest() == POWERS_BY_PYTORCH


def test_pytorch_prints_the_recorded_powers() -> None:
    pytest.importorskip("torch")
    done = subprocess.run([sys.executable, "-"], input=POWERS, capture_output=True, text=True, timeout=120, check=True)
    assert hashlib.sha256(done.stdout.encode()).hexdigest() == POWERS_BY_PYTORCH
