"""Shared helpers: run the CLI as a user would, and central finite differences."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from typer.testing import CliRunner

from gradcli.cli import _program_after_double_dash, app

# The generated tables (a case for every example of every op) are sampled on a developer's run and
# whole where GRADCLI_FULL_TESTS=1 (CI sets it): every op keeps its first case either way.
FULL_TESTS = __import__("os").environ.get("GRADCLI_FULL_TESTS") == "1"


def sampled(cases: list[Any], key: Callable[[Any], str], every: int = 3) -> list[Any]:
    """All `cases` where FULL_TESTS; else the first case of each `key` (an op's name) and every
    `every`-th case of the rest, the same ones every run."""
    if FULL_TESTS:
        return cases
    seen: set[str] = set()
    kept = []
    for position, case in enumerate(cases):
        first = key(case) not in seen
        seen.add(key(case))
        if first or position % every == 0:
            kept.append(case)
    return kept


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def cli(*args: str, stdin: str | None = None) -> Run:
    """Run `gradcli ARGS` in-process (fast), with stdout and stderr apart."""
    result = CliRunner().invoke(app, _program_after_double_dash(list(args)), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def beside_pytorch(program: str, timeout: int = 120) -> tuple[str, Run]:
    """What this Python (which has torch) prints running `program`, and `gradcli run -` of it as a process, both on
    2 threads with MKL (the mkl extra), whose bits are the CPU's: the two on the same machine."""
    env = {**__import__("os").environ, "OMP_NUM_THREADS": "2", "MKL_NUM_THREADS": "2"}
    by_pytorch = subprocess.run([sys.executable, "-"], input=program, capture_output=True, text=True, timeout=timeout,
                                check=True, env=env)
    done = subprocess.run([sys.executable, "-m", "gradcli", "run", "-"], input=program, capture_output=True, text=True,
                          timeout=timeout, env=env)
    return by_pytorch.stdout, Run(done.returncode, done.stdout, done.stderr)


def process(*args: str, stdin: str | None = None) -> Run:
    """Run `python -m gradcli ARGS` as a separate process, exactly as a shell would."""
    done = subprocess.run(
        [sys.executable, "-m", "gradcli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )
    return Run(done.returncode, done.stdout, done.stderr)


def central_difference(f: Callable[[list[np.ndarray]], float], args: list[np.ndarray], which: int,
                       step: float = 1e-6) -> np.ndarray:
    """d f / d args[which], element by element, by central differences."""
    base = args[which]
    gradient = np.zeros_like(base, dtype=float)
    for position in np.ndindex(base.shape):
        up = [a.copy() for a in args]
        down = [a.copy() for a in args]
        h = step * max(1.0, abs(float(base[position])))
        up[which][position] += h
        down[which][position] -= h
        gradient[position] = (f(up) - f(down)) / (2 * h)
    return gradient


def tables() -> Any:
    """polars, which writes and reads the Parquet and Arrow files of a test of them; the test skips
    where the data extra (pyarrow: gradcli reads and writes those files with it) or polars is not
    installed, so that the rest of its module runs without them."""
    import pytest

    pytest.importorskip("pyarrow")
    return pytest.importorskip("polars")


class Tables:
    """polars, imported by a test's first use of it (tables()): `pl = Tables()` at a module's top."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # pytest looks for its own marks on every name of a module
            raise AttributeError(name)
        return getattr(tables(), name)
