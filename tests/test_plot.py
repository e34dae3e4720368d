"""gradcli plot: a program and its derivative over a range of one input, as text, SVG, HTML and JSON."""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from gradcli import derivatives
from tests.helpers import cli

SVG = "{http://www.w3.org/2000/svg}"


def series(*args: str) -> dict:
    run = cli("plot", *args, "--json")
    assert run.exit_code == 0, run.stderr
    return run.json()


def test_plotted_values_are_grads_values_at_every_point():
    doc = series("log(x*a)*sin(x)", "--over", "x=0.5:3", "--steps", "7", "--at", "a=2")
    assert [c["label"] for c in doc["curves"]] == ["log(x*a)*sin(x)", "d/dx (log(x*a)*sin(x))"]
    assert np.allclose(doc["x"], np.linspace(0.5, 3, 7))
    for i, x in enumerate(doc["x"]):
        one = derivatives.grad("log(x*a)*sin(x)", at={"x": x, "a": 2.0})
        assert doc["curves"][0]["values"][i] == pytest.approx(float(one.value), rel=1e-12)
        assert doc["curves"][1]["values"][i] == pytest.approx(float(one.grad["x"]), rel=1e-12)


def test_relu_derivative_is_0_left_of_0_and_1_right_and_0_at_0():
    doc = series("relu(x)", "--over", "x=-2:2:0.5")
    x, grad = np.array(doc["x"]), np.array(doc["curves"][1]["values"])
    assert x.tolist() == [-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5]
    assert grad.tolist() == [0, 0, 0, 0, 0, 1, 1, 1]  # PyTorch's relu'(0) = 0


def test_d2l_relu_vector_form_with_seed_ones():
    # x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True); y = torch.relu(x); y.backward(torch.ones_like(x))
    doc = series("relu(x)", "--over", "x=arange(-8.0, 8.0, 0.1)", "--seed", "ones")
    x = np.array(doc["x"])
    assert len(x) == 160
    y, grad = (np.array(c["values"]) for c in doc["curves"])
    assert [c["label"] for c in doc["curves"]] == ["relu(x)", "x.grad"]
    assert np.array_equal(y, np.maximum(x, 0))
    assert np.array_equal(grad, (x > 0).astype(float))


def test_a_tuple_program_gives_each_output_and_its_own_derivative():
    doc = series("(sin(x), cos(x))", "--over", "x=linspace(0, 3, 4)")
    labels = [c["label"] for c in doc["curves"]]
    assert labels == ["sin(x)", "cos(x)", "d/dx sin(x)", "d/dx cos(x)"]
    x = np.array(doc["x"])
    values = [np.array(c["values"]) for c in doc["curves"]]
    for got, want in zip(values, [np.sin(x), np.cos(x), np.cos(x), -np.sin(x)], strict=True):
        assert np.allclose(got, want)


def test_nan_points_are_null_and_break_the_svg_line():
    doc = series("log(x)", "--over", "x=-1:1", "--steps", "5")
    assert doc["curves"][0]["values"][:3] == [None, None, None]
    assert doc["curves"][1]["values"] == [-1.0, -2.0, None, 2.0, 1.0]
    run = cli("plot", "log(x)", "--over", "x=-1:1", "--steps", "5", "--format", "svg")
    assert run.exit_code == 0, run.stderr
    curves = [g for g in ET.fromstring(run.stdout).iter(f"{SVG}g") if g.get("class") == "curve"]
    assert [len(g.findall(f"{SVG}polyline")) for g in curves] == [1, 2]  # inf at 0 splits the derivative
    for polyline in ET.fromstring(run.stdout).iter(f"{SVG}polyline"):
        assert all(math.isfinite(float(v)) for pair in polyline.get("points").split() for v in pair.split(","))
    text = cli("plot", "log(x)", "--over", "x=-1:1")
    assert text.exit_code == 0 and "not finite" in text.stdout


