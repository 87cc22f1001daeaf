"""Tests for tables: seats, views, turn clocks, records."""

from __future__ import annotations

import gc
import weakref
from typing import Any, cast

import attrs
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.trial.unittest import SynchronousTestCase

from gameproto.engine.contract import (
    JSON,
    BadFormat,
    EngineFactory,
    Errors,
    Event,
    GameEngine,
    GameState,
    Instructions,
    Parameter,
    RequestedAction,
    Seat,
    UnexpectedAction,
    WrongAction,
    WrongActionSubtype,
)
from gameproto.engine.record import (
    GameRecord,
    MemoryRecordStore,
    RecordedAction,
    replay,
)
from gameproto.engine.table import (
    AbortAware,
    BotSeat,
    DeclaresPerson,
    Releasable,
    Table,
    isPerson,
)
from gameproto.games.connect4 import ENGINE, Connect4Game
from gameproto.test.engine_helpers import (
    SEAT0_WINS,
    SEAT1_WINS,
    boardOf,
    firstLegal,
    Holder,
    makeTable,
)
from gameproto.test.hardening_helpers import LogCapture
from gameproto.test.runtime import onlyRefcounted


@attrs.define
class CountingStore(MemoryRecordStore):
    """A memory store that also counts what it was told."""

    accepted: list[RecordedAction] = attrs.Factory(list)
    finished: list[GameRecord] = attrs.Factory(list)

    def actionAccepted(self, record: GameRecord, action: RecordedAction) -> None:
        self.accepted.append(action)

    def gameFinished(self, record: GameRecord) -> None:
        self.finished.append(record)


class SecretGame:
    """
    A tiny two-seat engine with private events: seat 0 then seat 1 each play
    once, drawing a card only they see.
    """

    players = 2

    def __init__(self) -> None:
        self.params: dict[str, JSON] = {}
        self.initvalues: dict[str, JSON] = {"cards": ["ace", "king"]}
        self.played = 0

    def _instructions(self, events: tuple[Event, ...]) -> Instructions:
        over = self.played == 2
        requested = () if over else (RequestedAction(self.played, "KEY"),)
        return Instructions(requested, GameState((0, 0), over), events)

    def instructions(self) -> Instructions:
        return attrs.evolve(self._instructions(()), initvalues=self.initvalues)

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if seat != self.played:
            return Errors((UnexpectedAction(seat, action),))
        self.played += 1
        card = self.initvalues["cards"][seat]
        return self._instructions((Event("drew", card, seat, frozenset({seat})),
                                   Event("played", action, seat)))

    def resign(self, seat: Seat) -> Instructions:
        self.played = 2
        return self._instructions(())


class SecretFactory:
    name = "secret"
    parameters: tuple[Parameter, ...] = ()

    def start(self, params: Any, initvalues: Any = None, rng: Any = None) -> SecretGame:
        return SecretGame()


