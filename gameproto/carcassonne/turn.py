"""
The turn sequence of one started Carcassonne game, after the document:
``starting`` (the table is set, START not yet said), ``passing`` (the turn
goes to the next seat), ``moving`` (a seat holds the token), ``acks`` (a
move was relayed and awaits the others' MOVEACKs) and ``over``.

The machine owns the turn: the seat holding the token and the token are
the data of ``moving``; the mover and the seats still to answer are the
data of ``acks``.  Its core (L{gameproto.carcassonne.server.CarcassonneGame})
does the talking, the table's calls and the time; it never keeps the turn
itself.
"""

from __future__ import annotations

from typing import Callable, Protocol, cast

import attrs
from automat import TypeMachine, TypeMachineBuilder

from gameproto.carcassonne import wire
from gameproto.engine.contract import JSON, Seat
from gameproto.machines import indexed
from gameproto.machines import stateName as stateName

__all__ = ["Acks", "Turn", "TurnCore", "TurnInputs", "TurnMachine", "stateName"]


@attrs.frozen
class Turn:
    """The data of ``moving``: the seat holding the token, and the token."""

    seat: Seat
    token: int


@attrs.define
class Acks:
    """The data of ``acks``: the mover, its token, and the seats that have not answered yet."""

    mover: Seat
    token: int
    awaiting: set[Seat]


class TurnInputs(Protocol):
    def begin(self) -> None: "The table's first news: the game starts."
    def give(self, seat: Seat, token: int) -> None: "The token goes to ``seat``."
    def move(self, seat: Seat, message: wire.Move) -> None: "A connection's MOVE."
    def moved(self, seat: Seat, move: JSON) -> None: "The table accepted ``seat``'s move."
    def relayed(self, mover: Seat, token: int, awaiting: frozenset[Seat]) -> None:
        "The move went to the others; ``awaiting`` must answer it."
    def acknowledge(self, seat: Seat) -> None: "A MOVEACK (or a seat that accepts every move)."
    def allAcked(self, mover: Seat, token: int) -> None: "Every other seat accepted the move."
    def refuse(self, seat: Seat) -> None: "A MOVENACK."
    def left(self, seat: Seat) -> None: "``seat``'s player left (a bot may hold it now)."
    def passTurn(self, token: int) -> None: "The seat holding ``token`` resigned."
    def finish(self, by: Seat | None) -> None: "A player's FINISH, or (None) the rules' end."
    def end(self, reason: str | None) -> None: "The game stops (``reason``: why it is aborted)."
    def tableEnded(self) -> None: "The table is over by itself."
    def timedOut(self) -> None: "The time for the move, or for its answers, is up."
    def botReady(self) -> None: "A bot's delay before its move is over."


class TurnCore(Protocol):
    def start(self) -> None: "START to every connection."
    def nextTurn(self, previous: int) -> tuple[Seat, int] | None:
        "The seat to move and its token (not ``previous``), or None: the game is over."
    def offer(self, seat: Seat, token: int) -> None: "Give ``seat`` the token; its time starts."
    def noop(self, seat: Seat) -> None: "NOOP to ``seat``'s connection, if it has one."
    def judge(self, seat: Seat, message: wire.Move) -> None: "The table judges the MOVE."
    def relay(self, seat: Seat, move: JSON, token: int) -> frozenset[Seat]:
        "MOVE to the others; the connections that must answer it."
    def awaitAcks(self) -> None: "The time for the answers starts."
    def moveAccepted(self, mover: Seat) -> None:
        "MOVEACK to the mover (its time runs on into the next turn's L{offer} or the end)."
    def gameDone(self) -> bool: "Whether the rules' end is reached (no move is left)."
    def stopGame(self, refuser: Seat, mover: Seat) -> str:
        "MOVENACK and FINISH for a refused move; the reason the game is aborted."
    def finishGame(self, by: Seat | None) -> None: "FINISH n to the others; the table ends."
    def wrapUp(self, reason: str | None) -> None:
        "The game is over for the connections; the table is aborted (``reason``) if still on."
    def tellFinish(self) -> None: "FINISH 0 to every connection."
    def settled(self) -> bool: "Whether the table is over (its last move may await answers)."
    def mustEnd(self) -> bool: "Whether too few seats are left to go on."
    def lacking(self) -> None: "FINISH 0 to the players left, if there are two."
    def botHolds(self, seat: Seat) -> bool: "Whether a bot plays ``seat`` now."
    def startBot(self, seat: Seat) -> None: "The bot in ``seat`` moves after its delay."
    def botPlays(self, seat: Seat) -> None: "The bot in ``seat`` moves now."
    def expire(self, seat: Seat) -> None: "``seat`` was too slow: its player is removed."
    def cancelTimer(self) -> None: "No time runs."


