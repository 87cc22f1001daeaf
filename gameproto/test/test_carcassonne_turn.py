"""
The turn machine of a Carcassonne game (L{gameproto.carcassonne.turn}):
every transition against a recording core, then its timeouts and bots in a
server on string transports and a test clock, and a finished game freed at
once.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any, Callable

from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure
from twisted.trial.unittest import SynchronousTestCase

from gameproto.carcassonne import wire
from gameproto.carcassonne.server import CarcassonneSettings
from gameproto.carcassonne.turn import TurnInputs, TurnMachine, stateName
from gameproto.engine.contract import JSON, Seat

from .carcassonne_helpers import Conn, StubRules, makeServer, startGame
from .runtime import onlyRefcounted

MOVE = {"tile": "tile-u", "x": 72, "y": 73, "orientation": "N", "zone": None}


def wireMove(token: int, n: int = 0) -> wire.Move:
    return wire.Move(n, "tile-u", 72, 73, "N", None, token)


class Core:
    """A L{TurnCore} that records what it is asked and answers as told."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.turns: list[tuple[Seat, int] | None] = [(0, 11), (1, 22), (0, 33)]
        self.awaiting: frozenset[Seat] = frozenset({1, 2})
        self.done = False
        self.ending = False
        self.isSettled = False
        self.bots: set[Seat] = set()
        self.duringNextTurn: Callable[[], None] | None = None
        self.machine: TurnInputs = TurnMachine(self)

    def start(self) -> None:
        self.calls.append(("start",))

    def nextTurn(self, previous: int) -> tuple[Seat, int] | None:
        self.calls.append(("nextTurn", previous))
        if self.duringNextTurn is not None:
            self.duringNextTurn()  # what arrives while the turn passes
        return self.turns.pop(0)

    def offer(self, seat: Seat, token: int) -> None:
        self.calls.append(("offer", seat, token))

    def noop(self, seat: Seat) -> None:
        self.calls.append(("noop", seat))

    def judge(self, seat: Seat, message: wire.Move) -> None:
        self.calls.append(("judge", seat, message.token))

    def relay(self, seat: Seat, move: JSON, token: int) -> frozenset[Seat]:
        self.calls.append(("relay", seat, token))
        return self.awaiting

    def awaitAcks(self) -> None:
        self.calls.append(("awaitAcks",))

    def moveAccepted(self, mover: Seat) -> None:
        self.calls.append(("moveAccepted", mover))

    def gameDone(self) -> bool:
        return self.done

    def stopGame(self, refuser: Seat, mover: Seat) -> str:
        self.calls.append(("stopGame", refuser, mover))
        return "refused"

    def finishGame(self, by: Seat | None) -> None:
        self.calls.append(("finishGame", by))

    def wrapUp(self, reason: str | None) -> None:
        self.calls.append(("wrapUp", reason))

    def tellFinish(self) -> None:
        self.calls.append(("tellFinish",))

    def settled(self) -> bool:
        return self.isSettled

    def mustEnd(self) -> bool:
        return self.ending

    def lacking(self) -> None:
        self.calls.append(("lacking",))

    def botHolds(self, seat: Seat) -> bool:
        return seat in self.bots

    def startBot(self, seat: Seat) -> None:
        self.calls.append(("startBot", seat))

    def botPlays(self, seat: Seat) -> None:
        self.calls.append(("botPlays", seat))

    def expire(self, seat: Seat) -> None:
        self.calls.append(("expire", seat))

    def cancelTimer(self) -> None:
        self.calls.append(("cancelTimer",))

    def taken(self) -> list[tuple[Any, ...]]:
        calls, self.calls = self.calls, []
        return calls


