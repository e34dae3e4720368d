"""The scalar path's gradient and Hessian tables and the graph's tree written without rich, byte for byte as rich
writes them.

Importing rich is a fifth of a one-point run, and the scalar path's table (names and numbers, each
one line of ASCII) uses nothing of its layout: a column is as wide as its widest cell, and the
header is bold on a terminal. Wherever rich would do more (a terminal narrower than the table, a
text that is not ASCII, a variable of the environment that rich reads, an encoding without the
box characters), `plain_output` answers None and rich writes the table (render/table.py), as
it writes every other view.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from gradcli.scalar import NumbersHessian, NumbersJacobian, NumbersJvp, NumbersResult
    from gradcli.session import Explanation

# Variables with which rich decides how a console looks (colours forced or refused, a tty that is not one,
# a notebook's size): where one is set, rich writes.
_RICH_ENVIRONMENT = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS",
                     "JUPYTER_LINES")
_UNWRAPPED = 1_000_000  # (commands.UNWRAPPED_WIDTH: a pipe or a file is never wrapped)


class Plain(NamedTuple):
    """How rich's console would write to stdout: bold as ANSI codes or not, and the width it wraps at."""

    bold: bool
    width: int


def plain_output() -> Plain | None:
    """The console that commands.console() would make, where its output is plain enough to write here; None
    where rich must decide."""
    if sys.platform == "win32" or any(name in os.environ for name in _RICH_ENVIRONMENT):
        return None
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower()
    if not encoding.startswith("utf"):
        return None  # (rich draws the box in ASCII)
    try:
        terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if not terminal:
        return Plain(False, _UNWRAPPED)
    if os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return None
    width = None
    for descriptor in (0, 1, 2):  # (rich's order)
        try:
            width = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    return Plain(True, width or 80)


def grad_table(result: NumbersResult, plain: Plain) -> str | None:
    """render.table.show_grad's text for a gradient of the scalar path; None where a line would not fit the
    width, or a text is not ASCII."""
    from gradcli.render.numbers import human

    def bold(text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if plain.bold else text

    name = result.root_names[0]
    header = ("input", "value", f"d {name} / d input")
    rows = [(input_name, human(result.values[result.tape.inputs[input_name]]), human(result.grad[input_name]))
            for input_name in result.wrt]
    value = human(result.value)
    texts = [name, value, *header, *(text for row in rows for text in row)]
    if not all(text.isascii() and text.isprintable() for text in texts):
        return None
    if len(name) + 3 + len(value) > plain.width:
        return None
    grid = _grid(header, rows, plain)
    return None if grid is None else "\n".join([f"{bold(name)} = {value}", *grid]) + "\n"


def _grid(header: tuple[str, ...], rows: Sequence[tuple[str, ...]], plain: Plain) -> list[str] | None:
    """rich's Table(show_edge=False, header_style="bold") of these ASCII cells, the first column to the left and the
    others to the right, as lines; None where it is wider than the console."""
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    if sum(widths) + 3 * len(widths) - 1 > plain.width:
        return None

    def bold(text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if plain.bold else text

    def cells(row: tuple[str, ...]) -> list[str]:
        return [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))]

    return ["┃".join(bold(" ") + bold(cell) + bold(" ") for cell in cells(header)),
            "╇".join("━" * (width + 2) for width in widths),
            *("│".join(f" {cell} " for cell in cells(row)) for row in rows)]


def _wrapped(text: str, width: int) -> list[str] | None:
    """rich's wrapping of one line of ASCII words at `width` (rich._wrap.divide_line, then the whitespace beyond the
    width cut); None where a word is longer than a line (rich folds it)."""
    lines: list[str] = []
    start = offset = 0
    for word in re.finditer(r"\s*\S+\s*", text):
        length = len(word.group().rstrip())
        if width - offset >= length:
            offset += len(word.group())
            continue
        if length > width:
            return None
        if offset and word.start():
            lines.append(text[start:word.start()])
            start, offset = word.start(), len(word.group())
    lines.append(text[start:])
    return [line[: max(width, len(line.rstrip()))] if len(line) > width else line for line in lines]


def hessian_note(result: Any) -> str:
    """The line under a Hessian's table (render.derivatives.show_hessian's too)."""
    return ("forward-over-reverse (dual numbers through the reverse sweep); largest asymmetry made symmetric "
            f"(rounding): {result.asymmetry:.2g}")


def hessian_table(result: NumbersHessian, plain: Plain) -> str | None:
    """render.derivatives.show_hessian's text for a Hessian of the scalar path; None where a line would not fit
    the width, or a text is not ASCII."""
    from gradcli.render.numbers import human

    names = list(result.blocks)
    rows = [(a, *(human(result.blocks[a][b]) for b in names)) for a in names]
    if not names:
        return None
    return _matrix_text(result.tape.output_names[0], result.value, "Hessian", ("", *names), rows, hessian_note(result),
                        plain)


