"""
Real Protuissance 4 games on loopback: the library's client protocol against
the server, over TCP and WebSocket.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from twisted.internet import defer, reactor
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.interfaces import IListeningPort
from twisted.internet.protocol import Protocol, ServerFactory
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase
from twisted.web.websocket import WebSocketClientEndpoint

from gameproto.connect4 import wire
from gameproto.connect4.protocol import Connect4ClientProtocol
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.connect4.websocket import connect4WebSocket
from gameproto.games.connect4 import Board, choose_column
from gameproto.web.site import makeSite
from gameproto.web.websocket import connectMessageProtocol

from .test_connect4_server import drawnGame

if TYPE_CHECKING:
    _TestCaseBase = TestCase
else:
    _TestCaseBase = object


def portNumber(port: IListeningPort) -> int:
    """The TCP port number ``port`` listens on."""
    address = port.getHost()
    assert isinstance(address, IPv4Address)
    return address.port


class ScriptedClient(Connect4ClientProtocol):
    """
    Plays the columns of ``script[seat]`` in order (None: never answer), or
    the bot's choice once the script runs out; records what happens.
    """

    def __init__(self, nick: str, script: Mapping[int, Sequence[int | None]] | None = None,
                 games: int = 1, leaveAfter: int | None = None) -> None:
        super().__init__(nick)
        self.script = script or {}
        self.games = games
        self.leaveAfter = leaveAfter
        self.events: list[tuple[Any, ...]] = []
        self.done: defer.Deferred[list[tuple[Any, ...]]] = defer.Deferred()
        self._queue: list[int | None] = []

    def gameStarted(self, players: tuple[str, str], seat: int) -> None:
        self.events.append(("start", players, seat))
        self._queue = list(self.script.get(seat, []))
        self._played = 0

    def chooseMove(self, board: Board) -> int | defer.Deferred[int]:
        if self.leaveAfter is not None and self._played >= self.leaveAfter:
            assert self.transport is not None
            self.transport.loseConnection()
            return defer.Deferred()
        self._played += 1
        if self._queue:
            column = self._queue.pop(0)
            return defer.Deferred() if column is None else column
        return choose_column(board, depth=2)

    def opponentMoved(self, column: int) -> None:
        self.events.append(("opponent", column))

    def moveRefused(self) -> None:
        self.events.append(("refused",))

    def gameEnded(self, winner: int | None) -> None:
        self.events.append(("end", winner))
        self.games -= 1

    def playAgain(self) -> bool:
        return self.games > 0

    def timedOut(self) -> None:
        self.events.append(("timeout",))

    def nickRefused(self, code: int) -> None:
        self.events.append(("refused-nick", code))
        super().nickRefused(code)

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(self.events)


class LoopbackMixin(_TestCaseBase):
    """A real server on 127.0.0.1, torn down after each test."""

    settings = Connect4Settings(timeout=0.5, firstMoveBonus=0.2, resendTimeout=0.3,
                                choiceTimeout=0.5, rematchDelay=0)

    def setUp(self) -> None:
        self.server = Connect4Server(self.settings, reactor, rng=random.Random(7))
        factory: ServerFactory[Any] = Connect4ServerFactory(self.server)
        self.port = reactor.listenTCP(0, factory, interface="127.0.0.1")
        self.addCleanup(self.port.stopListening)

    def connect(self, client: Connect4ClientProtocol) -> defer.Deferred[Any]:
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", portNumber(self.port))
        return connectProtocol(endpoint, client)

    @defer.inlineCallbacks
    def play(self, *clients: ScriptedClient) -> Any:
        for client in clients:
            yield self.connect(client)
        results = yield defer.gatherResults([c.done for c in clients])
        return results

    def seats(self, a: ScriptedClient, b: ScriptedClient) -> tuple[ScriptedClient, ScriptedClient]:
        """The two clients as (player 0, player 1) of their first game."""
        return (a, b) if a.events[0][2] == 0 else (b, a)


class TCPGameTests(LoopbackMixin, TestCase):
    """Complete games between two library clients over TCP."""

    @defer.inlineCallbacks
    def test_win(self) -> Any:
        script = {0: [0, 0, 0, 0], 1: [1, 1, 1]}
        a, b = ScriptedClient("alice", script), ScriptedClient("bob", script)
        yield self.play(a, b)
        first, second = self.seats(a, b)
        self.assertEqual(first.events[-1], ("end", 0))
        self.assertEqual(second.events[-1], ("end", 0))
        self.assertEqual(second.events[1:5], [("opponent", 0)] * 4)
        self.assertEqual(first.board, Board.from_moves([0, 1, 0, 1, 0, 1, 0]))
        self.assertEqual(first.board, second.board)

    @defer.inlineCallbacks
    def test_draw(self) -> Any:
        moves = drawnGame()
        script = {0: moves[0::2], 1: moves[1::2]}
        a, b = ScriptedClient("alice", script), ScriptedClient("bob", script)
        yield self.play(a, b)
        self.assertEqual(a.events[-1], ("end", None))
        self.assertEqual(b.events[-1], ("end", None))
        assert a.board is not None
        self.assertTrue(a.board.is_draw)

    @defer.inlineCallbacks
    def test_invalidThenValid(self) -> Any:
        script = {0: [7, 0, 0, 0, 0], 1: [1, 1, 1]}
        a, b = ScriptedClient("alice", script), ScriptedClient("bob", script)
        yield self.play(a, b)
        first, second = self.seats(a, b)
        self.assertEqual(first.events[1], ("refused",))
        self.assertEqual(first.events[-1], ("end", 0))
        self.assertEqual(second.events[1], ("opponent", 0))

    @defer.inlineCallbacks
    def test_doubleInvalid(self) -> Any:
        script = {0: [7, 9], 1: []}
        a, b = ScriptedClient("alice", script), ScriptedClient("bob", script)
        yield self.play(a, b)
        first, second = self.seats(a, b)
        self.assertEqual(first.events[1:], [("refused",), ("refused",)])
        self.assertEqual(second.events[1:], [("end", 1)])

    @defer.inlineCallbacks
    def test_timeout(self) -> Any:
        script: dict[int, list[int | None]] = {0: [3], 1: [None]}
        a, b = ScriptedClient("alice", script), ScriptedClient("bob", script)
        yield self.play(a, b)
        first, second = self.seats(a, b)
        self.assertEqual(second.events[1:], [("opponent", 3), ("timeout",)])
        self.assertEqual(first.events[1:], [("end", 0)])

    @defer.inlineCallbacks
    def test_disconnect(self) -> Any:
        a = ScriptedClient("alice", {0: [3, 3, 3], 1: [4, 4, 4]}, leaveAfter=1)
        b = ScriptedClient("bob", {0: [3, 3, 3], 1: [4, 4, 4]})
        yield self.play(a, b)
        self.assertNotIn("end", [e[0] for e in a.events])
        self.assertEqual(b.events[-1], ("end", b.events[0][2]))

    @defer.inlineCallbacks
    def test_rematch(self) -> Any:
        """After GAME_END both send JOIN_QUEUE and play a second game."""
        script = {0: [0, 0, 0, 0], 1: [1, 1, 1]}
        a = ScriptedClient("alice", script, games=2)
        b = ScriptedClient("bob", script, games=2)
        yield self.play(a, b)
        for client in (a, b):
            kinds = [e[0] for e in client.events]
            self.assertEqual(kinds.count("start"), 2)
            self.assertEqual(kinds.count("end"), 2)
        records = list(self.server.store.records.values())  # type: ignore[attr-defined]
        self.assertEqual(len(records), 2)
        self.assertTrue(all(r.isFinished for r in records))

    @defer.inlineCallbacks
    def test_botsPlayToTheEnd(self) -> Any:
        a, b = ScriptedClient("alice"), ScriptedClient("bob")
        yield self.play(a, b)
        self.assertEqual(a.events[-1][0], "end")
        self.assertEqual(a.board, b.board)
        assert a.board is not None
        self.assertTrue(a.board.is_over)

    @defer.inlineCallbacks
    def test_usedNick(self) -> Any:
        a = ScriptedClient("alice", games=0)
        yield self.connect(a)
        b = ScriptedClient("alice")
        events = yield self.play(b)
        self.assertEqual(events, [[("refused-nick", wire.ERR_ALREADY_USED_NICK)]])
        assert a.transport is not None
        a.transport.loseConnection()
        yield a.done


class WebSocketTests(LoopbackMixin, TestCase):
    """The same protocol over WebSocket at /connect4 on the web port."""

    def setUp(self) -> None:
        super().setUp()
        site: ServerFactory[Any] = makeSite({b"connect4": connect4WebSocket(self.server)})
        self.web = reactor.listenTCP(0, site, interface="127.0.0.1")
        self.addCleanup(self.web.stopListening)
        self.url = f"ws://127.0.0.1:{portNumber(self.web)}/connect4"

    @defer.inlineCallbacks
    def test_webSocketAgainstTCP(self) -> Any:
        script = {0: [0, 0, 0, 0], 1: [1, 1, 1]}
        web, tcp = ScriptedClient("webby", script), ScriptedClient("tcpy", script)
        yield connectMessageProtocol(reactor, self.url, web, wire.WEBSOCKET_MAX_MESSAGE)
        yield self.connect(tcp)
        yield defer.gatherResults([web.done, tcp.done])
        self.assertEqual(web.events[-1], ("end", 0))
        self.assertEqual(tcp.events[-1], ("end", 0))
        self.assertEqual(web.board, tcp.board)
        (record,) = self.server.store.records.values()  # type: ignore[attr-defined]
        self.assertEqual(sorted(record.seats), ["tcpy", "webby"])

    @defer.inlineCallbacks
    def rawExchange(self, send: Any, answerOnce: bool = False) -> Any:
        """Open a bare WebSocket, ``send(transport)``, collect what comes back until closed."""
        received: list[bytes] = []
        closed: defer.Deferred[None] = defer.Deferred()

        class Raw:
            def negotiationStarted(self, transport: Any) -> None:
                self.transport = transport

            def negotiationFinished(self) -> None:
                send(self.transport)

            def bytesMessageReceived(self, data: bytes) -> None:
                received.append(bytes(data))
                if answerOnce:
                    self.transport.loseConnection()

            def textMessageReceived(self, text: str) -> None:
                received.append(text.encode())

            def pongReceived(self, payload: bytes) -> None:
                pass

            def connectionLost(self, reason: Failure) -> None:
                closed.callback(None)

        class Factory:
            def buildProtocol(self, url: str) -> Raw:
                return Raw()

        endpoint = WebSocketClientEndpoint.new(reactor, self.url)
        yield defer.Deferred.fromCoroutine(endpoint.connect(Factory()))
        yield closed
        return received

    @defer.inlineCallbacks
    def test_oneMessagePerFrame(self) -> Any:
        """INIT arrives as one binary message of its exact bytes."""
        received = yield self.rawExchange(lambda t: t.sendBytesMessage(b"0rawclient\r\n"),
                                          answerOnce=True)
        self.assertEqual(received, [b"1\x07\x06\r\n"])

    @defer.inlineCallbacks
    def test_longConnectInOneMessage(self) -> Any:
        """
        A CONNECT within the WebSocket cap (4096 bytes) but past the codec's
        256 bytes of nick: ERR_INVALID_NICK, as over TCP, then the close.
        """
        for size in (wire.CONNECT_NICK_LIMIT + 2, 1000, wire.WEBSOCKET_MAX_MESSAGE - 3):
            received = yield self.rawExchange(
                lambda t: t.sendBytesMessage(b"0" + b"a" * size + b"\r\n"))
            self.assertEqual(received, [b"7\r\n"], size)
        self.assertEqual(self.server.nicks, {})

    @defer.inlineCallbacks
    def test_tooBigOrText(self) -> Any:
        """
        A message over the cap (refused by WebSocket itself, code 1009,
        before any protocol reads it: see L{test_unfinishedMessageCapped}),
        a text message, or two messages in one, close the connection.
        """
        for send in (lambda t: t.sendBytesMessage(b"0" + b"a" * 100_000 + b"\r\n"),
                     lambda t: t.sendTextMessage("0alice\r\n"),
                     lambda t: t.sendBytesMessage(b"0bob\r\n5\r\n")):
            received = yield self.rawExchange(send)
            self.assertEqual(received, [])
        self.assertEqual(self.server.nicks, {})


    @defer.inlineCallbacks
    def test_unfinishedMessageCapped(self) -> Any:
        """A message still growing past the cap is refused before it ends (code 1009)."""
        from wsproto import ConnectionType, WSConnection
        from wsproto.events import AcceptConnection, BytesMessage, CloseConnection, Request

        closed: defer.Deferred[int | None] = defer.Deferred()

        class Fragmenting(Protocol):
            code: int | None = None

            def connectionMade(self) -> None:
                self.ws = WSConnection(ConnectionType.CLIENT)
                assert self.transport is not None
                self.transport.write(self.ws.send(Request(host="127.0.0.1", target="/connect4")))

            def dataReceived(self, data: bytes) -> None:
                assert self.transport is not None
                self.ws.receive_data(data)
                for event in self.ws.events():
                    if isinstance(event, AcceptConnection):
                        for _ in range(wire.WEBSOCKET_MAX_MESSAGE // 200 + 1):
                            self.transport.write(self.ws.send(
                                BytesMessage(b"0" + b"a" * 200, message_finished=False)))
                    elif isinstance(event, CloseConnection):
                        self.code = event.code

            def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
                closed.callback(self.code)

        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", portNumber(self.web))
        yield connectProtocol(endpoint, Fragmenting())
        code = yield closed
        self.assertEqual(code, 1009)


class RawTCPTests(LoopbackMixin, TestCase):
    """Bad bytes over real TCP: a clean close and nothing else."""

    @defer.inlineCallbacks
    def test_garbage(self) -> Any:
        received: list[bytes] = []
        closed: defer.Deferred[None] = defer.Deferred()

        class Raw(Protocol):
            def connectionMade(self) -> None:
                assert self.transport is not None
                self.transport.write(b"\x00\xff garbage\r\n")

            def dataReceived(self, data: bytes) -> None:
                received.append(data)

            def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
                closed.callback(None)

        yield self.connect(Raw())  # type: ignore[arg-type]
        yield closed
        self.assertEqual(received, [])


class DocumentPeer(Protocol):
    """
    A raw TCP peer written from the document alone: it writes the bytes it
    is given, keeps every byte the server sends, and fires ``closed`` with
    them all when the server closes.
    """

    def __init__(self, *writes: bytes) -> None:
        self.writes = writes
        self.data = b""
        self.closed: defer.Deferred[bytes] = defer.Deferred()
        self.arrived: defer.Deferred[None] | None = None
        self.wanted = 0

    def close(self) -> defer.Deferred[bytes]:
        """Close this side; fires with every byte received."""
        assert self.transport is not None
        self.transport.loseConnection()
        return self.closed

    def connectionMade(self) -> None:
        assert self.transport is not None
        for data in self.writes:
            self.transport.write(data)

    def write(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(data)

    def waitFor(self, length: int) -> defer.Deferred[None]:
        """Fires once ``length`` bytes have come."""
        self.wanted = length
        self.arrived = defer.Deferred()
        self.dataReceived(b"")
        return self.arrived

    def dataReceived(self, data: bytes) -> None:
        self.data += data
        if self.arrived is not None and len(self.data) >= self.wanted:
            arrived, self.arrived = self.arrived, None
            arrived.callback(None)

    def connectionLost(self, reason: Failure = Failure(ConnectionError())) -> None:
        self.closed.callback(self.data)


class DocumentPeerTests(LoopbackMixin, TestCase):
    """
    Out of sequence and long nicks over a real socket, against peers
    written from the document: what each gets before the close.
    """

    settings = Connect4Settings(timeout=5, firstMoveBonus=1, resendTimeout=1,
                                choiceTimeout=5, rematchDelay=0)
    INIT = b"1\x07\x06\r\n"
    START = 5 + 12
    """INIT then GAME_START of alice and bob: the bytes each has once the game begins."""

    def peer(self, *writes: bytes) -> defer.Deferred[Any]:
        peer = DocumentPeer(*writes)
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", portNumber(self.port))
        return connectProtocol(endpoint, peer)

    @defer.inlineCallbacks
    def test_longConnect(self) -> Any:
        """A CONNECT past 256 bytes: ERR_INVALID_NICK, then the close."""
        peer = yield self.peer(b"0" + b"a" * 5000 + b"\r\n")
        data = yield peer.closed
        self.assertEqual(data, b"7\r\n")
        self.assertEqual(self.server.nicks, {})

    @defer.inlineCallbacks
    def test_truncatedNickPlays(self) -> Any:
        """A 40-character nick is cut to 16, valid, and GAME_START carries the 16."""
        alice = yield self.peer(b"0" + b"abcdefghijklmnop" + b"q" * 24 + b"\r\n")
        bob = yield self.peer(b"0bob\r\n")
        yield defer.gatherResults([alice.waitFor(5 + 23), bob.waitFor(5 + 23)])
        self.assertEqual(alice.data[:5], self.INIT)
        self.assertIn(alice.data[5:], (b"2\x10abcdefghijklmnopbob\r\n",
                                       b"2\x03bobabcdefghijklmnop\r\n"))
        self.assertEqual(bob.data[5:], alice.data[5:])
        for peer in (alice, bob):
            yield peer.close()

    @defer.inlineCallbacks
    def test_badCharacterKept(self) -> Any:
        """A bad character among the 16 kept: ERR_INVALID_NICK, the connection stays."""
        peer = yield self.peer(b"0abcdefghijklmn!pqrs\r\n")
        yield peer.waitFor(3)
        self.assertEqual(peer.data, b"7\r\n")
        peer.write(b"0abcdefghijklmnopqrs\r\n")
        yield peer.waitFor(3 + 5)
        self.assertEqual(peer.data[3:], self.INIT)
        self.assertEqual(list(self.server.nicks), ["abcdefghijklmnop"])
        yield peer.close()

    @defer.inlineCallbacks
    def test_moveOutOfTurn(self) -> Any:
        """
        Player 1 moving on player 0's turn: ERR_INVALID_COLUMN, then the
        close; player 0 wins (GAME_END with its index).
        """
        alice = yield self.peer(b"0alice\r\n")
        bob = yield self.peer(b"0bob\r\n")
        yield defer.gatherResults([alice.waitFor(self.START), bob.waitFor(self.START)])
        start = alice.data[5:]
        first, second = (alice, bob) if start[2:7] == b"alice" else (bob, alice)
        second.write(b"3\x00\r\n")
        data = yield second.closed
        self.assertEqual(data[self.START:], b"9\r\n")
        yield first.waitFor(self.START + 4)
        self.assertEqual(first.data[self.START:], b"40\r\n")
        yield first.close()

    @defer.inlineCallbacks
    def test_moveWhileQueued(self) -> Any:
        """A PLAY_MOVE with no game: ERR_INVALID_COLUMN, then the close."""
        peer = yield self.peer(b"0alice\r\n", b"3\x00\r\n")
        data = yield peer.closed
        self.assertEqual(data, self.INIT + b"9\r\n")

    @defer.inlineCallbacks
    def test_oldQuit(self) -> Any:
        """The old QUIT (``"6" CRLF``) in a game: the close, no error; the other wins."""
        alice = yield self.peer(b"0alice\r\n")
        bob = yield self.peer(b"0bob\r\n")
        yield defer.gatherResults([alice.waitFor(self.START), bob.waitFor(self.START)])
        start = alice.data[5:]
        first, second = (alice, bob) if start[2:7] == b"alice" else (bob, alice)
        first.write(b"6\r\n")
        data = yield first.closed
        self.assertEqual(data[self.START:], b"")
        yield second.waitFor(self.START + 4)
        self.assertEqual(second.data[self.START:], b"41\r\n")
        yield second.close()
