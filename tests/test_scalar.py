"""The scalar path (gradcli.scalar): a program of numbers at a point of numbers, without the op table or NumPy.

It must give what the table's way gives, byte for byte in --json and in the table, over every row
and spelling it takes (gradcli/table.py), at ordinary and special points; it must leave everything
else to the table's way; and a process that takes it must not load NumPy, SymPy or the op table.
"""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys

import pytest
from rich.console import Console

from gradcli import session, table
from gradcli.derivatives import grad as table_grad
from gradcli.inputs.literals import merge_points
from gradcli.render.jsonout import dumps
from gradcli.render.report import grad_report_document, show_grad_report
from gradcli.scalar import (
    NumbersResult,
    grad_of_numbers,
    graph_of_numbers,
    hessian_of_numbers,
    jacobian_of_numbers,
    jvp_of_numbers,
)
from gradcli.tape import compile_program
from tests.helpers import sampled
from tests.reference.make_scalar_table import TARGET

POINTS = [(0.5, 0.75), (-1.25, 2.0), (3.0, -0.5), (0.0, 1.5), (-0.0, -2.0), (1e-300, 7.0), (1e300, 1e-8), (2.0, 2.0),
          (-3.5, 0.0)]


def test_the_table_is_what_the_rows_give():
    # gradcli/table.py is generated from the op table: regenerate it after changing a row. Generated as the script
    # generates it, in a process of its own: the rows as they are built, none replaced by a test.
    generated = subprocess.run([sys.executable, "-c", "import sys\nfrom tests.reference.make_scalar_table import "
                                "generate\nsys.stdout.write(generate())"], capture_output=True, text=True, check=True,
                               cwd=TARGET.parents[1])
    assert TARGET.read_text() == generated.stdout, \
        "gradcli/table.py is stale: run python tests/reference/make_scalar_table.py"


def _table_way(program: str, at: list[str]) -> session.GradReport:
    tape = compile_program(program)
    return session.GradReport(table_grad(tape, merge_points(at, tape.inputs)))


def _shown(report: session.GradReport) -> tuple[str, str]:
    console = Console(file=io.StringIO(), width=200, markup=False, emoji=False, highlight=False)
    show_grad_report(report, console)
    return dumps(grad_report_document(report)), console.file.getvalue()  # type: ignore[attr-defined]


def _same_as_the_table(program: str, at: list[str]) -> bool:
    """The scalar path's answer, if it gives one, is the table's, byte for byte; True where it gave one."""
    numbers = grad_of_numbers(program, at)
    if numbers is None:
        return False
    assert _shown(session.GradReport(numbers)) == _shown(_table_way(program, at)), program  # type: ignore[arg-type]
    return True


def _programs_of_rows() -> list[tuple[str, str]]:
    """Each spelling of CALLS, on inputs and on what is computed from them, with numbers where they may stand; and
    the row it calls."""
    programs = []
    for (spelling, count), row in sorted(table.CALLS.items()):
        if spelling.startswith("."):
            call = f"(x * y).{spelling[1:]}({'y' if count == 2 else ''})"
        elif spelling in table.INFIX:
            call = f"(x * y) {spelling} y"
            programs += [(f"x {spelling} 2", row), (f"2.5 {spelling} x", row), (f"z = x {spelling} (1 / 3); z * y", row)]
        elif spelling in table.PREFIX:
            call = f"{spelling}(x * y) + y"
        else:
            call = f"{spelling}({'x * y, y' if count == 2 else 'x * y'}) + y"
        programs.append((call, row))
    return programs


def _programs() -> list[str]:
    return [program for program, _ in _programs_of_rows()]


def _sampled_programs() -> list[str]:
    """The derivatives' and graphs' tests, slower: every row's first spelling and a third of the rest where the
    README's test command runs them (all where GRADCLI_FULL_TESTS=1, as in CI)."""
    return [program for program, _ in sampled(_programs_of_rows(), lambda case: case[1])]


@pytest.mark.parametrize("program", _programs())
def test_every_spelling_gives_the_tables_bits(program):
    answered = [_same_as_the_table(program, [f"x={x!r},y={y!r}" if "y" in program else f"x={x!r}"]) for x, y in POINTS]
    assert any(answered) or program.startswith("2.5")  # (2 / x is PyTorch's reflected method: the table's way)


