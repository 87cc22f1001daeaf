"""
The Carcassonne 1.71 sequence of one server connection, after the
document's phases: ``connected`` (nothing said yet), ``waiting`` in a room
(HELLO said), ``ready`` (READY said), ``playing`` (START told), ``over``
(the game ended: FINISH, a refused move or the last opponent gone) and
``closed``.

The machine only says what a client's message means in its phase; a message
the phase does not allow is answered NOOP.  Its core (the server's player)
does the relaying.  The data of every phase after ``connected`` is the
player's L{Member} number in its room.
"""

from __future__ import annotations

from typing import Callable, Protocol

import attrs
from automat import TypeMachine, TypeMachineBuilder

from gameproto.carcassonne import wire
from gameproto.machines import indexed
from gameproto.machines import stateName as stateName

__all__ = ["ConnectionCore", "ConnectionInputs", "ConnectionMachine", "Member", "stateName"]


@attrs.frozen
class Member:
    """The data of a phase in a room: the player's number there (1 to 5)."""

    number: int


class ConnectionInputs(Protocol):
    def hello(self, message: wire.Hello) -> None: "HELLO received."
    def helloAck(self, message: wire.HelloAck) -> None: "HELLOACK received."
    def ready(self) -> None: "READY received."
    def close(self) -> None: "CLOSE received."
    def move(self, message: wire.Move) -> None: "MOVE received."
    def moveAck(self) -> None: "MOVEACK received."
    def moveNack(self) -> None: "MOVENACK received."
    def finish(self) -> None: "FINISH received."
    def noop(self) -> None: "NOOP received (nothing to do)."
    def malformed(self, reason: str) -> None: "A line that is no message."
    def started(self) -> None: "The room's game starts (START is written)."
    def ended(self) -> None: "The game is over."
    def timedOut(self) -> None: "The connection let its time pass."
    def connectionLost(self) -> None: "The connection is gone."


class ConnectionCore(Protocol):
    @property
    def number(self) -> int: "The player's number in its room (0 before HELLO)."
    def enterRoom(self) -> int: "Take a place in the waiting room: the player's number."
    def greet(self, number: int) -> None: "HELLONACK when alone, else relay HELLO n."
    def relayHelloAck(self, number: int) -> None: "Pass player ``number``'s HELLOACK on."
    def markReady(self, number: int) -> None: "Player ``number`` is ready."
    def play(self, number: int, message: wire.Move) -> None: "Player ``number``'s MOVE."
    def acknowledge(self, number: int) -> None: "Player ``number`` accepted the last move."
    def refuse(self, number: int) -> None: "Player ``number`` refused the last move."
    def finish(self, number: int) -> None: "Player ``number`` says the game is over."
    def leave(self, number: int) -> None: "Player ``number`` leaves its room (CLOSE relayed)."
    def tooSlow(self, number: int) -> None: "Player ``number`` was too slow in the game."
    def sendNoop(self) -> None: "Answer NOOP."
    def hangUp(self, reason: str) -> None: "Close the connection, saying why in one log line."
    def end(self) -> None: "Close the connection after the client's CLOSE: not a fault."
    def gone(self) -> None: "The connection closed before its HELLO: stop its clock."


def _member(machine: ConnectionInputs, core: ConnectionCore, *args: object) -> Member:
    return Member(core.number)


def _entering(machine: ConnectionInputs, core: ConnectionCore, message: wire.Hello) -> Member:
    return Member(core.enterRoom())


