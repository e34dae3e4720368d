"""gradcli.mkl: PyTorch's float kernels through MKL (`pip install 'gradcli[mkl]'`), held to PyTorch's own bits.

tests/reference/mkl_kernels.json holds torch 2.13's results (tests/reference/make_mkl_reference.py): every
product and VML function gradcli.mkl computes must give them, in float32. Without the library
those are skipped; every kernel then answers None and `gradcli run` computes with NumPy as before.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from gradcli import mkl
from tests.reference.make_mkl_reference import (
    CASES,
    FIXTURE,
    RECORDED_ON,
    SPECIAL,
    UNARY,
    bits,
    layout,
    local_code_path,
    values,
)

RECORDED = json.loads(FIXTURE.read_text())["kernels"]
TWO_THREADS = {**os.environ, "MKL_NUM_THREADS": "2"}  # (as PyTorch recorded them: MKL splits long sums among threads)


@pytest.fixture
def routed():
    token = mkl.ROUTED.set(True)
    yield
    mkl.ROUTED.reset(token)


# (PyTorch's version of MKL installed; the kernels run in a Python of their own, for a test process may have
# imported torch, whose own MKL would take over this one's symbols: gradcli.mkl.library)
needs_mkl = pytest.mark.skipif(mkl._path() is None or local_code_path() != RECORDED_ON,
                               reason="MKL 2024.2 is not installed (pip install 'gradcli[mkl]'), or takes another code path "
                                      "than the AVX-512 one the bits were recorded on")


def _computed(name: str, args: list[np.ndarray]) -> list[np.ndarray | None]:
    if name == "linear":  # F.linear and its backward, as gradcli's rows compute them (mm_mat2_backward's form)
        x, w, b, g = args
        return [mkl.addmm(b, x, w.T, 1.0), mkl.mm(g.T, x)]  # (the bias's gradient is a sum: not MKL's)
    product = {"mm": mkl.mm, "mv": mkl.mv, "dot": mkl.dot, "bmm": mkl.bmm}.get(name)
    if product is not None:
        return [product(*args)]
    bias, a, b = args
    return [mkl.addmm(bias, a, b, 1.0)]


def computed_everywhere() -> dict[str, list[int]]:
    """The bits gradcli.mkl gives for every recorded kernel (run in a fresh Python by the fixture below)."""
    token = mkl.ROUTED.set(True)
    made: dict[str, list[int]] = {}
    with np.errstate(all="ignore"):
        for dtype in ("float32",):
            for name, shapes, layouts in CASES:
                args = [layout(values(shape, dtype, i), how)
                        for i, (shape, how) in enumerate(zip(shapes, layouts, strict=True))]
                made[f"{name} {dtype} {shapes} {layouts}"] = [v for out in _computed(name, args) for v in bits(out)]
            x = np.asarray(SPECIAL[dtype], dtype=dtype)
            for name in UNARY:
                made[f"{name} {dtype}"] = bits(mkl.unary(name, x))
                made[f"{name} {dtype} reversed view"] = bits(mkl.kernel(getattr(np, name))(x[::-1])[::-1])
            base = mkl._aligned(np.arange(48, dtype=dtype).reshape(6, 8) % 7 - 3)  # (aligned: views passed as they are)
            operands = [base[:3, :4], base[:4, :3].T, base[::2, :4], base[:3, ::2],
                        np.broadcast_to(base[0, :4], (3, 4)), base[:3, :4].copy(order="F")]
            # small integers: every order of the sums gives the exact product, whatever layout each operand has
            made[f"views {dtype}"] = [int(np.array_equal(mkl.mm(a, b.T), a.astype(float) @ b.T.astype(float)))
                                      for a in operands for b in operands]
            made[f"views {dtype}"] += [int(np.array_equal(mkl.mv(a, base[0, :4]), a.astype(float) @ base[0, :4]))
                                       for a in operands]
    mkl.ROUTED.reset(token)
    return made


@pytest.fixture(scope="module")
def computed() -> dict[str, list[int]]:
    program = "import json\nfrom tests.test_mkl import computed_everywhere\nprint(json.dumps(computed_everywhere()))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=600,
                          cwd=FIXTURE.parents[2], env=TWO_THREADS)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32"])
@pytest.mark.parametrize(("name", "shapes", "layouts"), CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_a_product_gives_pytorchs_bits(computed, name, shapes, layouts, dtype):
    got = computed[f"{name} {dtype} {shapes} {layouts}"]
    assert got == RECORDED[f"{name} {dtype} {shapes} {layouts}"][:len(got)]


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32"])
@pytest.mark.parametrize("name", UNARY)
def test_a_vml_function_gives_pytorchs_bits_at_special_points(computed, name, dtype):
    assert computed[f"{name} {dtype}"] == RECORDED[f"{name} {dtype}"]
    assert computed[f"{name} {dtype} reversed view"] == RECORDED[f"{name} {dtype}"]


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32"])
def test_a_product_of_views_of_any_strides_is_the_product(computed, dtype):
    assert all(computed[f"views {dtype}"])


def test_outside_a_run_every_kernel_answers_none():
    a = np.ones((2, 2), np.float32)
    assert mkl.mm(a, a) is None and mkl.unary("sin", a) is None and mkl.dot(a[0], a[0]) is None
    assert np.array_equal(mkl.kernel(np.sin)(a), np.sin(a))


def test_without_the_library_every_kernel_answers_none_and_numpy_computes(routed, monkeypatch):
    monkeypatch.setattr(mkl, "_library", [None])
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert mkl.mm(a, a.T) is None and mkl.mv(a, a[0]) is None and mkl.unary("exp", a) is None
    assert mkl.bmm(a[None], a.T[None]) is not None  # (PyTorch's own loop for a small bmm needs no MKL)
    assert np.array_equal(mkl.kernel(np.exp)(a), np.exp(a))


def _installed(site, version: str) -> str:
    """An `mkl` distribution of this version in the directory `site`, its library where its RECORD says."""
    name = "mkl_rt.2.dll" if sys.platform == "win32" else "libmkl_rt.so.2"
    info = site / f"mkl-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: mkl\nVersion: {version}\n")
    (info / "RECORD").write_text(f"lib/{name},sha256=x,3\nmkl-{version}.dist-info/METADATA,,\n")
    (site / "lib").mkdir()
    (site / "lib" / name).write_bytes(b"elf")
    return str(site / "lib" / name)


def test_another_version_of_mkl_is_not_loaded(monkeypatch, tmp_path):
    _installed(tmp_path, "2025.0.1")
    monkeypatch.syspath_prepend(str(tmp_path))  # (the first distribution on sys.path, as importlib.metadata finds it)
    assert mkl._path() is None


def test_the_library_is_where_the_distributions_record_says(monkeypatch, tmp_path):
    path = _installed(tmp_path, mkl.VERSION + ".2")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert mkl._path() == path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_grad_and_the_scalar_path_never_load_mkl():
    program = ("from tests.helpers import cli\n"
               "cli('grad', 'sin(x) * exp(x) @ x', '--at', 'x=[0.5, 1.5]')\n"
               "cli('grad', 'tanh(x) * sqrt(x)', '--at', 'x=0.5')\n"
               "cli('graph', 'cos(x) @ x', '--at', 'x=[0.5, 1.5]')\n"
               "print('libmkl_rt' in open('/proc/self/maps').read())")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, cwd=FIXTURE.parents[2])
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr



def test_a_process_that_imported_torch_does_not_use_mkl(routed, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", object())
    a = np.ones((2, 2), np.float32)
    assert mkl.library() is None and mkl.mm(a, a) is None and mkl.unary("sin", a) is None
