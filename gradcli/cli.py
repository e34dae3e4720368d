"""The command line: typer commands that turn options into one library call and a view.

Nothing here computes. `_run` is the one place an error becomes output: a line naming the
problem and its column, the text with a caret under it, on stderr, and the error's exit
code; stdout stays empty. (No `from __future__ import annotations` here: typer would have to
evaluate every annotation string on each start.)
"""

import errno
import sys
import warnings
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, NoReturn, Optional

import typer

from gradcli.batch import CHUNK
from gradcli.errors import (
    CheckFailed,
    ExitCode,
    GradcliError,
    NameProblem,
    NonFiniteProblem,
    describe,
    out_of_memory,
    visible,
)

EXIT_CODES_HELP = """
Exit codes: 0 success; 1 a failed --check; 2 bad input (syntax, unknown name, missing
value, shape or seed mismatch, a limit); 3 a non-finite result under --strict; 4 a bug in
gradcli; 5 the output could not be written.
"""

COMMANDS: dict[str, Callable[..., None]] = {}


def command(function: Callable[..., None]) -> Callable[..., None]:
    """Register a command of gradcli (the app is assembled from these, see make_app)."""
    COMMANDS[function.__name__] = function
    return function


def make_app(names: list[str]) -> typer.Typer:
    """A typer app with these commands (typer builds every command's options on each run)."""
    built = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        help="Gradients you can trust and understand: the value, the gradient, and why." + EXIT_CODES_HELP,
        rich_markup_mode=None,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},  # every command inherits it
    )
    built.callback()(_commands)
    for name in names:
        built.command()(COMMANDS[name])
    return built


ProgramArg = Annotated[
    Optional[str],
    typer.Argument(help="The program, e.g. 'log(x1*x2)*sin(x2)'. A program starting with '-' goes after '--'."),
]
FileOpt = Annotated[Optional[str], typer.Option("--file", "-f", metavar="PATH",
                                                help="Read the program from PATH ('-': stdin).")]
AtOpt = Annotated[
    Optional[list[str]],
    typer.Option("--at", "-a", metavar="NAME=VALUE,...", help="Input values: NAME=VALUE[,NAME=VALUE...]; repeatable. "
                 "VALUE: 0.5, [1,3], [[1,2],[3,4]], arange(a,b,step), linspace(a,b,n)."),
]
SeedOpt = Annotated[
    Optional[str],
    typer.Option("--seed", metavar="S", help="grad_tensors: the vector of the vector-Jacobian product, of the output's shape; "
                 "'ones'; a tuple (s1, s2) for a tuple output."),
]
OfOpt = Annotated[Optional[str], typer.Option("--of", metavar="NAMES", help="Differentiate these named intermediates instead (NAME[,NAME]).")]
WrtOpt = Annotated[Optional[str], typer.Option("--wrt", metavar="NAMES", help="Report only these inputs (NAME[,NAME]).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
PointsOpt = Annotated[Optional[str], typer.Option(
    "--points", help="Evaluate at every point of FILE ('-': stdin): JSON Lines of {name: value}, or CSV with a "
    "header of names (a vector z as columns z[0], z[1], ...). --at gives the names a point does not.",
    metavar="FILE")]
CsvOpt = Annotated[bool, typer.Option("--csv", help="With --points: write CSV (the value's columns, then the "
                                      "derivative's).")]
SkipBadOpt = Annotated[bool, typer.Option("--skip-bad", help="With --points: pass over bad lines, naming them on "
                                          "stderr, instead of stopping at the first.")]
ChunkOpt = Annotated[int, typer.Option("--chunk-size", min=1, help="With --points: points read at once.",
                                       hidden=True)]
StrictOpt = Annotated[bool, typer.Option("--strict", help="Exit 3 when a value or derivative is NaN or infinite "
                                         "(after printing it).")]


def _show_version(wanted: bool) -> None:
    if wanted:
        from importlib.metadata import version  # only --version pays for it

        print(f"gradcli {version('gradcli')}")
        raise typer.Exit()


def _commands(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_show_version,
                                          help="Print gradcli's version and exit.")] = False,
) -> None:
    """Gradients you can trust and understand: the value, the gradient, and why."""


