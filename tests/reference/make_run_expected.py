"""Record what PyTorch prints for each file `gradcli run` is tested on (run with torch installed).

    python tests/reference/make_run_expected.py

For each samples/autograd/*.py and tests/run_cases/*.py, runs it under the Python that has
torch and writes tests/reference/run/NAME.out (its stdout) and NAME.json (its exit code and
the last line of its stderr: the exception Python prints). The tests compare gradcli run's
output with these, addresses masked. PyTorch itself is never a dependency of gradcli.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted([*(ROOT / "samples" / "autograd").glob("*.py"), *(ROOT / "tests" / "run_cases").glob("*.py")])


def main() -> None:
    out_dir = ROOT / "tests" / "reference" / "run"
    out_dir.mkdir(exist_ok=True)
    for path in FILES:
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=ROOT, timeout=120)
        errors = [line for line in done.stderr.splitlines() if line.strip()]
        (out_dir / f"{path.stem}.out").write_text(done.stdout)
        record = {"exit": done.returncode, "error": errors[-1] if done.returncode else None, "torch": torch.__version__}
        (out_dir / f"{path.stem}.json").write_text(json.dumps(record, indent=1) + "\n")
        print(path.name, done.returncode)


if __name__ == "__main__":
    main()
