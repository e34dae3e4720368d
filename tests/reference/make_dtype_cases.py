"""Record what PyTorch prints for the snippets of tests/test_dtype_cases.py (run with torch installed).

    python tests/reference/make_dtype_cases.py

Each snippet (SNIPPETS below) runs under PyTorch; its stdout and the last line of the exception it ends with
(None where it ends cleanly) are written to tests/reference/dtype_cases.json, which the test holds `gradcli run`
to without torch. The cases are what fuzz/special_points.py found under `run` (issue #21): the dtype a call
computes in (PyTorch's type promotion, the ops that keep their first arg's dtype), the kernels that refuse
integers or bools, the ops whose tensors must share one dtype, broadcasting's words and torch.linalg.LinAlgError.
"""

from __future__ import annotations

import contextlib
import io
import json
import traceback
import warnings
from pathlib import Path

import torch

OUT = Path(__file__).resolve().parent / "dtype_cases.json"
HEADER = "import torch\nimport torch.nn.functional as F\n"


def _each(*calls: str, setup: str = "") -> str:
    """A snippet that prints each call's dtype and values, or the error it raises (its class and message)."""
    lines = [setup] if setup else []
    for call in calls:
        lines += ["try:", f"    out = {call}", "    print(out.dtype, out.tolist())",
                  "except Exception as e:", "    print(type(e).__name__, e)"]
    return "\n".join(lines) + "\n"


INTS = "i = torch.tensor([[-2, 0, 3], [1, 5, -4]])\nb = torch.tensor([[True, False, True], [False, True, True]])\n"
FLOATS = ("f = torch.tensor([[0.5, -1.5, 2.0], [1.0, 0.25, -3.0]])\n"
          "d = torch.tensor([[1.0, 2.0, -0.5], [0.75, -2.0, 4.0]], dtype=torch.float64)\n")
SQUARE = "s = torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64)\n"