def _same_derivatives_as_the_table(program: str, at: list[str], tangent: list[str]) -> bool:
    """The scalar path's Jacobian and JVP, where it gives them, are the table's, byte for byte."""
    from gradcli.derivatives import jacobian, jvp
    from gradcli.render.derivatives import jacobian_document, jvp_document, show_jacobian, show_jvp

    def shown(result: object, document: object, show: object) -> tuple[str, str]:
        console = Console(file=io.StringIO(), width=200, markup=False, emoji=False, highlight=False)
        show(result, console)  # type: ignore[operator]
        return dumps(document(result)), console.file.getvalue()  # type: ignore[operator, attr-defined]

    tape = compile_program(program)
    point = merge_points(at, tape.inputs)
    answered = False
    numbers = jacobian_of_numbers(program, at)
    if numbers is not None:
        assert shown(numbers, jacobian_document, show_jacobian) == \
            shown(jacobian(tape, point), jacobian_document, show_jacobian), program
        answered = True
    numbers = jvp_of_numbers(program, at, tangent)
    if numbers is not None:
        assert shown(numbers, jvp_document, show_jvp) == \
            shown(jvp(tape, point, merge_points(tangent, where="--tangent")), jvp_document, show_jvp), program
        answered = True
    return answered


def _same_hessian_as_the_table(program: str, at: list[str]) -> bool:
    """The scalar path's Hessian, where it gives one, is the table's (dual numbers through the reverse sweep),
    byte for byte; True where it gave one."""
    from gradcli.derivatives import hessian
    from gradcli.render.derivatives import hessian_document, show_hessian

    def shown(result: object) -> tuple[str, str]:
        console = Console(file=io.StringIO(), width=200, markup=False, emoji=False, highlight=False)
        show_hessian(result, console)  # type: ignore[arg-type]
        return dumps(hessian_document(result)), console.file.getvalue()  # type: ignore[arg-type, attr-defined]

    numbers = hessian_of_numbers(program, at)
    if numbers is None:
        return False
    tape = compile_program(program)
    assert shown(numbers) == shown(hessian(tape, merge_points(at, tape.inputs))), (program, at)
    return True


@pytest.mark.parametrize("program", _sampled_programs())
def test_every_spelling_gives_the_tables_hessian(program):
    names = ["x", "y"] if "y" in program else ["x"]
    answered = [_same_hessian_as_the_table(program, [",".join(f"{n}={v!r}" for n, v in zip(names, point, strict=False))])
                for point in POINTS]
    assert any(answered) or program.startswith("2.5")


@pytest.mark.parametrize("program", _sampled_programs())
def test_every_spelling_gives_the_tables_jacobian_and_jvp(program):
    names = ["x", "y"] if "y" in program else ["x"]
    answered = [_same_derivatives_as_the_table(program, [",".join(f"{n}={v!r}" for n, v in zip(names, point, strict=False))],
                                               [",".join(f"{n}={t!r}" for n, t in zip(names, tangent, strict=False))])
                for point in POINTS[::2] for tangent in [(1.0, 0.0), (-0.5, 2.0)][: len(names)]]
    assert any(answered) or program.startswith("2.5")


def _graph_shown(request: session.Request) -> tuple[str, ...]:
    """The graph in every text format: rich's tree, dot, mermaid, json."""
    from gradcli.commands import graph_view
    from gradcli.render.graph import as_json, dot, mermaid, tree

    view = graph_view(session.graph(request))
    console = Console(file=io.StringIO(), width=200, markup=False, emoji=False, highlight=False)
    console.print(tree(view))
    return console.file.getvalue(), dot(view), mermaid(view), as_json(view)  # type: ignore[attr-defined]


@pytest.mark.parametrize("program", _sampled_programs())
def test_every_spelling_gives_the_tables_graph(program, monkeypatch):
    names = ["x", "y"] if "y" in program else ["x"]
    answered = []
    for at in [[], *([",".join(f"{n}={v!r}" for n, v in zip(names, point, strict=False))] for point in POINTS[::2])]:
        numbers = graph_of_numbers(program, at)
        answered.append(numbers is not None)
        if numbers is None:
            continue
        request = session.Request(program, None, at)
        ours = _graph_shown(request)
        with monkeypatch.context() as patched:
            patched.setattr("gradcli.scalar.graph_of_numbers", lambda *args: None)  # the table's way
            assert ours == _graph_shown(request), (program, at)
    assert answered[0] or program.startswith("2.5")
    assert any(answered[1:]) or program.startswith("2.5")