def _fail(error: GradcliError) -> NoReturn:
    for line in describe(error):
        print(line, file=sys.stderr)
    raise typer.Exit(int(error.exit_code))


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
                  line: str | None = None) -> None:
    """A Python warning, said as gradcli's own one line, without a source path.

    NumPy's RuntimeWarnings (divide by zero, invalid value, mean of empty slice) are not said:
    they are about NaN and infinities, which gradcli names itself, node by node.
    """
    if not issubclass(category, RuntimeWarning):
        print(f"gradcli: warning: {visible(str(message))}", file=sys.stderr)


def _run(body: Callable[[], None]) -> None:
    """Run a command's body; errors become a message on stderr and an exit code."""
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        _run_body(body)


def _run_body(body: Callable[[], None]) -> None:
    try:
        body()
    except GradcliError as error:
        _fail(error)
    except (typer.Exit, typer.Abort):
        raise
    except BrokenPipeError:
        # `gradcli ... | head`: the reader left; nothing more to say.
        sys.stderr.close()
        raise typer.Exit(0) from None
    except MemoryError as error:
        _fail(out_of_memory(error))
    except Exception as error:
        print(f"gradcli: internal error: {type(error).__name__}: {error} (please report this)", file=sys.stderr)
        raise typer.Exit(int(ExitCode.INTERNAL)) from None


def read_program(program: str | None, file: str | None) -> str:
    if program is not None and file is not None:
        raise NameProblem("give the program as an argument or with --file, not both")
    if file is not None:
        try:
            if file == "-":
                return _read_text(_stdin(), file)
            with open(file, "rb") as stream:
                return _read_text(stream, file)
        except IsADirectoryError:
            raise NameProblem(f"cannot read the program from {file!r}: it is a directory") from None
        except OSError as problem:
            raise NameProblem(f"cannot read the program from {file!r}: {problem.strerror or problem}") from None
    if program is None:
        raise NameProblem("no program given", hint="pass it as an argument, or with --file PATH")
    return program


def _stdin() -> Any:
    """Standard input as bytes; a process started without one (`<&-`) cannot read it."""
    if sys.stdin is None:
        raise OSError(errno.EBADF, "standard input is closed")
    return sys.stdin.buffer


def _read_text(stream: Any, file: str, piece: int = 1 << 20) -> str:
    """UTF-8 text (a byte order mark is dropped), read a piece at a time, refused as soon as it
    passes GRADCLI_MAX_PROGRAM_CHARS: `-f /dev/zero` never fills the memory."""
    import codecs

    from gradcli.errors import Limits, over_limit

    limit = Limits.get("program_chars")
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    length = 0
    offset = 0  # bytes read before this piece
    while True:
        data = stream.read(piece)
        if offset == 0 and data.startswith(codecs.BOM_UTF8):
            data, offset = data[len(codecs.BOM_UTF8):], len(codecs.BOM_UTF8)
        held = len(decoder.getstate()[0])  # the start of a character cut by the last piece
        try:
            text = decoder.decode(data, final=not data)
        except UnicodeDecodeError as problem:
            raise NameProblem(f"cannot read the program from {file!r}: it is not UTF-8 (byte offset "
                              f"{offset - held + problem.start})") from None
        parts.append(text)
        length += len(text)
        if length > limit:
            where = "standard input" if file == "-" else repr(file)
            raise over_limit(f"the program in {where} has more characters than allowed", "program_chars")
        if not data:
            return "".join(parts)
        offset += len(data)


def load(program: str | None, file: str | None, at: list[str] | None) -> tuple[Any, dict[str, Any]]:
    """The program's tape and the point --at gives (every --at name must be an input)."""
    from gradcli.tape import compile_program
    from gradcli.values import merge_points

    tape = compile_program(read_program(program, file))
    return tape, merge_points(at or [], tape.inputs)


def _console() -> Any:
    """The console of every human view.

    User text is never read as rich markup or emoji codes: markup is off, and the renderers
    style their own words with rich Text objects. Piped or redirected, nothing is wrapped:
    a line is as long as its content (a terminal wraps at its width).
    """
    from rich.console import Console  # only the human views pay for rich

    console = Console(markup=False, emoji=False, highlight=False)
    if not console.is_terminal:
        console = Console(markup=False, emoji=False, highlight=False, width=UNWRAPPED_WIDTH, soft_wrap=True)
    return console


UNWRAPPED_WIDTH = 1_000_000  # the width a pipe or a file is given: no line is ever that long


