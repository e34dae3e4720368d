"""The rows of products and linear algebra: @ (matmul of any rank), mm, mv, bmm, dot, outer, inner,
einsum, tensordot, kron, cross, det, inv, solve, slogdet, logdet.

Their rules act on the trailing `ranks` axes of each arg (see core: rules never see a batch);
the axes before those are the points' batch axis, which an arg may have or not. Matrices are
the last two of an arg's own axes, and the axes before them are PyTorch's batch of matrices,
broadcast as torch.matmul broadcasts them.
"""

from __future__ import annotations

import itertools
import math
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from gradcli import mkl
from gradcli.errors import Limits, over_limit
from gradcli.ops.core import (
    Array,
    Dialect,
    DimError,
    LinAlgError,
    Param,
    Unsupported,
    ValueRefusal,
    batch_element,
    broadcast_shape,
    cannot_take,
    composite,
    expand_problem,
    float_input,
    kernel_refusal,
    point_axes,
    structural,
    sympy_total,
    too_few_sizes,
    torch_dtype_name,
    torch_positional,
    unbroadcast,
)

Shape = tuple[int, ...]


def _point_shapes(args: Sequence[Array], ranks: Sequence[int]) -> list[Shape]:
    return [a.shape[a.ndim - r:] for a, r in zip(args, ranks, strict=True)]


def _pad(x: Array, rank: int, width: int) -> Array:
    """x with axes of size 1 put in front of its `rank` own axes, to make `width` of them."""
    if rank == width:
        return x
    lead = x.shape[: x.ndim - rank]
    return x.reshape(lead + (1,) * (width - rank) + x.shape[x.ndim - rank:])


# --- matmul: PyTorch's @ of 1-D ... n-D operands ------------------------------------------------


def _matmul_shape(a: Shape, b: Shape) -> Shape:
    if not a or not b:
        raise ValueError("both arguments to matmul need to be at least 1D")
    inner = b[-2] if len(b) >= 2 else b[0]
    if a[-1] != inner:
        raise ValueError(_mismatch(a, b))
    batch = np.broadcast_shapes(a[:-2], b[:-2])
    return tuple(batch) + a[-2:-1] + (b[-1:] if len(b) >= 2 else ())


def _mismatch(a: Shape, b: Shape) -> str:
    """What does not fit in a @ b, in PyTorch's words where matmul calls dot, mv or mm (a stack over a
    matrix or a vector folded into one)."""
    rows = int(np.prod(a[:-1], dtype=np.int64)) if len(a) > 1 else 1
    if len(a) == 1 and len(b) == 1:
        return (f"inconsistent tensor size, expected tensor [{a[0]}] and src [{b[0]}] to have the same number of "
                f"elements, but got {a[0]} and {b[0]} elements respectively")
    if len(b) == 1:
        return f"size mismatch, got input ({rows}), mat ({rows}x{a[-1]}), vec ({b[0]})"
    if len(b) == 2:
        return f"mat1 and mat2 shapes cannot be multiplied ({rows}x{a[-1]} and {b[0]}x{b[1]})"
    return f"shapes cannot be multiplied ({'x'.join(map(str, a))} and {'x'.join(map(str, b))})"


def _lifted(a: Array, b: Array, ranks: Sequence[int]) -> tuple[Array, Array]:
    """a and b as stacks of matrices with as many batch axes each: a vector on the left is a
    row, on the right a column (torch.matmul's rule)."""
    na, nb = ranks
    a2 = a[..., None, :] if na == 1 else a
    b2 = b[..., :, None] if nb == 1 else b
    width = max(na, nb, 2)
    return _pad(a2, max(na, 2), width), _pad(b2, max(nb, 2), width)


def _product_of(x: Array, y: Array) -> Array:
    """x @ y; over a contracted dim of size 1, the products alone (BLAS's, as PyTorch's: a -0.0 stays
    -0.0, where NumPy's matmul adds each product to 0.0)."""
    if np.shape(x)[-1] == 1 and np.ndim(x) >= 2 and np.ndim(y) >= 2:
        return np.multiply(x, y)
    return _overflowing(x, y, np.matmul(x, y))


_SPREAD = 1 << 20  # the most products _overflowing writes out


def _overflowing(x: Array, y: Array, out: Array) -> Array:
    """x @ y where it overflows as BLAS's does without fused multiply-adds (PyTorch's MKL): each product
    rounded, so a product that overflows is an infinity, and infinities of both signs add to NaN, where
    NumPy's fused multiply-adds carry a finite product into an infinity (inf, not NaN)."""
    if np.isfinite(out).all() or np.ndim(x) < 2 or np.ndim(y) < 2 or np.size(out) * np.shape(x)[-1] > _SPREAD:
        return out
    with np.errstate(all="ignore"):
        return np.asarray((np.asarray(x)[..., :, :, None] * np.asarray(y)[..., None, :, :]).sum(axis=-2))


def product(x: Array, y: Array) -> Array:
    """x @ y of two stacks of matrices, overflowing as PyTorch's products do (_overflowing)."""
    return _overflowing(x, y, np.matmul(x, y))


def _kernel(a: Any, b: Any, ranks: Sequence[int]) -> Array | None:
    """a @ b of one point by PyTorch's own kernel (`gradcli run`, where gradcli[mkl] is installed): mm and mv
    as PyTorch's BLAS calls are made, bmm by its loop or MKL's; None where that is not what computes it."""
    if np.ndim(a) != ranks[0] or np.ndim(b) != ranks[1]:  # (a batch of points: `grad`'s)
        return None
    product = {(2, 2): mkl.mm, (2, 1): mkl.mv, (3, 3): mkl.bmm}.get((ranks[0], ranks[1]))
    return None if product is None else product(a, b)


def _column_major(x: Array) -> bool:
    """Is the matrix x a transposed view of a row-major one, in PyTorch's test (its mm backward's)?"""
    strides = [s // x.itemsize for s in x.strides]
    return strides[0] == 1 and strides[1] == x.shape[0]


def _kernel_vjp(g: Any, a: Any, b: Any, ranks: Sequence[int]) -> tuple[Array, Array] | None:
    """The cotangents of a @ b by PyTorch's own kernels and in its forms (mm_mat1_backward and
    mm_mat2_backward: a column-major operand's gradient computed transposed; mv's g outer b and a^T g;
    bmm's g b^T and a^T g), or None where _kernel does not compute the product."""
    if not mkl.ROUTED.get() or type(g) is not np.ndarray or np.ndim(a) != ranks[0] or np.ndim(b) != ranks[1]:
        return None
    if g.dtype != a.dtype and a.dtype == b.dtype:  # (PyTorch's gradient is of the product's dtype: a float64
        g = g.astype(a.dtype)  # one here came from a Python number's float64 in the sweep)
    if tuple(ranks) == (2, 2):
        ga = mkl.mm(b, g.T) if _column_major(a) else mkl.mm(g, b.T)
        gb = mkl.mm(g.T, a) if _column_major(b) else mkl.mm(a.T, g)
        if ga is None or gb is None:
            return None
        return (ga.T if _column_major(a) else ga), (gb.T if _column_major(b) else gb)
    if tuple(ranks) == (2, 1):
        gv = mkl.mv(a.T, g)
        return None if gv is None else (g[:, None] * b, gv)
    if tuple(ranks) == (3, 3):
        ga, gb = mkl.bmm(g, np.swapaxes(b, 1, 2)), mkl.bmm(np.swapaxes(a, 1, 2), g)
        return None if ga is None or gb is None else (ga, gb)
    return None


def _matmul(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    _matmul_shape(*_point_shapes((a, b), ranks))
    made = _kernel(a, b, ranks)
    if made is not None:
        return made
    na, nb = ranks
    out = _product_of(*_lifted(a, b, ranks))
    if nb == 1:
        out = out[..., 0]
    if na == 1:
        out = out[..., 0] if nb == 1 else out[..., 0, :]
    return np.asarray(out)


def _matmul_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    made = _kernel_vjp(g, a, b, ranks)
    if made is not None:
        return made
    na, nb = ranks
    a2, b2 = _lifted(a, b, ranks)
    if na == 1:
        g = g[..., None] if nb == 1 else g[..., None, :]
    if nb == 1:
        g = g[..., None]
    ga = _product_of(g, np.swapaxes(b2, -1, -2))
    gb = _product_of(np.swapaxes(a2, -1, -2), g)
    # The batch of matrices was broadcast: each arg gets the sum over what it was spread on.
    return unbroadcast(ga, a2.shape).reshape(a.shape), unbroadcast(gb, b2.shape).reshape(b.shape)


def _matmul_torch_node(constant: Sequence[bool], shapes: Sequence[Shape] | None) -> str:
    """The node grad_fn shows for a @ b: torch.matmul calls dot, mv or mm for 1-D and 2-D
    operands; past 2-D it folds the batch into mm/mv (an _unsafe_view of it) or calls bmm, and a
    matrix times a stack is done transposed and made contiguous again (a clone)."""
    if shapes is None:
        return "MmBackward0"
    a, b = shapes
    small = {(1, 1): "DotBackward0", (2, 1): "MvBackward0", (1, 2): "SqueezeBackward4", (2, 2): "MmBackward0"}
    if (len(a), len(b)) in small:
        return small[(len(a), len(b))]
    # 3-D @ 3-D where one batch is 1: PyTorch squeezes it away, and is then a 2-D @ 3-D.
    squeezed_left = len(a) == 3 == len(b) and a[0] == 1 != b[0]
    return "CloneBackward0" if (len(a) == 2 and len(b) >= 3) or squeezed_left else "UnsafeViewBackward0"


def _matmul_program(emit: Any, a: Any, b: Any) -> Any:
    """a @ b as torch.matmul records it: dot, mv or mm for 1-D and 2-D operands (a vector times a
    matrix: the vector unsqueezed, mm, squeezed in place); a stack times a matrix or a vector folded
    into one mm/mv (View, then UnsafeView back), a matrix or vector that takes a gradient times a
    stack the same, transposed; the other stacks bmm's (_batched_matmul); --points, where the shapes
    are not known, one node."""
    sa, sb = emit.shape(a), emit.shape(b)
    if sa is None or sb is None:
        return emit("matmul_whole", a, b)
    out = _matmul_shape(sa, sb)
    small = {(1, 1): "dot", (2, 1): "mv", (2, 2): "mm"}
    if (len(sa), len(sb)) in small:
        return emit(small[(len(sa), len(sb))], a, b)
    if (len(sa), len(sb)) == (1, 2):
        return emit("squeeze_in_place", emit("mm", emit("unsqueeze", a, dim=0), b))
    if emit.dtype(a) != emit.dtype(b):  # (a stack: PyTorch's check before it folds, as bmm's)
        raise ValueError(f"expected scalar type {torch_dtype_name(np.dtype(emit.dtype(a)))} but found "
                         f"{torch_dtype_name(np.dtype(emit.dtype(b)))}")
    if len(sa) >= 3 and len(sb) <= 2:
        folded = emit("reshape", a, shape=(int(np.prod(sa[:-1], dtype=np.int64)), sa[-1]))
        return emit("unsafe_view", emit("mm" if len(sb) == 2 else "mv", folded, b), shape=out)
    if len(sb) >= 3 and len(sa) <= 2 and emit.requires_grad(a):
        # a matrix or vector that takes a gradient times a stack (PyTorch 2.13's matmul folds then;
        # else it is bmm's, below): the stack transposed and folded
        # (copied first where that is no view: Clone, UnsafeView), mm by a.t() (or mv by a), unfolded;
        # a matrix's product transposed back and made contiguous (Clone, where it is not)
        flipped = emit("transpose", b, dim0=-2, dim1=-1)
        rows = (*sb[:-2], sb[-1])
        strides = list(_strides(sb))
        strides[-2:] = strides[-1], strides[-2]
        folded = _reshape(emit, flipped, (*rows, sb[-2]), strides, (int(np.prod(rows, dtype=np.int64)), sb[-2]))
        if len(sa) == 1:
            return emit("unsafe_view", emit("mv", folded, a), shape=rows)
        product = emit("transpose", emit("unsafe_view", emit("mm", folded, emit("t", a)), shape=(*rows, sa[0])),
                       dim0=-2, dim1=-1)
        return product if 1 in (sa[0], sb[-1]) else emit("clone", product)
    return _batched_matmul(emit, a, b, sa, sb)


def _strides(shape: Shape) -> tuple[int, ...]:
    """A contiguous tensor's strides, in elements."""
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * max(shape[i + 1], 1)
    return tuple(strides)


def _reshape(emit: Any, x: Any, shape: Shape, strides: Sequence[int], new: Shape) -> Any:
    """x (of `shape` and `strides`) reshaped to `new`, whose first axis merges all of x's but its last
    len(new) - 1 (matmul's folds): a view where those merge (ViewBackward0), else PyTorch's copy first
    (CloneBackward0, then UnsafeViewBackward0)."""
    merged = [i for i in range(len(shape) - (len(new) - 1)) if shape[i] != 1]
    if all(strides[i] == strides[j] * shape[j] for i, j in itertools.pairwise(merged)):
        return emit("reshape", x, shape=new)
    return emit("unsafe_view", emit("clone", x), shape=new)


def _batched_matmul(emit: Any, a: Any, b: Any, sa: Shape, sb: Shape) -> Any:
    """Stacks that matmul does not fold, as PyTorch's matmul does them: both expanded to the batch
    they broadcast to (Expand, always recorded), folded to one batch axis (a View, or a copy where the
    expansion spread an axis: Clone, UnsafeView), bmm, and unfolded (UnsafeView; a vector's axis squeezed)."""
    if len(sa) == 3 == len(sb) and sa[0] != sb[0]:  # (a batch of 1 that takes a gradient: squeezed away)
        if sa[0] == 1 and emit.requires_grad(a):
            return emit("matmul", emit("squeeze", a, dim=0), b)
        if sb[0] == 1 and emit.requires_grad(b):
            return emit("matmul", a, emit("squeeze", b, dim=0))
    n, m = (sa[-2] if len(sa) > 1 else 1), sa[-1]
    p = sb[-1] if len(sb) > 1 else 1
    batch = tuple(int(size) for size in np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2])))
    count = int(np.prod(batch, dtype=np.int64))
    left = _expanded(emit, a, sa, (*batch, n, m), (count, n, m))
    if len(sb) == 1:
        right = emit("unsqueeze", _expanded(emit, b, sb, (*batch, m), (count, m)), dim=2)
        product = emit("squeeze", emit("bmm", left, right), dim=-1)
    else:
        product = emit("bmm", left, _expanded(emit, b, sb, (*batch, m, p), (count, m, p)))
    out = (*batch, *((n,) if len(sa) > 1 else ()), *((p,) if len(sb) > 1 else ()))
    return emit("unsafe_view", product, shape=out)


