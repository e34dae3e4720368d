"""gradcli run's classes, torch.nn modules and torch.optim optimizers, held to what PyTorch 2.13 prints
(the expected lines were recorded with PyTorch). Tutorials as written are in tests/run_cases/nn_*.py."""

from __future__ import annotations

import pytest

from gradcli import mkl
from tests.helpers import beside_pytorch, cli


def run_text(tmp_path, text: str):
    program = tmp_path / "f.py"
    program.write_text(text)
    return cli("run", str(program))


def test_a_class_with_init_methods_class_attributes_and_super(tmp_path):
    run = run_text(tmp_path, "class A:\n    k = 10\n    def __init__(self, v):\n        self.v = v\n"
                             "    def total(self):\n        return self.v + self.k\n"
                             "class B(A):\n    def __init__(self, v):\n        super().__init__(v * 2)\n"
                             "b = B(1)\nprint(b.total(), isinstance(b, A), isinstance(b, (int, B)), B.k)\n")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "12 True True 10\n"


def test_linear_draws_its_weights_as_pytorch_does(tmp_path):
    run = run_text(tmp_path, "import torch\nfrom torch import nn\ntorch.manual_seed(0)\nm = nn.Linear(3, 2)\n"
                             "print(m)\nprint(m.bias)\n")
    assert run.stdout == ("Linear(in_features=3, out_features=2, bias=True)\nParameter containing:\n"
                          "tensor([-0.0114,  0.4578], requires_grad=True)\n")


def test_a_module_subclass_prints_its_children_and_its_state_dict(tmp_path):
    run = run_text(tmp_path, "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n"
                             "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                             "        self.body = nn.Sequential(nn.Linear(1, 1), nn.ReLU())\n"
                             "    def forward(self, x):\n        return self.body(x)\n"
                             "net = Net()\nprint(net)\nprint(list(net.state_dict().keys()))\n")
    assert run.stdout == ("Net(\n  (body): Sequential(\n    (0): Linear(in_features=1, out_features=1, bias=True)\n"
                          "    (1): ReLU()\n  )\n)\n['body.0.weight', 'body.0.bias']\n")


@pytest.mark.parametrize("optimizer", ["torch.optim.SGD([w], lr=0.05, momentum=0.9, weight_decay=0.01, nesterov=True)",
                                       "torch.optim.SGD([w], lr=0.05, momentum=0.5, dampening=0.1)",
                                       "torch.optim.Adam([w], lr=0.01, weight_decay=0.1)"])
def test_optimizers_step_with_pytorchs_float32_arithmetic(tmp_path, optimizer):
    expected = {"SGD([w], lr=0.05, momentum=0.9": "[0.5570923089981079, 0.11614314466714859, -1.187658667564392]",
                "SGD([w], lr=0.05, momentum=0.5": "[0.5221717953681946, -0.1243593618273735, -0.905203104019165]",
                "Adam": "[0.5099186897277832, -0.2273658961057663, -0.7692834138870239]"}
    run = run_text(tmp_path, f"import torch\nw = torch.tensor([0.5, -0.25, -0.75], requires_grad=True)\n"
                             f"g = torch.tensor([0.3, 1.7, -2.1])\nopt = {optimizer}\nfor i in range(7):\n"
                             f"    w.grad = g * (i % 3 - 1.0)\n    opt.step()\nprint(w.tolist())\n")
    key = next(k for k in expected if k in optimizer)
    assert run.stdout.strip() == expected[key]


OPTIMIZER_STEPS = """\
import torch
torch.manual_seed(0)
configs = [("Adam", {}), ("Adam", {"betas": (0.3, 0.9)}), ("Adam", {"betas": (0.6, 0.95), "weight_decay": 0.1}),
           ("Adam", {"maximize": True, "lr": 0.01}), ("AdamW", {}), ("AdamW", {"weight_decay": 0.5, "betas": (0.95, 0.99)}),
           ("RMSprop", {}), ("RMSprop", {"momentum": 0.9, "weight_decay": 0.01}), ("Adagrad", {"lr_decay": 0.01}),
           ("SGD", {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01})]
for name, kwargs in configs:
    ps = [torch.nn.Parameter(torch.randn(n)) for n in (10, 100, 1000, 17, 40000)]
    opt = getattr(torch.optim, name)(ps, **kwargs)
    for step in range(20):
        opt.zero_grad()
        loss = sum(((p * p) * (k + 1)).sum() + p.sum() for k, p in enumerate(ps))
        loss.backward()
        opt.step()
    print(name, kwargs, [p[:12].tolist() for p in ps[:4]], ps[4][::997].tolist())
"""


