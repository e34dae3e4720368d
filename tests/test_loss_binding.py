"""The losses bound as torch.nn.functional's Python signatures bind them, in the formula language (issue #21).

Every F.*loss takes the legacy size_average and reduce by position and by keyword, and PyTorch's rule
(torch.nn._reduction.legacy_get_string: None is True; reduce False makes 'none', else size_average False 'sum',
else 'mean') overrides `reduction`: F.mse_loss(a, b, 'sum') binds 'sum' to size_average, a true value, so it is
the mean. Each legacy form here is held to the same loss with the reduction the rule names (tests/test_front_ends.py
holds those to PyTorch) and to PyTorch's warning; what PyTorch refuses is refused in its words, read from its
recorded output of tests/run_cases/loss_legacy_forms.py, which also holds `gradcli run` to PyTorch form by form.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from gradcli import grad
from gradcli.errors import GradcliError
from gradcli.lowering import legacy_reduction
from tests.helpers import cli

RECORDED = Path(__file__).parent / "reference" / "run" / "loss_legacy_forms.out"

AT = {"p": np.array([[0.2, 0.5, 0.7], [0.9, 0.4, 0.1]]), "q": np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.3]]),
      "x": np.array([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])}
S = "torch.tensor([[1., -1., 1.], [-1., 1., 1.]])"  # (targets of ±1, class indices: constants of the program)
T = "torch.tensor([2, 0])"
V = "torch.tensor([1., -1.])"
M = "torch.tensor([[2, 0, -1], [1, -1, 0]])"

# (a call with the legacy args, the same call with the reduction PyTorch's rule makes of them; where every legacy
# arg is None, PyTorch says nothing)
LEGACY = [
    ("F.mse_loss(p, q, 'sum')", "F.mse_loss(p, q)"),
    ("F.mse_loss(p, q, False)", "F.mse_loss(p, q, reduction='sum')"),
    ("F.mse_loss(p, q, 'sum', 0)", "F.mse_loss(p, q, reduction='none')"),
    ("F.mse_loss(p, q, size_average=False, reduction='none')", "F.mse_loss(p, q, reduction='sum')"),
    ("F.mse_loss(p, q, None, None, 'sum')", "F.mse_loss(p, q, reduction='sum')"),  # (None given: no warning)
    ("mse_loss(p, q, False)", "mse_loss(p, q, reduction='sum')"),  # (bare: the same signature)
    ("F.l1_loss(p, q, 'sum')", "F.l1_loss(p, q)"),
    ("F.l1_loss(p, q, True, False)", "F.l1_loss(p, q, reduction='none')"),
    ("F.smooth_l1_loss(p, q, 'sum', 2)", "F.smooth_l1_loss(p, q)"),  # (2 is reduce, not beta)
    ("F.smooth_l1_loss(p, q, False, True, 'none', 0.5)", "F.smooth_l1_loss(p, q, reduction='sum', beta=0.5)"),
    ("F.binary_cross_entropy(p, q, None, False)", "F.binary_cross_entropy(p, q, reduction='sum')"),
    ("F.binary_cross_entropy(p, q, reduce=False, reduction='sum')", "F.binary_cross_entropy(p, q, reduction='none')"),
    ("F.binary_cross_entropy_with_logits(x, q, None, False)", "F.binary_cross_entropy_with_logits(x, q, reduction='sum')"),
    ("F.binary_cross_entropy_with_logits(x, q, None, None, None, 'sum', abs(x) + 1)",
     "F.binary_cross_entropy_with_logits(x, q, reduction='sum', pos_weight=abs(x) + 1)"),  # (pos_weight is the 7th)
    ("F.binary_cross_entropy_with_logits(x, q, abs(p), False)",
     "F.binary_cross_entropy_with_logits(x, q, weight=abs(p), reduction='sum')"),
    ("F.kl_div(x, p, 'sum', True)", "F.kl_div(x, p)"),
    ("F.kl_div(x, p, reduce=False)", "F.kl_div(x, p, reduction='none')"),
    (f"F.margin_ranking_loss(p, q, {S}, 0.5, 'sum')", f"F.margin_ranking_loss(p, q, {S}, 0.5)"),
    (f"F.margin_ranking_loss(p, q, {S}, 0.5, False)", f"F.margin_ranking_loss(p, q, {S}, 0.5, reduction='sum')"),
    (f"F.hinge_embedding_loss(x, {S}, 0.5, 'sum')", f"F.hinge_embedding_loss(x, {S}, 0.5)"),
    (f"F.hinge_embedding_loss(x, {S}, 1.0, None, False)", f"F.hinge_embedding_loss(x, {S}, reduction='none')"),
    (f"F.soft_margin_loss(x, {S}, 'sum')", f"F.soft_margin_loss(x, {S})"),
    (f"F.soft_margin_loss(x, {S}, False)", f"F.soft_margin_loss(x, {S}, reduction='sum')"),
    ("F.poisson_nll_loss(abs(x) + 0.5, p, False, True, 0.5)", "F.poisson_nll_loss(abs(x) + 0.5, p, False, True)"),
    ("F.poisson_nll_loss(x, p, True, True, None, 0.5, False)", "F.poisson_nll_loss(x, p, full=True, eps=0.5, reduction='none')"),
    ("F.poisson_nll_loss(x, p, True, False, False)", "F.poisson_nll_loss(x, p, reduction='sum')"),
    (f"F.cross_entropy(x, {T}, None, False)", f"F.cross_entropy(x, {T}, reduction='sum')"),
    (f"F.cross_entropy(x, {T}, None, None, -100, False)", f"F.cross_entropy(x, {T}, reduction='none')"),
    (f"F.cross_entropy(x, {T}, None, None, 0, None, 'sum', 0.1)",
     f"F.cross_entropy(x, {T}, ignore_index=0, reduction='sum', label_smoothing=0.1)"),
    (f"F.cross_entropy(x, target={T}, reduce=False)", f"F.cross_entropy(x, {T}, reduction='none')"),
    (f"F.nll_loss(x, {T}, None, False)", f"F.nll_loss(x, {T}, reduction='sum')"),
    (f"F.nll_loss(x, weight=abs(p[0]) + 1, target={T}, size_average=False)",  # (the target and weight by keyword)
     f"F.nll_loss(x, {T}, abs(p[0]) + 1, reduction='sum')"),
    (f"F.nll_loss(x, {T}, None, True, -100, False)", f"F.nll_loss(x, {T}, reduction='none')"),
    ("F.multilabel_soft_margin_loss(x, q, None, False)", "F.multilabel_soft_margin_loss(x, q, reduction='sum')"),
    ("F.multilabel_soft_margin_loss(x, q, abs(p[0]), None, False)",
     "F.multilabel_soft_margin_loss(x, q, weight=abs(p[0]), reduction='none')"),
    (f"F.multi_margin_loss(x, {T}, 1, 1.0, None, False)", f"F.multi_margin_loss(x, {T}, reduction='sum')"),
    (f"F.multilabel_margin_loss(x, {M}, 'sum', False)", f"F.multilabel_margin_loss(x, {M}, reduction='none')"),
    (f"F.cosine_embedding_loss(p, q, {V}, 0.5, 'sum')", f"F.cosine_embedding_loss(p, q, {V}, 0.5)"),
    (f"F.cosine_embedding_loss(p, q, {V}, 0.0, None, False)", f"F.cosine_embedding_loss(p, q, {V}, reduction='none')"),
    ("F.triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, 'sum')", "F.triplet_margin_loss(p, q, x)"),
    ("F.triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, True, False)", "F.triplet_margin_loss(p, q, x, swap=True, reduction='sum')"),
]


SILENT = {"F.mse_loss(p, q, None, None, 'sum')",  # (every legacy arg None)
          "F.binary_cross_entropy_with_logits(x, q, None, None, None, 'sum', abs(x) + 1)",
          f"F.cross_entropy(x, {T}, None, None, 0, None, 'sum', 0.1)"}


def _grad(program: str) -> tuple[object, list[str], dict[str, np.ndarray]]:
    at = {name: value for name, value in AT.items() if re.search(rf"\b{name}\b", program)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = grad(f"sum({program})", at=at)
    return result.value, [str(w.message) for w in caught if issubclass(w.category, UserWarning)], result.grad


@pytest.mark.parametrize("legacy, meant", LEGACY)
def test_the_legacy_args_make_the_reduction_pytorchs_rule_makes(legacy, meant):
    value, said, gradient = _grad(legacy)
    expected_value, _, expected_gradient = _grad(meant)
    assert np.allclose(value, expected_value, rtol=1e-13, atol=0)
    for name, expected in expected_gradient.items():
        assert np.allclose(gradient[name], expected, rtol=1e-12, atol=1e-15), name
    if legacy in SILENT:
        assert not any("size_average" in words for words in said)
        return
    reduction = re.search(r"reduction='(\w+)'", meant)
    words = ("size_average and reduce args will be deprecated, please use "
             f"reduction='{reduction.group(1) if reduction else 'mean'}' instead.")
    assert said == [words] * len(said) and said, said


# torch.NAME of a loss is ATen's function: its own positional order (torch.binary_cross_entropy_with_logits's pos_weight
# is its 4th), no legacy args, and no reduction unless given (an int there): F.kl_div(a, b) is the mean, torch.kl_div
# the losses themselves (held to PyTorch under run by the same run case)
ATEN = [
    ("torch.kl_div(x, p)", "F.kl_div(x, p, reduction='none')"),
    ("torch.kl_div(x, x, log_target=True)", "F.kl_div(x, x, reduction='none', log_target=True)"),
    (f"torch.margin_ranking_loss(p, q, {S}, 0.5)", f"F.margin_ranking_loss(p, q, {S}, 0.5, reduction='none')"),
    (f"torch.hinge_embedding_loss(x, {S}, 0.5)", f"F.hinge_embedding_loss(x, {S}, 0.5, reduction='none')"),
    (f"torch.cosine_embedding_loss(p, q, {V}, 0.5)", f"F.cosine_embedding_loss(p, q, {V}, 0.5, reduction='none')"),
    ("torch.triplet_margin_loss(p, q, x, 1.0, 1.0, 1e-6, True)",
     "F.triplet_margin_loss(p, q, x, 1.0, 1.0, 1e-6, True, reduction='none')"),
    ("torch.binary_cross_entropy_with_logits(x, q, abs(p), abs(x) + 1)",
     "F.binary_cross_entropy_with_logits(x, q, abs(p), pos_weight=abs(x) + 1, reduction='none')"),
    ("torch.binary_cross_entropy_with_logits(x, q)", "F.binary_cross_entropy_with_logits(x, q, reduction='none')"),
]


@pytest.mark.parametrize("spelled, meant", ATEN)
def test_a_loss_spelled_torch_binds_as_atens_function(spelled, meant):
    value, said, gradient = _grad(spelled)
    expected_value, _, expected_gradient = _grad(meant)
    assert np.allclose(value, expected_value, rtol=1e-13, atol=0)
    for name, expected in expected_gradient.items():
        assert np.allclose(gradient[name], expected, rtol=1e-12, atol=1e-15), name
    assert not said


@pytest.mark.parametrize("size_average, reduce, reduction", [
    (None, None, "mean"), (True, None, "mean"), (None, True, "mean"), (False, None, "sum"), (False, True, "sum"),
    (None, False, "none"), (True, False, "none"), (False, False, "none"), ("sum", 0, "none"), ("none", None, "mean")])
def test_legacy_reduction_is_pytorchs_rule(size_average, reduce, reduction):
    # (torch/nn/_reduction.py: `if size_average and reduce: 'mean' elif reduce: 'sum' else: 'none'`, None as True)
    assert legacy_reduction(size_average, reduce) == reduction


def _recorded_refusals() -> dict[str, str]:
    """PyTorch's words for each form of the run case that it refused: label -> 'TypeError words'."""
    refusals = {}
    for line in RECORDED.read_text().splitlines():
        found = re.match(r"([\w.]+\(.*\)) ((?:Type|Attribute|Value|Runtime)Error) (.*)$", line)
        if found:
            refusals[found.group(1)] = f"{found.group(2)} {found.group(3)}"
    return refusals