def _expanded(emit: Any, x: Any, shape: Shape, size: Shape, new: Shape) -> Any:
    """x.expand(size).reshape(new): the expansion's strides are 0 along the axes it adds or spreads."""
    lead = len(size) - len(shape)
    own = _strides(shape)
    strides = [0 if i < lead or (shape[i - lead] == 1 and size[i] != 1) else own[i - lead] for i in range(len(size))]
    return _reshape(emit, emit("expand", x, size=size), size, strides, new)


def _products_refuse(mixed: str, kernel: str, dispatched: bool = False) -> dict[str, Any]:
    """The dtype rule of PyTorch's products: integers stay integers (int64 that wraps), the two args
    must have one dtype (they do not promote) and bools have no kernel (`dispatched`: a kernel chosen by the
    first arg's dtype before the two are compared, bmm's: a bool first is refused so)."""
    no_bool = f'"{kernel}" not implemented for \'Bool\''
    first = (("mixed and bool input", "NotImplementedError", no_bool),) if dispatched else ()
    return {"dtype": "keeps", "dtype_refusals": (*first, ("mixed", "RuntimeError", mixed),
                                                   ("bool", "NotImplementedError", no_bool))}


_MM_DTYPES = _products_refuse("expected m1 and m2 to have the same dtype, but got: {c0} != {c1}", "addmm_impl_cpu_")
_BMM_DTYPES = _products_refuse("expected scalar type {0} but found {1}", "bmm", dispatched=True)


def _strict(name: str, ndims: tuple[int, int]) -> Any:
    """The shape rule of mm, mv, bmm: matmul's, for operands of exactly these ranks, refused in PyTorch's words (`fused`:
    addmm's, addmv's, baddbmm's, which say their own)."""
    def shape(a: Shape, b: Shape, fused: str = "", given: Shape = ()) -> Shape:
        if name == "mv" and (len(a), len(b)) != ndims:
            raise ValueError(f"vector + matrix @ vector expected, got {len(given) if fused else 1}, {len(a)}, {len(b)}")
        if name == "mm":
            for arg, size in (("mat1" if fused else "self", a), ("mat2", b)):
                if len(size) != 2:
                    raise ValueError(f"{arg} must be a matrix" + (f", got {len(size)}-D tensor" if fused else ""))
        if name == "bmm":
            for arg, size in (("batch1", a), ("batch2", b)):
                if len(size) != 3:
                    raise ValueError(f"{arg} must be a 3D tensor")
            if b[:2] != (a[0], a[2]):
                raise ValueError(f"Expected size for first two dimensions of batch2 tensor to be: [{a[0]}, {a[2]}] but got: "
                                 f"[{b[0]}, {b[1]}].")
        return _matmul_shape(a, b)

    return shape


