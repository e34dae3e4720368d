"""The regression corpus of issue #21: every example that ever worked stays in the suite.

tests/reference/corpus.jsonl holds one case a line: a `gradcli` command line (`grad`, `graph`,
`explain`, `jacobian`, `hessian`, `jvp`, with its --at points and its --seed, --of, --wrt and
--tangent: "argv") or a call of the library (`grad`, `jacobian`, `hessian`, `jvp` with `at=`,
`seed=`, `of=`, `wrt=`, `tangent=`, `mode=`: "call", "program", "kwargs"), where it came from
("sources": the first two), and what gradcli answered at BASELINE: "exit", and for exit 0
"answer": the --json keys at, tangent, value, grad, jacobian, hessian, jvp (`graph` and
`explain`: the exit code alone), or the library result's value, grad, jacobian/blocks, jvp.
Arrays and non-finite numbers of library calls are tagged (`encode`): {"ndarray": nested lists,
"dtype" if not float64, "shape" if empty}, {"float": "nan"}, {"tuple": [...]}; the file is
standard JSON. tests/test_corpus.py holds gradcli to it.

Where the cases come from (`mine`, then `record`):

- README.md, every version in git history: the `gradcli ...` command lines of its code blocks and
  code spans (`printf '...' | gradcli ... --points -`: each point becomes an --at), and the
  `grad(...)` / `grad_table(...)` calls of its Python blocks (a table's rows, each a point);
- DESIGN.md (/work/shared): the worked examples table and its command lines;
- samples/*.grad, every version: the command on each file's second line, the file's text inlined;
- the tests, current and removed: every commit that added or changed a tests/test_*.py runs those
  files at that commit (in a worktree, `git checkout` commit after commit), and the baseline runs
  the whole suite, with this file as a pytest plugin (`-p make_corpus`, CORPUS_RECORD=FILE). The
  plugin records every command line the tests ran (typer's CliRunner, `python -m gradcli`
  subprocesses, the program of `-f`, the first POINTS_PER_FILE points of `--points`, each an
  --at, read from where the test put them; `graph` and `explain` also as `grad`) and every call
  of the library's grad/jacobian/hessian/jvp (a Tape by the text it was compiled from), with what
  gradcli answered at that commit. Options other than the five above are left out (--paths,
  --check, --symbolic, --strict, formats: views, not numbers); hypothesis tests run 8
  derandomized examples each;
- issue #21's plain math (ISSUE_CASES), only where an older commit answered it.

Left out: programs or --at texts longer than MAX_TEXT (limits tests), answers longer than
MAX_ANSWER, cases slower than SLOW at the baseline; a test function that gave more than
PER_FUNCTION cases (the tests that walk every op at every special point) gives that many, the
same ones on every run (the smallest hashes), except WHOLE.

`record` (run with PYTHONPATH=<baseline worktree>, so that gradcli is BASELINE's) puts every
distinct case to gradcli in its own process: command lines through typer's CliRunner (the
derivative commands with --json, `graph` with --format json), library calls directly. A case
that crashes at the baseline (exit 4), or one of the issue's that is refused there, is put to
older commits too (`probe_history`: every 4th commit that changed gradcli/); where one answered
it (exit 0), it is a regression: its line has "regression" (since when, and PyTorch's answer
where `torch_answer` knows it, from torch.maximum/minimum) and test_corpus.py lists it in
REGRESSIONS_TO_FIX, xfail(strict=True). `record` prints the cases an older commit answered
otherwise (an older commit's bug fixed, or a test that changed a rule on purpose) and those
refused at the baseline that an older commit answered.

Regenerate (about 25 minutes on 2 cores, most of it the old tests; torch for the regressions):

    cd /work/main && . .venv/bin/activate
    git worktree add /tmp/baseline a8f5c0f
    python tests/reference/make_corpus.py mine --baseline /tmp/baseline --cache /tmp/corpus-cache
    PYTHONPATH=/tmp/baseline python tests/reference/make_corpus.py record --cache /tmp/corpus-cache
    git worktree remove /tmp/baseline

`mine` keeps what it found per commit in --cache (a JSON Lines file and a .done for each) and
runs again only what is missing; it removes its worktrees (/tmp/corpus-history-N) at the end.
The baseline worktree must hold nothing but a8f5c0f's files (no copy of test_corpus.py: its
library calls would be recorded too).
"""

from __future__ import annotations

import argparse
import ast
import csv
import hashlib
import io
import json
import math
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

BASELINE = "a8f5c0f"
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CORPUS = HERE / "corpus.jsonl"
DESIGN = Path("/work/shared/DESIGN.md")

COMMANDS = ("grad", "graph", "explain", "jacobian", "hessian", "jvp")
DERIVATIVE_COMMANDS = ("grad", "jacobian", "hessian", "jvp")
# The options each command keeps in the corpus: those that change the numbers.
KEPT = {"grad": ("at", "seed", "of", "wrt"), "graph": ("at", "seed", "of"), "explain": ("at", "seed", "of", "wrt"),
        "jacobian": ("at", "wrt"), "hessian": ("at", "wrt"), "jvp": ("at", "tangent")}
VALUE_OPTIONS = {"--at": "at", "-a": "at", "--seed": "seed", "--of": "of", "--wrt": "wrt", "--tangent": "tangent",
                 "-t": "tangent", "--file": "file", "-f": "file", "--points": "points", "--format": "format",
                 "--max-paths": "", "--tol": "", "--symbolic-limit": "", "--symbolic-seconds": "", "--chunk-size": "",
                 "--points-format": "points_format", "--output": ""}
FLAGS = {"--json", "--csv", "--paths", "--check", "--symbolic", "--strict", "--skip-bad"}
# Keys of a command's --json document that hold what was computed (and the point as it was read).
ANSWER_KEYS = ("at", "tangent", "value", "grad", "jacobian", "hessian", "jvp")
LIBRARY = ("grad", "jacobian", "hessian", "jvp")
LIBRARY_KEYWORDS = {"grad": ("seed", "of", "wrt"), "jacobian": ("wrt", "mode"), "hessian": ("wrt",),
                    "jvp": ("tangent",)}

