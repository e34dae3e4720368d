"""`gradcli run` runs the Python that tutorials wrap around tensors (#23 items 1 and 6): loops, if,
def, lambda, comprehensions, dicts and assert, as Python runs them, within a step and a time budget.

Tutorials as their authors wrote them, with PyTorch's recorded output, are in tests/run_cases/ (run by
tests/test_run.py); here each construct, each limit and hostile inputs, one behaviour a test.
"""

from __future__ import annotations

import time

import pytest

from tests.helpers import cli


def run(tmp_path, text: str, *options: str):
    program = tmp_path / "f.py"
    program.write_text(text)
    return cli("run", *options, str(program))


def printed(tmp_path, text: str) -> str:
    done = run(tmp_path, text)
    assert done.exit_code == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("text", "expected"), [
    ("for i in range(3):\n    print(i)\n", "0\n1\n2\n"),
    ("for i in range(10, 0, -4):\n    print(i, end=' ')\n", "10 6 2 "),
    ("for a, b in zip([1, 2], 'xy'):\n    print(a, b)\n", "1 x\n2 y\n"),
    ("for i, c in enumerate('ab', start=1):\n    print(i, c)\n", "1 a\n2 b\n"),
    ("for i in range(5):\n    if i == 1:\n        continue\n    if i == 3:\n        break\n    print(i)\nelse:\n"
     "    print('no')\n", "0\n2\n"),
    ("for i in []:\n    pass\nelse:\n    print('else')\n", "else\n"),
    ("n = 0\nwhile n < 3:\n    n += 1\nelse:\n    print(n)\n", "3\n"),
    ("x = 5\nif x > 9:\n    print('a')\nelif x > 4:\n    print('b')\nelse:\n    print('c')\n", "b\n"),
    ("print(1 if [] else 2, 0 or 'x', 3 and 4, not 0, 1 < 2 < 3, 3 > 2 > 5)\n", "2 x 4 True True False\n"),
    ("print([i * i for i in range(4) if i], [(a, b) for a in range(2) for b in range(a + 1)])\n",
     "[1, 4, 9] [(0, 0), (1, 0), (1, 1)]\n"),
    ("print({k: len(k) for k in ('a', 'bb')}, tuple(x + 1 for x in (1, 2)), sum(x for x in range(5)))\n",
     "{'a': 1, 'bb': 2} (2, 3) 10\n"),
    ("i = 7\nsq = [i for i in range(2)]\nprint(i)\n", "7\n"),  # a comprehension's name does not leak
    ("d = {'a': 1}\nd['b'] = 2\nd['a'] += 10\nprint(d, d['b'], list(d.keys()), list(d.values()), list(d.items()))\n",
     "{'a': 11, 'b': 2} 2 ['a', 'b'] [11, 2] [('a', 11), ('b', 2)]\n"),
    ("xs = [1, 2]\nxs[0] = 5\nxs += [3]\nxs.append(4)\nprint(xs, xs.pop(), len(xs), 2 in xs)\n", "[5, 2, 3] 4 3 True\n"),
    ("def f(a, b=2, *rest, c, d=4, **more):\n    return a, b, rest, c, d, more\nprint(f(1, c=3), f(1, 5, 6, c=0, e=9))\n",
     "(1, 2, (), 3, 4, {}) (1, 5, (6,), 0, 4, {'e': 9})\n"),
    ("def f(x):\n    if x <= 1:\n        return 1\n    return x * f(x - 1)\nprint(f(10))\n", "3628800\n"),
    ("def counter():\n    n = [0]\n    def inc():\n        n[0] += 1\n        return n[0]\n    return inc\n"
     "c = counter()\nc()\nprint(c())\n", "2\n"),
    ("k = 3\nf = lambda x, y=1: x * k + y\nk = 4\nprint(f(2), f(2, y=0), (lambda: 'z')())\n", "9 8 z\n"),
    ("def f():\n    pass\nprint(f())\n", "None\n"),
    ("args = (1, 2)\nkw = {'b': 5}\ndef f(a, b):\n    return a - b\nprint(f(*args), f(1, **kw))\n", "-1 -4\n"),
    ("print(max([1, 5, 2]), min(3, 1), max([], default=0), sorted([3, 1], reverse=True), any([0, 1]), all([]))\n",
     "5 1 0 [3, 1] True True\n"),
    ("print(list(reversed([1, 2])), dict(zip('ab', [1, 2])), list(range(3)), len(range(10**12)))\n",
     "[2, 1] {'a': 1, 'b': 2} [0, 1, 2] 1000000000000\n"),
    ("assert 1 + 1 == 2, 'fine'\nprint('ok')\n", "ok\n"),
])
def test_python_constructs_run_as_python_runs_them(tmp_path, text, expected):
    assert printed(tmp_path, text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("import torch\nx = torch.tensor(3.0)\nif x > 2:\n    print('big')\nprint(bool(x), not x, x and 1)\n",
     "big\nTrue False 1\n"),
    ("import torch\nfor row in torch.tensor([[1., 2.], [3., 4.]]):\n    print(row.sum())\n", "tensor(3.)\ntensor(7.)\n"),
    ("import torch\nx = torch.tensor([2.0], requires_grad=True)\ny = x\nfor _ in range(3):\n    y = y * x\n"
     "y.backward()\nprint(x.grad, x.grad is None, y.grad_fn is not None)\n", "tensor([32.]) False True\n"),
    ("import torch\nprint(2.0 in torch.tensor([1.0, 2.0]), 5 in torch.tensor([1, 2]))\n", "True False\n"),
    ("import torch\nx = torch.tensor(1.0, requires_grad=True)\nloss = x\nwhile loss < 100:\n    loss = loss * 3\n"
     "loss.backward()\nprint(loss, x.grad)\n", "tensor(243., grad_fn=<MulBackward0>) tensor(243.)\n"),
])
def test_tensors_in_control_flow_decide_by_pytorchs_bool(tmp_path, text, expected):
    assert printed(tmp_path, text) == expected


