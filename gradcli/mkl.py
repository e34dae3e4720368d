"""PyTorch's float kernels through Intel's MKL, where `pip install 'gradcli[mkl]'` put it.

PyTorch 2.13's CPU wheel links oneAPI MKL 2024.2 statically and sends its float32 and float64
products and a set of elementwise functions there; NumPy's OpenBLAS and its own loops sum and round
in other orders, so the last bits (and, over a training loop, printed digits) differ. The `mkl`
wheel of that version has the same library as a shared object: called the way PyTorch calls it,
it gives PyTorch's bits. Only `gradcli run` asks (ROUTED, set for a run); `grad`, `graph` and the
scalar path never load it, and nothing is loaded at import. Where the library is missing, of
another version (another may sum in another order), or fails to load, every function here answers
None and the caller computes as before with NumPy.

What PyTorch 2.13 sends to MKL, measured against torch on this kind of machine (AVX-512, 2 cores):

- mm, addmm, matmul's 2-D products, linear, and their backward: `sgemm_`/`dgemm_` with the
  transposes and leading dimensions PyTorch's addmm_impl_cpu_ picks from the operands' strides
  (a transposed view is passed transposed, never copied), the bias copied into the result first
  (beta = 1). Every product of 440 (shapes from 1x1x1 to 1000x64x100, each layout) is PyTorch's.
- mv and addmv: `sgemv_` ('t' for a row-major matrix); dot: `sdot`.
- bmm and baddbmm: PyTorch's own loop (each dot product summed in order, in float32) where
  contraction * rows * columns < 400, else MKL's batched gemm (`cblas_sgemm_batch`).
- MKL's code path for the CPU (AVX2, AVX-512...) is its own choice, as in PyTorch: what is written here was
  measured on AVX-512 (code_path() 14), and another path may sum otherwise, in PyTorch too.
- MKL threads: the bits depend on them (MKL splits long sums across threads), so the library runs
  as PyTorch runs it: Intel's OpenMP layer, as many threads as physical cores (MKL_NUM_THREADS and
  OMP_NUM_THREADS honoured, as PyTorch honours them); sequential MKL differs on 71 of 622 products.
  Operands are copied to 64-byte-aligned buffers, as PyTorch's allocator aligns a tensor: MKL's
  products of a single row or column peel their sums by alignment.
- VML (high accuracy, denormals kept, errors ignored: PyTorch's mode) for sin, cos, tan, tanh, exp,
  log, log10, log2, sqrt, arcsin, arccos, arctan: equal to torch in every element of 30,028 inputs
  per dtype (random over 1e-100..1e100, NaN, ±inf, ±0, subnormals, ±max), float32 and float64
  alike, where NumPy differs on 120 (sqrt) to 9,192 (exp) of them in float32. Not routed, because
  VML is not what PyTorch computes them with: lgamma, expm1, log1p, sinh, cosh, asinh, acosh,
  atanh, rsqrt, reciprocal, exp2, round, frac (VML differs from torch on some elements).

Only float32 is routed here: the float64 bits are PyTorch's too, but `gradcli run` of float64 tensors computes
as `gradcli grad` does (NumPy), so that the two front ends agree.
"""

from __future__ import annotations

import math
import os
import sys
from contextvars import ContextVar
from typing import Any

import numpy as np

Array = np.ndarray

# Set by `gradcli run` for its run: the kernels below are asked only there.
ROUTED: ContextVar[bool] = ContextVar("mkl_routed", default=False)

VERSION = "2024.2"  # the MKL PyTorch 2.13 links (torch.__config__.show())

# NumPy's ufunc names and VML's function names, for the functions PyTorch computes with VML
VML = {"sin": "Sin", "cos": "Cos", "tan": "Tan", "tanh": "Tanh", "exp": "Exp", "log": "Ln", "log10": "Log10",
       "log2": "Log2", "sqrt": "Sqrt", "arcsin": "Asin", "arccos": "Acos", "arctan": "Atan"}
_VML_MODE = 0x2 | 0x140000 | 0x100  # VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE (at::vml's mode)
# float32 alone: MKL gives PyTorch's float64 bits too (measured), but a float64 run computes as `grad` does,
# which never loads MKL, so that the two front ends give one value (tests/test_front_ends.py)
_FLOATS = (np.dtype(np.float32),)
_SMALL_BMM = 400  # PyTorch's bmm sums in its own loop below this many multiply-adds per matrix

_library: list[Any] = []  # [the loaded library, or None when there is none]


