"""Float32 kernels as PyTorch computes them (#23 item 5), bit for bit over a large sweep.

`x ** 3` of a float32 tensor is PyTorch's pow(Tensor, Scalar) kernel, which multiplies
(x * x * x; 1 / (x * x) for -2), not C's pow; its gradient is g * (3 * (x * x)), each product
rounded to float32. 120,000 points (normals, uniforms over +-1e4) and the special values are
printed by `gradcli run` and held to the SHA-256 of PyTorch 2.13's stdout for the same file;
with torch installed, PyTorch runs the file too.

Other powers (`x ** 4`, `x ** 1.5`, `x ** e` of an exponent tensor, `2.5 ** e`) are SLEEF's vectorised powf where
PyTorch's loop runs vectors, C's pow for the elements it takes one by one (gradcli.ops.float32): the
polynomial tutorials' `x.unsqueeze(-1).pow(p)` (all one by one: C's powf), 32,000 points by 15 exponents, by a
tensor of exponents and as exponents, a broadcast whose rows leave 13 elements to the one-by-one loop, every pair
of special values. Its sizes give the same vectors with 8 lanes (AVX2) as with 16 (AVX-512); where they do not
(the tails of other sizes, the threads' ranges past 32,768 elements), PyTorch itself is the reference.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import pytest

from gradcli import mkl
from gradcli.ops import float32
from tests.helpers import beside_pytorch, cli

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


SLEEF_POWERS = """\
import math
import torch
torch.manual_seed(0)
special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, -1e-30, 1e30, -1e30, 3e-39, -3e-39,
                        1e-45, 3.4e38, -3.4e38, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1.5, -3.0, 100.0, 1e-3])
x = torch.linspace(-math.pi, math.pi, 2000)
p = torch.tensor([1, 2, 3])
print(x.unsqueeze(-1).pow(p).tolist())
b = torch.cat([torch.randn(16000) * 10, torch.rand(8000) * 2e4 - 1e4, torch.rand(8000) * 2 - 1])[:32000 - 24]
b = torch.cat([b, special])
for e in (4, 5, 1.5, -3, 0.3, 10, -4.5, 0, 1, 2, 3, -1, -2, 2.5, -0.5):
    print((b ** e).tolist())
e = torch.cat([torch.randn(31000) * 4, torch.randint(-6, 7, (1000,)).float()])
print(torch.pow(b, e).tolist())
print(torch.pow(b.abs(), e).tolist())
print(torch.pow(2.5, e).tolist(), torch.pow(-2.0, e).tolist(), torch.pow(1, e).tolist())
m = torch.randn(37, 45)
print((m.abs() ** torch.randn(45)).tolist(), (m[:, :1] ** torch.randn(1, 45).round()).tolist(), (m ** torch.tensor(3.5)).tolist())
print(special.repeat_interleave(special.shape[0]).pow(special.repeat(special.shape[0])).tolist())
w = (torch.rand(4096) * 3).requires_grad_()
(w ** 4.5).backward(torch.randn(4096))
print(w.grad.tolist())
"""
# sha256 of PyTorch 2.13's stdout for SLEEF_POWERS
SLEEF_POWERS_BY_PYTORCH = "6bc7f1244688feb4dc41a80ef72bee594441dbdd4b71f0391b8fb8d1d802a307"

# Sizes whose last elements PyTorch's loop takes one by one, and past 32,768 elements its threads' ranges (two
# threads, as the machines the files were recorded on: OMP_NUM_THREADS says so to both)
POWER_TAILS = """\
import torch
torch.manual_seed(0)
for n in (1, 5, 31, 33, 47, 2000, 32767, 32769, 70001):
    x = torch.randn(n) * 3
    print(n, (x ** 4).tolist()[-20:], (x.abs() ** 4.5)[n // 2 - 40:n // 2 + 40].tolist(), (x ** 7).tolist()[:20])
    e = torch.randn(n) * 3
    r = x.abs() ** e
    print(r.tolist()[-20:], r[:20].tolist(), torch.pow(2.0, e).tolist()[-20:])
x = torch.randn(50) * 3
print((x ** torch.tensor(3.0)).tolist(), (x ** torch.tensor(0.5)).tolist(), (x ** torch.tensor(-2.0)).tolist())
a = (torch.rand(40) * 3).requires_grad_()
e = torch.randn(40).requires_grad_()
(a ** e).sum().backward()
print(a.grad.tolist(), e.grad.tolist())
t = torch.randn(5, 3).t()
print((t.abs() ** 2.7).tolist())
"""


def test_float32_powers_are_pytorchs_sleef_and_c_pow_bits() -> None:
    run = cli("run", "-", stdin=SLEEF_POWERS)
    assert run.exit_code == 0, run.stderr
    assert len(run.stdout.splitlines()) == 22
    assert hashlib.sha256(run.stdout.encode()).hexdigest() == SLEEF_POWERS_BY_PYTORCH


def test_pytorch_prints_the_recorded_sleef_powers() -> None:
    pytest.importorskip("torch")
    done = subprocess.run([sys.executable, "-"], input=SLEEF_POWERS, capture_output=True, text=True, timeout=120,
                          check=True)
    assert hashlib.sha256(done.stdout.encode()).hexdigest() == SLEEF_POWERS_BY_PYTORCH


def test_float32_powers_of_any_size_are_pytorchs_where_its_loop_leaves_vectors() -> None:
    pytest.importorskip("torch")
    two_threads = {**os.environ, "OMP_NUM_THREADS": "2"}
    by_pytorch = subprocess.run([sys.executable, "-"], input=POWER_TAILS, capture_output=True, text=True, timeout=120,
                                check=True, env=two_threads)
    run = subprocess.run([sys.executable, "-m", "gradcli", "run", "-"], input=POWER_TAILS, capture_output=True,
                         text=True, timeout=120, env=two_threads)
    assert run.returncode == 0, run.stderr
    assert run.stdout == by_pytorch.stdout


# torch.sigmoid's float32 kernel: 1 / (exp(0 - x) + 1) with SLEEF's expf in its vectors, 1 / (1 + expf(-x)) with C's
# for the elements its loop takes one by one (sizes whose leftovers are the same with 8 lanes as with 16)
SIGMOIDS = """\
import torch
torch.manual_seed(0)
special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, -1e-30, 88.7, 88.8, -87.3, -88.8,
                        -103.9, -104.0, -104.1, 100.0, 100.1, 3e-39, -3e-39, 16.6, -16.6, 1.0, -1.0, 0.5, -0.5])