class TurnTests(SynchronousTestCase):
    def setUp(self) -> None:
        self.core = Core()
        self.machine = self.core.machine

    def state(self) -> str:
        return stateName(self.machine)

    def moving(self) -> None:
        """The game started: seat 0 holds token 11."""
        self.machine.begin()
        self.assertEqual(self.core.taken(), [("start",), ("nextTurn", 0), ("offer", 0, 11)])
        self.assertEqual(self.state(), "moving")

    def acks(self) -> None:
        """Seat 0 moved: seats 1 and 2 must answer."""
        self.moving()
        self.machine.moved(0, MOVE)
        self.assertEqual(self.core.taken(), [("cancelTimer",), ("relay", 0, 11), ("awaitAcks",)])
        self.assertEqual(self.state(), "acks")

    def assertIgnored(self, *inputs: Callable[[], None]) -> None:
        """Each of ``inputs`` leaves the state and does nothing."""
        before = self.state()
        for send in inputs:
            send()
            self.assertEqual((self.state(), self.core.taken()), (before, []))

    # -- starting ------------------------------------------------------------------

    def test_startingBegins(self) -> None:
        self.assertEqual(self.state(), "starting")
        self.moving()

    def test_startingNobodyToMove(self) -> None:
        """The table is over at once: the game finishes."""
        self.core.turns = [None]
        self.machine.begin()
        self.assertEqual(self.core.taken(), [("start",), ("nextTurn", 0), ("finishGame", None)])
        self.assertEqual(self.state(), "over")

    def test_startingIgnores(self) -> None:
        m = self.machine
        self.machine.move(1, wireMove(1))
        self.machine.refuse(2)
        self.assertEqual(self.core.taken(), [("noop", 1), ("noop", 2)])
        self.assertIgnored(lambda: m.give(0, 1), lambda: m.moved(0, MOVE),
                           lambda: m.relayed(0, 1, frozenset()), lambda: m.acknowledge(1),
                           lambda: m.allAcked(0, 1), lambda: m.passTurn(1), m.timedOut,
                           m.botReady, lambda: m.left(1))
        self.assertEqual(self.state(), "starting")

    def test_startingEnds(self) -> None:
        for end, calls in ((lambda m: m.finish(1), [("finishGame", 1)]),
                           (lambda m: m.end("why"), [("wrapUp", "why")]),
                           (lambda m: m.tableEnded(), [("tellFinish",), ("wrapUp", None)])):
            core = Core()
            end(core.machine)
            self.assertEqual((stateName(core.machine), core.calls), ("over", calls))

    def test_startingLastPlayerLeft(self) -> None:
        self.core.ending = True
        self.machine.left(1)
        self.assertEqual(self.core.taken(), [("lacking",), ("wrapUp", "one player left")])
        self.assertEqual(self.state(), "over")

    # -- passing (what arrives while the next turn is chosen) -------------------------

    def test_passing(self) -> None:
        m = self.machine

        def meanwhile() -> None:
            self.core.duringNextTurn = None
            self.assertEqual(self.state(), "passing")
            m.move(1, wireMove(11))
            m.refuse(2)
            for send in (m.begin, lambda: m.moved(0, MOVE), lambda: m.relayed(0, 1, frozenset()),
                         lambda: m.acknowledge(1), lambda: m.allAcked(0, 1),
                         lambda: m.passTurn(1), m.timedOut, m.botReady, lambda: m.left(1)):
                send()

        self.core.duringNextTurn = meanwhile
        m.begin()
        self.assertEqual(self.core.taken(), [("start",), ("nextTurn", 0), ("noop", 1),
                                             ("noop", 2), ("offer", 0, 11)])
        self.assertEqual(self.state(), "moving")

    def test_passingEnds(self) -> None:
        for end, calls in ((lambda m: m.finish(1), [("finishGame", 1)]),
                           (lambda m: m.end("why"), [("wrapUp", "why")]),
                           (lambda m: m.tableEnded(), [("tellFinish",), ("wrapUp", None)])):
            core = Core()
            core.duringNextTurn = lambda: end(core.machine)
            core.machine.begin()
            self.assertEqual(core.calls, [("start",), ("nextTurn", 0), *calls])
            self.assertEqual(stateName(core.machine), "over")

    def test_passingLastPlayerLeft(self) -> None:
        core = Core()
        core.ending = True
        core.duringNextTurn = lambda: core.machine.left(1)
        core.machine.begin()
        self.assertEqual(core.calls, [("start",), ("nextTurn", 0), ("lacking",),
                                      ("wrapUp", "one player left")])

    # -- moving ------------------------------------------------------------------------

    def test_movingJudgesTheHolder(self) -> None:
        """Only the holder's MOVE with its token is judged; anything else gets NOOP."""
        self.moving()
        self.machine.move(0, wireMove(11))
        self.machine.move(0, wireMove(12))
        self.machine.move(1, wireMove(11))
        self.machine.refuse(1)
        self.assertEqual(self.core.taken(), [("judge", 0, 11), ("noop", 0), ("noop", 1),
                                             ("noop", 1)])
        self.assertEqual(self.state(), "moving")

    def test_movingIgnores(self) -> None:
        self.moving()
        m = self.machine
        self.assertIgnored(m.begin, lambda: m.give(1, 2), lambda: m.acknowledge(1),
                           lambda: m.allAcked(0, 1))

    def test_movedNobodyToAnswer(self) -> None:
        """A move no connection must answer is accepted at once; the turn passes."""
        self.moving()
        self.core.awaiting = frozenset()
        self.machine.moved(0, MOVE)
        self.assertEqual(self.core.taken(), [
            ("cancelTimer",), ("relay", 0, 11), ("moveAccepted", 0), ("nextTurn", 11),
            ("offer", 1, 22)])
        self.assertEqual(self.state(), "moving")

    def test_movingTimedOut(self) -> None:
        self.moving()
        self.machine.timedOut()
        self.assertEqual(self.core.taken(), [("expire", 0)])

    def test_movingBotReady(self) -> None:
        self.moving()
        self.machine.botReady()
        self.assertEqual(self.core.taken(), [("botPlays", 0)])

    def test_holderLeftForABot(self) -> None:
        """A bot took the holder's seat: it plays the turn after its delay."""
        self.moving()
        self.core.bots.add(0)
        self.machine.left(0)
        self.assertEqual(self.core.taken(), [("startBot", 0)])
        self.assertEqual(self.state(), "moving")

    def test_holderResigned(self) -> None:
        """The holder's seat resigned: the turn passes to the next seat."""
        self.moving()
        self.machine.left(0)
        self.assertEqual(self.core.taken(), [("cancelTimer",), ("nextTurn", 11),
                                             ("offer", 1, 22)])
        self.assertEqual(self.state(), "moving")

    def test_otherLeftWhileMoving(self) -> None:
        self.moving()
        self.assertIgnored(lambda: self.machine.left(2))

    def test_movingLastPlayerLeft(self) -> None:
        self.moving()
        self.core.ending = True
        self.machine.left(2)
        self.assertEqual(self.core.taken(), [("lacking",), ("wrapUp", "one player left")])
        self.assertEqual(self.state(), "over")

    def test_movingEnds(self) -> None:
        for end, calls in ((lambda m: m.finish(1), [("finishGame", 1)]),
                           (lambda m: m.end("why"), [("wrapUp", "why")]),
                           (lambda m: m.tableEnded(), [("tellFinish",), ("wrapUp", None)])):
            self.setUp()
            self.moving()
            end(self.machine)
            self.assertEqual((self.state(), self.core.taken()), ("over", calls))

    # -- acks --------------------------------------------------------------------------

    def test_acksThenNextTurn(self) -> None:
        """Once every awaited seat answered: MOVEACK to the mover, the next token."""
        self.acks()
        self.machine.acknowledge(1)
        self.machine.acknowledge(1)
        self.machine.acknowledge(0)
        self.assertEqual((self.state(), self.core.taken()), ("acks", []))
        self.machine.acknowledge(2)
        self.assertEqual(self.core.taken(), [("moveAccepted", 0), ("nextTurn", 11),
                                             ("offer", 1, 22)])
        self.assertEqual(self.state(), "moving")

    def test_acksThenGameDone(self) -> None:
        """After the last move's answers, the game finishes (FINISH 0)."""
        self.acks()
        self.core.done = True
        self.machine.acknowledge(1)
        self.machine.acknowledge(2)
        self.assertEqual(self.core.taken(), [("moveAccepted", 0), ("finishGame", None)])
        self.assertEqual(self.state(), "over")

    def test_acksIgnores(self) -> None:
        self.acks()
        m = self.machine
        m.move(0, wireMove(11))
        self.assertEqual(self.core.taken(), [("noop", 0)])
        self.assertIgnored(m.begin, lambda: m.give(1, 2), lambda: m.moved(0, MOVE),
                           lambda: m.relayed(0, 1, frozenset()), lambda: m.passTurn(1),
                           m.tableEnded, m.botReady)

    def test_refused(self) -> None:
        """A MOVENACK from an awaited seat stops the game; from another, NOOP."""
        self.acks()
        self.machine.refuse(0)
        self.assertEqual(self.core.taken(), [("noop", 0)])
        self.machine.refuse(2)
        self.assertEqual(self.core.taken(), [("stopGame", 2, 0), ("wrapUp", "refused")])
        self.assertEqual(self.state(), "over")

    def test_acksTimedOut(self) -> None:
        """Every seat that did not answer in time is removed."""
        self.acks()
        self.machine.acknowledge(1)
        self.machine.timedOut()
        self.assertEqual(self.core.taken(), [("expire", 2)])

    def test_leftWhileAwaited(self) -> None:
        """A seat that leaves (or that a bot holds now) accepts the move."""
        self.acks()
        self.machine.left(1)
        self.assertEqual((self.state(), self.core.taken()), ("acks", []))
        self.machine.left(2)
        self.assertEqual(self.core.taken(), [("moveAccepted", 0), ("nextTurn", 11),
                                             ("offer", 1, 22)])

    def test_acksLastPlayerLeft(self) -> None:
        self.acks()
        self.core.ending = True
        self.machine.left(1)
        self.assertEqual(self.core.taken(), [("lacking",), ("wrapUp", "one player left")])
        self.assertEqual(self.state(), "over")

    def test_leftAfterTheLastMove(self) -> None:
        """The table is over but its last move awaits answers: a departure answers it."""
        self.acks()
        self.core.isSettled = self.core.ending = self.core.done = True
        self.machine.left(1)
        self.machine.left(2)
        self.assertEqual(self.core.taken(), [("moveAccepted", 0), ("finishGame", None)])

    def test_acksEnds(self) -> None:
        for end, calls in ((lambda m: m.finish(1), [("finishGame", 1)]),
                           (lambda m: m.end("why"), [("wrapUp", "why")])):
            self.setUp()
            self.acks()
            end(self.machine)
            self.assertEqual((self.state(), self.core.taken()), ("over", calls))

    # -- over ----------------------------------------------------------------------------

    def test_over(self) -> None:
        self.moving()
        self.machine.finish(None)
        self.core.taken()
        m = self.machine
        m.move(1, wireMove(22))
        m.refuse(2)
        self.assertEqual(self.core.taken(), [("noop", 1), ("noop", 2)])
        self.assertIgnored(m.begin, lambda: m.give(0, 1), lambda: m.moved(0, MOVE),
                           lambda: m.relayed(0, 1, frozenset()), lambda: m.acknowledge(1),
                           lambda: m.allAcked(0, 1), lambda: m.left(1), lambda: m.passTurn(1),
                           lambda: m.finish(1), lambda: m.end("why"), m.tableEnded,
                           m.timedOut, m.botReady)
        self.assertEqual(self.state(), "over")


