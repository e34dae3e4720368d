"""The backward graph as a picture: an SVG, and one self-contained HTML page around it.

No system binary draws it: `layered` is a small Sugiyama layout. Each node gets a layer (its
longest distance from a root, AccumulateGrad leaves all on the bottom layer); an edge that
spans several layers is cut into one dummy point per layer it crosses; a few barycentric
sweeps order each layer (the best ordering, by crossings counted, is kept); then each layer's
x positions are pulled towards their neighbours' and pushed apart again to stay in order
(a least-squares fit under the boxes' widths, by pool-adjacent-violators). Every sweep is a
loop over the layers: nothing recurses, whatever the graph's depth.

User text (the program, names) is written through `visible` and escaped for XML; the HTML
page reads its node data from JSON whose `<`, `>` and `&` are written as \\u escapes, so no
text of the program can close a tag or a script.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np

from gradcli.errors import visible
from gradcli.numbers import human, human_line
from gradcli.render.graph import GraphView
from gradcli.torch_graph import GraphNode

CHAR_WIDTH = 7.2  # px of one character of the 12 px monospace font
LINE_HEIGHT = 15
PADDING = 8  # inside a box
GAP_X = 24  # between boxes of a layer
GAP_Y = 46  # between layers
MARGIN = 16
MAX_LINE = 40  # characters of a line in a box; the whole text is in its tooltip and the page's panel
DUMMY_WIDTH = 8  # the width a long edge takes where it crosses a layer
SWEEPS = 8  # barycentric sweeps (each one down and one up), fewer when two in a row gain nothing
SWEEP_BUDGET = 400_000  # vertices swept: a graph with many dummies gets fewer sweeps (at least 2)
MAX_DUMMIES = 50_000  # past this many, leaves sit just under their lowest user instead of at the bottom


# --- the layout: plain integers in, positions out ------------------------------------------------


@dataclass
class Layout:
    """Where each vertex goes (x: its centre, layer: its row) and the points of each edge."""

    x: list[float]
    layer: list[int]
    rows: list[list[int]]  # vertices of each layer, left to right (dummies included)
    bends: list[list[int]]  # per edge, the dummy vertices it passes through, top to bottom
    crossings: int


def layered(count: int, edges: Sequence[tuple[int, int]], widths: Sequence[float], layer: Sequence[int],
            sweeps: int = SWEEPS) -> Layout:
    """A layered layout of `count` vertices whose layers are given (each edge going down at least one).

    Vertices past `count` are the dummies of long edges, made here.
    """
    layer = list(layer)
    width = list(widths)
    up: list[list[int]] = [[] for _ in range(count)]
    down: list[list[int]] = [[] for _ in range(count)]
    bends: list[list[int]] = []
    for source, target in edges:
        chain = []
        previous = source
        for crossed in range(layer[source] + 1, layer[target]):
            dummy = len(layer)
            layer.append(crossed)
            width.append(DUMMY_WIDTH)
            up.append([])
            down.append([])
            chain.append(dummy)
            down[previous].append(dummy)
            up[dummy].append(previous)
            previous = dummy
        down[previous].append(target)
        up[target].append(previous)
        bends.append(chain)
    total = len(layer)
    rows: list[list[int]] = [[] for _ in range(max(layer, default=-1) + 1)]
    for vertex in range(total):
        rows[layer[vertex]].append(vertex)

    position = [0.0] * total
    for row in rows:
        for index, vertex in enumerate(row):
            position[vertex] = index
    best = [list(row) for row in rows]
    best_crossings = _crossings(rows, down, position)
    stale = 0
    for _ in range(min(sweeps, max(2, SWEEP_BUDGET // total))):
        if best_crossings == 0 or stale == 2:
            break
        for index in range(1, len(rows)):
            _order_by(rows[index], up, position)
        for index in range(len(rows) - 2, -1, -1):
            _order_by(rows[index], down, position)
        crossings = _crossings(rows, down, position)
        if crossings < best_crossings:
            best, best_crossings, stale = [list(row) for row in rows], crossings, 0
        else:
            stale += 1
    rows = best
    for row in rows:
        for index, vertex in enumerate(row):
            position[vertex] = index
    return Layout(_coordinates(rows, up, down, width), layer, rows, bends, best_crossings)


def _order_by(row: list[int], neighbours: list[list[int]], position: list[float]) -> None:
    """Sort a layer by the mean position of each vertex's neighbours in the layer before (a vertex
    with none keeps its place); then number the layer again."""
    keys = {}
    for index, vertex in enumerate(row):
        near = neighbours[vertex]
        keys[vertex] = sum(position[n] for n in near) / len(near) if near else position[vertex]
        position[vertex] = index  # ties keep the current order
    row.sort(key=lambda vertex: (keys[vertex], position[vertex]))
    for index, vertex in enumerate(row):
        position[vertex] = index


def _crossings(rows: list[list[int]], down: list[list[int]], position: list[float]) -> int:
    """Edge crossings between each pair of neighbouring layers: the inversions of the lower ends
    when the edges are sorted by their upper ends, counted with a Fenwick tree."""
    total = 0
    for row, below in pairwise(rows):
        ends = sorted((int(position[v]), int(position[w])) for v in row for w in down[v])
        tree = [0] * (len(below) + 1)
        seen = 0
        for _, lower in ends:
            # edges seen so far whose lower end is right of this one cross it
            index, at_most = lower + 1, 0
            while index > 0:
                at_most += tree[index]
                index -= index & -index
            total += seen - at_most
            seen += 1
            index = lower + 1
            while index <= len(below):
                tree[index] += 1
                index += index & -index
    return total


def _coordinates(rows: list[list[int]], up: list[list[int]], down: list[list[int]], width: list[float]) -> list[float]:
    """x of each vertex: packed first, then each layer pulled to its neighbours' mean x, kept in order
    and apart, in sweeps down and up."""
    x = [0.0] * len(width)
    for row in rows:
        left = 0.0
        for vertex in row:
            x[vertex] = left + width[vertex] / 2
            left += width[vertex] + GAP_X
    order = list(range(len(rows)))
    for sweep in range(4):
        for index in (order[1:] if sweep % 2 == 0 else order[-2::-1]):
            row = rows[index]
            near = up if sweep % 2 == 0 else down
            wanted = []
            for vertex in row:
                others = near[vertex] or (down[vertex] if near is up else up[vertex])
                wanted.append(sum(x[n] for n in others) / len(others) if others else x[vertex])
            for vertex, place in zip(row, _spread(wanted, [width[v] for v in row]), strict=True):
                x[vertex] = place
    shift = min((x[v] - width[v] / 2 for row in rows for v in row), default=0.0)
    return [place - shift for place in x]


def _spread(wanted: list[float], widths: list[float]) -> list[float]:
    """The positions closest to `wanted` (least squares) that keep the order and the boxes apart.

    With c_i the room the boxes before i need, y_i = x_i - c_i must not decrease: an isotonic fit
    of wanted_i - c_i, by pooling adjacent blocks that are out of order.
    """
    room = [0.0]
    for left, right in pairwise(widths):
        room.append(room[-1] + (left + right) / 2 + GAP_X)
    blocks: list[list[float]] = []  # [mean, size]
    for target, offset in zip(wanted, room, strict=True):
        blocks.append([target - offset, 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, size = blocks.pop()
            blocks[-1][0] = (blocks[-1][0] * blocks[-1][1] + mean * size) / (blocks[-1][1] + size)
            blocks[-1][1] += size
    fitted = [mean for mean, size in blocks for _ in range(int(size))]
    return [y + offset for y, offset in zip(fitted, room, strict=True)]


# --- the picture: boxes and arrows -----------------------------------------------------------------


@dataclass
class Box:
    key: str  # "n3" for node 3, "none_3_1" for the None in node 3's next_functions at position 1
    lines: list[str]  # shown, each cut at MAX_LINE
    tooltip: str
    kind: str  # "node", "leaf" (AccumulateGrad) or "none"
    node: GraphNode | None = None
    x: float = 0.0  # centre
    y: float = 0.0  # top
    width: float = 0.0
    height: float = 0.0


@dataclass
class Picture:
    boxes: list[Box]
    edges: list[tuple[Box, Box, int, list[tuple[float, float]]]]  # from, to, position, points
    width: float
    height: float
    crossings: int
    caption: list[str] = field(default_factory=list)


def _cut(line: str) -> str:
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def _shape(value: Any) -> str:
    shape = np.shape(value)
    return "scalar" if shape == () else "shape " + "×".join(map(str, shape))


def _summary(label: str, value: Any) -> str:
    """A value in a few characters: itself when small, else its range."""
    array = np.asarray(value)
    if array.size <= 4:
        return f"{label} = {human_line(value)}"
    if array.size == 0:
        return f"{label}: empty"
    return f"{label} ∈ [{human(array.min())}, {human(array.max())}]"


def _node_lines(view: GraphView, node: GraphNode) -> tuple[list[str], str]:
    lines = [view.title(node)]
    if view.result is None:
        return lines, lines[0]
    value = view.result.values[node.id]
    adjoint = view.result.adjoints[node.id]
    lines.append(_shape(value))
    lines.append(_summary("value", value))
    if adjoint is not None:
        lines.append(_summary("grad", adjoint))
    return lines, "\n".join([lines[0], lines[1], *view.facts(node.id)])


def picture(view: GraphView) -> Picture:
    """The boxes of the graph placed, with the points of each arrow."""
    boxes: list[Box] = []
    index: dict[int, int] = {}
    for node in view.nodes:
        lines, tooltip = _node_lines(view, node)
        index[node.id] = len(boxes)
        boxes.append(Box(f"n{node.id}", [_cut(line) for line in lines], tooltip,
                         "leaf" if node.op == "AccumulateGrad" else "node", node))
    links: list[tuple[int, int, int]] = []
    for node in view.nodes:
        for position, following in enumerate(node.next_functions):
            if following is None:
                links.append((index[node.id], len(boxes), position))
                boxes.append(Box(f"none_{node.id}_{position}", ["None"], "None: no gradient flows here", "none"))
            else:
                links.append((index[node.id], index[following], position))
    for box in boxes:
        box.width = max(len(line) for line in box.lines) * CHAR_WIDTH + 2 * PADDING
        box.height = len(box.lines) * LINE_HEIGHT + 2 * PADDING - 4
        if box.kind == "none":
            box.height = LINE_HEIGHT + 4

    layer = _layers(len(boxes), links, [box.kind == "leaf" for box in boxes])
    placed = layered(len(boxes), [(source, target) for source, target, _ in links], [b.width for b in boxes], layer)
    tops = [0.0]
    for row in placed.rows:
        tallest = max((boxes[v].height for v in row if v < len(boxes)), default=0.0)
        tops.append(tops[-1] + tallest + GAP_Y)
    for number, box in enumerate(boxes):
        box.x = placed.x[number] + MARGIN
        box.y = tops[placed.layer[number]] + MARGIN
    # Each edge leaves its box at a port of its own, the ports in the order of where the edges go.
    heading = [placed.x[bend[0]] + MARGIN if bend else boxes[target].x for (_, target, _), bend in
               zip(links, placed.bends, strict=True)]
    outgoing: dict[int, list[int]] = {}
    for number, (source, _, _) in enumerate(links):
        outgoing.setdefault(source, []).append(number)
    port = [0.0] * len(links)
    for source, numbers in outgoing.items():
        spacing = min(14.0, boxes[source].width / (len(numbers) + 1))
        for slot, number in enumerate(sorted(numbers, key=lambda n: heading[n])):
            port[number] = boxes[source].x + (slot - (len(numbers) - 1) / 2) * spacing
    edges = []
    for number, ((source, target, position), bend) in enumerate(zip(links, placed.bends, strict=True)):
        start, end = boxes[source], boxes[target]
        points = [(port[number], start.y + start.height)]
        for dummy in bend:  # down through the layer it crosses, past the layer's boxes
            crossed = placed.layer[dummy]
            points.append((placed.x[dummy] + MARGIN, tops[crossed] + MARGIN))
            points.append((placed.x[dummy] + MARGIN, tops[crossed + 1] - GAP_Y + MARGIN))
        points.append((end.x, end.y))
        edges.append((start, end, position, points))
    width = max((box.x + box.width / 2 for box in boxes), default=0.0) + MARGIN
    height = tops[-1] - GAP_Y + 2 * MARGIN if placed.rows else 2 * MARGIN
    return Picture(boxes, edges, width, height, placed.crossings)


def _layers(count: int, links: list[tuple[int, int, int]], leaf: list[bool]) -> list[int]:
    """Each box's layer: its longest distance from a root (links go from a box listed before to one
    listed after, as the graph lists nodes), AccumulateGrad leaves on the bottom layer, unless that
    would cut their long edges into more than MAX_DUMMIES dummies."""
    layer = [0] * count
    for source, target, _ in sorted(links):
        layer[target] = max(layer[target], layer[source] + 1)
    bottom = max(layer, default=0)
    dummies = sum(bottom - layer[source] - 1 for source, target, _ in links if leaf[target])
    if dummies <= MAX_DUMMIES:
        for box in range(count):
            if leaf[box]:
                layer[box] = bottom
    return layer


# --- SVG ---------------------------------------------------------------------------------------


def _text(text: str) -> str:
    """User text for XML: control characters shown as escapes (XML cannot hold most), markup escaped."""
    return html.escape(visible(text), quote=True)


SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'  # a name, never fetched
STYLE = """
.gc-graph text { font: 12px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; fill: #1b1f24; }
.gc-graph .caption { font-size: 13px; fill: #444; }
.gc-graph .node rect { fill: #ffffff; stroke: #57606a; stroke-width: 1.2; }
.gc-graph .leaf rect { fill: #dde8f5; stroke: #2f5f98; }
.gc-graph .none rect { fill: none; stroke: #999; stroke-dasharray: 3 2; }
.gc-graph .none text { fill: #777; }
.gc-graph .op { font-weight: bold; }
.gc-graph .edge { fill: none; stroke: #57606a; stroke-width: 1.2; }
.gc-graph .edge.to-none { stroke: #aaa; stroke-dasharray: 4 3; }
.gc-graph .arrowhead { fill: #57606a; }
.gc-graph .edge-label { font-size: 11px; fill: #6e4a00; }
"""
EDGE_LABEL_MAX = 28  # an edge's local derivative is written beside it up to this many characters


def svg(view: GraphView, standalone: bool = True) -> str:
    """The picture as one SVG document (styles inside it, no font or file fetched); not `standalone`,
    the element for an HTML page (whose parser gives it its namespace)."""
    drawn = picture(view)
    caption = _caption(view)
    top = MARGIN + LINE_HEIGHT * len(caption) + 8
    width = max(drawn.width, max((len(line) for line in caption), default=0) * 7.8 + 2 * MARGIN)
    height = drawn.height + top
    out = [
        f'<svg{SVG_NAMESPACE if standalone else ""} class="gc-graph" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img">',
        f"<title>{_text('backward graph of ' + view.source.strip())}</title>",
        f"<style>{STYLE}</style>",
        '<defs><marker id="gc-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" '
        'orient="auto-start-reverse"><path class="arrowhead" d="M 0 0 L 10 5 L 0 10 z"/></marker></defs>',
        '<rect width="100%" height="100%" fill="#fff"/>',
    ]
    for number, line in enumerate(caption):
        out.append(f'<text class="caption" x="{MARGIN}" y="{MARGIN + LINE_HEIGHT * (number + 1) - 3}">{_text(line)}</text>')
    out.append(f'<g transform="translate(0 {top})">')
    for start, end, position, points in drawn.edges:
        path = " ".join(f"{'M' if i == 0 else 'L'} {px:.1f} {py:.1f}" for i, (px, py) in enumerate(points))
        kind = "edge to-none" if end.kind == "none" else "edge"
        out.append(f'<path class="{kind}" data-from="{start.key}" data-to="{end.key}" data-position="{position}" '
                   f'd="{path}" marker-end="url(#gc-arrow)"/>')
        label = view.edge(start.node.id, position) if start.node is not None else ""
        if label and len(label) <= EDGE_LABEL_MAX:  # the local derivative --paths multiplies along it
            (x0, y0), (x1, y1) = points[0], points[1]
            leftward = x1 < x0 - 1  # beside the edge, on the side it heads to
            x, y = x0 + 0.3 * (x1 - x0), y0 + 0.35 * (y1 - y0) + 4  # near its start: labels of one box's edges apart
            out.append(f'<text class="edge-label" x="{x + (-4 if leftward else 4):.1f}" '
                       f'y="{y:.1f}"{" text-anchor=" + chr(34) + "end" + chr(34) if leftward else ""}>'
                       f"{_text(label)}</text>")
    for box in drawn.boxes:
        left = box.x - box.width / 2
        out.append(f'<g class="{box.kind}" id="{box.key}" data-key="{box.key}">')
        out.append(f"<title>{_text(box.tooltip)}</title>")
        radius = 10 if box.kind == "leaf" else 3
        out.append(f'<rect x="{left:.1f}" y="{box.y:.1f}" width="{box.width:.1f}" height="{box.height:.1f}" '
                   f'rx="{radius}"/>')
        for number, line in enumerate(box.lines):
            style = ' class="op"' if number == 0 and box.kind != "none" else ""
            baseline = box.y + PADDING + LINE_HEIGHT * (number + 1) - 4 if box.kind != "none" else box.y + 14
            out.append(f'<text{style} x="{left + PADDING:.1f}" y="{baseline:.1f}">{_text(line)}</text>')
        out.append("</g>")
    out.append("</g></svg>")
    return "\n".join(out)


def _caption(view: GraphView) -> list[str]:
    lines = view.source.strip().split("\n")
    shown = ["backward graph of " + lines[0], *("  " + line for line in lines[1:6])]
    if len(lines) > 6:
        shown.append(f"  … ({len(lines) - 6} more lines)")
    present = {node.id for node in view.nodes}
    shown += [f"{name}: a constant (no grad_fn)" for root, name in zip(view.roots, view.root_names, strict=True)
              if root not in present]
    return [_cut(line) if len(line) > 120 else line for line in shown]


# --- HTML --------------------------------------------------------------------------------------


def _script_json(document: Any) -> str:
    """JSON inside a <script> element: nothing in it can end the element or start markup."""
    text = json.dumps(document, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_data(view: GraphView, paths: Sequence[Any] | None = None) -> dict[str, Any]:
    """What the page's script shows: each node's full facts, the sweep's order, the paths."""
    nodes = {}
    for node in view.nodes:
        entry: dict[str, Any] = {"title": visible(view.title(node)), "op": node.op, "name": node.name}
        if view.result is not None:
            value = view.result.values[node.id]
            adjoint = view.result.adjoints[node.id]
            entry["shape"] = _shape(value)
            entry["value"] = visible(human(value), lines=True)
            entry["grad"] = None if adjoint is None else visible(human(adjoint), lines=True)
        nodes[f"n{node.id}"] = entry
    # Reverse mode visits the nodes from the last one recorded back to the first (explain's order).
    sweep = [f"n{node.id}" for node in sorted(view.nodes, key=lambda node: -node.id)]
    listed = []
    for found in paths or ():
        for rank, path in enumerate(found.listed):
            element = "" if path.element is None else "[" + ", ".join(map(str, path.element)) + "]"
            listed.append({"input": visible(found.name) + element, "rank": rank + 1,
                           "nodes": [f"n{n}" for n in path.nodes],
                           "contribution": visible(_summary("contribution", path.contribution))})
        if found.total_paths > len(found.listed):
            more = f"{found.total_paths - len(found.listed):,} more paths, {_summary('together', found.unlisted)}"
            listed.append({"input": visible(found.name), "more": visible(more)})
    return {"nodes": nodes, "sweep": sweep, "paths": listed, "evaluated": view.result is not None}


PAGE_STYLE = """
body { font: 14px system-ui, sans-serif; margin: 0; color: #1b1f24; }
header { padding: 8px 16px; border-bottom: 1px solid #ddd; }
header h1 { font-size: 16px; margin: 0 0 4px 0; font-family: ui-monospace, monospace; white-space: pre-wrap; }
main { display: flex; align-items: flex-start; }
#picture { flex: 1; overflow: auto; max-height: calc(100vh - 70px); }
aside { width: 360px; padding: 8px 16px; border-left: 1px solid #ddd; overflow: auto; max-height: calc(100vh - 70px); }
aside pre { background: #f6f8fa; padding: 6px; overflow: auto; max-height: 240px; font-size: 12px; }
button { margin-right: 4px; }
.gc-graph .node, .gc-graph .leaf { cursor: pointer; }
.gc-graph g.visited rect { fill: #fff4c2; }
.gc-graph g.current rect { fill: #ffd24d; stroke: #9a6700; stroke-width: 2.5; }
.gc-graph g.selected rect { stroke: #cf222e; stroke-width: 2.5; }
.gc-graph g.onpath rect { stroke: #1a7f37; stroke-width: 3; }
.gc-graph path.edge.onpath { stroke: #1a7f37; stroke-width: 3; }
#paths li { cursor: pointer; margin-bottom: 2px; }
#paths li.chosen { background: #dafbe1; }
"""

PAGE_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("gc-data").textContent);
  var svg = document.querySelector("svg.gc-graph");
  var facts = document.getElementById("facts");
  var status = document.getElementById("status");
  function box(key) { return document.getElementById(key); }
  function show(key) {
    var node = data.nodes[key];
    if (!node) { return; }
    var old = svg.querySelector(".selected");
    if (old) { old.classList.remove("selected"); }
    box(key).classList.add("selected");
    facts.textContent = "";
    function add(tag, text) { var e = document.createElement(tag); e.textContent = text; facts.appendChild(e); }
    add("h2", node.title);
    if (node.shape) { add("div", node.shape); }
    if (data.evaluated) {
      add("h3", "value"); add("pre", node.value);
      add("h3", "grad"); add("pre", node.grad === null ? "None (no gradient reaches it)" : node.grad);
    } else {
      add("p", "Give --at to see values and gradients.");
    }
  }
  Object.keys(data.nodes).forEach(function (key) {
    var g = box(key);
    g.addEventListener("click", function () { show(key); });
    g.addEventListener("mouseenter", function () { show(key); });
  });
  var done = 0;
  function paint() {
    data.sweep.forEach(function (key, index) {
      box(key).classList.toggle("visited", index < done);
      box(key).classList.toggle("current", index === done - 1);
    });
    if (done === 0) {
      status.textContent = "backward sweep: " + data.sweep.length + " nodes; press step";
    } else {
      var key = data.sweep[done - 1];
      status.textContent = "step " + done + " of " + data.sweep.length + ": " + data.nodes[key].title;
      show(key);
    }
  }
  document.getElementById("step").addEventListener("click", function () {
    if (done < data.sweep.length) { done += 1; } paint();
  });
  document.getElementById("back").addEventListener("click", function () {
    if (done > 0) { done -= 1; } paint();
  });
  var list = document.getElementById("paths");
  function highlight(nodes, item) {
    svg.querySelectorAll(".onpath").forEach(function (e) { e.classList.remove("onpath"); });
    list.querySelectorAll(".chosen").forEach(function (e) { e.classList.remove("chosen"); });
    if (!nodes) { return; }
    item.classList.add("chosen");
    nodes.forEach(function (key, index) {
      box(key).classList.add("onpath");
      if (index + 1 < nodes.length) {
        svg.querySelectorAll('path.edge[data-from="' + key + '"][data-to="' + nodes[index + 1] + '"]')
          .forEach(function (e) { e.classList.add("onpath"); });
      }
    });
  }
  data.paths.forEach(function (path) {
    var item = document.createElement("li");
    if (path.more) {
      item.textContent = path.input + ": " + path.more;
    } else {
      var names = path.nodes.map(function (key) { return data.nodes[key].title; });
      item.textContent = path.input + " #" + path.rank + ": " + path.contribution + " (" + names.join(" → ") + ")";
      item.addEventListener("click", function () { highlight(path.nodes, item); });
    }
    list.appendChild(item);
  });
  if (!data.paths.length) {
    document.getElementById("paths-section").hidden = true;
  }
  // page.html#step=N opens at step N of the sweep; #path=K with the K-th listed path highlighted
  var wanted = /step=(\d+)/.exec(location.hash);
  if (wanted) { done = Math.min(parseInt(wanted[1], 10), data.sweep.length); }
  paint();
  var chosen = /path=(\d+)/.exec(location.hash);
  var items = list.querySelectorAll("li");
  var listed = data.paths.filter(function (path) { return !path.more; });
  if (chosen && parseInt(chosen[1], 10) >= 1 && parseInt(chosen[1], 10) <= listed.length) {
    var at = data.paths.indexOf(listed[parseInt(chosen[1], 10) - 1]);
    highlight(listed[parseInt(chosen[1], 10) - 1].nodes, items[at]);
  }
  document.documentElement.setAttribute("data-gradcli", "ready");
})();
"""


def page(view: GraphView, paths: Sequence[Any] | None = None) -> str:
    """One HTML file that works offline: the SVG inline, the node data as JSON, a little script."""
    title = _text("backward graph of " + view.source.strip())
    heading = html.escape(visible(view.source.strip(), lines=True), quote=True)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>{title}</title>",
        f"<style>{PAGE_STYLE}</style>",
        "</head>",
        "<body>",
        f"<header><h1>{heading}</h1>",
        '<button id="back" type="button">back</button><button id="step" type="button">step</button> '
        '<span id="status"></span></header>',
        "<main>",
        f'<div id="picture">{svg(view, standalone=False)}</div>',
        '<aside><div id="facts"><p>Hover over or click a node to see its value, gradient and shape.</p></div>',
        '<section id="paths-section"><h3>paths (grad --paths): click one</h3><ul id="paths"></ul></section>',
        "</aside>",
        "</main>",
        f'<script type="application/json" id="gc-data">{_script_json(page_data(view, paths))}</script>',
        f"<script>{PAGE_SCRIPT}</script>",
        "</body>",
        "</html>",
    ])