x = torch.cat([torch.randn(16000) * 10, torch.rand(15976) * 200 - 100, special]).requires_grad_()
s = torch.sigmoid(x)
s.backward(torch.randn(x.shape[0]))
print(s.tolist())
print(x.grad.tolist())
m = torch.randn(37, 45) * 6
print(torch.sigmoid(m).tolist(), torch.nn.Sigmoid()(m[3]).tolist(), m.sigmoid()[5:].tolist())
"""
# sha256 of PyTorch 2.13's stdout for SIGMOIDS
SIGMOIDS_BY_PYTORCH = "5c0cd4d058b82df9372f49d9111254740caa83877ba8290f04fc76c730c028f6"

# tanh's backward, g * (1 - y * y), is one fused multiply-add in PyTorch's float32 kernel; sigmoid's leftovers
TANH_AND_SIGMOID_TAILS = """\
import torch
torch.manual_seed(0)
for n in (1, 7, 24, 33, 40, 100, 1000):
    x = (torch.randn(n) * 4).requires_grad_()
    y = torch.tanh(x)
    y.backward(torch.randn(n))
    print(n, x.grad.tolist(), torch.sigmoid(x.detach() * 3).tolist())
"""


def test_float32_sigmoid_is_pytorchs_sleef_and_c_exp_bits() -> None:
    run = cli("run", "-", stdin=SIGMOIDS)
    assert run.exit_code == 0, run.stderr
    assert hashlib.sha256(run.stdout.encode()).hexdigest() == SIGMOIDS_BY_PYTORCH


def test_pytorch_prints_the_recorded_sigmoids() -> None:
    pytest.importorskip("torch")
    done = subprocess.run([sys.executable, "-"], input=SIGMOIDS, capture_output=True, text=True, timeout=120,
                          check=True)
    assert hashlib.sha256(done.stdout.encode()).hexdigest() == SIGMOIDS_BY_PYTORCH


def test_tanh_backward_and_sigmoid_tails_are_pytorchs() -> None:
    # (tanh itself is MKL's VML in PyTorch, whose bits are the CPU's: gradcli runs with the mkl extra beside it)
    pytest.importorskip("torch")
    if mkl._path() is None:
        pytest.skip("PyTorch's tanh is MKL's: pip install 'gradcli[mkl]' to compare its bits")
    by_pytorch, run = beside_pytorch(TANH_AND_SIGMOID_TAILS)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == by_pytorch


# torch.softmax of float32 over the last dim (its _vec_softmax_lastdim): SLEEF's expf, the row's sum in vectors of
# 16 lanes then a tree of its lanes, times 1 / the sum; its backward (g - sum(g * y)) * y with that sum. The vectors
# are AVX-512's on the machines these were recorded on (8 lanes elsewhere: other sums).
SOFTMAXES = """\
import torch
torch.manual_seed(0)
for shape in ((50, 49), (7, 5), (3, 16), (4, 100), (2, 1000), (10, 33), (6, 2, 17)):
    x = (torch.randn(*shape) * 4).requires_grad_()
    y = torch.softmax(x, dim=-1)
    y.backward(torch.randn(*shape))
    print(shape, y.tolist(), x.grad.tolist())
