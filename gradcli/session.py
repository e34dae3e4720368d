"""The session layer: a request (a program, a point or points, options) -> a result.

Every command of the CLI is one call here and one renderer. A session reads the program
(an argument, a file or stdin), parses the point once, runs the library, and gathers what
the options ask for into the result's sections (the gradient, its paths, the check against
references, SymPy's formulas, warnings). It owns the `--points` loop, and it decides what a
failed `--check` and `--strict` mean: a result's `finish()` raises the error whose exit code
the CLI gives, once the result has been written. Nothing here prints.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from gradcli.errors import CheckFailed, GradcliError, NameProblem, NonFiniteProblem, ValueProblem

if TYPE_CHECKING:  # the heavy modules are imported by the calls that need them
    import numpy as np

    from gradcli.batch import BatchResult
    from gradcli.derivatives import GradResult
    from gradcli.engine import Step
    from gradcli.errors import PointsProblem
    from gradcli.inputs.points import PointChunk
    from gradcli.jacobians import LocalJacobian
    from gradcli.paths import InputPaths
    from gradcli.symbolic import Report
    from gradcli.tape import Tape
    from gradcli.torch_graph import GraphNode
    from gradcli.verify import Agreement

NOT_FINITE = "a value or derivative is not finite (--strict)"

# Points read at once by --points (each block then goes through batch's sweeps).
CHUNK = 65_536


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class Request:
    """What a command was asked: the program, where to evaluate it, and the options."""

    program: str | None = None  # the program's text, or
    file: str | None = None  # the file it is in ('-': stdin)
    at: Sequence[str] = ()  # the --at texts
    seed: str | None = None
    of: str | None = None
    wrt: str | None = None
    tangent: Sequence[str] = ()  # jvp's --tangent texts
    strict: bool = False
    # grad's sections at one point
    paths: bool = False
    max_paths: int = 16
    check: bool = False
    tol: float = 1e-5
    symbolic: bool = False
    symbolic_limit: int = 2_000
    symbolic_seconds: float | None = None
    # --points
    points: str | None = None
    skip_bad: bool = False
    chunk_size: int = CHUNK
    points_format: str | None = None  # csv, jsonl, parquet or arrow; None: by extension, else by the first line
    drop_extra: bool = False  # columns that are no input are left out of the output (else carried through)
    keep: str | None = None  # NAME,NAME: the only columns that are no input carried through
    row_id: bool = False  # CSV, Parquet and Arrow output start with each point's row (JSON Lines always has it)
    mark_bad: bool = False  # --skip-bad, and a row of output for each bad line, its reason under `error`


# --- the program and the point ----------------------------------------------------------


def read_program(program: str | None, file: str | None, as_written: bool = False) -> str:
    """The program's text: the argument, or a file's or stdin's (`-`) without the line end that ends its
    last line, unless `as_written` (a Python file for run, whose messages count its lines)."""
    if program is not None and file is not None:
        raise NameProblem("give the program as an argument or with --file, not both")
    if program == "-":  # `gradcli grad -`: the program from stdin, as `-f -` (no program is the text `-`)
        program, file = None, "-"
    if file is not None:
        try:
            if file == "-":
                text = _read_text(_stdin(), file)
            else:
                with open(file, "rb") as stream:
                    text = _read_text(stream, file)
            return text if as_written else _without_last_line_end(text)
        except IsADirectoryError:
            raise NameProblem(f"cannot read the program from {file!r}: it is a directory") from None
        except OSError as problem:
            raise NameProblem(f"cannot read the program from {file!r}: {problem.strerror or problem}") from None
    if program is None:
        raise NameProblem("no program given", hint="pass it as an argument, or with --file PATH")
    return program


def _without_last_line_end(text: str) -> str:
    """A program read from a file or stdin without the line end that ends its last line (what `echo`,
    a here-string or an editor adds): the user's text otherwise, as `expr` shows it."""
    return text.removesuffix("\n").removesuffix("\r")


def _stdin() -> BinaryIO:
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


def load(request: Request, source: str | None = None) -> tuple[Tape, dict[str, np.ndarray]]:
    """The program's tape (of `source`, the program already read) and the point --at gives (every --at name must
    be an input)."""
    from gradcli.inputs.literals import merge_points
    from gradcli.tape import compile_program

    tape = compile_program(read_program(request.program, request.file) if source is None else source)
    return tape, merge_points(list(request.at), tape.inputs)


def _require_tangent(request: Request) -> None:
    if not request.tangent:
        raise NameProblem("no --tangent given", hint="jvp differentiates along a direction: --tangent NAME=VALUE,... "
                          "(inputs not named get zero)")


def _tangents(request: Request) -> dict[str, np.ndarray]:
    from gradcli.inputs.literals import merge_points

    return merge_points(list(request.tangent), where="--tangent")  # a name given twice is an error, as in --at


def _all_finite(*values: Any) -> bool:
    """Is every number finite in these arrays, or nested lists, tuples and dicts of them?"""
    import numpy as np

    stack = list(values)
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif not np.isfinite(np.asarray(item, dtype=float)).all():
            return False
    return True


# --- grad at one point ------------------------------------------------------------------


@dataclass(frozen=True)
class PathNode:
    """How the paths view names a node on a path."""

    label: str  # the tape's label of the node (JSON `nodes`)
    op: str  # PyTorch's node name (JSON `ops`)
    text: str  # in the table: an input's name, else `[index] PyTorchName name`


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class PathNames:
    """The names of the nodes on the listed paths, and the edges an op takes more than once (x*x)."""

    nodes: dict[int, PathNode]
    repeated: set[tuple[int, int]]  # (node, argument) where the node takes the argument more than once