SNIPPETS = {
    # --- the dtype a call computes in -------------------------------------------------------------------------
    "clamp's bounds take part in the promotion":
        _each("torch.clamp(i, min=0.5)", "torch.clamp(i, min=-1)", "torch.clamp(i, max=2.5)", "i.clamp(-1, 2)",
              "torch.clamp_min(i, 0.5)", "torch.clamp_max(b, 0)", "torch.clamp(b, min=-1.0, max=2.0)",
              "torch.clamp(f, min=0)", setup=INTS + FLOATS),
    "an index keeps its dtype out of the promotion":
        _each("torch.gather(b, 1, torch.tensor([[1, 0], [2, 2]]))", "torch.index_select(b, 1, torch.tensor([2, 0]))",
              "torch.take(b, torch.tensor([0, 4]))", "torch.take_along_dim(b, torch.tensor([[0], [1]]), dim=1)",
              "F.embedding(torch.tensor([1, 0]), b)", "i[b]", "b[i > 0]", setup=INTS),
    "the ops that keep their first arg's dtype":
        _each("f.masked_fill(f > 0, torch.tensor(2.0, dtype=torch.float64))", "i.masked_fill(b, 2.5)",
              "i.expand_as(d)", "f.view_as(d)", "torch.fill(f, torch.tensor(3.0, dtype=torch.float64))",
              "torch.diagonal_scatter(torch.zeros(3, 3), torch.ones(3, dtype=torch.float64))",
              "torch.select_scatter(torch.zeros(2, 3), torch.ones(3, dtype=torch.float64), 0, 1)",
              "F.huber_loss(f, d)", "F.huber_loss(d, f)", "F.soft_margin_loss(f, d)",
              "torch.linalg.solve_triangular(torch.eye(2), s, upper=True)", setup=INTS + FLOATS + SQUARE),
    "integers through the activations and poolings that keep them":
        _each("F.relu6(i * 3)", "F.hardtanh(i)", "F.threshold(i, 0.5, -3.0)", "torch.nan_to_num(i)",
              "torch.nan_to_num(b)", "F.avg_pool1d(i.unsqueeze(0), 2)", "F.avg_pool2d(i.unsqueeze(0), 2, 1)",
              "F.max_pool2d(i.unsqueeze(0), 2, 1)", "F.max_pool1d(i, 2, return_indices=True)[0]",
              "F.pad(i, (1, 1), 'reflect')", "F.unfold(b.reshape(1, 1, 2, 3).float().bool(), 2)",
              setup=INTS),
    "PyTorch's promotion where nothing is special":
        _each("i + 2.5", "b + 1", "b * True", "f + torch.tensor(1.0, dtype=torch.float64)",
              "torch.tensor(2, dtype=torch.int32) + i", "f * d", "i / 2", "i // 2", "torch.where(b, i, 0.5)",
              "torch.where(b, f, d)", setup=INTS + FLOATS),
    # --- kernels that have no loop for integers or bools ------------------------------------------------------
    "elementwise kernels refuse integers or bools":
        _each(*[f"{call}({x})" for call in ("F.softplus", "F.elu", "F.selu", "F.celu", "F.silu", "F.mish", "F.gelu",
                                             "F.logsigmoid", "F.hardsigmoid", "F.hardswish", "F.leaky_relu",
                                             "torch.frac", "F.hardshrink", "F.softshrink")
                for x in ("i", "b")],
              setup=INTS),
    "rounding and abs refuse bools alone":
        _each(*[f"{call}({x})" for call in ("torch.abs", "torch.floor", "torch.ceil", "torch.round", "torch.trunc",
                                             "F.softsign") for x in ("i", "b")],
              "F.threshold(b, 0.5, 1.0)", setup=INTS),
    "reductions, poolings and layers refuse integers or bools":
        _each("F.glu(i[:, :2])", "F.softmin(i, 1)", "torch.median(b)", "torch.median(b, 0)", "torch.kthvalue(b.flatten(), 1)",
              "F.max_pool2d(b.unsqueeze(0), 2, 1)", "F.avg_pool1d(b, 2)", "F.avg_pool2d(b.unsqueeze(0), 2)",
              "F.max_pool1d(i, 2)", "F.adaptive_avg_pool1d(i, 2)", "F.adaptive_avg_pool2d(b.unsqueeze(0), 2)",
              "F.adaptive_max_pool2d(i.unsqueeze(0), 1)", "F.interpolate(i.unsqueeze(0), size=4)",
              "F.unfold(i.reshape(1, 1, 2, 3), 2)", "F.rms_norm(i, (3,))", "F.pad(b, (1, 1), 'reflect')",
              "F.batch_norm(b, torch.zeros(3), torch.ones(3), training=True)",
              "F.cross_entropy(i, torch.tensor([0, 2]))", "F.nll_loss(i, torch.tensor([0, 2]))",
              "F.multilabel_soft_margin_loss(i, torch.ones(2, 3))", setup=INTS),
    "a softmax's kernel is named by its dim":
        _each("torch.softmax(i, -1)", "torch.softmax(i, 0)", "torch.log_softmax(i, 1)", "F.softmax(b, 1)", "F.softmin(i, 1)",
              "F.softmin(i, 0)", "torch.masked.softmax(i, 1)", "torch.masked.softmax(i, 0)", "torch.masked.log_softmax(i, 1)",
              "torch.softmax(i, 1, dtype=torch.float64)", "F.cross_entropy(i.reshape(1, 2, 3), torch.tensor([[0, 1, 0]]))",
              "torch.softmax(i.reshape(1, 2, 3), 1)", setup=INTS),
    "linear algebra refuses integers and bools":
        _each("torch.linalg.cholesky(torch.eye(2, dtype=torch.long))", "torch.linalg.eigh(torch.eye(2).long())[0]",
              "torch.linalg.lu_factor(torch.eye(2).bool())[0]",
              "torch.linalg.solve_triangular(torch.eye(2).long(), torch.eye(2).long(), upper=True)",
              "torch.bmm(torch.ones(1, 2, 2).bool(), torch.ones(1, 2, 2).bool())",
              "torch.linalg.cross(torch.ones(3).bool(), torch.ones(3).bool())"),
    # --- tensors that must share one dtype ---------------------------------------------------------------------
    "products and solvers take one dtype":
        _each("torch.addmm(d, f, f.T)", "torch.addmm(f, d, f.T)", "torch.addmm(f, f, d.T)",
              "torch.addmv(torch.ones(2), d, torch.ones(3))", "torch.inner(f, d)", "torch.vdot(f[0], d[0])",
              "torch.linalg.vecdot(f, d)", "torch.tensordot(f, d.T, dims=1)", "torch.linalg.cross(f, d)",
              "torch.linalg.solve(s, torch.ones(2))", "torch.linalg.solve(s.float(), torch.ones(2, dtype=torch.float64))",
              "torch.cholesky_solve(torch.ones(2, 1), s)", "torch.linalg.multi_dot([f, d.T])",
              "torch.baddbmm(torch.ones(1, 2, 2), torch.ones(1, 2, 3), torch.ones(1, 3, 2, dtype=torch.float64))",
              setup=FLOATS + SQUARE),
    "writes into a tensor take its dtype":
        _each("torch.scatter(f, 1, torch.tensor([[0], [1]]), d[:, :1])", "torch.scatter_add(d, 1, torch.tensor([[0]]), f)",
              "torch.index_add(f, 0, torch.tensor([1]), d[:1])", "torch.index_copy(d, 0, torch.tensor([0]), f[:1])",
              "torch.put(f, torch.tensor([1]), d[0, :1])", "torch.masked_scatter(f, f > 0, d)",
              "F.conv1d(f.unsqueeze(0), d.unsqueeze(0))", "F.conv_transpose1d(d.unsqueeze(0), f.unsqueeze(1))",
              "torch.meshgrid(f[0], d[0], indexing='ij')[0]", "torch.cartesian_prod(f[0], d[0])",
              "F.nll_loss(d, torch.tensor([0, 1]), weight=torch.ones(3))", "torch.cdist(f, d)",
              setup=FLOATS),
    "bool tensors in a difference, integers in kl_div":
        _each("b - f[0]", "f[0] - b", "b - 1", "1 - b", "b - b", "F.l1_loss(b.float(), b)", "torch.dist(b[0], f[0])",
              "F.kl_div(f[0], b)", "F.kl_div(i.float(), f)",
              setup=INTS + FLOATS),
    "normalizations take their parameters in the input's dtype":
        _each("F.layer_norm(f, (3,), torch.ones(3, dtype=torch.float64))",
              "F.layer_norm(d, (3,), torch.ones(3), torch.zeros(3, dtype=torch.float64))",
              "F.layer_norm(d, (3,), torch.ones(3, dtype=torch.float64), torch.zeros(3))",
              "F.group_norm(d.reshape(1, 2, 3), 2, torch.ones(2), torch.zeros(2, dtype=torch.float64))",
              "F.group_norm(d.reshape(1, 2, 3), 2, torch.ones(2, dtype=torch.float64), torch.zeros(2))",
              "F.batch_norm(f, torch.zeros(3), torch.ones(3), torch.ones(3, dtype=torch.float64), training=True)",
              "F.batch_norm(d, torch.zeros(3), torch.ones(3, dtype=torch.float64), training=True)",
              "F.instance_norm(d.reshape(1, 2, 3), weight=torch.ones(2), bias=torch.zeros(2, dtype=torch.float64))",
              setup=FLOATS),
    "a gradient cannot flow into an integer result":
        _each("i.masked_fill(b, w)", "torch.fill(i, w)", "i.index_fill(1, torch.tensor([0]), w)",
              "torch.select_scatter(i.float(), w.expand(3), 0, 1)",
              setup=INTS + "w = torch.tensor(2.5, requires_grad=True)\n"),
    # --- broadcasting in PyTorch's words -------------------------------------------------------------------------
    "shapes that do not broadcast":
        _each("x + y", "x * y.unsqueeze(0)", "torch.ones(2, 3) * torch.ones(4, 1, 2)", "F.l1_loss(x, y)",
              "F.mse_loss(x, y)", "F.huber_loss(x, y)", "F.smooth_l1_loss(x, y)", "F.soft_margin_loss(x, y)",
              "F.kl_div(x, y)", "torch.dist(x, y)", "F.cosine_similarity(x, y, 0)", "F.pairwise_distance(x, y)",
              "torch.zeros(0) + x", "torch.maximum(x, y)",
              setup="x = torch.tensor([1.0, 2.0, 3.0])\ny = torch.tensor([0.5, 1.5])\n"),
    "expansions that do not fit, in PyTorch's words":
        _each("torch.ones(3).expand(2, 2)", "torch.ones(0, 3).expand(2, 3)", "torch.ones(3).expand(2, -1)",
              "torch.ones(0, 3).expand_as(torch.ones(2, 3))", "torch.ones(2, 1).expand_as(torch.ones(2, 4))",
              "torch.addmm(torch.ones(0, 3), torch.ones(2, 3), torch.ones(3, 2))",
              "torch.addmm(torch.ones(0, 2), torch.ones(2, 3), torch.ones(3, 2))",
              "torch.addr(torch.ones(0), torch.ones(2), torch.ones(3))",
              "torch.baddbmm(torch.ones(0, 2, 2), torch.ones(2, 2, 3), torch.ones(2, 3, 2))",
              "torch.addbmm(torch.ones(0, 3), torch.ones(2, 2, 3), torch.ones(2, 3, 2))"),
    "a dim out of range is PyTorch's IndexError":
        "x = torch.zeros(0)\n"
        "for f in (lambda: x.transpose(0, 1), lambda: torch.narrow(x, 1, 0, 0), lambda: x.select(1, 0), lambda: x.sum(2),\n"
        "          lambda: x.unsqueeze(3), lambda: torch.stack([x, x], 3), lambda: torch.softmax(x, 1), lambda: x.cumsum(1)):\n"
        "    try:\n"
        "        print(f().shape)\n"
        "    except IndexError as e:\n"
        "        print('IndexError', e)\n",
    # --- torch.linalg.LinAlgError ----------------------------------------------------------------------------
    "LinAlgError is a RuntimeError with its own name":
        "a = torch.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)\n"
        "for f, m in ((torch.linalg.inv, a), (torch.inverse, a), (torch.linalg.svd, a * float('nan')),\n"
        "             (lambda m: torch.linalg.solve(m, torch.ones(2, dtype=torch.float64)), a), (torch.linalg.cholesky, a)):\n"
        "    try:\n"
        "        f(m)\n"
        "        print('no error')\n"
        "    except torch.linalg.LinAlgError as e:\n"
        "        print('LinAlgError', type(e).__name__, isinstance(e, RuntimeError), e)\n"
        "try:\n"
        "    torch.linalg.inv(torch.zeros(3, 3))\n"
        "except RuntimeError as e:\n"
        "    print('RuntimeError', repr(e))\n",
    "LinAlgError of a batch names the matrix":
        _each("torch.linalg.inv(m)", "torch.linalg.solve(m, torch.ones(3, 2))", "torch.linalg.cholesky(m)",
              "torch.linalg.svd(m * torch.tensor([1.0, float('inf'), 1.0]).reshape(3, 1, 1))[1]",
              "torch.linalg.pinv(m * float('nan'))",
              setup="m = torch.stack([torch.eye(2), torch.ones(2, 2), torch.zeros(2, 2)])\n"),
    "LinAlgError ends the run with its traceback line":
        "torch.linalg.inv(torch.tensor([[0.0, 1.0], [0.0, 1.0]]))\n",
}


def record(snippet: str) -> dict[str, str | None]:
    out = io.StringIO()
    error = None
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(HEADER + snippet, "<snippet>", "exec"), {"__name__": "__snippet__"})  # our own text
        except Exception as raised:
            error = [line for line in traceback.format_exception_only(raised) if line.strip()][-1].rstrip("\n")
    return {"snippet": HEADER + snippet, "stdout": out.getvalue(), "error": error}


def main() -> None:
    cases = {name: record(snippet) for name, snippet in SNIPPETS.items()}
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases}, indent=1) + "\n")
    print(f"{len(cases)} snippets -> {OUT}")


if __name__ == "__main__":
    main()
