"""Float32 and float64 sums in PyTorch's order (gradcli.ops.summation): the same bits as torch.sum on its CPU
kernel (float64: 4 lanes to a vector, float32: 8), over sizes where its vectors, its four-way interleave and its cascade levels change, and
over all, trailing and leading axes. NumPy's pairwise sum gives other last bits on most of these."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.ops.summation import torch_sum

SIZES = [1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 1000, 1023, 2000, 4097, 10000, 32767]
SHAPES = [((2000, 3), (0,)), ((2000, 3), (1,)), ((64, 100), (0,)), ((64, 100), (1,)), ((7, 33), (0,)), ((7, 33), (1,)),
          ((100, 70), (0,)), ((3, 4, 5), (1, 2)), ((3, 4, 5), (0, 1)), ((2000, 1), (0,)), ((50, 130), (0,)),
          ((200, 5, 6), (0,)), ((5, 1, 40), (0, 2))]


def _values(shape: tuple[int, ...], seed: int, dtype: type = np.float32) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * rng.random(shape) * 100).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("size", SIZES)
def test_a_sum_of_all_elements_has_pytorchs_bits(size, dtype):
    torch = pytest.importorskip("torch")
    for seed in range(3):
        x = _values((size,), seed, dtype)
        assert torch_sum(x).item() == torch.from_numpy(x).sum().item()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("shape", "axes"), SHAPES)
def test_a_sum_over_axes_has_pytorchs_bits(shape, axes, dtype):
    torch = pytest.importorskip("torch")
    x = _values(shape, 7, dtype)
    mine = torch_sum(x, axes)
    theirs = torch.from_numpy(x).sum(axes).numpy()
    assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
    assert np.array_equal(mine, theirs)
    assert torch_sum(x, axes, keepdims=True).shape == torch.from_numpy(x).sum(axes, keepdim=True).shape


def test_every_short_row_and_its_special_values_have_pytorchs_bits():
    # the rows short enough for one cascade level are summed by three folds (summation._short_row_sum): every size
    # of them, with zeros of both signs, infinities and NaNs among the numbers
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3e38, -3e38, 1e-45, 1.5], dtype=np.float32)
    for size in range(1, 520):
        for x in (_values((size,), size), np.full(size, -0.0, dtype=np.float32), rng.choice(specials, size),
                  np.where(rng.random(size) < 0.9, np.float32(-0.0), rng.choice(specials, size)).astype(np.float32)):
            with np.errstate(all="ignore"):
                mine = torch_sum(x, (0,), keepdims=True)
            theirs = torch.from_numpy(x).sum(0, keepdim=True).numpy()
            assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
            assert np.array_equal(mine, theirs, equal_nan=True), (size, x)
            assert np.isnan(mine) or np.signbit(mine) == np.signbit(theirs), (size, x)  # (a zero's sign; a NaN's is not printed)


def test_the_order_is_not_numpys():
    x = _values((2000,), 0)
    assert any(torch_sum(_values((n,), s)).item() != np.sum(_values((n,), s)).item()
               for n in (100, 1000, 2000) for s in range(5))
    assert torch_sum(x).dtype == np.float32


def test_other_dtypes_and_special_values_are_numpys():
    ints = np.arange(10)
    assert torch_sum(ints).item() == 45 and torch_sum(ints).dtype == ints.dtype
    assert np.isnan(torch_sum(np.array([1.0, np.nan], dtype=np.float32)))
    assert torch_sum(np.array([np.inf, 1.0] * 20, dtype=np.float32)).item() == np.inf
    assert str(torch_sum(np.array([-0.0] * 20, dtype=np.float32)).item()) == "0.0"  # 0 + (-0.0), as PyTorch stores it
    assert torch_sum(np.zeros((0, 3), dtype=np.float32), (0,)).shape == (3,)