z = torch.randn(4, 40) * 30
print(torch.nn.functional.softmax(z, dim=1).tolist(), z.softmax(-1).sum().item(), torch.nn.Softmax(dim=1)(z[:2]).tolist())
"""
# sha256 of PyTorch 2.13's stdout for SOFTMAXES
SOFTMAXES_BY_PYTORCH = "55b78de2f5bfe93d6371bc08ef01dbe4c5a20f52f740582f240481ffb1ab38ea"
_AVX512 = pytest.mark.skipif(float32._lanes() != 16, reason="recorded where PyTorch's vectors have 16 lanes (AVX-512)")


@_AVX512
def test_float32_softmax_over_the_last_dim_and_its_gradient_are_pytorchs_bits() -> None:
    run = cli("run", "-", stdin=SOFTMAXES)
    assert run.exit_code == 0, run.stderr
    assert hashlib.sha256(run.stdout.encode()).hexdigest() == SOFTMAXES_BY_PYTORCH


@_AVX512
def test_pytorch_prints_the_recorded_softmaxes() -> None:
    pytest.importorskip("torch")
    done = subprocess.run([sys.executable, "-"], input=SOFTMAXES, capture_output=True, text=True, timeout=120,
                          check=True)
    assert hashlib.sha256(done.stdout.encode()).hexdigest() == SOFTMAXES_BY_PYTORCH


# torch.log_softmax of float32 over the last dim: (x - max) - log(sum), the sum of SLEEF's expf in vectors of 16 lanes,
# its log SLEEF's logf; its gradient g - exp(y) * sum(g) one fused multiply-add; nll_loss's (cross_entropy's) sum
# over a batch in its cascade of partial sums, with weights, ignore_index and 'sum'.
LOG_SOFTMAXES = """\
import torch
torch.manual_seed(0)
for shape in ((6, 5), (4, 100), (10, 33), (3, 16)):
    x = (torch.randn(*shape) * 3).requires_grad_()
    y = torch.log_softmax(x, dim=1)
    g = torch.randn(*shape)
    y.backward(g)
    print(shape, y.tolist(), x.grad.tolist())
    x2 = (torch.randn(*shape) * 3).requires_grad_()
    t = torch.randint(0, shape[1], (shape[0],))
    l = torch.nn.functional.cross_entropy(x2, t)
    l.backward()
    print(l.item(), x2.grad.tolist())
for n, c in ((6, 5), (300, 7), (5000, 3), (70000, 4), (17, 3)):
    x = (torch.randn(n, c) * 3).requires_grad_()
    t = torch.randint(0, c, (n,))
    t[::7] = -100
    w = torch.rand(c) + 0.5
    for kw in ({}, {"weight": w}, {"reduction": "sum"}, {"weight": w, "reduction": "sum"}, {"ignore_index": 1}):
        l = torch.nn.functional.cross_entropy(x, t.clamp(min=0) if "ignore_index" in kw else t, **kw)
        print(n, c, sorted(kw), l.item())
    print(torch.nn.functional.nll_loss(torch.log_softmax(x, 1), t).item())
"""
# sha256 of PyTorch 2.13's stdout for LOG_SOFTMAXES
LOG_SOFTMAXES_BY_PYTORCH = "8e2e006981653f6a5a2da9a2805cb78ec31d528faa83fca42395650c75571926"


@_AVX512
def test_float32_log_softmax_and_cross_entropy_are_pytorchs_bits() -> None:
    run = cli("run", "-", stdin=LOG_SOFTMAXES)
    assert run.exit_code == 0, run.stderr
    assert hashlib.sha256(run.stdout.encode()).hexdigest() == LOG_SOFTMAXES_BY_PYTORCH


@_AVX512
def test_pytorch_prints_the_recorded_log_softmaxes() -> None:
    pytest.importorskip("torch")
    done = subprocess.run([sys.executable, "-"], input=LOG_SOFTMAXES, capture_output=True, text=True, timeout=120,
                          check=True)
    assert hashlib.sha256(done.stdout.encode()).hexdigest() == LOG_SOFTMAXES_BY_PYTORCH