def jacobian_table(result: NumbersJacobian, plain: Plain) -> str | None:
    """render.derivatives.show_jacobian's text for a Jacobian of the scalar path (one output, a row); None where a
    line would not fit the width, or a text is not ASCII."""
    from gradcli.render.derivatives import JACOBIAN_SUMMARY, jacobian_note, jacobian_title
    from gradcli.render.numbers import human

    (name,), (value,), (block,) = result.output_names, result.outputs, result.blocks
    names = list(block)
    if not names or len(names) > JACOBIAN_SUMMARY:  # (rich summarises a big one: left to it)
        return None
    title = jacobian_title(result.output_names, names, 1, len(names))
    return _matrix_text(name, value, title, ("", *names), [(name, *(human(block[b]) for b in names))],
                        jacobian_note(result.mode, False), plain)


def _matrix_text(name: str, value: float, title: str, header: tuple[str, ...], rows: list[tuple[str, ...]], note: str,
                 plain: Plain) -> str | None:
    """The output's value, then render.derivatives._matrix_table's titled table and a note under it, as rich writes
    them (on a terminal: the title wrapped to the table's width, the note to the terminal's); None where a line
    would not fit the width, or a text is not ASCII."""
    from gradcli.render.numbers import human_line

    shown = human_line(value)
    texts = [name, shown, note, *(text for row in rows for text in row)]
    if not all(text.isascii() and text.isprintable() for text in texts):
        return None
    grid = _grid(header, rows, plain)
    if grid is None or len(name) + 3 + len(shown) > plain.width:
        return None
    if not plain.bold:
        return "\n".join([f"{name} = {shown}", title, *grid, note]) + "\n"
    width = sum(max(len(row[column]) for row in [header, *rows]) + 3 for column in range(len(header))) - 1
    titles, notes = _wrapped(title, width), _wrapped(note, plain.width)
    if titles is None or notes is None:
        return None
    lines = [f"\x1b[1m{name}\x1b[0m = {shown}", *(f"\x1b[3m{line.ljust(width)}\x1b[0m" for line in titles), *grid,
             *(f"\x1b[2m{line}\x1b[0m" for line in notes)]
    return "\n".join(lines) + "\n"


def jvp_text(result: NumbersJvp, plain: Plain) -> str | None:
    """render.derivatives.show_jvp's text for a JVP of the scalar path; None where a line would not fit the width, or
    a text is not ASCII."""
    from gradcli.render.derivatives import jvp_note
    from gradcli.render.numbers import human_line

    (name,) = result.output_names
    lines = [f"{name} = {human_line(result.value)}", f"  tangent of {name} (J @ tangent) = {human_line(result.jvp)}"]
    note = jvp_note(result.tangent)
    if not all(line.isascii() and line.isprintable() and len(line) <= plain.width for line in [*lines, note]):
        return None
    notes = _wrapped(note, plain.width)
    if notes is None:
        return None
    if plain.bold:
        lines[0] = f"\x1b[1m{name}\x1b[0m{lines[0][len(name):]}"
        lines += [f"\x1b[2m{line}\x1b[0m" for line in notes]
    else:
        lines.append(note)
    return "\n".join(lines) + "\n"


def show_plain(result: Any) -> bool:
    """Write a Jacobian's, a Hessian's or a JVP's view here, where it is the scalar path's and rich would write it
    plainly; False where rich is to write it."""
    from gradcli.scalar import NumbersHessian, NumbersJacobian, NumbersJvp

    views: dict[type, Callable[[Any, Plain], str | None]] = {NumbersHessian: hessian_table,
                                                              NumbersJacobian: jacobian_table, NumbersJvp: jvp_text}
    text_of = views.get(type(result))
    if text_of is None or result.warnings:
        return False
    plain = plain_output()
    text = None if plain is None else text_of(result, plain)
    if text is None:
        return False
    sys.stdout.write(text)
    return True


def show_plain_grad(report: Any) -> bool:
    """Write a gradient report's table here, where it is the scalar path's bare gradient and rich would write it
    plainly; False where rich is to write it."""
    from gradcli.scalar import NumbersResult

    if type(report.result) is not NumbersResult or report.warnings or report.paths is not None \
            or report.symbolic is not None or report.check is not None or report.result.warnings:
        return False
    plain = plain_output()
    text = None if plain is None else grad_table(report.result, plain)
    if text is None:
        return False
    sys.stdout.write(text)
    return True


# rich's ANSI codes for the styles a plain tree uses (an attribute's number, then a colour's)
_CODES = {"": "", "dim": "2", "bold": "1", "bold cyan": "1;36"}