PROGRAMS = [
    ("log(x1*x2)*sin(x2)", "x1 x2"), ("O = 3*a**3; P = b**2; Q = O - P", "a b"), ("y = x ** 2\nz = y * pi - e\nz", "x"),
    ("c = 2; d = c; d * x", "x"), ("c = 2; c * x + x ** c", "x"), ("y = x; y += x * 3; y", "x"), ("x", "x"),
    ("x; w", "x w"), ("a = x * -1; b = -a; torch.exp(b) + np.sqrt(math.sin(a) ** 2)", "x"),
    ("relu(x) + relu(-x) + abs(x) + sign(x) * sigmoid(x)", "x"),
    ("max(x, w) - min(w, x) + atan2(x, w) + hypot(x, w) + x.pow(w)", "x w"),
]


@pytest.mark.parametrize(("program", "names"), PROGRAMS)
def test_programs_of_numbers_give_the_tables_bits(program, names):
    answered = [_same_as_the_table(program, [",".join(f"{name}={value!r}" for name, value in
                                                     zip(names.split(), point, strict=False))]) for point in POINTS]
    assert answered[0]  # (elsewhere a value may not be finite: then the table's way answers, naming where)


@pytest.mark.parametrize(("program", "names"), PROGRAMS)
def test_programs_of_numbers_give_the_tables_graph(program, names, monkeypatch):
    for at in [[], [",".join(f"{name}={value!r}" for name, value in zip(names.split(), POINTS[0], strict=False))]]:
        assert graph_of_numbers(program, at) is not None
        ours = _graph_shown(session.Request(program, None, at))
        with monkeypatch.context() as patched:
            patched.setattr("gradcli.scalar.graph_of_numbers", lambda *args: None)  # the table's way
            assert ours == _graph_shown(session.Request(program, None, at)), (program, at)


@pytest.mark.parametrize(("program", "names"), PROGRAMS)
def test_programs_of_numbers_give_the_tables_hessian(program, names):
    answered = [_same_hessian_as_the_table(program, [",".join(f"{name}={value!r}" for name, value in
                                                              zip(names.split(), point, strict=False))])
                for point in POINTS]
    assert answered[0]


@pytest.mark.parametrize("text", ["007", "00.5", "-.5", "5.", "1e5", "1E+5", "-0", "0e0", "1e-400", ".5e1", "-5.e-1",
                                  "123456789012345678901234567890", "0.1", "2.5e-308", "4.9e-324"])
def test_numbers_of_at_read_as_the_table_reads_them(text):
    assert _same_as_the_table("x * 2 - sin(x) * y", [f"x={text}, y=0.5"])


@pytest.mark.parametrize(("program", "at"), [
    ("x + ", ["x=1"]),  # an error: the table's way says it
    ("sum(x * 2)", ["x=1"]),  # a reduction
    ("x[0]", ["x=1"]),
    ("(x, x * 2)", ["x=1"]),  # a tuple
    ("x * 2", ["x=[1,2]"]),  # an array
    ("x * 2", ["x=pi"]),
    ("x * 2", ["x=1", "y=2"]),  # a name that is no input: a warning
    ("x * 2", ["x=1,x=2"]),
    ("log(x)", ["x=0"]),  # not finite: the warnings name nodes
    ("1 / x", ["x=0.5"]),  # x.reciprocal() * 1, as PyTorch records it
    ("softplus(x)", ["x=0.5"]),  # a row with params
    ("x * sqrt(-1)", ["x=0.5"]),  # folded in NumPy (math.sqrt raises)
    ("leaky_relu(x, 0.2)", ["x=0.5"]),
])
def test_everything_else_is_left_to_the_table(program, at):
    assert grad_of_numbers(program, at) is None


def test_the_scalar_path_answers_the_worked_example():
    result = grad_of_numbers("log(x1*x2)*sin(x2)", ["x1=0.5,x2=0.75"])
    assert isinstance(result, NumbersResult)
    assert [round(g, 4) for g in result.grad.values()] == [1.3633, 0.1912]
    assert result.root_names == ("out",) and math.isclose(result.value, math.log(0.375) * math.sin(0.75))


