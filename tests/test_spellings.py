"""PyTorch and NumPy spellings (#12, point 1): each spelled form gives the same tape, and so
the same value and gradient, as the plain one; anything not supported is exit 2 with one line
naming it."""

from __future__ import annotations

import pytest

from gradcli.tape import compile_program
from tests.helpers import cli


def tape_of(source: str, names: bool = True) -> list[tuple]:
    """What the tape computes, node by node (spans left out: the texts differ)."""
    return [(node.kind, node.op.name if node.op else None, node.args, node.name if names or node.kind == "input" else None,
             None if node.value is None else node.value.tolist(), node.requires_grad) for node in compile_program(source).nodes]


AT = {"x": "0.7", "y": "1.3", "v": "[1,-2,3]", "w": "[0.5,2,-1]", "m": "[[1,2],[3,4]]"}


def assert_same_as_plain(spelled: str, plain: str, names: bool = True) -> None:
    assert tape_of(spelled, names) == tape_of(plain, names)
    at = ",".join(f"{name}={AT[name]}" for name in compile_program(plain).inputs)
    ours, theirs = (cli("grad", "--at", at, "--json", "--", program) for program in (spelled, plain))
    assert ours.exit_code == theirs.exit_code == 0
    assert ours.json()["value"] == theirs.json()["value"]
    for name, value in theirs.json()["grad"].items():
        assert ours.json()["grad"][name] == value


def assert_refused(program: str, at: str, *words: str) -> None:
    run = cli("grad", "--at", at, "--", program)
    assert run.exit_code == 2
    assert run.stdout == ""
    first = run.stderr.splitlines()[0]
    assert first.startswith("gradcli: error: ")
    assert "Traceback" not in run.stderr
    for word in words:
        assert word in first


@pytest.mark.parametrize(("spelled", "plain"), [
    ("torch.sin(x)", "sin(x)"),
    ("torch.nn.functional.softplus(x)", "softplus(x)"),
    ("F.relu(x) + F.sigmoid(x)", "relu(x) + sigmoid(x)"),
    ("np.exp(x) * numpy.log(x)", "exp(x) * log(x)"),
    ("math.sqrt(x)", "sqrt(x)"),
    ("torch.special.expm1(x)", "expm1(x)"),
    ("torch.linalg.norm(v) + np.linalg.norm(v) + numpy.linalg.norm(v)", "norm(v) + norm(v) + norm(v)"),
    ("torch.sum(torch.tanh(v))", "sum(tanh(v))"),
    ("x * np.pi + math.e", "x * pi + e"),
])
def test_a_module_prefix_means_the_plain_function(spelled, plain):
    assert_same_as_plain(spelled, plain)


@pytest.mark.parametrize(("program", "words"), [
    ("os.system(x)", ["attribute access ('.') is not supported", "'system'"]),
    ("x.__class__", ["attribute access ('.') is not supported", "'__class__'"]),
    ("torch.nn.relu(x)", ["'torch.nn.relu' is not supported"]),
    ("np.x + x", ["'np.x' is not supported"]),
    ("torch.frobnicate(x)", ["unknown function 'frobnicate'"]),
    ("x + .", ["unexpected '.'"]),
])
def test_a_dotted_name_that_is_not_a_known_prefix_is_refused(program, words):
    assert_refused(program, "x=1", *words)


