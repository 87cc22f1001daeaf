"""
Our FreeDoko parent with the real FreeDoko 0.7.13 as its children (see
L{gameproto.test.freedoko_real}): (a) four real children play one round
through our server; (b) one real child plays one round with three of our
bots.  Every child must agree with our engine on every trick (its own
``trick full`` lines against ours) and on the cards its seat held, nothing
may be refused, and no traceback may be logged.  Also: a genscher both
ways, this library's child at the real parent included; a real child
rejected, or back too late for its party.
"""

from __future__ import annotations

import random
from typing import Any, cast

from twisted.internet import defer, error, reactor, task
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.logger import ILogObserver, LogEvent, formatEvent, globalLogPublisher
from twisted.python import log
from twisted.trial.unittest import TestCase

from gameproto.engine.contract import Instructions
from gameproto.engine.record import GameRecord
from gameproto.freedoko import wire
from gameproto.freedoko.machine import stateName
from gameproto.freedoko.protocol import FreeDokoServerProtocol
from gameproto.freedoko.server import (
    FreeDokoBot,
    FreeDokoServer,
    FreeDokoServerFactory,
    FreeDokoSettings,
)
from gameproto.freedoko.client import FreeDokoClientProtocol
from gameproto.games.doppelkopf import (
    DOPPELKOPF,
    GENSCHER,
    RE,
    DoppelkopfParty,
    DoppelkopfView,
    GameSummary,
)
from gameproto.test.freedoko_real import RealFreeDoko, findBinary, freePort, spawnFreeDoko

_reactor: Any = reactor

ROUND_RULES = "number of rounds limited = true\nnumber of rounds = 1\n"
"""FreeDoko's default rules, one round (four games, one more after each solo)."""


class RecordingProtocol(FreeDokoServerProtocol):
    """Our parent's protocol, keeping every line in and out (by connection)."""

    def connectionMade(self) -> None:
        self.received: list[wire.Received] = []
        self.sent: list[wire.Message] = []
        self.factory.connections.append(self)  # type: ignore[attr-defined]
        super().connectionMade()

    def messageReceived(self, received: wire.Received) -> None:
        self.received.append(received)
        self.factory.journal.append((self, "C>", received.message))  # type: ignore[attr-defined]
        super().messageReceived(received)

    def sendMessage(self, message: Any) -> None:
        if not self._closing:
            self.sent.append(message)
            self.factory.journal.append((self, "P>", message))  # type: ignore[attr-defined]
        super().sendMessage(message)

    def childSent(self, kind: type) -> list[Any]:
        return [r.message for r in self.received if isinstance(r.message, kind)]

    def parentSent(self, kind: type) -> list[Any]:
        return [m for m in self.sent if isinstance(m, kind)]


def tricksPerGame(record: GameRecord) -> int:
    """The tricks of each game of ``record``'s party: 12, or 10 without nines."""
    party = DOPPELKOPF.start(record.params, record.initvalues)
    assert isinstance(party, DoppelkopfParty)
    return party.game.trickCount


def handsAtPlay(record: GameRecord) -> list[tuple[tuple[str, ...], ...]]:
    """Replaying ``record``: each game's four hands when its first trick opens, sorted."""
    party = DOPPELKOPF.start(record.params, record.initvalues)
    assert isinstance(party, DoppelkopfParty)
    hands: list[tuple[tuple[str, ...], ...]] = []
    for action in record.actions:
        if action.kind != "act":
            continue
        outcome = party.act(action.seat, action.action)
        assert isinstance(outcome, Instructions), outcome
        if any(event.kind == "game start" for event in outcome.events):
            hands.append(tuple(tuple(sorted(h)) for h in party.game.hands))
    return hands


class Capture:
    """Every log event while a test runs."""

    def __init__(self, case: TestCase) -> None:
        self.events: list[LogEvent] = []
        observer = cast(ILogObserver, self.events.append)
        globalLogPublisher.addObserver(observer)
        case.addCleanup(globalLogPublisher.removeObserver, observer)

    def lines(self, containing: str) -> list[str]:
        return [formatEvent(e) for e in self.events if containing in (formatEvent(e) or "")]

    @property
    def tracebacks(self) -> list[str]:
        return [formatEvent(e) for e in self.events if "log_failure" in e]


