"""Cross-checks and more derivatives: SymPy formulas, --check, Jacobian, JVP, Hessian."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest
import sympy

from gradcli import compile_program, grad, ops
from gradcli.derivatives import hessian, jacobian, jvp
from tests.helpers import cli
from tests.programs import random_program

X1, X2 = sympy.symbols("x1 x2", real=True)
FIRST = sympy.log(X1 * X2) * sympy.sin(X2)


def as_sympy(text: str, names: list[str]) -> sympy.Expr:
    # Reading gradcli's own output back, in a test: the package itself never parses text with SymPy.
    return sympy.parse_expr(text, local_dict={n: sympy.Symbol(n, real=True) for n in names})


def test_symbolic_formulas_of_the_first_example():
    document = cli("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--symbolic", "--json").json()
    for name, symbol in (("x1", X1), ("x2", X2)):
        formula = as_sympy(document["symbolic"][name], ["x1", "x2"])
        assert sympy.simplify(formula - sympy.diff(FIRST, symbol)) == 0


def test_symbolic_formulas_per_element_for_vectors():
    document = cli("grad", "sum(z**2 * w)", "--at", "z=[1,2],w=3", "--symbolic", "--json").json()
    assert document["symbolic"]["z"] == ["2*w*z[0]", "2*w*z[1]"]
    assert document["symbolic"]["w"] == "z[0]**2 + z[1]**2"


def test_symbolic_view_for_people():
    run = cli("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--symbolic")
    assert "d out / d x1 = sin(x2)/x1" in run.stdout


def test_symbolic_refuses_a_program_too_large_for_sympy_with_a_clear_message():
    program = " + ".join(f"sin(x*{i})" for i in range(30))
    run = cli("grad", program, "--at", "x=1", "--symbolic", "--symbolic-limit", "50")
    assert run.exit_code == 2
    assert "too large for SymPy: more than 50 expression elements" in run.stderr and "--symbolic-limit" in run.stderr
    assert cli("grad", program, "--at", "x=1", "--symbolic", "--json").exit_code == 0  # within the default


def test_check_still_runs_finite_differences_when_sympy_cannot():
    program = " + ".join(f"sin(x*{i})" for i in range(30))
    check = cli("grad", program, "--at", "x=1", "--check", "--symbolic-limit", "50", "--json").json()["check"]
    assert check["finite_differences"]["ok"] is True
    assert "too large for SymPy" in check["sympy"]["skipped"]


WORKED = [
    ("log(x1*x2)*sin(x2)", "x1=0.5,x2=0.75", []),
    ("O = 3*a**3; P = b**2; Q = O - P", "a=2,b=6", []),
    ("y = z**2; l = sum(y)", "z=[1,3]", ["--of", "y", "--seed", "[1,1]"]),
    ("log(x[0]*x[1])*sin(x[1])", "x=[0.5,0.75]", []),
    ("sum(sigmoid(X @ w + b))", "X=[[1,2],[3,-1]],w=[0.1,-0.2],b=0.3", []),
    ("logsumexp(s) + norm(s) + mean(s) + dot(s, s)", "s=[0.5,-1,2]", []),
]


@pytest.mark.parametrize(("program", "at", "options"), WORKED)
def test_check_agrees_on_the_worked_examples(program, at, options):
    run = cli("grad", program, "--at", at, *options, "--check", "--json")
    assert run.exit_code == 0, run.stderr
    check = run.json()["check"]
    assert check["ok"] is True
    assert check["finite_differences"]["ok"] and check["sympy"]["ok"]
    assert check["sympy"]["max_rel"] < 1e-12


@pytest.mark.parametrize("seed", range(6))
def test_check_agrees_on_random_programs(seed):
    rng = np.random.default_rng(700 + seed)
    program = random_program(rng, ["a", "b"], statements=3, vector=bool(seed % 2))
    inputs = compile_program(program).inputs
    at = ",".join(f"{n}={rng.uniform(-1, 1, 2).tolist() if seed % 2 else round(rng.uniform(-1, 1), 3)}"
                  for n in inputs).replace(" ", "")
    run = cli("grad", program, "--at", at, "--check", "--json")
    assert run.exit_code == 0, (program, run.stderr, run.stdout)


@pytest.mark.parametrize(("which", "program", "at"), [
    ("vjp", "sum(log(x1*x2)*sin(x2))", "x1=[0.5,0.6],x2=[0.75,0.8]"),  # vectors: the NumPy rule
    ("floats", "log(x1*x2)*sin(x2)", "x1=0.5,x2=0.75"),  # numbers: the float rule
])
def test_check_fails_with_exit_1_when_a_rule_is_wrong(monkeypatch, which, program, at):
    # A deliberately wrong rule: sin's derivative said to be sin. The check must catch it.
    row = ops.OPS["sin"]
    if which == "vjp":
        wrong = dataclasses.replace(row, vjp=lambda g, ans, x: (g * np.sin(x),))
    else:
        assert row.floats is not None
        wrong = dataclasses.replace(row, floats=(row.floats[0], lambda g, ans, x: (g * math.sin(x),)))
    monkeypatch.setitem(ops.FUNCTIONS, "sin", wrong)
    monkeypatch.setitem(ops.OPS, "sin", wrong)
    run = cli("grad", program, "--at", at, "--check", "--json")
    assert run.exit_code == 1
    document = run.json()
    assert document["check"]["ok"] is False
    assert document["check"]["finite_differences"]["ok"] is False
    assert document["check"]["sympy"]["ok"] is False
    assert "gradcli: error: the gradient disagrees with its references beyond --tol" in run.stderr
    human = cli("grad", program, "--at", at, "--check")
    assert human.exit_code == 1 and "DISAGREES" in human.stdout


def test_tol_sets_how_close_is_close_enough(monkeypatch):
    row = ops.OPS["sin"]
    assert row.floats is not None
    slightly = dataclasses.replace(row, floats=(row.floats[0], lambda g, ans, x: (g * math.cos(x) * (1 + 1e-7),)))
    monkeypatch.setitem(ops.FUNCTIONS, "sin", slightly)
    assert cli("grad", "sin(x)", "--at", "x=1", "--check", "--tol", "1e-5").exit_code == 0
    assert cli("grad", "sin(x)", "--at", "x=1", "--check", "--tol", "1e-9").exit_code == 1


def _sympy_jacobian(outputs: list[sympy.Expr], symbols: list[sympy.Symbol], point: dict) -> np.ndarray:
    matrix = sympy.Matrix(outputs).jacobian(symbols)
    return np.array(matrix.subs(point).evalf(), dtype=float)


def test_jacobian_matches_sympy_and_both_sweeps_agree():
    x, y = sympy.symbols("x y", real=True)
    program = "[x*y, sin(x) * y, exp(x - y), x / y]"
    at = {"x": 0.3, "y": 1.7}
    expected = _sympy_jacobian([x * y, sympy.sin(x) * y, sympy.exp(x - y), x / y], [x, y], {x: 0.3, y: 1.7})
    for mode in ("forward", "reverse"):
        result = jacobian(program, at=at, mode=mode)
        np.testing.assert_allclose(result.blocks[0]["x"], expected[:, 0], rtol=1e-13)
        np.testing.assert_allclose(result.blocks[0]["y"], expected[:, 1], rtol=1e-13)
    assert jacobian(program, at=at).mode == "forward"  # 2 input elements < 4 output elements


def test_jacobian_layout_is_output_shape_then_input_shape():
    document = cli("jacobian", "m @ v", "--at", "m=[[1,2,3],[4,5,6]],v=[1,0,-1]", "--json").json()
    assert np.shape(document["jacobian"]["m"]) == (2, 2, 3)
    assert np.shape(document["jacobian"]["v"]) == (2, 3)
    assert document["jacobian"]["v"] == [[1, 2, 3], [4, 5, 6]]
    tuple_output = cli("jacobian", "(x * y, [x, y])", "--at", "x=2,y=3", "--json").json()
    assert tuple_output["jacobian"][0] == {"x": 3.0, "y": 2.0}
    assert tuple_output["jacobian"][1] == {"x": [1.0, 0.0], "y": [0.0, 1.0]}


def test_jacobian_view_labels_rows_and_columns():
    run = cli("jacobian", "y = z**2", "--at", "z=[1,3]")
    assert "d y / d z" in run.stdout and "y[1]" in run.stdout and "z[0]" in run.stdout


def _table_rows(stdout: str) -> dict[str, list[str]]:
    """The body of the table: row label -> its cells (the header row under '')."""
    rows = {}
    for line in stdout.splitlines():
        if "│" in line or "┃" in line:
            cells = [c.strip() for c in line.replace("┃", "│").split("│")]
            rows[cells[0]] = cells[1:]
    return rows


def test_jacobian_is_one_matrix_as_post_001_writes_f_prime():
    # f(x1, x2) = (log(x1*x2), sin(x2)): f'(x) = [[1/x1, 1/x2], [0, cos(x2)]], one 2 x 2 matrix
    run = cli("jacobian", "(log(x1*x2), sin(x2))", "--at", "x1=0.5,x2=0.75")
    assert run.exit_code == 0, run.stderr
    rows = _table_rows(run.stdout)
    assert rows[""] == ["x1", "x2"]
    assert [float(v) for v in rows["out[0]"]] == pytest.approx([2.0, 1 / 0.75], rel=1e-5)
    assert [float(v) for v in rows["out[1]"]] == pytest.approx([0.0, math.cos(0.75)], rel=1e-5)
    assert run.stdout.count("┃") == 2  # one table: one header row of three cells


def test_jacobian_of_a_tuple_stacks_its_outputs_with_their_labels():
    rows = _table_rows(cli("jacobian", "(z**2, sum(z))", "--at", "z=[1,3]").stdout)
    assert rows == {"": ["z[0]", "z[1]"], "out[0][0]": ["2", "0"], "out[0][1]": ["0", "6"], "out[1]": ["1", "1"]}


def test_a_big_jacobian_is_summarised_and_full_shows_it_all():
    run = cli("jacobian", "relu(x)", "--at", "x=arange(-8,8,0.1)")
    assert run.exit_code == 0, run.stderr
    rows = _table_rows(run.stdout)
    assert rows[""] == ["x[0]", "x[1]", "x[2]", "...", "x[157]", "x[158]", "x[159]"]
    assert list(rows) == ["", "out[0]", "out[1]", "out[2]", "...", "out[157]", "out[158]", "out[159]"]
    assert rows["out[159]"] == ["0", "0", "0", "...", "0", "0", "1"]
    assert "160 × 160" in run.stdout and "--full" in run.stdout
    assert max(map(len, run.stdout.splitlines())) < 200
    full = _table_rows(cli("jacobian", "relu(x)", "--at", "x=arange(-8,8,0.1)", "--full").stdout)
    assert len(full) == 161 and len(full["out[100]"]) == 160 and full["out[100]"][100] == "1"


@pytest.mark.parametrize("seed", range(5))
def test_jvp_is_the_jacobian_times_the_tangent(seed):
    rng = np.random.default_rng(900 + seed)
    program = "[sin(a) * b, a * b * c, exp(c) - a, tanh(b + c)]"
    at = {n: float(rng.uniform(-1, 1)) for n in "abc"}
    tangent = {n: float(rng.normal()) for n in "abc"}
    result = jvp(program, at=at, tangent=tangent)
    full = jacobian(program, at=at)
    expected = sum(full.blocks[0][n] * tangent[n] for n in "abc")
    np.testing.assert_allclose(result.jvp, expected, rtol=1e-12)


def test_jvp_command_with_vectors_and_a_missing_tangent_as_zero():
    document = cli("jvp", "m @ v", "--at", "m=[[1,2],[3,4]],v=[1,1]", "--tangent", "v=[1,0]", "--json").json()
    assert document["jvp"] == [1.0, 3.0]
    assert document["tangent"]["m"] == [[0.0, 0.0], [0.0, 0.0]]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["jvp", "x*y", "--at", "x=1,y=2", "--tangent", "z=1"], "'z' is not an input of the program"),
        (["jvp", "sum(v)", "--at", "v=[1,2]", "--tangent", "v=[1,2,3]"], "the tangent of 'v' has shape (3,)"),
        (["hessian", "x * [1, 2]", "--at", "x=1"], "a Hessian needs a scalar output"),
        (["hessian", "(x, x * x)", "--at", "x=2"], "the program gives a tuple of 2 outputs"),  # (not "shape ()")
        (["jacobian", "x*y", "--at", "x=1"], "no value for input 'y'"),
    ],
)
def test_derivative_commands_reject_bad_input(args, message):
    run = cli(*args)
    assert run.exit_code == 2
    assert message in run.stderr and run.stdout == ""


HESSIAN_CASES = [
    ("log(x1*x2)*sin(x2)", {"x1": 0.5, "x2": 0.75}),
    ("exp(a*b) / (1 + a**2) + atan2(a, b) + sqrt(b) * tanh(a)", {"a": 0.4, "b": 1.3}),
    ("softplus(a - b) * sigmoid(a * b) + abs(a) * b**3 + max(a, b) * a", {"a": -0.6, "b": 0.9}),
    ("log1p(a**2) * expm1(b) + asin(a / 2) * acos(b / 2) + cosh(a) * sinh(b) + log10(b) * log2(b)",
     {"a": 0.3, "b": 0.7}),
    ("a**b + pow(b, a) + relu(a) * b + min(a, 2 * b) ** 2", {"a": 1.2, "b": 0.8}),
]


@pytest.mark.parametrize(("program", "point"), HESSIAN_CASES)
def test_hessian_is_symmetric_and_matches_sympy(program, point):
    from gradcli import symbolic

    result = hessian(program, at=point)
    names = list(point)
    tape = compile_program(program)
    symbols = symbolic.input_symbols(tape, {n: () for n in names})
    expression = symbolic.expressions(tape, symbols, tape.outputs[0])[tape.outputs[0]].item()
    flat = [symbols[n].item() for n in names]
    expected = np.array(sympy.hessian(expression, flat).subs(dict(zip(flat, point.values(), strict=True))).evalf(),
                        dtype=float)
    got = np.array([[float(result.blocks[a][b]) for b in names] for a in names])
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
    assert result.asymmetry <= 1e-9 * max(1.0, float(np.max(np.abs(expected))))
    np.testing.assert_array_equal(got, got.T)


def test_hessian_with_vector_inputs_has_blocks_of_both_shapes():
    document = cli("hessian", "sum(z**3) * w", "--at", "z=[1,2],w=0.5", "--json").json()
    hessian_blocks = document["hessian"]
    np.testing.assert_allclose(hessian_blocks["z"]["z"], [[3.0, 0.0], [0.0, 6.0]])
    np.testing.assert_allclose(hessian_blocks["z"]["w"], [3.0, 12.0])
    np.testing.assert_allclose(hessian_blocks["w"]["z"], [3.0, 12.0])
    assert hessian_blocks["w"]["w"] == 0.0


def test_gradient_of_the_hessian_command_matches_grad():
    document = cli("hessian", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--json").json()
    plain = grad("log(x1*x2)*sin(x2)", at={"x1": 0.5, "x2": 0.75})
    assert document["grad"] == {n: float(v) for n, v in plain.grad.items()}


# --- jvp and jacobian at many points (--points) -----------------------------------------------

JVP_POINTS = [
    ("x*2", "x\n1\n4\n", [], "x=1"),
    ("x+1", "x\n1\n4\n", [], "x=1"),
    ("x**0.5", "x\n1\n4\n", [], "x=1"),
    ("x**3 - 2*x", "x\n-1\n0.5\n", [], "x=-2"),
    ("x*y", "x\n1\n4\n", ["--at", "y=3"], "y=1"),  # the tangent on an input --at fixes
    ("sum(x*v)", "x\n1\n4\n", ["--at", "v=[1,2]"], "v=[1,-1],x=2"),
    ("z*z", "z[0],z[1]\n1,2\n3,4\n", [], "z=[1,0.5]"),
]


@pytest.mark.parametrize(("program", "points", "at", "tangent"), JVP_POINTS)
def test_jvp_at_many_points_is_the_one_point_jvp_at_each(program, points, at, tangent):
    from gradcli.inputs.literals import parse_assignments

    run = cli("jvp", program, "--points", "-", *at, "--tangent", tangent, "--json", stdin=points)
    assert run.exit_code == 0, run.stderr
    given = parse_assignments(tangent, where="--tangent")
    for line in run.stdout.splitlines():
        document = json.loads(line)
        one = jvp(program, at=document["at"], tangent=given)
        np.testing.assert_array_equal(document["jvp"], one.jvp)
        np.testing.assert_array_equal(document["value"], one.value)
    csv = cli("jvp", program, "--points", "-", *at, "--tangent", tangent, "--csv", stdin=points)
    assert csv.exit_code == 0 and len(csv.stdout.splitlines()) == len(points.splitlines()), csv.stderr
    table = cli("jvp", program, "--points", "-", *at, "--tangent", tangent, stdin=points)
    assert table.exit_code == 0 and "jvp" in table.stdout, table.stderr


def test_a_scalar_tangent_for_a_vector_input_is_refused_at_one_point_and_at_many():
    # As torch.autograd.functional.jvp: the tangent has the input's shape.
    one = cli("jvp", "z*z", "--at", "z=[1,2]", "--tangent", "z=1")
    many = cli("jvp", "z*z", "--points", "-", "--tangent", "z=1", "--csv", stdin="z[0],z[1]\n1,2\n")
    for run in (one, many):
        assert run.exit_code == 2 and run.stdout == ""
        assert "the tangent of 'z' has shape () but 'z' has shape (2,)" in run.stderr


# --- empty inputs: derivatives of zero elements, never a crash after half the output -------

EMPTY = "z=linspace(0,1,0)"


@pytest.mark.parametrize(("command", "program", "at", "key", "shapes"), [
    ("jacobian", "z", EMPTY, "jacobian", {"z": (0, 0)}),  # torch cannot stack an empty output; we can
    ("jacobian", "sum(z)", EMPTY, "jacobian", {"z": (0,)}),  # torch.autograd.functional.jacobian: (0,)
    ("jacobian", "sum(z*x) + x**2", EMPTY + ",x=1", "jacobian", {"z": (0,), "x": ()}),
    ("jacobian", "z*x", EMPTY + ",x=1", "jacobian", {"z": (0, 0), "x": (0,)}),
    ("hessian", "sum(z)", EMPTY, "hessian", {"z": (0, 0)}),
    ("hessian", "sum(z*x) + x**2", EMPTY + ",x=1", "hessian", {"z": (0, 0), "x": ()}),
    ("jvp", "z*2", EMPTY, "jvp", None),
])
def test_empty_inputs_give_empty_derivatives_in_every_view(command, program, at, key, shapes):
    from gradcli import derivatives

    extra = ["--tangent", EMPTY] if command == "jvp" else []
    run = cli(command, program, "--at", at, *extra, "--json")
    assert run.exit_code == 0, run.stderr
    assert key in run.json()
    table = cli(command, program, "--at", at, *extra)
    assert table.exit_code == 0 and table.stderr == "", table.stderr
    point = {"z": np.zeros(0), "x": 1.0} if "x=1" in at else {"z": np.zeros(0)}
    if command == "jacobian":
        result = derivatives.jacobian(program, at=point)
        assert {n: b.shape for n, b in result.blocks[0].items()} == shapes
    elif command == "hessian":
        result = derivatives.hessian(program, at=point)
        assert {n: row[n].shape for n, row in result.blocks.items()} == shapes
        if "x" in point:
            assert float(result.blocks["x"]["x"]) == 2.0 and result.blocks["z"]["x"].shape == (0,)
    else:
        assert derivatives.jvp(program, at=point, tangent={"z": np.zeros(0)}).jvp.shape == (0,)


def test_empty_jacobian_has_pytorchs_shape():
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    expected = torch.autograd.functional.jacobian(lambda z: z.sum(), torch.zeros(0, dtype=torch.float64))
    assert jacobian("sum(z)", at={"z": np.zeros(0)}).blocks[0]["z"].shape == tuple(expected.shape)


# --- non-finite numbers: written null and named in warnings, as grad --json does ----------------


@pytest.mark.parametrize(("args", "expected"), [
    (["jacobian", "log(x)", "--at", "x=-1"],
     ["the value of 'out' is not finite (NaN); it starts at node [1] (log, column 1)"]),
    (["jacobian", "[sqrt(x), x]", "--at", "x=-1"],
     ["the value of 'out' is not finite (NaN at [0]); it starts at node [1] (sqrt, column 2)",
      "the Jacobian of 'out' with respect to 'x' is not finite (NaN at [0])"]),
    (["hessian", "sqrt(x) + y**2", "--at", "x=-1,y=2"],
     ["the value of 'out' is not finite (NaN); it starts at node [1] (sqrt, column 1)",
      "the gradient of 'x' is not finite (NaN)", "the Hessian block d(grad x)/d x is not finite (NaN)"]),
    (["jvp", "sqrt(x) * y", "--at", "x=-1,y=2", "--tangent", "y=1"],
     ["the value of 'out' is not finite (NaN); it starts at node [1] (sqrt, column 1)",
      "the tangent of 'out' (J @ tangent) is not finite (NaN)"]),
])
def test_derivative_commands_name_every_null_in_warnings(args, expected):
    run = cli(*args, "--json")
    assert run.exit_code == 0, run.stderr
    document = run.json()
    assert document["warnings"] == expected
    assert "null" in run.stdout
    strict = cli(*args, "--json", "--strict")
    assert strict.exit_code == 3 and strict.json() == document
    human = cli(*args)
    assert human.exit_code == 0 and all(f"warning: {line}" in " ".join(human.stdout.split()) for line in expected)


@pytest.mark.parametrize("command", ["jacobian", "hessian", "jvp"])
def test_finite_results_have_no_warnings(command):
    extra = ["--tangent", "x=1"] if command == "jvp" else []
    assert "warnings" not in cli(command, "x**2 * y", "--at", "x=1,y=2", *extra, "--json").json()


# --- the size of a Jacobian or Hessian: a limit checked before any sweep ------------------------


@pytest.mark.parametrize("args", [
    ["jacobian", "z**2", "--at", "z=arange(0,3000,1)"],  # 9,000,000 elements
    ["jacobian", "(z, z*2)", "--at", "z=arange(0,1500,1)"],  # two blocks of 2,250,000
    ["hessian", "sum(z**3)", "--at", "z=arange(0,2001,1)"],  # 4,004,001
    ["hessian", "sum(a*b)", "--at", "a=arange(0,1500,1),b=arange(0,1500,1)"],
])
def test_a_jacobian_or_hessian_past_the_limit_is_refused_before_the_work(args):
    run = cli(*args, "--json")
    assert run.exit_code == 2 and run.stdout == ""
    assert "(the limit is 4,000,000)" in run.stderr and "GRADCLI_MAX_JACOBIAN" in run.stderr


def test_the_jacobian_limit_can_be_raised_and_lowered(monkeypatch):
    monkeypatch.setenv("GRADCLI_MAX_JACOBIAN", "8")
    assert cli("hessian", "sum(z**3)", "--at", "z=[1,2]", "--json").exit_code == 0  # 4 elements
    run = cli("hessian", "sum(z**3)", "--at", "z=[1,2,3]", "--json")  # 9
    assert run.exit_code == 2 and "the Hessian would have 9 elements (the limit is 8)" in run.stderr
    run = cli("jacobian", "z*2", "--points", "-", "--json", stdin="z[0],z[1],z[2]\n1,2,3\n")
    assert run.exit_code == 2 and "the Jacobian would have 9 elements per point (the limit is 8)" in run.stderr


def test_jacobian_points_take_as_many_points_at_once_as_the_limit_allows(monkeypatch):
    import gradcli.batch as batch

    counts = []
    original = batch.jacobian_batch

    def counting(tape, columns, count, *args, **kwargs):
        counts.append(count)
        return original(tape, columns, count, *args, **kwargs)

    monkeypatch.setattr(batch, "jacobian_batch", counting)
    monkeypatch.setenv("GRADCLI_MAX_JACOBIAN", "40")
    rows = "".join(f"{i},{i + 1},{i + 2}\n" for i in range(10))
    run = cli("jacobian", "z*z", "--points", "-", "--csv", stdin="z[0],z[1],z[2]\n" + rows)
    assert run.exit_code == 0, run.stderr
    assert max(counts) * 9 <= 40 and sum(counts) == 10  # 9 elements a point: 4 points at once
    lines = run.stdout.splitlines()[1:]
    for i, line in enumerate(lines):
        z = np.array([i, i + 1, i + 2], dtype=float)
        np.testing.assert_array_equal(np.array(line.split(","), dtype=float)[3:].reshape(3, 3), np.diag(2 * z))


def test_hessian_sweeps_take_as_many_directions_at_once_as_the_limit_allows(monkeypatch):
    # 40 directions over a tape of ~4 nodes of 40 elements: past a budget of 400, several sweeps,
    # the same numbers.
    z = np.linspace(-1, 1, 40)
    import gradcli.derivatives as derivatives

    whole = hessian("sum(sin(z) * z**3)", at={"z": z}).blocks["z"]["z"]
    sweeps = []
    original = derivatives.jvp_sweep
    monkeypatch.setattr(derivatives, "jvp_sweep", lambda *args, **kwargs: sweeps.append(1) or original(*args, **kwargs))
    monkeypatch.setenv("GRADCLI_MAX_JACOBIAN", "1600")
    np.testing.assert_array_equal(hessian("sum(sin(z) * z**3)", at={"z": z}).blocks["z"]["z"], whole)
    assert len(sweeps) > 1
    np.testing.assert_allclose(np.diag(whole), -np.sin(z) * z**3 + 6 * np.cos(z) * z**2 + 6 * np.sin(z) * z,
                               rtol=1e-12, atol=1e-15)


def test_json_warnings_tell_nan_from_plus_and_minus_infinity():
    # JSON writes NaN, +inf and -inf all as null: the warnings say which, and where
    document = cli("grad", "sum(log(v) * w)", "--at", "v=[0,-1,1,0],w=[1,1,1,-1]", "--json").json()
    assert document["value"] is None
    assert document["warnings"][0].startswith("the value of 'out' is not finite (NaN)")
    assert document["grad"]["v"] == [None, -1.0, 1.0, None]
    assert "(+inf at [0], -inf at [3])" in document["warnings"][1]
    many = cli("grad", "sum(log(v))", "--at", "v=[0,0,0,0,0,0]", "--json").json()
    assert "(+inf at [0], +inf at [1], +inf at [2], +inf at [3], and 2 more)" in many["warnings"][1]
