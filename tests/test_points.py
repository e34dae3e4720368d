"""grad --points: many points at once, equal to one point at a time, streamed in chunks."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from gradcli import backward, compile_program, forward, grad, ops
from gradcli.batch import grad_batch
from gradcli.session import CHUNK
from tests.helpers import cli, process
from tests.programs import random_program

# Programs over scalar, vector and matrix inputs: broadcasting, @, indexing, lists, reductions.
BATCH_PROGRAMS = [
    ("log(x1*x2)*sin(x2)", {"x1": (), "x2": ()}, None),
    ("sum(z * w)", {"z": (3,), "w": ()}, None),
    ("y = z * [1, 2, 3] + w; sum(y**2)", {"z": (3,), "w": ()}, None),
    ("m @ v", {"m": (2, 3), "v": (3,)}, "ones"),
    ("v @ m2", {"v": (3,), "m2": (3, 2)}, "ones"),
    ("dot(v, u) + v @ u", {"v": (3,), "u": (3,)}, None),
    ("m @ [[1, 0], [0, 1], [1, 1]]", {"m": (2, 3)}, "ones"),
    ("[[1, 2, 3], [3, 2, 1]] @ v", {"v": (3,)}, "ones"),
    ("v[0] * v[-1] + sum(v[1:]) + m[1, 2] + sum(m[:, 0])", {"v": (3,), "m": (2, 3)}, None),
    ("[a, b * 2, a * b]", {"a": (), "b": ()}, "ones"),
    ("[v, 2 * v]", {"v": (3,)}, "ones"),
    ("mean(v) + norm(v) + logsumexp(v) + max(a, 0.1) + min(a, v[0])", {"v": (3,), "a": ()}, None),
    ("c = a * [1, 2]; c[1] + a", {"a": ()}, None),
    ("(x * y, sin(x) + y)", {"x": (), "y": ()}, "(1, 1)"),
    ("sum(m * v)", {"m": (2, 3), "v": (3,)}, None),
]


def _per_point(program, columns, count, seed):
    values, grads = [], []
    for i in range(count):
        result = grad(program, at={name: column[i] for name, column in columns.items()}, seed=seed)
        values.append(result.value)
        grads.append(result.grad)
    return values, grads


@pytest.mark.parametrize(("program", "shapes", "seed"), BATCH_PROGRAMS)
def test_batch_equals_one_point_at_a_time(program, shapes, seed):
    rng = np.random.default_rng(3)
    count = 7
    columns = {name: rng.uniform(0.2, 1.5, size=(count, *shape)) for name, shape in shapes.items()}
    batch = grad_batch(compile_program(program), columns, count, seed=seed, chunk=3)  # 3 + 3 + 1 points
    values, grads = _per_point(program, columns, count, seed)
    for i in range(count):
        expected = values[i] if isinstance(values[i], tuple) else (values[i],)
        for got, want in zip(batch.values, expected, strict=True):
            np.testing.assert_allclose(got[i], want, rtol=1e-12, atol=1e-14)
        for name in shapes:
            np.testing.assert_allclose(batch.grad[name][i], grads[i][name], rtol=1e-12, atol=1e-14)


def _root_programs() -> list[str]:
    # Every elementwise op at the root, where the default seed is ops.UNIT (never multiplied
    # by): with an input on either side, a constant, a vector beside a number.
    programs = []
    for op in ops.OPS.values():
        if not op.elementwise:
            continue
        if op.symbol is not None and op.arity == 2:
            programs += [f"x {op.symbol} y", f"2 {op.symbol} x", f"x {op.symbol} 2", f"sum(v {op.symbol} x)"]
        elif op.symbol is not None:
            programs += [f"{op.symbol}x", f"sum({op.symbol}v)"]
        elif op.index_from is not None:  # polygamma(n, x): its index args whole numbers
            programs += [ops.node_text(op, ["x", "2"], {}), f"sum({ops.node_text(op, ['v', '1'], {})})"]
        elif op.arity in (2, 3):  # (by its print rule: clamp(x, y, x) is the row clamp_tensor)
            params = op.examples[0][1]
            calls = [["x", "y", "x"], ["x", "0.5", "y"], ["v", "x", "0.5"]] if op.arity == 3 else [["x", "y"], ["x", "0.5"], ["v", "x"]]
            programs += [ops.node_text(op, calls[0], params), ops.node_text(op, calls[1], params),
                         f"sum({ops.node_text(op, calls[2], params)})"]
        else:
            call = ops.node_text(op, ["x"], op.examples[0][1])  # (with the params clamp needs)
            programs += [call, f"sum({ops.node_text(op, ['v'], op.examples[0][1])})"]
    return [*programs, "x", "(x * y, x)", "z = x * y; (z, z * x)"]


@pytest.mark.parametrize("program", _root_programs())
def test_the_default_seed_gives_what_a_seed_of_ones_gives(program):
    tape = compile_program(program)
    rng = np.random.default_rng(11)
    count = 5
    shapes = {"x": (), "y": (), "v": (3,)}
    columns = {name: rng.uniform(0.2, 0.9, size=(count, *shapes[name])) for name in tape.inputs}
    ones = [np.ones(())] * len(tape.outputs) if tape.is_tuple else np.ones(())  # an array: not UNIT
    for chunk in (2, CHUNK):  # several chunks, and one (whose arrays are returned as they are)
        default = grad_batch(tape, columns, count, chunk=chunk)
        explicit = grad_batch(tape, columns, count, chunk=chunk, seed=ones)
        for name in tape.inputs:
            assert default.grad[name].shape == (count, *shapes[name])
            np.testing.assert_array_equal(default.grad[name], explicit.grad[name])
            assert default.grad[name].flags.writeable  # its own array: not a view of an input
            assert not any(np.shares_memory(default.grad[name], column) for column in columns.values())


@pytest.mark.parametrize("program", [*_root_programs(), "-v[0]", "v[0] + x", "2 * v[1]", "exp(v[0])"])
def test_unit_seeds_at_one_point_give_what_ones_give(program):
    # backward takes UNIT at one point too, where a root may be 0-d: `-v[0]` gives -1.0.
    tape = compile_program(program)
    at = {"x": np.asarray(0.7), "y": np.asarray(0.4), "v": np.asarray([0.3, 0.6, 0.9])}
    values = forward(tape, {name: at[name] for name in tape.inputs})
    ones = [np.ones(np.shape(values[root])) for root in tape.outputs]
    with_unit = backward(tape, values, tape.outputs, [ops.UNIT] * len(tape.outputs))
    with_ones = backward(tape, values, tape.outputs, ones)
    for name, index in tape.inputs.items():
        np.testing.assert_array_equal(with_unit[index], with_ones[index])
        if with_ones[index] is None:  # `sum(v < x)`: a comparison's mask, through which no gradient flows
            assert not any(tape.nodes[root].requires_grad for root in tape.outputs)
            continue
        assert np.shape(with_unit[index]) == np.shape(at[name])


def test_threads_do_not_change_the_results():
    # Sweeps are independent and each writes its own rows: any number of threads, the same bits.
    tape = compile_program("y = sin(a) * b; (y / (1 + a*a), sum(v * a))")
    rng = np.random.default_rng(8)
    count = 1_001
    columns = {"a": rng.uniform(-2, 2, count), "b": rng.uniform(-2, 2, count), "v": rng.uniform(-2, 2, (count, 3))}
    one = grad_batch(tape, columns, count, chunk=64, threads=1)
    four = grad_batch(tape, columns, count, chunk=64, threads=4)
    for got, want in zip(four.values, one.values, strict=True):
        np.testing.assert_array_equal(got, want)
    for name in tape.inputs:
        np.testing.assert_array_equal(four.grad[name], one.grad[name])
    single = grad_batch(tape, {k: c[500:501] for k, c in columns.items()}, 1)  # row 500 on its own
    np.testing.assert_array_equal(four.grad["v"][500], single.grad["v"][0])


@pytest.mark.parametrize("seed", range(8))
def test_batch_equals_one_point_at_a_time_on_random_programs(seed):
    rng = np.random.default_rng(500 + seed)
    vector = bool(seed % 2)
    program = random_program(rng, ["a", "b", "c"], statements=3, vector=vector)
    tape = compile_program(program)
    count = 5
    columns = {name: rng.uniform(-1, 1, size=(count, 3) if vector else count) for name in tape.inputs}
    batch = grad_batch(tape, columns, count, chunk=2)
    values, grads = _per_point(program, columns, count, None)
    for i in range(count):
        np.testing.assert_allclose(batch.values[0][i], values[i], rtol=1e-12)
        for name in tape.inputs:
            np.testing.assert_allclose(batch.grad[name][i], grads[i][name], rtol=1e-12, atol=1e-15)


def test_csv_round_trip(tmp_path):
    rng = np.random.default_rng(1)
    x1, x2 = rng.uniform(0.5, 2, 20), rng.uniform(0.5, 2, 20)
    path = tmp_path / "points.csv"
    path.write_text("x1,x2\n" + "".join(f"{a!r},{b!r}\n" for a, b in zip(x1.tolist(), x2.tolist(), strict=True)))
    run = cli("grad", "log(x1*x2)*sin(x2)", "--points", str(path), "--csv")
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "value,grad_x1,grad_x2"
    table = np.array([[float(c) for c in line.split(",")] for line in lines[1:]])
    np.testing.assert_allclose(table[:, 0], np.log(x1 * x2) * np.sin(x2), rtol=1e-15)
    np.testing.assert_allclose(table[:, 1], np.sin(x2) / x1, rtol=1e-14)
    np.testing.assert_allclose(table[:, 2], np.sin(x2) / x2 + np.log(x1 * x2) * np.cos(x2), rtol=1e-14)


def test_json_lines_round_trip_with_vectors_and_at_defaults():
    points = [{"z": [1.0, 2.0]}, {"z": [3.0, -1.0], "w": 0.5}, {"z": [0.0, 4.0]}]
    stdin = "\n".join(json.dumps(p) for p in points) + "\n"
    run = cli("grad", "sum(z**2) * w", "--points", "-", "--at", "w=2", "--json", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["line"] for r in results] == [1, 2, 3]
    for point, result in zip(points, results, strict=True):
        z, w = np.array(point["z"]), point.get("w", 2.0)
        assert result["at"] == {"z": point["z"], "w": w}
        assert result["value"] == pytest.approx(float(np.sum(z**2) * w))
        assert result["grad"]["z"] == pytest.approx((2 * z * w).tolist())
        assert result["grad"]["w"] == pytest.approx(float(np.sum(z**2)))


def test_csv_matrix_columns():
    stdin = "m[0][0],m[0][1],m[1][0],m[1][1]\n1,2,3,4\n"
    run = cli("grad", "sum(m @ [1, 1])", "--points", "-", "--json", stdin=stdin)
    assert json.loads(run.stdout)["grad"]["m"] == [[1.0, 1.0], [1.0, 1.0]]


def test_a_bad_line_stops_the_run_after_the_good_ones_before_it():
    stdin = "x\n1\n2\nthree\n4\n"
    run = cli("grad", "x**2", "--points", "-", "--csv", stdin=stdin)
    assert run.exit_code == 2
    assert run.stdout.splitlines() == ["value,grad_x", "1.0,2.0", "4.0,4.0"]  # nothing from line 5
    assert run.stderr.strip() == "gradcli: error: --points: line 4: 'three' is not a number"


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ('{"x": 1}\n{"x": [1, 2]}\n', "line 2: 'x' has shape (2,) here but () before"),
        ('{"x": 1}\n[1]\n', "line 2: a point is a JSON object"),
        ('{"x": 1}\n{"x": 1\n', "line 2: not JSON"),
        ('{"x": "a"}\n', "line 1: the value of 'x' is not a number"),
        ("x\n1\n1,2\n", "line 3: 2 cells where the header has 1"),
        ("z[0],z[2]\n1,2\n", "line 1: the columns of 'z' do not fill a shape"),
    ],
)
def test_bad_lines_are_named_by_number(stdin, message):
    run = cli("grad", "sum(x*2)" if "z" not in stdin else "sum(z)", "--points", "-", "--json", stdin=stdin)
    assert run.exit_code == 2
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_skip_bad_goes_on_and_sums_up_what_it_skipped():
    stdin = '{"x": 1}\n{"x": "no"}\n{"x": 2}\nnot json\n{"x": 3}\n'
    run = cli("grad", "x**2", "--points", "-", "--json", "--skip-bad", stdin=stdin)
    assert run.exit_code == 0
    assert [json.loads(line)["line"] for line in run.stdout.splitlines()] == [1, 3, 5]
    assert "skipped line 2" in run.stderr and "skipped line 4" in run.stderr
    assert "3 points done; 2 bad lines skipped: 2, 4" in run.stderr


@pytest.mark.parametrize("count", [4, 5, 8, 9])
def test_chunk_boundaries(count):
    stdin = "x\n" + "".join(f"{i}\n" for i in range(count))
    run = cli("grad", "x**3", "--points", "-", "--csv", "--chunk-size", "4", stdin=stdin)
    rows = [line.split(",") for line in run.stdout.splitlines()[1:]]
    assert [float(r[1]) for r in rows] == [3.0 * i * i for i in range(count)]


def test_one_more_point_than_the_default_chunk():
    count = CHUNK + 1
    stdin = "x\n" + "".join(f"{i}\n" for i in range(count))
    run = process("grad", "x*x", "--points", "-", "--csv", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    last = run.stdout.splitlines()[-1].split(",")
    assert len(run.stdout.splitlines()) == count + 1
    assert float(last[1]) == 2.0 * (count - 1)


def test_a_non_scalar_output_needs_a_seed_at_every_point_too():
    run = cli("grad", "v * 2", "--points", "-", "--json", stdin='{"v": [1, 2]}\n')
    assert run.exit_code == 2
    assert "grad can be implicitly created only for scalar outputs" in run.stderr
    run = cli("grad", "v * x", "--points", "-", "--json", "--seed", "[1, 10]", stdin='{"v": [1, 2], "x": 3}\n')
    assert json.loads(run.stdout)["grad"] == {"v": [3.0, 30.0], "x": 21.0}


def test_points_and_paths_do_not_mix():
    run = cli("grad", "x", "--points", "-", "--paths", stdin="x\n1\n")
    assert run.exit_code == 2
    assert "--paths, --check and --symbolic work at one point" in run.stderr


def test_jvp_at_many_points_equals_jvp_one_point_at_a_time():
    from gradcli.derivatives import jvp

    program = "[sin(a) * b, a * b * c, exp(c) - a]"
    stdin = "a,b\n0.1,1\n0.2,2\n-0.3,0.5\n"
    run = cli("jvp", program, "--at", "c=0.5", "--tangent", "a=1,c=2", "--points", "-", "--json", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    for line in run.stdout.splitlines():
        document = json.loads(line)
        alone = jvp(program, at=document["at"], tangent={"a": 1.0, "c": 2.0})
        np.testing.assert_allclose(document["jvp"], alone.jvp, rtol=1e-13)
        np.testing.assert_allclose(document["value"], alone.value, rtol=1e-13)


def test_jacobian_at_many_points_equals_jacobian_one_point_at_a_time():
    from gradcli.derivatives import jacobian

    program = "m @ v + [a, a]"
    points = [{"v": [1.0, 0.0, -1.0], "a": 0.5}, {"v": [2.0, 2.0, 2.0], "a": -1.0}]
    stdin = "".join(json.dumps(p) + "\n" for p in points)
    run = cli("jacobian", program, "--at", "m=[[1,2,3],[4,5,6]]", "--points", "-", "--json", stdin=stdin)
    assert run.exit_code == 0, run.stderr
    for line, point in zip(run.stdout.splitlines(), points, strict=True):
        document = json.loads(line)
        alone = jacobian(program, at={**point, "m": [[1, 2, 3], [4, 5, 6]]}, mode="reverse")
        assert set(document["jacobian"]) == {"m", "v", "a"}
        for name, block in alone.blocks[0].items():
            np.testing.assert_allclose(document["jacobian"][name], block, rtol=1e-13)


def test_jacobian_points_as_csv_name_every_element():
    run = cli("jacobian", "[a * b, a + b]", "--points", "-", "--csv", stdin="a,b\n2,3\n")
    header, row = run.stdout.splitlines()
    assert header == "value[0],value[1],dout/da[0],dout/da[1],dout/db[0],dout/db[1]"
    assert [float(c) for c in row.split(",")] == [6.0, 5.0, 3.0, 1.0, 2.0, 1.0]


def test_jvp_at_many_points_checks_the_tangent_shape():
    run = cli("jvp", "sum(v)", "--points", "-", "--tangent", "v=[1,2,3]", "--json", stdin='{"v": [1, 2]}\n')
    assert run.exit_code == 2
    assert "the tangent of 'v' has shape (3,) but 'v' has shape (2,)" in run.stderr


@pytest.mark.parametrize("module", ["gradcli.batch", "gradcli.autodiff"])
def test_the_documented_library_calls_give_the_gradient_at_every_point(module):
    # README: gradcli.batch.grad_batch (and, where it has always been, gradcli.autodiff.grad_batch).
    import importlib

    grad_batch_of = importlib.import_module(module).grad_batch
    a, b = np.array([0.5, 1.0, 2.0]), np.array([0.75, 2.0, 0.25])
    result = grad_batch_of(compile_program("log(x1*x2)*sin(x2)"), {"x1": a, "x2": b}, len(a), threads=1)
    for k in range(len(a)):
        x1, x2 = float(a[k]), float(b[k])
        assert result.values[0][k] == pytest.approx(math.log(x1 * x2) * math.sin(x2), rel=1e-14)
        assert result.grad["x1"][k] == pytest.approx(math.sin(x2) / x1, rel=1e-14)
        assert result.grad["x2"][k] == pytest.approx(math.sin(x2) / x2 + math.log(x1 * x2) * math.cos(x2), rel=1e-14)
