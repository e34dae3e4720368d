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
- OpenBLAS's threads, which NumPy starts as it is imported, wait for work by spinning for a
  while (about 0.1 s of a core) before they sleep: 0.06-0.12 s of CPU taken from the reading and
  writing threads of --points. OPENBLAS_THREAD_TIMEOUT=4 (the least: 2^4 cycles) has them sleep
  at once; matrix products still use them. Not where the user set it.

And it decides, in one place, what a failed write to stdout means (`_Stdout`), and whether typer reads the
command line (commands.simple).
"""

import errno
import gc
import io
import os
import sys
from typing import NoReturn, TextIO, cast

from gradcli.errors import ExitCode, OutputProblem, cannot_write, describe


def _code(status: object) -> int:
    """What Python itself would exit with for SystemExit(status)."""
    if status is None:
        return 0
    if isinstance(status, int):
        return status
    print(status, file=sys.stderr)
    return 1


def _reader_left() -> NoReturn:
    """`gradcli ... | head`: nothing more is wanted. The run ends at once, with 0."""
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(0)


class _Stdout:
    """The process's stdout, where a failed write is told apart from every other error, once
    for every view (rich's, click's and gradcli's own writes all come through here).

    A reader that left ends the run at once with 0; any other failure to write (a full disk)
    is an OutputProblem, exit 5, with a message about the output.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            _reader_left()
        except OSError as problem:
            raise cannot_write(problem) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            _reader_left()
        except OSError as problem:
            raise cannot_write(problem) from None

    def write_bytes(self, data: bytes | memoryview) -> None:
        """Bytes straight to the stream's buffer, after the text written before (--points writes
        its lines as pyarrow and the compiled helper give them, never decoded to str and encoded back)."""
        self.flush()
        try:
            self._stream.buffer.write(data)
        except BrokenPipeError:
            _reader_left()
        except OSError as problem:
            raise cannot_write(problem) from None

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


class _Closed(io.TextIOBase):
    """The stdout of a process started without one (`gradcli ... >&-`): every write fails, as
    a write to a closed descriptor does, and so becomes an OutputProblem like a full disk."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


class _Stderr:
    """The process's stderr, where a message that cannot be written (stderr closed or full) is
    lost instead of becoming a new error: the exit code still says what happened."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _report(problem: OutputProblem) -> int:
    for line in describe(problem):
        print(line, file=sys.stderr)
    return int(problem.exit_code)


def main() -> None:
    gc.disable()
    # None: started with the stream closed. (print(file=None) would write an error to stdout.)
    sys.stdout = cast(TextIO, _Stdout(sys.stdout if sys.stdout is not None else cast(TextIO, _Closed())))
    sys.stderr = cast(TextIO, _Stderr(sys.stderr if sys.stderr is not None else open(os.devnull, "w")))
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")  # read as NumPy loads OpenBLAS, which comes next
    from gradcli.commands import simple

    # A simple command line (`grad PROGRAM --at ... --json`) runs without typer and click (a fifth of a
    # one-point run is their import); any other, typer reads.
    run = simple(sys.argv[1:])
    if run is None:
        from gradcli.cli import main

        run = main
    try:
        run()
        code = 0
    except SystemExit as stop:
        code = _code(stop.code)
    except OutputProblem as problem:  # a write outside any command (--help)
        code = _report(problem)
    try:
        sys.stdout.flush()
    except OutputProblem as problem:  # a full disk: not a success, whatever the command said
        if code != ExitCode.OUTPUT:  # said once
            code = _report(problem)
    except ValueError:  # stdout closed
        pass
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    main()
