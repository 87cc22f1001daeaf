"""
The engine JSON protocol's server side: players who create, join and watch
games hosted by the hub, and who take seats at the matchmaking of the other
protocols (a browser against a client of another protocol) as the hub's
guests.  It names no other protocol: the hub's
matchmakers and hosts apply each protocol's rules.
"""

from __future__ import annotations

import operator
import random
import weakref
from typing import Callable

import attrs
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from gameproto.engine.clock import positiveSeconds
from gameproto.engine.contract import (
    JSON,
    Display,
    Errors,
    Instructions,
    RequestedAction,
    Seat,
    seatColours,
)
from gameproto.engine.hub import BOT_SUFFIX, Hub
from gameproto.engine.record import RecordStore
from gameproto.engine.registry import EngineRegistry
from gameproto.engine.service import GameServer
from gameproto.engine.table import Table
from gameproto.enginejson import wire
from gameproto.enginejson.machine import PlayerInputs, PlayerMachine
from gameproto.enginejson.protocol import EngineJsonServerProtocol
from gameproto.net import GameServerFactory, hostOf

log = Logger(namespace="gameproto.enginejson")


@attrs.frozen
class EngineJsonSettings:
    """
    The protocol's knobs; times in seconds.  The games it creates are the
    hub's: their times are the hub's settings (L{gameproto.engine.hub.HubSettings}).
    """

    idleTimeout: float = attrs.field(default=600.0, validator=positiveSeconds)
    """Time a connection may stay in the lobby without sending anything."""


