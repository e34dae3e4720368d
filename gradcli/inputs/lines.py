"""--points bytes -> lines of text, read in bounded pieces: no line is ever held whole."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from gradcli.errors import Limits, NameProblem


@dataclass(slots=True, eq=False)
class Unreadable:
    """A line that is not text (too long to hold, or not UTF-8), in the place of its text."""

    reason: str
    text: str | None = None  # what can be told of it (not UTF-8: its bytes read with U+FFFD for the bad ones)


# Not a line: nothing more has come down the pipe for now. What was read is answered
# before waiting for more.
PAUSE = Unreadable("")


PIECE = 1 << 16  # bytes read at once
_BOM = b"\xef\xbb\xbf"


def too_long(limit: int) -> str:
    return f"longer than {limit:,} characters (raise the limit with {Limits.variable('line_chars')}=N)"


BLOCK = 1 << 20  # bytes of whole lines given to a fast parser at once, where a pipe has them now
FILE_BLOCK = 1 << 23  # from a regular file, whose bytes are all there: bigger blocks, fewer calls


@dataclass(slots=True, eq=False)
class Parsed:
    """Whole lines a fast parser read at once, in the place of their texts: `count` lines
    (none blank, none too long, all good points), and what the parser made of them."""

    count: int
    rows: tuple[dict[str, Any], dict[str, Any]]


class LineReader:
    """The lines of a stream of bytes as text, read in pieces: no line is ever held whole.

    A line ends at LF or CRLF. A line past the line limit is given up as soon as its bytes
    pass four times the limit (UTF-8 spends at most 4 bytes on a character), and the rest
    of it is passed over a piece at a time. A UTF-8 byte order mark at the start is dropped.

    Once `fast` is set (by the format, when the first line has chosen it), whole lines are
    gathered into blocks (a read of FILE_BLOCK bytes from a file; from a pipe, up to BLOCK of
    what has come so far) and each block is offered to `fast` first: a `Parsed` where it can
    read every line of it, the block's lines one by one where it cannot (it returns None), for
    the exact reader to judge. Before a block is offered after lines given as text, a PAUSE
    lets those be read first: the shapes they fix are what the block is held to.
    """

    def __init__(self, stream: BinaryIO, name: str = "-") -> None:
        self.stream = stream
        self.name = name
        self.fast: Callable[[bytes | memoryview, int], tuple[int, Any] | None] | None = None
        self.texts_given = False  # lines given as text since the last block offered to `fast`

    def __iter__(self) -> Iterator[str | Unreadable | Parsed]:
        limit = Limits.get("line_chars")
        most_bytes = 4 * limit + 1  # and the CR of a CRLF
        read, more_now = _pieces(self.stream)
        from_file = regular(self.stream)
        block = min(BLOCK, FILE_BLOCK)  # from a file, growing to FILE_BLOCK: the first points come soon
        pending: list[bytes] = []  # the start of a line whose end has not come yet
        pending_size = 0
        ready: list[bytes | memoryview] = []  # whole lines (each piece's without its last LF), not given yet
        ready_size = 0
        passing_over = False  # inside a line already given up as too long
        first = True
        while True:
            try:
                piece = read(PIECE if self.fast is None else block)
            except OSError as problem:
                raise NameProblem(f"cannot read points from {self.name!r}: {problem.strerror or problem}",
                                  where="--points") from None
            if not piece:
                break
            if passing_over:
                end = piece.find(b"\n")
                if end < 0:
                    continue
                piece = piece[end + 1 :]
                passing_over = False
            end = piece.rfind(b"\n")
            rewound = end >= 0 and from_file and not pending and end + 1 < len(piece)
            if rewound:  # a file's next read starts where this piece's last line does: that part of a line is
                self.stream.seek(end + 1 - len(piece), 1)  # read again, rather than the next piece copied behind it
            if end >= 0:
                whole = memoryview(piece)[:end]  # not copied: the lines of a block go to the parser as they are
                ready.append(b"".join([*pending, whole]) if pending else whole)
                ready_size += len(ready[-1])
                pending, pending_size = [], 0
                piece = b"" if rewound else piece[end + 1 :]
                paused = more_now is not None and not more_now()
                if paused or self.fast is None or more_now is None or ready_size >= block:
                    yield from self._give(ready, first, limit)
                    first = False
                    ready, ready_size = [], 0
                    if more_now is None and self.fast is not None:
                        block = min(2 * block, FILE_BLOCK)
                if paused:
                    yield PAUSE
            if piece:
                pending.append(piece)
                pending_size += len(piece)
                if pending_size > most_bytes:
                    if ready:
                        yield from self._give(ready, first, limit)
                        ready, ready_size = [], 0
                    yield Unreadable(too_long(limit))
                    first = False
                    pending, pending_size, passing_over = [], 0, True
        if ready:
            yield from self._give(ready, first, limit)
            first = False
        if pending:
            yield from _decode(b"".join(pending), first)

    def _give(self, ready: list[bytes | memoryview], first: bool, limit: int) -> Iterator[str | Unreadable | Parsed]:
        """Whole lines: parsed at once by `fast` if it can, else one by one."""
        block = b"\n".join(ready) if len(ready) > 1 else ready[0]
        if self.fast is not None and not first:
            if self.texts_given:  # the lines given as text are read first: the shapes they fix decide this block
                self.texts_given = False
                yield PAUSE
            parsed = self.fast(block, limit)  # (None where a line has more than `limit` bytes)
            if parsed is not None:
                yield Parsed(*parsed)
                return
        self.texts_given = True
        yield from _decode(bytes(block), first)


def searchable(block: bytes | memoryview) -> bytes:
    """Bytes to search (find, count) within `len(block)`: the block itself, or, for the view of a
    piece's first bytes that LineReader hands on, the piece (not copied); any other view, copied."""
    if not isinstance(block, memoryview):
        return block
    whole = block.obj
    if isinstance(whole, bytes) and block.c_contiguous and len(block) <= len(whole):
        import numpy as np

        if np.frombuffer(block, dtype=np.uint8).ctypes.data == np.frombuffer(whole, dtype=np.uint8).ctypes.data:
            return whole
    return bytes(block)


