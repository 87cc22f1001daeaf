"""
The hub: the one centre of the shared engine layer.

It owns the engine registry, the record store, the clock, the rng and every
live table (tables formed by any protocol register here), and one
L{Matchmaker} per protocol that forms games (a queue of pairs, a Room filled
by arrival) which a seat holder of I{any} protocol can use: a browser can
take a seat at a table formed by another protocol without either protocol
knowing of the other.  Protocol servers, the engine JSON protocol, the HTTP API and the page
talk to the hub, never to each other.

The hub also hosts games itself: those created by name through the engine
JSON protocol or the HTTP API (L{Hub.newGame}), and those a previous run
left unfinished (L{Hub.restore}).  Their seats start open (L{OpenSeat}) or
held by the engine's bot; a guest takes an open seat with L{Hub.join}, and a
seat its guest leaves goes to the engine's bot, or opens again.

This module names no protocol.
"""

from __future__ import annotations

import random
import secrets
from typing import Callable, Protocol, Sequence

import attrs
from twisted.internet.defer import Deferred, fail, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.engine.clock import Deadline, positiveSeconds, seconds as nonNegativeSeconds
from gameproto.engine.contract import (
    JSON,
    Bot,
    EngineFactory,
    Errors,
    GameEngine,
    Instructions,
    Seat,
)
from gameproto.engine.faults import FaultLog
from gameproto.engine.outbox import Outbox
from gameproto.engine.record import (
    GameRecord,
    MemoryRecordStore,
    RecordStore,
    TimedStore,
    hashToken,
    replayLater,
)
from gameproto.engine.registry import EngineRegistry
from gameproto.engine.store import SQLiteRecordStore
from gameproto.engine.table import BotSeat, SeatHolder, Table
from gameproto.net import Limits
from gameproto.metrics import Metrics

log = Logger(namespace="gameproto.hub")

TOKEN_BYTES = 24
"""Random bytes in a seat's token (192 bits, from L{secrets})."""


class Guest(Protocol):
    """
    Someone who asks a protocol's L{Matchmaker} for a seat from outside that
    protocol (a JSON player, the page).  The matchmaker seats it behind an
    adapter that applies the protocol's own rules (its move timeout, what
    happens when the time runs out, its nick rule), and forwards to it what
    the seat may see.
    """

    @property
    def name(self) -> str:
        """The name the other seats see."""

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        """The game moved on; the first update tells the guest its table and seat."""

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        """The game was aborted (or the guest lost its seat for good)."""


class Matchmaker(Protocol):
    """How one protocol forms its games, open to a guest of any protocol."""

    @property
    def engine(self) -> str:
        """The name of the engine whose games it forms (``connect4``, ``tarot``)."""

    @property
    def title(self) -> str:
        """How a person calls it (``Protuissance 4``): the page shows it."""

    def enqueue(self, guest: Guest) -> str | None:
        """Queue ``guest`` for a seat: None, or why it cannot be (the name is taken...)."""

    def dequeue(self, guest: Guest) -> None:
        """``guest`` no longer waits (it left, or its connection is gone)."""

    def waiting(self) -> list[str]:
        """
        The names of those who wait now for a game it forms, of any
        protocol (its own players and guests; no bot), in order of arrival.
        """


class TableHost(Protocol):
    """Who formed a table, and so decides what a vacated seat becomes."""

    def vacate(self, table: Table, seat: Seat) -> None:
        """
        The holder of ``seat`` left: resign it, give it to a bot (which its
        player may reclaim), or open it for someone else, as the host's
        rules say.
        """


