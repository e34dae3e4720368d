"""Hypothesis explores new examples on a developer's machine; under CI it replays the same
ones every run, so that a red CI means a change, not an unlucky draw."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# gradcli run in this process (tests.helpers.cli) computes with NumPy, whatever a worker imported before: a process
# that has imported torch cannot use gradcli's MKL (gradcli.mkl.library), so MKL in-process would depend on the
# order of the tests. The tests of MKL's bits run gradcli in a Python of its own (tests/test_mkl.py, the tutorial
# files of tests/test_run_tutorials.NEEDS_MKL).
from gradcli import mkl  # noqa: E402

mkl._library.append(None)
