"""
The receive buffer every codec reads from, sans I/O (after h11's
C{ReceiveBuffer}): bytes are appended as they arrive, and whole lines or
chunks of a known size are extracted from the front.

Reading is total: when the bytes are not all there yet the answer is
L{NEED_MORE}; a line longer than its limit is a L{TooLong} value; nothing
here raises on any bytes.  L{NEED_MORE} and L{Malformed} are the values
every codec of gameproto answers with.
"""

from __future__ import annotations

from typing import Final, final

import attrs

__all__ = ["NEED_MORE", "Malformed", "NeedMore", "ReceiveBuffer", "TooLong"]


@final
class NeedMore:
    """The type of L{NEED_MORE}; there is only one."""

    _instance: NeedMore | None = None

    def __new__(cls) -> NeedMore:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NEED_MORE"

    def __reduce__(self) -> str:
        return "NEED_MORE"


NEED_MORE: Final = NeedMore()
"""Not enough bytes yet for a whole message, line or chunk."""


@attrs.frozen
class Malformed:
    """Bytes that are no message the reader expects; ``reason`` says why."""

    reason: str


@attrs.frozen
class TooLong:
    """A line going on past ``limit`` bytes (counted before its LF)."""

    limit: int


class ReceiveBuffer:
    """
    Bytes received and not read yet.

    ``limit`` (None: no limit) is how many bytes the owner lets a peer
    pile up while no message completes: L{overflowing} says when it is
    past; the buffer itself keeps everything it is given.
    """

    __slots__ = ("_data", "_searched", "limit")

    def __init__(self, data: bytes = b"", limit: int | None = None) -> None:
        self._data = bytearray(data)
        self._searched = 0
        self.limit = limit

    # -- filling ---------------------------------------------------------------

    def append(self, data: bytes | bytearray | memoryview) -> None:
        """Add bytes as they arrive."""
        self._data += data

    def __iadd__(self, data: bytes | bytearray | memoryview) -> ReceiveBuffer:
        self._data += data
        return self

    # -- looking ---------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._data)

    def __bool__(self) -> bool:
        return bool(self._data)

    def __bytes__(self) -> bytes:
        return bytes(self._data)

    def __repr__(self) -> str:
        return f"<ReceiveBuffer {bytes(self._data)!r}>"

    @property
    def overflowing(self) -> bool:
        """Whether more than ``limit`` bytes are waiting."""
        return self.limit is not None and len(self._data) > self.limit

    def peek(self, size: int | None = None) -> bytes:
        """The first ``size`` bytes (fewer if fewer are there; all when None), left in place."""
        data = self._data
        if size is None or size >= len(data):
            return bytes(data)
        return bytes(data[: max(size, 0)])

    # -- taking ----------------------------------------------------------------

    def discard(self, size: int) -> None:
        """Drop the first ``size`` bytes (all there are, if fewer)."""
        if size <= 0:
            return
        del self._data[:size]
        if self._searched:
            self._searched = max(self._searched - size, 0)

    def discardLine(self) -> bool:
        """
        Drop the first line with its LF and say True; with no LF yet, drop
        every byte held and say False (the line goes on in what comes next).
        A codec skipping an over-long line calls it until it says True.
        """
        end = self._data.find(b"\n", self._searched)
        if end < 0:
            del self._data[:]
            self._searched = 0
            return False
        self.discard(end + 1)
        self._searched = 0
        return True

    def extractExactly(self, size: int) -> bytes | NeedMore:
        """The first ``size`` bytes, taken out, or NEED_MORE (nothing is taken)."""
        if size < 0:
            raise ValueError(f"cannot extract {size} bytes")
        if len(self._data) < size:
            return NEED_MORE
        chunk = bytes(self._data[:size])
        self.discard(size)
        return chunk

    def extractLine(self, maxLength: int, crlf: bool = False) -> bytes | NeedMore | TooLong:
        """
        The first line, taken out without its LF (and without the CR of a
        CRLF when ``crlf`` is set), or NEED_MORE, or L{TooLong} when more
        than ``maxLength`` bytes come before the LF, whether it has come yet
        or not (the line is then left in place).
        """
        end = self._data.find(b"\n", self._searched)
        if end < 0:
            self._searched = len(self._data)
            if len(self._data) > maxLength:
                return TooLong(maxLength)
            return NEED_MORE
        if end > maxLength:
            self._searched = end
            return TooLong(maxLength)
        line = bytes(self._data[: end - 1 if crlf and end and self._data[end - 1] == 0x0D else end])
        self.discard(end + 1)
        self._searched = 0
        return line
