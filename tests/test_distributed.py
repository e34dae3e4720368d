"""Beyond one process: grad_table on Dask workers, and the README's shell recipe over chunks.

Both compare with the single-process result, row for row and in order (the derivative itself is
checked against references elsewhere: tests/test_grad_table.py, tests/test_points*.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from gradcli import grad_table

PROGRAM = "log(x1*x2)*sin(x2)"
README = Path(__file__).resolve().parent.parent / "README.md"


def _points(count: int) -> dict[str, np.ndarray]:
    rows = np.arange(count, dtype=float)
    return {"x1": 0.5 + rows / count, "x2": 1.0 + (rows % 977) / 100}


def test_dask_map_partitions_on_two_worker_processes_equals_one_process():
    pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    import dask.dataframe as dd
    import pandas as pd

    frame = pd.DataFrame(_points(300_000))
    alone = grad_table(PROGRAM, frame)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        points = dd.from_pandas(frame, npartitions=6)
        assert points.npartitions == 6
        results = points.map_partitions(partial(grad_table, PROGRAM), meta=grad_table(PROGRAM, frame.head(0)))
        together = results.compute()
        assert len(client.scheduler_info()["workers"]) == 2
    assert list(together.columns) == ["value", "grad_x1", "grad_x2"]
    assert together.index.tolist() == list(range(300_000))  # every row once, in order
    assert np.array_equal(together.to_numpy(), alone.to_numpy())  # bit for bit


def _recipe() -> str:
    """The shell recipe of the README's "Many points" section, as written there."""
    text = README.read_text()
    found = re.search(r"<!-- shell recipe -->\n```sh\n(.*?)```", text, re.S)
    assert found, "the README shows the shell recipe"
    return found.group(1)


def test_the_readme_shell_recipe_gives_what_one_process_gives(tmp_path):
    count = 5_003
    columns = _points(count)
    body = "".join(f"{a!r},{b!r}\n" for a, b in zip(columns["x1"].tolist(), columns["x2"].tolist()))
    (tmp_path / "points.csv").write_text("x1,x2\n" + body)
    recipe = _recipe().replace("250000", "1000")  # five chunks and a bit
    bin_dir = str(Path(sys.executable).parent)
    environment = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", recipe], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    alone = subprocess.run([sys.executable, "-m", "gradcli", "grad", PROGRAM, "--points", "points.csv", "--csv"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert (tmp_path / "results.csv").read_text() == alone.stdout
    assert len(alone.stdout.splitlines()) == count + 1
    assert sorted(os.listdir(tmp_path)) == ["points.csv", "results.csv"]  # the chunks cleaned up
