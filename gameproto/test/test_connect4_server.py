"""
The Protuissance 4 server, one connection at a time: StringTransports, a
Clock, and the exact bytes the document gives.
"""

from __future__ import annotations

import random
from typing import Any, cast

from hypothesis import given, settings, strategies as st
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.logger import ILogObserver, LogEvent, globalLogPublisher
from twisted.trial.unittest import SynchronousTestCase

from gameproto.connect4 import wire
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.engine.contract import GameEngine
from gameproto.engine.hub import Hub
from gameproto.engine.record import MemoryRecordStore, replay
from gameproto.games.connect4 import ENGINE, Board, Connect4Game
from gameproto.net import Limits

from .connect4_helpers import Client, Harness


def engineBoard(engine: GameEngine) -> Board:
    """The board of a Connect Four game."""
    assert isinstance(engine, Connect4Game), engine
    return engine.board


INIT = b"1\x07\x06\r\n"
ERR_NICK, ERR_USED, ERR_COLUMN, ERR_TIMEOUT = b"7\r\n", b"8\r\n", b"9\r\n", b"10\r\n"


def move(column: int) -> bytes:
    return b"3" + bytes((column,)) + b"\r\n"


class LogCapture:
    """Collect log events for the duration of a test."""

    def __init__(self, test: SynchronousTestCase) -> None:
        self.events: list[LogEvent] = []
        observer = cast(ILogObserver, self.events.append)
        globalLogPublisher.addObserver(observer)
        test.addCleanup(globalLogPublisher.removeObserver, observer)

    def lines(self, containing: str) -> list[str]:
        from twisted.logger import formatEvent

        return [formatEvent(e) for e in self.events if containing in formatEvent(e)]

    @property
    def failures(self) -> list[LogEvent]:
        return [e for e in self.events if "log_failure" in e]


class ConnectTests(SynchronousTestCase):
    """Connexion: CONNECT, INIT, the nick rules, the connect timeout."""

    def test_init(self) -> None:
        """A valid nick gets INIT with the board size and a place in the queue."""
        harness = Harness()
        client = harness.connect(b"alice")
        self.assertEqual(client.received(), INIT)
        self.assertEqual(client.state(), "queued")
        self.assertEqual(harness.server.queue.waiting, [client.protocol.player])

    def test_initBoardSize(self) -> None:
        harness = Harness(width=13, height=10)
        self.assertEqual(harness.connect(b"alice").received(), b"1\x0d\x0a\r\n")

    def test_invalidNick(self) -> None:
        """ERR_INVALID_NICK, and the client may try again."""
        harness = Harness()
        client = harness.connect(b"al ice")
        self.assertEqual(client.received(), ERR_NICK)
        self.assertFalse(client.closed)
        client.send(b"0\r\n")
        self.assertEqual(client.received(), ERR_NICK)
        client.send(b"0alice\r\n")
        self.assertEqual(client.received(), INIT)

    def test_usedNick(self) -> None:
        harness = Harness()
        harness.connect(b"alice")
        other = harness.connect(b"alice")
        self.assertEqual(other.received(), ERR_USED)
        self.assertFalse(other.closed)

    def test_nickFreedOnDisconnect(self) -> None:
        harness = Harness()
        first = harness.connect(b"alice")
        first.hangUp()
        self.assertEqual(harness.connect(b"alice").received(), INIT)

    def test_longNickTruncated(self) -> None:
        """A nick over 16 characters is cut to 16, without error."""
        harness = Harness()
        client = harness.connect(b"abcdefghijklmnopqrstuvwxyz")
        self.assertEqual(client.received(), INIT)
        self.assertEqual(client.protocol.player.nick, "abcdefghijklmnop")
        other = harness.connect(b"abcdefghijklmnopZZZ")
        self.assertEqual(other.received(), ERR_USED)

    def test_connectTimeout(self) -> None:
        harness = Harness(connectTimeout=10)
        client = harness.connect()
        harness.clock.advance(9.9)
        self.assertFalse(client.closed)
        harness.clock.advance(0.1)
        self.assertEqual(client.received(), ERR_TIMEOUT)
        self.assertTrue(client.closed)

    def test_connectTimeoutCoversRetries(self) -> None:
        """Refused nicks do not restart the connect timer."""
        harness = Harness(connectTimeout=10)
        client = harness.connect(b"!")
        harness.clock.advance(9)
        client.send(b"0?\r\n")
        harness.clock.advance(1)
        self.assertEqual(client.received(), ERR_NICK + ERR_NICK + ERR_TIMEOUT)
        self.assertTrue(client.closed)

    def test_noTimeoutOnceConnected(self) -> None:
        harness = Harness(connectTimeout=10)
        client = harness.connect(b"alice")
        harness.clock.advance(1000)
        self.assertEqual(client.received(), INIT)
        self.assertFalse(client.closed)


