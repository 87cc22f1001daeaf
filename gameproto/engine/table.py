"""
Tables: one running game, its seats, its turn clocks and its record.

A seat is held by a L{SeatHolder}: a network player of any protocol, a web
player or a bot.  A seat can change hands (L{Table.replace}), for instance a
bot taking over the seat of a player who left.  Each holder only ever sees
what its seat may see (L{Instructions.forSeat}).
"""

from __future__ import annotations

import random
import weakref
from collections import deque
from functools import partial
from typing import Callable, Protocol, Sequence, runtime_checkable

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.engine.clock import Deadline
from gameproto.engine.contract import (
    JSON,
    Bot,
    EngineFactory,
    Errors,
    GameEngine,
    Instructions,
    Seat,
    UnexpectedAction,
)
from gameproto.engine.record import GameRecord, MemoryRecordStore, RecordedAction, RecordStore
from gameproto.metrics import Metrics

log = Logger(namespace="gameproto.table")

Outcome = Instructions | Errors | Deferred[Instructions | Errors]
"""What an action gets: at once from an engine in this process, later from one in another."""


class SeatHolder(Protocol):
    """
    Whoever holds a seat at a table.  A holder that is not a person (a
    bot, an open seat) says so with a false C{person} attribute
    (L{DeclaresPerson}); one without it is a person.
    """

    @property
    def name(self) -> str:
        """The name shown to the other seats and kept in the record."""

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        """Seconds this holder has for the action the table now waits for (None: no limit)."""

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        """
        The game moved on: ``instructions`` is what ``seat`` may see of it
        (its display, the events it may know of, who must act, the state).
        """

    def timedOut(self, table: Table, seat: Seat) -> None:
        """
        ``seat`` let its turn clock run out.  If the holder neither acts nor
        restarts the clock, the table resigns the seat so no game is stuck.
        """


class Watcher(Protocol):
    """A spectator of a table: told what every seat may see."""

    def update(self, table: Table, seat: None, instructions: Instructions) -> None:
        """The game moved on (``seat`` is None: the public view)."""


@runtime_checkable
class Releasable(Protocol):
    """A seat holder that wants to know when its seat goes to someone else."""

    def released(self, table: Table, seat: Seat) -> None:
        """``seat`` is no longer this holder's (replaced, or the game was aborted)."""


@runtime_checkable
class AbortAware(Protocol):
    """A seat holder or watcher that wants to know why a game was aborted."""

    def aborted(self, table: Table, seat: Seat | None, reason: str) -> None:
        """
        ``table`` was aborted with ``reason`` (its engine failed, nobody took
        an open seat in time); ``seat`` is None for a watcher.
        """


@runtime_checkable
class DeclaresPerson(Protocol):
    """
    A seat holder that says whether it is a person: C{person} is false for
    bots and open seats, true for a player of any protocol or a web player.
    A L{SeatHolder} without it is a person (L{isPerson}).
    """

    person: bool


def isPerson(holder: SeatHolder) -> bool:
    """Whether ``holder`` is a person: its C{person}, true when it declares none."""
    # isinstance(holder, DeclaresPerson), without the protocol check's walk
    # of the holder's class on every call.
    person = getattr(holder, "person", _NOTHING)
    return True if person is _NOTHING else bool(person)


_NOTHING = object()


def _hook(listener: object, name: str) -> Callable[..., None] | None:
    """
    ``listener``'s method ``name`` when it has one: what isinstance checks
    of a runtime protocol of that one method (L{Releasable},
    L{AbortAware}), without walking the listener's class on every call.
    """
    method: Callable[..., None] | None = getattr(listener, name, None)
    return method


