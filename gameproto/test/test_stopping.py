"""
The server stopping with games in progress: each live game is suspended
(L{Table.suspend}, L{Hub.stop}) before the connections close, so that the
players the stop drops neither resign nor hand their seats to bots, nobody
is told a result that did not happen, and the game stays live in its
record for the next start.
"""

from __future__ import annotations

import random
from typing import Any

from twisted.internet import defer, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import Protocol
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase, TestCase

from gameproto import tap
from gameproto.carcassonne.server import CarcassonneSettings
from gameproto.connect4 import wire
from gameproto.engine.contract import Errors, UnexpectedAction
from gameproto.engine.hub import Hub, HubSettings
from gameproto.engine.record import MemoryRecordStore
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import STOPPING, BotSeat, Table
from gameproto.games.connect4 import ENGINE, connect4Bot

from .carcassonne_helpers import StubRules, makeServer, startGame
from .connect4_helpers import Harness as Connect4Harness
from .engine_helpers import Holder
from .hardening_helpers import LogCapture
from .service_helpers import LOCAL, onlyPorts, until
from .tarot_helpers import Client as TarotClient, Net as TarotNet


def twoPlayers(clock: Clock, store: MemoryRecordStore, timeout: float | None = 10.0
               ) -> tuple[Table, Holder, Holder]:
    a, b = Holder("a", timeout), Holder("b", timeout)
    table = Table.create(ENGINE, {}, [a, b], clock, store, random.Random(1))
    table.start()
    return table, a, b


class TableSuspendTests(SynchronousTestCase):
    """L{Table.suspend}: nothing more happens to the game, kept live as it stands."""

    def setUp(self) -> None:
        self.clock = Clock()
        self.store = MemoryRecordStore()
        self.table, self.a, self.b = twoPlayers(self.clock, self.store)
        self.table.act(0, 3)
        self.table.suspend()

    def test_actRefused(self) -> None:
        """An action is refused, UNEXPECTED_ACTION with the reason: nothing recorded."""
        outcome = self.table.act(1, 3)
        self.assertEqual(outcome, Errors((UnexpectedAction(1, 3),)))
        assert isinstance(outcome, Errors)
        self.assertEqual(outcome.asJSON()["errors"][0]["text"], STOPPING)  # type: ignore
        self.assertEqual(self.table.turn, 1)

    def test_resignChangesNothing(self) -> None:
        """A resignation (a player dropped by the stop) does not end the game."""
        told = len(self.b.updates)
        self.table.resign(1)
        self.assertFalse(self.table.finished)
        self.assertEqual(self.table.turn, 1)
        self.assertEqual(len(self.b.updates), told)
        self.assertFalse(self.store.get(self.table.id).isFinished)  # type: ignore[union-attr]

    def test_abortChangesNothing(self) -> None:
        """An abort (an engine's process ending with the server) keeps the game live."""
        self.table.abort("the engine exited")
        self.assertFalse(self.table.finished)
        self.assertIsNone(self.table.record.error)

    def test_replaceChangesNothing(self) -> None:
        """No bot takes a seat: the holders and the record's names stay."""
        self.table.replace(1, BotSeat(connect4Bot, self.clock, "bot2"))
        self.assertIs(self.table.holders[1], self.b)
        self.assertEqual(self.table.record.seats, ["a", "b"])

    def test_clocksStopped(self) -> None:
        """The seat waited for is not timed out however long the stop takes."""
        self.assertEqual(self.table.waiting, frozenset({1}))
        self.clock.advance(100)
        self.assertFalse(self.table.finished)
        self.assertEqual(self.b.timeouts, [])

    def test_finishedTableUntouched(self) -> None:
        """A game already over is not marked suspended."""
        table, _, _ = twoPlayers(self.clock, self.store)
        table.resign(0)
        table.suspend()
        self.assertTrue(table.finished)
        self.assertFalse(table.suspended)

    def test_botDoesNotPlay(self) -> None:
        """A bot whose move was scheduled before the stop does not play it."""
        bot = BotSeat(connect4Bot, self.clock, "bot", delay=1)
        table = Table.create(ENGINE, {}, [bot, Holder("b")], self.clock, self.store,
                             random.Random(1))
        table.start()
        table.suspend()
        self.clock.advance(5)
        self.assertEqual(table.turn, 0)


