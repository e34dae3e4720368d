"""The `gradcli` process (`python -m gradcli` and the `gradcli` script): cli.main, run once.

A run is one short computation. Python's cycle collector stays off for it: the imports and
a big program's tape make hundreds of thousands of objects, none in a cycle, and the
collector would walk them all again and again (~15 ms of start-up, ~50 ms per 100,000
nodes). A stream of points makes no cycles either; its memory stays flat (benchmarks/).
"""

import gc


def main() -> None:
    gc.disable()
    from gradcli.cli import main as run

    run()


if __name__ == "__main__":
    main()
