"""
The engine JSON protocol's server side: games of any engine created and
joined by JSON players, spectators, seats at the matchmaking of the other
protocols (a browser against a Protuissance 4 client, at a MaîtreTarot
table), and games restored after a restart.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any, Callable

import attrs
from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.interfaces import IReactorTime
from twisted.internet.protocol import Factory
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.engine.clock import positiveSeconds
from gameproto.engine.contract import (
    JSON,
    EngineFactory,
    Errors,
    Instructions,
    Seat,
)
from gameproto.engine.record import GameRecord, RecordStore, replayLater
from gameproto.engine.registry import EngineRegistry
from gameproto.engine.service import GameServer
from gameproto.engine.table import BotSeat, Table
from gameproto.enginejson import wire
from gameproto.enginejson.machine import PlayerInputs, PlayerMachine
from gameproto.enginejson.protocol import EngineJsonServerProtocol

if TYPE_CHECKING:
    from gameproto.connect4.server import Connect4Server
    from gameproto.maitretarot.server import TarotServer

log = Logger(namespace="gameproto.enginejson")

_NICK = re.compile(r"[A-Za-z0-9_-]{1,16}")


@attrs.frozen
class EngineJsonSettings:
    """The protocol's knobs; times in seconds."""

    timeout: float = attrs.field(default=300.0, validator=positiveSeconds)
    """Time a player seated in a game hosted here has for each action."""
    engineTimeout: float = attrs.field(default=5.0, validator=positiveSeconds)
    """Time an external engine has to answer."""
    idleTimeout: float = attrs.field(default=600.0, validator=positiveSeconds)
    """Time a connection may stay in the lobby without sending anything."""
    openSeatTimeout: float = attrs.field(default=3600.0, validator=positiveSeconds)
    """
    Time a game waits for a player to take an open seat the game asks to
    act; past it the game is aborted (its record kept), so that no game
    waits for nobody for ever.
    """


class OpenSeat:
    """
    A seat nobody holds yet (or any more): the game waits for a player to
    join, ``timeout`` seconds at most once the seat is asked to act.
    """

    name = "(open)"

    def __init__(self, timeout: float | None = None) -> None:
        self.timeout = timeout

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self.timeout

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        pass

    def timedOut(self, table: Table, seat: Seat) -> None:
        table.abort(f"nobody took player {seat + 1}'s seat in time")


class JsonSeat:
    """
    A JSON player's seat, in a game hosted here or at another protocol's
    table; ``timeout`` and ``expired`` are that table's rules for time.
    """

    reclaimable = False

    def __init__(self, player: EngineJsonPlayer,
                 timeout: Callable[[Table, Seat], float | None],
                 expired: Callable[[Table, Seat], object]) -> None:
        self.player = player
        self.name = self.nick = player.name
        self.place = -1
        self._timeout = timeout
        self._expired = expired
        self.table: Table | None = None
        self.seat: Seat = -1

    def turnTimeout(self, table: Table, seat: Seat) -> float | None:
        return self._timeout(table, seat)

    def timedOut(self, table: Table, seat: Seat) -> None:
        self._expired(table, seat)

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        if table.holders[seat] is not self:
            return
        if self.table is not table:
            self.table, self.seat = table, seat
            self.player.seatedAt(self, table, seat)
        self.player.sendInstructions(table, seat, instructions)

    def aborted(self, table: Table, seat: Seat, reason: str) -> None:
        if table.holders[seat] is self:
            self.player.ended(table, reason)

    def matched(self, table: Table, seat: Seat) -> None:
        """The Protuissance 4 queue seated us; the table's first update follows."""


