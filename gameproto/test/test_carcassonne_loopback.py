"""Carcassonne 1.71 games over real TCP on 127.0.0.1: library clients against the server."""

from __future__ import annotations

import random
from typing import Any

from twisted.internet import defer, reactor
from twisted.internet.address import IPv4Address
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.python.failure import Failure
from twisted.trial.unittest import TestCase

from gameproto.carcassonne import wire
from gameproto.carcassonne.protocol import (
    CarcassonneClientProtocol,
    CarcassonneServerProtocol,
    Placement,
)
from gameproto.carcassonne.server import (
    MOVES,
    RELAY,
    CarcassonneServer,
    CarcassonneServerFactory,
    CarcassonneSettings,
)
from gameproto.engine.hub import Hub
from gameproto.engine.record import GameRecord
from gameproto.engine.record import replay
from gameproto.engine.registry import EngineRegistry
from gameproto.engine.registry import builtins as builtinEngines
from gameproto.net import Limits

from .carcassonne_helpers import StubRules


class Client(CarcassonneClientProtocol):
    """A library client that remembers what it heard; ``done`` fires when it is gone."""

    def __init__(self, players: int = 2, seed: int = 0) -> None:
        super().__init__(players, random.Random(seed))
        self.done: defer.Deferred[None] = defer.Deferred()
        self.events: list[object] = []
        self.noops = 0
        self.refusals = 0

    def alone(self) -> None:
        self.events.append("alone")

    def playerLeft(self, number: int) -> None:
        self.events.append(("left", number))

    def gameStopped(self) -> None:
        self.events.append("stopped")

    def moveRefused(self, move: wire.Move) -> None:
        self.refusals += 1

    def noopReceived(self) -> None:
        self.noops += 1

    def connectionLost(self, reason: Failure = Failure(Exception())) -> None:
        super().connectionLost(reason)
        if not self.done.called:
            self.done.callback(None)


class Served(CarcassonneServerProtocol):
    """The server side of a connection; ``lost`` fires when it is gone."""

    def connectionMade(self) -> None:
        self.lost: defer.Deferred[None] = defer.Deferred()
        served.append(self)
        super().connectionMade()

    def connectionLost(self, reason: Failure = Failure(Exception())) -> None:
        super().connectionLost(reason)
        self.lost.callback(None)


served: list[Served] = []


class Trusting(Client):
    """A client that accepts every move."""

    def acceptMove(self, move: wire.Move) -> bool:
        return True


class Loopback(TestCase):
    settings = CarcassonneSettings(timeout=10, ackTimeout=10, referee=False, botsAfter=30,
                                   botDelay=0)
    rules: StubRules | None = None
    builtins = False
    """Whether the registry is the built-in one (the rules engine as ``carcassonne``)."""

    def setUp(self) -> None:
        registry = builtinEngines() if self.builtins else EngineRegistry(
            {"carcassonne": self.rules} if self.rules else {})
        hub = Hub(reactor, rng=random.Random(5), registry=registry,  # type: ignore[arg-type]
                  limits=Limits(messageBurst=1000))
        self.server = CarcassonneServer(self.settings, hub=hub)
        del served[:]
        self.port = reactor.listenTCP(0, CarcassonneServerFactory(self.server, Served),  # type: ignore[attr-defined,arg-type]
                                      interface="127.0.0.1")
        self.addCleanup(self.port.stopListening)
        self.addCleanup(lambda: defer.gatherResults([p.lost for p in served]))

    def connect(self, client: Client) -> defer.Deferred[Any]:
        address = self.port.getHost()
        assert isinstance(address, IPv4Address)
        return connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", address.port), client)

    @defer.inlineCallbacks
    def play(self, *clients: Client) -> Any:
        for client in clients:
            yield self.connect(client)
        yield defer.gatherResults([c.done for c in clients])

    def records(self) -> list[GameRecord]:
        """Every Carcassonne game's record, oldest first."""
        summaries, _ = self.server.store.games(0, 100)
        records = [self.server.store.get(s.id) for s in reversed(summaries)]
        return [r for r in records if r is not None and r.engine in ("carcassonne", RELAY.name)]


