"""THE table of primitives: one row per op, holding everything gradcli knows about it.

A row (core.Op) holds the op's name in the language, its arity, its symbol, precedence and
print rule for operators, the NumPy forward, its derivative (written once for an elementwise
op, from which the VJP, the JVP and the float rules are derived), the SymPy builder, its shape
check and the name of the node PyTorch records for it in `grad_fn`. Adding an op is adding a
row; nothing else in gradcli lists ops or branches on an op's name.

    core.py         the row type, the adapters that derive rules, applying a rule (call_*)
    elementwise.py  the elementwise rows: operators and functions
    predicates.py   isnan, isinf, isfinite, signbit...: the questions about each number, bool masks
    reductions.py   sum, mean, norm, logsumexp
    structure.py    indexing, list literals
    linalg.py       products and linear algebra: @, mm, mv, bmm, dot, outer, inner
    indexing.py     indexing by integer arrays: v[[0, 2]], v[idx]
    construct.py    ones_like, zeros_like; the constructors (tensor, ones, arange...), folded at once
    nn.py           torch.nn.functional's losses
    losses.py       more of them: margin, hinge, soft margin, Poisson, Gaussian, triplet, cosine embedding
    layers.py       embedding, pixel_shuffle, pixel_unshuffle, channel_shuffle, rms_norm
    conv.py         convolution and pooling: conv1d/2d/3d, conv_transpose1d/2d/3d, avg_pool1d/2d/3d, max_pool1d/2d/3d
    resample.py     interpolate (every mode), upsample_nearest/bilinear, adaptive_avg/max_pool1d/2d/3d
    decompositions.py  cholesky, qr, eigh, svd, slogdet, pinv, matrix_exp...: LAPACK's values, PyTorch's derivatives
    sorting.py      sort, argsort, msort, topk, kthvalue, mode, median, nanmedian, cummax, cummin, aminmax
    special.py      torch.special's functions (i0, ndtr, erfcx...), nan_to_num, the shrinks, rsub, ldexp, frexp
    masked.py       torch.masked's functions: sum, mean, amax, softmax, var... where a mask holds
    lu.py           linalg.lu_factor(_ex), torch.lu, linalg.lu, lu_unpack, lu_solve: LAPACK's getrf, PyTorch's derivatives
    statistics.py   renorm, cdist, pdist: norms of slices and distances of rows, PyTorch's kernels' derivatives
    writes.py       y[k] = v on a tensor with a graph (gradcli run): IndexPutBackward0, CopySlices, AsStridedBackward0
    recurrent.py    one LSTM layer over a sequence, oneDNN's fused node (gradcli run's nn.LSTM)
    compositions.py linalg.multi_dot, diagflat, linalg.vander, tensorinv, tensorsolve, cov, corrcoef: PyTorch's programs
    numpy_forms.py  np.dot, np.median, np.cumsum...: NumPy's semantics where they are not PyTorch's, programs of rows
"""

from __future__ import annotations

from gradcli.ops import (
    compositions,
    construct,
    conv,
    decompositions,
    elementwise,
    indexing,
    layers,
    linalg,
    losses,
    lu,
    masked,
    nn,
    numpy_forms,
    predicates,
    recurrent,
    reductions,
    resample,
    shape,
    sorting,
    special,
    statistics,
    structure,
    writes,
)
from gradcli.ops.construct import CONSTRUCTORS, DTYPES, MEMORY_FORMATS, SIZED
from gradcli.ops.core import (
    FLOATS,
    NUMPY,
    UNIT,
    Op,
    Unit,
    call_forward,
    call_jvp,
    call_vjp,
    load_sympy,
    node_text,
    ones_for,
    shape_message,
    torch_node_name,
    unbroadcast,
)

__all__ = [
    "BINARY_OPERATORS",
    "CONSTANTS",
    "CONSTRUCTORS",
    "DTYPES",
    "FAMILY_FUNCTIONS",
    "FLOATS",
    "FUNCTIONS",
    "MEMORY_FORMATS",
    "METHODS",
    "MODULES",
    "NUMPY",
    "OPS",
    "PREFIX_OPERATORS",
    "SCALAR_OVERLOADS",
    "SIZED",
    "UNIT",
    "Op",
    "Unit",
    "call_forward",
    "call_jvp",
    "call_vjp",
    "load_sympy",
    "node_text",
    "ones_for",
    "shape_message",
    "torch_node_name",
    "unbroadcast",
]

# The modules of rows, in the table's order: a new module of rows is added here alone.
MODULES = (elementwise, predicates, reductions, structure, linalg, shape, indexing, construct, nn, losses, layers, conv, resample,
           sorting, special, decompositions, masked, compositions, numpy_forms, statistics, lu, writes, recurrent)
OPS: dict[str, Op] = {op.name: op for module in MODULES for op in module.ROWS}

# The infix and prefix operators of the language, and the ops they stand for.
BINARY_OPERATORS = {op.symbol: op for op in OPS.values() if op.symbol and op.arity == 2}
PREFIX_OPERATORS = {op.symbol: op for op in OPS.values() if op.symbol and op.arity == 1}
FUNCTIONS = {op.name: op for op in OPS.values() if op.callable} | {
    spelling: op for op in OPS.values() for spelling in op.spellings}  # ln(x) is log(x), add(a, b) is a + b
# Functions of one library only, spelled with its prefix (torch.split, torch.t): a row that is not
# callable bare (np.split means another op; `t` is often an input's name) with a Dialect of that family.
FAMILY_FUNCTIONS = {(dialect.family, op.name): op for op in OPS.values() if not op.callable
                    for dialect in op.dialects if dialect.row is None and dialect.family and not dialect.names} | {
    # ... and a library's own name of a row, which the bare language has not (np.degrees is rad2deg, np.repeat
    # repeat_interleave): the names of a Dialect of that family
    (dialect.family, name): op for op in OPS.values() for dialect in op.dialects
    if dialect.row is None and dialect.family for name in dialect.names}
METHODS = {method: op for op in OPS.values() for method in op.methods}  # `x.sum()` is sum(x)
CONSTANTS = {"pi": 3.141592653589793, "e": 2.718281828459045, "inf": float("inf"), "nan": float("nan")}

# PyTorch nodes of Tensor-Scalar overloads: the Python number is not one of their inputs.
SCALAR_OVERLOADS = frozenset().union(*(op.scalar_overloads for op in OPS.values()))