class BadInputTests(SynchronousTestCase):
    """Out of sequence or malformed: one log line, a clean close, no traceback."""

    def assertDropped(self, data: bytes, nick: bytes | None = b"alice",
                      reason: str = "", answer: bytes = b"") -> None:
        """``data`` gets ``answer`` (nothing, or the document's error) then the close."""
        logs = LogCapture(self)
        harness = Harness()
        client = harness.connect(nick)
        client.received()
        client.send(data)
        self.assertTrue(client.closed)
        self.assertEqual(client.received(), answer)
        closing = logs.lines("closing")
        self.assertEqual(len(closing), 1, closing)
        self.assertIn(reason, closing[0])
        self.assertEqual(logs.failures, [])

    def test_unknownType(self) -> None:
        self.assertDropped(b"6\r\n", reason="unknown message type")

    def test_serverMessageFromClient(self) -> None:
        self.assertDropped(b"40\r\n", reason="unexpected message (GameEnd)")

    def test_badEnding(self) -> None:
        self.assertDropped(b"5\n\r", reason="malformed")

    def test_oldQuit(self) -> None:
        """The old QUIT (``"6" CRLF``) is no message of the document: the close, no error."""
        self.assertDropped(b"6\r\n", reason="unknown message type byte b'6'")

    def test_moveBeforeConnect(self) -> None:
        """No board yet, so no column exists: ERR_INVALID_COLUMN, then the close."""
        self.assertDropped(move(0), nick=None, reason="unexpected PLAY_MOVE",
                           answer=ERR_COLUMN)

    def test_joinBeforeConnect(self) -> None:
        self.assertDropped(b"5\r\n", nick=None, reason="unexpected JOIN_QUEUE")

    def test_connectTwice(self) -> None:
        self.assertDropped(b"0bob\r\n", reason="unexpected CONNECT")

    def test_moveWhileQueued(self) -> None:
        self.assertDropped(move(0), reason="unexpected PLAY_MOVE", answer=ERR_COLUMN)

    def test_hugeConnect(self) -> None:
        """A CONNECT past 256 bytes gets ERR_INVALID_NICK, then the close."""
        self.assertDropped(b"0" + b"a" * 100000, nick=None,
                           reason="CONNECT longer than 256 bytes", answer=ERR_NICK)

    def test_connectJustOverTheLimit(self) -> None:
        """256 bytes of nick are read (and cut); 257, with their CRLF, are refused."""
        self.assertDropped(b"0" + b"a" * 257 + b"\r\n", nick=None,
                           reason="CONNECT longer than 256 bytes", answer=ERR_NICK)
        harness = Harness()
        client = harness.connect(b"b" * 256)
        self.assertEqual(client.received(), INIT)
        self.assertEqual(client.protocol.player.nick, "b" * 16)

    def test_hugeConnectOnceConnected(self) -> None:
        """A long CONNECT once the nick is accepted is a CONNECT out of sequence."""
        self.assertDropped(b"0" + b"a" * 300, reason="unexpected CONNECT")

    def test_droppedLeavesQueueAtOnce(self) -> None:
        """A connection closed for a fault is out of the queue before its close completes."""
        harness = Harness()
        client = harness.connect(b"alice")
        client.protocol.dataReceived(b"0again\r\n")
        self.assertTrue(client.closed)
        self.assertEqual(len(harness.server.queue), 0)
        self.assertEqual(harness.server.nicks, {})
        other = harness.connect(b"bob")
        self.assertEqual(other.received(), INIT)
        self.assertEqual(len(harness.server.queue), 1)

    def test_joinWhileQueuedIgnored(self) -> None:
        harness = Harness()
        client = harness.connect(b"alice")
        client.received()
        client.send(b"5\r\n5\r\n")
        self.assertFalse(client.closed)
        self.assertEqual(client.received(), b"")
        self.assertEqual(len(harness.server.queue), 1)

    def test_pipelined(self) -> None:
        """Several messages in one segment, or one message in many, read the same."""
        harness = Harness()
        client = harness.connect()
        for byte in b"0alice\r\n5\r\n":
            client.send(bytes((byte,)))
        self.assertEqual(client.received(), INIT)
        self.assertFalse(client.closed)


