"""gradcli/run/saved.py: which tensors each row's node saves, as PyTorch saves them (#21: in-place writes
under `gradcli run`). It is generated from PyTorch by tests/reference/make_saved.py; these hold it to the
op table and, where torch is installed, to what PyTorch saves today."""

from __future__ import annotations

import importlib.util

import pytest

from gradcli.ops import OPS
from gradcli.run.saved import SAVED
from tests.helpers import cli


def test_every_entry_is_a_row_and_its_positions_are_its_args():
    for row, nodes in SAVED.items():
        op = OPS[row]
        assert op.differentiable and op.program is None, row
        for node, (args, result) in nodes.items():
            assert node[0].isupper(), (row, node)
            for position, needers in args:
                assert needers, (row, node, position)
                assert all(0 <= p < 8 for p in (position, *needers)), (row, node)
            assert all(0 <= p < 8 for p in result), (row, node)


def test_the_rows_everyone_writes_in_place_around_are_known():
    """A backward after a write in place is checked by these entries; a row without one is refused then."""
    assert SAVED["mul"]["MulBackward0"] == (((0, (1,)), (1, (0,))), ())  # each saves the other for its gradient
    assert SAVED["exp"]["ExpBackward0"] == ((), (0,))  # its result
    assert SAVED["add"]["AddBackward0"] == ((), ())
    for row in ("sigmoid", "tanh", "relu", "sqrt"):
        (node,) = SAVED[row]
        assert SAVED[row][node][1] == (0,), row  # each saves its result, not its input


def test_every_in_place_derivative_a_row_names_is_known():
    """A row whose in-place form PyTorch records as a node of its own (F.elu(x, inplace=True): EluBackward1,
    which saves the result where EluBackward0 saves the input) has that node's entry: asked of PyTorch too."""
    named = {row: dict(op.in_place_nodes).values() for row, op in OPS.items() if op.in_place_nodes and not op.linear}
    assert {"elu", "selu", "celu", "leaky_relu", "threshold", "polygamma"} <= set(named)  # (a linear row saves none)
    for row, nodes in named.items():
        for node in nodes:
            assert node in SAVED.get(row, {}), (row, node)
    assert SAVED["elu"]["EluBackward1"] == ((), (0,))  # the result, for the input's gradient


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch (PyTorch is the reference)")
def test_the_table_is_what_pytorch_saves_today():
    from tests.reference import make_saved

    assert make_saved.entries() == SAVED, "regenerate: python tests/reference/make_saved.py"


def test_a_backward_through_a_node_that_saved_a_tensor_written_since_raises_pytorchs_error():
    program = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 1\nz = y * y\ny.add_(1)\n"
               "z.sum().backward()\n")
    run = cli("run", "-", stdin=program)
    assert run.exit_code == 1 and run.stdout == ""
    assert run.stderr.strip().splitlines()[-1] == (
        "RuntimeError: one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [2]], which is output 0 of Add, is at version 1; expected version 0 instead. "
        "Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).")
    # the same program written out of place is what PyTorch computes: d/dx (x * 1)^2 = 2x
    fixed = program.replace("y.add_(1)\n", "").replace("z.sum().backward()\n", "z.sum().backward()\nprint(x.grad)\n")
    assert cli("run", "-", stdin=fixed).stdout == "tensor([2., 4.])\n"

