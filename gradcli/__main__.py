"""The `gradcli` process (`python -m gradcli` and the `gradcli` script): cli.main, run once.

A run is one short computation, and two things Python does for long-lived programs cost it
time it does not need:

- the cycle collector: the imports and a big program's tape make hundreds of thousands of
  objects, none in a cycle, and the collector walks them all again and again (~15 ms of
  start-up, ~50 ms per 100,000 nodes). It stays off; a stream of points makes no cycles
  either, and its memory stays flat (benchmarks/).
- tearing the heap down at exit: freeing every module and object one by one, with a last
  full collection, takes ~35 ms after NumPy and typer are loaded (a quarter of a one-point
  run) and as much again per 100,000 tape nodes. Once the output is flushed, the process
  ends with os._exit and the operating system takes the memory back at once.
"""

import gc
import os
import sys


def _code(status: object) -> int:
    """What Python itself would exit with for SystemExit(status)."""
    if status is None:
        return 0
    if isinstance(status, int):
        return status
    print(status, file=sys.stderr)
    return 1


def main() -> None:
    gc.disable()
    from gradcli.cli import main as run

    try:
        run()
        code = 0
    except SystemExit as stop:
        code = _code(stop.code)
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # a reader that left (`| head`); stdout closed for that
        pass
    except OSError as problem:  # a full disk: not a success, whatever the command said
        print(f"gradcli: error: cannot write the output: {problem}", file=sys.stderr)
        code = code or 4
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    main()
