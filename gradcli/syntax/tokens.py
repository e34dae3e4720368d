"""Text -> tokens: one regular expression does the scanning."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, NamedTuple

from gradcli.errors import Limits, SyntaxProblem, over_limit
from gradcli.syntax.operators import SPELLINGS

# Words Python reserves: a clear "not supported" beats a puzzling "unexpected name".
KEYWORDS = frozenset(
    "False None True and as assert async await break class continue def del elif else "
    "except finally for from global if import in is lambda nonlocal not or pass raise "
    "return try while with yield".split()
)


class Token(NamedTuple):
    """A token: its kind (NUM NAME OP ( ) [ ] , : = ; NEWLINE END), its text and where it stands."""

    kind: str
    text: str
    start: int
    end: int


# A token's fields by position, for callers that index (token[KIND]).
KIND: Final = 0
TEXT: Final = 1
START: Final = 2
END: Final = 3

# The punctuation of the language and each one's kind (the operators' spellings come from the
# op table), and the Python operators it does not have (named as such rather than as
# unexpected characters).
_KIND_OF = {**dict.fromkeys(SPELLINGS, "OP"), "\n": "NEWLINE", **{p: p for p in "()[],:=;"}}
_NOT_OURS = frozenset(["//", "%", "==", "!=", "<=", ">=", "<<", ">>", "**=", "+=", "-=", "*=", "/=", "@=",
                       *"<>&|^~!."]) - SPELLINGS


def _alternatives(texts: Iterable[str]) -> str:
    return "|".join(re.escape(text) for text in sorted(texts, key=lambda text: (-len(text), text)))  # longest first


# Every character is matched by one alternative, so positions are sums of lengths, and
# `findall` (all in C) does the scanning. No groups: findall then gives plain strings, 2.5x
# faster than a tuple of groups; a token's kind is read off its text. (A number comes before
# the operators we do not have, so that `.5` is a number and `.` alone is not ours.)
_TOKEN = re.compile(
    r"[A-Za-z_][A-Za-z_0-9]*"  # name
    r"|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"  # number
    r"|[ \t\r\f]+|\\\n|\#[^\n]*"  # space, line continuation, comment
    f"|{_alternatives(_NOT_OURS)}"
    f"|{_alternatives(_KIND_OF)}"
    r"|.",  # anything else
    re.DOTALL,
)
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NUMBER_START = frozenset("0123456789.")
_SPACE_START = frozenset(" \t\r\f#")


def tokenize(source: str) -> list[Token]:
    if len(source) > Limits.get("program_chars"):
        raise over_limit(f"the text is {len(source):,} characters long", "program_chars")
    tokens: list[Token] = []
    append = tokens.append
    new = tuple.__new__  # Token(...) without NamedTuple's __new__ in Python: a big program has 100,000s
    kind_of = _KIND_OF.get
    position = 0
    for text in _TOKEN.findall(source):
        end = position + len(text)
        kind = kind_of(text)
        if kind is None:
            first = text[0]
            if first in _NAME_START:
                kind = "NAME"
            elif first in _NUMBER_START and text != ".":
                kind = "NUM"
            elif first in _SPACE_START or text == "\\\n":
                position = end
                continue
            elif text in _NOT_OURS:
                what = "attribute access ('.')" if text == "." else f"operator {text!r}"
                raise SyntaxProblem(f"{what} is not supported", source=source, span=(position, end))
            else:
                shown = "character " + (repr(text) if text.isprintable() else f"U+{ord(text):04X}")
                if "\udc80" <= text <= "\udcff":  # how Python hands over a byte of argv that is not UTF-8
                    shown = f"byte 0x{ord(text) - 0xdc00:02x} (not UTF-8)"
                raise SyntaxProblem(f"unexpected {shown}", source=source, span=(position, position + 1))
        append(new(Token, (kind, text, position, end)))
        position = end
    append(Token("END", "", len(source), len(source)))
    return tokens

