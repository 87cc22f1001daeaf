"""The Carcassonne 1.71 codec: the document's bytes, round trips, totality."""

from __future__ import annotations

from hypothesis import given, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto.carcassonne import wire
from gameproto.carcassonne.wire import Malformed

ints = st.integers(0, wire.INT_MAX)

messages = st.one_of(
    st.builds(wire.Hello, ints), st.builds(wire.HelloAck, ints), st.just(wire.HelloNack()),
    st.builds(wire.Close, ints), st.builds(wire.Ready, ints), st.just(wire.Start()),
    st.builds(wire.Token, ints), st.just(wire.MoveAck()), st.just(wire.MoveNack()),
    st.builds(wire.Finish, ints), st.just(wire.Noop()),
    st.builds(wire.Move, ints, st.sampled_from(wire.TILES), ints, ints,
              st.sampled_from(wire.ORIENTATIONS), st.none() | st.sampled_from(wire.ZONES),
              ints),
)


class DocumentTests(SynchronousTestCase):
    def test_example(self) -> None:
        """The document's example MOVE, byte for byte."""
        line = b"MOVE 1 (tile-x) 5 12 (W) (SR) 1541"
        move = wire.Move(1, "tile-x", 5, 12, "W", "SR", 1541)
        self.assertEqual(wire.parse(line), move)
        self.assertEqual(wire.format(move), line + b"\n")

    def test_noPawn(self) -> None:
        """No pawn is written ``()``; ``()`` and ``(null)`` read as no pawn."""
        move = wire.Move(2, "tile-d", 72, 73, "N", None, 9)
        self.assertEqual(wire.format(move), b"MOVE 2 (tile-d) 72 73 (N) () 9\n")
        self.assertEqual(wire.parse(b"MOVE 2 (tile-d) 72 73 (N) (null) 9"), move)

    def test_simple(self) -> None:
        self.assertEqual(wire.format(wire.HelloNack()), b"HELLONACK\n")
        self.assertEqual(wire.format(wire.Hello(3)), b"HELLO 3\n")
        self.assertEqual(wire.format(wire.Token(77)), b"TOKEN 77\n")
        self.assertEqual(wire.format(wire.Finish(0)), b"FINISH 0\n")
        self.assertEqual(wire.parse(b"READY 0"), wire.Ready(0))
        self.assertEqual(wire.parse(b"READY"), wire.Ready())
        self.assertEqual(wire.parse(b"MOVEACK\r"), wire.MoveAck())

    def test_moveWithoutN(self) -> None:
        """A client's MOVE may leave its ``n`` out, as every client message may."""
        self.assertEqual(wire.parse(b"MOVE (tile-u) 71 72 (N) (null) 55\r"),
                         wire.Move(0, "tile-u", 71, 72, "N", None, 55))
        self.assertIsInstance(wire.parse(b"MOVE (tile-u) 71 72 (N) (null)"), Malformed)

    def test_malformed(self) -> None:
        for line in [b"", b"hello 1", b"HELLO  1", b"HELLO 1 ", b"HELLO -1", b"HELLO (1)",
                     b"FOO", b"START 1", b"TOKEN", b"MOVE 1 (tile-y) 5 12 (W) (SR) 1",
                     b"MOVE 1 (tile-x) 5 12 (Q) (SR) 1", b"MOVE 1 (tile-x) 5 12 (W) (ZZ) 1",
                     b"MOVE 1 (tile-x) 5 12 (W) (SR", b"MOVE 1 (tile-x) 5 (W) (SR) 1",
                     b"HELLO 99999999999", b"(x\\", b"\xff"]:
            self.assertIsInstance(wire.parse(line), Malformed, line)

    def test_escapes(self) -> None:
        """A backslash escapes the next byte in a string."""
        self.assertEqual(wire.parse(b"MOVE 1 (tile\\-a) 0 0 (\\N) (\\)) 1"), Malformed("unknown pawn zone"))
        self.assertEqual(wire.parse(b"MOVE 1 (tile\\-a) 0 0 (\\N) (C) 1"),
                         wire.Move(1, "tile-a", 0, 0, "N", "C", 1))
        self.assertEqual(wire._string("a(b)c\\"), b"(a\\(b\\)c\\\\)")


