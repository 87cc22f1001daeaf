"""
The receive buffer every codec reads from: lines and chunks come out the
same however the stream is split, limits hold, and no bytes make it raise.
"""

from __future__ import annotations

import pickle

from hypothesis import given, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.buffer import NEED_MORE, Malformed, NeedMore, ReceiveBuffer, TooLong


def splits(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the given offsets (taken modulo its length, in order)."""
    points = sorted({c % (len(data) + 1) for c in cuts})
    chunks, at = [], 0
    for point in points + [len(data)]:
        chunks.append(data[at:point])
        at = point
    return chunks


def drainLines(buffer: ReceiveBuffer, maxLength: int, crlf: bool) -> tuple[list[bytes], bool]:
    """Every line the buffer holds now, and whether a TooLong stopped the reading."""
    lines: list[bytes] = []
    while True:
        line = buffer.extractLine(maxLength, crlf)
        if line is NEED_MORE:
            return lines, False
        if isinstance(line, TooLong):
            return lines, True
        assert isinstance(line, bytes)
        lines.append(line)


streams = st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"")),
                   max_size=8).map(lambda lines: b"\n".join(lines))
cuts = st.lists(st.integers(min_value=0, max_value=200), max_size=10)
bytesWithBreaks = st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\r\n", b"xyz", b"\x00"]),
                           max_size=40).map(b"".join)


class NeedMoreTests(SynchronousTestCase):
    def test_one(self) -> None:
        """NEED_MORE is one value, kept through a copy."""
        self.assertIs(NeedMore(), NEED_MORE)
        self.assertIs(pickle.loads(pickle.dumps(NEED_MORE)), NEED_MORE)
        self.assertEqual(repr(NEED_MORE), "NEED_MORE")

    def test_malformed(self) -> None:
        self.assertEqual(Malformed("x"), Malformed("x"))
        self.assertNotEqual(Malformed("x"), Malformed("y"))


class ReceiveBufferTests(SynchronousTestCase):
    def test_lines(self) -> None:
        buffer = ReceiveBuffer()
        buffer += b"one\r\ntw"
        self.assertEqual(buffer.extractLine(10), b"one\r")
        self.assertIs(buffer.extractLine(10), NEED_MORE)
        buffer.append(b"o\n\nthree")
        self.assertEqual(buffer.extractLine(10, crlf=True), b"two")
        self.assertEqual(buffer.extractLine(10, crlf=True), b"")
        self.assertIs(buffer.extractLine(10, crlf=True), NEED_MORE)
        self.assertEqual(bytes(buffer), b"three")

    def test_lineLimit(self) -> None:
        """A line is too long as soon as more than maxLength bytes wait without LF."""
        buffer = ReceiveBuffer()
        buffer += b"x" * 5
        self.assertIs(buffer.extractLine(5), NEED_MORE)
        buffer += b"x"
        self.assertEqual(buffer.extractLine(5), TooLong(5))
        self.assertEqual(len(buffer), 6)

    def test_lineLimitWithLF(self) -> None:
        buffer = ReceiveBuffer(b"xxxxxx\n")
        self.assertEqual(buffer.extractLine(5), TooLong(5))
        self.assertEqual(buffer.extractLine(6), b"xxxxxx")

    def test_discardLine(self) -> None:
        """discardLine drops up to and with the first LF; without one, all it holds."""
        buffer = ReceiveBuffer(b"x" * 8)
        self.assertEqual(buffer.extractLine(5), TooLong(5))
        self.assertFalse(buffer.discardLine())
        self.assertFalse(buffer)
        buffer += b"xx\r\nnext\nafter"
        self.assertTrue(buffer.discardLine())
        self.assertEqual(bytes(buffer), b"next\nafter")
        self.assertTrue(buffer.discardLine())
        self.assertEqual(bytes(buffer), b"after")
        self.assertEqual(buffer.extractLine(10), NEED_MORE)
        buffer += b"\n"
        self.assertEqual(buffer.extractLine(10), b"after")

    @given(bytesWithBreaks, cuts, st.integers(0, 12))
    def test_skipAnySplit(self, data: bytes, where: list[int], limit: int) -> None:
        """
        Skipping each over-long line with discardLine leaves the lines within
        the limit, whatever the splits: what splitting the whole on LF gives.
        """
        buffer, got, skipping = ReceiveBuffer(), [], False
        for chunk in splits(data, where):
            buffer += chunk
            while True:
                if skipping:
                    if not buffer.discardLine():
                        break
                    skipping = False
                line = buffer.extractLine(limit)
                if isinstance(line, TooLong):
                    skipping = True
                    continue
                if line is NEED_MORE:
                    break
                assert isinstance(line, bytes)
                got.append(line)
        *whole, rest = data.split(b"\n")
        self.assertEqual(got, [line for line in whole if len(line) <= limit])

    def test_exactly(self) -> None:
        buffer = ReceiveBuffer(b"abcdef")
        self.assertEqual(buffer.extractExactly(2), b"ab")
        self.assertEqual(buffer.peek(3), b"cde")
        self.assertEqual(buffer.peek(), b"cdef")
        self.assertIs(buffer.extractExactly(5), NEED_MORE)
        self.assertEqual(buffer.extractExactly(0), b"")
        self.assertEqual(buffer.extractExactly(4), b"cdef")
        self.assertFalse(buffer)
        self.assertRaises(ValueError, buffer.extractExactly, -1)

    def test_overflowing(self) -> None:
        buffer = ReceiveBuffer(limit=3)
        buffer += b"abc"
        self.assertFalse(buffer.overflowing)
        buffer += b"d"
        self.assertTrue(buffer.overflowing)
        buffer.discard(1)
        self.assertFalse(buffer.overflowing)
        self.assertFalse(ReceiveBuffer(b"x" * 100).overflowing)

    @given(streams, cuts, st.booleans())
    def test_linesAnySplit(self, data: bytes, where: list[int], crlf: bool) -> None:
        """However the stream is split, the same lines come out, in order."""
        pieces = data.split(b"\n")
        expected = [line[:-1] if crlf and line.endswith(b"\r") else line for line in pieces[:-1]]
        buffer = ReceiveBuffer()
        got: list[bytes] = []
        for chunk in splits(data, where):
            buffer += chunk
            lines, stopped = drainLines(buffer, 1000, crlf)
            self.assertFalse(stopped)
            got.extend(lines)
        self.assertEqual(got, expected)
        self.assertEqual(bytes(buffer), pieces[-1])

    @given(st.binary(max_size=200), cuts, st.lists(st.integers(0, 30), max_size=20))
    def test_chunksAnySplit(self, data: bytes, where: list[int], sizes: list[int]) -> None:
        """Chunks of known sizes come out the same however the stream is split."""
        expected, at = [], 0
        for size in sizes:
            if at + size > len(data):
                break
            expected.append(data[at : at + size])
            at += size
        buffer = ReceiveBuffer()
        got: list[bytes] = []
        pending = list(sizes[: len(expected)])
        for chunk in splits(data, where):
            buffer += chunk
            while pending:
                taken = buffer.extractExactly(pending[0])
                if taken is NEED_MORE:
                    break
                assert isinstance(taken, bytes)
                got.append(taken)
                pending.pop(0)
        self.assertEqual(got, expected)
        self.assertEqual(bytes(buffer), data[at:])

    @given(bytesWithBreaks, cuts, st.integers(0, 12), st.booleans())
    def test_lineLimitsEnforced(self, data: bytes, where: list[int], limit: int,
                                crlf: bool) -> None:
        """
        No line longer than the limit comes out, nothing is waiting past the
        limit without a TooLong, and no bytes make the buffer raise.
        """
        buffer = ReceiveBuffer()
        for chunk in splits(data, where):
            buffer += chunk
            line = buffer.extractLine(limit, crlf)
            while isinstance(line, bytes):
                self.assertLessEqual(len(line), limit)
                self.assertNotIn(b"\n", line)
                line = buffer.extractLine(limit, crlf)
            if isinstance(line, TooLong):
                self.assertEqual(line, TooLong(limit))
                self.assertGreater(len(bytes(buffer).split(b"\n", 1)[0]), limit)
                return
            self.assertIs(line, NEED_MORE)
            self.assertLessEqual(len(buffer), limit)
            self.assertNotIn(b"\n", bytes(buffer))

    @given(st.binary(max_size=100), st.integers(-5, 120), st.integers(0, 50))
    def test_neverRaises(self, data: bytes, size: int, limit: int) -> None:
        """Peeking, discarding and reading at any size are total."""
        buffer = ReceiveBuffer(data, limit=limit)
        self.assertEqual(buffer.overflowing, len(data) > limit)
        self.assertEqual(buffer.peek(size), data[: max(size, 0)])
        buffer.extractLine(limit)
        buffer.extractLine(limit, crlf=True)
        if size >= 0:
            taken = buffer.extractExactly(size)
            self.assertTrue(taken is NEED_MORE or len(taken) == size)  # type: ignore[arg-type]
        before = len(buffer)
        buffer.discard(size)
        self.assertEqual(len(buffer), max(before - max(size, 0), 0))
