"""PyTorch's values and gradients for every op of gradcli's table, at special points.

Run it with a Python that has PyTorch (CPU is enough; everything is float64):

    /path/to/python-with-torch tests/reference/make_torch_reference.py

It writes tests/reference/torch_special_points.json, which tests/test_torch_reference.py
holds gradcli against (that test needs no torch), and tests/reference/torch_ranges.json:
torch.arange and torch.linspace (float64) for the values' arange and linspace. The ops are those of gradcli.ops.OPS,
each with the reference its row holds (Op.reference: PyTorch's call as text over the args a, b, c; Op.reference_program:
gradcli's program, by default the row's print rule): nothing here lists the ops but their sampling (points_of) and the
calls with params (VARIANTS). The test fails while an op of the table is missing from the file. Regenerate after adding an op.

Points: NaN, both infinities, both zeros, the smallest subnormal, tiny and huge magnitudes,
ties (every pair of the special values, a == b included), the thresholds of softplus and
the underflow of exp; where's condition holding, failing and NaN; each at the upstream gradients 1, 0 and NaN (a NaN coming in from
elsewhere in a program must stay NaN where PyTorch keeps it).
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from gradcli.ops import OPS  # noqa: E402  (the table, from this checkout)
from gradcli.ops.core import reference_texts  # noqa: E402

OUT = Path(__file__).resolve().parent / "torch_special_points.json"
RANGES_OUT = Path(__file__).resolve().parent / "torch_ranges.json"
ARANGES = [(-8.0, 8.0, 0.1), (0.0, 1.0, 0.1), (1.0, 0.0, -0.3), (0.5, 10.25, 0.75), (-1e-3, 1e-3, 1e-4), (0.0, 5.0, 1.0),
           (3.0, 3.0, 1.0), (-2.0, 2.0, 0.01), (10.0, -10.0, -0.7), (0.0, 1e-300, 3e-302), (-73.12715117751975,
           -38.38377748379648, 0.37), (1e15, 1e15 + 40.0, 0.3)]
LINSPACES = [(0.0, 1.0, 11), (-8.0, 8.0, 161), (1e-3, 1.0, 7), (0.0, 1.0, 1), (0.0, 1.0, 0), (3.0, -2.7, 50),
             (0.0, 0.1, 3), (0.0, 1.0, 2), (1e300, -1e300, 5), (-50.3, 71.9, 199), (5.0, 5.0, 4), (-1.0, 1.0, 100)]
nan, inf = math.nan, math.inf

SCALARS = [nan, inf, -inf, 0.0, -0.0, 5e-324, 1e-300, -1e-300, 0.5, -0.5, 1.0, -1.0, 2.0, -2.5, 20.0, 20.5,
           -20.5, 37.0, -37.0, -40.0, 710.0, -710.0, -745.0, 1e300, -1e300]
PAIR_VALUES = [nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 1e-300, 1e300]
VECTORS = [[nan, 1.0], [inf, 1.0], [inf, inf], [-inf, -inf], [inf, -inf], [0.0, 0.0], [-0.0, -0.0], [0.0, -0.0],
           [1e300, 1e300], [1e-300, -1e-300], [5e-324, 0.0], [1.0, 2.0], [-1000.0, -1000.0], [1000.0, 1.0],
           [nan, inf], [3.0, -4.0], [1e200, 1e-200], [-745.0, -710.0]]
VECTOR_PAIRS = [[nan, 1.0], [inf, 1.0], [0.0, 0.0], [-0.0, 2.0], [1.0, 2.0], [-inf, 1e300], [1e300, 1e300]]
TRIPLE_VALUES = [nan, inf, -inf, 0.0, -0.0, 0.5, 1.0, -2.5]  # lerp(start, end, weight)
# Rows of matrices for det, inv, solve: finite and of moderate size (where LAPACK's pivoting meets NaN or an infinity,
# which row it picks is the library's own choice, and NumPy's and PyTorch's differ; near the ends of
# float64 the order of LAPACK's operations shows), singular ones among them.
MATRIX_ROWS = [[0.0, 0.0], [-0.0, 2.0], [1.0, 2.0], [2.0, 4.0], [0.5, -3.0], [1e-3, 7.0], [3.0, 1e3], [-1.0, -2.0]]
SEEDS = [1.0, 0.0, nan]
WRITE_INDICES = [[1, 0], [1, 1]]  # scatter and its kin: a permutation, a place written twice

def _torch_call(text: str):
    """PyTorch's call of a row (Op.reference: our own text over the args a, b, c) as a function of the tensors."""
    code, names = compile(text, text, "eval"), {"torch": torch, "F": F}  # (one namespace: a warning is said once)
    return lambda *args: eval(code, names, dict(zip("abcdf", args, strict=False)))


