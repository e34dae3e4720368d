"""PyTorch's OpInfo database (op_db) rendered as gradcli programs, with PyTorch's answers.

Run it in a venv with PyTorch (the dev venv has it; everything is float64 on the CPU):

    PYTHONPATH=/work/main python tests/reference/make_op_db.py

It writes tests/reference/op_db_cases.json, which tests/test_op_db.py holds gradcli against (that
test needs no torch). The yardstick is PyTorch's own (issue 24): the entries of
torch.testing._internal.common_methods_invocations.op_db that have a float64 CPU backward
(`op.supports_autograd` and float64 in `op.supported_backward_dtypes('cpu')`). Of those, the
complex-only, random, sparse and quantized ones are left out, each with its reason (EXCLUDED below
and in the fixture). For each other entry, the first samples of `op.sample_inputs('cpu',
torch.float64, requires_grad=True)` that are small (at most MAX_ELEMENTS elements in all) are
written as a user writes them: `sum(torch.NAME(a, 2, dim=1) * seed)` (`F.NAME` for
torch.nn.functional, `a.NAME(...)` for a method only, operators for `__radd__` and `__getitem__`),
the tensors as named inputs whose values go in `--at`, everything else as literals; a tuple
output is `r = CALL` and one `sum(r[i] * seed_i)` per float output. A rendering is kept only if
the text, evaluated by Python with torch, gives what the OpInfo's own op gives for that sample;
where the sample's own check differentiates an output's absolute value (eigenvectors, whose signs
are LAPACK's choice), so does the program: `sum(abs(r[1]) * seed1)`;
PyTorch's value and gradients are then those of that very text (float64, autograd).

Input values are rounded to 6 significant digits first (a smaller file; the reference is computed
from the rounded values, so nothing is lost but digits).
"""

from __future__ import annotations

import json
import math
import random as python_random
import sys
import types
import unittest
import warnings
from pathlib import Path

try:  # torch's test helpers import expecttest only for their TestCase; op_db does not need it
    import expecttest  # noqa: F401
except ImportError:
    _stub = types.ModuleType("expecttest")
    _stub.TestCase = unittest.TestCase  # type: ignore[attr-defined]
    sys.modules["expecttest"] = _stub

import torch
import torch.nn.functional as F
from torch.testing._internal.common_methods_invocations import op_db

OUT = Path(__file__).resolve().parent / "op_db_cases.json"
SAMPLES_PER_ENTRY = 4  # the first ones that can be rendered and are small
SAMPLES_LOOKED_AT = 24  # of an entry's samples, how many are tried at most
MAX_ELEMENTS = 200  # elements of a case's inputs together
MAX_ELEMENTS_ALONE = 1000  # ... or of an entry's one case, where it has no sample of MAX_ELEMENTS
INPUT_NAMES = [c for c in "abcdfghjklmnopqrstuvwxyz"]  # no `e`: it is the constant e in gradcli
SEED = 20240624

# The four kinds of entries left out (issue 24), each found by what the entry does, not by a list.
EXCLUDED_WHY = {
    "complex": "complex values: every sample takes or gives a complex tensor (gradcli has no complex numbers)",
    "random": "random: the value changes with torch.manual_seed (gradcli's `grad` takes no random tensors; "
              "give the values instead)",
    "sparse": "sparse: takes or gives a sparse tensor (gradcli has dense arrays only)",
    "quantized": "quantized: a (fake-)quantization op, whose gradient is a straight-through estimator of an "
                 "integer grid",
}
# Dunder methods of the operators: how a user writes them (`2 + a` is `a.__radd__(2)`).
REFLECTED = {"__radd__": "+", "__rsub__": "-", "__rmul__": "*", "__rdiv__": "/", "__rmatmul__": "@",
             "__rmod__": "%", "__rpow__": "**"}


class Unrenderable(Exception):
    """A sample holds something a program cannot write (a complex number, a generator, ...)."""


