"""One exception family for everything a user can get wrong, each with its exit code.

`describe` is the one place that turns an error into the lines printed on stderr.
"""

from __future__ import annotations

import os
from enum import IntEnum
from typing import ClassVar


class ExitCode(IntEnum):
    OK = 0
    CHECK_FAILED = 1  # --check found the gradient and its references apart
    BAD_INPUT = 2  # syntax, unknown name, missing value, shape or seed mismatch
    NON_FINITE = 3  # a NaN or infinity under --strict
    INTERNAL = 4  # a bug in gradcli itself


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


class LimitProblem(GradcliError):
    """Input past one of gradcli's size limits."""


class NonFiniteProblem(GradcliError):
    exit_code = ExitCode.NON_FINITE


class CheckFailed(GradcliError):
    exit_code = ExitCode.CHECK_FAILED


def line_and_column(source: str, offset: int) -> tuple[int, int, str]:
    """1-based line and column of `offset`, and the text of that line."""
    line_start = source.rfind("\n", 0, offset) + 1
    line_end = source.find("\n", offset)
    if line_end < 0:
        line_end = len(source)
    line_number = source.count("\n", 0, line_start) + 1
    return line_number, offset - line_start + 1, source[line_start:line_end]


def describe(error: GradcliError) -> list[str]:
    """The lines to print for `error`: the message with its column, then a caret line."""
    prefix = f"{error.where}: " if error.where else ""
    hint = f"; {error.hint}" if error.hint else ""
    if error.source is None or error.span is None:
        return [f"gradcli: error: {prefix}{error.message}{hint}"]
    start, end = error.span
    line, column, text = line_and_column(error.source, start)
    place = f"column {column}" if "\n" not in error.source else f"line {line}, column {column}"
    width = max(1, min(end, start + len(text) - column + 1) - start)
    # Long lines are cut around the column so the caret stays on screen.
    window_start = max(0, column - 1 - 60)
    shown = text[window_start : window_start + 120]
    lead = "..." if window_start else ""
    caret = " " * (len(lead) + column - 1 - window_start) + "^" * min(width, 120)
    return [
        f"gradcli: error: {prefix}{error.message} at {place}{hint}",
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
        "elements": ("GRADCLI_MAX_ELEMENTS", 10_000_000),  # elements of one value typed in (a list or a range)
        "line_chars": ("GRADCLI_MAX_LINE", 1_000_000),  # one line of --points
        # elements of a Jacobian or a Hessian, of one sweep's batch of Hessian directions, and of
        # the Jacobians of the points of --points computed at once (4M: a run stays under ~0.5 GB)
        "jacobian": ("GRADCLI_MAX_JACOBIAN", 4_000_000),
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