def _turn(machine: TurnInputs, core: TurnCore, seat: Seat, token: int) -> Turn:
    return Turn(seat, token)


def _acks(machine: TurnInputs, core: TurnCore, mover: Seat, token: int,
          awaiting: frozenset[Seat]) -> Acks:
    return Acks(mover, token, set(awaiting))


def _next(machine: TurnInputs, core: TurnCore, previous: int) -> None:
    """The turn passes: the token to the next seat, or the game is over."""
    turn = core.nextTurn(previous)
    if turn is None:
        machine.finish(None)
    else:
        machine.give(*turn)


def _build() -> TypeMachine[TurnInputs, TurnCore]:
    builder = TypeMachineBuilder(TurnInputs, TurnCore)  # type: ignore[type-abstract]
    starting = builder.state("starting")
    passing = builder.state("passing")
    moving = builder.state("moving", _turn)
    acks = builder.state("acks", _acks)
    over = builder.state("over")
    symbol: Callable[..., None]

    def ignore(machine: TurnInputs, core: TurnCore, *args: object) -> None:
        pass

    def noop(machine: TurnInputs, core: TurnCore, seat: Seat, *args: object) -> None:
        core.noop(seat)

    def ignoreWith(machine: TurnInputs, core: TurnCore, data: object, *args: object) -> None:
        pass

    def noopWith(machine: TurnInputs, core: TurnCore, data: object, seat: Seat,
                 *args: object) -> None:
        core.noop(seat)

    # -- starting ----------------------------------------------------------------

    @starting.upon(TurnInputs.begin).to(passing)
    def begin(machine: TurnInputs, core: TurnCore) -> None:
        core.start()
        _next(machine, core, 0)

    starting.upon(cast(Callable[..., None], TurnInputs.give)).loop()(ignore)

    # -- starting and passing: no one holds the token -------------------------------

    for state in (starting, passing):
        @state.upon(TurnInputs.left).loop()
        def leftBetween(machine: TurnInputs, core: TurnCore, seat: Seat) -> None:
            if core.mustEnd():
                core.lacking()
                machine.end("one player left")

        @state.upon(TurnInputs.finish).to(over)
        def finishBetween(machine: TurnInputs, core: TurnCore, by: Seat | None) -> None:
            core.finishGame(by)

        @state.upon(TurnInputs.end).to(over)
        def endBetween(machine: TurnInputs, core: TurnCore, reason: str | None) -> None:
            core.wrapUp(reason)

        @state.upon(TurnInputs.tableEnded).to(over)
        def tableEndedBetween(machine: TurnInputs, core: TurnCore) -> None:
            core.tellFinish()
            core.wrapUp(None)

        for symbol in (TurnInputs.move, TurnInputs.refuse):
            state.upon(symbol).loop()(noop)
        for symbol in (TurnInputs.moved, TurnInputs.relayed, TurnInputs.acknowledge,
                       TurnInputs.allAcked, TurnInputs.passTurn, TurnInputs.timedOut,
                       TurnInputs.botReady):
            state.upon(symbol).loop()(ignore)

    # -- passing, moving, acks: what ends a game any time --------------------------

    def finish(machine: TurnInputs, core: TurnCore, data: object, by: Seat | None) -> None:
        core.finishGame(by)

    def end(machine: TurnInputs, core: TurnCore, data: object, reason: str | None) -> None:
        core.wrapUp(reason)

    moving.upon(TurnInputs.finish).to(over)(finish)
    acks.upon(TurnInputs.finish).to(over)(finish)
    moving.upon(TurnInputs.end).to(over)(end)
    acks.upon(TurnInputs.end).to(over)(end)

    @moving.upon(TurnInputs.tableEnded).to(over)
    def tableEnded(machine: TurnInputs, core: TurnCore, data: Turn) -> None:
        core.tellFinish()
        core.wrapUp(None)

    # -- passing -------------------------------------------------------------------

    @passing.upon(TurnInputs.give).to(moving)
    def give(machine: TurnInputs, core: TurnCore, seat: Seat, token: int) -> None:
        core.offer(seat, token)

    passing.upon(TurnInputs.begin).loop()(ignore)

    # -- moving ----------------------------------------------------------------------

    @moving.upon(TurnInputs.move).loop()
    def move(machine: TurnInputs, core: TurnCore, data: Turn, seat: Seat,
             message: wire.Move) -> None:
        if seat == data.seat and message.token == data.token:
            core.judge(seat, message)
        else:
            core.noop(seat)

    @moving.upon(TurnInputs.moved).loop()
    def moved(machine: TurnInputs, core: TurnCore, data: Turn, seat: Seat,
              move: JSON) -> None:
        core.cancelTimer()
        machine.relayed(seat, data.token, core.relay(seat, move, data.token))

    @moving.upon(TurnInputs.relayed).to(acks)
    def relayed(machine: TurnInputs, core: TurnCore, data: Turn, mover: Seat, token: int,
                awaiting: frozenset[Seat]) -> None:
        if awaiting:
            core.awaitAcks()
        else:
            machine.allAcked(mover, token)

    @moving.upon(TurnInputs.timedOut).loop()
    def moveTimedOut(machine: TurnInputs, core: TurnCore, data: Turn) -> None:
        core.expire(data.seat)

    @moving.upon(TurnInputs.botReady).loop()
    def botReady(machine: TurnInputs, core: TurnCore, data: Turn) -> None:
        core.botPlays(data.seat)

    @moving.upon(TurnInputs.left).loop()
    def leftMoving(machine: TurnInputs, core: TurnCore, data: Turn, seat: Seat) -> None:
        if core.mustEnd():
            core.lacking()
            machine.end("one player left")
        elif seat == data.seat:
            if core.botHolds(seat):
                core.startBot(seat)
            else:
                machine.passTurn(data.token)

    @moving.upon(TurnInputs.passTurn).to(passing)
    def passTurn(machine: TurnInputs, core: TurnCore, data: Turn, token: int) -> None:
        core.cancelTimer()
        _next(machine, core, token)

    moving.upon(cast(Callable[..., None], TurnInputs.refuse)).loop()(noopWith)
    for symbol in (TurnInputs.begin, TurnInputs.give, TurnInputs.acknowledge,
                   TurnInputs.allAcked):
        moving.upon(symbol).loop()(ignoreWith)

    # -- acks --------------------------------------------------------------------------

    @acks.upon(TurnInputs.acknowledge).loop()
    def acknowledge(machine: TurnInputs, core: TurnCore, data: Acks, seat: Seat) -> None:
        if seat in data.awaiting:
            data.awaiting.discard(seat)
            if not data.awaiting:
                machine.allAcked(data.mover, data.token)

    @acks.upon(TurnInputs.allAcked).to(passing)
    def allAcked(machine: TurnInputs, core: TurnCore, data: Acks, mover: Seat,
                 token: int) -> None:
        core.moveAccepted(mover)
        if core.gameDone():
            machine.finish(None)
        else:
            _next(machine, core, token)

    @acks.upon(TurnInputs.refuse).loop()
    def refuse(machine: TurnInputs, core: TurnCore, data: Acks, seat: Seat) -> None:
        if seat in data.awaiting:
            data.awaiting.clear()
            machine.end(core.stopGame(seat, data.mover))
        else:
            core.noop(seat)

    @acks.upon(TurnInputs.timedOut).loop()
    def acksTimedOut(machine: TurnInputs, core: TurnCore, data: Acks) -> None:
        for seat in sorted(data.awaiting):
            core.expire(seat)

    @acks.upon(TurnInputs.left).loop()
    def leftAcks(machine: TurnInputs, core: TurnCore, data: Acks, seat: Seat) -> None:
        if not core.settled() and core.mustEnd():
            core.lacking()
            machine.end("one player left")
        else:
            machine.acknowledge(seat)  # a seat gone (or a bot's now) accepts the move

    acks.upon(cast(Callable[..., None], TurnInputs.move)).loop()(noopWith)
    for symbol in (TurnInputs.begin, TurnInputs.give, TurnInputs.moved, TurnInputs.relayed,
                   TurnInputs.passTurn, TurnInputs.tableEnded, TurnInputs.botReady):
        acks.upon(symbol).loop()(ignoreWith)

    # -- over --------------------------------------------------------------------------

    for symbol in (TurnInputs.move, TurnInputs.refuse):
        over.upon(symbol).loop()(noop)
    for symbol in (TurnInputs.begin, TurnInputs.give, TurnInputs.moved, TurnInputs.relayed,
                   TurnInputs.acknowledge, TurnInputs.allAcked, TurnInputs.left,
                   TurnInputs.passTurn, TurnInputs.finish, TurnInputs.end,
                   TurnInputs.tableEnded, TurnInputs.timedOut, TurnInputs.botReady):
        over.upon(symbol).loop()(ignore)
    return builder.build()


TurnMachine = indexed(_build())
"""Build one with ``TurnMachine(core)``; it starts in ``starting``."""