def _product(shape_rule: Any) -> Any:
    def forward(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
        shape_rule(*_point_shapes((a, b), ranks))
        return _matmul(a, b, ranks)

    return forward


def _sym_matmul(a: Array, b: Array) -> Array:
    return np.asarray(np.matmul(a, b), dtype=object)


# --- products written as einsum: inner, outer -------------------------------------------------

_LETTERS = string.ascii_letters


def _einsum(inputs: Sequence[str], output: str, operands: Sequence[Any], ranks: Sequence[int]) -> Any:
    """np.einsum of subscripts that name each arg's own axes; an arg with the points' batch
    axis in front gets a letter for it, and so does the output if any arg has one."""
    batch = next(c for c in _LETTERS if c not in "".join(inputs))
    leads = [np.ndim(x) > r for x, r in zip(operands, ranks, strict=True)]
    terms = [batch + s if lead else s for s, lead in zip(inputs, leads, strict=True)]
    return _contract(terms, (batch if any(leads) else "") + output, operands, batch)


def _contract(terms: Sequence[str], output: str, arrays: Sequence[Any], batch: str = "") -> Any:
    """np.einsum of `terms -> output`, planned, and refused before it starts when the plan's work is past
    the contraction limit (one loop over every letter at once is what unplanned einsum does:
    einsum('a,b,c,d,e,f->', v, ...) of 40 elements each is 40**6 steps; planned, a few hundred).

    A letter only one operand has, and the output does not, is summed out of that operand first
    ('ij,kl->' is two sums and a product); NumPy's greedy planner orders the rest pairwise (BLAS where it can).
    """
    terms, arrays = list(terms), list(arrays)
    if any(isinstance(x, np.ndarray) and x.dtype == object for x in arrays):  # (SymPy's expressions: as written)
        return np.einsum(",".join(terms) + "->" + output, *arrays)
    sizes: dict[str, int] = {}
    for term, x in zip(terms, arrays, strict=True):
        sizes.update(zip(term, np.shape(x)))
    for i, term in enumerate(terms):
        elsewhere = output + "".join(t for j, t in enumerate(terms) if j != i)
        kept = "".join(dict.fromkeys(c for c in term if c in elsewhere))
        if kept != term and len(terms) > 1:
            terms[i], arrays[i] = kept, np.einsum(f"{term}->{kept}", arrays[i])
    # (planned for one point: the points' batch letter, if any, as size 1, so every point sums in one order)
    shapes = [np.broadcast_to(0.0, tuple(1 if c == batch else n for c, n in zip(term, np.shape(x))))
              for term, x in zip(terms, arrays, strict=True)]
    steps = [tuple(range(len(terms)))] if len(terms) < 3 else \
        np.einsum_path(",".join(terms) + "->" + output, *shapes, optimize="greedy")[0][1:]
    plan, work, remaining = [], 0, list(terms)
    for step in steps:  # (NumPy's path: each step takes its operands out, by position, and puts its result last)
        taken = [remaining.pop(i) for i in sorted(step, reverse=True)]
        rest = output + "".join(remaining)
        result = output if not remaining else "".join(c for c in dict.fromkeys("".join(taken)) if c in rest)
        work += math.prod(sizes[c] for c in set("".join(taken))) * max(1, len(taken) - 1)
        plan.append((sorted(step, reverse=True), ",".join(taken) + "->" + result))
        remaining.append(result)
    if work > Limits.get("contraction"):
        raise over_limit(f"einsum '{','.join(terms)}->{output}' would take {work:,} multiply-adds", "contraction")
    for positions, subscripts in plan:  # each step by NumPy's own loops, as an unplanned einsum sums (not BLAS's
        arrays.append(np.einsum(subscripts, *[arrays.pop(i) for i in positions]))  # fused multiply-adds)
    return arrays[0]


def _einsum_cotangent(which: int, inputs: Sequence[str], output: str, operands: Sequence[Any], g: Any,
                      ranks: Sequence[int]) -> Any:
    """The cotangent of operand `which` of an einsum: g contracted with the other operands.

    A letter the operand repeats (a diagonal, 'ii') is tied to its first by an identity
    matrix; a letter only the operand has (summed over, 'ij->i') is spread by ones.
    """
    used = "".join(inputs) + output
    batch = next(c for c in _LETTERS if c not in used)
    fresh = iter(c for c in _LETTERS if c not in used + batch)
    leads = [np.ndim(x) > r for x, r in zip(operands, ranks, strict=True)]
    sizes = {c: n for s, x, r in zip(inputs, operands, ranks, strict=True) for c, n in zip(s, np.shape(x)[np.ndim(x) - r:])}
    out_lead = any(leads)
    terms = [(batch if out_lead else "") + output]
    arrays = [g]
    for j, (s, x) in enumerate(zip(inputs, operands, strict=True)):
        if j != which:
            terms.append(batch + s if leads[j] else s)
            arrays.append(x)
    written, seen = [], set()
    for c in inputs[which]:
        if c in seen:
            d = next(fresh)
            terms.append(c + d)
            arrays.append(np.eye(sizes[c]))
            written.append(d)
        else:
            seen.add(c)
            written.append(c)
    present = set("".join(terms))
    for c in seen - present:
        terms.append(c)
        arrays.append(np.ones(sizes[c]))
    target = (batch if leads[which] or out_lead else "") + "".join(written)
    return _contract(terms, target, arrays, batch)


def _letters(rank: int, start: int = 0) -> str:
    return _LETTERS[start:start + rank]


def _outer_column(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    # outer's first vector as a column, b (no input of it) only checked: PyTorch's a.reshape(-1, 1)
    _outer_shape(*_point_shapes((a, b), ranks))
    return a[..., :, None]


def _outer_program(emit: Any, a: Any, b: Any) -> Any:
    # PyTorch's outer: a.reshape(-1, 1) * b (ViewBackward0 under MulBackward0)
    return emit("mul", emit("outer_column", a, b), b)


def _inner_subscripts(ranks: Sequence[int]) -> tuple[list[str], str]:
    na, nb = ranks
    if na == 0 or nb == 0:  # a number times a tensor
        a, b = _letters(na), _letters(nb, na)
        return [a, b], a + b
    a, b = _letters(na - 1) + "z", _letters(nb - 1, na - 1) + "z"
    return [a, b], a[:-1] + b[:-1]


def _bilinear(subscripts: Any, shape_rule: Any) -> tuple[Any, Any]:
    """(forward, vjp) of a product of two args written as an einsum of their own axes."""
    def forward(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
        shape_rule(*_point_shapes((a, b), ranks))
        inputs, output = subscripts(ranks)
        return np.asarray(_einsum(inputs, output, (a, b), ranks))

    def vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
        inputs, output = subscripts(ranks)
        return (_einsum_cotangent(0, inputs, output, (a, b), g, ranks),
                _einsum_cotangent(1, inputs, output, (a, b), g, ranks))

    return forward, vjp


def _outer_shape(a: Shape, b: Shape) -> Shape:
    for arg, size in (("self", a), ("vec2", b)):
        if len(size) != 1:
            raise ValueError(f"outer: Expected 1-D argument {arg}, but got {len(size)}-D")
    return a + b


def _inner_shape(a: Shape, b: Shape) -> Shape:
    if not a or not b:
        return a + b
    if a[-1] != b[-1]:
        raise ValueError(f"inner() the last dimension must match on both input tensors but got shapes "
                         f"[{', '.join(map(str, a))}] and [{', '.join(map(str, b))}]")
    return a[:-1] + b[:-1]


def _sym_einsum(subscripts: Any) -> Any:
    def build(a: Array, b: Array) -> Array:
        inputs, output = subscripts((a.ndim, b.ndim))
        return np.asarray(np.einsum(",".join(inputs) + "->" + output, a, b), dtype=object)

    return build


def _dot(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    _dot_shape(*_point_shapes((a, b), ranks))
    if np.ndim(a) == 1 == np.ndim(b):  # (one point: PyTorch's BLAS dot, where gradcli[mkl] is installed)
        made = mkl.dot(a, b)
        if made is not None:
            return made
    return np.asarray(np.einsum("...i,...i->...", a, b))


def _dot_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    return g[..., None] * b, g[..., None] * a


def _dot_shape(a: Shape, b: Shape) -> Shape:
    if len(a) != 1 or len(b) != 1:  # (PyTorch's words)
        raise ValueError(f"1D tensors expected, but got {len(a)}D and {len(b)}D tensors")
    if a != b:
        raise ValueError(f"inconsistent tensor size, expected tensor [{a[0]}] and src [{b[0]}] to have the same "
                         f"number of elements, but got {a[0]} and {b[0]} elements respectively")
    return ()


_inner, _inner_vjp = _bilinear(_inner_subscripts, _inner_shape)
_mm_shape, _mv_shape, _bmm_shape = _strict("mm", (2, 2)), _strict("mv", (2, 1)), _strict("bmm", (3, 3))


# --- det, inv, solve, logdet: NumPy's LAPACK, PyTorch's derivative rules ----------------------


def square_matrices(name: str, a: Shape) -> None:
    """PyTorch's squareCheckInputs, in its words (ValueError)."""
    if len(a) < 2:
        raise ValueError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a[-1] != a[-2]:
        raise ValueError(f"{name}: A must be batches of square matrices, but they are {a[-2]} by {a[-1]} matrices")


def _square_shape(name: str) -> Any:
    def shape(a: Shape) -> Shape:
        square_matrices(name, a)
        return a[:-2]

    return shape


_det_shape = _square_shape("linalg.det")
_slogdet_shape = _square_shape("linalg.slogdet")
_logdet_shape = _square_shape("logdet")


def _inv_shape(a: Shape) -> Shape:
    _square_shape("linalg.inv")(a)
    return a


def singular_or_not_square(square: Any) -> Any:
    """Op.shape_message of an inverse: shapes that do not fit (`square` refuses them), else a singular matrix."""
    def message(label: str, shapes: Sequence[Shape]) -> str:
        try:
            square(*shapes)
        except ValueError:
            return cannot_take(label, shapes)
        return f"{label} of a singular matrix: it has no inverse (PyTorch raises here too)"

    return message


def _transposed(x: Any) -> Any:
    return np.swapaxes(x, -1, -2)


def _is_dual(x: Any) -> bool:
    return type(x) is not np.ndarray and not np.isscalar(x)


# --- matrices holding NaN or an infinity: PyTorch's LU, step by step -----------------------
# NumPy's det is 0 wherever LAPACK's LU meets a zero pivot, whatever else the matrix holds
# (det([[0, nan], [nan, 0]]) is 0 there, NaN in PyTorch), and NumPy's LAPACK (OpenBLAS) and
# PyTorch's (MKL) part ways on pivots and on skipped zeros once NaN or an infinity comes in:
# inv([[-inf, 2], [-inf, -1]]) is finite in NumPy, NaN in PyTorch. For such matrices gradcli
# takes LAPACK's own steps (getrf, getrs), which PyTorch's numbers follow: det is the product of
# U's diagonal, logdet the sum of its logarithms (both of PyTorch's LU of A^T, as it factors a
# contiguous A), inv and solve the triangular solves of the LU of A.


def _non_finite(a: Any) -> Array:
    """Per matrix: does it hold a NaN or an infinity?"""
    return np.asarray(~np.isfinite(getattr(a, "primal", a)).all(axis=(-2, -1)))


_TINY = np.finfo(float).tiny  # LAPACK's sfmin: a pivot at least this is inverted once, a smaller one divides


def _lu(a: Array) -> tuple[Array, Array, Array, Array]:
    """LAPACK's getrf of each matrix, unblocked (the same steps): L and U in one matrix, the row
    each step took its pivot from, the sign of those swaps, and whether a pivot was 0."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    lu = np.array(a, dtype=float).reshape(-1, n, n)
    every = np.arange(len(lu))
    pivots = np.zeros((len(lu), n), dtype=np.intp)
    sign = np.ones(len(lu))
    singular = np.zeros(len(lu), dtype=bool)
    with np.errstate(all="ignore"):
        for k in range(n):
            size = np.abs(lu[:, k:, k])
            # idamax: the first of the largest; a NaN is never larger, so it is taken where it comes first
            p = k + np.where(np.isnan(size[:, 0]), 0, np.argmax(np.where(np.isnan(size), -1.0, size), axis=1))
            pivots[:, k] = p
            sign[p != k] *= -1.0
            lu[every, k], lu[every, p] = lu[every, p], lu[every, k]
            pivot = lu[:, k, k]
            zero = pivot == 0
            singular |= zero
            # A zero pivot scales nothing (its column stays as it is), and no product is skipped
            # for a zero factor: 0 * inf is NaN here as in MKL. The column is scaled by the pivot's
            # reciprocal, as getf2's dscal (divided where the pivot is below the smallest normal number).
            scale = np.where(np.abs(pivot) >= _TINY, 1.0 / np.where(zero, 1.0, pivot), np.nan)
            below = np.where(zero[:, None], lu[:, k + 1:, k],
                             np.where(np.isnan(scale)[:, None], lu[:, k + 1:, k] / np.where(zero, 1.0, pivot)[:, None],
                                      lu[:, k + 1:, k] * scale[:, None]))
            lu[:, k + 1:, k] = below
            lu[:, k + 1:, k + 1:] -= below[:, :, None] * lu[:, k, None, k + 1:]
    return lu.reshape((*batch, n, n)), pivots.reshape((*batch, n)), sign.reshape(batch), singular.reshape(batch)


def _lu_solve(lu: Array, pivots: Array, b: Array, adjoint: bool = False) -> Array:
    """LAPACK's getrs: X with A X = B (A^T X = B where `adjoint`) from A's _lu; B (..., n, k), its
    batch broadcast with the matrices'. Each triangle a row at a time, as MKL's small trsm (PyTorch's):
    x_j minus the dot product of the row with the x found, summed from its first product, times the
    reciprocal of the diagonal (bit for bit PyTorch's at 3x3)."""
    n, k = b.shape[-2:]
    batch = tuple(np.broadcast_shapes(lu.shape[:-2], b.shape[:-2]))
    lu = np.broadcast_to(lu, (*batch, n, n)).reshape(-1, n, n)
    pivots = np.broadcast_to(pivots, (*batch, n)).reshape(-1, n)
    x = np.array(np.broadcast_to(b, (*batch, n, k)), dtype=float).reshape(-1, n, k)
    every = np.arange(len(x))
    with np.errstate(all="ignore"):
        if not adjoint:
            for j in range(n):  # the rows, swapped as the factorization swapped them
                p = pivots[:, j]
                x[every, j], x[every, p] = x[every, p], x[every, j]
            for j in range(1, n):  # L (a unit diagonal), a row at a time
                x[:, j] -= _dot_in_order(lu[:, j, :j, None] * x[:, :j])
            for j in reversed(range(n)):  # U
                if j + 1 < n:
                    x[:, j] -= _dot_in_order(lu[:, j, j + 1:, None] * x[:, j + 1:])
                x[:, j] *= 1.0 / lu[:, j, j, None]
        else:
            for j in range(n):  # U^T, a row at a time
                if j:
                    x[:, j] -= _dot_in_order(lu[:, :j, j, None] * x[:, :j])
                x[:, j] *= 1.0 / lu[:, j, j, None]
            for j in reversed(range(n)):  # L^T
                if j + 1 < n:
                    x[:, j] -= _dot_in_order(lu[:, j + 1:, j, None] * x[:, j + 1:])
            for j in reversed(range(n)):  # the swaps undone
                p = pivots[:, j]
                x[every, j], x[every, p] = x[every, p], x[every, j]
    return x.reshape((*batch, n, k))


def _dot_in_order(products: Array) -> Array:
    """The sum over axis 1 of products, from the first (MKL's dot, as PyTorch's getrs takes it: -0 + -0
    is -0, where NumPy's sum starts from +0)."""
    total = products[:, 0].copy()
    for k in range(1, products.shape[1]):
        total += products[:, k]
    return total


def _product_in_order(values: Array) -> Array:
    """The product along the last axis, in order (1e300 * 1e300 * 0 is NaN, as PyTorch's prod)."""
    product = np.ones(values.shape[:-1])
    for k in range(values.shape[-1]):
        product = product * values[..., k]
    return product


def _lu_det(a: Array) -> Array:
    """PyTorch's det: the sign of the swaps times the product of U's diagonal, of its LU of A^T."""
    lu, _, sign, _ = _lu(_transposed(a))
    with np.errstate(all="ignore"):
        return sign * _product_in_order(np.diagonal(lu, axis1=-2, axis2=-1))


def _lu_slogdet(a: Array) -> tuple[Array, Array, Array, Array]:
    """PyTorch's slogdet: the sign and log|det| from U's diagonal, and the LU of A^T they came from."""
    lu, pivots, sign, _ = _lu(_transposed(a))
    diagonal = np.diagonal(lu, axis1=-2, axis2=-1)
    with np.errstate(all="ignore"):
        signs = np.where(diagonal > 0, 1.0, np.where(diagonal < 0, -1.0, 0.0))  # (PyTorch's sign of NaN is 0)
        size = np.log(np.abs(diagonal))
        logabsdet = np.zeros(diagonal.shape[:-1])
        for k in range(diagonal.shape[-1]):
            logabsdet = logabsdet + size[..., k]
        return _product_in_order(signs) * sign, logabsdet, lu, pivots


def _diag_embed(d: Any, n: int) -> Any:
    """Matrices with d on the diagonal and zeros (not d * 0) elsewhere."""
    return np.where(np.eye(n, dtype=bool), (d if hasattr(d, "shape") else np.asarray(d))[..., None, None], 0.0)


def _eye_where(odd: Array, a: Any) -> Any:
    """`a` with each matrix that holds NaN or an infinity replaced by I: what NumPy's LAPACK is given."""
    return np.where(odd[..., None, None], np.eye(a.shape[-1]), a)


def _solved(a: Array, b: Array, odd: Array, adjoint: bool = False, singular_ok: bool = False) -> Array:
    """A^-1 B (A^-T B where `adjoint`) by NumPy's LAPACK, and by _lu where a matrix holds NaN or an
    infinity; LinAlgError where that one is singular, as PyTorch raises. `singular_ok`: a singular matrix
    by _lu too, its zero pivot divided by (the infinities and NaN of PyTorch's inv_ex and solve_ex)."""
    lu, pivots, _, singular = _lu(a)
    if singular_ok:
        odd = odd | singular
    elif np.any(singular & odd):
        raise np.linalg.LinAlgError("Singular matrix")
    theirs = np.linalg.solve(_transposed(_eye_where(odd, a)) if adjoint else _eye_where(odd, a), b)
    return np.asarray(np.where(odd[..., None, None], _lu_solve(lu, pivots, b, adjoint), theirs))


def lapack_svd(a: Array, full_matrices: bool = True) -> tuple[Array, Array, Array]:
    """np.linalg.svd of each matrix, as PyTorch's LAPACK takes them: a -0 entry as 0 (NumPy's LAPACK picks other
    signs for the vectors), and a matrix holding an infinity (and no NaN) never handed to it, for its gesdd
    never returns on one: its singular values NaN, its vectors the identity's with the first min(m, n) in
    reverse order, as PyTorch's MKL gives them for a matrix no wider than tall (its pseudo-inverse 0)."""
    a = np.asarray(a, dtype=float) + 0.0
    infinite = np.asarray(np.isinf(a).any(axis=(-2, -1)) & ~np.isnan(a).any(axis=(-2, -1)))
    if not infinite.any():
        u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
        return np.asarray(u), np.asarray(s), np.asarray(vh)
    m, n = a.shape[-2:]
    k = min(m, n)
    u, s, vh = (np.array(part) for part in np.linalg.svd(np.where(infinite[..., None, None], 0.0, a),
                                                           full_matrices=full_matrices))
    left, right = np.eye(m, m if full_matrices else k), np.eye(n if full_matrices else k, n)
    left[:, :k], right[:k] = left[:, k - 1::-1] if k else left[:, :0], right[k - 1::-1] if k else right[:0]
    u[infinite], s[infinite], vh[infinite] = left, np.nan, right
    return u, s, vh


def true_cofactors(a: Array) -> Array:
    """The matrix of cofactors of each matrix (d det / d A), exactly where A is singular too: by
    the SVD, A = U S Vh, whose cofactors are det(U) det(Vh) U diag(prod of the other s) Vh."""
    u, s, vh = lapack_svd(a)
    n = s.shape[-1]
    others = np.prod(np.where(np.eye(n, dtype=bool), 1.0, s[..., None, :]), axis=-1) if n else s
    sign = np.linalg.det(u) * np.linalg.det(vh)
    return np.asarray(sign[..., None, None] * (u * others[..., None, :]) @ vh)


def _nan_where_non_finite(a: Any, odd: Array, cofactors: Any, name: str) -> Any:
    """det's derivative on dual numbers where a matrix holds NaN or an infinity: PyTorch's double
    backward solves A^T X = diag(g det) there, and raises where that LU meets a zero pivot; elsewhere
    its second derivative is NaN throughout."""
    from gradcli.dual import Dual
    from gradcli.errors import ShapeProblem

    if np.any(_lu(_transposed(a.primal))[3] & odd):
        raise ShapeProblem(f"the second derivative of {name} here solves with the matrix, which holds NaN or an "
                           "infinity and is singular in its LU (PyTorch raises here too)")
    value = np.where(odd[..., None, None], np.nan, cofactors.primal)
    given = np.zeros(np.shape(value)) if cofactors.tangent is None else cofactors.tangent
    return Dual(value, np.where(odd[..., None, None], np.nan, given))


def _cofactors_by_minors(a: Any) -> Any:
    """The cofactors as signed determinants of minors: on dual numbers (the Hessian), whose
    det is differentiated exactly at singular matrices too."""
    n = a.shape[-1]
    keep = np.array([[k for k in range(n) if k != i] for i in range(n)], dtype=np.intp).reshape(n, n - 1)
    minors = a[..., keep[:, None, :, None], keep[None, :, None, :]]
    signs = (-1.0) ** np.add.outer(np.arange(n), np.arange(n))
    return np.linalg.det(minors) * signs


def _nudged_lu(a: Array) -> tuple[Array, Array]:
    """The LU of A^T, as det's derivatives in PyTorch take it: a zero pivot taken as eps (det is C^1)."""
    lu, pivots, _, _ = _lu(_transposed(a))
    nudge = np.where(np.diagonal(lu, axis1=-2, axis2=-1) == 0, np.finfo(float).eps, 0.0)
    return lu + np.where(np.eye(a.shape[-1], dtype=bool), nudge[..., None, :], 0.0), pivots


def _det(a: Array, ranks: tuple[int, ...]) -> Array:
    _det_shape(*_point_shapes((a,), ranks))
    # PyTorch's det, for every matrix: the product of U's diagonal of its LU of A^T (a singular matrix's
    # det is what that LU's rounding leaves, 1e-18 or -0, as there).
    if _is_dual(a) or np.size(a) == 0:
        return np.asarray(np.linalg.det(a))
    return np.asarray(_lu_det(a))


def _det_vjp(g: Array, ans: Array, a: Array, ranks: tuple[int, ...]) -> tuple[Array]:
    if a.shape[-1] == 1:  # (PyTorch's gradient of a 1x1 det is g itself, at 0, NaN and inf too)
        return (g[..., None, None] * np.ones(a.shape),)
    if _is_dual(a):  # PyTorch's double backward: the exact cofactors (its SVD), singular or not
        odd = _non_finite(a)
        if odd.any():
            return (_nan_where_non_finite(a, odd, g[..., None, None] * _cofactors_by_minors(_eye_where(odd, a)), "det"),)
        return (g[..., None, None] * _cofactors_by_minors(a),)
    return (_cofactors(g, ans, a),)


def _cofactors(g: Array, ans: Array, a: Array) -> Array:
    """PyTorch's backward of det, its very steps: A^T X = diag(g det) solved by the LU of A^T, a zero
    pivot taken as eps (so a singular matrix's gradient is the zeros, each of the sign those steps give
    it, or what the det's rounding left times the nudged inverse)."""
    if np.size(a) == 0:  # (no matrices, or 0x0 ones: nothing to solve)
        return np.zeros(np.shape(a))
    lu, pivots = _nudged_lu(a)
    with np.errstate(all="ignore"):
        return np.asarray(_lu_solve(lu, pivots, _diag_embed(g * ans, a.shape[-1])))


def _det_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, ranks: tuple[int, ...]) -> Array:
    (t,) = tangents
    assert t is not None
    out = np.sum(_cofactors(np.ones_like(ans), ans, a) * t, axis=(-2, -1))
    odd = _non_finite(a)
    if odd.any():
        # PyTorch's: tr(A^-1 dA) det, by the LU of A^T (a zero pivot taken as eps)
        lu, pivots = _nudged_lu(a)
        with np.errstate(all="ignore"):
            trace = np.trace(_lu_solve(lu, pivots, np.broadcast_to(t, np.shape(a)), adjoint=True), axis1=-2, axis2=-1)
            out = np.where(odd, trace * ans, out)
    return np.asarray(out)


def lapack_info(a: Array) -> Array:
    """LAPACK's getrf info of each matrix: the place (from 1) of the first zero pivot of its LU, 0 where none is."""
    zeros = np.diagonal(_lu(np.asarray(a, dtype=float))[0], axis1=-2, axis2=-1) == 0
    return np.where(zeros.any(axis=-1), np.argmax(zeros, axis=-1) + 1, 0).astype(np.int32)


def _inv(a: Array, ranks: tuple[int, ...], singular_ok: bool = False) -> Array:
    # singular_ok: inv_ex's (check_errors=False), a singular matrix's inverse with LAPACK's infinities and NaN
    _inv_shape(*_point_shapes((a,), ranks))
    odd = _non_finite(a) | (_lu(np.asarray(getattr(a, "primal", a), dtype=float))[3] if singular_ok else False)
    try:
        if odd.any():
            return _solved(a, np.broadcast_to(np.eye(a.shape[-1]), a.shape), odd, singular_ok=singular_ok)
        return np.asarray(np.linalg.inv(a))
    except np.linalg.LinAlgError:
        raise _singular("linalg.inv", a) from None


def _singular(name: str, a: Array) -> LinAlgError:
    """PyTorch's words for an inverse of a singular matrix: LAPACK's info, the first zero pivot of its LU."""
    zeros = np.diagonal(_lu(np.asarray(a, dtype=float))[0], axis1=-2, axis2=-1) == 0
    bad = zeros.any(axis=-1) if zeros.any() else np.ones(zeros.shape[:-1], dtype=bool)
    first = zeros.reshape(-1, zeros.shape[-1])[int(np.argmax(np.reshape(bad, -1)))]
    element = int(np.argmax(first)) + 1 if first.any() else zeros.shape[-1]
    return LinAlgError(f"{name}: {batch_element(a, bad)}The diagonal element {element} is zero, the inversion could "
                       "not be completed because the input matrix is singular.")


def _inv_vjp(g: Array, ans: Array, a: Array, ranks: tuple[int, ...], singular_ok: bool = False) -> tuple[Array]:
    inverse_t = _transposed(ans)
    return (-(inverse_t @ (g @ inverse_t)),)  # (PyTorch's order: 0 * inf meets NaN where it does there)


def _inv_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, ranks: tuple[int, ...],
             singular_ok: bool = False) -> Array:
    (t,) = tangents
    return np.asarray(-(ans @ t @ ans))


def _solve_shape(a: Shape, b: Shape) -> Shape:
    _square_shape("linalg.solve")(a)
    vector = _is_vector_side(a, b)
    if not vector and len(b) < 2:
        raise ValueError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    rows, columns = (b[-1], 1) if vector else b[-2:]  # (a vector as the column PyTorch makes it)
    if rows != a[-1]:
        raise ValueError(f"linalg.solve: Incompatible shapes of A and B for the equation AX = B ({a[-2]}x{a[-1]} and "
                         f"{rows}x{columns})")
    batch = np.broadcast_shapes(a[:-2], b[:-1] if vector else b[:-2])
    return tuple(batch) + ((a[-1],) if vector else b[-2:])


def _is_vector_side(a: Shape, b: Shape) -> bool:
    """torch.linalg.solve: B is a (batch of) vector(s) if it is 1-D or has A's shape without its last axis."""
    return len(b) == 1 or tuple(b) == tuple(a[:-1])


def _solve_lifted(a: Any, b: Any, ranks: Sequence[int]) -> tuple[Any, Any, bool]:
    na, nb = ranks
    vector = _is_vector_side(a.shape[a.ndim - na:], b.shape[b.ndim - nb:])
    b2 = b[..., None] if vector else b
    width = max(na, nb + vector)
    return _pad(a, na, width), _pad(b2, nb + vector, width), vector


def _solve(a: Array, b: Array, ranks: tuple[int, ...], singular_ok: bool = False) -> Array:
    # singular_ok: solve_ex's (check_errors=False), a singular matrix's solution with LAPACK's infinities and NaN
    _solve_shape(*_point_shapes((a, b), ranks))
    a2, b2, vector = _solve_lifted(a, b, ranks)
    odd = _non_finite(a2) | (_lu(np.asarray(getattr(a2, "primal", a2), dtype=float))[3] if singular_ok else False)
    try:
        x = _solved(a2, b2, odd, singular_ok=singular_ok) if odd.any() else np.linalg.solve(a2, b2)
    except np.linalg.LinAlgError:
        singular = _lu(np.asarray(a, dtype=float))[3]
        raise LinAlgError(f"torch.linalg.solve: {batch_element(a, singular)}The solver failed because the input matrix "
                          "is singular.") from None
    return np.asarray(x[..., 0] if vector else x)


def _solve_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], singular_ok: bool = False
               ) -> tuple[Array, Array]:
    # X = A^-1 B: gB = A^-T g, gA = -gB X^T (PyTorch's linalg_solve_backward).
    a2, b2, vector = _solve_lifted(a, b, ranks)
    x = ans[..., None] if vector else ans
    g2 = g[..., None] if vector else g
    if _is_dual(a2):
        gb = _dual_solve(np.broadcast_to(_transposed(a2), np.broadcast_shapes(a2.shape[:-2], g2.shape[:-2])
                                         + a2.shape[-2:]), g2, "solve")
    else:
        odd = _non_finite(a2) | (_lu(np.asarray(getattr(a2, "primal", a2), dtype=float))[3] if singular_ok else False)
        gb = (_solved(a2, g2, odd, adjoint=True, singular_ok=singular_ok) if odd.any()
              else np.linalg.solve(_transposed(a2), g2))
    ga = -_product_of(gb, _transposed(x))  # (a vector's: the outer product, each zero's sign kept, as PyTorch's)
    return unbroadcast(ga, a2.shape).reshape(a.shape), unbroadcast(gb, b2.shape).reshape(b.shape)


def _solve_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, b: Array, ranks: tuple[int, ...],
               singular_ok: bool = False) -> Array:
    # dX = A^-1 (dB - dA X)
    ta, tb = tangents
    a2, b2, vector = _solve_lifted(a, b, ranks)
    x = ans[..., None] if vector else ans
    rhs: Any = 0.0
    if tb is not None:
        rhs = rhs + (tb[..., None] if vector else _pad(tb, ranks[1], b2.ndim - (b.ndim - ranks[1])))
    if ta is not None:
        rhs = rhs - _pad(ta, ranks[0], a2.ndim - (a.ndim - ranks[0])) @ x
    rhs = np.broadcast_to(rhs, x.shape)
    a2 = np.broadcast_to(a2, x.shape[:-2] + a2.shape[-2:])
    odd = _non_finite(a2) | (_lu(np.asarray(getattr(a2, "primal", a2), dtype=float))[3] if singular_ok else False)
    dx = _solved(a2, rhs, odd, singular_ok=singular_ok) if odd.any() else np.linalg.solve(a2, rhs)
    return np.asarray(dx[..., 0] if vector else dx)


def _dual_solve(a: Any, b: Any, name: str) -> Any:
    """A^-1 B on the Hessian's dual numbers. PyTorch's double backward solves with the matrix
    itself: where it is singular (by its LU, NaN and infinities as they fall), PyTorch raises."""
    from gradcli.errors import ShapeProblem  # (the one error a rule raises in the reverse sweep)

    primal = getattr(a, "primal", a)
    if np.any(_lu(primal)[3]):
        raise ShapeProblem(f"the second derivative of {name} here solves with the matrix, which is singular: it has "
                           "no inverse (PyTorch raises here too)")
    odd = _non_finite(primal)
    if not odd.any():
        return np.linalg.solve(a, b)
    from gradcli.dual import Dual, tangent

    # X = A^-1 B, dX = A^-1 (dB - dA X), each solve by the LU of A
    x = _solved(primal, getattr(b, "primal", b), odd)
    ta, tb = tangent(a), tangent(b)
    rhs = np.zeros(x.shape) if ta is None else -(ta @ x)
    if tb is not None:
        rhs = rhs + tb
    return Dual(x, _solved(primal, np.broadcast_to(rhs, x.shape), odd))


def _slogdet(a: Array, ranks: tuple[int, ...], part: int = 0, of: Any = None) -> Array:
    # (sign, log|det|), PyTorch's from the LU: a singular matrix is (0, -inf)
    _slogdet_shape(*_point_shapes((a,), ranks))
    sign, logabsdet = np.linalg.slogdet(a)
    odd = _non_finite(a)
    if odd.any():
        lu_sign, lu_logabsdet, _, _ = _lu_slogdet(a)
        sign, logabsdet = np.where(odd, lu_sign, sign), np.where(odd, lu_logabsdet, logabsdet)
    return np.asarray(logabsdet if part % 2 else sign)


def _slogdet_vjp(g: Array, ans: Array, a: Array, ranks: tuple[int, ...], part: int = 0,
                 of: Any = None) -> tuple[Array | None]:
    # d log|det A| = A^-T; the sign of a real matrix takes no gradient.
    if part % 2 == 0:
        return (None,)  # (PyTorch's backward leaves it undefined: a.grad stays None)
    n = a.shape[-1]
    if _is_dual(a):  # PyTorch's double backward: A^T X = diag(g), solved with A^T itself
        return (_dual_solve(_transposed(a), _diag_embed(g, n), "logdet"),)
    # Where A holds NaN or an infinity, or is singular (cofactors / det: infinities and NaN), the
    # pattern is that of PyTorch's LU solve: its very steps, A^T X = diag(g) by its LU of A^T.
    odd, plain, _ = _by_lu(a)
    cotangent = g[..., None, None] * _transposed(np.linalg.inv(plain))
    if odd.any():
        _, _, lu, pivots = _lu_slogdet(a)
        with np.errstate(all="ignore"):
            ours = _lu_solve(lu, pivots, _diag_embed(g, n))
        cotangent = np.where(odd[..., None, None], ours, cotangent)
    return (cotangent,)


def _by_lu(a: Array) -> tuple[Array, Array, Array]:
    """(where logdet's derivatives take PyTorch's LU steps: a matrix holding NaN or an infinity, or
    singular; the matrices with I there, for NumPy's LAPACK; their det)."""
    odd = _non_finite(a)
    det = np.linalg.det(_eye_where(odd, a))
    odd = odd | (det == 0)
    return odd, _eye_where(odd, a), det


def _slogdet_jvp(tangents: Sequence[Array | None], ans: Array, a: Array, ranks: tuple[int, ...], part: int = 0,
                 of: Any = None) -> Array:
    (t,) = tangents
    if part % 2 == 0 or t is None:
        return np.zeros(np.shape(ans))
    odd, plain, _ = _by_lu(a)
    out = np.sum(_transposed(np.linalg.inv(plain)) * t, axis=(-2, -1))
    if odd.any():
        # PyTorch's: tr(A^-1 dA) by the LU of A^T
        _, _, lu, pivots = _lu_slogdet(a)
        with np.errstate(all="ignore"):
            trace = np.trace(_lu_solve(lu, pivots, np.broadcast_to(t, np.shape(a)), adjoint=True), axis1=-2, axis2=-1)
        out = np.where(odd, trace, out)
    return np.asarray(out)


def _logdet_program(emit: Any, a: Any) -> Any:
    # PyTorch's logdet: where(sign == -1, NaN, logabsdet) over slogdet's two outputs
    return emit("where", emit("eq", emit("slogdet", a, part=0), -1.0), float("nan"), emit("slogdet", a, part=1))


def _sym_slogdet(a: Array, part: int = 0, of: Any = None) -> Array:
    if a.ndim > 2:
        return np.array([_sym_slogdet(m, part) for m in a], dtype=object)
    sympy = _sympy()
    det = _sym_det(a).item()
    return np.asarray(sympy.log(sympy.Abs(det)) if part % 2 else sympy.sign(det), dtype=object)


def _sym_det(a: Array) -> Array:
    sympy = _sympy()
    return np.asarray(sympy.Matrix(a.tolist()).det(method="berkowitz") if a.ndim == 2 else
                      np.array([_sym_det(m) for m in a], dtype=object), dtype=object)


def _sym_inv(a: Array) -> Array:
    if a.ndim > 2:
        return np.array([_sym_inv(m) for m in a], dtype=object)
    return np.array(_sympy().Matrix(a.tolist()).inv(method="LU").tolist(), dtype=object)


def _sym_solve(a: Array, b: Array) -> Array:
    inverse = _sym_inv(a)
    if _is_vector_side(a.shape, b.shape):
        return np.asarray(np.matmul(inverse, b[..., None])[..., 0], dtype=object)
    return np.asarray(np.matmul(inverse, b), dtype=object)


def _sympy() -> Any:
    from gradcli.ops.core import load_sympy

    return load_sympy()


# --- einsum, tensordot, kron: products written as einsum subscripts ---------------------------


def _parse_equation(equation: str, count: int) -> tuple[list[str], str]:
    """torch.einsum's subscripts -> (the subscripts of each operand, the output's); ValueError
    saying what is wrong. Without '->' the output is the letters used once, in order."""
    text = equation.replace(" ", "")
    left, arrow, output = text.partition("->")
    inputs = left.split(",")
    for part in [*inputs, output]:
        if not all(c in _LETTERS for c in part):
            raise ValueError(f"einsum: subscripts are letters, got {part!r} (and '...' is not supported)")
    if len(inputs) != count:
        raise ValueError(f"einsum: the equation names {len(inputs)} operands, but {count} are given")
    if not arrow:
        output = "".join(sorted(c for c in set(left) - {","} if left.count(c) == 1))
    if len(set(output)) != len(output) or not set(output) <= set("".join(inputs)):
        raise ValueError(f"einsum: the output subscripts {output!r} must be letters of the operands, each once")
    return inputs, output


def _einsum_shape(*shapes: Shape, equation: str = "") -> Shape:
    inputs, output = _parse_equation(equation, len(shapes))
    sizes: dict[str, int] = {}
    for k, (part, shape) in enumerate(zip(inputs, shapes, strict=True)):  # (PyTorch's words)
        if len(part) != len(shape):
            raise ValueError(f"einsum(): the number of subscripts in the equation ({len(part)}) does not match the "
                             f"number of dimensions ({len(shape)}) for operand {k} and no ellipsis was given")
    for k, (part, shape) in enumerate(zip(inputs, shapes, strict=True)):
        for c, n in zip(part, shape, strict=True):
            if sizes.setdefault(c, n) != n:
                if 1 in (n, sizes[c]):  # (PyTorch broadcasts a subscript of size 1)
                    raise Unsupported(f"subscript {c} of size {n} and of size {sizes[c]} (PyTorch broadcasts a "
                                      "size of 1)")
                raise ValueError(f"einsum(): subscript {c} has size {n} for operand {k} which does not broadcast "
                                 f"with previously seen size {sizes[c]}")
    return tuple(sizes[c] for c in output)


def _einsum_op(*operands: Array, ranks: tuple[int, ...], equation: str = "") -> Array:
    _einsum_shape(*_point_shapes(operands, ranks), equation=equation)
    inputs, output = _parse_equation(equation, len(operands))
    return np.asarray(_einsum(inputs, output, operands, ranks))


def _einsum_vjp(g: Array, ans: Array, *operands: Array, ranks: tuple[int, ...], equation: str = "") -> tuple[Array, ...]:
    inputs, output = _parse_equation(equation, len(operands))
    return tuple(_einsum_cotangent(i, inputs, output, operands, g, ranks) for i in range(len(operands)))


def _einsum_jvp(tangents: Sequence[Array | None], ans: Array, *operands: Array, ranks: tuple[int, ...],
                equation: str = "") -> Any:
    inputs, output = _parse_equation(equation, len(operands))
    terms = [_einsum(inputs, output, [*operands[:i], t, *operands[i + 1:]], ranks)
             for i, t in enumerate(tangents) if t is not None]
    return sum(terms[1:], terms[0]) if terms else 0.0


def _einsum_torch_node(constant: Sequence[bool], shapes: Any, equation: str = "") -> str:
    # torch.einsum's last step: a sum (one operand), a permute, a product (nothing summed), or
    # the view of a bmm.
    inputs, output = _parse_equation(equation, len(constant))
    letters = set("".join(inputs))
    if len(inputs) == 1:
        return "PermuteBackward0" if letters == set(output) else "SumBackward1"
    return "MulBackward0" if letters == set(output) else "ViewBackward0"


# --- einsum as PyTorch records it, where the shapes are known -----------------------------------
# PyTorch's einsum lays every operand out as the output's labels then the contracted ones (in
# label order): a repeated label is a Diagonal moved back to the label's first place (a Permute), a
# label the operand lacks an Unsqueeze at the end, then one Permute into that layout. One operand
# is its Sum over the contracted dims; more are contracted left to right, two at a time: a dim left
# in one of the pair and in no later operand is summed first (Sum, keepdim), and the pair is a Mul
# where no dim is contracted, else a Bmm between each side's Permute and reshape, viewed back and
# permuted into the layout. The contracted dims, size 1 by then, are viewed away at the end. A dim of
# size 1 is not a dim PyTorch contracts (it broadcasts). Each value's strides are followed, as the
# reshapes depend on them; the operands are taken as contiguous.


def _strides_of(shape: Sequence[int]) -> list[int]:
    return [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]


class _Laid:
    """A value of the einsum's program with the shape and strides PyTorch gives it."""

    def __init__(self, handle: Any, shape: Sequence[int], strides: Sequence[int]) -> None:
        self.handle, self.shape, self.strides = handle, list(shape), list(strides)

    def permute(self, emit: Any, order: Sequence[int]) -> _Laid:
        return _Laid(emit("permute", self.handle, dims=tuple(order)), [self.shape[i] for i in order],
                     [self.strides[i] for i in order])


def _einsum_operand(emit: Any, laid: _Laid, labels: str, place: dict[str, int]) -> _Laid:
    """One operand in the common layout: diagonals of repeated labels, unsqueezes, one permute."""
    order = [-1] * len(place)
    dim = 0
    for c in labels:
        if order[place[c]] == -1:
            order[place[c]] = dim
            dim += 1
            continue
        first, shape, strides = order[place[c]], laid.shape, laid.strides
        keep = [d for d in range(len(shape)) if d not in (first, dim)]
        diagonal = _Laid(emit("diagonal", laid.handle, offset=0, dim1=first, dim2=dim),
                         [shape[d] for d in keep] + [shape[dim]],
                         [strides[d] for d in keep] + [strides[first] + strides[dim]])
        back = list(range(len(keep)))
        back.insert(first, len(keep))  # movedim(-1, first)
        laid = _Laid(emit("movedim", diagonal.handle, source=-1, destination=first),
                     [diagonal.shape[i] for i in back], [diagonal.strides[i] for i in back])
    for i, d in enumerate(order):
        if d == -1:
            laid = _Laid(emit("unsqueeze", laid.handle, dim=dim), [*laid.shape, 1], [*laid.strides, 1])
            order[i], dim = dim, dim + 1
    return laid.permute(emit, order)


def _sumproduct_pair(emit: Any, left: _Laid, right: _Laid, summed: list[int]) -> _Laid:
    """(left * right) summed over `summed` (kept as dims of 1), as a Mul or a Bmm."""
    if not summed:
        shape = [max(x, y) for x, y in zip(left.shape, right.shape, strict=True)]
        return _Laid(emit("mul", left.handle, right.handle), shape, _strides_of(shape))
    both: list[int] = []
    only_left: list[int] = []
    only_right: list[int] = []
    for d in range(len(left.shape)):
        if d in summed:
            continue
        in_left, in_right = left.shape[d] != 1, right.shape[d] != 1
        (both if in_left and in_right else only_left if in_left else only_right).append(d)
    size = lambda side, dims: int(np.prod([side.shape[d] for d in dims], dtype=np.int64))
    sizes = size(left, both), size(left, only_left), size(left, summed), size(right, only_right)
    lhs = left.permute(emit, both + only_left + summed + only_right)
    rhs = right.permute(emit, both + summed + only_right + only_left)
    product = emit("bmm", _reshaped(emit, lhs.handle, lhs.shape, lhs.strides, (sizes[0], sizes[1], sizes[2])),
                   _reshaped(emit, rhs.handle, rhs.shape, rhs.strides, (sizes[0], sizes[2], sizes[3])))
    out = ([left.shape[d] for d in both] + [left.shape[d] for d in only_left] + [1] * len(summed)
           + [right.shape[d] for d in only_right])
    layout = both + only_left + summed + only_right
    back = [layout.index(d) for d in range(len(layout))]
    return _Laid(emit("reshape", product, shape=tuple(out)), out, _strides_of(out)).permute(emit, back)


def _einsum_parts(emit: Any, operands: Sequence[Any], shapes: Sequence[Shape], inputs: list[str], output: str) -> Any:
    contracted = sorted(set("".join(inputs)) - set(output))
    place = {c: i for i, c in enumerate([*output, *contracted])}
    laid = [_einsum_operand(emit, _Laid(x, shape, _strides_of(shape)), labels, place)
            for x, shape, labels in zip(operands, shapes, inputs, strict=True)]
    n_out, n_all = len(output), len(place)
    if len(laid) == 1:
        if n_all == n_out:
            return laid[0].handle
        return emit("sum", laid[0].handle, dim=tuple(range(n_out, n_all)))
    # how many operands still hold each dim with a size other than 1
    holders = [sum(1 for x in laid if x.shape[d] != 1) for d in range(n_all)]
    while len(laid) > 1:
        a, b = laid[0], laid[1]
        summed: list[int] = []
        a_only: list[int] = []
        b_only: list[int] = []
        for d in range(n_out, n_all):
            if a.shape[d] != 1 and b.shape[d] != 1:
                holders[d] -= 1
                if holders[d] == 1:
                    summed.append(d)
                    holders[d] = 0
            elif holders[d] == 1 and (a.shape[d] != 1 or b.shape[d] != 1):
                (a_only if a.shape[d] != 1 else b_only).append(d)
                holders[d] = 0
        if a_only:
            a = _summed_kept(emit, a, a_only)
        if b_only:
            b = _summed_kept(emit, b, b_only)
        laid = [_sumproduct_pair(emit, a, b, summed), *laid[2:]]
    if n_all == n_out:
        return laid[0].handle
    return emit("reshape", laid[0].handle, shape=tuple(laid[0].shape[:n_out]))


def _summed_kept(emit: Any, laid: _Laid, dims: list[int]) -> _Laid:
    shape = [1 if d in dims else n for d, n in enumerate(laid.shape)]
    return _Laid(emit("sum", laid.handle, dim=tuple(dims), keepdim=True), shape, _strides_of(shape))


def _einsum_program(emit: Any, *operands: Any, equation: str = "") -> Any:
    shapes = [emit.shape(x) for x in operands]
    if any(shape is None for shape in shapes):
        return emit("einsum_whole", *operands, equation=equation)
    _einsum_shape(*shapes, equation=equation)  # (what does not fit is said as before)
    inputs, output = _parse_equation(equation, len(operands))
    return _einsum_parts(emit, operands, shapes, inputs, output)


def _sym_einsum_op(*operands: Array, equation: str = "") -> Array:
    inputs, output = _parse_equation(equation, len(operands))
    return np.asarray(np.einsum(",".join(inputs) + "->" + output, *operands), dtype=object)


def _tensordot_subscripts(ranks: Sequence[int], dims: Any) -> tuple[list[str], str]:
    na, nb = ranks
    if isinstance(dims, int):  # (torch.functional.tensordot's checks, in its words)
        if dims < 0:
            raise ValueError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(na, nb):
            raise ValueError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        pairs = list(zip(range(na - dims, na), range(dims), strict=True))
    else:
        if len(dims[0]) != len(dims[1]):
            raise ValueError("tensordot: both lists of dims must have one length")
        pairs = [(d % max(na, 1) if -na <= d < na else na, e % max(nb, 1) if -nb <= e < nb else nb)
                 for d, e in zip(*dims, strict=True)]
        if any(d >= na or e >= nb for d, e in pairs):
            raise ValueError("tensordot: Dimension out of range")
    a, b = list(_letters(na)), list(_letters(nb, na))
    for d, e in pairs:
        b[e] = a[d]
    summed = {a[d] for d, _ in pairs}
    return ["".join(a), "".join(b)], "".join(c for c in a + b if c not in summed)


def _tensordot_shape(a: Shape, b: Shape, dims: Any = 2) -> Shape:
    if not isinstance(dims, int) and len(dims[0]) != len(dims[1]):
        raise ValueError("both dimension lists should have same length")
    given = (range(-min(dims, len(a)), 0), range(min(dims, len(b)))) if isinstance(dims, int) else dims
    if isinstance(dims, int):
        _tensordot_subscripts((len(a), len(b)), dims)  # (the number's checks first)
    for d, e in zip(*given, strict=True):  # (its C++ walks the pairs as given)
        first, second = _size(a, d), _size(b, e)
        if first != second and 1 in (first, second):
            raise Unsupported(f"a contracted dim of size 1 against one of size {first + second - 1} (PyTorch sums "
                              "over the one of size 1)")
        if first != second:
            raise ValueError(f"contracted dimensions need to match, but first has size {first} in dim {d} and second "
                             f"has size {second} in dim {e}")
    inputs, output = _tensordot_subscripts((len(a), len(b)), dims)
    return _einsum_shape(a, b, equation=",".join(inputs) + "->" + output)


def _tensordot(a: Array, b: Array, ranks: tuple[int, ...], dims: Any = 2) -> Array:
    a_shape, b_shape = _point_shapes((a, b), ranks)
    _tensordot_shape(a_shape, b_shape, dims=dims)
    inputs, output = _tensordot_subscripts(ranks, dims)
    return np.asarray(_einsum(inputs, output, (a, b), ranks))


def _tensordot_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...], dims: Any = 2) -> tuple[Any, Any]:
    inputs, output = _tensordot_subscripts(ranks, dims)
    return (_einsum_cotangent(0, inputs, output, (a, b), g, ranks),
            _einsum_cotangent(1, inputs, output, (a, b), g, ranks))