class EngineJsonPlayer:
    """One JSON connection: the core of its L{PlayerMachine}."""

    def __init__(self, server: EngineJsonServer, protocol: EngineJsonServerProtocol) -> None:
        self.server = server
        self.protocol = protocol
        self.name = "player"
        self.seat: JsonSeat | None = None
        self.watched: Table | None = None
        self.queuedAt: tuple[str, object] | None = None
        self.machine: PlayerInputs = PlayerMachine(self)

    def send(self, message: dict[str, JSON]) -> None:
        self.protocol.sendMessage(message)

    # -- what the tables tell ----------------------------------------------

    def seatedAt(self, seat: JsonSeat, table: Table, index: Seat) -> None:
        self.seat = seat
        self.queuedAt = None
        self.send({"type": "seated", "game": table.id, "engine": table.factory.name,
                   "player": index + 1, "players": list(table.record.seats)})
        self.machine.seated()

    def sendInstructions(self, table: Table, seat: Seat | None,
                         instructions: Instructions) -> None:
        # A seat gets its own requested actions; a spectator none (zones can
        # tell about a hand), only whose turn it is.
        requested = [r.asJSON() for r in instructions.requested_actions if r.player == seat]
        # Which action these instructions follow: a player who sent one knows
        # it was accepted when "by" names them (errors say it was refused).
        actions = table.record.actions
        self.send({
            "type": "instructions", "game": table.id,
            "player": None if seat is None else seat + 1,
            "turn": len(actions),
            "by": actions[-1].seat + 1 if actions else None,
            "displays": [table.engine.display(seat).asJSON()],
            "requested_actions": requested,
            "waiting_for": sorted({r.player + 1 for r in instructions.requested_actions}),
            "game_state": instructions.game_state.asJSON(),
        })
        if instructions.game_state.gameover:
            self.ended(table, None)

    def ended(self, table: Table, error: str | None) -> None:
        self.send({"type": "ended", "game": table.id, "scores": table.record.scores,
                   "error": error})
        self.seat = None
        if self.watched is table:
            table.unwatch(self)
            self.watched = None
        self.machine.gameEnded()

    # Watcher
    def update(self, table: Table, seat: None, instructions: Instructions) -> None:
        self.sendInstructions(table, None, instructions)

    def aborted(self, table: Table, seat: None, reason: str) -> None:
        self.ended(table, reason)

    # -- PlayerCore --------------------------------------------------------

    def problem(self, text: str) -> None:
        self.send({"type": "problem", "message": text})

    def badFormat(self, reason: str) -> None:
        self.send({"type": "errors", "errors": [{"type": "BAD_FORMAT"}], "reason": reason})

    def startCreate(self, message: wire.Create) -> None:
        self.name = message.name
        self.server.create(message, self)

    def startJoin(self, message: wire.Join) -> None:
        self.name = message.name
        refusal = self.server.join(message, self)
        if refusal is not None:
            self.problem(refusal)
            self.machine.refused()

    def startQueue(self, message: wire.Queue) -> None:
        self.name = message.name
        refusal = self.server.enqueue(message, self)
        if refusal is not None:
            self.problem(refusal)
            self.machine.refused()
        else:
            self.send({"type": "queued", "engine": message.engine})

    def startWatch(self, message: wire.Watch) -> None:
        table = self.server.findTable(message.game)
        if table is None or table.finished:
            self.problem(f"no live game {message.game}")
            self.machine.refused()
            return
        self.watched = table
        self.send({"type": "watching", "game": table.id, "engine": table.factory.name,
                   "players": list(table.record.seats)})
        self.machine.watching()
        table.watch(self)

    def act(self, message: wire.Action) -> None:
        seat = self.seat
        if seat is None or seat.table is None:
            self.problem("no seat")
            return
        table = seat.table
        move = table.engine.decodeAction(seat.seat, message.action)
        if isinstance(move, Errors):
            self.send(move.asJSON() | {"type": "errors"})
            return
        outcome = table.act(seat.seat, move)
        if isinstance(outcome, Deferred):
            outcome.addCallback(self._refusal)
        else:
            self._refusal(outcome)

    def _refusal(self, outcome: Instructions | Errors) -> None:
        if isinstance(outcome, Errors):
            self.send(outcome.asJSON() | {"type": "errors"})

    def leaveSeat(self) -> None:
        seat, self.seat = self.seat, None
        if seat is not None:
            self.server.vacate(seat)

    def leaveQueue(self) -> None:
        self.server.dequeue(self)

    def stopWatching(self) -> None:
        if self.watched is not None:
            self.watched.unwatch(self)
            self.watched = None

    def left(self) -> None:
        self.send({"type": "left"})

    def cleanUp(self) -> None:
        self.leaveSeat()
        self.leaveQueue()
        self.stopWatching()

    def dropIdle(self) -> None:
        seconds = self.server.settings.idleTimeout
        self.problem(f"nothing received for {seconds:g} s in the lobby: closing")
        self.protocol.dropConnection(f"idle for {seconds:g} s in the lobby")

    def keepWaiting(self) -> None:
        self.protocol.setTimeout(self.server.settings.idleTimeout)


