"""The Protuissance 4 codec: exact bytes, round trips, totality."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from twisted.trial.unittest import SynchronousTestCase

from gameproto import buffer
from gameproto.connect4 import wire

nicks = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
                min_size=1, max_size=16)
bytes8 = st.integers(0, 255)

serverMessages = st.one_of(
    st.builds(wire.Init, bytes8, bytes8),
    st.builds(wire.GameStart, nicks, nicks),
    st.builds(wire.PlayMove, bytes8),
    st.builds(wire.GameEnd, st.sampled_from([0, 1, None])),
    st.builds(wire.Error, st.sampled_from(wire.ERROR_CODES)),
)
clientMessages = st.one_of(
    st.builds(wire.Connect, nicks.map(lambda n: n.encode("ascii"))),
    st.builds(wire.PlayMove, bytes8),
    st.builds(wire.JoinQueue),
)
kindSets = st.sets(st.sampled_from(sorted(wire.CLIENT_MESSAGES | wire.SERVER_MESSAGES,
                                          key=lambda k: k.__name__)))


class ExactBytesTests(SynchronousTestCase):
    """The bytes the document's grammar gives, message by message."""

    def test_connect(self) -> None:
        self.assertEqual(wire.serialize(wire.Connect(b"alice")), b"0alice\r\n")

    def test_init(self) -> None:
        self.assertEqual(wire.serialize(wire.Init(7, 6)), b"1\x07\x06\r\n")

    def test_gameStart(self) -> None:
        self.assertEqual(wire.serialize(wire.GameStart("bob", "alice")), b"2\x03bobalice\r\n")

    def test_playMove(self) -> None:
        self.assertEqual(wire.serialize(wire.PlayMove(3)), b"3\x03\r\n")

    def test_gameEnd(self) -> None:
        self.assertEqual(wire.serialize(wire.GameEnd(0)), b"40\r\n")
        self.assertEqual(wire.serialize(wire.GameEnd(1)), b"41\r\n")
        self.assertEqual(wire.serialize(wire.GameEnd(None)), b"4\r\n")

    def test_joinQueue(self) -> None:
        self.assertEqual(wire.serialize(wire.JoinQueue()), b"5\r\n")

    def test_errors(self) -> None:
        self.assertEqual(
            [wire.serialize(wire.Error(code)) for code in wire.ERROR_CODES],
            [b"7\r\n", b"8\r\n", b"9\r\n", b"10\r\n"],
        )

    def test_invalidValues(self) -> None:
        self.assertRaises(ValueError, wire.PlayMove, 256)
        self.assertRaises(ValueError, wire.Init, -1, 6)
        self.assertRaises(ValueError, wire.GameStart, "", "bob")
        self.assertRaises(ValueError, wire.GameStart, "a" * 17, "bob")
        self.assertRaises(ValueError, wire.GameStart, "al ice", "bob")
        self.assertRaises(ValueError, wire.Error, 6)
        self.assertRaises(ValueError, wire.GameEnd, 2)