def path_names(result: GradResult, reports: Sequence[InputPaths]) -> PathNames:
    """Each node on a listed path named once, however many paths cross it."""
    from gradcli.tape import INPUT
    from gradcli.torch_graph import torch_name

    tape = result.tape
    nodes: dict[int, PathNode] = {}
    repeated: set[tuple[int, int]] = set()
    for report in reports:
        for path in report.listed:
            for index in path.nodes:
                if index not in nodes:
                    node = tape.nodes[index]
                    op = torch_name(tape, index, result.values)
                    text = str(node.name) if node.kind == INPUT else \
                        f"[{index}] {op}{f' {node.name}' if node.name else ''}"
                    nodes[index] = PathNode(tape.node_label(index), op, text)
            for parent, child in zip(path.nodes[:-1], path.nodes[1:], strict=True):
                if tape.nodes[parent].args.count(child) > 1:
                    repeated.add((parent, child))
    return PathNames(nodes, repeated)


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class GradReport:
    """A gradient with the sections its options asked for (None: not asked for)."""

    result: GradResult
    paths: list[InputPaths] | None = None
    path_names: PathNames | None = None  # the names of the nodes on the listed paths
    symbolic: Report | None = None
    check: list[Agreement] | None = None
    tol: float = 1e-5
    warnings: list[str] = field(default_factory=list)  # besides the result's own non-finite ones
    strict: bool = False

    def finish(self) -> None:
        """After the report is written: a failed check exits 1, a non-finite result under --strict 3."""
        if self.check is not None and not all(a.ok for a in self.check):
            raise CheckFailed("the gradient disagrees with its references beyond --tol")
        if self.strict and self.result.warnings:
            raise NonFiniteProblem("a value or gradient is not finite (--strict)")


def _numbers_only(request: Request) -> bool:
    """Does the request ask for the gradient of the output alone, at --at's points, where the scalar path may answer?"""
    return not (request.paths or request.check or request.symbolic or request.points is not None or request.seed
                is not None or request.of is not None or request.wrt is not None)


def grad(request: Request) -> GradReport:
    source = None
    if _numbers_only(request):
        from gradcli.scalar import grad_of_numbers

        source = read_program(request.program, request.file)
        numbers = grad_of_numbers(source, request.at)
        if numbers is not None:  # (else, the table's way: it also says every error)
            return GradReport(numbers, tol=request.tol, strict=request.strict)  # type: ignore[arg-type]
    from gradcli.derivatives import grad as compute

    if request.paths:
        from gradcli.paths import check_max_paths

        check_max_paths(request.max_paths)
    if request.check:
        from gradcli.verify import checked_tolerance

        checked_tolerance(request.tol)
    tape, point = load(request, source)
    result = compute(tape, point, seed=request.seed, of=request.of, wrt=request.wrt, warn_no_grad=True)
    report = GradReport(result, tol=request.tol, strict=request.strict)
    if request.paths:
        from gradcli.paths import paths as find_paths

        report.paths = find_paths(result, request.max_paths)
        report.path_names = path_names(result, report.paths)
    sympy_report = None
    if request.symbolic or request.check:  # one SymPy worker, one budget, for both
        from gradcli.symbolic import derive

        names = [n for n in result.wrt if n in tape.inputs]
        sympy_report = derive(result, names, formulas=request.symbolic, values=request.check,
                              limit=request.symbolic_limit, seconds=request.symbolic_seconds)
        if request.symbolic:
            report.symbolic = sympy_report
            if sympy_report.formulas is None:
                report.warnings.append(f"no formulas: {sympy_report.problem}")
    if request.check:
        from gradcli.verify import check as check_gradient

        report.check = check_gradient(result, request.tol, request.symbolic_limit, sympy_report=sympy_report)
    return report


# --- jacobian, hessian, jvp at one point --------------------------------------------------


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class DerivativeReport:
    """A Jacobian, a Hessian or a JVP at one point."""

    result: Any  # JacobianResult, HessianResult or JvpResult
    not_finite: bool = False  # under --strict: is a number it shows (point, values, derivatives) not finite?

    def finish(self) -> None:
        if self.not_finite:
            raise NonFiniteProblem(NOT_FINITE)


def jacobian(request: Request) -> DerivativeReport:
    source = None
    if request.wrt is None:
        from gradcli.scalar import jacobian_of_numbers

        source = read_program(request.program, request.file)
        numbers = jacobian_of_numbers(source, request.at)
        if numbers is not None:  # (a value that is not finite takes the table's way, which names it)
            return DerivativeReport(numbers)
    from gradcli.derivatives import jacobian as compute

    tape, point = load(request, source)
    result = compute(tape, point, wrt=request.wrt)
    return DerivativeReport(result, request.strict and not _all_finite(result.point, result.outputs, result.blocks))


def hessian(request: Request) -> DerivativeReport:
    source = None
    if request.wrt is None:
        from gradcli.scalar import hessian_of_numbers

        source = read_program(request.program, request.file)
        numbers = hessian_of_numbers(source, request.at)
        if numbers is not None:  # (a value that is not finite takes the table's way, which names it)
            return DerivativeReport(numbers)
    from gradcli.derivatives import hessian as compute

    tape, point = load(request, source)
    result = compute(tape, point, wrt=request.wrt)
    return DerivativeReport(result, request.strict and not _all_finite(result.point, result.value, result.grad,
                                                                        result.blocks))


def jvp(request: Request) -> DerivativeReport:
    from gradcli.scalar import jvp_of_numbers

    _require_tangent(request)
    source = read_program(request.program, request.file)
    numbers = jvp_of_numbers(source, request.at, request.tangent)
    if numbers is not None:  # (a value that is not finite takes the table's way, which names it)
        return DerivativeReport(numbers)
    from gradcli.derivatives import jvp as compute

    tape, point = load(request, source)
    result = compute(tape, point, _tangents(request))
    return DerivativeReport(result, request.strict and not _all_finite(result.point, result.tangent, result.value,
                                                                        result.jvp))


# --- plot: a function and its derivative over a range of one input -------------------------------

