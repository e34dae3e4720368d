"""gradcli's performance, measured side by side with its references in one run.

    python benchmarks/run.py            # everything (a few minutes on 2 cores)
    python benchmarks/run.py --quick    # smaller sizes, for a quick look
    python benchmarks/run.py --write    # also rewrite benchmarks/RESULTS.md
    python benchmarks/run.py --only startup,training --write   # some sections, in place

Times are best-of-N for in-process work and medians for whole processes (these machines are
noisy). PyTorch and JAX are optional peers: absent ones are skipped, and the table says so.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
PROGRAM = "log(x1*x2)*sin(x2)"
BIN = Path(sys.executable).parent


def gradcli_command() -> list[str]:
    script = BIN / "gradcli"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gradcli"]


def gradcli_without(*modules: str) -> list[str]:
    """gradcli as a process in which `modules` cannot be imported: as installed without the data extra
    (pyarrow), or where pip found no C compiler (the compiled helper)."""
    blocked = "; ".join(f"sys.modules[{name!r}] = None" for name in modules)
    return [sys.executable, "-c", f"import sys; {blocked}; sys.argv = ['gradcli', *sys.argv[1:]]; "
                                  "from gradcli.__main__ import main; main()"]


def gradcli_writing_in_python() -> list[str]:
    """gradcli as a process that reads with the compiled helper but writes --points lines by Python,
    as it does where the helper is not built: what the helper's writer earns."""
    return [sys.executable, "-c", "import sys; import gradcli.render.stream as stream; stream.helper = None; "
                                  "sys.argv = ['gradcli', *sys.argv[1:]]; from gradcli.__main__ import main; main()"]


HELPERS = ("gradcli.inputs._numbers",)  # the compiled helper
DATA_EXTRA = ("pyarrow",)