# --- tensordot and inner as PyTorch records them, where the shapes are known --------------------
# PyTorch's tensordot permutes each operand (free dims of a then its contracted ones; b's contracted
# then free), reshapes them to matrices, multiplies (mm; dot when nothing is free) and views the
# product in the output's shape. A reshape is a View where the permuted operand is contiguous, a
# ReshapeAlias where its strides allow a view, and else a Clone under an UnsafeView (a vector going
# into the dot is not reshaped). The operands are taken as contiguous (as every input is). Where
# the shapes are not known (a tape for many points) the product is one node (tensordot_whole).


def _contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides), strict=True):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def _viewable(shape: Sequence[int], strides: Sequence[int], target: Sequence[int]) -> bool:
    """Can `target` be a view of a tensor of this shape and these strides (PyTorch's computeStride)?"""
    if not shape or int(np.prod(shape)) == 0:
        return True
    view_d, base = len(target) - 1, strides[-1]
    tensor_numel = view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * base):
            while view_d >= 0 and (view_numel < tensor_numel or target[view_d] == 1):
                view_numel *= target[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return False
            if d > 0:
                base, tensor_numel, view_numel = strides[d - 1], 1, 1
    return view_d == -1


def _reshaped(emit: Any, handle: Any, shape: Sequence[int], strides: Sequence[int], target: tuple[int, ...]) -> Any:
    if 0 in shape or _contiguous(shape, strides):  # (a tensor of no element is contiguous, whatever its strides)
        return emit("reshape", handle, shape=target)
    if _viewable(shape, strides, target):
        return emit("reshape_alias", handle, shape=target)
    return emit("unsafe_view", emit("clone", handle), shape=target)


def _permuted(emit: Any, handle: Any, shape: Sequence[int], order: list[int]) -> tuple[Any, list[int], list[int]]:
    strides = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
    return emit("permute", handle, dims=tuple(order)), [shape[i] for i in order], [strides[i] for i in order]


def _tensordot_parts(emit: Any, a: Any, b: Any, sa: Shape, sb: Shape, da: list[int], db: list[int]) -> Any:
    free_a = [d for d in range(len(sa)) if d not in da]
    free_b = [d for d in range(len(sb)) if d not in db]
    pa, shape_a, strides_a = _permuted(emit, a, sa, free_a + da)
    pb, shape_b, strides_b = _permuted(emit, b, sb, db + free_b)
    size1 = int(np.prod([sa[d] for d in free_a], dtype=np.int64))
    size2 = int(np.prod([sb[d] for d in free_b], dtype=np.int64))
    csize = int(np.prod([sa[d] for d in da], dtype=np.int64))
    out = tuple(sa[d] for d in free_a) + tuple(sb[d] for d in free_b)
    if size1 == 1 and size2 == 1:  # one number out: a dot of two vectors (a vector is not reshaped)
        product = emit("dot", pa if len(sa) == 1 else _reshaped(emit, pa, shape_a, strides_a, (csize,)),
                       pb if len(sb) == 1 else _reshaped(emit, pb, shape_b, strides_b, (csize,)))
    else:
        product = emit("mm", _reshaped(emit, pa, shape_a, strides_a, (size1, csize)),
                       _reshaped(emit, pb, shape_b, strides_b, (csize, size2)))
    return emit("reshape", product, shape=out)


def _contracted(na: int, nb: int, dims: Any) -> tuple[list[int], list[int]]:
    if isinstance(dims, int):
        return list(range(na - dims, na)), list(range(dims))
    return [d % na for d in dims[0]], [e % nb for e in dims[1]]


def _tensordot_program(emit: Any, a: Any, b: Any, dims: Any = 2) -> Any:
    sa, sb = emit.shape(a), emit.shape(b)
    if sa is None or sb is None:
        return emit("tensordot_whole", a, b, dims=dims)
    _tensordot_shape(sa, sb, dims=dims)  # (what does not fit is said as before)
    da, db = _contracted(len(sa), len(sb), dims)
    return _tensordot_parts(emit, a, b, sa, sb, da, db)


def _inner_program(emit: Any, a: Any, b: Any) -> Any:
    sa, sb = emit.shape(a), emit.shape(b)
    if sa is None or sb is None:
        return emit("inner_whole", a, b)
    if not sa or not sb:  # a number times a tensor
        return emit("mul", a, b)
    _inner_shape(sa, sb)
    return _tensordot_parts(emit, a, b, sa, sb, [len(sa) - 1], [len(sb) - 1])


def _sym_tensordot(a: Array, b: Array, dims: Any = 2) -> Array:
    inputs, output = _tensordot_subscripts((a.ndim, b.ndim), dims)
    return np.asarray(np.einsum(",".join(inputs) + "->" + output, a, b), dtype=object)


def _kron_shape(a: Shape, b: Shape) -> Shape:
    r = max(len(a), len(b))
    a, b = (1,) * (r - len(a)) + a, (1,) * (r - len(b)) + b
    return tuple(x * y for x, y in zip(a, b, strict=True))


def _spread(x: Array, other: Array, ranks: tuple[int, ...], side: int = 0) -> Array:
    # kron's operand x padded to the rank r of both and given an axis of 1 beside each of its own:
    # (a0, 1, a1, 1) for the first (side 0), (1, b0, 1, b1) for the second; their product is kron's
    # (a0, b0, a1, b1), which merge_pairs views as (a0*b0, a1*b1): PyTorch's three _unsafe_views
    r = max(ranks)
    padded = _pad(x, ranks[0], r)
    own = padded.shape[padded.ndim - r:]
    pairs = tuple(size for n in own for size in ((n, 1) if side == 0 else (1, n)))
    return padded.reshape(padded.shape[: padded.ndim - r] + pairs)


def _spread_vjp(g: Array, ans: Array, x: Array, other: Array, ranks: tuple[int, ...], side: int = 0) -> tuple[Array, None]:
    return np.reshape(g, np.shape(g)[: np.ndim(g) - 2 * max(ranks)] + np.shape(x)[np.ndim(x) - ranks[0]:]), None


def _spread_jvp(tangents: Any, ans: Array, x: Array, other: Array, ranks: tuple[int, ...], side: int = 0) -> Array:
    if tangents[0] is None:
        return np.zeros_like(ans)
    return _spread(np.broadcast_to(tangents[0], np.shape(x)), other, ranks, side)


def _merge_pairs(x: Array, ranks: tuple[int, ...]) -> Array:
    own = np.shape(x)[np.ndim(x) - ranks[0]:]
    return np.reshape(x, np.shape(x)[: np.ndim(x) - ranks[0]] + tuple(
        own[i] * own[i + 1] for i in range(0, len(own), 2)))


def _merge_pairs_shape(x: Shape) -> Shape:
    return tuple(x[i] * x[i + 1] for i in range(0, len(x), 2))


def _kron_program(emit: Any, a: Any, b: Any) -> Any:
    # PyTorch's kron: a and b viewed with axes of 1 between their own, multiplied, viewed in pairs
    return emit("merge_pairs", emit("mul", emit("spread", a, b, side=0), emit("spread", b, a, side=1)))


# --- cross: torch.linalg.cross, of 3-vectors along dim (-1) -----------------------------------


def _cross_dim(a: Shape, b: Shape, dim: int | None) -> int:
    """torch.cross(a, b) and a.cross(b) without a dim: PyTorch's deprecated default, the first dim of size 3."""
    if dim is not None:
        return dim
    found = next((i for i, size in enumerate(broadcast_shape([a, b])) if size == 3), None)
    if found is None:
        raise ValueError("no dimension of size 3 in input")
    return found


def _cross_shape(a: Shape, b: Shape, dim: int | None = -1) -> Shape:
    if len(a) != len(b):
        raise ValueError("linalg.cross: inputs must have the same number of dimensions.")
    dim = _cross_dim(a, b, dim)
    _size(a, dim)
    axis = point_axes(dim, len(a))
    if not axis or a[axis[0]] != 3 or b[axis[0]] != 3:
        raise ValueError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                         f"{a[axis[0]] if axis else 1} and {b[axis[0]] if axis else 1}")
    return tuple(broadcast_shape([a, b]))