class EngineJsonPlayer:
    """
    One JSON connection: the core of its L{PlayerMachine}, the hub's
    L{gameproto.engine.hub.Guest} at the seats it takes, and a spectator
    (L{gameproto.engine.table.Watcher}) of the games it watches.
    """

    def __init__(self, server: EngineJsonServer, protocol: EngineJsonServerProtocol) -> None:
        self.server = server
        self.hub = server.hub
        self.protocol = protocol
        self.name = "player"
        self.token: str | None = None
        """The token the last ``join`` came with: the seat it takes back keeps it."""
        self.namesTold: tuple[int, int] | None = None
        """The game and L{Table.seatsVersion} whose seats' names this client was told last."""
        self.machine: PlayerInputs = PlayerMachine(self)

    def send(self, message: dict[str, JSON]) -> None:
        self.protocol.sendMessage(message)

    # -- Guest and Watcher: what the tables tell ----------------------------

    def update(self, table: Table, seat: Seat | None, instructions: Instructions) -> None:
        if seat is None:
            self.sendInstructions(table, None, instructions)
        else:
            self.machine.instructions(table, seat, instructions)

    def aborted(self, table: Table, seat: Seat | None, reason: str) -> None:
        self.ended(table, reason)

    def ended(self, table: Table, error: str | None, text: str | None = None) -> None:
        message: dict[str, JSON] = {"type": "ended", "game": table.id,
                                    "scores": table.record.scores, "error": error}
        reason = error or endReason(table, text)
        if reason:
            message["reason"] = reason
        self.send(message)
        self.machine.gameEnded()

    # -- PlayerCore --------------------------------------------------------

    def problem(self, text: str) -> None:
        self.send({"type": "problem", "message": text})

    def badFormat(self, reason: str) -> None:
        self.send({"type": "errors", "errors": [{"type": "BAD_FORMAT"}], "reason": reason})

    def startCreate(self, message: wire.Create) -> None:
        self.name = message.name
        self.token = None

        def made(result: Table | Errors | str) -> None:
            if isinstance(result, Errors):
                self.send(result.asJSON() | {"type": "errors"})
                self.machine.refused()
            elif isinstance(result, str):
                self.problem(result)
                self.machine.refused()
            else:
                self.machine.created(result)

        transport = self.protocol.transport
        peer = hostOf(transport.getPeer()) if transport is not None else None
        def failed(failure: Failure) -> None:
            log.failure("creating a game of {engine} failed", failure, engine=message.engine)
            self.problem(f"the game could not be created ({failure.getErrorMessage()})")
            self.machine.refused()

        self.hub.newGame(message.engine, message.init, message.bots,
                         peer=peer or "local").addCallbacks(made, failed)

    def announceCreated(self, table: Table, join: bool) -> None:
        self.send({"type": "created", "game": table.id, "engine": table.factory.name})
        refusal = self.hub.join(table.id, self) if join else ""
        if refusal:
            self.problem(refusal)
        if refusal is not None:
            self.machine.gameEnded()

    def startJoin(self, message: wire.Join) -> None:
        self.name = message.name
        self.token = message.token
        refusal = self.hub.join(message.game, self, message.player, message.token)
        if refusal is not None:
            self.problem(refusal)
            self.machine.refused()

    def startQueue(self, message: wire.Queue) -> None:
        self.name = message.name
        self.token = None
        matchmaker = self.hub.matchmakers.get(message.engine)
        refusal = (matchmaker.enqueue(self) if matchmaker is not None else
                   f"no matchmaking for {message.engine!r} (create or join a game instead)")
        if refusal is not None:
            self.problem(refusal)
            self.machine.refused()
        else:
            self.send({"type": "queued", "engine": message.engine})

    def startWatch(self, message: wire.Watch) -> None:
        table = self.hub.findTable(message.game)
        if table is None or table.finished:
            self.problem(f"no live game {message.game}")
            self.machine.refused()
            return
        self.send({"type": "watching", "game": table.id, "engine": table.factory.name,
                   "players": list(table.record.seats)})
        self.namesTold = (table.id, table.seatsVersion)
        self.machine.watching(table)
        table.watch(self)

    def seatedAt(self, table: Table, seat: Seat) -> None:
        # The seat's credential: what takes it back after a drop or a restart.
        token = self.hub.claim(table, seat, self.token)
        self.token = None
        self.send({"type": "seated", "game": table.id, "engine": table.factory.name,
                   "player": seat + 1, "players": list(table.record.seats), "token": token})
        self.namesTold = (table.id, table.seatsVersion)

    def sendInstructions(self, table: Table, seat: Seat | None,
                         instructions: Instructions) -> None:
        # A seat gets its own requested actions; a spectator none (zones can
        # tell about a hand), only whose turn it is.
        cache = self.server.displays
        requested = cache.requested(instructions, seat)
        # Which action these instructions follow: a player who sent one knows
        # it was accepted when "by" names them (errors say it was refused).
        actions = table.record.actions
        # The display is the seat's (None: the spectators') of this turn, made
        # and encoded once for every message that carries it.
        displays, encoded = cache.get(table, seat)
        shared = cache.shared(table, instructions)
        message: dict[str, JSON] = {
            "type": "instructions", "game": table.id,
            "player": None if seat is None else seat + 1,
            "turn": len(actions),
            "by": actions[-1].seat + 1 if actions else None,
            "displays": displays,
            "requested_actions": requested,
            "waiting_for": shared.waitingFor,
            "clocks": clocks(table, instructions, shared.waitingFor),
            "game_state": shared.gameState,
        }
        if shared.colours is not None:
            message["colours"] = shared.colours
        told = self.namesTold
        if told is None or told[1] != table.seatsVersion or told[0] != table.id:
            # A seat changed hands since: who sits where now.
            message["players"] = list(table.record.seats)
            self.namesTold = (table.id, table.seatsVersion)
        self.protocol.sendMessage(  # (what send does, one call less for each seat)
            wire.Encoded(message, wire.encodeWith(message, "displays", encoded)))
        if instructions.game_state.gameover:
            self.ended(table, None, instructions.game_state.text)

    def act(self, table: Table, seat: Seat, message: wire.Action) -> None:
        try:
            move = table.engine.decodeAction(seat, message.action)
        except Exception:  # the engine's own bug: its game ends (ended says why)
            log.failure("game {id}: the engine {engine} failed to read an action",
                        id=table.id, engine=table.factory.name)
            table.abort(f"the engine {table.factory.name} failed: it could not read an action")
            return
        if isinstance(move, Errors):
            self.send(move.asJSON() | {"type": "errors"})
            return
        outcome = table.act(seat, move)
        if isinstance(outcome, Errors):
            self._refusal(outcome)
        elif not isinstance(outcome, Instructions):  # (Deferred's check is slower)
            outcome.addCallback(self._lateRefusal, table)

    def _refusal(self, outcome: Instructions | Errors) -> None:
        if isinstance(outcome, Errors):
            self.send(outcome.asJSON() | {"type": "errors"})

    def _lateRefusal(self, outcome: Instructions | Errors, table: Table) -> None:
        """An engine's late answer: its errors, unless the game ended meanwhile (``ended`` said why)."""
        if not table.finished:
            self._refusal(outcome)

    def leaveSeat(self, table: Table, seat: Seat) -> None:
        self.hub.vacate(table, seat)
        # After what vacating the seat told (a resignation may end the game).
        self.machine.leftSeat()

    def dropSeat(self, table: Table, seat: Seat) -> None:
        self.hub.vacate(table, seat, dropped=True)

    def leaveQueue(self, engine: str) -> None:
        matchmaker = self.hub.matchmakers.get(engine)
        if matchmaker is not None:
            matchmaker.dequeue(self)

    def stopWatching(self, table: Table) -> None:
        table.unwatch(self)

    def left(self) -> None:
        self.send({"type": "left"})

    def dropIdle(self) -> None:
        seconds = self.server.settings.idleTimeout
        self.problem(f"nothing received for {seconds:g} s in the lobby: closing")
        self.protocol.dropConnection(f"idle for {seconds:g} s in the lobby")

    def keepWaiting(self) -> None:
        self.protocol.setTimeout(self.server.settings.idleTimeout)