@command
def grad(
    program: ProgramArg = None,
    file: FileOpt = None,
    at: AtOpt = None,
    seed: SeedOpt = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    paths: Annotated[bool, typer.Option("--paths", help="List the paths from the output to each input, and what "
                                        "each contributes.")] = False,
    max_paths: Annotated[int, typer.Option("--max-paths", min=1, help="With --paths: keep the K largest in "
                                           "magnitude (at most 10,000).", metavar="K")] = 16,
    points: PointsOpt = None,
    csv: CsvOpt = False,
    skip_bad: SkipBadOpt = False,
    chunk_size: ChunkOpt = CHUNK,
    check: Annotated[bool, typer.Option("--check", help="Check the gradient against central finite differences "
                                        "and SymPy's derivative; exit 1 if they disagree.")] = False,
    tol: Annotated[float, typer.Option("--tol", metavar="TOL", help="With --check: the tolerance, relative to "
                                       "1 + |reference|.")] = 1e-5,
    symbolic: Annotated[bool, typer.Option("--symbolic", help="Show each derivative's formula (SymPy).")] = False,
    symbolic_limit: Annotated[int, typer.Option("--symbolic-limit", min=1, metavar="N", help="The most expression elements "
                                                "SymPy is given (--symbolic, --check).")] = 2_000,
    symbolic_seconds: Annotated[Optional[float], typer.Option(
        "--symbolic-seconds", metavar="S", help="SymPy's time budget, all of it (--symbolic, --check); default 5, or "
        "GRADCLI_SYMBOLIC_SECONDS. Past it, gradcli goes on without SymPy.")] = None,
    strict: StrictOpt = False,
    json: JsonOpt = False,
) -> None:
    """The value of the program and its gradient with respect to each input."""

    _run(lambda: _check_formats(points, json, csv, skip_bad))
    if points is not None:
        if paths or check or symbolic:
            _run(lambda: _refuse("--paths, --check and --symbolic work at one point (--at), not with --points"))
        from gradcli.batch import grad_batch

        def compute_chunk(tape: Any, columns: Any, count: int, fixed: Any) -> Any:
            return grad_batch(tape, columns, count, fixed, seed=seed, of=of, wrt=wrt)

        _run(lambda: _points(program, file, at, points, _output(json, csv), skip_bad, chunk_size, strict, compute_chunk))
        return

    def body() -> None:
        from gradcli.derivatives import grad as compute
        from gradcli.diagnostics import non_finite_warnings

        if paths:
            from gradcli.paths import check_max_paths

            check_max_paths(max_paths)
        if check:
            from gradcli.verify import checked_tolerance

            checked_tolerance(tol)
        tape, point = load(program, file, at)
        result = compute(tape, point, seed=seed, of=of, wrt=wrt)
        # Each option adds a section: a JSON key, and a part of the human view.
        sections: list[tuple[str, Any, Callable[[Any], None]]] = []
        failed_check = False
        if paths:
            from gradcli.paths import paths as find_paths
            from gradcli.render.paths import paths_document, show_paths

            reports = find_paths(result, max_paths)
            sections.append(("paths", paths_document(reports, result), lambda c: show_paths(reports, result, c)))
        report, warnings = None, []
        if symbolic or check:  # one SymPy worker, one budget, for both
            from gradcli.render.derivatives import show_symbolic, symbolic_document, symbolic_warnings
            from gradcli.symbolic import derive

            names = [n for n in result.wrt if n in tape.inputs]
            report = derive(result, names, formulas=symbolic, values=check, limit=symbolic_limit,
                            seconds=symbolic_seconds)
            if symbolic:
                shown = report
                sections.append(("symbolic", symbolic_document(shown), lambda c: show_symbolic(shown, result.root_names, c)))
                warnings = symbolic_warnings(report)
        if check:
            from gradcli.render.derivatives import check_document, show_check
            from gradcli.verify import check as check_gradient

            agreements = check_gradient(result, tol, symbolic_limit, sympy_report=report)
            failed_check = not all(a.ok for a in agreements)
            sections.append(("check", check_document(agreements, tol), lambda c: show_check(agreements, tol, c)))
        if json:
            from gradcli.render.jsonout import dumps, grad_document

            document = grad_document(result)
            document.update((key, part) for key, part, _ in sections if part is not None)
            if warnings:
                document["warnings"] = document.get("warnings", []) + warnings
            sys.stdout.write(dumps(document) + "\n")
        else:
            from gradcli.render.table import show_grad

            console = _console()
            show_grad(result, console)
            for _, _, show in sections:
                show(console)
        if failed_check:
            raise CheckFailed("the gradient disagrees with its references beyond --tol")
        if strict and non_finite_warnings(result):
            raise NonFiniteProblem("a value or gradient is not finite (--strict)")

    _run(body)


