"""
The hub: the live tables of every protocol, guests of one protocol seated by
another's matchmaker, vacated seats decided by each table's host, the games
the hub hosts itself, and restoring the games a previous run left unfinished.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.trial.unittest import SynchronousTestCase

from gameproto.connect4 import wire as connect4Wire
from gameproto.connect4.protocol import Connect4ServerProtocol
from gameproto.connect4.server import Connect4Server, Connect4ServerFactory, Connect4Settings
from gameproto.engine.contract import JSON, Bot, Errors, GameEngine, Instructions, Seat
from gameproto.engine.hub import GuestSeat, Hub, HubSettings, OpenSeat, botName, isBotName
from gameproto.engine.record import GameRecord, MemoryRecordStore, RecordedAction
from gameproto.engine.registry import EngineRegistry
from gameproto.engine.table import BotSeat, Table
from gameproto.games.connect4 import ENGINE as CONNECT4, Connect4Game
from gameproto.games.tarot import TAROT
from gameproto.maitretarot.server import TarotServer, TarotSettings
from gameproto.test.hardening_helpers import LogCapture


class Guest:
    """A guest of no protocol in particular: it records what it is told."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.updates: list[tuple[Table, Seat, Instructions]] = []
        self.aborts: list[tuple[Table, Seat, str]] = []

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        self.updates.append((table, seat, instructions))

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        self.aborts.append((table, seat, reason))

    @property
    def seat(self) -> tuple[Table, Seat]:
        """The table and seat its first update gave it."""
        table, seat, _ = self.updates[0]
        return table, seat


class Botless:
    """Connect Four under another name, with no bot."""

    name = "botless"
    parameters = CONNECT4.parameters

    def start(self, params: Mapping[str, JSON], initvalues: Mapping[str, JSON] | None = None,
              rng: random.Random | None = None) -> GameEngine | Errors:
        return CONNECT4.start(params, initvalues, rng)

    def bot(self, params: Mapping[str, JSON]) -> Bot | None:
        return None


def makeHub(clock: Clock | None = None, store: MemoryRecordStore | None = None,
            **settings: Any) -> Hub:
    registry = EngineRegistry({CONNECT4.name: CONNECT4, TAROT.name: TAROT,
                               Botless.name: Botless()})
    return Hub(clock or Clock(), store or MemoryRecordStore(), random.Random(7), registry,
               settings=HubSettings(**settings))


def hosted(case: SynchronousTestCase, hub: Hub, engine: str, init: dict[str, JSON] | None = None,
           bots: tuple[int, ...] = ()) -> Table:
    """A game the hub hosts, failing the test if it cannot start."""
    results: list[Table | Errors | str] = []
    hub.newGame(engine, init or {}, bots).addCallback(results.append)
    (table,) = results
    assert isinstance(table, Table), table
    return table


class TCPPlayer:
    """A Protuissance 4 client's connection, on a StringTransport."""

    def __init__(self, server: Connect4Server, nick: bytes) -> None:
        protocol = Connect4ServerFactory(server).buildProtocol(None)
        assert isinstance(protocol, Connect4ServerProtocol)
        self.protocol: Connect4ServerProtocol = protocol
        self.transport: StringTransport = StringTransport()
        self.protocol.makeConnection(self.transport)
        self.protocol.dataReceived(b"0" + nick + b"\r\n")