class InteropTests(TestCase):
    """Real FreeDoko children at our parent."""

    timeout = 240

    def setUp(self) -> None:
        findBinary()
        self.capture = Capture(self)

    def serve(self, botsAfter: float, seed: int, rules: str = ROUND_RULES,
              **knobs: Any) -> tuple[FreeDokoServer, FreeDokoServerFactory, int]:
        """Our parent on a free port; the hub's rng from ``seed`` draws the party seed."""
        settings = FreeDokoSettings(timeout=30.0, botsAfter=botsAfter, rules=rules, **knobs)
        server = FreeDokoServer(settings, clock=_reactor, rng=random.Random(seed))
        factory = FreeDokoServerFactory(server, RecordingProtocol)
        factory.connections = []  # type: ignore[attr-defined]
        factory.journal = []  # type: ignore[attr-defined]
        port = _reactor.listenTCP(0, factory, interface="127.0.0.1")
        self.addCleanup(port.stopListening)
        return server, factory, port.getHost().port

    def children(self, port: int, names: list[str]) -> list[RealFreeDoko]:
        reals = []
        for name in names:
            real = spawnFreeDoko(_reactor, "child", port, name=name, lifetime=200)
            self.addCleanup(real.stop)
            reals.append(real)
        return reals

    async def party(self, server: FreeDokoServer, reals: list[RealFreeDoko],
                    seconds: float) -> GameRecord:
        """Wait for the party's table to start and end; its record."""
        for _ in range(int(seconds * 10)):
            if server.playing:
                break
            for real in reals:
                if real.process.ended.called:
                    self.fail(f"a child ended before the party: {real.process.describe()}")
            await task.deferLater(_reactor, 0.1, lambda: None)
        self.assertTrue(server.playing, "the table never started")
        (room,) = server.playing
        assert room.table is not None
        table = room.table
        done = table.whenFinished()
        timer = _reactor.callLater(seconds, done.cancel)
        try:
            record = await done
        except defer.CancelledError:
            self.fail(f"the party did not end in {seconds}s: {len(table.record.actions)} actions; "
                      + "; ".join(r.process.describe() for r in reals))
        finally:
            if timer.active():
                timer.cancel()
        await task.deferLater(_reactor, 1.0, lambda: None)
        return record

    def check(self, record: GameRecord, connections: list[RecordingProtocol],
              reals: list[RealFreeDoko]) -> None:
        summary = "; ".join(r.process.describe() for r in reals)
        self.assertIsNone(record.error, summary)
        self.assertIsNotNone(record.scores, summary)
        hands = handsAtPlay(record)
        games = len(hands)
        tricks = tricksPerGame(record)
        self.assertGreaterEqual(games, 4, summary)
        for connection in connections:
            unknown = [r for r in connection.received if isinstance(r.message, wire.Unknown)]
            self.assertEqual(unknown, [], summary)
            seat = connection.child.seat
            ours = connection.parentSent(wire.TrickFull)
            theirs = connection.childSent(wire.TrickFull)
            self.assertEqual(len(ours), tricks * games, summary)
            self.assertEqual(theirs, ours, f"player {seat}: the child's tricks are not ours")
            self.assertEqual(len(connection.parentSent(wire.PartyFinish)), 1)
            # the cards the child played, game by game, are those our engine gave its seat
            played: list[list[str]] = [[]]
            for received in connection.received:
                message = received.message
                if isinstance(message, wire.CardPlayed) and message.player == seat:
                    if len(played[-1]) == tricks:
                        played.append([])
                    played[-1].append(str(message.card))
            self.assertEqual([tuple(sorted(p)) for p in played],
                             [h[seat] for h in hands], f"player {seat}: other cards")
        # A child asks for an announcement before it plays its card and applies it
        # when the echo comes, judging it then: the parent judges it after the card,
        # and may refuse it (as the child would); nothing else is ever refused.
        refused = self.capture.lines("refused")
        log.msg(f"refused: {refused}")
        self.assertEqual([line for line in refused if "refused announcement" not in line], [])
        self.assertEqual(self.capture.tracebacks, [])

    async def test_fourChildren(self) -> None:
        """(a) Four real children, one round through our parent: every trick agreed."""
        # seed 22: a poverty taken and returned, two marriages, announcements
        server, factory, port = self.serve(botsAfter=60.0, seed=22)
        reals = self.children(port, ["Anna", "Bert", "Carl", "Dora"])
        record = await self.party(server, reals, 150)
        connections = cast(list[RecordingProtocol], factory.connections)  # type: ignore[attr-defined]
        self.assertEqual(len(connections), 4)
        self.assertEqual(sorted(record.seats), ["Anna", "Bert", "Carl", "Dora"])
        log.msg(f"four real children: record {record.seats}, scores {record.scores}, "
                f"{len(record.actions)} actions")
        self.check(record, connections, reals)

    async def test_oneChildThreeBots(self) -> None:
        """(b) One real child and three of our bots, one round: every trick agreed."""
        # seed 4: seven games: marriages, soli (one with swines), poverties
        server, factory, port = self.serve(botsAfter=0.5, seed=4)
        reals = self.children(port, ["Anna"])
        record = await self.party(server, reals, 120)
        connections = cast(list[RecordingProtocol], factory.connections)  # type: ignore[attr-defined]
        self.assertEqual(len(connections), 1)
        self.assertEqual(record.seats.count("Anna"), 1)
        log.msg(f"one real child: record {record.seats}, scores {record.scores}, "
                f"{len(record.actions)} actions")
        self.check(record, connections, reals)

    async def test_withoutNines(self) -> None:
        """
        Four real children, one round without nines (ten tricks a game):
        every trick agreed, and no trick opened after the tenth.
        """
        server, factory, port = self.serve(botsAfter=60.0, seed=1,
                                           rules=ROUND_RULES + "with nines = false\n")
        reals = self.children(port, ["Anna", "Bert", "Carl", "Dora"])
        record = await self.party(server, reals, 150)
        connections = cast(list[RecordingProtocol], factory.connections)  # type: ignore[attr-defined]
        self.assertEqual(len(connections), 4)
        self.assertEqual(tricksPerGame(record), 10)
        self.check(record, connections, reals)
        for connection in connections:
            self.assertEqual(len(connection.parentSent(wire.TrickOpen)),
                             len(connection.parentSent(wire.TrickFull)))

    async def test_genscher(self) -> None:
        """
        Four real children under the rule ``genscher``, one round from the
        party seed 178282: in the first game the real child of player 0
        plays the first of its two trump kings with ``genscher = 0, 2``; our
        parent takes both, tells every child, and every trick is agreed.
        """
        original = DOPPELKOPF.start

        def start(params: Any, initvalues: Any = None, rng: Any = None) -> Any:
            return original(params, {"seed": 178282}, rng)

        self.patch(DOPPELKOPF, "start", start)
        server, factory, port = self.serve(botsAfter=60.0, seed=1,
                                           rules=ROUND_RULES + "genscher = true\n")
        reals = self.children(port, ["Anna", "Bert", "Carl", "Dora"])
        record = await self.party(server, reals, 150)
        connections = cast(list[RecordingProtocol], factory.connections)  # type: ignore[attr-defined]
        self.assertEqual(len(connections), 4)
        self.check(record, connections, reals)
        (first,) = [c for c in connections if c.child.seat == 0]
        self.assertEqual(first.childSent(wire.Genscher), [wire.Genscher(0, 2)])
        for connection in connections:
            told = connection.sent
            index = told.index(wire.Genscher(0, 2))
            self.assertEqual(told[index + 1],
                             wire.CardPlayed(0, wire.Card("diamond", "king"), "network"))
        self.assertIn({"card": "diamond king", "genscher": 2},
                      [a.action for a in record.actions if a.seat == 0])

    async def test_childComesBack(self) -> None:
        """
        A real child killed in the middle of a game: a bot plays its seat at
        once, the other child plays on; started again under its name, it
        takes the seat back when the next game opens and agrees on every
        trick to the end.
        """
        server, factory, port = self.serve(botsAfter=0.5, seed=4)
        first, other = self.children(port, ["Anna", "Bert"])
        for _ in range(300):
            if server.playing:
                break
            await task.deferLater(_reactor, 0.1, lambda: None)
        (room,) = server.playing
        table = room.table
        assert table is not None
        for _ in range(600):
            if len(table.record.actions) >= 80 or table.finished:
                break
            await task.deferLater(_reactor, 0.05, lambda: None)
        self.assertFalse(table.finished)
        connections = cast(list[RecordingProtocol], factory.connections)  # type: ignore[attr-defined]
        seat = next(c.child.seat for c in connections if c.child.childName == "Anna")
        await first.stop()
        await task.deferLater(_reactor, 0.5, lambda: None)
        self.assertIsInstance(table.holders[seat], FreeDokoBot)
        self.assertEqual(table.record.seats[seat], "Anna (bot)")
        (again,) = self.children(port, ["Anna"])
        record = await self.party(server, [other, again], 120)
        self.assertIsNone(record.error)
        back = connections[-1]
        self.assertEqual(back.child.childName, "Anna")
        self.assertEqual(back.child.seat, seat)
        self.assertEqual(record.seats[seat], "Anna")
        ours = back.parentSent(wire.TrickFull)
        self.assertGreaterEqual(len(ours), 12)
        self.assertEqual(back.childSent(wire.TrickFull), ours)
        bert = next(c for c in connections if c.child.childName == "Bert")
        self.assertEqual(bert.childSent(wire.TrickFull), bert.parentSent(wire.TrickFull))
        refused = self.capture.lines("refused")
        self.assertEqual([line for line in refused if "refused announcement" not in line], [])
        self.assertEqual(self.capture.tracebacks, [])

    async def libraryChild(self, port: int, name: str) -> Any:
        """This library's FreeDoko child (its bot playing), connected to our parent."""
        from gameproto.test.test_doppelkopf_layers import Child

        child = Child(name)
        await connectProtocol(TCP4ClientEndpoint(_reactor, "127.0.0.1", port), child)

        def close() -> None:
            if child.transport is not None:
                child.transport.loseConnection()

        self.addCleanup(close)
        return child

    async def tableOf(self, server: FreeDokoServer) -> Any:
        """The table of the one party our parent plays, once it started."""
        for _ in range(300):
            if server.playing:
                break
            await task.deferLater(_reactor, 0.1, lambda: None)
        (room,) = server.playing
        assert room.table is not None
        return room.table

    async def test_rejected(self) -> None:
        """
        A real child that comes when no table is free: ``connection
        rejected``, and the connection left open, as the real parent does
        (closed, the real child crashed, signal 11, now and then); the real
        child goes on running.
        """
        server, factory, port = self.serve(botsAfter=0.5, seed=3, maxTables=1, botDelay=0.2)
        lib = await self.libraryChild(port, "Lib")
        table = await self.tableOf(server)
        (late,) = self.children(port, ["Late"])
        connections = cast(list[RecordingProtocol], factory.connections)  # type: ignore[attr-defined]
        for _ in range(100):
            if len(connections) == 2 and stateName(connections[1].child.machine) == "rejected" \
                    or late.process.ended.called:
                break
            await task.deferLater(_reactor, 0.05, lambda: None)
        rejected = connections[1]
        self.assertEqual(rejected.sent, [wire.ServerHello(), wire.ConnectionRejected()])
        await task.deferLater(_reactor, 5.0, lambda: None)
        self.assertEqual(stateName(rejected.child.machine), "rejected")
        self.assertTrue(late.process.running, late.process.describe())
        self.assertFalse(table.finished)
        lib.transport.loseConnection()
        await task.deferLater(_reactor, 0.5, lambda: None)
        self.assertTrue(table.finished)

    async def test_backTooLate(self) -> None:
        """
        A real child killed mid-party comes back under its name, and the
        party ends (the last other child leaves) before its seat is back:
        it is told so in a chat line, its connection is left open, and it
        goes on running (closed, it crashed with signal 11).
        """
        server, factory, port = self.serve(botsAfter=1.0, seed=3, botDelay=0.05)
        (first,) = self.children(port, ["Anna"])
        lib = await self.libraryChild(port, "Lib")
        table = await self.tableOf(server)
        for _ in range(600):
            if len(table.record.actions) >= 30 or table.finished:
                break
            await task.deferLater(_reactor, 0.05, lambda: None)
        self.assertFalse(table.finished)
        await first.stop()
        await task.deferLater(_reactor, 0.5, lambda: None)
        (again,) = self.children(port, ["Anna"])
        connections = cast(list[RecordingProtocol], factory.connections)  # type: ignore[attr-defined]
        for _ in range(200):
            if connections[-1].child.childName == "Anna" and \
                    stateName(connections[-1].child.machine) == "rejoining":
                break
            await task.deferLater(_reactor, 0.05, lambda: None)
        back = connections[-1]
        self.assertEqual(stateName(back.child.machine), "rejoining")
        lib.transport.loseConnection()
        await task.deferLater(_reactor, 5.0, lambda: None)
        self.assertTrue(table.finished)
        self.assertEqual(back.parentSent(wire.Chat)[-1],
                         wire.Chat("gameproto: the party you came back to is over"))
        self.assertEqual(stateName(back.child.machine), "finished")
        self.assertTrue(again.process.running, again.process.describe())
        self.assertEqual(self.capture.tracebacks, [])