def regular(stream: BinaryIO) -> bool:
    """Is `stream` a regular file, where a read may start again at an earlier byte?"""
    import os
    import stat

    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode) and stream.seekable()
    except (AttributeError, OSError, ValueError):
        return False


def _pieces(stream: BinaryIO) -> tuple[Callable[[int], bytes], Callable[[], bool] | None]:
    """How to read `stream` a piece at a time; for a pipe or a terminal, also how to tell
    whether more bytes are there now (a file's next bytes always are)."""
    import io
    import os
    import stat

    read = getattr(stream, "read1", stream.read)
    try:
        descriptor = stream.fileno()
        status = os.fstat(descriptor)
        if stat.S_ISREG(status.st_mode):
            def read_file(size: int) -> bytes:  # no bigger than what is left: a read of n bytes first holds n
                left = status.st_size - stream.tell()  # the last blocks smaller: less left to do after the last read
                return read(max(PIECE, min(size, left, max(BLOCK, left // 2))))

            return read_file, None
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return read, None
    import select

    def more_now() -> bool:
        try:
            return bool(select.select([descriptor], [], [], 0)[0])
        except (OSError, ValueError):  # no select on this kind of stream: never pause
            return True

    raw = getattr(stream, "raw", None)
    if raw is None:
        return read, more_now

    def read_raw(size: int) -> bytes:
        # Nothing is buffered above the descriptor yet (nothing has read it): read it
        # directly, so that what select sees is all there is.
        piece = raw.read(size)
        while piece is None:  # a non-blocking descriptor with nothing in it yet: wait
            select.select([descriptor], [], [])
            piece = raw.read(size)
        return piece

    return read_raw, more_now


def _decode(block: bytes, first: bool) -> Iterator[str | Unreadable]:
    """The lines of `block` (whole lines, without the last LF) as text."""
    if first and block.startswith(_BOM):
        block = block[len(_BOM) :]
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        for raw in block.split(b"\n"):
            try:
                yield raw.decode("utf-8").removesuffix("\r")
            except UnicodeDecodeError as problem:
                column = len(raw[: problem.start].decode("utf-8")) + 1
                yield Unreadable(f"not UTF-8 text (byte 0x{raw[problem.start]:02x} at column {column})",
                                 raw.decode("utf-8", "replace").removesuffix("\r"))
        return
    if "\r" in text:
        text = text.replace("\r\n", "\n").removesuffix("\r")
    yield from text.split("\n")
