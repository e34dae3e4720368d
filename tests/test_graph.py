"""gradcli graph: PyTorch's backward graph, as a tree, dot, mermaid and JSON."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from gradcli import compile_program
from gradcli.torch_graph import backward_graph
from tests.helpers import cli

# What torch 2.13 records: type(t.grad_fn).__name__ and its next_functions, for the same
# expression written in PyTorch (x, y scalars, v a vector, m a matrix; all require grad).
PYTORCH_GRAPHS = [
    ("3*x", "MulBackward0", ["AccumulateGrad", None]),
    ("x*3", "MulBackward0", ["AccumulateGrad", None]),
    ("3+x", "AddBackward0", ["AccumulateGrad", None]),
    ("x-3", "SubBackward0", ["AccumulateGrad", None]),
    ("3-x", "RsubBackward1", ["AccumulateGrad"]),
    ("x/3", "DivBackward0", ["AccumulateGrad", None]),
    ("x/y", "DivBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("x**2", "PowBackward0", ["AccumulateGrad"]),
    ("2**x", "PowBackward2", ["AccumulateGrad"]),
    ("x**y", "PowBackward1", ["AccumulateGrad", "AccumulateGrad"]),
    ("-x", "NegBackward0", ["AccumulateGrad"]),
    ("m@v", "MvBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("v@v", "DotBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("v[0]", "SelectBackward0", ["AccumulateGrad"]),
    ("v[1:3]", "SliceBackward0", ["AccumulateGrad"]),
    ("m[:, 1]", "SelectBackward0", ["AccumulateGrad"]),
    ("v[::2]", "SliceBackward0", ["AccumulateGrad"]),
    ("[x, y]", "StackBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("sum(v)", "SumBackward0", ["AccumulateGrad"]),
    ("mean(v)", "MeanBackward0", ["AccumulateGrad"]),
    ("norm(v)", "LinalgVectorNormBackward0", ["AccumulateGrad"]),
    ("logsumexp(v)", "LogsumexpBackward0", ["AccumulateGrad"]),
    ("dot(v, v)", "DotBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("max(x, y)", "MaximumBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("min(x, y)", "MinimumBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("max(x, 2.0)", "MaximumBackward0", ["AccumulateGrad", None]),
    ("max(x, 0)", "MaximumBackward0", ["AccumulateGrad", None]),  # bare max(a, b): elementwise
    ("atan2(x, y)", "Atan2Backward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("relu(x)", "ReluBackward0", ["AccumulateGrad"]),
    ("softplus(x)", "SoftplusBackward0", ["AccumulateGrad"]),
    ("sigmoid(x)", "SigmoidBackward0", ["AccumulateGrad"]),
    ("log1p(x)", "Log1PBackward0", ["AccumulateGrad"]),
    ("pow(x, y)", "PowBackward1", ["AccumulateGrad", "AccumulateGrad"]),
    ("v * [1, 2, 3]", "MulBackward0", ["AccumulateGrad", None]),
    ("[1, 2, 3] * v", "MulBackward0", [None, "AccumulateGrad"]),
    ("x % 2", "RemainderBackward0", ["AccumulateGrad"]),
    ("x % y", "RemainderBackward1", ["AccumulateGrad", "AccumulateGrad"]),
    ("2 % x", "NotImplemented", ["AccumulateGrad"]),
    ("torch.fmod(x, 2)", "FmodBackward0", ["AccumulateGrad"]),
    ("x // y", "NotImplemented", ["AccumulateGrad", "AccumulateGrad"]),
    ("x // 2", "NotImplemented", ["AccumulateGrad"]),
    ("7 // x", "NotImplemented", ["AccumulateGrad"]),
    ("torch.heaviside(x, y)", "NotImplemented", ["AccumulateGrad", "AccumulateGrad"]),
    ("torch.erfinv(x)", "ErfinvBackward0", ["AccumulateGrad"]),
    ("torch.lerp(x, y, 0.5)", "LerpBackward0", ["AccumulateGrad", "AccumulateGrad"]),
    ("x.lerp(y, x)", "LerpBackward1", ["AccumulateGrad", "AccumulateGrad", "AccumulateGrad"]),
    # A comparison's mask has no grad_fn: None where it is used, and no node of its own.
    ("x * (x > 0)", "MulBackward0", ["AccumulateGrad", None]),
    ("(y <= x) / x", "DivBackward0", [None, "AccumulateGrad"]),
    ("x + ((x > 0) & (y != 1) | ~(x == y))", "AddBackward0", ["AccumulateGrad", None]),
    ("torch.where(x > y, x, 2)", "WhereBackward0", ["AccumulateGrad", None]),
    ("torch.where(x > y, x, y * 2)", "WhereBackward0", ["AccumulateGrad", "MulBackward0"]),
    ("x.masked_fill(y > 0, 2)", "MaskedFillBackward0", ["AccumulateGrad"]),
]
POINT = {"x": 0.7, "y": 0.4, "v": [0.5, 0.25, 0.1], "m": [[0.5, 0.2, 0.1], [0.3, 0.4, 0.9]]}


def _graph(program: str):
    from gradcli import grad

    tape = compile_program(program)
    result = grad(tape, at={n: POINT[n] for n in tape.inputs}, seed="ones")
    nodes = {node.id: node for node in backward_graph(tape, tape.outputs, result.values)}
    return nodes, nodes[tape.outputs[0]]


@pytest.mark.parametrize(("program", "root_op", "next_ops"), PYTORCH_GRAPHS)
def test_node_names_and_next_functions_match_pytorch(program, root_op, next_ops):
    nodes, root = _graph(program)
    assert root.op == root_op
    assert [None if n is None else nodes[n].op for n in root.next_functions] == next_ops


def test_pytorch_tutorial_graph():
    run = cli("graph", "O = 3*a**3; P = b**2; Q = O - P", "--format", "json")
    assert run.exit_code == 0, run.stderr
    document = run.json()
    nodes = {n["id"]: n for n in document["nodes"]}
    root = nodes[document["roots"][0]]
    assert (root["op"], root["name"]) == ("SubBackward0", "Q")
    mul, pow_b = (nodes[i] for i in root["next_functions"])
    assert (mul["op"], mul["name"]) == ("MulBackward0", "O")
    assert (pow_b["op"], pow_b["name"]) == ("PowBackward0", "P")
    pow_a = nodes[mul["next_functions"][0]]
    assert pow_a["op"] == "PowBackward0" and mul["next_functions"][1] is None
    assert nodes[pow_a["next_functions"][0]] | {} == {"id": pow_a["next_functions"][0], "op": "AccumulateGrad",
                                                      "name": "a", "next_functions": []}
    assert nodes[pow_b["next_functions"][0]]["name"] == "b"


def test_tree_with_values_shows_value_and_gradient_of_each_node():
    run = cli("graph", "O = 3*a**3; P = b**2; Q = O - P", "--at", "a=2,b=6")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any("SubBackward0 Q" in line and "value = -12" in line and "grad = 1" in line for line in lines)
    assert any("AccumulateGrad a" in line and "value = 2" in line and "grad = 36" in line for line in lines)
    assert any("AccumulateGrad b" in line and "grad = -12" in line for line in lines)
    assert any(line.strip().endswith("None") for line in lines)


def test_a_shared_node_is_drawn_once_then_referenced():
    program = "y = x*x; " + "; ".join(["y = y*y"] * 40)
    run = cli("graph", program)
    assert run.exit_code == 0
    assert run.stdout.count("AccumulateGrad x") == 2  # drawn once, referenced once
    assert "-> [0] AccumulateGrad x" in run.stdout
    assert len(run.stdout.splitlines()) < 200  # 2^41 paths, drawn in linear size


def _check_graph_document(document):
    ids = [n["id"] for n in document["nodes"]]
    assert len(ids) == len(set(ids))
    position = {node_id: i for i, node_id in enumerate(ids)}
    for edge in document["edges"]:
        assert edge["from"] in position and edge["to"] in position
        assert position[edge["from"]] < position[edge["to"]]  # each node before its next_functions
    for node in document["nodes"]:
        assert [e["to"] for e in document["edges"] if e["from"] == node["id"]] == [
            n for n in node["next_functions"] if n is not None
        ]


@pytest.mark.parametrize("program", ["log(x1*x2)*sin(x2)", "O = 3*a**3; P = b**2; Q = O - P",
                                     "y = x*x; y = y*y; y = y*y", "(x*y, sin(x))"])
def test_json_graph_is_a_correct_graph_in_topological_order(program):
    document = cli("graph", program, "--format", "json").json()
    _check_graph_document(document)


def test_json_graph_with_a_point_carries_values_and_gradients():
    document = cli("graph", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--format", "json").json()
    x2 = next(n for n in document["nodes"] if n["name"] == "x2")
    assert x2["value"] == 0.75
    assert x2["grad"] == pytest.approx(0.19118983, abs=1e-8)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (apt-get install graphviz)")
def test_dot_output_is_accepted_by_graphviz():
    for program, at in [("log(x1*x2)*sin(x2)", "x1=0.5,x2=0.75"), ("O = 3*a**3; P = b**2; Q = O - P", "a=2,b=6")]:
        source = cli("graph", program, "--at", at, "--format", "dot").stdout
        done = subprocess.run(["dot", "-Tsvg"], input=source, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "<svg" in done.stdout and "MulBackward0" in done.stdout


def test_mermaid_flowchart_defines_every_node_it_links():
    text = cli("graph", "O = 3*a**3; P = b**2; Q = O - P", "--format", "mermaid").stdout
    lines = text.splitlines()
    assert lines[0] == "flowchart TD"
    defined = {line.split("[")[0].split("(")[0].strip() for line in lines[1:] if "-->" not in line and "-.->" not in line}
    for line in lines[1:]:
        for arrow in ("-->", "-.->"):
            if arrow in line:
                source, target = (part.strip() for part in line.split(arrow))
                assert source in defined and target in defined


def test_graph_of_a_tuple_output_has_a_root_per_output():
    document = json.loads(cli("graph", "(x*y, sin(x))", "--format", "json").stdout)
    assert len(document["roots"]) == 2


def test_torch_agrees_where_it_is_installed():
    torch = pytest.importorskip("torch", reason="PyTorch is optional; pip install torch==2.13.0 to compare live")
    for program, root_op, next_ops in PYTORCH_GRAPHS:
        tensors = {n: torch.tensor(v, dtype=torch.float64, requires_grad=True) for n, v in POINT.items()}
        expression = program.replace("[1, 2, 3]", "torch.tensor([1., 2., 3.], dtype=torch.float64)")
        for name, function in [("sum", "torch.sum"), ("mean", "torch.mean"), ("norm", "torch.linalg.vector_norm"),
                               ("logsumexp", "(lambda t: torch.logsumexp(t, 0))"), ("dot", "torch.dot"),
                               ("max", "torch.maximum"), ("min", "torch.minimum"), ("atan2", "torch.atan2"),
                               ("relu", "torch.relu"), ("softplus", "torch.nn.functional.softplus"),
                               ("sigmoid", "torch.sigmoid"), ("log1p", "torch.log1p"), ("pow", "torch.pow")]:
            expression = expression.replace(f"{name}(", f"{function}(")
        expression = expression.replace("[x, y]", "torch.stack([x, y])").replace("torch.maximum(x, 2.0)",
                                                                                 "torch.maximum(x, torch.tensor(2.))")
        expression = expression.replace("torch.maximum(x, 0)", "torch.maximum(x, torch.tensor(0.))")
        out = eval(expression, {"torch": torch}, tensors)  # the reference: our own fixed table, in PyTorch
        assert type(out.grad_fn).__name__ == root_op, program
        assert [None if f is None else type(f).__name__ for f, _ in out.grad_fn.next_functions] == next_ops, program


MLP = "sum(relu(x @ w1 + b1) @ w2 + b2)"
MLP_AT = "x=full((4,8),0.1),w1=full((8,16),0.01),b1=zeros(16),w2=ones(16,1),b2=zeros(1)"


def test_a_small_models_graph_shows_shapes_and_stays_readable():
    run = cli("graph", MLP, "--at", MLP_AT)
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(map(len, lines)) <= 160  # never a 1,000-character node
    for name, shape in [("AccumulateGrad x", "(4, 8)"), ("AccumulateGrad w1", "(8, 16)"), ("ReluBackward0", "(4, 16)"),
                        ("AccumulateGrad b1", "(16,)")]:
        line = next(line for line in lines if name in line)
        assert f"shape {shape}" in line, line
    # the edges carry their local derivatives: J = 1ᵀ under the sum, a broadcast bias summed back
    assert "(J = 1ᵀ) [9] AddBackward0" in run.stdout
    assert "(summed over axes (0,)) [3] AccumulateGrad b1" in run.stdout
    document = cli("graph", MLP, "--at", MLP_AT, "--json").json()
    shapes = {node["name"]: node["shape"] for node in document["nodes"] if node["op"] == "AccumulateGrad"}
    assert shapes == {"x": [4, 8], "w1": [8, 16], "b1": [16], "w2": [16, 1], "b2": [1]}
    kinds = {(e["from"], e["to"]): e["jacobian"]["kind"] for e in document["edges"] if "jacobian" in e}
    assert kinds[(10, 9)] == "ones" and kinds[(4, 3)] == "summed"


def test_post_001s_edges_carry_the_local_derivatives_that_paths_multiply():
    run = cli("graph", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75")
    assert "(× 0.731689) -> [1] AccumulateGrad x2" in run.stdout  # d sin(x2)/d x2 = cos(0.75)
    assert "(× 0.75) [0] AccumulateGrad x1" in run.stdout  # d (x1*x2)/d x1 = x2
    document = cli("graph", "log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75", "--json").json()
    local = {(e["from"], e["to"]): e["local_derivative"] for e in document["edges"]}
    assert local[(4, 1)] == pytest.approx(0.7316888688738209) and local[(2, 0)] == 0.75


def test_cosine_similarity_of_two_shapes_expands_both_as_pytorch_records_it():
    # PyTorch 2.13: F.cosine_similarity(a (2, 3), b (3,), dim=-1) is SumBackward1 over Mul over two Divs, each over
    # an ExpandBackward0 of its input and a cloned norm of that same Expand; of one shape, no Expand at all
    document = cli("graph", "sum(cosine_similarity(a, b, dim=-1))", "--at", "a=[[1,2,3],[4,5,6]],b=[1,-1,2]",
                   "--json").json()
    ops = {node["id"]: node["op"] for node in document["nodes"]}
    expands = [node for node in document["nodes"] if node["op"] == "ExpandBackward0"]
    assert len(expands) == 2 and sorted(ops[e["next_functions"][0]] for e in expands) == ["AccumulateGrad"] * 2
    norms = [node for node in document["nodes"] if node["op"] == "LinalgVectorNormBackward0"]
    assert {ops[n["next_functions"][0]] for n in norms} == {"ExpandBackward0"}
    same = cli("graph", "sum(cosine_similarity(a, a, dim=-1))", "--at", "a=[[1,2,3],[4,5,6]]", "--json").json()
    assert not any(node["op"] == "ExpandBackward0" for node in same["nodes"])