class Connect4MatchmakerTests(SynchronousTestCase):
    """A guest of another protocol in Protuissance 4's queue, beside its TCP players."""

    def setUp(self) -> None:
        self.clock = Clock()
        self.hub = makeHub(self.clock)
        self.server = Connect4Server(Connect4Settings(timeout=3, firstMoveBonus=1,
                                                      rematchDelay=0), hub=self.hub)
        self.matchmaker = self.hub.matchmakers["connect4"]

    def match(self, name: str = "guest") -> tuple[Guest, TCPPlayer, Table, Seat]:
        guest = Guest(name)
        self.assertIsNone(self.matchmaker.enqueue(guest))
        tcp = TCPPlayer(self.server, b"tcpy")
        table, seat = guest.seat
        return guest, tcp, table, seat

    def test_matchmakerOnTheHub(self) -> None:
        self.assertEqual((self.matchmaker.engine, self.matchmaker.title),
                         ("connect4", "Protuissance 4"))

    def test_guestSeatedBesideATCPPlayer(self) -> None:
        """The queue pairs the guest with a TCP player; the table is the hub's to find."""
        guest, tcp, table, seat = self.match()
        self.assertEqual(sorted(table.record.seats), ["guest", "tcpy"])
        self.assertIs(self.hub.findTable(table.id), table)
        self.assertFalse(self.hub.hosts(table))
        self.assertIn(b"guest", tcp.transport.value())
        holder = table.holders[seat]
        assert isinstance(holder, GuestSeat)
        self.assertIs(holder.guest, guest)

    def test_vacateIsResigning(self) -> None:
        """The host decides: in Protuissance 4, a guest who leaves resigns."""
        guest, tcp, table, seat = self.match()
        self.hub.vacate(table, seat)
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions[-1], RecordedAction(seat, None, 0.0, "resign"))
        self.assertEqual(table.record.scores, [1, 0] if seat == 1 else [0, 1])
        self.assertTrue(guest.updates[-1][2].game_state.gameover)
        self.assertIsNone(self.hub.findTable(table.id))
        self.hub.vacate(table, seat)  # a finished table: nothing more happens

    def test_guestHasProtuissanceTime(self) -> None:
        """Timeout plus the first-move bonus, then the timeout; out of time, it resigns."""
        guest, tcp, table, seat = self.match()
        holder = table.holders[seat]
        self.assertEqual(holder.turnTimeout(table, seat), 4.0)
        first = next(iter(table.waiting))
        table.act(first, 3)
        self.assertEqual(holder.turnTimeout(table, seat), 3.0)
        holder.timedOut(table, seat)
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions[-1].kind, "resign")
        self.assertEqual(table.record.actions[-1].seat, seat)

    def test_nickRule(self) -> None:
        """Protuissance 4's nick rule, and a guest's name is never cut."""
        TCPPlayer(self.server, b"tcpy")
        rule = "a Connect Four name is 1 to 16 of A-Z a-z 0-9 _ -"
        for name in ("no spaces!", "", "x" * 17, "é"):
            self.assertEqual(self.matchmaker.enqueue(Guest(name)), rule, name)
        self.assertEqual(self.matchmaker.enqueue(Guest("tcpy")), "the name 'tcpy' is taken")
        self.assertEqual(connect4Wire.acceptNick(b"x" * 17), "x" * 16)

    def test_dequeue(self) -> None:
        guest = Guest("quitter")
        self.assertIsNone(self.matchmaker.enqueue(guest))
        self.assertEqual(len(self.server.queue), 1)
        self.matchmaker.dequeue(guest)
        self.assertEqual((len(self.server.queue), self.server.nicks), (0, {}))
        self.matchmaker.dequeue(guest)  # twice: nothing more
        self.assertIsNone(self.matchmaker.enqueue(Guest("quitter")))

    def test_nickFreeOnceTheGameIsOver(self) -> None:
        guest, tcp, table, seat = self.match()
        self.assertIn("guest", self.server.nicks)
        self.hub.vacate(table, seat)
        self.assertNotIn("guest", self.server.nicks)
        self.assertIsNone(self.matchmaker.enqueue(Guest("guest")))


class TarotMatchmakerTests(SynchronousTestCase):
    """A guest of another protocol at a MaîtreTarot table, through the hub."""

    def test_guestAtATarotTable(self) -> None:
        clock = Clock()
        hub = makeHub(clock)
        TarotServer(TarotSettings(botsAfter=5), hub=hub)
        matchmaker = hub.matchmakers["tarot"]
        self.assertEqual((matchmaker.engine, matchmaker.title), ("tarot", "MaîtreTarot"))
        guest = Guest("alice")
        self.assertIsNone(matchmaker.enqueue(guest))
        self.assertEqual(guest.updates, [])
        clock.advance(5)
        table, seat = guest.seat
        self.assertEqual(table.record.seats, ["alice", "bot2", "bot3", "bot4"])
        self.assertIs(hub.findTable(table.id), table)
        told = len(guest.updates)
        hub.vacate(table, seat)
        self.assertNotIsInstance(table.holders[seat], GuestSeat)
        clock.advance(60)
        self.assertEqual(len(guest.updates), told)