@attrs.frozen
class HubSettings:
    """The knobs of the games the hub hosts itself; times in seconds."""

    timeout: float = attrs.field(default=300.0, validator=positiveSeconds)
    """Time a guest seated in a game hosted by the hub has for each action."""
    openSeatTimeout: float = attrs.field(default=3600.0, validator=positiveSeconds)
    """
    Time a game waits for a player to take an open seat the game asks to
    act; past it the game is aborted (its record kept), so that no game
    waits for nobody for ever.
    """
    engineTimeout: float = attrs.field(default=5.0, validator=positiveSeconds)
    """Time an external engine of the registry has to answer."""
    botDelay: float = attrs.field(default=0.5, validator=nonNegativeSeconds)
    """
    Time between two actions of a game hosted here that no person sits at
    (bots alone, or bots and open seats): such a game runs at a bounded rate.
    """
    maxActions: int = attrs.field(default=10_000, validator=attrs.validators.ge(1))
    """
    The most actions a game of any protocol may have: past it the game is
    aborted, its record kept; a record longer than that is not restored.
    """
    maxGames: int = attrs.field(default=1000, validator=attrs.validators.ge(1))
    """The most games the hub hosts at once (created by name, restored)."""
    maxGamesPerPeer: int = attrs.field(default=20, validator=attrs.validators.ge(1))
    """The most games created by one peer (address) that the hub hosts at once."""
    gamesPerMinute: int = attrs.field(default=30, validator=attrs.validators.ge(1))
    """
    Games one peer may create per minute (L{Hub.creationWait}); as many at
    once, then one each 60/gamesPerMinute seconds.
    """


class OpenSeat:
    """
    A seat nobody holds yet (or any more): the game waits for a player to
    join, ``timeout`` seconds at most once the seat is asked to act.
    """

    name = "(open)"
    person = False

    def __init__(self, timeout: float | None = None) -> None:
        self.timeout = timeout

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self.timeout

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        pass

    def timedOut(self, table: Table, seat: Seat) -> None:
        table.abort(f"nobody took player {seat + 1}'s seat in time")


class GuestSeat:
    """
    The L{SeatHolder} a guest sits behind: the time the table's rules give
    it (``timeout``), what those rules do when it runs out (``expired``),
    and what the seat may see forwarded to the guest while the seat is its.
    Matchmakers of every protocol and the hub's own games use it.
    """

    def __init__(self, guest: Guest,
                 timeout: Callable[[Table, Seat], float | None],
                 expired: Callable[[Table, Seat], object]) -> None:
        self.guest = guest
        self._timeout = timeout
        self._expired = expired

    @property
    def name(self) -> str:
        return self.guest.name

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self._timeout(table, seat)

    def timedOut(self, table: Table, seat: Seat) -> None:
        self._expired(table, seat)

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is self:
            self.guest.update(table, seat, instructions)

    def aborted(self, table: Table, seat: Seat | None, reason: str) -> None:
        if seat is not None and table.holders[seat] is self:
            self.guest.aborted(table, seat, reason)


BOT_SUFFIX = " (bot)"


def botName(previous: str, seat: Seat) -> str:
    """
    The name of a bot taking ``seat`` over from ``previous``: the player's
    own name with " (bot)", so that records keep who sat there; ``botN``
    for a seat no person held.
    """
    if previous and previous != OpenSeat.name and not isBotName(previous):
        return previous + BOT_SUFFIX
    return f"bot{seat + 1}"


def isBotName(name: str) -> bool:
    """Whether a recorded seat name is a bot's (``botN``, or a player's name with " (bot)")."""
    return name.endswith(BOT_SUFFIX) or (name.startswith("bot") and name[3:].isdigit())