def _path() -> str | None:
    """libmkl_rt of the `mkl` distribution of this environment, of PyTorch's version: found in its RECORD as
    importlib.metadata finds it (the first mkl-*.dist-info on sys.path), without importing that (a 30 ms import)."""
    name = "mkl_rt.2.dll" if sys.platform == "win32" else "libmkl_rt.so.2"
    for entry in sys.path:
        try:
            found = sorted(item for item in os.listdir(entry or ".") if item.endswith(".dist-info")
                           and item.partition("-")[0].lower().replace(".", "_") == "mkl")
        except OSError:
            continue
        if not found:
            continue
        info = os.path.join(entry or ".", found[0])
        try:
            with open(os.path.join(info, "METADATA"), encoding="utf-8") as metadata:
                version = next((line[8:].strip() for line in metadata if line.startswith("Version:")), "")
            with open(os.path.join(info, "RECORD"), encoding="utf-8") as record:
                files = [line.rsplit(",", 2)[0] for line in record if line.strip()]
        except OSError:
            return None
        if not version.startswith(VERSION):
            return None
        for file in files:
            if file.replace("\\", "/").rsplit("/", 1)[-1] == name:
                path = os.path.join(entry or ".", file)
                return path if os.path.exists(path) else None
        return None
    return None


def library() -> Any:
    """The loaded MKL (ctypes), or None where it is not available; loaded once, when first asked. Not in a
    process that has imported torch (a test's): PyTorch's own MKL and OpenMP, linked into it, take over
    symbols of this one, whose sums then split otherwise."""
    if "torch" in sys.modules:
        return None
    if not _library:
        _library.append(_load())
    return _library[0]


def code_path() -> int | None:
    """MKL's code path on this CPU (its CBWR branch: 10 AVX2, 12 AVX-512, 14 AVX-512 E1 ...), which its sums
    follow, as PyTorch's MKL's do; None without MKL."""
    lib = library()
    return None if lib is None else int(lib.MKL_CBWR_Get_Auto_Branch())


def _load() -> Any:
    path = _path()
    if path is None:
        return None
    # Intel's OpenMP threads wait for more work by spinning for 200 ms after each call, a core each, which on
    # a small machine takes the cores from Python's thread and NumPy's between the products (a 500-step loop
    # of 64x1000 by 1000x100 products: twice as long). They sleep at once instead (read when the runtime loads);
    # how MKL splits a sum among them, and so the bits, is the same.
    os.environ.setdefault("KMP_BLOCKTIME", "0")
    try:
        import ctypes

        lib = ctypes.CDLL(path)
        # 32-bit integers (LP64) and Intel's OpenMP threads, as PyTorch's build, whatever the environment says
        if lib.MKL_Set_Interface_Layer(0) != 0 or lib.MKL_Set_Threading_Layer(0) != 0:
            return None
        for name in ("sgemm", "dgemm", "sgemv", "dgemv", "cblas_sdot", "cblas_ddot", "cblas_sgemm_batch",
                     "cblas_dgemm_batch", *(f"vm{t}{f}" for t in "sd" for f in VML.values())):
            getattr(lib, name)
        # cblas_sgemm column-major is sgemm itself (PyTorch calls sgemm_): by value, so a call makes no objects
        integer, pointer = ctypes.c_int, ctypes.c_void_p
        for name, number in (("cblas_sgemm", ctypes.c_float), ("cblas_dgemm", ctypes.c_double)):
            getattr(lib, name).argtypes = [integer] * 6 + [number, pointer, integer, pointer, integer, number, pointer,
                                                           integer]
            getattr(lib, name).restype = None
        for t in "sd":
            for f in VML.values():
                getattr(lib, f"vm{t}{f}").argtypes = [integer, pointer, pointer, ctypes.c_longlong]
                getattr(lib, f"vm{t}{f}").restype = None
        lib.cblas_sdot.restype = ctypes.c_float
        lib.cblas_ddot.restype = ctypes.c_double
        return lib
    except (OSError, AttributeError):
        return None


def _usable(*arrays: Array) -> Any:
    """The library, where it is asked for and these arrays are what it computes (one float dtype)."""
    if not ROUTED.get() or not all(type(x) is np.ndarray for x in arrays):
        return None
    dtype = arrays[0].dtype
    if dtype not in _FLOATS or any(x.dtype != dtype for x in arrays):
        return None
    return library()


