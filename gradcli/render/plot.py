"""The views of `gradcli plot`: a text plot, a standalone SVG chart, an offline HTML page, JSON.

Drawn by hand: a text plot is a grid of characters, an SVG chart a few dozen elements, and both
need nothing that `import numpy` has not brought (plotext costs as much again to import, and
draws no SVG; matplotlib is too heavy for the install). Every curve is drawn from its values
alone; a value that is NaN or infinite is a gap, where the line breaks. User text (the program,
the labels) is made visible (text) or escaped (SVG, HTML) here, before it is drawn.
"""

from __future__ import annotations

import math
import os
from html import escape  # (xml.sax.saxutils would bring urllib and email: 60 ms)
from typing import Any

import numpy as np

from gradcli.errors import NameProblem, cannot_write, visible

# What --output FILE writes, by its extension.
KINDS = {".svg": "svg", ".html": "html", ".htm": "html", ".json": "json", ".txt": "text"}
MARKERS = "*+ox#%@=&$"  # the text plot's mark of each curve, in order
COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
HEIGHT = 20  # rows of the text plot's area


# --- where it goes --------------------------------------------------------------------------


def destination(path: str, format: str | None) -> str:
    """The format to write `path` in (--format, else its extension), refused before any work when the
    file cannot be written: a folder, a folder that is not there, or no permission."""
    if os.path.isdir(path):
        raise NameProblem(f"--output {path!r} is a directory")
    kind = KINDS.get(os.path.splitext(path)[1].lower())
    if format is None and kind is None:
        raise NameProblem(f"--output {path!r}: the extension says what is written: .svg, .html, .json or .txt "
                          "(or give --format)")
    if format is not None and kind is not None and kind != format:
        raise NameProblem(f"--output {path!r} writes {kind}, but --format says {format}: give one")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise NameProblem(f"--output {path!r}: there is no directory {folder!r}")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise NameProblem(f"--output {path!r} cannot be written: permission denied")
    return format or kind or "text"


def write(text: str, path: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
    except OSError as problem:
        raise cannot_write(problem) from None


# --- JSON: the series -----------------------------------------------------------------------


def document(result: Any) -> dict[str, Any]:
    """x and every curve's values (null where not finite), for tests and pipelines."""
    from gradcli.render.numbers import to_json

    doc: dict[str, Any] = {"expr": result.source, "over": result.over, "x": to_json(result.x),
                           "at": {name: to_json(v) for name, v in result.at.items()},
                           "curves": [{"label": c.label, "derivative": c.derivative, "values": to_json(c.values)}
                                      for c in result.curves]}
    if result.seed is not None:
        doc["seed"] = result.seed
    return doc


# --- scales and ticks -------------------------------------------------------------------------


def _bounds(values: list[np.ndarray]) -> tuple[float, float]:
    """The smallest and largest finite value, spread apart when they meet (or when there are none)."""
    finite = [v[np.isfinite(v)] for v in values]
    finite = [v for v in finite if v.size]
    if not finite:
        return -1.0, 1.0
    low, high = min(float(v.min()) for v in finite), max(float(v.max()) for v in finite)
    if low == high:
        spread = abs(low) * 0.1 or 1.0
        return low - spread, high + spread
    return low, high


def ticks(low: float, high: float, wanted: int = 5) -> list[float]:
    """Round values (1, 2 or 5 times a power of ten apart) from low to high, about `wanted` of them."""
    raw = (high - low) / max(1, wanted - 1)
    if not math.isfinite(raw) or raw <= 0:
        return [low]
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * 0.999)
    first = math.ceil(low / step - 1e-9)
    found = []
    for k in range(first, first + wanted * 3):
        value = k * step
        if value > high + step * 1e-9:
            break
        found.append(0.0 if abs(value) < step * 1e-9 else value)
    return found


def nice_bounds(low: float, high: float, wanted: int) -> tuple[float, float]:
    """low and high widened to the round values around them (relu over -8:8 goes from 0 to 8)."""
    found = ticks(low, high, wanted)
    if len(found) < 2:
        return low, high
    step = found[1] - found[0]
    return min(low, found[0] - step if found[0] > low else found[0]), max(high, found[-1] + step if found[-1] < high
                                                                        else found[-1])


def tick_label(value: float) -> str:
    return f"{value:.6g}".replace("e+0", "e").replace("e-0", "e-")


def _label(curve: Any) -> str:
    note = f"  ({curve.missing:,} not finite)" if curve.missing else ""
    return visible(curve.label) + note