class ParseTests(SynchronousTestCase):
    """Reading by type and length, never by CRLF."""

    def test_columnIsCRorLF(self) -> None:
        """A column of 10 or 13 is a raw 0x0A or 0x0D byte."""
        for column in (10, 13):
            data = wire.serialize(wire.PlayMove(column))
            self.assertEqual(wire.parse(data, wire.CLIENT_MESSAGES), (wire.PlayMove(column), 4))

    def test_timeoutOrInit(self) -> None:
        """'10' CRLF and an INIT whose width is 0x30 are told apart."""
        self.assertEqual(wire.parse(b"10\r\n", wire.SERVER_MESSAGES), (wire.Error(10), 4))
        self.assertEqual(wire.parse(b"10\r\r\n", wire.SERVER_MESSAGES), (wire.Init(0x30, 13), 5))
        self.assertIs(wire.parse(b"10\r", wire.SERVER_MESSAGES), wire.NEED_MORE)
        self.assertEqual(wire.parse(b"10\r\n", {wire.Error}), (wire.Error(10), 4))
        self.assertIsInstance(wire.parse(b"10\r\n", {wire.Init}), wire.Malformed)

    def test_gameStartLengthByte(self) -> None:
        """The length byte may be 0x0D (13) or 0x0A (10)."""
        message = wire.GameStart("a" * 13, "b" * 10)
        data = wire.serialize(message)
        self.assertEqual(data[1], 13)
        self.assertEqual(wire.parse(data, wire.SERVER_MESSAGES), (message, len(data)))

    def test_expectedOnly(self) -> None:
        """A well-formed message of a kind not expected now is refused."""
        result = wire.parse(b"5\r\n", {wire.PlayMove})
        self.assertEqual(result, wire.Malformed("unexpected message (JoinQueue)"))

    def test_unknownType(self) -> None:
        self.assertEqual(wire.parse(b"6\r\n", wire.CLIENT_MESSAGES),
                         wire.Malformed("unknown message type byte b'6'"))

    def test_badEnding(self) -> None:
        self.assertIsInstance(wire.parse(b"3\x01\r\r", wire.CLIENT_MESSAGES), wire.Malformed)
        self.assertIsInstance(wire.parse(b"5\n", wire.CLIENT_MESSAGES), wire.Malformed)

    def test_connectKeepsRawNick(self) -> None:
        """CONNECT carries whatever precedes CRLF; the server judges it."""
        self.assertEqual(wire.parse(b"0a b!\r\n", wire.CLIENT_MESSAGES),
                         (wire.Connect(b"a b!"), 7))

    def test_connectTooLong(self) -> None:
        """Past 256 bytes without CRLF, a CONNECT is L{wire.NickTooLong}, a Malformed."""
        parser = wire.Parser()
        parser.feed(b"0" + b"a" * (wire.CONNECT_NICK_LIMIT + 10))
        message = parser.next(wire.CLIENT_MESSAGES)
        self.assertIsInstance(message, wire.Malformed)
        self.assertEqual(message, wire.NickTooLong())
        self.assertEqual(wire.NickTooLong().reason, "CONNECT longer than 256 bytes")

    def test_connectTooLongByteByByte(self) -> None:
        """Told as soon as the 258th byte after the type digit shows no CRLF."""
        parser = wire.Parser()
        parser.feed(b"0")
        for _ in range(wire.CONNECT_NICK_LIMIT + 1):
            parser.feed(b"a")
            self.assertIs(parser.next(wire.CLIENT_MESSAGES), wire.NEED_MORE)
        parser.feed(b"a")
        self.assertEqual(parser.next(wire.CLIENT_MESSAGES), wire.NickTooLong())

    def test_connectTooLongWithItsCRLF(self) -> None:
        """257 bytes then CRLF (one WebSocket message, say): too long too."""
        data = b"0" + b"a" * (wire.CONNECT_NICK_LIMIT + 1) + b"\r\n"
        self.assertEqual(wire.parse(data, wire.CLIENT_MESSAGES), wire.NickTooLong())
        self.assertEqual(wire.parseOne(data, wire.CLIENT_MESSAGES), wire.NickTooLong())

    def test_otherTooLong(self) -> None:
        """Only a CONNECT expected now is NickTooLong: elsewhere a long one is unexpected."""
        message = wire.parse(b"0" + b"a" * 300, {wire.PlayMove})
        self.assertEqual(message, wire.Malformed("unexpected message (Connect)"))
        self.assertNotIsInstance(message, wire.NickTooLong)

    def test_connectAtLimit(self) -> None:
        parser = wire.Parser()
        parser.feed(b"0" + b"a" * wire.CONNECT_NICK_LIMIT + b"\r\n")
        self.assertEqual(parser.next(wire.CLIENT_MESSAGES),
                         wire.Connect(b"a" * wire.CONNECT_NICK_LIMIT))

    def test_parseOne(self) -> None:
        self.assertEqual(wire.parseOne(b"5\r\n", wire.CLIENT_MESSAGES), wire.JoinQueue())
        self.assertEqual(wire.parseOne(b"5\r\n5\r\n", wire.CLIENT_MESSAGES),
                         wire.Malformed("bytes after the message"))
        self.assertEqual(wire.parseOne(b"3", wire.CLIENT_MESSAGES),
                         wire.Malformed("incomplete message"))


class NickTests(SynchronousTestCase):
    """The server's reading of a CONNECT nick."""

    def test_valid(self) -> None:
        self.assertEqual(wire.acceptNick(b"Al_ice-42"), "Al_ice-42")

    def test_truncated(self) -> None:
        """Longer than 16: cut to 16, no error."""
        self.assertEqual(wire.acceptNick(b"abcdefghijklmnopqrstuvwxyz"), "abcdefghijklmnop")

    def test_truncatedBeforeJudging(self) -> None:
        """Only the 16 kept characters must be valid."""
        self.assertEqual(wire.acceptNick(b"abcdefghijklmnop!!!"), "abcdefghijklmnop")

    def test_invalid(self) -> None:
        for raw in (b"", b"a b", b"\xc3\xa9t\xc3\xa9", b"a\rb", b"a.b"):
            self.assertIsNone(wire.acceptNick(raw), raw)

    def test_keptCharactersJudged(self) -> None:
        """A bad character among the 16 kept refuses the nick, however long it is."""
        for raw in (b"abcdefghijklmno!", b"abcdefghijklmno!pq", b"!" + b"a" * 40,
                    b"abcdefghijklmno\xff" + b"a" * 10):
            self.assertIsNone(wire.acceptNick(raw), raw)

    def test_cutAtSixteenOnly(self) -> None:
        """Not at 32 (the document's server section): a kept nick is always 1 to 16."""
        self.assertEqual(wire.acceptNick(b"a" * 16), "a" * 16)
        self.assertEqual(wire.acceptNick(b"a" * 17), "a" * 16)
        self.assertEqual(wire.acceptNick(b"b" * 32), "b" * 16)
        self.assertEqual(wire.acceptNick(b"c" * wire.CONNECT_NICK_LIMIT), "c" * 16)