class HostedGameTests(SynchronousTestCase):
    """Games the hub hosts itself: created by name, joined, left."""

    def test_newGame(self) -> None:
        hub = makeHub()
        table = hosted(self, hub, "connect4", bots=(2,))
        self.assertTrue(hub.hosts(table))
        self.assertIs(hub.findTable(table.id), table)
        self.assertIsInstance(table.holders[0], OpenSeat)
        self.assertIsInstance(table.holders[1], BotSeat)
        self.assertEqual(table.record.seats, ["(open)", "bot2"])
        self.assertEqual(hub.openSeats(table), [0])

    def test_newGameRefused(self) -> None:
        hub = makeHub()
        answers: list[Table | Errors | str] = []
        for engine, init, bots in (("chess", {}, ()), ("connect4", {}, (3,)),
                                   ("botless", {}, (1,)), ("connect4", {}, (2, 2)),
                                   ("connect4", {"width": 1}, ())):
            hub.newGame(engine, init, bots).addCallback(answers.append)
        self.assertEqual(answers[:4], ["no engine 'chess'", "bots must be players 1..2",
                                       "the engine botless has no bot",
                                       "bots must be players 1..2, each named once"])
        self.assertIsInstance(answers[4], Errors)
        self.assertEqual(hub.tables, {})

    def test_join(self) -> None:
        logged = LogCapture(self)
        hub = makeHub()
        table = hosted(self, hub, "connect4", bots=(2,))
        guest = Guest("alice")
        self.assertEqual(hub.join(table.id, guest, 2),
                         f"player 2 of game {table.id} is not free")
        self.assertIsNone(hub.join(table.id, guest))
        self.assertEqual(logged.lines("gameproto.hub"), [f"game {table.id}: alice takes player 1"])
        self.assertEqual(guest.seat, (table, 0))
        self.assertEqual(table.record.seats, ["alice", "bot2"])
        self.assertEqual(hub.join(table.id, Guest("bob")), f"game {table.id} has no free seat")
        self.assertEqual(hub.join(999, Guest("bob")),
                         "no open game 999 (games of the other protocols: queue)")

    def test_joinOnlyHostedGames(self) -> None:
        """A table another protocol formed is not the hub's to seat anyone at."""
        hub = makeHub()
        server = Connect4Server(Connect4Settings(rematchDelay=0), hub=hub)
        TCPPlayer(server, b"one")
        TCPPlayer(server, b"two")
        (table,) = server.tables
        self.assertIs(hub.findTable(table.id), table)
        self.assertEqual(hub.join(table.id, Guest("bob")),
                         f"no open game {table.id} (games of the other protocols: queue)")

    def test_vacatedSeatGoesToTheBot(self) -> None:
        hub = makeHub()
        table = hosted(self, hub, "connect4")
        guest = Guest("alice")
        hub.join(table.id, guest, 1)
        hub.vacate(table, 0)
        self.assertIsInstance(table.holders[0], BotSeat)
        self.assertEqual(table.record.seats, ["alice (bot)", "(open)"])

    def test_vacatedSeatOpensWithoutABot(self) -> None:
        hub = makeHub(openSeatTimeout=50)
        table = hosted(self, hub, "botless")
        hub.join(table.id, Guest("alice"), 1)
        hub.vacate(table, 0)
        self.assertIsInstance(table.holders[0], OpenSeat)
        self.assertEqual(table.holders[0].turnTimeout(table, 0), 50)
        self.assertEqual(hub.openSeats(table), [0, 1])

    def test_guestTime(self) -> None:
        """The hub's time per action; then the engine's bot plays, or the seat resigns."""
        clock = Clock()
        hub = makeHub(clock, timeout=10)
        table = hosted(self, hub, "connect4")
        hub.join(table.id, Guest("alice"), 1)
        self.assertEqual(table.holders[0].turnTimeout(table, 0), 10)
        clock.advance(10)
        self.assertEqual(table.turn, 1)
        botless = hosted(self, hub, "botless")
        hub.join(botless.id, Guest("alice"), 1)
        clock.advance(10)
        self.assertTrue(botless.finished)
        self.assertEqual(botless.record.actions, [RecordedAction(0, None, 20.0, "resign")])

    def test_guestHearsOnlyWhileItHoldsTheSeat(self) -> None:
        hub = makeHub()
        table = hosted(self, hub, "connect4")
        guest = Guest("alice")
        hub.join(table.id, guest, 1)
        table.abort("the engine broke")
        self.assertEqual(guest.aborts, [(table, 0, "the engine broke")])
        other = hosted(self, hub, "connect4")
        late = Guest("late")
        hub.join(other.id, late, 1)
        left = other.holders[0]
        hub.vacate(other, 0)
        told = len(late.updates)
        left.update(other, 0, other.engine.instructions())
        other.abort("over")
        self.assertEqual((len(late.updates), late.aborts), (told, []))


