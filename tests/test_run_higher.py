"""Higher-order gradients under `gradcli run` (#23 item 4): create_graph=True records the backward
sweep on the tape (gradcli.run.higher), torch.autograd.functional, custom autograd.Functions.

Tutorials as written, with PyTorch 2.13's recorded output, are tests/run_cases/create_graph_*.py and
autograd_functional.py (tests/test_run.py runs them); here, the rules generated from the op table and
the behaviours a user checks, the expected numbers recorded from PyTorch.
"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import engine
from gradcli.ops import OPS
from gradcli.ops.core import rule_params
from gradcli.run import higher
from gradcli.run.tensor import Graph, Tensor, apply
from tests.helpers import cli

# The rows tutorials differentiate twice: create_graph must go through each of them.
TUTORIAL_ROWS = ["add", "sub", "mul", "div", "pow", "neg", "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid",
                 "relu", "leaky_relu", "softplus", "abs", "sum", "mean", "matmul", "mm", "mv", "dot", "softmax",
                 "log_softmax", "mse_loss", "norm", "getitem", "reshape", "transpose", "t", "expand", "unsqueeze",
                 "squeeze", "var", "std", "cumsum", "cat", "linear", "logsumexp", "where", "clamp", "maximum"]


def _rows():
    for op in OPS.values():
        if op.parts or op.index_from is not None or not op.differentiable:
            continue
        for shapes, params in op.examples[:2]:
            yield pytest.param(op, shapes, params, id=f"{op.name}-{'x'.join(map(str, shapes))}")


def _made(op, shapes, params, seed=0):
    rng = np.random.default_rng(seed)
    graph = Graph("")
    domain = op.domain or ()
    args = []
    refused = {place for place, _, _ in op.undifferentiable}  # (PyTorch refuses those a gradient: weights)
    for i, shape in enumerate(shapes):
        low, high = domain[i] if i < len(domain) else (-2.0, 2.0)
        args.append(Tensor(graph, rng.uniform(low, high, shape), requires_grad=i not in refused))
    try:
        out = apply(graph, op, args, rule_params(op, params), (0, 0))
    except (ValueError, IndexError, TypeError):
        return None
    if not out.requires_grad:
        return None
    return graph, args, out, rng.uniform(-1.0, 1.0, out.data.shape)


@pytest.mark.parametrize(("op", "shapes", "params"), list(_rows()))
def test_a_recorded_gradient_has_the_bits_of_the_plain_one_or_the_row_is_refused(op, shapes, params):
    if op.name.startswith("atleast_"):
        pytest.skip("the input itself where it has the dims already (no node, as in PyTorch); the row is applied "
                    "here without that rule (tests/run_cases cover atleast_Nd under create_graph through `run`)")
    made = _made(op, shapes, params)
    if made is None:
        pytest.skip("the example does not make a differentiable value here")
    graph, args, out, g = made
    plain = engine.backward(graph.tape, graph.values, [out.node], [g], backend=engine.ARRAYS)
    size = len(graph.tape.nodes)
    try:
        recorded = higher.backward(graph, [out.node], [Tensor(graph, g)], (0, 0))
    except higher.Unsupported as refused:
        assert op.name not in TUTORIAL_ROWS, f"create_graph through {op.name} is refused: {refused}"
        assert refused.op is not None
        assert len(graph.tape.nodes) == size  # the nodes it made are off the tape again
        return
    for arg in args:
        if arg.node is None:  # only a condition of its nodes (a loss's target): no gradient either way
            continue
        expected = plain[arg.node]
        got = recorded.get(arg.node)
        assert (expected is None) == (got is None)
        if expected is not None:
            assert np.array_equal(np.broadcast_to(expected, arg.data.shape), got.data, equal_nan=True)


@pytest.mark.parametrize("name", TUTORIAL_ROWS)
def test_a_recorded_gradient_differentiated_again_is_the_change_of_the_gradient(name):
    """Hessian times v from the recorded gradient, against central differences of the gradient."""
    op = OPS[name]
    shapes, params = op.examples[0]
    made = _made(op, shapes, params, seed=1)
    assert made is not None
    graph, args, out, g = made
    rng = np.random.default_rng(2)
    directions = [rng.uniform(-1.0, 1.0, a.data.shape) for a in args]
    recorded = higher.backward(graph, [out.node], [Tensor(graph, g)], (0, 0))
    firsts = [recorded.get(a.node) for a in args]
    roots = [f.node for f in firsts if f is not None and f.requires_grad]
    seeds = [d for f, d in zip(firsts, directions, strict=True) if f is not None and f.requires_grad]
    second = engine.backward(graph.tape, graph.values, roots, seeds, backend=engine.ARRAYS) if roots else None

    def gradient(shift):
        moved = Graph("")
        inputs = [Tensor(moved, a.data + shift * d, requires_grad=True) for a, d in zip(args, directions, strict=True)]
        result = apply(moved, op, inputs, rule_params(op, params), (0, 0))
        adjoints = engine.backward(moved.tape, moved.values, [result.node], [g], backend=engine.ARRAYS)
        return [np.zeros(a.data.shape) if adjoints[a.node] is None else np.broadcast_to(adjoints[a.node], a.data.shape)
                for a in inputs]

    step = 1e-6
    for i, arg in enumerate(args):
        expected = (gradient(step)[i] - gradient(-step)[i]) / (2 * step)
        got = np.zeros(arg.data.shape) if second is None or second[arg.node] is None else second[arg.node]
        np.testing.assert_allclose(np.broadcast_to(got, arg.data.shape), expected, rtol=1e-5, atol=1e-6)


def run_text(tmp_path, text: str):
    program = tmp_path / "f.py"
    program.write_text(text)
    return cli("run", str(program))


def test_derivatives_of_every_order_are_pytorchs(tmp_path):
    run = run_text(tmp_path, "import torch\nx = torch.tensor(1.5, requires_grad=True)\ny = x ** 4\n"
                             "d1, = torch.autograd.grad(y, x, create_graph=True)\n"
                             "d2, = torch.autograd.grad(d1, x, create_graph=True)\n"
                             "d3, = torch.autograd.grad(d2, x, create_graph=True)\n"
                             "d4, = torch.autograd.grad(d3, x, create_graph=True)\n"
                             "print(d1.item(), d2.item(), d3.item(), d4.item(), d4.requires_grad)\n")
    assert run.stdout == "13.5 27.0 36.0 24.0 True\n", run.stderr


def test_backward_with_create_graph_keeps_a_graph_in_grad_and_accumulates_through_it(tmp_path):
    run = run_text(tmp_path, "import torch\nx = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"
                             "(x.relu() ** 2).sum().backward(create_graph=True)\nprint(x.grad)\n"
                             "(x.relu() ** 2).sum().backward(create_graph=True)\nprint(x.grad)\n"
                             "g = x.grad\nx.grad = None\ng.sum().backward()\nprint(x.grad)\n")
    assert run.stdout == ("tensor([2., 0., 6.], grad_fn=<CopyBackwards>)\n"
                          "tensor([ 4.,  0., 12.], grad_fn=<AddBackward0>)\ntensor([4., 0., 4.])\n"), run.stderr


def test_relus_gradient_depends_on_x_through_its_saved_output_as_pytorchs(tmp_path):
    run = run_text(tmp_path, "import torch\nx = torch.tensor([0.5, 2.0], requires_grad=True)\n"
                             "d, = torch.autograd.grad(torch.relu(x).sum(), x, create_graph=True)\nprint(d)\n"
                             "print(torch.autograd.grad(d.sum(), x))\n"
                             "d, = torch.autograd.grad((3 * x).sum(), x, create_graph=True)\nprint(d, d.requires_grad)\n")
    assert run.stdout == ("tensor([1., 1.], grad_fn=<ThresholdBackwardBackward0>)\n(tensor([0., 0.]),)\n"
                          "tensor([3., 3.]) False\n"), run.stderr


def test_create_graph_through_a_row_without_a_program_is_exit_2_naming_it(tmp_path):
    run = run_text(tmp_path, "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                             "g, = torch.autograd.grad(torch.det(torch.outer(x, x) + torch.eye(2)), x, "
                             "create_graph=True)\n")
    assert run.exit_code == 2
    assert "create_graph=True through det (LinalgDetBackward0) is not supported" in run.stderr
    assert "line 3" in run.stderr and "Traceback" not in run.stderr


def test_a_hessian_of_a_function_with_more_than_one_element_is_pytorchs_error(tmp_path):
    run = run_text(tmp_path, "import torch\nfrom torch.autograd.functional import hessian\n"
                             "print(hessian(lambda a: a * 2, torch.ones(2)))\n")
    assert run.exit_code == 1
    assert run.stderr.strip().splitlines()[-1] == (
        "RuntimeError: The Tensor returned by the function given to hessian should contain a single element")


def test_functional_strict_is_refused_with_exit_2(tmp_path):
    run = run_text(tmp_path, "import torch\nprint(torch.autograd.functional.jacobian(lambda a: a, torch.ones(2), "
                             "strict=True))\n")
    assert run.exit_code == 2
    assert "strict=True) is not supported" in run.stderr


def test_a_jacobian_past_the_elements_limit_is_refused_before_it_is_computed(tmp_path):
    run = run_text(tmp_path, "import torch\nJ = torch.autograd.functional.jacobian(lambda a: a * 2, torch.ones(5000))\n")
    assert run.exit_code == 2
    assert "this jacobian would have 25,000,000 elements" in run.stderr


_TWICE = ("import torch\nclass Twice(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x, k):\n"
          "        ctx.k = k\n        ctx.save_for_backward(x)\n        return x * k\n    @staticmethod\n"
          "    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        print(ctx.needs_input_grad, ctx.k)\n"
          "        return g * ctx.k * x, None\n"
          "x = torch.tensor([1.0, 2.0], requires_grad=True)\n")


def test_a_custom_function_is_one_node_named_for_its_class_and_backward_reads_its_context(tmp_path):
    run = run_text(tmp_path, _TWICE + "z = Twice.apply(x, 3)\nprint(z.grad_fn.name(), z)\nz.backward(torch.ones(2))\n"
                                      "print(x.grad)\n")
    assert run.stdout == ("TwiceBackward tensor([3., 6.], grad_fn=<TwiceBackward>)\n(True, False) 3\n"
                          "tensor([3., 6.])\n"), run.stderr


def test_a_custom_functions_backward_is_differentiated_again_with_create_graph(tmp_path):
    run = run_text(tmp_path, _TWICE + "g, = torch.autograd.grad(Twice.apply(x, 3).sum(), x, create_graph=True)\n"
                                      "print(g)\nprint(torch.autograd.grad(g.sum(), x))\n")
    assert run.stdout == ("(True, False) 3\ntensor([3., 6.], grad_fn=<MulBackward0>)\n(tensor([3., 3.]),)\n"), run.stderr


def test_a_custom_function_returning_too_few_gradients_is_pytorchs_error(tmp_path):
    run = run_text(tmp_path, "import torch\nclass Bad(torch.autograd.Function):\n    @staticmethod\n"
                             "    def forward(ctx, a, b):\n        return a * b\n    @staticmethod\n"
                             "    def backward(ctx, g):\n        return g\n"
                             "x = torch.tensor([1.0, 2.0], requires_grad=True)\nBad.apply(x, x).sum().backward()\n")
    assert run.exit_code == 1
    assert run.stderr.strip().splitlines()[-1] == (
        "RuntimeError: function BadBackward returned an incorrect number of gradients (expected 2, got 1)")


def test_a_non_differentiable_output_has_no_grad_fn(tmp_path):
    run = run_text(tmp_path, "import torch\nclass F(torch.autograd.Function):\n    @staticmethod\n"
                             "    def forward(ctx, x):\n        out = x * 2\n        ctx.mark_non_differentiable(out)\n"
                             "        return out\n    @staticmethod\n    def backward(ctx, g):\n        return g\n"
                             "y = F.apply(torch.tensor([1.0, 2.0], requires_grad=True))\n"
                             "print(y, y.requires_grad, y.grad_fn)\n")
    assert run.stdout == "tensor([2., 4.]) False None\n", run.stderr


def test_a_decorator_of_the_files_own_is_still_refused(tmp_path):
    run = run_text(tmp_path, "import torch\ndef keep(f):\n    return f\nclass F(torch.autograd.Function):\n    @keep\n"
                             "    def forward(ctx, x):\n        return x\n")
    assert run.exit_code == 2
    assert "a decorator is not supported" in run.stderr


@pytest.mark.parametrize("view", ["--graph", "--paths", "--explain"])
def test_the_views_never_run_a_custom_backward_where_the_file_did_not(tmp_path, view):
    program = tmp_path / "f.py"
    program.write_text(_TWICE + "z = Twice.apply(x, 3)\nz.backward(torch.ones(2))\n")
    run = cli("run", str(program), view)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.count("(True, False) 3") == 1


_ONCE = ("import torch\nfrom torch.autograd.function import once_differentiable\n"
         "class Cube(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
         "        ctx.save_for_backward(x)\n        return x ** 3\n    @staticmethod\n    @once_differentiable\n"
         "    def backward(ctx, g):\n        x, = ctx.saved_tensors\n        return g * 3 * x ** 2\n"
         "x = torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True)\n")


def test_a_backward_marked_once_differentiable_gives_its_gradient(tmp_path):
    run = run_text(tmp_path, _ONCE + "Cube.apply(x).sum().backward()\nprint(x.grad)\n")
    assert run.stdout == "tensor([ 3., 12.], dtype=torch.float64)\n", run.stderr  # 3 x^2


def test_create_graph_through_a_once_differentiable_backward_gives_a_constant_as_pytorchs(tmp_path):
    run = run_text(tmp_path, _ONCE + "g, = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)\n"
                                     "print(g, g.requires_grad)\ng.sum().backward()\n")
    assert run.stdout == "tensor([ 3., 12.], dtype=torch.float64) False\n", run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn")


def test_create_graph_into_a_once_differentiable_backward_with_a_gradient_that_requires_grad_raises_where_differentiated(
        tmp_path):
    # PyTorch's once_differentiable puts the gradient behind an Error node (DelayedError): it requires grad, and a
    # backward that runs the node raises (it was refused before PyTorch's behaviour was built)
    run = run_text(tmp_path, _ONCE + "g, = torch.autograd.grad((Cube.apply(x) * x).sum(), x, create_graph=True)\n"
                                     "print(g.requires_grad, g.grad_fn.next_functions[0][0].name())\n"
                                     "g.sum().backward()\n")
    assert run.exit_code == 1 and run.stdout == "True MulBackward0\n", run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        "RuntimeError: trying to differentiate twice a function that was marked with @once_differentiable")