class RelayTests(Loopback):
    @defer.inlineCallbacks
    def wholeGame(self, players: int) -> Any:
        clients = [Client(players, seed) for seed in range(players)]
        yield self.play(*clients)
        for client in clients:
            self.assertTrue(client.finished)
            self.assertEqual(client.finishedBy, 0)
            self.assertEqual(len(client.board), MOVES + 1)
            self.assertEqual(sum(client.pile.values()), 0)
            self.assertEqual(client.opponents, set(range(1, players + 1)) - {
                next(iter(set(range(1, players + 1)) - client.opponents))})
        boards = {tuple(sorted(c.board.items())) for c in clients}
        self.assertEqual(len(boards), 1)
        self.assertEqual(sum(c.movesPlayed for c in clients), MOVES)
        [record] = self.records()
        self.assertEqual(len(record.actions), MOVES + 1)  # and the finish
        self.assertTrue(replay(RELAY, record).instructions().game_state.gameover)
        self.assertFalse(replay(RELAY, record, 30).instructions().game_state.gameover)

    def test_two(self) -> Any:
        return self.wholeGame(2)

    def test_three(self) -> Any:
        return self.wholeGame(3)

    def test_four(self) -> Any:
        return self.wholeGame(4)

    def test_five(self) -> Any:
        return self.wholeGame(5)

    @defer.inlineCallbacks
    def test_sixth(self) -> Any:
        """A sixth client finds the room full and starts a new one, alone."""
        five = [Client(5, seed) for seed in range(5)]
        for client in five:
            yield self.connect(client)
        yield defer.gatherResults([c.done for c in five])
        sixth, seventh = Client(2, 6), Client(2, 7)
        yield self.play(sixth, seventh)
        self.assertEqual(sixth.events[0], "alone")
        self.assertTrue(sixth.finished and seventh.finished)

    @defer.inlineCallbacks
    def test_sixthWhileFull(self) -> Any:
        """While five play, a sixth is alone in a new room (HELLONACK)."""
        five = [Client(5, seed) for seed in range(5)]
        for client in five:
            yield self.connect(client)
        sixth = Client(2, 6)
        yield self.connect(sixth)
        yield defer.gatherResults([c.done for c in five])
        self.assertEqual(sixth.events, ["alone"])
        self.assertFalse(sixth.started)
        sixth.transport.loseConnection()  # type: ignore[union-attr]
        yield sixth.done

    @defer.inlineCallbacks
    def test_wrongToken(self) -> Any:
        """A MOVE with a wrong token gets NOOP and is not relayed; the right one goes on."""

        class Cheat(Client):
            cheated = False

            def _play(self) -> None:
                if not self.cheated and self.token is not None:
                    self.cheated = True
                    self.sendMessage(wire.Move(0, "tile-u", 72, 73, "N", None, self.token ^ 1))
                super()._play()

        cheat, honest = Cheat(2, 1), Client(2, 2)
        yield self.play(cheat, honest)
        self.assertEqual(cheat.noops, 1)
        self.assertTrue(honest.finished)
        self.assertEqual(len(honest.board), MOVES + 1)

    @defer.inlineCallbacks
    def test_moveNack(self) -> Any:
        """A client refuses a move: the game stops for everyone."""

        class Refuser(Client):
            def acceptMove(self, move: wire.Move) -> bool:
                return False

        a, b, refuser = Client(3, 1), Client(3, 2), Refuser(3, 3)
        yield self.play(a, b, refuser)
        self.assertEqual(a.finishedBy, 3)
        self.assertEqual(b.finishedBy, 3)
        self.assertEqual((a.events + b.events).count("stopped"), 1)  # the mover: FINISH only
        [record] = self.records()
        self.assertEqual(record.error, "player 3 refused move 1")

    @defer.inlineCallbacks
    def test_closeMidGame(self) -> Any:
        """A client says CLOSE after its first move: the others go on to FINISH."""

        class Quitter(Client):
            def moveAccepted(self, board: Any) -> None:
                self.sendMessage(wire.Close(0))
                self.transport.loseConnection()  # type: ignore[union-attr]

        a, quitter, c = Client(3, 1), Quitter(3, 2), Client(3, 3)
        yield self.play(a, quitter, c)
        self.assertIn(("left", 2), a.events)
        self.assertIn(("left", 2), c.events)
        self.assertEqual(a.finishedBy, 0)
        self.assertEqual(len(a.board), MOVES + 1)
        self.assertEqual(a.board, c.board)


