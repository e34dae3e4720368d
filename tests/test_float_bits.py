"""math's functions that the float rules call instead of NumPy's (gradcli.float_math) give NumPy's bits.

Bit for bit, the signs of zeros and of NaNs included, at the special points and at many ordinary
and random ones, against NumPy's ufunc on an array and on one number: on the machine the suite
runs on, so that a NumPy built with other code for one of them is caught here.
"""

from __future__ import annotations

import math
import struct
import subprocess
import sys

import numpy as np
import pytest

from gradcli import grad
from gradcli.float_math import EXACT, power
from gradcli.ops import FLOATS, OPS

SPECIAL = [0.0, -0.0, math.nan, -math.nan, math.inf, -math.inf, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300,
           -1e-300, 1e-8, 0.5, -0.5, 1.0, -1.0, 2.0, math.pi, math.pi / 2, -math.pi, 709.78, 710.0, 1e16, 1e22, -1e22,
           2.0**53, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308]


def _points() -> list[float]:
    rng = np.random.default_rng(26)
    ordinary = np.concatenate([rng.uniform(-10, 10, 20_000), rng.uniform(-1e6, 1e6, 5_000),
                               10.0 ** rng.uniform(-300, 300, 5_000) * rng.choice([-1, 1], 5_000)])
    # every kind of float64 alike, from its bits: subnormal, huge, NaNs with payloads
    random_bits = rng.integers(0, 2**64, 20_000, dtype=np.uint64).view(np.float64)  # (NaNs of either sign too)
    return SPECIAL + ordinary.tolist() + random_bits.tolist()


POINTS = _points()


def bits(x: float) -> bytes:
    return struct.pack("<d", float(x))


@pytest.mark.parametrize("name", sorted(EXACT))
def test_math_gives_numpys_bits(name):
    ufunc = getattr(np, name)
    ours = EXACT[name]
    with np.errstate(all="ignore"):
        theirs = ufunc(np.array(POINTS))
        differ = []
        for x, expected in zip(POINTS, theirs.tolist(), strict=True):
            try:
                got = ours(x)
            except ValueError:  # math.sqrt(-1), math.sin(inf): the float sweep hands back to NumPy
                continue
            if bits(got) != bits(expected) or bits(ufunc(x)) != bits(expected):
                differ.append((x, got, expected))
    assert differ == []


@pytest.mark.parametrize("exponent", [2.0, 1.0, 0.0, -0.0, -1.0, 0.5])
def test_the_powers_done_without_numpy_give_numpys_bits(exponent):
    with np.errstate(all="ignore"):
        theirs = np.power(np.array(POINTS), exponent).tolist()
    differ = []
    for x, expected in zip(POINTS, theirs, strict=True):
        try:
            got = power(x, exponent)
        except ArithmeticError:  # (1 / 0; the power 0.5 of a number not above 0: PyTorch's overloads differ there)
            continue
        if bits(got) != bits(expected):
            differ.append((x, got, expected))
    assert differ == []


def test_the_float_rules_call_math_where_it_has_numpys_bits():
    assert (FLOATS.sin, FLOATS.cos, FLOATS.sqrt, FLOATS.abs, FLOATS.sign) == (math.sin, math.cos, math.sqrt, abs,
                                                                              EXACT["sign"])
    assert [OPS[name].floats[0] for name in ("sin", "cos")] == [math.sin, math.cos]
    assert FLOATS.exp is np.exp and FLOATS.log is np.log  # libm's differ in the last place here


def test_a_program_of_math_exact_functions_gives_the_bits_of_numpys_sweep():
    program, at = "sqrt(abs(sin(x) * cos(y))) + sign(x) * y", {"x": 0.5, "y": -0.75}
    on_floats = grad(program, at=at)
    on_arrays = grad(program, at={name: np.array([value]) for name, value in at.items()}, seed=np.ones(1))
    assert bits(on_floats.value) == bits(on_arrays.value[0])
    assert [bits(g) for g in on_floats.grad.values()] == [bits(g[0]) for g in on_arrays.grad.values()]


def test_the_functions_of_math_import_no_numpy():
    check = "import sys, gradcli.float_math; sys.exit('numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0