def _program_after_double_dash(argv: list[str]) -> list[str]:
    """`grad -- "-x**2" --at x=3`: the program follows `--`, options may follow it.

    Click takes everything after `--` as arguments; we move the program to the very end,
    after the `--`, so that the options after it are read as options again.
    """
    if "--" not in argv:
        return argv
    split = argv.index("--")
    if split + 1 >= len(argv):
        return argv
    return [*argv[:split], *argv[split + 2 :], "--", argv[split + 1]]


def _output(json: bool, csv: bool) -> str:
    return "json" if json else "csv" if csv else "table"


def _check_formats(points: str | None, json: bool, csv: bool, skip_bad: bool = False) -> None:
    if csv and json:
        raise NameProblem("--csv and --json both choose how results are written: give one")
    if csv and points is None:
        raise NameProblem("--csv writes the results of --points; at one point (--at), use --json or the table")
    if skip_bad and points is None:
        raise NameProblem("--skip-bad passes over the bad lines of --points; at one point (--at) there are none")


def _refuse(message: str) -> None:
    raise NameProblem(message)


def _refuse_no_tangent() -> None:
    raise NameProblem("no --tangent given", hint="jvp differentiates along a direction: --tangent NAME=VALUE,... "
                      "(inputs not named get zero)")


def _points(program: str | None, file: str | None, at: list[str] | None, points: str, output: str, skip_bad: bool,
            chunk_size: int, strict: bool, compute: Callable[[Any, Any, int, Any], Any],
            at_once: Callable[[Any, Any, Any], int] | None = None) -> None:
    """--points: read points a chunk at a time, compute each chunk at once, write it.

    `compute(tape, columns, count, fixed)` is grad_batch, jvp_batch or jacobian_batch;
    `at_once(tape, columns, fixed)`, if given, cuts a chunk into pieces of that many points.
    """
    from gradcli.render.numbers import is_finite
    from gradcli.render.stream import WRITERS
    from gradcli.values import PointsReader, read_lines

    if points == "-" and file == "-":
        raise NameProblem("the program and the points cannot both come from stdin")
    tape, fixed = load(program, file, at)
    try:
        stream = _stdin() if points == "-" else open(points, "rb")  # bytes: a bad one is a bad line
    except OSError as problem:
        raise NameProblem(f"cannot read points from {points!r}: {problem.strerror}", where="--points") from None
    writer = WRITERS[output](sys.stdout, fixed, tape.inputs)
    skipped = []
    done = 0
    all_finite = True
    progress = _progress()
    try:
        with stream:
            reader = PointsReader(read_lines(stream, points), tape.inputs, fixed, chunk_size, skip_bad)
            for chunk in reader.chunks():
                for bad in chunk.skipped:
                    print(f"gradcli: warning: skipped {bad.message}", file=sys.stderr)
                skipped += [p.line for p in chunk.skipped]
                size = at_once(tape, chunk.columns, fixed) if at_once and chunk.count else chunk.count
                for part in _pieces(chunk, size):
                    result = _compute_chunk(compute, tape, part, fixed)
                    writer.write(part, result)
                    sys.stdout.flush()
                    all_finite = all_finite and all(is_finite(a) for a in [*result.values, *(c for _, c in result.columns())])
                    done += part.count
                    progress(done)
    finally:
        progress(-1)
    if skipped:
        shown = ", ".join(map(str, skipped[:20])) + (", ..." if len(skipped) > 20 else "")
        print(f"gradcli: {done:,} points done; {len(skipped):,} bad lines skipped: {shown}", file=sys.stderr)
    if strict and not all_finite:
        raise NonFiniteProblem("a value or derivative is not finite (--strict)")


def _compute_chunk(compute: Callable[[Any, Any, int, Any], Any], tape: Any, chunk: Any, fixed: Any) -> Any:
    """compute on a chunk; an error names the line of its first point, and that point's own shapes."""
    try:
        return compute(tape, chunk.columns, chunk.count, fixed)
    except GradcliError as error:
        problem = _alone(tape, chunk, fixed) or error
    problem.message = f"--points line {chunk.lines[0]}: {problem.message}"
    raise problem


