"""Text -> tokens: one regular expression does the scanning."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, compress
from typing import Final, NamedTuple, overload

from gradcli.errors import Limits, SyntaxProblem, over_limit
from gradcli.syntax.operators import SPELLINGS

# Words Python reserves: a clear "not supported" beats a puzzling "unexpected name".
# (True, False and None are values: names the tape knows.)
KEYWORDS = frozenset(
    "and as assert async await break class continue def del elif else "
    "except finally for from global if import in is lambda nonlocal not or pass raise "
    "return try while with yield".split()
)


class Token(NamedTuple):
    """A token: its kind (NUM NAME STR OP ( ) [ ] , : = ; . AUG NEWLINE END), its text and where it stands."""

    kind: str
    text: str
    start: int
    end: int


# A token's fields by position, for callers that index them (token[KIND]).
KIND: Final = 0
TEXT: Final = 1
START: Final = 2
END: Final = 3

# The punctuation of the language and each one's kind (the operators' spellings come from the
# op table), and the Python operators it does not have (named as such rather than as
# unexpected characters).
_KIND_OF = {**dict.fromkeys(SPELLINGS, "OP"), "\n": "NEWLINE", **{p: p for p in "()[],:=;."},
            **dict.fromkeys(["+=", "-=", "*=", "/="], "AUG")}  # x += 1 is x = x + (1)
_NOT_OURS = frozenset(["//", "%", "==", "!=", "<=", ">=", "<<", ">>", "**=", "@=",
                       *"<>&|^~!"]) - SPELLINGS


# Operators as typeset (a Unicode minus, a multiplication and a division sign) are read as
# their ASCII operators: one character for one, so every position stays where it is.
_AS_ASCII = str.maketrans({"\u2212": "-", "\u00d7": "*", "\u00f7": "/"})
# What a Python operator we do not have is, more likely than not, meant to be.
_MEANT = {"^": "use ** for powers, as in x**2"}


def _alternatives(texts: Iterable[str]) -> str:
    return "|".join(re.escape(text) for text in sorted(texts, key=lambda text: (-len(text), text)))  # longest first


# Every character is matched by one alternative, so positions are sums of lengths, and
# `findall` (all in C) does the scanning. No groups: findall then gives plain strings, 2.5x
# faster than a tuple of groups; a token's kind is read off its text. (A number comes before
# the punctuation, so that `.5` is a number and `.` alone is a '.'.)
_TOKEN = re.compile(
    r"[A-Za-z_][A-Za-z_0-9]*"  # name
    r"|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"  # number
    r"|'[^'\\\n]*'|\"[^\"\\\n]*\""  # a string: einsum's subscripts, reduction='sum' (no escapes)
    r"|[ \t\r\f]+|\\\n|\#[^\n]*"  # space, line continuation, comment
    f"|{_alternatives(_NOT_OURS | frozenset(_KIND_OF))}"  # one alternation, longest first: `!=` before `!`
    r"|.",  # anything else
    re.DOTALL,
)
# A token's kind, from its whole text (operators and punctuation), else from its first
# character. _SKIP (falsy): space, a comment, a line continuation; _BAD: no token of ours.
_SKIP, _BAD = "", "?"
_KIND_OF_TEXT = {**_KIND_OF, **dict.fromkeys(_NOT_OURS, _BAD), "\\": _BAD,  # `\` alone; `\` + newline: _SKIP
                 "'": _BAD, '"': _BAD}  # a quote that no other closes on its line
_KIND_OF_FIRST = {
    **dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", "NAME"),
    **dict.fromkeys("0123456789.", "NUM"),  # (`.` alone is punctuation, by its whole text)
    **dict.fromkeys("'\"", "STR"),  # (a quote alone is _BAD, by its whole text)
    **dict.fromkeys(" \t\r\f#\\", _SKIP),
}


class Tokens(Sequence[Token]):
    """The tokens of a text, ending with an END token. tokens[i] is a Token.

    They are kept as four columns, which the parser reads: a big program has hundreds of
    thousands of tokens, and making and reading an object for each added a sixth to the time
    to parse it.
    """

    __slots__ = ("ends", "kinds", "starts", "texts")

    def __init__(self, kinds: list[str], texts: list[str], starts: list[int], ends: list[int]) -> None:
        self.kinds, self.texts, self.starts, self.ends = kinds, texts, starts, ends

    def __len__(self) -> int:
        return len(self.kinds)

    @overload
    def __getitem__(self, index: int) -> Token: ...

    @overload
    def __getitem__(self, index: slice) -> list[Token]: ...

    def __getitem__(self, index: int | slice) -> Token | list[Token]:
        if isinstance(index, slice):
            return list(map(Token, self.kinds[index], self.texts[index], self.starts[index], self.ends[index]))
        return Token(self.kinds[index], self.texts[index], self.starts[index], self.ends[index])

    def __iter__(self) -> Iterator[Token]:
        return map(Token, self.kinds, self.texts, self.starts, self.ends)

    def __eq__(self, other: object) -> bool:  # as a list of tokens would compare
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


def tokenize(source: str) -> Tokens:
    """The tokens of `source`; SyntaxProblem at the first that is not one of the language.

    Each step is one pass in C (or a comprehension): a big program has hundreds of
    thousands of tokens.
    """
    if len(source) > Limits.get("program_chars"):
        raise over_limit(f"the text is {len(source):,} characters long", "program_chars")
    texts = _TOKEN.findall(source if source.isascii() else source.translate(_AS_ASCII))
    by_text, by_first = _KIND_OF_TEXT.get, _KIND_OF_FIRST.get
    kinds = [by_text(text) or by_first(text[0], _BAD) for text in texts]
    starts = list(accumulate(map(len, texts), initial=0))  # starts[i + 1] is where token i ends
    if _BAD in kinds:
        first_bad = kinds.index(_BAD)
        raise _not_a_token(source, texts[first_bad], starts[first_bad])
    ends = starts[1:]
    del starts[-1]
    if _SKIP in kinds:
        texts, starts, ends = (list(compress(column, kinds)) for column in (texts, starts, ends))
        kinds = list(filter(None, kinds))
    kinds.append("END")
    texts.append("")
    starts.append(len(source))
    ends.append(len(source))
    return Tokens(kinds, texts, starts, ends)


def _not_a_token(source: str, text: str, start: int) -> SyntaxProblem:
    if text in _NOT_OURS:
        return SyntaxProblem(f"operator {text!r} is not supported", source=source, span=(start, start + len(text)),
                             hint=_MEANT.get(text, ""))
    if text in ("'", '"'):
        return SyntaxProblem("unterminated string", source=source, span=(start, start + 1),
                             hint="a string opens and closes with the same quote on one line, as in 'ij,jk->ik'")
    shown = "character " + (repr(text) if text.isprintable() else f"U+{ord(text):04X}")
    if "\udc80" <= text <= "\udcff":  # how Python hands over a byte of argv that is not UTF-8
        shown = f"byte 0x{ord(text) - 0xdc00:02x} (not UTF-8)"
    return SyntaxProblem(f"unexpected {shown}", source=source, span=(start, start + 1))