def graph_tree(lines: list[tuple[int, tuple[tuple[str, str], ...]]], plain: Plain) -> str | None:
    """render.graph.tree's text for the lines of render.graph.tree_lines, as rich writes a Tree with guide_style
    "dim"; None where a line would not fit the width, a label has lines of its own, or a text is not ASCII."""
    def written(text: str, style: str) -> str:
        code = _CODES[style]
        return f"\x1b[{code}m{text}\x1b[0m" if plain.bold and code else text

    last = [True] * len(lines)  # is the line its parent's last child? (no sibling follows before a shallower line)
    later: set[int] = set()  # the depths of the lines below, each before any shallower line
    for index in range(len(lines) - 1, -1, -1):
        depth = lines[index][0]
        last[index] = depth not in later
        later = {d for d in later if d < depth}
        later.add(depth)
    out = []
    open_levels: list[bool] = []  # per depth from 1: is that ancestor its parent's last child?
    for index, (depth, parts) in enumerate(lines):
        if any(style not in _CODES for _, style in parts):
            return None
        text = "".join(part for part, _ in parts)
        if not (text.replace("×", "").isascii() and text.isprintable()):
            return None
        if depth == 0:
            guides = ""
            guide_width = 0
        else:
            del open_levels[depth - 1:]
            chunks = ["    " if ancestor_last else "│   " for ancestor_last in open_levels]
            chunks.append("└── " if last[index] else "├── ")
            open_levels.append(last[index])
            guides = "".join(written(chunk, "dim") for chunk in chunks)
            guide_width = 4 * len(chunks)
        if guide_width + len(text) > plain.width:
            return None
        out.append(guides + "".join(written(part, style) for part, style in parts if part))
    return "\n".join(out) + "\n"


_NARROW = frozenset("×∂")  # the characters besides ASCII that explain writes, each one cell wide, as rich measures them


def _styled(text: str, code: str, plain: Plain) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if plain.bold and text else text


def explanation_text(explanation: Explanation, plain: Plain) -> str | None:
    """render.explain.show_explanation's text for an explanation whose every step is a product of numbers; None
    where a line would not fit the width, or a text is not ASCII (or one of _NARROW)."""
    from gradcli.errors import visible
    from gradcli.render.numbers import human, human_line

    result, names, torch_names = explanation.result, explanation.names, explanation.torch_names
    if not all(step.scalar for step in explanation.steps) or any(type(seed) is not float for seed in result.seeds):
        return None
    source = explanation.source or result.tape.source
    word = "Program" if explanation.source in ("", result.tape.source) else "Call"
    shown = visible(source.strip(), lines=True)
    if "\t" in shown:
        return None  # (rich expands tabs)
    lines = [_styled(word, "1", plain) + "  " + shown, "", _styled("Forward: the tape, evaluated top to bottom", "1", plain)]
    header = ("node", "name", "definition", "value", "PyTorch node")
    rows = [(names[index], name, definition, human(result.values[index]), torch_names.get(index, ""))
            for index, name, definition in explanation.forward]
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    right = (True, False, False, True, False)

    def cells(row: tuple[str, ...]) -> list[str]:
        return [cell.rjust(width) if to_right else cell.ljust(width)
                for cell, width, to_right in zip(row, widths, right, strict=True)]

    lines.append("".join(_styled(" ", "1", plain) + _styled(cell, "1", plain) + _styled(" ", "1", plain)
                         for cell in cells(header)))
    lines += ["".join(f" {cell} " for cell in cells(row)) for row in rows]
    lines += ["", _styled("Backward: adjoints from the output back to the inputs", "1", plain)]
    note = _wrapped("v.grad is d(output)/d(v); each line applies the chain rule to one edge, and '+=' adds what "
                    "arrives along another path.", plain.width)
    if note is None:
        return None
    lines += [_styled(line, "2", plain) for line in note]
    for root, name, seed in zip(result.roots, result.root_names, result.seeds, strict=True):
        lines.append(f"  seed: {names[root]}.grad = {human_line(seed)}   (d {name} / d {name} = 1)")
    definitions = {index: definition for index, _, definition in explanation.forward}
    current = -1
    for explained in explanation.steps:
        step = explained.step
        source_name, target = names[step.node], names[step.arg]
        if step.node != current:
            current = step.node
            lines += ["", f"  {source_name} = {definitions[step.node]}   " + _styled(
                f"{torch_names[step.node]}, {source_name}.grad = {human_line(result.adjoints[step.node])}", "2", plain)]
        formula_text = f" = {explained.formula}" if explained.formula else ""
        before = "" if step.total is step.contribution else \
            f"   (accumulated: {human_line(step.total - step.contribution)} was there)"
        lines.append(f"    {target}.grad += {source_name}.grad × ∂{source_name}/∂{target}{formula_text} = "
                     f"{human_line(result.adjoints[step.node])} × {human_line(explained.factor)} = "
                     f"{human_line(step.contribution)}  ->  {human_line(step.total)}" + _styled(before, "2", plain))
    lines += ["", _styled("Result", "1", plain)]
    lines += [f"  {name}.grad = {human_line(gradient)}" for name, gradient in result.grad.items()]
    text = "\n".join(lines) + "\n"
    for line in re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines():
        if len(line) > plain.width or not all(c in _NARROW or (c.isascii() and c.isprintable()) for c in line):
            return None
    return text


def show_plain_explanation(explanation: Explanation) -> bool:
    """Write an explanation here, where it is the scalar path's and rich would write it plainly; False where rich is
    to write it."""
    from gradcli.scalar import NumbersResult

    if type(explanation.result) is not NumbersResult:
        return False
    plain = plain_output()
    text = None if plain is None else explanation_text(explanation, plain)
    if text is None:
        return False
    sys.stdout.write(text)
    return True
