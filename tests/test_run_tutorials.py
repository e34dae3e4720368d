"""#23's yardstick: public tutorial files, as their authors wrote them, under `gradcli run`.

Each file in tests/run_cases/tutorials/ says in its header where it comes from and what was
changed (a seeding line where the file draws unseeded random numbers, plotting and dataset lines
cut). PyTorch 2.13's stdout, exit code and last error line for each were recorded by
tests/reference/make_run_expected.py into tests/reference/run/tutorials/.

A file either prints what PyTorch printed (and raises what it raised), or is REFUSED: exit 2,
gradcli's one-line error naming the construct it does not run yet, after printing only what
PyTorch printed before it. KNOWN_TO_DIFFER are the files where neither holds yet; the README's
figure is counted from these tables.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tests" / "run_cases" / "tutorials").glob("*.py"))
EXPECTED = ROOT / "tests" / "reference" / "run" / "tutorials"
ADDRESS = re.compile(r"0x[0-9a-f]+|(?<=id\(Z\): )[0-9]+")  # (d2l_ndarray prints id(Z), an address too)

REFUSED = {  # the file: the words of gradcli's exit-2 error that name the construct
    "d2l_custom_layer": "'torch.FloatTensor' is not supported",
    "d2l_ndarray": "assigning into a tensor's elements is not supported",
    "d2l_numerical_stability": "'torch.normal' is not supported",
    "jcjohnson_dynamic_net": "import of 'random' is not supported",
    "jcjohnson_two_layer_net_autograd": "'torch.device' is not supported",
    "jcjohnson_two_layer_net_custom_function": "'torch.autograd.Function' is not supported",
    "jcjohnson_two_layer_net_nn": "'torch.device' is not supported",
    "jcjohnson_two_layer_net_numpy": "'numpy.random' is not supported",
    "jcjohnson_two_layer_net_tensor": "'torch.device' is not supported",
    "micrograd_engine_vs_torch": "the special method '__add__' is not supported",
    "pt_basics_buildmodel": "import from 'torch.utils.data' is not supported",
    "pt_basics_tensorqs": "'.device' of a tensor is not supported",
    "pt_blitz_neural_networks": "'torch.nn.Conv2d' is not supported",
    "pt_dynamic_net": "import of 'random' is not supported",
    "pt_nlp_deep_learning": "'torch.autograd.Variable' is not supported",
    "pt_nlp_pytorch_intro": "'torch.Tensor' is not supported",
    "pt_polynomial_autograd": "'torch.accelerator' is not supported",
    "pt_polynomial_custom_function": "'torch.autograd.Function' is not supported",
    "pt_polynomial_numpy": "'numpy.random' is not supported",
    "pt_polynomial_tensor": "'torch.device' is not supported",
}
KNOWN_TO_DIFFER = {  # the file: what goes wrong (run=False: minutes of training that end differing)
    "d2l_model_construction": (True, "a module's _modules (an nn.Module's dict of children) is an invented AttributeError"),
    "d2l_parameters": (True, "type(nn.Parameter) prints torch.Tensor; Sequential.add_module is an invented "
                             "AttributeError"),
    "jcjohnson_two_layer_net_module": (False, "500 SGD steps of 64x1000 @ 1000x100 float32 products: BLAS's sums "
                                              "in another order than PyTorch's (the losses' last digits differ)"),
    "jcjohnson_two_layer_net_optim": (False, "500 Adam steps of 64x1000 @ 1000x100 float32 products: BLAS's sums "
                                             "in another order than PyTorch's"),
    "pt_polynomial_module": (True, "float32 sums of 2,000 elements in NumPy's order, not PyTorch's cascade: the "
                                   "losses' last digits differ"),
    "pt_polynomial_nn": (True, "float32 sums of 2,000 elements (the loss; the weight's gradient through the "
                               "product) in another order than PyTorch's"),
    "pt_polynomial_optim": (True, "float32 sums of 2,000 elements in another order than PyTorch's"),
}


def _marks(stem: str) -> list[pytest.MarkDecorator]:
    if stem in KNOWN_TO_DIFFER:
        run, reason = KNOWN_TO_DIFFER[stem]
        return [pytest.mark.xfail(strict=True, run=run, reason=reason)]
    return []


CASES = [pytest.param(path, id=path.stem, marks=_marks(path.stem)) for path in TUTORIALS]


def masked(text: str) -> str:
    return ADDRESS.sub("0xADDR", text)


def test_the_tables_name_the_files_there_are():
    stems = {path.stem for path in TUTORIALS}
    assert len(stems) >= 30
    assert set(REFUSED) <= stems and set(KNOWN_TO_DIFFER) <= stems
    assert not set(REFUSED) & set(KNOWN_TO_DIFFER)
    for stem in stems:
        assert (EXPECTED / f"{stem}.out").exists(), f"run tests/reference/make_run_expected.py for {stem}.py"


@pytest.mark.parametrize("path", CASES)
def test_a_tutorial_prints_what_pytorch_printed_or_is_refused_naming_the_construct(path):
    expected = json.loads((EXPECTED / f"{path.stem}.json").read_text())
    printed = masked((EXPECTED / f"{path.stem}.out").read_text())
    run = cli("run", str(path))
    assert "Traceback" not in run.stderr
    if path.stem in REFUSED:
        assert run.exit_code == 2, run.stderr
        assert run.stderr.startswith("gradcli: error: ") and REFUSED[path.stem] in run.stderr
        assert printed.startswith(masked(run.stdout))
        return
    assert masked(run.stdout) == printed
    assert run.exit_code == expected["exit"], run.stderr
    if expected["error"]:
        assert run.stderr.strip().splitlines()[-1] == expected["error"]


def test_the_readme_states_the_share_these_tables_give():
    total = len(TUTORIALS)
    passing = total - len(REFUSED) - len(KNOWN_TO_DIFFER)
    readme = (ROOT / "README.md").read_text()
    assert f"**{passing} of {total}** tutorial files print what PyTorch prints" in readme
    assert f"{len(REFUSED)} are refused" in readme