def test_svg_polyline_maps_back_to_the_values():
    run = cli("plot", "x**2", "--over", "x=0:2", "--steps", "3", "--format", "svg")
    root = ET.fromstring(run.stdout)
    (value_line,), (slope_line,) = ([g.find(f"{SVG}polyline")] for g in root.iter(f"{SVG}g") if g.get("class") == "curve")
    points = [tuple(map(float, pair.split(","))) for pair in value_line.get("points").split()]
    slopes = [tuple(map(float, pair.split(","))) for pair in slope_line.get("points").split()]
    # x evenly spaced; y of x**2 at 0, 1, 2 is 0, 1, 4 and of 2x is 0, 2, 4: the same scale on both
    assert points[1][0] - points[0][0] == pytest.approx(points[2][0] - points[1][0])
    zero, four = points[0][1], points[2][1]
    assert slopes[0][1] == pytest.approx(zero) and slopes[2][1] == pytest.approx(four)
    assert (points[1][1] - zero) / (four - zero) == pytest.approx(1 / 4)
    assert (slopes[1][1] - zero) / (four - zero) == pytest.approx(2 / 4)


def test_svg_and_html_escape_the_program_text(tmp_path):
    program = "x * (x < 1) & 1 > 0"
    run = cli("plot", program, "--over", "x=0:2", "--format", "svg")
    assert run.exit_code == 0, run.stderr
    root = ET.fromstring(run.stdout)  # parses: < and & are escaped
    assert root.find(f"{SVG}title").text == program
    assert any(t.text == program for t in root.iter(f"{SVG}text"))
    page = tmp_path / "plot.html"
    run = cli("plot", program, "--over", "x=0:2", "--output", str(page))
    assert run.exit_code == 0 and run.stdout == ""
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html
    assert "x * (x &lt; 1) &amp; 1 &gt; 0" in html and program not in html
    assert "http" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")  # no network requests


def test_text_plot_fits_80_columns_and_has_the_legend():
    run = cli("plot", "relu(x)", "--over", "x=-8:8")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert 20 <= len(lines) <= 30
    assert "* relu(x)" in lines[-1] and "+ d/dx relu(x)" in lines[-1]
    assert "┤" in run.stdout and "└" in run.stdout and " -8" in run.stdout and " 8" in run.stdout


def test_output_picks_the_format_by_extension(tmp_path):
    for name, check in (("p.svg", lambda t: ET.fromstring(t).tag == f"{SVG}svg"),
                        ("p.json", lambda t: t.startswith("{")), ("p.txt", lambda t: "relu(x)" in t)):
        run = cli("plot", "relu(x)", "--over", "x=-1:1", "--output", str(tmp_path / name))
        assert run.exit_code == 0 and run.stdout == "", run.stderr
        assert check((tmp_path / name).read_text())


@pytest.mark.parametrize(("args", "said"), [
    (["relu(x)", "--over", "y=-8:8"], "'y' is not an input"),
    (["relu(x)", "--over", "x=8:-8"], "the range is empty"),
    (["relu(x)", "--over", "x=-8:8", "--steps", "0"], "at least 2 points"),
    (["relu(x)", "--over", "x=-8:8:0"], "the step must be above 0"),
    (["relu(x)", "--over", "x=0:1e9:1e-3"], "the limit is"),
    (["relu(x)"], "no --over"),
    (["x*[1, 2]", "--over", "x=0:1"], "grad can be implicitly created only for scalar outputs"),
    (["sum(x)", "--over", "x=0:1", "--seed", "ones"], "with --seed, plot draws"),
    (["relu(x)", "--over", "x=0:1", "--output", "/"], "is a directory"),
    (["relu(x)", "--over", "x=0:1", "--output", "/no/such/dir/p.svg"], "there is no directory"),
    (["relu(x)", "--over", "x=0:1", "--output", "p.png"], "the extension says"),
])
def test_bad_requests_are_one_line_exit_2_and_nothing_on_stdout(args, said):
    run = cli("plot", *args)
    assert run.exit_code == 2
    assert run.stdout == ""
    assert run.stderr.startswith("gradcli: error: ") and said in run.stderr.splitlines()[0]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_output_is_refused_before_the_work(tmp_path, monkeypatch):
    from gradcli import session

    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    called = []
    monkeypatch.setattr(session, "plot", lambda request: called.append(request))
    try:
        run = cli("plot", "relu(x)", "--over", "x=0:1", "--output", str(folder / "p.svg"))
    finally:
        folder.chmod(0o700)
    assert run.exit_code == 2 and "cannot be written" in run.stderr and not called
