"""One exception family for everything a user can get wrong, each with its exit code.

`describe` is the one place that turns an error into the lines printed on stderr.
"""

from __future__ import annotations

import os
import re
from enum import IntEnum
from typing import Any, ClassVar


class ExitCode(IntEnum):
    OK = 0
    CHECK_FAILED = 1  # --check found the gradient and its references apart
    BAD_INPUT = 2  # syntax, unknown name, missing value, shape or seed mismatch
    NON_FINITE = 3  # a NaN or infinity under --strict
    INTERNAL = 4  # a bug in gradcli itself
    OUTPUT = 5  # the output could not be written (a full disk); a reader that left is 0


class GradcliError(Exception):
    """An error in what the user gave us; `source` and `span` locate it in the text."""

    exit_code = ExitCode.BAD_INPUT

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        span: tuple[int, int] | None = None,
        where: str = "",
        hint: str = "",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.span = span
        self.where = where  # which text the span points into: "", "--at", "--seed", ...
        self.hint = hint  # said after the column: what to do about it

    def locate(self, source: str, where: str = "") -> GradcliError:
        """Attach the text this error's span points into, unless it has one already."""
        if self.source is None:
            self.source = source
        if not self.where:
            self.where = where
        return self


class SyntaxProblem(GradcliError):
    """The text is not a program (or value) of the language."""


class NameProblem(GradcliError):
    """An unknown function, input, --of or --wrt name, or a missing value."""


class ShapeProblem(GradcliError):
    """Shapes that do not broadcast, a seed of the wrong shape, a non-scalar output."""


class ValueProblem(ShapeProblem):
    """Values PyTorch refuses at a call (a variance below 0): over --points, the lines that hold them."""


class LimitProblem(GradcliError):
    """Input past one of gradcli's size limits."""


class PointsProblem(GradcliError):
    """A bad line in a --points file; `line` is its 1-based number (a row's, in a table: `unit` "row")."""

    def __init__(self, line: int, message: str, unit: str = "line") -> None:
        super().__init__(f"{unit} {line}: {message}", where="--points")
        self.line = line
        self.row = line  # the data row: the line, less a CSV header's (set where the header is known)
        self.reason = message  # what is wrong, without where (--mark-bad writes it beside the line's number)
        self.extra: dict[str, Any] = {}  # the line's columns carried through, where they could be read (--mark-bad)


class NonFiniteProblem(GradcliError):
    exit_code = ExitCode.NON_FINITE


class CheckFailed(GradcliError):
    exit_code = ExitCode.CHECK_FAILED


class OutputProblem(GradcliError):
    """Writing the output failed: not the user's input, and not a success either."""

    exit_code = ExitCode.OUTPUT


def cannot_write(problem: OSError) -> OutputProblem:
    return OutputProblem(f"cannot write the output: {problem.strerror or problem}")


def out_of_memory(problem: MemoryError) -> LimitProblem:
    """Memory that ran out, said as a limit: what was too big (NumPy names the array) and what to do."""
    what = str(problem)
    what = f": {what[:1].lower()}{what[1:]}" if what else ""
    return LimitProblem(f"out of memory{what}", hint="give smaller values, or lower GRADCLI_MAX_ELEMENTS so that "
                        "runs this large are refused before they start")


def line_and_column(source: str, offset: int) -> tuple[int, int, str]:
    """1-based line and column of `offset`, and the text of that line."""
    line_start = source.rfind("\n", 0, offset) + 1
    line_end = source.find("\n", offset)
    if line_end < 0:
        line_end = len(source)
    line_number = source.count("\n", 0, line_start) + 1
    return line_number, offset - line_start + 1, source[line_start:line_end]


# Characters a terminal acts on instead of showing: C0 and C1 controls, DEL, and the
# invisible format characters (zero widths, bidirectional overrides, line separators, BOM);
# and lone surrogates: a byte of argv that is not UTF-8 (U+DC80-U+DCFF), which would be
# written back as that raw byte (0x9b is CSI), or fail to be written at all.
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")
_HIDDEN_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff"
                               "\ud800-\udfff]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    if "\udc80" <= char <= "\udcff":  # the byte that was not UTF-8, as the user typed it
        return f"\\x{ord(char) - 0xdc00:02x}"
    return _SHORT.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