MAX_TEXT = 4_000  # a program, or an --at, longer than this is a limits test, not an example
POINTS_PER_FILE = 3  # the first points of a --points input, each a case
MEMORY = 10 * 2**30  # bytes of address space for a run of old tests (an old test may allocate without limits)
MAX_ANSWER = 20_000  # characters of JSON: a larger answer is a limits test's vector, not an example
SLOW = 0.25  # seconds: a case slower than this at the baseline is left out (the test has 20 s)
PER_FUNCTION = 800  # cases of one test function kept in the corpus (a sample where it gave more), but:
# the calls with PyTorch's params, by position and keyword: how calls bind to ops, all of them
WHOLE = ("tests/test_nn.py::test_calls_with_params_give_pytorchs_values_and_gradients",)


# --- values in JSON: standard JSON, arrays and non-finite floats tagged -------------------------


def encode(value: Any) -> Any:
    """A Python/NumPy value as standard JSON: {"float": "nan"}, {"tuple": [...]}, and an array as
    {"ndarray": nested lists} with "dtype" where it is not float64 and "shape" where it is empty."""
    import numpy as np

    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float) and not isinstance(value, np.generic):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.asarray(value)
        if array.dtype.kind not in "biuf":
            raise TypeError(f"not a number array: {array.dtype}")
        tagged: dict[str, Any] = {"ndarray": encode(array.tolist())}
        if array.dtype != np.float64:
            tagged["dtype"] = str(array.dtype)
        if array.size == 0:
            tagged["shape"] = list(array.shape)
        return tagged
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        if set(value) & {"float", "ndarray", "tuple"} and len(value) <= 3:
            raise TypeError("a dict that looks like a tag")
        return {k: encode(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__}")


def decode(value: Any) -> Any:
    import numpy as np

    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"float"}:  # an older encode wrote np.float64's repr: np.float64(nan)
            return float(re.sub(r"^np\.float64\((.*)\)$", r"\1", value["float"]))
        if set(value) == {"tuple"}:
            return tuple(decode(v) for v in value["tuple"])
        if "ndarray" in value and set(value) <= {"ndarray", "dtype", "shape"}:
            array = np.array(decode(value["ndarray"]), dtype=value.get("dtype", "float64"))
            return array.reshape(value["shape"]) if "shape" in value else array
        return {k: decode(v) for k, v in value.items()}
    return value


def key_of(case: dict[str, Any]) -> str:
    return json.dumps(case, sort_keys=True, ensure_ascii=False)


def id_of(case: dict[str, Any]) -> str:
    return hashlib.sha1(key_of(case).encode("utf-8", "surrogatepass")).hexdigest()[:12]


def dumps(value: Any) -> str:
    """One JSON line, UTF-8 where it can be (a program of bytes that are not UTF-8 is written escaped)."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value)
    return text


# --- command lines -> cases ---------------------------------------------------------------------


def split_top(text: str) -> list[str]:
    """`a=1,b=[1,2]` -> ["a=1", "b=[1,2]"]: commas inside brackets and parentheses do not split."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in (p.strip() for p in parts) if p]


def parse_command(argv: list[str]) -> dict[str, Any] | None:
    """A gradcli command line -> its parts, or None where it is not one we keep (an unknown option, two programs)."""
    if not argv or argv[0] not in COMMANDS:
        return None
    parts: dict[str, Any] = {"command": argv[0], "program": None, "at": [], "tangent": []}
    rest = list(argv[1:])
    i = 0
    while i < len(rest):
        token = rest[i]
        if token == "--":
            if i + 1 >= len(rest) or parts["program"] is not None:
                return None
            parts["program"] = rest[i + 1]
            i += 2
            continue
        if token.startswith("-") and len(token) > 1 and not re.match(r"^-[\d.]", token):
            name, _, inline = token.partition("=")
            if name in FLAGS:
                i += 1
                continue
            if name not in VALUE_OPTIONS:
                return None  # -h, --version, a bad option: not a computation
            if inline or "=" in token:
                value = inline
                i += 1
            elif i + 1 < len(rest):
                value = rest[i + 1]
                i += 2
            else:
                return None
            field = VALUE_OPTIONS[name]
            if field in ("at", "tangent"):
                parts[field].append(value)
            elif field:
                parts[field] = value
            continue
        if parts["program"] is not None:
            return None
        parts["program"] = token
        i += 1
    return parts


def case_argv(command: str, program: str, options: dict[str, Any]) -> list[str]:
    argv = [command, *(["--", program] if program.startswith("-") else [program])]
    for field in KEPT[command]:
        value = options.get(field)
        if field in ("at", "tangent"):
            for text in value or ():
                argv += [f"--{field}", text]
        elif value is not None:
            argv += [f"--{field}", value]
    return argv