PLOT_STEPS = 200  # points of --over a:b without --steps


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class PlotRequest:
    """What `plot` was asked: the program, the input to sweep (--over) and the others' values."""

    program: str | None = None
    file: str | None = None
    over: str = ""  # NAME=a:b, NAME=a:b:step, or NAME=VALUE (arange, linspace, a list)
    steps: int | None = None  # points of a:b (default PLOT_STEPS)
    at: Sequence[str] = ()
    seed: str | None = None  # given: the vector form, one grad at the vector point (y.backward(seed))


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class PlotCurve:
    label: str  # `relu(x)`, `d/dx relu(x)`, `x.grad`
    values: np.ndarray  # one per x; NaN and infinities are gaps
    derivative: bool
    missing: int  # how many values are not finite


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class PlotResult:
    """The curves over the values of one input, ready to draw."""

    source: str
    over: str  # the input's name
    x: np.ndarray
    curves: list[PlotCurve]
    at: dict[str, np.ndarray]  # the other inputs' values
    seed: str | None = None


def plot_over(text: str, steps: int | None) -> tuple[str, np.ndarray]:
    """--over: the input's name and its values, made only once their count is within the limit.

    `a:b` is `steps` points from a to b (torch.linspace's bits), `a:b:step` torch.arange(a, b, step);
    any other value is read by the --at reader (`arange(-8, 8, 0.1)`, `linspace(a, b, n)`, a list).
    """
    import math

    import numpy as np

    from gradcli.errors import Limits, SyntaxProblem, over_limit
    from gradcli.inputs import literals, ranges

    name, equals, written = text.partition("=")
    name = name.strip()
    if not equals or not name.isidentifier():
        raise SyntaxProblem("expected NAME=a:b, NAME=a:b:step or NAME=VALUE", source=text, span=(0, max(1, len(text))),
                            where="--over")
    offset = text.index("=") + 1

    def read(piece: str, start: int) -> np.ndarray:
        try:
            return literals.parse_value(piece)
        except GradcliError as error:  # its span, in the whole text of --over
            if error.span is not None:
                error.span = (error.span[0] + start, error.span[1] + start)
            error.source, error.where = text, "--over"
            raise

    if ":" not in written:
        if steps is not None:
            raise NameProblem("--steps counts the points of --over NAME=a:b; this range says its own")
        values = read(written, offset)
        if values.ndim != 1 or values.size == 0:
            raise SyntaxProblem(f"expected a range of values for '{name}', not one of shape {values.shape}",
                                source=text, span=(offset, len(text)), where="--over")
        return name, values
    numbers = []
    for piece in written.split(":"):
        number = read(piece, offset)
        if number.ndim != 0 or not np.isfinite(number):
            raise SyntaxProblem("a bound or step of --over is one finite number", source=text,
                                span=(offset, offset + max(1, len(piece))), where="--over")
        numbers.append(float(number))
        offset += len(piece) + 1
    if len(numbers) > 3:
        raise SyntaxProblem("expected NAME=a:b or NAME=a:b:step", source=text, span=(0, len(text)), where="--over")
    start, stop = numbers[0], numbers[1]
    if not start < stop:
        raise NameProblem(f"--over {name}={written}: the range is empty; its start must be below its end")
    if len(numbers) == 3:
        if steps is not None:
            raise NameProblem("--steps and a step in --over NAME=a:b:step both say how many points: give one")
        if not numbers[2] > 0:
            raise NameProblem(f"--over {name}={written}: the step must be above 0")
        count = math.ceil((stop - start) / numbers[2])
    else:
        count = PLOT_STEPS if steps is None else steps
        if count < 2:
            raise NameProblem(f"--steps {count}: a plot needs at least 2 points")
    if count > Limits.get("elements"):
        raise over_limit(f"--over {name}={written} makes {count:,} points", "elements")
    return name, ranges.arange(start, numbers[2], count) if len(numbers) == 3 else ranges.linspace(start, stop, count)


def _output_texts(tape: Tape) -> list[str]:
    """How the plot names each output: the text it is written with (`relu(x)`, `sin(x)`), or its name."""
    from gradcli import syntax

    last = syntax.parse(tape.source).statements[-1]
    if last.target is not None:
        return list(tape.output_names)
    items = last.value.items if isinstance(last.value, syntax.TupleLit) else (last.value,)
    if len(items) != len(tape.outputs):  # a tuple an op gives (x.split(2))
        return list(tape.output_names)
    return [_grouped(item, " ".join(tape.source[item.span[0]:item.span[1]].split())) for item in items]


def _grouped(item: Any, text: str) -> str:
    """`x<1` in parentheses where a derivative's label puts it after d/dx; `relu(x)` as it is."""
    from gradcli import syntax

    return text if isinstance(item, (syntax.Call, syntax.Name, syntax.Num, syntax.Index)) else f"({text})"


def _bare(text: str) -> str:
    """An output's own label, without the parentheses _grouped put around it."""
    return text[1:-1] if text.startswith("(") and text.endswith(")") else text


def _curve(label: str, values: Any, derivative: bool) -> PlotCurve:
    import numpy as np

    values = np.asarray(values, dtype=float)
    return PlotCurve(label, values, derivative, int(values.size - np.count_nonzero(np.isfinite(values))))