class _TurnDisplays:
    """
    One table's displays at one turn: for each seat (None: the spectators),
    its JSON; the content of the first display encoded this turn and its
    JSON, which the next displays share the common start of.
    """

    __slots__ = ("turn", "engine", "displays", "first", "head", "table")

    def __init__(self, turn: int, engine: object, table: Table) -> None:
        self.turn = turn
        self.engine = engine
        self.displays: dict[Seat | None, tuple[list[JSON], bytes]] = {}
        self.first: tuple[tuple[dict[str, JSON], ...], bytes] | None = None
        self.head: tuple[int, bytes] | None = None
        """The first display's JSON up to a common start (how many tags), as last copied."""
        self.table = weakref.ref(table)


@attrs.frozen
class SharedParts:
    """
    The parts of an INSTRUCTIONS message every seat is sent alike, made
    once for the instructions they are of: whose actions are waited for
    (player numbers), the game state's JSON and the seats' colours.
    """

    waitingFor: list[int]
    gameState: dict[str, JSON]
    colours: list[str] | None


class DisplayCache:
    """
    Each seat's display, as JSON and encoded, made once per turn of each
    table and shared by every message that turn: the seat's own
    instructions, sent again (a seat taken back); the spectators' one
    public display, made once for all of them.  A seat's display is only
    ever given for that seat: the spectators (None) have their own.  A new
    turn (an action recorded) or a new engine (a game restored) makes them
    again; a table no longer referenced leaves the cache.

    The seats' displays of a turn often share most of their tags (the
    same board; only a line of text or a hand differs): the tags a display
    starts with that are the very objects the turn's first display started
    with are not encoded again, their JSON is copied from that display's.
    """

    def __init__(self) -> None:
        self._tables: weakref.WeakKeyDictionary[Table, _TurnDisplays] = \
            weakref.WeakKeyDictionary()
        self._last: _TurnDisplays | None = None
        """The table's displays asked for last (a turn's messages are sent one after another)."""
        self.made = 0
        """Displays made (a miss of the cache), for tests."""
        self.spliced = 0
        """Displays whose common start was copied from the turn's first one, for tests."""
        self._requested: dict[int, tuple[RequestedAction, dict[str, JSON]]] = {}
        """The JSON of requested actions seen lately, by identity (an engine may share them)."""
        self._shared: tuple[Instructions, object, SharedParts] | None = None
        """The shared parts of the last instructions asked for, with them and the engine."""

    def get(self, table: Table, seat: Seat | None) -> tuple[list[JSON], bytes]:
        """``seat``'s ``displays`` list at the table's current turn, and its JSON bytes."""
        turn = len(table.record.actions)
        current = self._last
        if current is None or current.table() is not table:
            current = self._tables.get(table)
            if current is None:
                current = self._tables[table] = _TurnDisplays(turn, table.engine, table)
            self._last = current
        if current.turn != turn or current.engine is not table.engine:
            current.turn, current.engine = turn, table.engine
            current.displays = {}
            current.first = current.head = None
        cached = current.displays.get(seat)
        if cached is None:
            display = table.engine.display(seat)
            described = displayJSON(display)
            cached = current.displays[seat] = ([described],
                                               self._encode(current, display, described))
            self.made += 1
        return cached

    def _encode(self, current: _TurnDisplays, display: Display,
                described: dict[str, JSON]) -> bytes:
        """
        The JSON of ``[described]``, as L{wire.dumps} writes it: with
        orjson, the content's common start with the turn's first display
        copied from that display's JSON.
        """
        orjson, fragment = wire._orjson, wire._fragment
        if orjson is not None and fragment is not None:
            content = display.content
            data = None
            try:
                if current.first is not None:
                    data = _spliceContent(orjson.dumps, current, content)
                    if data is not None:
                        self.spliced += 1
                if data is None:
                    data = orjson.dumps(described["content"])
                    if current.first is None:
                        current.first = (content, data)
                return b"".join((b"[", orjson.dumps({**described, "content": fragment(data)}),
                                 b"]"))
            except TypeError:  # what orjson does not write: the standard library's text
                pass
        return wire.dumps([described])

    def shared(self, table: Table, instructions: Instructions) -> SharedParts:
        """
        The parts of ``instructions``' message every seat is sent alike,
        made again for other instructions (or game state, or requests) or
        another engine.
        """
        kept = self._shared
        if kept is not None and kept[0] is instructions and kept[1] is table.engine:
            return kept[2]
        if kept is not None and kept[1] is table.engine \
                and kept[0].requested_actions is instructions.requested_actions \
                and kept[0].game_state is instructions.game_state:
            # The same instructions, filtered for a seat (forSeat): only events differ.
            parts = kept[2]
        else:
            parts = SharedParts(
                sorted({r.player + 1 for r in instructions.requested_actions}),
                instructions.game_state.asJSON(), seatColours(table.engine))
        self._shared = (instructions, table.engine, parts)
        return parts

    def requested(self, instructions: Instructions, seat: Seat | None) -> list[JSON]:
        """
        The JSON of the actions ``instructions`` request of ``seat`` (none
        for a spectator).  An engine that gives the same request again (the
        same object: requests are immutable) has its JSON made once.
        """
        described: list[JSON] = []
        seen = self._requested
        for request in instructions.requested_actions:
            if request.player != seat:
                continue
            known = seen.get(id(request))
            if known is None or known[0] is not request:
                if len(seen) >= _REQUESTS_KEPT:
                    seen.clear()
                # Kept with its request: the id is not another's while it is here.
                known = seen[id(request)] = (request, request.asJSON())
            described.append(known[1])
        return described