class TimeTests(SynchronousTestCase):
    """The turn's time in a server: string transports, a test clock."""

    settings = CarcassonneSettings(timeout=20, ackTimeout=5, referee=True, botsAfter=30,
                                   botDelay=2)

    def setUp(self) -> None:
        self.server, self.clock = makeServer(self.settings, StubRules())

    def start(self, count: int) -> tuple[list[Conn], int]:
        conns, got = startGame(self.server, count)
        [self.room] = self.server.playing
        token = got[0][-1]
        assert isinstance(token, wire.Token)
        return conns, token.token

    def turnState(self) -> str:
        assert self.room.game is not None
        return stateName(self.room.game.turn)

    def test_moveTime(self) -> None:
        """The holder has ``timeout`` seconds: a second less keeps it, then it is removed."""
        (a, b, c), _ = self.start(3)
        self.clock.advance(self.settings.timeout - 1)
        self.assertFalse(a.closed)
        self.clock.advance(1)
        self.assertTrue(a.closed)
        self.assertEqual(b.received(), [wire.Close(1)])
        self.assertEqual(self.turnState(), "moving")  # the bot's, after its delay
        self.clock.advance(self.settings.botDelay)
        moved = b.received()
        self.assertEqual([type(m) for m in moved], [wire.Move])

    def test_ackTime(self) -> None:
        """Each awaited seat has ``ackTimeout`` seconds; the time stops once all answered."""
        (a, b, c), token = self.start(3)
        a.say(wireMove(token))
        self.assertEqual(self.turnState(), "acks")
        b.say(wire.MoveAck())
        self.clock.advance(self.settings.ackTimeout - 1)
        self.assertFalse(c.closed)
        c.say(wire.MoveAck())
        self.assertEqual(a.received(), [wire.MoveAck()])
        self.clock.advance(self.settings.ackTimeout)
        self.assertFalse(any(conn.closed for conn in (a, b, c)))
        self.assertEqual(self.turnState(), "moving")

    def test_moveTimeAfterAcks(self) -> None:
        """
        Once a move is answered, the next holder has the whole ``timeout``
        (the answers' time, restarted for it, does not carry over).
        """
        (a, b), token = self.start(2)
        self.clock.advance(3)
        a.say(wireMove(token))
        self.clock.advance(self.settings.ackTimeout - 1)
        b.say(wire.MoveAck())
        self.assertEqual([type(m) for m in b.received()], [wire.Move, wire.Token])
        self.clock.advance(self.settings.timeout - 1)
        self.assertFalse(b.closed)
        self.assertEqual(self.turnState(), "moving")
        self.clock.advance(1)
        self.assertTrue(b.closed)
        self.assertEqual(a.received(), [wire.MoveAck(), wire.Close(2)])  # a bot takes its seat

    def test_moveTimeLapsesDuringAcks(self) -> None:
        """
        The move's time stops counting once the move is relayed: a move made
        a second before its time runs out leaves the answers their whole
        ``ackTimeout``, and nobody is removed when the move's time passes.
        """
        (a, b, c), token = self.start(3)
        self.clock.advance(self.settings.timeout - 1)
        a.say(wireMove(token))
        b.say(wire.MoveAck())
        self.clock.advance(self.settings.ackTimeout - 1)
        self.assertFalse(any(conn.closed for conn in (a, b, c)))
        self.assertEqual(self.turnState(), "acks")
        c.say(wire.MoveAck())
        self.assertEqual(a.received(), [wire.MoveAck()])
        self.assertEqual(self.turnState(), "moving")
        # The next holder (b) has its whole time; the answers' time lapses.
        self.clock.advance(self.settings.timeout - 1)
        self.assertFalse(any(conn.closed for conn in (a, b, c)))
        self.clock.advance(1)
        self.assertTrue(b.closed)
        self.assertFalse(a.closed or c.closed)

    def test_movesScheduleNoCalls(self) -> None:
        """
        Move after move, the turn's times push the same pending calls back:
        none is cancelled and none is scheduled (the reactor's heap stays
        as it is), and each time still counts only while it should.
        """
        conns, token = self.start(2)
        before: list[object] | None = None
        for move in range(8):
            mover, other = conns[move % 2], conns[1 - move % 2]
            self.clock.advance(1)
            mover.say(wire.Move(0, "tile-u", 72, 73 + move, "N", None, token))
            other.say(wire.MoveAck())
            self.assertEqual(mover.received(), [wire.MoveAck()])
            got = other.received()
            self.assertEqual([type(m) for m in got], [wire.Move, wire.Token])
            token = got[-1].token  # type: ignore[union-attr]
            if before is None:  # the answers' time is there from the first move on
                before = list(self.clock.getDelayedCalls())  # held: no id is reused
        assert before is not None
        self.assertEqual({id(call) for call in self.clock.getDelayedCalls()},
                         {id(call) for call in before})
        self.assertFalse(any(conn.closed for conn in conns))
        self.assertEqual(self.turnState(), "moving")
        self.clock.advance(self.settings.timeout)
        self.assertTrue(conns[0].closed)  # the holder's time still counts

    def test_ackTimeoutRemoves(self) -> None:
        (a, b, c), token = self.start(3)
        a.say(wireMove(token))
        b.say(wire.MoveAck())
        self.clock.advance(self.settings.ackTimeout)
        self.assertTrue(c.closed)
        self.assertEqual(a.received(), [wire.Close(3), wire.MoveAck()])

    def test_botDelay(self) -> None:
        """A bot that took the holder's seat waits ``botDelay`` seconds, then moves."""
        (a, b), _ = self.start(2)
        a.say(wire.Close(0))
        self.assertEqual(b.received(), [wire.Close(1)])
        self.clock.advance(self.settings.botDelay - 1)
        self.assertEqual(b.received(), [])
        self.clock.advance(1)
        moved = b.received()
        self.assertEqual([type(m) for m in moved], [wire.Move])
        self.assertEqual(self.turnState(), "acks")

    def test_noTimeAfterTheEnd(self) -> None:
        """A FINISH stops the turn's time: nobody is removed for it later."""
        (a, b), _ = self.start(2)
        b.say(wire.Finish(0))
        self.assertEqual(self.turnState(), "over")
        self.assertEqual(a.received(), [wire.Finish(2)])
        a.say(wire.Close(0))
        self.clock.advance(self.settings.timeout - 1)
        self.assertFalse(b.closed)