def visible(text: str, lines: bool = False) -> str:
    """User text made safe to show: every control or invisible character written as an escape.

    `\\x1b` instead of ESC, so that a program, a name or a file name can never move the cursor,
    set the terminal's title or hide part of a line. With `lines`, newlines and tabs stay (a
    program shown as a block).
    """
    return (_HIDDEN_BUT_LINES if lines else _HIDDEN).sub(_escape, text)


def describe(error: GradcliError) -> list[str]:
    """The lines to print for `error`: the message with its column, then a caret line.

    Every line is passed through `visible`: the text the caret points into is the user's.
    """
    prefix = f"{error.where}: " if error.where else ""
    hint = f"; {error.hint}" if error.hint else ""
    if error.source is None or error.span is None:
        return [visible(f"gradcli: error: {prefix}{error.message}{hint}")]
    start, end = error.span
    line, column, text = line_and_column(error.source, start)
    place = f"column {column}" if "\n" not in error.source else f"line {line}, column {column}"
    width = max(1, min(end, start + len(text) - column + 1) - start)
    # Long lines are cut around the column so the caret stays on screen.
    window_start = max(0, column - 1 - 60)
    shown = visible(text[window_start : window_start + 120])
    lead = "..." if window_start else ""
    # The caret is placed in the text as shown, where an escaped character is several wide.
    before = len(visible(text[window_start : column - 1]))
    under = len(visible(text[column - 1 : column - 1 + min(width, 120)]))
    caret = " " * (len(lead) + before) + "^" * max(1, under)
    return [
        visible(f"gradcli: error: {prefix}{error.message} at {place}{hint}"),
        f"  {lead}{shown}",
        f"  {caret}",
    ]


class Limits:
    """gradcli's size limits, each with its default and the environment variable that changes it.

    Every limit answers with a LimitProblem naming the variable, never a hang or a crash.
    """

    DEFAULTS: ClassVar[dict[str, tuple[str, int]]] = {
        "program_chars": ("GRADCLI_MAX_PROGRAM_CHARS", 20_000_000),  # the program's text
        "depth": ("GRADCLI_MAX_DEPTH", 200_000),  # brackets nested in the program
        "nodes": ("GRADCLI_MAX_NODES", 5_000_000),  # nodes of the tape
        "elements": ("GRADCLI_MAX_ELEMENTS", 10_000_000),  # elements of one value, typed in or computed
        # elements of all a program's values at one point together (its adjoints take as much again)
        "tape_elements": ("GRADCLI_MAX_TAPE_ELEMENTS", 100_000_000),
        "line_chars": ("GRADCLI_MAX_LINE", 1_000_000),  # one line of --points
        "path_steps": ("GRADCLI_MAX_PATH_STEPS", 500_000),  # the work of --paths (paths.search_steps)
        "explain": ("GRADCLI_MAX_EXPLAIN", 10_000),  # nodes and edges `gradcli explain` writes out
        # elements of a Jacobian or a Hessian, of one sweep's batch of Hessian directions, and of
        # the Jacobians of the points of --points computed at once (4M: a run stays under ~0.5 GB)
        "jacobian": ("GRADCLI_MAX_JACOBIAN", 4_000_000),
        "int_digits": ("GRADCLI_MAX_INT_DIGITS", 100_000),  # digits of a Python integer `gradcli run` computes
        # multiply-adds of one einsum (and what is written as one: tensordot, inner), as planned
        "contraction": ("GRADCLI_MAX_CONTRACTION", 10_000_000_000),
    }

    @classmethod
    def get(cls, name: str) -> int:
        variable, default = cls.DEFAULTS[name]
        text = os.environ.get(variable)
        if text is None:
            return default
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            value = 0
        if value <= 0:
            raise LimitProblem(f"{variable} must be a positive whole number, not {text!r}")
        return value

    @classmethod
    def variable(cls, name: str) -> str:
        return cls.DEFAULTS[name][0]


def over_limit(what: str, name: str, **where: object) -> LimitProblem:
    """The error for going past limit `name`: says the limit and how to raise it."""
    return LimitProblem(f"{what} (the limit is {Limits.get(name):,})", hint=f"raise it with {Limits.variable(name)}=N",
                        **where)  # type: ignore[arg-type]