def _spliceContent(dumps: Callable[[object], bytes], turn: _TurnDisplays,
                   content: tuple[dict[str, JSON], ...]) -> bytes | None:
    """
    The JSON of the list ``content`` (``dumps``: orjson's), its tags that are the very
    objects the turn's first display starts with copied from that one's
    JSON (``turn.first``: its content and JSON); None when they share fewer
    than L{_SHARED_TAGS}.  A list's JSON is its items', comma separated,
    in brackets: the first's up to the common start are its bytes up to
    the JSON of the rest (kept in ``turn.head`` for the next display
    with the same common start).  Raises TypeError as ``dumps`` does.
    """
    assert turn.first is not None
    tags, data = turn.first
    same = list(map(operator.is_, tags, content))
    try:
        common = same.index(False)
    except ValueError:
        common = len(same)
    if common < _SHARED_TAGS:
        return None
    # The first display's JSON to its common start, with the comma after it.
    kept = turn.head
    if kept is not None and kept[0] == common:
        head = kept[1]
    else:
        head = (data[:len(data) - len(dumps(list(tags[common:]))) + 1]
                if common < len(tags) else data[:-1] + b",")
        turn.head = (common, head)
    if common < len(content):
        return head + dumps(list(content[common:]))[1:]
    return head[:-1] + b"]"