class GameTests(SynchronousTestCase):
    """GAME_START, moves, errors and the end of a game."""

    def test_gameStart(self) -> None:
        """Both players get the same GAME_START; the order comes from the server's rng."""
        seen = set()
        for seed in range(8):
            harness = Harness(seed)
            alice, bob = harness.connect(b"alice"), harness.connect(b"bob")
            a, b = alice.received(), bob.received()
            self.assertEqual(a[:5], INIT)
            self.assertEqual(a[5:], b[5:])
            self.assertIn(a[5:], (b"2\x05alicebob\r\n", b"2\x03bobalice\r\n"))
            seen.add(a[5:])
        self.assertEqual(len(seen), 2)

    def test_moveRelayed(self) -> None:
        """The opponent gets each valid move; the mover gets nothing back."""
        harness = Harness()
        first, second = harness.game()
        first.send(move(3))
        self.assertEqual(first.received(), b"")
        self.assertEqual(second.received(), move(3))
        second.send(move(13 % 7))
        self.assertEqual(first.received(), move(6))

    def test_columnsTenAndThirteen(self) -> None:
        """Columns whose byte is LF or CR go through."""
        harness = Harness(width=14)
        first, second = harness.game()
        first.send(move(10))
        second.send(move(13))
        self.assertEqual(second.received(), move(10))
        self.assertEqual(first.received(), move(13))

    def test_win(self) -> None:
        harness = Harness()
        first, second = harness.game()
        for column in (0, 1, 0, 1, 0, 1):
            (first if column == 0 else second).send(move(column))
        first.received(), second.received()
        first.send(move(0))
        self.assertEqual(first.received(), b"40\r\n")
        self.assertEqual(second.received(), move(0) + b"40\r\n")
        self.assertEqual(first.state(), "choosing")

    def test_secondPlayerWins(self) -> None:
        harness = Harness()
        first, second = harness.game()
        for column in (0, 1, 2, 1, 3, 1, 0):
            (first if column != 1 else second).send(move(column))
        first.received(), second.received()
        second.send(move(1))
        self.assertEqual(first.received(), move(1) + b"41\r\n")
        self.assertEqual(second.received(), b"41\r\n")

    def test_draw(self) -> None:
        """A full board without four in a row: GAME_END without an index."""
        columns = drawnGame()
        harness = Harness()
        first, second = harness.game()
        players = (first, second)
        for index, column in enumerate(columns):
            players[index % 2].send(move(column))
        self.assertTrue(first.received().endswith(b"4\r\n"))
        self.assertTrue(second.received().endswith(b"4\r\n"))

    def test_invalidThenValid(self) -> None:
        """ERR_INVALID_COLUMN, then a valid resend within a second is played."""
        harness = Harness()
        first, second = harness.game()
        first.send(move(7))
        self.assertEqual(first.received(), ERR_COLUMN)
        self.assertEqual(second.received(), b"")
        harness.clock.advance(0.9)
        first.send(move(2))
        self.assertEqual(second.received(), move(2))
        self.assertFalse(first.closed)

    def test_fullColumnInvalid(self) -> None:
        harness = Harness()
        first, second = harness.game()
        for index in range(6):
            (first, second)[index % 2].send(move(0))
        first.received(), second.received()
        first.send(move(0))
        self.assertEqual(first.received(), ERR_COLUMN)

    def test_invalidTwice(self) -> None:
        """A second invalid column on the same turn: the error, a close, and the opponent wins."""
        harness = Harness()
        first, second = harness.game()
        first.send(move(7))
        first.send(move(200))
        self.assertEqual(first.received(), ERR_COLUMN + ERR_COLUMN)
        self.assertTrue(first.closed)
        self.assertEqual(second.received(), b"41\r\n")

    def test_invalidOnDifferentTurns(self) -> None:
        """One invalid column per turn is allowed, turn after turn."""
        harness = Harness()
        first, second = harness.game()
        first.send(move(9) + move(0))
        second.send(move(9) + move(0))
        first.send(move(9) + move(1))
        self.assertEqual(first.received(), ERR_COLUMN + move(0) + ERR_COLUMN)
        self.assertFalse(first.closed)
        self.assertEqual(second.received(), move(0) + ERR_COLUMN + move(1))

    def test_resendTimeout(self) -> None:
        """After ERR_INVALID_COLUMN the player has one second."""
        harness = Harness()
        first, second = harness.game()
        first.send(move(9))
        harness.clock.advance(0.99)
        self.assertFalse(first.closed)
        harness.clock.advance(0.01)
        self.assertEqual(first.received(), ERR_COLUMN + ERR_TIMEOUT)
        self.assertTrue(first.closed)
        self.assertEqual(second.received(), b"41\r\n")

    def test_firstMoveTimeout(self) -> None:
        """The first move has timeout + 1 seconds."""
        harness = Harness(timeout=3)
        first, second = harness.game()
        harness.clock.advance(3.99)
        self.assertFalse(first.closed)
        harness.clock.advance(0.01)
        self.assertEqual(first.received(), ERR_TIMEOUT)
        self.assertTrue(first.closed)
        self.assertEqual(second.received(), b"41\r\n")

    def test_nickFreeAfterTimeout(self) -> None:
        """A player disconnected for a timeout may come back with the same nick."""
        harness = Harness(timeout=3)
        first, second = harness.game()
        harness.clock.advance(4)
        self.assertTrue(first.closed)
        nick = first.protocol.player.nick
        assert nick is not None
        self.assertEqual(harness.connect(nick.encode()).received(), INIT)

    def test_moveTimeout(self) -> None:
        """Later moves have timeout seconds, counted from the opponent's move."""
        harness = Harness(timeout=3)
        first, second = harness.game()
        harness.clock.advance(2)
        first.send(move(0))
        harness.clock.advance(2.99)
        self.assertFalse(second.closed)
        harness.clock.advance(0.01)
        self.assertEqual(second.received(), move(0) + ERR_TIMEOUT)
        self.assertEqual(first.received(), b"40\r\n")

    def test_outOfTurn(self) -> None:
        """
        A move out of turn gets ERR_INVALID_COLUMN, then the close; that
        player loses: the opponent gets GAME_END with its own index.
        """
        logs = LogCapture(self)
        harness = Harness()
        first, second = harness.game()
        second.received()
        second.send(move(0))
        self.assertTrue(second.closed)
        self.assertEqual(second.received(), ERR_COLUMN)
        self.assertEqual(first.received(), b"40\r\n")
        self.assertEqual(len(logs.lines("unexpected PLAY_MOVE")), 1)

    def test_oldQuitMidGame(self) -> None:
        """The old QUIT in a game: the close with no error, the game lost."""
        harness = Harness()
        first, second = harness.game()
        first.received()
        first.send(b"6\r\n")
        self.assertTrue(first.closed)
        self.assertEqual(first.received(), b"")
        self.assertEqual(second.received(), b"41\r\n")

    def test_disconnectMidGame(self) -> None:
        """The opponent of a player who leaves wins."""
        harness = Harness()
        first, second = harness.game()
        first.send(move(3))
        second.hangUp()
        self.assertEqual(first.received(), b"40\r\n")
        self.assertEqual(first.state(), "choosing")
        # The player gone lets go of the game (it and its machine hold each other).
        self.assertIsNone(second.protocol.player.table)

    def test_disconnectOnOwnTurn(self) -> None:
        harness = Harness()
        first, second = harness.game()
        first.hangUp()
        self.assertEqual(second.received(), b"41\r\n")

    def test_staleMoveAfterEnd(self) -> None:
        """A move that crossed GAME_END on the wire is ignored."""
        harness = Harness()
        first, second = harness.game()
        first.send(move(3))
        first.hangUp()
        second.received()
        second.send(move(3))
        self.assertFalse(second.closed)
        self.assertEqual(second.received(), b"")
        self.assertEqual(second.state(), "choosing")

    def test_choiceTimeout(self) -> None:
        harness = Harness(choiceTimeout=10)
        first, second = harness.game()
        second.hangUp()
        first.received()
        harness.clock.advance(9.99)
        self.assertFalse(first.closed)
        harness.clock.advance(0.01)
        self.assertEqual(first.received(), ERR_TIMEOUT)
        self.assertTrue(first.closed)

    def test_joinQueueAfterEnd(self) -> None:
        harness = Harness()
        first, second = harness.game()
        second.hangUp()
        first.send(b"5\r\n")
        harness.clock.advance(100)
        self.assertFalse(first.closed)
        self.assertEqual(first.state(), "queued")

    def test_joinQueueDuringGame(self) -> None:
        harness = Harness()
        first, second = harness.game()
        first.send(b"5\r\n")
        self.assertTrue(first.closed)
        self.assertEqual(second.received(), b"41\r\n")

    def finishedPair(self, harness: Harness) -> tuple[Client, Client]:
        """Two players whose game just ended in a win of the first."""
        first, second = harness.game()
        for column in (0, 1, 0, 1, 0, 1, 0):
            (first if column == 0 else second).send(move(column))
        first.received(), second.received()
        return first, second

    def test_rematchAvoided(self) -> None:
        """Two players who just met wait a moment for someone else."""
        harness = Harness(rematchDelay=1)
        first, second = self.finishedPair(harness)
        first.send(b"5\r\n")
        second.send(b"5\r\n")
        harness.clock.advance(0.5)
        self.assertEqual(first.received() + second.received(), b"")
        carol = harness.connect(b"carol")
        start = carol.received()[5:]
        self.assertEqual(start, first.received())
        self.assertIn(b"carol", start)
        self.assertEqual(second.received(), b"")
        self.assertEqual(harness.server.queue.waiting, [second.protocol.player])

    def test_rematchWhenAlone(self) -> None:
        """Two players alone play again once the rematch delay is over."""
        harness = Harness(rematchDelay=1)
        first, second = self.finishedPair(harness)
        first.send(b"5\r\n")
        harness.clock.advance(0.5)
        second.send(b"5\r\n")
        harness.clock.advance(0.49)
        self.assertEqual(first.received() + second.received(), b"")
        harness.clock.advance(0.01)
        start = first.received()
        self.assertEqual(start, second.received())
        self.assertTrue(start.startswith(b"2"))

    def test_rematchAtOnce(self) -> None:
        harness = Harness(rematchDelay=0)
        first, second = self.finishedPair(harness)
        first.send(b"5\r\n")
        second.send(b"5\r\n")
        self.assertTrue(first.received().startswith(b"2"))

    def test_recordReplays(self) -> None:
        """The finished game's record replays to the same board."""
        harness = Harness()
        first, second = harness.game()
        columns = [3, 3, 4, 4, 5, 5, 6]
        for index, column in enumerate(columns):
            (first, second)[index % 2].send(move(column))
        (record,) = harness.server.store.records.values()  # type: ignore[attr-defined]
        self.assertTrue(record.isFinished)
        self.assertEqual(record.scores, [1, 0])
        self.assertEqual(engineBoard(replay(ENGINE, record)), Board.from_moves(columns))
        self.assertEqual([a.action for a in record.actions], columns)
        self.assertEqual(record.seats, [first.protocol.player.nick, second.protocol.player.nick])

    def test_recordOfForfeit(self) -> None:
        harness = Harness()
        first, second = harness.game()
        first.send(move(3))
        second.hangUp()
        (record,) = harness.server.store.records.values()  # type: ignore[attr-defined]
        self.assertEqual([a.kind for a in record.actions], ["act", "resign"])
        self.assertEqual(record.scores, [1, 0])
        game = replay(ENGINE, record)
        assert isinstance(game, Connect4Game)
        self.assertEqual(game.winner, 0)

    def test_gameLogged(self) -> None:
        logs = LogCapture(self)
        harness = Harness()
        first, second = harness.game()
        first.hangUp()
        self.assertEqual(len(logs.lines("started")), 1)
        self.assertEqual(len(logs.lines("ended")), 1)
        self.assertEqual(len(logs.lines("connection from")), 2)
        self.assertEqual(len(logs.lines("disconnected")), 1)