def _cross(a: Array, b: Array, ranks: tuple[int, ...], dim: int | None = -1) -> Array:
    a_shape, b_shape = _point_shapes((a, b), ranks)
    _cross_shape(a_shape, b_shape, dim=dim)
    dim = _cross_dim(a_shape, b_shape, dim)
    return np.asarray(np.cross(a, b, axis=point_axes(dim, ranks[0])[0]))


def _cross_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...],
               dim: int | None = -1) -> tuple[Any, Any]:
    a_shape, b_shape = _point_shapes((a, b), ranks)
    axis = point_axes(_cross_dim(a_shape, b_shape, dim), ranks[0])[0]
    return np.cross(b, g, axis=axis), np.cross(g, a, axis=axis)


def _sym_cross(a: Array, b: Array, dim: int | None = -1) -> Array:
    a, b = np.broadcast_arrays(a, b)
    axis = point_axes(_cross_dim(a.shape, b.shape, dim), a.ndim)[0]
    x, y = np.moveaxis(a, axis, 0), np.moveaxis(b, axis, 0)
    out = np.stack([x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]])
    return np.asarray(np.moveaxis(out, 0, axis), dtype=object)


def _tensordot_text(args: Sequence[str], dims: Any = 2) -> str:
    given = "" if dims == 2 else f", dims={dims}" if isinstance(dims, int) else f", dims=({list(dims[0])}, {list(dims[1])})"
    return f"tensordot({', '.join(args)}{given})"