class PropertyTests(SynchronousTestCase):
    """Round trips and totality."""

    @given(serverMessages)
    def test_serverRoundTrip(self, message: wire.Message) -> None:
        data = wire.serialize(message)
        self.assertEqual(wire.parse(data, wire.SERVER_MESSAGES), (message, len(data)))
        self.assertEqual(wire.parseOne(data, wire.SERVER_MESSAGES), message)

    @given(clientMessages)
    def test_clientRoundTrip(self, message: wire.Message) -> None:
        data = wire.serialize(message)
        self.assertEqual(wire.parse(data, wire.CLIENT_MESSAGES), (message, len(data)))

    @given(st.lists(serverMessages, max_size=20), st.data())
    def test_streamInPieces(self, messages: list[wire.Message], data: st.DataObject) -> None:
        """Any split of a stream of messages gives back the same messages."""
        stream = b"".join(wire.serialize(m) for m in messages)
        cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
        parser = wire.Parser()
        received: list[wire.Message] = []
        last = 0
        for cut in cuts + [len(stream)]:
            parser.feed(stream[last:cut])
            last = cut
            while True:
                result = parser.next(wire.SERVER_MESSAGES)
                if result is wire.NEED_MORE:
                    break
                self.assertNotIsInstance(result, wire.Malformed)
                received.append(result)  # type: ignore[arg-type]
        self.assertEqual(received, messages)
        self.assertEqual(parser.buffered, 0)

    @settings(max_examples=500)
    @given(st.binary(max_size=400), kindSets)
    def test_totalOnArbitraryBytes(self, data: bytes, expected: set[wire.MessageClass]) -> None:
        """Any bytes give a message, NEED_MORE or Malformed; never an exception."""
        parser = wire.Parser()
        parser.feed(data)
        for _ in range(len(data) + 1):
            result = parser.next(expected)
            if result is wire.NEED_MORE:
                self.assertLessEqual(parser.buffered, wire.MAX_MESSAGE)
                break
            if isinstance(result, wire.Malformed):
                break
            self.assertIn(type(result), expected)
        result = wire.parseOne(data, expected)
        self.assertIsInstance(result, tuple(expected) + (wire.Malformed,))

    def test_sharedValues(self) -> None:
        """NEED_MORE and Malformed are the receive buffer's, the same for every codec."""
        self.assertIs(wire.NEED_MORE, buffer.NEED_MORE)
        self.assertIs(wire.Malformed, buffer.Malformed)

    @given(st.binary(max_size=300))
    def test_acceptNickTotal(self, raw: bytes) -> None:
        nick = wire.acceptNick(raw)
        if nick is not None:
            self.assertTrue(wire.isValidNick(nick))
            self.assertEqual(raw[:16], nick.encode("ascii"))
            wire.GameStart(nick, nick)  # grammatical wherever it is sent
        else:
            self.assertFalse(wire.isValidNick(raw[:16].decode("latin-1")))


class SharedMessageTests(SynchronousTestCase):
    """
    The messages made once (PLAY_MOVE of each column, GAME_END, the errors)
    and the reader's shortcut for PLAY_MOVE give what the plain code gives.
    """

    @given(st.one_of(serverMessages, clientMessages))
    def test_sameBytesAsFromFields(self, message: wire.Message) -> None:
        self.assertEqual(wire.serialize(message), wire._encode(message))

    def test_sharedAreTheMessagesTheyName(self) -> None:
        self.assertEqual(wire.PLAY_MOVES, tuple(wire.PlayMove(c) for c in range(256)))
        self.assertEqual(wire.GAME_ENDS, {w: wire.GameEnd(w) for w in (0, 1, None)})
        self.assertEqual(wire.ERRORS, {c: wire.Error(c) for c in wire.ERROR_CODES})

    @given(st.binary(max_size=12), kindSets)
    def test_shortcutAnswersAsParse(self, data: bytes, expected: set[wire.MessageClass]) -> None:
        """Whatever the bytes, Parser.next answers what parse() answers for them."""
        parser = wire.Parser()
        parser.feed(data)
        plain = wire.parse(data, expected)
        result = parser.next(expected)
        if isinstance(plain, tuple):
            self.assertEqual(result, plain[0])
            self.assertEqual(parser.buffered, len(data) - plain[1])
        else:
            self.assertEqual(result, plain)

    @given(bytes8, st.binary(max_size=8))
    def test_playMoveThenMore(self, column: int, rest: bytes) -> None:
        """A PLAY_MOVE (its column byte may be CR or LF) read whole, the rest left."""
        parser = wire.Parser()
        parser.feed(wire.serialize(wire.PlayMove(column)) + rest)
        self.assertIs(parser.next(wire.CLIENT_MESSAGES), wire.PLAY_MOVES[column])
        self.assertEqual(parser.buffered, len(rest))