class TableTests(SynchronousTestCase):
    """Tables with scripted holders on a fake clock."""

    def setUp(self) -> None:
        self.clock = Clock()

    def test_wrongSeatCount(self) -> None:
        self.assertRaises(ValueError, makeTable, [Holder("a")], self.clock)

    def test_badParams(self) -> None:
        self.assertRaises(ValueError, makeTable, [Holder("a"), Holder("b")], self.clock,
                          {"width": 2})

    def test_start(self) -> None:
        """Start stores the record and tells every seat where the game stands."""
        store = CountingStore()
        self.clock.advance(12)
        a, b = Holder("alice"), Holder("bob")
        table = makeTable([a, b], self.clock, {"width": 8}, store)
        self.assertIsNone(store.get(table.id))
        self.assertEqual((a.updates, b.updates), ([], []))
        table.start()
        self.assertIs(store.get(table.id), table.record)
        self.assertEqual(table.record.seats, ["alice", "bob"])
        self.assertEqual(table.record.engine, "connect4")
        self.assertEqual(table.record.params, {"players": 2, "width": 8, "height": 6})
        self.assertEqual(table.record.started, 12)
        self.assertEqual(table.waiting, frozenset({0}))
        self.assertEqual(table.turn, 0)
        self.assertFalse(table.finished)
        self.assertEqual([s for s, _ in a.updates], [0])
        self.assertEqual([s for s, _ in b.updates], [1])
        self.assertEqual(a.updates[0][1], table.engine.instructions())
        self.assertEqual(a.updates[0][1].initvalues, {})
        table.start()
        self.assertEqual((len(a.updates), len(b.updates)), (1, 1))

    def test_person(self) -> None:
        """
        A holder is a person unless its declared C{person} is false: a bot
        is not, a holder declaring nothing is, one declaring true is.
        """
        bot = BotSeat(cast(Any, None), self.clock)
        plain = Holder("alice")
        declared = Holder("bob")
        declared.person = True  # type: ignore[attr-defined]
        self.assertIsInstance(bot, DeclaresPerson)
        self.assertNotIsInstance(plain, DeclaresPerson)
        self.assertEqual([isPerson(bot), isPerson(plain), isPerson(declared)],
                         [False, True, True])
        self.assertTrue(makeTable([plain, bot], self.clock).hasPerson())
        self.assertFalse(makeTable([bot, BotSeat(cast(Any, None), self.clock)],
                                   self.clock).hasPerson())
        declared.person = False  # type: ignore[attr-defined]
        self.assertFalse(makeTable([bot, declared], self.clock).hasPerson())

    def test_storeIds(self) -> None:
        store = MemoryRecordStore()
        first = makeTable([Holder("a"), Holder("b")], self.clock, store=store)
        second = makeTable([Holder("a"), Holder("b")], self.clock, store=store)
        self.assertNotEqual(first.id, second.id)
        second.start()
        self.assertIs(store.get(second.id), second.record)
        self.assertIsNone(store.get(first.id))

    def test_perSeatInstructions(self) -> None:
        """Each holder gets only the events its seat may see."""
        a, b = Holder("a"), Holder("b")
        factory = SecretFactory()
        # A double of what a table uses of an engine and its factory.
        table = Table(cast(EngineFactory, factory), cast(GameEngine, factory.start({})), [a, b],
                      self.clock, MemoryRecordStore())
        table.start()
        self.assertIsInstance(table.act(0, "x"), Instructions)
        self.assertIsInstance(table.act(1, "y"), Instructions)
        seen = [[(e.kind, e.data) for _, i in h.updates for e in i.events] for h in (a, b)]
        self.assertEqual(seen[0], [("drew", "ace"), ("played", "x"), ("played", "y")])
        self.assertEqual(seen[1], [("played", "x"), ("drew", "king"), ("played", "y")])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.initvalues, {"cards": ["ace", "king"]})

    def test_actRecords(self) -> None:
        """An accepted action is recorded with the clock time and told to every seat."""
        store = CountingStore()
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock, store=store)
        table.start()
        self.clock.advance(5)
        outcome = table.act(0, 3)
        self.assertIsInstance(outcome, Instructions)
        self.assertEqual(table.record.actions, [RecordedAction(0, 3, 5.0)])
        self.assertEqual(store.accepted, table.record.actions)
        self.assertEqual(table.turn, 1)
        self.assertEqual(table.waiting, frozenset({1}))
        self.assertIs(a.updates[-1][1], outcome)
        self.assertIs(b.updates[-1][1], outcome)

    def test_actRefused(self) -> None:
        """A refused action returns the errors; nothing recorded, nobody told."""
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        self.assertEqual(table.act(1, 3), Errors((UnexpectedAction(1, 3),)))
        self.assertEqual(table.act(0, 9), Errors((WrongAction(
            WrongActionSubtype.OUT_OF_ZONE, 0, 9,
            table.engine.instructions().requested_actions[0].asJSON()),)))
        self.assertEqual(table.act(0, "3"), Errors((BadFormat(),)))
        self.assertEqual(table.record.actions, [])
        self.assertEqual((len(a.updates), len(b.updates)), (1, 1))

    def test_actBeforeStart(self) -> None:
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        self.assertEqual(table.act(0, 3), Errors((UnexpectedAction(0, 3),)))
        table.resign(0)
        self.assertEqual(table.record.actions, [])
        self.assertEqual(a.updates, [])

    def test_actAfterEnd(self) -> None:
        store = CountingStore()
        table = makeTable([Holder("a"), Holder("b")], self.clock, store=store)
        table.start()
        for column in SEAT0_WINS:
            table.act(boardOf(table).turn, column)
        self.assertTrue(table.finished)
        self.assertEqual(table.record.scores, [1, 0])
        self.assertEqual(store.finished, [table.record])
        self.assertEqual(table.act(1, 2), Errors((UnexpectedAction(1, 2),)))
        table.resign(1)
        self.assertEqual(len(table.record.actions), len(SEAT0_WINS))
        self.assertEqual(table.waiting, frozenset())

    def test_turnTimeoutPerTurn(self) -> None:
        """The holder to act is asked for its time each turn; the clock runs for that seat only."""
        a, b = Holder("a", timeout=10), Holder("b", timeout=20)
        table = makeTable([a, b], self.clock)
        self.assertIsNone(table.timeLeft(0))
        table.start()
        self.assertEqual((a.timeoutAsked, b.timeoutAsked), ([(0, 0)], []))
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (10, None))
        self.clock.advance(4)
        self.assertEqual(table.timeLeft(0), 6)
        table.act(0, 3)
        self.assertEqual((a.timeoutAsked, b.timeoutAsked), ([(0, 0)], [(1, 1)]))
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (None, 20))
        self.clock.advance(19)
        table.act(1, 3)
        self.assertEqual(a.timeoutAsked, [(0, 0), (0, 2)])
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (10, None))
        self.assertEqual((a.timeouts, b.timeouts), ([], []))

    def test_clocksReusedMoveAfterMove(self) -> None:
        """
        A move neither cancels a pending call nor schedules a new one: the
        clock of the seat that moved lapses, the next seat's is pushed back.
        """
        a, b = Holder("a", timeout=10), Holder("b", timeout=10)
        table = makeTable([a, b], self.clock)
        table.start()
        table.act(0, 0)
        calls = self.clock.getDelayedCalls()
        self.assertEqual(len(calls), 2)
        for column in (1, 0, 1, 0, 1):
            table.act(boardOf(table).turn, column)
            self.clock.advance(1)
        self.assertEqual(set(map(id, self.clock.getDelayedCalls())), set(map(id, calls)))
        self.assertEqual(table.timeLeft(boardOf(table).turn), 9)

    def test_clockBroughtForwardIsANewCall(self) -> None:
        """
        A clock brought forward is a new call (the reactor would look for
        the pending one through its whole queue), one pushed back the same.
        """
        a, b = Holder("a", timeout=10), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        (first,) = self.clock.getDelayedCalls()
        table.restartClock(0, 20)
        self.assertEqual(self.clock.getDelayedCalls(), [first])
        table.restartClock(0, 5)
        (second,) = self.clock.getDelayedCalls()
        self.assertIsNot(second, first)
        self.assertEqual(table.timeLeft(0), 5)

    def test_lapsedClockIsNoTimeout(self) -> None:
        """The clock of a seat that moved runs out unheeded while the other seat thinks."""
        a, b = Holder("a", timeout=1), Holder("b", timeout=100)
        table = makeTable([a, b], self.clock)
        table.start()
        table.act(0, 3)
        self.clock.advance(50)
        self.assertEqual((a.timeouts, b.timeouts), ([], []))
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (None, 50))
        self.assertFalse(table.finished)
        table.act(1, 3)
        self.assertEqual(table.timeLeft(0), 1)
        self.clock.advance(1)
        self.assertEqual(a.timeouts, [(0, 51)])

    def test_noLimit(self) -> None:
        """A holder without a time limit is never timed out."""
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        self.clock.advance(10_000)
        self.assertIsNone(table.timeLeft(0))
        self.assertEqual(a.timeouts, [])
        self.assertFalse(table.finished)

    def test_timeoutResigns(self) -> None:
        """A holder that does nothing when its time runs out is resigned."""
        a, b = Holder("a", timeout=10), Holder("b", timeout=10)
        table = makeTable([a, b], self.clock)
        table.start()
        table.act(0, 3)
        self.clock.advance(9.5)
        self.assertEqual(b.timeouts, [])
        self.clock.advance(0.5)
        self.assertEqual(b.timeouts, [(1, 10)])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions[-1], RecordedAction(1, None, 10, "resign"))
        self.assertEqual(table.record.scores, [1, 0])
        self.assertTrue(a.updates[-1][1].game_state.gameover)
        self.assertEqual((table.timeLeft(0), table.timeLeft(1)), (None, None))
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_timeoutRestartsClock(self) -> None:
        """A holder may restart its clock from timedOut; the next expiry with no action resigns."""
        restarted: list[bool] = []

        def onTimeout(table: Table, seat: Seat) -> None:
            if not restarted:
                restarted.append(True)
                table.restartClock(seat, 5)

        a = Holder("a", timeout=10, onTimeout=onTimeout)
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(10)
        self.assertFalse(table.finished)
        self.assertEqual(table.timeLeft(0), 5)
        self.clock.advance(5)
        self.assertEqual(a.timeouts, [(0, 10), (0, 15)])
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, None, 15, "resign")])

    def test_timeoutPlayFor(self) -> None:
        """A holder that lets a bot play for it on timeout is not resigned."""
        a = Holder("a", timeout=10, onTimeout=lambda t, s: t.playFor(s, firstLegal))
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(10)
        self.assertFalse(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, 0, 10)])
        self.assertEqual(table.waiting, frozenset({1}))

    def test_timedOutRaises(self) -> None:
        """A holder whose timedOut raises is still resigned: no stuck game, the error logged."""
        def onTimeout(table: Table, seat: Seat) -> None:
            raise RuntimeError("timedOut broke")

        a, b = Holder("a", timeout=10, onTimeout=onTimeout), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        try:
            self.clock.advance(10)
        except RuntimeError:
            self.fail("the holder's timedOut error escaped the table's clock")
        self.assertTrue(table.finished)
        self.assertEqual(table.record.scores, [0, 1])
        self.assertEqual(len(self.flushLoggedErrors(RuntimeError)), 1)

    def test_restartClock(self) -> None:
        """restartClock replaces the deadline; it does nothing for a seat not asked to act."""
        a = Holder("a", timeout=10)
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(8)
        table.restartClock(0, 10)
        self.assertEqual(table.timeLeft(0), 10)
        table.restartClock(1, 10)
        self.assertIsNone(table.timeLeft(1))
        self.clock.advance(9)
        self.assertEqual(a.timeouts, [])
        self.clock.advance(1)
        self.assertEqual(a.timeouts, [(0, 18)])
        self.assertTrue(table.finished)

    def test_replaceWithBot(self) -> None:
        """A bot takes a vacated seat, gets told the game, and plays on."""
        a, b = Holder("a"), Holder("b", timeout=30)
        table = makeTable([a, b], self.clock)
        table.start()
        table.act(0, 3)
        bot = BotSeat(firstLegal, self.clock, "robot")
        table.replace(1, bot)
        self.assertIs(table.holders[1], bot)
        self.assertIsNone(table.timeLeft(1))
        self.clock.advance(0)
        self.assertEqual(table.record.actions[-1].seat, 1)
        self.assertEqual(table.record.actions[-1].action, 0)
        self.assertEqual(table.waiting, frozenset({0}))
        table.act(0, 3)
        self.clock.advance(0)
        self.assertEqual([r.seat for r in table.record.actions], [0, 1, 0, 1])
        self.assertEqual(a.moves(), [(0, 3), (1, 0), (0, 3), (1, 0)])
        self.assertEqual(b.moves(), [(0, 3)])
        self.clock.advance(100)
        self.assertEqual(b.timeouts, [])
        self.assertFalse(table.finished)

    def test_releasedAndAborted(self) -> None:
        """
        Holders that are L{Releasable} hear when their seat goes to someone
        else (replaced, or the game aborted); those L{AbortAware}, and
        watchers, hear why a game was aborted; other holders hear nothing.
        """
        heard: list[tuple[str, Seat | None, str]] = []

        class Listening(Holder):
            def released(self, table: Table, seat: Seat) -> None:
                heard.append(("released", seat, self.name))

            def aborted(self, table: Table, seat: Seat | None, reason: str) -> None:
                heard.append(("aborted", seat, reason))

        class Spectator:
            def update(self, table: Table, seat: None, instructions: Instructions) -> None:
                pass

            def aborted(self, table: Table, seat: Seat | None, reason: str) -> None:
                heard.append(("watcher aborted", seat, reason))

        self.assertIsInstance(Listening("x"), Releasable)
        self.assertIsInstance(Listening("x"), AbortAware)
        self.assertNotIsInstance(Holder("x"), Releasable)
        self.assertNotIsInstance(Holder("x"), AbortAware)
        store = MemoryRecordStore()
        first, plain = Listening("first"), Holder("plain")
        table = makeTable([first, plain], self.clock, store=store)
        table.start()
        table.watch(Spectator())
        second = Listening("second")
        table.replace(0, second)
        table.replace(0, second)  # the same holder again: nothing released
        self.assertEqual(heard, [("released", 0, "first")])
        self.assertEqual(table.record.seats, ["second", "plain"])
        self.assertIs(store.get(table.id), table.record)
        table.abort("the engine broke")
        self.assertEqual(heard[1:], [("released", 0, "second"), ("aborted", 0, "the engine broke"),
                                     ("watcher aborted", None, "the engine broke")])

    def test_replaceInTimedOut(self) -> None:
        """A holder that hands its seat to a bot when its time runs out: the bot plays."""
        def onTimeout(table: Table, seat: Seat) -> None:
            table.replace(seat, BotSeat(firstLegal, table.clock, "robot"))

        a = Holder("a", timeout=10, onTimeout=onTimeout)
        table = makeTable([a, Holder("b")], self.clock)
        table.start()
        self.clock.advance(10)
        self.clock.advance(0)
        self.assertFalse(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, 0, 10)])

    def test_replaceBeforeStartAndAfterEnd(self) -> None:
        """Replacing before start only swaps the holder; after the end it tells nobody."""
        a, b, c = Holder("a"), Holder("b"), Holder("c")
        table = makeTable([a, b], self.clock)
        table.replace(1, c)
        self.assertEqual(c.updates, [])
        table.start()
        self.assertEqual((len(b.updates), len(c.updates)), (0, 1))
        table.resign(0)
        d = Holder("d")
        table.replace(0, d)
        self.assertEqual(d.updates, [])

    def test_updatesInOrderWhenActingInsideUpdate(self) -> None:
        """Holders acting from inside update still see every move, in order, once."""
        script = {0: [0, 0, 0, 0], 1: [1, 1, 1]}
        outcomes: list[Instructions | Errors | Deferred[Instructions | Errors]] = []

        def eager(table: Table, seat: Seat, instructions: Instructions) -> None:
            if instructions.asks(seat) and not instructions.game_state.gameover:
                outcomes.append(table.act(seat, script[seat].pop(0)))

        a, b = Holder("a", onUpdate=eager), Holder("b", onUpdate=eager)
        table = makeTable([a, b], self.clock)
        finished: list[int] = []
        table.whenFinished().addCallback(lambda r: finished.append(len(b.updates)))
        table.start()
        self.assertTrue(table.finished)
        self.assertEqual(finished, [len(SEAT0_WINS) + 1])
        self.assertTrue(all(isinstance(o, Instructions) for o in outcomes))
        played = [(r.seat, r.action) for r in table.record.actions]
        self.assertEqual(played, list(zip([0, 1] * 4, SEAT0_WINS)))
        for holder in (a, b):
            self.assertEqual(holder.moves(), played)
            self.assertEqual(len(holder.updates), len(played) + 1)
            states = [i.game_state.gameover for _, i in holder.updates]
            self.assertEqual(states, [False] * len(played) + [True])

    def test_updateRaises(self) -> None:
        """A holder whose update raises does not stop the others being told."""
        def broken(table: Table, seat: Seat, instructions: Instructions) -> None:
            raise RuntimeError("update broke")

        a, b = Holder("a", onUpdate=broken), Holder("b")
        table = makeTable([a, b], self.clock)
        table.start()
        self.assertIsInstance(table.act(0, 3), Instructions)
        self.assertEqual(len(b.updates), 2)
        self.assertEqual(b.moves(), [(0, 3)])
        self.assertEqual(table.waiting, frozenset({1}))
        self.assertEqual(len(self.flushLoggedErrors(RuntimeError)), 2)

    def test_whenFinished(self) -> None:
        """whenFinished fires once with the record, after every seat got the final update."""
        a, b = Holder("a"), Holder("b")
        table = makeTable([a, b], self.clock)
        fired: list[tuple[GameRecord, bool, bool]] = []
        table.whenFinished().addCallback(lambda r: fired.append(
            (r, a.updates[-1][1].game_state.gameover, b.updates[-1][1].game_state.gameover)))
        table.start()
        for column in SEAT1_WINS[:-1]:
            table.act(boardOf(table).turn, column)
        self.assertEqual(fired, [])
        table.act(1, 0)
        self.assertEqual(fired, [(table.record, True, True)])
        late: list[GameRecord] = []
        table.whenFinished().addCallback(late.append)
        self.assertEqual(late, [table.record])
        self.assertEqual(len(fired), 1)

    def test_whenFinishedFromFinalUpdate(self) -> None:
        """Asked from inside the final update, whenFinished still waits for every seat."""
        fired: list[int] = []
        b = Holder("b")

        def onUpdate(table: Table, seat: Seat, instructions: Instructions) -> None:
            if instructions.game_state.gameover:
                table.whenFinished().addCallback(lambda r: fired.append(len(b.updates)))
                self.assertEqual(fired, [])

        a = Holder("a", onUpdate=onUpdate)
        table = makeTable([a, b], self.clock)
        table.start()
        for column in SEAT0_WINS:
            table.act(boardOf(table).turn, column)
        self.assertEqual(fired, [len(SEAT0_WINS) + 1])

    def test_botsPlayWholeGame(self) -> None:
        """Two bot seats play to the end on the clock; the record replays to the same board."""
        bot = ENGINE.bot({})
        seats = [BotSeat(bot, self.clock, "bot0", delay=1.0),
                 BotSeat(bot, self.clock, "bot1", delay=1.0)]
        table = makeTable(seats, self.clock, {"width": 6, "height": 6})
        done: list[GameRecord] = []
        table.whenFinished().addCallback(done.append)
        table.start()
        self.assertEqual(table.record.actions, [])
        for _ in range(6 * 6 + 1):
            if table.finished:
                break
            self.clock.advance(1)
        self.assertTrue(table.finished)
        self.assertEqual(done, [table.record])
        actions = table.record.actions
        self.assertEqual([a.at for a in actions], [float(i + 1) for i in range(len(actions))])
        self.assertEqual([a.seat for a in actions], [i % 2 for i in range(len(actions))])
        self.assertTrue(all(a.kind == "act" for a in actions))
        again = replay(ENGINE, table.record)
        assert isinstance(again, Connect4Game)
        self.assertEqual(again.board, boardOf(table))
        self.assertTrue(again.over)
        scores = table.record.scores
        assert scores is not None
        self.assertIn(scores, ([1, 0], [0, 1], [0, 0]))
        self.assertEqual(self.clock.getDelayedCalls(), [])

    def test_botMoveDroppedAtTheEnd(self) -> None:
        """A bot's move still to come when the game ends is called off, not left pending."""
        bot = BotSeat(firstLegal, self.clock, "bot", delay=1.0)
        table = makeTable([bot, Holder("person")], self.clock)
        table.start()
        self.assertEqual(len(self.clock.getDelayedCalls()), 1)  # the bot's move, in 1 s
        table.resign(1)
        self.assertTrue(table.finished)
        self.assertEqual(self.clock.getDelayedCalls(), [])
        self.clock.advance(2)
        self.assertEqual(table.record.actions[-1].kind, "resign")

    @onlyRefcounted
    def test_finishedTableFreedAtOnce(self) -> None:
        """
        A finished game is freed as soon as nobody holds it, without the
        garbage collector: its clocks ran and were stopped, a bot held a
        seat, a watcher holds the table (as a room does), another came after
        the end. Nothing of it is left in a reference cycle (one would hold
        the whole game until a collection finds it).
        """

        class Keeper:
            def __init__(self) -> None:
                self.table: Table | None = None
                self.updates = 0

            def update(self, table: Table, seat: None, instructions: Instructions) -> None:
                self.table = table
                self.updates += 1

        def play() -> tuple[weakref.ref[Table], Keeper, Keeper]:
            person = Holder("person", timeout=5.0)
            seats = [person, BotSeat(firstLegal, self.clock, "bot", delay=1.0)]
            table = makeTable(seats, self.clock)
            keeper, late = Keeper(), Keeper()
            table.watch(keeper)
            table.start()
            while not table.finished:
                if 0 in table.waiting:
                    table.act(0, firstLegal(boardOf(table), 0))
                self.clock.advance(1)
            table.watch(late)
            return weakref.ref(table), keeper, late

        gc.disable()
        self.addCleanup(gc.enable)
        freed, keeper, late = play()
        self.assertIsNotNone(freed())  # the watchers hold it
        self.assertEqual((keeper.updates > 1, late.updates), (True, 1))
        del keeper, late
        self.assertIsNone(freed())

    def test_botResignsOnRefusedMove(self) -> None:
        """A bot whose move is refused resigns instead of blocking the game."""
        bot = BotSeat(lambda view, seat: 99, self.clock, "silly")
        table = makeTable([bot, Holder("b")], self.clock)
        table.start()
        self.clock.advance(0)
        self.assertTrue(table.finished)
        self.assertEqual(table.record.actions, [RecordedAction(0, None, 0, "resign")])
        self.assertEqual(len(self.flushLoggedErrors()), 0)