def _literal(value: Any) -> str | None:
    """A JSON Lines point's value as --at text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return repr(value)
    if isinstance(value, list):
        items = [_literal(v) for v in value]
        return None if any(i is None for i in items) else "[" + ",".join(items) + "]"  # type: ignore[arg-type]
    return None


def points_of(text: str) -> list[dict[str, str]]:
    """The first points of a --points text (JSON Lines or CSV with a header): name -> --at text."""
    text = text.lstrip("\ufeff")
    lines = [line for line in text.splitlines() if line.strip()]
    points: list[dict[str, str]] = []
    if not lines:
        return points
    if lines[0].lstrip().startswith("{"):
        for line in lines[:POINTS_PER_FILE]:
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if not isinstance(obj, dict):
                continue
            point = {k: _literal(v) for k, v in obj.items()}
            if point and all(v is not None and k.isidentifier() for k, v in point.items()):
                points.append(point)  # type: ignore[arg-type]
        return points
    rows = list(csv.reader(io.StringIO("\n".join(lines[: POINTS_PER_FILE + 1]))))
    header = [h.strip() for h in rows[0]]
    for row in rows[1:]:
        if len(row) != len(header) or any(not c.strip() for c in row):
            continue
        nested: dict[str, Any] = {}
        good = True
        for column, cell in zip(header, row):
            match = re.fullmatch(r"([A-Za-z_]\w*)((?:\[\d+\])*)", column)
            if not match:
                good = False
                break
            name, index = match.group(1), [int(i) for i in re.findall(r"\d+", match.group(2))]
            if not index:
                nested[name] = cell.strip()
                continue
            slot = nested.setdefault(name, {})
            if not isinstance(slot, dict):
                good = False
                break
            for i in index[:-1]:
                slot = slot.setdefault(i, {})
            slot[index[-1]] = cell.strip()
        if not good:
            continue

        def text_of(v: Any) -> str:
            if isinstance(v, dict):
                return "[" + ",".join(text_of(v[i]) for i in sorted(v)) + "]"
            return v

        points.append({name: text_of(v) for name, v in nested.items()})
    return points


def cases_of_command(argv: list[str], stdin: str | None = None, files: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The corpus cases of one command line: itself (options kept: KEPT), a grad beside a graph or an
    explain, and one case per first point of --points."""
    parts = parse_command(argv)
    if parts is None:
        return []
    files = files or {}
    program = parts["program"]
    if program is None and parts.get("file") is not None:
        program = stdin if parts["file"] == "-" else files.get(parts["file"])
        if program is not None and program.startswith("\ufeff"):
            program = program[1:]
    if program is None or len(program) > MAX_TEXT or program.strip() in ("PROGRAM", "...", "FILE"):
        return []  # too long to be an example, or a placeholder of a synopsis
    if any(len(text) > MAX_TEXT for text in parts["at"] + parts["tangent"]):
        return []
    command = parts["command"]
    commands = [command] + (["grad"] if command in ("graph", "explain") and parts["at"] else [])
    option_sets = [parts]
    if parts.get("points") is not None:
        source = stdin if parts["points"] == "-" else files.get(parts["points"])
        option_sets = []
        try:
            points = points_of(source or "")
        except (ValueError, RecursionError, csv.Error):
            points = []
        for point in points:
            given = [item for text in parts["at"] for item in split_top(text)
                     if item.partition("=")[0].strip() not in point]
            option_sets.append({**parts, "at": [",".join(f"{k}={v}" for k, v in point.items()), *given]})
    cases = []
    for options in option_sets:
        for name in commands:
            cases.append({"argv": case_argv(name, program, options)})
    return cases


# --- the recorder: a pytest plugin (-p make_corpus, CORPUS_RECORD=FILE) -------------------------

_state = threading.local()
_lock = threading.Lock()
_out: Any = None
_current_test = ""
_tapes: dict[int, tuple[Any, str]] = {}  # the last tapes compiled (a few: they hold their values), id -> program
_per_test: dict[str, int] = defaultdict(int)
PER_TEST = 300  # past this many records from one test function, one in 16 (by the case's hash) is kept


def _busy() -> bool:
    return getattr(_state, "depth", 0) > 0


class _Busy:
    def __enter__(self) -> None:
        _state.depth = getattr(_state, "depth", 0) + 1

    def __exit__(self, *exc: object) -> None:
        _state.depth -= 1


def _write(record: dict[str, Any]) -> None:
    record["test"] = _current_test
    if "case" in record:
        function = _current_test.split("[")[0]
        _per_test[function] += 1
        if _per_test[function] > PER_TEST and int(id_of(record["case"]), 16) % 16:
            return
    with _lock:
        _out.write(json.dumps(record) + "\n")
        _out.flush()


def _read(path: str) -> str | None:
    try:
        if not Path(path).is_file():
            return None  # /dev/zero, a pipe
        with open(path, "rb") as file:
            data = file.read(256_001)
        if len(data) > 256_000:
            return None
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _answer_of_document(stdout: str) -> Any:
    try:
        document = json.loads(stdout)
    except ValueError:
        return None
    if not isinstance(document, dict):
        return None
    return {k: document[k] for k in ANSWER_KEYS if k in document}


def _files_of(argv: list[str]) -> dict[str, str]:
    files = {}
    for i, token in enumerate(argv[:-1]):
        if token in ("-f", "--file", "--points") and argv[i + 1] != "-":
            text = _read(argv[i + 1])
            if text is not None:
                files[argv[i + 1]] = text
    return files


def _answer_now(invoke: Any, runner: Any, app: Any, case: dict[str, Any]) -> dict[str, Any]:
    """What gradcli answers to a corpus case at this commit (in the test's own process)."""
    argv = list(case["argv"])
    command = argv[0]
    if command in DERIVATIVE_COMMANDS:
        argv.append("--json")
    elif command == "graph":
        argv += ["--format", "json"]
    if "--" in argv:  # the program after `--`, the options before it (as tests/helpers.py's cli does)
        split = argv.index("--")
        argv = [*argv[:split], *argv[split + 2:], "--", argv[split + 1]]
    try:
        result = invoke(runner, app, argv)
    except Exception as error:
        return {"exit": 4, "error": repr(error)[:200]}
    exit_code = result.exit_code
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exit_code = 4
    answer: dict[str, Any] = {"exit": exit_code}
    if exit_code == 4:
        answer["error"] = (result.stderr.strip() or repr(result.exception))[:200]
    if exit_code == 0 and command in DERIVATIVE_COMMANDS:
        answer["answer"] = _answer_of_document(result.stdout)
    return answer


def _record_command(invoke: Any, runner: Any, app: Any, argv: list[str], stdin: Any, exit_code: int | None) -> None:
    if not argv or argv[0] not in COMMANDS:
        return
    if isinstance(stdin, bytes):
        stdin = stdin.decode("utf-8", "replace")
    if stdin is not None and not isinstance(stdin, str):
        stdin = None
    if stdin is not None and len(stdin) > 256_000:
        stdin = None
    files = _files_of(argv)
    for case in cases_of_command(argv, stdin, files):
        old = _answer_now(invoke, runner, app, case) if invoke is not None else {}
        _write({"kind": "cli", "case": case, "old": old, "raw": argv if len(json.dumps(argv)) < 2000 else None,
                "raw_exit": exit_code})


def _program_text(program: Any) -> str | None:
    if isinstance(program, str):
        return program
    entry = _tapes.get(id(program))
    if entry is not None and entry[0] is program:
        return entry[1]
    return None