def plot(request: PlotRequest) -> PlotResult:
    """The program and its derivative over --over's values.

    Without --seed, every value of the input is a point: one grad_batch over all of them (a tuple
    program: one jvp_batch, each output's own derivative, where reverse sweeps would mix the
    outputs' infinities). With --seed, the values are one vector point: one grad, y.backward(seed),
    and x.grad is drawn against x, as d2l draws relu's.
    """
    import numpy as np

    from gradcli import batch
    from gradcli.derivatives import make_seeds
    from gradcli.errors import ShapeProblem
    from gradcli.inputs.literals import merge_points
    from gradcli.tape import compile_program

    tape = compile_program(read_program(request.program, request.file))
    name, xs = plot_over(request.over, request.steps)
    if name not in tape.inputs:
        raise NameProblem(f"'{name}' is not an input of the program", where="--over",
                          hint=f"its inputs are: {', '.join(tape.inputs) or 'none'}")
    fixed = merge_points(list(request.at), tape.inputs)
    if name in fixed:
        raise NameProblem(f"'{name}' is given by both --over and --at: give it once")
    texts = _output_texts(tape)
    if request.seed is not None:
        from gradcli.derivatives import grad as compute

        vector = compute(tape, {**fixed, name: xs}, seed=request.seed, wrt=name)
        outputs = vector.value if isinstance(vector.value, tuple) else (vector.value,)
        for text, value in zip(texts, outputs, strict=True):
            if np.shape(value) != xs.shape:
                raise ShapeProblem(f"'{_bare(text)}' has shape {np.shape(value)} but '{name}' has shape {xs.shape}: with "
                                   "--seed, plot draws each output's elements against the input's",
                                   hint="an elementwise program of the input; or leave out --seed to plot over points")
        curves = [_curve(_bare(text), value, False) for text, value in zip(texts, outputs, strict=True)]
        curves.append(_curve(f"{name}.grad", vector.grad[name], True))
        return PlotResult(tape.source, name, xs, curves, fixed, request.seed)
    count = len(xs)
    if tape.is_tuple:
        tangent = {name: np.ones(())}
        size = batch.points_at_once(tape, {name: xs}, fixed)
        parts = [batch.jvp_batch(tape, {name: xs[start:start + size]}, min(size, count - start), fixed, tangent)
                 for start in range(0, count, size)]
        values = [np.concatenate([p.values[k] for p in parts]) for k in range(len(texts))]
        derivatives = [np.concatenate([p.per_root[k] for p in parts]) for k in range(len(texts))]
        make_seeds([np.zeros(v.shape[1:]) for v in values], range(len(texts)), tape.output_names, None)  # scalars only
    else:
        result = batch.grad_batch(tape, {name: xs}, count, fixed, wrt=name)
        values, derivatives = result.values, [result.grad[name]]
    curves = [_curve(_bare(text), value, False) for text, value in zip(texts, values, strict=True)]
    curves += [_curve(f"d/d{name} {text}", d, True) for text, d in zip(texts, derivatives, strict=True)]
    return PlotResult(tape.source, name, xs, curves, fixed)


# --- graph and explain --------------------------------------------------------------------


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class GraphReport:
    """The backward graph from what is differentiated, with the values and gradients at --at."""

    source: str
    nodes: list[GraphNode]
    roots: tuple[int, ...]
    root_names: tuple[str, ...]
    result: GradResult | None  # at --at
    # at --at: per node, aligned with its next_functions, each edge's local derivative (a number) or
    # local Jacobian (jacobians.edge_locals)
    edges: dict[int, list[Any]] | None = None
    paths: list[InputPaths] | None = None  # at --at, when the request asks for them (the html page)


def graph(request: Request) -> GraphReport:
    source = None
    if request.seed is None and request.of is None and not request.paths:
        from gradcli.scalar import graph_of_numbers

        source = read_program(request.program, request.file)
        numbers = graph_of_numbers(source, request.at)
        if numbers is not None:  # (else, the table's way: it also says every error)
            return GraphReport(numbers.source, numbers.nodes, numbers.roots, numbers.root_names,
                               numbers.result, numbers.edges)  # type: ignore[arg-type]
    from gradcli.derivatives import grad as compute
    from gradcli.derivatives import resolve
    from gradcli.torch_graph import backward_graph

    if request.seed is not None and not request.at:
        raise NameProblem("--seed shows in the gradients of the graph, which need the values of --at")
    tape, point = load(request, source)
    result = None
    if request.at:
        result = compute(tape, point, seed=request.seed, of=request.of)
        tape, roots, names = result.tape, result.roots, result.root_names  # (compiled again for its shapes: tensordot)
    elif request.of:
        roots = tuple(resolve(tape, request.of, "--of"))
        names = tuple(n.strip() for n in request.of.split(","))
    else:
        roots, names = tape.outputs, tape.output_names
    nodes = backward_graph(tape, roots, None if result is None else result.values)
    edges = None
    if result is not None:
        from gradcli.jacobians import edge_locals

        edges = edge_locals(tape, result.values, nodes)
    found = None
    if request.paths and result is not None:
        from gradcli.paths import paths as find_paths

        found = find_paths(result, request.max_paths)
    return GraphReport(tape.source, nodes, roots, names, result, edges, found)


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class ExplainedStep:
    """One adjoint update of the sweep, with what the chain rule on its edge multiplies by."""

    step: Step  # node, arg, contribution, total
    position: int  # the argument position of the edge it came along (x*x: each edge its own)
    scalar: bool  # are the node and the argument both scalars? then the chain rule is a product:
    factor: np.ndarray | None  # d node / d arg at the point
    formula: str | None  # that derivative in the argument names, e.g. `cos(x2)` (None: no scalar rule)
    # a vector step: J = d node / d arg by its structure (diag(2*z), 1ᵀ, the matrix, its size)
    jacobian: LocalJacobian | None = None


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class Explanation:
    """A gradient with every step of its backward sweep, and the names `explain` writes."""

    result: GradResult
    names: list[str]  # per node up to the last root: an input's name, a number written in place, or v<index>
    torch_names: dict[int, str]  # PyTorch's node name of each node that requires grad, up to the last root
    steps: list[ExplainedStep]
    source: str = ""  # what is explained: the program, or under `run` the backward call as written
    # the lines of the forward table: (node, its name in the program, its definition: `v0 * x2`, `input`,
    # `constant 2`); a number written in place has none
    forward: list[tuple[int, str, str]] = field(default_factory=list)


def explain(request: Request) -> Explanation:
    """The gradient, its sweep step by step, each edge's local derivative and formula."""
    source = None
    if request.seed is None and request.of is None and request.wrt is None:
        from gradcli.scalar import explain_of_numbers

        source = read_program(request.program, request.file)
        numbers = explain_of_numbers(source, request.at)
        if numbers is not None:  # (else, the table's way: it also says every error)
            steps = [ExplainedStep(step, position, True, factor, formula)  # type: ignore[arg-type]
                     for step, position, factor, formula in numbers.steps]
            return Explanation(numbers.result, numbers.names, numbers.torch_names, steps,  # type: ignore[arg-type]
                               numbers.result.tape.source, numbers.forward)
    from gradcli.derivatives import grad as compute

    tape, point = load(request, source)
    check_explain_size(tape)
    return explanation(compute(tape, point, seed=request.seed, of=request.of, wrt=request.wrt, trace=True))


