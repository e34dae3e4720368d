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
items = [1, 2, 3, 4, 5]
np.random.shuffle(items)
print(items, np.random.permutation(4))
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


# Tensors and NumPy sharing memory, in-place methods and out=: PyTorch 2.13's stdout and last error line
# for each (replayed under torch where it is installed).
SHARED = {
    "numpy_shares": ("import torch\nimport numpy as np\nt = torch.ones(3)\nn = t.numpy()\nt.add_(1)\nt += 1\nt.mul_(2)\n"
                     "print(n, t)\nm = np.ones(2)\nu = torch.from_numpy(m)\nnp.add(m, 1, out=m)\nm -= 0.5\nprint(u)\n",
                     "[6. 6. 6.] tensor([6., 6., 6.])\ntensor([1.5000, 1.5000], dtype=torch.float64)\n", None),
    "out": ("import torch\nz = torch.zeros(2, 2)\nr = torch.matmul(torch.ones(2, 2), torch.ones(2, 2), out=z)\n"
            "torch.mul(z, 3, out=z)\nprint(z, r is z)\n",
            "tensor([[6., 6.],\n        [6., 6.]]) True\n", None),
    "out_with_grad": ("import torch\na = torch.ones(2, requires_grad=True)\ntorch.mul(a, a, out=torch.zeros(2))\n", "",
                      "RuntimeError: mul(): functions with out=... arguments don't support automatic differentiation, "
                      "but one of the arguments requires grad."),
    "out_not_tensor": ("import torch\ntorch.matmul(torch.ones(2, 2), torch.ones(2, 2), out=3)\n", "",
                       "TypeError: matmul(): argument 'out' must be Tensor, not int"),
    "add_leaf": ("import torch\nx = torch.ones(2, requires_grad=True)\nx.add_(1)\n", "",
                 "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."),
    "numpy_of_grad": ("import torch\nx = torch.ones(2, requires_grad=True)\nx.numpy()\n", "",
                      "RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."),
}


@pytest.mark.parametrize("name", sorted(SHARED))
def test_tensors_share_memory_with_numpy_and_change_in_place_as_pytorchs(name: str) -> None:
    source, stdout, error = SHARED[name]
    run = cli("run", "-", stdin=source)
    assert run.stdout == stdout
    assert run.exit_code == (1 if error else 0), run.stderr
    if error:
        assert run.stderr.strip().splitlines()[-1] == error


def test_pytorch_prints_the_recorded_sharing_cases() -> None:
    pytest.importorskip("torch")
    for name, (source, stdout, error) in SHARED.items():
        python = _python(source)
        assert python.stdout == stdout, name
        assert (python.stderr.strip().splitlines()[-1] if error else "") == (error or ""), name


def test_a_list_nested_past_numpys_dimensions_is_refused() -> None:
    run = cli("run", "-", stdin="import numpy as np\nx = 1.0\nfor _ in range(5000):\n    x = [x]\nnp.sin(x)\n")
    assert run.exit_code == 2 and "nested more than 64 deep" in run.stderr, run.stderr