def _library_answer(function: str, result: Any) -> Any:
    if function == "grad":
        return {"value": encode(result.value), "grad": encode(dict(result.grad))}
    if function == "jacobian":
        return {"value": encode(tuple(result.outputs)), "jacobian": encode(list(result.blocks))}
    if function == "jvp":
        return {"value": encode(result.value), "jvp": encode(result.jvp)}
    return {"value": encode(result.value), "grad": encode(dict(result.grad)), "hessian": encode(dict(result.blocks))}


def library_case(function: str, program: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any] | None:
    text = _program_text(program)
    if text is None or len(text) > MAX_TEXT:
        return None
    names = ("at", "tangent") if function == "jvp" else ("at",)
    given = dict(zip(names, args))
    given.update({k: v for k, v in kwargs.items() if k in ("at", *LIBRARY_KEYWORDS[function])})
    try:
        encoded = {k: encode(v) for k, v in given.items() if v is not None}
    except TypeError:
        return None
    if len(json.dumps(encoded)) > 20_000:
        return None
    return {"call": function, "program": text, "kwargs": encoded}


def _wrap_library(function_name: str, function: Any) -> Any:
    def recorded(program: Any, *args: Any, **kwargs: Any) -> Any:
        if _busy():
            return function(program, *args, **kwargs)
        case = library_case(function_name, program, args, kwargs)
        with _Busy():
            try:
                result = function(program, *args, **kwargs)
            except Exception as error:
                if case is not None:
                    code = getattr(error, "exit_code", None)
                    _write({"kind": "api", "case": case,
                            "old": {"exit": int(code) if isinstance(code, int) else 4, "error": repr(error)[:200]}})
                raise
            if case is not None:
                try:
                    answer = _library_answer(function_name, result)
                except Exception:
                    answer = None
                _write({"kind": "api", "case": case, "old": {"exit": 0, "answer": answer}})
            return result

    recorded.__wrapped__ = function  # type: ignore[attr-defined]
    recorded._corpus = True  # type: ignore[attr-defined]
    return recorded


def _install() -> None:
    import importlib

    import typer.testing

    original_invoke = typer.testing.CliRunner.invoke

    def invoke(self: Any, app: Any, args: Any = None, input: Any = None, *rest: Any, **kwargs: Any) -> Any:
        if _busy():
            return original_invoke(self, app, args, input, *rest, **kwargs)
        with _Busy():
            result = original_invoke(self, app, args, input, *rest, **kwargs)
            argv = [args] if isinstance(args, str) else list(args or [])
            try:
                _record_command(original_invoke, self, app, [str(a) for a in argv], input, result.exit_code)
            except Exception as error:
                _write({"kind": "recorder-error", "error": repr(error)[:300]})
        return result

    typer.testing.CliRunner.invoke = invoke  # type: ignore[method-assign]

    original_run = subprocess.run

    def run(args: Any, *rest: Any, **kwargs: Any) -> Any:
        result = original_run(args, *rest, **kwargs)
        if _busy() or not isinstance(args, (list, tuple)):
            return result
        argv = [str(a) for a in args]
        for i, token in enumerate(argv):
            if (token == "gradcli" and i > 0 and argv[i - 1] == "-m") or token.endswith("/gradcli") or token == "gradcli":
                try:
                    from typer.testing import CliRunner

                    from gradcli.cli import app  # type: ignore[attr-defined]

                    with _Busy():
                        stdin = kwargs.get("input")
                        # a process under limits of its own (RLIMIT_AS) is not run again here, without them
                        invoke_again = None if kwargs.get("preexec_fn") else original_invoke
                        _record_command(invoke_again, CliRunner(), app, argv[i + 1:], stdin,
                                        getattr(result, "returncode", None))
                except Exception as error:
                    _write({"kind": "recorder-error", "error": repr(error)[:300]})
                break
        return result

    subprocess.run = run  # type: ignore[assignment]

    wrapped: dict[int, Any] = {}
    for module_name in ("gradcli.derivatives", "gradcli.autodiff", "gradcli"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in LIBRARY:
            function = module.__dict__.get(name)
            if function is None and module_name == "gradcli":
                try:
                    function = getattr(module, name)
                except AttributeError:
                    function = None
            if function is None or not callable(function) or getattr(function, "_corpus", False):
                continue
            if id(function) not in wrapped:
                wrapped[id(function)] = _wrap_library(name, function)
            setattr(module, name, wrapped[id(function)])
    try:
        tape_module = importlib.import_module("gradcli.tape")
        import gradcli
    except ImportError:
        return
    original_compile = tape_module.__dict__.get("compile_program")
    if original_compile is None or getattr(original_compile, "_corpus", False):
        return

    def remembering(text: Any, *args: Any, **kwargs: Any) -> Any:
        tape = original_compile(text, *args, **kwargs)
        if isinstance(text, str) and len(text) <= MAX_TEXT:
            _tapes[id(tape)] = (tape, text)
            while len(_tapes) > 64:
                del _tapes[next(iter(_tapes))]
        return tape

    remembering._corpus = True  # type: ignore[attr-defined]
    tape_module.compile_program = remembering
    gradcli.compile_program = remembering  # type: ignore[attr-defined]


def pytest_configure(config: Any) -> None:
    global _out
    path = os.environ.get("CORPUS_RECORD")
    if not path:
        return
    _out = open(path, "a", encoding="utf-8")
    try:
        from hypothesis import settings

        settings.register_profile("corpus", max_examples=8, derandomize=True, deadline=None, database=None)
        settings.load_profile("corpus")
    except Exception:
        pass
    _install()


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    if _out is None:
        return
    try:
        from hypothesis import settings
    except ImportError:
        return
    for item in items:
        function = getattr(item, "obj", None)
        inner = getattr(function, "_hypothesis_internal_use_settings", None)
        if inner is not None:
            try:
                function._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
                    inner, max_examples=min(inner.max_examples, 8), deadline=None, database=None, derandomize=True)
            except Exception:
                pass


def pytest_runtest_setup(item: Any) -> None:
    global _current_test
    _current_test = item.nodeid