class ReaderTests(SynchronousTestCase):
    def test_split(self) -> None:
        reader = wire.Reader()
        self.assertEqual(reader.feed(b"HELLO 1\r\nREA"), [wire.Hello(1)])
        self.assertEqual(reader.feed(b"DY 1\n"), [wire.Ready(1)])

    def test_oneCR(self) -> None:
        """One CR before the LF is ignored; a second one is not, whether the read is whole or not."""
        for chunks in ([b"READY 0\r\r\n", b"READY 0\r\n"], [b"READY 0\r\r\nREADY 0\r\n"],
                       [b"READY 0\r", b"\r\nREADY 0\r\n"]):
            reader = wire.Reader()
            out = [message for chunk in chunks for message in reader.feed(chunk)]
            self.assertEqual([type(m) for m in out], [Malformed, wire.Ready], chunks)

    def test_tooLong(self) -> None:
        """A long line is one Malformed, skipped to its LF; the next line reads."""
        reader = wire.Reader()
        out = reader.feed(b"HELLO " + b"1" * 300)
        self.assertEqual(out, [Malformed("line too long")])
        self.assertEqual(reader.feed(b"1" * 300), [])
        self.assertEqual(reader.feed(b"11\nMOVEACK\n"), [wire.MoveAck()])
        self.assertEqual(reader.buffered, 0)

    def test_tooLongThenMore(self) -> None:
        """The skipped line's LF and what follows it in the same bytes are kept apart."""
        reader = wire.Reader()
        out = reader.feed(b"X" * 300 + b"\r\nREADY 1\n" + b"Y" * 300 + b"\nMOVEACK\nHEL")
        self.assertEqual(out, [Malformed("line too long"), wire.Ready(1),
                               Malformed("line too long"), wire.MoveAck()])
        self.assertEqual(reader.buffered, 3)


class PropertyTests(SynchronousTestCase):
    @given(messages)
    def test_roundTrip(self, message: wire.Message) -> None:
        line = wire.format(message)
        self.assertTrue(line.endswith(b"\n"))
        self.assertEqual(wire.parse(line[:-1]), message)

    @given(st.lists(messages, max_size=8), st.integers(1, 40))
    def test_chunks(self, sent: list[wire.Message], size: int) -> None:
        data = b"".join(wire.format(m) for m in sent)
        reader = wire.Reader()
        got: list[object] = []
        for i in range(0, len(data), size):
            got += reader.feed(data[i:i + size])
        self.assertEqual(got, sent)

    @given(st.binary(max_size=300))
    def test_total(self, data: bytes) -> None:
        """Any bytes give messages or Malformed values, never an exception."""
        for item in wire.Reader().feed(data + b"\n"):
            self.assertIsInstance(item, (Malformed, *wire.Message.__args__))  # type: ignore[attr-defined]

    @given(st.text(max_size=20))
    def test_stringRoundTrip(self, text: str) -> None:
        atoms = wire._atoms(b"X " + wire._string(text))
        self.assertEqual(atoms, ["X", wire._Str(text)])


def _plainFormat(message: wire.Move) -> bytes:
    """A MOVE's line written atom by atom."""
    return b" ".join((
        b"MOVE", b"%d" % message.n, wire._string(message.tile), b"%d" % message.x,
        b"%d" % message.y, wire._string(message.orientation), wire._string(message.pawn or ""),
        b"%d" % message.token)) + b"\n"


numerals = st.one_of(ints.map(lambda n: b"%d" % n), st.from_regex(rb"\A[0-9]{0,12}\Z"),
                     st.binary(max_size=3))
strings = st.one_of(st.sampled_from([*wire.TILES, *wire.ORIENTATIONS, *wire.ZONES, "", "null"]),
                    st.text(max_size=6)).map(lambda t: t.encode()) | st.binary(max_size=6)