_SHARED_TAGS = 4
"""The fewest tags in common with the turn's first display worth copying its JSON for."""

_REQUESTS_KEPT = 4096
"""The requests whose JSON L{DisplayCache.requested} keeps, at most (then it starts again)."""


def displayJSON(display: Display) -> dict[str, JSON]:
    """
    L{Display.asJSON} without copying each tag: the display's own tag dicts
    (an engine may share them between seats and turns), only ever read.
    """
    return {"player": None if display.player is None else display.player + 1,
            "width": display.width, "height": display.height, "content": list(display.content)}


def clocks(table: Table, instructions: Instructions,
           waitingFor: list[int] | None = None) -> list[dict[str, JSON]]:
    """
    The turn clocks that run: for each seat waited for whose time is
    counted, its player number and the seconds it has left.
    ``waitingFor``: the player numbers of the seats waited for, sorted,
    when they are known already.
    """
    if waitingFor is None:
        waitingFor = sorted({r.player + 1 for r in instructions.requested_actions})
    running = []
    seats = len(table.holders)
    for player in waitingFor:
        left = table.timeLeft(player - 1) if 0 < player <= seats else None
        if left is not None:
            running.append({"player": player, "seconds": round(left, 1)})
    return running


_RESIGNED = {"time": "{name} ran out of time", "left": "{name} left the game",
             "resigned": "{name} gave up"}


def endReason(table: Table, text: str | None) -> str | None:
    """
    Why a finished game ended, in words: the seat whose resignation ended
    it (its clock ran out, its player left or gave up), else what the
    engine says (``text`` of its game state), else None.
    """
    actions = table.record.actions
    resigned = table.lastResignation
    if resigned is not None and actions and actions[-1].kind == "resign" \
            and actions[-1].seat == resigned[0]:
        seat, why = resigned
        name = table.record.seats[seat] if seat < len(table.record.seats) else f"player {seat + 1}"
        # A bot that took a leaver's seat is resigned for the person who left it.
        name = name.removesuffix(BOT_SUFFIX) or name
        return _RESIGNED.get(why, _RESIGNED["resigned"]).format(name=name)
    return text


class EngineJsonServer(GameServer[EngineJsonSettings]):
    """
    What the engine JSON connections share: their settings and the hub,
    whose games they create, join and watch and whose matchmakers they queue at.
    """

    def __init__(
        self,
        settings: EngineJsonSettings = EngineJsonSettings(),
        clock: IReactorTime | None = None,
        store: RecordStore | None = None,
        rng: random.Random | None = None,
        *,
        hub: Hub | None = None,
    ) -> None:
        super().__init__(settings, clock, store, rng, hub=hub)
        self.displays = DisplayCache()
        """Each table's displays of the current turn, made once (L{DisplayCache})."""

    @property
    def registry(self) -> EngineRegistry:
        """The engines the hub offers."""
        return self.hub.registry

    def newPlayer(self, protocol: EngineJsonServerProtocol) -> EngineJsonPlayer:
        return EngineJsonPlayer(self, protocol)


class EngineJsonServerFactory(GameServerFactory[EngineJsonServer, EngineJsonServerProtocol]):
    """Builds L{EngineJsonServerProtocol} for each connection to one L{EngineJsonServer}."""

    protocol = EngineJsonServerProtocol