_LOADED = ("import sys\nfrom gradcli.cli import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
           "import json\nprint(json.dumps(sorted({m if m.startswith('gradcli') else m.split('.')[0] for m in sys.modules})), "
           "file=sys.stderr)")


def _loaded(*args: str) -> tuple[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, check=True)
    return done.stdout, set(json.loads(done.stderr.splitlines()[-1]))


def test_a_gradient_of_numbers_as_a_process_loads_no_numpy():
    out, loaded = _loaded("grad", "sin(x1*x2)*cos(x2)", "--at", "x1=0.5,x2=0.75", "--json")
    assert out.startswith('{"expr": "sin(x1*x2)*cos(x2)"')
    assert not loaded & {"numpy", "sympy", "rich", "gradcli.ops", "gradcli.tape", "gradcli.engine"}
    for command in (["jacobian"], ["jvp", "--tangent", "x1=1"]):
        out, loaded = _loaded(*command, "y = x1 ** 2 * sin(x2); sqrt(y)", "--at", "x1=0.5,x2=0.75", "--json")
        assert out.startswith('{"expr": "y = x1 ** 2 * sin(x2); sqrt(y)"')
        assert not loaded & {"numpy", "sympy", "gradcli.ops", "gradcli.tape", "gradcli.engine"}
    out, loaded = _loaded("grad", "sqrt(x) * y - abs(x / y)", "--at", "x=2,y=3")  # the table, for people
    assert "d out / d input" in out
    assert not loaded & {"numpy", "sympy", "rich", "gradcli.ops"}  # (rich's table, written plainly: render/plain.py)
    for command in (["jacobian"], ["jvp", "--tangent", "x1=1"]):  # their tables, for people
        out, loaded = _loaded(*command, "sin(x1*x2)*cos(x2)", "--at", "x1=0.5,x2=0.75")
        assert out.startswith("out = 0.267998\n")
        assert not loaded & {"numpy", "sympy", "rich", "gradcli.ops", "gradcli.tape", "gradcli.engine"}
    out, loaded = _loaded("hessian", "sin(x1*x2)*cos(x2)", "--at", "x1=0.5,x2=0.75")  # the Hessian's table
    assert out.startswith("out = 0.267998\nHessian\n")
    assert not loaded & {"numpy", "sympy", "rich", "gradcli.ops", "gradcli.tape", "gradcli.engine"}
    out, loaded = _loaded("explain", "y = sin(x1*x2)*cos(x2); y * 3 - x1 ** 2", "--at", "x1=0.5,x2=0.75")
    assert "x1.grad += v9.grad × ∂v9/∂x1 = 2*x1 = -1 × 1 = -1  ->  -1" in out  # (its formula: gradcli/table.py's)
    assert not loaded & {"numpy", "sympy", "rich", "gradcli.ops", "gradcli.tape", "gradcli.engine"}
    for at in (["--at", "x1=0.5,x2=0.75"], []):  # the graph's tree, with its values and without
        out, loaded = _loaded("graph", "sin(x1*x2)*cos(x2)", *at)
        assert "[5] MulBackward0 (out)" in out and ("AccumulateGrad x1  value = 0.5" in out) == bool(at)
        assert not loaded & {"numpy", "sympy", "rich", "gradcli.ops", "gradcli.tape", "gradcli.engine"}


def test_explain_of_a_number_the_table_holds_no_formula_for_loads_sympy_alone():
    out, loaded = _loaded("explain", "0.3 * x + x * 2.37 - x / 7.5 + sqrt(x)", "--at", "x=0.5")
    assert "∂v2/∂x = 3/10 =" in out and "∂v4/∂x = 237/100 =" in out and "∂v7/∂x = 2/15 =" in out
    assert "sympy" in loaded and not loaded & {"numpy", "rich", "gradcli.ops", "gradcli.tape", "gradcli.engine"}


def test_numpy_loads_for_a_function_whose_bits_are_its_own():
    # NumPy's log is its own SIMD code: it is called, and only NumPy is loaded, not the op table
    out, loaded = _loaded("grad", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--json")
    assert '"grad": {"x1": 1.3632775200466682, "x2": 0.19118983333660755}' in out
    assert "numpy" in loaded and not loaded & {"sympy", "rich", "gradcli.ops"}