# --- the text plot ----------------------------------------------------------------------------


def _segments(cols: np.ndarray, rows: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells a curve passes through: its points, and the cells between neighbours that are both
    finite (a gap breaks the line)."""
    joined = ok[:-1] & ok[1:]
    start = np.flatnonzero(joined)
    steps = np.maximum(np.abs(cols[start + 1] - cols[start]), np.abs(rows[start + 1] - rows[start])).astype(np.int64)
    steps = np.maximum(steps, 1)
    which = np.repeat(start, steps)
    part = (np.arange(int(steps.sum())) - np.repeat(np.cumsum(steps) - steps, steps)) / np.repeat(steps, steps)
    line_cols = np.rint(cols[which] + part * (cols[which + 1] - cols[which])).astype(np.int64)
    line_rows = np.rint(rows[which] + part * (rows[which + 1] - rows[which])).astype(np.int64)
    return (np.concatenate([line_cols, cols[ok].astype(np.int64)]),
            np.concatenate([line_rows, rows[ok].astype(np.int64)]))


def text(result: Any, width: int = 80, height: int = HEIGHT) -> str:
    """The curves on a grid of characters `width` columns wide: y ticks on the left, x ticks below,
    each curve its own mark, a dotted line at y = 0, and a legend naming each curve by its mark."""
    x = np.asarray(result.x, dtype=float)
    x_low, x_high = _bounds([x])
    y_low, y_high = nice_bounds(*_bounds([c.values for c in result.curves]), 5)
    y_ticks = ticks(y_low, y_high, 5)
    gutter = max(len(tick_label(t)) for t in y_ticks) + 1
    columns = max(10, width - gutter - 2)
    grid = [[" "] * columns for _ in range(height)]

    def col_of(v: np.ndarray) -> np.ndarray:
        return np.rint((v - x_low) / (x_high - x_low) * (columns - 1))

    def row_of(v: np.ndarray) -> np.ndarray:
        return np.rint((y_high - v) / (y_high - y_low) * (height - 1))

    if y_low < 0 < y_high:
        zero = int(row_of(np.array(0.0)))
        grid[zero] = ["·"] * columns
    x_finite = np.isfinite(x)
    for number, curve in reversed(list(enumerate(result.curves))):  # the first curve is drawn last, on top
        values = np.asarray(curve.values, dtype=float)
        ok = x_finite & np.isfinite(values)
        cols, rows = _segments(col_of(np.where(ok, x, x_low)), row_of(np.where(ok, values, y_low)), ok)
        mark = MARKERS[number % len(MARKERS)]
        for c, r in set(zip(cols.tolist(), rows.tolist(), strict=True)):
            grid[r][c] = mark
    labels = {int(row_of(np.array(t))): tick_label(t) for t in y_ticks}
    lines = [f"{labels.get(r, ''):>{gutter - 1}} {'┤' if r in labels else '│'}{''.join(row)}"
             for r, row in enumerate(grid)]
    x_ticks = ticks(x_low, x_high, max(2, min(9, columns // 8)))
    axis = ["─"] * columns
    under = [" "] * (columns + gutter + 2)
    free = 0  # the first column of `under` not yet written
    for t in x_ticks:
        c = int(col_of(np.array(t)))
        axis[c] = "┬"
        label = tick_label(t)
        begin = max(0, min(gutter + 1 + c - len(label) // 2, len(under) - len(label)))
        if begin >= free:
            under[begin : begin + len(label)] = label
            free = begin + len(label) + 1
    lines.append(" " * gutter + "└" + "".join(axis))
    lines.append("".join(under).rstrip())
    name = visible(result.over)
    lines.append(" " * (gutter + 1 + max(0, (columns - len(name)) // 2)) + name)
    entries = [f"{MARKERS[i % len(MARKERS)]} {_label(c)}" for i, c in enumerate(result.curves)]
    legend = "   ".join(entries)
    if len(legend) + 2 <= width:
        lines.append("  " + legend)
    else:
        limit = max(10, width - 2)
        lines += ["  " + (e if len(e) <= limit else e[: limit - 3] + "...") for e in entries]
    return "\n".join(line.rstrip() for line in lines) + "\n"


# --- SVG and HTML -----------------------------------------------------------------------------

_WIDTH, _HEIGHT = 720, 420  # the chart
_LEFT, _RIGHT, _TOP, _BOTTOM = 70, 24, 44, 52  # the plot area's margins
_LEGEND_ROW = 20


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _runs(values: np.ndarray) -> list[tuple[int, int]]:
    """(start, stop) of each run of finite values."""
    ok = np.concatenate([[False], np.isfinite(values), [False]])
    edges = np.flatnonzero(ok[1:] != ok[:-1])
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def svg(result: Any) -> str:
    """A standalone SVG chart: title, axes with ticks and grid, one polyline per finite run of each
    curve (NaN and infinities break the line), and a legend."""
    x = np.asarray(result.x, dtype=float)
    x_low, x_high = _bounds([x])
    y_low, y_high = nice_bounds(*_bounds([c.values for c in result.curves]), 6)
    height = _HEIGHT + _LEGEND_ROW * len(result.curves)
    right, bottom = _WIDTH - _RIGHT, _HEIGHT - _BOTTOM

    def px(v: Any) -> Any:
        return _LEFT + (np.asarray(v, dtype=float) - x_low) / (x_high - x_low) * (right - _LEFT)

    def py(v: Any) -> Any:
        return bottom - (np.asarray(v, dtype=float) - y_low) / (y_high - y_low) * (bottom - _TOP)

    title = _short(visible(result.source.replace("\n", "; ")))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
           f'viewBox="0 0 {_WIDTH} {height}" font-family="sans-serif" font-size="12">',
           f"<title>{escape(title)}</title>",
           f'<rect width="{_WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{_LEFT}" y="24" font-size="14">{escape(title)}</text>',
           '<g class="grid" stroke="#e5e5e5" stroke-width="1">']
    x_ticks, y_ticks = ticks(x_low, x_high, 9), ticks(y_low, y_high, 6)
    out += [f'<line x1="{px(t):.2f}" y1="{_TOP}" x2="{px(t):.2f}" y2="{bottom}"/>' for t in x_ticks]
    out += [f'<line x1="{_LEFT}" y1="{py(t):.2f}" x2="{right}" y2="{py(t):.2f}"/>' for t in y_ticks]
    out.append("</g>")
    out.append(f'<g class="axes" stroke="#333" stroke-width="1"><line x1="{_LEFT}" y1="{bottom}" x2="{right}" '
               f'y2="{bottom}"/><line x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" y2="{bottom}"/></g>')
    out.append('<g class="ticks" fill="#333">')
    out += [f'<text x="{px(t):.2f}" y="{bottom + 16}" text-anchor="middle">{escape(tick_label(t))}</text>'
            for t in x_ticks]
    out += [f'<text x="{_LEFT - 6}" y="{py(t) + 4:.2f}" text-anchor="end">{escape(tick_label(t))}</text>'
            for t in y_ticks]
    out.append("</g>")
    out.append(f'<text class="xlabel" x="{(_LEFT + right) / 2:.2f}" y="{bottom + 36}" '
               f'text-anchor="middle">{escape(_short(visible(result.over)))}</text>')
    for number, curve in enumerate(result.curves):
        values = np.asarray(curve.values, dtype=float)
        color = COLORS[number % len(COLORS)]
        dash = ' stroke-dasharray="6 4"' if curve.derivative else ""
        out.append(f'<g class="curve" data-label="{escape(visible(curve.label))}" fill="none" stroke="{color}" '
                   f'stroke-width="1.5"{dash}>')
        finite_x = np.isfinite(x)
        for start, stop in _runs(np.where(finite_x, values, np.nan)):
            xs, ys = px(x[start:stop]), py(values[start:stop])
            out.append('<polyline points="' + " ".join(f"{a:.2f},{b:.2f}" for a, b in zip(xs, ys, strict=True))
                       + '"/>')
        out.append("</g>")
    out.append('<g class="legend">')
    for number, curve in enumerate(result.curves):
        y = _HEIGHT - 8 + _LEGEND_ROW * number
        dash = ' stroke-dasharray="6 4"' if curve.derivative else ""
        out.append(f'<line x1="{_LEFT}" y1="{y - 4}" x2="{_LEFT + 28}" y2="{y - 4}" '
                   f'stroke="{COLORS[number % len(COLORS)]}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{_LEFT + 36}" y="{y}">{escape(_short(_label(curve)))}</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def html(result: Any) -> str:
    """One self-contained page, the SVG inline: no script, no style sheet or font to fetch."""
    title = escape(_short(visible(result.source.replace("\n", "; "))))
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>gradcli plot: {title}</title>\n"
            "<style>body{font-family:sans-serif;margin:2em;color:#222}svg{max-width:100%;height:auto}</style>\n"
            f"</head>\n<body>\n<h1>{title}</h1>\n{svg(result)}</body>\n</html>\n")