class FreedTests(SynchronousTestCase):
    """A finished game is freed at once, without the garbage collector."""

    @onlyRefcounted
    def test_finishedGameFreedAtOnce(self) -> None:
        """
        Once a game is over and its connections closed, the game, its turn
        machine and its table are freed as soon as nobody holds them: none
        of them is left in a reference cycle (a machine and its core hold
        each other; a room and its game too), which would keep the whole
        game until a collection finds it.
        """
        server, clock = makeServer(CarcassonneSettings(timeout=20, ackTimeout=5, referee=True),
                                   StubRules())

        def play() -> tuple[weakref.ref[Any], weakref.ref[Any], weakref.ref[Any]]:
            a, b = Conn(server), Conn(server)
            a.say(wire.Hello(0))
            b.say(wire.Hello(0))
            a.say(wire.HelloAck(0))
            a.say(wire.Ready(0))
            b.say(wire.Ready(0))
            [room] = server.playing
            game = room.game
            assert game is not None
            freed = (weakref.ref(game), weakref.ref(game.turn), weakref.ref(game.table))
            a.say(wire.Finish(1))
            self.assertEqual(wire.Finish(1), b.received()[-1])
            self.assertTrue(game.table.finished)
            for conn in (a, b):
                conn.say(wire.Close(0))
                conn.protocol.connectionLost(Failure(ConnectionDone()))
            clock.advance(60)
            return freed

        gc.disable()
        self.addCleanup(gc.enable)
        freed = play()
        self.assertEqual([ref() for ref in freed], [None, None, None])
