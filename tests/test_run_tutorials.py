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
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gradcli import mkl
from tests.helpers import FULL_TESTS, Run, cli
from tests.reference.make_mkl_reference import RECORDED_ON, local_code_path

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tests" / "run_cases" / "tutorials").glob("*.py"))
EXPECTED = ROOT / "tests" / "reference" / "run" / "tutorials"
ADDRESS = re.compile(r"0x[0-9a-f]+|(?<=id\(Z\): )[0-9]+")  # (d2l_ndarray prints id(Z), an address too)

REFUSED: dict[str, str] = {  # the file: the words of gradcli's exit-2 error that name the construct
    "pt_blitz_tensor_2018": "the values of torch.empty(...) are read here before they are written",
    "pt_docs_graph_saved_tensors_hooks": "'torch.autograd.graph.saved_tensors_hooks' is not supported",
    "pt_docs_function_mark_dirty": "ctx.mark_dirty is not supported",
}
# Files that print what PyTorch printed but take long on a loaded machine: run with --timeout 600.
# (NumPy's float64 products go through OpenBLAS, whose threads split them: the recorded digits are
# those of NumPy on a 2-core machine, as gradcli's are on the same machine.)
SLOW = {"jcjohnson_two_layer_net_numpy": "500 steps of float64 products of 64x1000 by 1000x100 matrices",
        "d2l_gan": "20 epochs of 125 Adam steps of two small networks",
        "jcjohnson_dynamic_net": "500 steps of a net of a random depth (20 s alone)",
        "morvan_503_dropout": "500 Adam steps of two 1-300-300-1 networks (OpenBLAS's threads on a loaded machine)",
        "morvan_504_batch_normalization": "12 epochs of two 8-layer networks over 2,000 points",
        "pt_dynamic_net": "30,000 steps of a net of a random depth (a minute alone)",
        "d2l_underfit_overfit": "2,300 SGD epochs of two small nn.Linear fits (minutes alone)",
        "pt_custom_function_conv_bn": "gradcheck's slow mode of a custom conv2d over 1,470 inputs and 1,250 outputs"}
# Files that print what PyTorch printed where PyTorch's own MKL kernels run (`pip install 'gradcli[mkl]'`, part of
# the test extra; gradcli/mkl.py): their float32 products are MKL's sgemm in PyTorch's call form, their sin and cos
# MKL's VML. Without MKL their losses differ in the last digits: skipped, with that said.
NEEDS_MKL = {
    "jcjohnson_dynamic_net", "jcjohnson_two_layer_net_autograd", "jcjohnson_two_layer_net_custom_function",
    "jcjohnson_two_layer_net_module", "jcjohnson_two_layer_net_nn", "jcjohnson_two_layer_net_tensor",
    "pt_polynomial_module", "pt_polynomial_tensor", "pt_polynomial_custom_function", "d2l_gd",
    "d2l_linear_regression_scratch", "yunjey_pytorch_basics",
    # nn.Linear(8, 128)'s float32 product: NumPy's (OpenBLAS's) bits match MKL's on Intel's AVX-512 kernels, not on
    # AMD's, where the centered layer's mean prints 1.8626e-09 for PyTorch's 0.
    "d2l_custom_layer",
    "pt_polynomial_nn", "pt_polynomial_optim", "pt_dynamic_net", "pt_examples_regression",
    "jcjohnson_two_layer_net_optim",
    "d2l_mlp_activations",
    "d2l_nadaraya_watson",
    "udacity_simple_rnn",
    "hunkim_12_4_hello_rnn_emb", "pt_nlp_word_embeddings",
    # torch.norm's float32 kernel in its order (8 lanes, left fold, the rest), then nn.Linear's products: MKL's
    "d2l_weight_decay",
    # nn.Linear(4, 1) and nn.Linear(20, 1) on 10-row batches, 2,300 epochs: MKL's sgemm (PyTorch's own bits differ
    # between MKL's AVX2 and AVX-512 paths here; gradcli's are PyTorch's on the path MKL takes)
    "d2l_underfit_overfit",
}
KNOWN_TO_DIFFER: dict[str, tuple[bool, str]] = {  # the file: what goes wrong (run=False: minutes of training that end differing)
}


# PyTorch's version of MKL installed, taking the code path the outputs were recorded on (another, AVX2's, may sum
# otherwise, in PyTorch too). Its files run in a process of their own: a test process may have imported torch,
# whose own MKL would take over this one's symbols (gradcli.mkl.library).
MKL = mkl._path() is not None and local_code_path() == RECORDED_ON