moveLines = st.builds(
    lambda parts, cr: b"MOVE %s (%s) %s %s (%s) (%s) %s" % tuple(parts) + cr,
    st.tuples(numerals, strings, numerals, numerals, strings, strings, numerals),
    st.sampled_from([b"", b"\r", b" ", b"\r\r"]))
bareLines = st.builds(lambda name, tail: name.encode() + tail,
                      st.sampled_from([*wire._BARE, *wire._NUMBERED, "TOKEN", "MOVE", "MOVEACKS"]),
                      st.sampled_from([b"", b"\r", b" ", b" 1", b" 01"]))


class FastPathTests(SynchronousTestCase):
    """The codec's shortcuts for a game's usual lines give what the atom-by-atom way gives."""

    @given(st.one_of(moveLines, bareLines, st.binary(max_size=80)))
    def test_parse(self, line: bytes) -> None:
        plain = line[:-1] if line.endswith(b"\r") else line
        self.assertEqual(wire.parse(line), wire._parseAtoms(plain))

    def test_shortcutsTaken(self) -> None:
        """The usual MOVE and MOVEACK lines never go atom by atom."""
        calls: list[bytes] = []
        self.patch(wire, "_parseAtoms", calls.append)
        self.assertEqual(wire.parse(b"MOVEACK"), wire.MoveAck())
        self.assertEqual(wire.parse(b"MOVE 2 (tile-u) 72 73 (E) () 1234\r"),
                         wire.Move(2, "tile-u", 72, 73, "E", None, 1234))
        self.assertEqual(calls, [])

    def test_usualMoveMadeAtOnce(self) -> None:
        """A MOVE of known names is made without its atoms (not checked again one by one)."""
        self.patch(wire, "_move", lambda args: self.fail(f"read atom by atom: {args}"))
        self.assertEqual(wire.parse(b"MOVE 1 (tile-x) 5 12 (W) (SR) 1541"),
                         wire.Move(1, "tile-x", 5, 12, "W", "SR", 1541))
        self.assertEqual(wire.parse(b"MOVE 3 (tile-a) 0 2147483647 (N) (null) 0\r"),
                         wire.Move(3, "tile-a", 0, wire.INT_MAX, "N", None, 0))

    @given(st.builds(wire.Move, ints, st.sampled_from(wire.TILES) | st.text(max_size=6), ints,
                     ints, st.sampled_from(wire.ORIENTATIONS) | st.text(max_size=3),
                     st.none() | st.sampled_from(wire.ZONES) | st.text(max_size=3), ints))
    def test_format(self, message: wire.Move) -> None:
        self.assertEqual(wire.format(message), _plainFormat(message))

    @given(st.integers(1, 40),
           st.lists(st.lists(st.sampled_from([b"\n", b"\r", b"\r\n", b"MOVEACK", b"NOOP",
                                              b"MOVE 1 (tile-u) 72 73 (E) () 9", b" ", b"x"]),
                             max_size=6).map(b"".join), max_size=8))
    def test_readerOneLine(self, limit: int, chunks: list[bytes]) -> None:
        """
        A read of one whole line into an empty reader gives what the buffer
        gives (the line's limit, CRs, what is held or skipped, and after).
        """
        fast, plain = wire.Reader(limit), wire.Reader(limit)
        for chunk in chunks:
            plain._buffer += chunk
            self.assertEqual(fast.feed(chunk), list(plain._messages()))
            self.assertEqual((fast.buffered, fast._skipping), (plain.buffered, plain._skipping))

    def test_readerShortcutTaken(self) -> None:
        """A read of one line is not put in the buffer."""
        reader = wire.Reader()
        self.patch(reader, "_messages", lambda: iter(()))
        self.assertEqual(reader.feed(b"MOVEACK\r\n"), [wire.MoveAck()])
        self.assertEqual(reader.feed(b"NOOP\n"), [wire.Noop()])
        self.assertEqual(reader.buffered, 0)