class EngineJsonServer(GameServer[EngineJsonSettings]):
    """
    The games created through the engine JSON protocol (and those restored
    at start), and the way into the other protocols' games.
    """

    def __init__(
        self,
        settings: EngineJsonSettings = EngineJsonSettings(),
        registry: EngineRegistry | None = None,
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        connect4: Connect4Server | None = None,
        tarot: TarotServer | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng)
        if registry is None:
            from gameproto.engine.registry import builtins

            registry = builtins()
        self.registry = registry
        self.connect4 = connect4
        self.tarot = tarot
        self.hosted: dict[int, Table] = {}

    def newPlayer(self, protocol: EngineJsonServerProtocol) -> EngineJsonPlayer:
        return EngineJsonPlayer(self, protocol)

    # -- games hosted here -------------------------------------------------

    def _seatFor(self, player: EngineJsonPlayer, factory: EngineFactory,
                 params: dict[str, JSON]) -> JsonSeat:
        bot = factory.bot(params)

        def expired(table: Table, seat: Seat) -> None:
            if bot is not None:
                table.playFor(seat, bot)
            else:
                table.resign(seat)

        return JsonSeat(player, lambda table, seat: self.settings.timeout, expired)

    def _openSeat(self) -> OpenSeat:
        return OpenSeat(self.settings.openSeatTimeout)

    def _host(self, table: Table) -> None:
        self.hosted[table.id] = table
        table.whenFinished().addBoth(lambda result: self.hosted.pop(table.id, None))

    def newGame(self, engine: str, init: dict[str, JSON],
                bots: tuple[int, ...] = ()) -> Deferred[Table | Errors | str]:
        """
        Start a game of ``engine`` hosted here, its seats open but for the
        players in ``bots``: the table, INITIALISATION's errors, or what is wrong.
        """
        factory = self.registry.get(engine)
        if factory is None:
            done: Deferred[Table | Errors | str] = Deferred()
            done.callback(f"no engine {engine!r}")
            return done
        started = maybeDeferred(factory.start, init, None, self.rng)

        def ready(game: Any) -> Table | Errors | str:
            if isinstance(game, Errors):
                return game
            bot = factory.bot(dict(game.params))
            if bots and bot is None:
                stopEngine(game)
                return f"the engine {factory.name} has no bot"
            if any(not 1 <= b <= game.players for b in bots):
                stopEngine(game)
                return f"bots must be players 1..{game.players}"
            holders: list[Any] = [
                BotSeat(bot, self.clock, f"bot{n + 1}") if n + 1 in bots else self._openSeat()
                for n in range(game.players)
            ]
            table = Table(factory, game, holders, self.clock, self.store)
            self._host(table)
            table.start()
            return table

        def failed(failure: Failure) -> str:
            return f"the engine {engine} failed: {failure.getErrorMessage()}"

        return started.addCallbacks(ready, failed)

    def create(self, message: wire.Create, player: EngineJsonPlayer) -> None:
        """Start a game for a player: told created then seated, or the errors."""

        def made(result: Table | Errors | str) -> None:
            if isinstance(result, Errors):
                player.send(result.asJSON() | {"type": "errors"})
                player.machine.refused()
            elif isinstance(result, str):
                player.problem(result)
                player.machine.refused()
            else:
                player.send({"type": "created", "game": result.id, "engine": result.factory.name})
                refusal = (self.join(wire.Join(result.id, None, message.name), player)
                           if message.join else "")
                if refusal:
                    player.problem(refusal)
                if refusal is not None:
                    player.machine.gameEnded()

        self.newGame(message.engine, message.init, message.bots).addCallback(made)

    def join(self, message: wire.Join, player: EngineJsonPlayer) -> str | None:
        """Seat ``player`` in a hosted game; the reason when it cannot be."""
        table = self.hosted.get(message.game)
        if table is None or table.finished:
            return f"no open game {message.game} (games of the other protocols: queue)"
        open = [n for n, h in enumerate(table.holders) if isinstance(h, OpenSeat)]
        if message.player is not None:
            index = message.player - 1
            if index not in open:
                return f"player {message.player} of game {table.id} is not free"
        elif open:
            index = open[0]
        else:
            return f"game {table.id} has no free seat"
        seat = self._seatFor(player, table.factory, dict(table.engine.params))
        table.replace(index, seat)
        if seat.table is None:  # the game had not started: no update came
            seat.table, seat.seat = table, index
            player.seatedAt(seat, table, index)
        return None

    def vacate(self, seat: JsonSeat) -> None:
        """A JSON player leaves its seat."""
        table = seat.table
        if table is None:
            return
        if table.id in self.hosted and not table.finished:
            bot = table.factory.bot(dict(table.engine.params))
            table.replace(seat.seat, BotSeat(bot, self.clock, f"bot{seat.seat + 1}")
                          if bot is not None else self._openSeat())
        elif self.connect4 is not None and table in self.connect4.tables:
            table.resign(seat.seat)
        elif seat.place >= 0 and self.tarot is not None:
            for session in list(self.tarot.playing):
                if session.table is table:
                    session.leave(seat)  # type: ignore[arg-type]

    def findTable(self, gameId: int) -> Table | None:
        """A live game of any protocol."""
        if gameId in self.hosted:
            return self.hosted[gameId]
        if self.connect4 is not None:
            for table in self.connect4.tables:
                if table.id == gameId:
                    return table
        if self.tarot is not None:
            for session in self.tarot.playing:
                if session.table is not None and session.table.id == gameId:
                    return session.table
        return None

    # -- the other protocols' matchmaking ------------------------------------

    def enqueue(self, message: wire.Queue, player: EngineJsonPlayer) -> str | None:
        if message.engine == "connect4" and self.connect4 is not None:
            if _NICK.fullmatch(message.name) is None:
                return "a Connect Four name is 1 to 16 of A-Z a-z 0-9 _ -"
            server = self.connect4
            seat = JsonSeat(player, self._connect4Timeout, lambda table, s: table.resign(s))
            if not server.claimNick(message.name, seat):  # type: ignore[arg-type]
                return f"the name {message.name!r} is taken"
            player.queuedAt = ("connect4", seat)
            server.queue.join(seat)  # type: ignore[arg-type]
            return None
        if message.engine == "tarot" and self.tarot is not None:
            from gameproto.games.tarot import tarotBot

            seat = JsonSeat(player, lambda table, s: self.tarot.settings.timeout,  # type: ignore[union-attr]
                            lambda table, s: table.playFor(s, tarotBot))
            session = self.tarot.waitingSession()
            seat.place = session.takePlace(seat)  # type: ignore[arg-type]
            player.queuedAt = ("tarot", (session, seat))
            session.identified(seat)  # type: ignore[arg-type]
            return None
        return f"no matchmaking for {message.engine!r} (create or join a game instead)"

    def _connect4Timeout(self, table: Table, seat: Seat) -> float:
        assert self.connect4 is not None
        settings = self.connect4.settings
        return settings.timeout + (settings.firstMoveBonus if table.turn == 0 else 0.0)

    def dequeue(self, player: EngineJsonPlayer) -> None:
        queued, player.queuedAt = player.queuedAt, None
        if queued is None:
            return
        kind, what = queued
        if kind == "connect4" and self.connect4 is not None:
            self.connect4.forget(what)  # type: ignore[arg-type]
        elif kind == "tarot":
            session, seat = what  # type: ignore[misc]
            session.leave(seat)

    # -- restoring ---------------------------------------------------------

    def restore(self) -> Deferred[list[int]]:
        """
        Replay every game a previous run left unfinished and host it again,
        its seats open (bots back in the seats bots held), under its own id.
        """
        unfinished = getattr(self.store, "unfinished", None)
        records = list(unfinished()) if unfinished is not None else []
        restored: list[int] = []

        def one(record: GameRecord) -> Deferred[None]:
            factory = self.registry.get(record.engine)
            assert factory is not None
            d = replayLater(factory, record)

            def rebuilt(engine: Any) -> None:
                bot = factory.bot(dict(engine.params))
                holders: list[Any] = [
                    BotSeat(bot, self.clock, name) if bot is not None and name.startswith("bot")
                    else self._openSeat() for name in record.seats
                ]
                table = Table(factory, engine, holders, self.clock, self.store, record)
                self._host(table)
                table.start()
                restored.append(record.id)

            def failed(failure: Failure) -> None:
                self._abandon(record, f"could not be restored: {failure.getErrorMessage()}")

            return d.addCallbacks(rebuilt, failed)

        done: Deferred[None] = Deferred()
        done.callback(None)
        for record in records:
            if self.registry.get(record.engine) is None:
                self._abandon(record, f"no engine {record.engine!r} to restore it")
                continue
            done.addCallback(lambda _, record=record: one(record))
        return done.addCallback(lambda _: restored)

    def _abandon(self, record: GameRecord, reason: str) -> None:
        log.info("game {id} ({engine}) {reason}", id=record.id, engine=record.engine,
                 reason=reason)
        record.error = reason
        record.finished = self.clock.seconds()
        self.store.gameFinished(record)


def stopEngine(engine: Any) -> None:
    stop = getattr(engine, "stop", None)
    if stop is not None:
        stop()


class EngineJsonServerFactory(Factory):
    """Builds L{EngineJsonServerProtocol} for each TCP connection to one L{EngineJsonServer}."""

    protocol = EngineJsonServerProtocol
    noisy = False

    def __init__(self, server: EngineJsonServer) -> None:
        self.server = server