def drawnGame() -> list[int]:
    """A move list that fills 7x6 without four in a row."""
    # Columns in pairs: (0,1) x3 fill rows alternately, then (2,3), (4,5), then 6.
    pattern = [0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0,
               2, 3, 2, 3, 2, 3, 3, 2, 3, 2, 3, 2,
               4, 5, 4, 5, 4, 5, 5, 4, 5, 4, 5, 4,
               6, 6, 6, 6, 6, 6]
    board = Board.from_moves(pattern)
    assert board.is_draw, board.rows()
    return pattern


class FootprintTests(SynchronousTestCase):
    """What each connection's player keeps, idle connections included."""

    def test_playerHasNoDict(self) -> None:
        client = Harness().connect(b"alice")
        self.assertFalse(hasattr(client.protocol.player, "__dict__"))


class ReadingShortcutTests(SynchronousTestCase):
    """
    A chunk that is one whole PLAY_MOVE skips the receive buffer: the
    messages read, and the fair share they keep to, are those of the plain
    reading, whatever the chunks.
    """

    def recorder(self, limits: Limits | None = None) -> tuple[Any, list[wire.Message], Clock]:
        clock = Clock()
        hub = Hub(clock, MemoryRecordStore(), random.Random(0), limits=limits or Limits())
        factory = Connect4ServerFactory(Connect4Server(Connect4Settings(), clock, hub=hub))
        protocol: Any = factory.buildProtocol(IPv4Address("TCP", "127.0.0.1", 4000))
        protocol.makeConnection(StringTransport())
        received: list[wire.Message] = []
        protocol.messageReceived = received.append
        return protocol, received, clock

    @settings(max_examples=200)
    @given(st.lists(st.one_of(
        st.integers(0, 255).map(wire.PlayMove),
        st.just(wire.JoinQueue()),
        st.binary(min_size=1, max_size=16).filter(lambda n: b"\r\n" not in n).map(wire.Connect),
    ), max_size=12), st.data())
    def test_sameMessagesWhateverTheChunks(self, messages: list[wire.Message],
                                           data: st.DataObject) -> None:
        protocol, received, _ = self.recorder(Limits(messageRate=0))
        pieces = [wire.serialize(m) for m in messages]
        stream = b"".join(pieces)
        # Cut at message boundaries (the shortcut's case) and anywhere else.
        bounds = [0]
        for piece in pieces:
            bounds.append(bounds[-1] + len(piece))
        cuts = sorted(set(data.draw(st.lists(
            st.sampled_from(bounds) | st.integers(0, len(stream)), max_size=20))))
        last = 0
        for cut in cuts + [len(stream)]:
            protocol.dataReceived(stream[last:cut])
            last = cut
        self.assertEqual(received, messages)

    def test_fairShareKept(self) -> None:
        """A PLAY_MOVE without its token waits for the refill, as any message does."""
        protocol, received, clock = self.recorder(Limits(messageRate=1, messageBurst=1))
        protocol.dataReceived(b"3\x02\r\n")
        protocol.dataReceived(b"3\x04\r\n")
        self.assertEqual(received, [wire.PlayMove(2)])
        self.assertTrue(protocol.readingPaused)
        clock.advance(1)
        self.assertEqual(received, [wire.PlayMove(2), wire.PlayMove(4)])

    def test_noDeadlineForAWholeMove(self) -> None:
        """
        A whole PLAY_MOVE starts no deadline (none is needed for a message
        already complete); half of one starts it.
        """
        protocol, received, clock = self.recorder(Limits(messageTimeout=5))
        calls = len(clock.getDelayedCalls())
        protocol.dataReceived(b"3\x02\r\n")
        self.assertEqual((received, len(clock.getDelayedCalls())), ([wire.PlayMove(2)], calls))
        protocol.dataReceived(b"3\x04")
        self.assertEqual(len(clock.getDelayedCalls()), calls + 1)
        clock.advance(4.5)
        self.assertFalse(protocol.transport.disconnecting)
        clock.advance(0.5)
        self.assertTrue(protocol.transport.disconnecting)