# Each row's reference (gradcli.ops.core.reference_texts): gradcli's program and PyTorch's call of it.
REFERENCES = {name: texts for name, op in OPS.items() if (texts := reference_texts(op)) is not None}
TORCH = {name: _torch_call(call) for name, (_, call) in REFERENCES.items()}
PROGRAMS = {name: program for name, (program, _) in REFERENCES.items()}
# PyTorch records a node for these (NotImplemented) but its backward raises ("derivative for
# aten::heaviside is not implemented"): the values are PyTorch's, the gradients gradcli's zeros
# (a step's).
NO_DERIVATIVE = {name for name, op in OPS.items() if op.torch_node == "NotImplemented"}
# The decompositions (gradcli.ops.decompositions): whether they read one triangle of a symmetric matrix.
DECOMPOSITIONS = {"cholesky": True, "linalg_cholesky": True, "cholesky_ex": True, "eigh": True, "eigvalsh": True,
                  "qr": False, "svd": False, "svd_values": False, "linalg_svd": False, "svdvals": False, "slogdet": False,
                  "inv_ex": False, "matrix_exp": False, "pinv": False, "matrix_power": False, "matrix_norm": False,
                  "linalg_norm": False,
                  "cond": False, "cholesky_inverse": False, "tensorinv": False, "lu_factor_ex": False, "lu_factor": False,
                  "lu": False, "linalg_lu": False}
# Of a matrix and a column: whether the column comes first (torch.triangular_solve(b, A), cholesky_solve(b, L)).
MATRIX_AND_COLUMN = {"solve_ex": False, "solve_triangular": False, "triangular_solve": True, "cholesky_solve": True,
                     "lstsq": False}
# The shape ops that take a matrix: the points are (2, 2) matrices of two vectors.
MATRIX_OPS = {"transpose", "permute", "t", "diagonal", "trace", "tril", "triu", "rot90", "transpose_copy", "permute_copy",
              "t_copy", "diagonal_copy", "H", "fliplr", "vsplit", "renorm", "pdist"}