@pytest.mark.parametrize("label", [
    "mse_loss(p, q, 1, 2, 3, None, 5)", "mse_loss(p)", "mse_loss(p, q, bogus=1)", "mse_loss(p, q, input=p)",
    "mse_loss(p, q, weight='sum')", "smooth_l1_loss(p, q, beta='x')", "huber_loss(p, q, 'sum', 0.5, None, 1)",
    "huber_loss(p, q, size_average=False)", "binary_cross_entropy(p, q, 'sum')", "binary_cross_entropy(p, q, 2.0)",
    "binary_cross_entropy_with_logits(x, q, 'sum')",
    "binary_cross_entropy_with_logits(x, q, None, None, None, 'mean', None, 1)", "margin_ranking_loss(p)",
    "poisson_nll_loss(x, p, True, False, 2, 'none')", "gaussian_nll_loss(x, p, q + 1, False, 1e-6, 'sum', 1)",
    "gaussian_nll_loss(x, p, q + 1, size_average=False)", "cross_entropy(x)", "cross_entropy(x, t, None, 1, 'none')",
    "cross_entropy(x, t, ignore_index=True)", "cross_entropy(x, t, label_smoothing='a')", "nll_loss(x, t, None, None, 0.5)",
    "nll_loss(x, t, ignore_index=None)", "multilabel_soft_margin_loss(x, q, bogus=1)", "multilabel_soft_margin_loss(x)",
    "triplet_margin_loss(p, q, x, 1.0, 2, 1e-6, False, True, False, 'sum', 9)",
    "torch.poisson_nll_loss(x, p, True, False)",
])
def test_a_form_pytorch_refuses_is_refused_in_its_words(label):
    kind, words = _recorded_refusals()[label].split(" ", 1)
    with pytest.raises(GradcliError) as refused:
        _grad(("" if label.startswith("torch.") else "F.") + label.replace("(x, t,", f"(x, {T},"))
    assert words in str(refused.value), kind


LOOP = """\
import torch
import torch.nn as nn
import torch.nn.functional as F
a = torch.tensor([0.2, 0.5, 0.7], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.0, 1.0, 1.0], dtype=torch.float64)
for step in range(3):
    loss = F.mse_loss(a, b, 'sum')
print(loss)
print(F.mse_loss(a, b, False))
criterion = nn.L1Loss(reduce=False)
print(criterion.reduction)
"""


def test_under_run_the_legacy_args_warn_on_stderr_as_pytorch_does(tmp_path):
    # PyTorch's UserWarning, in Python's form (file:line: UserWarning: words, then the line) at the file's line, once
    # in a loop (Python's filter keeps one per place that warns), after what was printed before it
    program = tmp_path / "legacy.py"
    program.write_text(LOOP)
    run = cli("run", str(program))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "none"  # (nn.L1Loss(reduce=False) keeps reduction='none')
    said = [line for line in run.stderr.splitlines() if "UserWarning" in line]
    words = "UserWarning: size_average and reduce args will be deprecated, please use reduction='{}' instead."
    assert said == [f"{program}:7: {words.format('mean')}", f"{program}:9: {words.format('sum')}",
                    f"{program}:10: {words.format('none')}"]
