"""Running a command, without typer: a body's errors become a line on stderr and an exit code (SystemExit),
and the views of the commands at one point. cli.py declares the commands with typer; a simple command line
(`gradcli grad PROGRAM --at ... --json`) is read here without it (`simple`), typer's and click's import being
a fifth of a one-point run.
"""

import sys
import warnings
from collections.abc import Callable
from typing import Any, NoReturn

from gradcli import session
from gradcli.errors import ExitCode, GradcliError, NameProblem, describe, out_of_memory, visible


def fail(error: GradcliError) -> NoReturn:
    for line in describe(error):
        print(line, file=sys.stderr)
    raise SystemExit(int(error.exit_code))


def show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
                  line: str | None = None) -> None:
    """A Python warning, said as gradcli's own one line, without a source path.

    NumPy's RuntimeWarnings (divide by zero, invalid value, mean of empty slice) are not said:
    they are about NaN and infinities, which gradcli names itself, node by node.
    """
    if not issubclass(category, RuntimeWarning):
        print(f"gradcli: warning: {visible(str(message))}", file=sys.stderr)


def run_command(body: Callable[[], None], digits: int = 6) -> None:
    """Run a command's body, its numbers written with `digits` significant digits; errors become a
    message on stderr and an exit code."""
    from gradcli.numbers import digits as written_with

    with warnings.catch_warnings(record=True) as caught, written_with(digits):
        try:
            _run_body(body)
        except SystemExit as stop:
            if stop.code != int(ExitCode.BAD_INPUT):  # bad input: its error is the one line said
                _said(caught)
            raise
        _said(caught)


def _said(caught: list[warnings.WarningMessage]) -> None:
    """The warnings a command gave, each one line on stderr, once it has done its work."""
    try:
        for warning in caught:
            show_warning(warning.message, warning.category, warning.filename, warning.lineno)
    except (OSError, ValueError):  # stderr gone (a reader that left closed it): nothing more to say
        pass


def _run_body(body: Callable[[], None]) -> None:
    try:
        body()
    except GradcliError as error:
        fail(error)
    except BrokenPipeError:
        # `gradcli ... | head`: the reader left; nothing more to say.
        sys.stderr.close()
        raise SystemExit(0) from None
    except MemoryError as error:
        fail(out_of_memory(error))
    except Exception as error:
        print(f"gradcli: internal error: {type(error).__name__}: {visible(str(error))} (please report this)",
              file=sys.stderr)
        raise SystemExit(int(ExitCode.INTERNAL)) from None


def console() -> Any:
    """The console of every human view.

    User text is never read as rich markup or emoji codes: markup is off, and the renderers
    style their own words with rich Text objects. Piped or redirected, nothing is wrapped:
    a line is as long as its content (a terminal wraps at its width).
    """
    from rich.console import Console  # only the human views pay for rich

    made = Console(markup=False, emoji=False, highlight=False)
    if not made.is_terminal:
        made = Console(markup=False, emoji=False, highlight=False, width=UNWRAPPED_WIDTH, soft_wrap=True)
    return made


UNWRAPPED_WIDTH = 1_000_000  # the width a pipe or a file is given: no line is ever that long


# --- renderers: for each command, its views by format; each writes one result ---------------

View = Callable[[Any], None]


def json_view(document: Callable[[Any], dict[str, Any]]) -> View:
    def write(shown: Any) -> None:
        from gradcli.render.jsonout import dumps

        sys.stdout.write(dumps(document(shown)) + "\n")

    return write


def grad_views() -> dict[str, View]:
    from gradcli.render.report import grad_report_document, show_grad_report

    def table(report: Any) -> None:
        from gradcli.render.plain import show_plain_grad

        if not show_plain_grad(report):  # (rich only where the table needs more than a plain layout)
            show_grad_report(report, console())

    return {"table": table, "json": json_view(grad_report_document)}


def _derivative_views(document: Callable[[Any], dict[str, Any]], show: Callable[[Any, Any], None]) -> dict[str, View]:
    def table(report: Any) -> None:
        from gradcli.render.plain import show_plain

        if not show_plain(report.result):  # (rich only where the view needs more than a plain layout)
            show(report.result, console())

    return {"table": table, "json": json_view(lambda report: document(report.result))}


def jacobian_views(full: bool = False) -> dict[str, View]:
    from gradcli.render.derivatives import jacobian_document, show_jacobian

    return _derivative_views(jacobian_document, lambda result, console: show_jacobian(result, console, full))


def hessian_views() -> dict[str, View]:
    from gradcli.render.derivatives import hessian_document, show_hessian

    return _derivative_views(hessian_document, show_hessian)


def jvp_views() -> dict[str, View]:
    from gradcli.render.derivatives import jvp_document, show_jvp

    return _derivative_views(jvp_document, show_jvp)


def graph_view(report: Any) -> Any:
    from gradcli.render.graph import GraphView

    return GraphView(report.source, report.nodes, report.roots, report.root_names, report.result, report.edges)


def graph_views() -> dict[str, View]:
    """The graph as a tree for people, or as text in one of render.graph's formats (dot, mermaid, json)."""
    from gradcli.render.graph import TEXT_FORMATS, tree

    def text(format: str) -> View:
        def write(report: Any) -> None:
            sys.stdout.write(TEXT_FORMATS[format](graph_view(report)) + "\n")

        return write

    def show_tree(report: Any) -> None:
        from gradcli.render.graph import tree_lines
        from gradcli.render.plain import graph_tree, plain_output

        view = graph_view(report)
        plain = plain_output()
        written = None if plain is None else graph_tree(tree_lines(view), plain)
        if written is None:  # (rich, where the tree needs more than a plain layout)
            console().print(tree(view))
        else:
            sys.stdout.write(written)

    return {"tree": show_tree, **{f: text(f) for f in TEXT_FORMATS}}