def _aligned(x: Array) -> Array:
    """A copy of x in a 64-byte-aligned buffer (PyTorch's CPU allocator aligns every tensor so), of x's
    layout where x is dense (row-major, or a transposed view: its strides kept, a dim of 1's too), else row-major."""
    return _aligned_at(x)[0]


# Aligned copies of a product's operands, which live for the call alone: one buffer per place (slot) and layout,
# written again by the next call of that shape (a training loop's products take the same shapes at every step)
_SCRATCH: dict[tuple[Any, ...], tuple[Array, int]] = {}


def _aligned_at(x: Array, slot: int | None = None) -> tuple[Array, int]:
    """_aligned(x), and the address of its first element (an array's address costs a ctypes object to read).
    With a slot: in that slot's scratch buffer for x's layout, valid until the next call that fills it."""
    if slot is not None:
        key = (slot, x.shape, x.strides, x.dtype)
        kept = _SCRATCH.get(key)
        if kept is None:
            if len(_SCRATCH) > 64:
                _SCRATCH.clear()
            kept = _SCRATCH[key] = _aligned_at(x)
        kept[0][...] = x
        return kept
    buffer = np.empty(x.nbytes + 64, np.uint8)
    address = buffer.ctypes.data
    start = -address % 64
    flat = buffer[start:start + x.nbytes].view(x.dtype)
    c, f = x.flags.c_contiguous, x.flags.f_contiguous
    if (c or f) and 1 in x.shape and x.ndim > 1 and min(x.strides) >= 0:  # (a row or column: which one PyTorch sees)
        out = np.lib.stride_tricks.as_strided(flat, x.shape, x.strides)
    elif f and not c:
        out = flat.reshape(x.shape[::-1]).T
    else:
        out = flat.reshape(x.shape)
    out[...] = x
    return out, address + start


def _operand(x: Array) -> Array:
    """x as PyTorch holds it: aligned, its layout kept (a transposed view stays one)."""
    return _operand_at(x)[0]


def _operand_at(x: Array, slot: int | None = None) -> tuple[Array, int]:
    """_operand(x), and its address (a copy in that slot's scratch buffer: _aligned_at)."""
    address = x.ctypes.data
    return (x, address) if address % 64 == 0 else _aligned_at(x, slot)


