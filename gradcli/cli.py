"""The command line: typer commands that turn options into one library call and a view.

Nothing here computes. `commands.run_command` (`_run`) is the one place an error becomes output: a line naming the
problem and its column, the text with a caret under it, on stderr, and the error's exit
code; stdout stays empty. (No `from __future__ import annotations` here: typer would have to
evaluate every annotation string on each start.)
"""

import sys
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Optional

import typer

from gradcli import session
from gradcli.commands import View, said_run_error, serve_one_point, show_explanation
from gradcli.commands import chosen_output as _output
from gradcli.commands import console as _console
from gradcli.commands import graph_view as _graph_view
from gradcli.commands import graph_views as _graph_views
from gradcli.commands import jacobian_views as _jacobian_views
from gradcli.commands import run_command as _run
from gradcli.errors import NameProblem, visible
from gradcli.session import CHUNK

EXIT_CODES_HELP = """
Exit codes: 0 success; 1 a failed --check (run: the file raised); 2 bad input (syntax, unknown name, missing
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
MaxPathsOpt = Annotated[int, typer.Option("--max-paths", min=1, help="With --paths: keep the K largest in "
                                          "magnitude per input (at most 10,000).", metavar="K")]
JsonOpt = Annotated[bool, typer.Option("--json", help="The same as --format json: one JSON object on stdout.")]


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


class OnePointFormat(StrEnum):
    table = "table"
    json = "json"


FormatOpt = Annotated[Optional[Format], typer.Option(
    "--format", help="How results are written: table (for people, the default), json (one object; JSON Lines with "
    "--points) or csv (with --points).")]
OnePointFormatOpt = Annotated[Optional[OnePointFormat], typer.Option(
    "--format", help="How the result is written: table (for people, the default) or json (one object).")]
PointsOpt = Annotated[Optional[str], typer.Option(
    "--points", help="Evaluate at every point of FILE ('-': stdin): JSON Lines of {name: value}, or CSV with a "
    "header of names (a vector z as columns z[0], z[1], ...). --at gives the names a point does not.",
    metavar="FILE")]
CsvOpt = Annotated[bool, typer.Option("--csv", help="The same as --format csv. With --points: write CSV (the value's columns, then the "
                                      "derivative's).")]
SkipBadOpt = Annotated[bool, typer.Option("--skip-bad", help="With --points: pass over bad lines, naming them on "
                                          "stderr, instead of stopping at the first.")]
MarkBadOpt = Annotated[bool, typer.Option("--mark-bad", help="With --points: as --skip-bad, and write a row for each "
                                          "bad line where it was (its line and row, the reason under `error`, no "
                                          "results), so the output has a row for each input row.")]
DropExtraOpt = Annotated[bool, typer.Option("--drop-extra", help="With --points: leave out the columns that are no "
                                            "input of the program (by default they are carried through to the output).")]
KeepOpt = Annotated[Optional[str], typer.Option("--keep", metavar="NAMES", help="With --points: carry through only "
                                                "these columns that are no input (NAME,NAME,...; by default all).")]
RowIdOpt = Annotated[bool, typer.Option("--row-id", help="With --points: CSV, Parquet and Arrow output start with a "
                                        "`row` column, the input row each answers (1-based, a CSV header not counted; "
                                        "JSON Lines always has `row`).")]
PointsFormatOpt = Annotated[Optional[str], typer.Option(
    "--points-format", help="With --points: csv, jsonl, parquet or arrow (Arrow IPC/Feather); default: by the "
    "extension (.parquet, .arrow, .feather, .ipc, .arrows), else a file's first bytes, else CSV or JSON Lines by the "
    "first line.", metavar="FORMAT")]
OutputOpt = Annotated[Optional[str], typer.Option(
    "--output", help="With --points: write the results to FILE instead of stdout, by its extension: .csv, .jsonl, "
    ".parquet or .arrow/.feather (the columns of --csv). Written whole or not at all.", metavar="FILE")]
ChunkOpt = Annotated[int, typer.Option("--chunk-size", min=1, help="With --points: points read at once.",
                                       hidden=True)]
DigitsOpt = Annotated[int, typer.Option("--digits", min=1, max=17, metavar="N", help="Significant digits of the "
                                         "numbers people read (default 6); JSON and CSV always have every digit.")]
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


def _serve(command: str, request: session.Request, output: str, destination: str | None = None,
           views: Callable[[], dict[str, View]] | None = None) -> None:
    """One session call, one renderer (the command's, or `views`); then the result's verdict (--check,
    --strict) decides the exit code."""
    if request.points is not None:
        _stream(session.points(request, command), output, destination)
        return
    if request.drop_extra or request.row_id or request.keep is not None:
        option = "--drop-extra" if request.drop_extra else "--row-id" if request.row_id else "--keep"
        raise NameProblem(f"{option} is about the rows of --points; "
                          "at one point (--at) there are none")
    serve_one_point(command, request, output, views)


def _stream(run: session.PointsRun, output: str, destination: str | None = None) -> None:
    """--points: each chunk's results written as they come (to stdout, or to --output FILE whole or not
    at all), the bad lines passed over named on stderr. From a file, chunks are rendered on threads
    beside the reading and computing of the next (Stdout's pool); from a pipe or a terminal, each is
    written as soon as it is computed."""
    import os

    from gradcli.errors import GradcliError
    from gradcli.render.stream import WRITERS, Output, Stdout

    # pyarrow's own allocator keeps what a chunk freed for the next (a stream of JSON Lines through a
    # pipe peaked at twice the memory); the system's gives it back, and is no slower here. A user's
    # own choice stands.
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    _keep_freed_memory()

    row_id = run.request.row_id
    marks = run.request.mark_bad
    sink: Output | Stdout = (Output(destination, run.fixed, run.tape.inputs, pipelined=not run.live, row_id=row_id,
                                    marks=marks)
                             if destination is not None else
                             Stdout(sys.stdout, WRITERS[output](run.fixed, run.tape.inputs, row_id=row_id, marks=marks),
                                    pipelined=not run.live, flushed=run.live))
    progress = _progress()
    done = False
    try:
        try:
            for event in run:
                if isinstance(event, session.Skipped):
                    if marks:  # a row for each, where it was
                        sink.write_bad(event.problems)
                    sink.flush()  # what came before the bad lines is out before they are named
                    for bad in event.problems:
                        print(f"gradcli: warning: skipped {bad.message}", file=sys.stderr)
                    continue
                sink.write(event.chunk, event.result)
                progress(run.done)
        except GradcliError:  # a bad line: the points before it are written before it is named
            sink.flush()
            raise
        sink.commit()
        done = True
    finally:
        progress(-1)
        if not done:
            sink.abandon()
    if run.skipped_count:
        shown = ", ".join(map(str, run.skipped)) + (", ..." if run.skipped_count > len(run.skipped) else "")
        points_done = f"{run.done:,} point{'' if run.done == 1 else 's'} done"
        unit = "row" if run.table is not None else "line"  # Parquet and Arrow have rows, text has lines
        bad_lines = f"{run.skipped_count:,} bad {unit}{'' if run.skipped_count == 1 else 's'} skipped"
        print(f"gradcli: {points_done}; {bad_lines}: {shown}", file=sys.stderr)
    elif not run.done:  # an input of no points is not an error, but worth a word
        print("gradcli: 0 points done", file=sys.stderr)
    run.finish()


def _keep_freed_memory() -> None:
    """glibc's malloc hands a big block freed back to the system and takes it again, page by page,
    for the next chunk (tens of thousands of page faults a million points, 5% of the run): from
    here on it keeps what is freed for the next allocation (the peak is what it was). Where a user
    tunes malloc (MALLOC_* variables, GLIBC_TUNABLES), or malloc is not glibc's, nothing changes;
    nor where glibc refuses the mmap threshold (older ones, past 32 MiB): the trim threshold alone
    would also stop the mmap threshold from growing as big arrays are freed."""
    import os

    if sys.platform != "linux" or any(name.startswith("MALLOC_") or name == "GLIBC_TUNABLES" for name in os.environ):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return
    trim_threshold, mmap_threshold = -1, -3  # M_TRIM_THRESHOLD, M_MMAP_THRESHOLD (malloc.h)
    if mallopt(mmap_threshold, 1 << 28):
        mallopt(trim_threshold, 1 << 29)


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


def _outputs(format: str | None, json: bool, csv: bool, points: str | None, skip_bad: bool,
             points_format: str | None, destination: str | None) -> tuple[str, str | None]:
    """_output's format, and the --output FILE (checked: with --points, an extension known, no other format asked)."""
    output = _output(format, json, csv, points, skip_bad)
    if points_format is not None:
        from gradcli.inputs.tables import POINTS_FORMATS

        if points is None:
            raise NameProblem("--points-format says how --points is read; there are no --points")
        if points_format not in POINTS_FORMATS:
            raise NameProblem(f"--points-format {points_format!r}: give one of {', '.join(POINTS_FORMATS)}")
    if destination is None:
        return output, None
    if points is None:
        raise NameProblem("--output writes the results of --points to a file; at one point (--at), redirect stdout")
    from gradcli.render.stream import output_kind

    kind = output_kind(destination)
    if output != "table" and output != kind:
        raise NameProblem(f"--output {destination!r} writes {kind}: leave out --csv, --json and --format")
    return output, destination


# --- the commands -----------------------------------------------------------------------------


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
    max_paths: MaxPathsOpt = 16,
    points: PointsOpt = None,
    csv: CsvOpt = False,
    skip_bad: SkipBadOpt = False,
    mark_bad: MarkBadOpt = False,
    drop_extra: DropExtraOpt = False, keep: KeepOpt = None,
    row_id: RowIdOpt = False,
    chunk_size: ChunkOpt = CHUNK,
    points_format: PointsFormatOpt = None,
    output_file: OutputOpt = None,
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
    format: FormatOpt = None,
    json: JsonOpt = False,
    digits: DigitsOpt = 6,
) -> None:
    """The value of the program and its gradient with respect to each input."""
    request = session.Request(program, file, at or (), seed, of, wrt, strict=strict, paths=paths, max_paths=max_paths,
                              check=check, tol=tol, symbolic=symbolic, symbolic_limit=symbolic_limit,
                              symbolic_seconds=symbolic_seconds, points=points, skip_bad=skip_bad,
                              chunk_size=chunk_size, points_format=points_format, drop_extra=drop_extra, keep=keep, row_id=row_id,
                              mark_bad=mark_bad)
    _run(lambda: _serve("grad", request, *_outputs(format, json, csv, points, skip_bad or mark_bad, points_format,
                                                   output_file)),
         digits)


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