def explanation(result: GradResult, source: str | None = None) -> Explanation:
    """A gradient computed with its trace, explained: names, PyTorch's nodes, each step's factor and formula."""
    from gradcli.engine import local_derivatives
    from gradcli.jacobians import local_jacobian
    from gradcli.numbers import human_line
    from gradcli.ops import node_text
    from gradcli.symbolic import local_derivative_formula
    from gradcli.tape import CONST, INPUT
    from gradcli.torch_graph import torch_name

    tape = result.tape
    values = result.values
    last = max(result.roots)
    names = []
    for node in tape.nodes[: last + 1]:
        if node.kind == INPUT:
            names.append(str(node.name))
        elif node.is_scalar_constant() and node.name is None:
            names.append(human_line(node.value))  # a number is written in place
        else:
            names.append(f"v{node.index}")
    torch_names = {node.index: torch_name(tape, node.index, values) for node in tape.nodes[: last + 1]
                   if node.requires_grad}
    assert result.trace is not None
    steps = []
    factors: dict[int, list[np.ndarray | None]] = {}  # one VJP per node, where an edge of it is scalar
    for step, position in zip(result.trace, _edge_positions(result), strict=True):
        node = tape.nodes[step.node]
        assert node.op is not None
        factor = jacobian = None
        scalar = values[step.node].size == 1 and values[step.arg].size == 1
        # the numbers written in the program go into the formula: a**3 gives 3*a**2
        constants = {i: float(tape.nodes[a].value) for i, a in enumerate(node.args)  # type: ignore[arg-type]
                     if tape.nodes[a].is_scalar_constant() and tape.nodes[a].name is None}
        formula = local_derivative_formula(node.op, [names[a] for a in node.args], position, node.params, constants)
        if scalar:
            if step.node not in factors:
                factors[step.node] = local_derivatives(tape, values, step.node)
            factor = factors[step.node][position]
        else:
            jacobian = local_jacobian(tape, values, step.node, position)
        steps.append(ExplainedStep(step, position, scalar, factor, formula, jacobian))
    forward = []
    for node in tape.nodes[: last + 1]:
        if names[node.index] != f"v{node.index}" and node.kind == CONST:
            continue  # written in place where it is used
        if node.kind == INPUT:
            definition = "input"
        elif node.kind == CONST:
            definition = f"constant {human_line(node.value)}"
        else:
            assert node.op is not None
            definition = node_text(node.op, [names[a] for a in node.args], node.params)
        forward.append((node.index, node.name if node.name and node.kind != INPUT else "", definition))
    return Explanation(result, names, torch_names, steps, result.tape.source if source is None else source, forward)


def _edge_positions(result: GradResult) -> list[int]:
    """For each step of the sweep, the argument position of the edge it came along.

    An op may take the same node twice (x*x): its steps for that node take the positions in
    order. One pass over the trace, each node's arguments looked at once.
    """
    assert result.trace is not None
    slots: dict[int, dict[int, list[int]]] = {}  # node -> argument -> its positions, in order
    taken: dict[tuple[int, int], int] = {}
    positions = []
    for step in result.trace:
        if step.node not in slots:
            slots[step.node] = {}
            for position, arg in enumerate(result.tape.nodes[step.node].args):
                slots[step.node].setdefault(arg, []).append(position)
        count = taken.get((step.node, step.arg), 0)
        taken[(step.node, step.arg)] = count + 1
        positions.append(slots[step.node][step.arg][count])
    return positions


def check_explain_size(tape: Tape) -> None:
    """Refuse, before any work, a program too large to be read as an explanation."""
    from gradcli.errors import Limits, over_limit

    size = len(tape.nodes) + sum(len(node.args) for node in tape.nodes)
    if size > Limits.get("explain"):
        problem = over_limit(f"the program is too large to explain: {size:,} nodes and edges", "explain")
        problem.hint += "; for a large program, see gradcli grad --json, grad --paths or graph --format json"
        raise problem


# --- many points --------------------------------------------------------------------------


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class Skipped:
    """Bad lines passed over (--skip-bad), in order."""

    problems: list[PointsProblem]


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class Answered:
    """Points and their results, in input order."""

    chunk: PointChunk
    result: BatchResult


SKIPPED_NAMED = 20  # bad lines the summary of a --skip-bad run names