@pytest.mark.parametrize(("text", "error"), [
    ("print(undefined_name)\n", "NameError: name 'undefined_name' is not defined"),
    ("def f():\n    print(x)\n    x = 1\nf()\n",
     "UnboundLocalError: cannot access local variable 'x' where it is not associated with a value"),
    ("def f(a, b):\n    pass\nf(1)\n", "TypeError: f() missing 1 required positional argument: 'b'"),
    ("def f(a):\n    pass\nf(1, 2)\n", "TypeError: f() takes 1 positional argument but 2 were given"),
    ("def f(a, b=1):\n    pass\nf(1, 2, 3)\n", "TypeError: f() takes from 1 to 2 positional arguments but 3 were given"),
    ("def f(a):\n    pass\nf(a=1, z=2)\n", "TypeError: f() got an unexpected keyword argument 'z'"),
    ("def f(a):\n    pass\nf(1, a=2)\n", "TypeError: f() got multiple values for argument 'a'"),
    ("def f(*, k):\n    pass\nf()\n", "TypeError: f() missing 1 required keyword-only argument: 'k'"),
    ("def outer():\n    def inner(x, y, z):\n        pass\n    inner()\nouter()\n",
     "TypeError: outer.<locals>.inner() missing 3 required positional arguments: 'x', 'y', and 'z'"),
    ("print(1 / 0)\n", "ZeroDivisionError: division by zero"),
    ("xs = [1]\nprint(xs[3])\n", "IndexError: list index out of range"),
    ("d = {'a': 1}\nprint(d['b'])\n", "KeyError: 'b'"),
    ("assert 1 > 2\n", "AssertionError"),
    ("assert [], 'empty list'\n", "AssertionError: empty list"),
    ("for i in 5:\n    pass\n", "TypeError: 'int' object is not iterable"),
    ("import torch\nfor v in torch.tensor(1.):\n    pass\n", "TypeError: iteration over a 0-d tensor"),
    ("import torch\nif torch.tensor([1., 2.]):\n    pass\n",
     "RuntimeError: Boolean value of Tensor with more than one value is ambiguous"),
    ("import torch\nprint(torch.tensor([1., 2.]) > 0 or 1)\n",
     "RuntimeError: Boolean value of Tensor with more than one value is ambiguous"),
    ("x = (1, 2)\nx[0] = 3\n", "TypeError: 'tuple' object does not support item assignment"),
    ("d = {[1]: 2}\n", "TypeError: unhashable type: 'list'"),
    ("print(max([]))\n", "ValueError: max() arg is an empty sequence"),
    ("f = 3\nf()\n", "TypeError: 'int' object is not callable"),
])
def test_what_python_raises_in_the_files_code_is_exit_1_with_its_last_traceback_line(tmp_path, text, error):
    done = run(tmp_path, text)
    assert done.exit_code == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == error


def test_a_limit_inside_try_is_not_caught_and_runs_no_finally(tmp_path):
    # gradcli's limits are not the file's exceptions: no except takes them, no finally runs after them,
    # and the error names the line where the limit was met
    done = run(tmp_path, "try:\n    while True:\n        pass\nexcept:\n    print('caught')\n"
                         "finally:\n    print('finally')\n", "--max-steps", "1000")
    assert done.exit_code == 2 and done.stdout == ""
    assert "--max-steps" in done.stderr and "line 2" in done.stderr


