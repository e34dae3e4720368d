"""gradcli graph --format svg / html: a picture of the backward graph, drawn without Graphviz."""

from __future__ import annotations

import re
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from gradcli.render.picture import layered
from tests.helpers import cli

SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM = Path("/usr/bin/chromium")
POST_001 = ("log(x1*x2)*sin(x2)", "--at", "x1=0.5,x2=0.75")
MLP_AT = ["--at", "x=" + str([[0.1 * i - 0.3 * j for i in range(8)] for j in range(4)]),
          "--at", "w1=" + str([[0.01 * i * j - 0.05 for i in range(16)] for j in range(8)]),
          "--at", "b1=" + str([0.1] * 16), "--at", "w2=" + str([[0.1 * i - 0.5] for i in range(16)]), "--at", "b2=[0.5]"]
HOSTILE = '# </title><script>alert("x & y")</script> \'q\'\nout = x*2'


def boxes(svg_text: str) -> dict[str, list[str]]:
    """The node boxes of an SVG picture: id -> its lines of text."""
    root = ElementTree.fromstring(svg_text)
    return {g.get("id", ""): [t.text or "" for t in g.iter(f"{SVG}text")]
            for g in root.iter(f"{SVG}g") if g.get("class") in ("node", "leaf")}


def test_svg_is_xml_with_one_box_per_node_and_the_op_names() -> None:
    run = cli("graph", *POST_001, "--format", "svg")
    assert run.exit_code == 0, run.stderr
    graph = cli("graph", *POST_001, "--json").json()
    drawn = boxes(run.stdout)
    assert set(drawn) == {f"n{node['id']}" for node in graph["nodes"]}
    for node in graph["nodes"]:
        assert drawn[f"n{node['id']}"][0].split()[1] == node["op"]
    assert drawn["n1"][:2] == ["[1] AccumulateGrad x2", "scalar"]
    assert "grad = 0.19119" in drawn["n1"]
    root = ElementTree.fromstring(run.stdout)
    assert [g.get("class") for g in root.iter(f"{SVG}g") if g.get("id") == "n1"] == ["leaf"]
    assert len([p for p in root.iter(f"{SVG}path") if "edge" in (p.get("class") or "")]) == 6


def test_svg_without_a_point_has_the_nodes_and_the_nones() -> None:
    run = cli("graph", "O = 3*a**3; P = b**2; Q = O - P", "--format", "svg")
    assert run.exit_code == 0, run.stderr
    drawn = boxes(run.stdout)
    assert sorted(lines[0] for lines in drawn.values()) == [
        "[1] AccumulateGrad a", "[3] PowBackward0", "[4] MulBackward0 O", "[5] AccumulateGrad b",
        "[7] PowBackward0 P", "[8] SubBackward0 Q"]
    assert 'class="none"' in run.stdout  # 3*a**3's 3 is a None in MulBackward0's next_functions


def test_hostile_program_text_is_escaped_in_svg_and_html() -> None:
    for format in ("svg", "html"):
        run = cli("graph", HOSTILE, "--at", "x=1", "--format", format)
        assert run.exit_code == 0, run.stderr
        assert "<script>alert" not in run.stdout
        assert "</title><script>" not in run.stdout
        assert "&lt;script&gt;alert(&quot;x &amp; y&quot;)" in run.stdout
    svg = cli("graph", HOSTILE, "--format", "svg").stdout
    title = ElementTree.fromstring(svg).find(f"{SVG}title")
    assert title is not None and title.text is not None and '<script>alert("x & y")</script>' in title.text


def test_control_characters_stay_well_formed() -> None:
    run = cli("graph", "y = x*2 # \x1b[31m\x00", "--format", "svg")
    assert run.exit_code == 0, run.stderr
    ElementTree.fromstring(run.stdout)
    assert "\\x1b" in run.stdout


def test_mlp_fits_2000_pixels_wide_without_crossings() -> None:
    run = cli("graph", "sum(relu(x @ w1 + b1) @ w2 + b2)", *MLP_AT, "--format", "svg")
    assert run.exit_code == 0, run.stderr
    root = ElementTree.fromstring(run.stdout)
    assert float(root.get("width", "inf")) <= 2000
    assert len(boxes(run.stdout)) == 11
    assert "shape 4×16" in run.stdout and "value ∈ [" in run.stdout


def test_leaves_are_on_the_bottom_layer_and_roots_on_top() -> None:
    root = ElementTree.fromstring(cli("graph", *POST_001, "--format", "svg").stdout)
    tops = {g.get("id"): float(next(g.iter(f"{SVG}rect")).get("y", "0")) for g in root.iter(f"{SVG}g")
            if g.get("class") in ("node", "leaf")}
    assert tops["n0"] == tops["n1"] == max(tops.values())
    assert tops["n5"] == min(tops.values())


def test_layout_orders_layers_to_remove_crossings() -> None:
    # two parents over two children, wired crosswise in the order given
    placed = layered(4, [(0, 3), (1, 2)], [10, 10, 10, 10], [0, 0, 1, 1])
    assert placed.crossings == 0
    x = placed.x
    assert (x[0] < x[1]) == (x[3] < x[2])


def test_layout_of_a_deep_chain_does_not_recurse() -> None:
    count = 5_000
    placed = layered(count, [(i, i + 1) for i in range(count - 1)], [20] * count, list(range(count)))
    assert len(placed.rows) == count and placed.crossings == 0