class _HubHost:
    """
    The host of the games the hub holds itself: a vacated seat goes to the
    bot, or opens.  When no person is left, the game ends unless one comes
    back (with a seat's token) within L{HubSettings.timeout}: bots alone
    never play a game for ever.  Meanwhile, if the last person's connection
    dropped, the game stands still (its bots wait: L{Table.awaitingPerson}),
    so that it is not played out before they could come back.
    """

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._deserted: dict[int, Deadline] = {}

    def vacate(self, table: Table, seat: Seat) -> None:
        """
        ``seat``'s person is gone: its seat goes to the bot (or opens).
        With no person left, the game ends at the time's end unless one
        comes back; meanwhile the bots wait if that last person dropped
        (L{Table.leavingDropped}: a connection lost, the seat's token may
        take it back), and play on if it left.
        """
        bot = table.factory.bot(dict(table.engine.params))
        table.replace(seat, self.hub.botSeat(bot, botName(table.record.seats[seat], seat))
                      if bot is not None else self.hub.openSeat())
        if table.finished or table.hasPerson():
            return
        table.awaitingPerson = table.leavingDropped
        if table.id in self._deserted:
            return
        deadline = self._deserted[table.id] = Deadline(self.hub.clock)
        deadline.start(self.hub.settings.timeout, lambda: self._nobodyLeft(table, seat))

        def finished(result: object) -> None:
            deadline.cancel()
            self._deserted.pop(table.id, None)

        table.whenFinished().addBoth(finished)

    def _nobodyLeft(self, table: Table, seat: Seat) -> None:
        """No person came back in time: the game ends (its last leaver resigns)."""
        self._deserted.pop(table.id, None)
        if table.finished or table.hasPerson():
            return
        log.info("game {id}: no player left, the game ends", id=table.id)
        table.resign(seat)
        if not table.finished:
            table.abort("no player left")