# The README's test command runs the files that take a second or two; these, several seconds each (four fifths of
# the time the 112 files take together), run where GRADCLI_FULL_TESTS=1, as in CI.
LONG = {*SLOW, "jcjohnson_two_layer_net_optim", "d2l_bert", "d2l_optimizers_from_scratch", "d2l_resnet",
        "morvan_306_optimizer", "d2l_weight_decay",
        "pt_visualizing_gradients",  # (20 steps of 784-128 float32 products in PyTorch's order: 3 s on a loaded machine)
        "rasbt_mlbook_ch12_part2",  # (two 200-epoch loops of 10 batches: 3 s)
        "pt_docs_nn_transformer_encoder", "pt_docs_nn_transformer_encoder_layer",  # (d_model=512 on 320 tokens: 3-7 s)
        "pt_docs_nn_transformer_decoder", "pt_docs_nn_transformer_decoder_layer",
        "karpathy_nanogpt_model",  # (ten AdamW steps of a 2-layer GPT: 2 s)
        "rasbt_llms_ch03_attention"}  # (its attention scores by Python loops over tensors, then the modules: 3-7 s loaded)


def _marks(stem: str) -> list[pytest.MarkDecorator]:
    if stem in LONG and not FULL_TESTS:
        return [pytest.mark.skip(reason="a long file: GRADCLI_FULL_TESTS=1 runs it (CI does)")]
    if stem in NEEDS_MKL and not MKL:
        return [pytest.mark.skip(reason="its float32 kernels are MKL's: pip install 'gradcli[mkl]' (MKL 2024.2, x86-64 "
                                        "Linux or Windows) to run it, on a CPU where MKL takes its AVX-512 code path")]
    if stem in KNOWN_TO_DIFFER:
        run, reason = KNOWN_TO_DIFFER[stem]
        return [pytest.mark.xfail(strict=True, run=run, reason=reason)]
    return []


CASES = [pytest.param(path, id=path.stem, marks=_marks(path.stem)) for path in TUTORIALS]


def _in_a_process(*args: str) -> Run:
    # MKL on 2 threads, as PyTorch ran on the 2-core machine that recorded the files (it splits long sums among them)
    done = subprocess.run([sys.executable, "-m", "gradcli", *args], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "MKL_NUM_THREADS": "2"})
    return Run(done.returncode, done.stdout, done.stderr)


def _imports_torch(path: Path) -> bool:
    return re.search(r"^\s*(import torch|from torch)", path.read_text(), re.MULTILINE) is not None


def _python_prints(path: Path) -> str:
    # A file of NumPy and plain Python: its reference is Python itself, on this machine. NumPy's float64 products are
    # OpenBLAS's, whose kernels (and so the last digits of jcjohnson_two_layer_net_numpy's losses) are the CPU's:
    # the recorded .out holds what the recording machine (Intel, AVX-512) printed.
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=900, cwd=path.parent)
    return done.stdout


def masked(text: str) -> str:
    return ADDRESS.sub("0xADDR", text)


def test_the_tables_name_the_files_there_are():
    stems = {path.stem for path in TUTORIALS}
    assert len(stems) >= 30
    assert set(REFUSED) <= stems and set(KNOWN_TO_DIFFER) <= stems and NEEDS_MKL <= stems and LONG <= stems
    assert not set(REFUSED) & set(KNOWN_TO_DIFFER) and not NEEDS_MKL & (set(REFUSED) | set(KNOWN_TO_DIFFER))
    for stem in stems:
        assert (EXPECTED / f"{stem}.out").exists(), f"run tests/reference/make_run_expected.py for {stem}.py"


@pytest.mark.parametrize("path", CASES)
def test_a_tutorial_prints_what_pytorch_printed_or_is_refused_naming_the_construct(path):
    expected = json.loads((EXPECTED / f"{path.stem}.json").read_text())
    printed = masked((EXPECTED / f"{path.stem}.out").read_text() if _imports_torch(path) else _python_prints(path))
    args = ("run", *(("--timeout", "600") if path.stem in SLOW else ()), str(path))
    run = _in_a_process(*args) if path.stem in NEEDS_MKL else cli(*args)
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
    assert f"{passing - len(NEEDS_MKL)} without it" in readme  # (the mkl extra's share)
    assert f"{len(REFUSED)} {'is' if len(REFUSED) == 1 else 'are'} refused" in readme