def test_html_is_one_offline_file() -> None:
    run = cli("graph", *POST_001, "--format", "html")
    assert run.exit_code == 0, run.stderr
    page = run.stdout
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?://", page)
    assert not re.search(r"<(link|img|iframe)\b|src=|@import|url\((?!#)", page)
    assert '"paths": [' in page and "0.908852" in page and "-0.717662" in page


def test_output_writes_the_file_by_its_extension(tmp_path: Path) -> None:
    target = tmp_path / "graph.svg"
    run = cli("graph", *POST_001, "--output", str(target))
    assert run.exit_code == 0 and run.stdout == ""
    assert len(boxes(target.read_text())) == 6
    dot = tmp_path / "graph.dot"
    assert cli("graph", *POST_001, "--output", str(dot)).exit_code == 0
    assert dot.read_text().startswith("digraph")
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize(("where", "words"), [
    ("{tmp}", "is a directory"),
    ("{tmp}/missing/graph.svg", "there is no directory"),
    ("{tmp}/graph.txt", "give --format"),
])
def test_bad_output_is_refused_before_the_work(tmp_path: Path, where: str, words: str) -> None:
    run = cli("graph", *POST_001, "--output", where.format(tmp=tmp_path))
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("gradcli: error: --output") and words in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_output_with_the_tree_is_refused(tmp_path: Path) -> None:
    run = cli("graph", *POST_001, "--format", "tree", "--output", str(tmp_path / "g.svg"))
    assert run.exit_code == 2 and "the tree is for a terminal" in run.stderr


def test_svg_and_json_together_are_refused() -> None:
    run = cli("graph", *POST_001, "--format", "svg", "--json")
    assert run.exit_code == 2 and run.stdout == ""


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium: apt-get install chromium to load the HTML page in a browser")
    return subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
         "--enable-logging=stderr", "--v=0", *args], capture_output=True, text=True, timeout=60)


def test_html_runs_in_a_browser_without_errors(tmp_path: Path) -> None:
    page = tmp_path / "graph.html"
    assert cli("graph", *POST_001, "--output", str(page)).exit_code == 0
    done = chromium("--dump-dom", f"{page.as_uri()}#step=3", profile=tmp_path / "profile")
    dom = done.stdout
    assert 'data-gradcli="ready"' in dom, done.stderr[-2000:]
    assert "Uncaught" not in done.stderr and "CONSOLE" not in done.stderr
    for node in range(6):
        assert f'id="n{node}"' in dom
    # the sweep visits [5], [4], [3]: the third step is the current one
    assert re.search(r'class="node visited current[^"]*" id="n3"', dom)
    assert re.search(r'class="node visited" id="n4"', dom)
    assert "step 3 of 6: [3] LogBackward0" in dom


def test_html_highlights_a_path(tmp_path: Path) -> None:
    page = tmp_path / "graph.html"
    assert cli("graph", *POST_001, "--output", str(page)).exit_code == 0
    dom = chromium("--dump-dom", f"{page.as_uri()}#path=3", profile=tmp_path / "profile").stdout
    # the third path listed: x2's through sin
    highlighted = set(re.findall(r'class="(?:node|leaf)[^"]*onpath[^"]*" id="(n\d+)"', dom))
    assert highlighted == {"n5", "n4", "n1"}
    assert "-0.717662" in dom


SNIPPET = """import torch
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
Q.backward(gradient=torch.tensor([1., 1.]))
print(a.grad)
c = (a * b).sum()
c.backward()
print(b.grad)
"""


def test_run_writes_a_page_per_backward_call_a_learner_can_step_through(tmp_path: Path) -> None:
    program, page = tmp_path / "snippet.py", tmp_path / "sweep.html"
    program.write_text(SNIPPET)
    run = cli("run", str(program), "--format", "html", "--output", str(page))
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "tensor([36., 81.])\ntensor([-10.,  -5.])\n"  # (PyTorch 2.13's) the file's own output stays PyTorch's
    second = tmp_path / "sweep-2.html"
    assert f"wrote {page}, {second}" in run.stderr
    first = page.read_text()
    assert "Q.backward(gradient=torch.tensor([1., 1.]))" in first and "SubBackward0" in first
    assert "SumBackward0" in second.read_text() and "http" not in second.read_text().replace("http://www.w3.org", "")
    done = chromium("--dump-dom", f"{page.as_uri()}#step=2", profile=tmp_path / "profile")
    assert 'data-gradcli="ready"' in done.stdout, done.stderr[-2000:]
    assert "Uncaught" not in done.stderr
    assert "step 2 of 6" in done.stdout


def test_run_picture_needs_an_output_file_before_the_file_runs(tmp_path: Path) -> None:
    program = tmp_path / "snippet.py"
    program.write_text(SNIPPET)
    for args, words in [(["--format", "html"], "give --output FILE"), (["--format", "png", "--output", "x.png"], "html or svg"),
                        (["--output", str(tmp_path / "x.html")], "give --format")]:
        run = cli("run", str(program), *args)
        assert run.exit_code == 2 and run.stdout == "" and words in run.stderr, (args, run.stderr)


def test_edges_carry_their_local_derivatives_in_the_picture() -> None:
    text = cli("graph", *POST_001, "--format", "svg").stdout
    labels = re.findall(r'<text class="edge-label"[^>]*>([^<]*)</text>', text)
    # d out/d log = sin(x2), d out/d sin = log(x1 x2), d sin(x2)/d x2 = cos(x2), ... as --paths multiplies them
    assert sorted(labels) == sorted(["× 0.681639", "× -0.980829", "× 2.66667", "× 0.731689", "× 0.75", "× 0.5"])