# --- documents: README (every version), DESIGN.md, samples -------------------------------------


def _git(*args: str, cwd: Path = REPO) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def _printf_text(text: str) -> str:
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape")


def commands_in_text(text: str) -> list[tuple[list[str], str | None]]:
    """The gradcli command lines of a Markdown text: in code blocks and in code spans."""
    found = []
    candidates = []
    in_block = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            candidates.append(line.strip().removeprefix("$ "))
        else:
            candidates += re.findall(r"`([^`]*gradcli [^`]*)`", line)
    for line in candidates:
        if "gradcli " not in line:
            continue
        try:
            tokens = shlex.split(line, comments=False)
        except ValueError:
            continue
        stdin = None
        start = None
        for i, token in enumerate(tokens):
            if token == "gradcli" and i + 1 < len(tokens) and tokens[i + 1] in COMMANDS:
                start = i + 1
                break
        if start is None:
            continue
        before = tokens[: start - 1]
        if len(before) >= 3 and before[0] == "printf" and before[-1] == "|":
            stdin = _printf_text(before[1])
        argv = []
        for token in tokens[start:]:
            if token in ("|", ">", "2>", "<", "&&", ";", "||") or token.startswith((">", "2>")):
                break
            argv.append(token)
        found.append((argv, stdin))
    return found


def _points_rows(frame: ast.expr) -> list[dict[str, Any]]:
    """pl.DataFrame({...}) / pd.DataFrame({...}) literal -> its rows."""
    if not (isinstance(frame, ast.Call) and frame.args and isinstance(frame.args[0], ast.Dict)):
        return []
    try:
        columns = ast.literal_eval(frame.args[0])
    except ValueError:
        return []
    lengths = {len(v) for v in columns.values()}
    if len(lengths) != 1:
        return []
    return [{k: v[i] for k, v in columns.items()} for i in range(lengths.pop())]


def library_calls_in_text(text: str) -> list[dict[str, Any]]:
    """grad(...) and grad_table(...) calls of a Markdown text's Python blocks, with literal arguments."""
    cases = []
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        try:
            tree = ast.parse(block)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or not node.args:
                continue
            try:
                program = ast.literal_eval(node.args[0])
            except ValueError:
                continue
            if not isinstance(program, str):
                continue
            keywords = {}
            for keyword in node.keywords:
                try:
                    keywords[keyword.arg] = ast.literal_eval(keyword.value)
                except ValueError:
                    keywords = None  # type: ignore[assignment]
                    break
            if keywords is None:
                continue
            if node.func.id in LIBRARY:
                case = library_case(node.func.id, program, (), keywords)
                if case:
                    cases.append(case)
            elif node.func.id == "grad_table" and len(node.args) >= 2:
                for row in _points_rows(node.args[1]):
                    case = library_case("grad", program, (), {**keywords, "at": {**keywords.get("at", {}), **row}})
                    if case:
                        cases.append(case)
    return cases


def design_cases() -> list[tuple[dict[str, Any], str]]:
    """DESIGN.md's worked examples table (program, point, options) and its command lines."""
    text = DESIGN.read_text()
    cases = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        program = cells[0].strip("`")
        point = ",".join(item.strip() for item in split_top(cells[1]))
        options = shlex.split(" ".join(re.findall(r"`([^`]*)`", cells[2])))
        argv = ["grad", program, "--at", point, *options]
        cases += [(c, "DESIGN.md worked examples") for c in cases_of_command(argv)]
    for argv, stdin in commands_in_text(text):
        cases += [(c, "DESIGN.md") for c in cases_of_command(argv, stdin)]
    return cases


def document_cases() -> list[tuple[dict[str, Any], str]]:
    """README.md at every commit that changed it, samples/*.grad at every commit that changed them."""
    cases: list[tuple[dict[str, Any], str]] = []
    for commit in _git("log", "--format=%h", BASELINE, "--", "README.md").split():
        text = _git("show", f"{commit}:README.md")
        where = f"README.md@{commit}"
        for argv, stdin in commands_in_text(text):
            files = {}
            for i, token in enumerate(argv[:-1]):
                if token in ("-f", "--file") and argv[i + 1].startswith("samples/"):
                    try:
                        files[argv[i + 1]] = _git("show", f"{commit}:{argv[i + 1]}")
                    except subprocess.CalledProcessError:
                        pass
            cases += [(c, where) for c in cases_of_command(argv, stdin, files)]
        cases += [(c, where) for c in library_calls_in_text(text)]
    for commit in _git("log", "--format=%h", BASELINE, "--", "samples").split():
        for path in _git("ls-tree", "-r", "--name-only", commit, "samples").split():
            if not path.endswith(".grad"):
                continue
            text = _git("show", f"{commit}:{path}")
            for line in text.splitlines()[:3]:
                line = line.lstrip("# ").strip()
                if line.startswith("gradcli "):
                    argv = shlex.split(line)[1:]
                    cases += [(c, f"samples@{commit}") for c in cases_of_command(argv, None, {path: text})]
    return cases


# --- mine: run the tests of every commit that changed them --------------------------------------


def commits_with_tests() -> list[tuple[str, list[str]]]:
    """(commit, the test files it added or changed), oldest first, the baseline left out."""
    commits = _git("log", "--reverse", "--no-merges", "--format=%H", "--diff-filter=AM", BASELINE, "--",
                   "tests/test_*.py").split()
    result = []
    for commit in commits:
        if commit.startswith(_git("rev-parse", BASELINE).strip()):
            continue
        changed = _git("diff-tree", "--no-commit-id", "--name-only", "-r", "--diff-filter=AM", commit, "--",
                       "tests/").split()
        files = [f for f in changed if re.fullmatch(r"tests/test_\w+\.py", f)]
        if files:
            result.append((commit, files))
    return result


def _memory_limit() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _run_tests(tree: Path, files: list[str], out: Path, timeout: int) -> str:
    env = {**os.environ, "CORPUS_RECORD": str(out), "PYTHONPATH": f"{tree}{os.pathsep}{HERE}",
           "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("CI", None)
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "make_corpus", "-p", "no:cacheprovider",
                               *files], cwd=tree, env=env, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=_memory_limit)
        return (done.stdout.strip().splitlines() or [""])[-1]
    except subprocess.TimeoutExpired:
        return "timed out"