class GraphFormat(StrEnum):
    tree = "tree"
    dot = "dot"
    mermaid = "mermaid"
    json = "json"
    svg = "svg"
    html = "html"


# --output FILE without --format: the format by the file's extension
GRAPH_EXTENSIONS = {".svg": "svg", ".html": "html", ".htm": "html", ".dot": "dot", ".gv": "dot", ".json": "json",
                    ".mmd": "mermaid"}


def _graph_destination(path: str) -> None:
    """--output FILE refused before any work: a directory, a folder that is not there, one not writable."""
    import os

    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise NameProblem(f"--output {path!r} is a directory: give a file")
    if not os.path.isdir(folder):
        raise NameProblem(f"--output {path!r}: there is no directory {folder!r}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise NameProblem(f"--output {path!r}: not writable")


def _write_file(path: str, text: str) -> None:
    """The whole text to `path` or nothing: written beside it, then renamed over it."""
    import os

    from gradcli.errors import cannot_write

    partial = path + ".partial"
    try:
        with open(partial, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(partial, path)
    except OSError as problem:
        if os.path.exists(partial):
            os.remove(partial)
        raise cannot_write(problem) from None


def _picture_views(destination: Optional[str]) -> dict[str, View]:
    """svg and html: the picture of the graph (render/picture.py); the page also shows the paths of
    `grad --paths` (the session found them when the graph was evaluated)."""
    from gradcli.render import picture

    def write(text: str) -> None:
        if destination is None:
            sys.stdout.write(text + "\n")
        else:
            _write_file(destination, text + "\n")

    return {"svg": lambda report: write(picture.svg(_graph_view(report))),
            "html": lambda report: write(picture.page(_graph_view(report), report.paths))}




@command
def graph(
    program: ProgramArg = None,
    file: FileOpt = None,
    at: AtOpt = None,
    seed: SeedOpt = None,
    of: OfOpt = None,
    format: Annotated[Optional[GraphFormat], typer.Option(
        "--format", help="tree (the default), dot (Graphviz), mermaid, json, svg (a picture) or html (the picture "
        "in one offline page: click a node, step through the backward sweep, see the paths).")] = None,
    json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    output_file: Annotated[Optional[str], typer.Option(
        "--output", metavar="FILE", help="Write the graph to FILE instead of stdout (without --format: the format "
        "by its extension, .svg, .html, .dot, .json or .mmd).")] = None,
    digits: DigitsOpt = 6,
) -> None:
    """The backward graph in PyTorch's terms (grad_fn, next_functions, AccumulateGrad).

    With --at, each node shows its forward value and the gradient flowing into it.
    """
    def body() -> None:
        if json and format not in (None, GraphFormat.json):
            raise NameProblem(f"--format {format.value} and --json both choose how the graph is written: give one")
        chosen = "json" if json else format.value if format is not None else "tree"
        if output_file is not None:
            import os

            _graph_destination(output_file)
            by_extension = GRAPH_EXTENSIONS.get(os.path.splitext(output_file)[1].lower())
            if format is None and not json:
                if by_extension is None:
                    raise NameProblem(f"--output {output_file!r}: give --format, or a file ending in "
                                      f"{', '.join(GRAPH_EXTENSIONS)}")
                chosen = by_extension
            if chosen == "tree":
                raise NameProblem("--output writes svg, html, dot, mermaid or json: the tree is for a terminal")
        request = session.Request(program, file, at or (), seed, of, paths=chosen == "html")
        if chosen in ("svg", "html"):
            views = _picture_views(output_file)
        elif output_file is not None:
            from gradcli.render.graph import TEXT_FORMATS

            views = {chosen: lambda report: _write_file(output_file, TEXT_FORMATS[chosen](_graph_view(report)) + "\n")}
        else:
            views = _graph_views()
        views[chosen](session.graph(request))

    _run(body, digits)


@command
def explain(
    program: ProgramArg = None,
    file: FileOpt = None,
    at: AtOpt = None,
    seed: SeedOpt = None,
    of: OfOpt = None,
    wrt: WrtOpt = None,
    digits: DigitsOpt = 6,
) -> None:
    """The forward tape and the backward sweep, step by step, as reverse mode does them."""

    def body() -> None:
        show_explanation(session.explain(session.Request(program, file, at or (), seed, of, wrt)))

    _run(body, digits)


@command
def jacobian(program: ProgramArg = None, file: FileOpt = None, at: AtOpt = None, wrt: WrtOpt = None,
             points: PointsOpt = None, csv: CsvOpt = False, skip_bad: SkipBadOpt = False, mark_bad: MarkBadOpt = False,
             chunk_size: ChunkOpt = CHUNK,
             points_format: PointsFormatOpt = None, output_file: OutputOpt = None, drop_extra: DropExtraOpt = False, keep: KeepOpt = None,
             row_id: RowIdOpt = False,
             strict: StrictOpt = False, format: FormatOpt = None, json: JsonOpt = False, digits: DigitsOpt = 6,
             full: Annotated[bool, typer.Option("--full", help="Every row and column of a big Jacobian (past 1,000 "
                                                "elements the table shows the first and last 3 of each).")] = False,
             ) -> None:
    """The full Jacobian of the output(s): one sweep per output or per input element, whichever is fewer.

    --json has `jacobian`: input name -> array of shape (output shape + input shape), as
    torch.autograd.functional.jacobian lays it out (a list of those for a tuple output).
    """
    request = session.Request(program, file, at or (), wrt=wrt, strict=strict, points=points, skip_bad=skip_bad,
                              chunk_size=chunk_size, points_format=points_format, drop_extra=drop_extra, keep=keep, row_id=row_id,
                              mark_bad=mark_bad)
    _run(lambda: _serve("jacobian", request, *_outputs(format, json, csv, points, skip_bad or mark_bad, points_format,
                                                       output_file),
                        views=lambda: _jacobian_views(full)), digits)


@command
def hessian(program: ProgramArg = None, file: FileOpt = None, at: AtOpt = None, wrt: WrtOpt = None,
            strict: StrictOpt = False, format: OnePointFormatOpt = None, json: JsonOpt = False,
            digits: DigitsOpt = 6) -> None:
    """The Hessian of a scalar output (forward-over-reverse).

    --json has `hessian`: input name -> input name -> block of shape (shape_i + shape_j).
    """
    request = session.Request(program, file, at or (), wrt=wrt, strict=strict)
    _run(lambda: _serve("hessian", request, _output(format, json, False, None)), digits)


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
    mark_bad: MarkBadOpt = False,
    drop_extra: DropExtraOpt = False, keep: KeepOpt = None,
    row_id: RowIdOpt = False,
    chunk_size: ChunkOpt = CHUNK,
    points_format: PointsFormatOpt = None,
    output_file: OutputOpt = None,
    strict: StrictOpt = False,
    format: FormatOpt = None,
    json: JsonOpt = False,
    digits: DigitsOpt = 6,
) -> None:
    """Forward mode: the output's tangent along --tangent (the Jacobian times the tangent)."""
    request = session.Request(program, file, at or (), tangent=tangent or (), strict=strict, points=points,
                              skip_bad=skip_bad, chunk_size=chunk_size, points_format=points_format, drop_extra=drop_extra, keep=keep,
                              row_id=row_id, mark_bad=mark_bad)
    _run(lambda: _serve("jvp", request, *_outputs(format, json, csv, points, skip_bad or mark_bad, points_format,
                                                  output_file)),
         digits)


class PlotFormat(StrEnum):
    text = "text"
    svg = "svg"
    html = "html"
    json = "json"


def _terminal_width() -> int:
    """The terminal's width for the text plot; 80 columns in a pipe or a file."""
    import shutil

    return shutil.get_terminal_size((80, 24)).columns if sys.stdout.isatty() else 80


@command
def plot(
    program: ProgramArg = None,
    file: FileOpt = None,
    over: Annotated[Optional[str], typer.Option("--over", metavar="NAME=a:b", help="The input to sweep and its "
                                                "values: a:b (--steps points, default 200), a:b:step (as arange), "
                                                "arange(a,b,step), linspace(a,b,n) or a list.")] = None,
    steps: Annotated[Optional[int], typer.Option("--steps", metavar="N", help="Points of --over NAME=a:b.")] = None,
    at: AtOpt = None,
    seed: Annotated[Optional[str], typer.Option("--seed", metavar="S", help="The vector form: --over's values are "
                                                "one vector point, and NAME.grad (y.backward(S)) is drawn against "
                                                "NAME, as d2l draws relu's; 'ones'.")] = None,
    format: Annotated[Optional[PlotFormat], typer.Option("--format", help="text (the default), svg, html (one "
                                                         "offline page) or json (the series).")] = None,
    json: JsonOpt = False,
    output_file: Annotated[Optional[str], typer.Option("--output", metavar="FILE", help="Write to FILE, in the "
                                                       "format of its extension (.svg, .html, .json, .txt) unless "
                                                       "--format says.")] = None,
) -> None:
    """The program and its derivative over a range of one input, drawn as d2l draws them."""

    def body() -> None:
        from gradcli.render import plot as views

        if json and format not in (None, PlotFormat.json):
            raise NameProblem(f"--format {format.value} and --json both choose how the plot is written: give one")
        chosen = "json" if json else None if format is None else format.value
        if over is None:
            raise NameProblem("no --over given", hint="name the input to sweep and its range: --over x=-8:8")
        kind = chosen or "text" if output_file is None else views.destination(output_file, chosen)
        result = session.plot(session.PlotRequest(program, file, over, steps, at or (), seed))
        if kind == "json":
            from gradcli.render.jsonout import dumps

            written = dumps(views.document(result)) + "\n"
        else:
            written = views.text(result, _terminal_width()) if kind == "text" else getattr(views, kind)(result)
        if output_file is None:
            sys.stdout.write(written)
        else:
            views.write(written, output_file)

    _run(body)


@command
def run(
    file: Annotated[str, typer.Argument(metavar="FILE", help="The Python file ('-': stdin).")],
    graph: Annotated[bool, typer.Option("--graph", help="After the file's output: the backward graph of each "
                                                        "backward call, with values and grads.")] = False,
    paths: Annotated[bool, typer.Option("--paths", help="... each call's paths from the output to each leaf.")] = False,
    explain: Annotated[bool, typer.Option("--explain", help="... each call's backward sweep, step by step.")] = False,
    max_paths: MaxPathsOpt = 16,
    json: JsonOpt = False,
    digits: Annotated[int, typer.Option("--digits", min=1, max=17, metavar="N", help="Significant digits of the "
                                        "numbers in --graph, --paths and --explain (default 6); the file's own "
                                        "output is PyTorch's.")] = 6,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, metavar="N", help="Stop the file (exit 2) past N "
                                           "steps: statements and loop iterations.")] = 10_000_000,
    timeout: Annotated[float, typer.Option("--timeout", min=0.0, metavar="SECONDS", help="Stop the file (exit 2) "
                                           "after this many seconds.")] = 60.0,
    picture: Annotated[Optional[str], typer.Option(
        "--format", metavar="html|svg", help="Write each backward call's graph as a picture to --output FILE: html, one "
        "offline page (click a node, step through the backward sweep, see the paths), or svg; a second call's "
        "goes to FILE-2.html, and so on.")] = None,
    output_file: Annotated[Optional[str], typer.Option(
        "--output", metavar="FILE", help="With --format html or svg: the file of the first backward call's picture.")] = None,
) -> None:
    """Run PyTorch autograd code (loops, if, def, lambda, comprehensions) without PyTorch: print what PyTorch would print, then why.

    Exit 1 where PyTorch would raise (its error as Python's last traceback line, on stderr).
    """

    def body() -> None:
        import io

        if picture is not None:
            _check_run_picture(picture, output_file, json)
        elif output_file is not None:
            raise NameProblem("--output writes the pictures of --format html or svg: give --format")
        drawn = picture is not None
        request = session.RunRequest(file, graph=graph or drawn, paths=paths or drawn, explain=explain,
                                     max_paths=max_paths, max_steps=max_steps, timeout=timeout,
                                     calls=json or graph or paths or explain or drawn)
        captured = io.StringIO()
        report = session.run_file(request, captured if json else sys.stdout, sys.stderr)
        if json:
            from gradcli.render.jsonout import dumps
            from gradcli.render.run import run_document

            sys.stdout.write(dumps(run_document(report, captured.getvalue())) + "\n")
        elif graph or paths or explain:
            from gradcli.render.run import show_run

            sys.stdout.flush()
            show_run(report, _console())
        if picture is not None and output_file is not None:
            _write_run_pictures(report, picture, output_file)
        said_run_error(report)

    _run(body, digits)