class PointsRun:
    """--points: read points a chunk at a time, compute each chunk at once.

    Iterating gives, in input order, the bad lines passed over (`Skipped`) and the points
    answered (`Answered`); `done` and `skipped` count them. `finish()` raises under --strict
    if a number was not finite.
    """

    def __init__(self, request: Request, compute: Callable[[Tape, Any, int, Any], BatchResult],
                 at_once: Callable[[Tape, Any, Any], int] | None = None,
                 prepare: Callable[[Tape], None] | None = None) -> None:
        points = request.points
        assert points is not None
        if points == "-" and "-" in (request.file, request.program):
            raise NameProblem("the program and the points cannot both come from stdin")
        if request.keep is not None and request.drop_extra:
            raise NameProblem("--keep names the columns carried through and --drop-extra carries none: give one")
        self.request = request
        # the columns that are no input carried through: all, none, or those --keep names
        self.carried: bool | frozenset[str] = (not request.drop_extra if request.keep is None else
                                               frozenset(name.strip() for name in request.keep.split(",")))
        self.tape, self.fixed = load(request)
        if prepare is not None:
            prepare(self.tape)
        from gradcli.arrow import INSTALL, available
        from gradcli.inputs.tables import table_format

        self.table = table_format(points, request.points_format)  # Parquet or Arrow: read by pyarrow from the path
        if self.table is not None and not available():
            raise NameProblem(f"reading {'Parquet' if self.table == 'parquet' else 'Arrow IPC'} needs pyarrow, which "
                              f"the data extra installs: {INSTALL}", where="--points")
        if self.table is not None and points == "-":
            raise NameProblem(f"{self.table} points are read from a file, not from stdin", where="--points")
        try:
            self.stream = _stdin() if points == "-" else open(points, "rb")  # bytes: a bad one is a bad line
        except OSError as problem:
            raise NameProblem(f"cannot read points from {points!r}: {problem.strerror}", where="--points") from None
        from gradcli.inputs.rows import helper

        if helper is None and points != "-":
            import os
            import warnings

            size = os.fstat(self.stream.fileno()).st_size
            if size >= BIG_FILE:
                warnings.warn(f"{points!r} holds {size / 2**20:.0f} MB: gradcli's compiled helper is not built (pip "
                              "found no C compiler, or an editable install was not built again since its source "
                              "changed), so the points are read and written a line at a time; installed again where "
                              "a C compiler is, it does that many times faster", stacklevel=1)
        self.compute = compute
        self.at_once = at_once
        from gradcli.inputs.lines import regular

        self.live = not regular(self.stream)  # a pipe or a terminal: each chunk is answered as soon as it is computed
        self.done = 0
        self.skipped: list[int] = []  # the first SKIPPED_NAMED lines passed over (not all: memory stays flat)
        self.skipped_count = 0  # ... and how many
        self.all_finite = True

    def __iter__(self) -> Iterator[Skipped | Answered]:
        from gradcli.inputs.lines import LineReader
        from gradcli.inputs.points import PointsReader

        request, tape, fixed = self.request, self.tape, self.fixed
        assert request.points is not None
        with self.stream:
            reader: Any
            if self.table is not None:
                from gradcli.inputs.tables import TableReader

                reader = TableReader(request.points, self.table, tape.inputs, fixed, request.chunk_size,
                                     request.skip_bad or request.mark_bad, self.carried)
            else:
                reader = PointsReader(LineReader(self.stream, request.points), tape.inputs, fixed,
                                      request.chunk_size, request.skip_bad or request.mark_bad, request.points_format,
                                      self.carried)
            carried: set[str] = set()  # the names carried through (for --keep's names that are none)
            for chunk in _read_ahead(reader.chunks()):
                carried.update(chunk.extra)
                # --mark-bad: the runs of points between bad lines, and each bad line where it was; else the chunk
                # at once, its bad lines named in order among those its points' index values make
                parts: Iterable[PointChunk | list[PointsProblem]] = in_order(chunk) if request.mark_bad else [chunk]
                waiting, named = ([] if request.mark_bad else chunk.skipped), 0
                for part in parts:
                    if isinstance(part, list):
                        yield self._passed_over(part)
                        continue
                    size = self.at_once(tape, part.columns, fixed) if self.at_once and part.count else part.count
                    for piece in _pieces(part, size):
                        for answer in self._answers(piece):
                            if isinstance(answer, Skipped):
                                start = named
                                while named < len(waiting) and waiting[named].line < answer.problems[0].line:
                                    named += 1
                                if named > start:
                                    yield self._passed_over(waiting[start:named])
                                yield self._passed_over(answer.problems)
                                continue
                            result = answer.result
                            if self.request.strict:  # only --strict asks
                                self.all_finite = self.all_finite and _all_finite(result.values,
                                                                                  [c for _, c in result.columns()])
                            self.done += answer.chunk.count
                            yield answer
                if named < len(waiting):
                    yield self._passed_over(waiting[named:])
            if not self.done:  # no points: the writers still write the header the shapes give
                empty = reader.empty()
                if empty is not None:
                    carried.update(empty.extra)
                    yield Answered(empty, _compute_empty(self.compute, tape, empty, fixed, getattr(reader, "header", 0)))
        if not isinstance(self.carried, bool):  # --keep: a name it gives that is no column, as --at's that is no input
            import warnings

            for name in sorted(self.carried - carried):
                warnings.warn(f"--keep: {name!r} is an input of the program: its values are the point's (`at` in "
                              "--json), not a column carried through" if name in tape.inputs else
                              f"--keep: no column {name!r} was carried through (the points have none of that name)",
                              stacklevel=1)

    def _passed_over(self, problems: list[PointsProblem]) -> Skipped:
        """Bad lines passed over, counted (in input order)."""
        self.skipped += [p.line for p in problems[: SKIPPED_NAMED - len(self.skipped)]]
        self.skipped_count += len(problems)
        return Skipped(problems)

    def _answers(self, chunk: PointChunk) -> Iterator[Answered | Skipped]:
        """The chunk's results, and its points bad by their index values (answered) as bad lines."""
        for answer in answered(self.compute, self.tape, chunk, self.fixed, "row" if self.table is not None else "line"):
            if isinstance(answer, Answered):
                yield answer
            elif not self.request.skip_bad and not self.request.mark_bad:
                raise answer
            else:
                yield Skipped([answer])

    def finish(self) -> None:
        if self.request.strict and not self.all_finite:
            raise NonFiniteProblem(NOT_FINITE)


def answered(compute: Callable[[Tape, Any, int, Any], BatchResult], tape: Tape, chunk: PointChunk, fixed: Any,
             unit: str = "line") -> Iterator[Answered | PointsProblem]:
    """The chunk's results, in order; where an input used as an index holds a bad value at some points
    (NaN, 0.5, past the end), each such point is a PointsProblem at its own line (`unit`: or row), found
    by halving the points that fail, and the points around it are answered."""
    try:
        yield Answered(chunk, _compute_chunk(compute, tape, chunk, fixed))
        return
    except GradcliError as error:
        by_value = isinstance(error, ValueProblem) or (
            tape.integer_inputs and _alone(tape, chunk, fixed, indices_zero=True) is None)
        if not chunk.count or not by_value:
            raise  # not the values (the index values or those a call refuses): every point fails as the first does
        failure = error
    from gradcli.errors import PointsProblem

    ranges = [(0, chunk.count)]  # the points still to answer, the next first
    while ranges:
        start, stop = ranges.pop()
        part = chunk.part(start, stop) if (start, stop) != (0, chunk.count) else chunk
        if part is not chunk:
            try:
                yield Answered(part, compute(tape, part.columns, part.count, fixed))
                continue
            except GradcliError as error:
                failure = error
        if stop - start > 1:
            middle = (start + stop) // 2
            ranges += [(middle, stop), (start, middle)]
            continue
        alone = _alone(tape, part, fixed) or failure
        problem = PointsProblem(chunk.lines[start], alone.message + (f"; {alone.hint}" if alone.hint else ""), unit=unit)
        problem.row = chunk.row(start)
        problem.extra = {name: _value_at(column, start) for name, column in chunk.extra.items()}  # for --mark-bad
        yield problem