class RefereeTests(Loopback):
    settings = CarcassonneSettings(timeout=10, ackTimeout=10, referee=True, botsAfter=30,
                                   botDelay=0)
    rules = StubRules()

    @defer.inlineCallbacks
    def test_wholeGame(self) -> Any:
        clients = [Client(3, seed) for seed in range(3)]
        yield self.play(*clients)
        for client in clients:
            self.assertEqual(client.finishedBy, 0)
            self.assertEqual(len(client.board), MOVES + 1)

    @defer.inlineCallbacks
    def test_refusedThenRetried(self) -> Any:
        """An illegal move gets MOVENACK and is not relayed; the mover tries again."""

        class Clumsy(Client):
            def chooseMove(self) -> Placement | None:
                if not self.refused:
                    return ("tile-u", 72, 72, "N", None)  # the start tile's square
                return super().chooseMove()  # type: ignore[return-value]

        clumsy, other = Clumsy(2, 1), Client(2, 2)
        yield self.play(clumsy, other)
        self.assertGreater(clumsy.refusals, 0)
        self.assertEqual(other.refusals, 0)
        self.assertEqual(clumsy.board, other.board)
        self.assertEqual(other.finishedBy, 0)

    @defer.inlineCallbacks
    def test_botOpponent(self) -> Any:
        """With bots after 0 seconds, a lone client plays a whole game against a bot."""
        self.server.settings = CarcassonneSettings(timeout=10, ackTimeout=10, referee=True,
                                                   botsAfter=0, botDelay=0)
        client = Trusting(2, 1)  # the stub's bot knows no edges
        yield self.play(client)
        self.assertEqual(client.finishedBy, 0)
        self.assertEqual(client.opponents, {2})
        self.assertEqual(len(client.board), MOVES + 1)


