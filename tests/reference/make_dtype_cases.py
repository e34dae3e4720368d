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


def _backward_each(*calls: str, setup: str = "") -> str:
    """A snippet that prints each call's dtype and values after a backward through it (where a gradient flows), or
    the error either raises (its class and message)."""
    lines = [setup] if setup else []
    for call in calls:
        lines += ["try:", f"    out = {call}", "    if out.requires_grad:", "        out.sum().backward()",
                  "    print(out.dtype, out.tolist())", "except Exception as e:", "    print(type(e).__name__, e)"]
    return "\n".join(lines) + "\n"


# 0-d and vector tensors of each dtype (the float64 ones require grad)
PAIRS = ("d0 = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)\nf0 = torch.tensor(0.5, requires_grad=True)\n"
         "b0, i0 = torch.tensor(True), torch.tensor(2)\n"
         "d = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)\n"
         "f = torch.tensor([0.5, 0.25], requires_grad=True)\nbv, iv = torch.tensor([True, False]), torch.tensor([2, 1])\n")
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
    # --- where PyTorch raises and gradcli answered (issue #21, fuzz/special_points.py) -------------------------------
    "refusals that PyTorch's backward makes, by dtype":
        _backward_each("torch.pow(d0, b0)", "torch.pow(d, bv)", "torch.pow(d0, i0)", "torch.atan2(b0, d0)",
                       "torch.atan2(d0, b0)", "torch.atan2(i0, d0)", "torch.lerp(d0, d0 * 2, b0)",
                       "torch.lerp(d0.detach(), d0 * 2, b0)", "torch.lerp(d, d * 2, i0)", "torch.addcdiv(d0, d0 * 2, b0)",
                       "torch.addcdiv(d0, d0.detach(), i0)", "torch.addcdiv(d, d * 2, iv)", "torch.addcdiv(d, iv, d * 2)",
                       "F.soft_margin_loss(d, bv)", "F.soft_margin_loss(d, iv)", setup=PAIRS),
    "lerp takes its end, and a weight of dims, in its input's dtype":
        _backward_each("torch.lerp(f0, d0, d0)", "torch.lerp(d0, f0, d0)", "torch.lerp(d, d * 2, f)",
                       "torch.lerp(d, d * 2, f0)", "torch.lerp(f, f * 2, d0)", "torch.lerp(f0, f0 * 2, d0)",
                       "torch.lerp(d, d * 2, iv)", setup=PAIRS),
    "losses that take their input and target in one dtype":
        _backward_each(*[f"{loss}({x}, {t})" for loss in ("F.huber_loss", "F.binary_cross_entropy",
                                                          "F.binary_cross_entropy_with_logits", "torch._prelu_kernel")
                         for x, t in (("p", "q.double()"), ("p.double()", "q"), ("p", "q.long()"), ("p", "q.bool()"),
                                      ("p.long()", "q"), ("p.long()", "q.long()"), ("p.bool()", "q.bool()"),
                                      ("p.bool()", "q.long()"), ("p.long()", "q.bool()"))
                         if not (loss.endswith("logits") and x.endswith(("p", "double()")) and t.endswith(("q", "double()")))],
                       "F.prelu(p, q[:1].double())", "F.prelu(p.long(), q[:1])", "F.prelu(p.bool(), q[:1].bool())",
                       "F.prelu(p.long(), q.long())", "F.gaussian_nll_loss(p, q, q.long())",
                       "F.gaussian_nll_loss(p, q, q.bool())",
                       setup="p = torch.tensor([0.5, 0.25], requires_grad=True)\nq = torch.tensor([0.75, 1.0])\n"),
    "addr's derivatives take the vectors in the result's dtype":
        _backward_each(*[f"torch.addr(m{a}, v{b}, v{c})" for a, b, c in ("ddf", "ddi", "dfd", "dff", "did", "dii", "dbd",
                                                                         "ffd", "ffi", "iid", "iii", "bbb", "fdd")],
                       "torch.addr(mi, vi, vi, beta=2, alpha=3)", "torch.addr(mi, vi, vi, beta=0.5)",
                       "torch.addmv(vi, mi, vi)", "torch.addmm(mi, mi, mi)", "torch.addmm(mb, mb, mb)",
                       "torch.addmv(vb, mb, vb)", "torch.baddbmm(mi[None], mi[None], mi[None])",
                       "torch.baddbmm(mb[None], mb[None], mb[None])", "torch.addbmm(mi, mi[None], mi[None])",
                       setup="mi = torch.tensor([[1, 2], [3, -1]])\nmb, md, mf = mi > 1, mi.double(), mi.float()\n"
                             "vi = torch.tensor([2, -1])\nvb, vd, vf = vi > 0, vi.double(), vi.float()\n"
                             "md.requires_grad_(), mf.requires_grad_(), vd.requires_grad_(), vf.requires_grad_()\n"),
    "kernels that refuse bools: argmax, trapezoid, ldexp":
        _each("torch.argmax(bv)", "torch.argmin(bv, 0)", "torch.argmax(iv)", "torch.trapezoid(bv)",
              "torch.trapezoid(d, bv)", "torch.cumulative_trapezoid(bv, iv)", "torch.cumulative_trapezoid(bv)",
              "torch.ldexp(d, bv)", "torch.ldexp(d, iv)", "torch.ldexp(iv, bv)", setup=PAIRS),
    "shapes PyTorch refuses in its words":
        _backward_each("z0.masked_fill(torch.tensor(False), z(0))", "z(2).masked_fill(torch.tensor([True, False]), z(0, 3))",
                       "z(2).masked_fill(torch.tensor([True, False]), z())", "torch.fill(z(), z(0))", "torch.fill(z(2), z(2, 3))",
                       "torch.stack([z(), z(0)])", "torch.stack([z(0, 3), z()])", "torch.stack([z(2), z(2), z(3)])",
                       "torch._softmax_backward_data(z(0, 3), z(3), 0, torch.float64)",
                       "torch._softmax_backward_data(z(3), z(0, 3), 0, torch.float64)",
                       "F.avg_pool1d(z(0, 3), 2)", "F.avg_pool1d(z(0, 2, 5), 2)", "F.avg_pool1d(z(2, 0), 2)",
                       "F.max_pool1d(z(0, 5), 2)", "F.max_pool1d(z(0, 2, 5), 2)", "F.max_pool1d(z(2, 0, 5), 2)",
                       "F.max_pool1d(z(0, 3), 2, return_indices=True)[0]", "F.max_pool2d(z(0, 4, 4), 2)",
                       "F.max_pool2d(z(0, 1, 4, 4), 2)", "F.max_pool2d(z(0, 4, 4), 2, return_indices=True)[0]",
                       "F.avg_pool2d(z(1, 0, 4, 4), 2)", "F.avg_pool3d(z(0, 2, 2, 2), 2)", "F.max_pool3d(z(1, 2, 0, 2, 2), 1)",
                       "F.max_pool3d(z(0, 2, 2, 2, 2), 1)", "F.pad(z(0, 3), (1, 1), 'reflect')",
                       "F.pad(z(0, 3), (1, 1), 'replicate')", "F.pad(z(0, 2, 3), (1, 1), 'reflect')",
                       "F.pad(z(0, 3, 3), (1, 1, 1, 1), 'reflect')", "F.pad(z(1, 0, 3, 3, 3), (1, 1, 1, 1, 1, 1), 'replicate')",
                       "torch.clamp(z(), z(2), z())", "torch.clamp(z(), z(0), z())", "torch.clamp(z(), z(0), z().detach())",
                       "torch.clamp(z(1), z(2, 1), z())", "torch.clamp(z(2), z(2), z(3, 1))", "torch.clamp(z(), min=z(2))",
                       "F.pixel_shuffle(z(0, 4, 2, 3), 2)", "F.pixel_unshuffle(z(0, 1, 4, 6), 2).sum()",
                       "F.pixel_shuffle(z(4, 0, 3), 2)", "F.pixel_unshuffle(z(0, 4, 4, 6), 2).sum()",
                       setup="def z(*shape):\n    return torch.full(shape, 0.5, dtype=torch.float64, requires_grad=True)\n"
                             "z0 = z()\n"),
    "singular matrices where PyTorch checks":
        _each("torch.linalg.lu_factor(a)[0]", "torch.linalg.lu_factor(torch.zeros(3, 3))[1]",
              "torch.linalg.lu_factor(torch.stack([torch.eye(3, dtype=torch.float64), a]))[0]",
              "torch.linalg.lu_factor(torch.zeros(2, 3))[0]", "torch.linalg.lu_factor_ex(a)[2]",
              "torch.cholesky_inverse(low)", "torch.cholesky_inverse(torch.tensor([[0.0, 0.0], [1.0, 2.0]]))",
              "torch.cholesky_inverse(torch.stack([torch.eye(2, dtype=torch.float64), low]))",
              "torch.cholesky_inverse(low, upper=True)", "torch.cholesky_inverse(torch.tensor([[-0.0]]))",
              setup="a = torch.tensor([[1.0, 2, 3], [2, 4, 6], [1, 0, 1]], dtype=torch.float64, requires_grad=True)\n"
                    "low = torch.tensor([[2.0, 0.0], [1.0, 0.0]], dtype=torch.float64, requires_grad=True)\n"),
    "torch.masked's reductions of integers and bools keep PyTorch's dtypes":
        _each(*(f"torch.masked.{name}({x}{', mask=m' if masked else ''})" for x in ("i", "b")
                for masked in (False, True)
                for name in ("sum", "prod", "amax", "amin", "logsumexp", "mean", "norm")),
              *(f"torch.masked.{name}({x}, {dim}{', mask=m' if masked else ''})" for x in ("i", "b")
                for masked in (False, True) for dim in (1, 0)
                for name in ("cumsum", "cumprod", "softmax", "log_softmax", "softmin", "median")),
              "torch.masked.median(i, 1, mask=torch.tensor([[True, False, True], [False, False, False]]))",
              "torch.masked.normalize(i, 2.0, 1, mask=m)", "torch.masked.normalize(b, 2.0, 1)",
              "torch.masked.sum(f, 1, mask=m)", "torch.masked.amax(f, mask=m)",
              setup=INTS + FLOATS + "m = torch.tensor([[True, False, True], [False, True, True]])\n"),
    "torch.masked's mask must expand to the input":
        _each(*(f"torch.masked.{name}(ev, mask=m)" for name in ("sum", "amax", "mean", "norm", "logsumexp")),
              *(f"torch.masked.{name}(ev, 0, mask=m)" for name in ("cumsum", "softmax", "median", "normalize")),
              *(f"torch.masked.{name}(v, mask=m)" for name in ("sum", "amax", "mean", "norm")),
              *(f"torch.masked.{name}(v, 1, mask=m)" for name in ("cumsum", "softmax", "median")),
              setup="ev = torch.zeros(0, 3)\nv = torch.zeros(0)\nm = torch.tensor([[True, False, True], [False, True, True]])\n"),
    "reductions over an empty dim: PyTorch's IndexError":
        _each(*(f"torch.{call}" for x in ("v", "ev") for call in (
                f"amax({x})", f"amax({x}, 0)", f"max({x})", f"max({x}, 0)[0]", f"argmax({x})", f"argmin({x}, 0)",
                f"aminmax({x})[0]", f"aminmax({x}, dim=0)[1]", f"median({x}, 0)[0]", f"nanmedian({x}, 0)[0]",
                f"kthvalue({x}, 1, 0)[0]", f"mode({x}, 0)[0]", f"median({x})", f"topk({x}, 1)[0]")),
              "torch.kthvalue(w, 5)[0]", "torch.kthvalue(w, 0)[1]", "torch.kthvalue(w, 2, 0)[0]", "torch.topk(w, 4)[0]",
              "torch.kthvalue(torch.zeros(2, 0), 1)[0]",
              setup="v = torch.zeros(0)\nev = torch.zeros(0, 3)\nw = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, 1.0]])\n"),
    "bools that relu, hardtanh, topk, mvlgamma, pinv and unary plus refuse":
        _each("torch.relu(b0)", "F.relu(bv)", "F.relu6(bv)", "F.hardtanh(bv)", "F.relu(iv)", "F.relu6(iv)",
              "torch.positive(bv)", "+bv", "+iv", "torch.topk(bv, 1)[0]", "torch.topk(iv, 1)[0]", "torch.mvlgamma(b0, p=1)",
              "torch.linalg.pinv(i[:, :2])", "torch.linalg.pinv(b)", setup=PAIRS + INTS),
    "integers through vander, hinge_embedding_loss and the transposed convolutions' bias":
        _each("torch.linalg.vander(iv)", "torch.linalg.vander(iv, N=3)", "torch.linalg.vander(bv)",
              "F.hinge_embedding_loss(iv, d)", "F.hinge_embedding_loss(iv, d, reduction='sum')",
              "F.hinge_embedding_loss(iv, d, reduction='none')", "F.hinge_embedding_loss(bv, d)",
              "F.hinge_embedding_loss(d, iv)", "F.hinge_embedding_loss(f, d, margin=0.5)",
              *(f"F.conv_transpose{n}d(x{n}, w{n}, {bias})" for n in (1, 2, 3)
                for bias in ("torch.tensor([0])", "torch.tensor([0.5])", "torch.tensor([True])")),
              setup=PAIRS + "".join(f"x{n} = torch.ones((1, 1) + (2,) * {n}, dtype=torch.float64)\n"
                                    f"w{n} = torch.full((1, 1) + (1,) * {n}, 0.5, dtype=torch.float64)\n" for n in (1, 2, 3))),
    "shapes a row refuses are said in PyTorch's words, not NumPy's":
        _backward_each("z(0, 3).view_as(z(3, 2))", "z(3, 2).view_as(z(0, 3))", "z(6).view_as(z(0))", "z(2, 3).reshape(4, 2)",
                       "z(2, 3).view(4, -1)", "F.pdist(z(0))", "F.pdist(z(3))", "torch.linalg.cross(z(0, 3), z(3))",
                       "torch.linalg.cross(z(2, 3), z(3))",
                       setup="def z(*shape):\n    return torch.full(shape, 0.5, dtype=torch.float64, requires_grad=True)\n"),
    "adaptive poolings: which dims may be empty, and their words for too few or too many dims":
        _each(*(f"{call.format(f'torch.zeros({shape})')}.shape" for shape in (
                (0,), (4,), (0, 3), (3, 0), (0, 1, 3), (1, 0, 3), (2, 0, 1, 3), (0, 2, 1, 3), (1, 0, 1, 2, 2), (0, 1, 1, 2, 2),
                (1, 1, 0, 2), (2, 1, 1, 1, 1, 1))
              for call in ("F.adaptive_avg_pool1d({}, 3)", "F.adaptive_max_pool1d({}, 3)",
                           "F.adaptive_max_pool1d({}, 3, return_indices=True)[0]", "F.adaptive_avg_pool2d({}, (1, 3))",
                           "F.adaptive_max_pool2d({}, (1, 3))", "F.adaptive_avg_pool2d({}, 2)", "F.adaptive_max_pool2d({}, 2)",
                           "F.adaptive_avg_pool3d({}, (1, 1, 2))", "F.adaptive_max_pool3d({}, (1, 1, 2))",
                           "F.adaptive_max_pool3d({}, 1)"))).replace("out.dtype, out.tolist()", "out"),
    "shapes that do not broadcast, named in the order PyTorch's kernel meets them":
        _backward_each("torch.broadcast_tensors(z(0, 3), z(2, 3))[0]", "torch.broadcast_tensors(z(3), z(2, 1), z(4, 1))[1]",
                       "torch.masked_select(z(0), z(4) > 0)", "torch.masked_select(z(2, 3), z(4) > 0)",
                       "z(0).masked_scatter(z(4) > 0, z(4))", "F.margin_ranking_loss(z(4), z(4), z(0))",
                       "F.margin_ranking_loss(z(4), z(0), z(4))", "F.multilabel_soft_margin_loss(z(2, 0), z(2, 3))",
                       "F.multilabel_soft_margin_loss(z(0, 3), z(2, 3), z(3))", "z(0, 3) + z(2, 3)",
                       setup="def z(*shape):\n    return torch.full(shape, 0.5, dtype=torch.float64, requires_grad=True)\n"),
    "grid_sample's checks in PyTorch's order: the batch, the grid's last size, empty spatial dims, then the dims":
        _each(*(f"{call.format(f'torch.zeros({x})', f'torch.zeros({g})')}.shape" for x, g in (
                ((0,), (1, 2, 2, 2)), ((0, 3), (1, 2, 2, 2)), ((1, 2, 3, 3), (0, 3)), ((1, 2, 3, 3), (0, 2, 2, 2)),
                ((0, 2, 3, 3), (1, 2, 2, 2)), ((1, 2, 3, 3), (1, 2, 2, 3)), ((1, 2, 0, 3), (1, 2, 2, 2)), ((1, 2, 3, 3), (1, 2, 2)),
                ((1, 2, 3, 3), (1, 1, 2, 2, 2)), ((1, 1, 2, 2, 2), (1, 1, 1, 1, 2)), ((1, 1, 2, 2, 2), (1, 1, 1, 3)),
                ((1, 2, 3), (1, 2, 2)), ((0, 1, 2, 2), (0, 1, 1, 2)))
              for call in ("F.grid_sample({}, {}, align_corners=False)", "torch.grid_sampler_2d({}, {}, 0, 0, False)",
                           "torch.grid_sampler_3d({}, {}, 0, 0, False)"))).replace("out.dtype, out.tolist()", "out"),
    "the matrix products refuse shapes in PyTorch's words, in its order":
        _each(*(f"{call}.shape" for call in ['torch.mm(z(3), z(3, 2))', 'torch.mm(z(2, 3), z(3))', 'torch.mm(z(2, 3), z(4, 2))', 'torch.mm(z(2, 2, 3), z(3, 2))', 'torch.mv(z(3), z(3))', 'torch.mv(z(2, 3), z(2, 3))', 'torch.mv(z(2, 3), z(4))', 'torch.bmm(z(3), z(1, 3, 2))', 'torch.bmm(z(1, 2, 3), z(3, 2))', 'torch.bmm(z(0, 2, 3), z(2, 3, 2))', 'torch.bmm(z(2, 2, 3), z(2, 4, 2))', 'torch.outer(z(2, 3), z(3))', 'torch.outer(z(3), z(2, 3))', 'torch.addr(z(2, 3), z(2, 3), z(3))', 'torch.addr(z(2, 3), z(2), z(2, 3))', 'torch.addr(z(2, 3), z(2), z(4))', 'torch.addmm(z(2, 2), z(3), z(3, 2))', 'torch.addmm(z(2, 2), z(2, 3), z(3))', 'torch.addmm(z(2, 2), z(2, 3), z(4, 2))', 'torch.addmm(z(3, 2), z(2, 3), z(3, 2))', 'torch.baddbmm(z(2, 2, 2), z(0), z(2, 3, 2))', 'torch.baddbmm(z(2, 2, 2), z(2, 2, 3), z(0, 3))', 'torch.baddbmm(z(2, 2, 2), z(0, 3), z(2, 3, 2))', 'torch.baddbmm(z(2, 2, 2), z(2, 2, 3), z(0, 3, 2))', 'torch.baddbmm(z(2, 2, 2), z(0, 2, 3), z(2, 3, 2))', 'torch.baddbmm(z(2), z(2, 2, 3), z(2, 3, 2))', 'torch.baddbmm(z(2, 2, 2), z(2, 2, 3), z(2, 4, 2))', 'torch.addbmm(z(2, 2), z(0), z(3, 3, 2))', 'torch.addbmm(z(2, 2), z(3, 2, 3), z(0, 3))', 'torch.addbmm(z(2, 2), z(0, 3), z(3, 3, 2))', 'torch.addbmm(z(2, 2), z(0, 2, 3), z(3, 3, 2))', 'torch.addbmm(z(2, 2), z(3, 2, 3), z(3, 4, 2))', 'torch.addmv(z(2), z(3), z(3))', 'torch.addmv(z(0, 3), z(2, 3), z(3))', 'torch.addmv(z(0), z(2, 3), z(3))', 'torch.addmv(z(2), z(0, 3), z(3))', 'torch.addmv(z(1), z(2, 3), z(3))', 'torch.addmv(z(2), z(2, 3), z(4))', 'torch.addmv(z(2), z(2, 3), z(2, 3))']),
              setup="def z(*shape):\n    return torch.full(shape, 0.5, dtype=torch.float64)\n").replace(
                  "out.dtype, out.tolist()", "out"),
    "index_add, index_reduce, index_fill and put refuse in PyTorch's words and classes":
        _each(*(f"{call}.shape" for call in ['torch.index_add(z(3, 2), 0, i1, z(0, 3))', 'torch.index_add(z(3, 2), 0, i1, z(0))', 'torch.index_add(z(3, 2), 0, i1, z(1, 3))', 'torch.index_add(z(3, 2), 1, i1, z(3))', 'torch.index_add(z(3, 2), 0, i2, z(2, 2))', "torch.index_reduce(z(3, 2), 0, i2, z(0, 2), 'prod')", "torch.index_reduce(z(0), 0, i2, z(2, 2), 'prod')", 'torch.index_fill(z(3, 2), 0, i1, z(2))', 'torch.put(z(0), i1, z(1))', 'torch.put(z(3), i1, z(0, 3))', 'torch.put(z(3), i1, z(2))', 'torch.put(z(3), torch.tensor([5]), z(1))']),
              setup="def z(*shape):\n    return torch.full(shape, 0.5, dtype=torch.float64)\n"
                    "i1, i2 = torch.tensor([1]), torch.tensor([1, 0])\n").replace("out.dtype, out.tolist()", "out"),
    "rms_norm of float32 by a float64 weight is float32 (ToCopyBackward0), its eps float32's":
        "x = torch.tensor([[1.1107699871063232, -1.7641526460647583, -1.8664205074310303], [-1.2223451137542725, "
        "0.03694919869303703, -0.12925735116004944]], requires_grad=True)\n"
        "w = torch.tensor([0.37664969937389303, -1.5183045831392699, 1.4535059686330891], dtype=torch.float64, "
        "requires_grad=True)\n"
        "for out in (F.rms_norm(x, (3,), w), F.rms_norm(x, (3,)), F.rms_norm(x.double(), (3,), w.float())):\n"
        "    print(out.dtype, type(out.grad_fn).__name__, out.tolist())\n"
        "    out.sum().backward()\n"
        "    print(x.grad.tolist(), None if w.grad is None else w.grad.tolist())\n",
    "binary_cross_entropy_with_logits is in its target's dtype, its input's sigmoid in the input's":
        "a = torch.tensor([0.8751029605708576, -1.5688151178004572, -2.183076275134539, 0.08882129808719963], "
        "dtype=torch.float64, requires_grad=True)\n"
        "t = torch.tensor([0.7735480070114136, 0.02552848868072033, 0.04560792073607445, 0.4834370017051697], "
        "requires_grad=True)\n"
        "for x, y in ((a, t), (a.float().detach().requires_grad_(), t.double().detach().requires_grad_())):\n"
        "    out = F.binary_cross_entropy_with_logits(x, y)\n"
        "    print(out.dtype, out.item() if x.dtype == torch.float64 else '')  # (a float32 input's log_sigmoid: SLEEF's)\n"
        "    out.backward()\n"
        "    print(x.grad.tolist(), y.grad.tolist())\n",
    "square of a bool is int64 (pow(x, 2)), of an int32 int32":
        _each("torch.square(torch.tensor([True, False]))", "torch.tensor([2, -3], dtype=torch.int32).square()",
              "torch.square(torch.tensor(5))"),
    "i0 and i0e of float32, int64 and bool compute in float32 as PyTorch's kernel (i0(0) is 0.99999994)":
        _each(*(f"{f}(torch.tensor({v}))" for f in ("torch.i0", "torch.special.i0e") for v in (
            "[0.0, 0.5, 3.0, -2.0, 7.9, 8.5, 10.0, 40.0, 100.0, float('inf'), float('nan')]", "[True, False]",
            "[0, 1, 3, -2, 10, 40]"))) + "print(torch.i0(torch.tensor(False)))\n",
    "the nodes PyTorch records at empty inputs and integer args (chunk's split_with_sizes, outer's None edge...)":
        "def z(*shape):\n    return torch.zeros(shape, dtype=torch.float64, requires_grad=True)\n"
        "def names(out):\n    node = out.grad_fn\n"
        "    return None if node is None else (type(node).__name__, [None if f is None else type(f).__name__ "
        "for f, _ in node.next_functions])\n"
        "w = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)\n"
        "for out in (z(0).chunk(2)[0], z(0, 3).chunk(2)[1], z(2, 0).chunk(3, dim=1)[2], z(4).chunk(2)[0],\n"
        "            torch.unsafe_chunk(z(0), 2)[0], torch.outer(torch.tensor([-1, 2]), w),\n"
        "            torch.outer(torch.tensor([True, False]), w), torch.cartesian_prod(w, z(0)),\n"
        "            torch.cartesian_prod(z(0), w), torch.flatten(z(0, 3)), z(0, 3).reshape(-1),\n"
        "            torch.diff(z(0)), torch.diff(w, n=5), torch.diff(z(2, 0), dim=1),\n"
        "            F.local_response_norm(z(0, 4, 3), size=2), F.local_response_norm(z(1, 0, 3), 2)):\n"
        "    print(tuple(out.shape), names(out))\n",
    "inv_ex and solve_ex of singular matrices: LAPACK's infinities and NaN and its info, or LinAlgError with check_errors":
        'a = torch.tensor([[-0.483186004009581, -1.6677795308946544, -1.8920703764118278], [0.0, 0.0, 0.0], [0.1931686532342498, -0.25285908631710896, 0.548812153625823]], dtype=torch.float64)\nr = torch.linalg.inv_ex(a); print(r.info, r.info.dtype, r.inverse.tolist())\nbatch = torch.stack([a, torch.eye(3, dtype=torch.float64), torch.zeros(3, 3, dtype=torch.float64)])\nr = torch.linalg.inv_ex(batch); print(r.inverse.tolist(), r.info)\nprint(torch.linalg.solve_ex(a, torch.ones(3, dtype=torch.float64)))\nprint(torch.linalg.solve_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]]), torch.ones(2)))\ninverse, info = torch.linalg.inv_ex(torch.tensor([[0.0, 1.0], [0.0, 1.0]]))\nprint(inverse, info)\nprint(torch.linalg.solve_ex(batch, torch.ones(3, 2, dtype=torch.float64)).info)\nfor f in (lambda a: torch.linalg.solve_ex(a, torch.ones(2), check_errors=True), lambda a: torch.linalg.inv_ex(a, check_errors=True)):\n    try:\n        f(torch.stack([torch.eye(2), torch.tensor([[1.0, 2.0], [2.0, 4.0]])]))\n    except Exception as e: print(type(e).__name__, e)\nprint(torch.linalg.solve_ex(torch.eye(2), torch.ones(2), check_errors=True))\n',
    "torch.cholesky of an empty tensor of any shape is itself, its backward raising where it is no square matrix":
        'for s in [(0,), (0, 1), (0, 3), (3, 0), (0, 0), (2, 0, 3), (0, 3, 3), (2, 3, 0)]:\n    a = torch.zeros(s, dtype=torch.float64, requires_grad=True)\n    for up in (False, True):\n        try:\n            out = torch.cholesky(a, upper=up)\n            print(s, up, tuple(out.shape), out.grad_fn.name())\n            out.sum().backward()\n            print("  grad", tuple(a.grad.shape))\n        except Exception as e:\n            print("  ", type(e).__name__, e)\n',
    "binary_cross_entropy's and its logits' target of a size that does not broadcast: torch.nn.functional's ValueError":
        "z = lambda *s: torch.full(s, 0.5, dtype=torch.float64, requires_grad=True)\n"
        "for a, b in (((4,), (0,)), ((0,), (4,)), ((0, 3), (4,)), ((2, 3), (2, 2))):\n"
        "    for f in (F.binary_cross_entropy, F.binary_cross_entropy_with_logits):\n"
        "        try:\n"
        "            print(f(z(*a), z(*b)))\n"
        "        except ValueError as e:  # (the class user code catches)\n"
        "            print('ValueError', e)\n",
    "the linear algebra functions refuse what is no batch of square matrices in PyTorch's words and names":
        'z = lambda *s: torch.zeros(s, dtype=torch.float64)\ncalls = {\n "det": lambda a: torch.det(a), "linalg.det": lambda a: torch.linalg.det(a), "logdet": lambda a: torch.logdet(a),\n "slogdet": lambda a: torch.linalg.slogdet(a), "torch.slogdet": lambda a: torch.slogdet(a),\n "inv": lambda a: torch.linalg.inv(a), "inverse": lambda a: torch.inverse(a), "inv_ex": lambda a: torch.linalg.inv_ex(a),\n "solve": lambda a: torch.linalg.solve(a, z(3)), "solve_ex": lambda a: torch.linalg.solve_ex(a, z(3)),\n "linalg.cholesky": lambda a: torch.linalg.cholesky(a), "cholesky_ex": lambda a: torch.linalg.cholesky_ex(a),\n "eigh": lambda a: torch.linalg.eigh(a), "eigvalsh": lambda a: torch.linalg.eigvalsh(a),\n "cholesky_inverse": lambda a: torch.cholesky_inverse(a), "matrix_exp": lambda a: torch.linalg.matrix_exp(a),\n "matrix_power": lambda a: torch.linalg.matrix_power(a, 2), "solve_triangular": lambda a: torch.linalg.solve_triangular(a, z(3, 3), upper=True),\n "cholesky_solve": lambda a: torch.cholesky_solve(z(3, 3), a),\n}\nfor name, f in calls.items():\n    for s in [(0,), (0, 3), (2, 3), (3,)]:\n        try:\n            f(z(*s)); print(name, s, "OK")\n        except Exception as e:\n            print(name, s, type(e).__name__, str(e).split("\\n")[0])\n',
    "cholesky_solve checks b's dims, the factor's, the factor square, then the sizes, in PyTorch's words":
        'z = lambda *s: torch.zeros(s, dtype=torch.float64)\nfor b, u in [((3, 3), (1, 1)), ((0, 3), (2, 2)), ((3,), (3, 3)), ((0,), (2, 2)), ((2, 3, 3), (4, 3, 3))]:\n    try:\n        print(torch.cholesky_solve(z(*b), z(*u)).shape)\n    except Exception as e:\n        print(b, u, type(e).__name__, str(e).split("\\n")[0])\n',
    "select's index and diagonal's dims are IndexErrors, local_response_norm's and instance_norm's checks ValueErrors":
        'z = lambda *s: torch.zeros(s, dtype=torch.float64)\ntries = [lambda: z(3).select(0, 5), lambda: torch.select_scatter(z(0, 3), z(3), 0, 1), lambda: torch.select_scatter(z(3), z(), 0, 4),\n         lambda: torch.diagonal(z(0)), lambda: torch.diagonal(z(3)), lambda: torch.diagonal(torch.tensor(1.0)),\n         lambda: torch.diagonal(z(3), 0, 0, 0), lambda: torch.diagonal_scatter(z(0), z(0)), lambda: torch.diagonal_copy(z(4)),\n         lambda: torch.diagonal(z(2, 2, 2), 0, 0, 3), lambda: z(3).diagonal(), lambda: torch.diag_embed(z(3)).shape,\n         lambda: torch.nn.functional.local_response_norm(z(0, 3), 2), lambda: torch.nn.functional.instance_norm(z(0)),\n         lambda: torch.nn.functional.instance_norm(z(0, 3)), lambda: torch.nn.functional.instance_norm(z(3)),\n         lambda: torch.nn.functional.instance_norm(z(2, 3), use_input_stats=False)]\nfor i, f in enumerate(tries):\n    try:\n        print(i, f())\n    except Exception as e:\n        print(i, type(e).__name__, e)\n',
    "a boolean mask of another shape is PyTorch's IndexError in its words":
        'x = torch.zeros(2, 3, dtype=torch.float64)\nfor m in (torch.tensor([True, False, True, False]), torch.ones(3, dtype=torch.bool), torch.ones(2, 2, dtype=torch.bool), torch.ones(2, 3, 1, dtype=torch.bool)):\n    try:\n        print(x[m].shape)\n    except Exception as e:\n        print(type(e).__name__, e)\ny = torch.zeros(0, dtype=torch.float64)\ntry:\n    print(y[torch.tensor([True, False])])\nexcept Exception as e:\n    print(type(e).__name__, e)\n',
}