BIG_FILE = 1 << 24  # bytes of --points past which, without the compiled helper, a line says what does it faster


def _read_ahead(chunks: Iterator[PointChunk], depth: int = 2) -> Iterator[PointChunk]:
    """The chunks, in order, read by a thread of their own while the ones before are computed
    and written (the compiled helper and NumPy let go of Python's lock): reading overlaps writing. What the
    reader raises is raised here, after the chunks it gave."""
    import queue
    import threading

    ready: queue.Queue[tuple[PointChunk | None, BaseException | None]] = queue.Queue(depth)
    stop = threading.Event()

    def give(item: tuple[PointChunk | None, BaseException | None]) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def read() -> None:
        try:
            for chunk in chunks:
                if not give((chunk, None)):
                    return
        except BaseException as problem:  # handed to the consumer, which raises it
            give((None, problem))
            return
        give((None, None))

    threading.Thread(target=read, name="gradcli-points-reader", daemon=True).start()
    try:
        while True:
            chunk, problem = ready.get()
            if problem is not None:
                raise problem
            if chunk is None:
                return
            yield chunk
    finally:
        stop.set()


def points(request: Request, command: str) -> PointsRun:
    """The --points run of `grad`, `jvp` or `jacobian`."""
    from gradcli import batch

    if command == "grad":
        if request.paths or request.check or request.symbolic:
            raise NameProblem("--paths, --check and --symbolic work at one point (--at), not with --points")

        def grad_chunk(tape: Tape, columns: Any, count: int, fixed: Any) -> BatchResult:
            # from a file, the writer's threads take the other core (cli._stream); from a pipe, the sweeps do
            return batch.grad_batch(tape, columns, count, fixed, seed=request.seed, of=request.of, wrt=request.wrt,
                                    threads=None if run.live else 1, warn_no_grad=True)

        run = PointsRun(request, grad_chunk)
        return run
    if command == "jvp":
        _require_tangent(request)
        tangents: dict[str, Any] = {}

        def parse_tangents(tape: Tape) -> None:
            tangents.update(_tangents(request))

        def jvp_chunk(tape: Tape, columns: Any, count: int, fixed: Any) -> BatchResult:
            return batch.jvp_batch(tape, columns, count, fixed, tangents)

        return PointsRun(request, jvp_chunk, batch.points_at_once, prepare=parse_tangents)
    assert command == "jacobian"

    def jacobian_chunk(tape: Tape, columns: Any, count: int, fixed: Any) -> BatchResult:
        return batch.jacobian_batch(tape, columns, count, fixed, wrt=request.wrt)

    def at_once(tape: Tape, columns: Any, fixed: Any) -> int:  # as many Jacobians as the limit holds
        return batch.jacobian_points_at_once(tape, columns, fixed, wrt=request.wrt)

    return PointsRun(request, jacobian_chunk, at_once)


def _compute_chunk(compute: Callable[[Tape, Any, int, Any], BatchResult], tape: Tape, chunk: PointChunk,
                   fixed: Any) -> BatchResult:
    """compute on a chunk; an error names the line of its first point, and that point's own shapes."""
    try:
        return compute(tape, chunk.columns, chunk.count, fixed)
    except GradcliError as error:
        problem = _alone(tape, chunk, fixed) or error
    problem.message = f"--points line {chunk.lines[0]}: {problem.message}"
    raise problem


def _compute_empty(compute: Callable[[Tape, Any, int, Any], BatchResult], tape: Tape, chunk: PointChunk,
                   fixed: Any, header: int) -> BatchResult:
    """compute on no points, for the shapes of the results; an error names the header that gave the shapes."""
    try:
        return compute(tape, chunk.columns, 0, fixed)
    except GradcliError as error:
        import numpy as np

        from gradcli.inputs.points import PointChunk

        one = PointChunk({name: np.zeros((1, *column.shape[1:])) for name, column in chunk.columns.items()}, 1, [0], [])
        problem = _alone(tape, one, fixed) or error  # its message shows the shapes at a point
    problem.message = f"--points{f' line {header}' if header else ''}: {problem.message}"
    raise problem


def _value_at(column: Any, row: int) -> Any:
    """A column carried through's value at a row, as Python's (an Arrow array's scalar, or Cells' value)."""
    value = column[row]
    return value.as_py() if hasattr(value, "as_py") else value


def _alone(tape: Tape, chunk: PointChunk, fixed: Any, indices_zero: bool = False) -> GradcliError | None:
    """The error of the chunk's first point evaluated alone, if it has one (`indices_zero`: with 0 for
    each input used as an index, an index every size but 0 has).

    The points of a chunk share their shapes: the first one, without the axis of points,
    fails as they all do, and its message shows the shapes a user wrote."""
    import numpy as np

    from gradcli.engine import forward

    point = {**fixed, **{name: np.asarray(column[0]) for name, column in chunk.columns.items()}}
    if indices_zero:
        point.update({name: np.zeros_like(point[name]) for name in tape.integer_inputs if name in point})
    try:
        forward(tape, point)
    except GradcliError as error:
        return error
    return None


def in_order(chunk: PointChunk) -> Iterator[PointChunk | list[PointsProblem]]:
    """A chunk's good points and bad lines in input order (--mark-bad writes a row for each bad line
    where it was): runs of points between the bad lines, each bad line on its own."""
    from bisect import bisect_left

    start = 0
    for problem in chunk.skipped:
        stop = bisect_left(chunk.lines, problem.line)
        if stop > start:
            yield chunk.part(start, stop)
        yield [problem]
        start = stop
    if start < chunk.count or not chunk.skipped:
        yield chunk.part(start, chunk.count) if start else chunk