class Table:
    """
    One game in progress: the engine, the holders of its seats, a turn clock
    per seat, and the record written as each action is accepted.
    """

    metrics: Metrics | None = None
    """Where accepted actions are counted (the hub's, once registered there)."""

    def __init__(
        self,
        factory: EngineFactory,
        engine: GameEngine,
        holders: Sequence[SeatHolder],
        clock: IReactorTime,
        store: RecordStore,
        record: GameRecord | None = None,
    ) -> None:
        """
        A new game, or (with ``record``) one restored by replaying its record:
        it goes on under the same id, its record growing from where it was.
        """
        if len(holders) != engine.players:
            raise ValueError(f"{factory.name} needs {engine.players} seats, got {len(holders)}")
        self.factory = factory
        self.engine = engine
        self.holders: list[SeatHolder] = list(holders)
        self.clock = clock
        self.store = store
        self._resumed = record is not None
        self.record = record if record is not None else GameRecord(
            id=store.nextId(),
            engine=factory.name,
            params=dict(engine.params),
            initvalues=dict(engine.initvalues),
            seats=[h.name for h in holders],
            started=clock.seconds(),
        )
        self._watchers: list[Watcher] = []
        self._seats = frozenset(range(len(self.holders)))
        self._clocks = [Deadline(clock) for _ in holders]
        me = weakref.ref(self)
        self._expiries: list[Callable[[], None]] = [
            partial(_expire, me, seat) for seat in range(len(self.holders))]
        """
        What each seat's clock calls when it runs out: made once, not each
        action, and holding the table weakly, so that a finished table is
        freed as soon as nobody holds it (no cycle for the garbage
        collector to find).
        """
        listen = getattr(engine, "onFailure", None)
        if callable(listen):
            # An engine that can fail on its own (a program): the game ends at once.
            listen(partial(_engineFailedIdle, me))
        self._waiting: frozenset[Seat] = frozenset()
        self._pending: deque[Instructions] = deque()
        self._delivering = False
        self._finishedWaiters: list[Deferred[GameRecord]] = []
        self._started = False
        self._announced = False
        self._busy = False
        self._queued: deque[tuple[Seat, JSON, Deferred[Instructions | Errors]]] = deque()
        self.lastResignation: tuple[Seat, str] | None = None
        """
        The last seat resigned and why, in a word: ``time`` (its clock ran
        out), ``left`` (its holder left, see L{leaving}) or ``resigned``.
        """
        self.leaving: Seat | None = None
        """The seat whose holder is leaving now (set by whoever handles the leaving)."""
        self.leavingDropped = False
        """
        Whether that holder's connection dropped (it may come back with the
        seat's token), rather than left: what its host may weigh (L{Hub.vacate}).
        """
        self.seatsVersion = 0
        """How many times a seat's name changed (L{replace}): who tells names tells them again."""
        self.awaitingPerson = False
        """
        The game waits for a person to come back (its host's say: the last
        one's connection dropped): while no person holds a seat, bots hold
        their moves.
        """
        self.suspended = False
        """
        The server is stopping (L{suspend}): the game stays as it is, live in
        its record, to be restored at the next start.
        """
        self._expiring: Seat | None = None
        self.maxActions: int | None = None
        """
        The most actions the game may have: past it the game is aborted, its
        record kept (None: no limit), so that no game grows for ever.
        """

    @classmethod
    def create(
        cls,
        factory: EngineFactory,
        params: dict[str, JSON],
        holders: Sequence[SeatHolder],
        clock: IReactorTime,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
    ) -> Table:
        """Start a new game of ``factory`` with ``params``; raises ValueError on bad params."""
        engine = factory.start(params, None, rng)
        if isinstance(engine, Errors):
            raise ValueError(f"{factory.name}: {engine.asJSON()}")
        if isinstance(engine, Deferred):
            raise ValueError(f"{factory.name} answers later: start it with Hub.newGame")
        return cls(factory, engine, holders, clock, store or MemoryRecordStore())

    # -- what holders and servers ask ----------------------------------------

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def finished(self) -> bool:
        return self.record.isFinished

    @property
    def waiting(self) -> frozenset[Seat]:
        """The seats whose action the game waits for."""
        return self._waiting

    @property
    def turn(self) -> int:
        """How many actions the game has accepted."""
        return len(self.record.actions)

    @property
    def lastActionTime(self) -> float:
        """When the last action was accepted (the start, before any), on the table's clock."""
        return self.record.actions[-1].at if self.record.actions else self.record.started

    def hasPerson(self) -> bool:
        """Whether a person holds a seat (see L{isPerson})."""
        return any(isPerson(holder) for holder in self.holders)

    def whenFinished(self) -> Deferred[GameRecord]:
        """Fires with the complete record once every seat has been told the game is over."""
        d: Deferred[GameRecord] = Deferred()
        if self.finished and not self._delivering:
            d.callback(self.record)
        else:
            self._finishedWaiters.append(d)
        return d

    def start(self) -> None:
        """Store the record, tell every seat where the game stands, start the clocks."""
        if self._started:
            return
        self._started = True
        if self._resumed:
            self.store.gameResumed(self.record)
        else:
            self.store.gameStarted(self.record)
        log.info(
            "game {id} ({engine}) " + ("resumed" if self._resumed else "started") + ": {seats}",
            id=self.id,
            engine=self.factory.name,
            seats=", ".join(self.record.seats),
        )
        try:
            instructions = self.engine.instructions()
        except Exception:
            self._engineBroke()
            return
        self._advance(instructions)

    def act(self, seat: Seat, action: JSON) -> Outcome:
        """
        Play ``action`` for ``seat``.  Accepted: recorded, every seat told,
        clocks restarted, and the new instructions returned.  Refused: the
        engine's errors, and nothing changes.

        An engine in another process answers later: then a Deferred of the
        same comes back, and actions that arrive meanwhile wait their turn.
        """
        if self.record.finished is not None or not self._started:  # (finished, inline)
            return Errors((UnexpectedAction(seat, action),))
        if self.suspended:
            return Errors((UnexpectedAction(seat, action, text=STOPPING),))
        if self._busy:
            waiting: Deferred[Instructions | Errors] = Deferred()
            self._queued.append((seat, action, waiting))
            return waiting
        try:
            outcome = self.engine.act(seat, action)
        except Exception:
            return self._engineFailed(seat, action)
        # Instructions first: Deferred's check goes through ABCMeta (slower).
        if isinstance(outcome, Instructions):
            self._accept(RecordedAction(seat, action, self.clock.seconds()), outcome)
            return outcome
        if isinstance(outcome, Deferred):
            return self._settle(seat, action, outcome)
        return outcome

    def _engineFailed(self, seat: Seat, action: JSON) -> Errors:
        """The engine raised (a bug of its own): the game is aborted, the action refused."""
        return Errors((UnexpectedAction(seat, action, text=self._engineBroke()),))

    def _engineBroke(self) -> str:
        """The engine raised, in an except block: one log line with its traceback, the game aborted."""
        failure = Failure()
        log.failure("game {id}: the engine {engine} failed", failure, id=self.id,
                    engine=self.factory.name)
        reason = f"the engine {self.factory.name} failed: {failure.getErrorMessage()}"
        self.abort(reason)
        return reason

    def _settle(self, seat: Seat, action: JSON,
                pending: Deferred[Instructions | Errors]) -> Deferred[Instructions | Errors]:
        """Wait for an engine's late answer, then accept it (or not) like any other."""
        self._busy = True

        def answered(outcome: Instructions | Errors) -> Instructions | Errors:
            self._busy = False
            if self.suspended and not isinstance(outcome, Errors):
                # Not recorded: the engine replays the record at the restart.
                return Errors((UnexpectedAction(seat, action, text=STOPPING),))
            if not isinstance(outcome, Errors) and not self.finished:
                self._accept(RecordedAction(seat, action, self.clock.seconds()), outcome)
            self._nextQueued()
            return outcome

        def failed(failure: Failure) -> Errors:
            self._busy = False
            self.abort(failure.getErrorMessage() or "the engine failed")
            self._nextQueued()
            return Errors((UnexpectedAction(seat, action),))

        pending.addCallbacks(answered, failed)
        return pending

    def _nextQueued(self) -> None:
        while self._queued and not self._busy:
            seat, action, waiting = self._queued.popleft()
            outcome = self.act(seat, action)
            if isinstance(outcome, Deferred):
                outcome.chainDeferred(waiting)
            else:
                waiting.callback(outcome)

    def abort(self, reason: str) -> None:
        """
        The game cannot go on (its engine crashed, hung or wrote garbage): end
        it with ``reason``, kept in the record and told to every seat (their
        ``aborted(table, seat, reason)``, for those that are L{AbortAware};
        holders that are L{Releasable} are told their seat is released first).
        """
        if self.finished or self.suspended:
            return
        self._waiting = frozenset()
        for deadline in self._clocks:
            deadline.cancel()
        self.record.error = reason
        self.record.finished = self.clock.seconds()
        self.store.gameFinished(self.record)
        log.info("game {id} ({engine}) aborted: {reason}", id=self.id,
                 engine=self.factory.name, reason=reason)
        for index, holder in enumerate(self.holders):
            released = _hook(holder, "released")
            if released is not None:
                released(self, index)
        told: list[tuple[Seat | None, object]] = list(enumerate(self.holders))
        told += [(None, watcher) for watcher in self._watchers]
        for seat, listener in told:
            aborted = _hook(listener, "aborted")
            if aborted is not None:
                try:
                    aborted(self, seat, reason)
                except Exception:
                    log.failure("game {id}: seat {seat} failed to hear of the abort",
                                id=self.id, seat=seat)
        for waiting in self._queued:
            waiting[2].callback(Errors((UnexpectedAction(waiting[0], waiting[1]),)))
        self._queued.clear()
        if not self._delivering:
            self._announceEnd()

    def resign(self, seat: Seat) -> None:
        """``seat`` gives up (it left, timed out or broke a rule); recorded like an action."""
        if self.finished or not self._started or self.suspended:
            return
        self.lastResignation = (seat, "time" if self._expiring == seat
                                else "left" if self.leaving == seat else "resigned")
        try:
            outcome = self.engine.resign(seat)
        except Exception:
            self._engineFailed(seat, None)
            return
        self._accept(RecordedAction(seat, None, self.clock.seconds(), "resign"), outcome)

    def replace(self, seat: Seat, holder: SeatHolder) -> None:
        """
        Give ``seat`` to ``holder`` (a bot taking over, a player coming back).
        The previous holder is told if it is L{Releasable}.  A suspended
        table keeps its holders.
        """
        if self.suspended:
            return
        previous, self.holders[seat] = self.holders[seat], holder
        if self.record.seats[seat] != holder.name:
            self.record.seats[seat] = holder.name
            self.seatsVersion += 1
        if self._started and not self.finished:
            self.store.seatsChanged(self.record)
        released = _hook(previous, "released") if previous is not holder else None
        if released is not None:
            released(self, seat)
        if self.finished or not self._started:
            return
        self._startClock(seat)
        self._deliver(seat, holder, self.engine.instructions().forSeat(seat))

    def suspend(self) -> None:
        """
        The server is stopping: nothing more happens to this game, which
        stays live in its record (the store restores it at the next start).
        The clocks stop; an action, a resignation, a replacement or an abort
        from now on (players leaving as their connections close, an engine's
        process ending) changes nothing; actions waiting their turn are
        refused.  A finished game is left as it is.
        """
        if self.finished or self.suspended:
            return
        self.suspended = True
        for deadline in self._clocks:
            deadline.cancel()
        for waiting in self._queued:
            waiting[2].callback(Errors((UnexpectedAction(waiting[0], waiting[1], text=STOPPING),)))
        self._queued.clear()

    def watch(self, watcher: Watcher) -> None:
        """
        Tell ``watcher`` what a spectator may see, from now until the end
        (a game over and told: where it ended, and nothing more).
        """
        if not self._announced:
            self._watchers.append(watcher)
        if self._started:
            self._deliver(None, watcher, self.engine.instructions().forSeat(None))

    def unwatch(self, watcher: Watcher) -> None:
        if watcher in self._watchers:
            self._watchers.remove(watcher)

    def restartClock(self, seat: Seat, seconds: float) -> None:
        """Give ``seat`` ``seconds`` from now for the action the game waits for."""
        if seat in self._waiting and self.record.finished is None:
            self._clocks[seat].start(seconds, self._expiries[seat])

    def timeLeft(self, seat: Seat) -> float | None:
        """
        Seconds left on ``seat``'s clock, None when it does not run; for a
        holder its own protocol times (no clock here), what its optional
        ``timeLeft(table, seat)`` says.
        """
        if seat not in self._waiting:
            return None  # (its clock may have lapsed without being stopped: see _advance)
        left = self._clocks[seat].remaining()
        if left is None:
            own = getattr(self.holders[seat], "timeLeft", None)
            if own is not None:
                return own(self, seat)
        return left

    def playFor(self, seat: Seat, bot: Bot) -> Outcome:
        """Let ``bot`` choose and play ``seat``'s move (for a seat that let its time pass)."""
        return self.act(seat, bot(self.engine.view(seat), seat))

    # -- inside --------------------------------------------------------------

    def _accept(self, action: RecordedAction, outcome: Instructions) -> None:
        self.record.actions.append(action)
        self.store.actionAccepted(self.record, action)
        if self.metrics is not None:
            self.metrics.actionAccepted(self.factory.name)
        if (self.maxActions is not None and len(self.record.actions) >= self.maxActions
                and not outcome.game_state.gameover):
            self.abort(f"the game reached {self.maxActions} actions, the most a game may have")
            return
        self._advance(outcome)

    def _advance(self, outcome: Instructions) -> None:
        waiting = self._waiting = frozenset(r.player for r in outcome.requested_actions)
        if not waiting <= self._seats:
            wrong = min(waiting - self._seats)
            self.abort(f"the engine {self.factory.name} failed: it asked for player "
                       f"{wrong + 1}, in a game of {len(self.holders)}")
            return
        if outcome.game_state.gameover:
            self._waiting = frozenset()
            for deadline in self._clocks:
                deadline.cancel()
            self.record.finished = self.clock.seconds()
            self.record.scores = list(outcome.game_state.scores)
            self.store.gameFinished(self.record)
        else:
            # The clock of a seat no longer asked is left to lapse, not
            # stopped: its expiry is ignored (_expired), and when the seat is
            # asked again the same pending call is pushed back, so that a
            # move costs the reactor no call cancelled and none scheduled.
            for seat in self._waiting:
                self._startClock(seat)
        self._publish(outcome)

    def _startClock(self, seat: Seat) -> None:
        if seat not in self._waiting:
            return
        seconds = self.holders[seat].turnTimeout(self, seat)
        if seconds is None:
            self._clocks[seat].cancel()
        else:
            self.restartClock(seat, seconds)

    def _expired(self, seat: Seat) -> None:
        if seat not in self._waiting or self.finished or self.suspended:
            return  # the lapsed clock of a seat not asked now
        turn = self.turn
        holder = self.holders[seat]
        self._expiring = seat
        try:
            try:
                holder.timedOut(self, seat)
            except Exception:
                log.failure("game {id}: seat {seat} ({name}) failed a timeout",
                            id=self.id, seat=seat, name=holder.name)
            stuck = (
                not self.finished
                and self.turn == turn
                and seat in self._waiting
                and self.holders[seat] is holder
                and not self._clocks[seat].active
            )
            if stuck:
                log.info("game {id}: seat {seat} timed out, resigned", id=self.id, seat=seat)
                self.resign(seat)
        finally:
            self._expiring = None

    def _publish(self, outcome: Instructions) -> None:
        # Holders may act from inside update(); queueing keeps every seat's
        # view in order whatever they do.
        self._pending.append(outcome)
        if self._delivering:
            return
        self._delivering = True
        try:
            while self._pending:
                current = self._pending.popleft()
                # Every seat sees the same instructions unless an event is private.
                shared = True
                for event in current.events:
                    if event.audience is not None:
                        shared = False
                        break
                for seat, holder in enumerate(list(self.holders)):
                    self._deliver(seat, holder, current if shared else current.forSeat(seat))
                if self._watchers:
                    public = current.forSeat(None)
                    for watcher in list(self._watchers):
                        self._deliver(None, watcher, public)
        finally:
            self._delivering = False
        if self.record.finished is not None:
            self._announceEnd()

    def _deliver(self, seat: Seat | None, holder: SeatHolder | Watcher,
                 instructions: Instructions) -> None:
        try:
            holder.update(self, seat, instructions)  # type: ignore[arg-type]
        except Exception:
            log.failure("game {id}: seat {seat} ({name}) failed an update",
                        id=self.id, seat=seat,
                        name="watcher" if seat is None else self.record.seats[seat])

    def _announceEnd(self) -> None:
        waiters, self._finishedWaiters = self._finishedWaiters, []
        # Every watcher was told the end: the table holds them no more (a
        # watcher holding its table would make a cycle the garbage
        # collector has to find, the whole game in it).
        self._watchers = []
        if not self._announced:
            self._announced = True
            log.info(
                "game {id} ({engine}) ended: scores {scores}",
                id=self.id,
                engine=self.factory.name,
                scores=self.record.scores,
            )
        for d in waiters:
            d.callback(self.record)