def _einsum_text(args: Sequence[str], equation: str = "") -> str:
    return f"einsum({equation!r}, {', '.join(args)})"


# --- addmm, addmv, addr: beta * input + alpha * (a product), BLAS's fused forms ---------------
#
# As BLAS, a beta of 0 ignores the input (its NaNs too) and an alpha of 0 the product; the
# gradients are PyTorch's maybe_multiply: the product's gradient times alpha (0 * NaN is NaN).

BETA, ALPHA = Param("beta", "float", 1.0), Param("alpha", "float", 1.0)


def _outer_product(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    return np.asarray(a[..., :, None] * b[..., None, :])


def _outer_product_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    # PyTorch's addr backward: grad.mv(vec2) and grad.t().mv(vec1)
    return np.matmul(g, b[..., :, None])[..., 0], np.matmul(np.swapaxes(g, -1, -2), a[..., :, None])[..., 0]


def _lift_input(x: Array, rank: int, width: int) -> Array:
    """The input of an add-product with axes of 1 put in front of its own, to `width` of them, after
    its batch axis: it broadcasts against the product's points."""
    return _pad(x, rank, width) if x.ndim > rank else x


def _fused(product: Any, product_vjp: Any, shape_rule: Any) -> tuple[Any, Any, Any]:
    """forward, vjp and jvp of beta * input + alpha * product(a, b)."""
    def forward(x: Array, a: Array, b: Array, ranks: tuple[int, ...], beta: float = 1.0, alpha: float = 1.0) -> Array:
        width = len(shape_rule(*_point_shapes((x, a, b), ranks)))
        for name, number in (("beta", beta), ("alpha", alpha)):
            if x.dtype.kind in "biu" and not float(number).is_integer():  # (`gradcli run`'s integer tensors)
                raise ValueRefusal(f"For integral input tensors, argument {name} must not be a floating point number.")
        blas = {(2, 2): mkl.addmm, (2, 1): mkl.addmv}.get((ranks[1], ranks[2])) if product is _matmul else None
        if blas is not None and np.ndim(x) == ranks[0] and np.ndim(a) == ranks[1] and np.ndim(b) == ranks[2]:
            # PyTorch's addmm and addmv: the input copied into the result, then BLAS's beta * it + alpha * a @ b
            fused = blas(x, a, b, beta, alpha)
            if fused is not None:
                return fused
        made = product(a, b, ranks[1:])
        made = np.zeros_like(made) if alpha == 0 else made if alpha == 1 else alpha * made
        lifted = _lift_input(x, ranks[0], width)
        if beta == 0:
            return np.asarray(np.broadcast_to(made, np.broadcast_shapes(made.shape, lifted.shape)) + 0.0)
        return np.asarray(made + (lifted if beta == 1 else beta * lifted))

    def vjp(g: Array, ans: Array, x: Array, a: Array, b: Array, ranks: tuple[int, ...], beta: float = 1.0,
            alpha: float = 1.0) -> tuple[Array, Array, Array]:
        lifted = _lift_input(x, ranks[0], len(shape_rule(*_point_shapes((x, a, b), ranks))))
        gx = unbroadcast(g if beta == 1 else g * beta, lifted.shape).reshape(x.shape)
        ga, gb = product_vjp(g, ans, a, b, ranks[1:])
        if alpha != 1:
            ga, gb = ga * alpha, gb * alpha
        return gx, unbroadcast(ga, a.shape), unbroadcast(gb, b.shape)

    def jvp(tangents: Sequence[Array | None], ans: Array, x: Array, a: Array, b: Array, ranks: tuple[int, ...],
            beta: float = 1.0, alpha: float = 1.0) -> Array:
        tx, ta, tb = tangents
        out = np.zeros_like(ans)
        if tx is not None:
            width = len(shape_rule(*_point_shapes((x, a, b), ranks)))
            out = out + beta * _lift_input(np.broadcast_to(tx, x.shape), ranks[0], width)
        if ta is not None:
            out = out + alpha * product(np.broadcast_to(ta, a.shape), b, ranks[1:])
        if tb is not None:
            out = out + alpha * product(a, np.broadcast_to(tb, b.shape), ranks[1:])
        return out

    return forward, vjp, jvp


def _fused_shape(name: str, product_shape: Any) -> Any:
    def shape(x: Shape, a: Shape, b: Shape, beta: float = 1.0, alpha: float = 1.0) -> Shape:
        if name in ("baddbmm", "addbmm"):  # (PyTorch expands the input to (b1.size(0),) b1.size(1), b2.size(2) first)
            _size(a, 1)
            target = (*([_size(a, 0)] if name == "baddbmm" else []), _size(a, 1), _size(b, 2))
            problem = expand_problem(x, target)
            if problem is not None:
                raise ValueError(problem)
            if name == "addbmm" and len(a) == len(b) == 3 and a[0] != b[0]:
                raise ValueError(f"batch1 and batch2 must have same number of batches, got {a[0]} and {b[0]}")
            if name == "addbmm" and len(a) == len(b) == 3 and a[2] != b[1]:
                raise ValueError(f"Incompatible matrix sizes for bmm ({a[1]}x{a[2]} and {b[1]}x{b[2]})")
        if name == "addmv":
            if (len(a), len(b)) != (2, 1) or len(x) > 1:
                raise ValueError(f"vector + matrix @ vector expected, got {len(x)}, {len(a)}, {len(b)}")
            if a[1] != b[0] or (math.prod(x) != a[0] and math.prod(x) != 1):
                raise ValueError(f"size mismatch, got input ({x[0] if x else 1}), mat ({a[0]}x{a[1]}), vec ({b[0]})")
        out = product_shape(a, b, fused=name) if name in ("addmm", "baddbmm") else product_shape(a, b)
        if len(x) > len(out):
            raise too_few_sizes(x, out)  # (PyTorch expands the input to the product's shape)
        problem = expand_problem(x, out)  # (the input expanded to the product's shape, as PyTorch's)
        if problem is not None:
            raise ValueError(problem)
        return tuple(out)

    return shape


def _outer_product_shape(a: Shape, b: Shape) -> Shape:
    for arg, size in (("vec1", a), ("vec2", b)):
        if len(size) != 1:
            raise ValueError(f"addr: Expected 1-D argument {arg}, but got {len(size)}-D")
    return (a[0], b[0])


def _size(shape: Shape, dim: int) -> int:
    """C++'s tensor.size(dim): a dim out of range its IndexError."""
    if not shape:
        raise DimError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -len(shape) <= dim < len(shape):
        raise DimError(f"Dimension out of range (expected to be in range of [{-len(shape)}, {len(shape) - 1}], but got {dim})")
    return shape[dim]


def _sym_fused(product: Any) -> Any:
    def build(x: Array, a: Array, b: Array, beta: float = 1.0, alpha: float = 1.0) -> Array:
        made = product(a, b)
        return np.asarray((0 if beta == 0 else beta * x) + (0 if alpha == 0 else alpha * made), dtype=object)

    return build


# PyTorch's checks of the dtypes of addmm and addbmm: the input against mat2, then mat1 against mat2
_ADDMM_DTYPES = (("mixed 0 2", "RuntimeError", "self and mat2 must have the same dtype, but got {0} and {2}"),
                 ("mixed 1 2", "RuntimeError", "mat1 and mat2 must have the same dtype, but got {1} and {2}"))


_MV_DTYPES = "addmv input tensors must have the same dtype, but got {other}, {{result}}, and {other}"


def _fused_row(name: str, product: Any, product_vjp: Any, product_shape: Any, sym_product: Any, examples: Any,
               **fields: Any) -> Any:
    """addmm, addmv, addr, baddbmm, addbmm: beta * input + alpha * product, integers kept integers (int64 that
    wraps), bools refused by the kernels of matrix products (addr's outer product of bools is theirs)."""
    if name in ("addmm", "addbmm"):
        fields["dtype_refusals"] = _ADDMM_DTYPES
    kernel = {"addmm": "addmm_impl_cpu_", "addbmm": "addmm_impl_cpu_", "addmv": "addmv_impl_cpu", "baddbmm": "baddbmm"}
    if name in kernel:
        fields["dtype_refusals"] = (*fields.get("dtype_refusals", ()),
                                    ("bool", "NotImplementedError", f'"{kernel[name]}" not implemented for \'Bool\''))
    shape = _fused_shape(name, product_shape)
    forward, vjp, jvp = _fused(product, product_vjp, shape)
    return structural(name, 3, forward, vjp, f"{name.capitalize()}Backward0", jvp=jvp, sympy=_sym_fused(sym_product),
                      dtype="keeps",
                      shape=shape, shape_message=cannot_take, params=(BETA, ALPHA), examples=examples, methods=(name,),
                      dialects=torch_positional(),  # (beta=, alpha= by keyword alone)
                      inputs=("input", {"addmm": "mat1", "addmv": "mat", "addr": "vec1"}.get(name, "batch1"),
                              {"addmm": "mat2", "addmv": "vec", "addr": "vec2"}.get(name, "batch2")), **fields)


def _examples(*cases: tuple[Shape, ...]) -> tuple[tuple[tuple[Shape, ...], dict[str, Any]], ...]:
    return tuple((shapes, {}) for shapes in cases)


_EINSUM_EXAMPLES = tuple((shapes, {"equation": equation}) for shapes, equation in [
    (((2, 3), (3, 2)), "ij,jk->ik"), (((3, 3),), "ii->"), (((3, 3),), "ii->i"), (((2, 3),), "ij->j"),
    (((2,), (3,)), "i,j->ij"), (((2, 2, 3), (2, 3, 2)), "bij,bjk->bik"), (((2, 3),), "ji"),
    (((2, 3), (3, 2), (2, 2)), "ij,jk,kl->il"), (((3,), (3,)), "i,i")])

ROWS = [
    composite("matmul", 2, _matmul_program, "MmBackward0", sympy=_sym_matmul, symbol="@",
              precedence=20, callable=False, torch_node_rule=_matmul_torch_node, shape=_matmul_shape,
              shape_message=cannot_take,
              examples=_examples(((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)), ((2, 2, 3), (3, 2)),
                                 ((2, 3), (2, 3, 2)), ((2, 1, 2, 3), (3, 3, 2)), ((3,), (2, 3, 2)), ((2, 2, 3), (3,))),
              spellings=("matmul",), methods=("matmul",)),
    # (the stacks matmul does not fold, and --points, where the shapes are not known: one node)
    structural("matmul_whole", 2, _matmul, _matmul_vjp, "MmBackward0", bilinear=True, sympy=_sym_matmul,
               callable=False, reference=None, torch_node_rule=_matmul_torch_node, shape=_matmul_shape,
               shape_message=lambda label, shapes: cannot_take("'@'", shapes), text=lambda args: f"{args[0]} @ {args[1]}",
               **_BMM_DTYPES, examples=_examples(((2, 3), (3, 4)), ((2, 3), (2, 3, 2)), ((2, 1, 2, 3), (3, 3, 2)))),
    structural("mm", 2, _product(_mm_shape), _matmul_vjp, "MmBackward0", bilinear=True, sympy=_sym_matmul,
               shape=_mm_shape, shape_message=cannot_take, examples=_examples(((2, 3), (3, 2))), methods=("mm",),
               **_MM_DTYPES, inputs=('input', 'mat2')),
    structural("mv", 2, _product(_mv_shape), _matmul_vjp, "MvBackward0", bilinear=True, sympy=_sym_matmul,
               shape=_mv_shape, shape_message=cannot_take, examples=_examples(((2, 3), (3,))), methods=("mv",),
               **_products_refuse("addmv input tensors must have the same dtype, but got {1}, {0}, and {1}",
                                  "addmv_impl_cpu"), inputs=('input', 'vec')),
    structural("bmm", 2, _product(_bmm_shape), _matmul_vjp, "BmmBackward0", bilinear=True, sympy=_sym_matmul,
               shape=_bmm_shape, shape_message=cannot_take, examples=_examples(((2, 2, 3), (2, 3, 2))),
               methods=("bmm",), **_BMM_DTYPES, inputs=('input', 'mat2')),
    _fused_row("addmm", _matmul, _matmul_vjp, _mm_shape, np.matmul,
               (*_examples(((2, 2), (2, 3), (3, 2)), ((2,), (2, 3), (3, 2)), ((), (1, 2), (2, 3))), (((2, 1), (2, 3), (3, 2)), {"beta": 0.5, "alpha": -2.0}))),
    _fused_row("addmv", _matmul, _matmul_vjp, _mv_shape, np.matmul,
               (*_examples(((2,), (2, 3), (3,)), ((), (2, 3), (3,))), (((2,), (2, 3), (3,)), {"beta": 2.0, "alpha": 0.5})),
               dtype_refusals=(("mixed", "RuntimeError", "addmv input tensors must have the same dtype, but got {0}, {1}, and {2}"),)),
    _fused_row("addr", _outer_product, _outer_product_vjp, _outer_product_shape, np.multiply.outer,
               (*_examples(((2, 3), (2,), (3,)), ((3,), (2,), (3,))), (((2, 3), (2,), (3,)), {"beta": 0.5, "alpha": 3.0})),
               # (its derivatives are products of the gradient, in the result's dtype, with the other vector: mv's check)
               dtype_refusals=(("not result 2 into 1", "RuntimeError", _MV_DTYPES.format(other="{2}")),
                               ("not result 1 into 2", "RuntimeError", _MV_DTYPES.format(other="{1}")))),
    structural("dot", 2, _dot, _dot_vjp, "DotBackward0", bilinear=True,
               sympy=lambda a, b: sympy_total(a * b), shape=_dot_shape,
               shape_message=cannot_take, examples=_examples(((4,), (4,))), methods=("dot",),
               dialects=(Dialect("numpy", row="numpy_dot"),),  # np.dot(m, m): NumPy's product of any shapes
               **_products_refuse("dot : expected both vectors to have same dtype, but found {0} and {1}", "dot"), inputs=('input', 'tensor')),
    # outer's first vector as a column: a part of that composite alone, b no input of it
    structural("outer_column", 2, _outer_column, lambda g, ans, a, b, ranks: (g[..., 0], None),
               "ViewBackward0", jvp=lambda tangents, ans, a, b, ranks: (
                   np.zeros_like(ans) if tangents[0] is None else np.asarray(tangents[0])[..., :, None]),
               sympy=lambda a, b: np.asarray(a, dtype=object)[:, None], shape=lambda a, b: (*_outer_shape(a, b)[:1], 1),
               shape_message=lambda label, shapes: cannot_take("outer", shapes), conditions=(1,), callable=False,
               reference=None, dtype="keeps",
               text=lambda args, **params: f"{args[0]}.reshape(-1, 1)", examples=_examples(((2,), (3,)))),
    composite("outer", 2, _outer_program, "MulBackward0", shape=_outer_shape, shape_message=cannot_take,
              examples=_examples(((2,), (3,))), spellings=("ger",), methods=("outer", "ger"), inputs=('input', 'vec2')),
    # inner as one node, where the shapes are not known (a tape for many points)
    structural("inner_whole", 2, _inner, _inner_vjp, "ViewBackward0", bilinear=True, sympy=_sym_einsum(_inner_subscripts),
               shape=_inner_shape, shape_message=lambda label, shapes: cannot_take("inner", shapes),
               torch_node_rule=lambda constant, shapes: "MulBackward0" if shapes and not all(shapes) else "ViewBackward0",
               callable=False, reference=None,
               examples=_examples(((3,), (3,)), ((2, 3), (4, 3)), ((), (2,)), ((2, 2, 3), (3,)))),
    composite("inner", 2, _inner_program, "ViewBackward0", shape=_inner_shape, shape_message=cannot_take,
              sympy=_sym_einsum(_inner_subscripts),
              torch_node_rule=lambda constant, shapes: "MulBackward0" if shapes and not all(shapes) else "ViewBackward0",
              examples=_examples(((3,), (3,)), ((2, 3), (4, 3)), ((), (2,)), ((2, 2, 3), (3,))), methods=("inner",),
              dtype_refusals=(("mixed", "RuntimeError", "both inputs should have same dtype"),)),
    # einsum as one node, where the shapes are not known (a tape for many points)
    structural("einsum_whole", -1, _einsum_op, _einsum_vjp, "ViewBackward0", jvp=_einsum_jvp, sympy=_sym_einsum_op,
               shape=_einsum_shape, shape_message=lambda label, shapes: cannot_take("einsum", shapes),
               torch_node_rule=_einsum_torch_node, aligns=False, params=(Param("equation", "str"),), text=_einsum_text,
               callable=False, reference=None, examples=_EINSUM_EXAMPLES),
    composite("einsum", -1, _einsum_program, "ViewBackward0", sympy=_sym_einsum_op,
              shape=_einsum_shape, shape_message=cannot_take, torch_node_rule=_einsum_torch_node, aligns=False,
              params=(Param("equation", "str"),), text=_einsum_text, examples=_EINSUM_EXAMPLES,
              reference="torch.einsum('i,i->', a, b)", reference_program="einsum('i,i->', a, b)",
              dtype_refusals=kernel_refusal("bmm", "bool input")),
    # tensordot as one node, where the shapes are not known (a tape for many points)
    structural("tensordot_whole", 2, _tensordot, _tensordot_vjp, "ViewBackward0", bilinear=True, sympy=_sym_tensordot,
               shape=_tensordot_shape, shape_message=lambda label, shapes: cannot_take("tensordot", shapes),
               params=(Param("dims", "axes", 2, aliases=("axes",)),), text=_tensordot_text, callable=False, reference=None,
               examples=tuple((shapes, params) for shapes, params in [
                   (((2, 3, 2), (3, 2, 2)), {}), (((2, 3), (3, 2)), {"dims": 1}), (((2,), (3,)), {"dims": 0}),
                   (((3, 2), (2, 3)), {"dims": ((1, 0), (0, 1))})])),
    # (torch.tensordot(a, b, dims, out): out=None alone, or PyTorch's TypeError for what is no tensor)
    composite("tensordot", 2, _tensordot_program, "ViewBackward0", sympy=_sym_tensordot,
              shape=_tensordot_shape, shape_message=cannot_take, text=_tensordot_text,
              params=(Param("dims", "axes", 2, aliases=("axes",)),
                      Param("out", "absent", refused=("TypeError", "tensordot(): argument 'out' must be Tensor, not {type}"))),
              examples=tuple((shapes, params) for shapes, params in [
                  (((2, 3, 2), (3, 2, 2)), {}), (((2, 3), (3, 2)), {"dims": 1}), (((2,), (3,)), {"dims": 0}),
                  (((3, 2), (2, 3)), {"dims": ((1, 0), (0, 1))})]),
              reference="torch.tensordot(a, b, dims=1)", reference_program="tensordot(a, b, dims=1)",
              dtype_refusals=(("mixed", "RuntimeError", "both inputs should have same dtype"),)),
    # kron's parts: each operand viewed with axes of 1 between its own, the product viewed in pairs
    structural("spread", 2, _spread, _spread_vjp, "UnsafeViewBackward0", jvp=_spread_jvp,
               sympy=lambda x, other, side=0: np.asarray(_spread(x, other, (np.ndim(x), np.ndim(other)), side),
                                                           dtype=object),
               conditions=(1,), callable=False, reference=None, dtype="keeps", params=(Param("side", "int", 0),),
               text=lambda args, side=0: f"{args[0]} with kron's axes of 1",
               examples=((((2, 2), (2, 3)), {}), (((3,), (2, 2)), {"side": 1}), (((), (2,)), {}))),
    structural("merge_pairs", 1, _merge_pairs, lambda g, ans, x, ranks: (np.reshape(g, np.shape(x)),),
               "UnsafeViewBackward0", linear=True, shape=_merge_pairs_shape, callable=False, reference=None,
               sympy=lambda x: np.asarray(_merge_pairs(x, (np.ndim(x),)), dtype=object), dtype="keeps",
               text=lambda args: f"{args[0]} viewed in pairs of axes",
               examples=((((2, 3, 2, 2),), {}), (((1, 3),), {}), (((),), {}))),
    composite("kron", 2, _kron_program, "UnsafeViewBackward0", shape=_kron_shape, shape_message=cannot_take,
              examples=_examples(((2, 2), (2, 3)), ((2,), (3,)), ((2, 2), (3,))), methods=("kron",)),
    structural("cross", 2, _cross, _cross_vjp, "LinalgCrossBackward0", bilinear=True, sympy=_sym_cross,
               shape=_cross_shape, shape_message=cannot_take, aligns=True, params=(Param("dim", "int", -1, aliases=("axis",)),),
               examples=tuple((shapes, params) for shapes, params in [
                   (((3,), (3,)), {}), (((3, 2), (3, 2)), {"dim": 0}), (((2, 3), (2, 3)), {"dim": -1})]),
               methods=("cross",), reference="torch.linalg.cross(a, b)",
               # torch.cross(a, b) and a.cross(b) without a dim: the first of size 3 (PyTorch's deprecated default)
               dialects=(Dialect("torch", defaults=(("dim", None),)), Dialect("method", defaults=(("dim", None),))),
               dtype_refusals=(*kernel_refusal("cross", "bool input"), ("mixed", "RuntimeError", "expected scalar type {0} but found {1}"))),
    structural("det", 1, _det, _det_vjp, "LinalgDetBackward0", jvp=_det_jvp, sympy=_sym_det, shape=_det_shape,
               shape_message=cannot_take, examples=_examples(((3, 3),), ((2, 2, 2),), ((1, 1),)), methods=("det",),
               reference="torch.linalg.det(a)", dtype_refusals=float_input("linalg.det")),
    structural("inv", 1, _inv, _inv_vjp, "LinalgInvExBackward0", jvp=_inv_jvp, sympy=_sym_inv,
               shape=_inv_shape, shape_message=singular_or_not_square(_inv_shape),
               examples=_examples(((3, 3),), ((2, 2, 2),)), spellings=("inverse",), methods=("inverse",),
               reference="torch.linalg.inv(a)", dtype_refusals=float_input("linalg.inv")),
    structural("solve", 2, _solve, _solve_vjp, "LinalgSolveExBackward0", jvp=_solve_jvp,
               dialects=(Dialect("numpy", row="numpy_solve"),),  # NumPy 2's: b a vector only where it is 1-D
               sympy=_sym_solve, shape=_solve_shape,
               shape_message=singular_or_not_square(_solve_shape),
               examples=_examples(((3, 3), (3,)), ((2, 2), (2, 3)), ((2, 2, 2), (2,)), ((2, 2), (2, 2, 2))),
               reference="torch.linalg.solve(a, b)",
               dtype_refusals=(*float_input("linalg.solve"), ("mixed", "RuntimeError", "linalg.solve: Expected A and B to have the same dtype, but found A of type {0} and B of type {1} instead"))),
    structural("slogdet", 1, _slogdet, _slogdet_vjp, "LinalgSlogdetBackward0", jvp=_slogdet_jvp, sympy=_sym_slogdet,
               shape=lambda a, part=0, of=None: _slogdet_shape(a), shape_message=cannot_take, parts=2,
               fields=("sign", "logabsdet"), text=lambda args, part=0, of=None: f"torch.linalg.slogdet({args[0]})[{part}]",
               examples=((((3, 3),), {"part": 1}), (((2, 2, 2),), {"part": 1}), (((2, 2),), {"part": 0})),
               methods=("slogdet",), reference="torch.linalg.slogdet(a)[1]",
               reference_program="torch.linalg.slogdet(a)[1]", dtype_refusals=float_input("linalg.slogdet")),
    composite("logdet", 1, _logdet_program, "WhereBackward0",
              sympy=lambda a: np.asarray(_sympy().log(_sym_det(a).item()) if a.ndim == 2 else
                                         np.array([_sympy().log(_sym_det(m).item()) for m in a], dtype=object),
                                         dtype=object),
              shape=_logdet_shape, shape_message=cannot_take, examples=_examples(((1, 1),), ((2, 1, 1),)),
              domain=((0.5, 2.0),), methods=("logdet",),
              dtype_refusals=float_input("logdet")),  # (a positive det; tests/test_linalg.py: larger ones)
]


# --- addbmm, baddbmm, vdot, linalg.vecdot -------------------------------------------------------


def _batch_sum_product(a: Array, b: Array, ranks: tuple[int, ...]) -> Array:
    return np.asarray(np.sum(_matmul(a, b, ranks), axis=-3))


def _batch_sum_product_vjp(g: Array, ans: Array, a: Array, b: Array, ranks: tuple[int, ...]) -> tuple[Array, Array]:
    # every product of the batch took the same g
    g = g[..., None, :, :]
    return np.matmul(g, np.swapaxes(b, -1, -2)), np.matmul(np.swapaxes(a, -1, -2), g)


def _batch_sum_shape(a: Shape, b: Shape) -> Shape:
    return _bmm_shape(a, b)[1:]


def _vecdot_shape(a: Shape, b: Shape, dim: int = -1) -> Shape:
    if len(a) == len(b) == 1:  # (two vectors: PyTorch's vdot, in its words)
        _dot_shape(a, b)
    out = tuple(broadcast_shape([a, b]))
    if not out:  # (a sum over the one dim of a number)
        point_axes(dim, 0)
        return ()
    axis = len(out) + point_axes(dim, len(out))[0]
    return out[:axis] + out[axis + 1:]


def _vecdot_program(emit: Any, a: Any, b: Any, dim: int = -1) -> Any:
    # PyTorch's vecdot of real values: vdot of two vectors, else (a * b).sum(dim) (SumBackward1 over MulBackward0)
    sa, sb = emit.shape(a), emit.shape(b)
    if sa is not None and sb is not None and len(sa) == len(sb) == 1:
        return emit("vdot", a, b)
    return emit("sum", emit("mul", a, b), dim=dim)


ROWS += [
    _fused_row("baddbmm", _matmul, _matmul_vjp, _bmm_shape, np.matmul,
               (*_examples(((2, 2, 2), (2, 2, 3), (2, 3, 2)), ((2,), (2, 1, 3), (2, 3, 2))),
                (((1, 2), (2, 2, 3), (2, 3, 2)), {"beta": 0.5, "alpha": -2.0})),
                dtype_refusals=(("mixed 0 1", "RuntimeError", "Input dtypes must be the same, got: input {c0}, batch1: {c1}, batch2: {c2}"),
                                ("mixed 0 2", "RuntimeError", "expected scalar type {0} but found {2}"))),
    _fused_row("addbmm", _batch_sum_product, _batch_sum_product_vjp, _batch_sum_shape,
               lambda a, b: np.sum(np.matmul(a, b), axis=-3),
               (*_examples(((2, 2), (3, 2, 3), (3, 3, 2)), ((2,), (1, 2, 3), (1, 3, 2))),
                (((2, 1), (2, 2, 3), (2, 3, 2)), {"beta": 0.5, "alpha": -2.0}))),
    # vdot of real vectors is their dot, under its own node
    structural("vdot", 2, _dot, _dot_vjp, "VdotBackward0", bilinear=True, sympy=lambda a, b: sympy_total(a * b),
               shape=lambda a, b: _dot_shape(a, b), shape_message=cannot_take, examples=_examples(((4,), (4,))),
               methods=("vdot",),
               dtype_refusals=(("mixed", "RuntimeError", "dot : expected both vectors to have same dtype, but found {0} and {1}"),)),
    composite("vecdot", 2, _vecdot_program, "SumBackward1", shape=_vecdot_shape, params=(Param("dim", "int", -1),),
              examples=(*_examples(((3,), (3,)), ((2, 3), (3,)), ((2, 1, 3), (2, 3))),
                        (((2, 3), (2, 3)), {"dim": 0})),
              reference="torch.linalg.vecdot(a, b)", reference_program="vecdot(a, b)",
              dtype_refusals=(*float_input("linalg.vecdot"), ("mixed", "RuntimeError", "linalg.vecdot: Expected x and y to have the same dtype, but found x of type {0} and y of type {1} instead"))),
]