def entry_name(op) -> str:
    return op.name + (f".{op.variant_test_name}" if op.variant_test_name else "")


def _round(t: torch.Tensor) -> torch.Tensor:
    if not t.is_floating_point():
        return t
    flat = [float(f"{v:.6g}") if math.isfinite(v) else v for v in t.detach().reshape(-1).tolist()]
    return torch.tensor(flat, dtype=t.dtype).reshape(t.shape)


class Renderer:
    """Writes a sample's arguments as program text; its tensors become named inputs."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.tensors: dict[str, torch.Tensor] = {}  # name -> the rounded tensor, detached
        self.wants_grad: dict[str, bool] = {}
        self.kinds: dict[str, str] = {}  # "float", "int" (an index), "bool" (a mask: written `(m != 0)`)

    def tensor(self, t: torch.Tensor) -> str:
        if t.layout != torch.strided:
            raise Unrenderable("sparse")
        if t.is_complex():
            raise Unrenderable("complex")
        if t.is_quantized:
            raise Unrenderable("quantized")
        if id(t) not in self.names:
            name = INPUT_NAMES[len(self.names)] if len(self.names) < len(INPUT_NAMES) else f"x{len(self.names)}"
            self.names[id(t)] = name
            kind = "bool" if t.dtype == torch.bool else "float" if t.is_floating_point() else "int"
            self.kinds[name] = kind
            value = _round(t.detach()).to(torch.float64 if kind == "float" else t.dtype)
            self.tensors[name] = value
            self.wants_grad[name] = kind == "float" and t.requires_grad
        name = self.names[id(t)]
        return f"({name} != 0)" if self.kinds[name] == "bool" else name

    def literal(self, v) -> str:
        if isinstance(v, torch.Tensor):
            return self.tensor(v)
        if v is None or isinstance(v, bool):
            return repr(v)
        if isinstance(v, int):
            return repr(v)
        if isinstance(v, float):
            if math.isnan(v):
                return "nan"
            if math.isinf(v):
                return "inf" if v > 0 else "-inf"
            return repr(v)
        if isinstance(v, str):
            if "'" in v or "\\" in v:
                raise Unrenderable("a string with quotes")
            return f"'{v}'"
        if isinstance(v, torch.Size):
            return self.literal(tuple(v))
        if isinstance(v, tuple):
            inner = ", ".join(self.literal(x) for x in v)
            return f"({inner},)" if len(v) == 1 else f"({inner})"
        if isinstance(v, list):
            return "[" + ", ".join(self.literal(x) for x in v) + "]"
        if isinstance(v, torch.dtype):
            return str(v)  # torch.float64
        if isinstance(v, torch.memory_format):
            return str(v)
        if isinstance(v, complex):
            raise Unrenderable("complex")
        raise Unrenderable(type(v).__name__)

    def index(self, v) -> str:
        """A subscript of __getitem__: slices, ints, None, Ellipsis, tensors, tuples of those."""
        if isinstance(v, tuple):
            return ", ".join(self.index(x) for x in v) or "()"
        if isinstance(v, slice):
            parts = ["" if p is None else self.literal(p) for p in (v.start, v.stop, v.step)]
            return ":".join(parts[:2]) + (f":{parts[2]}" if v.step is not None else "")
        if v is Ellipsis:
            return "..."
        return self.literal(v)


def spellings(op, r: Renderer, sample) -> list[str]:
    """The calls a user might write for this sample, most usual first."""
    name = op.name
    first = r.literal(sample.input) if not (name == "einsum" and isinstance(sample.input, (list, tuple))) else ""
    if name == "__getitem__":
        return [f"{first}[{r.index(sample.args[0])}]"]
    args = [r.literal(a) for a in sample.args]
    kwargs = [f"{k}={r.literal(v)}" for k, v in sample.kwargs.items()]
    if name in REFLECTED:
        if len(args) != 1 or kwargs:
            raise Unrenderable("reflected operator with keywords")
        return [f"({args[0]} {REFLECTED[name]} {first})"]
    if name == "einsum" and isinstance(sample.input, (list, tuple)):
        return [f"torch.einsum({', '.join([*args, *(r.literal(t) for t in sample.input), *kwargs])})"]
    listed = ", ".join([first, *args, *kwargs])
    method_args = ", ".join([*args, *kwargs])
    out = []
    if name.startswith("nn.functional."):
        out.append(f"F.{name.removeprefix('nn.functional.')}({listed})")
    elif "." in name:
        out.append(f"{'' if name.startswith('torch.') else 'torch.'}{name}({listed})")
    else:
        if hasattr(torch, name):
            out.append(f"torch.{name}({listed})")
        receiver = first if first.isidentifier() or first.startswith("(") else f"({first})"
        if hasattr(torch.Tensor, name):
            attr = getattr(torch.Tensor, name)
            if callable(attr):
                out.append(f"{receiver}.{name}({method_args})")
            elif not args and not kwargs:
                out.append(f"{receiver}.{name}")  # a property: .T, .mT, .H
    if args and out and not name.startswith("nn.functional."):
        # OpInfo wrappers that put the differentiated tensor first (polygamma(n, x), ...)
        out.append(out[0].split("(", 1)[0] + "(" + ", ".join([args[0], first, *args[1:], *kwargs]) + ")")
    elif args and name.startswith("nn.functional."):
        out.append(f"F.{name.removeprefix('nn.functional.')}(" + ", ".join([args[0], first, *args[1:], *kwargs]) + ")")
    for alias in op.aliases or ():
        alias_name = getattr(alias, "name", None)
        if alias_name and "." not in alias_name and hasattr(torch, alias_name):
            out.append(f"torch.{alias_name}({listed})")
    return out


def outputs(result) -> list:
    if isinstance(result, torch.Tensor):
        return [result]
    if isinstance(result, (tuple, list)):
        return list(result)
    return [result]


def same(x, y) -> bool:
    xs, ys = outputs(x), outputs(y)
    if len(xs) != len(ys):
        return False
    for u, v in zip(xs, ys):
        if isinstance(u, torch.Tensor) != isinstance(v, torch.Tensor):
            return False
        if not isinstance(u, torch.Tensor):
            if u != v:
                return False
            continue
        if u.shape != v.shape or u.dtype != v.dtype or u.layout != v.layout:
            return False
        if u.layout == torch.strided and not torch.allclose(u.detach(), v.detach(), rtol=1e-9, atol=1e-12,
                                                            equal_nan=True):
            return False
    return True


def namespace(tensors: dict[str, torch.Tensor]) -> dict:
    return {"torch": torch, "F": F, "inf": math.inf, "nan": math.nan, **tensors}


def numel(sample) -> int:
    total = 0
    for t in [sample.input, *sample.args, *sample.kwargs.values()]:
        for u in (t if isinstance(t, (list, tuple)) else [t]):
            if isinstance(u, torch.Tensor):
                total += u.numel()
    return total


def is_random(op, sample) -> bool:
    try:
        torch.manual_seed(0)
        first = op(sample.input, *sample.args, **sample.kwargs)
        torch.manual_seed(1)
        second = op(sample.input, *sample.args, **sample.kwargs)
    except Exception:
        return False
    return not same(first, second)


def flat(t: torch.Tensor) -> dict:
    return {"shape": list(t.shape), "values": t.detach().reshape(-1).tolist()}


def render_case(op, sample, generator: torch.Generator | None) -> dict | None:
    """A case of the fixture, or None when this sample cannot be a program or PyTorch has no gradient."""
    r = Renderer()
    texts = spellings(op, r, sample)
    leaves = {name: t.clone().requires_grad_(r.wants_grad[name]) for name, t in r.tensors.items()}
    reference_args = _rounded_sample(sample)
    try:
        expected = op(reference_args.input, *reference_args.args, **reference_args.kwargs)
    except Exception:
        return None
    for call in texts:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.manual_seed(1)
                other = eval(call, namespace(leaves))  # our own text: PyTorch's answer to it
                torch.manual_seed(0)
                result = eval(call, namespace(leaves))
        except Exception:
            continue
        if not same(result, other):
            raise Unrenderable("random")
        if not same(result, expected):
            continue
        outs = outputs(result)
        if any(isinstance(o, torch.Tensor) and o.is_complex() for o in outs):
            raise Unrenderable("complex")
        if not all(isinstance(o, torch.Tensor) for o in outs):
            return None
        float_outs = [i for i, o in enumerate(outs) if o.is_floating_point()]
        gauge_free = _abs_outputs(sample, result, outs)
        if not float_outs:
            return None
        seeds = {}
        total = torch.zeros((), dtype=torch.float64)
        terms = []
        tuple_out = not isinstance(result, torch.Tensor)
        for k, i in enumerate(float_outs):
            seed_name = "seed" if k == 0 else f"seed{k}"
            if generator is None:  # only looking: does the text draw random numbers?
                return {}
            seed = _round(torch.randn(outs[i].shape, dtype=torch.float64, generator=generator))
            seeds[seed_name] = seed
            out, text = (outs[i].abs(), f"abs(r[{i}])") if i in gauge_free else (outs[i], f"r[{i}]")
            total = total + (out * seed).sum()
            terms.append(f"sum({text} * {seed_name})" if tuple_out else f"sum({call} * {seed_name})")
        program = f"r = {call}\n" + " + ".join(terms) if tuple_out else terms[0]
        wrt = [name for name, want in r.wants_grad.items() if want]
        grads = {}
        if wrt and total.requires_grad:
            try:
                got = torch.autograd.grad(total, [leaves[n] for n in wrt], allow_unused=True)
            except Exception:
                return None  # PyTorch refuses this sample's backward (a gauge-dependent output, ...)
            grads = {n: (g if g is not None else torch.zeros_like(leaves[n])) for n, g in zip(wrt, got)}
        else:
            grads = {n: torch.zeros_like(leaves[n]) for n in wrt}
        return {
            "program": program,
            "call": call,
            "inputs": {n: {**flat(t), "kind": r.kinds[n]} for n, t in r.tensors.items()},
            "seeds": {n: flat(s) for n, s in seeds.items()},
            "value": total.item(),
            "grad": {n: flat(g) for n, g in grads.items()},
        }
    return None


def _abs_outputs(sample, result, outs: list) -> set[int]:
    """The outputs whose absolute value the sample's own check differentiates (its output_process_fn_grad).

    PyTorch's gradcheck of linalg.eig and linalg.eigh differentiates `abs(eigenvectors)`: their signs
    (phases) are LAPACK's choice, and so are they here. Other processing (svd's uniformized factors,
    a subset of the outputs) is not rendered: every output is then differentiated as it is.
    """
    process = getattr(sample, "output_process_fn_grad", None)
    if process is None or isinstance(result, torch.Tensor):
        return set()
    processed = outputs(process(result))
    if len(processed) != len(outs):
        return set()
    found = set()
    for i, (got, out) in enumerate(zip(processed, outs)):
        if got is out:
            continue
        if not (isinstance(got, torch.Tensor) and got.shape == out.shape and torch.equal(got, out.abs())):
            return set()
        found.add(i)
    return found


def _rounded_sample(sample):
    """The sample with its float tensors rounded as the rendering rounds them (the same objects otherwise)."""
    memo: dict[int, object] = {}

    def go(v):
        if isinstance(v, torch.Tensor):
            if id(v) not in memo:
                memo[id(v)] = _round(v.detach()).requires_grad_(False) if v.layout == torch.strided and not \
                    v.is_complex() else v
            return memo[id(v)]
        if isinstance(v, tuple) and not isinstance(v, torch.Size):
            return tuple(go(x) for x in v)
        if isinstance(v, list):
            return [go(x) for x in v]
        return v

    return types.SimpleNamespace(input=go(sample.input), args=tuple(go(a) for a in sample.args),
                                 kwargs={k: go(v) for k, v in sample.kwargs.items()})


def main() -> None:
    torch.manual_seed(0)
    python_random.seed(0)  # (some sample generators draw from Python's random: meshgrid's indexing, eigh's UPLO)
    generator = torch.Generator().manual_seed(SEED)
    entries, excluded = [], []
    with_backward = [op for op in op_db
                     if op.supports_autograd and torch.float64 in op.supported_backward_dtypes("cpu")]
    for op in with_backward:
        name = entry_name(op)
        if "quantize" in op.name:
            excluded.append({"entry": name, "why": "quantized"})
            continue
        if "sparse" in op.name:
            excluded.append({"entry": name, "why": "sparse"})
            continue
        cases, kinds, seen, random, large = [], set(), 0, False, None
        try:
            samples = op.sample_inputs("cpu", torch.float64, requires_grad=True)
            for sample in samples:
                if seen >= SAMPLES_LOOKED_AT or len(cases) >= SAMPLES_PER_ENTRY:
                    break
                seen += 1
                if is_random(op, sample):
                    random = True
                    break
                if numel(sample) > MAX_ELEMENTS:
                    kinds.add("large")
                    if numel(sample) <= MAX_ELEMENTS_ALONE and large is None:
                        large = sample, seen - 1
                    try:
                        render_case(op, sample, None)  # a large sample may still show that the entry draws
                    except Unrenderable as why:
                        random = random or str(why) == "random"
                    if random:
                        break
                    continue
                try:
                    case = render_case(op, sample, generator)
                except Unrenderable as why:
                    kinds.add(str(why))
                    if str(why) == "random":
                        random = True
                        break
                    continue
                if case is None:
                    kinds.add("not a program")
                    continue
                case["sample"] = seen - 1
                cases.append(case)
            if not cases and large is not None and not random:  # no small sample: the first of at most MAX_ELEMENTS_ALONE
                try:
                    case = render_case(op, large[0], generator)
                except Unrenderable as why:
                    random = str(why) == "random"
                    case = None
                if case:
                    case["sample"] = large[1]
                    cases.append(case)
        except Exception as problem:  # a sample generator that fails on this torch: say so, keep going
            kinds.add(f"samples: {type(problem).__name__}")
        if random:
            excluded.append({"entry": name, "why": "random"})
        elif not cases and kinds & {"complex"} and kinds <= {"complex", "large", "not a program"}:
            excluded.append({"entry": name, "why": "complex"})
        elif not cases and "sparse" in kinds:
            excluded.append({"entry": name, "why": "sparse"})
        else:
            entries.append({"entry": name, "cases": cases,
                            "no_cases_because": sorted(kinds) if not cases else []})
        print(f"{name}: {len(cases)} cases" + (f" ({', '.join(sorted(kinds))})" if not cases else ""),
              file=sys.stderr)
    document = {
        "about": "PyTorch's op_db (torch.testing._internal.common_methods_invocations) rendered as gradcli "
                 "programs by tests/reference/make_op_db.py; PyTorch's value and gradients in float64",
        "torch": torch.__version__,
        "with_float64_backward": len(with_backward),
        "excluded_why": EXCLUDED_WHY,
        "excluded": excluded,
        "entries": entries,
    }
    OUT.write_text(json.dumps(document, separators=(",", ":")) + "\n")
    print(f"{len(with_backward)} entries with a float64 CPU backward, {len(excluded)} left out, "
          f"{sum(len(e['cases']) for e in entries)} cases in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