class SlowEngine:
    """A Connect Four game whose answers come later, when the test gives them."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.pending: list[tuple[defer.Deferred[Any], int, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def act(self, seat: int, action: Any) -> defer.Deferred[Any]:
        d: defer.Deferred[Any] = defer.Deferred()
        self.pending.append((d, seat, action))
        return d

    def answer(self) -> None:
        d, seat, action = self.pending.pop(0)
        d.callback(self.game.act(seat, action))


class LateAnswerTests(SynchronousTestCase):
    """An engine in another process, answering after the stop began."""

    def test_lateAnswerNotRecorded(self) -> None:
        """
        An answer that comes after the suspension is refused, not recorded
        (the engine replays the record at the restart); an action waiting
        its turn is refused at once.
        """
        clock, store = Clock(), MemoryRecordStore()
        plain = Table.create(ENGINE, {}, [Holder("a"), Holder("b")], clock, store,
                             random.Random(1))
        engine = SlowEngine(plain.engine)
        table = Table(plain.factory, engine, plain.holders, clock, store)  # type: ignore
        table.start()
        first = table.act(0, 3)
        queued = table.act(1, 3)
        assert isinstance(first, defer.Deferred) and isinstance(queued, defer.Deferred)
        table.suspend()
        refused = self.successResultOf(queued)
        self.assertIsInstance(refused, Errors)
        engine.answer()
        late = self.successResultOf(first)
        self.assertIsInstance(late, Errors)
        self.assertEqual(late.asJSON()["errors"][0]["text"], STOPPING)  # type: ignore
        self.assertEqual(table.turn, 0)
        self.assertFalse(table.finished)


class HubStopTests(SynchronousTestCase):
    """L{Hub.stop}: every live game suspended, no new one, one log line."""

    def setUp(self) -> None:
        self.clock = Clock()
        self.hub = Hub(self.clock, MemoryRecordStore(), random.Random(3),
                       settings=HubSettings(botDelay=1.0))
        self.logged = LogCapture(self)

    def hosted(self) -> Table:
        made = self.successResultOf(self.hub.newGame("connect4", {}, [1, 2]))
        assert isinstance(made, Table), made
        return made

    def test_stopSuspendsLiveGames(self) -> None:
        """Both live games are suspended, the finished one not; one line counts them."""
        first, second, over = self.hosted(), self.hosted(), self.hosted()
        over.resign(0)
        self.hub.stop()
        self.hub.stop()  # (once is enough)
        self.assertEqual([first.suspended, second.suspended, over.suspended],
                         [True, True, False])
        self.assertEqual([line for line in self.logged.lines() if "stopping" in line],
                         ["stopping: 2 live game(s) kept for the next start"])
        turn = first.turn
        self.clock.advance(10)  # the bots' moves were due
        self.assertEqual(first.turn, turn)

    def test_noNewGame(self) -> None:
        """Creating a game is refused, in words."""
        self.hub.stop()
        self.assertEqual(self.hub.refusesGame(), "the server is stopping: try again once it is back")
        self.assertEqual(self.successResultOf(self.hub.newGame("connect4", {}, [1, 2])),
                         "the server is stopping: try again once it is back")

    def test_registeredWhileStopping(self) -> None:
        """A game formed during the stop (a protocol's own match) is suspended at once."""
        self.hub.stop()
        table = Table.create(ENGINE, {}, [Holder("a"), Holder("b")], self.clock,
                             self.hub.store, random.Random(1))
        self.hub.register(table, self.hub._host)
        self.assertTrue(table.suspended)

    def test_vacateKeepsTheSeat(self) -> None:
        """A seat left during the stop does not go to a bot, and the game does not end."""
        made = self.successResultOf(self.hub.newGame("connect4", {}, [2]))
        assert isinstance(made, Table), made
        table, seat = made, Holder("guest")
        table.replace(0, seat)
        self.hub.stop()
        self.hub.vacate(table, 0)
        self.clock.advance(self.hub.settings.timeout + 1)
        self.assertIs(table.holders[0], seat)
        self.assertFalse(table.finished)


class ProtocolTests(SynchronousTestCase):
    """Each protocol's players dropped after the stop: the others are told nothing."""

    def test_connect4(self) -> None:
        """The opponent of a player dropped by the stop is not told it won."""
        harness = Connect4Harness()
        first, second = harness.game()
        first.send(b"3\x03\r\n")
        second.received()
        harness.server.hub.stop()
        first.hangUp()
        harness.clock.advance(60)
        self.assertEqual(second.received(), b"")
        (table,) = [t for t, _ in harness.server.hub.tables.values()]
        self.assertFalse(table.finished)
        self.assertEqual(table.turn, 1)

    def test_carcassonne(self) -> None:
        """The others are not sent CLOSE n for a player dropped by the stop."""
        server, clock = makeServer(CarcassonneSettings(timeout=20, ackTimeout=5, botsAfter=30),
                                   StubRules())
        conns, _ = startGame(server, 3)
        server.hub.stop()
        conns[0].transport.loseConnection()
        conns[0].protocol.connectionLost(None)  # type: ignore[arg-type]
        clock.advance(60)
        self.assertEqual(conns[1].received(), [])
        self.assertEqual(conns[2].received(), [])
        (room,) = server.playing
        assert room.table is not None
        self.assertFalse(room.table.finished)

    def test_tarot(self) -> None:
        """A Tarot player dropped by the stop: no bot takes the seat, the table goes on living."""
        class Thinking(TarotClient):
            """Never bids: the deal waits for it."""

            def chooseBid(self, view: Any) -> Any:
                return defer.Deferred()

        net = TarotNet(seed=3)
        clients = [Thinking(f"p{i}") for i in range(4)]
        for client in clients:
            net.join(client)
        net.flush()
        (table,) = [t for t, _ in net.server.hub.tables.values()]
        self.assertTrue(table._started)
        net.server.hub.stop()
        holder = table.holders[1]
        clients[1].hangUp()
        net.run()
        self.assertIs(table.holders[1], holder)
        self.assertFalse(table.finished)
        self.assertEqual(clients[0].scores, [])


class ServiceStopTests(TestCase):
    """``twistd gameproto`` stopping on loopback with a Protuissance 4 game in progress."""

    @defer.inlineCallbacks
    def test_stopKeepsTheGame(self) -> Any:
        """
        After the service stops, the players' connections close: the one
        still connected is told nothing more, the log has no end of the game,
        and the store keeps it live with its move, for the next start.
        """
        path = self.mktemp()
        options = tap.Options()
        options.parseOptions(["--db", path, "--connect4-timeout", "30",
                              *onlyPorts(connect4=LOCAL)])
        service = tap.makeService(options)
        service.startService()
        (child,) = list(service)
        listening: defer.Deferred[Any] = defer.Deferred()

        def listened(port: Any) -> Any:
            listening.callback(port)
            return port

        child._waitingForPort.addCallback(listened)
        port = yield listening
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port)

        class Raw(Protocol):
            def __init__(self) -> None:
                self.data = b""

            def dataReceived(self, data: bytes) -> None:
                self.data += data

        alice = yield connectProtocol(endpoint, Raw())
        bob = yield connectProtocol(endpoint, Raw())
        alice.transport.write(b"0alice\r\n")
        bob.transport.write(b"0bob\r\n")
        yield until(lambda: b"\r\n2" in alice.data and b"\r\n2" in bob.data, 5)
        start = wire.parseOne(alice.data[alice.data.index(b"\r\n2") + 2:], wire.SERVER_MESSAGES)
        assert isinstance(start, wire.GameStart), alice.data
        first = alice if start.first == "alice" else bob
        other = bob if first is alice else alice
        first.transport.write(b"3\x03\r\n")
        yield until(lambda: other.data.endswith(b"3\x03\r\n"), 5)
        logged = LogCapture(self)
        other.data = b""
        yield service.stopService()
        first.transport.loseConnection()
        yield until(lambda: not service.hub.tables[next(iter(service.hub.tables))][0]
                    .holders[0] is None, 1)
        yield until(lambda: False, 0.3)  # what the leaving would have sent
        self.assertEqual(other.data, b"")
        other.transport.loseConnection()
        yield until(lambda: False, 0.1)
        self.assertEqual([line for line in logged.lines() if "ended" in line], [])
        self.assertEqual([line for line in logged.lines() if "stopping" in line],
                         ["stopping: 1 live game(s) kept for the next start"])
        store = SQLiteRecordStore(path)
        self.addCleanup(store.close)
        (record,) = list(store.unfinished())
        self.assertEqual(len(record.actions), 1)