class RestoreTests(SynchronousTestCase):
    """The games a previous run left unfinished, hosted again."""

    def played(self, store: MemoryRecordStore) -> Table:
        """A Connect Four game against the bot, a few moves in, in ``store``."""
        clock = Clock()
        hub = makeHub(clock, store)
        table = hosted(self, hub, "connect4", bots=(2,))
        hub.join(table.id, Guest("alice"), 1)
        for column in (0, 1, 2):
            table.act(0, column)
            clock.advance(0)
        self.assertEqual(table.turn, 6)
        return table

    def test_restore(self) -> None:
        store = MemoryRecordStore()
        table = self.played(store)
        again = makeHub(Clock(), store)
        restored: list[list[int]] = []
        again.restore().addCallback(restored.append)
        self.assertEqual(restored, [[table.id]])
        twin = again.findTable(table.id)
        assert twin is not None
        self.assertTrue(again.hosts(twin))
        engine = twin.engine
        assert isinstance(engine, Connect4Game) and isinstance(table.engine, Connect4Game)
        self.assertEqual(engine.board, table.engine.board)
        self.assertIsInstance(twin.holders[0], OpenSeat)
        self.assertIsInstance(twin.holders[1], BotSeat)
        guest = Guest("alice")
        self.assertIsNone(again.join(table.id, guest, 1))
        self.assertEqual(guest.seat, (twin, 0))
        restored.clear()
        again.restore().addCallback(restored.append)
        self.assertEqual(restored, [[]])  # live here already

    def test_restoreAPlayersBot(self) -> None:
        """A seat a bot took over from alice ("alice (bot)") comes back as a bot."""
        store = MemoryRecordStore()
        table = self.played(store)
        table.record.seats[0] = botName("alice", 0)
        again = makeHub(Clock(), store)
        again.restore()
        twin = again.findTable(table.id)
        assert twin is not None
        self.assertIsInstance(twin.holders[0], BotSeat)
        self.assertEqual(twin.record.seats, ["alice (bot)", "bot2"])

    def test_botNames(self) -> None:
        self.assertEqual(botName("alice", 0), "alice (bot)")
        self.assertEqual([botName(name, 1) for name in ("(open)", "", "bot2", "alice (bot)")],
                         ["bot2"] * 4)
        self.assertEqual([isBotName(name) for name in ("bot3", "alice (bot)", "bot", "botty",
                                                       "alice")],
                         [True, True, False, False, False])

    def test_unknownEngineAbandoned(self) -> None:
        store = MemoryRecordStore()
        record = GameRecord(store.nextId(), "gone", {}, {}, ["a", "b"], 0.0)
        store.gameStarted(record)
        restored: list[list[int]] = []
        makeHub(store=store).restore().addCallback(restored.append)
        self.assertEqual(restored, [[]])
        self.assertEqual(record.status, "aborted")
        self.assertEqual(record.error, "no engine 'gone' to restore it")

    def test_recordThatDoesNotReplay(self) -> None:
        store = MemoryRecordStore()
        table = self.played(store)
        table.record.actions.append(RecordedAction(0, 99, 1.0))
        restored: list[list[int]] = []
        makeHub(store=store).restore().addCallback(restored.append)
        self.assertEqual(restored, [[]])
        self.assertEqual(table.record.status, "aborted")
        assert table.record.error is not None
        self.assertIn("could not be restored", table.record.error)