def show_explanation(explanation: Any) -> None:
    """explain's view: written here where it is the scalar path's and plain (render/plain.py), else by rich."""
    from gradcli.render.plain import show_plain_explanation

    if not show_plain_explanation(explanation):
        from gradcli.render.explain import show_explanation as show

        show(explanation, console())


# command -> (its session call at one point, its views: imported only for the command run)
ONE_POINT: dict[str, tuple[Callable[[session.Request], Any], Callable[[], dict[str, View]]]] = {
    "grad": (session.grad, grad_views),
    "jacobian": (session.jacobian, jacobian_views),
    "hessian": (session.hessian, hessian_views),
    "jvp": (session.jvp, jvp_views),
}


def serve_one_point(command: str, request: session.Request, output: str,
                    views: Callable[[], dict[str, View]] | None = None) -> None:
    """One session call at one point, one renderer (the command's, or `views`); then the result's verdict
    (--check, --strict) decides the exit code."""
    compute, own_views = ONE_POINT[command]
    result = compute(request)
    (views or own_views)()[output](result)
    result.finish()


def chosen_output(format: str | None, json: bool, csv: bool, points: str | None, skip_bad: bool = False) -> str:
    """The one output format the options choose (--json and --csv are --format's aliases); csv only with --points."""
    chosen = [(option, value) for option, value in ((f"--format {format}", format), ("--csv", "csv" if csv else None),
                                                    ("--json", "json" if json else None)) if value]
    if len({value for _, value in chosen}) > 1:
        raise NameProblem(f"{' and '.join(option for option, _ in chosen)} both choose how results are written: "
                          "give one")
    output = chosen[0][1] if chosen else "table"
    if output == "csv" and points is None:
        if csv:
            raise NameProblem("--csv writes the results of --points; at one point (--at), use --json or the table")
        raise NameProblem("--format csv writes the results of --points; at one point (--at), use json or table")
    if skip_bad and points is None:
        raise NameProblem("--skip-bad and --mark-bad are about the bad lines of --points; at one point (--at) there are none")
    return output


# --- a simple command line, read without typer ------------------------------------------------

# The options a simple command line may give, each as typer declares it in cli.py; anything else (another
# option, --help, a flag given a value, `--`, a second program) is left to typer, which says the same
# things about it as ever.
_VALUED = {"--at": "at", "-a": "at", "--tangent": "tangent", "-t": "tangent", "--format": "format"}
_FLAGS = {"--json": "json", "--strict": "strict"}
_SIMPLE = {"grad": {"at", "format", "json", "strict"}, "jacobian": {"at", "format", "json", "strict"},
           "hessian": {"at", "format", "json", "strict"}, "jvp": {"at", "tangent", "format", "json", "strict"},
           "graph": {"at"}, "explain": {"at"}}


def simple(argv: list[str]) -> Callable[[], None] | None:
    """The command a simple command line asks for (`grad PROGRAM --at x=1,y=2 --json`, `run FILE`), ready to run
    as typer would run it; None where typer is to read the line."""
    if argv[:1] == ["run"]:
        return _simple_run(argv[1:])
    if not argv or argv[0] not in _SIMPLE:
        return None
    command, allowed = argv[0], _SIMPLE[argv[0]]
    program: str | None = None
    given: dict[str, Any] = {"at": [], "tangent": [], "format": None, "json": False, "strict": False}
    rest = iter(argv[1:])
    for arg in rest:
        if not arg.isprintable() and any("\udc80" <= c <= "\udcff" for c in arg):  # (bytes that are not UTF-8)
            return None
        if not arg.startswith("-"):
            if program is not None:
                return None
            program = arg
            continue
        name, equals, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _FLAGS and not equals and _FLAGS[name] in allowed:
            given[_FLAGS[name]] = True
            continue
        field = _VALUED.get(name)
        if field is None or field not in allowed:
            return None
        if not equals:
            value = next(rest, "-")
            if value.startswith("-"):
                return None
        if field == "format":
            if value not in ("json", "table") or given["format"] is not None:
                return None
            given["format"] = value
        else:
            given[field].append(value)
    if program is None:
        return None
    request = session.Request(program, None, given["at"], tangent=given["tangent"], strict=given["strict"])
    if command == "graph":  # (its tree)
        return lambda: run_command(lambda: graph_views()["tree"](session.graph(request)))
    if command == "explain":
        return lambda: run_command(lambda: show_explanation(session.explain(request)))
    return lambda: run_command(lambda: serve_one_point(command, request, chosen_output(given["format"], given["json"],
                                                                                        False, None)))


def _simple_run(args: list[str]) -> Callable[[], None] | None:
    """`gradcli run FILE` without options (a training loop pays the start-up at each run)."""
    if len(args) != 1 or (args[0].startswith("-") and args[0] != "-") or (
            not args[0].isprintable() and any("\udc80" <= c <= "\udcff" for c in args[0])):
        return None
    request = session.RunRequest(args[0], calls=False)
    return lambda: run_command(lambda: said_run_error(session.run_file(request, sys.stdout, sys.stderr)))


def said_run_error(report: session.RunReport) -> None:
    """A file that raised: its error as Python's last traceback line, on stderr, after all else; exit 1."""
    if report.error is not None:
        sys.stdout.flush()
        print(report.error, file=sys.stderr)
        raise SystemExit(1)
