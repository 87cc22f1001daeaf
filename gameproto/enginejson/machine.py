"""
The engine JSON protocol's sequence for one player connection: in the lobby,
creating or joining a game, queued for a protocol's matchmaking, seated,
watching, closed.
"""

from __future__ import annotations

from typing import Protocol

from automat import TypeMachineBuilder

from gameproto.enginejson import wire
from gameproto.machines import indexed


def stateName(machine: object) -> str:
    return machine.__automat_transitioner__._state.name  # type: ignore[attr-defined]


class PlayerInputs(Protocol):
    def create(self, message: wire.Create) -> None: "create received."
    def join(self, message: wire.Join) -> None: "join received."
    def queue(self, message: wire.Queue) -> None: "queue received."
    def watch(self, message: wire.Watch) -> None: "watch received."
    def action(self, message: wire.Action) -> None: "action received."
    def leave(self) -> None: "leave received."
    def malformed(self, reason: str) -> None: "A message that is not one (BAD_FORMAT)."
    def seated(self) -> None: "The player holds a seat now."
    def watching(self) -> None: "The player follows a game now."
    def refused(self) -> None: "The request could not be granted (the problem was told)."
    def gameEnded(self) -> None: "The game is over (or aborted)."
    def connectionLost(self) -> None: "The connection is gone."
    def idle(self) -> None: "Nothing came from the client for the idle time."


class PlayerCore(Protocol):
    def problem(self, text: str) -> None: "Tell the client why its message cannot be served."
    def badFormat(self, reason: str) -> None: "Answer BAD_FORMAT."
    def startCreate(self, message: wire.Create) -> None: "Create; answer seated, refused or gameEnded."
    def startJoin(self, message: wire.Join) -> None: "Join; answer seated or refused."
    def startQueue(self, message: wire.Queue) -> None: "Queue; answer refused or, later, seated."
    def startWatch(self, message: wire.Watch) -> None: "Watch; answer watching or refused."
    def act(self, message: wire.Action) -> None: "Play the action for the seat held."
    def leaveSeat(self) -> None: "Give the seat up (a bot or a resignation)."
    def leaveQueue(self) -> None: "Leave the matchmaking."
    def stopWatching(self) -> None: "Stop following the game."
    def left(self) -> None: "Tell the client it is back in the lobby."
    def cleanUp(self) -> None: "The connection is gone: give up seat, queue or watch."
    def dropIdle(self) -> None: "Close a connection that stayed idle in the lobby."
    def keepWaiting(self) -> None: "Idle, but in a game, queue or request: time again."


def _build() -> type:
    builder = TypeMachineBuilder(PlayerInputs, PlayerCore)
    lobby = builder.state("lobby")
    creating = builder.state("creating")
    joining = builder.state("joining")
    queued = builder.state("queued")
    seated = builder.state("seated")
    starting = builder.state("watchStarting")
    watching = builder.state("watching")
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

    for state in (creating, joining, queued):
        state.upon(PlayerInputs.seated).to(seated).returns(None)
        state.upon(PlayerInputs.refused).to(lobby).returns(None)
    creating.upon(PlayerInputs.gameEnded).to(lobby).returns(None)  # created without a seat
    starting.upon(PlayerInputs.watching).to(watching).returns(None)
    starting.upon(PlayerInputs.refused).to(lobby).returns(None)

    @seated.upon(PlayerInputs.action).loop()
    def act(machine: PlayerInputs, core: PlayerCore, message: wire.Action) -> None:
        core.act(message)

    @seated.upon(PlayerInputs.leave).to(lobby)
    def leaveSeat(machine: PlayerInputs, core: PlayerCore) -> None:
        core.leaveSeat()
        core.left()

    @queued.upon(PlayerInputs.leave).to(lobby)
    def leaveQueue(machine: PlayerInputs, core: PlayerCore) -> None:
        core.leaveQueue()
        core.left()

    @watching.upon(PlayerInputs.leave).to(lobby)
    def stopWatching(machine: PlayerInputs, core: PlayerCore) -> None:
        core.stopWatching()
        core.left()

    @lobby.upon(PlayerInputs.leave).loop()
    def leaveLobby(machine: PlayerInputs, core: PlayerCore) -> None:
        core.left()

    for state in (seated, watching):
        state.upon(PlayerInputs.gameEnded).to(lobby).returns(None)
    for state in (lobby, queued, joining, starting):
        state.upon(PlayerInputs.gameEnded).loop().returns(None)

    def busy(what: str):  # type: ignore[no-untyped-def]
        def refuse(machine: PlayerInputs, core: PlayerCore, *args: object) -> None:
            core.problem(what)
        return refuse

    for state in (creating, joining, queued, seated, starting, watching):
        for input in (PlayerInputs.create, PlayerInputs.join, PlayerInputs.queue,
                      PlayerInputs.watch):
            state.upon(input).loop()(busy("leave the current game or queue first"))
    for state in (lobby, creating, joining, queued, starting, watching):
        state.upon(PlayerInputs.action).loop()(busy("no seat: join a game first"))
    for state in (creating, joining, starting):
        state.upon(PlayerInputs.leave).loop()(busy("wait for the answer first"))

    for state in (lobby, creating, joining, queued, seated, starting, watching):
        @state.upon(PlayerInputs.malformed).loop()
        def malformed(machine: PlayerInputs, core: PlayerCore, reason: str) -> None:
            core.badFormat(reason)

        @state.upon(PlayerInputs.connectionLost).to(closed)
        def lost(machine: PlayerInputs, core: PlayerCore) -> None:
            core.cleanUp()

    # Only the lobby has an idle time: a game, a queue or a watch has its own.
    @lobby.upon(PlayerInputs.idle).to(closed)
    def idle(machine: PlayerInputs, core: PlayerCore) -> None:
        core.dropIdle()

    for state in (creating, joining, queued, seated, starting, watching):
        @state.upon(PlayerInputs.idle).loop()
        def busyIdle(machine: PlayerInputs, core: PlayerCore) -> None:
            core.keepWaiting()

    for name in ("create", "join", "queue", "watch", "action", "leave", "malformed", "seated",
                 "watching", "refused", "gameEnded", "connectionLost", "idle"):
        closed.upon(getattr(PlayerInputs, name)).loop()(lambda machine, core, *args: None)
    # A seat granted (matchmaking) or a game ending while already seated.
    seated.upon(PlayerInputs.seated).loop().returns(None)
    lobby.upon(PlayerInputs.seated).loop().returns(None)
    return builder.build()


PlayerMachine = indexed(_build())
"""Build one with ``PlayerMachine(core)``; it starts in ``lobby``."""
