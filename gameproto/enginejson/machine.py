"""
The engine JSON protocol's sequence for one player connection: in the lobby,
creating or joining a game, queued for a protocol's matchmaking, seated,
leaving a seat, watching, closed.

The machine owns where the connection is: the game it asked for
(``creating``), the seat it holds (``seated``), the matchmaking it waits in
(``queued``) and the game it follows (``watching``) are the data of those
states, not flags of the player.
"""

from __future__ import annotations

from typing import Callable, Protocol

import attrs
from automat import TypeMachine, TypeMachineBuilder

from gameproto.engine.contract import Instructions, Seat
from gameproto.engine.table import Table
from gameproto.enginejson import wire
from gameproto.machines import indexed


from gameproto.machines import stateName as stateName


@attrs.frozen
class Creating:
    """The data of ``creating``: the game asked for (whether to take a seat in it)."""

    message: wire.Create


@attrs.frozen
class Seated:
    """The data of ``seated``: the seat the player holds."""

    table: Table
    seat: Seat


@attrs.frozen
class Queued:
    """The data of ``queued``: the matchmaking (by engine name) the player waits in."""

    engine: str


@attrs.frozen
class Watching:
    """The data of ``watching``: the game the player follows."""

    table: Table


class PlayerInputs(Protocol):
    def create(self, message: wire.Create) -> None: "create received."
    def join(self, message: wire.Join) -> None: "join received."
    def queue(self, message: wire.Queue) -> None: "queue received."
    def watch(self, message: wire.Watch) -> None: "watch received."
    def action(self, message: wire.Action) -> None: "action received."
    def leave(self) -> None: "leave received."
    def malformed(self, reason: str) -> None: "A message that is not one (BAD_FORMAT)."
    def created(self, table: Table) -> None: "The game asked for exists now."
    def instructions(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        "What the player's seat may see now; the first tells the player it holds the seat."
    def watching(self, table: Table) -> None: "The player follows ``table`` now."
    def refused(self) -> None: "The request could not be granted (the problem was told)."
    def gameEnded(self) -> None: "The game is over (or aborted)."
    def leftSeat(self) -> None: "The seat left is someone else's now; its last news were told."
    def connectionLost(self) -> None: "The connection is gone."
    def idle(self) -> None: "Nothing came from the client for the idle time."


class PlayerCore(Protocol):
    def problem(self, text: str) -> None: "Tell the client why its message cannot be served."
    def badFormat(self, reason: str) -> None: "Answer BAD_FORMAT."
    def startCreate(self, message: wire.Create) -> None: "Create; answer created or refused."
    def announceCreated(self, table: Table, join: bool) -> None:
        "Tell the game created; take a seat in it if asked (answer instructions) or gameEnded."
    def startJoin(self, message: wire.Join) -> None: "Join; answer instructions or refused."
    def startQueue(self, message: wire.Queue) -> None:
        "Queue; answer refused or, later, instructions."
    def startWatch(self, message: wire.Watch) -> None: "Watch; answer watching or refused."
    def seatedAt(self, table: Table, seat: Seat) -> None: "Tell the client its seat."
    def sendInstructions(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        "Tell the client what its seat may see (and that the game ended, if it did)."
    def act(self, table: Table, seat: Seat, message: wire.Action) -> None:
        "Play the action for the seat held."
    def leaveSeat(self, table: Table, seat: Seat) -> None:
        "Give the seat up (the table's host decides what it becomes); answer leftSeat."
    def dropSeat(self, table: Table, seat: Seat) -> None:
        "The connection is gone from the seat: its token may take it back (the host decides meanwhile)."
    def leaveQueue(self, engine: str) -> None: "Leave that matchmaking."
    def stopWatching(self, table: Table) -> None: "Stop following the game."
    def left(self) -> None: "Tell the client it is back in the lobby."
    def dropIdle(self) -> None: "Close a connection that stayed idle in the lobby."
    def keepWaiting(self) -> None: "Idle, but in a game, queue or request: time again."


def _creating(machine: PlayerInputs, core: PlayerCore, message: wire.Create) -> Creating:
    return Creating(message)


def _seated(machine: PlayerInputs, core: PlayerCore, table: Table, seat: Seat,
            instructions: Instructions) -> Seated:
    return Seated(table, seat)


def _queued(machine: PlayerInputs, core: PlayerCore, message: wire.Queue) -> Queued:
    return Queued(message.engine)


def _watching(machine: PlayerInputs, core: PlayerCore, table: Table) -> Watching:
    return Watching(table)


def _build() -> TypeMachine[PlayerInputs, PlayerCore]:
    builder = TypeMachineBuilder(PlayerInputs, PlayerCore)  # type: ignore[type-abstract]
    lobby = builder.state("lobby")
    creating = builder.state("creating", _creating)
    joining = builder.state("joining")
    queued = builder.state("queued", _queued)
    seated = builder.state("seated", _seated)
    leaving = builder.state("leaving")
    starting = builder.state("watchStarting")
    watching = builder.state("watching", _watching)
    closed = builder.state("closed")

    @lobby.upon(PlayerInputs.create).to(creating)
    def create(machine: PlayerInputs, core: PlayerCore, message: wire.Create) -> None:
        core.startCreate(message)

    @lobby.upon(PlayerInputs.join).to(joining)
    def join(machine: PlayerInputs, core: PlayerCore, message: wire.Join) -> None:
        core.startJoin(message)

    @lobby.upon(PlayerInputs.queue).to(queued)
    def queue(machine: PlayerInputs, core: PlayerCore, message: wire.Queue) -> None:
        core.startQueue(message)

    @lobby.upon(PlayerInputs.watch).to(starting)
    def watch(machine: PlayerInputs, core: PlayerCore, message: wire.Watch) -> None:
        core.startWatch(message)

    # The game asked for exists; a connection gone meanwhile takes no seat in it.
    @creating.upon(PlayerInputs.created).loop()
    def created(machine: PlayerInputs, core: PlayerCore, data: Creating, table: Table) -> None:
        core.announceCreated(table, data.message.join)

    # A seat granted: its first instructions say where.
    @joining.upon(PlayerInputs.instructions).to(seated)
    def seatedFromJoin(machine: PlayerInputs, core: PlayerCore, table: Table, seat: Seat,
                       instructions: Instructions) -> None:
        core.seatedAt(table, seat)
        core.sendInstructions(table, seat, instructions)

    @creating.upon(PlayerInputs.instructions).to(seated)
    def seatedFromCreate(machine: PlayerInputs, core: PlayerCore, data: Creating, table: Table,
                         seat: Seat, instructions: Instructions) -> None:
        core.seatedAt(table, seat)
        core.sendInstructions(table, seat, instructions)

    @queued.upon(PlayerInputs.instructions).to(seated)
    def seatedFromQueue(machine: PlayerInputs, core: PlayerCore, data: Queued, table: Table,
                        seat: Seat, instructions: Instructions) -> None:
        core.seatedAt(table, seat)
        core.sendInstructions(table, seat, instructions)

    @seated.upon(PlayerInputs.instructions).loop()
    def instructed(machine: PlayerInputs, core: PlayerCore, data: Seated, table: Table,
                   seat: Seat, instructions: Instructions) -> None:
        core.sendInstructions(table, seat, instructions)

    # The last news of a seat being left (a resignation ending the game) are told.
    @leaving.upon(PlayerInputs.instructions).loop()
    def lastNews(machine: PlayerInputs, core: PlayerCore, table: Table, seat: Seat,
                 instructions: Instructions) -> None:
        core.sendInstructions(table, seat, instructions)

    for state in (creating, joining):
        state.upon(PlayerInputs.refused).to(lobby).returns(None)
    queued.upon(PlayerInputs.refused).to(lobby).returns(None)
    creating.upon(PlayerInputs.gameEnded).to(lobby).returns(None)  # created without a seat
    starting.upon(PlayerInputs.watching).to(watching).returns(None)
    starting.upon(PlayerInputs.refused).to(lobby).returns(None)

    @seated.upon(PlayerInputs.action).loop()
    def act(machine: PlayerInputs, core: PlayerCore, data: Seated,
            message: wire.Action) -> None:
        core.act(data.table, data.seat, message)

    @seated.upon(PlayerInputs.leave).to(leaving)
    def leaveSeat(machine: PlayerInputs, core: PlayerCore, data: Seated) -> None:
        core.leaveSeat(data.table, data.seat)

    @leaving.upon(PlayerInputs.leftSeat).to(lobby)
    def leftSeat(machine: PlayerInputs, core: PlayerCore) -> None:
        core.left()

    @queued.upon(PlayerInputs.leave).to(lobby)
    def leaveQueue(machine: PlayerInputs, core: PlayerCore, data: Queued) -> None:
        core.leaveQueue(data.engine)
        core.left()

    @watching.upon(PlayerInputs.leave).to(lobby)
    def stopWatching(machine: PlayerInputs, core: PlayerCore, data: Watching) -> None:
        core.stopWatching(data.table)
        core.left()

    @lobby.upon(PlayerInputs.leave).loop()
    def leaveLobby(machine: PlayerInputs, core: PlayerCore) -> None:
        core.left()

    seated.upon(PlayerInputs.gameEnded).to(lobby).returns(None)

    @watching.upon(PlayerInputs.gameEnded).to(lobby)
    def watchEnded(machine: PlayerInputs, core: PlayerCore, data: Watching) -> None:
        core.stopWatching(data.table)

    for state in (lobby, joining, starting, leaving):
        state.upon(PlayerInputs.gameEnded).loop().returns(None)
    queued.upon(PlayerInputs.gameEnded).loop().returns(None)
    # No seat to hear of: the news of a seat given up, or granted too late.
    for state in (lobby, starting):
        state.upon(PlayerInputs.instructions).loop().returns(None)
    watching.upon(PlayerInputs.instructions).loop().returns(None)

    def busy(what: str):  # type: ignore[no-untyped-def]
        def refuse(machine: PlayerInputs, core: PlayerCore, *args: object) -> None:
            core.problem(what)
        return refuse

    for state in (joining, starting, leaving):
        for input in (PlayerInputs.create, PlayerInputs.join, PlayerInputs.queue,
                      PlayerInputs.watch):
            state.upon(input).loop()(busy("leave the current game or queue first"))
    for dataState in (creating, queued, seated, watching):
        for input in (PlayerInputs.create, PlayerInputs.join, PlayerInputs.queue,
                      PlayerInputs.watch):
            dataState.upon(input).loop()(busy("leave the current game or queue first"))
    for state in (lobby, joining, starting, leaving):
        state.upon(PlayerInputs.action).loop()(busy("no seat: join a game first"))
    for dataState in (creating, queued, watching):
        dataState.upon(PlayerInputs.action).loop()(busy("no seat: join a game first"))
    for state in (joining, starting, leaving):
        state.upon(PlayerInputs.leave).loop()(busy("wait for the answer first"))
    creating.upon(PlayerInputs.leave).loop()(busy("wait for the answer first"))

    def malformed(machine: PlayerInputs, core: PlayerCore, reason: str) -> None:
        core.badFormat(reason)

    def malformedWithData(machine: PlayerInputs, core: PlayerCore, data: object,
                          reason: str) -> None:
        core.badFormat(reason)

    for state in (lobby, joining, starting, leaving):
        state.upon(PlayerInputs.malformed).loop()(malformed)
        state.upon(PlayerInputs.connectionLost).to(closed).returns(None)
    creating.upon(PlayerInputs.connectionLost).to(closed).returns(None)
    for dataState in (creating, queued, seated, watching):
        dataState.upon(PlayerInputs.malformed).loop()(malformedWithData)

    @seated.upon(PlayerInputs.connectionLost).to(closed)
    def lostSeated(machine: PlayerInputs, core: PlayerCore, data: Seated) -> None:
        core.dropSeat(data.table, data.seat)

    @queued.upon(PlayerInputs.connectionLost).to(closed)
    def lostQueued(machine: PlayerInputs, core: PlayerCore, data: Queued) -> None:
        core.leaveQueue(data.engine)

    @watching.upon(PlayerInputs.connectionLost).to(closed)
    def lostWatching(machine: PlayerInputs, core: PlayerCore, data: Watching) -> None:
        core.stopWatching(data.table)

    # Only the lobby has an idle time: a game, a queue or a watch has its own.
    @lobby.upon(PlayerInputs.idle).to(closed)
    def idle(machine: PlayerInputs, core: PlayerCore) -> None:
        core.dropIdle()

    def busyIdle(machine: PlayerInputs, core: PlayerCore, *args: object) -> None:
        core.keepWaiting()

    for state in (joining, starting, leaving):
        state.upon(PlayerInputs.idle).loop()(busyIdle)
    for dataState in (creating, queued, seated, watching):
        dataState.upon(PlayerInputs.idle).loop()(busyIdle)

    everyInput: tuple[Callable[..., None], ...] = (
        PlayerInputs.create, PlayerInputs.join, PlayerInputs.queue, PlayerInputs.watch,
        PlayerInputs.action, PlayerInputs.leave, PlayerInputs.malformed, PlayerInputs.created,
        PlayerInputs.instructions, PlayerInputs.watching, PlayerInputs.refused,
        PlayerInputs.gameEnded, PlayerInputs.leftSeat, PlayerInputs.connectionLost,
        PlayerInputs.idle)
    for anyInput in everyInput:
        closed.upon(anyInput).loop()(lambda machine, core, *args: None)
    return builder.build()


PlayerMachine = indexed(_build())
"""Build one with ``PlayerMachine(core)``; it starts in ``lobby``."""