def mine(baseline: Path, cache: Path, workers: int, timeout: int) -> None:
    cache.mkdir(parents=True, exist_ok=True)
    documents = cache / "documents.jsonl"
    with documents.open("w") as out:
        for case, where in design_cases() + document_cases():
            out.write(json.dumps({"kind": "doc", "case": case, "source": where}) + "\n")
    jobs: list[tuple[str, list[str]]] = [(c, f) for c, f in commits_with_tests() if not (cache / f"{c[:12]}.done").exists()]
    if not (cache / "baseline.done").exists():
        jobs.insert(0, ("baseline", ["tests"]))
    print(f"{len(jobs)} test runs to do", flush=True)

    def work(worker: int) -> None:
        tree = Path(f"/tmp/corpus-history-{worker}")
        if not tree.exists():
            _git("worktree", "add", "--detach", str(tree), BASELINE)
        try:
            for index in range(worker, len(jobs), workers):
                commit, files = jobs[index]
                name = "baseline" if commit == "baseline" else commit[:12]
                out = cache / f"{name}.jsonl"
                out.unlink(missing_ok=True)
                started = time.monotonic()
                if commit == "baseline":
                    summary = _run_tests(baseline, files, out, timeout * 4)
                else:
                    _git("checkout", "-q", "--detach", "--force", commit, cwd=tree)
                    summary = _run_tests(tree, files, out, timeout)
                (cache / f"{name}.done").write_text(summary + "\n")
                print(f"{name} {' '.join(files)}: {summary} ({time.monotonic() - started:.0f} s)", flush=True)
        finally:
            _git("worktree", "remove", "--force", str(tree))

    threads = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


# --- record: every case at the baseline ---------------------------------------------------------

# Crashes at the baseline that an older commit answered, with the answer PyTorch gives
# (torch.maximum / torch.minimum: the elementwise reading of `max(a, b)`, issue #21). Filled by
# `record` from the mined history; the expected answers are computed with torch where it is
# installed (see torch_answer).
def _regression(worked: list[str], error: str | None) -> dict[str, Any]:
    if worked:
        error = f"exit 4 ({error})" if not (error or "").startswith("exit") else error
        reason = (f"a regression: {error} at {BASELINE}, answered (exit 0) at {worked[0]}"
                  f"{f' and {len(worked) - 1} other commits' if len(worked) > 1 else ''}; issue #21")
    else:
        reason = f"a crash: exit 4 at {BASELINE} ({error}), and never answered before; issue #21: exit 4 never happens"
    return {"reason": reason, "worked_at": worked[:5]}