# cross_entropy and nll_loss: (N, C) = (2, 2) inputs of special values, and class indices or
# probabilities (a float target); (C,) inputs and one class index in VARIANTS.
CLASS_TARGETS = [[0, 1], [1, 1], [0, 0]]
LOGITS = [[u, v] for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
CLASS_POINTS = [(x, t) for x in LOGITS for t in CLASS_TARGETS]
ONE_SAMPLE = [(x, t) for x in VECTORS for t in (0, 1)]
PROBABILITY_ROWS = [[0.25, 0.75], [1.0, 0.0], [0.0, 0.0], [nan, 1.0], [inf, 0.5], [-1.0, 2.0]]
WEIGHT = "tensor([0.5, 2.0])"
# layer_norm: rows of three, of moderate size. PyTorch's moments (vectorised Welford, whose lanes
# are combined with delta**2 * n_a * n_b / n) give NaN where delta**2 overflows, an empty lane
# included: layer_norm([1e300, 1e300]) is NaN there; gradcli's two passes give the finite value.
LAYER_ROWS = [([nan, 1.0, 2.0],), ([inf, 1.0, 2.0],), ([0.0, 0.0, 0.0],), ([-0.0, 0.0, -0.0],), ([1.0, 2.0, 3.0],),
              ([3.0, -4.0, 0.5],), ([1e-3, 7.0, -2.0],), ([5e-324, 0.0, 0.0],), ([1e-300, -1e-300, 0.0],),
              ([1000.0, 1.0, 1000.0],), ([-2.5, -2.5, 2.0],)]


def _weight() -> torch.Tensor:
    return torch.tensor([0.5, 2.0], dtype=torch.float64)


# Calls with params, each against PyTorch's: (gradcli's program, PyTorch's, the row it calls).
VARIANTS = [
    ("leaky_relu(a, 0.2)", lambda a: F.leaky_relu(a, 0.2), "leaky_relu"),
    ("leaky_relu(a, negative_slope=-1.5)", lambda a: F.leaky_relu(a, negative_slope=-1.5), "leaky_relu"),
    ("elu(a, alpha=2.0)", lambda a: F.elu(a, alpha=2.0), "elu"),
    ("elu(a, 0.5)", lambda a: F.elu(a, 0.5), "elu"),
    ("celu(a, alpha=2.0)", lambda a: F.celu(a, alpha=2.0), "celu"),
    ("celu(a, 0.25)", lambda a: F.celu(a, 0.25), "celu"),
    ("softplus(a, beta=2.0)", lambda a: F.softplus(a, beta=2.0), "softplus"),
    ("softplus(a, 0.5, 3.0)", lambda a: F.softplus(a, 0.5, 3.0), "softplus"),
    ("softplus(a, threshold=-1.0)", lambda a: F.softplus(a, threshold=-1.0), "softplus"),
    ("gelu(a, approximate='tanh')", lambda a: F.gelu(a, approximate="tanh"), "gelu"),
    ("gelu(a, approximate='none')", lambda a: F.gelu(a, approximate="none"), "gelu"),
    ("hardtanh(a, -0.5, 2.0)", lambda a: F.hardtanh(a, -0.5, 2.0), "hardtanh"),
    ("hardtanh(a, min_val=0.0, max_val=20.0)", lambda a: F.hardtanh(a, min_val=0.0, max_val=20.0), "hardtanh"),
    ("clamp(a, -1.0, 2.0)", lambda a: torch.clamp(a, -1.0, 2.0), "clamp"),
    ("clamp(a, min=0)", lambda a: torch.clamp(a, min=0), "clamp"),
    ("a.clamp(max=0.5)", lambda a: a.clamp(max=0.5), "clamp"),
    ("clip(a, 0.5, -0.5)", lambda a: torch.clip(a, 0.5, -0.5), "clamp"),
    ("a.clip(-1, 1)", lambda a: a.clip(-1, 1), "clamp"),
    ("threshold(a, 0.5, -3.0)", lambda a: F.threshold(a, 0.5, -3.0), "threshold"),
    ("threshold(a, -1.0, 20.0)", lambda a: F.threshold(a, -1.0, 20.0), "threshold"),
    ("mse_loss(a, b, reduction='none')", lambda a, b: F.mse_loss(a, b, reduction="none"), "mse_loss"),
    ("l1_loss(a, b, reduction='sum')", lambda a, b: F.l1_loss(a, b, reduction="sum"), "l1_loss"),
    ("smooth_l1_loss(a, b, beta=0.5)", lambda a, b: F.smooth_l1_loss(a, b, beta=0.5), "smooth_l1_loss"),
    ("smooth_l1_loss(a, b, beta=0.0)", lambda a, b: F.smooth_l1_loss(a, b, beta=0.0), "smooth_l1_loss"),
    ("huber_loss(a, b, reduction='sum', delta=2.0)", lambda a, b: F.huber_loss(a, b, reduction="sum", delta=2.0),
     "huber_loss"),
    ("binary_cross_entropy(a, b, reduction='none')", lambda a, b: F.binary_cross_entropy(a, b, reduction="none"),
     "binary_cross_entropy"),
]
VARIANTS += [  # cross_entropy and nll_loss: (program, PyTorch's, row, points)
    ("cross_entropy(a, b, reduction='sum')", lambda a, b: F.cross_entropy(a, b.long(), reduction="sum"),
     "cross_entropy", ONE_SAMPLE),
    ("cross_entropy(a, b, reduction='none')", lambda a, b: F.cross_entropy(a, b.long(), reduction="none"),
     "cross_entropy", None),
    (f"cross_entropy(a, b, weight={WEIGHT})", lambda a, b: F.cross_entropy(a, b.long(), weight=_weight()),
     "cross_entropy", None),
    (f"cross_entropy(a, b, {WEIGHT}, reduction='none', label_smoothing=0.1)",
     lambda a, b: F.cross_entropy(a, b.long(), _weight(), reduction="none", label_smoothing=0.1), "cross_entropy", None),
    ("cross_entropy(a, b, label_smoothing=0.25)", lambda a, b: F.cross_entropy(a, b.long(), label_smoothing=0.25),
     "cross_entropy", None),
    ("cross_entropy(a, b, ignore_index=1, reduction='sum')",
     lambda a, b: F.cross_entropy(a, b.long(), ignore_index=1, reduction="sum"), "cross_entropy", None),
    ("cross_entropy(a, b, ignore_index=0)", lambda a, b: F.cross_entropy(a, b.long(), ignore_index=0),
     "cross_entropy", None),
    (f"nll_loss(a, b, {WEIGHT}, reduction='sum')", lambda a, b: F.nll_loss(a, b.long(), _weight(), reduction="sum"),
     "nll_loss", None),
    ("nll_loss(a, b, reduction='none')", lambda a, b: F.nll_loss(a, b.long(), reduction="none"), "nll_loss",
     ONE_SAMPLE),
    (f"cross_entropy(a, b * 1.0, weight={WEIGHT}, reduction='none')",
     lambda a, b: F.cross_entropy(a, b * 1.0, weight=_weight(), reduction="none"), "cross_entropy_probs", None),
    ("cross_entropy(a, b * 1.0, label_smoothing=0.2, reduction='sum')",
     lambda a, b: F.cross_entropy(a, b * 1.0, label_smoothing=0.2, reduction="sum"), "cross_entropy_probs", None),
    ("kl_div(a, b, reduction='batchmean', log_target=True)",
     lambda a, b: F.kl_div(a, b, reduction="batchmean", log_target=True), "kl_div", None),
    ("kl_div(a, b, reduction='none')", lambda a, b: F.kl_div(a, b, reduction="none"), "kl_div", None),
    ("cosine_similarity(a, b, 0, 0.5)", lambda a, b: F.cosine_similarity(a, b, 0, 0.5), "cosine_similarity", None),
    ("normalize(a, p=1, dim=0)", lambda a: F.normalize(a, p=1, dim=0), "normalize", None),
    ("normalize(a, 3.0, 0, eps=0.5)", lambda a: F.normalize(a, 3.0, 0, eps=0.5), "normalize", None),
    ("layer_norm(a, (3,), eps=0.25)", lambda a: F.layer_norm(a, (3,), eps=0.25), "layer_norm", LAYER_ROWS),
    ("dropout(a, p=0.5, training=False)", lambda a: F.dropout(a, p=0.5, training=False), "dropout", None),
    ("cross_entropy(a, softmax(b, -1))", lambda a, b: F.cross_entropy(a, torch.softmax(b, -1)), "cross_entropy_probs",
     [(x, p) for x in VECTORS for p in PROBABILITY_ROWS]),
]
# Convolution and pooling: the special values in windows. conv1d: (N, C, L) = (1, 1, 3) inputs, a
# (1, 1, 2) weight, and (1, 2, 3) with two channels and a bias; conv2d: (1, 1, 2, 3) and (1, 1, 1, 2);
# pooling: (1, 3) and (1, 2, 3) inputs, their windows of ties, NaN and infinities, and the padding.
CONV1D_POINTS = [([[[*v, 1.0]]], [[w]]) for v, w in itertools.product(VECTORS, VECTOR_PAIRS)]
CONV2D_POINTS = [([[[[*u, 1.0], [*v, -1.0]]]], [[[w]]])
                 for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS)]
BIASED_CONV_POINTS = [([[[*u, 1.0], [*v, -2.0]]], [[w, [0.5, -1.0]]], [b[0]])
                      for u, v, w, b in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS, VECTOR_PAIRS[:3])]