def _check_run_picture(picture: str, destination: Optional[str], json: bool) -> None:
    """run --format html|svg --output FILE: checked before the file runs."""
    if picture not in ("html", "svg"):
        raise NameProblem(f"run --format {picture!r}: give html or svg (the file's own output is PyTorch's; "
                          "--json for a JSON document)")
    if destination is None:
        raise NameProblem(f"run --format {picture} writes a picture of each backward call: give --output FILE")
    if json:
        raise NameProblem(f"--json and --format {picture} both choose what is written: give one")
    _graph_destination(destination)


def _run_picture_files(destination: str, count: int) -> list[str]:
    """FILE for the first backward call's picture, FILE-2.ext for the second, ..."""
    import os

    stem, extension = os.path.splitext(destination)
    return [destination] + [f"{stem}-{number}{extension}" for number in range(2, count + 1)]


def _write_run_pictures(report: session.RunReport, picture: str, destination: str) -> None:
    from gradcli.render import picture as pictures
    from gradcli.render.graph import GraphView

    calls = [call for call in report.calls if call.graph is not None]
    names = _run_picture_files(destination, len(calls))
    for call, name in zip(calls, names, strict=True):
        graph = call.graph
        assert graph is not None
        view = GraphView(graph.source, graph.nodes, graph.roots, graph.root_names, graph.result, graph.edges)
        _write_file(name, (pictures.page(view, call.paths) if picture == "html" else pictures.svg(view)) + "\n")
    said = ", ".join(names) if names else "nothing: the file made no backward call"
    print(f"gradcli: wrote {said}", file=sys.stderr)


