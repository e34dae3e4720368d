"""Record what PyTorch prints for tests/test_run_numbers.py: run with a Python that has torch
(`/work/torchenv/bin/python tests/reference/make_run_numbers.py`); writes run_numbers.json beside it.

Each case is a small file of integer arithmetic, dtype promotion, PyTorch's and Python's errors,
and values that once crashed `gradcli run`; its record is what it printed and, where it raised,
Python's last traceback line (`Kind: message`).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

CASES = {
    'big_add': 'import torch\nprint(torch.tensor([2**53 + 1]) + 1)',
    'wrap_mul': 'import torch\nprint(torch.tensor([2**62]) * 4)',
    'floordiv0': 'import torch\nprint(torch.tensor([5]) // 0)',
    'mod0': 'import torch\nprint(torch.tensor([5]) % 0)',
    'floordiv0t': 'import torch\nprint(torch.tensor([5, 3]) // torch.tensor([1, 0]))',
    'mod0t': 'import torch\nprint(torch.tensor([5]) % torch.tensor([0]))',
    'negpow': 'import torch\nprint(torch.tensor([2, 3]) ** -1)',
    'negpow_t': 'import torch\nprint(torch.tensor(2) ** torch.tensor(-1))',
    'negpow_t2': 'import torch\nprint(torch.tensor([2, 3]) ** torch.tensor([1, -1]))',
    'pow_int': 'import torch\nprint(torch.tensor([2, 3]) ** 2, torch.tensor([3]) ** 40)',
    'nan_long': "import torch\nprint(torch.tensor([float('nan'), 1.5]).long())",
    'inf_long': "import torch\nprint(torch.tensor([float('inf')]).long())",
    'nan_to_int': "import torch\nprint(torch.tensor([float('nan')]).to(torch.int64))",
    'nan_tensor_dtype': "import torch\nprint(torch.tensor([float('nan')], dtype=torch.int64))",
    'mean_long': 'import torch\nprint(torch.tensor([1, 2]).mean())',
    'bool_add': 'import torch\nprint(torch.tensor([True, False]) + torch.tensor([True, True]))',
    'bool_int': 'import torch\nprint(torch.tensor([True, False]) + 1)',
    'bool_mul': 'import torch\nprint(torch.tensor([True, False]) * torch.tensor([True, True]))',
    'int_float_scalar': 'import torch\nprint(torch.tensor([1, 2]) + 0.5)',
    'int_float_tensor': 'import torch\nprint(torch.tensor([1, 2]) + torch.tensor([0.5, 1.5]))',
    'int_double_tensor': 'import torch\nprint(torch.tensor([1, 2]) + torch.tensor([0.5, 1.5], dtype=torch.float64))',
    'int_true_div': 'import torch\nprint(torch.tensor([1, 2]) / 2)',
    'int_true_div0': 'import torch\nprint(torch.tensor([1, 0]) / 0)',
    'int_floordiv': 'import torch\nprint(torch.tensor([-7, 7]) // 2, torch.tensor([-7, 7]) % 3)',
    'int_floordiv_float': 'import torch\nprint(torch.tensor([-7, 7]) // 2.0)',
    'int_neg': 'import torch\nprint(-torch.tensor([-2**63]))',
    'int_sum': 'import torch\nprint(torch.tensor([2**62, 2**62]).sum())',
    'int_sum_big': 'import torch\nprint(torch.tensor([2**53 + 1, 2]).sum())',
    'int_prod': 'import torch\nprint(torch.tensor([2**40, 2**40]).prod())',
    'int_abs': 'import torch\nprint(torch.tensor([-3, 4]).abs())',
    'int_max': 'import torch\nprint(torch.tensor([2**53 + 1, 2**53]).max())',
    'int_item': 'import torch\nprint((torch.tensor([2**53 + 1]) + 1).item())',
    'int_tolist': 'import torch\nprint((torch.tensor([2**53 + 1]) * 1).tolist())',
    'int_sub': 'import torch\nprint(torch.tensor([-2**63]) - 1)',
    'bool_sub': 'import torch\nprint(torch.tensor([True]) - torch.tensor([True]))',
    'bool_neg': 'import torch\nprint(-torch.tensor([True]))',
    'int_scalar_float0d': 'import torch\nprint(torch.tensor([1, 2]) * torch.tensor(1.5))',
    'int_cumsum': 'import torch\nprint(torch.tensor([2**53 + 1, 1]).cumsum(0))',
    'int_sqrt': 'import torch\nprint(torch.tensor([4, 9]).sqrt())',
    'int_big_tensor': 'import torch\nprint(torch.tensor([2**63]))',
    'fmt_torch': 'import torch\nprint(f"{torch:>5}")',
    'fmt_shape': 'import torch\nx = torch.ones(2, 3)\nprint(f"{x.shape:>20}")',
    'fmt_shape_empty': 'import torch\nx = torch.ones(2, 3)\nprint(f"{x.shape}")',
    'big_int_print': 'import torch\nprint(10**5000)',
    'pct_c': "import torch\nprint('%c' % 10**10)",
    'slice0': 'import torch\nx = torch.ones(3)\nprint(x[::0])',
    'arange_end': 'import torch\nprint(torch.arange(end=4))',
    'linspace2': 'import torch\nprint(torch.linspace(0, 1))',
    'sep3': 'import torch\nprint(1, 2, sep=3)',
    'nested_tensors': 'import torch\nprint(torch.tensor([torch.tensor([1.]), torch.tensor([2.])]))',
    'nested_tensors0d': 'import torch\nprint(torch.tensor([torch.tensor(1.), torch.tensor(2.)]))',
    'full1': 'import torch\nprint(torch.full((2,)))',
    'floor_t': 'import torch, math\nprint(math.floor(torch.tensor(2.5)), math.ceil(torch.tensor(2.5)))',
    'shape_mul': 'import torch\nx = torch.ones(2, 3)\nprint(x.shape * 2)',
    'shape_add': 'import torch\nx = torch.ones(2, 3)\nprint(x.shape + (4,))',
    'type_t': 'import torch\nt = torch.ones(2)\nprint(type(t))',
    'size_dim': 'import torch\nx = torch.ones(2, 3)\nprint(x.size(dim=0), x.size(1), x.size(-1))',
    'ovf_scalar': 'import torch\nprint(torch.tensor([1]) + 2**63)',
    'fmod0': 'import torch\nprint(torch.tensor([5]).fmod(0))',
    'fmod0t': 'import torch\nprint(torch.fmod(torch.tensor([5]), torch.tensor([0])))',
    'rpow': 'import torch\nprint(2 ** torch.tensor([-1, 2]))',
    'negpow_1d_0d': 'import torch\nprint(torch.tensor([2, 1, -1]) ** torch.tensor(-3))',
    'negpow_scalar_t': 'import torch\nprint(torch.tensor([2]).pow(-2))',
    'negpow_float': 'import torch\nprint(torch.tensor([2]) ** -1.0)',
    'std_long': 'import torch\nprint(torch.tensor([1, 2]).std())',
    'var_long': 'import torch\nprint(torch.tensor([1, 2]).var())',
    'norm_long': 'import torch\nprint(torch.tensor([1, 2]).norm())',
    'mean_bool': 'import torch\nprint(torch.tensor([True]).mean())',
    'mean_dim_long': 'import torch\nprint(torch.tensor([[1, 2]]).mean(0))',
    'mean_dtype': 'import torch\nprint(torch.tensor([1, 2]).mean(dtype=torch.float32))',
    'nested_2': 'import torch\nprint(torch.tensor([torch.tensor([1., 2.]), torch.tensor([3., 4.])]))',
    'nested_mix': 'import torch\nprint(torch.tensor([torch.tensor(1), 2.5]))',
    'nested_int': 'import torch\nprint(torch.tensor([torch.tensor([1]), torch.tensor([2])]))',
    'floordiv_rev0': 'import torch\nprint(5 // torch.tensor([0]))',
    'int_div_float0': 'import torch\nprint(torch.tensor([5]) // 0.0)',
    'bool_pow': 'import torch\nprint(torch.tensor([True]) ** -1)',
    'nan_long_tensor': "import torch\nprint(torch.tensor([float('nan')]).long(), torch.tensor(float('nan')).int())",
    'big_float_long': 'import torch\nprint(torch.tensor([1e20]).long())',
    'bool_plus_bool_scalar': 'import torch\nprint(torch.tensor([True]) + True)',
    'int_plus_bool': 'import torch\nprint(torch.tensor([1]) + True, torch.tensor([1]) * torch.tensor([True]))',
    'int_float64_0d': 'import torch\nprint(torch.tensor([1, 2]) + torch.tensor(1.5, dtype=torch.float64))',
    'float32_plus_double0d': 'import torch\nprint(torch.tensor([1.]) + torch.tensor(1.5, dtype=torch.float64))',
    'float16ish': 'import torch\nprint((torch.tensor([3]) / torch.tensor([2])).dtype)',
    'shape_idx': 'import torch\nx = torch.ones(2, 3)\nprint(x.shape[1:], type(x.shape))',
    'floor_int': 'import torch, math\nprint(math.floor(torch.tensor([2.5])), math.floor(torch.tensor(3)), math.sqrt(torch.tensor(4.)))',
    'size_dim_kw': 'import torch\nx = torch.ones(2, 3)\nprint(x.size(dim=-1))',
    'arange_end_float': 'import torch\nprint(torch.arange(end=2.5), torch.arange(1, end=3), torch.arange(0, 4, step=2))',
    'linspace_kw': 'import torch\nprint(torch.linspace(0, 1, steps=3), torch.linspace(start=0, end=1, steps=2))',
    'full_kw': 'import torch\nprint(torch.full((2,), fill_value=3), torch.full(size=(2,), fill_value=1.5))',
    'full_empty': 'import torch\nprint(torch.full())',
    'type_int': "import torch\nprint(type(1), type(1.5), type('a'), type([1]), type(None), type(torch.ones(1).shape))",
    'slice0_list': 'import torch\nprint([1,2][::0])',
    'slice0_2d': 'import torch\nx = torch.ones(3, 3)\nprint(x[:, ::0])',
    'sep_none': 'import torch\nprint(1, 2, sep=None, end=None)',
    'end3': 'import torch\nprint(1, end=3)',
    'fmt_list': 'import torch\nprint(f"{[1]:>5}")',
    'fmt_tensor1d': 'import torch\nprint(f"{torch.ones(2):>5}")',
    'fmt_fn': 'import torch\nprint(f"{torch.ones:>5}")',
    'fmt_none': 'import torch\nprint(f"{None:>5}")',
    'fmt_dtype': 'import torch\nprint(f"{torch.float32:>5}")',
    'big_int_fstr': 'import torch\nx = 10**5000\nprint(f"{x}")',
    'big_int_str': 'import torch\nx = 10**5000\ny = str(x)',
    'big_int_list': 'import torch\nx = [10**5000]\nprint(x)',
    'big_int_ok': 'import torch\nx = 10**4299\nprint(len(str(x)))',
    'big_int_tensor': 'import torch\nprint(torch.tensor([10**30]))',
    'pct_c2': "import torch\nprint('%c' % -1)",
    'fmt_c': "import torch\nprint(f'{10**10:c}')",
    'linspace_end_keyword': 'import torch\nprint(torch.linspace(0, end=1))',
    'linspace_start': 'import torch\nprint(torch.linspace(start=0, end=1))',
    'fmt_control_bytes': 'import torch\nprint(f"{1.5:\\x1b[2J}")',
    'fmt_control_bytes_module': 'import torch\nprint(f"{torch:\\x07>5}")',
}


def record(source: str) -> dict[str, Any]:
    """What the source prints under real torch, and the error it raises (None if none)."""
    printed = io.StringIO()
    error = None
    with contextlib.redirect_stdout(printed):
        try:
            exec(compile(source, "<case>", "exec"), {"__name__": "__main__"})
        except Exception as raised:
            message = str(raised)
            error = f"{type(raised).__name__}: {message}".rstrip() if message else type(raised).__name__
    return {"stdout": printed.getvalue(), "error": error}


def main() -> None:
    import torch

    cases = {name: {"source": source, **record(source)} for name, source in CASES.items()}
    document = {"torch": torch.__version__.split("+")[0], "python": sys.version.split()[0], "cases": cases}
    path = Path(__file__).resolve().parent / "run_numbers.json"
    path.write_text(json.dumps(document, indent=1, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