def _alone(tape: Any, chunk: Any, fixed: Any) -> GradcliError | None:
    """The error of the chunk's first point evaluated alone, if it has one.

    The points of a chunk share their shapes: the first one, without the axis of points,
    fails as they all do, and its message shows the shapes a user wrote."""
    import numpy as np

    from gradcli.engine import forward

    try:
        forward(tape, {**fixed, **{name: np.asarray(column[0]) for name, column in chunk.columns.items()}})
    except GradcliError as error:
        return error
    return None


def _pieces(chunk: Any, size: int) -> Any:
    """The points of a chunk in pieces of at most `size` (none for an empty chunk)."""
    from gradcli.values import PointChunk

    for start in range(0, chunk.count, max(1, size)):
        if start == 0 and size >= chunk.count:
            yield chunk
            return
        stop = min(start + size, chunk.count)
        yield PointChunk({n: c[start:stop] for n, c in chunk.columns.items()}, stop - start, chunk.lines[start:stop], [])


def _progress() -> Callable[[int], None]:
    """A points counter on stderr when a person is watching it; silent otherwise."""
    if not sys.stderr.isatty():
        return lambda done: None
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn

    bar = Progress(SpinnerColumn(), TextColumn("{task.completed:,} points"), console=Console(stderr=True),
                   transient=True)
    task = bar.add_task("points", total=None)
    bar.start()

    def update(done: int) -> None:
        if done < 0:
            bar.stop()
        else:
            bar.update(task, completed=done)

    return update


class GraphFormat(StrEnum):
    tree = "tree"
    dot = "dot"
    mermaid = "mermaid"
    json = "json"


@command
def graph(
    program: ProgramArg = None,
    file: FileOpt = None,
    at: AtOpt = None,
    seed: SeedOpt = None,
    of: OfOpt = None,
    format: Annotated[GraphFormat, typer.Option("--format", help="tree, dot (Graphviz), mermaid or json.")] = GraphFormat.tree,
) -> None:
    """The backward graph in PyTorch's terms (grad_fn, next_functions, AccumulateGrad).

    With --at, each node shows its forward value and the gradient flowing into it.
    """

    def body() -> None:
        from gradcli.derivatives import grad as compute
        from gradcli.derivatives import resolve
        from gradcli.render.graph import TEXT_FORMATS, GraphView, tree
        from gradcli.torch_graph import backward_graph

        if seed is not None and not at:
            raise NameProblem("--seed shows in the gradients of the graph, which need the values of --at")
        tape, point = load(program, file, at)
        result = None
        if at:
            result = compute(tape, point, seed=seed, of=of)
            roots, names = result.roots, result.root_names
        elif of:
            roots = tuple(resolve(tape, of, "--of"))
            names = tuple(n.strip() for n in of.split(","))
        else:
            roots, names = tape.outputs, tape.output_names
        view = GraphView(tape.source, backward_graph(tape, roots, None if result is None else result.values), roots,
                         names, result)
        if format is GraphFormat.tree:
            _console().print(tree(view))
        else:
            sys.stdout.write(TEXT_FORMATS[format.value](view) + "\n")

    _run(body)


@command
def explain(
    program: ProgramArg = None,
    file: FileOpt = None,
    at: AtOpt = None,
    seed: SeedOpt = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
) -> None:
    """The forward tape and the backward sweep, step by step, as reverse mode does them."""

    def body() -> None:
        from gradcli.derivatives import grad as compute
        from gradcli.render.explain import check_size, show_explanation
        tape, point = load(program, file, at)
        check_size(tape)
        result = compute(tape, point, seed=seed, of=of, wrt=wrt, trace=True)
        show_explanation(result, _console())

    _run(body)


def _derivative_command(compute: Callable[..., Any], document: Callable[[Any], dict[str, Any]],
                        show: Callable[[Any, Any], None], program: str | None, file: str | None,
                        at: list[str] | None, json: bool, strict: bool, **options: Any) -> None:
    """The shared shape of jacobian, hessian and jvp: compile, evaluate, one of two views."""

    def body() -> None:
        tape, point = load(program, file, at)
        result = compute(tape, point, **options)
        from gradcli.render.numbers import has_null

        shown = document(result)
        if json:
            from gradcli.render.jsonout import dumps

            sys.stdout.write(dumps(shown) + "\n")
        else:
            show(result, _console())
        if strict and has_null(shown):
            raise NonFiniteProblem("a value or derivative is not finite (--strict)")

    _run(body)