def _pieces(chunk: PointChunk, size: int) -> Iterator[PointChunk]:
    """The points of a chunk in pieces of at most `size` (none for an empty chunk)."""
    for start in range(0, chunk.count, max(1, size)):
        if start == 0 and size >= chunk.count:
            yield chunk
            return
        yield chunk.part(start, min(start + size, chunk.count))


# --- gradcli functions ------------------------------------------------------------------------


@dataclass(frozen=True)
class FunctionEntry:
    """One row of the op table as a user meets it: how it is written and what PyTorch calls its node."""

    name: str
    group: str
    arity: int  # -1: any number (a list literal)
    spelling: str  # how a program writes it: `sin(x)`, `a + b`, `v[i]`
    aliases: tuple[str, ...]
    methods: tuple[str, ...]
    torch_node: str


# The group of a row, by the module of the op table that holds it.
_GROUPS = {"elementwise": "elementwise functions", "predicates": "elementwise functions", "reductions": "reductions", "structure": "structure",
           "shape": "shape", "linalg": "linear algebra", "indexing": "structure", "construct": "constructors", "nn": "torch.nn.functional",
           "losses": "torch.nn.functional", "layers": "torch.nn.functional", "conv": "torch.nn.functional",
           "resample": "torch.nn.functional", "sorting": "reductions", "special": "elementwise functions",
           "decompositions": "linear algebra", "masked": "reductions", "compositions": "linear algebra",
           "statistics": "reductions", "lu": "linear algebra", "writes": "structure", "recurrent": "torch.nn.functional",
           "numpy_forms": "NumPy's functions"}


def functions() -> list[FunctionEntry]:
    """Every op of the table, grouped: operators first, then the functions, as `gradcli functions` lists them."""
    from gradcli.ops import OPS

    entries = []
    for op in OPS.values():
        group = "operators" if op.symbol else _GROUPS[_row_module(op)]
        entries.append(FunctionEntry(op.name, group, op.arity, _spelling(op), op.spellings, op.methods, op.torch_node))
    order = ["operators", "elementwise functions", "reductions", "structure", "shape", "linear algebra",
             "torch.nn.functional", "constructors", "NumPy's functions"]
    return sorted(entries, key=lambda entry: order.index(entry.group))


def _row_module(op: Any) -> str:
    from gradcli.ops import MODULES

    for module in MODULES:
        if any(row is op for row in module.ROWS):
            return module.__name__.rsplit(".", 1)[-1]
    raise AssertionError(f"{op.name} is in no module of the op table")


def _spelling(op: Any) -> str:
    """How a program writes the op, by its own print rule: `x + y`, `sin(x)`, `x[1]` (the parameters
    of the row's first example, for a form that has some)."""
    from gradcli.ops import node_text

    arguments = ["x", "y", "z"][: op.arity] if op.arity in (1, 2, 3) else list("abcdf"[: op.arity]) if op.arity > 3 else [
        "a", "b"]
    params = op.examples[0][1] if op.examples else {}
    return node_text(op, arguments, params)


# --- gradcli run: a PyTorch autograd file, and why -------------------------------------------


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class RunRequest:
    """What `gradcli run` was asked: the file ('-': stdin) and the views of its backward calls."""

    file: str
    graph: bool = False
    paths: bool = False
    explain: bool = False
    max_paths: int = 16
    max_steps: int = 10_000_000  # statements and loop iterations (exit 2 past them)
    timeout: float = 60.0  # seconds (exit 2 past them)
    calls: bool = True  # a report of each backward call (--json and the views need them; the file's output does not)


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class BackwardReport:
    """One backward (or autograd.grad) call of the file, with the views asked for."""

    kind: str  # "backward" or "autograd.grad"
    line: int
    result: GradResult
    graph: GraphReport | None = None
    paths: list[InputPaths] | None = None
    path_names: PathNames | None = None
    explanation: Explanation | None = None


@dataclass(eq=False, repr=False)  # eq/repr left out: they cost start-up time
class RunReport:
    source: str
    calls: list[BackwardReport]
    error: str | None  # what PyTorch would have raised: `RuntimeError: ...` (exit 1)


def run_file(request: RunRequest, out: Any, errors: Any = None) -> RunReport:
    """Run the file, its prints written to `out` as they come (PyTorch's warnings to `errors`, as
    Python writes them); then each backward call's views."""
    from gradcli.run.interpreter import run
    from gradcli.run.tensor import TorchError

    if request.paths:
        from gradcli.paths import check_max_paths

        check_max_paths(request.max_paths)
    source = read_program(None, request.file, as_written=True)
    error = None
    interpreter: Any = None
    try:
        interpreter = run(source, out, "<stdin>" if request.file == "-" else request.file, errors,
                          max_steps=request.max_steps, timeout=request.timeout)
    except TorchError as raised:
        interpreter, error = getattr(raised, "interpreter", None), raised.line()
    reports = []
    lines = source.splitlines()
    for call in interpreter.calls if interpreter is not None and request.calls else []:
        result = interpreter.result_of(call, trace=request.explain)
        report = BackwardReport(call.kind, call.line, result)
        said = lines[call.line - 1].strip() if 0 < call.line <= len(lines) else source  # the call, as written
        if request.graph:
            from gradcli.jacobians import edge_locals
            from gradcli.torch_graph import backward_graph

            drawn = backward_graph(result.tape, result.roots, result.values)
            report.graph = GraphReport(said, drawn, result.roots, result.root_names, result,
                                       edge_locals(result.tape, result.values, drawn))
        if request.paths:
            from gradcli.paths import paths as find_paths

            report.paths = find_paths(result, request.max_paths)
            report.path_names = path_names(result, report.paths)
        if request.explain:
            report.explanation = explanation(result, said)
        reports.append(report)
    return RunReport(source, reports, error)