# Formulas that `gradcli grad` must refuse (exit 2) because PyTorch raises at them: (the formula, the point as lists,
# PyTorch's call over the float64 tensors a, b, c, which the recorder runs forward and backward).
FORMULAS = {
    "masked_fill with a value of dims": ("masked_fill(a, b != 0, c)", {"a": 0.5, "b": 0.0, "c": [[]]},
                                         "a.masked_fill(b != 0, c)"),
    "fill with a value of dims": ("fill(a, b)", {"a": 0.5, "b": []}, "torch.fill(a, b)"),
    "_softmax_backward_data of two shapes": ("_softmax_backward_data(a, b, 0, torch.float64)", {"a": [[]], "b": [1.0, 2.0]},
                                             "torch._softmax_backward_data(a, b, 0, torch.float64)"),
    "avg_pool1d of no channels": ("avg_pool1d(a, 2)", {"a": [[]]}, "F.avg_pool1d(a, 2)"),
    "max_pool1d of no channels": ("max_pool1d(a, 2)", {"a": [[]]}, "F.max_pool1d(a, 2)"),
    "max_pool2d of no channels": ("F.max_pool2d(a, 2)", {"a": [[[]]]}, "F.max_pool2d(a, 2)"),
    "reflection pad of no channels": ("F.pad(a, (1, 1), 'reflect')", {"a": [[]]}, "F.pad(a, (1, 1), 'reflect')"),
    "cholesky_inverse of a zero on the diagonal": ("cholesky_inverse(a)", {"a": [[2.0, 0.0], [1.0, 0.0]]},
                                                  "torch.cholesky_inverse(a)"),
    "lu_factor of a singular matrix": ("torch.linalg.lu_factor(a)[0]", {"a": [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [1.0, 0.0, 1.0]]},
                                       "torch.linalg.lu_factor(a)[0]"),
    # PyTorch's backward raises (its forward answers): clamp's masks of two tensor bounds written into a smaller one
    "clamp with bounds its masks cannot be written into": ("sum(clamp(a, min=b, max=c))",
                                                           {"a": [1.0, 2.0, 3.0], "b": [[0.0], [1.0]], "c": [2.0, 2.0, 2.0]},
                                                           "torch.clamp(a, min=b, max=c)"),
    "a method's clamp with such bounds": ("sum(a.clamp(b, c))", {"a": [1.0, 2.0], "b": [1.5, 0.5], "c": [[3.0, 2.0], [1.0, 1.0]]},
                                          "a.clamp(b, c)"),
    # an output that takes no gradient: an integer (inv_ex's info, argmax) or a bool one
    "inv_ex's info": ("torch.linalg.inv_ex(a)[1]", {"a": [[1.0, 2.0], [3.0, 4.0]]}, "torch.linalg.inv_ex(a)[1]"),
    "cholesky_ex's info": ("torch.linalg.cholesky_ex(a)[1]", {"a": [[1.0, 0.0], [0.0, -1.0]]},
                           "torch.linalg.cholesky_ex(a)[1]"),
    "argmax": ("argmax(a)", {"a": [1.0, 3.0, 2.0]}, "torch.argmax(a)"),
    "a comparison": ("a > 1", {"a": [1.0, 3.0, 2.0]}, "a > 1"),
}


def record_formula(call: str, point: dict[str, object]) -> str | None:
    """The last line of the exception PyTorch raises at the call over `point` (forward, then backward), or None."""
    tensors = {name: torch.tensor(value, dtype=torch.float64, requires_grad=True) for name, value in point.items()}
    try:
        out = eval(call, {"torch": torch, "F": torch.nn.functional, **tensors})  # our own text
        out.sum().backward()
    except Exception as raised:
        return [line for line in traceback.format_exception_only(raised) if line.strip()][-1].rstrip("\n")
    return None


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
    formulas = {name: {"program": program, "at": point, "error": record_formula(call, point)}
                for name, (program, point, call) in FORMULAS.items()}
    OUT.write_text(json.dumps({"torch": torch.__version__, "cases": cases, "formulas": formulas}, indent=1) + "\n")
    print(f"{len(cases)} snippets -> {OUT}")


if __name__ == "__main__":
    main()
