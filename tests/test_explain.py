"""gradcli explain: the forward tape and the backward sweep, written out for a learner."""

from __future__ import annotations

import re

from tests.helpers import cli


def test_first_example_is_explained_step_by_step():
    run = cli("explain", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75")
    assert run.exit_code == 0, run.stderr
    text = " ".join(run.stdout.split())  # rich may wrap long lines
    # the forward tape
    assert "v2 x1 * x2 0.375 MulBackward0" in text
    assert "v3 log(v2) -0.980829 LogBackward0" in text
    assert "v4 sin(x2) 0.681639 SinBackward0" in text
    # the seed, then the chain rule on each edge, with its formula
    assert "seed: v5.grad = 1 (d out / d out = 1)" in text
    assert "x2.grad += v4.grad × ∂v4/∂x2 = cos(x2) = -0.980829 × 0.731689 = -0.717662 -> -0.717662" in text
    assert "x2.grad += v2.grad × ∂v2/∂x2 = x1 = 1.8177 × 0.5 = 0.908852 -> 0.19119" in text
    assert "accumulated: -0.717662 was there" in text
    assert "x1.grad = 1.36328" in text and "x2.grad = 0.19119" in text


def test_every_update_of_the_sweep_is_written_once():
    run = cli("explain", "y = x*x; z = sin(y) + y", "--at", "x=0.5")
    text = " ".join(run.stdout.split())
    assert len(re.findall(r"x\.grad \+=", text)) == 2  # two edges of x*x
    assert len(re.findall(r"v1\.grad \+=", text)) == 2  # y reached via sin and directly


def test_a_vector_output_explains_its_seed_as_the_vector_of_the_vjp():
    run = cli("explain", "y = z**2; l = sum(y)", "--at", "z=[1,3]", "--of", "y", "--seed", "[1,1]")
    text = " ".join(run.stdout.split())
    assert "seed: v2.grad = [1., 1.]" in text
    assert "vector of the vector-Jacobian product" in text
    assert "z.grad = [2., 6.]" in text


def test_explain_needs_a_scalar_output_or_a_seed():
    run = cli("explain", "y = x**2", "--at", "x=[1,2,3]")
    assert run.exit_code == 2
    assert "grad can be implicitly created only for scalar outputs" in run.stderr


def _terms(count: int) -> str:
    # The benchmark's large program: 8 tape nodes a term over 50 inputs.
    return " + ".join(f"sin(x{i % 50}*x{(i * 7 + 1) % 50}+3)*log(x{(i * 3 + 2) % 50}+3/7)" for i in range(count))


AT_50 = ",".join(f"x{i}={0.5 + i / 100}" for i in range(50))


def test_explain_asks_sympy_once_per_kind_of_edge(monkeypatch):
    import sympy

    calls = []
    real = sympy.diff
    monkeypatch.setattr(sympy, "diff", lambda *args, **kwargs: calls.append(args) or real(*args, **kwargs))
    run = cli("explain", _terms(200), "--at", AT_50)
    assert run.exit_code == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "∂v1/∂x0 = cos(" not in text  # the formulas are still there, in the edges' own names:
    assert re.search(r"∂v\d+/∂v\d+ = cos\(v\d+\) =", text) and re.search(r"∂v\d+/∂v\d+ = 1/v\d+ =", text)
    assert len(calls) <= 12  # mul (2 edges), add (2), sin, log: not one per edge (1,600 edges)


def test_explain_refuses_a_program_past_its_limit_before_the_work(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_EXPLAIN", "1000")
    run = cli("explain", _terms(200), "--at", AT_50)
    assert run.exit_code == 2 and run.stdout == ""
    assert "GRADCLI_MAX_EXPLAIN" in run.stderr and "the limit is 1,000" in run.stderr
    assert "--json" in run.stderr  # where to look instead
    monkeypatch.setenv("GRADCLI_MAX_EXPLAIN", "100000")
    assert cli("explain", _terms(200), "--at", AT_50).exit_code == 0


def test_explain_of_100k_nodes_is_refused_at_once():
    import time

    start = time.monotonic()
    run = cli("explain", _terms(12_500), "--at", AT_50)
    assert run.exit_code == 2 and "GRADCLI_MAX_EXPLAIN" in run.stderr
    assert time.monotonic() - start < 30  # the program is compiled, then refused: no SymPy, no rendering


def test_a_negative_constant_is_bracketed_in_a_formula():
    import sympy

    run = cli("explain", "y = x**-2", "--at", "x=3")
    formula = re.search(r"∂v\d+/∂x = (.*?) = 1 ×", " ".join(run.stdout.split())).group(1)
    x = sympy.Symbol("x", real=True)
    # Reading gradcli's output back, in a test: -2 must stay a number under the power.
    assert sympy.simplify(sympy.parse_expr(formula, local_dict={"x": x}) - sympy.diff(x**-2, x)) == 0


# --- vector steps: the local Jacobian and Jᵀ·v, as the grad_tensors posts write them --------------


def test_post_000_a_power_of_a_vector_is_diag_2z_and_its_product_with_the_seed():
    run = cli("explain", "y = z**2; l = sum(y)", "--at", "z=[1,3]", "--of", "y", "--seed", "[1,1]")
    text = " ".join(run.stdout.split())
    assert "J = ∂v2/∂z = diag(2*z) = diag([2., 6.]) (2 × 2)" in text
    assert "z.grad += Jᵀ·v2.grad = [2., 6.] ⊙ [1., 1.] = [2., 6.]" in text
    assert "VJP of" not in text


def test_a_sum_is_a_row_of_ones_and_a_broadcast_is_summed_back():
    text = " ".join(cli("explain", "sum(z*3 + b)", "--at", "z=[1,3],b=2").stdout.split())
    assert "1ᵀ, a row of 2 ones (a sum)" in text
    assert "Jᵀ·v5.grad = [1., 1.] × 1 = [1., 1.]" in text
    assert "J = ∂v2/∂z = diag(3) = diag([3., 3.])" in text
    assert "b.grad += Jᵀ·v4.grad = sum over axes (0,) of [1., 1.] = 2" in text  # x + b by b: the sum back
    scaled = " ".join(cli("explain", "sum(z * b)", "--at", "z=[1,3],b=2").stdout.split())
    assert "J = ∂v2/∂b = diag(z) = diag([1., 3.]), summed back over axes (0,)" in scaled
    assert "b.grad += Jᵀ·v2.grad = sum over axes (0,) of [1., 3.] ⊙ [1., 1.] = 4" in scaled


def test_a_matrix_product_shows_the_matrix_as_its_jacobian():
    text = " ".join(cli("explain", "sum(m @ v)", "--at", "m=[[1,2],[3,4]],v=[1,-1]").stdout.split())
    assert "J = ∂v2/∂v = [[1., 2.], [3., 4.]] (2 × 2)" in text  # d(m v)/dv = m
    assert "v.grad += Jᵀ·v2.grad = [[1., 3.], [2., 4.]] · [1., 1.] = [4., 6.]" in text


def test_a_big_jacobian_is_never_written_out():
    run = cli("explain", "sum(relu(x))", "--at", "x=arange(-8,8,0.1)")
    assert run.exit_code == 0, run.stderr
    assert "(160 × 160)" in run.stdout and "diag((x > 0))" in run.stdout
    assert max(len(line) for line in run.stdout.splitlines()) < 400  # summarised, never 160 numbers a line
    big = cli("explain", "sum(m @ m)", "--at", "m=" + str([[float(i + j) for j in range(13)] for i in range(13)]))
    assert big.exit_code == 0, big.stderr
    assert "a 169 × 169 matrix (too big to write out" in big.stdout


def test_local_derivatives_are_written_as_textbooks_write_them():
    # post 002: O = 3a³, P = b²: dO/da = 9a², built from 3*a**2 and 3; never a**3*3/a (0/0 at a = 0)
    text = " ".join(cli("explain", "O = 3*a**3; P = b**2; Q = O - P", "--at", "a=0,b=6").stdout.split())
    assert "∂v3/∂a = 3*a**2" in text and "∂v7/∂b = 2*b" in text
    assert "/a" not in text and "nan" not in text
    assert "a.grad = 0" in text
    # a power with a variable exponent: a**(b - 1)*b, defined at a = 0 where b >= 1
    assert "a**(b - 1)*b" in " ".join(cli("explain", "a**b", "--at", "a=2,b=3").stdout.split())
    # relu's derivative is a comparison (PyTorch's 0 at 0), not SymPy's Heaviside (1/2 at 0)
    assert "∂v1/∂x = (x > 0)" in " ".join(cli("explain", "relu(x)", "--at", "x=0").stdout.split())
