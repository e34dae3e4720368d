"""Record what PyTorch prints for each file `gradcli run` is tested on (run with torch installed).

    python tests/reference/make_run_expected.py [FILE ...]

For each samples/autograd/*.py, tests/run_cases/*.py and tests/run_cases/tutorials/*.py (or
only the FILEs named), runs it under the Python that has torch and writes
tests/reference/run/NAME.out (its stdout; tutorials/NAME.out for the tutorials) and NAME.json
(its exit code and the last line of its stderr: the exception Python prints). The tutorials
train for thousands of steps: all of them take minutes. The tests compare gradcli run's
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
TUTORIALS = sorted((ROOT / "tests" / "run_cases" / "tutorials").glob("*.py"))


def main() -> None:
    named = {Path(name).resolve() for name in sys.argv[1:]}
    for path in [*FILES, *TUTORIALS]:
        if named and path not in named:
            continue
        out_dir = ROOT / "tests" / "reference" / "run" / ("tutorials" if path in TUTORIALS else "")
        out_dir.mkdir(exist_ok=True)
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=ROOT, timeout=1800)
        errors = [line for line in done.stderr.splitlines() if line.strip()]
        (out_dir / f"{path.stem}.out").write_text(done.stdout)
        record = {"exit": done.returncode, "error": errors[-1] if done.returncode else None, "torch": torch.__version__}
        (out_dir / f"{path.stem}.json").write_text(json.dumps(record, indent=1) + "\n")
        print(path.name, done.returncode)


if __name__ == "__main__":
    main()