STOPPING = "the server is stopping: the game is kept, to go on after its restart"
"""Why a suspended table (L{Table.suspend}) refuses an action."""


def _engineFailedIdle(table: weakref.ref[Table], reason: str) -> None:
    """The table's engine failed while idle (an engine's C{onFailure}): the game is aborted."""
    live = table()
    if live is not None:
        live.abort(reason)


def _expire(table: weakref.ref[Table], seat: Seat) -> None:
    """A seat's clock ran out (L{Table._expiries}): the table's L{Table._expired}, if it lives."""
    live = table()
    if live is not None:
        live._expired(seat)


class BotSeat:
    """
    A seat held by a bot.  It plays after ``delay`` seconds on ``clock``,
    never from inside the update that asked it to; at a table where no
    person holds a seat, no sooner than ``pace`` seconds after the game's
    last action, so that a game of bots alone runs at a bounded rate.
    """

    person = False

    def __init__(self, bot: Bot, clock: IReactorTime, name: str = "bot", delay: float = 0.0,
                 pace: float = 0.0):
        self.bot = bot
        self.clock = clock
        self.name = name
        self.delay = delay
        self.pace = pace
        self._move = Deadline(clock)

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return None

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if instructions.game_state.gameover:
            self._move.cancel()  # (and what it held of the table)
            return
        if instructions.asks(seat):
            turn = table.turn
            self._move.start(self.delay, lambda: self._play(table, seat, turn))

    def _play(self, table: Table, seat: Seat, turn: int) -> None:
        if table.finished or table.suspended or table.holders[seat] is not self \
                or seat not in table.waiting:
            return
        if table.turn != turn:
            return
        if table.awaitingPerson and not table.hasPerson():
            # Nobody to play for until a person comes back (or the host ends the game).
            self._move.start(max(self.pace, 1.0), lambda: self._play(table, seat, turn))
            return
        if self.pace > 0 and not table.hasPerson():
            wait = table.lastActionTime + self.pace - self.clock.seconds()
            if wait > 0:
                self._move.start(wait, lambda: self._play(table, seat, turn))
                return

        def check(outcome: Instructions | Errors) -> None:
            if isinstance(outcome, Errors) and not table.finished:
                log.error(
                    "game {id}: bot in seat {seat} made a refused move {errors}, resigning",
                    id=table.id, seat=seat, errors=outcome.asJSON(),
                )
                table.resign(seat)

        outcome = table.act(seat, self.decide(table, seat))
        if isinstance(outcome, (Instructions, Errors)):  # (Deferred's check is slower)
            check(outcome)
        else:
            outcome.addCallback(check)

    def decide(self, table: Table, seat: Seat) -> JSON:
        """
        The move for ``seat``: the bot's answer to the seat's view (a
        subclass may give the bot what it reads some cheaper way).
        """
        return self.bot(table.engine.view(seat), seat)

    def timedOut(self, table: Table, seat: Seat) -> None:
        pass

    def released(self, table: Table, seat: Seat) -> None:
        """The seat went to someone else: forget the move in preparation."""
        self._move.cancel()