class GenscherChild(FreeDokoClientProtocol):
    """
    This library's child at a real parent: its bot plays, but names the
    next player as genscher partner whenever a card may name one.
    """

    def __init__(self, name: str, genscher: bool) -> None:
        super().__init__(name)
        self.genscher = genscher
        self.sent: list[Any] = []
        self.received: list[Any] = []
        self.summaries: list[GameSummary] = []
        self.finished: defer.Deferred[None] = defer.Deferred()

    def sendMessage(self, message: Any) -> None:
        self.sent.append(message)
        super().sendMessage(message)

    def messageReceived(self, message: Any) -> None:
        self.received.append(message)
        super().messageReceived(message)

    def chooseGenscher(self, view: DoppelkopfView, card: str) -> int | None:
        return (view.seat + 1) % 4 if self.genscher else super().chooseGenscher(view, card)

    def gameFinished(self, summary: GameSummary, totals: tuple[int, ...]) -> None:
        self.summaries.append(summary)

    def partyFinished(self, totals: tuple[int, ...], summaries: list[GameSummary]) -> None:
        if not self.finished.called:
            self.finished.callback(None)


class RealParentGenscherTests(TestCase):
    """This library's child at the real FreeDoko parent, under the rule ``genscher``."""

    timeout = 240

    def setUp(self) -> None:
        findBinary()

    async def party(self, seed: int, genscher: bool) -> GenscherChild:
        """One round at a real parent dealing from ``seed``, our child its one child."""
        port = freePort()
        parent = spawnFreeDoko(_reactor, "parent", port, seed=seed, waitChildren=1,
                               lifetime=200, rules={"number of rounds limited": "true",
                                                    "number of rounds": "1", "genscher": "true"})
        self.addCleanup(parent.stop)
        child = GenscherChild("Anna", genscher)
        for _ in range(50):
            try:
                await connectProtocol(TCP4ClientEndpoint(_reactor, "127.0.0.1", port), child)
                break
            except error.ConnectionRefusedError:
                await task.deferLater(_reactor, 0.2, lambda: None)
        self.addCleanup(lambda: child.leave("the test is over"))
        await child.finished.addTimeout(150, _reactor)
        self.assertEqual((child.mismatches, child.problem), ([], None), parent.process.describe())
        return child

    async def test_ourGenscher(self) -> None:
        """
        Our child names a partner with the first of both trump kings (seed
        8, player 2's hand): the real parent takes it and echoes
        ``genscher = 2, 3`` before the card, as its own.
        """
        child = await self.party(8, True)
        self.assertEqual([m for m in child.sent if isinstance(m, wire.Genscher)],
                         [wire.Genscher(2, 3)])
        told = [m for m in child.received if isinstance(m, wire.Genscher)]
        self.assertEqual(told, [wire.Genscher(2, 3)])
        echo = child.received.index(wire.Genscher(2, 3))
        self.assertEqual(child.received[echo + 1], wire.CardPlayed(
            2, wire.Card("diamond", "king"), "network"))
        self.assertIn(GENSCHER, [s.gameType for s in child.summaries])

    async def test_theirGenscher(self) -> None:
        """
        The real parent's AI (player 1, seed 9) plays a genscher with player
        0: our child follows it, game and scores, without a difference.
        """
        child = await self.party(9, False)
        self.assertEqual([m for m in child.received if isinstance(m, wire.Genscher)],
                         [wire.Genscher(1, 0)])
        (game,) = [s for s in child.summaries if s.gameType == GENSCHER]
        self.assertEqual((game.soloplayer, game.teams[0], game.teams[1]), (1, RE, RE))