@pytest.mark.parametrize(("spelled", "plain"), [
    ("x.sum()", "sum(x)"),
    ("v.sum() + v.mean() + v.norm()", "sum(v) + mean(v) + norm(v)"),
    ("y.pow(2)", "y ** 2"),
    ("torch.pow(y, 2)", "y ** 2"),
    ("(x*y).exp()", "exp(x*y)"),
    ("x.relu() + x.abs() + x.absolute()", "relu(x) + abs(x) + abs(x)"),
    ("-x.sin()**2", "-(sin(x)**2)"),
    ("x.add(y).mul(2).sub(y).div(x)", "((x + y) * 2 - y) / x"),
    ("x.subtract(y).multiply(y).true_divide(y).negative()", "-((x - y) * y / y)"),
    ("x.neg()", "-x"),
    ("x.arctan() + x.arcsin() + x.arccos() + x.tanh().sigmoid()", "atan(x) + asin(x) + acos(x) + sigmoid(tanh(x))"),
    ("x.maximum(y) + x.minimum(y) + x.max(y) + y.arctan2(x)", "max(x, y) + min(x, y) + max(x, y) + atan2(y, x)"),
    ("m.matmul(w[0:2]).dot(w[1:3])", "dot(m @ w[0:2], w[1:3])"),
    ("v[0:2].exp().sum()", "sum(exp(v[0:2]))"),
    ("x.remainder(y) + x.fmod(y) + x.frac() + x.sinc()", "x % y + fmod(x, y) + frac(x) + sinc(x)"),
    ("x.lerp(y, 0.3) + v.lerp(w, x).sum()", "lerp(x, y, 0.3) + sum(lerp(v, w, x))"),
])
def test_a_method_means_the_function_with_the_receiver_first(spelled, plain):
    assert_same_as_plain(spelled, plain)


@pytest.mark.parametrize(("program", "words"), [
    ("x.sum", ["attribute access ('.') is not supported", ".sum(...)"]),
    ("x.softplus()", ["attribute access ('.') is not supported", "'softplus' is neither a method"]),
    ("x.real", ["attribute access ('.') is not supported", "'real'"]),
    ("x.exp(x)", ["exp takes 1 argument, got 2"]),
    ("x.(2)", ["attribute access ('.') is not supported"]),
])
def test_a_method_that_is_not_one_is_refused(program, words):
    assert_refused(program, "x=1", *words)


@pytest.mark.parametrize(("spelled", "plain"), [
    ("ln(y)", "log(y)"),
    ("arctan(x) + arcsin(x) + arccos(x)", "atan(x) + asin(x) + acos(x)"),
    ("arctan2(x, y) + np.arctan2(y, x)", "atan2(x, y) + atan2(y, x)"),
    ("maximum(x, y) * minimum(x, y)", "max(x, y) * min(x, y)"),
    ("absolute(x) + np.absolute(y)", "abs(x) + abs(y)"),
    ("power(x, 3) + np.power(y, x)", "x ** 3 + y ** x"),
    ("multiply(x, y)", "x * y"),
    ("add(x, y) + torch.add(2, x)", "(x + y) + (2 + x)"),
    ("subtract(x, y) + torch.sub(x, 1)", "(x - y) + (x - 1)"),
    ("true_divide(x, y) + divide(y, x) + torch.div(1, x)", "x / y + y / x + 1 / x"),
    ("negative(x) + torch.neg(y)", "-x + -y"),
    ("torch.mul(3, x)", "3 * x"),
    ("sum(matmul(m, w[0:2]) + np.matmul(w[1:3], m))", "sum(m @ w[0:2] + w[1:3] @ m)"),
])
def test_an_alias_means_the_plain_function(spelled, plain):
    assert_same_as_plain(spelled, plain)


def test_an_alias_takes_as_many_arguments_as_its_function():
    assert_refused("multiply(x)", "x=1", "multiply takes 2 arguments, got 1")


@pytest.mark.parametrize(("spelled", "plain"), [
    ("x \u2212 y", "x - y"),
    ("\u2212x \u00d7 y \u00f7 2", "-x * y / 2"),
    ("x\u00d7\u00d7 y", "x ** y"),
])
def test_typeset_operators_are_read_as_their_ascii_ones(spelled, plain):
    assert_same_as_plain(spelled, plain)


@pytest.mark.parametrize(("program", "words"), [
    ("x^2", ["operator '^' is not supported at column 2", "use ** for powers"]),
    ("2x + 1", ["unexpected name 'x' at column 2", "write 2*x"]),
    ("3.5x", ["write 3.5*x"]),
    ("2 x", ["unexpected name 'x'"]),
])
def test_a_common_slip_is_answered_with_what_to_write(program, words):
    assert_refused(program, "x=1", *words)