POOL1D_POINTS = [([[*v, 1.0]],) for v in VECTORS]
POOL2D_POINTS = [([[[*u, 1.0], [*v, -1.0]]],) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
# conv3d: (1, 1, 1, 1, 3) inputs and a (1, 1, 1, 1, 2) weight, of magnitudes whose products round alike with and
# without a fused multiply-add (PyTorch's 3-D kernel fuses them: 1e300 * 1e300 - inf is -inf there, NaN in NumPy);
# 3-D pooling: (1, 2, 2, 3), the second plane plain.
CONV3D_POINTS = [([[[[[*v, 1.0]]]]], [[[[w]]]]) for v, w in itertools.product(VECTORS, VECTOR_PAIRS)
                 if max(abs(t) for t in (*v, *w) if math.isfinite(t)) < 1e100
                 and min((abs(t) for t in (*v, *w) if t), default=1.0) > 1e-100]
POOL3D_POINTS = [([[[[*u, 1.0], [*v, -1.0]], [[0.5, 2.0, -3.0], [1.0, -0.0, 4.0]]]],)
                 for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
# Resampling: (1, 1, 4) inputs for the 1-D modes, (1, 1, 2, 2) for the 2-D ones, (1, 1, 1, 2, 2) for trilinear.
RESAMPLE1D_POINTS = [([[[*u, *v]]],) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
RESAMPLE2D_POINTS = [([[u, v]],) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
VARIANTS += [
    ("interpolate(a, size=(3, 3), mode='bicubic')", lambda a: F.interpolate(a, size=(3, 3), mode="bicubic"),
     "interpolate", [([p],) for (p,) in RESAMPLE2D_POINTS]),
    ("interpolate(a, scale_factor=1.7, mode='bilinear', align_corners=True)",
     lambda a: F.interpolate(a, scale_factor=1.7, mode="bilinear", align_corners=True), "interpolate",
     [([p],) for (p,) in RESAMPLE2D_POINTS]),
    ("interpolate(a, size=(2, 3, 3), mode='trilinear')", lambda a: F.interpolate(a, size=(2, 3, 3), mode="trilinear"),
     "interpolate", [([[p]],) for (p,) in RESAMPLE2D_POINTS]),
    ("interpolate(a, size=6)", lambda a: F.interpolate(a, size=6), "interpolate", RESAMPLE1D_POINTS),
    ("interpolate(a, scale_factor=0.6, mode='nearest-exact')",
     lambda a: F.interpolate(a, scale_factor=0.6, mode="nearest-exact"), "interpolate", RESAMPLE1D_POINTS),
    ("interpolate(a, size=3, mode='area')", lambda a: F.interpolate(a, size=3, mode="area"), "interpolate",
     RESAMPLE1D_POINTS),
    ("adaptive_max_pool2d(a, (1, 2))", lambda a: F.adaptive_max_pool2d(a, (1, 2)), "adaptive_max_pool2d", None),
]
VARIANTS += [
    ("conv1d(a, b, c, stride=2, padding=1)", lambda a, b, c: F.conv1d(a, b, c, stride=2, padding=1), "conv1d",
     BIASED_CONV_POINTS),
    ("conv1d(a, b, padding='same', dilation=2)", lambda a, b: F.conv1d(a, b, padding="same", dilation=2), "conv1d",
     None),
    ("conv2d(a, b, padding='same')", lambda a, b: F.conv2d(a, b, padding="same"), "conv2d", None),
    ("conv2d(a[0], b, padding=(1, 0), stride=(1, 2))", lambda a, b: F.conv2d(a[0], b, padding=(1, 0), stride=(1, 2)),
     "conv2d", None),
    ("avg_pool1d(a, 2, ceil_mode=True)", lambda a: F.avg_pool1d(a, 2, ceil_mode=True), "avg_pool1d", None),
    ("avg_pool1d(a, 3, padding=1, count_include_pad=False)",
     lambda a: F.avg_pool1d(a, 3, padding=1, count_include_pad=False), "avg_pool1d", None),
    ("avg_pool2d(a, (1, 2), 1, (0, 1), True, False)", lambda a: F.avg_pool2d(a, (1, 2), 1, (0, 1), True, False),
     "avg_pool2d", None),
    ("max_pool1d(a, 3)", lambda a: F.max_pool1d(a, 3), "max_pool1d", None),
    ("max_pool1d(a, 2, ceil_mode=True)", lambda a: F.max_pool1d(a, 2, ceil_mode=True), "max_pool1d", None),
    ("max_pool1d(a, 2, 1, 1, dilation=2)", lambda a: F.max_pool1d(a, 2, 1, 1, dilation=2), "max_pool1d", None),
    ("max_pool2d(a, (2, 3))", lambda a: F.max_pool2d(a, (2, 3)), "max_pool2d", None),
    ("max_pool2d(a, 2, stride=2, padding=1, ceil_mode=True)",
     lambda a: F.max_pool2d(a, 2, stride=2, padding=1, ceil_mode=True), "max_pool2d", None),
]
LOSSES = ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy_with_logits", "kl_div",
          "cosine_similarity", "soft_margin_loss", "hinge_embedding_loss", "poisson_nll_loss",
          "multilabel_soft_margin_loss_unweighted", "pairwise_distance")
# The losses of three vectors (a target or a variance third: ones, zeros, NaN, infinities among them).
THIRDS = {"margin_ranking_loss": [[1.0, -1.0], [0.0, nan]], "gaussian_nll_loss": [[1.0, 2.0], [0.0, 1e-300], [nan, inf]],
          "multilabel_soft_margin_loss": [[1.0, 0.5], [0.0, inf]], "triplet_margin_loss": [[0.0, 1.0], [nan, -inf]],
          "cosine_embedding_loss": [1.0, -1.0, 0.0], "diff_padded": [[1.0], [nan, inf]]}
# binary_cross_entropy takes probabilities (PyTorch refuses anything outside [0, 1], NaN too).
PROBABILITY_PAIRS = [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [1e-300, 1.0], [0.2, 0.9], [5e-324, 0.75], [-0.0, 0.3]]
# The layers of torch.nn.functional, each at the shape its reference takes (a pair of vectors' values).
def _pairs() -> list[tuple[list[float], list[float]]]:
    return list(itertools.product(VECTOR_PAIRS, repeat=2))


# The norms' pairs: special values of moderate size (PyTorch's moments overflow past 1e153, where its Welford steps
# and gradcli's two passes differ: see LAYER_ROWS).
NORM_PAIRS = [[nan, 1.0], [inf, 1.0], [0.0, 0.0], [-0.0, 0.0], [1.0, 2.0], [3.0, -4.0], [1e-3, 7.0], [5e-324, 0.0],
              [1e-300, -1e-300], [-2.5, -2.5]]


def _norm_pairs() -> list[tuple[list[float], list[float]]]:
    return list(itertools.product(NORM_PAIRS, repeat=2))


GRID_POINTS = [[0.25, -0.5], [1.0, 1.0], [-1.2, 0.3], [0.0, 0.0], [-1.0, 0.75]]  # inside, on the edges, outside
LAYERS = {
    "pixel_shuffle": lambda: [([[[u[0]]], [[u[1]]], [[v[0]]], [[v[1]]]],) for u, v in _pairs()],  # (4, 1, 1)
    "pixel_unshuffle": lambda: [([[u, v]],) for u, v in _pairs()],  # (1, 2, 2)
    "channel_shuffle": lambda: [([[[u[0]], [u[1]], [v[0]], [v[1]]]],) for u, v in _pairs()],  # (1, 4, 1)
    "embedding": lambda: [([u, v], i) for u, v in _pairs() for i in ([1, 0, 1], [0])],  # a (2, 2) weight, indices
    "embedding_aten": lambda: [([u, v], i) for u, v in _pairs() for i in ([1, 0, 1], [0])],  # (torch.embedding's)
    "rms_norm": lambda: [(row, [0.5, -1.0, 2.0]) for (row,) in LAYER_ROWS],
    "rms_norm_unweighted": lambda: LAYER_ROWS,
    # max_unpool: a (C, L) = (1, 2), (1, 1, 2) or (1, 1, 1, 2) input of a pair, sent to two places of the output
    "max_unpool1d": lambda: [([u], i) for u in VECTOR_PAIRS for i in ([[0, 3]], [[2, 1]])],
    "max_unpool2d": lambda: [([[u]], i) for u in VECTOR_PAIRS for i in ([[[0, 7]]], [[[5, 2]]])],
    "max_unpool3d": lambda: [([[[u]]], i) for u in VECTOR_PAIRS for i in ([[[[0, 15]]]], [[[[9, 4]]]])],
    # the norms: (N, C) = (2, 2) inputs of two pairs (NORM_PAIRS) for batch_norm (running stats, weight, bias), (1, 2, 2) for the
    # instance and group norms (two channels of a pair each)
    "batch_norm": lambda: [([u, v], [0.5, -1.0], [1.0, 2.0]) for u, v in _norm_pairs()],
    "native_batch_norm": lambda: [([u, v], [0.5, -1.0], [1.0, 0.0], [0.5, -1.0], [1.0, 2.0]) for u, v in _norm_pairs()],
    "_native_batch_norm_legit": lambda: [([u, v], [0.5, -1.0], [1.0, 0.0], [0.5, -1.0], [1.0, 2.0]) for u, v in _norm_pairs()],
    "group_norm": lambda: [([[u, v]], [0.5, -1.0], [1.0, 0.0]) for u, v in _norm_pairs()],
    "native_group_norm": lambda: [([[u, v]], [0.5, -1.0], [1.0, 0.0]) for u, v in _norm_pairs()],
    "instance_norm": lambda: [([[u, v]], [0.5, -1.0], [1.0, 2.0], [0.5, -1.0], [1.0, 0.0]) for u, v in _norm_pairs()],
    "prelu": lambda: [([u], v) for u, v in _pairs()],  # a (1, 2) input, a weight per channel
    "bilinear": lambda: [(u, v, [[[1.0, -2.0], [0.5, 3.0]]], [0.5]) for u, v in _pairs()],  # (2,) x (1, 2, 2) x (2,)
    "im2col": lambda: POOL2D_POINTS,  # (1, 2, 3): F.unfold(a, 2)'s two blocks
    "col2im": lambda: [([[*u, *v], [*v, *u], [0.5, 1.0, -1.0, 2.0], [*u, 0.5, 1.0]],) for u, v in _pairs()],  # (4, 4)
    # linear_cross_entropy: (N, in) = (2, 2) inputs, a (2, 2) weight, a class per sample
    "linear_cross_entropy": lambda: [([u, v], [[1.0, -2.0], [0.5, 3.0]], t) for u, v in _pairs() for t in ([0, 1], [1, 1])],
    # grid_sample: a (1, 1, 2, 2) input of two pairs (a (1, 1, 1, 2, 2) one in 3-D), sampled at one point of a grid
    # (pairs of moderate size: at 1e300 the corners' differences cancel in each kernel's own order)
    "grid_sample": lambda: [([[[u, v]]], [[[g]]]) for u, v in _norm_pairs() for g in GRID_POINTS],
    "grid_sampler_2d": lambda: [([[[u, v]]], [[[g]]]) for u, v in _norm_pairs() for g in GRID_POINTS],
    "grid_sampler_3d": lambda: [([[[[u, v]]]], [[[[[*g, 0.0]]]]]) for u, v in _norm_pairs() for g in GRID_POINTS],
    "local_response_norm": lambda: [([[u, v]],) for u, v in _norm_pairs()],  # (1, 2, 2)
    "_softmax_backward_data": _pairs,
    # the margin losses: (N, C) = (2, 2) inputs, a class for each sample (a list of classes, ended by -1)
    "multi_margin_loss": lambda: [([u, v], t) for u, v in _pairs() for t in ([0, 1], [1, 1])],
    "multilabel_margin_loss": lambda: [([u, v], t) for u, v in _pairs() for t in ([[0, -1], [1, 0]], [[1, -1], [-1, 0]])],
    "native_layer_norm": lambda: [(row, [0.5, -1.0, 2.0], [1.0, 0.0, -1.0]) for (row,) in LAYER_ROWS],
}


def points_of(name: str) -> list[tuple]:
    op = OPS[name]
    if name.endswith("_with_indices"):  # (its values: at the points of the row without indices)
        return points_of(name.removesuffix("_with_indices"))
    if name == "cross":  # 3-vectors
        return [([*u, 1.0], [*v, -2.0]) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
    if name in ("cross_entropy", "nll_loss", "cross_entropy_smoothed"):
        return CLASS_POINTS
    if name == "cross_entropy_probs":
        return [(x, [p, q]) for x in LOGITS[::3] for p in PROBABILITY_ROWS for q in PROBABILITY_ROWS[:2]]
    if name == "layer_norm":
        return LAYER_ROWS
    if name in ("conv1d", "conv2d", "conv3d"):
        return {"conv1d": CONV1D_POINTS, "conv2d": CONV2D_POINTS, "conv3d": CONV3D_POINTS}[name]
    if name in ("avg_pool3d", "max_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d"):
        return POOL3D_POINTS
    if name in ("adaptive_avg_pool1d", "adaptive_max_pool1d"):
        return POOL1D_POINTS
    if name in ("adaptive_avg_pool2d", "adaptive_max_pool2d"):
        return POOL2D_POINTS
    if name in ("conv_transpose1d", "conv_transpose2d", "conv_transpose3d"):  # the conv points, one dim deeper each
        return {"conv_transpose1d": CONV1D_POINTS, "conv_transpose2d": [([x], [w]) for x, w in CONV1D_POINTS],
                "conv_transpose3d": CONV3D_POINTS}[name]
    if name in ("pad_edges", "constant_pad_nd"):
        return POOL1D_POINTS
    if name in ("interpolate", "upsample_nearest"):
        return RESAMPLE1D_POINTS if name == "interpolate" else [([p[0]],) for p, in RESAMPLE2D_POINTS]
    if name == "upsample_bilinear":
        return [([p],) for (p,) in RESAMPLE2D_POINTS]
    if name in ("avg_pool1d", "max_pool1d"):
        return POOL1D_POINTS
    if name in ("avg_pool2d", "max_pool2d"):
        return POOL2D_POINTS
    if name == "binary_cross_entropy":
        return list(itertools.product(PROBABILITY_PAIRS, repeat=2))
    if name in ("scatter", "scatter_add", "scatter_reduce", "index_add", "index_copy", "index_reduce", "put"):
        return [(x, s, i) for x in VECTOR_PAIRS for s in VECTOR_PAIRS for i in WRITE_INDICES]
    if name == "index_fill":  # a number, written at the index
        return [(x, v, i) for x in VECTOR_PAIRS for v in PAIR_VALUES[:6] for i in WRITE_INDICES]
    if name == "expand_as":  # a vector of one, stretched along a pair
        return [([u[0]], v) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
    if name in LAYERS:
        return LAYERS[name]()
    if name in THIRDS:
        return [(u, v, w) for u, v in itertools.product(VECTOR_PAIRS, repeat=2) for w in THIRDS[name]]
    if name.startswith("masked.") and name.endswith(".where"):  # torch.masked's: where a mask holds (none, all)
        return [(v, m) for v in VECTORS for m in ([1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0])]
    if name == "masked.logaddexp":
        return list(itertools.product(VECTOR_PAIRS, repeat=2))
    if name == "masked_scatter":  # a pair, where a mask holds (NaN holds), filled from another pair in order
        return [(x, m, v) for x in VECTOR_PAIRS for m in ([1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [nan, 0.0]) for v in VECTOR_PAIRS]
    if name in ("diagonal_scatter", "select_scatter"):  # a (2, 2) matrix, and a vector put on its diagonal or row
        return [([u, v], w) for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS)]
    if name in ("baddbmm", "addbmm"):  # a (1, 1) input, plus a batch of one (1, 2) row times a (2, 1) column
        return [([[x]] if name == "addbmm" else [[[x]]], [[u]], [[[w[0]], [w[1]]]])
                for u, w in itertools.product(VECTOR_PAIRS, repeat=2) for x in (0.5, nan)]
    if name == "dsplit":  # a (1, 1, 2) value
        return [([[v]],) for v in VECTORS]
    if name in ("dot", "vdot", "vecdot", "dist", "trapezoid_x", "cumulative_trapezoid_x", "inner", "outer", "mask_index",
                "masked_select", "einsum", "tensordot", "kron", "multi_dot", "meshgrid", "cartesian_prod", *LOSSES):
        return list(itertools.product(VECTOR_PAIRS, repeat=2))
    if name == "lu_unpack":  # a packed (2, 2) LU and LAPACK's 1-based pivots (a swap, or none)
        return [([u, v], p) for u, v in itertools.product(VECTOR_PAIRS[:4], repeat=2) for p in ([2, 2], [1, 2])]
    if name == "lu_solve":  # a (2, 1) column, a packed (2, 2) LU, clearly invertible, and its pivots
        return [([[w[0]], [w[1]]], [u, v], p) for u, v, w in itertools.product(MATRIX_ROWS, MATRIX_ROWS, MATRIX_ROWS[:5])
                if clear_cut([u, v], True) for p in ([2, 2], [1, 2])]
    if name == "cdist":  # the distances of a (2, 2) matrix's rows to a (1, 2) one's
        return [([u, v], [w]) for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS)]
    if name in ("matmul", "mv"):  # a (2, 2) matrix times a vector
        return [([u, v], w) for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS)]
    if name == "mm":  # a (2, 2) matrix times a (2, 1) one
        return [([u, v], [[w[0]], [w[1]]]) for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4],
                                                                             VECTOR_PAIRS)]
    if name in ("det", "inv", "logdet"):  # (2, 2) matrices: singular ones among them (but for logdet)
        return [([u, v],) for u, v in itertools.product(MATRIX_ROWS, repeat=2) if clear_cut([u, v], name == "logdet")]
    if name in ("solve", "tensorsolve"):  # a (2, 2) matrix and a vector
        return [([u, v], w) for u, v, w in itertools.product(MATRIX_ROWS, MATRIX_ROWS, MATRIX_ROWS[:5])
                if clear_cut([u, v], True)]
    if name == "addmm":  # a vector added to a (2, 2) matrix times a (2, 2) one
        return [(w, [u, v], [[1.0, 0.5], [-1.0, 2.0]]) for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4],
                                                                                          VECTOR_PAIRS)]
    if name == "addmv":  # a vector added to a (2, 2) matrix times a vector
        return [(x, [u, v], w) for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS)
                for x in ([0.5, -1.0], [nan, 1.0])]
    if name == "addr":  # a (2, 2) matrix added to the outer product of two vectors
        return [(m, u, v) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)
                for m in ([[1.0, 2.0], [3.0, 4.0]], [[nan, 0.0], [inf, -0.0]])]
    if name in ("linear", "linear_nobias"):  # a (1, 2) input, a (2, 2) weight (and a bias)
        bias = ([1.0, -1.0],) if name == "linear" else ()
        return [([x], [u, v], *bias) for u, v, x in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS)]
    if name == "bmm":  # a batch of one (1, 2) row times a batch of one (2, 1) column
        return [([[u]], [[[w[0]], [w[1]]]]) for u, w in itertools.product(VECTOR_PAIRS, repeat=2)]
    if name == "polygamma":  # a number, and the order n (an integer input)
        return [(x, n) for x in SCALARS for n in (0, 1, 2, 3)]
    if op.index_from is not None and op.arity == 2:  # a vector, and an index into it (an integer input)
        return [(v, i) for v in VECTORS for i in ([1, 0, 1], [1], [0, 0])]
    if name == "stack":
        return list(itertools.product(PAIR_VALUES, repeat=2))
    if name in ("cat", "hstack", "vstack", "dstack", "column_stack", "block_diag", "broadcast_tensors"):
        return list(itertools.product(VECTOR_PAIRS, repeat=2))
    if name == "view_as":  # a vector of two, viewed as a (2, 1) column
        return [(u, [[v[0]], [v[1]]]) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
    if name in ("squeeze", "squeeze_copy"):  # a (1, 2) matrix
        return [([v],) for v in VECTORS]
    if name in MATRIX_OPS:
        return [([u, v],) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
    if name in DECOMPOSITIONS:  # (2, 2) matrices that are clearly invertible; symmetric ones where one triangle is read
        symmetric = DECOMPOSITIONS[name]
        return [([u, [u[1], v[1]]] if symmetric else [u, v],) for u, v in itertools.product(MATRIX_ROWS, repeat=2)
                if clear_cut([u, [u[1], v[1]]] if symmetric else [u, v], True)]
    if name in MATRIX_AND_COLUMN:  # a (2, 2) matrix, clearly invertible, and a (2, 1) column (first where the row says)
        pairs = [([u, v], [[w[0]], [w[1]]]) for u, v, w in itertools.product(MATRIX_ROWS, MATRIX_ROWS, MATRIX_ROWS[:5])
                 if clear_cut([u, v], True)]
        return [(b, a) for a, b in pairs] if MATRIX_AND_COLUMN[name] else pairs
    if name == "as_strided_scatter":  # a vector, and the one element written into its second
        return [(u, [v[0]]) for u, v in itertools.product(VECTOR_PAIRS, repeat=2)]
    if not op.elementwise:  # reductions and indexing of one vector
        return [(v,) for v in VECTORS]
    if op.arity == 3 and op.conditions:  # where, masked_fill: a condition that holds, fails, or is NaN
        return list(itertools.product(*[[1.0, 0.0, -0.0, nan] if i in op.conditions else PAIR_VALUES
                                        for i in range(3)]))
    if op.arity == 3:
        return list(itertools.product(TRIPLE_VALUES, repeat=3))
    if op.arity == 2:
        return list(itertools.product(PAIR_VALUES, repeat=2))
    return [(x,) for x in SCALARS]


def clear_cut(matrix: list, invertible: bool) -> bool:
    """Left out: a matrix singular only up to rounding (whether its det rounds to 0 is the
    algorithm's choice: PyTorch's det of [[0.5, -3], [0.5, -3]] is 8e-17), and a singular one
    where `invertible` (logdet's gradient there is inf and NaN in a pattern of PyTorch's LU solve)."""
    det = matrix[0][0] * matrix[1][1] - matrix[0][1] * matrix[1][0]
    scale = max(abs(v) for row in matrix for v in row) ** 2
    exact = math.isclose(det, 0.0, abs_tol=1e-12 * scale)
    return not (exact and (invertible or torch.linalg.det(torch.tensor(matrix, dtype=torch.float64)) != 0))


def number(x):
    """JSON has no NaN or infinities: those are written as strings."""
    if isinstance(x, list):
        return [number(v) for v in x]
    return x if math.isfinite(x) else repr(x)


def run(name: str, args: tuple, seed: float, function=None) -> list | None:
    index_from = OPS[name].index_from
    tensors = [torch.tensor(a, dtype=torch.int64) if index_from is not None and 0 < index_from <= i
               else torch.tensor(a, dtype=torch.float64, requires_grad=i not in OPS[name].conditions)
               for i, a in enumerate(args)]
    try:
        out = (function or TORCH[name])(*tensors)
    except RuntimeError:  # inv and solve of a singular matrix raise, as gradcli does: no row
        return None
    # A vector output is seeded [seed, 1, 1, ...]: what comes in at one element stays there.
    grad_out = torch.ones(out.shape, dtype=torch.float64)  # (contiguous: a transpose's own strides would not view as one row)
    grad_out.view(-1)[:1] = seed
    if out.requires_grad and name not in NO_DERIVATIVE:
        out.backward(grad_out)
    # A comparison's mask (a boolean) has no grad_fn: PyTorch's backward would refuse it; gradcli
    # gives the gradient of a value that depends on no input, zeros.
    out = out.double()
    # (sgn's gradient is PyTorch's efficient zero tensor, which holds no values to list: zeros)
    grads = [torch.zeros_like(t) if t.grad is None or t.grad._is_zerotensor() else t.grad for t in tensors]
    return [number(a) for a in args] + [number(grad_out.tolist()), number(out.tolist())] + [
        number(g.tolist()) for g in grads]


def node_of(name: str, function=None, points=None) -> str | None:
    """The name of the node PyTorch records for the program at its first point where it runs
    (grad_fn's type; inv of a singular matrix raises)."""
    index_from = OPS[name].index_from
    for args in points or points_of(name):
        tensors = [torch.tensor(a, dtype=torch.int64) if index_from is not None and 0 < index_from <= i
                   else torch.tensor(a, dtype=torch.float64, requires_grad=i not in OPS[name].conditions)
                   for i, a in enumerate(args)]
        try:
            out = (function or TORCH[name])(*tensors)
        except RuntimeError:
            continue
        return None if out.grad_fn is None else type(out.grad_fn).__name__
    raise SystemExit(f"{name}: PyTorch raises at every point")


def entry(name: str, program: str, function=None, points=None) -> str:
    """The JSON of one program: PyTorch's value and gradients at each point and seed."""
    points = points or points_of(name)
    inputs = list("abcdf"[: len(points[0])])
    rows = [row for args in points for seed in SEEDS if (row := run(name, args, seed, function)) is not None]
    header = json.dumps({"op": name, "program": program, "inputs": inputs, "torch_node": node_of(name, function, points),
                         "row": [*inputs, "seed", "value", *[f"grad {i}" for i in inputs]]})
    return header[:-1] + ', "rows": [\n' + ",\n".join(json.dumps(r, allow_nan=False) for r in rows) + "\n]}"


def main() -> None:
    torch.set_default_dtype(torch.float64)
    lines = [entry(name, program) for name, program in PROGRAMS.items()]
    variants = [entry(name, program, function, *points) for program, function, name, *points in VARIANTS]
    ranges = {"arange": [[list(args), torch.arange(*args, dtype=torch.float64).tolist()] for args in ARANGES],
              "linspace": [[list(args), torch.linspace(*args, dtype=torch.float64).tolist()] for args in LINSPACES]}
    RANGES_OUT.write_text(json.dumps({"torch": torch.__version__, **ranges}, allow_nan=False) + "\n")
    OUT.write_text('{"torch": ' + json.dumps(torch.__version__) + ', "ops": [\n' + ",\n".join(lines) + '\n],\n"variants": [\n'
                   + ",\n".join(variants) + "\n]}\n")
    print(f"{OUT}: {len(lines)} ops, {len(variants)} calls with params")


if __name__ == "__main__":
    main()
