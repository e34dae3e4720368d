"""Hypothesis explores new examples on a developer's machine; under CI it replays the same
ones every run, so that a red CI means a change, not an unlucky draw."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