class Hub:
    """
    The centre every protocol server, the engine JSON protocol, the API and
    the page share: the registry, the store, the clock, the rng, the live
    tables and the matchmakers.
    """

    def __init__(
        self,
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        registry: EngineRegistry | None = None,
        *,
        settings: HubSettings = HubSettings(),
        limits: Limits = Limits(),
        batchCommits: bool = False,
    ) -> None:
        """
        With ``batchCommits``, a store in a SQLite file commits the writes
        of each reactor turn together (L{SQLiteRecordStore.batchCommits})
        through the hub's L{outbox}, which holds what the connections write
        until then.  A database in memory, which no commit makes durable,
        commits each write at once and holds nothing.
        """
        if clock is None:
            from twisted.internet import reactor as clock  # type: ignore[assignment]
        self.clock: IReactorTime = clock  # type: ignore[assignment]
        self.outbox = Outbox(self.clock)
        """Where the connections' writes wait for the turn's commit (L{gameproto.engine.outbox})."""
        self.store: RecordStore = store if store is not None else MemoryRecordStore()
        self.rng = rng or random.Random()
        if registry is None:
            from gameproto.engine.registry import builtins

            registry = builtins()
        self.registry = registry
        self.settings = settings
        self.limits = limits
        """What one connection or peer may cost, on every port (L{gameproto.net.Limits})."""
        self.matchmakers: dict[str, Matchmaker] = {}
        self.tables: dict[int, tuple[Table, TableHost]] = {}
        self._host = _HubHost(self)
        self.metrics = Metrics(lambda: [table for table, _ in self.tables.values()])
        """This service's metrics (L{gameproto.metrics}): every layer counts there."""
        if isinstance(self.store, TimedStore):
            self.store.timeWrites(self.metrics.storeTimer)
        if batchCommits and isinstance(self.store, SQLiteRecordStore) \
                and self.store.path != ":memory:":
            self.store.batchCommits(self.outbox)
        self._peers: dict[int, str] = {}
        """The peer that created each game hosted here (games being created: negative keys)."""
        self._creating = 0
        self._creations: dict[str, tuple[float, float]] = {}
        """Each peer's creations left (a token bucket), and when it was counted."""
        self.faults = FaultLog(self.clock)
        """Where every protocol logs its clients' faults, at a bounded rate per peer."""
        self.stopping = False
        """The server is stopping (L{stop}): no new game, the live ones kept as they are."""

    # -- every protocol's tables ---------------------------------------------

    def addMatchmaker(self, matchmaker: Matchmaker) -> None:
        """Open ``matchmaker`` to guests of every protocol, under its engine's name."""
        self.matchmakers[matchmaker.engine] = matchmaker

    def register(self, table: Table, host: TableHost) -> None:
        """
        ``table`` is live, formed by ``host``: findable until it is finished,
        and at most L{HubSettings.maxActions} long.
        """
        if table.id not in self.tables:
            self.metrics.gameStarted(table.factory.name)
        table.metrics = self.metrics
        self.tables[table.id] = (table, host)
        if self.stopping:
            table.suspend()
        if table.maxActions is None:
            table.maxActions = self.settings.maxActions

        def gone(result: object) -> None:
            entry = self.tables.get(table.id)
            if entry is not None and entry[0] is table:
                del self.tables[table.id]
                self._peers.pop(table.id, None)

        table.whenFinished().addBoth(gone)

    def stop(self) -> None:
        """
        The server is stopping, before its connections close: every live
        game is suspended (L{Table.suspend}), kept as it is for the next
        start, so that players dropped by the stop neither resign nor hand
        their seats to bots, and nobody is told a result that did not
        happen.  No new game is created from now on.
        """
        if self.stopping:
            return
        self.stopping = True
        live = [table for table, _ in self.tables.values() if not table.finished]
        for table in live:
            table.suspend()
        if live:
            log.info("stopping: {count} live game(s) kept for the next start",
                     count=len(live))

    def findTable(self, gameId: int) -> Table | None:
        """A live game of any protocol."""
        entry = self.tables.get(gameId)
        return entry[0] if entry is not None else None

    def vacate(self, table: Table, seat: Seat, dropped: bool = False) -> None:
        """
        The holder of ``seat`` left ``table`` (``dropped``: its connection
        was lost, it may come back with the seat's token): its host decides
        what the seat becomes.
        """
        entry = self.tables.get(table.id)
        if entry is not None and entry[0] is table and not table.finished \
                and not table.suspended:
            table.leaving = seat  # a resignation now is a leaving (Table.lastResignation)
            table.leavingDropped = dropped
            try:
                entry[1].vacate(table, seat)
            finally:
                table.leaving = None
                table.leavingDropped = False

    # -- the games the hub hosts ---------------------------------------------

    def hosts(self, table: Table) -> bool:
        """Whether ``table`` is a live game hosted by the hub (one that L{join} can seat)."""
        entry = self.tables.get(table.id)
        return entry is not None and entry[0] is table and entry[1] is self._host

    def openSeats(self, table: Table) -> list[Seat]:
        """
        The seats of ``table`` nobody holds and no person held: those anybody
        may take (a seat a person left stays theirs, for their token).
        """
        return [n for n, holder in enumerate(table.holders)
                if isinstance(holder, OpenSeat) and not table.record.claimed(n)]

    def claim(self, table: Table, seat: Seat, token: str | None = None) -> str:
        """
        The token of ``seat``, now held by a person: ``token`` when it is
        that seat's already (a player back in its seat keeps it), else a new
        one, whose sha256 the store keeps (it outlives a restart).
        """
        record = table.record
        if token is not None and record.tokenOpens(seat, token):
            return token
        fresh = secrets.token_urlsafe(TOKEN_BYTES)
        record.tokens[seat] = hashToken(fresh)
        if not table.finished:
            self.store.seatsChanged(record)
        return fresh

    def openSeat(self) -> OpenSeat:
        """An open seat of a game hosted here, with the time it may wait."""
        return OpenSeat(self.settings.openSeatTimeout)

    def botSeat(self, bot: Bot, name: str) -> BotSeat:
        """A bot's seat in a game hosted here: paced while no person sits at the game."""
        return BotSeat(bot, self.clock, name, pace=self.settings.botDelay)

    def hostedCount(self, peer: str | None = None) -> int:
        """
        How many games the hub hosts (and is creating): in all, or those
        created by ``peer``.
        """
        if peer is None:
            return self._creating + sum(1 for _, host in self.tables.values()
                                        if host is self._host)
        return sum(1 for owner in self._peers.values() if owner == peer)

    def creationWait(self, peer: str) -> float | None:
        """
        Take one of ``peer``'s game creations (a token bucket of
        L{HubSettings.gamesPerMinute}): None when it may create a game now,
        else the seconds until it may.
        """
        now = self.clock.seconds()
        size = float(self.settings.gamesPerMinute)
        rate = size / 60.0
        level, then = self._creations.get(peer, (size, now))
        level = min(size, level + (now - then) * rate)
        if level < 1.0:
            self._creations[peer] = (level, now)
            return (1.0 - level) / rate
        self._creations[peer] = (level - 1.0, now)
        if len(self._creations) > 10_000:
            # Forget the peers whose bucket is full again (as if never seen).
            self._creations = {
                who: (left, at) for who, (left, at) in self._creations.items()
                if left + (now - at) * rate < size}
        return None

    def refusesGame(self, peer: str | None = None) -> str | None:
        """
        Why a new game (created by ``peer``, when known) cannot be hosted
        now: the hub hosts L{HubSettings.maxGames} games, or that peer
        L{HubSettings.maxGamesPerPeer}; None when it can.
        """
        if self.stopping:
            return "the server is stopping: try again once it is back"
        if self.hostedCount() >= self.settings.maxGames:
            return f"too many games at once ({self.settings.maxGames}): try again later"
        if peer is not None and self.hostedCount(peer) >= self.settings.maxGamesPerPeer:
            return (f"too many games created from {peer} at once "
                    f"({self.settings.maxGamesPerPeer}): finish one first")
        return None

    def guestSeat(self, guest: Guest, bot: Bot | None) -> GuestSeat:
        """
        ``guest``'s seat in a game hosted here: the hub's time per action;
        then the engine's bot plays the move, or (without a bot) the seat resigns.
        """

        def expired(table: Table, seat: Seat) -> None:
            if bot is not None:
                table.playFor(seat, bot)
            else:
                table.resign(seat)

        return GuestSeat(guest, lambda table, seat: self.settings.timeout, expired)

    def newGame(self, engine: str, init: dict[str, JSON],
                bots: Sequence[int] = (), *, peer: str | None = None
                ) -> Deferred[Table | Errors | str]:
        """
        Start a game of ``engine`` hosted here, its seats open but for the
        players in ``bots`` (numbered from 1), which the engine's bot holds:
        the table, INITIALISATION's errors, or what is wrong (among which,
        L{refusesGame}: ``peer`` is who asks, its address).
        """
        factory = self.registry.get(engine)
        if factory is None:
            return succeed(f"no engine {engine!r}")
        refusal = self.refusesGame(peer)
        if refusal is not None:
            return succeed(refusal)
        self._creating += 1
        key = -self._creating
        while key in self._peers:
            key -= 1
        if peer is not None:
            self._peers[key] = peer
        started: Deferred[GameEngine | Errors]
        try:
            result = factory.start(init, None, self.rng)
        except Exception:
            started = fail()
        else:
            started = result if isinstance(result, Deferred) else succeed(result)

        def ready(game: GameEngine | Errors) -> Table | Errors | str:
            if isinstance(game, Errors):
                return game
            bot = factory.bot(dict(game.params))
            if bots and bot is None:
                game.stop()
                return f"the engine {factory.name} has no bot"
            if any(not 1 <= b <= game.players for b in bots):
                game.stop()
                return f"bots must be players 1..{game.players}"
            if len(set(bots)) != len(bots):
                game.stop()
                return f"bots must be players 1..{game.players}, each named once"
            holders: list[SeatHolder] = [
                self.botSeat(bot, f"bot{n + 1}") if bot is not None and n + 1 in bots
                else self.openSeat()
                for n in range(game.players)
            ]
            table = self._hostGame(factory, game, holders)
            if table.finished and table.record.error is not None:
                return table.record.error  # aborted at its start (the engine failed)
            if peer is not None and not table.finished:
                self._peers[table.id] = peer
            return table

        def failed(failure: Failure) -> str:
            return f"the engine {engine} failed: {failure.getErrorMessage()}"

        def created(result: object) -> object:
            self._creating -= 1
            self._peers.pop(key, None)
            return result

        made: Deferred[Table | Errors | str] = started.addCallbacks(ready, failed)
        made.addBoth(created)
        return made

    def join(self, gameId: int, guest: Guest, player: int | None = None,
             token: str | None = None) -> str | None:
        """
        Seat ``guest`` in a game hosted here: as ``player`` (numbered from
        1), or in the first open seat.  With ``token``, the seat that token
        is of (``player``'s, when given), whoever holds it now: the bot
        playing it meanwhile, or another connection of the same person
        (that guest loses the seat).  None, or why it cannot be.
        """
        table = self.findTable(gameId)
        if table is None or not self.hosts(table):
            return f"no open game {gameId} (games of the other protocols: queue)"
        if token is not None:
            seats = [player - 1] if player is not None else list(range(len(table.holders)))
            mine = [n for n in seats if 0 <= n < len(table.holders)
                    and table.record.tokenOpens(n, token)]
            if not mine:
                which = f"player {player}" if player is not None else "any seat"
                return f"the token is not that of {which} of game {table.id}"
            index = mine[0]
        else:
            open = self.openSeats(table)
            if player is not None:
                index = player - 1
                if index not in open:
                    if 0 <= index < len(table.holders) and table.record.claimed(index):
                        return (f"player {player} of game {table.id} is not free: "
                                f"it is held, and only its token takes it back")
                    return f"player {player} of game {table.id} is not free"
            elif open:
                index = open[0]
            else:
                return f"game {table.id} has no free seat"
        previous = table.holders[index]
        table.replace(index, self.guestSeat(guest, table.factory.bot(dict(table.engine.params))))
        log.info("game {id}: {name} takes player {player}" + (" back" if token else ""),
                 id=table.id, name=guest.name, player=index + 1)
        if isinstance(previous, GuestSeat) and previous.guest is not guest:
            previous.guest.aborted(table, index,
                                   f"player {index + 1}'s seat was taken back with its token")
        return None

    def restore(self) -> Deferred[list[int]]:
        """
        Replay every game a previous run left unfinished in the store and
        host it again, its seats open (bots back in the seats bots held),
        under its own id: the ids restored.
        """
        restored: list[int] = []

        def one(_: None, record: GameRecord, factory: EngineFactory) -> Deferred[None]:
            if self.hostedCount() >= self.settings.maxGames:
                self._abandon(record, f"not restored: the hub hosts {self.settings.maxGames} "
                                      f"games already, the most it may")
                return succeed(None)
            rebuilding: Deferred[GameEngine] = replayLater(factory, record)

            def rebuilt(engine: GameEngine) -> None:
                bot = factory.bot(dict(engine.params))
                holders: list[SeatHolder] = [
                    self.botSeat(bot, name) if bot is not None and isBotName(name)
                    else self.openSeat() for name in record.seats
                ]
                self._hostGame(factory, engine, holders, record)
                restored.append(record.id)

            def failed(failure: Failure) -> None:
                self._abandon(record, f"could not be restored: {failure.getErrorMessage()}")

            def lost(failure: Failure) -> None:
                # Each game on its own: the next ones are restored all the same.
                log.error("game {id} ({engine}) could not be restored: {error}",
                          id=record.id, engine=record.engine, error=failure.getErrorMessage())

            return rebuilding.addCallbacks(rebuilt, failed).addErrback(lost)

        done: Deferred[None] = succeed(None)
        for record in list(self.store.unfinished()):
            if record.id in self.tables:
                continue  # live here already
            factory = self.registry.get(record.engine)
            if factory is None:
                self._abandon(record, f"no engine {record.engine!r} to restore it")
                continue
            if len(record.actions) > self.settings.maxActions:
                self._abandon(record, f"not restored: {len(record.actions)} actions, more "
                                      f"than the {self.settings.maxActions} a game may have")
                continue
            done.addCallback(one, record, factory)
        return done.addCallback(lambda _: restored)

    # -- inside --------------------------------------------------------------

    def _hostGame(self, factory: EngineFactory, engine: GameEngine,
               holders: list[SeatHolder], record: GameRecord | None = None) -> Table:
        table = Table(factory, engine, holders, self.clock, self.store, record)
        self.register(table, self._host)
        table.start()
        return table

    def _abandon(self, record: GameRecord, reason: str) -> None:
        record.error = reason
        record.finished = self.clock.seconds()
        try:
            self.store.gameFinished(record)
        except Exception as e:
            reason += f" (and the store could not mark it aborted: {e})"
        log.info("game {id} ({engine}) {reason}", id=record.id, engine=record.engine,
                 reason=reason)
