"""gradcli.grad_table: a polars, pandas or Arrow table of points in, the same kind of table out.

Expected numbers are the derivatives worked out by hand with `math` (log(x1*x2)*sin(x2):
d/dx1 = sin(x2)/x1, d/dx2 = sin(x2)/x2 + log(x1*x2)*cos(x2)), never gradcli's own output.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli import GradcliError, grad_table

pytest.importorskip("pyarrow")  # every test here reads or writes a table: the data extra
pl = pytest.importorskip("polars")

PROGRAM = "log(x1*x2)*sin(x2)"
X1 = [0.5, 1.0, 2.5, 7.0, 0.125]
X2 = [0.75, 2.0, 0.3, 1.5, 4.0]


def _expected() -> dict[str, list[float]]:
    return {
        "value": [math.log(a * b) * math.sin(b) for a, b in zip(X1, X2)],
        "grad_x1": [math.sin(b) / a for a, b in zip(X1, X2)],
        "grad_x2": [math.sin(b) / b + math.log(a * b) * math.cos(b) for a, b in zip(X1, X2)],
    }


def _check(columns: dict[str, list[float]], expected: dict[str, list[float]]) -> None:
    assert list(columns) == list(expected)
    for name, column in expected.items():
        assert columns[name] == pytest.approx(column, rel=1e-14, abs=1e-15), name


def test_polars_in_polars_out():
    out = grad_table(PROGRAM, pl.DataFrame({"x1": X1, "x2": X2}))
    assert isinstance(out, pl.DataFrame)
    _check(out.to_dict(as_series=False), _expected())


def test_list_columns_give_list_columns():
    zs = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]]
    out = grad_table("sum(z*z)", pl.DataFrame({"z": zs}))
    assert out.columns == ["value", "grad_z"]
    assert out["value"].to_list() == [sum(v * v for v in z) for z in zs]
    assert out["grad_z"].to_list() == [[2 * v for v in z] for z in zs]


def test_element_columns_give_element_columns():
    out = grad_table("z*z", pl.DataFrame({"z[0]": [1.0, 3.0], "z[1]": [2.0, -1.0]}), seed=[1.0, 1.0])
    assert out.columns == ["value[0]", "value[1]", "grad_z[0]", "grad_z[1]"]
    assert out.rows() == [(1.0, 4.0, 2.0, 4.0), (9.0, 1.0, 6.0, -2.0)]


def test_at_gives_the_inputs_the_table_does_not():
    out = grad_table("x*y", pl.DataFrame({"x": [1.0, 2.0]}), at={"y": 3.0})
    assert out.rows() == [(3.0, 3.0, 1.0), (6.0, 3.0, 2.0)]


def test_a_bad_row_is_named():
    with pytest.raises(GradcliError, match="row 2: column 'x' is null"):
        grad_table("x*x", pl.DataFrame({"x": [1.0, None]}))


def test_an_empty_table_gives_an_empty_table_with_the_columns():
    out = grad_table(PROGRAM, pl.DataFrame({"x1": [], "x2": []}, schema={"x1": pl.Float64, "x2": pl.Float64}))
    assert out.columns == ["value", "grad_x1", "grad_x2"] and out.height == 0


def test_pandas_in_pandas_out_keeping_the_index():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"x1": X1, "x2": X2}, index=[10, 11, 12, 13, 14])
    out = grad_table(PROGRAM, frame)
    assert isinstance(out, pd.DataFrame)
    assert list(out.index) == [10, 11, 12, 13, 14]
    _check({name: out[name].tolist() for name in out.columns}, _expected())


def test_pandas_element_columns():
    pd = pytest.importorskip("pandas")
    out = grad_table("sum(z*z)", pd.DataFrame({"z[0]": [1.0, 3.0], "z[1]": [2.0, -1.0]}))
    assert list(out.columns) == ["value", "grad_z[0]", "grad_z[1]"]
    assert out.to_numpy().tolist() == [[5.0, 2.0, 4.0], [10.0, 6.0, -2.0]]


def test_arrow_in_arrow_out():
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"x1": X1, "x2": X2})
    out = grad_table(PROGRAM, table)
    assert isinstance(out, pa.Table)
    _check(out.to_pydict(), _expected())


def test_arrow_list_columns():
    pa = pytest.importorskip("pyarrow")
    out = grad_table("sum(z*z)", pa.table({"z": [[1.0, 2.0], [3.0, -1.0]]}))
    assert out.column_names == ["value", "grad_z"]
    assert out.to_pydict() == {"value": [5.0, 10.0], "grad_z": [[2.0, 4.0], [6.0, -2.0]]}


def test_other_kinds_are_refused():
    with pytest.raises(TypeError, match="pandas DataFrame, a polars DataFrame or an Arrow table"):
        grad_table("x*x", {"x": np.array([1.0])})


def test_a_pandas_nan_is_a_missing_value_named_by_its_row():
    # pandas marks a missing value with NaN: it is a bad row (it raised for the whole table before, unnamed)
    pd = pytest.importorskip("pandas")
    with pytest.raises(GradcliError, match="row 3: column 'x2' is null"):
        grad_table(PROGRAM, pd.DataFrame({"x1": [0.5, 1.0, 2.5], "x2": [0.75, 2.0, np.nan]}))


def test_skip_bad_gives_nulls_for_bad_rows_so_rows_still_line_up():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"x1": [0.5, None, 2.5, 7.0], "x2": [0.75, 2.0, 0.3, np.nan]}, index=["a", "b", "c", "d"])
    out = grad_table(PROGRAM, frame, skip_bad=True)
    assert list(out.index) == ["a", "b", "c", "d"]
    assert out["value"].isna().tolist() == [False, True, False, True]
    expected = _expected()
    kept = [0, 2]
    for name in ("value", "grad_x1", "grad_x2"):
        assert [out[name].tolist()[i] for i in kept] == pytest.approx([expected[name][i] for i in kept], rel=1e-14)


def test_skip_bad_list_columns_give_null_lists():
    pa = pytest.importorskip("pyarrow")
    out = grad_table("sum(z*z)", pa.table({"z": [[1.0, 2.0], None, [3.0, -1.0]]}), skip_bad=True)
    assert out.to_pydict() == {"value": [5.0, None, 10.0], "grad_z": [[2.0, 4.0], None, [6.0, -2.0]]}


def test_a_bad_index_value_is_named_by_its_row_and_skip_bad_gives_its_results_nulls():
    table = pl.DataFrame({"i": [0.0, 5.0, 2.0, float("nan")]})
    with pytest.raises(GradcliError, match=r"row 2: .*out of range"):
        grad_table("v[i]", table, at={"v": [10.0, 20.0, 30.0]})
    out = grad_table("v[i]", table, at={"v": [10.0, 20.0, 30.0]}, skip_bad=True)
    assert out["value"].to_list() == [10.0, None, 30.0, None]
    assert out["grad_v[0]"].to_list() == [1.0, None, 0.0, None]
    assert out["grad_v[2]"].to_list() == [0.0, None, 1.0, None]


@pytest.mark.parametrize("bad", [None, [1.0, None], "abc", {"a": 1}])
def test_an_at_value_from_python_that_is_no_number_is_a_gradcli_error_in_grad_and_grad_table(bad):
    from gradcli import grad

    with pytest.raises(GradcliError):
        grad("x*sum(y)", at={"x": 2.0, "y": bad})
    with pytest.raises(GradcliError):
        grad_table("x*sum(y)", pl.DataFrame({"x": [2.0]}), at={"y": bad})


def test_grad_table_reads_an_at_text_as_grad_does():
    out = grad_table("x*y", pl.DataFrame({"x": [2.0]}), at={"y": "pi/4"})
    assert out["value"].to_list() == [2.0 * (math.pi / 4)] and out["grad_x"].to_list() == [math.pi / 4]


def test_two_columns_of_one_input_are_named_by_their_own_positions_and_spellings():
    # 'x ' is read as input x (as a CSV header cell is); the error named column 2 repeating column 1, counting only
    # the input columns and showing the second spelling for both
    import pandas as pd

    frame = pd.DataFrame({"id": ["a", "b"], "x ": [1.0, 2.0], "y": [1.0, 2.0], "x": [3.0, 4.0]})
    with pytest.raises(GradcliError) as refused:
        grad_table("x*y", frame)
    assert "column 4, 'x', repeats column 2, 'x '" in str(refused.value)
    frame = pd.DataFrame({"id": ["a", "b"], "z[0]": [1.0, 2.0], "z[00]": [3.0, 4.0]})
    with pytest.raises(GradcliError) as refused:
        grad_table("sum(z)", frame)
    assert "column 3, 'z[00]', repeats column 2, 'z[0]'" in str(refused.value)