@command
def jacobian(program: ProgramArg = None, file: FileOpt = None, at: AtOpt = None, wrt: WrtOpt = None,
             points: PointsOpt = None, csv: CsvOpt = False, skip_bad: SkipBadOpt = False, chunk_size: ChunkOpt = CHUNK,
             strict: StrictOpt = False, json: JsonOpt = False) -> None:
    """The full Jacobian of the output(s): one sweep per output or per input element, whichever is fewer.

    --json has `jacobian`: input name -> array of shape (output shape + input shape), as
    torch.autograd.functional.jacobian lays it out (a list of those for a tuple output).
    """
    _run(lambda: _check_formats(points, json, csv, skip_bad))
    if points is not None:
        from gradcli import batch

        def compute_chunk(tape: Any, columns: Any, count: int, fixed: Any) -> Any:
            return batch.jacobian_batch(tape, columns, count, fixed, wrt=wrt)

        def at_once(tape: Any, columns: Any, fixed: Any) -> int:  # as many Jacobians as the limit holds
            return batch.jacobian_points_at_once(tape, columns, fixed, wrt=wrt)

        _run(lambda: _points(program, file, at, points, _output(json, csv), skip_bad, chunk_size, strict, compute_chunk,
                             at_once))
        return
    from gradcli.derivatives import jacobian as compute
    from gradcli.render.derivatives import jacobian_document, show_jacobian

    _derivative_command(compute, jacobian_document, show_jacobian, program, file, at, json, strict, wrt=wrt)


@command
def hessian(program: ProgramArg = None, file: FileOpt = None, at: AtOpt = None, wrt: WrtOpt = None,
            strict: StrictOpt = False, json: JsonOpt = False) -> None:
    """The Hessian of a scalar output (forward-over-reverse).

    --json has `hessian`: input name -> input name -> block of shape (shape_i + shape_j).
    """
    from gradcli.derivatives import hessian as compute
    from gradcli.render.derivatives import hessian_document, show_hessian

    _derivative_command(compute, hessian_document, show_hessian, program, file, at, json, strict, wrt=wrt)


@command
def jvp(
    program: ProgramArg = None,
    file: FileOpt = None,
    at: AtOpt = None,
    tangent: Annotated[Optional[list[str]], typer.Option("--tangent", "-t", metavar="NAME=VALUE,...", help="The direction: NAME=VALUE,...; "
                                                         "inputs not named get zero.")] = None,
    points: PointsOpt = None,
    csv: CsvOpt = False,
    skip_bad: SkipBadOpt = False,
    chunk_size: ChunkOpt = CHUNK,
    strict: StrictOpt = False,
    json: JsonOpt = False,
) -> None:
    """Forward mode: the output's tangent along --tangent (the Jacobian times the tangent)."""
    _run(lambda: _check_formats(points, json, csv, skip_bad))
    if not tangent:
        _run(_refuse_no_tangent)

    def tangents() -> dict[str, Any]:
        from gradcli.values import merge_points

        return merge_points(tangent or [], where="--tangent")  # a name given twice is an error, as in --at

    if points is not None:
        from gradcli.batch import jvp_batch

        def compute_chunk(tape: Any, columns: Any, count: int, fixed: Any) -> Any:
            return jvp_batch(tape, columns, count, fixed, tangents())

        _run(lambda: _points(program, file, at, points, _output(json, csv), skip_bad, chunk_size, strict, compute_chunk))
        return
    from gradcli.derivatives import jvp as compute
    from gradcli.render.derivatives import jvp_document, show_jvp

    _derivative_command(lambda tape, point: compute(tape, point, tangents()), jvp_document, show_jvp, program, file,
                        at, json, strict)


app = make_app(list(COMMANDS))


def main() -> None:
    args = _program_after_double_dash(sys.argv[1:])
    # Running one command, build only that one: start-up is a third of a gradient's time.
    chosen = make_app([args[0]]) if args and args[0] in COMMANDS else app
    chosen(args=args, prog_name="gradcli")
