"""The parser: Python's precedence, the whole language, deep and wide programs."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from gradcli import compile_program, grad
from gradcli.errors import SyntaxProblem, describe
from gradcli.ops import BINARY_OPERATORS, PREFIX_OPERATORS
from gradcli.syntax import (
    Binary,
    Call,
    Index,
    ListLit,
    Name,
    Num,
    Slice,
    TupleLit,
    Unary,
    fold,
    parse,
    parse_expression,
    to_source,
    tokenize,
)
from gradcli.syntax.operators import COMPARISONS


def value_of(program: str, **point: float) -> float:
    tape = compile_program(program)
    used = {name: v for name, v in point.items() if name in tape.inputs}
    return float(np.asarray(grad(tape, at=used, seed="ones").value).sum())


@pytest.mark.parametrize(
    "expression",
    ["-x**2", "2**-x*3", "x**y**2", "-x**-y", "x - y - 2", "x / y / 2", "x * -y + 3", "+x - -y", "(x + y) * (x - y)",
     "x ** (1 / 2) * y", "-(x)**2", "x*y/2*x", "2*-x**2/y", "x % y * 2 - -x % y", "2 ** x % y", "-x % -y / x",
     "x * 7 % y ** 2", "x // y * 2 - -x // y % 3", "2 ** x // y", "x + 1 < y * 2", "(x < y) * x", "(x > y) & (y > 0) | (x == 1.3)", "(x != y) | (x >= 2)",
     "(x <= y) == (y > 0)", "(-x < -y) & (x > 0)"],
)
def test_precedence_and_associativity_are_pythons(expression):
    x, y = 1.3, 0.7
    expected = eval(expression, {}, {"x": x, "y": y})  # the reference is Python itself, on our own text
    assert value_of(expression, x=x, y=y) == pytest.approx(float(expected), rel=1e-12)  # (a comparison: 1.0 or 0.0)


def test_tree_shapes():
    assert parse_expression("-x**2") == Unary("-", Binary("**", Name("x", (0, 0)), Num(2.0, "2", (0, 0)), (0, 0)), (0, 0))
    call = parse_expression("atan2(a, b)")
    assert isinstance(call, Call) and call.func == "atan2" and len(call.args) == 2
    index = parse_expression("m[1:, ::2, 0]")
    assert isinstance(index, Index) and len(index.items) == 3
    assert isinstance(index.items[0], Slice) and isinstance(index.items[2], Num)
    assert isinstance(parse_expression("[1, [2, 3]]"), ListLit)
    assert isinstance(parse_expression("(a, b)"), TupleLit)
    assert isinstance(parse_expression("(a,)"), TupleLit)
    assert isinstance(parse_expression("(a)"), Name)


def test_statements_split_on_semicolons_and_newlines_with_comments():
    program = parse("a = x * 2  # double\nb = a + 1; c = b ** 2\n\nc")
    assert [s.target for s in program.statements] == ["a", "b", "c", None]


def test_newlines_inside_brackets_continue_the_statement():
    assert value_of("y = sin(\n  x\n) + [1,\n 2][0]", x=0.0) == pytest.approx(1.0)


def test_constants_pi_and_e():
    assert value_of("pi * x + e", x=1.0) == pytest.approx(np.pi + np.e)


def test_tuple_output_has_several_values():
    result = grad("(x + y, x * y)", at={"x": 2, "y": 3}, seed=[1.0, 1.0])
    assert [float(v) for v in result.value] == [5.0, 6.0]
    assert float(result.grad["x"]) == 4.0


def test_100000_nested_parentheses_parse_and_differentiate_without_recursion():
    depth = 100_000
    result = grad("(" * depth + "x" + ")" * depth + "**2", at={"x": 3.0})
    assert float(result.grad["x"]) == 6.0


def test_100000_nested_calls_differentiate():
    depth = 100_000
    result = grad("relu(" * depth + "x" + ")" * depth, at={"x": 2.0})
    assert float(result.grad["x"]) == 1.0


def test_a_long_chain_of_unary_minus():
    result = grad("-" * 100_001 + "x", at={"x": 2.0})
    assert float(result.grad["x"]) == -1.0


def test_flat_sum_that_pythons_own_parser_rejects():
    terms = 5_000
    source = " + ".join(f"x*{i}" for i in range(terms))
    with pytest.raises(RecursionError):
        ast.parse(source)
    result = grad(source, at={"x": 1.0})
    assert float(result.grad["x"]) == sum(range(terms))


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("log(x1*x2))", "unexpected ')'", 11),
        ("sin(x", "'(' never closed", 4),
        ("x +* y", "unexpected '*'", 4),
        ("x = ", "unexpected end of input", 5),
        ("(a]", "unexpected ']'", 3),
        ("x.real", "attribute access ('.') is not supported", 2),
        ("x << 2", "operator '<<' is not supported", 3),
        ("lambda x: x", "'lambda' is not supported", 1),
        ("f(,)", "unexpected ','", 3),
        ("2(3)", "only a function's name can be called", 2),
        ("a = b = 1", "unexpected '='", 7),
        ("v[1:2:3:4]", "unexpected ':'", 8),
        ("x $ y", "unexpected character '$'", 3),
        ("", "empty program", 1),
    ],
)
def test_syntax_errors_name_the_problem_and_the_column(text, message, column):
    with pytest.raises(SyntaxProblem) as caught:
        parse(text)
    first = describe(caught.value)[0]
    assert message in first
    assert f"at column {column}" in first


def test_the_caret_stands_under_the_problem():
    with pytest.raises(SyntaxProblem) as caught:
        parse("log(x1*x2))*sin(x2)")
    _, shown, caret = describe(caught.value)
    assert shown.strip() == "log(x1*x2))*sin(x2)"
    assert caret.index("^") == shown.index("log") + 10


def test_errors_in_a_multiline_program_name_the_line():
    with pytest.raises(SyntaxProblem) as caught:
        parse("a = x\nb = a +\n")
    assert "line 2, column 8" in describe(caught.value)[0]


@pytest.mark.parametrize(("source", "constant"), [
    ("x * (3/7)", 3 / 7),  # Python folds 3/7 before PyTorch sees it: the same float
    ("x * 2**0.5", 2**0.5),
    ("x * (1 - 1e-17)", 1.0),
    ("x + 1/0", np.inf),  # Python would raise; IEEE (and NumPy) gives inf
    ("x + (-8)**(1/3)", np.nan),  # a complex number in Python; NaN in NumPy, as in PyTorch
    ("x * sin(pi/2)", 1.0),
])
def test_constants_fold_into_one_node(source, constant):
    tape = compile_program(source)
    assert [node.kind for node in tape.nodes] == ["input", "const", "apply"]
    np.testing.assert_equal(float(tape.nodes[1].value), constant)


def test_tokens_keep_their_columns_across_spaces_comments_and_continuations():
    source = "a = 1.5e3  # note\nb = (a *\\\n  x)  ;  b + .5"
    tokens = tokenize(source)
    assert [source[start:end] for _, _, start, end in tokens[:-1]] == [text for _, text, _, _ in tokens[:-1]]
    assert [(kind, text) for kind, text, _, _ in tokens] == [
        ("NAME", "a"), ("=", "="), ("NUM", "1.5e3"), ("NEWLINE", "\n"), ("NAME", "b"), ("=", "="), ("(", "("),
        ("NAME", "a"), ("OP", "*"), ("NAME", "x"), (")", ")"), (";", ";"), ("NAME", "b"), ("OP", "+"),
        ("NUM", ".5"), ("END", ""),
    ]


def test_trees_100000_deep_compare_without_recursion():
    # Found by the fuzz target: tree equality recursed, and a deep tree raised RecursionError.
    source = "-" * 100_000 + "x"
    assert parse(source) == parse(source)
    assert parse(source) != parse("-" * 99_999 + "x")
    assert parse(source) != parse("-" * 100_000 + "y")


# --- every operator of the op table, against Python's own grouping ---------------------------

_PYTHON_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.MatMult: "@", ast.Mod: "%", ast.FloorDiv: "//",
                  ast.USub: "-", ast.UAdd: "+", ast.BitAnd: "&", ast.BitOr: "|", ast.Invert: "~", ast.Lt: "<",
                  ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
# The language's operators: the op table's rows, and unary plus (no op: PyTorch records no node).
_INFIX = sorted(BINARY_OPERATORS)
_PREFIX = sorted({*PREFIX_OPERATORS, "+"})


def _grouped_by_python(source: str) -> str:
    def show(node: ast.expr) -> str:
        if isinstance(node, ast.BinOp):
            return f"({show(node.left)} {_PYTHON_SYMBOL[type(node.op)]} {show(node.right)})"
        if isinstance(node, ast.UnaryOp):
            return f"({_PYTHON_SYMBOL[type(node.op)]}{show(node.operand)})"
        if isinstance(node, ast.Compare) and len(node.ops) == 1:  # a chain of several is refused (below)
            return f"({show(node.left)} {_PYTHON_SYMBOL[type(node.ops[0])]} {show(node.comparators[0])})"
        assert isinstance(node, ast.Name)
        return node.id

    return show(ast.parse(source, mode="eval").body)


def _grouped_by_gradcli(source: str) -> str:
    def show(node, parts):
        if isinstance(node, Binary):
            return f"({parts[0]} {node.op} {parts[1]})"
        if isinstance(node, Unary):
            return f"({node.op}{parts[0]})"
        return node.id

    return fold(parse_expression(source), show)


@pytest.mark.parametrize("first", _INFIX)
@pytest.mark.parametrize("second", _INFIX)
def test_every_pair_of_operators_groups_as_in_python(first, second):
    if first in COMPARISONS and second in COMPARISONS:  # Python chains them; gradcli refuses
        for source in (f"a {first} b {second} c", f"a {first} -b {second} c", f"a {first} b + 1 {second} c"):
            with pytest.raises(SyntaxProblem, match="comparisons cannot be chained"):
                parse_expression(source)
        assert _grouped_by_gradcli(f"(a {first} b) {second} c") == f"((a {first} b) {second} c)"
        assert _grouped_by_gradcli(f"a {first} (b {second} c)") == f"(a {first} (b {second} c))"
        source = f"(a {first} b) {second} c"
        assert parse_expression(to_source(parse_expression(source))) == parse_expression(source)
        return
    for source in (f"a {first} b {second} c", f"a {first} b {second} c {first} d", f"a {first} (b {second} c)"):
        if first in COMPARISONS and source.count(f" {first} ") == 2:  # a chain: a < b + c < d
            with pytest.raises(SyntaxProblem, match="comparisons cannot be chained"):
                parse_expression(source)
            continue
        assert _grouped_by_gradcli(source) == _grouped_by_python(source), source
        assert parse_expression(to_source(parse_expression(source))) == parse_expression(source)


@pytest.mark.parametrize("sign", _PREFIX)
@pytest.mark.parametrize("operator", _INFIX)
def test_every_prefix_operator_binds_as_in_python(sign, operator):
    for source in (f"{sign}a {operator} b", f"a {operator} {sign}b", f"{sign}a {operator} {sign}b {operator} c",
                   f"{sign}{sign}a {operator} b", f"({sign}a) {operator} b"):
        if operator in COMPARISONS and source.count(f" {operator} ") == 2:  # a chain: refused (above)
            continue
        assert _grouped_by_gradcli(source) == _grouped_by_python(source), source
        assert parse_expression(to_source(parse_expression(source))) == parse_expression(source)


def test_a_token_names_its_fields():
    plus = tokenize("x + 1")[1]
    assert (plus.kind, plus.text, plus.start, plus.end) == ("OP", "+", 2, 3)
    assert [token.kind for token in tokenize("f(x)")] == ["NAME", "(", "NAME", ")", "END"]