def test_finally_runs_on_the_files_own_exception_and_on_return(tmp_path):
    done = run(tmp_path, "def f():\n    try:\n        return 1\n    finally:\n        print('finally 1')\n"
                         "print(f())\ntry:\n    [][0]\nfinally:\n    print('finally 2')\n")
    assert (done.exit_code, done.stdout) == (1, "finally 1\n1\nfinally 2\n")
    assert done.stderr.strip().splitlines()[-1] == "IndexError: list index out of range"


def test_an_error_comes_after_what_was_printed_before_it(tmp_path):
    done = run(tmp_path, "for i in range(3):\n    print(i)\n    assert i < 1, f'i={i}'\n")
    assert (done.exit_code, done.stdout, done.stderr.strip()) == (1, "0\n1\n", "AssertionError: i=1")


@pytest.mark.parametrize(("text", "words"), [
    ("class A(metaclass=type):\n    pass\n", ["metaclass", "line 1"]),
    ("class Problem(Exception):\n    def __init__(self, code):\n        self.code = code\n",
     ["an exception class with a body is not supported", "line 2"]),
    ("nonlocal g\n", ["'nonlocal' at the module's level is not supported", "line 1"]),
    ("import torch\ntorch.autograd.set_detect_anomaly(True)\nx = torch.tensor([-1.], requires_grad=True)\n"
     "x.sqrt().sum().backward()\n", ["a NaN gradient under torch.autograd's anomaly detection is not supported",
                                     "line 4"]),
    ("import torch.nn as nn\nm = nn.Linear(2, 2)\nm.register_full_backward_hook(print)\n",
     ["'.register_full_backward_hook' of a module is not supported", "line 3"]),
    ("def f(g):\n    global g\nf(1)\n", ["'g' is a parameter and declared global", "line 1"]),
    ("def f():\n    try:\n        yield 1\n    finally:\n        pass\n", ["a 'yield' here is not supported", "line 2"]),
    ("async def f():\n    await g()\n", ["an async function is not supported", "line 1"]),
    ("import functools\nfunctools.reduce(max, [1, 2])\n", ["'functools.reduce' is not supported", "line 2"]),
    ("import matplotlib.pyplot as plt\n", ["import of 'matplotlib.pyplot' is not supported", "line 1"]),
    ("import sys\nsys.exit(1)\n", ["'sys.exit' is not supported", "line 2"]),
    ("import torch\nx = torch.ones(2)\nprint(getattr(x, '__class__'))\n", ["getattr() of the attribute '__class__'",
                                                                          "line 3"]),
    ("class A:\n    pass\nsetattr(A(), 'a b', 1)\n", ["setattr() of the attribute 'a b'", "line 3"]),
    ("import numpy as np\na = np.zeros(3)\na.resize(4)\n", ["'.resize' of an array of 3 elements to 4", "line 3"]),
    ("s = {1, *[2]}\n", ["'*' is not supported"]),
    ("print([y := 1])\n", ["':=' is not supported"]),
    ("@staticmethod\ndef f():\n    pass\n", ["decorator is not supported"]),
    ("print(1)\nbreak\n", ["not Python: 'break' outside loop", "line 2"]),
    ("def f():\n    continue\n", ["not Python: 'continue' not properly in loop"]),
    ("return 3\n", ["not Python: 'return' outside function"]),
    ("x = 1\nx <<= 2\n", ["this operator is not supported"]),
])
def test_what_gradcli_does_not_take_is_exit_2_with_line_and_caret(tmp_path, text, words):
    done = run(tmp_path, text)
    assert done.exit_code == 2, done.stderr
    assert "^" in done.stderr
    for word in words:
        assert word in done.stderr


def test_nothing_runs_before_a_break_outside_a_loop_is_refused(tmp_path):
    done = run(tmp_path, "print('first')\nbreak\n")
    assert done.exit_code == 2 and done.stdout == ""


# --- limits: exit 2 naming the limit and the line, nothing done past it -------------------------------


def test_while_true_hits_the_step_limit_fast(tmp_path):
    start = time.monotonic()
    done = run(tmp_path, "import torch\nwhile True:\n    pass\n", "--max-steps", "200000")
    assert time.monotonic() - start < 5
    assert done.exit_code == 2
    assert "--max-steps" in done.stderr and "200,000 steps" in done.stderr and "line " in done.stderr


def test_the_step_limit_stops_before_the_step_past_it(tmp_path):
    done = run(tmp_path, "for i in range(100):\n    print(i)\n", "--max-steps", "9")
    assert done.exit_code == 2
    # 1 step for the loop statement, then 2 a turn (the iteration and the print): 4 prints fit in 9 steps
    assert done.stdout == "0\n1\n2\n3\n"
    assert "line 2" in done.stderr or "line 1" in done.stderr


