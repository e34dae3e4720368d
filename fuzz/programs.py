"""Random small autograd programs, as tutorials write them, under PyTorch and under `gradcli run` (issue #21).

    python fuzz/programs.py --count 500                      # programs 0..499 (seed 0), one job
    python fuzz/programs.py --seed 7000 --count 2000 --jobs 2 --out /tmp/findings.jsonl
    python fuzz/programs.py --seed 123 --count 1 --print     # program 123 itself, not run

Needs a Python with torch (PyTorch 2.13 is the reference): --torch-python (default /work/torchenv/bin/python,
else this Python). Stdlib only otherwise. Not a test: what it finds goes into the suite as run cases
(tests/run_cases/*.py with PyTorch's recorded output, tests/reference/make_run_expected.py).

Program N (the seed of its random choices) has 5-15 statements over a few leaves (float64 mostly; float32 with
small whole values and only the ops that are exact there, since MKL's float32 bits differ between machines;
int64 and bool tensors for dtype promotion): elementwise chains with Python scalars and broadcasting,
reductions with dim/keepdim, views, basic and advanced indexing, cat/stack/where/clamp/masked_fill, .detach(),
torch.no_grad(), .retain_grad(), then a backward (gradient=, twice with retain_graph=True, after
x.grad.zero_()) or torch.autograd.grad (grad_outputs=, allow_unused=), and what a learner prints along the way:
tensors (print, f-strings, repr), .item(), .tolist(), .shape, .dtype, .requires_grad, .is_leaf, grad_fn and
next_functions. No in-place arithmetic (x.add_(...)) in these: that is --family inplace.

--family picks other programs, what tutorials write after autograd (each its class below):
- inplace: add_/sub_/mul_/div_(alpha=), clamp_, relu_, zero_, fill_, copy_, masked_fill_, index_add_, scatter_ on
  tensors with and without a graph, on views and slices (y[1:] += 1), the leaf's and the version counter's errors,
  the hand-written SGD step `with torch.no_grad(): w -= lr * w.grad`;
- nn: Linear, Conv1d/2d, BatchNorm, LayerNorm, Embedding, Dropout, Sequential and a Module subclass, seeded,
  float64 mostly (a quarter float32, compared to the last digit printed): parameters(), named_parameters(),
  state_dict(), zero_grad(set_to_none=), train()/eval(), a backward and the parameters' gradients;
- training: the losses with their options (reduction, weight, ignore_index, label_smoothing, pos_weight,
  probabilities as targets, kl_div's log_target) and a few steps of SGD/Adam/AdamW/RMSprop/Adagrad under lr
  schedulers (StepLR, ExponentialLR, CosineAnnealingLR, LambdaLR, MultiStepLR);
- printing: tensors of every dtype with huge/tiny/nan/inf values, empty, 0-d and summarised, under
  torch.set_printoptions, in f-strings with format specs and in lists, tuples and dicts;
- progfuzz29: those four in turn (program N is family N mod 4);
- higher: create_graph=True double backward, torch.autograd.grad's grad_outputs/retain_graph/allow_unused/
  materialize_grads, torch.autograd.functional (jacobian, hessian, vjp, jvp, hvp), backward(gradient=) of a
  non-scalar, accumulation over several backward calls and .grad.zero_(), retain_grad, register_hook (printing,
  scaling, returning None), detach_/requires_grad_;
- python: the Python around tensors: def with defaults/*args/**kwargs, closures, lambdas, classes (an nn.Module
  subclass with helpers and a property, classes of one's own), loops with break/continue/else, comprehensions,
  builtins over tensors and their items, f-strings, try/except of PyTorch's errors, isinstance, tuple unpacking
  (values, indices = x.max(0)), torch.no_grad/enable_grad as decorators, set_grad_enabled, inference_mode;
- custom: torch.autograd.Function subclasses (save_for_backward, needs_input_grad, mark_non_differentiable,
  once_differentiable, set_materialize_grads, None gradients, several outputs, a wrong backward now and then)
  under backward, autograd.grad (create_graph too), gradcheck and gradgradcheck.

PyTorch runs each program in one long-lived process (exec, stdout captured); gradcli runs it as a user does
(`python -m gradcli run FILE`). Compared: stdout (0x... addresses masked), the exit code and the exception's
line. Findings by kind, worst first:
- exit 4: an internal error of gradcli (never allowed);
- silent: both answer (or stop at the same point) and print something else; `digits` when the two differ only
  in numbers within 1e-12 relative or 1e-12 absolute, the columns they pad aside (float64's last bits of a
  transcendental function, or of a difference that cancels to 0: not a finding to fix), or, in a program marked
  as float32 (LOOSE), within one unit of the last digit printed or 1e-5 (MKL's float32 bits differ between
  machines, and a gradient that cancels to 0 is float32's rounding there);
- raises: gradcli raises an exception where PyTorch answers;
- answers: PyTorch raises and gradcli answers (or raises later);
- refused: gradcli exits 2 where PyTorch answers (a gap, said cleanly: its stdout up to there must agree);
- words: both raise, with other words (or another exception type).
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TORCH = "/work/torchenv/bin/python"
SECONDS = 60
KINDS = ("exit 4", "silent", "raises", "answers", "refused", "words", "digits", "timeout")
ADDRESS = re.compile(r"0x[0-9a-f]+")
SPACES = re.compile(r" +")
NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:e[-+]?\d+)?|-?inf|nan")

# ---------------------------------------------------------------------------------------------------------------
# the programs

FLOAT = ("float64", "float32")
SHAPES = [(3,), (2, 3), (3, 2), (2, 1, 3), (4,), (2, 2), (), (1, 3), (2, 3, 2)]


@dataclass
class Var:
    name: str
    shape: tuple[int, ...]
    dtype: str  # float64, float32, int64, bool
    grad: bool  # requires_grad
    leaf: bool = False

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


def _nested(values: list[Any], shape: tuple[int, ...]) -> str:
    if not shape:
        return values[0]
    step = len(values) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nested(values[k * step:(k + 1) * step], shape[1:]) for k in range(shape[0])) + "]"


class Program:
    """One random program: its lines and what it has made so far."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.lines = ["import torch", "import torch.nn.functional as F"]
        self.vars: list[Var] = []
        self.count = 0
        self.retained: list[str] = []

    # --- names and values

    def fresh(self, stem: str = "y") -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def value(self, dtype: str) -> str:
        r = self.r
        if dtype == "bool":
            return r.choice(["True", "False"])
        if dtype == "int64":
            return str(r.randint(-3, 4))
        if dtype == "float32":
            return r.choice(["0.", "1.", "-1.", "2.", "-2.", "3.", "0.5", "-1.5", "4.", "1.5"])
        kind = r.random()
        if kind < 0.75:
            return repr(round(r.uniform(-2, 2), r.choice([1, 2, 4])))
        if kind < 0.85:
            return repr(float(r.randint(-3, 3)))
        return r.choice(["1e-05", "123.5", "-0.001", "2500.0", "0.0", "-0.0", "1e-10", "33333.25"])

    def literal(self, shape: tuple[int, ...], dtype: str) -> str:
        values = [self.value(dtype) for _ in range(math.prod(shape))]
        return _nested(values, shape)

    def leaf(self, dtype: str, shape: tuple[int, ...] | None = None, grad: bool | None = None) -> Var:
        r = self.r
        shape = shape if shape is not None else r.choice(SHAPES)
        grad = (dtype in FLOAT) if grad is None else grad
        name = self.fresh({"float64": "x", "float32": "f", "int64": "i", "bool": "m"}[dtype])
        text = self.literal(shape, dtype)
        args = [text]
        if dtype == "float64":
            args.append("dtype=torch.float64")
        elif dtype == "float32" and r.random() < 0.3:
            args.append("dtype=torch.float32")
        if grad:
            args.append("requires_grad=True")
        form = r.random()
        if dtype == "float64" and grad and form < 0.1 and shape:
            n = math.prod(shape)
            shaped = f".reshape{shape}" if len(shape) > 1 else ""
            line = f"{name} = torch.arange({n}, dtype=torch.float64){shaped}.mul(0.5).sub(1).requires_grad_()"
        elif dtype == "float64" and grad and form < 0.15 and shape:
            line = f"{name} = torch.ones({', '.join(map(str, shape))}, dtype=torch.float64, requires_grad=True)"
        else:
            line = f"{name} = torch.tensor({', '.join(args)})"
        self.lines.append(line)
        var = Var(name, shape, dtype, grad, leaf=True)
        self.vars.append(var)
        return var

    def pick(self, *, dtypes: tuple[str, ...] = FLOAT, grad: bool | None = None, ndim: int = 0) -> Var | None:
        found = [v for v in self.vars if v.dtype in dtypes and (grad is None or v.grad == grad) and len(v.shape) >= ndim]
        if not found:
            return None
        return self.r.choice(found[-4:] + found)  # the recent ones more often

    def add(self, name: str, expression: str, shape: tuple[int, ...], dtype: str, grad: bool) -> Var:
        self.lines.append(f"{name} = {expression}")
        var = Var(name, shape, dtype, grad)
        self.vars.append(var)
        return var

    # --- statements

    def unary(self, v: Var) -> None:
        if v.dtype == "float32":
            forms = ["{v}.relu()", "{v}.abs()", "-{v}", "torch.relu({v})", "{v} * {v}", "F.relu({v})",
                     "{v}.clamp(-1, 2)", "{v}.clamp(min=0)", "torch.abs({v}) + 1", "{v}.neg()", "{v}.square()",
                     "torch.clamp({v}, max=1.5)", "{v}.sign()"]
        else:
            forms = ["{v}.exp()", "torch.sin({v})", "{v}.tanh()", "torch.sigmoid({v})", "{v}.relu()", "{v}.abs()",
                     "-{v}", "{v} ** 2", "{v}.pow(3)", "torch.sqrt({v}.abs() + 1)", "({v}.abs() + 0.5).log()",
                     "{v}.clamp(-0.5, 0.5)", "{v}.clamp(min=0)", "{v}.square()", "torch.cos({v})", "F.softplus({v})",
                     "F.leaky_relu({v}, 0.1)", "{v}.sign() * {v}", "torch.exp(-{v} ** 2)", "1 / (1 + {v} ** 2)",
                     "{v}.sqrt()", "{v}.log()", "F.gelu({v})", "F.silu({v})", "{v}.reciprocal()", "{v}.rsqrt()",
                     "torch.atan({v})", "{v}.floor()", "{v}.round()", "{v}.frac()", "torch.erf({v})",
                     "F.elu({v})", "{v}.log_softmax(-1)" if v.shape else "{v}.exp()", "F.hardtanh({v})"]
        form = self.r.choice(forms).format(v=v.name)
        self.add(self.fresh(), form, v.shape, v.dtype, v.grad)

    def scalar_op(self, v: Var) -> None:
        r = self.r
        if v.dtype == "float32":
            s = r.choice(["2", "3.0", "0.5", "-1", "1.5", "True"])
            ops = ["+", "-", "*"]
        elif v.dtype == "float64":
            s = r.choice(["2", "3.0", "0.5", "-1", "1.5", "10", "0.1", "1e-3"])
            ops = ["+", "-", "*", "/", "**"]
        else:
            s = r.choice(["2", "3.0", "0.5", "-1", "1.5", "True"])
            ops = ["+", "-", "*", "/", "//", "%"] if v.dtype == "int64" else ["+", "*", "&", "|"]
            if v.dtype == "bool" and "." not in s and s != "True":
                s = "1"
        op = r.choice(ops)
        if op == "**" and v.dtype == "float64":
            s = r.choice(["2", "3", "0.5", "-1", "2.0"])
            if s in ("0.5", "-1"):
                base = f"({v.name}.abs() + 1)"
                expr = f"{base} ** {s}"
            else:
                expr = f"{v.name} ** {s}"
        elif op in ("&", "|"):
            expr = f"{v.name} {op} {r.choice(['True', 'False'])}"
        elif r.random() < 0.4 and op in ("+", "-", "*", "/"):
            if op == "/" and v.dtype != "float64":
                return
            expr = f"{s} {op} {v.name}" if op != "/" else f"{s} / ({v.name}.abs() + 1)"
        else:
            if op in ("/", "//", "%") and s in ("0", "False"):
                s = "2"
            expr = f"{v.name} {op} {s}"
        dtype = _promote_scalar(v.dtype, s, op)
        self.add(self.fresh(), expr, v.shape, dtype, v.grad and dtype in FLOAT)

    def binary(self, v: Var) -> None:
        r = self.r
        partner = None
        if r.random() < 0.6:
            others = [w for w in self.vars if w is not v and _broadcast(v.shape, w.shape) is not None
                      and (v.dtype != "float32" or w.dtype != "float64")]
            if others:
                partner = r.choice(others)
        if partner is None:
            shape = _broadcastable(r, v.shape)
            dtype = r.choice(["float64", "float64", "int64", "bool"]) if v.dtype == "float64" else r.choice(
                ["float32", "int64", "bool"])
            partner = self.leaf(dtype, shape, grad=dtype in FLOAT and r.random() < 0.7)
        shape = _broadcast(v.shape, partner.shape)
        assert shape is not None
        dtype = _promote(v.dtype, partner.dtype)
        exact = dtype == "float32" or ("float64" not in (v.dtype, partner.dtype) and dtype != "float64")
        ops = ["+", "-", "*"] if exact else ["+", "-", "*", "/", "max", "min", "where", "atan2", "hypot"]
        if dtype == "bool":
            ops = ["&", "|", "+", "*"]
        op = r.choice(ops)
        a, b = (v.name, partner.name) if r.random() < 0.7 else (partner.name, v.name)
        if op == "/":
            expr = f"{a} / ({b}.abs() + 1)" if partner.dtype != "bool" else f"{a} / ({b} + 1)"
        elif op == "max":
            expr = f"torch.maximum({a}, {b})"
        elif op == "min":
            expr = f"torch.minimum({a}, {b})"
        elif op == "where":
            expr = f"torch.where({a} > 0, {a}, {b})"
        elif op in ("atan2", "hypot"):
            if "float64" not in (v.dtype, partner.dtype) or v.dtype != partner.dtype:
                expr = f"{a} * {b}"
            else:
                expr = f"torch.{op}({a}, {b})"
        elif op == "-" and dtype == "bool":
            expr = f"{a} ^ {b}"
        else:
            expr = f"{a} {op} {b}"
        self.add(self.fresh(), expr, shape, dtype, (v.grad or partner.grad) and dtype in FLOAT)

    def reduce(self, v: Var) -> None:
        r = self.r
        nd = len(v.shape)
        exact = v.dtype != "float64"
        if v.dtype == "bool":
            names = ["sum", "any", "all"]
        elif exact:
            names = ["sum", "amax", "amin", "max", "min", "sum", "argmax"]
        else:
            names = ["sum", "mean", "prod", "amax", "max", "min", "norm", "std", "var", "logsumexp", "cumsum",
                     "softmax", "argmax", "cumprod", "median"]
        name = r.choice(names)
        if name == "sum" and v.dtype == "float32" and v.numel > 8:
            return
        dim = r.randrange(-nd, nd) if nd else None
        keep = r.random() < 0.3
        if dim is None or (r.random() < 0.25 and name not in ("logsumexp", "cumsum", "softmax", "cumprod")):
            if name in ("logsumexp", "cumsum", "softmax", "cumprod") and dim is None:
                dim = 0 if nd else None
                if dim is None:
                    if name in ("cumsum", "cumprod"):
                        self.add(self.fresh(), f"{v.name}.{name}(0)", v.shape, v.dtype, v.grad)
                    return
            else:
                out = "int64" if name == "argmax" or (v.dtype == "bool" and name == "sum") else v.dtype
                if name in ("any", "all"):
                    out = "bool"
                self.add(self.fresh(), f"{v.name}.{name}()", (), out, v.grad and out in FLOAT and name != "argmax")
                return
        assert dim is not None
        reduced = tuple(1 if k == dim % nd else n for k, n in enumerate(v.shape)) if keep else tuple(
            n for k, n in enumerate(v.shape) if k != dim % nd)
        kw = r.choice(["dim={d}", "{d}"]).format(d=dim)
        keep_text = ", keepdim=True" if keep else ""
        if name in ("cumsum", "softmax", "cumprod"):
            call = f"{v.name}.{name}({kw})" if r.random() < 0.5 else f"torch.{name}({v.name}, {kw})"
            self.add(self.fresh(), call, v.shape, v.dtype, v.grad)
            return
        if name in ("max", "min", "median"):
            form = r.random()
            if form < 0.4:
                a, b = self.fresh("v"), self.fresh("k")
                self.lines.append(f"{a}, {b} = {v.name}.{name}({kw}{keep_text})")
                self.vars.append(Var(a, reduced, v.dtype, v.grad))
                self.vars.append(Var(b, reduced, "int64", False))
            elif form < 0.7:
                self.add(self.fresh(), f"{v.name}.{name}({kw}{keep_text}).values", reduced, v.dtype, v.grad)
            elif form < 0.85:
                t = self.fresh("t")
                self.lines.append(f"{t} = torch.{name}({v.name}, {kw}{keep_text})")
                self.lines.append(f"print({t})")
                self.add(self.fresh(), f"{t}[0]", reduced, v.dtype, v.grad)
            else:
                self.add(self.fresh(), f"{v.name}.{name}({kw}{keep_text}).indices", reduced, "int64", False)
            return
        out = "int64" if name == "argmax" or (v.dtype == "bool" and name == "sum") else v.dtype
        if name in ("any", "all"):
            out = "bool"
        if name == "norm":
            call = f"{v.name}.norm(dim={dim}{keep_text})"
        elif name in ("std", "var") and r.random() < 0.3:
            call = f"{v.name}.{name}({kw}, unbiased=False{keep_text})" if r.random() < 0.5 else \
                f"torch.{name}({v.name}, {kw}, correction=0{keep_text})"
        else:
            call = f"{v.name}.{name}({kw}{keep_text})" if r.random() < 0.6 else f"torch.{name}({v.name}, {kw}{keep_text})"
        self.add(self.fresh(), call, reduced, out, v.grad and out in FLOAT)

    def view(self, v: Var) -> None:
        r = self.r
        s = v.shape
        nd = len(s)
        options: list[tuple[str, tuple[int, ...]]] = [
            (f"{v.name}.view(-1)", (v.numel,)),
            (f"{v.name}.reshape(-1, 1)", (v.numel, 1)),
            (f"{v.name}.unsqueeze(0)", (1, *s)),
            (f"{v.name}.unsqueeze(-1)", (*s, 1)),
            (f"{v.name}.flatten()", (v.numel,)),
            (f"{v.name}[None]", (1, *s)),
            (f"{v.name}[...]", s),
        ]
        if nd >= 1:
            n0 = s[0]
            options += [
                (f"{v.name}[0]", s[1:]), (f"{v.name}[-1]", s[1:]),
                (f"{v.name}[1:]", (n0 - 1, *s[1:])), (f"{v.name}[::2]", ((n0 + 1) // 2, *s[1:])),
                (f"{v.name}.select(0, {n0 - 1})", s[1:]),
                (f"{v.name}.unbind(0)[{r.randrange(n0)}]", s[1:]),
                (f"{v.name}.chunk(2)[0]", ((n0 + 1) // 2, *s[1:])),
                (f"{v.name}.split(1)[-1]", (1, *s[1:])),
                (f"{v.name}.narrow(0, {n0 // 2}, {n0 - n0 // 2})", (n0 - n0 // 2, *s[1:])),
                (f"{v.name}[..., 0]", s[:-1]),
                (f"{v.name}[..., None]", (*s, 1)),
                (f"{v.name}.expand(2, *{v.name}.shape)", (2, *s)),
                (f"{v.name}.reshape({v.numel})", (v.numel,)),
                (f"{v.name}[[0, -1]]", (2, *s[1:])),
                (f"{v.name}[torch.tensor([0, {n0 - 1}, 0])]", (3, *s[1:])),
                (f"{v.name}.flip(0)", s),
                (f"{v.name}.roll(1, 0)", s),
                (f"{v.name}.repeat(2{', 1' * (nd - 1)})", (2 * n0, *s[1:])),
            ]
            if n0 % 2 == 0:
                options.append((f"{v.name}.view(2, -1)", (2, v.numel // 2)))
        if nd >= 2:
            n0, n1 = s[0], s[1]
            perm = list(range(nd))
            r.shuffle(perm)
            options += [
                (f"{v.name}.transpose(0, 1)", (n1, n0, *s[2:])),
                (f"{v.name}.permute({', '.join(map(str, perm))})", tuple(s[k] for k in perm)),
                (f"{v.name}[:, 1:]", (n0, n1 - 1, *s[2:])),
                (f"{v.name}[:, ::2]", (n0, (n1 + 1) // 2, *s[2:])),
                (f"{v.name}[0, -1]", s[2:]),
                (f"{v.name}[:, None]", (n0, 1, *s[1:])),
                (f"{v.name}.mT", (*s[:-2], s[-1], s[-2])),
                (f"{v.name}.flatten(0, 1)", (n0 * n1, *s[2:])),
                (f"{v.name}.select(1, 0)", (n0, *s[2:])),
                (f"{v.name}.split([1, {n1 - 1}], dim=1)[1]", (n0, n1 - 1, *s[2:])),
                (f"{v.name}.chunk(3, dim=-1)[0]", (*s[:-1], -(-s[-1] // 3))),
                (f"{v.name}[[0, 0], [1, 0]]", (2, *s[2:])),
                (f"{v.name}[:, [1, 0]]", (n0, 2, *s[2:])),
                (f"{v.name}.movedim(0, -1)", (*s[1:], n0)),
                (f"{v.name}.swapaxes(0, -1)", (s[-1], *s[1:-1], n0)),
                (f"{v.name}.tril()", s), (f"{v.name}.triu(1)", s),
            ]
            if n1 == 1:
                options.append((f"{v.name}.squeeze(1)", (n0, *s[2:])))
            if nd == 2:
                options += [(f"{v.name}.t()", (n1, n0)), (f"{v.name}.T", (n1, n0)), (f"{v.name}.diagonal()", (min(s),)),
                            (f"{v.name}.reshape({n1}, {n0})", (n1, n0))]
        if 1 in s:
            options.append((f"{v.name}.squeeze()", tuple(n for n in s if n != 1)))
        if nd == 0:
            options += [(f"{v.name}.expand(3)", (3,)), (f"{v.name}.reshape(1, 1)", (1, 1)), (f"{v.name}.view(1)", (1,))]
        if nd >= 1 and s[-1] >= 2 and nd <= 2:
            options.append((f"{v.name}[{v.name} > 0]" if v.dtype != "bool" else f"{v.name}[{v.name}]", (-1,)))
        expr, shape = r.choice(options)
        if -1 in shape:  # a mask's count is known only when run: reduce it to a sum at once
            name = self.fresh()
            self.lines.append(f"{name} = {expr}")
            self.lines.append(f"print({name}.shape, {name})")
            if v.dtype in FLOAT and v.grad:
                self.add(self.fresh(), f"{name}.sum()" if v.dtype == "float64" else f"{name}.abs().sum()", (), v.dtype,
                         True)
            return
        self.add(self.fresh(), expr, shape, v.dtype, v.grad)

    def combine(self, v: Var) -> None:
        r = self.r
        same = [w for w in self.vars if w.shape == v.shape and w.dtype in FLOAT and (v.dtype != "float32" or w.dtype
                                                                                     == "float32")]
        w = r.choice(same) if same else v
        grad = (v.grad or w.grad) and v.dtype in FLOAT
        dtype = _promote(v.dtype, w.dtype)
        form = r.random()
        nd = len(v.shape)
        if form < 0.3 and nd:
            d = r.randrange(-nd, nd)
            shape = list(v.shape)
            shape[d] *= 2
            self.add(self.fresh(), f"torch.cat([{v.name}, {w.name}], dim={d})" if r.random() < 0.6 else
                     f"torch.cat(({v.name}, {w.name}), {d})", tuple(shape), dtype, grad)
        elif form < 0.5:
            d = r.randrange(0, nd + 1)
            shape = list(v.shape)
            shape.insert(d, 2)
            self.add(self.fresh(), f"torch.stack([{v.name}, {w.name}], dim={d})", tuple(shape), dtype, grad)
        elif form < 0.7:
            cond = r.choice([f"{v.name} > 0", f"{w.name} < 0.5", f"{v.name} >= {w.name}"])
            other = r.choice([w.name, "0.0", "1", f"{w.name} * 2"])
            self.add(self.fresh(), f"torch.where({cond}, {v.name}, {other})", v.shape, dtype if other != "1" else
                     v.dtype, grad)
        elif form < 0.85:
            fill = r.choice(["0.0", "-1.0", "2", "float('-inf')" if v.dtype == "float64" else "0"])
            self.add(self.fresh(), f"{v.name}.masked_fill({w.name} < 0, {fill})", v.shape, v.dtype, v.grad)
        else:
            lo, hi = r.choice([("-1", "1"), ("0", "None"), ("None", "0.5"), ("-0.5", "2")])
            if v.dtype == "float32":
                lo, hi = r.choice([("-1", "1"), ("0", "None"), ("None", "1")])
            self.add(self.fresh(), f"{v.name}.clamp({lo}, {hi})" if r.random() < 0.5 else
                     f"torch.clamp({v.name}, min={lo}, max={hi})", v.shape, v.dtype, v.grad)

    def promote(self, v: Var) -> None:
        r = self.r
        form = r.random()
        if form < 0.25:
            cond = r.choice([">", "<", ">=", "==", "!="])
            m = self.add(self.fresh("m"), f"{v.name} {cond} {r.choice(['0', '0.5', '1'])}", v.shape, "bool", False)
            if v.dtype in FLOAT:
                self.add(self.fresh(), r.choice([f"{v.name} * {m.name}", f"{m.name} * {v.name} + 1",
                                                 f"{v.name} + {m.name}", f"{m.name}.float() * {v.name}"]),
                         v.shape, v.dtype, v.grad)
        elif form < 0.45:
            i = self.leaf("int64", v.shape)
            out = _promote(v.dtype, "int64")
            self.add(self.fresh(), r.choice([f"{v.name} * {i.name}", f"{i.name} + {v.name}", f"{v.name} - {i.name}"]),
                     v.shape, out, v.grad and out in FLOAT)
        elif form < 0.65:
            i = self.leaf(r.choice(["int64", "bool"]), v.shape)
            expr, out = r.choice([(f"{i.name} * 2.5", "float32"), (f"{i.name} / 2", "float32"),
                                  (f"{i.name}.double()", "float64"), (f"{i.name}.to(torch.float64)", "float64"),
                                  (f"{i.name} + 1", "int64"),
                                  (f"{i.name}.sum()", "int64"), (f"{i.name}.float()", "float32"),
                                  (f"{i.name}.mean(dtype=torch.float64)", "float64")])
            shape = () if ".sum()" in expr or ".mean(" in expr else v.shape
            self.add(self.fresh(), expr, shape, out, False)
        elif form < 0.8 and v.dtype == "float64":
            self.add(self.fresh(), f"{v.name}.float()" if r.random() < 0.5 else f"{v.name}.to(torch.float32)", v.shape,
                     "float32", v.grad)
            self.lines.append(f"print({self.vars[-1].name}.dtype, {self.vars[-1].name})")
            self.vars.pop()  # float32 of a float64 value: not exact, print it only
        else:
            self.add(self.fresh(), f"{v.name}.long()" if v.dtype != "bool" else f"{v.name}.int()", v.shape,
                     "int64" if v.dtype != "bool" else "int32", False)

    def detach(self, v: Var) -> None:
        r = self.r
        form = r.random()
        if form < 0.35:
            d = self.add(self.fresh("d"), f"{v.name}.detach()", v.shape, v.dtype, False)
            self.lines.append(f"print({d.name}.requires_grad, {d.name}.is_leaf, {d.name}.grad_fn)")
            if v.dtype in FLOAT:
                self.add(self.fresh(), f"{v.name} * {d.name}", v.shape, v.dtype, v.grad)
        elif form < 0.7:
            z = self.fresh("z")
            self.lines.append("with torch.no_grad():")
            self.lines.append(f"    {z} = {v.name} * 2 + 1")
            self.lines.append(f"print({z}.requires_grad, {z}.grad_fn, {z})")
            self.vars.append(Var(z, v.shape, _promote_scalar(v.dtype, "2", "*"), False))
        elif v.grad and not v.leaf:
            self.lines.append(f"{v.name}.retain_grad()")
            self.retained.append(v.name)
        else:
            self.lines.append(f"print({v.name}.requires_grad, {v.name}.is_leaf)")

    def show(self, v: Var) -> None:
        r = self.r
        n = v.name
        forms = [f"print({n})", f"print(f'{n} = {{{n}}}')", f"print(repr({n}))", f"print({n}.shape, {n}.dtype)",
                 f"print({n}.grad_fn)", f"print({n}.requires_grad, {n}.is_leaf)", f"print({n}.tolist())",
                 f"print({n}.size(), {n}.dim(), {n}.numel())", f"print('{n}:', {n})", f"print([{n}])",
                 f"print(type({n}.grad_fn).__name__ if {n}.grad_fn else None)", f"print(str({n}))",
                 f"print({n}.grad_fn.next_functions if {n}.grad_fn else ())", f"print({n}.sum().item())",
                 f"print(f'{{{n}.sum().item():.4f}}')", f"print({n}.shape[0] if {n}.dim() else {n}.item())",
                 f"print(({n}, {n}.dtype))", f"print({n}.T if {n}.dim() == 2 else {n}.flatten())"]
        if not v.shape:
            forms += [f"print({n}.item())", f"print(float({n}))", f"print(f'{{{n}:.3f}}')", f"print(f'{{{n}.item()}}')",
                      f"print(round({n}.item(), 3))", f"print('loss', {n}.item())"]
        self.lines.append(r.choice(forms))

    def statement(self) -> None:
        r = self.r
        kind = r.random()
        v = self.pick(dtypes=("float64", "float64", "float64", "float32", "int64", "bool"))
        if v is None:
            return
        if v.dtype not in FLOAT and kind < 0.5:
            kind = r.choice([0.52, 0.6, 0.7, 0.98])
        if kind < 0.2:
            self.unary(v)
        elif kind < 0.32:
            self.scalar_op(v)
        elif kind < 0.47:
            self.binary(v)
        elif kind < 0.58:
            self.reduce(v)
        elif kind < 0.72:
            self.view(v)
        elif kind < 0.8:
            self.combine(v)
        elif kind < 0.86:
            self.promote(v)
        elif kind < 0.91:
            self.detach(v)
        else:
            self.show(v)

    # --- the end: backward, gradients, prints

    def finish(self) -> None:
        r = self.r
        leaves = [v for v in self.vars if v.leaf and v.grad]
        outs = [v for v in self.vars if v.grad and not v.leaf and v.dtype in FLOAT]
        if not outs:
            outs = leaves
        chosen = r.sample(outs, min(len(outs), r.randint(1, 2)))
        parts = []
        for v in chosen:
            if v.dtype == "float32" and v.numel > 8:
                parts.append(f"{v.name}.abs().amax()")
            else:
                parts.append(r.choice([f"{v.name}.sum()", f"({v.name} * {v.name}).sum()"] if v.dtype == "float64"
                                      else [f"{v.name}.sum()"]))
        if len(chosen) == 1 and chosen[0].dtype == "float64" and r.random() < 0.3:
            parts = [f"{chosen[0].name}.mean()"]
        loss = "loss"
        self.lines.append(f"{loss} = {' + '.join(parts)}")
        if r.random() < 0.3:
            self.lines.append(r.choice([f"print({loss})", f"print({loss}.grad_fn, {loss}.grad_fn.next_functions)",
                                        f"print(f'loss {{{loss}.item():.6f}}')", f"print({loss}.item())"]))
        form = r.random()
        names = [v.name for v in leaves]
        if form < 0.45:
            self.lines.append(f"{loss}.backward()")
        elif form < 0.6:
            self.lines.append(f"{loss}.backward(retain_graph=True)")
            if leaves and r.random() < 0.5:
                self.lines.append(f"print({leaves[0].name}.grad)")
            if leaves and r.random() < 0.4:
                self.lines.append(f"{r.choice(leaves).name}.grad.zero_()")
            self.lines.append(f"{loss}.backward()")
        elif form < 0.72 and outs:
            v = r.choice(outs)
            if v.dtype == "float32":
                g = f"torch.ones_like({v.name}) * 2" if r.random() < 0.5 else f"torch.full_like({v.name}, -1.0)"
            else:
                g = r.choice([f"torch.ones_like({v.name})", f"torch.full_like({v.name}, 0.5)",
                              f"torch.linspace(-1, 1, {v.numel}, dtype=torch.float64).reshape({v.name}.shape)"])
            self.lines.append(f"{v.name}.backward(gradient={g})" if v.shape or r.random() < 0.5 else
                              f"{v.name}.backward({g})")
        elif form < 0.9 and names:
            wanted = r.sample(names, min(len(names), r.randint(1, 3)))
            unused = self.leaf(r.choice(["float64", "float32"]), (2,), grad=True) if r.random() < 0.25 else None
            inputs = wanted + ([unused.name] if unused else [])
            extra = ", allow_unused=True" if unused or r.random() < 0.3 else ""
            if r.random() < 0.3:
                extra += ", retain_graph=True"
            if r.random() < 0.3:
                extra += f", grad_outputs=torch.tensor({r.choice(['1.0', '2.0', '0.5'])}, dtype={loss}.dtype)"
            target = f"[{', '.join(inputs)}]" if len(inputs) > 1 or r.random() < 0.5 else inputs[0]
            g = self.fresh("g")
            self.lines.append(f"{g} = torch.autograd.grad({loss}, {target}{extra})")
            self.lines.append(r.choice([f"print({g})", f"for t in {g}:\n    print(t)", f"print(len({g}), {g}[0])"]))
            return
        else:
            self.lines.append(f"{loss}.backward()")
            if r.random() < 0.5:
                self.lines.append(f"{loss}.backward()")  # a second backward through a freed graph
        for name in names[:4]:
            self.lines.append(r.choice([f"print({name}.grad)", f"print(f'{name}.grad = {{{name}.grad}}')",
                                        f"print(repr({name}.grad))", f"print({name}.grad is None, {name}.grad)"]))
        for name in self.retained[:2]:
            self.lines.append(f"print({name}.grad)")
        if r.random() < 0.15 and outs:
            self.lines.append(f"print({r.choice(outs).name}.grad)")  # not a leaf: None, and a warning

    def build(self) -> str:
        r = self.r
        self.leaf("float64" if r.random() < 0.8 else "float32")
        if r.random() < 0.5:
            self.leaf(r.choice(["float64", "float64", "float32", "int64"]))
        for _ in range(r.randint(4, 11)):
            self.statement()
        self.finish()
        return "\n".join(self.lines) + "\n"


def _promote(a: str, b: str) -> str:
    order = ["bool", "int32", "int64", "float32", "float64"]
    return order[max(order.index(a), order.index(b))]


def _promote_scalar(dtype: str, scalar: str, op: str) -> str:
    if op == "/" and dtype in ("int64", "bool", "int32"):
        return "float32"
    if dtype in FLOAT:
        return dtype
    if "." in scalar or "e" in scalar:
        return "float32"
    if dtype == "bool" and scalar != "True":
        return "int64"
    return dtype


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    out = []
    for k in range(1, max(len(a), len(b)) + 1):
        x = a[-k] if k <= len(a) else 1
        y = b[-k] if k <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(reversed(out))


def _broadcastable(r: random.Random, shape: tuple[int, ...]) -> tuple[int, ...]:
    form = r.random()
    if form < 0.3 or not shape:
        return shape if r.random() < 0.6 else ()
    if form < 0.6:
        return shape[-r.randint(1, len(shape)):]
    out = tuple(1 if r.random() < 0.5 else n for n in shape)
    return out if r.random() < 0.7 else (2, *out) if len(out) < 3 else out


# ---------------------------------------------------------------------------------------------------------------
# the families after autograd (--family): in-place ops, nn modules, losses and optimizers, printing


def _floats(r: random.Random, n: int, whole: bool = False) -> list[str]:
    if whole:
        return [r.choice(["0.", "1.", "-1.", "2.", "-2.", "3.", "0.5", "-1.5", "4.", "1.5"]) for _ in range(n)]
    return [repr(round(r.uniform(-2, 2), r.choice([1, 2, 4]))) for _ in range(n)]


def _tensor(r: random.Random, shape: tuple[int, ...], dtype: str = "float64", grad: bool = False,
            whole: bool = False) -> str:
    if dtype in ("int64", "int32", "int16", "int8", "uint8"):
        low = 0 if dtype == "uint8" else -3
        values = [str(r.randint(low, 5)) for _ in range(math.prod(shape))]
    elif dtype == "bool":
        values = [r.choice(["True", "False"]) for _ in range(math.prod(shape))]
    else:
        values = _floats(r, math.prod(shape), whole or dtype != "float64")
    args = [_nested(values, shape) if shape else values[0]]
    if dtype != "float32" or r.random() < 0.3:
        args.append(f"dtype=torch.{dtype}")
    if grad:
        args.append("requires_grad=True")
    return f"torch.tensor({', '.join(args)})"


class InPlaceProgram:
    """In-place ops with and without a graph: add_/mul_/sub_/div_(alpha=), clamp_, relu_, zero_, fill_, copy_,
    masked_fill_, index_add_/scatter_, in-place on views and slices, the version counter's and a leaf's errors,
    and the hand-written SGD step `with torch.no_grad(): w -= lr * w.grad`."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.lines = ["import torch", "import torch.nn.functional as F"]
        self.count = 0
        self.leaves: list[Var] = []
        self.graph: list[Var] = []  # float64 results with a graph, free to modify in place
        self.plain: list[Var] = []  # tensors without a graph (float64, float32 with whole values, int64)
        self.done = False

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def operand(self, v: Var) -> str:
        """Something to combine with v in place: a Python number or a tensor that broadcasts to v's shape."""
        r = self.r
        if v.dtype == "int64":
            return r.choice(["2", "-1", "3", "True", f"torch.tensor({r.randint(-2, 3)})",
                             _tensor(r, v.shape[-1:], "int64")])
        whole = v.dtype == "float32"
        form = r.random()
        if form < 0.4:
            return r.choice(["2", "0.5", "-1.5", "3.0", "1e-3"] if not whole else ["2", "0.5", "-1.5", "3.0"])
        if form < 0.7:
            others = [w for w in self.graph + self.leaves if w.dtype == "float64" and w is not v
                      and _broadcast(v.shape, w.shape) == v.shape] if v.dtype == "float64" else []
            if others:
                return r.choice(others).name
        shape = v.shape[r.randint(0, len(v.shape)):] if v.shape else ()
        return _tensor(r, shape, v.dtype, whole=whole)

    def start(self) -> None:
        r = self.r
        for _ in range(r.randint(1, 2)):
            shape = r.choice([(3,), (2, 3), (4,), (2, 2), (3, 2)])
            name = self.fresh("x")
            self.lines.append(f"{name} = {_tensor(r, shape, 'float64', grad=True)}")
            self.leaves.append(Var(name, shape, "float64", True, leaf=True))
        if r.random() < 0.6:
            shape = r.choice([(3,), (2, 3), (4,)])
            dtype = r.choice(["float64", "float32", "int64"])
            name = self.fresh("t")
            if dtype == "int64" and r.random() < 0.5:
                n = math.prod(shape)
                self.lines.append(f"{name} = torch.arange({n}){f'.reshape{shape}' if len(shape) > 1 else ''}")
            else:
                self.lines.append(f"{name} = {_tensor(r, shape, dtype)}")
            self.plain.append(Var(name, shape, dtype, False))

    def derived(self) -> None:
        """A fresh result with a graph (or a clone): what tutorials modify in place."""
        r = self.r
        x = r.choice(self.leaves + self.graph)
        form = r.choice(["{x} * 2", "{x}.clone()", "{x} + 0", "{x} * 1.5 - 1", "{x}.exp()", "{x} ** 2", "{x}.sin()",
                         "{x}.sigmoid()", "{x}.tanh()", "torch.relu({x})", "{x}.abs() + 1", "{x}.detach().clone()"])
        name = self.fresh("y")
        self.lines.append(f"{name} = {form.format(x=x.name)}")
        grad = "detach" not in form
        var = Var(name, x.shape, "float64", grad)
        (self.graph if grad else self.plain).append(var)

    def inplace(self, v: Var) -> None:
        r = self.r
        n = v.name
        o = self.operand(v)
        forms = [f"{n}.add_({o})", f"{n}.add_({o}, alpha={r.choice(['2', '-0.5', '3'])})", f"{n}.sub_({o})",
                 f"{n}.sub_({o}, alpha=2)", f"{n}.mul_({o})", f"{n} += {o}", f"{n} -= {o}", f"{n} *= {o}",
                 f"{n}.clamp_({r.choice(['-1, 1', 'min=0', 'max=0.5', '-0.5, 0.5'])})", f"{n}.relu_()",
                 f"{n}.zero_()", f"{n}.fill_({r.choice(['2.5', '0', '-1', 'True'])})", f"{n}.neg_()",
                 f"{n}.masked_fill_({n} > 0, {r.choice(['0.', '-1', '2.5'])})", f"{n}.abs_()",
                 f"{n}.copy_({self.operand(v)})", f"torch.relu_({n})", f"F.relu({n}, inplace=True)",
                 f"{n}.masked_fill_({_tensor(r, v.shape[-1:], 'bool')}, 9.)"]
        if v.shape:
            k = v.shape[0]
            src = _tensor(r, (2, *v.shape[1:]), v.dtype, whole=v.dtype != "float64")
            index = f"torch.tensor([{r.randrange(k)}, {r.randrange(k)}])"
            forms += [f"{n}.index_add_(0, {index}, {src})", f"{n}.index_fill_(0, {index}, -2)",
                      f"{n}[0] = {r.choice(['5', '0.25', '-1'])}", f"{n}[1:] += 1", f"{n}[-1] *= 2",
                      f"{n}[{n} < 0] = 0", f"{n}[:1].mul_(3)", f"{n}.view(-1)[0] = 7",
                      f"{n}.select(0, 0).zero_()"]
            if len(v.shape) == 1:
                forms.append(f"{n}.scatter_(0, torch.tensor([{k - 1}, 0]), {_tensor(r, (2,), v.dtype, whole=True)})")
                forms.append(f"{n}.scatter_add_(0, torch.tensor([0, 0, {k - 1}]), {_tensor(r, (3,), v.dtype, whole=True)})")
            else:
                forms += [f"{n}[:, 0] += 1", f"{n}[:, 1:] = 0", f"{n}.t().mul_(2)", f"{n}[0, -1] -= 0.5",
                          f"{n}.scatter_(1, torch.zeros({v.shape[0]}, 1, dtype=torch.long), 1.5)"]
        if v.dtype == "float64":
            forms += [f"{n}.div_({o})" if not o.lstrip('-').startswith('0') else f"{n}.div_(4)", f"{n} /= 2",
                      f"{n}.exp_()", f"{n}.mul_({n})", f"{n}.sigmoid_()", f"{n}.pow_(2)", f"{n}.sqrt_()",
                      f"{n}.addcmul_({n}, {n}, value=0.5)", f"{n}.lerp_(torch.zeros_like({n}), 0.25)"]
        # (not addcmul_ of an integer tensor with a float value: PyTorch truncates the value, gradcli refuses the
        # cast; left)
        if v.dtype == "int64":
            forms += [f"{n}.div_(2)", f"{n} //= 2", f"{n}.div_(2, rounding_mode='floor')", f"{n} %= 3"]
        self.lines.append(r.choice(forms))
        if r.random() < 0.5:
            self.lines.append(r.choice([f"print({n})", f"print({n}.grad_fn)", f"print({n}, {n}.requires_grad)",
                                        f"print({n}.is_leaf, {n}.grad_fn)" if v.grad else f"print({n}.dtype, {n})"]))

    def view_inplace(self) -> None:
        r = self.r
        base = r.choice(self.graph) if self.graph else None
        if base is None or not base.shape:
            return
        name = self.fresh("v")
        view = r.choice(["{b}[1:]", "{b}.view(-1)", "{b}[0]", "{b}.unsqueeze(0)", "{b}.transpose(0, -1)", "{b}[..., :1]"])
        self.lines.append(f"{name} = {view.format(b=base.name)}")
        self.lines.append(r.choice([f"{name}.mul_(2)", f"{name} += 1", f"{name}.zero_()", f"{name}.clamp_(max=0.5)",
                                    f"{name}.exp_()", f"{name}.copy_(torch.ones_like({name}))"]))
        self.lines.append(r.choice([f"print({base.name}.grad_fn)", f"print({name}.grad_fn)",
                                    f"print({base.name})", f"print({name}, {base.name})"]))

    def error(self) -> None:
        """What a learner runs into: a leaf modified in place, or a saved tensor modified before backward."""
        r = self.r
        x = r.choice(self.leaves)
        form = r.random()
        if form < 0.3:
            self.lines.append(r.choice([f"{x.name}.add_(1)", f"{x.name} += 1", f"{x.name}[0] = 0",
                                        f"{x.name}.zero_()", f"{x.name}.mul_(2)", f"{x.name}.relu_()"]))
        else:
            y = self.fresh("y")
            z = self.fresh("z")
            self.lines.append(f"{y} = {x.name} * 1.5")
            saved = r.choice([f"{y} ** 2", f"{y}.exp()", f"{y}.sin()", f"{y} + 1", f"{y} * {x.name}", f"{y}.sigmoid()",
                              f"{y}.tanh()", f"{y}.relu()", f"{y}.sum()", f"{y} * 2", f"{y}.pow(3)", f"{y}.log1p()",
                              f"{y}.abs()", f"{y}.sqrt()"])
            self.lines.append(f"{z} = {saved}")
            target = r.choice([y, z])
            self.lines.append(r.choice([f"{target}.add_(1)", f"{target}.mul_(2)", f"{target}.zero_()",
                                        f"{target}[0] = 1" if x.shape and target == y else f"{target}.neg_()"]))
            self.lines.append(f"{z}.sum().backward()")
            self.lines.append(f"print({x.name}.grad)")
        self.done = True

    def sgd(self) -> None:
        r = self.r
        x = r.choice(self.leaves)
        lr = r.choice(["0.1", "0.5", "1e-2"])
        self.lines.append(f"for step in range({r.randint(1, 3)}):")
        self.lines.append(f"    loss = {r.choice(['({x} ** 2).sum()', '({x} - 1).pow(2).mean()', '{x}.sin().sum()', '({x} * {x}).sum() * 0.5'])}".format(x=x.name))
        self.lines.append("    loss.backward()")
        update = r.choice([f"{x.name} -= {lr} * {x.name}.grad", f"{x.name}.sub_({lr} * {x.name}.grad)",
                           f"{x.name}.add_({x.name}.grad, alpha=-{lr})", f"{x.name}.data -= {lr} * {x.name}.grad"])
        if r.random() < 0.85:
            self.lines.append("    with torch.no_grad():")
            self.lines.append(f"        {update}")
            if r.random() < 0.75:
                self.lines.append("        " + r.choice([f"{x.name}.grad.zero_()", f"{x.name}.grad = None"]))
        else:
            self.lines.append(f"    {update}")
        self.lines.append(r.choice([f"    print(step, loss.item(), {x.name})", "    print(f'{step} {loss.item():.6f}')",
                                    f"    print({x.name}.grad)", f"    print({x.name}.requires_grad, {x.name}.is_leaf)"]))
        self.lines.append(f"print({x.name})")

    def finish(self) -> None:
        r = self.r
        outs = [v for v in self.graph if v.grad]
        if outs:
            v = r.choice(outs)
            self.lines.append(r.choice([f"{v.name}.sum().backward()", f"({v.name} * {v.name}).sum().backward()",
                                        f"{v.name}.backward(torch.ones_like({v.name}))"]))
            for x in self.leaves:
                self.lines.append(r.choice([f"print({x.name}.grad)", f"print(f'{x.name}.grad = {{{x.name}.grad}}')"]))
        for t in self.plain[:2]:
            self.lines.append(f"print({t.name})")

    def build(self) -> str:
        r = self.r
        self.start()
        for _ in range(r.randint(3, 8)):
            form = r.random()
            if form < 0.3:
                self.derived()
            elif form < 0.65:
                pool = self.graph + self.plain
                if pool:
                    self.inplace(r.choice(pool))
            elif form < 0.75:
                self.view_inplace()
            elif form < 0.83:
                self.sgd()
            elif form < 0.93:
                self.error()
                break
            else:
                self.lines.append(r.choice([f"print({v.name})" for v in self.graph + self.plain + self.leaves]))
        if not self.done:
            self.finish()
        return "\n".join(self.lines) + "\n"


LOOSE = "# float32: numbers compared to their last printed digit"


class LayersProgram:
    """nn modules with seeded init: Linear, Conv1d/2d, BatchNorm, LayerNorm, Embedding, Dropout, Sequential and a
    Module subclass; parameters(), named_parameters(), state_dict(), zero_grad(set_to_none=), train()/eval()."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.lines = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F",
                      f"torch.manual_seed({self.r.randint(0, 1000)})"]
        self.float32 = self.r.random() < 0.25
        if self.float32:
            self.lines.insert(0, LOOSE)

    def dtype(self) -> str:
        if self.float32:
            return ""
        return self.r.choice([", dtype=torch.float64"] * 3 + [", dtype=torch.double"])

    def module(self) -> tuple[str, str, str]:
        """A module's constructor, an input for it, and whether it has parameters ('params' or '')."""
        r = self.r
        d = self.dtype()
        dt = "" if self.float32 else ", dtype=torch.float64"
        n = r.randint(1, 3)
        kind = r.choice(["linear", "linear", "sequential", "conv1d", "conv2d", "batchnorm", "layernorm", "embedding",
                         "dropout", "custom", "sequential"])
        if kind == "linear":
            i, o = r.randint(1, 4), r.randint(1, 3)
            bias = r.choice(["", ", bias=False", ", bias=True"])
            return f"nn.Linear({i}, {o}{bias}{d})", f"torch.randn({n}, {i}{dt})", "params"
        if kind == "sequential":
            i, h, o = r.randint(2, 4), r.randint(2, 5), r.randint(1, 3)
            act = r.choice(["nn.ReLU()", "nn.Tanh()", "nn.Sigmoid()", "nn.LeakyReLU(0.1)", "nn.GELU()", "nn.ELU()",
                            "nn.Softplus()", "nn.Identity()", "nn.Dropout(0.5)"])
            extra = r.choice(["", f", nn.LayerNorm({o}{d})", ", nn.Softmax(dim=1)", ", nn.LogSoftmax(dim=-1)",
                              f", nn.BatchNorm1d({o}{d})", ", nn.Flatten()"])
            return (f"nn.Sequential(nn.Linear({i}, {h}{d}), {act}, nn.Linear({h}, {o}{d}){extra})",
                    f"torch.randn({max(n, 2)}, {i}{dt})", "params")
        if kind == "conv1d":
            c, o, k = r.randint(1, 2), r.randint(1, 3), r.randint(1, 3)
            opts = r.choice(["", ", stride=2", ", padding=1", ", padding='same'", ", bias=False", ", dilation=2"])
            if "same" in opts and k % 2 == 0:
                opts = ""
            return f"nn.Conv1d({c}, {o}, {k}{opts}{d})", f"torch.randn({n}, {c}, {r.randint(5, 7)}{dt})", "params"
        if kind == "conv2d":
            c, o, k = r.randint(1, 2), r.randint(1, 2), r.choice([1, 2, 3, "(2, 1)"])
            opts = r.choice(["", ", stride=2", ", padding=1", ", bias=False", ", groups=1", ", padding=(1, 0)"])
            return (f"nn.Conv2d({c}, {o}, {k}{opts}{d})", f"torch.randn({n}, {c}, {r.randint(3, 5)}, {r.randint(3, 5)}{dt})",
                    "params")
        if kind == "batchnorm":
            f = r.randint(1, 3)
            opts = r.choice(["", ", momentum=0.5", ", affine=False", ", eps=1e-3", ", track_running_stats=False"])
            if r.random() < 0.5:
                return f"nn.BatchNorm1d({f}{opts}{d})", f"torch.randn({max(n, 2)}, {f}{dt})", "params"
            return f"nn.BatchNorm2d({f}{opts}{d})", f"torch.randn({max(n, 2)}, {f}, 2, 2{dt})", "params"
        if kind == "layernorm":
            f = r.randint(2, 4)
            opts = r.choice(["", ", elementwise_affine=False", ", eps=1e-3", ", bias=False"])
            shape = r.choice([f"{f}", f"[{f}]", f"(2, {f})"])
            lead = "2, " if shape.startswith("(") else ""
            return f"nn.LayerNorm({shape}{opts}{d})", f"torch.randn({n}, {lead}{f}{dt})", "params"
        if kind == "embedding":
            num, dim = r.randint(3, 6), r.randint(1, 3)
            opts = r.choice(["", ", padding_idx=0", ", max_norm=1.0", ""])
            index = _nested([str(r.randrange(num)) for _ in range(2 * n)], (n, 2))
            return f"nn.Embedding({num}, {dim}{opts}{d})", f"torch.tensor({index})", "params"
        if kind == "dropout":
            p = r.choice(["0.5", "0.2", "0.0", "1.0"])
            return f"nn.Dropout({p})", f"torch.randn({n}, 4{dt})", ""
        i, o = r.randint(2, 3), r.randint(1, 2)
        self.lines += ["class Net(nn.Module):", "    def __init__(self):", "        super().__init__()",
                       f"        self.fc1 = nn.Linear({i}, 3{d})", f"        self.fc2 = nn.Linear(3, {o}{d})",
                       "    def forward(self, x):", f"        return self.fc2({r.choice(['F.relu', 'torch.tanh', 'torch.sigmoid'])}(self.fc1(x)))"]
        return "Net()", f"torch.randn({n}, {i}{dt})", "params"

    def build(self) -> str:
        r = self.r
        made, data, params = self.module()
        lines = self.lines
        lines.append(f"model = {made}")
        lines.append(f"x = {data}")
        if r.random() < 0.3 and not self.float32 and "dtype" not in made.split("(")[-1]:
            pass
        shows = [
            "print(model)", "print(model.state_dict())", "print(list(model.state_dict().keys()))",
            "for name, p in model.named_parameters():\n    print(name, p.shape, p.requires_grad)",
            "print(sum(p.numel() for p in model.parameters()))", "print([p.shape for p in model.parameters()])",
            "print(model.training)", "for p in model.parameters():\n    print(p)",
            "print(len(list(model.parameters())), len(list(model.children())))",
            "for k, v in model.state_dict().items():\n    print(k, v.shape, v.dtype)",
            "print(list(model.named_modules())[0][0] == '', [n for n, _ in model.named_modules()])",
            "print(list(model.named_buffers()))",
        ]
        for _ in range(r.randint(1, 3)):
            lines.append(r.choice(shows))
        if r.random() < 0.4:
            lines.append(r.choice(["model.eval()", "model.train()", "model.train(False)", "print(model.eval())"]))
            lines.append("print(model.training)")
        lines.append("out = model(x)")
        lines.append(r.choice(["print(out)", "print(out.shape)", "print(out.shape, out.grad_fn)", "print(out.dtype, out)"]))
        if r.random() < 0.3:
            lines.append("print(model.state_dict())")
        if params:
            loss = r.choice(["out.sum()", "(out ** 2).mean()", "out.pow(2).sum()", "out.abs().sum()", "out.mean()"])
            lines.append(f"loss = {loss}")
            lines.append(r.choice(["print(loss)", "print(f'loss {loss.item():.4f}')", "print(loss.grad_fn)"]))
            lines.append("loss.backward()")
            lines.append(r.choice(["for name, p in model.named_parameters():\n    print(name, p.grad)",
                                   "print([p.grad for p in model.parameters()])",
                                   "print(next(model.parameters()).grad)"]))
            if r.random() < 0.6:
                zero = r.choice(["model.zero_grad()", "model.zero_grad(set_to_none=True)",
                                 "model.zero_grad(set_to_none=False)"])
                lines.append(zero)
                lines.append(r.choice(["print([p.grad for p in model.parameters()])",
                                       "print(next(model.parameters()).grad)"]))
            if r.random() < 0.4:
                lines.append("model(x).sum().backward()")
                lines.append("print(next(model.parameters()).grad)")
        if r.random() < 0.4:
            lines.append(r.choice(["model.eval()", "model.train()"]))
            lines.append(r.choice(["print(model(x))", "with torch.no_grad():\n    print(model(x))",
                                   "print(model.training, model(x).requires_grad)"]))
        if r.random() < 0.3:
            lines.append(r.choice(["print(model.state_dict())", "print(list(model.named_buffers()))"]))
        return "\n".join(lines) + "\n"


LOSSES_C = 3


class TrainingProgram:
    """Losses (mse/l1/smooth_l1/huber/cross_entropy with indices and probabilities, label_smoothing, weights,
    ignore_index, reduction, nll_loss, bce/bce_with_logits(pos_weight=), kl_div), then optimizers and lr schedulers
    for a few steps, printing losses, learning rates and parameters."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.lines = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F",
                      f"torch.manual_seed({self.r.randint(0, 1000)})"]

    def loss(self, inp: str, n: int, c: int) -> tuple[str, str]:
        """A loss call of `inp` (n x c, float64) and its target's definition."""
        r = self.r
        red = r.choice(["", "", ", reduction='sum'", ", reduction='none'", ", reduction='mean'"])
        f64 = "dtype=torch.float64"
        kind = r.choice(["mse", "l1", "smooth_l1", "huber", "ce", "ce", "ce_prob", "nll", "bce", "bce_logits",
                         "bce_logits", "kl", "module"])
        if kind in ("mse", "l1", "smooth_l1", "huber"):
            target = _tensor(r, (n, c))
            extra = {"smooth_l1": r.choice(["", ", beta=0.5", ", beta=2.0"]),
                     "huber": r.choice(["", ", delta=0.5", ", delta=2.0"])}.get(kind, "")
            return target, f"F.{kind}_loss({inp}, target{red}{extra})"
        if kind in ("ce", "nll"):
            labels = [r.randrange(c) for _ in range(n)]
            ignore = ""
            if r.random() < 0.3:
                k = r.randrange(n)
                labels[k] = -100 if r.random() < 0.5 else c
                ignore = "" if labels[k] == -100 else f", ignore_index={c}"
            target = f"torch.tensor({labels})"
            weight = r.choice(["", "", f", weight=torch.tensor({[round(r.uniform(0.1, 2), 1) for _ in range(c)]}, {f64})"])
            smooth = r.choice(["", "", ", label_smoothing=0.1", ", label_smoothing=0.25"]) if kind == "ce" else ""
            if kind == "nll":
                return target, f"F.nll_loss(F.log_softmax({inp}, dim=1), target{weight}{ignore}{red})"
            return target, f"F.cross_entropy({inp}, target{weight}{ignore}{smooth}{red})"
        if kind == "ce_prob":
            smooth = r.choice(["", ", label_smoothing=0.2"])
            weight = r.choice(["", f", weight=torch.tensor({[round(r.uniform(0.1, 2), 1) for _ in range(c)]}, {f64})"])
            return f"torch.softmax({_tensor(r, (n, c))}, dim=1)", f"F.cross_entropy({inp}, target{weight}{smooth}{red})"
        if kind == "bce":
            target = f"torch.tensor({_nested([r.choice(['0.', '1.', '0.25']) for _ in range(n * c)], (n, c))}, {f64})"
            weight = r.choice(["", f", weight=torch.tensor({[round(r.uniform(0.1, 2), 1) for _ in range(c)]}, {f64})"])
            return target, f"F.binary_cross_entropy(torch.sigmoid({inp}), target{weight}{red})"
        if kind == "bce_logits":
            target = f"torch.tensor({_nested([r.choice(['0.', '1.', '0.5']) for _ in range(n * c)], (n, c))}, {f64})"
            pos = r.choice(["", f", pos_weight=torch.tensor({[round(r.uniform(0.5, 3), 1) for _ in range(c)]}, {f64})",
                            f", weight=torch.tensor({[round(r.uniform(0.1, 2), 1) for _ in range(c)]}, {f64})"])
            return target, f"F.binary_cross_entropy_with_logits({inp}, target{pos}{red})"
        if kind == "kl":
            red = r.choice(["", ", reduction='batchmean'", ", reduction='sum'", ", reduction='none'", ", reduction='mean'"])
            log_target = r.random() < 0.3
            target = f"F.log_softmax({_tensor(r, (n, c))}, dim=1)" if log_target else f"F.softmax({_tensor(r, (n, c))}, dim=1)"
            return target, f"F.kl_div(F.log_softmax({inp}, dim=1), target{red}{', log_target=True' if log_target else ''})"
        module = r.choice([f"nn.MSELoss({red[2:]})", f"nn.L1Loss({red[2:]})", f"nn.CrossEntropyLoss({red[2:]})",
                           f"nn.SmoothL1Loss({red[2:]})", f"nn.HuberLoss({red[2:]})", f"nn.BCEWithLogitsLoss({red[2:]})"])
        if "Cross" in module:
            target = f"torch.tensor({[r.randrange(c) for _ in range(n)]})"
        elif "BCE" in module:
            target = f"torch.tensor({_nested([r.choice(['0.', '1.']) for _ in range(n * c)], (n, c))}, {f64})"
        else:
            target = _tensor(r, (n, c))
        self.lines.append(f"criterion = {module}")
        self.lines.append(r.choice(["print(criterion)", "pass"]))
        return target, f"criterion({inp}, target)"

    def losses(self) -> None:
        r = self.r
        n, c = r.randint(1, 4), r.randint(2, 4)
        self.lines.append(f"logits = {_tensor(r, (n, c), grad=True)}")
        target, call = self.loss("logits", n, c)
        self.lines.append(f"target = {target}")
        self.lines.append(f"loss = {call}")
        self.lines.append(r.choice(["print(loss)", "print(loss, loss.grad_fn)", "print(f'{loss.sum().item():.6f}')"]))
        self.lines.append(r.choice(["loss.sum().backward()", "loss.mean().backward()"]))
        self.lines.append("print(logits.grad)")

    def training(self) -> None:
        r = self.r
        n, i, c = r.randint(2, 4), r.randint(1, 3), r.randint(2, 3)
        self.lines.append(f"model = nn.Linear({i}, {c}, dtype=torch.float64)")
        self.lines.append(f"x = torch.randn({n}, {i}, dtype=torch.float64)")
        target, call = self.loss("model(x)", n, c)
        if "reduction='none'" in call:
            call = f"{call}.mean()"
        self.lines.append(f"target = {target}")
        lr = r.choice(["0.1", "0.01", "0.5", "1e-3"])
        optimizer = r.choice([
            f"torch.optim.SGD(model.parameters(), lr={lr})",
            f"torch.optim.SGD(model.parameters(), lr={lr}, momentum=0.9)",
            f"torch.optim.SGD(model.parameters(), lr={lr}, momentum=0.9, nesterov=True)",
            f"torch.optim.SGD(model.parameters(), lr={lr}, weight_decay=0.1)",
            f"torch.optim.SGD(model.parameters(), lr={lr}, momentum=0.5, dampening=0.1, weight_decay=1e-2)",
            f"torch.optim.Adam(model.parameters(), lr={lr})",
            f"torch.optim.Adam(model.parameters(), lr={lr}, betas=(0.8, 0.99), weight_decay=0.01)",
            f"torch.optim.Adam(model.parameters(), lr={lr}, amsgrad=True)",
            f"torch.optim.AdamW(model.parameters(), lr={lr})",
            f"torch.optim.AdamW(model.parameters(), lr={lr}, weight_decay=0.1)",
            f"torch.optim.RMSprop(model.parameters(), lr={lr})",
            f"torch.optim.RMSprop(model.parameters(), lr={lr}, alpha=0.9, momentum=0.5, centered=True)",
            f"torch.optim.Adagrad(model.parameters(), lr={lr})",
            f"torch.optim.Adagrad(model.parameters(), lr={lr}, lr_decay=0.01, initial_accumulator_value=0.1)",
        ])
        self.lines.append(f"optimizer = {optimizer}")
        scheduler = r.choice([
            "", "", "torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)",
            "torch.optim.lr_scheduler.StepLR(optimizer, 1)",
            "torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.9)",
            "torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=4)",
            "torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=3, eta_min=0.001)",
            "torch.optim.lr_scheduler.LambdaLR(optimizer, lambda epoch: 0.5 ** epoch)",
            "torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda=lambda e: 1 / (e + 1))",
            "torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[1, 3], gamma=0.1)",
        ])
        if scheduler:
            self.lines.append(f"scheduler = {scheduler}")
        if r.random() < 0.3:
            self.lines.append(r.choice(["print(optimizer)", "print(optimizer.param_groups[0]['lr'])",
                                        "print(optimizer.state_dict()['param_groups'])"]))
        self.lines.append(f"for step in range({r.randint(2, 4)}):")
        zero = r.choice(["optimizer.zero_grad()", "optimizer.zero_grad(set_to_none=False)", "model.zero_grad()"])
        self.lines.append(f"    {zero}")
        self.lines.append(f"    loss = {call}")
        self.lines.append("    loss.backward()")
        self.lines.append("    optimizer.step()")
        if scheduler:
            self.lines.append("    scheduler.step()")
        shown = ["print(step, loss.item())", "print(f'{step}: {loss.item():.6f}')", "print(loss)"]
        if scheduler:
            shown += ["print(step, scheduler.get_last_lr())", "print(f\"{optimizer.param_groups[0]['lr']:.6f}\")"]
        self.lines.append(f"    {r.choice(shown)}")
        self.lines.append(r.choice(["print(model.weight)", "print(model.state_dict())",
                                    "for p in model.parameters():\n    print(p.data)", "print(model.bias.grad)"]))
        if r.random() < 0.3:
            self.lines.append(r.choice(["print(optimizer.state_dict()['param_groups'][0]['lr'])",
                                        "print(len(optimizer.state))", "print(optimizer.param_groups[0]['lr'])"]))

    def build(self) -> str:
        if self.r.random() < 0.45:
            self.losses()
            if self.r.random() < 0.3:
                self.losses()
        else:
            self.training()
        return "\n".join(self.lines) + "\n"


PRINT_VALUES = ["0.", "1.", "-1.", "0.5", "1e-05", "1e-08", "123456.789", "1e10", "-3e20", "float('nan')",
                "float('inf')", "-float('inf')", "2.", "0.001", "-0.25", "100.", "1e-20", "3.14159", "-0.", "65504.",
                "1234.5", "0.1"]


class PrintingProgram:
    """Printing: tensors of every dtype (huge/tiny/nan/inf values, sci mode, empty, 0-d, summarised past 1000
    elements), torch.set_printoptions, f-strings with format specs, repr of lists/tuples/dicts of tensors."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.lines = ["import torch"]
        self.count = 0

    def make(self) -> str:
        r = self.r
        self.count += 1
        name = f"t{self.count}"
        dtype = r.choice(["float32", "float32", "float64", "float64", "int64", "int32", "bool", "int8", "uint8",
                          "int16"])
        if r.random() < 0.03:
            dtype = r.choice(["float16", "bfloat16"])  # (gradcli run refuses both: exit 2 naming the dtype)
        form = r.random()
        shape = r.choice([(), (1,), (3,), (2, 3), (2, 2, 2), (0,), (2, 0), (5,), (1, 4)])
        if form < 0.12:
            n = r.choice([1001, 1200, 2000, 30, 12])
            extra = f".reshape({r.choice(['-1', '2, -1', '-1, 4' if n % 4 == 0 else '-1'])})"
            text = f"torch.arange({n}, dtype=torch.{dtype if dtype != 'bool' else 'int64'}){extra if r.random() < 0.6 else ''}"
            if dtype.startswith("float") and r.random() < 0.5:
                text = f"({text} * {r.choice(['0.5', '1e-3', '1e5', '0.1'])})"
        elif form < 0.2:
            text = r.choice([f"torch.zeros({', '.join(map(str, shape)) or '()'}, dtype=torch.{dtype})",
                             f"torch.ones({', '.join(map(str, shape)) or '()'}, dtype=torch.{dtype})",
                             f"torch.empty(0, dtype=torch.{dtype})",
                             f"torch.full({list(shape)}, {r.choice(['7', '2.5', '-1'])}, dtype=torch.{dtype})"
                             if dtype != "bool" else "torch.full((2,), True)"])
        elif form < 0.3 and dtype.startswith("float"):
            text = f"torch.linspace({r.choice(['-1', '0', '1e-4'])}, {r.choice(['1', '1e6', '10', '0.001'])}, " \
                   f"{r.choice([3, 5, 7, 11])}, dtype=torch.{dtype})"
        elif dtype.startswith("float") or dtype == "bfloat16":
            values = [r.choice(PRINT_VALUES) if r.random() < 0.5 else repr(round(r.uniform(-50, 50), r.randint(0, 5)))
                      for _ in range(math.prod(shape))]
            scale = r.choice(["", "", "", " * 1e6", " * 1e-6", " / 3"])
            text = f"torch.tensor({_nested(values, shape) if shape else values[0]}, dtype=torch.{dtype}){scale}"
        else:
            text = _tensor(r, shape, dtype)
            if dtype != "bool" and dtype != "uint8" and r.random() < 0.2:
                text = f"({text} * {r.choice(['1000000', '-12345', '100'])})"
        if dtype in ("float32", "float64") and r.random() < 0.15:
            text = f"{text}.requires_grad_()" if "*" not in text and "/" not in text else f"({text}).requires_grad_()"
        self.lines.append(f"{name} = {text}")
        return name

    def show(self, name: str) -> None:
        r = self.r
        forms = [f"print({name})", f"print(repr({name}))", f"print(str({name}))", f"print([{name}, {name}])",
                 f"print(({name},))", f"print({{'a': {name}, 'b': 1}})", f"print(f'{{{name}}}')", f"print(f'{{{name}!r}}')",
                 f"print({name}.dtype, {name}.shape)", f"print({name}.tolist())", f"print({name}.numel(), {name}.dim())",
                 f"print('value:', {name}, sep=' | ')", f"print([{name}.sum(), {name}.max() if {name}.numel() else 0])",
                 f"print({name}[:2])", f"print({name}.T if {name}.dim() == 2 else {name})",
                 f"print({name}.float() if {name}.dtype != torch.bool else {name}.int())",
                 f"print({name}.double() * 3)" if True else "",
                 f"print(f'{{{name}.sum().item():.4f}}')" if True else "",
                 f"print(f'{{{name}.sum():.3f}}')", f"print(f'{{{name}:.2f}}')", f"print(f'{{{name}.float().mean():>12.3e}}')",
                 f"print('{{:.4f}}'.format({name}.sum().item()))", f"print(format({name}.sum(), '.5g'))",
                 f"print({name}.sum().item(), {name}.sum())", f"print(f'{{{name}.numel():5d}}')"]
        self.lines.append(r.choice(forms))

    def options(self) -> None:
        r = self.r
        args = r.sample([f"precision={r.randint(0, 10)}", f"sci_mode={r.choice(['True', 'False', 'None'])}",
                         f"linewidth={r.choice([20, 40, 60, 80, 120])}", "threshold=" + r.choice(["3", "5", "10", "1000", "float('inf')"]),
                         f"edgeitems={r.randint(1, 4)}", f"profile='{r.choice(['short', 'full', 'default'])}'"],
                        r.randint(1, 3))
        self.lines.append(f"torch.set_printoptions({', '.join(args)})")

    def build(self) -> str:
        r = self.r
        names: list[str] = []
        for _ in range(r.randint(3, 9)):
            form = r.random()
            if form < 0.35 or not names:
                names.append(self.make())
                self.show(names[-1])
            elif form < 0.5:
                self.options()
            elif form < 0.85:
                self.show(r.choice(names))
            else:
                picked = r.sample(names, min(len(names), 2))
                self.lines.append(r.choice([f"print([{', '.join(picked)}])", f"print(({', '.join(picked)}))",
                                            f"print({{k: v for k, v in zip('ab', [{', '.join(picked)}])}})",
                                            f"print(*[{', '.join(picked)}])", f"print(list(zip([{', '.join(picked)}], 'xy')))"]))
        return "\n".join(self.lines) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# the families around the core (--family higher, python, custom): what tutorials do besides the ops themselves

SMOOTH = ["{x} ** 3", "{x}.sin() * {x}", "{x}.exp()", "torch.tanh({x})", "{x}.sigmoid() * 2", "{x} * {x} * {x}",
          "({x} ** 2 + 1).log()", "{x}.cos() + {x} ** 2", "torch.sqrt({x} ** 2 + 1)", "{x} ** 4 / 4 - {x}",
          "F.softplus({x})", "{x}.atan() * {x}", "({x} - 0.5) ** 2", "{x} * {x}.exp()"]


class _Lines:
    """A program's lines and its fresh names, shared by the families below."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.lines = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F"]
        self.count = 0

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def leaf(self, shape: tuple[int, ...] | None = None, grad: bool = True) -> Var:
        shape = shape if shape is not None else self.r.choice([(3,), (2, 2), (), (4,), (2, 3)])
        name = self.fresh("x")
        self.lines.append(f"{name} = {_tensor(self.r, shape, 'float64', grad=grad)}")
        return Var(name, shape, "float64", grad, leaf=True)

    def smooth(self, x: str) -> str:
        return self.r.choice(SMOOTH).format(x=x)

    def emit(self, *lines: str, indent: int = 0) -> None:
        self.lines.extend("    " * indent + line for line in lines)


class HigherProgram(_Lines):
    """Higher-order autograd: create_graph=True double backward, torch.autograd.grad's options, the functional
    API (jacobian, hessian, vjp, jvp, hvp), backward(gradient=) on non-scalars, accumulation over several
    backward calls, .grad.zero_(), retain_grad of non-leaves, register_hook, detach_/requires_grad_."""

    def double(self, x: Var) -> None:
        r = self.r
        y, g = self.fresh("y"), self.fresh("g")
        self.emit(f"{y} = ({self.smooth(x.name)}).sum()",
                  f"{g}, = torch.autograd.grad({y}, {x.name}, create_graph=True)",
                  r.choice([f"print({g})", f"print({g}.requires_grad, {g}.grad_fn)", f"print({g}.detach())"]))
        form = r.random()
        if form < 0.4:
            self.emit(f"{g}.sum().backward()", f"print({x.name}.grad)")
        elif form < 0.7:
            h = self.fresh("h")
            self.emit(f"{h}, = torch.autograd.grad({g}.sum(), {x.name}, retain_graph={r.choice(['True', 'False'])})",
                      f"print({h})")
        else:
            h = self.fresh("h")
            seed = _tensor(r, x.shape, "float64")
            self.emit(f"{h} = torch.autograd.grad({g}, {x.name}, grad_outputs={seed}, create_graph=True)[0]",
                      f"print({h}, {h}.requires_grad)")
            if r.random() < 0.5:
                self.emit(f"print(torch.autograd.grad({h}.sum(), {x.name}, allow_unused=True))")

    def grad_options(self, x: Var, other: Var) -> None:
        r = self.r
        y = self.fresh("y")
        self.emit(f"{y} = {self.smooth(x.name)}")
        out = f"{y}.sum()"
        opts = []
        if r.random() < 0.4:
            out = y
            opts.append(f"grad_outputs={r.choice([f'torch.ones_like({y})', _tensor(r, x.shape, 'float64')])}")
        if r.random() < 0.5:
            opts.append("retain_graph=True")
        inputs = f"({x.name}, {other.name})" if r.random() < 0.6 else f"[{x.name}]"
        if other.name in inputs:
            kind = r.random()
            if kind < 0.4:
                opts.append("allow_unused=True")
            elif kind < 0.8:
                opts.append("allow_unused=True, materialize_grads=True")
            else:
                opts.append(r.choice(["materialize_grads=True", ""]))
        text = ", ".join(o for o in opts if o)
        self.emit(f"gs = torch.autograd.grad({out}, {inputs}{', ' + text if text else ''})",
                  r.choice(["print(gs)", "print(len(gs), gs[0])", "for g in gs:\n    print(g)"]))
        if "retain_graph=True" in opts and r.random() < 0.5:
            self.emit(f"print(torch.autograd.grad({y}.sum(), {x.name})[0])")

    def functional(self, x: Var) -> None:
        r = self.r
        fn = self.fresh("f")
        kind = r.choice(["jacobian", "hessian", "vjp", "jvp", "hvp", "jacobian2"])
        scalar = kind in ("hessian", "hvp")
        body = self.smooth("t")
        if scalar:
            body = f"({body}).sum()" if r.random() < 0.8 else f"({body}).sum() * t.sum()"
        if r.random() < 0.5:
            self.emit(f"def {fn}(t):", f"    return {body}")
        else:
            self.emit(f"{fn} = lambda t: {body}")
        v = _tensor(r, x.shape, "float64")
        p = x.name if r.random() < 0.5 else f"{x.name}.detach()"
        if kind == "jacobian":
            extra = r.choice(["", ", create_graph=True", ", vectorize=False", ", strict=False"])
            self.emit(f"print(torch.autograd.functional.jacobian({fn}, {p}{extra}))")
        elif kind == "jacobian2":
            y = self.leaf(x.shape)
            self.emit(f"print(torch.autograd.functional.jacobian(lambda a, b: {self.smooth('a')} * b, "
                      f"({p}, {y.name})))")
        elif kind == "hessian":
            self.emit(f"H = torch.autograd.functional.hessian({fn}, {p})", r.choice(["print(H)", "print(H.shape, H)"]))
        elif kind == "vjp":
            vv = v if x.shape else "torch.tensor(1., dtype=torch.float64)"
            self.emit(f"out, vj = torch.autograd.functional.vjp({fn}, {p}, {vv})", "print(out)", "print(vj)")
        elif kind == "jvp":
            self.emit(f"out, jv = torch.autograd.functional.jvp({fn}, {p}, {v})", "print(out, jv)")
        else:
            self.emit(f"out, hv = torch.autograd.functional.hvp({fn}, {p}, {v})", "print(out)", "print(hv)")

    def nonscalar(self, x: Var) -> None:
        r = self.r
        y = self.fresh("y")
        self.emit(f"{y} = {self.smooth(x.name)}")
        if r.random() < 0.15:
            self.emit(f"{y}.backward()")  # (an error unless 0-d)
        else:
            self.emit(r.choice([f"{y}.backward(gradient={_tensor(r, x.shape, 'float64')})",
                                f"{y}.backward(torch.ones_like({y}))",
                                f"torch.autograd.backward({y}, grad_tensors={_tensor(r, x.shape, 'float64')})",
                                f"torch.autograd.backward([{y}], [torch.full_like({y}, 0.5)])"]))
        self.emit(f"print({x.name}.grad)")

    def accumulate(self, x: Var) -> None:
        r = self.r
        for k in range(r.randint(2, 3)):
            self.emit(f"({self.smooth(x.name)}).sum().backward()",
                      r.choice([f"print({x.name}.grad)", f"print('step', {k}, {x.name}.grad)"]))
        if r.random() < 0.7:
            self.emit(r.choice([f"{x.name}.grad.zero_()", f"{x.name}.grad = None", f"{x.name}.grad.data.zero_()"]),
                      f"print({x.name}.grad)")
            self.emit(f"({x.name} * 2).sum().backward()", f"print({x.name}.grad)")

    def retain(self, x: Var) -> None:
        r = self.r
        y, z = self.fresh("y"), self.fresh("z")
        self.emit(f"{y} = {self.smooth(x.name)}")
        if r.random() < 0.8:
            self.emit(f"{y}.retain_grad()")
        self.emit(f"{z} = ({y} * {y}).sum()", f"{z}.backward()",
                  r.choice([f"print({y}.grad)", f"print({y}.grad, {x.name}.grad)", f"print({y}.is_leaf, {y}.retains_grad, {y}.grad)"]))

    def hook(self, x: Var) -> None:
        r = self.r
        y = self.fresh("y")
        kind = r.random()
        on = x.name if r.random() < 0.5 else None
        if on is None:
            self.emit(f"{y} = {self.smooth(x.name)}")
            on = y
        if kind < 0.3:
            self.emit("def show(g):", "    print('hook', g)")
            hook = "show"
        elif kind < 0.6:
            hook = f"lambda g: g * {r.choice(['2', '0.5', '-1'])}"
        elif kind < 0.8:
            self.emit("def clip(g):", "    return g.clamp(-1, 1)")
            hook = "clip"
        else:
            self.emit("seen = []", "def keep(g):", "    seen.append(g.shape)", "    return None")
            hook = "keep"
        handle = self.fresh("handle")
        self.emit(f"{handle} = {on}.register_hook({hook})")
        out = f"({y} * 3).sum()" if on == y else f"({self.smooth(x.name)}).sum()"
        self.emit(f"{out}.backward()", f"print({x.name}.grad)")
        if hook == "keep":
            self.emit("print(seen)")
        if r.random() < 0.4:
            self.emit(f"{handle}.remove()", f"{x.name}.grad = None")
            if on == x.name:
                self.emit(f"({x.name} * 3).sum().backward()", f"print({x.name}.grad)")

    def detach(self, x: Var) -> None:
        r = self.r
        y = self.fresh("y")
        self.emit(f"{y} = {x.name} * 2")
        kind = r.random()
        if kind < 0.35:
            self.emit(f"{y}.detach_()", f"print({y}.requires_grad, {y}.is_leaf, {y}.grad_fn)")
            self.emit(f"{y}.requires_grad_()", f"({y} ** 2).sum().backward()", f"print({y}.grad, {x.name}.grad)")
        elif kind < 0.6:
            z = self.fresh("z")
            self.emit(f"{z} = {_tensor(r, x.shape, 'float64')}", f"print({z}.requires_grad)",
                      f"{z}.requires_grad_({r.choice(['', 'True', 'False'])})", f"print({z}.requires_grad, {z}.is_leaf)")
        elif kind < 0.8:
            self.emit(f"{y}.requires_grad_(False)")  # (an error: not a leaf)
        else:
            self.emit(f"d = {y}.detach()", "print(d.requires_grad, d.grad_fn)", "d.requires_grad_()",
                      f"(d * {y}).sum().backward()", f"print(d.grad, {x.name}.grad)")

    def build(self) -> str:
        r = self.r
        leaves = [self.leaf(), self.leaf()]
        steps = [self.double, self.grad_options, self.functional, self.nonscalar, self.accumulate, self.retain,
                 self.hook, self.detach]
        for _ in range(r.randint(2, 5)):
            step = r.choice(steps)
            x = r.choice(leaves)
            if step == self.grad_options:
                step(x, r.choice([v for v in leaves if v is not x]))
            else:
                step(x)
        return "\n".join(self.lines) + "\n"


class PythonProgram(_Lines):
    """The Python around tensors: functions with defaults/*args/**kwargs, closures, lambdas, classes (nn.Module
    subclasses with helpers and properties), loops with break/continue, comprehensions, builtins over tensors'
    items, f-strings, try/except of PyTorch's errors, isinstance, tuple unpacking, grad-mode decorators."""

    def functions(self, x: Var) -> None:
        r = self.r
        self.emit("def f(t, k=2, *args, scale=1.0, **kw):",
                  "    extra = sum(args) if args else 0",
                  "    return (t ** k).sum() * scale + extra + len(kw)")
        call = r.choice([f"f({x.name})", f"f({x.name}, 3)", f"f({x.name}, 2, 1.5, 2)", f"f({x.name}, scale=0.5)",
                         f"f({x.name}, k=1, tag='a')", f"f(*[{x.name}], **{{'scale': 2.0}})", f"f({x.name}, 2, *(1, 2), note=None)"])
        self.emit(f"v = {call}", r.choice(["print(v)", "print(v.item())", "v.backward()\nprint(" + x.name + ".grad)"]))

    def closure(self, x: Var) -> None:
        r = self.r
        self.emit("def make(a):", "    def inner(t):", f"        return {self.smooth('t')} * a", "    return inner")
        self.emit(f"g = make({r.choice(['2', '0.5', '-1.0'])})",
                  r.choice([f"print(g({x.name}))", f"print(g({x.name}).sum())"]))
        if r.random() < 0.5:
            self.emit("counter = [0]", "def bump():", "    counter[0] += 1", "    return counter[0]",
                      "bump(); bump()", "print(counter)")
        if r.random() < 0.5:
            self.emit("def outer():", "    total = 0", "    def add(v):", "        nonlocal total", "        total += v",
                      "        return total", f"    add(1); add({x.name}.sum().item())", "    return total",
                      "print(outer())")

    def lambdas(self, x: Var) -> None:
        r = self.r
        self.emit("sq = lambda t, p=2: t ** p", f"print(sq({x.name}), sq({x.name}, 3).sum())")
        if x.shape:
            self.emit(f"items = {x.name}.flatten().tolist()",
                      r.choice(["print(sorted(items, key=lambda v: -v))", "print(sorted(items, reverse=True))",
                                "print(list(map(lambda v: round(v * 2, 3), items)))",
                                "print(list(filter(lambda v: v > 0, items)))", "print(max(items), min(items), sum(items))"]))

    def module(self, x: Var) -> None:
        r = self.r
        n = x.shape[-1] if x.shape else 1
        inp = x.name if x.shape else f"{x.name}.reshape(1)"
        self.emit(f"torch.manual_seed({r.randint(0, 100)})",
                  "class Net(nn.Module):",
                  "    def __init__(self, n, hidden=3, act=torch.tanh):",
                  "        super().__init__()",
                  "        self.fc = nn.Linear(n, hidden, dtype=torch.float64)",
                  "        self.out = nn.Linear(hidden, 1, dtype=torch.float64)",
                  "        self.act = act",
                  "        self.calls = 0",
                  "    @property",
                  "    def size(self):",
                  "        return sum(p.numel() for p in self.parameters())",
                  "    def hidden(self, t):",
                  "        return self.act(self.fc(t))",
                  "    def forward(self, t):",
                  "        self.calls += 1",
                  "        return self.out(self.hidden(t))")
        act = r.choice(["", ", act=torch.relu", ", 4", ", hidden=2, act=F.relu", ", act=lambda t: t * t"])
        self.emit(f"net = Net({n}{act})", f"y = net({inp})",
                  r.choice(["print(y)", "print(net.size, net.calls)", "print(net)", "print(y.shape, y.grad_fn)"]))
        self.emit("y.sum().backward()",
                  r.choice(["print(net.fc.weight.grad)", "for name, p in net.named_parameters():\n    print(name, p.grad)",
                            f"print({x.name}.grad)", "print([p.grad.shape for p in net.parameters()])"]))
        self.emit(r.choice(["print(isinstance(net, nn.Module), isinstance(y, torch.Tensor))",
                            "print(type(net).__name__, net.training)", "print(len(list(net.children())))"]))

    def loops(self, x: Var) -> None:
        r = self.r
        self.emit("total = 0", f"for k, v in enumerate({x.name}.flatten()):",
                  f"    if v {r.choice(['<', '>'])} {r.choice(['0', '0.5', '-0.5'])}:",
                  f"        {r.choice(['continue', 'break'])}",
                  "    total = total + v * k",
                  r.choice(["print(total)", "print(k, total)"]))
        if r.random() < 0.5:
            self.emit("n = 0", "while True:", "    n += 1", f"    if n * 0.5 > {r.randint(1, 3)}:", "        break",
                      "else:", "    print('never')", "print(n)")
        if r.random() < 0.4:
            self.emit("for k in range(3):", "    if k == 1:", "        continue", f"    print(k, ({x.name} * k).sum())",
                      "else:", "    print('done')")

    def comprehensions(self, x: Var) -> None:
        r = self.r
        if not x.shape:
            self.emit(f"print([{x.name} * k for k in range(3)])")
            return
        self.emit(r.choice([f"print([round(v, 2) for v in {x.name}.flatten().tolist() if v > 0])",
                            f"print({{k: round(v, 3) for k, v in enumerate({x.name}.flatten().tolist())}})",
                            f"print([row.sum() for row in {x.name}])",
                            f"print([t.item() for t in {x.name}.flatten()])",
                            f"print(torch.stack([t * 2 for t in {x.name}]))",
                            f"print({{f'w{{k}}': v.shape for k, v in enumerate({x.name})}})",
                            f"print(list(zip(range(5), {x.name}.flatten().tolist())))",
                            f"print(sum(v for v in {x.name}.flatten()))",
                            f"print(max({x.name}.flatten()), min({x.name}.flatten()))",
                            f"print(sorted({x.name}.flatten()))",
                            f"print([(a * b).item() for a, b in zip({x.name}.flatten(), {x.name}.flatten().flip(0))])"]))

    def fstrings(self, x: Var) -> None:
        r = self.r
        self.emit(r.choice([f"print(f'loss={{{x.name}.sum().item():.4f}}')", f"print(f'{{{x.name}.sum():.3f}}')",
                            f"print(f'shape {{tuple({x.name}.shape)}} dtype {{{x.name}.dtype}}')",
                            f"print(f'{{{x.name}.mean().item():+.2e}} | {{{x.name}.numel():>4}}')",
                            f"print(f'{{\"grad\" if {x.name}.requires_grad else \"none\"}}: {{{x.name}.sum().item()!r}}')",
                            f"print('%.3f' % {x.name}.sum().item())", f"print('{{}} {{:.2f}}'.format('s', {x.name}.sum().item()))",
                            f"print(f'{{{x.name}}}')", f"print(str({x.name}.sum()), repr({x.name}.sum().item()))"]))

    def errors(self, x: Var) -> None:
        r = self.r
        bad = r.choice([f"{x.name} + torch.ones(5, dtype=torch.float64)", f"{x.name}.view(7)",
                        "torch.ones(2, 3) @ torch.ones(2, 3)", f"({x.name} * 2).backward()" if x.shape else f"{x.name}.backward(); {x.name}.backward()",
                        f"{x.name}.reshape(-1, 7)", f"torch.cat([{x.name}, torch.ones(2, 7)])",
                        f"{x.name}.numpy()", f"{x.name}.item()" if x.shape else "torch.ones(2).item()",
                        f"{x.name}[10]" if x.shape else f"{x.name}.sum(dim=3)", "torch.tensor([1., 2.]).add_(torch.ones(3))",
                        f"y = {x.name} * 2; y.backward(torch.ones(9))"])
        exc = r.choice(["RuntimeError", "(RuntimeError, ValueError)", "Exception", "RuntimeError", "IndexError"])
        self.emit("try:", f"    {bad}", f"except {exc} as e:",
                  r.choice(["    print('error:', e)", "    print(str(e))", "    print(type(e).__name__)",
                            "    print(str(e).split(':')[0])"]))
        if r.random() < 0.3:
            self.emit("finally:", "    print('finally')")

    def unpacking(self, x: Var) -> None:
        r = self.r
        if not x.shape:
            self.emit(f"a, b = {x.name}, {x.name} * 2", "print(a, b)")
            return
        self.emit(r.choice([f"values, indices = {x.name}.max(0)", f"values, indices = {x.name}.min(dim=-1)",
                            f"values, indices = torch.sort({x.name}, descending=True)",
                            f"values, indices = {x.name}.flatten().topk(2)", f"values, indices = torch.max({x.name}, 0, keepdim=True)",
                            f"values, indices = {x.name}.median(0)", f"values, indices = {x.name}.flatten().sort()",
                            f"values, indices = {x.name}.cummax(0)"]))
        self.emit(r.choice(["print(values, indices)", "print(values)\nprint(indices)", "print(indices.tolist())"]))
        if r.random() < 0.5:
            self.emit("values.sum().backward()", f"print({x.name}.grad)")
        if r.random() < 0.3:
            self.emit(f"first, *rest = {x.name}.flatten().tolist()", "print(first, rest)")

    def modes(self, x: Var) -> None:
        r = self.r
        kind = r.random()
        if kind < 0.3:
            self.emit("@torch.no_grad()", "def evaluate(t):", "    return t * 2",
                      f"e = evaluate({x.name})", "print(e.requires_grad, e)")
        elif kind < 0.5:
            self.emit("with torch.no_grad():", f"    a = {x.name} * 2", "    with torch.enable_grad():",
                      f"        b = {x.name} * 3", "print(a.requires_grad, b.requires_grad, b.grad_fn)")
        elif kind < 0.7:
            flag = r.choice(["False", "True", "1 > 2"])
            self.emit(f"with torch.set_grad_enabled({flag}):", f"    c = {x.name} + 1",
                      "print(c.requires_grad, torch.is_grad_enabled())")
        elif kind < 0.85:
            self.emit("torch.set_grad_enabled(False)", f"d = {x.name} ** 2", "print(d.requires_grad)",
                      "torch.set_grad_enabled(True)", f"print(({x.name} ** 2).requires_grad)")
        else:
            self.emit("@torch.enable_grad()", "def train(t):", "    return (t * t).sum()",
                      "with torch.no_grad():", f"    l = train({x.name})", "print(l.requires_grad, l)")

    def misc(self, x: Var) -> None:
        """Smaller habits: late-binding closures in a loop, classes of one's own with inheritance, __call__ and
        __repr__, classmethod/staticmethod, generators, dict methods, try/else, assert, inference_mode."""
        r = self.r
        n = x.name
        snippets = [
            ["fs = [lambda t, k=k: t * k for k in range(3)]", "gs = [lambda t: t * k for k in range(3)]",
             f"print([f({n}).sum().item() for f in fs], [g({n}).sum().item() for g in gs])"],
            ["class Scale:", "    def __init__(self, k):", "        self.k = k", "    def __call__(self, t):",
             "        return t * self.k", "    def __repr__(self):", "        return f'Scale({self.k})'",
             "class Double(Scale):", "    def __init__(self):", "        super().__init__(2)",
             "s = Double()", f"print(s, s({n}).sum(), isinstance(s, Scale))"],
            ["class Counter:", "    made = 0", "    @classmethod", "    def make(cls):", "        cls.made += 1",
             "        return cls()", "    @staticmethod", "    def twice(t):", "        return t * 2",
             "Counter.make(); c = Counter.make()", f"print(Counter.made, Counter.twice({n}).sum())"],
            ["def gen(t):", "    for k in range(3):", "        yield t.sum() * k",
             f"print(list(gen({n})))"] if r.random() < 0.3 else
            [f"print(sum(v * v for v in {n}.flatten().tolist()))"],
            [f"stats = {{'sum': {n}.sum().item(), 'max': {n}.max().item()}}", "stats.setdefault('n', 3)",
             "print(sorted(stats.items(), key=lambda kv: kv[1]), stats.get('min', -1))",
             "for key, value in stats.items():", "    print(f'{key:>5}: {value:8.3f}')"],
            ["try:", f"    v = {n}.sum().item()", "except RuntimeError:", "    print('no')", "else:",
             "    print('ok', round(v, 4))"],
            [f"assert {n}.requires_grad, 'needs grad'", f"assert {n}.dim() < 5", "print('asserted')"],
            ["with torch.inference_mode():", f"    t = {n} * 2", "print(t.requires_grad, t.is_inference())"],
            [f"print(*{n}.flatten().tolist()[:3], sep=', ')", f"print({n}.shape[0] * 2, {n}.size(-1), len({n}) if {n}.dim() else 0)"],
            [f"pairs = list(zip(range(3), {n}.flatten().tolist()))", "idx, vals = zip(*pairs)", "print(idx, vals)"],
            ["import math", f"print(math.sqrt(abs({n}.sum().item())), math.pi * 2, math.isclose(0.1 + 0.2, 0.3))"],
            [f"for i, row in enumerate({n}.reshape(-1, 1), start=1):", "    if i > 2:", "        break",
             "    print(i, row)"],
            ["def run(fn, *args, **kwargs):", "    return fn(*args, **kwargs)",
             f"print(run(torch.sum, {n}), run(torch.clamp, {n}, min=0).sum())"],
            [f"data = {{'w': {n}, 'b': {n}.sum()}}", "print({k: tuple(v.shape) for k, v in data.items()})",
             "print(list(data), 'w' in data, len(data))"],
        ]
        self.emit(*r.choice(snippets))

    def build(self) -> str:
        r = self.r
        leaves = [self.leaf(), self.leaf(r.choice([(3,), (4,), (2, 3)]))]
        steps = [self.functions, self.closure, self.lambdas, self.module, self.loops, self.comprehensions,
                 self.fstrings, self.errors, self.unpacking, self.modes, self.misc, self.misc]
        for _ in range(r.randint(2, 5)):
            x = r.choice(leaves)
            r.choice(steps)(x)
            if r.random() < 0.3:
                self.emit(f"{x.name}.grad = None")
        return "\n".join(self.lines) + "\n"


class CustomProgram(_Lines):
    """torch.autograd.Function subclasses: save_for_backward, needs_input_grad, mark_non_differentiable,
    once_differentiable, set_materialize_grads, None gradients, several outputs; gradcheck/gradgradcheck."""

    FORWARDS = (  # (forward of x, its derivative times g)
        ("x ** 2", "2 * x * g"), ("x.exp()", "g * x.exp()"), ("x ** 3", "3 * x ** 2 * g"),
        ("x.sin()", "g * x.cos()"), ("x * x.abs()", "2 * x.abs() * g"), ("torch.tanh(x)", "g * (1 - torch.tanh(x) ** 2)"),
        ("x.clamp(min=0)", "g * (x > 0)"), ("1 / (1 + x ** 2)", "-2 * x / (1 + x ** 2) ** 2 * g"),
    )

    def function(self) -> tuple[str, int, bool]:
        """A Function subclass: its name, how many inputs it takes, whether its backward is differentiable."""
        r = self.r
        name = self.fresh("Fn")
        forward, derivative = r.choice(self.FORWARDS)
        wrong = r.random() < 0.1
        if wrong:
            derivative = f"({derivative}) * 1.5"
        kind = r.random()
        lines = [f"class {name}(torch.autograd.Function):", "    @staticmethod"]
        differentiable = True
        if kind < 0.35:  # one input, saved
            lines += ["    def forward(ctx, x):", "        ctx.save_for_backward(x)", f"        return {forward}",
                      "    @staticmethod"]
            if r.random() < 0.3:
                lines.append("    @once_differentiable")
                differentiable = False
            lines += ["    def backward(ctx, g):", "        x, = ctx.saved_tensors"]
            if r.random() < 0.2:
                lines.append("        print('backward', g.shape)")
            lines.append(f"        return {derivative}")
            return self._done(name, lines, 1, differentiable)
        if kind < 0.55:  # a tensor and a number, None for the number
            lines += ["    def forward(ctx, x, k=2.0):", "        ctx.save_for_backward(x)", "        ctx.k = k",
                      f"        return ({forward}) * k", "    @staticmethod", "    def backward(ctx, g):",
                      "        x, = ctx.saved_tensors", f"        return ({derivative}) * ctx.k, None"]
            return self._done(name, lines, 1, True)
        if kind < 0.7:  # two tensors, needs_input_grad
            lines += ["    def forward(ctx, x, y):", "        ctx.save_for_backward(x, y)", "        return x * y + x",
                      "    @staticmethod", "    def backward(ctx, g):", "        x, y = ctx.saved_tensors",
                      "        gx = gy = None"]
            if r.random() < 0.5:
                lines.append("        print(ctx.needs_input_grad)")
            lines += ["        if ctx.needs_input_grad[0]:", "            gx = g * (y + 1)",
                      "        if ctx.needs_input_grad[1]:", "            gy = g * x", "        return gx, gy"]
            return self._done(name, lines, 2, True)
        if kind < 0.85:  # two outputs, one non-differentiable, or materialize off
            if r.random() < 0.5:
                lines += ["    def forward(ctx, x):", "        values, indices = x.sort()",
                          "        ctx.mark_non_differentiable(indices)", "        ctx.save_for_backward(indices)",
                          "        return values, indices", "    @staticmethod", "    def backward(ctx, g, gi):",
                          "        indices, = ctx.saved_tensors", "        return torch.zeros_like(g).scatter(-1, indices, g)"]
                return self._done(name, lines, -1, True)
            materialize = r.choice(["False", "True"])
            lines += ["    def forward(ctx, x):", f"        ctx.set_materialize_grads({materialize})",
                      "        ctx.save_for_backward(x)", "        return x * 2, x ** 2", "    @staticmethod",
                      "    def backward(ctx, ga, gb):", "        x, = ctx.saved_tensors",
                      "        print('grads', ga is None, gb is None)", "        total = torch.zeros_like(x)",
                      "        if ga is not None:", "            total = total + 2 * ga",
                      "        if gb is not None:", "            total = total + 2 * x * gb", "        return total"]
            return self._done(name, lines, -2, True)
        # a Function that returns an input's view or a clone, with its own backward that scales
        lines += ["    def forward(ctx, x):", "        return x.clone()", "    @staticmethod", "    def backward(ctx, g):",
                  f"        return g * {r.choice(['-1', '0.5', '2'])}"]
        return self._done(name, lines, 1, True)

    def _done(self, name: str, lines: list[str], inputs: int, differentiable: bool) -> tuple[str, int, bool]:
        self.emit(*lines)
        return name, inputs, differentiable

    def build(self) -> str:
        r = self.r
        self.lines.insert(3, "from torch.autograd.function import once_differentiable")
        if r.random() < 0.3:
            self.lines.insert(4, "from torch.autograd import gradcheck, gradgradcheck")
            check, gcheck = "gradcheck", "gradgradcheck"
        else:
            check, gcheck = "torch.autograd.gradcheck", "torch.autograd.gradgradcheck"
        for _ in range(r.randint(1, 3)):
            name, inputs, differentiable = self.function()
            x = self.leaf(r.choice([(3,), (2, 2), (4,)]))
            args = [x.name]
            if inputs == 2:
                y = self.leaf(x.shape, grad=r.random() < 0.7)
                args.append(y.name)
            out = self.fresh("y")
            self.emit(f"{out} = {name}.apply({', '.join(args)})")
            if inputs < 0:
                self.emit(f"a, b = {out}", r.choice(["print(a, b)", "print(a.requires_grad, b.requires_grad, b.dtype)",
                                                      "print(a.grad_fn)"]))
                use = r.choice(["a.sum()", "(a * a).sum()"] + (["(a + b).sum()", "b.sum()"] if inputs == -2 else []))
                self.emit(f"{use}.backward()", f"print({x.name}.grad)")
                continue
            self.emit(r.choice([f"print({out})", f"print({out}.grad_fn)", f"print({out}.requires_grad, {out}.is_leaf)",
                                f"print(type({out}.grad_fn).__name__)"]))
            form = r.random()
            if form < 0.4:
                self.emit(f"{out}.sum().backward()", f"print({x.name}.grad)")
            elif form < 0.6:
                self.emit(f"g, = torch.autograd.grad(({out} * {out}).sum(), {x.name}, create_graph={r.choice(['True', 'False'])})",
                          "print(g)")
            else:
                extra = r.choice(["", ", eps=1e-6, atol=1e-4", ", raise_exception=False", ", raise_exception=False"])
                inputs_text = f"({', '.join(args)},)"
                self.emit(f"print({check}({name}.apply, {inputs_text}{extra}))")
                if r.random() < (0.5 if differentiable else 0.1):
                    extra = r.choice(["", ", raise_exception=False"])
                    self.emit(f"print({gcheck}({name}.apply, {inputs_text}{extra}))")
        return "\n".join(self.lines) + "\n"


FAMILIES = {"autograd": Program, "inplace": InPlaceProgram, "nn": LayersProgram, "training": TrainingProgram,
            "printing": PrintingProgram, "higher": HigherProgram, "python": PythonProgram, "custom": CustomProgram}
NEW = ("inplace", "nn", "training", "printing")  # --family progfuzz29: these in turn, by the program's number


def program(seed: int, family: str = "autograd") -> str:
    if family == "progfuzz29":
        family = NEW[seed % len(NEW)]
    return FAMILIES[family](seed).build()


# ---------------------------------------------------------------------------------------------------------------
# running them

WORKER = r'''
import contextlib, io, json, signal, sys, traceback, warnings
import torch
warnings.simplefilter("ignore")
out = sys.stdout
def alarm(*_):
    raise TimeoutError("timeout")
signal.signal(signal.SIGALRM, alarm)
for line in sys.stdin:
    code = json.loads(line)
    printed, error = io.StringIO(), None
    torch.set_grad_enabled(True); torch.set_default_dtype(torch.float32); torch.manual_seed(0)
    torch.set_printoptions(profile="default")
    signal.alarm(SECONDS)
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
            exec(compile(code, "program.py", "exec"), {"__name__": "__main__"})
    except BaseException as problem:
        error = traceback.format_exception_only(type(problem), problem)[-1].strip()
    finally:
        signal.alarm(0)
    out.write(json.dumps({"stdout": printed.getvalue(), "exit": 1 if error else 0, "error": error}) + "\n")
    out.flush()
'''.replace("SECONDS", str(SECONDS))


class TorchWorker:
    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen([python, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)

    def run(self, code: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(code) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the PyTorch worker died")
        result: dict[str, Any] = json.loads(line)
        return result

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def run_gradcli(code: str, python: str, directory: str) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".py", dir=directory, delete=False) as handle:
        handle.write(code)
    try:
        done = subprocess.run([python, "-m", "gradcli", "run", handle.name], capture_output=True, text=True,
                              cwd=ROOT, timeout=SECONDS * 2, env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired:
        return {"stdout": "", "exit": None, "error": "timeout"}
    finally:
        os.unlink(handle.name)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    said = lines[0 if done.returncode == 2 else -1].strip() if lines else None  # exit 2: its message, not its caret
    return {"stdout": done.stdout, "exit": done.returncode, "error": said,
            "stderr": done.stderr[-2000:]}


def _last_digit(text: str) -> float:
    """One unit in the last place a printed number shows (`0.1235` 1e-4, `1.2e+03` 100)."""
    mantissa, _, exponent = text.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - places)


def _close_in_numbers(a: str, b: str, loose: bool = False) -> bool:
    """The same text but for numbers within 1e-12 relative (or 1e-13 absolute) of each other; `loose` (float32
    programs, whose bits depend on the machine's MKL path): within one unit of the last digit printed."""
    if SPACES.sub("", NUMBER.sub("#", a)) != SPACES.sub("", NUMBER.sub("#", b)):  # (numbers pad columns)
        return False
    xs, ys = NUMBER.findall(a), NUMBER.findall(b)
    for x, y in zip(xs, ys):
        if x == y:
            continue
        try:
            p, q = float(x), float(y)
        except ValueError:
            return False
        if math.isclose(p, q, rel_tol=1e-12, abs_tol=1e-12):  # (a difference that cancels to near 0 too)
            continue
        if not (loose and abs(p - q) <= max(1.01 * _last_digit(x), 1.01 * _last_digit(y), 1e-5)):
            return False  # (float32: the last digit shown, or a sum that cancels to 0 within float32's rounding)
    return True


def _starts_close(a: str, b: str, loose: bool) -> bool:
    """a's first lines are b's, but for digits (what gradcli printed before it stopped with a gap)."""
    lines = b.splitlines(keepends=True)
    return _close_in_numbers("".join(a.splitlines(keepends=True)[:len(lines)]), b, loose)


def _last_line(error: str | None) -> str:
    """An error's last line: PyTorch's worker gives the whole message, gradcli's stderr is read by its last line."""
    lines = (error or "").strip().splitlines()
    return lines[-1].strip() if lines else ""


def classify(torch_: dict[str, Any], ours: dict[str, Any], loose: bool = False) -> str | None:
    a, b = ADDRESS.sub("0x", torch_["stdout"]), ADDRESS.sub("0x", ours["stdout"])
    if ours["exit"] is None:
        return "timeout"
    if ours["exit"] == 4 or ours["exit"] not in (0, 1, 2):
        return "exit 4"
    if ours["exit"] == 2:
        agree = a.startswith(b) or _starts_close(a, b, loose)
        if torch_["exit"] == 0 or not agree:
            return "refused" if agree else "silent"
        return None  # both stop: PyTorch with its error, gradcli with a gap
    if torch_["exit"] == 1 and b.startswith(a) and (ours["exit"] == 0 or a != b):
        return "answers"  # (when both raise, gradcli's later: it answered where PyTorch raised)
    if torch_["exit"] == 0 and ours["exit"] == 1 and a.startswith(b):
        return "raises"
    if a != b:
        return "digits" if _close_in_numbers(a, b, loose) else "silent"
    if torch_["exit"] == 1 and _last_line(torch_["error"]) != _last_line(ours["error"]):
        return "words"
    return None


@dataclass
class Finding:
    seed: int
    family: str
    kind: str
    program: str
    torch: dict[str, Any]
    gradcli: dict[str, Any]


def check(seeds: list[int], jobs: int, torch_python: str, python: str, started: float,
          out: str | None, family: str = "autograd") -> tuple[int, list[Finding]]:
    """Each program under both; each finding written to `out` (JSON Lines) as it is found."""
    findings: list[Finding] = []
    handle = open(out, "w") if out else None
    lock = threading.Lock()
    queue = list(reversed(seeds))
    tried = [0]
    directory = tempfile.mkdtemp(prefix="progfuzz-")

    def work() -> None:
        worker = TorchWorker(torch_python)
        try:
            while True:
                with lock:
                    if not queue:
                        return
                    seed = queue.pop()
                code = program(seed, family)
                try:
                    theirs = worker.run(code)
                except RuntimeError:
                    worker = TorchWorker(torch_python)
                    continue
                if theirs["error"] and theirs["error"].startswith("TimeoutError"):
                    continue
                ours = run_gradcli(code, python, directory)
                kind = classify(theirs, ours, LOOSE in code)
                with lock:
                    tried[0] += 1
                    if kind:
                        findings.append(Finding(seed, _family(seed, family), kind, code, theirs, ours))
                        if handle:
                            handle.write(json.dumps(findings[-1].__dict__) + "\n")
                            handle.flush()
                    if tried[0] % 100 == 0:
                        counts = collections.Counter(f.kind for f in findings)
                        print(f"{tried[0]} of {len(seeds)} programs, {time.time() - started:.0f} s: {dict(counts)}",
                              file=sys.stderr)
        finally:
            worker.close()

    threads = [threading.Thread(target=work) for _ in range(max(1, jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    os.rmdir(directory)
    if handle:
        handle.close()
    return tried[0], sorted(findings, key=lambda f: f.seed)


def _family(seed: int, family: str) -> str:
    return NEW[seed % len(NEW)] if family == "progfuzz29" else family


def report(tried: int, findings: list[Finding], started: float, show: int) -> None:
    counts = collections.Counter(f.kind for f in findings)
    print(f"{tried} programs in {time.time() - started:.0f} s: " + (", ".join(
        f"{kind} {counts[kind]}" for kind in KINDS if counts[kind]) or "no findings"))
    families = sorted({f.family for f in findings})
    if len(families) > 1:
        for family in families:
            mine = collections.Counter(f.kind for f in findings if f.family == family)
            print(f"  {family}: " + ", ".join(f"{kind} {mine[kind]}" for kind in KINDS if mine[kind]))
    for kind in KINDS:
        if counts[kind]:
            print(f"\n== {kind}: {counts[kind]} programs")
            for finding in [f for f in findings if f.kind == kind][:show]:
                print(f"  program {finding.seed} ({finding.family}): PyTorch {finding.torch['error'] or 'answers'}; gradcli "
                      f"{finding.gradcli['error'] if finding.gradcli['exit'] else 'answers'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="the first program's number (default 0)")
    parser.add_argument("--count", type=int, default=200, help="how many programs (default 200)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--torch-python", default=DEFAULT_TORCH if Path(DEFAULT_TORCH).exists() else sys.executable,
                        help="a Python with torch")
    parser.add_argument("--python", default=sys.executable, help="the Python that runs gradcli (default this one)")
    parser.add_argument("--family", default="autograd", choices=[*FAMILIES, "progfuzz29"],
                        help="which programs: autograd (default), inplace, nn, training (losses and optimizers), "
                             "printing, progfuzz29 (those four in turn), higher, python or custom")
    parser.add_argument("--print", action="store_true", help="print the programs, do not run them")
    parser.add_argument("--out", help="write every finding there, as JSON Lines")
    parser.add_argument("--show", type=int, default=5, help="findings shown of each kind")
    options = parser.parse_args()
    seeds = list(range(options.seed, options.seed + options.count))
    if options.print:
        for seed in seeds:
            print(f"# program {seed}\n{program(seed, options.family)}")
        return
    started = time.time()
    tried, findings = check(seeds, options.jobs, options.torch_python, options.python, started, options.out,
                            options.family)
    report(tried, findings, started, options.show)


if __name__ == "__main__":
    main()