class BuggyGame(SecretGame):
    """L{SecretGame} with a bug: ``bug`` says where (``act``, ``resign``, ``seat``)."""

    def __init__(self, bug: str) -> None:
        super().__init__()
        self.bug = bug

    def instructions(self) -> Instructions:
        if self.bug == "seat":  # asks a player the game does not have
            return Instructions((RequestedAction(6, "KEY"),), GameState((0, 0), False), ())
        return super().instructions()

    def act(self, seat: Seat, action: JSON) -> Instructions | Errors:
        if self.bug == "act":
            raise ZeroDivisionError("a bug of the engine")
        return super().act(seat, action)

    def view(self, seat: Seat) -> None:
        return None

    def resign(self, seat: Seat) -> Instructions:
        if self.bug == "resign":
            raise KeyError("a bug of the engine")
        return super().resign(seat)


class EngineBugTests(SynchronousTestCase):
    """An engine that raises, or asks what cannot be: its game ends, aborted; never stuck."""

    def table(self, bug: str, *holders: Any) -> Table:
        factory: Any = SecretFactory()
        game: Any = BuggyGame(bug)
        table = Table(factory, game, list(holders) or [Holder("a"), Holder("b")],
                      Clock(), CountingStore())
        table.start()
        return table

    def test_actRaises(self) -> None:
        """The action is refused, the game aborted with why; one traceback logged, the engine's."""
        logged = LogCapture(self)
        table = self.table("act")
        outcome = table.act(0, "x")
        assert isinstance(outcome, Errors)
        self.assertEqual(outcome.asJSON()["errors"][0]["text"],  # type: ignore[index]
                         "the engine secret failed: a bug of the engine")
        self.assertTrue(table.finished)
        self.assertEqual(table.record.error, "the engine secret failed: a bug of the engine")
        self.assertEqual(len(logged.failures()), 1)
        self.assertEqual(len(self.flushLoggedErrors(ZeroDivisionError)), 1)

    def test_botsOfABuggyEngine(self) -> None:
        """Bots alone at a buggy engine: the game is aborted, not left stuck."""
        clock = Clock()
        table = Table(SecretFactory(), BuggyGame("act"),  # type: ignore[arg-type]
                      [BotSeat(lambda view, seat: "x", clock, "b1", delay=1),
                       BotSeat(lambda view, seat: "x", clock, "b2", delay=1)],
                      clock, CountingStore())
        table.start()
        clock.advance(1)
        self.assertTrue(table.finished)
        self.assertIsNotNone(table.record.error)
        self.flushLoggedErrors(ZeroDivisionError)

    def test_resignRaises(self) -> None:
        table = self.table("resign")
        table.resign(0)
        self.assertTrue(table.finished)
        self.assertEqual(table.record.error, "the engine secret failed: 'a bug of the engine'")
        self.flushLoggedErrors(KeyError)

    def test_playerItHasNot(self) -> None:
        """Instructions that ask for player 7 of a game of two: aborted at once, with why."""
        table = self.table("seat")
        self.assertTrue(table.finished)
        self.assertEqual(table.record.error,
                         "the engine secret failed: it asked for player 7, in a game of 2")