def best_of(function: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def interleaved_bests(functions: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Best times of in-process work, the functions taking turns so that they share the noise."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    return {name: min(samples) for name, samples in times.items()}


def median_run(command: list[str], repeat: int = 15, **kwargs: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True, **kwargs)  # type: ignore[call-overload]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class Table:
    def __init__(self, title: str) -> None:
        self.title = title
        self.rows: list[tuple[str, str, str]] = []

    def add(self, what: str, seconds: float | None, note: str = "") -> None:
        self.rows.append((what, "skipped" if seconds is None else f"{seconds * 1000:,.1f} ms", note))

    def markdown(self) -> str:
        lines = [f"### {self.title}", "", "| what | time | note |", "|---|---:|---|"]
        lines += [f"| {what} | {time_} | {note} |" for what, time_, note in self.rows]
        return "\n".join(lines) + "\n"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x"


# --- 1. one gradient as a whole process -------------------------------------------------


def interleaved_medians(commands: list[list[str]], repeat: int, env: dict[str, str] | None = None) -> list[float]:
    """Medians of whole-process runs, the commands taking turns so that they share the noise."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for command, samples in zip(commands, times, strict=True):
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=env)
            samples.append(time.perf_counter() - start)
    return [statistics.median(samples) for samples in times]


def compiled_environment(folder: str) -> dict[str, str]:
    """The environment of processes that start as installed ones do, from compiled bytecode (pip compiles a
    package's on install): under PYTHONDONTWRITEBYTECODE, a checkout's modules would be compiled from source
    at every start (a quarter of a second of gradcli's here), and NumPy's, installed, would not."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = folder  # (the bytecode written there, not beside the sources)
    return env


TORCH_ONE = ("import torch; x1 = torch.tensor(0.5, dtype=torch.float64, requires_grad=True); "
             "x2 = torch.tensor(0.75, dtype=torch.float64, requires_grad=True); "
             "(torch.log(x1 * x2) * torch.sin(x2)).backward(); print(x1.grad.item(), x2.grad.item())")


EXACT_PROGRAM = "sin(x1*x2)*cos(x2)"  # functions whose bits math gives (gradcli.float_math): no NumPy at all
STARTUP_VIEWS = ("graph", "hessian", "jacobian", "jvp", "explain")
VIEW_OPTIONS = {"jvp": ["--tangent", "x1=1,x2=0"]}


def startup(repeat: int, torch_python: str | None) -> Table:
    table = Table("One gradient as a whole process (median, all taking turns)")
    command = [*gradcli_command(), "grad", PROGRAM, "--at", "x1=0.5,x2=0.75"]
    exact = [*gradcli_command(), "grad", EXACT_PROGRAM, "--at", "x1=0.5,x2=0.75"]
    # the other views of one point, which take the scalar path too (graph's tree, hessian's and jacobian's tables,
    # explain's chain rule, jvp's line)
    views = [[*gradcli_command(), view, program, "--at", "x1=0.5,x2=0.75", *VIEW_OPTIONS.get(view, [])]
             for view in STARTUP_VIEWS for program in (PROGRAM, EXACT_PROGRAM)]
    commands = [[sys.executable, "-c", "pass"], [sys.executable, "-c", "import numpy"], [*command, "--json"], command,
                [*exact, "--json"], exact, *views]
    if torch_python:
        commands.append([torch_python, "-c", TORCH_ONE])
    with tempfile.TemporaryDirectory() as bytecode:
        env = compiled_environment(bytecode)
        interleaved_medians(commands, 1, env)  # (the bytecode written once)
        (nothing, numpy_import, ours, human, exact_json, exact_human, *times) = interleaved_medians(commands, repeat, env)
    view_times, torch_time = times[: 2 * len(STARTUP_VIEWS)], times[2 * len(STARTUP_VIEWS):]
    table.add("`python -c pass`", nothing, f"{ratio(nothing, numpy_import)} the numpy import: Python's own start")
    table.add('`python -c "import numpy"`', numpy_import, "the anchor of this table")
    table.add(f"`gradcli grad '{PROGRAM}' ... --json`", ours,
              f"{ratio(ours, numpy_import)} the numpy import (target: at most 1.0x); log is NumPy's own: NumPy loads")
    table.add(f"`gradcli grad '{PROGRAM}' ...` (the table view)", human, f"{ratio(human, numpy_import)} the numpy import")
    table.add(f"`gradcli grad '{EXACT_PROGRAM}' ... --json`", exact_json,
              f"{ratio(exact_json, numpy_import)} the numpy import; math's sin and cos: no NumPy")
    table.add(f"`gradcli grad '{EXACT_PROGRAM}' ...` (the table view)", exact_human,
              f"{ratio(exact_human, numpy_import)} the numpy import")
    for view, log_time, exact_time in zip(STARTUP_VIEWS, view_times[::2], view_times[1::2], strict=True):
        table.add(f"`gradcli {view} '{PROGRAM}' ...`", log_time,
                  f"{ratio(log_time, numpy_import)} the numpy import (target: at most 1.0x); the scalar path, NumPy loads")
        table.add(f"`gradcli {view} '{EXACT_PROGRAM}' ...`", exact_time,
                  f"{ratio(exact_time, numpy_import)} the numpy import; the scalar path, no NumPy")
    if torch_time:
        table.add('`python -c "import torch; ..."`, the same gradient', torch_time[0],
                  f"gradcli's `--json` is {ratio(ours, torch_time[0])} this")
    else:
        table.add("PyTorch, the same gradient", None, "torch not installed: see --torch-python")
    return table


# --- 2. a million points ----------------------------------------------------------------


def numpy_by_hand(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    log_ab = np.log(a * b)
    sin_b = np.sin(b)
    return log_ab * sin_b, sin_b / a, sin_b / b + log_ab * np.cos(b)


def numpy_chunked(a: np.ndarray, b: np.ndarray, chunk: int = 8192) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # The best hand-written NumPy: cache-sized chunks, every temporary reused via out=.
    n = len(a)
    value, g1, g2 = np.empty(n), np.empty(n), np.empty(n)
    t1, t2, t3 = np.empty(chunk), np.empty(chunk), np.empty(chunk)
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        m = stop - start
        x1, x2 = a[start:stop], b[start:stop]
        u, s, c = t1[:m], t2[:m], t3[:m]
        np.multiply(x1, x2, out=u)
        np.log(u, out=u)
        np.sin(x2, out=s)
        np.multiply(u, s, out=value[start:stop])
        np.divide(s, x1, out=g1[start:stop])
        np.cos(x2, out=c)
        np.multiply(u, c, out=c)
        np.divide(s, x2, out=g2[start:stop])
        np.add(g2[start:stop], c, out=g2[start:stop])
    return value, g1, g2


def million_points(count: int, repeat: int) -> Table:
    from gradcli import compile_program, grad
    from gradcli.batch import SWEEP, THREADED_SWEEP, grad_batch

    table = Table(f"{count:,} points of `{PROGRAM}` (best of {repeat}, taking turns)")
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.5, 1.5, count), rng.uniform(0.5, 1.5, count)
    tenth = count // 10
    tape = compile_program(PROGRAM)
    summed = f"sum({PROGRAM})"
    threads = min(os.cpu_count() or 1, 4)
    work: dict[str, Callable[[], object]] = {
        "hand": lambda: numpy_by_hand(a, b),
        "chunked": lambda: numpy_chunked(a, b),
        "engine": lambda: grad_batch(tape, {"x1": a, "x2": b}, count),
        "one thread": lambda: grad_batch(tape, {"x1": a, "x2": b}, count, threads=1),
        "whole": lambda: grad(summed, at={"x1": a, "x2": b}),
        "whole tenth": lambda: grad(summed, at={"x1": a[:tenth], "x2": b[:tenth]}),
    }
    best = interleaved_bests(work, repeat)
    reference = best["hand"]

    def of_hand(what: str) -> str:
        return f"{ratio(best[what], reference)} hand NumPy"

    table.add("hand-written NumPy derivative", reference, "the anchor of this table")
    table.add("hand-written NumPy, chunked, out= buffers", best["chunked"], of_hand("chunked"))
    table.add(f"gradcli engine, `grad_batch` (sweeps of {THREADED_SWEEP:,} points, {threads} threads)", best["engine"],
              f"{of_hand('engine')} (target 1.0x)")
    table.add(f"gradcli engine, `grad_batch`, 1 thread (sweeps of {SWEEP:,})", best["one thread"], of_hand("one thread"))
    table.add(f'gradcli `grad("{summed}", at=vectors)`', best["whole"], f"{of_hand('whole')} (target 1.0x)")
    table.add(f"the same, {tenth:,} points", best["whole tenth"],
              f"{count:,} points take {ratio(best['whole'], best['whole tenth'])} this (10x the points)")
    check = grad_batch(tape, {"x1": a, "x2": b}, count)
    _, g1, g2 = numpy_by_hand(a, b)
    assert np.allclose(check.grad["x1"], g1) and np.allclose(check.grad["x2"], g2)
    whole = grad(summed, at={"x1": a, "x2": b}).grad
    assert np.array_equal(whole["x1"], check.grad["x1"]) and np.array_equal(whole["x2"], check.grad["x2"])

    try:
        import torch
    except ImportError:
        table.add("PyTorch eager", None, "torch not installed: `pip install torch==2.13.0`")
    else:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)

        def torch_grad() -> None:
            x1, x2 = ta.clone().requires_grad_(), tb.clone().requires_grad_()
            (torch.log(x1 * x2) * torch.sin(x2)).sum().backward()

        default_threads = torch.get_num_threads()
        torch_time = best_of(torch_grad, repeat)
        table.add(f"PyTorch eager, {default_threads} threads", torch_time, f"{ratio(torch_time, reference)} hand NumPy")
        torch.set_num_threads(1)
        torch_time = best_of(torch_grad, repeat)
        table.add("PyTorch eager, 1 thread", torch_time, f"{ratio(torch_time, reference)} hand NumPy")
        torch.set_num_threads(default_threads)
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        table.add("JAX jit", None, "jax not installed")
    else:
        jax.config.update("jax_enable_x64", True)
        gradient = jax.jit(jax.grad(lambda x1, x2: jnp.sum(jnp.log(x1 * x2) * jnp.sin(x2)), argnums=(0, 1)))
        ja, jb = jnp.asarray(a), jnp.asarray(b)
        gradient(ja, jb)[0].block_until_ready()
        jax_time = best_of(lambda: gradient(ja, jb)[0].block_until_ready(), repeat)
        table.add("JAX jit", jax_time, f"{ratio(jax_time, reference)} hand NumPy")
    return table


HAND_CSV = """
import sys, numpy as np
table = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, ndmin=2)
a, b = table[:, 0], table[:, 1]
log_ab, sin_b = np.log(a * b), np.sin(b)
out = np.column_stack([log_ab * sin_b, sin_b / a, sin_b / b + log_ab * np.cos(b)])
np.savetxt(sys.stdout, out, delimiter=",", fmt="%.17g", header="value,grad_x1,grad_x2", comments="")
"""


# The data tools a person would otherwise use, each read -> the NumPy derivative -> write, to
# stdout. They are run by this Python (the one gradcli is installed in: polars and pyarrow are
# among gradcli's dependencies); pandas is not, and the benchmark installs nothing: a script
# whose library this Python cannot import is skipped, and the table says so.
DERIVATIVE = """
def derivative(np, a, b):
    log_ab, sin_b = np.log(a * b), np.sin(b)
    return log_ab * sin_b, sin_b / a, sin_b / b + log_ab * np.cos(b)
"""

PEER_SCRIPTS = {
    "polars": ("polars", DERIVATIVE + """
import sys, numpy as np, polars as pl
frame = pl.read_csv(sys.argv[1], schema={"x1": pl.Float64, "x2": pl.Float64})
a, b = frame["x1"].to_numpy(), frame["x2"].to_numpy()
value, g1, g2 = derivative(np, a, b)
pl.DataFrame({"value": value, "grad_x1": g1, "grad_x2": g2}).write_csv(sys.stdout.buffer)
"""),
    "polars, JSON Lines": ("polars", DERIVATIVE + """
import sys, numpy as np, polars as pl
frame = pl.read_csv(sys.argv[1], schema={"x1": pl.Float64, "x2": pl.Float64})
a, b = frame["x1"].to_numpy(), frame["x2"].to_numpy()
value, g1, g2 = derivative(np, a, b)
pl.DataFrame({"line": np.arange(2, len(a) + 2), "at": pl.DataFrame({"x1": a, "x2": b}).to_struct(), "value": value,
              "grad": pl.DataFrame({"x1": g1, "x2": g2}).to_struct()}).write_ndjson(sys.stdout.buffer)
"""),
    "polars, JSON Lines in": ("polars", DERIVATIVE + """
import sys, numpy as np, polars as pl
frame = pl.read_ndjson(sys.argv[1].replace(".csv", ".jsonl"), schema={"x1": pl.Float64, "x2": pl.Float64})
a, b = frame["x1"].to_numpy(), frame["x2"].to_numpy()
value, g1, g2 = derivative(np, a, b)
pl.DataFrame({"value": value, "grad_x1": g1, "grad_x2": g2}).write_csv(sys.stdout.buffer)
"""),
    "polars, Parquet": ("polars", DERIVATIVE + """
import sys, numpy as np, polars as pl
frame = pl.read_parquet(sys.argv[1].replace(".csv", ".parquet"))
a, b = frame["x1"].to_numpy(), frame["x2"].to_numpy()
value, g1, g2 = derivative(np, a, b)
pl.DataFrame({"value": value, "grad_x1": g1, "grad_x2": g2}).write_parquet(sys.argv[1].replace(".csv", ".out.parquet"))
"""),
    "pyarrow": ("pyarrow", DERIVATIVE + """
import sys, numpy as np, pyarrow as pa, pyarrow.csv as csv
table = csv.read_csv(sys.argv[1])
a, b = table["x1"].to_numpy(), table["x2"].to_numpy()
value, g1, g2 = derivative(np, a, b)
csv.write_csv(pa.table({"value": value, "grad_x1": g1, "grad_x2": g2}), sys.stdout.buffer)
"""),
    "pandas": ("pandas", DERIVATIVE + """
import sys, numpy as np, pandas as pd
frame = pd.read_csv(sys.argv[1], dtype="float64")
value, g1, g2 = derivative(np, frame["x1"].to_numpy(), frame["x2"].to_numpy())
pd.DataFrame({"value": value, "grad_x1": g1, "grad_x2": g2}).to_csv(sys.stdout, index=False)
"""),
}


def csv_through_the_cli(count: int, workdir: Path, repeat: int = 9) -> Table:
    table = Table(f"{count:,}-row CSV through the command line (medians of {repeat}, all taking turns)")
    path = workdir / "points.csv"
    rng = np.random.default_rng(1)
    points = rng.uniform(0.5, 1.5, (count, 2))
    np.savetxt(path, points, delimiter=",", fmt="%.17g", header="x1,x2", comments="")
    with open(path.with_suffix(".jsonl"), "w") as lines:  # the same points as JSON Lines
        lines.writelines(f'{{"x1": {a!r}, "x2": {b!r}}}\n' for a, b in points.tolist())
    if importlib.util.find_spec("pyarrow") is not None:  # ... and as Parquet
        import pyarrow as pa
        import pyarrow.parquet as parquet

        parquet.write_table(pa.table({"x1": points[:, 0], "x2": points[:, 1]}), path.with_suffix(".parquet"))
    commands: dict[str, list[str]] = {}
    script = workdir / "hand.py"
    script.write_text(HAND_CSV)
    commands["hand-written NumPy script (loadtxt, savetxt)"] = [sys.executable, str(script), str(path)]
    missing = []
    for name, (module, text) in PEER_SCRIPTS.items():
        if importlib.util.find_spec(module) is None:
            missing.append((f"a {name} script", f"{module} is not installed in this Python"))
            continue
        script = workdir / f"{module}_{len(commands)}.py"
        script.write_text(text)
        commands[f"a {name} script (read, the NumPy derivative, write)"] = [sys.executable, str(script), str(path)]
    ours = [*gradcli_command(), "grad", PROGRAM, "--points", str(path)]
    commands["`gradcli grad --points FILE --csv`"] = [*ours, "--csv"]
    tenth = path.with_name("tenth.csv")  # (how the time grows with the points: a tenth of them)
    np.savetxt(tenth, points[: count // 10], delimiter=",", fmt="%.17g", header="x1,x2", comments="")
    grown = f"`gradcli grad --points FILE --csv`, {count // 10:,} rows"
    commands[grown] = [*gradcli_command(), "grad", PROGRAM, "--points", str(tenth), "--csv"]
    commands["`gradcli grad --points FILE --json`"] = [*ours, "--json"]
    commands["`gradcli grad --points FILE.jsonl --csv` (JSON Lines in)"] = [
        *gradcli_command(), "grad", PROGRAM, "--points", str(path.with_suffix(".jsonl")), "--csv"]
    commands["`gradcli grad --points FILE > out` (the table view)"] = ours
    if path.with_suffix(".parquet").exists():
        commands["`gradcli grad --points FILE.parquet --output out.parquet` (Parquet in and out)"] = [
            *gradcli_command(), "grad", PROGRAM, "--points", str(path.with_suffix(".parquet")),
            "--output", str(workdir / "out.parquet")]
    commands["JSON Lines in, `--csv`, without the compiled helper"] = [
        *gradcli_without(*HELPERS), "grad", PROGRAM, "--points", str(path.with_suffix(".jsonl")), "--csv"]
    commands["CSV in, `--csv`, without the compiled helper"] = [
        *gradcli_without(*HELPERS), "grad", PROGRAM, "--points", str(path), "--csv"]
    commands["`--csv` written by Python, not the compiled helper"] = [
        *gradcli_writing_in_python(), "grad", PROGRAM, "--points", str(path), "--csv"]
    commands["`--json` written by Python, not the compiled helper"] = [
        *gradcli_writing_in_python(), "grad", PROGRAM, "--points", str(path), "--json"]
    commands["`--csv` without the data extra (pyarrow)"] = [
        *gradcli_without(*DATA_EXTRA), "grad", PROGRAM, "--points", str(path), "--csv"]
    commands["`--json` without the data extra (pyarrow)"] = [
        *gradcli_without(*DATA_EXTRA), "grad", PROGRAM, "--points", str(path), "--json"]
    times = dict(zip(commands, interleaved_medians(list(commands.values()), repeat), strict=True))
    polars_csv = times.get("a polars script (read, the NumPy derivative, write)")
    polars_json = times.get("a polars, JSON Lines script (read, the NumPy derivative, write)")
    polars_in = times.get("a polars, JSON Lines in script (read, the NumPy derivative, write)")
    polars_parquet = times.get("a polars, Parquet script (read, the NumPy derivative, write)")
    with_helpers = {"JSON Lines in, `--csv`, without the compiled helper":
                    times["`gradcli grad --points FILE.jsonl --csv` (JSON Lines in)"],
                    "CSV in, `--csv`, without the compiled helper": times["`gradcli grad --points FILE --csv`"],
                    "`--csv` written by Python, not the compiled helper": times["`gradcli grad --points FILE --csv`"],
                    "`--json` written by Python, not the compiled helper": times["`gradcli grad --points FILE --json`"]}
    ours_csv = times["`gradcli grad --points FILE --csv`"]
    for what, seconds in times.items():
        note = ""
        if what == grown:
            note = f"{count:,} rows take {ratio(ours_csv, seconds)} this (10x the points)"
        elif what.endswith("(the table view)"):
            note = f"{ratio(seconds, ours_csv)} the `--csv` run"
        elif (what.startswith("hand-written") or (what.startswith("a ") and "script" in what and "polars" not in what)) \
                and polars_csv:
            note = f"{ratio(seconds, polars_csv)} the polars script"
        elif what.startswith("a polars") and polars_csv and seconds != polars_csv:
            note = f"{ratio(seconds, polars_csv)} the polars CSV script"
        elif what.startswith("a polars script"):
            note = "the anchor of the CSV rows"
        elif what in with_helpers:
            note = f"{ratio(seconds, with_helpers[what])} the run with it"
        elif what.startswith("`--csv` without the data extra") and polars_csv:
            note = f"{ratio(seconds, polars_csv)} the polars script (target: at most 1.0x)"
        elif what.startswith("`--json` without the data extra") and polars_json:
            note = f"{ratio(seconds, polars_json)} the polars JSON Lines script (target: at most 1.0x)"
        elif what.endswith("(Parquet in and out)") and polars_parquet:
            note = f"{ratio(seconds, polars_parquet)} the polars Parquet script (target: at most 1.0x)"
        elif what.endswith("--csv`") and polars_csv:
            note = f"{ratio(seconds, polars_csv)} the polars script (target: at most 1.0x)"
        elif what.endswith("--json`") and polars_json:
            note = f"{ratio(seconds, polars_json)} the polars JSON Lines script (target: at most 1.0x)"
        elif what.endswith("(JSON Lines in)") and polars_in:
            note = f"{ratio(seconds, polars_in)} the polars JSON Lines in script (target: at most 1.0x)"
        table.add(what, seconds, note)
    for what, why in missing:
        table.add(what, None, why)
    return table


# --- 3. large programs ------------------------------------------------------------------


def big_program(terms: int) -> str:
    return " + ".join(f"sin(x{i % 50}*x{(i * 7 + 1) % 50}+3)*log(x{(i * 3 + 2) % 50}+3/7)" for i in range(terms))


TORCH_BIG = """
import sys, time, torch
torch.set_num_threads(1)
terms = int(sys.argv[1])
xs = [torch.tensor(0.5 + i / 100, dtype=torch.float64, requires_grad=True) for i in range(50)]
best = 1e9
for _ in range(3):
    start = time.perf_counter()
    total = None
    for i in range(terms):
        term = torch.sin(xs[i % 50] * xs[(i * 7 + 1) % 50] + 3) * torch.log(xs[(i * 3 + 2) % 50] + 3 / 7)
        total = term if total is None else total + term
    total.backward()
    best = min(best, time.perf_counter() - start)
    for x in xs:
        x.grad = None
print(best)
"""


def large_programs(sizes: list[int], workdir: Path) -> Table:
    from gradcli import backward, compile_program, forward, syntax
    from gradcli.tape import build

    table = Table("Large programs: sums of `sin(xi*xj+3)*log(xk+3/7)` over 50 inputs (stages: best of 3, "
                  "in-process with the cycle collector off as in the gradcli process; whole runs: medians of 5, "
                  "gradcli and PyTorch taking turns)")
    at = {f"x{i}": np.asarray(0.5 + i / 100) for i in range(50)}
    at_text = ",".join(f"x{i}={0.5 + i / 100}" for i in range(50))
    has_torch = importlib.util.find_spec("torch") is not None  # not imported here: it would slow NumPy's threads
    for terms in sizes:
        source = big_program(terms)
        program = syntax.parse(source)
        tape = build(program)
        nodes = len(tape.nodes)
        values = forward(tape, at)
        gc.collect()
        gc.disable()
        parse_time = best_of(partial(syntax.parse, source), 3)
        build_time = best_of(partial(build, program), 3)
        compile_time = best_of(partial(compile_program, source), 3)
        forward_time = best_of(partial(forward, tape, at), 3)
        backward_time = best_of(partial(backward, tape, values, tape.outputs, [np.ones(())]), 3)
        gc.enable()
        label = f"{nodes:,} nodes"
        path = workdir / f"big{terms}.grad"
        path.write_text(source)
        command = [*gradcli_command(), "grad", "-f", str(path), "--at", at_text, "--json"]
        script = workdir / "torch_big.py"
        script.write_text(TORCH_BIG)
        runs: list[float] = []
        torch_times: list[float] = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True)
            runs.append(time.perf_counter() - start)
            if has_torch:
                done = subprocess.run([sys.executable, str(script), str(terms)], capture_output=True, text=True,
                                      check=True)
                torch_times.append(float(done.stdout))
        cli = statistics.median(runs)
        stages = [("parse (text -> tree)", parse_time, ""), ("tape (tree -> tape)", build_time, ""),
                  ("compile (text -> tape in one pass, as the CLI does)", compile_time, ""),
                  ("forward", forward_time, ""),
                  ("backward", backward_time, f"backward/forward {ratio(backward_time, forward_time)} (target: at most 3x); ")]
        for stage, seconds, note in stages:  # (each beside the whole run it is part of)
            table.add(f"{label}: {stage}", seconds, f"{note}{ratio(seconds, cli)} the whole run")
        table.add(f"{label}: whole `gradcli grad -f` run", cli)
        if has_torch:
            torch_time = statistics.median(torch_times)
            table.add(f"{label}: PyTorch eager, build + backward in-process (best of 3 in each process)", torch_time,
                      f"gradcli's whole run is {ratio(cli, torch_time)} this (target: below 1x)")
        else:
            table.add(f"{label}: PyTorch eager", None, "torch not installed")
    if len(sizes) == 2:
        small, large = sizes
        sources = {terms: big_program(terms) for terms in sizes}

        def whole(terms: int) -> None:
            tape = compile_program(sources[terms])
            values = forward(tape, at)
            backward(tape, values, tape.outputs, [np.ones(())])

        gc.disable()
        best = interleaved_bests({"small": lambda: whole(small), "large": lambda: whole(large)}, 5)
        gc.enable()
        table.add(f"in-process compile + forward + backward, {large:,} vs {small:,} terms (best of 5, taking turns)",
                  best["large"], f"{ratio(best['large'], best['small'])} for 10x the size (target: at most 12x)")
    return table


# --- 5. `gradcli run` of a training loop -------------------------------------------------

# Two tutorial loops, run as files by `gradcli run` and by PyTorch's Python: a 2-layer MLP
# (nn.Linear, ReLU, MSELoss, SGD) and a line fitted by hand-written gradient descent.
TRAINING_LOOPS = {
    "a 2-layer MLP (nn.Linear/ReLU/MSELoss, optim.SGD)": """import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.linspace(-1, 1, 32).reshape(8, 4)
y = (x * x).sum(dim=1, keepdim=True)
for step in range(STEPS):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
print(loss.item())
""",
    "plain tensors, gradient descent by hand": """import torch

x = torch.linspace(-2, 2, 64)
y = 3 * x - 1 + 0.5 * torch.sin(3 * x)
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
lr = 0.1
for step in range(STEPS):
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
print(w.item(), b.item(), loss.item())
""",
}


def torch_interpreter(given: str | None) -> str | None:
    """The Python that runs the PyTorch side: --torch-python, else this one if it has torch."""
    if given:
        return given
    return sys.executable if importlib.util.find_spec("torch") is not None else None


def training_loops(steps: int, workdir: Path, torch_python: str | None, repeat: int = 3) -> Table:
    table = Table(f"`gradcli run` of a {steps:,}-step training loop, against the same file under PyTorch as a "
                  f"process, torch's import included (medians of {repeat}, taking turns)")
    for what, text in TRAINING_LOOPS.items():
        commands: dict[str, list[str]] = {}
        for count in (steps // 10, steps):
            path = workdir / f"loop{len(commands)}.py"
            path.write_text(text.replace("STEPS", str(count)))
            commands[f"gradcli {count}"] = [*gradcli_command(), "run", str(path)]
            if torch_python:
                commands[f"torch {count}"] = [torch_python, str(path)]
        times = dict(zip(commands, interleaved_medians(list(commands.values()), repeat), strict=True))
        ours, tenth = times[f"gradcli {steps}"], times[f"gradcli {steps // 10}"]
        theirs = times.get(f"torch {steps}")
        table.add(f"{what}: PyTorch", theirs, "" if theirs else "no PyTorch: see --torch-python")
        table.add(f"{what}: `gradcli run`", ours, f"{ratio(ours, theirs)} PyTorch (target: below 1x)" if theirs else "")
        table.add(f"{what}: `gradcli run`, {steps // 10:,} steps", tenth,
                  f"{steps:,} steps take {ratio(ours, tenth)} this")
    return table


# --- 4. memory of a long stream ---------------------------------------------------------

GENERATOR = """
import sys
count = int(sys.argv[1])
out = sys.stdout
out.write("x1,x2\\n")
line = "0.5,0.75\\n1.25,0.5\\n" * 5000
for _ in range(count // 10000):
    out.write(line)
"""


# ru_maxrss of a child counts what its fork copied from this (large) process before exec;
# a small wrapper process starts gradcli instead, and reports its children's peak.
PEAK_WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def stream_memory(count: int, workdir: Path) -> Table:
    table = Table(f"A {count:,}-point stream through a pipe")
    script = workdir / "gen.py"
    script.write_text(GENERATOR)
    wrapper = workdir / "peak.py"
    wrapper.write_text(PEAK_WRAPPER)
    for output in ("--csv", "--json"):
        start = time.perf_counter()
        producer = subprocess.Popen([sys.executable, str(script), str(count)], stdout=subprocess.PIPE)
        consumer = subprocess.run([sys.executable, str(wrapper), *gradcli_command(), "grad", PROGRAM, "--points", "-",
                                   output], stdin=producer.stdout, capture_output=True, text=True, check=True)
        assert producer.stdout is not None
        producer.stdout.close()
        producer.wait()
        elapsed = time.perf_counter() - start
        code, peak_kb = consumer.stdout.split()
        table.add(f"gradcli grad --points - {output}", elapsed,
                  f"peak memory {int(peak_kb) / 1024:,.0f} MB (target: under 200 MB); exit {code}")
    return table


# --- 5. float64 normalizations over big rows ----------------------------------------------

# Each op's forward and backward in a loop (`gradcli run`'s library call, as the CLI makes it), against NumPy's plain
# formula and PyTorch timing the same loop in its own process. gradcli's float64 softmax, log_softmax, layer_norm and
# cross_entropy take PyTorch's kernels' order of operations (gradcli/ops/float64.py) for its bits: in the compiled
# helper's C loops where it is built, in NumPy's steps where not (the same bits, slower).
NORM_SHAPES = ((256, 4096), (4096, 10), (8, 50000))
NORM_SETUP = """import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(ROWS, COLS, dtype=torch.float64, requires_grad=True)
g = torch.randn(ROWS, COLS, dtype=torch.float64)
w = torch.randn(COLS, dtype=torch.float64, requires_grad=True)
b = torch.randn(COLS, dtype=torch.float64, requires_grad=True)
target = torch.randint(0, COLS, (ROWS,))
"""
NORM_OPS = {
    "softmax": "F.softmax(x, dim=-1).backward(g)",
    "log_softmax": "F.log_softmax(x, dim=-1).backward(g)",
    "layer_norm": "F.layer_norm(x, (COLS,), w, b).backward(g)",
    "cross_entropy": "F.cross_entropy(x, target).backward()",
}
NORM_TORCH_TIMER = """
import time
def step():
    STEP
best = min(__import__('timeit').repeat(step, number=STEPS, repeat=REPEAT))
print(best / STEPS)
"""


def norm_numpy(op: str, x: np.ndarray, g: np.ndarray, w: np.ndarray, b: np.ndarray, target: np.ndarray) -> object:
    """The op's forward and its input's gradient by NumPy's plain formula (the weight's and bias's too for
    layer_norm, as the loop computes them)."""
    if op == "layer_norm":
        mean = x.mean(-1, keepdims=True)
        centred = x - mean
        rstd = 1 / np.sqrt((centred * centred).mean(-1, keepdims=True) + 1e-5)
        xhat = centred * rstd
        _ = xhat * w + b
        gw = g * w
        dx = rstd * (gw - gw.mean(-1, keepdims=True) - xhat * (gw * xhat).mean(-1, keepdims=True))
        return dx, (g * xhat).sum(0), g.sum(0)
    shifted = x - x.max(-1, keepdims=True)
    if op == "softmax":
        e = np.exp(shifted)
        y = e / e.sum(-1, keepdims=True)
        return y * (g - (g * y).sum(-1, keepdims=True))
    y = shifted - np.log(np.exp(shifted).sum(-1, keepdims=True))
    if op == "cross_entropy":
        _ = -y[np.arange(len(target)), target].mean()
        g = np.zeros_like(y)
        g[np.arange(len(target)), target] = -1 / len(target)
    return g - np.exp(y) * g.sum(-1, keepdims=True)


def float64_norms(steps: int, repeat: int, workdir: Path, torch_python: str | None,
                  shapes: tuple[tuple[int, int], ...] = NORM_SHAPES) -> Table:
    import io

    import gradcli.ops.float32 as float32
    from gradcli import session

    table = Table(f"float64 normalizations, forward and backward, over rows: {steps} steps of `gradcli run`'s loop "
                  f"(its library call; best of {repeat}, less the set-up) against NumPy's plain formula and PyTorch's "
                  "loop in its own process, a step each")
    compiled = float32.compiled

    def gradcli_step(setup: str, step: str) -> float:
        """A step: the file of steps + 1 of them less the file of 1, the two taking turns."""
        runs = {}
        for count in (1, steps + 1):
            path = workdir / f"norms{count}.py"
            path.write_text(setup + f"for _ in range({count}):\n    x.grad = None\n    {step}\n")
            runs[count] = partial(session.run_file, session.RunRequest(str(path), calls=False), io.StringIO())
        times = interleaved_bests({str(count): run for count, run in runs.items()}, repeat)
        return (times[str(steps + 1)] - times["1"]) / steps

    rng = np.random.default_rng(0)
    for rows, cols in shapes:
        setup = NORM_SETUP.replace("ROWS", str(rows)).replace("COLS", str(cols))
        x, g = rng.standard_normal((2, rows, cols))
        w, b = rng.standard_normal((2, cols))
        target = rng.integers(0, cols, rows)
        for op, step in NORM_OPS.items():
            step = step.replace("COLS", str(cols))
            ours = gradcli_step(setup, step)
            float32.compiled = None  # (as where pip found no C compiler)
            try:
                without = gradcli_step(setup, step)
            finally:
                float32.compiled = compiled
            numpy_time = best_of(partial(lambda op, *arrays: [norm_numpy(op, *arrays) for _ in range(steps)],
                                         op, x, g, w, b, target), repeat) / steps
            theirs = None
            if torch_python:
                timer = NORM_TORCH_TIMER.replace("STEPS", str(steps)).replace("REPEAT", str(repeat))
                timer = timer.replace("STEP", f"x.grad = None; {step}")
                done = subprocess.run([torch_python, "-c", setup + timer], capture_output=True, text=True, check=True,
                                      env={**os.environ, "OMP_NUM_THREADS": "1"})
                theirs = float(done.stdout.split()[-1])
            versus = f"{ratio(ours, numpy_time)} NumPy's formula ({numpy_time * 1000:,.1f} ms)"
            if theirs:
                versus += f", {ratio(ours, theirs)} PyTorch ({theirs * 1000:,.1f} ms, one thread)"
            table.add(f"{op} {rows}x{cols}: `gradcli run`, a step", ours,
                      f"{versus}; without the compiled helper {without * 1000:,.1f} ms")
    return table


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = [f"Python {platform.python_version()}", f"NumPy {np.__version__}"]
    for name in ("torch", "jax"):
        try:
            module = __import__(name)
            versions.append(f"{name} {module.__version__}")
        except ImportError:
            versions.append(f"{name} absent")
    built = all(importlib.util.find_spec(name) is not None for name in HELPERS)  # where pip found a C compiler
    versions.append("gradcli's compiled helper " + ("built" if built else "not built (pyarrow does its work)"))
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, {cpu}; " + ", ".join(versions)


def compiled_gradcli() -> None:
    """gradcli's modules compiled to bytecode, as `pip install .` leaves them (and as the peers' packages
    are): from a source tree or an editable install, where PYTHONDONTWRITEBYTECODE=1 (as on this machine)
    writes no __pycache__, each gradcli process would compile every module it imports again, 0.2 s."""
    import compileall

    spec = importlib.util.find_spec("gradcli")
    if spec is not None and spec.origin is not None:
        compileall.compile_dir(str(Path(spec.origin).parent), quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    parser.add_argument("--write", action="store_true",
                        help="rewrite benchmarks/RESULTS.md (with --only: those sections alone)")
    parser.add_argument("--only", help=f"comma-separated sections to run: {', '.join(SECTIONS)}")
    parser.add_argument("--torch-python", help="the Python that runs the PyTorch side of `training` (default: "
                                               "this one, where it has torch)")
    options = parser.parse_args()
    quick = options.quick
    only = SECTIONS if options.only is None else options.only.split(",")
    unknown = set(only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    torch_python = torch_interpreter(options.torch_python)
    compiled_gradcli()
    tables = []
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        makers: dict[str, Callable[[], Table]] = {
            "startup": lambda: startup(5 if quick else 25, torch_python),
            "points": lambda: million_points(200_000 if quick else 1_000_000, 3 if quick else 5),
            "csv": lambda: csv_through_the_cli(200_000 if quick else 1_000_000, workdir),
            "large": lambda: large_programs([1_250, 12_500] if not quick else [125, 1_250], workdir),
            "training": lambda: training_loops(200 if quick else 2_000, workdir, torch_python),
            "stream": lambda: stream_memory(1_000_000 if quick else 10_000_000, workdir),
            "norms": lambda: float64_norms(3 if quick else 10, 3 if quick else 5, workdir, torch_python,
                                           ((64, 1024), (1024, 10), (2, 12500)) if quick else NORM_SHAPES),
        }
        for name in SECTIONS:
            if name in only:
                table = makers[name]()
                print(table.markdown(), flush=True)
                tables.append(table)
    if options.write:
        write_results(tables, quick, options.only)


SECTIONS = ("startup", "points", "csv", "large", "training", "stream", "norms")


def write_results(tables: list[Table], quick: bool, only: str | None) -> None:
    """RESULTS.md: every table, or with --only the tables measured now in place of the same
    sections (by title, numbers aside), the others as they were."""
    measured = (f"{time.strftime('%Y-%m-%d')} on {machine()}, by `python benchmarks/run.py"
                f"{' --quick' if quick else ''}")
    # Other work on the machine slows every time of a run (the ratios, taken side by side, less): said beside them.
    load = f"; the load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end" \
        if hasattr(os, "getloadavg") else ""
    path = HERE / "RESULTS.md"
    if only is None or not path.exists():
        header = f"# Benchmark results\n\nMeasured {measured}`{load}.\n\n"
        path.write_text(header + "\n".join(t.markdown() for t in tables))
        return
    head, *sections = path.read_text().split("\n### ")
    old = {_section_key(section): section for section in sections}
    for table in tables:
        text = table.markdown()[len("### "):].rstrip("\n") + f"\n\n(measured {measured} --only {only}`{load})\n"
        old[_section_key(text)] = text
    path.write_text(head + "".join("\n### " + section.rstrip("\n") + "\n" for section in old.values()))


def _section_key(section: str) -> str:
    """A section's title without its numbers and its note in brackets: the same from run to run and
    size to size."""
    title = section.split("\n", 1)[0].split(" (", 1)[0]
    return "".join(c for c in title if not c.isdigit() and c != ",")


if __name__ == "__main__":
    main()