def test_the_time_limit_names_itself_and_the_line(tmp_path):
    start = time.monotonic()
    done = run(tmp_path, "print('start')\nn = 0\nwhile True:\n    n += 1\n", "--timeout", "0.3")
    assert time.monotonic() - start < 5
    assert done.exit_code == 2
    assert done.stdout == "start\n"
    assert "--timeout" in done.stderr
    assert "line 3" in done.stderr or "line 4" in done.stderr


def test_unbounded_recursion_is_exit_2_naming_it(tmp_path):
    done = run(tmp_path, "def f(n):\n    return f(n + 1)\nf(0)\n")
    assert done.exit_code == 2
    assert "'f'" in done.stderr and "recursion" in done.stderr and "line 2" in done.stderr


def test_mutual_recursion_and_lambdas_are_bounded_too(tmp_path):
    done = run(tmp_path, "def a(n):\n    return b(n)\ndef b(n):\n    return a(n)\na(0)\n")
    assert done.exit_code == 2 and "recursion" in done.stderr
    done = run(tmp_path, "f = lambda: f()\nf()\n")
    assert done.exit_code == 2 and "recursion" in done.stderr


def test_recursion_as_deep_as_python_allows_runs(tmp_path):
    text = "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\nprint(depth(900))\n"
    assert printed(tmp_path, text) == "900\n"


def test_huge_ranges_are_lazy(tmp_path):
    start = time.monotonic()
    text = "r = range(10 ** 18)\nfor i in r:\n    if i == 3:\n        break\nprint(i, len(range(10 ** 9)), r[-1])\n"
    assert printed(tmp_path, text) == "3 1000000000 999999999999999999\n"
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("text", [
    "x = list(range(10 ** 9))\n",
    "x = [i for i in range(10 ** 12)]\n",
    "x = sum(range(10 ** 12))\n",
    "x = sorted(range(10 ** 12))\n",
    "x = dict(enumerate(range(10 ** 12)))\n",
    "xs = [0]\nfor _ in range(100):\n    xs.extend(xs)\n",
    "xs = ['ab']\nfor _ in range(100):\n    xs = [''.join(xs * 2)]\n",
    "a = []\nfor i in range(80):\n    a = [a, a]\nprint(a)\n",
    "a = []\nfor i in range(80):\n    a = [a, a]\ns = f'{a}'\n",
])
def test_what_would_grow_without_bound_is_refused_by_a_limit(tmp_path, text):
    start = time.monotonic()
    done = run(tmp_path, text, "--max-steps", "1000000")
    assert time.monotonic() - start < 10
    assert done.exit_code == 2, done.stderr
    assert "limit" in done.stderr


@pytest.mark.parametrize("text", [
    "x = 0\n" + "".join("    " * i + f"for i{i} in range(1):\n" for i in range(60)) + "    " * 60 + "x += 1\nprint(x)\n",
    "".join("    " * i + "if True:\n" for i in range(90)) + "    " * 90 + "print('deep')\n",
    "x = 1\ny = " + "(lambda: " * 100 + "x" + ")()" * 100 + "\nprint(y)\n",
    "print(" + "[" * 900 + "]" * 900 + ")\n",
    "a = []\nfor i in range(50000):\n    a = [a]\nprint(a)\n",
    "print([[x for x in range(3)] for _ in range(3)] * 2)\n",
])
def test_deep_nesting_is_an_answer_or_exit_2_never_a_crash(tmp_path, text):
    done = run(tmp_path, text)
    assert done.exit_code in (0, 1, 2), done.stderr
    assert "internal error" not in done.stderr


def test_the_options_are_checked(tmp_path):
    assert run(tmp_path, "print(1)\n", "--max-steps", "0").exit_code == 2
    assert run(tmp_path, "print(1)\n", "--timeout", "-1").exit_code == 2
    assert run(tmp_path, "print(1)\n", "--max-steps", "5", "--timeout", "10").stdout == "1\n"


@pytest.mark.parametrize(("text", "words"), [
    ("print(frozenset([1, 2]))\n", "the builtin 'frozenset' is not supported"),
    ("f = open('data.txt')\n", "the builtin 'open' is not supported"),
    ("exec('x = 1')\n", "the builtin 'exec' is not supported"),
    ("print(__import__('os'))\n", "the builtin '__import__' is not supported"),
])
def test_a_builtin_python_has_and_the_run_does_not_is_exit_2_naming_it(tmp_path, text, words):
    done = run(tmp_path, text)
    assert done.exit_code == 2 and words in done.stderr, done.stderr


def test_a_name_of_the_files_own_shadows_a_builtin_the_run_lacks(tmp_path):
    assert printed(tmp_path, "open = 3\nfrozenset = open + 1\nprint(open, frozenset)\n") == "3 4\n"
