"""A coverage-guided fuzz target for gradcli's parser and tape builder (atheris).

    pip install atheris
    python fuzz/fuzz_parser.py -max_total_time=60         # run for a minute
    python fuzz/fuzz_parser.py -runs=20000 fuzz/corpus    # or a fixed number of inputs

Any exception other than gradcli's own GradcliError is a finding: atheris stops and writes
the input that caused it. The parser must answer every string with a tree or an error.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from gradcli import syntax
    from gradcli.errors import GradcliError
    from gradcli.tape import build


def test_one_input(data: bytes) -> None:
    text = atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(4096)
    try:
        tree = syntax.parse(text)
    except GradcliError:
        return
    printed = syntax.to_source(tree)
    if syntax.parse(printed) != tree:  # the printer must round-trip what the parser accepts
        raise AssertionError(f"printing {text!r} as {printed!r} changes its tree")
    try:
        build(tree)
    except GradcliError:
        return


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