def run_case(case: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """A case put to the gradcli on sys.path: its exit code, and for exit 0 what it computed."""
    started = time.perf_counter()
    if "argv" in case:
        answer = _answer_now(*_baseline_invoker(), case)
    else:
        import importlib

        kwargs = {k: decode(v) for k, v in case["kwargs"].items()}
        try:
            module = importlib.import_module("gradcli" if case["call"] == "grad" else "gradcli.derivatives")
            function = getattr(module, case["call"])
        except (ImportError, AttributeError) as error:
            return {"exit": None, "error": repr(error)}, 0.0
        try:
            result = function(case["program"], **kwargs)
            answer = {"exit": 0, "answer": _library_answer(case["call"], result)}
        except Exception as error:
            code = getattr(error, "exit_code", None)
            answer = {"exit": int(code) if isinstance(code, int) and code != 4 else 4, "error": repr(error)[:200]}
    return answer, time.perf_counter() - started


_invoker: Any = None


def _baseline_invoker() -> Any:
    global _invoker
    if _invoker is None:
        from typer.testing import CliRunner

        from gradcli.cli import app

        _invoker = (CliRunner.invoke, CliRunner(), app)
    return _invoker


def _source_kind(where: str) -> str:
    if where.startswith("README"):
        return "README.md"
    if where.startswith("DESIGN.md worked"):
        return "DESIGN.md worked examples"
    if where.startswith("DESIGN"):
        return "DESIGN.md"
    if where.startswith("samples"):
        return "samples"
    if where.startswith("issue"):
        return "issue #21"
    return "tests"


def load_mined(cache: Path) -> tuple[dict[str, dict[str, Any]], dict[str, list[tuple[str, dict[str, Any]]]]]:
    """case key -> {case, sources}; case key -> [(commit, what gradcli answered there)].

    A test that walks a whole table (thousands of special points) gives a sample of its cases:
    at most PER_FUNCTION of those it was the first to give, the same ones on every run (by hash).
    """
    cases: dict[str, dict[str, Any]] = {}
    history: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    order = {c[:12]: i for i, (c, _) in enumerate(commits_with_tests())}
    paths = sorted(cache.glob("*.jsonl"), key=lambda p: (p.stem != "documents", order.get(p.stem, 10**6)))
    for path in paths:
        commit = "documents" if path.stem == "documents" else (BASELINE if path.stem == "baseline" else path.stem[:7])
        for line in path.read_text().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("kind") not in ("cli", "api", "doc"):
                continue
            case = record["case"]
            if "kwargs" in case:
                case["kwargs"] = {k: encode(decode(v)) for k, v in case["kwargs"].items()}
            key = key_of(case)
            if record["kind"] == "doc":
                source = record["source"]
            else:
                source = f"{record.get('test', '').split('[')[0]}@{commit}"
            entry = cases.setdefault(key, {"case": case, "sources": []})
            if source not in entry["sources"] and len(entry["sources"]) < 2:
                entry["sources"].append(source)
            old = record.get("old")
            if old:
                if record["kind"] == "api" and old.get("answer") is not None:
                    try:
                        old["answer"] = encode(decode(old["answer"]))
                    except (TypeError, ValueError):
                        old["answer"] = None
                history[key].append((commit, old))
    by_function: dict[str, list[str]] = defaultdict(list)
    for key, entry in cases.items():
        by_function[entry["sources"][0].split("@")[0]].append(key)
    for function, keys in by_function.items():
        if len(keys) > PER_FUNCTION and function.startswith("tests/") and function not in WHOLE:
            for key in sorted(keys, key=lambda k: id_of(cases[k]["case"]))[PER_FUNCTION:]:
                del cases[key]
    return cases, history


# The plain math issue #21 names as broken at the baseline (its points where it gives none: x=2 as
# for max(x, 0), x=-1 in hardsigmoid's sloped part, a vector across the kink): in the corpus
# only where an older commit answered them.
ISSUE_CASES = [
    ["grad", "max(x, 0)", "--at", "x=2"],
    ["grad", "min(relu(x), 6)", "--at", "x=2"],
    ["grad", "min(max(x + 3, 0), 6) / 6", "--at", "x=-1"],
    ["grad", "max(x, 0)", "--at", "x=[-1,0.5,2]", "--seed", "ones"],
    ["grad", "sum(g*max([1, 2, 3], g))", "--at", "g=[1.5,2.5,2.5]"],
]
_TORCH_CALLS = ("max", "min", "relu", "sum")


def torch_answer(case: dict[str, Any]) -> dict[str, Any] | None:
    """PyTorch's answer (float64) to a grad case whose program calls only max/min of two values
    (torch.maximum/minimum), relu and sum: the keys of the case's answer."""
    try:
        import numpy as np
        import torch
    except ImportError:
        return None
    from gradcli.inputs.literals import merge_points, parse_seed

    if "argv" in case:
        parts = parse_command(case["argv"])
        if parts is None or parts["command"] != "grad" or parts.get("of") or parts.get("wrt"):
            return None
        program, point = parts["program"], merge_points(parts["at"])
        seed = None if parts.get("seed") is None else parse_seed(parts["seed"])[0]
    else:
        if case["call"] != "grad" or set(case["kwargs"]) - {"at", "seed"}:
            return None
        program = case["program"]
        kwargs = {k: decode(v) for k, v in case["kwargs"].items()}
        point, seed = kwargs.get("at", {}), kwargs.get("seed")
    calls = set(re.findall(r"([A-Za-z_]\w*)\s*\(", program))
    if not calls <= set(_TORCH_CALLS) or not re.fullmatch(r"[\w\s.,+\-*/()\[\]]*", program) or "__" in program:
        return None
    leaves = {name: torch.tensor(np.asarray(v, dtype=float), dtype=torch.float64, requires_grad=True)
              for name, v in point.items()}

    def tensors(a: Any, b: Any) -> tuple[Any, Any]:
        return tuple(v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=torch.float64) for v in (a, b))

    namespace = {"max": lambda a, b: torch.maximum(*tensors(a, b)), "min": lambda a, b: torch.minimum(*tensors(a, b)),
                 "relu": torch.relu, "sum": torch.sum, **leaves}
    out = eval(compile(program, "<corpus>", "eval"), {"__builtins__": {}}, namespace)
    if seed is None:
        weight = None
    elif isinstance(seed, str):
        weight = torch.ones_like(out)
    else:
        weight = torch.tensor(np.asarray(seed, dtype=float), dtype=torch.float64)
    grads = torch.autograd.grad(out, list(leaves.values()), weight, allow_unused=True, materialize_grads=True)
    value = out.detach().numpy()
    grad = {n: g.numpy() for n, g in zip(leaves, grads)}
    if "argv" in case:
        return {"at": {n: _json_number(np.asarray(v, dtype=float).tolist()) for n, v in point.items()},
                "value": _json_number(value.tolist()), "grad": {n: _json_number(g.tolist()) for n, g in grad.items()}}
    return {"value": encode(value), "grad": encode(grad)}


def _json_number(value: Any) -> Any:
    if isinstance(value, list):
        return [_json_number(v) for v in value]
    return value if math.isfinite(value) else None


