"""NumPy in `gradcli run` (run/arrays.py): np.random's legacy seeded draws and the array arithmetic
that tutorials write beside PyTorch, printed as NumPy prints them. NumPy is gradcli's own
dependency, so each file is also run by Python itself here: its stdout is the reference."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import cli

FILES = {
    "draws": """\
import numpy as np
np.random.seed(0)
print(np.random.randn(3))
print(np.random.randn())
print(np.random.rand(2, 2))
print(np.random.uniform(-1, 1, size=3), np.random.randint(0, 10, size=5))
np.random.seed(1)
print(np.random.normal(0, 2, 4), np.random.standard_normal(), np.random.random(2))
""",
    "arithmetic": """\
import numpy as np
import math
np.random.seed(3)
x = np.random.randn(4, 3)
w = np.random.randn(3, 2)
h = x.dot(w)
relu = np.maximum(h, 0)
print(relu)
print(np.square(h - 1).sum(), h.T.shape, h.mean(), h.T.dot(x).shape)
g = h.copy()
g[h < 0] = 0
print(g)
alias = w
w -= 0.5 * w
print(alias is w, alias[0, 0] == w[0, 0])
a = 1.5
a -= 1e-6 * h.sum()
print(f'{a}', type(a), type(h), h[0], h[1:, 0], h @ np.ones(2))
t = np.linspace(-math.pi, math.pi, 5)
print(np.sin(t), t ** 3, (t * 2).sum(), np.float32(2.5) * 2)
""",
    "numpy_raises": """\
import numpy as np
print(np.zeros(2))
np.dot(np.ones((2, 3)), np.ones((2, 3)))
""",
}


def _python(source: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-"], input=source, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_numpy_file_prints_what_numpy_prints(name: str) -> None:
    source = FILES[name]
    python = _python(source)
    run = cli("run", "-", stdin=source)
    assert run.stdout == python.stdout
    assert run.exit_code == (1 if python.returncode else 0), run.stderr
    if python.returncode:
        assert run.stderr.strip().splitlines()[-1] == python.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(("line", "words"), [
    ("np.zeros((100000, 100000))", "np.zeros would have 10,000,000,000 elements"),
    ("np.random.randn(10000, 10000)", "np.random.randn would have 100,000,000 elements"),
    ("np.outer(np.ones(20000), np.ones(20000))", "np.outer would have 400,000,000 elements"),
    ("np.ones((3000, 3000)) @ np.ones((3000, 3000))", "would take 27,000,000,000 multiply-adds"),
    ("np.ones(10000)[:, None] + np.ones(10000)", "'+' would have 100,000,000 elements"),
    ("np.ones((3, 3))[np.zeros((5000, 1), dtype=np.int64), np.zeros(5000, dtype=np.int64)]",
     "this index would have 25,000,000 elements"),
])
def test_a_numpy_result_past_the_limit_is_refused_before_numpy_makes_it(line: str, words: str) -> None:
    run = cli("run", "-", stdin=f"import numpy as np\nx = {line}\n")
    assert run.exit_code == 2 and words in run.stderr and "GRADCLI_MAX_ELEMENTS" in run.stderr, run.stderr


@pytest.mark.parametrize(("line", "words"), [
    ("np.random.default_rng(0)", "'numpy.random.default_rng' is not supported"),
    ("np.save('x.npy', np.ones(2))", "'numpy.save' is not supported"),
    ("np.sin('x')", "np.sin of a str is not supported"),
    ("np.ones(2).tofile('x')", "'.tofile' of ndarray is not supported"),
])
def test_what_numpy_in_a_run_does_not_do_is_exit_2_naming_it(line: str, words: str) -> None:
    run = cli("run", "-", stdin=f"import numpy as np\n{line}\n")
    assert run.exit_code == 2 and words in run.stderr, run.stderr


def test_an_array_of_python_objects_is_refused_so_no_integer_grows_unbounded() -> None:
    run = cli("run", "-", stdin="import numpy as np\nx = np.array([10**4000])\nprint(x ** 10**9)\n")
    assert run.exit_code == 2 and "dtype=object" in run.stderr, run.stderr