def _strides(x: Array) -> tuple[int, ...]:
    """x's strides in elements, a dim of size 1 given the stride PyTorch gives it (NumPy's may be 0)."""
    strides = [s // x.itemsize for s in x.strides]
    if 0 not in strides:
        return tuple(strides)
    for i in reversed(range(x.ndim)):
        if x.shape[i] == 1 and strides[i] == 0:
            strides[i] = strides[i + 1] * x.shape[i + 1] if i + 1 < x.ndim else 1
    return tuple(strides)


def _ctypes() -> Any:
    import ctypes

    return ctypes


def _scalar(dtype: np.dtype) -> Any:
    ctypes = _ctypes()
    return ctypes.c_float if dtype == np.float32 else ctypes.c_double


def addmm(x: Array | None, m1: Array, m2: Array, beta: float = 0.0, alpha: float = 1.0) -> Array | None:
    """beta * x + alpha * (m1 @ m2) of 2-D m1 and m2 (x broadcast to the product), as PyTorch's addmm_impl_cpu_
    calls gemm: the input copied into the result first, then gemm with beta. None: not available."""
    lib = _usable(m1, m2) if x is None else _usable(x, m1, m2)
    if lib is None or m1.shape[1] == 0 or m1.shape[0] == 0 or m2.shape[1] == 0:
        return None
    # (with a beta of 0 gemm writes every element and reads none: the result's buffer is left as allocated)
    c, c_at = _output_at((m1.shape[0], m2.shape[1]), m1.dtype, x if beta != 0 else None, filled=beta != 0)
    first_operand, second_operand = _operand_at(m1, 0), _operand_at(m2, 1)
    rows, cols = c.shape
    # A row-major result is column-major to BLAS unless it is one column: PyTorch then computes its
    # transpose, m2^T m1^T (the args swapped).
    flipped = cols != 1
    if flipped:
        first_operand, second_operand = second_operand, first_operand
    m, n = (cols, rows) if flipped else (rows, cols)
    k = first_operand[0].shape[0] if flipped else first_operand[0].shape[1]

    def cast(operand: tuple[Array, int], lead: int, width: int, slot: int) -> tuple[bool, int, int]:
        x, address = operand
        s = _strides(x)
        first, second = (1, 0) if flipped else (0, 1)
        if s[first] == 1 and s[second] >= max(1, lead):
            return False, address, s[second]
        if s[second] == 1 and s[first] >= max(1, width):
            return True, address, s[first]
        copy, address = _aligned_at(np.ascontiguousarray(x), slot)  # (PyTorch's contiguous clone, passed as the other layout)
        return not flipped, address, _strides(copy)[0]

    ta, a, lda = cast(first_operand, m, k, 2)
    tb, b, ldb = cast(second_operand, k, n, 3)
    _gemm(lib, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c_at, cols if flipped else 1, c.dtype)
    return c


def _normalized(ta: bool, tb: bool, m: int, n: int, k: int, lda: int, ldb: int, ldc: int) -> tuple[int, int, int]:
    """PyTorch's normalize_last_dims: the leading dimensions BLAS is given for a vector."""
    if n == 1:
        ldc = m
    if ta:
        lda = k if m == 1 else lda
    elif k == 1:
        lda = m
    if tb:
        ldb = n if k == 1 else ldb
    elif n == 1:
        ldb = k
    return max(lda, 1), max(ldb, 1), max(ldc, 1)


def _gemm(lib: Any, ta: bool, tb: bool, m: int, n: int, k: int, alpha: float, a: int, lda: int, b: int, ldb: int,
          beta: float, c: int, ldc: int, dtype: np.dtype, count: int = 0,
          strides: tuple[int, int, int] = (0, 0, 0)) -> None:
    """at::native::cpublas::gemm (column-major sgemm_/dgemm_ at addresses a, b, c), or, for `count`
    products `strides` bytes apart, its gemm_batched_with_stride (MKL's batched gemm)."""
    ctypes = _ctypes()
    number, integer = _scalar(dtype), ctypes.c_int
    lda, ldb, ldc = _normalized(ta, tb, m, n, k, lda, ldb, ldc)
    if count <= 1:
        gemm = lib.cblas_sgemm if dtype == np.float32 else lib.cblas_dgemm
        gemm(102, 112 if ta else 111, 112 if tb else 111, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
        return
    pointers = ctypes.c_void_p * count
    batch = lib.cblas_sgemm_batch if dtype == np.float32 else lib.cblas_dgemm_batch
    batch(102, ctypes.byref(integer(112 if ta else 111)), ctypes.byref(integer(112 if tb else 111)),
          ctypes.byref(integer(m)), ctypes.byref(integer(n)), ctypes.byref(integer(k)), ctypes.byref(number(alpha)),
          pointers(*(a + i * strides[0] for i in range(count))), ctypes.byref(integer(lda)),
          pointers(*(b + i * strides[1] for i in range(count))), ctypes.byref(integer(ldb)),
          ctypes.byref(number(beta)), pointers(*(c + i * strides[2] for i in range(count))),
          ctypes.byref(integer(ldc)), 1, ctypes.byref(integer(count)))


def output(shape: tuple[int, ...], dtype: np.dtype, fill: Array | None = None) -> Array:
    """A row-major aligned result, zeros or `fill` broadcast into it (addmm's input)."""
    return _output_at(shape, dtype, fill)[0]


def _output_at(shape: tuple[int, ...], dtype: np.dtype, fill: Array | None = None,
               filled: bool = True) -> tuple[Array, int]:
    """output(...), and its address; not filled: as allocated, for a product that writes every element."""
    size = math.prod(shape) * dtype.itemsize
    buffer = np.empty(size + 64, np.uint8)
    address = buffer.ctypes.data
    start = -address % 64
    out = buffer[start:start + size].view(dtype).reshape(shape)
    if filled:
        out[...] = 0 if fill is None else fill  # (a beta of 0 reads none of it, but an empty product leaves it as it is)
    return out, address + start


def mm(a: Array, b: Array) -> Array | None:
    """a @ b of 2-D arrays, as torch.mm computes it; None: not available."""
    return addmm(None, a, b)


def addmv(y: Array | None, a: Array, v: Array, beta: float = 0.0, alpha: float = 1.0) -> Array | None:
    """beta * y + alpha * (a @ v) of a 2-D a, as PyTorch's addmv calls gemv; None: not available."""
    lib = _usable(a, v) if y is None else _usable(y, a, v)
    rows, cols = a.shape
    if lib is None or a.size == 0:
        return None
    a, v = _operand(a), _aligned(v)
    out = output((rows,), a.dtype, y if beta != 0 else None)
    s = _strides(a)
    if s[0] == 1 and (cols == 1 or s[1] >= max(1, rows)):
        trans, m, n, lda = b"n", rows, cols, s[1]
    else:
        if not (s[1] == 1 and (rows == 1 or s[0] >= max(1, cols))):
            a = _aligned(np.ascontiguousarray(a))
            s = _strides(a)
        trans, m, n, lda = b"t", cols, rows, s[0]
    if n == 1:
        lda = m
    ctypes = _ctypes()
    number, integer = _scalar(a.dtype), ctypes.c_int
    gemv = lib.sgemv if a.dtype == np.float32 else lib.dgemv
    gemv(ctypes.byref(ctypes.c_char(trans)), ctypes.byref(integer(m)), ctypes.byref(integer(n)),
         ctypes.byref(number(alpha)), ctypes.c_void_p(a.ctypes.data), ctypes.byref(integer(max(lda, 1))),
         ctypes.c_void_p(v.ctypes.data), ctypes.byref(integer(1)), ctypes.byref(number(beta)),
         ctypes.c_void_p(out.ctypes.data), ctypes.byref(integer(1)))
    return out


def mv(a: Array, v: Array) -> Array | None:
    """a @ v of a 2-D a and a vector, as torch.mv computes it; None: not available."""
    return addmv(None, a, v)


def dot(u: Array, v: Array) -> Array | None:
    """The dot product of two vectors, as torch.dot computes it; None: not available."""
    lib = _usable(u, v)
    if lib is None:
        return None
    u, v = _aligned(u), _aligned(v)
    pointer = _ctypes().c_void_p
    product = (lib.cblas_sdot if u.dtype == np.float32 else lib.cblas_ddot)(
        len(u), pointer(u.ctypes.data), 1, pointer(v.ctypes.data), 1)
    return np.asarray(product, dtype=u.dtype)


def bmm(a: Array, b: Array) -> Array | None:
    """a @ b of stacks of matrices (3-D), as torch.bmm computes them; None: not available (MKL is
    asked only past PyTorch's own loop)."""
    if not ROUTED.get() or type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype not in _FLOATS \
            or a.dtype != b.dtype:
        return None
    count, rows, inner = a.shape
    cols = b.shape[2]
    if inner == 0 or count == 0 or rows == 0 or cols == 0:
        return None
    if inner * rows * cols < _SMALL_BMM:  # PyTorch's loop: each sum in order, in the tensors' dtype
        total = np.zeros((count, rows, cols), a.dtype)
        for k in range(inner):
            total += a[:, :, k, None] * b[:, None, k, :]
        return total
    lib = library()
    if lib is None:
        return None

    def items(x: Array) -> tuple[bool, Array, int]:  # (transposed?, x, its leading dimension)
        s = _strides(x)
        if s[1] == 1 and s[2] >= x.shape[1]:
            return True, x, s[2]
        if not (s[2] == 1 and (x.shape[1] == 1 or s[1] >= x.shape[2])):
            x = _aligned(np.ascontiguousarray(x))
            s = _strides(x)
        return False, x, s[1]

    # column-major, as PyTorch's baddbmm_with_gemm_: the transpose of each product, b^T a^T
    ta, left, lda = items(_operand(b))
    tb, right, ldb = items(_operand(a))
    out = output((count, rows, cols), a.dtype)
    _gemm(lib, ta, tb, cols, rows, inner, 1.0, left.ctypes.data, lda, right.ctypes.data, ldb, 0.0, out.ctypes.data,
          cols, a.dtype, count, (left.strides[0], right.strides[0], out.strides[0]))
    return out


def unary(name: str, x: Array) -> Array | None:
    """NumPy's ufunc `name` of x as PyTorch computes it (VML), or None: not one of VML's, or not available."""
    lib = _usable(x)
    if lib is None or name not in VML or x.size >= 2**31:
        return None
    source = np.ascontiguousarray(x)
    out = np.empty_like(source)
    if source.size:
        function = getattr(lib, f"vm{'s' if x.dtype == np.float32 else 'd'}{VML[name]}")
        function(source.size, source.ctypes.data, out.ctypes.data, _VML_MODE)
    return out.reshape(x.shape)


def kernel(ufunc: Any) -> Any:
    """`ufunc`, computed by VML where a run asks for it (ROUTED) and MKL is there, else the ufunc itself."""
    name = ufunc.__name__

    def routed(x: Any, *rest: Any, **given: Any) -> Any:
        if not rest and not given and ROUTED.get():
            out = unary(name, x)
            if out is not None:
                return out
        return ufunc(x, *rest, **given)

    return routed