@pytest.mark.parametrize(("spelled", "plain"), [
    ("y = x; y += 1; y *= y; y -= x; y /= 2; y", "y = x; y = y + 1; y = y * y; y = y - x; y = y / 2; y"),
    ("z = x; z *= x + 1\nz", "z = x; z = z * (x + 1)\nz"),
    ("s = 0; s += sin(x); s += cos(x); s", "s = 0; s = s + sin(x); s = s + cos(x); s"),
])
def test_augmented_assignment_is_reassignment(spelled, plain):
    assert_same_as_plain(spelled, plain)


@pytest.mark.parametrize(("program", "words"), [
    ("y += 1; y", ["'y' is used before it is assigned"]),
    ("y = x; (y += 1)", ["unexpected '+='"]),
    ("y = x; y **= 2; y", ["operator '**=' is not supported"]),
])
def test_augmented_assignment_only_reassigns_a_name(program, words):
    assert_refused(program, "x=1", *words)


@pytest.mark.parametrize(("spelled", "plain"), [
    ("e = x * 2; e * x", "k = x * 2; k * x"),
    ("y = pi * x; pi = x + 1; y * pi", "y = 3.141592653589793 * x; k = x + 1; y * k"),
    ("pi = x; pi * np.pi + math.e", "k = x; k * 3.141592653589793 + 2.718281828459045"),
])
def test_e_and_pi_are_constants_until_assigned(spelled, plain):
    assert_same_as_plain(spelled, plain, names=False)  # (the names given to nodes differ)


def _method_cases():
    from gradcli.ops import OPS

    for op in OPS.values():
        if not (op.callable and op.elementwise) or op.arity not in (1, 2) or op.tensor_positions:
            continue  # (x.polygamma(n) is polygamma(n, x): below)
        given = "".join(f", {name}={value!r}" for name, value in op.examples[0][1].items())  # (clamp's min)
        args = f"(y{given})" if op.arity == 2 else f"({given[2:]})"
        plain = f"{op.name}(x, y{given})" if op.arity == 2 else f"{op.name}(x{given})"
        for method in op.methods:
            yield pytest.param(f"x.{method}{args}", plain, id=f"{op.name}.{method}")


@pytest.mark.parametrize(("spelled", "plain"), list(_method_cases()))
def test_every_method_of_the_table_means_its_function(spelled, plain):
    # Every method an elementwise row declares means the row's function (x and y inside every domain).
    assert_same_as_plain(spelled, plain)


@pytest.mark.parametrize(("spelled", "plain"), [
    ("remainder(x, y) + np.mod(x, y) + np.remainder(x, y) + torch.remainder(x, y)", "x % y + x % y + x % y + x % y"),
    ("np.fmod(x, y) + torch.fmod(x, 2)", "fmod(x, y) + fmod(x, 2)"),
    ("torch.floor_divide(x, y) + np.floor_divide(x, 2) + x.floor_divide(y)", "x // y + x // 2 + x // y"),
    ("torch.special.sinc(x) + np.sinc(x) + torch.frac(x)", "sinc(x) + sinc(x) + frac(x)"),
    ("torch.sum(torch.lerp(v, w, x))", "sum(lerp(v, w, x))"),
    ("torch.special.erfinv(x / 2) + x.erfinv() + np.heaviside(x, y) + x.heaviside(y)",
     "erfinv(x / 2) + erfinv(x) + heaviside(x, y) + heaviside(x, y)"),
    ("torch.special.polygamma(2, x) + x.polygamma(1) + x.where(y > 0, x * 2)",
     "polygamma(2, x) + polygamma(1, x) + where(y > 0, x, x * 2)"),
    ("torch.special.expit(x) + torch.special.multigammaln(x + 3, 2) + torch.float_power(x, 2) + x.float_power(y)",
     "sigmoid(x) + mvlgamma(x + 3, 2) + x ** 2 + x ** y"),
])
def test_remainder_fmod_sinc_and_lerp_by_their_pytorch_and_numpy_names(spelled, plain):
    assert_same_as_plain(spelled, plain)