@command
def functions(format: OnePointFormatOpt = None, json: JsonOpt = False) -> None:
    """Every function and operator of the language, grouped, with its aliases, methods and PyTorch node."""

    def body() -> None:
        entries = session.functions()
        if _output(format, json, False, None) == "json":
            from gradcli.render.functions import dumps

            sys.stdout.write(dumps(entries) + "\n")
        else:
            from gradcli.render.functions import show_functions

            show_functions(entries, _console())

    _run(body)


app = make_app(list(COMMANDS))


def _is_usage_error(problem: Exception) -> bool:
    """click's UsageError (a bad option or value), whether typer brings click or its own copy."""
    return any(kind.__name__ == "UsageError" for kind in type(problem).__mro__)


def main() -> None:
    args = _program_after_double_dash(sys.argv[1:])
    options = args[: args.index("--")] if "--" in args else args
    if "--version" in options:  # `gradcli --version`, `gradcli grad --version`: the same answer
        from importlib.metadata import version

        print(f"gradcli {version('gradcli')}")
        raise SystemExit(0)
    # Running one command, build only that one: start-up is a third of a gradient's time.
    chosen = make_app([args[0]]) if args and args[0] in COMMANDS else app
    try:
        code = chosen(args=args, prog_name="gradcli", standalone_mode=False)
    except typer.Abort:
        raise SystemExit(1) from None
    except Exception as problem:
        if not _is_usage_error(problem):
            raise
        message = problem.format_message()  # type: ignore[attr-defined]
        if type(problem).__name__ == "NoArgsIsHelpError":  # `gradcli` alone: the help, as click shows it
            print(message, file=sys.stderr)
            raise SystemExit(2) from None
        # click's own words (an unknown option, a value out of range), on one line as every
        # other error of gradcli, with where to look for the options.
        command = f" {args[0]}" if args and args[0] in COMMANDS else ""
        print(f"gradcli: error: {visible(message)} (see 'gradcli{command} -h')", file=sys.stderr)
        raise SystemExit(2) from None
    raise SystemExit(code if isinstance(code, int) else 0)