def record(cache: Path, output: Path) -> None:
    import gradcli

    assert Path(gradcli.__file__).resolve().parent.parent != REPO, "run record with PYTHONPATH=<baseline worktree>"
    head = _git("rev-parse", "--short", "HEAD", cwd=Path(gradcli.__file__).resolve().parent.parent).strip()
    assert head == BASELINE, f"the gradcli on sys.path is at {head}, not {BASELINE}"
    _memory_limit()  # a case of an old test may allocate what the limits of that time let through
    mined, history = load_mined(cache)
    for argv in ISSUE_CASES:
        for case in cases_of_command(argv):
            mined.setdefault(key_of(case), {"case": case, "sources": []})["sources"].append("issue #21")
    print(f"{len(mined)} distinct cases", flush=True)
    lines = []
    slow = []
    big: list[dict[str, Any]] = []
    notes: list[str] = []
    crashed: list[str] = []
    counts: dict[str, int] = defaultdict(int)
    for key, entry in mined.items():
        case = entry["case"]
        answer, seconds = run_case(case)
        if seconds > SLOW:  # the first of its kind imports what it needs: the second run says
            answer, seconds = run_case(case)
        if seconds > SLOW:
            slow.append((seconds, case))
            continue
        if len(json.dumps(answer.get("answer"))) > MAX_ANSWER:
            big.append(case)
            continue
        line: dict[str, Any] = {"id": id_of(case), **case, "sources": entry["sources"], "exit": answer["exit"]}
        if answer["exit"] == 0 and answer.get("answer") is not None:
            line["answer"] = answer["answer"]
        if answer["exit"] == 4:
            line["error"] = answer.get("error")
            crashed.append(key)
        elif answer["exit"] != 0 and "issue #21" in entry["sources"]:
            line["refusal"] = f"exit {answer['exit']}"
            crashed.append(key)
        changed = [commit for commit, old in history.get(key, [])
                   if old.get("exit") == 0 and answer["exit"] == 0 and old.get("answer") is not None
                   and line.get("answer") is not None and not _same(old["answer"], line["answer"])]
        if changed:  # said, not kept: an older commit's fix, or a test that changed a rule on purpose
            notes.append(f"answered otherwise at {', '.join(sorted(set(changed))[:3])}: {id_of(case)} "
                         f"{json.dumps(case)[:150]}")
        refused_now = [commit for commit, old in history.get(key, []) if old.get("exit") == 0 and answer["exit"] == 2]
        if refused_now and "issue #21" not in entry["sources"]:
            notes.append(f"refused at {BASELINE}, answered at {', '.join(sorted(set(refused_now))[:3])}: "
                         f"{id_of(case)} {json.dumps(case)[:150]}")
        counts[_source_kind(entry["sources"][0])] += 1
        lines.append(line)
    # A crash at the baseline, or one of the issue's cases not answered there: did an older commit
    # answer it? The tests' cases say where they ran; all are put to older commits too.
    probed = probe_history([mined[key]["case"] for key in crashed])
    chronological = {c: i for i, c in enumerate(_git("rev-list", "--reverse", "--abbrev-commit", BASELINE).split())}
    for key in crashed:
        line = next(line for line in lines if line["id"] == id_of(mined[key]["case"]))
        worked = {commit for commit, old in history.get(key, []) + probed.get(key, []) if old.get("exit") == 0}
        worked_at = sorted(worked, key=lambda c: chronological.get(c, 0))
        if not worked_at and line["exit"] != 4:
            print(f"issue #21's {line['argv']}: exit {line['exit']} at {BASELINE}, never answered before: left out")
            lines.remove(line)
            continue
        line["regression"] = _regression(worked_at, line.get("error") or line.get("refusal"))
        if worked_at:
            try:
                expected = torch_answer(line)
            except Exception as error:
                print(f"no PyTorch answer for {line['id']}: {error!r}")
                expected = None
            if expected is not None:
                line["regression"]["expect"] = {"answer": expected, "by": "PyTorch (float64): torch.maximum/minimum "
                                                "for max/min of two values"}
        print(f"regression {line['id']}: {line['regression']}")
    lines.sort(key=lambda line: (_source_kind(line["sources"][0]), line["sources"][0], line["id"]))
    with output.open("w") as out:
        for line in lines:
            out.write(dumps(line) + "\n")
    print(f"{len(lines)} cases written to {output}; by source: {dict(counts)}")
    print(f"exits: { {code: sum(1 for x in lines if x['exit'] == code) for code in sorted({x['exit'] for x in lines})} }")
    for note in notes:
        print(note)
    print(f"left out for answers past {MAX_ANSWER:,} characters: {len(big)}")
    print(f"left out as slow (> {SLOW} s): {len(slow)}")
    for seconds, case in sorted(slow, key=lambda s: -s[0])[:20]:
        print(f"  {seconds:.2f} s {json.dumps(case)[:200]}")


def probe_history(cases: list[dict[str, Any]], every: int = 4) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Each case put to older commits (every `every`-th commit that changed gradcli/, the first and
    the last), in a worktree, one process a commit: case key -> [(commit, answer)]."""
    found: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    if not cases:
        return found
    commits = _git("log", "--reverse", "--format=%h", BASELINE, "--", "gradcli").split()[:-1]
    commits = sorted(set(commits[::every] + commits[-1:] + commits[:1]), key=commits.index)
    tree = Path("/tmp/corpus-probe")
    if not tree.exists():
        _git("worktree", "add", "--detach", str(tree), BASELINE)
    todo = Path("/tmp/corpus-probe-cases.json")
    todo.write_text(json.dumps(cases))
    try:
        for commit in commits:
            _git("checkout", "-q", "--detach", "--force", commit, cwd=tree)
            env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"}
            try:
                done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "answer", str(todo)], env=env,
                                      capture_output=True, text=True, timeout=300, preexec_fn=_memory_limit)
            except subprocess.TimeoutExpired:
                continue
            for line in done.stdout.splitlines():
                try:
                    key, answer = json.loads(line)
                except ValueError:
                    continue
                found[key].append((commit, answer))
            print(f"probed {commit}: {sum(1 for v in found.values() if v and v[-1][0] == commit and v[-1][1].get('exit') == 0)}"
                  f" of {len(cases)} answered", flush=True)
    finally:
        _git("worktree", "remove", "--force", str(tree))
    return found


def answer_cases(path: Path) -> None:
    """`answer FILE`: each case of FILE put to the gradcli on sys.path, one JSON line each: [key, answer]."""
    for case in json.loads(path.read_text()):
        try:
            answer, _ = run_case(case)
        except Exception as error:
            answer = {"exit": None, "error": repr(error)[:200]}
        print(json.dumps([key_of(case), answer]), flush=True)


def _same(a: Any, b: Any) -> bool:
    """Two answers alike: the same keys, shapes and numbers (NaN as NaN, 1e-9 relative)."""
    import numpy as np

    a, b = decode(a), decode(b)
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and not (
            isinstance(a, list) and isinstance(b, list) and all(isinstance(x, (int, float)) for x in a + b)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    try:
        x = np.asarray(a, dtype=float)
        y = np.asarray(b, dtype=float)
    except (TypeError, ValueError):
        return a == b
    return x.shape == y.shape and bool(np.allclose(x, y, rtol=1e-9, atol=0, equal_nan=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    mining = commands.add_parser("mine", help="find the cases: documents, and the tests of every commit")
    mining.add_argument("--baseline", type=Path, required=True, help=f"a worktree at {BASELINE}")
    mining.add_argument("--cache", type=Path, required=True)
    mining.add_argument("--workers", type=int, default=2)
    mining.add_argument("--timeout", type=int, default=600, help="seconds for one commit's tests")
    recording = commands.add_parser("record", help="every case at the baseline (PYTHONPATH=<baseline worktree>)")
    recording.add_argument("--cache", type=Path, required=True)
    recording.add_argument("--output", type=Path, default=CORPUS)
    answering = commands.add_parser("answer", help="(used by record) cases of a JSON file, put to the gradcli on sys.path")
    answering.add_argument("cases", type=Path)
    arguments = parser.parse_args()
    if arguments.command == "mine":
        mine(arguments.baseline, arguments.cache, arguments.workers, arguments.timeout)
    elif arguments.command == "answer":
        answer_cases(arguments.cases)
    else:
        record(arguments.cache, arguments.output)


if __name__ == "__main__":
    main()