def _build() -> TypeMachine[ConnectionInputs, ConnectionCore]:
    builder = TypeMachineBuilder(ConnectionInputs, ConnectionCore)  # type: ignore[type-abstract]
    connected = builder.state("connected")
    waiting = builder.state("waiting", _entering)
    ready = builder.state("ready", _member)
    playing = builder.state("playing", _member)
    over = builder.state("over", _member)
    closed = builder.state("closed")
    inRoom = (waiting, ready, playing, over)
    symbol: Callable[..., None]

    def noop(machine: ConnectionInputs, core: ConnectionCore, *args: object) -> None:
        core.sendNoop()

    def ignore(machine: ConnectionInputs, core: ConnectionCore, *args: object) -> None:
        pass

    def noopWith(machine: ConnectionInputs, core: ConnectionCore, data: Member,
                 *args: object) -> None:
        core.sendNoop()

    def ignoreWith(machine: ConnectionInputs, core: ConnectionCore, data: Member,
                   *args: object) -> None:
        pass

    # -- connected: HELLO first ------------------------------------------------

    @connected.upon(ConnectionInputs.hello).to(waiting)
    def hello(machine: ConnectionInputs, core: ConnectionCore, message: wire.Hello) -> None:
        core.greet(core.number)

    @connected.upon(ConnectionInputs.close).to(closed)
    def closeEarly(machine: ConnectionInputs, core: ConnectionCore) -> None:
        core.hangUp("CLOSE before HELLO")

    @connected.upon(ConnectionInputs.timedOut).to(closed)
    def silent(machine: ConnectionInputs, core: ConnectionCore) -> None:
        core.hangUp("no HELLO in time")

    @connected.upon(ConnectionInputs.connectionLost).to(closed)
    def goneEarly(machine: ConnectionInputs, core: ConnectionCore) -> None:
        core.gone()

    for symbol in (ConnectionInputs.helloAck, ConnectionInputs.ready, ConnectionInputs.move,
                  ConnectionInputs.moveAck, ConnectionInputs.moveNack,
                  ConnectionInputs.finish, ConnectionInputs.malformed):
        connected.upon(symbol).loop()(noop)
    for symbol in (ConnectionInputs.noop, ConnectionInputs.started, ConnectionInputs.ended):
        connected.upon(symbol).loop()(ignore)

    # -- waiting and ready: HELLOACKs go to the newcomers, READY starts -------

    for state in (waiting, ready):
        @state.upon(ConnectionInputs.helloAck).loop()
        def helloAck(machine: ConnectionInputs, core: ConnectionCore, data: Member,
                     message: wire.HelloAck) -> None:
            core.relayHelloAck(data.number)

        # START itself is written by the game, before the first TOKEN.
        state.upon(ConnectionInputs.started).to(playing).returns(None)

        for symbol in (ConnectionInputs.hello, ConnectionInputs.move, ConnectionInputs.moveAck,
                      ConnectionInputs.moveNack, ConnectionInputs.finish,
                      ConnectionInputs.malformed):
            state.upon(symbol).loop()(noopWith)
        for symbol in (ConnectionInputs.noop, ConnectionInputs.timedOut, ConnectionInputs.ended):
            state.upon(symbol).loop()(ignoreWith)

    @waiting.upon(ConnectionInputs.ready).to(ready)
    def markReady(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
        core.markReady(data.number)

    ready.upon(ConnectionInputs.ready).loop()(ignoreWith)

    # -- playing ---------------------------------------------------------------

    @playing.upon(ConnectionInputs.move).loop()
    def move(machine: ConnectionInputs, core: ConnectionCore, data: Member,
             message: wire.Move) -> None:
        core.play(data.number, message)

    @playing.upon(ConnectionInputs.moveAck).loop()
    def moveAck(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
        core.acknowledge(data.number)

    @playing.upon(ConnectionInputs.moveNack).loop()
    def moveNack(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
        core.refuse(data.number)

    @playing.upon(ConnectionInputs.finish).loop()
    def finish(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
        core.finish(data.number)

    @playing.upon(ConnectionInputs.timedOut).to(closed)
    def tooSlow(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
        core.tooSlow(data.number)

    playing.upon(ConnectionInputs.ended).to(over).returns(None)
    for symbol in (ConnectionInputs.hello, ConnectionInputs.malformed):
        playing.upon(symbol).loop()(noopWith)
    for symbol in (ConnectionInputs.helloAck, ConnectionInputs.ready, ConnectionInputs.noop,
                  ConnectionInputs.started):
        playing.upon(symbol).loop()(ignoreWith)

    # -- over: only CLOSE is left to say ---------------------------------------

    for symbol in (ConnectionInputs.hello, ConnectionInputs.move, ConnectionInputs.moveNack,
                  ConnectionInputs.malformed):
        over.upon(symbol).loop()(noopWith)
    for symbol in (ConnectionInputs.helloAck, ConnectionInputs.ready, ConnectionInputs.moveAck,
                  ConnectionInputs.finish, ConnectionInputs.noop, ConnectionInputs.started,
                  ConnectionInputs.ended):
        over.upon(symbol).loop()(ignoreWith)

    @over.upon(ConnectionInputs.timedOut).to(closed)
    def lingering(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
        core.hangUp("no CLOSE after the game")

    # -- leaving, from any phase in a room ---------------------------------------

    for state in inRoom:
        @state.upon(ConnectionInputs.close).to(closed)
        def close(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
            core.leave(data.number)
            core.end()

        @state.upon(ConnectionInputs.connectionLost).to(closed)
        def lost(machine: ConnectionInputs, core: ConnectionCore, data: Member) -> None:
            core.leave(data.number)

    everyInput: tuple[Callable[..., None], ...] = (
        ConnectionInputs.hello, ConnectionInputs.helloAck, ConnectionInputs.ready,
        ConnectionInputs.close, ConnectionInputs.move, ConnectionInputs.moveAck,
        ConnectionInputs.moveNack, ConnectionInputs.finish, ConnectionInputs.noop,
        ConnectionInputs.malformed, ConnectionInputs.started, ConnectionInputs.ended,
        ConnectionInputs.timedOut, ConnectionInputs.connectionLost)
    for anyInput in everyInput:
        closed.upon(anyInput).loop()(ignore)
    return builder.build()


ConnectionMachine = indexed(_build())
"""Build one with ``ConnectionMachine(core)``; it starts in ``connected``."""
