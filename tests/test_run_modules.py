"""torch.nn.init, Module.add_module and apply, type() of modules and Parameters, and `.data` sharing
the parameter's values (#23: d2l's parameter-management chapter), held to PyTorch 2.13's stdout; with
torch installed PyTorch runs each file too."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from tests.helpers import cli

INIT = "import torch\nfrom torch import nn\ntorch.manual_seed(0)\nw = torch.zeros(3, 5)\nfor draw in (lambda: nn.init.uniform_(w, -2, 3), lambda: nn.init.normal_(w, 1, 0.5), lambda: nn.init.xavier_uniform_(w),\n             lambda: nn.init.xavier_normal_(w, gain=2.0), lambda: nn.init.kaiming_uniform_(w, a=0.1),\n             lambda: nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'), lambda: nn.init.constant_(w, 0.25),\n             lambda: nn.init.ones_(w), lambda: nn.init.zeros_(w)):\n    print(draw().tolist())\nbig = torch.zeros(20, 7, dtype=torch.float64)\nprint(nn.init.normal_(big)[-1].tolist(), nn.init.uniform_(big)[-1].tolist())\n"
# sha256 of PyTorch 2.13's stdout for INIT
INIT_BY_PYTORCH = "f0da637313d4e5213c251f5b677aaa726d800286faf6f3599ac37c86b154594e"

MODULES = "import torch\nfrom torch import nn\ntorch.manual_seed(1)\nnet = nn.Sequential()\nnet.add_module('first', nn.Linear(2, 3))\nnet.add_module('act', nn.ReLU())\nprint(net, type(net[0]) == nn.Linear, type(net[1]) == nn.Linear, type(net[0].weight), type(net[0]))\nseen = []\ndef visit(m):\n    seen.append(str(type(m)))\nprint(net.apply(visit) is net, seen)\nd = net[0].bias.data\nd[0] = 10.0\nnet[0].weight.data *= 0\nprint(net[0].bias, net(torch.ones(1, 2)))\n"
MODULES_BY_PYTORCH = 'Sequential(\n  (first): Linear(in_features=2, out_features=3, bias=True)\n  (act): ReLU()\n) True False <class \'torch.nn.parameter.Parameter\'> <class \'torch.nn.modules.linear.Linear\'>\nTrue ["<class \'torch.nn.modules.linear.Linear\'>", "<class \'torch.nn.modules.activation.ReLU\'>", "<class \'torch.nn.modules.container.Sequential\'>"]\nParameter containing:\ntensor([10.0000,  0.3597,  0.0983], requires_grad=True) tensor([[10.0000,  0.3597,  0.0983]], grad_fn=<ReluBackward0>)\n'


def test_nn_init_draws_pytorchs_numbers() -> None:
    run = cli("run", "-", stdin=INIT)
    assert run.exit_code == 0, run.stderr
    assert hashlib.sha256(run.stdout.encode()).hexdigest() == INIT_BY_PYTORCH


def test_add_module_apply_type_and_data_are_pytorchs() -> None:
    run = cli("run", "-", stdin=MODULES)
    assert (run.exit_code, run.stdout) == (0, MODULES_BY_PYTORCH), run.stderr


ERRORS = {
    "nn.init.xavier_uniform_(torch.zeros(3))":
        "ValueError: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
    "nn.init.kaiming_uniform_(torch.zeros(2, 2), mode='fan')":
        "ValueError: Mode fan not supported, please use one of ['fan_in', 'fan_out']",
    "nn.Sequential().add_module(3, nn.ReLU())": "TypeError: module name should be a string. Got int",
}


@pytest.mark.parametrize(("line", "error"), sorted(ERRORS.items()))
def test_pytorchs_errors(line: str, error: str) -> None:
    run = cli("run", "-", stdin=f"import torch\nfrom torch import nn\n{line}\n")
    assert run.exit_code == 1 and run.stderr.strip().splitlines()[-1] == error, run.stderr


def test_pytorch_prints_what_is_recorded() -> None:
    pytest.importorskip("torch")
    python = [sys.executable, "-"]
    init = subprocess.run(python, input=INIT, capture_output=True, text=True, timeout=120, check=True)
    assert hashlib.sha256(init.stdout.encode()).hexdigest() == INIT_BY_PYTORCH
    assert subprocess.run(python, input=MODULES, capture_output=True, text=True, timeout=120).stdout == MODULES_BY_PYTORCH
    for line, error in ERRORS.items():
        done = subprocess.run(python, input=f"import torch\nfrom torch import nn\n{line}\n", capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 1 and done.stderr.strip().splitlines()[-1] == error