class RulesTests(Loopback):
    """The referee is the rules engine (the hub's built-in ``carcassonne``)."""

    settings = CarcassonneSettings(timeout=10, ackTimeout=10, referee=True, botsAfter=30,
                                   botDelay=0)
    builtins = True

    @defer.inlineCallbacks
    def test_wholeGame(self) -> Any:
        """Three library clients play by the rules to FINISH 0; the record replays."""
        clients = [Client(3, seed) for seed in range(3)]
        yield self.play(*clients)
        boards = {tuple(sorted(c.board.items())) for c in clients}
        self.assertEqual(len(boards), 1)
        for client in clients:
            self.assertEqual(client.finishedBy, 0)
            self.assertEqual(client.refusals, 0)
        [record] = self.records()
        factory = self.server.hub.registry.get("carcassonne")
        assert factory is not None
        self.assertEqual(len(record.actions), len(clients[0].board) - 1)
        game = replay(factory, record)
        self.assertTrue(game.instructions().game_state.gameover)
        halfway = replay(factory, record, 10)
        self.assertFalse(halfway.instructions().game_state.gameover)

    @defer.inlineCallbacks
    def test_refusedThenRetried(self) -> Any:
        """A move breaking the rules gets MOVENACK, is not relayed; the mover tries again."""

        class Clumsy(Client):
            def chooseMove(self) -> Placement | None:
                if not self.refused:
                    return ("tile-c", 72, 71, "N", None)  # a city against the start's road
                return super().chooseMove()  # type: ignore[return-value]

        clumsy, other = Clumsy(2, 1), Client(2, 2)
        yield self.play(clumsy, other)
        self.assertGreater(clumsy.refusals, 0)
        self.assertEqual(clumsy.board, other.board)
        self.assertEqual(other.finishedBy, 0)

    @defer.inlineCallbacks
    def test_botOpponent(self) -> Any:
        """A lone client plays a whole game against the rules engine's bot."""
        self.server.settings = CarcassonneSettings(timeout=10, ackTimeout=10, referee=True,
                                                   botsAfter=0, botDelay=0)
        client = Client(2, 1)
        yield self.play(client)
        self.assertEqual(client.finishedBy, 0)
        self.assertEqual(client.opponents, {2})
        self.assertEqual(client.refusals, 0)

    @defer.inlineCallbacks
    def wholeGame(self, players: int) -> Any:
        """``players`` library clients play by the rules to FINISH 0; the record replays."""
        clients = [Client(players, seed) for seed in range(players)]
        yield self.play(*clients)
        boards = {tuple(sorted(c.board.items())) for c in clients}
        self.assertEqual(len(boards), 1)
        for client in clients:
            self.assertEqual(client.finishedBy, 0)
            self.assertEqual((client.refusals, client.noops), (0, 0))
            self.assertEqual(len(client.opponents), players - 1)
        moves = len(clients[0].board) - 1
        self.assertEqual(sum(c.movesPlayed for c in clients), moves)
        [record] = self.records()
        self.assertEqual((record.status, len(record.actions)), ("finished", moves))
        factory = self.server.hub.registry.get("carcassonne")
        assert factory is not None
        self.assertEqual(list(replay(factory, record).instructions().game_state.scores),
                         record.scores)

    def test_two(self) -> Any:
        return self.wholeGame(2)

    def test_four(self) -> Any:
        return self.wholeGame(4)

    def test_five(self) -> Any:
        return self.wholeGame(5)

    @defer.inlineCallbacks
    def test_sixth(self) -> Any:
        """While five play a refereed game, a sixth client is alone in a new room."""
        five = [Client(5, seed) for seed in range(5)]
        for client in five:
            yield self.connect(client)
        sixth, seventh = Client(2, 6), Client(2, 7)
        yield self.connect(sixth)
        yield defer.gatherResults([c.done for c in five])
        self.assertEqual(sixth.events, ["alone"])
        self.assertFalse(sixth.started)
        yield self.connect(seventh)
        yield defer.gatherResults([sixth.done, seventh.done])
        for client in five + [sixth, seventh]:
            self.assertEqual((client.finishedBy, client.refusals), (0, 0))
        self.assertEqual(sixth.board, seventh.board)
        self.assertEqual([r.status for r in self.records()], ["finished", "finished"])

    @defer.inlineCallbacks
    def test_moveNack(self) -> Any:
        """A client refuses a refereed move: the game stops for everyone, kept as aborted."""

        class Refuser(Client):
            def acceptMove(self, move: wire.Move) -> bool:
                return False

        a, b, refuser = Client(3, 1), Client(3, 2), Refuser(3, 3)
        yield self.play(a, b, refuser)
        self.assertEqual((a.finishedBy, b.finishedBy, refuser.finishedBy), (3, 3, 3))
        self.assertEqual((a.events + b.events).count("stopped"), 1)  # the mover: FINISH only
        [record] = self.records()
        self.assertEqual((record.status, record.error), ("aborted", "player 3 refused move 1"))
        self.assertEqual(len(record.actions), 1)

    @defer.inlineCallbacks
    def test_closeMidGame(self) -> Any:
        """
        A client says CLOSE after its first move: the others hear CLOSE 2, a
        bot takes its seat and the game goes on to FINISH 0, every move refereed.
        """

        class Quitter(Client):
            def moveAccepted(self, board: Any) -> None:
                self.sendMessage(wire.Close(0))
                self.transport.loseConnection()  # type: ignore[union-attr]

        a, quitter, c = Client(3, 1), Quitter(3, 2), Client(3, 3)
        yield self.play(a, quitter, c)
        for client in (a, c):
            self.assertIn(("left", 2), client.events)
            self.assertEqual((client.finishedBy, client.refusals), (0, 0))
        self.assertEqual(a.board, c.board)
        self.assertEqual(quitter.movesPlayed, 1)
        moves = len(a.board) - 1
        self.assertGreater(moves - a.movesPlayed - c.movesPlayed, 1)  # the bot played seat 2
        [record] = self.records()
        self.assertEqual((record.status, len(record.actions)), ("finished", moves))


class RefereelessRulesTests(Loopback):
    """The referee off, the rules engine installed: the rules' bot plays a relayed game."""

    settings = CarcassonneSettings(timeout=10, ackTimeout=10, referee=False, botsAfter=0,
                                   botDelay=0)
    builtins = True

    @defer.inlineCallbacks
    def test_botOpponent(self) -> Any:
        """
        A lone client plays a whole relayed game against the rules' bot,
        whose every move the client finds legal; the record (engine
        ``carcassonne``, its referee off) replays to its scores.
        """
        client = Client(2, 1)
        yield self.play(client)
        self.assertEqual((client.finishedBy, client.opponents), (0, {2}))
        self.assertEqual(client.pile.total(), 0)
        [record] = self.records()
        self.assertEqual((record.engine, record.params["referee"], record.status),
                         ("carcassonne", "off", "finished"))
        self.assertEqual(len(record.actions), MOVES)
        factory = self.server.hub.registry.get("carcassonne")
        assert factory is not None
        game = replay(factory, record)
        self.assertEqual(list(game.instructions().game_state.scores), record.scores)
        self.assertIsNone(getattr(game, "broken"))
