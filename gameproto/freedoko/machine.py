"""
The FreeDoko sequence of one child's connection, on the parent's side, as a
typed Automat machine (docs/protocols/freedoko.md, "The gameproto server").

A child connects (``new``); the parent greets it with ``FreeDoko server``
and waits for its ``name:`` (``awaitingName``); the name decides its seat
(``placing``): a place at a waiting table (``waiting``), the seat it left
in a party that still plays (``rejoining``), or none (``rejected``: sent
``connection rejected``, the connection stays open, as closing it may make
a real child crash, until the child closes it or an hour passes).  The table's first update starts the party for it
(``playing``) until ``party: finish``, or until it lets its time pass and a
bot takes its seat, or the party it came back to ends first (``finished``:
the connection stays open, as closing it makes a real child crash, until
the child closes it or an hour passes); then it is ``closed``.

The machine says what a child's line means in its phase; what the parent
sends during the party is translated from the table's updates by the
server (L{gameproto.freedoko.server.Translator}).  The data of every phase
at a table is the child's L{Place}: the FreeDoko player number it manages.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

import attrs
from automat import TypeMachine, TypeMachineBuilder

from gameproto.engine.contract import Instructions, Seat
from gameproto.engine.table import Table
from gameproto.freedoko import wire
from gameproto.machines import indexed
from gameproto.machines import stateName as stateName

__all__ = ["Place", "ServerCore", "ServerInputs", "ServerMachine", "stateName"]


@attrs.frozen
class Place:
    """The data of a phase at a table: the player number (0..3) the child manages."""

    seat: Seat


class ServerInputs(Protocol):
    """What can happen to a child's connection."""

    def connected(self) -> None:
        "The connection is made."

    def nameReceived(self, name: str) -> None:
        "``name: X``: the child's (its player's) name."

    def seated(self, place: int) -> None:
        "The name got a place at a waiting table."

    def reclaiming(self, place: int) -> None:
        "The name is that of a player who left a party still playing: its seat is given back."

    def rejected(self, reason: str) -> None:
        "No seat for this child."

    def update(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        "The table moved on (the first update: the party starts, or the seat is back)."

    def gameplay(self, action: wire.Action) -> None:
        "``gameplay action: ...`` (``trick taken`` excepted)."

    def trickTaken(self) -> None:
        "``gameplay action: trick taken``."

    def sync(self, message: wire.SyncGameplayActions) -> None:
        "``sync: gameplay actions``: the child's actions of its game so far."

    def ping(self, number: int | None) -> None:
        "``ping`` (with its number, if any)."

    def ask(self, question: str) -> None:
        "``ask: rules|name``."

    def chat(self, text: str) -> None:
        "``chat: text``."

    def malformed(self, reason: str) -> None:
        "A line that is no message (or one a child does not send)."

    def partyOver(self) -> None:
        "``party: finish`` was sent (or the party a child came back to ended first)."

    def timedOut(self) -> None:
        "The wait of the phase ran out (the name, a decision, a ``trick taken``, the close)."

    def connectionLost(self) -> None:
        "The connection is gone."


class ServerCore(Protocol):
    """The effects the machine asks for (the server's L{FreeDokoChild})."""

    @property
    def seat(self) -> Seat:
        "The player number the child manages (-1 before it has one)."

    def greet(self) -> None:
        "Send ``FreeDoko server`` and start the wait for the child's name."

    def stopTimer(self) -> None:
        "Cancel the connection's wait."

    def place(self, name: str) -> None:
        "Find a seat for ``name``: answer with seated, reclaiming or rejected."

    def join(self, place: int) -> None:
        "The handshake for ``place`` (name, rules, player lines); ready at the waiting table."

    def rejoin(self, place: int) -> None:
        "The handshake for the seat taken back; the seat is handed over (its update follows)."

    def reject(self, reason: str) -> None:
        "``connection rejected``; the connection lingers, then closes."

    def begin(self, table: Table, seat: Seat, instructions: Instructions, resumed: bool) -> None:
        "The first update: the party's lines (and the game so far, for a seat taken back)."

    def follow(self, table: Table, seat: Seat, instructions: Instructions) -> None:
        "A later update: its lines."

    def play(self, seat: Seat, action: wire.Action) -> None:
        "The child's gameplay action for ``seat``: to the table, or refused."

    def takeTrick(self, seat: Seat) -> None:
        "The child's ``trick taken``: one more trick behind the barrier."

    def answerSync(self, seat: Seat, message: wire.SyncGameplayActions) -> None:
        "The child's sync block: ours for its game, if it lags behind what it was told."

    def pong(self, number: int | None) -> None:
        "Answer a ping."

    def answer(self, question: str) -> None:
        "Answer ``ask:`` (the rules block, or the parent's name)."

    def relayChat(self, text: str) -> None:
        "Pass a chat line on to the other children of the table."

    def ignore(self, reason: str) -> None:
        "Log (at a bounded rate) a line that is no message, and go on."

    def refuse(self, action: wire.Action, why: str) -> None:
        "Refuse ``action``: one log line, and a chat line to the child; nothing is relayed."

    def forfeit(self, seat: Seat, reason: str) -> None:
        "A bot takes ``seat`` (and plays the move awaited); the connection lingers, then closes."

    def linger(self) -> None:
        "The party is over: the connection closes soon."

    def drop(self, reason: str) -> None:
        "Close, saying why in one log line (the seat, if any, to a bot)."

    def leave(self) -> None:
        "The connection is gone: its place is freed, or its seat goes to a bot."


def _seated(machine: ServerInputs, core: ServerCore, place: int) -> Place:
    return Place(place)


def _playing(machine: ServerInputs, core: ServerCore, table: Table, seat: Seat,
             instructions: Instructions) -> Place:
    return Place(seat)


def _finished(machine: ServerInputs, core: ServerCore) -> Place:
    return Place(core.seat)


def _build() -> TypeMachine[ServerInputs, ServerCore]:
    # The core is a Protocol that the connection's child implements (mypy #4717).
    builder = TypeMachineBuilder(ServerInputs, ServerCore)  # type: ignore[type-abstract]
    new = builder.state("new")
    awaitingName = builder.state("awaitingName")
    placing = builder.state("placing")
    rejected = builder.state("rejected")
    waiting = builder.state("waiting", _seated)
    rejoining = builder.state("rejoining", _seated)
    playing = builder.state("playing", _playing)
    finished = builder.state("finished", _finished)
    closed = builder.state("closed")
    atTable: tuple[Any, ...] = (waiting, rejoining, playing, finished)
    symbol: Callable[..., None]

    def ignore(machine: ServerInputs, core: ServerCore, *args: object) -> None:
        pass

    def ignoreWith(machine: ServerInputs, core: ServerCore, data: Place, *args: object) -> None:
        pass

    # -- greeting and naming -------------------------------------------------------

    @new.upon(ServerInputs.connected).to(awaitingName)
    def connected(machine: ServerInputs, core: ServerCore) -> None:
        core.greet()

    @awaitingName.upon(ServerInputs.nameReceived).to(placing)
    def named(machine: ServerInputs, core: ServerCore, name: str) -> None:
        core.stopTimer()
        core.place(name)

    @awaitingName.upon(ServerInputs.timedOut).to(closed)
    def nameless(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("no name: line in time")

    @awaitingName.upon(ServerInputs.connectionLost).to(closed)
    def goneEarly(machine: ServerInputs, core: ServerCore) -> None:
        core.stopTimer()

    @awaitingName.upon(ServerInputs.ping).loop()
    def pingEarly(machine: ServerInputs, core: ServerCore, number: int | None) -> None:
        core.pong(number)

    @awaitingName.upon(ServerInputs.ask).loop()
    def askEarly(machine: ServerInputs, core: ServerCore, question: str) -> None:
        core.answer(question)

    @awaitingName.upon(ServerInputs.malformed).loop()
    def malformedEarly(machine: ServerInputs, core: ServerCore, reason: str) -> None:
        core.ignore(reason)

    for symbol in (ServerInputs.gameplay, ServerInputs.trickTaken, ServerInputs.sync,
                   ServerInputs.chat):
        awaitingName.upon(symbol).loop()(ignore)

    # -- placing: the name decides -------------------------------------------------

    @placing.upon(ServerInputs.seated).to(waiting)
    def seated(machine: ServerInputs, core: ServerCore, place: int) -> None:
        core.join(place)

    @placing.upon(ServerInputs.reclaiming).to(rejoining)
    def reclaiming(machine: ServerInputs, core: ServerCore, place: int) -> None:
        core.rejoin(place)

    @placing.upon(ServerInputs.rejected).to(rejected)
    def reject(machine: ServerInputs, core: ServerCore, reason: str) -> None:
        core.reject(reason)

    # -- rejected: nothing more, but a pong, until the child or the time closes it --

    @rejected.upon(ServerInputs.timedOut).to(closed)
    def rejectedOver(machine: ServerInputs, core: ServerCore) -> None:
        core.drop("connection rejected")

    @rejected.upon(ServerInputs.connectionLost).to(closed)
    def rejectedGone(machine: ServerInputs, core: ServerCore) -> None:
        core.stopTimer()

    @rejected.upon(ServerInputs.ping).loop()
    def rejectedPing(machine: ServerInputs, core: ServerCore, number: int | None) -> None:
        core.pong(number)

    for symbol in (ServerInputs.nameReceived, ServerInputs.gameplay, ServerInputs.trickTaken,
                   ServerInputs.sync, ServerInputs.ask, ServerInputs.chat,
                   ServerInputs.malformed):
        rejected.upon(symbol).loop()(ignore)

    # -- at a table ----------------------------------------------------------------

    @waiting.upon(ServerInputs.update).to(playing)
    def begin(machine: ServerInputs, core: ServerCore, data: Place, table: Table, seat: Seat,
              instructions: Instructions) -> None:
        core.begin(table, seat, instructions, False)

    @rejoining.upon(ServerInputs.update).to(playing)
    def resume(machine: ServerInputs, core: ServerCore, data: Place, table: Table, seat: Seat,
               instructions: Instructions) -> None:
        core.begin(table, seat, instructions, True)

    @playing.upon(ServerInputs.update).loop()
    def follow(machine: ServerInputs, core: ServerCore, data: Place, table: Table, seat: Seat,
               instructions: Instructions) -> None:
        core.follow(table, seat, instructions)

    @playing.upon(ServerInputs.gameplay).loop()
    def play(machine: ServerInputs, core: ServerCore, data: Place, action: wire.Action) -> None:
        core.play(data.seat, action)

    @playing.upon(ServerInputs.trickTaken).loop()
    def trickTaken(machine: ServerInputs, core: ServerCore, data: Place) -> None:
        core.takeTrick(data.seat)

    @playing.upon(ServerInputs.sync).loop()
    def sync(machine: ServerInputs, core: ServerCore, data: Place,
             message: wire.SyncGameplayActions) -> None:
        core.answerSync(data.seat, message)

    @playing.upon(ServerInputs.partyOver).to(finished)
    def partyOver(machine: ServerInputs, core: ServerCore, data: Place) -> None:
        core.linger()

    @rejoining.upon(ServerInputs.partyOver).to(finished)
    def partyGone(machine: ServerInputs, core: ServerCore, data: Place) -> None:
        core.linger()

    @playing.upon(ServerInputs.timedOut).to(finished)
    def tooSlow(machine: ServerInputs, core: ServerCore, data: Place) -> None:
        core.forfeit(data.seat, "no answer in time: a bot plays the seat")

    @finished.upon(ServerInputs.timedOut).to(closed)
    def over(machine: ServerInputs, core: ServerCore, data: Place) -> None:
        core.drop("the party is over")

    def early(machine: ServerInputs, core: ServerCore, data: Place,
              action: wire.Action) -> None:
        core.refuse(action, "no game of yours is being played yet")

    for state in (waiting, rejoining):
        state.upon(ServerInputs.gameplay).loop()(early)
        for symbol in (ServerInputs.trickTaken, ServerInputs.sync, ServerInputs.timedOut):
            state.upon(symbol).loop()(ignoreWith)
    for symbol in (ServerInputs.update, ServerInputs.gameplay, ServerInputs.trickTaken,
                   ServerInputs.sync):
        finished.upon(symbol).loop()(ignoreWith)

    for state in atTable:
        @state.upon(ServerInputs.ping).loop()
        def ping(machine: ServerInputs, core: ServerCore, data: Place, number: int | None) -> None:
            core.pong(number)

        @state.upon(ServerInputs.ask).loop()
        def ask(machine: ServerInputs, core: ServerCore, data: Place, question: str) -> None:
            core.answer(question)

        @state.upon(ServerInputs.chat).loop()
        def chat(machine: ServerInputs, core: ServerCore, data: Place, text: str) -> None:
            core.relayChat(text)

        @state.upon(ServerInputs.malformed).loop()
        def malformed(machine: ServerInputs, core: ServerCore, data: Place, reason: str) -> None:
            core.ignore(reason)

        # the child says its name again in answer to "FreeDoko server"
        symbol = ServerInputs.nameReceived
        state.upon(symbol).loop()(ignoreWith)

        @state.upon(ServerInputs.connectionLost).to(closed)
        def lost(machine: ServerInputs, core: ServerCore, data: Place) -> None:
            core.stopTimer()
            core.leave()

    everyInput: tuple[Callable[..., None], ...] = (
        ServerInputs.nameReceived, ServerInputs.update, ServerInputs.gameplay,
        ServerInputs.trickTaken, ServerInputs.sync, ServerInputs.ping, ServerInputs.ask,
        ServerInputs.chat, ServerInputs.malformed, ServerInputs.partyOver,
        ServerInputs.timedOut, ServerInputs.connectionLost)
    for symbol in everyInput:
        closed.upon(symbol).loop()(ignore)
    return builder.build()


ServerMachine = indexed(_build())
"""Build one with ``ServerMachine(core)``; it starts in ``new``."""