def test_optimizer_steps_are_pytorchs_bits_over_sizes_and_settings():
    # Adam's mul_(beta2).addcmul_(g, g, 1 - beta2) is one fused multiply-add per element in PyTorch's kernel, and its
    # (sqrt / root).add_(eps) a division, not a product by 1 / root: with the default beta1 of 0.9 too. Their sqrt is
    # torch.sqrt's kernel, MKL's VML, whose bits are the CPU's (not correctly rounded on MKL's AVX2 path, AMD's): so
    # gradcli runs in a process of its own with the mkl extra, beside PyTorch on the same machine.
    pytest.importorskip("torch")
    if mkl._path() is None:
        pytest.skip("PyTorch's sqrt is MKL's: pip install 'gradcli[mkl]' to compare its bits")
    by_pytorch, run = beside_pytorch(OPTIMIZER_STEPS, timeout=300)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == by_pytorch


def test_zero_grad_sets_grads_to_none(tmp_path):
    run = run_text(tmp_path, "import torch\nm = torch.nn.Linear(2, 1)\nm(torch.ones(2)).sum().backward()\n"
                             "print(m.weight.grad is None)\nm.zero_grad()\nprint(m.weight.grad)\n")
    assert run.stdout == "False\nNone\n"


@pytest.mark.parametrize(("text", "words"), [
    ("class A:\n    def __eq__(self, other):\n        pass\n", "'__eq__' is not supported"),
    ("class A(metaclass=type):\n    pass\n", "metaclass"),
    ("import torch\nclass A(torch.optim.SGD):\n    pass\n", "subclass"),
])
def test_what_classes_leave_out_is_exit_2(tmp_path, text, words):
    run = run_text(tmp_path, text)
    assert run.exit_code == 2
    assert words in run.stderr


@pytest.mark.parametrize(("text", "words"), [
    ("import torch\nc = torch.nn.Conv2d(10**5, 10**5, 100)\n", "100,000,000,000,000 elements (the limit is"),
    ("import torch\nc = torch.nn.Conv2d(1, 1, 3, padding_mode='reflect')\n",
     "nn.Conv2d with padding_mode='reflect' is not supported"),
])
def test_a_convolution_module_gradcli_cannot_make_is_exit_2_before_its_weights(tmp_path, text, words):
    run = run_text(tmp_path, text)
    assert run.exit_code == 2
    assert words in run.stderr and "line 2" in run.stderr


_LAZY = "import torch\nfrom torch import nn\nnet = nn.Sequential(nn.LazyLinear(2))\n"


@pytest.mark.parametrize(("line", "words"), [
    ("net[0].weight + 1", "an uninitialized parameter of a lazy module (nn.LazyLinear) is used here before"),
    ("torch.optim.SGD(net.parameters(), lr=0.1)", "an uninitialized parameter of a lazy module"),
    ("net.zero_grad()", "'.zero_grad' of a module that holds a lazy module (nn.LazyLinear) before its first call"),
    ("net.requires_grad_(False)", "'.requires_grad_' of a module that holds a lazy module"),
    ("net.load_state_dict(nn.Sequential(nn.Linear(3, 2)).state_dict())", "'.load_state_dict' of a module that holds"),
    ("nn.init.zeros_(net[0].weight)", "of a UninitializedParameter is not supported"),
    ("nn.Linear(2, 2).to(torch.ones(1))", "'.to' of a module with a tensor is not supported"),
    ("nn.Linear(2, 2).half()", "'.half' of a module is not supported"),
    ("net.to('cpu', dtype=torch.float64)", "'.to' of a module that holds a lazy module (nn.LazyLinear) before its "
                                           "first call with a dtype"),
])
def test_a_lazy_module_before_its_first_call_and_a_module_cast_are_exit_2(tmp_path, line, words):
    # PyTorch raises a ValueError naming the C++ method an uninitialized parameter reached (the optimizer and
    # zero_grad take them); a module's .to(dtype) of float16 or of a tensor's dtype, and of a lazy module's
    # parameters, are gradcli's gaps (.double(), .float(), .to(torch.float64) convert: run case
    # module_dtype_conversion)
    run = run_text(tmp_path, _LAZY + line + "\n")
    assert (run.exit_code, run.stdout) == (2, ""), run.stderr
    assert words in run.stderr and "line 4" in run.stderr and "Traceback" not in run.stderr
