"""PyTorch's values and gradients for every op of gradcli's table, at special points.

Run it with a Python that has PyTorch (CPU is enough; everything is float64):

    /path/to/python-with-torch tests/reference/make_torch_reference.py

It writes tests/reference/torch_special_points.json, which tests/test_torch_reference.py
holds gradcli against (that test needs no torch), and tests/reference/torch_ranges.json:
torch.arange and torch.linspace (float64) for the values' arange and linspace. The ops are those of gradcli.ops.OPS: an op
of the table without a PyTorch counterpart below stops the script, and the test fails while
an op of the table is missing from the file. Regenerate after adding an op.

Points: NaN, both infinities, both zeros, the smallest subnormal, tiny and huge magnitudes,
ties (every pair of the special values, a == b included), the thresholds of softplus and
the underflow of exp; each at the upstream gradients 1, 0 and NaN (a NaN coming in from
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
SEEDS = [1.0, 0.0, nan]

# How PyTorch writes each op of the table; `a`, `b` are the inputs.
TORCH = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
    "pow": torch.pow, "matmul": lambda a, b: a @ b, "neg": lambda a: -a,
    "exp": torch.exp, "log": torch.log, "log2": torch.log2, "log10": torch.log10, "log1p": torch.log1p,
    "expm1": torch.expm1, "sqrt": torch.sqrt, "abs": torch.abs, "sin": torch.sin, "cos": torch.cos,
    "tan": torch.tan, "asin": torch.asin, "acos": torch.acos, "atan": torch.atan, "sinh": torch.sinh,
    "cosh": torch.cosh, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu, "softplus": F.softplus,
    "square": torch.square, "rsqrt": torch.rsqrt, "reciprocal": torch.reciprocal, "exp2": torch.exp2,
    "asinh": torch.asinh, "acosh": torch.acosh, "atanh": torch.atanh,
    "sign": torch.sign, "floor": torch.floor, "ceil": torch.ceil, "round": torch.round, "trunc": torch.trunc,
    "erf": torch.erf, "erfc": torch.erfc,
    "hypot": torch.hypot, "logaddexp": torch.logaddexp, "logaddexp2": torch.logaddexp2, "copysign": torch.copysign,
    "deg2rad": torch.deg2rad, "rad2deg": torch.rad2deg, "xlogy": torch.xlogy, "fmax": torch.fmax, "fmin": torch.fmin,
    "relu6": F.relu6, "hardtanh": F.hardtanh, "leaky_relu": F.leaky_relu, "hardsigmoid": F.hardsigmoid,
    "hardswish": F.hardswish,
    "elu": F.elu, "selu": F.selu, "celu": F.celu, "silu": F.silu, "mish": F.mish, "logsigmoid": F.logsigmoid,
    "softsign": F.softsign, "tanhshrink": F.tanhshrink,
    "gelu": F.gelu, "clamp": lambda a: torch.clamp(a, -1.0, 2.0), "threshold": lambda a: F.threshold(a, 0.5, -3.0),
    "mse_loss": F.mse_loss, "l1_loss": F.l1_loss, "smooth_l1_loss": F.smooth_l1_loss, "huber_loss": F.huber_loss,
    "binary_cross_entropy": F.binary_cross_entropy,
    "binary_cross_entropy_with_logits": F.binary_cross_entropy_with_logits,
    "glu": F.glu,
    "clamp_min": lambda a: torch.clamp_min(a, 0.5), "clamp_max": lambda a: torch.clamp_max(a, 0.5),
    "max": torch.maximum, "min": torch.minimum, "atan2": torch.atan2, "dot": torch.dot,
    "sum": torch.sum, "mean": torch.mean, "norm": torch.linalg.vector_norm,
    "logsumexp": lambda a: torch.logsumexp(a, dim=0),
    "getitem": lambda a: a[1], "stack": lambda a, b: torch.stack([a, b]),
}
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
LOSSES = ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy_with_logits")
# binary_cross_entropy takes probabilities (PyTorch refuses anything outside [0, 1], NaN too).
PROBABILITY_PAIRS = [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [1e-300, 1.0], [0.2, 0.9], [5e-324, 0.75], [-0.0, 0.3]]
# gradcli's program for the ops that are not called by name.
PROGRAMS = {"matmul": "a @ b", "getitem": "a[1]", "stack": "[a, b]", "neg": "-a", "clamp": "clamp(a, -1.0, 2.0)",
            "threshold": "threshold(a, 0.5, -3.0)",
            "clamp_min": "clamp_min(a, 0.5)", "clamp_max": "a.clamp_max(0.5)"}


def program_of(name: str) -> str:
    op = OPS[name]
    if name in PROGRAMS:
        return PROGRAMS[name]
    if op.symbol is not None and op.arity == 2:
        return f"a {op.symbol} b"
    return f"{name}(a, b)" if op.arity == 2 else f"{name}(a)"


def points_of(name: str) -> list[tuple]:
    op = OPS[name]
    if name == "binary_cross_entropy":
        return list(itertools.product(PROBABILITY_PAIRS, repeat=2))
    if name in ("dot", *LOSSES):
        return list(itertools.product(VECTOR_PAIRS, repeat=2))
    if name == "matmul":  # a (2, 2) matrix times a vector
        return [([u, v], w) for u, v, w in itertools.product(VECTOR_PAIRS[:4], VECTOR_PAIRS[:4], VECTOR_PAIRS)]
    if name == "stack":
        return list(itertools.product(PAIR_VALUES, repeat=2))
    if not op.elementwise:  # reductions and indexing of one vector
        return [(v,) for v in VECTORS]
    if op.arity == 2:
        return list(itertools.product(PAIR_VALUES, repeat=2))
    return [(x,) for x in SCALARS]


def number(x):
    """JSON has no NaN or infinities: those are written as strings."""
    if isinstance(x, list):
        return [number(v) for v in x]
    return x if math.isfinite(x) else repr(x)


def run(name: str, args: tuple, seed: float, function=None) -> list:
    tensors = [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in args]
    out = (function or TORCH[name])(*tensors)
    # A vector output is seeded [seed, 1, 1, ...]: what comes in at one element stays there.
    grad_out = torch.ones_like(out)
    grad_out.view(-1)[:1] = seed
    out.backward(grad_out)
    grads = [torch.zeros_like(t) if t.grad is None else t.grad for t in tensors]
    return [number(a) for a in args] + [number(grad_out.tolist()), number(out.tolist())] + [
        number(g.tolist()) for g in grads]


def entry(name: str, program: str, function=None) -> str:
    """The JSON of one program: PyTorch's value and gradients at each point and seed."""
    inputs = ["a", "b"][: len(points_of(name)[0])]
    rows = [run(name, args, seed, function) for args in points_of(name) for seed in SEEDS]
    header = json.dumps({"op": name, "program": program, "inputs": inputs,
                         "row": [*inputs, "seed", "value", *[f"grad {i}" for i in inputs]]})
    return header[:-1] + ', "rows": [\n' + ",\n".join(json.dumps(r, allow_nan=False) for r in rows) + "\n]}"


def main() -> None:
    missing = sorted(set(OPS) - set(TORCH))
    if missing:
        raise SystemExit(f"no PyTorch counterpart for {missing}: add it to TORCH")
    torch.set_default_dtype(torch.float64)
    lines = [entry(name, program_of(name)) for name in OPS]
    variants = [entry(name, program, function) for program, function, name in VARIANTS]
    ranges = {"arange": [[list(args), torch.arange(*args, dtype=torch.float64).tolist()] for args in ARANGES],
              "linspace": [[list(args), torch.linspace(*args, dtype=torch.float64).tolist()] for args in LINSPACES]}
    RANGES_OUT.write_text(json.dumps({"torch": torch.__version__, **ranges}, allow_nan=False) + "\n")
    OUT.write_text('{"torch": ' + json.dumps(torch.__version__) + ', "ops": [\n' + ",\n".join(lines) + '\n],\n"variants": [\n'
                   + ",\n".join(variants) + "\n]}\n")
    print(f"{OUT}: {len(lines)} ops, {len(variants)} calls with params")


if __name__ == "__main__":
    main()
